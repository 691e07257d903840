//! LTL with fairness on generated models of the test front end (`procs`)
//! against the semantics itself: every lasso of the model up to a bound
//! is enumerated, its letters read off the model, its fairness judged and
//! the formula evaluated on it ([`Ltl::holds_on_lasso`]). orbit must find a
//! violation whenever a fair violating lasso exists within the bound, and
//! every counterexample it prints must be a fair lasso of the model on
//! which the formula is false; at 1 and 2 threads, and with symmetry for
//! formulas whose atoms are invariant.

use crate::procs::{Invariant, Procs};
use orbit::checker::{Checker, ModelRuns, Run, STUTTER_LABEL};
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
            Atom::TakenWith(..) => panic!("procs has no step arguments"),
            Atom::EnabledAmong(among, ops) => among.holds(
                ops.iter()
                    .filter(|op| group_named(m, op).iter().any(|g| at.enabled.contains(g)))
                    .count(),
            ),
            Atom::Sink => successors(m, &at.state).iter().all(|(_, t)| *t == at.state),
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

/// Checks `p` on `m` with `threads` threads, deadlocks off, with canonical
/// symmetry reduction and partial order reduction if asked.
fn run_ltl(m: &Procs, p: &Property, threads: usize, symmetry: bool, por: bool) -> Run {
    let mut checker = Checker::new(m)
        .threads(threads)
        .check_deadlock(false)
        .ltl("f", p.clone());
    if por {
        checker = checker.por(m.independence(false));
    }
    if symmetry {
        checker.symmetry(m.clone(), SymmetryMode::Canon).run()
    } else {
        checker.run()
    }
    .expect("valid")
}

