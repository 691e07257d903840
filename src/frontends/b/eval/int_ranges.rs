//! Sets of integers as unions of ranges, for comparing set expressions
//! that cannot be built.
//!
//! `(NATURAL - (0..3)) /\ (-1000..100000) = 4..100000` and `(9..9999999) -
//! {9} = 10..9999999` compare sets that are infinite or too large to list.
//! Every expression of the integer set algebra (`NATURAL`, `INTEGER`, …,
//! intervals, finite sets of integers, and `\/`, `/\`, `-` of these) is a
//! finite union of ranges, some unbounded: its normal form, sorted,
//! disjoint and not adjacent, is equal for equal sets. Equality and
//! inclusion of such expressions compare their normal forms, so
//! `--bound-integers` never cuts `NATURAL` at MAXINT to compare it.

use super::ir::{CExpr, CPred, Cmp, EK, IntSet, PK, Slot};
use super::plan::FrameReads;
use super::walk::Visitor;
use super::{Env, Interpreter, R};
use crate::frontends::b::ast::BinaryOp;
use crate::frontends::b::value::Value;

/// Below every integer (an unbounded lower end).
const NEG_INF: i128 = i128::MIN / 4;
/// Above every integer (an unbounded upper end).
const POS_INF: i128 = i128::MAX / 4;

/// A set of integers: ranges `lo..hi` (inclusive; [`NEG_INF`] and
/// [`POS_INF`] for unbounded ends), sorted, disjoint and not adjacent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IntRanges(Vec<(i128, i128)>);

impl IntRanges {
    /// `lo..hi`, unbounded on a side that is `None`.
    pub(crate) fn range(lo: Option<i64>, hi: Option<i64>) -> Self {
        let lo = lo.map_or(NEG_INF, i128::from);
        let hi = hi.map_or(POS_INF, i128::from);
        Self(if lo <= hi { vec![(lo, hi)] } else { Vec::new() })
    }

    /// The set of the integers `xs`, sorted ascending.
    fn from_sorted(xs: impl IntoIterator<Item = i64>) -> Self {
        Self::normal(
            xs.into_iter()
                .map(|x| (i128::from(x), i128::from(x)))
                .collect(),
        )
    }

