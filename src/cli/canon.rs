//! `orbit canon FILE`: canonical labelling of graphs in dreadnaut format.
//!
//! For every graph in the file (see [`crate::canon::dreadnaut`]) prints one
//! line `HASH LABELLING`: the 128-bit hash of the canonical form in hex and
//! the canonical labelling (position `i` holds the listed vertex, numbered
//! from `$`). Two graphs with the same vertex count and colour class sizes
//! get the same hash exactly when they are isomorphic, i.e. when nauty's
//! canonical graphs (`c x b`) are equal. Options add lines after it.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use crate::canon::{GraphBuilder, Workspace, dreadnaut};

/// Arguments of `orbit canon`.
#[derive(clap::Args, Debug)]
pub struct CanonArgs {
    /// Graphs in nauty's dreadnaut input format (`n=`, `$=`, `d`, `g`, `f=[..]`, `x`).
    pub file: PathBuf,
    /// Also print the canonically relabelled graph in dreadnaut format.
    #[arg(long)]
    pub form: bool,
    /// Also print generators of the automorphism group in cycle notation.
    #[arg(long)]
    pub automorphisms: bool,
    /// Also print the vertex orbits and the group order.
    #[arg(long)]
    pub orbits: bool,
    /// `--time-limit` and `--memory`.
    #[command(flatten)]
    pub limits: super::limits::LimitArgs,
}

/// Runs `orbit canon`: 0 on success, 2 on unreadable or malformed input,
/// 3 when a limit or a signal stopped it (nothing is printed for the
/// graph it was working on).
pub fn run(args: &CanonArgs) -> ExitCode {
    let limited = match args.limits.start() {
        Ok(limited) => limited,
        Err(code) => return code,
    };
    let stopped = |reason: workers::StopReason| {
        let terminated = limited.signals.terminated.load(Ordering::SeqCst);
        eprintln!("stopped: {}", crate::report::stop_words(reason, terminated));
        ExitCode::from(crate::report::EXIT_INCOMPLETE)
    };
    let name = args.file.display();
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{name}: cannot read: {e}");
            return ExitCode::from(2);
        }
    };
    let graphs = match dreadnaut::parse(&text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{name}:{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(reason) = workers::budget::tripped() {
        return stopped(reason);
    }
    let mut ws = Workspace::new();
    let mut out = String::new();
    for dg in &graphs {
        if !workers::heap::room_for(dg.estimated_bytes()) {
            super::output::print(&out);
            return stopped(workers::StopReason::MemoryLimit);
        }
        let g = dg.to_graph();
        // The canonicaliser gives up when the budget runs out.
        ws.canonicalise(&g);
        if let Some(reason) = workers::budget::tripped() {
            super::output::print(&out);
            return stopped(reason);
        }
        let base = u64::from(dg.base);
        let _ = write!(out, "{:032x}", ws.form_hash());
        for &v in ws.labelling() {
            let _ = write!(out, " {}", u64::from(v) + base);
        }
        out.push('\n');
        if args.form {
            let mut b = GraphBuilder::new(g.vertex_count());
            let mut canon_index = vec![0u32; g.vertex_count()];
            for (i, &v) in ws.labelling().iter().enumerate() {
                canon_index[v as usize] = i as u32;
            }
            for v in 0..g.vertex_count() {
                b.set_colour(canon_index[v] as usize, g.vertex_colour(v));
                for (u, c) in g.out_edges(v) {
                    b.add_edge(canon_index[v] as usize, canon_index[u as usize] as usize, c);
                }
            }
            out.push_str(&dreadnaut::write(&b.build(), dg.directed, dg.base));
            out.push('\n');
        }
        if args.orbits {
            let (m, e) = ws.group_size();
            let _ = write!(out, "orbits:");
            for &o in ws.orbits() {
                let _ = write!(out, " {}", u64::from(o) + base);
            }
            let _ = writeln!(out, "; group order {m:.6}e{e}");
        }
        if args.automorphisms {
            for perm in ws.generators() {
                out.push_str("generator:");
                write_cycles(&mut out, perm, base);
                out.push('\n');
            }
        }
    }
    super::output::print(&out);
    ExitCode::SUCCESS
}

/// Writes `perm` in cycle notation, omitting fixed points.
fn write_cycles(out: &mut String, perm: &[u32], base: u64) {
    let mut seen = vec![false; perm.len()];
    for start in 0..perm.len() {
        if seen[start] || perm[start] as usize == start {
            continue;
        }
        out.push_str(" (");
        let mut v = start;
        let mut first = true;
        while !seen[v] {
            seen[v] = true;
            if !first {
                out.push(' ');
            }
            first = false;
            let _ = write!(out, "{}", v as u64 + base);
            v = perm[v] as usize;
        }
        out.push(')');
    }
}
