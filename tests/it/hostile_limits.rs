//! Hostile inputs, second round: every limit holds in every loop and
//! phase (the interpreters' loops, flooding, the static analyses, the
//! canonicaliser, reading a big model), bounds of orbit are reported as
//! such, and nothing a model says is silently misread.
//!
//! Each case is generated here and asserts the exit code, the message
//! and, where it matters, a bound on the time or memory taken.

use crate::cli_support::{CheckRun, DEFAULT_TIMEOUT, run_orbit};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Writes `text` as `file_name` in a fresh directory (kept alive by the
/// returned guard).
pub fn model_file(file_name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(file_name);
    std::fs::write(&path, text).expect("write the model");
    (dir, path.to_string_lossy().into_owned())
}

/// `orbit check` on `text` (written as `file_name`) with `flags` and
/// `--json`, which must end within `within`.
pub fn check_within(file_name: &str, text: &str, flags: &[&str], within: Duration) -> CheckRun {
    let (_dir, path) = model_file(file_name, text);
    let start = Instant::now();
    let run = CheckRun::run_path(&path, &[], flags, DEFAULT_TIMEOUT);
    if start.elapsed() > within {
        run.fail(&format!("took {:?}", start.elapsed()));
    }
    run
}

/// Asserts an incomplete run: exit 3, result `stopped` for `cause`.
pub fn assert_stopped(run: &CheckRun, cause: &str) {
    if run.code != Some(3) || run.result() != "stopped" || run.json["stopped"] != cause {
        run.fail(&format!("expected exit 3 and `stopped: {cause}`"));
    }
}

/// Asserts that the run's peak memory stayed under `mib` MiB (its
/// `--memory` bound).
pub fn assert_peak_under(run: &CheckRun, mib: u64) {
    let peak = run.json["peak_memory_bytes"].as_u64().unwrap_or(0);
    if peak >= mib << 20 {
        run.fail(&format!("peak {peak} bytes, over {mib} MiB"));
    }
}

/// Asserts that the model at `path` (`what`) is checked completely, with
/// 2 states and no deadlock check, on 1 and 2 threads.
fn assert_two_states_on_one_and_two_threads(path: &str, what: &str) {
    for threads in ["1", "2"] {
        let run = CheckRun::run_path(
            path,
            &[],
            &["--no-deadlock", "--threads", threads],
            DEFAULT_TIMEOUT,
        );
        if run.code != Some(0) || run.json["states"] != 2 {
            run.fail(&format!("{what} must be checked: 2 states"));
        }
    }
}

/// A Murphi rule whose body runs 4 * 10^18 iterations of nested `for`s.
const MURPHI_LONG_FOR: &str = "var x : 0..1;\nstartstate begin x := 0; end;\n\
    rule \"spin\" x = 0 ==> var c : 0..10; begin\n\
      for i : 0..2000000000 do for j : 0..2000000000 do c := 0; endfor; endfor;\n\
      x := 1;\nend;\n";

/// A B operation whose body runs 10^10 iterations of nested `WHILE`s.
const B_LONG_WHILE: &str = "MACHINE W\nVARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := 0\n\
    OPERATIONS spin = PRE x = 0 THEN VAR i, j IN i := 0;\n\
      WHILE i < 100000 DO j := 0;\n\
        WHILE j < 100000 DO j := j + 1 INVARIANT j : INTEGER VARIANT 100000 - j END;\n\
        i := i + 1\n\
      INVARIANT i : INTEGER VARIANT 100000 - i END\n\
    END; x := 1 END\nEND\n";

#[test]
fn the_time_limit_stops_long_loops_of_both_interpreters() {
    // Regression: both ran on for over 60 s under --time-limit 3s.
    for (file, text) in [("loop.m", MURPHI_LONG_FOR), ("W.mch", B_LONG_WHILE)] {
        for threads in ["1", "2"] {
            let run = check_within(
                file,
                text,
                &["--time-limit", "1s", "--threads", threads],
                Duration::from_secs(20),
            );
            assert_stopped(&run, "time-limit");
        }
    }
}

#[test]
fn one_signal_stops_a_long_loop_with_its_summary() {
    // Regression: the first SIGTERM or SIGINT was ignored inside a loop,
    // and a second ended the process without a summary.
    let (_dir, path) = model_file("loop.m", MURPHI_LONG_FOR);
    for (signal, cause) in [(libc::SIGINT, "interrupted"), (libc::SIGTERM, "terminated")] {
        let child = Command::new(env!("CARGO_BIN_EXE_orbit"))
            .args(["check", &path, "--json", "--threads", "2"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start orbit");
        let pid = libc::pid_t::try_from(child.id()).expect("a pid");
        std::thread::sleep(Duration::from_millis(700));
        let start = Instant::now();
        // SAFETY: kill(2) on our own child, not yet waited for.
        unsafe { libc::kill(pid, signal) };
        let out = child.wait_with_output().expect("wait for orbit");
        assert!(start.elapsed() < Duration::from_secs(10), "{signal}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
        assert_eq!(out.status.code(), Some(3), "{stdout}");
        assert_eq!(json["stopped"], cause, "{stdout}");
    }
}

#[test]
fn a_loop_past_orbits_bound_is_a_limit_of_orbit_not_an_error_of_the_model() {
    // Regression: reported as a model error ("does not seem to end").
    let run = check_within(
        "while.m",
        "var x : 0..1;\nstartstate begin x := 0; end;\n\
         rule \"spin\" x = 0 ==> var c : 0..10; begin while true do c := 0; end; x := 1; end;\n",
        &[],
        Duration::from_secs(60),
    );
    assert_stopped(&run, "loop-limit");
    assert!(
        run.json["message"]
            .as_str()
            .unwrap_or("")
            .contains("16,777,216")
    );
}

#[test]
fn a_for_loop_longer_than_the_while_bound_ends() {
    // Regression: a `for` over 17 million values was reported as a model
    // error although it ends.
    let run = check_within(
        "for.m",
        "var x : 0..1;\nstartstate begin x := 0; end;\n\
         rule \"count\" x = 0 ==> var c : 0..10; begin\n\
           for i := 0 to 17000000 do c := 1; endfor; x := 1; end;\n",
        &["--no-deadlock"],
        Duration::from_secs(60),
    );
    if run.code != Some(0) || run.json["states"] != 2 {
        run.fail("expected a complete run of 2 states");
    }
}

#[test]
fn loop_bound_in_the_report_is_the_bound_orbit_applies() {
    assert_eq!(workers::budget::LOOP_LIMIT, 16_777_216);
}

#[test]
fn writing_through_an_alias_of_an_expression_is_refused() {
    // Regression: accepted, and the assignment silently did nothing
    // (Rumur: "non-lvalue expression cannot be assigned to").
    for (body, column) in [
        ("alias a : x + 1 do a := 2; endalias;", 22),
        (
            "alias a : x + 1 do alias b : a do clear b; endalias; endalias;",
            43,
        ),
    ] {
        let (_dir, path) = model_file(
            "alias.m",
            &format!(
                "var x : 0..5;\nstartstate begin x := 0; end;\n\
                 rule \"r\" x < 3 ==> begin\n  {body}\n  x := x + 1;\nend;\n"
            ),
        );
        let out = orbit(&["check", &path]);
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        assert!(
            out.stderr.contains("is an alias of an expression")
                && out.stderr.contains(&format!("alias.m:4:{column}")),
            "{}",
            out.stderr
        );
    }
    // An alias of a variable still writes the variable.
    let (_dir, path) = model_file(
        "alias.m",
        "var x : 0..5;\nstartstate begin x := 0; end;\n\
         rule \"r\" x < 3 ==> begin alias a : x do a := a + 1; endalias; end;\n",
    );
    let run = CheckRun::run_path(&path, &[], &["--no-deadlock"], DEFAULT_TIMEOUT);
    if run.code != Some(0) || run.json["states"] != 4 {
        run.fail("expected 4 states");
    }
}

#[test]
fn two_included_operations_of_one_name_are_refused_where_promoted() {
    // Regression: accepted, one `inc` silently disappeared (or was the one
    // a call ran).
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["A", "B"] {
        let var = name.to_lowercase();
        std::fs::write(
            dir.path().join(format!("{name}.mch")),
            format!(
                "MACHINE {name}\nVARIABLES {var}\nINVARIANT {var} : 0..3\n\
                 INITIALISATION {var} := 0\n\
                 OPERATIONS inc = PRE {var} < 3 THEN {var} := {var} + 1 END\nEND\n"
            ),
        )
        .expect("write");
    }
    for (top, clauses, message) in [
        (
            "Top",
            "INCLUDES A, B\nPROMOTES inc",
            "cannot promote `inc`: two included machines define it",
        ),
        (
            "Ext",
            "EXTENDS A, B",
            "operation `inc` is defined by two extended or promoted machines",
        ),
        (
            "Call",
            "INCLUDES A, B\nOPERATIONS go = inc",
            "cannot call `inc`: two included machines define it",
        ),
    ] {
        let path = dir.path().join(format!("{top}.mch"));
        std::fs::write(&path, format!("MACHINE {top}\n{clauses}\nEND\n")).expect("write");
        let out = orbit(&["check", &path.to_string_lossy()]);
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        assert!(out.stderr.contains(message), "{}", out.stderr);
        assert!(
            out.stderr.contains("A.mch:5:12") || out.stderr.contains("B.mch:5:12"),
            "{}",
            out.stderr
        );
    }
    // With a prefix, both are there.
    let path = dir.path().join("Renamed.mch");
    std::fs::write(
        &path,
        "MACHINE Renamed\nINCLUDES p.A, B\nPROMOTES p.inc, inc\nEND\n",
    )
    .expect("write");
    let run = CheckRun::run_path(
        &path.to_string_lossy(),
        &[],
        &["--no-deadlock"],
        DEFAULT_TIMEOUT,
    );
    if run.code != Some(0) || run.json["states"] != 16 {
        run.fail("expected 16 states");
    }
}

/// A Murphi program whose rule guard (or, for `+`, whose assignment)
/// holds a flat chain of `n` terms joined by `op`.
fn murphi_chain(op: &str, n: usize) -> String {
    if op == "+" {
        format!(
            "var x : 0..100000;\nstartstate begin x := 0; end;\n\
             rule \"r\" x = 0 ==> begin x := ({}) % 5 + 1; end;\n",
            vec!["1"; n].join(" + ")
        )
    } else {
        let term = if op == "|" { "false" } else { "true" };
        format!(
            "var x : 0..1;\nstartstate begin x := 0; end;\n\
             rule \"r\" x = 0 & ({} | true) ==> begin x := 1; end;\n",
            vec![term; n].join(&format!(" {op} "))
        )
    }
}

#[test]
fn long_flat_chains_in_murphi_are_checked_or_refused_with_a_position() {
    // Regression: 60,000 `+` or 100,000 `&`/`|` overflowed the stack
    // (SIGABRT).
    for op in ["+", "&", "|", "->"] {
        let (_dir, path) = model_file("chain.m", &murphi_chain(op, 19_990));
        assert_two_states_on_one_and_two_threads(&path, &format!("a chain of 19,990 `{op}`"));
        for n in [20_001, 100_000] {
            let (_dir, path) = model_file("chain.m", &murphi_chain(op, n));
            let out = orbit(&["check", &path]);
            assert_eq!(out.code, Some(2), "{op} x {n}: {}", out.stderr);
            assert!(
                out.stderr.contains("too deeply nested") && out.stderr.contains("--> "),
                "{}",
                out.stderr
            );
        }
    }
}

#[test]
fn recursion_past_orbits_bound_is_a_limit_of_orbit() {
    // Regression: reported as an error of the model.
    let text = |depth: u32| {
        format!(
            "var x : 0..1;\n\
             function f(n : 0..1000000) : 0..1000000; begin\n\
               if n = 0 then return 0; else return f(n - 1); endif;\nend;\n\
             startstate begin x := 0; end;\n\
             rule \"r\" x = 0 ==> begin x := f({depth}) % 2; x := 1; end;\n"
        )
    };
    let (_dir, path) = model_file("rec.m", &text(9_990));
    assert_two_states_on_one_and_two_threads(&path, "recursion 9,990 deep");
    let (_dir, path) = model_file("rec.m", &text(200_000));
    let run = CheckRun::run_path(&path, &[], &["--no-deadlock"], DEFAULT_TIMEOUT);
    assert_stopped(&run, "call-depth");
}

#[test]
fn an_approximate_search_never_claims_to_have_explored_everything() {
    // Regression: `--symmetry markers` on msg_net skipped the orbit that
    // breaks this invariant (47 of 199 orbits were never visited) and said
    // "no error found: all reachable states explored".
    let model = format!(
        "{}\ninvariant \"no two idle processes with a request in flight each\"\n\
         !(exists p: proc do exists q: proc do p != q\n\
           & state[p] = idle & multisetcount(i: net, net[i].src = p & net[i].kind = req) = 1\n\
           & state[q] = idle & multisetcount(i: net, net[i].src = q & net[i].kind = req) = 1\n\
         endexists endexists);\n",
        include_str!("../../models/murphi/msg_net.m")
    );
    let (_dir, path) = model_file("net.m", &model);
    for mode in ["canon", "markers-exact"] {
        let run = CheckRun::run_path(&path, &[], &["--symmetry", mode], DEFAULT_TIMEOUT);
        if run.result() != "invariant_violation" || run.json.get("approximate").is_some() {
            run.fail("an exact mode finds the violation");
        }
    }
    let bundled = crate::cli_support::model_path("murphi/msg_net.m");
    for path in [path.as_str(), &bundled.to_string_lossy()] {
        let run = CheckRun::run_path(path, &[], &["--symmetry", "markers"], DEFAULT_TIMEOUT);
        if run.result() == "ok" && run.json["approximate"].as_str().is_none() {
            run.fail("an approximate `ok` must say it is approximate");
        }
        let out = orbit(&["check", path, "--symmetry", "markers"]);
        assert!(
            !out.stdout.contains("all reachable states explored"),
            "{}",
            out.stdout
        );
        if out.code == Some(0) {
            assert!(
                out.stdout.contains(
                    "no error found in the states explored (--symmetry markers is approximate"
                ),
                "{}",
                out.stdout
            );
        }
    }
}

#[test]
fn a_refusal_is_one_json_object_with_its_diagnostics() {
    // Regression: a refused model with --json printed nothing on stdout.
    let (_dir, bad_b) = model_file(
        "M.mch",
        "MACHINE M\nVARIABLES x\nINVARIANT x : NAT\nEND END\n",
    );
    let (_dir2, bad_murphi) = model_file(
        "alias.m",
        "var x : 0..1;\nstartstate begin alias a : x + 1 do a := 1; endalias; end;\n",
    );
    for (path, flags, place) in [
        (bad_b.as_str(), &[][..], Some((4, 5))),
        (bad_murphi.as_str(), &[][..], Some((2, 37))),
        (bad_murphi.as_str(), &["--find-abort"][..], None),
        (bad_murphi.as_str(), &["--threads", "0"][..], None),
        ("no-such-file.mch", &[][..], None),
    ] {
        // run_path validates the report against the schema.
        let run = CheckRun::run_path(path, &[], flags, DEFAULT_TIMEOUT);
        if run.code != Some(2) || run.result() != "refused" {
            run.fail("expected exit 2 and result `refused`");
        }
        let first = &run.json["diagnostics"][0];
        assert_eq!(run.json["message"], first["message"]);
        match place {
            Some((line, column)) => {
                assert_eq!(
                    (first["line"].as_u64(), first["column"].as_u64()),
                    (Some(line), Some(column)),
                    "{}",
                    run.json
                );
                assert_eq!(first["file"].as_str(), Some(path));
            }
            None => assert!(first.get("file").is_none(), "{}", run.json),
        }
    }
}

#[test]
fn flooding_an_orbit_of_11_factorial_images_keeps_the_limits() {
    // Regression: ignored --time-limit 2s for over 30 s and --memory
    // 200MiB up to 1.6 GB (every image was buffered).
    let run = check_within(
        "Fl.mch",
        "MACHINE Fl\nSETS P\nVARIABLES f\nINVARIANT f : P --> 0..1\n\
         INITIALISATION f := P * {0}\n\
         OPERATIONS flip(p) = PRE p : P & f(p) = 0 THEN f(p) := 1 END\nEND\n",
        &[
            "--set",
            "P=11",
            "--symmetry",
            "flood",
            "--time-limit",
            "2s",
            "--memory",
            "200MiB",
        ],
        Duration::from_secs(15),
    );
    assert_stopped(&run, "time-limit");
    assert_peak_under(&run, 200);
}

#[test]
fn the_por_analysis_of_many_operations_ends_and_keeps_the_time_limit() {
    // Regression: a machine of more than 48 operations spun for ever in
    // the analysis (`orbit por` and `check --por`), past --time-limit.
    let vars: Vec<String> = (0..8).map(|i| format!("v{i}")).collect();
    let mut ops = Vec::new();
    for i in 0..8 {
        for j in (0..8).filter(|&j| j != i) {
            let (a, b, c) = (&vars[i], &vars[j], &vars[(i + j) % 8]);
            ops.push(format!(
                "op{} = PRE {a} < {b} + {c} & {b} > 0 THEN {a} := ({a} + {b}) mod 6 END",
                ops.len()
            ));
        }
    }
    let text = format!(
        "MACHINE Por\nVARIABLES {}\nINVARIANT {}\nINITIALISATION {}\nOPERATIONS\n{}\nEND\n",
        vars.join(", "),
        vars.iter()
            .map(|v| format!("{v} : 0..5"))
            .collect::<Vec<_>>()
            .join(" & "),
        vars.iter()
            .map(|v| format!("{v} := 0"))
            .collect::<Vec<_>>()
            .join(" || "),
        ops.join(";\n")
    );
    let (_dir, path) = model_file("Por.mch", &text);
    let start = Instant::now();
    let out = orbit(&["por", &path, "--time-limit", "60s", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    crate::json_schema::por_analysis(&serde_json::from_str(&out.stdout).expect("JSON"));
    let out = orbit(&["por", &path, "--time-limit", "0s"]);
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    assert!(
        out.stderr.contains("stopped: the --time-limit was reached"),
        "{}",
        out.stderr
    );
    let run = CheckRun::run_path(
        &path,
        &[],
        &["--por", "--time-limit", "60s"],
        DEFAULT_TIMEOUT,
    );
    if run.result() != "deadlock" {
        run.fail("expected the deadlock of the initial state");
    }
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn orbit_canon_keeps_the_memory_and_time_limits() {
    // Regression: a 17-byte file declaring an empty graph of 10^7
    // vertices took 1.6 GB, and aborted under an address-space limit.
    let (_dir, path) = model_file("empty.dre", "n=10000000 g.\nx\n");
    let out = orbit(&["canon", &path, "--memory", "300MiB"]);
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    assert!(
        out.stderr.contains("stopped: the memory bound was reached"),
        "{}",
        out.stderr
    );
    let (_dir, path) = model_file("c5.dre", "n=5 g 1;2;3;4;0. x\n");
    let out = orbit(&["canon", &path, "--time-limit", "10s", "--memory", "1GiB"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
}

#[test]
fn reading_a_big_murphi_model_keeps_the_memory_cap() {
    // Regression: a 20 MB model took 1.4 GB under --memory 300MiB.
    let mut text = String::from("var x : 0..10;\nstartstate begin x := 0; end;\n");
    for i in 0..200_000 {
        text.push_str(&format!(
            "rule \"r{i}\" x = {} ==> begin x := ({i} + x) % 10; end;\n",
            i % 10
        ));
    }
    let run = check_within(
        "big.m",
        &text,
        &["--memory", "150MiB"],
        Duration::from_secs(60),
    );
    assert_stopped(&run, "memory");
    assert_peak_under(&run, 150);
}

/// Runs `orbit` with `args`.
pub fn orbit(args: &[&str]) -> crate::cli_support::Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    run_orbit(&args, DEFAULT_TIMEOUT)
}
