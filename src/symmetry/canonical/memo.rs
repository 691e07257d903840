//! A per-thread memo of representatives: a direct-mapped table from a
//! state to its representative, so that a state reached again (a common
//! successor of many states, as in USB_4Endpoints where 95,000
//! canonicalisations see fewer than 8,000 distinct states) is looked up
//! instead of labelled again. The representative is a function of the
//! state alone, so a hit returns exactly what the computation would.
//!
//! The table is allocated zeroed at its full size (at most [`BYTES`] per
//! thread), which the system maps only as it is written, and a run uses a
//! prefix of it that doubles while the memo pays: once the prefix has seen
//! as many lookups as it has entries, it doubles if at least a quarter of
//! them hit, and the count starts again. A run whose
//! states are rarely met twice writes a few kilobytes (Peterson with 6
//! processes and canon: 5% of 19,375 lookups hit, and writing the whole
//! table was 384 KB of a 2.9 MB run); one that meets them often uses the
//! whole table within a few thousand lookups, each entry moved to the
//! slot its fingerprint picks in the larger prefix. No allocation after
//! the first lookup; a new state overwrites the entry its fingerprint
//! picks.

/// Upper bound on the table's size in bytes.
pub(super) const BYTES: usize = 4 << 20;
/// Upper bound on the number of entries.
const MAX_ENTRIES: usize = 1 << 14;
/// Number of entries a run uses first.
const FIRST_ENTRIES: usize = 1 << 10;

/// The memo of one thread, for states of one width.
#[derive(Debug, Default)]
pub(super) struct Memo {
    width: usize,
    /// Per entry: the state's fingerprint, 0 when empty.
    tags: Vec<u64>,
    /// Per entry: the state, then its representative (`2 * width` words).
    words: Vec<u64>,
    /// Number of entries in use (a power of two, at most `tags.len()`).
    used: usize,
    /// Lookups since the prefix last doubled or the count restarted.
    looked_up: usize,
    /// Of those, the lookups that hit.
    hits: usize,
}

impl Memo {
    /// The entry for `state` and its fingerprint, creating the table for
    /// states of `state.len()` words on first use.
    fn slot(&mut self, state: &[u64]) -> (usize, u64) {
        if self.width != state.len() || self.tags.is_empty() {
            let per_entry = 16 * state.len().max(1) + 8;
            let entries = (BYTES / per_entry).clamp(1, MAX_ENTRIES);
            let entries = 1 << entries.ilog2();
            self.width = state.len();
            // The old table is freed before the new one is allocated.
            self.tags = Vec::new();
            self.words = Vec::new();
            self.tags = vec![0; entries];
            self.words = vec![0; entries * 2 * self.width];
            self.used = FIRST_ENTRIES.min(entries);
            self.looked_up = 0;
            self.hits = 0;
        }
        let tag = workers::fingerprint(state);
        (tag as usize & (self.used - 1), tag)
    }

    /// Counts a lookup and, every `used` lookups, doubles the prefix in
    /// use if the memo pays (see the module's comment).
    #[inline]
    fn count(&mut self, hit: bool) {
        self.looked_up += 1;
        self.hits += usize::from(hit);
        if self.looked_up >= self.used {
            self.review();
        }
    }

    /// Doubles the prefix if a quarter of the lookups counted hit, and
    /// starts counting again.
    #[cold]
    #[inline(never)]
    fn review(&mut self) {
        if 4 * self.hits >= self.looked_up && self.used < self.tags.len() {
            self.double();
        }
        self.looked_up = 0;
        self.hits = 0;
    }

    /// Doubles the prefix in use, moving each entry whose fingerprint now
    /// picks the new half (entry `k` to `k + used`).
    fn double(&mut self) {
        let (used, w) = (self.used, self.width);
        for k in 0..used {
            if self.tags[k] as usize & used != 0 {
                self.tags[k + used] = std::mem::take(&mut self.tags[k]);
                self.words
                    .copy_within(k * 2 * w..(k + 1) * 2 * w, (k + used) * 2 * w);
            }
        }
        self.used *= 2;
    }

