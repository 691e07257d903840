//! Tests of the concurrent visited set: agreement with `HashSet`,
//! many threads hammering a tiny (constantly growing) table, memory bound.

use std::collections::HashSet;

use proptest::prelude::*;

use super::parent::NO_PARENT_STORED;
use super::*;
use crate::hash::fingerprint;

fn insert(set: &VisitedSet, h: &mut Handle, state: &[u64], parent: Ref) -> Result<Insert, Full> {
    let guard = crossbeam::epoch::pin();
    set.insert(h, &guard, state, parent)
}

fn kinds() -> impl Strategy<Value = StoreKind> {
    prop_oneof![
        Just(StoreKind::Exact),
        Just(StoreKind::Tree),
        Just(StoreKind::Compact)
    ]
}

proptest! {
    #[test]
    fn agrees_with_hashset(keys in proptest::collection::vec((0u64..300, 0u64..2), 0..1500),
                           kind in kinds(), state_bytes in 9usize..=16) {
        // The second word is 0 or 1: it fits in any number of stored bytes.
        let (set, mut handles) = VisitedSet::new(2, state_bytes, kind, 1, 2, None);
        let mut model = HashSet::new();
        for (a, b) in keys {
            let new = model.insert((a, b));
            let got = insert(&set, &mut handles[0], &[a, b], NO_PARENT).unwrap();
            prop_assert_eq!(matches!(got, Insert::New(_)), new);
        }
        prop_assert_eq!(set.len(), model.len() as u64);
        for &(a, b) in &model {
            prop_assert_eq!(insert(&set, &mut handles[0], &[a, b], NO_PARENT), Ok(Insert::Seen));
        }
    }
}

