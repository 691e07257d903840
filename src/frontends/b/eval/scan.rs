//! Preimage scans: `p : S & f(p) = c` solved by one pass over `f`.
//!
//! The most common operation guard of B models selects the elements in a
//! given state, `p : PROC & pst(p) = idle`. The generic plan (see
//! [`super::plan`]) enumerates `S` and applies `f` to every candidate: a
//! binary search per element of `S`, most of which fail. Since a relation is
//! a sorted set of pairs, its domain elements come in ascending order, each
//! with a contiguous run of images; walking `f` once and keeping the `x`
//! with `x : S` and image `c` yields exactly the candidates the generic plan
//! accepts, in the same (ascending) order. Where the generic plan reports an
//! error (an `x : S` with several images: `f` is not a function there), the
//! scan reports the same error at the same point of the enumeration.
//!
//! Only lenient solvers (operation guards) are fused: there `f(p)` outside
//! `dom(f)` makes the check false, which the scan gets by never visiting
//! such `p`; elsewhere it would be a well-definedness error. `S` is limited
//! to forms whose enumeration is ascending and cannot fail (explicit sets,
//! slots, `dom(r)`, and `-`/`/\` of those); at run time any slot that does
//! not hold a set falls back to the generic enumeration.

use super::ir::{CExpr, CPred, Cmp, EK, Gen, PK, Slot, SolveStep, Solver, Undefined};
use super::{Env, Fail, Interpreter, R};
use crate::diag::Span;
use crate::frontends::b::ast::{BinaryOp, UnaryOp};
use crate::frontends::b::value::Value;
use crate::frontends::b::value::relations as rel;

/// `p : set & func(p) = value` for the solver variable in `slot`.
#[derive(Clone, Debug)]
pub struct PreimageScan {
    /// The solver variable's frame slot.
    pub slot: u32,
    /// The set `S` that `p` ranges over.
    pub set: CExpr,
    /// Where the function lives.
    pub func: Slot,
    /// The image `c` (a literal or a slot other than `p`).
    pub value: CExpr,
    /// The span of `f(p)` (for the not-a-function error).
    pub apply_span: Span,
    /// The original check, for the generic fallback.
    pub check: CPred,
}

/// Replaces every `Bind(p, In(S))` immediately followed by the check
/// `f(p) = c` (or `c = f(p)`) in a lenient solver by a [`PreimageScan`].
pub fn fuse(solver: &mut Solver) {
    if solver.undefined != Undefined::False {
        return;
    }
    let mut i = 0;
    while i + 1 < solver.steps.len() {
        if let (SolveStep::Bind(slot, Gen::In(set)), SolveStep::Check(check)) =
            (&solver.steps[i], &solver.steps[i + 1])
            && scannable_set(set)
            && let Some((func, value, apply_span)) = preimage_check(check, *slot)
        {
            let scan = PreimageScan {
                slot: *slot,
                set: set.clone(),
                func,
                value: value.clone(),
                apply_span,
                check: check.clone(),
            };
            solver
                .steps
                .splice(i..i + 2, [SolveStep::Scan(Box::new(scan))]);
        }
        i += 1;
    }
}

/// Is `s` a set whose enumeration is ascending and cannot fail (given
/// that its slots hold sets, which [`ready_set`] checks at run time)?
fn scannable_set(s: &CExpr) -> bool {
    match &s.kind {
        EK::Lit(Value::Set(_)) | EK::Read(_) => true,
        EK::Unary(UnaryOp::Dom, r) => matches!(r.kind, EK::Lit(Value::Set(_)) | EK::Read(_)),
        EK::Binary(BinaryOp::Minus | BinaryOp::Inter, a, b) => scannable_set(a) && scannable_set(b),
        _ => false,
    }
}

