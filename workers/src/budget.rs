//! A run's budget: one token per run that every long phase checks, so
//! that Ctrl-C, SIGTERM, a time limit and a memory bound stop *any* phase
//! (constant enumeration, initial states, one huge expansion, building a
//! big set, the static analyses, the search) within a fraction of a second,
//! not only the search loop.
//!
//! A [`Budget`] belongs to one run. The threads that work for the run
//! enter it ([`Budget::enter`]; the engine's workers enter their caller's
//! budget); code anywhere on such a thread — a front end's interpreter
//! loop, a canonicaliser, the engine — calls [`tripped`]: a thread-local
//! read and one relaxed load, cheap enough for inner loops, and unwinds
//! with the reason. A [`Watchdog`] thread enforces a run's [`Limits`]:
//! every [`POLL`] it reads the cancel flag, the clock and the process's
//! memory (resident set size from `/proc/self/statm`) and trips the run's
//! budget when one is exhausted. Two runs in one process (a library user's
//! test suite, an IDE) each have their own budget and stop on their own.
//! On a thread outside any run, [`tripped`] is always `None`.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::report::StopReason;

/// How often the watchdog checks the limits.
pub const POLL: Duration = Duration::from_millis(10);

const REASONS: [StopReason; 7] = [
    StopReason::MaxStates,
    StopReason::TimeLimit,
    StopReason::MemoryLimit,
    StopReason::Interrupted,
    StopReason::WorkerFailed,
    StopReason::LoopLimit,
    StopReason::CallDepth,
];

/// Deepest nesting of calls of a model's functions and procedures (a
/// Murphi function calling itself): deeper calls stop the run with
/// [`StopReason::CallDepth`]. Each call takes some stack of the thread
/// that interprets it; 10,000 fit the engine's threads with room to spare.
pub const CALL_DEPTH_LIMIT: usize = 10_000;

/// Most iterations one loop of a model (a Murphi `while`, a B `WHILE`)
/// may run before the run stops with [`StopReason::LoopLimit`]: a loop
/// that has not ended by then most likely never will. Loops over a range
/// (`for`) end by themselves and have no bound; the time limit and the
/// signals stop them.
pub const LOOP_LIMIT: u64 = 1 << 24;

/// How many iterations of a model's loop run between two reads of the
/// budget: one read per [`POLL_EVERY`] costs nothing measurable, and even
/// slow iterations (a B `WHILE` body) reach the next read in milliseconds.
pub const POLL_EVERY: u64 = 256;

/// Why the run must stop, if it must, read every [`POLL_EVERY`]-th call
/// (`count` is the caller's iteration counter): what loops of a model's
/// interpreter call once per iteration.
#[inline]
pub fn tripped_every(count: u64) -> Option<StopReason> {
    if count.is_multiple_of(POLL_EVERY) {
        tripped()
    } else {
        None
    }
}

fn code(reason: StopReason) -> u8 {
    REASONS
        .iter()
        .position(|r| *r == reason)
        .map_or(0, |i| i as u8 + 1)
}

fn reason(code: u8) -> Option<StopReason> {
    match code {
        0 => None,
        c => REASONS.get(c as usize - 1).copied(),
    }
}

/// The budget of one run: whether it is exhausted and why. Cloning shares
/// it.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// The reason it ran out, as a code of [`REASONS`] (0: not yet).
    tripped: Arc<AtomicU8>,
}

impl Budget {
    /// A fresh budget, not exhausted.
    pub fn new() -> Self {
        Self::default()
    }

    /// Why this budget is exhausted, if it is.
    pub fn tripped(&self) -> Option<StopReason> {
        reason(self.tripped.load(Ordering::Relaxed))
    }

