//! The machine-level entry points of the interpreter: solving the
//! constants, initialisation, successors, invariant, assertions and goal,
//! and ProB-style labels.
//!
//! Frame layouts (see [`super`]): for PROPERTIES the frame starts with the
//! constants (they are the unknowns); everywhere else the constants are
//! read-only and the frame starts with the variables, then, in an
//! operation, its parameters and outputs.

use std::ops::Range;

use super::compile::{Compiler, conjuncts};
use super::cp::{ConstantSolver, Search};
use super::ir::{BinderUnknowns, CPred, CSubst, Gen, Slot, SolveStep, Solver, Undefined};
use super::{Env, EvalError, Fail, PropertyFailure, R, Step, format_with, plan, unset};
use crate::diag::{Diagnostic, SourceFile, Span};
use crate::frontends::b::ast::{BinaryOp, Expr, ExprKind, Ident, Machine, SubstKind};
use crate::frontends::b::types::{GivenSet, MachineTypes, Type};
use crate::frontends::b::value::Value;

/// An operation, compiled.
#[derive(Debug)]
struct Operation {
    name: String,
    /// Frame slots of the parameters.
    params: Range<usize>,
    /// Frame slots of the outputs.
    outputs: Range<usize>,
    /// Enumerates the parameters subject to the top-level guard (also
    /// used, with no variables, for parameterless operations' guards).
    guard: Solver,
    /// The parameters are found by the constraint solver in each state
    /// (enumeration would find no finite domain for one); the guard is
    /// enumerated in a state where it is beyond the solver.
    by_solver: Option<BinderUnknowns>,
    /// States where the solver refused the guard, and where it answered:
    /// after [`SOLVER_TRIES`] refusals without an answer it is not asked
    /// again (building a model to be refused in every state costs more
    /// than the enumeration that follows).
    solver_refused: std::sync::atomic::AtomicU32,
    solver_answered: std::sync::atomic::AtomicBool,
    /// The rest of the body.
    body: CSubst,
    /// Frame size this operation needs.
    frame: usize,
}

/// The interpreter of one machine: compiled once, then shared (it is
/// `Send + Sync`) by the worker threads of the model checker.
#[derive(Debug)]
pub struct Interpreter {
    pub(crate) given_sets: Vec<GivenSet>,
    /// The free types, for printing their values and for messages.
    pub(crate) free_types: Vec<crate::frontends::b::types::FreeType>,
    /// Record shapes of each operation's parameters then outputs (empty
    /// when no record is involved), for labels.
    operation_shapes: Vec<Vec<crate::frontends::b::types::ValueShape>>,
    /// `--bound-integers`: enumerating `NATURAL`, `NATURAL1` or `INTEGER`
    /// stops at `MININT`/`MAXINT` (membership is unchanged).
    pub(crate) bound_integers: bool,
    /// Whether a compiled plan enumerates an integer within
    /// `--bound-integers`' bounds.
    bound_in_plans: bool,
    /// Whether enumerating the constants finds exactly PROPERTIES'
    /// solutions: its plan neither cuts an integer at `--bound-integers`'
    /// bounds nor meets one that nothing bounds (then enumeration may race
    /// the constraint solver, see [`Interpreter::constant_valuations`]).
    pub(super) properties_exact: bool,
    /// Set when an enumeration of `NATURAL`, `NATURAL1` or `INTEGER` ran
    /// within `--bound-integers`' bounds.
    pub(crate) bound_at_run_time: std::sync::atomic::AtomicBool,
    /// Candidate valuations of the constants that PROPERTIES rejected
    /// because it applies a function outside its domain there, and where
    /// the first did (see [`Interpreter::undefined_rejections`]).
    undefined_rejected: std::sync::atomic::AtomicU64,
    /// Where the first of them did.
    first_undefined: std::sync::OnceLock<Span>,
    /// `--undefined-blocks`: a function applied outside its domain in an
    /// operation's body blocks the transition instead of failing.
    undefined_blocks: bool,
    /// Transitions so blocked (see [`Interpreter::blocked_transitions`]).
    blocked: std::sync::atomic::AtomicU64,
    /// Where the first of them applied the function.
    first_blocked: std::sync::OnceLock<Span>,
    /// Curried updates' reads of the function they update, which
    /// `--undefined-blocks` does not block (see
    /// [`super::compile::Compiler::nested_targets`]).
    nested_targets: Vec<Span>,
    pub(crate) maxint: i64,
    pub(crate) minint: i64,
    num_variables: usize,
    /// Solves for the constants (frame slots `0..nc`).
    properties: Solver,
    /// The conjuncts of CONSTRAINTS and PROPERTIES, for the constraint
    /// solver (see [`super::cp`]).
    pub(super) properties_conjuncts: Vec<CPred>,
    /// The costly closed parts of `properties_conjuncts` the constraint
    /// solver has evaluated (see [`super::memo::KeptParts`]).
    pub(super) kept_parts: super::memo::KeptParts,
    /// PROPERTIES planned part by part where its constants fall into
    /// independent parts (see [`super::components`]).
    properties_parts: Option<Vec<Solver>>,
    /// How the constants are sought (`--solver`).
    pub(crate) constant_solver: super::cp::ConstantSolver,
    /// What the normal form of the constants' valuations implies, per
    /// deferred set, where the run keeps only that form
    /// (`--constant-symmetry`): the constraint solver posts it and skips
    /// the other valuations. Empty otherwise.
    pub(crate) constant_classes: Vec<crate::frontends::b::symmetry::ClassConstraints>,
    /// The constants' names and types, for the constraint solver.
    pub(crate) constant_names: Vec<String>,
    pub(crate) constant_types: Vec<Type>,
    /// The constants' definitions in PROPERTIES, which values kept
    /// symbolic name (see [`super::symbolic`]).
    pub(super) definitions: Vec<super::symbolic::Definition>,
    pub(super) properties_frame: usize,
    pub(super) num_constants: usize,
    invariant: Vec<(CPred, String)>,
    /// For each invariant conjunct, the variables (indices) it reads.
    invariant_reads: Vec<Vec<usize>>,
    assertions: Vec<(CPred, String)>,
    goal: Option<CPred>,
    /// `SCOPE == P`: states where it is false are not expanded.
    scope: Option<CPred>,
    /// The LTL formulas' predicate atoms, by the text they were written as.
    ltl_atoms: Vec<(String, CPred)>,
    /// The LTL step atoms' arguments (`None`: any), by the atom's text.
    ltl_steps: Vec<(String, Vec<Option<super::ir::CExpr>>)>,
    /// Frame size for invariant, assertions and goal.
    state_frame: usize,
    initialisation: Option<CSubst>,
    /// Where INITIALISATION is written.
    initialisation_span: Span,
    /// The variables' names, for messages.
    variable_names: Vec<String>,
    init_frame: usize,
    operations: Vec<Operation>,
    /// Largest frame of any operation.
    op_frame: usize,
}

