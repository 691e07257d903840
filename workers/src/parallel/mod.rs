//! The parallel engines: worker threads sharing one lock-free visited set.
//!
//! Each worker owns a system scratch space, an arena of the visited set
//! ([`crate::store`]) and outgoing [`batch::Batch`]es of new states; what
//! differs is how batches move between workers:
//!
//! * [`work_stealing`]: per-worker crossbeam deques, a global injector and
//!   batch stealing (Blumofe & Leiserson's work stealing over Chase–Lev
//!   deques). Best throughput, any order.
//! * [`level_sync`]: level-synchronous BFS. All batches of depth `d` are
//!   expanded, by all workers, before any of depth `d + 1`, so every state
//!   is stored with a parent one level up and counterexamples are shortest.
//!
//! The calling thread starts the workers (named `orbit-worker-N`) and then
//! watches: the cancel flag, the time limit, progress callbacks. The first
//! finding (or stop) raises a flag that every worker polls before each
//! state, so all stop within one state expansion; its trace is rebuilt
//! from the parent references in the arenas.

mod batch;
mod idle;
mod level_sync;
mod work_stealing;
pub(crate) mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam::utils::CachePadded;
use parking_lot::Mutex;

use crate::check::{End, Finding, finish, goal_checked};
use crate::config::{Config, ParallelMode};
use crate::report::{Progress, Report, Stats, StopReason};
use crate::store::{MAX_WORKERS, Ref, VisitedSet};
use crate::system::TransitionSystem;

/// Initial slots of the visited set's table.
const INITIAL_CAPACITY: usize = 1 << 14;
/// How often the calling thread polls the stop conditions (and samples
/// the queue for work stealing's peak). On two cores busy with two
/// workers each poll takes a core from one of them: polling every 2 ms,
/// German with 4 nodes at two threads took 0.90 s, every 20 ms 0.89 s
/// (medians of 7, one binary with a run-time switch); every 10, 50 and
/// 1000 ms, 0.89 s alike (medians of 9).
const MONITOR_POLL: Duration = Duration::from_millis(10);

/// Per-worker counters, on their own cache lines.
#[derive(Default)]
pub(crate) struct Counters {
    /// States this worker queued minus those it took (negative when it
    /// took batches others queued); the monitor sums them.
    queued: std::sync::atomic::AtomicI64,
    transitions: AtomicU64,
    max_depth: AtomicU64,
    reduced_states: AtomicU64,
    proviso_expansions: AtomicU64,
    flooded: AtomicU64,
}

impl Counters {
    fn add_transitions(&self, n: u64) {
        self.transitions.fetch_add(n, Ordering::Relaxed);
    }

    /// Adds (and zeroes) a worker's partial order reduction counts.
    fn add_por(&self, counts: &mut crate::por::PorCounts) {
        if counts.reduced > 0 {
            self.reduced_states
                .fetch_add(counts.reduced, Ordering::Relaxed);
        }
        if counts.proviso > 0 {
            self.proviso_expansions
                .fetch_add(counts.proviso, Ordering::Relaxed);
        }
        (counts.reduced, counts.proviso) = (0, 0);
    }

    fn add_flooded(&self, n: u64) {
        self.flooded.fetch_add(n, Ordering::Relaxed);
    }

    fn note_depth(&self, depth: u64) {
        if depth > self.max_depth.load(Ordering::Relaxed) {
            self.max_depth.store(depth, Ordering::Relaxed);
        }
    }
}

/// How the search ended, as recorded by the workers.
enum Ending {
    Found(Finding, Ref, u64),
    Stopped(StopReason),
    InitError(crate::ModelError),
}

/// What all workers share.
pub(crate) struct Shared<'a, T: TransitionSystem> {
    system: &'a T,
    config: &'a Config,
    /// Words of a batch record: the header, then the state in compact
    /// mode only.
    stride: usize,
    check_goal: bool,
    set: VisitedSet,
    stop: AtomicBool,
    ending: Mutex<Option<Ending>>,
    counters: Box<[CachePadded<Counters>]>,
    initial_states: AtomicU64,
    /// Most states seen waiting at once by the monitor's samples of the
    /// workers' `queued` counts.
    queue_peak: AtomicU64,
}

