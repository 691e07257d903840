//! Constants kept symbolic, as ProB keeps them.
//!
//! A machine often defines a constant as a function or set it could never
//! list: `sq = %x.(x : NATURAL | x * x)`, `WORD = seq1(BIT)`, or a
//! recursive function, `fac = %x.(x : NATURAL1 | IF x = 1 THEN 1 ELSE x *
//! fac(x - 1) END)`. ProB keeps such a constant as its definition (a
//! "symbolic closure") and evaluates it only where it is applied or
//! tested for membership. So does orbit:
//!
//! * every top-level conjunct `c = E` of PROPERTIES that defines a
//!   set-valued constant compiles `E` as [`EK::Symbolic`]: evaluating it
//!   builds the set when it can, and yields a [`Value::Symbolic`] (the
//!   definition's number) when the set is infinite or too large to build
//!   (a lambda or comprehension whose binders would try more candidates
//!   than `MAX_MATERIALISED` is not tried at all), or when it is a lambda whose body fails somewhere in its domain (a
//!   body is evaluated only where the function is applied, as in ProB:
//!   the error is reported if it is applied there);
//!   a definition that refers to its own constant is always symbolic, and
//!   `--bound-integers` does not cut the domains of these definitions;
//! * applying a symbolic function evaluates the definition in a frame of
//!   its own, holding the constants of the valuation it is applied in:
//!   a lambda checks its argument against its predicate ("function applied
//!   outside its domain" otherwise) and evaluates its body; a
//!   comprehension `{x, y | P}` binds `x` to the argument and solves `P`
//!   for `y` with the plan compiled for that ([`super::ir::Solver::image`]);
//!   a union
//!   applies the side whose domain holds the argument, an override the
//!   right side first;
//! * membership in a symbolic set tests the definition's predicate
//!   (lambdas, comprehensions, `seq(S)`, unions, ...) without building it,
//!   and so does membership in its domain; its image of an explicit set
//!   and its composition after an explicit relation apply it to each
//!   element;
//! * a symbolic value is in a set only where that is decided by types
//!   alone (`f : INTEGER <-> INTEGER`; `f : INTEGER +-> INTEGER` for a
//!   lambda); equality with another set, listing it, `card`, `dom` and the
//!   rest are named errors ("not supported yet"), never a silent answer.

use std::sync::Arc;

use super::expr::set;
use super::ir::{CExpr, EK, Gen, PK, Slot, SolveStep};
use super::{Env, Fail, R, unset};
use crate::diag::Span;
use crate::frontends::b::ast::BinaryOp;
use crate::frontends::b::types::{GivenSet, Type};
use crate::frontends::b::value::relations as rel;
use crate::frontends::b::value::{Symbolic, Value};

use super::Interpreter;

/// A constant's definition, compiled ([`EK::Symbolic`]).
#[derive(Clone, Debug)]
pub struct SymbolicDef {
    /// Index into the interpreter's definitions.
    pub def: u32,
    /// The defining expression (constants are the PROPERTIES frame's
    /// first slots), shared with the interpreter's [`Definition`].
    pub expr: Arc<CExpr>,
    /// The constant's own frame slot, when the definition refers to it.
    pub self_slot: Option<u32>,
}

/// A definition as the interpreter keeps it, for applying values that
/// name it.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The defining expression.
    pub expr: Arc<CExpr>,
    /// The constant it defines.
    pub name: String,
    /// The definition as written.
    pub text: Arc<str>,
    /// The slots the definition reads, where its value may be kept (it
    /// holds no symbolic definition nor external function).
    pub reads: Option<Box<[Slot]>>,
    /// Its last value, with what `reads` held: the probe of the
    /// constraint solver, the solver and enumeration each evaluate the
    /// definitions of the same constants (`BV16 = {v | v : seq(BIT) &
    /// size(v) = 16}` and the tables over it, seconds each), one after
    /// the other or on two threads at once (see
    /// `Interpreter::race_for_constants`).
    pub last: Arc<parking_lot::Mutex<Option<super::memo::Kept>>>,
    /// Whether it refers to its own constant (`fib = %x.(.. | fib(x - 1) +
    /// fib(x - 2))`): its applications are remembered per thread
    /// ([`APPLIED`]), as a comprehension's are.
    pub recursive: bool,
}

/// Most applications of recursive definitions and comprehensions a
/// thread remembers.
const MAX_APPLIED: usize = 1 << 18;

/// The applications of recursive definitions and comprehensions a thread
/// has evaluated, with the constants they were evaluated with: `fib(x)`
/// solved by a plan that evaluates `fib(x - 1)` once to find a candidate
/// and once to check it costs two calls per level, 2^n in all, without
/// them (ProB memoises such functions too).
#[derive(Default)]
struct Applied {
    /// The constants the images were computed with.
    constants: Vec<Value>,
    /// (definition, argument) to its images.
    images: std::collections::HashMap<(u32, Value), Vec<Value>>,
}

