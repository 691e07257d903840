//! Unit tests of the checker on machines built directly as ASTs.

use super::*;
use crate::b::ast::*;
use crate::b::types::Type;
use crate::diag::{Diagnostic, Span};
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
    Machine {
        kind: ComponentKind::Machine,
        name: ident(name),
        params: Vec::new(),
        refines: None,
        constraints: None,
        sets: Vec::new(),
        constants: Vec::new(),
        properties: None,
        variables: Vec::new(),
        invariant: None,
        assertions: Vec::new(),
        initialisation: None,
        operations: Vec::new(),
        definitions: Vec::new(),
        goal: None,
        scopes: Vec::new(),
    }
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

#[test]
fn login_machine_types_and_default_set_size() {
    let m = login();
    let t = check(&m).unwrap();
    assert_eq!(t.given_sets.len(), 1);
    assert_eq!(t.given_sets[0].elements, vec!["Session1", "Session2"]);
    assert!(t.given_sets[0].deferred);
    assert_eq!(t.variables, vec![pow(Type::Given(0))]);
    assert_eq!(
        t.operations[0],
        OperationTypes {
            params: vec![],
            outputs: vec![Type::Given(0)]
        }
    );
    assert_eq!(
        t.operations[1],
        OperationTypes {
            params: vec![Type::Given(0)],
            outputs: vec![]
        }
    );
    assert_eq!((t.maxint, t.minint), (3, -1));
    // The ANY-bound `s` is recorded under its binder's span.
    let SubstKind::Any(ids, _, _) = &m.operations[0].body.kind else {
        unreachable!()
    };
    assert_eq!(t.bound_type(&ids[0]), Some(&Type::Given(0)));
}

#[test]
fn set_sizes_follow_option_then_scope_then_card_then_default() {
    let mut m = login();
    m.scopes = vec![(ident("Session"), bin(BinaryOp::Interval, int(1), int(4)))];
    assert_eq!(check(&m).unwrap().given_sets[0].elements.len(), 4);
    let opts = CheckOptions {
        set_sizes: vec![("Session".into(), 3)],
        ..CheckOptions::default()
    };
    let mut m2 = m.clone();
    m2.scopes.clear();
    assert_eq!(
        check_machine(&m2, &opts).unwrap().given_sets[0]
            .elements
            .len(),
        3
    );
    m2.properties = Some(bin(BinaryOp::Eq, int(5), un(UnaryOp::Card, v("Session"))));
    assert_eq!(check(&m2).unwrap().given_sets[0].elements.len(), 5);
    // Disagreeing sources are an error.
    let errs = check_machine(&m2, &opts).unwrap_err();
    assert!(
        errs[0].message.contains("has size 3 from --set Session=3"),
        "{:?}",
        errs
    );
    m.scopes = vec![(ident("Session"), int(6))];
    assert_eq!(check(&m).unwrap().given_sets[0].elements[5], "Session6");
    // `--set` overrides a scope definition.
    assert_eq!(
        check_machine(&m, &opts).unwrap().given_sets[0]
            .elements
            .len(),
        3
    );
}

#[test]
fn enumerated_sets_scope_must_agree_and_elements_are_unique() {
    let mut m = machine("M");
    m.sets = vec![
        SetDecl::Enumerated(ident("COLOUR"), vec![ident("red"), ident("green")]),
        SetDecl::Enumerated(ident("LIGHT"), vec![ident("red")]),
    ];
    m.scopes = vec![(ident("COLOUR"), int(3))];
    let msgs = messages(&m);
    assert!(
        msgs.iter()
            .any(|x| x
                .contains("`COLOUR` has size 2 from its enumeration, but scope_COLOUR gives 3"))
    );
    assert!(
        msgs.iter().any(|x| x == "`red` is declared twice"),
        "{msgs:?}"
    );
}

