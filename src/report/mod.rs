//! What a check reports: the verdict, the counterexample, the summary, as
//! text or as one JSON object ([`json::CheckReport`]), with the figures the
//! reductions add ([`SymmetryInfo`], [`PorInfo`]).
//!
//! Exit codes: 0 for a complete search that found no error, 1 for a
//! violated property, a deadlock, a goal or a model error, 3 for a search
//! that stopped before exploring everything (a bound, Ctrl-C or SIGTERM).

pub mod json;
mod notes;
pub mod refusal;

pub use notes::{PorInfo, RunNotes, SymmetryInfo, markers_warning};

use crate::model::Model;
use json::{Changes, CheckReport, SCHEMA_VERSION, SearchFigures, StopCause, TraceStep, Verdict};
use std::path::Path;
use workers::{Outcome, Report, StopReason};

/// Exit code of a search that stopped before exploring everything.
pub const EXIT_INCOMPLETE: u8 = 3;

/// Everything the end of a run reports: the JSON report, from which the
/// text is rendered too.
pub struct RunSummary {
    report: CheckReport,
    headline: String,
    exit_code: u8,
}

impl RunSummary {
    /// Summarises an engine report on a model with `constant_valuations`
    /// (B's SETUP_CONSTANTS solutions, 0 for other languages);
    /// `terminated` says that the cancel flag was raised by SIGTERM rather
    /// than Ctrl-C.
    pub fn new<M: Model>(
        model: &Path,
        system: &M,
        constant_valuations: u64,
        report: &Report,
        terminated: bool,
    ) -> Self {
        let mut stopped = None;
        let (result, headline, message, exit_code) = match &report.outcome {
            Outcome::Complete => (
                Verdict::Ok,
                "no error found: all reachable states explored".to_string(),
                None,
                0,
            ),
            Outcome::Violation(v) => {
                let verdict = match v.kind {
                    workers::ViolationKind::Invariant => Verdict::InvariantViolation,
                    workers::ViolationKind::Assertion => Verdict::AssertionViolation,
                    workers::ViolationKind::Liveness => Verdict::LivenessViolation,
                    workers::ViolationKind::Ltl => Verdict::LtlViolation,
                };
                (verdict, v.kind.to_string(), Some(v.message.clone()), 1)
            }
            Outcome::Deadlock => (
                Verdict::Deadlock,
                system.deadlock_headline().unwrap_or_else(|| {
                    "deadlock: a state has no enabled operation (or, with stuttering \
                     deadlocks, none that leaves it)"
                        .to_string()
                }),
                None,
                1,
            ),
            Outcome::GoalFound => (
                Verdict::GoalFound,
                "goal found: a state satisfies GOAL".to_string(),
                None,
                1,
            ),
            Outcome::ModelError(e) if e.refused => (
                Verdict::Refused,
                "model refused: a declaration does not hold".to_string(),
                Some(e.message.clone()),
                2,
            ),
            Outcome::ModelError(e) => (
                Verdict::ModelError,
                "model error".to_string(),
                Some(e.message.clone()),
                1,
            ),
            Outcome::Stopped(reason) => {
                let (cause, why) = stop_cause(*reason, terminated);
                stopped = Some(cause);
                (
                    Verdict::Stopped,
                    incomplete_headline(why),
                    Some(why.to_string()),
                    EXIT_INCOMPLETE,
                )
            }
        };
        let trace = report
            .trace
            .as_ref()
            .map(|t| printed_trace(system, t))
            .unwrap_or_default();
        let s = &report.stats;
        RunSummary {
            report: CheckReport {
                schema_version: SCHEMA_VERSION,
                model: model.display().to_string(),
                result,
                stopped,
                message,
                states: s.states,
                transitions: s.transitions,
                constant_valuations,
                initial_states: s.initial_states,
                search: Some(SearchFigures {
                    max_depth: s.max_depth,
                    wall_seconds: s.wall.as_secs_f64(),
                    states_per_second: s.states_per_second(),
                    store_bytes: s.store_bytes,
                    store_initial_bytes: s.store_initial_bytes,
                    state_bytes: s.state_bytes,
                    store_bytes_per_state: s.store_past_initial_size().then(|| s.bytes_per_state()),
                    peak_memory_bytes: peak_memory_bytes(),
                    threads: s.threads,
                    tree_nodes: s.tree_nodes,
                    collision_probability: s.collision_probability,
                    job_ranks: (s.job_ranks > 0).then_some(s.job_ranks),
                    ranks: s
                        .ranks
                        .iter()
                        .map(|r| json::RankReport {
                            rank: r.rank,
                            states: r.states,
                            transitions: r.transitions,
                            store_bytes: r.store_bytes,
                            states_sent: r.states_sent,
                            messages_sent: r.messages_sent,
                            bytes_sent: r.bytes_sent,
                        })
                        .collect(),
                }),
                symmetry: None,
                por: None,
                covers: system
                    .cover_counts()
                    .into_iter()
                    .map(|c| json::CoverReport {
                        name: c.name,
                        hits: c.hits,
                    })
                    .collect(),
                liveness: None,
                cycle_start: report.trace.as_ref().and_then(|t| t.cycle_start),
                ltl: Vec::new(),
                trace,
                trace_error: report.trace_error.clone(),
                bounded: None,
                approximate: None,
                diagnostics: Vec::new(),
            },
            headline,
            exit_code,
        }
    }

