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

mod expr;
mod given_sets;
mod operators;
mod preferences;
mod scope;
mod subst;
#[cfg(test)]
mod tests;
mod unify;

pub use given_sets::{PROB_DEFAULT_MAXINT, PROB_DEFAULT_MININT, PROB_DEFAULT_SET_SIZE};
pub use preferences::{MachinePreferences, machine_preferences};
pub use unify::type_to_string;

use crate::b::ast::{Ident, Machine};
use crate::b::types::Type;
use crate::diag::{Diagnostic, Span};
use scope::{Binding, Clause, Scope, What};
use std::collections::{HashMap, HashSet};
use unify::{TermId, Terms};

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

pub use crate::b::types::{MachineTypes, OperationTypes};

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
    checker.settle_overloads();

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
    if !checker.diags.is_empty() {
        return Err(checker.diags);
    }
    Ok(MachineTypes {
        given_sets: numbered.sets,
        constants,
        variables,
        operations,
        bound,
        maxint,
        minint,
    })
}

/// The names a substitution may assign.
fn frame(s: &crate::b::ast::Subst) -> HashSet<&str> {
    let mut targets = Vec::new();
    subst::possibly_assigned(s, &mut targets);
    targets.into_iter().map(|id| id.name.as_str()).collect()
}

/// An occurrence of `*` whose meaning is not known yet: operands and result.
pub(crate) struct PendingMul {
    span: Span,
    left: TermId,
    right: TermId,
    result: TermId,
}

/// State of one type-checking run.
pub(crate) struct Checker {
    terms: Terms,
    scope: Scope,
    clause: Clause,
    set_names: Vec<String>,
    diags: Vec<Diagnostic>,
    /// `*` not yet known to be a product of integers or of sets.
    pending_mul: Vec<PendingMul>,
    /// `-` whose type must turn out to be INTEGER or a set.
    pending_minus: Vec<(Span, TermId)>,
    /// Bound variables: binder span, name, type.
    bound: Vec<(Span, String, TermId)>,
    /// Unknown names already reported (each is reported once).
    reported_unknown: HashSet<String>,
    /// Name of the operation being checked, for messages.
    operation: Option<String>,
    /// The machine this one refines, for messages about names it may declare.
    refines: Option<String>,
}

impl Checker {
    fn new(set_names: Vec<String>, diags: Vec<Diagnostic>) -> Self {
        Checker {
            terms: Terms::default(),
            scope: Scope::default(),
            clause: Clause::Dynamic,
            set_names,
            diags,
            pending_mul: Vec::new(),
            pending_minus: Vec::new(),
            bound: Vec::new(),
            reported_unknown: HashSet::new(),
            operation: None,
            refines: None,
        }
    }

    /// Records an error.
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// A term in B notation.
    fn show(&mut self, t: TermId) -> String {
        self.terms.display(t, &self.set_names)
    }

    /// Unifies `found` (the type of the expression at `span`) with `expected`;
    /// reports "expected X, found Y" on failure.
    fn unify_at(&mut self, span: Span, expected: TermId, found: TermId) -> bool {
        match self.terms.unify(expected, found) {
            Ok(()) => true,
            Err(why) => {
                let (e, f) = (self.show(expected), self.show(found));
                let d = match why {
                    unify::Mismatch::Infinite => Diagnostic::error(
                        span,
                        format!("type mismatch: {f} would have to contain itself"),
                    ),
                    unify::Mismatch::Clash => {
                        Diagnostic::error(span, format!("expected {e}, found {f}"))
                    }
                };
                self.error(d);
                false
            }
        }
    }

    /// Declares a machine-level name, reporting a duplicate.
    fn declare(&mut self, name: &str, span: Span, what: What, term: TermId) {
        if let Err(old) = self.scope.declare_global(name, Binding { what, term }) {
            self.error(
                Diagnostic::error(span, format!("`{name}` is declared twice"))
                    .with_label(format!("declared again as a {}", what.describe()))
                    .with_note(format!(
                        "`{name}` is already declared as a {}",
                        old.what.describe()
                    )),
            );
        }
    }

    /// Declares a machine-level name with a fresh type; returns the type.
    fn declare_fresh(&mut self, ident: &Ident, what: What) -> TermId {
        let term = self.terms.var();
        self.declare(&ident.name, ident.span, what, term);
        term
    }

    /// Declares the sets, enumerated elements, constants and variables;
    /// returns the types of the constants and of the variables.
    fn declare_machine_names(
        &mut self,
        machine: &Machine,
        numbered: &given_sets::NumberedSets,
    ) -> (Vec<TermId>, Vec<TermId>) {
        for (k, set) in numbered.sets.iter().enumerate() {
            let g = self.terms.given(k as u32);
            let term = self.terms.set(g);
            self.declare(&set.name, numbered.spans[k], What::Set(k as u32), term);
            for (name, span) in set.elements.iter().zip(&numbered.element_spans[k]) {
                let term = self.terms.given(k as u32);
                self.declare(name, *span, What::Element(k as u32), term);
            }
        }
        let constants = machine
            .constants
            .iter()
            .enumerate()
            .map(|(i, c)| self.declare_fresh(c, What::Constant(i)))
            .collect();
        let variables = machine
            .variables
            .iter()
            .enumerate()
            .map(|(i, v)| self.declare_fresh(v, What::Variable(i)))
            .collect();
        (constants, variables)
    }

