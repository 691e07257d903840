//! Vertex- and edge-coloured directed graphs in compressed sparse row form.
//!
//! A [`Graph`] is immutable once built; a [`GraphBuilder`] collects vertex
//! colours and coloured edges and writes them into a `Graph`, reusing the
//! target's buffers so that callers who canonicalise many graphs do not touch
//! the allocator once capacities have grown.
//!
//! The edge set is a *set* of triples `(from, to, colour)`: adding the same
//! triple twice has no effect, while two edges between the same ordered pair
//! with different colours are both kept. Loops are allowed. An undirected
//! edge is the pair of directed edges `a -> b` and `b -> a` with one colour.

/// Hash weight of an edge colour seen from the head of the edge (the
/// refinement adds it to a vertex for each in-neighbour in the splitter).
fn in_weight(colour: u32) -> u64 {
    splitmix(u64::from(colour) << 1) | 1
}

/// Hash weight of an edge colour seen from the tail of the edge.
fn out_weight(colour: u32) -> u64 {
    splitmix((u64::from(colour) << 1) | 1) | 1
}

/// The splitmix64 finaliser: a fixed bijective mixing of 64-bit words.
pub(crate) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A vertex- and edge-coloured directed graph on vertices `0..n`.
///
/// Built by [`GraphBuilder`]; both out- and in-adjacency are stored, each row
/// sorted by (neighbour, colour).
#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub(crate) colour: Vec<u32>,
    pub(crate) out_off: Vec<u32>,
    pub(crate) out_to: Vec<u32>,
    pub(crate) out_col: Vec<u32>,
    /// Refinement weight of each out-edge, added to its head.
    pub(crate) out_w: Vec<u64>,
    pub(crate) in_off: Vec<u32>,
    pub(crate) in_from: Vec<u32>,
    pub(crate) in_col: Vec<u32>,
    /// Refinement weight of each in-edge, added to its tail.
    pub(crate) in_w: Vec<u64>,
    /// Whether every edge's reverse is an edge of the same colour: then
    /// in-rows equal out-rows and refinement walks the out-rows only.
    pub(crate) symmetric: bool,
    /// Whether refinement keys are exact neighbour counts (undirected, one
    /// edge colour: each key is the count times one weight, injective).
    /// Then refined partitions are equitable without hash collisions, so a
    /// cell's first vertex speaks for the whole cell.
    pub(crate) exact_keys: bool,
    /// The colour of every edge, if all edges have one colour (or there
    /// are none): then certificates leave the colour out.
    pub(crate) edge_colour: Option<u32>,
    /// Vertex -> the key the whole vertex set gives it as a splitter (the
    /// sum of the weights of its edges): refines the root in one pass.
    pub(crate) degree_key: Vec<u64>,
}

