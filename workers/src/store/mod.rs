//! The concurrent visited set of the parallel engines.
//!
//! A lock-free hash set (`table`) of tagged references over per-worker
//! append-only record arenas (`arena`):
//!
//! * **exact** mode: a record is the state's significant bytes
//!   ([`key`]: 9 bytes for a 68-bit state) then the parent's 40-bit
//!   reference in 5 bytes; an entry is a fingerprint tag above a
//!   reference to the record (the index above the worker's bits, as few
//!   as the workers need). A tag match is confirmed by comparing the
//!   stored state, so no state is ever missed.
//! * **tree** mode: as exact, but a record's key is the 8-byte root of
//!   the state's tree of hash-consed nodes ([`tree`]), kept in a node
//!   store beside the set; a state shared in part with others costs its
//!   root, its record and the few nodes it adds.
//! * **compact** mode: a record is the 8-byte fingerprint then the parent
//!   reference (13 bytes); an entry is the 64-bit fingerprint itself, and equal fingerprints are
//!   taken for equal states (TLC's approach), which misses a state with
//!   the small probability of [`crate::Stats::collision_probability`].
//!
//! The table stays small and cache-friendly: probing compares entries and
//! only touches a stored state on a tag match. Exact and tree entries take
//! 4 bytes while references are small (26 bits of reference with room for
//! four times the records, so up to about 2^24 records; a tag of the bits
//! the reference leaves, at least 6) and 8 bytes beyond (a 24-bit tag
//! above a 40-bit reference); German with 4 nodes at two threads, 544,617
//! states: 24.1 MB peak with 8-byte entries, 20.2 MB with 4-byte ones, the
//! same 0.87 s (medians of 7, interleaved); with 5 nodes, 10,977,849
//! states: 335 against 270 MB, 23.7 against 23.2 s (medians of 3).
//! An inserting worker appends its record speculatively when it
//! reaches an empty slot, then claims the slot with a CAS; if another
//! worker inserted the same state first, the record is taken back (it was
//! never published). Old tables are freed through crossbeam-epoch once no
//! thread can still be probing them.

mod arena;
pub(crate) mod key;
pub(crate) mod parent;
mod primitive;
pub(crate) mod slots;
mod table;
pub(crate) mod tree;

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

use crossbeam::epoch::Guard;

use crate::config::StoreKind;
use crate::trace::StepKey;
use arena::Arena;
use key::KeyCodec;
use primitive::{AtomicU64, Ordering};
use table::{Probe, Tables, Unflushed};
use tree::Compressor;
use tree::shared::{Cons, SharedNodes};

/// A reference to a stored record: the index above the worker (as many
/// worker bits as the set's number of workers needs, the rest of
/// [`REF_BITS`] for the index), so that references stay as small as the
/// records stored, which lets the table keep them in 4-byte slots.
pub type Ref = u64;
/// The parent reference of initial states.
pub const NO_PARENT: Ref = u64::MAX;
/// Bits of a [`Ref`]: worker and index together. 40 bits, so that a
/// stored parent takes 5 bytes and an entry keeps 24 bits of tag; a set
/// of `w` workers leaves `40 - ceil(log2 w)` bits of index per worker (2^32
/// records each at the most workers, 2^39 at two).
const REF_BITS: u32 = table::ENTRY_REF_BITS;
/// Bits of a [`Ref`] a worker may take at most (so at most 256 workers).
const WORKER_BITS: u32 = 8;
/// Largest number of workers (arenas) a set supports.
pub const MAX_WORKERS: usize = 1 << WORKER_BITS;
const REF_MASK: u64 = (1 << REF_BITS) - 1;
use parent::PARENT_BYTES;
const _: () = assert!(
    parent::NO_PARENT_STORED == REF_MASK,
    "a parent is a whole reference"
);
/// Largest table fill ratio, as a fraction of 1024, before growing.
const MAX_LOAD_PER_1024: usize = 819;

/// A set's entries rehashed from their records, for a migration.
struct EntryHash<'a>(&'a VisitedSet);

