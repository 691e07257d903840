//! Read-only traversal of the B AST: every expression inside an expression,
//! a substitution or a whole machine, in source order.
//!
//! Analyses that only need to see which names occur where (interchangeable
//! enumerated elements for symmetry, read and write sets for partial order
//! reduction) are written as a closure over this walk instead of each
//! repeating the match over every AST variant.

use crate::frontends::b::ast::{AssignTarget, Expr, ExprKind, Machine, Subst, SubstKind};

/// Calls `f` on `expr` and every expression nested in it, parents first.
pub fn walk_expr<'a>(expr: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(expr);
    match &expr.kind {
        ExprKind::Ident(_)
        | ExprKind::Int(_)
        | ExprKind::BigInt(_)
        | ExprKind::Str(_)
        | ExprKind::True
        | ExprKind::False
        | ExprKind::Constant(_) => {}
        ExprKind::Unary(_, e)
        | ExprKind::BoolOf(e)
        | ExprKind::Comprehension(_, e)
        | ExprKind::Quantifier(_, _, e) => walk_expr(e, f),
        ExprKind::Binary(_, a, b)
        | ExprKind::Image(a, b)
        | ExprKind::Lambda(_, a, b)
        | ExprKind::Let(_, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::QuantifiedExpr(_, _, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::IfThenElse(c, a, b) => {
            walk_expr(c, f);
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::Call(_, args) | ExprKind::SetEnum(args) | ExprKind::SeqEnum(args) => {
            args.iter().for_each(|a| walk_expr(a, f))
        }
        ExprKind::Apply(fun, args) => {
            walk_expr(fun, f);
            args.iter().for_each(|a| walk_expr(a, f));
        }
        ExprKind::Record(fields) | ExprKind::Struct(fields) => {
            fields.iter().for_each(|(_, e)| walk_expr(e, f))
        }
        ExprKind::Field(e, _) => walk_expr(e, f),
        ExprKind::RecordWith(r, _, e) => {
            walk_expr(r, f);
            walk_expr(e, f);
        }
        ExprKind::External(_, args) => args.iter().for_each(|a| walk_expr(a, f)),
    }
}

/// Calls `f` on each expression directly inside `expr` (not `expr` itself,
/// nor deeper), in source order, while `f` returns `true`: the step of
/// [`walk_expr`] for rewrites of the tree. Whether every call returned
/// `true`.
pub fn children_mut(expr: &mut Expr, f: &mut dyn FnMut(&mut Expr) -> bool) -> bool {
    match &mut expr.kind {
        ExprKind::Ident(_)
        | ExprKind::Int(_)
        | ExprKind::BigInt(_)
        | ExprKind::Str(_)
        | ExprKind::True
        | ExprKind::False
        | ExprKind::Constant(_) => true,
        ExprKind::Unary(_, e)
        | ExprKind::BoolOf(e)
        | ExprKind::Comprehension(_, e)
        | ExprKind::Quantifier(_, _, e)
        | ExprKind::Field(e, _) => f(e),
        ExprKind::Binary(_, a, b)
        | ExprKind::Image(a, b)
        | ExprKind::Lambda(_, a, b)
        | ExprKind::Let(_, a, b)
        | ExprKind::QuantifiedExpr(_, _, a, b)
        | ExprKind::RecordWith(a, _, b) => f(a) && f(b),
        ExprKind::IfThenElse(c, a, b) => f(c) && f(a) && f(b),
        ExprKind::Call(_, args)
        | ExprKind::SetEnum(args)
        | ExprKind::SeqEnum(args)
        | ExprKind::External(_, args) => args.iter_mut().all(f),
        ExprKind::Apply(fun, args) => f(fun) && args.iter_mut().all(f),
        ExprKind::Record(fields) | ExprKind::Struct(fields) => fields.iter_mut().all(|(_, e)| f(e)),
    }
}

/// Whether `e` mentions one of `names` anywhere (also as a bound name);
/// `x$0` counts as `x`.
pub fn mentions_any(e: &Expr, names: &[String]) -> bool {
    let mut found = false;
    walk_expr(e, &mut |x| {
        if let ExprKind::Ident(n) = &x.kind {
            let n = n.strip_suffix("$0").unwrap_or(n);
            found |= names.iter().any(|l| l == n);
        }
    });
    found
}

/// Calls `f` on every expression in `subst` (guards, right-hand sides,
/// function-point arguments, ...), in source order.
pub fn walk_subst_exprs<'a>(subst: &'a Subst, f: &mut dyn FnMut(&'a Expr)) {
    match &subst.kind {
        SubstKind::Skip => {}
        SubstKind::Assign(targets, values) => {
            for t in targets {
                if let AssignTarget::FunctionPoint(_, args) = t {
                    args.iter().for_each(|a| walk_expr(a, f));
                }
            }
            values.iter().for_each(|v| walk_expr(v, f));
        }
        SubstKind::BecomesElementOf(_, e) | SubstKind::BecomesSuchThat(_, e) => walk_expr(e, f),
        SubstKind::Parallel(ss) | SubstKind::Sequence(ss) | SubstKind::Choice(ss) => {
            ss.iter().for_each(|s| walk_subst_exprs(s, f))
        }
        SubstKind::Block(s) | SubstKind::Var(_, s) => walk_subst_exprs(s, f),
        SubstKind::Precondition(p, s)
        | SubstKind::Assert(p, s)
        | SubstKind::CalledPre(_, p, s)
        | SubstKind::Any(_, p, s)
        | SubstKind::Let(_, p, s) => {
            walk_expr(p, f);
            walk_subst_exprs(s, f);
        }
        SubstKind::Select(branches, otherwise) | SubstKind::If(branches, otherwise) => {
            for (p, s) in branches {
                walk_expr(p, f);
                walk_subst_exprs(s, f);
            }
            if let Some(s) = otherwise {
                walk_subst_exprs(s, f);
            }
        }
        SubstKind::OpCall(_, _, args) => args.iter().for_each(|a| walk_expr(a, f)),
        SubstKind::While(w) => {
            walk_expr(&w.cond, f);
            walk_subst_exprs(&w.body, f);
            walk_expr(&w.invariant, f);
            walk_expr(&w.variant, f);
        }
        SubstKind::Case(e, branches, otherwise) => {
            walk_expr(e, f);
            for (values, s) in branches {
                values.iter().for_each(|v| walk_expr(v, f));
                walk_subst_exprs(s, f);
            }
            if let Some(s) = otherwise {
                walk_subst_exprs(s, f);
            }
        }
    }
}

/// Calls `f` on every expression of the machine that takes part in its
/// meaning: CONSTRAINTS, PROPERTIES, INVARIANT, ASSERTIONS, GOAL,
/// SCOPE, INITIALISATION and the operations. (`scope_X` sizes are not included.)
pub fn walk_machine_exprs<'a>(machine: &'a Machine, f: &mut dyn FnMut(&'a Expr)) {
    for e in [
        &machine.constraints,
        &machine.properties,
        &machine.invariant,
        &machine.goal,
        &machine.scope,
    ]
    .into_iter()
    .flatten()
    {
        walk_expr(e, f);
    }
    machine.assertions.iter().for_each(|e| walk_expr(e, f));
    if let Some(init) = &machine.initialisation {
        walk_subst_exprs(init, f);
    }
    for op in &machine.operations {
        walk_subst_exprs(&op.body, f);
    }
}
