//! The concurrent node store of the tree-compressed visited set: a
//! lock-free hash-consing table over per-worker append-only arenas of
//! 8-byte node values, on the same protocol as the set itself (speculative
//! append, claim by compare-and-swap, cooperative growth).
//!
//! A node's id is 32 bits: its index in its worker's arena shifted left by
//! `worker_bits`, then the worker. A table entry is a 32-bit tag of the
//! value's hash (never 0, never all ones, so an entry is never
//! [`EMPTY`](super::super::table::EMPTY) or `MOVED`) above the id.

use crossbeam::epoch::Guard;

use super::{NodeValues, Nodes};
use crate::hash::fingerprint;
use crate::store::arena::Arena;
use crate::store::primitive::Ordering;
use crate::store::table::{Probe, Tables, Unflushed};
use crate::store::{Full, Memory};

/// Fill ratio (per 1024) past which the node table grows.
const MAX_LOAD_PER_1024: usize = 819;
const TAG_SHIFT: u32 = 32;

/// The hash of a node value.
#[inline(always)]
fn hash(value: u64) -> u64 {
    fingerprint(&[value])
}

/// The entry tag of `hash`.
#[inline(always)]
fn tag(hash: u64) -> u64 {
    (hash >> TAG_SHIFT).clamp(1, u64::from(u32::MAX) - 1) << TAG_SHIFT
}

/// The shared node store. See the module docs.
pub(crate) struct SharedNodes {
    arenas: Box<[Arena]>,
    tables: Tables,
    worker_bits: u32,
}

/// One worker's access to the node store: what [`Nodes::cons`] needs.
pub(crate) struct Cons<'a> {
    pub(crate) nodes: &'a SharedNodes,
    pub(crate) worker: usize,
    pub(crate) unflushed: &'a mut Unflushed,
    pub(crate) guard: &'a Guard,
    pub(crate) memory: &'a Memory,
}

impl SharedNodes {
    /// An empty store for `workers` workers.
    pub(crate) fn new(workers: usize) -> Self {
        let worker_bits = usize::BITS - (workers.max(1) - 1).leading_zeros();
        SharedNodes {
            arenas: (0..workers).map(|_| Arena::new(8)).collect(),
            tables: Tables::new(1024, false),
            worker_bits,
        }
    }

    /// Bytes of the first table (arenas and later tables reserve their
    /// own as they grow).
    pub(crate) fn bytes(&self) -> u64 {
        self.tables.bytes()
    }

    /// An empty count of a handle's unflushed inserts into the node table.
    pub(crate) fn unflushed(&self) -> Unflushed {
        self.tables.unflushed()
    }

    /// Nodes stored.
    pub(crate) fn len(&self) -> u64 {
        self.arenas.iter().map(Arena::len).sum()
    }

    /// The value of node `id`.
    #[inline]
    fn read(&self, id: u32) -> u64 {
        u64::from_le_bytes(self.stored(id).try_into().expect("8-byte nodes"))
    }

    /// The stored bytes of node `id`.
    #[inline]
    fn stored(&self, id: u32) -> &[u8] {
        let worker = (id & ((1 << self.worker_bits) - 1)) as usize;
        let index = u64::from(id >> self.worker_bits);
        // SAFETY: ids reach a thread only through a published table entry
        // or a record or node written before its own publication (arena
        // invariant 3), and only for nodes appended by `cons`.
        unsafe { self.arenas[worker].record(index) }
    }

    /// Appends `value` to `worker`'s arena, returning its id.
    fn append(&self, worker: usize, value: u64, memory: &Memory) -> Result<u32, Full> {
        let arena = &self.arenas[worker];
        if arena.len() >= 1 << (32 - self.worker_bits) {
            return Err(Full::Nodes);
        }
        let needed = arena.bytes_needed_for_push();
        if needed > 0 {
            memory.reserve(needed)?;
        }
        // SAFETY: `worker`'s handle is the arena's only writer (the caller
        // holds it mutably through `Cons::unflushed`).
        let Some(index) = (unsafe { arena.push(&value.to_le_bytes()) }) else {
            memory.release(needed);
            return Err(memory.refuse());
        };
        Ok(((index as u32) << self.worker_bits) | worker as u32)
    }
}

/// The node table's entries rehashed from their nodes, for a migration.
struct NodeHash<'a>(&'a SharedNodes);

impl crate::store::table::Rehash for NodeHash<'_> {
    fn hash(&self, entry: u64) -> u64 {
        hash(self.0.read(entry as u32))
    }

    fn prefetch(&self, entry: u64) {
        crate::hash::prefetch(self.0.stored(entry as u32).as_ptr());
    }
}

impl NodeValues for SharedNodes {
    #[inline]
    fn value(&self, id: u32) -> u64 {
        self.read(id)
    }
}

impl NodeValues for Cons<'_> {
    #[inline]
    fn value(&self, id: u32) -> u64 {
        self.nodes.read(id)
    }
}

impl Nodes for Cons<'_> {
    type Error = Full;

    fn cons(&mut self, value: u64) -> Result<u32, Full> {
        let nodes = self.nodes;
        let h = hash(value);
        let want = tag(h);
        let mut appended: Option<u32> = None;
        let hash_of = NodeHash(nodes);
        'tables: loop {
            let table = nodes.tables.current(h, self.guard);
            if table.growing.load(Ordering::Acquire) != 0 {
                nodes
                    .tables
                    .help_grow(table, self.guard, self.memory, &hash_of)?;
                continue;
            }
            let mut pos = table.home(h);
            for _ in 0..table.capacity() {
                let entry = match table.probe(pos) {
                    Probe::Moved => {
                        nodes
                            .tables
                            .help_grow(table, self.guard, self.memory, &hash_of)?;
                        continue 'tables;
                    }
                    Probe::Entry(entry) => entry,
                    Probe::Empty => {
                        let id = match appended {
                            Some(id) => id,
                            None => {
                                *appended.insert(nodes.append(self.worker, value, self.memory)?)
                            }
                        };
                        match table.claim(pos, want | u64::from(id)) {
                            Ok(()) => {
                                nodes.tables.count_insert(
                                    self.unflushed,
                                    table,
                                    MAX_LOAD_PER_1024,
                                    self.memory,
                                );
                                return Ok(id);
                            }
                            Err(crate::store::table::MOVED) => {
                                nodes
                                    .tables
                                    .help_grow(table, self.guard, self.memory, &hash_of)?;
                                continue 'tables;
                            }
                            Err(entry) => entry,
                        }
                    }
                };
                if entry & !u64::from(u32::MAX) == want && nodes.read(entry as u32) == value {
                    if appended.is_some() {
                        // SAFETY: this worker is the arena's only writer and
                        // the node was never published (its claim failed).
                        unsafe { nodes.arenas[self.worker].truncate_last() };
                    }
                    return Ok(entry as u32);
                }
                pos = table.next_pos(pos);
            }
            nodes.tables.start_grow(table, self.memory)?;
        }
    }
}
