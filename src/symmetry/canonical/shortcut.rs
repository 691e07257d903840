//! An exact shortcut past the canonical labelling search: order the atoms
//! by an isomorphism invariant, and use that order when the invariant
//! leaves no real choice.
//!
//! Colour refinement (1-dimensional Weisfeiler–Leman, the vertex-invariant
//! refinement of the thesis's §3.2 and of the symmetry markers' §3.7.5)
//! hashes every vertex of the state graph by its colour, then repeatedly by
//! its hash and the multiset of its neighbours' hashes per edge colour and
//! direction, until the number of distinct hashes stops growing. The hash of
//! a vertex depends only on the graph's structure, never on vertex numbers,
//! so a permutation `p` of the state gives atom `p(a)` of `p(s)` the hash of
//! atom `a` of `s`.
//!
//! Sort the interchangeable elements of each class by their hash. If atoms
//! that share a hash are *twins* (swapping two of them maps the graph onto
//! itself, checked edge by edge), every permutation inside a tie class is an
//! automorphism, hence fixes the state (see `super::super::graph`), and the
//! state renamed by the sorted order is the same for every state of the
//! orbit: for `p(s)` the order differs from `s`'s order composed with `p`
//! only inside tie classes. Whether the shortcut applies (all ties are
//! twins) is itself the same for all states of an orbit, so states of one
//! orbit all take the shortcut or all take the full search: the count of
//! representatives stays the number of orbits.
//!
//! Elements that do not occur in the state have no edges: they tie and are
//! twins, as they should be. A hash collision between non-equivalent atoms
//! only makes a tie that fails the twin test, which falls back to the search.

use crate::symmetry::markers::mix;

/// Spreads an edge colour into a key.
const KEY: u64 = 0xd6e8_feb8_6659_fd93;
/// Odd multiplier of a neighbour's contribution.
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

/// Per-thread buffers of the shortcut (allocation-free once warm).
#[derive(Debug, Default)]
pub(super) struct Shortcut {
    hash: Vec<u64>,
    next: Vec<u64>,
    sorted: Vec<u64>,
    /// Per atom, in edge order: `(other end, colour * 2 + 1 if the atom is
    /// the edge's head)` for every edge at it (a loop once, as a tail).
    incident: Vec<(u32, u32)>,
    /// Start of each atom's run in `incident` (`atoms + 1` entries).
    start: Vec<u32>,
    /// Per occurring atom `set << 96 | hash << 32 | atom`, sorted (atoms of
    /// a class are numbered in the order of their elements).
    order: Vec<u128>,
    /// Whether `incident` and `start` describe the current graph.
    indexed: bool,
    around: Vec<(u32, u32)>,
    swapped: Vec<(u32, u32)>,
    /// Number of refinement rounds of the last call (for tests).
    pub rounds: u32,
}

impl Shortcut {
    /// Orders the atoms (vertices `0..atoms.len()` of the graph given by
    /// `colours` and `edges`; atom `a` is element `atoms[a] = (set, index)`,
    /// grouped by set in the order of `movable`; `occurs[a]` says whether
    /// it occurs in the state) and writes the derived permutation into
    /// `images`: the `r`-th atom of class `s` in the order goes to
    /// `movable[s][r]`, the atoms that do not occur last, by index. Returns
    /// false, with `images` unspecified, when a tie is not a twin.
    pub(super) fn derive(
        &mut self,
        colours: &[u32],
        edges: &[(u32, u32, u32)],
        atoms: &[(u32, u32)],
        occurs: &[bool],
        movable: &[Vec<u32>],
        images: &mut [Vec<u32>],
    ) -> bool {
        self.hash.clear();
        self.hash.extend(colours.iter().map(|&c| u64::from(c)));
        self.indexed = false;
        self.rounds = 0;
        let mut classes = 0;
        loop {
            self.round(edges);
            self.rounds += 1;
            if self.atoms_resolved(edges, atoms, occurs) {
                break;
            }
            // Go on while refinement still splits classes (from the second
            // round on; every decision here depends on invariants only).
            let now = self.count_classes();
            if self.rounds > 1 && now <= classes {
                return false;
            }
            classes = now;
        }
        let mut k = 0;
        let mut base = 0;
        for (s, class) in movable.iter().enumerate() {
            let mut rank = 0;
            while let Some(&key) = self.order.get(k).filter(|&&o| (o >> 96) as usize == s) {
                let i = atoms[key as u32 as usize].1;
                images[s][i as usize] = class[rank];
                rank += 1;
                k += 1;
            }
            for (j, &i) in class.iter().enumerate() {
                if !occurs[base + j] {
                    images[s][i as usize] = class[rank];
                    rank += 1;
                }
            }
            base += class.len();
        }
        true
    }

