//! Per-worker append-only record arenas, readable by every thread.
//!
//! Each worker appends fixed-size byte records (a state's significant
//! bytes or its fingerprint, then the parent's reference) to its own arena; any thread may read a record
//! once its reference has been published through the hash table. An arena
//! is a *segmented vector*: segment `k` holds `BASE << k` records, so a
//! record index maps to (segment, offset) with one leading-zero count, a
//! fixed directory of [`SEGMENTS`] pointers covers every possible index,
//! and segments never move once allocated (no reallocation under readers).
//!
//! # Invariants (what makes the unsafe code sound)
//! 1. Only the owning worker writes to an arena: [`Arena::push`] and
//!    [`Arena::truncate_last`] are `unsafe` with that contract; the visited
//!    set upholds it by binding each arena to one non-`Clone`,
//!    non-`Sync` worker handle.
//! 2. A segment pointer is stored (`Release`) before any record in it is
//!    written, and is never changed or freed until the arena is dropped.
//! 3. A record is written completely before its reference is published by
//!    a `Release` compare-and-swap in the hash table; readers obtain
//!    references only through `Acquire` loads of the table (or of records
//!    that were themselves published), so the record's words happen-before
//!    the read. A record is only ever rewritten (after
//!    [`Arena::truncate_last`]) if its reference was never published.

use crossbeam::utils::CachePadded;

use super::primitive::{AtomicPtr, AtomicU64, Ordering};

/// Records in segment 0 (a power of two).
const BASE_BITS: u32 = 10;
const BASE: u64 = 1 << BASE_BITS;
/// Segments in the directory: enough for `BASE * (2^SEGMENTS - 1)` records.
const SEGMENTS: usize = 40;
/// The granularity at which an arena's memory is counted as used.
const ACCOUNT_BYTES: u64 = 64 << 10;

/// One worker's records. See the module docs.
///
/// Arenas sit side by side in the set, and every thread reads every
/// arena's `stride` and `segments` (to read records) while each owner
/// writes its `len` at every push: aligned to cache lines, with `len` on
/// a line of its own, no push invalidates a line another worker reads
/// (German with 4 nodes, two threads: 1.02 -> 1.01 s, median of 9, and
/// 2.6% less CPU time).
#[repr(align(128))]
pub(crate) struct Arena {
    /// Bytes per record.
    stride: usize,
    segments: [AtomicPtr<u8>; SEGMENTS],
    /// Records appended (written by the owner, read by anyone for counts).
    len: CachePadded<AtomicU64>,
}

/// (segment, offset within it) of record `index`.
#[inline]
fn locate(index: u64) -> (usize, u64) {
    let k = 63 - ((index >> BASE_BITS) + 1).leading_zeros();
    (k as usize, index - BASE * ((1u64 << k) - 1))
}

fn segment_records(k: usize) -> u64 {
    BASE << k
}

/// The allocation of segment `k` for records of `stride` bytes (`None` if
/// it cannot be described, which only an absurd stride makes happen).
fn segment_layout(k: usize, stride: usize) -> Option<std::alloc::Layout> {
    let bytes = (segment_records(k) as usize).checked_mul(stride)?;
    std::alloc::Layout::from_size_align(bytes, 8).ok()
}

impl Arena {
    /// An empty arena of records of `stride` bytes.
    pub(crate) fn new(stride: usize) -> Self {
        Arena {
            stride: stride.max(1),
            segments: std::array::from_fn(|_| AtomicPtr::new(std::ptr::null_mut())),
            len: CachePadded::new(AtomicU64::new(0)),
        }
    }

    /// Records appended so far.
    pub(crate) fn len(&self) -> u64 {
        self.len.load(Ordering::Relaxed)
    }

