//! What a front end tells the symmetry layer: the permutable domains, how
//! a permutation acts on a state, and the state as a coloured graph.
//!
//! The symmetry layer ([`crate::symmetry`]) is generic over
//! [`StateSymmetry`]: canonical labelling, permutation flooding and
//! counterexample mapping need nothing else. A front end that can compute
//! symmetry markers (B) offers them through the optional methods.

pub use super::permutation::{Permutation, all_permutations};
use crate::canon::GraphBuilder;

/// The permutable domains (B's deferred sets and the unnamed elements of
/// enumerated sets; Murphi's scalarsets) and which of their elements may
/// be permuted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Permutable {
    /// `movable[s]`: sorted indices of the interchangeable elements of
    /// domain `s`; empty when fewer than two are.
    pub movable: Vec<Vec<u32>>,
    /// `set_sizes[s]`: number of elements of domain `s`.
    pub set_sizes: Vec<usize>,
}

impl Permutable {
    /// No interchangeable element at all (symmetry reduction is the identity).
    pub fn none() -> Self {
        Permutable {
            movable: Vec::new(),
            set_sizes: Vec::new(),
        }
    }

    /// Whether any element can be permuted at all.
    pub fn is_trivial(&self) -> bool {
        self.movable.iter().all(Vec::is_empty)
    }

    /// Number of permutations in the symmetry group (the product of the
    /// factorials of the class sizes), saturating at `u64::MAX`.
    pub fn group_order(&self) -> u64 {
        self.movable
            .iter()
            .flat_map(|m| 2..=m.len() as u64)
            .fold(1u64, |acc, k| acc.saturating_mul(k))
    }

    /// The `(domain, element)` of each *atom*: one per interchangeable
    /// element, domain by domain, in increasing order. Atom `a` is vertex
    /// `a` of every [`StateGraph`].
    pub fn atoms(&self) -> Vec<(u32, u32)> {
        self.movable
            .iter()
            .enumerate()
            .flat_map(|(s, m)| m.iter().map(move |&i| (s as u32, i)))
            .collect()
    }
}

/// A state as a vertex- and edge-coloured directed graph, as a front end
/// describes it ([`StateSymmetry::describe`]). Vertices `0..atoms` are the
/// atoms of [`Permutable::atoms`], coloured by their domain; the front end
/// adds the rest with colours of its own choosing, all at least
/// [`StateGraph::FIRST_FREE_COLOUR`].
#[derive(Clone, Debug, Default)]
pub struct StateGraph {
    pub(crate) colours: Vec<u32>,
    pub(crate) edges: Vec<(u32, u32, u32)>,
    pub(crate) occurs: Vec<bool>,
    touched: bool,
}

impl StateGraph {
    /// The lowest vertex colour a front end may give a vertex that is not
    /// an atom (atoms are coloured by their domain number).
    pub const FIRST_FREE_COLOUR: u32 = 0x1000_0000;

    /// Empties the graph and adds the atoms of `atoms` (see
    /// [`Permutable::atoms`]).
    pub fn reset(&mut self, atoms: &[(u32, u32)]) {
        self.colours.clear();
        self.edges.clear();
        self.occurs.clear();
        self.occurs.resize(atoms.len(), false);
        self.touched = false;
        self.colours.extend(atoms.iter().map(|&(s, _)| s));
    }

    /// Adds a vertex of colour `colour`; returns its number.
    #[inline]
    pub fn add_vertex(&mut self, colour: u32) -> u32 {
        self.colours.push(colour);
        (self.colours.len() - 1) as u32
    }

    /// Recolours vertex `v`.
    #[inline]
    pub fn set_colour(&mut self, v: u32, colour: u32) {
        self.colours[v as usize] = colour;
    }

    /// Adds the directed edge `from -> to` of colour `colour`.
    #[inline]
    pub fn add_edge(&mut self, from: u32, to: u32, colour: u32) {
        self.edges.push((from, to, colour));
    }

    /// Records that atom `a` occurs in the state; returns `a`, its vertex.
    #[inline]
    pub fn atom(&mut self, a: u32) -> u32 {
        self.touched = true;
        self.occurs[a as usize] = true;
        a
    }

    /// Whether some atom occurs.
    pub fn touched(&self) -> bool {
        self.touched
    }

    /// Vertex colours (atoms first).
    pub fn colours(&self) -> &[u32] {
        &self.colours
    }

    /// The directed coloured edges `(from, to, colour)`.
    pub fn edges(&self) -> &[(u32, u32, u32)] {
        &self.edges
    }