#[test]
fn set_parameters_come_first_and_scalar_parameters_are_refused() {
    let mut m = machine("Towns");
    m.params = vec![ident("TOWN")];
    m.sets = vec![SetDecl::Enumerated(
        ident("ANSWER"),
        vec![ident("connected"), ident("notconnected")],
    )];
    m.variables = vec![ident("roads")];
    m.invariant = Some(bin(
        BinaryOp::Member,
        v("roads"),
        bin(BinaryOp::Relation, v("TOWN"), v("TOWN")),
    ));
    let mut m = initialised(m);
    let t = check(&m).unwrap();
    assert_eq!(t.given_sets[0].name, "TOWN");
    assert_eq!(t.given_sets[1].name, "ANSWER");
    assert_eq!(t.variables[0], pow(pair(Type::Given(0), Type::Given(0))));
    m.params.push(ident("n"));
    assert!(messages(&m)[0].starts_with("not supported yet: scalar machine parameter"));
}

#[test]
fn star_and_minus_are_resolved_by_types() {
    let mut m = machine("M");
    m.sets = vec![SetDecl::Deferred(ident("A")), SetDecl::Deferred(ident("B"))];
    m.variables = vec![ident("r"), ident("n"), ident("k"), ident("d")];
    m.invariant = Some(and(vec![
        // r : POW(A * B): cartesian product, decided from A.
        bin(BinaryOp::Subset, v("r"), bin(BinaryOp::Mul, v("A"), v("B"))),
        // k = n * n with n : NAT decided afterwards (pending then settled).
        bin(BinaryOp::Eq, v("k"), bin(BinaryOp::Mul, v("n"), v("n"))),
        bin(BinaryOp::Member, v("n"), c(BuiltinConstant::Nat)),
        bin(
            BinaryOp::Eq,
            v("d"),
            bin(BinaryOp::Minus, v("A"), c(BuiltinConstant::EmptySet)),
        ),
    ]));
    let t = check(&initialised(m)).unwrap();
    assert_eq!(t.variables[0], pow(pair(Type::Given(0), Type::Given(1))));
    assert_eq!(t.variables[1], Type::Int);
    assert_eq!(t.variables[2], Type::Int);
    assert_eq!(t.variables[3], pow(Type::Given(0)));
}

#[test]
fn relational_operators_have_their_b_types() {
    let mut m = machine("M");
    m.sets = vec![
        SetDecl::Deferred(ident("P")),
        SetDecl::Enumerated(ident("S"), vec![ident("idle"), ident("busy")]),
    ];
    m.variables = vec![ident("pst"), ident("q"), ident("w"), ident("sq")];
    m.invariant = Some(and(vec![
        bin(
            BinaryOp::Member,
            v("pst"),
            bin(BinaryOp::PartialFunction, v("P"), v("S")),
        ),
        // q = pst~[{idle}] : POW(P)
        bin(
            BinaryOp::Eq,
            v("q"),
            e(ExprKind::Image(
                Box::new(un(UnaryOp::Inverse, v("pst"))),
                Box::new(set(vec![v("idle")])),
            )),
        ),
        // w = card(dom(pst)) + 1
        bin(
            BinaryOp::Eq,
            v("w"),
            bin(
                BinaryOp::Add,
                un(UnaryOp::Card, un(UnaryOp::Dom, v("pst"))),
                int(1),
            ),
        ),
        bin(BinaryOp::Member, v("sq"), un(UnaryOp::Seq, v("P"))),
        bin(
            BinaryOp::Eq,
            e(ExprKind::Apply(
                Box::new(v("pst")),
                vec![un(UnaryOp::First, v("sq"))],
            )),
            v("idle"),
        ),
    ]));
    let t = check(&initialised(m)).unwrap();
    assert_eq!(t.variables[0], pow(pair(Type::Given(0), Type::Given(1))));
    assert_eq!(t.variables[1], pow(Type::Given(0)));
    assert_eq!(t.variables[2], Type::Int);
    assert_eq!(t.variables[3], pow(pair(Type::Int, Type::Given(0))));
}

#[test]
fn mismatch_is_reported_in_b_notation_at_the_offending_expression() {
    let mut m = login();
    // Logout(s) = PRE s : active & s = 1 ...
    let wrong = bin(BinaryOp::Eq, v("s"), int(1));
    let wrong_span = match &wrong.kind {
        ExprKind::Binary(_, _, one) => one.span,
        _ => unreachable!(),
    };
    let SubstKind::Precondition(p, _) = &mut m.operations[1].body.kind else {
        unreachable!()
    };
    *p = and(vec![p.clone(), wrong]);
    let errs = check(&m).unwrap_err();
    assert_eq!(errs[0].message, "expected Session, found INTEGER");
    assert_eq!(errs[0].span, wrong_span);
    assert_eq!(errs.len(), 1);
}

