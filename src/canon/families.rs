//! Graph families for tests and benchmarks: random coloured digraphs,
//! graphs with huge groups (complete, empty, unions of cycles, grids) and
//! families that defeat refinement alone (random regular graphs, Paley
//! graphs, projective planes, Cai–Fürer–Immerman graphs, Miyazaki-style
//! CFI graphs over Möbius ladders), plus small coloured graphs shaped like
//! the state graphs of thesis Figures 2.15–2.18.

use super::graph::{Graph, GraphBuilder, splitmix};

/// Deterministic pseudo-random numbers (splitmix64 sequence).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        splitmix(self.0)
    }

    /// Uniform in `0..k` (`k > 0`).
    pub fn below(&mut self, k: usize) -> usize {
        (self.next_u64() % k as u64) as usize
    }

    /// A uniformly random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<u32> {
        let mut p: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            p.swap(i, self.below(i + 1));
        }
        p
    }
}

/// A random digraph: `n` vertices with colours below `vertex_colours`,
/// `n * out_degree` random edges with colours below `edge_colours`.
pub fn random_digraph(
    rng: &mut Rng,
    n: usize,
    out_degree: usize,
    vertex_colours: u32,
    edge_colours: u32,
) -> Graph {
    let mut b = GraphBuilder::new(n);
    for v in 0..n {
        b.set_colour(v, rng.below(vertex_colours as usize) as u32);
    }
    for _ in 0..n * out_degree {
        let (x, y) = (rng.below(n), rng.below(n));
        b.add_edge(x, y, rng.below(edge_colours as usize) as u32);
    }
    b.build()
}

/// The complete graph `K_n`.
pub fn complete(n: usize) -> Graph {
    let mut b = GraphBuilder::new(n);
    for x in 0..n {
        for y in 0..x {
            b.add_undirected_edge(x, y, 0);
        }
    }
    b.build()
}

/// `k` disjoint undirected cycles of length `len`.
pub fn disjoint_cycles(k: usize, len: usize) -> Graph {
    let mut b = GraphBuilder::new(k * len);
    for c in 0..k {
        for i in 0..len {
            b.add_undirected_edge(c * len + i, c * len + (i + 1) % len, 0);
        }
    }
    b.build()
}

/// The `w` by `h` grid graph.
pub fn grid(w: usize, h: usize) -> Graph {
    let mut b = GraphBuilder::new(w * h);
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                b.add_undirected_edge(v, v + 1, 0);
            }
            if y + 1 < h {
                b.add_undirected_edge(v, v + w, 0);
            }
        }
    }
    b.build()
}

/// A random `d`-regular simple undirected graph on `n` vertices (pairing
/// model with restarts; `n * d` must be even).
pub fn random_regular(rng: &mut Rng, n: usize, d: usize) -> Graph {
    assert!(
        (n * d).is_multiple_of(2) && d < n,
        "no {d}-regular graph on {n} vertices"
    );
    let mut points: Vec<usize> = Vec::with_capacity(n * d);
    'retry: loop {
        points.clear();
        points.extend((0..n).flat_map(|v| std::iter::repeat_n(v, d)));
        let mut edges = std::collections::HashSet::new();
        while !points.is_empty() {
            let i = rng.below(points.len());
            let a = points.swap_remove(i);
            let j = rng.below(points.len());
            let c = points.swap_remove(j);
            if a == c || !edges.insert((a.min(c), a.max(c))) {
                continue 'retry;
            }
        }
        let mut b = GraphBuilder::new(n);
        for (x, y) in edges {
            b.add_undirected_edge(x, y, 0);
        }
        return b.build();
    }
}

/// The Paley graph on the prime `q ≡ 1 (mod 4)`: `x ~ y` iff `x - y` is a
/// non-zero square. Strongly regular.
pub fn paley(q: usize) -> Graph {
    let mut square = vec![false; q];
    for x in 1..q {
        square[x * x % q] = true;
    }
    let mut b = GraphBuilder::new(q);
    for x in 0..q {
        for y in 0..x {
            if square[(x - y) % q] {
                b.add_undirected_edge(x, y, 0);
            }
        }
    }
    b.build()
}

