//! `orbit graph MODEL --state N`: the coloured graph of a reachable state
//! (see `crate::symmetry` and its state graphs) in nauty's dreadnaut format,
//! to feed state graphs to the canonical labelling benchmarks (dreadnaut,
//! bliss after conversion, `orbit canon`).
//!
//! State `N` is the `N`-th distinct state in breadth-first order of the
//! unreduced machine (0: the first initial state). Dreadnaut has no edge
//! colours, so each edge `a -> b` of colour `c` is subdivided by a vertex
//! whose colour stands for `c` (an exact encoding: the subdivided graphs are
//! isomorphic exactly when the edge-coloured ones are); vertex colours are
//! the ordered partition `f=[..]`; each line ends with `x` (label it).

use super::units::parse_set_size;
use crate::b::load::{LoadOptions, load_machine};
use crate::canon::{Graph, GraphBuilder, dreadnaut};
use crate::symmetry::StateGraphs;
use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::process::ExitCode;
use workers::TransitionSystem;

/// Options of `orbit graph`.
#[derive(clap::Args, Debug)]
pub struct GraphArgs {
    /// The B machine.
    pub model: PathBuf,
    /// Size of a deferred set, e.g. `--set PID=4` (repeatable).
    #[arg(long = "set", value_name = "SET=SIZE", value_parser = parse_set_size)]
    pub set_sizes: Vec<(String, u32)>,
    /// Which state: its number in breadth-first order (0 = first initial state).
    #[arg(long, default_value_t = 0)]
    pub state: u64,
    /// Print all states up to `--state` instead of just that one (one graph per line).
    #[arg(long)]
    pub all: bool,
}

/// Runs `orbit graph`.
pub fn run(args: &GraphArgs) -> ExitCode {
    let options = LoadOptions {
        set_sizes: args.set_sizes.clone(),
        ..LoadOptions::default()
    };
    let system = match load_machine(&args.model, &options) {
        Ok(s) => s,
        Err(crate::b::load::LoadError::Input(t)) => {
            eprint!("{t}");
            return ExitCode::from(2);
        }
        Err(crate::b::load::LoadError::Model(t)) => {
            eprint!("{t}");
            return ExitCode::from(1);
        }
    };
    let layout = system.layout();
    let graphs = StateGraphs::new(layout, &system.interchangeable, layout.slots().len());
    let states = match first_states(&system, args.state + 1) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if (states.len() as u64) <= args.state {
        eprintln!(
            "error: the machine has only {} reachable states; --state counts from 0",
            states.len()
        );
        return ExitCode::from(2);
    }
    let wanted = if args.all {
        &states[..]
    } else {
        &states[args.state as usize..=args.state as usize]
    };
    let mut builder = GraphBuilder::new(0);
    for state in wanted {
        graphs.build_full(layout, state, &mut builder);
        let g = subdivided(&builder.build());
        println!("{} x", dreadnaut::write(&g, true, 0));
    }
    ExitCode::SUCCESS
}

/// The first `n` distinct states in breadth-first order.
fn first_states<T: TransitionSystem>(system: &T, n: u64) -> Result<Vec<Vec<u64>>, String> {
    let mut scratch = system.new_scratch();
    let mut seen = HashSet::new();
    let mut order: Vec<Vec<u64>> = Vec::new();
    let mut queue = VecDeque::new();
    let mut add = |s: &[u64], order: &mut Vec<Vec<u64>>, queue: &mut VecDeque<usize>| {
        if (order.len() as u64) < n && seen.insert(s.to_vec()) {
            queue.push_back(order.len());
            order.push(s.to_vec());
        }
    };
    system
        .initial_states(&mut scratch, &mut |s| add(s, &mut order, &mut queue))
        .map_err(|e| e.to_string())?;
    while let Some(i) = queue.pop_front() {
        if order.len() as u64 >= n {
            break;
        }
        let state = order[i].clone();
        system
            .successors(&mut scratch, &state, &mut |s| {
                add(s, &mut order, &mut queue)
            })
            .map_err(|e| e.to_string())?;
    }
    Ok(order)
}

/// `g` with every edge `a -> b` of colour `c` replaced by `a -> x -> b`,
/// `x` a new vertex of a colour above all of `g`'s, ordered by `c`.
fn subdivided(g: &Graph) -> Graph {
    let n = g.vertex_count();
    let top = (0..n).map(|v| g.vertex_colour(v)).max().unwrap_or(0);
    let mut b = GraphBuilder::new(n + g.edge_count());
    for v in 0..n {
        b.set_colour(v, g.vertex_colour(v));
    }
    let mut x = n;
    for v in 0..n {
        for (u, c) in g.out_edges(v) {
            b.set_colour(x, top.saturating_add(1).saturating_add(c));
            b.add_edge(v, x, 0);
            b.add_edge(x, u as usize, 0);
            x += 1;
        }
    }
    b.build()
}
