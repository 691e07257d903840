//! The atomics the concurrent store is built on, routed through one place
//! so that a model checker of the memory model (`loom`, built with
//! `--cfg loom`) can be swapped in, as crossbeam-epoch does.
//!
//! Only the atomics of the slot array and the arenas go through here; the
//! epoch-based reclamation of old tables uses crossbeam-epoch directly.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
