//! The library API: a model checker built from a [`Model`], its layers and
//! the engine, that refuses every combination it cannot honour.
//!
//! ```text
//! front end (B, ...) ──> Model ──> [PorLayer] ──> [SymmetryLayer] ──> Layered ──> workers::explore
//! ```
//!
//! ```no_run
//! # use orbit::checker::{Checker, Order};
//! # use orbit::symmetry::SymmetryMode;
//! # fn demo(model: &orbit::frontends::b::system::BSystem) -> Result<(), orbit::checker::CheckerError> {
//! let sym = orbit::frontends::b::symmetry::BSymmetry::new(
//!     model.layout(),
//!     &model.interchangeable,
//!     model.layout().slots().len(),
//!     orbit::frontends::b::symmetry::MarkerMode::None,
//! );
//! let run = Checker::new(model)
//!     .threads(2)
//!     .order(Order::Bfs)
//!     .symmetry(sym, SymmetryMode::Canon)
//!     .run()?;
//! println!("{} states", run.report.stats.states);
//! # Ok(()) }
//! ```

mod layered;
mod temporal;

pub use layered::{Layered, LayeredScratch, ModelRuns};
pub use temporal::{LtlProperty, LtlRun, STUTTER_LABEL};

use crate::distributed::Distribution;
use crate::model::{Independence, Model, NoSymmetry, StateSymmetry};
use crate::por::PorLayer;
use crate::symmetry::{SymmetryLayer, SymmetryMode};
use crate::temporal::liveness::LivenessFigures;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use workers::budget::{Budget, Limits, MemoryBound, Watchdog};
use workers::{Config, ParallelMode, ProgressFn, Report, SearchOrder, StoreKind};

/// The search order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Breadth first; counterexamples are shortest (with several threads:
    /// level-synchronous).
    Bfs,
    /// Depth first (one thread only).
    Dfs,
    /// ProB's mixed order with a seed (one thread only).
    Mixed {
        /// The seed of the front/back choice.
        seed: u64,
    },
    /// Whatever order the worker threads reach states in (work stealing).
    Any,
}

/// A combination of options the checker cannot honour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckerError {
    /// What is wrong.
    pub message: String,
    /// Further explanation or a suggestion.
    pub notes: Vec<String>,
}

impl CheckerError {
    /// The error `message`, with a note that explains or suggests.
    pub fn new(message: impl Into<String>, note: impl Into<String>) -> Self {
        CheckerError {
            message: message.into(),
            notes: vec![note.into()],
        }
    }
}

impl fmt::Display for CheckerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        for note in &self.notes {
            write!(f, " ({note})")?;
        }
        Ok(())
    }
}

impl std::error::Error for CheckerError {}

/// The result of a run: the engine's report (with a symmetry-reduced trace
/// mapped back to a real run of the model).
#[derive(Debug)]
pub struct Run {
    /// The engine's report (with the liveness check's verdict when the
    /// model has liveness properties).
    pub report: Report,
    /// What the liveness check measured, when it ran.
    pub liveness: Option<LivenessFigures>,
    /// What each LTL check that ran measured, in order.
    pub ltl: Vec<LtlRun>,
}

/// A model checker under construction (see the module docs).
pub struct Checker<'m, M: Model, S: StateSymmetry = NoSymmetry> {
    model: &'m M,
    symmetry: Option<(S, SymmetryMode)>,
    symmetry_check: bool,
    independence: Option<Independence>,
    order: Order,
    threads: usize,
    config: Config,
    budget: Option<Budget>,
    ltl: Vec<LtlProperty>,
    distribution: Option<Distribution>,
}

impl<'m, M: Model> Checker<'m, M> {
    /// A checker for `model`: one thread, breadth first, checking the
    /// model's labels and deadlocks, no reduction.
    pub fn new(model: &'m M) -> Self {
        Checker {
            model,
            symmetry: None,
            symmetry_check: true,
            independence: None,
            order: Order::Bfs,
            threads: 1,
            config: Config::default(),
            budget: None,
            ltl: Vec::new(),
            distribution: None,
        }
    }
}

