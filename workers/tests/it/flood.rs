//! Permutation flooding through the engine's visited set
//! ([`TransitionSystem::flood`]): a lattice whose coordinates are
//! interchangeable explores one state per orbit (multiset of counters) in
//! every configuration, while its visited set holds every state.

use crate::common;

use common::{Lattice, check_trace_is_path};
use workers::{
    Config, LabelledState, ModelError, Outcome, ParallelMode, SearchOrder, StoreKind,
    TransitionSystem, Violation, explore,
};

/// The lattice with its coordinates permuted by flooding.
struct Flooded(Lattice);

impl TransitionSystem for Flooded {
    type Scratch = Vec<u64>;

    fn new_scratch(&self) -> Vec<u64> {
        self.0.new_scratch()
    }

    fn state_width(&self) -> usize {
        self.0.state_width()
    }

    fn initial_states(
        &self,
        scratch: &mut Vec<u64>,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.0.initial_states(scratch, emit)
    }

    fn successors(
        &self,
        scratch: &mut Vec<u64>,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.0.successors(scratch, state, emit)
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        self.0.labelled_initial_states()
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        self.0.labelled_successors(state)
    }

    fn check_state(
        &self,
        scratch: &mut Vec<u64>,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        self.0.check_state(scratch, state)
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.0.describe_state(state)
    }

    fn floods(&self) -> bool {
        true
    }

    /// Every permutation of the coordinates (Heap's algorithm).
    fn flood(&self, _scratch: &mut Vec<u64>, state: &[u64], emit: &mut dyn FnMut(&[u64])) {
        let mut s = state.to_vec();
        let n = s.len();
        let mut c = vec![0; n];
        emit(&s);
        let mut i = 0;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    s.swap(0, i);
                } else {
                    s.swap(c[i], i);
                }
                emit(&s);
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    (1..=k).fold(1, |acc, i| acc * (n + 1 - i) / i)
}

fn configs() -> Vec<Config> {
    let mut out = Vec::new();
    for store in [StoreKind::Exact, StoreKind::Tree, StoreKind::Compact] {
        for order in [SearchOrder::Bfs, SearchOrder::Dfs] {
            out.push(Config {
                order,
                store,
                ..Config::default()
            });
        }
        for threads in [2, 4] {
            for mode in [ParallelMode::WorkStealing, ParallelMode::LevelSynchronous] {
                out.push(Config {
                    threads,
                    mode,
                    store,
                    ..Config::default()
                });
            }
        }
    }
    out
}

#[test]
fn flooding_explores_one_state_per_orbit_and_stores_them_all() {
    let (dims, max) = (4, 5);
    let system = Flooded(Lattice::new(dims, max));
    let orbits = binomial(max + dims as u64, dims as u64);
    for config in configs() {
        for _ in 0..3 {
            let report = explore(
                &system,
                &Config {
                    check_deadlock: false,
                    ..config.clone()
                },
            );
            assert_eq!(report.outcome, Outcome::Complete, "{config:?}");
            assert_eq!(report.stats.states, orbits, "{config:?}");
            assert_eq!(
                report.stats.states + report.stats.flooded,
                system.0.state_count(),
                "{config:?}"
            );
            assert_eq!(report.stats.initial_states, 1, "{config:?}");
        }
    }
}

#[test]
fn flooded_traces_are_real_paths() {
    let system = Flooded(Lattice {
        bad_sum: Some(7),
        ..Lattice::new(3, 4)
    });
    for config in configs() {
        let report = explore(&system, &config);
        assert!(
            matches!(report.outcome, Outcome::Violation(_)),
            "{config:?}: {:?}",
            report.outcome
        );
        let trace = report.trace.expect("a trace");
        let steps = check_trace_is_path(&system, &trace);
        if config.order == SearchOrder::Bfs
            && (config.threads <= 1 || config.mode == ParallelMode::LevelSynchronous)
        {
            assert_eq!(steps, 7, "{config:?}");
        }
    }
}

#[test]
fn systems_that_do_not_flood_store_nothing_extra() {
    let report = explore(&Lattice::new(3, 3), &Config::default());
    assert_eq!(report.stats.flooded, 0);
    assert_eq!(report.stats.states, 64);
}
