//! The partial order reduction models of `models/` (Counters, CountersInv,
//! Peterson, PetersonCounters, Dekker, TokenRingPor, Philosophers,
//! PhilosophersOrdered, Sieve, PurchaseOrder) checked against the table of `models/EXPECTED.md`, section
//! "Partial order reduction models": the table is read at test time, so the
//! document and the tests cannot drift apart.
//!
//! Each row is run as `orbit check models/<machine>.mch <flags> --threads 1
//! --json`; the verdict, and the counts the row gives, must match.

use crate::cli_support;

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
        rows.len() >= 11,
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
            "[Dobrikov, Leuschel 2014]",
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

/// `--por` reaches the full search's verdict on every row, on one and two
/// threads, and never explores more states.
#[test]
fn por_verdicts_equal_full_verdicts() {
    for row in expected_rows() {
        for threads in ["1", "2"] {
            let run = run(&row, &["--por", "--threads", threads]);
            if run.result() != row.verdict {
                run.fail(&format!(
                    "expected the full search's verdict `{}`",
                    row.verdict
                ));
            }
            if let Some(states) = row.states
                && run.count("states") > states
            {
                run.fail(&format!("more states than the full search's {states}"));
            }
            if run.json["por"].is_null() {
                run.fail("no `por` section in the report");
            }
        }
    }
}

/// Deadlock-only checking (`--no-invariant`): `--por` finds a deadlock
/// exactly when the full search does, on every model.
#[test]
fn por_finds_the_same_deadlocks() {
    for row in expected_rows()
        .into_iter()
        .filter(|r| !r.flags.iter().any(|f| f == "--no-deadlock"))
    {
        let full = run(&row, &["--no-invariant", "--threads", "1"]);
        for threads in ["1", "2"] {
            let por = run(&row, &["--no-invariant", "--por", "--threads", threads]);
            if por.result() != full.result() {
                por.fail(&format!(
                    "the full deadlock-only search says `{}`",
                    full.result()
                ));
            }
            if full.result() == "ok" && por.count("states") > full.count("states") {
                por.fail("more states than the full search");
            }
        }
    }
}

/// The best case of the paper: independent counters. Ample sets of one
/// operation cut the state space to a sliver (the paper, checking deadlocks
/// only: 110,813 states to 152); Philosophers' deadlock is still found.
#[test]
fn counters_reduce_strongly_without_losing_deadlocks() {
    let rows = expected_rows();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.machine == name && r.flags.is_empty())
            .unwrap_or_else(|| panic!("EXPECTED.md has no row for {name}"))
    };
    for (name, full_states) in [("Counters", 256), ("CountersInv", 7776)] {
        let full = run(row(name), &["--no-invariant", "--threads", "1"]);
        assert_eq!(full.count("states"), full_states, "{}", full.command);
        let por = run(row(name), &["--no-invariant", "--por", "--threads", "1"]);
        if por.result() != "ok" || por.count("states") * 10 > full_states {
            por.fail(&format!(
                "expected no error in under a tenth of the {full_states} states"
            ));
        }
    }
    // Counters' invariant only types the counters, which the increments
    // provably preserve: the reduction works with the invariant checked too.
    let por = run(row("Counters"), &["--por", "--threads", "1"]);
    if por.result() != "ok" || por.count("states") * 10 > 256 {
        por.fail("expected no error in under a tenth of the 256 states");
    }
    let por = run(row("Philosophers"), &["--no-invariant", "--por"]);
    if por.result() != "deadlock" {
        por.fail("the deadlock of Philosophers was lost");
    }
}