    /// One round of colour refinement: each vertex's hash absorbs the
    /// multiset of its neighbours' hashes per edge colour and direction.
    fn round(&mut self, edges: &[(u32, u32, u32)]) {
        self.next.clear();
        self.next.resize(self.hash.len(), 0);
        for &(a, b, c) in edges {
            let (ha, hb) = (self.hash[a as usize], self.hash[b as usize]);
            let out = u64::from(c).wrapping_mul(KEY);
            let into = !out;
            // An odd multiplier is a bijection, so the sum is a sum of
            // well-spread values: a multiset hash of the neighbours.
            self.next[a as usize] =
                self.next[a as usize].wrapping_add((hb ^ out).wrapping_mul(SPREAD));
            self.next[b as usize] =
                self.next[b as usize].wrapping_add((ha ^ into).wrapping_mul(SPREAD));
        }
        for (h, acc) in self.hash.iter_mut().zip(&self.next) {
            *h = mix(h.rotate_left(23) ^ *acc);
        }
    }

    /// Sorts the atoms that occur by class and hash into `order`; true
    /// when atoms that share both are twins. (Atoms that do not occur have
    /// no edges: they are twins of each other and of no other atom.)
    fn atoms_resolved(
        &mut self,
        edges: &[(u32, u32, u32)],
        atoms: &[(u32, u32)],
        occurs: &[bool],
    ) -> bool {
        self.order.clear();
        for (a, (&(s, _), &occurs)) in atoms.iter().zip(occurs).enumerate() {
            if occurs {
                let key = u128::from(s) << 96 | u128::from(self.hash[a]) << 32 | a as u128;
                self.order.push(key);
            }
        }
        self.order.sort_unstable();
        for k in 1..self.order.len() {
            let (x, y) = (self.order[k - 1], self.order[k]);
            if x >> 32 == y >> 32 {
                if !self.indexed {
                    self.index_incidence(edges, atoms.len());
                    self.indexed = true;
                }
                if !self.twins(x as u32, y as u32) {
                    return false;
                }
            }
        }
        true
    }

