//! Operation calls: `r1, r2 <-- op(a, b)` inside a substitution runs the
//! body of `op` (an operation of an included machine) with its parameters
//! bound to the arguments, then copies its outputs to `r1, r2`. The call is
//! replaced by
//!
//! ```text
//! VAR o1', o2' IN
//!     LET p1', p2' BE p1' = a1 & p2' = a2 IN body' END ;
//!     r1, r2 := o1', o2'
//! END
//! ```
//!
//! where `body'` is the callee's body with its parameters and outputs
//! renamed to fresh names (so arguments mentioning the caller's names
//! cannot be captured). The callee's precondition (`PRE P THEN ...` at the
//! top of its body) stays a guard, as in ProB: the call, and so the calling
//! operation, is not enabled where it fails. With ProB's `TRY_FIND_ABORT`
//! (`--find-abort`) it becomes [`SubstKind::CalledPre`] instead: a caller
//! that breaks it is a model error.

use std::collections::HashMap;

use super::rename::{Replacements, renaming, replace_in_subst};
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{
    AssignTarget, BinaryOp, Expr, ExprKind, Ident, Operation, Subst, SubstKind,
};
use crate::frontends::b::visit::mentions_any;

/// The operations a component may call, by (renamed) name.
pub(super) type Callable = HashMap<String, Operation>;

/// What inlining needs across the model.
#[derive(Debug, Default)]
pub(super) struct CallContext {
    /// Counter for the fresh names of inlined parameters and outputs.
    pub fresh: u32,
    /// Whether a called operation's failing precondition is a model error
    /// (ProB's `TRY_FIND_ABORT`) rather than a guard (ProB's default).
    pub precondition_is_error: bool,
    /// Operation names that two machines included by the component being
    /// composed both define, with where: a call of one is refused.
    pub ambiguous: HashMap<String, String>,
    /// The calls being inlined, innermost last: a callee's own calls are
    /// inlined in turn, and one that calls itself is refused.
    pub active: Vec<String>,
}

/// Replaces every operation call in `s` by the callee's body.
pub(super) fn inline_calls(
    s: &mut Subst,
    callable: &Callable,
    ctx: &mut CallContext,
) -> Result<(), Diagnostic> {
    match &mut s.kind {
        SubstKind::OpCall(outputs, op, args) => {
            if let Some(places) = ctx.ambiguous.get(&op.name) {
                return Err(Diagnostic::error(
                    op.span,
                    format!("cannot call `{}`: two included machines define it", op.name),
                )
                .with_note(format!(
                    "{places}; rename one (include it with a prefix, `INCLUDES p.M`)"
                )));
            }
            let Some(callee) = callable.get(&op.name) else {
                let mut known: Vec<&str> = callable.keys().map(String::as_str).collect();
                known.sort_unstable();
                return Err(
                    Diagnostic::error(op.span, format!("unknown operation `{}`", op.name))
                        .with_note(if known.is_empty() {
                            "no machine is included (INCLUDES, IMPORTS, EXTENDS), so no operation can be called \
                             (`SET_PREF_ALLOW_LOCAL_OPERATION_CALLS == TRUE` in DEFINITIONS lets \
                             a machine call its own)"
                                .to_string()
                        } else {
                            format!("the operations that can be called here are: {}", known.join(", "))
                        }),
                );
            };
            if args.len() != callee.params.len() || outputs.len() != callee.outputs.len() {
                return Err(Diagnostic::error(
                    s.span,
                    format!(
                        "operation `{}` takes {} argument(s) and gives {} output(s); \
                         the call passes {} and receives {}",
                        op.name,
                        callee.params.len(),
                        callee.outputs.len(),
                        args.len(),
                        outputs.len()
                    ),
                ));
            }
            if let Some(first) = ctx.active.iter().position(|a| *a == op.name) {
                let cycle = ctx.active[first..].join(" -> ");
                return Err(Diagnostic::error(
                    op.span,
                    format!(
                        "operation `{}` calls itself ({cycle} -> {})",
                        op.name, op.name
                    ),
                )
                .with_note("operation calls are inlined, so they cannot recurse"));
            }
            let name = op.name.clone();
            *s = call(callee, outputs, args, s.span, ctx);
            // A callee of the component itself (ProB's local operation
            // calls) may call others in turn.
            ctx.active.push(name);
            let inlined = inline_calls(s, callable, ctx);
            ctx.active.pop();
            inlined
        }
        SubstKind::Skip
        | SubstKind::Assign(..)
        | SubstKind::BecomesElementOf(..)
        | SubstKind::BecomesSuchThat(..) => Ok(()),
        SubstKind::Parallel(ss) | SubstKind::Sequence(ss) | SubstKind::Choice(ss) => ss
            .iter_mut()
            .try_for_each(|s| inline_calls(s, callable, ctx)),
        SubstKind::Block(b)
        | SubstKind::Precondition(_, b)
        | SubstKind::Assert(_, b)
        | SubstKind::CalledPre(_, _, b)
        | SubstKind::Any(_, _, b)
        | SubstKind::Let(_, _, b)
        | SubstKind::Var(_, b) => inline_calls(b, callable, ctx),
        SubstKind::Select(branches, otherwise) | SubstKind::If(branches, otherwise) => {
            for (_, b) in branches {
                inline_calls(b, callable, ctx)?;
            }
            match otherwise {
                Some(b) => inline_calls(b, callable, ctx),
                None => Ok(()),
            }
        }
        SubstKind::Case(_, branches, otherwise) => {
            for (_, b) in branches {
                inline_calls(b, callable, ctx)?;
            }
            match otherwise {
                Some(b) => inline_calls(b, callable, ctx),
                None => Ok(()),
            }
        }
        SubstKind::While(w) => inline_calls(&mut w.body, callable, ctx),
    }
}

