//! Machines: clauses, definitions and their expansion, and error locations.

use crate::common;

use common::{assert_error_at, show, show_subst};
use orbit::diag::{Diagnostic, SourceFile};
use orbit::frontends::b::ast::{ExprKind, Machine, SetDecl};
use orbit::frontends::b::parse_machine;

fn parse(text: &str) -> Machine {
    let file = SourceFile::new("m.mch", text);
    match parse_machine(&file) {
        Ok(m) => m,
        Err(d) => panic!("{}", d.render(&file)),
    }
}

fn error(text: &str, line: usize, col: usize, message: &str) -> Diagnostic {
    let file = SourceFile::new("m.mch", text);
    match parse_machine(&file) {
        Ok(m) => panic!("expected an error, parsed {m:?}"),
        Err(d) => {
            assert_error_at(&d, &file, line, col, message);
            d
        }
    }
}

#[test]
fn clauses_in_any_order() {
    let m = parse(
        "MACHINE M
         INVARIANT x : NAT
         VARIABLES x
         CONCRETE_CONSTANTS c
         ABSTRACT_CONSTANTS d
         PROPERTIES c = 1 & d = 2
         CONSTRAINTS 1 = 1
         ASSERTIONS x >= 0; x < 10
         INITIALISATION x := c
         SETS S; T = {t1, t2}
         END",
    );
    assert_eq!(m.variables[0].name, "x");
    assert_eq!(m.constants.len(), 2);
    assert_eq!(m.assertions.len(), 2);
    assert!(m.constraints.is_some());
    assert!(matches!(&m.sets[1], SetDecl::Enumerated(n, els) if n.name == "T" && els.len() == 2));
}

#[test]
fn implementation_parses_like_a_machine() {
    let m = parse(
        "IMPLEMENTATION M_i REFINES M CONCRETE_VARIABLES x INVARIANT x : NAT INITIALISATION x := 0 END",
    );
    assert_eq!(
        m.kind,
        orbit::frontends::b::ast::ComponentKind::Implementation
    );
    assert_eq!(m.refines.unwrap().name, "M");
}

#[test]
fn operations_with_outputs_and_sequences() {
    let m = parse(
        "MACHINE M VARIABLES x OPERATIONS
           a, b <-- swap(p, q) = BEGIN a := q || b := p END;
           inc = x := x + 1; x := x + 1;
           r <-- get = r := x
         END",
    );
    let names: Vec<_> = m.operations.iter().map(|o| o.name.name.as_str()).collect();
    assert_eq!(names, ["swap", "inc", "get"]);
    assert_eq!(m.operations[0].outputs.len(), 2);
    assert_eq!(
        show_subst(&m.operations[1].body),
        "(Sequence (Assign [x] (Add x 1)) (Assign [x] (Add x 1)))"
    );
}

#[test]
fn a_call_with_outputs_after_a_semicolon_continues_the_sequence() {
    // `; r <-- get` is a call (no `=` follows it); `; r <-- get2 =` and
    // `; r, s <-- pair(i) =` start the next operation.
    let m = parse(
        "MACHINE M VARIABLES x OPERATIONS
           r <-- a = x := 1 ; r <-- get ; r, x <-- pair(1) ; r <-- m.get;
           r <-- get2 = r := x;
           r, s <-- pair(i) = r, s := i, x
         END",
    );
    let names: Vec<_> = m.operations.iter().map(|o| o.name.name.as_str()).collect();
    assert_eq!(names, ["a", "get2", "pair"]);
    assert_eq!(
        show_subst(&m.operations[0].body),
        "(Sequence (Assign [x] 1) (Call [r] get ) (Call [r x] pair 1) (Call [r] m.get ))"
    );
}

#[test]
fn definitions_expand_with_parenthesised_bodies_and_arguments() {
    let m = parse(
        "MACHINE M
         DEFINITIONS
           sq(v) == v * v;
           double == x + x;
           typing == x : NAT
         VARIABLES x
         INVARIANT typing & sq(x + 1) > 2 * double
         INITIALISATION x := 0
         END",
    );
    assert_eq!(
        show(m.invariant.as_ref().unwrap()),
        "(And (Member x Nat) (Gt (Mul (Add x 1) (Add x 1)) (Mul 2 (Add x x))))"
    );
    assert_eq!(m.definitions.len(), 3);
    assert_eq!(m.definitions[0].params[0].name, "v");
}

