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

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam::channel::{Receiver, unbounded};
use crossbeam::epoch::Guard;

use super::wire::{self, Malformed, Reader, Writer};
use super::{Partition, Transport, TransportError, owner_of};
use crate::check::{Finding, goal_checked};
use crate::config::{Config, StoreKind};
use crate::expand::{Expander, Queue, Stop, Visits};
use crate::parallel::worker::stop_reason;
use crate::report::{Outcome, Progress, RankStats, Report, Stats, StopReason};
use crate::store::{Handle, Insert, Ref, VisitedSet};
use crate::system::TransitionSystem;
use crate::trace::StepKey;

/// Initial slots of each rank's table.
const INITIAL_CAPACITY: usize = 1 << 14;
/// States a thread takes from the level at once.
const CHUNK: usize = 64;
/// How long a rank whose run was stopped (a signal, the time limit)
/// waits for silent peers before it gives up on them: a peer that failed
/// or was killed never answers, and `mpirun`, which then signals the
/// others, kills them outright a second later (Open MPI's default). Live
/// peers answer a stop within milliseconds: each stops expanding at the
/// next state and ends its level.
const GRACE: Duration = Duration::from_millis(500);

/// What one rank found or was stopped by in a level.
#[derive(Clone, Debug)]
struct Found {
    depth: u64,
    at: Ref,
    finding: Finding,
}

/// A rank's figures after a level, as sent to every other rank.
#[derive(Clone, Debug)]
struct Summary {
    /// New states of the next level it owns.
    new: u64,
    found: Option<Found>,
    stop: Option<StopReason>,
    counts: RankStats,
    initial_states: u64,
    max_depth: u64,
    queue_peak: u64,
    /// Bytes of the rank's store when it was empty.
    initial_bytes: u64,
}

impl Summary {
    fn write(&self, level: u64) -> Vec<u8> {
        let mut w = Writer::new(wire::SUMMARY);
        w.u64(level).u64(self.new).stop(self.stop);
        let c = &self.counts;
        for v in [
            c.states,
            c.transitions,
            c.store_bytes,
            c.messages_sent,
            c.bytes_sent,
            c.states_sent,
            self.initial_states,
            self.max_depth,
            self.queue_peak,
            self.initial_bytes,
        ] {
            w.u64(v);
        }
        match &self.found {
            None => {
                w.u8(0);
            }
            Some(found) => {
                w.u8(1)
                    .u64(found.depth)
                    .u64(found.at)
                    .finding(&found.finding);
            }
        }
        w.0
    }

    fn read(r: &mut Reader<'_>) -> Result<Summary, Malformed> {
        let new = r.u64()?;
        let stop = r.stop()?;
        let mut v = [0u64; 10];
        for x in &mut v {
            *x = r.u64()?;
        }
        let found = match r.u8()? {
            0 => None,
            _ => Some(Found {
                depth: r.u64()?,
                at: r.u64()?,
                finding: r.finding()?,
            }),
        };
        Ok(Summary {
            new,
            found,
            stop,
            counts: RankStats {
                rank: 0,
                states: v[0],
                transitions: v[1],
                store_bytes: v[2],
                messages_sent: v[3],
                bytes_sent: v[4],
                states_sent: v[5],
            },
            initial_states: v[6],
            max_depth: v[7],
            queue_peak: v[8],
            initial_bytes: v[9],
        })
    }
}

/// One thread's batches to the other ranks.
struct Outbox {
    /// The batch being filled for each rank (empty: none).
    batches: Vec<Vec<u8>>,
    counts: Vec<u32>,
    /// Ids whose values this thread has sent to each rank.
    sent_ids: Vec<HashSet<u64>>,
    /// Full batches, to be sent.
    ready: Vec<(usize, Vec<u8>)>,
    level: u64,
    state_bytes: usize,
    states_sent: u64,
}

impl Outbox {
    fn new(ranks: usize, state_bytes: usize) -> Self {
        Outbox {
            batches: vec![Vec::new(); ranks],
            counts: vec![0; ranks],
            sent_ids: vec![HashSet::new(); ranks],
            ready: Vec::new(),
            level: 0,
            state_bytes,
            states_sent: 0,
        }
    }

