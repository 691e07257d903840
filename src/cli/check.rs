//! `orbit check`: load a model, explore it, report.

use super::model::ModelArgs;
use super::report::{self, RunSummary};
use super::units::{parse_bytes, parse_duration};
use crate::b::load::{LoadError, LoadOptions, load_machine_with_ast};
use crate::b::por::independence::Checked;
use crate::checker::{Checker, Order as CheckOrder};
use crate::model::Model;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use workers::Report;
use workers::budget::{Limits, MemoryBound, Watchdog};

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

pub use super::symmetry::Symmetry;

/// What counts as a deadlock (`--deadlock-mode`).
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
    /// The machine, set sizes and integer bounds.
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
    /// Stop after this much wall time, e.g. `30s`, `10m`, counted from the
    /// start: solving the constants and the analyses count too.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Stop before the process's resident memory passes this size, e.g.
    /// `4GiB` (without it: 90% of the memory the machine, cgroup and
    /// ulimits allow, so running out of memory is a clean stop).
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub memory: Option<u64>,
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
    /// Set up only the constant valuations in ProB's normal form (ProB's
    /// static symmetry reduction of constants of deferred sets, which its
    /// model checker applies by default) without reducing states: the same
    /// verdicts, ProB's state counts. Symmetry modes apply it already.
    #[arg(long)]
    pub constant_symmetry: bool,
    /// Partial order reduction: expand each state through an ample set of
    /// independent operations (Dobrikov and Leuschel). With -v, prints how
    /// each pair of operations was decided.
    #[arg(long)]
    pub por: bool,
    /// Do not check the invariant (assertions are still checked). With
    /// `--por` and no other property, only deadlocks are searched for and the
    /// reduction needs only conditions A1 and A2, so it reduces more.
    #[arg(long)]
    pub no_invariant: bool,
}

/// Memory set aside to finish cleanly (stop the workers, rebuild nothing,
/// print the summary) after an allocation is refused.
const EMERGENCY_RESERVE_BYTES: usize = 16 << 20;