    /// The representative of `state`, if the memo holds it.
    pub(super) fn get(&mut self, state: &[u64]) -> Option<&[u64]> {
        let (k, tag) = self.slot(state);
        let w = self.width;
        let entry = &self.words[k * 2 * w..(k + 1) * 2 * w];
        let hit = self.tags[k] == tag && entry[..w] == *state;
        self.count(hit);
        if !hit {
            return None;
        }
        // The prefix may have doubled, the entry moved with it.
        let k = tag as usize & (self.used - 1);
        Some(&self.words[k * 2 * w + w..(k + 1) * 2 * w])
    }

    /// Remembers that `rep` is the representative of `state`.
    pub(super) fn put(&mut self, state: &[u64], rep: &[u64]) {
        let (k, tag) = self.slot(state);
        let w = self.width;
        if rep.len() != w {
            return;
        }
        self.tags[k] = tag;
        let entry = &mut self.words[k * 2 * w..(k + 1) * 2 * w];
        entry[..w].copy_from_slice(state);
        entry[w..].copy_from_slice(rep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_and_overwrites() {
        let mut m = Memo::default();
        assert!(m.get(&[1, 2]).is_none());
        m.put(&[1, 2], &[2, 1]);
        assert_eq!(m.get(&[1, 2]), Some(&[2, 1][..]));
        assert!(m.get(&[1, 3]).is_none());
        // Another width starts a new table.
        assert!(m.get(&[1, 2, 3]).is_none());
        m.put(&[1, 2, 3], &[3, 2, 1]);
        assert_eq!(m.get(&[1, 2, 3]), Some(&[3, 2, 1][..]));
        assert!(m.tags.len() * (16 * 3 + 8) <= BYTES);
    }

    /// The representative the tests remember for `state`.
    fn rep(state: u64) -> [u64; 1] {
        [state ^ 0xff]
    }

    #[test]
    fn grows_while_lookups_hit() {
        let mut m = Memo::default();
        assert!(m.get(&[1]).is_none());
        assert_eq!(m.used, FIRST_ENTRIES);
        // A few states met over and over: almost every lookup hits.
        let states: Vec<u64> = (1..=64).collect();
        for round in 0..1000 {
            for &s in &states {
                match m.get(&[s]) {
                    Some(r) => assert_eq!(r, rep(s), "round {round}"),
                    None => m.put(&[s], &rep(s)),
                }
            }
        }
        assert_eq!(m.used, m.tags.len());
        assert_eq!(m.used, MAX_ENTRIES);
        // The whole table holds the 64 states (their fingerprints may
        // share a slot of the first prefix, not of the table).
        assert!(states.iter().all(|&s| m.get(&[s]) == Some(&rep(s)[..])));
    }

    #[test]
    fn doubling_keeps_every_entry() {
        let mut m = Memo::default();
        let states: Vec<u64> = (1..=300).collect();
        m.get(&[1]);
        for &s in &states {
            m.put(&[s], &rep(s));
        }
        let held: Vec<u64> = states
            .iter()
            .copied()
            .filter(|&s| m.get(&[s]).is_some())
            .collect();
        m.double();
        assert_eq!(m.used, 2 * FIRST_ENTRIES);
        for &s in &held {
            assert_eq!(m.get(&[s]), Some(&rep(s)[..]), "state {s}");
        }
    }

    #[test]
    fn stays_small_while_lookups_miss() {
        let mut m = Memo::default();
        for s in 1..100_000u64 {
            assert!(m.get(&[s]).is_none());
            m.put(&[s], &rep(s));
        }
        assert_eq!(m.used, FIRST_ENTRIES);
        // Only the prefix in use was written.
        assert!(m.tags[FIRST_ENTRIES..].iter().all(|&t| t == 0));
        assert!(m.words[2 * FIRST_ENTRIES..].iter().all(|&w| w == 0));
    }

    #[test]
    fn a_new_width_drops_the_old_entries() {
        let mut m = Memo::default();
        for _ in 0..20 {
            for s in 1..=200u64 {
                if m.get(&[s]).is_none() {
                    m.put(&[s], &rep(s));
                }
            }
        }
        assert!(m.used > FIRST_ENTRIES);
        assert!(m.get(&[1, 2]).is_none());
        assert_eq!(m.used, FIRST_ENTRIES);
        assert!(m.tags.iter().all(|&t| t == 0));
        m.put(&[1, 2], &[2, 1]);
        assert_eq!(m.get(&[1, 2]), Some(&[2, 1][..]));
        assert!(m.get(&[1]).is_none());
    }
}
