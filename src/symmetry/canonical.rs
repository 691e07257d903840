//! One representative state per orbit, by canonical labelling.
//!
//! The front end describes the state as a coloured graph
//! ([`StateSymmetry::describe`]); the canonical
//! labelling of that graph orders its atoms (the interchangeable
//! elements). The *derived permutation* sends the atom at the `r`-th
//! canonical position among the atoms of its set to the `r`-th
//! interchangeable element of that set. Applied to the state it gives the
//! representative: the canonical labelling of a permuted state differs from
//! the original's by an automorphism of the graph, and automorphisms fix the
//! state (the contract of [`StateSymmetry`]), so every state of an
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
//! - the front end applies the derived permutation
//!   ([`StateSymmetry::permute`]).

mod memo;
mod shortcut;

use crate::canon::{Graph, GraphBuilder, Workspace};
use crate::model::{Permutable, Permutation, StateGraph, StateSymmetry};
use memo::Memo;
use shortcut::Shortcut;

/// Computes canonical representatives of the states of one model.
#[derive(Clone, Debug)]
pub struct Canonicaliser {
    atoms: Vec<(u32, u32)>,
    movable: Vec<Vec<u32>>,
    set_sizes: Vec<usize>,
}

/// Per-thread buffers of the [`Canonicaliser`]: allocation-free once warm
/// (the front end's permutation may allocate).
#[derive(Debug)]
pub struct CanonScratch {
    state_graph: StateGraph,
    builder: GraphBuilder,
    graph: Graph,
    workspace: Workspace,
    shortcut: Shortcut,
    memo: Memo,
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
    /// The canonicaliser for states permuted over `domains`.
    pub fn new(domains: &Permutable) -> Self {
        Canonicaliser {
            atoms: domains.atoms(),
            movable: domains.movable.clone(),
            set_sizes: domains.set_sizes.clone(),
        }
    }

    /// Fresh per-thread buffers.
    pub fn new_scratch(&self) -> CanonScratch {
        CanonScratch {
            state_graph: StateGraph::default(),
            builder: GraphBuilder::new(0),
            graph: Graph::default(),
            workspace: Workspace::new(),
            shortcut: Shortcut::default(),
            memo: Memo::default(),
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
    pub fn derive<S: StateSymmetry>(
        &self,
        sym: &S,
        state: &[u64],
        hooks: &mut S::Scratch,
        scratch: &mut CanonScratch,
    ) -> bool {
        let gs = &mut scratch.state_graph;
        gs.reset(&self.atoms);
        if !sym.describe(state, hooks, gs) {
            return false;
        }
        let atoms = &self.atoms;
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
        scratch.state_graph.emit(&mut scratch.builder);
        scratch.builder.build_into(&mut scratch.graph);
        scratch.workspace.canonicalise(&scratch.graph);
        scratch.labelled += 1;
        let atoms = &self.atoms;
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
    pub fn canonicalise<S: StateSymmetry>(
        &self,
        sym: &S,
        state: &[u64],
        hooks: &mut S::Scratch,
        scratch: &mut CanonScratch,
    ) {
        if let Some(rep) = scratch.memo.get(state) {
            scratch.out.clear();
            scratch.out.extend_from_slice(rep);
            scratch.remembered += 1;
            return;
        }
        self.compute(sym, state, hooks, scratch);
        scratch.memo.put(state, &scratch.out);
    }

    /// [`Self::canonicalise`] without the memo.
    fn compute<S: StateSymmetry>(
        &self,
        sym: &S,
        state: &[u64],
        hooks: &mut S::Scratch,
        scratch: &mut CanonScratch,
    ) {
        if self.derive(sym, state, hooks, scratch) && !scratch.perm.is_identity() {
            let mut out = std::mem::take(&mut scratch.out);
            // A value that fits its slot still fits it after renaming.
            if !sym.permute(&scratch.perm, state, hooks, &mut out) {
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
