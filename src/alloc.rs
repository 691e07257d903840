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

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

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
        unsafe {
            if layout.align() <= WORD {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
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
