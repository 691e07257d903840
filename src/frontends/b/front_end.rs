//! The B front end in the registry: its flags, loading a machine, and the
//! parts the generic commands use (the system, its symmetry with ProB's
//! rules for constants, its partial order analysis).

use super::ast::Machine;
use super::load::{ConstantSymmetry, LoadError, LoadOptions, load_machine_with_ast};
use super::por::independence::Checked;
use super::symmetry::{BSymmetry, constant_valuation_orbits, plan_setups};
use super::system::BSystem;
use super::types::MachineTypes;
use crate::frontends::{
    DeadlockMode, FrontEnd, JobError, LoadFailure, LoadRequest, LoadedModel, ModelParts,
};
use crate::model::{Independence, Model};
use crate::por::PorAnalysis;
use crate::report::{PorInfo, SymmetryInfo, markers_warning};
use crate::symmetry::SymmetryMode;
use clap::{Args, FromArgMatches};
use std::path::PathBuf;

/// Classical B, as ProB reads it: machines, refinements, implementations.
pub struct BFrontEnd;

/// The B front end's own flags.
#[derive(Args, Clone, Debug, Default)]
pub struct BArgs {
    /// Value of MAXINT, the upper bound of NAT and INT (ProB's default is 3).
    #[arg(long, value_name = "N")]
    pub maxint: Option<i64>,
    /// Value of MININT, the lower bound of INT (ProB's default is -1).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub minint: Option<i64>,
    /// A directory to search for the machines (`.mch`, `.ref`, `.imp`) and
    /// definition files (`.def`) a model names, after the directory of the
    /// file naming them (repeatable).
    #[arg(long = "search-path", value_name = "DIR")]
    pub search_path: Vec<PathBuf>,
    /// Report a called operation whose precondition fails as a model error
    /// (ProB's TRY_FIND_ABORT); by default the precondition is a guard, as
    /// in ProB.
    #[arg(long)]
    pub find_abort: bool,
    /// Enumerate an integer that nothing bounds (`x : NATURAL` with no upper
    /// bound) within MININT..MAXINT, as ProB does, instead of refusing it;
    /// the run warns that larger values are not explored.
    #[arg(long)]
    pub bound_integers: bool,
    /// Where an operation's body applies a function outside its domain,
    /// do not take that transition (as ProB's model checker does) instead
    /// of stopping at a model error; the run's result counts the
    /// transitions so blocked and names the first application.
    #[arg(long)]
    pub undefined_blocks: bool,
    /// How the constants of PROPERTIES are found: `auto` hands them to
    /// the constraint solver (propagation, then search) where enumeration
    /// would try more than 100,000 candidate valuations or an integer is
    /// bounded only by the predicate; `enumerate` generates and tests
    /// candidates only (for operation parameters too); `cp` uses the
    /// solver only and refuses constants it cannot encode, naming them.
    /// Operation parameters that only the guard bounds are found by the
    /// solver in each state unless `enumerate` (without
    /// `--bound-integers`, which enumerates them within MAXINT).
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    pub solver: crate::frontends::b::eval::cp::ConstantSolver,
    /// Set up only the constant valuations in ProB's normal form (ProB's
    /// static symmetry reduction of constants of deferred sets, which its
    /// model checker applies by default) without reducing states: the same
    /// verdicts, ProB's state counts. The default; symmetry modes apply it
    /// too.
    #[arg(long, overrides_with = "no_constant_symmetry")]
    pub constant_symmetry: bool,
    /// Set up every valuation of the constants, symmetric ones included
    /// (ProB with its symmetry preferences off): the counts of the
    /// published tables obtained that way.
    #[arg(long, overrides_with = "constant_symmetry")]
    pub no_constant_symmetry: bool,
    /// Do not check the machine's ASSERTIONS in the states explored
    /// (ProB's `-noass`); the invariant is still checked.
    #[arg(long)]
    pub no_assertions: bool,
}

