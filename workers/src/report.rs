//! What a search returns: its outcome, statistics and counterexample.

use std::fmt;
use std::time::Duration;

use crate::system::{ModelError, Violation};

/// The result of [`crate::explore`].
#[derive(Clone, Debug)]
pub struct Report {
    /// Why the search ended.
    pub outcome: Outcome,
    /// Counters, partial if the search stopped early.
    pub stats: Stats,
    /// For a violation, deadlock, goal or model error: the path from an
    /// initial state to the offending state (to the state whose successors
    /// raised the error). `None` otherwise, or if it could not be rebuilt
    /// (see `trace_error`).
    pub trace: Option<Trace>,
    /// Why the trace could not be rebuilt (the system broke the determinism
    /// contract, or its labelled functions failed), if so.
    pub trace_error: Option<String>,
}

/// Why a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every reachable state was explored and no error found.
    Complete,
    /// A state violates an invariant or assertion.
    Violation(Violation),
    /// A state has no successor (only with `check_deadlock`).
    Deadlock,
    /// A goal state was found (only with `stop_at_goal`).
    GoalFound,
    /// The model raised an error (e.g. a well-definedness failure).
    ModelError(ModelError),
    /// The search stopped before finishing; statistics are partial.
    Stopped(StopReason),
}

impl Outcome {
    /// Whether the outcome is an error in the model (violation, deadlock or
    /// model error).
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Outcome::Violation(_) | Outcome::Deadlock | Outcome::ModelError(_)
        )
    }
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// `max_states` distinct states were stored.
    MaxStates,
    /// `time_limit` elapsed.
    TimeLimit,
    /// The visited store reached `memory_limit`.
    MemoryLimit,
    /// The `cancel` flag was set (Ctrl-C).
    Interrupted,
    /// A worker thread could not be started or failed (panicked); the
    /// error is logged. The search is incomplete, never "no error".
    WorkerFailed,
    /// The store cannot name another state or tree node: a worker's
    /// records passed 2^40, or the tree store's nodes 2^32.
    StoreFull,
    /// One loop of the model (a Murphi `while`, a B `WHILE`) ran
    /// [`crate::budget::LOOP_LIMIT`] iterations: a bound of orbit, not an
    /// error of the model.
    LoopLimit,
    /// Calls of the model's functions and procedures nested
    /// [`crate::budget::CALL_DEPTH_LIMIT`] deep: a bound of orbit, not an
    /// error of the model.
    CallDepth,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::MaxStates => "state limit reached",
            StopReason::TimeLimit => "time limit reached",
            StopReason::MemoryLimit => "memory limit of the visited store reached",
            StopReason::Interrupted => "interrupted",
            StopReason::WorkerFailed => "a worker thread could not be started or failed",
            StopReason::StoreFull => "the store can name no more states or tree nodes",
            StopReason::LoopLimit => "a loop of the model ran orbit's iteration bound",
            StopReason::CallDepth => "the model's calls nested as deep as orbit's bound",
        })
    }
}

/// Counters of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Distinct states stored (initial states included), checked and
    /// expanded; states stored only by flooding are in `flooded` instead.
    pub states: u64,
    /// States stored in the visited set by permutation flooding without
    /// being checked or expanded (0 unless the system floods).
    pub flooded: u64,
    /// Successor edges emitted by expanded states, duplicates included.
    pub transitions: u64,
    /// Distinct initial states.
    pub initial_states: u64,
    /// Partial order reduction: states expanded through a proper ample set
    /// only (the other expanded states were fully expanded).
    pub reduced_states: u64,
    /// Partial order reduction: states whose proper ample set reached a
    /// state already in the visited set and that were therefore fully
    /// expanded (the cycle proviso).
    pub proviso_expansions: u64,
    /// Largest depth (distance in the search tree from an initial state) of
    /// a stored state. Equal to the BFS depth for breadth-first searches.
    pub max_depth: u64,
    /// Wall-clock time of the search.
    pub wall: Duration,
    /// Bytes used by the visited store at the end: hash table(s), stored
    /// states or fingerprints, parent links.
    pub store_bytes: u64,
    /// Bytes of the visited store when it was empty (its initial table,
    /// and the first chunk of each column its first state takes): a
    /// store still near this size holds too few states for
    /// [`Stats::bytes_per_state`] to say anything about the cost per state.
    pub store_initial_bytes: u64,
    /// Bytes of one stored state ([`crate::TransitionSystem::state_bytes`]:
    /// the state's significant bytes, before the store's own costs).
    pub state_bytes: u64,
    /// Largest number of states waiting in the frontier at once
    /// (approximate for parallel searches, which count per batch).
    pub queue_peak: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Whether only fingerprints were stored (`compact`).
    pub compact: bool,
    /// With a tree-compressed store: the tree nodes stored.
    pub tree_nodes: Option<u64>,
    /// In compact mode, an estimate of the probability that a state was
    /// missed because its fingerprint collided with another state's: the
    /// birthday bound `n(n-1)/2 / 2^64` over the `n` distinct states (the
    /// pessimistic figure TLC prints). `None` in exact mode.
    pub collision_probability: Option<f64>,
    /// A distributed search's figures per rank, by rank (empty for a
    /// search in one process); fewer than [`Stats::job_ranks`] when a rank
    /// lost the others and reports its own alone.
    pub ranks: Vec<RankStats>,
    /// Ranks of a distributed search's job (0 for a search in one process).
    pub job_ranks: usize,
}

