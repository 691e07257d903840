//! The any-order distributed search: no barrier, each rank expands what
//! it has as fast as it can, and Safra's algorithm detects the end.
//!
//! # Termination (Safra's token, as Dijkstra wrote it down in EWD998)
//! Each rank counts the batches it sent minus those it received (`c`)
//! and turns black when it receives one. It is *passive* when its queue
//! is empty, no thread is expanding, and every batch its threads made has
//! been handed to the transport: it can then only become active again by
//! receiving a batch. Rank 0, passive, sends a white token with count 0
//! round the ring `0 → 1 → … → N-1 → 0`, and turns white; every other
//! rank keeps the token until it is passive, then adds its `c` to the
//! token's count, blackens the token if it is black itself, turns white
//! and passes it on. When the token is back at a passive rank 0, white,
//! with rank 0 white and `count + c₀ = 0`, every rank has been passive
//! since the token passed it (a rank that received a batch since would
//! be black) and no batch is in flight (the counts balance), so no rank
//! can ever become active again: rank 0 says so to every rank. Otherwise
//! it starts another round.
//!
//! A finding, a limit or a signal ends the search instead: the rank that
//! meets it tells every rank (`Stop`) and stops expanding. Either way the
//! ranks then exchange their summaries (`Summary` of level
//! [`wire::ANY_ORDER`]); a rank's batches arrive before its summary, so
//! every count is final, and every rank takes the same decision from the
//! same summaries. Counterexamples need not be shortest.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crossbeam::channel::{Receiver, Sender, unbounded};
use crossbeam::deque::{Injector, Steal};
use parking_lot::Mutex;

use super::level::Search;
use super::rank::{Broken, CHUNK, Hand, Summary, Talker};
use super::wire::{self, Malformed, Reader, Writer};
use crate::expand::{Queue, Stop};
use crate::report::{Progress, Report};
use crate::store::Ref;
use crate::system::TransitionSystem;

/// The work of a rank's threads: chunks of records (reference, depth,
/// words), and how many chunks are queued or being expanded.
struct Work {
    queue: Injector<Vec<u64>>,
    /// Chunks queued or being expanded: a chunk's new states are queued
    /// (and counted) before the chunk is uncounted, so zero means no work
    /// is left on this rank.
    pending: AtomicU64,
    /// Raised when the rank stops expanding (the end, a finding, a stop).
    done: AtomicBool,
    /// Helper threads holding batches not yet full, which they send when
    /// they find no work: the rank is not passive while one does.
    filling: AtomicU64,
    /// Batches the helper threads made, for the talking thread to send.
    batches: Sender<(usize, Vec<u8>)>,
    /// The first finding or stop of a helper thread.
    ended: Mutex<Option<Stop>>,
    /// Successors emitted by the rank's threads so far (progress only).
    transitions: AtomicU64,
}

impl Work {
    /// Queues `records` in chunks of [`CHUNK`] states.
    fn queue(&self, records: &mut Vec<u64>, stride: usize) {
        for chunk in records.chunks(CHUNK * stride) {
            self.pending.fetch_add(1, Ordering::AcqRel);
            self.queue.push(chunk.to_vec());
        }
        records.clear();
    }

    fn take(&self) -> Option<Vec<u64>> {
        loop {
            match self.queue.steal() {
                Steal::Success(chunk) => return Some(chunk),
                Steal::Empty => return None,
                Steal::Retry => {}
            }
        }
    }
}

/// New states as a thread collects them: reference, depth, words.
struct Found<'w> {
    records: &'w mut Vec<u64>,
}

impl Queue for Found<'_> {
    #[inline]
    fn push(&mut self, id: Ref, depth: u64, state: &[u64]) {
        self.records.push(id);
        self.records.push(depth);
        self.records.extend_from_slice(state);
    }
}

/// Safra's state of a rank.
#[derive(Default)]
struct Safra {
    /// Batches sent minus batches received.
    count: i64,
    black: bool,
    /// The token, while this rank holds it.
    token: Option<(i64, bool)>,
    /// Rank 0: a round is under way.
    round: bool,
}

