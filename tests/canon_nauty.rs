//! Cross-check against nauty (bundled by the `nauty-Traces-sys` crate):
//! on thousands of random pairs of graphs with equal degree sequences,
//! including regular graphs where refinement alone decides nothing, orbit's
//! forms are equal exactly when nauty's canonical graphs are.

use std::os::raw::c_int;

use nauty_Traces_sys::*;
use orbit::canon::families::{self, Rng};
use orbit::canon::{Graph, GraphBuilder, Workspace};

/// nauty's canonical graph of `g` (edge colours ignored), vertex colours as
/// the ordered partition, with the colour class sizes prepended.
fn nauty_canon(g: &Graph, directed: bool) -> Vec<u64> {
    let n = g.vertex_count();
    let m = SETWORDSNEEDED(n);
    let mut options = if directed {
        optionblk::default_digraph()
    } else {
        optionblk::default()
    };
    options.getcanon = TRUE;
    options.defaultptn = FALSE;
    let mut stats = statsblk::default();
    let mut dg = empty_graph(m, n);
    for v in 0..n {
        for (u, _) in g.out_edges(v) {
            ADDONEARC(&mut dg, v, u as usize, m);
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| (g.vertex_colour(v), v));
    let mut lab: Vec<c_int> = order.iter().map(|&v| v as c_int).collect();
    let mut ptn: Vec<c_int> = vec![1; n];
    let mut sizes = Vec::new();
    let mut run = 0u64;
    for i in 0..n {
        run += 1;
        if i + 1 == n || g.vertex_colour(order[i]) != g.vertex_colour(order[i + 1]) {
            ptn[i] = 0;
            sizes.push(u64::from(g.vertex_colour(order[i])) << 32 | run);
            run = 0;
        }
    }
    let mut orbits = vec![0; n];
    let mut canon = empty_graph(m, n);
    // SAFETY: all buffers have the sizes nauty expects for (m, n), and
    // `nauty_check` validates the word size and version first.
    unsafe {
        nauty_check(
            WORDSIZE as c_int,
            m as c_int,
            n as c_int,
            NAUTYVERSIONID as c_int,
        );
        densenauty(
            dg.as_mut_ptr(),
            lab.as_mut_ptr(),
            ptn.as_mut_ptr(),
            orbits.as_mut_ptr(),
            &mut options,
            &mut stats,
            m as c_int,
            n as c_int,
            canon.as_mut_ptr(),
        );
    }
    assert_eq!(stats.errstatus, 0, "nauty failed");
    sizes.extend(canon.iter().copied());
    sizes
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
