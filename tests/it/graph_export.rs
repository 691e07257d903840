//! `orbit graph`: state graphs for the canonical labelling benchmarks, in
//! dreadnaut and DIMACS format, checked against nauty's `dreadnaut` and
//! `bliss` (those two checks are `#[ignore]`d, since they need the programs:
//! `apt-get install nauty bliss`, then `cargo test --test it -- --ignored
//! external_`; `.ci/run` does both).
//!
//! scheduler0 with 3 processes: state 0 is the initial state, states 1-3
//! are `new` of each process (symmetric to each other), so the canonical
//! graphs of states 1-3 agree and differ from state 0's.

use crate::cli_support;

use std::io::Write;
use std::process::{Command, Stdio};

/// `orbit graph scheduler0 --set PROC=3 --state k` with extra arguments.
fn graph(k: u32, extra: &[&str]) -> String {
    let model = cli_support::model_path("scheduler0.mch");
    let mut args: Vec<String> = ["graph", &model.to_string_lossy(), "--set", "PROC=3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(["--state".to_string(), k.to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = cli_support::run_orbit(&args, cli_support::DEFAULT_TIMEOUT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.stdout
}

/// Fails the test, naming the package, unless `program` can be started.
fn require(program: &str, package: &str) {
    let found = Command::new(program)
        .arg("-help")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    assert!(
        found,
        "`{program}` is not installed (apt-get install {package})"
    );
}

/// Asserts that states 1-3 share a canonical form and state 0 has another.
fn assert_orbits(forms: &[String]) {
    assert_eq!(forms.len(), 4);
    assert!(!forms[0].is_empty() && !forms[1].is_empty());
    assert_ne!(forms[0], forms[1]);
    assert_eq!(forms[1], forms[2]);
    assert_eq!(forms[2], forms[3]);
}

#[test]
fn dimacs_has_the_header_colours_and_arcs_it_announces() {
    let text = graph(1, &["--format", "dimacs"]);
    let header = text
        .lines()
        .find(|l| l.starts_with("p edge"))
        .expect("a p line");
    let counts: Vec<usize> = header[6..]
        .split_whitespace()
        .map(|w| w.parse().expect("numbers"))
        .collect();
    let count = |prefix: &str| text.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("n "), counts[0]);
    assert_eq!(count("e "), counts[1]);
    // --all writes several graphs: dreadnaut only.
    let model = cli_support::model_path("scheduler0.mch");
    let args: Vec<String> = [
        "graph",
        &model.to_string_lossy(),
        "--all",
        "--format",
        "dimacs",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = cli_support::run_orbit(&args, cli_support::DEFAULT_TIMEOUT);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("--all"), "{}", out.stderr);
}

#[test]
#[ignore = "needs bliss (apt-get install bliss); .ci/run runs it with --ignored external_"]
fn external_bliss_agrees_on_the_orbits() {
    require("bliss", "bliss");
    let dir = tempfile::tempdir().expect("temp dir");
    let forms: Vec<String> = (0..4)
        .map(|k| {
            let input = dir.path().join(format!("s{k}.dimacs"));
            let canon = dir.path().join(format!("s{k}.can"));
            std::fs::write(&input, graph(k, &["--format", "dimacs"])).expect("write");
            let status = Command::new("bliss")
                .arg("-directed")
                .arg(format!("-ocan={}", canon.display()))
                .arg(&input)
                .stdout(Stdio::null())
                .status()
                .expect("bliss runs");
            assert!(status.success(), "bliss failed on state {k}");
            std::fs::read_to_string(&canon).expect("bliss wrote the canonical form")
        })
        .collect();
    assert_orbits(&forms);
}

#[test]
#[ignore = "needs dreadnaut (apt-get install nauty); .ci/run runs it with --ignored external_"]
fn external_dreadnaut_agrees_on_the_orbits() {
    require("dreadnaut", "nauty");
    let forms: Vec<String> = (0..4)
        .map(|k| {
            let mut child = Command::new("dreadnaut")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("dreadnaut runs");
            let script = format!("c\n{}b\nq\n", graph(k, &[]));
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(script.as_bytes())
                .expect("write to dreadnaut");
            let out = child.wait_with_output().expect("dreadnaut output");
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            assert!(
                !text.contains("illegal"),
                "dreadnaut rejected state {k}: {text}"
            );
            // `b` prints the canonical labelling, then the canonical graph's
            // adjacency rows `v : ...;`: keep the rows.
            text.lines()
                .filter(|l| l.contains(" : "))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert_orbits(&forms);
}
