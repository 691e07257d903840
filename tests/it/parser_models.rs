//! Parses the example machines of the source papers (copied into
//! tests/parser_inputs/) and checks the shape of the result.

use orbit::diag::SourceFile;
use orbit::frontends::b::ast::{BinaryOp, ComponentKind, ExprKind, Machine, SetDecl, SubstKind};
use orbit::frontends::b::parse_machine;

fn parse(name: &str, text: &str) -> Machine {
    let file = SourceFile::new(name, text);
    match parse_machine(&file) {
        Ok(m) => m,
        Err(d) => panic!("{}", d.render(&file)),
    }
}

macro_rules! input {
    ($file:literal) => {
        parse($file, include_str!(concat!("parser_inputs/", $file)))
    };
}

fn names<'a>(ids: impl IntoIterator<Item = &'a orbit::frontends::b::ast::Ident>) -> Vec<&'a str> {
    ids.into_iter().map(|i| i.name.as_str()).collect()
}

#[test]
fn scheduler0() {
    let m = input!("scheduler0.mch");
    assert_eq!(m.kind, ComponentKind::Machine);
    assert_eq!(m.name.name, "scheduler0");
    assert_eq!(m.sets.len(), 2);
    assert!(matches!(&m.sets[0], SetDecl::Deferred(s) if s.name == "PROC"));
    assert!(
        matches!(&m.sets[1], SetDecl::Enumerated(s, els) if s.name == "STATE" && els.len() == 3)
    );
    assert_eq!(names(&m.variables), ["proc", "pst"]);
    assert_eq!(
        names(m.operations.iter().map(|o| &o.name)),
        ["new", "del", "ready", "enter", "leave"]
    );
    assert_eq!(m.scopes.len(), 1);
    assert_eq!(m.scopes[0].0.name, "PROC");
    assert!(matches!(
        m.scopes[0].1.kind,
        ExprKind::Binary(BinaryOp::Interval, _, _)
    ));
    assert_eq!(m.definitions.len(), 5);
    assert!(m.goal.is_none());
    let init = m.initialisation.as_ref().unwrap();
    assert!(matches!(&init.kind, SubstKind::Parallel(items) if items.len() == 2));
}

#[test]
fn scheduler1_is_a_refinement() {
    let m = input!("scheduler1.ref");
    assert_eq!(m.kind, ComponentKind::Refinement);
    assert_eq!(m.refines.as_ref().unwrap().name, "scheduler0");
    assert_eq!(m.variables.len(), 5);
    assert_eq!(m.operations.len(), 5);
}

#[test]
fn russian_postal_puzzle_has_a_goal() {
    let m = input!("RussianPostalPuzzle.mch");
    let goal = m.goal.as_ref().unwrap();
    assert!(matches!(goal.kind, ExprKind::Binary(BinaryOp::And, _, _)));
    assert_eq!(m.operations.len(), 4);
    assert_eq!(names(&m.operations[3].params), ["from", "to"]);
}

#[test]
fn usb_has_all_its_operations() {
    let m = input!("USB.mch");
    assert_eq!(m.operations.len(), 8 + 30);
    assert_eq!(m.constants.len(), 1);
    assert!(m.properties.is_some());
    assert_eq!(m.scopes[0].0.name, "TRANSFERS");
}

#[test]
fn token_ring_dining_towns() {
    let m = input!("TokenRing.mch");
    assert_eq!(m.operations.len(), 4);
    assert!(m.operations[0].params.is_empty());
    let m = input!("Dining.mch");
    assert_eq!(m.scopes.len(), 2);
    let m = input!("Towns.mch");
    assert_eq!(names(&m.params), ["TOWN"]);
    assert_eq!(names(&m.operations[1].outputs), ["ans"]);
}

#[test]
fn tictactoe_definitions_are_expanded() {
    let m = input!("TicTacToe_Sym.mch");
    assert_eq!(m.definitions.len(), 5);
    assert!(matches!(
        m.goal.as_ref().unwrap().kind,
        ExprKind::Quantifier(..)
    ));
    let pre = match &m.operations[0].body.kind {
        SubstKind::Precondition(p, _) => p,
        other => panic!("{other:?}"),
    };
    // `turn = ox & win(ox)`: `win` expands to a disjunction of quantifiers.
    let ExprKind::Binary(BinaryOp::And, _, rhs) = &pre.kind else {
        panic!("{pre:?}")
    };
    assert!(
        matches!(rhs.kind, ExprKind::Binary(BinaryOp::Or, _, _)),
        "{rhs:?}"
    );
    let m = input!("TicTacToe_SimplerSym.mch");
    assert_eq!(m.operations.len(), 4);
}

#[test]
fn small_machines() {
    for (name, text) in [
        ("Course.mch", include_str!("parser_inputs/Course.mch")),
        (
            "Unreachable.mch",
            include_str!("parser_inputs/Unreachable.mch"),
        ),
        ("Personnel.mch", include_str!("parser_inputs/Personnel.mch")),
        (
            "LoginVerySimple.mch",
            include_str!("parser_inputs/LoginVerySimple.mch"),
        ),
        (
            "SymCounterEx.mch",
            include_str!("parser_inputs/SymCounterEx.mch"),
        ),
        (
            "WikiConstants.mch",
            include_str!("parser_inputs/WikiConstants.mch"),
        ),
        (
            "WikiPartition.mch",
            include_str!("parser_inputs/WikiPartition.mch"),
        ),
    ] {
        parse(name, text);
    }
    let m = input!("Unreachable.mch");
    assert_eq!(m.operations.len(), 2);
    let m = input!("LoginVerySimple.mch");
    assert_eq!(names(&m.operations[0].outputs), ["res"]);
    let m = input!("SymCounterEx.mch");
    assert!(matches!(
        m.initialisation.unwrap().kind,
        SubstKind::BecomesSuchThat(..)
    ));
    let m = input!("WikiConstants.mch");
    assert_eq!(m.constants.len(), 4);
}

#[test]
fn kitchen_sink_uses_most_of_the_syntax() {
    let m = input!("KitchenSink.mch");
    assert_eq!(names(&m.params), ["ITEM"]);
    assert!(m.constraints.is_some());
    assert_eq!(m.assertions.len(), 4);
    assert_eq!(m.definitions.len(), 10);
    assert_eq!(m.scopes[0].0.name, "TOKEN");
    assert!(m.goal.is_some());
    assert_eq!(
        names(m.operations.iter().map(|o| &o.name)),
        [
            "tick", "put", "count", "peek", "recolour", "shuffle", "check"
        ]
    );
    assert_eq!(names(&m.operations[3].outputs), ["ok", "c"]);
    // `Tick` expands to a sequence inside the SELECT.
    let SubstKind::Select(branches, None) = &m.operations[0].body.kind else {
        panic!("{:?}", m.operations[0].body)
    };
    assert!(matches!(&branches[0].1.kind, SubstKind::Sequence(items) if items.len() == 2));
}
