//! Candidate domains read off typing conjuncts of the invariant.
//!
//! [`crate::frontends::b::por::states`] enumerates a variable over its whole type, with
//! integers from `MININT` to `MAXINT`. A typing conjunct that the candidate
//! states assume often says much more: `p : 0..20` (beyond the default
//! `MAXINT` of 3, so the type alone would refuse the variable),
//! `nums <: 2..9`, `owner : PROC --> RES` (a total function: `|RES|^|PROC|`
//! values instead of the `2^(|PROC|·|RES|)` relations of its type). Every
//! state satisfying an assumed conjunct `x : S` has `x ∈ S`, so enumerating
//! `S` instead of the type covers the same candidate states (ProB's
//! `test_path` also starts from states satisfying the invariant) and keeps
//! the refined tests exact.
//!
//! Recognised conjuncts, for a variable `x` and *literal* sets `S`, `T`
//! (`a..b` with constant integer bounds, `{1, 2}`, `BOOL`, a given set):
//! `x : S`, `x <: S`, `x : POW(S)`, and `x : S --> T` (total functions).
//! For the other function arrows, and where `S` or `T` is not literal
//! (`pst : proc --> STATE` with a variable `proc`), `x` ranges over the
//! partial functions between the literal sets or, failing those, the whole
//! component types (when they hold no integers): a superset of the
//! conjunct's values, which the candidate states then check.
//! Anything else yields no domain (the type is enumerated as before).

use crate::frontends::b::ast::{BinaryOp, BuiltinConstant, Expr, ExprKind, UnaryOp};
use crate::frontends::b::por::bounds::{has_int, int_value};
use crate::frontends::b::por::states::domain;
use crate::frontends::b::types::{MachineTypes, Type};
use crate::frontends::b::value::{Elem, Value};

/// The variable (index into `names`) that conjunct `c` confines to a
/// finite literal set, and that set's values, if it has at most `limit`.
pub fn typed_domain(
    c: &Expr,
    names: &[String],
    types: &MachineTypes,
    limit: usize,
) -> Option<(usize, Vec<Value>)> {
    let ExprKind::Binary(op, x, s) = &c.kind else {
        return None;
    };
    let ExprKind::Ident(name) = &x.kind else {
        return None;
    };
    let slot = names.iter().position(|n| n == name)?;
    let values = match (op, &s.kind) {
        (BinaryOp::Member, ExprKind::Unary(UnaryOp::Pow, t)) => {
            subsets(&elements(t, types, limit)?, limit)?
        }
        (BinaryOp::Subset, _) => subsets(&elements(s, types, limit)?, limit)?,
        (BinaryOp::Member, ExprKind::Binary(arrow, d, r)) if arrow.is_function_arrow() => {
            // Literal sets where given, else every value of the pair's
            // component type (a superset: the conjunct itself is checked on
            // the candidates); the exact total functions only for `-->`
            // between literal sets.
            let Type::Set(pair) = &types.variables[slot] else {
                return None;
            };
            let Type::Pair(a, b) = &**pair else {
                return None;
            };
            let (ld, lr) = (elements(d, types, limit), elements(r, types, limit));
            let exact = *arrow == BinaryOp::TotalFunction && ld.is_some() && lr.is_some();
            let dom = ld.or_else(|| whole_type(a, types, limit))?;
            let ran = lr.or_else(|| whole_type(b, types, limit))?;
            functions(&dom, &ran, !exact, limit)?
        }
        (BinaryOp::Member, _) => elements(s, types, limit)?,
        _ => return None,
    };
    Some((slot, values))
}

/// Every value of a type without integers (integers need a bound, see
/// [`crate::frontends::b::por::bounds`]), if there are at most `limit`.
fn whole_type(ty: &Type, types: &MachineTypes, limit: usize) -> Option<Vec<Value>> {
    if has_int(ty) {
        return None;
    }
    domain(ty, types, limit)
}

