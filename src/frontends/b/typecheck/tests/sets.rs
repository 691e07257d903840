//! Numbering and sizing of given sets.

use super::*;

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
