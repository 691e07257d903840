//! `orbit check` on the Murphi models of `models/murphi/`: the counts and
//! verdicts recorded in `models/murphi/EXPECTED.md` (cross-checked with
//! Rumur 2022.08.20, `--symmetry-reduction off`), the same with every
//! order, thread count and `--por`, counterexamples, `--set`, and clear
//! refusals. `external_rumur_agrees_on_every_bundled_model` runs Rumur
//! itself (`.ci/run` installs it).

use crate::cli_support::{self, CheckRun, DEFAULT_TIMEOUT};
use std::path::PathBuf;
use std::process::Command;

fn murphi(file: &str) -> String {
    format!("murphi/{file}")
}

/// (file, --set, flags, result, states, transitions), as in EXPECTED.md.
type Row = (
    &'static str,
    &'static [(&'static str, u32)],
    &'static [&'static str],
    &'static str,
    u64,
    u64,
);

const EXPECTED: &[Row] = &[
    ("peterson.m", &[], &[], "ok", 356, 810),
    ("peterson.m", &[("N", 4)], &[], "ok", 5_744, 15_848),
    ("german.m", &[("NODES", 2)], &[], "ok", 1_461, 3_864),
    ("german.m", &[], &[], "ok", 27_513, 109_728),
    ("features.m", &[], &["--no-deadlock"], "ok", 826, 1_513),
    ("msg_net_counts.m", &[], &[], "ok", 964, 3_972),
    ("no_semicolons.m", &[], &[], "ok", 27, 55),
];

#[test]
fn bundled_models_give_rumurs_counts_in_every_order_and_thread_count() {
    for &(file, sets, flags, result, states, transitions) in EXPECTED {
        for extra in [
            &["--threads", "1"][..],
            &["--threads", "2"],
            &["--threads", "2", "--order", "any"],
            &["--threads", "1", "--order", "dfs"],
        ] {
            let all: Vec<&str> = flags.iter().chain(extra).copied().collect();
            let r = CheckRun::run(&murphi(file), sets, &all);
            assert_eq!(r.result(), result, "{}", r.command);
            assert_eq!(
                (r.count("states"), r.count("transitions")),
                (states, transitions),
                "{}",
                r.command
            );
        }
    }
}

/// (file, --set, flags, states, transitions) under `--symmetry canon`,
/// as in EXPECTED.md: Rumur's `--symmetry-reduction exhaustive` counts.
const ORBITS: &[Row] = &[
    ("peterson.m", &[], &[], "ok", 72, 170),
    ("peterson.m", &[("N", 4)], &[], "ok", 322, 943),
    ("german.m", &[("NODES", 2)], &[], "ok", 735, 1_945),
    ("german.m", &[], &[], "ok", 4_947, 19_747),
    ("features.m", &[], &["--no-deadlock"], "ok", 826, 1_513),
    ("aliases.m", &[], &["--no-deadlock"], "ok", 20, 45),
    ("msg_net_counts.m", &[], &[], "ok", 199, 819),
];

#[test]
fn canon_and_flood_give_rumurs_exhaustive_symmetry_counts() {
    for &(file, sets, flags, result, states, transitions) in ORBITS {
        for extra in [
            &["--symmetry", "canon", "--threads", "1"][..],
            &["--symmetry", "canon", "--threads", "2", "--order", "any"],
            &["--symmetry", "flood", "--threads", "2"],
            &["--symmetry", "canon", "--por", "--threads", "2"],
        ] {
            let all: Vec<&str> = flags.iter().chain(extra).copied().collect();
            let r = CheckRun::run(&murphi(file), sets, &all);
            assert_eq!(r.result(), result, "{}", r.command);
            if all.contains(&"--por") {
                assert!(r.count("states") <= states, "{}", r.command);
            } else {
                assert_eq!(
                    (r.count("states"), r.count("transitions")),
                    (states, transitions),
                    "{}",
                    r.command
                );
            }
            assert!(r.json["symmetry"].is_object(), "{}", r.command);
        }
    }
    // A counterexample found on representatives is mapped back to a real run.
    let r = CheckRun::run(&murphi("mutex_bug.m"), &[], &["--symmetry", "canon"]);
    assert_eq!(r.result(), "invariant_violation");
    let text = cli_support::run_orbit(
        &[
            "check".into(),
            cli_support::model_path(&murphi("mutex_bug.m"))
                .display()
                .to_string(),
            "--symmetry".into(),
            "canon".into(),
        ],
        DEFAULT_TIMEOUT,
    );
    assert!(
        text.stdout.contains("pc = [1: crit, 2: crit]"),
        "{}",
        text.stdout
    );
}

/// Symmetry markers on Murphi states (per-element markers over
/// scalarset-indexed arrays, refined once): on every bundled model both
/// marker modes store exactly canon's number of states (exact markers sort
/// every state to its canonical form; approximate markers merge no two
/// orbits), and a counterexample still maps back to a real run.
#[test]
fn symmetry_markers_are_as_precise_as_canon_on_the_bundled_models() {
    for &(file, sets, flags, result, states, _) in ORBITS {
        for mode in ["markers", "markers-exact"] {
            let all: Vec<&str> = flags.iter().copied().chain(["--symmetry", mode]).collect();
            let r = CheckRun::run(&murphi(file), sets, &all);
            assert_eq!(
                (r.result(), r.count("states")),
                (result, states),
                "{}",
                r.command
            );
        }
    }
    for mode in ["markers", "markers-exact"] {
        let r = CheckRun::run(&murphi("union_lock.m"), &[], &["--symmetry", mode]);
        assert_eq!(r.count("states"), 14, "{}", r.command);
        let r = CheckRun::run(&murphi("mutex_bug.m"), &[], &["--symmetry", mode]);
        assert_eq!(r.result(), "invariant_violation", "{}", r.command);
        assert!(!r.trace().is_empty(), "{}", r.command);
    }
}

/// Brute force through the library: the reachable states of the
/// unreduced program, closed under every permutation of the scalarsets,
/// fall into exactly as many orbits as `canon` stores.
#[test]
fn canon_counts_are_brute_force_orbit_counts() {
    use orbit::checker::{Checker, ModelRuns};
    use orbit::frontends::murphi::symmetry::MurphiSymmetry;
    use orbit::model::{StateSymmetry, all_permutations};
    use orbit::symmetry::{RealRuns, SymmetryMode};
    use std::collections::{HashSet, VecDeque};
    for (file, sets) in [
        ("peterson.m", vec![("N".to_string(), 3)]),
        ("german.m", vec![("NODES".to_string(), 2)]),
        ("german.m", vec![("NODES".to_string(), 3)]),
        ("union_lock.m", vec![("N".to_string(), 3)]),
        ("union_lock.m", vec![("N".to_string(), 4)]),
        ("msg_net.m", vec![("N".to_string(), 3)]),
        (
            "msg_net.m",
            vec![("N".to_string(), 2), ("K".to_string(), 2)],
        ),
    ] {
        let system = orbit::frontends::murphi::load(
            &cli_support::model_path(&murphi(file)),
            &sets,
            Default::default(),
        )
        .expect("loads");
        let runs = ModelRuns(&system);
        let mut seen: HashSet<Box<[u64]>> = HashSet::new();
        let mut queue = VecDeque::new();
        for l in runs.initial().expect("initial") {
            if seen.insert(l.state.clone()) {
                queue.push_back(l.state);
            }
        }
        while let Some(s) = queue.pop_front() {
            for l in runs.successors(&s).expect("successors") {
                if seen.insert(l.state.clone()) {
                    queue.push_back(l.state);
                }
            }
        }
        let sym = MurphiSymmetry::new(system.program(), system.packer());
        let d = sym.domains().clone();
        let perms = all_permutations(&d.set_sizes, &d.movable);
        let mut scratch = sym.new_scratch();
        let mut image = Vec::new();
        let orbits: HashSet<Vec<u64>> = seen
            .iter()
            .map(|s| {
                perms
                    .iter()
                    .map(|p| {
                        assert!(sym.permute(p, s, &mut scratch, &mut image));
                        assert!(
                            seen.contains(image.as_slice()),
                            "{file}: not closed under symmetry"
                        );
                        image.clone()
                    })
                    .min()
                    .expect("identity")
            })
            .collect();
        let run = Checker::new(&system)
            .check_deadlock(false)
            .symmetry(sym, SymmetryMode::Canon)
            .run()
            .expect("valid");
        assert_eq!(
            run.report.stats.states as usize,
            orbits.len(),
            "{file} {sets:?}"
        );
    }
}

