//! A B state as a vertex- and edge-coloured graph ([`StateGraph`]) (thesis
//! [Spermann 2009] ch. 2.4 and 3.4, improved as its future
//! work suggests: native edge colours instead of layers, intermediate
//! vertices coloured by the role and slot of the data they stand for).
//!
//! Vertices:
//! - one *atom* per interchangeable element; all atoms of one given set
//!   share a colour (so canonical labelling may permute them);
//! - one shared *constant* vertex per distinct non-permutable scalar met in
//!   the state (integer, boolean, string, fixed given-set element), coloured
//!   by the rank of that scalar among the state's scalars, so that distinct
//!   scalars of one graph never share a colour;
//! - one *slot* vertex per constant or variable whose type mentions an
//!   interchangeable set (colour: the slot);
//! - one vertex per pair or set nested in a value (colour: kind and slot).
//!
//! Edges: slot -> value (`VALUE`), set -> member (`MEMBER`), pair -> first /
//! second component (`FIRST`, `SECOND`), and for a relation between scalars
//! stored in slot `k` (a bitset or an interned set, e.g. a sequence), one
//! edge `a -> b` of colour `REL + k` per pair and no pair or set vertices
//! (the colour tells the slot).
//! Slots whose type mentions no interchangeable set are left out: every
//! permutation leaves them as they are.
//!
//! Why this is exact: the graph is built from the state by a construction
//! that only looks at *which* element occurs where, never at its index, so a
//! permutation `p` of the interchangeable elements maps the graph of `s` onto
//! the graph of `p(s)` (atoms follow `p`, everything else follows the
//! structure). Conversely the state can be read back from the graph given
//! the atoms' identities (every value is a tree below its slot vertex, and
//! colours tell slots, kinds and scalars apart), so a graph automorphism
//! restricted to the atoms is a permutation fixing the state. Hence two
//! states have isomorphic graphs exactly when a permutation maps one to the
//! other, and the permutation derived from the canonical labelling (see
//! [`super::canonical`]) gives one representative per orbit.

use crate::canon::GraphBuilder;
use crate::frontends::b::state::{Codec, Finite, StateLayout};
use crate::frontends::b::value::Value;
use crate::model::{Permutable, StateGraph};
use std::sync::Arc;

/// Edge colour: slot vertex to the root of its value.
const VALUE: u32 = 0;
/// Edge colour: set vertex to a member.
const MEMBER: u32 = 1;
/// Edge colour: pair vertex to its first component.
const FIRST: u32 = 2;
/// Edge colour: pair vertex to its second component.
const SECOND: u32 = 3;
/// Edge colour base: `REL + k` for a pair of the relation in slot `k`.
const REL: u32 = 4;

/// Vertex colour bands (atoms use the set number, below `CONST`).
const CONST: u32 = 0x1000_0000;
const SLOT: u32 = 0x2000_0000;
const PAIR: u32 = 0x3000_0000;
const SET: u32 = 0x4000_0000;

/// A non-permutable scalar, shared by all its occurrences in one graph.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Scalar {
    Bool(bool),
    Int(i64),
    Big(Arc<num_bigint::BigInt>),
    Str(Arc<str>),
    Fixed(u32, u32),
}

/// How one slot enters the graph.
#[derive(Clone, Debug)]
struct SlotPlan {
    /// Slot number (for colours).
    slot: u32,
    /// First word of the slot.
    offset: usize,
    codec: Codec,
    /// Whether the slot holds a relation between scalars (a set of pairs
    /// of integers, booleans, strings or given-set elements): its pairs
    /// become coloured edges whatever the codec.
    relation: bool,
}

/// The fixed part of the encoding of one machine's states.
#[derive(Clone, Debug)]
pub struct StateGraphs {
    plans: Vec<SlotPlan>,
    /// `atom[s][i]`: vertex of element `i` of set `s`, if it is interchangeable.
    atom: Vec<Vec<Option<u32>>>,
    /// `(set, index)` of each atom vertex, in vertex order.
    atoms: Vec<(u32, u32)>,
}

