//! The translation of the constants' predicate into the CP solver's
//! variables and constraints, and the enumeration of its solutions (see
//! the parent module for what is translated).

use std::sync::Arc;

use pumpkin_conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_core::Solver as Cp;
use pumpkin_core::constraints::{Constraint, NegatableConstraint};
use pumpkin_core::predicate;
use pumpkin_core::predicates::Predicate;
use pumpkin_core::proof::ConstraintTag;
use pumpkin_core::results::{ProblemSolution, SatisfactionResult};
use pumpkin_core::termination::TerminationCondition;
use pumpkin_core::variables::{AffineView, DomainId, Literal, TransformableVariable};

use super::super::ir::{CExpr, CPred, Cmp, EK, IntSet, PK, Slot, Solver};
use super::super::{Env, Fail, Interpreter, plan};
use super::{AUTO_THRESHOLD, Unsupported};
use crate::diag::Span;
use crate::frontends::b::ast::{BinaryOp, QuantifiedExprKind, UnaryOp};
use crate::frontends::b::types::Type;
use crate::frontends::b::value::{Elem, Value};

/// Why a model could not be built.
pub(super) enum Failure {
    /// A construct beyond the translation.
    Unsupported(Unsupported),
    /// A conjunct over known values alone is false: no valuation.
    Unsat,
    /// The run's budget ran out while evaluating.
    Stopped(workers::StopReason),
}

type T<X> = Result<X, Failure>;

fn unsupported(span: Span, what: impl Into<String>) -> Failure {
    Failure::Unsupported(Unsupported {
        span,
        what: what.into(),
    })
}

/// What an integer variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    /// `FALSE` 0, `TRUE` 1.
    Bool,
    /// An element of given set number `.0`, by its index.
    Elem(u32),
}

/// How an unknown value is represented by the solver's variables.
#[derive(Clone, Debug)]
enum Enc {
    Scalar(Kind, DomainId),
    /// A total function: the image of each element of its domain (sorted).
    Function {
        domain: Arc<[Value]>,
        images: Arc<[Enc]>,
    },
}

/// A linear integer term: `Σ cᵢ·xᵢ + k`.
#[derive(Clone, Debug, Default)]
struct Lin {
    terms: Vec<(i64, DomainId)>,
    k: i64,
}

impl Lin {
    fn constant(k: i64) -> Lin {
        Lin {
            terms: Vec::new(),
            k,
        }
    }

    fn var(x: DomainId) -> Lin {
        Lin {
            terms: vec![(1, x)],
            k: 0,
        }
    }

    fn scaled(mut self, c: i64) -> Lin {
        for t in &mut self.terms {
            t.0 *= c;
        }
        self.k *= c;
        self
    }

    fn plus(mut self, other: Lin) -> Lin {
        for (c, x) in other.terms {
            match self.terms.iter_mut().find(|t| t.1 == x) {
                Some(t) => t.0 += c,
                None => self.terms.push((c, x)),
            }
        }
        self.terms.retain(|t| t.0 != 0);
        self.k += other.k;
        self
    }
}

/// A translated expression.
enum Term {
    Lin(Lin),
    Fun(Enc),
    Known(Value),
}

/// Polls the run's budget for the solver.
#[derive(Default)]
struct Budget {
    calls: u32,
    reason: Option<workers::StopReason>,
}

impl TerminationCondition for Budget {
    fn should_stop(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(64) {
            self.reason = workers::budget::tripped();
        }
        self.reason.is_some()
    }
}

/// The solver's model of the constants.
pub(super) struct Model<'i> {
    interp: &'i Interpreter,
    cp: Cp,
    tag: ConstraintTag,
    nc: usize,
    /// Constants whose value is known before solving.
    known: Vec<Option<Value>>,
    /// Encodings of the other constants.
    enc: Vec<Option<Enc>>,
    /// The frame: known constants and the bound variables of unrolled
    /// quantifiers.
    env: Env<'static>,
    /// Every variable of an encoding: a solution is their values.
    decision: Vec<DomainId>,
}

impl<'i> Model<'i> {
    pub(super) fn new(interp: &'i Interpreter) -> Self {
        let mut cp = Cp::default();
        let tag = cp.new_constraint_tag();
        let nc = interp.num_constants;
        Model {
            interp,
            cp,
            tag,
            nc,
            known: vec![None; nc],
            enc: vec![None; nc],
            env: Env {
                consts: &[],
                frame: vec![super::super::unset(); interp.properties_frame],
            },
            decision: Vec::new(),
        }
    }

    /// Builds the model of `conjuncts`: `Ok(false)` when `auto` and the
    /// candidates are few enough to enumerate.
    pub(super) fn build(&mut self, conjuncts: &[CPred], auto: bool) -> T<bool> {
        self.known_constants(conjuncts)?;
        for k in 0..self.nc {
            if self.known[k].is_none() {
                let enc = self.encode_constant(k, conjuncts)?;
                self.enc[k] = Some(enc);
            }
        }
        if auto {
            let space: f64 = self.enc.iter().flatten().map(|e| self.space(e)).product();
            if space <= AUTO_THRESHOLD {
                return Ok(false);
            }
        }
        for c in conjuncts {
            self.post(c)?;
        }
        Ok(true)
    }

