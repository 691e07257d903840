//! The individualisation–refinement search (McKay 1981, "Practical graph
//! isomorphism"; thesis Alg. 3.14), with the pruning of nauty and Traces.
//!
//! Every node of the search tree is an equitable ordered partition. A node
//! is a leaf when its partition is discrete or homogeneous (see
//! [`super::homogeneous`]); otherwise its children individualise each vertex
//! of a *target cell* (the first largest non-singleton cell) and refine.
//! Every node gets a *trace*: the hash of its refinement. The canonical leaf
//! is the one whose sequence of traces, then certificate, is smallest; it is
//! a function of the isomorphism class, since the tree of a relabelled graph
//! is the relabelled tree.
//!
//! The search first descends the *first path* (always the smallest vertex of
//! the target cell), then explores the remaining children of the first-path
//! nodes from the bottom up, depth first, with three kinds of pruning:
//! - a node whose trace sequence is greater than the best leaf's prefix and
//!   differs from the first path's cannot lead to the canonical leaf nor to
//!   an automorphism, so its subtree is cut (the trace comparison of Traces);
//! - a leaf with the first leaf's certificate yields an automorphism that
//!   maps the current subtree onto the first path's, so the search returns
//!   to the first-path node; a leaf equal to the best leaf returns to the
//!   common ancestor with the best leaf (nauty);
//! - at a first-path node, a child in the same orbit as an explored child
//!   under the automorphisms found so far (all of which fix the path above)
//!   is skipped (nauty's orbit pruning).
//!
//! The automorphisms found generate the automorphism group; the product of
//! the orbit sizes of the first-path vertices gives its order.

use std::cmp::Ordering;

use super::form::{self, CanonForm, certificate, write_form};
use super::graph::{Graph, splitmix};
use super::homogeneous::is_homogeneous;
use super::orbits::Orbits;
use super::partition::Partition;
use super::refine::Refiner;

/// Reusable state for canonical labelling. Keep one per thread: after the
/// first few graphs of a given size, labelling allocates nothing.
///
/// Results of the last [`Workspace::canonicalise`] call are read through
/// the accessors. The labelling is stable across runs, threads and
/// platforms: it depends only on the graph.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    part: Partition,
    refiner: Refiner,
    orbits: Orbits,
    classes: Vec<(u32, u32)>,
    /// Per level: undo mark of the node's partition.
    mark: Vec<usize>,
    /// Per level: target cell of the node on the current path.
    target: Vec<u32>,
    /// Per level: the child currently explored.
    chosen: Vec<u32>,
    cur_trace: Vec<u64>,
    first_trace: Vec<u64>,
    best_trace: Vec<u64>,
    first_target: Vec<u32>,
    first_vertex: Vec<u32>,
    eq_first: Vec<bool>,
    cmp_best: Vec<Ordering>,
    first_depth: usize,
    best_depth: usize,
    /// Deepest level shared by the current path and the best leaf's path.
    best_div: usize,
    first_cert: Vec<u64>,
    best_cert: Vec<u64>,
    cur_cert: Vec<u64>,
    first_lab: Vec<u32>,
    best_lab: Vec<u32>,
    perm: Vec<u32>,
    generators: Vec<u32>,
    sig: Vec<u64>,
    rep: Vec<u64>,
    form: Vec<u32>,
    orbit_reps: Vec<u32>,
    group_mantissa: f64,
    group_exponent: i32,
    nodes: u64,
}

