//! Level-synchronous parallel BFS: shortest counterexamples.
//!
//! The batches of the current BFS level sit in shared vectors, one per
//! worker that produced them, which the workers read without locking: each
//! claims the next batch of a vector with a `fetch_add` on its cursor and
//! expands it, its own vector first (the states it stored itself, likely
//! still in its cache), then the others', collecting the batches of the
//! next level privately. At the end of a level each worker hands its
//! batches over (one short lock per worker and level) and all meet at a
//! barrier; one of them installs the next level and resets the cursor,
//! and after a second barrier the next level starts (a level of a single
//! batch the leader expands alone, without the barriers). A state stored while
//! expanding level `d` therefore gets a parent of depth `d`: its parent
//! chain is a shortest path (Zhang & Hansen's layered BFS, as in most
//! parallel explicit-state checkers).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam::utils::CachePadded;
use parking_lot::{Condvar, Mutex, RwLock};

use super::batch::Batch;
use super::worker::Worker;
use super::{Shared, run_workers};
use crate::system::TransitionSystem;

/// Runs the level-synchronous BFS from the `initial` batches (level 0).
pub(crate) fn run<'s, 'a, T: TransitionSystem>(
    shared: &'s Shared<'a, T>,
    workers: Vec<Worker<'s, 'a, T>>,
    initial: Vec<Batch>,
    start: Instant,
) {
    let threads = workers.len();
    // The current level, by the worker that produced each batch (the
    // initial batches count as worker 0's).
    let mut first: Vec<Vec<Batch>> = (0..threads).map(|_| Vec::new()).collect();
    first[0] = initial;
    let level = RwLock::new(first);
    let next_level: Vec<Mutex<Vec<Batch>>> = (0..threads).map(|_| Mutex::default()).collect();
    let cursors: Vec<CachePadded<AtomicUsize>> = (0..threads)
        .map(|_| CachePadded::new(AtomicUsize::new(0)))
        .collect();
    let barrier = LevelBarrier::new(threads);
    let done = AtomicBool::new(false);
    run_workers(shared, workers, start, &|| barrier.abort(), |mut worker| {
        let mut mine = Vec::new();
        loop {
            {
                let sections = level.read();
                // Own batches first: their states were stored by this
                // worker and are likely still in its cache; then help
                // with the others'.
                for k in 0..threads {
                    let s = (worker.index + k) % threads;
                    loop {
                        let i = cursors[s].fetch_add(1, Ordering::Relaxed);
                        if i >= sections[s].len() || shared.stopping() {
                            break;
                        }
                        expand(shared, &mut worker, &sections[s][i], &mut mine);
                    }
                }
            }
            flush(shared, &mut worker, &mut mine);
            next_level[worker.index].lock().append(&mut mine);
            match barrier.wait() {
                Some(true) => {
                    // The queue is at its level's full size here.
                    shared.sample_queue();
                    let mut sections = level.write();
                    for (section, next) in sections.iter_mut().zip(&next_level) {
                        *section = std::mem::take(&mut *next.lock());
                    }
                    // A level of one batch would be expanded by one worker
                    // anyway: the leader expands such levels alone, one
                    // after another, while the others wait, instead of
                    // two barriers per level (a long thin state space).
                    while !shared.stopping() {
                        let total: usize = sections.iter().map(Vec::len).sum();
                        if total != 1 {
                            break;
                        }
                        let batch = sections.iter_mut().find_map(Vec::pop).expect("one batch");
                        expand(shared, &mut worker, &batch, &mut mine);
                        flush(shared, &mut worker, &mut mine);
                        sections[worker.index] = std::mem::take(&mut mine);
                        shared.sample_queue();
                    }
                    for cursor in &cursors {
                        cursor.store(0, Ordering::Relaxed);
                    }
                    if sections.iter().all(Vec::is_empty) || shared.stopping() {
                        done.store(true, Ordering::Relaxed);
                    }
                }
                Some(false) => {}
                None => break,
            }
            if barrier.wait().is_none() || done.load(Ordering::Relaxed) {
                break;
            }
        }
    });
}

