//! Replacing names in a component: formal parameters by the actual ones
//! (`INCLUDES M(3, S)`), variables and operations by their renamed form
//! (`INCLUDES r.M` makes `x` into `r.x`), and a called operation's
//! parameters by fresh names. Bound names shadow: nothing is replaced under
//! a quantifier, comprehension, `ANY`, `LET` or `VAR` that binds the name.

use std::collections::HashMap;

use crate::frontends::b::ast::{AssignTarget, Expr, ExprKind, Ident, Machine, Subst, SubstKind};

/// What to put in place of each name.
pub(super) type Replacements = HashMap<String, Expr>;

/// A replacement that renames `from` to the plain name `to`.
pub(super) fn renaming(to: &str, like: &Ident) -> Expr {
    Expr {
        kind: ExprKind::Ident(to.to_string()),
        span: like.span,
    }
}

/// Applies `map` to every expression and substitution of `m` (not to its
/// declarations: the caller renames those).
pub(super) fn replace_in_machine(m: &mut Machine, map: &Replacements) {
    if map.is_empty() {
        return;
    }
    for e in [
        &mut m.constraints,
        &mut m.properties,
        &mut m.invariant,
        &mut m.goal,
        &mut m.scope,
    ]
    .into_iter()
    .flatten()
    {
        replace_in_expr(e, map);
    }
    m.assertions
        .iter_mut()
        .for_each(|e| replace_in_expr(e, map));
    for (_, e) in &mut m.values {
        replace_in_expr(e, map);
    }
    if let Some(init) = &mut m.initialisation {
        replace_in_subst(init, map);
    }
    for op in &mut m.operations {
        let inner = without(map, op.params.iter().chain(&op.outputs));
        replace_in_subst(&mut op.body, &inner);
    }
}

/// `map` without the names in `bound` (cloned only when one is in it).
fn without<'a>(map: &Replacements, bound: impl Iterator<Item = &'a Ident> + Clone) -> Replacements {
    if bound.clone().any(|b| map.contains_key(&b.name)) {
        let mut inner = map.clone();
        for b in bound {
            inner.remove(&b.name);
        }
        inner
    } else {
        map.clone()
    }
}

/// The replacement of a name, if any; `x$0` follows `x` when `x` is renamed.
fn lookup(map: &Replacements, name: &str) -> Option<Expr> {
    if let Some(e) = map.get(name) {
        return Some(e.clone());
    }
    let base = name.strip_suffix("$0")?;
    match map.get(base).map(|e| &e.kind) {
        Some(ExprKind::Ident(to)) => Some(Expr {
            kind: ExprKind::Ident(format!("{to}$0")),
            span: map[base].span,
        }),
        _ => None,
    }
}

/// The new name of an assigned or bound name: only renamings apply.
fn rename_ident(id: &mut Ident, map: &Replacements) {
    if let Some(ExprKind::Ident(to)) = map.get(&id.name).map(|e| &e.kind) {
        id.name = to.clone();
    }
}

