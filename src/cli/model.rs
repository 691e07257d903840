//! The model arguments every command that loads a model shares: the file,
//! the constants and every front end's own flags (each front end declares
//! them, [`crate::frontends::FrontEnd::args`]).

use super::units::parse_set_size;
use crate::frontends::{Checks, FrontEnd, LoadFailure, LoadRequest, LoadedModel, Registry};
use std::path::PathBuf;
use std::process::ExitCode;

/// The model to load and how to size it (flattened into `orbit check`,
/// `orbit por` and `orbit graph`).
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// The model: a B machine (.mch, .ref, .imp) or a Murphi program (.m).
    pub model: PathBuf,
    /// Size of a deferred set, e.g. `--set PID=4` (repeatable), or the value
    /// of a scalar parameter of the checked machine (`MACHINE M(n)`), or of
    /// a Murphi `const`. Without it a deferred set's size comes from a
    /// `scope_X` definition, a `card(X) = n` conjunct in PROPERTIES, or the
    /// default of 2 (as in ProB).
    #[arg(long = "set", value_name = "SET=SIZE", value_parser = parse_set_size)]
    pub set_sizes: Vec<(String, u32)>,
    /// The front ends' own flags.
    #[command(flatten)]
    pub front_end: FrontEndArgs,
}

/// Every registered front end's flags, as parsed; the chosen front end
/// reads its own.
#[derive(Debug, Clone, Default)]
pub struct FrontEndArgs {
    matches: Option<clap::ArgMatches>,
}

impl clap::FromArgMatches for FrontEndArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(FrontEndArgs {
            matches: Some(matches.clone()),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.matches = Some(matches.clone());
        Ok(())
    }
}

impl clap::Args for FrontEndArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Registry::builtin().args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Prints why a model did not load and returns the exit code: 2 for bad
/// input, 1 for a model error, 3 for a stop.
pub fn not_loaded(failure: &LoadFailure) -> ExitCode {
    not_loaded_quietly(failure, false)
}

/// [`not_loaded`], printing nothing when `quiet` (the other ranks of a
/// distributed run, whose rank 0 prints).
pub fn not_loaded_quietly(failure: &LoadFailure, quiet: bool) -> ExitCode {
    if quiet {
        return ExitCode::from(match failure {
            LoadFailure::Input(_) => 2,
            LoadFailure::Model(_) => 1,
            LoadFailure::Stopped(_) => crate::report::EXIT_INCOMPLETE,
        });
    }
    match failure {
        LoadFailure::Input(text) => {
            eprint!("{text}");
            ExitCode::from(2)
        }
        LoadFailure::Model(text) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
        LoadFailure::Stopped(reason) => {
            eprintln!("stopped: {}", crate::report::stop_words(*reason, false));
            ExitCode::from(crate::report::EXIT_INCOMPLETE)
        }
    }
}

impl ModelArgs {
    /// The constants of `--set`, or a usage error when one is given two
    /// different values (`--set X=3 --set X=4`).
    pub fn constants(&self) -> Result<Vec<(String, u32)>, String> {
        for (i, (name, size)) in self.set_sizes.iter().enumerate() {
            if let Some((_, other)) = self.set_sizes[..i].iter().find(|(n, _)| n == name)
                && other != size
            {
                return Err(format!(
                    "`--set {name}=...` is given twice, with {other} and {size}: give one size"
                ));
            }
        }
        Ok(self.set_sizes.clone())
    }

    /// The front end of the model file (by its extension), once the flags
    /// of the others are refused.
    pub fn front_end<'r>(&self, registry: &'r Registry) -> Result<&'r dyn FrontEnd, String> {
        let front_end = registry.for_path(&self.model)?;
        if let Some(matches) = &self.front_end.matches {
            registry.refuse_foreign_flags(front_end, matches)?;
        }
        Ok(front_end)
    }

    /// Loads the model for a run that checks `checks`, printing its
    /// warnings.
    pub fn load(&self, checks: Checks) -> Result<Box<dyn LoadedModel>, LoadFailure> {
        let registry = Registry::builtin();
        let front_end = self.front_end(&registry).map_err(LoadFailure::input)?;
        let constants = self.constants().map_err(LoadFailure::input)?;
        let request = LoadRequest {
            path: &self.model,
            constants: &constants,
            checks,
            args: self.front_end.matches.as_ref(),
        };
        let loaded = front_end.load(&request)?;
        for warning in loaded.warnings() {
            eprintln!("warning: {warning}");
        }
        Ok(loaded)
    }
}
