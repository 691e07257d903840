//! The state of one type-checking run and its machine-level steps:
//! declaring names, checking the INITIALISATION and each operation's
//! header and body, settling the overloaded operators and reading back the
//! inferred types.

use super::scope::{Binding, Clause, Scope, What};
use super::unify::{self, TermId, Terms};
use super::{frame, given_sets};
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{Ident, Machine};
use crate::frontends::b::types::Type;
use std::collections::{HashMap, HashSet};

/// An occurrence of `*` whose meaning is not known yet: operands and result.
pub(crate) struct PendingMul {
    /// The whole `a * b`.
    pub(super) span: Span,
    /// Type and span of `a`.
    pub(super) left: (TermId, Span),
    /// Type and span of `b`.
    pub(super) right: (TermId, Span),
    /// Type of `a * b`.
    pub(super) result: TermId,
}

/// State of one type-checking run.
pub(crate) struct Checker {
    pub(super) terms: Terms,
    pub(super) scope: Scope,
    pub(super) clause: Clause,
    pub(super) set_names: Vec<String>,
    pub(super) diags: Vec<Diagnostic>,
    /// `*` not yet known to be a product of integers or of sets.
    pub(super) pending_mul: Vec<PendingMul>,
    /// `-` whose type must turn out to be INTEGER or a set.
    pub(super) pending_minus: Vec<(Span, TermId)>,
    /// Bound variables: binder span, name, type.
    pub(super) bound: Vec<(Span, String, TermId)>,
    /// `closure(r)`: the span of `r` and the type of the relation's
    /// elements (its identity part is over that whole type).
    pub(super) closures: Vec<(Span, TermId)>,
    /// `TO_STRING(x)`: the span of `x` and its type, which says how
    /// records and free-type values in it print.
    pub(super) printed: Vec<(Span, TermId)>,
    /// Record field accesses `r'f`: the access's span, the record's type,
    /// the field and the access's type; settled once every type is known.
    pub(super) fields: Vec<(Span, TermId, Ident, TermId)>,
    /// Unknown names already reported (each is reported once).
    pub(super) reported_unknown: HashSet<String>,
    /// Name of the operation being checked, for messages.
    pub(super) operation: Option<String>,
    /// The machine this one refines, for messages about names it may declare.
    pub(super) refines: Option<String>,
    /// The argument type of each constructor of each free type (`None`
    /// for a constant constructor).
    pub(super) constructors: Vec<Vec<Option<TermId>>>,
}

impl Checker {
    pub(super) fn new(set_names: Vec<String>, diags: Vec<Diagnostic>) -> Self {
        Checker {
            terms: Terms::default(),
            scope: Scope::default(),
            clause: Clause::Dynamic,
            set_names,
            diags,
            pending_mul: Vec::new(),
            pending_minus: Vec::new(),
            bound: Vec::new(),
            closures: Vec::new(),
            printed: Vec::new(),
            fields: Vec::new(),
            reported_unknown: HashSet::new(),
            operation: None,
            refines: None,
            constructors: Vec::new(),
        }
    }

    /// Records an error.
    pub(super) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// A term in B notation.
    pub(super) fn show(&mut self, t: TermId) -> String {
        self.terms.display(t, &self.set_names)
    }

    /// Unifies `found` (the type of the expression at `span`) with `expected`;
    /// reports "expected X, found Y" on failure.
    pub(super) fn unify_at(&mut self, span: Span, expected: TermId, found: TermId) -> bool {
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
    pub(super) fn declare(&mut self, name: &str, span: Span, what: What, term: TermId) {
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
    pub(super) fn declare_fresh(&mut self, ident: &Ident, what: What) -> TermId {
        let term = self.terms.var();
        self.declare(&ident.name, ident.span, what, term);
        term
    }

    /// Declares the sets, enumerated elements, constants and variables;
    /// returns the types of the constants and of the variables.
    pub(super) fn declare_machine_names(
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
        // After the other names, so that a constant or variable named in a
        // constructor's argument is refused as not a type, not as unknown.
        self.declare_free_types(machine);
        (constants, variables)
    }

    /// Declares the free types and their constructors: a constant
    /// constructor is a value of its type, any other a function from its
    /// argument's type into it (so `cons(1, nil)` and `cons~(l)` are
    /// typed as applications). Every type is declared before any
    /// argument is read, so free types may refer to each other.
    fn declare_free_types(&mut self, machine: &Machine) {
        self.terms.free_names = machine
            .freetypes
            .iter()
            .map(|f| f.name.name.clone())
            .collect();
        for (k, free) in machine.freetypes.iter().enumerate() {
            let t = self.terms.free(k as u32);
            let term = self.terms.set(t);
            self.declare(
                &free.name.name,
                free.name.span,
                What::FreeType(k as u32),
                term,
            );
        }
        for (k, free) in machine.freetypes.iter().enumerate() {
            let mut args = Vec::new();
            for (i, c) in free.constructors.iter().enumerate() {
                let value = self.terms.free(k as u32);
                let what = What::Constructor(k as u32, i as u32);
                let Some(arg) = &c.arg else {
                    self.declare(&c.name.name, c.name.span, what, value);
                    args.push(None);
                    continue;
                };
                let a = if let Some(part) = self.not_a_type(arg) {
                    self.error(
                        Diagnostic::error(
                            part.span,
                            format!(
                                "not supported yet: a constructor argument that is not a type (of `{}`)",
                                c.name.name
                            ),
                        )
                        .with_note("write a type: INTEGER, BOOL, STRING, a set of the SETS clause, a free type, POW(T) or T*U"),
                    );
                    self.terms.var()
                } else {
                    self.elements_of(arg)
                };
                let function = self.terms.relation(a, value);
                self.declare(&c.name.name, c.name.span, what, function);
                args.push(Some(a));
            }
            self.constructors.push(args);
        }
    }

    /// The first part of `e` that is not a type expression (`INTEGER`,
    /// `BOOL`, `STRING`, a given set, a free type, `POW(T)`, `T*U`).
    fn not_a_type<'e>(
        &self,
        e: &'e crate::frontends::b::ast::Expr,
    ) -> Option<&'e crate::frontends::b::ast::Expr> {
        use crate::frontends::b::ast::{BinaryOp, BuiltinConstant, ExprKind, UnaryOp};
        match &e.kind {
            ExprKind::Constant(
                BuiltinConstant::Integer | BuiltinConstant::Bool | BuiltinConstant::String,
            ) => None,
            // An unknown name is reported as such when the argument is typed.
            ExprKind::Ident(name) => match self.scope.global(name).map(|b| b.what) {
                Some(What::Set(_) | What::FreeType(_)) | None => None,
                Some(_) => Some(e),
            },
            ExprKind::Binary(BinaryOp::Mul, a, b) => self.not_a_type(a).or(self.not_a_type(b)),
            ExprKind::Unary(UnaryOp::Pow, a) => self.not_a_type(a),
            _ => Some(e),
        }
    }