    /// Bytes a push would newly use now: the [`ACCOUNT_BYTES`] chunks of
    /// its segment that the record is the first to reach. A segment is
    /// allocated whole but left untouched (see [`Arena::push`]), so its
    /// pages cost memory only as records fill them; counting chunks as
    /// they are reached makes the set's byte count (its statistics and
    /// its memory bound) follow what is resident rather than what is
    /// reserved, which for doubling segments is up to twice as much.
    pub(crate) fn bytes_needed_for_push(&self) -> u64 {
        let (k, offset) = locate(self.len());
        let stride = self.stride as u64;
        let segment = segment_records(k) * stride;
        let used = |records: u64| (records * stride).div_ceil(ACCOUNT_BYTES) * ACCOUNT_BYTES;
        used(offset + 1).min(segment) - used(offset).min(segment)
    }

    /// Appends `record` (`stride` bytes) and returns its index.
    ///
    /// # Safety
    /// Only one thread (the arena's owner) may call `push` or
    /// [`Arena::truncate_last`] on this arena, ever.
    /// Returns `None`, storing nothing, if a new segment is needed and the
    /// system refuses its memory.
    pub(crate) unsafe fn push(&self, record: &[u8]) -> Option<u64> {
        assert_eq!(record.len(), self.stride, "record of the wrong size");
        let index = self.len.load(Ordering::Relaxed);
        let (k, offset) = locate(index);
        let mut segment = self.segments[k].load(Ordering::Relaxed);
        if segment.is_null() {
            // Left uninitialised: its pages stay untouched (and out of the
            // resident set) until records fill them, so a half-used last
            // segment costs only its used half. (Asking for zeroed memory
            // made the allocator clear whole segments when it reused freed
            // memory, such as an old hash table: 15% more peak memory on
            // German with 5 nodes.) Only written records are ever read.
            let layout = segment_layout(k, self.stride)?;
            // SAFETY: `layout` has a non-zero size (`BASE` records of at
            // least one byte).
            let ptr = unsafe { std::alloc::alloc(layout) };
            if ptr.is_null() {
                return None;
            }
            segment = ptr;
            self.segments[k].store(segment, Ordering::Release);
        }
        // SAFETY: `offset < segment_records(k)`, so the record lies inside
        // the segment's allocation; the owner is the only writer (contract)
        // and this record is not yet published, so nobody reads it.
        unsafe {
            std::ptr::copy_nonoverlapping(
                record.as_ptr(),
                segment.add(offset as usize * self.stride),
                self.stride,
            );
        }
        self.len.store(index + 1, Ordering::Relaxed);
        Some(index)
    }

    /// Removes the last record, which must never have been published.
    ///
    /// # Safety
    /// Same single-writer contract as [`Arena::push`]; additionally the last
    /// record's reference must not have been made visible to other threads.
    pub(crate) unsafe fn truncate_last(&self) {
        let len = self.len.load(Ordering::Relaxed);
        debug_assert!(len > 0);
        self.len.store(len - 1, Ordering::Relaxed);
    }

    /// The record at `index`.
    ///
    /// # Safety
    /// `index` must have been obtained from a published reference (see the
    /// module invariants), or be below `len()` as seen by the owner.
    #[inline]
    pub(crate) unsafe fn record(&self, index: u64) -> &[u8] {
        let (k, offset) = locate(index);
        let segment = self.segments[k].load(Ordering::Acquire);
        debug_assert!(!segment.is_null());
        // SAFETY: the segment was allocated with `segment_records(k)`
        // records before the record was written (invariant 2), the record
        // was written before it was published (invariant 3), and segments
        // live as long as `self`.
        unsafe {
            std::slice::from_raw_parts(segment.add(offset as usize * self.stride), self.stride)
        }
    }

