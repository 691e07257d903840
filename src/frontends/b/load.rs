//! From a file name to a [`BSystem`]: read, parse, merge the components
//! it names, type-check, compile, solve the constants. Each stage's errors come back as rendered text with
//! file:line:column.

use crate::diag::SourceFile;
use crate::frontends::b::compose::{ComposeOptions, compose};
use crate::frontends::b::eval::Interpreter;
use crate::frontends::b::state::StateLayout;
use crate::frontends::b::system::BSystem;
use crate::frontends::b::typecheck::{CheckOptions, check_machine, machine_preferences};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Options that change how a machine is read.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// `--set X=n` overrides of deferred set sizes (and of the checked
    /// machine's scalar parameters).
    pub set_sizes: Vec<(String, u32)>,
    /// `--maxint`
    pub maxint: Option<i64>,
    /// `--minint`
    pub minint: Option<i64>,
    /// `--search-path`: directories searched for the machines and
    /// definition files a model names, after the naming file's own.
    pub search_path: Vec<PathBuf>,
    /// `--find-abort`: a called operation's failing precondition is a model
    /// error (ProB's `TRY_FIND_ABORT`), not a guard.
    pub find_abort: bool,
    /// `--bound-integers`: enumerate integers that nothing bounds within
    /// `MININT..MAXINT`, as ProB does, instead of refusing them.
    pub bound_integers: bool,
    /// `--undefined-blocks`: a function applied outside its domain in an
    /// operation's body blocks the transition, as in ProB's model checker.
    pub undefined_blocks: bool,
    /// `--solver`: how the constants are sought.
    pub constant_solver: crate::frontends::b::eval::cp::ConstantSolver,
    /// `--no-invariant`: the invariant will not be checked, so nothing is
    /// assumed from it (integer variables are not packed to its ranges).
    pub unchecked_invariant: bool,
    /// `--ltl`: formulas checked besides the machine's `ASSERT_LTL`
    /// definitions, whose predicate atoms are parsed in the machine.
    pub ltl: Vec<String>,
    /// `--no-assert-ltl`: the machine's `ASSERT_LTL` definitions will not
    /// be checked, so their atoms are not read (ProB's model checker
    /// reads them only when asked to check them).
    pub unchecked_assert_ltl: bool,
    /// Whether the constants' valuations will be reduced to ProB's normal
    /// form (`--constant-symmetry`), which lets the constraint solver skip
    /// valuations outside it.
    pub constant_symmetry: ConstantSymmetry,
}

/// Whether a run reduces the constants' valuations to ProB's normal form
/// (static symmetry reduction, [`crate::frontends::b::symmetry::ConstantRules`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConstantSymmetry {
    /// Every valuation is kept (the library's default).
    #[default]
    Off,
    /// Only valuations in normal form are kept (`--constant-symmetry`).
    On,
    /// As the machine's `SET_PREF_STATIC_SYMMETRY_DETECTION` says, else on
    /// (ProB's default; the command line's without a flag).
    MachineDefault,
}

impl ConstantSymmetry {
    /// Whether valuations are reduced, given the machine's preference.
    pub fn applies(self, machine_preference: Option<bool>) -> bool {
        match self {
            ConstantSymmetry::Off => false,
            ConstantSymmetry::On => true,
            ConstantSymmetry::MachineDefault => machine_preference.unwrap_or(true),
        }
    }
}

/// Why a machine could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The input is bad (missing file, syntax or type error, unsupported
    /// construct): exit code 2. The text is ready to print.
    Input(String),
    /// The model is well-formed but ill-defined while solving its constants
    /// (e.g. a function applied outside its domain in PROPERTIES): exit code 1.
    Model(String),
    /// The run's budget (time, memory, Ctrl-C; [`workers::budget`]) ran out
    /// while the constants were solved: no verdict.
    Stopped(workers::StopReason),
}

