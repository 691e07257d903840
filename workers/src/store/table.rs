//! The slot array of the concurrent visited set: open addressing with
//! linear probing over `u64` slots claimed by compare-and-swap, split
//! into independent *segments* chosen by hash bits, and the cooperative
//! migration of a segment's slots into one twice as large.
//!
//! # Segments
//! A set's slots are split into up to [`MAX_SEGMENTS`] tables, each
//! growing on its own (bits 32 and up of an entry's hash choose its
//! segment; the home within it comes from the low 32 bits, the stores'
//! tags from the top bits). A migration holds the old and the new
//! generation of one segment only, not of the whole set: with one table,
//! every growth held both generations for as long as it ran (three times
//! the old table's bytes), and a parallel search's peak memory paid for
//! it. Segments reach their fill limit at about the same number of states,
//! but each migrates in a fraction of the time and its old generation is
//! freed as soon as no thread probes it. Measured on German with 4 nodes
//! at two threads (medians of 9, interleaved): one table 27.9 MB and
//! 0.89 s, 16 segments 25.0 MB and 0.90 s, 64 segments 25.0 MB and 0.90 s
//! against 0.87 s; growing segments by half rather than doubling, 23.5 MB
//! but 0.93 s (a migration rehashes every entry from its stored record, a
//! cache miss each, and growing by half migrates twice as often).
//!
//! A slot is [`EMPTY`], [`MOVED`] (migrated to the next table), or a
//! non-zero *entry* chosen by the set (a fingerprint, or a tag and an arena
//! reference). Entries are never removed, so a probe that reaches an empty
//! slot proves its key absent from this table, as in every lock-free
//! linear-probing set (Purcell & Harris, *Non-blocking hashtables with open
//! addressing*, 2005, without deletion).
//!
//! # Migration (after Rumur's `set_migrate`)
//! When a table is full enough, one thread allocates a larger table and
//! hangs it on `next`. From then on every inserting thread helps:
//! it claims chunks of [`CHUNK`] old slots with a `fetch_add`, swaps each
//! slot to [`MOVED`] (a CAS, so an entry racing into the slot either lands
//! before the swap and is copied, or fails and retries in the new table),
//! re-inserts the old entry in the new table, and counts the chunk done.
//! The thread completing the last chunk publishes the new table. Inserts
//! wait for that moment, but they spend the wait migrating, so a migration
//! costs each of `p` threads about `1/p` of the table, in parallel with
//! the others.

use super::primitive::{AtomicUsize, Ordering};
use super::slots::Slots;
use super::{Full, Memory};
use crossbeam::epoch::{Atomic, Guard, Owned};

/// A slot never written.
pub(crate) const EMPTY: u64 = 0;
/// A slot whose entry (or emptiness) was moved to the next table.
pub(crate) const MOVED: u64 = u64::MAX;
/// Slots per migration chunk.
const CHUNK: usize = 1024;
/// Most segments a set of tables has (a power of two; see the module
/// docs for why not more).
pub(crate) const MAX_SEGMENTS: usize = 16;
/// Fewest slots a segment starts with: a first capacity is split into at
/// most `capacity / MIN_SEGMENT_SLOTS` segments.
const MIN_SEGMENT_SLOTS: usize = 512;

/// One generation of the slot array.
pub(crate) struct Table {
    slots: Slots,
    /// The segment this table is a generation of.
    segment: usize,
    /// Approximate number of entries (flushed in batches by the handles).
    pub(crate) count: AtomicUsize,
    /// The table being migrated into, once migration has started.
    pub(crate) next: Atomic<Table>,
    /// Migration started (the thread that sets it allocates `next`).
    pub(crate) growing: AtomicUsize,
    chunks_claimed: AtomicUsize,
    chunks_done: AtomicUsize,
}

/// Outcome of probing for an entry.
pub(crate) enum Probe {
    /// The slot is empty: the key is absent.
    Empty,
    /// The slot holds this entry; the caller decides whether it is the key.
    Entry(u64),
    /// The table is being migrated: retry in the next one.
    Moved,
}

impl Table {
    /// A table of `capacity` slots (at least one), for segment 0.
    #[cfg(all(test, loom))]
    pub(crate) fn new(capacity: usize) -> Self {
        Self::try_new(capacity, 0).expect("memory for the table")
    }

