//! What engines do with each new state and how they turn findings into a
//! [`Report`]: shared by the sequential and parallel engines so both
//! report the same things the same way.

use std::time::Instant;

use crate::config::Config;
use crate::report::{Outcome, Report, Stats, StopReason};
use crate::system::{ModelError, TransitionSystem, Violation};
use crate::trace::{StepKey, rebuild};

/// Something that ends the search at a particular state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Finding {
    /// The state violates a property.
    Violation(Violation),
    /// The state has no successor.
    Deadlock,
    /// The state satisfies the goal.
    Goal,
    /// The model failed while checking the state or computing its successors.
    ModelError(ModelError),
}

impl Finding {
    /// The outcome the finding ends a search with.
    pub(crate) fn into_outcome(self) -> Outcome {
        match self {
            Finding::Violation(v) => Outcome::Violation(v),
            Finding::Deadlock => Outcome::Deadlock,
            Finding::Goal => Outcome::GoalFound,
            Finding::ModelError(e) => Outcome::ModelError(e),
        }
    }
}

/// Runs the state checks on a newly stored state: properties first, then
/// the goal (only when the caller stops at goals and the system has one).
#[inline]
pub(crate) fn check_new_state<T: TransitionSystem>(
    system: &T,
    scratch: &mut T::Scratch,
    state: &[u64],
    check_goal: bool,
) -> Option<Finding> {
    match system.check_state(scratch, state) {
        Err(e) => return Some(Finding::ModelError(e)),
        Ok(Some(v)) => return Some(Finding::Violation(v)),
        Ok(None) => {}
    }
    if check_goal {
        match system.is_goal(scratch, state) {
            Err(e) => return Some(Finding::ModelError(e)),
            Ok(true) => return Some(Finding::Goal),
            Ok(false) => {}
        }
    }
    None
}

/// Whether goal states are to be checked under `config`.
pub(crate) fn goal_checked<T: TransitionSystem>(system: &T, config: &Config) -> bool {
    config.stop_at_goal && system.has_goal()
}

/// How a search ended, before the trace is rebuilt.
pub(crate) enum End {
    /// Every reachable state explored.
    Complete,
    /// Stopped early.
    Stopped(StopReason),
    /// The initial states could not be computed: no trace.
    InitError(ModelError),
    /// A finding at a state; the chain leads from an initial state to it.
    Found(Finding, Vec<StepKey>),
}

/// Assembles the final report, replaying the trace of a finding.
pub(crate) fn finish<T: TransitionSystem>(
    system: &T,
    end: End,
    mut stats: Stats,
    start: Instant,
) -> Report {
    let (outcome, trace, trace_error) = match end {
        End::Complete => (Outcome::Complete, None, None),
        End::Stopped(reason) => (Outcome::Stopped(reason), None, None),
        // A computation cut short by the budget is no finding.
        End::InitError(ModelError {
            stopped: Some(reason),
            ..
        })
        | End::Found(
            Finding::ModelError(ModelError {
                stopped: Some(reason),
                ..
            }),
            _,
        ) => (Outcome::Stopped(reason), None, None),
        End::InitError(e) => (Outcome::ModelError(e), None, None),
        End::Found(finding, chain) => {
            let _span = tracing::info_span!("rebuild_trace", len = chain.len()).entered();
            match rebuild(system, &chain) {
                Ok(trace) => (finding.into_outcome(), Some(trace), None),
                Err(e) => (finding.into_outcome(), None, Some(e)),
            }
        }
    };
    if stats.compact {
        stats.collision_probability = Some(crate::report::collision_probability(
            stats.states + stats.flooded,
        ));
    }
    stats.wall = start.elapsed();
    Report {
        outcome,
        stats,
        trace,
        trace_error,
    }
}