impl<'a, T: TransitionSystem> Hand<'a, T> {
    /// Expands the states of `chunk` and queues the new ones; records a
    /// finding or stop.
    fn expand_chunk(&mut self, search: &Search<'_, 'a, T>, work: &Work, chunk: &[u64]) {
        let ctx = search.ctx;
        let stride = ctx.width + 2;
        let transitions = self.expander.counts().transitions;
        let guard = crossbeam::epoch::pin();
        for record in chunk.chunks_exact(stride) {
            if work.done.load(Ordering::Relaxed) || self.ended.is_some() {
                break;
            }
            if let Some(reason) = crate::budget::tripped() {
                self.ended = Some(Stop::Stopped(reason));
                break;
            }
            let (id, depth) = (record[0], record[1]);
            let mut view = ctx.view(&mut self.handle, &mut self.out, &guard, depth + 1);
            let mut found = Found {
                records: &mut self.next,
            };
            if let Err(stop) = self
                .expander
                .expand(&mut view, &mut found, &record[2..], id, depth)
            {
                self.ended = Some(stop);
            }
        }
        drop(guard);
        work.queue(&mut self.next, stride);
        work.transitions.fetch_add(
            self.expander.counts().transitions - transitions,
            Ordering::Relaxed,
        );
    }

    /// Whether an outgoing batch is being filled.
    fn filling(&self) -> bool {
        self.out.batches.iter().any(|b| !b.is_empty())
    }
}

