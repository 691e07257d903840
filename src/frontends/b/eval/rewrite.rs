//! Rewrites of the syntax tree before compilation, where a form the
//! interpreter would have to build or enumerate has an equivalent it
//! evaluates directly:
//!
//! * the one-point rule: `#(f, y).(f = %x.(x : INTEGER | x + y) & f(5) =
//!   1005)` is `#y.(%x.(x : INTEGER | x + y)(5) = 1005)` (`f` is not free
//!   in the lambda), so the lambda, infinite, is never listed as a value
//!   of `f`;
//! * beta-reduction: `%x.(x : INTEGER | x + y)(5)` is `5 + y` where the
//!   lambda's domain is a whole type (every argument of the right type is
//!   in it, so the application is always defined), so the plan solves `y`
//!   from `5 + y = 1005` as from any equation.
//!
//! Both substitute without capture: where a binder inside would capture a
//! name of the substituted expression, nothing is rewritten.

use std::collections::BTreeSet;

use crate::frontends::b::ast::{
    BinaryOp, BuiltinConstant, Expr, ExprKind, Ident, Quantifier, UnaryOp,
};
use crate::frontends::b::visit::{children_mut, mentions_any, walk_expr};

use super::compile::conjuncts;

/// `#(names).(body)` with a variable defined as a lambda (`f = %x.(..)`
/// among the conjuncts, `f` not in the lambda) eliminated: the other
/// conjuncts with the lambda for `f`, under the other variables (none
/// left: the conjuncts alone). `None` where there is no such variable or
/// the substitution would capture a name.
pub(super) fn one_point(names: &[Ident], body: &Expr) -> Option<Expr> {
    let parts = conjuncts(body);
    for (k, part) in parts.iter().enumerate() {
        let ExprKind::Binary(BinaryOp::Eq, a, b) = &part.kind else {
            continue;
        };
        let (name, lambda) = match (&a.kind, &b.kind) {
            (ExprKind::Ident(n), ExprKind::Lambda(..)) => (n, &**b),
            (ExprKind::Lambda(..), ExprKind::Ident(n)) => (n, &**a),
            _ => continue,
        };
        // The definition and the conjuncts that only type the variable
        // (`f : POW(INTEGER * INTEGER)`, which the lambda satisfies by
        // its type) go.
        let dropped: Vec<bool> = (0..parts.len())
            .map(|j| j == k || typing(parts[j], name))
            .collect();
        if !names.iter().any(|i| &i.name == name)
            || mentions_any(lambda, std::slice::from_ref(name))
            || !only_applied(&parts, &dropped, name)
        {
            continue;
        }
        let inside = idents(lambda);
        let mut rest = Vec::with_capacity(parts.len() - 1);
        for (j, other) in parts.iter().enumerate() {
            if dropped[j] {
                continue;
            }
            let mut other = (*other).clone();
            if !substitute(&mut other, name, lambda, &inside) {
                return None;
            }
            rest.push(other);
        }
        let body = rest
            .into_iter()
            .reduce(|a, b| Expr {
                span: a.span,
                kind: ExprKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
            })
            .unwrap_or(Expr {
                kind: ExprKind::True,
                span: body.span,
            });
        let left: Vec<Ident> = names.iter().filter(|i| &i.name != name).cloned().collect();
        if left.is_empty() {
            return Some(body);
        }
        let span = body.span;
        return Some(Expr {
            kind: ExprKind::Quantifier(Quantifier::Exists, left, Box::new(body)),
            span,
        });
    }
    None
}

/// Whether `t` is a whole type: `INTEGER`, `BOOL`, `STRING`, their
/// products and powersets (every value of its type is in it).
fn whole_type(t: &Expr) -> bool {
    match &t.kind {
        ExprKind::Constant(
            BuiltinConstant::Integer | BuiltinConstant::Bool | BuiltinConstant::String,
        ) => true,
        ExprKind::Unary(UnaryOp::Pow, a) => whole_type(a),
        ExprKind::Binary(BinaryOp::Mul, a, b) => whole_type(a) && whole_type(b),
        _ => false,
    }
}

/// Whether `e` is `name : T` for a whole type `T`: true of every value of
/// the variable's type.
fn typing(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Binary(BinaryOp::Member, x, t)
        if matches!(&x.kind, ExprKind::Ident(n) if n == name) && whole_type(t))
}

