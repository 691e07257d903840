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
//! solution, blocking each one found by the decisions that led to it
//! ([`decisions`]). It branches on the unknowns'
//! variables first, smallest domain then smallest value first: after a
//! solution is blocked the search resumes near it, where the solver's
//! adaptive default wandered and relearned; where that order finds no
//! solution soon the two take turns, since the static order alone cannot
//! refute what learning on bounds does ([`alternation`]).
//!
//! A comprehension over sets or functions in PROPERTIES (`{q | q :
//! 1..n >-> 1..n & ...}`) is solved the same way where enumeration would
//! try more than [`AUTO_THRESHOLD`] candidates
//! ([`Search::Comprehension`]), as are an operation's parameters (and
//! the variables of `ANY` and `x : (P)`) that enumeration cannot bound or
//! would try too many candidates for.
//!
//! The translation:
//!
//! * an integer, boolean or given-set constant is one integer variable
//!   (booleans 0/1, elements by their index), its domain read from its
//!   typing conjunct (`x : 1..n`, `x : S` with `S` known, `x : NAT`),
//!   else its type; an integer nothing bounds (`x : NATURAL`, `f : S -->
//!   INTEGER`) starts wide and keeps the domain propagation leaves it, as
//!   in ProB's CLP(FD): only where propagation leaves it unbounded does
//!   `--bound-integers` cut it to `MININT..MAXINT`;
//! * a total function (`-->`, `>->`, `-->>`, `>->>`) over a known domain
//!   is one encoding per element of the domain (nested for functions
//!   into functions, as a Sudoku board `1..9 --> (1..9 --> 1..9)`);
//! * constants defined by an equality with known values (`n = 8`,
//!   `coins = [16, 17]`) are evaluated first, and every subexpression
//!   that reads only known values is evaluated by the interpreter;
//! * `&`, `or`, `=>`, `<=>`, `not` (reified), comparisons of linear and
//!   non-linear integer terms, membership in known sets and intervals,
//!   `f(x)` with `x` known or an integer variable (`element`), `!x.(P =>
//!   Q)`, `SIGMA` and `PI` whose bound variables range over known values
//!   (unrolled; over `dom(f)` of a total function, or the universe of an
//!   unknown set with the membership reified), function spaces (with
//!   `all_different` for injections), `min` and `max` of sets;
//! * an existential asserted true (a conjunct, or under `!` and `=>`)
//!   whose variables range over known scalars or total functions into
//!   them, with at least 64 candidates (`!w.(w : 1..70 => #x.(x : 1..6
//!   --> {-1, 0, 1} & w = SIGMA(...)))`), over fresh variables standing
//!   for a witness, which the solver branches on after the unknowns and
//!   a solution does not include; a smaller one, and one anywhere else,
//!   is unrolled over its instances, unless listing them would try more
//!   than 10^7 candidates (`not(#l.(l : A --> S & ...))` over 3^20
//!   functions): that one is a filter, as below;
//! * a typing set that reads another unknown scalar (`f : 1..n --> S`)
//!   splits the search: one model per value of it ([`model::Built::Split`]).
//!
//! A conjunct beyond the translation is a filter: every solution of the
//! others is tested on it by the interpreter; a constant defined by such a
//! conjunct (`r = PI(x).(x : {a, b, c} | x)`) is not searched but computed
//! from each solution. A constant that cannot be encoded and has no
//! definition is named ([`Unsupported`]): `--solver auto` (the default)
//! then enumerates as before, `--solver cp` refuses the machine. Solutions
//! are decoded into B values and sorted, so the valuations' order does
//! not depend on the solver's search.

mod alternation;
mod decisions;
mod hull;
mod model;
mod sets;

use super::Interpreter;
use super::ir::CPred;
use crate::diag::Span;
use crate::frontends::b::value::Value;

/// How the values of the constants are sought.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ConstantSolver {
    /// The constraint solver where the predicate is within its reach and
    /// enumeration would try more than 1,000 candidate valuations of the
    /// constants (racing enumeration) or 100,000 of a comprehension's or
    /// an operation's variables; enumeration otherwise.
    #[default]
    Auto,
    /// orbit's generate-and-test enumeration only.
    Enumerate,
    /// The constraint solver only: a predicate beyond its reach is refused,
    /// naming the construct.
    Cp,
}

