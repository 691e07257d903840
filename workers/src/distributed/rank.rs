//! What every rank of a distributed search has, whatever its schedule:
//! its threads' batches to the other ranks and view of the visited set,
//! the thread that talks to the other ranks, and the summary each rank
//! sends the others before they decide together.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crossbeam::epoch::Guard;

use super::owner_of;
use super::wire::{self, Malformed, Reader, Writer};
use super::{Transport, TransportError};
use crate::check::Finding;
use crate::expand::{Expander, Queue, Stop, Visits};
use crate::parallel::worker::stop_reason;
use crate::report::{RankStats, StopReason};
use crate::store::{Handle, Insert, Ref, VisitedSet};
use crate::system::TransitionSystem;

/// Initial slots of each rank's table.
pub(super) const INITIAL_CAPACITY: usize = 1 << 14;
/// States a thread takes from the level at once.
pub(super) const CHUNK: usize = 64;
/// How long a rank whose run was stopped (a signal, the time limit)
/// waits for silent peers before it gives up on them: a peer that failed
/// or was killed never answers, and `mpirun`, which then signals the
/// others, kills them outright a second later (Open MPI's default). Live
/// peers answer a stop without waiting for their work: each stops
/// expanding at the next state and ends its level.
pub const GRACE: Duration = Duration::from_millis(500);

/// Why the run was stopped, once a wait that began before or after the
/// stop has gone on for [`GRACE`] since the waiter first saw it (`since`
/// records that moment): how long a rank waits for peers that may be gone.
pub fn past_grace(since: &mut Option<Instant>) -> Option<crate::StopReason> {
    let reason = crate::budget::tripped()?;
    let seen = *since.get_or_insert_with(Instant::now);
    (seen.elapsed() > GRACE).then_some(reason)
}

/// What one rank found or was stopped by in a level.
#[derive(Clone, Debug)]
pub(super) struct Found {
    pub(super) depth: u64,
    pub(super) at: Ref,
    pub(super) finding: Finding,
}

/// A rank's figures after a level, as sent to every other rank.
#[derive(Clone, Debug)]
pub(super) struct Summary {
    /// New states of the next level it owns.
    pub(super) new: u64,
    pub(super) found: Option<Found>,
    pub(super) stop: Option<StopReason>,
    pub(super) counts: RankStats,
    pub(super) initial_states: u64,
    pub(super) max_depth: u64,
    pub(super) queue_peak: u64,
    /// Bytes of the rank's store when it was empty.
    pub(super) initial_bytes: u64,
}

impl Summary {
    /// The summary as rank `rank`'s (the rank is not sent: it is the
    /// sender's).
    pub(super) fn with_rank(self, rank: usize) -> Summary {
        Summary {
            counts: RankStats {
                rank,
                ..self.counts
            },
            ..self
        }
    }

