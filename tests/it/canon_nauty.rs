//! Cross-check against nauty (bundled by the `nauty-Traces-sys` crate):
//! on thousands of random pairs of graphs with equal degree sequences,
//! including regular graphs where refinement alone decides nothing, orbit's
//! forms are equal exactly when nauty's canonical graphs are.

use crate::nauty_harness;

use nauty_harness::{DenseNauty, subdivide};
use orbit::canon::families::{self, Rng};
use orbit::canon::{Graph, GraphBuilder, Workspace};

/// nauty's canonical graph of `g` (edge colours ignored), vertex colours as
/// the ordered partition, with the colour classes prepended.
fn nauty_canon(g: &Graph, directed: bool) -> Vec<u64> {
    let mut nauty = DenseNauty::new(g, directed);
    nauty.run();
    nauty.canonical_words()
}

/// `g` relabelled by a random permutation.
fn relabel(rng: &mut Rng, g: &Graph) -> Graph {
    g.permuted(&rng.permutation(g.vertex_count()))
}

/// One degree-preserving switch: edges a->b, c->d become a->d, c->b (for
/// undirected graphs both directions), if that keeps the graph simple.
fn switch(rng: &mut Rng, g: &Graph, directed: bool) -> Graph {
    let n = g.vertex_count();
    let edges: Vec<(usize, usize)> = (0..n)
        .flat_map(|v| g.out_edges(v).map(move |(u, _)| (v, u as usize)))
        .filter(|&(v, u)| directed || v < u)
        .collect();
    for _ in 0..50 {
        if edges.len() < 2 {
            break;
        }
        let (a, b) = edges[rng.below(edges.len())];
        let (c, d) = edges[rng.below(edges.len())];
        let distinct = a != c && a != d && b != c && b != d;
        if !distinct || g.has_edge(a, d, 0) || g.has_edge(c, b, 0) {
            continue;
        }
        let mut nb = GraphBuilder::new(n);
        for v in 0..n {
            nb.set_colour(v, g.vertex_colour(v));
        }
        for &(x, y) in &edges {
            if (x, y) == (a, b) || (x, y) == (c, d) {
                continue;
            }
            if directed {
                nb.add_edge(x, y, 0);
            } else {
                nb.add_undirected_edge(x, y, 0);
            }
        }
        if directed {
            nb.add_edge(a, d, 0);
            nb.add_edge(c, b, 0);
        } else {
            nb.add_undirected_edge(a, d, 0);
            nb.add_undirected_edge(c, b, 0);
        }
        return nb.build();
    }
    g.clone()
}

fn undirected_random(rng: &mut Rng, n: usize, p: usize, colours: u32) -> Graph {
    let mut b = GraphBuilder::new(n);
    for v in 0..n {
        b.set_colour(v, rng.below(colours as usize) as u32);
        for u in 0..v {
            if rng.below(100) < p {
                b.add_undirected_edge(v, u, 0);
            }
        }
    }
    b.build()
}

fn check_pair(ws: &mut Workspace, a: &Graph, b: &Graph, directed: bool, what: &str) -> bool {
    ws.canonicalise(a);
    let fa = ws.canon_form();
    ws.canonicalise(b);
    let fb = ws.canon_form();
    let nauty_equal = nauty_canon(a, directed) == nauty_canon(b, directed);
    assert_eq!(fa == fb, nauty_equal, "{what}: orbit and nauty disagree");
    nauty_equal
}

#[test]
fn random_pairs_with_equal_degree_sequences_agree_with_nauty() {
    let mut rng = Rng::new(7);
    let mut ws = Workspace::new();
    let (mut equal, mut different) = (0, 0);
    for round in 0..1500 {
        let n = 4 + rng.below(24);
        let (g, directed) = match round % 5 {
            0 | 1 if n.is_multiple_of(2) => (families::random_regular(&mut rng, n, 3), false),
            2 => (
                families::random_regular(&mut rng, (n + n % 2).max(6), 4),
                false,
            ),
            3 => (
                families::random_digraph(&mut rng, n, 2, 1 + (round % 2) as u32, 1),
                true,
            ),
            _ => (
                undirected_random(&mut rng, n, 25, 1 + (round % 2) as u32),
                false,
            ),
        };
        let h = if rng.below(2) == 0 {
            relabel(&mut rng, &g)
        } else {
            let switched = switch(&mut rng, &g, directed);
            relabel(&mut rng, &switched)
        };
        if check_pair(&mut ws, &g, &h, directed, &format!("round {round}")) {
            equal += 1;
        } else {
            different += 1;
        }
    }
    assert!(
        equal > 300 && different > 300,
        "equal {equal}, different {different}"
    );
}