/// Hash of a node: refinement trace plus whether the node is a leaf.
fn node_hash(refinement: u64, leaf: bool) -> u64 {
    splitmix(refinement ^ if leaf { 0x6c65_6166 } else { 0 })
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes the canonical labelling, form, automorphism generators and
    /// orbits of `g`. Read them with the accessors.
    pub fn canonicalise(&mut self, g: &Graph) {
        let n = g.vertex_count();
        self.reset(n);
        self.part.init_by_colour(&g.colour, &mut self.classes);
        self.refiner.enqueue_all(&self.part);
        let h = self.refiner.refine(g, &mut self.part);
        let mut leaf = self.is_leaf(g);
        self.cur_trace[0] = node_hash(h, leaf);
        self.nodes = 1;

        // The first path.
        let mut level = 0;
        loop {
            self.mark[level] = self.part.mark();
            if leaf {
                break;
            }
            let t = self.target_cell();
            let v = self.part.next_in_cell(t, None).expect("empty cell");
            self.target[level] = t as u32;
            self.chosen[level] = v;
            let h = self.individualise_and_refine(g, v);
            level += 1;
            leaf = self.is_leaf(g);
            self.cur_trace[level] = node_hash(h, leaf);
        }
        self.first_depth = level;
        self.best_depth = level;
        self.best_div = level;
        self.first_trace[..=level].copy_from_slice(&self.cur_trace[..=level]);
        self.best_trace[..=level].copy_from_slice(&self.cur_trace[..=level]);
        self.first_target[..level].copy_from_slice(&self.target[..level]);
        self.first_vertex[..level].copy_from_slice(&self.chosen[..level]);
        certificate(g, &self.part.lab, &self.part.pos, &mut self.first_cert);
        self.best_cert.clone_from(&self.first_cert);
        self.first_lab.clone_from(&self.part.lab);
        self.best_lab.clone_from(&self.part.lab);
        self.add_cell_symmetries(g);

        // The other children of the first-path nodes, bottom up.
        for k in (0..self.first_depth).rev() {
            let t = self.first_target[k] as usize;
            let mut prev = self.first_vertex[k];
            loop {
                self.part.undo_to(self.mark[k]);
                let Some(w) = self.part.next_in_cell(t, Some(prev)) else {
                    break;
                };
                prev = w;
                if self.orbits.find(w) != w {
                    continue;
                }
                self.eq_first[k] = true;
                self.cmp_best[k] = self.first_prefix_vs_best(k);
                self.best_div = self.best_div.min(k);
                self.chosen[k] = w;
                self.explore(g, k);
            }
            let size = self.orbits.orbit_size(self.first_vertex[k]);
            self.multiply_group_size(size as f64);
        }

        certificate(g, &self.best_lab, &self.pos_of_best(), &mut self.cur_cert);
        debug_assert_eq!(self.cur_cert, self.best_cert);
        write_form(n, &self.classes, &self.best_cert, &mut self.form);
        self.orbits.write_representatives(&mut self.orbit_reps);
    }

    /// Compares the traces of the first path up to level `k` with the best
    /// leaf's (a best path that ends earlier counts as smaller).
    fn first_prefix_vs_best(&self, k: usize) -> Ordering {
        for i in 0..=k {
            if i > self.best_depth {
                return Ordering::Greater;
            }
            match self.first_trace[i].cmp(&self.best_trace[i]) {
                Ordering::Equal => {}
                other => return other,
            }
        }
        Ordering::Equal
    }

    /// Inverse of the best labelling (allocates; used once per call).
    fn pos_of_best(&self) -> Vec<u32> {
        let mut pos = vec![0; self.best_lab.len()];
        for (i, &v) in self.best_lab.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
        pos
    }

    fn reset(&mut self, n: usize) {
        self.refiner.reset(n);
        self.orbits.reset(n);
        let levels = n + 1;
        self.mark.clear();
        self.mark.resize(levels, 0);
        for v in [
            &mut self.target,
            &mut self.chosen,
            &mut self.first_target,
            &mut self.first_vertex,
        ] {
            v.clear();
            v.resize(levels, 0);
        }
        for v in [
            &mut self.cur_trace,
            &mut self.first_trace,
            &mut self.best_trace,
        ] {
            v.clear();
            v.resize(levels, 0);
        }
        self.eq_first.clear();
        self.eq_first.resize(levels, false);
        self.cmp_best.clear();
        self.cmp_best.resize(levels, Ordering::Equal);
        self.generators.clear();
        self.perm.clear();
        self.perm.resize(n, 0);
        self.group_mantissa = 1.0;
        self.group_exponent = 0;
    }

    /// Individualises `v` in the current partition and refines.
    fn individualise_and_refine(&mut self, g: &Graph, v: u32) -> u64 {
        let s = self.part.individualise(v);
        self.refiner.enqueue(&self.part, s);
        self.nodes += 1;
        self.refiner.refine(g, &mut self.part)
    }

    fn is_leaf(&mut self, g: &Graph) -> bool {
        is_homogeneous(g, &self.part, &mut self.sig, &mut self.rep)
    }

    /// The first largest non-singleton cell.
    fn target_cell(&self) -> usize {
        let mut best = usize::MAX;
        let mut best_len = 1;
        for (s, l) in self.part.cells_iter() {
            if l > best_len {
                best = s;
                best_len = l;
            }
        }
        best
    }

    /// Depth-first exploration of the subtree of the child `chosen[k]` of
    /// the first-path node at level `k`.
    fn explore(&mut self, g: &Graph, k: usize) {
        let mut level = k;
        'descend: loop {
            self.part.undo_to(self.mark[level]);
            let h = self.individualise_and_refine(g, self.chosen[level]);
            let child = level + 1;
            let leaf = self.is_leaf(g);
            let trace = node_hash(h, leaf);
            self.cur_trace[child] = trace;
            let eq_first = self.eq_first[level]
                && child <= self.first_depth
                && trace == self.first_trace[child];
            let cmp_best = match self.cmp_best[level] {
                Ordering::Equal if child <= self.best_depth => trace.cmp(&self.best_trace[child]),
                Ordering::Equal => Ordering::Greater,
                other => other,
            };
            let mut resume = level;
            if eq_first || cmp_best != Ordering::Greater {
                if !leaf {
                    self.eq_first[child] = eq_first;
                    self.cmp_best[child] = cmp_best;
                    self.mark[child] = self.part.mark();
                    let t = self.target_cell();
                    self.target[child] = t as u32;
                    self.chosen[child] = self.part.next_in_cell(t, None).expect("empty cell");
                    level = child;
                    continue 'descend;
                }
                certificate(g, &self.part.lab, &self.part.pos, &mut self.cur_cert);
                if eq_first && self.cur_cert == self.first_cert {
                    self.record_automorphism(g, true);
                    return;
                }
                let better = match cmp_best {
                    Ordering::Less => true,
                    Ordering::Equal => match self.cur_cert.cmp(&self.best_cert) {
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
                    std::mem::swap(&mut self.best_cert, &mut self.cur_cert);
                    self.best_lab.clone_from(&self.part.lab);
                    self.best_trace[..=child].copy_from_slice(&self.cur_trace[..=child]);
                    self.best_depth = child;
                    self.best_div = child;
                    for c in &mut self.cmp_best[k..=level] {
                        *c = Ordering::Equal;
                    }
                }
            }
            // Move on to the next child of `resume` or of an ancestor.
            let mut lv = resume;
            loop {
                if lv <= k {
                    return;
                }
                self.part.undo_to(self.mark[lv]);
                let t = self.target[lv] as usize;
                if let Some(next) = self.part.next_in_cell(t, Some(self.chosen[lv])) {
                    self.chosen[lv] = next;
                    self.best_div = self.best_div.min(lv);
                    level = lv;
                    continue 'descend;
                }
                lv -= 1;
            }
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
        debug_assert!(g.is_automorphism(&self.perm), "not an automorphism");
        self.generators.extend_from_slice(&self.perm);
        self.orbits.add_permutation(&self.perm);
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
                let cell = &self.part.lab[s..s + l];
                self.perm[cell[0] as usize] = cell[1];
                self.perm[cell[1] as usize] = cell[0];
                debug_assert!(g.is_automorphism(&self.perm));
                self.generators.extend_from_slice(&self.perm);
                self.orbits.add_permutation(&self.perm);
                if l > 2 {
                    for i in 0..l {
                        self.perm[cell[i] as usize] = cell[(i + 1) % l];
                    }
                    debug_assert!(g.is_automorphism(&self.perm));
                    self.generators.extend_from_slice(&self.perm);
                    self.orbits.add_permutation(&self.perm);
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