    /// Adds what the run's layers and front end noted.
    pub fn add_notes(&mut self, notes: RunNotes) {
        if let Some(info) = notes.symmetry {
            self.set_symmetry(info);
        }
        if let Some(info) = notes.por {
            self.set_por(info);
        }
        if let Some((label, constants)) = notes.setup_deadlock {
            self.set_setup_deadlock(label, constants);
        }
        if let Some(because) = notes.bounded {
            self.set_bounded(&because);
        }
    }

    /// Marks the run as symmetry-reduced: constant valuations are counted
    /// as orbits, and the mode's own figures are printed.
    pub fn set_symmetry(&mut self, info: SymmetryInfo) {
        if !info.mode.is_exact() {
            let why = "--symmetry markers is approximate: states of different orbits can \
                       share a marker, so whole orbits (and their errors) may have been skipped; \
                       confirm with --symmetry canon";
            if self.exit_code == 0 {
                self.headline = format!("no error found in the states explored ({why})");
            }
            self.report.approximate = Some(why.to_string());
        }
        self.report.constant_valuations = info.constant_orbits;
        self.report.symmetry = Some(info.to_report());
    }

    /// Says, in the headline, that the states explored are those within a
    /// bound the user chose (`because`), and what that means for an error.
    pub fn set_bounded(&mut self, because: &str) {
        if self.exit_code == 0 {
            self.headline = format!("no error found in the states explored ({because})");
        } else if self.report.result == Verdict::Deadlock {
            // An operation may be enabled only by values outside the bound.
            self.headline = format!(
                "{} ({because}: an operation enabled only by values outside them was not seen)",
                self.headline
            );
        } else if self.report.result != Verdict::Stopped {
            // A set such as NATURAL built as a value was cut to the bound too.
            self.headline = format!("{} (found with {because})", self.headline);
        }
        self.report.bounded = Some(because.to_string());
    }

    /// Makes the result a deadlock at the setup of the constants `label`
    /// (their printed values `constants`) that INITIALISATION cannot start
    /// from, as ProB's model checker reports it.
    pub fn set_setup_deadlock(&mut self, label: String, constants: Vec<(String, String)>) {
        self.report.result = Verdict::Deadlock;
        self.report.stopped = None;
        self.report.message = Some(format!(
            "INITIALISATION has no outcome from the constants {label}"
        ));
        self.report.trace = vec![TraceStep {
            label,
            changes: Changes(constants),
        }];
        self.report.trace_error = None;
        self.headline =
            "deadlock: a valuation of the constants admits no INITIALISATION".to_string();
        self.exit_code = 1;
    }

    /// Marks the run as reduced by partial order reduction.
    pub fn set_por(&mut self, info: PorInfo) {
        self.report.por = Some(info.to_report());
    }

    /// Adds what the liveness check measured.
    pub fn set_liveness(&mut self, figures: &crate::temporal::liveness::LivenessFigures) {
        self.report.liveness = Some(json::LivenessReport {
            properties: figures.properties as u64,
            states: figures.states,
            edges: figures.edges,
            graph_bytes: figures.graph_bytes,
            wall_seconds: figures.wall.as_secs_f64(),
        });
    }