/// Whose values [`Interpreter::solve_binder`] seeks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Search {
    /// An operation's parameters, which enumeration cannot bound: "no
    /// solution" within the solver's range is a false guard.
    Parameters,
    /// A comprehension's variables: solved where enumeration would try
    /// more than [`AUTO_THRESHOLD`] candidates.
    Comprehension,
    /// The variables of `#x.(P)`, as a comprehension's, where one
    /// solution answers.
    Exists,
}

/// Candidate valuations above which `auto` hands the constants to the
/// constraint solver (below it, enumeration is as fast and keeps the
/// order in which it finds valuations).
pub const AUTO_THRESHOLD: f64 = 1e5;

/// Candidate valuations of the constants above which `auto` races the
/// solver against enumeration ([`Interpreter::race_for_constants`]):
/// a space of a few thousand candidates can still take enumeration
/// long where each candidate tests nested quantifiers, while the race
/// costs a thread; below it, enumeration alone.
pub(crate) const RACE_THRESHOLD: f64 = 1e3;

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
    /// No valuation within the range the solver gives integers nothing
    /// bounds: unknown beyond it (a case of a split; refused as
    /// [`Solved::Unsupported`] where no case has a valuation).
    UnsatWithinRange(Unsupported),
    /// The model is built and worth solving (`check_only`); `alone`: an
    /// integer is bounded only by propagation, so enumeration, which
    /// cannot see that bound, must not race the solver.
    Applies {
        /// Only the solver's answer is ProB's.
        alone: bool,
    },
}

/// How long enumeration runs alone where the solver's encoding has few
/// candidates but enumeration's plan many ([`super::Interpreter::constant_valuations`]).
pub(crate) const ENUMERATION_HEAD_START: std::time::Duration =
    std::time::Duration::from_millis(500);

/// Stack of each racer of [`Interpreter::race_for_constants`]: as deep
/// as the command's own thread (enumeration recurses once per bound
/// variable; ProB's generated machines have thousands of constants).
const RACER_STACK_BYTES: usize = 128 << 20;

/// What a racer of [`Interpreter::race_for_constants`] found.
enum Finish {
    Solver(Solved),
    Enumeration(Result<Vec<Vec<Value>>, super::EvalError>),
}

