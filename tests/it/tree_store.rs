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

#[test]
fn tree_store_agrees_with_exact_on_every_engine_and_stores_wide_states_smaller() {
    let mut exact_per_state = None;
    for threads in ["1", "2"] {
        for order in ["bfs", "dfs", "any"] {
            if order == "dfs" && threads == "2" {
                continue;
            }
            let mut counts = Vec::new();
            for store in ["exact", "tree", "compact"] {
                let args = [
                    "--no-invariant",
                    "--no-deadlock",
                    "--json",
                    "--threads",
                    threads,
                    "--order",
                    order,
                    "--store",
                    store,
                ];
                let run = check_text(WIDE, &args);
                assert_eq!(run.code, Some(0), "{args:?}: {}", run.stdout);
                let r = &run.report;
                assert_eq!(r["state_bytes"], 56, "{args:?}");
                counts.push((r["states"].clone(), r["transitions"].clone()));
                let per_state = r["store_bytes_per_state"].as_f64().unwrap();
                match store {
                    "exact" => exact_per_state = Some(per_state),
                    "tree" => {
                        // A root and a record instead of 56 bytes.
                        let exact = exact_per_state.unwrap();
                        assert!(per_state < 0.7 * exact, "tree {per_state} vs exact {exact}");
                        let nodes = r["tree_nodes"].as_u64().unwrap();
                        // Leaves 0..3 (4 values) and inner nodes: far
                        // fewer than the states.
                        assert!((4..16_384 / 2).contains(&nodes), "{nodes} nodes");
                    }
                    _ => assert!(r.get("tree_nodes").is_none()),
                }
            }
            assert_eq!(counts[0].0, 16_384);
            assert_eq!(counts[0], counts[1], "threads {threads}, order {order}");
            assert_eq!(counts[0], counts[2], "threads {threads}, order {order}");
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