/// Random formulas over the procs atoms.
fn formula(seed: &mut u64, depth: u32, symmetric: bool) -> String {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let r = (*seed >> 33) as usize;
    if depth == 0 {
        let atoms: &[&str] = if symmetric {
            &["{free}", "{total>=1}", "deadlock", "true", "sink"]
        } else {
            &[
                "{free}",
                "{total>=1}",
                "{c0=1}",
                "e(\"acquire(0)\")",
                "[\"release(1)\"]",
                "[\"step(0)\"]",
                "deadlock",
                "controller(\"acquire(0)\",\"step(1)\")",
                "deadlock(\"step(0)\",\"release(1)\")",
                "deterministic(\"acquire(0)\",\"acquire(1)\")",
                "sink",
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
                let run = run_ltl(&m, &p, threads, symmetry, false);
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

/// Several properties in one run share one graph of the model, each with
/// its own letters and fairness: the run reports the first (in order) that
/// the oracle finds violated, after one figure per property checked.
#[test]
fn several_properties_share_one_graph_and_stop_at_the_first_violated() {
    let mut seed = 29;
    let fairness = ["", "WF(\"step(0)\") => ", "SF(\"acquire(1)\") => "];
    let mut stopped_late = 0;
    for round in 0..40 {
        let mut m = Procs::new(2, 1 + round % 2, 1, Invariant::None);
        m.cyclic = round % 3 != 0;
        let properties: Vec<Property> = (0..3)
            .map(|i| {
                let text = format!(
                    "{}{}",
                    fairness[(round as usize + i) % fairness.len()],
                    formula(&mut seed, 2, false)
                );
                parse(&text).expect("a formula")
            })
            .collect();
        let first_violated = properties.iter().position(|p| violated_within(&m, p, 7));
        for threads in [1, 2] {
            let mut checker = Checker::new(&m).threads(threads).check_deadlock(false);
            for (i, p) in properties.iter().enumerate() {
                checker = checker.ltl(format!("f{i}"), p.clone());
            }
            let run = checker.run().expect("valid");
            let texts: Vec<&str> = properties.iter().map(|p| p.text.as_str()).collect();
            let what = format!("{texts:?} on {m:?} -j{threads}");
            match (first_violated, &run.report.outcome) {
                (None, Outcome::Complete) => assert_eq!(run.ltl.len(), 3, "{what}"),
                (Some(k), Outcome::Violation(v)) if v.kind == ViolationKind::Ltl => {
                    assert_eq!(run.ltl.len(), k + 1, "{what}");
                    assert!(
                        v.message.contains(&format!("`f{k}`")),
                        "{what}: {}",
                        v.message
                    );
                    let trace = run.report.trace.as_ref().expect("a lasso");
                    check_lasso(&m, &properties[k], trace, &what);
                    if k > 0 {
                        stopped_late += 1;
                    }
                }
                (expected, other) => panic!("{what}: expected {expected:?}, got {other:?}"),
            }
        }
    }
    assert!(
        stopped_late > 0,
        "no run found its violation after a property that held"
    );
}

/// A random formula without `X` and `[op]`, which partial order
/// reduction preserves.
fn stutter_invariant_formula(seed: &mut u64, symmetric: bool) -> String {
    loop {
        let text = formula(seed, 2, symmetric);
        if !text.contains("X (") && !text.contains('[') && !text.contains("sink") {
            return text;
        }
    }
}

/// Partial order reduction of the LTL check's graph (formulas without `X`,
/// `[op]` and fairness) gives the unreduced verdict at 1 and 2 threads,
/// with and without symmetry, and every counterexample is a lasso of the
/// model that violates the formula; on some runs the graph is smaller.
#[test]
fn partial_order_reduction_keeps_every_ltl_verdict() {
    let mut seed = 47;
    let (mut smaller, mut violated, mut held) = (0, 0, 0);
    for round in 0..90 {
        let (n, k, t) = (2 + round % 2, 1 + (round / 2) % 2, 1 + (round / 4) % 2);
        let mut m = Procs::new(n, k as u64, t as u64, Invariant::None);
        m.cyclic = round % 3 != 0;
        let symmetric = round % 4 == 0;
        let text = stutter_invariant_formula(&mut seed, symmetric);
        let p = parse(&text).expect("a formula");
        let plain = run_ltl(&m, &p, 1, false, false);
        let expected = matches!(plain.report.outcome, Outcome::Complete);
        let full_states = plain.ltl.first().map(|r| r.figures.model_states);
        for threads in [1, 2] {
            for symmetry in [false, true] {
                if symmetry && !symmetric {
                    continue;
                }
                let what = format!("{text} on {m:?} --por -j{threads} symmetry={symmetry}");
                let run = run_ltl(&m, &p, threads, symmetry, true);
                match &run.report.outcome {
                    Outcome::Complete => {
                        assert!(expected, "{what}: violated without reduction");
                        held += 1;
                    }
                    Outcome::Violation(v) if v.kind == ViolationKind::Ltl => {
                        assert!(!expected, "{what}: holds without reduction");
                        let trace = run.report.trace.as_ref().expect("a lasso");
                        check_lasso(&m, &p, trace, &what);
                        violated += 1;
                    }
                    other => panic!("{what}: {other:?}"),
                }
                if !symmetry && let (Some(full), Some(reduced)) = (full_states, run.ltl.first()) {
                    assert!(reduced.figures.model_states <= full, "{what}");
                    if reduced.figures.model_states < full {
                        smaller += 1;
                    }
                }
            }
        }
    }
    assert!(
        violated > 20 && held > 20 && smaller > 20,
        "{violated} violated, {held} held, {smaller} smaller graphs"
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
    for (formula, what) in [
        ("G X {free}", "next-time"),
        ("G F [\"step(0)\"]", "step atom"),
        ("WF(\"step(0)\") => G F {free}", "fairness"),
    ] {
        let message = err(Checker::new(&m)
            .por(m.independence(false))
            .ltl("f", parse(formula).unwrap())
            .run());
        assert!(
            message.contains("partial order reduction") && message.contains(what),
            "{formula}: {message}"
        );
    }
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

/// A never claim as `spin -f` prints it: states (accepting or not) with
/// guarded transitions. `atomic { (g) -> assert(...) }` is a transition
/// on `g` to an accepting sink (the claim is violated at once), and a
/// state whose body is `skip` an accepting state that loops on anything.
struct NeverClaim {
    accepting: Vec<bool>,
    /// (from, guard, to); `usize::MAX` as `to`: the accepting sink.
    edges: Vec<(usize, String, usize)>,
}

fn never_claim(text: &str) -> NeverClaim {
    let mut names: Vec<Vec<String>> = Vec::new();
    let mut bodies: Vec<Vec<String>> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("never") || line == "}" || line.is_empty() || line.starts_with("/*") {
            continue;
        }
        if let Some(label) = line.strip_suffix(':') {
            pending.push(label.to_string());
            continue;
        }
        if !pending.is_empty() {
            names.push(std::mem::take(&mut pending));
            bodies.push(Vec::new());
        }
        bodies.last_mut().expect("a state").push(line.to_string());
    }
    let index = |target: &str| {
        names
            .iter()
            .position(|ls| ls.iter().any(|l| l == target))
            .unwrap_or_else(|| panic!("no state {target} in\n{text}"))
    };
    let mut claim = NeverClaim {
        accepting: names
            .iter()
            .map(|ls| ls.iter().any(|l| l.starts_with("accept")))
            .collect(),
        edges: Vec::new(),
    };
    for (q, body) in bodies.iter().enumerate() {
        for line in body {
            if line == "skip" {
                claim.accepting[q] = true;
                claim.edges.push((q, "1".into(), q));
            } else if let Some(rest) = line.strip_prefix(":: atomic { ") {
                let guard = rest.split(" -> assert").next().expect("a guard");
                claim.edges.push((q, guard.to_string(), usize::MAX));
            } else if let Some(rest) = line.strip_prefix(":: ") {
                let (guard, target) = rest.split_once(" -> goto ").expect("a transition");
                claim
                    .edges
                    .push((q, guard.to_string(), index(target.trim())));
            }
        }
    }
    claim
}

/// Evaluates a guard of a never claim on `letter` (bit `k` for `pk`).
fn guard_holds(guard: &str, letter: u64) -> bool {
    fn or(t: &[&str], at: &mut usize, letter: u64) -> bool {
        let mut v = and(t, at, letter);
        while t.get(*at) == Some(&"||") {
            *at += 1;
            v |= and(t, at, letter);
        }
        v
    }
    fn and(t: &[&str], at: &mut usize, letter: u64) -> bool {
        let mut v = unary(t, at, letter);
        while t.get(*at) == Some(&"&&") {
            *at += 1;
            v &= unary(t, at, letter);
        }
        v
    }
    fn unary(t: &[&str], at: &mut usize, letter: u64) -> bool {
        let tok = t[*at];
        *at += 1;
        match tok {
            "!" => !unary(t, at, letter),
            "(" => {
                let v = or(t, at, letter);
                assert_eq!(t[*at], ")");
                *at += 1;
                v
            }
            "1" | "true" => true,
            "0" | "false" => false,
            p => {
                let k: u64 = p.strip_prefix('p').expect("an atom").parse().expect("pN");
                letter >> k & 1 == 1
            }
        }
    }
    let spaced = guard
        .replace('(', " ( ")
        .replace(')', " ) ")
        .replace('!', " ! ")
        .replace("&&", " && ")
        .replace("||", " || ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let mut at = 0;
    or(&tokens, &mut at, letter)
}

/// Whether the never claim accepts the lasso `word` looping at `start`.
fn claim_accepts(claim: &NeverClaim, word: &[u64], start: usize) -> bool {
    let n = word.len();
    let q = claim.accepting.len() + 1;
    let sink = q - 1;
    let id = |pos: usize, s: usize| pos * q + s;
    let next = |pos: usize| if pos + 1 < n { pos + 1 } else { start };
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n * q];
    for pos in 0..n {
        for (from, guard, to) in &claim.edges {
            if guard_holds(guard, word[pos]) {
                let to = if *to == usize::MAX { sink } else { *to };
                succ[id(pos, *from)].push(id(next(pos), to));
            }
        }
        succ[id(pos, sink)].push(id(next(pos), sink));
    }
    let accepting = |v: usize| {
        let s = v % q;
        s == sink || claim.accepting[s]
    };
    let reach = |from: usize| {
        let mut seen = vec![false; n * q];
        let mut stack = vec![from];
        while let Some(v) = stack.pop() {
            for &w in &succ[v] {
                if !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        seen
    };
    let mut from_initial = reach(id(0, 0));
    from_initial[id(0, 0)] = true;
    (0..n * q).any(|v| from_initial[v] && accepting(v) && reach(v)[v])
}

/// SPIN's translator (`spin -f`) and orbit's accept the same lassos for
/// the negations of random formulas without `X` (Debian's spin is built
/// without it): every word of up to 4 letters over 2 atoms, every loop
/// start.
#[test]
#[ignore = "needs spin (apt-get install spin); .ci/run runs it with --ignored external_"]
fn external_spin_translates_formulas_as_orbit_does() {
    let mut seed = 3u64;
    let mut compared = 0;
    while compared < 120 {
        let f = random_formula(&mut seed, 3);
        if f.uses_next() {
            continue;
        }
        let negated = Ltl::negation(f.clone());
        let out = std::process::Command::new("spin")
            .arg("-f")
            .arg(negated.to_spin())
            .output()
            .expect("spin runs (apt-get install spin)");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            text.contains("never"),
            "spin -f {}: {text}{}",
            negated.to_spin(),
            String::from_utf8_lossy(&out.stderr)
        );
        let claim = never_claim(&text);
        let ours = orbit::temporal::ltl::Buchi::of(&negated).expect("an automaton");
        for len in 1..=4usize {
            for bits in 0..(1u64 << (2 * len)) {
                let word: Vec<u64> = (0..len).map(|i| bits >> (2 * i) & 3).collect();
                for start in 0..len {
                    assert_eq!(
                        claim_accepts(&claim, &word, start),
                        ours.accepts_lasso(&word, start),
                        "{} on {word:?} looping at {start}:\n{text}",
                        negated.to_spin()
                    );
                }
            }
        }
        compared += 1;
    }
}

/// Random formulas over atoms `p0`, `p1`, with every operator.
fn random_formula(seed: &mut u64, depth: u32) -> Ltl {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let r = (*seed >> 33) as usize;
    if depth == 0 {
        return match r % 5 {
            0 => Ltl::True,
            1 => Ltl::False,
            k => Ltl::Atom(k % 2),
        };
    }
    let b = Box::new;
    let sub = |s: &mut u64| random_formula(s, depth - 1);
    match r % 8 {
        0 => Ltl::negation(sub(seed)),
        1 => Ltl::And(b(sub(seed)), b(sub(seed))),
        2 => Ltl::Or(b(sub(seed)), b(sub(seed))),
        3 => Ltl::Until(b(sub(seed)), b(sub(seed))),
        4 => Ltl::Release(b(sub(seed)), b(sub(seed))),
        5 => Ltl::eventually(sub(seed)),
        6 => Ltl::always(sub(seed)),
        _ => Ltl::Atom(r % 2),
    }
}
