//! Linear temporal logic in ProB's syntax ([`formula`]), translated to
//! generalised Büchi automata ([`buchi`]), checked on the product of the
//! model and the automaton ([`product`], [`check`]) by a search for fair
//! accepting cycles ([`emptiness`]).

pub mod buchi;
pub mod check;
pub mod emptiness;
pub mod formula;
pub mod product;

pub use buchi::Buchi;
pub use check::{LtlError, LtlFigures, LtlVerdict, check};
pub use formula::{Atom, Fairness, Ltl, Property, parse};