    /// A table of `capacity` slots (at least one) for `segment`, or `None`
    /// if the system refuses the memory (an address-space limit, say).
    pub(crate) fn try_new(capacity: usize, segment: usize) -> Option<Self> {
        debug_assert!(capacity > 0);
        const { assert!(EMPTY == 0, "zeroed slots are empty") };
        Some(Table {
            slots: Slots::zeroed(capacity)?,
            segment,
            count: AtomicUsize::new(0),
            next: Atomic::null(),
            growing: AtomicUsize::new(0),
            chunks_claimed: AtomicUsize::new(0),
            chunks_done: AtomicUsize::new(0),
        })
    }

    /// Number of slots.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Bytes of the slot array.
    pub(crate) fn bytes(&self) -> u64 {
        Self::bytes_for(self.capacity())
    }

    /// Bytes of the slot array of a table of `capacity` slots (to reserve
    /// them before allocating).
    pub(crate) fn bytes_for(capacity: usize) -> u64 {
        8 * capacity as u64
    }

    /// First probe position for `hash`.
    #[inline]
    pub(crate) fn home(&self, hash: u64) -> usize {
        crate::hash::home(hash, self.slots.len())
    }

    /// The position after `pos`.
    #[inline]
    pub(crate) fn next_pos(&self, pos: usize) -> usize {
        if pos + 1 == self.slots.len() {
            0
        } else {
            pos + 1
        }
    }

    /// Prefetches the slot at `pos` (see [`crate::hash::prefetch`]).
    #[inline]
    pub(crate) fn prefetch(&self, pos: usize) {
        crate::hash::prefetch(&self.slots[pos]);
    }

    /// Reads the slot at `pos`.
    #[inline]
    pub(crate) fn probe(&self, pos: usize) -> Probe {
        match self.slots[pos].load(Ordering::Acquire) {
            EMPTY => Probe::Empty,
            MOVED => Probe::Moved,
            entry => Probe::Entry(entry),
        }
    }

    /// Tries to claim the empty slot at `pos` for `entry`. On failure
    /// returns the slot's current content.
    #[inline]
    pub(crate) fn claim(&self, pos: usize, entry: u64) -> Result<(), u64> {
        self.slots[pos]
            .compare_exchange(EMPTY, entry, Ordering::AcqRel, Ordering::Acquire)
            .map(|_| ())
    }

    /// Inserts an entry known to be absent, during migration (only
    /// migrating threads write to a table before it is published).
    fn insert_migrated(&self, hash: u64, entry: u64) {
        let mut pos = self.home(hash);
        loop {
            if self.claim(pos, entry).is_ok() {
                return;
            }
            pos = self.next_pos(pos);
        }
    }

    /// Number of migration chunks.
    fn chunks(&self) -> usize {
        self.capacity().div_ceil(CHUNK)
    }

    /// Helps migrate this table into `next` until no chunk is left to
    /// claim; `hash_of` recomputes an entry's hash. Returns `true` if this
    /// call completed the last chunk (the caller then publishes `next`).
    pub(crate) fn help_migrate(&self, next: &Table, hash_of: &dyn Fn(u64) -> u64) -> bool {
        let chunks = self.chunks();
        let mut completed_last = false;
        loop {
            let chunk = self.chunks_claimed.fetch_add(1, Ordering::Relaxed);
            if chunk >= chunks {
                return completed_last;
            }
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(self.capacity());
            let mut moved = 0;
            for slot in &self.slots[start..end] {
                let entry = slot.swap(MOVED, Ordering::AcqRel);
                debug_assert_ne!(entry, MOVED, "slot migrated twice");
                if entry != EMPTY {
                    next.insert_migrated(hash_of(entry), entry);
                    moved += 1;
                }
            }
            next.count.fetch_add(moved, Ordering::Relaxed);
            let done = self.chunks_done.fetch_add(1, Ordering::AcqRel) + 1;
            completed_last |= done == chunks;
        }
    }
}

/// The current generation of each segment of a growing set of slots: a
/// visited set or node table holds one, and every inserting thread helps
/// the segment it inserts into grow.
pub(crate) struct Tables {
    segments: Box<[Atomic<Table>]>,
    /// `segments.len() - 1` (a power of two minus one).
    mask: usize,
}

/// Inserts one handle counted into the current generations of segments
/// but has not yet added to their shared counts (flushed in batches, so a
/// count is not a contended line); made by [`Tables::unflushed`] with one
/// count per segment (`Default`, empty, stands for no table).
#[derive(Clone, Default)]
pub(crate) struct Unflushed {
    /// Per segment: (the table the count belongs to, by address; count).
    counts: Vec<(usize, usize)>,
}

