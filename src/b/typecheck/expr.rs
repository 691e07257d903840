//! Typing rules of B predicates and expressions.
//!
//! [`Checker::pred`] checks a predicate, [`Checker::infer`] returns the type
//! of an expression. Each rule is the B-Book's: e.g. `dom(r)` needs `r` of
//! type `POW(A*B)` and has type `POW(A)`; it is written as unifications with
//! fresh type variables for `A` and `B`. An ill-typed part is reported where
//! it was written and typed as a fresh variable, so checking carries on and
//! finds further independent errors.

use super::scope::{Binding, What};
use super::unify::{Shape, TermId};
use super::{Checker, PendingMul};
use crate::b::ast::{
    BinaryOp, Builtin, BuiltinConstant, Expr, ExprKind, Ident, QuantifiedExprKind, Quantifier,
    UnaryOp,
};
use crate::diag::{Diagnostic, Span};

/// Whether a binary operator builds a predicate.
fn is_predicate_op(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(
        op,
        Eq | Neq
            | Member
            | NotMember
            | Subset
            | StrictSubset
            | NotSubset
            | NotStrictSubset
            | Lt
            | Le
            | Gt
            | Ge
            | And
            | Or
            | Implies
            | Equiv
    )
}

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

    fn expect_int(&mut self, e: &Expr) {
        let int = self.terms.int();
        self.expect(e, int);
    }

    /// Checks that `e` is a set and returns its element type.
    fn elements_of(&mut self, e: &Expr) -> TermId {
        let t = self.infer(e);
        self.element_type(e.span, t)
    }

    /// The element type of set type `t` (of the expression at `span`).
    fn element_type(&mut self, span: Span, t: TermId) -> TermId {
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
    fn relation_of(&mut self, e: &Expr) -> (TermId, TermId) {
        let t = self.infer(e);
        self.relation_parts(e.span, t, "a relation")
    }

    fn relation_parts(&mut self, span: Span, t: TermId, what: &str) -> (TermId, TermId) {
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
    fn seq_of(&mut self, e: &Expr) -> TermId {
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
            ExprKind::Int(_) => self.terms.int(),
            ExprKind::Str(_) => self.terms.string(),
            ExprKind::True | ExprKind::False => self.terms.bool(),
            ExprKind::Constant(c) => self.constant(*c),
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::Quantifier(..) => {
                self.predicate_as_expression(e)
            }
            ExprKind::Unary(op, a) => self.unary(*op, a),
            ExprKind::Binary(op, _, _) if is_predicate_op(*op) => self.predicate_as_expression(e),
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
        }
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

    fn constant(&mut self, c: BuiltinConstant) -> TermId {
        use BuiltinConstant::*;
        match c {
            Nat | Nat1 | Int | Natural | Natural1 | Integer => {
                let i = self.terms.int();
                self.terms.set(i)
            }
            Bool => {
                let b = self.terms.bool();
                self.terms.set(b)
            }
            String => {
                let s = self.terms.string();
                self.terms.set(s)
            }
            MaxInt | MinInt => self.terms.int(),
            EmptySet => {
                let v = self.terms.var();
                self.terms.set(v)
            }
            EmptySeq => {
                let v = self.terms.var();
                self.terms.seq(v)
            }
        }
    }

    fn unary(&mut self, op: UnaryOp, a: &Expr) -> TermId {
        use UnaryOp::*;
        match op {
            Minus | Succ | Pred => {
                self.expect_int(a);
                self.terms.int()
            }
            Not => {
                // Only reached through `infer`'s routing, kept total for safety.
                self.pred(a);
                self.terms.var()
            }
            Inverse => {
                let (x, y) = self.relation_of(a);
                self.terms.relation(y, x)
            }
            Card => {
                self.elements_of(a);
                self.terms.int()
            }
            Dom => {
                let (x, _) = self.relation_of(a);
                self.terms.set(x)
            }
            Ran => {
                let (_, y) = self.relation_of(a);
                self.terms.set(y)
            }
            Pow | Pow1 | Fin | Fin1 => {
                let t = self.infer(a);
                self.element_type(a.span, t);
                self.terms.set(t)
            }
            GeneralUnion | GeneralInter => {
                let set = self.elements_of(a);
                self.element_type(a.span, set);
                set
            }
            Min | Max => {
                let int = self.terms.int();
                let ints = self.terms.set(int);
                self.expect(a, ints);
                int
            }
            Id => {
                let x = self.elements_of(a);
                self.terms.relation(x, x)
            }
            Closure | Closure1 => {
                let (x, y) = self.relation_of(a);
                self.unify_at(a.span, x, y);
                self.terms.relation(x, x)
            }
            Seq | Seq1 | Iseq | Iseq1 | Perm => {
                let x = self.elements_of(a);
                let s = self.terms.seq(x);
                self.terms.set(s)
            }
            First | Last => self.seq_of(a),
            Front | Tail | Rev => {
                let x = self.seq_of(a);
                self.terms.seq(x)
            }
            Size => {
                self.seq_of(a);
                self.terms.int()
            }
            Conc => {
                let inner = self.seq_of(a);
                let x = self.terms.var();
                let s = self.terms.seq(x);
                self.unify_at(a.span, s, inner);
                s
            }
            Fnc => {
                let (x, y) = self.relation_of(a);
                let ys = self.terms.set(y);
                self.terms.relation(x, ys)
            }
            Rel => {
                let (x, ys) = self.relation_of(a);
                let y = self.element_type(a.span, ys);
                self.terms.relation(x, y)
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, span: Span) -> TermId {
        use BinaryOp::*;
        match op {
            Add | Div | Mod | Power => {
                self.expect_int(a);
                self.expect_int(b);
                self.terms.int()
            }
            Minus => {
                let t = self.infer(a);
                self.expect(b, t);
                self.check_minus_type(span, t);
                t
            }
            Mul => {
                let (left, right) = (self.infer(a), self.infer(b));
                let result = self.terms.var();
                let m = PendingMul {
                    span,
                    left,
                    right,
                    result,
                };
                if !self.decide_mul(&m) {
                    self.pending_mul.push(m);
                }
                result
            }
            Interval => {
                self.expect_int(a);
                self.expect_int(b);
                let i = self.terms.int();
                self.terms.set(i)
            }
            Union | Inter => {
                let t = self.infer(a);
                self.element_type(a.span, t);
                self.expect(b, t);
                t
            }
            Maplet => {
                let (x, y) = (self.infer(a), self.infer(b));
                self.terms.pair(x, y)
            }
            Relation | PartialFunction | TotalFunction | PartialInjection | TotalInjection
            | PartialSurjection | TotalSurjection | PartialBijection | TotalBijection => {
                let (x, y) = (self.elements_of(a), self.elements_of(b));
                let rel = self.terms.relation(x, y);
                self.terms.set(rel)
            }
            DomainRestriction | DomainSubtraction => {
                let x = self.elements_of(a);
                let t = self.infer(b);
                let (dom, _) = self.relation_parts(b.span, t, "a relation");
                let xs = self.terms.set(x);
                let doms = self.terms.set(dom);
                self.unify_at(a.span, doms, xs);
                t
            }
            RangeRestriction | RangeSubtraction => {
                let t = self.infer(a);
                let (_, ran) = self.relation_parts(a.span, t, "a relation");
                let rans = self.terms.set(ran);
                self.expect(b, rans);
                t
            }
            Override => {
                let t = self.infer(a);
                self.relation_parts(a.span, t, "a relation");
                self.expect(b, t);
                t
            }
            DirectProduct => {
                let (x, y) = self.relation_of(a);
                let (x2, z) = self.relation_of(b);
                let d = self.terms.set(x);
                let d2 = self.terms.set(x2);
                self.unify_at(b.span, d, d2);
                let yz = self.terms.pair(y, z);
                self.terms.relation(x, yz)
            }
            Composition => {
                let (x, y) = self.relation_of(a);
                let (y2, z) = self.relation_of(b);
                let ys = self.terms.set(y);
                let y2s = self.terms.set(y2);
                self.unify_at(b.span, ys, y2s);
                self.terms.relation(x, z)
            }
            ParallelProduct => {
                let (x, y) = self.relation_of(a);
                let (u, v) = self.relation_of(b);
                let xu = self.terms.pair(x, u);
                let yv = self.terms.pair(y, v);
                self.terms.relation(xu, yv)
            }
            Append => {
                let x = self.seq_of(a);
                self.expect(b, x);
                self.terms.seq(x)
            }
            Prepend => {
                let x = self.infer(a);
                let s = self.terms.seq(x);
                self.expect(b, s);
                s
            }
            Concat => {
                let x = self.seq_of(a);
                let s = self.terms.seq(x);
                self.expect(b, s);
                s
            }
            TakeFront | DropFront => {
                let x = self.seq_of(a);
                self.expect_int(b);
                self.terms.seq(x)
            }
            // Predicates were sent to `pred` by `infer`.
            Eq | Neq | Member | NotMember | Subset | StrictSubset | NotSubset | NotStrictSubset
            | Lt | Le | Gt | Ge | And | Or | Implies | Equiv => self.terms.var(),
        }
    }

    fn call(&mut self, builtin: Builtin, args: &[Expr], span: Span) -> TermId {
        if args.len() != 2 {
            let name = match builtin {
                Builtin::Prj1 => "prj1",
                Builtin::Prj2 => "prj2",
                Builtin::Iterate => "iterate",
            };
            self.error(Diagnostic::error(
                span,
                format!("`{name}` takes 2 arguments, found {}", args.len()),
            ));
            return self.terms.var();
        }
        match builtin {
            Builtin::Prj1 | Builtin::Prj2 => {
                let (x, y) = (self.elements_of(&args[0]), self.elements_of(&args[1]));
                let xy = self.terms.pair(x, y);
                let result = if builtin == Builtin::Prj1 { x } else { y };
                self.terms.relation(xy, result)
            }
            Builtin::Iterate => {
                let (x, y) = self.relation_of(&args[0]);
                self.unify_at(args[0].span, x, y);
                self.expect_int(&args[1]);
                self.terms.relation(x, x)
            }
        }
    }

    /// Types `*` if one of its operands or its result is known; returns whether it did.
    pub(crate) fn decide_mul(&mut self, m: &PendingMul) -> bool {
        let shapes = [
            self.terms.shape(m.left),
            self.terms.shape(m.right),
            self.terms.shape(m.result),
        ];
        if shapes.contains(&Shape::Int)
            || shapes
                .iter()
                .any(|s| !matches!(s, Shape::Var | Shape::Set(_)))
        {
            // Integer product (or an error, reported as "expected INTEGER").
            let int = self.terms.int();
            self.unify_at(m.span, int, m.left);
            self.unify_at(m.span, int, m.right);
            self.terms.unify(int, m.result).ok();
            true
        } else if shapes.iter().any(|s| matches!(s, Shape::Set(_))) {
            let x = self.element_type(m.span, m.left);
            let y = self.element_type(m.span, m.right);
            let product = self.terms.relation(x, y);
            self.unify_at(m.span, m.result, product);
            true
        } else {
            false
        }
    }

    /// Reports `-` on a type that is neither INTEGER nor a set (or defers the check).
    pub(crate) fn check_minus_type(&mut self, span: Span, t: TermId) {
        match self.terms.shape(t) {
            Shape::Int | Shape::Set(_) => {}
            Shape::Var => self.pending_minus.push((span, t)),
            _ => {
                let found = self.show(t);
                self.error(Diagnostic::error(
                    span,
                    format!("`-` needs two integers or two sets, found {found}"),
                ));
            }
        }
    }
}