impl<'m, M: Model, S: StateSymmetry> Checker<'m, M, S> {
    /// Number of worker threads (1 to [`workers::MAX_THREADS`]).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The search order.
    pub fn order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }

    /// Whether a state without successors is an error (default: yes).
    pub fn check_deadlock(mut self, on: bool) -> Self {
        self.config.check_deadlock = on;
        self
    }

    /// Stop at the first state satisfying the model's goal label.
    pub fn stop_at_goal(mut self, on: bool) -> Self {
        self.config.stop_at_goal = on;
        self
    }

    /// Store at most this many distinct states.
    pub fn max_states(mut self, max: Option<u64>) -> Self {
        self.config.max_states = max;
        self
    }

    /// Stop after this much wall time.
    pub fn time_limit(mut self, limit: Option<Duration>) -> Self {
        self.config.time_limit = limit;
        self
    }

    /// Bytes the visited store may use.
    pub fn memory_limit(mut self, bytes: Option<u64>) -> Self {
        self.config.memory_limit = bytes;
        self
    }

    /// How the visited store keeps states: exact (the default),
    /// tree-compressed, or as 64-bit fingerprints (compact).
    pub fn store(mut self, kind: StoreKind) -> Self {
        self.config.store = kind;
        self
    }

    /// A flag that stops the search cleanly when set.
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.config.cancel = Some(flag);
        self
    }

    /// The run's budget, when the caller watches it already (the command
    /// line's covers loading the model too). Without it the run uses the
    /// budget the calling thread works for, or else one of its own, and a
    /// watchdog trips it for the time limit and the cancel flag: every
    /// phase of the search (a long rule body, a canonical labelling) then
    /// stops on them, and two checkers in one process stop each on its own.
    pub fn budget(mut self, budget: Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// A progress callback, called about once per second.
    pub fn progress(mut self, progress: ProgressFn) -> Self {
        self.config.progress = Some(progress);
        self
    }

    /// Symmetry reduction in `mode` with the front end's symmetry `sym`.
    pub fn symmetry<S2: StateSymmetry>(self, sym: S2, mode: SymmetryMode) -> Checker<'m, M, S2> {
        Checker {
            model: self.model,
            symmetry: Some((sym, mode)),
            symmetry_check: self.symmetry_check,
            independence: self.independence,
            order: self.order,
            threads: self.threads,
            config: self.config,
            budget: self.budget,
            ltl: self.ltl,
            distribution: self.distribution,
        }
    }

    /// Searches together with the other ranks of `distribution`, each
    /// owning a share of the states (see [`workers::distributed`]): level
    /// by level with [`Order::Bfs`], without barriers with [`Order::Any`],
    /// with [`Checker::threads`] threads per rank. Every rank
    /// builds the same checker; rank 0's report has the counterexample.
    pub fn distributed(mut self, distribution: Distribution) -> Self {
        self.distribution = Some(distribution);
        self
    }

    /// Checks the LTL property `property` (named `name` in reports) after
    /// a complete search, on every fair path of the model (see
    /// [`crate::temporal::ltl`]); properties are checked in the order
    /// given, up to the first that fails.
    pub fn ltl(
        mut self,
        name: impl Into<String>,
        property: crate::temporal::ltl::Property,
    ) -> Self {
        self.ltl.push(LtlProperty {
            name: name.into(),
            property,
        });
        self
    }

    /// Whether symmetry reduction first checks, on a sample of the
    /// expanded states, that the model's transitions commute with the
    /// declared permutations ([`crate::symmetry::soundness`]; default on).
    /// A violation stops the run: the model is refused.
    pub fn symmetry_check(mut self, on: bool) -> Self {
        self.symmetry_check = on;
        self
    }

    /// Partial order reduction with the front end's `independence`.
    pub fn por(mut self, independence: Independence) -> Self {
        self.independence = Some(independence);
        self
    }

    /// Checks the combination and builds the layer stack and the engine's
    /// configuration.
    pub fn build(self) -> Result<(Layered<'m, M, S>, Config), CheckerError> {
        let mut config = self.config.clone();
        if self.threads == 0 || self.threads > workers::MAX_THREADS {
            return Err(CheckerError::new(
                format!("cannot run with {} worker threads", self.threads),
                format!("between 1 and {} threads", workers::MAX_THREADS),
            ));
        }
        let sequential = matches!(self.order, Order::Dfs | Order::Mixed { .. });
        if sequential && self.threads > 1 {
            return Err(CheckerError::new(
                format!(
                    "the {} order is sequential and cannot run on {} threads",
                    if self.order == Order::Dfs {
                        "depth-first"
                    } else {
                        "mixed"
                    },
                    self.threads
                ),
                "use one thread, or breadth first (level by level) or any order with several",
            ));
        }
        if config.stop_at_goal && !self.model.has_goal() {
            return Err(CheckerError::new(
                "cannot stop at a goal: the model defines none",
                "define a goal label, or do not ask for one",
            ));
        }
        config.threads = self.threads;
        (config.order, config.mode) = match self.order {
            Order::Bfs => (SearchOrder::Bfs, ParallelMode::LevelSynchronous),
            Order::Dfs => (SearchOrder::Dfs, ParallelMode::Auto),
            Order::Mixed { seed } => (SearchOrder::Mixed { seed }, ParallelMode::Auto),
            Order::Any => (SearchOrder::Bfs, ParallelMode::WorkStealing),
        };
        let por = match &self.independence {
            None => None,
            Some(ind) => {
                let groups = self.model.groups().len();
                if ind.groups.len() != groups {
                    return Err(CheckerError::new(
                        format!(
                            "the independence relations cover {} groups, the model has {groups}",
                            ind.groups.len()
                        ),
                        "build them from this model's groups",
                    ));
                }
                Some(PorLayer::new(ind, self.symmetry.is_some()))
            }
        };
        if let Some(distribution) = &self.distribution {
            self.refuse_distributed(distribution.ranks(), &config)?;
        }
        temporal::refuse_liveness_with(self.model, self.independence.is_some(), &self.symmetry)?;
        temporal::refuse_ltl_with(
            self.model,
            &self.ltl,
            self.independence.is_some(),
            &self.symmetry,
        )?;
        let symmetry = match self.symmetry {
            None => None,
            Some((sym, mode)) => Some(
                SymmetryLayer::new(sym, mode)
                    .map_err(|e| CheckerError::new(e, "choose another symmetry mode"))?
                    .with_check(self.symmetry_check),
            ),
        };
        Ok((Layered::new(self.model, symmetry, por), config))
    }

    /// Refuses what a distributed search over `ranks` processes cannot
    /// honour.
    fn refuse_distributed(&self, ranks: usize, config: &Config) -> Result<(), CheckerError> {
        let refuse = |what: &str, note: &str| Err(CheckerError::new(what, note));
        if !matches!(self.order, Order::Bfs | Order::Any) {
            return refuse(
                "a sequential order cannot run across processes",
                "use --order bfs (level by level, shortest counterexamples) or --order any",
            );
        }
        if self.independence.is_some() {
            return refuse(
                "not supported yet: partial order reduction with --distributed (its cycle \
                 proviso looks up states in one process's visited set)",
                "run without --por",
            );
        }
        if let Some((_, SymmetryMode::Flood)) = &self.symmetry {
            return refuse(
                "not supported yet: --symmetry flood with --distributed (a state's orbit \
                 belongs to many ranks)",
                "use --symmetry canon or markers",
            );
        }
        if config.store == StoreKind::Tree {
            return refuse(
                "not supported yet: --store tree with --distributed (a state is compressed \
                 against its parent, which may be on another rank)",
                "use --store exact or compact",
            );
        }
        if !self.ltl.is_empty() || !self.model.liveness_properties().is_empty() {
            return refuse(
                "not supported yet: LTL and liveness properties with --distributed",
                "check them in one process, or run with --no-assert-ltl",
            );
        }
        if self.threads * ranks > workers::MAX_THREADS {
            return refuse(
                &format!(
                    "cannot run {} threads on each of {ranks} ranks",
                    self.threads
                ),
                &format!(
                    "threads x ranks at most {} (one arena of each visited set per thread)",
                    workers::MAX_THREADS
                ),
            );
        }
        Ok(())
    }

    /// Builds and runs the search; a trace of representatives is mapped
    /// back to a real run of the model.
    pub fn run(mut self) -> Result<Run, CheckerError> {
        let given = self.budget.clone();
        if self.distribution.is_some() && !self.ltl.is_empty() {
            return Err(CheckerError::new(
                "not supported yet: LTL and liveness properties with --distributed",
                "check them in one process, or run with --no-assert-ltl",
            ));
        }
        let properties = std::mem::take(&mut self.ltl);
        temporal::refuse_ltl_with(
            self.model,
            &properties,
            self.independence.is_some(),
            &self.symmetry,
        )?;
        let ltl_por = temporal::ltl_por_layer(
            self.model,
            &properties,
            self.independence.as_ref(),
            self.symmetry.is_some(),
        );
        let distribution = self.distribution.clone();
        let (layered, config) = self.build()?;
        // The budget given, else the one the calling thread works for,
        // else the run's own.
        let budget = given
            .clone()
            .or_else(workers::budget::current)
            .unwrap_or_default();
        let limited = config.time_limit.is_some() || config.cancel.is_some();
        let _watchdog = match given {
            None if limited => Some(
                Watchdog::start(
                    &budget,
                    Limits {
                        cancel: config.cancel.clone(),
                        deadline: config.time_limit.map(|limit| Instant::now() + limit),
                        memory: MemoryBound::default(),
                    },
                )
                .map_err(|e| {
                    CheckerError::new(
                        format!("cannot start the thread that enforces the limits: {e}"),
                        "the system refused a thread",
                    )
                })?,
            ),
            _ => None,
        };
        let _entered = budget.enter();
        if let Some(distribution) = &distribution {
            let mut report = distribution.with(|transport| {
                workers::distributed::explore_distributed(&layered, &config, transport)
            });
            finish_report(&layered, &mut report);
            return Ok(Run {
                report,
                liveness: None,
                ltl: Vec::new(),
            });
        }
        let mut report = explore(&layered, &config);
        let liveness = temporal::check_liveness(&layered, &config, &mut report);
        let ltl = temporal::check_ltl(
            &layered,
            ltl_por.as_ref(),
            &config,
            &properties,
            &mut report,
        );
        Ok(Run {
            report,
            liveness,
            ltl,
        })
    }
}

