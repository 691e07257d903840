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
mod packed_slots;
mod store;

use std::time::Instant;

use crate::check::{End, finish, goal_checked};
use crate::config::Config;
use crate::expand::{Expander, Queue, Stop};
use crate::report::{Progress, Report, Stats};
use crate::system::TransitionSystem;
use frontier::Frontier;
use store::SeqStore;

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
    expander: Expander<'a, T>,
    store: SeqStore,
    /// The empty store's bytes.
    store_initial_bytes: u64,
    queue: SeqQueue,
    queue_peak: u64,
}

/// The frontier as the expansion fills it: ids, with the states when the
/// store keeps fingerprints only.
struct SeqQueue {
    frontier: Frontier,
    keeps_states: bool,
}

impl Queue for SeqQueue {
    #[inline]
    fn push(&mut self, id: u64, depth: u64, state: &[u64]) {
        let state = if self.keeps_states { state } else { &[] };
        self.frontier.push(id, depth, state);
    }
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
        let compact = config.store.is_compact();
        Search {
            system,
            config,
            width,
            expander: Expander::new(
                system,
                goal_checked(system, config),
                config.check_deadlock,
                true,
            ),
            store_initial_bytes: store.first_state_bytes(),
            store,
            // Exact mode queues ids only (the store holds the states).
            queue: SeqQueue {
                frontier: Frontier::new(if compact { width } else { 0 }, config.order),
                keeps_states: compact,
            },
            queue_peak: 0,
        }
    }

    fn stats(&self) -> Stats {
        let counts = self.expander.counts();
        Stats {
            states: self.store.len() - counts.flooded,
            flooded: counts.flooded,
            transitions: counts.transitions,
            initial_states: counts.initial_states,
            max_depth: counts.max_depth,
            store_bytes: self.store.bytes(),
            store_initial_bytes: self.store_initial_bytes,
            state_bytes: self.system.state_bytes() as u64,
            queue_peak: self.queue_peak,
            threads: 1,
            compact: self.config.store.is_compact(),
            tree_nodes: self.store.tree_nodes(),
            reduced_states: self.expander.por.reduced,
            proviso_expansions: self.expander.por.proviso,
            ..Stats::default()
        }
    }

    /// How an expansion's stop ends the search.
    fn end(&self, stop: Stop) -> End {
        match stop {
            Stop::Stopped(reason) => End::Stopped(reason),
            Stop::Found(finding, id, _) => End::Found(finding, self.store.chain_to(id)),
        }
    }

    fn run(&mut self, start: Instant) -> End {
        let initial = {
            let _span = tracing::info_span!("initial_states").entered();
            self.expander
                .add_initial_states(&mut self.store, &mut self.queue)
        };
        match initial {
            Err(e) => return End::InitError(e),
            Ok(Err(stop)) => return self.end(stop),
            Ok(Ok(())) => {}
        }
        self.queue_peak = self.queue.frontier.len() as u64;
        let _span = tracing::info_span!("search", order = ?self.config.order).entered();
        let mut watch = crate::watch::Watch::new(self.config, start);
        let mut state = Vec::with_capacity(self.width);
        let mut expanded = 0u64;
        while let Some((id, depth)) = self.queue.frontier.pop(&mut state) {
            if !self.queue.keeps_states {
                self.store.read_to_expand(id, &mut state);
            }
            expanded += 1;
            if expanded.is_multiple_of(POLL_EVERY) {
                if let Some(reason) = watch.stop_reason() {
                    return End::Stopped(reason);
                }
                let progress = Progress {
                    states: self.store.len(),
                    transitions: self.expander.counts().transitions,
                    queue: self.queue.frontier.len() as u64,
                    store_bytes: self.store.bytes(),
                    elapsed: Default::default(),
                };
                watch.tick(|elapsed| Progress {
                    elapsed,
                    ..progress
                });
            }
            if let Err(stop) =
                self.expander
                    .expand(&mut self.store, &mut self.queue, &state, id, depth)
            {
                return self.end(stop);
            }
            self.queue_peak = self.queue_peak.max(self.queue.frontier.len() as u64);
        }
        End::Complete
    }
}