impl Tables {
    /// First tables of `capacity` slots in all (at least two), split into
    /// as many segments as keeps each at least [`MIN_SEGMENT_SLOTS`] (at
    /// most [`MAX_SEGMENTS`]).
    pub(crate) fn new(capacity: usize) -> Self {
        let capacity = capacity.max(2);
        let segments = 1
            << (capacity / MIN_SEGMENT_SLOTS)
                .clamp(1, MAX_SEGMENTS)
                .ilog2();
        let per = capacity.div_ceil(segments);
        Tables {
            segments: (0..segments)
                .map(|k| Atomic::new(Table::try_new(per, k).expect("memory for the table")))
                .collect(),
            mask: segments - 1,
        }
    }

    /// An empty count of unflushed inserts, one per segment, for one
    /// inserting handle.
    pub(crate) fn unflushed(&self) -> Unflushed {
        Unflushed {
            counts: vec![(0, 0); self.segments.len()],
        }
    }

    /// Number of segments.
    #[cfg(test)]
    pub(crate) fn segments(&self) -> usize {
        self.segments.len()
    }

    /// The capacity of each segment's current table.
    #[cfg(test)]
    pub(crate) fn capacities(&self) -> Vec<usize> {
        let guard = crossbeam::epoch::pin();
        self.segments
            .iter()
            // SAFETY: as in `current`.
            .map(|segment| unsafe { segment.load(Ordering::Acquire, &guard).deref() }.capacity())
            .collect()
    }

    /// The segment of `hash`: bits 32 and up, which neither the home (the
    /// low 32 bits) nor the stores' tags (the top bits) use.
    #[inline(always)]
    fn segment_of(&self, hash: u64) -> usize {
        (hash >> 32) as usize & self.mask
    }

    /// The current table of the segment of `hash`, alive as long as
    /// `guard`.
    #[inline]
    pub(crate) fn current<'g>(&self, hash: u64, guard: &'g Guard) -> &'g Table {
        let shared = self.segments[self.segment_of(hash)].load(Ordering::Acquire, guard);
        // SAFETY: a segment's current table is only retired (deferred)
        // after being replaced, and `guard` keeps it alive while it is used.
        unsafe { shared.deref() }
    }

    /// Bytes of the current tables.
    pub(crate) fn bytes(&self) -> u64 {
        let guard = crossbeam::epoch::pin();
        self.segments
            .iter()
            .map(|segment| {
                // SAFETY: as in `current`.
                unsafe { segment.load(Ordering::Acquire, &guard).deref() }.bytes()
            })
            .sum()
    }

    /// Counts an insert into `table`, flushing the count in batches and
    /// starting growth past `max_load_per_1024`.
    #[inline]
    pub(crate) fn count_insert(
        &self,
        unflushed: &mut Unflushed,
        table: &Table,
        max_load_per_1024: usize,
        memory: &Memory,
    ) {
        debug_assert_eq!(unflushed.counts.len(), self.segments.len());
        let id = table as *const Table as usize;
        let (owner, count) = &mut unflushed.counts[table.segment];
        if *owner != id {
            *owner = id;
            *count = 0;
        }
        *count += 1;
        // Small batches: a handle may hold up to one batch per segment
        // unflushed, which the fill limit must leave room for.
        let batch = (table.capacity() >> 10).clamp(1, 16);
        if *count >= batch {
            let total = table.count.fetch_add(*count, Ordering::Relaxed) + *count;
            *count = 0;
            if total * 1024 > table.capacity() * max_load_per_1024 {
                // A refused growth sets `memory`'s stop, which the next
                // insert reports.
                let _ = self.start_grow(table, memory);
            }
        }
    }

    /// Starts migrating `table` into one twice as large, unless another
    /// thread did already.
    pub(crate) fn start_grow(&self, table: &Table, memory: &Memory) -> Result<(), Full> {
        if table
            .growing
            .compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            return Ok(());
        }
        // Reserve before allocating, so a refused table is never allocated.
        // Doubling, not growing by half as the sequential store does (see
        // the module docs).
        let capacity = table.capacity() * 2;
        let bytes = Table::bytes_for(capacity);
        memory.reserve(bytes)?;
        let Some(next) = Table::try_new(capacity, table.segment) else {
            // The system refused the table: every helper stops (they watch
            // the memory stop), a memory stop rather than an abort.
            memory.release(bytes);
            return Err(memory.refuse());
        };
        table.next.store(Owned::new(next), Ordering::Release);
        Ok(())
    }

    /// Helps the migration of `table` (`hash_of` recomputes an entry's
    /// hash) and returns once its segment's new table is published.
    pub(crate) fn help_grow(
        &self,
        table: &Table,
        guard: &Guard,
        memory: &Memory,
        hash_of: &dyn Fn(u64) -> u64,
    ) -> Result<(), Full> {
        let backoff = crossbeam::utils::Backoff::new();
        let next = loop {
            if memory.is_out() {
                return Err(Full::Memory);
            }
            let next = table.next.load(Ordering::Acquire, guard);
            if !next.is_null() {
                break next;
            }
            backoff.snooze();
        };
        let segment = &self.segments[table.segment];
        // SAFETY: `next` is only retired after it has itself been replaced,
        // which needs this migration to finish first; `guard` protects it.
        let next_table = unsafe { next.deref() };
        if table.help_migrate(next_table, hash_of) {
            let old = segment.swap(next, Ordering::AcqRel, guard);
            memory.release(table.bytes());
            // SAFETY: `old` is no longer reachable from the segment;
            // threads still probing it hold guards, so destruction waits
            // for them.
            unsafe { guard.defer_destroy(old) };
            // Hand the old table to the global queue now: left in this
            // thread's bag it would wait for 63 more deferred objects, so
            // old tables would stay allocated long after their migration.
            guard.flush();
        } else {
            let backoff = crossbeam::utils::Backoff::new();
            while std::ptr::eq(segment.load(Ordering::Acquire, guard).as_raw(), table) {
                backoff.snooze();
            }
        }
        Ok(())
    }
}

