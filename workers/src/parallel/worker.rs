//! What every parallel worker does with a batch, whatever the scheduler:
//! expand each state through the one expansion routine
//! ([`crate::expand::Expander`]) against the shared visited set, queueing
//! the new states in outgoing batches.

use crossbeam::epoch::Guard;

use super::Shared;
use super::batch::Batch;
use crate::expand::{Expander, Queue, Stop, Visits};
use crate::report::StopReason;
use crate::store::{Full, Handle, Insert, Ref, VisitedSet};
use crate::system::TransitionSystem;

/// One worker's private state.
pub(crate) struct Worker<'s, 'a, T: TransitionSystem> {
    pub(crate) shared: &'s Shared<'a, T>,
    pub(crate) index: usize,
    handle: Handle,
    expander: Expander<'a, T>,
    out: Batch,
    /// The state being expanded, read back from the visited set.
    state: Vec<u64>,
}

/// A worker's view of the shared visited set: its handle, under a guard.
struct SetView<'w> {
    set: &'w VisitedSet,
    handle: &'w mut Handle,
    guard: &'w Guard,
}

impl Visits for SetView<'_> {
    #[inline]
    fn insert_with_fingerprint(
        &mut self,
        state: &[u64],
        fp: u64,
        parent: Ref,
    ) -> Result<Insert, StopReason> {
        self.set
            .insert_with_fingerprint(self.handle, self.guard, state, fp, parent)
            .map_err(stop_reason)
    }

    #[inline]
    fn prefetch(&self, fp: u64) {
        self.set.prefetch(self.guard, fp);
    }

    #[inline]
    fn read_to_expand(&mut self, id: Ref, out: &mut Vec<u64>) {
        self.set.read_to_expand(self.handle, id, out);
    }
}

/// A worker's outgoing batch: full batches go to the scheduler's sink.
struct Outgoing<'w> {
    out: &'w mut Batch,
    stride: usize,
    sink: &'w mut dyn FnMut(Batch),
}

impl Queue for Outgoing<'_> {
    #[inline]
    fn push(&mut self, id: Ref, depth: u64, state: &[u64]) {
        let queued = if self.stride > super::batch::HEADER {
            state
        } else {
            &[]
        };
        self.out.push(id, depth, queued);
        if self.out.is_full() {
            (self.sink)(std::mem::replace(self.out, Batch::with_stride(self.stride)));
        }
    }
}

impl<'s, 'a, T: TransitionSystem> Worker<'s, 'a, T> {
    /// Worker `index`, appending to the visited set through `handle`.
    pub(crate) fn new(shared: &'s Shared<'a, T>, index: usize, handle: Handle) -> Self {
        Worker {
            shared,
            index,
            handle,
            expander: Expander::new(
                shared.system,
                shared.check_goal,
                shared.config.check_deadlock,
                false,
            ),
            out: Batch::with_stride(shared.stride),
            state: Vec::new(),
        }
    }

    /// Rebuilds the worker's buffers (its expander's, its handle's, its
    /// batch) from the calling thread's allocator heap and makes its
    /// memory of recent states there; called first thing on the worker's
    /// own thread. Workers are made together on the main thread, whose
    /// allocator put their small buffers side by side: two workers writing
    /// theirs then shared cache lines.
    pub(crate) fn rehome(&mut self) {
        self.expander.rehome();
        self.handle.rehome();
        self.out = Batch {
            words: self.out.words.clone(),
            len: self.out.len,
        };
        self.state = self.state.clone();
    }

    /// Hands a partly filled outgoing batch to `sink`.
    pub(crate) fn flush(&mut self, sink: &mut dyn FnMut(Batch)) {
        if self.out.len > 0 {
            sink(std::mem::replace(
                &mut self.out,
                Batch::with_stride(self.shared.stride),
            ));
        }
    }

    /// Stops the search for `stop`.
    fn stop(&self, stop: Stop) {
        match stop {
            Stop::Stopped(reason) => self.shared.stop_with(reason),
            Stop::Found(finding, r, depth) => self.shared.found(finding, r, depth),
        }
    }

    /// Adds the counts of the expansions since the last call to the
    /// shared counters.
    fn publish_counts(&mut self) {
        let counts = self.expander.take_counts();
        let counters = &self.shared.counters[self.index];
        counters.add_transitions(counts.transitions);
        counters.add_flooded(counts.flooded);
        counters.note_depth(counts.max_depth);
        counters.add_por(&mut self.expander.por);
        if counts.initial_states > 0 {
            self.shared
                .initial_states
                .fetch_add(counts.initial_states, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Computes the initial states (on the calling thread) into batches.
    pub(crate) fn initial_states(
        &mut self,
        sink: &mut dyn FnMut(Batch),
    ) -> Result<(), crate::ModelError> {
        let shared = self.shared;
        let guard = crossbeam::epoch::pin();
        let mut view = SetView {
            set: &shared.set,
            handle: &mut self.handle,
            guard: &guard,
        };
        let mut queue = Outgoing {
            out: &mut self.out,
            stride: shared.stride,
            sink,
        };
        let added = self.expander.add_initial_states(&mut view, &mut queue);
        self.publish_counts();
        if let Err(stop) = added? {
            self.stop(stop);
        }
        self.flush(sink);
        Ok(())
    }

    /// Expands every state of `batch`, handing full outgoing batches to
    /// `sink`; the partly filled one stays with the worker until the
    /// scheduler calls [`Worker::flush`]. Stops early when the search is
    /// stopping.
    pub(crate) fn expand_batch(&mut self, batch: &Batch, sink: &mut dyn FnMut(Batch)) {
        let shared = self.shared;
        let stride = shared.stride;
        let guard = crossbeam::epoch::pin();
        let mut stored = std::mem::take(&mut self.state);
        let mut view = SetView {
            set: &shared.set,
            handle: &mut self.handle,
            guard: &guard,
        };
        let mut queue = Outgoing {
            out: &mut self.out,
            stride,
            sink,
        };
        let mut stop = None;
        for i in 0..batch.len {
            if shared.stopping() {
                break;
            }
            let (r, depth, queued) = batch.record(i, stride);
            let state = if stride > super::batch::HEADER {
                queued
            } else {
                view.read_to_expand(r, &mut stored);
                &stored[..]
            };
            if let Err(s) = self.expander.expand(&mut view, &mut queue, state, r, depth) {
                stop = Some(s);
                break;
            }
        }
        self.state = stored;
        if let Some(stop) = stop {
            self.stop(stop);
        }
        self.publish_counts();
    }
}

/// Why the search stops when the visited set refuses a state.
/// Why a store's refusal stops the search.
pub(crate) fn stop_reason(full: Full) -> StopReason {
    match full {
        Full::Memory => StopReason::MemoryLimit,
        Full::States => StopReason::MaxStates,
        Full::Nodes => StopReason::StoreFull,
    }
}
