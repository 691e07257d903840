//! Symmetry reduction as a layer over the model interface: one state per
//! orbit of the permutations of the model's permutable domains, for any
//! front end that implements [`StateSymmetry`](crate::model::StateSymmetry).
//!
//! - [`Canonicaliser`]: one representative state per orbit by canonical
//!   labelling (`--symmetry canon`) of the graph the front end describes;
//! - [`Flood`]: the images permutation flooding stores (`--symmetry flood`);
//! - [`markers`] (`--symmetry markers`, `markers-exact`): the front end
//!   computes the markers; the marker table and the sorting permutation
//!   are shared;
//! - [`SymmetryLayer`]: the mode chosen, mapping states to representatives;
//! - [`soundness`]: the check that the model's transitions really commute
//!   with the declared permutations (on by default);
//!   `trace`: [`SymmetryLayer::real_trace`] maps its traces back to real
//!   runs by composing the permutations of the steps.

mod canonical;
mod flood;
mod layer;
pub mod markers;
pub mod soundness;
mod trace;

pub use crate::model::{Permutable, Permutation, all_permutations};
pub use canonical::{CanonScratch, Canonicaliser};
pub use flood::{Flood, FloodScratch};
pub use layer::{SymmetryLayer, SymmetryMode, SymmetryScratch};
pub use trace::RealRuns;