thread_local! {
    static APPLIED: std::cell::RefCell<Applied> = Default::default();
}

/// The slots of the constants an expression applies (`f(x)` for a
/// constant `f`): those that may be symbolic.
#[derive(Default)]
struct AppliedConstants {
    slots: Vec<Slot>,
}

impl super::walk::Visitor for AppliedConstants {
    fn expr(&mut self, e: &CExpr) {
        if let EK::Apply(f, _) = &e.kind
            && let EK::Read(slot) = f.kind
        {
            self.slots.push(slot);
        }
        super::walk::walk_expr(self, e);
    }
}

/// The error for listing a symbolic set (`card`, iteration, equality
/// with an explicit set, ...).
pub(crate) fn cannot_list(s: &Symbolic, span: Span) -> Fail {
    // Marked infinite: a definition that needs it is kept symbolic too.
    Fail::infinite(
        span,
        format!(
            "not supported yet: listing the elements of `{}`, which is kept symbolic \
             (it is infinite, too large or recursive); it can only be applied or tested \
             for membership",
            s.text
        ),
    )
}

impl Interpreter {
    /// The value of a constant's definition: the set if it can be built,
    /// else the definition itself.
    pub(super) fn eval_symbolic(&self, d: &SymbolicDef, env: &mut Env<'_>) -> R<Value> {
        let definition = &self.definitions[d.def as usize];
        let Some(reads) = definition
            .reads
            .as_deref()
            .filter(|_| d.self_slot.is_none())
        else {
            return self.build_symbolic(d, env);
        };
        if let Some(value) = definition
            .last
            .lock()
            .as_ref()
            .and_then(|kept| kept.reuse(reads, env, self))
        {
            return Ok(value);
        }
        let before = self.undefined_rejection_count();
        let value = self.build_symbolic(d, env)?;
        let rejections = self.undefined_rejection_count().saturating_sub(before);
        if let Some(kept) = super::memo::Kept::new(reads, env, &value, rejections) {
            *definition.last.lock() = Some(kept);
        }
        Ok(value)
    }

    /// The definition of a symbolic set of integers, or of tuples of them,
    /// that reads nothing (`INTEGER`, `NATURAL - {0}`, `NATURAL \/ -5..-1`,
    /// `INTEGER * NATURAL1`): listed by `--bound-integers` within
    /// MININT..MAXINT like the sets it is made of.
    pub(crate) fn integer_set_definition(&self, s: &Symbolic) -> Option<Arc<CExpr>> {
        fn closed(e: &CExpr) -> bool {
            match &e.kind {
                EK::Ints(_) | EK::Lit(_) => true,
                EK::Binary(
                    BinaryOp::Union
                    | BinaryOp::Inter
                    | BinaryOp::Minus
                    | BinaryOp::Interval
                    | BinaryOp::Mul,
                    a,
                    b,
                ) => closed(a) && closed(b),
                EK::SetEnum(items) => items.iter().all(closed),
                _ => false,
            }
        }
        let expr = &self.definitions.get(s.def as usize)?.expr;
        closed(expr).then(|| expr.clone())
    }

    /// [`Self::eval_symbolic`], computed.
    fn build_symbolic(&self, d: &SymbolicDef, env: &mut Env<'_>) -> R<Value> {
        // A definition whose binders range over more candidates than any
        // set orbit builds (`%(b, x, y).(b : BIT & x : USHORT & y : USHORT
        // | ...)`: 2^33) is kept symbolic before any is tried.
        let too_large = self
            .work_at_most(&d.expr, env)
            .is_some_and(|n| n > super::MAX_MATERIALISED as u128);
        // `iv = INTEGER`, `S = NATURAL - {0}`: kept symbolic, never cut
        // at MAXINT by `--bound-integers`.
        let unlistable = self.is_unlistable(&d.expr, env);
        if d.self_slot.is_none() && !too_large && !unlistable {
            match self.eval(&d.expr, env) {
                Err(f) if f.infinite => {}
                // A lambda's body is evaluated only where it is applied
                // (ProB's semantics): one that fails somewhere in its
                // domain (outside a function's domain, `mod` of a negative
                // number, ...) is kept symbolic, and fails only if applied
                // there.
                Err(f) if f.stopped.is_none() && is_lambda(&d.expr) => {}
                other => return other,
            }
        }
        Ok(Value::Symbolic(Arc::new(Symbolic {
            def: d.def,
            text: self.definitions[d.def as usize].text.clone(),
        })))
    }

