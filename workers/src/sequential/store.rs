//! The single-threaded visited store: an open-addressing hash table with
//! linear probing over a flat array of `u64` slots, plus flat per-state
//! columns (the state words or fingerprint, the parent's id).
//!
//! State ids are insertion indices. In exact mode a slot holds the top
//! [`TAG_BITS`] bits of the fingerprint above `id + 1`, so most mismatches
//! are rejected without touching the stored words; in compact mode a slot
//! holds the whole fingerprint and nothing else is compared. The table
//! doubles when it is [`MAX_LOAD`] full. All growth is done by hand (exact
//! doubling) so the memory bound can be checked *before* allocating.

use crate::hash::fingerprint;
use crate::report::StopReason;
use crate::trace::StepKey;

/// Slot bits holding a fingerprint tag in exact mode.
const TAG_BITS: u32 = 24;
/// Slot bits holding `id + 1` in exact mode.
const ID_BITS: u32 = 64 - TAG_BITS;
const ID_MASK: u64 = (1 << ID_BITS) - 1;
/// Largest fill ratio of the table before it doubles.
const MAX_LOAD: f64 = 0.6;
/// Parent id of initial states.
pub(crate) const NO_PARENT: u64 = u64::MAX;

/// Result of a successful [`SeqStore::insert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Insert {
    /// The state is new and got this id.
    New(u64),
    /// The state was already stored.
    Seen,
}

/// A single-threaded visited store. See the module docs.
pub(crate) struct SeqStore {
    width: usize,
    compact: bool,
    /// Exact: `width` words per state. Compact: one fingerprint per state.
    keys: Vec<u64>,
    parents: Vec<u64>,
    slots: Vec<u64>,
    len: u64,
    max_states: Option<u64>,
    memory_limit: Option<u64>,
}

impl SeqStore {
    /// An empty store for states of `width` words.
    pub(crate) fn new(
        width: usize,
        compact: bool,
        max_states: Option<u64>,
        memory_limit: Option<u64>,
    ) -> Self {
        SeqStore {
            width,
            compact,
            keys: Vec::new(),
            parents: Vec::new(),
            slots: vec![0; 1024],
            len: 0,
            max_states,
            memory_limit,
        }
    }

    /// Number of stored states.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Bytes currently allocated by the store.
    pub(crate) fn bytes(&self) -> u64 {
        8 * (self.keys.capacity() + self.parents.capacity() + self.slots.len()) as u64
    }

    fn key_words(&self) -> usize {
        if self.compact { 1 } else { self.width }
    }

    /// Stores `state` with parent `parent` unless it is already stored.
    /// Fails, storing nothing, if the state is new and storing it would pass
    /// the state bound or the memory bound.
    pub(crate) fn insert(&mut self, state: &[u64], parent: u64) -> Result<Insert, StopReason> {
        debug_assert_eq!(state.len(), self.width);
        let fp = fingerprint(state);
        let mask = self.slots.len() - 1;
        let mut pos = fp as usize & mask;
        let tag = fp >> ID_BITS;
        // Probe until an empty slot (new state) or a match (seen).
        loop {
            let slot = self.slots[pos];
            if slot == 0 {
                break;
            }
            if self.compact {
                if slot == fp {
                    return Ok(Insert::Seen);
                }
            } else if slot >> ID_BITS == tag {
                let id = ((slot & ID_MASK) - 1) as usize;
                if self.keys[id * self.width..(id + 1) * self.width] == *state {
                    return Ok(Insert::Seen);
                }
            }
            pos = (pos + 1) & mask;
        }
        // New state: make room first (which may move it), then store it.
        if self.max_states.is_some_and(|max| self.len >= max) {
            return Err(StopReason::MaxStates);
        }
        if (self.len + 1) as f64 > MAX_LOAD * self.slots.len() as f64 {
            self.check_room(8 * self.slots.len() as u64)?;
            self.grow_table()?;
            let mask = self.slots.len() - 1;
            pos = fp as usize & mask;
            while self.slots[pos] != 0 {
                pos = (pos + 1) & mask;
            }
        }
        if self.keys.len() + self.key_words() > self.keys.capacity() {
            let extra = self.keys.capacity().max(1024 * self.key_words());
            self.check_room(8 * extra as u64)?;
            self.keys
                .try_reserve_exact(extra)
                .map_err(|_| StopReason::MemoryLimit)?;
        }
        if self.parents.len() == self.parents.capacity() {
            let extra = self.parents.capacity().max(1024);
            self.check_room(8 * extra as u64)?;
            self.parents
                .try_reserve_exact(extra)
                .map_err(|_| StopReason::MemoryLimit)?;
        }
        let id = self.len;
        if self.compact {
            self.keys.push(fp);
            self.slots[pos] = fp;
        } else {
            self.keys.extend_from_slice(state);
            self.slots[pos] = (tag << ID_BITS) | (id + 1);
        }
        self.parents.push(parent);
        self.len += 1;
        Ok(Insert::New(id))
    }