impl FrontEnd for BFrontEnd {
    fn name(&self) -> &'static str {
        "B"
    }

    fn model_noun(&self) -> &'static str {
        "a B machine"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["mch", "ref", "imp", "sys"]
    }

    fn args(&self, cmd: clap::Command) -> clap::Command {
        BArgs::augment_args(cmd)
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Box<dyn LoadedModel>, LoadFailure> {
        let args = match request.args {
            Some(matches) => BArgs::from_arg_matches(matches).map_err(LoadFailure::input)?,
            None => BArgs::default(),
        };
        if request.checks.deadlock == Some(DeadlockMode::Stuttering) {
            return Err(LoadFailure::input(
                "`--deadlock-mode stuttering` is for Murphi programs; a B machine deadlocks \
                 when no operation is enabled (`stuck`)",
            ));
        }
        let options = LoadOptions {
            set_sizes: request.constants.to_vec(),
            search_path: args.search_path.clone(),
            find_abort: args.find_abort,
            bound_integers: args.bound_integers,
            undefined_blocks: args.undefined_blocks,
            constant_solver: args.solver,
            maxint: args.maxint,
            minint: args.minint,
            unchecked_invariant: !request.checks.invariant,
            ltl: request.checks.ltl.clone(),
            unchecked_assert_ltl: !request.checks.model_ltl,
            // The command line, else the machine's
            // SET_PREF_STATIC_SYMMETRY_DETECTION, else ProB's default: on.
            constant_symmetry: match (args.constant_symmetry, args.no_constant_symmetry) {
                (true, _) => ConstantSymmetry::On,
                (_, true) => ConstantSymmetry::Off,
                _ => ConstantSymmetry::MachineDefault,
            },
        };
        let (mut system, machine, types) =
            load_machine_with_ast(request.path, &options).map_err(|e| match e {
                LoadError::Input(text) => LoadFailure::Input(text),
                LoadError::Model(text) => LoadFailure::Model(text),
                LoadError::Stopped(reason) => LoadFailure::Stopped(reason),
            })?;
        system.check_invariant = request.checks.invariant;
        system.check_assertions = !args.no_assertions;
        if options.constant_symmetry.applies(types.static_symmetry) {
            system.keep_normal_form_valuations();
        }
        if request.checks.goal && !system.has_goal() {
            return Err(LoadFailure::input(format!(
                "`--goal` needs a `GOAL == P` definition in {}, which has none",
                request.path.display()
            )));
        }
        Ok(Box::new(LoadedB {
            system,
            machine,
            types,
            invariant: request.checks.invariant,
            bound_integers: args.bound_integers,
        }))
    }
}

/// A loaded B machine: the system and what its analyses read.
pub struct LoadedB {
    /// The machine as a model.
    pub system: BSystem,
    /// Its AST, with the components it names merged in.
    pub machine: Machine,
    /// Its types.
    pub types: MachineTypes,
    invariant: bool,
    bound_integers: bool,
}

impl ModelParts for LoadedB {
    type Model = BSystem;
    type Symmetry<'a> = BSymmetry<'a>;

    fn model(&self) -> &BSystem {
        &self.system
    }

    fn warnings(&self) -> Vec<String> {
        self.system.warnings.clone()
    }

    fn constant_valuations(&self) -> u64 {
        self.system.constant_valuations as u64
    }

    fn setup_deadlock(&self) -> Option<(String, Vec<(String, String)>)> {
        self.system.valuation_without_initialisation()
    }

    /// The symmetry of the deferred sets, setting up one constant
    /// valuation per orbit (ProB's rules) where the mode allows.
    fn symmetry(&self, mode: SymmetryMode) -> Option<(BSymmetry<'_>, SymmetryInfo)> {
        let system = &self.system;
        let domains = system.interchangeable.clone();
        let markers = mode == SymmetryMode::Markers;
        let plan = plan_setups(system, &domains, mode == SymmetryMode::MarkersExact);
        let info = SymmetryInfo {
            mode,
            constant_orbits: match plan.valuation_orbits {
                Some(orbits) if !markers => orbits,
                _ => constant_valuation_orbits(system, &domains, markers),
            } as u64,
            constant_setups: plan.setups as u64,
            group_order: domains.group_order(),
            warning: markers.then(markers_warning),
            flooded: None,
        };
        let sym = BSymmetry::for_mode(system, mode).with_setups(plan.keep);
        Some((sym, info))
    }

    /// The state graphs need no plan of the constant valuations.
    fn graph_symmetry(&self) -> Option<BSymmetry<'_>> {
        Some(BSymmetry::for_mode(&self.system, SymmetryMode::Canon))
    }

    fn independence(&self, goal: bool, verbose: bool) -> Option<(Independence, PorInfo)> {
        let checked = Checked {
            invariant: self.invariant,
            goal,
        };
        Some(super::por::report::prepare(
            &self.system,
            &self.machine,
            &self.types,
            checked,
            verbose,
        ))
    }

    fn bounded(&self) -> Option<String> {
        // Bounded only if the bound cut something (a plan or an enumeration).
        let integers = (self.bound_integers && self.system.interpreter().used_integer_bound())
            .then(|| {
                "--bound-integers: integers that nothing bounds were enumerated only within \
                 MININT..MAXINT"
                    .to_string()
            });
        let blocked = self
            .system
            .interpreter()
            .blocked_transitions()
            .map(|(span, n)| {
                format!(
                    "--undefined-blocks: {n} transition(s) not taken where an operation's body \
                     applies a function outside its domain, the first at {}",
                    self.system.file().location(span)
                )
            });
        match (integers, blocked) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        }
    }

    fn por_analysis(&self, budget: usize) -> Result<PorAnalysis, JobError> {
        let analysis = super::por::analyse(
            &self.machine,
            &self.types,
            self.system.interpreter(),
            budget,
        );
        // Cut short by the budget, the analysis is conservative, not the
        // analysis asked for.
        if let Some(reason) = workers::budget::tripped() {
            return Err(JobError::Stopped(reason));
        }
        Ok(super::por::report::por_analysis(
            &analysis,
            &self.system.file().text,
        ))
    }
}
