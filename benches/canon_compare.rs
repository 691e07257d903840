//! Compares orbit's canonical labelling with nauty (dense and sparse),
//! Traces and bliss on graph families, and prints a Markdown table of
//! median times per graph and the ratio of orbit to the fastest other tool.
//!
//! nauty and Traces run in process through `nauty-Traces-sys`; bliss runs in
//! the C++ harness `scripts/canon_bliss_harness.cc`, found through the
//! `ORBIT_BLISS_HARNESS` variable (set by `scripts/canon_bench.sh`). Every
//! tool computes the canonical labelling *and* the canonical graph. Tools
//! without edge colours get the edge-coloured families with every coloured
//! edge subdivided by a vertex of a colour reserved for that edge colour.
//!
//! Times are medians over repetitions in which orbit, nauty and Traces take
//! turns (bliss runs afterwards in its own process); the machine's load
//! still moves single rows, so compare ratios across a few runs.
//!
//! Arguments: an optional substring filter on family names, `--quick` for
//! fewer repetitions, `--orbit-only` to run only orbit (for profiling).

use std::os::raw::c_int;
use std::time::Instant;

use nauty_Traces_sys::*;
use orbit::canon::families::{self, Rng};
use orbit::canon::{Graph, GraphBuilder, Workspace};

/// A named set of graphs; `directed` selects the digraph modes of the tools.
struct Family {
    name: String,
    graphs: Vec<Graph>,
    directed: bool,
}

/// Whether any edge has a non-zero colour.
fn has_edge_colours(g: &Graph) -> bool {
    (0..g.vertex_count()).any(|v| g.out_edges(v).any(|(_, c)| c != 0))
}

/// Replaces every edge `u -> v` of colour `c` by `u -> x -> v` with a new
/// vertex `x` of a colour above all vertex colours, one per edge colour.
fn subdivide(g: &Graph) -> Graph {
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

/// Initial `lab`/`ptn` for nauty and Traces from the vertex colours.
fn colour_partition(g: &Graph) -> (Vec<c_int>, Vec<c_int>) {
    let n = g.vertex_count();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| (g.vertex_colour(v), v));
    let lab = order.iter().map(|&v| v as c_int).collect();
    let ptn = (0..n)
        .map(|i| {
            let last = i + 1 == n || g.vertex_colour(order[i]) != g.vertex_colour(order[i + 1]);
            if last { 0 } else { 1 }
        })
        .collect();
    (lab, ptn)
}

/// One tool labelling graph `i` of a family per call.
type Runner = Box<dyn FnMut(usize)>;

