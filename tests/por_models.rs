//! The partial order reduction models of `models/` (Counters, CountersInv,
//! Peterson, Dekker, TokenRingPor, Philosophers, PhilosophersOrdered, Sieve,
//! PurchaseOrder) checked against the table of `models/EXPECTED.md`, section
//! "Partial order reduction models": the table is read at test time, so the
//! document and the tests cannot drift apart.
//!
//! Each row is run as `orbit check models/<machine>.mch <flags> --threads 1
//! --json`; the verdict, and the counts the row gives, must match.

mod cli_support;

use cli_support::CheckRun;

/// One row of the EXPECTED.md table.
#[derive(Debug)]
struct Row {
    machine: String,
    flags: Vec<String>,
    verdict: String,
    states: Option<u64>,
    transitions: Option<u64>,
    initial: Option<u64>,
    steps: Option<u64>,
}

const SECTION: &str = "## Partial order reduction models";

/// The rows of the section's first table.
fn expected_rows() -> Vec<Row> {
    let path = cli_support::model_path("EXPECTED.md");
    let text = std::fs::read_to_string(&path).expect("cannot read models/EXPECTED.md");
    let section = text
        .split_once(SECTION)
        .unwrap_or_else(|| panic!("models/EXPECTED.md has no section `{SECTION}`"))
        .1;
    let number = |cell: &str| -> Option<u64> {
        (cell != "-").then(|| {
            cell.parse()
                .unwrap_or_else(|_| panic!("EXPECTED.md: `{cell}` is not a count"))
        })
    };
    let rows: Vec<Row> = section
        .lines()
        .skip_while(|l| !l.starts_with("| machine |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            assert_eq!(cells.len(), 7, "EXPECTED.md: malformed row `{line}`");
            Row {
                machine: cells[0].to_string(),
                flags: cells[1].split_whitespace().map(String::from).collect(),
                verdict: cells[2].to_string(),
                states: number(cells[3]),
                transitions: number(cells[4]),
                initial: number(cells[5]),
                steps: number(cells[6]),
            }
        })
        .collect();
    assert!(
        rows.len() >= 9,
        "EXPECTED.md: the POR table has {} rows",
        rows.len()
    );
    rows
}

/// Runs `orbit check` on a row's machine with its flags and `extra`.
fn run(row: &Row, extra: &[&str]) -> CheckRun {
    let mut flags: Vec<&str> = row.flags.iter().map(String::as_str).collect();
    flags.extend_from_slice(extra);
    CheckRun::run(&format!("{}.mch", row.machine), &[], &flags)
}

#[test]
fn full_search_matches_expected_md() {
    for row in expected_rows() {
        let run = run(&row, &["--threads", "1"]);
        if run.result() != row.verdict {
            run.fail(&format!("expected verdict `{}`", row.verdict));
        }
        for (key, want) in [
            ("states", row.states),
            ("transitions", row.transitions),
            ("initial_states", row.initial),
        ] {
            if let Some(want) = want
                && run.count(key) != want
            {
                run.fail(&format!("expected {key} = {want} (EXPECTED.md)"));
            }
        }
        if let Some(steps) = row.steps
            && run.trace().len() as u64 != steps
        {
            run.fail(&format!("expected a counterexample of {steps} steps"));
        }
    }
}

#[test]
fn two_threads_agree_with_one() {
    for row in expected_rows() {
        let run = run(&row, &["--threads", "2"]);
        if run.result() != row.verdict {
            run.fail(&format!("expected verdict `{}`", row.verdict));
        }
        if let (Some(states), Some(transitions)) = (row.states, row.transitions)
            && (run.count("states"), run.count("transitions")) != (states, transitions)
        {
            run.fail(&format!(
                "expected {states} states and {transitions} transitions"
            ));
        }
    }
}

/// Every model of the table documents itself: a header comment saying what
/// it shows, where it comes from and its expected verdict.
#[test]
fn models_have_headers() {
    for row in expected_rows() {
        let path = cli_support::model_path(&format!("{}.mch", row.machine));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let header = text
            .strip_prefix("/*")
            .and_then(|t| t.split_once("*/"))
            .map(|(h, _)| h)
            .unwrap_or_else(|| panic!("{}: no header comment", path.display()));
        for needed in [
            row.machine.as_str(),
            "partial-order-reduction-prob.md",
            "Expected verdict",
        ] {
            assert!(
                header.contains(needed),
                "{}: the header does not mention `{needed}`",
                path.display()
            );
        }
    }
}
