//! The interpreter of classical B: evaluates expressions and predicates,
//! enumerates bound variables, executes substitutions and operations and
//! solves the constants, as ProB does for explicit-state model checking
//! (Leuschel and Butler, "ProB: an automated analysis toolset for the B
//! method"; the thesis in [Spermann 2009], §1.3).
//!
//! # Structure
//! * `compile` and `compile_subst` turn the AST into the trees of
//!   `ir` once, resolving every name to a slot;
//! * `plan` decides statically how the variables of each binder are
//!   enumerated (generate from typing conjuncts, check the rest early);
//! * `expr`, `pred`, `enumerate` and `subst` run those trees;
//! * `machine` holds the machine-level entry points (constants,
//!   initialisation, successors, invariant) used by the model checker.
//!
//! # Evaluation frame
//! Every entry point evaluates in an `Env`: the constants of the current
//! valuation (read-only) and a frame of values whose first slots are the
//! machine variables, followed by operation parameters, outputs and the
//! slots of bound and local variables. Substitutions change the frame in
//! place and undo their changes after reporting each outcome, so running an
//! operation clones no state.
//!
//! # Semantics (as ProB)
//! `PRE` is a guard. `SELECT` offers every true branch (its `ELSE` when
//! none is true); `IF` is deterministic; `CHOICE`, `ANY`, `x :: S` and
//! `x : (P)` offer every possibility; `||` runs its branches on the same
//! state and merges their writes; `;` composes. Well-definedness failures
//! (function outside its domain, division by zero, ...) are [`EvalError`]s,
//! except that in an operation's guard a function applied outside its
//! domain makes the guard false (ProB's default, which e.g. the scheduler
//! models of the thesis rely on: `p : PROC & pst(p) = idle`).
//!
//! # Enumeration (where ProB differs)
//! ProB solves binders by constraint propagation; `plan` uses generate
//! and test with generators read off the typing conjuncts (`x : S`,
//! `x = e`, `x <: S`, `x |-> y : r`, function spaces, `f(x)` bounding `x`
//! by `dom(f)`), falling back to the variable's type when it is finite.
//! A binder with no such conjunct over an infinite type (`{x | x > 2}`) is
//! an [`EvalError`] ("cannot enumerate `x`") where ProB might still find
//! the solutions. `NAT`, `NAT1` and `INT` stop at `MAXINT`/`MININT`, as in
//! ProB; `NATURAL`, `INTEGER`, `STRING` and `seq(S)` cannot be enumerated.
//!
//! # Cost
//! Names are resolved once; evaluation never looks anything up by name.
//! Membership in explicit sets and function application are binary
//! searches; `x : S` with `S` an interval, integer set, `POW`, function
//! space, union, difference or `dom(f)` is decided without building `S`;
//! `s \/ {x}`, `s - {x}`, `f(x) := e` and `r~[S]` copy the set once.
//! Values are reference counted, so reading a variable clones a pointer.
//! The commonest guard, `p : S & f(p) = c`, is one pass over `f` (see
//! `scan`); `S - T`, `S /\ T` and the domain of `f : S --> T` are merges
//! of sorted sets; `card(r~[{y}])` and `r~[{y}] = {}` count without
//! building the image.

mod accumulate;
mod compile;
mod compile_subst;
mod components;
pub mod cp;
mod enumerate;
mod expr;
mod int_ranges;
mod ir;
mod machine;
mod memo;
mod optimum;
mod plan;
mod pred;
mod rewrite;
mod scan;
mod subst;
mod symbolic;
mod walk;

use crate::diag::Span;
use crate::frontends::b::types::GivenSet;
use crate::frontends::b::value::Value;

pub use compile::conjuncts;
pub use machine::Interpreter;

/// Most elements a symbolic set may have when it must be built explicitly.
const MAX_MATERIALISED: usize = 1 << 22;

/// A well-definedness error met while evaluating (function applied outside
/// its domain, division by zero, unbounded enumeration, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// The offending expression.
    pub span: Span,
    /// What went wrong.
    pub message: String,
    /// Set when this is no error of the model: the run's budget (time,
    /// memory, Ctrl-C; see [`workers::budget`]) ran out while evaluating.
    pub stopped: Option<workers::StopReason>,
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EvalError {}

/// A false invariant conjunct or assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyFailure {
    /// Where the failing conjunct is written.
    pub span: Span,
    /// Its source text.
    pub text: String,
}

/// One enabled operation instance and the state it leads to.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    /// Index of the operation in `Machine::operations`.
    pub op: usize,
    /// Values of its input parameters.
    pub params: &'a [Value],
    /// Values of its outputs.
    pub outputs: &'a [Value],
    /// The successor state's variables, in `Machine::variables` order.
    pub variables: &'a [Value],
}

/// Evaluation environment: the constants and the frame (see module docs).
pub(crate) struct Env<'a> {
    /// Values of the constants.
    pub consts: &'a [Value],
    /// Variables, then parameters, outputs and locals.
    pub frame: Vec<Value>,
    /// Elements collected for slots a running `WHILE` loop grows (see
    /// `accumulate`), by slot; empty outside such loops, and freed by the
    /// outermost loop when it ends: an `Env` needs no drop for it (one
    /// per state and operation).
    pub pending: std::mem::ManuallyDrop<Vec<(u32, Vec<Value>)>>,
}

impl Env<'_> {
    /// The value `slot` holds (a constant or a frame slot).
    #[inline]
    pub(crate) fn read(&self, slot: ir::Slot) -> &Value {
        match slot {
            ir::Slot::Const(i) => &self.consts[i as usize],
            ir::Slot::Frame(i) => &self.frame[i as usize],
        }
    }

    /// [`Env::read`], or `None` where `slot` is beyond what this
    /// environment holds.
    pub(crate) fn get(&self, slot: ir::Slot) -> Option<&Value> {
        match slot {
            ir::Slot::Const(i) => self.consts.get(i as usize),
            ir::Slot::Frame(i) => self.frame.get(i as usize),
        }
    }
}

