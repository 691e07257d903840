//! The memory of a table's slots: zeroed `u64` atomics, taken from the
//! system directly when large.
//!
//! A large slot array is its own anonymous memory mapping (`mmap` on Unix):
//! the kernel hands out zeroed pages, so an empty table costs no writes
//! and no resident memory until slots are claimed, and `munmap` gives the
//! pages back the moment an old generation is freed. Through the global
//! allocator, the segments' generations (allocated by one thread, freed by
//! another) left holes its pages could not return: German with 4 nodes at
//! two threads peaked at 38 MB with 64 allocator-backed segments grown by
//! half, at 23.5 MB with the same segments mapped. Small
//! arrays, other targets and `--cfg loom` builds use a boxed slice.

use super::primitive::AtomicU64;

/// Bytes from which a slot array is mapped rather than allocated.
#[cfg(all(unix, not(loom)))]
const MAP_FROM_BYTES: usize = 4 << 10;

/// A fixed array of zeroed slots. Dereferences to `[AtomicU64]` (one
/// representation for both kinds of memory, so that a slot access on the
/// hot path is a plain indexed load).
pub(crate) struct Slots {
    ptr: std::ptr::NonNull<AtomicU64>,
    len: usize,
    /// Whether `ptr` is a mapping of its own (else a leaked boxed slice).
    mapped: bool,
}

impl Slots {
    /// `len` zeroed slots, or `None` if the system refuses the memory.
    pub(crate) fn zeroed(len: usize) -> Option<Self> {
        #[cfg(all(unix, not(loom)))]
        if len.checked_mul(std::mem::size_of::<AtomicU64>())? >= MAP_FROM_BYTES {
            return Self::mapped(len);
        }
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).ok()?;
        slots.extend((0..len).map(|_| AtomicU64::new(0)));
        let boxed: *mut [AtomicU64] = Box::into_raw(slots.into_boxed_slice());
        Some(Slots {
            ptr: std::ptr::NonNull::new(boxed.cast::<AtomicU64>())?,
            len,
            mapped: false,
        })
    }

    /// `len` slots in their own anonymous mapping.
    #[cfg(all(unix, not(loom)))]
    fn mapped(len: usize) -> Option<Self> {
        let bytes = len * std::mem::size_of::<AtomicU64>();
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
        // Zeroed pages are slots holding 0 (`EMPTY`): `AtomicU64` has the
        // layout of `u64`, and mappings are page-aligned.
        Some(Slots {
            ptr: std::ptr::NonNull::new(ptr.cast::<AtomicU64>())?,
            len,
            mapped: true,
        })
    }
}

impl std::ops::Deref for Slots {
    type Target = [AtomicU64];

    #[inline(always)]
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` holds `len` initialised slots (written by `zeroed`
        // or zeroed by the kernel) for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        if self.mapped {
            #[cfg(all(unix, not(loom)))]
            // SAFETY: the mapping made in `mapped`, of this many bytes,
            // unmapped once; nothing borrows it past `self`.
            unsafe {
                libc::munmap(
                    self.ptr.as_ptr().cast(),
                    self.len * std::mem::size_of::<AtomicU64>(),
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

// SAFETY: the slots are atomics, shared as `&[AtomicU64]`; the mapping is
// owned like a `Box`.
unsafe impl Send for Slots {}
// SAFETY: as above.
unsafe impl Sync for Slots {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::primitive::Ordering;

    #[test]
    fn small_and_mapped_arrays_start_empty_and_keep_their_writes() {
        for len in [1, 7, 8191, 8192, 100_000] {
            let slots = Slots::zeroed(len).expect("memory");
            assert_eq!(slots.len(), len);
            assert!(slots.iter().all(|s| s.load(Ordering::Relaxed) == 0));
            for (i, s) in slots.iter().enumerate() {
                s.store(i as u64 * 3 + 1, Ordering::Relaxed);
            }
            for (i, s) in slots.iter().enumerate() {
                assert_eq!(s.load(Ordering::Relaxed), i as u64 * 3 + 1);
            }
        }
    }
}