#[test]
fn unknown_identifier_suggests_a_close_name() {
    let mut m = login();
    m.invariant = Some(bin(BinaryOp::Subset, v("actve"), v("Session")));
    let errs = check(&m).unwrap_err();
    assert_eq!(errs[0].message, "unknown identifier `actve`");
    assert_eq!(errs[0].label, "did you mean `active`?");
}

#[test]
fn untyped_variable_is_reported() {
    let mut m = login();
    m.variables.push(ident("extra"));
    let init = m.initialisation.take().unwrap();
    let extra = s(SubstKind::BecomesSuchThat(
        ids(&["extra"]),
        e(ExprKind::True),
    ));
    m.initialisation = Some(s(SubstKind::Parallel(vec![init, extra])));
    let errs = check(&m).unwrap_err();
    assert_eq!(
        errs[0].message,
        "cannot infer the type of variable `extra`: add a typing predicate such as `extra : S` to the INVARIANT"
    );
}

#[test]
fn assignment_rules_are_enforced() {
    let mut m = login();
    m.constants = vec![ident("c0")];
    m.properties = Some(bin(BinaryOp::Member, v("c0"), v("Session")));
    m.operations.push(op(
        &[],
        "Bad1",
        &["p"],
        s(SubstKind::Precondition(
            bin(BinaryOp::Member, v("p"), v("Session")),
            Box::new(assign("p", v("c0"))),
        )),
    ));
    m.operations
        .push(op(&[], "Bad2", &[], assign("c0", v("c0"))));
    m.operations
        .push(op(&["out"], "Bad3", &[], s(SubstKind::Skip)));
    let msgs = messages(&m);
    assert!(
        msgs.contains(&"cannot assign to input parameter `p` of operation `Bad1`".to_string()),
        "{msgs:?}"
    );
    assert!(
        msgs.contains(&"cannot assign to constant `c0`".to_string()),
        "{msgs:?}"
    );
    assert!(
        msgs.contains(&"output `out` of operation `Bad3` is never assigned".to_string()),
        "{msgs:?}"
    );
}

#[test]
fn variables_are_not_visible_in_properties() {
    let mut m = login();
    m.constants = vec![ident("c0")];
    m.properties = Some(bin(BinaryOp::Eq, v("c0"), v("active")));
    assert_eq!(
        messages(&m)[0],
        "variable `active` cannot be used in PROPERTIES"
    );
}

#[test]
fn bound_variables_shadow_and_get_types() {
    let mut m = login();
    // !active.(active : NAT => active > 0): the bound `active` shadows the variable.
    let x = ident("active");
    let q = e(ExprKind::Quantifier(
        Quantifier::ForAll,
        vec![x.clone()],
        Box::new(bin(
            BinaryOp::Implies,
            bin(BinaryOp::Member, v("active"), c(BuiltinConstant::Nat)),
            bin(BinaryOp::Gt, v("active"), int(0)),
        )),
    ));
    m.assertions = vec![q];
    let t = check(&m).unwrap();
    assert_eq!(t.bound_type(&x), Some(&Type::Int));
    assert_eq!(t.variables[0], pow(Type::Given(0)));
}

