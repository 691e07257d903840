//! orbit: a multithreaded explicit-state model checker, with symmetry
//! reduction by canonical graph labelling and partial order reduction.
//!
//! ```text
//! front end (b) ──> model (the interface) ──> por, symmetry (layers) ──> checker ──> workers (engine)
//! ```

pub mod alloc;
pub mod b;
pub mod canon;
pub mod checker;
pub mod cli;
pub mod diag;
pub mod model;
pub mod murphi;
pub mod por;
pub mod symmetry;
