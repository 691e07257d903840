//! Modular B: from a component and the machines it names to one machine.
//!
//! A B model is often several components: machines that `SEES`/`USES`
//! others (read access to their sets, constants and variables), that
//! `INCLUDES`/`IMPORTS`/`EXTENDS` instances of others (whose variables
//! become part of the state, whose operations it calls, and whose
//! operations it may `PROMOTES`), refinements and implementations that
//! `REFINES` an abstraction (whose sets, constants and properties stay in
//! scope), and definition files. This module reads them all
//! ([`files`]) and merges them into one [`Machine`] without structuring
//! clauses, which the rest of the front end checks as if it had been
//! written in one file. The merge follows B's rules as ProB applies them:
//!
//! - an included machine's parameters are replaced by the actual
//!   arguments, and its `CONSTRAINTS` join the `PROPERTIES`; `INCLUDES r.M`
//!   renames M's variables and operations to `r.x`, `r.op` (sets and
//!   constants keep their names);
//! - the initialisation runs the seen machines', then the included
//!   machines', then the component's own (in that order, in sequence);
//! - a call `r <-- op(a)` is replaced by the callee's body ([`calls`]),
//!   whose precondition is a guard as in ProB (a model error with
//!   `--find-abort`, ProB's `TRY_FIND_ABORT`);
//!   a machine may call the operations of the machines it includes, and
//!   the inquiry operations (which change no variable) of those it sees;
//! - a seen machine is merged once however many components see it; one
//!   that no component includes belongs to the environment, and its
//!   operations are operations of the model (changes the checked
//!   component cannot prevent), as ProB runs them; one that a component
//!   includes is that included machine;
//! - instances of one machine (`INCLUDES a.M, b.M`) share its sets and
//!   constants, which are not renamed;
//! - a refinement keeps its abstraction's sets, constants, properties and
//!   concrete variables; the abstraction's other variables are gone, and
//!   the invariant conjuncts that mention them (the gluing invariant) are
//!   dropped with a warning, since they cannot be evaluated on the
//!   refinement's states;
//! - `scope_X` definitions count in the checked component only;
//! - the checked component's scalar parameters are constants constrained
//!   by `CONSTRAINTS` (or fixed with `--set n=v`), its set parameters
//!   deferred sets.

mod calls;
mod files;
mod merge;
mod refine;
mod rename;
mod syntax;
mod trees;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, SourceFile};
use crate::frontends::b::ast::{
    BinaryOp, Definition, Expr, ExprKind, Ident, Machine, MachineRef, Operation, Subst,
};
use crate::frontends::b::parser::{parse_machine_tokens, parse_machine_tokens_with};
use crate::frontends::b::typecheck::definition_bool;
use crate::frontends::b::typecheck::given_sets::names_a_set;
use crate::frontends::b::visit::mentions_any;
use calls::{CallContext, Callable, inline_calls};
use files::Files;
use merge::{check_unique_operations, merge_declarations};
use refine::{add_abstract_precondition, keep_conjuncts};
use rename::{Replacements, renaming, replace_in_machine};
use syntax::{binary, conjunction, ident_expr, sequence};

/// How components are found and parameters fixed.
#[derive(Clone, Debug, Default)]
pub struct ComposeOptions {
    /// Directories searched (after the naming file's own) for components
    /// and definition files.
    pub search_path: Vec<PathBuf>,
    /// Values for the checked machine's scalar parameters (`--set n=3`).
    pub scalars: Vec<(String, i64)>,
    /// Whether a called operation's failing precondition is a model error
    /// (ProB's `TRY_FIND_ABORT`) rather than a guard.
    pub find_abort: bool,
    /// LTL formulas given on the command line, whose predicate atoms are
    /// parsed in the checked machine.
    pub ltl: Vec<String>,
    /// The checked machine's `ASSERT_LTL` definitions will not be checked:
    /// their atoms are not parsed.
    pub unchecked_assert_ltl: bool,
}

/// A model's components merged into one machine.
pub struct Composed {
    /// The merged machine.
    pub machine: Machine,
    /// Every file read, for rendering diagnostics.
    pub file: SourceFile,
    /// Things the user should know (e.g. dropped gluing invariants).
    pub warnings: Vec<String>,
    /// The scalar parameters that `--set` fixed.
    pub scalars_used: Vec<String>,
    /// The checked machine's scalar parameters that `--set` did not fix
    /// (their values come from `CONSTRAINTS`).
    pub scalars_free: Vec<String>,
}

