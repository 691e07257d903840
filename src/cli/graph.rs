//! `orbit graph MODEL --state N`: the coloured graph of a reachable state
//! (see `crate::symmetry` and its state graphs) for the canonical labelling
//! benchmarks: nauty's dreadnaut format (also read by `orbit canon`) or,
//! with `--format dimacs`, the DIMACS-like format of bliss.
//!
//! State `N` is the `N`-th distinct state in breadth-first order of the
//! unreduced machine (0: the first initial state). Neither format has edge
//! colours, so each edge `a -> b` of colour `c` is subdivided into
//! `a -> x -> b` by a new vertex `x` whose colour stands for `c` (above all
//! vertex colours, ordered by `c`). This is exact: the subdivided graphs are
//! isomorphic exactly when the edge-coloured ones are. The graphs are
//! directed: run `bliss -directed FILE`; dreadnaut lines carry `d`.
//!
//! - dreadnaut: one line per graph, `n=.. $=0 d g ... . f=[..] x`, vertex
//!   colours as the ordered partition `f=[..]`, ending with `x` (label it);
//! - dimacs: `c` comment lines, `p edge N M`, one `n v c` line per vertex
//!   (vertices from 1, colours the ranks `0, 1, ...` of the colours in
//!   order), one `e u v` line per arc `u -> v`. One graph per file, so
//!   `--all` is dreadnaut only.

use super::model::ModelArgs;
use crate::canon::{Graph, GraphBuilder};
use crate::frontends::Checks;
use std::process::ExitCode;

/// Options of `orbit graph`.
#[derive(clap::Args, Debug)]
pub struct GraphArgs {
    /// The model, its constants and its front end's flags.
    #[command(flatten)]
    pub input: ModelArgs,
    /// Which state: its number in breadth-first order (0 = first initial state).
    #[arg(long, default_value_t = 0)]
    pub state: u64,
    /// Print all states up to `--state` instead of just that one (one graph per line).
    #[arg(long)]
    pub all: bool,
    /// Output format: `dreadnaut` (nauty, `orbit canon`) or `dimacs` (bliss).
    #[arg(long, value_enum, default_value_t = Format::Dreadnaut)]
    pub format: Format,
}

/// Graph file formats of `orbit graph`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// nauty's dreadnaut commands, one graph per line.
    Dreadnaut,
    /// bliss's DIMACS-like format (`p edge`, `n v c`, `e u v`).
    Dimacs,
}

/// Runs `orbit graph`.
pub fn run(args: &GraphArgs) -> ExitCode {
    if args.all && args.format == Format::Dimacs {
        eprintln!("error: --all needs --format dreadnaut (a DIMACS file holds one graph)");
        return ExitCode::from(2);
    }
    let loaded = match args.input.load(Checks::default()) {
        Ok(loaded) => loaded,
        Err(failure) => return super::model::not_loaded(&failure),
    };
    let graphs = match loaded.state_graphs(args.state.saturating_add(1)) {
        Ok(graphs) => graphs,
        Err(e) => return super::job_error(e),
    };
    if (graphs.len() as u64) <= args.state {
        eprintln!(
            "error: the model has only {} reachable states; --state counts from 0",
            graphs.len()
        );
        return ExitCode::from(2);
    }
    let wanted = if args.all {
        &graphs[..]
    } else {
        &graphs[args.state as usize..=args.state as usize]
    };
    for g in wanted {
        let g = subdivided(g);
        match args.format {
            Format::Dreadnaut => super::output::print_line(&write_dreadnaut(&g)),
            Format::Dimacs => {
                let comment = format!(
                    "orbit graph {} state {}; edge colours by subdivision, directed: bliss -directed",
                    args.input.model.display(),
                    args.state
                );
                super::output::print(&write_dimacs(&g, &comment));
            }
        }
    }
    ExitCode::SUCCESS
}

/// `g` in bliss's DIMACS-like format: a `c` line per line of `comment`,
/// `p edge N M`, `n v c` for every vertex (from 1) and `e u v` per arc.
pub fn write_dimacs(g: &Graph, comment: &str) -> String {
    use std::fmt::Write as _;
    let n = g.vertex_count();
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "c {line}");
    }
    let arcs: Vec<(usize, u32)> = (0..n)
        .flat_map(|v| g.out_edges(v).map(move |(u, _)| (v, u)))
        .collect();
    let _ = writeln!(out, "p edge {n} {}", arcs.len());
    for v in 0..n {
        let _ = writeln!(out, "n {} {}", v + 1, g.vertex_colour(v));
    }
    for (v, u) in arcs {
        let _ = writeln!(out, "e {} {}", v + 1, u + 1);
    }
    out
}

