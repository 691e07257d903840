//! The single-threaded visited store: an open-addressing hash table with
//! linear probing over a flat array of packed slots (`packed_slots.rs`), plus
//! per-state columns
//! (the state's significant bytes, see [`crate::store::key`], or its
//! fingerprint, or with a tree store its root, see [`crate::store::tree`];
//! the parent's id).
//!
//! State ids are insertion indices. In exact mode a 6-byte slot holds the
//! top bits of the fingerprint above `id + 1` (as many bits of each as the
//! table's size allows, see [`Layout`]), so most mismatches are rejected
//! without touching the stored words; in
//! compact mode an 8-byte slot holds the whole fingerprint and nothing
//! else is compared. The table
//! grows by half ([`crate::hash::grown`]) when it is [`MAX_LOAD`] full. All growth is done by hand so the
//! memory bound can be checked *before* allocating.
//!
//! Bytes per state, beyond the state itself: the columns grow by fixed
//! chunks (never copied, at most one chunk of slack, so no moment holds an
//! old and a new copy), a parent id takes 40 bits (5 bytes; a search of
//! more than 2^40 states stops on its state bound first), and the table
//! stays between 8/15 and 4/5 full (6 bytes per slot in exact mode: 7.5
//! to 11.3 bytes per state).

use crate::config::StoreKind;
use crate::expand::Visits;
use crate::hash::{fingerprint, next_pos};
use crate::report::StopReason;
use crate::store::Insert;
use crate::store::key::KeyCodec;
use crate::store::tree::local::{Cons, LocalNodes};
use crate::store::tree::{self, Compressor};
use crate::trace::StepKey;

use super::packed_slots::PackedSlots;

/// Bytes of an exact (or tree) store's slot: `id + 1` and a tag of the
/// fingerprint above it (see [`Layout`]).
const EXACT_SLOT_BYTES: usize = 6;

/// How an exact slot splits into `id + 1` and a tag, for one table size:
/// the id takes as many bits as the table's capacity needs (a table holds
/// fewer states than slots), the tag the rest of the slot. The table is
/// rebuilt from the stored keys whenever it grows, so each generation
/// chooses its own split: a table of a million slots keeps 28 bits of
/// tag in 6 bytes, one of 2^40 slots 7.
#[derive(Clone, Copy)]
struct Layout {
    id_bits: u32,
    id_mask: u64,
    /// Bits a tag is shifted right from the fingerprint.
    tag_shift: u32,
}

impl Layout {
    fn for_table(capacity: usize, slot_bytes: usize) -> Self {
        let id_bits = usize::BITS - capacity.leading_zeros();
        let tag_bits = (8 * slot_bytes as u32).saturating_sub(id_bits).max(1);
        Layout {
            id_bits,
            id_mask: (1 << id_bits) - 1,
            tag_shift: 64 - tag_bits,
        }
    }

    /// The slot of state `id` whose fingerprint is `fp`.
    #[inline(always)]
    fn slot(self, fp: u64, id: u64) -> u64 {
        (fp >> self.tag_shift) << self.id_bits | (id + 1)
    }
}
/// Largest fill ratio of the table before it grows (linear probing with
/// tags stays short at 4/5: a probe compares 8-byte slots, eight to a
/// cache line, and touches a stored state only on a tag match).
const MAX_LOAD: f64 = 0.8;
/// Parent id of initial states.
pub(crate) use crate::store::NO_PARENT;
use crate::store::parent::{self, NO_PARENT_STORED, PARENT_BYTES};
/// Most states the store holds (ids and their parents fit in 40 bits).
const MAX_IDS: u64 = NO_PARENT_STORED;
/// Bytes per chunk of the key column (rounded to a power-of-two number of
/// states) and parents per chunk of the parent column.
const CHUNK_BYTES: usize = 1 << 15;
const PARENTS_PER_CHUNK: usize = 1 << 12;

/// A column of fixed-size byte records in chunks that never move: growing
/// adds a chunk, so nothing is copied and at most one chunk is unused.
struct Chunked {
    /// Bytes per record.
    stride: usize,
    /// log2 of records per chunk.
    shift: u32,
    chunks: Vec<Box<[u8]>>,
}

impl Chunked {
    fn new(stride: usize) -> Self {
        let per = (CHUNK_BYTES / stride.max(1)).max(1).next_power_of_two();
        let shift = per.trailing_zeros();
        Chunked {
            stride: stride.max(1),
            shift,
            chunks: Vec::new(),
        }
    }

    fn chunk_len(&self) -> usize {
        self.stride << self.shift
    }

    fn capacity(&self) -> usize {
        self.chunks.len() << self.shift
    }

