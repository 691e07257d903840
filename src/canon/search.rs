//! The individualisation–refinement search (McKay 1981, "Practical graph
//! isomorphism"; thesis Alg. 3.14), with the pruning of nauty and Traces.
//!
//! Every node of the search tree is an equitable ordered partition. A node
//! is a leaf when its partition is discrete or homogeneous (see
//! [`super::homogeneous`]); otherwise its children individualise each vertex
//! of a *target cell* and refine. The target cell is the first largest cell
//! among the first few cells from the first non-singleton one (bliss's
//! "first largest", bounded in cost; the first non-singleton cell is found
//! in constant amortised time from the parent's). On undirected graphs with
//! one edge colour, whose refined partitions are exactly equitable, it is
//! instead the cell non-trivially joined to the most cells among the first
//! few (nauty's `bestcell`), which splits more per individualisation: CFI
//! and Miyazaki graphs need 15-20% fewer nodes. Every node gets a
//! *trace*: the events of its refinement plus a closing event with its
//! number of cells and whether it is a leaf. The canonical leaf is
//! the one whose sequence of traces, then certificate, is smallest; it is a
//! function of the isomorphism class, since the tree of a relabelled graph
//! is the relabelled tree.
//!
//! The search first descends the *first path* (always the smallest vertex of
//! the target cell), then explores the remaining children of the first-path
//! nodes from the bottom up, depth first (nodes off the first path list
//! their children only when the first one did not end their exploration),
//! with these kinds of pruning:
//! - a node whose trace sequence is greater than the best leaf's prefix and
//!   differs from the first path's cannot lead to the canonical leaf nor to
//!   an automorphism, so its subtree is cut; the comparison runs during the
//!   refinement, which stops at the first hopeless event (Traces);
//! - a leaf with the first leaf's certificate yields an automorphism that
//!   maps the current subtree onto the first path's, so the search returns
//!   to the first-path node; a leaf equal to the best leaf returns to the
//!   common ancestor with the best leaf (nauty);
//! - at a first-path node, a child in the same orbit as an explored child
//!   under the automorphisms found so far (all of which fix the path above)
//!   is skipped (nauty's orbit pruning); off the first path, a child that
//!   a stored automorphism fixing the node's path maps onto a smaller child
//!   is skipped (nauty's fixed points and cycle minima).
//!
//! The automorphisms found generate the automorphism group; the product of
//! the orbit sizes of the first-path vertices gives its order.

use std::cmp::Ordering;

use super::components::Components;
use super::form::{self, CanonForm, certificate, write_form};
use super::graph::{Graph, splitmix};
use super::homogeneous::is_homogeneous;
use super::orbits::Orbits;
use super::partition::Partition;
use super::refine::{Refiner, Trace};

/// How many automorphisms keep their fixed points and cycle minima for
/// pruning nodes off the first path (as nauty does).
const PRUNE_GENERATORS: usize = 256;

/// How many cells, from the first non-singleton one, the target cell
/// choice looks at: bounds its cost on graphs with many cells.
const TARGET_SCAN_CELLS: usize = 16;