/// `(f, c, span of f(p))` if `check` is `f(p) = c` or `c = f(p)` with `f`
/// a slot and `c` a literal or a slot, neither of them `p`.
fn preimage_check(check: &CPred, p: u32) -> Option<(Slot, &CExpr, Span)> {
    let PK::Cmp(Cmp::Eq, a, b) = &check.kind else {
        return None;
    };
    let not_p = |e: &CExpr| match e.kind {
        EK::Lit(_) | EK::Read(Slot::Const(_)) => true,
        EK::Read(Slot::Frame(s)) => s != p,
        _ => false,
    };
    let applied = |e: &CExpr| match &e.kind {
        EK::Apply(f, x)
            if matches!(x.kind, EK::Read(Slot::Frame(s)) if s == p)
                && matches!(f.kind, EK::Read(_))
                && not_p(f) =>
        {
            let EK::Read(slot) = f.kind else { return None };
            Some((slot, e.span))
        }
        _ => None,
    };
    if let Some((f, span)) = applied(a)
        && not_p(b)
    {
        return Some((f, b, span));
    }
    if let Some((f, span)) = applied(b)
        && not_p(a)
    {
        return Some((f, a, span));
    }
    None
}

/// The value in a slot.
fn read<'v>(slot: Slot, env: &'v Env<'_>) -> &'v Value {
    match slot {
        Slot::Const(i) => &env.consts[i as usize],
        Slot::Frame(i) => &env.frame[i as usize],
    }
}

/// Do the slots of a [`scannable_set`] hold sets right now?
fn ready_set(s: &CExpr, env: &Env<'_>) -> bool {
    match &s.kind {
        EK::Lit(v) => v.as_set().is_some(),
        EK::Read(slot) => read(*slot, env).as_set().is_some(),
        EK::Unary(_, r) => ready_set(r, env),
        EK::Binary(_, a, b) => ready_set(a, env) && ready_set(b, env),
        _ => false,
    }
}

impl Interpreter {
    /// Runs a [`PreimageScan`] step, then the steps from `next` for every
    /// solution (see the module docs).
    pub(super) fn run_scan<'e>(
        &self,
        scan: &PreimageScan,
        solver: &Solver,
        next: usize,
        env: &mut Env<'e>,
        k: &mut dyn FnMut(&mut Env<'e>) -> R<bool>,
    ) -> R<bool> {
        let slot = scan.slot as usize;
        let Value::Set(pairs) = read(scan.func, env) else {
            return self.scan_fallback(scan, solver, next, env, k);
        };
        if !ready_set(&scan.set, env) {
            return self.scan_fallback(scan, solver, next, env, k);
        }
        // Shared, not copied: the continuation needs the frame mutably.
        let pairs = pairs.clone();
        let target = match &scan.value.kind {
            EK::Lit(v) => v.clone(),
            EK::Read(s) => read(*s, env).clone(),
            _ => return self.scan_fallback(scan, solver, next, env, k),
        };
        let mut i = 0;
        while i < pairs.len() {
            let x = rel::first(&pairs[i]);
            let mut end = i + 1;
            while end < pairs.len() && rel::first(&pairs[end]).fast_cmp(x).is_eq() {
                end += 1;
            }
            // The image first: most pairs have another, and `x : S` (which
            // cannot fail for a scannable `S`) costs a search.
            let single = end - i == 1;
            if (!single || rel::second(&pairs[i]).fast_eq(&target))
                && self.member(x, &scan.set, env)?
            {
                if !single {
                    return Err(Fail::new(
                        scan.apply_span,
                        "applying a relation that is not a function here",
                    ));
                }
                env.frame[slot] = x.clone();
                if !self.run_steps(solver, next, env, k)? {
                    return Ok(false);
                }
            }
            i = end;
        }
        Ok(true)
    }

    /// The generic plan the scan replaces: enumerate `S`, check `f(p) = c`.
    fn scan_fallback<'e>(
        &self,
        scan: &PreimageScan,
        solver: &Solver,
        next: usize,
        env: &mut Env<'e>,
        k: &mut dyn FnMut(&mut Env<'e>) -> R<bool>,
    ) -> R<bool> {
        self.enum_set(&scan.set, env, &mut |v, env| {
            env.frame[scan.slot as usize] = v;
            match self.holds(&scan.check, env) {
                Ok(true) => self.run_steps(solver, next, env, k),
                Ok(false) => Ok(true),
                Err(e) if e.outside_domain => Ok(true),
                Err(e) => Err(e),
            }
        })
    }
}
