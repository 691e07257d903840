//! Every engine configuration against systems with known state spaces:
//! exact counts, verdicts, trace lengths, shortest traces in BFS.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{Lattice, Ring, Steps, check_trace_is_path, reference_bfs};
use workers::{Config, Outcome, ParallelMode, SearchOrder, StopReason, StoreKind, explore};

/// Every (order, threads, mode, store) combination worth testing.
fn configs() -> Vec<Config> {
    let mut out = Vec::new();
    for order in [
        SearchOrder::Bfs,
        SearchOrder::Dfs,
        SearchOrder::Mixed { seed: 7 },
    ] {
        for store in [StoreKind::Exact, StoreKind::Tree, StoreKind::Compact] {
            out.push(Config {
                order,
                store,
                ..Config::default()
            });
            for threads in [2, 3] {
                for mode in [ParallelMode::WorkStealing, ParallelMode::LevelSynchronous] {
                    if mode == ParallelMode::LevelSynchronous && order != SearchOrder::Bfs {
                        continue;
                    }
                    out.push(Config {
                        order,
                        store,
                        threads,
                        mode,
                        ..Config::default()
                    });
                }
            }
        }
    }
    out
}

/// Whether `config` promises shortest counterexamples.
fn shortest(config: &Config) -> bool {
    config.order == SearchOrder::Bfs
        && (config.threads <= 1 || config.effective_mode() == ParallelMode::LevelSynchronous)
}

#[test]
fn lattice_counts_are_exact_in_every_configuration() {
    for dup in [false, true] {
        let system = Lattice {
            duplicate_edges: dup,
            ..Lattice::new(3, 5)
        };
        for config in configs() {
            let config = Config {
                check_deadlock: false,
                ..config.clone()
            };
            let report = explore(&system, &config);
            assert_eq!(report.outcome, Outcome::Complete, "{config:?}");
            assert_eq!(report.stats.states, system.state_count(), "{config:?}");
            assert_eq!(
                report.stats.transitions,
                system.transition_count(),
                "{config:?}"
            );
            assert_eq!(report.stats.initial_states, 1);
            // Every edge adds one to the sum, so tree depth = sum in any order.
            assert_eq!(report.stats.max_depth, 15, "{config:?}");
            assert!(report.trace.is_none());
            assert!(report.stats.store_bytes > 0);
            assert_eq!(
                report.stats.collision_probability.is_some(),
                config.store.is_compact()
            );
        }
    }
}

#[test]
fn ring_counts_match_a_reference_search() {
    for n in [3, 5] {
        let system = Ring { n, broken: false };
        let (states, transitions, bad) = reference_bfs(&system);
        assert_eq!(bad, None);
        assert_eq!((states, transitions), system.reference_counts());
        for config in configs() {
            let report = explore(&system, &config);
            assert_eq!(report.outcome, Outcome::Complete, "{config:?}");
            assert_eq!(report.stats.states, states, "{config:?}");
            assert_eq!(report.stats.transitions, transitions, "{config:?}");
            assert_eq!(report.stats.initial_states, 2, "{config:?}");
        }
    }
}

#[test]
fn deadlock_at_the_far_corner() {
    let system = Lattice::new(3, 4);
    for config in configs() {
        let report = explore(&system, &config);
        assert_eq!(report.outcome, Outcome::Deadlock, "{config:?}");
        let trace = report.trace.expect("deadlock trace");
        assert_eq!(check_trace_is_path(&system, &trace), 12, "{config:?}");
        assert_eq!(trace.last_state(), Some(&[4u64, 4, 4][..]));
        assert_eq!(trace.steps[0].label, "init");
    }
}

#[test]
fn invariant_violation_at_known_depth() {
    let system = Lattice {
        bad_sum: Some(7),
        ..Lattice::new(3, 5)
    };
    for config in configs() {
        let report = explore(&system, &config);
        let Outcome::Violation(v) = &report.outcome else {
            panic!("{config:?}: {:?}", report.outcome)
        };
        assert_eq!(v.message, "sum < 7");
        let trace = report.trace.expect("violation trace");
        // States are checked when generated: the first bad one has sum 7.
        assert_eq!(check_trace_is_path(&system, &trace), 7, "{config:?}");
        assert_eq!(trace.last_state().unwrap().iter().sum::<u64>(), 7);
    }
}

#[test]
fn bfs_traces_are_shortest() {
    let system = Steps { n: 100, bad: 41 };
    let (_, _, shallowest) = reference_bfs(&system);
    let shallowest = shallowest.expect("x = 41 is reachable");
    assert_eq!(shallowest, 21);
    let mut longer_seen = false;
    for config in configs() {
        let report = explore(
            &system,
            &Config {
                check_deadlock: false,
                ..config.clone()
            },
        );
        assert!(
            matches!(report.outcome, Outcome::Violation(_)),
            "{config:?}"
        );
        let len = check_trace_is_path(&system, report.trace.as_ref().unwrap());
        assert!(len >= shallowest);
        if shortest(&config) {
            assert_eq!(len, shallowest, "{config:?}");
        }
        longer_seen |= len > shallowest;
    }
    // Guards the test itself: the system must distinguish DFS from BFS.
    assert!(longer_seen);
}

