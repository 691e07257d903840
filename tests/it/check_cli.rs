//! `orbit check` options that are not tied to a particular paper model:
//! integer bounds from DEFINITIONS and flags, the text report, limits.

use std::process::Command;

fn check(text: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.mch");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .arg("check")
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What a run of `text` that is refused (exit 2) prints on stderr.
fn refusal(text: &str) -> String {
    let (code, out, err) = check(text, &[]);
    assert_eq!(code, Some(2), "{out}{err}");
    err
}

/// A Murphi program refuses `flag`, which applies to B machines only.
fn assert_murphi_refuses(flag: &str) {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.m");
    std::fs::write(&m, "var x: boolean;\nstartstate begin x := true; end;\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .args(["check", m.to_str().unwrap(), flag])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{flag}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("applies to B machines only"));
}

/// The `--json` report on stdout, validated against its schema.
fn json(stdout: &str) -> serde_json::Value {
    let report = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    crate::json_schema::check_report(&report);
    report
}

const COUNTER: &str = "MACHINE Counter
DEFINITIONS SET_PREF_MAXINT == 5
VARIABLES x
INVARIANT x : NAT
INITIALISATION x := 0
OPERATIONS inc = PRE x < MAXINT THEN x := x + 1 END
END
";

#[test]
fn maxint_comes_from_set_pref_and_the_flag_overrides_it() {
    let (code, out, _) = check(COUNTER, &["--no-deadlock", "--json"]);
    assert_eq!(code, Some(0));
    assert_eq!(json(&out)["states"], 6);
    let (_, out, _) = check(COUNTER, &["--no-deadlock", "--json", "--maxint", "9"]);
    assert_eq!(json(&out)["states"], 10);
}

/// A misspelt preference (ProB's SudokuSym sets `SET_PREF_MINIT`) is an
/// error at its definition, with the preference meant; an unknown name
/// far from any is ignored with a warning.
#[test]
fn misspelt_preferences_are_errors_and_unknown_ones_warnings() {
    let machine = |pref: &str| {
        format!(
            "MACHINE P\nDEFINITIONS {pref} == 0\nVARIABLES x\nINVARIANT x : 0..2\n\
             INITIALISATION x := 0\nOPERATIONS inc = PRE x < 2 THEN x := x + 1 END\nEND\n"
        )
    };
    let err = refusal(&machine("SET_PREF_MINIT"));
    assert!(
        err.contains("`SET_PREF_MINIT` is not a ProB preference"),
        "{err}"
    );
    assert!(err.contains("m.mch:2:13"), "{err}");
    assert!(err.contains("did you mean `SET_PREF_MININT`?"), "{err}");
    let (code, out, err) = check(
        &machine("SET_PREF_COLOUR_OF_THE_SKY"),
        &["--no-deadlock", "--json"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        err.contains("not a ProB preference orbit knows; ignored"),
        "{err}"
    );
    assert_eq!(json(&out)["states"], 3);
}

#[test]
fn deadlock_is_reported_with_a_shortest_trace_in_text() {
    // x = MAXINT (5) has no successor.
    let (code, out, _) = check(COUNTER, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("deadlock"), "{out}");
    assert!(out.contains("counterexample (6 steps)"), "{out}");
    assert!(out.contains("x = 5"), "{out}");
    assert!(out.contains("distinct states:"), "{out}");
}

#[test]
fn invariant_violation_names_the_conjunct_and_its_location() {
    let text = COUNTER.replace("INVARIANT x : NAT", "INVARIANT x : NAT & x < 3");
    let (code, out, _) = check(&text, &["--json"]);
    assert_eq!(code, Some(1));
    let j = json(&out);
    assert_eq!(j["result"], "invariant_violation");
    let message = j["message"].as_str().unwrap();
    assert!(
        message.contains("x < 3") && message.contains("m.mch:4:"),
        "{message}"
    );
    assert_eq!(j["trace"].as_array().unwrap().len(), 4);
}

#[test]
fn max_states_stops_with_partial_statistics() {
    let (code, out, _) = check(
        COUNTER,
        &[
            "--no-deadlock",
            "--json",
            "--maxint",
            "1000",
            "--max-states",
            "10",
        ],
    );
    // An incomplete search is no verdict: exit code 3, never 0.
    assert_eq!(code, Some(3));
    let j = json(&out);
    assert_eq!(j["result"], "stopped");
    assert_eq!(j["stopped"], "max-states");
    assert!(j["states"].as_u64().unwrap() <= 11, "{j}");
}

#[test]
fn bad_flags_exit_with_2() {
    let (code, _, err) = check(COUNTER, &["--set", "X"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("NAME=SIZE"), "{err}");
    let (code, _, err) = check(COUNTER, &["--time-limit", "soon"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("duration"), "{err}");
    let (code, _, err) = check(COUNTER, &["--order", "dfs", "--threads", "2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--threads 1"), "{err}");
    let (code, _, err) = check(COUNTER, &["--goal"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("GOAL"), "{err}");
}

/// A machine that cannot start is a model error, never "no error found"
/// after exploring nothing (ProB reports both as errors); so is a valuation
/// of the constants without an initial state, as a deadlock.
#[test]
fn machines_without_an_initial_state_are_errors() {
    let no_solution = "MACHINE NoSol\nCONSTANTS c\nPROPERTIES c : 1..3 & c > 5\n\
                       VARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := c\nEND\n";
    let (code, stdout, _) = check(no_solution, &["--json"]);
    assert_eq!(code, Some(1), "{stdout}");
    let report = json(&stdout);
    assert_eq!(report["result"], "model_error");
    assert!(
        report["message"]
            .as_str()
            .unwrap_or_default()
            .contains("PROPERTIES has no solution"),
        "{report}"
    );
    let no_outcome = "MACHINE NoInit\nVARIABLES x\nINVARIANT x : NAT\nINITIALISATION x :: {}\n\
                      OPERATIONS inc = x := x + 1\nEND\n";
    for symmetry in ["off", "canon"] {
        let (code, stdout, _) = check(no_outcome, &["--json", "--symmetry", symmetry]);
        assert_eq!(code, Some(1), "{stdout}");
        let report = json(&stdout);
        assert!(
            report["message"]
                .as_str()
                .unwrap_or_default()
                .contains("INITIALISATION has no outcome"),
            "{report}"
        );
    }
    // Constants that INITIALISATION cannot start from: a deadlock at their
    // setup, as ProB reports it, with the valuation as the trace; without
    // deadlock checking the other valuations are explored.
    let empty_choice = "MACHINE Pick\nSETS R = {r1, r2}\nCONSTANTS P\nPROPERTIES P <: R\n\
                        VARIABLES p\nINVARIANT p : P\nINITIALISATION p :: P\nEND\n";
    let (code, stdout, _) = check(empty_choice, &["--json"]);
    assert_eq!(code, Some(1), "{stdout}");
    let report = json(&stdout);
    assert_eq!(report["result"], "deadlock", "{report}");
    assert_eq!(
        report["trace"][0]["label"], "SETUP_CONSTANTS(P={})",
        "{report}"
    );
    assert_eq!(report["trace"][0]["changes"]["P"], "{}", "{report}");
    let (_, text, _) = check(empty_choice, &[]);
    assert!(
        text.contains("deadlock: a valuation of the constants admits no INITIALISATION"),
        "{text}"
    );
    let (code, stdout, _) = check(empty_choice, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{stdout}");
    // p in {r1}, {r2} or {r1, r2}: 1 + 1 + 2 states.
    assert_eq!(json(&stdout)["states"], 4);
}

/// ProB's external functions have placeholder bodies: one orbit
/// implements is computed (whether the machine declares it itself or names
/// ProB's library file, which orbit supplies when it is not on disk); any
/// other is refused by name at its use, never evaluated to a silently
/// wrong value.
#[test]
fn external_functions_are_computed_or_refused_by_name() {
    let machine = |init: &str| {
        format!(
            "MACHINE Ext\nDEFINITIONS\n  EXTERNAL_FUNCTION_INT_TO_STRING == (INTEGER --> STRING);\n\
             \x20 INT_TO_STRING(i) == \"0\";\n  EXTERNAL_FUNCTION_FILE_CHECKSUM == (STRING --> STRING);\n\
             \x20 FILE_CHECKSUM(s) == s\nVARIABLES s\nINVARIANT s : STRING\nINITIALISATION s := {init}\nEND\n"
        )
    };
    let (code, out, err) = check(&machine("INT_TO_STRING(123)"), &["--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // The placeholder would have given "0".
    let (code, out, err) = check(&machine("INT_TO_STRING(123)"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("s = \"123\""), "{out}");
    let stderr = refusal(&machine("FILE_CHECKSUM(\"x\")"));
    assert!(
        stderr.contains("not supported yet: external function `FILE_CHECKSUM`"),
        "{stderr}"
    );
    assert!(stderr.contains("m.mch:9:21"), "{stderr}");
    let text = "MACHINE Lib
DEFINITIONS \"LibraryStrings.def\"; \"LibraryIO.def\"; \"Choose.def\"
CONSTANTS words
PROPERTIES words = STRING_SPLIT(\"a b cc\", \" \") & INT_TO_STRING(-12) = \"-12\"
  & STRING_LENGTH(STRING_APPEND(\"ab\", \"cde\")) = 5 & CHOOSE({3, 1, 2}) = 1
  & STRING_TO_INT(\"42\") = 42 & SUB_STRING(\"abcdef\", 2, 3) = \"bcd\"
VARIABLES i, acc
INVARIANT i : 0..3 & acc : STRING & STRING_LENGTH(acc) <= 4
INITIALISATION i := 0 || acc := \"\"
OPERATIONS
  step = PRE i < size(words) THEN
    i := i + 1 ; acc := STRING_APPEND(acc, words(i)) ; PRINT(acc) ; printf(\"~w~n\", [acc]) ;
    FPRINTF(\"out.txt\", \"~w~n\", [acc])
  END;
  reset = PRE i = size(words) THEN i := 0 || acc := \"\" END
END
";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 4);
    let (code, _, err) = check("MACHINE L\nDEFINITIONS \"LibraryXML.def\"\nEND\n", &[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("cannot find definition file \"LibraryXML.def\""),
        "{err}"
    );
    assert!(err.contains("orbit supplies LibraryStrings.def"), "{err}");
    // LibraryHash.def: equal values hash alike, others apart (ProB's
    // TestLibraryHash); a false assertion is still reported.
    let hashes = |last: &str| {
        format!(
            "MACHINE H\nDEFINITIONS \"LibraryHash.def\"\nASSERTIONS HASH(2+2) = HASH(4) & \
             SHA_HASH(2**10) /= SHA_HASH({{1024}}) & SHA_HASH({{2,3,1}}) = SHA_HASH(1..3) & \
             size(SHA_HASH(TRUE)) = 20 & {last}\nEND\n"
        )
    };
    let (code, out, err) = check(
        &hashes("SHA_HASH_HEX({1}) /= SHA_HASH_HEX({2})"),
        &["--json", "--no-deadlock"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = check(
        &hashes("SHA_HASH_HEX({1}) = SHA_HASH_HEX({2})"),
        &["--no-deadlock"],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("assertion"), "{out}");
    // The predicates of LibraryStrings.def and LibraryProB.def, from orbit's copies.
    let text = "MACHINE Lib2\nDEFINITIONS \"LibraryStrings.def\"; \"LibraryProB.def\"\n\
                CONSTANTS n\nPROPERTIES n = card({s | s : {\"1\", \"x\"} & STRING_IS_INT(s)}) \
                & LESS(1, 2) & ASSERT_TRUE(TRUE, \"m\") & ASSERT_EXPR(TRUE, \"m\", 3) = 3 \
                & CLOSURE1({1|->2, 2|->3}) = {1|->2, 2|->3, 1|->3}\n\
                VARIABLES x\nINVARIANT x = n\nINITIALISATION x := n\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 1);
    // More of ProB's libraries: a wrong value leaves PROPERTIES without a
    // solution, an error.
    let text = "MACHINE Lib3\nDEFINITIONS \"LibraryStrings.def\"; \"LibraryProB.def\"; \"LibraryIO.def\"\n\
                CONSTANTS n, msg\nPROPERTIES n = FORCE(card({s | s : {\"abc\", \"xbcx\", \"b\"} \
                & STRING_CONTAINS_STRING(s, \"bc\") = TRUE})) & ENUMERATE(n) \
                & STRING_CONTAINS_STRING(\"abc\", \"\") = TRUE \
                & msg = FORMAT_TO_STRING(\"n=~w, ~w~n\", [INT_TO_STRING(n), \"ok\"]) \
                & vprintf(\"~w\", 7) = 7\n\
                VARIABLES x\nINVARIANT x = msg\nINITIALISATION x := msg\nEND\n";
    let (code, out, err) = check(text, &["--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("distinct states:      1\n"), "{out}");
    let (code, out, _) = check(text, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("msg=\"n=2, ok\\n\""), "{out}");
    // MAXIMIZE and MINIMIZE as ProB's optimisation declares them: the
    // greatest and least elements, the objective first (the placeholder
    // body, 1, would leave PROPERTIES without a solution).
    let text = "MACHINE Opt\nDEFINITIONS EXTERNAL_FUNCTION_MAXIMIZE(T) == POW(T) --> T;\n\
                MAXIMIZE(x) == 1; EXTERNAL_FUNCTION_MINIMIZE(T) == POW(T) --> T;\n\
                MINIMIZE(x) == 1\nCONSTANTS best, worst\nPROPERTIES \
                best = MAXIMIZE({f, x | x : 0..20 & f = 10 * x - x * x}) & \
                worst = MINIMIZE({f, x | x : 0..20 & f = 10 * x - x * x})\n\
                VARIABLES v\nINVARIANT v = best\nINITIALISATION v := best\nEND\n";
    let (code, out, err) = check(text, &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("best=(25|->5), worst=(-200|->20)"), "{out}");
    // printf as LibraryIO.def declares it, a predicate that holds.
    let text = "MACHINE P\nDEFINITIONS EXTERNAL_PREDICATE_printf(T) == STRING * T;\n\
                printf(f, v) == TRUE = TRUE\nVARIABLES x\nINVARIANT x : 0..2\n\
                INITIALISATION x := 0\nOPERATIONS up = PRE x < 2 & printf(\"x=~w~n\", x) \
                THEN x := x + 1 END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 3);
    // observe holds, fvprintf is its value, and no argument follows the
    // model: ARGC is 0 (ProB's SheBang: `Main(a)` with `a = ARGC`).
    let text = "MACHINE Args\nDEFINITIONS \"LibraryIO.def\"\nVARIABLES x\nINVARIANT x : 0..7\n\
                INITIALISATION x := 0\nOPERATIONS Main(a) = SELECT x = 0 & a = ARGC & observe(a) \
                THEN x := fvprintf(\"out.txt\", \"~w\", 7) END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 2);
    assert_eq!(json(&out)["transitions"], 1);
    // LibraryMeta.def may be included; its facts about ProB's own run are
    // refused where used.
    let meta = |assertion: &str| {
        format!(
            "MACHINE Meta\nDEFINITIONS \"LibraryMeta.def\"\nVARIABLES x\nINVARIANT x : 0..1\n\
             INITIALISATION x := 0\n{assertion}OPERATIONS up = PRE x = 0 THEN x := 1 END\nEND\n"
        )
    };
    let (code, out, err) = check(&meta(""), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 2);
    let (code, _, err) = check(
        &meta("ASSERTIONS PROJECT_STATISTICS(\"variables\") = 1\n"),
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("not supported yet: external function `PROJECT_STATISTICS`"),
        "{err}"
    );
}

/// The predicates and assertions of ProB's libraries (`STRING_IS_INT`,
/// `LESS`, `ASSERT_TRUE`, `ASSERT_EXPR`, `CLOSURE1`) are computed; a
/// failed assertion is a model error with its message.
#[test]
fn library_predicates_and_assertions_are_computed() {
    let machine = |inc_guard: &str, inc: &str| {
        format!(
            "MACHINE Pred
DEFINITIONS
  EXTERNAL_PREDICATE_STRING_IS_INT == STRING; STRING_IS_INT(s) == 1=1;
  EXTERNAL_PREDICATE_LESS(T) == T*T; LESS(a,b) == 1=1;
  EXTERNAL_PREDICATE_ASSERT_TRUE == BOOL*STRING; ASSERT_TRUE(p,m) == 1=1;
  EXTERNAL_FUNCTION_ASSERT_EXPR(T) == BOOL*STRING*T --> T; ASSERT_EXPR(p,m,v) == v;
  EXTERNAL_FUNCTION_CLOSURE1(T) == (T<->T) --> (T<->T); CLOSURE1(r) == r
SETS P = {{p1, p2, p3}}
CONSTANTS nums
PROPERTIES nums = {{s | s : {{\"12\", \"-3\", \"x1\", \"-\", \"\"}} & STRING_IS_INT(s)}}
  & CLOSURE1({{1|->2, 2|->3}}) = {{1|->2, 2|->3, 1|->3}}
VARIABLES a, b, x
INVARIANT a : P & b : P & x : 0..5 & ASSERT_TRUE(bool(x < 5), \"x reached 5\")
INITIALISATION a, b, x := p1, p1, 0
OPERATIONS
  pick(u, v) = PRE u : P & v : P & LESS(u, v) & card(nums) = 2 THEN a, b := u, v END;
  inc = PRE {inc_guard} THEN x := {inc} END
END
"
        )
    };
    // (a, b) is (p1, p1) or one of the three ordered pairs; x is 0..3.
    let fine = machine("x < 3", "ASSERT_EXPR(bool(x < 4), \"x too large\", x) + 1");
    let (code, out, err) = check(&fine, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 16);
    let (code, out, err) = check(
        &machine("x < 5", "ASSERT_EXPR(bool(x < 4), \"x too large\", x) + 1"),
        &[],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("ASSERT_EXPR failed: x too large"), "{out}");
    let (code, out, err) = check(&machine("x < 5", "x + 1"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("ASSERT_TRUE failed: x reached 5"), "{out}");
}

/// The cardinality of an interval, a product and a power set is computed
/// from the bounds, whatever the size of the set (ProB's
/// CardTotFunExpansionTests asks for `card(1..2147483647)`); a false one
/// is still a violated assertion.
#[test]
fn cardinalities_of_intervals_products_and_power_sets_are_computed() {
    let machine = |assertion: &str| {
        format!(
            "MACHINE Cards\nCONSTANTS n\nPROPERTIES n = 1000\nASSERTIONS {assertion}\n\
             VARIABLES x\nINVARIANT x : 0..1\nINITIALISATION x := 0\n\
             OPERATIONS flip = x := 1 - x\nEND\n"
        )
    };
    let (code, out, err) = check(
        &machine(
            "card(1..2147483647) = 2147483647 & card((1..n) * (1..n)) = 1000000 & \
             card(POW(1..20)) = 1048576 & card(POW1(1..3)) = 7 & card(5..4) = 0 & \
             card((1..n) * (-2..2)) = 5000 & card(-3..3) = 7",
        ),
        &[],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = check(&machine("card((1..n) * (1..n)) = 999999"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
}

/// LibraryMath.def, LibraryBits.def and the decimal and printing
/// functions of LibraryStrings.def are computed (the values are ProB's
/// library assertions); a lambda of two variables over written sets is a
/// total function on their product; TO_STRING of a record is refused.
#[test]
fn math_bits_and_printing_libraries_are_computed() {
    let machine = |property: &str| {
        format!(
            "MACHINE M\nDEFINITIONS \"LibraryMath.def\"; \"LibraryBits.def\"; \"LibraryStrings.def\"\n\
             SETS C = {{red, green}}\nCONSTANTS sinx, s\n\
             PROPERTIES sinx : NATURAL1 * INTEGER --> INTEGER \
             & sinx = %(m, x).(x : INTEGER & m : NATURAL1 | SINx(m, x)) & {property}\n\
             VARIABLES v\nINVARIANT v : 0..2\nINITIALISATION v := 0\n\
             OPERATIONS up = PRE v < 2 THEN v := v + 1 END;\n\
             r <-- at = r := SINx(100 - v * 50, 314) + sinx(100, 314)\nEND\n"
        )
    };
    let properties = "s = TO_STRING({green |-> [red], red |-> []}) & COS(314) = -100 \
                      & TANx(1000, 2000) = -2185 & LOGx(100, 200, 900) = 317 & GCD(-10, -15) = 5 \
                      & MSB(1025) = 10 & ABS(-3) = 3 & BAND(12, 10) = 8 & BOR(12, 10) = 14 \
                      & BXOR(12, 10) = 6 & BNOT(0) = -1 & BLSHIFT(16, 2) = 64 & BRSHIFT(16, 2) = 4 \
                      & INT_TO_DEC_STRING(3, 6) = \"0.000003\" \
                      & DEC_STRING_TO_INT(\" -1125.001\", -1) = -113";
    let (code, out, err) = check(&machine(properties), &["--no-deadlock", "--json"]);
    // `at` divides by zero (the multiplier 100 - 2 * 50) once v is 2.
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("external function applied outside its domain: SINx: the multiplier is 0"),
        "{out}"
    );
    let (code, out, err) = check(
        &machine(properties).replace("v < 2", "v < 1"),
        &["--no-deadlock"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("distinct states:      2\n"), "{out}");
    let printed = machine(&format!(
        "{properties} & s /= \"{{(red|->{{}}),(green|->[red])}}\""
    ));
    let (code, out, err) = check(&printed, &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("PROPERTIES has no solution"), "{out}");
    let record = machine("s = TO_STRING(rec(a: 1))");
    let (code, _, err) = check(&record, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("not supported yet: TO_STRING of a value holding records"),
        "{err}"
    );
}

/// SCCS (LibraryUGraphs.def), PROLOG_FUN and RANDOM (LibraryMath.def) are
/// computed; RANDOM is a function (one value per argument); ARGV is undefined
/// (orbit passes a model no arguments) and says so.
#[test]
fn graph_prolog_and_random_library_functions() {
    let machine = |property: &str, op: &str| {
        format!(
            "MACHINE M\nDEFINITIONS \"LibraryMath.def\"; \"LibraryUGraphs.def\"; \"LibraryIO.def\"\n\
             CONSTANTS r\nPROPERTIES r : 0..9 & r = RANDOM(0, 10) & {property}\n\
             VARIABLES v\nINVARIANT v : 0..9\nINITIALISATION v := r\n\
             OPERATIONS {op}\nEND\n"
        )
    };
    let properties = "SCCS({1|->2, 2|->1, 2|->3, 3|->4, 4|->3}) = {{1, 2}, {3, 4}} \
                      & SCCS({1|->2}) = {{1}, {2}} & PROLOG_FUN(\"asin\", 100, 100) = 157 \
                      & PROLOG_FUN(\"sqrt\", 1, 81) = 9 & random_element({5}) = 5 \
                      & random_subset(1..3) <: 1..3";
    let (code, out, err) = check(&machine(properties, "skip_op = skip"), &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 1, "{out}");
    let wrong = format!("{properties} & SCCS({{1|->2}}) = {{{{1, 2}}}}");
    let (code, out, err) = check(&machine(&wrong, "skip_op = skip"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("PROPERTIES has no solution"), "{out}");
    let (code, out, err) = check(&machine(properties, "a <-- arg = a := ARGV(1)"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("ARGV(1): orbit passes a model no command-line arguments"),
        "{out}"
    );
}

/// Hexadecimal literals are read, and a `scope_X` for a set the machine
/// does not declare is ignored with a warning, as ProB does.
#[test]
fn hexadecimal_literals_and_foreign_scopes() {
    let machine = "MACHINE H\nDEFINITIONS scope_FOO == 1..3\nVARIABLES x\nINVARIANT x : 0..255\n\
                   INITIALISATION x := 0x1F\nOPERATIONS inc = PRE x < 0x20 THEN x := x + 1 END\nEND\n";
    let (code, stdout, stderr) = check(machine, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(json(&stdout)["states"], 2);
    assert!(stderr.contains("ignoring `scope_FOO`"), "{stderr}");
}

/// In PROPERTIES a function applied outside its domain rejects the
/// candidate, as ProB's solver reads `f(x) = y` as `x |-> y : f`: at the
/// top level and in a quantifier's condition; the report says so.
#[test]
fn properties_read_an_application_outside_the_domain_as_false() {
    // f : ID +-> ID with ran(f) = {aa}: three candidates, two with aa : dom(f).
    let machine = "MACHINE F\nSETS ID = {aa, bb}\nCONSTANTS f\nPROPERTIES f : ID +-> ID & \
                   ran(f) = {aa} & f(aa) = aa\nVARIABLES x\nINVARIANT x : ID\n\
                   INITIALISATION x := aa\nEND\n";
    for solver in ["enumerate", "auto"] {
        let (code, stdout, stderr) =
            check(machine, &["--json", "--no-deadlock", "--solver", solver]);
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(json(&stdout)["constant_valuations"], 2, "{solver}");
    }
    let (_, _, stderr) = check(machine, &["--no-deadlock", "--solver", "enumerate"]);
    assert!(
        stderr.contains("warning: PROPERTIES applies a function outside its domain (")
            && stderr.contains("m.mch:4:"),
        "{stderr}"
    );
    // 4 queens on r : (1..4) * (1..4) --> BOOL, quantified over 1..8.
    let queens = "MACHINE Q\nCONSTANTS r\nPROPERTIES r : (1..4) * (1..4) --> BOOL & \
                  !(i, j).(i : 1..8 & j : 1..8 & r(i, j) = TRUE => \
                  not(#k.(k : 1..4 & k /= i & r(k, j) = TRUE)) & \
                  not(#k.(k : 1..4 & k /= j & r(i, k) = TRUE)) & \
                  not(#(k, l).(k : 1..4 & l : 1..4 & k /= i & k + l = i + j & r(k, l) = TRUE)) & \
                  not(#(k, l).(k : 1..4 & l : 1..4 & k /= i & k - l = i - j & r(k, l) = TRUE))) & \
                  !i.(i : 1..4 => #j.(j : 1..4 & r(i, j) = TRUE))\nEND\n";
    let (code, stdout, stderr) = check(
        queens,
        &["--json", "--no-deadlock", "--solver", "enumerate"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(json(&stdout)["constant_valuations"], 2);
    // Every candidate rejected so: no solution, and the application named.
    let none = "MACHINE N\nSETS ID = {aa, bb}\nCONSTANTS f\nPROPERTIES f : ID +-> ID & \
                f(bb) = aa & bb /: dom(f)\nEND\n";
    let (code, _, stderr) = check(none, &["--solver", "enumerate"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("PROPERTIES has no solution")
            && stderr.contains("function applied outside its domain (")
            && stderr.contains("m.mch:4:"),
        "{stderr}"
    );
}

/// `first`, `last`, `front` and `tail` of the empty sequence are errors
/// in PROPERTIES, as ProB reports them (its ErrorMachines: `iv : iseq(ID)
/// & front(iv) = [aa]`), unless the conjuncts before exclude it; in a
/// guard they are false, as an application outside the domain.
#[test]
fn properties_report_the_end_of_the_empty_sequence() {
    let machine = |props: &str| {
        format!(
            "MACHINE S\nSETS ID = {{aa, bb}}\nCONSTANTS iv\nPROPERTIES iv : iseq(ID) & {props}\n\
             VARIABLES xx\nINVARIANT xx : seq(ID)\nINITIALISATION xx := []\n\
             OPERATIONS\n  Pop = PRE last(xx) = aa THEN xx := front(xx) END;\n\
             Push = PRE size(xx) < 2 THEN xx := xx <- aa END\nEND\n"
        )
    };
    for (props, column) in [("front(iv) = [aa]", 28), ("last(iv) = aa", 28)] {
        for solver in ["enumerate", "auto"] {
            let (code, out, err) = check(&machine(props), &["--solver", solver]);
            assert_eq!(code, Some(1), "{out}{err}");
            assert!(
                err.contains("of the empty sequence") && err.contains(&format!("m.mch:4:{column}")),
                "{props} {solver}: {out}{err}"
            );
        }
    }
    // Guarded by `iv /= []`: iv = [aa, bb] (front) and [aa], [bb, aa] (last).
    for (props, valuations) in [
        ("iv /= [] & front(iv) = [aa]", 1),
        ("size(iv) > 0 & last(iv) = aa", 2),
    ] {
        let (code, out, err) = check(&machine(props), &["--json", "--no-deadlock"]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert_eq!(json(&out)["constant_valuations"], valuations, "{props}");
        // xx: [], [aa], [aa, aa] in each valuation.
        assert_eq!(json(&out)["states"], 3 * valuations, "{props}");
    }
}

/// `prj1(S, T)(p)` takes the component without building `S * T`, which
/// is infinite here; a pair outside `S * T` is outside the function's domain.
#[test]
fn projections_apply_without_building_their_product() {
    let machine = |arg: &str| {
        format!(
            "MACHINE P\nCONSTANTS c\nPROPERTIES c = prj1(INTEGER, INTEGER)((1, 4)) + \
             prj2(NATURAL, INTEGER)({arg})\nVARIABLES x\nINVARIANT x : INTEGER\n\
             INITIALISATION x := c\nEND\n"
        )
    };
    for bound in [&[][..], &["--bound-integers"][..]] {
        let args = [&["--json", "--no-deadlock"][..], bound].concat();
        let (code, stdout, stderr) = check(&machine("2 |-> -7"), &args);
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(json(&stdout)["states"], 1);
        let (code, stdout, stderr) = check(&machine("-2 |-> 7"), bound);
        assert_eq!(code, Some(1), "{stdout}{stderr}");
        assert!(
            stderr.contains("function applied outside its domain (")
                && stderr.contains("m.mch:3:49)"),
            "{stderr}"
        );
    }
}

/// ProB's one-argument projections `prj1(p)`, `prj2(p)` of a pair.
#[test]
fn one_argument_projections_of_a_pair() {
    let machine = "MACHINE P\nVARIABLES p, n\nINVARIANT p : (0..2)*(0..2) & n : 0..3\n\
                   INITIALISATION p := (1|->2) || n := 1\n\
                   OPERATIONS a = PRE prj1(p) = 1 & prj2(p) = 2 & n < 3 THEN n := succ(n) END;\n\
                   b = PRE n > 0 THEN n := pred(n) END\nEND\n";
    let (code, stdout, stderr) = check(machine, &["--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(json(&stdout)["states"], 4);
    // A non-pair argument is a type error with its place.
    let bad = "MACHINE Q\nVARIABLES n\nINVARIANT n : 0..3\nINITIALISATION n := prj1(1)\nEND\n";
    let (code, _, stderr) = check(bad, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("m.mch:4:"), "{stderr}");
}

/// `x : NATURAL` or `x : INTEGER` bounded by comparisons elsewhere in the
/// predicate is enumerated over the interval they allow (ProB solves these
/// by constraint propagation); without a bound on both sides the error
/// says what is missing.
#[test]
fn comparisons_bound_unbounded_integers_before_enumeration() {
    let machine = |props: &str| {
        format!(
            "MACHINE B\nCONSTANTS c, d\nPROPERTIES {props}\nVARIABLES x\nINVARIANT x : NATURAL\n\
             INITIALISATION x := 0\nOPERATIONS\n  \
             step(n) = PRE n : NATURAL1 & n <= 2 & x + n <= c THEN x := x + n END\nEND\n"
        )
    };
    for (props, valuations, states) in [
        // d first (its bounds are ready), then c between d and 3.
        (
            "c : INTEGER & d : NATURAL & d < 3 & c > d & c <= 3",
            6,
            3 * 4 + 2 * 3 + 2,
        ),
        ("c : NATURAL & 1 < c & c < 3 & d = 0", 1, 3),
        (
            "c : NATURAL1 & c <= 2 & c /= 1 & d : INTEGER & d >= -1 & d <= -1",
            1,
            3,
        ),
    ] {
        let (code, out, err) = check(&machine(props), &["--no-deadlock", "--json"]);
        assert_eq!(code, Some(0), "{props}: {out}{err}");
        let r = json(&out);
        assert_eq!(r["constant_valuations"], valuations, "{props}");
        assert_eq!(r["states"], states, "{props}");
    }
    let (code, out, _) = check(&machine("c : NATURAL & c > 1 & d = 0"), &["--json"]);
    assert_eq!(code, Some(1));
    let r = json(&out);
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("cannot enumerate `c`: no finite domain (bound it on both sides"),
        "{r}"
    );
}

/// TLA2B writes `IF C THEN t' = e ELSE t' = f` as two implications: the
/// values of the cases that hold are the candidates, and where none holds,
/// the variable's bounds are.
#[test]
fn implications_give_a_variable_its_cases() {
    let machine = |guard: &str| {
        format!(
            "MACHINE M\nVARIABLES time\nINVARIANT time : 0..180\nINITIALISATION time := 0\n\
             OPERATIONS tick = ANY time_n WHERE {guard} THEN time := time_n END\nEND\n"
        )
    };
    for (guard, states) in [
        // 0 -> 100 -> 99 -> ... -> 0 (no domain for time_n otherwise).
        (
            "(time /= 0 => time_n = time - 1) & (not(time /= 0) => time_n = 100)",
            101,
        ),
        // At 0..50 no case holds: time_n ranges over 0..60.
        (
            "(time > 50 => time_n = time - 1) & time_n >= 0 & time_n <= 60",
            61,
        ),
        // Two cases that hold at once give their value once: one
        // transition from each state.
        (
            "(time < 5 => time_n = time + 1) & (time <= 4 => time_n = time + 1) & \
             (time >= 5 => time_n = 0)",
            6,
        ),
    ] {
        let (code, out, err) = check(&machine(guard), &["--json"]);
        assert_eq!(code, Some(0), "{guard}: {out}{err}");
        let r = json(&out);
        assert_eq!(r["states"], states, "{guard}");
        if states == 6 {
            assert_eq!(r["transitions"], 6, "{guard}");
        }
    }
}

/// The outermost PRE of an operation guards it; a PRE inside its body is
/// a model error where it fails (ProB's transition error), with a trace.
#[test]
fn a_precondition_inside_a_body_is_an_error_where_it_fails() {
    let machine = |op: &str| {
        format!(
            "MACHINE M\nVARIABLES x\nINVARIANT x : 0..5\nINITIALISATION x := 0\n\
             OPERATIONS\n{op}\nEND\n"
        )
    };
    // Outermost (also inside BEGIN): a guard, 0..3 reached.
    for op in [
        "  inc = PRE x < 3 THEN x := x + 1 END",
        "  inc = BEGIN PRE x < 3 THEN x := x + 1 END END",
    ] {
        let (code, out, err) = check(&machine(op), &["--json", "--no-deadlock"]);
        assert_eq!(code, Some(0), "{op}: {out}{err}");
        assert_eq!(json(&out)["states"], 4, "{op}");
    }
    // Nested: the step from x = 2 breaks it.
    let op = "  inc = IF x < 5 THEN PRE x < 2 THEN x := x + 1 END END";
    let (code, out, err) = check(&machine(op), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    let r = json(&out);
    assert_eq!(r["result"], "model_error");
    let message = r["message"].as_str().unwrap();
    assert!(
        message.contains("PRE") && message.contains("m.mch:6:27"),
        "{message}"
    );
    assert_eq!(r["trace"].as_array().unwrap().len(), 3, "{r}");
}

/// A lambda or comprehension applied where it is written is solved for
/// the argument's image, never built: ASM and TLA translations apply
/// `{z, v | z : BOOL & v : POW(A * INTEGER) & (C => v = e) & ..}(TRUE)`
/// over infinite sets. Outside the domain, or with two images, it is a
/// model error.
#[test]
fn lambdas_and_comprehensions_applied_in_place_are_solved() {
    let machine = |init: &str, op: &str| {
        format!(
            "MACHINE M\nSETS A = {{a1, a2, a3}}\nVARIABLES f, v\n\
             INVARIANT f : A +-> NATURAL & v : INTEGER\n\
             INITIALISATION f := {{}} || v := {init}\nOPERATIONS\n{op}\nEND\n"
        )
    };
    let cases = [
        // v : 0..49 by doubling mod 50 from 4: 4, 8, 16, 32, 14, 28, 6, 12,
        // 24, 48, 46, 42, 34, 18, 36, 22, 44, 38, 26, 2.
        (
            machine(
                "%x.(x : INTEGER | x + 1)(3)",
                "  Op = v := {x, y | x : INTEGER & y : INTEGER & y = x * 2}(v) mod 50",
            ),
            Some(20),
        ),
        // Each element of A gets 3, once, in any order: 2^3 states.
        (
            machine(
                "0",
                "  Op(s) = SELECT s : A & s /: dom(f) THEN\n    f := f \\/ {z_, z__ | \
                 (z_ : BOOL & z__ : POW(A * INTEGER)) & ((v = 0 => z__ = {s |-> 3}) & \
                 (not(v = 0) => z__ = {}))}(TRUE)\n  END",
            ),
            Some(8),
        ),
        // The lambda's predicate fails at -1: outside its domain.
        (machine("%x.(x : NATURAL | x + 1)(-1)", "  Op = skip"), None),
        // Two images of 1.
        (
            machine("{x, y | x : 0..3 & y : 0..3 & y >= x}(1)", "  Op = skip"),
            None,
        ),
    ];
    for (text, states) in cases {
        let (code, out, err) = check(&text, &["--json", "--no-deadlock"]);
        let r = json(&out);
        match states {
            Some(n) => {
                assert_eq!(code, Some(0), "{text}: {out}{err}");
                assert_eq!(r["states"], n, "{text}");
            }
            None => {
                assert_eq!(code, Some(1), "{text}: {out}{err}");
                assert_eq!(r["result"], "model_error", "{text}");
                let message = r["message"].as_str().unwrap();
                assert!(
                    message.contains("outside its domain") || message.contains("not a function"),
                    "{message}"
                );
            }
        }
    }
}

/// A total function into an infinite set that equations give at every
/// point of its domain is that one function (ProB's EmptyString); where
/// they miss a point or give one two images, there is no candidate to
/// take and no valuation.
#[test]
fn a_function_equations_give_everywhere_is_the_one_candidate() {
    let machine = |equations: &str| {
        format!(
            "MACHINE M\nCONSTANTS name\nPROPERTIES name : 0..2 >-> STRING & {equations}\n\
             VARIABLES x\nINVARIANT x : 0..2\nINITIALISATION x := 0\nOPERATIONS\n\
             r <-- Get(y) = PRE y : dom(name) THEN r := name(y) END;\n\
             Set(s) = PRE s : ran(name) THEN x := name~(s) END\nEND\n"
        )
    };
    let ok = machine("name(1) = \"one\" & name(2) = \"two\" & name(0) = \"\"");
    let (code, out, err) = check(&ok, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 1, "{out}");
    assert_eq!(json(&out)["states"], 3, "{out}");
    // Not injective: the membership, still checked, rejects it.
    let twice = machine("name(1) = \"a\" & name(2) = \"a\" & name(0) = \"\"");
    let (code, out, err) = check(&twice, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("no solution"), "{out}");
    // A point without an equation: STRING cannot be listed.
    let missing = machine("name(1) = \"one\" & name(2) = \"two\"");
    let (code, out, err) = check(&missing, &["--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("cannot enumerate the infinite set STRING"),
        "{err}"
    );
}

/// A guard that draws a parameter from a function's image outside the
/// function's domain has no candidate there (ProB's NFA: `zz :
/// delta(cur, input)` with `input` any integer), while the body's own
/// failures stay errors.
#[test]
fn a_guard_generator_outside_a_domain_has_no_candidate() {
    let text = "MACHINE M\nSETS S = {z0, z1}\nCONSTANTS delta\n\
                PROPERTIES delta = {(z0 |-> 0) |-> {z1}, (z1 |-> 0) |-> {z0, z1}}\n\
                VARIABLES cur\nINVARIANT cur : S\nINITIALISATION cur := z0\nOPERATIONS\n\
                Go(input, zz) = PRE input : 0..2 & zz : delta(cur, input) THEN cur := zz END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 2, "{out}");
    assert_eq!(json(&out)["transitions"], 3, "{out}");
}

/// `first(q)` is `q(1)`: in a guard, false on the empty sequence (ProB's
/// FlightSystem guards TakeTicket with `first(waitingQueue(fl)) = cu`).
#[test]
fn first_of_an_empty_sequence_makes_a_guard_false() {
    let text = "MACHINE M\nVARIABLES q\nINVARIANT q : seq(1..3)\n\
                INITIALISATION q := [2, 1]\nOPERATIONS\n\
                Take(cu) = PRE cu : 1..3 & first(q) = cu THEN q := tail(q) END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 3, "{out}");
    // In a body it is an error still.
    let body = text.replace(
        "first(q) = cu THEN q := tail(q)",
        "cu = 1 THEN q := tail(q)",
    );
    let (code, out, err) = check(&body, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        json(&out)["message"]
            .as_str()
            .unwrap()
            .contains("tail of the empty sequence"),
        "{out}"
    );
}

/// With `--undefined-blocks`, a body that applies a function outside its
/// domain does not take the transition, as ProB's model checker; the
/// result says how many and where. Without it, that is a model error.
#[test]
fn undefined_blocks_skips_a_body_outside_a_domain_and_says_so() {
    let text = "MACHINE M\nSETS ID = {i1, i2}\nVARIABLES xx, ff\n\
                INVARIANT xx : ID & ff : ID +-> ID\n\
                INITIALISATION xx := i1 || ff := {i1 |-> i2}\n\
                OPERATIONS\n  apply = BEGIN xx := ff(xx) END\nEND\n";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(json(&out)["result"], "model_error", "{out}");
    // ProB's abort_test: from xx = i2 nothing is enabled.
    let (code, out, err) = check(text, &["--json", "--undefined-blocks"]);
    assert_eq!(code, Some(1), "{out}{err}");
    let r = json(&out);
    assert_eq!(r["result"], "deadlock", "{out}");
    assert_eq!(r["states"], 2, "{out}");
    let bounded = r["bounded"].as_str().unwrap();
    assert!(
        bounded.contains("1 transition(s) not taken") && bounded.contains("m.mch:7:"),
        "{bounded}"
    );
    let (code, out, err) = check(text, &["--json", "--undefined-blocks", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["result"], "ok", "{out}");
    // A curried update that reads the function it updates outside its
    // domain stays an error, reported at the target (ProB's
    // TestNestedFunUpdate).
    let nested = "MACHINE M\nSETS ID = {aa, bb}\nVARIABLES gg\nINVARIANT gg : ID +-> (ID +-> ID)\n\
                  INITIALISATION gg := {}\nOPERATIONS\n  Set = BEGIN gg(aa)(bb) := aa END\nEND\n";
    let (code, out, err) = check(nested, &["--undefined-blocks"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("function applied outside its domain (") && out.contains("m.mch:7:15)"),
        "{out}"
    );
}

/// A parameter drawn from `perm(S)` that only the guard pins down is
/// found by the constraint solver as the bijection `1..card(S) >->> S`
/// (ProB's SortByPermutation: 11! candidates to enumerate); enumeration
/// agrees where it can finish.
#[test]
fn a_permutation_parameter_is_solved_as_a_bijection() {
    let text = |ia: &str| {
        format!(
            "MACHINE M\nCONSTANTS ia\nPROPERTIES ia = [{ia}]\nVARIABLES a\n\
             INVARIANT a : seq(NATURAL)\nINITIALISATION a := ia\nOPERATIONS\n\
             Sort(p) = PRE p : perm(dom(a)) & !i.(i : 1..(size(a) - 1) => \
             a(p(i)) <= a(p(i + 1))) THEN a := (p ; a) END\nEND\n"
        )
    };
    let long = text("4, 13, 11, 2, 5, 0, 6, 7, 9, 1, 17");
    let (code, out, err) = check(&long, &["--json", "--no-deadlock", "--time-limit", "60s"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // The array, then sorted (the sorted one sorts to itself).
    assert_eq!(json(&out)["states"], 2, "{out}");
    assert_eq!(json(&out)["transitions"], 2, "{out}");
    // With a repeated value, two permutations sort it.
    let short = text("3, 1, 3, 2");
    for solver in ["auto", "enumerate"] {
        let (code, out, err) = check(&short, &["--json", "--no-deadlock", "--solver", solver]);
        assert_eq!(code, Some(0), "{solver}: {out}{err}");
        assert_eq!(json(&out)["states"], 2, "{solver}: {out}");
        assert_eq!(json(&out)["transitions"], 4, "{solver}: {out}");
    }
}

/// A definition read by the solver's probe, the solver and enumeration
/// is computed once per valuation of what it reads, and each valuation
/// gets its own value.
#[test]
fn definitions_kept_between_solvers_follow_what_they_read() {
    let text = "MACHINE M\nCONSTANTS n, s, t\nPROPERTIES n : 1..4 & s = {x | x : 1..n} & \
                t = %x.(x : s | x * n) & card(t) >= 2\nVARIABLES v\nINVARIANT v : NATURAL\n\
                INITIALISATION v :: ran(t)\nOPERATIONS\n  Op = skip\nEND\n";
    for solver in ["auto", "cp", "enumerate"] {
        let (code, out, err) = check(text, &["--json", "--no-deadlock", "--solver", solver]);
        assert_eq!(code, Some(0), "{solver}: {out}{err}");
        // n = 2, 3, 4: 2 + 3 + 4 initial values of v.
        assert_eq!(json(&out)["constant_valuations"], 3, "{solver}: {out}");
        assert_eq!(json(&out)["states"], 9, "{solver}: {out}");
    }
}

/// The constraint solver bounds an integer by the hull of what every
/// branch of a disjunction allows over the others' domains; enumeration
/// cannot, and the solvers agree where both run.
#[test]
fn disjunctions_bound_integers_by_the_hull_of_their_branches() {
    for (properties, valuations) in [
        (
            "x : 0..10 & y : INTEGER & (y : x..x+2 or y = 1) & y >= 11",
            3,
        ),
        (
            "x : 0..10 & y : INTEGER & (y > x & y < x + 3 or y : {x - 1, 50}) & y >= 11",
            14,
        ),
        (
            "x : 0..10 & y : INTEGER & (y : x..x+2 or y >= 1) & y >= 11",
            0,
        ),
    ] {
        let text = format!(
            "MACHINE M\nCONSTANTS x, y\nPROPERTIES {properties}\n\
             VARIABLES b\nINVARIANT b : BOOL\nINITIALISATION b := TRUE\nEND\n"
        );
        for solver in ["auto", "cp"] {
            let (code, out, err) = check(&text, &["--json", "--no-deadlock", "--solver", solver]);
            if valuations == 0 {
                // One branch leaves `y` unbounded above: no hull (a model
                // error of enumeration, a refusal of the solver).
                assert!(
                    matches!(code, Some(1 | 2)),
                    "{properties} ({solver}): {out}{err}"
                );
                assert!(err.contains("no finite domain"), "{err}");
            } else {
                assert_eq!(code, Some(0), "{properties} ({solver}): {out}{err}");
                assert_eq!(
                    json(&out)["constant_valuations"],
                    valuations,
                    "{properties}"
                );
            }
        }
    }
}

/// Of two typings of a constant, the one over finite sets is enumerated
/// (`f : S +-> INTEGER` first, then `f : S --> 1..3`), the other checked.
#[test]
fn a_typing_over_an_infinite_set_gives_way_to_a_finite_one() {
    let text = "MACHINE M\nSETS S = {a, b}\nCONSTANTS f, g\n\
                PROPERTIES f : S +-> INTEGER & g : 1..2 +-> STRING & f : S --> 1..3 & \
                f(a) < f(b) & g : 1..2 --> {\"x\", \"y\"} & g(1) /= g(2)\n\
                VARIABLES v\nINVARIANT v : BOOL\nINITIALISATION v := TRUE\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 6, "{out}");
}

/// A sequence over an infinite set whose size and range PROPERTIES fix
/// is sought among the sequences over that range.
#[test]
fn sequences_take_their_elements_from_a_given_range() {
    for (set, range, valuations) in [
        ("iseq(NATURAL)", "ran(s) = {1, 5, 9}", 6),
        ("seq(INTEGER)", "ran(s) <: {-4, 7}", 8),
        ("iseq(NATURAL1)", "{2, 3, 1} = ran(s)", 6),
        ("iseq1(NATURAL)", "ran(s) = {0, 1}", 0),
    ] {
        let text = format!(
            "MACHINE M\nCONSTANTS s\nPROPERTIES s : {set} & size(s) = 3 & {range}\n\
             VARIABLES x\nINVARIANT x : BOOL\nINITIALISATION x := TRUE\nEND\n"
        );
        let (code, out, err) = check(&text, &["--json", "--no-deadlock"]);
        if valuations == 0 {
            assert_eq!(code, Some(1), "{set}: {out}{err}");
            assert!(out.contains("PROPERTIES has no solution"), "{set}: {out}");
            continue;
        }
        assert_eq!(code, Some(0), "{set}: {out}{err}");
        assert_eq!(json(&out)["constant_valuations"], valuations, "{set}");
    }
}

/// Parameters that a disjunction of equalities defines (a knight's
/// moves) are drawn from its tuples, and a variable that a `#` restricts
/// to a set its own equalities define is drawn from that set: both give
/// the states that enumerating the whole types gives, the second where
/// the type has 2^81 relations.
#[test]
fn disjunctions_and_existentials_give_the_candidates() {
    let knight = "MACHINE K\nCONSTANTS n\nPROPERTIES n = 4\n\
                  VARIABLES b, i, j\nINVARIANT b <: (1..n) * (1..n) & i : 1..n & j : 1..n\n\
                  INITIALISATION b, i, j := {(1,1)}, 1, 1\n\
                  OPERATIONS\n  Move(x, y) = PRE ((x = i + 1 & y = j + 2) or (x = i + 1 & y = j - 2) \
                  or (x = i - 1 & y = j + 2) or (x = i - 1 & y = j - 2) or (x = i + 2 & y = j + 1) \
                  or (x = i + 2 & y = j - 1) or (x = i - 2 & y = j + 1) or (x = i - 2 & y = j - 1)) \
                  & x : 1..n & y : 1..n & (x, y) /: b THEN i, j := x, y || b := b \\/ {(x, y)} END\nEND\n";
    let guarded = knight.replace(
        "PRE ((x = i + 1",
        "PRE x : 1..n & y : 1..n & (x = 0 or x /= 0) & ((x = i + 1",
    );
    let (code, out, err) = check(knight, &["--json", "--no-deadlock"]);
    let (code2, out2, _) = check(&guarded, &["--json", "--no-deadlock"]);
    assert_eq!(code, code2, "{out}{err}");
    assert_eq!(json(&out)["states"], json(&out2)["states"]);
    assert!(json(&out)["states"].as_u64() > Some(100), "{out}");
    let blocks = "MACHINE T\nSETS B = {a, b, c, d, e, f, g, h, k}\n\
                  CONSTANTS nxt\nPROPERTIES nxt = {a |-> b, b |-> c, b |-> d, d |-> e, e |-> a, e |-> f}\n\
                  VARIABLES trk\nINVARIANT trk : B <-> B\n\
                  INITIALISATION trk :: {t | #u.(u = nxt & t : dom(u) --> ran(u) & t <: u)}\nEND\n";
    let (code, out, err) = check(blocks, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["initial_states"], 4, "{out}");
    let blocks = blocks.replace(
        "trk :: {t | #u.(u = nxt & t : dom(u) --> ran(u) & t <: u)}",
        "trk : (#u.(u = nxt & trk : dom(u) --> ran(u) & trk <: u))",
    );
    let (code, out, err) = check(&blocks, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["initial_states"], 4, "{out}");
}

/// A constant that a disjunction of equalities lists is drawn from the
/// listed values, before its typing's set of functions (2^48 candidates
/// here, which the run would not finish within its limit).
#[test]
fn listed_values_come_before_a_set_of_functions() {
    let text = "MACHINE P\nSETS N = {n1, n2, n3, n4}; L = {la, lb, lc}\n\
                CONSTANTS tr\nDEFINITIONS\n\
                A == (tr = {n1 |-> {la |-> {n2}, lb |-> {}, lc |-> {}}, n2 |-> {la |-> {}, lb |-> {n1}, lc |-> {}},\
                n3 |-> {la |-> {}, lb |-> {}, lc |-> {}}, n4 |-> {la |-> {}, lb |-> {}, lc |-> {n4}}});\n\
                B == (tr = {n1 |-> {la |-> {n3}, lb |-> {}, lc |-> {}}, n2 |-> {la |-> {}, lb |-> {}, lc |-> {}},\
                n3 |-> {la |-> {}, lb |-> {n1}, lc |-> {}}, n4 |-> {la |-> {}, lb |-> {}, lc |-> {}}})\n\
                PROPERTIES tr : N --> (L --> POW(N)) & (A or B)\n\
                VARIABLES s\nINVARIANT s <: N\nINITIALISATION s := {n1}\n\
                OPERATIONS Step(x, l) = PRE x : s & l : L THEN s := s \\/ tr(x)(l) END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--time-limit", "60s"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 2, "{out}");
    // {n1}, {n1, n2} under A; {n1}, {n1, n3} under B.
    assert_eq!(json(&out)["states"], 4, "{out}");
}

/// `x ^ y = s` draws `x` and `y` from the ways to cut `s` (and three
/// parts from the ways to cut it in three; with `size(x) = n`, only the
/// cuts that give `x` n elements; a known part only where it fits), where
/// enumerating `seq(S)` is impossible.
#[test]
fn concatenations_are_cut() {
    for (init, states) in [
        ("x, y : (x ^ y = [1, 2, 3])", 4),
        ("x, y : (x ^ y = [1, 2, 3] & size(x) = 2)", 1),
        ("x, y : (x ^ y = [1, 2, 3] & 5 = size(y))", 0),
        ("x, y : ([1, 2] ^ [3] = x ^ y & x /= [])", 3),
        (
            "ANY a, b, c WHERE a ^ b ^ c = [1, 2] THEN x, y := a ^ [0] ^ b, c END",
            6,
        ),
        ("x, y : (x ^ x = [1, 2] & y = x)", 0),
        // A known part in the middle: cut at its size, then checked.
        ("x, y : (x ^ [2, 2] ^ y = [1, 2, 2, 2, 3])", 2),
        ("x, y : (x ^ [2] ^ y = [1, 2, 3, 2] & size(y) > 0)", 1),
        ("x, y : (x ^ [4] ^ y = [1, 2, 3])", 0),
    ] {
        let text = format!(
            "MACHINE C\nVARIABLES x, y\nINVARIANT x : seq(NAT) & y : seq(NAT)\n\
             INITIALISATION {init}\nEND\n"
        );
        let (code, out, err) = check(&text, &["--json", "--no-deadlock"]);
        if states == 0 {
            assert_ne!(code, Some(0), "{init}: {out}{err}");
            continue;
        }
        assert_eq!(code, Some(0), "{init}: {out}{err}");
        assert_eq!(json(&out)["initial_states"], states, "{init}: {out}");
    }
}

/// `(a, b) = e` gives `a` and `b` the components of `e`; a WHILE
/// invariant's typing conjuncts hold before the loop has assigned the
/// outputs they type (ProB's WhileAssignTupleChoose).
#[test]
fn tuples_are_solved_and_while_invariants_type_outputs() {
    let text = "MACHINE T\nDEFINITIONS \"CHOOSE.def\"\nVARIABLES xx, a, b\n\
                INVARIANT xx : INTEGER <-> INTEGER & a : INTEGER & b : INTEGER\n\
                INITIALISATION xx := {(1, 2), (3, 4)} || a := 0 || b := 0\nOPERATIONS\n\
                Swap = ANY p, q WHERE (p, q) : xx THEN a, b : ((a, b) = (q, p)) END;\n\
                p1, p2 <-- Last = VAR rest IN rest := xx;\n\
                WHILE rest /= {} DO p1, p2 : ((p1, p2) = CHOOSE(rest)); rest := rest - {(p1, p2)}\n\
                INVARIANT p1 : INTEGER & p2 : INTEGER & rest <: xx VARIANT card(rest) END END\n\
                END\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 3, "{out}");
}

/// `{x} \/ s = t` draws `x` from `t` (ProB's StringLaws quantifies so
/// over STRING, which orbit cannot list).
#[test]
fn an_element_of_a_union_is_drawn_from_the_whole() {
    let text = "MACHINE S\nVARIABLES s1, s2\n\
                INVARIANT s1 : STRING & s2 : STRING & #x.(x : STRING & {x} \\/ {s1} = {s1, s2})\n\
                INITIALISATION s1, s2 :: {(\"a\", \"a\"), (\"a\", \"b\")}\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 2, "{out}");
    let broken = text.replace("{s1} = {s1, s2}", "{s1} = {s2}");
    let (code, out, err) = check(&broken, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(json(&out)["result"], "invariant_violation", "{out}");
}

/// `e |-> y : r` with `e` known draws `y` from `r[{e}]`, where `e` is no
/// variable (ProB's EquivalenceRelation: `class(x) == {y | x |-> y :
/// RL}` applied to `[]`); with `--bound-integers`, `f : 1..n -->
/// INTEGER` draws `f`'s values from MININT..MAXINT once `n` is bound.
#[test]
fn images_of_known_points_and_bounded_function_spaces_generate() {
    let text = "MACHINE I\nCONSTANTS r\nPROPERTIES r = {([] |-> [1]), ([1] |-> [2]), ([] |-> [3])}\n\
                VARIABLES y\nINVARIANT y : seq(NATURAL)\n\
                INITIALISATION y :: {z | [] |-> z : r}\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["initial_states"], 2, "{out}");
    let text = "MACHINE F\nCONSTANTS f, n\nPROPERTIES f : 1..n --> INTEGER & n : 1..2\n\
                VARIABLES y\nINVARIANT y : INTEGER <-> INTEGER\nINITIALISATION y := f\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "without --bound-integers: {out}{err}");
    assert_eq!(json(&out)["result"], "model_error", "{out}");
    let (code, out, err) = check(text, &["--json", "--no-deadlock", "--bound-integers"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // MININT..MAXINT is -1..3: 5 functions on 1..1, 25 on 1..2.
    assert_eq!(json(&out)["initial_states"], 30, "{out}");
    // `iv : POW(INTEGER * ID)` generates `iv`, not the unbounded
    // `seq(ID)` (ProB's SeqTest2): the sequences of length 1 to MAXINT.
    let text = "MACHINE S\nSETS ID = {aa, bb}\nCONSTANTS iv\n\
                PROPERTIES iv : seq(ID) & iv : POW(INTEGER * ID) & size(iv) > 0\n\
                VARIABLES xx\nINVARIANT xx : ID\nINITIALISATION xx := first(iv)\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock", "--bound-integers"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 14, "{out}");
}

/// A parameter that an equation defines takes the equation's value, not
/// one drawn from its type and cut by `--bound-integers`: `res = (v ;
/// sq)` gives `res(1) = 9` once `v(1) = 3` (ProB's Eigenvalue: an
/// eigenvector's image outside MININT..MAXINT).
#[test]
fn parameters_defined_by_equations_are_not_cut_by_the_integer_bound() {
    let text = "MACHINE E\nVARIABLES found\nINVARIANT found : BOOL\nINITIALISATION found := FALSE\n\
                OPERATIONS\n  F(e, res) = PRE e : INTEGER & res : 1..2 --> INTEGER\n\
                & res = ([e, 1] ; %z.(z : INTEGER | z * z)) & res(1) = 9 THEN found := TRUE END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock", "--bound-integers"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // e = 3 (and no other within -1..3) from each of the two states.
    assert_eq!(json(&out)["states"], 2, "{out}");
    assert_eq!(json(&out)["transitions"], 2, "{out}");
}

/// `x : dom(r)` draws each key of a relation once, however many pairs
/// start from it; `x : dom(f)` of a function kept symbolic draws its
/// domain as `--bound-integers` lists it (ProB's CosinusExternal:
/// `PRE x : dom(cos)` with `cos = %x.(x : NATURAL | COS(x))`), and is a
/// named error without the flag.
#[test]
fn domains_are_drawn_key_by_key() {
    let text = "MACHINE D\nCONSTANTS sq\nPROPERTIES sq = %x.(x : NATURAL | x * x) \\/ %x.(x : INTEGER & x < -5 | 0)\n\
                VARIABLES r, n\nINVARIANT r : INTEGER <-> INTEGER & n : INTEGER\n\
                INITIALISATION r := {(1 |-> 2), (1 |-> 3), (2 |-> 4)} || n := 0\n\
                OPERATIONS\n  Key(x) = PRE x : dom(r) THEN n := x END;\n\
                  Square(x) = PRE x : dom(sq) THEN n := sq(x) END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock", "--bound-integers"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // n: 0, then the keys 1 and 2 and the squares 0, 1, 4, 9 of 0..3.
    assert_eq!(json(&out)["states"], 5, "{out}");
    // From each state: two keys, four squares (nothing below -5 in -1..3).
    assert_eq!(json(&out)["transitions"], 5 * 6, "{out}");
    let (code, out, err) = check(text, &["--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("not supported yet: listing the elements of"),
        "{out}{err}"
    );
}

/// A constant's second `c = E` constrains the constants `E` reads
/// (ProB's ConcatSequenceTest: `z = [..] & z = x ^ [c, c] ^ y`), where
/// its first defines it.
#[test]
fn a_second_definition_of_a_constant_is_a_constraint() {
    let text = "MACHINE Cut\nSETS A = {a, b, c}\nCONSTANTS x, y, z\n\
                PROPERTIES z = [a, b, c, c, a, c, c, b] & z = x ^ [c, c] ^ y\n\
                VARIABLES n\nINVARIANT n : seq(A)\nINITIALISATION n := x\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["initial_states"], 2, "{out}");
}

/// ProB's `SCOPE == P` leaves the states where `P` is false out of the
/// search, initial states too; a state whose successors all leave the
/// scope is no deadlock, and the run says that SCOPE cut it.
#[test]
fn scope_leaves_states_out_of_the_search() {
    let text = "MACHINE Up\nDEFINITIONS SCOPE == x <= 3\nVARIABLES x\nINVARIANT x : INTEGER\n\
                INITIALISATION x :: {0, 1, 9}\nOPERATIONS\n  Inc = x := x + 1\nEND\n";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 4, "{out}");
    assert_eq!(json(&out)["initial_states"], 2, "{out}");
    assert!(err.contains("SCOPE"), "{err}");
    // Without SCOPE the state x = 3 moves on: the same machine, bounded
    // by a guard instead, deadlocks there.
    let guarded = text
        .replace("DEFINITIONS SCOPE == x <= 3\n", "")
        .replace("{0, 1, 9}", "{0, 1}")
        .replace("Inc = x := x + 1", "Inc = SELECT x < 3 THEN x := x + 1 END");
    let (code, out, _) = check(&guarded, &["--json"]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(json(&out)["result"], "deadlock", "{out}");
}

/// With ProB's `SET_PREF_ALLOW_SIMULTANEOUS_ASSIGNMENTS`, branches of `||`
/// may write one variable: updates of different points of a function
/// merge, a branch that leaves the variable alone changes nothing, and
/// two values for one point are an error. Without it, such a `||` is
/// refused.
#[test]
fn simultaneous_assignments_merge_when_the_machine_allows_them() {
    let machine = |pref: &str, op: &str| {
        format!(
            "MACHINE M\nDEFINITIONS {pref}\nVARIABLES x, f\n\
             INVARIANT x : 0..3 & f : 0..3 --> 0..3\n\
             INITIALISATION x := 0 || f := (0..3) * {{0}}\n\
             OPERATIONS op = {op}\nEND\n"
        )
    };
    let allow = "SET_PREF_ALLOW_SIMULTANEOUS_ASSIGNMENTS == TRUE";
    // Moves a token: f(x) and f(x+1) change together, x only in one branch.
    let step = "PRE x < 3 THEN f(x) := f(x) + 1 || f(x + 1) := 2 || \
                IF x < 2 THEN x := x + 1 END || IF x = 2 THEN x := 3 END END";
    let (code, out, err) = check(&machine(allow, step), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    // [0,0,0,0] -> [1,2,0,0] -> [1,3,2,0] -> [1,3,3,2]: one state per x.
    assert_eq!(r["states"], 4, "{out}");
    let conflict = "BEGIN f(0) := 1 || f(0) := 2 END";
    let (code, out, err) = check(&machine(allow, conflict), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("conflicting simultaneous assignments to `f`"),
        "{out}"
    );
    let (code, _, err) = check(&machine("SET_PREF_MAXINT == 3", step), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is written by two branches of `||`"), "{err}");
}

/// A deferred set that is the union of constants of known sizes is as
/// large as their sum when PROPERTIES makes them disjoint (a partition),
/// else as large as the largest.
#[test]
fn a_deferred_set_partitioned_by_constants_takes_their_sizes() {
    for (disjoint, valuations) in [("a /\\ b = {} & ", 10), ("", 3)] {
        let text = format!(
            "MACHINE M\nSETS U\nCONSTANTS a, b\nPROPERTIES U = a \\/ b & {disjoint}\
             card(a) = 3 & card(b) = 2\nVARIABLES x\nINVARIANT x : BOOL\n\
             INITIALISATION x := TRUE\nEND\n"
        );
        let (code, out, err) = check(
            &text,
            &["--json", "--no-deadlock", "--no-constant-symmetry"],
        );
        assert_eq!(code, Some(0), "{text}: {out}{err}");
        assert_eq!(json(&out)["constant_valuations"], valuations, "{text}");
    }
}

/// A deferred set without a given size gets the least size PROPERTIES
/// allows when that is more than the default 2, instead of a machine
/// whose constants have no solution.
#[test]
fn deferred_set_sizes_are_inferred_from_properties() {
    let machine = |props: &str| {
        format!(
            "MACHINE S\nSETS PID; DOOR\nCONSTANTS a, b, c, d1, d2, d3\nPROPERTIES {props}\n\
             VARIABLES x\nINVARIANT x : PID\nINITIALISATION x := a\n\
             OPERATIONS\n  op(p) = PRE p : PID THEN x := p END\nEND\n"
        )
    };
    let base = "a : PID & b : PID & c : PID & d1 : DOOR & d2 : DOOR & d3 : DOOR";
    for (extra, valuations, states) in [
        // Three pairwise distinct constants need three elements.
        ("a /= b & b /= c & a /= c", 6 * 8, 6 * 8 * 3),
        // `not(a = b)` is `a /= b` (ProB's DeferredSetMinCard writes it).
        ("a /= b & b /= c & not(a = c)", 6 * 8, 6 * 8 * 3),
        // card(PID) > 3 asks for four.
        (
            "a /= b & b /= c & a /= c & card(PID) > 3",
            24 * 8,
            24 * 8 * 4,
        ),
        // DOOR = {d1, d2, d3}: exactly three doors, a permutation of them.
        ("DOOR = {d1, d2, d3} & a = b & b = c", 2 * 6, 2 * 6 * 2),
        // The same as a union of extensions.
        ("DOOR = {d1} \\/ {d2, d3} & a = b & b = c", 2 * 6, 2 * 6 * 2),
        // Nothing asks for more: the default 2.
        ("a /= b", 2 * 2 * 8, 2 * 2 * 8 * 2),
        // A bound by another set's size: DOOR has 2, so PID needs 3.
        ("card(PID) >= card(DOOR) + 1", 27 * 8, 27 * 8 * 3),
        // PID = {a}: one element, fewer than the default.
        ("PID = {a}", 8, 8),
    ] {
        let text = machine(&format!("{base} & {extra}"));
        let (code, out, err) = check(&text, &["--json", "--no-constant-symmetry"]);
        assert_eq!(code, Some(0), "{extra}: {out}{err}");
        let r = json(&out);
        assert_eq!(r["constant_valuations"], valuations, "{extra}");
        assert_eq!(r["states"], states, "{extra}");
    }
}

/// A size given through integer constants (`N = 4 & card(Agents) = N`,
/// `pos : Agents >->> 0..(N - 1)`) sizes the deferred set as ProB does;
/// it was the default 2, so PROPERTIES had no solution.
#[test]
fn deferred_set_sizes_read_integer_constants() {
    for props in [
        "N = 4 & M = N + 1 - 1 & card(Agents) = M",
        "N = 4 & pos : Agents >->> 0..(N - 1)",
        "N = 4 & card(Agents) >= N & card(Agents) <= 4",
    ] {
        let text = format!(
            "MACHINE Ring\nSETS Agents\nCONSTANTS N, M, pos\nPROPERTIES {props} & \
             M : NATURAL & M <= 9 & pos : Agents >->> 0..(N - 1)\n\
             VARIABLES x\nINVARIANT x : Agents\nINITIALISATION x :: Agents\n\
             OPERATIONS step(y) = PRE y : Agents THEN x := y END END\n"
        );
        let (code, out, err) = check(&text, &["--json", "--no-constant-symmetry"]);
        assert_eq!(code, Some(0), "{props}: {out}{err}");
        let r = json(&out);
        assert_eq!(
            r["states"],
            4 * r["constant_valuations"].as_u64().unwrap(),
            "{props}"
        );
        assert!(
            r["constant_valuations"].as_u64().unwrap() >= 24,
            "{props}: {r}"
        );
    }
}

/// `card(A) = MAXINT` sizes a deferred set by ProB's MAXINT (3 by default,
/// or `SET_PREF_MAXINT`), as ProB does; it was the default 2, so
/// PROPERTIES was false (SubsetMC).
#[test]
fn deferred_set_sizes_read_maxint() {
    for (prefs, size) in [("", 3u32), ("DEFINITIONS SET_PREF_MAXINT == 5\n", 5)] {
        let text = format!(
            "MACHINE SubsetMC\n{prefs}SETS A\nPROPERTIES card(A) = MAXINT\n\
             VARIABLES s\nINVARIANT s <: A\nINITIALISATION s := {{}}\n\
             OPERATIONS AddEl(x) = PRE x /: s THEN s := s \\/ {{x}} END END\n"
        );
        let (code, out, err) = check(&text, &["--json", "--no-deadlock"]);
        assert_eq!(code, Some(0), "{prefs}: {out}{err}");
        assert_eq!(json(&out)["states"], 1u64 << size, "{prefs}");
    }
}

/// A function that needs as many elements as a set of known size sizes a
/// deferred set, as ProB does (`make : BOOL * BOOL >->> R`: R has four).
#[test]
fn deferred_set_sizes_follow_the_functions_that_need_them() {
    let text = "MACHINE R\nSETS R; Q; P\nCONSTANTS make, inv, some\n\
                PROPERTIES make : BOOL * BOOL >->> R & inv : Q >->> 1..3 & some : {1, 2, 5} >-> P\n\
                VARIABLES x\nINVARIANT x : R\nINITIALISATION x := make(TRUE |-> TRUE)\n\
                OPERATIONS flip = x := make(FALSE |-> FALSE)\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-constant-symmetry"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    // 4! bijections onto R, 3! from Q, 3! injections into P of 3.
    assert_eq!(r["constant_valuations"], 24 * 6 * 6, "{r}");
    assert_eq!(r["states"], 24 * 6 * 6 * 2, "{r}");
}

/// A deferred set that PROPERTIES cuts into disjoint non-empty parts, some
/// of them cut again (`Inst = Invalid \/ Valid & Valid = Stop \/ Exec`),
/// gets as many elements as the parts need, as ProB does.
#[test]
fn deferred_set_sizes_follow_partitions_into_non_empty_parts() {
    let machine = |extra: &str| {
        format!(
            "MACHINE Parts\nSETS Inst\nCONSTANTS Invalid, Valid, Stop, Exec\n\
             PROPERTIES Invalid <: Inst & Valid <: Inst & Stop <: Valid & Exec <: Valid\n\
             & Invalid /= {{}} & Valid /= {{}} & Stop /= {{}} & Exec /= {{}}\n\
             & Inst = Invalid \\/ Valid & Valid = Stop \\/ Exec {extra}\n\
             VARIABLES x\nINVARIANT x : Inst\nINITIALISATION x :: Inst\n\
             OPERATIONS step(y) = PRE y : Inst THEN x := y END END\n"
        )
    };
    for (extra, valuations) in [
        // Disjoint parts: three elements, one for each innermost part.
        ("& Invalid /\\ Valid = {} & Stop /\\ Exec = {}", 6),
        // Parts that may overlap ask for no more than the default 2 (each
        // part one element at least): Valid = {1} or {2} with 2 choices
        // of Invalid and one cover, Valid = {1, 2} with 3 and 7.
        ("", 2 + 2 + 3 * 7),
    ] {
        let text = machine(extra);
        let (code, out, err) = check(&text, &["--json", "--no-constant-symmetry"]);
        assert_eq!(code, Some(0), "{extra}: {out}{err}");
        let r = json(&out);
        assert_eq!(r["constant_valuations"], valuations, "{extra}: {r}");
    }
}

/// Constants that PROPERTIES does not relate are solved part by part: a
/// part without solution ends the search at once, however many
/// valuations the others have (3^40 functions here) and however many
/// constants it binds itself, and the valuations
/// of the whole are the product of the parts'.
#[test]
fn independent_parts_of_properties_are_solved_apart() {
    let machine = |props: &str| {
        format!(
            "MACHINE Parts\nCONSTANTS f, n, a\nPROPERTIES {props}\n\
             VARIABLES x\nINVARIANT x : 0..1\nINITIALISATION x := 0\n\
             OPERATIONS flip = x := 1 - x END\n"
        )
    };
    // Enumeration alone (the constraint solver could find this too).
    let has_no_solution = |props: &str| {
        let (code, out, err) = check(
            &machine(props),
            &["--json", "--solver", "enumerate", "--time-limit", "60s"],
        );
        assert_eq!(code, Some(1), "{out}{err}");
        assert!(
            json(&out)["message"]
                .as_str()
                .is_some_and(|m| m.contains("PROPERTIES has no solution")),
            "{out}"
        );
    };
    has_no_solution("f : 1..40 --> 1..3 & n : 1..5 & n > 7 & a : BOOL");
    // The part without solution has more constants than the huge one: the
    // fewest candidates come first, not the fewest constants.
    has_no_solution(
        "f : 1..40 --> 1..3 & n : 1..5 & a : BOOL & (a = TRUE => n > 7) & (a = FALSE => n > 9)",
    );
    let text = machine("f : 1..2 --> 1..3 & f(1) /= 2 & n : 1..4 & n mod 2 = 0 & a : BOOL");
    let (code, out, err) = check(&text, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    // 6 functions, 2 even numbers, 2 booleans; two states each.
    assert_eq!(r["constant_valuations"], 6 * 2 * 2, "{r}");
    assert_eq!(r["states"], 6 * 2 * 2 * 2, "{r}");
}

/// With `--bound-integers` a bound beyond MAXINT (or below MININT) is kept
/// and the other side cut at it, as ProB enumerates: `maxb > 1000` gives
/// 1001 only, `minb <= 0` gives MININT..0 (ProB's SimpleAccount: 2007
/// states).
#[test]
fn bounds_beyond_maxint_are_kept_with_bound_integers() {
    let text = "MACHINE Account\nCONSTANTS minb, maxb\n\
                PROPERTIES minb < maxb & minb <= 0 & maxb >= 0 & maxb > 1000\n\
                VARIABLES balance\nINVARIANT balance : minb..maxb\nINITIALISATION balance := 0\n\
                OPERATIONS\n  Deposit(s) = SELECT s > 0 & balance + s <= maxb THEN balance := balance + s END;\n\
                  Withdraw(s) = SELECT s > 0 & balance - s >= minb THEN balance := balance - s END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--bound-integers"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    assert_eq!(r["constant_valuations"], 2, "{r}");
    assert_eq!(r["states"], 1003 + 1002, "{r}");
}

/// Names a definition stands for in a declaration list, a bound variable
/// that shadows a definition of the same name, and `h(i)(j) :=`.
#[test]
fn definitions_in_declarations_are_expanded_and_bound_names_shadow_them() {
    let text = "MACHINE D
DEFINITIONS scope_Unused == 3; n == 2; VARS == x, h
VARIABLES VARS
INVARIANT x : 0..n & !n.(n : 1..2 => n > 0) & h : 1..2 --> (1..2 --> 0..1)
  & {n | n : 1..3 & n > 1} = 2..3 & SIGMA(n).(n : 1..2 | n) = 3
INITIALISATION x := 0 || h := %i.(i : 1..2 | %j.(j : 1..2 | 0))
OPERATIONS
  op = PRE x < n THEN x := x + 1 END;
  set(i, n) = PRE i : 1..2 & n : 1..2 THEN h(i)(n) := 1 END;
  look = ANY n WHERE n : 0..1 & n = h(1)(1) THEN x := n END
END
";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    // x in 0..2 (look can also set it back to h(1)(1)), 16 values of h.
    assert_eq!(r["states"], 3 * 16, "{r}");
}

/// Records: `rec`, `struct`, field access, field order, sets of records
/// under symmetry, and the type errors records can make.
#[test]
fn records_are_values_with_named_fields() {
    let text = "MACHINE R
SETS USER
CONSTANTS users
PROPERTIES users = {u | u : struct(id: USER, age: 0..1)} & rec(b: 1, a: 2) = rec(a: 2, b: 1)
  & rec(a: 1)'a = 1 & card(struct(a: 1..3, b: BOOL, c: {TRUE})) = 6
VARIABLES db, cur
INVARIANT db <: struct(id: USER, age: 0..2) & cur : struct(name: BOOL)
INITIALISATION db := {} || cur := rec(name: TRUE)
OPERATIONS
  add(r) = PRE r : users & !x.(x : db => x'id /= r'id) THEN db := db \\/ {r} END;
  older(r) = PRE r : db & r'age < 2 THEN db := (db - {r}) \\/ {rec(id: r'id, age: r'age + 1)} END;
  flip = cur := rec(name: bool(cur'name = FALSE));
  n <-- count = n := card({x | x : db & x'age = 2})
END
";
    // Each user absent or of age 0, 1, 2 (4 * 4), times `cur`; with
    // symmetry the unordered pairs of user states: 10 * 2.
    for (args, states) in [
        (&[][..], 32),
        (&["--symmetry", "canon"], 20),
        (&["--symmetry", "flood"], 20),
        (&["--threads", "1"], 32),
    ] {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let (code, out, err) = check(text, &all);
        assert_eq!(code, Some(0), "{args:?}: {out}{err}");
        assert_eq!(json(&out)["states"], states, "{args:?}");
    }
    for (bad, message) in [
        (
            "rec(a: 1) = rec(b: 1)",
            "expected struct(a:INTEGER), found struct(b:INTEGER)",
        ),
        ("rec(a: 1)'b = 1", "the record has no field `b`"),
        (
            "(1 |-> 2)'a = 1",
            "`'a` needs a record, found INTEGER*INTEGER",
        ),
    ] {
        let (code, _, err) = check(&format!("MACHINE B\nPROPERTIES {bad}\nEND\n"), &[]);
        assert_eq!(code, Some(2), "{bad}");
        assert!(err.contains(message), "{bad}: {err}");
    }
    // Assigning fields, also nested ones and several at once.
    let text = "MACHINE RW
VARIABLES r, s
INVARIANT r : struct(a: 0..2, b: BOOL) & s : struct(in: struct(x: 0..1, y: BOOL), one: struct(z: BOOL))
INITIALISATION r := rec(a: 0, b: FALSE) || s := rec(in: rec(x: 0, y: FALSE), one: rec(z: FALSE))
OPERATIONS
  inc = PRE r'a < 2 THEN r'a := r'a + 1 END;
  flip = r'b := bool(r'b = FALSE);
  deep = s'in'y := TRUE ; s'one'z := TRUE;
  both = r'a, s'in'x := 0, 1
END
";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // r: 3 * 2 values; s: in'x set or not, times deep done or not.
    assert_eq!(json(&out)["states"], 6 * 4);
    let (code, _, err) = check(
        "MACHINE B\nVARIABLES r\nINVARIANT r : struct(a: BOOL)\nINITIALISATION r := rec(a: TRUE)\n\
         OPERATIONS op = r'b := FALSE\nEND\n",
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("the record has no field `b`"), "{err}");
}

/// `floor`, `ceiling` and `real` are ProB's functions on reals only where
/// applied; older machines use them as names. A machine with no constants
/// whose PROPERTIES are false says so.
#[test]
fn real_function_names_are_plain_names_unless_applied() {
    let (code, out, err) = check(
        "MACHINE S\nCONCRETE_VARIABLES floor\nINVARIANT floor > 0\nINITIALISATION floor := 4\n\
         OPERATIONS down = PRE floor > 1 THEN floor := floor - 1 END\nEND\n",
        &["--json", "--no-deadlock"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 4);
    let (code, _, err) = check(
        "MACHINE F\nCONSTANTS c\nPROPERTIES c = floor(2)\nEND\n",
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("not supported yet: real numbers"), "{err}");
    let (code, out, _) = check(
        "MACHINE P\nPROPERTIES \"s\" : STRING \\ {\"s\"}\nEND\n",
        &[],
    );
    assert_eq!(code, Some(1));
    assert!(out.contains("PROPERTIES is false"), "{out}");
}

/// `s : seq(S)` bounded by `size(s) <= n` elsewhere is enumerated over the
/// sequences up to that length (ProB solves these too).
#[test]
fn sequences_bounded_by_their_size_are_enumerated() {
    let text = "MACHINE SQ
CONSTANTS words, n
PROPERTIES n : NATURAL & n > 0 & n <= 2 & words = {w | w : seq(BOOL) & size(w) <= n}
  & card(words) = 1 + 2 + 4 * (n - 1)
VARIABLES q
INVARIANT q : seq1(0..1) & size(q) <= 3
INITIALISATION q :: {s | s : seq1(0..1) & size(s) < 2}
OPERATIONS
  push(x) = PRE x : 0..1 & size(q) < 3 THEN q := q <- x END;
  pop = PRE size(q) > 1 THEN q := tail(q) END
END
";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    assert_eq!(r["constant_valuations"], 2);
    // Non-empty sequences over 0..1 of length at most 3, per valuation.
    assert_eq!(r["states"], 2 * (2 + 4 + 8));
    assert_eq!(r["initial_states"], 4);
    // `card(s)` bounds a sequence as `size(s)` does, whatever MAXINT is.
    let by_card = "MACHINE SC\nDEFINITIONS SET_PREF_MAXINT == 2147483647\nSETS ID = {aa, bb}\n\
                   CONSTANTS s\nPROPERTIES s : seq(ID) & card(s) = 2\nEND\n";
    let (code, out, err) = check(by_card, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 4, "{out}");
}

/// Linear comparisons bound a variable too: `c + d <= 4`, `1 <= c - 2`,
/// `10 >= 3 + c`.
#[test]
fn linear_comparisons_bound_integers() {
    let machine = |props: &str| {
        format!(
            "MACHINE B\nCONSTANTS c, d\nPROPERTIES {props}\nVARIABLES x\nINVARIANT x : BOOL\n\
             INITIALISATION x := TRUE\nOPERATIONS op = x := bool(x = FALSE)\nEND\n"
        )
    };
    for (props, valuations) in [
        ("c : NATURAL & c + 1 <= 3 & d = 0", 3),
        (
            "c : NATURAL & d : NATURAL & d > 0 & d < 3 & c + d <= 4",
            4 + 3,
        ),
        ("c : INTEGER & 1 <= c - 2 & c - 2 < 3 & d = 0", 2),
        ("c : NATURAL & 10 >= 3 + c & d = 0", 8),
        // `d - c` turns the comparison round: c <= 7.
        ("c : NATURAL & 10 - c >= 3 & d = 0", 8),
        ("c : INTEGER & d : 0..1 & 5 - c < 3 + d & c < 6", 3 + 4),
    ] {
        let (code, out, err) = check(&machine(props), &["--json"]);
        assert_eq!(code, Some(0), "{props}: {out}{err}");
        assert_eq!(json(&out)["constant_valuations"], valuations, "{props}");
    }
}

/// LTL assertions in DEFINITIONS are checked by default, after the
/// search, with a lasso for a counterexample; `--no-assert-ltl` leaves
/// them out; `--ltl` adds formulas; CTL assertions are named as not
/// checked.
#[test]
fn temporal_assertions_are_checked() {
    let machine = "MACHINE L\nDEFINITIONS ASSERT_LTL == \"G {x < 2}\";\n  \
                   ASSERT_LTL_live == \"G F {x = 0}\"\nVARIABLES x\nINVARIANT x : 0..3\n\
                   INITIALISATION x := 0\nOPERATIONS inc = PRE x < 3 THEN x := x + 1 END;\n\
                   reset = PRE x = 3 THEN x := 0 END\nEND\n";
    let (code, out, err) = check(machine, &["--json"]);
    assert_eq!(code, Some(1), "{out}{err}");
    let report = json(&out);
    assert_eq!(report["result"], "ltl_violation", "{report}");
    assert!(
        report["message"].as_str().unwrap().contains("ASSERT_LTL"),
        "{report}"
    );
    // x reaches 2, where `x < 2` fails; the run goes on to 3 and resets.
    let trace = report["trace"].as_array().expect("a trace");
    let start = report["cycle_start"].as_u64().expect("a lasso") as usize;
    assert!(start < trace.len() - 1, "{report}");
    assert!(
        trace[start + 1..].iter().any(|s| s["label"] == "reset"),
        "{report}"
    );
    let (code, out, err) = check(machine, &["--json", "--no-assert-ltl"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(json(&out).get("ltl").is_none());
    let (code, out, err) = check(
        machine,
        &[
            "--json",
            "--no-assert-ltl",
            "--ltl",
            "G F {x = 0}",
            "--ltl",
            "WF(reset) => G (e(reset) => F [reset])",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["ltl"].as_array().map(Vec::len), Some(2), "{out}");
    // ProB's atoms on the enabled operations: one of inc and reset is
    // always enabled, inc not at 3; no step stays put.
    for (formula, code) in [
        ("G controller(inc, reset) & G deterministic(inc,reset)", 0),
        ("F deadlock(inc)", 0),
        ("G deadlock(inc)", 1),
        ("G not sink", 0),
        ("F sink", 1),
    ] {
        let (got, out, err) = check(machine, &["--json", "--no-assert-ltl", "--ltl", formula]);
        assert_eq!(got, Some(code), "{formula}: {out}{err}");
    }
    // A B predicate that does not type, and an unknown operation: refused.
    let (code, _, err) = check(machine, &["--no-assert-ltl", "--ltl", "G {x = TRUE}"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("in the LTL atom `{x = TRUE}`"), "{err}");
    // In an ASSERT_LTL definition, the error points at the atom itself.
    let typo = machine.replace("G {x < 2}", "G F {x = TRUE}");
    let (code, _, err) = check(&typo, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("in the LTL atom `{x = TRUE}`") && err.contains(":2:37"),
        "{err}"
    );
    // Unless the definitions are left out: then their atoms are not read
    // (nor an atom's operation arguments), as in ProB's model checker.
    let (code, out, err) = check(&typo, &["--json", "--no-assert-ltl"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let arity = machine.replace("G {x < 2}", "G [inc(1)]");
    let (code, _, err) = check(&arity, &[]);
    assert_eq!(code, Some(2), "{err}");
    let (code, out, err) = check(&arity, &["--no-assert-ltl"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, _, err) = check(machine, &["--no-assert-ltl", "--ltl", "G e(dec)"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("`dec`") && err.contains("inc, reset"), "{err}");
    let (code, _, err) = check(
        "MACHINE C\nDEFINITIONS ASSERT_CTL == \"AG {x < 2}\"\nVARIABLES x\nINVARIANT x : 0..3\n\
         INITIALISATION x := 0\nOPERATIONS inc = PRE x < 3 THEN x := x + 1 END\nEND\n",
        &["--no-deadlock"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("not supported yet: CTL properties (ASSERT_CTL)"),
        "{err}"
    );
}

/// `--por` with LTL on B: the graph of an `ASSERT_LTL` without `X`, `[op]`
/// or fairness is built through ample sets (the invisible `incB` runs
/// first), with the unreduced verdict; `X` is refused by name.
#[test]
fn temporal_assertions_with_partial_order_reduction() {
    let machine = |formula: &str| {
        format!(
            "MACHINE P\nDEFINITIONS ASSERT_LTL == \"{formula}\"\nVARIABLES a, b\n\
             INVARIANT a : 0..2 & b : 0..2\nINITIALISATION a := 0 || b := 0\nOPERATIONS\n  \
             incA = PRE a < 2 THEN a := a + 1 END;\n  incB = PRE b < 2 THEN b := b + 1 END\nEND\n"
        )
    };
    for (formula, result, code) in [
        ("F {a = 2}", "ok", 0),
        ("F G {b = 2}", "ok", 0),
        ("G {a < 2}", "ltl_violation", 1),
    ] {
        for (flags, states) in [
            (&["--json", "--no-deadlock"][..], 9),
            (&["--json", "--no-deadlock", "--por"], 5),
        ] {
            let (got, out, err) = check(&machine(formula), flags);
            assert_eq!(got, Some(code), "{formula} {flags:?}: {out}{err}");
            let report = json(&out);
            assert_eq!(report["result"], result, "{formula} {flags:?}: {report}");
            assert_eq!(
                report["ltl"][0]["model_states"], states,
                "{formula} {flags:?}: {report}"
            );
        }
    }
    let (code, _, err) = check(&machine("G X {a < 3}"), &["--no-deadlock", "--por"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("partial order reduction with the next-time operator X"),
        "{err}"
    );
}

/// `[op(args)]` as ProB reads it: each argument an expression over the
/// state the step leaves, empty for any value, `op()` any arguments; the
/// counterexample names the step that matched, even where another step of
/// the operation reaches the same state; arity and types are checked;
/// symmetry reduction refuses such atoms.
#[test]
fn step_atoms_with_arguments() {
    let machine = "MACHINE S\nDEFINITIONS ASSERT_LTL == \"G not [tick(2)]\"\nVARIABLES n\n\
                   INVARIANT n : 0..1\nINITIALISATION n := 0\nOPERATIONS\n  \
                   tick(x) = PRE x : 0..2 THEN skip END;\n  flip = n := 1 - n\nEND\n";
    let labels = |out: &str| -> Vec<String> {
        json(out)["trace"]
            .as_array()
            .expect("a trace")
            .iter()
            .map(|s| s["label"].as_str().unwrap().to_string())
            .collect()
    };
    // Every tick loops on its state, so the model has edges of `tick` to
    // the same state that only their arguments tell apart: the lasso names
    // tick(2), then repeats any step.
    let (code, out, err) = check(machine, &["--json"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(labels(&out)[1], "tick(2)", "{out}");
    for (formula, code, step) in [
        // From n = 1, tick(n + 1) is tick(2).
        ("G ([tick(n + 1)] => {n = 0})", 1, Some("tick(2)")),
        ("G ([tick(n + 1)] => {n + 1 /= 2} or [tick(2)])", 0, None),
        ("G ([tick()] => not [flip])", 0, None),
        ("G F [flip()]", 1, Some("tick(0)")),
    ] {
        let (got, out, err) = check(machine, &["--json", "--no-assert-ltl", "--ltl", formula]);
        assert_eq!(got, Some(code), "{formula}: {out}{err}");
        if let Some(step) = step {
            assert!(labels(&out).iter().any(|l| l == step), "{formula}: {out}");
        }
    }
    for (formula, message) in [
        (
            "G not [tick(1, 2)]",
            "`tick` has 1 parameter(s), the atom gives 2 argument(s)",
        ),
        (
            "G not [tick(TRUE)]",
            "in the LTL atom `[tick(TRUE)]`: expected INTEGER, found BOOL",
        ),
        ("G not [tick(m)]", "unknown identifier `m`"),
    ] {
        let (got, _, err) = check(machine, &["--no-assert-ltl", "--ltl", formula]);
        assert_eq!(got, Some(2), "{formula}: {err}");
        assert!(err.contains(message), "{formula}: {err}");
    }
    let symmetric = "MACHINE T\nSETS P\nCONSTANTS c\nPROPERTIES c : P\nVARIABLES s\n\
                     INVARIANT s <: P\nINITIALISATION s := {}\nOPERATIONS\n  \
                     add(p) = PRE p : P - s THEN s := s \\/ {p} END\nEND\n";
    let (got, _, err) = check(
        symmetric,
        &[
            "--set",
            "P=2",
            "--no-deadlock",
            "--symmetry",
            "canon",
            "--ltl",
            "G not [add(c)]",
        ],
    );
    assert_eq!(got, Some(2), "{err}");
    assert!(err.contains("with symmetry reduction"), "{err}");
}

/// Traces print records with their field names, in states and in labels.
#[test]
fn traces_print_records_with_field_names() {
    let text = "MACHINE R2
SETS USER = {ann, bob}
VARIABLES db, hist
INVARIANT db <: struct(id: USER, age: 0..2) & hist : seq(struct(n: 0..3, ok: BOOL)) & size(hist) < 1
INITIALISATION db := {} || hist := []
OPERATIONS
  r <-- add(u) = PRE u : struct(id: USER, age: 0..0) & db = {} THEN
    db := {u} || hist := hist <- rec(ok: TRUE, n: 1) || r := rec(last: u)
  END
END
";
    let (code, out, _) = check(text, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("add(rec(age:0,id:ann)) --> rec(last:rec(age:0,id:ann))"),
        "{out}"
    );
    assert!(out.contains("db = {rec(age:0,id:ann)}"), "{out}");
    assert!(out.contains("hist = [rec(n:1,ok:TRUE)]"), "{out}");
}

/// `--bound-integers` enumerates an integer that nothing bounds within
/// MININT..MAXINT, as ProB does, and says that the result covers only
/// those values; without it the variable is refused by name.
#[test]
fn bound_integers_enumerates_within_maxint_and_says_so() {
    let text = "MACHINE Simple
VARIABLES got
INVARIANT got : INTEGER
INITIALISATION got := 0
OPERATIONS
  read(xx) = PRE xx : NATURAL THEN got := xx END
END
";
    let (code, out, _) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        json(&out)["message"]
            .as_str()
            .unwrap()
            .contains("cannot enumerate `xx`")
    );
    let (code, out, err) = check(
        text,
        &[
            "--json",
            "--no-deadlock",
            "--bound-integers",
            "--maxint",
            "5",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    // got = 0..5.
    assert_eq!(r["states"], 6);
    assert!(
        r["bounded"].as_str().unwrap().contains("--bound-integers"),
        "{r}"
    );
    assert!(
        err.contains("enumerated only within MININT..MAXINT (-1..5)"),
        "{err}"
    );
    // `x :: NATURAL` too; membership in NATURAL is not bounded (x reaches 10).
    let grow = "MACHINE B\nVARIABLES x\nINVARIANT x : NATURAL\nINITIALISATION x :: NATURAL\n\
                OPERATIONS inc = PRE x < 10 THEN x := x + 1 END\nEND\n";
    let (code, out, err) = check(grow, &["--json", "--no-deadlock", "--bound-integers"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    assert_eq!(
        (r["initial_states"].as_u64(), r["states"].as_u64()),
        (Some(4), Some(11))
    );
    let (_, out, _) = check(text, &["--no-deadlock", "--bound-integers"]);
    assert!(
        out.contains("no error found in the states explored (--bound-integers"),
        "{out}"
    );
    // Where nothing needed the bound, the run is complete and says so.
    let bounded_anyway = "MACHINE C\nVARIABLES c\nINVARIANT c : NATURAL\nINITIALISATION c := 0\n\
                          OPERATIONS up(n) = PRE n : NATURAL & n <= 2 & c < 4 THEN c := c + n END\nEND\n";
    let (code, out, err) = check(
        bounded_anyway,
        &["--json", "--no-deadlock", "--bound-integers"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let r = json(&out);
    assert_eq!(r["states"], 6, "{r}");
    assert!(r.get("bounded").is_none_or(|b| b.is_null()), "{r}");
    let (_, out, _) = check(bounded_anyway, &["--no-deadlock", "--bound-integers"]);
    assert!(
        out.contains("no error found: all reachable states explored"),
        "{out}"
    );
    // A deadlock may be one only within the bound: the headline says so.
    let stuck = "MACHINE S\nVARIABLES d\nINVARIANT d : BOOL\nINITIALISATION d := FALSE\n\
                 OPERATIONS go(n) = PRE n : NATURAL & n > 100 & d = FALSE THEN d := TRUE END\nEND\n";
    let (code, out, _) = check(stuck, &["--bound-integers"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("deadlock: a state has no enabled operation")
            && out.contains("an operation enabled only by values outside them was not seen"),
        "{out}"
    );
    assert_murphi_refuses("--bound-integers");
}

/// By default (`--constant-symmetry`) a B machine sets up ProB's normal
/// form of the constant valuations (as ProB's model checker does) and
/// leaves states unreduced; `--no-constant-symmetry` sets up every one: a Hanoi-like machine whose two distinct constants range over
/// a deferred set of 3 keeps 1 of its 6 valuations and a sixth of its
/// states, with the same verdicts; Murphi programs refuse the flag.
#[test]
fn constant_symmetry_sets_up_prob_normal_form_only() {
    let text = "MACHINE Pegs\nSETS S\nCONSTANTS orig, dest\n\
                PROPERTIES orig : S & dest : S & orig /= dest & card(S) = 3\n\
                VARIABLES at\nINVARIANT at : S\nINITIALISATION at := orig\n\
                OPERATIONS move(s) = PRE s : S & s /= at THEN at := s END END\n";
    let counts = |flags: &[&str]| {
        let (code, out, err) = check(text, &[&["--json", "--no-deadlock"], flags].concat());
        assert_eq!(code, Some(0), "{err}");
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        (r["constant_valuations"].as_u64(), r["states"].as_u64())
    };
    assert_eq!(counts(&["--no-constant-symmetry"]), (Some(6), Some(18)));
    assert_eq!(counts(&[]), (Some(1), Some(3)));
    assert_eq!(counts(&["--constant-symmetry"]), (Some(1), Some(3)));
    // The last of the two flags wins.
    let both = ["--constant-symmetry", "--no-constant-symmetry"];
    assert_eq!(counts(&both), (Some(6), Some(18)));
    let broken = text.replace("INVARIANT at : S", "INVARIANT at : S & at /= dest");
    for flags in [&[][..], &["--no-constant-symmetry"]] {
        let (code, out, _) = check(&broken, &[&["--json"], flags].concat());
        assert_eq!(code, Some(1), "{flags:?}");
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(r["result"], "invariant_violation", "{flags:?}");
    }
    assert_murphi_refuses("--constant-symmetry");
    assert_murphi_refuses("--no-constant-symmetry");
    // A machine can turn it off as in ProB; the command line wins.
    let off = text.replace(
        "SETS S",
        "DEFINITIONS SET_PREF_STATIC_SYMMETRY_DETECTION == FALSE\nSETS S",
    );
    let counts_of = |text: &str, flags: &[&str]| {
        let (code, out, err) = check(text, &[&["--json", "--no-deadlock"], flags].concat());
        assert_eq!(code, Some(0), "{err}");
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        (r["constant_valuations"].as_u64(), r["states"].as_u64())
    };
    assert_eq!(counts_of(&off, &[]), (Some(6), Some(18)));
    assert_eq!(
        counts_of(&off, &["--constant-symmetry"]),
        (Some(1), Some(3))
    );
}

/// A bijection between two deferred sets is fixed to `A(i) |-> B(i)` (the
/// first one onto each set), as ProB's recorded counts show: of the
/// Dining philosophers' 24 x 9 fork assignments of four, the 9 with the
/// first `lFork`; an enumerated target, a target with its own rule or a
/// bijection onto a set already fixed keep every valuation.
#[test]
fn bijections_between_deferred_sets_are_fixed() {
    let machine = |sets: &str, props: &str| {
        format!(
            "MACHINE Dining\nSETS {sets}\nCONSTANTS lFork, rFork\nPROPERTIES {props} & \
             !pp.(pp : Phil => lFork(pp) /= rFork(pp))\n\
             VARIABLES taken\nINVARIANT taken : Forks +-> Phil\nINITIALISATION taken := {{}}\n\
             OPERATIONS take(p, f) = PRE p : Phil & f : Forks & f /: dom(taken) & \
             lFork(p) = f THEN taken(f) := p END END\n"
        )
    };
    let both = "lFork : Phil >->> Forks & rFork : Phil >->> Forks";
    let valuations = |text: &str, flags: &[&str]| {
        let (code, out, err) = check(text, &[&["--json", "--no-deadlock"], flags].concat());
        assert_eq!(code, Some(0), "{out}{err}");
        json(&out)["constant_valuations"].as_u64()
    };
    let deferred = machine(
        "Phil; Forks",
        &format!("{both} & card(Phil) = 4 & card(Forks) = 4"),
    );
    assert_eq!(valuations(&deferred, &[]), Some(9));
    assert_eq!(
        valuations(&deferred, &["--no-constant-symmetry"]),
        Some(24 * 9)
    );
    let enumerated = machine(
        "Phil; Forks = {f1, f2, f3}",
        &format!("{both} & card(Phil) = 3"),
    );
    assert_eq!(valuations(&enumerated, &[]), Some(6 * 2));
    // A fork constant takes Forks' first element (a rule of its own): no
    // bijection rule, which would leave no valuation here.
    let ruled = machine(
        "Phil; Forks",
        &format!(
            "{both} & card(Phil) = 3 & card(Forks) = 3 & p0 : Phil & f0 : Forks & rFork(p0) = f0"
        ),
    )
    .replace("CONSTANTS lFork, rFork", "CONSTANTS lFork, rFork, p0, f0");
    assert_eq!(
        valuations(&ruled, &["--no-constant-symmetry"]),
        Some(6 * 2 * 3)
    );
    assert_eq!(valuations(&ruled, &[]), Some(2 * 2));
}

/// A bijection between a deferred set and a set of values of no deferred
/// set (ProB's records) is fixed too, to the order of those values: of
/// `make : BOOL * BOOL >->> R` and `un : Q >->> 1..3` the one valuation
/// ProB sets up, of 24 x 6; a bijection from a set of another deferred
/// set's elements keeps every valuation.
#[test]
fn bijections_with_sets_of_other_values_are_fixed() {
    let machine = |consts: &str, props: &str| {
        format!(
            "MACHINE Records\nSETS R; Q; P\nCONSTANTS {consts}\nPROPERTIES {props}\n\
             VARIABLES x\nINVARIANT x : BOOL\nINITIALISATION x := TRUE\n\
             OPERATIONS flip = x := bool(x = FALSE) END\n"
        )
    };
    let valuations = |text: &str, flags: &[&str]| {
        let (code, out, err) = check(text, &[&["--json", "--no-deadlock"], flags].concat());
        assert_eq!(code, Some(0), "{out}{err}");
        json(&out)["constant_valuations"].as_u64()
    };
    let records = machine(
        "make, un",
        "make : BOOL * BOOL >->> R & un : Q >->> 1..3 & card(P) = 2",
    );
    assert_eq!(valuations(&records, &[]), Some(1));
    assert_eq!(
        valuations(&records, &["--no-constant-symmetry"]),
        Some(24 * 6)
    );
    let other = machine(
        "pos, sig",
        "pos : P >->> 1..2 & sig : ran(pos~) >->> Q & card(Q) = 2",
    );
    assert_eq!(valuations(&other, &[]), Some(2));
    assert_eq!(valuations(&other, &["--no-constant-symmetry"]), Some(2 * 2));
}

/// A sequence bounded by `size(z) : 0..n` is enumerated up to length `n`
/// (it was "sequences are unbounded"; `size(z) <= n` already worked).
#[test]
fn sequences_bounded_by_a_size_interval_are_enumerated() {
    let text = "MACHINE SeqSize\nSETS A = {a, b}\nCONSTANTS maxsz, All\n\
                PROPERTIES maxsz = 2 & All = {z | z : seq(A) & size(z) : 1..maxsz}\n\
                VARIABLES s\nINVARIANT s : All\nINITIALISATION s :: All\n\
                OPERATIONS grow(x) = PRE x : A & size(s) < maxsz THEN s := s <- x END END\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    // [a], [b] and the four sequences of length 2; the empty one is below
    // the interval.
    assert_eq!(
        (r["constant_valuations"].as_u64(), r["states"].as_u64()),
        (Some(1), Some(6))
    );
}

/// `{x1, c, x2, y1, y2} = {1, 2, 3, 4, 5}` bounds each of the constants
/// (typed `NATURAL`) by the set: ProB's `Sum9` puzzle has its 8 solutions
/// (c = 3; x1 + x2 = y1 + y2 = 6 from {1, 5} and {2, 4}). Before, the
/// constants were "unbounded", and with `--bound-integers` bounded by
/// MAXINT = 3, leaving no solution.
#[test]
fn a_set_extension_equal_to_a_set_bounds_its_elements() {
    let text = "MACHINE Sum9\nCONSTANTS x1, c, x2, y1, y2\nPROPERTIES\n\
                x1 : NATURAL & x2 : NATURAL & c : NATURAL & y1 : NATURAL & y2 : NATURAL &\n\
                {x1, c, x2, y1, y2} = {1, 2, 3, 4, 5} & x1 + c + x2 = 9 & y1 + c + y2 = 9\n\
                END\n";
    for flags in [&[][..], &["--bound-integers"]] {
        let (_, out, err) = check(text, &[&["--json", "--no-deadlock"], flags].concat());
        let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
        assert_eq!(
            r["constant_valuations"].as_u64(),
            Some(8),
            "{flags:?}: {out}"
        );
    }
}

#[test]
fn b_states_are_stored_packed_to_the_bits_their_types_need() {
    // r: 9 bits (one per pair of P * S), who: 2 bits (an index below 3),
    // flag: 1 bit, s: a 64-bit content id, n: 9 bits (NAT is 0..3 by
    // default, with room for 256 values outside): 85 bits.
    let text = "MACHINE Packed
SETS P = {p1, p2, p3}; S = {a, b, c}
VARIABLES r, who, flag, s, n
INVARIANT r : P <-> S & who : P & flag : BOOL & s : seq(P) & n : NAT
INITIALISATION r := {}; who := p1; flag := FALSE; s := []; n := 0
OPERATIONS
  step = PRE n < 3 THEN
    n := n + 1 || flag := bool(flag = FALSE) || who := p3 ||
    r := r \\/ {who |-> c} || s := s <- who
  END
END
";
    let (code, out, err) = check(text, &["--no-deadlock", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let report = json(&out);
    assert_eq!(report["states"], 4);
    assert_eq!(report["state_bytes"], 11);
    // The text report says how big a state is.
    let (_, out, _) = check(text, &["--no-deadlock"]);
    assert!(out.contains("state size:           11 bytes"), "{out}");
}

const RANGED: &str = "MACHINE Ranged
DEFINITIONS SET_PREF_MAXINT == 5
VARIABLES x, y, z
INVARIANT x : 0..3 & y : NAT & y <= 2 & z : INTEGER & z >= -1 & 5 > z
INITIALISATION x, y, z := 0, 0, -1
OPERATIONS
  incx = PRE x < 6 THEN x := x + 1 END;
  incy = PRE y < 2 THEN y := y + 1 END
END
";

#[test]
fn integers_pack_to_their_invariant_range_and_values_outside_it_are_still_reported() {
    // x: 4 values, y: 3, z: 6, each with room for 256 values outside: 9
    // bits each, 27 bits in all.
    let (code, out, _) = check(RANGED, &["--json"]);
    assert_eq!(code, Some(1), "{out}");
    let report = json(&out);
    assert_eq!(report["result"], "invariant_violation");
    assert_eq!(report["state_bytes"], 4);
    // The violating state holds x = 4, outside the range, printed as it is.
    let (code, out, _) = check(RANGED, &[]);
    assert_eq!(code, Some(1));
    assert!(out.contains("x = 4"), "{out}");
    assert!(out.contains("counterexample (5 steps)"), "{out}");
    // Without the invariant nothing is assumed from it: whole words, and
    // every value of x is explored.
    let (code, out, err) = check(RANGED, &["--no-invariant", "--no-deadlock", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let report = json(&out);
    assert_eq!(report["states"], 7 * 3);
    assert_eq!(report["state_bytes"], 24);
}

/// A machine whose one operation takes `x` out of its range 0..0 to any
/// of `values` at once.
fn jump(values: &str) -> String {
    format!(
        "MACHINE Jump
VARIABLES x
INVARIANT x : 0..0
INITIALISATION x := 0
OPERATIONS jump = ANY v WHERE v : {values} THEN x := v END
END
"
    )
}

#[test]
fn too_many_values_outside_an_invariant_range_are_a_named_model_error() {
    // One operation leaves x's range 0..0 in 600 ways at once: more
    // values than the packed code (9 bits) can hold outside the range
    // (1..64 by value, 384 others as they are met).
    let (code, out, err) = check(&jump("1..600"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("variable `x` took more than 384 distinct values more than 63 outside 0..0"),
        "{all}"
    );
    assert!(!all.contains("no error"), "{all}");
}

#[test]
fn values_near_and_far_outside_an_invariant_range_are_stored_and_printed() {
    // 400 ways out of 0..0 at once: 64 packed by value, 336 as they are
    // met, every one a state the search can store; the violation is
    // reported with the value as it is, near the range or far from it.
    for threads in ["1", "2"] {
        let (code, out, err) = check(&jump("1..400"), &["--threads", threads]);
        assert_eq!(code, Some(1), "{out}{err}");
        assert!(out.contains("invariant violation"), "{out}");
        assert!(out.contains("x = 1"), "{out}");
        for value in ["-1", "64", "65", "-5000"] {
            let (code, out, err) = check(&jump(&format!("{{{value}}}")), &["--threads", threads]);
            assert_eq!(code, Some(1), "{out}{err}");
            assert!(out.contains(&format!("x = {value}\n")), "{value}: {out}");
        }
    }
}

#[test]
fn a_store_with_a_few_states_gives_no_bytes_per_state_figure() {
    let text = "MACHINE Two
VARIABLES x
INVARIANT x : 0..1
INITIALISATION x := 0
OPERATIONS up = PRE x = 0 THEN x := 1 END
END
";
    for threads in ["1", "2"] {
        let (code, out, err) = check(text, &["--threads", threads, "--no-deadlock"]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(
            out.contains("too few states for a bytes/state figure"),
            "{threads}: {out}"
        );
        assert!(!out.contains("bytes/state)"), "{threads}: {out}");
    }
}

#[test]
fn integer_ranges_are_read_off_memberships_and_comparisons_and_intersected() {
    // Each ranged integer takes the bits of its values plus as many again
    // (at least 256) for values outside: x (NAT1, 7 values), y (-1..3),
    // z (INT, 16), w (0..1): 9 bits each; u (0..1000) 11 bits; t (0..5000
    // cut to 0..999 by `t < 1000`) 11 bits, not 14; v (INTEGER, no range)
    // a whole word: 122 bits, 16 bytes.
    let text = "MACHINE Ranges
DEFINITIONS SET_PREF_MAXINT == 7; SET_PREF_MININT == -8
VARIABLES x, y, z, w, u, t, v
INVARIANT x : NAT1 & 3 >= y & y > -2 & z : INT & w : 0..2 & w <= 1 &
  u : 0..1000 & t : 0..5000 & t < 1000 & v : INTEGER
INITIALISATION x, y, z, w, u, t, v := 1, -1, -8, 0, 1000, 999, 123456789
OPERATIONS step = PRE x < 3 THEN x := x + 1 || v := v * 2 END
END
";
    let (code, out, err) = check(text, &["--no-deadlock", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let report = json(&out);
    assert_eq!(report["states"], 3);
    assert_eq!(report["state_bytes"], 16);
    // The values come back as they were stored (x = 3 deadlocks).
    let (_, out, _) = check(text, &[]);
    assert!(out.contains("v = 493827156"), "{out}");
    assert!(out.contains("y = -1"), "{out}");
    assert!(out.contains("t = 999"), "{out}");
}

const RANGED_RELATION: &str = "MACHINE RangedRelation
SETS P = {p1, p2}
VARIABLES f, s, t
INVARIANT f : P --> 0..3 & s <: 1..30 & t : POW(P * (0..1))
INITIALISATION f := P * {0}; s := {}; t := {}
OPERATIONS
  up(p) = PRE p : P & f(p) < 5 THEN f(p) := f(p) + 1 END;
  add(k) = PRE k : 1..2 THEN s := s \\/ {k} END
END
";

#[test]
fn sets_of_integers_in_an_invariant_range_pack_as_bitsets_and_values_outside_are_reported() {
    // f: a total function, the index of each image (2 * 2 bits, fewer than
    // a bitset over P * (0..3), 8); s: a bitset over 1..30 (30 bits); t over
    // P * (0..1) (4 bits); each with an escape word (9 bits): 65 bits,
    // where interned ids took 96.
    let (code, out, _) = check(RANGED_RELATION, &["--json"]);
    assert_eq!(code, Some(1), "{out}");
    let report = json(&out);
    assert_eq!(report["result"], "invariant_violation");
    assert_eq!(report["state_bytes"], 9);
    // f(p1) = 4 leaves 0..3: the violating state is stored with its value
    // outside the carrier, and printed as it is.
    let (_, out, _) = check(RANGED_RELATION, &[]);
    assert!(out.contains("f = {(p1|->4),(p2|->0)}"), "{out}");
    assert!(out.contains("counterexample (5 steps)"), "{out}");
    // The same state space as with interned values: without the up
    // operation's overflow (at most 3), 4^2 * 4 states.
    let bounded = RANGED_RELATION.replace("f(p) < 5", "f(p) < 3");
    let (code, out, err) = check(&bounded, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{err}");
    let report = json(&out);
    assert_eq!(report["states"], 16 * 4);
    assert_eq!(report["state_bytes"], 9);
    let (code, out, err) = check(&bounded, &["--json", "--no-deadlock", "--no-invariant"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(json(&out)["states"], 16 * 4);
    // PetersonN: `lv : PID --> 0..N-1` (a function, 3 * 2 bits) and
    // `victim : 1..N-1 +-> PID` (a partial function: 2 * 2 bits, for an
    // image's index + 1 or none, where a bitset took 6) with N == card(PID)
    // are packed too: pc 12 bits (a bitset, smaller than a function's 6 +
    // 9), lv 6 + 9, victim 4 + 9: 40 bits.
    let peterson = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/PetersonN.mch");
    let out = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .arg("check")
        .arg(&peterson)
        .args(["--json", "--threads", "1"])
        .output()
        .unwrap();
    let report = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(report["states"], 356);
    assert_eq!(report["state_bytes"], 5);
}

const LEVELS: &str = "MACHINE Levels
SETS P = {p1, p2, p3}
VARIABLES active, level
INVARIANT active <: P & level : active --> 0..7
INITIALISATION active := {} || level := {}
OPERATIONS
  join(p) = PRE p : P - active THEN active := active \\/ {p} || level(p) := 0 END;
  leave(p) = PRE p : active THEN active := active - {p} || level := {p} <<| level END;
  up(p) = PRE p : active & level(p) < 7 THEN level(p) := level(p) + 1 END
END
";

#[test]
fn a_function_over_part_of_a_carrier_packs_as_one_image_per_element() {
    // `level : active --> 0..7` is a partial function from all of P: 3
    // images of 4 bits (0..7 + 1, or none) and the escape word (9 bits),
    // 21 bits where a bitset over P * (0..7) and its escape word took 33;
    // with `active`'s 3 bits, 3 bytes. Each process is inactive or at a
    // level 0..7: 9^3 states, with the invariant checked or not (then no
    // range is used: `level` is a 64-bit id, 9 bytes in all).
    let (code, out, err) = check(LEVELS, &["--json"]);
    assert_eq!(code, Some(0), "{err}");
    let report = json(&out);
    assert_eq!(report["states"], 729);
    assert_eq!(report["state_bytes"], 3);
    let (code, out, err) = check(LEVELS, &["--json", "--no-invariant"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(json(&out)["states"], 729);
    assert_eq!(json(&out)["state_bytes"], 9);
    // Symmetry reads the images directly: one state per multiset of
    // levels (C(9 + 2, 3) = 165), by canonical form and by flooding.
    for mode in ["canon", "flood"] {
        let (code, out, err) = check(LEVELS, &["--json", "--symmetry", mode]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(json(&out)["states"], 165, "{mode}");
    }
    // Level 8 leaves the range: the violating state is stored escaped and
    // printed as it is, after the shortest trace (join, 8 ups).
    let (code, out, _) = check(&LEVELS.replace("level(p) < 7", "level(p) < 8"), &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("level = {(p1|->8)}"), "{out}");
    assert!(out.contains("counterexample (10 steps)"), "{out}");
}

#[test]
fn too_many_sets_outside_an_invariant_carrier_are_a_named_model_error() {
    let text = "MACHINE JumpSet
VARIABLES f
INVARIANT f : 1..1 --> 0..0
INITIALISATION f := {1 |-> 0}
OPERATIONS jump = ANY v WHERE v : 1..600 THEN f := {1 |-> v} END
END
";
    let (code, out, err) = check(text, &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("variable `f` took more than 511 distinct values outside the carrier"),
        "{all}"
    );
    assert!(!all.contains("no error"), "{all}");
}

#[test]
fn btrue_and_bfalse_are_the_true_and_false_predicates() {
    let text = "MACHINE Truth
VARIABLES x
INVARIANT x : 0..2 & btrue & not(bfalse)
INITIALISATION x := 0
OPERATIONS
  up = PRE x < 2 & btrue THEN x := x + 1 END;
  never = PRE bfalse THEN x := 0 END
END
";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{err}");
    let report = json(&out);
    assert_eq!(report["states"], 3);
    assert_eq!(report["transitions"], 2);
    // A predicate, not a value: `x = btrue` is still an error.
    let (code, _, err) = check(
        &text.replace("x : 0..2 & btrue", "x : 0..2 & x = btrue"),
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn total_functions_pack_as_images_and_a_value_that_is_not_one_is_reported() {
    // b: 16 one-bit images and an escape word (9 bits), 25 bits in 4
    // bytes, where a bitset over (0..15) * BOOL would take 32 + 9.
    let text = "MACHINE Functions
VARIABLES b
INVARIANT b : 0..15 --> BOOL
INITIALISATION b := (0..15) * {FALSE}
OPERATIONS
  set(i) = PRE i : 0..15 & b(i) = FALSE THEN b(i) := TRUE END;
  drop = PRE b(0) = TRUE & b(1) = TRUE THEN b := {0 |-> TRUE} END
END
";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(1), "{err}");
    let report = json(&out);
    assert_eq!(report["result"], "invariant_violation");
    assert_eq!(report["state_bytes"], 4);
    // `drop` leaves a function that is not total: stored through the
    // escape word and printed as it is, after the shortest trace.
    let (_, out, _) = check(text, &[]);
    assert!(out.contains("b = {(0|->TRUE)}"), "{out}");
    assert!(out.contains("counterexample (4 steps)"), "{out}");
    // Without `drop`, every subset of 0..15 set to TRUE: 2^16 states.
    let total = text.replace(
        "  drop = PRE b(0) = TRUE & b(1) = TRUE THEN b := {0 |-> TRUE} END\n",
        "",
    );
    let total = total.replace("b(i) := TRUE END;", "b(i) := TRUE END");
    let (code, out, err) = check(&total, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(json(&out)["states"], 65_536);
    assert_eq!(json(&out)["state_bytes"], 4);
}

/// A chain of 100 states, a fan-out to 100 branches, then 100 chains of
/// 300 states: BFS levels of one state (which the level-synchronous
/// search's leader expands alone) around levels of several batches.
const THIN_THEN_WIDE: &str = "MACHINE ThinThenWide
VARIABLES x, y
INVARIANT x : 0..400 & y : 0..100
INITIALISATION x, y := 0, 0
OPERATIONS
  step = PRE x < 400 & x /= 100 THEN x := x + 1 END;
  fan(v) = PRE x = 100 & v : 1..100 THEN x, y := 101, v END
END
";

#[test]
fn thin_and_wide_levels_give_the_same_counts_and_shortest_trace_on_any_thread_count() {
    // 101 states before the fan, 100 * 300 after it; 100 + 100 + 100 * 299
    // transitions. The first deadlock (x = 400) is 100 + 1 + 299 steps
    // after the initialisation.
    for threads in ["1", "2", "3"] {
        let (code, out, err) = check(
            THIN_THEN_WIDE,
            &["--no-deadlock", "--json", "--threads", threads],
        );
        assert_eq!(code, Some(0), "{err}");
        let report = json(&out);
        assert_eq!(report["states"], 30_101, "{threads} threads");
        assert_eq!(report["transitions"], 30_100, "{threads} threads");
        let (code, out, err) = check(THIN_THEN_WIDE, &["--threads", threads]);
        assert_eq!(code, Some(1), "{err}");
        assert!(out.contains("counterexample (401 steps)"), "{out}");
    }
}

#[test]
fn a_system_with_events_is_a_machine_with_operations() {
    // Atelier B's event B: `SYSTEM`, `EVENTS`, `INITIALIZATION`.
    let text = "SYSTEM Toy
VARIABLES a, b
INVARIANT a : 0..3 & b : 0..3 & a = b
INITIALIZATION a, b := 0, 0
EVENTS
  set = ANY v WHERE v : 0..3 THEN a, b := v, v END;
  clear = SELECT a > 0 THEN a, b := 0, 0 END
END
";
    let (code, out, err) = check(text, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let report = json(&out);
    assert_eq!(report["states"], 4);
    assert_eq!(report["transitions"], 4 * 4 + 3);
    // EVENTS is OPERATIONS: giving both is a duplicate clause.
    let body = text.strip_suffix("END\n").unwrap();
    let twice = format!("{body}OPERATIONS nothing = skip\nEND\n");
    let (code, _, err) = check(&twice, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("duplicate clause"), "{err}");
}

#[test]
fn a_machines_own_tree_is_an_ordinary_name() {
    // The trees over a set are too many to list: a model error says so.
    let (code, out, err) = check(
        "MACHINE T\nCONSTANTS t\nPROPERTIES t : tree(BOOL)\nEND\n",
        &[],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        format!("{out}{err}").contains("cannot enumerate"),
        "{out}{err}"
    );
    // A machine's own `tree` is an ordinary name.
    let (code, out, err) = check(
        "MACHINE T\nVARIABLES tree\nINVARIANT tree : BOOL\nINITIALISATION tree := TRUE\nEND\n",
        &["--no-deadlock"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
}

/// A free type of lists and one of messages whose constructors take a
/// given set's elements (`FREETYPES`, with `--set`).
const FREE_TYPES: &str = "MACHINE F\nSETS PID\nFREETYPES\n  \
    List = nil, cons(INTEGER * List);\n  Message = none, req(PID), grant(PID * BOOL)\n\
    VARIABLES xs, m\n\
    INVARIANT xs : List & m : PID --> Message & xs /= cons(2, cons(1, nil))\n\
    INITIALISATION xs := nil || m := PID * {none}\n\
    OPERATIONS\n  \
    add(i) = PRE i : 1..2 & xs : {nil, cons(3 - i, nil)} THEN xs := cons(i, xs) END;\n  \
    drop = PRE xs /= nil THEN xs := prj2(cons~(xs)) END;\n  \
    ask(p) = PRE p : PID & m(p) = none THEN m(p) := req(p) END;\n  \
    answer(p, b) = PRE p : PID & b : BOOL & m(p) /= none THEN m(p) := grant(req~(m(p)), b) END\n\
    END\n";

#[test]
fn free_type_values_are_built_taken_apart_and_printed() {
    let (code, out, err) = check(FREE_TYPES, &["--set", "PID=1"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("invariant `xs /= cons(2, cons(1, nil))` is false"),
        "{out}"
    );
    // The shortest way there, printed with the constructors.
    assert!(out.contains("counterexample (3 steps)"), "{out}");
    assert!(out.contains("xs = cons(2,cons(1,nil))"), "{out}");
    assert!(out.contains("m = {(PID1|->none)}"), "{out}");
}

#[test]
fn a_destructor_applied_to_another_constructors_value_is_a_model_error() {
    // `answer` after `answer`: `req~` of a `grant(..)` value.
    let fixed = FREE_TYPES.replace(" & xs /= cons(2, cons(1, nil))", "");
    let (code, out, err) = check(&fixed, &["--set", "PID=1"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("model error"), "{out}");
    assert!(
        out.contains("`req~` applied to a value another constructor built"),
        "{out}"
    );
    assert!(out.contains("m = {(PID1|->grant(PID1,"), "{out}");
    // Guarded by its constructor: 5 lists (nil, [1], [2], [2,1], [1,2])
    // times 4 messages for each of 2 PIDs (none, req, grant with FALSE or
    // TRUE) = 80 states; 8 list moves times 16 = 128 transitions, and 3
    // message moves of each PID times 4 times 5 = 120 more.
    let guarded = fixed.replace("m(p) /= none THEN", "m(p) = req(p) THEN");
    for flags in [
        &["--set", "PID=2"][..],
        &["--set", "PID=2", "--threads", "1", "--order", "dfs"],
    ] {
        let (code, out, err) = check(&guarded, flags);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("distinct states:      80\n"), "{out}");
        assert!(out.contains("transitions:          248\n"), "{out}");
    }
    // Under the symmetry of PID: unordered pairs of the 4 messages (10) times 5 lists.
    let (code, out, err) = check(&guarded, &["--set", "PID=2", "--symmetry", "canon"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("distinct states:      50\n"), "{out}");
}

#[test]
fn free_types_that_are_not_recursive_are_enumerated() {
    // Light: 3 constants and flashing(FALSE), flashing(TRUE) = 5 values;
    // Msg: none, req(p) for 2 PIDs, to(p, l) for 2 * 5 = 13 values. Each of
    // the 65 states has 5 `set`, 12 `pick` and 1 `count` transitions.
    let text = "MACHINE Pick\nSETS PID\nFREETYPES\n  Light = red, amber, green, flashing(BOOL);\n  \
                Msg = none, req(PID), to(PID * Light)\nVARIABLES l, m\nINVARIANT l : Light & m : Msg\n\
                INITIALISATION l := red || m := none\nOPERATIONS\n  set(c) = PRE c : Light THEN l := c END;\n  \
                pick = ANY y WHERE y : Msg & y /= m THEN m := y END;\n  \
                n <-- count = n := card(Light) + card(Msg)\nEND\n";
    for flags in [
        &["--set", "PID=2"][..],
        &["--set", "PID=2", "--threads", "1", "--por"],
    ] {
        let (code, out, err) = check(text, flags);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("distinct states:      65\n"), "{out}");
        assert!(out.contains("transitions:          1,170\n"), "{out}");
    }
    // Under PID's symmetry Msg has 7 orbits (none, req, to with 5 lights).
    let (code, out, err) = check(text, &["--set", "PID=2", "--symmetry", "canon"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("distinct states:      35\n"), "{out}");
    // card(Light) + card(Msg) = 18, as a variable's value in a trace.
    let text = text
        .replace("VARIABLES l, m", "VARIABLES l, m, k")
        .replace("INVARIANT l : Light", "INVARIANT k : {0, 17} & l : Light")
        .replace("m := none", "m := none || k := 0")
        .replace("n <-- count = n :=", "count = k :=");
    let (code, out, err) = check(&text, &["--set", "PID=2"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("k = 18"), "{out}");
    // Total functions and surjections on a finite free type: its values
    // are counted, not taken for infinitely many.
    let text = "MACHINE Tot\nFREETYPES\n  Light = red, green(BOOL)\nVARIABLES f, h\n\
                INVARIANT f : Light --> BOOL & h : Light >->> Light\n\
                INITIALISATION f := Light * {TRUE} || h := id(Light)\nEND\n";
    let (code, out, err) = check(text, &["--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn free_types_used_where_orbit_cannot_are_refused_by_name() {
    let machine = |op: &str| {
        format!(
            "MACHINE T\nFREETYPES\n  L = nil, cons(INTEGER * L)\nVARIABLES x\nINVARIANT x : L\n\
             INITIALISATION x := nil\nOPERATIONS\n  {op}\nEND\n"
        )
    };
    // Refused when the machine is read (2) or as a model error where the
    // operation runs (1), never misread.
    for (op, message, exit) in [
        (
            "op = PRE x : ran(cons) THEN skip END",
            "not supported yet: the constructor `cons` as a set of pairs",
            2,
        ),
        (
            "r <-- op = r := card(L)",
            "cannot enumerate the free type `L`: it is recursive, so infinite",
            1,
        ),
        (
            "op(y) = PRE y : L THEN x := y END",
            "cannot enumerate the free type `L`: it is recursive, so infinite",
            1,
        ),
    ] {
        let (code, out, err) = check(&machine(op), &[]);
        assert_eq!(code, Some(exit), "{op}: {out}{err}");
        assert!(
            out.contains(message) || err.contains(message),
            "{op}: {out}{err}"
        );
    }
    let (code, _, err) = check(
        "MACHINE T\nFREETYPES\n  L = nil, cons(1..3 * L)\nEND\n",
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("not supported yet: a constructor argument that is not a type (of `cons`)"),
        "{err}"
    );
    assert!(err.contains("m.mch:3:17"), "{err}");
    // One error, not a second one about the argument's type.
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    // A constant is not a type; an undeclared name is unknown.
    let (code, _, err) = check(
        "MACHINE T\nCONSTANTS k\nPROPERTIES k = 1\nFREETYPES\n  L = nil, cons(k)\nEND\n",
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("a constructor argument that is not a type"),
        "{err}"
    );
    assert!(err.contains("m.mch:5:17"), "{err}");
    let (code, _, err) = check("MACHINE T\nFREETYPES\n  L = nil, cons(Foo)\nEND\n", &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown identifier `Foo`"), "{err}");
}

/// The state layout vouches for `v : A --> B` and `v : A +-> B` where it
/// stores `v` as exactly those functions, and those conjuncts are not
/// evaluated in states where `v` packs without escape; every way out of
/// them (a missing image, two images, an image or an argument outside,
/// an injection's or a partial domain's demands, which the layout does
/// not vouch for) is still a violation of that conjunct.
#[test]
fn typing_conjuncts_the_layout_vouches_for_are_still_violated_when_broken() {
    let machine = |invariant: &str, init: &str, op: &str| {
        format!(
            "MACHINE Typed
SETS P = {{p1, p2, p3}}; Q = {{q1, q2}}
VARIABLES f, g, h, s
INVARIANT s <: P & {invariant}
INITIALISATION s := {{p1}} || {init}
OPERATIONS op = BEGIN {op} END
END
"
        )
    };
    let total = "f : P --> Q & g : 1..3 +-> 0..2 & h : P --> BOOL";
    let init = "f := P * {q1} || g := {1 |-> 0} || h := P * {FALSE}";
    let cases = [
        // (invariant, operation, the conjunct that must fail)
        (total, "f := {p1 |-> q1, p2 |-> q2}", "f : P --> Q"),
        (total, "f := P * {q1} \\/ {p1 |-> q2}", "f : P --> Q"),
        (total, "g := {1 |-> 0, 1 |-> 1}", "g : 1..3 +-> 0..2"),
        (total, "g := {1 |-> 3}", "g : 1..3 +-> 0..2"),
        (total, "g := {0 |-> 1}", "g : 1..3 +-> 0..2"),
        (total, "g := {4 |-> 1}", "g : 1..3 +-> 0..2"),
        (total, "h := {p1 |-> TRUE}", "h : P --> BOOL"),
        (
            "f : P --> Q & g : 1..3 >+> 0..2 & h : P --> BOOL",
            "g := {1 |-> 0, 2 |-> 0}",
            "g : 1..3 >+> 0..2",
        ),
        (
            "f : s --> Q & g : 1..3 +-> 0..2 & h : P --> BOOL",
            "s := {p1, p2}",
            "f : s --> Q",
        ),
    ];
    for (invariant, op, broken) in cases {
        let init = if invariant.starts_with("f : s") {
            init.replace("f := P * {q1}", "f := {p1 |-> q1}")
        } else {
            init.to_string()
        };
        let text = machine(invariant, &init, op);
        for threads in ["1", "2"] {
            let (code, out, err) = check(&text, &["--threads", threads, "--no-deadlock"]);
            assert_eq!(code, Some(1), "{op}: {out}{err}");
            assert!(
                out.contains(&format!("invariant `{broken}` is false")),
                "{op} ({threads} threads): {out}"
            );
        }
    }
}

#[test]
fn the_layout_vouches_for_whole_carrier_function_typings_only() {
    use orbit::frontends::b::load::{LoadOptions, load_machine};
    let dir = tempfile::tempdir().unwrap();
    let load = |invariant: &str| {
        let path = dir.path().join("m.mch");
        std::fs::write(
            &path,
            format!(
                "MACHINE V\nSETS P = {{p1, p2, p3}}\nVARIABLES f, g, s\n\
                 INVARIANT s <: P & {invariant}\n\
                 INITIALISATION f := P * {{0}} || g := {{}} || s := P\nEND\n"
            ),
        )
        .unwrap();
        load_machine(&path, &LoadOptions::default()).unwrap()
    };
    // Whole carriers, stored as functions: both vouched for.
    assert_eq!(
        load("f : P --> 0..3 & g : 1..6 +-> P").vouched_conjuncts(),
        2
    );
    // Stored as a bitset (no more bits than as a function): not vouched
    // for.
    assert_eq!(
        load("f : P --> 0..3 & g : 1..6 +-> BOOL").vouched_conjuncts(),
        1
    );
    // A domain that is a variable, an injection: none.
    assert_eq!(
        load("f : s --> 0..3 & g : 1..6 >+> P").vouched_conjuncts(),
        0
    );
    // A range of which the layout stores a part (`NATURAL`): only the
    // conjunct it stores exactly.
    assert_eq!(
        load("f : P --> NATURAL & g : 1..6 +-> P & f : P --> 0..3").vouched_conjuncts(),
        2
    );
    // Not checking the invariant: nothing to vouch for.
    let path = dir.path().join("m.mch");
    let options = LoadOptions {
        unchecked_invariant: true,
        ..LoadOptions::default()
    };
    assert_eq!(
        load_machine(&path, &options).unwrap().vouched_conjuncts(),
        0
    );
}

/// Integers are unbounded, as in ProB: a memo table of Fibonacci numbers
/// past 64 bits (FibMemo of ProB's examples), powers, literals and
/// comparisons across the 64-bit boundary are exact; an `INTEGER` variable
/// (one 64-bit word) that would hold such an integer is a named
/// limitation, never a wrong value.
#[test]
fn integers_beyond_64_bits_are_exact() {
    let text = "MACHINE M\nVARIABLES fib, i\n\
                INVARIANT fib : 0..(i-1) --> NATURAL & i : 2..101\n\
                INITIALISATION fib, i := {0 |-> 0, 1 |-> 1}, 2\nOPERATIONS\n\
                Next = PRE i < 101 THEN fib(i) := fib(i-1) + fib(i-2) || i := i + 1 END;\n\
                r <-- Last = PRE i = 101 THEN r := fib(100) END\n\
                END\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 100, "{out}");
    // fib(100) = 354224848179261915075: the invariant and a guard read it.
    let wrong = text.replace(
        "i : 2..101",
        "i : 2..101 & (i = 101 => fib(100) = 354224848179261915075 & \
         fib(100) > 2 ** 64 & fib(100) mod 1000 = 75 & -fib(100) < MININT)",
    );
    let (code, out, err) = check(&wrong, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let wrong = text.replace(
        "i : 2..101",
        "i : 2..101 & (i = 101 => fib(100) = 354224848179261915076)",
    );
    let (code, out, _) = check(&wrong, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(json(&out)["result"], "invariant_violation", "{out}");
    // A constant holds one (an interned word); a variable cannot.
    let constant = "MACHINE M\nCONSTANTS p\nPROPERTIES p = 2 ** 100 - 1\n\
                    VARIABLES x\nINVARIANT x : INTEGER\nINITIALISATION x := 0\n\
                    OPERATIONS Up = PRE x = 0 THEN x := (p + 1) / 2 ** 38 END;\n\
                    Big = PRE x > 0 THEN x := p END\nEND\n";
    let (code, out, err) = check(
        constant,
        &["--json", "--no-deadlock", "--no-constant-symmetry"],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    let report = json(&out);
    assert_eq!(report["result"], "model_error", "{out}");
    let message = report["message"].as_str().unwrap();
    assert!(
        message.contains("not supported yet: storing the integer 1267650600228229401496703205375")
            && message.contains("in `x`"),
        "{message}"
    );
    // 2 ** 62 (Up's value) fits the variable; Big's does not.
    assert_eq!(report["states"], 2, "{out}");
    // A model that writes a literal beyond 64 bits stores its INTEGER
    // variables interned (ProB's codegenerator BigNumbers).
    let literal = "MACHINE L\nVARIABLES v, n\n\
                   INVARIANT v : INTEGER & n : 0..3 & v - n = 10000000000000000000\n\
                   INITIALISATION v := 10000000000000000000 || n := 0\n\
                   OPERATIONS Inc = PRE n < 3 THEN v := v + 1 || n := n + 1 END;\n\
                   Wrap = PRE n = 3 THEN v := v - 3 || n := 0 END\nEND\n";
    let (code, out, err) = check(literal, &["--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // v = 10^19 + n for n = 0..3 (the invariant reads the values back).
    assert_eq!(json(&out)["states"], 4, "{out}");
}

/// A recursive function solved by a plan that evaluates its recursive
/// call twice per level (once for a candidate, once in the check) is
/// remembered per thread: fact(60) takes 60 calls, not 2^60.
#[test]
fn recursive_definitions_are_applied_once_per_argument() {
    let text = "MACHINE M\nABSTRACT_CONSTANTS fact\n\
                PROPERTIES fact = {x, y | x : NATURAL & y : NATURAL & (x = 0 => y = 1) & \
                (x > 0 => y = x * fact(x - 1))} & fact : INTEGER <-> INTEGER\n\
                VARIABLES r\nINVARIANT r : NATURAL\nINITIALISATION r := 0\n\
                OPERATIONS Apply = PRE r = 0 THEN r := fact(60) mod 1000000007 END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock", "--time-limit", "60s"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["states"], 2, "{out}");
    // 60! mod (10^9 + 7), the value the invariant sees.
    let checked = text.replace("r : NATURAL", "r : {0, 16340084}");
    let (code, out, err) = check(
        &checked,
        &["--json", "--no-deadlock", "--time-limit", "60s"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn initial_states_listed_for_the_setup_check_are_the_searchs() {
    use orbit::frontends::b::load::{LoadOptions, load_machine};
    use orbit::model::Model;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.mch");
    // 40,001 and 80,001 initial states: the first kept from the check for
    // a valuation without initialisation, the second beyond its room.
    std::fs::write(
        &path,
        "MACHINE Listed\nCONSTANTS c\nPROPERTIES c : 1..2\nVARIABLES x\n\
         INVARIANT x : INTEGER\nINITIALISATION x :: 0..(c * 40000)\nEND\n",
    )
    .unwrap();
    let initial = |system: &orbit::frontends::b::system::BSystem| {
        let mut scratch = system.new_scratch();
        let mut out = Vec::new();
        system
            .initial_states(&mut scratch, &mut |_, s| out.push(s.to_vec()))
            .unwrap();
        out
    };
    let fresh = load_machine(&path, &LoadOptions::default()).unwrap();
    let expected = initial(&fresh);
    assert_eq!(expected.len(), 40_001 + 80_001);
    let checked = load_machine(&path, &LoadOptions::default()).unwrap();
    assert_eq!(checked.valuation_without_initialisation(), None);
    assert_eq!(initial(&checked), expected);
    // Taken by the search: a second one lists them again.
    assert_eq!(initial(&checked), expected);
}

/// B's trees: `tree(S)`, `btree(S)` and the operators of the Atelier-B
/// reference manual (its section 5.20 examples), added to a machine that
/// writes `tree(`; a name the machine declares itself keeps its meaning.
#[test]
fn b_trees_and_their_operators() {
    let text = "MACHINE Trees\nSETS S = {a, b, c, d, e}\nCONSTANTS A, A1, left\n\
                ABSTRACT_CONSTANTS walk\n\
                PROPERTIES left = 7 & A1 = {[] |-> d, [1] |-> e, [2] |-> a} & \
                A = {[] |-> c, [1] |-> d, [1, 1] |-> e, [1, 2] |-> a, [2] |-> a, [3] |-> c, \
                [3, 1] |-> d, [3, 1, 1] |-> e, [3, 1, 2] |-> d, [3, 1, 3] |-> c} & \
                walk = %(st, sn).(sn : seq(S) & st : seq1(tree(S)) | \
                (sons(first(st)) ^ tail(st), sn <- top(first(st))))\n\
                ASSERTIONS A : tree(S); A /: tree({a, b}); A1 : btree(S); A /: btree(S);\n\
                {[1] |-> a} /: tree(S); top(A) = c; sons(A1) = [bin(e), bin(a)];\n\
                const(c, [A1, bin(a), subtree(A, [3])]) = A; rank(A, [3, 1, 2]) = 2;\n\
                father(A, [3, 1, 2]) = [3, 1]; son(A, [3, 1], 2) = [3, 1, 2];\n\
                arity(A, []) = 3; arity(A, [1]) = 2; sizet(A) = 10;\n\
                bin(bin(e), d, bin(a)) = A1; right(A1) = bin(a);\n\
                prefix(A) = [c, d, e, a, a, c, d, e, d, c];\n\
                postfix(A) = [e, a, d, a, e, d, c, d, c, c]; infix(A1) = [e, d, a];\n\
                mirror(A1) = {[] |-> d, [1] |-> a, [2] |-> e}; left = 7;\n\
                closure1(walk)[{([A], [])}]([]) = prefix(A)\n\
                VARIABLES t\nINVARIANT t : tree(S)\nINITIALISATION t := A\n\
                OPERATIONS down(i) = PRE i : dom(sons(t)) THEN t := sons(t)(i) END\nEND\n";
    let (code, out, err) = check(text, &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // A, its sons d(e, a), a and c(d(e, d, c)), their sons e and d(e, d, c),
    // then d and c.
    assert_eq!(json(&out)["states"], 8);
    // A false tree assertion is reported.
    let (code, out, err) = check(&text.replace("sizet(A) = 10", "sizet(A) = 9"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
}

/// Sets of integers that are infinite or too large to build compare by
/// their ranges, with or without `--bound-integers` (which never cuts
/// `NATURAL` at MAXINT to compare it); a constant defined as such a set
/// stays symbolic, and its intersection with an interval is listed by
/// testing the interval's members (ProB's INTEGERSET_Laws).
#[test]
fn infinite_integer_sets_compare_by_their_ranges() {
    let laws = "(NATURAL - (0..3)) /\\ (-1000..100000) = 4..100000 & \
                (NATURAL - (0..3)) - (4..100000) = NATURAL - (0..100000) & \
                (9..9999999) - {9} = 10..9999999 & NATURAL - (0..3) /= {} & \
                (NATURAL - (0..3)) = {x | x : INTEGER & 4 <= x} & \
                {x | x >= 10} /\\ {x | x : INTEGER & 99999 >= x} = 10..99999 & \
                (1..500) \\/ {501} \\/ (503..1000) = (1..1000) - {502} & \
                NATURAL1 <: (NATURAL - {0, 5}) \\/ {5} & NATURAL1 <<: NATURAL - {5} \\/ {5} & \
                NATURAL /<: NATURAL1 \\/ {-1}";
    let machine = |law: &str| {
        format!(
            "MACHINE Laws\nDEFINITIONS SET_PREF_MAXINT == 4; SET_PREF_MININT == -1\n\
             CONSTANTS iv, iv2\nPROPERTIES iv = INTEGER & iv2 = NAT\nVARIABLES xx\n\
             INVARIANT xx : iv - iv2 & {law}\nINITIALISATION xx :: (iv - iv2) /\\ (-2..7)\n\
             OPERATIONS set(yy) = PRE yy : (iv - iv2) /\\ (-2..7) THEN xx := yy END\nEND\n"
        )
    };
    for flags in [&["--json"][..], &["--json", "--bound-integers"]] {
        let (code, out, err) = check(&machine(laws), flags);
        assert_eq!(code, Some(0), "{flags:?}: {out}{err}");
        let r = json(&out);
        // -2, -1, 5, 6, 7: INTEGER - NAT within -2..7.
        assert_eq!(r["states"], 5, "{flags:?}: {out}");
        assert_eq!(r["transitions"], 25, "{flags:?}: {out}");
        for wrong in [
            "(NATURAL - (0..3)) /\\ (-1000..100000) = 5..100000",
            "{x | x >= 10} /\\ {x | x : INTEGER & 99999 >= x} = 10..99998",
            "NATURAL1 <<: NATURAL - {0, 5}",
        ] {
            let (code, out, err) = check(&machine(wrong), flags);
            assert_eq!(code, Some(1), "{flags:?} {wrong}: {out}{err}");
            assert_eq!(json(&out)["result"], "invariant_violation", "{wrong}");
        }
    }
}

/// A function whose images are sequences defined element by element
/// (`size(Sol(i)) = .. & !j.(j : 1..size(..) => Sol(i)(j) = E)`) is built
/// as a recurrence, each image the sequence `%j.(j : .. | E)`: ProB's
/// Project Euler 18 by dynamic programming, on its 4-row example.
#[test]
fn sequences_defined_element_by_element_are_built_by_recurrence() {
    let machine = |answer: i64| {
        format!(
            "MACHINE Triangle\nCONSTANTS Triangle, n, Sol, Best\nPROPERTIES\n\
             Triangle = [[3], [7, 4], [2, 4, 6], [8, 5, 9, 3]] & n = size(Triangle) &\n\
             Sol : 1..n --> seq(INTEGER) & Sol(n) = Triangle(n) &\n\
             !i.(i : 1..(n-1) => (size(Sol(i)) = size(Triangle(i)) &\n\
               !j.(j : 1..size(Triangle(i)) =>\n\
                 Sol(i)(j) = Triangle(i)(j) + max({{Sol(i+1)(j), Sol(i+1)(j+1)}})))) &\n\
             Best = Sol(1)(1)\nASSERTIONS Best = {answer}\nEND\n"
        )
    };
    let (code, out, err) = check(&machine(23), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 1, "{out}");
    let (code, out, err) = check(&machine(24), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(json(&out)["result"], "assertion_violation", "{out}");
}

/// `MAXIMIZE` and `MINIMIZE` of a comprehension whose first variable is
/// the objective find the element listing would: the best objective, ties
/// broken by the rest (greatest, least), also through a tuple with an
/// expression (`(-n, n, s) = MAXIMIZE(..)`) and for an objective that is
/// no integer. The oracle is the brute force below.
#[test]
fn maximize_and_minimize_find_the_extreme_element() {
    let machine = |answers: &str| {
        format!(
            "MACHINE Opt\nDEFINITIONS\n\
             EXTERNAL_FUNCTION_MAXIMIZE(T) == POW(T) --> T; MAXIMIZE(x) == 1;\n\
             EXTERNAL_FUNCTION_MINIMIZE(T) == POW(T) --> T; MINIMIZE(x) == 1\n\
             CONSTANTS prod, sum, low, n, s, sets\nPROPERTIES\n\
             prod = MAXIMIZE({{c, x, y | x : 1..60 & y : 1..60 & x + y <= 50 & c = x * y}}) &\n\
             sum = MAXIMIZE({{c, x, y | x : 1..60 & y : 1..60 & x + y <= 50 & c = x + y}}) &\n\
             low = MINIMIZE({{c, x, y | x : 1..60 & y : 1..60 & x * y >= 50 & c = x + y}}) &\n\
             (-n, n, s) = MAXIMIZE({{m, k, t | k : 1..9 & t <: 1..k & card(t) = 2 & \
             SIGMA(z).(z : t | z) = 7 & m = -k}}) &\n\
             sets = MAXIMIZE({{a, x | x : 1..3 & a = {{x, 4 - x}}}})\n\
             ASSERTIONS {answers}\nEND\n"
        )
    };
    // Brute force: the greatest (least) tuple, lexicographically.
    let pairs = || (1..=60i64).flat_map(|x| (1..=60i64).map(move |y| (x, y)));
    let prod = pairs()
        .filter(|(x, y)| x + y <= 50)
        .map(|(x, y)| (x * y, x, y))
        .max();
    let sum = pairs()
        .filter(|(x, y)| x + y <= 50)
        .map(|(x, y)| (x + y, x, y))
        .max();
    let low = pairs()
        .filter(|(x, y)| x * y >= 50)
        .map(|(x, y)| (x + y, x, y))
        .min();
    let t = |(c, x, y): (i64, i64, i64)| format!("(({c}, {x}), {y})");
    // The fewest elements of 1..k with two elements summing to 7: k = 4
    // ({3, 4}), the only such set; `{1, 3} < {2, 2}`: the greatest set
    // listed is {2} (x = 2, the same set twice).
    let answers = format!(
        "prod = {} & sum = {} & low = {} & n = 4 & s = {{3, 4}} & sets = ({{2}}, 2)",
        t(prod.unwrap()),
        t(sum.unwrap()),
        t(low.unwrap())
    );
    let (code, out, err) = check(&machine(&answers), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 1, "{out}");
    let wrong = answers.replace("n = 4", "n = 5");
    let (code, out, err) = check(&machine(&wrong), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(json(&out)["result"], "assertion_violation", "{out}");
}

/// `MAXIMIZE` over a function space too large to list (2^30 functions),
/// the objective a `card` that nothing else bounds: the constraint solver
/// finds better solutions until none is left, and that last "no
/// solution" is an answer (the objective is a sum of the function's
/// bits, not an integer cut to the solver's range), so the search never
/// falls back to listing the space. Every other position of a path of 30
/// with the first left out: 15.
#[test]
fn maximize_of_a_card_over_a_vast_function_space_is_solved() {
    let machine = |best: u32| {
        format!(
            "MACHINE MaxPath\nDEFINITIONS\n\
             EXTERNAL_FUNCTION_MAXIMIZE(T) == POW(T) --> T; MAXIMIZE(x) == 1\n\
             CONSTANTS n, f\nPROPERTIES\n\
             (n, f) = MAXIMIZE({{k, g | g : 1..30 --> BOOL & g(1) = FALSE &\n\
             !i.(i : 1..29 => (g(i) = TRUE => g(i + 1) = FALSE)) &\n\
             k = card({{i | i : 1..30 & g(i) = TRUE}})}})\n\
             ASSERTIONS n = {best}\nEND\n"
        )
    };
    let args = ["--json", "--no-deadlock", "--time-limit", "60s"];
    let (code, out, err) = check(&machine(15), &args);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 1, "{out}");
    let (code, out, err) = check(&machine(16), &args);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(json(&out)["result"], "assertion_violation", "{out}");
}

/// A function given point by point (`v : OBJ --> 1..100 & v(o1) = 34 &
/// ...`) over a space too large to list (100^10 functions) is the one
/// function the points give, checked against the space.
#[test]
fn functions_given_point_by_point_over_a_large_space_are_built_from_the_points() {
    let machine = |extra: &str| {
        format!(
            "MACHINE Points\nSETS OBJ = {{o1, o2, o3, o4, o5, o6, o7, o8, o9, o10}}\n\
             CONSTANTS v\nPROPERTIES v : OBJ --> 1..100 &\n\
             v(o1) = 34 & v(o2) = 18 & v(o3) = 56 & v(o4) = 63 & v(o5) = 82 &\n\
             v(o6) = 1 & v(o7) = 89 & v(o8) = 7 & v(o9) = 100 & v(o10) = {extra}\n\
             ASSERTIONS SIGMA(o).(o : OBJ | v(o)) = 484\nEND\n"
        )
    };
    let args = ["--json", "--no-deadlock", "--time-limit", "60s"];
    let (code, out, err) = check(&machine("34"), &args);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(json(&out)["constant_valuations"], 1, "{out}");
    // An image outside the range: no valuation.
    let (code, out, err) = check(&machine("101"), &args);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(json(&out)["result"], "model_error", "{out}");
    assert!(out.contains("PROPERTIES has no solution"), "{out}{err}");
}
