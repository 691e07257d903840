//! orbit: a multithreaded explicit-state model checker for classical B,
//! with symmetry reduction by canonical graph labelling and partial order
//! reduction.

pub mod alloc;
pub mod b;
pub mod canon;
pub mod cli;
pub mod diag;
pub mod por;
pub mod symmetry;