/// How deeply components may name each other.
const MAX_DEPTH: usize = 64;

/// Reads the component in `path` and everything it names; returns the
/// merged machine, or the rendered error.
pub fn compose(path: &Path, options: &ComposeOptions) -> Result<Composed, String> {
    let files = Files::open(path, &options.search_path)?;
    let mut composer = Composer {
        files,
        stack: Vec::new(),
        seen_names: HashSet::new(),
        seen: Vec::new(),
        seen_ops: HashMap::new(),
        included: HashSet::new(),
        sees_of: HashMap::new(),
        warnings: Vec::new(),
        calls: CallContext {
            fresh: 0,
            precondition_is_error: options.find_abort,
            ..CallContext::default()
        },
    };
    match composer.main(options) {
        Ok((machine, (scalars_used, scalars_free))) => Ok(Composed {
            machine,
            file: composer.files.file,
            warnings: composer.warnings,
            scalars_used,
            scalars_free,
        }),
        Err(d) => Err(d.render(&composer.files.file)),
    }
}

/// The checked machine's scalar parameters that `--set` fixed, and the others.
type Scalars = (Vec<String>, Vec<String>);

struct Composer {
    files: Files,
    /// Components being merged, for cycles.
    stack: Vec<String>,
    /// Seen machines merged so far, by name.
    seen_names: HashSet<String>,
    /// Seen machines, in an order where a machine comes after those it sees.
    seen: Vec<Machine>,
    /// The inquiry operations (changing no variable) of each seen machine.
    seen_ops: HashMap<String, Vec<Operation>>,
    /// Machines some component includes, imports or extends without a
    /// prefix.
    included: HashSet<String>,
    /// The machines each component sees or uses, by its name.
    sees_of: HashMap<String, Vec<String>>,
    warnings: Vec<String>,
    /// Fresh names and options for inlining calls.
    calls: CallContext,
}

impl Composer {
    fn main(&mut self, options: &ComposeOptions) -> Result<(Machine, Scalars), Diagnostic> {
        let tokens = self.files.main_tokens()?;
        let machine = parse_machine_tokens_with(
            &self.files.file,
            tokens,
            &options.ltl,
            !options.unchecked_assert_ltl,
        )?;
        if !has_structure(&machine) {
            // A machine on its own: nothing to merge (the common case).
            return self.parameters_as_constants(machine, options);
        }
        self.stack.push(machine.name.name.clone());
        let mut m = self.flatten(machine)?;
        // The seen machines go first: their sets and constants are used by all.
        let seen = std::mem::take(&mut self.seen);
        let mut merged = Machine::empty(m.kind, m.name.clone());
        let mut inits = Vec::new();
        for s in seen {
            if self.included.contains(&s.name.name) {
                // The machine included elsewhere is the one seen here.
                continue;
            }
            inits.extend(s.initialisation.clone());
            merge_declarations(&mut merged, s)?;
        }
        let own_init = m.initialisation.take();
        let own_params = std::mem::take(&mut m.params);
        let (kind, name) = (m.kind, m.name.clone());
        let (ltl, ltl_atoms) = (std::mem::take(&mut m.ltl), std::mem::take(&mut m.ltl_atoms));
        let ltl_steps = std::mem::take(&mut m.ltl_steps);
        let named_formulas = std::mem::take(&mut m.named_formulas);
        let scope = m.scope.take();
        let (goal, scopes, definitions, constraints) = (
            m.goal.take(),
            std::mem::take(&mut m.scopes),
            std::mem::take(&mut m.definitions),
            m.constraints.take(),
        );
        merge_declarations(&mut merged, m)?;
        inits.extend(own_init);
        merged.initialisation = sequence(inits);
        merged.kind = kind;
        merged.name = name;
        merged.params = own_params;
        merged.goal = goal;
        merged.scope = scope;
        merged.ltl = ltl;
        merged.ltl_atoms = ltl_atoms;
        merged.ltl_steps = ltl_steps;
        merged.named_formulas = named_formulas;
        merged.scopes.extend(scopes);
        merged.definitions = definitions;
        merged.constraints = constraints;
        self.parameters_as_constants(merged, options)
    }

