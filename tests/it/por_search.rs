//! `orbit check --por`: the search with partial order reduction gives the
//! same verdicts as the full search for every thread count and order,
//! reduces independent models, leaves fully dependent ones alone, still
//! finds injected deadlocks and invariant violations (the latter behind a
//! cycle that only the proviso breaks), and its counterexamples are real
//! runs of the machine.

use crate::cli_support;

use cli_support::{CheckRun, DEFAULT_TIMEOUT, model_path};
use orbit::checker::{Layered, ModelRuns};
use orbit::frontends::b::load::{LoadOptions, load_machine_with_ast};
use orbit::frontends::b::por::analyse_with;
use orbit::frontends::b::por::independence::{Checked, independence};
use orbit::model::NoSymmetry;
use orbit::por::PorLayer;
use orbit::symmetry::RealRuns;
use std::path::PathBuf;
use workers::{Config, Outcome};

/// `spin` flips `x` forever and is invisible (the invariant reads only
/// `y`); `bad` breaks the invariant. `{spin}` is an ample set everywhere, so
/// without the cycle proviso its 2-cycle would hide `bad`.
const IGNORE: &str = "MACHINE Ignore
VARIABLES x, y
INVARIANT y = 0
INITIALISATION x := 0 || y := 0
OPERATIONS
  spin = BEGIN x := 1 - x END;
  bad = PRE y = 0 THEN y := 1 END
END
";

/// Three independent counters and a fourth process that deadlocks the
/// machine only in one corner of the interleavings (`x = 2 & y = 1`).
const CORNER: &str = "MACHINE Corner
VARIABLES x, y, z
INVARIANT x : 0..2 & y : 0..2 & z : 0..2
INITIALISATION x, y, z := 0, 0, 0
OPERATIONS
  incx = PRE x < 2 THEN x := x + 1 END;
  incy = PRE y < 2 & not(x = 2 & y = 1) THEN y := y + 1 END;
  incz = PRE z < 2 THEN z := z + 1 END;
  resetz = PRE z = 2 & x < 2 THEN z := 0 END
END
";

/// Three processes each counting to 2 with one parameterised operation:
/// `inc` races with itself on `c`, but its instances are independent.
const PROCS: &str = "MACHINE Procs
SETS PROC
DEFINITIONS scope_PROC == 1..3
VARIABLES c
INVARIANT c : PROC --> 0..2
INITIALISATION c := PROC * {0}
OPERATIONS
  inc(p) = PRE p : PROC & c(p) < 2 THEN c(p) := c(p) + 1 END
END
";

