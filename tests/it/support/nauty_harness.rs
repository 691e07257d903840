//! Running nauty (dense and sparse) and Traces on orbit graphs through
//! `nauty-Traces-sys`. Shared by `tests/canon_nauty.rs` (cross-checks) and
//! `benches/canon_compare.rs` (timings), which include this file with
//! `#[path]`, so both call the tools the same way.
//!
//! nauty and Traces know vertex colours (as the initial ordered partition)
//! but not edge colours: [`subdivide`] encodes those.
#![allow(dead_code)]

use std::os::raw::c_int;

use nauty_Traces_sys::*;
use orbit::canon::{Graph, GraphBuilder};

/// Whether any edge has a non-zero colour.
pub fn has_edge_colours(g: &Graph) -> bool {
    (0..g.vertex_count()).any(|v| g.out_edges(v).any(|(_, c)| c != 0))
}

/// Replaces every edge `u -> v` of colour `c` by `u -> x -> v` with a new
/// vertex `x` of a colour above all vertex colours, one per edge colour:
/// an encoding of edge colours that nauty understands.
pub fn subdivide(g: &Graph) -> Graph {
    let n = g.vertex_count();
    let top = (0..n).map(|v| g.vertex_colour(v)).max().unwrap_or(0) + 1;
    let mut b = GraphBuilder::new(n + g.edge_count());
    let mut x = n;
    for v in 0..n {
        b.set_colour(v, g.vertex_colour(v));
        for (u, c) in g.out_edges(v) {
            b.set_colour(x, top + c);
            b.add_edge(v, x, 0);
            b.add_edge(x, u as usize, 0);
            x += 1;
        }
    }
    b.build()
}

/// Initial `lab`/`ptn` for nauty and Traces from the vertex colours (cells
/// by increasing colour), and the colour classes as `colour << 32 | size`.
pub fn colour_partition(g: &Graph) -> (Vec<c_int>, Vec<c_int>, Vec<u64>) {
    let n = g.vertex_count();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| (g.vertex_colour(v), v));
    let lab = order.iter().map(|&v| v as c_int).collect();
    let mut ptn = vec![1; n];
    let mut classes = Vec::new();
    let mut run = 0u64;
    for i in 0..n {
        run += 1;
        if i + 1 == n || g.vertex_colour(order[i]) != g.vertex_colour(order[i + 1]) {
            ptn[i] = 0;
            classes.push((u64::from(g.vertex_colour(order[i])) << 32) | run);
            run = 0;
        }
    }
    (lab, ptn, classes)
}

/// A graph prepared for dense nauty (`densenauty`), with its buffers.
pub struct DenseNauty {
    g: Vec<graph>,
    lab0: Vec<c_int>,
    ptn0: Vec<c_int>,
    lab: Vec<c_int>,
    ptn: Vec<c_int>,
    orbits: Vec<c_int>,
    canon: Vec<graph>,
    classes: Vec<u64>,
    options: optionblk,
    /// Statistics of the last run.
    pub stats: statsblk,
    m: usize,
    n: usize,
}

impl DenseNauty {
    /// Prepares `g` (edge colours ignored); `directed` selects nauty's
    /// digraph mode.
    pub fn new(g: &Graph, directed: bool) -> Self {
        let n = g.vertex_count();
        let m = SETWORDSNEEDED(n);
        let mut dg = empty_graph(m, n);
        for v in 0..n {
            for (u, _) in g.out_edges(v) {
                ADDONEARC(&mut dg, v, u as usize, m);
            }
        }
        let (lab0, ptn0, classes) = colour_partition(g);
        let mut options = if directed {
            optionblk::default_digraph()
        } else {
            optionblk::default()
        };
        options.getcanon = TRUE;
        options.defaultptn = FALSE;
        // SAFETY: checks that the library matches the bindings' word size
        // and version; no memory is touched.
        unsafe {
            nauty_check(
                WORDSIZE as c_int,
                m as c_int,
                n as c_int,
                NAUTYVERSIONID as c_int,
            );
        }
        DenseNauty {
            g: dg,
            lab: lab0.clone(),
            ptn: ptn0.clone(),
            lab0,
            ptn0,
            orbits: vec![0; n],
            canon: empty_graph(m, n),
            classes,
            options,
            stats: statsblk::default(),
            m,
            n,
        }
    }

