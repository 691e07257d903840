//! `orbit check`: load a model through its front end, explore it, report.

use super::model::ModelArgs;
use crate::checker::Order as CheckOrder;
use crate::frontends::{CheckJob, Checks, DeadlockMode as LoadDeadlockMode, LoadFailure};
use crate::report::{self, RunSummary};
use crate::symmetry::SymmetryMode;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Search order for `--order`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Breadth first: counterexamples are shortest.
    Bfs,
    /// Depth first.
    Dfs,
    /// ProB's mixed order: pop randomly from the front or the back (see --seed).
    Mixed,
    /// Whatever order the worker threads reach states in (work stealing):
    /// the best throughput; counterexamples are not necessarily shortest.
    Any,
}

/// Symmetry reduction modes of `--symmetry`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// No reduction.
    Off,
    /// Exact: one state per orbit, by canonical labelling of state graphs.
    Canon,
    /// Permutation flooding: one state per orbit checked and expanded, all
    /// permutations of it added to the visited table.
    Flood,
    /// Approximate symmetry markers (Leuschel and Massart): fast, but
    /// different orbits may share a marker, so states can be missed.
    Markers,
    /// Exact markers (Algorithm 5.1 of Leuschel and Massart's symmetry
    /// markers for Promela): the elements ordered by their markers, then
    /// renamed; complete, but may keep several states per orbit.
    MarkersExact,
}

impl Symmetry {
    /// The symmetry layer's mode (`None` for `off`).
    pub fn mode(self) -> Option<SymmetryMode> {
        Some(match self {
            Symmetry::Off => return None,
            Symmetry::Canon => SymmetryMode::Canon,
            Symmetry::Flood => SymmetryMode::Flood,
            Symmetry::Markers => SymmetryMode::Markers,
            Symmetry::MarkersExact => SymmetryMode::MarkersExact,
        })
    }
}

/// `--store`: how the visited store keeps states.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    /// Every state's packed bytes: never misses a state.
    Exact,
    /// Every state as a tree of shared nodes (LTSmin's tree compression):
    /// exact, and smaller when states are several words wide.
    Tree,
    /// 64-bit fingerprints only: least memory, a tiny chance of missing
    /// states (printed in the summary).
    Compact,
}

impl From<Store> for workers::StoreKind {
    fn from(store: Store) -> Self {
        match store {
            Store::Exact => workers::StoreKind::Exact,
            Store::Tree => workers::StoreKind::Tree,
            Store::Compact => workers::StoreKind::Compact,
        }
    }
}

/// What counts as a deadlock (`--deadlock-mode`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlockMode {
    /// A state without successors.
    Stuck,
    /// A state without a successor other than itself.
    Stuttering,
}

