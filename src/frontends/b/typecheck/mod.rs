//! Type checker of classical B machines.
//!
//! [`check_machine`] takes a parsed [`Machine`] and returns the facts the
//! rest of orbit needs: the given sets, numbered and sized
//! (module `given_sets`), `MAXINT`/`MININT`, and the type of every constant,
//! variable, operation parameter and output, and of every bound variable.
//!
//! Typing follows the type-checking rules of the B-Book (J.-R. Abrial, *The
//! B-Book*, 1996), as ProB applies them: each
//! constant, variable, parameter and bound variable starts with an unknown
//! type (a type variable), and every predicate, expression and substitution
//! of the machine adds equations between types: `x : S` makes `x` an
//! element of `S`, `f(a)` makes `f` a relation whose domain holds `a`, and
//! so on. The equations are solved by unification (module `unify`) over the whole
//! machine in one pass, so the cost is close to linear in the machine's size.
//! The operators `-` and `*` mean integer or set operations depending on
//! their operands' types: `-` has the same type on both sides and its result
//! in either case; `*` is decided as soon as one side is known, and the
//! undecided ones are revisited once everything else is unified. At the end
//! every named thing must have a fully known type.
//!
//! `MAXINT`, `MININT` and the default size of deferred sets are ProB's
//! defaults (3, -1 and 2: preferences `MAXINT`, `MININT`, `DEFAULT_SETSIZE`)
//! unless [`CheckOptions`] say otherwise; [`machine_preferences`] reads the
//! machine's own `SET_PREF_...` definitions so a front end can merge them
//! under its command-line options.
//!
//! Scoping: sets and enumerated elements are visible everywhere; constants
//! everywhere but in `CONSTRAINTS`; variables in `INVARIANT`, `ASSERTIONS`,
//! `INITIALISATION`, operations and `GOAL` (not in `PROPERTIES`); operation
//! parameters and outputs in their operation; bound variables in their
//! construct, shadowing outer names.

mod checker;
mod expr;
pub(crate) mod given_sets;
mod operators;
mod preferences;
mod scope;
mod subst;
#[cfg(test)]
mod tests;
mod unify;

pub use given_sets::{PROB_DEFAULT_MAXINT, PROB_DEFAULT_MININT, PROB_DEFAULT_SET_SIZE};
pub use preferences::{MachinePreferences, definition_bool, machine_preferences};
pub use unify::type_to_string;

use crate::diag::Diagnostic;
use crate::frontends::b::ast::Machine;
use checker::Checker;
pub(crate) use checker::PendingMul;
use scope::Clause;
use std::collections::HashSet;
pub(crate) use subst::possibly_assigned;

/// How deferred sets get their size and how `NAT`/`INT` are bounded.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// `--set X=n` overrides: the size of deferred set `X` (the last one for
    /// a name wins). They take precedence over `scope_X` and `card(X) = n`.
    pub set_sizes: Vec<(String, u32)>,
    /// Size of a deferred set nothing else sizes; ProB's `DEFAULT_SETSIZE`
    /// is [`PROB_DEFAULT_SET_SIZE`] (2).
    pub default_set_size: u32,
    /// `MAXINT` (`--maxint n`, or `SET_PREF_MAXINT == n` through
    /// [`machine_preferences`]); by default [`PROB_DEFAULT_MAXINT`] (3, as ProB).
    pub maxint: Option<i64>,
    /// `MININT` (`--minint n`, or `SET_PREF_MININT == n` through
    /// [`machine_preferences`]); by default [`PROB_DEFAULT_MININT`] (-1, as ProB).
    pub minint: Option<i64>,
}

impl Default for CheckOptions {
    /// ProB's defaults: deferred sets of size 2, `MAXINT = 3`, `MININT = -1`.
    fn default() -> Self {
        CheckOptions {
            set_sizes: Vec::new(),
            default_set_size: PROB_DEFAULT_SET_SIZE,
            maxint: None,
            minint: None,
        }
    }
}

pub use crate::frontends::b::types::{MachineTypes, OperationTypes};