    #[inline]
    fn push<T: TransitionSystem>(&mut self, system: &T, to: usize, state: &[u64], parent: Ref) {
        let batch = &mut self.batches[to];
        if batch.is_empty() {
            batch.reserve(wire::BATCH_BYTES + 1024);
            batch.push(wire::STATES);
            batch.extend_from_slice(&self.level.to_le_bytes());
            batch.extend_from_slice(&0u32.to_le_bytes());
        }
        wire::put_parent(batch, parent);
        let mut left = self.state_bytes;
        for &word in state {
            let take = left.min(8);
            batch.extend_from_slice(&word.to_le_bytes()[..take]);
            left -= take;
        }
        if system.exports_context() {
            let at = batch.len();
            batch.extend_from_slice(&0u32.to_le_bytes());
            let ids = &mut self.sent_ids[to];
            system.export_context(state, &mut |id| ids.insert(id), batch);
            let len = (batch.len() - at - 4) as u32;
            batch[at..at + 4].copy_from_slice(&len.to_le_bytes());
        }
        self.counts[to] += 1;
        self.states_sent += 1;
        if batch.len() >= wire::BATCH_BYTES {
            self.seal(to);
        }
    }

    /// Moves the batch for `to`, if any, to the ready ones.
    fn seal(&mut self, to: usize) {
        if self.counts[to] == 0 {
            return;
        }
        let mut batch = std::mem::take(&mut self.batches[to]);
        batch[wire::BATCH_HEADER - 4..wire::BATCH_HEADER]
            .copy_from_slice(&self.counts[to].to_le_bytes());
        self.counts[to] = 0;
        self.ready.push((to, batch));
    }

    fn seal_all(&mut self) {
        for to in 0..self.batches.len() {
            self.seal(to);
        }
    }
}

/// A thread's view of its rank's visited set: owned states are inserted,
/// the others go to their owners.
struct View<'w, T: TransitionSystem> {
    system: &'w T,
    set: &'w VisitedSet,
    handle: &'w mut Handle,
    guard: &'w Guard,
    out: &'w mut Outbox,
    rank: usize,
    ranks: usize,
    /// Adding initial states: every rank computes them all and keeps
    /// those it owns.
    initial: bool,
}

impl<T: TransitionSystem> Visits for View<'_, T> {
    #[inline]
    fn insert_with_fingerprint(
        &mut self,
        state: &[u64],
        fp: u64,
        parent: Ref,
    ) -> Result<Insert, StopReason> {
        let owner = owner_of(fp, self.ranks);
        if owner == self.rank {
            self.set
                .insert_with_fingerprint(self.handle, self.guard, state, fp, parent)
                .map_err(stop_reason)
        } else {
            if !self.initial {
                self.out.push(self.system, owner, state, parent);
            }
            Ok(Insert::Seen)
        }
    }

    #[inline]
    fn prefetch(&self, fp: u64) {
        if owner_of(fp, self.ranks) == self.rank {
            self.set.prefetch(self.guard, fp);
        }
    }

    #[inline]
    fn read_to_expand(&mut self, id: Ref, out: &mut Vec<u64>) {
        self.set.read_to_expand(self.handle, id, out);
    }
}

/// The next level, as a thread collects it: each new state's reference
/// and words.
struct Next<'w> {
    records: &'w mut Vec<u64>,
}

impl Queue for Next<'_> {
    #[inline]
    fn push(&mut self, id: Ref, _depth: u64, state: &[u64]) {
        self.records.push(id);
        self.records.extend_from_slice(state);
    }
}

/// One thread of a rank: its handle, expander, batches and next level.
struct Hand<'a, T: TransitionSystem> {
    handle: Handle,
    expander: Expander<'a, T>,
    out: Outbox,
    next: Vec<u64>,
    /// The first finding or stop of this thread in the level.
    ended: Option<Stop>,
}

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
                let mut view = View {
                    system: rank.system,
                    set: &rank.set,
                    handle: &mut self.handle,
                    guard: &guard,
                    out: &mut self.out,
                    rank: rank.rank,
                    ranks: rank.ranks,
                    initial: false,
                };
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

