//! Counterexample reconstruction by replay.
//!
//! Engines keep only a parent link per stored state. To print a trace they
//! walk the links from the offending state back to an initial state, which
//! gives the chain of states (exact mode) or of fingerprints (compact mode)
//! on the path, then replay the model forwards: the first labelled initial
//! state matching the chain's first element, then, from each step, the
//! first labelled successor matching the next element (as stateright does).
//! This relies on the determinism contract of
//! [`crate::TransitionSystem`]; a broken contract yields an error message
//! instead of a wrong trace.

use crate::hash::fingerprint;
use crate::report::{Trace, TraceStep};
use crate::system::TransitionSystem;

/// One element of a parent chain: the state itself, or its fingerprint when
/// only fingerprints were stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StepKey {
    /// The full state.
    Words(Box<[u64]>),
    /// The state's fingerprint ([`crate::hash::fingerprint`]).
    Fingerprint(u64),
}

impl StepKey {
    fn matches(&self, state: &[u64]) -> bool {
        match self {
            StepKey::Words(words) => **words == *state,
            StepKey::Fingerprint(fp) => fingerprint(state) == *fp,
        }
    }
}

/// Replays a path of states of `system` (an initial state first, each
/// further state a successor of the one before) into a labelled trace:
/// what a search that keeps its own graph (the temporal checks) calls to
/// print a counterexample.
pub fn replay<T: TransitionSystem>(system: &T, path: &[Box<[u64]>]) -> Result<Trace, String> {
    let chain: Vec<StepKey> = path.iter().cloned().map(StepKey::Words).collect();
    rebuild(system, &chain)
}

/// Replays `chain` (initial state first) into a labelled trace.
pub(crate) fn rebuild<T: TransitionSystem>(system: &T, chain: &[StepKey]) -> Result<Trace, String> {
    let Some(first) = chain.first() else {
        return Err("empty parent chain".to_string());
    };
    let initial = system
        .labelled_initial_states()
        .map_err(|e| format!("model error while replaying the initialisation: {e}"))?;
    let start = initial
        .into_iter()
        .find(|l| first.matches(&l.state))
        .ok_or_else(|| {
            "the trace's first state is not among the labelled initial states \
             (initial_states and labelled_initial_states disagree)"
                .to_string()
        })?;
    let mut steps = vec![TraceStep {
        label: start.label,
        state: start.state,
    }];
    for (i, key) in chain.iter().enumerate().skip(1) {
        let prev = &steps[steps.len() - 1].state;
        let next = system
            .labelled_successors(prev)
            .map_err(|e| format!("model error while replaying step {i} of the trace: {e}"))?
            .into_iter()
            .find(|l| key.matches(&l.state))
            .ok_or_else(|| {
                format!(
                    "step {i} of the trace is not among the labelled successors of step {} \
                     (successors and labelled_successors disagree)",
                    i - 1
                )
            })?;
        steps.push(TraceStep {
            label: next.label,
            state: next.state,
        });
    }
    Ok(Trace {
        steps,
        cycle_start: None,
    })
}