/// Options of `orbit check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The model, its constants and its front end's flags.
    #[command(flatten)]
    pub input: ModelArgs,
    /// Do not report states without successors as deadlocks.
    #[arg(long)]
    pub no_deadlock: bool,
    /// What a deadlock is: `stuck` (no successor) or `stuttering` (no
    /// successor other than the state itself). Default: `stuttering` for
    /// Murphi (as CMurphi and Rumur), `stuck` for B (as ProB, the only
    /// kind B supports).
    #[arg(long, value_enum)]
    pub deadlock_mode: Option<DeadlockMode>,
    /// Stop at the first state satisfying the model's GOAL definition.
    #[arg(long)]
    pub goal: bool,
    /// Order in which states are explored.
    #[arg(long, value_enum, default_value_t = Order::Bfs)]
    pub order: Order,
    /// Random seed for `--order mixed` (runs with the same seed are identical).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of worker threads, 1 to 256 (default: one per core).
    /// `--order dfs` and `--order mixed` are sequential orders and need
    /// `--threads 1`.
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u64).range(1..=workers::MAX_THREADS as u64))]
    pub threads: Option<u64>,
    /// Store at most this many distinct states, with any number of threads;
    /// a search that would need more stops (exit 3, partial summary).
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// `--time-limit` and `--memory`.
    #[command(flatten)]
    pub limits: super::limits::LimitArgs,
    /// How the visited store keeps states.
    #[arg(long, value_enum, default_value_t = Store::Exact)]
    pub store: Store,
    /// Same as `--store compact`.
    #[arg(long, conflicts_with = "store")]
    pub compact: bool,
    /// Print the result as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Symmetry reduction: explore one state per orbit of the permutations
    /// of interchangeable given-set elements.
    #[arg(long, value_enum, default_value_t = Symmetry::Off)]
    pub symmetry: Symmetry,
    /// Trust the declared symmetry: skip the check that, on a sample of
    /// the expanded states, a random permutation of the symmetric elements
    /// maps the successors of a state onto the successors of its image
    /// (on by default with `--symmetry`; a violation refuses the model).
    #[arg(long)]
    pub no_symmetry_check: bool,
    /// Partial order reduction: expand each state through an ample set of
    /// independent operations (Dobrikov and Leuschel). With -v, prints how
    /// each pair of operations was decided.
    #[arg(long)]
    pub por: bool,
    /// Check an LTL formula in ProB's syntax after the search (repeatable):
    /// `G F X U W R`, `not & or =>`, `{predicate}` in the model's language,
    /// `e(op)`, `[op]`, `deadlock`, and fairness left of a top-level
    /// implication (`WF(op) => G F {x = 0}`). B machines' `ASSERT_LTL`
    /// definitions are checked too.
    #[arg(long, value_name = "FORMULA")]
    pub ltl: Vec<String>,
    /// Do not check the model's own LTL assertions (B's `ASSERT_LTL`
    /// definitions, checked by default); their atoms are not read either.
    #[arg(long)]
    pub no_assert_ltl: bool,
    /// Do not check the invariant (assertions are still checked). With
    /// `--por` and no other property, only deadlocks are searched for and the
    /// reduction needs only conditions A1 and A2, so it reduces more.
    #[arg(long)]
    pub no_invariant: bool,
    /// Search across the processes of an MPI job (`mpirun -np N orbit
    /// check --distributed ...`): each rank stores the states it owns and
    /// runs `--threads` threads (default: this machine's cores shared by
    /// its ranks); level by level with `--order bfs`, without barriers
    /// with `--order any`; rank 0 prints. Needs the `orbit-mpi` binary
    /// (`cargo build --release -p orbit-mpi --features mpi`).
    #[arg(long)]
    pub distributed: bool,
}

