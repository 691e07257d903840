//! What every parallel worker does with a batch, whatever the scheduler:
//! expand each state, insert its successors in the visited set, check the
//! new ones and queue them in outgoing batches.

use crossbeam::epoch::Guard;

use super::Shared;
use super::batch::Batch;
use crate::check::{Finding, check_new_state};
use crate::por::PorCounts;
use crate::recent::{Lookup, RecentStates};
use crate::store::{Handle, Insert, Ref};
use crate::system::{Expansion, TransitionSystem};

/// One worker's private state.
pub(crate) struct Worker<'s, 'a, T: TransitionSystem> {
    pub(crate) shared: &'s Shared<'a, T>,
    pub(crate) index: usize,
    handle: Handle,
    scratch: T::Scratch,
    successors: Vec<u64>,
    /// What was found of each of `successors` before inserting it.
    lookups: Vec<Lookup>,
    /// The states this worker met last (see [`crate::recent`]).
    recent: RecentStates,
    out: Batch,
    por: PorCounts,
    /// Flood buffer (see [`crate::flood`]).
    images: Vec<u64>,
    /// The state being expanded, read back from the visited set.
    state: Vec<u64>,
}

impl<'s, 'a, T: TransitionSystem> Worker<'s, 'a, T> {
    /// Worker `index`, appending to the visited set through `handle`.
    pub(crate) fn new(shared: &'s Shared<'a, T>, index: usize, handle: Handle) -> Self {
        Worker {
            shared,
            index,
            handle,
            scratch: shared.system.new_scratch(),
            successors: Vec::new(),
            lookups: Vec::new(),
            recent: RecentStates::none(),
            out: Batch::with_stride(shared.stride),
            por: PorCounts::new(shared.system),
            images: Vec::new(),
            state: Vec::new(),
        }
    }

    /// Rebuilds the worker's buffers (its system scratch, its handle's,
    /// its successor and batch buffers) from the calling thread's allocator
    /// heap and makes its memory of recent states there; called first
    /// thing on the worker's own thread. Workers are made together on the
    /// main thread, whose allocator put their small buffers side by side:
    /// two workers writing theirs then shared cache lines.
    pub(crate) fn rehome(&mut self) {
        self.scratch = self.shared.system.new_scratch();
        self.handle.rehome();
        self.successors = self.successors.clone();
        self.lookups = self.lookups.clone();
        self.recent = RecentStates::new(self.shared.width);
        self.out = Batch {
            words: self.out.words.clone(),
            len: self.out.len,
        };
        self.images = self.images.clone();
        self.state = self.state.clone();
    }