/// Reusable state for canonical labelling. Keep one per thread: once its
/// buffers have grown to the sizes of the graphs at hand, labelling
/// allocates nothing.
///
/// Results of the last [`Workspace::canonicalise`] call are read through
/// the accessors. The labelling is stable across runs, threads and
/// platforms: it depends only on the graph.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    part: Partition,
    /// Disjoint unions are labelled component by component.
    comps: Components,
    refiner: Refiner,
    orbits: Orbits,
    classes: Vec<(u32, u32)>,
    /// Per level: undo mark of the node's partition.
    mark: Vec<usize>,
    /// Per level: position of the node's first non-singleton cell.
    first_open: Vec<u32>,
    /// Per level: the listed children of the node on the current path
    /// (sorted on the first path) are `cands[cand_off[l]..cand_off[l + 1]]`.
    cands: Vec<u32>,
    cand_off: Vec<usize>,
    /// Per level: index in `cands` of the child being explored.
    cand_idx: Vec<usize>,
    /// Per level: the child being explored.
    chosen: Vec<u32>,
    /// Per level: the target cell's start, and whether its vertices have
    /// been copied to `cands` yet (nodes off the first path copy them only
    /// when a second child is needed: most are left after the first).
    target: Vec<u32>,
    listed: Vec<bool>,
    /// Trace events of the current path; level `l` owns
    /// `events[event_off[l]..event_off[l + 1]]`.
    events: Vec<u64>,
    event_off: Vec<usize>,
    first_events: Vec<u64>,
    first_off: Vec<usize>,
    best_events: Vec<u64>,
    best_off: Vec<usize>,
    /// Per level: whether the current path's traces equal the first path's.
    eq_first: Vec<bool>,
    /// Per level: the current path's traces compared with the best path's.
    cmp_best: Vec<Ordering>,
    first_depth: usize,
    best_depth: usize,
    /// Deepest level shared by the current path and the best leaf's path.
    best_div: usize,
    first_cert: Vec<u32>,
    /// The best leaf's certificate, unless `best_is_first` (then it is
    /// `first_cert`, not copied).
    best_cert: Vec<u32>,
    best_is_first: bool,
    cur_cert: Vec<u32>,
    cert_cursor: Vec<u32>,
    first_lab: Vec<u32>,
    best_lab: Vec<u32>,
    perm: Vec<u32>,
    generators: Vec<u32>,
    /// Bit sets per stored automorphism: its fixed points, then the
    /// smallest vertex of each of its cycles (`2 * words` words each).
    fix_mcr: Vec<u64>,
    words: usize,
    /// Scratch bit sets: children allowed, vertices seen.
    allowed: Vec<u64>,
    seen: Vec<u64>,
    sig: Vec<u64>,
    rep: Vec<u64>,
    form: Vec<u32>,
    orbit_reps: Vec<u32>,
    group_mantissa: f64,
    group_exponent: i32,
    nodes: u64,
    /// Cell start -> neighbours of one vertex in it (scratch, all zero).
    hits: Vec<u32>,
}

