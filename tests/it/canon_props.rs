//! Property tests of the canonical labelling engine: invariance under
//! relabelling, the labelling reproduces the form, generators are
//! automorphisms and orbits are unions of their cycles.

use crate::canon_common;

use canon_common::{apply_labelling, identity_form};
use orbit::canon::{Graph, GraphBuilder, Workspace};
use proptest::prelude::*;

/// A random coloured digraph: vertex colours, edges (from, to, colour).
#[derive(Clone, Debug)]
struct Spec {
    colours: Vec<u32>,
    edges: Vec<(usize, usize, u32)>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..14).prop_flat_map(|n| {
        (
            proptest::collection::vec(0u32..3, n),
            proptest::collection::vec((0..n, 0..n, 0u32..3), 0..3 * n),
        )
            .prop_map(|(colours, edges)| Spec { colours, edges })
    })
}

fn build(s: &Spec) -> Graph {
    let mut b = GraphBuilder::new(s.colours.len());
    for (v, &c) in s.colours.iter().enumerate() {
        b.set_colour(v, c);
    }
    for &(f, t, c) in &s.edges {
        b.add_edge(f, t, c);
    }
    b.build()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn form_is_invariant_and_certified(s in spec(), seed in any::<u64>()) {
        let g = build(&s);
        let n = g.vertex_count();
        let mut ws = Workspace::new();
        ws.canonicalise(&g);
        let form = ws.form().to_vec();
        let hash = ws.form_hash();
        // C1: the labelling applied to G gives the form.
        let lab = ws.labelling().to_vec();
        prop_assert_eq!(identity_form(&apply_labelling(&g, &lab)), form.clone());
        // Generators are automorphisms; orbits are unions of their cycles.
        for perm in ws.generators() {
            prop_assert!(g.is_automorphism(perm));
            for (v, &image) in perm.iter().enumerate() {
                prop_assert_eq!(ws.orbits()[v], ws.orbits()[image as usize]);
            }
        }
        // C2: a relabelled copy gets the same form and hash.
        let mut perm: Vec<u32> = (0..n as u32).collect();
        let mut x = seed | 1;
        for i in (1..n).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            perm.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let h = g.permuted(&perm);
        ws.canonicalise(&h);
        prop_assert_eq!(ws.form(), &form[..]);
        prop_assert_eq!(ws.form_hash(), hash);
        // Orbits map along the relabelling.
        let orbits_h = ws.orbits().to_vec();
        let mut ws2 = Workspace::new();
        ws2.canonicalise(&g);
        for a in 0..n {
            for b in 0..n {
                let same_g = ws2.orbits()[a] == ws2.orbits()[b];
                let same_h = orbits_h[perm[a] as usize] == orbits_h[perm[b] as usize];
                prop_assert_eq!(same_g, same_h);
            }
        }
    }
}

/// Thesis Example 3.28: colour classes that are empty in one graph and not
/// in the other must not collide.
#[test]
fn empty_colour_classes_do_not_collide() {
    let make = |second: u32| {
        let mut b = GraphBuilder::new(3);
        b.set_colour(0, 0);
        b.set_colour(1, second);
        b.set_colour(2, second);
        b.add_edge(0, 2, 0);
        b.add_edge(1, 2, 0);
        b.build()
    };
    let mut ws = Workspace::new();
    ws.canonicalise(&make(1));
    let grey = ws.canon_form();
    ws.canonicalise(&make(2));
    assert_ne!(grey, ws.canon_form());
}

/// Edge colours are part of the form, and so is the edge direction.
#[test]
fn edge_colours_and_directions_matter() {
    let mut forms = Vec::new();
    let mut ws = Workspace::new();
    for (c, directed) in [(0, false), (1, false), (0, true)] {
        let mut b = GraphBuilder::new(2);
        if directed {
            b.add_edge(0, 1, c);
        } else {
            b.add_undirected_edge(0, 1, c);
        }
        ws.canonicalise(&b.build());
        forms.push(ws.canon_form());
    }
    assert_ne!(forms[0], forms[1]);
    assert_ne!(forms[0], forms[2]);
}

/// The workspace can be reused across sizes and gives the same results as
/// a fresh one.
#[test]
fn workspace_reuse_matches_fresh() {
    let mut reused = Workspace::new();
    for n in [7usize, 2, 12, 0, 1, 5] {
        let mut b = GraphBuilder::new(n);
        for v in 0..n {
            b.add_edge(v, (v * 3 + 1) % n.max(1), (v % 2) as u32);
        }
        let g = b.build();
        reused.canonicalise(&g);
        let mut fresh = Workspace::new();
        fresh.canonicalise(&g);
        assert_eq!(reused.form(), fresh.form());
        assert_eq!(reused.labelling(), fresh.labelling());
    }
}
