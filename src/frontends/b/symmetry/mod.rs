//! What the B front end tells the symmetry layer ([`crate::symmetry`]):
//! which given-set elements are interchangeable, how a permutation acts on
//! B values and encoded states, a B state as a coloured graph, ProB's
//! symmetry markers, and ProB's rules that set up fewer constant
//! valuations.
//!
//! - [`interchangeable_elements`]: the permutable domains of a machine;
//! - [`PermuteB`]: permutations applied to values and states;
//! - `graph`: a state as a coloured graph (thesis ch. 2.4, 3.4);
//! - `rename`: fast renaming of states, remembering renamed interned values;
//! - [`Markers`]: symmetry markers (`--symmetry markers`, `markers-exact`);
//! - [`ConstantRules`], `valuations`: which constant valuations a
//!   symmetry-reduced search sets up;
//! - [`BSymmetry`]: all of it as the model interface's
//!   [`StateSymmetry`](crate::model::StateSymmetry).

mod constants;
mod graph;
mod hooks;
mod interchangeable;
mod markers;
mod permute;
mod rename;
mod valuations;

pub use constants::{ClassConstraints, ConstantRules};
pub use graph::{GraphScratch, StateGraphs};
pub use hooks::{BSymScratch, BSymmetry, MarkerMode};
pub use interchangeable::interchangeable_elements;
pub use markers::{MarkerScratch, Markers};
pub use permute::PermuteB;
pub use valuations::{SetupPlan, constant_valuation_orbits, one_valuation_per_orbit, plan_setups};
