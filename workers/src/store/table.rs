//! The slot array of the concurrent visited set: open addressing with
//! linear probing over `u64` or `u32` slots claimed by compare-and-swap,
//! split into independent *segments* chosen by hash bits, and the
//! cooperative migration of a segment's slots into one twice as large.
//!
//! # Narrow slots
//! A set whose entries are a tag above a reference to a record (see
//! [`ENTRY_REF_BITS`]) has 4-byte slots while its references are small:
//! the reference in the low bits, as many as the records so far need with
//! room for four times as many, and the top bits of the key's hash above
//! (at least [`MIN_NARROW_TAG_BITS`]). Each new generation of a segment
//! chooses its layout again, and a reference too large for a table's
//! slots migrates that segment into one as large with wider slots; 8-byte
//! slots hold any entry. A migration re-tags every entry from its key's
//! hash, so no tag bit is lost for good.
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

use super::primitive::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use super::slots::Slots;
use super::{Full, Memory};
use crossbeam::epoch::{Atomic, Guard, Owned};

/// A slot never written.
pub(crate) const EMPTY: u64 = 0;
/// A slot whose entry (or emptiness) was moved to the next table.
pub(crate) const MOVED: u64 = u64::MAX;
/// A narrow slot's [`MOVED`].
const MOVED_NARROW: u32 = u32::MAX;
/// Slots per migration chunk.
const CHUNK: usize = 1024;
/// Slots a migrating thread takes before rehashing their entries: a
/// tagged entry's hash is recomputed from its record, a cache miss at a
/// place unrelated to the slot's, and prefetching a group's records
/// first lets their misses overlap. German with 4 nodes at two threads,
/// rehashing one entry at a time: 1.6% of the samples in the hash of
/// records, 0.92 s; by groups of 16: 0.3%, 0.90 s (medians of 7; 1.02
/// against 1.00 s with a tree store, whose node tables migrate alike).
const GROUP: usize = 16;

/// How a migration finds an entry's hash again.
pub(crate) trait Rehash {
    /// The hash `entry` was placed by.
    fn hash(&self, entry: u64) -> u64;

    /// Starts loading what [`Rehash::hash`] will read for `entry` (a hint;
    /// by default nothing).
    fn prefetch(&self, entry: u64) {
        let _ = entry;
    }
}

/// An entry's hash computed from the entry alone.
impl<F: Fn(u64) -> u64> Rehash for F {
    fn hash(&self, entry: u64) -> u64 {
        self(entry)
    }
}
/// Most segments a set of tables has (a power of two; see the module
/// docs for why not more).
pub(crate) const MAX_SEGMENTS: usize = 16;
/// Fewest slots a segment starts with: a first capacity is split into at
/// most `capacity / MIN_SEGMENT_SLOTS` segments.
const MIN_SEGMENT_SLOTS: usize = 512;
/// Bits of a tagged entry below its tag: a tagged entry, as tables take
/// and give it, is `tag << ENTRY_REF_BITS | reference`.
pub(crate) const ENTRY_REF_BITS: u32 = 40;
const ENTRY_REF_MASK: u64 = (1 << ENTRY_REF_BITS) - 1;
/// Fewest tag bits a narrow slot keeps (a tag match that is not the state
/// costs a look at its record: 1 in 64 entries probed at worst).
const MIN_NARROW_TAG_BITS: u32 = 6;
/// Most reference bits a narrow slot holds.
const MAX_NARROW_REF_BITS: u32 = 32 - MIN_NARROW_TAG_BITS;
/// Reference bits a new narrow table keeps beyond those of the largest
/// reference noted: room for four times as many records before a
/// reference outgrows the table.
const REF_BITS_MARGIN: u32 = 2;

/// Bits a narrow slot needs for reference `r` (which must stay below the
/// all-ones reference, see [`Table::fits`]).
fn ref_bits_of(r: u64) -> u32 {
    u64::BITS - (r + 1).leading_zeros()
}

/// The slot array of one generation: 8-byte slots, or 4-byte ones holding
/// a tagged entry whose reference is small enough.
enum Words {
    Wide(Slots<AtomicU64>),
    Narrow(Slots<AtomicU32>),
}