    /// Adds what the LTL checks measured.
    pub fn set_ltl(&mut self, runs: &[crate::checker::LtlRun]) {
        self.report.ltl = runs
            .iter()
            .map(|r| json::LtlReport {
                name: r.name.clone(),
                formula: r.formula.clone(),
                automaton_states: r.figures.automaton_states as u64,
                model_states: r.figures.model_states,
                product_states: r.figures.product_states,
                product_edges: r.figures.product_edges,
                graph_bytes: r.figures.graph_bytes,
                wall_seconds: r.figures.wall.as_secs_f64(),
            })
            .collect();
    }

    /// The process exit code for this result.
    pub fn exit_code(&self) -> u8 {
        self.exit_code
    }

    /// Ranks whose figures the report holds (0 for a search in one
    /// process): fewer than the job's when a rank lost the others.
    pub fn ranks_reported(&self) -> usize {
        self.report.search.as_ref().map_or(0, |s| s.ranks.len())
    }

    /// The report as one JSON object (one line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.report).expect("the report serialises")
    }

    /// The human-readable report (values in the counterexample longer
    /// than [`LONGEST_VALUE`] characters are cut in the middle; the JSON
    /// report has them whole).
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let r = &self.report;
        let mut out = String::new();
        let _ = writeln!(out, "{}: {}", r.model, self.headline);
        if let Some(m) = &r.message
            && r.result != Verdict::Stopped
        {
            let _ = writeln!(out, "  {m}");
        }
        if let Some(e) = &r.trace_error {
            let _ = writeln!(out, "  (no counterexample: {e})");
        }
        if !r.trace.is_empty() {
            let n = r.trace.len();
            let steps = if n == 1 { "step" } else { "steps" };
            let _ = writeln!(out, "\ncounterexample ({n} {steps}):");
            for (i, step) in r.trace.iter().enumerate() {
                let mark = if r.cycle_start == Some(i) {
                    "   <- the cycle starts here"
                } else {
                    ""
                };
                let _ = writeln!(out, "{:>4}. {}{mark}", i + 1, step.label);
                for (name, value) in &step.changes.0 {
                    let _ = writeln!(out, "        {name} = {}", elided(value));
                }
            }
            if let Some(start) = r.cycle_start {
                let _ = writeln!(
                    out,
                    "      (step {n} is step {}: the run repeats steps {} to {n} forever)",
                    start + 1,
                    start + 2
                );
            }
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "distinct states:      {}", group(r.states));
        let _ = writeln!(out, "transitions:          {}", group(r.transitions));
        let orbits = if r.symmetry.is_some() {
            " (orbits)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "constant valuations:  {}{orbits}",
            group(r.constant_valuations)
        );
        let _ = writeln!(out, "initial states:       {}", group(r.initial_states));
        if let Some(s) = &r.search {
            write_search_figures(&mut out, r.states, s);
        }
        if let Some(info) = &r.symmetry {
            out.push_str(&notes::symmetry_text(info));
        }
        if let Some(info) = &r.por {
            out.push_str(&notes::por_text(info));
        }
        // With --por the LTL graph is built through ample sets too.
        let graph = if r.por.is_some() {
            "reduced graph"
        } else {
            "graph"
        };
        for l in &r.ltl {
            let _ = writeln!(
                out,
                "LTL {}: automaton of {} states, {graph} of {} states, product of {} states, {} edges ({}, {:.3} s)",
                l.name,
                l.automaton_states,
                group(l.model_states),
                group(l.product_states),
                group(l.product_edges),
                bytesize::ByteSize(l.graph_bytes).display().iec(),
                l.wall_seconds
            );
        }
        for c in &r.covers {
            let times = if c.hits == 1 { "time" } else { "times" };
            let _ = writeln!(out, "cover \"{}\" hit {} {times}", c.name, group(c.hits));
        }
        if let Some(l) = &r.liveness {
            let _ = writeln!(
                out,
                "liveness:             {} {} checked on a graph of {} states, {} edges ({}, {:.3} s)",
                group(l.properties),
                if l.properties == 1 {
                    "property"
                } else {
                    "properties"
                },
                group(l.states),
                group(l.edges),
                bytesize::ByteSize(l.graph_bytes).display().iec(),
                l.wall_seconds
            );
        }
        out
    }
}