/// A machine read, parsed, type-checked and compiled, for tools that need
/// the AST and the types as well as the interpreter (e.g. `orbit por`).
pub struct LoadedModel {
    /// The parsed machine, with the components it names merged in.
    pub machine: crate::frontends::b::ast::Machine,
    /// Its types.
    pub types: crate::frontends::b::types::MachineTypes,
    /// Its compiled interpreter.
    pub interpreter: Interpreter,
    /// The source text (every file read), for rendering diagnostics.
    pub file: Arc<SourceFile>,
    /// Warnings from merging the components.
    pub warnings: Vec<String>,
    /// The checked machine's scalar parameters that `--set` did not fix.
    pub free_parameters: Vec<String>,
}

/// Reads, parses, merges, type-checks and compiles the machine in `path`
/// (without solving its constants).
pub fn load_model(path: &Path, options: &LoadOptions) -> Result<LoadedModel, LoadError> {
    let compose_options = ComposeOptions {
        search_path: options.search_path.clone(),
        find_abort: options.find_abort,
        ltl: options.ltl.clone(),
        unchecked_assert_ltl: options.unchecked_assert_ltl,
        scalars: options
            .set_sizes
            .iter()
            .map(|(n, v)| (n.clone(), i64::from(*v)))
            .collect(),
    };
    let mut composed = compose(path, &compose_options).map_err(LoadError::Input)?;
    // ProB checks `ASSERT_CTL` formulas; orbit does not yet, and says so
    // (`ASSERT_LTL` formulas are checked).
    let ctl: Vec<&str> = composed
        .machine
        .definitions
        .iter()
        .map(|d| d.name.name.as_str())
        .filter(|n| n.starts_with("ASSERT_CTL"))
        .collect();
    if !ctl.is_empty() {
        composed.warnings.push(format!(
            "not supported yet: CTL properties ({}); they are not checked",
            ctl.join(", ")
        ));
    }
    let named = &composed.machine.named_formulas;
    if !named.is_empty() {
        let names: Vec<&str> = named.iter().map(|n| n.name.as_str()).collect();
        composed.warnings.push(format!(
            "EXPRESSIONS/PREDICATES ({}): ProB's named formulas for display are parsed, \
             not evaluated",
            names.join(", ")
        ));
    }
    if composed.machine.scope.is_some() {
        composed.warnings.push(
            "SCOPE: states where it is false are left out of the search (as ProB does); \
             what lies beyond them is not checked"
                .to_string(),
        );
    }
    let file = Arc::new(composed.file);
    let machine = composed.machine;
    let check_options = CheckOptions {
        set_sizes: options
            .set_sizes
            .iter()
            .filter(|(n, _)| !composed.scalars_used.contains(n))
            .cloned()
            .collect(),
        maxint: options.maxint,
        minint: options.minint,
        ..CheckOptions::default()
    };
    let render_all = |ds: Vec<crate::diag::Diagnostic>| {
        let texts: Vec<String> = ds.iter().map(|d| d.render(&file)).collect();
        LoadError::Input(texts.join("\n"))
    };
    // `SET_PREF_MAXINT == n` and friends in DEFINITIONS, under the command line's options.
    let preferences = machine_preferences(&machine, &file).map_err(render_all)?;
    let check_options = preferences.apply(check_options, false);
    let mut types = check_machine(&machine, &check_options).map_err(render_all)?;
    types.bound_integers = options.bound_integers;
    types.undefined_blocks = options.undefined_blocks;
    types.constant_solver = options.constant_solver;
    types.static_symmetry = preferences.static_symmetry;
    types.simultaneous_assignments = preferences.simultaneous_assignments;
    if options.bound_integers {
        composed.warnings.push(format!(
            "--bound-integers: integers that nothing bounds are enumerated only within \
             MININT..MAXINT ({}..{}); behaviour that needs larger values is not explored",
            types.minint, types.maxint
        ));
    }
    let interpreter =
        Interpreter::new(&machine, &types, &file).map_err(|d| LoadError::Input(d.render(&file)))?;
    Ok(LoadedModel {
        machine,
        types,
        interpreter,
        file,
        warnings: composed.warnings,
        free_parameters: composed.scalars_free,
    })
}