/// One generation of the slot array. The fields every probe reads come
/// first, on a cache line of their own (`repr(C)`, and the padded count
/// aligns the whole to 128 bytes); the ones threads write follow.
#[repr(C)]
pub(crate) struct Table {
    words: Words,
    /// Whether entries are tagged references (see [`ENTRY_REF_BITS`]),
    /// which a migration re-tags for the next table, rather than opaque
    /// words copied as they are.
    tagged: bool,
    /// Narrow slots: bits of a slot below its tag (the reference's).
    ref_bits: u32,
    /// References this table can hold: below `ref_limit` (a narrow slot's
    /// all-ones reference could make the whole slot [`MOVED_NARROW`]).
    ref_limit: u64,
    /// The right shift of a hash that gives this table's tag.
    tag_shift: u32,
    /// The segment this table is a generation of.
    segment: usize,
    /// Approximate number of entries (flushed in batches by the handles).
    pub(crate) count: crossbeam::utils::CachePadded<AtomicUsize>,
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

/// How a table's slots hold entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// 8-byte slots holding any entry but [`EMPTY`] and [`MOVED`], copied
    /// as they are when migrated.
    Opaque,
    /// Tagged entries (see [`ENTRY_REF_BITS`]) in 8-byte slots.
    Wide,
    /// Tagged entries in 4-byte slots: `ref_bits` bits of reference under
    /// the top bits of the tag.
    Narrow {
        /// Bits of the reference.
        ref_bits: u32,
    },
}

impl Layout {
    /// Bytes of a slot.
    fn slot_bytes(self) -> u64 {
        match self {
            Layout::Narrow { .. } => 4,
            _ => 8,
        }
    }
}

impl Table {
    /// An opaque table of `capacity` slots (at least one), for segment 0.
    #[cfg(all(test, loom))]
    pub(crate) fn new(capacity: usize) -> Self {
        Self::try_new(capacity, 0, Layout::Opaque).expect("memory for the table")
    }

    /// A table of `capacity` slots (at least one) for `segment`, laid out
    /// as `layout` says, or `None` if the system refuses the memory (an
    /// address-space limit, say).
    pub(crate) fn try_new(capacity: usize, segment: usize, layout: Layout) -> Option<Self> {
        debug_assert!(capacity > 0);
        const { assert!(EMPTY == 0, "zeroed slots are empty") };
        let (words, ref_bits, ref_limit, tag_shift) = match layout {
            Layout::Opaque | Layout::Wide => (
                Words::Wide(Slots::zeroed(capacity)?),
                ENTRY_REF_BITS,
                1 << ENTRY_REF_BITS,
                ENTRY_REF_BITS,
            ),
            Layout::Narrow { ref_bits } => {
                debug_assert!(ref_bits <= MAX_NARROW_REF_BITS);
                (
                    Words::Narrow(Slots::zeroed(capacity)?),
                    ref_bits,
                    (1 << ref_bits) - 1,
                    32 + ref_bits,
                )
            }
        };
        Some(Table {
            words,
            tagged: layout != Layout::Opaque,
            ref_bits,
            ref_limit,
            tag_shift,
            segment,
            count: crossbeam::utils::CachePadded::new(AtomicUsize::new(0)),
            next: Atomic::null(),
            growing: AtomicUsize::new(0),
            chunks_claimed: AtomicUsize::new(0),
            chunks_done: AtomicUsize::new(0),
        })
    }

    /// The layout of this table.
    pub(crate) fn layout(&self) -> Layout {
        match (&self.words, self.tagged) {
            (Words::Narrow(_), _) => Layout::Narrow {
                ref_bits: self.ref_bits,
            },
            (Words::Wide(_), true) => Layout::Wide,
            (Words::Wide(_), false) => Layout::Opaque,
        }
    }

