//! Modular B (`models/modular/`): machines that SEE, INCLUDE, EXTEND,
//! IMPORT and refine each other, definition files, machine parameters,
//! operation calls and WHILE loops. The oracle for the merge is
//! `PairFlat.mch`, `Pair.mch` written out as one machine by hand; the other
//! counts are worked out in `models/EXPECTED.md`.

use std::path::{Path, PathBuf};

fn model(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models/modular")
        .join(name)
}

/// Runs `orbit check` on `path` (through the shared runner, with its
/// timeout); (exit code, stdout, stderr).
fn check_path(path: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["check".to_string(), path.display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let out = crate::cli_support::run_orbit(&all, crate::cli_support::DEFAULT_TIMEOUT);
    (out.code, out.stdout, out.stderr)
}

/// The JSON report of a run that must succeed or fail with `code`.
fn report(path: &Path, args: &[&str], code: i32) -> serde_json::Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (got, out, err) = check_path(path, &all);
    assert_eq!(got, Some(code), "{}: {out}{err}", path.display());
    let report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    crate::json_schema::check_report(&report);
    report
}

fn counts(r: &serde_json::Value) -> (u64, u64) {
    (
        r["states"].as_u64().unwrap(),
        r["transitions"].as_u64().unwrap(),
    )
}

/// Writes `files` (name, text) into a fresh directory.
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn merged_components_explore_the_hand_flattened_state_space() {
    let flat = counts(&report(&model("PairFlat.mch"), &[], 0));
    assert_eq!(flat, (23, 66));
    for args in [
        &["--threads", "1"][..],
        &["--threads", "2"],
        &["--threads", "1", "--order", "dfs"],
        &["--threads", "2", "--order", "any"],
        &["--por"],
    ] {
        let r = report(&model("Pair.mch"), args, 0);
        assert_eq!(r["result"], "ok", "{args:?}");
        if !args.contains(&"--por") {
            assert_eq!(counts(&r), flat, "{args:?}");
        }
    }
}

#[test]
fn included_machines_variables_are_renamed_and_initialised_first() {
    let (code, out, _) = check_path(&model("PairBroken.mch"), &["--find-abort"]);
    assert_eq!(code, Some(1), "{out}");
    // Seen and included machines are initialised before the component.
    let setup = out
        .lines()
        .position(|l| l.contains("SETUP_CONSTANTS"))
        .unwrap();
    let tail: Vec<&str> = out.lines().skip(setup + 1).take(6).map(str::trim).collect();
    assert_eq!(
        tail,
        [
            "cap = 2",
            "k.c = 0",
            "l.c = 0",
            "r.c = 0",
            "turn = left",
            "shown = 0"
        ],
        "{out}"
    );
}

/// By default, as in ProB, a called operation's precondition is a guard:
/// `push` is simply not enabled once `k` is full. The oracle is PairFlat
/// with the third counter written in by hand.
#[test]
fn a_called_operations_precondition_is_a_guard_by_default() {
    let flat = std::fs::read_to_string(model("PairFlat.mch"))
        .unwrap()
        .replace("VARIABLES lc, rc,", "VARIABLES kc, lc, rc,")
        .replace("INVARIANT lc : 0..cap", "INVARIANT kc : 0..1 & lc : 0..cap")
        .replace("INITIALISATION lc := 0", "INITIALISATION kc := 0 ; lc := 0")
        .replace(
            "  peek = shown := lc",
            "  peek = shown := lc;\n  push = SELECT turn = right & kc < 1 THEN kc := kc + 1 END",
        );
    assert!(flat.contains("push = SELECT"));
    let dir = project(&[("PairBrokenFlat.mch", &flat)]);
    let oracle = counts(&report(&dir.path().join("PairBrokenFlat.mch"), &[], 0));
    let r = report(&model("PairBroken.mch"), &[], 0);
    assert_eq!(counts(&r), oracle);
    assert_eq!(oracle.0, 45);
}