impl<T: TransitionSystem> Shared<'_, T> {
    /// Whether workers must stop.
    #[inline]
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Records a finding at state `r` of depth `depth` and stops everyone.
    /// Of several findings the shallowest wins (the first among equals), so
    /// the level-synchronous BFS reports a shortest counterexample.
    fn found(&self, finding: Finding, r: Ref, depth: u64) {
        let mut ending = self.ending.lock();
        let replace = match &*ending {
            None | Some(Ending::Stopped(_)) => true,
            Some(Ending::Found(_, _, d)) => depth < *d,
            Some(Ending::InitError(_)) => false,
        };
        if replace {
            *ending = Some(Ending::Found(finding, r, depth));
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Stops everyone for `reason`, unless something else ended the search.
    fn stop_with(&self, reason: StopReason) {
        let mut ending = self.ending.lock();
        if ending.is_none() {
            *ending = Some(Ending::Stopped(reason));
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Worker `worker` queued `n` states (taken: negative `n`). Each
    /// worker writes only its own count, in its own cache line, so the
    /// hot path shares no counter between threads.
    fn queue_add(&self, worker: usize, n: i64) {
        let queued = &self.counters[worker].queued;
        // Only this worker writes its count: no read-modify-write needed.
        queued.store(queued.load(Ordering::Relaxed) + n, Ordering::Relaxed);
    }

    /// States waiting to be expanded (the sum of the workers' counts: a
    /// sample, exact once they have stopped).
    fn queued(&self) -> u64 {
        let sum: i64 = self
            .counters
            .iter()
            .map(|c| c.queued.load(Ordering::Relaxed))
            .sum();
        sum.max(0) as u64
    }

    /// Samples the queue length into the peak (by the monitor, and at
    /// the end of every level of the level-synchronous search).
    fn sample_queue(&self) {
        self.queue_peak.fetch_max(self.queued(), Ordering::Relaxed);
    }

    fn transitions(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.transitions.load(Ordering::Relaxed))
            .sum()
    }

    fn progress(&self, elapsed: Duration) -> Progress {
        Progress {
            states: self.set.len(),
            transitions: self.transitions(),
            queue: self.queued(),
            store_bytes: self.set.bytes(),
            elapsed,
        }
    }
}

/// Explores `system` with `config.threads` worker threads (clamped to
/// 1..=256, with a warning; [`Stats::threads`] tells the number used).
/// See [`crate::explore`].
pub fn explore_parallel<T: TransitionSystem>(system: &T, config: &Config) -> Report {
    let start = Instant::now();
    let threads = config.threads.clamp(1, MAX_WORKERS);
    if threads != config.threads {
        tracing::warn!(
            asked = config.threads,
            used = threads,
            "thread count clamped to the supported range"
        );
    }
    let mode = config.effective_mode();
    let _span = tracing::info_span!("explore", engine = "parallel", threads, ?mode).entered();
    let width = system.state_width();
    let (mut set, handles) = VisitedSet::new(
        width,
        system.state_bytes(),
        config.store,
        threads,
        INITIAL_CAPACITY,
        config.memory_limit,
    );
    if let Some(max) = config.max_states {
        set.limit_states(max);
    }
    let store_initial_bytes = set.bytes();
    let shared = Shared {
        system,
        config,
        // Exact mode queues references only (the state is read back from
        // the set when expanded); compact mode must queue the state.
        stride: batch::HEADER + if config.store.is_compact() { width } else { 0 },
        check_goal: goal_checked(system, config),
        set,
        stop: AtomicBool::new(false),
        ending: Mutex::new(None),
        counters: (0..threads)
            .map(|_| CachePadded::new(Counters::default()))
            .collect(),
        initial_states: AtomicU64::new(0),
        queue_peak: AtomicU64::new(0),
    };
    let mut workers: Vec<worker::Worker<'_, '_, T>> = handles
        .into_iter()
        .enumerate()
        .map(|(i, h)| worker::Worker::new(&shared, i, h))
        .collect();
    let mut initial = Vec::new();
    {
        let _span = tracing::info_span!("initial_states").entered();
        if let Err(e) = workers[0].initial_states(&mut |b| initial.push(b)) {
            *shared.ending.lock() = Some(Ending::InitError(e));
        }
    }
    shared.queue_add(0, initial.iter().map(|b| b.len as i64).sum());
    shared.sample_queue();
    if !shared.stopping() && shared.ending.lock().is_none() {
        let _span = tracing::info_span!("search").entered();
        match mode {
            ParallelMode::LevelSynchronous => level_sync::run(&shared, workers, initial, start),
            _ => work_stealing::run(&shared, workers, initial, start),
        }
    }
    let flooded = shared
        .counters
        .iter()
        .map(|c| c.flooded.load(Ordering::Relaxed))
        .sum();
    let stats = Stats {
        states: shared.set.len() - flooded,
        flooded,
        transitions: shared.transitions(),
        initial_states: shared.initial_states.load(Ordering::Relaxed),
        max_depth: shared
            .counters
            .iter()
            .map(|c| c.max_depth.load(Ordering::Relaxed))
            .max()
            .unwrap_or(0),
        store_bytes: shared.set.bytes(),
        store_initial_bytes,
        state_bytes: system.state_bytes() as u64,
        queue_peak: shared.queue_peak.load(Ordering::Relaxed),
        threads,
        compact: config.store.is_compact(),
        tree_nodes: (config.store == crate::StoreKind::Tree).then(|| shared.set.nodes()),
        reduced_states: sum(&shared.counters, |c| &c.reduced_states),
        proviso_expansions: sum(&shared.counters, |c| &c.proviso_expansions),
        ..Stats::default()
    };
    let end = match shared.ending.lock().take() {
        None => End::Complete,
        Some(Ending::Stopped(reason)) => End::Stopped(reason),
        Some(Ending::InitError(e)) => End::InitError(e),
        Some(Ending::Found(finding, r, _)) => End::Found(finding, shared.set.chain_to(r)),
    };
    finish(system, end, stats, start)
}

/// The sum of one counter over all workers.
fn sum(counters: &[CachePadded<Counters>], field: impl Fn(&Counters) -> &AtomicU64) -> u64 {
    counters
        .iter()
        .map(|c| field(c).load(Ordering::Relaxed))
        .sum()
}

/// Stack of a worker thread: room for the deep recursion a system's
/// successor function may do on deeply nested model expressions (only the
/// pages used are ever touched).
pub const WORKER_STACK_BYTES: usize = 64 << 20;

/// Stack of a worker thread when the system refuses [`WORKER_STACK_BYTES`]
/// (an address-space limit, say): as much as a process's main thread gets.
pub const SMALL_WORKER_STACK_BYTES: usize = 8 << 20;

/// Starts worker `index` with a [`WORKER_STACK_BYTES`] stack, or, if the
/// system refuses that much, with [`SMALL_WORKER_STACK_BYTES`] and a
/// warning. `work` is given back on neither.
fn spawn_worker<'scope, 'env, F>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    index: usize,
    work: F,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, ()>>
where
    F: FnOnce() + Send + 'scope,
{
    // The closure moves into the first attempt; share it through a cell so
    // that a refused attempt (whose closure is dropped unrun) leaves it for
    // the second.
    let work = std::sync::Arc::new(parking_lot::Mutex::new(Some(work)));
    let attempt = |stack: usize| {
        let work = work.clone();
        std::thread::Builder::new()
            .name(format!("orbit-worker-{index}"))
            .stack_size(stack)
            .spawn_scoped(scope, move || {
                if let Some(work) = work.lock().take() {
                    work();
                }
            })
    };
    attempt(WORKER_STACK_BYTES).or_else(|e| {
        tracing::warn!(
            "worker thread {index}: no {} MiB stack ({e}); trying {} MiB",
            WORKER_STACK_BYTES >> 20,
            SMALL_WORKER_STACK_BYTES >> 20
        );
        attempt(SMALL_WORKER_STACK_BYTES)
    })
}

/// Runs `workers` on named scoped threads, each with `body`, while the
/// calling thread watches the stop conditions and reports progress.
///
/// If a worker cannot be started or panics (a bug in the system's code),
/// the search stops with [`StopReason::WorkerFailed`] (the error is
/// logged) and `on_panic` releases any worker blocked waiting for it: the
/// run ends as incomplete instead of hanging, aborting or reporting
/// success.
fn run_workers<'s, 'a, T, F>(
    shared: &'s Shared<'a, T>,
    workers: Vec<worker::Worker<'s, 'a, T>>,
    start: Instant,
    on_panic: &(dyn Fn() + Sync),
    body: F,
) where
    T: TransitionSystem,
    F: Fn(worker::Worker<'s, 'a, T>) + Sync,
{
    /// Counts a worker out when it leaves, normally or by failing.
    struct Exit<'x> {
        running: &'x AtomicUsize,
        monitor: std::thread::Thread,
    }
    impl Drop for Exit<'_> {
        fn drop(&mut self) {
            if self.running.fetch_sub(1, Ordering::Release) == 1 {
                // The last worker out wakes the monitor at once.
                self.monitor.unpark();
            }
        }
    }
    let running = AtomicUsize::new(workers.len());
    // The workers work for the caller's run: they stop on its budget.
    let budget = crate::budget::current();
    std::thread::scope(|scope| {
        for w in workers {
            let (running, body, budget) = (&running, &body, &budget);
            let index = w.index;
            let exit = Exit {
                running,
                monitor: std::thread::current(),
            };
            let work = move || {
                let _exit = exit;
                let _budget = budget.as_ref().map(crate::budget::Budget::enter);
                let _span = tracing::debug_span!("worker", index).entered();
                let mut w = w;
                w.rehome();
                let run = std::panic::AssertUnwindSafe(|| body(w));
                if let Err(payload) = std::panic::catch_unwind(run) {
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".to_string());
                    tracing::error!("worker thread {index} failed: {what}");
                    shared.stop_with(StopReason::WorkerFailed);
                    on_panic();
                }
            };
            let spawned = spawn_worker(scope, index, work);
            if let Err(e) = spawned {
                // Out of threads: stop the others; the closure (and its
                // `Exit`) was dropped, counting this worker out.
                tracing::error!("cannot start worker thread {index}: {e}");
                shared.stop_with(StopReason::WorkerFailed);
                on_panic();
            }
        }
        let mut watch = crate::watch::Watch::new(shared.config, start);
        while running.load(Ordering::Acquire) > 0 {
            std::thread::park_timeout(MONITOR_POLL);
            shared.sample_queue();
            if let Some(reason) = watch.stop_reason() {
                shared.stop_with(reason);
            }
            watch.tick(|elapsed| shared.progress(elapsed));
        }
    });
}
