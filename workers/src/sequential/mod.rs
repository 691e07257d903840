//! The sequential engine: one thread, any [`SearchOrder`].
//!
//! The classic explicit-state search loop: pop a state from the frontier,
//! emit its successors into a reused buffer, and for each successor not yet
//! in the visited store, store it with a parent link, check it and queue
//! it. Every state is checked once, when it is first stored, so an error is
//! found as soon as its state is generated; deadlocks are found when a
//! state is expanded. In BFS order states are stored in order of distance,
//! so the parent chains, and therefore counterexamples, are shortest.

mod frontier;
mod slots;
mod store;

use std::time::Instant;

use crate::check::{End, Finding, check_new_state, finish, goal_checked};
use crate::config::Config;
use crate::por::PorCounts;
use crate::recent::{Lookup, RecentStates};
use crate::report::{Progress, Report, Stats};
use crate::system::{Expansion, TransitionSystem};
use frontier::Frontier;
use store::{Insert, NO_PARENT, SeqStore};

/// Expansions between two polls of the time limit, cancel flag and progress.
const POLL_EVERY: u64 = 16;

/// Explores `system` on the calling thread. See [`crate::explore`].
pub fn explore_sequential<T: TransitionSystem>(system: &T, config: &Config) -> Report {
    let start = Instant::now();
    let _span = tracing::info_span!("explore", engine = "sequential").entered();
    let mut search = Search::new(system, config);
    let end = search.run(start);
    let stats = search.stats();
    finish(system, end, stats, start)
}

struct Search<'a, T: TransitionSystem> {
    system: &'a T,
    config: &'a Config,
    width: usize,
    check_goal: bool,
    scratch: T::Scratch,
    store: SeqStore,
    /// The empty store's bytes.
    store_initial_bytes: u64,
    frontier: Frontier,
    transitions: u64,
    initial_states: u64,
    max_depth: u64,
    queue_peak: u64,
    por: PorCounts,
    /// States stored by flooding only, and the flood buffer.
    flooded: u64,
    images: Vec<u64>,
    /// What was found of each of the states being added before inserting
    /// it.
    lookups: Vec<Lookup>,
    /// The states met last (see [`crate::recent`]).
    recent: RecentStates,
}

impl<'a, T: TransitionSystem> Search<'a, T> {
    fn new(system: &'a T, config: &'a Config) -> Self {
        let width = system.state_width();
        let store = SeqStore::new(
            width,
            system.state_bytes(),
            config.store,
            config.max_states,
            config.memory_limit,
        );
        Search {
            system,
            config,
            width,
            check_goal: goal_checked(system, config),
            scratch: system.new_scratch(),
            store_initial_bytes: store.first_state_bytes(),
            store,
            // Exact mode queues ids only (the store holds the states).
            frontier: Frontier::new(
                if config.store.is_compact() { width } else { 0 },
                config.order,
            ),
            transitions: 0,
            initial_states: 0,
            max_depth: 0,
            queue_peak: 0,
            por: PorCounts::new(system),
            flooded: 0,
            images: Vec::new(),
            lookups: Vec::new(),
            recent: RecentStates::new(system.state_width()),
        }
    }

    fn stats(&self) -> Stats {
        Stats {
            states: self.store.len() - self.flooded,
            flooded: self.flooded,
            transitions: self.transitions,
            initial_states: self.initial_states,
            max_depth: self.max_depth,
            store_bytes: self.store.bytes(),
            store_initial_bytes: self.store_initial_bytes,
            state_bytes: self.system.state_bytes() as u64,
            queue_peak: self.queue_peak,
            threads: 1,
            compact: self.config.store.is_compact(),
            tree_nodes: self.store.tree_nodes(),
            reduced_states: self.por.reduced,
            proviso_expansions: self.por.proviso,
            ..Stats::default()
        }
    }

    /// Stores, checks and queues the `count` states in `batch` (flat,
    /// `width` words each) found at `depth` from `parent`.
    fn add_states(&mut self, batch: &[u64], count: usize, parent: u64, depth: u64) -> Option<End> {
        let width = self.width;
        // Those met last are known stored; the slots of the others are
        // touched first, so that their cache misses overlap.
        let mut lookups = std::mem::take(&mut self.lookups);
        let store = &self.store;
        self.recent
            .look_up((batch, width, count), &mut lookups, |fp| store.prefetch(fp));
        let end = self.add_prefetched(batch, &lookups, parent, depth);
        self.lookups = lookups;
        end
    }

