//! orbit's language-neutral exploration engine.
//!
//! A front end compiles a model into a [`TransitionSystem`]; this crate
//! explores its reachable states, checks them and rebuilds counterexamples.
//!
//! Every reachable state is checked exactly once, when it is first stored:
//! [`TransitionSystem::check_state`], then the goal predicate if
//! [`Config::stop_at_goal`]. The first violation, deadlock, goal or model
//! error ends the search with a [`Trace`] rebuilt from parent links (module
//! `trace` explains how). Distinct-state and transition
//! counts of a complete search do not depend on the order or thread count.
//!
//! ```text
//! explore ─┬─ threads <= 1 ─> sequential  (any SearchOrder, own store)
//!          └─ threads  > 1 ─> parallel ─┬─ work_stealing (throughput)
//!                                       └─ level_sync    (shortest traces)
//!                               over store: lock-free table + arenas
//!                               (states exact, tree-compressed or fingerprints)
//! ```

#![warn(missing_docs)]

pub mod budget;
pub mod config;
pub mod heap;
pub mod report;
pub mod store;
pub mod system;

mod check;
pub mod distributed;
mod expand;
mod flood;
mod hash;
mod parallel;
mod por;
mod recent;
mod sequential;
pub mod trace;
mod watch;

pub use config::{Config, ParallelMode, ProgressFn, SearchOrder, StoreKind};
pub use hash::{fingerprint, prefetch};
pub use parallel::explore_parallel;
pub use report::{Outcome, Progress, RankStats, Report, Stats, StopReason, Trace, TraceStep};
pub use sequential::explore_sequential;

/// Most worker threads a parallel search can use (one arena of the
/// visited set per worker).
pub const MAX_THREADS: usize = store::MAX_WORKERS;
pub use system::{
    Expansion, LabelledState, ModelError, TransitionSystem, Violation, ViolationKind,
};

/// Explores the reachable states of `system` as `config` asks and reports
/// the outcome, statistics and, for an error or goal, a trace to it.
///
/// One thread (`threads <= 1`) runs [`explore_sequential`]; more run
/// [`explore_parallel`] in the [`ParallelMode`] the config selects.
pub fn explore<T: TransitionSystem>(system: &T, config: &Config) -> Report {
    if config.threads <= 1 {
        explore_sequential(system, config)
    } else {
        explore_parallel(system, config)
    }
}