    /// The free types with their constructors' argument types, resolved
    /// (an unresolved one was reported with the constructor's typing).
    pub(super) fn free_types(
        &mut self,
        machine: &Machine,
    ) -> Vec<crate::frontends::b::types::FreeType> {
        use crate::frontends::b::types::{Constructor, FreeType, ValueShape};
        let mut out = Vec::new();
        for (free, args) in machine
            .freetypes
            .iter()
            .zip(std::mem::take(&mut self.constructors))
        {
            let constructors = free
                .constructors
                .iter()
                .zip(args)
                .map(|(c, arg)| Constructor {
                    name: c.name.name.clone(),
                    arg: arg.and_then(|a| self.terms.resolve(a)),
                    shape: arg.map_or(ValueShape::Plain, |a| self.terms.value_shape(a)),
                })
                .collect();
            out.push(FreeType {
                name: free.name.name.clone(),
                constructors,
            });
        }
        out
    }

    /// Checks the INITIALISATION, which must assign every variable.
    pub(super) fn initialisation(&mut self, machine: &Machine) {
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
    pub(super) fn bound_types(&mut self, report: bool) -> HashMap<(u32, u32), Type> {
        let mut bound = HashMap::new();
        let mut ambiguous = HashSet::new();
        for (span, name, term) in std::mem::take(&mut self.bound) {
            match self.terms.resolve(term) {
                Some(ty) => {
                    // A binder inside a definition expanded at several types has
                    // one span but several types: leave it out rather than lie.
                    insert_unambiguous(&mut bound, &mut ambiguous, (span.start, span.end), ty);
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

    /// The resolved element types of the relations `closure` is applied
    /// to, keyed by the relation's span (left out where one span has
    /// several types or an unresolved one).
    pub(super) fn closure_types(&mut self) -> HashMap<(u32, u32), Type> {
        let mut closures = HashMap::new();
        let mut ambiguous = HashSet::new();
        for (span, term) in std::mem::take(&mut self.closures) {
            if let Some(ty) = self.terms.resolve(term) {
                insert_unambiguous(&mut closures, &mut ambiguous, (span.start, span.end), ty);
            }
        }
        closures
    }

    /// The arguments of `TO_STRING` that hold records or free-type values
    /// (or whose type stays unknown), by span: orbit does not print those
    /// yet.
    pub(super) fn printed_with_names(&mut self) -> HashSet<(u32, u32)> {
        let mut out = HashSet::new();
        for (span, term) in std::mem::take(&mut self.printed) {
            let plain = self.terms.resolve(term).is_some()
                && self.terms.value_shape(term) == crate::frontends::b::types::ValueShape::Plain;
            if !plain {
                out.insert((span.start, span.end));
            }
        }
        out
    }

    /// Resolves the types of declared names, reporting the unknown ones if `report`.
    pub(super) fn resolve_all(
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
    pub(super) fn operation(
        &mut self,
        op: &crate::frontends::b::ast::Operation,
    ) -> (Vec<TermId>, Vec<TermId>) {
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
    pub(super) fn settle_overloads(&mut self) {
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

/// Records `value` for `key` in `map`, unless `key` was given another value
/// before: then it is left out for good (in `ambiguous`), since one source
/// place expanded in several ways has no single answer.
pub(super) fn insert_unambiguous<K, V>(
    map: &mut HashMap<K, V>,
    ambiguous: &mut HashSet<K>,
    key: K,
    value: V,
) where
    K: std::hash::Hash + Eq + Copy,
    V: PartialEq,
{
    if ambiguous.contains(&key) {
        return;
    }
    if map.get(&key).is_some_and(|old| *old != value) {
        map.remove(&key);
        ambiguous.insert(key);
    } else {
        map.insert(key, value);
    }
}
