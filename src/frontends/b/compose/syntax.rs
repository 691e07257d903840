//! Building and taking apart predicates and substitutions of the merged
//! machine.

use crate::diag::Span;
use crate::frontends::b::ast::{BinaryOp, Expr, ExprKind, Subst, SubstKind};

pub(super) fn ident_expr(name: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Ident(name.to_string()),
        span,
    }
}

pub(super) fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    let span = a.span.to(b.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
    }
}

/// `a & b & ...`, or nothing for no conjunct.
pub(super) fn conjunction(parts: impl IntoIterator<Item = Expr>) -> Option<Expr> {
    parts.into_iter().reduce(|a, b| binary(BinaryOp::And, a, b))
}

/// `S1 ; S2 ; ...`, or nothing.
pub(super) fn sequence(mut parts: Vec<Subst>) -> Option<Subst> {
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => {
            let span = parts[0].span.to(parts[parts.len() - 1].span);
            Some(Subst {
                kind: SubstKind::Sequence(parts),
                span,
            })
        }
    }
}