#[test]
fn definitions_may_use_later_definitions_and_substitution_bodies() {
    let m = parse(
        "MACHINE M
         DEFINITIONS
           Step == x := next(x) ; y := y + 1;
           next(v) == (v + 1) mod limit;
           limit == 5;
           SET_PREF_MAXINT == 127
         VARIABLES x, y
         INVARIANT x : NAT & y : NAT
         INITIALISATION x, y := 0, 0
         OPERATIONS go = Step
         END",
    );
    assert_eq!(m.definitions.len(), 4);
    assert_eq!(
        show_subst(&m.operations[0].body),
        "(Sequence (Assign [x] (Mod (Add x 1) 5)) (Assign [y] (Add y 1)))"
    );
}

#[test]
fn nested_uses_of_one_definition_are_not_recursion() {
    let m = parse("MACHINE M DEFINITIONS f(a) == a + 1 CONSTANTS c PROPERTIES c = f(f(1)) END");
    assert_eq!(
        show(m.properties.as_ref().unwrap()),
        "(Eq c (Add (Add 1 1) 1))"
    );
}

#[test]
fn scopes_and_goal() {
    let m = parse(
        "MACHINE M SETS S; T
         DEFINITIONS scope_S == 1..3; scope_T == 4; GOAL == x = 3
         VARIABLES x INVARIANT x : NAT INITIALISATION x := 0 END",
    );
    assert_eq!(m.scopes.len(), 2);
    assert_eq!(m.scopes[0].0.name, "S");
    assert_eq!(show(&m.scopes[0].1), "(Interval 1 3)");
    assert_eq!(show(&m.scopes[1].1), "4");
    assert_eq!(show(m.goal.as_ref().unwrap()), "(Eq x 3)");
    // With parameters GOAL is only a macro (ProB's B4MSecure test
    // generation: `GOAL(user, ...) == ...` used inside `#`).
    let m = parse(
        "MACHINE M DEFINITIONS GOAL(u) == (u = x)
         VARIABLES x INVARIANT x : NAT INITIALISATION x := 0 END",
    );
    assert!(m.goal.is_none());
}

#[test]
fn expanded_nodes_point_at_the_use_site() {
    let text = "MACHINE M DEFINITIONS two == 1 + 1 CONSTANTS c PROPERTIES c = two END";
    let m = parse(text);
    let ExprKind::Binary(_, _, rhs) = &m.properties.as_ref().unwrap().kind else {
        panic!()
    };
    assert_eq!(&text[rhs.span.start as usize..rhs.span.end as usize], "two");
}

#[test]
fn errors_in_definition_bodies_point_into_the_body() {
    error(
        "MACHINE M\nDEFINITIONS\n  bad == 1 +\nCONSTANTS c PROPERTIES c = 1 END",
        3,
        13,
        "expected an expression, found the end of the definition body",
    );
    error(
        "MACHINE M\nDEFINITIONS\n  half(v) == v / ;\n  ok == 1\nCONSTANTS c\nPROPERTIES c = half(4) END",
        3,
        17,
        "expected an expression, found the end of the definition body",
    );
}

#[test]
fn errors_from_expansions_name_the_use_site() {
    let text = "MACHINE M\nDEFINITIONS\n  inc(v) == v := v + 1\nVARIABLES x\nINVARIANT inc(x) = 1\nINITIALISATION x := 0\nEND";
    let d = error(
        text,
        3,
        15,
        "expected the end of the definition body, found `:=`",
    );
    assert!(
        d.notes.iter().any(|n| n.contains("used at m.mch:5:11")),
        "{:?}",
        d.notes
    );
}

