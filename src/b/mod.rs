//! The classical B front end: parser, type checker, interpreter and the
//! [`workers::TransitionSystem`] a machine compiles to.

pub mod ast;
pub mod eval;
pub mod types;
pub mod value;
