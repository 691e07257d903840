//! Throughput mode: work stealing over per-worker deques.
//!
//! Every worker owns a crossbeam (Chase–Lev) deque of batches; new batches
//! go to its own deque, LIFO for depth-first orders and FIFO for BFS. An
//! idle worker takes half of the global injector's batches (where the
//! initial states start), then tries to steal half of another worker's
//! deque, starting from a different victim each time. Popping, expanding
//! and pushing never take a lock. A worker that finds nothing for a while
//! sleeps (see [`Idle`]) until a batch is published or the search ends.
//!
//! # Termination
//! `pending` counts batches created and not yet fully expanded. A worker
//! increments it for each batch it produces *before* finishing (and
//! decrementing for) the batch that produced them, so it reaches zero only
//! when no batch exists anywhere and none is being expanded: then every
//! idle worker sees zero and leaves.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crossbeam::deque::{Injector, Steal, Stealer, Worker as Deque};
use crossbeam::utils::Backoff;

use super::batch::Batch;
use super::idle::Idle;
use super::worker::Worker;
use super::{Shared, run_workers};
use crate::config::SearchOrder;
use crate::system::TransitionSystem;

/// Runs the work-stealing search from the `initial` batches.
pub(crate) fn run<'s, 'a, T: TransitionSystem>(
    shared: &'s Shared<'a, T>,
    workers: Vec<Worker<'s, 'a, T>>,
    initial: Vec<Batch>,
    start: Instant,
) {
    let injector = Injector::new();
    let pending = AtomicUsize::new(initial.len());
    for b in initial {
        injector.push(b);
    }
    let lifo = shared.config.order != SearchOrder::Bfs;
    let deques: Vec<Deque<Batch>> = workers
        .iter()
        .map(|_| {
            if lifo {
                Deque::new_lifo()
            } else {
                Deque::new_fifo()
            }
        })
        .collect();
    let stealers: Vec<Stealer<Batch>> = deques.iter().map(Deque::stealer).collect();
    // Pair each worker with its deque (deques are Send, not Sync).
    let deques = parking_lot::Mutex::new(deques.into_iter().map(Some).collect::<Vec<_>>());
    let idle = Idle::default();
    let (injector, stealers, pending, idle) = (&injector, &stealers, &pending, &idle);
    let has_work = || {
        pending.load(Ordering::Acquire) == 0
            || shared.stopping()
            || !injector.is_empty()
            || stealers.iter().any(|s| !s.is_empty())
    };
    run_workers(shared, workers, start, &|| idle.wake_all(), |mut worker| {
        let deque = deques.lock()[worker.index]
            .take()
            .expect("one deque per worker");
        let mut victim = worker.index;
        let backoff = Backoff::new();
        let index = worker.index;
        let mut sink = |b: Batch| {
            pending.fetch_add(1, Ordering::Relaxed);
            shared.queue_add(index, b.len as i64);
            deque.push(b);
            idle.published();
        };
        loop {
            if shared.stopping() {
                break;
            }
            let next = deque
                .pop()
                .or_else(|| find_work(&deque, injector, stealers, &mut victim));
            match next {
                Some(batch) => {
                    backoff.reset();
                    shared.queue_add(index, -(batch.len as i64));
                    worker.expand_batch(&batch, &mut sink);
                    // Handed over at once: an idle worker may steal it.
                    worker.flush(&mut sink);
                    if pending.fetch_sub(1, Ordering::AcqRel) == 1 {
                        // The last batch: the sleepers can leave.
                        idle.wake_all();
                    }
                }
                None => {
                    if pending.load(Ordering::Acquire) == 0 {
                        break;
                    }
                    if backoff.is_completed() {
                        idle.sleep(has_work);
                    } else {
                        backoff.snooze();
                    }
                }
            }
        }
    });
}

/// Steals a batch of batches from the injector, else from another worker.
fn find_work(
    deque: &Deque<Batch>,
    injector: &Injector<Batch>,
    stealers: &[Stealer<Batch>],
    victim: &mut usize,
) -> Option<Batch> {
    loop {
        let mut retry = false;
        match injector.steal_batch_and_pop(deque) {
            Steal::Success(b) => return Some(b),
            Steal::Retry => retry = true,
            Steal::Empty => {}
        }
        for _ in 0..stealers.len() {
            *victim = (*victim + 1) % stealers.len();
            match stealers[*victim].steal_batch_and_pop(deque) {
                Steal::Success(b) => return Some(b),
                Steal::Retry => retry = true,
                Steal::Empty => {}
            }
        }
        if !retry {
            return None;
        }
    }
}