/// Applies `map` to an expression.
pub(super) fn replace_in_expr(e: &mut Expr, map: &Replacements) {
    if map.is_empty() {
        return;
    }
    match &mut e.kind {
        ExprKind::Ident(name) => {
            if let Some(mut to) = lookup(map, name) {
                // Keep the use's position, so errors point at it.
                if matches!(to.kind, ExprKind::Ident(_)) {
                    to.span = e.span;
                }
                *e = to;
            }
        }
        ExprKind::Int(_)
        | ExprKind::BigInt(_)
        | ExprKind::Str(_)
        | ExprKind::True
        | ExprKind::False
        | ExprKind::Constant(_) => {}
        ExprKind::Unary(_, a) | ExprKind::BoolOf(a) => replace_in_expr(a, map),
        ExprKind::Binary(_, a, b) | ExprKind::Image(a, b) => {
            replace_in_expr(a, map);
            replace_in_expr(b, map);
        }
        ExprKind::IfThenElse(c, a, b) => {
            replace_in_expr(c, map);
            replace_in_expr(a, map);
            replace_in_expr(b, map);
        }
        ExprKind::Call(_, args) | ExprKind::SetEnum(args) | ExprKind::SeqEnum(args) => {
            args.iter_mut().for_each(|a| replace_in_expr(a, map))
        }
        ExprKind::Apply(f, args) => {
            replace_in_expr(f, map);
            args.iter_mut().for_each(|a| replace_in_expr(a, map));
        }
        ExprKind::Record(fields) | ExprKind::Struct(fields) => {
            fields.iter_mut().for_each(|(_, e)| replace_in_expr(e, map))
        }
        ExprKind::Field(e, _) => replace_in_expr(e, map),
        ExprKind::RecordWith(r, _, e) => {
            replace_in_expr(r, map);
            replace_in_expr(e, map);
        }
        ExprKind::External(_, args) => args.iter_mut().for_each(|a| replace_in_expr(a, map)),
        ExprKind::Comprehension(ids, body) | ExprKind::Quantifier(_, ids, body) => {
            let inner = without(map, ids.iter());
            replace_in_expr(body, &inner);
        }
        ExprKind::Lambda(ids, a, b)
        | ExprKind::QuantifiedExpr(_, ids, a, b)
        | ExprKind::Let(ids, a, b) => {
            let inner = without(map, ids.iter());
            replace_in_expr(a, &inner);
            replace_in_expr(b, &inner);
        }
    }
}

/// Applies `map` to a substitution (assigned names are renamed too).
pub(super) fn replace_in_subst(s: &mut Subst, map: &Replacements) {
    if map.is_empty() {
        return;
    }
    match &mut s.kind {
        SubstKind::Skip => {}
        SubstKind::Assign(targets, values) => {
            for t in targets {
                match t {
                    AssignTarget::Var(id) => rename_ident(id, map),
                    AssignTarget::FunctionPoint(id, args) => {
                        rename_ident(id, map);
                        args.iter_mut().for_each(|a| replace_in_expr(a, map));
                    }
                }
            }
            values.iter_mut().for_each(|v| replace_in_expr(v, map));
        }
        SubstKind::BecomesElementOf(ids, e) | SubstKind::BecomesSuchThat(ids, e) => {
            ids.iter_mut().for_each(|id| rename_ident(id, map));
            replace_in_expr(e, map);
        }
        SubstKind::Parallel(ss) | SubstKind::Sequence(ss) | SubstKind::Choice(ss) => {
            ss.iter_mut().for_each(|s| replace_in_subst(s, map))
        }
        SubstKind::Block(b) => replace_in_subst(b, map),
        SubstKind::Precondition(p, b) | SubstKind::Assert(p, b) | SubstKind::CalledPre(_, p, b) => {
            replace_in_expr(p, map);
            replace_in_subst(b, map);
        }
        SubstKind::Select(branches, otherwise) | SubstKind::If(branches, otherwise) => {
            for (p, b) in branches {
                replace_in_expr(p, map);
                replace_in_subst(b, map);
            }
            if let Some(b) = otherwise {
                replace_in_subst(b, map);
            }
        }
        SubstKind::Case(e, branches, otherwise) => {
            replace_in_expr(e, map);
            for (values, b) in branches {
                values.iter_mut().for_each(|v| replace_in_expr(v, map));
                replace_in_subst(b, map);
            }
            if let Some(b) = otherwise {
                replace_in_subst(b, map);
            }
        }
        SubstKind::Any(ids, p, b) | SubstKind::Let(ids, p, b) => {
            let inner = without(map, ids.iter());
            replace_in_expr(p, &inner);
            replace_in_subst(b, &inner);
        }
        SubstKind::Var(ids, b) => {
            let inner = without(map, ids.iter());
            replace_in_subst(b, &inner);
        }
        SubstKind::OpCall(outputs, op, args) => {
            outputs.iter_mut().for_each(|id| rename_ident(id, map));
            rename_ident(op, map);
            args.iter_mut().for_each(|a| replace_in_expr(a, map));
        }
        SubstKind::While(w) => {
            replace_in_expr(&mut w.cond, map);
            replace_in_subst(&mut w.body, map);
            replace_in_expr(&mut w.invariant, map);
            replace_in_expr(&mut w.variant, map);
        }
    }
}
