//! The engine against brute force: exhaustive enumeration of small graphs
//! (the number of distinct forms must be the number of isomorphism classes)
//! and random coloured digraphs on 7 vertices compared with the minimum
//! over all 5040 relabellings, including group orders and orbits.

use crate::canon_common;

use std::collections::HashSet;

use canon_common::{Dense, Rng, apply_labelling, identity_form, random_graph};
use orbit::canon::{GraphBuilder, Workspace};

/// Labels every graph given by `edges` subsets and counts distinct forms;
/// checks on each that the labelling reproduces the form (so equal forms
/// imply isomorphism, and the count can only be too high if a class splits).
fn count_classes(n: usize, pairs: &[(usize, usize)], directed: bool) -> usize {
    let mut ws = Workspace::new();
    let mut forms = HashSet::new();
    let mut b = GraphBuilder::new(n);
    for mask in 0u64..1 << pairs.len() {
        b.reset(n);
        for (i, &(x, y)) in pairs.iter().enumerate() {
            if mask >> i & 1 == 1 {
                if directed {
                    b.add_edge(x, y, 0);
                } else {
                    b.add_undirected_edge(x, y, 0);
                }
            }
        }
        let g = b.build();
        ws.canonicalise(&g);
        if mask % 61 == 0 {
            assert_eq!(
                identity_form(&apply_labelling(&g, ws.labelling())),
                ws.form()
            );
        }
        forms.insert(ws.canon_form());
    }
    forms.len()
}

#[test]
fn all_undirected_graphs_up_to_6_vertices() {
    // OEIS A000088.
    for (n, classes) in [(1, 1), (2, 2), (3, 4), (4, 11), (5, 34), (6, 156)] {
        let pairs: Vec<_> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        assert_eq!(count_classes(n, &pairs, false), classes, "n = {n}");
    }
}

#[test]
fn all_digraphs_up_to_4_vertices() {
    // OEIS A000273.
    for (n, classes) in [(1, 1), (2, 3), (3, 16), (4, 218)] {
        let pairs: Vec<_> = (0..n)
            .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect();
        assert_eq!(count_classes(n, &pairs, true), classes, "n = {n}");
    }
}

#[test]
fn random_coloured_digraphs_on_7_vertices_match_brute_force() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut ws = Workspace::new();
    for round in 0..60 {
        let (vcols, ecols, density) = [(1, 1, 30), (2, 1, 20), (1, 2, 40), (3, 2, 25)][round % 4];
        let g = random_graph(&mut rng, 7, vcols, ecols, density);
        let dense = Dense::of(&g);
        // Group order and orbits.
        ws.canonicalise(&g);
        let (count, orbits) = dense.automorphisms();
        let (m, e) = ws.group_size();
        assert_eq!(
            (m * 10f64.powi(e)).round() as u64,
            count,
            "group order, round {round}"
        );
        let ours: Vec<usize> = ws.orbits().iter().map(|&o| o as usize).collect();
        assert_eq!(ours, orbits, "orbits, round {round}");
        // Equal forms exactly when brute-force canonical keys are equal:
        // compare with a relabelled copy, possibly with one edge changed.
        let form = ws.canon_form();
        let perm = rng.permutation(7);
        let mut b = GraphBuilder::new(7);
        for v in 0..7 {
            b.set_colour(perm[v] as usize, g.vertex_colour(v));
            for (u, c) in g.out_edges(v) {
                b.add_edge(perm[v] as usize, perm[u as usize] as usize, c);
            }
        }
        if round % 2 == 1 {
            let (x, y) = (rng.below(7), rng.below(7));
            b.add_edge(x, y, 0);
        }
        let h = b.build();
        ws.canonicalise(&h);
        let same_brute = dense.canonical() == Dense::of(&h).canonical();
        assert_eq!(form == ws.canon_form(), same_brute, "round {round}");
    }
}

/// A disjoint union of copies of small random pieces (some isomorphic, in
/// different vertex orders) plus isolated vertices, on 8 vertices.
fn random_union(rng: &mut Rng) -> orbit::canon::Graph {
    let mut b = GraphBuilder::new(8);
    let piece = random_graph(rng, 3, 2, 2, 45);
    let mut at = 0;
    while at + 3 <= 8 - rng.below(3) {
        // Each copy relabelled; every other copy has one colour changed.
        let perm = rng.permutation(3);
        let recolour = rng.below(3) == 0;
        for v in 0..3 {
            let colour = piece.vertex_colour(v) + u32::from(recolour && v == 0);
            b.set_colour(at + perm[v] as usize, colour);
            for (u, c) in piece.out_edges(v) {
                b.add_edge(at + perm[v] as usize, at + perm[u as usize] as usize, c);
            }
        }
        at += 3;
    }
    for v in at..8 {
        b.set_colour(v, rng.below(2) as u32);
    }
    b.build()
}

#[test]
fn disjoint_unions_match_brute_force() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut ws = Workspace::new();
    for round in 0..80 {
        let g = random_union(&mut rng);
        let dense = Dense::of(&g);
        ws.canonicalise(&g);
        for perm in ws.generators() {
            assert!(g.is_automorphism(perm), "round {round}");
        }
        let (count, orbits) = dense.automorphisms();
        let (m, e) = ws.group_size();
        assert_eq!(
            (m * 10f64.powi(e)).round() as u64,
            count,
            "group, round {round}"
        );
        let ours: Vec<usize> = ws.orbits().iter().map(|&o| o as usize).collect();
        assert_eq!(ours, orbits, "orbits, round {round}");
        let form = ws.canon_form();
        let h = g.permuted(&rng.permutation(8));
        ws.canonicalise(&h);
        let canonical = dense.canonical();
        assert!(canonical == Dense::of(&h).canonical());
        assert_eq!(form, ws.canon_form(), "round {round}");
        // A different union: forms differ exactly when brute force says so.
        let k = random_union(&mut rng);
        ws.canonicalise(&k);
        let same = form == ws.canon_form();
        assert_eq!(
            same,
            canonical == Dense::of(&k).canonical(),
            "round {round}"
        );
    }
}
