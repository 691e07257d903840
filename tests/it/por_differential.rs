//! Differential tests of partial order reduction on random machines.
//!
//! `tests/por_gen` generates a few hundred small B machines from fixed seeds
//! (3-6 variables, 2-7 operations reading and writing random subsets of
//! them, some with parameters, some with an invariant that can fail, some
//! deadlocking, half of them structured as processes with mostly private
//! variables). Each machine is written to a temporary file, loaded with the
//! library (`orbit::frontends::b::load`) and explored in process, with the engine
//! (`workers::explore`) for the full search and with
//! the partial order reduction layer (what `orbit check --por` runs) for the
//! reduced one: much faster than spawning the binary thousands of times. An
//! independent explorer of the generated data (`por_gen::oracle`) says which
//! errors exist; then, on one thread (breadth- and depth-first) and on two
//! (level-synchronous breadth-first and work stealing in any order),
//!
//! * the full search finds exactly those verdicts (and, when it explores
//!   everything, the same numbers of states and transitions), checking the
//!   invariant, deadlocks, or both;
//! * the reduced search (`--por`) finds the same verdict class as the full
//!   search: the same verdict when one property is checked, an error
//!   exactly when the full search finds one when both are (which error comes
//!   first may differ), and never more states;
//! * with deadlock-only checking (`--no-invariant`), `--por` finds a
//!   deadlock exactly when the full search does;
//! * every counterexample is a real run of the machine ending in the error
//!   reported.
//!
//! A failure prints the seed and the machine's text; rerun one seed with
//! `POR_SEED=1234 cargo test --test it por_differential::one_seed -- --nocapture`,
//! or hunt longer with `POR_MACHINES=5000 cargo test --test it por_differential::`.

use crate::por_gen;

use orbit::checker::Layered;
use orbit::frontends::b::ast;
use orbit::frontends::b::load::{LoadOptions, load_machine_with_ast};
use orbit::frontends::b::por::independence::{Checked, analyse_for_search};
use orbit::frontends::b::system::BSystem;
use orbit::frontends::b::types::MachineTypes;
use orbit::model::{Model, NoSymmetry};
use orbit::por::PorLayer;
use por_gen::Machine;
use por_gen::oracle::Facts;
use workers::{Config, Outcome, ParallelMode, Report, SearchOrder};

/// Number of generated machines per test run (`POR_MACHINES=n` runs seeds
/// `0..n` instead, for a longer hunt).
const MACHINES: u64 = 400;

fn machines() -> u64 {
    std::env::var("POR_MACHINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(MACHINES)
}

/// The verdict class of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Ok,
    Invariant,
    Deadlock,
}

/// One way of searching.
#[derive(Clone, Copy, Debug)]
struct Search {
    threads: usize,
    order: SearchOrder,
    mode: ParallelMode,
    /// Check the invariant (not `--no-invariant`).
    invariant: bool,
    /// Check deadlocks (not `--no-deadlock`).
    deadlocks: bool,
    /// Partial order reduction (`--por`).
    por: bool,
}

impl Search {
    fn config(self) -> Config {
        Config {
            threads: self.threads,
            order: self.order,
            mode: self.mode,
            check_deadlock: self.deadlocks,
            ..Config::default()
        }
    }
}

/// A generated machine, loaded twice: with and without invariant checking.
struct Loaded {
    machine: Machine,
    text: String,
    system: BSystem,
    no_invariant: BSystem,
    ast: ast::Machine,
    types: MachineTypes,
    _dir: tempfile::TempDir,
}

impl Loaded {
    fn new(seed: u64) -> Loaded {
        let machine = Machine::generate(seed);
        let text = machine.to_b();
        let dir = tempfile::tempdir().expect("cannot create a temporary directory");
        let path = dir.path().join(format!("Gen{seed}.mch"));
        std::fs::write(&path, &text).expect("cannot write the machine");
        let load = || match load_machine_with_ast(&path, &LoadOptions::default()) {
            Ok(loaded) => loaded,
            Err(e) => panic!("seed {seed}: the generated machine does not load: {e:?}\n{text}"),
        };
        let (system, ast, types) = load();
        let (mut no_invariant, _, _) = load();
        no_invariant.check_invariant = false;
        Loaded {
            machine,
            text,
            system,
            no_invariant,
            ast,
            types,
            _dir: dir,
        }
    }

    fn fail(&self, what: &str) -> ! {
        panic!(
            "seed {}: {what}\nrerun: POR_SEED={} cargo test --test it por_differential::one_seed\n{}",
            self.machine.seed, self.machine.seed, self.text
        )
    }