/// What the whole rank shares: the system, its set, its place.
struct RankCtx<'a, T: TransitionSystem> {
    system: &'a T,
    set: VisitedSet,
    rank: usize,
    ranks: usize,
    width: usize,
    state_bytes: usize,
}

/// The rank's thread that talks to the other ranks: its counters and
/// the messages it keeps for later levels.
pub(super) struct Talker<'t> {
    pub(super) transport: &'t mut dyn Transport,
    messages_sent: u64,
    bytes_sent: u64,
    /// Messages of a later level, in arrival order.
    later: Vec<(usize, Vec<u8>)>,
    /// `End` messages of the current level received.
    ends: usize,
    /// `Summary` messages of the current level, by rank.
    summaries: Vec<Option<Summary>>,
    /// When the run was found stopped while waiting for peers.
    stopped_since: Option<Instant>,
}

/// Why a rank cannot go on talking to the others.
pub(super) enum Broken {
    Transport(TransportError),
    Malformed(usize),
    /// Stopped and the peers are silent: a rank has failed or was killed.
    Silent(StopReason),
}

impl Talker<'_> {
    pub(super) fn send(&mut self, to: usize, bytes: Vec<u8>) -> Result<(), Broken> {
        self.messages_sent += 1;
        self.bytes_sent += bytes.len() as u64;
        self.transport.send(to, bytes).map_err(Broken::Transport)
    }

    pub(super) fn send_all(&mut self, bytes: &[u8]) -> Result<(), Broken> {
        let (rank, ranks) = (self.transport.rank(), self.transport.ranks());
        for to in (0..ranks).filter(|&to| to != rank) {
            self.send(to, bytes.to_vec())?;
        }
        Ok(())
    }

    /// Waits a little for a message: `None` if none came (and, once the
    /// run is stopped, fails when peers stay silent for [`GRACE`]).
    pub(super) fn poll(&mut self) -> Result<Option<(usize, Vec<u8>)>, Broken> {
        match self.transport.try_receive().map_err(Broken::Transport)? {
            Some(message) => {
                self.stopped_since = None;
                Ok(Some(message))
            }
            None => {
                if let Some(reason) = crate::budget::tripped() {
                    let since = *self.stopped_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > GRACE {
                        return Err(Broken::Silent(reason));
                    }
                }
                std::thread::yield_now();
                Ok(None)
            }
        }
    }
}

