//! Murphi's symmetry for the symmetry layer: the scalarsets are the
//! permutable domains. A permutation renames every scalarset value and
//! moves the elements of arrays indexed by a scalarset; a state becomes a
//! coloured graph whose atoms are the scalarset elements.
//!
//! The graph: one vertex per global variable whose type mentions a
//! scalarset (coloured by the variable), one per record and array value
//! (coloured by its place in the type), one per element of an array
//! indexed by a scalarset (linked to the element's atom; for a variable
//! that is itself such an array, the element's value hangs straight from
//! its atom by an edge coloured by the variable), and one shared
//! vertex per distinct non-scalarset word of the state (coloured by its
//! rank among them, so distinct words get distinct colours). Edges are
//! coloured by field number, by index (arrays over other types), or by
//! role. The construction looks only at which element occurs where, so a
//! permutation maps the graph of `s` onto the graph of `p(s)`; conversely
//! every value hangs under a uniquely coloured vertex by uniquely coloured
//! edges, so the state can be read back given the atoms, and an
//! automorphism restricted to the atoms fixes the state. That is the
//! contract of [`StateSymmetry`]: canonical labelling then gives one
//! representative per orbit, as Rumur's `--symmetry-reduction exhaustive`
//! does, without trying every permutation.
//!
//! Symmetry is sound when the program treats scalarsets symmetrically; the
//! type checker already refuses arithmetic, ordering and literals on
//! scalarset values. As in CMurphi and Rumur, a program that depends on
//! the order of a `for` loop over a scalarset is not checked for it.

use super::compile::Compiled;
use super::pack::Packer;
use super::types::{Ty, normalise_multisets};
use crate::model::{Permutable, Permutation, StateGraph, StateSymmetry};
use crate::symmetry::markers::{MarkerTable, mix, sorting_permutation};

const CONST: u32 = StateGraph::FIRST_FREE_COLOUR;
const SLOT: u32 = 0x2000_0000;
const REC: u32 = 0x3000_0000;
const ARR: u32 = 0x4000_0000;
const ELEM: u32 = 0x5000_0000;
const MSET: u32 = 0x6000_0000;
const MSLOT: u32 = 0x7000_0000;

const E_VALUE: u32 = 0;
const E_ELEM: u32 = 1;
const E_ATOM: u32 = 2;
const E_FIELD: u32 = 0x100;
const E_INDEX: u32 = 0x1_0000;
const E_TOP: u32 = 0x100_0000;
const E_FIELDS: u32 = 0x4000_0000;

/// Per value of a scalar type: the (domain, element) it stands for, if it
/// is a scalarset element (directly or as a union member).
type Elements = Vec<Option<(usize, u32)>>;

/// How a value of one type is permuted and described.
#[derive(Clone, Debug)]
enum Node {
    /// A scalar, with its values' elements (empty: no scalarset value).
    Leaf(Elements),
    /// A record: its number and its fields' offsets and nodes.
    Record(u32, Vec<(usize, Node)>),
    /// An array: its number, its index values' elements, its length, its
    /// element width and element node.
    Array(u32, Elements, usize, usize, Box<Node>),
    /// A multiset: its number, its slots, the words of a slot (presence
    /// then element) and the element node. Slots have no order: the graph
    /// hangs the present elements from the multiset's vertex by edges of
    /// one colour, and a permuted multiset is sorted again.
    Multiset(u32, usize, usize, Box<Node>),
}