impl Interpreter {
    /// Solves the constants with the solver and by `enumerate` at once,
    /// on two threads, and stops the other as soon as one has the answer:
    /// propagation wins on tight puzzles, enumeration where the predicate
    /// is a disjunction over many cases that it tests cheaply. Both are
    /// exact, so the valuations (sorted) do not depend on which wins; an
    /// error of enumeration counts only if the solver has no answer.
    /// Where enumeration cut an integer at `--bound-integers`' bounds (its
    /// plan, or a `NATURAL` it met at run time), its answer may lack
    /// valuations the solver finds (`f : S --> NATURAL1 & f(a) = 8` with
    /// MAXINT 3): it stands only once the solver has none, so the answer
    /// never depends on which thread is faster.
    ///
    /// With a `head_start`, enumeration runs alone that long first, and
    /// what it answers then stands as enumeration's alone would (its
    /// errors included: a function applied outside its domain is
    /// reported, which the solver would read as false).
    pub(crate) fn race_for_constants(
        &self,
        conjuncts: &[CPred],
        enumerate: &(dyn Fn() -> Result<Vec<Vec<Value>>, super::EvalError> + Sync),
        head_start: Option<std::time::Duration>,
    ) -> Result<Vec<Vec<Value>>, super::EvalError> {
        use workers::budget::Budget;
        let run = workers::budget::current();
        let (solver_budget, enumeration_budget) = (Budget::new(), Budget::new());
        let (tx, rx) = std::sync::mpsc::channel();
        let stopped = |reason| super::EvalError {
            span: Span::default(),
            message: "stopped while solving the constants".into(),
            stopped: Some(reason),
        };
        std::thread::scope(|scope| {
            // Both recurse as deep as the command's own thread may.
            let racer = |name: &str| {
                std::thread::Builder::new()
                    .name(name.to_string())
                    .stack_size(RACER_STACK_BYTES)
            };
            let (tx2, budget) = (tx.clone(), &enumeration_budget);
            let enumeration = racer("orbit-constants-enumeration").spawn_scoped(scope, move || {
                let _entered = budget.enter();
                let _ = tx2.send(Finish::Enumeration(enumerate()));
            });
            if let (Ok(_), Some(head_start)) = (&enumeration, head_start) {
                let start = std::time::Instant::now();
                while start.elapsed() < head_start {
                    match rx.recv_timeout(workers::budget::POLL) {
                        Ok(Finish::Enumeration(result)) => return result,
                        Ok(Finish::Solver(_)) => unreachable!("the solver has not started"),
                        Err(_) => {
                            if let Some(reason) = run.as_ref().and_then(Budget::tripped) {
                                enumeration_budget.trip(reason);
                                return Err(stopped(reason));
                            }
                        }
                    }
                }
            }
            let (tx1, budget) = (tx, &solver_budget);
            let solver = racer("orbit-constants-cp").spawn_scoped(scope, move || {
                let _entered = budget.enter();
                let _ = tx1.send(Finish::Solver(
                    self.solve_constants(conjuncts, false, false),
                ));
            });
            if solver.is_err() || enumeration.is_err() {
                // No threads to spare: enumerate here, as without the race.
                solver_budget.trip(workers::StopReason::Interrupted);
                enumeration_budget.trip(workers::StopReason::Interrupted);
                return enumerate().map(|mut v| {
                    v.sort();
                    v
                });
            }
            let mut enumeration_error = None;
            let mut cut_valuations = None;
            let mut solver_done = false;
            let mut enumeration_done = false;
            let result = loop {
                match rx.recv_timeout(workers::budget::POLL) {
                    Ok(Finish::Solver(Solved::Valuations(v))) => break Ok(v),
                    Ok(Finish::Solver(_)) => {
                        solver_done = true;
                        if let Some(v) = cut_valuations.take() {
                            break Ok(v);
                        }
                        if let Some(e) = enumeration_error.take() {
                            break Err(e);
                        }
                    }
                    Ok(Finish::Enumeration(Ok(mut v))) => {
                        v.sort();
                        let cut = !self.properties_exact
                            || self
                                .bound_at_run_time
                                .load(std::sync::atomic::Ordering::Relaxed);
                        if !cut || solver_done {
                            break Ok(v);
                        }
                        enumeration_done = true;
                        cut_valuations = Some(v);
                    }
                    Ok(Finish::Enumeration(Err(e))) => {
                        enumeration_done = true;
                        if let Some(reason) = e.stopped {
                            if solver_done {
                                break Err(stopped(reason));
                            }
                        } else if solver_done {
                            break Err(e);
                        } else {
                            enumeration_error = Some(e);
                        }
                    }
                    Err(_) => {
                        if let Some(reason) = run.as_ref().and_then(Budget::tripped) {
                            break Err(stopped(reason));
                        }
                        if solver_done && enumeration_done {
                            break Err(stopped(workers::StopReason::Interrupted));
                        }
                    }
                }
            };
            solver_budget.trip(workers::StopReason::Interrupted);
            enumeration_budget.trip(workers::StopReason::Interrupted);
            result
        })
    }

    /// Solves the constants with the constraint solver: `conjuncts` (of
    /// PROPERTIES and CONSTRAINTS) over the first `nc` frame slots.
    pub(crate) fn solve_constants(
        &self,
        conjuncts: &[CPred],
        auto: bool,
        check_only: bool,
    ) -> Solved {
        // The solver is a dependency: should it fail inside, the constants
        // are left to enumeration rather than the run to a crash.
        let solve =
            std::panic::AssertUnwindSafe(|| self.solve_constants_here(conjuncts, auto, check_only));
        std::panic::catch_unwind(solve).unwrap_or_else(|_| {
            Solved::Unsupported(Unsupported {
                span: conjuncts.first().map_or_else(Span::default, |c| c.span),
                what: "these constants: the constraint solver failed inside (an internal error)"
                    .into(),
            })
        })
    }

    fn solve_constants_here(&self, conjuncts: &[CPred], auto: bool, check_only: bool) -> Solved {
        let unknowns = || model::Unknowns {
            base: 0,
            names: &self.constant_names,
            types: &self.constant_types,
            env: super::Env {
                consts: &[],
                frame: vec![super::unset(); self.properties_frame],
                pending: Default::default(),
            },
            trusts_range: false,
            first_only: false,
            small: RACE_THRESHOLD,
            normal_form: &self.constant_classes,
        };
        self.solve_unknowns(&unknowns, conjuncts, auto, check_only)
    }