    /// Checks the INITIALISATION, which must assign every variable.
    fn initialisation(&mut self, machine: &Machine) {
        let Some(init) = &machine.initialisation else {
            if let Some(v) = machine.variables.first() {
                self.error(Diagnostic::error(
                    v.span,
                    format!(
                        "the machine has variables (`{}`, ...) but no INITIALISATION",
                        v.name
                    ),
                ));
            }
            return;
        };
        self.subst(init);
        let assigned = frame(init);
        for v in machine
            .variables
            .iter()
            .filter(|v| !assigned.contains(v.name.as_str()))
        {
            self.error(
                Diagnostic::error(v.span, format!("variable `{}` is not initialised", v.name))
                    .with_label("never assigned by the INITIALISATION"),
            );
        }
    }

    /// The resolved types of the bound variables, keyed by binder span;
    /// reports the unresolved ones if `report`.
    fn bound_types(&mut self, report: bool) -> HashMap<(u32, u32), Type> {
        let mut bound = HashMap::new();
        let mut ambiguous = HashSet::new();
        for (span, name, term) in std::mem::take(&mut self.bound) {
            match self.terms.resolve(term) {
                Some(ty) => {
                    // A binder inside a definition expanded at several types has
                    // one span but several types: leave it out rather than lie.
                    let key = (span.start, span.end);
                    if ambiguous.contains(&key) {
                        continue;
                    }
                    if bound.get(&key).is_some_and(|old| *old != ty) {
                        bound.remove(&key);
                        ambiguous.insert(key);
                    } else {
                        bound.insert(key, ty);
                    }
                }
                None if report => {
                    let known = self.show(term);
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "cannot infer the type of `{name}`: add a typing predicate such as `{name} : S`"
                            ),
                        )
                        .with_note(format!("what is known of its type: {known}")),
                    );
                }
                None => {}
            }
        }
        bound
    }

    /// Resolves the types of declared names, reporting the unknown ones if `report`.
    fn resolve_all(
        &mut self,
        idents: &[Ident],
        terms: &[TermId],
        report: bool,
        message: impl Fn(&str) -> String,
    ) -> Vec<Type> {
        let mut out = Vec::with_capacity(terms.len());
        for (ident, &term) in idents.iter().zip(terms) {
            match self.terms.resolve(term) {
                Some(ty) => out.push(ty),
                None => {
                    if report {
                        let known = self.show(term);
                        let mut d = Diagnostic::error(ident.span, message(&ident.name));
                        if known != "?" {
                            d = d.with_note(format!("what is known of its type: {known}"));
                        }
                        self.error(d);
                    }
                    out.push(Type::Int); // placeholder: the result is an error anyway
                }
            }
        }
        out
    }

    /// Checks one operation; returns the types of its parameters and outputs.
    fn operation(&mut self, op: &crate::b::ast::Operation) -> (Vec<TermId>, Vec<TermId>) {
        self.operation = Some(op.name.name.clone());
        let mark = self.scope.mark();
        let mut seen: HashSet<String> = HashSet::new();
        let mut declare = |this: &mut Self, ident: &Ident, what: What| -> TermId {
            if !seen.insert(ident.name.clone()) {
                this.error(Diagnostic::error(
                    ident.span,
                    format!(
                        "`{}` is declared twice in the header of operation `{}`",
                        ident.name, op.name.name
                    ),
                ));
            }
            let term = this.terms.var();
            this.scope.push_local(&ident.name, Binding { what, term });
            term
        };
        let params: Vec<TermId> = op
            .params
            .iter()
            .map(|p| declare(self, p, What::Param))
            .collect();
        let outputs: Vec<TermId> = op
            .outputs
            .iter()
            .map(|r| declare(self, r, What::Output))
            .collect();
        self.subst(&op.body);
        let assigned = frame(&op.body);
        for r in &op.outputs {
            if !assigned.contains(r.name.as_str()) {
                self.error(
                    Diagnostic::error(
                        r.span,
                        format!(
                            "output `{}` of operation `{}` is never assigned",
                            r.name, op.name.name
                        ),
                    )
                    .with_label("no assignment to it in the operation's body"),
                );
            }
        }
        self.scope.truncate(mark);
        self.operation = None;
        (params, outputs)
    }

    /// Decides the pending `*` operators (repeatedly, as each decision may
    /// decide others) and checks the pending `-`.
    fn settle_overloads(&mut self) {
        loop {
            let before = self.pending_mul.len();
            let pending = std::mem::take(&mut self.pending_mul);
            for m in pending {
                if !self.decide_mul(&m) {
                    self.pending_mul.push(m);
                }
            }
            if self.pending_mul.len() == before || self.pending_mul.is_empty() {
                break;
            }
        }
        let undecided = std::mem::take(&mut self.pending_mul);
        if self.diags.is_empty() {
            for m in undecided {
                self.error(
                    Diagnostic::error(
                        m.span,
                        "cannot tell whether `*` multiplies integers or builds a cartesian product",
                    )
                    .with_note("type one of its operands, e.g. with `x : INTEGER` or `x : POW(S)`"),
                );
            }
        }
        for (span, t) in std::mem::take(&mut self.pending_minus) {
            if self.terms.shape(t) != unify::Shape::Var {
                self.check_minus_type(span, t);
            }
        }
    }
}