    /// Inserts and checks `state` of fingerprint `fp`
    /// ([`crate::hash::fingerprint`]), found at `depth` from `parent`;
    /// queues it in the outgoing batch if new, handing full batches to
    /// `sink`, and remembers it as met. Returns `false` if the search must
    /// stop.
    #[inline]
    pub(crate) fn add_state(
        &mut self,
        guard: &Guard,
        state: &[u64],
        fp: u64,
        parent: Ref,
        depth: u64,
        sink: &mut dyn FnMut(Batch),
    ) -> bool {
        let shared = self.shared;
        let inserted =
            shared
                .set
                .insert_with_fingerprint(&mut self.handle, guard, state, fp, parent);
        if inserted.is_ok() {
            self.recent.remember(fp, state);
        }
        let r = match inserted {
            Ok(Insert::Seen) => {
                self.por.saw_stored = true;
                return true;
            }
            Ok(Insert::New(r)) => r,
            Err(full) => {
                shared.stop_with(stop_reason(full));
                return false;
            }
        };
        if shared.system.floods() {
            let (set, handle) = (&shared.set, &mut self.handle);
            let mut insert = |s: &[u64]| match set.insert(handle, guard, s, parent) {
                Ok(i) => Ok(matches!(i, Insert::New(_))),
                Err(full) => Err(stop_reason(full)),
            };
            let flooded = crate::flood::flood(
                shared.system,
                &mut self.scratch,
                state,
                &mut self.images,
                &mut insert,
            );
            match flooded {
                Ok(f) => {
                    shared.counters[self.index].add_flooded(f.stored);
                    if !f.explore {
                        return true;
                    }
                }
                Err(reason) => {
                    shared.stop_with(reason);
                    return false;
                }
            }
        }
        if parent == crate::store::NO_PARENT {
            shared
                .initial_states
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        shared.counters[self.index].note_depth(depth);
        if let Some(finding) =
            check_new_state(shared.system, &mut self.scratch, state, shared.check_goal)
        {
            shared.found(finding, r, depth);
            return false;
        }
        let queued = if shared.stride > super::batch::HEADER {
            state
        } else {
            &[]
        };
        self.out.push(r, depth, queued);
        if self.out.is_full() {
            sink(std::mem::replace(
                &mut self.out,
                Batch::with_stride(shared.stride),
            ));
        }
        true
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

    /// Computes the initial states (on the calling thread) into batches.
    pub(crate) fn initial_states(
        &mut self,
        sink: &mut dyn FnMut(Batch),
    ) -> Result<(), crate::ModelError> {
        let shared = self.shared;
        let mut states = Vec::new();
        let mut count = 0;
        shared.system.initial_states(&mut self.scratch, &mut |s| {
            if crate::budget::keep_growing(&mut states, s.len()) {
                states.extend_from_slice(s);
                count += 1;
            }
        })?;
        // States refused once the budget ran out: the set is partial.
        crate::budget::ensure_within()?;
        let guard = crossbeam::epoch::pin();
        let width = shared.width;
        for i in 0..count {
            let state = &states[i * width..(i + 1) * width];
            if !self.add_state(
                &guard,
                state,
                crate::hash::fingerprint(state),
                crate::store::NO_PARENT,
                0,
                sink,
            ) {
                break;
            }
        }
        self.flush(sink);
        Ok(())
    }

    /// Adds the `count` successors of state `r` (depth `depth`) collected
    /// in `self.successors`; `false` if the search must stop. Those the
    /// worker met last are known stored; the table slots of the others are
    /// prefetched together before they are inserted one by one.
    fn add_successors(
        &mut self,
        guard: &Guard,
        count: usize,
        r: Ref,
        depth: u64,
        sink: &mut dyn FnMut(Batch),
    ) -> bool {
        let width = self.shared.width;
        let successors = std::mem::take(&mut self.successors);
        let mut lookups = std::mem::take(&mut self.lookups);
        let set = &self.shared.set;
        self.recent
            .look_up((&successors, width, count), &mut lookups, |fp| {
                set.prefetch(guard, fp)
            });
        let mut go_on = true;
        for (k, lookup) in lookups.iter().enumerate() {
            let state = &successors[k * width..(k + 1) * width];
            match *lookup {
                Lookup::Met => self.por.saw_stored = true,
                Lookup::Insert(fp) => {
                    if !self.add_state(guard, state, fp, r, depth + 1, sink) {
                        go_on = false;
                        break;
                    }
                }
            }
        }
        self.successors = successors;
        self.lookups = lookups;
        go_on
    }

    /// Expands every state of `batch`, handing full outgoing batches to
    /// `sink`; the partly filled one stays with the worker until the
    /// scheduler calls [`Worker::flush`]. Stops early when the search is
    /// stopping.
    pub(crate) fn expand_batch(&mut self, batch: &Batch, sink: &mut dyn FnMut(Batch)) {
        let shared = self.shared;
        let stride = shared.stride;
        let guard = crossbeam::epoch::pin();
        let mut transitions = 0u64;
        let mut stored = std::mem::take(&mut self.state);
        for i in 0..batch.len {
            if shared.stopping() {
                break;
            }
            let (r, depth, queued) = batch.record(i, stride);
            let state = if stride > super::batch::HEADER {
                queued
            } else {
                shared.set.read_to_expand(&mut self.handle, r, &mut stored);
                &stored[..]
            };
            self.successors.clear();
            let mut emitted = 0u64;
            let successors = &mut self.successors;
            let mut collect = |s: &[u64]| {
                successors.extend_from_slice(s);
                emitted += 1;
            };
            let result = if self.por.reduces {
                shared
                    .system
                    .reduced_successors(&mut self.scratch, state, &mut collect)
            } else {
                shared
                    .system
                    .successors(&mut self.scratch, state, &mut collect)
                    .map(|()| Expansion::Full)
            };
            let expansion = match result {
                Ok(expansion) => expansion,
                Err(e) => {
                    shared.found(Finding::ModelError(e), r, depth);
                    break;
                }
            };
            transitions += emitted;
            // See the sequential engine: a stuttering system decides.
            let stuck = if shared.system.stutter_is_deadlock() {
                !shared.system.moved(&self.scratch)
            } else {
                emitted == 0
            };
            if shared.config.check_deadlock && stuck {
                shared.found(Finding::Deadlock, r, depth);
                break;
            }
            self.por.saw_stored = false;
            if !self.add_successors(&guard, emitted as usize, r, depth, sink) {
                break;
            }
            if self.por.needs_remaining(expansion) {
                // The cycle proviso (see `crate::por`): expand fully.
                self.successors.clear();
                let mut emitted = 0u64;
                let successors = &mut self.successors;
                let result =
                    shared
                        .system
                        .remaining_successors(&mut self.scratch, state, &mut |s| {
                            successors.extend_from_slice(s);
                            emitted += 1;
                        });
                if let Err(e) = result {
                    shared.found(Finding::ModelError(e), r, depth);
                    break;
                }
                transitions += emitted;
                if !self.add_successors(&guard, emitted as usize, r, depth, sink) {
                    break;
                }
            }
        }
        self.state = stored;
        let counters = &shared.counters[self.index];
        counters.add_transitions(transitions);
        counters.add_por(&mut self.por);
    }
}

/// Why the search stops when the visited set refuses a state.
fn stop_reason(full: crate::store::Full) -> crate::report::StopReason {
    match full {
        crate::store::Full::Memory => crate::report::StopReason::MemoryLimit,
        crate::store::Full::States => crate::report::StopReason::MaxStates,
        crate::store::Full::Nodes => crate::report::StopReason::StoreFull,
    }
}