    /// Number of slots.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        match &self.words {
            Words::Wide(slots) => slots.len(),
            Words::Narrow(slots) => slots.len(),
        }
    }

    /// Bytes of the slot array.
    pub(crate) fn bytes(&self) -> u64 {
        Self::bytes_for(self.capacity(), self.layout())
    }

    /// Bytes of the slot array of a table of `capacity` slots laid out as
    /// `layout` (to reserve them before allocating).
    pub(crate) fn bytes_for(capacity: usize, layout: Layout) -> u64 {
        layout.slot_bytes() * capacity as u64
    }

    /// First probe position for `hash`.
    #[inline]
    pub(crate) fn home(&self, hash: u64) -> usize {
        crate::hash::home(hash, self.capacity())
    }

    /// The position after `pos`.
    #[inline]
    pub(crate) fn next_pos(&self, pos: usize) -> usize {
        if pos + 1 == self.capacity() {
            0
        } else {
            pos + 1
        }
    }

    /// Prefetches the slot at `pos` (see [`crate::hash::prefetch`]).
    #[inline]
    pub(crate) fn prefetch(&self, pos: usize) {
        match &self.words {
            Words::Wide(slots) => crate::hash::prefetch(&slots[pos]),
            Words::Narrow(slots) => crate::hash::prefetch(&slots[pos]),
        }
    }

    /// The tag part of a tagged entry for a key of hash `hash` in this
    /// table: its top bits, as many as a slot keeps, never 0.
    #[inline]
    pub(crate) fn tag(&self, hash: u64) -> u64 {
        (hash >> self.tag_shift).max(1) << ENTRY_REF_BITS
    }

    /// Whether a tagged entry of reference `r` fits in this table's slots.
    #[inline]
    pub(crate) fn fits(&self, r: u64) -> bool {
        r < self.ref_limit
    }

    /// A narrow slot's word as a tagged entry.
    #[inline(always)]
    fn widen(&self, word: u32) -> u64 {
        (u64::from(word >> self.ref_bits) << ENTRY_REF_BITS)
            | u64::from(word & ((1 << self.ref_bits) - 1))
    }

    /// A tagged entry (of a fitting reference) as a narrow slot's word.
    #[inline(always)]
    fn narrow(&self, entry: u64) -> u32 {
        debug_assert!(self.fits(entry & ENTRY_REF_MASK));
        (((entry >> ENTRY_REF_BITS) << self.ref_bits) | (entry & ENTRY_REF_MASK)) as u32
    }

    /// Reads the slot at `pos`.
    #[inline]
    pub(crate) fn probe(&self, pos: usize) -> Probe {
        match &self.words {
            Words::Wide(slots) => match slots[pos].load(Ordering::Acquire) {
                EMPTY => Probe::Empty,
                MOVED => Probe::Moved,
                entry => Probe::Entry(entry),
            },
            Words::Narrow(slots) => match slots[pos].load(Ordering::Acquire) {
                0 => Probe::Empty,
                MOVED_NARROW => Probe::Moved,
                word => Probe::Entry(self.widen(word)),
            },
        }
    }

    /// Tries to claim the empty slot at `pos` for `entry` (tagged by this
    /// table's [`Table::tag`], of a reference that [`Table::fits`], if the
    /// table is tagged). On failure returns the slot's current content
    /// ([`MOVED`] or an entry).
    #[inline]
    pub(crate) fn claim(&self, pos: usize, entry: u64) -> Result<(), u64> {
        match &self.words {
            Words::Wide(slots) => slots[pos]
                .compare_exchange(EMPTY, entry, Ordering::AcqRel, Ordering::Acquire)
                .map(|_| ()),
            Words::Narrow(slots) => slots[pos]
                .compare_exchange(0, self.narrow(entry), Ordering::AcqRel, Ordering::Acquire)
                .map(|_| ())
                .map_err(|word| match word {
                    MOVED_NARROW => MOVED,
                    word => self.widen(word),
                }),
        }
    }

    /// Marks the slot at `pos` moved and returns the entry it held, if any.
    #[inline]
    fn take_for_migration(&self, pos: usize) -> Option<u64> {
        match &self.words {
            Words::Wide(slots) => {
                let entry = slots[pos].swap(MOVED, Ordering::AcqRel);
                debug_assert_ne!(entry, MOVED, "slot migrated twice");
                (entry != EMPTY).then_some(entry)
            }
            Words::Narrow(slots) => {
                let word = slots[pos].swap(MOVED_NARROW, Ordering::AcqRel);
                debug_assert_ne!(word, MOVED_NARROW, "slot migrated twice");
                (word != 0).then(|| self.widen(word))
            }
        }
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
    /// claim; `rehash` recomputes an entry's hash (tagged entries are
    /// tagged again for `next`, whose slots may keep more tag bits). The
    /// slots of a chunk are taken [`GROUP`] at a time, what each entry's
    /// hash reads prefetched before any is rehashed.
    /// Returns `true` if this call completed the last chunk (the caller
    /// then publishes `next`).
    pub(crate) fn help_migrate(&self, next: &Table, rehash: &dyn Rehash) -> bool {
        let chunks = self.chunks();
        let mut completed_last = false;
        let mut taken = [0u64; GROUP];
        loop {
            let chunk = self.chunks_claimed.fetch_add(1, Ordering::Relaxed);
            if chunk >= chunks {
                return completed_last;
            }
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(self.capacity());
            let mut moved = 0;
            for group in (start..end).step_by(GROUP) {
                let mut n = 0;
                for pos in group..(group + GROUP).min(end) {
                    if let Some(entry) = self.take_for_migration(pos) {
                        rehash.prefetch(entry);
                        taken[n] = entry;
                        n += 1;
                    }
                }
                for &entry in &taken[..n] {
                    let hash = rehash.hash(entry);
                    let entry = if self.tagged {
                        next.tag(hash) | (entry & ENTRY_REF_MASK)
                    } else {
                        entry
                    };
                    next.insert_migrated(hash, entry);
                }
                moved += n;
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
    /// Each on cache lines of its own, as is each table's count: every
    /// probe of every thread reads a segment's pointer and its table's
    /// header, and a line shared with anything a thread writes (an
    /// allocation of the main thread beside the array, a count) moves
    /// between cores on every such write. With both padded, the B twin of
    /// German with 4 nodes at two threads spends 6% less CPU time, in the
    /// interpreter as much as in the set (1.65 -> 1.56 s).
    segments: Box<[crossbeam::utils::CachePadded<Atomic<Table>>]>,
    /// `segments.len() - 1` (a power of two minus one).
    mask: usize,
    /// Whether entries are tagged references, which narrow tables can hold.
    tagged: bool,
    /// Tagged entries: bits of the largest reference noted
    /// ([`Tables::note_ref`]), from which new tables choose their layout.
    ref_bits_seen: AtomicU32,
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
    /// most [`MAX_SEGMENTS`]), for tagged entries (see [`ENTRY_REF_BITS`];
    /// their tables are narrow while the references are small) or opaque
    /// ones.
    pub(crate) fn new(capacity: usize, tagged: bool) -> Self {
        let capacity = capacity.max(2);
        let segments = 1
            << (capacity / MIN_SEGMENT_SLOTS)
                .clamp(1, MAX_SEGMENTS)
                .ilog2();
        let per = capacity.div_ceil(segments);
        let mut tables = Tables {
            segments: Box::new([]),
            mask: segments - 1,
            tagged,
            ref_bits_seen: AtomicU32::new(0),
        };
        tables.segments = (0..segments)
            .map(|k| {
                let layout = tables.layout_for(per, 0);
                crossbeam::utils::CachePadded::new(Atomic::new(
                    Table::try_new(per, k, layout).expect("memory for the table"),
                ))
            })
            .collect();
        tables
    }

    /// The layout of a new table of `capacity` slots whose references
    /// need at least `ref_bits` bits: narrow while the references noted so
    /// far, with room for four times as many, and every record the new
    /// table's size may be filled with, leave at least
    /// [`MIN_NARROW_TAG_BITS`] of tag.
    fn layout_for(&self, capacity: usize, ref_bits: u32) -> Layout {
        if !self.tagged {
            return Layout::Opaque;
        }
        let slots = capacity.saturating_mul(self.mask + 1);
        let ref_bits = (self.ref_bits_seen.load(Ordering::Relaxed) + REF_BITS_MARGIN)
            .max(usize::BITS - slots.leading_zeros())
            .max(ref_bits);
        if ref_bits <= MAX_NARROW_REF_BITS {
            Layout::Narrow { ref_bits }
        } else {
            Layout::Wide
        }
    }

    /// Notes a reference a tagged entry will hold, so that tables made from
    /// now on choose a layout it fits (a set notes each worker's
    /// references at powers of two, enough to know their bit length).
    pub(crate) fn note_ref(&self, r: u64) {
        self.ref_bits_seen
            .fetch_max(ref_bits_of(r), Ordering::Relaxed);
    }

    /// An empty count of unflushed inserts, one per segment, for one
    /// inserting handle.
    pub(crate) fn unflushed(&self) -> Unflushed {
        Unflushed {
            counts: vec![(0, 0); self.segments.len()],
        }
    }

    /// Number of segments.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn segments(&self) -> usize {
        self.segments.len()
    }

    /// The capacity of each segment's current table.
    #[cfg(all(test, not(loom)))]
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
        // Doubling, not growing by half as the sequential store does (see
        // the module docs).
        self.start_migration(table, table.capacity() * 2, 0, memory)
    }

    /// Starts migrating narrow `table`, too narrow for reference `r`, into
    /// a table as large whose slots hold it, unless another thread started
    /// a migration already (the caller retries in the next table, which
    /// may be too narrow still: then it starts another).
    pub(crate) fn start_widening(
        &self,
        table: &Table,
        r: u64,
        memory: &Memory,
    ) -> Result<(), Full> {
        self.note_ref(r);
        self.start_migration(table, table.capacity(), ref_bits_of(r), memory)
    }

    /// Starts migrating `table` into a table of `capacity` slots whose
    /// references take at least `ref_bits` bits, unless another thread
    /// started a migration already.
    fn start_migration(
        &self,
        table: &Table,
        capacity: usize,
        ref_bits: u32,
        memory: &Memory,
    ) -> Result<(), Full> {
        // Read first: every flush past the fill limit calls this while the
        // migration runs, and a compare-exchange that fails still takes
        // the line from the other cores.
        if table.growing.load(Ordering::Acquire) != 0
            || table
                .growing
                .compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire)
                .is_err()
        {
            return Ok(());
        }
        // References never get fewer bits: every entry of `table` must fit
        // in the next.
        let ref_bits = match table.layout() {
            Layout::Narrow { ref_bits: old } => ref_bits.max(old),
            Layout::Wide => ENTRY_REF_BITS,
            Layout::Opaque => ref_bits,
        };
        let layout = self.layout_for(capacity, ref_bits);
        // Reserve before allocating, so a refused table is never allocated.
        let bytes = Table::bytes_for(capacity, layout);
        memory.reserve(bytes)?;
        let Some(next) = Table::try_new(capacity, table.segment, layout) else {
            // The system refused the table: every helper stops (they watch
            // the memory stop), a memory stop rather than an abort.
            memory.release(bytes);
            return Err(memory.refuse());
        };
        table.next.store(Owned::new(next), Ordering::Release);
        Ok(())
    }

    /// Helps the migration of `table` (`rehash` recomputes an entry's
    /// hash) and returns once its segment's new table is published.
    pub(crate) fn help_grow(
        &self,
        table: &Table,
        guard: &Guard,
        memory: &Memory,
        rehash: &dyn Rehash,
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
        if table.help_migrate(next_table, rehash) {
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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// A migration prefetches every entry's record before rehashing it,
    /// a group at a time, and keeps every entry, in a table whose size is
    /// no multiple of the group (its last chunk ends in a short group).
    #[test]
    fn migration_prefetches_each_entry_before_rehashing_it() {
        use std::cell::RefCell;
        /// Records the order of the calls.
        struct Logged<'h> {
            hashes: &'h [u64],
            calls: RefCell<Vec<(char, u64)>>,
        }
        impl Rehash for Logged<'_> {
            fn hash(&self, entry: u64) -> u64 {
                let r = entry & ENTRY_REF_MASK;
                self.calls.borrow_mut().push(('h', r));
                self.hashes[r as usize]
            }
            fn prefetch(&self, entry: u64) {
                self.calls.borrow_mut().push(('p', entry & ENTRY_REF_MASK));
            }
        }
        let tables = Tables::new(1000, true);
        let memory = Memory::new(None);
        let guard = crossbeam::epoch::pin();
        let table = tables.current(0, &guard);
        assert_eq!(table.capacity(), 1000);
        let hashes: Vec<u64> = (0..700u64)
            .map(|r| crate::hash::fingerprint(&[r, 3]))
            .collect();
        for (r, &hash) in hashes.iter().enumerate() {
            let mut pos = table.home(hash);
            while table.claim(pos, table.tag(hash) | r as u64).is_err() {
                pos = table.next_pos(pos);
            }
        }
        let logged = Logged {
            hashes: &hashes,
            calls: RefCell::new(Vec::new()),
        };
        tables.start_grow(table, &memory).unwrap();
        tables.help_grow(table, &guard, &memory, &logged).unwrap();
        let calls = logged.calls.into_inner();
        assert_eq!(calls.len(), 2 * hashes.len());
        // Each entry is prefetched, and rehashed after its whole group is.
        let mut prefetched = vec![None; hashes.len()];
        let mut hashed = vec![false; hashes.len()];
        let mut group_prefetches = 0;
        for (i, &(call, r)) in calls.iter().enumerate() {
            let r = r as usize;
            match call {
                'p' => {
                    assert!(prefetched[r].is_none() && !hashed[r]);
                    prefetched[r] = Some(i);
                    group_prefetches += 1;
                }
                _ => {
                    assert!(prefetched[r].is_some() && !hashed[r]);
                    hashed[r] = true;
                    assert!(group_prefetches <= GROUP);
                    if calls.get(i + 1).is_none_or(|c| c.0 == 'p') {
                        group_prefetches = 0;
                    }
                }
            }
        }
        assert!(hashed.iter().all(|&h| h));
        // Overlap: some entry was prefetched while another waited.
        assert!(calls.windows(2).any(|w| w[0].0 == 'p' && w[1].0 == 'p'));
        let grown = tables.current(0, &guard);
        assert_eq!(grown.capacity(), 2000);
        for (r, &hash) in hashes.iter().enumerate() {
            let mut pos = grown.home(hash);
            loop {
                match grown.probe(pos) {
                    Probe::Entry(e) if e & ENTRY_REF_MASK == r as u64 => {
                        assert_eq!(e & !ENTRY_REF_MASK, grown.tag(hash));
                        break;
                    }
                    Probe::Entry(_) => pos = grown.next_pos(pos),
                    _ => panic!("entry {r} lost"),
                }
            }
        }
    }

    /// A tagged table starts narrow, and migrations keep every entry with
    /// the tag bits the next table's slots hold: doubling (still narrow),
    /// widening for a reference that needs more bits (narrow with more
    /// reference bits), and widening past what 4 bytes hold (8-byte slots
    /// with the full 24-bit tag).
    #[test]
    fn narrow_tables_widen_and_keep_their_entries() {
        let tables = Tables::new(64, true);
        let memory = Memory::new(None);
        let guard = crossbeam::epoch::pin();
        // References 0..n with arbitrary 64-bit hashes.
        let hashes: Vec<u64> = (0..40u64)
            .map(|r| crate::hash::fingerprint(&[r, 7]))
            .collect();
        let hash_of = |entry: u64| hashes[(entry & ENTRY_REF_MASK) as usize];
        let insert = |table: &Table, r: u64| {
            let hash = hashes[r as usize];
            let mut pos = table.home(hash);
            while table.claim(pos, table.tag(hash) | r).is_err() {
                pos = table.next_pos(pos);
            }
        };
        let segment = |hash: u64| tables.current(hash, &guard);
        // Use one segment's keys only.
        let keys: Vec<u64> = (0..40u64)
            .filter(|&r| std::ptr::eq(segment(hashes[r as usize]), segment(hashes[0])))
            .collect();
        assert!(keys.len() >= 2, "{keys:?}");
        let table = segment(hashes[0]);
        assert!(matches!(table.layout(), Layout::Narrow { .. }));
        for &r in &keys {
            insert(table, r);
        }
        let check = |table: &Table, tag_bits: u32| {
            for &r in &keys {
                let hash = hashes[r as usize];
                let want = (hash >> (64 - tag_bits)).max(1) << ENTRY_REF_BITS | r;
                let mut pos = table.home(hash);
                loop {
                    match table.probe(pos) {
                        Probe::Entry(e) if e == want => break,
                        Probe::Entry(_) => pos = table.next_pos(pos),
                        _ => panic!("{r} lost in a {:?} table", table.layout()),
                    }
                }
            }
        };
        // Doubling.
        tables.start_grow(table, &memory).unwrap();
        tables.help_grow(table, &guard, &memory, &hash_of).unwrap();
        let doubled = segment(hashes[0]);
        assert_eq!(doubled.capacity(), 2 * table.capacity());
        let Layout::Narrow { ref_bits } = doubled.layout() else {
            panic!("{:?}", doubled.layout())
        };
        check(doubled, 32 - ref_bits);
        // A reference that outgrows the slots.
        let big = (1 << ref_bits) - 1;
        assert!(!doubled.fits(big));
        tables.start_widening(doubled, big, &memory).unwrap();
        tables
            .help_grow(doubled, &guard, &memory, &hash_of)
            .unwrap();
        let wider = segment(hashes[0]);
        assert_eq!(wider.capacity(), doubled.capacity());
        assert!(wider.fits(big));
        let Layout::Narrow { ref_bits } = wider.layout() else {
            panic!("{:?}", wider.layout())
        };
        check(wider, 32 - ref_bits);
        // A reference no 4-byte slot holds.
        let huge = 1 << MAX_NARROW_REF_BITS;
        tables.start_widening(wider, huge, &memory).unwrap();
        tables.help_grow(wider, &guard, &memory, &hash_of).unwrap();
        let wide = segment(hashes[0]);
        assert_eq!(wide.layout(), Layout::Wide);
        assert!(wide.fits(huge) && wide.fits(ENTRY_REF_MASK - 1));
        check(wide, 64 - ENTRY_REF_BITS);
        // And it stays wide as it grows.
        tables.start_grow(wide, &memory).unwrap();
        tables.help_grow(wide, &guard, &memory, &hash_of).unwrap();
        assert_eq!(segment(hashes[0]).layout(), Layout::Wide);
        check(segment(hashes[0]), 64 - ENTRY_REF_BITS);
        // Opaque tables are always 8-byte slots.
        let opaque = Tables::new(64, false);
        assert_eq!(opaque.current(0, &guard).layout(), Layout::Opaque);
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
        (0..table.capacity())
            .filter_map(|pos| match table.probe(pos) {
                Probe::Entry(e) => Some(e),
                _ => None,
            })
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

    /// As above with narrow (4-byte) slots holding a tagged entry, migrated
    /// into a larger narrow table: the entry is re-tagged from its hash
    /// and lands there exactly once.
    #[test]
    fn loom_racing_narrow_inserts_and_migration_keep_one_copy() {
        const HASH: u64 = 0xdead_beef_0000_0005;
        loom::model(|| {
            let narrow = Layout::Narrow { ref_bits: 8 };
            let old = Arc::new(Table::try_new(2, 0, narrow).unwrap());
            let next = Arc::new(Table::try_new(4, 0, narrow).unwrap());
            let entry = old.tag(HASH) | 5;
            let threads: Vec<_> = (0..2)
                .map(|_| {
                    let old = old.clone();
                    thread::spawn(move || insert_or_moved(&old, entry))
                })
                .collect();
            old.help_migrate(&next, &|e| {
                assert_eq!(e & ENTRY_REF_MASK, 5);
                HASH
            });
            let entry = next.tag(HASH) | 5;
            for t in threads {
                if !t.join().unwrap() && !entries(&next).contains(&entry) {
                    let pos = next.home(HASH);
                    assert!(
                        next.claim(pos, entry).is_ok()
                            || next.claim(next.next_pos(pos), entry).is_ok()
                    );
                }
            }
            assert_eq!(entries(&old), Vec::<u64>::new());
            assert_eq!(entries(&next), vec![entry]);
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