    /// Every solution, decoded and sorted.
    pub(super) fn solutions(mut self) -> Result<Vec<Vec<Value>>, workers::StopReason> {
        let mut brancher = self.cp.default_brancher();
        let mut resolver = ResolutionResolver::default();
        let mut budget = Budget::default();
        let mut out = Vec::new();
        loop {
            let values: Vec<i32> = match self.cp.satisfy(&mut brancher, &mut budget, &mut resolver)
            {
                SatisfactionResult::Satisfiable(s) => {
                    let solution = s.solution();
                    self.decision
                        .iter()
                        .map(|&x| solution.get_integer_value(x))
                        .collect()
                }
                SatisfactionResult::Unsatisfiable(..) => break,
                SatisfactionResult::Unknown(..) => {
                    return Err(budget.reason.unwrap_or(workers::StopReason::Interrupted));
                }
            };
            let value_of = |x: DomainId| {
                let i = self
                    .decision
                    .iter()
                    .position(|&d| d == x)
                    .expect("a decision");
                values[i]
            };
            let valuation: Vec<Value> = (0..self.nc)
                .map(|k| match (&self.known[k], &self.enc[k]) {
                    (Some(v), _) => v.clone(),
                    (None, Some(e)) => decode(e, &value_of),
                    (None, None) => unreachable!("every constant is known or encoded"),
                })
                .collect();
            out.push(valuation);
            if self.decision.is_empty() {
                break;
            }
            let block: Vec<Predicate> = self
                .decision
                .iter()
                .zip(&values)
                .map(|(&x, &v)| predicate!(x != v))
                .collect();
            self.cp.add_clause(block, self.tag);
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    // ---- the constants ----

    /// Evaluates the constants defined by an equality with known values,
    /// until none is left.
    fn known_constants(&mut self, conjuncts: &[CPred]) -> T<()> {
        loop {
            let mut changed = false;
            for c in conjuncts {
                let PK::Cmp(Cmp::Eq, a, b) = &c.kind else {
                    continue;
                };
                for (x, e) in [(a, b), (b, a)] {
                    if let EK::Read(Slot::Frame(k)) = x.kind
                        && (k as usize) < self.nc
                        && self.known[k as usize].is_none()
                        && !self.reads_unknown(e)
                    {
                        let v = self.eval(e)?;
                        self.env.frame[k as usize] = v.clone();
                        self.known[k as usize] = Some(v);
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// The encoding of constant `k`: from its typing conjunct, else its type.
    fn encode_constant(&mut self, k: usize, conjuncts: &[CPred]) -> T<Enc> {
        for c in conjuncts {
            if let PK::Member(x, s, false) = &c.kind
                && matches!(x.kind, EK::Read(Slot::Frame(j)) if j as usize == k)
                && self.encodable(s)
            {
                return self.encode(s);
            }
        }
        let name = &self.interp.constant_names[k];
        let span = conjuncts.first().map_or_else(Span::default, |c| c.span);
        match &self.interp.constant_types[k] {
            Type::Bool => Ok(self.scalar(Kind::Bool, 0, 1)),
            Type::Given(s) => {
                let n = self.interp.given_sets[*s as usize].elements.len() as i64;
                if n == 0 {
                    return Err(Failure::Unsat);
                }
                Ok(self.scalar(Kind::Elem(*s), 0, n - 1))
            }
            Type::Int => {
                let (lo, hi) = self.int_bounds_of(k, conjuncts);
                match (lo, hi) {
                    (Some(lo), Some(hi)) => self.int_var(lo, hi, span),
                    _ => Err(unsupported(
                        span,
                        format!("`{name}`: no finite domain (no `{name} : S` nor bounds)"),
                    )),
                }
            }
            t => Err(unsupported(
                span,
                format!("`{name}`: a constant of type {t:?} without `{name} : S --> T`"),
            )),
        }
    }

    /// Bounds of integer constant `k` from top-level comparisons with
    /// known values, else `--bound-integers`' MININT..MAXINT.
    fn int_bounds_of(&mut self, k: usize, conjuncts: &[CPred]) -> (Option<i64>, Option<i64>) {
        let (mut lo, mut hi) = (None::<i64>, None::<i64>);
        for c in conjuncts {
            let PK::Cmp(op, a, b) = &c.kind else { continue };
            let is_k = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(j)) if j as usize == k);
            let (op, other) = if is_k(a) {
                (*op, b)
            } else if is_k(b) {
                (flip(*op), a)
            } else {
                continue;
            };
            if self.reads_unknown(other) {
                continue;
            }
            let Ok(Value::Int(v)) = self.eval(other) else {
                continue;
            };
            match op {
                Cmp::Le => hi = Some(hi.map_or(v, |h| h.min(v))),
                Cmp::Lt => hi = Some(hi.map_or(v - 1, |h| h.min(v - 1))),
                Cmp::Ge => lo = Some(lo.map_or(v, |l| l.max(v))),
                Cmp::Gt => lo = Some(lo.map_or(v + 1, |l| l.max(v + 1))),
                _ => {}
            }
        }
        if self.interp.bound_integers {
            lo = lo.or(Some(self.interp.minint));
            hi = hi.or(Some(self.interp.maxint));
        }
        (lo, hi)
    }

    /// Whether `s` is a set an unknown constant can be encoded as a
    /// member of.
    fn encodable(&self, s: &CExpr) -> bool {
        match &s.kind {
            EK::Binary(op, d, r) if total_function(*op).is_some() => {
                !self.reads_unknown(d) && self.encodable(r)
            }
            EK::Binary(BinaryOp::Interval, a, b) => {
                !self.reads_unknown(a) && !self.reads_unknown(b)
            }
            EK::Ints(_) => true,
            _ => !self.reads_unknown(s) && !is_function_space(s),
        }
    }

    /// The encoding of an unknown member of `s` ([`Self::encodable`]).
    fn encode(&mut self, s: &CExpr) -> T<Enc> {
        if let EK::Binary(op, d, r) = &s.kind
            && total_function(*op).is_some()
        {
            let domain = self.known_set(d)?;
            let images = (0..domain.len())
                .map(|_| self.encode(r))
                .collect::<T<Vec<Enc>>>()?;
            return Ok(Enc::Function {
                domain,
                images: images.into(),
            });
        }
        match self.scalar_set(s)? {
            ScalarSet::Interval(lo, hi) => self.int_var(lo, hi, s.span),
            ScalarSet::Values(kind, values) => {
                if values.is_empty() {
                    return Err(Failure::Unsat);
                }
                let values = to_i32(&values, s.span)?;
                let x = self.cp.new_sparse_integer(values);
                self.decision.push(x);
                Ok(Enc::Scalar(kind, x))
            }
        }
    }

    fn scalar(&mut self, kind: Kind, lo: i64, hi: i64) -> Enc {
        let x = self.cp.new_bounded_integer(lo as i32, hi as i32);
        self.decision.push(x);
        Enc::Scalar(kind, x)
    }

    fn int_var(&mut self, lo: i64, hi: i64, span: Span) -> T<Enc> {
        if lo > hi {
            return Err(Failure::Unsat);
        }
        check_i32(lo, span)?;
        check_i32(hi, span)?;
        Ok(self.scalar(Kind::Int, lo, hi))
    }

    /// Candidate values of an encoding.
    fn space(&self, e: &Enc) -> f64 {
        match e {
            Enc::Scalar(_, x) => {
                (self.cp.upper_bound(x) as f64 - self.cp.lower_bound(x) as f64 + 1.0).max(1.0)
            }
            Enc::Function { images, .. } => images.iter().map(|i| self.space(i)).product(),
        }
    }

    // ---- predicates ----

    /// Posts `p` as true.
    fn post(&mut self, p: &CPred) -> T<()> {
        if !self.pred_reads_unknown(p) {
            return if self.holds(p)? {
                Ok(())
            } else {
                Err(Failure::Unsat)
            };
        }
        match &p.kind {
            PK::And(ps) => ps.iter().try_for_each(|q| self.post(q)),
            PK::ForAll(s, q) => {
                for instance in self.instances(s, p.span)? {
                    self.bind(s, &instance);
                    self.post(q)?;
                }
                Ok(())
            }
            PK::Cmp(op, a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.post_cmp(*op, a, b, p.span)
            }
            PK::Member(x, s, false) if is_function_space(s) => {
                let Term::Fun(enc) = self.term(x)? else {
                    return Err(unsupported(
                        p.span,
                        "membership of a known value in a function space",
                    ));
                };
                self.post_function_space(&enc, s)
            }
            PK::Member(x, s, false) => {
                let x = self.term(x)?;
                let x = self.lin(x, p.span)?;
                self.post_member(x, s)
            }
            _ => {
                let l = self.lit(p)?;
                self.clause(vec![l]);
                Ok(())
            }
        }
    }

    /// A literal true exactly when `p` holds.
    fn lit(&mut self, p: &CPred) -> T<Literal> {
        if !self.pred_reads_unknown(p) {
            let truth = self.holds(p)?;
            return Ok(self.constant_lit(truth));
        }
        match &p.kind {
            PK::Const(b) => Ok(self.constant_lit(*b)),
            PK::And(ps) => {
                let ls = ps.iter().map(|q| self.lit(q)).collect::<T<Vec<_>>>()?;
                Ok(self.and(ls))
            }
            PK::Or(a, b) => {
                let (a, b) = (self.lit(a)?, self.lit(b)?);
                Ok(self.or(vec![a, b]))
            }
            PK::Implies(a, b) => {
                let (a, b) = (self.lit(a)?, self.lit(b)?);
                Ok(self.or(vec![!a, b]))
            }
            PK::Equiv(a, b) => {
                let (a, b) = (self.lit(a)?, self.lit(b)?);
                let (ab, ba) = (self.or(vec![!a, b]), self.or(vec![!b, a]));
                Ok(self.and(vec![ab, ba]))
            }
            PK::Not(a) => Ok(!self.lit(a)?),
            PK::ForAll(s, q) => {
                let mut ls = Vec::new();
                for instance in self.instances(s, p.span)? {
                    self.bind(s, &instance);
                    ls.push(self.lit(q)?);
                }
                Ok(self.and(ls))
            }
            PK::Cmp(op, a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.cmp_lit(*op, a, b, p.span)
            }
            PK::Member(x, s, negated) if !is_function_space(s) => {
                let x = self.term(x)?;
                let x = self.lin(x, p.span)?;
                let l = self.member_lit(x, s)?;
                Ok(if *negated { !l } else { l })
            }
            PK::Member(..) => Err(unsupported(
                p.span,
                "a function space under `or`, `=>`, `not` or a quantifier",
            )),
            PK::Subset(..) => Err(unsupported(p.span, "`<:` over unknown constants")),
            PK::Exists(_) => Err(unsupported(p.span, "`#` over unknown constants")),
        }
    }

    fn constant_lit(&self, truth: bool) -> Literal {
        if truth {
            self.cp.get_true_literal()
        } else {
            self.cp.get_false_literal()
        }
    }

    fn clause(&mut self, ls: Vec<Literal>) {
        pumpkin_constraints::clause(ls, self.tag).post(&mut self.cp);
    }

    /// `l ⇔ ∧ ls`
    fn and(&mut self, ls: Vec<Literal>) -> Literal {
        if ls.len() == 1 {
            return ls[0];
        }
        let l = self.cp.new_literal();
        pumpkin_constraints::conjunction(ls, self.tag).reify(&mut self.cp, l);
        l
    }

    /// `l ⇔ ∨ ls`
    fn or(&mut self, ls: Vec<Literal>) -> Literal {
        if ls.len() == 1 {
            return ls[0];
        }
        let l = self.cp.new_literal();
        pumpkin_constraints::clause(ls, self.tag).reify(&mut self.cp, l);
        l
    }

    /// The solutions of a quantifier's range, which must read only known
    /// values: the values of its bound variables.
    fn instances(&mut self, s: &Solver, span: Span) -> T<Vec<Vec<Value>>> {
        let mut slots = Vec::new();
        plan::pred_slots(
            &CPred {
                kind: PK::Exists(Box::new(s.clone())),
                span,
            },
            &mut slots,
        );
        if slots.iter().any(|&k| self.unknown(k)) {
            return Err(unsupported(
                span,
                "a quantifier whose range depends on unknown constants",
            ));
        }
        let mut out = Vec::new();
        let vars = s.vars.clone();
        self.interp
            .solve(s, &mut self.env, &mut |env| {
                out.push(
                    vars.iter()
                        .map(|&v| env.frame[v as usize].clone())
                        .collect(),
                );
                Ok(true)
            })
            .map_err(|f| self.failure(f))?;
        Ok(out)
    }

    fn bind(&mut self, s: &Solver, instance: &[Value]) {
        for (&v, value) in s.vars.iter().zip(instance) {
            self.env.frame[v as usize] = value.clone();
        }
    }

    fn post_cmp(&mut self, op: Cmp, a: Term, b: Term, span: Span) -> T<()> {
        if let (Term::Fun(_), _) | (_, Term::Fun(_)) = (&a, &b) {
            let l = self.cmp_lit(op, a, b, span)?;
            self.clause(vec![l]);
            return Ok(());
        }
        let (a, b) = (self.lin(a, span)?, self.lin(b, span)?);
        let d = a.plus(b.scaled(-1));
        if d.terms.is_empty() {
            return if compare(op, d.k, 0) {
                Ok(())
            } else {
                Err(Failure::Unsat)
            };
        }
        let (vars, rhs) = self.linear(&d, span)?;
        let tag = self.tag;
        let cp = &mut self.cp;
        match op {
            Cmp::Eq => pumpkin_constraints::equals(vars, rhs, tag).post(cp),
            Cmp::Neq => pumpkin_constraints::not_equals(vars, rhs, tag).post(cp),
            Cmp::Le => pumpkin_constraints::less_than_or_equals(vars, rhs, tag).post(cp),
            Cmp::Lt => pumpkin_constraints::less_than_or_equals(vars, rhs - 1, tag).post(cp),
            Cmp::Ge => pumpkin_constraints::greater_than_or_equals(vars, rhs, tag).post(cp),
            Cmp::Gt => pumpkin_constraints::greater_than_or_equals(vars, rhs + 1, tag).post(cp),
        }
        Ok(())
    }

    fn cmp_lit(&mut self, op: Cmp, a: Term, b: Term, span: Span) -> T<Literal> {
        match (a, b) {
            (Term::Fun(f), other) | (other, Term::Fun(f)) if matches!(op, Cmp::Eq | Cmp::Neq) => {
                let l = self.function_equals(&f, other, span)?;
                Ok(if op == Cmp::Eq { l } else { !l })
            }
            (Term::Fun(_), _) | (_, Term::Fun(_)) => {
                Err(unsupported(span, "an order comparison of functions"))
            }
            (a, b) => {
                let (a, b) = (self.lin(a, span)?, self.lin(b, span)?);
                let d = a.plus(b.scaled(-1));
                if d.terms.is_empty() {
                    return Ok(self.constant_lit(compare(op, d.k, 0)));
                }
                let (vars, rhs) = self.linear(&d, span)?;
                let l = self.cp.new_literal();
                let tag = self.tag;
                let cp = &mut self.cp;
                match op {
                    Cmp::Eq => pumpkin_constraints::equals(vars, rhs, tag).reify(cp, l),
                    Cmp::Neq => pumpkin_constraints::not_equals(vars, rhs, tag).reify(cp, l),
                    Cmp::Le => {
                        pumpkin_constraints::less_than_or_equals(vars, rhs, tag).reify(cp, l)
                    }
                    Cmp::Lt => {
                        pumpkin_constraints::less_than_or_equals(vars, rhs - 1, tag).reify(cp, l)
                    }
                    Cmp::Ge => pumpkin_constraints::less_than_or_equals(negated(&vars), -rhs, tag)
                        .reify(cp, l),
                    Cmp::Gt => {
                        pumpkin_constraints::less_than_or_equals(negated(&vars), -rhs - 1, tag)
                            .reify(cp, l)
                    }
                }
                Ok(l)
            }
        }
    }

    /// A literal for `f = other`, `f` an encoded function and `other` an
    /// encoded function over the same domain or a known function.
    fn function_equals(&mut self, f: &Enc, other: Term, span: Span) -> T<Literal> {
        let Enc::Function { domain, images } = f else {
            unreachable!("Term::Fun holds functions")
        };
        let mut ls = Vec::new();
        match other {
            Term::Fun(Enc::Function {
                domain: d2,
                images: i2,
            }) => {
                if d2 != *domain {
                    return Err(unsupported(
                        span,
                        "equality of functions over different domains",
                    ));
                }
                for (a, b) in images.iter().zip(i2.iter()) {
                    ls.push(self.enc_equals(a, b, span)?);
                }
            }
            Term::Known(v) => {
                let Ok(pairs) = super::super::expr::set(&v, span) else {
                    return Ok(self.constant_lit(false));
                };
                if pairs.len() != domain.len() {
                    return Ok(self.constant_lit(false));
                }
                for (p, (x, img)) in pairs.iter().zip(domain.iter().zip(images.iter())) {
                    let Value::Pair(p) = p else {
                        return Ok(self.constant_lit(false));
                    };
                    if p.0 != *x {
                        return Ok(self.constant_lit(false));
                    }
                    let known = self.known_enc(img, &p.1, span)?;
                    ls.push(known);
                }
            }
            _ => return Ok(self.constant_lit(false)),
        }
        Ok(self.and(ls))
    }

    fn enc_equals(&mut self, a: &Enc, b: &Enc, span: Span) -> T<Literal> {
        match (a, b) {
            (Enc::Scalar(_, x), Enc::Scalar(_, y)) => self.cmp_lit(
                Cmp::Eq,
                Term::Lin(Lin::var(*x)),
                Term::Lin(Lin::var(*y)),
                span,
            ),
            (f @ Enc::Function { .. }, g @ Enc::Function { .. }) => {
                self.function_equals(f, Term::Fun(g.clone()), span)
            }
            _ => Ok(self.constant_lit(false)),
        }
    }

    /// A literal for "encoding `e` has the known value `v`".
    fn known_enc(&mut self, e: &Enc, v: &Value, span: Span) -> T<Literal> {
        match e {
            Enc::Scalar(..) => {
                let Some(k) = scalar_code(v) else {
                    return Ok(self.constant_lit(false));
                };
                let Enc::Scalar(_, x) = e else { unreachable!() };
                self.cmp_lit(
                    Cmp::Eq,
                    Term::Lin(Lin::var(*x)),
                    Term::Lin(Lin::constant(k)),
                    span,
                )
            }
            Enc::Function { .. } => self.function_equals(e, Term::Known(v.clone()), span),
        }
    }

    /// Posts `enc : D op R` (a function space).
    fn post_function_space(&mut self, enc: &Enc, s: &CExpr) -> T<()> {
        let EK::Binary(op, d, r) = &s.kind else {
            unreachable!("a function space")
        };
        let Some((injective, surjective)) = total_function(*op) else {
            return Err(unsupported(s.span, format!("the function space {op:?}")));
        };
        let Enc::Function { domain, images } = enc else {
            return Err(unsupported(s.span, "a function space for a scalar"));
        };
        if self.reads_unknown(d) || *self.known_set(d)? != **domain {
            return Err(unsupported(
                s.span,
                "a function typed over another domain than its first typing",
            ));
        }
        for image in images.iter() {
            match image {
                Enc::Function { .. } if is_function_space(r) => {
                    self.post_function_space(image, r)?
                }
                Enc::Scalar(_, x) if !is_function_space(r) => self.post_member(Lin::var(*x), r)?,
                _ => return Err(unsupported(s.span, "a function into another kind of value")),
            }
        }
        if injective || surjective {
            let vars: Vec<DomainId> = images
                .iter()
                .map(|i| match i {
                    Enc::Scalar(_, x) => Ok(*x),
                    Enc::Function { .. } => Err(unsupported(
                        s.span,
                        "an injection or surjection into functions",
                    )),
                })
                .collect::<T<_>>()?;
            if injective {
                pumpkin_constraints::all_different(vars.clone(), self.tag).post(&mut self.cp);
            }
            if surjective {
                let ScalarSet::Values(_, range) = self.scalar_set(r)?.listed() else {
                    return Err(unsupported(s.span, "a surjection onto an infinite set"));
                };
                for v in to_i32(&range, r.span)? {
                    let ls: Vec<Literal> = vars
                        .iter()
                        .map(|&x| {
                            self.cp
                                .new_literal_for_predicate(predicate!(x == v), self.tag)
                        })
                        .collect();
                    self.clause(ls);
                }
            }
        }
        Ok(())
    }

    /// Posts `x : s`, `s` a set of scalars.
    fn post_member(&mut self, x: Lin, s: &CExpr) -> T<()> {
        let l = self.member_lit(x, s)?;
        self.clause(vec![l]);
        Ok(())
    }

    /// A literal for `x : s`, `s` a set of scalars (an interval whose
    /// bounds may be unknown, or a known set).
    fn member_lit(&mut self, x: Lin, s: &CExpr) -> T<Literal> {
        if let EK::Binary(BinaryOp::Interval, a, b) = &s.kind
            && (self.reads_unknown(a) || self.reads_unknown(b))
        {
            let (a, b) = (self.term(a)?, self.term(b)?);
            let lo = self.cmp_lit(Cmp::Ge, Term::Lin(x.clone()), a, s.span)?;
            let hi = self.cmp_lit(Cmp::Le, Term::Lin(x), b, s.span)?;
            return Ok(self.and(vec![lo, hi]));
        }
        match self.scalar_set(s)? {
            ScalarSet::Interval(lo, hi) => {
                let l1 = self.cmp_lit(
                    Cmp::Ge,
                    Term::Lin(x.clone()),
                    Term::Lin(Lin::constant(lo)),
                    s.span,
                )?;
                let l2 =
                    self.cmp_lit(Cmp::Le, Term::Lin(x), Term::Lin(Lin::constant(hi)), s.span)?;
                Ok(self.and(vec![l1, l2]))
            }
            ScalarSet::Values(_, values) => {
                let x = self.materialise(&x, s.span)?;
                let inside: Vec<i32> = to_i32(&values, s.span)?
                    .into_iter()
                    .filter(|&v| self.cp.contains(&x, v))
                    .collect();
                let ls: Vec<Literal> = inside
                    .into_iter()
                    .map(|v| {
                        self.cp
                            .new_literal_for_predicate(predicate!(x == v), self.tag)
                    })
                    .collect();
                if ls.is_empty() {
                    return Ok(self.constant_lit(false));
                }
                Ok(self.or(ls))
            }
        }
    }

    // ---- expressions ----

    fn term(&mut self, e: &CExpr) -> T<Term> {
        if !self.reads_unknown(e) {
            return Ok(Term::Known(self.eval(e)?));
        }
        match &e.kind {
            EK::Read(Slot::Frame(k)) if (*k as usize) < self.nc => {
                match self.enc[*k as usize]
                    .clone()
                    .expect("an unknown constant is encoded")
                {
                    Enc::Scalar(_, x) => Ok(Term::Lin(Lin::var(x))),
                    f => Ok(Term::Fun(f)),
                }
            }
            EK::Binary(op @ (BinaryOp::Add | BinaryOp::Minus), a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.lin(a, e.span)?, self.lin(b, e.span)?);
                let sign = if *op == BinaryOp::Add { 1 } else { -1 };
                Ok(Term::Lin(a.plus(b.scaled(sign))))
            }
            EK::Binary(BinaryOp::Mul, a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.lin(a, e.span)?, self.lin(b, e.span)?);
                if a.terms.is_empty() {
                    return Ok(Term::Lin(b.scaled(a.k)));
                }
                if b.terms.is_empty() {
                    return Ok(Term::Lin(a.scaled(b.k)));
                }
                let (x, y) = (self.materialise(&a, e.span)?, self.materialise(&b, e.span)?);
                let (xl, xh, yl, yh) = (self.lb(x), self.ub(x), self.lb(y), self.ub(y));
                let products = [xl * yl, xl * yh, xh * yl, xh * yh];
                let z = self.aux(
                    *products.iter().min().expect("four"),
                    *products.iter().max().expect("four"),
                    e.span,
                )?;
                pumpkin_constraints::times(x, y, z, self.tag).post(&mut self.cp);
                Ok(Term::Lin(Lin::var(z)))
            }
            EK::Binary(op @ (BinaryOp::Div | BinaryOp::Mod), a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.lin(a, e.span)?, self.lin(b, e.span)?);
                if !b.terms.is_empty() || b.k <= 0 {
                    return Err(unsupported(
                        e.span,
                        format!("{op:?} by an unknown or non-positive divisor"),
                    ));
                }
                let x = self.materialise(&a, e.span)?;
                let (lo, hi) = (self.lb(x), self.ub(x));
                if *op == BinaryOp::Mod && lo < 0 {
                    return Err(unsupported(e.span, "`mod` of a possibly negative number"));
                }
                // x = b·q + r; B's division rounds towards zero.
                let q = self.aux(lo / b.k, hi / b.k, e.span)?;
                let (rlo, rhi) = if lo < 0 {
                    (-(b.k - 1), b.k - 1)
                } else {
                    (0, b.k - 1)
                };
                let r = self.aux(rlo, rhi, e.span)?;
                let d = Lin::var(x)
                    .plus(Lin::var(q).scaled(-b.k))
                    .plus(Lin::var(r).scaled(-1));
                let (vars, rhs) = self.linear(&d, e.span)?;
                pumpkin_constraints::equals(vars, rhs, self.tag).post(&mut self.cp);
                if lo < 0 {
                    // The remainder has the sign of the dividend.
                    let neg = self
                        .cp
                        .new_literal_for_predicate(predicate!(x <= -1), self.tag);
                    let rneg = self
                        .cp
                        .new_literal_for_predicate(predicate!(r <= 0), self.tag);
                    let rpos = self
                        .cp
                        .new_literal_for_predicate(predicate!(r >= 0), self.tag);
                    self.clause(vec![!neg, rneg]);
                    self.clause(vec![neg, rpos]);
                }
                Ok(Term::Lin(Lin::var(if *op == BinaryOp::Div {
                    q
                } else {
                    r
                })))
            }
            EK::Unary(UnaryOp::Minus, a) => {
                let a = self.term(a)?;
                Ok(Term::Lin(self.lin(a, e.span)?.scaled(-1)))
            }
            EK::Apply(f, x) => {
                let (f, x) = (self.term(f)?, self.term(x)?);
                self.apply(f, x, e.span)
            }
            EK::Quantified(QuantifiedExprKind::Sum, s, body) => {
                let mut sum = Lin::constant(0);
                for instance in self.instances(s, e.span)? {
                    self.bind(s, &instance);
                    let t = self.term(body)?;
                    sum = sum.plus(self.lin(t, e.span)?);
                }
                Ok(Term::Lin(sum))
            }
            _ => Err(unsupported(e.span, describe(e))),
        }
    }

    fn apply(&mut self, f: Term, x: Term, span: Span) -> T<Term> {
        match (f, x) {
            (Term::Fun(Enc::Function { domain, images }), Term::Known(x)) => {
                match domain.binary_search(&x) {
                    Ok(i) => Ok(match &images[i] {
                        Enc::Scalar(_, v) => Term::Lin(Lin::var(*v)),
                        g => Term::Fun(g.clone()),
                    }),
                    Err(_) => Err(unsupported(span, "a function applied outside its domain")),
                }
            }
            (Term::Fun(Enc::Function { domain, images }), Term::Lin(x)) => {
                let array: Vec<DomainId> = images
                    .iter()
                    .map(|i| match i {
                        Enc::Scalar(_, v) => Ok(*v),
                        Enc::Function { .. } => Err(unsupported(
                            span,
                            "a function of functions applied to an unknown",
                        )),
                    })
                    .collect::<T<_>>()?;
                self.element(&domain, array, x, span)
            }
            (Term::Known(f), Term::Lin(x)) => {
                let pairs = super::super::expr::set(&f, span)
                    .map_err(|_| unsupported(span, "applying a value that is not a function"))?;
                let mut domain = Vec::with_capacity(pairs.len());
                let mut array = Vec::with_capacity(pairs.len());
                for p in pairs {
                    let (Value::Pair(p), true) = (p, true) else {
                        return Err(unsupported(span, "applying a value that is not a function"));
                    };
                    let Some(v) = scalar_code(&p.1) else {
                        return Err(unsupported(span, "a known function into non-scalar values"));
                    };
                    if domain.last() == Some(&p.0) {
                        return Err(unsupported(
                            span,
                            "applying a relation that is not a function",
                        ));
                    }
                    domain.push(p.0.clone());
                    let v = check_i32(v, span)?;
                    array.push(self.cp.new_bounded_integer(v, v));
                }
                self.element(&domain, array, x, span)
            }
            _ => Err(unsupported(span, "this function application")),
        }
    }

    /// `array[x - lo]` for a function over the integers `lo..lo+n-1`;
    /// `x` must lie within them (else the application could be outside
    /// the domain, which enumeration reports and this would not).
    fn element(&mut self, domain: &[Value], array: Vec<DomainId>, x: Lin, span: Span) -> T<Term> {
        let Some(Value::Int(lo)) = domain.first() else {
            return Err(unsupported(
                span,
                "an unknown argument of a function over non-integers",
            ));
        };
        let lo = *lo;
        if domain
            .iter()
            .enumerate()
            .any(|(i, d)| *d != Value::Int(lo + i as i64))
        {
            return Err(unsupported(
                span,
                "an unknown argument of a function over a non-interval",
            ));
        }
        let x = self.materialise(&x, span)?;
        let hi = lo + domain.len() as i64 - 1;
        if self.lb(x) < lo || self.ub(x) > hi {
            return Err(unsupported(
                span,
                "a function applied to an unknown that may lie outside its domain",
            ));
        }
        let (rlo, rhi) = array.iter().fold((i64::MAX, i64::MIN), |(l, h), &v| {
            (l.min(self.lb(v)), h.max(self.ub(v)))
        });
        let z = self.aux(rlo, rhi, span)?;
        let index = x.offset(-(lo as i32));
        pumpkin_constraints::element(index, array, z, self.tag).post(&mut self.cp);
        Ok(Term::Lin(Lin::var(z)))
    }

    /// A term as a linear term: known scalars by their codes.
    fn lin(&mut self, t: Term, span: Span) -> T<Lin> {
        match t {
            Term::Lin(l) => Ok(l),
            Term::Known(v) => match scalar_code(&v) {
                Some(k) => Ok(Lin::constant(k)),
                None => Err(unsupported(
                    span,
                    "a set or pair where a number is expected",
                )),
            },
            Term::Fun(_) => Err(unsupported(span, "a function where a number is expected")),
        }
    }

    /// The solver's form of `d` (`Σ cᵢ·xᵢ + k`): its terms and `-k`.
    fn linear(&self, d: &Lin, span: Span) -> T<(Vec<AffineView<DomainId>>, i32)> {
        let vars = d
            .terms
            .iter()
            .map(|&(c, x)| Ok(x.scaled(check_i32(c, span)?)))
            .collect::<T<Vec<_>>>()?;
        Ok((vars, check_i32(-d.k, span)?))
    }

    /// A variable equal to `l`.
    fn materialise(&mut self, l: &Lin, span: Span) -> T<DomainId> {
        if let [(1, x)] = l.terms[..]
            && l.k == 0
        {
            return Ok(x);
        }
        let (mut lo, mut hi) = (l.k, l.k);
        for &(c, x) in &l.terms {
            let (a, b) = (c * self.lb(x), c * self.ub(x));
            lo += a.min(b);
            hi += a.max(b);
        }
        let z = self.aux(lo, hi, span)?;
        let d = l.clone().plus(Lin::var(z).scaled(-1));
        let (vars, rhs) = self.linear(&d, span)?;
        pumpkin_constraints::equals(vars, rhs, self.tag).post(&mut self.cp);
        Ok(z)
    }

    /// An auxiliary variable (not part of a solution).
    fn aux(&mut self, lo: i64, hi: i64, span: Span) -> T<DomainId> {
        Ok(self
            .cp
            .new_bounded_integer(check_i32(lo, span)?, check_i32(hi, span)?))
    }

    fn lb(&self, x: DomainId) -> i64 {
        self.cp.lower_bound(&x) as i64
    }

    fn ub(&self, x: DomainId) -> i64 {
        self.cp.upper_bound(&x) as i64
    }

    // ---- known values ----

    fn unknown(&self, slot: u32) -> bool {
        (slot as usize) < self.nc && self.known[slot as usize].is_none()
    }

    fn reads_unknown(&self, e: &CExpr) -> bool {
        let mut slots = Vec::new();
        plan::expr_slots(e, &mut slots);
        slots.iter().any(|&s| self.unknown(s))
    }

    fn pred_reads_unknown(&self, p: &CPred) -> bool {
        let mut slots = Vec::new();
        plan::pred_slots(p, &mut slots);
        slots.iter().any(|&s| self.unknown(s))
    }

    fn eval(&mut self, e: &CExpr) -> T<Value> {
        self.interp
            .eval(e, &mut self.env)
            .map_err(|f| self.failure(f))
    }

    fn holds(&mut self, p: &CPred) -> T<bool> {
        self.interp
            .holds(p, &mut self.env)
            .map_err(|f| self.failure(f))
    }

    /// An evaluation error: enumeration reports it exactly (or the stop).
    fn failure(&self, f: Fail) -> Failure {
        match f.stopped {
            Some(reason) => Failure::Stopped(reason),
            None => unsupported(f.span, format!("evaluating: {}", f.message)),
        }
    }

    /// The elements of a known set.
    fn known_set(&mut self, s: &CExpr) -> T<Arc<[Value]>> {
        let v = self.eval(s)?;
        match v {
            Value::Set(xs) => Ok(xs),
            _ => Err(unsupported(s.span, "a domain that cannot be listed")),
        }
    }

    /// A set of scalars: an interval (possibly large, never listed) or
    /// known values.
    fn scalar_set(&mut self, s: &CExpr) -> T<ScalarSet> {
        match &s.kind {
            EK::Binary(BinaryOp::Interval, a, b) if !self.reads_unknown(s) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                match (a, b) {
                    (Value::Int(a), Value::Int(b)) => Ok(ScalarSet::Interval(a, b)),
                    _ => Err(unsupported(s.span, "an interval of non-integers")),
                }
            }
            EK::Ints(kind) => {
                let (lo, hi) = self.interp.int_bounds(*kind);
                let lo = lo.or(self.interp.bound_integers.then_some(self.interp.minint));
                let hi = hi.or(self.interp.bound_integers.then_some(self.interp.maxint));
                match (lo, hi) {
                    (Some(lo), Some(hi)) => Ok(ScalarSet::Interval(lo, hi)),
                    _ => Err(unsupported(
                        s.span,
                        format!("{}: no finite domain", int_set_name(*kind)),
                    )),
                }
            }
            _ if !self.reads_unknown(s) => {
                let xs = self.known_set(s)?;
                let kind = match xs.first() {
                    None | Some(Value::Int(_)) => Kind::Int,
                    Some(Value::Bool(_)) => Kind::Bool,
                    Some(Value::Elem(e)) => Kind::Elem(e.set),
                    Some(_) => return Err(unsupported(s.span, "a set of non-scalar values")),
                };
                let codes = xs
                    .iter()
                    .map(|v| scalar_code(v).ok_or_else(|| unsupported(s.span, "a mixed set")))
                    .collect::<T<Vec<i64>>>()?;
                Ok(ScalarSet::Values(kind, codes))
            }
            _ => Err(unsupported(
                s.span,
                "a set that depends on unknown constants",
            )),
        }
    }
}

/// A set of scalar codes.
enum ScalarSet {
    Interval(i64, i64),
    Values(Kind, Vec<i64>),
}

impl ScalarSet {
    /// Its elements, listed when an interval is small.
    fn listed(self) -> ScalarSet {
        match self {
            ScalarSet::Interval(lo, hi) if hi - lo < 1 << 16 => {
                ScalarSet::Values(Kind::Int, (lo..=hi).collect())
            }
            s => s,
        }
    }
}

/// The B value of encoding `e` in a solution.
fn decode(e: &Enc, value_of: &dyn Fn(DomainId) -> i32) -> Value {
    match e {
        Enc::Scalar(kind, x) => {
            let v = value_of(*x);
            match kind {
                Kind::Int => Value::Int(v as i64),
                Kind::Bool => Value::Bool(v != 0),
                Kind::Elem(set) => Value::Elem(Elem {
                    set: *set,
                    index: v as u32,
                }),
            }
        }
        Enc::Function { domain, images } => Value::Set(
            domain
                .iter()
                .zip(images.iter())
                .map(|(d, i)| Value::Pair(Arc::new((d.clone(), decode(i, value_of)))))
                .collect(),
        ),
    }
}

/// The integer code of a scalar value.
fn scalar_code(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        Value::Elem(e) => Some(e.index as i64),
        _ => None,
    }
}

