//! orbit's language-neutral exploration engine.
//!
//! A front end compiles a model into a [`TransitionSystem`]; this crate
//! explores its reachable states, checks them and rebuilds counterexamples.

pub mod system;

pub use system::{LabelledState, ModelError, TransitionSystem, Violation, ViolationKind};
