//! The front ends, side by side, and the registry that picks one by the
//! model file's extension (in the spirit of LTSmin's language loaders).
//!
//! ```text
//! Registry ──for_path──> FrontEnd ──load──> LoadedModel ──check / state_graphs / por_analysis
//!                          (b, murphi, ...)      │
//!                                               ModelParts: Model, StateSymmetry, Independence
//! ```
//!
//! A front end names itself and its extensions, declares its own flags (a
//! clap argument group, [`FrontEnd::args`]) and loads a model into the
//! language-specific [`ModelParts`]: the [`Model`], and where it can, its
//! [`StateSymmetry`] and [`Independence`]. Everything else — the checker
//! run and its summary, the state graphs of `orbit graph`, the analysis of
//! `orbit por` — is one generic path ([`LoadedModel`], implemented for
//! every [`ModelParts`]). Adding a front end is its own folder here plus
//! one line in [`Registry::builtin`].

pub mod b;
mod check;
mod graph;
pub mod murphi;
pub mod promela;
pub mod source;

pub use check::CheckJob;

use crate::canon::Graph;
use crate::model::{Independence, Model, StateSymmetry};
use crate::por::PorAnalysis;
use crate::report::{PorInfo, RunSummary, SymmetryInfo};
use crate::symmetry::SymmetryMode;
use std::path::Path;
use workers::StopReason;

/// A language orbit reads.
pub trait FrontEnd: Send + Sync {
    /// The language's name, e.g. `B`.
    fn name(&self) -> &'static str;

    /// What a model file of the language is called, e.g. `a B machine`.
    fn model_noun(&self) -> &'static str;

    /// The file extensions (without the dot) the registry gives this
    /// front end, e.g. `["mch", "ref", "imp"]`.
    fn extensions(&self) -> &'static [&'static str];

    /// Adds the front end's own flags to a command that loads models. Their
    /// ids must not clash with another front end's; a flag given for a
    /// model of another language is refused by the registry.
    fn args(&self, cmd: clap::Command) -> clap::Command {
        cmd
    }

    /// Reads, checks and compiles the model `request` names.
    fn load(&self, request: &LoadRequest<'_>) -> Result<Box<dyn LoadedModel>, LoadFailure>;
}

/// What a command asks of a model before it is loaded.
#[derive(Clone, Debug)]
pub struct LoadRequest<'a> {
    /// The model file.
    pub path: &'a Path,
    /// `--set NAME=VALUE`: sizes of deferred sets, values of constants
    /// and parameters (each name once).
    pub constants: &'a [(String, u32)],
    /// What the run will check.
    pub checks: Checks,
    /// The parsed command line, for the front end's own flags
    /// ([`FrontEnd::args`]); `None`: their defaults.
    pub args: Option<&'a clap::ArgMatches>,
}

impl<'a> LoadRequest<'a> {
    /// A request for `path` with no constants set, the default checks and
    /// the front end's default options.
    pub fn new(path: &'a Path) -> Self {
        LoadRequest {
            path,
            constants: &[],
            checks: Checks::default(),
            args: None,
        }
    }
}

/// What a run checks, as far as loading the model depends on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checks {
    /// The invariant is checked (not `--no-invariant`).
    pub invariant: bool,
    /// The goal is searched for (`--goal`): the model must define one.
    pub goal: bool,
    /// What a deadlock is, when the user chose (`None`: the language's
    /// default).
    pub deadlock: Option<DeadlockMode>,
    /// LTL formulas given on the command line (`--ltl`): a front end that
    /// compiles their predicate atoms with the model reads them here.
    pub ltl: Vec<String>,
    /// The model's own LTL assertions are checked (not `--no-assert-ltl`):
    /// a front end reads their atoms only then.
    pub model_ltl: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            invariant: true,
            goal: false,
            deadlock: None,
            ltl: Vec::new(),
            model_ltl: true,
        }
    }
}

/// What counts as a deadlock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlockMode {
    /// A state without successors (B's, as ProB).
    Stuck,
    /// A state without a successor other than itself (Murphi's, as
    /// CMurphi and Rumur).
    Stuttering,
}

/// Why a model could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadFailure {
    /// Bad input: a missing file, a syntax or type error, an unsupported
    /// construct, an option the language cannot honour (exit code 2). The
    /// text is ready to print (`error: ...`, with file:line:column where
    /// there is one).
    Input(String),
    /// The model is well-formed but ill-defined while it is set up (B: a
    /// function applied outside its domain in PROPERTIES; exit code 1).
    Model(String),
    /// The run's budget ran out while the model was set up: no verdict.
    Stopped(StopReason),
}

impl LoadFailure {
    /// An input error with the message `message` (rendered as `error: ...`).
    pub fn input(message: impl std::fmt::Display) -> Self {
        LoadFailure::Input(format!("error: {message}\n"))
    }
}

/// A loaded model, as the commands use it; implemented for every
/// [`ModelParts`].
pub trait LoadedModel {
    /// Warnings to print before anything runs.
    fn warnings(&self) -> Vec<String>;

