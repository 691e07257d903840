//! Measures the engines' scaling on a synthetic lattice (no front end).
//!
//! ```text
//! cargo run --release -p orbit-workers --example scaling -- DIMS MAX WORK THREADS... [--compact|--tree] [--level] [--par]
//! ```
//! `--par` runs the parallel engine even for one thread (normally one
//! thread means the sequential engine).
//! `WORK` rounds of extra hashing per successor emulate a front end's cost
//! of computing a state (0: the engine's own overhead only). Prints one
//! line per thread count: states, transitions, wall time, states/s,
//! speedup against the first thread count, bytes per state.

#[path = "../tests/it/common/mod.rs"]
mod common;

use std::time::Instant;

use common::Lattice;
use workers::{Config, Outcome, ParallelMode, SearchOrder, explore, explore_parallel};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags: Vec<&String> = args.iter().filter(|a| a.starts_with("--")).collect();
    let nums: Vec<u64> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(|a| a.parse().unwrap_or_else(|_| panic!("not a number: {a}")))
        .collect();
    let [dims, max, work, threads @ ..] = nums.as_slice() else {
        eprintln!("usage: scaling DIMS MAX WORK THREADS... [--compact|--tree] [--level]");
        std::process::exit(2);
    };
    let par = flags.iter().any(|f| *f == "--par");
    let store = if flags.iter().any(|f| *f == "--compact") {
        workers::StoreKind::Compact
    } else if flags.iter().any(|f| *f == "--tree") {
        workers::StoreKind::Tree
    } else {
        workers::StoreKind::Exact
    };
    let mode = if flags.iter().any(|f| *f == "--level") {
        ParallelMode::LevelSynchronous
    } else {
        ParallelMode::WorkStealing
    };
    let system = Lattice {
        work: *work,
        ..Lattice::new(*dims as usize, *max)
    };
    let mut base = None;
    for &t in threads {
        let config = Config {
            order: SearchOrder::Bfs,
            threads: t as usize,
            mode,
            store,
            check_deadlock: false,
            ..Config::default()
        };
        let start = Instant::now();
        let report = if par {
            explore_parallel(&system, &config)
        } else {
            explore(&system, &config)
        };
        let wall = start.elapsed().as_secs_f64();
        assert_eq!(report.outcome, Outcome::Complete);
        assert_eq!(report.stats.states, system.state_count());
        let rate = report.stats.states as f64 / wall;
        let speedup = rate / *base.get_or_insert(rate);
        println!(
            "threads {t:>2}: {} states, {} transitions, {wall:.3} s, {rate:.0} states/s, speedup {speedup:.2}, {:.1} B/state",
            report.stats.states,
            report.stats.transitions,
            report.stats.bytes_per_state()
        );
    }
}
