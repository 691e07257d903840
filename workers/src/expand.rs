//! The one expansion routine of both engines: expand a state, add its
//! successors to the visited store, check each new one and queue it.
//!
//! The sequential search and every parallel worker own an [`Expander`]
//! (the system's scratch space and the buffers of one thread) and call it
//! with their view of the store ([`Visits`]) and their queue ([`Queue`]):
//! the sequential engine's frontier, a worker's outgoing batch. What
//! differs between the engines — where the store lives, how new states are
//! scheduled, how a finding stops the others — is behind those two traits;
//! the steps themselves (the memory of recent states, prefetching,
//! flooding, the checks, deadlocks, partial order reduction's proviso) are
//! written once, here.

use crate::check::{Finding, check_new_state};
use crate::por::PorCounts;
use crate::recent::{Lookup, RecentStates};
use crate::report::StopReason;
use crate::store::{Insert, NO_PARENT, Ref};
use crate::system::{Expansion, TransitionSystem};

/// A thread's view of a visited store: what the expansion needs of it.
pub(crate) trait Visits {
    /// Stores `state`, whose fingerprint is `fp`
    /// ([`crate::hash::fingerprint`]), with parent `parent` unless it is
    /// stored already; fails, storing nothing, if a bound refuses it.
    fn insert_with_fingerprint(
        &mut self,
        state: &[u64],
        fp: u64,
        parent: Ref,
    ) -> Result<Insert, StopReason>;

    /// [`Visits::insert_with_fingerprint`], computing the fingerprint.
    fn insert(&mut self, state: &[u64], parent: Ref) -> Result<Insert, StopReason> {
        self.insert_with_fingerprint(state, crate::hash::fingerprint(state), parent)
    }

    /// Starts loading the table slot where the state of fingerprint `fp`
    /// would be looked up, so that several lookups overlap.
    fn prefetch(&self, fp: u64);

    /// Reads the state of `id` into `out` to expand it (a tree store
    /// compresses its successors against it).
    fn read_to_expand(&mut self, id: Ref, out: &mut Vec<u64>);
}

/// Where an engine puts the new states it is to expand.
pub(crate) trait Queue {
    /// Queues the new state `id` (`state`, its words) found at `depth`.
    fn push(&mut self, id: Ref, depth: u64, state: &[u64]);
}

/// Why an expansion stopped the search.
#[derive(Debug)]
pub(crate) enum Stop {
    /// A bound, the budget or the store stopped it.
    Stopped(StopReason),
    /// A finding at the state `id`, found at `depth`.
    Found(Finding, Ref, u64),
}

/// What the expansions of one thread counted since the engine last took
/// the counts ([`Expander::take_counts`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counts {
    /// Transitions (successors emitted).
    pub(crate) transitions: u64,
    /// Initial states stored.
    pub(crate) initial_states: u64,
    /// States stored by flooding only.
    pub(crate) flooded: u64,
    /// Largest depth of a state stored.
    pub(crate) max_depth: u64,
}

/// One thread's expansion of states: the system's scratch space and the
/// buffers, reused from state to state.
pub(crate) struct Expander<'a, T: TransitionSystem> {
    system: &'a T,
    width: usize,
    check_goal: bool,
    check_deadlock: bool,
    /// The system's scratch space.
    pub(crate) scratch: T::Scratch,
    successors: Vec<u64>,
    /// What was found of each of the successors before inserting it.
    lookups: Vec<Lookup>,
    /// The states met last (see [`crate::recent`]).
    recent: RecentStates,
    /// Partial order reduction's counts and state.
    pub(crate) por: PorCounts,
    /// Flood buffer (see [`crate::flood`]).
    images: Vec<u64>,
    counts: Counts,
}

