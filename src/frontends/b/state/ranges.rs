//! Integer variables packed to the bits of their INVARIANT range.
//!
//! A machine's invariant usually types its integer variables with a range
//! (`pc : 0..4`, `c : NAT` with `MAXINT` 3, `x >= 0 & x <= N`). Every state
//! the search keeps going from satisfies the invariant, so such a variable
//! is packed as its offset in the range ([`range_of_variables`] reads the
//! ranges off the invariant's top-level conjuncts). A successor may still
//! leave the range — it then violates the invariant, and the search reports
//! it with its trace — so the packed code has room for *escapes*, as many
//! as the range has values and at least [`MIN_ESCAPES`] ([`RangedLeaf`]).
//! A quarter of them are the values nearest the range, by value (`hi + 1`,
//! `lo - 1`, `hi + 2`, ...: the ways a counter steps out of its bounds),
//! so that such a state packs to the same words in every run and process;
//! the rest are values farther out, numbered as they are met.
//! Only when the invariant is not checked (`--no-invariant`) are no
//! ranges used, as values outside them are then ordinary.

use super::codec::{Finite, MAX_BITSET_ELEMENTS};
use crate::frontends::b::ast::{BinaryOp, BuiltinConstant, Expr, ExprKind, Machine, UnaryOp};
use crate::frontends::b::eval::conjuncts;
use crate::frontends::b::types::{MachineTypes, Type};
use parking_lot::Mutex;

/// Fewest escape codes of a ranged integer: distinct values outside its
/// range that states may hold before packing fails with a model error (a
/// single operation may step out of a small range in many ways at once).
pub const MIN_ESCAPES: u64 = 256;

/// The range `lo..=hi` of each variable of `machine` (in declaration order)
/// that the top-level conjuncts of its invariant give it: memberships in
/// `a..b`, `NAT`, `NAT1`, `INT`, and comparisons with closed integer
/// expressions, intersected. `None` for a variable that is not an integer
/// or has no finite range.
pub fn range_of_variables(machine: &Machine, types: &MachineTypes) -> Vec<Option<(i64, i64)>> {
    let mut ranges = vec![(i64::MIN, i64::MAX); machine.variables.len()];
    let index = |e: &Expr| match &e.kind {
        ExprKind::Ident(name) => machine.variables.iter().position(|v| v.name == *name),
        _ => None,
    };
    if let Some(invariant) = &machine.invariant {
        for c in conjuncts(invariant) {
            let ExprKind::Binary(op, a, b) = &c.kind else {
                continue;
            };
            // `x op e` or `e op x`, as `x op e`.
            let (k, op, other) = match (index(a), index(b)) {
                (Some(k), _) => (k, *op, &**b),
                (None, Some(k)) => match mirrored(*op) {
                    Some(op) => (k, op, &**a),
                    None => continue,
                },
                _ => continue,
            };
            let (lo, hi) = match op {
                BinaryOp::Member => match set_range(other, types) {
                    Some(r) => r,
                    None => continue,
                },
                BinaryOp::Le | BinaryOp::Lt | BinaryOp::Ge | BinaryOp::Gt | BinaryOp::Eq => {
                    let Some(v) = closed(other, types) else {
                        continue;
                    };
                    match op {
                        BinaryOp::Le => (i64::MIN, v),
                        BinaryOp::Lt => (i64::MIN, v.saturating_sub(1)),
                        BinaryOp::Ge => (v, i64::MAX),
                        BinaryOp::Gt => (v.saturating_add(1), i64::MAX),
                        _ => (v, v),
                    }
                }
                _ => continue,
            };
            let r = &mut ranges[k];
            *r = (r.0.max(lo), r.1.min(hi));
        }
    }
    ranges
        .into_iter()
        .zip(&types.variables)
        .map(|((lo, hi), ty)| {
            let finite = lo > i64::MIN && hi < i64::MAX && lo <= hi;
            // Ranges wider than 2^61 values gain nothing over a whole word.
            (*ty == Type::Int && finite && hi.checked_sub(lo).is_some_and(|d| d < 1 << 61))
                .then_some((lo, hi))
        })
        .collect()
}

