//! What the reductions and the front end add to a run's summary: the
//! symmetry layer's figures ([`SymmetryInfo`]), partial order reduction's
//! ([`PorInfo`]) and a front end's own notes ([`RunNotes`]).

use super::json::{PorReport, SymmetryReport};
use crate::symmetry::SymmetryMode;
use workers::Report;

/// What the summary says about a symmetry-reduced run.
#[derive(Clone, Debug)]
pub struct SymmetryInfo {
    /// The mode.
    pub mode: SymmetryMode,
    /// Orbits of the constant valuations (ProB's setup nodes; 0 for a
    /// model without constants).
    pub constant_orbits: u64,
    /// Constant valuations set up after ProB's symmetry rules for
    /// constants (the solutions of PROPERTIES in normal form).
    pub constant_setups: u64,
    /// Number of permutations in the symmetry group (saturating).
    pub group_order: u64,
    /// A warning to print, for modes that can miss states.
    pub warning: Option<String>,
    /// With flooding: states in the flood table (as many as without symmetry).
    pub flooded: Option<u64>,
}

impl SymmetryInfo {
    /// What the summary says about a model without constants whose
    /// permutable domains are `domains`, reduced in `mode`.
    pub fn without_constants(mode: SymmetryMode, domains: &crate::model::Permutable) -> Self {
        SymmetryInfo {
            mode,
            constant_orbits: 0,
            constant_setups: 0,
            group_order: domains.group_order(),
            warning: (!mode.is_exact()).then(markers_warning),
            flooded: None,
        }
    }

    /// Completes the facts with the run's report.
    pub fn after(mut self, report: &Report) -> Self {
        if self.mode == SymmetryMode::Flood {
            self.flooded = Some(report.stats.states + report.stats.flooded);
        }
        self
    }

    /// The `symmetry` object of the report.
    pub fn to_report(&self) -> SymmetryReport {
        SymmetryReport {
            mode: self.mode.name(),
            group_order: self.group_order,
            constant_orbits: self.constant_orbits,
            constant_setups: self.constant_setups,
            flooded_states: self.flooded,
            warning: self.warning.clone(),
        }
    }
}

/// The warning of approximate symmetry markers.
pub fn markers_warning() -> String {
    "symmetry markers are approximate: states of different orbits can share a marker, so \
     this run may have missed states (and errors); confirm with --symmetry canon"
        .to_string()
}

/// The summary lines of a symmetry-reduced run.
pub(super) fn symmetry_text(info: &SymmetryReport) -> String {
    let mut out = format!(
        "symmetry:             {} (group of {} permutations; counts are orbits)\n",
        info.mode, info.group_order
    );
    if info.constant_setups > 0 {
        out.push_str(&format!(
            "constant setups:      {} (constant valuations in ProB's normal form that were \
             set up; the {} constant valuations above are their orbits)\n",
            info.constant_setups, info.constant_orbits
        ));
    }
    if let Some(n) = info.flooded_states {
        out.push_str(&format!(
            "flooded states:       {n} (all permutations; the distinct states above were checked and expanded)\n"
        ));
    }
    if let Some(w) = &info.warning {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}

/// What the summary of a run with partial order reduction says about it.
#[derive(Clone, Debug)]
pub struct PorInfo {
    /// States expanded through a proper ample set only.
    pub reduced: u64,
    /// Distinct states of the run.
    pub states: u64,
    /// States fully expanded by the cycle proviso.
    pub proviso: u64,
    /// No checked property can change after an initial state (deadlock-only
    /// checking): A1 and A2 only, no stutter condition, no proviso.
    pub deadlock_only: bool,
    /// Wall time of the static analysis.
    pub analysis: std::time::Duration,
    /// Dependent pairs and all pairs of transition-group instances.
    pub dependent_pairs: (usize, usize),
}

impl PorInfo {
    /// The facts known before the run, for `independence` computed in
    /// `analysis`: the pairs of instances (of groups, when the front end
    /// does not refine them) that are dependent.
    pub fn before_run(
        independence: &crate::model::Independence,
        analysis: std::time::Duration,
    ) -> Self {
        let relations = independence
            .instances
            .as_ref()
            .map_or(&independence.groups, |i| &i.relations);
        let n = relations.len();
        let dependent = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| relations.dependent(a, b))
            .count();
        PorInfo {
            reduced: 0,
            states: 0,
            proviso: 0,
            deadlock_only: !independence.proviso,
            analysis,
            dependent_pairs: (dependent, n * n.saturating_sub(1) / 2),
        }
    }

    /// Completes the facts with the run's report.
    pub fn after(mut self, report: &Report) -> Self {
        self.reduced = report.stats.reduced_states;
        self.states = report.stats.states;
        self.proviso = report.stats.proviso_expansions;
        self
    }

    /// The `por` object of the report.
    pub fn to_report(&self) -> PorReport {
        PorReport {
            reduced_states: self.reduced,
            states: self.states,
            proviso_expansions: self.proviso,
            deadlock_only: self.deadlock_only,
            dependent_pairs: self.dependent_pairs.0,
            pairs: self.dependent_pairs.1,
            analysis_seconds: self.analysis.as_secs_f64(),
        }
    }
}

/// The summary line of a run with partial order reduction.
pub(super) fn por_text(info: &PorReport) -> String {
    format!(
        "partial order reduction: on ({} of {} states reduced; {} fully expanded by the \
         cycle proviso; {} of {} pairs of operation instances dependent; analysis {:.3} s{})\n",
        info.reduced_states,
        info.states,
        info.proviso_expansions,
        info.dependent_pairs,
        info.pairs,
        info.analysis_seconds,
        if info.deadlock_only {
            "; no checked property can change, only deadlocks matter: A1 and A2, no proviso"
        } else {
            ""
        }
    )
}

/// What a run's layers and front end add to its summary.
#[derive(Clone, Debug, Default)]
pub struct RunNotes {
    /// Symmetry reduction's figures, if it ran.
    pub symmetry: Option<SymmetryInfo>,
    /// Partial order reduction's figures, if it ran.
    pub por: Option<PorInfo>,
    /// The states explored were cut by a bound the user chose, and why
    /// (B's `--bound-integers`).
    pub bounded: Option<String>,
    /// A constant valuation that the initialisation cannot start from (its
    /// label and the constants' values), found before the search with
    /// deadlocks checked: the run's result, as in ProB.
    pub setup_deadlock: Option<(String, Vec<(String, String)>)>,
}