    /// Bytes a new chunk takes.
    fn chunk_bytes(&self) -> u64 {
        self.chunk_len() as u64
    }

    fn bytes(&self) -> u64 {
        self.chunks.len() as u64 * self.chunk_bytes()
    }

    /// Adds a chunk; an allocation the system refuses is an error.
    fn grow(&mut self) -> Result<(), StopReason> {
        let len = self.chunk_len();
        let mut chunk = Vec::new();
        chunk
            .try_reserve_exact(len)
            .map_err(|_| StopReason::MemoryLimit)?;
        chunk.resize(len, 0);
        self.chunks.push(chunk.into_boxed_slice());
        Ok(())
    }

    #[inline]
    fn get(&self, id: usize) -> &[u8] {
        let chunk = &self.chunks[id >> self.shift];
        let at = (id & ((1 << self.shift) - 1)) * self.stride;
        &chunk[at..at + self.stride]
    }

    #[inline]
    fn get_mut(&mut self, id: usize) -> &mut [u8] {
        let stride = self.stride;
        let mask = (1 << self.shift) - 1;
        let chunk = &mut self.chunks[id >> self.shift];
        let at = (id & mask) * stride;
        &mut chunk[at..at + stride]
    }
}

/// Parent ids, 5 bytes each, in chunks that never move.
struct Parents {
    chunks: Vec<Box<[u8]>>,
}

impl Parents {
    fn capacity(&self) -> usize {
        self.chunks.len() * PARENTS_PER_CHUNK
    }

    fn chunk_bytes() -> u64 {
        (PARENTS_PER_CHUNK * PARENT_BYTES) as u64
    }

    fn bytes(&self) -> u64 {
        self.chunks.len() as u64 * Self::chunk_bytes()
    }

    fn grow(&mut self) -> Result<(), StopReason> {
        let mut chunk = Vec::new();
        chunk
            .try_reserve_exact(PARENTS_PER_CHUNK * PARENT_BYTES)
            .map_err(|_| StopReason::MemoryLimit)?;
        chunk.resize(PARENTS_PER_CHUNK * PARENT_BYTES, 0);
        self.chunks.push(chunk.into_boxed_slice());
        Ok(())
    }

    fn get(&self, id: usize) -> u64 {
        let chunk = &self.chunks[id / PARENTS_PER_CHUNK];
        parent::read(&chunk[(id % PARENTS_PER_CHUNK) * PARENT_BYTES..])
    }

    fn set(&mut self, id: usize, parent: u64) {
        let chunk = &mut self.chunks[id / PARENTS_PER_CHUNK];
        parent::write(
            parent,
            &mut chunk[(id % PARENTS_PER_CHUNK) * PARENT_BYTES..],
        );
    }
}

impl Visits for SeqStore {
    #[inline]
    fn insert_with_fingerprint(
        &mut self,
        state: &[u64],
        fp: u64,
        parent: u64,
    ) -> Result<Insert, StopReason> {
        SeqStore::insert_with_fingerprint(self, state, fp, parent)
    }

    #[inline]
    fn prefetch(&self, fp: u64) {
        SeqStore::prefetch(self, fp);
    }

    #[inline]
    fn read_to_expand(&mut self, id: u64, out: &mut Vec<u64>) {
        SeqStore::read_to_expand(self, id, out);
    }
}

/// A single-threaded visited store. See the module docs.
pub(crate) struct SeqStore {
    /// Words of a state.
    width: usize,
    /// How a key is kept: the state's significant bytes, or its root.
    key: KeyCodec,
    compact: bool,
    /// Tree store: the nodes the roots refer to, and the tree of the
    /// state whose successors are inserted.
    tree: Option<(LocalNodes, Compressor)>,
    /// Exact: the state's significant bytes. Tree: its root (8 bytes).
    /// Compact: its fingerprint (8 bytes).
    keys: Chunked,
    parents: Parents,
    slots: PackedSlots,
    /// The split of the current table's exact slots.
    layout: Layout,
    len: u64,
    max_states: Option<u64>,
    memory_limit: Option<u64>,
}