impl<'a, T: TransitionSystem> Expander<'a, T> {
    /// An expander for `system`, checking goals (`check_goal`) and
    /// deadlocks (`check_deadlock`) as asked, with a memory of recent
    /// states (`recent`) or none.
    pub(crate) fn new(system: &'a T, check_goal: bool, check_deadlock: bool, recent: bool) -> Self {
        let width = system.state_width();
        Expander {
            system,
            width,
            check_goal,
            check_deadlock,
            scratch: system.new_scratch(),
            successors: Vec::new(),
            lookups: Vec::new(),
            recent: if recent {
                RecentStates::new(width)
            } else {
                RecentStates::none()
            },
            por: PorCounts::new(system),
            images: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// Rebuilds the buffers from the calling thread's allocator heap (see
    /// the parallel engine's workers, made on one thread and run on
    /// others), with a memory of recent states.
    pub(crate) fn rehome(&mut self) {
        self.scratch = self.system.new_scratch();
        self.successors = self.successors.clone();
        self.lookups = self.lookups.clone();
        self.recent = RecentStates::new(self.width);
        self.images = self.images.clone();
    }

    /// The counts since the last call, which clears them.
    pub(crate) fn take_counts(&mut self) -> Counts {
        std::mem::take(&mut self.counts)
    }

    /// The counts so far.
    pub(crate) fn counts(&self) -> Counts {
        self.counts
    }

    /// Computes the initial states and adds them (depth 0, no parent).
    /// A model error computing them is returned as such.
    pub(crate) fn add_initial_states<V: Visits, Q: Queue>(
        &mut self,
        store: &mut V,
        queue: &mut Q,
    ) -> Result<Result<(), Stop>, crate::ModelError> {
        let mut batch = std::mem::take(&mut self.successors);
        batch.clear();
        let mut count = 0usize;
        let init = self.system.initial_states(&mut self.scratch, &mut |s| {
            if crate::budget::keep_growing(&mut batch, s.len()) {
                batch.extend_from_slice(s);
                count += 1;
            }
        });
        self.successors = batch;
        init?;
        // States refused once the budget ran out: the set is partial.
        crate::budget::ensure_within()?;
        Ok(self.add_successors(store, queue, count, NO_PARENT, 0))
    }

    /// Expands `state` (the state of `id`, at `depth`): emits its
    /// successors, reports a deadlock, adds the successors (and, when
    /// partial order reduction's proviso asks, the rest).
    #[inline]
    pub(crate) fn expand<V: Visits, Q: Queue>(
        &mut self,
        store: &mut V,
        queue: &mut Q,
        state: &[u64],
        id: Ref,
        depth: u64,
    ) -> Result<(), Stop> {
        let system = self.system;
        self.successors.clear();
        let mut emitted = 0usize;
        let successors = &mut self.successors;
        let mut collect = |s: &[u64]| {
            successors.extend_from_slice(s);
            emitted += 1;
        };
        let expansion = if self.por.reduces {
            system.reduced_successors(&mut self.scratch, state, &mut collect)
        } else {
            system
                .successors(&mut self.scratch, state, &mut collect)
                .map(|()| Expansion::Full)
        };
        let expansion = expansion.map_err(|e| Stop::Found(Finding::ModelError(e), id, depth))?;
        self.counts.transitions += emitted as u64;
        // A stuttering system says itself whether the state moved (a
        // successor it discarded may count); otherwise a deadlock is a
        // state without successors.
        let stuck = if system.stutter_is_deadlock() {
            !system.moved(&self.scratch)
        } else {
            emitted == 0
        } && !system.discarded(&self.scratch);
        if self.check_deadlock && stuck {
            return Err(Stop::Found(Finding::Deadlock, id, depth));
        }
        self.por.saw_stored = false;
        self.add_successors(store, queue, emitted, id, depth + 1)?;
        if self.por.needs_remaining(expansion) {
            // The cycle proviso (see `crate::por`): expand fully.
            self.successors.clear();
            let mut emitted = 0usize;
            let successors = &mut self.successors;
            system
                .remaining_successors(&mut self.scratch, state, &mut |s| {
                    successors.extend_from_slice(s);
                    emitted += 1;
                })
                .map_err(|e| Stop::Found(Finding::ModelError(e), id, depth))?;
            self.counts.transitions += emitted as u64;
            self.add_successors(store, queue, emitted, id, depth + 1)?;
        }
        Ok(())
    }

    /// Adds the `count` states in the successor buffer, found at `depth`
    /// from `parent`. Those met last are known stored; the table slots of
    /// the others are prefetched together, so that their cache misses
    /// overlap, before they are inserted one by one.
    fn add_successors<V: Visits, Q: Queue>(
        &mut self,
        store: &mut V,
        queue: &mut Q,
        count: usize,
        parent: Ref,
        depth: u64,
    ) -> Result<(), Stop> {
        let width = self.width;
        let successors = std::mem::take(&mut self.successors);
        let mut lookups = std::mem::take(&mut self.lookups);
        self.recent
            .look_up((&successors, width, count), &mut lookups, |fp| {
                store.prefetch(fp)
            });
        let mut result = Ok(());
        for (k, lookup) in lookups.iter().enumerate() {
            let state = &successors[k * width..(k + 1) * width];
            match *lookup {
                Lookup::Met => self.por.saw_stored = true,
                Lookup::Insert(fp) => {
                    if let Err(stop) = self.add_state(store, queue, state, fp, parent, depth) {
                        result = Err(stop);
                        break;
                    }
                }
            }
        }
        self.successors = successors;
        self.lookups = lookups;
        result
    }

    /// Adds `state`, received from another process, found at `depth` from
    /// `parent` (a state of that process): stores it unless it is stored,
    /// checks it and queues it if new, as a successor of a state here.
    pub(crate) fn add_received<V: Visits, Q: Queue>(
        &mut self,
        store: &mut V,
        queue: &mut Q,
        state: &[u64],
        parent: Ref,
        depth: u64,
    ) -> Result<(), Stop> {
        let fp = crate::hash::fingerprint(state);
        self.add_state(store, queue, state, fp, parent, depth)
    }

    /// Inserts `state` (fingerprint `fp`), found at `depth` from `parent`;
    /// if it is new, floods its orbit (when the system floods), checks it
    /// and queues it.
    #[inline]
    fn add_state<V: Visits, Q: Queue>(
        &mut self,
        store: &mut V,
        queue: &mut Q,
        state: &[u64],
        fp: u64,
        parent: Ref,
        depth: u64,
    ) -> Result<(), Stop> {
        let inserted = store
            .insert_with_fingerprint(state, fp, parent)
            .map_err(Stop::Stopped)?;
        self.recent.remember(fp, state);
        let id = match inserted {
            Insert::New(id) => id,
            Insert::Seen => {
                self.por.saw_stored = true;
                return Ok(());
            }
        };
        if self.system.floods() {
            let mut insert = |s: &[u64]| Ok(matches!(store.insert(s, parent)?, Insert::New(_)));
            let flooded = crate::flood::flood(
                self.system,
                &mut self.scratch,
                state,
                &mut self.images,
                &mut insert,
            )
            .map_err(Stop::Stopped)?;
            self.counts.flooded += flooded.stored;
            if !flooded.explore {
                return Ok(());
            }
        }
        if parent == NO_PARENT {
            self.counts.initial_states += 1;
        }
        self.counts.max_depth = self.counts.max_depth.max(depth);
        if let Some(finding) =
            check_new_state(self.system, &mut self.scratch, state, self.check_goal)
        {
            return Err(Stop::Found(finding, id, depth));
        }
        queue.push(id, depth, state);
        Ok(())
    }
}
