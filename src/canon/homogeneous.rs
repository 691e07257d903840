//! The homogeneity test: a cheap, exact sufficient condition for a node of
//! the search tree to need no further search.
//!
//! A partition is *homogeneous* if, for every vertex in a non-singleton cell,
//! its sorted list of (cell, colour) edges is the same as for the other
//! vertices of its cell, and every non-singleton cell `A` has, towards every
//! non-singleton cell `B` and edge colour, either no edges or edges to all of
//! `B` (all of `B` but the vertex itself when `A = B`). Then every permutation
//! that maps each cell onto itself is an automorphism, so the stabiliser of
//! the node is the product of the symmetric groups on its cells and all
//! leaves below the node have the same certificate. The search treats such a
//! node as a leaf (like nauty's `cheapautom`, but exact for digraphs and edge
//! colours): complete graphs, empty graphs and complete multipartite graphs
//! are labelled at the root.

use super::graph::Graph;
use super::partition::Partition;

const OUT: u64 = 1 << 62;
const IN: u64 = 2 << 62;
const LOOP: u64 = 3 << 62;

/// Writes the sorted edge signature of `v` into `sig`.
fn signature(g: &Graph, p: &Partition, v: usize, sig: &mut Vec<u64>) {
    sig.clear();
    for e in g.out_off[v] as usize..g.out_off[v + 1] as usize {
        let (u, c) = (g.out_to[e] as usize, u64::from(g.out_col[e]));
        if u == v {
            sig.push(LOOP | c);
        } else {
            sig.push(OUT | (u64::from(p.cell[u]) << 32) | c);
        }
    }
    for e in g.in_off[v] as usize..g.in_off[v + 1] as usize {
        let (u, c) = (g.in_from[e] as usize, u64::from(g.in_col[e]));
        if u != v && p.len[p.cell[u] as usize] == 1 {
            sig.push(IN | (u64::from(p.cell[u]) << 32) | c);
        }
    }
    sig.sort_unstable();
}

/// Whether `p` is homogeneous for `g` (see the module docs), given that all
/// cells before position `from` are singletons. `sig` and `rep` are scratch
/// buffers. Checks the first non-singleton cell first, which rejects most
/// nodes after one vertex.
pub(crate) fn is_homogeneous(
    g: &Graph,
    p: &Partition,
    from: usize,
    sig: &mut Vec<u64>,
    rep: &mut Vec<u64>,
) -> bool {
    if p.is_discrete() {
        return true;
    }
    let n = p.n();
    let mut a = from;
    while a < n {
        let la = p.len[a] as usize;
        if la > 1 {
            signature(g, p, p.lab[a] as usize, rep);
            // Runs of equal entries towards non-singleton cells must cover
            // the whole cell; every other entry must be unique.
            let mut i = 0;
            while i < rep.len() {
                let mut j = i + 1;
                while j < rep.len() && rep[j] == rep[i] {
                    j += 1;
                }
                let run = j - i;
                let expected = if rep[i] & LOOP == OUT {
                    let b = ((rep[i] >> 32) & 0x3fff_ffff) as usize;
                    p.len[b] as usize - usize::from(a == b)
                } else {
                    1
                };
                if run != expected {
                    return false;
                }
                i = j;
            }
            for q in a + 1..a + la {
                signature(g, p, p.lab[q] as usize, sig);
                if sig.len() != rep.len() || (!sig.is_empty() && sig[..] != rep[..]) {
                    return false;
                }
            }
        }
        a += la;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::graph::GraphBuilder;

    fn unit(g: &Graph) -> Partition {
        let mut p = Partition::default();
        p.init_by_colour(&g.colour, &mut Vec::new());
        p
    }

    #[test]
    fn complete_and_empty_graphs_are_homogeneous() {
        let mut b = GraphBuilder::new(5);
        for i in 0..5 {
            for j in 0..i {
                b.add_undirected_edge(i, j, 3);
            }
        }
        let g = b.build();
        let (mut s, mut r) = (Vec::new(), Vec::new());
        assert!(is_homogeneous(&g, &unit(&g), 0, &mut s, &mut r));
        let e = GraphBuilder::new(5).build();
        assert!(is_homogeneous(&e, &unit(&e), 0, &mut s, &mut r));
    }

    #[test]
    fn cycle_and_half_loops_are_not_homogeneous() {
        let mut b = GraphBuilder::new(4);
        for i in 0..4 {
            b.add_undirected_edge(i, (i + 1) % 4, 0);
        }
        let g = b.build();
        let (mut s, mut r) = (Vec::new(), Vec::new());
        assert!(!is_homogeneous(&g, &unit(&g), 0, &mut s, &mut r));
        let mut b = GraphBuilder::new(2);
        b.add_edge(0, 0, 0);
        let g = b.build();
        assert!(!is_homogeneous(&g, &unit(&g), 0, &mut s, &mut r));
    }
}
