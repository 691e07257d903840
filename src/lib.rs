//! orbit: a multithreaded explicit-state model checker, with symmetry
//! reduction by canonical graph labelling and partial order reduction.
//!
//! ```text
//! frontends (b, murphi) ──> model (the interface) ──> por, symmetry (layers)
//!        │                                                   │
//!        └── Registry / LoadedModel ──> checker ──> workers (the engine) ──> report
//! ```

pub mod alloc;
pub mod canon;
pub mod checker;
pub mod cli;
pub mod diag;
pub mod distributed;
pub mod frontends;
pub mod model;
pub mod por;
pub mod report;
pub mod symmetry;
pub mod temporal;