    /// Bytes of the arena counted as used: the [`ACCOUNT_BYTES`] chunks
    /// its records reach in each segment (the set keeps its own running
    /// total of [`Arena::bytes_needed_for_push`]; this recount checks it in
    /// tests).
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> u64 {
        let len = self.len();
        let stride = self.stride as u64;
        let mut total = 0;
        let mut first = 0;
        for k in 0..SEGMENTS {
            if first >= len {
                break;
            }
            let records = (len - first).min(segment_records(k));
            let segment = segment_records(k) * stride;
            total += ((records * stride).div_ceil(ACCOUNT_BYTES) * ACCOUNT_BYTES).min(segment);
            first += segment_records(k);
        }
        total
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for (k, segment) in self.segments.iter().enumerate() {
            let ptr = segment.load(Ordering::Relaxed);
            if !ptr.is_null() {
                let layout = segment_layout(k, self.stride).expect("allocated with it");
                // SAFETY: `ptr` came from `alloc` with exactly this
                // layout (see `push`) and is freed once.
                unsafe { std::alloc::dealloc(ptr, layout) };
            }
        }
    }
}

// SAFETY: the arena owns its segments (like a `Vec<u8>`); concurrent use
// follows the single-writer, publish-before-read protocol of the module
// docs, enforced by the `unsafe` contracts of `push` and `record`.
unsafe impl Send for Arena {}
// SAFETY: as above.
unsafe impl Sync for Arena {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_covers_segments_contiguously() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(BASE - 1), (0, BASE - 1));
        assert_eq!(locate(BASE), (1, 0));
        assert_eq!(locate(3 * BASE - 1), (1, 2 * BASE - 1));
        assert_eq!(locate(3 * BASE), (2, 0));
        let mut expected = (0usize, 0u64);
        for i in 0..20 * BASE {
            assert_eq!(locate(i), expected);
            expected.1 += 1;
            if expected.1 == segment_records(expected.0) {
                expected = (expected.0 + 1, 0);
            }
        }
    }

    fn bytes_of(words: &[u64]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn records_survive_growth_and_truncation() {
        let arena = Arena::new(24);
        let n = 5 * BASE + 7;
        for i in 0..n {
            // SAFETY: single-threaded test: this thread is the only writer.
            unsafe {
                arena.push(&bytes_of(&[i, i + 1, i * 2]));
                arena.push(&[99; 24]);
                arena.truncate_last();
            }
        }
        assert_eq!(arena.len(), n);
        for i in 0..n {
            // SAFETY: every index below len was written by this thread.
            assert_eq!(unsafe { arena.record(i) }, bytes_of(&[i, i + 1, i * 2]));
        }
        assert!(arena.bytes() >= n * 24);
    }

    /// The bytes counted push by push are the chunks the records reach:
    /// never less than the records, never more than a chunk per segment
    /// beyond them, whatever the stride (records straddle chunk ends).
    #[test]
    fn counted_bytes_follow_the_records() {
        for stride in [1, 14, 15, 24, 100] {
            let arena = Arena::new(stride);
            let record = vec![7u8; stride];
            let mut counted = 0;
            for i in 0..40_000u64 {
                counted += arena.bytes_needed_for_push();
                // SAFETY: single-threaded test: this thread is the only writer.
                unsafe { arena.push(&record) }.expect("memory");
                assert_eq!(counted, arena.bytes(), "stride {stride}, record {i}");
                let used = (i + 1) * stride as u64;
                let (segments, _) = locate(i);
                assert!(counted >= used);
                assert!(counted <= used + (segments as u64 + 1) * ACCOUNT_BYTES);
            }
        }
    }

    #[test]
    fn readers_see_records_published_by_the_writer() {
        use std::sync::atomic::AtomicU64 as StdAtomicU64;
        let arena = Arena::new(16);
        let published = StdAtomicU64::new(0);
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 0..4 * BASE {
                    // SAFETY: this thread is the only writer.
                    unsafe { arena.push(&bytes_of(&[i, !i])) };
                    published.store(i + 1, std::sync::atomic::Ordering::Release);
                }
            });
            s.spawn(|| {
                let mut seen = 0;
                while seen < 4 * BASE {
                    let upto = published.load(std::sync::atomic::Ordering::Acquire);
                    for i in seen..upto {
                        // SAFETY: index `i` was published with Release above.
                        assert_eq!(unsafe { arena.record(i) }, bytes_of(&[i, !i]));
                    }
                    seen = upto;
                }
            });
        });
    }
}