    /// Marks this budget exhausted for `reason` (the first reason stays).
    pub fn trip(&self, reason: StopReason) {
        let _ =
            self.tripped
                .compare_exchange(0, code(reason), Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Makes this the budget of the calling thread until the guard is
    /// dropped (which restores the thread's previous budget): [`tripped`],
    /// [`trip`] and the engine's workers then use it.
    pub fn enter(&self) -> Entered {
        // A thread that is ending (its holder destroyed) enters nothing.
        let previous = match OWNED.try_with(|owned| owned.0.replace(Some(self.clone()))) {
            Ok(previous) => {
                CURRENT.with(|current| current.set(Arc::as_ptr(&self.tripped)));
                previous
            }
            Err(_) => None,
        };
        Entered { previous }
    }
}

thread_local! {
    /// The calling thread's budget, kept alive while it is entered.
    static OWNED: Owned = const { Owned(RefCell::new(None)) };
    /// The flag of [`OWNED`]'s budget (null: none), read without touching
    /// the `RefCell` (the allocator reads it too: no destructor, no
    /// allocation).
    static CURRENT: Cell<*const AtomicU8> = const { Cell::new(std::ptr::null()) };
}

/// A thread's entered budget. When the thread ends (and with it this
/// value, even if a guard was leaked), [`CURRENT`] is cleared first, so no
/// later allocation on the thread reads a freed flag.
struct Owned(RefCell<Option<Budget>>);

impl Drop for Owned {
    fn drop(&mut self) {
        let _ = CURRENT.try_with(|current| current.set(std::ptr::null()));
    }
}

/// The calling thread's budget while a [`Budget::enter`] guard lives.
#[must_use = "the budget is the thread's only while the guard lives"]
pub struct Entered {
    previous: Option<Budget>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.previous.take();
        let flag = previous
            .as_ref()
            .map_or(std::ptr::null(), |b| Arc::as_ptr(&b.tripped));
        // Cleared while the budget being left may be freed; with the
        // thread's holder already destroyed (a guard dropped by another
        // thread-local's destructor), it stays cleared.
        CURRENT.with(|current| current.set(std::ptr::null()));
        if OWNED
            .try_with(|owned| *owned.0.borrow_mut() = previous)
            .is_ok()
        {
            CURRENT.with(|current| current.set(flag));
        }
    }
}

/// The calling thread's budget, if it works for a run: what a thread that
/// helps the run (an engine worker) enters.
pub fn current() -> Option<Budget> {
    OWNED
        .try_with(|owned| owned.0.borrow().clone())
        .ok()
        .flatten()
}

/// Why the calling thread's run is out of budget, if it is: the cancel
/// flag was raised, the time limit passed or the memory bound was reached.
/// Long loops call this and stop with the reason.
#[inline]
pub fn tripped() -> Option<StopReason> {
    let flag = CURRENT.with(Cell::get);
    if flag.is_null() {
        return None;
    }
    // SAFETY: a non-null `CURRENT` is the flag of the budget `OWNED`
    // holds on this thread (set and cleared together by `enter` and the
    // guard's drop, cleared before `OWNED` is destroyed with the thread),
    // so the `Arc` keeps it alive.
    reason(unsafe { &*flag }.load(Ordering::Relaxed))
}

/// Whether `buffer` may take `extra` more words: false once the budget is
/// exhausted, or when the room cannot be allocated (which exhausts it for
/// memory). A buffer that collects a phase's output (the initial states,
/// say, of which there may be billions) grows by doubling, and a doubling
/// refused under an address-space limit would abort the process: this
/// turns it into a stop, with the partial summary.
pub fn keep_growing(buffer: &mut Vec<u64>, extra: usize) -> bool {
    if tripped().is_some() {
        return false;
    }
    // A doubling past the memory cap would touch twice the buffer while
    // it copies: refused before it is made.
    let needed = buffer.len().saturating_add(extra);
    if needed > buffer.capacity()
        && !crate::heap::room_for(needed.max(buffer.capacity() * 2) * std::mem::size_of::<u64>())
    {
        trip(StopReason::MemoryLimit);
        return false;
    }
    if buffer.try_reserve(extra).is_err() {
        trip(StopReason::MemoryLimit);
        return false;
    }
    true
}

/// `Err` (a stop, not an error of the model) if the budget is exhausted:
/// a phase whose output [`keep_growing`] may have cut calls this when it
/// ends, so that a partial result is never taken for the whole.
pub fn ensure_within() -> Result<(), crate::ModelError> {
    match tripped() {
        Some(reason) => Err(crate::ModelError::stopped(reason)),
        None => Ok(()),
    }
}

/// Marks the calling thread's budget exhausted for `reason` (the first
/// reason stays); nothing outside a run. Allocation-free: the allocator
/// calls it when memory is refused.
pub fn trip(reason: StopReason) {
    let flag = CURRENT.with(Cell::get);
    if !flag.is_null() {
        // SAFETY: as in `tripped`.
        let _ = unsafe { &*flag }.compare_exchange(
            0,
            code(reason),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }
}

/// Bounds on the process's memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryBound {
    /// Resident set size the process may reach.
    pub resident: Option<u64>,
}

impl MemoryBound {
    /// The bound used when none is given: 90% of what the process may use
    /// according to the machine's memory, the cgroup limit and the
    /// address-space and data limits, so that running out of memory is a
    /// clean stop with a summary, not an abort.
    ///
    /// An address-space limit (`ulimit -v`) counts reserved address space
    /// (thread stacks, the allocator's reservations) that is never
    /// resident, so allocations can fail before the resident size reaches
    /// it; the allocator's emergency reserve (`orbit::alloc`) turns such a
    /// failure into a clean stop too.
    pub fn default_for_machine() -> Self {
        let resident = [
            physical_memory(),
            cgroup_limit(),
            rlimit(libc_rlimit::DATA),
            rlimit(libc_rlimit::AS),
        ]
        .into_iter()
        .flatten()
        .min()
        .map(|b| b / 10 * 9);
        MemoryBound { resident }
    }

