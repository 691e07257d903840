//! Typing rules of B predicates and expressions.
//!
//! [`Checker::pred`] checks a predicate, [`Checker::infer`] returns the type
//! of an expression. This module has the structural rules: names and their
//! scopes, binders (`!`, `#`, `{x | P}`, `%`, `SIGMA`, ...), application,
//! image, set and sequence enumerations; the operators' rules are in the
//! `operators` module. An ill-typed part is reported where it was written
//! and typed as a fresh variable, so checking carries on and finds further
//! independent errors.

use super::Checker;
use super::scope::{Binding, What};
use super::unify::{Shape, TermId};
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{
    BinaryOp, Expr, ExprKind, Ident, QuantifiedExprKind, Quantifier, UnaryOp,
};
use crate::frontends::b::library::External;

/// The operands of a chain of one associative operator (`P & Q & R`), left to right.
fn flatten(e: &Expr, op: BinaryOp) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Binary(o, a, b) if *o == op => {
                stack.push(b);
                stack.push(a);
            }
            _ => out.push(x),
        }
    }
    out
}

impl Checker {
    /// Checks a predicate.
    pub(crate) fn pred(&mut self, e: &Expr) {
        use BinaryOp::*;
        match &e.kind {
            ExprKind::Binary(op, a, b) => match op {
                And | Or => {
                    // Long conjunctions (big invariants) are walked without
                    // recursion, so their length cannot overflow the stack.
                    for part in flatten(e, *op) {
                        self.pred(part);
                    }
                }
                Implies | Equiv => {
                    self.pred(a);
                    self.pred(b);
                }
                Eq | Neq => {
                    let t = self.infer(a);
                    self.expect(b, t);
                }
                Member | NotMember => {
                    let elem = self.elements_of(b);
                    self.expect(a, elem);
                }
                Subset | StrictSubset | NotSubset | NotStrictSubset => {
                    let elem = self.elements_of(a);
                    let set = self.terms.set(elem);
                    self.expect(b, set);
                }
                Lt | Le | Gt | Ge => {
                    self.expect_int(a);
                    self.expect_int(b);
                }
                _ => self.error(
                    Diagnostic::error(e.span, "expected a predicate, found an expression")
                        .with_note("compare it with `=`, `:` or `<:` to make a predicate"),
                ),
            },
            ExprKind::Unary(UnaryOp::Not, p) => self.pred(p),
            ExprKind::Quantifier(q, ids, body) => {
                let by = match q {
                    Quantifier::ForAll => "`!`",
                    Quantifier::Exists => "`#`",
                };
                let mark = self.bind(ids, What::Bound(by));
                self.pred(body);
                self.scope.truncate(mark);
            }
            // `btrue` and `bfalse`.
            ExprKind::True | ExprKind::False => {}
            ExprKind::Let(ids, defs, body) => {
                let mark = self.bind(ids, What::Bound("LET"));
                self.pred(defs);
                self.pred(body);
                self.scope.truncate(mark);
            }
            ExprKind::IfThenElse(c, a, b) => {
                self.pred(c);
                self.pred(a);
                self.pred(b);
            }
            _ => {
                let errors_before = self.diags.len();
                self.infer(e);
                // An unknown name (e.g. an undefined definition) is error enough.
                if self.diags.len() == errors_before {
                    self.error(
                        Diagnostic::error(e.span, "expected a predicate, found an expression")
                            .with_note("compare it with `=`, `:` or `<:` to make a predicate"),
                    );
                }
            }
        }
    }

    /// Checks that `e` has type `expected`.
    pub(crate) fn expect(&mut self, e: &Expr, expected: TermId) {
        let found = self.infer(e);
        self.unify_at(e.span, expected, found);
    }

    pub(crate) fn expect_int(&mut self, e: &Expr) {
        let int = self.terms.int();
        self.expect(e, int);
    }

    /// Checks that `e` is a set and returns its element type.
    pub(crate) fn elements_of(&mut self, e: &Expr) -> TermId {
        let t = self.infer(e);
        self.element_type(e.span, t)
    }

