//! `orbit por`: the static analysis of partial order reduction on the
//! paper's Counters machine and on scheduler0, and bad input.

use std::process::Command;

fn por(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .arg("por")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The rows of the printed dependency matrix, without the names.
fn matrix(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("dependency matrix"))
        .skip(2)
        .take_while(|l| !l.starts_with("pairs:"))
        .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(""))
        .collect()
}

fn models(name: &str) -> String {
    format!("{}/models/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn counters_are_independent_except_within_one_counter() {
    let (code, out, err) = por(&[&models("Counters.mch")]);
    assert_eq!(code, Some(0), "{err}");
    // inc1..inc4 then reset1..reset4: each counter's two operations race
    // but are never enabled together (reset needs the counter at its top).
    let expected: Vec<String> = (0..8)
        .map(|i| (0..8).map(|j| if i == j { 'D' } else { '.' }).collect())
        .collect();
    assert_eq!(matrix(&out), expected, "{out}");
    assert!(out.contains("inc1 inc2: independent (syntactic)"), "{out}");
    assert!(
        out.contains("inc1 reset1: independent (never co-enabled in 4 states; both write c1)"),
        "{out}"
    );
    assert!(out.contains("4 never co-enabled (independent)"), "{out}");
    assert!(
        out.contains("  0 inc1: read_G {c1} read_A {c1} write {c1}"),
        "{out}"
    );
    assert!(out.contains("  inc1 -> {reset1}\n"), "{out}");
    assert!(out.contains("  reset1 -> {inc1}\n"), "{out}");
}

#[test]
fn scheduler0_operations_all_race_on_pst() {
    let (code, out, err) = por(&[&models("scheduler0.mch"), "--set", "PROC=2"]);
    assert_eq!(code, Some(0), "{err}");
    let expected = ["DDDDD", "DDDDD", "DDDDD", "DDDD.", "DDD.D"];
    assert_eq!(matrix(&out), expected, "{out}");
    assert!(
        out.contains("new del: dependent (race on proc, pst)"),
        "{out}"
    );
    // A process is either waiting or active: enter and leave (both for
    // the process in the guard) are never enabled together.
    assert!(
        out.contains("enter leave: independent (never co-enabled in 15 states; both write pst)"),
        "{out}"
    );
    // Decided by enumeration over the 15 states allowed by the invariant.
    assert!(out.contains("  ready -> {enter}\n"), "{out}");
    assert!(out.contains("  enter -> {leave}\n"), "{out}");
    assert!(out.contains("  leave -> {del, ready, enter}\n"), "{out}");
    assert!(
        out.contains("new -> enter: no edge (enumeration of 15 states)"),
        "{out}"
    );
}

#[test]
fn dot_and_json_describe_the_same_relations() {
    let (code, out, _) = por(&[&models("Counters.mch"), "--dot"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("digraph enable {"), "{out}");
    assert!(out.contains("\"inc1\" -> \"reset1\";"), "{out}");
    assert!(out.contains("graph dependency {"), "{out}");
    assert!(!out.contains("\"inc1\" -- \"reset1\";"), "{out}");
    assert!(!out.contains("\"inc1\" -- \"inc2\";"), "{out}");
    let (code, out, _) = por(&[&models("Peterson.mch"), "--dot"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("\"want1\" -- \"enter2\";"), "{out}");
    assert!(!out.contains("\"want1\" -- \"yield1\";"), "{out}");
    let (code, out, _) = por(&[&models("Counters.mch"), "--json"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    crate::json_schema::por_analysis(&v);
    assert_eq!(v["dependent"][0][0], true);
    assert_eq!(v["dependent"][0][4], false);
    assert_eq!(v["dependent"][0][1], false);
    assert_eq!(v["operations"][4]["write"][0], "c1");
}

#[test]
fn bad_input_exits_2_with_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.mch");
    std::fs::write(&path, "MACHINE M\nOPERATIONS\n op = x :=\nEND\n").unwrap();
    let (code, _, err) = por(&[path.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bad.mch:4:1"), "{err}");
    let (code, _, err) = por(&["/no/such/file.mch"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn peterson_turn_writes_are_proved_independent_of_the_other_entry() {
    let (code, out, err) = por(&[&models("Peterson.mch")]);
    assert_eq!(code, Some(0), "{err}");
    // want1 yield1 enter1 exit1 want2 yield2 enter2 exit2
    // The steps of one process all write its program counter but are
    // never enabled together.
    let expected = [
        "D.....D.", ".D...D..", "..D.D...", "...D....", "..D.D...", ".D...D..", "D.....D.",
        ".......D",
    ];
    assert_eq!(matrix(&out), expected, "{out}");
    assert!(
        out.contains("yield1 enter2: independent (enumeration of 60 states)"),
        "{out}"
    );
    assert!(
        out.contains("want1 enter2: dependent (enumeration: want1 disables enter2"),
        "{out}"
    );
    assert!(out.contains("  yield1 -> {enter1, enter2}\n"), "{out}");
    assert!(
        out.contains("want1 yield1: independent (never co-enabled in 15 states; both write pc1)"),
        "{out}"
    );
}

#[test]
fn sieve_primes_is_never_co_enabled_with_a_busy_process() {
    // The guards of `strike1` and `primes` read six variables (too many
    // candidate states); their conjuncts `p1 /= 0` and `p1 = 0` are each
    // other's negation.
    let (code, out, err) = por(&[&models("Sieve.mch"), "-v"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(
            "strike1 primes: independent (never co-enabled: `p1 /= 0` and `p1 = 0` exclude \
             each other, complementary)"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "take4 primes: independent (never co-enabled: `next * next <= N` and \
             `next * next > N` exclude each other, complementary)"
        ),
        "{out}"
    );
    let row = matrix(&out).pop().unwrap();
    assert_eq!(row, "............D", "{out}");
}

#[test]
fn sieve_without_the_invariant_uses_complementary_conjuncts() {
    // Deadlock checking only: no invariant conjunct bounds `p1`, so no
    // enumeration is possible, but `p1 /= 0` is the negation of `p1 = 0`.
    let out = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .args([
            "check",
            &models("Sieve.mch"),
            "--por",
            "--no-invariant",
            "-v",
        ])
        .args(["--threads", "1"])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("done1 primes: independent (never co-enabled: ")
            && text.contains("exclude each other, complementary)"),
        "{text}"
    );
}