#[test]
fn definition_errors() {
    error(
        "MACHINE M DEFINITIONS f == f + 1 CONSTANTS c PROPERTIES c = f END",
        1,
        28,
        "definition `f` is recursive",
    );
    error(
        "MACHINE M\nDEFINITIONS\n  a == b;\n  b == a\nCONSTANTS c PROPERTIES c = a END",
        4,
        8,
        "definition `a` is recursive",
    );
    error(
        "MACHINE M DEFINITIONS f(a, b) == a + b CONSTANTS c\nPROPERTIES c = f(1) END",
        2,
        16,
        "definition `f` takes 2 argument(s) but 1 were given",
    );
    error(
        "MACHINE M DEFINITIONS f(a) == a CONSTANTS c\nPROPERTIES c = f + 1 END",
        2,
        18,
        "expected `(` and 1 argument(s) for definition `f`, found `+`",
    );
    error(
        "MACHINE M DEFINITIONS\n  f == 1;\n  f == 2\nEND",
        3,
        3,
        "definition `f` is defined twice",
    );
    error(
        "MACHINE M DEFINITIONS\n  \"lib.def\";\n  f == 2\nEND",
        2,
        3,
        "not supported yet: definition file include \"lib.def\"",
    );
    error(
        "MACHINE M DEFINITIONS f == END",
        1,
        28,
        "expected a definition body, found `END`",
    );
}

#[test]
fn clause_errors() {
    let m = parse(
        "MACHINE M(n, S)\nSEES C\nUSES D\nINCLUDES a.N(1, {2}), P\nEXTENDS E\nPROMOTES a.op\nEND",
    );
    assert_eq!(m.params.len(), 2);
    assert_eq!(m.sees.len(), 2);
    assert_eq!(m.includes[0].prefix.as_deref(), Some("a"));
    assert_eq!(m.includes[0].name.name, "N");
    assert_eq!(m.includes[0].args.len(), 2);
    assert_eq!(m.includes[1].prefix, None);
    assert_eq!(m.extends[0].name.name, "E");
    assert_eq!(m.promotes[0].name, "a.op");
    let m =
        parse("IMPLEMENTATION M_i REFINES M\nLOCAL_OPERATIONS l = skip\nOPERATIONS l = skip\nEND");
    assert_eq!(m.local_operations[0].name.name, "l");
    error(
        "MACHINE M\nVARIABLES x\nVARIABLES y\nEND",
        3,
        1,
        "duplicate clause `VARIABLES`",
    );
    error(
        "MACHINE M\nVARIABLES x y\nEND",
        2,
        13,
        "expected a clause keyword or `END`, found `y`",
    );
    error(
        "MACHINE M\nVARIABLES card\nEND",
        2,
        11,
        "expected an identifier, found the built-in `card`",
    );
    error(
        "MACHINE M\nVARIABLES x\n",
        3,
        1,
        "expected a clause keyword or `END`, found end of file",
    );
    error(
        "MACHINE M END garbage",
        1,
        15,
        "expected end of file, found `garbage`",
    );
    error(
        "MACHIN M END",
        1,
        1,
        "expected `MACHINE`, `REFINEMENT` or `IMPLEMENTATION`, found `MACHIN`",
    );
    error(
        "MACHINE M\nVARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := 0\nOPERATIONS\n  op = PRE x > 0 THEN x := x - 1 END END;\nEND",
        6,
        41,
        "expected end of file, found `;`",
    );
    error(
        "MACHINE M\nOPERATIONS\n  op(x) == skip\nEND",
        3,
        9,
        "expected `=`, found `==`",
    );
    error(
        "MACHINE M\nSETS S = {a, b\nEND",
        3,
        1,
        "expected `,` or `}`, found `END`",
    );
    error("MACHINE M /* open\nEND", 1, 11, "unterminated comment");
}