impl<'a, T: TransitionSystem> Search<'_, 'a, T> {
    /// The any-order search of this rank (see the module docs).
    pub(super) fn run_any(
        &mut self,
        hands: &mut [Hand<'a, T>],
        talker: &mut Talker<'_>,
    ) -> Result<Report, Broken> {
        let ctx = self.ctx;
        let stride = ctx.width + 2;
        let initial = match self.initial(hands, talker) {
            Ok(records) => records,
            Err(report) => return Ok(*report),
        };
        for hand in hands.iter_mut() {
            hand.out.level = wire::ANY_ORDER;
        }
        let (batches, batches_in) = unbounded();
        let work = Work {
            queue: Injector::new(),
            pending: AtomicU64::new(0),
            done: AtomicBool::new(false),
            filling: AtomicU64::new(0),
            batches,
            ended: Mutex::new(None),
            transitions: AtomicU64::new(0),
        };
        let mut records: Vec<u64> = initial
            .chunks_exact(ctx.width + 1)
            .flat_map(|r| [r[0], 0].into_iter().chain(r[1..].iter().copied()))
            .collect();
        work.queue(&mut records, stride);
        let (first, helpers) = hands.split_first_mut().expect("one thread at least");
        let budget = crate::budget::current();
        let this: &Search<'_, 'a, T> = self;
        let mut finals: Vec<Option<Summary>> = vec![None; ctx.ranks];
        std::thread::scope(|scope| -> Result<(), Broken> {
            for hand in helpers.iter_mut() {
                let (work, budget) = (&work, &budget);
                scope.spawn(move || {
                    let _entered = budget.as_ref().map(|b| b.enter());
                    helper(this, hand, work);
                });
            }
            let talked = this.coordinate(first, talker, &work, &batches_in, &mut finals);
            work.done.store(true, Ordering::Release);
            talked
        })?;
        // The helpers have ended: their stops, their counts.
        let mut ended: Vec<Stop> = first.ended.take().into_iter().collect();
        ended.extend(work.ended.lock().take());
        let summary = self.summary(first, helpers, talker, &mut ended, &[]);
        talker.send_all(&summary.write(wire::ANY_ORDER))?;
        finals[ctx.rank] = Some(summary);
        while finals.iter().any(Option::is_none) {
            if let Some((from, bytes)) = talker.poll()? {
                if super::chain::is_chain_message(&bytes) {
                    // A rank with every summary already walks the chain.
                    talker.later.push((from, bytes));
                } else {
                    take_final(&mut finals, from, &bytes)?;
                }
            }
        }
        talker.summaries = finals;
        let decision = self.decide(talker, 0);
        let summaries: Vec<Summary> = talker
            .summaries
            .iter_mut()
            .map(|s| s.take().expect("every summary"))
            .collect();
        self.conclude(decision, talker, &summaries)
    }

    /// The talking thread's loop: expands chunks like the others, sends
    /// the batches, takes what arrives and runs Safra's token, until the
    /// search ends here (terminated, or stopped by this rank or another).
    fn coordinate(
        &self,
        first: &mut Hand<'a, T>,
        talker: &mut Talker<'_>,
        work: &Work,
        batches: &Receiver<(usize, Vec<u8>)>,
        finals: &mut [Option<Summary>],
    ) -> Result<(), Broken> {
        let ctx = self.ctx;
        let (rank, ranks) = (ctx.rank, ctx.ranks);
        let mut safra = Safra::default();
        let mut stop_sent = false;
        // Rank 0's progress lines: every rank's figures as last sent.
        let mut figures = vec![[0u64; 4]; ranks];
        let mut last_progress = Instant::now();
        loop {
            if last_progress.elapsed() >= self.config.progress_interval {
                last_progress = Instant::now();
                let own = [
                    ctx.set.len(),
                    work.transitions.load(Ordering::Relaxed),
                    ctx.set.bytes(),
                    work.pending.load(Ordering::Relaxed) * CHUNK as u64,
                ];
                if rank == 0 {
                    figures[0] = own;
                    self.any_progress(&figures);
                } else {
                    let mut w = Writer::new(wire::PROGRESS);
                    for v in own {
                        w.u64(v);
                    }
                    talker.send(0, w.0)?;
                }
            }
            let mut busy = false;
            if let Some(chunk) = work.take() {
                first.expand_chunk(self, work, &chunk);
                work.pending.fetch_sub(1, Ordering::AcqRel);
                busy = true;
            }
            // Send what the threads made, and this thread's batches not
            // yet full once there is nothing left to expand here.
            if work.queue.is_empty() {
                first.out.seal_all();
            }
            for (to, batch) in first.out.ready.drain(..).chain(batches.try_iter()) {
                safra.count += 1;
                talker.send(to, batch)?;
            }
            // Take what came.
            let mut ended_elsewhere = false;
            for _ in 0..16 {
                let message = talker.transport.try_receive().map_err(Broken::Transport)?;
                let Some((from, bytes)) = message else { break };
                busy = true;
                match bytes.first() {
                    Some(&wire::STATES) => {
                        safra.count -= 1;
                        safra.black = true;
                        self.take_any_states(first, work, &bytes)
                            .map_err(|_| Broken::Malformed(from))?;
                    }
                    Some(&wire::TOKEN) => {
                        let mut r = Reader::new(&bytes);
                        let count = r.u64().map_err(|_| Broken::Malformed(from))? as i64;
                        let black = r.u8().map_err(|_| Broken::Malformed(from))? != 0;
                        safra.token = Some((count, black));
                    }
                    Some(&wire::TERMINATE | &wire::STOP) => ended_elsewhere = true,
                    Some(&wire::SUMMARY) => take_final(finals, from, &bytes)?,
                    Some(&wire::PROGRESS) => {
                        let mut r = Reader::new(&bytes);
                        for v in &mut figures[from] {
                            *v = r.u64().map_err(|_| Broken::Malformed(from))?;
                        }
                    }
                    _ => return Err(Broken::Malformed(from)),
                }
            }
            // A finding or a stop here ends the search everywhere.
            let stopped_here = first.ended.is_some()
                || work.ended.lock().is_some()
                || crate::budget::tripped().is_some();
            if stopped_here && !stop_sent {
                talker.send_all(&Writer::new(wire::STOP).0)?;
                stop_sent = true;
            }
            if stopped_here || ended_elsewhere {
                return Ok(());
            }
            // In this order: a helper counts its part-filled batches
            // before it uncounts its chunk, and sends them before it
            // uncounts them.
            let passive = work.pending.load(Ordering::Acquire) == 0
                && work.filling.load(Ordering::Acquire) == 0
                && batches.is_empty()
                && !first.filling()
                && first.out.ready.is_empty();
            if passive {
                if ranks == 1 {
                    return Ok(());
                }
                if rank == 0 {
                    match safra.token.take() {
                        Some((count, black))
                            if !black && !safra.black && count + safra.count == 0 =>
                        {
                            talker.send_all(&Writer::new(wire::TERMINATE).0)?;
                            return Ok(());
                        }
                        Some(_) => safra.round = false,
                        None => {}
                    }
                    if !safra.round {
                        safra.black = false;
                        safra.round = true;
                        send_token(talker, 1, 0, false)?;
                    }
                } else if let Some((count, black)) = safra.token.take() {
                    send_token(
                        talker,
                        (rank + 1) % ranks,
                        count + safra.count,
                        black || safra.black,
                    )?;
                    safra.black = false;
                }
            }
            if !busy {
                std::thread::yield_now();
            }
        }
    }

    /// Rank 0 calls the progress callback with the sum of every rank's
    /// figures as last sent (states, transitions, store bytes, queue).
    fn any_progress(&self, figures: &[[u64; 4]]) {
        if let Some(progress) = &self.config.progress {
            let sum = |k: usize| figures.iter().map(|f| f[k]).sum();
            progress(&Progress {
                states: sum(0),
                transitions: sum(1),
                store_bytes: sum(2),
                queue: sum(3),
                elapsed: self.start.elapsed(),
            });
        }
    }

    /// Inserts an any-order batch: states with their depths; the new ones
    /// are queued.
    fn take_any_states(
        &self,
        hand: &mut Hand<'a, T>,
        work: &Work,
        bytes: &[u8],
    ) -> Result<(), Malformed> {
        let ctx = self.ctx;
        let mut r = Reader::new(bytes);
        if r.u64()? != wire::ANY_ORDER {
            return Err(Malformed);
        }
        let count = r.u32()?;
        let guard = crossbeam::epoch::pin();
        let mut state = vec![0u64; ctx.width];
        for _ in 0..count {
            let (parent, depth) = ctx.read_state(&mut r, true, &mut state)?;
            let depth = depth.ok_or(Malformed)?;
            if hand.ended.is_some() {
                continue;
            }
            let mut view = ctx.view(&mut hand.handle, &mut hand.out, &guard, depth);
            let mut found = Found {
                records: &mut hand.next,
            };
            if let Err(stop) = hand
                .expander
                .add_received(&mut view, &mut found, &state, parent, depth)
            {
                hand.ended = Some(stop);
            }
        }
        drop(guard);
        work.queue(&mut hand.next, ctx.width + 2);
        if r.done() { Ok(()) } else { Err(Malformed) }
    }
}