/// One rank's figures in a distributed search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankStats {
    /// The rank.
    pub rank: usize,
    /// Distinct states the rank owns and stored.
    pub states: u64,
    /// Successors its expansions emitted.
    pub transitions: u64,
    /// Bytes of its visited store.
    pub store_bytes: u64,
    /// Messages it sent to other ranks.
    pub messages_sent: u64,
    /// Bytes of those messages.
    pub bytes_sent: u64,
    /// States it sent to their owners.
    pub states_sent: u64,
}

impl Stats {
    /// Whether the store has grown well past its initial size (to at least
    /// twice it), so that [`Stats::bytes_per_state`] measures the cost of a
    /// state rather than the fixed size of an almost empty table.
    pub fn store_past_initial_size(&self) -> bool {
        self.store_bytes >= 2 * self.store_initial_bytes && self.states > 0
    }

    /// Bytes of visited store per distinct state (0 with no state).
    pub fn bytes_per_state(&self) -> f64 {
        if self.states == 0 {
            0.0
        } else {
            self.store_bytes as f64 / self.states as f64
        }
    }

    /// Distinct states per second of wall time.
    pub fn states_per_second(&self) -> f64 {
        let secs = self.wall.as_secs_f64();
        if secs > 0.0 {
            self.states as f64 / secs
        } else {
            0.0
        }
    }
}

/// Birthday-bound probability that some two of `states` uniformly random
/// 64-bit fingerprints collide: `n(n-1)/2 / 2^64`, capped at 1.
pub fn collision_probability(states: u64) -> f64 {
    let n = states as f64;
    (n * (n - 1.0).max(0.0) / 2.0 / 2f64.powi(64)).min(1.0)
}

/// A counterexample or witness: a path of labelled steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// `steps[0]` is an initial state (its label from
    /// `labelled_initial_states`); each further step is a successor of the
    /// previous one with the label of the transition taken.
    pub steps: Vec<TraceStep>,
    /// For a lasso (a counterexample to a temporal property): the index
    /// of the step the run returns to after the last one. The last step's
    /// state equals this step's state, and the steps after it repeat
    /// forever. `None` for a finite path.
    pub cycle_start: Option<usize>,
}

impl Trace {
    /// Number of transitions on the path (steps minus the initial state).
    pub fn transitions(&self) -> usize {
        self.steps.len().saturating_sub(1)
    }

    /// The last state of the path.
    pub fn last_state(&self) -> Option<&[u64]> {
        self.steps.last().map(|s| &*s.state)
    }
}

/// One step of a [`Trace`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The label of the initialisation or transition taken.
    pub label: String,
    /// The state reached.
    pub state: Box<[u64]>,
}

/// A snapshot passed to the progress callback.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Distinct states stored so far.
    pub states: u64,
    /// Transitions emitted so far.
    pub transitions: u64,
    /// States waiting in the frontier.
    pub queue: u64,
    /// Bytes of the visited store.
    pub store_bytes: u64,
    /// Wall time since the search started.
    pub elapsed: Duration,
}
