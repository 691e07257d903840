//! LTL with fairness on generated models of the test front end (`procs`)
//! against the semantics itself: every lasso of the model up to a bound
//! is enumerated, its letters read off the model, its fairness judged and
//! the formula evaluated on it ([`Ltl::holds_on_lasso`]). orbit must find a
//! violation whenever a fair violating lasso exists within the bound, and
//! every counterexample it prints must be a fair lasso of the model on
//! which the formula is false; at 1 and 2 threads, and with symmetry for
//! formulas whose atoms are invariant.

use crate::procs::{Invariant, Procs};
use orbit::checker::{Checker, ModelRuns, STUTTER_LABEL};
use orbit::model::{Model, StatePredicate};
use orbit::symmetry::{RealRuns, SymmetryMode};
use orbit::temporal::ltl::{Atom, Fairness, Ltl, Property, parse};
use workers::{Outcome, ViolationKind};

/// One position of a lasso: the state, the group of the step taken from
/// it (`None`: a deadlock's step of no operation), the groups enabled.
struct Position {
    state: Vec<u64>,
    taken: Option<usize>,
    enabled: Vec<usize>,
}

/// The successors of `s` with their groups.
fn successors(m: &Procs, s: &[u64]) -> Vec<(usize, Vec<u64>)> {
    let mut out = Vec::new();
    m.next(s, &mut |g, t| out.push((g, t.to_vec())));
    out
}

fn group_named(m: &Procs, op: &str) -> Vec<usize> {
    m.groups()
        .iter()
        .enumerate()
        .filter(|(_, g)| g.name == op)
        .map(|(k, _)| k)
        .collect()
}

