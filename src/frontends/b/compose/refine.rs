//! What a refinement keeps of its abstraction: the invariant conjuncts on
//! variables that remain, and the abstract preconditions of the operations
//! it refines.

use super::rename::{self, Replacements, renaming};
use super::syntax::{binary, conjunction};
use crate::frontends::b::ast::{BinaryOp, Expr, Operation, Subst, SubstKind};
use crate::frontends::b::eval::conjuncts;
use crate::frontends::b::visit::mentions_any;

/// Conjoins to `op`'s precondition the conjuncts of `abs`'s (with its
/// parameters renamed to `op`'s) that mention none of `dropped`.
pub(super) fn add_abstract_precondition(op: &mut Operation, abs: &Operation, dropped: &[String]) {
    let mut body = &abs.body;
    while let SubstKind::Block(inner) = &body.kind {
        body = inner;
    }
    let SubstKind::Precondition(pre, _) = &body.kind else {
        return;
    };
    let mut map = Replacements::new();
    for (a, c) in abs.params.iter().zip(&op.params) {
        if a.name != c.name {
            map.insert(a.name.clone(), renaming(&c.name, c));
        }
    }
    let mut pre = pre.clone();
    rename::replace_in_expr(&mut pre, &map);
    let kept = conjuncts(&pre)
        .into_iter()
        .filter(|c| !mentions_any(c, dropped))
        .cloned();
    let Some(kept) = conjunction(kept) else {
        return;
    };
    let span = op.body.span;
    let mut own = std::mem::replace(
        &mut op.body,
        Subst {
            kind: SubstKind::Skip,
            span,
        },
    );
    while let SubstKind::Block(inner) = own.kind {
        own = *inner;
    }
    op.body = match own.kind {
        SubstKind::Precondition(p, inner) => Subst {
            kind: SubstKind::Precondition(binary(BinaryOp::And, kept, p), inner),
            span,
        },
        kind => Subst {
            kind: SubstKind::Precondition(
                kept,
                Box::new(Subst {
                    kind,
                    span: own.span,
                }),
            ),
            span,
        },
    };
}

/// The conjuncts of `inv` that mention none of `dropped`; the others are
/// reported in the warnings, if given, as the component's gluing invariant.
pub(super) fn keep_conjuncts(
    inv: Expr,
    dropped: &[String],
    warn: Option<(&str, &mut Vec<String>)>,
) -> Option<Expr> {
    if dropped.is_empty() {
        return Some(inv);
    }
    let (kept, gone): (Vec<&Expr>, Vec<&Expr>) = conjuncts(&inv)
        .into_iter()
        .partition(|c| !mentions_any(c, dropped));
    if let Some((component, warnings)) = warn
        && !gone.is_empty()
    {
        warnings.push(format!(
            "{} invariant conjunct(s) of `{component}` mention the abstraction's variables ({}), \
             which the refinement replaces: orbit checks the refinement's own states, so this \
             gluing invariant is not checked",
            gone.len(),
            dropped.join(", "),
        ));
    }
    conjunction(kept.into_iter().cloned())
}