    /// An upper bound on the work of building a lambda or comprehension:
    /// the candidates its binders try, times the candidates the costliest
    /// symbolic comprehension it applies tries per application. `ADD =
    /// %(m1, m2).(m1 : MSG & m2 : MSG | ... CARRY(m1 |-> m2) ...)` over
    /// 256 messages, where `CARRY = {m1, m2, c | ... c : MSG ...}` is
    /// symbolic, tries 2^16 arguments of 2^8 candidates each. `None`
    /// where the candidates are not known.
    fn work_at_most(&self, e: &CExpr, env: &mut Env<'_>) -> Option<u128> {
        let candidates = self.candidates_at_most(e, env)?;
        let mut applied = AppliedConstants::default();
        super::walk::Visitor::expr(&mut applied, e);
        let per_application = applied
            .slots
            .iter()
            .filter_map(|slot| {
                let value = env.get(*slot);
                let Some(Value::Symbolic(s)) = value else {
                    return None;
                };
                match &self.definitions[s.def as usize].expr.kind {
                    EK::Comprehension(solver) => {
                        self.steps_candidates(&solver.image.as_ref()?.steps, env)
                    }
                    _ => None,
                }
            })
            .max()
            .unwrap_or(1);
        Some(candidates.saturating_mul(per_application))
    }

    /// An upper bound on the candidates a lambda or comprehension's
    /// binders try (the product of its generators' sizes), where each
    /// generator's size is known without building it: an interval, a set
    /// already built, a built-in integer set with bounds, `BOOL`, a given
    /// set. `None` where one is not.
    fn candidates_at_most(&self, e: &CExpr, env: &mut Env<'_>) -> Option<u128> {
        let solver = match &e.kind {
            EK::Lambda(solver, _) | EK::Comprehension(solver) => solver,
            _ => return None,
        };
        self.steps_candidates(&solver.steps, env)
    }

    /// The product of the sizes of the generators of `steps` (see
    /// [`Self::candidates_at_most`]).
    fn steps_candidates(&self, steps: &[SolveStep], env: &mut Env<'_>) -> Option<u128> {
        let mut product: u128 = 1;
        for step in steps {
            let size = match step {
                SolveStep::Bind(_, Gen::In(s)) | SolveStep::BindPattern(_, s) => {
                    self.size_without_building(s, env)?
                }
                SolveStep::Bind(_, Gen::Type(t)) => self.type_size(t)?,
                SolveStep::Bind(_, Gen::Eq(_)) | SolveStep::Check(_) => 1,
                _ => return None,
            };
            product = product.saturating_mul(size);
        }
        Some(product)
    }

    /// The number of elements of `s` where it is known without building
    /// the set (see [`Self::candidates_at_most`]).
    fn size_without_building(&self, s: &CExpr, env: &mut Env<'_>) -> Option<u128> {
        let interval = |lo: i64, hi: i64| Some(u128::try_from(hi - lo + 1).unwrap_or(0));
        match &s.kind {
            EK::Binary(BinaryOp::Interval, a, b) => {
                let lo = self.eval(a, env).ok()?.as_int()?;
                let hi = self.eval(b, env).ok()?.as_int()?;
                interval(lo, hi)
            }
            EK::Ints(kind) => match self.int_bounds(*kind) {
                (Some(lo), Some(hi)) => interval(lo, hi),
                _ => None,
            },
            EK::Read(Slot::Const(i)) => match env.consts.get(*i as usize)? {
                Value::Set(elems) => Some(elems.len() as u128),
                _ => None,
            },
            EK::Read(Slot::Frame(i)) => match env.frame.get(*i as usize)? {
                Value::Set(elems) => Some(elems.len() as u128),
                _ => None,
            },
            EK::Lit(Value::Set(elems)) => Some(elems.len() as u128),
            EK::Binary(BinaryOp::Mul, a, b) => Some(
                self.size_without_building(a, env)?
                    .saturating_mul(self.size_without_building(b, env)?),
            ),
            _ => None,
        }
    }

    /// The number of values of a type, where it is finite and small
    /// enough to count (booleans, given sets and their pairs).
    fn type_size(&self, t: &Type) -> Option<u128> {
        match t {
            Type::Bool => Some(2),
            Type::Given(n) => Some(self.given_sets.get(*n as usize)?.elements.len() as u128),
            Type::Pair(a, b) => Some(self.type_size(a)?.saturating_mul(self.type_size(b)?)),
            _ => None,
        }
    }

