//! Linear temporal logic in ProB's syntax ([`formula`]), translated to
//! generalised Büchi automata ([`buchi`]), checked on the product
//! ([`product`]) of the model's graph with letters ([`lettered`]) and the
//! automaton by a search for fair accepting cycles ([`emptiness`]);
//! [`check`] puts them together, on a graph reduced by partial order
//! reduction when the property allows it ([`reduction`]).

pub mod buchi;
pub mod check;
pub mod emptiness;
pub mod formula;
pub mod lettered;
pub mod product;
pub mod reduction;

pub use buchi::Buchi;
pub use check::{LtlError, LtlFigures, LtlVerdict, check};
pub use formula::{Among, Atom, Fairness, Ltl, Property, parse};
