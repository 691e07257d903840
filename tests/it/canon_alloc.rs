//! The hot path does not allocate: once a workspace has labelled graphs of
//! some size, labelling more of them touches the allocator zero times. Also
//! checks that the workspace can move between threads.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use orbit::canon::families::{self, Rng};
use orbit::canon::{Graph, Workspace};

/// Counts allocations made by threads that switched counting on (tests run
/// in parallel threads, whose allocations must not count).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note_allocation() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards every call unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn warm_workspace_labels_without_allocating() {
    let mut rng = Rng::new(3);
    let graphs: Vec<Graph> = (0..200)
        .map(|i| match i % 3 {
            0 => families::state_like(&mut rng, 40, 2, 4),
            1 => families::random_digraph(&mut rng, 60, 2, 2, 2),
            _ => families::random_regular(&mut rng, 40, 3),
        })
        .collect();
    let mut ws = Workspace::new();
    for g in &graphs {
        ws.canonicalise(g);
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let mut hash = 0u128;
    for g in &graphs {
        ws.canonicalise(g);
        hash ^= ws.form_hash();
    }
    COUNTING.with(|c| c.set(false));
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_ne!(hash, 0);
    assert_eq!(after - before, 0, "allocations on the hot path");
}

#[test]
fn workspace_is_send() {
    fn assert_send<T: Send + 'static>(_: &T) {}
    let ws = Workspace::new();
    assert_send(&ws);
    let g = families::complete(5);
    let handle = std::thread::spawn(move || {
        let mut ws = ws;
        ws.canonicalise(&g);
        ws.form_hash()
    });
    assert_ne!(handle.join().unwrap(), 0);
}