/// Checks a machine: fixes its given sets and infers every type.
///
/// Errors come back as diagnostics pointing at the offending source, in
/// source order of discovery; several are collected where that is easy.
pub fn check_machine(
    machine: &Machine,
    options: &CheckOptions,
) -> Result<MachineTypes, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let numbered = given_sets::number_given_sets(machine, options, &mut diags);
    let (maxint, minint) = given_sets::integer_bounds(machine, options, &mut diags);
    let mut checker = Checker::new(
        numbered.sets.iter().map(|s| s.name.clone()).collect(),
        diags,
    );
    checker.scope.set_params = machine.params.len() as u32;
    checker.refines = machine.refines.as_ref().map(|r| r.name.clone());

    let (constants, variables) = checker.declare_machine_names(machine, &numbered);

    // Clauses, in the order ProB reads them.
    if let Some(c) = &machine.constraints {
        checker.clause = Clause::Constraints;
        checker.pred(c);
    }
    checker.clause = Clause::Properties;
    if let Some(p) = &machine.properties {
        checker.pred(p);
    }
    checker.clause = Clause::Dynamic;
    if let Some(inv) = &machine.invariant {
        checker.pred(inv);
    }
    for a in &machine.assertions {
        checker.pred(a);
    }
    checker.initialisation(machine);
    let mut op_names: HashSet<&str> = HashSet::new();
    let mut op_terms = Vec::new();
    for op in &machine.operations {
        if !op_names.insert(&op.name.name) {
            checker.error(Diagnostic::error(
                op.name.span,
                format!("operation `{}` is declared twice", op.name.name),
            ));
        }
        op_terms.push(checker.operation(op));
    }
    if let Some(goal) = &machine.goal {
        checker.pred(goal);
    }
    if let Some(scope) = &machine.scope {
        checker.pred(scope);
    }
    for step in &machine.ltl_steps {
        // An unknown operation is refused by the LTL check, by name.
        let Some(k) = machine
            .operations
            .iter()
            .position(|o| o.name.name == step.op)
        else {
            continue;
        };
        let before = checker.diags.len();
        let params = &op_terms[k].0;
        // `[op()]` takes any arguments, as `[op]`.
        if !step.args.is_empty() && step.args.len() != params.len() {
            let span = step
                .args
                .iter()
                .flatten()
                .next()
                .map_or(crate::diag::Span::default(), |e| e.span);
            checker.error(Diagnostic::error(
                span,
                format!(
                    "`{}` has {} parameter(s), the atom gives {} argument(s)",
                    step.op,
                    params.len(),
                    step.args.len()
                ),
            ));
        } else {
            for (arg, &param) in step.args.iter().zip(params) {
                if let Some(arg) = arg {
                    checker.expect(arg, param);
                }
            }
        }
        for d in &mut checker.diags[before..] {
            d.message = format!("in the LTL atom `{}`: {}", step.text, d.message);
        }
    }
    for (text, atom) in &machine.ltl_atoms {
        // The atom's tokens stand where it is written in its ASSERT_LTL
        // definition (at the file's start, for --ltl): its errors name it.
        let before = checker.diags.len();
        checker.pred(atom);
        for d in &mut checker.diags[before..] {
            d.message = format!("in the LTL atom `{{{text}}}`: {}", d.message);
        }
    }
    checker.settle_overloads();
    let fields = checker.settle_fields();

    let mut shapes: Vec<crate::frontends::b::types::ValueShape> = constants
        .iter()
        .chain(&variables)
        .map(|&t| checker.terms.value_shape(t))
        .collect();
    if shapes
        .iter()
        .all(|s| *s == crate::frontends::b::types::ValueShape::Plain)
    {
        shapes.clear();
    }
    let mut operation_shapes: Vec<Vec<crate::frontends::b::types::ValueShape>> = op_terms
        .iter()
        .map(|(params, outputs)| {
            params
                .iter()
                .chain(outputs)
                .map(|&t| checker.terms.value_shape(t))
                .collect()
        })
        .collect();
    if operation_shapes
        .iter()
        .flatten()
        .all(|s| *s == crate::frontends::b::types::ValueShape::Plain)
    {
        operation_shapes.clear();
    }
    // Everything named must now have a known type.
    let report = checker.diags.is_empty();
    let constants = checker.resolve_all(&machine.constants, &constants, report, |c| {
        format!("cannot infer the type of constant `{c}`: add a typing predicate such as `{c} : S` to the PROPERTIES")
    });
    let variables = checker.resolve_all(&machine.variables, &variables, report, |v| {
        format!("cannot infer the type of variable `{v}`: add a typing predicate such as `{v} : S` to the INVARIANT")
    });
    let mut operations = Vec::new();
    for (op, (params, outputs)) in machine.operations.iter().zip(&op_terms) {
        let o = &op.name.name;
        let params = checker.resolve_all(&op.params, params, report, |p| {
            format!(
                "cannot infer the type of parameter `{p}` of operation `{o}`: add a typing predicate such as `{p} : S` to its precondition"
            )
        });
        let outputs = checker.resolve_all(&op.outputs, outputs, report, |r| {
            format!("cannot infer the type of output `{r}` of operation `{o}`: assign it a value of a known type")
        });
        operations.push(OperationTypes { params, outputs });
    }
    let bound = checker.bound_types(report);
    let closures = checker.closure_types();
    let printed_with_names = checker.printed_with_names();
    let free_types = checker.free_types(machine);
    if !checker.diags.is_empty() {
        return Err(checker.diags);
    }
    Ok(MachineTypes {
        given_sets: numbered.sets,
        constants,
        variables,
        operations,
        bound,
        closures,
        printed_with_names,
        fields,
        shapes,
        operation_shapes,
        free_types,
        maxint,
        minint,
        bound_integers: false,
        undefined_blocks: false,
        static_symmetry: None,
        simultaneous_assignments: false,
        constant_solver: Default::default(),
    })
}

/// The names a substitution may assign.
fn frame(s: &crate::frontends::b::ast::Subst) -> HashSet<&str> {
    let mut targets = Vec::new();
    subst::possibly_assigned(s, &mut targets);
    targets.into_iter().map(|id| id.name.as_str()).collect()
}