#[test]
fn hard_families_agree_with_nauty() {
    let mut rng = Rng::new(11);
    let mut ws = Workspace::new();
    let base = families::random_regular(&mut rng, 8, 3);
    let cases = [
        (families::paley(13), families::paley(13)),
        (families::paley(29), families::paley(29)),
        (families::cfi(&base, false), families::cfi(&base, true)),
        (families::cfi(&base, false), families::cfi(&base, false)),
        (families::miyazaki(4, false), families::miyazaki(4, true)),
        (families::projective_plane(3), families::projective_plane(3)),
        (families::grid(5, 6), families::grid(6, 5)),
        (
            families::disjoint_cycles(6, 4),
            families::disjoint_cycles(8, 3),
        ),
    ];
    for (i, (a, b)) in cases.iter().enumerate() {
        let b = relabel(&mut rng, b);
        check_pair(&mut ws, a, &b, false, &format!("family case {i}"));
    }
}

/// Native edge colours against nauty on the subdivided graphs.
#[test]
fn edge_coloured_graphs_agree_with_nauty_on_subdivisions() {
    let mut rng = Rng::new(17);
    let mut ws = Workspace::new();
    let (mut equal, mut different) = (0, 0);
    for round in 0..300 {
        let g = if round % 2 == 0 {
            let elements = 6 + rng.below(12);
            families::state_like(&mut rng, elements, 2, 3)
        } else {
            let n = 5 + rng.below(10);
            families::random_digraph(&mut rng, n, 2, 1, 3)
        };
        // A relabelled copy, possibly with one edge recoloured.
        let perm = rng.permutation(g.vertex_count());
        let mut b = GraphBuilder::new(g.vertex_count());
        let recolour = rng.below(2) == 1;
        let mut first = true;
        for v in 0..g.vertex_count() {
            b.set_colour(perm[v] as usize, g.vertex_colour(v));
            for (u, c) in g.out_edges(v) {
                let c = if recolour && first { (c + 1) % 3 } else { c };
                first = false;
                b.add_edge(perm[v] as usize, perm[u as usize] as usize, c);
            }
        }
        let h = b.build();
        ws.canonicalise(&g);
        let fg = ws.canon_form();
        ws.canonicalise(&h);
        let same = fg == ws.canon_form();
        let nauty_same = nauty_canon(&subdivide(&g), true) == nauty_canon(&subdivide(&h), true);
        assert_eq!(same, nauty_same, "round {round}");
        if same {
            equal += 1;
        } else {
            different += 1;
        }
    }
    assert!(
        equal > 50 && different > 50,
        "equal {equal}, different {different}"
    );
}

/// `orbit canon` on a dreadnaut file: equal hashes exactly for the graphs
/// whose nauty canonical forms are equal.
#[test]
fn cli_hashes_agree_with_nauty_over_a_file() {
    let mut rng = Rng::new(23);
    let mut text = String::new();
    let mut graphs = Vec::new();
    for i in 0..40 {
        let n = 8 + rng.below(6);
        let g = if i % 4 == 3 && !graphs.is_empty() {
            let pick = rng.below(graphs.len());
            relabel(&mut rng, &graphs[pick])
        } else {
            undirected_random(&mut rng, n, 30, 1)
        };
        text.push_str(&orbit::canon::dreadnaut::write(&g, false, 0));
        text.push_str(" x\n");
        graphs.push(g);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graphs.dre");
    std::fs::write(&path, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_orbit"))
        .arg("canon")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let hashes: Vec<&str> = printed
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(hashes.len(), graphs.len());
    let forms: Vec<Vec<u64>> = graphs.iter().map(|g| nauty_canon(g, false)).collect();
    let mut equal_pairs = 0;
    for a in 0..graphs.len() {
        for b in a + 1..graphs.len() {
            assert_eq!(
                hashes[a] == hashes[b],
                forms[a] == forms[b],
                "graphs {a} and {b}"
            );
            equal_pairs += usize::from(forms[a] == forms[b]);
        }
    }
    assert!(equal_pairs >= 5, "only {equal_pairs} isomorphic pairs");
}