    /// The element type of set type `t` (of the expression at `span`).
    pub(crate) fn element_type(&mut self, span: Span, t: TermId) -> TermId {
        if let Shape::Set(elem) = self.terms.shape(t) {
            return elem;
        }
        let elem = self.terms.var();
        let set = self.terms.set(elem);
        if self.terms.unify(set, t).is_err() {
            let found = self.show(t);
            self.error(Diagnostic::error(
                span,
                format!("expected a set, found {found}"),
            ));
        }
        elem
    }

    /// Checks that `e` is a relation and returns its domain and range types.
    pub(crate) fn relation_of(&mut self, e: &Expr) -> (TermId, TermId) {
        let t = self.infer(e);
        self.relation_parts(e.span, t, "a relation")
    }

    pub(crate) fn relation_parts(&mut self, span: Span, t: TermId, what: &str) -> (TermId, TermId) {
        if let Shape::Set(p) = self.terms.shape(t)
            && let Shape::Pair(a, b) = self.terms.shape(p)
        {
            return (a, b);
        }
        let (a, b) = (self.terms.var(), self.terms.var());
        let rel = self.terms.relation(a, b);
        if self.terms.unify(rel, t).is_err() {
            let found = self.show(t);
            self.error(Diagnostic::error(
                span,
                format!("expected {what}, found {found}"),
            ));
        }
        (a, b)
    }

    /// Checks that `e` is a sequence and returns its element type.
    pub(crate) fn seq_of(&mut self, e: &Expr) -> TermId {
        let t = self.infer(e);
        let (i, elem) = self.relation_parts(e.span, t, "a sequence");
        let int = self.terms.int();
        if self.terms.unify(int, i).is_err() {
            let found = self.show(t);
            self.error(Diagnostic::error(
                e.span,
                format!("expected a sequence, found {found}"),
            ));
        }
        elem
    }

    /// Binds names with fresh types; returns the scope mark to restore and the types.
    pub(crate) fn bind_terms(&mut self, ids: &[Ident], what: What) -> (usize, Vec<TermId>) {
        let mark = self.scope.mark();
        let mut terms = Vec::with_capacity(ids.len());
        for (i, id) in ids.iter().enumerate() {
            if ids[..i].iter().any(|earlier| earlier.name == id.name) {
                self.error(Diagnostic::error(
                    id.span,
                    format!("`{}` is bound twice here", id.name),
                ));
            }
            let term = self.terms.var();
            self.scope.push_local(&id.name, Binding { what, term });
            self.bound.push((id.span, id.name.clone(), term));
            terms.push(term);
        }
        (mark, terms)
    }

    /// Binds names with fresh types; returns the scope mark to restore.
    pub(crate) fn bind(&mut self, ids: &[Ident], what: What) -> usize {
        self.bind_terms(ids, what).0
    }

    /// The left-nested pair type of several types.
    pub(crate) fn tuple(&mut self, terms: &[TermId]) -> TermId {
        let mut it = terms.iter().copied();
        let first = it.next().unwrap_or_else(|| self.terms.var());
        it.fold(first, |acc, t| self.terms.pair(acc, t))
    }

    /// The type of a name at `span`; unknown or invisible names are reported.
    pub(crate) fn ident(&mut self, name: &str, span: Span) -> Binding {
        let fallback = |this: &mut Self| Binding {
            what: What::Unknown,
            term: this.terms.var(),
        };
        if let Some(b) = self.scope.local(name) {
            return b;
        }
        if let Some(b) = self.scope.global(name) {
            if self.scope.visible(b.what, self.clause) {
                return b;
            }
            let clause = match self.clause {
                super::Clause::Constraints => "CONSTRAINTS",
                _ => "PROPERTIES",
            };
            if self.reported_unknown.insert(name.to_string()) {
                let note = match b.what {
                    What::Variable(_) => {
                        "variables are visible in INVARIANT, ASSERTIONS, INITIALISATION, OPERATIONS and GOAL"
                    }
                    _ => "CONSTRAINTS may only use the machine's parameters",
                };
                let d = Diagnostic::error(
                    span,
                    format!("{} `{name}` cannot be used in {clause}", b.what.describe()),
                )
                .with_note(note);
                self.error(d);
            }
            return fallback(self);
        }
        if let Some(base) = name.strip_suffix("$0") {
            let b = self.ident(base, span);
            if !matches!(
                b.what,
                What::Variable(_) | What::Output | What::Local | What::Unknown
            ) {
                self.error(Diagnostic::error(
                    span,
                    format!(
                        "`{name}` names the value before the substitution, but `{base}` is a {}",
                        b.what.describe()
                    ),
                ));
            }
            return b;
        }
        if self.reported_unknown.insert(name.to_string()) {
            let mut d = Diagnostic::error(span, format!("unknown identifier `{name}`"));
            if let Some(close) = self.scope.suggest(name, self.clause) {
                d = d.with_label(format!("did you mean `{close}`?"));
            }
            if let Some(abstraction) = &self.refines {
                d = d.with_note(format!(
                    "the declarations of `{abstraction}` are not imported: a refinement is checked as a machine in its own right"
                ));
            }
            self.error(d);
        }
        fallback(self)
    }