/// Whether `name` occurs in the conjuncts not `dropped` only as a
/// function applied (`f(a)`): the lambda put there is applied where it
/// is written and never built, where `dom(f)` or `f[S]` in a loop would
/// build it at every turn instead of once.
fn only_applied(parts: &[&Expr], dropped: &[bool], name: &str) -> bool {
    let (mut all, mut applied) = (0, 0);
    for (j, part) in parts.iter().enumerate() {
        if dropped[j] {
            continue;
        }
        walk_expr(part, &mut |x| match &x.kind {
            ExprKind::Ident(n) if n == name => all += 1,
            ExprKind::Apply(f, _) if matches!(&f.kind, ExprKind::Ident(n) if n == name) => {
                applied += 1
            }
            _ => {}
        });
    }
    all == applied
}

/// The body of the lambda `f` with `args` for its parameters, where each
/// parameter ranges over a whole type ([`whole_type`]: `x : INTEGER`),
/// there is one argument per parameter, no argument names a parameter and
/// no binder in the body captures a name of an argument; `None` otherwise.
pub(super) fn beta_reduced(f: &Expr, args: &[Expr]) -> Option<Expr> {
    let ExprKind::Lambda(params, domain, body) = &f.kind else {
        return None;
    };
    if params.len() != args.len() || !whole_types(params, domain) {
        return None;
    }
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    if args.iter().any(|a| mentions_any(a, &names)) {
        return None;
    }
    let mut out = (**body).clone();
    for (param, arg) in params.iter().zip(args) {
        if !substitute(&mut out, &param.name, arg, &idents(arg)) {
            return None;
        }
    }
    Some(out)
}

/// `id(S) : X`, where `X` is a relation or function space, `perm(T)` or
/// a set of sequences, as conditions on `S` alone: `id(S)` has domain and
/// range `S` and is injective, so `id(S) : A >->> B` is `S = A & S = B`
/// and `id(S) : perm(T)` is `S = T & S = 1..card(S)`. The intervals of
/// `id(1..10000000) : perm(1..10000000)` then compare by their bounds,
/// never built. `None` where `x` is not `id(S)` or `set` no such set.
pub(super) fn identity_membership(x: &Expr, set: &Expr) -> Option<Expr> {
    let ExprKind::Unary(UnaryOp::Id, s) = &x.kind else {
        return None;
    };
    let span = x.span;
    let node = |kind| Expr { kind, span };
    let binary = |op, a: &Expr, b: &Expr| {
        node(ExprKind::Binary(
            op,
            Box::new(a.clone()),
            Box::new(b.clone()),
        ))
    };
    let within = |a: &Expr| binary(BinaryOp::Subset, s, a);
    let equal = |a: &Expr| binary(BinaryOp::Eq, s, a);
    // `S = 1..card(S)`: `id(S)` is a sequence.
    let indices = || {
        let card = node(ExprKind::Unary(UnaryOp::Card, s.clone()));
        equal(&binary(BinaryOp::Interval, &node(ExprKind::Int(1)), &card))
    };
    let both = |a: Expr, b: Expr| binary(BinaryOp::And, &a, &b);
    Some(match &set.kind {
        ExprKind::Binary(op, a, b) => {
            let (total, onto) = match op {
                BinaryOp::Relation | BinaryOp::PartialFunction | BinaryOp::PartialInjection => {
                    (false, false)
                }
                BinaryOp::TotalFunction | BinaryOp::TotalInjection => (true, false),
                BinaryOp::PartialSurjection | BinaryOp::PartialBijection => (false, true),
                BinaryOp::TotalSurjection | BinaryOp::TotalBijection => (true, true),
                _ => return None,
            };
            let domain = if total { equal(a) } else { within(a) };
            let range = if onto { equal(b) } else { within(b) };
            both(domain, range)
        }
        ExprKind::Unary(UnaryOp::Perm, t) => both(equal(t), indices()),
        ExprKind::Unary(UnaryOp::Seq | UnaryOp::Iseq, t) => both(indices(), within(t)),
        ExprKind::Unary(UnaryOp::Seq1 | UnaryOp::Iseq1, t) => {
            let card = node(ExprKind::Unary(UnaryOp::Card, s.clone()));
            let some = binary(BinaryOp::Gt, &card, &node(ExprKind::Int(0)));
            both(both(indices(), within(t)), some)
        }
        _ => return None,
    })
}

/// Whether `domain` is `x1 : T1 & .. & xn : Tn` for the parameters in
/// some order, each `Ti` a whole type.
fn whole_types(params: &[Ident], domain: &Expr) -> bool {
    let parts = conjuncts(domain);
    parts.len() == params.len()
        && params
            .iter()
            .all(|p| parts.iter().any(|c| typing(c, &p.name)))
}