    pub(super) fn write(&self, level: u64) -> Vec<u8> {
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

    pub(super) fn read(r: &mut Reader<'_>) -> Result<Summary, Malformed> {
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
pub(super) struct Outbox {
    /// The batch being filled for each rank (empty: none).
    pub(super) batches: Vec<Vec<u8>>,
    pub(super) counts: Vec<u32>,
    /// Ids whose values this thread has sent to each rank.
    pub(super) sent_ids: Vec<HashSet<u64>>,
    /// Full batches, to be sent.
    pub(super) ready: Vec<(usize, Vec<u8>)>,
    pub(super) level: u64,
    pub(super) state_bytes: usize,
    pub(super) states_sent: u64,
}

impl Outbox {
    pub(super) fn new(ranks: usize, state_bytes: usize) -> Self {
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
    pub(super) fn push<T: TransitionSystem>(
        &mut self,
        system: &T,
        to: usize,
        state: &[u64],
        parent: Ref,
        depth: u64,
    ) {
        let batch = &mut self.batches[to];
        if batch.is_empty() {
            batch.reserve(wire::BATCH_BYTES + 1024);
            batch.push(wire::STATES);
            batch.extend_from_slice(&self.level.to_le_bytes());
            batch.extend_from_slice(&0u32.to_le_bytes());
        }
        wire::put_parent(batch, parent);
        if self.level == wire::ANY_ORDER {
            batch.extend_from_slice(&(depth.min(u64::from(u32::MAX)) as u32).to_le_bytes());
        }
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
    pub(super) fn seal(&mut self, to: usize) {
        if self.counts[to] == 0 {
            return;
        }
        let mut batch = std::mem::take(&mut self.batches[to]);
        batch[wire::BATCH_HEADER - 4..wire::BATCH_HEADER]
            .copy_from_slice(&self.counts[to].to_le_bytes());
        self.counts[to] = 0;
        self.ready.push((to, batch));
    }

    pub(super) fn seal_all(&mut self) {
        for to in 0..self.batches.len() {
            self.seal(to);
        }
    }
}

/// A thread's view of its rank's visited set: owned states are inserted,
/// the others go to their owners.
pub(super) struct View<'w, T: TransitionSystem> {
    pub(super) system: &'w T,
    pub(super) set: &'w VisitedSet,
    pub(super) handle: &'w mut Handle,
    pub(super) guard: &'w Guard,
    pub(super) out: &'w mut Outbox,
    pub(super) rank: usize,
    pub(super) ranks: usize,
    /// Adding initial states: every rank computes them all and keeps
    /// those it owns.
    pub(super) initial: bool,
    /// Depth of the states inserted (sent with them in any order).
    pub(super) depth: u64,
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
                self.out.push(self.system, owner, state, parent, self.depth);
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
pub(super) struct Next<'w> {
    pub(super) records: &'w mut Vec<u64>,
}

impl Queue for Next<'_> {
    #[inline]
    fn push(&mut self, id: Ref, _depth: u64, state: &[u64]) {
        self.records.push(id);
        self.records.extend_from_slice(state);
    }
}

/// One thread of a rank: its handle, expander, batches and next level.
pub(super) struct Hand<'a, T: TransitionSystem> {
    pub(super) handle: Handle,
    pub(super) expander: Expander<'a, T>,
    pub(super) out: Outbox,
    pub(super) next: Vec<u64>,
    /// The first finding or stop of this thread in the level.
    pub(super) ended: Option<Stop>,
}

/// What the whole rank shares: the system, its set, its place.
pub(super) struct RankCtx<'a, T: TransitionSystem> {
    pub(super) system: &'a T,
    pub(super) set: VisitedSet,
    pub(super) rank: usize,
    pub(super) ranks: usize,
    pub(super) width: usize,
    pub(super) state_bytes: usize,
}

impl<'a, T: TransitionSystem> RankCtx<'a, T> {
    /// A thread's view of this rank's set, through its `handle`, sending
    /// to `out`, inserting states of depth `depth`.
    pub(super) fn view<'w>(
        &'w self,
        handle: &'w mut Handle,
        out: &'w mut Outbox,
        guard: &'w Guard,
        depth: u64,
    ) -> View<'w, T> {
        View {
            system: self.system,
            set: &self.set,
            handle,
            guard,
            out,
            rank: self.rank,
            ranks: self.ranks,
            initial: false,
            depth,
        }
    }

    /// Reads the next state of a batch into `state`: its parent, its
    /// depth when the batch says it (any order), and the values it refers
    /// to by id, which are made known here. Refuses a state this rank
    /// does not own.
    pub(super) fn read_state(
        &self,
        r: &mut Reader<'_>,
        any_order: bool,
        state: &mut [u64],
    ) -> Result<(Ref, Option<u64>), Malformed> {
        let parent = wire::get_parent(r.take(wire::PARENT_BYTES)?);
        let depth = match any_order {
            true => Some(u64::from(r.u32()?)),
            false => None,
        };
        let bytes = r.take(self.state_bytes)?;
        state.fill(0);
        for (k, chunk) in bytes.chunks(8).enumerate() {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            state[k] = u64::from_le_bytes(word);
        }
        if self.system.exports_context() {
            let len = r.u32()? as usize;
            let context = r.take(len)?;
            if !context.is_empty() {
                self.system.import_context(context).map_err(|e| {
                    tracing::error!("rank {}: a state's values cannot be read: {e}", self.rank);
                    Malformed
                })?;
            }
        }
        if owner_of(crate::hash::fingerprint(state), self.ranks) != self.rank {
            return Err(Malformed);
        }
        Ok((parent, depth))
    }
}

/// The rank's thread that talks to the other ranks: its counters and
/// the messages it keeps for later levels.
pub(super) struct Talker<'t> {
    pub(super) transport: &'t mut dyn Transport,
    pub(super) messages_sent: u64,
    pub(super) bytes_sent: u64,
    /// Messages of a later level, or of the chain's collection that came
    /// before this rank decided, in arrival order.
    pub(super) later: Vec<(usize, Vec<u8>)>,
    /// `End` messages of the current level received.
    pub(super) ends: usize,
    /// `Summary` messages of the current level, by rank.
    pub(super) summaries: Vec<Option<Summary>>,
    /// When the run was found stopped while waiting for peers.
    pub(super) stopped_since: Option<Instant>,
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
                if let Some(reason) = past_grace(&mut self.stopped_since) {
                    return Err(Broken::Silent(reason));
                }
                std::thread::yield_now();
                Ok(None)
            }
        }
    }
}

impl From<Malformed> for Broken {
    fn from(_: Malformed) -> Self {
        Broken::Malformed(usize::MAX)
    }
}
