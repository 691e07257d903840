//! Substitutions: every form, `;` versus `||`, and their errors.

use crate::common;

use common::{assert_error_at, show_subst};
use orbit::diag::SourceFile;
use orbit::frontends::b::parse_substitution;

fn parse(text: &str) -> String {
    let file = SourceFile::new("s.b", text);
    match parse_substitution(&file) {
        Ok(s) => show_subst(&s),
        Err(d) => panic!("{}", d.render(&file)),
    }
}

fn error(text: &str, line: usize, col: usize, message: &str) {
    let file = SourceFile::new("s.b", text);
    match parse_substitution(&file) {
        Ok(s) => panic!("expected an error, parsed {}", show_subst(&s)),
        Err(d) => assert_error_at(&d, &file, line, col, message),
    }
}

#[test]
fn assignments() {
    assert_eq!(parse("x := 1"), "(Assign [x] 1)");
    assert_eq!(parse("x, y := 1, y + 1"), "(Assign [x y] 1 (Add y 1))");
    assert_eq!(parse("f(x) := e"), "(Assign [f(x)] e)");
    assert_eq!(parse("f(x, y) := e"), "(Assign [f(x y)] e)");
    assert_eq!(parse("x :: S"), "(BecomesElementOf [x] S)");
    assert_eq!(parse("x, y :: S"), "(BecomesElementOf [x y] S)");
    assert_eq!(parse("x : (x > x$0)"), "(BecomesSuchThat [x] (Gt x x$0))");
    assert_eq!(parse("skip"), "skip");
}

#[test]
fn sequence_and_parallel_share_a_priority_and_associate_left() {
    assert_eq!(
        parse("a := 1 || b := 2 ; c := 3"),
        "(Sequence (Parallel (Assign [a] 1) (Assign [b] 2)) (Assign [c] 3))"
    );
    assert_eq!(
        parse("a := 1 ; b := 2 || c := 3"),
        "(Parallel (Sequence (Assign [a] 1) (Assign [b] 2)) (Assign [c] 3))"
    );
    assert_eq!(
        parse("a := 1 || b := 2 ; c := 3 || d := 4"),
        "(Parallel (Sequence (Parallel (Assign [a] 1) (Assign [b] 2)) (Assign [c] 3)) (Assign [d] 4))"
    );
    assert_eq!(
        parse("BEGIN a := 1 ; b := 2 END || c := 3"),
        "(Parallel (Block (Sequence (Assign [a] 1) (Assign [b] 2))) (Assign [c] 3))"
    );
    assert_eq!(
        parse("a := 1 ; b := 2 ; c := 3"),
        "(Sequence (Assign [a] 1) (Assign [b] 2) (Assign [c] 3))"
    );
    assert_eq!(parse("a := (r ; s)"), "(Assign [a] (Composition r s))");
}

#[test]
fn blocks_and_guards() {
    assert_eq!(parse("BEGIN x := 1 END"), "(Block (Assign [x] 1))");
    assert_eq!(
        parse("PRE x > 0 THEN x := x - 1 END"),
        "(Pre (Gt x 0) (Assign [x] (Minus x 1)))"
    );
    assert_eq!(
        parse("ASSERT x > 0 THEN skip END"),
        "(Assert (Gt x 0) skip)"
    );
    assert_eq!(
        parse("WHEN x > 0 THEN skip END"),
        "(Select ((Gt x 0) skip))"
    );
    assert_eq!(
        parse("SELECT x = 1 THEN y := 1 WHEN x = 2 THEN y := 2 ELSE y := 3 END"),
        "(Select ((Eq x 1) (Assign [y] 1)) ((Eq x 2) (Assign [y] 2)) (Else (Assign [y] 3)))"
    );
    assert_eq!(parse("IF a THEN skip END"), "(If (a skip))");
    assert_eq!(
        parse("IF a THEN x := 1 ELSIF b THEN x := 2 ELSE x := 3 END"),
        "(If (a (Assign [x] 1)) (b (Assign [x] 2)) (Else (Assign [x] 3)))"
    );
}

#[test]
fn case_choice_any_let_var() {
    assert_eq!(
        parse("CASE x OF EITHER 1, 2 THEN y := 1 OR 3 THEN y := 2 ELSE skip END END"),
        "(Case x ([1 2] (Assign [y] 1)) ([3] (Assign [y] 2)) (Else skip))"
    );
    assert_eq!(
        parse("CHOICE x := 1 OR x := 2 OR skip END"),
        "(Choice (Assign [x] 1) (Assign [x] 2) skip)"
    );
    assert_eq!(
        parse("ANY a, b WHERE a : S & b : S THEN x := a END"),
        "(Any [a b] (And (Member a S) (Member b S)) (Assign [x] a))"
    );
    assert_eq!(
        parse("LET a BE a = 1 IN x := a END"),
        "(Let [a] (Eq a 1) (Assign [x] a))"
    );
    assert_eq!(
        parse("VAR t IN t := x ; x := y ; y := t END"),
        "(Var [t] (Sequence (Assign [t] x) (Assign [x] y) (Assign [y] t)))"
    );
}

#[test]
fn while_loops_and_operation_calls() {
    assert_eq!(
        parse("WHILE x > 0 DO x := x - 1 INVARIANT x : NAT VARIANT x END"),
        "(While (Gt x 0) (Assign [x] (Minus x 1)) (Member x Nat) x)"
    );
    assert_eq!(parse("r <-- op(x)"), "(Call [r] op x)");
    assert_eq!(parse("r, s <-- m.op"), "(Call [r s] m.op )");
    assert_eq!(
        parse("x := 1 ||\n  op(2)"),
        "(Parallel (Assign [x] 1) (Call [] op 2))"
    );
    assert_eq!(
        parse("m.reset ; skip"),
        "(Sequence (Call [] m.reset ) skip)"
    );
    error(
        "WHILE x > 0 DO skip VARIANT x END",
        1,
        21,
        "expected `INVARIANT`, found `VARIANT`",
    );
    error(
        "f(1) <-- op",
        1,
        1,
        "only variables can be assigned with `<--`",
    );
}

#[test]
fn errors() {
    error(
        "IF a THEN x := 1",
        1,
        17,
        "expected `END`, found end of file",
    );
    error(
        "PRE a THEN skip\nEND END",
        2,
        5,
        "expected end of file, found `END`",
    );
    error(
        "PRE x > 0 ELSE skip END",
        1,
        11,
        "expected `THEN`, found `ELSE`",
    );
    error("x = 1", 1, 3, "expected `:=`, `::` or `:`, found `=`");
    error(
        "x, y := 1",
        1,
        6,
        "2 variable(s) assigned but 1 value(s) given",
    );
    error(
        "f(x) :: S",
        1,
        1,
        "only variables can be assigned with `::`",
    );
    error(
        "x := 1 ;",
        1,
        9,
        "expected a substitution, found end of file",
    );
    error(
        "BEGIN THEN END",
        1,
        7,
        "expected a substitution, found `THEN`",
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 5_000;
    for (open, middle, close) in [
        ("BEGIN ", "skip", " END"),
        ("IF a THEN ", "skip", " END"),
        ("PRE a THEN ", "skip", " END"),
        ("ANY x WHERE x : S THEN ", "skip", " END"),
        ("CHOICE ", "skip", " END"),
    ] {
        let text = format!("{}{}{}", open.repeat(n), middle, close.repeat(n));
        let d = parse_substitution(&SourceFile::new("s.b", text)).unwrap_err();
        assert!(
            d.message.contains("nesting too deep"),
            "{open}: {}",
            d.message
        );
    }
}
