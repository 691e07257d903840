//! Evaluating compiled predicates.
//!
//! Membership `x : S` is decided structurally on the set expression where
//! that avoids building `S`: integer sets and intervals compare bounds,
//! `POW`, relation and function spaces and sequence sets check the shape of
//! `x`, and `A \/ B`, `A /\ B`, `A - B` and `{a, b}` test the parts. So the
//! common guards `p : PROC - proc` or `f : A --> B` allocate nothing.

use super::expr::{int, set, thread_copy};
use super::int_ranges;
use super::ir::{CExpr, CPred, Cmp, EK, IntSet, PK, Solver};
use super::{Env, Interpreter, R};
use crate::frontends::b::ast::{BinaryOp, UnaryOp};
use crate::frontends::b::value::relations as rel;
use crate::frontends::b::value::{Value, sequences as seqs, sets};

impl Interpreter {
    /// Evaluates a predicate.
    pub(crate) fn holds(&self, p: &CPred, env: &mut Env<'_>) -> R<bool> {
        match &p.kind {
            PK::Const(b) => Ok(*b),
            PK::And(ps) => {
                for q in ps {
                    if !self.holds(q, env)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            PK::Or(a, b) => Ok(self.holds(a, env)? || self.holds(b, env)?),
            PK::Implies(a, b) => Ok(!self.holds(a, env)? || self.holds(b, env)?),
            PK::Equiv(a, b) => Ok(self.holds(a, env)? == self.holds(b, env)?),
            PK::Not(a) => Ok(!self.holds(a, env)?),
            PK::Cmp(op, a, b) => {
                if matches!(op, Cmp::Eq | Cmp::Neq) {
                    // `r~[{y}] = {}`, `A /\ B = {}`, `{} = A - B` (either
                    // side): no set built.
                    let other = if is_empty_set(b) {
                        Some(a)
                    } else if is_empty_set(a) {
                        Some(b)
                    } else {
                        None
                    };
                    if let Some(e) = other
                        && let Some(empty) = self.is_empty_unbuilt(e, env)?
                    {
                        return Ok(empty == (*op == Cmp::Eq));
                    }
                }
                // Slots, literals and `f(x)` are compared in place.
                if let (Some(va), Some(vb)) = (self.eval_ref(a, env)?, self.eval_ref(b, env)?) {
                    return compare(*op, va, vb, a, b);
                }
                // Intervals compare by their bounds, never built
                // (`1..10000000 = 1..card(s)`).
                if matches!(op, Cmp::Eq | Cmp::Neq)
                    && is_interval(a)
                    && is_interval(b)
                    && let (Some(ra), Some(rb)) = (self.int_range(a, env)?, self.int_range(b, env)?)
                {
                    return Ok(ra.same_set(&rb) == (*op == Cmp::Eq));
                }
                // Integer sets that may be infinite or too large to build
                // compare by their ranges (after the slots and literals compared
                // in place, which they never are).
                if matches!(op, Cmp::Eq | Cmp::Neq)
                    && (int_ranges::is_int_algebra(a) || int_ranges::is_int_algebra(b))
                    && let Some(ra) = self.int_ranges(a, env)?
                    && let Some(rb) = self.int_ranges(b, env)?
                {
                    return Ok((ra == rb) == (*op == Cmp::Eq));
                }
                let va = self.eval(a, env)?;
                let vb = self.eval(b, env)?;
                compare(*op, &va, &vb, a, b)
            }
            PK::Member(x, s, negated) => {
                let v = self.eval(x, env)?;
                Ok(self.member(&v, s, env)? != *negated)
            }
            PK::Subset(a, b, strict, negated) => {
                // Integer sets and intervals compare by their bounds (the
                // infinite ones cannot be built).
                if let (Some(ia), Some(ib)) = (self.int_range(a, env)?, self.int_range(b, env)?) {
                    return Ok(ia.subset(&ib, *strict) != *negated);
                }
                if (int_ranges::is_int_algebra(a) || int_ranges::is_int_algebra(b))
                    && let Some(ra) = self.int_ranges(a, env)?
                    && let Some(rb) = self.int_ranges(b, env)?
                {
                    let sub = ra.subset(&rb) && (!*strict || ra != rb);
                    return Ok(sub != *negated);
                }
                let va = self.eval(a, env)?;
                let elems = set(&va, a.span)?;
                let mut sub = true;
                for x in elems {
                    if !self.member(x, b, env)? {
                        sub = false;
                        break;
                    }
                }
                if sub && *strict && !matches!(self.int_range(b, env)?, Some(r) if r.is_infinite())
                {
                    // A proper subset has fewer elements than the superset
                    // (which an infinite superset has).
                    let vb = self.eval(b, env)?;
                    sub = elems.len() < set(&vb, b.span)?.len();
                }
                Ok(sub != *negated)
            }
            PK::ForAll(solver, goal) => {
                let mut all = true;
                self.solve(solver, env, &mut |env| {
                    if self.holds(goal, env)? {
                        Ok(true)
                    } else {
                        all = false;
                        Ok(false)
                    }
                })?;
                Ok(all)
            }
            PK::Exists(solver) => {
                if let Some(found) = self.exists_by_solver(solver, env)? {
                    return Ok(found);
                }
                let mut found = false;
                self.solve(solver, env, &mut |_| {
                    found = true;
                    Ok(false)
                })?;
                Ok(found)
            }
        }
    }

    /// Whether `#x.(P)` holds, found by the constraint solver where
    /// enumeration would try more than [`super::cp::AUTO_THRESHOLD`]
    /// candidates (`#p.(p : V >->> V & !(x, y).(...))`, a graph
    /// isomorphism); `None` leaves it to enumeration.
    fn exists_by_solver(&self, solver: &Solver, env: &Env<'_>) -> R<Option<bool>> {
        let found = self.binder_by_solver(solver, env, super::cp::Search::Exists)?;
        Ok(found.map(|valuations| !valuations.is_empty()))
    }

    /// Is `v` an element of the set denoted by `s`?
    pub(crate) fn member(&self, v: &Value, s: &CExpr, env: &mut Env<'_>) -> R<bool> {
        use BinaryOp::*;
        if let Value::Symbolic(sym) = v {
            return self.symbolic_in(sym, s);
        }
        match &s.kind {
            EK::Read(slot) => {
                let sv = env.read(*slot);
                if let Value::Symbolic(sym) = sv {
                    let sym = sym.clone();
                    return self.member_symbolic(v, &sym, env);
                }
                Ok(sets::contains(set(sv, s.span)?, v))
            }
            // Tested without building the set (which may be infinite).
            EK::Comprehension(solver) if solver.condition.is_some() => {
                self.binds(solver, v, s.span, env)
            }
            EK::Lambda(solver, body) if solver.condition.is_some() => {
                let Some((x, y)) = v.as_pair() else {
                    return Ok(false);
                };
                Ok(self.binds(solver, x, s.span, env)? && self.eval(body, env)?.fast_eq(y))
            }
            EK::Lit(sv) => Ok(sets::contains(set(sv, s.span)?, v)),
            EK::Ints(kind) => {
                let (lo, hi) = self.int_bounds(*kind);
                Ok(match v {
                    Value::Int(i) => lo.is_none_or(|lo| *i >= lo) && hi.is_none_or(|hi| *i <= hi),
                    // Beyond 64 bits: only in a set unbounded on its side.
                    Value::Big(b) if b.sign() == num_bigint::Sign::Minus => lo.is_none(),
                    Value::Big(_) => hi.is_none(),
                    _ => false,
                })
            }
            EK::Strings => Ok(matches!(v, Value::Str(_))),
            // Every value of the type (the checker typed `v`).
            EK::FreeType(_) => Ok(true),
            EK::SetEnum(items) => {
                for x in items {
                    if self.eval(x, env)? == *v {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            EK::Binary(Interval, a, b) => {
                if !v.is_integer() {
                    return Ok(false);
                }
                let (lo, hi) = (self.eval(a, env)?, self.eval(b, env)?);
                if let (Value::Int(i), Value::Int(lo), Value::Int(hi)) = (v, &lo, &hi) {
                    return Ok(lo <= i && i <= hi);
                }
                // An integer beyond 64 bits on either side.
                if !lo.is_integer() {
                    int(&lo, a.span)?;
                }
                if !hi.is_integer() {
                    int(&hi, b.span)?;
                }
                Ok(lo <= *v && *v <= hi)
            }
            EK::Unary(UnaryOp::Dom, r) => {
                // `x : dom(r)`: a binary search for the run of pairs from x.
                let rv = self.eval(r, env)?;
                if let Value::Symbolic(sym) = &rv {
                    return self.in_domain_symbolic(sym, v, env);
                }
                Ok(!rel::pairs_from(set(&rv, r.span)?, v).is_empty())
            }
            EK::Unary(UnaryOp::Ran, r) => {
                let rv = self.eval(r, env)?;
                Ok(set(&rv, r.span)?.iter().any(|p| rel::second(p).fast_eq(v)))
            }
            EK::Binary(Union, a, b) => Ok(self.member(v, a, env)? || self.member(v, b, env)?),
            EK::Binary(Inter, a, b) => Ok(self.member(v, a, env)? && self.member(v, b, env)?),
            // In a membership the set `a - b` is always a set difference.
            EK::Binary(Minus, a, b) => Ok(self.member(v, a, env)? && !self.member(v, b, env)?),
            EK::Binary(Mul, a, b) if matches!(v, Value::Pair(_)) => {
                let (x, y) = v.as_pair().expect("matched a pair");
                Ok(self.member(x, a, env)? && self.member(y, b, env)?)
            }
            EK::Binary(
                op @ (Relation | PartialFunction | TotalFunction | PartialInjection
                | TotalInjection | PartialSurjection | TotalSurjection | PartialBijection
                | TotalBijection),
                a,
                b,
            ) => self.member_relation_space(v, *op, a, b, env),
            EK::Unary(
                op @ (UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1),
                inner,
            ) => {
                let Some(elems) = v.as_set() else {
                    return Ok(false);
                };
                if matches!(op, UnaryOp::Pow1 | UnaryOp::Fin1) && elems.is_empty() {
                    return Ok(false);
                }
                for x in elems {
                    if !self.member(x, inner, env)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            EK::Unary(
                op
                @ (UnaryOp::Seq | UnaryOp::Seq1 | UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm),
                inner,
            ) => {
                let Some(elems) = v.as_set().and_then(seqs::elements) else {
                    return Ok(false);
                };
                if matches!(op, UnaryOp::Seq1 | UnaryOp::Iseq1) && elems.is_empty() {
                    return Ok(false);
                }
                for x in &elems {
                    if !self.member(x, inner, env)? {
                        return Ok(false);
                    }
                }
                if matches!(op, UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm) {
                    let mut sorted = elems.clone();
                    sorted.sort_unstable();
                    if sorted.windows(2).any(|w| w[0] == w[1]) {
                        return Ok(false);
                    }
                    if *op == UnaryOp::Perm {
                        let all = self.eval(inner, env)?;
                        return Ok(set(&all, inner.span)?.len() == elems.len());
                    }
                }
                Ok(true)
            }
            _ => {
                let sv = self.eval(s, env)?;
                if let Value::Symbolic(sym) = &sv {
                    return self.member_symbolic(v, sym, env);
                }
                Ok(sets::contains(set(&sv, s.span)?, v))
            }
        }
    }

    /// Is `v` in the relation or function space `a op b`?
    fn member_relation_space(
        &self,
        v: &Value,
        op: BinaryOp,
        a: &CExpr,
        b: &CExpr,
        env: &mut Env<'_>,
    ) -> R<bool> {
        use BinaryOp::*;
        let Some(pairs) = v.as_set() else {
            return Ok(false);
        };
        // Hot path (typing invariants `f : S --> T` with `S` a variable or
        // a given set, checked in every state): the pairs' first components
        // ascend, so with `S` explicit their membership is one merge with
        // `S` instead of a search per pair.
        let domain = match &a.kind {
            EK::Read(slot) => env.read(*slot),
            // This thread's copy of the program's literal (see
            // `thread_copy`): cloning the shared one writes its count.
            EK::Lit(v) => &thread_copy(v),
            _ => &Value::Int(0),
        };
        let domain = match domain {
            Value::Set(d) => Some(d.clone()),
            _ => None,
        };
        let mut j = 0;
        for p in pairs {
            let Some((x, y)) = p.as_pair() else {
                return Ok(false);
            };
            let in_domain = match &domain {
                Some(d) => {
                    while j < d.len() && d[j].fast_cmp(x).is_lt() {
                        j += 1;
                    }
                    j < d.len() && d[j].fast_eq(x)
                }
                None => self.member(x, a, env)?,
            };
            if !in_domain || !self.member(y, b, env)? {
                return Ok(false);
            }
        }
        if op == Relation {
            return Ok(true);
        }
        if !rel::is_function(pairs) {
            return Ok(false);
        }
        if matches!(
            op,
            PartialInjection | TotalInjection | PartialBijection | TotalBijection
        ) && !rel::is_injective(pairs)
        {
            return Ok(false);
        }
        if matches!(
            op,
            TotalFunction | TotalInjection | TotalSurjection | TotalBijection
        ) {
            // Total: the domain is all of `a` (a function's domain has one
            // entry per pair, all in `a`, so comparing sizes suffices).
            if self.is_infinite(a) {
                return Ok(false); // a finite function is never total on it
            }
            let av = self.eval(a, env)?;
            if set(&av, a.span)?.len() != pairs.len() {
                return Ok(false);
            }
        }
        if matches!(
            op,
            PartialSurjection | TotalSurjection | PartialBijection | TotalBijection
        ) {
            if self.is_infinite(b) {
                return Ok(false);
            }
            let bv = self.eval(b, env)?;
            if rel::range(pairs).len() != set(&bv, b.span)?.len() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Is `s` one of the unbounded built-in sets (`NATURAL`, `INTEGER`,
    /// `STRING`, a recursive free type, ...)?
    fn is_infinite(&self, s: &CExpr) -> bool {
        match s.kind {
            EK::Ints(kind) => {
                let (lo, hi) = self.int_bounds(kind);
                lo.is_none() || hi.is_none()
            }
            EK::Strings => true,
            EK::FreeType(k) => !self.free_type_is_finite(k, &mut Vec::new()),
            _ => false,
        }
    }

    /// Lower and upper bounds of a built-in integer set (`None`: unbounded).
    /// The integers `e` denotes when it is an integer set (`NATURAL`,
    /// `INT`, ...) or an interval `a..b`.
    fn int_range(&self, e: &CExpr, env: &mut Env<'_>) -> R<Option<IntRange>> {
        Ok(match &e.kind {
            EK::Ints(kind) => {
                let (lo, hi) = self.int_bounds(*kind);
                Some(IntRange { lo, hi })
            }
            EK::Binary(BinaryOp::Interval, a, b) => Some(IntRange {
                lo: Some(int(&self.eval(a, env)?, a.span)?),
                hi: Some(int(&self.eval(b, env)?, b.span)?),
            }),
            _ => None,
        })
    }

    pub(crate) fn int_bounds(&self, kind: IntSet) -> (Option<i64>, Option<i64>) {
        let (min, max) = (self.minint, self.maxint);
        match kind {
            IntSet::Nat => (Some(0), Some(max)),
            IntSet::Nat1 => (Some(1), Some(max)),
            IntSet::Int => (Some(min), Some(max)),
            IntSet::Natural => (Some(0), None),
            IntSet::Natural1 => (Some(1), None),
            IntSet::Integer => (None, None),
        }
    }
}

/// The integers from `lo` to `hi` (unbounded where `None`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct IntRange {
    lo: Option<i64>,
    hi: Option<i64>,
}

impl IntRange {
    fn is_empty(&self) -> bool {
        matches!((self.lo, self.hi), (Some(lo), Some(hi)) if lo > hi)
    }

    fn is_infinite(&self) -> bool {
        self.lo.is_none() || self.hi.is_none()
    }

    /// Whether both denote the same integers (every empty range does).
    fn same_set(&self, other: &IntRange) -> bool {
        self == other || (self.is_empty() && other.is_empty())
    }

    /// `self <: other`, or `self <<: other` if `strict`.
    fn subset(&self, other: &IntRange, strict: bool) -> bool {
        if self.is_empty() {
            return !strict || !other.is_empty();
        }
        let above = match (self.lo, other.lo) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(a), Some(b)) => a >= b,
        };
        let below = match (self.hi, other.hi) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(a), Some(b)) => a <= b,
        };
        above && below && (!strict || self != other)
    }
}

/// Is `e` an interval `a..b` or a built-in integer set (`NAT`, ...)?
fn is_interval(e: &CExpr) -> bool {
    matches!(e.kind, EK::Ints(_) | EK::Binary(BinaryOp::Interval, ..))
}

/// Is `e` the literal empty set `{}`?
fn is_empty_set(e: &CExpr) -> bool {
    match &e.kind {
        EK::Lit(Value::Set(s)) => s.is_empty(),
        EK::SetEnum(items) => items.is_empty(),
        _ => false,
    }
}

/// The error for comparing unequal values of which one is symbolic.
#[cold]
#[inline(never)]
fn symbolic_unequal(va: &Value, vb: &Value, a: &CExpr, b: &CExpr) -> super::Fail {
    if matches!(va, Value::Symbolic(_)) {
        super::symbolic::cannot_compare(va, a.span)
    } else {
        super::symbolic::cannot_compare(vb, b.span)
    }
}

/// `va op vb` (inlined: it is every guard's comparison).
#[inline(always)]
fn compare(op: Cmp, va: &Value, vb: &Value, a: &CExpr, b: &CExpr) -> R<bool> {
    Ok(match op {
        Cmp::Eq | Cmp::Neq => {
            let equal = va.fast_eq(vb);
            // Different definitions may still denote one set.
            if !equal && (matches!(va, Value::Symbolic(_)) || matches!(vb, Value::Symbolic(_))) {
                return Err(symbolic_unequal(va, vb, a, b));
            }
            equal == (op == Cmp::Eq)
        }
        _ => {
            let ord = match (va, vb) {
                (Value::Int(x), Value::Int(y)) => x.cmp(y),
                _ => compare_big(va, vb, a, b)?,
            };
            match op {
                Cmp::Lt => ord.is_lt(),
                Cmp::Le => ord.is_le(),
                Cmp::Gt => ord.is_gt(),
                _ => ord.is_ge(),
            }
        }
    })
}

/// The order of two integers of which one is beyond 64 bits, or a type
/// error.
#[cold]
#[inline(never)]
fn compare_big(va: &Value, vb: &Value, a: &CExpr, b: &CExpr) -> R<std::cmp::Ordering> {
    if !va.is_integer() {
        int(va, a.span)?;
    }
    if !vb.is_integer() {
        int(vb, b.span)?;
    }
    Ok(va.cmp(vb))
}
