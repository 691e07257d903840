//! Unit tests of the checker on machines built directly as ASTs: small
//! builders here, the tests by topic in the submodules.

mod errors;
mod random;
mod sets;
mod typing;

use super::*;
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::*;
use crate::frontends::b::types::Type;
use std::cell::Cell;

thread_local! {
    static NEXT: Cell<u32> = const { Cell::new(0) };
}

/// A fresh, distinct span for each node.
fn sp() -> Span {
    NEXT.with(|n| {
        let s = n.get();
        n.set(s + 10);
        Span {
            start: s,
            end: s + 5,
        }
    })
}

fn ident(name: &str) -> Ident {
    Ident {
        name: name.into(),
        span: sp(),
    }
}
fn e(kind: ExprKind) -> Expr {
    Expr { kind, span: sp() }
}
fn v(name: &str) -> Expr {
    e(ExprKind::Ident(name.into()))
}
fn int(n: i64) -> Expr {
    e(ExprKind::Int(n))
}
fn c(k: BuiltinConstant) -> Expr {
    e(ExprKind::Constant(k))
}
fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}
fn un(op: UnaryOp, a: Expr) -> Expr {
    e(ExprKind::Unary(op, Box::new(a)))
}
fn and(ps: Vec<Expr>) -> Expr {
    ps.into_iter()
        .reduce(|a, b| bin(BinaryOp::And, a, b))
        .unwrap()
}
fn set(items: Vec<Expr>) -> Expr {
    e(ExprKind::SetEnum(items))
}
fn s(kind: SubstKind) -> Subst {
    Subst { kind, span: sp() }
}
fn assign(x: &str, value: Expr) -> Subst {
    s(SubstKind::Assign(
        vec![AssignTarget::Var(ident(x))],
        vec![value],
    ))
}
fn op(outputs: &[&str], name: &str, params: &[&str], body: Subst) -> Operation {
    Operation {
        name: ident(name),
        outputs: outputs.iter().map(|n| ident(n)).collect(),
        params: params.iter().map(|n| ident(n)).collect(),
        body,
        span: sp(),
    }
}

fn machine(name: &str) -> Machine {
    Machine::empty(ComponentKind::Machine, ident(name))
}

/// Gives a hand-built machine an INITIALISATION `v1, v2, ... : (TRUE)`
/// that assigns every variable and types none.
fn initialised(mut m: Machine) -> Machine {
    let vars = m.variables.clone();
    m.initialisation = Some(s(SubstKind::BecomesSuchThat(vars, e(ExprKind::True))));
    m
}

fn pow(t: Type) -> Type {
    Type::Set(Box::new(t))
}
fn pair(a: Type, b: Type) -> Type {
    Type::Pair(Box::new(a), Box::new(b))
}

fn check(m: &Machine) -> Result<MachineTypes, Vec<Diagnostic>> {
    check_machine(m, &CheckOptions::default())
}

fn messages(m: &Machine) -> Vec<String> {
    match check(m) {
        Ok(_) => panic!("expected errors"),
        Err(ds) => ds.into_iter().map(|d| d.message).collect(),
    }
}

/// `LoginVerySimple` of Leuschel et al., "Symmetry Reduction for B by Permutation Flooding".
fn login() -> Machine {
    let mut m = machine("LoginVerySimple");
    m.sets = vec![SetDecl::Deferred(ident("Session"))];
    m.variables = vec![ident("active")];
    m.invariant = Some(bin(BinaryOp::Subset, v("active"), v("Session")));
    m.initialisation = Some(assign("active", c(BuiltinConstant::EmptySet)));
    let any = s(SubstKind::Any(
        vec![ident("s")],
        and(vec![
            bin(BinaryOp::Member, v("s"), v("Session")),
            bin(BinaryOp::NotMember, v("s"), v("active")),
        ]),
        Box::new(s(SubstKind::Parallel(vec![
            assign("res", v("s")),
            assign(
                "active",
                bin(BinaryOp::Union, v("active"), set(vec![v("s")])),
            ),
        ]))),
    ));
    let logout = s(SubstKind::Precondition(
        bin(BinaryOp::Member, v("s"), v("active")),
        Box::new(assign(
            "active",
            bin(BinaryOp::Minus, v("active"), set(vec![v("s")])),
        )),
    ));
    m.operations = vec![
        op(&["res"], "Login", &[], any),
        op(&[], "Logout", &["s"], logout),
    ];
    m
}

fn ids(names: &[&str]) -> Vec<Ident> {
    names.iter().map(|n| ident(n)).collect()
}

/// A machine over deferred `P` with the given variables and invariant conjuncts.
fn over_p(vars: &[&str], conjuncts: Vec<Expr>) -> Machine {
    let mut m = machine("M");
    m.sets = vec![SetDecl::Deferred(ident("P"))];
    m.variables = ids(vars);
    m.invariant = Some(and(conjuncts));
    initialised(m)
}
