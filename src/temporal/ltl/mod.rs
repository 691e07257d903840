//! Linear temporal logic in ProB's syntax ([`formula`]), translated to
//! generalised Büchi automata ([`buchi`]).

pub mod buchi;
pub mod formula;

pub use buchi::Buchi;
pub use formula::{Atom, Fairness, Ltl, Property, parse};