/// A union of a scalarset and an enumeration (which Rumur rejects): the
/// counts with and without symmetry, in every thread count, the orbit
/// count checked by brute force above.
#[test]
fn union_typed_models_check_with_and_without_symmetry() {
    for (flags, states, transitions) in [
        (&["--threads", "1"][..], 40, 116),
        (&["--threads", "2"], 40, 116),
        (&["--symmetry", "canon", "--threads", "1"], 14, 43),
        (
            &["--symmetry", "canon", "--threads", "2", "--order", "any"],
            14,
            43,
        ),
        (&["--symmetry", "flood"], 14, 43),
    ] {
        let r = CheckRun::run(&murphi("union_lock.m"), &[], flags);
        assert_eq!(r.result(), "ok", "{}", r.command);
        assert_eq!(
            (r.count("states"), r.count("transitions")),
            (states, transitions),
            "{}",
            r.command
        );
    }
    let r = CheckRun::run(&murphi("union_lock.m"), &[], &["--por"]);
    assert!(
        r.result() == "ok" && r.count("states") <= 40,
        "{}",
        r.command
    );
}

#[test]
fn partial_order_reduction_keeps_the_verdicts_and_never_adds_states() {
    for &(file, sets, flags, result, states, _) in EXPECTED {
        for threads in ["1", "2"] {
            let all: Vec<&str> = flags
                .iter()
                .copied()
                .chain(["--por", "--threads", threads])
                .collect();
            let r = CheckRun::run(&murphi(file), sets, &all);
            assert_eq!(r.result(), result, "{}", r.command);
            assert!(r.count("states") <= states, "{}", r.command);
            assert!(r.json["por"].is_object(), "{}", r.command);
        }
    }
    for (file, result) in [
        ("mutex_bug.m", "invariant_violation"),
        ("stuck.m", "deadlock"),
    ] {
        let r = CheckRun::run(&murphi(file), &[], &["--por"]);
        assert_eq!(r.result(), result, "{}", r.command);
    }
}