/// A model written to a fresh temporary directory, removed when dropped.
struct TempModel {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for TempModel {
    type Target = PathBuf;

    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

/// Writes `text` to `name.mch` in a fresh temporary directory.
fn temp_model(name: &str, text: &str) -> TempModel {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.mch"));
    std::fs::write(&path, text).unwrap();
    TempModel { _dir: dir, path }
}

/// The thread counts and orders every comparison runs under.
const CONFIGS: [&[&str]; 4] = [
    &["--threads", "1", "--order", "bfs"],
    &["--threads", "1", "--order", "any"],
    &["--threads", "2", "--order", "bfs"],
    &["--threads", "2", "--order", "any"],
];

fn run(path: &str, sets: &[(&str, u32)], flags: &[&str]) -> CheckRun {
    CheckRun::run_path(path, sets, flags, DEFAULT_TIMEOUT)
}

/// Runs `path` with and without `--por`, with and without the invariant,
/// in every configuration; checks equal verdicts and no more states with
/// the reduction. Returns (states without, states with) of the first
/// configuration, per invariant mode.
fn compare(path: &str, sets: &[(&str, u32)]) -> Vec<(u64, u64)> {
    let mut firsts = Vec::new();
    for invariant in [true, false] {
        let mut first = None;
        for config in CONFIGS {
            let mut flags: Vec<&str> = config.to_vec();
            if !invariant {
                flags.push("--no-invariant");
            }
            let plain = run(path, sets, &flags);
            flags.push("--por");
            let reduced = run(path, sets, &flags);
            assert_eq!(
                plain.result(),
                reduced.result(),
                "{} vs {}",
                plain.command,
                reduced.command
            );
            assert_eq!(plain.code, reduced.code, "{}", reduced.command);
            let (a, b) = (plain.count("states"), reduced.count("states"));
            if plain.result() == "ok" {
                assert!(b <= a, "{}: {b} > {a}", reduced.command);
                let por = &reduced.json["por"];
                assert_eq!(por["states"].as_u64(), Some(b), "{}", reduced.command);
                assert!(por["reduced_states"].as_u64().unwrap() <= b);
            }
            first.get_or_insert((a, b));
        }
        firsts.push(first.unwrap());
    }
    firsts
}

#[test]
fn counters_reduce_to_a_cycle_when_only_deadlocks_are_checked() {
    let path = model_path("Counters.mch");
    let counts = compare(&path.to_string_lossy(), &[]);
    // Every conjunct `ci : 0..MAXINT` is preserved by every operation, so
    // no operation is visible and only deadlocks matter, with or without
    // the invariant: one counter at a time.
    for &(plain, reduced) in &counts {
        assert_eq!(plain, 256);
        assert!(reduced <= 16, "{counts:?}");
    }
    for flags in [&["--threads", "1"][..], &["--no-invariant"]] {
        let mut flags = flags.to_vec();
        flags.push("--por");
        let r = run(&path.to_string_lossy(), &[], &flags);
        assert_eq!(r.json["por"]["deadlock_only"], true);
        assert_eq!(r.json["por"]["proviso_expansions"], 0);
    }
}

/// Three operations racing on one variable: every pair is dependent.
const SHARED: &str = "MACHINE Shared
VARIABLES x
INVARIANT x : 0..3
INITIALISATION x := 0
OPERATIONS
  up = PRE x < 3 THEN x := x + 1 END;
  down = PRE x > 0 THEN x := x - 1 END;
  reset = BEGIN x := 0 END
END
";

#[test]
fn fully_dependent_models_are_not_reduced() {
    let path = temp_model("Shared", SHARED);
    let counts = compare(&path.to_string_lossy(), &[]);
    for (plain, reduced) in counts {
        assert_eq!((plain, reduced), (4, 4));
    }
}

#[test]
fn scheduler0_is_reduced_per_process() {
    // Every operation writes `pst`, so the operations are all dependent,
    // but instances of different processes mostly commute.
    let path = model_path("scheduler0.mch");
    let counts = compare(&path.to_string_lossy(), &[("PROC", 2)]);
    for (plain, reduced) in counts {
        assert!(reduced < plain, "{plain} -> {reduced}");
    }
}

#[test]
fn peterson_and_scheduler1_keep_their_verdicts() {
    for (model, sets) in [
        ("Peterson.mch", vec![]),
        ("scheduler1.mch", vec![("PROC", 3)]),
    ] {
        compare(&model_path(model).to_string_lossy(), &sets);
    }
}

#[test]
fn the_injected_deadlock_is_found_with_the_reduction() {
    let path = temp_model("Corner", CORNER);
    let path = path.to_string_lossy();
    let counts = compare(&path, &[]);
    for config in CONFIGS {
        for extra in [&[][..], &["--no-invariant"][..]] {
            let mut flags = config.to_vec();
            flags.extend_from_slice(extra);
            flags.push("--por");
            let r = run(&path, &[], &flags);
            assert_eq!(r.result(), "deadlock", "{}", r.command);
            // The trace ends in the corner x = 2, y = 1 (z = 2: `incz` and
            // `resetz` are disabled too).
            let mut last = serde_json::Map::new();
            for step in r.trace() {
                last.extend(step["changes"].as_object().unwrap().clone());
            }
            assert_eq!(
                (&last["x"], &last["y"], &last["z"]),
                (&"2".into(), &"1".into(), &"2".into()),
                "{}",
                r.command
            );
        }
    }
    // The deadlock-only search explores fewer states than the full one
    // before reaching the corner.
    assert!(counts[1].1 <= counts[1].0, "{counts:?}");
}

#[test]
fn the_proviso_finds_a_violation_behind_an_invisible_cycle() {
    let path = temp_model("Ignore", IGNORE);
    let path = path.to_string_lossy();
    compare(&path, &[]);
    for config in CONFIGS {
        let mut flags = config.to_vec();
        flags.push("--por");
        let r = run(&path, &[], &flags);
        assert_eq!(r.result(), "invariant_violation", "{}", r.command);
        assert!(
            r.json["por"]["proviso_expansions"].as_u64().unwrap() >= 1,
            "{}",
            r.command
        );
        let trace = r.trace();
        let last = trace.last().map(|s| s["label"].clone());
        assert_eq!(last, Some("bad".into()), "{}", r.command);
    }
}

/// Explores `path` with the reduction through the library and checks that
/// the counterexample is a path of the unreduced machine.
fn trace_is_real(path: &std::path::Path, checked: Checked, threads: usize) -> Outcome {
    let (mut system, machine, types) =
        load_machine_with_ast(path, &LoadOptions::default()).unwrap_or_else(|_| panic!());
    system.check_invariant = checked.invariant;
    let analysis = analyse_with(&machine, &types, system.interpreter(), 10_000, true);
    let ind = independence(&system, &machine, &analysis, checked);
    let reduced: Layered<'_, _, NoSymmetry> =
        Layered::new(&system, None, Some(PorLayer::new(&ind, false)));
    let report = workers::explore(
        &reduced,
        &Config {
            threads,
            ..Config::default()
        },
    );
    let trace = report.trace.expect("a counterexample");
    let runs = ModelRuns(&system);
    let init = runs.initial().unwrap();
    assert!(init.iter().any(|l| l.state == trace.steps[0].state));
    for pair in trace.steps.windows(2) {
        let succ = runs.successors(&pair[0].state).unwrap();
        assert!(
            succ.iter()
                .any(|l| l.label == pair[1].label && l.state == pair[1].state),
            "{} is not a step of the machine",
            pair[1].label
        );
    }
    report.outcome
}

#[test]
fn counterexamples_with_the_reduction_replay_as_real_runs() {
    let checked = Checked {
        invariant: true,
        goal: false,
    };
    for threads in [1, 2] {
        let ignore = temp_model("IgnoreTrace", IGNORE);
        assert!(matches!(
            trace_is_real(&ignore, checked, threads),
            Outcome::Violation(_)
        ));
        let corner = temp_model("CornerTrace", CORNER);
        assert_eq!(trace_is_real(&corner, checked, threads), Outcome::Deadlock);
    }
}

/// `--por --symmetry MODE` combines the reductions: on TokenRing (5
/// servers) POR alone keeps 1,200 states and canon alone 472, both together
/// 24; the verdict is the unreduced search's and the JSON report carries
/// both sections.
#[test]
fn por_combines_with_symmetry_from_the_cli() {
    let sets = [("Servers", 5)];
    let full = CheckRun::run("TokenRing.mch", &sets, &[]);
    let por = CheckRun::run("TokenRing.mch", &sets, &["--por"]);
    let canon = CheckRun::run("TokenRing.mch", &sets, &["--symmetry", "canon"]);
    assert_eq!(
        (
            full.count("states"),
            por.count("states"),
            canon.count("states")
        ),
        (38_400, 1_200, 472)
    );
    for mode in ["canon", "flood", "markers-exact"] {
        for threads in ["1", "2"] {
            let both = CheckRun::run(
                "TokenRing.mch",
                &sets,
                &["--por", "--symmetry", mode, "--threads", threads],
            );
            assert_eq!(both.result(), full.result(), "{mode} {threads}");
            assert!(both.json["por"].is_object() && both.json["symmetry"].is_object());
            if mode != "markers-exact" {
                assert_eq!(both.count("states"), 24, "{mode} {threads}");
            }
            assert!(both.count("states") <= canon.count("states"));
        }
    }
}

#[test]
fn verbose_runs_say_how_each_pair_was_decided() {
    let path = model_path("Counters.mch");
    let out = cli_support::run_orbit(
        &[
            "check".into(),
            path.to_string_lossy().into_owned(),
            "--por".into(),
            "-v".into(),
            "--threads".into(),
            "1".into(),
        ],
        DEFAULT_TIMEOUT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.contains("inc1 inc2: independent (syntactic)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("inc1 reset1: independent (never co-enabled in 4 states; both write c1)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("pairs decided: 0 race, 4 never co-enabled (independent), 24 syntactic"),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout
            .contains("partial order reduction: on (16 of 16 states reduced"),
        "{}",
        out.stdout
    );
}

#[test]
fn instances_of_one_operation_are_reduced_per_parameter() {
    let path = temp_model("Procs", PROCS);
    let counts = compare(&path.to_string_lossy(), &[]);
    // 3^3 states in full; one process after the other with the reduction.
    for (plain, reduced) in counts {
        assert_eq!((plain, reduced), (27, 7));
    }
    let r = run(&path.to_string_lossy(), &[], &["--threads", "2", "--por"]);
    assert_eq!(r.result(), "deadlock");
    assert_eq!(r.trace().len(), 7, "{}", r.command);
}

#[test]
fn token_ring_takes_operation_level_ample_sets_first() {
    // models/TokenRing.mch (5 servers, 38,400 states in full): the
    // instance-level rule alone (one `ClientRequest(s)` at a time) explores
    // 4,200 states, operation-level sets first 1,200.
    for extra in [&[][..], &["--no-invariant"][..]] {
        let mut flags = vec!["--threads", "1", "--por"];
        flags.extend_from_slice(extra);
        let r = run(&model_path("TokenRing.mch").to_string_lossy(), &[], &flags);
        assert_eq!(r.result(), "ok", "{}", r.command);
        assert_eq!(r.count("states"), 1200, "{}", r.command);
    }
}

#[test]
fn function_variables_are_enumerated_as_functions() {
    // scheduler0 with PROC=5: `pst : proc --> STATE` ranges over the partial
    // functions PROC +-> STATE (4^5 values) instead of 2^15 relations, so
    // every enable edge is decided by enumeration instead of falling back.
    let path = model_path("scheduler0.mch");
    let r = run(
        &path.to_string_lossy(),
        &[("PROC", 5)],
        &["--threads", "1", "--por", "-v"],
    );
    assert_eq!(r.result(), "ok", "{}", r.command);
    assert!(
        r.stderr.contains("0 too big (fallback: edge)"),
        "{}",
        r.stderr
    );
    assert!(r.count("states") < 648, "{}", r.command);
}