    fn verdict(&self, search: Search, report: &Report) -> Verdict {
        match &report.outcome {
            Outcome::Complete => Verdict::Ok,
            Outcome::Violation(_) => Verdict::Invariant,
            Outcome::Deadlock => Verdict::Deadlock,
            other => self.fail(&format!("{search:?} ended with {other:?}")),
        }
    }

    /// Runs `search`; checks its counterexample, if any.
    fn run(&self, search: Search) -> (Verdict, Report) {
        let system = if search.invariant {
            &self.system
        } else {
            &self.no_invariant
        };
        let report = if search.por {
            let checked = Checked {
                invariant: search.invariant,
                goal: false,
            };
            let independence = analyse_for_search(system, &self.ast, &self.types, checked);
            let reduced: Layered<'_, BSystem, NoSymmetry> =
                Layered::new(system, None, Some(PorLayer::new(&independence, false)));
            workers::explore(&reduced, &search.config())
        } else {
            workers::explore(
                &Layered::<_, NoSymmetry>::new(system, None, None),
                &search.config(),
            )
        };
        let verdict = self.verdict(search, &report);
        self.check_trace(search, verdict, &report);
        (verdict, report)
    }

    /// A state of the trace as the oracle's values (TRUE = 1, FALSE = 0).
    fn decode(&self, state: &[u64]) -> Vec<i64> {
        let described = self.system.describe_state(state);
        (0..self.machine.vars.len())
            .map(|v| {
                let name = format!("v{v}");
                let value = &described
                    .iter()
                    .find(|(n, _)| *n == name)
                    .unwrap_or_else(|| self.fail(&format!("no {name} in {described:?}")))
                    .1;
                match value.as_str() {
                    "TRUE" => 1,
                    "FALSE" => 0,
                    n => n
                        .parse()
                        .unwrap_or_else(|_| self.fail(&format!("{name} = {n}?"))),
                }
            })
            .collect()
    }

    /// The counterexample of an error verdict is a real run that ends in a
    /// state with that error, as the oracle evaluates the machine.
    fn check_trace(&self, search: Search, verdict: Verdict, report: &Report) {
        if verdict == Verdict::Ok {
            return;
        }
        let Some(trace) = &report.trace else {
            self.fail(&format!("{search:?}: {verdict:?} without a counterexample"))
        };
        let states: Vec<Vec<i64>> = trace.steps.iter().map(|s| self.decode(&s.state)).collect();
        let Some(first) = states.first() else {
            self.fail(&format!("{search:?}: empty counterexample"))
        };
        if !self.machine.initial_states().contains(first) {
            self.fail(&format!(
                "{search:?}: trace starts in {first:?}, not initial"
            ));
        }
        for pair in states.windows(2) {
            if !self.machine.successors(&pair[0]).contains(&pair[1]) {
                self.fail(&format!(
                    "{search:?}: trace step {:?} -> {:?} is no transition",
                    pair[0], pair[1]
                ));
            }
        }
        let last = states.last().expect("not empty");
        let bad = match verdict {
            Verdict::Invariant => !self.machine.invariant(last),
            _ => self.machine.successors(last).is_empty(),
        };
        if !bad {
            self.fail(&format!(
                "{search:?}: the counterexample's last state {last:?} is no {verdict:?}"
            ));
        }
    }
}

/// What one machine contributed to the totals.
#[derive(Default)]
struct Tally {
    facts: Facts,
    /// The reduced deadlock-only search explored fewer states.
    reduced: bool,
    /// The reduced search checking the invariant explored fewer states.
    reduced_with_invariant: bool,
}