#[test]
fn broken_ring_violates_mutual_exclusion_at_the_shallowest_depth_in_bfs() {
    let system = Ring { n: 4, broken: true };
    let (_, _, shallowest) = reference_bfs(&system);
    for config in configs() {
        let report = explore(&system, &config);
        assert!(
            matches!(report.outcome, Outcome::Violation(_)),
            "{config:?}"
        );
        let len = check_trace_is_path(&system, report.trace.as_ref().unwrap());
        if shortest(&config) {
            assert_eq!(Some(len), shallowest, "{config:?}");
        }
    }
}

#[test]
fn model_error_trace_ends_at_the_expanded_state() {
    let system = Lattice {
        error_at: Some(vec![1, 2]),
        ..Lattice::new(2, 3)
    };
    for config in configs() {
        let report = explore(
            &system,
            &Config {
                check_deadlock: false,
                ..config.clone()
            },
        );
        let Outcome::ModelError(e) = &report.outcome else {
            panic!("{config:?}: {:?}", report.outcome)
        };
        assert!(e.message.contains("division by zero"));
        let trace = report.trace.expect("model error trace");
        assert_eq!(check_trace_is_path(&system, &trace), 3);
        assert_eq!(trace.last_state(), Some(&[1u64, 2][..]));
    }
}

#[test]
fn goal_found_only_when_asked() {
    let system = Lattice {
        goal: Some(vec![2, 1, 0]),
        ..Lattice::new(3, 3)
    };
    for config in configs() {
        let report = explore(
            &system,
            &Config {
                stop_at_goal: true,
                check_deadlock: false,
                ..config.clone()
            },
        );
        assert_eq!(report.outcome, Outcome::GoalFound);
        let trace = report.trace.expect("goal trace");
        assert_eq!(check_trace_is_path(&system, &trace), 3);
        assert_eq!(trace.last_state(), Some(&[2u64, 1, 0][..]));
    }
    let report = explore(
        &system,
        &Config {
            check_deadlock: false,
            ..Config::default()
        },
    );
    assert_eq!(report.outcome, Outcome::Complete);
}

#[test]
fn state_bound_stops_cleanly() {
    let system = Lattice::new(3, 9);
    for config in configs() {
        let threads = config.threads.max(1) as u64;
        let report = explore(
            &system,
            &Config {
                max_states: Some(100),
                check_deadlock: false,
                ..config.clone()
            },
        );
        assert_eq!(report.outcome, Outcome::Stopped(StopReason::MaxStates));
        assert!(report.trace.is_none());
        // Parallel engines may overshoot by a batch per thread.
        assert!(
            (100..=100 + 1024 * threads).contains(&report.stats.states),
            "{}",
            report.stats.states
        );
    }
    // A bound equal to the state count does not stop a complete search.
    let report = explore(
        &system,
        &Config {
            max_states: Some(1000),
            check_deadlock: false,
            ..Config::default()
        },
    );
    assert_eq!(report.outcome, Outcome::Complete);
}

#[test]
fn memory_bound_stops_cleanly_within_the_bound() {
    let system = Lattice::new(4, 20);
    for config in configs() {
        let limit = 1 << 20;
        let config = Config {
            memory_limit: Some(limit),
            check_deadlock: false,
            ..config.clone()
        };
        let report = explore(&system, &config);
        assert_eq!(
            report.outcome,
            Outcome::Stopped(StopReason::MemoryLimit),
            "{config:?}"
        );
        assert!(
            report.stats.store_bytes <= limit,
            "{}",
            report.stats.store_bytes
        );
        assert!(report.stats.states > 1000);
    }
}

#[test]
fn cancel_flag_and_time_limit_stop_the_search() {
    let system = Lattice::new(4, 30);
    for config in configs() {
        let cancel = Arc::new(AtomicBool::new(true));
        let report = explore(
            &system,
            &Config {
                cancel: Some(cancel),
                check_deadlock: false,
                ..config.clone()
            },
        );
        assert_eq!(report.outcome, Outcome::Stopped(StopReason::Interrupted));
        assert!(report.stats.states < system.state_count());
    }
    for config in configs() {
        let report = explore(
            &system,
            &Config {
                time_limit: Some(Duration::ZERO),
                check_deadlock: false,
                ..config.clone()
            },
        );
        assert_eq!(report.outcome, Outcome::Stopped(StopReason::TimeLimit));
    }
}

#[test]
fn progress_is_reported_while_searching() {
    use std::sync::Mutex;
    let system = Lattice {
        work: 300,
        ..Lattice::new(4, 10)
    };
    for threads in [1, 2] {
        let seen: Arc<Mutex<Vec<workers::Progress>>> = Arc::default();
        let sink = seen.clone();
        let config = Config {
            threads,
            check_deadlock: false,
            progress: Some(Arc::new(move |p: &workers::Progress| {
                sink.lock().unwrap().push(*p)
            })),
            progress_interval: Duration::from_millis(1),
            ..Config::default()
        };
        let report = explore(&system, &config);
        assert_eq!(report.outcome, Outcome::Complete);
        let seen = seen.lock().unwrap();
        assert!(
            !seen.is_empty(),
            "no progress reported in {:?}",
            report.stats.wall
        );
        for pair in seen.windows(2) {
            assert!(pair[0].states <= pair[1].states && pair[0].elapsed <= pair[1].elapsed);
        }
        assert!(
            seen.iter()
                .all(|p| p.states <= report.stats.states && p.store_bytes > 0)
        );
    }
}
