//! The memory of a table's slots: zeroed words (`u64` or `u32` atomics,
//! or plain `u64`s for the single-threaded table), taken from the system
//! directly when large.
//!
//! A large slot array is its own anonymous memory mapping (`mmap` on Unix):
//! the kernel hands out zeroed pages, so an empty table costs no writes
//! and no resident memory until slots are claimed, and `munmap` gives the
//! pages back the moment an old generation is freed. Through the global
//! allocator, the segments' generations (allocated by one thread, freed by
//! another) left holes its pages could not return: German with 4 nodes at
//! two threads peaked at 38 MB with 64 allocator-backed segments grown by
//! half, at 23.5 MB with the same segments mapped. The single-threaded
//! table, grown in one thread, left every old generation in the
//! allocator too: mimalloc keeps a freed block's page when it is the only
//! page of its size class, and each generation of a table grown by half is
//! a size class of its own (n_peterson with 4 processes, one thread: 420
//! KB of the run's 1.6 MB of anonymous memory were such pages at the end). Small
//! arrays, other targets and `--cfg loom` builds use a boxed slice.

use super::primitive::{AtomicU32, AtomicU64};

/// An atomic a slot array can hold: zero is all-zero bytes, so the
/// kernel's zeroed pages are a valid array.
pub(crate) trait SlotWord: Sized {
    /// The atomic holding 0.
    fn zero() -> Self;
}

impl SlotWord for AtomicU64 {
    fn zero() -> Self {
        AtomicU64::new(0)
    }
}

impl SlotWord for AtomicU32 {
    fn zero() -> Self {
        AtomicU32::new(0)
    }
}

impl SlotWord for u64 {
    fn zero() -> Self {
        0
    }
}

/// Bytes from which a slot array is mapped rather than allocated.
#[cfg(all(unix, not(loom)))]
const MAP_FROM_BYTES: usize = 4 << 10;

/// A fixed array of zeroed slots. Dereferences to `[W]` (one
/// representation for both kinds of memory, so that a slot access on the
/// hot path is a plain indexed load).
pub(crate) struct Slots<W> {
    ptr: std::ptr::NonNull<W>,
    len: usize,
    /// Whether `ptr` is a mapping of its own (else a leaked boxed slice).
    mapped: bool,
}

impl<W: SlotWord> Slots<W> {
    /// `len` zeroed slots, or `None` if the system refuses the memory.
    pub(crate) fn zeroed(len: usize) -> Option<Self> {
        #[cfg(all(unix, not(loom)))]
        if len.checked_mul(std::mem::size_of::<W>())? >= MAP_FROM_BYTES {
            return Self::mapped(len);
        }
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).ok()?;
        slots.extend((0..len).map(|_| W::zero()));
        let boxed: *mut [W] = Box::into_raw(slots.into_boxed_slice());
        Some(Slots {
            ptr: std::ptr::NonNull::new(boxed.cast::<W>())?,
            len,
            mapped: false,
        })
    }

    /// `len` slots in their own anonymous mapping.
    #[cfg(all(unix, not(loom)))]
    fn mapped(len: usize) -> Option<Self> {
        let bytes = len * std::mem::size_of::<W>();
        // SAFETY: an anonymous private mapping of `bytes` (non-zero) bytes
        // at an address of the kernel's choosing; it aliases nothing and is
        // unmapped once, in `drop`.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        // Zeroed pages are slots holding 0 (`EMPTY`): the atomics have the
        // layout of their integers (and plain words are integers), and
        // mappings are page-aligned.
        Some(Slots {
            ptr: std::ptr::NonNull::new(ptr.cast::<W>())?,
            len,
            mapped: true,
        })
    }
}

impl<W> std::ops::Deref for Slots<W> {
    type Target = [W];

    #[inline(always)]
    fn deref(&self) -> &[W] {
        // SAFETY: `ptr` holds `len` initialised slots (written by `zeroed`
        // or zeroed by the kernel) for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<W> std::ops::DerefMut for Slots<W> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [W] {
        // SAFETY: as in `deref`; `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<W> Drop for Slots<W> {
    fn drop(&mut self) {
        if self.mapped {
            #[cfg(all(unix, not(loom)))]
            // SAFETY: the mapping made in `mapped`, of this many bytes,
            // unmapped once; nothing borrows it past `self`.
            unsafe {
                libc::munmap(
                    self.ptr.as_ptr().cast(),
                    self.len * std::mem::size_of::<W>(),
                );
            }
        } else {
            // SAFETY: `ptr` and `len` are the boxed slice leaked in
            // `zeroed`, rebuilt and dropped once.
            drop(unsafe {
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                    self.ptr.as_ptr(),
                    self.len,
                ))
            });
        }
    }
}

// SAFETY: the slots are atomics, shared as `&[W]`; the mapping is owned
// like a `Box`.
unsafe impl<W: Send> Send for Slots<W> {}
// SAFETY: as above.
unsafe impl<W: Sync> Sync for Slots<W> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::primitive::Ordering;

    #[test]
    fn small_and_mapped_arrays_start_empty_and_keep_their_writes() {
        for len in [1, 7, 8191, 8192, 100_000] {
            let slots = Slots::<AtomicU64>::zeroed(len).expect("memory");
            assert_eq!(slots.len(), len);
            assert!(slots.iter().all(|s| s.load(Ordering::Relaxed) == 0));
            for (i, s) in slots.iter().enumerate() {
                s.store(i as u64 * 3 + 1, Ordering::Relaxed);
            }
            for (i, s) in slots.iter().enumerate() {
                assert_eq!(s.load(Ordering::Relaxed), i as u64 * 3 + 1);
            }
        }
        for len in [1, 1023, 1024, 100_000] {
            let slots = Slots::<AtomicU32>::zeroed(len).expect("memory");
            assert_eq!(slots.len(), len);
            assert!(slots.iter().all(|s| s.load(Ordering::Relaxed) == 0));
            for (i, s) in slots.iter().enumerate() {
                s.store(u32::MAX - i as u32, Ordering::Relaxed);
            }
            for (i, s) in slots.iter().enumerate() {
                assert_eq!(s.load(Ordering::Relaxed), u32::MAX - i as u32);
            }
        }
        // Plain words (the single-threaded table's), written through
        // `DerefMut`, small and mapped.
        for len in [1, 511, 512, 100_000] {
            let mut slots = Slots::<u64>::zeroed(len).expect("memory");
            assert!(slots.iter().all(|&w| w == 0));
            for (i, w) in slots.iter_mut().enumerate() {
                *w = !(i as u64);
            }
            assert!(slots.iter().enumerate().all(|(i, &w)| w == !(i as u64)));
        }
    }
}