/// `e op x` read as `x op' e`.
fn mirrored(op: BinaryOp) -> Option<BinaryOp> {
    Some(match op {
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Ge => BinaryOp::Le,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Eq => BinaryOp::Eq,
        _ => return None,
    })
}

/// The carrier of each set variable of `machine` whose elements involve
/// integers (`lv : PID --> 0..N-1`, `s <: 1..8`, `q : POW(0..3)`) that the
/// top-level conjuncts of its invariant bound to ranges: the elements'
/// type with each integer replaced by its range ([`Finite::Range`]), if
/// the carrier has at most [`MAX_BITSET_ELEMENTS`] elements. `None` for
/// every other variable (sets of given-set elements are bitsets already).
pub fn set_carrier_of_variables(machine: &Machine, types: &MachineTypes) -> Vec<Option<Finite>> {
    let mut carriers: Vec<Option<Finite>> = vec![None; machine.variables.len()];
    let Some(invariant) = &machine.invariant else {
        return carriers;
    };
    for c in conjuncts(invariant) {
        let ExprKind::Binary(op, x, set) = &c.kind else {
            continue;
        };
        let ExprKind::Ident(name) = &x.kind else {
            continue;
        };
        let Some(k) = machine.variables.iter().position(|v| v.name == *name) else {
            continue;
        };
        let Some(Type::Set(element)) = types.variables.get(k) else {
            continue;
        };
        if !mentions_int(element) {
            continue;
        }
        let carrier = match op {
            // `x <: S`: the elements are in S.
            BinaryOp::Subset | BinaryOp::StrictSubset => carrier(set, element, types),
            // `x : S op T` (a relation or function) or `x : POW(S)`.
            BinaryOp::Member => match &set.kind {
                ExprKind::Binary(rel, a, b) if rel.is_relation_set() => match &**element {
                    Type::Pair(ta, tb) => carrier(a, ta, types)
                        .zip(carrier(b, tb, types))
                        .map(|(a, b)| Finite::Pair(Box::new(a), Box::new(b))),
                    _ => None,
                },
                ExprKind::Unary(UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1, s) => {
                    carrier(s, element, types)
                }
                _ => None,
            },
            _ => None,
        };
        // The smallest carrier a conjunct gives (the others hold too).
        if let Some(f) = carrier.filter(|f| f.card() <= MAX_BITSET_ELEMENTS)
            && carriers[k].as_ref().is_none_or(|old| f.card() < old.card())
        {
            carriers[k] = Some(f);
        }
    }
    carriers
}

/// A top-level invariant conjunct `v : A op B` that types a variable
/// whose elements are pairs with a set of relations (`op` is `-->`, `+->`,
/// `<->`, ...): the variable's index, `op`, `A` and `B` and their element
/// types.
struct RelationTyping<'a> {
    variable: usize,
    op: BinaryOp,
    domain: &'a Expr,
    range: &'a Expr,
    domain_type: &'a Type,
    range_type: &'a Type,
}

/// The [`RelationTyping`] conjunct `c` is, if it is one.
fn relation_typing<'a>(
    c: &'a Expr,
    machine: &Machine,
    types: &'a MachineTypes,
) -> Option<RelationTyping<'a>> {
    let ExprKind::Binary(BinaryOp::Member, x, set) = &c.kind else {
        return None;
    };
    let (ExprKind::Ident(name), ExprKind::Binary(op, a, b)) = (&x.kind, &set.kind) else {
        return None;
    };
    let variable = machine.variables.iter().position(|v| v.name == *name)?;
    let Some(Type::Set(element)) = types.variables.get(variable) else {
        return None;
    };
    let Type::Pair(ta, tb) = &**element else {
        return None;
    };
    Some(RelationTyping {
        variable,
        op: *op,
        domain: a,
        range: b,
        domain_type: ta,
        range_type: tb,
    })
}

