//! The concurrent visited set of the parallel engines.
//!
//! A lock-free hash set (`table`) of 64-bit entries over per-worker
//! append-only record arenas (`arena`):
//!
//! * **exact** mode: a record is the state's significant bytes
//!   ([`key`]: 9 bytes for a 68-bit state) then the parent's 48-bit
//!   reference in 6 bytes; an
//!   entry is a 16-bit fingerprint tag above a 48-bit reference to the
//!   record (8 bits of worker, 40 of index). A tag match is confirmed by
//!   comparing the stored state, so no state is ever missed.
//! * **compact** mode: a record is the 8-byte fingerprint then the parent
//!   reference (14 bytes); an entry is the 64-bit fingerprint itself, and equal fingerprints are
//!   taken for equal states (TLC's approach), which misses a state with
//!   the small probability of [`crate::Stats::collision_probability`].
//!
//! The table holds 8 bytes per slot and stays small and cache-friendly:
//! probing compares entries and only touches a stored state on a tag
//! match. An inserting worker appends its record speculatively when it
//! reaches an empty slot, then claims the slot with a CAS; if another
//! worker inserted the same state first, the record is taken back (it was
//! never published). Old tables are freed through crossbeam-epoch once no
//! thread can still be probing them.

mod arena;
pub(crate) mod key;
mod primitive;
mod table;

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

use crossbeam::epoch::{Guard, Owned};

use crate::trace::StepKey;
use arena::Arena;
use key::KeyCodec;
use primitive::{AtomicU64, Ordering};
use table::{Probe, Table};

/// A reference to a stored record: worker in the high bits, index below.
pub type Ref = u64;
/// The parent reference of initial states.
pub const NO_PARENT: Ref = u64::MAX;
/// Bits of a [`Ref`] holding the record index.
const INDEX_BITS: u32 = 40;
/// Bits of a [`Ref`] holding the worker (so at most 256 workers).
const WORKER_BITS: u32 = 8;
/// Largest number of workers (arenas) a set supports.
pub const MAX_WORKERS: usize = 1 << WORKER_BITS;
const REF_BITS: u32 = INDEX_BITS + WORKER_BITS;
const REF_MASK: u64 = (1 << REF_BITS) - 1;
/// Bytes of a stored parent reference.
const PARENT_BYTES: usize = (REF_BITS / 8) as usize;
/// How [`NO_PARENT`] is stored (all 48 bits set: no record index reaches
/// it, see [`VisitedSet::append`]).
const NO_PARENT_STORED: u64 = REF_MASK;
/// Largest table fill ratio, as a fraction of 1024, before growing.
const MAX_LOAD_PER_1024: usize = 819;

/// Result of [`VisitedSet::insert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// The state is new; its record has this reference.
    New(Ref),
    /// The state was already stored.
    Seen,
}

/// Why the store refused a new state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// Storing it would pass the memory bound (every later new state is
    /// refused too).
    Memory,
    /// The set holds its limit of states ([`VisitedSet::limit_states`]).
    States,
}

/// One worker's right to append to its arena: exactly one per worker,
/// neither `Clone` nor `Sync`, so each arena has a single writer.
pub struct Handle {
    /// The [`VisitedSet::id`] of the set that made this handle.
    set: u64,
    worker: usize,
    unflushed: usize,
    unflushed_table: usize,
    /// The record being appended, built here and copied into the arena.
    record: Vec<u8>,
    _not_sync: PhantomData<Cell<()>>,
}

/// The concurrent visited set. See the module docs.
pub struct VisitedSet {
    /// Unique among all sets of the process: ties handles to their set.
    id: u64,
    key: KeyCodec,
    /// Bytes of a record's key: the state's ([`KeyCodec::bytes`]) or 8.
    key_bytes: usize,
    compact: bool,
    arenas: Box<[Arena]>,
    table: crossbeam::epoch::Atomic<Table>,
    bytes: AtomicU64,
    memory_limit: Option<u64>,
    out_of_memory: AtomicBool,
    /// Most states the set may hold ([`VisitedSet::limit_states`]).
    max_states: Option<u64>,
    /// Records appended for states that may be new: a state takes one
    /// before it claims a slot and gives it back if it turns out stored.
    appended: AtomicU64,
}