    /// The values of the variables in frame slots `base..` of `binder`
    /// that satisfy its conjuncts (an operation's guard, a comprehension's
    /// condition) in the state of `env`, sorted: `None` where the
    /// condition is beyond the translation, or (for a comprehension) few
    /// enough candidates to enumerate, or no solution within the range
    /// the solver gives an integer nothing bounds; then it is enumerated.
    pub(crate) fn solve_binder(
        &self,
        base: usize,
        binder: &super::ir::BinderUnknowns,
        env: &super::Env<'_>,
        search: Search,
    ) -> Option<Result<Vec<Vec<Value>>, super::EvalError>> {
        let conjuncts = &binder.conjuncts;
        let unknowns = || model::Unknowns {
            base,
            names: &binder.names,
            types: &binder.types,
            env: super::Env {
                consts: env.consts,
                frame: env.frame.clone(),
                pending: Default::default(),
            },
            trusts_range: search == Search::Parameters,
            first_only: search == Search::Exists,
            small: AUTO_THRESHOLD,
            normal_form: &[],
        };
        let auto = matches!(search, Search::Comprehension | Search::Exists);
        let solve =
            std::panic::AssertUnwindSafe(|| self.solve_unknowns(&unknowns, conjuncts, auto, false));
        let stopped = |reason| super::EvalError {
            span: conjuncts.first().map_or_else(Span::default, |c| c.span),
            message: "stopped while solving the parameters".into(),
            stopped: Some(reason),
        };
        match std::panic::catch_unwind(solve) {
            Ok(Solved::Valuations(v)) => Some(Ok(v)),
            Ok(Solved::Stopped(reason)) => Some(Err(stopped(reason))),
            Ok(Solved::Unsupported(u)) => {
                tracing::trace!(span = ?u.span, why = u.what, "binder solver: left to enumeration");
                None
            }
            Ok(Solved::Small) => {
                tracing::trace!("binder solver: few candidates, left to enumeration");
                None
            }
            _ => None,
        }
    }

    /// Solves `conjuncts` for the unknowns `unknowns()` makes (one model
    /// per constant deferred, one per case of a split).
    fn solve_unknowns<'i>(
        &'i self,
        unknowns: &dyn Fn() -> model::Unknowns<'i>,
        conjuncts: &[CPred],
        auto: bool,
        check_only: bool,
    ) -> Solved {
        let mut cases = 0;
        let bijections = permutations_as_bijections(conjuncts);
        match self.solve_case(
            unknowns,
            bijections.as_deref().unwrap_or(conjuncts),
            auto,
            check_only,
            &mut Vec::new(),
            &mut cases,
            false,
        ) {
            Solved::UnsatWithinRange(u) => Solved::Unsupported(u),
            solved => solved,
        }
    }

    /// [`Self::solve_unknowns`] with the constants of `fixed` fixed; a
    /// split solves each case in turn (at most [`MAX_CASES`] in all).
    /// `beyond`: integers nothing bounds are labelled within MININT..MAXINT
    /// rather than cut to it ([`model::Model::label_beyond_range`]), as
    /// a case is solved again where the cut leaves it no solution.
    #[allow(clippy::too_many_arguments)]
    fn solve_case<'i>(
        &'i self,
        unknowns: &dyn Fn() -> model::Unknowns<'i>,
        conjuncts: &[CPred],
        auto: bool,
        check_only: bool,
        fixed: &mut Vec<(usize, Value)>,
        cases: &mut usize,
        beyond: bool,
    ) -> Solved {
        let failed = |f| match f {
            model::Failure::Unsupported(u) => Solved::Unsupported(u),
            model::Failure::UnsatWithinRange(u) => Solved::UnsatWithinRange(u),
            model::Failure::Unsat => Solved::Valuations(Vec::new()),
            model::Failure::Stopped(reason) => Solved::Stopped(reason),
        };
        // Each constant deferred makes a new model: at most one per constant.
        let mut deferred = Vec::new();
        let m = loop {
            let mut m = model::Model::new(self, unknowns(), &deferred);
            for (k, v) in fixed.iter() {
                m.fix(*k, v.clone());
            }
            if beyond {
                m.label_beyond_range();
            }
            match m.build(conjuncts, auto) {
                Ok(model::Built::Ready { alone }) if check_only => {
                    return Solved::Applies { alone };
                }
                Ok(model::Built::Ready { .. }) => break m,
                Ok(model::Built::Small) => return Solved::Small,
                Ok(model::Built::Defer(k)) => deferred.push(k),
                Ok(model::Built::Split(k, values)) => {
                    *cases += values.len();
                    if *cases > MAX_CASES {
                        return Solved::Unsupported(Unsupported {
                            span: conjuncts.first().map_or_else(Span::default, |c| c.span),
                            what: format!("more than {MAX_CASES} cases of the constants' domains"),
                        });
                    }
                    let mut all = Vec::new();
                    let mut beyond_range = None;
                    for v in values {
                        fixed.push((k, v));
                        // Each case is within the solver's reach, or none:
                        // `auto` has chosen the solver.
                        let solved = self.solve_case(
                            unknowns, conjuncts, false, check_only, fixed, cases, beyond,
                        );
                        fixed.pop();
                        match solved {
                            Solved::Valuations(v) => all.extend(v),
                            Solved::UnsatWithinRange(u) => {
                                beyond_range.get_or_insert(u);
                            }
                            other => return other,
                        }
                    }
                    // A case without a solution within the range may have
                    // one beyond: known only where `--bound-integers` makes
                    // the other cases' solutions the answer sought (ProB
                    // labels such integers within MININT..MAXINT).
                    if let Some(u) = beyond_range {
                        if all.is_empty() || !self.bound_integers {
                            return Solved::UnsatWithinRange(u);
                        }
                        self.bound_at_run_time
                            .store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    all.sort();
                    return Solved::Valuations(all);
                }
                Err(model::Failure::Unsat) if !beyond && m.may_label_beyond_range() => {
                    return self
                        .solve_case(unknowns, conjuncts, auto, check_only, fixed, cases, true);
                }
                Err(model::Failure::Unsat) => return failed(m.unsat_within_range()),
                Err(f) => return failed(f),
            }
        };
        let again = !beyond && m.may_label_beyond_range();
        match m.solutions() {
            Ok(valuations) if !valuations.is_empty() || !again => Solved::Valuations(valuations),
            Ok(_) | Err(model::Failure::Unsat | model::Failure::UnsatWithinRange(_)) if again => {
                self.solve_case(unknowns, conjuncts, auto, check_only, fixed, cases, true)
            }
            Ok(valuations) => Solved::Valuations(valuations),
            Err(f) => failed(f),
        }
    }
}

