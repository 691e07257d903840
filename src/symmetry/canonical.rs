//! One representative state per orbit, by canonical labelling.
//!
//! The state becomes a coloured graph ([`super::graph`]); the canonical
//! labelling of that graph orders its atoms (the interchangeable
//! elements). The *derived permutation* sends the atom at the `r`-th
//! canonical position among the atoms of its set to the `r`-th
//! interchangeable element of that set. Applied to the state it gives the
//! representative: the canonical labelling of a permuted state differs from
//! the original's by an automorphism of the graph, and automorphisms fix the
//! state (see the module docs of [`super::graph`]), so every state of an
//! orbit gets the same representative, which is itself in the orbit.
//! The visited set then stores ordinary states and nothing downstream needs
//! to know about symmetry. A state without any interchangeable element is
//! its own representative and skips the labelling.
//!
//! Speed (each part exact on its own, see its docs):
//! - `memo`: a per-thread table returns the representative of a state seen
//!   before;
//! - `shortcut`: most states never reach the search: colour refinement
//!   orders the atoms, and that order is used when every tie is a pair of
//!   twins. Only states with ties that are not twins (cycles of a bijection
//!   without a distinguished element, say) are labelled by [`crate::canon`];
//! - `rename`: applies the derived permutation, remembering the renamed
//!   values of interned slots.

mod memo;
mod rename;
mod shortcut;

use super::graph::{GraphScratch, StateGraphs};
use super::{Interchangeable, Permutation};
use crate::b::state::StateLayout;
use crate::canon::{Graph, GraphBuilder, Workspace};
use memo::Memo;
use rename::Renamer;
use shortcut::Shortcut;

/// Computes canonical representatives of the states of one machine.
#[derive(Clone, Debug)]
pub struct Canonicaliser {
    graphs: StateGraphs,
    movable: Vec<Vec<u32>>,
    set_sizes: Vec<usize>,
}

/// Per-thread buffers of the [`Canonicaliser`]: allocation-free once warm
/// (except for interned slots, which are decoded, and the renaming memo).
#[derive(Debug)]
pub struct CanonScratch {
    graph_scratch: GraphScratch,
    builder: GraphBuilder,
    graph: Graph,
    workspace: Workspace,
    shortcut: Shortcut,
    memo: Memo,
    renamer: Renamer,
    perm: Permutation,
    next: Vec<usize>,
    /// The last representative.
    pub out: Vec<u64>,
    /// Number of states that went through the canonical labelling search.
    pub labelled: u64,
    /// Number of states ordered by the shortcut alone.
    pub shortcuts: u64,
    /// Number of states whose representative was found in the memo.
    pub remembered: u64,
}

impl Canonicaliser {
    /// The canonicaliser for states of `layout` using the slots
    /// `0..slot_limit` (see [`StateGraphs::new`]).
    pub fn new(layout: &StateLayout, sym: &Interchangeable, slot_limit: usize) -> Self {
        Canonicaliser {
            graphs: StateGraphs::new(layout, sym, slot_limit),
            movable: sym.movable.clone(),
            set_sizes: sym.set_sizes.clone(),
        }
    }

    /// Fresh per-thread buffers.
    pub fn new_scratch(&self) -> CanonScratch {
        CanonScratch {
            graph_scratch: GraphScratch::default(),
            builder: GraphBuilder::new(0),
            graph: Graph::default(),
            workspace: Workspace::new(),
            shortcut: Shortcut::default(),
            memo: Memo::default(),
            renamer: Renamer::default(),
            perm: Permutation::identity(&self.set_sizes),
            next: vec![0; self.set_sizes.len()],
            out: Vec::new(),
            labelled: 0,
            shortcuts: 0,
            remembered: 0,
        }
    }

    /// Computes the permutation that maps `state` to its representative
    /// into `scratch`; false when it is the identity because no
    /// interchangeable element occurs (then `scratch`'s permutation is
    /// unspecified).
    pub fn derive(&self, layout: &StateLayout, state: &[u64], scratch: &mut CanonScratch) -> bool {
        let gs = &mut scratch.graph_scratch;
        if !self.graphs.collect(layout, state, gs) {
            return false;
        }
        let atoms = self.graphs.atoms();
        if scratch.shortcut.derive(
            gs.colours(),
            gs.edges(),
            atoms,
            gs.occurs(),
            &self.movable,
            scratch.perm.images_mut(),
        ) {
            scratch.shortcuts += 1;
            return true;
        }
        self.label(scratch);
        true
    }

