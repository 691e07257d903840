//! The level-synchronous distributed search of one rank (see the module
//! docs of [`super`]).
//!
//! # Why no message of a level is missed
//! Rank `p` sends `End(d)` after every batch it sent in level `d`: its
//! threads hand their batches to the rank's thread that talks to the
//! transport, which sends them before `End(d)`, once every thread has
//! finished the level. The transport keeps the order of one sender's
//! messages, so when rank `q` has `End(d)` from every other rank it has
//! every batch of level `d` sent to it, and it inserts each as it takes
//! it. Its `Summary(d)` therefore counts every new state of depth `d + 1`
//! it owns. A state of depth `d + 1` is new somewhere if and only if some
//! summary counts it, so when all summaries count none, no state is left
//! to expand: the search is complete. No rank sends anything of level
//! `d + 1` before it has every `Summary(d)`, and a rank that receives
//! such a message early keeps it for that level, so levels never mix.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use crossbeam::channel::{Receiver, unbounded};

use super::rank::{
    Broken, CHUNK, Found, Hand, INITIAL_CAPACITY, Next, Outbox, RankCtx, Summary, Talker, View,
};
use super::wire::{self, Malformed, Reader, Writer};
use super::{Partition, Transport};
use crate::check::{Finding, goal_checked};
use crate::config::{Config, ParallelMode, StoreKind};
use crate::expand::{Expander, Stop};
use crate::report::{Outcome, Progress, RankStats, Report, Stats, StopReason};
use crate::store::VisitedSet;
use crate::system::TransitionSystem;
use crate::trace::StepKey;

/// What the rank's threads share in a level.
struct LevelShared<'l> {
    frontier: &'l [u64],
    taken: AtomicUsize,
    stop: AtomicBool,
}

impl<'a, T: TransitionSystem> Hand<'a, T> {
    /// Expands states of the level until none is left or the level stops;
    /// `between` runs after each chunk (the talking thread's chance to
    /// send and receive).
    fn expand_level(
        &mut self,
        rank: &RankCtx<'a, T>,
        level: &LevelShared<'_>,
        depth: u64,
        between: &mut dyn FnMut(&mut Self),
    ) {
        let stride = rank.width + 1;
        let total = level.frontier.len() / stride;
        let mut state = Vec::with_capacity(rank.width);
        loop {
            let first = level.taken.fetch_add(CHUNK, Ordering::Relaxed);
            if first >= total || level.stop.load(Ordering::Relaxed) {
                break;
            }
            let guard = crossbeam::epoch::pin();
            for k in first..(first + CHUNK).min(total) {
                if level.stop.load(Ordering::Relaxed) {
                    break;
                }
                if let Some(reason) = crate::budget::tripped() {
                    self.end(Stop::Stopped(reason), level);
                    break;
                }
                let record = &level.frontier[k * stride..(k + 1) * stride];
                let id = record[0];
                state.clear();
                state.extend_from_slice(&record[1..]);
                let mut view = rank.view(&mut self.handle, &mut self.out, &guard, depth + 1);
                let mut next = Next {
                    records: &mut self.next,
                };
                if let Err(stop) = self
                    .expander
                    .expand(&mut view, &mut next, &state, id, depth)
                {
                    self.end(stop, level);
                    break;
                }
            }
            drop(guard);
            between(self);
        }
        self.out.seal_all();
    }

    /// Records the thread's first finding or stop and stops the level.
    fn end(&mut self, stop: Stop, level: &LevelShared<'_>) {
        if self.ended.is_none() {
            self.ended = Some(stop);
        }
        level.stop.store(true, Ordering::Relaxed);
    }
}