/// Every identifier written in `e` (free or bound: a safe superset of its
/// free names).
fn idents(e: &Expr) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    walk_expr(e, &mut |x| {
        if let ExprKind::Ident(n) = &x.kind {
            out.insert(n.clone());
        }
    });
    out
}

/// Replaces the free occurrences of `name` in `e` by `by`, whose names are
/// `by_names`; `false` (with `e` partly rewritten) where a binder inside
/// would capture one of them.
fn substitute(e: &mut Expr, name: &str, by: &Expr, by_names: &BTreeSet<String>) -> bool {
    if matches!(&e.kind, ExprKind::Ident(n) if n == name) {
        *e = by.clone();
        return true;
    }
    // A binder of `name` hides it below; one of a name of `by` would
    // capture it where `name` occurs below.
    let bound = match &e.kind {
        ExprKind::Comprehension(ns, _)
        | ExprKind::Quantifier(_, ns, _)
        | ExprKind::Lambda(ns, _, _)
        | ExprKind::QuantifiedExpr(_, ns, _, _)
        | ExprKind::Let(ns, _, _) => Some(ns),
        _ => None,
    };
    if let Some(ns) = bound {
        if ns.iter().any(|n| n.name == name) {
            return true;
        }
        if ns.iter().any(|n| by_names.contains(&n.name)) && mentions_any(e, &[name.to_string()]) {
            return false;
        }
    }
    children_mut(e, &mut |x| substitute(x, name, by, by_names))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::parse_expression;

    fn expr(text: &str) -> Expr {
        parse_expression(&SourceFile::new("t", text)).expect("parses")
    }

    fn names(e: &Expr) -> (Vec<Ident>, Expr) {
        match &e.kind {
            ExprKind::Quantifier(_, ns, body) => (ns.clone(), (**body).clone()),
            _ => panic!("not a quantifier"),
        }
    }

    #[test]
    fn a_variable_defined_as_a_lambda_is_eliminated() {
        let (ns, body) = names(&expr(
            "#(f, y).(f : POW(INTEGER * INTEGER) & y : INTEGER & \
             f = %x.(x : INTEGER | x + y) & f(5) = 1005)",
        ));
        let e = one_point(&ns, &body).expect("rewritten");
        let (left, body) = names(&e);
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].name, "y");
        assert!(!mentions_any(&body, &["f".into()]));
        // `y : INTEGER` stays; `f`'s typing and definition go.
        let ExprKind::Binary(BinaryOp::And, _, last) = &body.kind else {
            panic!("{body:?}");
        };
        let ExprKind::Binary(BinaryOp::Eq, applied, _) = &last.kind else {
            panic!("{body:?}");
        };
        let ExprKind::Apply(f, args) = &applied.kind else {
            panic!("{applied:?}");
        };
        let reduced = beta_reduced(f, args).expect("reduced");
        assert!(matches!(
            reduced.kind,
            ExprKind::Binary(BinaryOp::Add, _, _)
        ));
        assert!(!mentions_any(&reduced, &["x".into()]));
    }

    #[test]
    fn nothing_is_rewritten_where_a_binder_would_capture() {
        // `y` of the lambda would be captured by the inner `#y`.
        let (ns, body) = names(&expr(
            "#(f, y).(f = %x.(x : INTEGER | x + y) & #y.(y : 1..2 & f(y) = 3))",
        ));
        assert!(one_point(&ns, &body).is_none());
        // The lambda mentions `f` itself: not a definition.
        let (ns, body) = names(&expr("#(f).(f = %x.(x : INTEGER | card(f)) & f(1) = 0)"));
        assert!(one_point(&ns, &body).is_none());
        // `f` used as a set, not only applied: left to be built once.
        let (ns, body) = names(&expr("#(f).(f = %x.(x : 1..3 | x) & dom(f) = 1..3)"));
        assert!(one_point(&ns, &body).is_none());
    }

    #[test]
    fn only_lambdas_over_whole_types_are_reduced() {
        let args = [expr("5")];
        assert!(beta_reduced(&expr("%x.(x : INTEGER | x * 2)"), &args).is_some());
        assert!(beta_reduced(&expr("%x.(x : NATURAL | x * 2)"), &args).is_none());
        assert!(beta_reduced(&expr("%x.(x : INTEGER & x > 1 | x * 2)"), &args).is_none());
        // An argument naming the parameter is left alone.
        assert!(beta_reduced(&expr("%x.(x : INTEGER | x * 2)"), &[expr("x + 1")]).is_none());
    }
}
