//! The `orbit` command line: one verb per job (`check`, `canon`, ...).
//!
//! Exit codes: 0 when a complete search found no error, 1 when a property
//! failed or the model is ill-defined (the error and its trace are
//! printed), 2 for bad input or usage (clap's own usage errors exit with 2
//! as well), 3 when a search stopped before exploring everything (a bound,
//! Ctrl-C or SIGTERM; the partial summary is printed).

mod bench;
pub mod canon;
mod check;
mod command;
mod graph;
mod limits;
mod model;
mod output;
mod plot;
pub mod por;
mod progress;
mod schema;
mod signals;
mod units;

use clap::Parser;
use command::Command;
use std::process::ExitCode;

/// orbit: a multithreaded explicit-state model checker for B, Murphi and Promela models,
/// with symmetry and partial order reduction.
#[derive(Parser, Debug)]
#[command(name = "orbit", version, about, long_about = None)]
struct Cli {
    /// Debug logging on stderr (-v: debug, -vv: trace); RUST_LOG also works.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

/// Stack of the thread that runs the command: the parser bounds the depth
/// of what it builds ([`crate::frontends::b::parser::MAX_TREE_DEPTH`]), and every phase
/// that recurses over it must fit (only the pages used are touched).
const MAIN_STACK_BYTES: usize = 128 << 20;

/// How a binary joins the job of processes `check --distributed` runs
/// in: a transport to the other ranks and the number of ranks on this
/// machine (they share its cores). The `orbit` binary has none; the
/// `orbit-mpi` binary (`src/distributed/mpi/`) joins an MPI job.
pub type JoinJob = fn() -> Result<(Box<dyn crate::distributed::Transport + Send>, usize), String>;

/// Runs the command line and returns the process exit code. The command
/// runs on a thread with a large stack (see [`MAIN_STACK_BYTES`]).
pub fn main() -> ExitCode {
    main_joining(None)
}

/// [`main`] for a binary that can join a job of processes with `join`
/// (`check --distributed`). A binary calls it first thing: it sets up the
/// process's memory before any page is touched.
pub fn main_joining(join: Option<JoinJob>) -> ExitCode {
    crate::alloc::disable_transparent_huge_pages();
    crate::alloc::purge_freed_memory_at_once();
    let run = std::thread::Builder::new()
        .name("orbit".to_string())
        .stack_size(MAIN_STACK_BYTES)
        .spawn(move || run_command(join));
    match run.map(|thread| thread.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => {
            // The panic message is already on stderr.
            eprintln!("error: orbit failed (an internal error; please report it)");
            ExitCode::from(101)
        }
        Err(e) => {
            // No thread to spare (a process limit): run here, on the
            // process's own stack, and say so.
            eprintln!(
                "warning: cannot start orbit's main thread ({e}); running on the process's \
                 own stack, where very deep expressions may not fit"
            );
            run_command(join)
        }
    }
}

fn run_command(join: Option<JoinJob>) -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    init_tracing(cli.verbose);
    match &cli.command {
        Command::Check(args) => check::run(args, cli.verbose, join),
        Command::Canon(args) => canon::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Por(args) => por::run(args),
        Command::Schema(args) => schema::run(args),
    }
}

/// Prints a command line clap refused (help and version too, which exit
/// 0) and returns its exit code; `orbit check ... --json` also gets the
/// refusal as its one JSON object on stdout, as for a refused model.
fn usage_error(e: &clap::Error) -> ExitCode {
    let code = e.exit_code();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if code == 2 && args.first().is_some_and(|a| a == "check") && args.iter().any(|a| a == "--json")
    {
        // The model: the first argument a front end would read.
        let registry = crate::frontends::Registry::builtin();
        let model = args
            .iter()
            .skip(1)
            .find(|a| registry.for_path(std::path::Path::new(a)).is_ok())
            .map_or("", String::as_str);
        let text = e.render().to_string();
        let first = text.lines().next().unwrap_or_default();
        output::print_line(&crate::report::refusal_json(
            std::path::Path::new(model),
            &format!("{first}\n"),
        ));
    }
    let _ = e.print();
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// Prints why a job could not run and returns its exit code.
fn job_error(e: crate::frontends::JobError) -> ExitCode {
    use crate::frontends::JobError;
    match e {
        JobError::Unsupported(what) => {
            eprintln!("error: not supported yet: {what}");
            ExitCode::from(2)
        }
        JobError::Model(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
        JobError::Stopped(reason) => {
            eprintln!("stopped: {}", crate::report::stop_words(reason, false));
            ExitCode::from(crate::report::EXIT_INCOMPLETE)
        }
    }
}

fn init_tracing(verbose: u8) {
    use std::io::IsTerminal;
    use tracing_subscriber::filter::LevelFilter;
    let level = match verbose {
        0 => LevelFilter::WARN,
        1 => LevelFilter::DEBUG,
        _ => LevelFilter::TRACE,
    };
    let builder = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    // RUST_LOG's directives need tracing's EnvFilter, which compiles
    // regular expressions at start: only then (a plain level filter keeps
    // that code out of every other run's resident memory).
    let filter = std::env::var_os("RUST_LOG")
        .and_then(|_| tracing_subscriber::EnvFilter::try_from_default_env().ok());
    // Without -v only warnings show: print them plainly, as the other
    // messages of the command line are (no time stamp, no module path).
    let _ = match (filter, verbose) {
        (Some(filter), 0) => builder
            .with_env_filter(filter)
            .without_time()
            .with_target(false)
            .try_init(),
        (Some(filter), _) => builder.with_env_filter(filter).try_init(),
        (None, 0) => builder.without_time().with_target(false).try_init(),
        (None, _) => builder.try_init(),
    };
}