    /// Computes the canonical labelling and graph.
    pub fn run(&mut self) {
        self.lab.copy_from_slice(&self.lab0);
        self.ptn.copy_from_slice(&self.ptn0);
        // SAFETY: every buffer is sized for (m, n) as nauty requires.
        unsafe {
            densenauty(
                self.g.as_mut_ptr(),
                self.lab.as_mut_ptr(),
                self.ptn.as_mut_ptr(),
                self.orbits.as_mut_ptr(),
                &mut self.options,
                &mut self.stats,
                self.m as c_int,
                self.n as c_int,
                self.canon.as_mut_ptr(),
            );
        }
        assert_eq!(self.stats.errstatus, 0, "nauty failed");
    }

    /// The colour classes followed by the canonical graph of the last run:
    /// equal exactly for isomorphic vertex-coloured graphs.
    pub fn canonical_words(&self) -> Vec<u64> {
        let mut words = self.classes.clone();
        words.extend(self.canon.iter().copied());
        words
    }
}

/// nauty's output graph, grown with malloc by nauty and Traces.
struct CanonSg(sparsegraph);

impl Drop for CanonSg {
    fn drop(&mut self) {
        SG_FREE(&mut self.0);
    }
}

/// A graph prepared for sparse nauty (`sparsenauty`) and Traces.
pub struct Sparse {
    sg: SparseGraph,
    lab0: Vec<c_int>,
    ptn0: Vec<c_int>,
    lab: Vec<c_int>,
    ptn: Vec<c_int>,
    orbits: Vec<c_int>,
    canon: CanonSg,
    nauty_options: optionblk,
    traces_options: TracesOptions,
    /// Statistics of the last nauty run.
    pub nauty_stats: statsblk,
    /// Statistics of the last Traces run.
    pub traces_stats: TracesStats,
}

impl Sparse {
    /// Prepares `g` (edge colours ignored); `directed` selects nauty's
    /// digraph mode (Traces takes undirected graphs only).
    pub fn new(g: &Graph, directed: bool) -> Self {
        let n = g.vertex_count();
        let mut sg = SparseGraph::new(n, g.edge_count());
        let mut k = 0;
        for v in 0..n {
            sg.v[v] = k;
            for (u, _) in g.out_edges(v) {
                sg.e[k] = u as c_int;
                k += 1;
            }
            sg.d[v] = (k - sg.v[v]) as c_int;
        }
        let (lab0, ptn0, _) = colour_partition(g);
        let mut nauty_options = if directed {
            optionblk::default_sparse_digraph()
        } else {
            optionblk::default_sparse()
        };
        nauty_options.getcanon = TRUE;
        nauty_options.defaultptn = FALSE;
        let traces_options = TracesOptions {
            getcanon: TRUE,
            defaultptn: FALSE,
            ..TracesOptions::default()
        };
        Sparse {
            sg,
            lab: lab0.clone(),
            ptn: ptn0.clone(),
            lab0,
            ptn0,
            orbits: vec![0; n],
            canon: CanonSg(sparsegraph::default()),
            nauty_options,
            traces_options,
            nauty_stats: statsblk::default(),
            traces_stats: TracesStats::default(),
        }
    }

    /// Computes the canonical labelling and graph with sparse nauty, or
    /// with Traces if `traces`.
    pub fn run(&mut self, traces: bool) {
        self.lab.copy_from_slice(&self.lab0);
        self.ptn.copy_from_slice(&self.ptn0);
        let mut sg = sparsegraph::from(&mut self.sg);
        // SAFETY: `sg` points into live vectors of the stated lengths;
        // `canon` is grown by nauty/Traces with malloc and freed on drop.
        unsafe {
            if traces {
                Traces(
                    &mut sg,
                    self.lab.as_mut_ptr(),
                    self.ptn.as_mut_ptr(),
                    self.orbits.as_mut_ptr(),
                    &mut self.traces_options,
                    &mut self.traces_stats,
                    &mut self.canon.0,
                );
            } else {
                sparsenauty(
                    &mut sg,
                    self.lab.as_mut_ptr(),
                    self.ptn.as_mut_ptr(),
                    self.orbits.as_mut_ptr(),
                    &mut self.nauty_options,
                    &mut self.nauty_stats,
                    &mut self.canon.0,
                );
            }
        }
    }
}