    /// The checked machine's scalar parameters become constants, with
    /// `CONSTRAINTS` (and `--set` values) added to `PROPERTIES`.
    fn parameters_as_constants(
        &mut self,
        mut m: Machine,
        options: &ComposeOptions,
    ) -> Result<(Machine, Scalars), Diagnostic> {
        let constraints = m.constraints.as_ref();
        let (sets, scalars): (Vec<Ident>, Vec<Ident>) = m
            .params
            .drain(..)
            .partition(|p| names_a_set(&p.name, constraints));
        m.params = sets;
        let mut used = Vec::new();
        if scalars.is_empty() {
            return Ok((m, (used, Vec::new())));
        }
        let mut props = Vec::new();
        if let Some(c) = m.constraints.take() {
            props.push(c);
        }
        for p in &scalars {
            if let Some((_, v)) = options.scalars.iter().find(|(n, _)| *n == p.name) {
                used.push(p.name.clone());
                props.push(binary(
                    BinaryOp::Eq,
                    ident_expr(&p.name, p.span),
                    Expr {
                        kind: ExprKind::Int(*v),
                        span: p.span,
                    },
                ));
            }
        }
        let all_scalars: Vec<String> = scalars.iter().map(|p| p.name.clone()).collect();
        let mut constants = scalars;
        constants.append(&mut m.constants);
        m.constants = constants;
        props.extend(m.properties.take());
        m.properties = conjunction(props);
        let free = all_scalars
            .into_iter()
            .filter(|p| !used.contains(p))
            .collect();
        Ok((m, (used, free)))
    }

    /// Parses component `name`, named at `span`.
    fn component(&mut self, name: &Ident) -> Result<Machine, Diagnostic> {
        if self.stack.contains(&name.name) {
            return Err(Diagnostic::error(
                name.span,
                format!(
                    "machine `{}` names itself through {}",
                    name.name,
                    self.stack.join(" -> ")
                ),
            ));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(Diagnostic::error(
                name.span,
                format!("components nest more than {MAX_DEPTH} deep (a bound of orbit)"),
            ));
        }
        let tokens = self.files.component_tokens(&name.name, name.span)?;
        let m = parse_machine_tokens(&self.files.file, tokens)?;
        if m.name.name != name.name {
            return Err(Diagnostic::error(
                m.name.span,
                format!(
                    "this file defines `{}`, but `{}` was expected from its name",
                    m.name.name, name.name
                ),
            ));
        }
        Ok(m)
    }

    /// Reads and merges component `name`.
    fn flatten_named(&mut self, name: &Ident) -> Result<Machine, Diagnostic> {
        let m = self.component(name)?;
        self.stack.push(name.name.clone());
        let flat = self.flatten(m);
        self.stack.pop();
        flat
    }

