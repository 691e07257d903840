//! The classical B front end: parser, type checker, interpreter, the
//! [`crate::model::Model`] a machine compiles to, and the B-specific
//! knowledge the reductions use (`por`: the static analysis behind the
//! independence relations; `symmetry`: state graphs, permutations, markers
//! and ProB's constant rules).

pub mod ast;
pub mod compose;
pub mod eval;
mod front_end;
pub mod lexer;
pub mod library;
pub mod load;
pub mod parser;
pub mod por;
pub mod state;
pub mod symmetry;
pub mod system;
pub mod typecheck;
pub mod types;
pub mod value;
pub mod visit;

pub use front_end::{BArgs, BFrontEnd, LoadedB};
pub use parser::{parse_expression, parse_machine, parse_substitution};