    /// Checks the model as `job` asks and summarises the run.
    fn check(&self, job: &CheckJob) -> Result<RunSummary, crate::checker::CheckerError>;

    /// The coloured graphs (as symmetry reduction labels them) of the
    /// first `count` distinct states in breadth-first order; fewer when
    /// the model has fewer.
    fn state_graphs(&self, count: u64) -> Result<Vec<Graph>, JobError>;

    /// The static analysis of partial order reduction, with at most
    /// `budget` candidate states per query where the front end enumerates.
    fn por_analysis(&self, budget: usize) -> Result<PorAnalysis, JobError>;
}

/// Why a job other than a check could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobError {
    /// The front end does not provide what the job needs (exit code 2).
    Unsupported(String),
    /// The model failed while the job explored it (exit code 1).
    Model(String),
    /// The run's budget ran out (exit code 3).
    Stopped(StopReason),
}

/// What a front end provides for a loaded model: the language-specific
/// parts. Everything built from them is generic ([`LoadedModel`]).
pub trait ModelParts: Sync {
    /// The model.
    type Model: Model;
    /// Its symmetry (possibly borrowing the parts).
    type Symmetry<'a>: StateSymmetry
    where
        Self: 'a;

    /// The model as the checker explores it.
    fn model(&self) -> &Self::Model;

    /// Warnings to print before anything runs.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// Number of constant valuations (B's SETUP_CONSTANTS solutions; 0
    /// for languages without).
    fn constant_valuations(&self) -> u64 {
        0
    }

    /// A result found before any state (B, with deadlocks checked: a
    /// constant valuation the initialisation cannot start from, as its
    /// label and the constants' values).
    fn setup_deadlock(&self) -> Option<(String, Vec<(String, String)>)> {
        None
    }

    /// The model's symmetry for reduction in `mode`, with what the summary
    /// says about it; `None` when the front end has none.
    fn symmetry(&self, mode: SymmetryMode) -> Option<(Self::Symmetry<'_>, SymmetryInfo)>;

    /// Why [`Self::symmetry`] gives none, when the front end can say
    /// (Promela: which use of a pid breaks the symmetry, and where).
    fn symmetry_unavailable(&self) -> Option<String> {
        None
    }

    /// The symmetry whose state graphs `orbit graph` prints. By default
    /// canonical labelling's; a front end whose [`Self::symmetry`] sets up
    /// more than the graphs need (B plans its constant valuations) says
    /// how to build the graphs alone.
    fn graph_symmetry(&self) -> Option<Self::Symmetry<'_>> {
        self.symmetry(SymmetryMode::Canon).map(|(sym, _)| sym)
    }

    /// The independence relations for partial order reduction of a run
    /// that searches for the goal (`goal`) or not, with the summary's
    /// facts; with `verbose`, how the relations were decided goes to
    /// stderr. `None` when the front end cannot provide them.
    fn independence(&self, goal: bool, verbose: bool) -> Option<(Independence, PorInfo)>;

    /// Why [`Self::independence`] gives none, when the front end can say.
    fn por_unavailable(&self) -> Option<String> {
        None
    }

    /// After a run: the bound the user chose that cut the states explored,
    /// if it did (B's `--bound-integers`).
    fn bounded(&self) -> Option<String> {
        None
    }

    /// The static analysis of `orbit por`. By default it is read from the
    /// groups' read and write sets and [`Self::independence`]; a front end
    /// that decides more (B) says how.
    fn por_analysis(&self, _budget: usize) -> Result<PorAnalysis, JobError> {
        let (independence, _) = self.independence(false, false).ok_or_else(|| {
            JobError::Unsupported("partial order reduction for this language".to_string())
        })?;
        let model = self.model();
        Ok(PorAnalysis::from_access(
            &model.slots(),
            model.groups(),
            &independence,
        ))
    }
}

impl<P: ModelParts> LoadedModel for P {
    fn warnings(&self) -> Vec<String> {
        ModelParts::warnings(self)
    }

    fn check(&self, job: &CheckJob) -> Result<RunSummary, crate::checker::CheckerError> {
        check::run(self, job)
    }

    fn state_graphs(&self, count: u64) -> Result<Vec<Graph>, JobError> {
        graph::state_graphs(self, count)
    }

    fn por_analysis(&self, budget: usize) -> Result<PorAnalysis, JobError> {
        ModelParts::por_analysis(self, budget)
    }
}

/// The front ends orbit knows, by extension.
pub struct Registry {
    front_ends: Vec<Box<dyn FrontEnd>>,
}

impl Registry {
    /// An empty registry.
    pub fn empty() -> Self {
        Registry {
            front_ends: Vec::new(),
        }
    }

    /// The front ends built into orbit: B, Murphi and Promela.
    pub fn builtin() -> Self {
        Registry::empty()
            .with(Box::new(b::BFrontEnd))
            .with(Box::new(murphi::MurphiFrontEnd))
            .with(Box::new(promela::PromelaFrontEnd))
    }

