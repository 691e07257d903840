//! Equitable refinement with a splitter queue (McKay 1981; thesis Alg. 3.12).
//!
//! A cell `W` taken from the queue is a *splitter*: every vertex `u` outside
//! a singleton cell receives the key
//! `sum over edges w -> u (w in W) of in_weight(colour) +
//!  sum over edges u -> w (w in W) of out_weight(colour)`,
//! a hash of its in- and out-counts into `W` per edge colour, so edge colours
//! are refined natively. Each cell that holds touched vertices is split into
//! the untouched vertices first, then the touched ones in increasing key
//! order; the order of fragments depends only on the keys, so refinement is
//! equivariant (it commutes with relabelling the graph).
//!
//! Following Hopcroft, if a split cell was already processed as a splitter,
//! all fragments but the first largest are queued: the counts into the
//! missing fragment are the counts into the old cell minus the others.
//! Singleton cells are queued at the front, as they split cheaply and
//! strongly. Only touched vertices are moved and sorted, so a singleton
//! splitter costs time proportional to its degree, not to the cell sizes.
//!
//! Key collisions can only make the result coarser than the coarsest
//! equitable partition, never wrong: canonicity rests on the leaf
//! certificates, and the refinement only needs to be equivariant.
//!
//! Every split emits a *trace event* (a hash of the cell, its size and the
//! fragments' keys and sizes). The search compares the events of a node with
//! those of the best leaf's and the first leaf's nodes at the same level
//! while refining, and aborts the refinement as soon as the node can lead to
//! neither a better leaf nor an automorphism (the idea of Traces, Piperno
//! 2008): most useless nodes cost a few splits instead of a full
//! refinement.

use std::cmp::Ordering;

use super::graph::{Graph, splitmix};
use super::partition::Partition;

/// The trace of the node being refined and its comparison with the best
/// and first leaves' nodes at the same level.
pub(crate) struct Trace<'a> {
    /// Events of the current path; this node's are appended.
    pub events: &'a mut Vec<u64>,
    /// Index in `events` of this node's first event.
    pub start: usize,
    /// The best leaf's events at this level, if compared.
    pub best: Option<&'a [u64]>,
    /// The first leaf's events at this level, if compared.
    pub first: Option<&'a [u64]>,
    /// Comparison with `best` so far (`Equal` while a prefix).
    pub cmp_best: Ordering,
    /// Whether the events equal `first` so far.
    pub eq_first: bool,
}

impl Trace<'_> {
    /// Appends an event and updates the comparisons.
    #[inline]
    pub fn push(&mut self, event: u64) {
        let i = self.events.len() - self.start;
        self.events.push(event);
        if self.cmp_best == Ordering::Equal
            && let Some(best) = self.best
        {
            self.cmp_best = best.get(i).map_or(Ordering::Greater, |b| event.cmp(b));
        }
        if self.eq_first
            && let Some(first) = self.first
        {
            self.eq_first = first.get(i) == Some(&event);
        }
    }

    /// Whether the node can no longer lead to a better leaf or to an
    /// automorphism with the first leaf.
    #[inline]
    pub fn hopeless(&self) -> bool {
        self.cmp_best == Ordering::Greater && !self.eq_first
    }

    /// Completes the comparisons after the node's last event: a proper
    /// prefix of the best's events is smaller, and one of the first's is
    /// different.
    pub fn finish(&mut self) {
        let len = self.events.len() - self.start;
        if self.cmp_best == Ordering::Equal
            && let Some(best) = self.best
            && best.len() > len
        {
            self.cmp_best = Ordering::Less;
        }
        if self.eq_first
            && let Some(first) = self.first
        {
            self.eq_first = first.len() == len;
        }
    }
}