    /// [`Search::add_states`] once the states met last are known and the
    /// others' slots are prefetched.
    fn add_prefetched(
        &mut self,
        batch: &[u64],
        lookups: &[Lookup],
        parent: u64,
        depth: u64,
    ) -> Option<End> {
        let width = self.width;
        for (i, &lookup) in lookups.iter().enumerate() {
            let state = &batch[i * width..(i + 1) * width];
            let Lookup::Insert(fp) = lookup else {
                self.por.saw_stored = true;
                continue;
            };
            let inserted = self.store.insert_with_fingerprint(state, fp, parent);
            if inserted.is_ok() {
                self.recent.remember(fp, state);
            }
            let id = match inserted {
                Ok(Insert::New(id)) => id,
                Ok(Insert::Seen) => {
                    self.por.saw_stored = true;
                    continue;
                }
                Err(reason) => return Some(End::Stopped(reason)),
            };
            if self.system.floods() {
                let store = &mut self.store;
                let mut insert = |s: &[u64]| Ok(matches!(store.insert(s, parent)?, Insert::New(_)));
                match crate::flood::flood(
                    self.system,
                    &mut self.scratch,
                    state,
                    &mut self.images,
                    &mut insert,
                ) {
                    Ok(f) => {
                        self.flooded += f.stored;
                        if !f.explore {
                            continue;
                        }
                    }
                    Err(reason) => return Some(End::Stopped(reason)),
                }
            }
            if parent == NO_PARENT {
                self.initial_states += 1;
            }
            self.max_depth = self.max_depth.max(depth);
            if let Some(finding) =
                check_new_state(self.system, &mut self.scratch, state, self.check_goal)
            {
                return Some(End::Found(finding, self.store.chain_to(id)));
            }
            self.frontier.push(
                id,
                depth,
                if self.config.store.is_compact() {
                    state
                } else {
                    &[]
                },
            );
        }
        self.queue_peak = self.queue_peak.max(self.frontier.len() as u64);
        None
    }

    fn run(&mut self, start: Instant) -> End {
        let system = self.system;
        let mut batch: Vec<u64> = Vec::new();
        let mut count = 0usize;
        let mut collect = |s: &[u64]| {
            if crate::budget::keep_growing(&mut batch, s.len()) {
                batch.extend_from_slice(s);
                count += 1;
            }
        };
        let init = {
            let _span = tracing::info_span!("initial_states").entered();
            system.initial_states(&mut self.scratch, &mut collect)
        };
        // States refused once the budget ran out: the set is partial.
        if let Err(e) = init.and_then(|()| crate::budget::ensure_within()) {
            return End::InitError(e);
        }
        if let Some(end) = self.add_states(&batch, count, NO_PARENT, 0) {
            return end;
        }
        let _span = tracing::info_span!("search", order = ?self.config.order).entered();
        let mut watch = crate::watch::Watch::new(self.config, start);
        let mut state = Vec::with_capacity(self.width);
        let mut expanded = 0u64;
        while let Some((id, depth)) = self.frontier.pop(&mut state) {
            if !self.config.store.is_compact() {
                self.store.read_to_expand(id, &mut state);
            }
            expanded += 1;
            if expanded.is_multiple_of(POLL_EVERY) {
                if let Some(reason) = watch.stop_reason() {
                    return End::Stopped(reason);
                }
                let progress = Progress {
                    states: self.store.len(),
                    transitions: self.transitions,
                    queue: self.frontier.len() as u64,
                    store_bytes: self.store.bytes(),
                    elapsed: Default::default(),
                };
                watch.tick(|elapsed| Progress {
                    elapsed,
                    ..progress
                });
            }
            batch.clear();
            let mut emitted = 0usize;
            let mut collect = |s: &[u64]| {
                batch.extend_from_slice(s);
                emitted += 1;
            };
            let expansion = if self.por.reduces {
                system.reduced_successors(&mut self.scratch, &state, &mut collect)
            } else {
                system
                    .successors(&mut self.scratch, &state, &mut collect)
                    .map(|()| Expansion::Full)
            };
            let expansion = match expansion {
                Ok(expansion) => expansion,
                Err(e) => return End::Found(Finding::ModelError(e), self.store.chain_to(id)),
            };
            self.transitions += emitted as u64;
            // A stuttering system says itself whether the state moved (a
            // successor it discarded may count); otherwise a deadlock is a
            // state without successors.
            let stuck = if system.stutter_is_deadlock() {
                !system.moved(&self.scratch)
            } else {
                emitted == 0
            };
            if self.config.check_deadlock && stuck {
                return End::Found(Finding::Deadlock, self.store.chain_to(id));
            }
            self.por.saw_stored = false;
            if let Some(end) = self.add_states(&batch, emitted, id, depth + 1) {
                return end;
            }
            if self.por.needs_remaining(expansion) {
                // The cycle proviso (see `crate::por`): expand fully.
                batch.clear();
                let mut emitted = 0usize;
                if let Err(e) = system.remaining_successors(&mut self.scratch, &state, &mut |s| {
                    batch.extend_from_slice(s);
                    emitted += 1;
                }) {
                    return End::Found(Finding::ModelError(e), self.store.chain_to(id));
                }
                self.transitions += emitted as u64;
                if let Some(end) = self.add_states(&batch, emitted, id, depth + 1) {
                    return end;
                }
            }
        }
        End::Complete
    }
}
