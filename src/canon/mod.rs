//! Canonical labelling of vertex- and edge-coloured directed graphs.
//!
//! Symmetry reduction decides whether two states are symmetric by turning
//! them into coloured graphs and comparing canonical forms (thesis
//! [Spermann 2009], ch. 3.2–3.4). A canonical form
//! satisfies Definition 3.10: isomorphic coloured graphs get the same form,
//! others different ones. This module computes it in-house with McKay's
//! individualisation–refinement scheme:
//!
//! - [`graph`]: the input, a compressed sparse graph with vertex colours and
//!   coloured directed edges, built by [`GraphBuilder`];
//! - `partition`: backtrackable ordered partitions;
//! - `refine`: equitable refinement counting neighbours per edge colour and
//!   direction, with a Hopcroft splitter queue;
//! - `homogeneous`: an exact test for nodes whose subtree needs no search;
//! - `search`: the search tree with trace and automorphism pruning, in a
//!   reusable [`Workspace`];
//! - `components`: disjoint unions of isomorphic parts, labelled part by
//!   part and sorted;
//! - [`form`]: leaf certificates, canonical forms and their hashes;
//! - [`dreadnaut`]: reading and writing nauty's dreadnaut graph format;
//! - [`families`]: graph families for tests and benchmarks.
//!
//! # Contracts
//! - The labelling and the form depend only on the graph (vertex count,
//!   vertex colours as ordered values, the set of coloured directed edges),
//!   never on the run, thread or workspace history: equal forms across
//!   threads mean isomorphic graphs.
//! - The form is exact. [`Workspace::form_hash`] is a 128-bit hash of it:
//!   storing hashes only risks a false "same" with probability about
//!   `k^2 / 2^129` for `k` distinct graphs.
//! - A [`Workspace`] is `Send`; keep one per thread. Once its buffers have
//!   grown to the sizes at hand, `canonicalise` does not allocate.
//!
//! # Cost
//! Refinement is near `O(m log n)` per node. Graphs with huge groups that
//! are homogeneous (complete, empty, complete multipartite) are labelled at
//! the root. Disjoint unions whose root needs a search are labelled
//! component by component (each distinct induced component once), so many
//! identical components cost one small search, not `O(components^2)`
//! nodes as in nauty; cells of isolated vertices are never individualised.
//! The search is weakest on large CFI graphs.
//! `scripts/canon_bench.sh` compares the engine with nauty, Traces and bliss.
//!
//! ```
//! use orbit::canon::{GraphBuilder, Workspace};
//! let mut a = GraphBuilder::new(3);
//! a.add_edge(0, 1, 0);
//! a.add_edge(1, 2, 5);
//! let mut b = GraphBuilder::new(3);
//! b.add_edge(2, 0, 0);
//! b.add_edge(0, 1, 5);
//! let mut ws = Workspace::new();
//! ws.canonicalise(&a.build());
//! let fa = ws.canon_form();
//! ws.canonicalise(&b.build());
//! assert_eq!(fa, ws.canon_form());
//! ```

mod components;
pub mod dreadnaut;
pub mod families;
pub mod form;
pub mod graph;
mod homogeneous;
mod orbits;
mod partition;
mod refine;
mod search;

pub use form::CanonForm;
pub use graph::{Graph, GraphBuilder};
pub use search::Workspace;