/// The domain and range carriers of each variable of `machine` that the
/// top-level conjuncts of its invariant type as a function: total from a
/// whole carrier (`pc : PID --> STATE`, `lv : PID --> 0..N-1`, `b : 0..7
/// --> BOOL`, `g : PID * PID --> BOOL`; also `>->`, `-->>`, `>->>`), or
/// partial (`victim : 1..N-1 +-> PID`, also `>+>`, `+->>`, `>+>>`, and a
/// total function from part of a carrier, `f : ACTIVE --> STATE`; the
/// `bool` is true). The domain's carrier is `BOOL`, a given set, an
/// integer range or pairs of them (carriers whose index order is value
/// order); the range's is any finite one, images may be pairs or small
/// sets (`h : PID --> POW(RES)`), and may be a superset of the images (the
/// type's carrier, an integer range). `None` for every other variable.
pub fn function_of_variables(
    machine: &Machine,
    types: &MachineTypes,
) -> Vec<Option<(Finite, Finite, bool)>> {
    let mut functions: Vec<Option<(Finite, Finite, bool)>> = vec![None; machine.variables.len()];
    let Some(invariant) = &machine.invariant else {
        return functions;
    };
    for c in conjuncts(invariant) {
        let Some(RelationTyping {
            variable: k,
            op,
            domain: a,
            range: b,
            domain_type: ta,
            range_type: tb,
        }) = relation_typing(c, machine, types)
        else {
            continue;
        };
        let total = matches!(
            op,
            BinaryOp::TotalFunction
                | BinaryOp::TotalInjection
                | BinaryOp::TotalSurjection
                | BinaryOp::TotalBijection
        );
        let partial = matches!(
            op,
            BinaryOp::PartialFunction
                | BinaryOp::PartialInjection
                | BinaryOp::PartialSurjection
                | BinaryOp::PartialBijection
        );
        if !total && !partial {
            continue;
        }
        let (Some(domain), Some(range)) = (carrier(a, ta, types), carrier(b, tb, types)) else {
            continue;
        };
        // A total function from part of the carrier is a partial one from
        // all of it.
        let partial = partial || !is_whole_carrier(a, ta, types);
        if domain.index_order_is_value_order()
            && domain.card() <= MAX_BITSET_ELEMENTS
            && range.card() < u64::MAX
            && functions[k]
                .as_ref()
                .is_none_or(|(_, _, was_partial)| *was_partial && !partial)
        {
            // A total typing wins over a partial one of the same variable.
            functions[k] = Some((domain, range, partial));
        }
    }
    functions
}

/// The invariant conjuncts that a state's packed form can vouch for: for
/// each top-level conjunct `v : A --> B` or `v : A +-> B` in which `A` and
/// `B` are whole carriers (a given set, `BOOL`, an integer interval, `NAT`,
/// products of those), its span, the variable `v` (by index) and the
/// function codec (domain, range, partial) whose values are exactly
/// those functions. A state whose `v` has that codec and packs without
/// escape satisfies the conjunct, which need not be evaluated there (see
/// [`super::StateLayout::vouched_slot`]).
pub fn function_conjuncts(machine: &Machine, types: &MachineTypes) -> Vec<FunctionConjunct> {
    let Some(invariant) = &machine.invariant else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in conjuncts(invariant) {
        let Some(t) = relation_typing(c, machine, types) else {
            continue;
        };
        let partial = match t.op {
            BinaryOp::TotalFunction => false,
            BinaryOp::PartialFunction => true,
            _ => continue,
        };
        if !is_whole_carrier(t.domain, t.domain_type, types)
            || !is_whole_carrier(t.range, t.range_type, types)
        {
            continue;
        }
        let (Some(domain), Some(range)) = (
            carrier(t.domain, t.domain_type, types),
            carrier(t.range, t.range_type, types),
        ) else {
            continue;
        };
        let variable = t.variable;
        out.push(FunctionConjunct {
            span: c.span,
            variable,
            domain,
            range,
            partial,
        });
    }
    out
}

