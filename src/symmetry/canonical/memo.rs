//! A per-thread memo of representatives: a direct-mapped table from a
//! state to its representative, so that a state reached again (a common
//! successor of many states, as in USB_4Endpoints where 95,000
//! canonicalisations see fewer than 8,000 distinct states) is looked up
//! instead of labelled again. The representative is a function of the
//! state alone, so a hit returns exactly what the computation would.
//!
//! Fixed memory (at most [`BYTES`] per thread), no allocation once
//! created; a new state simply overwrites the entry its fingerprint picks.

/// Upper bound on the table's size in bytes.
pub(super) const BYTES: usize = 4 << 20;
/// Upper bound on the number of entries.
const MAX_ENTRIES: usize = 1 << 14;

/// The memo of one thread, for states of one width.
#[derive(Debug, Default)]
pub(super) struct Memo {
    width: usize,
    /// Per entry: the state's fingerprint, 0 when empty.
    tags: Vec<u64>,
    /// Per entry: the state, then its representative (`2 * width` words).
    words: Vec<u64>,
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
            self.tags = vec![0; entries];
            self.words = vec![0; entries * 2 * self.width];
        }
        let tag = workers::fingerprint(state);
        (tag as usize & (self.tags.len() - 1), tag)
    }

    /// The representative of `state`, if the memo holds it.
    pub(super) fn get(&mut self, state: &[u64]) -> Option<&[u64]> {
        let (k, tag) = self.slot(state);
        let w = self.width;
        let entry = &self.words[k * 2 * w..(k + 1) * 2 * w];
        (self.tags[k] == tag && entry[..w] == *state).then(|| &entry[w..])
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
}