/// Per-thread buffers of the graph construction: the graph and the
/// scalars met so far.
#[derive(Debug, Default)]
pub struct GraphScratch {
    /// The graph of the last state described.
    pub graph: StateGraph,
    scalars: Vec<(Scalar, u32)>,
}

impl StateGraphs {
    /// The encoding of the states of `layout` under the symmetries of
    /// `sym`, using the slots `0..slot_limit` only (all slots, or just the
    /// constants to compare constant valuations).
    pub fn new(layout: &StateLayout, sym: &Permutable, slot_limit: usize) -> Self {
        let mut atom: Vec<Vec<Option<u32>>> =
            sym.set_sizes.iter().map(|&n| vec![None; n]).collect();
        let mut atoms = Vec::new();
        for (s, movable) in sym.movable.iter().enumerate() {
            for &i in movable {
                atom[s][i as usize] = Some(atoms.len() as u32);
                atoms.push((s as u32, i));
            }
        }
        let plans = layout.slots()[..slot_limit]
            .iter()
            .enumerate()
            .filter(|(_, slot)| mentions_movable(&slot.ty, sym))
            .map(|(k, slot)| SlotPlan {
                slot: k as u32,
                offset: slot.offset,
                codec: slot.codec.clone(),
                relation: is_scalar_relation(&slot.ty),
            })
            .collect();
        StateGraphs { plans, atom, atoms }
    }

    /// The `(set, index)` of each atom; atom `a` is vertex `a`.
    pub fn atoms(&self) -> &[(u32, u32)] {
        &self.atoms
    }

    /// Builds the graph of `state` into `out`. Returns false (and leaves
    /// `out` unspecified) when no interchangeable element occurs in the
    /// state, so that the caller can skip canonical labelling.
    pub fn build(
        &self,
        layout: &StateLayout,
        state: &[u64],
        scratch: &mut GraphScratch,
        out: &mut GraphBuilder,
    ) -> bool {
        if !self.collect(layout, state, scratch) {
            return false;
        }
        scratch.graph.emit(out);
        true
    }

    /// Builds the graph of `state` into `scratch` only (its vertex colours
    /// and edge list, see [`GraphScratch::colours`]); false when no
    /// interchangeable element occurs (the graph is then complete too).
    pub fn collect(&self, layout: &StateLayout, state: &[u64], scratch: &mut GraphScratch) -> bool {
        scratch.graph.reset(&self.atoms);
        self.collect_into(layout, state, scratch)
    }