/// Explores `system` as rank `transport.rank()` of a distributed run of
/// `transport.ranks()` processes, each of `config.threads` threads (see
/// the module docs of [`super`]); every rank must call it with the same
/// system and configuration. Every rank returns the run's outcome and
/// figures; rank 0's report alone has the counterexample.
///
/// Level by level only (`config.order` and `config.mode` are not read);
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
    match search.run(&mut hands, &mut talker) {
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
struct Search<'c, 'a, T: TransitionSystem> {
    ctx: &'c RankCtx<'a, T>,
    config: &'c Config,
    part: Partition,
    start: Instant,
    queue_peak: u64,
    last_progress: Instant,
    initial_bytes: u64,
}

/// The decision every rank takes after a level.
enum Decision {
    Next,
    Complete,
    Stopped(StopReason),
    Found { holder: usize, found: Found },
}

impl<'a, T: TransitionSystem> Search<'_, 'a, T> {
    fn run(
        &mut self,
        hands: &mut [Hand<'a, T>],
        talker: &mut Talker<'_>,
    ) -> Result<Report, Broken> {
        let ctx = self.ctx;
        // Level 0: every rank computes the initial states and keeps its own.
        let mut frontier = Vec::new();
        let init = {
            let hand = &mut hands[0];
            let guard = crossbeam::epoch::pin();
            let mut view = View {
                system: ctx.system,
                set: &ctx.set,
                handle: &mut hand.handle,
                guard: &guard,
                out: &mut hand.out,
                rank: ctx.rank,
                ranks: ctx.ranks,
                initial: true,
            };
            let mut next = Next {
                records: &mut frontier,
            };
            hand.expander.add_initial_states(&mut view, &mut next)
        };
        match init {
            // The same error on every rank: no message needed.
            Err(e) => {
                return Ok(crate::check::finish(
                    ctx.system,
                    crate::check::End::InitError(e),
                    self.local_stats(hands, talker),
                    self.start,
                ));
            }
            Ok(Err(stop)) => hands[0].ended = Some(stop),
            Ok(Ok(())) => {}
        }
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
                Decision::Complete => return Ok(self.report(Outcome::Complete, &summaries, None)),
                Decision::Stopped(reason) => {
                    return Ok(self.report(Outcome::Stopped(reason), &summaries, None));
                }
                Decision::Found { holder, found } => {
                    let chain = super::chain::collect(
                        talker,
                        &ctx.set,
                        self.part,
                        (holder == ctx.rank).then_some(found.at),
                        found.at,
                    )?;
                    let outcome_finding = found.finding.clone();
                    return Ok(self.found(outcome_finding, chain, &summaries));
                }
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
                talker.summaries[from] = Some(Summary {
                    counts: RankStats {
                        rank: from,
                        ..summary.counts
                    },
                    ..summary
                });
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
            let parent = wire::get_parent(r.take(wire::PARENT_BYTES)?);
            let bytes = r.take(ctx.state_bytes)?;
            state.fill(0);
            for (k, chunk) in bytes.chunks(8).enumerate() {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                state[k] = u64::from_le_bytes(word);
            }
            if ctx.system.exports_context() {
                let len = r.u32()? as usize;
                let context = r.take(len)?;
                if !context.is_empty() {
                    ctx.system.import_context(context).map_err(|e| {
                        tracing::error!("rank {}: a state's values cannot be read: {e}", ctx.rank);
                        Malformed
                    })?;
                }
            }
            if owner_of(crate::hash::fingerprint(&state), ctx.ranks) != ctx.rank {
                return Err(Malformed);
            }
            // Once the level has stopped, states are no longer needed.
            if hand.ended.is_some() || shared.stop.load(Ordering::Relaxed) {
                continue;
            }
            let mut view = View {
                system: ctx.system,
                set: &ctx.set,
                handle: &mut hand.handle,
                guard: &guard,
                out: &mut hand.out,
                rank: ctx.rank,
                ranks: ctx.ranks,
                initial: false,
            };
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
    fn summary(
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
    fn decide(&self, talker: &Talker<'_>, _depth: u64) -> Decision {
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

    /// The run's figures from every rank's summary.
    fn stats(&self, summaries: &[Summary]) -> Stats {
        let mut stats = Stats {
            threads: self.part.threads,
            job_ranks: self.part.ranks,
            compact: self.config.store == StoreKind::Compact,
            state_bytes: self.ctx.state_bytes as u64,
            ..Stats::default()
        };
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
    fn local_stats(&self, hands: &[Hand<'a, T>], talker: &Talker<'_>) -> Stats {
        let mut counts = RankStats {
            rank: self.ctx.rank,
            states: self.ctx.set.len(),
            store_bytes: self.ctx.set.bytes(),
            messages_sent: talker.messages_sent,
            bytes_sent: talker.bytes_sent,
            ..RankStats::default()
        };
        let mut stats = Stats {
            threads: self.part.threads,
            job_ranks: self.part.ranks,
            compact: self.config.store == StoreKind::Compact,
            state_bytes: self.ctx.state_bytes as u64,
            ..Stats::default()
        };
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

    fn report(
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
    fn found(
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
    fn broken(&self, hands: &mut [Hand<'a, T>], talker: &Talker<'_>, broken: Broken) -> Report {
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
    fn progress(&mut self, summaries: &[Summary]) {
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

impl From<Malformed> for Broken {
    fn from(_: Malformed) -> Self {
        Broken::Malformed(usize::MAX)
    }
}