    /// Merges everything `m` names into it (except seen machines, which
    /// are merged once, at the end).
    fn flatten(&mut self, mut m: Machine) -> Result<Machine, Diagnostic> {
        let mut out = Machine::empty(m.kind, m.name.clone());
        out.params = std::mem::take(&mut m.params);
        out.constraints = m.constraints.take();
        out.goal = m.goal.take();
        out.scope = m.scope.take();
        out.ltl = std::mem::take(&mut m.ltl);
        out.ltl_atoms = std::mem::take(&mut m.ltl_atoms);
        out.ltl_steps = std::mem::take(&mut m.ltl_steps);
        out.named_formulas = std::mem::take(&mut m.named_formulas);
        let scopes = std::mem::take(&mut m.scopes);
        if self.stack.len() <= 1 {
            out.scopes = scopes;
        } else if !scopes.is_empty() {
            // As ProB: a set's default size comes from the checked machine.
            let names: Vec<String> = scopes
                .iter()
                .map(|(i, _)| format!("scope_{}", i.name))
                .collect();
            let warning = format!(
                "ignoring {} of `{}`: scope definitions are read from the checked machine only",
                names.join(", "),
                m.name.name
            );
            if !self.warnings.contains(&warning) {
                self.warnings.push(warning);
            }
        }
        out.definitions = std::mem::take(&mut m.definitions);
        let mut dropped: Vec<String> = Vec::new();
        let mut abstract_ops: Vec<Operation> = Vec::new();
        let mut inits: Vec<Subst> = Vec::new();

        // The abstraction: its sets, constants, properties and concrete
        // variables carry over.
        if let Some(abstraction) = m.refines.take() {
            let mut a = self.flatten_named(&abstraction)?;
            if out.params.is_empty() {
                out.params = std::mem::take(&mut a.params);
                if out.constraints.is_none() {
                    out.constraints = a.constraints.take();
                }
            }
            let redeclared: HashSet<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
            let kept: Vec<Ident> = a
                .variables
                .iter()
                .filter(|v| {
                    !redeclared.contains(v.name.as_str()) && a.concrete_variables.contains(&v.name)
                })
                .cloned()
                .collect();
            dropped = a
                .variables
                .iter()
                .filter(|v| {
                    !redeclared.contains(v.name.as_str()) && !a.concrete_variables.contains(&v.name)
                })
                .map(|v| v.name.clone())
                .collect();
            let invariant = a
                .invariant
                .take()
                .map(|inv| keep_conjuncts(inv, &dropped, None));
            out.concrete_variables
                .extend(kept.iter().map(|v| v.name.clone()));
            out.variables.extend(kept);
            out.invariant = invariant.flatten();
            out.sets.append(&mut a.sets);
            out.freetypes.append(&mut a.freetypes);
            out.constants.append(&mut a.constants);
            out.properties = a.properties.take();
            out.assertions = std::mem::take(&mut a.assertions)
                .into_iter()
                .filter(|e| !mentions_any(e, &dropped))
                .collect();
            // The abstraction's operations are replaced by the refinement's,
            // which keep their preconditions (below).
            abstract_ops = std::mem::take(&mut a.operations);
        }

        // Seen machines, merged once for the whole model.
        let seen_here: Vec<String> = m.sees.iter().map(|r| r.name.name.clone()).collect();
        self.sees_of.insert(m.name.name.clone(), seen_here.clone());
        for r in std::mem::take(&mut m.sees) {
            self.refuse_arguments(&r, "SEES")?;
            if r.prefix.is_some() {
                // `SEES r.M` reads the instance `r.M` that another component
                // of the model includes: its renamed variables are merged
                // there, so there is nothing to add here.
                continue;
            }
            if self.seen_names.insert(r.name.name.clone()) {
                let mut seen = self.flatten_named(&r.name)?;
                if !seen.params.is_empty() {
                    return Err(Diagnostic::error(
                        r.span,
                        format!(
                            "a seen machine cannot have parameters (`{}` has)",
                            r.name.name
                        ),
                    ));
                }
                // Seen machines offer their inquiry operations to be
                // called; all their operations run as the environment's
                // unless a component includes the machine (in `main`).
                for op in &seen.operations {
                    let mut written = Vec::new();
                    crate::frontends::b::typecheck::possibly_assigned(&op.body, &mut written);
                    if written
                        .iter()
                        .any(|w| seen.variables.iter().any(|v| v.name == w.name))
                    {
                        // Not an inquiry: it cannot be called from here.
                        continue;
                    }
                    self.seen_ops
                        .entry(r.name.name.clone())
                        .or_default()
                        .push(op.clone());
                }
                if let Some(c) = seen.constraints.take() {
                    seen.properties = conjunction([c].into_iter().chain(seen.properties.take()));
                }
                self.seen.push(seen);
            }
        }

        // Included instances; the inquiry operations of seen machines can
        // be called too.
        let mut callable: Callable = HashMap::new();
        for name in &seen_here {
            for op in self.seen_ops.get(name).into_iter().flatten() {
                callable.insert(op.name.name.clone(), op.clone());
            }
        }
        let mut promoted: Vec<Operation> = Vec::new();
        let includes = std::mem::take(&mut m.includes);
        let extends = std::mem::take(&mut m.extends);
        let mut instances = Vec::new();
        for (r, all_promoted) in includes
            .into_iter()
            .map(|r| (r, false))
            .chain(extends.into_iter().map(|r| (r, true)))
        {
            if r.prefix.is_none() {
                self.included.insert(r.name.name.clone());
            }
            let inst = self.instance(&r)?;
            instances.push((r, all_promoted, inst));
        }
        // An included machine that sees another one included here is
        // initialised after it (it may read its variables).
        for k in self.initialisation_order(&instances) {
            inits.extend(instances[k].2.initialisation.clone());
        }
        // The first definition of each included operation name: a second
        // one (two included machines with an `inc`) makes the name
        // ambiguous, refused where it is promoted.
        let mut included_ops: HashMap<String, crate::diag::Span> = HashMap::new();
        let mut ambiguous: HashMap<String, (crate::diag::Span, crate::diag::Span)> = HashMap::new();
        for (_, all_promoted, inst) in instances {
            for op in &inst.operations {
                if let Some(&first) = included_ops.get(&op.name.name) {
                    ambiguous
                        .entry(op.name.name.clone())
                        .or_insert((first, op.name.span));
                } else {
                    included_ops.insert(op.name.name.clone(), op.name.span);
                }
                callable.insert(op.name.name.clone(), op.clone());
                if all_promoted {
                    promoted.push(op.clone());
                }
            }
            let mut inst = inst;
            inst.operations.clear();
            merge_declarations(&mut out, inst)?;
        }
        for name in std::mem::take(&mut m.promotes) {
            let Some(op) = callable.get(&name.name) else {
                let mut known: Vec<&str> = callable.keys().map(String::as_str).collect();
                known.sort_unstable();
                return Err(Diagnostic::error(
                    name.span,
                    format!(
                        "cannot promote `{}`: no included machine has this operation",
                        name.name
                    ),
                )
                .with_note(format!(
                    "the included operations are: {}",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            };
            if let Some(&(first, second)) = ambiguous.get(&name.name) {
                return Err(Diagnostic::error(
                    name.span,
                    format!(
                        "cannot promote `{}`: two included machines define it",
                        name.name
                    ),
                )
                .with_note(format!(
                    "one at {}, the other at {}; rename one (include it with a prefix, \
                     `INCLUDES p.M`)",
                    self.files.file.location(first),
                    self.files.file.location(second)
                )));
            }
            let mut op = op.clone();
            op.name.span = name.span;
            promoted.push(op);
        }

        // The component's own clauses.
        for (name, value) in std::mem::take(&mut m.values) {
            let span = name.span.to(value.span);
            let eq = binary(BinaryOp::Eq, ident_expr(&name.name, name.span), value);
            out.properties = conjunction(
                out.properties
                    .take()
                    .into_iter()
                    .chain([Expr { span, ..eq }]),
            );
        }
        if let Some(inv) = m.invariant.take() {
            // Only the checked component's gluing invariant is worth a warning.
            let warnings = (self.stack.len() <= 1).then_some(&mut self.warnings);
            m.invariant =
                keep_conjuncts(inv, &dropped, warnings.map(|w| (m.name.name.as_str(), w)));
        }
        let mut ops = std::mem::take(&mut m.operations);
        // A refined operation runs only where its abstraction's
        // precondition holds (and takes its parameters' types from it, as
        // refinements usually do not repeat them): the conjuncts that
        // mention no replaced variable are added to its precondition.
        for op in &mut ops {
            if let Some(abs) = abstract_ops
                .iter()
                .find(|a| a.name.name == op.name.name && a.params.len() == op.params.len())
            {
                add_abstract_precondition(op, abs, &dropped);
            }
        }
        // Calls of an operation two included machines define are refused.
        self.calls.ambiguous = ambiguous
            .iter()
            .map(|(name, &(first, second))| {
                let places = format!(
                    "one at {}, the other at {}",
                    self.files.file.location(first),
                    self.files.file.location(second)
                );
                (name.clone(), places)
            })
            .collect();
        // Local operations: callable by this component's operations only.
        // Their implementation (in OPERATIONS) is used where given, else
        // their specification; a local operation may call those before it.
        for spec in std::mem::take(&mut m.local_operations) {
            let mut local = match ops.iter().position(|o| o.name.name == spec.name.name) {
                Some(k) => ops.remove(k),
                None => spec,
            };
            inline_calls(&mut local.body, &callable, &mut self.calls)?;
            callable.insert(local.name.name.clone(), local);
        }
        // ProB's `SET_PREF_ALLOW_LOCAL_OPERATION_CALLS`: the component's
        // operations (and initialisation) may call its operations.
        if self.allows_local_operation_calls(&out.definitions)? {
            for op in &ops {
                callable
                    .entry(op.name.name.clone())
                    .or_insert_with(|| op.clone());
            }
        }
        let mut own_init = m.initialisation.take();
        if let Some(init) = &mut own_init {
            inline_calls(init, &callable, &mut self.calls)?;
        }
        inits.extend(own_init);
        for op in &mut ops {
            inline_calls(&mut op.body, &callable, &mut self.calls)?;
        }
        self.calls.ambiguous.clear();
        merge_declarations(&mut out, m)?;
        for op in promoted {
            if let Some(&(first, second)) = ambiguous.get(&op.name.name)
                && out.operations.iter().any(|o| o.name.name == op.name.name)
            {
                return Err(Diagnostic::error(
                    second,
                    format!(
                        "operation `{}` is defined by two extended or promoted machines",
                        op.name.name
                    ),
                )
                .with_note(format!(
                    "the other is at {}; rename one (include it with a prefix, `EXTENDS p.M`)",
                    self.files.file.location(first)
                )));
            }
            if out.operations.iter().any(|o| o.name.name == op.name.name) {
                return Err(Diagnostic::error(
                    op.name.span,
                    format!(
                        "operation `{}` is promoted and also defined here",
                        op.name.name
                    ),
                ));
            }
            out.operations.push(op);
        }
        out.operations.extend(ops);
        check_unique_operations(&out.operations)?;
        out.initialisation = sequence(inits);
        Ok(out)
    }

    /// The order in which included `instances` are initialised: as listed,
    /// except that one comes after the unrenamed instances of the machines
    /// it sees or uses (cycles keep the listed order).
    /// Whether `definitions` set ProB's `SET_PREF_ALLOW_LOCAL_OPERATION_CALLS`.
    fn allows_local_operation_calls(&self, definitions: &[Definition]) -> Result<bool, Diagnostic> {
        match definitions
            .iter()
            .find(|d| d.name.name == "SET_PREF_ALLOW_LOCAL_OPERATION_CALLS")
        {
            Some(def) => definition_bool(def, &self.files.file),
            None => Ok(false),
        }
    }

    fn initialisation_order(&self, instances: &[(MachineRef, bool, Machine)]) -> Vec<usize> {
        let plain = |k: usize| {
            let r = &instances[k].0;
            r.prefix.is_none().then_some(r.name.name.as_str())
        };
        let mut placed: Vec<usize> = Vec::new();
        while placed.len() < instances.len() {
            let waiting = |k: usize| !placed.contains(&k);
            let ready = (0..instances.len()).filter(|&k| waiting(k)).find(|&k| {
                let sees = self.sees_of.get(&instances[k].0.name.name);
                !(0..instances.len())
                    .filter(|&j| j != k && waiting(j))
                    .any(|j| {
                        plain(j).is_some_and(|n| sees.is_some_and(|s| s.iter().any(|x| x == n)))
                    })
            });
            match ready.or_else(|| (0..instances.len()).find(|&k| waiting(k))) {
                Some(k) => placed.push(k),
                None => break,
            }
        }
        placed
    }

    fn refuse_arguments(&self, r: &MachineRef, clause: &str) -> Result<(), Diagnostic> {
        if r.args.is_empty() {
            Ok(())
        } else {
            Err(Diagnostic::error(
                r.span,
                format!("a machine named in {clause} takes no arguments"),
            ))
        }
    }

    /// The instance `r` names: the machine with its parameters replaced
    /// by the arguments and its variables and operations renamed.
    fn instance(&mut self, r: &MachineRef) -> Result<Machine, Diagnostic> {
        let mut m = self.flatten_named(&r.name)?;
        if m.params.len() != r.args.len() {
            return Err(Diagnostic::error(
                r.span,
                format!(
                    "machine `{}` has {} parameter(s) ({}), but {} argument(s) are given",
                    r.name.name,
                    m.params.len(),
                    m.params
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    r.args.len()
                ),
            ));
        }
        let mut map = Replacements::new();
        for (p, a) in m.params.iter().zip(&r.args) {
            map.insert(p.name.clone(), a.clone());
        }
        m.params.clear();
        // The parameters' constraints must hold of the arguments.
        if let Some(c) = m.constraints.take() {
            m.properties = conjunction([c].into_iter().chain(m.properties.take()));
        }
        replace_in_machine(&mut m, &map);
        if let Some(prefix) = &r.prefix {
            let mut map = Replacements::new();
            for v in &mut m.variables {
                let new = format!("{prefix}.{}", v.name);
                map.insert(v.name.clone(), renaming(&new, v));
                v.name = new;
            }
            for c in &mut m.concrete_variables {
                *c = format!("{prefix}.{c}");
            }
            replace_in_machine(&mut m, &map);
            for op in &mut m.operations {
                op.name.name = format!("{prefix}.{}", op.name.name);
            }
        }
        Ok(m)
    }
}

/// Whether the machine names other components.
fn has_structure(m: &Machine) -> bool {
    m.refines.is_some()
        || !m.sees.is_empty()
        || !m.includes.is_empty()
        || !m.extends.is_empty()
        || !m.promotes.is_empty()
        || !m.values.is_empty()
        || !m.local_operations.is_empty()
        || m.definitions
            .iter()
            .any(|d| d.name.name == "SET_PREF_ALLOW_LOCAL_OPERATION_CALLS")
}
