//! The distributed search: the same breadth-first search across processes
//! (ranks) that share nothing but messages.
//!
//! Every state has one owner, the rank its fingerprint maps to
//! ([`owner_of`]; the fingerprint of the canonical state when the system
//! reduces by symmetry, since the system emits canonical states). A rank
//! stores only the states it owns, in the engine's own visited set, and
//! expands them with its threads through the one expansion routine
//! ([`crate::expand::Expander`]); a successor owned by another rank is
//! appended to that rank's outgoing batch, and full batches leave without
//! the workers waiting for them. The receiving rank inserts the states,
//! checks the new ones and expands them in the next level.
//!
//! # Levels and termination
//! The search is level-synchronous, so counterexamples are shortest, as
//! with threads ([`crate::ParallelMode::LevelSynchronous`]). Level `d` ends
//! on every rank in two rounds of messages between every pair of ranks
//! (`level`): each rank, when its expansion of level `d` is done, sends
//! `End(d)` to every other rank after the last batch it sent in level `d`;
//! the transport delivers the messages of one sender in order, so a rank
//! that has received `End(d)` from every other rank has received every
//! state of depth `d + 1` sent to it, and has inserted them. It then
//! sends `Summary(d)`: its new states, its finding or stop, its counters.
//! Every rank receives the same summaries and so takes the same decision:
//! a finding (the shallowest, then the lowest rank), a stop, the end
//! (no rank stored a new state of depth `d + 1`, and no rank sent one), or
//! level `d + 1`. Batches of level `d + 1` that arrive from a rank that
//! decided first are kept until the receiver gets there.
//!
//! This is a barrier per level (Stern and Dill's parallel Murphi and
//! LTSmin's distributed BFS synchronise the same way); termination needs
//! no token, because every rank knows after the second round that no
//! message of level `d` is in flight (argued in `level`). Without the
//! barrier ([`crate::ParallelMode::WorkStealing`], module `any`) each
//! rank expands what it has and Safra's token detects the end.
//!
//! # What crosses the network
//! A state is its significant bytes ([`crate::TransitionSystem::state_bytes`]),
//! its parent's 40-bit reference and, for systems whose states refer to
//! values by id ([`crate::TransitionSystem::exports_context`], B's
//! sequences and large sets), the values behind the ids that the sending
//! thread has not sent to that rank before. References are global: the
//! set of each rank is made with arenas for every thread of every rank,
//! and a rank's threads append only to theirs, so a reference names its
//! rank ([`Partition::rank_of_ref`]) and a counterexample follows parents
//! across ranks (`chain`).

mod any;
mod chain;
mod channels;
mod level;
mod rank;
mod wire;

pub use channels::ChannelTransport;
pub use level::explore_distributed;
pub use rank::{GRACE, past_grace};

use std::fmt;

/// Why a transport failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportError(pub String);

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TransportError {}

/// Point-to-point messages between the ranks of one run: what the
/// distributed search needs of MPI (or of channels between threads, in
/// tests). Only the thread that runs [`explore_distributed`] calls it.
///
/// Messages from one rank to another arrive in the order they were sent
/// (MPI's non-overtaking rule), and every message sent is delivered
/// unless a rank fails.
pub trait Transport {
    /// This process's rank, `0..ranks()`.
    fn rank(&self) -> usize;
    /// Number of ranks.
    fn ranks(&self) -> usize;
    /// Sends `bytes` to rank `to` (not this one) without waiting for it
    /// to be received.
    fn send(&mut self, to: usize, bytes: Vec<u8>) -> Result<(), TransportError>;
    /// A message that has arrived, with its sender, if any; never waits.
    fn try_receive(&mut self) -> Result<Option<(usize, Vec<u8>)>, TransportError>;
    /// Waits until every message this rank sent has left its buffers.
    fn flush(&mut self) -> Result<(), TransportError>;
}

/// The rank that owns the state of fingerprint `fp` among `ranks`: the
/// fingerprint remixed (the visited set places states by the same
/// fingerprint's bits) and scaled to the number of ranks.
#[inline]
pub fn owner_of(fp: u64, ranks: usize) -> usize {
    let mixed = (fp ^ (fp >> 31)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (((mixed >> 32) * ranks as u64) >> 32) as usize
}

/// How the references of a distributed run's visited sets name ranks:
/// rank `r`'s threads append to arenas `r * threads .. (r + 1) * threads`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    /// Ranks of the run.
    pub ranks: usize,
    /// Worker threads of each rank.
    pub threads: usize,
}

impl Partition {
    /// Arenas of each rank's visited set: one per thread of every rank.
    pub fn arenas(&self) -> usize {
        self.ranks * self.threads
    }

    /// The rank whose visited set holds the record of `r`, given the bits
    /// of a reference that name its arena (`worker_bits`).
    pub fn rank_of_ref(&self, r: u64, worker_bits: u32) -> usize {
        let worker = (r & ((1u64 << worker_bits) - 1)) as usize;
        worker / self.threads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_spread_evenly_and_stay_in_range() {
        for ranks in [1, 2, 3, 7] {
            let mut counts = vec![0u64; ranks];
            for k in 0..30_000u64 {
                counts[owner_of(crate::hash::fingerprint(&[k]), ranks)] += 1;
            }
            let mean = 30_000 / ranks as u64;
            for c in counts {
                assert!(c.abs_diff(mean) < mean / 10, "{ranks} ranks: {c} of {mean}");
            }
        }
    }

    #[test]
    fn references_name_their_rank() {
        let part = Partition {
            ranks: 3,
            threads: 2,
        };
        // 6 arenas: 3 bits of worker below the index.
        for worker in 0..6u64 {
            let r = (41 << 3) | worker;
            assert_eq!(part.rank_of_ref(r, 3), worker as usize / 2);
        }
    }
}
