//! The Murphi front end in the registry: loading a program and the parts
//! the generic commands use (the system, its scalarset symmetry, the
//! independence of its rules from their read and write sets).

use super::symmetry::MurphiSymmetry;
use super::{Dialect, MurphiSystem};
use crate::frontends::{DeadlockMode, FrontEnd, LoadFailure, LoadRequest, LoadedModel, ModelParts};
use crate::model::{Independence, StateSymmetry};
use crate::report::{PorInfo, SymmetryInfo};
use crate::symmetry::SymmetryMode;
use clap::{Args, FromArgMatches};

/// Murphi, as CMurphi's and Rumur's manuals describe it.
pub struct MurphiFrontEnd;

/// The Murphi front end's own flags.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct MurphiArgs {
    /// Whose reading of the program to follow: `rumur` (reading an
    /// undefined value is an error) or `cmurphi` (undefined scalarset and
    /// union values read as CMurphi's generated code reads them).
    #[arg(long, value_enum, value_name = "DIALECT", default_value_t = Dialect::Rumur)]
    pub dialect: Dialect,
}

impl FrontEnd for MurphiFrontEnd {
    fn name(&self) -> &'static str {
        "Murphi"
    }

    fn model_noun(&self) -> &'static str {
        "a Murphi program"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["m"]
    }

    fn args(&self, cmd: clap::Command) -> clap::Command {
        MurphiArgs::augment_args(cmd)
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Box<dyn LoadedModel>, LoadFailure> {
        let args = match request.args {
            Some(matches) => MurphiArgs::from_arg_matches(matches).map_err(LoadFailure::input)?,
            None => MurphiArgs::default(),
        };
        if request.checks.goal {
            return Err(LoadFailure::input(
                "`--goal` needs a GOAL definition, which Murphi programs do not have",
            ));
        }
        let overrides: Vec<(String, i64)> = request
            .constants
            .iter()
            .map(|(n, v)| (n.clone(), i64::from(*v)))
            .collect();
        // A load cut short by the run's budget is a stop, not an error.
        let mut system = super::load(request.path, &overrides, args.dialect).map_err(|text| {
            workers::budget::tripped().map_or(LoadFailure::Input(text), LoadFailure::Stopped)
        })?;
        system.check_invariants = request.checks.invariant;
        system.stutter_deadlocks = request.checks.deadlock != Some(DeadlockMode::Stuck);
        Ok(Box::new(LoadedMurphi { system }))
    }
}

/// A loaded Murphi program.
pub struct LoadedMurphi {
    /// The program as a model.
    pub system: MurphiSystem,
}

impl ModelParts for LoadedMurphi {
    type Model = MurphiSystem;
    type Symmetry<'a> = MurphiSymmetry;

    fn model(&self) -> &MurphiSystem {
        &self.system
    }

    fn symmetry(&self, mode: SymmetryMode) -> Option<(MurphiSymmetry, SymmetryInfo)> {
        let sym = MurphiSymmetry::new(self.system.program(), self.system.packer());
        let info = SymmetryInfo::without_constants(mode, sym.domains());
        Some((sym, info))
    }

    fn independence(&self, _goal: bool, _verbose: bool) -> Option<(Independence, PorInfo)> {
        let start = std::time::Instant::now();
        let independence = self.system.independence(true);
        let info = PorInfo::before_run(&independence, start.elapsed());
        Some((independence, info))
    }
}
