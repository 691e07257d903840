//! A worker's memory of the states it met last: the successors it has just
//! inserted in the visited set or found there.
//!
//! Most successors of a search are states already stored (German with 4
//! nodes: 5.3 transitions per state), and many of those the same worker
//! met a moment before: two independent steps taken in either order from
//! one state reach one state twice. Such a successor is known stored
//! without touching the shared set, whose cache lines the other threads
//! write: about half the lookups of the protocols in `models/`
//! (German with 4 nodes, two threads: 1.36M of 2.91M).
//!
//! The memory is direct-mapped by fingerprint, each entry holding a
//! fingerprint and a full copy of its state, so that a hit is exact in
//! every store mode. It only ever names states the set holds (an entry is
//! written after the set took or found its state, and the set never
//! forgets one), so skipping the set on a hit changes no count, parent or
//! verdict. It starts at about [`START_BYTES`] and doubles, up to about
//! [`BYTES`], each time it has remembered [`GROW_AFTER`] states per entry:
//! a search of a few thousand states writes a few pages, not all of a
//! full memory (Peterson with 6 processes and symmetry, two threads: the
//! run's peak anonymous memory fell by about 120 KB), and a large one
//! reaches the full size after about 64,000 states remembered (states of
//! two words; German with 4 nodes looks up 2.9M successors).

/// What a search found of a successor before inserting it.
#[derive(Clone, Copy)]
pub(crate) enum Lookup {
    /// Met a moment ago ([`RecentStates`]): stored, nothing to insert.
    Met,
    /// To insert, its table slot prefetched: its fingerprint.
    Insert(u64),
}

/// About how many bytes a worker's memory takes (its entries stay in the
/// core's second-level cache).
pub(crate) const BYTES: usize = 64 << 10;

/// Fewest entries of the full memory, whatever the state width.
const MIN_ENTRIES: usize = 256;

/// About how many bytes a memory starts with.
pub(crate) const START_BYTES: usize = 4 << 10;

/// Fewest entries a memory starts with, whatever the state width.
const MIN_START_ENTRIES: usize = 64;

/// States remembered per entry before the memory doubles.
pub(crate) const GROW_AFTER: usize = 16;

/// The states a worker met last, by fingerprint.
pub(crate) struct RecentStates {
    /// Words of a state.
    width: usize,
    /// Entries minus one (a power of two minus one).
    mask: usize,
    /// Per entry: the fingerprint (0 for an empty entry: no state has
    /// fingerprint 0), then the state's `width` words.
    entries: Vec<u64>,
    /// States remembered since the memory last doubled.
    written: usize,
    /// Entries of the full memory.
    full: usize,
}

impl RecentStates {
    /// A memory that remembers nothing and allocates nothing (a worker's
    /// before it runs on its own thread, see [`RecentStates::new`]).
    pub(crate) fn none() -> Self {
        RecentStates {
            width: 0,
            mask: 0,
            entries: Vec::new(),
            written: 0,
            full: 0,
        }
    }

    /// An empty memory for states of `width` words, of about
    /// [`START_BYTES`], that grows to about [`BYTES`].
    pub(crate) fn new(width: usize) -> Self {
        let stride = 1 + width;
        let full = (BYTES / (stride * 8)).max(MIN_ENTRIES).next_power_of_two();
        // A power of two of at most START_BYTES.
        let start = (START_BYTES / (stride * 8)).max(MIN_START_ENTRIES);
        let entries = (1 << start.ilog2()).min(full);
        Self::with_entries(width, entries, full)
    }

    fn with_entries(width: usize, entries: usize, full: usize) -> Self {
        RecentStates {
            width,
            mask: entries - 1,
            entries: vec![0; entries * (1 + width)],
            written: 0,
            full,
        }
    }

    /// Doubles the memory, keeping what it remembers (each entry moves to
    /// one of the two its fingerprint now selects).
    #[cold]
    fn grow(&mut self) {
        let stride = 1 + self.width;
        let mut bigger = Self::with_entries(self.width, 2 * (self.mask + 1), self.full);
        for entry in self.entries.chunks_exact(stride) {
            if entry[0] != 0 {
                let at = bigger.entry(entry[0]);
                bigger.entries[at..at + stride].copy_from_slice(entry);
            }
        }
        *self = bigger;
    }

    /// Where the entry of fingerprint `fp` starts.
    #[inline(always)]
    fn entry(&self, fp: u64) -> usize {
        // The high bits: the tables place by the low ones.
        ((fp >> 40) as usize & self.mask) * (1 + self.width)
    }

    /// Whether `state` (of fingerprint `fp`, from
    /// [`crate::hash::fingerprint`]) was remembered and not overwritten
    /// since.
    #[inline]
    pub(crate) fn contains(&self, fp: u64, state: &[u64]) -> bool {
        if self.entries.is_empty() {
            return false;
        }
        let at = self.entry(fp);
        self.entries[at] == fp && self.entries[at + 1..at + 1 + self.width] == *state
    }

    /// Sets `lookups` to what is known of each of the `count` states of
    /// `width` words in `states` before inserting them: met if remembered,
    /// otherwise its fingerprint, given to `prefetch` (for all of them
    /// first, so that their cache misses overlap).
    #[inline]
    pub(crate) fn look_up(
        &self,
        (states, width, count): (&[u64], usize, usize),
        lookups: &mut Vec<Lookup>,
        mut prefetch: impl FnMut(u64),
    ) {
        lookups.clear();
        lookups.extend((0..count).map(|k| {
            let state = &states[k * width..(k + 1) * width];
            let fp = crate::hash::fingerprint(state);
            if self.contains(fp, state) {
                Lookup::Met
            } else {
                prefetch(fp);
                Lookup::Insert(fp)
            }
        }));
    }

