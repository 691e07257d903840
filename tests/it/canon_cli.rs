//! `orbit canon` end to end: one line per graph, equal hashes for
//! isomorphic graphs, positioned errors and exit code 2 on bad input.

use std::process::Command;

fn run(text: &str, args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graphs.dre");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .arg("canon")
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn isomorphic_graphs_share_the_hash() {
    // Two labellings of the 5-cycle and a path.
    let text = "n=5 g 1; 2; 3; 4; 0. x\n n=5 g 2 3; 3 4; 4; ; . x\n n=5 g 1; 2; 3; 4; . x\n";
    let (code, out, err) = run(text, &[]);
    assert_eq!(code, 0, "{err}");
    let hashes: Vec<&str> = out.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(hashes.len(), 3);
    assert_eq!(hashes[0], hashes[1]);
    assert_ne!(hashes[0], hashes[2]);
}

#[test]
fn form_output_reads_back_to_the_same_hash() {
    let (code, out, _) = run("n=4 $=1 d g 2; 3; 1 4; . f=[4|1:3] x", &["--form"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[1].starts_with("n=4 $=1 d g"), "{}", lines[1]);
    let (code, again, _) = run(lines[1], &[]);
    assert_eq!(code, 0);
    assert_eq!(again.split(' ').next(), lines[0].split(' ').next());
}

#[test]
fn orbits_and_automorphisms_are_printed() {
    let (code, out, _) = run("n=4 g 1; 2; 3; 0. x", &["--orbits", "--automorphisms"]);
    assert_eq!(code, 0);
    assert!(out.contains("orbits: 0 0 0 0; group order 8"), "{out}");
    assert!(out.contains("generator: ("), "{out}");
}

#[test]
fn bad_input_reports_position_and_exits_2() {
    let (code, out, err) = run("n=3\ng 1;\n  9 .", &[]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("graphs.dre:3:3: expected a vertex number"),
        "{err}"
    );
    let (code, _, err) = run("n=3 g 1. Ap x", &[]);
    assert_eq!(code, 2);
    assert!(err.contains(":1:10: expected a dreadnaut command"), "{err}");
}

/// The `--form` output is valid dreadnaut input, as nauty's `dreadnaut`
/// reads it.
#[test]
#[ignore = "needs dreadnaut (apt-get install nauty); .ci/run runs it with --ignored external_"]
fn external_form_output_is_accepted_by_dreadnaut() {
    use std::io::Write as _;
    let (code, out, err) = run(
        "n=4 $=0 d g 0: 1; 1: 2; 2: 3; 3: 0 1. f=[0|1 2 3] x",
        &["--form"],
    );
    assert_eq!(code, 0, "{err}");
    let form = out.lines().nth(1).expect("a form line");
    let mut child = Command::new("dreadnaut")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("dreadnaut is not installed (apt-get install nauty)");
    writeln!(child.stdin.take().unwrap(), "{form} x o q").unwrap();
    let done = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&done.stdout).to_string() + &String::from_utf8_lossy(&done.stderr);
    assert!(
        !text.contains("illegal") && !text.contains("skipped"),
        "{form}\n{text}"
    );
    assert!(text.contains("orbits"), "{form}\n{text}");
}