    /// `bytes` of resident memory, plus the machine's limits where they
    /// are tighter.
    pub fn at_most(bytes: u64) -> Self {
        let machine = Self::default_for_machine();
        MemoryBound {
            resident: Some(machine.resident.map_or(bytes, |m| m.min(bytes))),
        }
    }

    /// Whether `usage` is past the bound.
    fn exceeded(&self, usage: &Usage) -> bool {
        self.resident.is_some_and(|b| usage.resident > b)
    }
}

/// What the watchdog enforces.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Raised (by a signal handler, say) to stop the run; the watchdog
    /// raises it too when another limit trips, so the engine's own checks
    /// see it.
    pub cancel: Option<Arc<AtomicBool>>,
    /// When the run must stop.
    pub deadline: Option<Instant>,
    /// The memory bound.
    pub memory: MemoryBound,
}

/// The thread that watches a run's [`Limits`] and trips its budget;
/// dropping it stops the thread.
pub struct Watchdog {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// Starts watching `limits` for the run whose budget is `budget`.
    /// Fails only if no thread can be started (then nothing is watched:
    /// the caller must say so).
    pub fn start(budget: &Budget, limits: Limits) -> std::io::Result<Self> {
        let budget = budget.clone();
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let done = done.clone();
            std::thread::Builder::new()
                .name("orbit-watchdog".to_string())
                .stack_size(64 << 10)
                .spawn(move || watch(&budget, &limits, &done))?
        };
        Ok(Watchdog {
            done,
            thread: Some(thread),
        })
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

fn watch(budget: &Budget, limits: &Limits, done: &AtomicBool) {
    let statm = Statm::open();
    while !done.load(Ordering::Relaxed) {
        if budget.tripped().is_none()
            && let Some(reason) = check(limits, &statm)
        {
            budget.trip(reason);
            if let Some(cancel) = &limits.cancel {
                cancel.store(true, Ordering::Relaxed);
            }
        }
        std::thread::park_timeout(POLL);
    }
}

/// The first exhausted limit, if any (`statm` reads the memory in use).
fn check(limits: &Limits, statm: &Statm) -> Option<StopReason> {
    if limits
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed))
    {
        return Some(StopReason::Interrupted);
    }
    if limits.deadline.is_some_and(|d| Instant::now() >= d) {
        return Some(StopReason::TimeLimit);
    }
    if limits.memory != MemoryBound::default()
        && let Some(usage) = statm.usage()
        && limits.memory.exceeded(&usage)
    {
        return Some(StopReason::MemoryLimit);
    }
    None
}

/// The process's memory use.
#[derive(Clone, Copy, Debug)]
struct Usage {
    resident: u64,
}

impl Usage {
    /// From `/proc/self/statm`; `None` where it cannot be read.
    fn now() -> Option<Usage> {
        Self::parse(&std::fs::read_to_string("/proc/self/statm").ok()?)
    }

    /// From the text of `/proc/self/statm` (pages: size, resident, ...).
    fn parse(statm: &str) -> Option<Usage> {
        let mut fields = statm.split_whitespace().map(|f| f.parse::<u64>().ok());
        let _size = fields.next()??;
        let resident = fields.next()??;
        const PAGE: u64 = 4096;
        Some(Usage {
            resident: resident * PAGE,
        })
    }
}

/// `/proc/self/statm` kept open by the watchdog, read again from its start
/// at every poll: one system call rather than four (open, two reads,
/// close). On two cores busy with two workers, each poll takes a core from
/// one of them: German with 4 nodes at two threads polls 91 times in
/// 0.9 s, and the watchdog ran 7.4 ms in all, now 1.4 ms (`perf sched`).
struct Statm {
    file: Option<std::fs::File>,
}

impl Statm {
    /// Opens the file (reads fail quietly, as [`Usage::now`] does, where
    /// there is none).
    fn open() -> Self {
        Statm {
            file: std::fs::File::open("/proc/self/statm").ok(),
        }
    }