impl Interpreter {
    /// Compiles a type-checked machine. Fails with a diagnostic on names
    /// that do not resolve, constructs used in the wrong place and
    /// parallel branches writing the same variable.
    pub fn new(
        machine: &Machine,
        types: &MachineTypes,
        file: &SourceFile,
    ) -> Result<Interpreter, Diagnostic> {
        let mut c = Compiler::new(types);
        let nc = machine.constants.len();
        let nv = machine.variables.len();
        let text = |span: Span| {
            file.text
                .get(span.start as usize..span.end as usize)
                .unwrap_or("")
                .trim()
                .to_string()
        };

        // PROPERTIES: the constants are the unknowns.
        c.reset_frame(nc as u32);
        for (i, k) in machine.constants.iter().enumerate() {
            c.push_name(&k.name, Slot::Frame(i as u32));
        }
        let const_slots: Vec<u32> = (0..nc as u32).collect();
        let span = machine
            .properties
            .as_ref()
            .map_or(machine.name.span, |p| p.span);
        // CONSTRAINTS (on the set parameters) must hold too: they are
        // checked with the properties.
        let mut parts = Vec::new();
        let mut definitions = Vec::new();
        // A constant's first `c = E` defines it; a later one (`z = [a, b,
        // c] & z = x ^ [b] ^ y`) constrains the constants it reads.
        let mut defined = vec![false; nc];
        c.in_properties = true;
        for source in machine.constraints.iter().chain(&machine.properties) {
            for conj in conjuncts(source) {
                match defined_constant(conj, machine, &types.constants)
                    .filter(|&(k, _)| !std::mem::replace(&mut defined[k], true))
                {
                    Some((k, e)) => parts.push(c.definition(
                        k as u32,
                        &machine.constants[k],
                        e,
                        &mut definitions,
                        &text(e.span),
                    )?),
                    None => parts.push(c.pred(conj)?),
                }
            }
        }
        c.in_properties = false;
        let properties_conjuncts = parts.clone();
        // As ProB's solver reads `f(x) = y` as `x |-> y : f`, a candidate
        // valuation that applies a function outside its domain is not a
        // solution (counted, and named in the report).
        let properties_cut = std::cell::Cell::new(false);
        let properties = plan::plan(
            &machine.constants,
            &const_slots,
            Some(&types.constants),
            true,
            false,
            parts,
            span,
            Undefined::Constants,
            c.int_bound().map(|b| plan::IntBound {
                used: &properties_cut,
                ..b
            }),
        );
        // The independent parts of PROPERTIES, planned on their own (see
        // [`super::components`]).
        let split = super::components::split(&properties_conjuncts, nc);
        let properties_parts = (split.len() > 1).then(|| {
            split
                .into_iter()
                .map(|part| {
                    let names: Vec<Ident> = part
                        .slots
                        .iter()
                        .map(|&s| machine.constants[s as usize].clone())
                        .collect();
                    let part_types: Vec<Type> = part
                        .slots
                        .iter()
                        .map(|&s| types.constants[s as usize].clone())
                        .collect();
                    plan::plan(
                        &names,
                        &part.slots,
                        Some(&part_types),
                        true,
                        false,
                        part.conjuncts,
                        span,
                        Undefined::Constants,
                        c.int_bound().map(|b| plan::IntBound {
                            used: &properties_cut,
                            ..b
                        }),
                    )
                })
                .collect::<Vec<_>>()
        });
        if properties_cut.get() {
            c.note_bound_used();
        }
        // Enumeration finds exactly the valuations: it cuts no integer and
        // meets none that nothing bounds.
        let properties_exact = !properties_cut.get() && !plan::enumerates_unbounded(&properties);
        let properties_frame = c.frame_size() as usize;

        // State predicates: constants read-only, variables in the frame.
        let state_scope = |c: &mut Compiler<'_>, base: u32| {
            c.reset_frame(base);
            for (i, k) in machine.constants.iter().enumerate() {
                c.push_name(&k.name, Slot::Const(i as u32));
            }
            for (i, v) in machine.variables.iter().enumerate() {
                c.push_name(&v.name, Slot::Frame(i as u32));
            }
            c.slot_types = types.variables.iter().cloned().map(Some).collect();
        };
        state_scope(&mut c, nv as u32);
        let mut invariant = Vec::new();
        if let Some(inv) = &machine.invariant {
            for conj in conjuncts(inv) {
                invariant.push((c.pred(conj)?, text(conj.span)));
            }
        }
        let invariant_reads = invariant
            .iter()
            .map(|(p, _)| {
                let mut slots = Vec::new();
                plan::pred_slots(p, &mut slots);
                let mut vars: Vec<usize> = slots
                    .into_iter()
                    .map(|s| s as usize)
                    .filter(|&s| s < nv)
                    .collect();
                vars.sort_unstable();
                vars.dedup();
                vars
            })
            .collect();
        let mut assertions = Vec::new();
        for a in &machine.assertions {
            assertions.push((c.pred(a)?, text(a.span)));
        }
        let goal = machine.goal.as_ref().map(|g| c.pred(g)).transpose()?;
        let scope = machine.scope.as_ref().map(|s| c.pred(s)).transpose()?;
        let mut ltl_atoms = Vec::new();
        for (text, e) in &machine.ltl_atoms {
            ltl_atoms.push((text.clone(), c.pred(e)?));
        }
        let mut ltl_steps = Vec::new();
        for step in &machine.ltl_steps {
            let args = step
                .args
                .iter()
                .map(|a| a.as_ref().map(|e| c.expr(e)).transpose())
                .collect::<Result<Vec<_>, _>>()?;
            ltl_steps.push((step.text.clone(), args));
        }
        let state_frame = c.frame_size() as usize;

