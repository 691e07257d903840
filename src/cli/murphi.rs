//! `orbit check MODEL.m`: Murphi programs through the same checker, JSON
//! and exit codes as B machines.

use super::check::RunEnv;
use super::symmetry::SymmetryInfo;
use crate::b::load::LoadOptions;
use crate::model::StateSymmetry;
use crate::murphi;
use std::path::Path;
use std::process::ExitCode;

/// Whether `path` names a Murphi program (`.m`).
pub fn is_murphi(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "m")
}

/// Loads and checks the Murphi program of `env.args`.
pub fn run(env: &RunEnv<'_>, load: &LoadOptions) -> ExitCode {
    let args = env.args;
    let refuse = |what: &str| {
        eprintln!("error: {what}");
        ExitCode::from(2)
    };
    if load.maxint.is_some() || load.minint.is_some() {
        return refuse(
            "`--maxint` and `--minint` are for B machines; Murphi ranges are declared in the model",
        );
    }
    if args.goal {
        return refuse("`--goal` needs a GOAL definition, which Murphi programs do not have");
    }
    let overrides: Vec<(String, i64)> = load
        .set_sizes
        .iter()
        .map(|(n, v)| (n.clone(), i64::from(*v)))
        .collect();
    let mut system = match murphi::load(&args.input.model, &overrides) {
        Ok(system) => system,
        Err(text) => {
            eprint!("{text}");
            return ExitCode::from(2);
        }
    };
    system.check_invariants = !args.no_invariant;
    system.stutter_deadlocks = args.deadlock_mode != Some(super::check::DeadlockMode::Stuck);
    let progress = super::report::ProgressLine::new();
    let independence = args.por.then(|| system.independence(!args.no_invariant));
    let mut checker = env.checker(&system, &progress);
    let mut por_info = None;
    if let Some(ind) = independence {
        let n = ind.groups.len();
        let dependent = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| ind.groups.dependent(a, b))
            .count();
        por_info = Some(super::por::PorInfo {
            reduced: 0,
            states: 0,
            proviso: 0,
            deadlock_only: !ind.proviso,
            analysis: std::time::Duration::ZERO,
            dependent_pairs: (dependent, n * n.saturating_sub(1) / 2),
        });
        checker = checker.por(ind);
    }
    let symmetry = super::symmetry::layer_mode(args.symmetry).map(|mode| {
        let sym = murphi::symmetry::MurphiSymmetry::new(system.program(), system.packer());
        let info = SymmetryInfo::without_constants(args.symmetry, sym.domains());
        (sym, mode, info)
    });
    let (run, symmetry) = match symmetry {
        Some((sym, mode, info)) => (checker.symmetry(sym, mode).run(), Some(info)),
        None => (checker.run(), None),
    };
    let result = match run {
        Ok(run) => run.report,
        Err(e) => {
            progress.finish();
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    progress.finish();
    let por_info = por_info.map(|info| info.after(&result));
    let symmetry = symmetry.map(|info| info.after(&result));
    let notes = super::check::RunNotes {
        symmetry,
        por: por_info,
        ..Default::default()
    };
    env.print(&system, 0, &result, notes)
}
