//! The distributed search with ranks as threads ([`ChannelTransport`]):
//! on random graphs every number of ranks and threads finds the reference
//! counts, and violations at the shortest depth with a trace on rank 0.

use crate::common;

use common::{Graph, Lattice, Panicky, check_trace_is_path, reference_bfs};
use proptest::prelude::*;
use workers::distributed::{ChannelTransport, explore_distributed};
use workers::{Config, Outcome, ParallelMode, Report, StoreKind, TransitionSystem};

/// Runs `system` on `ranks` ranks of `config.threads` threads each, one
/// thread per rank; the reports in rank order.
fn run<T: TransitionSystem>(system: &T, config: &Config, ranks: usize) -> Vec<Report> {
    std::thread::scope(|scope| {
        let runs: Vec<_> = ChannelTransport::group(ranks)
            .into_iter()
            .map(|mut transport| {
                scope.spawn(move || explore_distributed(system, config, &mut transport))
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    })
}

fn graph() -> impl Strategy<Value = Graph> {
    (1usize..150).prop_flat_map(|n| {
        let node = 0..n as u64;
        (
            proptest::collection::vec(proptest::collection::vec(node.clone(), 0..4), n),
            proptest::collection::vec(node.clone(), 1..3),
            proptest::option::of(node),
        )
            .prop_map(|(edges, init, bad)| Graph { edges, init, bad })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn ranks_agree_with_a_reference_search(g in graph(), ranks in 1usize..5, threads in 1usize..3, compact: bool, any_order: bool) {
        let config = Config {
            threads,
            mode: if any_order { ParallelMode::WorkStealing } else { ParallelMode::LevelSynchronous },
            check_deadlock: false,
            store: if compact { StoreKind::Compact } else { StoreKind::Exact },
            ..Config::default()
        };
        let without_bad = Graph { bad: None, ..g.clone() };
        let (states, transitions, _) = reference_bfs(&without_bad);
        let (_, _, bad_depth) = reference_bfs(&g);
        for report in run(&without_bad, &config, ranks) {
            prop_assert_eq!(&report.outcome, &Outcome::Complete);
            prop_assert_eq!(report.stats.states, states);
            prop_assert_eq!(report.stats.transitions, transitions);
            prop_assert_eq!(report.stats.ranks.len(), ranks);
            prop_assert_eq!(report.stats.ranks.iter().map(|r| r.states).sum::<u64>(), states);
        }
        let reports = run(&g, &config, ranks);
        for (rank, report) in reports.iter().enumerate() {
            match bad_depth {
                None => prop_assert_eq!(&report.outcome, &Outcome::Complete),
                Some(depth) => {
                    prop_assert!(matches!(report.outcome, Outcome::Violation(_)), "{:?}", report.outcome);
                    if rank == 0 {
                        let trace = report.trace.as_ref().expect("rank 0 has the trace");
                        let len = check_trace_is_path(&g, trace);
                        if any_order {
                            prop_assert!(len >= depth);
                        } else {
                            prop_assert_eq!(len, depth);
                        }
                        prop_assert_eq!(trace.last_state(), Some(&[g.bad.unwrap()][..]));
                    } else {
                        prop_assert!(report.trace.is_none());
                    }
                }
            }
        }
    }
}

#[test]
fn deadlocks_and_limits_reach_every_rank() {
    for mode in [ParallelMode::LevelSynchronous, ParallelMode::WorkStealing] {
        deadlocks_and_limits_in(mode);
    }
}

fn deadlocks_and_limits_in(mode: ParallelMode) {
    // A lattice's far corner has no successor: a deadlock at its depth.
    let lattice = Lattice::new(3, 6);
    let (states, transitions) = (lattice.state_count(), lattice.transition_count());
    let config = Config {
        threads: 2,
        mode,
        ..Config::default()
    };
    let reports = run(&lattice, &config, 3);
    for report in &reports {
        assert_eq!(report.outcome, Outcome::Deadlock);
    }
    let trace = reports[0].trace.as_ref().unwrap();
    assert_eq!(trace.transitions(), 18, "the corner is 3 x 6 steps away");
    let complete = run(
        &lattice,
        &Config {
            check_deadlock: false,
            ..config.clone()
        },
        3,
    );
    for report in &complete {
        assert_eq!(report.outcome, Outcome::Complete);
        assert_eq!(
            (report.stats.states, report.stats.transitions),
            (states, transitions)
        );
        let sent: u64 = report.stats.ranks.iter().map(|r| r.states_sent).sum();
        assert!(sent > 0, "states crossed ranks");
    }
    let limited = run(
        &lattice,
        &Config {
            check_deadlock: false,
            max_states: Some(100),
            ..config
        },
        3,
    );
    for report in &limited {
        assert_eq!(
            report.outcome,
            Outcome::Stopped(workers::StopReason::MaxStates)
        );
        assert!(report.stats.states <= 100, "{}", report.stats.states);
    }
}

#[test]
fn a_failed_rank_leaves_the_others_incomplete() {
    for mode in [ParallelMode::LevelSynchronous, ParallelMode::WorkStealing] {
        a_failed_rank_in(mode);
    }
}

fn a_failed_rank_in(mode: ParallelMode) {
    let system = Panicky(Lattice::new(3, 6), vec![3, 3, 3]);
    let config = Config {
        check_deadlock: false,
        mode,
        ..Config::default()
    };
    let outcomes: Vec<Option<Outcome>> = std::thread::scope(|scope| {
        let runs: Vec<_> = ChannelTransport::group(3)
            .into_iter()
            .map(|mut transport| {
                let (system, config) = (&system, &config);
                scope.spawn(move || explore_distributed(system, config, &mut transport).outcome)
            })
            .collect();
        runs.into_iter().map(|r| r.join().ok()).collect()
    });
    assert_eq!(
        outcomes.iter().filter(|o| o.is_none()).count(),
        1,
        "one rank panicked: {outcomes:?}"
    );
    for outcome in outcomes.into_iter().flatten() {
        assert_eq!(outcome, Outcome::Stopped(workers::StopReason::WorkerFailed));
    }
}

#[test]
fn rank_zero_reports_the_progress_of_every_rank() {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    let lattice = Lattice::new(3, 12);
    for mode in [ParallelMode::LevelSynchronous, ParallelMode::WorkStealing] {
        let seen: Arc<Mutex<Vec<u64>>> = Arc::default();
        let record = Arc::clone(&seen);
        let config = Config {
            check_deadlock: false,
            mode,
            progress: Some(Arc::new(move |p: &workers::Progress| {
                record.lock().unwrap().push(p.states)
            })),
            progress_interval: Duration::ZERO,
            ..Config::default()
        };
        let reports = run(&lattice, &config, 2);
        let seen = seen.lock().unwrap();
        assert!(!seen.is_empty(), "{mode:?}: rank 0 reported progress");
        assert!(
            seen.iter().all(|&s| s <= reports[0].stats.states),
            "{mode:?}: {seen:?}"
        );
    }
}