    /// The type of an expression.
    pub(crate) fn infer(&mut self, e: &Expr) -> TermId {
        match &e.kind {
            ExprKind::Ident(name) => self.ident(name, e.span).term,
            ExprKind::Int(_) | ExprKind::BigInt(_) => self.terms.int(),
            ExprKind::Str(_) => self.terms.string(),
            ExprKind::True | ExprKind::False => self.terms.bool(),
            ExprKind::Constant(c) => self.constant(*c),
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::Quantifier(..) => {
                self.predicate_as_expression(e)
            }
            ExprKind::Unary(op, a) => self.unary(*op, a),
            ExprKind::Binary(op, _, _) if op.is_predicate() => self.predicate_as_expression(e),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Call(builtin, args) => self.call(*builtin, args, e.span),
            ExprKind::Apply(f, args) => {
                let tf = self.infer(f);
                let (dom, ran) = self.relation_parts(f.span, tf, "a function");
                let arg = self.args_tuple(args);
                let span = args
                    .first()
                    .map_or(e.span, |a| a.span.to(args[args.len() - 1].span));
                self.unify_at(span, dom, arg);
                ran
            }
            ExprKind::Image(r, s) => {
                let (dom, ran) = self.relation_of(r);
                let set = self.terms.set(dom);
                self.expect(s, set);
                self.terms.set(ran)
            }
            ExprKind::SetEnum(items) => {
                let elem = self.same_types(items);
                self.terms.set(elem)
            }
            ExprKind::SeqEnum(items) => {
                let elem = self.same_types(items);
                self.terms.seq(elem)
            }
            ExprKind::Comprehension(ids, p) => {
                let (mark, terms) = self.bind_terms(ids, What::Bound("a set comprehension"));
                self.pred(p);
                let tuple = self.tuple(&terms);
                self.scope.truncate(mark);
                self.terms.set(tuple)
            }
            ExprKind::Lambda(ids, p, body) => {
                let (mark, terms) = self.bind_terms(ids, What::Bound("`%`"));
                self.pred(p);
                let ran = self.infer(body);
                let dom = self.tuple(&terms);
                self.scope.truncate(mark);
                self.terms.relation(dom, ran)
            }
            ExprKind::QuantifiedExpr(kind, ids, p, body) => {
                let by = match kind {
                    QuantifiedExprKind::Sum => "SIGMA",
                    QuantifiedExprKind::Product => "PI",
                    QuantifiedExprKind::Union => "UNION",
                    QuantifiedExprKind::Inter => "INTER",
                };
                let mark = self.bind(ids, What::Bound(by));
                self.pred(p);
                let t = match kind {
                    QuantifiedExprKind::Sum | QuantifiedExprKind::Product => {
                        self.expect_int(body);
                        self.terms.int()
                    }
                    QuantifiedExprKind::Union | QuantifiedExprKind::Inter => {
                        let elem = self.elements_of(body);
                        self.terms.set(elem)
                    }
                };
                self.scope.truncate(mark);
                t
            }
            ExprKind::BoolOf(p) => {
                self.pred(p);
                self.terms.bool()
            }
            ExprKind::IfThenElse(c, a, b) => {
                self.pred(c);
                let t = self.infer(a);
                self.expect(b, t);
                t
            }
            ExprKind::Let(ids, defs, body) => {
                let mark = self.bind(ids, What::Bound("LET"));
                self.pred(defs);
                let t = self.infer(body);
                self.scope.truncate(mark);
                t
            }
            ExprKind::Record(fields) => {
                let (names, terms) = self.record_terms(fields, false);
                self.terms.record(names, &terms)
            }
            ExprKind::Struct(fields) => {
                let (names, terms) = self.record_terms(fields, true);
                let record = self.terms.record(names, &terms);
                self.terms.set(record)
            }
            ExprKind::External(f, args) => self.external(*f, args),
            ExprKind::RecordWith(r, field, value) => {
                let record = self.infer(r);
                let value = self.infer(value);
                self.fields.push((e.span, record, field.clone(), value));
                record
            }
            ExprKind::Field(r, field) => {
                let record = self.infer(r);
                let result = self.terms.var();
                self.fields.push((e.span, record, field.clone(), result));
                // Known now: type the access now, so later uses see it.
                if let Some(fields) = self.terms.record_fields(record)
                    && let Some((_, t)) = fields.iter().find(|(n, _)| *n == field.name)
                {
                    self.unify_at(e.span, result, *t);
                }
                result
            }
        }
    }