/// Checks one machine: the full search against the oracle, then the
/// reduced search against the full search.
fn check_machine(seed: u64) -> Tally {
    let m = Loaded::new(seed);
    let facts = m.machine.facts();
    let (mut reduced, mut reduced_with_invariant) = (false, false);
    // The order changes which states the cycle proviso fully expands.
    for (threads, order, mode) in [
        (1, SearchOrder::Bfs, ParallelMode::Auto),
        (1, SearchOrder::Dfs, ParallelMode::Auto),
        (2, SearchOrder::Bfs, ParallelMode::Auto),
        (2, SearchOrder::Bfs, ParallelMode::WorkStealing),
    ] {
        let search = |invariant, deadlocks, por| Search {
            threads,
            order,
            mode,
            invariant,
            deadlocks,
            por,
        };
        let counts = |r: &Report| (r.stats.states, r.stats.transitions, r.stats.initial_states);

        // Invariant only: the verdict and, when complete, the counts.
        let s = search(true, false, false);
        let (full, report) = m.run(s);
        let expected = if facts.invariant_violation {
            Verdict::Invariant
        } else {
            Verdict::Ok
        };
        if full != expected {
            m.fail(&format!(
                "{s:?}: full search says {full:?}, the oracle {expected:?} ({facts:?})"
            ));
        }
        let want = (facts.states, facts.transitions, facts.initial_states);
        if full == Verdict::Ok && counts(&report) != want {
            m.fail(&format!(
                "{s:?}: (states, transitions, initial) = {:?}, the oracle says {want:?}",
                counts(&report)
            ));
        }
        let s = search(true, false, true);
        let (por, por_report) = m.run(s);
        if por != full {
            m.fail(&format!(
                "{s:?}: --por says {por:?}, the full search {full:?}"
            ));
        }
        if por == Verdict::Ok {
            if por_report.stats.states > report.stats.states {
                m.fail(&format!(
                    "{s:?}: --por explores more states than the full search"
                ));
            }
            reduced_with_invariant |= por_report.stats.states < report.stats.states;
        }

        // Deadlocks only (--no-invariant): the same, against the graph where
        // every state is expanded.
        let s = search(false, true, false);
        let (full, report) = m.run(s);
        let expected = if facts.deadlock {
            Verdict::Deadlock
        } else {
            Verdict::Ok
        };
        if full != expected {
            m.fail(&format!(
                "{s:?}: full search says {full:?}, the oracle {expected:?} ({facts:?})"
            ));
        }
        let want = (
            facts.all_states,
            facts.all_transitions,
            facts.initial_states,
        );
        if full == Verdict::Ok && counts(&report) != want {
            m.fail(&format!(
                "{s:?}: (states, transitions, initial) = {:?}, the oracle says {want:?}",
                counts(&report)
            ));
        }
        let s = search(false, true, true);
        let (por, por_report) = m.run(s);
        if por != full {
            m.fail(&format!(
                "{s:?}: --por --no-invariant says {por:?}, the full search {full:?}"
            ));
        }
        if por == Verdict::Ok {
            if por_report.stats.states > report.stats.states {
                m.fail(&format!(
                    "{s:?}: --por explores more states than the full search"
                ));
            }
            reduced |= por_report.stats.states < report.stats.states;
        }

        // Both: an error exactly when one exists; its kind must exist.
        for por in [false, true] {
            let s = search(true, true, por);
            let (verdict, _) = m.run(s);
            let possible = match verdict {
                Verdict::Ok => !facts.invariant_violation && !facts.deadlock_with_invariant,
                Verdict::Invariant => facts.invariant_violation,
                Verdict::Deadlock => facts.deadlock_with_invariant,
            };
            if !possible {
                m.fail(&format!(
                    "{s:?}: the search says {verdict:?}, impossible by the oracle ({facts:?})"
                ));
            }
        }
    }
    Tally {
        facts,
        reduced,
        reduced_with_invariant,
    }
}

#[test]
fn generated_machines_agree() {
    let machines = machines();
    let mut totals = [0u64; 6];
    for seed in 0..machines {
        let Tally {
            facts,
            reduced,
            reduced_with_invariant,
        } = check_machine(seed);
        totals[0] += u64::from(facts.invariant_violation);
        totals[1] += u64::from(facts.deadlock);
        totals[2] += u64::from(!facts.invariant_violation && !facts.deadlock);
        totals[3] += facts.states;
        totals[4] += u64::from(reduced);
        totals[5] += u64::from(reduced_with_invariant);
    }
    // The generator must exercise every verdict, not only trivial machines,
    // and the reduction must actually prune some of them.
    let [violations, deadlocks, clean, states, reduced, reduced_inv] = totals;
    println!(
        "{machines} machines: {violations} with violations, {deadlocks} with deadlocks, \
         {clean} clean, {states} states in all; --por explored fewer states on \
         {reduced_inv} checking the invariant, on {reduced} checking deadlocks only"
    );
    assert!(
        violations >= machines / 20 && deadlocks >= machines / 20 && clean >= machines / 20,
        "generator is unbalanced: {violations} with violations, {deadlocks} with deadlocks, \
         {clean} clean of {machines}"
    );
    assert!(
        states >= 15 * machines,
        "machines are too small: {states} states in all"
    );
    assert!(
        reduced >= machines / 10 && reduced_inv >= machines / 20,
        "--por reduced only {reduced} (deadlocks only) and {reduced_inv} (invariant) of \
         {machines} machines: the test hardly exercises it"
    );
}

/// Reruns the seed in `POR_SEED` (for debugging a failure).
#[test]
fn one_seed() {
    if let Ok(seed) = std::env::var("POR_SEED") {
        let seed: u64 = seed.parse().expect("POR_SEED must be a number");
        println!("{}", Machine::generate(seed).to_b());
        println!("{:?}", check_machine(seed).facts);
    }
}