/// The scalarset elements of the values of scalar type `ty`.
fn elements(ty: &Ty) -> Elements {
    match ty {
        Ty::Scalarset { domain, size } => (0..*size as u32).map(|i| Some((*domain, i))).collect(),
        Ty::Union(_, members) => members
            .iter()
            .flat_map(|(t, _)| {
                let e = elements(t);
                let n = t.card() as usize;
                (0..n).map(move |i| e.get(i).copied().flatten())
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The position of the value standing for (domain, element) among the
/// values of a type whose elements are `values`.
fn position(values: &Elements, d: usize, i: u32) -> Option<usize> {
    values.iter().position(|v| *v == Some((d, i)))
}

/// The symmetry of a Murphi program's states.
pub struct MurphiSymmetry {
    domains: Permutable,
    /// Atom number of element 0 of each domain (domains of one element
    /// have no atoms).
    base: Vec<usize>,
    /// Per global: its offset, width and node, if it mentions a scalarset.
    globals: Vec<(usize, usize, Option<Node>)>,
    /// How states are packed (the nodes address unpacked words).
    packer: Packer,
    /// Unpacked words of a state.
    leaves: usize,
    /// Approximate markers: the first state seen per state marker.
    marker_table: MarkerTable,
    /// The scalarset types' names, by domain.
    names: Vec<String>,
}

/// Per-thread buffers: the distinct scalar words met and their vertices,
/// unpacked states, and element markers.
#[derive(Debug, Default)]
pub struct MurphiSymScratch {
    scalars: Vec<(u64, u32)>,
    words: Vec<u64>,
    image: Vec<u64>,
    /// Per atom: its marker (symmetry markers).
    markers: Vec<u64>,
    /// Per atom: the markers of the atoms it is stored with.
    refine: Vec<u64>,
    /// The hash of the values with their elements left out.
    fixed: u64,
}

fn node(ty: &Ty, next: &mut u32) -> Node {
    match ty {
        Ty::Scalarset { .. } | Ty::Union(..) => Node::Leaf(elements(ty)),
        Ty::Record(fields) => {
            let id = *next;
            *next += 1;
            Node::Record(
                id,
                fields
                    .iter()
                    .map(|(_, t, off)| (*off, node(t, next)))
                    .collect(),
            )
        }
        Ty::Multiset(max, elem) => {
            let id = *next;
            *next += 1;
            Node::Multiset(
                id,
                *max as usize,
                1 + elem.width(),
                Box::new(node(elem, next)),
            )
        }
        Ty::Array(index, elem) => {
            let id = *next;
            *next += 1;
            Node::Array(
                id,
                elements(index),
                index.card() as usize,
                elem.width(),
                Box::new(node(elem, next)),
            )
        }
        _ => Node::Leaf(Vec::new()),
    }
}

fn mentions(ty: &Ty) -> bool {
    match ty {
        Ty::Scalarset { .. } => true,
        Ty::Union(_, members) => members.iter().any(|(t, _)| mentions(t)),
        Ty::Record(fields) => fields.iter().any(|(_, t, _)| mentions(t)),
        Ty::Array(index, elem) => mentions(index) || mentions(elem),
        Ty::Multiset(_, elem) => mentions(elem),
        _ => false,
    }
}

impl MurphiSymmetry {
    /// The symmetry of `prog`'s states, packed by `packer`.
    pub fn new(prog: &Compiled, packer: &Packer) -> Self {
        let movable: Vec<Vec<u32>> = prog
            .domains
            .iter()
            .map(|(_, n)| {
                if *n >= 2 {
                    (0..*n as u32).collect()
                } else {
                    Vec::new()
                }
            })
            .collect();
        let mut base = Vec::new();
        let mut atoms = 0;
        for m in &movable {
            base.push(atoms);
            atoms += m.len();
        }
        let mut next = 0;
        let globals = prog
            .globals
            .iter()
            .map(|g| {
                (
                    g.offset,
                    g.ty.width(),
                    mentions(&g.ty).then(|| node(&g.ty, &mut next)),
                )
            })
            .collect();
        MurphiSymmetry {
            domains: Permutable {
                movable,
                set_sizes: prog.domains.iter().map(|(_, n)| *n as usize).collect(),
            },
            base,
            globals,
            packer: packer.clone(),
            leaves: prog.width,
            marker_table: MarkerTable::new(),
            names: prog.domains.iter().map(|(n, _)| n.clone()).collect(),
        }
    }

    fn movable(&self, d: usize) -> bool {
        !self.domains.movable[d].is_empty()
    }

    /// The image under `p` of the value at position `v` of a type whose
    /// values' elements are `values`.
    fn image(&self, values: &Elements, p: &Permutation, v: usize) -> usize {
        match values.get(v).copied().flatten() {
            Some((d, i)) => position(values, d, p.image(d as u32, i)).unwrap_or(v),
            None => v,
        }
    }

    fn permute_node(&self, node: &Node, p: &Permutation, src: &[u64], dst: &mut [u64]) {
        match node {
            Node::Leaf(values) => {
                dst[0] = if src[0] == 0 || values.is_empty() {
                    src[0]
                } else {
                    self.image(values, p, (src[0] - 1) as usize) as u64 + 1
                };
            }
            Node::Record(_, fields) => {
                for (off, child) in fields {
                    self.permute_node(child, p, &src[*off..], &mut dst[*off..]);
                }
            }
            Node::Array(_, values, len, w, elem) => {
                for i in 0..*len {
                    let j = self.image(values, p, i);
                    self.permute_node(
                        elem,
                        p,
                        &src[i * w..(i + 1) * w],
                        &mut dst[j * w..(j + 1) * w],
                    );
                }
            }
            Node::Multiset(_, slots, w, elem) => {
                for j in 0..*slots {
                    let slot = j * w;
                    dst[slot] = src[slot];
                    self.permute_node(
                        elem,
                        p,
                        &src[slot + 1..slot + w],
                        &mut dst[slot + 1..slot + w],
                    );
                }
                normalise_multisets(dst, &[(0, *slots, *w)]);
            }
        }
    }

    fn scalar(&self, word: u64, scratch: &mut MurphiSymScratch, g: &mut StateGraph) -> u32 {
        if let Some(&(_, v)) = scratch.scalars.iter().find(|(w, _)| *w == word) {
            return v;
        }
        let v = g.add_vertex(CONST);
        scratch.scalars.push((word, v));
        v
    }

    /// The atom of the value at position `v` of a type whose values'
    /// elements are `values`, if it is a permutable element.
    fn atom_of(&self, values: &Elements, v: usize) -> Option<u32> {
        let (d, i) = values.get(v).copied().flatten()?;
        self.movable(d).then(|| (self.base[d] + i as usize) as u32)
    }

    fn vertex(
        &self,
        node: &Node,
        words: &[u64],
        scratch: &mut MurphiSymScratch,
        g: &mut StateGraph,
    ) -> u32 {
        match node {
            Node::Leaf(values) => match words[0]
                .checked_sub(1)
                .and_then(|v| self.atom_of(values, v as usize))
            {
                Some(a) => g.atom(a),
                None => self.scalar(words[0], scratch, g),
            },
            Node::Record(id, fields) => {
                let v = g.add_vertex(REC + id);
                for (k, (off, child)) in fields.iter().enumerate() {
                    let c = self.vertex(child, &words[*off..], scratch, g);
                    g.add_edge(v, c, E_FIELD + k as u32);
                }
                v
            }
            Node::Multiset(id, slots, w, elem) => {
                let v = g.add_vertex(MSET + id);
                for slot in words[..slots * w].chunks(*w).filter(|s| s[0] != 0) {
                    let s = g.add_vertex(MSLOT + id);
                    g.add_edge(v, s, E_ELEM);
                    let c = self.vertex(elem, &slot[1..], scratch, g);
                    g.add_edge(s, c, E_VALUE);
                }
                v
            }
            Node::Array(id, values, len, w, elem) => {
                let v = g.add_vertex(ARR + id);
                for i in 0..*len {
                    let c = self.vertex(elem, &words[i * w..(i + 1) * w], scratch, g);
                    match self.atom_of(values, i) {
                        Some(a) => {
                            let e = g.add_vertex(ELEM + id);
                            g.add_edge(v, e, E_ELEM);
                            let a = g.atom(a);
                            g.add_edge(a, e, E_ATOM);
                            g.add_edge(e, c, E_VALUE);
                        }
                        None => g.add_edge(v, c, E_INDEX + i as u32),
                    }
                }
                v
            }
        }
    }
}

/// Symmetry markers (Bošnački, Donaldson, Leuschel, Massart, "Efficient
/// approximate verification of Promela models via symmetry markers",
/// Definition 4, for Murphi's scalarset-indexed arrays): each scalarset
/// element's marker sums a hash of every place it occurs at (a variable's
/// path, with the non-scalarset indices and values on the way), and is
/// refined once by the markers of the elements it is stored with. Markers
/// are invariant under permutations, so symmetric states get equal ones;
/// states of different orbits may share them (approximate mode), and
/// sorting the elements by marker gives a permutation image of the state
/// (exact mode, several representatives per orbit).
impl MurphiSymmetry {
    /// Adds to the markers of the elements occurring in the value at
    /// `words` of `node`, reached by `path`; returns a hash of the value
    /// with its elements left out (for the context of others).
    fn mark(
        &self,
        node: &Node,
        words: &[u64],
        path: u64,
        scratch: &mut MurphiSymScratch,
        with: Option<usize>,
    ) -> u64 {
        match node {
            Node::Leaf(values) => match words[0].checked_sub(1).and_then(|v| {
                let (d, i) = values.get(v as usize).copied().flatten()?;
                self.movable(d).then(|| self.base[d] + i as usize)
            }) {
                Some(a) => {
                    scratch.markers[a] = scratch.markers[a].wrapping_add(mix(path));
                    if let Some(b) = with {
                        // Element `a` is stored under element `b`: refine
                        // each by the other.
                        scratch.refine[a] =
                            scratch.refine[a].wrapping_add(mix(path ^ (b as u64) << 1));
                        scratch.refine[b] =
                            scratch.refine[b].wrapping_add(mix(path ^ 0x5555 ^ (a as u64) << 1));
                    }
                    mix(path ^ 0xa7)
                }
                None => mix(path ^ words[0].wrapping_mul(0x9e37)),
            },
            Node::Record(_, fields) => {
                let mut h = 0u64;
                for (k, (off, child)) in fields.iter().enumerate() {
                    h = h.wrapping_add(self.mark(
                        child,
                        &words[*off..],
                        mix(path ^ (k as u64 + 1)),
                        scratch,
                        with,
                    ));
                }
                h
            }
            Node::Multiset(_, slots, w, elem) => {
                // Every element by the same path: the sum does not depend
                // on the slots' order.
                let mut h = 0u64;
                for slot in words[..slots * w].chunks(*w).filter(|s| s[0] != 0) {
                    h = h.wrapping_add(self.mark(
                        elem,
                        &slot[1..],
                        mix(path ^ 0x6d73),
                        scratch,
                        with,
                    ));
                }
                mix(h ^ path)
            }
            Node::Array(_, values, len, w, elem) => {
                let mut h = 0u64;
                for i in 0..*len {
                    let sub = &words[i * w..(i + 1) * w];
                    match values
                        .get(i)
                        .copied()
                        .flatten()
                        .filter(|(d, _)| self.movable(*d))
                    {
                        Some((d, e)) => {
                            let a = self.base[d] + e as usize;
                            // The element's subtree describes it.
                            let p = mix(path ^ 0x3c3c);
                            let inner = self.mark(elem, sub, p, scratch, Some(a));
                            scratch.markers[a] = scratch.markers[a].wrapping_add(mix(p ^ inner));
                            h = h.wrapping_add(mix(inner));
                        }
                        None => {
                            h = h.wrapping_add(self.mark(
                                elem,
                                sub,
                                mix(path ^ (i as u64) << 8),
                                scratch,
                                with,
                            ));
                        }
                    }
                }
                h
            }
        }
    }

    /// The element markers of `state` into `scratch.markers`.
    fn element_markers(&self, state: &[u64], scratch: &mut MurphiSymScratch) {
        let atoms = self.base.last().copied().unwrap_or(0)
            + self.domains.movable.last().map_or(0, Vec::len);
        scratch.markers.clear();
        scratch.markers.resize(atoms, 0);
        scratch.refine.clear();
        scratch.refine.resize(atoms, 0);
        let mut words = std::mem::take(&mut scratch.words);
        self.packer.unpack(state, &mut words);
        let mut fixed = 0u64;
        for (k, (offset, width, node)) in self.globals.iter().enumerate() {
            if let Some(node) = node {
                let h = self.mark(
                    node,
                    &words[*offset..offset + width],
                    mix(k as u64 + 1),
                    scratch,
                    None,
                );
                fixed = mix(fixed ^ h);
            }
        }
        scratch.fixed = fixed;
        scratch.words = words;
        for a in 0..atoms {
            scratch.markers[a] = mix(scratch.markers[a] ^ scratch.refine[a].rotate_left(17));
        }
    }

    /// A marker of the whole state: the sorted element markers of each
    /// domain and the words no permutation changes.
    fn state_marker(&self, state: &[u64], scratch: &mut MurphiSymScratch) -> u64 {
        self.element_markers(state, scratch);
        let mut h = scratch.fixed;
        for (d, class) in self.domains.movable.iter().enumerate() {
            let mut ms: Vec<u64> = class
                .iter()
                .map(|&i| scratch.markers[self.base[d] + i as usize])
                .collect();
            ms.sort_unstable();
            for m in ms {
                h = mix(h ^ m);
            }
        }
        // `element_markers` left the state unpacked in `scratch.words`.
        for (offset, width, node) in &self.globals {
            if node.is_none() {
                for &w in &scratch.words[*offset..offset + width] {
                    h = mix(h ^ w);
                }
            }
        }
        h
    }
}

impl StateSymmetry for MurphiSymmetry {
    type Scratch = MurphiSymScratch;

    fn new_scratch(&self) -> MurphiSymScratch {
        MurphiSymScratch {
            scalars: Vec::new(),
            words: vec![0; self.leaves],
            image: vec![0; self.leaves],
            markers: Vec::new(),
            refine: Vec::new(),
            fixed: 0,
        }
    }

    fn has_markers(&self) -> bool {
        true
    }

    fn marker_representative(
        &self,
        state: &[u64],
        scratch: &mut MurphiSymScratch,
        out: &mut Vec<u64>,
    ) {
        let m = self.state_marker(state, scratch);
        self.marker_table.representative(m, state, out);
    }

    fn marker_permutation(&self, state: &[u64], scratch: &mut MurphiSymScratch) -> Permutation {
        self.element_markers(state, scratch);
        sorting_permutation(&self.domains, |d, i| {
            scratch.markers[self.base[d] + i as usize]
        })
    }

    fn domains(&self) -> &Permutable {
        &self.domains
    }

    fn domain_name(&self, domain: usize) -> String {
        self.names[domain].clone()
    }

    /// Elements print as the traces print them: 1 to N.
    fn element_name(&self, _domain: usize, element: u32) -> String {
        (element + 1).to_string()
    }

    fn describe(&self, state: &[u64], scratch: &mut MurphiSymScratch, g: &mut StateGraph) -> bool {
        scratch.scalars.clear();
        let mut words = std::mem::take(&mut scratch.words);
        self.packer.unpack(state, &mut words);
        for (k, (offset, width, node)) in self.globals.iter().enumerate() {
            let Some(node) = node else { continue };
            let value = &words[*offset..offset + width];
            // A variable indexed by a scalarset (every index an element):
            // each element's value hangs straight from its atom, by an edge
            // coloured by the variable, with no array or element vertices
            // (the variable is unique, so nothing is ambiguous).
            if let Node::Array(_, values, len, w, elem) = node
                && !values.is_empty()
                && (0..*len).all(|i| self.atom_of(values, i).is_some())
            {
                // Records of scalars: each field hangs from the atom too,
                // by an edge coloured by the variable and the field.
                let flat = match &**elem {
                    Node::Record(_, fields) if fields.len() < 256 => {
                        fields.iter().all(|(_, f)| matches!(f, Node::Leaf(_)))
                    }
                    _ => false,
                };
                for i in 0..*len {
                    let sub = &value[i * w..(i + 1) * w];
                    let a = self.atom_of(values, i).expect("checked above");
                    let a = g.atom(a);
                    match &**elem {
                        Node::Record(_, fields) if flat => {
                            for (f, (off, leaf)) in fields.iter().enumerate() {
                                let c = self.vertex(leaf, &sub[*off..], scratch, g);
                                g.add_edge(a, c, E_FIELDS + ((k as u32) << 8) + f as u32);
                            }
                        }
                        _ => {
                            let c = self.vertex(elem, sub, scratch, g);
                            g.add_edge(a, c, E_TOP + k as u32);
                        }
                    }
                }
                continue;
            }
            let slot = g.add_vertex(SLOT + k as u32);
            let c = self.vertex(node, value, scratch, g);
            g.add_edge(slot, c, E_VALUE);
        }
        // Scalars coloured by rank: invariant under permutations, distinct
        // words get distinct colours.
        scratch.scalars.sort_unstable();
        for (rank, &(_, v)) in scratch.scalars.iter().enumerate() {
            g.set_colour(v, CONST + rank as u32);
        }
        scratch.words = words;
        g.touched()
    }

    fn permute(
        &self,
        p: &Permutation,
        state: &[u64],
        scratch: &mut MurphiSymScratch,
        out: &mut Vec<u64>,
    ) -> bool {
        let MurphiSymScratch { words, image, .. } = scratch;
        self.packer.unpack(state, words);
        image.copy_from_slice(words);
        for (offset, width, node) in &self.globals {
            if let Some(node) = node {
                let range = *offset..offset + width;
                self.permute_node(node, p, &words[range.clone()], &mut image[range]);
            }
        }
        out.clear();
        out.resize(state.len(), 0);
        self.packer.pack(image, out);
        true
    }
}