/// The letter of a position (bit `a` for atom `a`).
fn letter(m: &Procs, p: &Property, preds: &[Option<StatePredicate<'_, ()>>], at: &Position) -> u64 {
    let mut bits = 0;
    for (a, atom) in p.atoms.iter().enumerate() {
        let holds = match atom {
            Atom::Predicate(_) => {
                preds[a].as_ref().expect("compiled")(&mut (), &at.state).expect("ok")
            }
            Atom::Enabled(op) => group_named(m, op).iter().any(|g| at.enabled.contains(g)),
            Atom::Taken(op) => at.taken.is_some_and(|t| group_named(m, op).contains(&t)),
            Atom::Deadlock => at.enabled.is_empty(),
        };
        if holds {
            bits |= 1 << a;
        }
    }
    bits
}

/// Whether the lasso whose cycle is `cycle` is fair for `p`.
fn fair(m: &Procs, p: &Property, cycle: &[Position]) -> bool {
    let all: Vec<(bool, Vec<usize>)> = p
        .fairness
        .iter()
        .flat_map(|f| match f {
            Fairness::Weak(op) => vec![(false, group_named(m, op))],
            Fairness::Strong(op) => vec![(true, group_named(m, op))],
            Fairness::WeakAll => (0..m.groups().len()).map(|g| (false, vec![g])).collect(),
            Fairness::StrongAll => (0..m.groups().len()).map(|g| (true, vec![g])).collect(),
        })
        .collect();
    all.iter().all(|(strong, groups)| {
        let enabled = |q: &Position| groups.iter().any(|g| q.enabled.contains(g));
        let taken = cycle
            .iter()
            .any(|q| q.taken.is_some_and(|t| groups.contains(&t)));
        let premise = if *strong {
            cycle.iter().any(enabled)
        } else {
            cycle.iter().all(enabled)
        };
        !premise || taken
    })
}

/// Whether some fair lasso of at most `bound` positions violates `p`.
fn violated_within(m: &Procs, p: &Property, bound: usize) -> bool {
    let preds: Vec<Option<StatePredicate<'_, ()>>> = p
        .atoms
        .iter()
        .map(|a| match a {
            Atom::Predicate(t) => Some(m.state_predicate(t).expect("a procs predicate")),
            _ => None,
        })
        .collect();
    let mut path = vec![m.initial()];
    let mut groups: Vec<usize> = Vec::new();
    search(m, p, &preds, &mut path, &mut groups, bound)
}

fn search(
    m: &Procs,
    p: &Property,
    preds: &[Option<StatePredicate<'_, ()>>],
    path: &mut Vec<Vec<u64>>,
    groups: &mut Vec<usize>,
    bound: usize,
) -> bool {
    let last = path.last().expect("a state").clone();
    let next = successors(m, &last);
    // Close the lasso from the last state back to every earlier one (or
    // stay in a deadlock).
    let closings: Vec<(usize, Option<usize>)> = if next.is_empty() {
        vec![(path.len() - 1, None)]
    } else {
        next.iter()
            .filter_map(|(g, t)| path.iter().position(|s| s == t).map(|j| (j, Some(*g))))
            .collect()
    };
    for (j, closing) in closings {
        let positions: Vec<Position> = (0..path.len())
            .map(|i| Position {
                state: path[i].clone(),
                taken: if i + 1 < path.len() {
                    Some(groups[i])
                } else {
                    closing
                },
                enabled: successors(m, &path[i])
                    .into_iter()
                    .map(|(g, _)| g)
                    .collect(),
            })
            .collect();
        if !fair(m, p, &positions[j..]) {
            continue;
        }
        let word: Vec<u64> = positions.iter().map(|q| letter(m, p, preds, q)).collect();
        if !p.formula.holds_on_lasso(&word, j, 0) {
            return true;
        }
    }
    if path.len() < bound {
        for (g, t) in next {
            path.push(t);
            groups.push(g);
            let found = search(m, p, preds, path, groups, bound);
            path.pop();
            groups.pop();
            if found {
                return true;
            }
        }
    }
    false
}

/// Checks that orbit's counterexample is a fair lasso of `m` violating `p`.
fn check_lasso(m: &Procs, p: &Property, trace: &workers::Trace, what: &str) {
    let start = trace.cycle_start.expect("a lasso");
    let steps = &trace.steps;
    assert_eq!(
        steps.last().unwrap().state,
        steps[start].state,
        "{what}: the lasso closes"
    );
    let runs = ModelRuns(m);
    let mut positions = Vec::new();
    for i in 0..steps.len() - 1 {
        let state = steps[i].state.to_vec();
        let next = &steps[i + 1];
        let taken = if next.label == STUTTER_LABEL {
            assert!(
                successors(m, &state).is_empty(),
                "{what}: a stutter outside a deadlock"
            );
            assert_eq!(next.state.to_vec(), state);
            None
        } else {
            let real = runs.successors(&state).expect("successors");
            assert!(
                real.iter()
                    .any(|l| l.label == next.label && l.state == next.state),
                "{what}: step {} is not a step of the model",
                i + 1
            );
            Some(group_named(m, &next.label)[0])
        };
        positions.push(Position {
            enabled: successors(m, &state).into_iter().map(|(g, _)| g).collect(),
            state,
            taken,
        });
    }
    assert!(
        fair(m, p, &positions[start..]),
        "{what}: the lasso is not fair"
    );
    let preds: Vec<Option<StatePredicate<'_, ()>>> = p
        .atoms
        .iter()
        .map(|a| match a {
            Atom::Predicate(t) => Some(m.state_predicate(t).expect("a procs predicate")),
            _ => None,
        })
        .collect();
    let word: Vec<u64> = positions.iter().map(|q| letter(m, p, &preds, q)).collect();
    assert!(
        !p.formula.holds_on_lasso(&word, start, 0),
        "{what}: the formula holds on the lasso"
    );
}

/// Random formulas over the procs atoms.
fn formula(seed: &mut u64, depth: u32, symmetric: bool) -> String {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let r = (*seed >> 33) as usize;
    if depth == 0 {
        let atoms: &[&str] = if symmetric {
            &["{free}", "{total>=1}", "deadlock", "true"]
        } else {
            &[
                "{free}",
                "{total>=1}",
                "{c0=1}",
                "e(\"acquire(0)\")",
                "[\"release(1)\"]",
                "[\"step(0)\"]",
                "deadlock",
            ]
        };
        return atoms[r % atoms.len()].to_string();
    }
    let sub = |s: &mut u64| formula(s, depth - 1, symmetric);
    match r % 8 {
        0 => format!("not ({})", sub(seed)),
        1 => format!("({}) & ({})", sub(seed), sub(seed)),
        2 => format!("({}) or ({})", sub(seed), sub(seed)),
        3 => format!("X ({})", sub(seed)),
        4 => format!("({}) U ({})", sub(seed), sub(seed)),
        5 => format!("F ({})", sub(seed)),
        6 => format!("G ({})", sub(seed)),
        _ => format!("({}) => ({})", sub(seed), sub(seed)),
    }
}

#[test]
fn ltl_agrees_with_the_semantics_on_every_short_lasso() {
    let mut seed = 11;
    let (mut violated, mut held) = (0, 0);
    let fairness = [
        "",
        "WF(\"step(0)\") => ",
        "SF(\"acquire(1)\") => ",
        "WEF => ",
        "SEF => ",
    ];
    for round in 0..160 {
        let (n, k, t) = (2, 1 + round % 2, 1 + (round / 2) % 2);
        let mut m = Procs::new(n as usize, k as u64, t as u64, Invariant::None);
        m.cyclic = round % 3 != 0;
        let symmetric = round % 4 == 0;
        let text = if symmetric {
            formula(&mut seed, 2, true)
        } else {
            format!(
                "{}{}",
                fairness[round % fairness.len()],
                formula(&mut seed, 2, false)
            )
        };
        let p = parse(&text).expect("a formula");
        let oracle = violated_within(&m, &p, 7);
        for threads in [1, 2] {
            for symmetry in [false, true] {
                if symmetry && !symmetric {
                    continue;
                }
                let what = format!("{text} on {m:?} -j{threads} symmetry={symmetry}");
                let checker = Checker::new(&m)
                    .threads(threads)
                    .check_deadlock(false)
                    .ltl("f", p.clone());
                let run = if symmetry {
                    checker.symmetry(m.clone(), SymmetryMode::Canon).run()
                } else {
                    checker.run()
                }
                .expect("valid");
                assert_eq!(run.ltl.len(), 1, "{what}");
                match &run.report.outcome {
                    Outcome::Complete => {
                        assert!(!oracle, "{what}: a fair violating lasso exists");
                        held += 1;
                    }
                    Outcome::Violation(v) if v.kind == ViolationKind::Ltl => {
                        let trace = run.report.trace.as_ref().expect("a lasso");
                        check_lasso(&m, &p, trace, &what);
                        violated += 1;
                    }
                    other => panic!("{what}: {other:?}"),
                }
            }
        }
    }
    assert!(
        violated > 50 && held > 50,
        "{violated} violated, {held} held"
    );
}

#[test]
fn a_deadlock_stays_forever_as_in_prob() {
    // Acyclic procs end in a deadlock, which repeats forever: `F G
    // deadlock` holds, a step taken infinitely often does not.
    let m = Procs::new(2, 1, 1, Invariant::None);
    let holds = |text: &str| {
        let run = Checker::new(&m)
            .check_deadlock(false)
            .ltl("f", parse(text).unwrap())
            .run()
            .unwrap();
        matches!(run.report.outcome, Outcome::Complete)
    };
    assert!(holds("F G deadlock"));
    assert!(!holds("G not deadlock"));
    assert!(holds("G (deadlock => X deadlock)"));
    assert!(!holds("G F [\"step(0)\"]"));
}

#[test]
fn the_builder_refuses_what_ltl_cannot_honour() {
    let m = Procs::new(2, 2, 1, Invariant::None);
    let err = |r: Result<orbit::checker::Run, orbit::checker::CheckerError>| {
        r.expect_err("refused").message
    };
    let f = || parse("G F {free}").unwrap();
    assert!(
        err(Checker::new(&m)
            .por(m.independence(false))
            .ltl("f", f())
            .run())
        .contains("partial order")
    );
    assert!(
        err(Checker::new(&m)
            .ltl("f", parse("G e(nothing)").unwrap())
            .run())
        .contains("`nothing`")
    );
    assert!(
        err(Checker::new(&m).ltl("f", parse("G {what}").unwrap()).run())
            .contains("unknown predicate")
    );
    assert!(
        err(Checker::new(&m)
            .symmetry(m.clone(), SymmetryMode::Markers)
            .ltl("f", f())
            .run())
        .contains("approximate")
    );
}

/// A formula naming one process, under symmetry: the invariance check
/// refuses the run.
#[test]
fn an_atom_that_is_not_invariant_is_refused_under_symmetry() {
    let m = Procs::new(3, 2, 1, Invariant::None);
    let run = Checker::new(&m)
        .check_deadlock(false)
        .symmetry(m.clone(), SymmetryMode::Canon)
        .ltl("f", parse("G F {c0=1}").unwrap())
        .run()
        .unwrap();
    match run.report.outcome {
        Outcome::ModelError(e) => assert!(e.refused && e.message.contains("not invariant"), "{e}"),
        other => panic!("{other:?}"),
    }
    let _ = Ltl::True;
}
