//! What the caller asks of a search: order, threads, checks and bounds.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::report::Progress;

/// The order in which discovered states are expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchOrder {
    /// Breadth-first: counterexamples are shortest. With more than one
    /// thread this selects the level-synchronous parallel BFS (see
    /// [`ParallelMode::Auto`]).
    #[default]
    Bfs,
    /// Depth-first (last discovered, first expanded).
    Dfs,
    /// ProB's mixed depth/breadth-first search: each pop takes the newest
    /// or the oldest queued state at random. The seed makes runs repeatable.
    Mixed {
        /// Seed of the pseudo-random front/back choice.
        seed: u64,
    },
}

/// How several worker threads share the frontier (ignored when `threads == 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ParallelMode {
    /// Level-synchronous BFS for [`SearchOrder::Bfs`], work stealing otherwise.
    #[default]
    Auto,
    /// Work stealing in any order: best throughput, counterexamples are not
    /// necessarily shortest.
    WorkStealing,
    /// Level-synchronous parallel BFS: every state of depth `d` is expanded
    /// before any of depth `d + 1`, so counterexamples are shortest. Costs a
    /// barrier per BFS level.
    LevelSynchronous,
}

/// Callback receiving a [`Progress`] snapshot about once per second (an
/// `Arc` so that a [`Config`] can be cloned, e.g. by `orbit bench`).
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Everything [`crate::explore`] needs besides the system itself.
///
/// Cloning shares the cancel flag and progress callback.
///
/// `Config::default()` is a sequential, exact, unbounded BFS checking
/// invariants and deadlocks.
#[derive(Clone)]
pub struct Config {
    /// Expansion order.
    pub order: SearchOrder,
    /// Number of worker threads; `1` (or `0`) runs the sequential engine.
    pub threads: usize,
    /// How threads share the work when `threads > 1`.
    pub mode: ParallelMode,
    /// A state with no successor at all is reported as a deadlock.
    pub check_deadlock: bool,
    /// Stop at the first state satisfying the goal predicate (if the system
    /// has one).
    pub stop_at_goal: bool,
    /// Stop (cleanly, [`crate::StopReason::MaxStates`]) rather than store
    /// more than this many distinct states, with any number of threads
    /// (flooded permutations are not counted).
    pub max_states: Option<u64>,
    /// Stop ([`crate::StopReason::TimeLimit`]) after this much wall time.
    pub time_limit: Option<Duration>,
    /// Bytes the visited store (hash table, stored states, parent links)
    /// may use; the search stops ([`crate::StopReason::MemoryLimit`]) rather
    /// than grow past it. The frontier is not counted.
    pub memory_limit: Option<u64>,
    /// How the visited store keeps states (exact by default).
    pub store: StoreKind,
    /// Set to `true` (e.g. by a Ctrl-C handler) to stop the search cleanly
    /// ([`crate::StopReason::Interrupted`]).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called about every `progress_interval` while the search runs.
    pub progress: Option<ProgressFn>,
    /// Time between two progress callbacks (default one second).
    pub progress_interval: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            order: SearchOrder::Bfs,
            threads: 1,
            mode: ParallelMode::Auto,
            check_deadlock: true,
            stop_at_goal: false,
            max_states: None,
            time_limit: None,
            memory_limit: None,
            store: StoreKind::Exact,
            cancel: None,
            progress: None,
            progress_interval: Duration::from_secs(1),
        }
    }
}

/// How the visited store keeps states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreKind {
    /// Every state's significant bytes: no state is ever missed.
    #[default]
    Exact,
    /// Every state, tree-compressed (Laarman, van de Pol and Weber, SPIN
    /// 2011): exact, and smaller than `Exact` when states are several
    /// words wide and share parts; one or two words gain nothing.
    Tree,
    /// 64-bit fingerprints instead of states: several times less memory,
    /// at the price of a small probability of missing states when two
    /// states share a fingerprint (reported in
    /// [`crate::Stats::collision_probability`]).
    Compact,
}

impl StoreKind {
    /// Whether only fingerprints are kept (no state can be read back).
    pub fn is_compact(self) -> bool {
        self == StoreKind::Compact
    }
}

impl Config {
    /// The effective parallel mode: [`ParallelMode::Auto`] resolved against
    /// the search order.
    pub fn effective_mode(&self) -> ParallelMode {
        match (self.mode, self.order) {
            (ParallelMode::Auto, SearchOrder::Bfs) => ParallelMode::LevelSynchronous,
            (ParallelMode::Auto, _) => ParallelMode::WorkStealing,
            (mode, _) => mode,
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("order", &self.order)
            .field("threads", &self.threads)
            .field("mode", &self.mode)
            .field("check_deadlock", &self.check_deadlock)
            .field("stop_at_goal", &self.stop_at_goal)
            .field("max_states", &self.max_states)
            .field("time_limit", &self.time_limit)
            .field("memory_limit", &self.memory_limit)
            .field("store", &self.store)
            .field("cancel", &self.cancel.is_some())
            .field("progress", &self.progress.is_some())
            .field("progress_interval", &self.progress_interval)
            .finish()
    }
}