/// (injective, surjective) for the total function spaces.
fn total_function(op: BinaryOp) -> Option<(bool, bool)> {
    match op {
        BinaryOp::TotalFunction => Some((false, false)),
        BinaryOp::TotalInjection => Some((true, false)),
        BinaryOp::TotalSurjection => Some((false, true)),
        BinaryOp::TotalBijection => Some((true, true)),
        _ => None,
    }
}

fn is_function_space(s: &CExpr) -> bool {
    matches!(
        &s.kind,
        EK::Binary(
            BinaryOp::Relation
                | BinaryOp::PartialFunction
                | BinaryOp::TotalFunction
                | BinaryOp::PartialInjection
                | BinaryOp::TotalInjection
                | BinaryOp::PartialSurjection
                | BinaryOp::TotalSurjection
                | BinaryOp::PartialBijection
                | BinaryOp::TotalBijection,
            _,
            _
        )
    )
}

fn flip(op: Cmp) -> Cmp {
    match op {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        op => op,
    }
}

fn compare(op: Cmp, a: i64, b: i64) -> bool {
    match op {
        Cmp::Eq => a == b,
        Cmp::Neq => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    }
}

fn negated(vars: &[AffineView<DomainId>]) -> Vec<AffineView<DomainId>> {
    vars.iter().map(|v| v.scaled(-1)).collect()
}

fn check_i32(v: i64, span: Span) -> T<i32> {
    i32::try_from(v).map_err(|_| unsupported(span, format!("the integer {v}, beyond 32 bits")))
}

fn to_i32(values: &[i64], span: Span) -> T<Vec<i32>> {
    values.iter().map(|&v| check_i32(v, span)).collect()
}

/// A name for an expression the translation does not handle.
fn describe(e: &CExpr) -> String {
    match &e.kind {
        EK::Unary(op, _) => format!("the operator {op:?} over unknown constants"),
        EK::Binary(op, _, _) => format!("the operator {op:?} over unknown constants"),
        EK::Quantified(kind, _, _) => format!("{kind:?} over unknown constants"),
        EK::Read(_) => "a read of this variable".into(),
        _ => "this expression over unknown constants".into(),
    }
}

/// The integer set kinds, for messages.
fn int_set_name(k: IntSet) -> &'static str {
    match k {
        IntSet::Nat => "NAT",
        IntSet::Nat1 => "NAT1",
        IntSet::Int => "INT",
        IntSet::Natural => "NATURAL",
        IntSet::Natural1 => "NATURAL1",
        IntSet::Integer => "INTEGER",
    }
}