/// Scratch space of the refinement, sized to the graph.
#[derive(Clone, Debug, Default)]
pub(crate) struct Refiner {
    /// Vertex -> accumulated key for the current splitter.
    key: Vec<u64>,
    /// Vertex -> whether it received a key from the current splitter.
    touched_flag: Vec<bool>,
    /// Vertices touched by the current splitter.
    touched: Vec<u32>,
    /// Cell start -> number of its touched vertices moved to its end.
    moved: Vec<u32>,
    /// Starts of the cells with touched vertices.
    touched_cells: Vec<u32>,
    /// Ring buffer of queued cell starts.
    queue: Vec<u32>,
    head: usize,
    queued: usize,
    /// Cell start -> whether it is queued.
    in_queue: Vec<bool>,
}

impl Refiner {
    /// Resizes the scratch space for `n` vertices. Keys, flags, moved
    /// counts and queue marks are all zero after every refinement (each
    /// pass clears what it set), so they are resized, not cleared.
    pub fn reset(&mut self, n: usize) {
        debug_assert!(self.key.iter().all(|&k| k == 0));
        debug_assert!(!self.touched_flag.iter().any(|&t| t));
        debug_assert!(self.moved.iter().all(|&m| m == 0));
        debug_assert!(!self.in_queue.iter().any(|&q| q));
        self.key.resize(n, 0);
        self.touched_flag.resize(n, false);
        self.touched.clear();
        self.moved.resize(n, 0);
        self.touched_cells.clear();
        self.queue.resize(n.max(1), 0);
        self.head = 0;
        self.queued = 0;
        self.in_queue.resize(n, false);
    }

    /// Queues the cell starting at `start` (no-op if it is queued).
    pub fn enqueue(&mut self, p: &Partition, start: usize) {
        if self.in_queue[start] {
            return;
        }
        self.in_queue[start] = true;
        let cap = self.queue.len();
        if p.len[start] == 1 {
            self.head = if self.head == 0 {
                cap - 1
            } else {
                self.head - 1
            };
            self.queue[self.head] = start as u32;
        } else {
            let mut tail = self.head + self.queued;
            if tail >= cap {
                tail -= cap;
            }
            self.queue[tail] = start as u32;
        }
        self.queued += 1;
    }

    /// Starts the refinement of the root: splits every colour class by the
    /// key the whole vertex set gives as a splitter (precomputed per vertex)
    /// and queues every cell but the first largest. As in Hopcroft's
    /// algorithm, counts into the omitted cell follow from counts into the
    /// vertex set and into the other cells. Trace events go to `trace`.
    pub fn start_root(&mut self, g: &Graph, p: &mut Partition, trace: &mut Trace<'_>) {
        for v in 0..p.n() {
            let has_edges = g.out_off[v] != g.out_off[v + 1] || g.in_off[v] != g.in_off[v + 1];
            if has_edges && p.len[p.cell[v] as usize] > 1 {
                self.touched_flag[v] = true;
                self.touched.push(v as u32);
                self.key[v] = g.degree_key[v];
            }
        }
        self.move_touched_to_ends(p);
        self.touched_cells.sort_unstable();
        for i in 0..self.touched_cells.len() {
            let c = self.touched_cells[i] as usize;
            if let Some(event) = self.split_cell(p, c, false) {
                trace.push(event);
            }
        }
        self.clear_touched();
        let (mut largest, mut largest_len) = (0, 0);
        let mut s = 0;
        while s < p.n() {
            if p.len[s] > largest_len {
                (largest, largest_len) = (s, p.len[s]);
            }
            s += p.len[s] as usize;
        }
        let mut s = 0;
        while s < p.n() {
            if s != largest {
                self.enqueue(p, s);
            }
            s += p.len[s] as usize;
        }
    }

    fn clear_touched(&mut self) {
        for &u in &self.touched {
            self.key[u as usize] = 0;
            self.touched_flag[u as usize] = false;
        }
        self.touched.clear();
        self.touched_cells.clear();
    }

    fn dequeue(&mut self) -> Option<usize> {
        if self.queued == 0 {
            return None;
        }
        let s = self.queue[self.head] as usize;
        self.head += 1;
        if self.head == self.queue.len() {
            self.head = 0;
        }
        self.queued -= 1;
        self.in_queue[s] = false;
        Some(s)
    }

