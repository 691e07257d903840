//! The layers on a second front end (`procs`, see its module): symmetry,
//! partial order reduction and both together reach the brute-force oracle's
//! verdicts and counts through the model interface alone, with every order
//! and thread count; and the library's builder refuses what it cannot
//! honour.

use crate::procs::{Invariant, Procs};
use orbit::checker::{Checker, CheckerError, ModelRuns, Order};
use orbit::model::StateSymmetry;
use orbit::model::all_permutations;
use orbit::symmetry::{RealRuns, SymmetryMode};
use std::collections::{HashSet, VecDeque};
use workers::{Outcome, Report};

/// What brute force says about a model: every reachable state, whether one
/// violates the invariant, whether one deadlocks, and the orbits.
struct Oracle {
    states: usize,
    violation: bool,
    deadlock: bool,
    orbits: usize,
}

fn oracle(m: &Procs) -> Oracle {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([m.initial()]);
    seen.insert(m.initial());
    let (mut violation, mut deadlock) = (false, false);
    while let Some(s) = queue.pop_front() {
        violation |= !m.invariant_holds(&s);
        let mut any = false;
        m.next(&s, &mut |_, t| {
            any = true;
            if seen.insert(t.to_vec()) {
                queue.push_back(t.to_vec());
            }
        });
        deadlock |= !any;
    }
    let domains = m.domains().clone();
    let perms = all_permutations(&domains.set_sizes, &domains.movable);
    let mut hooks = StateSymmetry::new_scratch(m);
    let mut image = Vec::new();
    let orbits: HashSet<Vec<u64>> = seen
        .iter()
        .map(|s| {
            perms
                .iter()
                .map(|p| {
                    assert!(m.permute(p, s, &mut hooks, &mut image));
                    image.clone()
                })
                .min()
                .expect("the identity")
        })
        .collect();
    Oracle {
        states: seen.len(),
        violation,
        deadlock,
        orbits: orbits.len(),
    }
}

/// Generated models: every size, counter range, release count and
/// invariant up to small bounds.
fn models() -> Vec<Procs> {
    let mut out = Vec::new();
    for n in 1..=4 {
        for k in 1..=3 {
            for t in 1..=3 {
                for inv in [
                    Invariant::None,
                    Invariant::TotalAtMost(t - 1),
                    Invariant::FullAtMost(1),
                    Invariant::FullAtMost(2),
                ] {
                    out.push(Procs::new(n, k, t, inv));
                }
            }
        }
    }
    out
}

/// The searches every model goes through.
const SEARCHES: [(usize, Order); 4] = [
    (1, Order::Bfs),
    (1, Order::Dfs),
    (2, Order::Bfs),
    (2, Order::Any),
];

/// Checks that `report` has `expected` outcome class and that its trace,
/// if any, is a real run of `m`.
fn check(what: &str, m: &Procs, report: &Report, violation: bool, deadlock: bool) {
    let got = match report.outcome {
        Outcome::Complete => (false, false),
        Outcome::Violation(_) => (true, false),
        Outcome::Deadlock => (false, true),
        ref other => panic!("{what}: {other:?}"),
    };
    assert_eq!(got, (violation, deadlock), "{what}");
    if let Some(trace) = &report.trace {
        let runs = ModelRuns(m);
        let initial = runs.initial().expect("initial");
        assert!(
            initial.iter().any(|l| l.state == trace.steps[0].state),
            "{what}"
        );
        for w in trace.steps.windows(2) {
            let next = runs.successors(&w[0].state).expect("successors");
            assert!(
                next.iter()
                    .any(|l| l.label == w[1].label && l.state == w[1].state),
                "{what}: {} is not a step",
                w[1].label
            );
        }
        let last = &trace.steps.last().expect("a step").state;
        if violation {
            assert!(!m.invariant_holds(last), "{what}");
        } else {
            assert!(
                runs.successors(last).expect("successors").is_empty(),
                "{what}"
            );
        }
    }
}

