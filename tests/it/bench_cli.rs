//! `orbit bench` end to end: a tiny scaling experiment writes its table,
//! CSV and plot, and bad input is refused with exit code 2.

use std::path::PathBuf;
use std::process::Command;

fn orbit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_orbit"))
}

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

/// Runs `orbit bench MODEL ARGS --out DIR [-- CHECK_ARGS]`, which must
/// succeed; its stdout, stderr and the CSV it wrote (DIR is removed after).
fn bench_ok(model_name: &str, args: &[&str], check_args: &[&str]) -> (String, String, String) {
    let out = tempfile::tempdir().unwrap();
    let mut command = orbit();
    command
        .arg("bench")
        .arg(model(model_name))
        .args(args)
        .arg("--out")
        .arg(out.path());
    if !check_args.is_empty() {
        command.arg("--").args(check_args);
    }
    let result = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
    assert_eq!(result.status.code(), Some(0), "{stdout}\n{stderr}");
    let png = std::fs::read(out.path().join("speedup.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let csv = std::fs::read_to_string(out.path().join("bench.csv")).unwrap();
    (stdout, stderr, csv)
}

#[test]
fn bench_runs_murphi_programs_and_the_help_says_so() {
    let args = ["--set", "N=3", "--threads", "1,2", "--repeat", "1"];
    let (_, _, csv) = bench_ok("murphi/peterson.m", &args, &[]);
    // Peterson's algorithm with 3 processes: 356 states (models/murphi/EXPECTED.md).
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows.iter().all(|r| r.contains(",356,")), "{csv}");
    for command in ["bench", "check", "graph", "por"] {
        let help = orbit().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(help.contains("Murphi program (.m)"), "{command}: {help}");
    }
}

#[test]
fn bench_writes_table_csv_and_png() {
    let args = ["--set", "PROC=3", "--threads", "1,2", "--repeat", "2"];
    let (stdout, stderr, csv) = bench_ok("scheduler0.mch", &args, &["--no-deadlock"]);
    assert!(stdout.contains("speedup"), "{stdout}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    // scheduler0 with 3 processes: 54 distinct states for every thread count.
    assert!(
        lines[1].starts_with("1,") && lines[1].contains(",54,"),
        "{csv}"
    );
    assert!(
        lines[2].starts_with("2,") && lines[2].contains(",54,"),
        "{csv}"
    );
    // A few milliseconds per run cannot be timed: said, and not plotted.
    assert!(stderr.contains("too short to time"), "{stderr}");
}

#[test]
fn bench_refuses_bad_input() {
    let out = tempfile::tempdir().unwrap();
    let result = orbit()
        .arg("bench")
        .arg(model("scheduler0.mch"))
        .args(["--set", "NOSUCHSET=3", "--repeat", "1", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("scheduler0.mch:"), "{stderr}");
    let zero_threads = orbit()
        .arg("bench")
        .arg(model("scheduler0.mch"))
        .args(["--threads", "0"])
        .output()
        .unwrap();
    assert_eq!(zero_threads.status.code(), Some(2));
}
