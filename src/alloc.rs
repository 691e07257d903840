//! The global allocator of the `orbit` binary: mimalloc, entered through
//! its plain `mi_malloc` where the requested alignment allows it.
//!
//! The `mimalloc` crate's allocator calls `mi_malloc_aligned` for every
//! allocation. Its fast path only succeeds when the next free block happens
//! to be aligned as asked; otherwise it takes a generic over-allocating path
//! several times slower. Every mimalloc block is at least word-aligned (block
//! sizes are multiples of the word size), so allocations asking for at most
//! word alignment — all of the interpreter's values, sets and vectors — can
//! use `mi_malloc` directly, as Rust's own `System` allocator does with
//! `malloc`. Larger alignments keep the aligned entry points.

//!
//! **Running out of memory.** A refused allocation makes Rust abort the
//! process, with no summary. To turn it into a clean stop, the command line
//! sets aside an emergency reserve ([`keep_emergency_reserve`]). When
//! mimalloc refuses a request (an address-space limit, an overcommitted
//! machine), the reserve is given back, the run's budget is marked
//! exhausted for memory ([`workers::budget::trip`]) and the request is
//! retried: the search then stops at its next check and prints its
//! partial summary. A second refusal, after the reserve is gone, aborts.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, Ordering};

/// The emergency reserve (null when none is held).
static RESERVE: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// Sets aside `bytes` of address space to be given back when an
/// allocation is refused; see the module docs. The block is never written,
/// so it costs no resident memory. Replaces an earlier reserve.
pub fn keep_emergency_reserve(bytes: usize) {
    // SAFETY: plain mimalloc calls; the block is only ever freed once, by
    // whoever swaps it out of RESERVE.
    unsafe {
        let block = mi::mi_malloc(bytes);
        if block.is_null() {
            return;
        }
        let old = RESERVE.swap(block, Ordering::AcqRel);
        if !old.is_null() {
            mi::mi_free(old);
        }
    }
}

/// Gives the reserve back and marks the run out of memory; whether there
/// was a reserve to give.
#[cold]
fn release_reserve() -> bool {
    let block = RESERVE.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if block.is_null() {
        return false;
    }
    // SAFETY: the block came from `mi_malloc` and was swapped out of
    // RESERVE by this call only.
    unsafe { mi::mi_free(block) };
    // Return freed memory to the system, so the retry can get it.
    // SAFETY: plain mimalloc call.
    unsafe { mi::mi_collect(true) };
    workers::budget::trip(workers::StopReason::MemoryLimit);
    true
}

/// The slow path of a refused allocation (`zeroed`: of `alloc_zeroed`):
/// give back the reserve and retry once. Out of line, so that the fast
/// path stays as small as a plain `mi_malloc` call.
#[cold]
#[inline(never)]
fn alloc_after_refusal(layout: Layout, zeroed: bool) -> *mut u8 {
    if !release_reserve() {
        return std::ptr::null_mut();
    }
    let align = layout.align().max(WORD);
    // SAFETY: plain mimalloc calls with the caller's layout.
    unsafe {
        if zeroed {
            mi::mi_zalloc_aligned(layout.size(), align) as *mut u8
        } else {
            mi::mi_malloc_aligned(layout.size(), align) as *mut u8
        }
    }
}

/// The slow path of a refused `realloc`: give back the reserve and retry
/// once (a failed realloc leaves `ptr` valid).
#[cold]
#[inline(never)]
fn realloc_after_refusal(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    if !release_reserve() {
        return std::ptr::null_mut();
    }
    // SAFETY: `ptr` is the caller's live block of `layout`.
    unsafe {
        mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align().max(WORD)) as *mut u8
    }
}

/// Alignment every mimalloc block has.
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc with a fast path for word-aligned requests (see the module docs).
pub struct Allocator;

// SAFETY: every method forwards to mimalloc, which returns blocks of at
// least the requested size aligned as requested (word alignment is always
// met by `mi_malloc`/`mi_zalloc`/`mi_realloc`); `dealloc` frees with
// `mi_free`, which accepts blocks from all of these entry points.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        let p = unsafe {
            if layout.align() <= WORD {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        };
        if p.is_null() {
            return alloc_after_refusal(layout, false);
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        let p = unsafe {
            if layout.align() <= WORD {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        };
        if p.is_null() {
            return alloc_after_refusal(layout, true);
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl.
        let p = unsafe {
            if layout.align() <= WORD {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        };
        if p.is_null() {
            return realloc_after_refusal(ptr, layout, new_size);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_as_asked_and_keep_their_contents() {
        for (size, align) in [
            (1, 1),
            (8, 8),
            (24, 8),
            (184, 8),
            (16, 16),
            (40, 32),
            (4096, 64),
        ] {
            let layout = Layout::from_size_align(size, align).unwrap();
            // SAFETY: non-zero sizes; every block is freed once with its layout.
            unsafe {
                let p = Allocator.alloc(layout);
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0, "{size} bytes aligned to {align}");
                p.write_bytes(7, size);
                let q = Allocator.realloc(p, layout, size * 3);
                assert_eq!(q as usize % align, 0);
                assert_eq!(*q.add(size - 1), 7);
                Allocator.dealloc(q, Layout::from_size_align(size * 3, align).unwrap());
                let z = Allocator.alloc_zeroed(layout);
                assert_eq!(*z.add(size - 1), 0);
                Allocator.dealloc(z, layout);
            }
        }
    }
}
