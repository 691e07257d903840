//! The product of the model's graph and a Büchi automaton, as an implicit
//! [`Graph`]: its states are pairs `(v, q)` of a model state and an
//! automaton state, numbered `v * |Q| + q`, and its edges are made from the
//! model graph's edges when the search asks for them. Nothing of the
//! product is stored beyond what the search keeps per state.
//!
//! A product state `(v, q)` reads the letter of `v` in `q`: the state
//! atoms (`{p}`, `e(op)`, `deadlock`) hold on `v`, the step atom `[op]` on
//! the step taken from `v`. The product moves from `(v, q)` along each
//! model step `v -> w` whose letter `q`'s label accepts, to `(w, q')` for
//! every automaton successor `q'` whose label the state atoms of `w` do not
//! already contradict (such a state could read no letter).

use super::buchi::Buchi;
use super::emptiness::Graph;
use super::lettered::{STUTTER, step_bits};
use crate::temporal::graph::StateGraph;

/// The product (see the module docs) over a model graph that labels each
/// state with its letter.
pub struct ProductGraph<'a> {
    graph: &'a StateGraph,
    /// The label word that holds the letter.
    letter_word: usize,
    buchi: &'a Buchi,
    automaton: u32,
    /// Per automaton state, the atoms its label needs to hold, and to fail.
    must: Vec<u64>,
    must_not: Vec<u64>,
    /// The bits of the state atoms (all but `[op]`).
    state_atoms: u64,
    /// The step atoms' bits per group.
    taken: &'a [u64],
    /// The step atoms with arguments: bit, tag bit.
    with_args: &'a [(u32, u32)],
}

impl<'a> ProductGraph<'a> {
    /// The product of `graph` (the letters in label word `letter_word`)
    /// and `buchi`; `taken[group]` holds the step atoms true on a step of
    /// `group`, `with_args` the step atoms with arguments (bit, tag bit;
    /// [`step_bits`]) and `state_atoms` the bits of the others.
    pub fn new(
        graph: &'a StateGraph,
        letter_word: usize,
        buchi: &'a Buchi,
        state_atoms: u64,
        (taken, with_args): (&'a [u64], &'a [(u32, u32)]),
    ) -> Self {
        let literals = |positive: bool| -> Vec<u64> {
            buchi
                .labels
                .iter()
                .map(|label| {
                    label
                        .iter()
                        .filter(|l| l.positive == positive)
                        .fold(0u64, |m, l| m | 1 << l.atom)
                })
                .collect()
        };
        ProductGraph {
            graph,
            letter_word,
            buchi,
            automaton: buchi.len() as u32,
            must: literals(true),
            must_not: literals(false),
            state_atoms,
            taken,
            with_args,
        }
    }

    /// The letter bits of the step tagged `tag`.
    #[inline]
    fn step(&self, tag: u64) -> u64 {
        if tag as u32 == STUTTER {
            0
        } else {
            step_bits(self.taken, self.with_args, tag)
        }
    }

    /// The whole tag of an edge from product state `p` to `to` whose
    /// group is `group` (as [`Graph::edges`] gives it), for replaying a
    /// counterexample: the first such model edge whose letter `p` reads.
    pub fn edge_tag(&self, p: u32, to: u32, group: u32) -> Option<u64> {
        let (v, q) = (self.model_state(p), self.automaton_state(p));
        let letter = self.letter(v);
        self.graph.edge_tags(v).find_map(|(w, tag)| {
            let t = tag[0];
            (w == self.model_state(to) && t as u32 == group && self.reads(q, letter | self.step(t)))
                .then_some(t)
        })
    }

    /// The model state of product state `p`.
    #[inline]
    pub fn model_state(&self, p: u32) -> u32 {
        p / self.automaton
    }

    /// The automaton state of product state `p`.
    #[inline]
    pub fn automaton_state(&self, p: u32) -> u32 {
        p % self.automaton
    }

    /// The letter of model state `v`.
    #[inline]
    fn letter(&self, v: u32) -> u64 {
        self.graph.labels(v)[self.letter_word]
    }

    /// Whether automaton state `q` reads `letter`.
    #[inline]
    fn reads(&self, q: u32, letter: u64) -> bool {
        let q = q as usize;
        self.must[q] & !letter == 0 && self.must_not[q] & letter == 0
    }

    /// Whether `q`'s label can be read in a state whose state atoms are
    /// `letter` (the step atoms are not known yet).
    #[inline]
    fn fits(&self, q: u32, letter: u64) -> bool {
        let q = q as usize;
        self.must[q] & self.state_atoms & !letter == 0 && self.must_not[q] & letter == 0
    }
}

impl Graph for ProductGraph<'_> {
    fn bound(&self) -> usize {
        self.graph.len() * self.automaton as usize
    }

    fn initial(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut v = 0u32;
        while (v as usize) < self.graph.len() && self.graph.parent(v).is_none() {
            let letter = self.letter(v);
            for &q in &self.buchi.initial {
                if self.fits(q, letter) {
                    out.push(v * self.automaton + q);
                }
            }
            v += 1;
        }
        out
    }

    #[inline]
    fn edges(&self, p: u32, out: &mut Vec<(u32, u32)>) {
        let (v, q) = (self.model_state(p), self.automaton_state(p));
        let letter = self.letter(v);
        let next = &self.buchi.successors[q as usize];
        // The targets' letters are read below, one cache miss each: ask
        // for them all first, so that the misses overlap.
        for &w in self.graph.successors(v) {
            self.graph.prefetch_labels(w);
        }
        for (w, tag) in self.graph.edge_tags(v) {
            let tag = tag[0];
            if !self.reads(q, letter | self.step(tag)) {
                continue;
            }
            let target = self.letter(w);
            for &q2 in next {
                if self.fits(q2, target) {
                    out.push((w * self.automaton + q2, tag as u32));
                }
            }
        }
    }
}