    /// [`Self::collect`] into a graph that already holds the atoms (the
    /// symmetry layer resets it before asking, see
    /// [`StateSymmetry::describe`](crate::model::StateSymmetry::describe)).
    pub fn collect_into(
        &self,
        layout: &StateLayout,
        state: &[u64],
        scratch: &mut GraphScratch,
    ) -> bool {
        scratch.scalars.clear();
        for plan in &self.plans {
            let slot_vertex = self.vertex(scratch, SLOT + plan.slot);
            let words = &state[plan.offset..plan.offset + plan.codec.width()];
            match &plan.codec {
                Codec::Int => {}
                Codec::Scalar(f) => {
                    let v = self.finite(scratch, f, words[0], plan.slot);
                    scratch.graph.add_edge(slot_vertex, v, VALUE);
                }
                Codec::BitSet { element, .. } => {
                    self.members(scratch, element, words, plan.slot, slot_vertex);
                }
                // Ranges are scalars (`Scalar::Int`), as in decoded values.
                Codec::RangedSet { element, words: n } if words[*n] == 0 => {
                    self.members(scratch, element, &words[..*n], plan.slot, slot_vertex);
                }
                // Each pair of the function as the coloured edge a relation
                // between scalars gets (`member`).
                Codec::Function {
                    domain,
                    range,
                    partial,
                } if plan.codec.escape(words) == Some(0) => {
                    for (k, &word) in words[..words.len() - 1].iter().enumerate() {
                        let Some(image) = Codec::function_image(*partial, word) else {
                            continue;
                        };
                        let x = self.finite(scratch, domain, k as u64, plan.slot);
                        let y = self.finite(scratch, range, image, plan.slot);
                        scratch.graph.add_edge(x, y, REL + plan.slot);
                    }
                }
                // A value outside the carrier: as a decoded value (whether
                // a value fits is the same for every image of a state).
                Codec::Interned | Codec::RangedSet { .. } | Codec::Function { .. } => {
                    let value = layout.decode_slot(&layout.slots()[plan.slot as usize], state);
                    match &value {
                        Value::Set(items) if plan.relation => {
                            for item in items.iter() {
                                if let Value::Pair(p) = item {
                                    let x = self.value(scratch, &p.0, plan.slot);
                                    let y = self.value(scratch, &p.1, plan.slot);
                                    scratch.graph.add_edge(x, y, REL + plan.slot);
                                }
                            }
                        }
                        _ => {
                            let v = self.value(scratch, &value, plan.slot);
                            scratch.graph.add_edge(slot_vertex, v, VALUE);
                        }
                    }
                }
            }
        }
        // Scalars are coloured by rank: invariant under permutations, and
        // distinct scalars of one state get distinct colours.
        scratch.scalars.sort_unstable();
        for (rank, (_, v)) in scratch.scalars.iter().enumerate() {
            scratch.graph.set_colour(*v, CONST + rank as u32);
        }
        scratch.graph.touched()
    }

    /// Builds the graph of `state` into `out` even when no interchangeable
    /// element occurs (for export).
    pub fn build_full(&self, layout: &StateLayout, state: &[u64], out: &mut GraphBuilder) {
        let mut scratch = GraphScratch::default();
        self.collect(layout, state, &mut scratch);
        scratch.graph.emit(out);
    }

    fn vertex(&self, scratch: &mut GraphScratch, colour: u32) -> u32 {
        scratch.graph.add_vertex(colour)
    }

    fn scalar(&self, scratch: &mut GraphScratch, key: Scalar) -> u32 {
        if let Some((_, v)) = scratch.scalars.iter().find(|(k, _)| *k == key) {
            return *v;
        }
        let v = self.vertex(scratch, CONST);
        scratch.scalars.push((key, v));
        v
    }

    fn elem(&self, scratch: &mut GraphScratch, set: u32, index: u32) -> u32 {
        match self
            .atom
            .get(set as usize)
            .and_then(|a| a.get(index as usize))
        {
            Some(Some(v)) => scratch.graph.atom(*v),
            _ => self.scalar(scratch, Scalar::Fixed(set, index)),
        }
    }

    /// The vertex of the value with index `index` in carrier `f`.
    fn finite(&self, scratch: &mut GraphScratch, f: &Finite, index: u64, slot: u32) -> u32 {
        match f {
            Finite::Bool => self.scalar(scratch, Scalar::Bool(index != 0)),
            Finite::Given { set, .. } => self.elem(scratch, *set, index as u32),
            Finite::Range { lo, .. } => {
                self.scalar(scratch, Scalar::Int(lo.wrapping_add(index as i64)))
            }
            Finite::Pair(a, b) => {
                let bc = b.card();
                let p = self.vertex(scratch, PAIR + slot);
                let x = self.finite(scratch, a, index / bc, slot);
                let y = self.finite(scratch, b, index % bc, slot);
                scratch.graph.add_edge(p, x, FIRST);
                scratch.graph.add_edge(p, y, SECOND);
                p
            }
            Finite::Set(t) => {
                let s = self.vertex(scratch, SET + slot);
                let mut bits = index;
                while bits != 0 {
                    let i = u64::from(bits.trailing_zeros());
                    bits &= bits - 1;
                    let m = self.finite(scratch, t, i, slot);
                    scratch.graph.add_edge(s, m, MEMBER);
                }
                s
            }
        }
    }

