//! The type checker on whole machines parsed from B source: the machines of
//! Appendix B of the graph-canonicalisation thesis, the permutation-flooding
//! paper and the ProB wiki (copied to `tests/typecheck_machines/`), and
//! error messages with their file:line:column.

use orbit::diag::SourceFile;
use orbit::frontends::b::parser::parse_machine;
use orbit::frontends::b::typecheck::{CheckOptions, MachineTypes, check_machine, type_to_string};
use orbit::frontends::b::types::Type;

const SCHEDULER0: &str = include_str!("typecheck_machines/scheduler0.mch");
const SCHEDULER1: &str = include_str!("typecheck_machines/scheduler1.mch");
const POSTAL: &str = include_str!("typecheck_machines/RussianPostalPuzzle.mch");
const USB: &str = include_str!("typecheck_machines/USB.mch");
const TOKEN_RING: &str = include_str!("typecheck_machines/TokenRing.mch");
const DINING: &str = include_str!("typecheck_machines/Dining.mch");
const TOWNS: &str = include_str!("typecheck_machines/Towns.mch");
const TICTACTOE: &str = include_str!("typecheck_machines/TicTacToe_SimplerSym.mch");
const LOGIN: &str = include_str!("typecheck_machines/LoginVerySimple.mch");
const SYM_COUNTER: &str = include_str!("typecheck_machines/SymCounterEx.mch");
const WIKI_CONSTANTS: &str = include_str!("typecheck_machines/wiki_constants.mch");
const WIKI_PARTITION: &str = include_str!("typecheck_machines/wiki_partition.mch");

fn check_with(text: &str, options: &CheckOptions) -> Result<MachineTypes, String> {
    let file = SourceFile::new("m.mch", text);
    let machine = parse_machine(&file).map_err(|d| format!("parse error: {}", d.render(&file)))?;
    check_machine(&machine, options).map_err(|ds| {
        ds.iter()
            .map(|d| d.render(&file))
            .collect::<Vec<_>>()
            .join("")
    })
}

