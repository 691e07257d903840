//! The registry of front ends: a front end outside orbit (the tests'
//! procs language) registers through the same trait as B and Murphi, and
//! the generic commands run on it: its flags are its own, a check agrees
//! with the checker run on the model directly, its state graphs and its
//! partial order analysis come from the generic path.

use crate::procs::front_end::ProcsFrontEnd;
use crate::procs::{Invariant, Procs};
use orbit::checker::Checker;
use orbit::frontends::{CheckJob, LoadRequest, Registry};
use orbit::symmetry::SymmetryMode;
use std::path::Path;

fn registry() -> Registry {
    Registry::builtin().with(Box::new(ProcsFrontEnd))
}

/// The command line of a model command, with every front end's flags.
fn matches(registry: &Registry, args: &[&str]) -> clap::ArgMatches {
    registry
        .args(clap::Command::new("check").arg(clap::Arg::new("model")))
        .try_get_matches_from(std::iter::once("check").chain(args.iter().copied()))
        .expect("parses")
}

fn json(summary: &orbit::report::RunSummary) -> serde_json::Value {
    serde_json::from_str(&summary.to_json()).expect("JSON")
}

#[test]
fn a_registered_front_end_runs_the_generic_check_with_its_own_flags() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("four.procs");
    std::fs::write(&path, "4 2 1\n").expect("write");
    let registry = registry();
    let front_end = registry.for_path(&path).expect("registered");
    assert_eq!(front_end.name(), "procs");
    let cli = matches(&registry, &[path.to_str().unwrap(), "--releases", "2"]);
    registry
        .refuse_foreign_flags(front_end, &cli)
        .expect("its own flag");
    let request = LoadRequest {
        args: Some(&cli),
        ..LoadRequest::new(&path)
    };
    let loaded = front_end.load(&request).expect("loads");
    let direct = Procs::new(4, 2, 2, Invariant::None);
    for (symmetry, por) in [
        (None, false),
        (Some(SymmetryMode::Canon), false),
        (None, true),
    ] {
        for threads in [1, 2] {
            let job = CheckJob {
                threads,
                check_deadlock: false,
                symmetry,
                por,
                ..CheckJob::new(&path)
            };
            let summary = loaded.check(&job).expect("runs");
            let report = json(&summary);
            assert_eq!(report["result"], "ok", "{report}");
            let checker = Checker::new(&direct).threads(threads).check_deadlock(false);
            let expected = match (symmetry, por) {
                (Some(mode), _) => checker.symmetry(direct.clone(), mode).run(),
                (None, true) => checker.por(direct.independence(true)).run(),
                (None, false) => checker.run(),
            }
            .expect("valid")
            .report;
            assert_eq!(
                report["states"], expected.stats.states,
                "{symmetry:?} {por}"
            );
            assert_eq!(report["transitions"], expected.stats.transitions);
            if symmetry.is_some() {
                assert_eq!(report["symmetry"]["group_order"], 24);
            }
        }
    }
    // Its flag is refused for a model of another language, by name.
    let cli = matches(&registry, &["m.mch", "--releases", "2"]);
    let b = registry.for_path(Path::new("m.mch")).unwrap();
    let err = registry.refuse_foreign_flags(b, &cli).expect_err("refused");
    assert!(
        err.contains("`--releases` applies to procs models only"),
        "{err}"
    );
}

#[test]
fn a_registered_front_end_gets_state_graphs_and_a_por_analysis() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("three.procs");
    std::fs::write(&path, "3 2 1 total<=0\n").expect("write");
    let registry = registry();
    let loaded = registry
        .for_path(&path)
        .unwrap()
        .load(&LoadRequest::new(&path))
        .expect("loads");
    let graphs = loaded.state_graphs(5).expect("graphs");
    assert_eq!(graphs.len(), 5);
    // Three process atoms in every graph.
    assert!(graphs.iter().all(|g| g.vertex_count() >= 3));
    let analysis = loaded.por_analysis(100).expect("analysis");
    let names: Vec<&str> = analysis
        .report
        .operations
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(names[..3], ["step(0)", "acquire(0)", "release(0)"]);
    // Two acquires are dependent, a step and an acquire of another
    // process are not (the front end's own relations).
    let pair = |a: &str, b: &str| {
        analysis
            .report
            .pairs
            .iter()
            .find(|p| p.a == a && p.b == b)
            .map(|p| p.dependent)
    };
    assert_eq!(pair("acquire(0)", "acquire(1)"), Some(true));
    assert_eq!(pair("step(0)", "acquire(1)"), Some(false));
    assert!(analysis.dot().contains("\"acquire(0)\" -- \"acquire(1)\""));
    assert!(analysis.text.contains("dependency matrix"));
    // The invariant `total <= 0` fails after the first release.
    let summary = loaded.check(&CheckJob::new(&path)).expect("runs");
    assert_eq!(json(&summary)["result"], "invariant_violation");
}