impl Graph {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.colour.len()
    }

    /// Number of directed edges (an undirected edge counts twice).
    pub fn edge_count(&self) -> usize {
        self.out_to.len()
    }

    /// Colour of vertex `v`.
    pub fn vertex_colour(&self, v: usize) -> u32 {
        self.colour[v]
    }

    /// Out-neighbours of `v` with edge colours, sorted by (neighbour, colour).
    pub fn out_edges(&self, v: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let r = self.out_off[v] as usize..self.out_off[v + 1] as usize;
        self.out_to[r.clone()]
            .iter()
            .copied()
            .zip(self.out_col[r].iter().copied())
    }

    /// In-neighbours of `v` with edge colours, sorted by (neighbour, colour).
    pub fn in_edges(&self, v: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let r = self.in_off[v] as usize..self.in_off[v + 1] as usize;
        self.in_from[r.clone()]
            .iter()
            .copied()
            .zip(self.in_col[r].iter().copied())
    }

    /// Whether the edge `from -> to` with `colour` is present.
    pub fn has_edge(&self, from: usize, to: usize, colour: u32) -> bool {
        let r = self.out_off[from] as usize..self.out_off[from + 1] as usize;
        let (tos, cols) = (&self.out_to[r.clone()], &self.out_col[r]);
        let key = (to as u32, colour);
        let mut lo = 0;
        let mut hi = tos.len();
        while lo < hi {
            let mid = (lo + hi) / 2;
            match (tos[mid], cols[mid]).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    /// Whether `perm` (vertex `v` maps to `perm[v]`) is an automorphism:
    /// it preserves vertex colours and maps the coloured edge set onto itself.
    pub fn is_automorphism(&self, perm: &[u32]) -> bool {
        let n = self.vertex_count();
        if perm.len() != n {
            return false;
        }
        let mut seen = vec![false; n];
        for &p in perm {
            let p = p as usize;
            if p >= n || std::mem::replace(&mut seen[p], true) {
                return false;
            }
        }
        self.maps_edges(perm)
    }

    /// Whether the map `perm` (assumed a permutation) preserves vertex
    /// colours and maps every coloured edge onto an edge. Allocation-free.
    pub(crate) fn maps_edges(&self, perm: &[u32]) -> bool {
        (0..self.vertex_count()).all(|v| {
            let pv = perm[v] as usize;
            self.colour[v] == self.colour[pv]
                && self.out_off[v + 1] - self.out_off[v] == self.out_off[pv + 1] - self.out_off[pv]
                && self
                    .out_edges(v)
                    .all(|(u, c)| self.has_edge(pv, perm[u as usize] as usize, c))
        })
    }

    /// The graph with vertex `v` renamed to `perm[v]` (`perm` must be a
    /// permutation of `0..n`).
    pub fn permuted(&self, perm: &[u32]) -> Graph {
        let n = self.vertex_count();
        let mut b = GraphBuilder::new(n);
        for v in 0..n {
            b.set_colour(perm[v] as usize, self.colour[v]);
            for (u, c) in self.out_edges(v) {
                b.add_edge(perm[v] as usize, perm[u as usize] as usize, c);
            }
        }
        b.build()
    }
}

/// Collects vertex colours and coloured edges, then builds a [`Graph`].
#[derive(Clone, Debug, Default)]
pub struct GraphBuilder {
    colour: Vec<u32>,
    /// Staged edges as (from, to, colour).
    edges: Vec<(u32, u32, u32)>,
}

impl GraphBuilder {
    /// A builder for a graph on `n` vertices, all of colour 0, no edges.
    pub fn new(n: usize) -> Self {
        let mut b = Self::default();
        b.reset(n);
        b
    }

    /// Starts over with `n` vertices of colour 0 and no edges, keeping the
    /// buffers' capacity.
    ///
    /// # Panics
    /// If `n` does not fit in 31 bits.
    pub fn reset(&mut self, n: usize) {
        assert!(n < (1 << 31), "graph too large: {n} vertices");
        self.colour.clear();
        self.colour.resize(n, 0);
        self.edges.clear();
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.colour.len()
    }

    /// Sets the colour of vertex `v`. Colours are ordered: the canonical
    /// form lists colour classes by increasing colour.
    ///
    /// # Panics
    /// If `v` is not a vertex.
    pub fn set_colour(&mut self, v: usize, colour: u32) {
        self.colour[v] = colour;
    }

    /// Adds the directed edge `from -> to` with `colour`.
    ///
    /// # Panics
    /// If `from` or `to` is not a vertex.
    pub fn add_edge(&mut self, from: usize, to: usize, colour: u32) {
        let n = self.colour.len();
        assert!(from < n && to < n, "edge {from} -> {to} outside 0..{n}");
        self.edges.push((from as u32, to as u32, colour));
    }

    /// Adds the undirected edge `{a, b}` with `colour` (both directions).
    ///
    /// # Panics
    /// If `a` or `b` is not a vertex.
    pub fn add_undirected_edge(&mut self, a: usize, b: usize, colour: u32) {
        self.add_edge(a, b, colour);
        if a != b {
            self.add_edge(b, a, colour);
        }
    }

    /// Builds a new graph.
    pub fn build(&mut self) -> Graph {
        let mut g = Graph::default();
        self.build_into(&mut g);
        g
    }

    /// Builds the graph into `g`, reusing its buffers. Sorts and
    /// deduplicates the staged edges (the builder keeps them).
    pub fn build_into(&mut self, g: &mut Graph) {
        let n = self.colour.len();
        self.edges.sort_unstable();
        self.edges.dedup();
        g.colour.clear();
        g.colour.extend_from_slice(&self.colour);

        // Out-adjacency: edges are sorted by (from, to, colour) already.
        g.out_off.clear();
        g.out_off.resize(n + 1, 0);
        g.out_to.clear();
        g.out_col.clear();
        g.out_w.clear();
        for &(f, t, c) in &self.edges {
            g.out_off[f as usize + 1] += 1;
            g.out_to.push(t);
            g.out_col.push(c);
            g.out_w.push(in_weight(c));
        }
        for v in 0..n {
            g.out_off[v + 1] += g.out_off[v];
        }

        // In-adjacency by a stable counting sort on the head: rows stay
        // sorted by (from, colour).
        let m = self.edges.len();
        g.in_off.clear();
        g.in_off.resize(n + 1, 0);
        for &(_, t, _) in &self.edges {
            g.in_off[t as usize + 1] += 1;
        }
        for v in 0..n {
            g.in_off[v + 1] += g.in_off[v];
        }
        g.in_from.clear();
        g.in_from.resize(m, 0);
        g.in_col.clear();
        g.in_col.resize(m, 0);
        g.in_w.clear();
        g.in_w.resize(m, 0);
        // Use out_off-like cursors: borrow in_off shifted by one slot.
        for &(f, t, c) in &self.edges {
            let slot = &mut g.in_off[t as usize];
            let i = *slot as usize;
            *slot += 1;
            g.in_from[i] = f;
            g.in_col[i] = c;
            g.in_w[i] = out_weight(c);
        }
        // The cursors moved each row start to the next row's start: shift back.
        for v in (0..n).rev() {
            g.in_off[v + 1] = g.in_off[v];
        }
        g.in_off[0] = 0;
        g.finish();
    }
}

impl Graph {
    /// Writes into `sub` the subgraph induced by `verts` (which must be
    /// closed under edges in both directions, as a union of connected
    /// components is), vertex `verts[i]` becoming `i`; `local` maps each
    /// vertex of `verts` to its index. `row` is scratch space. Reuses
    /// `sub`'s buffers.
    pub(crate) fn induced_into(
        &self,
        verts: &[u32],
        local: &[u32],
        row: &mut Vec<u64>,
        sub: &mut Graph,
    ) {
        sub.colour.clear();
        sub.colour
            .extend(verts.iter().map(|&v| self.colour[v as usize]));
        induced_rows(
            (&self.out_off, &self.out_to, &self.out_col),
            verts,
            local,
            row,
            (&mut sub.out_off, &mut sub.out_to, &mut sub.out_col),
        );
        induced_rows(
            (&self.in_off, &self.in_from, &self.in_col),
            verts,
            local,
            row,
            (&mut sub.in_off, &mut sub.in_from, &mut sub.in_col),
        );
        sub.out_w.clear();
        sub.out_w.extend(sub.out_col.iter().map(|&c| in_weight(c)));
        sub.in_w.clear();
        sub.in_w.extend(sub.in_col.iter().map(|&c| out_weight(c)));
        sub.finish();
    }

    /// Computes the derived fields (`symmetric`, `degree_key`) from the
    /// adjacency.
    fn finish(&mut self) {
        let g = self;
        let n = g.colour.len();
        g.symmetric = g.out_off == g.in_off && g.out_to == g.in_from && g.out_col == g.in_col;
        let colour = g.out_col.first().copied().unwrap_or(0);
        let weight = in_weight(colour).wrapping_add(out_weight(colour));
        g.edge_colour = g.out_col.iter().all(|&c| c == colour).then_some(colour);
        g.exact_keys = g.symmetric
            && !g.out_col.is_empty()
            && g.out_col.iter().all(|&c| c == colour)
            && weight.trailing_zeros() < 32;
        g.degree_key.clear();
        g.degree_key.resize(n, 0);
        for (e, &t) in g.out_to.iter().enumerate() {
            g.degree_key[t as usize] = g.degree_key[t as usize].wrapping_add(g.out_w[e]);
        }
        for (e, &f) in g.in_from.iter().enumerate() {
            g.degree_key[f as usize] = g.degree_key[f as usize].wrapping_add(g.in_w[e]);
        }
    }
}

/// Adjacency rows in CSR form: offsets, neighbours, edge colours.
type Rows<'a> = (&'a [u32], &'a [u32], &'a [u32]);

/// Writes the rows of `verts` in `src`, renamed by `local` and sorted by
/// (neighbour, colour), to `dst`.
fn induced_rows(
    src: Rows<'_>,
    verts: &[u32],
    local: &[u32],
    row: &mut Vec<u64>,
    dst: (&mut Vec<u32>, &mut Vec<u32>, &mut Vec<u32>),
) {
    let (src_off, src_to, src_col) = src;
    let (off, to, col) = dst;
    off.clear();
    off.push(0);
    to.clear();
    col.clear();
    for &v in verts {
        let r = src_off[v as usize] as usize..src_off[v as usize + 1] as usize;
        row.clear();
        row.extend(r.map(|e| (u64::from(local[src_to[e] as usize]) << 32) | u64::from(src_col[e])));
        row.sort_unstable();
        for &x in row.iter() {
            to.push((x >> 32) as u32);
            col.push(x as u32);
        }
        off.push(to.len() as u32);
    }
}