/// A helper thread: expands chunks until the rank's search ends here.
/// Batches leave when full, and the rest when the queue is empty.
fn helper<'a, T: TransitionSystem>(
    search: &Search<'_, 'a, T>,
    hand: &mut Hand<'a, T>,
    work: &Work,
) {
    let mut filling = false;
    while !work.done.load(Ordering::Acquire) {
        let Some(chunk) = work.take() else {
            if filling {
                hand.out.seal_all();
                for batch in hand.out.ready.drain(..) {
                    let _ = work.batches.send(batch);
                }
                filling = false;
                work.filling.fetch_sub(1, Ordering::AcqRel);
            }
            std::thread::yield_now();
            continue;
        };
        hand.expand_chunk(search, work, &chunk);
        for batch in hand.out.ready.drain(..) {
            let _ = work.batches.send(batch);
        }
        if let Some(stop) = hand.ended.take() {
            work.ended.lock().get_or_insert(stop);
        }
        if !filling && hand.filling() {
            filling = true;
            work.filling.fetch_add(1, Ordering::AcqRel);
        }
        // Uncounted last: its new states, its batches and its part-filled
        // batches are accounted for already.
        work.pending.fetch_sub(1, Ordering::AcqRel);
    }
}

fn send_token(talker: &mut Talker<'_>, to: usize, count: i64, black: bool) -> Result<(), Broken> {
    let mut w = Writer::new(wire::TOKEN);
    w.u64(count as u64).u8(black as u8);
    talker.send(to, w.0)
}

/// Takes a rank's final summary (any other message at the end is one
/// the search no longer needs: batches, tokens, stops).
fn take_final(finals: &mut [Option<Summary>], from: usize, bytes: &[u8]) -> Result<(), Broken> {
    if bytes.first() != Some(&wire::SUMMARY) {
        return Ok(());
    }
    let mut r = Reader::new(bytes);
    let malformed = |_| Broken::Malformed(from);
    if r.u64().map_err(malformed)? != wire::ANY_ORDER {
        return Err(Broken::Malformed(from));
    }
    let summary = Summary::read(&mut r).map_err(malformed)?;
    finals[from] = Some(summary.with_rank(from));
    Ok(())
}
