//! The Promela front end in the registry.

use super::symmetry::PromelaSymmetry;
use super::{Options, PromelaSystem};
use crate::frontends::{DeadlockMode, FrontEnd, LoadFailure, LoadRequest, LoadedModel, ModelParts};
use crate::model::{Independence, StateSymmetry};
use crate::report::{PorInfo, SymmetryInfo};
use crate::symmetry::SymmetryMode;

/// Most transition groups partial order reduction analyses: its relations
/// take the square of their number.
const MAX_POR_GROUPS: usize = 8192;

/// Promela, as SPIN 6 runs it.
pub struct PromelaFrontEnd;

impl FrontEnd for PromelaFrontEnd {
    fn name(&self) -> &'static str {
        "Promela"
    }

    fn model_noun(&self) -> &'static str {
        "a Promela model"
    }

    fn extensions(&self) -> &'static [&'static str] {
        // SPIN's own and what LTSmin's Promela test suites use.
        &["pml", "prom", "promela", "spin", "pr", "prm", "pm"]
    }

    fn args(&self, cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("max_processes")
                .long("max-processes")
                .value_name("N")
                .value_parser(clap::value_parser!(u16).range(1..=255))
                .help(
                    "Promela: keep room for N processes in every state (default: as many as \
                     the model can start, or SPIN's 255 when orbit cannot bound them)",
                ),
        )
        .arg(
            clap::Arg::new("symmetric")
                .long("symmetric")
                .value_name("PROCTYPE")
                .action(clap::ArgAction::Append)
                .help(
                    "Promela: the processes of PROCTYPE are interchangeable, though the model \
                     compares their pids with constants (as loops unrolled over all pids do)",
                ),
        )
        .arg(
            clap::Arg::new("spin_no_merge")
                .long("spin-no-optimise")
                .action(clap::ArgAction::SetTrue)
                .help(
                    "Promela: turn off SPIN's statement merging and dead-variable resets \
                     (the states of `spin -a -o1 -o2 -o3`)",
                ),
        )
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Box<dyn LoadedModel>, LoadFailure> {
        if request.checks.goal {
            return Err(LoadFailure::input(
                "`--goal` needs a GOAL definition, which Promela models do not have",
            ));
        }
        if request.checks.deadlock == Some(DeadlockMode::Stuttering) {
            return Err(LoadFailure::input(
                "Promela's deadlocks are SPIN's invalid end states; `--deadlock-mode stuttering` does not apply",
            ));
        }
        if let Some((name, _)) = request.constants.first() {
            return Err(LoadFailure::input(format!(
                "`--set {name}=...`: a Promela model's constants are its `#define`s, set in the model"
            )));
        }
        let no_merge = request
            .args
            .and_then(|m| {
                m.try_get_one::<bool>("spin_no_merge")
                    .ok()
                    .flatten()
                    .copied()
            })
            .unwrap_or(false);
        let max_processes = request
            .args
            .and_then(|m| {
                m.try_get_one::<u16>("max_processes")
                    .ok()
                    .flatten()
                    .copied()
            })
            .map(usize::from);
        let symmetric: Vec<String> = request
            .args
            .and_then(|m| m.try_get_many::<String>("symmetric").ok().flatten())
            .map(|v| v.cloned().collect())
            .unwrap_or_default();
        let system = super::load(
            request.path,
            &Options {
                optimise: !no_merge,
                max_processes,
                symmetric,
            },
        )
        .map_err(|text| {
            workers::budget::tripped().map_or(LoadFailure::Input(text), LoadFailure::Stopped)
        })?;
        Ok(Box::new(LoadedPromela { system }))
    }
}

/// A loaded Promela model.
pub struct LoadedPromela {
    /// The model.
    pub system: PromelaSystem,
}

impl ModelParts for LoadedPromela {
    type Model = PromelaSystem;
    type Symmetry<'a> = PromelaSymmetry<'a>;

    fn model(&self) -> &PromelaSystem {
        &self.system
    }

    fn warnings(&self) -> Vec<String> {
        self.system.program().warnings.clone()
    }

    fn symmetry(&self, mode: SymmetryMode) -> Option<(PromelaSymmetry<'_>, SymmetryInfo)> {
        let cells = self.system.symmetry_cells().as_ref().ok()?.as_ref()?;
        let sym = PromelaSymmetry::new(&self.system, cells.clone());
        let info = SymmetryInfo::without_constants(mode, sym.domains());
        Some((sym, info))
    }

    fn por_unavailable(&self) -> Option<String> {
        let groups = crate::model::Model::groups(&self.system).len();
        (groups > MAX_POR_GROUPS).then(|| {
            format!(
                "not supported yet: partial order reduction over {groups} transition groups \
                 (one per process slot and transition; orbit's bound is {MAX_POR_GROUPS}): \
                 `--max-processes N` keeps fewer process slots"
            )
        })
    }

    fn symmetry_unavailable(&self) -> Option<String> {
        Some(match self.system.symmetry_cells() {
            Err(why) => why.clone(),
            Ok(_) => "the model has no family of interchangeable processes (no proctype with two \
                      or more instances whose pids orbit knows before the run)"
                .to_string(),
        })
    }

    fn independence(&self, _goal: bool, _verbose: bool) -> Option<(Independence, PorInfo)> {
        if self.por_unavailable().is_some() {
            return None;
        }
        let start = std::time::Instant::now();
        // Slot 0, the failed assertion, is what the checked property reads.
        let mut independence =
            Independence::from_access(crate::model::Model::groups(&self.system), &[0]);
        // Each group is one process's, and reads and writes its program
        // counter: the ample rule may leave out groups of a process that
        // is elsewhere.
        independence.groups = independence.groups.with_owners(&self.system.group_owners());
        let info = PorInfo::before_run(&independence, start.elapsed());
        Some((independence, info))
    }
}