#[test]
fn every_layer_stack_agrees_with_brute_force_on_a_second_front_end() {
    let (mut por_reduced, mut both_reduced) = (0, 0);
    for m in models() {
        let o = oracle(&m);
        for (threads, order) in SEARCHES {
            let what = |s: &str| format!("{m:?} -j{threads} {order:?} {s}");
            // Invariant only, then deadlocks only.
            for invariant in [true, false] {
                let (violation, deadlock) = if invariant {
                    (o.violation, false)
                } else {
                    (false, o.deadlock)
                };
                let model = if invariant {
                    m.clone()
                } else {
                    Procs::new(m.n, m.k, m.t, Invariant::None)
                };
                let run = |c: Result<orbit::checker::Run, CheckerError>| c.expect("valid").report;
                let full = run(Checker::new(&model)
                    .threads(threads)
                    .order(order)
                    .check_deadlock(!invariant)
                    .run());
                check(&what("full"), &model, &full, violation, deadlock);
                let complete = matches!(full.outcome, Outcome::Complete);
                if complete {
                    assert_eq!(full.stats.states as usize, o.states, "{}", what("full"));
                }
                let coarse = run(Checker::new(&model)
                    .threads(threads)
                    .order(order)
                    .check_deadlock(!invariant)
                    .por(model.access_independence(invariant))
                    .run());
                check(
                    &what("--por (read/write)"),
                    &model,
                    &coarse,
                    violation,
                    deadlock,
                );
                let ind = model.independence(invariant);
                let por = run(Checker::new(&model)
                    .threads(threads)
                    .order(order)
                    .check_deadlock(!invariant)
                    .por(ind.clone())
                    .run());
                check(&what("--por"), &model, &por, violation, deadlock);
                assert!(por.stats.states <= full.stats.states || !complete);
                por_reduced += usize::from(complete && por.stats.states < full.stats.states);
                for mode in [SymmetryMode::Canon, SymmetryMode::Flood] {
                    let sym = run(Checker::new(&model)
                        .threads(threads)
                        .order(order)
                        .check_deadlock(!invariant)
                        .symmetry(model.clone(), mode)
                        .run());
                    check(&what(mode.name()), &model, &sym, violation, deadlock);
                    if matches!(sym.outcome, Outcome::Complete) {
                        assert_eq!(sym.stats.states as usize, o.orbits, "{}", what(mode.name()));
                    }
                    let both = run(Checker::new(&model)
                        .threads(threads)
                        .order(order)
                        .check_deadlock(!invariant)
                        .por(ind.clone())
                        .symmetry(model.clone(), mode)
                        .run());
                    let label = format!("--por --symmetry {}", mode.name());
                    check(&what(&label), &model, &both, violation, deadlock);
                    if matches!(both.outcome, Outcome::Complete) {
                        assert!(both.stats.states as usize <= o.orbits, "{}", what(&label));
                        both_reduced += usize::from(both.stats.states < sym.stats.states);
                    }
                }
            }
        }
    }
    assert!(
        por_reduced > 0 && both_reduced > 0,
        "{por_reduced} {both_reduced}"
    );
}

#[test]
fn the_builder_refuses_what_it_cannot_honour() {
    let m = Procs::new(3, 2, 2, Invariant::None);
    let err = |c: Result<orbit::checker::Run, CheckerError>| c.expect_err("refused").message;
    assert!(err(Checker::new(&m).threads(2).order(Order::Dfs).run()).contains("sequential"));
    assert!(
        err(Checker::new(&m)
            .threads(2)
            .order(Order::Mixed { seed: 3 })
            .run())
        .contains("mixed")
    );
    assert!(err(Checker::new(&m).threads(0).run()).contains("threads"));
    assert!(err(Checker::new(&m).stop_at_goal(true).run()).contains("goal"));
    assert!(
        err(Checker::new(&m)
            .symmetry(m.clone(), SymmetryMode::Markers)
            .run())
        .contains("markers")
    );
    let other = Procs::new(2, 2, 2, Invariant::None);
    assert!(err(Checker::new(&m).por(other.independence(false)).run()).contains("groups"));
    // A sequential order with one thread runs.
    let ok = Checker::new(&m)
        .order(Order::Mixed { seed: 3 })
        .run()
        .expect("valid");
    assert!(matches!(ok.report.outcome, Outcome::Deadlock));
}
