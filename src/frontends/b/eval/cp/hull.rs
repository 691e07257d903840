//! Bounds from disjunctions: an integer that no conjunct bounds alone may
//! be bounded by every branch of a disjunction (`(y : x..x+2 or y : 1..2)`
//! with `x : 0..1000` puts `y` in `0..1002`). Propagation over the
//! reified branches cannot see that until a branch is decided; the hull
//! of the bounds each branch implies over the current domains can
//! (constructive disjunction), and it is sound: some branch holds.

use pumpkin_core::variables::DomainId;

use super::super::ir::{CPred, Cmp, EK, PK};
use super::model::{Lin, Model, NARROWED, T, Term};
use crate::frontends::b::ast::BinaryOp;

/// Bounds on one variable, `None` on a side left open.
type Bounds = (Option<i64>, Option<i64>);

impl Model<'_> {
    /// Tightens each of `vars` to the hull of the bounds every branch of
    /// one of `disjunctions` implies on it, over the current domains;
    /// whether any domain changed.
    pub(super) fn narrow_by_disjunctions(
        &mut self,
        disjunctions: &[CPred],
        vars: &[DomainId],
    ) -> T<bool> {
        let mut changed = false;
        for p in disjunctions {
            for &y in vars {
                let Some((lo, hi)) = self.implied_bounds(p, y) else {
                    continue;
                };
                let var = || Term::Lin(Lin::var(y));
                if let Some(lo) = lo.filter(|&lo| lo > self.lb(y)) {
                    self.post_cmp(Cmp::Ge, var(), Term::Lin(Lin::constant(lo)), p.span)?;
                    changed = true;
                }
                if let Some(hi) = hi.filter(|&hi| hi < self.ub(y)) {
                    self.post_cmp(Cmp::Le, var(), Term::Lin(Lin::constant(hi)), p.span)?;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// The bounds `p` implies on `y` over the current domains, where it
    /// implies one at least on one side.
    fn implied_bounds(&mut self, p: &CPred, y: DomainId) -> Option<Bounds> {
        match &p.kind {
            PK::And(ps) => {
                let mut out: Option<Bounds> = None;
                for q in ps {
                    if let Some((lo, hi)) = self.implied_bounds(q, y) {
                        let (a, b) = out.unwrap_or((None, None));
                        out = Some((a.max(lo), min_open(b, hi)));
                    }
                }
                out
            }
            PK::Or(a, b) => {
                let (a_lo, a_hi) = self.implied_bounds(a, y)?;
                let (b_lo, b_hi) = self.implied_bounds(b, y)?;
                let lo = a_lo.zip(b_lo).map(|(a, b)| a.min(b));
                let hi = a_hi.zip(b_hi).map(|(a, b)| a.max(b));
                (lo.is_some() || hi.is_some()).then_some((lo, hi))
            }
            PK::Member(e, s, false) => {
                if !self.is_var(e, y) {
                    return None;
                }
                match &s.kind {
                    EK::Binary(BinaryOp::Interval, lo, hi) => {
                        let lo = self.range_of(lo)?.0;
                        let hi = self.range_of(hi)?.1;
                        Some((open(lo), open(hi)))
                    }
                    EK::SetEnum(items) => {
                        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                        for item in items {
                            let (a, b) = self.range_of(item)?;
                            (lo, hi) = (lo.min(a), hi.max(b));
                        }
                        Some((open(lo), open(hi)))
                    }
                    _ => None,
                }
            }
            PK::Cmp(op, a, b) => {
                let (op, other) = if self.is_var(a, y) {
                    (*op, b)
                } else if self.is_var(b, y) {
                    (op.mirrored(), a)
                } else {
                    return None;
                };
                let (lo, hi) = self.range_of(other)?;
                match op {
                    Cmp::Eq => Some((open(lo), open(hi))),
                    Cmp::Le => Some((None, open(hi))),
                    Cmp::Lt => Some((None, open(hi).map(|h| h - 1))),
                    Cmp::Ge => Some((open(lo), None)),
                    Cmp::Gt => Some((open(lo).map(|l| l + 1), None)),
                    Cmp::Neq => None,
                }
            }
            _ => None,
        }
    }

    /// Whether `e` is the variable `y` itself.
    fn is_var(&mut self, e: &super::super::ir::CExpr, y: DomainId) -> bool {
        matches!(self.term(e), Ok(Term::Lin(l)) if l.k == 0 && l.terms == [(1, y)])
    }

    /// The least and greatest values of the integer `e` over the current
    /// domains.
    fn range_of(&mut self, e: &super::super::ir::CExpr) -> Option<(i64, i64)> {
        let l = match self.term(e) {
            Ok(Term::Lin(l)) => l,
            Ok(Term::Known(crate::frontends::b::value::Value::Int(n))) => Lin::constant(n),
            _ => return None,
        };
        let (mut lo, mut hi) = (l.k, l.k);
        for &(c, x) in &l.terms {
            let (a, b) = (c.saturating_mul(self.lb(x)), c.saturating_mul(self.ub(x)));
            lo = lo.saturating_add(a.min(b));
            hi = hi.saturating_add(a.max(b));
        }
        Some((lo, hi))
    }
}

/// `v` as a bound, or open where it is as wide as an unbounded domain.
fn open(v: i64) -> Option<i64> {
    (v.abs() < NARROWED).then_some(v)
}

/// The lesser of two upper bounds, either open.
fn min_open(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