    /// The type of a call of an external function, checking its arguments.
    fn external(&mut self, f: External, args: &[Expr]) -> TermId {
        use External::*;
        let string = self.terms.string();
        let int = self.terms.int();
        let strings = self.terms.seq(string);
        let ints = self.terms.seq(int);
        let (params, result): (Vec<TermId>, TermId) = match f {
            StringAppend => (vec![string, string], string),
            StringLength | StringToInt => (vec![string], int),
            StringConc => (vec![strings], string),
            StringJoin => (vec![strings, string], string),
            StringSplit => (vec![string, string], strings),
            StringChars => (vec![string], strings),
            StringCodes => (vec![string], ints),
            CodesToString => (vec![ints], string),
            StringToUpper | StringToLower => (vec![string], string),
            IntToString => (vec![int], string),
            SubString => (vec![string, int, int], string),
            Choose | Maximize | Minimize => {
                let elem = self.terms.var();
                let set = self.terms.set(elem);
                (vec![set], elem)
            }
            StringIsInt => (vec![string], self.terms.bool()),
            AssertTrue => (vec![self.terms.bool(), string], self.terms.bool()),
            AssertExpr => {
                let value = self.terms.var();
                (vec![self.terms.bool(), string, value], value)
            }
            Less => {
                let value = self.terms.var();
                (vec![value, value], self.terms.bool())
            }
            Closure1 => {
                let elem = self.terms.var();
                let relation = self.terms.relation(elem, elem);
                (vec![relation], relation)
            }
            Printf => (vec![string, self.terms.var()], self.terms.bool()),
            Fprintf => (vec![string, string, self.terms.var()], self.terms.bool()),
            StringContainsString => (vec![string, string], self.terms.bool()),
            FormatToString => {
                let value = self.terms.var();
                let values = self.terms.seq(value);
                (vec![string, values], string)
            }
            Force => {
                let value = self.terms.var();
                (vec![value], value)
            }
            Enumerate => (vec![self.terms.var()], self.terms.bool()),
            Vprintf => {
                let value = self.terms.var();
                (vec![string, value], value)
            }
            Fvprintf => {
                let value = self.terms.var();
                (vec![string, string, value], value)
            }
            Observe | Tobserve => (vec![self.terms.var()], self.terms.bool()),
            Argc => (vec![], int),
            IntToDecString => (vec![int, int], string),
            DecStringToInt => (vec![string, int], int),
            ToString => {
                let value = self.terms.var();
                if let Some(a) = args.first() {
                    self.printed.push((a.span, value));
                }
                (vec![value], string)
            }
            ShaHash => (vec![self.terms.var()], ints),
            ShaHashHex => (vec![self.terms.var()], string),
            Hash => (vec![self.terms.var()], int),
            Sin | Cos | Tan | Msb | Abs | BitNot => (vec![int], int),
            SinX | CosX | TanX | Gcd | BitAnd | BitOr | BitXor | BitShiftLeft | BitShiftRight => {
                (vec![int, int], int)
            }
            LogX => (vec![int, int, int], int),
            PrologFun => (vec![string, int, int], int),
            Random => (vec![int, int], int),
            RandomElement => {
                let elem = self.terms.var();
                (vec![self.terms.set(elem)], elem)
            }
            RandomSubset => {
                let elem = self.terms.var();
                let set = self.terms.set(elem);
                (vec![set], set)
            }
            Sccs => {
                let node = self.terms.var();
                let relation = self.terms.relation(node, node);
                let component = self.terms.set(node);
                (vec![relation], self.terms.set(component))
            }
            Argv => (vec![int], string),
        };
        for (a, p) in args.iter().zip(params) {
            self.expect(a, p);
        }
        result
    }