impl Drop for Tables {
    fn drop(&mut self) {
        // SAFETY: `&mut self`: no other thread can reach the tables.
        unsafe {
            let guard = crossbeam::epoch::unprotected();
            for segment in self.segments.iter() {
                let table = segment.load(Ordering::Relaxed, guard);
                drop(table.into_owned());
            }
        }
    }
}

/// Exhaustive interleavings of the slot protocol under loom:
/// `RUSTFLAGS="--cfg loom" cargo test -p orbit-workers --lib --release loom`.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::thread;

    fn entries(table: &Table) -> Vec<u64> {
        table
            .slots
            .iter()
            .map(|s| s.load(Ordering::SeqCst))
            .filter(|&e| e != EMPTY && e != MOVED)
            .collect()
    }

    /// Tries to insert `entry` into `old` as the set does; returns
    /// `false` if the table turned out to be migrating (the set then waits
    /// for the migration and retries in the new table).
    fn insert_or_moved(old: &Table, entry: u64) -> bool {
        let mut pos = old.home(entry);
        loop {
            match old.probe(pos) {
                Probe::Entry(e) if e == entry => return true,
                Probe::Entry(_) => pos = old.next_pos(pos),
                Probe::Moved => return false,
                Probe::Empty => match old.claim(pos, entry) {
                    Ok(()) => return true,
                    Err(MOVED) => return false,
                    Err(e) if e == entry => return true,
                    Err(_) => pos = old.next_pos(pos),
                },
            }
        }
    }

    /// Two threads insert the same key into a table that a third thread
    /// migrates concurrently; inserters that meet the migration retry in
    /// the new table after it. The key ends up in the new table exactly
    /// once and nothing is left behind.
    #[test]
    fn loom_racing_inserts_and_migration_keep_one_copy() {
        loom::model(|| {
            let old = Arc::new(Table::new(2));
            let next = Arc::new(Table::new(4));
            let threads: Vec<_> = (0..2)
                .map(|_| {
                    let old = old.clone();
                    thread::spawn(move || insert_or_moved(&old, 5))
                })
                .collect();
            old.help_migrate(&next, &|e| e);
            for t in threads {
                if !t.join().unwrap() && !entries(&next).contains(&5) {
                    let pos = next.home(5);
                    assert!(
                        next.claim(pos, 5).is_ok() || next.claim(next.next_pos(pos), 5).is_ok()
                    );
                }
            }
            assert_eq!(entries(&old), Vec::<u64>::new());
            assert_eq!(entries(&next), vec![5]);
        });
    }

    /// Two threads claim the same empty slot for different keys: exactly
    /// one wins, the other sees the winner's entry.
    #[test]
    fn loom_one_claim_wins() {
        loom::model(|| {
            let table = Arc::new(Table::new(2));
            let t2 = table.clone();
            let other = thread::spawn(move || t2.claim(0, 7));
            let mine = table.claim(0, 9);
            let theirs = other.join().unwrap();
            match (mine, theirs) {
                (Ok(()), Err(9)) | (Err(7), Ok(())) => {}
                outcome => panic!("{outcome:?}"),
            }
        });
    }
}
