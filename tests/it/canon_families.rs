//! Families that defeat naive refinement or have huge groups: forms are
//! invariant under relabelling, non-isomorphic twins (twisted CFI graphs)
//! are told apart, and group orders match the known values.

use orbit::canon::families::{self, Rng};
use orbit::canon::{Graph, GraphBuilder, Workspace};

/// Canonicalises `g`, checks that a relabelled copy gets the same form and
/// that the generators are automorphisms; returns the group order as
/// (mantissa, exponent) and the number of orbits.
fn check(ws: &mut Workspace, rng: &mut Rng, g: &Graph) -> ((f64, i32), usize) {
    ws.canonicalise(g);
    let form = ws.canon_form();
    for perm in ws.generators() {
        assert!(g.is_automorphism(perm));
    }
    let group = ws.group_size();
    let orbits = ws
        .orbits()
        .iter()
        .enumerate()
        .filter(|&(v, &o)| v == o as usize)
        .count();
    let h = g.permuted(&rng.permutation(g.vertex_count()));
    ws.canonicalise(&h);
    assert_eq!(ws.canon_form(), form);
    (group, orbits)
}

fn order(group: (f64, i32)) -> f64 {
    group.0 * 10f64.powi(group.1)
}

#[test]
fn group_orders_of_symmetric_families() {
    let mut ws = Workspace::new();
    let mut rng = Rng::new(5);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
    // Paley(q): order q (q - 1) / 2; vertex-transitive.
    let (g, o) = check(&mut ws, &mut rng, &families::paley(13));
    assert!(close(order(g), 78.0) && o == 1);
    let (g, o) = check(&mut ws, &mut rng, &families::paley(29));
    assert!(close(order(g), 406.0) && o == 1);
    // The Heawood graph (Fano plane incidence graph): order 336.
    let (g, o) = check(&mut ws, &mut rng, &families::projective_plane(2));
    assert!(close(order(g), 336.0) && o == 1);
    // PG(2,3) incidence graph: |PGL(3,3)| * 2 = 5616 * 2.
    let (g, _) = check(&mut ws, &mut rng, &families::projective_plane(3));
    assert!(close(order(g), 11232.0));
    // 6 disjoint 4-cycles: 8^6 * 6!.
    let (g, o) = check(&mut ws, &mut rng, &families::disjoint_cycles(6, 4));
    assert!(close(order(g), 8f64.powi(6) * 720.0) && o == 1);
    // A 5 x 6 grid: 4 symmetries.
    let (g, _) = check(&mut ws, &mut rng, &families::grid(5, 6));
    assert!(close(order(g), 4.0));
    // K_40 and the empty graph on 60 vertices: n!, found at the root.
    let (g, o) = check(&mut ws, &mut rng, &families::complete(40));
    let fact40: f64 = (1..=40).map(f64::from).product();
    assert!(close(order(g), fact40) && o == 1);
    assert_eq!(ws.nodes(), 1);
    let (g, _) = check(&mut ws, &mut rng, &GraphBuilder::new(60).build());
    let fact60: f64 = (1..=60).map(f64::from).product();
    assert!(close(order(g), fact60));
}

#[test]
fn twisted_cfi_and_miyazaki_graphs_are_told_apart() {
    let mut ws = Workspace::new();
    let mut rng = Rng::new(9);
    for base_size in [4, 8, 12] {
        let base = families::random_regular(&mut rng, base_size, 3);
        let (plain, twisted) = (families::cfi(&base, false), families::cfi(&base, true));
        check(&mut ws, &mut rng, &plain);
        check(&mut ws, &mut rng, &twisted);
        ws.canonicalise(&plain);
        let a = ws.canon_form();
        ws.canonicalise(&twisted);
        assert_ne!(a, ws.canon_form(), "CFI over {base_size} base vertices");
    }
    for k in [3, 5, 8] {
        ws.canonicalise(&families::miyazaki(k, false));
        let a = ws.canon_form();
        ws.canonicalise(&families::miyazaki(k, true));
        assert_ne!(a, ws.canon_form(), "Miyazaki-style k = {k}");
    }
}

#[test]
fn state_like_graphs_with_edge_colours_are_invariant() {
    let mut ws = Workspace::new();
    let mut rng = Rng::new(13);
    for size in [6, 12, 30, 60] {
        let g = families::state_like(&mut rng, size, 2, 4);
        check(&mut ws, &mut rng, &g);
    }
}

#[test]
fn disjoint_unions_are_labelled_component_by_component() {
    let mut ws = Workspace::new();
    let mut rng = Rng::new(21);
    // 200 disjoint 5-cycles: order 10^200 * 200!, one orbit, and the search
    // visits one small tree for one cycle instead of a tree per cycle pair.
    let (g, o) = check(&mut ws, &mut rng, &families::disjoint_cycles(200, 5));
    let log10_fact200: f64 = (1..=200).map(|i| f64::from(i).log10()).sum();
    let log10 = f64::from(g.1) + g.0.log10();
    assert!((log10 - (200.0 + log10_fact200)).abs() < 1e-6 && o == 1);
    assert!(ws.nodes() < 20, "{} nodes", ws.nodes());
    // Cycles of two lengths plus a grid: the classes stay apart.
    let mut b = GraphBuilder::new(3 * 4 + 2 * 6 + 6);
    let mut at = 0;
    for len in [4, 4, 4, 6, 6] {
        for i in 0..len {
            b.add_undirected_edge(at + i, at + (i + 1) % len, 0);
        }
        at += len;
    }
    for (x, y) in [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)] {
        b.add_undirected_edge(at + x, at + y, 0);
    }
    let (g, o) = check(&mut ws, &mut rng, &b.build());
    // 8^3 * 3! * 12^2 * 2! * 4 (the 2 x 3 grid).
    assert!((order(g) - 512.0 * 6.0 * 144.0 * 2.0 * 4.0).abs() < 1e-6);
    assert_eq!(o, 1 + 1 + 2);
}

#[test]
fn cells_of_isolated_vertices_are_skipped_as_targets() {
    // Colour 0: four isolated vertices; colours 1..=20: one hub each;
    // colour 21: a directed 6-cycle with an edge from every hub. The
    // isolated cell comes first and more singleton hubs than the target
    // scan looks at next: the target must still be the cycle's cell.
    let hubs = 20;
    let mut b = GraphBuilder::new(4 + hubs + 6);
    let cycle = 4 + hubs;
    for h in 0..hubs {
        b.set_colour(4 + h, 1 + h as u32);
    }
    for i in 0..6 {
        b.set_colour(cycle + i, 1 + hubs as u32);
        b.add_edge(cycle + i, cycle + (i + 1) % 6, 0);
        for h in 0..hubs {
            b.add_edge(4 + h, cycle + i, 0);
        }
    }
    let mut ws = Workspace::new();
    let mut rng = Rng::new(31);
    let (g, o) = check(&mut ws, &mut rng, &b.build());
    assert!((order(g) - 24.0 * 6.0).abs() < 1e-9);
    assert_eq!(o, 2 + hubs);
}