    /// The memory in use now.
    fn usage(&self) -> Option<Usage> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileExt;
            let mut buf = [0u8; 256];
            let n = self.file.as_ref()?.read_at(&mut buf, 0).ok()?;
            Usage::parse(std::str::from_utf8(&buf[..n]).ok()?)
        }
        #[cfg(not(unix))]
        Usage::now()
    }
}

/// Resident memory of the process now, if known.
pub fn resident_bytes() -> Option<u64> {
    Usage::now().map(|u| u.resident)
}

/// Physical memory (`MemTotal` of `/proc/meminfo`).
fn physical_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The cgroup (v2, then v1) memory limit of the process, if one is set.
fn cgroup_limit() -> Option<u64> {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in cgroup.lines() {
        let path = line.rsplit(':').next().unwrap_or("");
        for file in [
            format!("/sys/fs/cgroup{path}/memory.max"),
            "/sys/fs/cgroup/memory.max".to_string(),
            format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"),
            "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_string(),
        ] {
            if let Ok(text) = std::fs::read_to_string(&file)
                && let Ok(bytes) = text.trim().parse::<u64>()
                && bytes < (1 << 60)
            {
                return Some(bytes);
            }
        }
    }
    None
}

/// The soft limit of a resource, read from `/proc/self/limits` (no libc
/// binding needed); `None` when unlimited or unknown.
fn rlimit(resource: &str) -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with(resource))?;
    let soft = line[resource.len()..].split_whitespace().next()?;
    soft.parse().ok()
}

/// The rows of `/proc/self/limits` the bound reads.
mod libc_rlimit {
    /// `RLIMIT_AS`.
    pub const AS: &str = "Max address space";
    /// `RLIMIT_DATA`.
    pub const DATA: &str = "Max data size";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_round_trip_through_their_codes() {
        for reason in REASONS {
            assert_eq!(REASONS.get(code(reason) as usize - 1), Some(&reason));
        }
    }

    #[test]
    fn a_thread_sees_the_budget_it_entered_and_no_other() {
        let (a, b) = (Budget::new(), Budget::new());
        assert_eq!(tripped(), None);
        trip(StopReason::TimeLimit); // outside a run: nothing to trip
        {
            let _a = a.enter();
            trip(StopReason::TimeLimit);
            assert_eq!(tripped(), Some(StopReason::TimeLimit));
            {
                let _b = b.enter();
                assert_eq!(tripped(), None);
                let run = current().expect("entered");
                std::thread::scope(|s| {
                    s.spawn(|| {
                        assert_eq!(tripped(), None, "a new thread is in no run");
                        let _b = run.enter();
                        b.trip(StopReason::Interrupted);
                        assert_eq!(tripped(), Some(StopReason::Interrupted));
                    });
                });
            }
            trip(StopReason::MemoryLimit); // the first reason stays
            assert_eq!(tripped(), Some(StopReason::TimeLimit));
        }
        assert_eq!(tripped(), None);
        assert!(current().is_none());
        assert_eq!(b.tripped(), Some(StopReason::Interrupted));
    }

    #[test]
    fn a_watchdog_trips_its_own_run_only() {
        let (late, early) = (Budget::new(), Budget::new());
        let limits = |ms| Limits {
            deadline: Some(Instant::now() + Duration::from_millis(ms)),
            ..Limits::default()
        };
        let _late = Watchdog::start(&late, limits(60_000)).expect("thread");
        let _early = Watchdog::start(&early, limits(20)).expect("thread");
        let start = Instant::now();
        while early.tripped().is_none() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(POLL);
        }
        assert_eq!(early.tripped(), Some(StopReason::TimeLimit));
        assert_eq!(late.tripped(), None);
    }

    #[test]
    fn the_machine_has_a_memory_bound_and_usage() {
        let bound = MemoryBound::default_for_machine();
        assert!(bound.resident.is_some(), "{bound:?}");
        let usage = Usage::now().expect("/proc/self/statm");
        assert!(usage.resident > 0);
        assert!(!bound.exceeded(&usage));
        assert!(MemoryBound::at_most(1).exceeded(&usage));
    }

    /// The watchdog's open `statm` reads the memory in use now, not what
    /// it was when opened.
    #[test]
    fn an_open_statm_reads_the_current_usage() {
        let statm = Statm::open();
        let before = statm.usage().expect("/proc/self/statm").resident;
        let block = vec![1u8; 64 << 20];
        let after = statm.usage().expect("/proc/self/statm").resident;
        assert!(after >= before + (32 << 20), "{before} -> {after}");
        drop(std::hint::black_box(block));
    }
}
