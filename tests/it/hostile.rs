//! Hostile inputs and faults: every run ends with the truth. A search that
//! did not explore everything exits 3 and says why (never 0, never "no
//! error"); deep or long input is refused with a position or handled, never
//! a stack overflow; limits and signals stop every phase, not only the
//! search loop; closed pipes and absurd flags give messages, not panics.
//!
//! Each case is generated here (no big files) and asserts the exit code,
//! the message and, where it matters, a bound on the time taken.

use crate::cli_support::{CheckRun, DEFAULT_TIMEOUT, model_path, run_orbit};
use crate::hostile_limits::{assert_peak_under, assert_stopped};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Writes `text` as `name.mch` in a fresh directory (kept alive by the
/// returned guard).
fn machine(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(format!("{name}.mch"));
    std::fs::write(&path, text).expect("write the machine");
    let path = path.to_string_lossy().into_owned();
    (dir, path)
}

/// Runs `orbit` with `args`.
fn orbit(args: &[&str]) -> crate::cli_support::Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    run_orbit(&args, DEFAULT_TIMEOUT)
}

/// `n` terms joined by `op`, e.g. `1 + 1 + ... + 1`.
fn chain(term: &str, op: &str, n: usize) -> String {
    vec![term; n].join(op)
}

#[test]
fn long_flat_chains_are_checked_in_every_command_and_thread() {
    // Below the parser's limit: every phase copes, on the main thread and
    // on the workers' (whose stacks used to overflow first: a `+` chain of
    // about 7,000 terms, `;` of 10,000). The 20,000 of the limit are
    // measured in `orbit::frontends::b::parser::MAX_TREE_DEPTH`'s docs; this test keeps
    // the debug build's run short.
    let n = 8000;
    let text = format!(
        "MACHINE Chains\nVARIABLES x, b\nINVARIANT x : INTEGER & b : BOOL & ({}) \
         \nINITIALISATION x := {} ; b := TRUE\nOPERATIONS\n  \
         op = PRE x < {n} THEN {} END\nEND\n",
        chain("x >= 0", " or ", n),
        chain("0", " + ", n),
        chain("x := x + 1", " ; ", n),
    );
    let (_dir, path) = machine("Chains", &text);
    for threads in ["1", "2"] {
        let run = CheckRun::run_path(&path, &[], &["--threads", threads], DEFAULT_TIMEOUT);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert_eq!(run.result(), "deadlock");
        assert_eq!(run.count("states"), 2);
    }
    let out = orbit(&["por", &path]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let out = orbit(&["graph", &path, "--state", "1"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[test]
fn chains_past_the_limit_are_refused_with_a_position() {
    for (what, body) in [
        ("+", chain("1", " + ", 25_000)),
        ("-", chain("1", " - ", 25_000)),
        ("\\/", chain("{1}", " \\/ ", 25_000)),
        ("|->", chain("1", " |-> ", 25_000)),
        ("^", chain("[1]", " ^ ", 25_000)),
    ] {
        let text = format!("MACHINE Deep\nCONSTANTS c\nPROPERTIES c = {body}\nEND\n");
        let (_dir, path) = machine("Deep", &text);
        for command in ["check", "por", "graph"] {
            let out = orbit(&[command, &path]);
            assert_eq!(out.code, Some(2), "{what} {command}: {}", out.stderr);
            assert!(
                out.stderr.contains("too deeply nested") && out.stderr.contains("Deep.mch:3:"),
                "{what} {command}: {}",
                &out.stderr[..out.stderr.len().min(2000)]
            );
        }
    }
    for (what, guard) in [
        ("or", chain("x = 0", " or ", 25_000)),
        ("=>", chain("x = 0", " => ", 25_000)),
    ] {
        let text = format!(
            "MACHINE Deep\nVARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := 0\n\
             OPERATIONS op = SELECT {guard} THEN x := 1 END\nEND\n"
        );
        let (_dir, path) = machine("Deep", &text);
        let out = orbit(&["check", &path]);
        assert_eq!(out.code, Some(2), "{what}: {}", out.stderr);
        assert!(out.stderr.contains("too deeply nested"), "{what}");
    }
    let text = format!(
        "MACHINE Deep\nVARIABLES x\nINVARIANT x : INTEGER\nINITIALISATION x := 0\n\
         OPERATIONS op = BEGIN {} END\nEND\n",
        chain("x := x + 1", " ; ", 25_000)
    );
    let (_dir, path) = machine("Deep", &text);
    let out = orbit(&["check", &path, "--threads", "2"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("too deeply nested"));
}

/// Runs `orbit check` on `text` (a machine) with `flags` and `--json`;
/// the run must end within `within`.
fn check_within(text: &str, flags: &[&str], within: Duration) -> CheckRun {
    crate::hostile_limits::check_within("M.mch", text, flags, within)
}

#[test]
fn the_time_limit_stops_solving_constants_and_building_sets() {
    let machine = |properties: &str| {
        format!(
            "MACHINE M\nCONSTANTS f\nPROPERTIES {properties}\n\
             VARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := 0\nEND\n"
        )
    };
    for (properties, solver) in [
        // Regression: spun forever (12^12 functions, none with f(1) = 13).
        ("f : 1..12 --> 1..12 & f(1) = 13", "enumerate"),
        // Regression: loops over a set already built (`S`) never polled
        // the budget; 17 GiB in 40 s.
        (
            "f = 0..4000 & card({x, y, z | x : f & y : f & z : f & x + y = z + 9000}) = 1",
            "enumerate",
        ),
    ] {
        let run = check_within(
            &machine(properties),
            &["--time-limit", "1s", "--solver", solver],
            Duration::from_secs(30),
        );
        assert_stopped(&run, "time-limit");
    }
    // Regression: 41 s and 4.4 GiB before "too large"; now counted from
    // the sizes of its parts (4^12), and a space too large to build is
    // refused before any of it is built.
    let run = check_within(
        &machine("f = card((1..12) --> (1..4)) & f = 16777216"),
        &["--time-limit", "20s", "--no-deadlock"],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = check_within(
        &machine("f = card(((1..12) --> (1..4)) - {{}})"),
        &["--time-limit", "20s", "--no-deadlock"],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.json["result"], "model_error", "{}", run.json);
    let message = run.json["message"].as_str().unwrap_or("");
    assert!(message.contains("too large to build"), "{message}");
    // The constraint solver (the default) sees at once that no function
    // has f(1) = 13.
    let run = check_within(
        &machine("f : 1..12 --> 1..12 & f(1) = 13"),
        &["--time-limit", "20s"],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.json["result"], "model_error", "{}", run.json);
    let message = run.json["message"].as_str().unwrap_or("");
    assert!(message.contains("PROPERTIES has no solution"), "{message}");
}

#[test]
fn pigeonholes_have_no_injection() {
    // Regression: with the sizes read from `n`, enumerating the injections
    // of 100 pigeons into 99 holes tried every partial choice and never
    // reached a leaf, where alone the time limit was polled.
    let text = "MACHINE M\nSETS P; H\nCONSTANTS n, f\n\
                PROPERTIES n = 100 & card(P) = n & card(H) = n - 1 & f : P >-> H\nEND\n";
    for solver in ["enumerate", "auto"] {
        let run = check_within(
            text,
            &["--time-limit", "20s", "--solver", solver],
            Duration::from_secs(40),
        );
        assert_eq!(run.code, Some(1), "{solver}: {}", run.stderr);
        let message = run.json["message"].as_str().unwrap_or("");
        assert!(
            message.contains("PROPERTIES has no solution"),
            "{solver}: {message}"
        );
    }
    // Regression: the constraint solver's model of a function over 2049^2
    // pairs (one unknown per image) took 24 GiB under `--memory 1GiB`
    // before the kernel killed the process.
    let run = check_within(
        "MACHINE M\nSETS R\nCONSTANTS make\n\
         PROPERTIES make : INTEGER * INTEGER >->> R & make : INTEGER * INTEGER --> R\nEND\n",
        &[
            "--bound-integers",
            "--maxint",
            "1024",
            "--time-limit",
            "20s",
            "--memory",
            "1GiB",
        ],
        Duration::from_secs(40),
    );
    assert_peak_under(&run, 1024);
}

#[test]
fn limits_stop_the_initial_states() {
    // Regression: grew to 4 GB and aborted (2^30 initial states).
    let run = check_within(
        "MACHINE M\nVARIABLES x\nINVARIANT x <: 1..30\nINITIALISATION x :: POW(1..30)\nEND\n",
        &["--time-limit", "3s", "--memory", "300MiB"],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    let cause = run.json["stopped"].as_str().unwrap_or("");
    assert!(cause == "time-limit" || cause == "memory", "{cause}");
    // Regression: the doubling buffer of initial states peaked at 264-514
    // MiB under the 300 MiB cap.
    assert_peak_under(&run, 300);
}

#[test]
fn the_time_limit_stops_one_huge_expansion() {
    // Regression: one state with 2^62 successors was never interrupted.
    let run = check_within(
        "MACHINE M\nVARIABLES x\nINVARIANT x : NAT\nINITIALISATION x := 0\n\
         OPERATIONS set(p) = PRE p : NAT THEN x := p END\nEND\n",
        &[
            "--time-limit",
            "1s",
            "--maxint",
            "4611686018427387904",
            "--threads",
            "1",
        ],
        Duration::from_secs(30),
    );
    assert_stopped(&run, "time-limit");
}

#[test]
fn the_memory_bound_holds_for_the_whole_process() {
    // Regression: interned values were not counted, so this machine (a
    // set of integers that keeps growing) reached 1.2 GiB under 64 MiB.
    let run = check_within(
        "MACHINE M\nVARIABLES s\nINVARIANT s <: NATURAL\nINITIALISATION s := {}\n\
         OPERATIONS grow = s := s \\/ {card(s)}\nEND\n",
        &["--memory", "64MiB", "--time-limit", "60s", "--threads", "2"],
        Duration::from_secs(90),
    );
    assert_stopped(&run, "memory");
    assert_peak_under(&run, 100);
}

#[test]
fn max_states_is_exact_whatever_the_branching_and_threads() {
    // Regression: --max-states 1000 stored 200,000 states when each state
    // had 100,000 successors, and --max-states 0 stored 6.
    let text = "MACHINE M\nVARIABLES x\nINVARIANT x : 0..100000\nINITIALISATION x := 0\n\
                OPERATIONS set(v) = PRE v : 0..100000 THEN x := v END\nEND\n";
    for threads in ["1", "2"] {
        for (max, expected) in [("1000", 1000), ("0", 0), ("1", 1)] {
            let run = check_within(
                text,
                &["--max-states", max, "--threads", threads, "--no-deadlock"],
                Duration::from_secs(60),
            );
            assert_stopped(&run, "max-states");
            let states = run.count("states");
            assert!(states <= expected, "{} stored {states}", run.command);
            if threads == "1" {
                assert_eq!(states, expected, "{}", run.command);
            }
        }
    }
}

/// Starts a long search, sends `signal` after a moment and returns the run.
fn signalled(signal: libc::c_int) -> (Option<i32>, serde_json::Value) {
    let model = model_path("scheduler0.mch");
    let child = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .args(["check", &model.to_string_lossy(), "--set", "PROC=14"])
        .args(["--no-deadlock", "--json", "--threads", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start orbit");
    std::thread::sleep(Duration::from_millis(1500));
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: kill(2) on our own child, which is still running (not yet
    // waited for, so its pid cannot have been reused).
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "kill failed");
    let start = Instant::now();
    let out = child.wait_with_output().expect("orbit ends");
    assert!(start.elapsed() < Duration::from_secs(20), "slow to stop");
    let report = serde_json::from_slice(&out.stdout).expect("a JSON summary");
    crate::json_schema::check_report(&report);
    (out.status.code(), report)
}

#[test]
fn sigint_and_sigterm_print_the_partial_summary_and_exit_3() {
    for (signal, cause) in [(libc::SIGINT, "interrupted"), (libc::SIGTERM, "terminated")] {
        let (code, report) = signalled(signal);
        assert_eq!(code, Some(3), "{signal}: {report}");
        assert_eq!(report["result"], "stopped", "{signal}");
        assert_eq!(report["stopped"], cause, "{signal}");
        assert!(report["states"].as_u64().unwrap_or(0) > 0);
    }
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    // Regression: `orbit check M | head -1` panicked on the closed pipe.
    let model = model_path("scheduler0.mch");
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .args([
            "check",
            &model.to_string_lossy(),
            "--set",
            "PROC=3",
            "--no-assert-ltl",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start orbit");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("orbit ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn absurd_flags_are_usage_errors() {
    let model = model_path("scheduler0.mch");
    let model = model.to_string_lossy();
    for (args, expected) in [
        // Regression: Duration::from_secs_f64 panicked.
        (vec!["check", &*model, "--time-limit", "1e20"], "100 years"),
        (vec!["check", &*model, "--time-limit", "NaN"], "duration"),
        // Regression: the last of two sizes was silently kept.
        (
            vec!["check", &*model, "--set", "PROC=3", "--set", "PROC=4"],
            "given twice",
        ),
        // Regression: silently clamped to 256.
        (vec!["check", &*model, "--threads", "300"], "300"),
    ] {
        let out = orbit(&args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(expected), "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "{args:?}");
    }
    // Regression: --state wrapped around.
    let out = orbit(&["graph", &model, "--state", "18446744073709551615"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("reachable states"), "{}", out.stderr);
}

#[test]
fn input_that_is_not_utf8_is_read_as_latin1_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Bytes.mch");
    std::fs::write(
        &path,
        b"MACHINE Bytes\nVARIABLES x\nINVARIANT x : 0..2\nINITIALISATION x := 0\n\
          OPERATIONS /* caf\xe9 */ bad = BEGIN x := y END\nEND\n",
    )
    .unwrap();
    let out = orbit(&["check", &path.to_string_lossy()]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("read as Latin-1"), "{}", out.stderr);
    // Columns count the Latin-1 characters: `y` is at column 40 of line 5.
    assert!(out.stderr.contains("Bytes.mch:5:40"), "{}", out.stderr);
}

#[test]
fn logs_have_no_colour_codes_when_stderr_is_not_a_terminal() {
    let model = model_path("scheduler0.mch");
    let out = orbit(&[
        "-v",
        "check",
        &model.to_string_lossy(),
        "--set",
        "PROC=2",
        "--no-assert-ltl",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("DEBUG"), "{}", out.stderr);
    assert!(!out.stderr.contains('\u{1b}'), "{}", out.stderr);
}

#[test]
fn running_out_of_address_space_is_a_clean_stop() {
    // Regression: under `prlimit --as=1.5GB` a run died with SIGABRT and no
    // summary. Now a refused allocation gives back the emergency reserve
    // and stops the run (or the watchdog's bound, 90% of the limit, stops
    // it first): exit 3 with the partial summary.
    let (_dir, path) = machine(
        "Pow",
        "MACHINE Pow\nVARIABLES x\nINVARIANT x <: 1..30\nINITIALISATION x :: POW(1..30)\nEND\n",
    );
    let start = Instant::now();
    let out = Command::new("prlimit")
        .arg("--as=800000000")
        .arg(env!("CARGO_BIN_EXE_orbit"))
        .args(["check", &path, "--json", "--threads", "2"])
        .stdin(Stdio::null())
        .output()
        .expect("prlimit (util-linux) runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(start.elapsed() < Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON summary");
    crate::json_schema::check_report(&report);
    // Which limit is met first depends on how the address space is shared
    // out (allocator reservations, thread stacks): either is a clean stop.
    let cause = report["stopped"].as_str().unwrap_or("");
    assert!(cause == "memory" || cause == "worker-failure", "{report}");
}

/// Waits for `child` to exit; kills it and fails the test (naming `what`
/// was sent) if it still runs after 20 s.
fn exit_within_20_s(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("orbit runs") {
            return status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: orbit still runs after 20 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One SIGINT stops the generation of 10^12 initial states (the product
/// of three parallel choices, which once polled nothing) with the partial
/// summary and exit code 3, within a second.
#[test]
fn one_signal_stops_a_huge_initialisation_with_its_summary() {
    let (_dir, path) = machine(
        "Huge",
        "MACHINE Huge\nCONSTANTS n\nPROPERTIES n : 1..3\nVARIABLES x, y, z\n\
         INVARIANT x : 1..10000 & y : 1..10000 & z : 1..10000\n\
         INITIALISATION x :: 1..10000 || y :: 1..10000 || z :: 1..10000\nEND\n",
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .args(["check", &path, "--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start orbit");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    std::thread::sleep(Duration::from_millis(700));
    // SAFETY: kill(2) on our own child, not yet waited for.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let status = exit_within_20_s(&mut child, "one SIGINT");
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().expect("piped"), &mut stdout)
        .expect("stdout");
    assert_eq!(status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("incomplete: interrupted"), "{stdout}");
}

/// Two SIGINTs or SIGTERMs 0.7 s apart during the initialisation of 10^12
/// initial states end the process with exit code 3: the first stops it
/// with its summary, or, if it is still in a phase that does not poll the
/// stop flag, the second ends it at once.
#[test]
fn a_second_signal_ends_a_run_that_does_not_stop() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Huge.mch");
    std::fs::write(
        &path,
        "MACHINE Huge\nVARIABLES x, y, z\nINVARIANT x : 1..10000 & y : 1..10000 & z : 1..10000\n\
         INITIALISATION x :: 1..10000 || y :: 1..10000 || z :: 1..10000\nEND\n",
    )
    .unwrap();
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_orbit"))
            .args(["check", &path.to_string_lossy(), "--threads", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start orbit");
        let pid = libc::pid_t::try_from(child.id()).expect("a pid");
        for _ in 0..2 {
            std::thread::sleep(Duration::from_millis(700));
            // SAFETY: kill(2) on our own child, not yet waited for (its pid
            // cannot have been reused); signalling one that has ended is
            // harmless.
            unsafe { libc::kill(pid, signal) };
        }
        let status = exit_within_20_s(&mut child, &format!("signal {signal} twice"));
        assert_eq!(status.code(), Some(3), "{signal}");
    }
}

/// A time limit reached while INITIALISATION is still computing (here a
/// closure of 12.5 million pairs, which polls nothing) is no verdict: the
/// initial states refused after it were once taken for none, and the run
/// said "INITIALISATION has no outcome" with exit code 1.
#[test]
fn a_time_limit_reached_during_initialisation_is_no_verdict() {
    let (_dir, path) = machine(
        "Slow",
        "MACHINE Slow\nVARIABLES x\nINVARIANT x : NATURAL\n\
         INITIALISATION x := card({a, b | a : 1..30000 & b : 1..30000 & (a * b) mod 7 = 3})\n\
         OPERATIONS op = skip\nEND\n",
    );
    for threads in ["1", "2"] {
        let out = orbit(&["check", &path, "--threads", threads, "--time-limit", "1s"]);
        assert_eq!(out.code, Some(3), "{threads}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stdout
                .contains("incomplete: the --time-limit was reached"),
            "{threads}: {}",
            out.stdout
        );
    }
}

/// `closure1` of a chain of 5,000 elements has 12.5 million pairs: a
/// named model error once the matrix is closed, never a set built for
/// seconds past the time limit.
#[test]
fn a_closure_too_large_to_build_is_a_model_error() {
    let (_dir, path) = machine(
        "Chain",
        "MACHINE Chain\nVARIABLES x\nINVARIANT x : NATURAL\n\
         INITIALISATION x := card(closure1(%i.(i : 1..5000 | i + 1)))\n\
         OPERATIONS op = skip\nEND\n",
    );
    let out = orbit(&["check", &path, "--threads", "1"]);
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("the closure has more than 4194304 pairs, too many to build")
            && out.stdout.contains("Chain.mch:4:"),
        "{}",
        out.stdout
    );
}

/// A variable of one value takes no bits; after a state of exactly one
/// full word (a machine parameter of 64 bits) packing it must not reach
/// past that word.
#[test]
fn a_variable_of_one_value_after_a_full_word_is_packed_inside_the_state() {
    let (_dir, path) = machine(
        "One",
        "MACHINE One(pp)\nCONSTRAINTS pp : NAT1\nSETS E = {uu}\nVARIABLES yy\n\
         INVARIANT yy : E\nINITIALISATION yy := uu\nOPERATIONS set(z) = PRE z : E THEN yy := z END\nEND\n",
    );
    let out = orbit(&["check", &path, "--bound-integers"]);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("distinct states:      3"),
        "{}",
        out.stdout
    );
}

/// Enumerating the functions over a domain of a million elements keeps
/// one choice per element in a loop, not one stack frame each.
#[test]
fn functions_over_a_million_elements_are_enumerated_without_deep_recursion() {
    let (_dir, path) = machine(
        "Wide",
        "MACHINE Wide\nCONSTANTS f\nPROPERTIES f : (1..1100) * (1..1000) --> {TRUE}\n\
         VARIABLES x\nINVARIANT x : BOOL\nINITIALISATION x := f(7 |-> 8)\nEND\n",
    );
    let out = orbit(&["check", &path, "--no-deadlock", "--solver", "enumerate"]);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("distinct states:      1"),
        "{}",
        out.stdout
    );
}
