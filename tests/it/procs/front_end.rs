//! The procs language as a front end in orbit's registry, the way B and
//! Murphi register: a `.procs` file holds `n k t` (processes, counter
//! bound, releases) and optionally `total<=bad`; its own flag
//! `--releases T` overrides `t`. Everything the commands do with it
//! (check, state graphs, the partial order analysis) is orbit's generic
//! path over [`ModelParts`].

use super::{Invariant, Procs};
use clap::{Arg, ArgAction};
use orbit::frontends::{FrontEnd, LoadFailure, LoadRequest, LoadedModel, ModelParts};
use orbit::model::{Independence, StateSymmetry};
use orbit::report::{PorInfo, SymmetryInfo};
use orbit::symmetry::SymmetryMode;

/// The procs front end.
pub struct ProcsFrontEnd;

/// A loaded procs model and whether its invariant is checked.
pub struct LoadedProcs {
    procs: Procs,
    invariant: bool,
}

impl FrontEnd for ProcsFrontEnd {
    fn name(&self) -> &'static str {
        "procs"
    }

    fn model_noun(&self) -> &'static str {
        "a procs model"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["procs"]
    }

    fn args(&self, cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new("releases")
                .long("releases")
                .value_name("T")
                .value_parser(clap::value_parser!(u64))
                .action(ArgAction::Set)
                .help("Releases before the lock is kept (procs models)"),
        )
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Box<dyn LoadedModel>, LoadFailure> {
        let text = std::fs::read_to_string(request.path).map_err(|e| {
            LoadFailure::input(format!("cannot read {}: {e}", request.path.display()))
        })?;
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |i: usize| -> Result<u64, LoadFailure> {
            words.get(i).and_then(|w| w.parse().ok()).ok_or_else(|| {
                LoadFailure::input(format!("{}:1: expected n k t", request.path.display()))
            })
        };
        let (n, k, mut t) = (number(0)? as usize, number(1)?, number(2)?);
        if let Some(releases) = request.args.and_then(|m| m.get_one::<u64>("releases")) {
            t = *releases;
        }
        let invariant = match words.get(3) {
            None => Invariant::None,
            Some(w) => match w.strip_prefix("total<=").and_then(|b| b.parse().ok()) {
                Some(bad) => Invariant::TotalAtMost(bad),
                None => return Err(LoadFailure::input(format!("not supported yet: `{w}`"))),
            },
        };
        Ok(Box::new(LoadedProcs {
            procs: Procs::new(n, k, t, invariant),
            invariant: request.checks.invariant,
        }))
    }
}

impl ModelParts for LoadedProcs {
    type Model = Procs;
    type Symmetry<'a> = Procs;

    fn model(&self) -> &Procs {
        &self.procs
    }

    fn symmetry(&self, mode: SymmetryMode) -> Option<(Procs, SymmetryInfo)> {
        let info = SymmetryInfo::without_constants(mode, self.procs.domains());
        Some((self.procs.clone(), info))
    }

    fn independence(&self, _goal: bool, _verbose: bool) -> Option<(Independence, PorInfo)> {
        let independence = self.procs.independence(self.invariant);
        let info = PorInfo::before_run(&independence, std::time::Duration::ZERO);
        Some((independence, info))
    }
}