    /// Per atom: whether it occurs in the state.
    pub fn occurs(&self) -> &[bool] {
        &self.occurs
    }

    /// Writes the graph into `out` for canonical labelling or export.
    pub fn emit(&self, out: &mut GraphBuilder) {
        out.reset(self.colours.len());
        for (v, &c) in self.colours.iter().enumerate() {
            out.set_colour(v, c);
        }
        for &(a, b, c) in &self.edges {
            out.add_edge(a as usize, b as usize, c);
        }
    }
}

/// A front end's symmetry: the domains, the action of permutations on
/// states, and states as coloured graphs.
///
/// # Contract
/// - [`Self::describe`] looks only at *which* element occurs where, never
///   at its index: a permutation `p` maps the graph of `s` onto the graph of
///   `p(s)` (atoms follow `p`, everything else follows the structure);
/// - conversely the state can be read back from its graph given the atoms'
///   identities, so a graph automorphism restricted to the atoms fixes the
///   state;
/// - the model's transitions and checked labels commute with
///   [`Self::permute`].
///
/// Then two states have isomorphic graphs exactly when a permutation maps
/// one to the other, and the canonical labelling gives one representative
/// per orbit (`crate::symmetry::Canonicaliser`).
pub trait StateSymmetry: Sync {
    /// Per-thread buffers.
    type Scratch: Send;

    /// Fresh per-thread buffers.
    fn new_scratch(&self) -> Self::Scratch;

    /// The permutable domains.
    fn domains(&self) -> &Permutable;

    /// Describes `state` into `graph`, which holds the atoms already (see
    /// [`StateGraph::reset`]). Parts of the state that no permutation
    /// changes may be left out. Returns [`StateGraph::touched`]: whether
    /// an atom occurs.
    fn describe(&self, state: &[u64], scratch: &mut Self::Scratch, graph: &mut StateGraph) -> bool;

    /// Writes `perm(state)` into `out`; false when the image cannot be
    /// encoded (`out` is then unspecified).
    fn permute(
        &self,
        perm: &Permutation,
        state: &[u64],
        scratch: &mut Self::Scratch,
        out: &mut Vec<u64>,
    ) -> bool;

    /// The name of permutable domain `domain` in the model's language
    /// (a scalarset type, a deferred set), for messages.
    fn domain_name(&self, domain: usize) -> String {
        format!("domain {}", domain + 1)
    }

    /// The name of element `element` of domain `domain`, for messages.
    fn element_name(&self, _domain: usize, element: u32) -> String {
        format!("#{}", element + 1)
    }

    /// Whether the initial states of class `class` ([`super::Step::initial_class`])
    /// are left out: the front end may leave out a class whose initial
    /// states are symmetric to those of another class that is kept (B sets
    /// up one constant valuation per orbit). Default: none is.
    fn skips_initial_class(&self, _class: usize) -> bool {
        false
    }

    /// Whether the front end computes symmetry markers
    /// ([`Self::marker_representative`], [`Self::marker_permutation`]).
    fn has_markers(&self) -> bool {
        false
    }

    /// Approximate symmetry markers: writes the representative of
    /// `state`'s marker into `out` (the first state met with that marker,
    /// or any fixed choice), not necessarily symmetric to `state`.
    fn marker_representative(
        &self,
        state: &[u64],
        _scratch: &mut Self::Scratch,
        out: &mut Vec<u64>,
    ) {
        out.clear();
        out.extend_from_slice(state);
    }

    /// Exact markers: a permutation that orders the elements by their
    /// markers (several representatives per orbit are allowed).
    fn marker_permutation(&self, _state: &[u64], _scratch: &mut Self::Scratch) -> Permutation {
        Permutation::identity(&self.domains().set_sizes)
    }
}

/// The symmetry of a model without permutable domains.
#[derive(Clone, Debug)]
pub struct NoSymmetry(Permutable);

impl Default for NoSymmetry {
    fn default() -> Self {
        NoSymmetry(Permutable::none())
    }
}

impl StateSymmetry for NoSymmetry {
    type Scratch = ();

    fn new_scratch(&self) {}

    fn domains(&self) -> &Permutable {
        &self.0
    }

    fn describe(&self, _: &[u64], _: &mut (), _: &mut StateGraph) -> bool {
        false
    }

    fn permute(&self, _: &Permutation, state: &[u64], _: &mut (), out: &mut Vec<u64>) -> bool {
        out.clear();
        out.extend_from_slice(state);
        true
    }
}