/// A called operation's precondition that types its outputs (`PRE vv :
/// INT & xx : INT`) reads them before the call assigns them: as in ProB
/// (UseCopy), those conjuncts are typing, and the call runs.
#[test]
fn a_called_preconditions_typing_of_outputs_is_not_read() {
    let dir = project(&[
        (
            "Copy.mch",
            "MACHINE Copy\nOPERATIONS\n  xx, yy <-- Copy1(vv) = PRE vv : INT & xx : INT & yy : INT \
             THEN xx := 10 - vv || yy := vv END\nEND\n",
        ),
        (
            "UseCopy.mch",
            "MACHINE UseCopy\nINCLUDES Copy\nVARIABLES zz, ww\n\
             INVARIANT zz : 0..10 & ww : 0..10 & zz + ww = 10\n\
             INITIALISATION zz := 10 || ww := 0\n\
             OPERATIONS Test = BEGIN zz, ww <-- Copy1(zz) END\nEND\n",
        ),
    ]);
    let r = report(&dir.path().join("UseCopy.mch"), &["--maxint", "16"], 0);
    assert_eq!(counts(&r), (2, 2));
}

/// With `--find-abort` (ProB's TRY_FIND_ABORT) the same call is an error.
#[test]
fn a_call_that_breaks_the_callees_precondition_is_a_model_error_with_a_trace() {
    let r = report(&model("PairBroken.mch"), &["--find-abort"], 1);
    assert_eq!(r["result"], "model_error");
    let message = r["message"].as_str().unwrap();
    assert!(
        message.contains("precondition of called operation `k.inc` is false")
            && message.contains("Counter.mch:8:13"),
        "{message}"
    );
    let labels: Vec<&str> = r["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels[1..], ["stepL", "push"]);
    // EXTENDS offers every operation of Pair, and Pair's PROMOTES `l.reset`.
    let (_, out, _) = check_path(
        &model("PairBroken.mch"),
        &["--order", "dfs", "--threads", "1", "--find-abort"],
    );
    assert!(
        out.contains("precondition of called operation `k.inc`"),
        "{out}"
    );
    let text = std::fs::read_to_string(model("Pair.mch")).unwrap();
    assert!(text.contains("PROMOTES l.reset"));
}

#[test]
fn refinements_keep_the_abstractions_sets_constants_and_concrete_variables() {
    assert_eq!(counts(&report(&model("Bank.mch"), &[], 0)).0, 6);
    let (code, out, err) = check_path(&model("Bank_r.ref"), &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("distinct states:      7"), "{out}");
    assert!(
        err.contains(
            "warning: 1 invariant conjunct(s) of `Bank_r` mention the abstraction's variables (bal)"
        ),
        "{err}"
    );
    // USER is the abstraction's deferred set, sized by its PROPERTIES.
    for mode in ["canon", "flood"] {
        let r = report(&model("Bank_r.ref"), &["--symmetry", mode], 0);
        assert_eq!(r["states"], 4, "{mode}");
        let r = report(&model("Bank.mch"), &["--symmetry", mode], 0);
        assert_eq!(r["states"], 4, "{mode}");
    }
}

/// `Bank_i` implements `deposit` with a local operation, which is not an
/// operation of the machine: 7 transitions are 1 initialisation and 6
/// `deposit`/`total` steps.
#[test]
fn implementations_import_machines_and_run_while_loops() {
    for threads in ["1", "2"] {
        let r = report(&model("Bank_i.imp"), &["--threads", threads], 0);
        assert_eq!(counts(&r), (3, 7), "{threads}");
    }
}

#[test]
fn scalar_parameters_are_constants_bounded_by_constraints_or_set() {
    let r = report(&model("Sized.mch"), &[], 0);
    assert_eq!(r["states"], 36);
    assert_eq!(r["constant_valuations"], 3);
    let r = report(&model("Sized.mch"), &["--set", "n=2"], 0);
    assert_eq!(r["states"], 12);
    assert_eq!(r["constant_valuations"], 1);
    // A parameter that nothing bounds: the error says how to give it.
    let dir = project(&[(
        "P.mch",
        "MACHINE P(n)\nVARIABLES x\nINVARIANT x : 0..n\nINITIALISATION x := 0\n\
         OPERATIONS inc = PRE x < n THEN x := x + 1 END\nEND\n",
    )]);
    let (code, _, err) = check_path(&dir.path().join("P.mch"), &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("give its value with `--set n=N`"), "{err}");
    let r = report(
        &dir.path().join("P.mch"),
        &["--set", "n=3", "--no-deadlock"],
        0,
    );
    assert_eq!(r["states"], 4);
    // The constraint still holds the parameter to its range.
    let r = report(&model("Sized.mch"), &["--set", "n=7"], 1);
    assert!(
        r["message"].as_str().unwrap().contains("no solution"),
        "{r}"
    );
    // A capitalised parameter that CONSTRAINTS leaves untyped is a set
    // parameter, as ProB reads it (2 elements); typed there, a scalar.
    // value = 1: <>, [a], [b]; value = 2: those and four more. With Param
    // = 1..3: 1 + 3, then 1 + 3 + 9.
    for (constraints, states) in [
        ("value : 1..2", 3 + 7),
        ("value : 1..2 & Param = 1..3", 4 + 13),
    ] {
        let text = format!(
            "MACHINE Q(Param, value)\nCONSTRAINTS {constraints}\nVARIABLES q\n\
             INVARIANT q : seq(Param)\nINITIALISATION q := <>\n\
             OPERATIONS add(e) = PRE e : Param & size(q) < value THEN q := q <- e END\nEND\n"
        );
        let dir = project(&[("Q.mch", &text)]);
        let r = report(&dir.path().join("Q.mch"), &["--no-deadlock"], 0);
        assert_eq!(
            (r["states"].as_u64(), r["constant_valuations"].as_u64()),
            (Some(states), Some(2)),
            "{constraints}: {r}"
        );
    }
}

#[test]
fn components_are_found_on_the_search_path() {
    let dir = project(&[
        (
            "lib/Cell.mch",
            "MACHINE Cell\nVARIABLES v\nINVARIANT v : 0..2\nINITIALISATION v := 0\nOPERATIONS\n  set(x) = PRE x : 0..2 THEN v := x END\nEND\n",
        ),
        ("lib/lib.def", "DEFINITIONS\n  Top == 2\n"),
        (
            "app/Main.mch",
            "MACHINE Main\nINCLUDES Cell\nDEFINITIONS \"lib.def\"\nOPERATIONS\n  up = SELECT v < Top THEN set(v + 1) END;\n  down = SELECT v > 0 THEN set(v - 1) END\nEND\n",
        ),
    ]);
    let main = dir.path().join("app/Main.mch");
    let (code, _, err) = check_path(&main, &[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("error: cannot find definition file \"lib.def\""),
        "{err}"
    );
    assert!(err.contains("Main.mch:3:13"), "{err}");
    assert!(err.contains("--search-path"), "{err}");
    let lib = dir.path().join("lib");
    let r = report(&main, &["--search-path", lib.to_str().unwrap()], 0);
    assert_eq!(counts(&r), (3, 4));
}

#[test]
fn structuring_errors_name_the_place_and_the_problem() {
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: &[Case] = &[
        (
            &[
                ("M.mch", "MACHINE M\nINCLUDES N\nEND\n"),
                ("N.mch", "MACHINE N\nINCLUDES M\nEND\n"),
            ],
            "machine `M` names itself through M -> N",
            "N.mch:2:10",
        ),
        (
            &[
                ("M.mch", "MACHINE M\nINCLUDES N(1, 2)\nEND\n"),
                ("N.mch", "MACHINE N(a)\nCONSTRAINTS a : NAT\nEND\n"),
            ],
            "machine `N` has 1 parameter(s) (a), but 2 argument(s) are given",
            "M.mch:2:10",
        ),
        (
            &[
                (
                    "M.mch",
                    "MACHINE M\nINCLUDES N\nOPERATIONS\n  go = nope(1)\nEND\n",
                ),
                ("N.mch", "MACHINE N\nOPERATIONS\n  op(x) = skip\nEND\n"),
            ],
            "unknown operation `nope`",
            "M.mch:4:8",
        ),
        (
            &[
                (
                    "M.mch",
                    "MACHINE M\nINCLUDES N\nOPERATIONS\n  go = op\nEND\n",
                ),
                ("N.mch", "MACHINE N\nOPERATIONS\n  op(x) = skip\nEND\n"),
            ],
            "operation `op` takes 1 argument(s) and gives 0 output(s); the call passes 0 and receives 0",
            "M.mch:4:8",
        ),
        (
            &[
                ("M.mch", "MACHINE M\nINCLUDES N\nPROMOTES other\nEND\n"),
                ("N.mch", "MACHINE N\nOPERATIONS\n  op = skip\nEND\n"),
            ],
            "cannot promote `other`",
            "M.mch:3:10",
        ),
        (
            &[("M.mch", "MACHINE M\nDEFINITIONS \"LibraryXML.def\"\nEND\n")],
            "cannot find definition file \"LibraryXML.def\"",
            "M.mch:2:13",
        ),
        (
            &[
                ("M.mch", "MACHINE M\nINCLUDES N, N\nEND\n"),
                (
                    "N.mch",
                    "MACHINE N\nVARIABLES v\nINVARIANT v : BOOL\nINITIALISATION v := TRUE\nEND\n",
                ),
            ],
            "`v` is declared twice in the model",
            "N.mch:2:11",
        ),
        (
            &[
                ("M.mch", "MACHINE M\nSEES Nn\nEND\n"),
                ("nn.mch", "MACHINE nn\nEND\n"),
            ],
            "there is `nn.mch`: names are case sensitive",
            "M.mch:2:6",
        ),
        (
            &[
                ("M.mch", "MACHINE M\nSEES N\nEND\n"),
                ("N.mch", "MACHINE Other\nEND\n"),
            ],
            "this file defines `Other`, but `N` was expected",
            "N.mch:1:9",
        ),
        (
            &[
                ("M.mch", "MACHINE M\nDEFINITIONS \"d.def\"\nEND\n"),
                ("d.def", "MACHINE d\nEND\n"),
            ],
            "definition file \"d.def\" must start with `DEFINITIONS`",
            "d.def:1:1",
        ),
        (
            &[
                ("M.mch", "MACHINE M\nDEFINITIONS \"d.def\"\nEND\n"),
                ("d.def", "DEFINITIONS \"d.def\"\n"),
            ],
            "definition file \"d.def\" includes itself",
            "d.def:1:13",
        ),
    ];
    for (files, message, place) in cases {
        let dir = project(files);
        let (code, out, err) = check_path(&dir.path().join("M.mch"), &[]);
        assert_eq!(code, Some(2), "{message}: {out}{err}");
        assert!(err.contains(message), "expected {message:?} in\n{err}");
        assert!(err.contains(place), "expected {place:?} in\n{err}");
    }
}

#[test]
fn while_loops_check_their_invariant_and_variant() {
    let machine = |body: &str| {
        format!(
            "MACHINE W\nVARIABLES x, n\nINVARIANT x : INTEGER & n : INTEGER\nINITIALISATION x := 0 || n := 0\n\
             OPERATIONS\n  run = SELECT n = 0 THEN {body} ; n := 1 END\nEND\n"
        )
    };
    let run = |body: &str| {
        let dir = project(&[("W.mch", &machine(body))]);
        report(
            &dir.path().join("W.mch"),
            &["--no-deadlock"],
            if body.contains("BAD") { 1 } else { 0 },
        )
    };
    // A long deterministic loop runs without recursion.
    let r =
        run("x := 0 ; WHILE x < 200000 DO x := x + 1 INVARIANT x <= 200000 VARIANT 200000 - x END");
    assert_eq!(r["states"], 2);
    // A non-deterministic body: every run of the loop is an outcome.
    let r = run("WHILE x < 3 DO x :: {x + 1, x + 2} INVARIANT x <= 4 VARIANT 3 - x END");
    assert_eq!(r["states"], 3, "{r}"); // x = 3 or x = 4 after the loop
    for (body, message) in [
        (
            "WHILE x < 3 DO x := x + 1 INVARIANT x < 2 /*BAD*/ VARIANT 3 - x END",
            "WHILE invariant is false",
        ),
        (
            "WHILE x < 3 DO x := x + 1 INVARIANT x <= 3 VARIANT 5 /*BAD*/ END",
            "WHILE variant did not decrease: 5 before the iteration, 5 after",
        ),
        (
            "WHILE x < 3 DO x := x + 1 INVARIANT x <= 3 VARIANT 1 - x /*BAD*/ END",
            "WHILE variant is negative (-1)",
        ),
    ] {
        let r = run(body);
        assert!(
            r["message"].as_str().unwrap().contains(message),
            "{body}: {r}"
        );
    }
}

/// A seen machine that no component includes is the environment's: its
/// operations run (as ProB runs them), and the seeing machine may call its
/// inquiry operations.
#[test]
fn seen_machines_operations_run_and_their_inquiries_can_be_called() {
    let dir = project(&[
        (
            "Price.mch",
            "MACHINE Price\nVARIABLES p\nINVARIANT p : 1..3\nINITIALISATION p := 2\nOPERATIONS\n  \
             r <-- quote(n) = PRE n : 1..2 THEN r := p * n END;\n  raise = p := 3\nEND\n",
        ),
        (
            "Shop.mch",
            "MACHINE Shop\nSEES Price\nVARIABLES paid\nINVARIANT paid : 0..10\nINITIALISATION paid := 0\n\
             OPERATIONS\n  buy(n) = PRE n : 1..2 & paid <= 4 THEN VAR c IN c <-- quote(n) ; paid := paid + c END END\nEND\n",
        ),
        (
            "Bad.mch",
            "MACHINE Bad\nSEES Price\nOPERATIONS\n  up = raise\nEND\n",
        ),
    ]);
    // p = 2: paid 0, 2, 4, then 6 or 8 (5 states); `raise` may come at any
    // of them, and with p = 3 purchases of 3 or 6 follow while paid <= 4:
    // paid in {0, 2, 3, 4, 5, 6, 7, 8, 9, 10} (10 states).
    let r = report(&dir.path().join("Shop.mch"), &["--no-deadlock"], 0);
    assert_eq!(r["states"], 15, "{r}");
    // Price's invariant is the model's too.
    let strict = project(&[
        (
            "Price.mch",
            "MACHINE Price\nVARIABLES p\nINVARIANT p : 1..2\nINITIALISATION p := 2\n\
             OPERATIONS raise = p := 3\nEND\n",
        ),
        (
            "Shop.mch",
            "MACHINE Shop\nSEES Price\nVARIABLES paid\nINVARIANT paid : 0..1\nINITIALISATION paid := 0\nEND\n",
        ),
    ]);
    let r = report(&strict.path().join("Shop.mch"), &[], 1);
    assert_eq!(r["result"], "invariant_violation", "{r}");
    assert_eq!(r["trace"][1]["label"], "raise", "{r}");
    let (code, _, err) = check_path(&dir.path().join("Bad.mch"), &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown operation `raise`"), "{err}");
    assert!(err.contains("can be called here are: quote"), "{err}");
}

/// A machine that one component sees and another includes is the included
/// machine (merged once, its operations not doubled); instances of one
/// machine share its sets and constants; a component's `scope_X` is ignored
/// with a warning, as ProB reads scopes of the checked machine only.
#[test]
fn machines_reached_twice_are_merged_once() {
    let dir = project(&[
        (
            "Life.mch",
            "MACHINE Life\nDEFINITIONS scope_PERSON == 5\nSETS PERSON\nVARIABLES alive\n\
             INVARIANT alive <: PERSON\nINITIALISATION alive := {}\n\
             OPERATIONS born(p) = PRE p : PERSON - alive THEN alive := alive \\/ {p} END\nEND\n",
        ),
        (
            "Wed.mch",
            "MACHINE Wed\nUSES Life\nVARIABLES wed\nINVARIANT wed <: alive\nINITIALISATION wed := {}\n\
             OPERATIONS marry(p) = PRE p : alive - wed THEN wed := wed \\/ {p} END\nEND\n",
        ),
        (
            "Town.mch",
            "MACHINE Town\nEXTENDS Wed\nINCLUDES Life\nPROMOTES born\nEND\n",
        ),
        (
            "Cell.mch",
            "MACHINE Cell\nSETS TONE = {lo, hi}\nCONSTANTS top\nPROPERTIES top = hi\n\
             VARIABLES t\nINVARIANT t : TONE\nINITIALISATION t := lo\nOPERATIONS up = t := top\nEND\n",
        ),
        (
            "Two.mch",
            "MACHINE Two\nINCLUDES a.Cell, b.Cell\nPROMOTES a.up, b.up\nEND\n",
        ),
    ]);
    // PERSON has ProB's default 2 elements (Life's scope is not Town's):
    // each person unborn, alive or alive and wed: 3 * 3 states.
    let (code, out, err) = check_path(&dir.path().join("Town.mch"), &["--json", "--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["states"], 9, "{r}");
    assert!(
        err.contains("ignoring scope_PERSON of `Life`: scope definitions are read from the checked machine only"),
        "{err}"
    );
    // Checked on its own, Life has its 5 persons; Wed runs Life's `born`.
    let alone =
        |name: &str| report(&dir.path().join(name), &["--no-deadlock"], 0)["states"].clone();
    assert_eq!(alone("Life.mch"), 32);
    assert_eq!(alone("Wed.mch"), 9);
    // Two cells with one TONE: 2 * 2 states.
    assert_eq!(
        report(&dir.path().join("Two.mch"), &["--no-deadlock"], 0)["states"],
        4
    );
}

/// A refined operation keeps its abstraction's precondition (minus the
/// conjuncts on replaced variables), so it may leave out the typing of its
/// parameters, as refinements usually do.
#[test]
fn refined_operations_keep_the_abstract_precondition() {
    let abstraction = std::fs::read_to_string(model("Bank.mch")).unwrap();
    let refinement = std::fs::read_to_string(model("Bank_r.ref"))
        .unwrap()
        .replace(
            "deposit(u) = PRE u : USER & ops < 2 THEN",
            "deposit(v) = BEGIN",
        )
        .replace("hist <- u", "hist <- v");
    assert!(refinement.contains("deposit(v) = BEGIN"));
    let dir = project(&[("Bank.mch", &abstraction), ("Bank_r.ref", &refinement)]);
    // `v : USER` and `ops < 2` come from Bank's `deposit(u)`; `bal(u) < limit`
    // mentions the replaced `bal` and is left out.
    let r = report(&dir.path().join("Bank_r.ref"), &[], 0);
    assert_eq!(counts(&r), (7, 13));
}

/// `SEES r.M` reads the instance `r.M` that another component includes.
#[test]
fn a_renamed_seen_machine_is_the_instance_included_elsewhere() {
    let dir = project(&[
        (
            "Cell.mch",
            "MACHINE Cell\nVARIABLES v\nINVARIANT v : 0..2\nINITIALISATION v := 0\n\
             OPERATIONS inc = PRE v < 2 THEN v := v + 1 END\nEND\n",
        ),
        (
            "Watch.mch",
            "MACHINE Watch\nSEES a.Cell\nVARIABLES seen\nINVARIANT seen : 0..2 & seen <= a.v\n\
             INITIALISATION seen := 0\nOPERATIONS look = seen := a.v\nEND\n",
        ),
        (
            "Top.mch",
            "MACHINE Top\nINCLUDES a.Cell, Watch\nPROMOTES a.inc, look\nEND\n",
        ),
    ]);
    // `seen` is at most `a.v`: 1 + 2 + 3 states.
    let r = report(&dir.path().join("Top.mch"), &["--no-deadlock"], 0);
    assert_eq!(r["states"], 6);
}

/// A called operation that reads its output before assigning it is a
/// model error naming the output as the callee writes it.
#[test]
fn a_callee_reading_its_output_early_is_a_model_error() {
    let dir = project(&[
        (
            "Copy.mch",
            "MACHINE Copy\nOPERATIONS\n  xx <-- Inc(vv) = PRE vv : 0..3 THEN xx := xx + vv END\nEND\n",
        ),
        (
            "Use.mch",
            "MACHINE Use\nINCLUDES Copy\nVARIABLES zz\nINVARIANT zz : 0..10\nINITIALISATION zz := 0\n\
             OPERATIONS bump = zz <-- Inc(1)\nEND\n",
        ),
    ]);
    let r = report(&dir.path().join("Use.mch"), &[], 1);
    assert_eq!(r["result"], "model_error", "{r}");
    let message = r["message"].as_str().unwrap();
    assert!(
        message.contains("`xx` is read before it is assigned a value"),
        "{message}"
    );
    assert!(message.contains("Copy.mch:3:"), "{message}");
}

/// An included machine that uses another included machine is initialised
/// after it, whatever the order of INCLUDES (ProB's Double3: the light is
/// set from the switch's status).
#[test]
fn an_included_machine_is_initialised_after_the_machines_it_sees() {
    let dir = project(&[
        (
            "Switch.mch",
            "MACHINE Switch\nSETS Status = {on, off}\nVARIABLES cur\nINVARIANT cur : Status\n\
             INITIALISATION cur := on\nOPERATIONS flip = IF cur = on THEN cur := off ELSE cur := on END\nEND\n",
        ),
        (
            "Light.mch",
            "MACHINE Light\nUSES Switch\nVARIABLES light\nINVARIANT light : BOOL\n\
             INITIALISATION light := bool(cur = on)\nEND\n",
        ),
        (
            "Both.mch",
            "MACHINE Both\nINCLUDES Light, Switch\nPROMOTES flip\nEND\n",
        ),
    ]);
    // light = TRUE from cur = on; flip then gives cur = off: 2 states.
    let r = report(&dir.path().join("Both.mch"), &["--no-deadlock"], 0);
    assert_eq!(r["states"], 2, "{r}");
    assert_eq!(r["initial_states"], 1, "{r}");
}

#[test]
fn a_definition_file_included_twice_is_read_once() {
    // ProB's examples include LibraryIO.def both directly and through a
    // definition file of their own: its definitions are not given twice.
    let dir = project(&[
        (
            "M.mch",
            "MACHINE M\nDEFINITIONS \"common.def\"; \"lib.def\"; Two == 2 * One\n\
             VARIABLES x\nINVARIANT x : 0..Two\nINITIALISATION x := One\n\
             OPERATIONS up = PRE x < Two THEN x := x + 1 END\nEND\n",
        ),
        ("common.def", "DEFINITIONS\n  \"lib.def\";\n  Half == One\n"),
        ("lib.def", "DEFINITIONS\n  One == 1\n"),
    ]);
    let r = report(&dir.path().join("M.mch"), &["--no-deadlock"], 0);
    assert_eq!(counts(&r), (2, 1));
}

#[test]
fn free_types_of_a_seen_included_or_refined_machine_are_in_scope() {
    let dir = project(&[
        (
            "Types.mch",
            "MACHINE Types\nFREETYPES\n  Cmd = stop, go(BOOL)\nEND\n",
        ),
        (
            "Main.mch",
            "MACHINE Main\nSEES Types\nVARIABLES c\nINVARIANT c : Cmd\nINITIALISATION c := stop\n\
             OPERATIONS\n  set(b) = PRE b : BOOL THEN c := go(b) END;\n  halt = c := stop\nEND\n",
        ),
        (
            "Both.mch",
            "MACHINE Both\nINCLUDES Types\nVARIABLES c\nINVARIANT c : Cmd\nINITIALISATION c := stop\n\
             OPERATIONS\n  set(b) = PRE b : BOOL & c = stop THEN c := go(b) END\nEND\n",
        ),
        (
            "R1.ref",
            "REFINEMENT R1\nREFINES Both\nVARIABLES c\nINITIALISATION c := stop\n\
             OPERATIONS\n  set(b) = PRE b : BOOL & c = stop THEN c := go(bool(b = FALSE)) END\nEND\n",
        ),
    ]);
    // stop, go(FALSE), go(TRUE): every state reaches every one (3 * 3).
    let r = report(&dir.path().join("Main.mch"), &[], 0);
    assert_eq!(counts(&r), (3, 9));
    let r = report(&dir.path().join("Both.mch"), &["--no-deadlock"], 0);
    assert_eq!(counts(&r), (3, 2));
    let r = report(&dir.path().join("R1.ref"), &["--no-deadlock"], 0);
    assert_eq!(counts(&r), (3, 2));
}

/// ProB's pragmas that say where a component's file is: `/*@file "p" */`
/// after its name, and `/*@package a.b */` with `/*@import-package c */`
/// at the head of the naming file. Without them the file is not found.
#[test]
fn file_and_package_pragmas_locate_components() {
    let seen = "MACHINE N\nCONSTANTS k\nPROPERTIES k = 3\nEND\n";
    let user = |sees: &str, head: &str| {
        format!(
            "{head}MACHINE M\nSEES {sees}\nVARIABLES x\nINVARIANT x : 0..k\n\
             INITIALISATION x := 0\nOPERATIONS up = PRE x < k THEN x := x + 1 END\nEND\n"
        )
    };
    let dir = project(&[
        ("M.mch", &user("N /*@file \"lib/N.mch\" */", "")),
        (
            "a/aa/P.mch",
            &user("N", "/*@package a.aa */\n/*@import-package lib */\n"),
        ),
        ("Q.mch", &user("N", "")),
        ("lib/N.mch", seen),
    ]);
    for name in ["M.mch", "a/aa/P.mch"] {
        let r = report(&dir.path().join(name), &["--no-deadlock"], 0);
        assert_eq!(r["states"], 4, "{name}");
    }
    let (code, _, err) = check_path(&dir.path().join("Q.mch"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot find machine `N`"), "{err}");
}

/// ProB's `SET_PREF_ALLOW_LOCAL_OPERATION_CALLS`: a machine's operations
/// call its own, a callee's precondition guarding the caller, and a
/// callee calling another in turn; the oracle is the calls inlined by hand.
#[test]
fn local_operation_calls_explore_the_hand_inlined_state_space() {
    let calls = "MACHINE Local\nDEFINITIONS SET_PREF_ALLOW_LOCAL_OPERATION_CALLS == TRUE\n\
        VARIABLES x\nINVARIANT x : 0..20\nINITIALISATION x := 0\nOPERATIONS\n\
        step = VAR r IN r <-- twice(x) ; x := r END;\n\
        out <-- twice(p) = PRE p : 0..4 THEN out <-- plus(p, p + 1) END;\n\
        out <-- plus(a, b) = PRE a + b <= 9 THEN out := a + b END\nEND\n";
    let inlined = "MACHINE Inlined\nVARIABLES x\nINVARIANT x : 0..20\n\
        INITIALISATION x := 0\nOPERATIONS\n\
        step = SELECT x : 0..4 & x + x + 1 <= 9 THEN x := x + x + 1 END;\n\
        out <-- twice(p) = PRE p : 0..4 & p + p + 1 <= 9 THEN out := p + p + 1 END;\n\
        out <-- plus(a, b) = PRE a + b <= 9 THEN out := a + b END\nEND\n";
    let dir = project(&[("Local.mch", calls), ("Inlined.mch", inlined)]);
    let args = ["--bound-integers", "--maxint", "9"];
    let oracle = counts(&report(&dir.path().join("Inlined.mch"), &args, 0));
    assert_eq!(
        counts(&report(&dir.path().join("Local.mch"), &args, 0)),
        oracle
    );
    // 0 -> 1 -> 3 -> 7, where twice's precondition fails: four states.
    assert_eq!(oracle.0, 4);
    // Without the preference, and with a call that recurses: refused by name.
    let plain = calls.replace("SET_PREF_ALLOW_LOCAL_OPERATION_CALLS == TRUE", "N == 1");
    let recursive = calls.replace("out := a + b", "out <-- twice(a)");
    let dir = project(&[("Plain.mch", &plain), ("Rec.mch", &recursive)]);
    let (code, _, err) = check_path(&dir.path().join("Plain.mch"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown operation `twice`"), "{err}");
    assert!(
        err.contains("SET_PREF_ALLOW_LOCAL_OPERATION_CALLS"),
        "{err}"
    );
    let (code, _, err) = check_path(&dir.path().join("Rec.mch"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("calls itself (twice -> plus -> twice)"),
        "{err}"
    );
}

/// ProB's named formulas take no part in the check, and the run says so;
/// a `'''` string spans lines and keeps its double quotes.
#[test]
fn named_formulas_are_reported_as_not_evaluated() {
    let text = "MACHINE Named\nCONSTANTS s\nPROPERTIES s = '''say \"hi\"\nbye'''\n\
        VARIABLES x\nINVARIANT x : 0..2\nINITIALISATION x := 0\n\
        EXPRESSIONS double == x * 2; quoted == s\n\
        OPERATIONS inc = SELECT x < 2 & s = \"say \\\"hi\\\"\\nbye\" THEN x := x + 1 END\nEND\n";
    let dir = project(&[("Named.mch", text)]);
    let (code, out, err) = check_path(&dir.path().join("Named.mch"), &["--no-deadlock"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("distinct states:      3"), "{out}");
    assert!(
        err.contains("EXPRESSIONS/PREDICATES (double, quoted)") && err.contains("not evaluated"),
        "{err}"
    );
}