/// The substitution a call of `callee` stands for.
fn call(
    callee: &Operation,
    outputs: &[Ident],
    args: &[Expr],
    span: Span,
    ctx: &mut CallContext,
) -> Subst {
    ctx.fresh += 1;
    let n = ctx.fresh;
    let fresh_name = |id: &Ident| Ident {
        name: format!("{}@{n}", id.name),
        span: id.span,
    };
    let params: Vec<Ident> = callee.params.iter().map(fresh_name).collect();
    let outs: Vec<Ident> = callee.outputs.iter().map(fresh_name).collect();
    let mut map = Replacements::new();
    for (old, new) in callee
        .params
        .iter()
        .zip(&params)
        .chain(callee.outputs.iter().zip(&outs))
    {
        map.insert(old.name.clone(), renaming(&new.name, old));
    }
    let mut body = callee.body.clone();
    replace_in_subst(&mut body, &map);
    let out_names: Vec<String> = outs.iter().map(|o| o.name.clone()).collect();
    let mut body = precondition_of_call(body, &callee.name, ctx.precondition_is_error, &out_names);
    let node = |kind| Subst { kind, span };
    if !params.is_empty() {
        let bindings = params
            .iter()
            .zip(args)
            .map(|(p, a)| Expr {
                kind: ExprKind::Binary(
                    BinaryOp::Eq,
                    Box::new(Expr {
                        kind: ExprKind::Ident(p.name.clone()),
                        span: a.span,
                    }),
                    Box::new(a.clone()),
                ),
                span: a.span,
            })
            .reduce(|a, b| {
                let span = a.span.to(b.span);
                Expr {
                    kind: ExprKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
                    span,
                }
            })
            .expect("at least one parameter");
        body = node(SubstKind::Let(params, bindings, Box::new(body)));
    }
    if outs.is_empty() {
        return body;
    }
    let copy = node(SubstKind::Assign(
        outputs.iter().cloned().map(AssignTarget::Var).collect(),
        outs.iter()
            .map(|o| Expr {
                kind: ExprKind::Ident(o.name.clone()),
                span,
            })
            .collect(),
    ));
    node(SubstKind::Var(
        outs,
        Box::new(node(SubstKind::Sequence(vec![body, copy]))),
    ))
}

/// `body` of the called `op` with the precondition at its top turned into
/// a checked one (`is_error`) or a guard (ProB's default: the call is not
/// enabled). A PRE left inside a body is an error where it fails. The
/// precondition's conjuncts that read the outputs (`PRE vv : INT & xx :
/// INT`, where `xx` is an output) type them, as ProB reads them: they are
/// dropped, since the call has not assigned the outputs yet.
fn precondition_of_call(body: Subst, op: &Ident, is_error: bool, outputs: &[String]) -> Subst {
    let span = body.span;
    match body.kind {
        SubstKind::Precondition(p, inner) => match without_output_typing(p, outputs) {
            Some(p) if is_error => Subst {
                kind: SubstKind::CalledPre(op.clone(), p, inner),
                span,
            },
            Some(p) => Subst {
                kind: SubstKind::Select(vec![(p, *inner)], None),
                span,
            },
            None => *inner,
        },
        SubstKind::Block(inner) => precondition_of_call(*inner, op, is_error, outputs),
        kind => Subst { kind, span },
    }
}

/// `p` without its conjuncts that read one of `outputs`; `None` if none is
/// left.
fn without_output_typing(p: Expr, outputs: &[String]) -> Option<Expr> {
    if outputs.is_empty() || !mentions_any(&p, outputs) {
        return Some(p);
    }
    match p.kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            match (
                without_output_typing(*a, outputs),
                without_output_typing(*b, outputs),
            ) {
                (Some(a), Some(b)) => Some(Expr {
                    kind: ExprKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
                    span: p.span,
                }),
                (one, other) => one.or(other),
            }
        }
        _ => None,
    }
}