    /// Number of distinct hashes among all vertices.
    fn count_classes(&mut self) -> usize {
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.hash);
        self.sorted.sort_unstable();
        self.sorted.dedup();
        self.sorted.len()
    }

    /// Fills `incident` and `start` (a counting sort): the edges at each
    /// atom, in edge order.
    fn index_incidence(&mut self, edges: &[(u32, u32, u32)], atoms: usize) {
        let atoms32 = atoms as u32;
        self.start.clear();
        self.start.resize(atoms + 2, 0);
        for &(a, b, _) in edges {
            if a < atoms32 {
                self.start[a as usize + 2] += 1;
            }
            if b < atoms32 && b != a {
                self.start[b as usize + 2] += 1;
            }
        }
        for k in 2..atoms + 2 {
            self.start[k] += self.start[k - 1];
        }
        let total = self.start[atoms + 1] as usize;
        self.incident.clear();
        self.incident.resize(total, (0, 0));
        for &(a, b, c) in edges {
            if a < atoms32 {
                let slot = &mut self.start[a as usize + 1];
                self.incident[*slot as usize] = (b, c << 1);
                *slot += 1;
            }
            if b < atoms32 && b != a {
                let slot = &mut self.start[b as usize + 1];
                self.incident[*slot as usize] = (a, c << 1 | 1);
                *slot += 1;
            }
        }
        self.start.pop();
    }

    /// Whether swapping atoms `a` and `b` maps the edge multiset onto
    /// itself: the edges at `a`, their ends swapped, are the edges at `b`
    /// (edges at neither are fixed; those at `b` follow by symmetry).
    fn twins(&mut self, a: u32, b: u32) -> bool {
        let (sa, ea) = (
            self.start[a as usize] as usize,
            self.start[a as usize + 1] as usize,
        );
        let (sb, eb) = (
            self.start[b as usize] as usize,
            self.start[b as usize + 1] as usize,
        );
        if ea - sa != eb - sb {
            return false;
        }
        let swap = |v: u32| {
            if v == a {
                b
            } else if v == b {
                a
            } else {
                v
            }
        };
        let (at_a, at_b) = (&self.incident[sa..ea], &self.incident[sb..eb]);
        // Usually both lists come in the same order (edges are built slot
        // by slot): then no sorting is needed.
        if at_a
            .iter()
            .zip(at_b)
            .all(|(&(x, cx), &y)| (swap(x), cx) == y)
        {
            return true;
        }
        self.around.clear();
        self.around
            .extend(at_a.iter().map(|&(x, cx)| (swap(x), cx)));
        self.swapped.clear();
        self.swapped.extend_from_slice(at_b);
        self.around.sort_unstable();
        self.swapped.sort_unstable();
        self.around == self.swapped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        colours: &[u32],
        edges: &[(u32, u32, u32)],
        atoms: usize,
    ) -> Option<(Vec<u32>, Vec<u64>)> {
        let atom_list: Vec<(u32, u32)> = (0..atoms as u32).map(|i| (0, i)).collect();
        let movable = vec![(0..atoms as u32).collect::<Vec<_>>()];
        let mut images = vec![vec![0; atoms]];
        let mut occurs = vec![false; atoms];
        for &(a, b, _) in edges {
            for v in [a, b] {
                if (v as usize) < atoms {
                    occurs[v as usize] = true;
                }
            }
        }
        let mut sc = Shortcut::default();
        sc.derive(colours, edges, &atom_list, &occurs, &movable, &mut images)
            .then(|| (images[0].clone(), sc.hash[..atoms].to_vec()))
    }

    #[test]
    fn twins_tie_and_distinct_atoms_are_ordered() {
        // Atoms 0..3; slot 4 holds {0, 2}, slot 5 holds 1.
        let colours = [0, 0, 0, 1, 2, 3];
        let edges = [(4, 0, 1), (4, 2, 1), (5, 1, 0)];
        let (images, hash) = run(&colours, &edges, 4).unwrap();
        assert_eq!(hash[0], hash[2]);
        assert_ne!(hash[0], hash[1]);
        // The same state with 0 and 1 swapped gets the same image state:
        // images map {0, 2} and 1 to the same positions.
        let edges2 = [(4, 1, 1), (4, 2, 1), (5, 0, 0)];
        let (images2, _) = run(&colours, &edges2, 4).unwrap();
        let set1: std::collections::BTreeSet<u32> = [images[0], images[2]].into();
        let set2: std::collections::BTreeSet<u32> = [images2[1], images2[2]].into();
        assert_eq!(set1, set2);
        assert_eq!(images[1], images2[0]);
    }

    #[test]
    fn a_tie_without_twins_falls_back() {
        // A directed 3-cycle on atoms 0, 1, 2: all tie, none are twins.
        let colours = [0, 0, 0, 1];
        let edges = [(0, 1, 4), (1, 2, 4), (2, 0, 4), (3, 0, 1)];
        // Atom 0 is marked by the slot: refinement separates all three.
        assert!(run(&colours, &edges, 3).is_some());
        let unmarked = [(0, 1, 4), (1, 2, 4), (2, 0, 4)];
        assert!(run(&colours[..3], &unmarked, 3).is_none());
    }

    #[test]
    fn an_edge_between_twins_counts_once() {
        // A symmetric pair 0 <-> 1: swapping maps the graph onto itself.
        let colours = [0, 0];
        let edges = [(0, 1, 4), (1, 0, 4)];
        assert!(run(&colours, &edges, 2).is_some());
        // One direction only: refinement tells the tail from the head.
        let (_, hash) = run(&colours, &edges[..1], 2).unwrap();
        assert_ne!(hash[0], hash[1]);
    }
}