/// Median per-graph times (ns) of the runners. Within every repetition the
/// runners take turns graph by graph, so that changes of the machine's
/// load hit all of them alike. A runner whose warm-up round takes over half
/// a second gets a single timed round, so that slow tools finish.
fn measure_interleaved(reps: usize, graphs: usize, runners: &mut [Runner]) -> Vec<f64> {
    let rounds: Vec<usize> = runners
        .iter_mut()
        .map(|run| {
            let start = Instant::now();
            (0..graphs).for_each(&mut *run);
            if start.elapsed().as_secs_f64() > 0.5 {
                1
            } else {
                reps
            }
        })
        .collect();
    let mut times = vec![Vec::new(); runners.len()];
    let mut sums = vec![0u128; runners.len()];
    for round in 0..reps {
        sums.iter_mut().for_each(|s| *s = 0);
        for i in 0..graphs {
            for (t, run) in runners.iter_mut().enumerate() {
                if round < rounds[t] {
                    let start = Instant::now();
                    run(i);
                    sums[t] += start.elapsed().as_nanos();
                }
            }
        }
        for t in 0..runners.len() {
            if round < rounds[t] {
                times[t].push(sums[t] as f64 / graphs as f64);
            }
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect()
}

fn orbit_runner(f: &Family) -> Runner {
    let mut ws = Workspace::new();
    if std::env::var_os("ORBIT_BENCH_NODES").is_some() {
        let nodes: u64 = f
            .graphs
            .iter()
            .map(|g| {
                ws.canonicalise(g);
                ws.nodes()
            })
            .sum();
        eprintln!(
            "{}: {} nodes per graph, {} generators (last)",
            f.name,
            nodes / f.graphs.len() as u64,
            ws.generator_count()
        );
    }
    let graphs = f.graphs.clone();
    Box::new(move |i| {
        ws.canonicalise(&graphs[i]);
        std::hint::black_box(ws.form());
    })
}

fn dense_nauty_runner(graphs: &[Graph], directed: bool) -> Runner {
    struct Input {
        g: Vec<graph>,
        lab: Vec<c_int>,
        ptn: Vec<c_int>,
        m: usize,
        n: usize,
    }
    let inputs: Vec<Input> = graphs
        .iter()
        .map(|g| {
            let n = g.vertex_count();
            let m = SETWORDSNEEDED(n);
            let mut dg = empty_graph(m, n);
            for v in 0..n {
                for (u, _) in g.out_edges(v) {
                    ADDONEARC(&mut dg, v, u as usize, m);
                }
            }
            let (lab, ptn) = colour_partition(g);
            Input {
                g: dg,
                lab,
                ptn,
                m,
                n,
            }
        })
        .collect();
    let mut options = if directed {
        optionblk::default_digraph()
    } else {
        optionblk::default()
    };
    options.getcanon = TRUE;
    options.defaultptn = FALSE;
    let mut stats = statsblk::default();
    type Work = (Vec<c_int>, Vec<c_int>, Vec<c_int>, Vec<graph>);
    let mut work: Vec<Work> = inputs
        .iter()
        .map(|i| {
            (
                i.lab.clone(),
                i.ptn.clone(),
                vec![0; i.n],
                empty_graph(i.m, i.n),
            )
        })
        .collect();
    let mut inputs = inputs;
    Box::new(move |i| {
        {
            let (input, (lab, ptn, orbits, canon)) = (&mut inputs[i], &mut work[i]);
            lab.copy_from_slice(&input.lab);
            ptn.copy_from_slice(&input.ptn);
            // SAFETY: buffers are sized for (m, n) as nauty requires.
            unsafe {
                densenauty(
                    input.g.as_mut_ptr(),
                    lab.as_mut_ptr(),
                    ptn.as_mut_ptr(),
                    orbits.as_mut_ptr(),
                    &mut options,
                    &mut stats,
                    input.m as c_int,
                    input.n as c_int,
                    canon.as_mut_ptr(),
                );
            }
        }
    })
}

/// A graph in nauty's sparse form plus its colour partition.
struct SparseInput {
    sg: SparseGraph,
    lab: Vec<c_int>,
    ptn: Vec<c_int>,
}

fn sparse_inputs(graphs: &[Graph]) -> Vec<SparseInput> {
    graphs
        .iter()
        .map(|g| {
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
            let (lab, ptn) = colour_partition(g);
            SparseInput { sg, lab, ptn }
        })
        .collect()
}

/// nauty's output graph, grown with malloc by nauty and Traces.
struct CanonSg(sparsegraph);

impl Drop for CanonSg {
    fn drop(&mut self) {
        SG_FREE(&mut self.0);
    }
}

fn sparse_runner(graphs: &[Graph], directed: bool, traces: bool) -> Runner {
    let mut inputs = sparse_inputs(graphs);
    let mut canon = CanonSg(sparsegraph::default());
    let mut scratch: Vec<(Vec<c_int>, Vec<c_int>, Vec<c_int>)> = inputs
        .iter()
        .map(|i| (i.lab.clone(), i.ptn.clone(), vec![0; i.lab.len()]))
        .collect();
    let mut nopt = if directed {
        optionblk::default_sparse_digraph()
    } else {
        optionblk::default_sparse()
    };
    nopt.getcanon = TRUE;
    nopt.defaultptn = FALSE;
    let mut nstats = statsblk::default();
    let mut topt = TracesOptions {
        getcanon: TRUE,
        defaultptn: FALSE,
        ..TracesOptions::default()
    };
    let mut tstats = TracesStats::default();
    Box::new(move |i| {
        {
            let (input, (lab, ptn, orbits)) = (&mut inputs[i], &mut scratch[i]);
            lab.copy_from_slice(&input.lab);
            ptn.copy_from_slice(&input.ptn);
            let mut sg = sparsegraph::from(&mut input.sg);
            // SAFETY: `sg` points into live vectors of the stated lengths;
            // `canon` is grown by nauty/Traces with malloc and freed on drop.
            unsafe {
                if traces {
                    Traces(
                        &mut sg,
                        lab.as_mut_ptr(),
                        ptn.as_mut_ptr(),
                        orbits.as_mut_ptr(),
                        &mut topt,
                        &mut tstats,
                        &mut canon.0,
                    );
                } else {
                    sparsenauty(
                        &mut sg,
                        lab.as_mut_ptr(),
                        ptn.as_mut_ptr(),
                        orbits.as_mut_ptr(),
                        &mut nopt,
                        &mut nstats,
                        &mut canon.0,
                    );
                }
            }
        }
    })
}

/// Runs the bliss harness on the graphs; `None` if it is not available.
fn time_bliss(graphs: &[Graph], directed: bool, reps: usize) -> Option<f64> {
    let harness = std::env::var("ORBIT_BLISS_HARNESS").ok()?;
    let mut text = String::new();
    for g in graphs {
        let n = g.vertex_count();
        let edges: Vec<(usize, u32)> = (0..n)
            .flat_map(|v| g.out_edges(v).map(move |(u, _)| (v, u)))
            .filter(|&(v, u)| directed || v <= u as usize)
            .collect();
        text.push_str(&format!("{n} {} {}\n", edges.len(), u8::from(directed)));
        for v in 0..n {
            text.push_str(&format!("{} ", g.vertex_colour(v)));
        }
        text.push('\n');
        for (v, u) in edges {
            text.push_str(&format!("{v} {u}\n"));
        }
    }
    let dir = std::env::temp_dir().join(format!("orbit-bliss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let file = dir.join("graphs.txt");
    std::fs::write(&file, text).ok()?;
    let out = std::process::Command::new(harness)
        .arg(&file)
        .arg(reps.to_string())
        .output()
        .ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(out.stdout).ok()?.trim().parse().ok()
}

fn families(quick: bool) -> Vec<Family> {
    let mut rng = Rng::new(2024);
    let mut out = Vec::new();
    let count = |c: usize| if quick { c.div_ceil(4) } else { c };
    for &(n, k) in &[
        (20, 400),
        (50, 200),
        (100, 100),
        (200, 50),
        (500, 10),
        (1000, 5),
    ] {
        out.push(Family {
            name: format!("random digraph n={n} (out-deg 2, 2 colours)"),
            graphs: (0..count(k))
                .map(|_| families::random_digraph(&mut rng, n, 2, 2, 1))
                .collect(),
            directed: true,
        });
    }
    for &(elements, k) in &[(12, 400), (40, 200), (120, 50)] {
        let graphs: Vec<Graph> = (0..count(k))
            .map(|_| families::state_like(&mut rng, elements, 2, 4))
            .collect();
        let n = graphs[0].vertex_count();
        out.push(Family {
            name: format!("state-like n={n} (edge colours)"),
            graphs,
            directed: true,
        });
    }
    for &(n, k) in &[(20, 200), (100, 20), (500, 4)] {
        out.push(Family {
            name: format!("random 3-regular n={n}"),
            graphs: (0..count(k))
                .map(|_| families::random_regular(&mut rng, n, 3))
                .collect(),
            directed: false,
        });
    }
    let single = |name: &str, g: Graph| Family {
        name: name.to_string(),
        graphs: vec![g],
        directed: false,
    };
    out.push(single("Paley q=101", families::paley(101)));
    out.push(single("Paley q=313", families::paley(313)));
    out.push(single(
        "projective plane q=7 (n=114)",
        families::projective_plane(7),
    ));
    out.push(single(
        "projective plane q=11 (n=266)",
        families::projective_plane(11),
    ));
    let base20 = families::random_regular(&mut rng, 20, 3);
    let base50 = families::random_regular(&mut rng, 50, 3);
    out.push(single(
        "CFI over cubic n=20 (n=200)",
        families::cfi(&base20, true),
    ));
    out.push(single(
        "CFI over cubic n=50 (n=500)",
        families::cfi(&base50, true),
    ));
    out.push(single(
        "Miyazaki-style k=10 (n=200)",
        families::miyazaki(10, false),
    ));
    out.push(single(
        "Miyazaki-style k=25 (n=500)",
        families::miyazaki(25, false),
    ));
    out.push(single("grid 30x30", families::grid(30, 30)));
    out.push(single(
        "200 disjoint 5-cycles",
        families::disjoint_cycles(200, 5),
    ));
    out.push(single("complete K_1000", families::complete(1000)));
    out.push(single(
        "empty graph n=1000",
        GraphBuilder::new(1000).build(),
    ));
    out
}

fn fmt_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let quick = args.iter().any(|a| a == "--quick");
    let filter = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_default();
    let reps = if quick { 3 } else { 9 };
    if args.iter().any(|a| a == "--orbit-only") {
        // For profiling: only orbit, for about two seconds per family.
        for f in families(quick)
            .into_iter()
            .filter(|f| f.name.contains(&filter))
        {
            let mut ws = Workspace::new();
            let start = Instant::now();
            let mut rounds = 0;
            while start.elapsed().as_secs_f64() < 2.0 {
                for g in &f.graphs {
                    ws.canonicalise(g);
                }
                rounds += 1;
            }
            let per_graph = start.elapsed().as_nanos() as f64 / (rounds * f.graphs.len()) as f64;
            println!(
                "{}: {rounds} rounds, {}, {} nodes, {} generators (last graph)",
                f.name,
                fmt_time(per_graph),
                ws.nodes(),
                ws.generator_count()
            );
        }
        return;
    }
    println!(
        "| family | graphs | orbit | nauty dense | nauty sparse | Traces | bliss | orbit / fastest other |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for f in families(quick)
        .into_iter()
        .filter(|f| f.name.contains(&filter))
    {
        let plain: Vec<Graph> = if f.graphs.iter().any(has_edge_colours) {
            f.graphs.iter().map(subdivide).collect()
        } else {
            f.graphs.clone()
        };
        // Big single graphs get fewer repetitions.
        let reps = if f.graphs.len() == 1 {
            reps.min(5)
        } else {
            reps
        };
        let mut runners = vec![
            orbit_runner(&f),
            dense_nauty_runner(&plain, f.directed),
            sparse_runner(&plain, f.directed, false),
        ];
        // Traces crashes on digraphs (in grouporderplus), so it runs on
        // the undirected families only.
        if !f.directed {
            runners.push(sparse_runner(&plain, false, true));
        }
        let times = measure_interleaved(reps, f.graphs.len(), &mut runners);
        drop(runners);
        let (orbit, dense, sparse) = (times[0], times[1], times[2]);
        let traces = times.get(3).copied();
        let bliss = time_bliss(&plain, f.directed, reps);
        let fastest = [Some(dense), Some(sparse), traces, bliss]
            .into_iter()
            .flatten()
            .fold(f64::INFINITY, f64::min);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.2} |",
            f.name,
            f.graphs.len(),
            fmt_time(orbit),
            fmt_time(dense),
            fmt_time(sparse),
            traces.map_or("n/a".to_string(), fmt_time),
            bliss.map_or("n/a".to_string(), fmt_time),
            orbit / fastest
        );
    }
}