#[test]
fn errors_come_with_shortest_real_traces() {
    // Two processes pass the test before either sets the flag.
    let r = CheckRun::run(&murphi("mutex_bug.m"), &[], &[]);
    assert_eq!(r.result(), "invariant_violation");
    assert_eq!(r.code, Some(1));
    let trace = r.trace();
    assert_eq!(trace.len(), 5, "{}", r.command);
    let labels: Vec<String> = trace
        .iter()
        .map(|s| s["label"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(labels[1].starts_with("test, p:"), "{labels:?}");
    let text = cli_support::run_orbit(
        &[
            "check".into(),
            cli_support::model_path(&murphi("mutex_bug.m"))
                .display()
                .to_string(),
        ],
        DEFAULT_TIMEOUT,
    );
    assert!(
        text.stdout.contains("pc = [1: crit, 2: crit]"),
        "{}",
        text.stdout
    );

    // Leaving a range is a model error at the assignment, after 3 steps.
    let r = CheckRun::run(&murphi("overflow.m"), &[], &[]);
    assert_eq!(r.result(), "model_error");
    assert!(
        r.json["message"]
            .as_str()
            .unwrap_or_default()
            .contains("overflow.m:5:27"),
        "{}",
        r.json
    );
    assert_eq!(r.trace().len(), 4);

    let r = CheckRun::run(&murphi("stuck.m"), &[], &[]);
    assert_eq!((r.result(), r.trace().len()), ("deadlock", 3));
    // A loop to the end of the integers (it used to overflow, or run for
    // ever) ends, in theory; the time limit stops it.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("endless.m");
    std::fs::write(
        &path,
        "var x: 0..1;\nstartstate begin x := 0; for i := 0 to 9223372036854775807 do x := 1 - x; endfor; end;\n",
    )
    .expect("write");
    let r = CheckRun::run_path(
        &path.display().to_string(),
        &[],
        &["--time-limit", "1s"],
        DEFAULT_TIMEOUT,
    );
    assert_eq!(
        (r.result(), r.json["stopped"].as_str()),
        ("stopped", Some("time-limit")),
        "{}",
        r.command
    );
    let r = CheckRun::run(&murphi("stuck.m"), &[], &["--no-deadlock"]);
    assert_eq!((r.result(), r.count("states")), ("ok", 6));
}

#[test]
fn bad_programs_and_flags_are_refused_with_their_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = [
        (
            "var x: 0..3;\nstartstate begin x := ; end;",
            "bad.m:2:23",
            "expected an expression",
        ),
        (
            "type t: multiset [2] of multiset [2] of boolean;",
            "bad.m:1:6",
            "not supported yet: multisets of multisets",
        ),
        (
            "var x: 0..3;\nstartstate begin x := 0; end;\nchoose i: x do rule begin end; end;",
            "bad.m:3:1",
            "`choose` ranges over a multiset",
        ),
        (
            "type t: real(4, 2);",
            "bad.m:1:9",
            "not supported yet: real numbers",
        ),
        (
            "const k: 0.0019;",
            "bad.m:1:10",
            "not supported yet: real numbers (`0.0019`",
        ),
        (
            "var x: 0..3;\nstartstate begin x := undefined + 1; end;",
            "bad.m:2:23",
            "`undefined` can only be assigned or passed",
        ),
        (
            "var x: boolean;\nstartstate begin x := 3; end;",
            "bad.m:2:23",
            "cannot assign an integer",
        ),
        (
            "var x: 0..3;\nstartstate begin y := 1; end;",
            "bad.m:2:18",
            "`y` is not declared",
        ),
        ("var x: 0..3;", "", "no startstate"),
    ];
    let deep = format!(
        "var x: 0..1;\nstartstate begin x := {}0{}; end;",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let cases: Vec<(&str, &str, &str)> = cases
        .into_iter()
        .chain([
            (
                "var x: array [0..100000000] of boolean;\nstartstate begin end;",
                "bad.m:1:5",
                "too big",
            ),
            (
                "type t: scalarset(100000000);\nvar x: t;",
                "bad.m:1:19",
                "too big",
            ),
            (deep.as_str(), "bad.m:2", "nesting deeper than"),
            (
                "var x: 0..1;\nstartstate begin x := 0; end;\n\
                 ruleset i := 0 to 9223372036854775807 do rule x = 0 ==> begin x := 1 end; end;",
                "bad.m:3:",
                "more than 16777216 instances",
            ),
        ])
        .collect();
    for (text, place, message) in cases {
        let path = dir.path().join("bad.m");
        std::fs::write(&path, text).expect("write");
        let out = cli_support::run_orbit(
            &["check".into(), path.display().to_string()],
            DEFAULT_TIMEOUT,
        );
        assert_eq!(out.code, Some(2), "{text}: {}", out.stderr);
        assert!(
            out.stderr.contains(place) && out.stderr.contains(message),
            "{text}: {}",
            out.stderr
        );
    }
    let peterson = cli_support::model_path(&murphi("peterson.m"))
        .display()
        .to_string();
    for (flags, message) in [
        (&["--set", "M=3"][..], "names no constant"),
        (&["--goal"], "GOAL"),
        (&["--maxint", "5"], "B machines"),
    ] {
        let mut args = vec!["check".to_string(), peterson.clone()];
        args.extend(flags.iter().map(|s| s.to_string()));
        let out = cli_support::run_orbit(&args, DEFAULT_TIMEOUT);
        assert_eq!(out.code, Some(2), "{flags:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{flags:?}: {}", out.stderr);
    }
}

/// CMurphi's multisets (which Rumur rejects): `msg_net.m` keeps its
/// network in a multiset, `msg_net_counts.m` (which Rumur checks, rows
/// above) keeps a count of each message, so both reach as many states, in
/// every symmetry mode, size, order and thread count; the orbit counts of
/// `msg_net.m` are checked by brute force above. Transitions differ by
/// design (a `choose` fires once per copy of a message), so they are
/// pinned separately.
#[test]
fn multisets_reach_the_states_of_their_counting_encoding() {
    for sets in [&[][..], &[("N", 2), ("K", 2)], &[("N", 4), ("K", 4)]] {
        for flags in [
            &["--threads", "1"][..],
            &["--threads", "2", "--order", "any"],
            &["--symmetry", "canon"],
            &["--symmetry", "canon", "--threads", "2"],
            &["--symmetry", "flood"],
            &["--symmetry", "canon", "--por"],
        ] {
            let a = CheckRun::run(&murphi("msg_net.m"), sets, flags);
            let b = CheckRun::run(&murphi("msg_net_counts.m"), sets, flags);
            assert_eq!((a.result(), b.result()), ("ok", "ok"), "{}", a.command);
            assert_eq!(a.count("states"), b.count("states"), "{}", a.command);
        }
    }
    for (flags, states, transitions) in [
        (&[][..], 964, 4_356),
        (&["--symmetry", "canon"], 199, 895),
        (&["--symmetry", "flood", "--threads", "2"], 199, 895),
    ] {
        let r = CheckRun::run(&murphi("msg_net.m"), &[], flags);
        assert_eq!(
            (r.count("states"), r.count("transitions")),
            (states, transitions),
            "{}",
            r.command
        );
    }
    // Symmetry markers stay exact-or-above on multisets.
    let r = CheckRun::run(&murphi("msg_net.m"), &[], &["--symmetry", "markers-exact"]);
    assert!((199..=964).contains(&r.count("states")), "{}", r.command);
}

/// The multiset operations one by one, on small generated models: adding
/// to a full multiset is a model error with its place; `multisetremovepred`
/// removes exactly the matching elements; `clear` empties; CMurphi's
/// `undefined` (assigned, passed, copied from an undefined variable), rule
/// priorities, Rumur's `assume` and `cover`, and `ismember` on a union.
#[test]
fn multiset_operations_and_cmurphi_syntax_behave_as_in_cmurphi() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |name: &str, text: &str, flags: &[&str]| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        CheckRun::run_path(&path.display().to_string(), &[], flags, DEFAULT_TIMEOUT)
    };
    let full = "var m: multiset [2] of 0..3;\n\
                startstate begin clear m; end;\n\
                rule true ==> begin multisetadd(1, m); end;\n";
    let r = run("full.m", full, &[]);
    assert_eq!(r.result(), "model_error", "{}", r.json);
    let message = r.json["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("`m` is full") && message.contains("full.m:3:21"),
        "{message}"
    );
    // Two copies of 1 and one 2: removing the 1s leaves {2}; the counts
    // see duplicates.
    let pred = "var m: multiset [4] of 0..3; done: boolean;\n\
                startstate begin clear m; multisetadd(1, m); multisetadd(2, m); multisetadd(1, m); done := false; end;\n\
                rule !done & multisetcount(i: m, m[i] = 1) = 2 & multisetcount(i: m, true) = 3 ==>\n\
                begin multisetremovepred(i: m, m[i] = 1); done := true; end;\n\
                invariant \"removed\" done -> (multisetcount(i: m, true) = 1 & multisetcount(i: m, m[i] = 2) = 1);\n";
    let r = run("pred.m", pred, &["--no-deadlock"]);
    assert_eq!((r.result(), r.count("states")), ("ok", 2), "{}", r.json);
    // Element order never matters: adding 1 then 2 or 2 then 1 is one state.
    let order = "var m: multiset [2] of 0..3;\n\
                 startstate \"a\" begin clear m; multisetadd(1, m); multisetadd(2, m); end;\n\
                 startstate \"b\" begin clear m; multisetadd(2, m); multisetadd(1, m); end;\n\
                 choose i: m do rule m[i] = 1 ==> begin multisetremove(i, m); end; endchoose;\n";
    let r = run("order.m", order, &["--no-deadlock"]);
    assert_eq!(
        (r.result(), r.count("states"), r.count("initial_states")),
        ("ok", 2, 1),
        "{}",
        r.json
    );
    // `undefined`: assigned, passed by value, copied; a rule priority.
    let undef = "type t: 0..3;\nvar x: t; y: t;\n\
                 procedure set(v: t); begin y := v; end;\n\
                 startstate begin x := undefined; set(undefined); y := x; end;\n\
                 rule 5 \"go\" isundefined(y) ==> begin x := 1; y := 2; end;\n";
    let r = run("undef.m", undef, &["--no-deadlock"]);
    assert_eq!((r.result(), r.count("states")), ("ok", 2), "{}", r.json);
    // `ismember` on a union of a scalarset and an enumeration.
    let member = "type p: scalarset(2); h: enum {home}; a: union {p, h};\n\
                  var o: a; n: 0..2;\n\
                  startstate begin o := home; n := 0; end;\n\
                  ruleset q: p do rule ismember(o, h) ==> begin o := q; n := 1; end; endruleset;\n\
                  rule ismember(o, p) ==> begin o := home; n := 2; end;\n\
                  invariant ismember(o, p) = (n = 1);\n";
    let r = run("member.m", member, &[]);
    assert_eq!((r.result(), r.count("states")), ("ok", 4), "{}", r.json);
    // CMurphi's priorities: a state fires only its enabled rules of the
    // least priority number (default 0), so "low" waits for x = 2.
    let priority = "var x: 0..2; y: 0..2;\n\
                    startstate begin x := 0; y := 0; end;\n\
                    rule 1 \"low\" y < 2 ==> begin y := y + 1; end;\n\
                    rule \"high\" x < 2 ==> begin x := x + 1; end;\n\
                    invariant y > 0 -> x = 2;\n";
    for flags in [
        &["--no-deadlock"][..],
        &["--no-deadlock", "--por"],
        &["--no-deadlock", "--threads", "2"],
    ] {
        let r = run("priority.m", priority, flags);
        assert_eq!(r.result(), "ok", "{flags:?}: {}", r.json);
        if !flags.contains(&"--por") {
            assert_eq!(r.count("states"), 5, "{flags:?}: {}", r.json);
        }
    }
    // Rumur's `assume`: a false assumption statement abandons its rule
    // (what the body did before is undone, so the next rule starts from
    // the state itself), and an `assume` property discards the states
    // where it is false, with or without partial order reduction.
    let assume = "var x: 0..3; y: 0..3;\n\
                  startstate begin x := 0; y := 0; end;\n\
                  rule \"a\" x < 3 ==> begin x := x + 1; assume x != 2; end;\n\
                  rule \"b\" y < 3 ==> begin y := y + 1; end;\n\
                  assume \"y below 2\" y < 2;\n\
                  invariant x != 2 & y != 2;\n";
    for flags in [
        &["--no-deadlock"][..],
        &["--no-deadlock", "--por"],
        &["--no-deadlock", "--threads", "2"],
    ] {
        let r = run("assume.m", assume, flags);
        assert_eq!(r.result(), "ok", "{flags:?}: {}", r.json);
        if !flags.contains(&"--por") {
            assert_eq!(r.count("states"), 4, "{flags:?}: {}", r.json);
        }
    }
    // Deadlocks as CMurphi and Rumur count them: a state where every
    // enabled rule leaves it unchanged is stuck ("stuttering"), also under
    // partial order reduction and symmetry; `--deadlock-mode stuck` counts
    // only states without an enabled rule. A move to a symmetric state is
    // not stuttering, even when symmetry maps it back onto the state.
    let stutter = "var x: 0..2;\n\
                   startstate begin x := 0; end;\n\
                   rule \"up\" x < 2 ==> begin x := x + 1; end;\n\
                   rule \"idle\" true ==> begin x := x; end;\n";
    for flags in [
        &[][..],
        &["--por"],
        &["--threads", "2"],
        &["--symmetry", "canon"],
    ] {
        let r = run("stutter.m", stutter, flags);
        assert_eq!(
            (r.result(), r.trace().len()),
            ("deadlock", 3),
            "{flags:?}: {}",
            r.json
        );
        let all: Vec<&str> = flags
            .iter()
            .copied()
            .chain(["--deadlock-mode", "stuck"])
            .collect();
        let r = run("stutter.m", stutter, &all);
        assert_eq!(
            (r.result(), r.count("states")),
            ("ok", 3),
            "{all:?}: {}",
            r.json
        );
    }
    let token = "type p: scalarset(2);\nvar a: array [p] of boolean;\n\
                 ruleset i: p do startstate begin for j: p do a[j] := (j = i); endfor; end; endruleset;\n\
                 ruleset i: p; j: p do rule a[i] & !a[j] ==> begin a[i] := false; a[j] := true; end; endruleset;\n";
    for flags in [&[][..], &["--symmetry", "canon"], &["--symmetry", "flood"]] {
        let r = run("token.m", token, flags);
        assert_eq!(r.result(), "ok", "{flags:?}: {}", r.json);
    }
    let b = cli_support::run_orbit(
        &[
            "check".into(),
            cli_support::model_path("scheduler0.mch")
                .display()
                .to_string(),
            "--deadlock-mode".into(),
            "stuttering".into(),
        ],
        DEFAULT_TIMEOUT,
    );
    assert_eq!(b.code, Some(2), "{}", b.stderr);
    assert!(b.stderr.contains("for Murphi programs"), "{}", b.stderr);
    // Rumur's `cover`: after a complete search, a cover property no
    // reachable state met, or a cover statement never true, is the run's
    // error, with its place; in every thread count and with `--por`.
    let cover = "var x: 0..2;\n\
                 startstate begin x := 0; end;\n\
                 rule begin x := 1 - x; cover \"flipped to 1\" x = 1; end;\n\
                 cover \"x was 0\" x = 0;\n";
    for flags in [
        &[][..],
        &["--threads", "2"],
        &["--por"],
        &["--symmetry", "canon"],
    ] {
        let r = run("cover.m", cover, flags);
        assert_eq!(r.result(), "ok", "{flags:?}: {}", r.json);
        let missed = format!("{cover}cover \"x was 2\" x = 2;\n");
        let r = run("cover.m", &missed, flags);
        assert_eq!(r.result(), "model_error", "{flags:?}: {}", r.json);
        let message = r.json["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("cover \"x was 2\" not hit (") && message.contains("cover.m:5:1"),
            "{message}"
        );
        let never = cover.replace("x = 1; end", "x = 2; end");
        let r = run("cover.m", &never, flags);
        let message = r.json["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("cover \"flipped to 1\" not hit (") && message.contains("cover.m:3:"),
            "{message}"
        );
    }
    // Latin-1 in a comment (CMurphi's examples have it) reads as Latin-1.
    let path = dir.path().join("latin1.m");
    let mut bytes = b"-- caf\xe9\nvar x: boolean;\nstartstate begin x := true; end;\n".to_vec();
    bytes.extend_from_slice(b"rule begin x := !x; end;\n");
    std::fs::write(&path, bytes).expect("write");
    let r = CheckRun::run_path(&path.display().to_string(), &[], &[], DEFAULT_TIMEOUT);
    assert_eq!((r.result(), r.count("states")), ("ok", 2), "{}", r.json);
}

