//! Typing rules of B's operators: built-in constants, unary and binary
//! operators, and the multi-argument built-ins.
//!
//! Each rule is the B-Book's, written as unifications with fresh type
//! variables: e.g. `dom(r)` needs `r : POW(A*B)` and has type `POW(A)`;
//! `r ; s` needs `r : POW(A*B)`, `s : POW(B*C)` and has type `POW(A*C)`.
//! `-` and `*` are overloaded on integers and sets; see [`Checker::decide_mul`].

use super::unify::{Shape, TermId};
use super::{Checker, PendingMul};
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{BinaryOp, Builtin, BuiltinConstant, Expr, UnaryOp};

impl Checker {
    pub(crate) fn constant(&mut self, c: BuiltinConstant) -> TermId {
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

    pub(crate) fn unary(&mut self, op: UnaryOp, a: &Expr) -> TermId {
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
                if op == Closure {
                    self.closures.push((a.span, x));
                }
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

    pub(crate) fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, span: Span) -> TermId {
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
                    left: (left, a.span),
                    right: (right, b.span),
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

    pub(crate) fn call(&mut self, builtin: Builtin, args: &[Expr], span: Span) -> TermId {
        // ProB's one-argument projections: a component of a pair.
        if args.len() == 1 && matches!(builtin, Builtin::Prj1 | Builtin::Prj2) {
            let (x, y) = (self.terms.var(), self.terms.var());
            let pair = self.terms.pair(x, y);
            self.expect(&args[0], pair);
            return if builtin == Builtin::Prj1 { x } else { y };
        }
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
        let ((left, left_span), (right, right_span)) = (m.left, m.right);
        let shapes = [
            self.terms.shape(left),
            self.terms.shape(right),
            self.terms.shape(m.result),
        ];
        if shapes.contains(&Shape::Int)
            || shapes
                .iter()
                .any(|s| !matches!(s, Shape::Var | Shape::Set(_)))
        {
            // Integer product (or an error, reported as "expected INTEGER").
            let int = self.terms.int();
            self.unify_at(left_span, int, left);
            self.unify_at(right_span, int, right);
            self.terms.unify(int, m.result).ok();
            true
        } else if shapes.iter().any(|s| matches!(s, Shape::Set(_))) {
            // Cartesian product `POW(A) * POW(B) : POW(A*B)`.
            let x = self.element_type(left_span, left);
            let y = self.element_type(right_span, right);
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