impl SeqStore {
    /// An empty store for states of `width` words of which only the first
    /// `state_bytes` bytes can be non-zero, kept as `kind` says.
    pub(crate) fn new(
        width: usize,
        state_bytes: usize,
        kind: StoreKind,
        max_states: Option<u64>,
        memory_limit: Option<u64>,
    ) -> Self {
        let compact = kind == StoreKind::Compact;
        let tree = kind == StoreKind::Tree;
        let key = KeyCodec::for_store(kind, width, state_bytes);
        let slot_bytes = if compact { 8 } else { EXACT_SLOT_BYTES };
        SeqStore {
            width,
            key,
            compact,
            tree: tree.then(|| (LocalNodes::new(), Compressor::new(width))),
            keys: Chunked::new(if compact { 8 } else { key.bytes() }),
            parents: Parents { chunks: Vec::new() },
            slots: PackedSlots::zeroed(1024, slot_bytes).expect("memory for the table"),
            layout: Layout::for_table(1024, slot_bytes),
            len: 0,
            max_states,
            memory_limit,
        }
    }

    /// Number of stored states.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Tree store: the nodes stored.
    pub(crate) fn tree_nodes(&self) -> Option<u64> {
        self.tree.as_ref().map(|(nodes, _)| nodes.len())
    }

    /// Bytes currently allocated by the store.
    pub(crate) fn bytes(&self) -> u64 {
        self.keys.bytes()
            + self.parents.bytes()
            + self.slots.bytes()
            + self.tree.as_ref().map_or(0, |(nodes, _)| nodes.bytes())
    }

    /// Bytes the store holds with its first state: the initial table and
    /// the first chunk of each column (a store that has not outgrown about
    /// this holds too few states for a bytes-per-state figure).
    pub(crate) fn first_state_bytes(&self) -> u64 {
        self.bytes() + self.keys.chunk_bytes() + Parents::chunk_bytes()
    }

    /// Tree store: the root of `state`, compressed against the tree of
    /// `parent`, whose successors are usually inserted one after another.
    fn root(&mut self, state: &[u64], parent: u64) -> Result<u64, StopReason> {
        let room = self
            .memory_limit
            .map(|limit| limit.saturating_sub(self.bytes()));
        let (nodes, compressor) = self.tree.as_mut().expect("tree store");
        if parent == NO_PARENT {
            compressor.clear_base();
        } else if compressor.base() != Some(parent) {
            let root = self.key.word(self.keys.get(parent as usize), 0);
            compressor.set_base(nodes, parent, root);
        }
        compressor.root(&mut Cons { nodes, room }, state)
    }

    /// Prefetches the table slot where the state of fingerprint `fp` would
    /// be looked up (see [`crate::store::VisitedSet::prefetch`]); nothing
    /// in tree mode.
    #[inline]
    pub(crate) fn prefetch(&self, fp: u64) {
        if self.tree.is_none() {
            crate::hash::prefetch(self.slots.address(crate::hash::home(fp, self.slots.len())));
        }
    }

    /// Stores `state` with parent `parent` unless it is already stored,
    /// given its fingerprint `fp` ([`crate::hash::fingerprint`]; tree mode,
    /// which places a state by its root, does not use it). Fails, storing
    /// nothing, if the state is new and storing it would pass the state
    /// bound or the memory bound.
    pub(crate) fn insert_with_fingerprint(
        &mut self,
        state: &[u64],
        fp: u64,
        parent: u64,
    ) -> Result<Insert, StopReason> {
        debug_assert_eq!(state.len(), self.width);
        // A tree store keeps, hashes and compares the state's root.
        let root;
        let (state, fp) = if self.tree.is_some() {
            root = [self.root(state, parent)?];
            (&root[..], fingerprint(&root))
        } else {
            (state, fp)
        };
        let mut pos = crate::hash::home(fp, self.slots.len());
        let layout = self.layout;
        let tag = fp >> layout.tag_shift;
        // Probe until an empty slot (new state) or a match (seen).
        loop {
            let slot = self.slots.get(pos);
            if slot == 0 {
                break;
            }
            if self.compact {
                if slot == fp {
                    return Ok(Insert::Seen);
                }
            } else if slot >> layout.id_bits == tag {
                let id = ((slot & layout.id_mask) - 1) as usize;
                if self.key.equals(self.keys.get(id), state) {
                    return Ok(Insert::Seen);
                }
            }
            pos = next_pos(pos, self.slots.len());
        }
        // New state: make room first (which may move it), then store it.
        if self.max_states.is_some_and(|max| self.len >= max) || self.len >= MAX_IDS {
            return Err(StopReason::MaxStates);
        }
        if (self.len + 1) as f64 > MAX_LOAD * self.slots.len() as f64 {
            // The old table is freed before the new one is filled.
            let len = self.slots.len();
            let extra = self.slots.bytes_per_slot() * (crate::hash::grown(len) - len);
            self.check_room(extra as u64)?;
            self.grow_table()?;
            pos = crate::hash::home(fp, self.slots.len());
            while self.slots.get(pos) != 0 {
                pos = next_pos(pos, self.slots.len());
            }
        }
        let id = self.len;
        if id as usize >= self.keys.capacity() {
            self.check_room(self.keys.chunk_bytes())?;
            self.keys.grow()?;
        }
        if id as usize >= self.parents.capacity() {
            self.check_room(Parents::chunk_bytes())?;
            self.parents.grow()?;
        }
        if self.compact {
            self.keys
                .get_mut(id as usize)
                .copy_from_slice(&fp.to_le_bytes());
            self.slots.set(pos, fp);
        } else {
            let key = self.key;
            key.write(state, self.keys.get_mut(id as usize));
            self.slots.set(pos, self.layout.slot(fp, id));
        }
        self.parents.set(id as usize, parent);
        self.len += 1;
        Ok(Insert::New(id))
    }