impl table::Rehash for EntryHash<'_> {
    fn hash(&self, entry: u64) -> u64 {
        self.0.entry_hash(entry)
    }

    fn prefetch(&self, entry: u64) {
        self.0.prefetch_entry(entry);
    }
}

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
    /// A worker's arena of records or of tree nodes has used every index
    /// its references can name.
    Nodes,
}

/// The bytes a set holds and its bound, shared by its tables and arenas.
pub(crate) struct Memory {
    bytes: AtomicU64,
    limit: Option<u64>,
    /// Set when an allocation was refused: every later one is refused too.
    out: AtomicBool,
}

impl Memory {
    fn new(limit: Option<u64>) -> Self {
        Memory {
            bytes: AtomicU64::new(0),
            limit,
            out: AtomicBool::new(false),
        }
    }

    /// Reserves `extra` bytes, unless that passes the bound.
    pub(crate) fn reserve(&self, extra: u64) -> Result<(), Full> {
        let before = self.bytes.fetch_add(extra, Ordering::Relaxed);
        if self.limit.is_some_and(|limit| before + extra > limit) {
            self.bytes.fetch_sub(extra, Ordering::Relaxed);
            return Err(self.refuse());
        }
        Ok(())
    }

    /// Returns `bytes` reserved earlier.
    pub(crate) fn release(&self, bytes: u64) {
        self.bytes.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Records that memory was refused; the error to return.
    pub(crate) fn refuse(&self) -> Full {
        self.out.store(true, std::sync::atomic::Ordering::Relaxed);
        Full::Memory
    }

    /// Whether memory was refused.
    pub(crate) fn is_out(&self) -> bool {
        self.out.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// One worker's right to append to its arena: exactly one per worker,
/// neither `Clone` nor `Sync`, so each arena has a single writer.
pub struct Handle {
    /// The [`VisitedSet::id`] of the set that made this handle.
    set: u64,
    worker: usize,
    unflushed: Unflushed,
    /// Inserts into the node table not yet counted there (tree mode).
    unflushed_nodes: Unflushed,
    /// The record being appended, built here and copied into the arena.
    record: Vec<u8>,
    /// Tree mode: the tree of the state whose successors are inserted.
    compressor: Option<Compressor>,
    _not_sync: PhantomData<Cell<()>>,
}

impl Handle {
    /// Reallocates the handle's buffers (the record being built, the tree
    /// compressor's, the unflushed counts) from the calling thread's
    /// allocator heap. A worker calls it on its own thread: handles are
    /// made together on one thread, so their small buffers lie side by
    /// side, and two workers writing theirs would share cache lines.
    pub fn rehome(&mut self) {
        self.record = self.record.clone();
        self.unflushed = self.unflushed.clone();
        self.unflushed_nodes = self.unflushed_nodes.clone();
        self.compressor = self.compressor.clone();
    }
}

/// The concurrent visited set. See the module docs.
pub struct VisitedSet {
    /// Unique among all sets of the process: ties handles to their set.
    id: u64,
    /// Words of a state.
    width: usize,
    /// How a record's key is kept: the state's significant bytes, or (tree
    /// mode) its one-word root.
    key: KeyCodec,
    /// Bytes of a record's key: the state's ([`KeyCodec::bytes`]) or 8.
    key_bytes: usize,
    compact: bool,
    /// Tree mode: the nodes the roots refer to.
    nodes: Option<SharedNodes>,
    arenas: Box<[Arena]>,
    /// Bits of a [`Ref`] below the index: the worker's.
    worker_bits: u32,
    /// Bits of a [`Ref`] above the worker's: the record index.
    index_bits: u32,
    tables: Tables,
    memory: Memory,
    /// Most states the set may hold ([`VisitedSet::limit_states`]).
    max_states: Option<u64>,
    /// Records appended for states that may be new: a state takes one
    /// before it claims a slot and gives it back if it turns out stored.
    appended: AtomicU64,
}

impl VisitedSet {
    /// A set for states of `width` words, of which only the first
    /// `state_bytes` bytes (little-endian) can be non-zero (see
    /// [`crate::TransitionSystem::state_bytes`]), kept as `kind` says,
    /// shared by `workers` workers (at most [`MAX_WORKERS`]), starting with
    /// `capacity` slots, and one handle per worker. `memory_limit` bounds
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
        kind: StoreKind,
        workers: usize,
        capacity: usize,
        memory_limit: Option<u64>,
    ) -> (Self, Vec<Handle>) {
        assert!(
            (1..=MAX_WORKERS).contains(&workers),
            "1 to {MAX_WORKERS} workers"
        );
        let compact = kind == StoreKind::Compact;
        let tree = kind == StoreKind::Tree;
        let key = KeyCodec::for_store(kind, width, state_bytes);
        let key_bytes = if compact { 8 } else { key.bytes() };
        let stride = key_bytes + PARENT_BYTES;
        let tables = Tables::new(capacity, !compact);
        let memory = Memory::new(memory_limit);
        // The first tables are taken whatever the bound: a search that
        // cannot hold them stops at its first state.
        memory.bytes.fetch_add(tables.bytes(), Ordering::Relaxed);
        let nodes = tree.then(|| {
            let nodes = SharedNodes::new(workers);
            memory.bytes.fetch_add(nodes.bytes(), Ordering::Relaxed);
            nodes
        });
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let set = VisitedSet {
            id,
            width,
            key,
            key_bytes,
            compact,
            nodes,
            arenas: (0..workers).map(|_| Arena::new(stride)).collect(),
            worker_bits: usize::BITS - (workers - 1).leading_zeros(),
            index_bits: REF_BITS - (usize::BITS - (workers - 1).leading_zeros()),
            tables,
            memory,
            max_states: None,
            appended: AtomicU64::new(0),
        };
        let handles = (0..workers)
            .map(|worker| Handle {
                set: id,
                worker,
                unflushed: set.tables.unflushed(),
                unflushed_nodes: set
                    .nodes
                    .as_ref()
                    .map_or_else(Unflushed::default, SharedNodes::unflushed),
                record: vec![0; stride],
                compressor: tree.then(|| Compressor::new(width)),
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

    /// Tree mode: the nodes stored (0 otherwise).
    pub fn nodes(&self) -> u64 {
        self.nodes.as_ref().map_or(0, SharedNodes::len)
    }

    /// Bytes allocated: live tables and arena segments.
    pub fn bytes(&self) -> u64 {
        self.memory.bytes.load(Ordering::Relaxed)
    }

    /// The record behind `r`.
    #[inline]
    fn record(&self, r: Ref) -> &[u8] {
        let worker = (r & ((1 << self.worker_bits) - 1)) as usize;
        // SAFETY: references are only created by `insert` for records it
        // appended, and reach other threads only through the table or
        // records published through it (arena invariant 3).
        unsafe { self.arenas[worker].record(r >> self.worker_bits) }
    }

    /// The hash an entry was placed by.
    fn entry_hash(&self, entry: u64) -> u64 {
        if self.compact {
            entry
        } else {
            self.key.fingerprint(self.record(entry & REF_MASK))
        }
    }

    /// Starts loading the record [`VisitedSet::entry_hash`] reads.
    #[inline]
    fn prefetch_entry(&self, entry: u64) {
        if !self.compact {
            crate::hash::prefetch(self.record(entry & REF_MASK).as_ptr());
        }
    }

    #[inline]
    fn matches(&self, entry: u64, want: u64, key: &[u64]) -> bool {
        if self.compact {
            entry == want
        } else {
            entry >> REF_BITS == want >> REF_BITS
                && self.key.equals(self.record(entry & REF_MASK), key)
        }
    }

    /// Tree mode: the root of `state`, compressed against the tree of
    /// `parent` (whose successors are usually inserted one after another).
    fn root(
        &self,
        nodes: &SharedNodes,
        handle: &mut Handle,
        guard: &Guard,
        state: &[u64],
        parent: Ref,
    ) -> Result<u64, Full> {
        let compressor = handle.compressor.as_mut().expect("tree mode");
        if parent == NO_PARENT {
            compressor.clear_base();
        } else if compressor.base() != Some(parent) {
            let root = self.key.word(self.record(parent), 0);
            compressor.set_base(nodes, parent, root);
        }
        compressor.root(
            &mut Cons {
                nodes,
                worker: handle.worker,
                unflushed: &mut handle.unflushed_nodes,
                guard,
                memory: &self.memory,
            },
            state,
        )
    }

    /// Inserts `state` with parent `parent` unless it is stored already
    /// (placed by its [`crate::fingerprint`], or with a tree store by its
    /// root's). Fails if the state is new and storing it would pass the
    /// memory bound. `guard` (from `crossbeam::epoch::pin()`) keeps the
    /// tables the call may probe alive; a worker may hold one guard over
    /// many inserts, and should re-pin now and then so that old tables
    /// can be freed.
    pub fn insert(
        &self,
        handle: &mut Handle,
        guard: &Guard,
        state: &[u64],
        parent: Ref,
    ) -> Result<Insert, Full> {
        let fp = crate::hash::fingerprint(state);
        self.insert_with_fingerprint(handle, guard, state, fp, parent)
    }

    /// [`VisitedSet::insert`] of a state whose fingerprint `fp`
    /// ([`crate::hash::fingerprint`]) the caller already computed (to
    /// [`VisitedSet::prefetch`] its slot, say); tree mode, which places a
    /// state by its root, does not use it.
    pub fn insert_with_fingerprint(
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
        assert_eq!(state.len(), self.width, "state of the wrong width");
        // Tree mode stores and compares the state's root, placed by its
        // own hash (a table migration rehashes stored keys, which are roots).
        let root;
        let (key, fp) = match &self.nodes {
            Some(nodes) => {
                root = [self.root(nodes, handle, guard, state, parent)?];
                (&root[..], crate::hash::fingerprint(&root))
            }
            None => (state, fp),
        };
        let entry_hash = EntryHash(self);
        let mut appended: Option<Ref> = None;
        'tables: loop {
            let table = self.tables.current(fp, guard);
            if table.growing.load(Ordering::Acquire) != 0 {
                self.tables
                    .help_grow(table, guard, &self.memory, &entry_hash)?;
                continue;
            }
            // The part of an entry that identifies the state: the whole
            // fingerprint in compact mode, a tag of it otherwise (as many
            // of its bits as the table's slots keep).
            let want = if self.compact { fp } else { table.tag(fp) };
            let mut pos = table.home(fp);
            for _ in 0..table.capacity() {
                let entry = match table.probe(pos) {
                    Probe::Moved => {
                        self.tables
                            .help_grow(table, guard, &self.memory, &entry_hash)?;
                        continue 'tables;
                    }
                    Probe::Entry(entry) => entry,
                    Probe::Empty => {
                        let r = match appended {
                            Some(r) => r,
                            None => *appended.insert(self.append(handle, key, fp, parent)?),
                        };
                        if !self.compact && !table.fits(r) {
                            // The table's slots are too narrow for the
                            // reference: move to wider ones and retry.
                            self.tables.start_widening(table, r, &self.memory)?;
                            self.tables
                                .help_grow(table, guard, &self.memory, &entry_hash)?;
                            continue 'tables;
                        }
                        let entry = if self.compact { fp } else { want | r };
                        match table.claim(pos, entry) {
                            Ok(()) => {
                                self.tables.count_insert(
                                    &mut handle.unflushed,
                                    table,
                                    MAX_LOAD_PER_1024,
                                    &self.memory,
                                );
                                return Ok(Insert::New(r));
                            }
                            // Someone claimed the slot first: examine their entry.
                            Err(table::MOVED) => {
                                self.tables
                                    .help_grow(table, guard, &self.memory, &entry_hash)?;
                                continue 'tables;
                            }
                            Err(entry) => entry,
                        }
                    }
                };
                if self.matches(entry, want, key) {
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
            self.tables.start_grow(table, &self.memory)?;
        }
    }

    /// Returns the place an appended record took under the state limit.
    fn give_back_appended(&self) {
        if self.max_states.is_some() {
            self.appended.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Appends the record of a (probably) new state, whose stored key is
    /// `key` (the state, or its root in tree mode), to our arena.
    fn append(&self, handle: &mut Handle, key: &[u64], fp: u64, parent: Ref) -> Result<Ref, Full> {
        // The shared count is only kept under a state limit (off the hot
        // path otherwise).
        if let Some(max) = self.max_states
            && self.appended.fetch_add(1, Ordering::Relaxed) >= max
        {
            self.appended.fetch_sub(1, Ordering::Relaxed);
            return Err(Full::States);
        }
        let arena = &self.arenas[handle.worker];
        if arena.len() >= (1 << self.index_bits) - 1 {
            // The last index of the last worker would read back as "no
            // parent" (every worker keeps the same limit).
            self.give_back_appended();
            return Err(Full::Nodes);
        }
        let needed = arena.bytes_needed_for_push();
        if needed > 0
            && let Err(full) = self.memory.reserve(needed)
        {
            self.give_back_appended();
            return Err(full);
        }
        let (head, tail) = handle.record.split_at_mut(self.key_bytes);
        if self.compact {
            head.copy_from_slice(&fp.to_le_bytes());
        } else {
            self.key.write(key, head);
        }
        parent::write(parent, tail);
        // SAFETY: `handle` is the unique writer of this arena (one handle
        // per worker, not Clone, not Sync, borrowed mutably here).
        let index = unsafe { arena.push(&handle.record) };
        let Some(index) = index else {
            // The system refused the segment: a memory stop, not an abort.
            self.memory.release(needed);
            self.give_back_appended();
            return Err(self.memory.refuse());
        };
        let r = (index << self.worker_bits) | handle.worker as u64;
        if index & index.wrapping_sub(1) == 0 {
            // A power of two (or 0): the references' bit length may grow.
            self.tables.note_ref(r);
        }
        Ok(r)
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
        match &self.nodes {
            Some(nodes) => {
                out.clear();
                out.resize(self.width, 0);
                tree::expand(nodes, self.key.word(self.record(r), 0), out);
            }
            None => self.key.read_into(self.record(r), out),
        }
    }

    /// Prefetches the table slot where the state of fingerprint `fp`
    /// ([`crate::hash::fingerprint`]) would be looked up, so that a worker
    /// that holds several successors can overlap their memory accesses
    /// before inserting them one by one. Nothing in tree mode (where the
    /// slot depends on the root, not known before compression).
    #[inline]
    pub fn prefetch(&self, guard: &Guard, fp: u64) {
        if self.nodes.is_none() {
            let table = self.tables.current(fp, guard);
            table.prefetch(table.home(fp));
        }
    }

    /// Reads the state of `r` into `out` to expand it: in tree mode its
    /// tree becomes the handle's base, against which its successors are
    /// compressed (`insert` would otherwise expand it again).
    ///
    /// # Panics
    /// In compact mode, which stores no states.
    #[inline]
    pub fn read_to_expand(&self, handle: &mut Handle, r: Ref, out: &mut Vec<u64>) {
        match (&self.nodes, handle.compressor.as_mut()) {
            (Some(nodes), Some(compressor)) => {
                compressor.set_base(nodes, r, self.key.word(self.record(r), 0));
                out.clear();
                out.extend_from_slice(compressor.base_state());
            }
            _ => self.read_state(r, out),
        }
    }

    /// The parent reference stored at the end of a record.
    fn parent_in(record: &[u8]) -> Ref {
        parent::read(&record[record.len() - PARENT_BYTES..])
    }

    /// The bits of a reference below its index, which name its arena.
    pub(crate) fn worker_bits(&self) -> u32 {
        self.worker_bits
    }

    /// The key of the record of `r` (its state, or in compact mode its
    /// fingerprint) and its parent: one link of a chain.
    pub(crate) fn link(&self, r: Ref) -> (StepKey, Ref) {
        let record = self.record(r);
        let (head, tail) = record.split_at(self.key_bytes);
        let key = if self.compact {
            StepKey::Fingerprint(u64::from_le_bytes(head.try_into().expect("8 bytes")))
        } else {
            let mut state = Vec::new();
            self.read_state(r, &mut state);
            StepKey::Words(state.into())
        };
        (key, Self::parent_in(tail))
    }

    /// The chain of keys from an initial state to the state of `r`.
    pub(crate) fn chain_to(&self, mut r: Ref) -> Vec<StepKey> {
        let mut chain = Vec::new();
        loop {
            let (key, parent) = self.link(r);
            chain.push(key);
            r = parent;
            if r == NO_PARENT {
                break;
            }
        }
        chain.reverse();
        chain
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
