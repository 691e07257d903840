//! A counterexample across ranks: the chain of parents from the finding
//! back to an initial state, each link read by the rank that stores it.
//!
//! The rank holding the finding reads its link (the state's key and its
//! parent's reference) and sends it to rank 0, then asks the parent's
//! rank (named by the reference, see [`super::Partition`]) to go on with
//! `Next`; that rank does the same, until a link without parent. Links
//! reach rank 0 from different senders, so possibly out of order: rank 0
//! keeps them by reference and follows them from the finding, and when
//! the walk reaches an initial state it tells every rank that the chain
//! is complete.

use std::collections::HashMap;

use super::Partition;
use super::rank::{Broken, Talker};
use super::wire::{self, Reader, Writer};
use crate::store::{NO_PARENT, Ref, VisitedSet};
use crate::trace::StepKey;

/// Collects the chain of the finding at `finding` (held by the rank for
/// which `start` is set): rank 0 gets it, initial state first; the other
/// ranks `None`.
pub(super) fn collect(
    talker: &mut Talker<'_>,
    set: &VisitedSet,
    part: Partition,
    start: Option<Ref>,
    finding: Ref,
) -> Result<Option<Vec<StepKey>>, Broken> {
    let rank = talker.transport.rank();
    let owner = |r: Ref| part.rank_of_ref(r, set.worker_bits());
    let mut links: HashMap<Ref, (StepKey, Ref)> = HashMap::new();
    let mut current = start;
    loop {
        // Walk the links held here.
        while let Some(r) = current.take() {
            let (key, parent) = set.link(r);
            if rank == 0 {
                links.insert(r, (key, parent));
            } else {
                let mut w = Writer::new(wire::STEP);
                w.u64(r).u64(parent).key(&key);
                talker.send(0, w.0)?;
            }
            if parent != NO_PARENT {
                if owner(parent) == rank {
                    current = Some(parent);
                } else {
                    let mut w = Writer::new(wire::NEXT);
                    w.u64(parent);
                    talker.send(owner(parent), w.0)?;
                }
            }
        }
        if rank == 0
            && let Some(chain) = walk(&links, finding)
        {
            talker.send_all(&Writer::new(wire::CHAIN_DONE).0)?;
            return Ok(Some(chain));
        }
        // Messages of the chain that came while this rank was still
        // deciding (kept aside then) come first.
        let message = if talker.later.is_empty() {
            talker.poll()?
        } else {
            Some(talker.later.remove(0))
        };
        let Some((from, bytes)) = message else {
            continue;
        };
        let mut r = Reader::new(&bytes);
        match bytes.first() {
            Some(&wire::NEXT) => current = Some(r.u64()?),
            Some(&wire::STEP) if rank == 0 => {
                let at = r.u64()?;
                let parent = r.u64()?;
                links.insert(at, (r.key()?, parent));
            }
            Some(&wire::CHAIN_DONE) if rank != 0 => return Ok(None),
            // Nothing of the levels is in flight once every rank has
            // decided; anything else is a bug.
            _ => return Err(Broken::Malformed(from)),
        }
    }
}

/// Whether `bytes` is a message of the chain's collection (a rank that
/// has decided already may send one to a rank still deciding, which keeps
/// it for [`collect`]).
pub(super) fn is_chain_message(bytes: &[u8]) -> bool {
    matches!(
        bytes.first(),
        Some(&wire::NEXT | &wire::STEP | &wire::CHAIN_DONE)
    )
}

/// The chain from an initial state to `finding`, if every link has come.
fn walk(links: &HashMap<Ref, (StepKey, Ref)>, finding: Ref) -> Option<Vec<StepKey>> {
    let mut chain = Vec::new();
    let mut r = finding;
    loop {
        let (key, parent) = links.get(&r)?;
        chain.push(key.clone());
        if *parent == NO_PARENT {
            chain.reverse();
            return Some(chain);
        }
        r = *parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::StoreKind;
    use crate::distributed::ChannelTransport;
    use crate::distributed::Transport;

    #[test]
    fn chain_messages_kept_aside_come_first() {
        // Rank 1 got rank 0's `ChainDone` while it still waited for the
        // summaries (a race under load: it was dropped there, and every
        // rank then waited for the chain forever). Whatever the transport
        // holds after it is not read.
        let mut group = ChannelTransport::group(2);
        let mut rank0 = group.remove(0);
        let mut rank1 = group.remove(0);
        rank0.send(1, vec![0xff]).unwrap();
        let (set, _handles) = VisitedSet::new(1, 8, StoreKind::Exact, 1, 16, None);
        let mut talker = Talker {
            transport: &mut rank1,
            messages_sent: 0,
            bytes_sent: 0,
            later: vec![(0, Writer::new(wire::CHAIN_DONE).0)],
            ends: 0,
            summaries: vec![None, None],
            stopped_since: None,
        };
        let part = Partition {
            ranks: 2,
            threads: 1,
        };
        let chain = collect(&mut talker, &set, part, None, 0);
        assert!(matches!(chain, Ok(None)));
        assert!(talker.later.is_empty());
        assert!(is_chain_message(&Writer::new(wire::CHAIN_DONE).0));
        assert!(!is_chain_message(&[0xff]));
    }
}