/// Compiles `model` with Rumur (symmetry reduction `symmetry`, no
/// deadlock check) and returns its (states, rules fired).
fn rumur_counts(model: &std::path::Path, dir: &std::path::Path, symmetry: &str) -> (u64, u64) {
    let text = rumur_output(model, dir, symmetry);
    let line = text
        .lines()
        .find(|l| l.contains(" states, ") && l.contains("rules fired"))
        .unwrap_or_else(|| panic!("no count in Rumur's output:\n{text}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

#[test]
#[ignore = "needs rumur (apt-get install rumur) and a C compiler; .ci/run runs it with --ignored external_"]
fn external_rumur_agrees_on_every_bundled_model() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rows = EXPECTED
        .iter()
        .map(|r| (r, "off"))
        .chain(ORBITS.iter().map(|r| (r, "exhaustive")));
    for (&(file, sets, _, _, states, transitions), symmetry) in rows {
        let mut text =
            std::fs::read_to_string(cli_support::model_path(&murphi(file))).expect("read");
        for (name, value) in sets {
            // Rumur cannot override a constant: write the value in.
            let at = text.find(&format!("{name}: ")).expect("the constant");
            let end = at + text[at..].find(';').expect("its end");
            text.replace_range(at..end, &format!("{name}: {value}"));
        }
        let path: PathBuf = dir.path().join(file);
        std::fs::write(&path, text).expect("write");
        assert_eq!(
            rumur_counts(&path, dir.path(), symmetry),
            (states, transitions),
            "{file} {sets:?} --symmetry-reduction {symmetry}"
        );
    }
}

/// Functions returning records and arrays: assigned, passed as arguments,
/// returned through another function, used in a guard; a result is a copy.
#[test]
fn functions_return_records_and_arrays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |name: &str, text: &str, flags: &[&str]| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        CheckRun::run_path(&path.display().to_string(), &[], flags, DEFAULT_TIMEOUT)
    };
    let text = "type pt: record x: 0..3; y: boolean; end;\n\
                arr: array [0..1] of 0..3;\n\
                var p: pt; a: arr;\n\
                function shifted(q: pt): pt var r: pt; begin r := q; r.x := (q.x + 1) % 4; return r; end;\n\
                function twice(q: pt): pt begin return shifted(shifted(q)); end;\n\
                function pair(q: pt): arr var b: arr; begin b[0] := q.x; b[1] := 3 - q.x; return b; end;\n\
                function ok(q: pt): boolean begin return q.x != 3; end;\n\
                startstate begin p.x := 0; p.y := false; a := pair(p); end;\n\
                rule ok(twice(p)) ==> begin p := twice(p); a := pair(p); end;\n\
                rule true ==> begin p.y := !p.y; end;\n\
                invariant a[0] + a[1] = 3 & a[0] = p.x;\n";
    // x goes 0 -> 2 (twice(0) = 2 is ok) -> 0 (twice(2) = 0): 2 values of x, 2 of y.
    let r = run("ret.m", text, &["--no-deadlock"]);
    assert_eq!((r.result(), r.count("states")), ("ok", 4), "{}", r.json);
    let bad = "type pt: record x: 0..3; end;\nvar p: pt; n: 0..3;\n\
               function f(): pt begin return p; end;\n\
               startstate begin p.x := 0; n := f(); end;\n";
    let path = dir.path().join("bad.m");
    std::fs::write(&path, bad).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_orbit"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("orbit runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "`f` returns an array or record: assign it to a variable, pass it or return it"
        ) && err.contains("bad.m:4:33"),
        "{err}"
    );
}

