//! Helpers shared by the canonical labelling tests: a small random number
//! generator, the documented form layout computed directly, and brute-force
//! oracles over all permutations for graphs of up to 8 vertices.
#![allow(dead_code)]

use orbit::canon::{Graph, GraphBuilder};

/// xorshift64: deterministic test randomness.
pub struct Rng(pub u64);

impl Rng {
    /// Next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..k`.
    pub fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
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

/// The form of `g` in its own vertex order, by the documented layout.
pub fn identity_form(g: &Graph) -> Vec<u32> {
    let n = g.vertex_count();
    let mut form = vec![n as u32];
    let mut classes: Vec<(u32, u32)> = Vec::new();
    let mut cols: Vec<u32> = (0..n).map(|v| g.vertex_colour(v)).collect();
    cols.sort_unstable();
    for c in cols {
        match classes.last_mut() {
            Some((lc, s)) if *lc == c => *s += 1,
            _ => classes.push((c, 1)),
        }
    }
    form.push(classes.len() as u32);
    for (c, s) in classes {
        form.extend([c, s]);
    }
    for v in 0..n {
        let mut row: Vec<(u32, u32)> = g.out_edges(v).collect();
        row.sort_unstable();
        form.push(row.len() as u32);
        for (t, c) in row {
            form.extend([t, c]);
        }
    }
    form
}

/// Relabels `g` so that vertex `lab[i]` becomes `i`.
pub fn apply_labelling(g: &Graph, lab: &[u32]) -> Graph {
    let mut inv = vec![0u32; lab.len()];
    for (i, &v) in lab.iter().enumerate() {
        inv[v as usize] = i as u32;
    }
    g.permuted(&inv)
}

/// A graph as a dense matrix of edge-colour bit sets plus vertex colours.
pub struct Dense {
    pub n: usize,
    pub colour: Vec<u32>,
    pub adj: Vec<u64>,
}

impl Dense {
    /// The dense form of `g` (edge colours below 64).
    pub fn of(g: &Graph) -> Self {
        let n = g.vertex_count();
        let mut adj = vec![0u64; n * n];
        for v in 0..n {
            for (u, c) in g.out_edges(v) {
                adj[v * n + u as usize] |= 1 << c;
            }
        }
        Dense {
            n,
            colour: (0..n).map(|v| g.vertex_colour(v)).collect(),
            adj,
        }
    }

    /// The matrix read in the order `order` (position -> vertex), with the
    /// vertex colours first.
    fn key(&self, order: &[usize], out: &mut Vec<u64>) {
        out.clear();
        out.extend(order.iter().map(|&v| u64::from(self.colour[v])));
        for &a in order {
            for &b in order {
                out.push(self.adj[a * self.n + b]);
            }
        }
    }

    /// Calls `f` with every permutation of `0..n` (Heap's algorithm).
    fn for_each_permutation(&self, mut f: impl FnMut(&[usize])) {
        let n = self.n;
        let mut p: Vec<usize> = (0..n).collect();
        let mut c = vec![0usize; n];
        f(&p);
        let mut i = 1;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    p.swap(0, i);
                } else {
                    p.swap(c[i], i);
                }
                f(&p);
                c[i] += 1;
                i = 1;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
    }

    /// The `k`-th entry of [`Self::key`] of `order`, without building it.
    fn key_at(&self, order: &[usize], k: usize) -> u64 {
        let n = self.n;
        if k < n {
            u64::from(self.colour[order[k]])
        } else {
            let (a, b) = ((k - n) / n, (k - n) % n);
            self.adj[order[a] * n + order[b]]
        }
    }

    /// Brute-force canonical key: the smallest key over all orders. Each
    /// order's key is compared with the smallest so far entry by entry
    /// and built only where it is smaller (most orders differ early).
    pub fn canonical(&self) -> Vec<u64> {
        let mut best: Vec<u64> = Vec::new();
        self.for_each_permutation(|p| {
            if best.is_empty() {
                self.key(p, &mut best);
                return;
            }
            let smaller = best
                .iter()
                .enumerate()
                .find_map(|(k, &b)| {
                    let x = self.key_at(p, k);
                    (x != b).then_some(x < b)
                })
                .unwrap_or(false);
            if smaller {
                self.key(p, &mut best);
            }
        });
        best
    }

    /// Brute-force automorphisms: their number and the orbit partition
    /// (smallest vertex of each orbit).
    pub fn automorphisms(&self) -> (u64, Vec<usize>) {
        let n = self.n;
        let mut count = 0;
        let mut orbit: Vec<usize> = (0..n).collect();
        self.for_each_permutation(|p| {
            let ok = (0..n).all(|a| {
                self.colour[a] == self.colour[p[a]]
                    && (0..n).all(|b| self.adj[a * n + b] == self.adj[p[a] * n + p[b]])
            });
            if ok {
                count += 1;
                for a in 0..n {
                    orbit[a] = orbit[a].min(p[a]);
                }
            }
        });
        // Every image of `a` was seen, so `orbit[a]` is its orbit minimum.
        (count, orbit)
    }
}

/// A random coloured digraph on `n` vertices.
pub fn random_graph(rng: &mut Rng, n: usize, vcols: u32, ecols: u32, density: u64) -> Graph {
    let mut b = GraphBuilder::new(n);
    for v in 0..n {
        b.set_colour(v, (rng.next() % u64::from(vcols)) as u32);
        for u in 0..n {
            if rng.next() % 100 < density {
                b.add_edge(v, u, (rng.next() % u64::from(ecols)) as u32);
            }
        }
    }
    b.build()
}