/// Runs `orbit check`; `verbose` is the number of `-v` flags.
pub fn run(args: &CheckArgs, verbose: u8) -> ExitCode {
    let load_options = match args.input.load_options() {
        Ok(options) => LoadOptions {
            unchecked_invariant: args.no_invariant,
            ..options
        },
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    // Signals and limits hold from here on, through every phase: solving
    // the constants, the initial states, the analyses, the search.
    let signals = super::signals::StopSignals::install();
    // Given back if an allocation is ever refused, so that running out of
    // memory ends in a summary instead of an abort (see `crate::alloc`).
    crate::alloc::keep_emergency_reserve(EMERGENCY_RESERVE_BYTES);
    let memory = match args.memory {
        Some(bytes) => MemoryBound::at_most(bytes),
        None => MemoryBound::default_for_machine(),
    };
    let _watchdog = match Watchdog::start(Limits {
        cancel: Some(signals.cancel.clone()),
        deadline: args.time_limit.map(|limit| Instant::now() + limit),
        memory,
    }) {
        Ok(watchdog) => watchdog,
        Err(e) => {
            eprintln!("error: cannot start the thread that enforces the limits: {e}");
            return ExitCode::from(report::EXIT_INCOMPLETE);
        }
    };
    let load_start = Instant::now();
    let threads = match threads_for(args) {
        Ok(threads) => threads,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let env = RunEnv {
        args,
        threads,
        memory: memory.resident,
        signals: &signals,
    };
    if super::murphi::is_murphi(&args.input.model) {
        for (set, flag) in [
            (args.input.find_abort, "--find-abort"),
            (args.input.bound_integers, "--bound-integers"),
            (!args.input.search_path.is_empty(), "--search-path"),
            (args.constant_symmetry, "--constant-symmetry"),
        ] {
            if set {
                eprintln!("error: `{flag}` applies to B machines only");
                return ExitCode::from(2);
            }
        }
        return super::murphi::run(&env, &load_options);
    }
    let (mut system, ast) = match load_machine_with_ast(&args.input.model, &load_options) {
        Ok((system, machine, types)) => (system, (machine, types)),
        Err(LoadError::Input(text)) => {
            eprint!("{text}");
            return ExitCode::from(2);
        }
        Err(LoadError::Model(text)) => {
            if args.json {
                super::output::print_line(&report::model_error_json(&args.input.model, &text));
            }
            eprint!("{text}");
            return ExitCode::from(1);
        }
        Err(LoadError::Stopped(reason)) => {
            let terminated = signals.terminated.load(Ordering::SeqCst);
            let stopped = report::stopped_before_search(&args.input.model, reason, terminated);
            if args.json {
                super::output::print_line(&stopped.to_json());
            } else {
                super::output::print(&stopped.to_text());
            }
            return ExitCode::from(stopped.exit_code());
        }
    };
    for warning in &system.warnings {
        eprintln!("warning: {warning}");
    }
    system.check_invariant = !args.no_invariant;
    if args.constant_symmetry {
        system.keep_normal_form_valuations();
    }
    if args.deadlock_mode == Some(DeadlockMode::Stuttering) {
        eprintln!(
            "error: `--deadlock-mode stuttering` is for Murphi programs; a B machine deadlocks \
             when no operation is enabled (`stuck`)"
        );
        return ExitCode::from(2);
    }
    if args.goal && !system.has_goal() {
        eprintln!(
            "error: `--goal` needs a `GOAL == P` definition in {}, which has none",
            args.input.model.display()
        );
        return ExitCode::from(2);
    }
    tracing::debug!(elapsed = ?load_start.elapsed(), width = system.state_width(), "model loaded");

    // As in ProB, constants that INITIALISATION cannot start from are a
    // deadlock, found before any state.
    if !args.no_deadlock
        && let Some(setup) = system.valuation_without_initialisation()
    {
        let result = Report {
            outcome: workers::Outcome::Deadlock,
            stats: workers::Stats {
                threads: env.threads,
                ..Default::default()
            },
            trace: None,
            trace_error: None,
        };
        let notes = RunNotes {
            setup_deadlock: Some(setup),
            ..Default::default()
        };
        return env.print(&system, system.constant_valuations as u64, &result, notes);
    }
    let progress = super::report::ProgressLine::new();
    let por = args.por.then(|| {
        let checked = Checked {
            invariant: !args.no_invariant,
            goal: args.goal,
        };
        let (machine, types) = &ast;
        super::por::prepare(&system, machine, types, checked, verbose > 0)
    });
    let system = system;
    let symmetry = super::symmetry::prepare(&system, args.symmetry);
    let mut checker = env.checker(&system, &progress);
    let (independence, por_info) = match por {
        Some((independence, info)) => (Some(independence), Some(info)),
        None => (None, None),
    };
    if let Some(independence) = independence {
        checker = checker.por(independence);
    }
    let (run, symmetry) = match symmetry {
        Some((sym, mode, info)) => (checker.symmetry(sym, mode).run(), Some(info)),
        None => (checker.run(), None),
    };
    let result: Report = match run {
        Ok(run) => run.report,
        Err(e) => {
            progress.finish();
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let symmetry = symmetry.map(|info| info.after(&result));
    let por = por_info.map(|info| info.after(&result));
    progress.finish();
    // Bounded only if the bound cut something (a plan or an enumeration).
    let integers_bounded = args.input.bound_integers && system.interpreter().used_integer_bound();
    env.print(
        &system,
        system.constant_valuations as u64,
        &result,
        RunNotes {
            symmetry,
            por,
            integers_bounded,
            setup_deadlock: None,
        },
    )
}

/// What every front end's run of `orbit check` shares: the arguments, the
/// thread count, the memory bound and the signals.
pub struct RunEnv<'a> {
    /// The arguments.
    pub args: &'a CheckArgs,
    /// Worker threads.
    pub threads: usize,
    /// The resident-memory bound of the store.
    pub memory: Option<u64>,
    /// The stop signals.
    pub signals: &'a super::signals::StopSignals,
}

impl RunEnv<'_> {
    /// A checker for `system` configured by the arguments (order, threads,
    /// checks, limits, cancel flag, progress line).
    pub fn checker<'m, M: Model>(
        &self,
        system: &'m M,
        progress: &super::report::ProgressLine,
    ) -> Checker<'m, M> {
        let args = self.args;
        let order = match args.order {
            Order::Bfs => CheckOrder::Bfs,
            Order::Dfs => CheckOrder::Dfs,
            Order::Mixed => CheckOrder::Mixed { seed: args.seed },
            Order::Any => CheckOrder::Any,
        };
        Checker::new(system)
            .threads(self.threads)
            .order(order)
            .check_deadlock(!args.no_deadlock)
            .stop_at_goal(args.goal)
            .max_states(args.max_states)
            .time_limit(args.time_limit)
            .memory_limit(self.memory)
            .store(if args.compact {
                workers::StoreKind::Compact
            } else {
                args.store.into()
            })
            .cancel(self.signals.cancel.clone())
            .progress(progress.callback())
    }

    /// Prints the summary of a run, with what the run's layers and front
    /// end add to it, and returns its exit code.
    pub fn print<M: Model>(
        &self,
        system: &M,
        constant_valuations: u64,
        result: &Report,
        notes: RunNotes,
    ) -> ExitCode {
        let args = self.args;
        let mut summary = RunSummary::new(
            &args.input.model,
            system,
            constant_valuations,
            result,
            self.signals.terminated.load(Ordering::SeqCst),
        );
        if let Some(info) = notes.symmetry {
            summary.set_symmetry(info);
        }
        if let Some(info) = notes.por {
            summary.set_por(info);
        }
        if let Some((label, constants)) = notes.setup_deadlock {
            summary.set_setup_deadlock(label, constants);
        }
        if notes.integers_bounded {
            summary.set_bounded(
                "--bound-integers: integers that nothing bounds were enumerated only within \
                 MININT..MAXINT",
            );
        }
        if args.json {
            super::output::print_line(&summary.to_json());
        } else {
            super::output::print(&summary.to_text());
        }
        ExitCode::from(summary.exit_code())
    }
}

/// What a run's layers and front end add to its summary.
#[derive(Default)]
pub struct RunNotes {
    /// Symmetry reduction's figures, if it ran.
    pub symmetry: Option<super::symmetry::SymmetryInfo>,
    /// Partial order reduction's figures, if it ran.
    pub por: Option<super::por::PorInfo>,
    /// `--bound-integers` cut an enumeration.
    pub integers_bounded: bool,
    /// B: a constant valuation that INITIALISATION cannot start from (its
    /// SETUP_CONSTANTS label and the constants' values), found before the
    /// search with deadlocks checked: the run's result, as in ProB.
    pub setup_deadlock: Option<(String, Vec<(String, String)>)>,
}

/// The thread count: as asked, or one per core for the parallel orders.
/// A sequential order with several threads is refused rather than silently
/// approximated.
fn threads_for(args: &CheckArgs) -> Result<usize, String> {
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
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}