/// Many threads insert overlapping ranges into a table that starts with
/// two slots, so inserts race with each other and with many migrations,
/// and into one split into segments that each grow several times.
/// Each key must be reported new exactly once, and its record must hold
/// the key and the parent given by the thread that won. A tree store's
/// node table (growing from 1024 slots) is hammered as well: its parents
/// are real states, which it reads to compress incrementally.
#[test]
fn many_threads_hammering_a_tiny_table() {
    // Scaled down under Miri, which runs code thousands of times slower.
    const THREADS: usize = if cfg!(miri) { 3 } else { 8 };
    const KEYS: u64 = if cfg!(miri) { 300 } else { 20_000 };
    let layouts = [(2, 1), (1 << 13, 16)];
    for (kind, (capacity, segments)) in [StoreKind::Exact, StoreKind::Compact, StoreKind::Tree]
        .into_iter()
        .flat_map(|kind| layouts.map(|layout| (kind, layout)))
    {
        let compact = kind == StoreKind::Compact;
        let (set, mut handles) = VisitedSet::new(3, 24, kind, THREADS, capacity, None);
        assert_eq!(set.tables.segments(), segments);
        let first = set.tables.capacities()[0];
        // Tree mode reads parents: give every state one of a few real ones.
        let parents: Vec<Ref> = (0..4u64)
            .map(
                |p| match insert(&set, &mut handles[0], &[u64::MAX - p, 1, 1], NO_PARENT) {
                    Ok(Insert::New(r)) => r,
                    other => panic!("{other:?}"),
                },
            )
            .collect();
        let parent_of = |k: u64| match kind {
            StoreKind::Tree => parents[(k % 4) as usize],
            _ => k + 1000,
        };
        let won: Vec<Vec<(u64, Ref)>> = std::thread::scope(|s| {
            let set = &set;
            let threads: Vec<_> = handles
                .into_iter()
                .enumerate()
                .map(|(t, mut h)| {
                    s.spawn(move || {
                        let mut won = Vec::new();
                        // Each thread walks the keys from a different offset.
                        for i in 0..KEYS {
                            let k = (i + t as u64 * KEYS / THREADS as u64) % KEYS;
                            let state = [k, k * 7, 0];
                            if let Insert::New(r) =
                                insert(set, &mut h, &state, parent_of(k)).unwrap()
                            {
                                won.push((k, r));
                            }
                        }
                        won
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        let mut keys: Vec<u64> = won.iter().flatten().map(|&(k, _)| k).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            (0..KEYS).collect::<Vec<_>>(),
            "each key new exactly once"
        );
        assert_eq!(set.len(), KEYS + 4);
        let mut state = Vec::new();
        for &(k, r) in won.iter().flatten() {
            let record = set.record(r);
            assert_eq!(VisitedSet::parent_in(record), parent_of(k));
            if compact {
                let fp = u64::from_le_bytes(record[..8].try_into().unwrap());
                assert_eq!(fp, fingerprint(&[k, k * 7, 0]));
            } else {
                set.read_state(r, &mut state);
                assert_eq!(state, vec![k, k * 7, 0]);
            }
        }
        let grown = set.tables.capacities();
        assert!(
            grown
                .iter()
                .all(|&c| c >= crate::hash::grown(crate::hash::grown(first))),
            "every segment grew at least twice from {first} slots: {grown:?}"
        );
        if kind == StoreKind::Tree {
            // Leaves k, 7k, 0 and the pair under each root, shared where equal.
            assert!(set.nodes() < 3 * KEYS + 20, "{} nodes", set.nodes());
        }
    }
}

#[test]
fn chains_follow_parent_references() {
    let (set, mut handles) = VisitedSet::new(1, 8, StoreKind::Exact, 2, 4, None);
    let Ok(Insert::New(a)) = insert(&set, &mut handles[0], &[10], NO_PARENT) else {
        panic!()
    };
    let Ok(Insert::New(b)) = insert(&set, &mut handles[1], &[11], a) else {
        panic!()
    };
    let Ok(Insert::New(c)) = insert(&set, &mut handles[0], &[12], b) else {
        panic!()
    };
    let chain = set.chain_to(c);
    assert_eq!(
        chain,
        vec![
            StepKey::Words(vec![10].into()),
            StepKey::Words(vec![11].into()),
            StepKey::Words(vec![12].into())
        ]
    );
}

#[test]
fn memory_bound_is_never_passed() {
    // One table, and one split into 8 segments that grow on their own.
    let layouts = [(16, 1024 * 1024 / 4), (1 << 12, 1024 * 1024)];
    for (kind, (capacity, limit)) in [StoreKind::Exact, StoreKind::Tree, StoreKind::Compact]
        .into_iter()
        .flat_map(|kind| layouts.map(|layout| (kind, layout)))
    {
        let (set, mut handles) = VisitedSet::new(4, 32, kind, 1, capacity, Some(limit));
        let mut stored = 0u64;
        loop {
            match insert(&set, &mut handles[0], &[stored, 1, 2, 3], NO_PARENT) {
                Ok(Insert::New(_)) => stored += 1,
                Ok(Insert::Seen) => unreachable!("keys are distinct"),
                Err(Full::Memory) => break,
                Err(full) => unreachable!("{full:?}: no state limit"),
            }
        }
        assert!(set.bytes() <= limit, "{} > {limit}", set.bytes());
        assert!(stored > 1000, "{stored}");
        // Duplicates are still answered after the bound is hit... unless a
        // migration was refused, in which case every insert reports Full.
        let again = insert(&set, &mut handles[0], &[0, 1, 2, 3], NO_PARENT);
        assert!(matches!(again, Ok(Insert::Seen) | Err(Full::Memory)));
    }
}

/// Regression: `--max-states` was only checked between batches, so a search
/// whose states have many successors stored far more than the bound. The
/// set itself now refuses every new state past the limit, with any number
/// of threads.
#[test]
fn state_limit_is_never_passed() {
    const THREADS: usize = 4;
    for max in [0u64, 1, 7, 100] {
        let (mut set, handles) = VisitedSet::new(2, 16, StoreKind::Exact, THREADS, 4, None);
        set.limit_states(max);
        let set = &set;
        let refused = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for mut h in handles {
                let refused = &refused;
                scope.spawn(move || {
                    for k in 0..500u64 {
                        // Every thread inserts the same states, so many
                        // inserts find a stored state.
                        match insert(set, &mut h, &[k % 250, 1], NO_PARENT) {
                            Ok(_) => {}
                            Err(Full::States) => {
                                refused.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(full) => panic!("{full:?}: no memory bound here"),
                        }
                    }
                });
            }
        });
        assert!(set.len() <= max, "max {max}: {} stored", set.len());
        assert!(refused.load(Ordering::Relaxed) > 0);
        // One worker: exactly `max` states, and stored states are still
        // found (a stored state is never refused).
        let (mut set, mut handles) = VisitedSet::new(2, 16, StoreKind::Exact, 1, 4, None);
        set.limit_states(max);
        for k in 0..300u64 {
            let _ = insert(&set, &mut handles[0], &[k, 1], NO_PARENT);
        }
        assert_eq!(set.len(), max);
        if max > 0 {
            assert_eq!(
                insert(&set, &mut handles[0], &[0, 1], NO_PARENT),
                Ok(Insert::Seen)
            );
        }
    }
}

/// References carry as many worker bits as the set's workers need and
/// fit in the 5 stored bytes with any number of workers: records of the
/// first and last worker read back with their parents.
#[test]
fn references_of_every_worker_count_read_back() {
    for workers in [1, 2, 3, 8, 255, MAX_WORKERS] {
        let (set, mut handles) = VisitedSet::new(2, 16, StoreKind::Exact, workers, 64, None);
        let Ok(Insert::New(first)) = insert(&set, &mut handles[0], &[1, 2], NO_PARENT) else {
            panic!("{workers} workers: first insert")
        };
        let last = handles.len() - 1;
        let Ok(Insert::New(second)) = insert(&set, &mut handles[last], &[3, 4], first) else {
            panic!("{workers} workers: second insert")
        };
        assert!(second <= REF_MASK && second != NO_PARENT_STORED);
        let mut state = Vec::new();
        set.read_state(second, &mut state);
        assert_eq!(state, [3, 4]);
        assert_eq!(VisitedSet::parent_in(set.record(second)), first);
        assert_eq!(VisitedSet::parent_in(set.record(first)), NO_PARENT);
        set.read_state(first, &mut state);
        assert_eq!(state, [1, 2]);
    }
}