#[test]
fn rumur_operators_compute_at_run_time_as_in_constants() {
    // Identities of each operator on a variable (evaluated while
    // checking, not folded when compiling); Rumur checks this model with
    // no error and 6 states. `~` is the bitwise complement (it was
    // evaluated as `-`), a shift by a negative amount goes the other way.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("ops.m");
    let text = "var x: 0..5;\n\
                startstate begin x := 0; end;\n\
                rule x < 5 ==> begin x := x + 1; end;\n\
                invariant \"not\" ~x = -x - 1 & ~~x = x;\n\
                invariant \"neg\" -x + x = 0;\n\
                invariant \"bits\" (x & 6) <= 6 & (x | 1) >= x & (x ^ x) = 0;\n\
                invariant \"shifts\" (x << 2) = 4 * x & (x << -1) = (x >> 1) & (x >> 1) = x / 2;\n\
                invariant \"logic\" (x = 3 -> x > 2) & !(x < 0) & (x != 0 | x = 0);\n";
    std::fs::write(&path, text).expect("write");
    let r = CheckRun::run_path(
        &path.display().to_string(),
        &[],
        &["--no-deadlock"],
        DEFAULT_TIMEOUT,
    );
    assert_eq!((r.result(), r.count("states")), ("ok", 6), "{}", r.json);
}

/// `models/PetersonN.mch` is `peterson.m` written in B (N the size of the
/// deferred set PID) and `models/German.mch` is `german.m` (N the size of
/// NODE): both languages give the same counts, with and without symmetry,
/// on one and two threads (what lets `scripts/rumur-compare.sh` time one
/// state space in both).
#[test]
fn the_b_twins_of_murphi_models_give_the_murphi_counts() {
    let twins = [
        ("peterson.m", "N", "PetersonN.mch", "PID", [3, 4]),
        ("german.m", "NODES", "German.mch", "NODE", [2, 3]),
    ];
    for (murphi_model, murphi_const, b_model, b_set, sizes) in twins {
        for n in sizes {
            for symmetry in ["off", "canon"] {
                for threads in ["1", "2"] {
                    let flags = ["--symmetry", symmetry, "--threads", threads];
                    let m = CheckRun::run(&murphi(murphi_model), &[(murphi_const, n)], &flags);
                    let b = CheckRun::run(b_model, &[(b_set, n)], &flags);
                    assert_eq!(b.result(), "ok", "{}", b.command);
                    assert_eq!(m.result(), "ok", "{}", m.command);
                    assert_eq!(
                        (b.count("states"), b.count("transitions")),
                        (m.count("states"), m.count("transitions")),
                        "{} / {}",
                        b.command,
                        m.command
                    );
                }
            }
        }
    }
}

