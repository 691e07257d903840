//! Heap accounting: the bytes the global allocator hands out, against a
//! cap, so that a memory bound holds however fast a phase allocates.
//!
//! The binary's allocator calls [`count`] for every allocation, free and
//! reallocation. Each thread keeps a running balance and adds it to the
//! process's count once it passes [`FLUSH_BYTES`] either way (one
//! thread-local add on the fast path). When the count passes the cap
//! ([`cap`]), the allocating thread's run is marked out of memory
//! ([`crate::budget::trip`]) at once; the allocation is still served, and
//! the phase stops at its next check of the budget. Buffers that grow by
//! doubling ask [`room_for`] first, so that a doubling past the cap (which
//! would touch twice the buffer's memory while it copies) is never made.
//!
//! Memory mapped directly (the store's large slot arrays) is not counted
//! here; the watchdog's resident-size check covers it.

use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// Bytes handed out and not freed, as the threads have reported them
/// (each thread's report lags by less than [`FLUSH_BYTES`]).
static IN_USE: AtomicIsize = AtomicIsize::new(0);

/// Bytes the allocator may hand out before the run is out of memory
/// (`usize::MAX`: no cap).
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

/// A thread's unreported balance is added to the process's count once it
/// passes this many bytes either way.
pub const FLUSH_BYTES: isize = 256 << 10;

thread_local! {
    /// This thread's balance not yet reported (no destructor: usable
    /// while the thread's other locals are destroyed, and by the
    /// allocator).
    static PENDING: Cell<isize> = const { Cell::new(0) };
}

/// Caps the bytes handed out: past `bytes` in use, the allocating thread's
/// run is marked out of memory. `None` lifts the cap.
pub fn cap(bytes: Option<usize>) {
    CAP.store(bytes.unwrap_or(usize::MAX), Ordering::Relaxed);
}

/// Bytes handed out and not freed, as counted so far (within
/// [`FLUSH_BYTES`] per thread).
pub fn in_use() -> usize {
    IN_USE.load(Ordering::Relaxed).max(0) as usize
}

/// Whether `bytes` more fit under the cap: what a buffer about to double
/// asks first.
pub fn room_for(bytes: usize) -> bool {
    in_use().saturating_add(bytes) <= CAP.load(Ordering::Relaxed)
}

/// Counts `delta` bytes handed out (negative: freed) by the calling thread:
/// the global allocator's hook. Allocation-free.
#[inline]
pub fn count(delta: isize) {
    let reported = PENDING.try_with(|pending| {
        let balance = pending.get() + delta;
        if balance.abs() < FLUSH_BYTES {
            pending.set(balance);
        } else {
            pending.set(0);
            report(balance);
        }
    });
    if reported.is_err() {
        report(delta);
    }
}

/// Adds `balance` to the process's count; past the cap, marks the calling
/// thread's run out of memory (allocation-free).
#[cold]
#[inline(never)]
fn report(balance: isize) {
    let in_use = IN_USE.fetch_add(balance, Ordering::Relaxed) + balance;
    if balance > 0 && in_use > 0 && in_use as usize > CAP.load(Ordering::Relaxed) {
        crate::budget::trip(crate::report::StopReason::MemoryLimit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balances_reach_the_count_in_batches_and_trip_the_run_past_the_cap() {
        // One test owns the process-wide counters (tests run in threads).
        let budget = crate::budget::Budget::new();
        let _entered = budget.enter();
        let start = in_use();
        count(FLUSH_BYTES / 2);
        assert_eq!(in_use(), start, "a small balance stays with the thread");
        count(FLUSH_BYTES);
        assert_eq!(in_use(), start + (FLUSH_BYTES * 3 / 2) as usize);
        cap(Some(start + (4 * FLUSH_BYTES) as usize));
        assert!(room_for(FLUSH_BYTES as usize));
        assert!(!room_for(4 * FLUSH_BYTES as usize));
        assert_eq!(budget.tripped(), None);
        count(4 * FLUSH_BYTES);
        assert_eq!(
            budget.tripped(),
            Some(crate::report::StopReason::MemoryLimit)
        );
        count(-(FLUSH_BYTES * 11 / 2));
        assert_eq!(in_use(), start);
        cap(None);
    }
}
