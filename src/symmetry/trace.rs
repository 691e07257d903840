//! Counterexamples under symmetry, mapped back to real runs.
//!
//! The engine rebuilds a trace of representatives `r0, r1, ..., rn` on the
//! reduced system: `r(i+1)` is the representative of some successor
//! `t(i+1)` of `ri` by the step labelled `l(i+1)`, and `r0` that of an
//! initial state `t0`. Each of these is a permutation image:
//! `r(i) = p(i)(t(i))`. A real run follows the same steps with the
//! elements renamed, which Rumur calls the *scalarset schedule*: with
//! `q(i) = p(i) ∘ ... ∘ p(0)` mapping the real state `s(i)` to `r(i)`,
//!
//! ```text
//! s0 = t0,   s(i+1) = q(i)^-1 (t(i+1)),   q(i+1) = p(i+1) ∘ q(i)
//! ```
//!
//! Since the machine's transitions commute with the permutations, `s(i+1)`
//! is a successor of `s(i) = q(i)^-1 (r(i))`, by the step `l(i+1)` with its
//! parameters renamed by `q(i)^-1`, and `s(i)` is symmetric to `r(i)`, so
//! the last real state violates what `rn` violates. Each step's real label
//! is read off the unreduced successors of `s(i)`, which also checks that
//! the run is real. Only the successors of the trace's states with the
//! trace's label are canonicalised.
//!
//! Approximate markers are not permutations (a representative is merely
//! the first state seen with the same marker), so there the trace is mapped
//! by search instead: at each step, the first successor of the real state
//! whose representative is the next trace state. This can fail when states
//! of different orbits share a marker; the caller then reports that the
//! trace could not be mapped back.

use super::SymmetryLayer;
use crate::model::{Permutation, StateSymmetry};
use workers::{LabelledState, ModelError, Trace, TraceStep};

/// The unreduced model's labelled transitions, as the trace mapping needs
/// them.
pub trait RealRuns {
    /// The initial states with their labels.
    fn initial(&self) -> Result<Vec<LabelledState>, ModelError>;
    /// The successors of `state` with their labels.
    fn successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError>;
}

impl<S: StateSymmetry> SymmetryLayer<S> {
    /// Maps `trace`, a trace of representatives that the engine rebuilt on
    /// the reduced model, to a run of the unreduced model `runs` (see the
    /// module docs).
    pub fn real_trace(&self, runs: &dyn RealRuns, trace: &Trace) -> Result<Trace, String> {
        if !self.maps_by_permutation() {
            return self.real_trace_by_search(runs, trace);
        }
        let err = |i: usize, e: workers::ModelError| {
            format!("model error while mapping step {i} of the trace back: {e}")
        };
        let mut steps: Vec<TraceStep> = Vec::with_capacity(trace.steps.len());
        // `to_rep`: maps the last real state to the last representative.
        let mut to_rep: Option<Permutation> = None;
        for (i, step) in trace.steps.iter().enumerate() {
            let (candidates, from) = match i {
                0 => (runs.initial().map_err(|e| err(i, e))?, None),
                _ => {
                    let prev = &trace.steps[i - 1].state;
                    (runs.successors(prev).map_err(|e| err(i, e))?, Some(prev))
                }
            };
            let (t, p) = candidates
                .into_iter()
                .filter(|l| from.is_none() || l.label == step.label)
                .find_map(|l| {
                    let (rep, p) = self.to_representative(&l.state)?;
                    (*rep == *step.state).then_some((l, p))
                })
                .ok_or_else(|| {
                    format!("step {i} of the symmetry-reduced trace has no real counterpart")
                })?;
            let real = match &to_rep {
                None => t,
                Some(q) => {
                    let image = self
                        .permute(&q.inverse(), &t.state)
                        .ok_or_else(|| format!("step {i}: the renamed state does not fit"))?;
                    let prev = &steps[i - 1].state;
                    let successors = runs.successors(prev).map_err(|e| err(i, e))?;
                    successors
                        .into_iter()
                        .find(|l| *l.state == *image)
                        .ok_or_else(|| {
                            format!("step {i} renamed back is not a step of the machine")
                        })?
                }
            };
            to_rep = Some(match to_rep {
                None => p,
                Some(q) => p.compose(&q),
            });
            steps.push(TraceStep {
                label: real.label,
                state: real.state,
            });
        }
        Ok(Trace {
            steps,
            cycle_start: None,
        })
    }

    /// Maps a trace of approximate-marker representatives by search.
    fn real_trace_by_search(&self, runs: &dyn RealRuns, trace: &Trace) -> Result<Trace, String> {
        let mut steps: Vec<TraceStep> = Vec::with_capacity(trace.steps.len());
        for (i, step) in trace.steps.iter().enumerate() {
            let candidates: Vec<LabelledState> = match steps.last() {
                None => runs.initial(),
                Some(prev) => runs.successors(&prev.state),
            }
            .map_err(|e| format!("model error while mapping step {i} of the trace back: {e}"))?;
            let real = candidates
                .into_iter()
                .find(|l| *self.representative(&l.state) == *step.state)
                .ok_or_else(|| {
                    format!(
                        "step {i} of the symmetry-reduced trace has no real counterpart \
                         (approximate markers: states of different orbits share a marker)"
                    )
                })?;
            steps.push(TraceStep {
                label: real.label,
                state: real.state,
            });
        }
        Ok(Trace {
            steps,
            cycle_start: None,
        })
    }
}