/// Explores `layered` as `config` asks; a trace of representatives is
/// mapped back to a real run of the model (or dropped, with
/// `trace_error` saying why).
pub fn explore<M: Model, S: StateSymmetry>(layered: &Layered<'_, M, S>, config: &Config) -> Report {
    let mut report = workers::explore(layered, config);
    finish_report(layered, &mut report);
    report
}

/// What the model adds to the engine's report: no initial state is an
/// error, the model's own check after a complete search, and a trace of
/// representatives mapped back to a real run.
fn finish_report<M: Model, S: StateSymmetry>(layered: &Layered<'_, M, S>, report: &mut Report) {
    // Exploring nothing is not "no error found": the model cannot start.
    if matches!(report.outcome, workers::Outcome::Complete) && report.stats.initial_states == 0 {
        report.outcome = workers::Outcome::ModelError(workers::ModelError::new(
            layered.model().no_initial_state(),
        ));
    }
    if matches!(report.outcome, workers::Outcome::Complete)
        && let Some(message) = layered.model().after_complete_search()
    {
        report.outcome = workers::Outcome::ModelError(workers::ModelError::new(message));
    }
    real_trace(layered, report);
}

/// Maps a trace of representatives in `report` back to a real run of the
/// model (or drops it, with `trace_error` saying why).
pub(crate) fn real_trace<M: Model, S: StateSymmetry>(
    layered: &Layered<'_, M, S>,
    report: &mut Report,
) {
    if let (Some(layer), Some(trace)) = (layered.symmetry(), &report.trace) {
        match layer.real_trace(&layered.real_runs(), trace) {
            Ok(real) => report.trace = Some(real),
            Err(e) => {
                report.trace = None;
                report.trace_error = Some(e);
            }
        }
    }
}