/// One conjunct of [`function_conjuncts`].
#[derive(Clone, Debug)]
pub struct FunctionConjunct {
    /// The conjunct's span (which identifies it among the invariant's).
    pub span: crate::diag::Span,
    /// The variable it types, by index.
    pub variable: usize,
    /// Carrier of the domain: all of `A`.
    pub domain: Finite,
    /// Carrier of the range: all of `B`.
    pub range: Finite,
    /// `+->` rather than `-->`.
    pub partial: bool,
}

/// Whether the set expression `set` of element type `ty` is all of the
/// carrier [`carrier`] gives it: the name of the given set, `BOOL`, an
/// integer interval (the carrier is its range), or a product of those.
fn is_whole_carrier(set: &Expr, ty: &Type, types: &MachineTypes) -> bool {
    match (ty, &set.kind) {
        (Type::Given(s), ExprKind::Ident(name)) => types
            .given_sets
            .get(*s as usize)
            .is_some_and(|g| g.name == *name),
        (Type::Bool, ExprKind::Constant(BuiltinConstant::Bool)) => true,
        (Type::Int, _) => true,
        (Type::Pair(ta, tb), ExprKind::Binary(BinaryOp::Mul, a, b)) => {
            is_whole_carrier(a, ta, types) && is_whole_carrier(b, tb, types)
        }
        _ => false,
    }
}

/// Whether values of `ty` contain integers.
fn mentions_int(ty: &Type) -> bool {
    match ty {
        // A free type's values may hold integers.
        Type::Int | Type::Free(_) => true,
        Type::Pair(a, b) => mentions_int(a) || mentions_int(b),
        Type::Set(t) => mentions_int(t),
        Type::Bool | Type::String | Type::Given(_) => false,
    }
}

/// The finite carrier of the values of type `ty` that lie in the set
/// expression `set`: an integer range for integers, a product of carriers
/// for a cartesian product, the type's own carrier for other finite types.
fn carrier(set: &Expr, ty: &Type, types: &MachineTypes) -> Option<Finite> {
    match ty {
        Type::Int => {
            let (lo, hi) = set_range(set, types)?;
            let size = u64::try_from(hi.checked_sub(lo)?).ok()?.checked_add(1)?;
            (size <= MAX_BITSET_ELEMENTS).then_some(Finite::Range { lo, size })
        }
        Type::Pair(ta, tb) if mentions_int(ty) => match &set.kind {
            ExprKind::Binary(BinaryOp::Mul, a, b) => Some(Finite::Pair(
                Box::new(carrier(a, ta, types)?),
                Box::new(carrier(b, tb, types)?),
            )),
            _ => None,
        },
        _ => {
            let sizes: Vec<u64> = types
                .given_sets
                .iter()
                .map(|g| g.elements.len() as u64)
                .collect();
            Finite::of(ty, &sizes)
        }
    }
}

/// The integer range a set expression denotes, if it is an interval with
/// closed bounds or one of `NAT`, `NAT1`, `INT`.
fn set_range(e: &Expr, types: &MachineTypes) -> Option<(i64, i64)> {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Interval, a, b) => Some((closed(a, types)?, closed(b, types)?)),
        ExprKind::Constant(BuiltinConstant::Nat) => Some((0, types.maxint)),
        ExprKind::Constant(BuiltinConstant::Nat1) => Some((1, types.maxint)),
        ExprKind::Constant(BuiltinConstant::Int) => Some((types.minint, types.maxint)),
        _ => None,
    }
}

