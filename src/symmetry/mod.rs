//! Symmetry reduction: which given-set elements are interchangeable, and
//! permutations of them applied to values and states.

mod interchangeable;
mod permutation;

pub use interchangeable::Interchangeable;
pub use permutation::{Permutation, all_permutations};