/// Internal error: an [`EvalError`] plus whether it is a function applied
/// outside its domain (which guards treat as false). Boxed, so that the
/// `R<Value>` every evaluation returns is two words, returned in
/// registers, instead of the error's seven through memory.
#[derive(Clone, Debug)]
pub(crate) struct Fail(Box<FailInner>);

/// What a [`Fail`] says.
#[derive(Clone, Debug)]
pub(crate) struct FailInner {
    span: Span,
    /// Borrowed for the fixed messages of hot paths (no allocation when a
    /// guard fails outside a function's domain).
    message: std::borrow::Cow<'static, str>,
    outside_domain: bool,
    /// `first`, `last`, `front` or `tail` of the empty sequence (also
    /// `outside_domain`): PROPERTIES reports it instead of rejecting the
    /// candidate, as ProB does.
    empty_sequence: bool,
    /// A set that cannot be built explicitly (infinite or too large): a
    /// constant's definition that fails so is kept symbolic instead.
    infinite: bool,
    /// The run's budget ran out (not an error of the model).
    stopped: Option<workers::StopReason>,
}

impl std::ops::Deref for Fail {
    type Target = FailInner;
    fn deref(&self) -> &FailInner {
        &self.0
    }
}

impl Fail {
    /// A well-definedness error.
    pub fn new(span: Span, message: impl Into<std::borrow::Cow<'static, str>>) -> Self {
        Fail(Box::new(FailInner {
            span,
            message: message.into(),
            outside_domain: false,
            empty_sequence: false,
            infinite: false,
            stopped: None,
        }))
    }

    /// A set that cannot be built or enumerated explicitly.
    pub fn infinite(span: Span, message: impl Into<std::borrow::Cow<'static, str>>) -> Self {
        Fail(Box::new(FailInner {
            span,
            message: message.into(),
            outside_domain: false,
            empty_sequence: false,
            infinite: true,
            stopped: None,
        }))
    }

    /// The run's budget ran out while evaluating at `span`.
    pub fn stopped(span: Span, reason: workers::StopReason) -> Self {
        Fail(Box::new(FailInner {
            span,
            message: "stopped".into(),
            outside_domain: false,
            empty_sequence: false,
            infinite: false,
            stopped: Some(reason),
        }))
    }

    /// The same failure, placed at `span` if it has no place of its own
    /// (an error found while enumerating a type, which has no source).
    pub fn at_default(mut self, span: Span) -> Self {
        if self.0.span == Span::default() {
            self.0.span = span;
        }
        self
    }

    /// A function applied outside its domain.
    pub fn outside_domain(span: Span, message: &'static str) -> Self {
        Fail(Box::new(FailInner {
            span,
            message: message.into(),
            outside_domain: true,
            empty_sequence: false,
            infinite: false,
            stopped: None,
        }))
    }

    /// `first`, `last`, `front` or `tail` of the empty sequence: outside
    /// the domain (`first(s)` is `s(1)`) where a guard reads it, but an
    /// error in PROPERTIES, where ProB's solver reports it too.
    pub fn empty_sequence(span: Span, message: &'static str) -> Self {
        let mut fail = Self::outside_domain(span, message);
        fail.0.empty_sequence = true;
        fail
    }
}

/// Fails with the reason the run's budget ran out, if it has: long loops
/// of the interpreter (enumerations, set construction, solver plans) call
/// this so that limits and Ctrl-C stop any phase (one relaxed load).
#[inline]
pub(crate) fn within_budget(span: Span) -> R<()> {
    match workers::budget::tripped() {
        None => Ok(()),
        Some(reason) => Err(Fail::stopped(span, reason)),
    }
}

/// [`within_budget`] on every [`workers::budget::POLL_EVERY`]-th
/// iteration (`count` is the loop's counter): for loops over sets already
/// built, whose steps are too cheap to poll each.
#[inline]
pub(crate) fn within_budget_every(count: usize, span: Span) -> R<()> {
    match workers::budget::tripped_every(count as u64) {
        None => Ok(()),
        Some(reason) => Err(Fail::stopped(span, reason)),
    }
}

impl From<Fail> for EvalError {
    fn from(f: Fail) -> Self {
        let f = *f.0;
        EvalError {
            span: f.span,
            message: f.message.into_owned(),
            stopped: f.stopped,
        }
    }
}

/// Result of internal evaluation.
pub(crate) type R<T> = Result<T, Fail>;

/// The value slots hold before anything is assigned to them.
pub(crate) fn unset() -> Value {
    Value::Int(0)
}

/// The one allocation [`undefined`] values share.
static UNDEFINED: std::sync::LazyLock<std::sync::Arc<str>> =
    std::sync::LazyLock::new(|| std::sync::Arc::from("(no value yet)"));

/// The value of a `VAR` local or an output before it is assigned: a
/// string no model can build (only this one allocation is it), so that
/// reading it is told apart from reading a value.
pub(crate) fn undefined() -> Value {
    Value::Str(UNDEFINED.clone())
}

/// Whether `v` is [`undefined`].
pub(crate) fn is_undefined(v: &Value) -> bool {
    matches!(v, Value::Str(a) if std::sync::Arc::ptr_eq(a, &UNDEFINED))
}

/// Prints values the ProB way with the machine's given sets.
pub(crate) fn format_with(sets: &[GivenSet], v: &Value) -> String {
    v.display(sets).to_string()
}