    fn check_room(&self, extra: u64) -> Result<(), StopReason> {
        match self.memory_limit {
            Some(limit) if self.bytes() + extra > limit => Err(StopReason::MemoryLimit),
            _ => Ok(()),
        }
    }

    /// Grows the table by half; an allocation the system refuses (an
    /// address-space limit, say) is a memory stop, not an abort.
    ///
    /// The new table is built from the key column, not from the old table:
    /// every slot is a function of its state's key and id, so the old table
    /// is freed first (the moment of growth never holds both tables) and
    /// the keys are read in order rather than at random.
    fn grow_table(&mut self) -> Result<(), StopReason> {
        if !self.slots.regrow(crate::hash::grown(self.slots.len())) {
            return Err(StopReason::MemoryLimit);
        }
        let new_len = self.slots.len();
        self.layout = Layout::for_table(new_len, self.slots.bytes_per_slot());
        for id in 0..self.len {
            let key = self.keys.get(id as usize);
            let (fp, slot) = if self.compact {
                let fp = u64::from_le_bytes(key.try_into().expect("8-byte fingerprints"));
                (fp, fp)
            } else {
                let fp = self.key.fingerprint(key);
                (fp, self.layout.slot(fp, id))
            };
            let mut pos = crate::hash::home(fp, new_len);
            while self.slots.get(pos) != 0 {
                pos = next_pos(pos, new_len);
            }
            self.slots.set(pos, slot);
        }
        Ok(())
    }

    /// Reads state `id` into `out` (exact mode only: a compact store
    /// keeps fingerprints).
    #[inline]
    pub(crate) fn read_state(&self, id: u64, out: &mut Vec<u64>) {
        debug_assert!(!self.compact);
        match &self.tree {
            Some((nodes, _)) => {
                out.clear();
                out.resize(self.width, 0);
                tree::expand(nodes, self.key.word(self.keys.get(id as usize), 0), out);
            }
            None => self.key.read_into(self.keys.get(id as usize), out),
        }
    }

    /// Reads state `id` into `out` to expand it: with a tree store its tree
    /// becomes the base its successors are compressed against.
    #[inline]
    pub(crate) fn read_to_expand(&mut self, id: u64, out: &mut Vec<u64>) {
        let root = self.key.word(self.keys.get(id as usize), 0);
        match self.tree.as_mut() {
            Some((nodes, compressor)) => {
                compressor.set_base(nodes, id, root);
                out.clear();
                out.extend_from_slice(compressor.base_state());
            }
            None => self.read_state(id, out),
        }
    }

