use clap::{Parser, Subcommand};
use orbit::cli::canon::CanonArgs;

/// orbit: explicit-state model checker.
#[derive(Parser, Debug)]
#[command(version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Canonical labelling of graphs in dreadnaut format.
    Canon(CanonArgs),
}

fn main() -> std::process::ExitCode {
    match Cli::parse().command {
        Command::Canon(args) => orbit::cli::canon::run(&args),
    }
}
