//! Counterexamples under symmetry are real runs: on every symmetric model
//! with an invariant violation, a deadlock or a goal (the violations
//! injected into temporary variants where the model has none), in every
//! reduction mode and with 1 and 2 threads, the trace mapped back through
//! the permutations of its steps (`SymmetryLayer::real_trace`) starts in
//! an initial state, takes each step by the named operation with those
//! parameters, and ends in a state with the reported verdict.

use crate::sym_support;

use orbit::checker::ModelRuns;
use orbit::model::Model;
use orbit::symmetry::RealRuns;
use sym_support::{
    MODES, Sets, load, load_path, not_a_real_run, real_trace, reduced_view, variant,
};
use workers::{Config, Outcome};

/// What the last state of a trace must be.
#[derive(Clone, Copy, Debug)]
enum Verdict {
    Violation,
    Deadlock,
    Goal,
}

/// Models with their own error, deadlock or goal.
const NATURAL: &[(&str, Sets, Verdict)] = &[
    ("SymCounterEx.mch", &[], Verdict::Violation),
    ("TicTacToe_SimplerSym.mch", &[], Verdict::Deadlock),
    ("TicTacToe_Sym.mch", &[], Verdict::Deadlock),
    ("TicTacToe_SimplerSym.mch", &[], Verdict::Goal),
    ("RussianPostalPuzzle.mch", &[("KeyIDs", 3)], Verdict::Goal),
    ("prob_wiki_m.mch", &[], Verdict::Deadlock),
    ("prob_wiki_partition.mch", &[], Verdict::Deadlock),
];

/// Models with an invariant conjunct that fails a few steps in.
const INJECTED: &[(&str, Sets, &str)] = &[
    ("scheduler0.mch", &[("PROC", 3)], "card(proc) <= 2"),
    ("scheduler1.mch", &[("PROC", 3)], "size(readyq) <= 1"),
    ("TokenRing.mch", &[("Servers", 3)], "card(requests) <= 1"),
    (
        "Dining.mch",
        &[("Phil", 3), ("Forks", 3)],
        "card(taken) <= 2",
    ),
    ("Towns.mch", &[("TOWN", 3)], "card(roads) <= 2"),
    (
        "USB_4Endpoints.mch",
        &[("TRANSFERS", 2)],
        "card(transfers) <= 1",
    ),
    ("Personnel.mch", &[("NAME", 3)], "card(staff_council) <= 1"),
    ("Club.mch", &[("Person", 3)], "card(member) <= 1"),
    ("LoginVerySimple.mch", &[], "card(active) <= 1"),
    ("Course.mch", &[("Student", 3)], "card(class) <= 1"),
];

/// How much mapping back changed: steps whose real state differs from the
/// representative, and steps whose label (parameters) was renamed.
#[derive(Default)]
struct Renamed {
    states: usize,
    labels: usize,
}

/// Explores `system` in every mode and thread count and checks the traces.
fn check_traces(
    name: &str,
    system: &orbit::frontends::b::system::BSystem,
    verdict: Verdict,
    renamed: &mut Renamed,
) {
    for mode in MODES {
        for threads in [1, 2] {
            let what = format!("{name} --symmetry {mode} --threads {threads} ({verdict:?})");
            let reduced = reduced_view(system, mode);
            let config = Config {
                threads,
                check_deadlock: matches!(verdict, Verdict::Deadlock),
                stop_at_goal: matches!(verdict, Verdict::Goal),
                ..Config::default()
            };
            let report = workers::explore(&reduced, &config);
            let expected = matches!(
                (&report.outcome, verdict),
                (Outcome::Violation(_), Verdict::Violation)
                    | (Outcome::Deadlock, Verdict::Deadlock)
                    | (Outcome::GoalFound, Verdict::Goal)
            );
            assert!(expected, "{what}: got {:?}", report.outcome);
            let trace = report.trace.expect("a trace");
            let real = real_trace(&reduced, &trace).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(real.steps.len(), trace.steps.len(), "{what}");
            for (r, t) in real.steps.iter().zip(&trace.steps) {
                renamed.states += usize::from(r.state != t.state);
                renamed.labels += usize::from(r.label != t.label);
            }
            if let Some(why) = not_a_real_run(system, &real) {
                panic!("{what}: {why}");
            }
            let last = &real.steps.last().expect("steps").state;
            let mut scratch = system.new_scratch();
            let holds = match verdict {
                Verdict::Violation => system
                    .check_state(&mut scratch, last)
                    .expect("check")
                    .is_some(),
                Verdict::Deadlock => ModelRuns(system).successors(last).expect("succ").is_empty(),
                Verdict::Goal => system.is_goal(&mut scratch, last).expect("goal"),
            };
            assert!(holds, "{what}: the last real state is not a {verdict:?}");
        }
    }
}

#[test]
fn traces_of_models_with_their_own_errors_are_real_runs() {
    let mut renamed = Renamed::default();
    for &(model, sets, verdict) in NATURAL {
        check_traces(model, &load(model, sets), verdict, &mut renamed);
    }
    assert!(renamed.states > 0, "no trace needed mapping back");
}

#[test]
fn traces_of_injected_invariant_violations_are_real_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut renamed = Renamed::default();
    for &(model, sets, extra) in INJECTED {
        let system = load_path(&variant(dir.path(), model, extra), sets);
        assert!(
            !system.interchangeable.is_trivial(),
            "{model} has no symmetry"
        );
        check_traces(model, &system, Verdict::Violation, &mut renamed);
    }
    assert!(
        renamed.states > 0 && renamed.labels > 0,
        "no trace was renamed"
    );
}

#[test]
fn broken_traces_are_rejected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = variant(dir.path(), "scheduler0.mch", "card(proc) <= 2");
    let system = load_path(&path, &[("PROC", 3)]);
    let reduced = reduced_view(&system, "canon");
    let report = workers::explore(&reduced, &Config::default());
    let trace = report.trace.expect("a trace");
    assert!(trace.steps.len() >= 3);
    // A step relabelled with another operation has no real counterpart.
    let mut wrong_label = trace.clone();
    wrong_label.steps[2].label = "no_such_operation".to_string();
    assert!(real_trace(&reduced, &wrong_label).is_err());
    // A real run with two steps swapped is not a run.
    let real = real_trace(&reduced, &trace).expect("maps back");
    assert_eq!(not_a_real_run(&system, &real), None);
    let mut swapped = real.clone();
    swapped.steps.swap(1, 2);
    assert!(not_a_real_run(&system, &swapped).is_some());
}