/// `conjuncts` with every `perm(S)` written as the set it is,
/// `1..card(S) >->> S`, which the translation encodes as a function over
/// a known domain (ProB's SortByPermutation: `p : perm(dom(a)) &
/// !i.(... => a(p(i)) <= a(p(i + 1)))`); `None` where there is none.
fn permutations_as_bijections(conjuncts: &[CPred]) -> Option<Vec<CPred>> {
    use super::ir::{CExpr, EK};
    use super::walk::{VisitorMut, walk_expr_mut};
    use crate::frontends::b::ast::{BinaryOp, UnaryOp};
    struct Rewrite(bool);
    impl VisitorMut for Rewrite {
        fn expr(&mut self, e: &mut CExpr) {
            walk_expr_mut(self, e);
            if let EK::Unary(UnaryOp::Perm, s) = &e.kind {
                let span = e.span;
                let node = |kind| Box::new(CExpr { kind, span });
                let domain = node(EK::Binary(
                    BinaryOp::Interval,
                    node(EK::Lit(Value::Int(1))),
                    node(EK::Unary(UnaryOp::Card, s.clone())),
                ));
                e.kind = EK::Binary(BinaryOp::TotalBijection, domain, s.clone());
                self.0 = true;
            }
        }
    }
    // Copying PROPERTIES (puzzles' nests of comprehensions are large) is
    // worth it only where there is a `perm` to rewrite.
    struct Finds(bool);
    impl super::walk::Visitor for Finds {
        fn expr(&mut self, e: &CExpr) {
            self.0 |= matches!(e.kind, EK::Unary(UnaryOp::Perm, _));
            if !self.0 {
                super::walk::walk_expr(self, e);
            }
        }
    }
    let mut finds = Finds(false);
    for c in conjuncts {
        super::walk::Visitor::pred(&mut finds, c);
    }
    if !finds.0 {
        return None;
    }
    let mut rewrite = Rewrite(false);
    let mut out = conjuncts.to_vec();
    for c in &mut out {
        rewrite.pred(c);
    }
    rewrite.0.then_some(out)
}

/// Most models one search builds by case splits ([`model::Built::Split`]).
const MAX_CASES: usize = 256;
