//! Properties over time, checked on the whole reachable state space rather
//! than state by state.
//!
//! - [`liveness`]: Rumur's `liveness` properties, CTL's AG EF p (from every
//!   reachable state a state satisfying p stays reachable), decided by
//!   backward reachability from the p-states over an explicit
//!   [`graph::StateGraph`].
//!
//! The algorithms see the model only through the engine's
//! [`workers::TransitionSystem`] (the layer stack, with symmetry reduction
//! when it is on) and the [`crate::model::Model`]'s state predicates: no
//! front-end code lives here.

pub mod graph;
pub mod liveness;
pub mod ltl;

use std::fmt;
use workers::{ModelError, StopReason};

/// Why a temporal check did not reach a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemporalError {
    /// The run's budget ran out (a limit, a signal, a failed thread).
    Stopped(StopReason),
    /// The model raised an error while the graph was built.
    Model(ModelError),
}

impl fmt::Display for TemporalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemporalError::Stopped(reason) => write!(f, "stopped: {reason}"),
            TemporalError::Model(e) => write!(f, "{e}"),
        }
    }
}