    /// Field names (sorted) and the types of their values (or of the
    /// elements of their sets, for `struct`).
    fn record_terms(&mut self, fields: &[(Ident, Expr)], sets: bool) -> (Vec<String>, Vec<TermId>) {
        let mut sorted: Vec<&(Ident, Expr)> = fields.iter().collect();
        sorted.sort_by(|a, b| a.0.name.cmp(&b.0.name));
        let terms = sorted
            .iter()
            .map(|(_, e)| {
                if sets {
                    self.elements_of(e)
                } else {
                    self.infer(e)
                }
            })
            .collect();
        (sorted.iter().map(|(n, _)| n.name.clone()).collect(), terms)
    }

    /// Resolves every field access once all types are known: its index
    /// among the record's fields and their number, by the access's span
    /// (see [`crate::frontends::b::types::MachineTypes::fields`]).
    pub(super) fn settle_fields(
        &mut self,
    ) -> std::collections::HashMap<crate::frontends::b::types::FieldKey, (u32, u32)> {
        let mut out = std::collections::HashMap::new();
        let mut ambiguous = std::collections::HashSet::new();
        for (span, record, field, result) in std::mem::take(&mut self.fields) {
            let Some(fields) = self.terms.record_fields(record) else {
                let found = self.show(record);
                self.error(
                    Diagnostic::error(span, format!("`'{}` needs a record, found {found}", field.name))
                        .with_note("records are built with `rec(a: 1, b: TRUE)` and typed with `struct(a: NAT, b: BOOL)`"),
                );
                continue;
            };
            let Some(index) = fields.iter().position(|(n, _)| *n == field.name) else {
                let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
                self.error(
                    Diagnostic::error(
                        field.span,
                        format!("the record has no field `{}`", field.name),
                    )
                    .with_note(format!("its fields are: {}", names.join(", "))),
                );
                continue;
            };
            self.unify_at(span, result, fields[index].1);
            // One access expanded at record types that order it apart is
            // left out.
            super::checker::insert_unambiguous(
                &mut out,
                &mut ambiguous,
                crate::frontends::b::types::field_key(span, field.span),
                (index as u32, fields.len() as u32),
            );
        }
        out
    }

    fn predicate_as_expression(&mut self, e: &Expr) -> TermId {
        self.pred(e);
        self.error(
            Diagnostic::error(e.span, "expected an expression, found a predicate")
                .with_note("`bool(P)` turns a predicate into a BOOL value"),
        );
        self.terms.var()
    }

    /// The common type of several expressions (the first one's, checked against the others).
    fn same_types(&mut self, items: &[Expr]) -> TermId {
        let Some((first, rest)) = items.split_first() else {
            return self.terms.var();
        };
        let t = self.infer(first);
        for item in rest {
            self.expect(item, t);
        }
        t
    }

    /// The type of the argument tuple of `f(a, b, ...)`, i.e. of `a |-> b |-> ...`.
    fn args_tuple(&mut self, args: &[Expr]) -> TermId {
        let terms: Vec<TermId> = args.iter().map(|a| self.infer(a)).collect();
        self.tuple(&terms)
    }
}
