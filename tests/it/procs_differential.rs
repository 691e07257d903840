//! The layers on a second front end (`procs`, see its module): symmetry,
//! partial order reduction and both together reach the brute-force oracle's
//! verdicts and counts through the model interface alone, with every order
//! and thread count; and the library's builder refuses what it cannot
//! honour.

use crate::procs::{Invariant, Live, Procs};
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

/// Brute force for AG EF p: for each reachable state (in breadth-first
/// order), whether a state satisfying `live` is reachable from it, and its
/// depth. Returns the least depth of a state from which none is, if any.
fn liveness_oracle(m: &Procs, live: Live) -> Option<usize> {
    let mut depth = std::collections::HashMap::new();
    let mut order = Vec::new();
    let mut queue = VecDeque::from([m.initial()]);
    depth.insert(m.initial(), 0usize);
    while let Some(s) = queue.pop_front() {
        order.push(s.clone());
        let d = depth[&s];
        m.next(&s, &mut |_, t| {
            if !depth.contains_key(t) {
                depth.insert(t.to_vec(), d + 1);
                queue.push_back(t.to_vec());
            }
        });
    }
    order
        .iter()
        .filter(|s| !reaches_from(m, s, live))
        .map(|s| depth[s])
        .min()
}

/// Liveness properties of generated models (acyclic ones, and cyclic ones
/// whose `total = t` level is a trap): orbit's verdict equals brute
/// force's at 1 and 2 threads, with and without symmetry where the
/// property allows it; a counterexample is a real run, as short as the
/// shallowest violating state, ending where the property is out of reach.
#[test]
fn liveness_agrees_with_brute_force() {
    let (mut held, mut failed, mut families) = (0, 0, 0);
    for n in 1..=3 {
        for k in 1..=3 {
            for t in 1..=2 {
                for cyclic in [false, true] {
                    // Each case: the properties besides `total >= 0`; a
                    // counter's are a family over every process, which
                    // symmetry checks through the permutations' images.
                    let cases: Vec<Vec<Live>> = vec![
                        vec![Live::Free],
                        vec![Live::TotalAtLeast(t)],
                        vec![Live::TotalIs(0)],
                        (0..n).map(|i| Live::CounterAt(i, k - 1)).collect(),
                        (0..n).map(|i| Live::CounterAt(i, 0)).collect(),
                    ];
                    for lives in cases {
                        let mut m = Procs::new(n, k, t, Invariant::None);
                        m.cyclic = cyclic;
                        m.liveness = vec![Live::TotalAtLeast(0)];
                        m.liveness.extend(&lives);
                        let expected = lives.iter().filter_map(|&l| liveness_oracle(&m, l)).min();
                        for threads in [1, 2] {
                            for symmetry in [false, true] {
                                let what = format!("{m:?} -j{threads} symmetry={symmetry}");
                                let checker =
                                    Checker::new(&m).threads(threads).check_deadlock(false);
                                let run = if symmetry {
                                    families += usize::from(lives.len() > 1);
                                    checker.symmetry(m.clone(), SymmetryMode::Canon).run()
                                } else {
                                    checker.run()
                                }
                                .expect("valid");
                                let report = run.report;
                                let figures = run.liveness.expect("the liveness check ran");
                                assert_eq!(figures.properties, 1 + lives.len(), "{what}");
                                match (expected, &report.outcome) {
                                    (None, Outcome::Complete) => held += 1,
                                    (Some(depth), Outcome::Violation(v)) => {
                                        failed += 1;
                                        assert_eq!(v.kind, workers::ViolationKind::Liveness);
                                        let named = *lives
                                            .iter()
                                            .find(|l| v.message.contains(&format!("\"{l:?}\"")))
                                            .unwrap_or_else(|| panic!("{what}: {}", v.message));
                                        let trace = report.trace.as_ref().expect("a trace");
                                        assert_eq!(trace.transitions(), depth, "{what}");
                                        let runs = ModelRuns(&m);
                                        for w in trace.steps.windows(2) {
                                            let next = runs.successors(&w[0].state).expect("steps");
                                            assert!(
                                                next.iter().any(|l| l.state == w[1].state),
                                                "{what}"
                                            );
                                        }
                                        let last = trace.last_state().expect("a state").to_vec();
                                        assert!(
                                            !reaches_from(&m, &last, named),
                                            "{what}: {named:?} is reachable from the trace's end"
                                        );
                                    }
                                    (e, o) => panic!("{what}: brute force {e:?}, orbit {o:?}"),
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        held > 20 && failed > 20 && families > 20,
        "{held} held, {failed} failed"
    );
}

/// A family that is not closed under the permutations (process 0's
/// counter alone) is refused under symmetry, by name.
#[test]
fn an_open_liveness_family_is_refused_under_symmetry() {
    let mut m = Procs::new(3, 2, 1, Invariant::None);
    m.cyclic = true;
    m.liveness = vec![Live::CounterAt(0, 1)];
    let run = Checker::new(&m)
        .check_deadlock(false)
        .symmetry(m.clone(), SymmetryMode::Canon)
        .run()
        .expect("valid");
    match run.report.outcome {
        Outcome::ModelError(e) => assert!(e.refused && e.message.contains("not closed"), "{e}"),
        other => panic!("{other:?}"),
    }
}

/// Whether a state satisfying `live` is reachable from `from` in `m`.
fn reaches_from(m: &Procs, from: &[u64], live: Live) -> bool {
    let mut seen = HashSet::from([from.to_vec()]);
    let mut queue = VecDeque::from([from.to_vec()]);
    while let Some(s) = queue.pop_front() {
        if m.live_holds(live, &s) {
            return true;
        }
        m.next(&s, &mut |_, t| {
            if seen.insert(t.to_vec()) {
                queue.push_back(t.to_vec());
            }
        });
    }
    false
}

#[test]
fn the_builder_refuses_liveness_with_partial_order_reduction() {
    let mut m = Procs::new(3, 2, 2, Invariant::None);
    m.liveness = vec![Live::Free];
    let e = Checker::new(&m)
        .por(m.independence(false))
        .run()
        .expect_err("refused");
    assert!(
        e.message.contains("partial order reduction with liveness"),
        "{e}"
    );
    let e = Checker::new(&m)
        .symmetry(m.clone(), SymmetryMode::Markers)
        .run()
        .expect_err("refused");
    assert!(e.message.contains("approximate"), "{e}");
}
