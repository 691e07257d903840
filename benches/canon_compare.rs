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
//! The families are synthetic (random digraphs, state-like coloured
//! digraphs, hard and highly symmetric graphs from `orbit::canon::families`)
//! plus real state graphs of the example models in `benches/canon_graphs/`.
//! Columns: `n` is the vertex count, `orbit / nauty` the ratio to the faster
//! nauty mode, `orbit / fastest` the ratio to the fastest other tool.
//!
//! Times are medians over repetitions in which orbit, nauty and Traces take
//! turns (bliss runs afterwards in its own process); the machine's load
//! still moves single rows, so compare ratios across a few runs.
//!
//! Arguments: an optional substring filter on family names, `--quick` for
//! fewer repetitions, `--orbit-only` to run only orbit (for profiling), with
//! `--once` a single round (for instruction counts under callgrind).

#[path = "../tests/it/support/nauty_harness.rs"]
mod nauty_harness;

use std::time::Instant;

use nauty_harness::{DenseNauty, Sparse, has_edge_colours, subdivide};
use orbit::canon::families::{self, Rng};
use orbit::canon::{Graph, GraphBuilder, Workspace, dreadnaut};

/// A named set of graphs; `directed` selects the digraph modes of the tools.
struct Family {
    name: String,
    graphs: Vec<Graph>,
    directed: bool,
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
    let mut tools: Vec<DenseNauty> = graphs
        .iter()
        .map(|g| DenseNauty::new(g, directed))
        .collect();
    Box::new(move |i| tools[i].run())
}

fn sparse_runner(graphs: &[Graph], directed: bool, traces: bool) -> Runner {
    let mut tools: Vec<Sparse> = graphs.iter().map(|g| Sparse::new(g, directed)).collect();
    if std::env::var_os("ORBIT_BENCH_NODES").is_some() {
        let nodes: u64 = tools
            .iter_mut()
            .map(|t| {
                t.run(traces);
                if traces {
                    t.traces_stats.numnodes
                } else {
                    t.nauty_stats.numnodes
                }
            })
            .sum();
        let tool = if traces { "Traces" } else { "sparse nauty" };
        eprintln!("{tool}: {} nodes per graph", nodes / graphs.len() as u64);
    }
    Box::new(move |i| tools[i].run(traces))
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
    out.extend(model_state_families());
    out
}

/// State graphs of the example models, exported by `orbit graph MODEL
/// --set S=k --state 99 --all` into `benches/canon_graphs/*.dre` (edge
/// colours subdivided, so every tool sees the same graphs), one family per
/// file; more files there become more rows.
fn model_state_families() -> Vec<Family> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/canon_graphs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "dre"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable graph file");
            let graphs: Vec<Graph> = dreadnaut::parse(&text)
                .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
                .iter()
                .map(|d| d.to_graph())
                .collect();
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            Family {
                name: format!("model states {stem}"),
                graphs,
                directed: true,
            }
        })
        .collect()
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
    let once = args.iter().any(|a| a == "--once");
    if args.iter().any(|a| a == "--orbit-only") {
        // For profiling: only orbit, for about two seconds per family.
        for f in families(quick)
            .into_iter()
            .filter(|f| f.name.contains(&filter))
        {
            let mut ws = Workspace::new();
            let start = Instant::now();
            let mut rounds = 0;
            while start.elapsed().as_secs_f64() < 2.0 && !(once && rounds == 1) {
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
        "| family | n | graphs | orbit | nauty dense | nauty sparse | Traces | bliss | orbit / nauty | orbit / fastest |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
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
        let sizes = f.graphs.iter().map(Graph::vertex_count);
        let (lo, hi) = (sizes.clone().min().unwrap_or(0), sizes.max().unwrap_or(0));
        let n = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        };
        println!(
            "| {} | {n} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} |",
            f.name,
            f.graphs.len(),
            fmt_time(orbit),
            fmt_time(dense),
            fmt_time(sparse),
            traces.map_or("n/a".to_string(), fmt_time),
            bliss.map_or("n/a".to_string(), fmt_time),
            orbit / dense.min(sparse),
            orbit / fastest
        );
    }
}
