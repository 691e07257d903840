//! Robustness of the parser: arbitrary bytes, random token soups and
//! mutated example models must give `Ok` or `Err`, never a panic (a panic
//! or stack overflow fails the test).

use orbit::diag::SourceFile;
use orbit::frontends::b::lexer::lex;
use orbit::frontends::b::{parse_expression, parse_machine, parse_substitution};
use proptest::prelude::*;

const MODELS: &[&str] = &[
    include_str!("parser_inputs/scheduler0.mch"),
    include_str!("parser_inputs/scheduler1.ref"),
    include_str!("parser_inputs/RussianPostalPuzzle.mch"),
    include_str!("parser_inputs/USB.mch"),
    include_str!("parser_inputs/TokenRing.mch"),
    include_str!("parser_inputs/Dining.mch"),
    include_str!("parser_inputs/Towns.mch"),
    include_str!("parser_inputs/TicTacToe_Sym.mch"),
    include_str!("parser_inputs/TicTacToe_SimplerSym.mch"),
    include_str!("parser_inputs/Course.mch"),
    include_str!("parser_inputs/Unreachable.mch"),
    include_str!("parser_inputs/Personnel.mch"),
    include_str!("parser_inputs/LoginVerySimple.mch"),
    include_str!("parser_inputs/SymCounterEx.mch"),
    include_str!("parser_inputs/WikiConstants.mch"),
    include_str!("parser_inputs/KitchenSink.mch"),
];

/// Token texts that exercise every corner of the grammar.
const ALPHABET: &[&str] = &[
    "MACHINE",
    "REFINEMENT",
    "SETS",
    "CONSTANTS",
    "PROPERTIES",
    "VARIABLES",
    "INVARIANT",
    "ASSERTIONS",
    "INITIALISATION",
    "OPERATIONS",
    "DEFINITIONS",
    "INCLUDES",
    "END",
    "BEGIN",
    "skip",
    "PRE",
    "THEN",
    "ELSE",
    "ELSIF",
    "IF",
    "SELECT",
    "WHEN",
    "CASE",
    "OF",
    "EITHER",
    "OR",
    "CHOICE",
    "ANY",
    "WHERE",
    "LET",
    "BE",
    "IN",
    "VAR",
    "ASSERT",
    "WHILE",
    "or",
    "not",
    "mod",
    "x",
    "y",
    "f",
    "S",
    "card",
    "bool",
    "POW",
    "SIGMA",
    "prj1",
    "succ",
    "TRUE",
    "NAT",
    "0",
    "1",
    "\"s\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    "|",
    "||",
    "|->",
    "|>",
    ".",
    "..",
    ":",
    "::",
    ":=",
    "==",
    "=",
    "/=",
    "<",
    "<-",
    "<--",
    "<->",
    "-->",
    "->",
    "-",
    "+",
    "*",
    "**",
    "/",
    "/\\",
    "\\/",
    "~",
    "!",
    "#",
    "%",
    "&",
    "=>",
    "<=>",
    "<:",
    "/:",
    "<+",
    "^",
    "x$0",
    "scope_S",
    "GOAL",
];

fn parse_all_ways(text: &str) {
    let file = SourceFile::new("fuzz.mch", text);
    for result in [
        parse_machine(&file).map(drop),
        parse_expression(&file).map(drop),
        parse_substitution(&file).map(drop),
    ] {
        if let Err(d) = result {
            // Rendering must not panic either, and the span must be in range.
            let _ = d.render(&file);
            assert!(d.span.start as usize <= text.len(), "{d:?}");
        }
    }
}

/// The texts of a model's tokens (comments dropped).
fn token_texts(model: &str) -> Vec<&str> {
    let tokens = lex(model).expect("example models lex");
    tokens
        .iter()
        .filter(|t| t.span.end > t.span.start)
        .map(|t| &model[t.span.start as usize..t.span.end as usize])
        .collect()
}

#[test]
fn every_example_model_parses() {
    for model in MODELS {
        let file = SourceFile::new("m.mch", *model);
        if let Err(d) = parse_machine(&file) {
            panic!("{}", d.render(&file));
        }
    }
}

#[test]
fn deleting_any_single_token_or_truncating_never_panics() {
    for model in MODELS {
        let tokens = token_texts(model);
        for i in 0..tokens.len() {
            let mut deleted = tokens.clone();
            deleted.remove(i);
            parse_all_ways(&deleted.join(" "));
            parse_all_ways(&tokens[..i].join(" "));
        }
    }
}

