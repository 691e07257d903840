//! The `orbit` command line: one verb per job (`check`, `canon`, ...).
//!
//! Exit codes: 0 when no error was found, 1 when a property failed or the
//! model is ill-defined (the error and its trace are printed), 2 for bad
//! input or usage (clap's own usage errors exit with 2 as well).

mod bench;
pub mod canon;
mod check;
mod graph;
mod model;
mod plot;
pub mod por;
mod report;
mod symmetry;
mod units;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// orbit: a multithreaded explicit-state model checker for classical B.
#[derive(Parser, Debug)]
#[command(name = "orbit", version, about, long_about = None)]
struct Cli {
    /// Debug logging on stderr (-v: debug, -vv: trace); RUST_LOG also works.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Explore a model's reachable states and check its invariant,
    /// assertions, deadlocks and goal.
    Check(check::CheckArgs),
    /// Canonical labelling of graphs in nauty's dreadnaut format: prints the
    /// canonical labelling and a hash of the canonical form, one line per graph.
    Canon(canon::CanonArgs),
    /// Run the same check over several thread counts, repeated, and write a
    /// table (text and CSV) and a PNG plot of the speedup.
    Bench(bench::BenchArgs),
    /// The coloured graph of a reachable state (as symmetry reduction
    /// labels it) in dreadnaut format, for canonical labelling benchmarks.
    Graph(graph::GraphArgs),
    /// Static analysis for partial order reduction: read/write sets, dependency, enable graph.
    Por(por::PorArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.verbose);
    match &cli.command {
        Command::Check(args) => check::run(args, cli.verbose),
        Command::Canon(args) => canon::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Por(args) => por::run(args),
    }
}

fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let default = match verbose {
        0 => "warn",
        1 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
