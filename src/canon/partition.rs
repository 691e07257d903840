//! Backtrackable ordered partitions of the vertex set.
//!
//! The partition is stored as in nauty and bliss: `lab` lists the vertices so
//! that every cell is a contiguous range of positions, `pos` is its inverse,
//! and every cell is named by its first position (its *start*). Cells are
//! only ever split in place, so the order of cells is the order of their
//! starts. Each split appends a record `(parent start, new start)` to an undo
//! log; undoing the records in reverse order merges cells back, which lets the
//! search tree return to any ancestor node in time proportional to the work
//! done since.

/// An ordered partition of `0..n` with an undo log.
#[derive(Clone, Debug, Default)]
pub(crate) struct Partition {
    /// Position -> vertex.
    pub lab: Vec<u32>,
    /// Vertex -> position.
    pub pos: Vec<u32>,
    /// Vertex -> start of its cell.
    pub cell: Vec<u32>,
    /// Cell start -> cell length (meaningful at starts only).
    pub len: Vec<u32>,
    /// Number of cells.
    pub cells: usize,
    /// Split records `(parent start, new start)`, undone in reverse order.
    undo: Vec<(u32, u32)>,
    /// Scratch: colour -> next position (counting sort).
    counts: Vec<u32>,
}

impl Partition {
    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.lab.len()
    }

    /// Whether every cell is a singleton.
    pub fn is_discrete(&self) -> bool {
        self.cells == self.lab.len()
    }

    /// Sets up the partition of the vertices by `colour`, cells ordered by
    /// increasing colour. Writes the colour classes `(colour, size)` to
    /// `classes`.
    pub fn init_by_colour(&mut self, colour: &[u32], classes: &mut Vec<(u32, u32)>) {
        let n = colour.len();
        self.lab.clear();
        let lo = colour.iter().copied().min().unwrap_or(0);
        let hi = colour.iter().copied().max().unwrap_or(0);
        if colour.windows(2).all(|w| w[0] <= w[1]) {
            // Sorted already (or one class).
            self.lab.extend(0..n as u32);
        } else if ((hi - lo) as usize) < n {
            // Few distinct colours: a counting sort, stable in the vertex.
            let counts = &mut self.counts;
            counts.clear();
            counts.resize((hi - lo) as usize + 1, 0);
            for &c in colour {
                counts[(c - lo) as usize] += 1;
            }
            let mut at = 0;
            for k in counts.iter_mut() {
                let size = *k;
                *k = at;
                at += size;
            }
            self.lab.resize(n, 0);
            for (v, &c) in colour.iter().enumerate() {
                let slot = &mut counts[(c - lo) as usize];
                self.lab[*slot as usize] = v as u32;
                *slot += 1;
            }
        } else {
            self.lab.extend(0..n as u32);
            self.lab.sort_unstable_by_key(|&v| (colour[v as usize], v));
        }
        self.pos.clear();
        self.pos.resize(n, 0);
        self.cell.clear();
        self.cell.resize(n, 0);
        self.len.clear();
        self.len.resize(n, 0);
        self.undo.clear();
        self.cells = 0;
        classes.clear();
        let mut start = 0;
        while start < n {
            let c = colour[self.lab[start] as usize];
            let mut end = start;
            while end < n && colour[self.lab[end] as usize] == c {
                self.pos[self.lab[end] as usize] = end as u32;
                self.cell[self.lab[end] as usize] = start as u32;
                end += 1;
            }
            self.len[start] = (end - start) as u32;
            self.cells += 1;
            classes.push((c, (end - start) as u32));
            start = end;
        }
    }

    /// Length of the undo log: a mark to return to with [`Self::undo_to`].
    pub fn mark(&self) -> usize {
        self.undo.len()
    }

    /// Merges cells back until the undo log has length `mark`.
    pub fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (parent, child) = self.undo.pop().expect("undo log longer than mark");
            let (parent, child) = (parent as usize, child as usize);
            let child_len = self.len[child] as usize;
            for p in child..child + child_len {
                self.cell[self.lab[p] as usize] = parent as u32;
            }
            self.len[parent] += child_len as u32;
            self.cells -= 1;
        }
    }

    /// Records that the cell starting at `parent` was cut at `child`: the
    /// positions from `child` to the parent's old end form a new cell of
    /// length `child_len`. The caller has already placed the vertices.
    pub fn split_off(&mut self, parent: usize, child: usize, child_len: usize) {
        debug_assert!(parent < child);
        self.len[parent] = (child - parent) as u32;
        self.len[child] = child_len as u32;
        for p in child..child + child_len {
            self.cell[self.lab[p] as usize] = child as u32;
        }
        self.undo.push((parent as u32, child as u32));
        self.cells += 1;
    }

    /// Swaps the vertices at positions `a` and `b` (within one cell).
    #[inline]
    pub fn swap_positions(&mut self, a: usize, b: usize) {
        let (va, vb) = (self.lab[a], self.lab[b]);
        self.lab[a] = vb;
        self.lab[b] = va;
        self.pos[vb as usize] = a as u32;
        self.pos[va as usize] = b as u32;
    }

    /// Individualises `v`: it becomes a singleton cell placed at the end of
    /// its former cell. Returns the start of the new singleton cell.
    pub fn individualise(&mut self, v: u32) -> usize {
        let start = self.cell[v as usize] as usize;
        let last = start + self.len[start] as usize - 1;
        debug_assert!(last > start, "individualising a singleton");
        self.swap_positions(self.pos[v as usize] as usize, last);
        self.split_off(start, last, 1);
        last
    }

    /// Iterates over the cells as `(start, length)`.
    #[cfg(test)]
    pub fn cells_iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.lab.len();
        let mut p = 0;
        std::iter::from_fn(move || {
            (p < n).then(|| {
                let l = self.len[p] as usize;
                let r = (p, l);
                p += l;
                r
            })
        })
    }

    /// Checks the internal invariants (for tests and debug assertions).
    #[cfg(test)]
    pub fn check(&self) {
        let n = self.n();
        let mut count = 0;
        for (s, l) in self.cells_iter() {
            assert!(l >= 1);
            count += 1;
            for p in s..s + l {
                assert_eq!(self.cell[self.lab[p] as usize] as usize, s);
            }
        }
        assert_eq!(count, self.cells);
        for v in 0..n {
            assert_eq!(self.lab[self.pos[v] as usize] as usize, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn individualise_and_undo_restore_cells() {
        let mut p = Partition::default();
        let mut classes = Vec::new();
        p.init_by_colour(&[1, 0, 1, 0, 1], &mut classes);
        assert_eq!(classes, vec![(0, 2), (1, 3)]);
        p.check();
        let m = p.mark();
        let s = p.individualise(2);
        assert_eq!(p.lab[s], 2);
        assert_eq!(p.len[s], 1);
        assert_eq!(p.cells, 3);
        p.check();
        p.individualise(0);
        p.check();
        assert_eq!(p.cells, 4);
        p.undo_to(m);
        p.check();
        assert_eq!(p.cells, 2);
        assert_eq!(p.len[2], 3);
    }
}
