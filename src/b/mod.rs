//! The classical B front end: parser, type checker, interpreter and the
//! [`workers::TransitionSystem`] a machine compiles to.

pub mod ast;
pub mod eval;
pub mod lexer;
pub mod load;
pub mod parser;
pub mod state;
pub mod system;
pub mod typecheck;
pub mod types;
pub mod value;
pub mod visit;

pub use parser::{parse_expression, parse_machine, parse_substitution};
