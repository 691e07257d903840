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
//! sets aside an emergency reserve of address space
//! ([`keep_emergency_reserve`], from the system allocator, never written,
//! so it costs no resident memory). When mimalloc refuses a request, the
//! reserve is given back, the run's budget is marked exhausted for memory
//! ([`workers::budget::trip`]) and the request is retried once: it then
//! succeeds (under an address-space limit, say) and the search stops at its
//! next check with its partial summary. The check costs a test of the
//! result and keeping the layout across the call (about 1% of the
//! instructions of a B model check); the retry is out of line.
//! (mimalloc's deferred-free hook, which it calls with `force` before its
//! own retry, cannot serve: it gets the same call when a thread exits.)

//!
//! **A memory cap that holds.** The watchdog polls the resident size
//! every few milliseconds, and a phase that allocates fast (a set of 2^30
//! subsets, say) passed a 300 MiB bound by 70% before it was seen. The
//! allocator therefore counts the bytes it hands out
//! ([`workers::heap`]: one thread-local add on the fast path); when the
//! count passes the cap, the allocating thread's run is marked out of
//! memory at once, and the phase stops at its next check of the budget.
//! The allocation itself is served: refusing it would abort the process
//! (Rust has no recoverable allocation failure). Buffers that grow by
//! doubling ask first ([`workers::heap::room_for`]), so that a doubling
//! past the cap is never made.
//!
//! **Transparent huge pages.** mimalloc's arenas are eligible for the
//! kernel's transparent huge pages, which back every touched 2 MiB region
//! with a whole huge page: the store and the worker heaps touch many
//! regions sparsely, and resident memory doubled (German with 4 nodes, 2
//! threads: 78 MB with huge pages, 46 MB without, the same time).
//! [`disable_transparent_huge_pages`] turns them off for the process.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// The emergency reserve (null when none is held) and its size.
static RESERVE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static RESERVE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// Alignment of the reserve (a page).
const PAGE: usize = 4096;

/// Turns transparent huge pages off for this process (Linux; elsewhere a
/// no-op). [`crate::cli::main`] calls it first thing: it applies to every
/// page faulted in afterwards.
pub fn disable_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)` only sets a flag of
    // the calling process; it reads and writes no memory of ours. A
    // failure (an old kernel) leaves huge pages on, which is harmless.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// mimalloc's `mi_option_purge_delay` (its position in the `mi_option_e`
/// enumeration of `mimalloc.h`, the same in mimalloc 2 and 3, which
/// `libmimalloc-sys` does not name; a test checks it against the option's
/// default).
const MI_OPTION_PURGE_DELAY: mi::mi_option_t = 15;

/// Makes mimalloc give freed memory back to the system at once instead of
/// after its default delay (1 s in the mimalloc 3 that `libmimalloc-sys`
/// builds). The visited sets free whole tables when they
/// double and the workers free batches other threads made: with the delay
/// those stay resident, and the peak memory of a run is what ends a large
/// job (German with 4 nodes, 2 threads: 42.6 MB -> 38.5 MB, same time; B
/// models gain 3-15% with no measurable cost). [`crate::cli::main`] calls
/// it first thing.
pub fn purge_freed_memory_at_once() {
    // SAFETY: sets one of mimalloc's process-wide options; no memory of
    // ours is read or written.
    unsafe { mi::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}

/// Sets aside `bytes` of address space, given back when mimalloc runs out
/// of memory (see the module docs), and registers the hook that does it.
/// Replaces an earlier reserve.
pub fn keep_emergency_reserve(bytes: usize) {
    let Ok(layout) = Layout::from_size_align(bytes.max(PAGE), PAGE) else {
        return;
    };
    // SAFETY: a plain allocation from the system allocator (not mimalloc,
    // so that giving it back from inside mimalloc's hook cannot re-enter
    // mimalloc); freed once, by whoever swaps it out of RESERVE.
    let block = unsafe { System.alloc(layout) };
    if block.is_null() {
        return;
    }
    release_reserve();
    RESERVE_BYTES.store(layout.size(), Ordering::Release);
    RESERVE.store(block, Ordering::Release);
}

/// Gives the reserve back to the system; whether there was one.
fn release_reserve() -> bool {
    let block = RESERVE.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if block.is_null() {
        return false;
    }
    let bytes = RESERVE_BYTES.load(Ordering::Acquire);
    // SAFETY: the block came from `System.alloc` with this layout (checked
    // when it was made) and was swapped out of RESERVE by this call only.
    unsafe { System.dealloc(block, Layout::from_size_align_unchecked(bytes, PAGE)) };
    true
}

/// The slow path of a refused allocation (`zeroed`: of `alloc_zeroed`):
/// give back the reserve, mark the run out of memory and retry once.
#[cold]
#[inline(never)]
fn alloc_after_refusal(layout: Layout, zeroed: bool) -> *mut u8 {
    if !release_reserve() {
        return std::ptr::null_mut();
    }
    workers::budget::trip(workers::StopReason::MemoryLimit);
    let align = layout.align().max(WORD);
    // SAFETY: plain mimalloc calls with the caller's layout.
    let p = unsafe {
        if zeroed {
            mi::mi_zalloc_aligned(layout.size(), align) as *mut u8
        } else {
            mi::mi_malloc_aligned(layout.size(), align) as *mut u8
        }
    };
    if !p.is_null() {
        count(layout.size() as isize);
    }
    p
}

/// The slow path of a refused `realloc`, as [`alloc_after_refusal`] (a
/// failed realloc leaves `ptr` valid).
#[cold]
#[inline(never)]
fn realloc_after_refusal(ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    if !release_reserve() {
        return std::ptr::null_mut();
    }
    workers::budget::trip(workers::StopReason::MemoryLimit);
    // SAFETY: `ptr` is the caller's live block of `layout`.
    let p = unsafe {
        mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align().max(WORD)) as *mut u8
    };
    if !p.is_null() {
        count(new_size as isize - layout.size() as isize);
    }
    p
}

/// Alignment every mimalloc block has.
const WORD: usize = std::mem::size_of::<usize>();

use workers::heap::count;

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
        count(layout.size() as isize);
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
        count(layout.size() as isize);
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
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
        count(new_size as isize - layout.size() as isize);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_option_is_the_one_mimalloc_documents() {
        // Its default in mimalloc 3's `options.c` is 1000 ms (the option
        // next to it, `use_numa_nodes`, defaults to 0). Tests run under the
        // system allocator, so nothing has changed the option here.
        // SAFETY: reads one of mimalloc's options.
        assert_eq!(unsafe { mi::mi_option_get(MI_OPTION_PURGE_DELAY) }, 1000);
    }

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