    /// A frame to evaluate definitions in: the PROPERTIES frame, its
    /// constants those `env` reads (its own frame while the constants
    /// are being solved).
    fn definition_env(&self, env: &Env<'_>) -> Env<'static> {
        let nc = self.num_constants;
        let constants = if env.consts.len() == nc {
            env.consts
        } else {
            &env.frame[..nc]
        };
        let mut frame = vec![unset(); self.properties_frame.max(nc)];
        frame[..nc].clone_from_slice(constants);
        Env {
            consts: &[],
            frame,
            pending: Default::default(),
        }
    }

    /// `f(x)` for a symbolic `f`.
    pub(super) fn apply_symbolic(
        &self,
        f: &Symbolic,
        x: &Value,
        span: Span,
        env: &Env<'_>,
    ) -> R<Value> {
        let mut images = Vec::new();
        self.images_symbolic(f, x, span, env, &mut images)?;
        the_image(images, span)
    }

    /// `f(x)` for a comprehension or a lambda `f` written where it is
    /// applied (see [`EK::ApplyBinder`]): its predicate solved with `x`
    /// bound.
    pub(super) fn apply_binder(
        &self,
        f: &CExpr,
        x: &Value,
        span: Span,
        env: &mut Env<'_>,
    ) -> R<Value> {
        let mut images = Vec::new();
        self.images(f, x, span, env, &mut images)?;
        the_image(images, span)
    }

    /// `r[S]` for a comprehension or a lambda `r` written in place (see
    /// [`EK::ImageBinder`]) and an explicit `S`.
    pub(super) fn image_binder(
        &self,
        r: &CExpr,
        s: &[Value],
        span: Span,
        env: &mut Env<'_>,
    ) -> R<Value> {
        image_by(s, |x, out| self.images(r, x, span, env, out))
    }

    /// `p ; r` for an explicit relation `p` and a comprehension or lambda
    /// `r` written in place (see [`EK::ComposeBinder`]).
    pub(super) fn compose_binder(
        &self,
        p: &[Value],
        r: &CExpr,
        span: Span,
        env: &mut Env<'_>,
    ) -> R<Value> {
        compose_by(p, span, |y, out| self.images(r, y, span, env, out))
    }

    /// `r[S]` for a symbolic `r` and an explicit `S`.
    pub(super) fn image_symbolic(
        &self,
        r: &Symbolic,
        s: &[Value],
        span: Span,
        env: &Env<'_>,
    ) -> R<Value> {
        image_by(s, |x, out| self.images_symbolic(r, x, span, env, out))
    }

    /// `closure1(r)[S]` for a symbolic `r` and an explicit `S`, with `S`
    /// itself for `closure(r)[S]` (`reflexive`): the images of `S`, then
    /// of what each round adds, until a round adds nothing (the closure
    /// itself is never listed: `closure1(expand)[{start}]` walks a
    /// computation step by step).
    pub(super) fn closure_image_symbolic(
        &self,
        r: &Symbolic,
        s: &[Value],
        reflexive: bool,
        span: Span,
        env: &Env<'_>,
    ) -> R<Value> {
        let mut reached: Vec<Value> = if reflexive { s.to_vec() } else { Vec::new() };
        let mut frontier = s.to_vec();
        while !frontier.is_empty() {
            super::within_budget(span)?;
            let images = self.image_symbolic(r, &frontier, span, env)?;
            frontier = set(&images, span)?
                .iter()
                .filter(|y| reached.binary_search(y).is_err())
                .cloned()
                .collect();
            reached.extend(frontier.iter().cloned());
            reached.sort_unstable();
        }
        Ok(Value::set_from_sorted(reached))
    }

    /// `p ; r` for an explicit relation `p` and a symbolic `r`.
    pub(super) fn compose_symbolic(
        &self,
        p: &[Value],
        r: &Symbolic,
        span: Span,
        env: &Env<'_>,
    ) -> R<Value> {
        compose_by(p, span, |y, out| self.images_symbolic(r, y, span, env, out))
    }

    /// The domain `S` of every function of the symbolic set of total
    /// functions `s` (`S --> T`, `S >-> T`, ...), or `None` if `s` is
    /// another set.
    pub(super) fn total_functions_domain(
        &self,
        s: &Symbolic,
        env: &Env<'_>,
    ) -> R<Option<Arc<[Value]>>> {
        let EK::Binary(
            BinaryOp::TotalFunction
            | BinaryOp::TotalInjection
            | BinaryOp::TotalSurjection
            | BinaryOp::TotalBijection,
            domain,
            _,
        ) = &self.definitions[s.def as usize].expr.kind
        else {
            return Ok(None);
        };
        let mut denv = self.definition_env(env);
        match self.eval(domain, &mut denv)? {
            Value::Set(keys) => Ok(Some(keys)),
            _ => Ok(None),
        }
    }

    /// The domain of the symbolic function `r` as far as `--bound-integers`
    /// lists it (`x : dom(cos)` for `cos = %x.(x : NATURAL | COS(x))`):
    /// the values of each lambda's one variable drawn from the set its
    /// plan draws them from, or from MININT..MAXINT where that is an
    /// unbounded integer, each tested against the lambda's predicate;
    /// unions and overrides join their sides' domains. `None` where `r`
    /// is no such function, or the bound is not in force.
    pub(crate) fn domain_within_bounds(
        &self,
        r: &Symbolic,
        env: &Env<'_>,
    ) -> R<Option<Vec<Value>>> {
        if !self.bound_integers {
            return Ok(None);
        }
        super::within_budget(Span::default())?;
        let _depth = Depth::enter(Span::default())?;
        let mut denv = self.definition_env(env);
        let mut keys = Vec::new();
        if !self.collect_domain(&self.definitions[r.def as usize].expr, &mut denv, &mut keys)? {
            return Ok(None);
        }
        keys.sort_unstable();
        keys.dedup();
        Ok(Some(keys))
    }

    /// [`Self::domain_within_bounds`] of a definition's part, into `out`;
    /// false where it is not a lambda of one variable (or a union of them).
    fn collect_domain(&self, e: &CExpr, env: &mut Env<'_>, out: &mut Vec<Value>) -> R<bool> {
        match &e.kind {
            EK::Binary(BinaryOp::Union | BinaryOp::Override, a, b) => {
                Ok(self.collect_domain(a, env, out)? && self.collect_domain(b, env, out)?)
            }
            EK::Lambda(solver, _) if solver.vars.len() == 1 => {
                let x = solver.vars[0];
                let drawn_from = solver.steps.iter().find_map(|step| match step {
                    SolveStep::Bind(v, generator) if *v == x => Some(generator),
                    _ => None,
                });
                let mut candidates = Vec::new();
                match drawn_from {
                    Some(Gen::In(set)) => {
                        self.enum_set(set, env, &mut |v, _| {
                            candidates.push(v);
                            Ok(true)
                        })?;
                    }
                    Some(Gen::Unbounded(_, Some(Type::Int))) => {
                        self.bound_at_run_time
                            .store(true, std::sync::atomic::Ordering::Relaxed);
                        candidates.extend((self.minint..=self.maxint).map(Value::Int));
                    }
                    _ => return Ok(false),
                }
                for v in candidates {
                    if self.binds(solver, &v, e.span, env)? {
                        out.push(v);
                    }
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Is `x` in the domain of the symbolic `r`? (Its lambdas' predicates
    /// are tested, their bodies not evaluated.)
    pub(super) fn in_domain_symbolic(&self, r: &Symbolic, x: &Value, env: &Env<'_>) -> R<bool> {
        super::within_budget(Span::default())?;
        let _depth = Depth::enter(Span::default())?;
        let mut denv = self.definition_env(env);
        self.in_domain(&self.definitions[r.def as usize].expr, x, &mut denv)
    }

    fn in_domain(&self, e: &CExpr, x: &Value, env: &mut Env<'_>) -> R<bool> {
        match &e.kind {
            EK::Lambda(solver, _) => self.binds(solver, x, e.span, env),
            EK::Binary(BinaryOp::Union | BinaryOp::Override, a, b) => {
                Ok(self.in_domain(a, x, env)? || self.in_domain(b, x, env)?)
            }
            _ => match self.eval(e, env)? {
                Value::Symbolic(s) => self.in_domain_symbolic(&s, x, env),
                f => Ok(!rel::pairs_from(set(&f, e.span)?, x).is_empty()),
            },
        }
    }

    /// Pushes onto `out` every `y` with `x |-> y` in the symbolic `r`.
    fn images_symbolic(
        &self,
        r: &Symbolic,
        x: &Value,
        span: Span,
        env: &Env<'_>,
        out: &mut Vec<Value>,
    ) -> R<()> {
        super::within_budget(span)?;
        let _depth = Depth::enter(span)?;
        let mut denv = self.definition_env(env);
        let definition = &self.definitions[r.def as usize];
        // A comprehension's application solves its predicate (`CARRY(m1
        // |-> m2)(i)` for each `i` solves for the same carries): worth
        // remembering, as a recursive definition's.
        if !definition.recursive && !matches!(definition.expr.kind, EK::Comprehension(_)) {
            return self.images(&definition.expr, x, span, &mut denv, out);
        }
        let constants = &denv.frame[..self.num_constants];
        let key = (r.def, x.clone());
        let known = APPLIED.with_borrow_mut(|applied| {
            let pairs = || applied.constants.iter().zip(constants);
            let same = applied.constants.len() == constants.len()
                && (pairs().all(|(a, b)| a.is_identical(b)) || {
                    // Equal constants in other allocations (decoded, or
                    // found by the solver) take the place of the kept ones:
                    // the next comparison is by pointer, not of whole tables.
                    let equal = pairs().all(|(a, b)| a == b);
                    if equal {
                        applied.constants.clone_from_slice(constants);
                    }
                    equal
                });
            same.then(|| applied.images.get(&key).cloned()).flatten()
        });
        if let Some(images) = known {
            out.extend(images);
            return Ok(());
        }
        let before = out.len();
        self.images(&definition.expr, x, span, &mut denv, out)?;
        let constants = &denv.frame[..self.num_constants];
        APPLIED.with_borrow_mut(|applied| {
            if applied.constants.as_slice() != constants || applied.images.len() >= MAX_APPLIED {
                applied.images.clear();
                applied.constants = constants.to_vec();
            }
            applied.images.insert(key, out[before..].to_vec());
        });
        Ok(())
    }

    /// Pushes onto `out` every `y` with `x |-> y` in the relation `e` (a
    /// definition or a part of one).
    fn images(
        &self,
        e: &CExpr,
        x: &Value,
        span: Span,
        env: &mut Env<'_>,
        out: &mut Vec<Value>,
    ) -> R<()> {
        match &e.kind {
            EK::Lambda(solver, body) => {
                if self.binds(solver, x, e.span, env)? {
                    out.push(self.eval(body, env)?);
                }
                Ok(())
            }
            EK::Binary(BinaryOp::Union, a, b) => {
                self.images(a, x, span, env, out)?;
                self.images(b, x, span, env, out)
            }
            EK::Binary(BinaryOp::Override, a, b) => {
                let before = out.len();
                self.images(b, x, span, env, out)?;
                if out.len() == before {
                    self.images(a, x, span, env, out)?;
                }
                Ok(())
            }
            EK::Comprehension(solver) => {
                let (Some(image), [args @ .., last]) = (&solver.image, solver.vars.as_slice())
                else {
                    return Err(Fail::new(
                        span,
                        "not supported yet: applying a set comprehension kept symbolic outside \
                         PROPERTIES or of one variable (define the function with a lambda \
                         `%x.(P | E)`)",
                    ));
                };
                // The argument binds the other variables; solving the
                // condition for the last one gives the images.
                if !untuple(args, x, env) {
                    return Ok(());
                }
                let last = *last as usize;
                self.solve(image, env, &mut |env| {
                    out.push(env.frame[last].clone());
                    Ok(true)
                })?;
                Ok(())
            }
            _ => match self.eval(e, env)? {
                Value::Symbolic(s) => self.images_symbolic(&s, x, span, env, out),
                f => {
                    out.extend(
                        rel::pairs_from(set(&f, e.span)?, x)
                            .iter()
                            .map(|p| rel::second(p).clone()),
                    );
                    Ok(())
                }
            },
        }
    }

    /// Binds the binder's variables to the components of `x` and tests
    /// its predicate.
    pub(super) fn binds(
        &self,
        solver: &super::ir::Solver,
        x: &Value,
        span: Span,
        env: &mut Env<'_>,
    ) -> R<bool> {
        let Some(condition) = &solver.condition else {
            return Err(Fail::new(
                span,
                "internal: a binder without its predicate cannot be tested",
            ));
        };
        if !untuple(&solver.vars, x, env) {
            return Ok(false);
        }
        self.holds(condition, env)
    }

    /// Is `v` in the symbolic set `s`?
    pub(super) fn member_symbolic(&self, v: &Value, s: &Symbolic, env: &Env<'_>) -> R<bool> {
        super::within_budget(Span::default())?;
        let mut denv = self.definition_env(env);
        self.member(v, &self.definitions[s.def as usize].expr, &mut denv)
    }

    /// Is the symbolic `v` in the set `s`? Decided where types alone
    /// decide it; an error elsewhere.
    pub(super) fn symbolic_in(&self, v: &Symbolic, s: &CExpr) -> R<bool> {
        use BinaryOp::*;
        let whole = |e: &CExpr| self.is_whole_type(e);
        // The domain of a lambda definition written `%(x, y).(x : A & y : B | ..)`
        // (the memberships in any order, nothing else): `A * B`, one set per
        // variable in the binder's order.
        let lambda_domains = match &self.definitions[v.def as usize].expr.kind {
            EK::Lambda(solver, _) => match solver.condition.as_deref().map(|c| &c.kind) {
                Some(PK::And(parts)) if parts.len() == solver.vars.len() => solver
                    .vars
                    .iter()
                    .map(|&x| {
                        parts.iter().find_map(|p| match &p.kind {
                            PK::Member(e, a, false)
                                if matches!(e.kind, EK::Read(Slot::Frame(s)) if s == x) =>
                            {
                                Some(a)
                            }
                            _ => None,
                        })
                    })
                    .collect::<Option<Vec<&CExpr>>>(),
                _ => None,
            },
            _ => None,
        };
        let domain_is = |a: &CExpr| {
            lambda_domains
                .as_deref()
                .is_some_and(|d| self.same_product(d, a))
        };
        let is_lambda = matches!(self.definitions[v.def as usize].expr.kind, EK::Lambda(..));
        let decided = match &s.kind {
            EK::Binary(Relation, a, b) => whole(a) && whole(b),
            // A lambda is a function; its domain is `A` when it is
            // written `%x.(x : A | ..)`, inside any whole type.
            EK::Binary(PartialFunction, a, b) => {
                is_lambda && whole(b) && (whole(a) || domain_is(a))
            }
            EK::Binary(TotalFunction, a, b) => whole(b) && domain_is(a),
            _ => whole(s),
        };
        if decided {
            return Ok(true);
        }
        let name = &self.definitions[v.def as usize].name;
        Err(Fail::new(
            s.span,
            format!(
                "not supported yet: testing whether `{name}`, which is kept symbolic, is in \
                 this set (orbit decides it only from types and a lambda's written domain, \
                 e.g. `{name} : INTEGER <-> INTEGER`, or `{name} : A --> INTEGER` for \
                 `{name} = %x.(x : A | ..)`)"
            ),
        ))
    }

    /// Does `a` denote the product `sets[0] * sets[1] * ..` (left-nested,
    /// as `*` groups) by how it is written? (See [`Self::same_set`].)
    fn same_product(&self, sets: &[&CExpr], a: &CExpr) -> bool {
        match (sets, &a.kind) {
            ([one], _) => self.same_set(one, a),
            ([init @ .., last], EK::Binary(BinaryOp::Mul, l, r)) if !init.is_empty() => {
                self.same_product(init, l) && self.same_set(last, r)
            }
            _ => false,
        }
    }

    /// Do `a` and `b` denote the same set by how they are written
    /// (built-in sets, literals, intervals of literals, the same constant)?
    fn same_set(&self, a: &CExpr, b: &CExpr) -> bool {
        let constant = |e: &CExpr| match e.kind {
            // Constants are the first frame slots in PROPERTIES.
            EK::Read(Slot::Frame(i)) if (i as usize) < self.num_constants => Some(i),
            EK::Read(Slot::Const(i)) => Some(i),
            _ => None,
        };
        match (&a.kind, &b.kind) {
            (EK::Ints(x), EK::Ints(y)) => x == y,
            (EK::Strings, EK::Strings) => true,
            (EK::FreeType(x), EK::FreeType(y)) => x == y,
            (EK::Lit(x), EK::Lit(y)) => x == y,
            (EK::Binary(BinaryOp::Interval, a1, a2), EK::Binary(BinaryOp::Interval, b1, b2)) => {
                self.same_set(a1, b1) && self.same_set(a2, b2)
            }
            _ => constant(a).is_some() && constant(a) == constant(b),
        }
    }

    /// Does `e` denote every value of its type? (See [`is_whole_type`].)
    fn is_whole_type(&self, e: &CExpr) -> bool {
        is_whole_type(e, &self.given_sets)
    }
}

/// Does `e` denote every value of its type (`INTEGER`, `BOOL`, a whole
/// given set, `POW`, products and relations of such)? Membership in such
/// a set holds of every well-typed value.
pub(super) fn is_whole_type(e: &CExpr, given_sets: &[GivenSet]) -> bool {
    use super::ir::IntSet;
    use crate::frontends::b::ast::UnaryOp;
    match &e.kind {
        EK::Ints(IntSet::Integer) | EK::Strings | EK::FreeType(_) => true,
        EK::Lit(Value::Set(items)) => match items.first() {
            Some(Value::Bool(_)) => items.len() == 2,
            Some(Value::Elem(el)) => given_sets
                .get(el.set as usize)
                .is_some_and(|g| g.elements.len() == items.len()),
            _ => false,
        },
        EK::Unary(UnaryOp::Pow, a) => is_whole_type(a, given_sets),
        EK::Binary(BinaryOp::Mul | BinaryOp::Relation, a, b) => {
            is_whole_type(a, given_sets) && is_whole_type(b, given_sets)
        }
        _ => false,
    }
}

/// Most symbolic applications in progress on a thread at once: a
/// recursive definition deeper than this is a model error.
const MAX_DEPTH: u32 = 100_000;

/// Stack that must stay free below a symbolic application: room for one
/// more level (a few kilobytes) and whatever evaluation it does.
const STACK_RESERVE: usize = 1 << 20;

thread_local! {
    static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// The lowest address this thread's stack may reach before a
    /// symbolic application is refused (0: unknown yet).
    static STACK_FLOOR: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The lowest address of the current thread's stack plus
/// [`STACK_RESERVE`], or `None` if the system does not say.
fn stack_floor() -> Option<usize> {
    let cached = STACK_FLOOR.with(|f| f.get());
    if cached != 0 {
        return Some(cached);
    }
    // SAFETY: pthread_getattr_np fills `attr` for the calling thread, which
    // is destroyed after reading the stack's bounds from it.
    let (low, size) = unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let got = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if got != 0 {
            return None;
        }
        (addr as usize, size)
    };
    let floor = low.saturating_add(STACK_RESERVE.min(size / 2));
    STACK_FLOOR.with(|f| f.set(floor));
    Some(floor)
}

/// One symbolic application in progress on this thread: refused, as a
/// model error rather than a stack overflow, past [`MAX_DEPTH`] levels or
/// when the thread's stack is nearly used up.
struct Depth;

impl Depth {
    fn enter(span: Span) -> R<Depth> {
        let depth = DEPTH.with(|d| d.get());
        let marker = 0u8;
        let here = std::ptr::addr_of!(marker) as usize;
        let exhausted = match stack_floor() {
            Some(floor) => here < floor,
            // Unknown stack: the depth the smallest worker stack allows.
            None => depth >= 1_000,
        };
        if depth >= MAX_DEPTH || exhausted {
            return Err(Fail::new(
                span,
                format!(
                    "a recursive definition nests too deeply ({depth} applications fill \
                     the thread's stack)"
                ),
            ));
        }
        DEPTH.with(|d| d.set(depth + 1));
        Ok(Depth)
    }
}

impl Drop for Depth {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get() - 1));
    }
}

/// Can `e` define a function recursively: is it a lambda or a set
/// comprehension, or a union or override with one?
pub(crate) fn is_function_definition(e: &CExpr) -> bool {
    match &e.kind {
        EK::Lambda(..) | EK::Comprehension(..) => true,
        EK::Binary(BinaryOp::Union | BinaryOp::Override, a, b) => {
            is_function_definition(a) || is_function_definition(b)
        }
        _ => false,
    }
}

/// Is `e` a lambda, or a union or override of lambdas?
fn is_lambda(e: &CExpr) -> bool {
    match &e.kind {
        EK::Lambda(..) => true,
        EK::Binary(BinaryOp::Union | BinaryOp::Override, a, b) => is_lambda(a) || is_lambda(b),
        _ => false,
    }
}

/// Destructures `x`, a left-nested tuple, into the frame slots `vars`;
/// false if it has another shape.
/// `r[S]` for a relation `r` given by `images`, which pushes the images of
/// one element.
fn image_by(s: &[Value], mut images: impl FnMut(&Value, &mut Vec<Value>) -> R<()>) -> R<Value> {
    let mut out = Vec::new();
    for x in s {
        images(x, &mut out)?;
    }
    Ok(Value::set_from_vec(out))
}

/// `p ; r` for an explicit relation `p` and a relation `r` given by
/// `images`, which pushes the images of one element.
fn compose_by(
    p: &[Value],
    span: Span,
    mut images: impl FnMut(&Value, &mut Vec<Value>) -> R<()>,
) -> R<Value> {
    let mut out = Vec::new();
    let mut found = Vec::new();
    for pair in p {
        let Some((x, y)) = pair.as_pair() else {
            return Err(Fail::new(span, "expected a relation"));
        };
        found.clear();
        images(y, &mut found)?;
        out.extend(found.drain(..).map(|z| Value::pair(x.clone(), z)));
    }
    Ok(Value::set_from_vec(out))
}

/// The one image in `images` (with repeats) of a function application: a
/// model error where there is none (outside the domain) or several (not
/// a function there).
fn the_image(mut images: Vec<Value>, span: Span) -> R<Value> {
    images.sort_unstable();
    images.dedup();
    match images.len() {
        1 => Ok(images.swap_remove(0)),
        0 => Err(Fail::outside_domain(
            span,
            "function applied outside its domain",
        )),
        _ => Err(Fail::new(
            span,
            "applying a relation that is not a function here",
        )),
    }
}

fn untuple(vars: &[u32], x: &Value, env: &mut Env<'_>) -> bool {
    match vars {
        [] => false,
        [only] => {
            env.frame[*only as usize] = x.clone();
            true
        }
        [init @ .., last] => match x.as_pair() {
            Some((a, b)) => {
                env.frame[*last as usize] = b.clone();
                untuple(init, a, env)
            }
            None => false,
        },
    }
}

/// The error for comparing a symbolic value with another.
pub(crate) fn cannot_compare(v: &Value, span: Span) -> Fail {
    match v {
        Value::Symbolic(s) => Fail::new(
            span,
            format!(
                "not supported yet: comparing `{}`, which is kept symbolic, with another value",
                s.text
            ),
        ),
        _ => Fail::new(span, "not supported yet: comparing a symbolic value"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(v: Value) -> CExpr {
        CExpr {
            kind: EK::Lit(v),
            span: Span::default(),
        }
    }

    #[test]
    fn tuples_destructure_left_nested() {
        let mut env = Env {
            consts: &[],
            frame: vec![unset(); 4],
            pending: Default::default(),
        };
        let x = Value::pair(Value::pair(Value::Int(1), Value::Int(2)), Value::Int(3));
        assert!(untuple(&[0, 2, 3], &x, &mut env));
        assert_eq!(
            env.frame,
            [Value::Int(1), unset(), Value::Int(2), Value::Int(3)]
        );
        assert!(untuple(&[1], &x, &mut env));
        assert_eq!(env.frame[1], x);
        assert!(!untuple(&[0, 1], &Value::Int(4), &mut env));
        assert!(!untuple(&[], &x, &mut env));
    }

    #[test]
    fn only_lambdas_and_their_unions_evaluate_lazily() {
        let set = lit(Value::empty_set());
        assert!(!is_lambda(&set));
        let lambda = CExpr {
            kind: EK::Lambda(
                Box::new(super::super::ir::Solver {
                    vars: vec![0],
                    steps: Vec::new(),
                    undefined: super::super::ir::Undefined::Error,
                    span: Span::default(),
                    condition: None,
                    by_solver: None,
                    image: None,
                }),
                Box::new(lit(Value::Int(0))),
            ),
            span: Span::default(),
        };
        assert!(is_lambda(&lambda));
        let union = CExpr {
            kind: EK::Binary(BinaryOp::Union, Box::new(set.clone()), Box::new(lambda)),
            span: Span::default(),
        };
        assert!(is_lambda(&union));
        let inter = CExpr {
            kind: EK::Binary(BinaryOp::Inter, Box::new(set.clone()), Box::new(set)),
            span: Span::default(),
        };
        assert!(!is_lambda(&inter));
    }
}