/// The point–line incidence graph of the projective plane over the prime
/// field `F_q`: `2 (q^2 + q + 1)` vertices, uncoloured.
pub fn projective_plane(q: usize) -> Graph {
    // Normalised projective points: first non-zero coordinate is 1.
    let mut pts = Vec::new();
    for a in 0..q {
        for b in 0..q {
            pts.push([1, a, b]);
        }
    }
    for b in 0..q {
        pts.push([0, 1, b]);
    }
    pts.push([0, 0, 1]);
    let m = pts.len();
    let mut g = GraphBuilder::new(2 * m);
    for (i, p) in pts.iter().enumerate() {
        for (j, l) in pts.iter().enumerate() {
            if (p[0] * l[0] + p[1] * l[1] + p[2] * l[2]) % q == 0 {
                g.add_undirected_edge(i, m + j, 0);
            }
        }
    }
    g.build()
}

/// The Cai–Fürer–Immerman graph over the cubic graph `base` (undirected,
/// every vertex of degree 3), twisted at one edge if `twisted`. The twisted
/// and untwisted graphs are not isomorphic but have the same refinement
/// behaviour; vertices are uncoloured.
pub fn cfi(base: &Graph, twisted: bool) -> Graph {
    let n = base.vertex_count();
    // Per base vertex: 4 middle vertices (even subsets of its 3 edges),
    // then 2 end vertices per incident edge: 10 vertices per gadget.
    let nbrs: Vec<Vec<u32>> = (0..n)
        .map(|v| base.out_edges(v).map(|(u, _)| u).collect())
        .collect();
    assert!(
        nbrs.iter().all(|l| l.len() == 3),
        "CFI base graph must be cubic"
    );
    let end = |v: usize, i: usize, bit: usize| v * 10 + 4 + 2 * i + bit;
    let mut b = GraphBuilder::new(10 * n);
    for v in 0..n {
        let evens = [0b000, 0b011, 0b101, 0b110];
        for (k, s) in evens.iter().enumerate() {
            for i in 0..3 {
                b.add_undirected_edge(v * 10 + k, end(v, i, (s >> i) & 1), 0);
            }
        }
    }
    let mut first = true;
    for v in 0..n {
        for (i, &u) in nbrs[v].iter().enumerate() {
            let u = u as usize;
            if u < v {
                continue;
            }
            let j = nbrs[u]
                .iter()
                .position(|&w| w as usize == v)
                .expect("undirected base");
            let twist = usize::from(twisted && first);
            first = false;
            for bit in 0..2 {
                b.add_undirected_edge(end(v, i, bit), end(u, j, bit ^ twist), 0);
            }
        }
    }
    b.build()
}

/// The Möbius ladder on `2k` vertices (cycle plus long diagonals): cubic.
pub fn moebius_ladder(k: usize) -> Graph {
    let n = 2 * k;
    let mut b = GraphBuilder::new(n);
    for v in 0..n {
        b.add_undirected_edge(v, (v + 1) % n, 0);
        if v < k {
            b.add_undirected_edge(v, v + k, 0);
        }
    }
    b.build()
}

/// Miyazaki-style hard graphs: CFI graphs over Möbius ladders, which
/// make McKay-style search take exponential time without good pruning.
pub fn miyazaki(k: usize, twisted: bool) -> Graph {
    cfi(&moebius_ladder(k), twisted)
}

/// A small coloured digraph shaped like a B state graph (thesis Figures
/// 2.15–2.18): a root, `elements` deferred-set elements in `sets` colours,
/// set-valued variables (element -> root edges coloured by variable),
/// relations (element -> element) and sets of sets (element -> set vertex
/// -> root).
pub fn state_like(rng: &mut Rng, elements: usize, sets: u32, variables: u32) -> Graph {
    let set_vertices = elements / 3;
    let n = 1 + elements + set_vertices;
    let mut b = GraphBuilder::new(n);
    b.set_colour(0, 0);
    for e in 0..elements {
        b.set_colour(1 + e, 1 + (e as u32 % sets));
    }
    for s in 0..set_vertices {
        b.set_colour(1 + elements + s, 1 + sets);
        b.add_edge(1 + elements + s, 0, variables);
    }
    for var in 0..variables {
        match var % 3 {
            0 => {
                for e in 0..elements {
                    if rng.below(2) == 0 {
                        b.add_edge(1 + e, 0, var);
                    }
                }
            }
            1 => {
                for _ in 0..elements / 2 {
                    let (x, y) = (rng.below(elements), rng.below(elements));
                    b.add_edge(1 + x, 1 + y, var);
                }
            }
            _ => {
                for s in 0..set_vertices {
                    for _ in 0..2 {
                        b.add_edge(1 + rng.below(elements), 1 + elements + s, var);
                    }
                }
            }
        }
    }
    b.build()
}
