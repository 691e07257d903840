//! `--store tree`: the tree-compressed exact store explores exactly what
//! the exact store does (counts, verdicts, traces) on every engine, and
//! takes less memory per state when states are several words wide.

use std::process::Command;

/// Seven counters 0..3 (4^7 = 16,384 states). With `--no-invariant`
/// nothing bounds them, so each is stored in a whole word: a 7-word state
/// (an odd width, so the tree carries a node up a level). Every counter at
/// 3 is the only deadlock, 21 operations after the initialisation.
const WIDE: &str = "MACHINE Wide
VARIABLES a1, a2, a3, a4, a5, a6, a7
INVARIANT a1 : 0..3 & a2 : 0..3 & a3 : 0..3 & a4 : 0..3 & a5 : 0..3 & a6 : 0..3 & a7 : 0..3
INITIALISATION a1, a2, a3, a4, a5, a6, a7 := 0, 0, 0, 0, 0, 0, 0
OPERATIONS
  i1 = PRE a1 < 3 THEN a1 := a1 + 1 END;
  i2 = PRE a2 < 3 THEN a2 := a2 + 1 END;
  i3 = PRE a3 < 3 THEN a3 := a3 + 1 END;
  i4 = PRE a4 < 3 THEN a4 := a4 + 1 END;
  i5 = PRE a5 < 3 THEN a5 := a5 + 1 END;
  i6 = PRE a6 < 3 THEN a6 := a6 + 1 END;
  i7 = PRE a7 < 3 THEN a7 := a7 + 1 END
END
";

struct Run {
    code: Option<i32>,
    stdout: String,
    report: serde_json::Value,
}

fn check_file(path: &std::path::Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_orbit"))
        .arg("check")
        .arg(path)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let report = if args.contains(&"--json") {
        let report = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
        crate::json_schema::check_report(&report);
        report
    } else {
        serde_json::Value::Null
    };
    Run {
        code: out.status.code(),
        stdout,
        report,
    }
}

fn check_text(text: &str, args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Wide.mch");
    std::fs::write(&path, text).unwrap();
    check_file(&path, args)
}

fn model(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

/// Runs `path` with every store on one engine; returns each store's
/// (states, transitions) and checks that the tree takes less memory per
/// state than the exact store.
fn stores_on(
    path: &std::path::Path,
    extra: &[&str],
    threads: &str,
    order: &str,
) -> Vec<(u64, u64)> {
    let mut exact_per_state = 0.0;
    let mut counts = Vec::new();
    for store in ["exact", "tree", "compact"] {
        let mut args = vec![
            "--no-deadlock",
            "--json",
            "--threads",
            threads,
            "--order",
            order,
            "--store",
            store,
        ];
        args.extend_from_slice(extra);
        let run = check_file(path, &args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stdout);
        let r = &run.report;
        counts.push((
            r["states"].as_u64().unwrap(),
            r["transitions"].as_u64().unwrap(),
        ));
        let per_state = r["store_bytes_per_state"].as_f64().unwrap();
        match store {
            "exact" => exact_per_state = per_state,
            "tree" => {
                // A root and a record instead of the whole state.
                assert!(
                    per_state < 0.7 * exact_per_state,
                    "{args:?}: tree {per_state} vs exact {exact_per_state}"
                );
                let nodes = r["tree_nodes"].as_u64().unwrap();
                // Counter values and the pairs of them: far fewer nodes
                // than states.
                assert!((4..counts[0].0 / 8).contains(&nodes), "{nodes} nodes");
            }
            _ => assert!(r.get("tree_nodes").is_none()),
        }
    }
    counts
}

#[test]
fn tree_store_agrees_with_exact_on_every_engine_and_stores_wide_states_smaller() {
    let dir = tempfile::tempdir().unwrap();
    let seven = dir.path().join("Wide.mch");
    std::fs::write(&seven, WIDE).unwrap();
    let eight = model("WideCounters.mch");
    for threads in ["1", "2"] {
        for order in ["bfs", "dfs", "any"] {
            if order == "dfs" && threads == "2" {
                continue;
            }
            // Eight words (the bundled model; EXPECTED.md) and seven.
            let counts = stores_on(&eight, &[], threads, order);
            assert_eq!(
                counts,
                vec![(65_536, 393_217); 3],
                "{threads} threads, {order}"
            );
            let counts = stores_on(&seven, &["--no-invariant"], threads, order);
            assert_eq!(
                counts,
                vec![(16_384, 86_016); 3],
                "{threads} threads, {order}"
            );
        }
    }
}

#[test]
fn tree_store_traces_are_the_exact_stores_traces() {
    // The deadlock (every counter at 3) with the shortest trace, read back
    // from the tree's nodes state by state.
    for threads in ["1", "2"] {
        let runs: Vec<Run> = ["exact", "tree"]
            .iter()
            .map(|store| {
                check_text(
                    WIDE,
                    &["--no-invariant", "--threads", threads, "--store", store],
                )
            })
            .collect();
        for run in &runs {
            assert_eq!(run.code, Some(1), "{}", run.stdout);
            assert!(
                run.stdout.contains("counterexample (22 steps)"),
                "{}",
                run.stdout
            );
            assert!(run.stdout.contains("a7 = 3"), "{}", run.stdout);
        }
        let trace = |s: &str| {
            s.lines()
                .skip_while(|l| !l.contains("counterexample"))
                .take_while(|l| !l.starts_with("distinct states"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        if threads == "1" {
            assert_eq!(trace(&runs[0].stdout), trace(&runs[1].stdout));
        }
    }
}

#[test]
fn tree_store_agrees_with_exact_under_symmetry_and_on_murphi() {
    // PetersonN's 10-byte states take two words; flooding stores every
    // permutation of a state through the same tree.
    let peterson = model("PetersonN.mch");
    for symmetry in ["off", "flood", "canon"] {
        for threads in ["1", "2"] {
            let counts: Vec<_> = ["exact", "tree"]
                .iter()
                .map(|store| {
                    let run = check_file(
                        &peterson,
                        &[
                            "--set",
                            "PID=4",
                            "--symmetry",
                            symmetry,
                            "--threads",
                            threads,
                            "--store",
                            store,
                            "--json",
                        ],
                    );
                    assert_eq!(run.code, Some(0), "{}", run.stdout);
                    (
                        run.report["states"].clone(),
                        run.report["transitions"].clone(),
                    )
                })
                .collect();
            assert_eq!(
                counts[0], counts[1],
                "symmetry {symmetry}, threads {threads}"
            );
        }
    }
    let german = model("murphi/german.m");
    let states: Vec<_> = ["exact", "tree"]
        .iter()
        .map(|store| {
            let run = check_file(&german, &["--no-deadlock", "--store", store, "--json"]);
            assert_eq!(run.code, Some(0), "{}", run.stdout);
            run.report["states"].clone()
        })
        .collect();
    assert_eq!(states[0], states[1]);
}

#[test]
fn compact_is_refused_with_another_store() {
    let run = check_text(WIDE, &["--compact", "--store", "tree"]);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
}