    fn clear_queue(&mut self) {
        while self.dequeue().is_some() {}
    }

    /// Refines `p` until it is equitable with respect to every queued cell
    /// (or discrete), appending a trace event per split. Returns `false` if
    /// the refinement was abandoned because the trace became hopeless.
    pub fn refine(&mut self, g: &Graph, p: &mut Partition, trace: &mut Trace<'_>) -> bool {
        while let Some(s) = self.dequeue() {
            if p.is_discrete() {
                self.clear_queue();
                break;
            }
            self.collect_keys(g, p, s);
            if self.touched.is_empty() {
                continue;
            }
            self.move_touched_to_ends(p);
            self.touched_cells.sort_unstable();
            for i in 0..self.touched_cells.len() {
                let c = self.touched_cells[i] as usize;
                if let Some(event) = self.split_cell(p, c, true) {
                    trace.push(event);
                    if trace.hopeless() {
                        // Abandon: forget the moves of the cells not split.
                        for &c in &self.touched_cells[i + 1..] {
                            self.moved[c as usize] = 0;
                        }
                        self.clear_touched();
                        self.clear_queue();
                        return false;
                    }
                }
            }
            self.clear_touched();
        }
        true
    }

    /// Accumulates the keys of the vertices adjacent to splitter `s`.
    /// Adds `weight` to the key of `u` and records `u` as touched, unless
    /// `u` is in a singleton cell (nothing to split there).
    #[inline(always)]
    fn touch(&mut self, p: &Partition, u: usize, weight: u64) {
        if p.len[p.cell[u] as usize] > 1 {
            if !self.touched_flag[u] {
                self.touched_flag[u] = true;
                self.touched.push(u as u32);
            }
            self.key[u] = self.key[u].wrapping_add(weight);
        }
    }

    fn collect_keys(&mut self, g: &Graph, p: &Partition, s: usize) {
        let end = s + p.len[s] as usize;
        if g.exact_keys {
            // Undirected, one edge colour: every edge adds the same weight.
            let weight = g.out_w[0].wrapping_add(g.in_w[0]);
            for &w in &p.lab[s..end] {
                let w = w as usize;
                let row = &g.out_to[g.out_off[w] as usize..g.out_off[w + 1] as usize];
                for &u in row {
                    self.touch(p, u as usize, weight);
                }
            }
            return;
        }
        if g.symmetric {
            // In-rows equal out-rows: one walk adds both weights.
            for &w in &p.lab[s..end] {
                let w = w as usize;
                for e in g.out_off[w] as usize..g.out_off[w + 1] as usize {
                    self.touch(p, g.out_to[e] as usize, g.out_w[e].wrapping_add(g.in_w[e]));
                }
            }
            return;
        }
        for &w in &p.lab[s..end] {
            let w = w as usize;
            for e in g.out_off[w] as usize..g.out_off[w + 1] as usize {
                self.touch(p, g.out_to[e] as usize, g.out_w[e]);
            }
            for e in g.in_off[w] as usize..g.in_off[w + 1] as usize {
                self.touch(p, g.in_from[e] as usize, g.in_w[e]);
            }
        }
    }

    /// Moves the touched vertices of every cell to the end of that cell.
    fn move_touched_to_ends(&mut self, p: &mut Partition) {
        let (lab, pos) = (&mut p.lab, &mut p.pos);
        for &u in &self.touched {
            let c = p.cell[u as usize] as usize;
            let k = self.moved[c];
            if k == 0 {
                self.touched_cells.push(c as u32);
            }
            self.moved[c] = k + 1;
            let target = c + (p.len[c] - 1 - k) as usize;
            let from = pos[u as usize] as usize;
            let w = lab[target];
            lab[from] = w;
            pos[w as usize] = from as u32;
            lab[target] = u;
            pos[u as usize] = target as u32;
        }
    }

