//! Error messages and the rules they enforce.

use super::*;

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
fn star_mismatch_points_at_the_operand() {
    // n : NAT & n * active = n: `active` is a set, `*` is a product of integers.
    let times = bin(BinaryOp::Mul, v("n"), v("active"));
    let ExprKind::Binary(_, _, active) = &times.kind else {
        unreachable!()
    };
    let active_span = active.span;
    let m = over_p(
        &["n", "active"],
        vec![
            bin(BinaryOp::Member, v("n"), c(BuiltinConstant::Nat)),
            bin(BinaryOp::Subset, v("active"), v("P")),
            bin(BinaryOp::Eq, times, v("n")),
        ],
    );
    let errs = check(&m).unwrap_err();
    assert_eq!(errs[0].message, "expected INTEGER, found POW(P)");
    assert_eq!(errs[0].span, active_span);
}
