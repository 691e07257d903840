//! The lock-free visited set against a `DashMap`-based set, on a workload
//! shaped like model checking: each thread inserts a stream of 4-word
//! states whose share of already-stored states grows from 0 to about 90%
//! (mostly new keys early, mostly duplicates later), both threads drawing
//! from the same key space so they also race on the same keys.
//!
//! ```text
//! cargo bench -p orbit-workers --bench visited_set
//! ```

use std::hash::{BuildHasher, Hasher};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dashmap::DashMap;
use workers::fingerprint;
use workers::store::{Insert, NO_PARENT, VisitedSet};

const KEYS: u64 = 200_000;
const OPS_PER_THREAD: usize = 400_000;
const THREADS: usize = 2;

/// One thread's stream of states: key `i` is "discovered" at step
/// `i * OPS / KEYS`, and every other step repeats an earlier key.
fn stream(thread: u64) -> Vec<[u64; 4]> {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ thread;
    let mut next_new = 0u64;
    let mut out = Vec::with_capacity(OPS_PER_THREAD);
    for step in 0..OPS_PER_THREAD {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // The share of new keys falls linearly from 100% to ~10%.
        let new_share = 1.0 - 0.9 * step as f64 / OPS_PER_THREAD as f64;
        let key = if next_new < KEYS && (rng % 1000) as f64 / 1000.0 < new_share {
            next_new += 1;
            // Threads discover keys in different orders.
            if thread.is_multiple_of(2) {
                next_new - 1
            } else {
                KEYS - next_new
            }
        } else {
            rng % KEYS
        };
        out.push([key, key.wrapping_mul(31), key >> 3, 7]);
    }
    out
}

/// A fast hasher for the DashMap baseline (the same mixing as orbit's
/// fingerprint), so the comparison is about the set, not SipHash.
#[derive(Default, Clone)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = fingerprint(&[self.0, u64::from_le_bytes(word)]);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = fingerprint(&[self.0, n]);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Default, Clone)]
struct BuildWordHasher;

impl BuildHasher for BuildWordHasher {
    type Hasher = WordHasher;
    fn build_hasher(&self) -> WordHasher {
        WordHasher::default()
    }
}

fn run_lock_free(streams: &[Vec<[u64; 4]>]) -> u64 {
    let (set, handles) = VisitedSet::new(4, 32, workers::StoreKind::Exact, THREADS, 1 << 10, None);
    let news: u64 = std::thread::scope(|s| {
        let set = &set;
        let workers: Vec<_> = handles
            .into_iter()
            .zip(streams)
            .map(|(mut handle, stream)| {
                s.spawn(move || {
                    let mut guard = crossbeam::epoch::pin();
                    let mut news = 0u64;
                    for (i, state) in stream.iter().enumerate() {
                        if i % 64 == 0 {
                            guard.repin();
                        }
                        if let Ok(Insert::New(_)) =
                            set.insert(&mut handle, &guard, state, NO_PARENT)
                        {
                            news += 1;
                        }
                    }
                    news
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert_eq!(news, set.len());
    news
}

fn run_dashmap(streams: &[Vec<[u64; 4]>]) -> u64 {
    let map: DashMap<Box<[u64]>, u64, BuildWordHasher> =
        DashMap::with_capacity_and_hasher(1 << 10, BuildWordHasher);
    let news: u64 = std::thread::scope(|s| {
        let map = &map;
        let workers: Vec<_> = streams
            .iter()
            .map(|stream| {
                s.spawn(move || {
                    let mut news = 0u64;
                    for state in stream {
                        // Look up first (the common duplicate case takes a
                        // read lock only), insert on a miss.
                        if map.contains_key(&state[..]) {
                            continue;
                        }
                        if let dashmap::Entry::Vacant(v) = map.entry(state[..].into()) {
                            v.insert(NO_PARENT);
                            news += 1;
                        }
                    }
                    news
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert_eq!(news, map.len() as u64);
    news
}

fn bench(c: &mut Criterion) {
    let streams: Vec<_> = (0..THREADS as u64).map(stream).collect();
    let distinct = run_lock_free(&streams);
    assert_eq!(distinct, run_dashmap(&streams));
    let mut group = c.benchmark_group("visited_set_2_threads");
    group.throughput(Throughput::Elements((THREADS * OPS_PER_THREAD) as u64));
    group.sample_size(20);
    group.bench_function(BenchmarkId::new("lock_free", distinct), |b| {
        b.iter(|| run_lock_free(&streams))
    });
    group.bench_function(BenchmarkId::new("dashmap", distinct), |b| {
        b.iter(|| run_dashmap(&streams))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
