//! What `orbit check` prints: the verdict, the counterexample, the summary,
//! as text or as one JSON object, and the progress line on stderr.

use crate::b::system::BSystem;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value as Json, json};
use std::path::Path;
use std::time::Duration;
use workers::{Outcome, Progress, Report, StopReason, TransitionSystem};

/// One step of a printed counterexample: the transition and the variables
/// it changed (all of them for the first step).
pub struct PrintedStep {
    /// Transition label.
    pub label: String,
    /// (name, new value) of each variable or constant that changed.
    pub changes: Vec<(String, String)>,
}

/// Everything the end of a run reports.
pub struct RunSummary {
    model: String,
    result: &'static str,
    headline: String,
    message: Option<String>,
    trace: Vec<PrintedStep>,
    states: u64,
    transitions: u64,
    initial_states: u64,
    constant_valuations: u64,
    max_depth: u64,
    wall: Duration,
    store_bytes: u64,
    peak_memory: Option<u64>,
    threads: usize,
    collision_probability: Option<f64>,
    trace_error: Option<String>,
    exit_code: u8,
    symmetry: Option<super::symmetry::SymmetryInfo>,
    por: Option<super::por::PorInfo>,
}

impl RunSummary {
    /// Summarises an engine report on a B system.
    pub fn new(model: &Path, system: &BSystem, report: &Report) -> Self {
        let (result, headline, message, exit_code) = match &report.outcome {
            Outcome::Complete => (
                "ok",
                "no error found: all reachable states explored".to_string(),
                None,
                0,
            ),
            Outcome::Violation(v) => {
                let tag = match v.kind {
                    workers::ViolationKind::Invariant => "invariant_violation",
                    workers::ViolationKind::Assertion => "assertion_violation",
                };
                (tag, v.kind.to_string(), Some(v.message.clone()), 1)
            }
            Outcome::Deadlock => (
                "deadlock",
                "deadlock: a state has no enabled operation".to_string(),
                None,
                1,
            ),
            Outcome::GoalFound => (
                "goal_found",
                "goal found: a state satisfies GOAL".to_string(),
                None,
                1,
            ),
            Outcome::ModelError(e) => (
                "model_error",
                "model error".to_string(),
                Some(e.message.clone()),
                1,
            ),
            Outcome::Stopped(reason) => {
                let why = match reason {
                    StopReason::MaxStates => "the --max-states bound was reached",
                    StopReason::TimeLimit => "the --time-limit was reached",
                    StopReason::MemoryLimit => "the --memory bound on the state store was reached",
                    StopReason::Interrupted => "interrupted",
                };
                (
                    "stopped",
                    format!("stopped before the end: {why}; statistics are partial"),
                    None,
                    0,
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
            model: model.display().to_string(),
            result,
            headline,
            message,
            trace,
            states: s.states,
            transitions: s.transitions,
            initial_states: s.initial_states,
            constant_valuations: system.constant_valuations as u64,
            max_depth: s.max_depth,
            wall: s.wall,
            store_bytes: s.store_bytes,
            peak_memory: peak_memory_bytes(),
            threads: s.threads,
            collision_probability: s.collision_probability,
            trace_error: report.trace_error.clone(),
            exit_code,
            symmetry: None,
            por: None,
        }
    }

    /// Marks the run as symmetry-reduced: constant valuations are counted
    /// as orbits, and the mode's own figures are printed.
    pub fn set_symmetry(&mut self, info: super::symmetry::SymmetryInfo) {
        self.constant_valuations = info.constant_orbits;
        self.symmetry = Some(info);
    }

    /// Marks the run as reduced by partial order reduction.
    pub fn set_por(&mut self, info: super::por::PorInfo) {
        self.por = Some(info);
    }

    /// The process exit code for this result.
    pub fn exit_code(&self) -> u8 {
        self.exit_code
    }

    fn states_per_second(&self) -> f64 {
        let secs = self.wall.as_secs_f64();
        if secs > 0.0 {
            self.states as f64 / secs
        } else {
            0.0
        }
    }

    /// The human-readable report.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "{}: {}", self.model, self.headline);
        if let Some(m) = &self.message {
            let _ = writeln!(out, "  {m}");
        }
        if let Some(e) = &self.trace_error {
            let _ = writeln!(out, "  (no counterexample: {e})");
        }
        if !self.trace.is_empty() {
            let _ = writeln!(out, "\ncounterexample ({} steps):", self.trace.len());
            for (i, step) in self.trace.iter().enumerate() {
                let _ = writeln!(out, "{:>4}. {}", i + 1, step.label);
                for (name, value) in &step.changes {
                    let _ = writeln!(out, "        {name} = {value}");
                }
            }
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "distinct states:      {}", group(self.states));
        let _ = writeln!(out, "transitions:          {}", group(self.transitions));
        let _ = writeln!(
            out,
            "constant valuations:  {}",
            group(self.constant_valuations)
        );
        let _ = writeln!(out, "initial states:       {}", group(self.initial_states));
        let _ = writeln!(out, "max depth:            {}", group(self.max_depth));
        let _ = writeln!(
            out,
            "wall time:            {:.3} s ({} states/s)",
            self.wall.as_secs_f64(),
            group(self.states_per_second() as u64)
        );
        if self.states > 0 {
            let _ = writeln!(
                out,
                "state store:          {} ({:.1} bytes/state)",
                bytesize::ByteSize(self.store_bytes).display().iec(),
                self.store_bytes as f64 / self.states as f64
            );
        }
        if let Some(p) = self.collision_probability {
            let _ = writeln!(
                out,
                "fingerprints:         probability {p:.2e} that a collision hid a state (--compact)"
            );
        }
        if let Some(peak) = self.peak_memory {
            let _ = writeln!(
                out,
                "peak memory:          {}",
                bytesize::ByteSize(peak).display().iec()
            );
        }
        let _ = writeln!(out, "threads:              {}", self.threads);
        if let Some(info) = &self.symmetry {
            out.push_str(&info.to_text());
        }
        if let Some(info) = &self.por {
            out.push_str(&info.to_text());
        }
        out
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> Json {
        let mut o = json!({
            "model": self.model,
            "result": self.result,
            "states": self.states,
            "transitions": self.transitions,
            "constant_valuations": self.constant_valuations,
            "initial_states": self.initial_states,
            "max_depth": self.max_depth,
            "wall_seconds": self.wall.as_secs_f64(),
            "states_per_second": self.states_per_second(),
            "store_bytes": self.store_bytes,
            "peak_memory_bytes": self.peak_memory,
            "threads": self.threads,
        });
        if let Some(p) = self.collision_probability {
            o["collision_probability"] = json!(p);
        }
        if let Some(e) = &self.trace_error {
            o["trace_error"] = json!(e);
        }
        if let Some(m) = &self.message {
            o["message"] = json!(m);
        }
        if let Some(info) = &self.symmetry {
            o["symmetry"] = info.to_json();
        }
        if let Some(info) = &self.por {
            o["por"] = info.to_json();
        }
        if !self.trace.is_empty() {
            o["trace"] = Json::Array(
                self.trace
                    .iter()
                    .map(|s| {
                        let changes: serde_json::Map<String, Json> = s
                            .changes
                            .iter()
                            .map(|(k, v)| (k.clone(), json!(v)))
                            .collect();
                        json!({ "label": s.label, "changes": changes })
                    })
                    .collect(),
            );
        }
        o
    }
}

/// The JSON object for a model that failed before the search started.
pub fn model_error_json(model: &Path, message: &str) -> Json {
    json!({
        "model": model.display().to_string(),
        "result": "model_error",
        "message": message.trim().trim_start_matches("error: "),
        "states": 0,
        "transitions": 0,
        "constant_valuations": 0,
        "initial_states": 0,
    })
}

fn printed_trace(system: &BSystem, trace: &workers::Trace) -> Vec<PrintedStep> {
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
            PrintedStep {
                label: step.label.clone(),
                changes,
            }
        })
        .collect()
}

/// `1234567` as `1,234,567`.
fn group(n: u64) -> String {
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

/// The progress line on stderr: shown only on a terminal and only once a
/// run has taken more than a second.
pub struct ProgressLine {
    bar: ProgressBar,
}

impl ProgressLine {
    /// A hidden-until-needed progress line.
    pub fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(2));
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        ProgressLine { bar }
    }

    /// The callback the engine calls about once a second.
    pub fn callback(&self) -> workers::ProgressFn {
        let bar = self.bar.clone();
        std::sync::Arc::new(move |p: &Progress| {
            if p.elapsed < Duration::from_secs(1) {
                return;
            }
            let rate = p.states as f64 / p.elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} states, {} transitions, {} states/s, queue {}, store {}, {:.0} s",
                group(p.states),
                group(p.transitions),
                group(rate as u64),
                group(p.queue),
                bytesize::ByteSize(p.store_bytes).display().iec(),
                p.elapsed.as_secs_f64()
            ));
            bar.tick();
        })
    }

    /// Removes the line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Default for ProgressLine {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::group;

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1234567), "1,234,567");
    }
}
