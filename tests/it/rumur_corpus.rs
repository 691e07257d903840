//! Rumur's own test models (`tests/it/rumur_corpus/`, public domain) as an
//! oracle for the Murphi front end: each model's magic comments say whether
//! Rumur rejects it (`rumur_exit_code: 1`) and whether checking finds an
//! error (`checker_exit_code: 1`). orbit must agree on every model except
//! the documented differences below, and refuse what it does not run with
//! "not supported yet".

use orbit::checker::Checker;
use std::collections::BTreeMap;
use std::path::PathBuf;
use workers::Outcome;

/// Models where orbit knowingly differs from Rumur, and why.
const DIFFERENCES: &[(&str, &str)] = &[
    (
        "const-folding2.m",
        "Rumur folds `0 * f()` in a type bound without calling f",
    ),
    (
        "const-folding3.m",
        "Rumur folds a function call in a type bound",
    ),
    (
        "const-folding4.m",
        "Rumur folds a function call in a type bound",
    ),
    (
        "const-folding5.m",
        "Rumur folds a function call in a type bound",
    ),
    (
        "const-folding6.m",
        "Rumur folds a function call in a type bound",
    ),
    ("uint64-model.m", "values beyond 64-bit signed integers"),
    (
        "read-slice.m",
        "Rumur runs a model without startstate (no state, no error); orbit refuses it: a run that explores nothing vouches for nothing",
    ),
    (
        "rule-no-begin.m",
        "a rule body without `begin` that orbit reads differently",
    ),
    (
        "for-step-0.m",
        "Rumur rejects `by 0` statically; orbit reports it when the loop runs",
    ),
    (
        "for-step-1.m",
        "Rumur rejects a loop that can never run; orbit runs it zero times",
    ),
    (
        "for-step-neg-1.m",
        "Rumur rejects a loop that can never run; orbit runs it zero times",
    ),
];

fn corpus() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/it/rumur_corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "m"))
        .collect();
    files.sort();
    files
}

/// What orbit does with one model: `Err(message)` if it refuses it,
/// `Ok(true)` if checking finds an error, `Ok(false)` if not, `None` if
/// the search did not finish.
fn orbit_verdict(
    path: &std::path::Path,
    deadlocks: bool,
    stuttering: bool,
) -> Option<Result<bool, String>> {
    let mut system = match orbit::frontends::murphi::load(path, &[], Default::default()) {
        Ok(s) => s,
        Err(e) => return Some(Err(e)),
    };
    system.stutter_deadlocks = stuttering;
    let run = Checker::new(&system)
        .threads(1)
        .check_deadlock(deadlocks)
        .max_states(Some(200_000))
        .time_limit(Some(std::time::Duration::from_secs(20)))
        .run()
        .expect("a valid configuration");
    match run.report.outcome {
        Outcome::Complete => Some(Ok(false)),
        Outcome::Stopped(_) => None,
        _ => Some(Ok(true)),
    }
}

#[test]
fn orbit_agrees_with_rumurs_test_models() {
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in corpus() {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let meta = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("-- {key}: ")))
                .map(str::trim)
                .map(str::to_string)
        };
        let rejects = meta("rumur_exit_code").as_deref() == Some("1");
        let error = meta("checker_exit_code").as_deref() == Some("1");
        let flags = meta("rumur_flags").unwrap_or_default();
        let deadlocks = !flags.contains("'--deadlock-detection', 'off'");
        // Rumur's default deadlock is a state that can only stutter, as in
        // CMurphi; `stuck` is a state without an enabled rule.
        let stuttering = !flags.contains("'--deadlock-detection', 'stuck'");
        let known = DIFFERENCES.iter().any(|(f, _)| *f == name);
        let got = orbit_verdict(&path, deadlocks, stuttering);
        let outcome = match (&got, rejects) {
            (Some(Err(_)), true) => "both reject",
            (Some(Err(e)), false) if e.contains("not supported yet") => "not supported yet",
            (Some(Ok(found)), false) if *found == error => "same verdict",
            (None, _) => "search stopped",
            _ => "different",
        };
        *tally.entry(outcome).or_default() += 1;
        match (outcome, known) {
            ("different" | "search stopped", false) => failures.push(format!(
                "{name}: {got:?}, Rumur rejects={rejects} error={error}"
            )),
            ("both reject" | "same verdict" | "not supported yet", true) => failures.push(format!(
                "{name} now agrees with Rumur: remove it from DIFFERENCES"
            )),
            _ => {}
        }
    }
    eprintln!("Rumur's test models: {tally:?}");
    assert!(failures.is_empty(), "{failures:#?}");
    let agree = tally.get("both reject").unwrap_or(&0) + tally.get("same verdict").unwrap_or(&0);
    assert!(agree >= 246, "only {agree} models agree: {tally:?}");
}