/// Explores `system` as rank `transport.rank()` of a distributed run of
/// `transport.ranks()` processes, each of `config.threads` threads (see
/// the module docs of [`super`]); every rank must call it with the same
/// system and configuration. Every rank returns the run's outcome and
/// figures; rank 0's report alone has the counterexample.
///
/// Level by level (shortest counterexamples), or in any order with
/// [`ParallelMode::WorkStealing`] (see `any`; `config.order` is not read);
/// the tree store is refused by the caller (`crate::store`'s tree
/// compresses a state against its parent, which may be on another rank).
pub fn explore_distributed<T: TransitionSystem>(
    system: &T,
    config: &Config,
    transport: &mut dyn Transport,
) -> Report {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let (rank, ranks) = (transport.rank(), transport.ranks());
    let part = Partition { ranks, threads };
    assert!(
        part.arenas() <= crate::store::MAX_WORKERS,
        "threads x ranks within the visited set's arenas (checked by the caller)"
    );
    assert!(config.store != StoreKind::Tree, "checked by the caller");
    let (mut set, handles) = VisitedSet::new(
        system.state_width(),
        system.state_bytes(),
        config.store,
        part.arenas(),
        INITIAL_CAPACITY,
        config.memory_limit,
    );
    if let Some(max) = config.max_states {
        set.limit_states((max / ranks as u64).max(1));
    }
    let check_goal = goal_checked(system, config);
    let ctx = RankCtx {
        system,
        set,
        rank,
        ranks,
        width: system.state_width(),
        state_bytes: system.state_bytes(),
    };
    let mut hands: Vec<Hand<'_, T>> = handles
        .into_iter()
        .skip(rank * threads)
        .take(threads)
        .map(|handle| Hand {
            handle,
            expander: Expander::new(system, check_goal, config.check_deadlock, true),
            out: Outbox::new(ranks, ctx.state_bytes),
            next: Vec::new(),
            ended: None,
        })
        .collect();
    let mut talker = Talker {
        transport,
        messages_sent: 0,
        bytes_sent: 0,
        later: Vec::new(),
        ends: 0,
        summaries: vec![None; ranks],
        stopped_since: None,
    };
    let mut search = Search {
        ctx: &ctx,
        config,
        part,
        start,
        queue_peak: 0,
        last_progress: start,
        initial_bytes: ctx.set.bytes(),
    };
    let run = match config.mode {
        ParallelMode::WorkStealing => search.run_any(&mut hands, &mut talker),
        _ => search.run(&mut hands, &mut talker),
    };
    match run {
        // Every rank has decided: what this one sent has been taken.
        Ok(mut report) => {
            if let Err(e) = talker.transport.flush() {
                tracing::error!("rank {rank}: the transport failed at the end: {e}");
                report.outcome = Outcome::Stopped(StopReason::WorkerFailed);
                report.trace = None;
            }
            report
        }
        // A send to a rank that is gone would never complete: no flush.
        Err(broken) => search.broken(&mut hands, &talker, broken),
    }
}

/// One rank's search.
pub(super) struct Search<'c, 'a, T: TransitionSystem> {
    pub(super) ctx: &'c RankCtx<'a, T>,
    pub(super) config: &'c Config,
    pub(super) part: Partition,
    pub(super) start: Instant,
    pub(super) queue_peak: u64,
    pub(super) last_progress: Instant,
    pub(super) initial_bytes: u64,
}

/// The decision every rank takes after a level.
pub(super) enum Decision {
    Next,
    Complete,
    Stopped(StopReason),
    Found { holder: usize, found: Found },
}