/// The report of a run stopped (by a limit or a signal) before its search
/// began, e.g. while the constants were solved.
pub fn stopped_before_search(model: &Path, reason: StopReason, terminated: bool) -> RunSummary {
    let (cause, why) = stop_cause(reason, terminated);
    let mut report = CheckReport::before_search(
        model,
        Verdict::Stopped,
        format!("{why}, before the search began"),
    );
    report.stopped = Some(cause);
    RunSummary {
        report,
        headline: incomplete_headline(why),
        exit_code: EXIT_INCOMPLETE,
    }
}

/// The headline of an incomplete run.
fn incomplete_headline(why: &str) -> String {
    format!(
        "incomplete: {why}; not every reachable state was explored, so this is no verdict \
         (statistics are partial)"
    )
}

/// Why a run stopped, in words (a command without a report prints it).
pub fn stop_words(reason: StopReason, terminated: bool) -> &'static str {
    stop_cause(reason, terminated).1
}

/// The JSON cause and the words for a stop.
fn stop_cause(reason: StopReason, terminated: bool) -> (StopCause, &'static str) {
    match reason {
        StopReason::MaxStates => (StopCause::MaxStates, "the --max-states bound was reached"),
        StopReason::TimeLimit => (StopCause::TimeLimit, "the --time-limit was reached"),
        StopReason::MemoryLimit => (
            StopCause::Memory,
            "the memory bound was reached (--memory, or 90% of what the machine allows)",
        ),
        StopReason::Interrupted if terminated => (StopCause::Terminated, "terminated (SIGTERM)"),
        StopReason::Interrupted => (StopCause::Interrupted, "interrupted (Ctrl-C)"),
        StopReason::WorkerFailed => (
            StopCause::WorkerFailure,
            "a worker thread could not be started or failed (the error is above)",
        ),
        StopReason::LoopLimit => (
            StopCause::LoopLimit,
            "a loop of the model (a Murphi `while`, a B `WHILE`) ran 16,777,216 iterations, \
             orbit's bound for one loop",
        ),
        StopReason::CallDepth => (
            StopCause::CallDepth,
            "the model's function and procedure calls nested 10,000 deep, orbit's bound",
        ),
        StopReason::StoreFull => (
            StopCause::StoreFull,
            "the store can name no more states or tree nodes (2^40 states per thread, \
             2^32 tree nodes)",
        ),
    }
}

/// The summary lines of the search's own figures.
fn write_search_figures(out: &mut String, states: u64, s: &SearchFigures) {
    use std::fmt::Write;
    let iec = |bytes: u64| bytesize::ByteSize(bytes).display().iec().to_string();
    let _ = writeln!(out, "max depth:            {}", group(s.max_depth));
    let _ = writeln!(
        out,
        "wall time:            {:.3} s ({} states/s)",
        s.wall_seconds,
        group(s.states_per_second as u64)
    );
    match s.store_bytes_per_state {
        Some(per_state) => {
            let _ = writeln!(
                out,
                "state store:          {} ({per_state:.1} bytes/state)",
                iec(s.store_bytes)
            );
        }
        None if states > 0 => {
            let _ = writeln!(
                out,
                "state store:          {} (under twice its initial {}: too few states for a \
                 bytes/state figure)",
                iec(s.store_bytes),
                iec(s.store_initial_bytes)
            );
        }
        None => {}
    }
    if states > 0 && s.collision_probability.is_none() {
        let _ = writeln!(
            out,
            "state size:           {} bytes (packed)",
            s.state_bytes
        );
    }
    if let Some(nodes) = s.tree_nodes {
        let _ = writeln!(out, "tree nodes:           {}", group(nodes));
    }
    if let Some(p) = s.collision_probability {
        let _ = writeln!(
            out,
            "fingerprints:         probability {p:.2e} that a collision hid a state (--compact)"
        );
    }
    if let Some(peak) = s.peak_memory_bytes {
        let _ = writeln!(out, "peak memory:          {}", iec(peak));
    }
    if s.ranks.is_empty() {
        let _ = writeln!(out, "threads:              {}", s.threads);
    } else {
        let job = s.job_ranks.unwrap_or(s.ranks.len());
        let each = match s.threads {
            1 => "1 thread each".to_string(),
            n => format!("{n} threads each"),
        };
        let _ = if s.ranks.len() < job {
            writeln!(
                out,
                "ranks:                {} of {job} reported, {each} (the others were lost: \
                 the figures are this rank's alone)",
                s.ranks.len(),
            )
        } else {
            writeln!(out, "ranks:                {job}, {each}")
        };
        for r in &s.ranks {
            let _ = writeln!(
                out,
                "  rank {:<15}{} states, {} store; sent {} states in {} messages, {}",
                format!("{}:", r.rank),
                group(r.states),
                iec(r.store_bytes),
                group(r.states_sent),
                group(r.messages_sent),
                iec(r.bytes_sent)
            );
        }
    }
}

