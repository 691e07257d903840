//! Murphi's symmetry for the symmetry layer: the scalarsets are the
//! permutable domains. A permutation renames every scalarset value and
//! moves the elements of arrays indexed by a scalarset; a state becomes a
//! coloured graph whose atoms are the scalarset elements.
//!
//! The graph: one vertex per global variable whose type mentions a
//! scalarset (coloured by the variable), one per record and array value
//! (coloured by its place in the type), one per element of an array
//! indexed by a scalarset (linked to the element's atom), and one shared
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
use super::types::Ty;
use crate::model::{Permutable, Permutation, StateGraph, StateSymmetry};

const CONST: u32 = StateGraph::FIRST_FREE_COLOUR;
const SLOT: u32 = 0x2000_0000;
const REC: u32 = 0x3000_0000;
const ARR: u32 = 0x4000_0000;
const ELEM: u32 = 0x5000_0000;

const E_VALUE: u32 = 0;
const E_ELEM: u32 = 1;
const E_ATOM: u32 = 2;
const E_FIELD: u32 = 0x100;
const E_INDEX: u32 = 0x1_0000;

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
}

/// Per-thread buffers: the distinct scalar words met and their vertices,
/// and unpacked states.
#[derive(Debug, Default)]
pub struct MurphiSymScratch {
    scalars: Vec<(u64, u32)>,
    words: Vec<u64>,
    image: Vec<u64>,
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

impl StateSymmetry for MurphiSymmetry {
    type Scratch = MurphiSymScratch;

    fn new_scratch(&self) -> MurphiSymScratch {
        MurphiSymScratch {
            scalars: Vec::new(),
            words: vec![0; self.leaves],
            image: vec![0; self.leaves],
        }
    }

    fn domains(&self) -> &Permutable {
        &self.domains
    }

    fn describe(&self, state: &[u64], scratch: &mut MurphiSymScratch, g: &mut StateGraph) -> bool {
        scratch.scalars.clear();
        let mut words = std::mem::take(&mut scratch.words);
        self.packer.unpack(state, &mut words);
        for (k, (offset, width, node)) in self.globals.iter().enumerate() {
            if let Some(node) = node {
                let slot = g.add_vertex(SLOT + k as u32);
                let c = self.vertex(node, &words[*offset..offset + width], scratch, g);
                g.add_edge(slot, c, E_VALUE);
            }
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