fn mutate(tokens: &[&'static str], edits: &[(u8, usize, usize)]) -> String {
    let mut tokens = tokens.to_vec();
    for &(kind, a, b) in edits {
        if tokens.is_empty() {
            break;
        }
        let a = a % tokens.len();
        let b = b % tokens.len();
        match kind % 5 {
            0 => {
                tokens.remove(a);
            }
            1 => {
                let t = tokens[a];
                tokens.insert(b, t);
            }
            2 => tokens.swap(a, b),
            3 => tokens.truncate(a),
            _ => tokens.insert(a, ALPHABET[b % ALPHABET.len()]),
        }
    }
    tokens.join(" ")
}

proptest! {
    // 200 cases by default; set PROPTEST_CASES for a longer run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(200),
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        parse_all_ways(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup_never_panics(picks in proptest::collection::vec(0..ALPHABET.len(), 0..120)) {
        let text: Vec<&str> = picks.into_iter().map(|i| ALPHABET[i]).collect();
        parse_all_ways(&text.join(" "));
        parse_all_ways(&format!("MACHINE M {}", text.join(" ")));
    }

    #[test]
    fn mutated_models_never_panic(
        model in 0..MODELS.len(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..6),
    ) {
        let tokens = token_texts(MODELS[model]);
        parse_all_ways(&mutate(&tokens, &edits));
    }
}

/// Operators for generated chains: arithmetic, set, relation, sequence
/// and logical ones, left- and right-associative.
const CHAIN_OPERATORS: &[(&str, &str)] = &[
    (" + ", "1"),
    (" - ", "x"),
    (" * ", "1"),
    (" \\/ ", "{x}"),
    (" /\\ ", "{1, x}"),
    (" |-> ", "x"),
    (" ^ ", "[x]"),
    (" <+ ", "{1 |-> x}"),
];

/// A machine whose invariant, initialisation and one operation hold
/// chains of `len` operators, nested `nest` parentheses deep.
fn chained_machine(op: usize, len: usize, nest: usize, seq: usize) -> String {
    let (operator, term) = CHAIN_OPERATORS[op];
    let chain = vec![term; len + 1].join(operator);
    let nested = format!("{}{chain}{}", "(".repeat(nest), ")".repeat(nest));
    let steps = vec!["x := x + 1"; seq.max(1)].join(" ; ");
    format!(
        "MACHINE Gen\nVARIABLES x, y\nINVARIANT x : NAT & y = y\n\
         INITIALISATION x := 0 ; y := {nested}\n\
         OPERATIONS op = PRE x < 2 THEN {steps} END ;\n\
         guard = SELECT {} THEN skip END\nEND\n",
        vec!["x = 0"; len + 1].join(" or ")
    )
}

/// Parses, checks, compiles and loads `text` (solving constants and
/// computing the initial states) on a thread with the command line's
/// stack, and reports whether that thread panicked or overflowed (an
/// overflow aborts the whole test binary, which fails the suite too).
fn load_never_panics(text: String) -> bool {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("Gen.mch");
    std::fs::write(&path, text).expect("write");
    let thread = std::thread::Builder::new()
        .stack_size(128 << 20)
        .spawn(move || {
            let options = orbit::frontends::b::load::LoadOptions::default();
            if let Ok(system) = orbit::frontends::b::load::load_machine(&path, &options) {
                use orbit::model::Model;
                let mut scratch = system.new_scratch();
                let _ = system.initial_states(&mut scratch, &mut |_, _| {});
            }
        })
        .expect("spawn");
    thread.join().is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24),
        ..ProptestConfig::default()
    })]

    /// Flat and deep chains up to past the parser's tree-depth limit:
    /// accepted and evaluated, or refused with a message; never a crash.
    #[test]
    fn generated_chains_never_crash(
        op in 0..CHAIN_OPERATORS.len(),
        len in prop_oneof![0usize..50, 19_000usize..21_000],
        nest in prop_oneof![0usize..5, 150usize..230],
        seq in prop_oneof![1usize..5, 19_000usize..21_000],
    ) {
        prop_assert!(load_never_panics(chained_machine(op, len, nest, seq)));
    }
}
