//! The run's budget: one token that every long phase checks, so that
//! Ctrl-C, SIGTERM, a time limit and a memory bound stop *any* phase
//! (constant enumeration, initial states, one huge expansion, building a
//! big set, the static analyses, the search) within a fraction of a second,
//! not only the search loop.
//!
//! A [`Watchdog`] thread owns the limits. Every [`POLL`] it reads the
//! cancel flag, the clock and the process's memory (resident set size from
//! `/proc/self/statm`); when one is exhausted it records the [`StopReason`] in a
//! process-wide flag and raises the cancel flag. Code anywhere — a front
//! end's interpreter loop, a canonicaliser, the engine — calls
//! [`tripped`]: one relaxed load of a static, cheap enough for inner loops,
//! and unwinds with that reason. The engine reports it as an incomplete
//! search, never as a model error or a verdict.
//!
//! One watchdog runs at a time (the command line starts it for the whole
//! run); without one, [`tripped`] is always `None`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::report::StopReason;

/// How often the watchdog checks the limits.
pub const POLL: Duration = Duration::from_millis(10);

/// The reason the budget ran out, as a [`StopReason`] code (0: not yet).
static TRIPPED: AtomicU8 = AtomicU8::new(0);

const REASONS: [StopReason; 5] = [
    StopReason::MaxStates,
    StopReason::TimeLimit,
    StopReason::MemoryLimit,
    StopReason::Interrupted,
    StopReason::WorkerFailed,
];

fn code(reason: StopReason) -> u8 {
    REASONS
        .iter()
        .position(|r| *r == reason)
        .map_or(0, |i| i as u8 + 1)
}

/// Why the run's budget is exhausted, if it is: the cancel flag was
/// raised, the time limit passed or the memory bound was reached. Long
/// loops call this and stop with the reason.
#[inline]
pub fn tripped() -> Option<StopReason> {
    match TRIPPED.load(Ordering::Relaxed) {
        0 => None,
        c => REASONS.get(c as usize - 1).copied(),
    }
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

/// Marks the budget exhausted for `reason` (the first reason stays).
pub fn trip(reason: StopReason) {
    let _ = TRIPPED.compare_exchange(0, code(reason), Ordering::Relaxed, Ordering::Relaxed);
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

/// The thread that watches the [`Limits`]; dropping it stops the thread.
pub struct Watchdog {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// Clears any earlier trip and starts watching `limits`. Fails only if
    /// no thread can be started (then nothing is watched: the caller must
    /// say so).
    pub fn start(limits: Limits) -> std::io::Result<Self> {
        TRIPPED.store(0, Ordering::Relaxed);
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let done = done.clone();
            std::thread::Builder::new()
                .name("orbit-watchdog".to_string())
                .stack_size(64 << 10)
                .spawn(move || watch(&limits, &done))?
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

fn watch(limits: &Limits, done: &AtomicBool) {
    let statm = Statm::open();
    while !done.load(Ordering::Relaxed) {
        if let Some(reason) = check(limits, &statm) {
            trip(reason);
            if let Some(cancel) = &limits.cancel {
                cancel.store(true, Ordering::Relaxed);
            }
        }
        std::thread::park_timeout(POLL);
    }
}

/// The first exhausted limit, if any (`statm` reads the memory in use).
fn check(limits: &Limits, statm: &Statm) -> Option<StopReason> {
    if tripped().is_some() {
        return None;
    }
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