    fn check_room(&self, extra: u64) -> Result<(), StopReason> {
        match self.memory_limit {
            Some(limit) if self.bytes() + extra > limit => Err(StopReason::MemoryLimit),
            _ => Ok(()),
        }
    }

    /// Doubles the table; an allocation the system refuses (an
    /// address-space limit, say) is a memory stop, not an abort.
    fn grow_table(&mut self) -> Result<(), StopReason> {
        let new_len = self.slots.len() * 2;
        let mask = new_len - 1;
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(new_len)
            .map_err(|_| StopReason::MemoryLimit)?;
        slots.resize(new_len, 0u64);
        for &slot in &self.slots {
            if slot == 0 {
                continue;
            }
            let fp = if self.compact {
                slot
            } else {
                let id = ((slot & ID_MASK) - 1) as usize;
                fingerprint(&self.keys[id * self.width..(id + 1) * self.width])
            };
            let mut pos = fp as usize & mask;
            while slots[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            slots[pos] = slot;
        }
        self.slots = slots;
        Ok(())
    }

    /// The chain of keys from an initial state to state `id`, for
    /// [`crate::trace::rebuild`].
    pub(crate) fn chain_to(&self, mut id: u64) -> Vec<StepKey> {
        let mut chain = Vec::new();
        loop {
            let i = id as usize;
            chain.push(if self.compact {
                StepKey::Fingerprint(self.keys[i])
            } else {
                StepKey::Words(self.keys[i * self.width..(i + 1) * self.width].into())
            });
            id = self.parents[i];
            if id == NO_PARENT {
                break;
            }
        }
        chain.reverse();
        chain
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    proptest! {
        #[test]
        fn agrees_with_hashset(keys in proptest::collection::vec((0u64..200, 0u64..3), 0..2000),
                               compact in any::<bool>()) {
            let mut store = SeqStore::new(2, compact, None, None);
            let mut model = HashSet::new();
            for (a, b) in keys {
                let new = model.insert((a, b));
                let got = store.insert(&[a, b], NO_PARENT).unwrap();
                prop_assert_eq!(matches!(got, Insert::New(_)), new);
            }
            prop_assert_eq!(store.len(), model.len() as u64);
        }
    }

    #[test]
    fn ids_are_insertion_order_and_chains_follow_parents() {
        let mut store = SeqStore::new(1, false, None, None);
        assert_eq!(store.insert(&[7], NO_PARENT), Ok(Insert::New(0)));
        assert_eq!(store.insert(&[8], 0), Ok(Insert::New(1)));
        assert_eq!(store.insert(&[9], 1), Ok(Insert::New(2)));
        assert_eq!(store.insert(&[8], 2), Ok(Insert::Seen));
        let chain = store.chain_to(2);
        let words: Vec<_> = chain
            .iter()
            .map(|k| match k {
                StepKey::Words(w) => w[0],
                StepKey::Fingerprint(_) => unreachable!("exact mode"),
            })
            .collect();
        assert_eq!(words, vec![7, 8, 9]);
    }

    #[test]
    fn bounds_refuse_new_states_but_not_duplicates() {
        let mut store = SeqStore::new(1, false, Some(3), None);
        for i in 0..3 {
            assert!(matches!(store.insert(&[i], NO_PARENT), Ok(Insert::New(_))));
        }
        assert_eq!(store.insert(&[1], NO_PARENT), Ok(Insert::Seen));
        assert_eq!(store.insert(&[5], NO_PARENT), Err(StopReason::MaxStates));

        let mut store = SeqStore::new(4, false, None, Some(64 * 1024));
        let mut stored = 0u64;
        let err = loop {
            match store.insert(&[stored, 1, 2, 3], NO_PARENT) {
                Ok(_) => stored += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(err, StopReason::MemoryLimit);
        assert!(store.bytes() <= 64 * 1024, "{}", store.bytes());
        assert!(stored > 100);
    }
}