impl VisitedSet {
    /// A set for states of `width` words, of which only the first
    /// `state_bytes` bytes (little-endian) can be non-zero (see
    /// [`crate::TransitionSystem::state_bytes`]), shared by `workers`
    /// workers (at most [`MAX_WORKERS`]), starting with `capacity` slots (rounded up to
    /// a power of two), and one handle per worker. `memory_limit` bounds
    /// [`VisitedSet::bytes`].
    ///
    /// # Panics
    /// If `workers` is 0 or more than [`MAX_WORKERS`].
    ///
    /// The handles are what makes the arenas single-writer (each arena is
    /// written only through its handle, and a handle only works with its
    /// own set), so the set is safe to share however it is used.
    pub fn new(
        width: usize,
        state_bytes: usize,
        compact: bool,
        workers: usize,
        capacity: usize,
        memory_limit: Option<u64>,
    ) -> (Self, Vec<Handle>) {
        assert!(
            (1..=MAX_WORKERS).contains(&workers),
            "1 to {MAX_WORKERS} workers"
        );
        let key = KeyCodec::new(width, state_bytes);
        let key_bytes = if compact { 8 } else { key.bytes() };
        let stride = key_bytes + PARENT_BYTES;
        let table = Table::new(capacity.max(2));
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let set = VisitedSet {
            id,
            key,
            key_bytes,
            compact,
            arenas: (0..workers).map(|_| Arena::new(stride)).collect(),
            bytes: AtomicU64::new(table.bytes()),
            table: crossbeam::epoch::Atomic::new(table),
            memory_limit,
            out_of_memory: AtomicBool::new(false),
            max_states: None,
            appended: AtomicU64::new(0),
        };
        let handles = (0..workers)
            .map(|worker| Handle {
                set: id,
                worker,
                unflushed: 0,
                unflushed_table: 0,
                record: vec![0; stride],
                _not_sync: PhantomData,
            })
            .collect();
        (set, handles)
    }

    /// Refuses ([`Full::States`]) any new state past `max` stored states,
    /// however many workers insert: the set never holds more than `max`.
    /// Near the limit a state may be refused while another worker's
    /// insert of a state that turns out to be stored already holds the
    /// last place for a moment, so a search can stop a few states short
    /// of `max`, never past it.
    pub fn limit_states(&mut self, max: u64) {
        self.max_states = Some(max);
    }

    /// Distinct states stored.
    pub fn len(&self) -> u64 {
        self.arenas.iter().map(Arena::len).sum()
    }

    /// Whether no state is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes allocated: live tables and arena segments.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Reserves `extra` bytes, unless that passes the memory bound.
    fn reserve(&self, extra: u64) -> Result<(), Full> {
        let before = self.bytes.fetch_add(extra, Ordering::Relaxed);
        if self
            .memory_limit
            .is_some_and(|limit| before + extra > limit)
        {
            self.bytes.fetch_sub(extra, Ordering::Relaxed);
            self.out_of_memory.store(true, Ordering::Relaxed);
            return Err(Full::Memory);
        }
        Ok(())
    }

    /// The record behind `r`.
    #[inline]
    fn record(&self, r: Ref) -> &[u8] {
        let worker = (r >> INDEX_BITS) as usize;
        // SAFETY: references are only created by `insert` for records it
        // appended, and reach other threads only through the table or
        // records published through it (arena invariant 3).
        unsafe { self.arenas[worker].record(r & ((1 << INDEX_BITS) - 1)) }
    }

    /// The hash an entry was placed by.
    fn entry_hash(&self, entry: u64) -> u64 {
        if self.compact {
            entry
        } else {
            self.key.fingerprint(self.record(entry & REF_MASK))
        }
    }

    #[inline]
    fn matches(&self, entry: u64, want: u64, state: &[u64]) -> bool {
        if self.compact {
            entry == want
        } else {
            entry >> REF_BITS == want >> REF_BITS
                && self.key.equals(self.record(entry & REF_MASK), state)
        }
    }

