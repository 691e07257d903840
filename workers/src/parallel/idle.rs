//! Where idle work-stealing workers sleep instead of spinning.
//!
//! A worker that found nothing to steal for a while (its backoff is
//! spent) sleeps here until a worker publishes a batch, the search ends,
//! or a short timeout passes (the timeout bounds how late a sleeper sees
//! a stop that nobody announced here, e.g. the monitor's time limit). On
//! a many-core server this keeps threads with nothing to do off the cores
//! (and off their hyperthread siblings) in the narrow phases of a search.
//!
//! # No lost wake-ups
//! A producer publishes its batch, then (after a sequentially consistent
//! fence) reads the number of sleepers; a sleeper counts itself in (a
//! sequentially consistent update) under the lock, then looks for work.
//! In the single order of those operations one of the two comes first:
//! either the producer sees the sleeper and notifies it (under the lock,
//! so not before the sleeper waits), or the sleeper sees the batch and
//! does not wait.

use std::sync::atomic::{AtomicUsize, Ordering, fence};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

/// Longest a worker sleeps without being woken.
const SLEEP_LIMIT: Duration = Duration::from_millis(2);

/// The sleeping room of idle workers.
pub(crate) struct Idle {
    sleeping: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    limit: Duration,
}

impl Default for Idle {
    fn default() -> Self {
        Self::with_limit(SLEEP_LIMIT)
    }
}

impl Idle {
    /// A room whose sleepers wake by themselves after `limit`.
    fn with_limit(limit: Duration) -> Self {
        Idle {
            sleeping: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            limit,
        }
    }

    /// Sleeps until woken or the room's limit passes, unless `has_work`
    /// (which looks for batches and for the end of the search) says there
    /// is something to do.
    pub(crate) fn sleep(&self, has_work: impl FnOnce() -> bool) {
        let mut guard = self.lock.lock();
        self.sleeping.fetch_add(1, Ordering::SeqCst);
        if !has_work() {
            self.wake.wait_for(&mut guard, self.limit);
        }
        self.sleeping.fetch_sub(1, Ordering::SeqCst);
    }

    /// Wakes one sleeper, if any, after a batch was published.
    #[inline]
    pub(crate) fn published(&self) {
        fence(Ordering::SeqCst);
        if self.sleeping.load(Ordering::Relaxed) > 0 {
            let _guard = self.lock.lock();
            self.wake.notify_one();
        }
    }

    /// Wakes every sleeper (the search ended or is stopping).
    pub(crate) fn wake_all(&self) {
        let _guard = self.lock.lock();
        self.wake.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    #[test]
    fn a_sleeper_with_work_does_not_wait() {
        let idle = Idle::default();
        let start = Instant::now();
        for _ in 0..100 {
            idle.sleep(|| true);
        }
        // 100 waits of the limit would take 200 ms.
        assert!(start.elapsed() < SLEEP_LIMIT * 50);
        assert_eq!(idle.sleeping.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_published_batch_wakes_a_sleeper() {
        // Sleepers would wait 5 s by themselves: each round must end by
        // the producer's wake-up, whichever of the two goes first.
        let idle = Idle::with_limit(Duration::from_secs(5));
        for _ in 0..200 {
            let flag = AtomicBool::new(false);
            let start = Instant::now();
            std::thread::scope(|s| {
                s.spawn(|| {
                    flag.store(true, Ordering::Release);
                    idle.published();
                });
                while !flag.load(Ordering::Acquire) {
                    idle.sleep(|| flag.load(Ordering::Acquire));
                }
            });
            assert!(
                start.elapsed() < Duration::from_secs(2),
                "a wake-up was lost"
            );
        }
    }

    #[test]
    fn wake_all_releases_every_sleeper() {
        let idle = Idle::with_limit(Duration::from_secs(5));
        let done = AtomicBool::new(false);
        let start = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| {
                    while !done.load(Ordering::Acquire) {
                        idle.sleep(|| done.load(Ordering::Acquire));
                    }
                });
            }
            while idle.sleeping.load(Ordering::SeqCst) < 3 {
                std::thread::yield_now();
            }
            done.store(true, Ordering::Release);
            idle.wake_all();
        });
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "a sleeper was left"
        );
    }
}