/// `orbit graph` and `orbit por` run on Murphi programs through the same
/// generic path as on B machines: the graph of a state under symmetry
/// (the scalarset's atoms first), the rules' read and write sets with the
/// dependency relation and the enable graph.
#[test]
fn graph_and_por_run_on_a_bundled_murphi_model() {
    let model = cli_support::model_path(&murphi("german.m"));
    let model = model.to_string_lossy().into_owned();
    let run = |args: &[&str]| {
        let mut all = vec![model.clone()];
        all.extend(args.iter().map(|a| a.to_string()));
        all
    };
    let graph = cli_support::run_orbit(
        &[
            vec!["graph".to_string()],
            run(&["--set", "NODES=2", "--state", "3"]),
        ]
        .concat(),
        DEFAULT_TIMEOUT,
    );
    assert_eq!(graph.code, Some(0), "{}", graph.stderr);
    assert!(graph.stdout.starts_with("n="), "{}", graph.stdout);
    // Two nodes: the two atoms of the scalarset form the first cell.
    assert!(graph.stdout.contains("f=[ 0 1 |"), "{}", graph.stdout);
    let all = cli_support::run_orbit(
        &[
            vec!["graph".to_string()],
            run(&["--set", "NODES=2", "--state", "4", "--all"]),
        ]
        .concat(),
        DEFAULT_TIMEOUT,
    );
    assert_eq!(all.stdout.lines().count(), 5, "{}", all.stdout);
    let por = cli_support::run_orbit(
        &[
            vec!["por".to_string()],
            run(&["--set", "NODES=2", "--json"]),
        ]
        .concat(),
        DEFAULT_TIMEOUT,
    );
    assert_eq!(por.code, Some(0), "{}", por.stderr);
    let report: serde_json::Value = serde_json::from_str(&por.stdout).expect("JSON");
    let operations = report["operations"].as_array().expect("operations");
    assert_eq!(operations.len(), 9, "one per rule");
    assert_eq!(operations[0]["name"], "send shared request");
    let pairs = report["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 9 * 8 / 2);
    // Sending a request and the home's invalidation touch nothing in
    // common; two requests share the channel.
    let dependent = |a: &str, b: &str| {
        pairs
            .iter()
            .find(|p| p["a"] == a && p["b"] == b)
            .map(|p| p["dependent"].as_bool().unwrap())
    };
    assert_eq!(
        dependent("send shared request", "home sends an invalidation"),
        Some(false)
    );
    assert_eq!(
        dependent("send shared request", "send exclusive request"),
        Some(true)
    );
    let dot = cli_support::run_orbit(
        &[vec!["por".to_string()], run(&["--dot"])].concat(),
        DEFAULT_TIMEOUT,
    );
    assert!(dot.stdout.starts_with("digraph enable {"), "{}", dot.stdout);
    // A B-only flag is refused by name, through the registry.
    let refused = cli_support::run_orbit(
        &[vec!["por".to_string()], run(&["--find-abort"])].concat(),
        DEFAULT_TIMEOUT,
    );
    assert_eq!(refused.code, Some(2));
    assert!(
        refused
            .stderr
            .contains("`--find-abort` applies to B machines only, and this is a Murphi program"),
        "{}",
        refused.stderr
    );
}

/// CMurphi 5.4.9's counts (states, rules fired) of models written for it:
/// without symmetry (`-nosym`) and with its default symmetry reduction,
/// as recorded in EXPECTED.md.
/// (file, flags, states, rules fired, with symmetry: states, rules fired).
type CmurphiRow = (&'static str, &'static [&'static str], u64, u64, u64, u64);

const CMURPHI: &[CmurphiRow] = &[
    (
        "undefined_owner.m",
        &["--dialect", "cmurphi"],
        65,
        190,
        22,
        62,
    ),
    ("multi_quantifier.m", &["--no-deadlock"], 57, 156, 32, 87),
];

#[test]
fn cmurphi_dialect_and_syntax_give_cmurphis_counts() {
    for &(file, flags, states, rules, orbits, orbit_rules) in CMURPHI {
        for (extra, expected) in [
            (&["--threads", "1"][..], (states, rules)),
            (&["--threads", "2"], (states, rules)),
            (
                &["--symmetry", "canon", "--threads", "1"],
                (orbits, orbit_rules),
            ),
            (
                &["--symmetry", "flood", "--threads", "2"],
                (orbits, orbit_rules),
            ),
            (
                &["--symmetry", "markers-exact", "--threads", "2"],
                (orbits, orbit_rules),
            ),
        ] {
            let all: Vec<&str> = flags.iter().chain(extra).copied().collect();
            let r = CheckRun::run(&murphi(file), &[], &all);
            assert_eq!(r.result(), "ok", "{}: {}", r.command, r.json);
            assert_eq!(
                (r.count("states"), r.count("transitions")),
                expected,
                "{}",
                r.command
            );
        }
    }
}

#[test]
fn undefined_scalarsets_are_errors_for_rumur_and_values_for_cmurphi() {
    // Rumur's reading (the default): the first read of the undefined
    // owner stops the run, with its place.
    let r = CheckRun::run(&murphi("undefined_owner.m"), &[], &[]);
    assert_eq!(r.result(), "model_error", "{}", r.json);
    let message = r.json["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("`owner` is undefined") && message.contains("undefined_owner.m:"),
        "{message}"
    );
    let r = CheckRun::run(&murphi("undefined_owner.m"), &[], &["--dialect", "rumur"]);
    assert_eq!(r.result(), "model_error", "{}", r.json);
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        CheckRun::run_path(
            &path.display().to_string(),
            &[],
            &["--dialect", "cmurphi", "--no-deadlock"],
            DEFAULT_TIMEOUT,
        )
    };
    // CMurphi too stops when an undefined value indexes an array...
    let index = "type N: scalarset(2);\nvar o: N; a: array[N] of boolean;\n\
                 startstate undefine o; for n: N do a[n] := false; endfor; endstartstate;\n\
                 rule !a[o] ==> a[o] := true; endrule;\n";
    let r = run("index.m", index);
    assert_eq!(r.result(), "model_error", "{}", r.json);
    let message = r.json["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("an undefined value indexes `a[") && message.contains("index.m:4:"),
        "{message}"
    );
    // ... and reads undefined enumerations, booleans and integers checked.
    let enumeration = "type E: enum {x, y};\nvar e: E;\n\
                       startstate undefine e; endstartstate;\n\
                       rule e != x ==> e := x; endrule;\n";
    let r = run("enum.m", enumeration);
    assert_eq!(r.result(), "model_error", "{}", r.json);
    assert!(
        r.json["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`e` is undefined"),
        "{}",
        r.json
    );
    // Two undefined values are equal; stored through an expression or
    // passed by value, the undefined value stays undefined.
    let copies = "type N: scalarset(2);\nvar a, b: N; c: 0..2;\n\
                  function pick(n: N): N; begin return n; end;\n\
                  startstate undefine a; undefine b; c := 0; endstartstate;\n\
                  rule a = b & c = 0 ==> b := pick(a); c := 1; endrule;\n\
                  rule c = 1 & isundefined(b) ==> c := 2; endrule;\n";
    let r = run("copies.m", copies);
    assert_eq!((r.result(), r.count("states")), ("ok", 3), "{}", r.json);
    // A multiset takes the undefined value as an element: CMurphi 5.4.9
    // stores 10 states and fires 12 rules (`-nosym`), 7 and 9 reduced.
    let multiset = "type N: scalarset(2);\n\
                    var o: N; m: multiset [3] of N; k: 0..3;\n\
                    startstate undefine o; undefine m; k := 0; endstartstate;\n\
                    rule \"add\" k < 3 ==> multisetadd(o, m); k := k + 1; endrule;\n\
                    ruleset n: N do rule \"own\" isundefined(o) & k = 1 ==> o := n; endrule; endruleset;\n\
                    rule \"clear\" k = 3 & multisetcount(i: m, isundefined(m[i])) >= 1 ==>\n\
                    k := 0; multisetremovepred(i: m, true); undefine o; endrule;\n";
    let r = run("multiset.m", multiset);
    assert_eq!(
        (r.result(), r.count("states"), r.count("transitions")),
        ("ok", 10, 12),
        "{}",
        r.json
    );
    let r = CheckRun::run_path(
        &dir.path().join("multiset.m").display().to_string(),
        &[],
        &[
            "--dialect",
            "cmurphi",
            "--no-deadlock",
            "--symmetry",
            "canon",
        ],
        DEFAULT_TIMEOUT,
    );
    assert_eq!(
        (r.result(), r.count("states"), r.count("transitions")),
        ("ok", 7, 9),
        "{}",
        r.json
    );
    // The flag is the Murphi front end's own.
    let r = CheckRun::run("Counters.mch", &[], &["--dialect", "cmurphi"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("`--dialect` applies to Murphi programs only"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_declared_symmetry_the_rules_break_is_refused_with_the_rule_named() {
    // The litmus test hands its programs out in the order of a loop over
    // the scalarset: restarting singles out caches 1 and 2.
    for flags in [
        &["--symmetry", "canon", "--threads", "1"][..],
        &["--symmetry", "canon", "--threads", "2", "--order", "any"],
        &["--symmetry", "flood", "--threads", "2"],
        &["--symmetry", "markers-exact", "--threads", "1"],
        &["--symmetry", "canon", "--por", "--threads", "2"],
    ] {
        let r = CheckRun::run(&murphi("litmus_order.m"), &[], flags);
        assert_eq!((r.code, r.result()), (Some(2), "refused"), "{}", r.command);
        let message = r.json["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("the declared symmetry does not hold")
                && message.contains("`run the test again`")
                && message.contains("Cache: "),
            "{message}"
        );
        assert!(!r.trace().is_empty(), "the trace to the state: {}", r.json);
    }
    // Without symmetry the model is fine; trusting the declaration runs
    // (to a meaningless count).
    let r = CheckRun::run(&murphi("litmus_order.m"), &[], &[]);
    assert_eq!((r.result(), r.count("states")), ("ok", 9), "{}", r.json);
    let r = CheckRun::run(
        &murphi("litmus_order.m"),
        &[],
        &["--symmetry", "canon", "--no-symmetry-check"],
    );
    assert_eq!(r.result(), "ok", "{}", r.json);
}

/// A small symmetric protocol over a scalarset, with the order dependence
/// `inject` decides: none (a ruleset parameter picks the node), or a loop
/// that grants the first idle node in the scalarset's order.
fn generated_model(nodes: u32, tokens: u32, seed: u32, inject: bool) -> String {
    let grant = if inject {
        "rule \"grant\" free > 0 ==>\n\
           var done: boolean;\n\
           begin done := false;\n\
           for n: Node do if !done & st[n] = idle then st[n] := busy; free := free - 1; done := true; endif; endfor;\n\
           end;\n"
            .to_string()
    } else {
        "ruleset n: Node do rule \"grant\" free > 0 & st[n] = idle ==>\n\
           begin st[n] := busy; free := free - 1; end; endruleset;\n"
            .to_string()
    };
    let extra = match seed % 3 {
        0 => {
            "ruleset n: Node do rule \"rest\" st[n] = busy ==> st[n] := resting; endrule; endruleset;\n\
              ruleset n: Node do rule \"wake\" st[n] = resting ==> st[n] := idle; free := free + 1; endrule; endruleset;\n"
        }
        1 => {
            "ruleset n: Node do rule \"release\" st[n] = busy ==> st[n] := idle; free := free + 1; endrule; endruleset;\n"
        }
        _ => {
            "ruleset n: Node; m: Node do rule \"pass\" n != m & st[n] = busy & st[m] = idle ==>\n\
              st[n] := idle; st[m] := busy; endrule; endruleset;\n\
              ruleset n: Node do rule \"release\" st[n] = busy ==> st[n] := idle; free := free + 1; endrule; endruleset;\n"
        }
    };
    format!(
        "const N: {nodes}; T: {tokens};\n\
         type Node: scalarset(N); State: enum {{idle, busy, resting}};\n\
         var st: array[Node] of State; free: 0..T;\n\
         startstate for n: Node do st[n] := idle; endfor; free := T; endstartstate;\n\
         {grant}{extra}\
         invariant \"tokens\" free <= T;\n"
    )
}

#[test]
fn generated_order_dependences_are_caught_and_symmetric_twins_pass() {
    let dir = tempfile::tempdir().expect("temp dir");
    for seed in 0..6u32 {
        let (nodes, tokens) = (2 + seed % 3, 1 + seed % 2);
        for inject in [false, true] {
            let path = dir.path().join(format!("gen{seed}_{inject}.m"));
            std::fs::write(&path, generated_model(nodes, tokens, seed, inject)).expect("write");
            let path = path.display().to_string();
            let plain = CheckRun::run_path(&path, &[], &["--no-deadlock"], DEFAULT_TIMEOUT);
            assert_eq!(plain.result(), "ok", "{}: {}", plain.command, plain.json);
            for mode in ["canon", "flood", "markers-exact"] {
                let r = CheckRun::run_path(
                    &path,
                    &[],
                    &["--no-deadlock", "--symmetry", mode, "--threads", "2"],
                    DEFAULT_TIMEOUT,
                );
                if inject {
                    assert_eq!((r.code, r.result()), (Some(2), "refused"), "{}", r.command);
                    let message = r.json["message"].as_str().unwrap_or_default();
                    assert!(message.contains("`grant`"), "{}: {message}", r.command);
                } else {
                    assert_eq!(r.result(), "ok", "{}: {}", r.command, r.json);
                    assert!(r.count("states") <= plain.count("states"), "{}", r.command);
                }
            }
        }
    }
}

/// Rumur's liveness models through the command line: the verdict, the
/// property named with its place, a shortest counterexample, the graph's
/// figures, the same at 1 and 2 threads; with symmetry, a symmetric
/// property and a family over the scalarset are checked; `--por` is
/// refused.
#[test]
fn liveness_properties_are_checked_from_the_command_line() {
    let corpus = |f: &str| format!("tests/it/rumur_corpus/{f}");
    for threads in ["1", "2"] {
        let r = CheckRun::run_path(
            &corpus("liveness-miss3.m"),
            &[],
            &["--threads", threads],
            DEFAULT_TIMEOUT,
        );
        assert_eq!(r.result(), "liveness_violation", "{}", r.json);
        assert_eq!(r.code, Some(1));
        let message = r.json["message"].as_str().expect("a message");
        assert!(message.contains("\"x is 7\"") && message.contains("liveness-miss3.m:21:1"));
        // 0 -> 8: no rule moves down from 8, so 7 is out of reach there.
        assert_eq!(r.json["trace"].as_array().expect("a trace").len(), 9);
        assert_eq!(r.json["liveness"]["states"], 11, "{}", r.json);
        let r = CheckRun::run_path(
            &corpus("liveness-in-ruleset.m"),
            &[],
            &["--threads", threads],
            DEFAULT_TIMEOUT,
        );
        assert_eq!((r.result(), r.code), ("ok", Some(0)), "{}", r.json);
        assert_eq!(r.json["liveness"]["properties"], 11, "{}", r.json);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(cli_support::model_path(&murphi("german.m"))).expect("read");
    let symmetric = dir.path().join("german_idle.m");
    std::fs::write(
        &symmetric,
        format!("{text}\nliveness \"the home can fall idle\" cur_cmd = empty;\n"),
    )
    .expect("write");
    let named = dir.path().join("german_exclusive.m");
    std::fs::write(
        &named,
        format!(
            "{text}\nruleset i: node do liveness \"exclusive\" cache[i] = exclusive endruleset;\n"
        ),
    )
    .expect("write");
    let path = |p: &std::path::Path| p.display().to_string();
    for flags in [&["--symmetry", "off"][..], &["--symmetry", "canon"]] {
        let r = CheckRun::run_path(&path(&symmetric), &[("NODES", 2)], flags, DEFAULT_TIMEOUT);
        assert_eq!(r.result(), "ok", "{flags:?} {}", r.json);
        let states = if flags[1] == "off" { 1_461 } else { 735 };
        assert_eq!(r.json["liveness"]["states"], states, "{}", r.json);
    }
    let r = CheckRun::run_path(&path(&named), &[("NODES", 2)], &[], DEFAULT_TIMEOUT);
    assert_eq!(r.result(), "ok", "{}", r.json);
    assert_eq!(r.json["liveness"]["properties"], 2, "{}", r.json);
    let r = CheckRun::run_path(
        &path(&named),
        &[("NODES", 2)],
        &["--symmetry", "canon"],
        DEFAULT_TIMEOUT,
    );
    // A family over the scalarset, checked on the reduced graph through
    // the permutations' images.
    assert_eq!(r.result(), "ok", "{}", r.json);
    assert_eq!(r.json["liveness"]["states"], 735, "{}", r.json);
    let r = CheckRun::run_path(
        &path(&symmetric),
        &[("NODES", 2)],
        &["--por"],
        DEFAULT_TIMEOUT,
    );
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("partial order reduction with liveness"),
        "{}",
        r.stderr
    );
}

/// `--ltl` on a Murphi program: braces hold a Murphi expression, `e(...)`
/// names a rule; the verdict is the same at 1 and 2 threads and with
/// `--por`, which shrinks the graph where an invisible rule runs first and
/// expands fully where an invisible cycle would postpone a visible rule
/// forever (the cycle proviso); what it cannot preserve it refuses.
#[test]
fn ltl_on_murphi_with_and_without_partial_order_reduction() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| model_in(&dir, name, text);
    // Two independent counters: `b` runs first in the reduced graph.
    let counters = write(
        "counters.m",
        "var a: 0..3; b: 0..3;\nstartstate begin a := 0; b := 0; end;\n\
         rule \"a\" a < 3 ==> begin a := a + 1; end;\n\
         rule \"b\" b < 3 ==> begin b := b + 1; end;\n",
    );
    // `flip` cycles for ever beside `set`, which the reduction must not
    // postpone for ever.
    let flip = write(
        "flip.m",
        "var x: 0..1; y: 0..1;\nstartstate begin x := 0; y := 0; end;\n\
         rule \"flip\" true ==> begin y := 1 - y; end;\n\
         rule \"set\" x = 0 ==> begin x := 1; end;\n",
    );
    let run = |model: &str, formula: &str, flags: &[&str]| {
        let mut all = vec!["--no-deadlock", "--ltl", formula];
        all.extend_from_slice(flags);
        CheckRun::run_path(model, &[], &all, DEFAULT_TIMEOUT)
    };
    for (model, formula, holds, full, reduced) in [
        (&counters, "F {a = 3}", true, 16, 7),
        (&counters, "G (e(a) or {a = 3})", true, 16, 7),
        (&counters, "G {a < 3}", false, 16, 7),
        (&counters, "F G deadlock", true, 16, 7),
        (&flip, "G {x = 0}", false, 4, 4),
        (&flip, "G F {y = 0}", true, 4, 3),
    ] {
        for threads in ["1", "2"] {
            for (por, states) in [(false, full), (true, reduced)] {
                let mut flags = vec!["--threads", threads];
                if por {
                    flags.push("--por");
                }
                let r = run(model, formula, &flags);
                let what = format!("{formula} {flags:?}: {}", r.json);
                let expected = if holds { "ok" } else { "ltl_violation" };
                assert_eq!(r.result(), expected, "{what}");
                assert_eq!(r.code, Some(if holds { 0 } else { 1 }), "{what}");
                assert_eq!(r.json["ltl"][0]["model_states"], states, "{what}");
            }
        }
    }
    for (formula, what) in [
        ("G X {x = 0}", "next-time operator X"),
        ("G F [flip]", "step atom `[flip]`"),
        ("WF(set) => F {x = 1}", "fairness"),
    ] {
        let r = run(&flip, formula, &["--por"]);
        assert_eq!(r.code, Some(2), "{formula}: {}", r.json);
        assert!(
            r.stderr.contains("partial order reduction with") && r.stderr.contains(what),
            "{formula}: {}",
            r.stderr
        );
    }
    // Weak fairness on `set` makes `F {x = 1}` hold without reduction.
    let r = run(&flip, "WF(set) => F {x = 1}", &[]);
    assert_eq!(r.result(), "ok", "{}", r.json);
}

/// Cover counts as Rumur prints them (`cover "x" hit N times`), in text and
/// JSON.
#[test]
fn cover_hits_are_counted() {
    let r = CheckRun::run_path(
        "tests/it/rumur_corpus/cover-basic2.m",
        &[],
        &[],
        DEFAULT_TIMEOUT,
    );
    assert_eq!(r.result(), "ok");
    assert_eq!(r.json["covers"][0]["name"], "x was false", "{}", r.json);
    assert_eq!(r.json["covers"][0]["hits"], 2, "{}", r.json);
}

/// Compiles `model` with Rumur (symmetry reduction `symmetry`, no
/// deadlock check), runs its verifier and returns what it printed.
fn rumur_output(model: &std::path::Path, dir: &std::path::Path, symmetry: &str) -> String {
    let c = dir.join("verifier.c");
    let exe = dir.join("verifier");
    let status = Command::new("rumur")
        .args([
            "--symmetry-reduction",
            symmetry,
            "--deadlock-detection",
            "off",
        ])
        .arg("--output")
        .arg(&c)
        .arg(model)
        .status()
        .expect("rumur runs (apt-get install rumur)");
    assert!(status.success(), "rumur failed on {}", model.display());
    // -O1: the bundled models' verifiers run in hundredths of a second,
    // and compile in 0.6 s instead of 1.7 s at -O2 (german.m).
    let status = Command::new("cc")
        .args(["-O1", "-mcx16", "-o"])
        .arg(&exe)
        .arg(&c)
        .args(["-lpthread", "-latomic"])
        .status()
        .expect("cc runs");
    assert!(
        status.success(),
        "the verifier of {} does not compile",
        model.display()
    );
    let out = Command::new(&exe).output().expect("the verifier runs");
    String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)
}

/// Rumur's corpus models with liveness properties or covers, and German
/// with generated liveness properties: orbit's verdict (and the property
/// it names), its states and its cover counts equal Rumur's.
#[test]
#[ignore = "needs rumur (apt-get install rumur) and a C compiler; .ci/run runs it with --ignored external_"]
fn external_rumur_agrees_on_liveness_and_covers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut models: Vec<PathBuf> = std::fs::read_dir("tests/it/rumur_corpus")
        .expect("the corpus")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            p.extension().is_some_and(|e| e == "m")
                && !text.contains("rumur_exit_code: 1")
                && !text.contains("rumur_flags")
                && (text.contains("liveness") || text.contains("cover"))
        })
        .collect();
    models.sort();
    let german = std::fs::read_to_string(cli_support::model_path(&murphi("german.m")))
        .expect("read")
        .replace("NODES: 3;", "NODES: 2;");
    for (k, property) in [
        "liveness \"idle\" cur_cmd = empty;",
        "ruleset i: node do liveness \"exclusive\" cache[i] = exclusive endruleset;",
        "liveness \"granted\" exclusive_granted;",
        "liveness \"never both\" !exclusive_granted & cur_cmd = req_shared;",
    ]
    .iter()
    .enumerate()
    {
        let path = dir.path().join(format!("german_live{k}.m"));
        std::fs::write(&path, format!("{german}\n{property}\n")).expect("write");
        models.push(path);
    }
    assert!(models.len() >= 15, "{models:?}");
    for model in &models {
        let rumur = rumur_output(model, dir.path(), "off");
        let r = CheckRun::run_path(
            &model.display().to_string(),
            &[],
            &["--no-deadlock"],
            DEFAULT_TIMEOUT,
        );
        let what = model.display();
        let states: u64 = rumur
            .lines()
            .find(|l| l.contains(" states, ") && l.contains("rules fired"))
            .and_then(|l| l.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("{what}: no count in Rumur's output:\n{rumur}"));
        assert_eq!(r.count("states"), states, "{what}");
        let violated = rumur.lines().find_map(|l| {
            l.trim()
                .strip_prefix("liveness property \"")?
                .split('"')
                .next()
        });
        match violated {
            Some(name) => {
                assert_eq!(r.result(), "liveness_violation", "{what}: {}", r.json);
                let message = r.json["message"].as_str().unwrap_or_default();
                // orbit names the instance (`x is y, y:10`), Rumur the rule.
                assert!(message.contains(&format!("\"{name}")), "{what}: {message}");
            }
            None if rumur.contains("not hit") => assert_eq!(r.result(), "model_error", "{what}"),
            None => assert_eq!(r.result(), "ok", "{what}: {rumur}\n{}", r.json),
        }
        for line in rumur.lines().filter(|l| l.contains("\" hit ")) {
            let name = line.split('"').nth(1).expect("a name");
            let hits: u64 = line
                .rsplit(" hit ")
                .next()
                .and_then(|t| t.split_whitespace().next()?.parse().ok())
                .expect("a count");
            let covers = r.json["covers"].as_array().cloned().unwrap_or_default();
            let ours = covers
                .iter()
                .find(|c| c["name"] == name)
                .unwrap_or_else(|| panic!("{what}: no cover {name}: {}", r.json));
            assert_eq!(ours["hits"], hits, "{what}: cover {name}");
        }
    }
}

/// `[rule(args)]` on Murphi: each argument a Murphi expression over the
/// state the step leaves, type-checked against the ruleset's parameter;
/// an empty argument or `[rule()]` takes any value; a value outside the
/// parameter's type matches no step; the lasso names the step; arity,
/// type and name errors; refused under symmetry.
#[test]
fn step_atoms_with_arguments_on_murphi() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| model_in(&dir, name, text);
    // A token goes round three processes; `look` stays put, enabled for
    // the process holding the token with `b` true only.
    let ring = write(
        "ring.m",
        "const N: 3;\ntype pid: 1..N;\nvar turn: pid;\nstartstate begin turn := 1; end;\n\
         ruleset i: pid do\n  rule \"go\" turn = i ==> begin turn := (i % N) + 1; end;\nend;\n\
         ruleset i: pid; b: boolean do\n  rule \"look\" turn = i & b ==> begin end;\nend;\n",
    );
    let labels = |json: &serde_json::Value| -> Vec<String> {
        json["trace"]
            .as_array()
            .map(|t| {
                t.iter()
                    .map(|s| s["label"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    for (formula, holds, step) in [
        ("G ([go(turn)] or [look(turn, true)])", true, None),
        (
            "G ([go(turn)] or [look(turn, false)])",
            false,
            Some("look, i:1, b:true"),
        ),
        ("G ([go()] or [look(, true)])", true, None),
        ("G not [go(3)]", false, Some("go, i:3")),
        ("G not [go(4)]", true, None),
        ("G ([go(1)] => X {turn = 2})", true, None),
        ("G ([go(turn)] => {turn = 1})", false, Some("go, i:2")),
    ] {
        for threads in ["1", "2"] {
            let flags = ["--no-deadlock", "--threads", threads, "--ltl", formula];
            let r = CheckRun::run_path(&ring, &[], &flags, DEFAULT_TIMEOUT);
            let what = format!("{formula} ({threads} threads): {}{}", r.json, r.stderr);
            assert_eq!(r.code, Some(if holds { 0 } else { 1 }), "{what}");
            if let Some(step) = step {
                assert!(labels(&r.json).iter().any(|l| l == step), "{what}");
            }
        }
    }
    for (formula, message) in [
        (
            "G not [go(1, 2)]",
            "`go` has 1 parameter(s), the atom gives 2 argument(s)",
        ),
        ("G not [go(true)]", "compares an integer with a boolean"),
        ("G not [go(k)]", "`k` is not declared"),
        (
            "G not [look(1)]",
            "`look` has 2 parameter(s), the atom gives 1 argument(s)",
        ),
    ] {
        let flags = ["--no-deadlock", "--ltl", formula];
        let r = CheckRun::run_path(&ring, &[], &flags, DEFAULT_TIMEOUT);
        assert_eq!(r.code, Some(2), "{formula}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{formula}: {}", r.stderr);
    }
    let symmetric = write(
        "sym.m",
        "type pid: scalarset(2);\nvar flag: array[pid] of boolean; last: pid;\n\
         startstate begin for p: pid do flag[p] := false; end; last := undefined; end;\n\
         ruleset p: pid do rule \"set\" !flag[p] ==> begin flag[p] := true; last := p; end; end;\n",
    );
    let flags = ["--symmetry", "canon", "--ltl", "G not [set(last)]"];
    let r = CheckRun::run_path(&symmetric, &[], &flags, DEFAULT_TIMEOUT);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("with symmetry reduction"), "{}", r.stderr);
}

/// Writes `text` as the model file `name` in `dir`; its path.
fn model_in(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}
