//! Inferred types of names, operators, binders and substitutions.

use super::*;

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