    /// The normal form of a union of ranges in any order.
    fn normal(mut ranges: Vec<(i128, i128)>) -> Self {
        ranges.retain(|(lo, hi)| lo <= hi);
        ranges.sort_unstable();
        let mut out: Vec<(i128, i128)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match out.last_mut() {
                Some(last) if lo <= last.1 + 1 => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Self(out)
    }

    /// Every integer not in `self`.
    fn complement(&self) -> Self {
        let mut out = Vec::with_capacity(self.0.len() + 1);
        let mut next = NEG_INF;
        for &(lo, hi) in &self.0 {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi + 1;
        }
        if next <= POS_INF {
            out.push((next, POS_INF));
        }
        Self(out)
    }

    /// `self \/ other`.
    pub(crate) fn union(&self, other: &Self) -> Self {
        Self::normal(self.0.iter().chain(&other.0).copied().collect())
    }

    /// `self /\ other`.
    pub(crate) fn inter(&self, other: &Self) -> Self {
        self.complement().union(&other.complement()).complement()
    }

    /// `self - other`.
    pub(crate) fn minus(&self, other: &Self) -> Self {
        self.inter(&other.complement())
    }

    /// `self <: other`.
    pub(crate) fn subset(&self, other: &Self) -> bool {
        self.minus(other).0.is_empty()
    }
}

/// Whether `e` is a union, intersection or difference with an integer set
/// or interval among its parts, or an unbounded integer set: an
/// expression [`Interpreter::int_ranges`] compares without building it.
pub(crate) fn is_int_algebra(e: &CExpr) -> bool {
    fn has_int_leaf(e: &CExpr) -> bool {
        match &e.kind {
            EK::Ints(_) | EK::Binary(BinaryOp::Interval, ..) => true,
            EK::Comprehension(solver) => solver.vars.len() == 1,
            EK::Binary(BinaryOp::Union | BinaryOp::Inter | BinaryOp::Minus, a, b) => {
                has_int_leaf(a) || has_int_leaf(b)
            }
            _ => false,
        }
    }
    match &e.kind {
        EK::Ints(kind) => matches!(kind, IntSet::Natural | IntSet::Natural1 | IntSet::Integer),
        EK::Binary(BinaryOp::Union | BinaryOp::Inter | BinaryOp::Minus, a, b) => {
            has_int_leaf(a) || has_int_leaf(b)
        }
        _ => false,
    }
}

impl Interpreter {
    /// The normal form of the set of integers `e` denotes, where `e` is an
    /// expression of the integer set algebra whose other parts are finite
    /// sets of integers; `None` otherwise (a set of other values, or a
    /// part that may be infinite).
    pub(crate) fn int_ranges(&self, e: &CExpr, env: &mut Env<'_>) -> R<Option<IntRanges>> {
        Ok(match &e.kind {
            EK::Ints(kind) => {
                let (lo, hi) = self.int_bounds(*kind);
                Some(IntRanges::range(lo, hi))
            }
            EK::Binary(BinaryOp::Interval, a, b) => {
                match (self.eval(a, env)?, self.eval(b, env)?) {
                    (Value::Int(lo), Value::Int(hi)) => Some(IntRanges::range(Some(lo), Some(hi))),
                    _ => None,
                }
            }
            EK::Binary(op @ (BinaryOp::Union | BinaryOp::Inter | BinaryOp::Minus), a, b) => {
                let Some(ra) = self.int_ranges(a, env)? else {
                    return Ok(None);
                };
                let Some(rb) = self.int_ranges(b, env)? else {
                    return Ok(None);
                };
                Some(match op {
                    BinaryOp::Union => ra.union(&rb),
                    BinaryOp::Inter => ra.inter(&rb),
                    _ => ra.minus(&rb),
                })
            }
            // `{x | x >= 10 & x : INTEGER}`: bounds and memberships of
            // its one variable, each over values without it.
            EK::Comprehension(solver) if solver.vars.len() == 1 => {
                let Some(condition) = &solver.condition else {
                    return Ok(None);
                };
                self.comprehension_ranges(solver.vars[0], condition, env)?
            }
            // A part that lists its elements (a literal, an extension, a
            // variable): finite by construction.
            EK::Lit(_) | EK::SetEnum(_) | EK::Read(_) => {
                let v = self.eval(e, env)?;
                let Value::Set(items) = &v else {
                    return Ok(None);
                };
                let mut ints = Vec::with_capacity(items.len());
                for x in items.iter() {
                    match x {
                        Value::Int(i) => ints.push(*i),
                        _ => return Ok(None),
                    }
                }
                Some(IntRanges::from_sorted(ints))
            }
            _ => None,
        })
    }

    /// The integers `x` (frame slot `slot`) for which `condition` holds,
    /// where it is a conjunction of comparisons of `x` with values that do
    /// not read it and memberships of `x` in the integer set algebra;
    /// `None` for any other condition.
    fn comprehension_ranges(
        &self,
        slot: u32,
        condition: &CPred,
        env: &mut Env<'_>,
    ) -> R<Option<IntRanges>> {
        let mut conjuncts = vec![condition];
        let mut acc = IntRanges::range(None, None);
        let mut typed = false;
        while let Some(c) = conjuncts.pop() {
            let is_x = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == slot);
            let reads_x = |e: &CExpr| {
                let mut v = FrameReads::new(|s| s == slot);
                v.expr(e);
                v.stopped
            };
            let part = match &c.kind {
                PK::And(ps) => {
                    conjuncts.extend(ps);
                    continue;
                }
                PK::Member(x, set, false) if is_x(x) && !reads_x(set) => {
                    match self.int_ranges(set, env)? {
                        Some(r) => r,
                        None => return Ok(None),
                    }
                }
                PK::Cmp(op, a, b) if is_x(a) && !reads_x(b) => match self.eval(b, env)? {
                    Value::Int(v) => cmp_range(*op, v),
                    _ => return Ok(None),
                },
                PK::Cmp(op, a, b) if is_x(b) && !reads_x(a) => match self.eval(a, env)? {
                    Value::Int(v) => cmp_range(op.mirrored(), v),
                    _ => return Ok(None),
                },
                _ => return Ok(None),
            };
            typed = true;
            acc = acc.inter(&part);
        }
        Ok(typed.then_some(acc))
    }
}