#[test]
fn large_machines_parse_quickly() {
    let mut text = String::from(
        "MACHINE Big\nVARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := 0\nOPERATIONS\n",
    );
    let n = 5_000;
    for i in 0..n {
        let sep = if i + 1 < n { ";" } else { "" };
        text.push_str(&format!(
            "  op{i}(p) = PRE p : 1..10 & x < {i} THEN IF p > 5 THEN x := x + p ELSE x := {{x, p}} \\/ {{1}} END END{sep}\n"
        ));
    }
    text.push_str("END\n");
    let start = std::time::Instant::now();
    let m = parse(&text);
    assert_eq!(m.operations.len(), n);
    // A generous bound: this takes a few milliseconds.
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn spelling_variants_and_empty_definitions() {
    let m = parse("MACHINE M DEFINITIONS VARIABLES x INVARIANT x : NAT INITIALIZATION x := 0 END");
    assert!(m.initialisation.is_some());
    assert!(m.definitions.is_empty());
    let m = parse("MODEL M CONSTANTS c PROPERTIES c = 1 END");
    assert_eq!(m.kind, orbit::frontends::b::ast::ComponentKind::Machine);
    error(
        "MACHINE M VARIABLES x INVARIANT x : NAT\nINITIALISATION x := 0\nINITIALIZATION x := 1 END",
        3,
        1,
        "duplicate clause `INITIALIZATION`",
    );
}

#[test]
fn unsupported_constructs_are_named() {
    error(
        "MACHINE M CONSTANTS c\nPROPERTIES c : REAL END",
        2,
        16,
        "not supported yet: real numbers",
    );
    error(
        "MACHINE M\nFREETYPES\n  List(T) = nil, cons(T * List)\nEND",
        3,
        7,
        "not supported yet: the free type `List` with type parameters",
    );
}

/// ProB's named formulas (`EXPRESSIONS`, `PREDICATES`) are parsed and
/// their names kept; a malformed one is an error where it is malformed.
#[test]
fn named_formulas_parse_and_keep_their_names() {
    let m = parse(
        "MACHINE M\nVARIABLES x\nEXPRESSIONS\n  e == x + 1;\n  f == e * 2\n\
         PREDICATES p == x > 0\nINVARIANT x : NAT\nEND",
    );
    let names: Vec<&str> = m.named_formulas.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["e", "f", "p"]);
    error(
        "MACHINE M\nEXPRESSIONS\n  e = 1\nEND",
        3,
        5,
        "expected `==`",
    );
}

/// A free type's name and its constructors' names and arguments, as parsed.
type FreeTypeShape = (String, Vec<(String, Option<String>)>);

#[test]
fn free_types_parse_with_their_constructors() {
    let m = parse(
        "MACHINE M\nSETS S\nFREETYPES\n  List = nil, cons(INTEGER * List);\n  Colour = red, green\nVARIABLES x\nEND",
    );
    let shapes: Vec<FreeTypeShape> = m
        .freetypes
        .iter()
        .map(|f| {
            let constructors = f
                .constructors
                .iter()
                .map(|c| (c.name.name.clone(), c.arg.as_ref().map(show)))
                .collect();
            (f.name.name.clone(), constructors)
        })
        .collect();
    assert_eq!(
        shapes,
        vec![
            (
                "List".to_string(),
                vec![
                    ("nil".to_string(), None),
                    ("cons".to_string(), Some("(Mul Integer List)".to_string())),
                ]
            ),
            (
                "Colour".to_string(),
                vec![("red".to_string(), None), ("green".to_string(), None)]
            ),
        ]
    );
    assert_eq!(m.sets.len(), 1);
    assert_eq!(m.variables.len(), 1);
    // A missing `=` after the type's name.
    error(
        "MACHINE M\nFREETYPES\n  List nil\nEND",
        3,
        8,
        "expected `=` and the constructors of the free type",
    );
}

#[test]
fn rendered_errors_show_the_source_line_and_a_label() {
    let text = "MACHINE M\nVARIABLES x\nINVARIANT x : NAT y : NAT\nEND";
    let d = error(text, 3, 19, "expected a clause keyword or `END`, found `y`");
    let rendered = d.render(&SourceFile::new("m.mch", text));
    assert!(
        rendered.contains("3 | INVARIANT x : NAT y : NAT"),
        "{rendered}"
    );
    assert!(
        rendered.contains("  |                   ^ expected a clause keyword or `END`"),
        "{rendered}"
    );
    assert!(
        rendered.contains("is an operator such as `&` or `,` missing?"),
        "{rendered}"
    );
}

#[test]
fn exponential_definition_expansion_is_cut_off() {
    // Each definition doubles the size of the previous one: 2^40 tokens.
    let mut text = String::from("MACHINE M\nDEFINITIONS\n  d0 == 1");
    for i in 1..=40 {
        text.push_str(&format!(";\n  d{i} == d{} + d{}", i - 1, i - 1));
    }
    text.push_str("\nCONSTANTS c\nPROPERTIES c = d40\nEND\n");
    let start = std::time::Instant::now();
    error(
        &text,
        22,
        10,
        "definitions expand to more than 5000000 tokens (at this use of `d18`)",
    );
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}
