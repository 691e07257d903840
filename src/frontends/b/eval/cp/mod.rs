//! Constraint solving for the constants of a machine (PROPERTIES and
//! CONSTRAINTS), as ProB finds them: by propagation before enumeration.
//!
//! The interpreter's own plans ([`super::plan`]) generate candidates and
//! test them: exact, and fast where typing conjuncts bound each constant
//! closely, but blind to the rest of the predicate. `queens : 1..8 >->
//! 1..8` is 8⁸ candidate functions, of which the diagonal conditions keep
//! 92; a Sudoku board is 9⁸¹. Here the predicate is translated into a
//! lazy clause generation solver (Pumpkin, TU Delft), which propagates
//! every constraint, learns from each failure, and enumerates every
//! solution, blocking each one found:
//!
//! * an integer, boolean or given-set constant is one integer variable
//!   (booleans 0/1, elements by their index), its domain read from its
//!   typing conjunct (`x : 1..n`, `x : S` with `S` known, `x : NAT`),
//!   else its type, else `MININT..MAXINT` with `--bound-integers`;
//! * a total function (`-->`, `>->`, `-->>`, `>->>`) over a known domain
//!   is one encoding per element of the domain (nested for functions
//!   into functions, as a Sudoku board `1..9 --> (1..9 --> 1..9)`);
//! * constants defined by an equality with known values (`n = 8`,
//!   `coins = [16, 17]`) are evaluated first, and every subexpression
//!   that reads only known values is evaluated by the interpreter;
//! * `&`, `or`, `=>`, `<=>`, `not` (reified), comparisons of linear and
//!   non-linear integer terms, membership in known sets and intervals,
//!   `f(x)` with `x` known or an integer variable (`element`), `!x.(P =>
//!   Q)` and `SIGMA` whose bound variables range over known values
//!   (unrolled), function spaces (with `all_different` for injections).
//!
//! Anything else is named ([`Unsupported`]): `--solver auto` (the default)
//! then enumerates as before, `--solver cp` refuses the machine. Solutions
//! are decoded into B values and sorted, so the valuations' order does
//! not depend on the solver's search.

mod model;

use super::Interpreter;
use super::ir::CPred;
use crate::diag::Span;
use crate::frontends::b::value::Value;

/// How the values of the constants are sought.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ConstantSolver {
    /// The constraint solver where the predicate is within its reach and
    /// enumeration would try more than [`AUTO_THRESHOLD`] candidates;
    /// enumeration otherwise.
    #[default]
    Auto,
    /// orbit's generate-and-test enumeration only.
    Enumerate,
    /// The constraint solver only: a predicate beyond its reach is refused,
    /// naming the construct.
    Cp,
}

/// Candidate valuations above which `auto` hands the constants to the
/// constraint solver (below it, enumeration is as fast and keeps the
/// order in which it finds valuations).
pub const AUTO_THRESHOLD: f64 = 1e5;

/// A construct the translation does not handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// Where it is written.
    pub span: Span,
    /// What it is.
    pub what: String,
}

/// What solving the constants gave.
pub(crate) enum Solved {
    /// Every valuation, sorted.
    Valuations(Vec<Vec<Value>>),
    /// The predicate is beyond the translation.
    Unsupported(Unsupported),
    /// The search space is small: enumeration will do (`auto` only).
    Small,
    /// The run's budget ran out.
    Stopped(workers::StopReason),
}

impl Interpreter {
    /// Solves the constants with the constraint solver: `conjuncts` (of
    /// PROPERTIES and CONSTRAINTS) over the first `nc` frame slots.
    pub(crate) fn solve_constants(&self, conjuncts: &[CPred], auto: bool) -> Solved {
        let mut m = model::Model::new(self);
        match m.build(conjuncts, auto) {
            Ok(true) => {}
            Ok(false) => return Solved::Small,
            Err(model::Failure::Unsupported(u)) => return Solved::Unsupported(u),
            Err(model::Failure::Unsat) => return Solved::Valuations(Vec::new()),
            Err(model::Failure::Stopped(reason)) => return Solved::Stopped(reason),
        }
        match m.solutions() {
            Ok(valuations) => Solved::Valuations(valuations),
            Err(reason) => Solved::Stopped(reason),
        }
    }
}