/// The value of a closed integer expression built from literals, `MAXINT`,
/// `MININT`, `card` of a given set, `-`, `+` and `*` (anything else, or an
/// overflow: `None`).
fn closed(e: &Expr, types: &MachineTypes) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(n) => Some(*n),
        ExprKind::Constant(BuiltinConstant::MaxInt) => Some(types.maxint),
        ExprKind::Constant(BuiltinConstant::MinInt) => Some(types.minint),
        ExprKind::Unary(UnaryOp::Minus, a) => closed(a, types)?.checked_neg(),
        // The size of a given set (`card(PID)`, `N == card(PID)`).
        ExprKind::Unary(UnaryOp::Card, a) => match &a.kind {
            ExprKind::Ident(name) => types
                .given_sets
                .iter()
                .find(|g| g.name == *name)
                .and_then(|g| i64::try_from(g.elements.len()).ok()),
            _ => None,
        },
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (closed(a, types)?, closed(b, types)?);
            match op {
                BinaryOp::Add => a.checked_add(b),
                BinaryOp::Minus => a.checked_sub(b),
                BinaryOp::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// One integer word of the unpacked state packed as its offset in
/// `lo..=lo + count - 1`, or as an escape for a value outside.
#[derive(Debug)]
pub(super) struct RangedLeaf {
    /// The unpacked word.
    pub(super) leaf: usize,
    /// The variable's name (for the error when escapes run out).
    pub(super) name: String,
    /// Lowest value of the range.
    pub(super) lo: i64,
    /// Number of values in the range.
    pub(super) count: u64,
    /// Escape codes for the values nearest the range, by value: code
    /// `count + k` is `hi + 1 + k / 2` for even `k`, `lo - 1 - k / 2` for
    /// odd `k`.
    near: u64,
    /// Escape codes for other values (`count + near..count + near + far`).
    far: u64,
    /// The other values met outside the range, code `count + near + i`
    /// for the `i`-th (few: each is an invariant violation). The only part
    /// of a packed state numbered in order of appearance rather than by
    /// value: it exists only in states that violate the invariant, with a
    /// value more than `near / 2` outside the range.
    outside: Mutex<Vec<i64>>,
    /// Whether this is the escape word of a ranged set (for the message).
    set_escape: bool,
}

impl RangedLeaf {
    /// The leaf `leaf` holding variable `name` ranging over `lo..=hi`.
    pub(super) fn new(leaf: usize, name: &str, (lo, hi): (i64, i64)) -> Self {
        let count = (hi - lo) as u64 + 1;
        let escapes = (1u64 << Self::bits_for_count(count)) - count;
        RangedLeaf {
            leaf,
            name: name.to_string(),
            lo,
            count,
            near: escapes / 4,
            far: escapes - escapes / 4,
            outside: Mutex::new(Vec::new()),
            set_escape: false,
        }
    }

    /// The escape word `leaf` of the ranged set variable `name`: 0 while
    /// the set fits its carrier, else an interned id + 1 (each such value
    /// violates the invariant), packed to a small escape code. Ids are
    /// content hashes, with no value near another: every escape is
    /// numbered as met.
    pub(super) fn escape_word(leaf: usize, name: &str) -> Self {
        let word = Self::new(leaf, name, (0, 0));
        RangedLeaf {
            set_escape: true,
            near: 0,
            far: word.near + word.far,
            ..word
        }
    }

    /// Bits of a leaf with `count` values in range: room for as many
    /// escapes as values, and at least [`MIN_ESCAPES`].
    fn bits_for_count(count: u64) -> u32 {
        crate::model::bits_for(count + count.max(MIN_ESCAPES) - 1)
    }

    /// Bits of this leaf in a packed state.
    pub(super) fn bits(&self) -> u32 {
        Self::bits_for_count(self.count)
    }

    /// Highest value of the range.
    fn hi(&self) -> i128 {
        self.lo as i128 + self.count as i128 - 1
    }

    /// The packed code of `value`, or `None` when it is far outside the
    /// range and every escape for such values is taken.
    #[inline]
    pub(super) fn code(&self, value: i64) -> Option<u64> {
        let offset = value.wrapping_sub(self.lo) as u64;
        if offset < self.count {
            return Some(offset);
        }
        self.escape_code(value)
    }

    /// The escape code of `value`, outside the range.
    #[cold]
    fn escape_code(&self, value: i64) -> Option<u64> {
        let v = value as i128;
        // The zigzag index of the value's distance from the range.
        let k = if v > self.hi() {
            2 * (v - self.hi() - 1)
        } else {
            2 * (self.lo as i128 - v - 1) + 1
        };
        if k < self.near as i128 {
            return Some(self.count + k as u64);
        }
        let mut outside = self.outside.lock();
        let i = match outside.iter().position(|&v| v == value) {
            Some(i) => i,
            None if (outside.len() as u64) < self.far => {
                outside.push(value);
                outside.len() - 1
            }
            None => return None,
        };
        Some(self.count + self.near + i as u64)
    }

    /// The value packed as `code`.
    #[inline]
    pub(super) fn value(&self, code: u64) -> i64 {
        if code < self.count {
            return self.lo.wrapping_add(code as i64);
        }
        let k = code - self.count;
        if k < self.near {
            let d = (k / 2 + 1) as i128;
            let v = if k.is_multiple_of(2) {
                self.hi() + d
            } else {
                self.lo as i128 - d
            };
            // A near code is only packed for a value it came from.
            return v as i64;
        }
        // A far code is only ever packed after it was handed out.
        self.outside
            .lock()
            .get((k - self.near) as usize)
            .copied()
            .unwrap_or(self.lo)
    }

    /// Why a value could not be packed (every escape taken).
    pub(super) fn overflow_message(&self) -> String {
        if self.set_escape {
            return format!(
                "variable `{}` took more than {} distinct values outside the carrier its \
                 INVARIANT gives it (each such state violates the invariant)",
                self.name, self.far
            );
        }
        format!(
            "variable `{}` took more than {} distinct values more than {} outside {}..{}, \
             the range its INVARIANT gives it (each such state violates the invariant)",
            self.name,
            self.far,
            self.near / 2,
            self.lo,
            self.hi()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_in_range_pack_as_offsets_and_outside_as_escapes() {
        let r = RangedLeaf::new(0, "x", (-2, 3));
        // 6 values and 256 escapes: 9 bits, 506 escapes.
        assert_eq!(r.bits(), 9);
        assert_eq!(r.code(-2), Some(0));
        assert_eq!(r.code(3), Some(5));
        assert_eq!(r.value(5), 3);
        // Near the range, by value: 4, -3, 5, -4, ...
        assert_eq!(r.code(4), Some(6));
        assert_eq!(r.code(-3), Some(7));
        assert_eq!(r.code(5), Some(8));
        assert_eq!(r.code(-65), Some(6 + 125));
        assert_eq!(r.code(66), Some(6 + 124));
        for code in 0..6 + 126 {
            assert_eq!(r.code(r.value(code)), Some(code), "code {code}");
        }
        // Farther out: the other 380 escapes, in the order values are met.
        assert_eq!(r.code(67), Some(132));
        assert_eq!(r.code(-1000), Some(133));
        assert_eq!(r.code(67), Some(132));
        assert_eq!(r.value(133), -1000);
        assert_eq!(r.code(i64::MIN), Some(134));
        assert_eq!(r.value(134), i64::MIN);
        for v in 10_000..10_377 {
            assert!(r.code(v).is_some());
        }
        assert_eq!(r.code(999_999), None);
        // Near values still pack when the far ones are exhausted.
        assert_eq!(r.code(-4), Some(9));
        let message = r.overflow_message();
        assert!(
            message.contains("380 distinct values more than 63 outside -2..3"),
            "{message}"
        );
        // A large range has as many escapes as values.
        let r = RangedLeaf::new(0, "y", (0, 999));
        assert_eq!(r.bits(), 11);
        assert_eq!(r.code(i64::MAX), Some(1000 + 262));
    }

    /// A value's code does not depend on what was met before it.
    #[test]
    fn near_escapes_are_the_same_in_every_order() {
        let values: Vec<i64> = (-20..0).chain(8..30).collect();
        let forward = RangedLeaf::new(0, "x", (0, 7));
        let backward = RangedLeaf::new(0, "x", (0, 7));
        let codes: Vec<_> = values.iter().map(|&v| forward.code(v)).collect();
        let mut reversed: Vec<_> = values.iter().rev().map(|&v| backward.code(v)).collect();
        reversed.reverse();
        assert_eq!(codes, reversed);
        assert!(codes.iter().all(Option::is_some));
    }
}