    /// The registry with `front_end` added; it panics if an extension is
    /// taken already (a programming error, caught by any test).
    pub fn with(mut self, front_end: Box<dyn FrontEnd>) -> Self {
        for ext in front_end.extensions() {
            assert!(
                self.by_extension(ext).is_none(),
                "two front ends claim the extension .{ext}"
            );
        }
        self.front_ends.push(front_end);
        self
    }

    /// The registered front ends, in order.
    pub fn front_ends(&self) -> impl Iterator<Item = &dyn FrontEnd> {
        self.front_ends.iter().map(|f| &**f)
    }

    fn by_extension(&self, ext: &str) -> Option<&dyn FrontEnd> {
        self.front_ends()
            .find(|f| f.extensions().iter().any(|e| e.eq_ignore_ascii_case(ext)))
    }

    /// The front end of the model file `path`, by its extension; an error
    /// naming the extensions known when none claims it.
    pub fn for_path(&self, path: &Path) -> Result<&dyn FrontEnd, String> {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        self.by_extension(ext).ok_or_else(|| {
            let known: Vec<String> = self
                .front_ends()
                .map(|f| {
                    let exts: Vec<String> =
                        f.extensions().iter().map(|e| format!(".{e}")).collect();
                    format!("{} ({})", f.model_noun(), exts.join(", "))
                })
                .collect();
            format!(
                "cannot tell the language of `{}` from its extension: orbit reads {}",
                path.display(),
                known.join(", ")
            )
        })
    }

    /// Every front end's flags added to `cmd`, each under its own heading.
    pub fn args(&self, mut cmd: clap::Command) -> clap::Command {
        for front_end in self.front_ends() {
            let heading = cmd.get_next_help_heading().map(str::to_string);
            cmd = front_end.args(cmd.next_help_heading(format!("{} options", front_end.name())));
            cmd = match heading {
                Some(heading) => cmd.next_help_heading(heading),
                None => cmd.next_help_heading(None::<&str>),
            };
        }
        cmd
    }

    /// Refuses flags of other front ends than `chosen` given on the command
    /// line `matches` (a Murphi program with `--find-abort`, say).
    pub fn refuse_foreign_flags(
        &self,
        chosen: &dyn FrontEnd,
        matches: &clap::ArgMatches,
    ) -> Result<(), String> {
        for other in self.front_ends() {
            if other.name() == chosen.name() {
                continue;
            }
            let own = other.args(clap::Command::new("flags"));
            for arg in own.get_arguments() {
                let given = matches!(matches.try_get_raw(arg.get_id().as_str()), Ok(Some(_)))
                    && matches.value_source(arg.get_id().as_str())
                        == Some(clap::parser::ValueSource::CommandLine);
                if given {
                    let flag = arg
                        .get_long()
                        .map_or_else(|| arg.get_id().to_string(), |l| format!("--{l}"));
                    return Err(format!(
                        "`{flag}` applies to {} only, and this is {}",
                        plural(other.model_noun()),
                        chosen.model_noun()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `a B machine` -> `B machines`.
fn plural(noun: &str) -> String {
    let bare = noun
        .strip_prefix("a ")
        .or_else(|| noun.strip_prefix("an "))
        .unwrap_or(noun);
    format!("{bare}s")
}

impl Default for Registry {
    fn default() -> Self {
        Self::builtin()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_front_ends_are_found_by_extension_only() {
        let registry = Registry::builtin();
        for (file, language) in [
            ("m.mch", "B"),
            ("dir/M.ref", "B"),
            ("M.IMP", "B"),
            ("german.m", "Murphi"),
        ] {
            let found = registry.for_path(Path::new(file)).expect(file);
            assert_eq!(found.name(), language, "{file}");
        }
        let err = registry
            .for_path(Path::new("model.txt"))
            .err()
            .expect("unknown");
        assert!(err.contains("B machine (.mch"), "{err}");
        assert!(err.contains("Murphi program (.m)"), "{err}");
        assert!(registry.for_path(Path::new("noextension")).is_err());
    }

    #[test]
    #[should_panic(expected = "two front ends claim the extension .m")]
    fn two_front_ends_cannot_claim_one_extension() {
        let _ = Registry::builtin().with(Box::new(murphi::MurphiFrontEnd));
    }

    #[test]
    fn a_flag_of_another_front_end_is_refused_by_name() {
        let registry = Registry::builtin();
        let cmd = registry.args(clap::Command::new("t").arg(clap::Arg::new("model")));
        let matches = cmd
            .try_get_matches_from(["t", "x.m", "--find-abort"])
            .expect("parses");
        let murphi = registry.for_path(Path::new("x.m")).unwrap();
        let b = registry.for_path(Path::new("x.mch")).unwrap();
        let err = registry
            .refuse_foreign_flags(murphi, &matches)
            .expect_err("refused");
        assert_eq!(
            err,
            "`--find-abort` applies to B machines only, and this is a Murphi program"
        );
        assert_eq!(registry.refuse_foreign_flags(b, &matches), Ok(()));
    }
}