/// Loads the machine in `path`.
pub fn load_machine(path: &Path, options: &LoadOptions) -> Result<BSystem, LoadError> {
    load_machine_with_ast(path, options).map(|(system, _, _)| system)
}

/// Loads the machine in `path`, keeping its AST and types (for analyses
/// that run next to the search, e.g. partial order reduction).
pub fn load_machine_with_ast(
    path: &Path,
    options: &LoadOptions,
) -> Result<
    (
        BSystem,
        crate::frontends::b::ast::Machine,
        crate::frontends::b::types::MachineTypes,
    ),
    LoadError,
> {
    let LoadedModel {
        machine,
        types,
        mut interpreter,
        file,
        warnings,
        free_parameters,
    } = load_model(path, options)?;
    let names = |ids: &[crate::frontends::b::ast::Ident]| {
        ids.iter().map(|i| i.name.clone()).collect::<Vec<_>>()
    };
    let mut layout = StateLayout::new(
        &names(&machine.constants),
        &names(&machine.variables),
        &types,
    );
    if !options.unchecked_invariant {
        layout = layout.with_invariant_ranges(
            &crate::frontends::b::state::range_of_variables(&machine, &types),
            &crate::frontends::b::state::set_carrier_of_variables(&machine, &types),
            &crate::frontends::b::state::function_of_variables(&machine, &types),
        );
    }
    // A model that writes an integer beyond 64 bits may store one in an
    // `INTEGER` variable: those are interned (see `intern_int_variables`).
    let mut writes_big = false;
    crate::frontends::b::visit::walk_machine_exprs(&machine, &mut |e| {
        writes_big |= matches!(e.kind, crate::frontends::b::ast::ExprKind::BigInt(_));
    });
    if writes_big {
        layout.intern_int_variables();
    }
    for slot in layout.slots() {
        tracing::debug!(slot = %slot.name, codec = ?slot.codec, "state layout");
    }
    // The rules of the constants' normal form, known before they are
    // solved: the constraint solver then skips valuations outside it.
    let interchangeable =
        crate::frontends::b::symmetry::interchangeable_elements(&machine, &types.given_sets);
    let constant_rules = crate::frontends::b::symmetry::ConstantRules::of(
        &machine,
        &types.constants,
        &types.given_sets,
        &interchangeable,
    );
    if options.constant_symmetry.applies(types.static_symmetry) {
        interpreter.constant_classes = constant_rules.class_constraints();
    }
    let mut system = BSystem::new(interpreter, layout, file).map_err(|e| match e.stopped {
        Some(reason) => LoadError::Stopped(reason),
        // `--solver cp` on a predicate beyond the solver: refused, not ill-defined.
        None if e.to_string().starts_with("not supported yet") => {
            LoadError::Input(format!("error: {e}\n"))
        }
        None => {
            let mut text = format!("error: {e}\n");
            // An unbounded machine parameter: say how to give it.
            for p in &free_parameters {
                if text.contains(&format!("`{p}`")) {
                    text.push_str(&format!(
                        "  = note: `{p}` is a parameter of the machine: give its value with \
                         `--set {p}=N`, or bound it in CONSTRAINTS\n"
                    ));
                }
            }
            LoadError::Model(text)
        }
    })?;
    if !options.unchecked_invariant {
        system.vouch_for(&crate::frontends::b::state::function_conjuncts(
            &machine, &types,
        ));
    }
    system.warnings.splice(0..0, warnings);
    system.ltl = machine.ltl.clone();
    system.shapes = types.shapes.clone();
    system.interchangeable = interchangeable;
    system.groups = crate::frontends::b::por::independence::group_infos(&machine, system.layout());
    system.ltl_reads =
        crate::frontends::b::por::independence::ltl_atom_reads(&machine, system.layout());
    system.constant_rules = constant_rules;
    Ok((system, machine, types))
}
