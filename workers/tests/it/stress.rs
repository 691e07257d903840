//! Many threads (more than cores) on small systems, repeatedly: the
//! parallel engines must terminate and agree with the sequential counts
//! every time, whatever the interleaving.

use crate::common;

use common::{Lattice, Ring};
use workers::{Config, Outcome, ParallelMode, SearchOrder, StopReason, StoreKind, explore};

#[test]
fn many_threads_agree_with_the_sequential_engine() {
    let ring = Ring {
        n: 5,
        broken: false,
    };
    let lattice = Lattice {
        duplicate_edges: true,
        ..Lattice::new(3, 12)
    };
    let sequential = Config {
        check_deadlock: false,
        ..Config::default()
    };
    let ring_counts = explore(&ring, &sequential).stats;
    let lattice_counts = explore(&lattice, &sequential).stats;
    for round in 0..10 {
        for (order, mode) in [
            (SearchOrder::Bfs, ParallelMode::LevelSynchronous),
            (SearchOrder::Bfs, ParallelMode::WorkStealing),
            (SearchOrder::Dfs, ParallelMode::WorkStealing),
        ] {
            let config = Config {
                order,
                mode,
                threads: 8,
                store: [StoreKind::Exact, StoreKind::Compact, StoreKind::Tree][round % 3],
                check_deadlock: false,
                ..Config::default()
            };
            let r = explore(&ring, &config);
            assert_eq!(r.outcome, Outcome::Complete);
            assert_eq!(
                (r.stats.states, r.stats.transitions),
                (ring_counts.states, ring_counts.transitions)
            );
            let l = explore(&lattice, &config);
            assert_eq!(l.outcome, Outcome::Complete);
            assert_eq!(
                (l.stats.states, l.stats.transitions),
                (lattice_counts.states, lattice_counts.transitions)
            );
            assert_eq!(l.stats.max_depth, 36);
            assert_eq!(l.stats.threads, 8);
        }
    }
}

/// Regression guard: a panicking worker used to leave the others waiting
/// at the level barrier (or for pending work) forever, and then took the
/// process down. Now the search ends, incomplete, with `WorkerFailed`:
/// never a hang, never an abort, never "complete".
#[test]
fn a_panicking_system_stops_the_search_as_incomplete() {
    let system = common::Panicky(Lattice::new(3, 8), vec![2, 2, 2]);
    for mode in [ParallelMode::LevelSynchronous, ParallelMode::WorkStealing] {
        let config = Config {
            threads: 3,
            mode,
            check_deadlock: false,
            ..Config::default()
        };
        let report = explore(&system, &config);
        assert_eq!(
            report.outcome,
            Outcome::Stopped(StopReason::WorkerFailed),
            "{mode:?}"
        );
    }
}

/// Millions of states (41^4 = 2,825,761), every engine: exact counts.
/// Slow in debug builds: `cargo test --release -p orbit-workers --test
/// it stress:: -- --ignored --nocapture` (prints states per second).
#[test]
#[ignore]
fn millions_of_states_in_every_engine() {
    let system = Lattice::new(4, 40);
    for (threads, mode, store) in [
        (1, ParallelMode::Auto, StoreKind::Exact),
        (1, ParallelMode::Auto, StoreKind::Tree),
        (2, ParallelMode::WorkStealing, StoreKind::Exact),
        (2, ParallelMode::LevelSynchronous, StoreKind::Exact),
        (2, ParallelMode::WorkStealing, StoreKind::Tree),
        (2, ParallelMode::WorkStealing, StoreKind::Compact),
    ] {
        let config = Config {
            threads,
            mode,
            store,
            check_deadlock: false,
            ..Config::default()
        };
        let report = explore(&system, &config);
        assert_eq!(report.outcome, Outcome::Complete);
        assert_eq!(report.stats.states, system.state_count());
        assert_eq!(report.stats.transitions, system.transition_count());
        println!(
            "{threads} thread(s) {mode:?} store={store:?}: {:.0} states/s, {:.1} bytes/state",
            report.stats.states_per_second(),
            report.stats.bytes_per_state()
        );
    }
}