/// `g` as one line of dreadnaut commands: `n=N $=0 d g 0: 3 4; 2: 0 .
/// f=[..] x`: the arcs per tail, the colour classes (of increasing colour)
/// as the partition, and `x` to label it. The last list ends with `.`
/// rather than `;` (dreadnaut leaves graph input after the last vertex).
pub fn write_dreadnaut(g: &Graph) -> String {
    use std::fmt::Write as _;
    let n = g.vertex_count();
    let mut s = format!("n={n} $=0 d g");
    for v in 0..n {
        let mut heads = g.out_edges(v).map(|(u, _)| u).peekable();
        if heads.peek().is_none() {
            continue;
        }
        let _ = write!(s, " {v}:");
        for u in heads {
            let _ = write!(s, " {u}");
        }
        s.push(';');
    }
    if s.ends_with(';') {
        s.pop();
    }
    s.push_str(" . f=[");
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| (g.vertex_colour(v), v));
    for (i, &v) in order.iter().enumerate() {
        if i > 0 && g.vertex_colour(order[i - 1]) != g.vertex_colour(v) {
            s.push_str(" |");
        }
        let _ = write!(s, " {v}");
    }
    s.push_str(" ] x");
    s
}

/// `g` with every edge `a -> b` of colour `c` replaced by `a -> x -> b`,
/// `x` a new vertex of a colour above all of `g`'s, ordered by `c`; the
/// colours are then replaced by their ranks `0, 1, ...` (same order, so the
/// same canonical labelling, and what both file formats can say).
pub fn subdivided(g: &Graph) -> Graph {
    let n = g.vertex_count();
    let edges: Vec<(usize, u32, u32)> = (0..n)
        .flat_map(|v| g.out_edges(v).map(move |(u, c)| (v, u, c)))
        .collect();
    // Vertex colours first, then edge colours above them.
    let mut colours: Vec<(bool, u32)> = (0..n).map(|v| (false, g.vertex_colour(v))).collect();
    colours.extend(edges.iter().map(|&(_, _, c)| (true, c)));
    let mut ranks = colours.clone();
    ranks.sort_unstable();
    ranks.dedup();
    let mut b = GraphBuilder::new(colours.len());
    for (v, c) in colours.iter().enumerate() {
        b.set_colour(v, ranks.partition_point(|r| r < c) as u32);
    }
    for (k, &(v, u, _)) in edges.iter().enumerate() {
        b.add_edge(v, n + k, 0);
        b.add_edge(n + k, u as usize, 0);
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::{Workspace, dreadnaut};

    /// Reads a graph in the format of [`write_dimacs`] (arcs uncoloured,
    /// vertices of colour 0 unless an `n` line says otherwise); errors name
    /// the line.
    fn parse_dimacs(text: &str) -> Result<Graph, String> {
        let mut builder: Option<GraphBuilder> = None;
        for (i, line) in text.lines().enumerate() {
            let at = |what: &str| format!("line {}: {what}", i + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let number = |k: usize| -> Result<usize, String> {
                words
                    .get(k)
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| at("expected a number"))
            };
            let vertex = |k: usize, b: &GraphBuilder| -> Result<usize, String> {
                let v = number(k)?;
                if v == 0 || v > b.vertex_count() {
                    return Err(at(&format!("vertex {v} outside 1..{}", b.vertex_count())));
                }
                Ok(v - 1)
            };
            match words.first().copied() {
                None | Some("c") => {}
                Some("p") if builder.is_none() && words.get(1) == Some(&"edge") => {
                    let n = number(2)?;
                    if n > dreadnaut::MAX_VERTICES as usize {
                        return Err(at("too many vertices"));
                    }
                    builder = Some(GraphBuilder::new(n));
                }
                Some("n") => {
                    let b = builder
                        .as_mut()
                        .ok_or_else(|| at("expected `p edge N M` first"))?;
                    let v = vertex(1, b)?;
                    let c = u32::try_from(number(2)?).map_err(|_| at("colour too large"))?;
                    b.set_colour(v, c);
                }
                Some("e") => {
                    let b = builder
                        .as_mut()
                        .ok_or_else(|| at("expected `p edge N M` first"))?;
                    let (u, v) = (vertex(1, b)?, vertex(2, b)?);
                    b.add_edge(u, v, 0);
                }
                Some(_) => return Err(at("expected a `c`, `p edge`, `n` or `e` line")),
            }
        }
        builder
            .map(|mut b| b.build())
            .ok_or_else(|| "expected a `p edge N M` line".to_string())
    }

    fn hash(g: &Graph) -> u128 {
        let mut ws = Workspace::new();
        ws.canonicalise(g);
        ws.form_hash()
    }

    /// The written files, read back, get the canonical form of the
    /// subdivided graph in memory, in both formats, for every front end;
    /// for B the generic path's graphs are those of B's own state graphs.
    #[test]
    fn files_label_like_the_graph_in_memory() {
        use crate::frontends::{LoadRequest, Registry};
        use std::collections::HashSet;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
        let registry = Registry::builtin();
        for (model, set, size) in [
            ("scheduler1.mch", "PROC", 3),
            ("TokenRing.mch", "Servers", 3),
            ("murphi/german.m", "NODES", 3),
        ] {
            let path = dir.join(model);
            let constants = [(set.to_string(), size)];
            let request = LoadRequest {
                constants: &constants,
                ..LoadRequest::new(&path)
            };
            let loaded = registry
                .for_path(&path)
                .unwrap()
                .load(&request)
                .expect("loads");
            let graphs = loaded.state_graphs(12).expect("graphs");
            assert_eq!(graphs.len(), 12, "{model}");
            let mut distinct = HashSet::new();
            for graph in &graphs {
                let g = subdivided(graph);
                let h = hash(&g);
                distinct.insert(h);
                let dre = dreadnaut::parse(&write_dreadnaut(&g)).expect("dreadnaut parses");
                assert_eq!(dre.len(), 1);
                assert_eq!(hash(&dre[0].to_graph()), h, "{model}: dreadnaut");
                let dimacs = parse_dimacs(&write_dimacs(&g, "a\nb")).expect("dimacs parses");
                assert_eq!(hash(&dimacs), h, "{model}: dimacs");
            }
            assert!(distinct.len() > 1, "{model}: the states differ");
            if model.ends_with(".mch") {
                let options = crate::frontends::b::load::LoadOptions {
                    set_sizes: constants.to_vec(),
                    ..Default::default()
                };
                let system =
                    crate::frontends::b::load::load_machine(&path, &options).expect("loads");
                let layout = system.layout();
                let own = crate::frontends::b::symmetry::StateGraphs::new(
                    layout,
                    &system.interchangeable,
                    layout.slots().len(),
                );
                let mut states = Vec::new();
                let mut scratch = crate::model::Model::new_scratch(&system);
                crate::model::Model::initial_states(&system, &mut scratch, &mut |_, s| {
                    states.push(s.to_vec())
                })
                .expect("initial states");
                let (mut builder, mut words) = (GraphBuilder::new(0), Vec::new());
                layout.unpack(&states[0], &mut words);
                own.build_full(layout, &words, &mut builder);
                assert_eq!(hash(&builder.build()), hash(&graphs[0]), "{model}");
            }
        }
    }

    #[test]
    fn subdivision_keeps_colours_in_order_and_directions() {
        let mut b = GraphBuilder::new(3);
        b.set_colour(0, 70);
        b.set_colour(1, 5);
        b.set_colour(2, 5);
        b.add_edge(0, 1, 9);
        b.add_edge(2, 0, 1);
        let g = subdivided(&b.build());
        assert_eq!(g.vertex_count(), 5);
        let colours: Vec<u32> = (0..5).map(|v| g.vertex_colour(v)).collect();
        // 5 < 70 < edge colour 1 < edge colour 9.
        assert_eq!(colours, vec![1, 0, 0, 3, 2]);
        assert!(g.has_edge(0, 3, 0) && g.has_edge(3, 1, 0));
        assert!(g.has_edge(2, 4, 0) && g.has_edge(4, 0, 0));
        assert_eq!(g.edge_count(), 4);
        let text = write_dimacs(&g, "x");
        assert!(text.starts_with("c x\np edge 5 4\nn 1 1\n"), "{text}");
        assert_eq!(
            write_dreadnaut(&g),
            "n=5 $=0 d g 0: 3; 2: 4; 3: 1; 4: 0 . f=[ 1 2 | 0 | 4 | 3 ] x"
        );
    }

    #[test]
    fn dimacs_errors_name_the_line() {
        assert!(parse_dimacs("c only\n").is_err());
        let e = parse_dimacs("p edge 2 1\ne 1 3\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_dimacs("p edge 2 1\nx\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
    }
}
