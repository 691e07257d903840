//! `orbit check --symmetry`: runs the engine on the machine or on its
//! symmetry-reduced view, maps counterexamples back to real runs and
//! describes the reduction for the summary.

use super::report::json::SymmetryReport;
use crate::b::system::BSystem;
use crate::symmetry::{SymmetricSystem, constant_valuation_orbits};
use workers::{Config, Report};

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

/// Explores `system` with the reduction `mode` asks for.
pub fn explore(
    system: &BSystem,
    config: &Config,
    mode: Symmetry,
) -> (Report, Option<SymmetryInfo>) {
    let sym = &system.interchangeable;
    match mode {
        Symmetry::Off => (workers::explore(system, config), None),
        Symmetry::Canon | Symmetry::Markers | Symmetry::Flood | Symmetry::MarkersExact => {
            let markers = mode == Symmetry::Markers;
            let reduced = match mode {
                Symmetry::Markers => SymmetricSystem::with_markers(system, sym),
                Symmetry::Flood => SymmetricSystem::with_flooding(system, sym),
                Symmetry::MarkersExact => SymmetricSystem::with_exact_markers(system, sym),
                _ => SymmetricSystem::new(system, sym),
            };
            let mut report = workers::explore(&reduced, config);
            map_trace_back(&reduced, &mut report);
            let warning = markers.then(|| {
                "symmetry markers are approximate: states of different orbits can share a \
                 marker, so this run may have missed states (and errors); confirm with \
                 --symmetry canon"
                    .to_string()
            });
            let info = SymmetryInfo {
                mode,
                constant_orbits: match reduced.valuation_orbits() {
                    Some(orbits) if !markers => orbits,
                    _ => constant_valuation_orbits(system, sym, markers),
                } as u64,
                constant_setups: reduced.setups() as u64,
                group_order: sym.group_order(),
                warning,
                flooded: (mode == Symmetry::Flood)
                    .then(|| report.stats.states + report.stats.flooded),
            };
            (report, Some(info))
        }
    }
}

/// Replaces a trace of representatives with the real run it stands for.
fn map_trace_back(reduced: &SymmetricSystem<'_>, report: &mut Report) {
    if let Some(trace) = &report.trace {
        match reduced.real_trace(trace) {
            Ok(real) => report.trace = Some(real),
            Err(e) => {
                report.trace = None;
                report.trace_error = Some(e);
            }
        }
    }
}
