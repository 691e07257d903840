//! Which variables an invariant conjunct keeps inside the candidate
//! domains of [`crate::frontends::b::por::states`].
//!
//! The refined tests enumerate integers from `MININT` to `MAXINT` only.
//! Their verdicts therefore cover the states of the search only for
//! variables whose integers stay in that range, which orbit checks
//! syntactically: a variable is *bounded* by an assumed conjunct of the
//! form `x : S`, `x <: S` or `x <<: S` where every integer `S` allows is
//! within `MININT..MAXINT` (`NAT`, `NAT1`, `INT`, `a..b` with literal bounds
//! or `MAXINT`/`MININT`, `{1, 2}`, `POW(..)`, `A --> B`, `A * B`, ...).
//! A variable whose type holds no integer needs no bound: its type is
//! enumerated completely. Candidate states involving an unbounded integer
//! variable are refused (the test falls back to the conservative answer).

use std::collections::BTreeSet;

use crate::frontends::b::ast::{BinaryOp, BuiltinConstant, Expr, ExprKind, UnaryOp};
use crate::frontends::b::types::Type;

/// Whether `ty` contains integers anywhere.
pub fn has_int(ty: &Type) -> bool {
    match ty {
        // A free type's values may hold integers.
        Type::Int | Type::Free(_) => true,
        Type::Bool | Type::String | Type::Given(_) => false,
        Type::Pair(a, b) => has_int(a) || has_int(b),
        Type::Set(t) => has_int(t),
    }
}

/// The variables (of `types`, by name) bounded by the conjunct `c`.
pub fn bounded_by(
    c: &Expr,
    names: &[String],
    types: &[Type],
    range: (i64, i64),
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ExprKind::Binary(op, x, s) = &c.kind else {
        return out;
    };
    let ExprKind::Ident(name) = &x.kind else {
        return out;
    };
    let Some(i) = names.iter().position(|n| n == name) else {
        return out;
    };
    let ty = &types[i];
    let ok = match op {
        BinaryOp::Member => set_within(s, ty, range),
        BinaryOp::Subset | BinaryOp::StrictSubset => match ty {
            Type::Set(t) => set_within(s, t, range),
            _ => false,
        },
        _ => false,
    };
    if ok {
        out.insert(name.clone());
    }
    out
}

/// Whether every integer inside every element of the set `s` (elements of
/// type `elem`) is within `range`. Conservative: `false` when unsure.
fn set_within(s: &Expr, elem: &Type, range: (i64, i64)) -> bool {
    if !has_int(elem) {
        return true;
    }
    match (&s.kind, elem) {
        (ExprKind::Binary(BinaryOp::Inter, a, b), _) => {
            set_within(a, elem, range) || set_within(b, elem, range)
        }
        (ExprKind::Binary(BinaryOp::Union, a, b), _) => {
            set_within(a, elem, range) && set_within(b, elem, range)
        }
        (ExprKind::Binary(BinaryOp::Minus, a, _), Type::Set(_) | Type::Pair(..) | Type::Int) => {
            // Set difference (an integer `-` is not a set of integers).
            set_within(a, elem, range)
        }
        (ExprKind::Constant(c), Type::Int) => match c {
            BuiltinConstant::Nat | BuiltinConstant::Nat1 => range.0 <= 0,
            BuiltinConstant::Int => true,
            _ => false,
        },
        (ExprKind::Binary(BinaryOp::Interval, lo, hi), Type::Int) => {
            match (int_value(lo, range), int_value(hi, range)) {
                (Some(l), Some(h)) => l > h || (l >= range.0 && h <= range.1),
                _ => false,
            }
        }
        (ExprKind::SetEnum(items), Type::Int) => items
            .iter()
            .all(|e| int_value(e, range).is_some_and(|v| v >= range.0 && v <= range.1)),
        (ExprKind::Binary(BinaryOp::Mul, d, r), Type::Pair(a, b)) => {
            set_within(d, a, range) && set_within(r, b, range)
        }
        (ExprKind::Binary(op, d, r), Type::Set(p)) if op.is_relation_set() => match &**p {
            Type::Pair(a, b) => set_within(d, a, range) && set_within(r, b, range),
            _ => false,
        },
        (ExprKind::Unary(op, t), Type::Set(e)) if powerset_like(*op) => set_within(t, e, range),
        _ => false,
    }
}

fn powerset_like(op: UnaryOp) -> bool {
    matches!(
        op,
        UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1
    )
}

/// The value of a constant integer expression (literals, `MAXINT`,
/// `MININT`, `-`, `+`, `*`).
pub fn int_value(e: &Expr, range: (i64, i64)) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(n) => Some(*n),
        ExprKind::Constant(BuiltinConstant::MaxInt) => Some(range.1),
        ExprKind::Constant(BuiltinConstant::MinInt) => Some(range.0),
        ExprKind::Unary(UnaryOp::Minus, a) => int_value(a, range)?.checked_neg(),
        ExprKind::Binary(BinaryOp::Add, a, b) => {
            int_value(a, range)?.checked_add(int_value(b, range)?)
        }
        ExprKind::Binary(BinaryOp::Minus, a, b) => {
            int_value(a, range)?.checked_sub(int_value(b, range)?)
        }
        ExprKind::Binary(BinaryOp::Mul, a, b) => {
            int_value(a, range)?.checked_mul(int_value(b, range)?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::parse_expression;

    fn bounded(pred: &str, ty: Type) -> bool {
        let file = SourceFile::new("t", pred);
        let e = parse_expression(&file).expect("parses");
        !bounded_by(&e, &["x".to_string()], &[ty], (-1, 3)).is_empty()
    }

    fn set(t: Type) -> Type {
        Type::Set(Box::new(t))
    }

    fn pair(a: Type, b: Type) -> Type {
        Type::Pair(Box::new(a), Box::new(b))
    }

    #[test]
    fn integer_ranges_inside_minint_maxint_bound() {
        for p in [
            "x : NAT",
            "x : NAT1",
            "x : INT",
            "x : 0..3",
            "x : 0..MAXINT",
            "x : MININT..MAXINT - 1",
            "x : {1, 2, -1}",
            "x : 0..5 /\\ NAT",
        ] {
            assert!(bounded(p, Type::Int), "{p}");
        }
        for p in [
            "x : INTEGER",
            "x : NATURAL",
            "x : 0..4",
            "x : -2..0",
            "x > 0",
            "x = 1",
            "x : {1, 7}",
        ] {
            assert!(!bounded(p, Type::Int), "{p}");
        }
    }

    #[test]
    fn sets_and_functions_of_integers() {
        assert!(bounded("x <: 0..3", set(Type::Int)));
        assert!(bounded("x : POW(NAT)", set(Type::Int)));
        assert!(!bounded("x <: NATURAL", set(Type::Int)));
        let f = set(pair(Type::Given(0), Type::Int));
        assert!(bounded("x : S --> 0..MAXINT", f.clone()));
        assert!(!bounded("x : S --> NATURAL", f.clone()));
        assert!(bounded("x <: S * NAT", f.clone()));
        assert!(!bounded("x <: S * NATURAL", f));
        // No integer inside: nothing to bound, any conjunct will do.
        assert!(bounded("x : S", Type::Given(0)));
    }
}
