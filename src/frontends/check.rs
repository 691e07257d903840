//! The check of a loaded model, the same for every front end: its parts
//! ([`ModelParts`]) through the checker's layers, and the run's summary.

use super::ModelParts;
use crate::checker::{Checker, CheckerError, Order};
use crate::model::Model;
use crate::report::{RunNotes, RunSummary};
use crate::symmetry::SymmetryMode;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use workers::budget::Budget;
use workers::{ProgressFn, Report, StoreKind};

/// What a check asks: the search, its limits and the reductions.
#[derive(Clone)]
pub struct CheckJob {
    /// The model file, as the summary names it.
    pub model: PathBuf,
    /// Worker threads.
    pub threads: usize,
    /// The search order.
    pub order: Order,
    /// Whether a deadlock is an error.
    pub check_deadlock: bool,
    /// Stop at the first goal state.
    pub stop_at_goal: bool,
    /// Store at most this many distinct states.
    pub max_states: Option<u64>,
    /// Stop after this much wall time.
    pub time_limit: Option<Duration>,
    /// Bytes of resident memory the store may take.
    pub memory_limit: Option<u64>,
    /// How the visited store keeps states.
    pub store: StoreKind,
    /// Raised to stop the run (Ctrl-C, SIGTERM).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Raised by SIGTERM: the summary says so instead of "interrupted".
    pub terminated: Option<Arc<AtomicBool>>,
    /// Called about once a second with the search's progress.
    pub progress: Option<ProgressFn>,
    /// The run's budget, when the caller watches it already.
    pub budget: Option<Budget>,
    /// Symmetry reduction, if any.
    pub symmetry: Option<SymmetryMode>,
    /// Whether symmetry reduction checks the declared symmetry on a sample
    /// of the states ([`crate::symmetry::soundness`]).
    pub symmetry_check: bool,
    /// Partial order reduction.
    pub por: bool,
    /// LTL formulas (ProB's syntax) to check after the search, besides
    /// those the model states itself (B's `ASSERT_LTL` definitions).
    pub ltl: Vec<String>,
    /// Whether the model's own LTL assertions (B's `ASSERT_LTL`
    /// definitions) are checked (default: yes).
    pub model_ltl: bool,
    /// Say how the reductions were set up (on stderr).
    pub verbose: bool,
    /// Search together with the other ranks of this distribution.
    pub distribution: Option<crate::distributed::Distribution>,
}

impl CheckJob {
    /// A one-thread, breadth-first, unreduced check of `model` for errors
    /// and deadlocks, without limits.
    pub fn new(model: impl Into<PathBuf>) -> Self {
        CheckJob {
            model: model.into(),
            threads: 1,
            order: Order::Bfs,
            check_deadlock: true,
            stop_at_goal: false,
            max_states: None,
            time_limit: None,
            memory_limit: None,
            store: StoreKind::Exact,
            cancel: None,
            terminated: None,
            progress: None,
            budget: None,
            symmetry: None,
            symmetry_check: true,
            por: false,
            ltl: Vec::new(),
            model_ltl: true,
            verbose: false,
            distribution: None,
        }
    }

    fn terminated(&self) -> bool {
        self.terminated
            .as_ref()
            .is_some_and(|t| t.load(Ordering::SeqCst))
    }
}

/// Runs `job` on `parts`.
pub(super) fn run<P: ModelParts>(parts: &P, job: &CheckJob) -> Result<RunSummary, CheckerError> {
    let model = parts.model();
    // As in ProB, constants that the initialisation cannot start from are
    // a deadlock, found before any state.
    if job.check_deadlock
        && let Some((label, constants)) = parts.setup_deadlock()
    {
        let result = Report {
            outcome: workers::Outcome::Deadlock,
            stats: workers::Stats {
                threads: job.threads,
                ..Default::default()
            },
            trace: None,
            trace_error: None,
        };
        let mut summary = RunSummary::new(
            &job.model,
            model,
            parts.constant_valuations(),
            &result,
            job.terminated(),
        );
        summary.set_setup_deadlock(label, constants);
        return Ok(summary);
    }
    let por = match job.por {
        false => None,
        true => Some(
            parts
                .independence(job.stop_at_goal, job.verbose)
                .ok_or_else(|| {
                    let why = parts.por_unavailable().unwrap_or_else(|| {
                        "not supported yet: partial order reduction for this language".to_string()
                    });
                    CheckerError::new(why, "run without --por")
                })?,
        ),
    };
    let symmetry = match job.symmetry {
        None => None,
        Some(mode) => Some(parts.symmetry(mode).ok_or_else(|| {
            let why = parts.symmetry_unavailable().unwrap_or_else(|| {
                "not supported yet: symmetry reduction for this language".to_string()
            });
            CheckerError::new(why, "run without --symmetry")
        })?),
    };
    let mut checker = Checker::new(model)
        .threads(job.threads)
        .order(job.order)
        .check_deadlock(job.check_deadlock)
        .stop_at_goal(job.stop_at_goal)
        .max_states(job.max_states)
        .time_limit(job.time_limit)
        .memory_limit(job.memory_limit)
        .store(job.store)
        .symmetry_check(job.symmetry_check);
    if let Some(cancel) = &job.cancel {
        checker = checker.cancel(cancel.clone());
    }
    if let Some(progress) = &job.progress {
        checker = checker.progress(progress.clone());
    }
    if let Some(budget) = &job.budget {
        checker = checker.budget(budget.clone());
    }
    if let Some(distribution) = &job.distribution {
        checker = checker.distributed(distribution.clone());
    }
    let mut formulas: Vec<(String, String)> = if job.model_ltl {
        model.ltl_assertions()
    } else {
        Vec::new()
    };
    formulas.extend(
        job.ltl
            .iter()
            .enumerate()
            .map(|(k, f)| (format!("--ltl {}", k + 1), f.clone())),
    );
    for (name, text) in formulas {
        let property = crate::temporal::ltl::parse(&text).map_err(|e| {
            CheckerError::new(
                format!(
                    "LTL property `{name}`: {e}\n  {text}\n  {:>width$}",
                    "^",
                    width = e.at + 1
                ),
                "ProB's syntax: G F X U W R, not & or =>, {predicate}, e(op), [op], deadlock, \
                 WF(op)/SF(op)/WEF/SEF => formula",
            )
        })?;
        checker = checker.ltl(name, property);
    }
    let mut notes = RunNotes::default();
    if let Some((independence, info)) = por {
        checker = checker.por(independence);
        notes.por = Some(info);
    }
    let run = match symmetry {
        Some((sym, info)) => {
            let mode = info.mode;
            notes.symmetry = Some(info);
            checker.symmetry(sym, mode).run()?
        }
        None => checker.run()?,
    };
    let report = run.report;
    let liveness = run.liveness;
    let ltl = run.ltl;
    notes.symmetry = notes.symmetry.map(|info| info.after(&report));
    notes.por = notes.por.map(|info| info.after(&report));
    notes.bounded = parts.bounded();
    let mut summary = RunSummary::new(
        &job.model,
        model,
        parts.constant_valuations(),
        &report,
        job.terminated(),
    );
    summary.add_notes(notes);
    if let Some(figures) = &liveness {
        summary.set_liveness(figures);
    }
    summary.set_ltl(&ltl);
    Ok(summary)
}