fn check(text: &str) -> MachineTypes {
    check_with(text, &CheckOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The rendered errors of an ill-typed machine.
fn errors(text: &str) -> String {
    match check_with(text, &CheckOptions::default()) {
        Ok(_) => panic!("expected a type error"),
        Err(e) => {
            assert!(!e.starts_with("parse error"), "{e}");
            e
        }
    }
}

/// Types in B notation, for compact comparisons.
fn shown(t: &MachineTypes, types: &[Type]) -> Vec<String> {
    let names = t.set_names();
    types.iter().map(|ty| type_to_string(ty, &names)).collect()
}

#[test]
fn scheduler0() {
    let t = check(SCHEDULER0);
    assert_eq!(t.given_sets[0].name, "PROC");
    assert_eq!(
        t.given_sets[0].elements,
        vec!["PROC1", "PROC2", "PROC3", "PROC4", "PROC5"]
    );
    assert_eq!(t.given_sets[1].elements, vec!["idle", "ready", "active"]);
    assert!(!t.given_sets[1].deferred);
    assert_eq!(
        shown(&t, &t.variables),
        vec!["POW(PROC)", "POW(PROC*STATE)"]
    );
    for op in &t.operations {
        assert_eq!(shown(&t, &op.params), vec!["PROC"]);
    }
}

#[test]
fn scheduler1() {
    let t = check(SCHEDULER1);
    assert_eq!(
        shown(&t, &t.variables),
        vec![
            "POW(PROC)",
            "POW(INTEGER*PROC)",
            "PROC",
            "BOOL",
            "POW(PROC)"
        ]
    );
}

#[test]
fn russian_postal_puzzle() {
    let t = check(POSTAL);
    assert_eq!(t.given_sets[0].elements.len(), 3);
    assert_eq!(
        shown(&t, &t.variables),
        vec![
            "POW(KeyIDs)",
            "PERSONS",
            "POW(KeyIDs)",
            "POW(PERSONS*POW(KeyIDs))",
            "BOOL"
        ]
    );
    assert_eq!(
        shown(&t, &t.operations[0].params),
        vec!["KeyIDs", "PERSONS"]
    );
    assert_eq!(
        shown(&t, &t.operations[3].params),
        vec!["PERSONS", "PERSONS"]
    );
}

#[test]
fn usb() {
    let t = check(USB);
    assert_eq!(t.given_sets[1].name, "TRANSFERS");
    assert_eq!(t.given_sets[1].elements.len(), 2);
    assert_eq!(shown(&t, &t.constants), vec!["POW(INTEGER)"]);
    assert_eq!(
        shown(&t, &t.variables),
        vec![
            "POW(TRANSFERS)",
            "POW(TRANSFERS*USB_TRANSFER_TYPE)",
            "POW(TRANSFERS*INTEGER)",
            "POW(TRANSFERS*BOOL)"
        ]
    );
    assert_eq!(t.operations.len(), 12);
}

#[test]
fn token_ring() {
    let t = check(TOKEN_RING);
    assert_eq!(t.given_sets[0].elements.len(), 5);
    assert_eq!(shown(&t, &t.constants), vec!["POW(Servers*Servers)"]);
    assert_eq!(
        shown(&t, &t.variables),
        vec!["Servers", "POW(Servers)", "POW(Servers)"]
    );
}

#[test]
fn dining() {
    let t = check(DINING);
    assert_eq!(
        shown(&t, &t.constants),
        vec!["POW(Phil*Forks)", "POW(Phil*Forks)"]
    );
    assert_eq!(shown(&t, &t.variables), vec!["POW(Forks*Phil)"]);
    assert_eq!(shown(&t, &t.operations[2].params), vec!["Phil", "Forks"]);
    // The bound `pp` and `xx` are recorded.
    let mut bound: Vec<String> = shown(&t, &t.bound.values().cloned().collect::<Vec<_>>());
    bound.sort();
    assert_eq!(bound, vec!["Forks", "Phil"]);
}

#[test]
fn towns_with_a_set_parameter() {
    let t = check(TOWNS);
    assert_eq!(t.given_sets[0].name, "TOWN");
    assert!(t.given_sets[0].deferred);
    assert_eq!(t.given_sets[0].elements, vec!["TOWN1", "TOWN2"]);
    assert_eq!(shown(&t, &t.variables), vec!["POW(TOWN*TOWN)"]);
    assert_eq!(shown(&t, &t.operations[1].outputs), vec!["ANSWER"]);
    let opts = CheckOptions {
        set_sizes: vec![("TOWN".into(), 4)],
        ..CheckOptions::default()
    };
    assert_eq!(
        check_with(TOWNS, &opts).unwrap().given_sets[0]
            .elements
            .len(),
        4
    );
}

#[test]
fn tictactoe_with_definitions_and_card_sizes() {
    let t = check(TICTACTOE);
    assert_eq!(t.given_sets[1].elements, vec!["Rows1", "Rows2", "Rows3"]);
    assert_eq!(t.given_sets[2].elements.len(), 3);
    assert_eq!(shown(&t, &t.constants), vec!["Rows", "Cols", "POW(NC*NC)"]);
    assert_eq!(shown(&t, &t.variables), vec!["NC", "POW(Rows*Cols*NC)"]);
    assert_eq!(
        shown(&t, &t.operations[3].params),
        vec!["NC", "Rows", "Cols"]
    );
}

#[test]
fn permutation_flooding_and_wiki_examples() {
    let t = check(LOGIN);
    assert_eq!(shown(&t, &t.operations[0].outputs), vec!["Session"]);
    let t = check(SYM_COUNTER);
    assert_eq!(shown(&t, &t.variables), vec!["POW(S)"]);
    let t = check(WIKI_CONSTANTS);
    assert_eq!(t.given_sets[0].elements.len(), 6);
    assert_eq!(shown(&t, &t.constants), vec!["D", "D", "D", "D"]);
    let t = check(WIKI_PARTITION);
    assert_eq!(shown(&t, &t.constants), vec!["POW(D)", "POW(D)"]);
}

#[test]
fn integer_bounds_default_to_prob_and_can_be_overridden() {
    let t = check(LOGIN);
    assert_eq!((t.maxint, t.minint), (3, -1));
    let opts = CheckOptions {
        maxint: Some(255),
        minint: Some(-256),
        ..CheckOptions::default()
    };
    let t = check_with(LOGIN, &opts).unwrap();
    assert_eq!((t.maxint, t.minint), (255, -256));
}

// ---- errors, with the locations users see ----

#[test]
fn set_minus_element_as_in_the_thesis_transcription() {
    // Appendix B.3 as printed: `padlocks := padlocks - keyid`.
    let text = POSTAL.replace(
        "padlocks := padlocks - {keyid}",
        "padlocks := padlocks - keyid",
    );
    let e = errors(&text);
    assert!(
        e.starts_with("error: expected POW(KeyIDs), found KeyIDs\n"),
        "{e}"
    );
    assert!(e.contains("--> m.mch:38:33"), "{e}");
}

#[test]
fn union_with_element_as_in_the_thesis_transcription() {
    // Appendix B.1 as printed: `proc := proc \/ p`.
    let text = SCHEDULER0.replace("proc := proc \\/ {p}", "proc := proc \\/ p");
    let e = errors(&text);
    assert!(
        e.starts_with("error: expected POW(PROC), found PROC\n"),
        "{e}"
    );
    assert!(e.contains("--> m.mch:21:44"), "{e}");
}

#[test]
fn misspelt_variable_gets_a_suggestion() {
    // Appendix B.2 as printed: `idlest` for `idleset`.
    let text = SCHEDULER1.replace(
        "THEN idleset := idleset \\/ {p} || activef",
        "THEN idlest := idlest \\/ {p} || activef",
    );
    let e = errors(&text);
    assert!(e.starts_with("error: unknown identifier `idlest`\n"), "{e}");
    assert!(e.contains("did you mean `idleset`?"), "{e}");
    assert!(e.contains("--> m.mch:40:10"), "{e}");
}

#[test]
fn undeclared_set_as_in_tictactoe_sym() {
    let text = TICTACTOE.replace(
        "board : Rows * Cols +-> NC",
        "board : RowCol * Pos * Pos +-> NC",
    );
    let e = errors(&text);
    assert!(e.starts_with("error: unknown identifier `RowCol`\n"), "{e}");
    assert!(e.contains("error: unknown identifier `Pos`\n"), "{e}");
}

#[test]
fn variable_read_in_properties() {
    let text = TOKEN_RING.replace(
        "PROPERTIES next : Servers --> Servers",
        "PROPERTIES next : Servers --> Servers & token = token",
    );
    let e = errors(&text);
    assert!(
        e.starts_with("error: variable `token` cannot be used in PROPERTIES\n"),
        "{e}"
    );
    assert!(e.contains("--> m.mch:8:41"), "{e}");
    // Reported once, not at every use.
    assert_eq!(e.matches("error:").count(), 1, "{e}");
}

#[test]
fn untyped_constant_and_parameter() {
    let text = TOKEN_RING.replace("CONSTANTS next", "CONSTANTS next, spare");
    let e = errors(&text);
    assert!(
        e.contains("error: cannot infer the type of constant `spare`"),
        "{e}"
    );
    let text = LOGIN.replace(
        "Logout(s) = PRE s : active THEN",
        "Logout(s, t) = PRE s : active THEN",
    );
    let e = errors(&text);
    assert!(
        e.contains("error: cannot infer the type of parameter `t` of operation `Logout`"),
        "{e}"
    );
}

#[test]
fn assignments_to_parameters_constants_and_unassigned_outputs() {
    let text = LOGIN.replace("THEN active := active - {s} END", "THEN s := s END");
    let e = errors(&text);
    assert!(
        e.starts_with("error: cannot assign to input parameter `s` of operation `Logout`\n"),
        "{e}"
    );
    let text = TOKEN_RING.replace("THEN token := next(token) END", "THEN next := next END");
    let e = errors(&text);
    assert!(
        e.starts_with("error: cannot assign to constant `next`\n"),
        "{e}"
    );
    let text = TOWNS.replace(
        "THEN ans := connected\n      ELSE ans := notconnected\n",
        "THEN skip\n",
    );
    let e = errors(&text);
    assert!(
        e.starts_with("error: output `ans` of operation `connectedquery` is never assigned\n"),
        "{e}"
    );
    assert!(e.contains("--> m.mch:12:3"), "{e}");
    // Assigned on one path only: the interpreter checks each path at run time.
    check(&TOWNS.replace("ELSE ans := notconnected\n", ""));
    let text = LOGIN
        .replace("VARIABLES active", "VARIABLES active, other")
        .replace(
            "INVARIANT active <: Session",
            "INVARIANT active <: Session & other : BOOL",
        );
    let e = errors(&text);
    assert!(
        e.starts_with("error: variable `other` is not initialised\n"),
        "{e}"
    );
}

#[test]
fn duplicate_declarations() {
    let text = SCHEDULER0.replace("VARIABLES proc, pst", "VARIABLES proc, pst, idle");
    let e = errors(&text);
    assert!(e.starts_with("error: `idle` is declared twice\n"), "{e}");
    let text = POSTAL.replace("send_box(from, to)", "send_box(from, from)");
    let e = errors(&text);
    assert!(
        e.contains("`from` is declared twice in the header of operation `send_box`"),
        "{e}"
    );
}

#[test]
fn set_size_sources_must_agree() {
    let text = SCHEDULER0.replace("scope_PROC == 1..5", "scope_PROC == 1..5; scope_STATE == 4");
    let e = errors(&text);
    assert!(
        e.contains("set `STATE` has size 3 from its enumeration, but scope_STATE gives 4"),
        "{e}"
    );
    let text = WIKI_CONSTANTS.replace(
        "MACHINE m SETS D",
        "MACHINE m SETS D DEFINITIONS scope_D == 3",
    );
    let e = errors(&text);
    assert!(
        e.contains("set `D` has size 3 from scope_D, but `card(D) = 6` in PROPERTIES gives 6"),
        "{e}"
    );
}

#[test]
fn refinement_without_its_abstraction_explains_missing_names() {
    // Appendix B.2 as printed: a refinement using the abstraction's PROC.
    let text = SCHEDULER1
        .replace(
            "MACHINE scheduler1\nSETS PROC\n",
            "REFINEMENT scheduler1\nREFINES scheduler0\n",
        )
        .replace("scope_PROC == 1..5;", "");
    let e = errors(&text);
    assert!(e.starts_with("error: unknown identifier `PROC`\n"), "{e}");
    assert!(
        e.contains("the declarations of `scheduler0` are not imported"),
        "{e}"
    );
}

#[test]
fn undefined_definition_gives_one_error() {
    // Appendix B.9 as printed: `GOAL == win_vert_horiz(X)` names no definition.
    let text = TICTACTOE.replace("GOAL == win_vert(X)", "GOAL == win_vert_horiz(X)");
    let e = errors(&text);
    assert!(
        e.starts_with("error: unknown identifier `win_vert_horiz`\n"),
        "{e}"
    );
    assert_eq!(e.matches("error:").count(), 1, "{e}");
}

#[test]
fn binder_in_a_definition_used_at_two_types_is_left_out_of_the_bound_table() {
    let text = "MACHINE m\nSETS A; B\nDEFINITIONS none(s) == {z | z : s & 1 = 2}\n\
                VARIABLES x, y\nINVARIANT x = none(A) & y = none(B)\n\
                INITIALISATION x := {} || y := {}\nEND\n";
    let t = check(text);
    assert_eq!(shown(&t, &t.variables), vec!["POW(A)", "POW(B)"]);
    assert!(t.bound.is_empty(), "{:?}", t.bound);
    // Used at one type, it is recorded.
    let t = check(
        &text
            .replace("none(B)", "none(A)")
            .replace("y = ", "y <: A & y = "),
    );
    assert_eq!(
        shown(&t, &t.bound.values().cloned().collect::<Vec<_>>()),
        vec!["A"]
    );
}

/// Regression: a long conjunction was checked recursively and overflowed
/// the stack (at about 16,000 conjuncts on a 2 MB test thread).
#[test]
fn long_invariant_does_not_overflow_the_stack() {
    let mut text = String::from("MACHINE m\nVARIABLES x\nINVARIANT x : NAT");
    for _ in 0..30_000 {
        text.push_str(" & x = x");
    }
    text.push_str("\nINITIALISATION x := 0\nEND\n");
    let t = check(&text);
    assert_eq!(t.variables, vec![Type::Int]);
}

#[test]
fn before_value_and_sets_in_assignments() {
    // `x$0` is the value of a variable before `x : (P)`.
    let text = "MACHINE m\nVARIABLES n\nINVARIANT n : NAT\nINITIALISATION n := 0\n\
                OPERATIONS inc = n : (n = n$0 + 1)\nEND\n";
    assert_eq!(check(text).variables, vec![Type::Int]);
    let e = errors(
        &text
            .replace("VARIABLES n", "CONSTANTS k PROPERTIES k = 1 VARIABLES n")
            .replace("n$0", "k$0"),
    );
    assert!(
        e.starts_with(
            "error: `k$0` names the value before the substitution, but `k` is a constant\n"
        ),
        "{e}"
    );
    let e = errors(&LOGIN.replace("active := {}", "Session := {}"));
    assert!(
        e.starts_with("error: cannot assign to set `Session`\n"),
        "{e}"
    );
    assert!(e.contains("--> m.mch:7:16"), "{e}");
}

#[test]
fn any_variables_are_read_only() {
    let e = errors(&LOGIN.replace("res := s ||", "res := s || s := s ||"));
    assert!(
        e.starts_with("error: cannot assign to `s`: it is bound by ANY and read only\n"),
        "{e}"
    );
}

#[test]
fn free_types_and_their_constructors_are_typed() {
    let t = check(
        "MACHINE F\nSETS PID\nFREETYPES\n  List = nil, cons(INTEGER * List);\n  \
         Tree = leaf(List), node(Tree * Tree)\n\
         VARIABLES t, p\nINVARIANT t : Tree & p : PID\n\
         INITIALISATION t := node(leaf(cons(1, nil)), leaf(nil)) || p :: PID\n\
         OPERATIONS\n  r <-- left = PRE t /: ran(leaf) THEN r := prj1(node~(t)) END\nEND\n",
    );
    assert_eq!(t.variables, vec![Type::Free(1), Type::Given(0)]);
    let list = &t.free_types[0];
    assert_eq!(list.name, "List");
    assert_eq!(list.constructors[0].name, "nil");
    assert_eq!(list.constructors[0].arg, None);
    assert_eq!(
        list.constructors[1].arg,
        Some(Type::Pair(Box::new(Type::Int), Box::new(Type::Free(0))))
    );
    assert_eq!(t.free_types[1].constructors[0].arg, Some(Type::Free(0)));
    assert_eq!(t.operations[0].outputs, vec![Type::Free(1)]);
    // A constructor applied to the wrong type, and a free type where
    // another is expected, both named.
    let e = errors(
        "MACHINE F\nFREETYPES\n  List = nil, cons(INTEGER * List);\n  Colour = red, green\n\
         VARIABLES x\nINVARIANT x : List\nINITIALISATION x := cons(TRUE, nil)\n\
         OPERATIONS op = x := red\nEND\n",
    );
    assert!(e.contains("expected INTEGER*List, found BOOL*List"), "{e}");
    assert!(e.contains("expected List, found Colour"), "{e}");
}
