//! The single-threaded table's slot array: slots of 6 or 8 bytes packed
//! end to end, read and written as little-endian integers.
//!
//! An exact (or tree) store's slot is a tag of the state's fingerprint
//! above the state's `id + 1`, in 6 bytes: the id takes as many bits as
//! the table's size needs and the tag the rest (28 bits at a million
//! slots, see the store's `Layout`), so most mismatches are rejected
//! without touching the stored state, at three quarters of an 8-byte
//! slot. A compact store's slot is the whole 64-bit fingerprint.

use crate::store::slots::Slots;

/// A fixed array of zeroed slots of [`PackedSlots::bytes_per_slot`] bytes.
pub(super) struct PackedSlots {
    /// The slots' bytes, and at least 2 more, in words (so that every slot
    /// is read with one unaligned 8-byte load inside the buffer); a large
    /// array is a mapping of its own, given back the moment the table
    /// grows (see [`Slots`]).
    words: Slots<u64>,
    len: usize,
    /// 6 or 8.
    bytes_per_slot: usize,
    /// The low `8 * bytes_per_slot` bits.
    mask: u64,
}

impl PackedSlots {
    /// `len` empty slots of `bytes_per_slot` (6 or 8) bytes, or `None` if
    /// the system refuses the memory.
    pub(super) fn zeroed(len: usize, bytes_per_slot: usize) -> Option<Self> {
        assert!(matches!(bytes_per_slot, 6 | 8), "6- or 8-byte slots");
        let bytes = len.checked_mul(bytes_per_slot)?.checked_add(2)?;
        let words = Slots::zeroed(bytes.div_ceil(8))?;
        Some(PackedSlots {
            words,
            len,
            bytes_per_slot,
            mask: if bytes_per_slot == 8 {
                u64::MAX
            } else {
                (1 << (8 * bytes_per_slot)) - 1
            },
        })
    }

    /// Number of slots.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Bytes per slot.
    pub(super) fn bytes_per_slot(&self) -> usize {
        self.bytes_per_slot
    }

    /// Bytes allocated.
    pub(super) fn bytes(&self) -> u64 {
        8 * self.words.len() as u64
    }

    /// The slot at `pos` (0: empty).
    #[inline(always)]
    pub(super) fn get(&self, pos: usize) -> u64 {
        debug_assert!(pos < self.len);
        let at = pos * self.bytes_per_slot;
        debug_assert!(at + 8 <= 8 * self.words.len());
        // SAFETY: `at + 8` is within the buffer: slots end at most 2 bytes
        // before its end for 6-byte slots (`zeroed` adds them), exactly at
        // it for 8-byte slots.
        let raw = unsafe {
            self.words
                .as_ptr()
                .cast::<u8>()
                .add(at)
                .cast::<u64>()
                .read_unaligned()
        };
        u64::from_le(raw) & self.mask
    }

    /// Writes `value` (at most `8 * bytes_per_slot` bits) to slot `pos`.
    #[inline(always)]
    pub(super) fn set(&mut self, pos: usize, value: u64) {
        debug_assert!(pos < self.len && value & !self.mask == 0);
        let at = pos * self.bytes_per_slot;
        let bytes = value.to_le_bytes();
        let buffer = self.words.as_mut_ptr().cast::<u8>();
        // SAFETY: as in `get`; only the slot's own bytes are written.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.add(at), self.bytes_per_slot)
        };
    }

    /// The address of slot `pos`, to prefetch.
    #[inline(always)]
    pub(super) fn address(&self, pos: usize) -> *const u8 {
        self.words
            .as_ptr()
            .cast::<u8>()
            .wrapping_add(pos * self.bytes_per_slot)
    }

    /// Replaces the slots by `len` empty ones, freeing the old ones before
    /// any new one is written (a mapping's pages are resident once written:
    /// the moment of growth never holds both); `false`, with the slots
    /// untouched, if the system refuses the memory.
    pub(super) fn regrow(&mut self, len: usize) -> bool {
        let Some(bytes) = len
            .checked_mul(self.bytes_per_slot)
            .and_then(|b| b.checked_add(2))
        else {
            return false;
        };
        let Some(fresh) = Slots::zeroed(bytes.div_ceil(8)) else {
            return false;
        };
        self.words = fresh;
        self.len = len;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_keep_their_values_and_leave_their_neighbours_alone() {
        for width in [6, 8] {
            let mut slots = PackedSlots::zeroed(1001, width).unwrap();
            let top = if width == 8 { u64::MAX } else { (1 << 48) - 1 };
            assert!((0..1001).all(|p| slots.get(p) == 0));
            for p in (0..1001).step_by(2) {
                slots.set(p, top - p as u64);
            }
            for p in 0..1001 {
                let want = if p % 2 == 0 { top - p as u64 } else { 0 };
                assert_eq!(slots.get(p), want, "{width}-byte slot {p}");
            }
            assert!(slots.regrow(1502));
            assert_eq!(slots.len(), 1502);
            assert!((0..1502).all(|p| slots.get(p) == 0));
            slots.set(1501, top);
            assert_eq!(slots.get(1501), top);
            assert_eq!(slots.get(1500), 0);
        }
    }
}