    /// Inserts `state` (whose fingerprint is `fp`, see
    /// [`crate::fingerprint`]) with parent `parent` unless it is stored
    /// already. Fails if the state is new and storing it would pass the
    /// memory bound. `guard` (from `crossbeam::epoch::pin()`) keeps the
    /// tables the call may probe alive; a worker may hold one guard over
    /// many inserts, and should re-pin now and then so that old tables
    /// can be freed.
    pub fn insert(
        &self,
        handle: &mut Handle,
        guard: &Guard,
        state: &[u64],
        fp: u64,
        parent: Ref,
    ) -> Result<Insert, Full> {
        assert_eq!(
            handle.set, self.id,
            "a handle is only valid with the set that made it"
        );
        assert_eq!(state.len(), self.key.width(), "state of the wrong width");
        // The part of an entry that identifies the state: the whole
        // fingerprint in compact mode, a tag of it in exact mode.
        let want = if self.compact {
            fp
        } else {
            (fp >> REF_BITS).max(1) << REF_BITS
        };
        let mut appended: Option<Ref> = None;
        'tables: loop {
            let shared = self.table.load(Ordering::Acquire, guard);
            // SAFETY: the current table is only retired (deferred) after
            // being replaced, and `guard` keeps it alive while we use it.
            let table = unsafe { shared.deref() };
            if table.growing.load(Ordering::Acquire) != 0 {
                self.help_grow(table, guard)?;
                continue;
            }
            let mut pos = table.home(fp);
            for _ in 0..table.capacity() {
                let entry = match table.probe(pos) {
                    Probe::Moved => {
                        self.help_grow(table, guard)?;
                        continue 'tables;
                    }
                    Probe::Entry(entry) => entry,
                    Probe::Empty => {
                        let r = match appended {
                            Some(r) => r,
                            None => *appended.insert(self.append(handle, state, fp, parent)?),
                        };
                        let entry = if self.compact { fp } else { want | r };
                        match table.claim(pos, entry) {
                            Ok(()) => {
                                self.count_insert(handle, table, shared.as_raw() as usize);
                                return Ok(Insert::New(r));
                            }
                            // Someone claimed the slot first: examine their entry.
                            Err(table::MOVED) => {
                                self.help_grow(table, guard)?;
                                continue 'tables;
                            }
                            Err(entry) => entry,
                        }
                    }
                };
                if self.matches(entry, want, state) {
                    if appended.is_some() {
                        // SAFETY: our handle is the arena's only writer and
                        // the record was never published (the claim failed).
                        unsafe { self.arenas[handle.worker].truncate_last() };
                        self.give_back_appended();
                    }
                    return Ok(Insert::Seen);
                }
                pos = table.next_pos(pos);
            }
            // Every slot probed: the table is full. Grow and retry.
            self.start_grow(table)?;
        }
    }

    /// Returns the place an appended record took under the state limit.
    fn give_back_appended(&self) {
        if self.max_states.is_some() {
            self.appended.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Appends the record of a (probably) new state to our arena.
    fn append(
        &self,
        handle: &mut Handle,
        state: &[u64],
        fp: u64,
        parent: Ref,
    ) -> Result<Ref, Full> {
        // The shared count is only kept under a state limit (off the hot
        // path otherwise).
        if let Some(max) = self.max_states
            && self.appended.fetch_add(1, Ordering::Relaxed) >= max
        {
            self.appended.fetch_sub(1, Ordering::Relaxed);
            return Err(Full::States);
        }
        let arena = &self.arenas[handle.worker];
        if arena.len() >= NO_PARENT_STORED & ((1 << INDEX_BITS) - 1) {
            // The last index would read back as "no parent".
            self.give_back_appended();
            return Err(Full::States);
        }
        let needed = arena.bytes_needed_for_push();
        if needed > 0
            && let Err(full) = self.reserve(needed)
        {
            self.give_back_appended();
            return Err(full);
        }
        let stored_parent = if parent == NO_PARENT {
            NO_PARENT_STORED
        } else {
            parent
        };
        let (head, tail) = handle.record.split_at_mut(self.key_bytes);
        if self.compact {
            head.copy_from_slice(&fp.to_le_bytes());
        } else {
            self.key.write(state, head);
        }
        tail.copy_from_slice(&stored_parent.to_le_bytes()[..PARENT_BYTES]);
        // SAFETY: `handle` is the unique writer of this arena (one handle
        // per worker, not Clone, not Sync, borrowed mutably here).
        let index = unsafe { arena.push(&handle.record) };
        let Some(index) = index else {
            // The system refused the segment: a memory stop, not an abort.
            self.bytes.fetch_sub(needed, Ordering::Relaxed);
            self.out_of_memory.store(true, Ordering::Relaxed);
            self.give_back_appended();
            return Err(Full::Memory);
        };
        Ok(((handle.worker as u64) << INDEX_BITS) | index)
    }

    /// Counts an insert into `table`, flushing the count in batches and
    /// starting growth past the load bound.
    fn count_insert(&self, handle: &mut Handle, table: &Table, table_id: usize) {
        if handle.unflushed_table != table_id {
            handle.unflushed_table = table_id;
            handle.unflushed = 0;
        }
        handle.unflushed += 1;
        let batch = (table.capacity() >> 6).clamp(1, 64);
        if handle.unflushed >= batch {
            let count =
                table.count.fetch_add(handle.unflushed, Ordering::Relaxed) + handle.unflushed;
            handle.unflushed = 0;
            if count * 1024 > table.capacity() * MAX_LOAD_PER_1024 {
                // A failure to grow (memory bound) is reported by the next
                // insert, which finds `out_of_memory` set.
                let _ = self.start_grow(table);
            }
        }
    }

    /// Starts migrating `table` into one twice as large, unless another
    /// thread did already.
    fn start_grow(&self, table: &Table) -> Result<(), Full> {
        if table
            .growing
            .compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            return Ok(());
        }
        // Reserve before allocating, so a refused table is never allocated.
        // Doubling, not growing by half as the sequential store does: the
        // old table serves lookups until its migration ends, so each
        // growth holds both; over state counts from 10^5 to 10^7 both
        // rules give the same mean peak (33 bytes per state, simulated),
        // and doubling migrates half as often.
        let capacity = table.capacity() * 2;
        let bytes = Table::bytes_for(capacity);
        self.reserve(bytes)?;
        let Some(next) = Table::try_new(capacity) else {
            // The system refused the table: every helper stops (they watch
            // `out_of_memory`), a memory stop rather than an abort.
            self.bytes.fetch_sub(bytes, Ordering::Relaxed);
            self.out_of_memory.store(true, Ordering::Relaxed);
            return Err(Full::Memory);
        };
        table.next.store(Owned::new(next), Ordering::Release);
        Ok(())
    }

    /// Helps the migration of `table` and returns once the new table is
    /// published.
    fn help_grow(&self, table: &Table, guard: &Guard) -> Result<(), Full> {
        let backoff = crossbeam::utils::Backoff::new();
        let next = loop {
            if self.out_of_memory.load(Ordering::Relaxed) {
                return Err(Full::Memory);
            }
            let next = table.next.load(Ordering::Acquire, guard);
            if !next.is_null() {
                break next;
            }
            backoff.snooze();
        };
        // SAFETY: `next` is only retired after it has itself been replaced,
        // which needs this migration to finish first; `guard` protects it.
        let next_table = unsafe { next.deref() };
        if table.help_migrate(next_table, &|entry| self.entry_hash(entry)) {
            let old = self.table.swap(next, Ordering::AcqRel, guard);
            self.bytes.fetch_sub(table.bytes(), Ordering::Relaxed);
            // SAFETY: `old` is no longer reachable from `self.table`; threads
            // still probing it hold guards, so destruction waits for them.
            unsafe { guard.defer_destroy(old) };
            // Hand the old table to the global queue now: left in this
            // thread's bag it would wait for 63 more deferred objects, so
            // every old table (together as large as the current one)
            // would stay allocated to the end of the search.
            guard.flush();
        } else {
            let backoff = crossbeam::utils::Backoff::new();
            while std::ptr::eq(self.table.load(Ordering::Acquire, guard).as_raw(), table) {
                backoff.snooze();
            }
        }
        Ok(())
    }

    /// Reads the state of `r` (a reference this set returned) into `out`.
    ///
    /// # Panics
    /// In compact mode, which stores no states.
    #[inline]
    pub fn read_state(&self, r: Ref, out: &mut Vec<u64>) {
        assert!(
            !self.compact,
            "a compact set stores fingerprints, not states"
        );
        self.key.read_into(self.record(r), out);
    }

    /// The parent reference stored at the end of a record.
    fn parent_in(record: &[u8]) -> Ref {
        let mut parent = [0u8; 8];
        parent[..PARENT_BYTES].copy_from_slice(&record[record.len() - PARENT_BYTES..]);
        match u64::from_le_bytes(parent) {
            NO_PARENT_STORED => NO_PARENT,
            r => r,
        }
    }

    /// The chain of keys from an initial state to the state of `r`.
    pub(crate) fn chain_to(&self, mut r: Ref) -> Vec<StepKey> {
        let mut chain = Vec::new();
        loop {
            let record = self.record(r);
            let (head, tail) = record.split_at(self.key_bytes);
            chain.push(if self.compact {
                StepKey::Fingerprint(u64::from_le_bytes(head.try_into().expect("8 bytes")))
            } else {
                StepKey::Words(self.key.read(head).into())
            });
            r = Self::parent_in(tail);
            if r == NO_PARENT {
                break;
            }
        }
        chain.reverse();
        chain
    }
}

impl Drop for VisitedSet {
    fn drop(&mut self) {
        // SAFETY: `&mut self`: no other thread can reach the table.
        unsafe {
            let guard = crossbeam::epoch::unprotected();
            let table = self.table.load(Ordering::Relaxed, guard);
            drop(table.into_owned());
        }
    }
}

#[cfg(test)]
mod tests;
