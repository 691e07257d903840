//! `orbit check --symmetry`: the B front end's symmetry for the checker's
//! symmetry layer, and what the summary says about the reduction.

use super::report::json::SymmetryReport;
use crate::b::symmetry::{BSymmetry, constant_valuation_orbits, plan_setups};
use crate::b::system::BSystem;
use crate::symmetry::SymmetryMode;
use workers::Report;

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
    fn name(self) -> &'static str {
        match self {
            Symmetry::Off => "off",
            Symmetry::Canon => "canon",
            Symmetry::Markers => "markers",
            Symmetry::Flood => "flood",
            Symmetry::MarkersExact => "markers-exact",
        }
    }
}

/// What the summary says about a symmetry-reduced run.
pub struct SymmetryInfo {
    /// The mode.
    pub mode: Symmetry,
    /// Orbits of the constant valuations (ProB's setup nodes).
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

/// The summary lines of a symmetry-reduced run.
pub fn report_text(info: &SymmetryReport) -> String {
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

/// Prepares a symmetry-reduced search of `system` in `mode`: the front
/// end's symmetry, setting up fewer constant valuations (ProB's rules, one
/// per orbit), with the layer's mode and the summary's facts (the warning and flooded count
/// are filled in after the run by [`SymmetryInfo::after`]).
pub fn prepare(
    system: &BSystem,
    mode: Symmetry,
) -> Option<(BSymmetry<'_>, SymmetryMode, SymmetryInfo)> {
    let layer_mode = layer_mode(mode)?;
    let domains = system.interchangeable.clone();
    let markers = mode == Symmetry::Markers;
    let plan = plan_setups(system, &domains, mode == Symmetry::MarkersExact);
    let info = SymmetryInfo {
        mode,
        constant_orbits: match plan.valuation_orbits {
            Some(orbits) if !markers => orbits,
            _ => constant_valuation_orbits(system, &domains, markers),
        } as u64,
        constant_setups: plan.setups as u64,
        group_order: domains.group_order(),
        warning: markers.then(|| {
            "symmetry markers are approximate: states of different orbits can share a \
             marker, so this run may have missed states (and errors); confirm with \
             --symmetry canon"
                .to_string()
        }),
        flooded: None,
    };
    let sym = BSymmetry::for_mode(system, layer_mode).with_setups(plan.keep);
    Some((sym, layer_mode, info))
}

/// The symmetry layer's mode for `--symmetry MODE` (`None` for `off`).
pub fn layer_mode(mode: Symmetry) -> Option<SymmetryMode> {
    Some(match mode {
        Symmetry::Off => return None,
        Symmetry::Canon => SymmetryMode::Canon,
        Symmetry::Flood => SymmetryMode::Flood,
        Symmetry::Markers => SymmetryMode::Markers,
        Symmetry::MarkersExact => SymmetryMode::MarkersExact,
    })
}

impl SymmetryInfo {
    /// What the summary says about a model without constants whose
    /// permutable domains are `domains`.
    pub fn without_constants(mode: Symmetry, domains: &crate::model::Permutable) -> Self {
        SymmetryInfo {
            mode,
            constant_orbits: 0,
            constant_setups: 0,
            group_order: domains.group_order(),
            warning: None,
            flooded: None,
        }
    }

    /// Completes the facts with the run's report.
    pub fn after(mut self, report: &Report) -> Self {
        if self.mode == Symmetry::Flood {
            self.flooded = Some(report.stats.states + report.stats.flooded);
        }
        self
    }
}