    /// The full search: canonical labelling of the graph in the scratch.
    fn label(&self, scratch: &mut CanonScratch) {
        scratch.graph_scratch.emit(&mut scratch.builder);
        scratch.builder.build_into(&mut scratch.graph);
        scratch.workspace.canonicalise(&scratch.graph);
        scratch.labelled += 1;
        let atoms = self.graphs.atoms();
        scratch.next.fill(0);
        let images = scratch.perm.images_mut();
        for &v in scratch.workspace.labelling() {
            if let Some(&(s, i)) = atoms.get(v as usize) {
                let r = &mut scratch.next[s as usize];
                images[s as usize][i as usize] = self.movable[s as usize][*r];
                *r += 1;
            }
        }
    }

    /// The representative of `state`, written to `scratch.out`.
    pub fn canonicalise(&self, layout: &StateLayout, state: &[u64], scratch: &mut CanonScratch) {
        if let Some(rep) = scratch.memo.get(state) {
            scratch.out.clear();
            scratch.out.extend_from_slice(rep);
            scratch.remembered += 1;
            return;
        }
        self.compute(layout, state, scratch);
        scratch.memo.put(state, &scratch.out);
    }

    /// [`Self::canonicalise`] without the memo.
    fn compute(&self, layout: &StateLayout, state: &[u64], scratch: &mut CanonScratch) {
        if self.derive(layout, state, scratch) && !scratch.perm.is_identity() {
            let mut out = std::mem::take(&mut scratch.out);
            // A value that fits its slot still fits it after renaming.
            if scratch
                .renamer
                .apply(&scratch.perm, layout, state, &mut out)
                .is_err()
            {
                out.clear();
                out.extend_from_slice(state);
            }
            scratch.out = out;
        } else {
            scratch.out.clear();
            scratch.out.extend_from_slice(state);
        }
    }

    /// The permutation derived by the last successful [`Self::derive`].
    pub fn permutation<'s>(&self, scratch: &'s CanonScratch) -> &'s Permutation {
        &scratch.perm
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::b::types::{GivenSet, MachineTypes, Type};
    use crate::b::value::{Elem, Value};
    use crate::symmetry::all_permutations;
    use std::collections::HashSet;

    /// Every relation `r <: D * D` on three elements, with `c : D`: the
    /// representatives are one per orbit, whichever way (shortcut or
    /// search) each state took.
    #[test]
    fn representatives_are_one_per_orbit_on_all_relations() {
        let n = 3u32;
        let dt = Type::Given(0);
        let r = Type::Set(Box::new(Type::Pair(
            Box::new(dt.clone()),
            Box::new(dt.clone()),
        )));
        let types = MachineTypes {
            bound: Default::default(),
            given_sets: vec![GivenSet {
                name: "D".into(),
                elements: (1..=n).map(|i| format!("D{i}")).collect(),
                deferred: true,
            }],
            constants: vec![],
            variables: vec![dt, r],
            operations: vec![],
            maxint: 3,
            minint: -1,
        };
        let layout = StateLayout::new(&[], &["c".into(), "r".into()], &types);
        let sym = Interchangeable {
            movable: vec![(0..n).collect()],
            set_sizes: vec![n as usize],
        };
        let canon = Canonicaliser::new(&layout, &sym, 2);
        let mut scratch = canon.new_scratch();
        let perms = all_permutations(&sym.set_sizes, &sym.movable);
        let d = |i: u32| Value::Elem(Elem { set: 0, index: i });
        let mut words = Vec::new();
        let mut image = Vec::new();
        let mut orbits = HashSet::new();
        let mut reps = HashSet::new();
        for c in 0..n {
            for bits in 0u32..1 << (n * n) {
                let pairs = (0..n * n)
                    .filter(|k| bits >> k & 1 == 1)
                    .map(|k| Value::pair(d(k / n), d(k % n)))
                    .collect();
                let vars = [d(c), Value::set_from_vec(pairs)];
                layout.encode(&[], &vars, &mut words).unwrap();
                canon.canonicalise(&layout, &words, &mut scratch);
                let rep = scratch.out.clone();
                let mut orbit = Vec::new();
                for p in &perms {
                    p.apply_state(&layout, &words, &mut image).unwrap();
                    orbit.push(image.clone());
                    canon.canonicalise(&layout, &image, &mut scratch);
                    assert_eq!(scratch.out, rep, "{vars:?} under {p:?}");
                }
                assert!(
                    orbit.contains(&rep),
                    "{vars:?}: representative off its orbit"
                );
                orbits.insert(orbit.into_iter().min().unwrap());
                reps.insert(rep);
            }
        }
        assert_eq!(reps.len(), orbits.len());
        // Both ways were taken: cycles without a marked element need the search.
        assert!(scratch.shortcuts > 0 && scratch.labelled > 0);
    }
}
