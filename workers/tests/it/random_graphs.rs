//! Property test: on random graphs, every engine configuration finds the
//! reference state and transition counts, and the shortest-trace
//! configurations find violations at the reference BFS depth.

use crate::common;

use common::{Graph, check_trace_is_path, reference_bfs};
use proptest::prelude::*;
use workers::{Config, Outcome, ParallelMode, SearchOrder, StoreKind, explore};

fn graph() -> impl Strategy<Value = Graph> {
    (1usize..120).prop_flat_map(|n| {
        let node = 0..n as u64;
        (
            proptest::collection::vec(proptest::collection::vec(node.clone(), 0..4), n),
            proptest::collection::vec(node.clone(), 1..3),
            proptest::option::of(node),
        )
            .prop_map(|(edges, init, bad)| Graph { edges, init, bad })
    })
}

fn configs() -> Vec<Config> {
    let mut out = vec![
        Config::default(),
        Config {
            order: SearchOrder::Dfs,
            ..Config::default()
        },
        Config {
            order: SearchOrder::Mixed { seed: 1 },
            store: StoreKind::Compact,
            ..Config::default()
        },
    ];
    for mode in [ParallelMode::LevelSynchronous, ParallelMode::WorkStealing] {
        for store in [StoreKind::Exact, StoreKind::Tree, StoreKind::Compact] {
            out.push(Config {
                threads: 2,
                mode,
                store,
                ..Config::default()
            });
        }
    }
    out.into_iter()
        .map(|c| Config {
            check_deadlock: false,
            ..c
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
    #[test]
    fn engines_agree_with_a_reference_search(g in graph()) {
        let without_bad = Graph { bad: None, ..g.clone() };
        let (states, transitions, _) = reference_bfs(&without_bad);
        let (_, _, bad_depth) = reference_bfs(&g);
        for config in configs() {
            let report = explore(&without_bad, &config);
            prop_assert_eq!(&report.outcome, &Outcome::Complete);
            prop_assert_eq!(report.stats.states, states);
            prop_assert_eq!(report.stats.transitions, transitions);

            let report = explore(&g, &config);
            match bad_depth {
                None => prop_assert_eq!(&report.outcome, &Outcome::Complete),
                Some(depth) => {
                    prop_assert!(matches!(report.outcome, Outcome::Violation(_)), "{:?}", report.outcome);
                    let len = check_trace_is_path(&g, report.trace.as_ref().unwrap());
                    prop_assert_eq!(report.trace.as_ref().unwrap().last_state(), Some(&[g.bad.unwrap()][..]));
                    let shortest = config.threads <= 1 && config.order == SearchOrder::Bfs
                        || config.effective_mode() == ParallelMode::LevelSynchronous && config.threads > 1;
                    if shortest {
                        prop_assert_eq!(len, depth, "{:?}", config);
                    } else {
                        prop_assert!(len >= depth);
                    }
                }
            }
        }
    }
}