/// The elements of a literal set, sorted, if there are at most `limit`.
fn elements(s: &Expr, types: &MachineTypes, limit: usize) -> Option<Vec<Value>> {
    let range = (types.minint, types.maxint);
    let out = match &s.kind {
        ExprKind::Binary(BinaryOp::Interval, lo, hi) => {
            let (lo, hi) = (int_value(lo, range)?, int_value(hi, range)?);
            if hi >= lo && (hi - lo) as u64 >= limit as u64 {
                return None;
            }
            (lo..=hi).map(Value::Int).collect()
        }
        ExprKind::SetEnum(items) => {
            let mut v: Vec<Value> = items
                .iter()
                .map(|e| int_value(e, range).map(Value::Int))
                .collect::<Option<_>>()?;
            v.sort();
            v.dedup();
            v
        }
        ExprKind::Constant(BuiltinConstant::Bool) => vec![Value::Bool(false), Value::Bool(true)],
        ExprKind::Ident(name) => {
            let set = types.given_sets.iter().position(|g| &g.name == name)?;
            let n = types.given_sets[set].elements.len();
            (0..n as u32)
                .map(|index| {
                    Value::Elem(Elem {
                        set: set as u32,
                        index,
                    })
                })
                .collect()
        }
        _ => return None,
    };
    (out.len() <= limit).then_some(out)
}

/// Every subset of `elems`, if there are at most `limit`.
fn subsets(elems: &[Value], limit: usize) -> Option<Vec<Value>> {
    if elems.len() >= 32 || (1usize << elems.len()) > limit {
        return None;
    }
    let all = (0..1u64 << elems.len())
        .map(|mask| {
            Value::set_from_vec(
                (0..elems.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| elems[i].clone())
                    .collect(),
            )
        })
        .collect();
    Some(all)
}

/// Every total (or, with `partial`, partial) function from `dom` to `ran`
/// as a set of pairs, if there are at most `limit`.
fn functions(dom: &[Value], ran: &[Value], partial: bool, limit: usize) -> Option<Vec<Value>> {
    // Choice k for a domain element: ran[k], or (partial) undefined at k = |ran|.
    let base = ran.len() + usize::from(partial);
    let mut count: usize = 1;
    for _ in dom {
        count = count.checked_mul(base).filter(|&c| c <= limit)?;
    }
    if base == 0 {
        return Some(if dom.is_empty() {
            vec![Value::set_from_vec(Vec::new())]
        } else {
            Vec::new()
        });
    }
    let mut out = Vec::with_capacity(count);
    let mut digits = vec![0usize; dom.len()];
    loop {
        let pairs = dom
            .iter()
            .zip(&digits)
            .filter(|(_, k)| **k < ran.len())
            .map(|(d, k)| Value::pair(d.clone(), ran[*k].clone()))
            .collect();
        out.push(Value::set_from_vec(pairs));
        let mut i = 0;
        while i < digits.len() {
            digits[i] += 1;
            if digits[i] < base {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
        if i == digits.len() {
            return Some(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::parse_expression;

    fn types() -> MachineTypes {
        MachineTypes::for_test(
            Some(("P", 3)),
            Vec::new(),
            vec![Type::Set(Box::new(Type::Pair(
                Box::new(Type::Given(0)),
                Box::new(Type::Bool),
            )))],
        )
    }

    fn size(pred: &str) -> Option<usize> {
        let file = SourceFile::new("t", pred);
        let e = parse_expression(&file).expect("parses");
        typed_domain(&e, &["x".to_string()], &types(), 1000).map(|(_, d)| d.len())
    }

    #[test]
    fn literal_sets_give_their_elements_beyond_maxint() {
        assert_eq!(size("x : 0..20"), Some(21));
        assert_eq!(size("x : 0..2*10"), Some(21));
        assert_eq!(size("x : {1, 5, 5}"), Some(2));
        assert_eq!(size("x : BOOL"), Some(2));
        assert_eq!(size("x : P"), Some(3));
        assert_eq!(size("x <: 2..5"), Some(16));
        assert_eq!(size("x : POW(P)"), Some(8));
    }

    #[test]
    fn functions_are_enumerated_directly() {
        assert_eq!(size("x : P --> BOOL"), Some(8));
        assert_eq!(size("x : P +-> BOOL"), Some(27));
        // `{}` is not a literal set here: the partial functions over the types.
        assert_eq!(size("x : P --> {}"), Some(27));
        // A non-literal domain: the partial functions over the types.
        assert_eq!(size("x : y --> BOOL"), Some(27));
        assert_eq!(size("x : P >-> BOOL"), Some(27));
    }

    #[test]
    fn other_forms_and_large_sets_give_no_domain() {
        assert_eq!(size("x : NAT"), None);
        assert_eq!(size("x /: 0..3"), None);
        assert_eq!(size("x : 0..5000"), None);
        assert_eq!(size("x <: 0..20"), None);
        assert_eq!(size("y : 0..3"), None);
    }
}