#[test]
fn predicates_and_expressions_are_not_mixed() {
    let mut m = login();
    m.assertions = vec![v("active")];
    assert_eq!(messages(&m)[0], "expected a predicate, found an expression");
    let mut m = login();
    m.assertions = vec![bin(
        BinaryOp::Eq,
        e(ExprKind::True),
        bin(BinaryOp::Eq, v("active"), c(BuiltinConstant::EmptySet)),
    )];
    assert_eq!(messages(&m)[0], "expected an expression, found a predicate");
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

#[test]
fn binders_give_tuple_types() {
    // f = %(x, y).(x : P & y : NAT | y + 1)   : POW(P*INTEGER*INTEGER)
    // g = {x, b | x : P & b : BOOL}           : POW(P*BOOL)
    // n = SIGMA(z).(z : 1..3 | z)             : INTEGER
    // u = UNION(z).(z : P | {z})              : POW(P)
    let lambda = e(ExprKind::Lambda(
        ids(&["x", "y"]),
        Box::new(and(vec![
            bin(BinaryOp::Member, v("x"), v("P")),
            bin(BinaryOp::Member, v("y"), c(BuiltinConstant::Nat)),
        ])),
        Box::new(bin(BinaryOp::Add, v("y"), int(1))),
    ));
    let compr = e(ExprKind::Comprehension(
        ids(&["x", "b"]),
        Box::new(and(vec![
            bin(BinaryOp::Member, v("x"), v("P")),
            bin(BinaryOp::Member, v("b"), c(BuiltinConstant::Bool)),
        ])),
    ));
    let sigma = e(ExprKind::QuantifiedExpr(
        QuantifiedExprKind::Sum,
        ids(&["z"]),
        Box::new(bin(
            BinaryOp::Member,
            v("z"),
            bin(BinaryOp::Interval, int(1), int(3)),
        )),
        Box::new(v("z")),
    ));
    let union = e(ExprKind::QuantifiedExpr(
        QuantifiedExprKind::Union,
        ids(&["z"]),
        Box::new(bin(BinaryOp::Member, v("z"), v("P"))),
        Box::new(set(vec![v("z")])),
    ));
    let m = over_p(
        &["f", "g", "n", "u"],
        vec![
            bin(BinaryOp::Eq, v("f"), lambda),
            bin(BinaryOp::Eq, v("g"), compr),
            bin(BinaryOp::Eq, v("n"), sigma),
            bin(BinaryOp::Eq, v("u"), union),
        ],
    );
    let t = check(&m).unwrap();
    let p = || Type::Given(0);
    assert_eq!(t.variables[0], pow(pair(pair(p(), Type::Int), Type::Int)));
    assert_eq!(t.variables[1], pow(pair(p(), Type::Bool)));
    assert_eq!(t.variables[2], Type::Int);
    assert_eq!(t.variables[3], pow(p()));
    assert_eq!(t.bound.len(), 6);
}

#[test]
fn sequence_and_projection_operators() {
    // s : seq(P) & t = rev(s) ^ tail(s) <- first(s) & k = size(s /|\ 2)
    // & q = prj1(P, BOOL) & it = iterate(id(P), 2) & cs = conc([s, t])
    let m = over_p(
        &["s", "t", "k", "q", "it", "cs"],
        vec![
            bin(BinaryOp::Member, v("s"), un(UnaryOp::Seq, v("P"))),
            bin(
                BinaryOp::Eq,
                v("t"),
                bin(
                    BinaryOp::Append,
                    bin(
                        BinaryOp::Concat,
                        un(UnaryOp::Rev, v("s")),
                        un(UnaryOp::Tail, v("s")),
                    ),
                    un(UnaryOp::First, v("s")),
                ),
            ),
            bin(
                BinaryOp::Eq,
                v("k"),
                un(UnaryOp::Size, bin(BinaryOp::TakeFront, v("s"), int(2))),
            ),
            bin(
                BinaryOp::Eq,
                v("q"),
                e(ExprKind::Call(
                    Builtin::Prj1,
                    vec![v("P"), c(BuiltinConstant::Bool)],
                )),
            ),
            bin(
                BinaryOp::Eq,
                v("it"),
                e(ExprKind::Call(
                    Builtin::Iterate,
                    vec![un(UnaryOp::Id, v("P")), int(2)],
                )),
            ),
            bin(
                BinaryOp::Eq,
                v("cs"),
                un(UnaryOp::Conc, e(ExprKind::SeqEnum(vec![v("s"), v("t")]))),
            ),
        ],
    );
    let t = check(&m).unwrap();
    let p = || Type::Given(0);
    let seq_p = pow(pair(Type::Int, p()));
    assert_eq!(t.variables[1], seq_p);
    assert_eq!(t.variables[2], Type::Int);
    assert_eq!(t.variables[3], pow(pair(pair(p(), Type::Bool), p())));
    assert_eq!(t.variables[4], pow(pair(p(), p())));
    assert_eq!(t.variables[5], seq_p);
}

#[test]
fn substitutions_type_their_parts() {
    // INITIALISATION x :: P ; VAR tmp IN tmp := x ; y := {tmp} END ;
    //   CASE n OF EITHER 1 THEN skip OR 2, 3 THEN n := n + 1 END ;
    //   n : (n > n$0)
    let mut m = over_p(
        &["x", "y", "n"],
        vec![bin(BinaryOp::Member, v("n"), c(BuiltinConstant::Nat))],
    );
    let var = s(SubstKind::Var(
        ids(&["tmp"]),
        Box::new(s(SubstKind::Sequence(vec![
            assign("tmp", v("x")),
            assign("y", set(vec![v("tmp")])),
        ]))),
    ));
    let case = s(SubstKind::Case(
        v("n"),
        vec![
            (vec![int(1)], s(SubstKind::Skip)),
            (
                vec![int(2), int(3)],
                assign("n", bin(BinaryOp::Add, v("n"), int(1))),
            ),
        ],
        None,
    ));
    let such_that = s(SubstKind::BecomesSuchThat(
        ids(&["n"]),
        bin(BinaryOp::Gt, v("n"), v("n$0")),
    ));
    m.initialisation = Some(s(SubstKind::Sequence(vec![
        s(SubstKind::BecomesElementOf(ids(&["x"]), v("P"))),
        var,
        case,
        such_that,
    ])));
    let t = check(&m).unwrap();
    assert_eq!(
        t.variables,
        vec![Type::Given(0), pow(Type::Given(0)), Type::Int]
    );
    // A CASE value of the wrong type is reported.
    let SubstKind::Sequence(parts) = &mut m.initialisation.as_mut().unwrap().kind else {
        unreachable!()
    };
    let SubstKind::Case(_, branches, _) = &mut parts[2].kind else {
        unreachable!()
    };
    branches[0].0 = vec![e(ExprKind::True)];
    assert_eq!(messages(&m)[0], "expected INTEGER, found BOOL");
}

#[test]
fn undecidable_star_is_reported() {
    // !(a, b).(a * b = a * b => 1 = 1): nothing tells integers from sets.
    let m = over_p(
        &["x"],
        vec![
            bin(BinaryOp::Member, v("x"), v("P")),
            e(ExprKind::Quantifier(
                Quantifier::ForAll,
                ids(&["a", "b"]),
                Box::new(bin(
                    BinaryOp::Implies,
                    bin(
                        BinaryOp::Eq,
                        bin(BinaryOp::Mul, v("a"), v("b")),
                        bin(BinaryOp::Mul, v("a"), v("b")),
                    ),
                    bin(BinaryOp::Eq, int(1), int(1)),
                )),
            )),
        ],
    );
    let msgs = messages(&m);
    assert_eq!(
        msgs[0],
        "cannot tell whether `*` multiplies integers or builds a cartesian product"
    );
}

#[test]
fn infinite_type_is_an_error_not_a_hang() {
    let m = over_p(&["x"], vec![bin(BinaryOp::Member, v("x"), v("x"))]);
    assert!(messages(&m)[0].contains("would have to contain itself"));
}

#[test]
fn applying_a_non_function_is_reported() {
    let m = over_p(
        &["x"],
        vec![
            bin(BinaryOp::Member, v("x"), v("P")),
            bin(
                BinaryOp::Eq,
                e(ExprKind::Apply(Box::new(v("x")), vec![int(1)])),
                int(1),
            ),
        ],
    );
    assert_eq!(messages(&m)[0], "expected a function, found P");
}

#[test]
fn initialisation_assigns_every_variable() {
    let mut m = login();
    m.initialisation = None;
    assert_eq!(
        messages(&m)[0],
        "the machine has variables (`active`, ...) but no INITIALISATION"
    );
    // An INITIALISATION that never assigns `active`.
    m.initialisation = Some(s(SubstKind::Skip));
    assert_eq!(messages(&m)[0], "variable `active` is not initialised");
    // IF without ELSE may assign it: the interpreter checks each path.
    m.initialisation = Some(s(SubstKind::If(
        vec![(
            e(ExprKind::True),
            assign("active", c(BuiltinConstant::EmptySet)),
        )],
        None,
    )));
    assert!(check(&m).is_ok());
}

#[test]
fn absurd_set_sizes_are_errors_not_allocations() {
    let m = login();
    let opts = CheckOptions {
        set_sizes: vec![("Session".into(), u32::MAX)],
        ..CheckOptions::default()
    };
    let errs = check_machine(&m, &opts).unwrap_err();
    assert!(
        errs[0]
            .message
            .starts_with("set `Session` would have size 4294967295"),
        "{errs:?}"
    );
    let opts = CheckOptions {
        default_set_size: 0,
        ..CheckOptions::default()
    };
    let errs = check_machine(&m, &opts).unwrap_err();
    assert_eq!(
        errs[0].message,
        "set `Session` would have size 0 (the default set size)"
    );
}

/// A small deterministic pseudo-random generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

const BINARY_OPS: [BinaryOp; 53] = {
    use BinaryOp::*;
    [
        Add,
        Minus,
        Mul,
        Div,
        Mod,
        Power,
        Interval,
        Union,
        Inter,
        Maplet,
        Relation,
        PartialFunction,
        TotalFunction,
        PartialInjection,
        TotalInjection,
        PartialSurjection,
        TotalSurjection,
        PartialBijection,
        TotalBijection,
        DomainRestriction,
        DomainSubtraction,
        RangeRestriction,
        RangeSubtraction,
        Override,
        DirectProduct,
        Composition,
        ParallelProduct,
        Append,
        Prepend,
        Concat,
        TakeFront,
        DropFront,
        Eq,
        Neq,
        Member,
        NotMember,
        Subset,
        StrictSubset,
        NotSubset,
        NotStrictSubset,
        Lt,
        Le,
        Gt,
        Ge,
        And,
        Or,
        Implies,
        Equiv,
        Eq,
        Member,
        Subset,
        Union,
        Maplet,
    ]
};

const UNARY_OPS: [UnaryOp; 34] = {
    use UnaryOp::*;
    [
        Minus,
        Not,
        Inverse,
        Card,
        Dom,
        Ran,
        Pow,
        Pow1,
        Fin,
        Fin1,
        GeneralUnion,
        GeneralInter,
        Min,
        Max,
        Id,
        Closure,
        Closure1,
        Seq,
        Seq1,
        Iseq,
        Iseq1,
        Perm,
        First,
        Last,
        Front,
        Tail,
        Size,
        Rev,
        Conc,
        Succ,
        Pred,
        Fnc,
        Rel,
        Dom,
    ]
};

/// A random, mostly ill-typed expression over the login machine's names.
fn random_expr(rng: &mut Rng, depth: u32) -> Expr {
    const NAMES: [&str; 6] = ["active", "Session", "x", "y", "nosuch", "active$0"];
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(5) {
            0 => int(rng.below(5) as i64),
            1 => c(BuiltinConstant::EmptySet),
            2 => c(BuiltinConstant::Nat),
            3 => e(ExprKind::True),
            _ => v(NAMES[rng.below(NAMES.len())]),
        };
    }
    let d = depth - 1;
    match rng.below(10) {
        0..=3 => bin(
            BINARY_OPS[rng.below(BINARY_OPS.len())],
            random_expr(rng, d),
            random_expr(rng, d),
        ),
        4..=5 => un(UNARY_OPS[rng.below(UNARY_OPS.len())], random_expr(rng, d)),
        6 => e(ExprKind::Apply(
            Box::new(random_expr(rng, d)),
            vec![random_expr(rng, d), random_expr(rng, d)],
        )),
        7 => e(ExprKind::Quantifier(
            Quantifier::Exists,
            ids(&["x", "y"]),
            Box::new(random_expr(rng, d)),
        )),
        8 => e(ExprKind::Comprehension(
            ids(&["x"]),
            Box::new(random_expr(rng, d)),
        )),
        _ => e(ExprKind::Image(
            Box::new(random_expr(rng, d)),
            Box::new(random_expr(rng, d)),
        )),
    }
}

/// Bad input never panics: random predicates in the invariant and in an
/// operation's guard are checked to an answer.
#[test]
fn random_predicates_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let mut m = login();
        let p = random_expr(&mut rng, 5);
        m.invariant = Some(bin(BinaryOp::And, m.invariant.take().unwrap(), p));
        let guard = random_expr(&mut rng, 4);
        m.operations.push(op(
            &[],
            "Random",
            &["x"],
            s(SubstKind::Select(vec![(guard, s(SubstKind::Skip))], None)),
        ));
        if let Err(errs) = check(&m) {
            assert!(!errs.is_empty() && errs.iter().all(|d| !d.message.is_empty()));
        }
    }
}
