//! Differential tests of partial order reduction on random machines.
//!
//! `tests/por_gen` generates a few hundred small B machines from fixed seeds
//! (3-6 variables, 2-6 operations reading and writing random subsets of
//! them, some with parameters, some with an invariant that can fail, some
//! deadlocking). Each machine is written to a temporary file, loaded with the
//! library (`orbit::b::load`) and explored in process with the engine
//! (`workers::explore`), which is much faster than spawning the binary a
//! thousand times. An independent explorer of the generated data
//! (`por_gen::oracle`) says which errors exist; then
//!
//! * the full search finds exactly those verdicts (and, when it explores
//!   everything, the same numbers of states and transitions);
//! * on one and on two threads.
//!
//! A failure prints the seed and the machine's text; rerun one seed with
//! `POR_SEED=1234 cargo test --test por_differential one_seed -- --nocapture`.

mod por_gen;

use orbit::b::load::{LoadOptions, load_machine};
use orbit::b::system::BSystem;
use por_gen::Machine;
use por_gen::oracle::Facts;
use workers::{Config, Outcome, Report, TransitionSystem};

/// Number of generated machines per test run.
const MACHINES: u64 = 400;

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
    deadlocks: bool,
}

impl Search {
    fn config(self) -> Config {
        Config {
            threads: self.threads,
            check_deadlock: self.deadlocks,
            ..Config::default()
        }
    }
}

/// A generated machine, loaded.
struct Loaded {
    machine: Machine,
    text: String,
    system: BSystem,
    _dir: tempfile::TempDir,
}

impl Loaded {
    fn new(seed: u64) -> Loaded {
        let machine = Machine::generate(seed);
        let text = machine.to_b();
        let dir = tempfile::tempdir().expect("cannot create a temporary directory");
        let path = dir.path().join(format!("Gen{seed}.mch"));
        std::fs::write(&path, &text).expect("cannot write the machine");
        let system = match load_machine(&path, &LoadOptions::default()) {
            Ok(system) => system,
            Err(e) => panic!("seed {seed}: the generated machine does not load: {e:?}\n{text}"),
        };
        Loaded {
            machine,
            text,
            system,
            _dir: dir,
        }
    }

    fn fail(&self, what: &str) -> ! {
        panic!(
            "seed {}: {what}\nrerun: POR_SEED={} cargo test --test por_differential one_seed\n{}",
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

    fn full(&self, search: Search) -> (Verdict, Report) {
        let report = workers::explore(&self.system, &search.config());
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

/// Checks one machine: the full search against the oracle, then the
/// reduced search against the full search.
fn check_machine(seed: u64) -> Facts {
    let m = Loaded::new(seed);
    let facts = m.machine.facts();
    for threads in [1, 2] {
        // Invariant only: the verdict and, when complete, the counts.
        let search = Search {
            threads,
            deadlocks: false,
        };
        let (verdict, report) = m.full(search);
        let expected = if facts.invariant_violation {
            Verdict::Invariant
        } else {
            Verdict::Ok
        };
        if verdict != expected {
            m.fail(&format!(
                "{search:?}: full search says {verdict:?}, the oracle {expected:?} ({facts:?})"
            ));
        }
        if verdict == Verdict::Ok {
            let got = (
                report.stats.states,
                report.stats.transitions,
                report.stats.initial_states,
            );
            let want = (facts.states, facts.transitions, facts.initial_states);
            if got != want {
                m.fail(&format!(
                    "{search:?}: full search explores (states, transitions, initial) = {got:?}, the oracle {want:?}"
                ));
            }
        }
        // Invariant and deadlocks: some error exactly when one exists.
        let search = Search {
            threads,
            deadlocks: true,
        };
        let (verdict, _) = m.full(search);
        let possible = match verdict {
            Verdict::Ok => !facts.invariant_violation && !facts.deadlock_with_invariant,
            Verdict::Invariant => facts.invariant_violation,
            Verdict::Deadlock => facts.deadlock_with_invariant,
        };
        if !possible {
            m.fail(&format!(
                "{search:?}: full search says {verdict:?}, impossible by the oracle ({facts:?})"
            ));
        }
    }
    facts
}

#[test]
fn generated_machines_agree() {
    let mut totals = [0u64; 4];
    for seed in 0..MACHINES {
        let facts = check_machine(seed);
        totals[0] += u64::from(facts.invariant_violation);
        totals[1] += u64::from(facts.deadlock);
        totals[2] += u64::from(!facts.invariant_violation && !facts.deadlock);
        totals[3] += facts.states;
    }
    // The generator must exercise every verdict, not only trivial machines.
    let [violations, deadlocks, clean, states] = totals;
    println!(
        "{MACHINES} machines: {violations} with violations, {deadlocks} with deadlocks, \
         {clean} clean, {states} states in all"
    );
    assert!(
        violations >= MACHINES / 10 && deadlocks >= MACHINES / 10 && clean >= MACHINES / 10,
        "generator is unbalanced: {violations} with violations, {deadlocks} with deadlocks, \
         {clean} clean of {MACHINES}"
    );
    assert!(
        states >= 15 * MACHINES,
        "machines are too small: {states} states in all"
    );
}

/// Reruns the seed in `POR_SEED` (for debugging a failure).
#[test]
fn one_seed() {
    if let Ok(seed) = std::env::var("POR_SEED") {
        let seed: u64 = seed.parse().expect("POR_SEED must be a number");
        println!("{}", Machine::generate(seed).to_b());
        println!("{:?}", check_machine(seed));
    }
}