    /// Adds every member of the bitset `words` over `element`.
    fn members(
        &self,
        scratch: &mut GraphScratch,
        element: &Finite,
        words: &[u64],
        slot: u32,
        slot_vertex: u32,
    ) {
        for (w, &word) in words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w as u64 * 64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                self.member(scratch, element, i, slot, slot_vertex);
            }
        }
    }

    /// Adds member `index` of carrier `element` to the set of slot `slot`:
    /// a pair of scalars as a coloured edge, anything else as a member edge.
    fn member(
        &self,
        scratch: &mut GraphScratch,
        element: &Finite,
        index: u64,
        slot: u32,
        slot_vertex: u32,
    ) {
        if let Finite::Pair(a, b) = element
            && is_scalar(a)
            && is_scalar(b)
        {
            let bc = b.card();
            let x = self.finite(scratch, a, index / bc, slot);
            let y = self.finite(scratch, b, index % bc, slot);
            // The colour names the slot: no edge from the slot vertex needed.
            scratch.graph.add_edge(x, y, REL + slot);
            return;
        }
        let m = self.finite(scratch, element, index, slot);
        scratch.graph.add_edge(slot_vertex, m, MEMBER);
    }

    /// The vertex of a decoded value (interned slots).
    fn value(&self, scratch: &mut GraphScratch, value: &Value, slot: u32) -> u32 {
        match value {
            Value::Elem(e) => self.elem(scratch, e.set, e.index),
            Value::Int(i) => self.scalar(scratch, Scalar::Int(*i)),
            Value::Big(b) => self.scalar(scratch, Scalar::Big(b.clone())),
            Value::Bool(b) => self.scalar(scratch, Scalar::Bool(*b)),
            Value::Str(s) => self.scalar(scratch, Scalar::Str(s.clone())),
            // A definition reads only constants, which the permutations
            // keep: it is fixed by every one of them, like a scalar.
            Value::Symbolic(s) => self.scalar(scratch, Scalar::Str(s.text.clone())),
            Value::Pair(p) => {
                let v = self.vertex(scratch, PAIR + slot);
                let x = self.value(scratch, &p.0, slot);
                let y = self.value(scratch, &p.1, slot);
                scratch.graph.add_edge(v, x, FIRST);
                scratch.graph.add_edge(v, y, SECOND);
                v
            }
            Value::Set(items) => {
                let v = self.vertex(scratch, SET + slot);
                for item in items.iter() {
                    let m = self.value(scratch, item, slot);
                    scratch.graph.add_edge(v, m, MEMBER);
                }
                v
            }
        }
    }
}

/// Whether values of `f` become a single shared vertex (atom or scalar).
fn is_scalar(f: &Finite) -> bool {
    matches!(
        f,
        Finite::Bool | Finite::Given { .. } | Finite::Range { .. }
    )
}

/// Whether `ty` is a relation between scalar types.
fn is_scalar_relation(ty: &crate::frontends::b::types::Type) -> bool {
    use crate::frontends::b::types::Type;
    let scalar = |t: &Type| matches!(t, Type::Int | Type::Bool | Type::String | Type::Given(_));
    matches!(ty, Type::Set(t) if matches!(&**t, Type::Pair(a, b) if scalar(a) && scalar(b)))
}

/// Whether `ty` mentions a given set with interchangeable elements.
fn mentions_movable(ty: &crate::frontends::b::types::Type, sym: &Permutable) -> bool {
    use crate::frontends::b::types::Type;
    match ty {
        Type::Int | Type::Bool | Type::String => false,
        // A free type's values may hold any given set's elements.
        Type::Free(_) => true,
        Type::Given(s) => sym.movable.get(*s as usize).is_some_and(|m| !m.is_empty()),
        Type::Pair(a, b) => mentions_movable(a, sym) || mentions_movable(b, sym),
        Type::Set(t) => mentions_movable(t, sym),
    }
}