        state_scope(&mut c, nv as u32);
        // Before INITIALISATION assigns them, variables hold no value:
        // reading one is checked.
        for (i, v) in machine.variables.iter().enumerate() {
            c.push_local(&v.name, i as u32);
        }
        let initialisation = machine
            .initialisation
            .as_ref()
            .map(|s| c.subst(s))
            .transpose()?;
        let init_frame = c.frame_size() as usize;
        if initialisation.is_none() && nv > 0 {
            return Err(Diagnostic::error(
                machine.name.span,
                "the machine has variables but no INITIALISATION",
            ));
        }

        let mut operations = Vec::new();
        for (i, op) in machine.operations.iter().enumerate() {
            let np = op.params.len();
            let no = op.outputs.len();
            state_scope(&mut c, (nv + np + no) as u32);
            let op_types = types.operations.get(i);
            for (j, p) in op.params.iter().enumerate() {
                c.push_name(&p.name, Slot::Frame((nv + j) as u32));
                c.slot_types
                    .push(op_types.and_then(|t| t.params.get(j).cloned()));
            }
            for (j, o) in op.outputs.iter().enumerate() {
                c.push_local(&o.name, (nv + np + j) as u32);
                c.slot_types
                    .push(op_types.and_then(|t| t.outputs.get(j).cloned()));
            }
            let param_slots: Vec<u32> = (nv..nv + np).map(|s| s as u32).collect();
            let param_types: Option<&[Type]> = op_types.map(|t| t.params.as_slice());
            // The top-level PRE / single SELECT / WHEN is the guard that
            // generates the parameters.
            let mut body = &op.body;
            while let SubstKind::Block(inner) = &body.kind {
                body = inner;
            }
            let (guard_pred, rest) = match &body.kind {
                SubstKind::Precondition(p, body) => (Some(p), &**body),
                SubstKind::Select(branches, None) if branches.len() == 1 => {
                    (Some(&branches[0].0), &branches[0].1)
                }
                _ => (None, body),
            };
            // The conjuncts of an `ANY ... WHERE` next that do not read its
            // variables guard the parameters too, as in ProB, which solves
            // the whole guard (`j : Jug` in `op(j) = ANY c WHERE j : Jug &
            // c = f(j) THEN ...`): `#v.(P & Q) <=> P & #v.Q` when `P` does
            // not read `v`.
            let mut guard_parts: Vec<&Expr> = guard_pred.map(conjuncts).unwrap_or_default();
            // An output typed in PRE by its whole type (`dd : DATA`, as
            // ProB's examples do) is typing, not a condition; any other
            // reading of an output there reads it before it has a value.
            let mut typings = Vec::new();
            for (k, p) in guard_parts.iter().enumerate() {
                if let ExprKind::Binary(BinaryOp::Member, x, set) = &p.kind
                    && let ExprKind::Ident(name) = &x.kind
                    && op.outputs.iter().any(|o| o.name == *name)
                    && super::symbolic::is_whole_type(&c.expr(set)?, &c.types.given_sets)
                {
                    typings.push(k);
                }
            }
            for k in typings.into_iter().rev() {
                guard_parts.remove(k);
            }
            let mut next = rest;
            while let SubstKind::Block(inner) = &next.kind {
                next = inner;
            }
            if let (SubstKind::Any(vars, condition, _), true) = (&next.kind, np > 0) {
                let names: Vec<String> = vars.iter().map(|v| v.name.clone()).collect();
                guard_parts.extend(
                    conjuncts(condition)
                        .into_iter()
                        .filter(|p| !crate::frontends::b::visit::mentions_any(p, &names)),
                );
            }
            let guard = match (guard_parts.first(), guard_parts.last()) {
                (Some(first), Some(last)) => {
                    let span = first.span.to(last.span);
                    c.solver_of(
                        &op.params,
                        &param_slots,
                        param_types,
                        &guard_parts,
                        span,
                        op.span,
                        Undefined::False,
                    )?
                }
                _ => plan::plan(
                    &op.params,
                    &param_slots,
                    param_types,
                    true,
                    false,
                    Vec::new(),
                    op.span,
                    Undefined::False,
                    c.int_bound(),
                ),
            };
            let unbounded = |guard: &Solver| {
                guard
                    .steps
                    .iter()
                    .any(|s| matches!(s, SolveStep::Bind(_, Gen::Unbounded(..))))
            };
            // Where enumeration has no finite domain, or would try more
            // than AUTO_THRESHOLD candidates in each state (`S : 1..9 & E
            // : 0..9 & ...` of a cryptarithm: 10^8): with
            // `--bound-integers` the plan's MAXINT cut is kept, since a
            // model per state costs milliseconds (ControlFlowR1 of ProB's
            // corpus: 0.03 s enumerated, 19 s solved, the same states).
            let large = || plan::candidate_space(&guard) > super::cp::AUTO_THRESHOLD;
            let by_solver = match param_types {
                Some(types) if np > 0 && (unbounded(&guard) || large()) => {
                    super::compile::binder_view(&op.params, types.to_vec(), &guard)
                }
                _ => None,
            };
            tracing::trace!(
                operation = op.name.name,
                space = plan::candidate_space(&guard),
                by_solver = by_solver.is_some(),
                "parameters"
            );
            for (j, o) in op.outputs.iter().enumerate() {
                c.push_local(&o.name, (nv + np + j) as u32);
            }
            let body = c.subst(rest)?;
            operations.push(Operation {
                name: op.name.name.clone(),
                params: nv..nv + np,
                outputs: nv + np..nv + np + no,
                guard,
                by_solver,
                solver_refused: std::sync::atomic::AtomicU32::new(0),
                solver_answered: std::sync::atomic::AtomicBool::new(false),
                body,
                frame: c.frame_size() as usize,
            });
        }
        let op_frame = operations.iter().map(|o| o.frame).max().unwrap_or(nv);