    /// Splits cell `c` by the keys of its touched vertices (which sit at its
    /// end) and, if `queue`, queues fragments. Returns the trace event of
    /// the split.
    fn split_cell(&mut self, p: &mut Partition, c: usize, queue: bool) -> Option<u64> {
        let len = p.len[c] as usize;
        let k = self.moved[c] as usize;
        self.moved[c] = 0;
        let end = c + len;
        let touched_start = end - k;
        let key = &self.key;
        // The whole cell touched with one key: nothing to split or sort.
        if k == len {
            let k0 = key[p.lab[c] as usize];
            if p.lab[c + 1..end].iter().all(|&v| key[v as usize] == k0) {
                return None;
            }
        }
        if k > 1 {
            if k == 2 {
                if key[p.lab[touched_start] as usize] > key[p.lab[touched_start + 1] as usize] {
                    p.lab.swap(touched_start, touched_start + 1);
                }
            } else {
                p.lab[touched_start..end].sort_unstable_by_key(|&v| key[v as usize]);
            }
            for q in touched_start..end {
                p.pos[p.lab[q] as usize] = q as u32;
            }
        }
        let mut trace = splitmix((c as u64) ^ ((len as u64) << 32));
        let was_queued = self.in_queue[c];
        // One pass over the runs of equal keys: hash them into the trace,
        // cut them off as cells (the first fragment keeps start c) and find
        // the first largest fragment.
        let mut largest = c;
        let mut largest_len = touched_start - c;
        let mut prev = c;
        let mut q = touched_start;
        while q < end {
            let kq = key[p.lab[q] as usize];
            let mut r = q + 1;
            while r < end && key[p.lab[r] as usize] == kq {
                r += 1;
            }
            if r - q > largest_len {
                largest = q;
                largest_len = r - q;
            }
            trace = splitmix(trace ^ kq ^ ((q as u64) << 32) ^ (r - q) as u64);
            if q > c {
                p.split_off(prev, q, r - q);
                prev = q;
            }
            q = r;
        }
        // Queue fragments.
        let mut f = c;
        while queue && f < end {
            let fl = p.len[f] as usize;
            if was_queued || f != largest {
                self.enqueue(p, f);
            }
            f += fl;
        }
        Some(trace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::graph::GraphBuilder;

    #[test]
    fn refines_path_by_degree_and_distance() {
        // Path 0-1-2-3-4: equitable partition {0,4} {1,3} {2}.
        let mut b = GraphBuilder::new(5);
        for i in 0..4 {
            b.add_undirected_edge(i, i + 1, 0);
        }
        let g = b.build();
        let mut p = Partition::default();
        let mut classes = Vec::new();
        p.init_by_colour(&g.colour, &mut classes);
        let mut r = Refiner::default();
        r.reset(5);
        let mut events = Vec::new();
        let mut trace = Trace {
            events: &mut events,
            start: 0,
            best: None,
            first: None,
            cmp_best: Ordering::Equal,
            eq_first: true,
        };
        r.start_root(&g, &mut p, &mut trace);
        assert!(r.refine(&g, &mut p, &mut trace));
        p.check();
        assert_eq!(p.cells, 3);
        assert_eq!(p.cell[0], p.cell[4]);
        assert_eq!(p.cell[1], p.cell[3]);
        assert_ne!(p.cell[0], p.cell[1]);
    }

    #[test]
    fn edge_colours_split_cells() {
        // Directed 3-cycle with one edge of another colour: all distinct.
        let mut b = GraphBuilder::new(3);
        b.add_edge(0, 1, 0);
        b.add_edge(1, 2, 0);
        b.add_edge(2, 0, 7);
        let g = b.build();
        let mut p = Partition::default();
        let mut classes = Vec::new();
        p.init_by_colour(&g.colour, &mut classes);
        let mut r = Refiner::default();
        r.reset(3);
        let mut events = Vec::new();
        let mut trace = Trace {
            events: &mut events,
            start: 0,
            best: None,
            first: None,
            cmp_best: Ordering::Equal,
            eq_first: true,
        };
        r.start_root(&g, &mut p, &mut trace);
        assert!(r.refine(&g, &mut p, &mut trace));
        p.check();
        assert!(p.is_discrete());
    }
}