/// Runs `orbit check`; `verbose` is the number of `-v` flags.
pub fn run(args: &CheckArgs, verbose: u8, join: Option<super::JoinJob>) -> ExitCode {
    let (distribution, local_ranks) = match args.distributed {
        false => (None, 1),
        true => match join.map_or_else(|| Err(NO_TRANSPORT.to_string()), |join| join()) {
            Ok((transport, local)) => (
                Some(crate::distributed::Distribution::new(transport)),
                local,
            ),
            Err(message) => return refused(args, &format!("error: {message}\n")),
        },
    };
    // Rank 0 of a distributed run speaks for all.
    let quiet = distribution.as_ref().is_some_and(|d| d.rank() != 0);
    let refused = |args: &CheckArgs, text: &str| match quiet {
        false => refused(args, text),
        true => ExitCode::from(2),
    };
    let threads = match threads_for(args, local_ranks) {
        Ok(threads) => threads,
        Err(message) => return refused(args, &format!("error: {message}\n")),
    };
    // Signals and limits hold from here on, through every phase: loading
    // the model and solving its constants, the analyses, the search.
    let limited = match args.limits.start() {
        Ok(limited) => limited,
        Err(code) => return code,
    };
    let (signals, budget, memory) = (&limited.signals, &limited.budget, limited.memory);
    let load_start = Instant::now();
    let checks = Checks {
        invariant: !args.no_invariant,
        goal: args.goal,
        deadlock: args.deadlock_mode.map(|mode| match mode {
            DeadlockMode::Stuck => LoadDeadlockMode::Stuck,
            DeadlockMode::Stuttering => LoadDeadlockMode::Stuttering,
        }),
        ltl: args.ltl.clone(),
        model_ltl: !args.no_assert_ltl,
    };
    let loaded = match args.input.load(checks) {
        Ok(loaded) => loaded,
        Err(LoadFailure::Stopped(reason)) => {
            let terminated = signals.terminated.load(Ordering::SeqCst);
            let stopped = report::stopped_before_search(&args.input.model, reason, terminated);
            if !quiet {
                print_summary(&stopped, args.json);
            }
            return ExitCode::from(stopped.exit_code());
        }
        Err(LoadFailure::Input(text)) => return refused(args, &text),
        Err(failure) => {
            if let (LoadFailure::Model(text), true, false) = (&failure, args.json, quiet) {
                super::output::print_line(&report::model_error_json(&args.input.model, text));
            }
            return super::model::not_loaded_quietly(&failure, quiet);
        }
    };
    tracing::debug!(elapsed = ?load_start.elapsed(), "model loaded");
    let progress = super::progress::ProgressLine::new();
    let job = CheckJob {
        model: args.input.model.clone(),
        threads,
        order: match args.order {
            Order::Bfs => CheckOrder::Bfs,
            Order::Dfs => CheckOrder::Dfs,
            Order::Mixed => CheckOrder::Mixed { seed: args.seed },
            Order::Any => CheckOrder::Any,
        },
        check_deadlock: !args.no_deadlock,
        stop_at_goal: args.goal,
        max_states: args.max_states,
        time_limit: args.limits.time_limit,
        memory_limit: memory.resident,
        store: if args.compact {
            workers::StoreKind::Compact
        } else {
            args.store.into()
        },
        cancel: Some(signals.cancel.clone()),
        terminated: Some(signals.terminated.clone()),
        progress: Some(progress.callback()),
        budget: Some(budget.clone()),
        symmetry: args.symmetry.mode(),
        symmetry_check: !args.no_symmetry_check,
        por: args.por,
        ltl: args.ltl.clone(),
        model_ltl: !args.no_assert_ltl,
        verbose: verbose > 0 && !quiet,
        distribution: distribution.clone(),
    };
    let summary = loaded.check(&job);
    progress.finish();
    match summary {
        Ok(summary) => {
            if !quiet {
                print_summary(&summary, args.json);
            }
            let code = summary.exit_code();
            if let Some(distribution) = &distribution
                && summary.ranks_reported() < distribution.ranks()
            {
                // This rank lost the others: leave without waiting for
                // them in MPI's finalisation.
                std::process::exit(i32::from(code));
            }
            ExitCode::from(code)
        }
        Err(e) => refused(args, &format!("error: {e}\n")),
    }
}

/// Why this binary cannot run `--distributed`.
const NO_TRANSPORT: &str = "--distributed needs the orbit-mpi binary: `cargo build --release \
     --locked -p orbit-mpi --features mpi` (with Open MPI: apt-get install libopenmpi-dev \
     openmpi-bin libclang-dev), then `mpirun -np N target/release/orbit-mpi check \
     --distributed ...`";

/// Refuses the run: `text` (rendered diagnostics) on stderr and, with
/// `--json`, the refusal as one JSON object on stdout; exit code 2.
fn refused(args: &CheckArgs, text: &str) -> ExitCode {
    eprint!("{text}");
    if args.json {
        super::output::print_line(&report::refusal_json(&args.input.model, text));
    }
    ExitCode::from(2)
}

/// Prints `summary` as text or JSON.
fn print_summary(summary: &RunSummary, json: bool) {
    if json {
        super::output::print_line(&summary.to_json());
    } else {
        super::output::print(&summary.to_text());
    }
}
/// The thread count: as asked, or one per core for the parallel orders
/// (the cores shared by the `local_ranks` ranks of a distributed run on
/// this machine).
/// A sequential order with several threads is refused rather than silently
/// approximated.
fn threads_for(args: &CheckArgs, local_ranks: usize) -> Result<usize, String> {
    let sequential = matches!(args.order, Order::Dfs | Order::Mixed);
    match args.threads {
        Some(n) if n > 1 && sequential => Err(format!(
            "`--order {}` is a sequential order and needs `--threads 1` (parallel workers explore \
             level by level with `--order bfs`, or in any order with `--order any`)",
            if args.order == Order::Dfs {
                "dfs"
            } else {
                "mixed"
            }
        )),
        Some(n) => Ok(n as usize),
        None if sequential => Ok(1),
        None => Ok(std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .div_ceil(local_ranks.max(1))
            .max(1)),
    }
}