        Ok(Interpreter {
            given_sets: types.given_sets.clone(),
            free_types: types.free_types.clone(),
            operation_shapes: types.operation_shapes.clone(),
            bound_integers: types.bound_integers,
            bound_in_plans: c.bound_used(),
            bound_at_run_time: std::sync::atomic::AtomicBool::new(false),
            undefined_rejected: std::sync::atomic::AtomicU64::new(0),
            first_undefined: std::sync::OnceLock::new(),
            undefined_blocks: types.undefined_blocks,
            blocked: std::sync::atomic::AtomicU64::new(0),
            first_blocked: std::sync::OnceLock::new(),
            nested_targets: std::mem::take(&mut c.nested_targets),
            maxint: types.maxint,
            minint: types.minint,
            num_variables: nv,
            properties,
            properties_exact,
            properties_parts,
            properties_conjuncts,
            kept_parts: Default::default(),
            constant_solver: types.constant_solver,
            constant_classes: Vec::new(),
            constant_names: machine.constants.iter().map(|k| k.name.clone()).collect(),
            constant_types: types.constants.clone(),
            definitions,
            properties_frame,
            num_constants: nc,
            invariant,
            invariant_reads,
            assertions,
            goal,
            scope,
            ltl_atoms,
            ltl_steps,
            state_frame,
            initialisation,
            initialisation_span: machine
                .initialisation
                .as_ref()
                .map_or(machine.name.span, |s| s.span),
            variable_names: machine.variables.iter().map(|v| v.name.clone()).collect(),
            init_frame,
            operations,
            op_frame,
        })
    }

    /// Every valuation of the constants satisfying PROPERTIES, in a
    /// deterministic order (one empty valuation if there are no constants).
    pub fn constant_valuations(&self) -> Result<Vec<Vec<Value>>, EvalError> {
        use super::cp::Solved;
        let conjuncts = &self.properties_conjuncts;
        let solved = match self.constant_solver {
            _ if self.num_constants == 0 => return self.enumerate_constants(),
            ConstantSolver::Enumerate => return self.enumerate_constants(),
            ConstantSolver::Cp => self.solve_constants(conjuncts, false, false),
            ConstantSolver::Auto => match self.solve_constants(conjuncts, true, true) {
                // An integer bounded only by propagation: enumeration is
                // as exact where its plan does not need that bound
                // (constants defined by equations over sets of pairs).
                Solved::Applies { alone } if !alone || self.properties_exact => {
                    return self.race_for_constants(
                        conjuncts,
                        &|| self.enumerate_constants(),
                        None,
                    );
                }
                Solved::Applies { alone: true } => {
                    match self.solve_constants(conjuncts, false, false) {
                        Solved::Unsupported(_) => return self.enumerate_constants(),
                        other => other,
                    }
                }
                // Few candidates to the solver's encoding, but enumeration's
                // plan may draw from a far larger set (`adr : POW(E * E) &
                // adr : P --> B`): both race, once enumeration alone has
                // not answered within its head start.
                Solved::Small if self.enumeration_space() > super::cp::RACE_THRESHOLD => {
                    return self.race_for_constants(
                        conjuncts,
                        &|| self.enumerate_constants(),
                        Some(super::cp::ENUMERATION_HEAD_START),
                    );
                }
                Solved::Unsupported(_) | Solved::Small => return self.enumerate_constants(),
                other => other,
            },
        };
        match solved {
            Solved::Valuations(valuations) => Ok(valuations),
            Solved::Stopped(reason) => Err(EvalError {
                span: self.properties.span,
                message: "stopped while solving the constants".into(),
                stopped: Some(reason),
            }),
            Solved::Unsupported(u) | Solved::UnsatWithinRange(u) => Err(EvalError {
                span: u.span,
                message: format!(
                    "not supported yet by the constraint solver (--solver cp): {}; \
                     --solver enumerate enumerates instead",
                    u.what
                ),
                stopped: None,
            }),
            Solved::Small | Solved::Applies { .. } => self.enumerate_constants(),
        }
    }

    /// Candidate valuations of the constants that PROPERTIES rejected
    /// because it applies a function outside its domain for them: where it
    /// first did, and how many (ProB's solver rejects them so too; its
    /// interpreter would report the application).
    pub fn undefined_rejections(&self) -> Option<(Span, u64)> {
        let n = self
            .undefined_rejected
            .load(std::sync::atomic::Ordering::Relaxed);
        Some((*self.first_undefined.get()?, n))
    }

    /// Counts a candidate that `solver` rejected because evaluating it
    /// failed with `e`, a function applied outside its domain.
    pub(super) fn rejected_as_undefined(&self, solver: &Solver, e: &Fail) {
        if matches!(solver.undefined, Undefined::Counted | Undefined::Constants) {
            self.first_undefined.get_or_init(|| e.span);
            self.undefined_rejected
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// How many candidates [`Self::rejected_as_undefined`] has counted.
    pub(super) fn undefined_rejection_count(&self) -> u64 {
        self.undefined_rejected
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Counts `n` candidates rejected as undefined again: those a reused
    /// value's computation rejected (see [`super::memo`]).
    pub(super) fn count_undefined_rejections(&self, n: u64) {
        self.undefined_rejected
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// Every valuation of the constants, by the plan's enumeration; none
    /// when every candidate applies a function outside its domain is the
    /// error it is.
    fn enumerate_constants(&self) -> Result<Vec<Vec<Value>>, EvalError> {
        let out = self.enumerate_valuations()?;
        if out.is_empty()
            && let Some((span, _)) = self.undefined_rejections()
        {
            return Err(EvalError {
                span,
                message: "PROPERTIES has no solution: each valuation of the constants \
                          that reaches this point has a function applied outside its domain"
                    .into(),
                stopped: None,
            });
        }
        Ok(out)
    }

    /// The candidates enumeration would generate for the constants (each
    /// part of PROPERTIES solved alone; see [`plan::candidate_space`]).
    fn enumeration_space(&self) -> f64 {
        match &self.properties_parts {
            Some(parts) => parts.iter().map(plan::candidate_space).sum(),
            None => plan::candidate_space(&self.properties),
        }
    }

    /// Every valuation of the constants, by the plan's enumeration.
    fn enumerate_valuations(&self) -> Result<Vec<Vec<Value>>, EvalError> {
        let mut env = Env {
            consts: &[],
            frame: vec![unset(); self.properties_frame],
            pending: Default::default(),
        };
        let mut out = Vec::new();
        let nc = self.num_constants;
        if let Some(parts) = &self.properties_parts {
            // Part by part, the smallest first: a part without solution
            // ends the search.
            let mut per_part: Vec<Vec<Vec<Value>>> = vec![Vec::new(); parts.len()];
            for k in super::components::solving_order(parts) {
                let part = &parts[k];
                let mut found = Vec::new();
                self.solve(part, &mut env, &mut |env| {
                    found.push(
                        part.vars
                            .iter()
                            .map(|&s| env.frame[s as usize].clone())
                            .collect(),
                    );
                    Ok(true)
                })?;
                if found.is_empty() {
                    return Ok(Vec::new());
                }
                per_part[k] = found;
            }
            let slots: Vec<&[u32]> = parts.iter().map(|p| p.vars.as_slice()).collect();
            return Ok(super::components::product(&per_part, &slots, nc, unset()));
        }
        self.solve(&self.properties, &mut env, &mut |env| {
            out.push(env.frame[..nc].to_vec());
            Ok(true)
        })?;
        Ok(out)
    }

    /// Calls `emit` with the variables of every outcome of INITIALISATION.
    pub fn initialise(
        &self,
        constants: &[Value],
        emit: &mut dyn FnMut(&[Value]),
    ) -> Result<(), EvalError> {
        self.initialise_while(constants, &mut |variables| {
            emit(variables);
            true
        })
    }

    /// The variables of every outcome of INITIALISATION from `constants`
    /// if there are at most `limit`; `None` where there are more (listing
    /// stops at the first beyond `limit`: there may be billions).
    pub fn initial_states_upto(
        &self,
        constants: &[Value],
        limit: usize,
    ) -> Result<Option<Vec<Vec<Value>>>, EvalError> {
        let (mut found, mut complete) = (Vec::new(), true);
        self.initialise_while(constants, &mut |variables| {
            complete = found.len() < limit;
            if complete {
                found.push(variables.to_vec());
            }
            complete
        })?;
        Ok(complete.then_some(found))
    }

    /// [`Interpreter::initialise`], stopping once `emit` returns false.
    fn initialise_while(
        &self,
        constants: &[Value],
        emit: &mut dyn FnMut(&[Value]) -> bool,
    ) -> Result<(), EvalError> {
        let mut done = false;
        let mut env = Env {
            consts: constants,
            frame: vec![unset(); self.init_frame],
            pending: Default::default(),
        };
        let nv = self.num_variables;
        for slot in &mut env.frame[..nv] {
            *slot = super::undefined();
        }
        match &self.initialisation {
            Some(init) => self.exec(init, &mut env, &mut |env| {
                if let Some(k) = env.frame[..nv].iter().position(super::is_undefined) {
                    return Err(super::Fail::new(
                        self.initialisation_span,
                        format!(
                            "INITIALISATION ends without assigning `{}`",
                            self.variable_names[k]
                        ),
                    ));
                }
                if !emit(&env.frame[..nv]) {
                    // Unwinds the enumeration; not an error (see below).
                    done = true;
                    return Err(super::Fail::stopped(
                        self.initialisation_span,
                        workers::StopReason::MaxStates,
                    ));
                }
                Ok(())
            }),
            None => {
                emit(&[]);
                Ok(())
            }
        }
        .or_else(|e| if done { Ok(()) } else { Err(e) })?;
        Ok(())
    }

    /// Calls `emit` for every enabled operation instance from the state
    /// `variables`: operations in declaration order, parameters in the
    /// order the guard enumerates them (ascending for `p : S`).
    pub fn successors(
        &self,
        constants: &[Value],
        variables: &[Value],
        emit: &mut dyn FnMut(&Step<'_>),
    ) -> Result<(), EvalError> {
        let mut env = self.operation_env(constants, variables);
        for op in 0..self.operations.len() {
            self.run_operation(op, &mut env, emit)?;
        }
        Ok(())
    }

    /// Calls `emit` for every enabled instance of operation `op` alone from
    /// the state `variables` (as [`Interpreter::successors`] does for all
    /// operations). Used by analyses that run operations one at a time.
    pub fn operation_successors(
        &self,
        op: usize,
        constants: &[Value],
        variables: &[Value],
        emit: &mut dyn FnMut(&Step<'_>),
    ) -> Result<(), EvalError> {
        let mut env = self.operation_env(constants, variables);
        self.run_operation(op, &mut env, emit)
    }

    /// The evaluation frame for running operations from a state: the
    /// variables, then room for parameters, outputs and locals. Built once
    /// per state and shared by all its operations.
    fn operation_env<'a>(&self, constants: &'a [Value], variables: &[Value]) -> Env<'a> {
        let mut frame = Vec::with_capacity(self.op_frame);
        frame.extend_from_slice(variables);
        frame.resize(self.op_frame, unset());
        Env {
            consts: constants,
            frame,
            pending: Default::default(),
        }
    }

    /// Emits every enabled instance of operation `op` from the state in `env`.
    fn run_operation(
        &self,
        op: usize,
        env: &mut Env<'_>,
        emit: &mut dyn FnMut(&Step<'_>),
    ) -> Result<(), EvalError> {
        let nv = self.num_variables;
        let o = &self.operations[op];
        for slot in o.outputs.clone() {
            env.frame[slot] = super::undefined();
        }
        // The body from the parameters in the frame.
        let mut body = |env: &mut Env<'_>| {
            let run = self.exec(&o.body, env, &mut |env| {
                emit(&Step {
                    op,
                    params: &env.frame[o.params.clone()],
                    outputs: &env.frame[o.outputs.clone()],
                    variables: &env.frame[..nv],
                });
                Ok(())
            });
            match run {
                Err(e)
                    if self.undefined_blocks
                        && e.outside_domain
                        && !self.nested_targets.contains(&e.span) =>
                {
                    self.first_blocked.get_or_init(|| e.span);
                    self.blocked
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    Ok(())
                }
                other => other,
            }
        };
        use std::sync::atomic::Ordering::Relaxed;
        let hopeless =
            || !o.solver_answered.load(Relaxed) && o.solver_refused.load(Relaxed) >= SOLVER_TRIES;
        if let (Some(p), false) = (
            &o.by_solver,
            self.constant_solver == ConstantSolver::Enumerate || hopeless(),
        ) {
            let base = o.params.start;
            let solved = self.solve_binder(base, p, env, Search::Parameters);
            if solved.is_some() {
                o.solver_answered.store(true, Relaxed);
            } else {
                o.solver_refused.fetch_add(1, Relaxed);
            }
            match solved {
                Some(Ok(valuations)) => {
                    for valuation in valuations {
                        env.frame[o.params.clone()].clone_from_slice(&valuation);
                        body(env)?;
                    }
                    return Ok(());
                }
                Some(Err(e)) => return Err(e),
                // Beyond the solver in this state: enumerated.
                None => {}
            }
        }
        let run: R<bool> = self.solve(&o.guard, env, &mut |env| {
            body(env)?;
            Ok(true)
        });
        run?;
        Ok(())
    }

    /// Transitions that `--undefined-blocks` did not take because the
    /// operation's body applied a function outside its domain, and where
    /// the first did; `None` if none.
    pub fn blocked_transitions(&self) -> Option<(Span, u64)> {
        let n = self.blocked.load(std::sync::atomic::Ordering::Relaxed);
        Some((*self.first_blocked.get()?, n))
    }

    /// Whether `--bound-integers` cut anything: a plan that enumerates an
    /// integer nothing bounds within MININT..MAXINT, or an infinite
    /// integer set enumerated or built so far.
    pub fn used_integer_bound(&self) -> bool {
        self.bound_in_plans
            || self
                .bound_at_run_time
                .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Number of top-level conjuncts of the invariant, split as
    /// [`super::conjuncts`] splits it.
    pub fn invariant_conjunct_count(&self) -> usize {
        self.invariant.len()
    }

    /// Whether top-level invariant conjunct `i` holds in the state.
    pub fn invariant_conjunct_holds(
        &self,
        i: usize,
        constants: &[Value],
        variables: &[Value],
    ) -> Result<bool, EvalError> {
        let mut env = self.state_env(constants, variables);
        Ok(self.holds(&self.invariant[i].0, &mut env)?)
    }

    /// The first false top-level conjunct of the invariant, if any.
    pub fn check_invariant(
        &self,
        constants: &[Value],
        variables: &[Value],
    ) -> Result<Option<PropertyFailure>, EvalError> {
        self.first_false(&self.invariant, constants, variables)
    }

    /// [`Interpreter::check_invariant`] with two kinds of conjuncts left
    /// out. With `changed` (by variable index), the state differs from one
    /// where the whole invariant held only in the variables it marks: the
    /// conjuncts that read none of them held there and still hold (a
    /// conjunct is a function of the variables it reads). And the
    /// conjuncts that `vouched` marks (by conjunct index; shorter: none
    /// beyond it) are known to hold in this state from how it is stored.
    /// The others are evaluated, in order. Most operations write few
    /// variables, and most invariant conjuncts read few.
    pub fn check_invariant_except(
        &self,
        constants: &[Value],
        variables: &[Value],
        changed: Option<&[bool]>,
        vouched: &[bool],
    ) -> Result<Option<PropertyFailure>, EvalError> {
        let mut env = None;
        for (i, ((p, text), reads)) in self.invariant.iter().zip(&self.invariant_reads).enumerate()
        {
            if vouched.get(i).copied().unwrap_or(false) {
                continue;
            }
            if let Some(changed) = changed
                && !reads
                    .iter()
                    .any(|&v| changed.get(v).copied().unwrap_or(true))
            {
                continue;
            }
            let env = env.get_or_insert_with(|| self.state_env(constants, variables));
            if !self.holds(p, env)? {
                return Ok(Some(PropertyFailure {
                    span: p.span,
                    text: text.clone(),
                }));
            }
        }
        Ok(None)
    }

    /// The spans of the invariant's top-level conjuncts, in the order
    /// [`Interpreter::check_invariant_except`] numbers them.
    pub fn invariant_spans(&self) -> impl Iterator<Item = Span> + '_ {
        self.invariant.iter().map(|(p, _)| p.span)
    }

    /// The first false assertion, if any.
    pub fn check_assertions(
        &self,
        constants: &[Value],
        variables: &[Value],
    ) -> Result<Option<PropertyFailure>, EvalError> {
        self.first_false(&self.assertions, constants, variables)
    }

    fn first_false(
        &self,
        preds: &[(CPred, String)],
        constants: &[Value],
        variables: &[Value],
    ) -> Result<Option<PropertyFailure>, EvalError> {
        if preds.is_empty() {
            return Ok(None);
        }
        let mut env = self.state_env(constants, variables);
        for (p, text) in preds {
            if !self.holds(p, &mut env)? {
                return Ok(Some(PropertyFailure {
                    span: p.span,
                    text: text.clone(),
                }));
            }
        }
        Ok(None)
    }

    fn state_env<'a>(&self, constants: &'a [Value], variables: &[Value]) -> Env<'a> {
        let mut frame = Vec::with_capacity(self.state_frame);
        frame.extend_from_slice(variables);
        frame.resize(self.state_frame.max(variables.len()), unset());
        Env {
            consts: constants,
            frame,
            pending: Default::default(),
        }
    }

    /// Does the machine define `GOAL`?
    pub fn has_goal(&self) -> bool {
        self.goal.is_some()
    }

    /// Whether the machine has a `SCOPE == P` definition.
    pub fn has_scope(&self) -> bool {
        self.scope.is_some()
    }

    /// Does the state satisfy `SCOPE` (true if there is none)? A state
    /// that does not is not expanded.
    pub fn in_scope(&self, constants: &[Value], variables: &[Value]) -> Result<bool, EvalError> {
        match &self.scope {
            Some(s) => Ok(self.holds(s, &mut self.state_env(constants, variables))?),
            None => Ok(true),
        }
    }

    /// Does the state satisfy `GOAL` (false if there is none)?
    pub fn goal(&self, constants: &[Value], variables: &[Value]) -> Result<bool, EvalError> {
        match &self.goal {
            Some(g) => Ok(self.holds(g, &mut self.state_env(constants, variables))?),
            None => Ok(false),
        }
    }

    /// The index of the LTL predicate atom written as `text`, if the
    /// machine was loaded with it.
    pub fn ltl_atom_index(&self, text: &str) -> Option<usize> {
        self.ltl_atoms.iter().position(|(t, _)| t == text)
    }

    /// Whether LTL predicate atom `k` holds in the state.
    pub fn ltl_atom(
        &self,
        k: usize,
        constants: &[Value],
        variables: &[Value],
    ) -> Result<bool, EvalError> {
        Ok(self.holds(
            &self.ltl_atoms[k].1,
            &mut self.state_env(constants, variables),
        )?)
    }

    /// The index of the LTL step atom with arguments written as `text`, if
    /// the machine was loaded with it.
    pub fn ltl_step_index(&self, text: &str) -> Option<usize> {
        self.ltl_steps.iter().position(|(t, _)| t == text)
    }

    /// The values of LTL step atom `k`'s arguments in the state (`None`:
    /// any value).
    pub fn ltl_step_arguments(
        &self,
        k: usize,
        constants: &[Value],
        variables: &[Value],
    ) -> Result<Vec<Option<Value>>, EvalError> {
        let mut env = self.state_env(constants, variables);
        let mut out = Vec::new();
        for arg in &self.ltl_steps[k].1 {
            out.push(match arg {
                None => None,
                Some(e) => Some(self.eval(e, &mut env)?),
            });
        }
        Ok(out)
    }

    /// Number of operations (the range of [`Step::op`]).
    pub fn operation_count(&self) -> usize {
        self.operations.len()
    }

    /// The name of operation `op`.
    pub fn operation_name(&self, op: usize) -> &str {
        &self.operations[op].name
    }

    /// A value printed as ProB prints it, the records `shape` locates with
    /// their field names.
    pub fn format_shaped(
        &self,
        v: &Value,
        shape: &crate::frontends::b::types::ValueShape,
    ) -> String {
        v.display_shaped(&self.given_sets, shape, &self.free_types)
            .to_string()
    }

    /// The name of free type number `k`.
    pub(crate) fn free_type_name(&self, k: u32) -> &str {
        self.free_types
            .get(k as usize)
            .map_or("?", |f| f.name.as_str())
    }

    /// A value printed as ProB prints it: `{PID1,PID2}`, `(a|->b)`, `[a,b]`.
    pub fn format_value(&self, v: &Value) -> String {
        format_with(&self.given_sets, v)
    }

    /// A ProB-style transition label: `op`, `op(PID1,2)`, `op(PID1) --> 3`,
    /// `op --> (3,TRUE)` for several outputs.
    pub fn format_step(&self, step: &Step<'_>) -> String {
        let mut out = self
            .operations
            .get(step.op)
            .map_or_else(|| format!("op{}", step.op), |o| o.name.clone());
        let shapes = self.operation_shapes.get(step.op);
        let show = |k: usize, v: &Value| match shapes.and_then(|s| s.get(k)) {
            // An output the operation left unassigned (B allows it: any
            // value of its type).
            _ if super::is_undefined(v) => "?".to_string(),
            Some(shape) => self.format_shaped(v, shape),
            None => self.format_value(v),
        };
        let n = step.params.len();
        if !step.params.is_empty() {
            let params: Vec<String> = step
                .params
                .iter()
                .enumerate()
                .map(|(k, v)| show(k, v))
                .collect();
            out.push('(');
            out.push_str(&params.join(","));
            out.push(')');
        }
        match step.outputs {
            [] => {}
            [v] => {
                out.push_str(" --> ");
                out.push_str(&show(n, v));
            }
            vs => {
                let outs: Vec<String> =
                    vs.iter().enumerate().map(|(k, v)| show(n + k, v)).collect();
                out.push_str(" --> (");
                out.push_str(&outs.join(","));
                out.push(')');
            }
        }
        out
    }
}

/// The constant a top-level conjunct `c = e` (or `e = c`) of PROPERTIES
/// defines, when it is set-valued: its index and `e`.
fn defined_constant<'m>(
    conj: &'m crate::frontends::b::ast::Expr,
    machine: &Machine,
    types: &[Type],
) -> Option<(usize, &'m crate::frontends::b::ast::Expr)> {
    use crate::frontends::b::ast::{BinaryOp, ExprKind};
    let ExprKind::Binary(BinaryOp::Eq, a, b) = &conj.kind else {
        return None;
    };
    let constant = |x: &crate::frontends::b::ast::Expr| match &x.kind {
        ExprKind::Ident(name) => machine
            .constants
            .iter()
            .position(|c| &c.name == name)
            .filter(|&k| matches!(types.get(k), Some(Type::Set(_)))),
        _ => None,
    };
    if let Some(k) = constant(a) {
        Some((k, &**b))
    } else {
        constant(b).map(|k| (k, &**a))
    }
}

/// Refusals of an operation's guard by the solver, in as many states,
/// after which enumeration alone finds its parameters.
const SOLVER_TRIES: u32 = 8;