impl<'a, T: TransitionSystem> Search<'_, 'a, T> {
    pub(super) fn run(
        &mut self,
        hands: &mut [Hand<'a, T>],
        talker: &mut Talker<'_>,
    ) -> Result<Report, Broken> {
        let ctx = self.ctx;
        let mut frontier = match self.initial(hands, talker) {
            Ok(frontier) => frontier,
            Err(report) => return Ok(*report),
        };
        let mut depth = 0u64;
        loop {
            self.queue_peak = self
                .queue_peak
                .max((frontier.len() / (ctx.width + 1)) as u64);
            let next = self.level(hands, talker, &frontier, depth)?;
            let decision = self.decide(talker, depth);
            let summaries: Vec<Summary> = talker
                .summaries
                .iter_mut()
                .map(|s| s.take().expect("every summary"))
                .collect();
            talker.ends = 0;
            match decision {
                Decision::Next => {
                    self.progress(&summaries);
                    frontier = next;
                    depth += 1;
                }
                decision => return self.conclude(decision, talker, &summaries),
            }
        }
    }

    /// Every rank computes the initial states and keeps its own: their
    /// records (reference and words), or the report of the run when
    /// computing them failed (the same on every rank).
    pub(super) fn initial(
        &mut self,
        hands: &mut [Hand<'a, T>],
        talker: &Talker<'_>,
    ) -> Result<Vec<u64>, Box<Report>> {
        let ctx = self.ctx;
        let mut frontier = Vec::new();
        let init = {
            let hand = &mut hands[0];
            let guard = crossbeam::epoch::pin();
            let mut view = View {
                initial: true,
                ..ctx.view(&mut hand.handle, &mut hand.out, &guard, 0)
            };
            let mut next = Next {
                records: &mut frontier,
            };
            hand.expander.add_initial_states(&mut view, &mut next)
        };
        match init {
            Err(e) => Err(Box::new(crate::check::finish(
                ctx.system,
                crate::check::End::InitError(e),
                self.local_stats(hands, talker),
                self.start,
            ))),
            Ok(Err(stop)) => {
                hands[0].ended = Some(stop);
                Ok(frontier)
            }
            Ok(Ok(())) => Ok(frontier),
        }
    }

    /// The report of a decision that ends the search, with the chain of
    /// a finding gathered on rank 0.
    pub(super) fn conclude(
        &self,
        decision: Decision,
        talker: &mut Talker<'_>,
        summaries: &[Summary],
    ) -> Result<Report, Broken> {
        let ctx = self.ctx;
        match decision {
            Decision::Next | Decision::Complete => {
                Ok(self.report(Outcome::Complete, summaries, None))
            }
            Decision::Stopped(reason) => Ok(self.report(Outcome::Stopped(reason), summaries, None)),
            Decision::Found { holder, found } => {
                let chain = super::chain::collect(
                    talker,
                    &ctx.set,
                    self.part,
                    (holder == ctx.rank).then_some(found.at),
                    found.at,
                )?;
                Ok(self.found(found.finding, chain, summaries))
            }
        }
    }

    /// Expands level `depth` (the records of `frontier`) with the rank's
    /// threads, exchanges its batches and summaries; returns the next
    /// level's records.
    fn level(
        &mut self,
        hands: &mut [Hand<'a, T>],
        talker: &mut Talker<'_>,
        frontier: &[u64],
        depth: u64,
    ) -> Result<Vec<u64>, Broken> {
        let ctx = self.ctx;
        for hand in hands.iter_mut() {
            hand.out.level = depth;
        }
        let shared = LevelShared {
            frontier,
            taken: AtomicUsize::new(0),
            // A thread that ended (the initial states) expands nothing.
            stop: AtomicBool::new(hands.iter().any(|h| h.ended.is_some())),
        };
        // Messages kept for this level first.
        let later = std::mem::take(&mut talker.later);
        let (first, helpers) = hands.split_first_mut().expect("one thread at least");
        for (from, bytes) in later {
            self.handle(first, talker, from, bytes, depth, &shared)?;
        }
        let (batches, batches_in) = unbounded::<(usize, Vec<u8>)>();
        let budget = crate::budget::current();
        let running = AtomicUsize::new(helpers.len());
        let broken = std::thread::scope(|scope| -> Result<(), Broken> {
            for hand in helpers.iter_mut() {
                let (shared, batches, running, budget) =
                    (&shared, batches.clone(), &running, &budget);
                scope.spawn(move || {
                    let _entered = budget.as_ref().map(|b| b.enter());
                    hand.expand_level(ctx, shared, depth, &mut |hand| {
                        for batch in hand.out.ready.drain(..) {
                            let _ = batches.send(batch);
                        }
                    });
                    for batch in hand.out.ready.drain(..) {
                        let _ = batches.send(batch);
                    }
                    running.fetch_sub(1, Ordering::Release);
                });
            }
            drop(batches);
            let mut failed = Ok(());
            first.expand_level(ctx, &shared, depth, &mut |hand| {
                if failed.is_ok() {
                    failed = self
                        .pump(hand, talker, &batches_in, depth, &shared)
                        .map(|_| ());
                }
            });
            failed?;
            // The helpers' last batches, and what arrives meanwhile.
            while running.load(Ordering::Acquire) > 0 || !batches_in.is_empty() {
                if !self.pump(first, talker, &batches_in, depth, &shared)? {
                    std::thread::yield_now();
                }
            }
            self.pump(first, talker, &batches_in, depth, &shared)?;
            Ok(())
        });
        broken?;
        // Every batch of this level sent: say so, then take the others'.
        talker.send_all(&Writer::new(wire::END).u64(depth).0)?;
        while talker.ends < ctx.ranks - 1 {
            if let Some((from, bytes)) = talker.poll()? {
                self.handle(first, talker, from, bytes, depth, &shared)?;
            }
        }
        let helpers_ended = helpers.iter_mut().filter_map(|h| h.ended.take());
        let mut ended: Vec<Stop> = first
            .ended
            .take()
            .into_iter()
            .chain(helpers_ended)
            .collect();
        let mut next = std::mem::take(&mut first.next);
        for hand in helpers.iter_mut() {
            next.append(&mut hand.next);
        }
        let summary = self.summary(first, helpers, talker, &mut ended, &next);
        talker.send_all(&summary.write(depth))?;
        talker.summaries[ctx.rank] = Some(summary);
        while talker.summaries.iter().any(Option::is_none) {
            if let Some((from, bytes)) = talker.poll()? {
                self.handle(first, talker, from, bytes, depth, &shared)?;
            }
        }
        Ok(next)
    }

    /// Sends the helpers' and `hand`'s ready batches and takes the
    /// messages that have arrived; whether anything happened.
    fn pump(
        &self,
        hand: &mut Hand<'a, T>,
        talker: &mut Talker<'_>,
        batches: &Receiver<(usize, Vec<u8>)>,
        depth: u64,
        shared: &LevelShared<'_>,
    ) -> Result<bool, Broken> {
        let mut busy = false;
        for (to, batch) in std::mem::take(&mut hand.out.ready) {
            talker.send(to, batch)?;
            busy = true;
        }
        while let Ok((to, batch)) = batches.try_recv() {
            talker.send(to, batch)?;
            busy = true;
        }
        for _ in 0..16 {
            match talker.transport.try_receive().map_err(Broken::Transport)? {
                Some((from, bytes)) => {
                    self.handle(hand, talker, from, bytes, depth, shared)?;
                    busy = true;
                }
                None => break,
            }
        }
        Ok(busy)
    }

    /// Takes a message of level `depth` (or keeps one of a later level).
    fn handle(
        &self,
        hand: &mut Hand<'a, T>,
        talker: &mut Talker<'_>,
        from: usize,
        bytes: Vec<u8>,
        depth: u64,
        shared: &LevelShared<'_>,
    ) -> Result<(), Broken> {
        if super::chain::is_chain_message(&bytes) {
            // A rank with every summary already walks the chain.
            talker.later.push((from, bytes));
            return Ok(());
        }
        let malformed = |_| Broken::Malformed(from);
        let mut r = Reader::new(&bytes);
        let kind = *bytes.first().ok_or(Broken::Malformed(from))?;
        let level = r.u64().map_err(malformed)?;
        if level > depth {
            talker.later.push((from, bytes));
            return Ok(());
        }
        if level < depth {
            return Err(Broken::Malformed(from));
        }
        match kind {
            wire::STATES => self
                .take_states(hand, &mut r, depth, shared)
                .map_err(malformed),
            wire::END => {
                talker.ends += 1;
                Ok(())
            }
            wire::SUMMARY => {
                let summary = Summary::read(&mut r).map_err(malformed)?;
                talker.summaries[from] = Some(summary.with_rank(from));
                Ok(())
            }
            _ => Err(Broken::Malformed(from)),
        }
    }

    /// Inserts a batch of states of depth `depth + 1`.
    fn take_states(
        &self,
        hand: &mut Hand<'a, T>,
        r: &mut Reader<'_>,
        depth: u64,
        shared: &LevelShared<'_>,
    ) -> Result<(), Malformed> {
        let ctx = self.ctx;
        let count = r.u32()?;
        let guard = crossbeam::epoch::pin();
        let mut state = vec![0u64; ctx.width];
        for _ in 0..count {
            let (parent, _) = ctx.read_state(r, false, &mut state)?;
            // Once the level has stopped, states are no longer needed.
            if hand.ended.is_some() || shared.stop.load(Ordering::Relaxed) {
                continue;
            }
            let mut view = ctx.view(&mut hand.handle, &mut hand.out, &guard, depth + 1);
            let mut next = Next {
                records: &mut hand.next,
            };
            if let Err(stop) =
                hand.expander
                    .add_received(&mut view, &mut next, &state, parent, depth + 1)
            {
                hand.ended = Some(stop);
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if r.done() { Ok(()) } else { Err(Malformed) }
    }

    /// This rank's summary of the level: its shallowest finding, or its
    /// stop, and its counters.
    pub(super) fn summary(
        &self,
        first: &mut Hand<'a, T>,
        helpers: &mut [Hand<'a, T>],
        talker: &Talker<'_>,
        ended: &mut [Stop],
        next: &[u64],
    ) -> Summary {
        let mut found: Option<Found> = None;
        let mut stop = None;
        for end in ended.iter() {
            match end {
                Stop::Found(finding, at, depth) => {
                    if found.as_ref().is_none_or(|f| *depth < f.depth) {
                        found = Some(Found {
                            depth: *depth,
                            at: *at,
                            finding: finding.clone(),
                        });
                    }
                }
                Stop::Stopped(reason) => stop = stop.or(Some(*reason)),
            }
        }
        // The run's budget (a signal, the time limit) may have stopped
        // nothing yet here: say so, so that every rank stops together.
        stop = stop.or_else(crate::budget::tripped);
        let mut counts = first.expander.counts();
        let mut states_sent = first.out.states_sent;
        for hand in helpers.iter() {
            let c = hand.expander.counts();
            counts.transitions += c.transitions;
            counts.initial_states += c.initial_states;
            counts.max_depth = counts.max_depth.max(c.max_depth);
            states_sent += hand.out.states_sent;
        }
        Summary {
            new: (next.len() / (self.ctx.width + 1)) as u64,
            found,
            stop,
            counts: RankStats {
                rank: self.ctx.rank,
                states: self.ctx.set.len(),
                transitions: counts.transitions,
                store_bytes: self.ctx.set.bytes(),
                messages_sent: talker.messages_sent,
                bytes_sent: talker.bytes_sent,
                states_sent,
            },
            initial_states: counts.initial_states,
            max_depth: counts.max_depth,
            queue_peak: self.queue_peak,
            initial_bytes: self.initial_bytes,
        }
    }

    /// The decision of every rank after level `depth`, from the same
    /// summaries.
    pub(super) fn decide(&self, talker: &Talker<'_>, _depth: u64) -> Decision {
        let summaries = talker
            .summaries
            .iter()
            .map(|s| s.as_ref().expect("every summary"));
        let mut best: Option<(usize, &Found)> = None;
        let mut stop = None;
        let mut new = 0;
        for (rank, s) in summaries.enumerate() {
            if let Some(found) = &s.found
                && best.is_none_or(|(_, b)| found.depth < b.depth)
            {
                best = Some((rank, found));
            }
            stop = stop.or(s.stop);
            new += s.new;
        }
        match (best, stop) {
            (Some((holder, found)), _) => Decision::Found {
                holder,
                found: found.clone(),
            },
            (None, Some(reason)) => Decision::Stopped(reason),
            (None, None) if new == 0 => Decision::Complete,
            (None, None) => Decision::Next,
        }
    }

    /// The figures every report of this rank starts from.
    fn empty_stats(&self) -> Stats {
        Stats {
            threads: self.part.threads,
            job_ranks: self.part.ranks,
            compact: self.config.store == StoreKind::Compact,
            state_bytes: self.ctx.state_bytes as u64,
            ..Stats::default()
        }
    }

    /// The run's figures from every rank's summary.
    pub(super) fn stats(&self, summaries: &[Summary]) -> Stats {
        let mut stats = self.empty_stats();
        for s in summaries {
            stats.states += s.counts.states;
            stats.transitions += s.counts.transitions;
            stats.store_bytes += s.counts.store_bytes;
            stats.initial_states += s.initial_states;
            stats.max_depth = stats.max_depth.max(s.max_depth);
            stats.queue_peak += s.queue_peak;
            stats.store_initial_bytes += s.initial_bytes;
            stats.ranks.push(s.counts);
        }
        stats
    }

    /// Stats of this rank alone (a run that could not agree with the
    /// others).
    pub(super) fn local_stats(&self, hands: &[Hand<'a, T>], talker: &Talker<'_>) -> Stats {
        let mut counts = RankStats {
            rank: self.ctx.rank,
            states: self.ctx.set.len(),
            store_bytes: self.ctx.set.bytes(),
            messages_sent: talker.messages_sent,
            bytes_sent: talker.bytes_sent,
            ..RankStats::default()
        };
        let mut stats = self.empty_stats();
        for hand in hands {
            let c = hand.expander.counts();
            counts.transitions += c.transitions;
            counts.states_sent += hand.out.states_sent;
            stats.initial_states += c.initial_states;
            stats.max_depth = stats.max_depth.max(c.max_depth);
        }
        stats.states = counts.states;
        stats.transitions = counts.transitions;
        stats.store_bytes = counts.store_bytes;
        stats.store_initial_bytes = self.initial_bytes;
        stats.ranks = vec![counts];
        stats
    }

    pub(super) fn report(
        &self,
        outcome: Outcome,
        summaries: &[Summary],
        trace: Option<crate::Trace>,
    ) -> Report {
        let mut stats = self.stats(summaries);
        stats.wall = self.start.elapsed();
        if stats.compact {
            stats.collision_probability = Some(crate::report::collision_probability(stats.states));
        }
        Report {
            outcome,
            stats,
            trace,
            trace_error: None,
        }
    }

    /// The report of a finding: rank 0 replays the chain into a trace.
    pub(super) fn found(
        &self,
        finding: Finding,
        chain: Option<Vec<StepKey>>,
        summaries: &[Summary],
    ) -> Report {
        match chain {
            Some(chain) => {
                let mut stats = self.stats(summaries);
                stats.wall = self.start.elapsed();
                crate::check::finish(
                    self.ctx.system,
                    crate::check::End::Found(finding, chain),
                    stats,
                    self.start,
                )
            }
            None => {
                let stopped = matches!(
                    &finding,
                    Finding::ModelError(e) if e.stopped.is_some()
                );
                let mut report = self.report(finding.into_outcome(), summaries, None);
                if !stopped {
                    report.trace_error = Some("the counterexample is printed by rank 0".into());
                }
                report
            }
        }
    }

    /// The report of a rank that cannot reach the others any more: its
    /// own figures, and the run incomplete.
    pub(super) fn broken(
        &self,
        hands: &mut [Hand<'a, T>],
        talker: &Talker<'_>,
        broken: Broken,
    ) -> Report {
        let reason = match broken {
            Broken::Transport(e) => {
                tracing::error!("rank {}: the transport failed: {e}", self.ctx.rank);
                StopReason::WorkerFailed
            }
            Broken::Malformed(from) => {
                tracing::error!(
                    "rank {}: a malformed message from rank {from} (are all ranks the same build, \
                     model and options?)",
                    self.ctx.rank
                );
                StopReason::WorkerFailed
            }
            Broken::Silent(reason) => {
                tracing::error!(
                    "rank {}: stopped ({reason}) and the other ranks are silent: \
                     the figures are this rank's alone",
                    self.ctx.rank
                );
                reason
            }
        };
        let mut stats = self.local_stats(hands, talker);
        stats.wall = self.start.elapsed();
        Report {
            outcome: Outcome::Stopped(reason),
            stats,
            trace: None,
            trace_error: None,
        }
    }

    /// Rank 0 calls the progress callback with the whole run's figures.
    pub(super) fn progress(&mut self, summaries: &[Summary]) {
        let Some(progress) = &self.config.progress else {
            return;
        };
        if self.ctx.rank != 0 || self.last_progress.elapsed() < self.config.progress_interval {
            return;
        }
        self.last_progress = Instant::now();
        let stats = self.stats(summaries);
        progress(&Progress {
            states: stats.states,
            transitions: stats.transitions,
            queue: summaries.iter().map(|s| s.new).sum(),
            store_bytes: stats.store_bytes,
            elapsed: self.start.elapsed(),
        });
    }
}