/// The JSON report of a model that failed before the search started.
/// The JSON report of a model or flags refused before anything ran (exit
/// code 2): `text` is the refusal as printed on stderr.
pub fn refusal_json(model: &Path, text: &str) -> String {
    let diagnostics = refusal::diagnostics(text);
    let message = diagnostics
        .first()
        .map_or_else(|| text.trim().to_string(), |d| d.message.clone());
    let mut report = CheckReport::before_search(model, Verdict::Refused, message);
    report.diagnostics = diagnostics;
    serde_json::to_string(&report).expect("the report serialises")
}

pub fn model_error_json(model: &Path, message: &str) -> String {
    let message = message.trim().trim_start_matches("error: ").to_string();
    let report = CheckReport::before_search(model, Verdict::ModelError, message);
    serde_json::to_string(&report).expect("the report serialises")
}

fn printed_trace<M: Model>(system: &M, trace: &workers::Trace) -> Vec<TraceStep> {
    let mut previous: Option<Vec<(String, String)>> = None;
    trace
        .steps
        .iter()
        .map(|step| {
            let now = system.describe_state(&step.state);
            let changes = match &previous {
                None => now.clone(),
                Some(before) => now
                    .iter()
                    .zip(before)
                    .filter(|(a, b)| a.1 != b.1)
                    .map(|(a, _)| a.clone())
                    .collect(),
            };
            previous = Some(now);
            TraceStep {
                label: step.label.clone(),
                changes: Changes(changes),
            }
        })
        .collect()
}

/// `1234567` as `1,234,567`.
pub(crate) fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Peak resident memory of this process (Linux: VmHWM), if known.
fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The most characters of one value the text report prints in a
/// counterexample: a set of 65,536 numbers is 400 KB on one line.
pub const LONGEST_VALUE: usize = 400;

/// `value`, or its beginning and end with what was cut said, if it is
/// longer than [`LONGEST_VALUE`] characters.
fn elided(value: &str) -> std::borrow::Cow<'_, str> {
    let chars = value.chars().count();
    if chars <= LONGEST_VALUE {
        return value.into();
    }
    let head: String = value.chars().take(LONGEST_VALUE - 100).collect();
    let tail: String = value.chars().skip(chars - 80).collect();
    format!(
        "{head} ... {tail}  ({} characters cut; `--json` has the whole value)",
        chars - head.chars().count() - tail.chars().count()
    )
    .into()
}

#[cfg(test)]
mod tests {
    use super::{LONGEST_VALUE, StopReason, elided, group, stop_words};

    #[test]
    fn long_values_are_cut_in_the_middle() {
        let short = "{1,2,3}";
        assert_eq!(elided(short), short);
        let long = format!(
            "{{{}}}",
            (0..10_000)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        let cut = elided(&long);
        assert!(cut.len() < LONGEST_VALUE + 100, "{cut}");
        assert!(cut.starts_with("{0,1,2,"), "{cut}");
        assert!(cut.contains("9998,9999}"), "{cut}");
        assert!(cut.contains("characters cut"), "{cut}");
    }

    #[test]
    fn the_words_of_orbits_bounds_name_the_bounds_applied() {
        // The words are static text: they must follow the constants.
        let loops = stop_words(StopReason::LoopLimit, false);
        assert!(
            loops.contains(&group(workers::budget::LOOP_LIMIT)),
            "{loops}"
        );
        let calls = stop_words(StopReason::CallDepth, false);
        let depth = group(workers::budget::CALL_DEPTH_LIMIT as u64);
        assert!(calls.contains(&depth), "{calls}");
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1234567), "1,234,567");
    }
}
