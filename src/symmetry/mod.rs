//! Symmetry reduction: which given-set elements are interchangeable,
//! permutations of them applied to values and states, and the reduced
//! exploration of a machine modulo those permutations.
//!
//! - [`Interchangeable`], [`Permutation`]: the symmetry group;
//! - [`ConstantRules`]: ProB's rules that set up fewer constant valuations;
//! - `graph`: a state as a coloured graph (thesis ch. 2.4, 3.4);
//! - [`Canonicaliser`]: one representative state per orbit by canonical
//!   labelling (`--symmetry canon`);
//! - [`Flood`]: the images permutation flooding stores (`--symmetry flood`);
//! - [`Markers`]: approximate symmetry markers (`--symmetry markers`);
//! - [`SymmetricSystem`]: the machine with representatives for states, for
//!   the engine; `trace`: [`SymmetricSystem::real_trace`] maps its traces
//!   back to real runs by composing the permutations of the steps.

mod canonical;
mod constants;
mod flood;
mod graph;
mod interchangeable;
mod markers;
mod permutation;
mod system;
mod trace;

pub use canonical::{CanonScratch, Canonicaliser};
pub use constants::ConstantRules;
pub use flood::{Flood, FloodScratch};
pub use graph::StateGraphs;
pub use interchangeable::Interchangeable;
pub use markers::{MarkerScratch, Markers};
pub use permutation::{Permutation, all_permutations};
pub use system::{SymmetricSystem, constant_valuation_orbits};