    /// The chain of keys from an initial state to state `id`, for
    /// [`crate::trace::rebuild`].
    pub(crate) fn chain_to(&self, mut id: u64) -> Vec<StepKey> {
        let mut chain = Vec::new();
        loop {
            let i = id as usize;
            chain.push(if self.compact {
                let stored = self.keys.get(i);
                StepKey::Fingerprint(u64::from_le_bytes(stored.try_into().expect("8 bytes")))
            } else {
                let mut state = Vec::new();
                self.read_state(id, &mut state);
                StepKey::Words(state.into())
            });
            id = self.parents.get(i);
            if id == NO_PARENT {
                break;
            }
        }
        chain.reverse();
        chain
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn kinds() -> impl Strategy<Value = StoreKind> {
        prop_oneof![
            Just(StoreKind::Exact),
            Just(StoreKind::Tree),
            Just(StoreKind::Compact)
        ]
    }

    proptest! {
        #[test]
        fn agrees_with_hashset(keys in proptest::collection::vec((0u64..200, 0u64..3), 0..2000),
                               kind in kinds(), state_bytes in 9usize..=16) {
            let mut store = SeqStore::new(2, state_bytes, kind, None, None);
            let mut model = HashSet::new();
            for (a, b) in keys {
                let new = model.insert((a, b));
                let got = store.insert(&[a, b], NO_PARENT).unwrap();
                prop_assert_eq!(matches!(got, Insert::New(_)), new);
            }
            prop_assert_eq!(store.len(), model.len() as u64);
        }
    }

    /// Through many growths (each rebuilding the table with its own split
    /// of id and tag bits), every state keeps its id and is found again.
    #[test]
    fn states_survive_growths_of_the_packed_table() {
        for kind in [StoreKind::Exact, StoreKind::Tree, StoreKind::Compact] {
            let mut store = SeqStore::new(2, 16, kind, None, None);
            let n = 100_000u64;
            for i in 0..n {
                assert_eq!(store.insert(&[i, i * 3], NO_PARENT), Ok(Insert::New(i)));
            }
            assert!(store.slots.len() > 100_000);
            for i in (0..n).step_by(7) {
                assert_eq!(store.insert(&[i, i * 3], NO_PARENT), Ok(Insert::Seen));
            }
            assert_eq!(store.insert(&[n, n * 3], NO_PARENT), Ok(Insert::New(n)));
        }
    }

    /// A table's layout leaves room for every id its fill limit allows and
    /// for a tag of at least 7 bits up to 2^40 slots.
    #[test]
    fn layouts_hold_every_id_a_table_can_store() {
        for capacity in [1024usize, 1536, 1 << 20, 3 << 25, 1 << 40] {
            let layout = Layout::for_table(capacity, EXACT_SLOT_BYTES);
            let most = (MAX_LOAD * capacity as f64) as u64 + 1;
            assert!(most <= layout.id_mask, "{capacity}");
            assert!(64 - layout.tag_shift >= 7, "{capacity}");
            let slot = layout.slot(u64::MAX, most - 1);
            assert!(slot < 1 << (8 * EXACT_SLOT_BYTES), "{capacity}");
            assert_eq!(slot & layout.id_mask, most);
        }
    }

    #[test]
    fn parents_round_trip_through_forty_bits_across_chunks() {
        let mut store = SeqStore::new(3, 17, StoreKind::Exact, None, None);
        let n = PARENTS_PER_CHUNK as u64 + 10;
        for i in 0..n {
            let parent = if i == 0 { NO_PARENT } else { (i * 7919) % i };
            assert_eq!(store.insert(&[i, i ^ 5, 1], parent), Ok(Insert::New(i)));
        }
        for i in [0, 1, 2, n / 2, n - 1] {
            let want = if i == 0 { NO_PARENT } else { (i * 7919) % i };
            assert_eq!(store.parents.get(i as usize), want);
            assert_eq!(
                store.key.read(store.keys.get(i as usize)),
                vec![i, i ^ 5, 1]
            );
        }
        assert_eq!(store.insert(&[n - 1, (n - 1) ^ 5, 1], 0), Ok(Insert::Seen));
    }

    #[test]
    fn ids_are_insertion_order_and_chains_follow_parents() {
        let mut store = SeqStore::new(1, 8, StoreKind::Exact, None, None);
        assert_eq!(store.insert(&[7], NO_PARENT), Ok(Insert::New(0)));
        assert_eq!(store.insert(&[8], 0), Ok(Insert::New(1)));
        assert_eq!(store.insert(&[9], 1), Ok(Insert::New(2)));
        assert_eq!(store.insert(&[8], 2), Ok(Insert::Seen));
        let chain = store.chain_to(2);
        let words: Vec<_> = chain
            .iter()
            .map(|k| match k {
                StepKey::Words(w) => w[0],
                StepKey::Fingerprint(_) => unreachable!("exact mode"),
            })
            .collect();
        assert_eq!(words, vec![7, 8, 9]);
    }

    #[test]
    fn bounds_refuse_new_states_but_not_duplicates() {
        let mut store = SeqStore::new(1, 8, StoreKind::Exact, Some(3), None);
        for i in 0..3 {
            assert!(matches!(store.insert(&[i], NO_PARENT), Ok(Insert::New(_))));
        }
        assert_eq!(store.insert(&[1], NO_PARENT), Ok(Insert::Seen));
        assert_eq!(store.insert(&[5], NO_PARENT), Err(StopReason::MaxStates));

        let mut store = SeqStore::new(4, 32, StoreKind::Exact, None, Some(64 * 1024));
        let mut stored = 0u64;
        let err = loop {
            match store.insert(&[stored, 1, 2, 3], NO_PARENT) {
                Ok(_) => stored += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(err, StopReason::MemoryLimit);
        assert!(store.bytes() <= 64 * 1024, "{}", store.bytes());
        assert!(stored > 100);
    }
}
