//! Level-synchronous parallel BFS: shortest counterexamples.
//!
//! The batches of the current BFS level sit in a shared vector that the
//! workers read without locking: each claims the next batch with a
//! `fetch_add` on a cursor and expands it, collecting the batches of the
//! next level privately. At the end of a level each worker hands its
//! batches over (one short lock per worker and level) and all meet at a
//! barrier; one of them installs the next level and resets the cursor,
//! and after a second barrier the next level starts. A state stored while
//! expanding level `d` therefore gets a parent of depth `d`: its parent
//! chain is a shortest path (Zhang & Hansen's layered BFS, as in most
//! parallel explicit-state checkers).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

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
    let level = RwLock::new(initial);
    let next_level: Mutex<Vec<Batch>> = Mutex::new(Vec::new());
    let cursor = AtomicUsize::new(0);
    let barrier = LevelBarrier::new(workers.len());
    let done = AtomicBool::new(false);
    run_workers(shared, workers, start, &|| barrier.abort(), |mut worker| {
        let mut mine = Vec::new();
        loop {
            {
                let batches = level.read();
                loop {
                    let i = cursor.fetch_add(1, Ordering::Relaxed);
                    if i >= batches.len() || shared.stopping() {
                        break;
                    }
                    let index = worker.index;
                    shared.queue_add(index, -(batches[i].len as i64));
                    worker.expand_batch(&batches[i], &mut |b| {
                        shared.queue_add(index, b.len as i64);
                        mine.push(b);
                    });
                }
            }
            next_level.lock().append(&mut mine);
            match barrier.wait() {
                Some(true) => {
                    // The queue is at its level's full size here.
                    shared.sample_queue();
                    let mut batches = level.write();
                    *batches = std::mem::take(&mut *next_level.lock());
                    cursor.store(0, Ordering::Relaxed);
                    if batches.is_empty() || shared.stopping() {
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

/// A reusable barrier that can be aborted, so that a worker that panics
/// does not leave the others waiting forever (`std::sync::Barrier` cannot).
struct LevelBarrier {
    threads: usize,
    state: Mutex<BarrierState>,
    all_arrived: Condvar,
}

struct BarrierState {
    arrived: usize,
    generation: u64,
    aborted: bool,
}

impl LevelBarrier {
    fn new(threads: usize) -> Self {
        LevelBarrier {
            threads,
            state: Mutex::new(BarrierState {
                arrived: 0,
                generation: 0,
                aborted: false,
            }),
            all_arrived: Condvar::new(),
        }
    }

    /// Waits for all threads. `Some(true)` for exactly one of them (the
    /// leader), `Some(false)` for the others, `None` if the barrier was
    /// aborted.
    fn wait(&self) -> Option<bool> {
        let mut state = self.state.lock();
        if state.aborted {
            return None;
        }
        state.arrived += 1;
        if state.arrived == self.threads {
            state.arrived = 0;
            state.generation += 1;
            self.all_arrived.notify_all();
            return Some(true);
        }
        let generation = state.generation;
        while state.generation == generation && !state.aborted {
            self.all_arrived.wait(&mut state);
        }
        if state.aborted { None } else { Some(false) }
    }

    /// Releases every waiting thread, now and in future waits.
    fn abort(&self) {
        self.state.lock().aborted = true;
        self.all_arrived.notify_all();
    }
}