/// The integers `x` with `x op v`.
fn cmp_range(op: Cmp, v: i64) -> IntRanges {
    let v = i128::from(v);
    let ranges = match op {
        Cmp::Eq => vec![(v, v)],
        Cmp::Neq => vec![(NEG_INF, v - 1), (v + 1, POS_INF)],
        Cmp::Lt => vec![(NEG_INF, v - 1)],
        Cmp::Le => vec![(NEG_INF, v)],
        Cmp::Gt => vec![(v + 1, POS_INF)],
        Cmp::Ge => vec![(v, POS_INF)],
    };
    IntRanges::normal(ranges)
}

#[cfg(test)]
mod tests {
    use super::IntRanges;

    fn r(lo: Option<i64>, hi: Option<i64>) -> IntRanges {
        IntRanges::range(lo, hi)
    }

    #[test]
    fn the_algebra_of_ranges_matches_sets() {
        let natural = r(Some(0), None);
        let low = r(Some(0), Some(3));
        // NATURAL - (0..3) /\ -1000..100000 = 4..100000
        let cut = natural.minus(&low).inter(&r(Some(-1000), Some(100000)));
        assert_eq!(cut, r(Some(4), Some(100000)));
        // (NATURAL - (0..3)) - (4..100000) = NATURAL - (0..100000)
        let lhs = natural.minus(&low).minus(&r(Some(4), Some(100000)));
        assert_eq!(lhs, natural.minus(&r(Some(0), Some(100000))));
        // (9..9999999) - {9} = 10..9999999; 1..500 \/ {501} \/ 503..1000.
        let single = IntRanges::from_sorted([9]);
        assert_eq!(
            r(Some(9), Some(9999999)).minus(&single),
            r(Some(10), Some(9999999))
        );
        let gap = r(Some(1), Some(500))
            .union(&IntRanges::from_sorted([501]))
            .union(&r(Some(503), Some(1000)));
        assert_eq!(
            gap,
            r(Some(1), Some(1000)).minus(&IntRanges::from_sorted([502]))
        );
        // INTEGER is no subset of NATURAL; NATURAL1 <: NATURAL.
        assert!(!r(None, None).subset(&natural));
        assert!(r(Some(1), None).subset(&natural));
        assert_eq!(r(Some(1), None).minus(&natural), r(Some(1), Some(0)));
        // Against listed sets over a small universe.
        let sets: Vec<Vec<i64>> = vec![vec![], vec![1], vec![0, 1, 2], vec![2, 4, 5], vec![-1, 3]];
        for a in &sets {
            for b in &sets {
                let (ra, rb) = (
                    IntRanges::from_sorted(a.clone()),
                    IntRanges::from_sorted(b.clone()),
                );
                let union: std::collections::BTreeSet<i64> = a.iter().chain(b).copied().collect();
                let inter: Vec<i64> = a.iter().filter(|x| b.contains(x)).copied().collect();
                let minus: Vec<i64> = a.iter().filter(|x| !b.contains(x)).copied().collect();
                assert_eq!(ra.union(&rb), IntRanges::from_sorted(union));
                assert_eq!(ra.inter(&rb), IntRanges::from_sorted(inter));
                assert_eq!(ra.minus(&rb), IntRanges::from_sorted(minus.clone()));
                assert_eq!(ra.subset(&rb), minus.is_empty());
            }
        }
    }
}