/// Bytes of the workspace's buffers per vertex of the graph it last
/// sized them for, about (measured: an empty graph of 10^7 vertices
/// peaked at 1.5 GB).
pub const WORKSPACE_BYTES_PER_VERTEX: usize = 160;

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes the canonical labelling, form, automorphism generators and
    /// orbits of `g`. Read them with the accessors.
    pub fn canonicalise(&mut self, g: &Graph) {
        let n = g.vertex_count();
        if n == 1 {
            // Isolated vertices of disjoint unions come here by thousands.
            self.canonicalise_vertex(g);
            return;
        }
        // Growing the buffers for a huge graph (10^7 vertices: 1.5 GB) is
        // refused past the memory cap, as the run stops anyway.
        if n > self.perm.len()
            && !workers::heap::room_for(n.saturating_mul(WORKSPACE_BYTES_PER_VERTEX))
        {
            workers::budget::trip(workers::StopReason::MemoryLimit);
            self.best_lab.clear();
            self.best_lab.extend(0..n as u32);
            return;
        }
        self.reset(n);
        self.part.init_by_colour(&g.colour, &mut self.classes);
        self.nodes = 1;

        // The first path: always the smallest vertex of the target cell.
        let mut level = 0;
        let mut leaf = self
            .process_node(g, 0, false)
            .expect("first path is never cut");
        // A root that needs a search may be a union of isomorphic parts.
        if !leaf && self.comps.split(g) {
            self.canonicalise_union(g);
            return;
        }
        loop {
            self.mark[level] = self.part.mark();
            self.eq_first[level] = true;
            self.cmp_best[level] = Ordering::Equal;
            if leaf {
                break;
            }
            self.choose_target(g, level, true);
            let v = self.chosen[level];
            let s = self.part.individualise(v);
            self.refiner.enqueue(&self.part, s);
            self.nodes += 1;
            // A first path can be as long as the graph: stop with the run,
            // leaving a labelling that is a permutation but not canonical
            // (the caller sees the budget out and discards it).
            if workers::budget::tripped_every(self.nodes).is_some() {
                self.best_lab.clone_from(&self.part.lab);
                return;
            }
            level += 1;
            leaf = self
                .process_node(g, level, false)
                .expect("first path is never cut");
        }
        self.first_depth = level;
        self.best_depth = level;
        self.best_div = level;
        let end = self.event_off[level + 1];
        self.first_events.clear();
        self.first_events.extend_from_slice(&self.events[..end]);
        self.first_off.clear();
        self.first_off
            .extend_from_slice(&self.event_off[..=level + 1]);
        self.best_events.clone_from(&self.first_events);
        self.best_off.clone_from(&self.first_off);
        certificate(
            g,
            &self.part.lab,
            &self.part.pos,
            &mut self.cert_cursor,
            &mut self.first_cert,
        );
        self.best_is_first = true;
        self.first_lab.clone_from(&self.part.lab);
        self.best_lab.clone_from(&self.part.lab);
        self.add_cell_symmetries(g);

        // The other children of the first-path nodes, bottom up.
        for k in (0..self.first_depth).rev() {
            for idx in self.cand_off[k] + 1..self.cand_off[k + 1] {
                let w = self.cands[idx];
                if self.orbits.find(w) != w {
                    continue;
                }
                self.cand_idx[k] = idx;
                self.chosen[k] = w;
                self.eq_first[k] = true;
                self.cmp_best[k] = self.first_prefix_vs_best(k);
                self.best_div = self.best_div.min(k);
                self.explore(g, k);
            }
            let v = self.cands[self.cand_off[k]];
            let size = self.orbits.orbit_size(v);
            self.multiply_group_size(size as f64);
        }

        #[cfg(debug_assertions)]
        {
            // The best labelling reproduces the best certificate.
            for (i, &v) in self.best_lab.iter().enumerate() {
                self.perm[v as usize] = i as u32;
            }
            certificate(
                g,
                &self.best_lab,
                &self.perm,
                &mut self.cert_cursor,
                &mut self.cur_cert,
            );
            debug_assert_eq!(&self.cur_cert, self.best_cert());
        }
        let best = if self.best_is_first {
            &self.first_cert
        } else {
            &self.best_cert
        };
        write_form(g, &self.classes, best, &mut self.form);
        self.orbits.write_representatives(&mut self.orbit_reps);
    }

    /// Labels a one-vertex graph without setting up a search: the results
    /// are those of the search, whose root is its only leaf.
    fn canonicalise_vertex(&mut self, g: &Graph) {
        self.classes.clear();
        self.classes.push((g.colour[0], 1));
        self.best_lab.clear();
        self.best_lab.push(0);
        self.perm.clear();
        self.perm.push(0);
        certificate(
            g,
            &self.best_lab,
            &self.perm,
            &mut self.cert_cursor,
            &mut self.best_cert,
        );
        self.best_is_first = false;
        write_form(g, &self.classes, &self.best_cert, &mut self.form);
        self.generators.clear();
        self.orbit_reps.clear();
        self.orbit_reps.push(0);
        self.group_mantissa = 1.0;
        self.group_exponent = 0;
        self.nodes = 1;
    }

    /// Labels a graph with several components of the same shape through
    /// [`Components`].
    fn canonicalise_union(&mut self, g: &Graph) {
        let result = self.comps.label(
            g,
            &mut self.best_lab,
            &mut self.generators,
            &mut self.orbits,
        );
        (self.group_mantissa, self.group_exponent) = result.group;
        self.nodes = result.nodes;
        for (i, &v) in self.best_lab.iter().enumerate() {
            self.perm[v as usize] = i as u32;
        }
        certificate(
            g,
            &self.best_lab,
            &self.perm,
            &mut self.cert_cursor,
            &mut self.best_cert,
        );
        write_form(g, &self.classes, &self.best_cert, &mut self.form);
        self.orbits.write_representatives(&mut self.orbit_reps);
    }

    /// Sizes the buffers for `n` vertices. Per-level entries are written
    /// before they are read (a node's by its parent or by itself), so they
    /// keep stale values; only the starts of level 0 are set. `perm` is
    /// always written whole and `hits` is kept all zero, so neither is
    /// cleared: small graphs by the thousand pay no zeroing.
    fn reset(&mut self, n: usize) {
        self.refiner.reset(n);
        self.orbits.reset(n);
        let levels = n + 2;
        for v in [
            &mut self.mark,
            &mut self.cand_off,
            &mut self.cand_idx,
            &mut self.event_off,
        ] {
            if v.len() < levels {
                v.resize(levels, 0);
            }
        }
        self.cand_off[0] = 0;
        self.event_off[0] = 0;
        for v in [&mut self.first_open, &mut self.chosen, &mut self.target] {
            if v.len() < levels {
                v.resize(levels, 0);
            }
        }
        for v in [&mut self.listed, &mut self.eq_first] {
            if v.len() < levels {
                v.resize(levels, false);
            }
        }
        if self.cmp_best.len() < levels {
            self.cmp_best.resize(levels, Ordering::Equal);
        }
        self.cands.clear();
        self.events.clear();
        self.generators.clear();
        self.fix_mcr.clear();
        self.words = n.div_ceil(64);
        self.perm.resize(n, 0);
        debug_assert!(self.hits.iter().all(|&h| h == 0));
        self.hits.resize(n, 0);
        self.group_mantissa = 1.0;
        self.group_exponent = 0;
    }

    /// Refines the node at `level` (the root from its colour classes, other
    /// nodes from their queued individualised vertex), records its trace and, if `compare`, compares it with the
    /// first and best paths. Returns whether the node is a leaf, or `None`
    /// if it can lead to neither a better leaf nor an automorphism.
    fn process_node(&mut self, g: &Graph, level: usize, compare: bool) -> Option<bool> {
        let start = self.event_off[level];
        self.events.truncate(start);
        let (mut eq_first, mut cmp_best) = if level == 0 || !compare {
            (true, Ordering::Equal)
        } else {
            (self.eq_first[level - 1], self.cmp_best[level - 1])
        };
        if compare && level > self.first_depth {
            eq_first = false;
        }
        if compare && cmp_best == Ordering::Equal && level > self.best_depth {
            cmp_best = Ordering::Greater;
        }
        let best = (compare && cmp_best == Ordering::Equal)
            .then(|| &self.best_events[self.best_off[level]..self.best_off[level + 1]]);
        let first = (compare && eq_first)
            .then(|| &self.first_events[self.first_off[level]..self.first_off[level + 1]]);
        let mut trace = Trace {
            events: &mut self.events,
            start,
            best,
            first,
            cmp_best,
            eq_first,
        };
        if level == 0 {
            self.refiner.start_root(g, &mut self.part, &mut trace);
        }
        if !self.refiner.refine(g, &mut self.part, &mut trace) {
            return None;
        }
        // First non-singleton cell: at or after the parent's.
        let n = self.part.n();
        let mut open = if level == 0 {
            0
        } else {
            self.first_open[level - 1] as usize
        };
        while open < n && self.part.len[open] == 1 {
            open += 1;
        }
        self.first_open[level] = open as u32;
        let leaf = is_homogeneous(g, &self.part, open, &mut self.sig, &mut self.rep);
        trace.push(splitmix(
            0x0045_4e44 ^ ((self.part.cells as u64) << 1) ^ u64::from(leaf),
        ));
        trace.finish();
        if trace.hopeless() {
            return None;
        }
        self.eq_first[level] = trace.eq_first;
        self.cmp_best[level] = trace.cmp_best;
        self.event_off[level + 1] = self.events.len();
        Some(leaf)
    }

    /// Picks the target cell of the (non-leaf) node at `level` and its first
    /// child. With `list`, records the cell's vertices, sorted, as the
    /// node's children (first-path nodes, for orbit pruning) and starts with
    /// the smallest; otherwise starts with the cell's first vertex and
    /// leaves the listing to [`Self::list_children`].
    ///
    /// Cells of isolated vertices are never targets: once they are the
    /// only non-singleton cells the node is homogeneous, a leaf.
    fn choose_target(&mut self, g: &Graph, level: usize, list: bool) {
        let open = self.first_open[level] as usize;
        let n = self.part.n();
        let joined = if g.exact_keys {
            self.most_joined_cell(g, open)
        } else {
            n
        };
        let (mut target, mut best_len) = (joined, 0);
        let mut s = open;
        let mut scanned = 0;
        while joined == n && s < n && (scanned < TARGET_SCAN_CELLS || target == n) {
            let l = self.part.len[s];
            if l > best_len.max(1) {
                let v = self.part.lab[s] as usize;
                let isolated = g.out_off[v] == g.out_off[v + 1] && g.in_off[v] == g.in_off[v + 1];
                if !isolated {
                    target = s;
                    best_len = l;
                }
            }
            scanned += 1;
            s += l as usize;
        }
        debug_assert!(target < n, "no target cell in a node that is not a leaf");
        self.target[level] = target as u32;
        let off = self.cand_off[level];
        self.cands.truncate(off);
        if list {
            let len = self.part.len[target] as usize;
            self.cands
                .extend_from_slice(&self.part.lab[target..target + len]);
            self.cands[off..].sort_unstable();
            self.chosen[level] = self.cands[off];
        } else {
            self.chosen[level] = self.part.lab[target];
        }
        self.listed[level] = list;
        self.cand_off[level + 1] = self.cands.len();
        self.cand_idx[level] = off;
    }

    /// nauty's `bestcell`: among the first [`TARGET_SCAN_CELLS`]
    /// non-singleton cells from `open`, the first whose vertices have
    /// neighbours in the most non-singleton cells without being joined to
    /// all of them: individualising in it splits the most cells. Looks at
    /// the first vertex of each cell, which needs an exactly equitable
    /// partition ([`Graph::exact_keys`]). Returns `n` if every scanned cell
    /// is made of isolated vertices.
    fn most_joined_cell(&mut self, g: &Graph, open: usize) -> usize {
        let n = self.part.n();
        let p = &self.part;
        let (mut best, mut best_count) = (n, 0);
        let (mut s, mut scanned) = (open, 0);
        while s < n && scanned < TARGET_SCAN_CELLS {
            let l = p.len[s] as usize;
            if l > 1 {
                scanned += 1;
                let v = p.lab[s] as usize;
                let row = &g.out_to[g.out_off[v] as usize..g.out_off[v + 1] as usize];
                for &u in row {
                    self.hits[p.cell[u as usize] as usize] += 1;
                }
                let mut count = 0;
                for &u in row {
                    let c = p.cell[u as usize] as usize;
                    let h = self.hits[c];
                    if h > 0 && h < p.len[c] && p.len[c] > 1 {
                        count += 1;
                    }
                    self.hits[c] = 0;
                }
                if !row.is_empty() && (best == n || count > best_count) {
                    (best, best_count) = (s, count);
                }
            }
            s += l;
        }
        best
    }

    /// Lists the children of the node at `level` other than the first one
    /// explored (the partition must be the node's), in increasing order,
    /// leaving out every vertex that a stored automorphism fixing the path
    /// to the node maps onto a smaller one: its subtree is equivalent to an
    /// explored one (nauty's pruning with fixed points and cycle minima).
    fn list_children(&mut self, level: usize) {
        let words = self.words;
        self.allowed.clear();
        self.allowed.resize(words, u64::MAX);
        let path = &self.chosen[..level];
        for set in self.fix_mcr.chunks_exact(2 * words) {
            let (fix, mcr) = set.split_at(words);
            if path
                .iter()
                .all(|&v| fix[v as usize / 64] >> (v % 64) & 1 == 1)
            {
                for (a, m) in self.allowed.iter_mut().zip(mcr) {
                    *a &= m;
                }
            }
        }
        let target = self.target[level] as usize;
        let len = self.part.len[target] as usize;
        let off = self.cand_off[level];
        self.cands.truncate(off);
        let first = self.chosen[level];
        for i in target..target + len {
            let v = self.part.lab[i];
            if v != first && self.allowed[v as usize / 64] >> (v % 64) & 1 == 1 {
                self.cands.push(v);
            }
        }
        self.cands[off..].sort_unstable();
        self.cand_off[level + 1] = self.cands.len();
        // One before the list: advancing moves to its first entry.
        self.cand_idx[level] = off.wrapping_sub(1);
        self.listed[level] = true;
    }

    /// Stores the fixed points and cycle minima of the automorphism in
    /// `perm` for pruning, while fewer than [`PRUNE_GENERATORS`] are stored.
    fn store_fix_mcr(&mut self) {
        let words = self.words;
        if self.fix_mcr.len() >= PRUNE_GENERATORS * 2 * words {
            return;
        }
        let base = self.fix_mcr.len();
        self.fix_mcr.resize(base + 2 * words, 0);
        let (fix, mcr) = self.fix_mcr[base..].split_at_mut(words);
        let seen = &mut self.seen;
        seen.clear();
        seen.resize(words, 0);
        let perm = &self.perm[..];
        for (v, &image) in perm.iter().enumerate() {
            let (word, bit) = (v / 64, 1u64 << (v % 64));
            if seen[word] & bit != 0 {
                continue;
            }
            // Cycles are entered at their smallest vertex.
            mcr[word] |= bit;
            let mut x = image as usize;
            if x == v {
                // A fixed point: no later vertex lies on its cycle.
                fix[word] |= bit;
                continue;
            }
            while x != v {
                seen[x / 64] |= 1 << (x % 64);
                x = perm[x] as usize;
            }
        }
    }

    /// Compares the first path's traces up to level `k` with the best
    /// path's.
    fn first_prefix_vs_best(&self, k: usize) -> Ordering {
        for i in 0..=k {
            if i > self.best_depth {
                return Ordering::Greater;
            }
            let first = &self.first_events[self.first_off[i]..self.first_off[i + 1]];
            let best = &self.best_events[self.best_off[i]..self.best_off[i + 1]];
            match first.cmp(best) {
                Ordering::Equal => {}
                other => return other,
            }
        }
        Ordering::Equal
    }

    /// Depth-first exploration of the subtree of the child
    /// `chosen[k]` of the first-path node at level `k`.
    fn explore(&mut self, g: &Graph, k: usize) {
        let mut level = k;
        'descend: loop {
            self.part.undo_to(self.mark[level]);
            let v = self.chosen[level];
            let s = self.part.individualise(v);
            self.refiner.enqueue(&self.part, s);
            self.nodes += 1;
            // A search tree can be huge: stop with the run (the caller
            // sees the budget out and discards the result).
            if workers::budget::tripped_every(self.nodes).is_some() {
                return;
            }
            let child = level + 1;
            let mut resume = level;
            match self.process_node(g, child, true) {
                None => {}
                Some(false) => {
                    self.mark[child] = self.part.mark();
                    self.choose_target(g, child, false);
                    level = child;
                    continue 'descend;
                }
                Some(true) => {
                    certificate(
                        g,
                        &self.part.lab,
                        &self.part.pos,
                        &mut self.cert_cursor,
                        &mut self.cur_cert,
                    );
                    if self.eq_first[child] && self.cur_cert == self.first_cert {
                        self.record_automorphism(g, true);
                        return;
                    }
                    let better = match self.cmp_best[child] {
                        Ordering::Less => true,
                        Ordering::Equal => match self.cur_cert.cmp(self.best_cert()) {
                            Ordering::Less => true,
                            Ordering::Equal => {
                                self.record_automorphism(g, false);
                                resume = self.best_div;
                                false
                            }
                            Ordering::Greater => false,
                        },
                        Ordering::Greater => false,
                    };
                    if better {
                        self.new_best(child, k);
                    }
                }
            }
            // Move on to the next child of `resume` or of an ancestor.
            let mut lv = resume;
            loop {
                if lv <= k {
                    return;
                }
                if !self.listed[lv] {
                    self.part.undo_to(self.mark[lv]);
                    self.list_children(lv);
                }
                self.cand_idx[lv] = self.cand_idx[lv].wrapping_add(1);
                if self.cand_idx[lv] < self.cand_off[lv + 1] {
                    self.chosen[lv] = self.cands[self.cand_idx[lv]];
                    self.best_div = self.best_div.min(lv);
                    level = lv;
                    continue 'descend;
                }
                lv -= 1;
            }
        }
    }

    /// Makes the current leaf at level `leaf` (below first-path level `k`)
    /// the best one.
    fn new_best(&mut self, leaf: usize, k: usize) {
        std::mem::swap(&mut self.best_cert, &mut self.cur_cert);
        self.best_is_first = false;
        self.best_lab.clone_from(&self.part.lab);
        let end = self.event_off[leaf + 1];
        self.best_events.clear();
        self.best_events.extend_from_slice(&self.events[..end]);
        self.best_off.clear();
        self.best_off
            .extend_from_slice(&self.event_off[..=leaf + 1]);
        self.best_depth = leaf;
        self.best_div = leaf;
        for c in &mut self.cmp_best[k..=leaf] {
            *c = Ordering::Equal;
        }
    }

    /// The best leaf's certificate.
    fn best_cert(&self) -> &Vec<u32> {
        if self.best_is_first {
            &self.first_cert
        } else {
            &self.best_cert
        }
    }

    /// Records the automorphism mapping the current leaf onto the first
    /// leaf (`to_first`) or the best leaf.
    fn record_automorphism(&mut self, g: &Graph, to_first: bool) {
        let reference = if to_first {
            &self.first_lab
        } else {
            &self.best_lab
        };
        for (i, &v) in self.part.lab.iter().enumerate() {
            self.perm[v as usize] = reference[i];
        }
        debug_assert!(g.maps_edges(&self.perm), "not an automorphism");
        self.generators.extend_from_slice(&self.perm);
        self.orbits.add_permutation(&self.perm);
        self.store_fix_mcr();
    }

    /// At a homogeneous first leaf, every permutation within cells is an
    /// automorphism: records a transposition and a cycle per cell.
    fn add_cell_symmetries(&mut self, g: &Graph) {
        let n = self.part.n();
        let mut s = 0;
        while s < n {
            let l = self.part.len[s] as usize;
            if l > 1 {
                for (i, p) in self.perm.iter_mut().enumerate() {
                    *p = i as u32;
                }
                let (a, b) = (self.part.lab[s], self.part.lab[s + 1]);
                self.perm[a as usize] = b;
                self.perm[b as usize] = a;
                debug_assert!(g.maps_edges(&self.perm));
                self.generators.extend_from_slice(&self.perm);
                self.orbits.add_permutation(&self.perm);
                self.store_fix_mcr();
                if l > 2 {
                    for i in 0..l {
                        let next = self.part.lab[s + (i + 1) % l];
                        self.perm[self.part.lab[s + i] as usize] = next;
                    }
                    debug_assert!(g.maps_edges(&self.perm));
                    self.generators.extend_from_slice(&self.perm);
                    self.orbits.add_permutation(&self.perm);
                    self.store_fix_mcr();
                }
                for f in 2..=l {
                    self.multiply_group_size(f as f64);
                }
            }
            s += l;
        }
    }

    fn multiply_group_size(&mut self, x: f64) {
        self.group_mantissa *= x;
        while self.group_mantissa >= 10.0 {
            self.group_mantissa /= 10.0;
            self.group_exponent += 1;
        }
    }

    /// The canonical labelling: position `i` of the canonical form holds
    /// vertex `labelling()[i]`.
    pub fn labelling(&self) -> &[u32] {
        &self.best_lab
    }

    /// The canonical form as words: vertex count, colour classes, then the
    /// canonically relabelled out-adjacency rows (see [`super::form`]).
    pub fn form(&self) -> &[u32] {
        &self.form
    }

    /// The canonical form as an owned, hashable value.
    pub fn canon_form(&self) -> CanonForm {
        CanonForm(self.form.clone().into_boxed_slice())
    }

    /// A 128-bit hash of the canonical form.
    pub fn form_hash(&self) -> u128 {
        form::hash_words(&self.form)
    }

    /// Generators of the automorphism group, each as the image of every
    /// vertex.
    pub fn generators(&self) -> impl Iterator<Item = &[u32]> {
        let n = self.best_lab.len().max(1);
        self.generators.chunks_exact(n)
    }

    /// Number of generators found.
    pub fn generator_count(&self) -> usize {
        self.generators
            .len()
            .checked_div(self.best_lab.len())
            .unwrap_or(0)
    }

    /// The orbit of each vertex, named by its smallest vertex.
    pub fn orbits(&self) -> &[u32] {
        &self.orbit_reps
    }

    /// The order of the automorphism group as `mantissa * 10^exponent`.
    pub fn group_size(&self) -> (f64, i32) {
        (self.group_mantissa, self.group_exponent)
    }

    /// Number of search-tree nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