/// Expands `batch` (taken off the queue), collecting the next level's
/// full batches in `next` (put on the queue). The worker's partly filled
/// batch goes on filling with the next batch it expands: a level's states
/// travel in full batches but for one per worker ([`flush`]), however
/// few new states each batch of the level before found.
fn expand<'s, 'a, T: TransitionSystem>(
    shared: &'s Shared<'a, T>,
    worker: &mut Worker<'s, 'a, T>,
    batch: &Batch,
    next: &mut Vec<Batch>,
) {
    let index = worker.index;
    shared.queue_add(index, -(batch.len as i64));
    worker.expand_batch(batch, &mut |b| {
        shared.queue_add(index, b.len as i64);
        next.push(b);
    });
}

/// Adds the worker's partly filled batch to `next`, at the end of a level.
fn flush<'s, 'a, T: TransitionSystem>(
    shared: &'s Shared<'a, T>,
    worker: &mut Worker<'s, 'a, T>,
    next: &mut Vec<Batch>,
) {
    let index = worker.index;
    worker.flush(&mut |b| {
        shared.queue_add(index, b.len as i64);
        next.push(b);
    });
}

/// How long a worker spins at the barrier before it sleeps: levels of a
/// few states (a long thin state space) end within microseconds, and a
/// futex sleep and wake-up per level would cost far more than the level.
const SPIN_LIMIT: Duration = Duration::from_micros(50);

/// A reusable barrier that can be aborted, so that a worker that panics
/// does not leave the others waiting forever (`std::sync::Barrier` cannot).
/// Waiters spin for up to [`SPIN_LIMIT`], then sleep on a condition
/// variable.
struct LevelBarrier {
    threads: usize,
    /// Threads arrived in the current generation.
    arrived: AtomicUsize,
    /// Completed generations; bumped under `lock` by the last to arrive.
    generation: AtomicU64,
    aborted: AtomicBool,
    lock: Mutex<()>,
    all_arrived: Condvar,
}

impl LevelBarrier {
    fn new(threads: usize) -> Self {
        LevelBarrier {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicU64::new(0),
            aborted: AtomicBool::new(false),
            lock: Mutex::new(()),
            all_arrived: Condvar::new(),
        }
    }

    /// Waits for all threads. `Some(true)` for exactly one of them (the
    /// leader), `Some(false)` for the others, `None` if the barrier was
    /// aborted.
    fn wait(&self) -> Option<bool> {
        if self.aborted.load(Ordering::Acquire) {
            return None;
        }
        // Read before arriving: the generation cannot end without us.
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            let _guard = self.lock.lock();
            self.generation.fetch_add(1, Ordering::Release);
            self.all_arrived.notify_all();
            return Some(true);
        }
        let released = || {
            if self.aborted.load(Ordering::Acquire) {
                Some(None)
            } else if self.generation.load(Ordering::Acquire) != generation {
                Some(Some(false))
            } else {
                None
            }
        };
        let start = Instant::now();
        loop {
            for _ in 0..64 {
                if let Some(result) = released() {
                    return result;
                }
                std::hint::spin_loop();
            }
            if start.elapsed() > SPIN_LIMIT {
                break;
            }
        }
        let mut guard = self.lock.lock();
        loop {
            if let Some(result) = released() {
                return result;
            }
            self.all_arrived.wait(&mut guard);
        }
    }

    /// Releases every waiting thread, now and in future waits.
    fn abort(&self) {
        let _guard = self.lock.lock();
        self.aborted.store(true, Ordering::Release);
        self.all_arrived.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_leader_per_generation_and_nobody_runs_ahead() {
        let threads = 3;
        let barrier = LevelBarrier::new(threads);
        let level = AtomicUsize::new(0);
        let leaders = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    for round in 0..2000 {
                        // Everyone sees the level the leader set last round.
                        assert_eq!(level.load(Ordering::Acquire), round);
                        if barrier.wait() == Some(true) {
                            leaders.fetch_add(1, Ordering::Relaxed);
                            level.fetch_add(1, Ordering::Release);
                        }
                        assert_eq!(barrier.wait().map(|_| ()), Some(()));
                    }
                });
            }
        });
        assert_eq!(leaders.load(Ordering::Relaxed), 2000);
    }

    #[test]
    fn abort_releases_a_sleeping_waiter() {
        let barrier = LevelBarrier::new(2);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| barrier.wait());
            std::thread::sleep(Duration::from_millis(20));
            barrier.abort();
            assert_eq!(waiter.join().unwrap(), None);
        });
        assert_eq!(barrier.wait(), None);
    }
}