    /// Remembers `state` (of fingerprint `fp`), which the visited set holds,
    /// in place of the state that shared its entry.
    #[inline]
    pub(crate) fn remember(&mut self, fp: u64, state: &[u64]) {
        if self.entries.is_empty() {
            return;
        }
        let at = self.entry(fp);
        self.entries[at] = fp;
        self.entries[at + 1..at + 1 + self.width].copy_from_slice(state);
        self.written += 1;
        if self.written >= GROW_AFTER * (self.mask + 1) && self.mask + 1 < self.full {
            self.grow();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::fingerprint;

    #[test]
    fn remembers_states_until_another_takes_their_entry() {
        let full = RecentStates::new(2).full;
        let mut recent = RecentStates::with_entries(2, full, full);
        let states: Vec<[u64; 2]> = (0..20_000u64).map(|i| [i, i * 7 + 1]).collect();
        for s in &states {
            assert!(!recent.contains(fingerprint(s), s));
            recent.remember(fingerprint(s), s);
            assert!(recent.contains(fingerprint(s), s));
        }
        // Every state still remembered is the last one written to its
        // entry; the memory holds at most its entries' worth.
        let mut last = std::collections::HashMap::new();
        for (i, s) in states.iter().enumerate() {
            last.insert(recent.entry(fingerprint(s)), i);
        }
        let held: Vec<usize> = (0..states.len())
            .filter(|&i| recent.contains(fingerprint(&states[i]), &states[i]))
            .collect();
        assert_eq!(held.len(), last.len());
        assert!(
            held.iter()
                .all(|&i| last[&recent.entry(fingerprint(&states[i]))] == i)
        );
        assert!(held.len() <= recent.mask + 1);
        assert!(recent.entries.len() * 8 <= 2 * BYTES);
    }

    #[test]
    fn grows_from_a_few_pages_to_the_full_size_keeping_what_it_remembers() {
        let width = 2;
        let mut recent = RecentStates::new(width);
        let start = recent.mask + 1;
        assert!(start * (1 + width) * 8 <= START_BYTES);
        assert!(2 * start * (1 + width) * 8 > START_BYTES);
        assert!(recent.full * (1 + width) * 8 <= 2 * BYTES);
        let states: Vec<[u64; 2]> = (0..200_000u64).map(|i| [i, i * 7 + 1]).collect();
        let mut sizes = vec![start];
        for (i, s) in states.iter().enumerate() {
            recent.remember(fingerprint(s), s);
            let entries = recent.mask + 1;
            if entries != *sizes.last().unwrap() {
                // Doubled after GROW_AFTER states per entry, and the last
                // state remembered before is still there.
                assert_eq!(entries, 2 * sizes.last().unwrap());
                assert_eq!(i + 1, sizes.iter().map(|n| GROW_AFTER * n).sum::<usize>());
                assert!(recent.contains(fingerprint(s), s));
                sizes.push(entries);
            }
        }
        assert_eq!(*sizes.last().unwrap(), recent.full);
        assert_eq!(recent.entries.len(), recent.full * (1 + width));
        // Every state remembered since the last doubling and not
        // overwritten since is found.
        let last = *sizes.last().unwrap();
        let since: usize = sizes[..sizes.len() - 1]
            .iter()
            .map(|n| GROW_AFTER * n)
            .sum();
        let mut owner = std::collections::HashMap::new();
        for (i, s) in states.iter().enumerate().skip(since) {
            owner.insert(recent.entry(fingerprint(s)), i);
        }
        assert!(owner.len() <= last);
        for (&at, &i) in &owner {
            assert_eq!(recent.entry(fingerprint(&states[i])), at);
            assert!(recent.contains(fingerprint(&states[i]), &states[i]));
        }
    }

    #[test]
    fn a_state_with_the_fingerprint_of_another_is_not_taken_for_it() {
        let mut recent = RecentStates::new(3);
        let s = [1u64, 2, 3];
        let fp = fingerprint(&s);
        recent.remember(fp, &s);
        assert!(!recent.contains(fp, &[1, 2, 4]));
        assert!(!recent.contains(fp ^ 1, &s));
        assert!(recent.contains(fp, &s));
    }

    #[test]
    fn looking_up_marks_the_states_met_and_prefetches_the_others() {
        let mut recent = RecentStates::new(2);
        let states = [1u64, 2, 3, 4, 5, 6];
        recent.remember(fingerprint(&states[2..4]), &states[2..4]);
        let mut asked = Vec::new();
        let mut lookups = vec![Lookup::Met; 7];
        recent.look_up((&states, 2, 3), &mut lookups, |fp| asked.push(fp));
        let (a, c) = (fingerprint(&states[..2]), fingerprint(&states[4..]));
        assert_eq!(asked, [a, c]);
        assert!(matches!(
            lookups[..],
            [Lookup::Insert(x), Lookup::Met, Lookup::Insert(z)] if x == a && z == c
        ));
    }

    #[test]
    fn the_empty_memory_remembers_nothing() {
        let mut recent = RecentStates::none();
        recent.remember(5, &[]);
        assert!(!recent.contains(5, &[]));
        // States of no words: one entry per fingerprint.
        let mut recent = RecentStates::new(0);
        recent.remember(5, &[]);
        assert!(recent.contains(5, &[]));
        assert!(!recent.contains(6, &[]));
    }
}
