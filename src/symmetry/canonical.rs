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

use super::graph::{GraphScratch, StateGraphs};
use super::{Interchangeable, Permutation};
use crate::b::state::StateLayout;
use crate::canon::{Graph, GraphBuilder, Workspace};

/// Computes canonical representatives of the states of one machine.
#[derive(Clone, Debug)]
pub struct Canonicaliser {
    graphs: StateGraphs,
    movable: Vec<Vec<u32>>,
    set_sizes: Vec<usize>,
}

/// Per-thread buffers of the [`Canonicaliser`]: allocation-free once warm
/// (except for interned slots, which are decoded).
#[derive(Debug)]
pub struct CanonScratch {
    graph_scratch: GraphScratch,
    builder: GraphBuilder,
    graph: Graph,
    workspace: Workspace,
    perm: Permutation,
    next: Vec<usize>,
    /// The last representative.
    pub out: Vec<u64>,
    /// Number of states that went through canonical labelling.
    pub labelled: u64,
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
            perm: Permutation::identity(&self.set_sizes),
            next: vec![0; self.set_sizes.len()],
            out: Vec::new(),
            labelled: 0,
        }
    }

    /// Computes the permutation that maps `state` to its representative
    /// into `scratch`; false when it is the identity because no
    /// interchangeable element occurs (then `scratch`'s permutation is
    /// unspecified).
    pub fn derive(&self, layout: &StateLayout, state: &[u64], scratch: &mut CanonScratch) -> bool {
        if !self.graphs.build(
            layout,
            state,
            &mut scratch.graph_scratch,
            &mut scratch.builder,
        ) {
            return false;
        }
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
        true
    }

    /// The representative of `state`, written to `scratch.out`.
    pub fn canonicalise(&self, layout: &StateLayout, state: &[u64], scratch: &mut CanonScratch) {
        if self.derive(layout, state, scratch) && !scratch.perm.is_identity() {
            let mut out = std::mem::take(&mut scratch.out);
            // A value that fits its slot still fits it after renaming.
            if scratch.perm.apply_state(layout, state, &mut out).is_err() {
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
