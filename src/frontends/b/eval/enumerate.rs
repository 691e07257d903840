//! Enumerating sets and running solver plans.
//!
//! [`Interpreter::enum_set`] calls back once per element of a set
//! expression, generating the candidates directly for the symbolic sets
//! instead of filtering a power set: a total function `A --> B` is a choice
//! of one image per element of `A` (the product of choices), injections
//! never reuse an image, bijections are permutations, `POW(S)` lists the
//! subsets by size, `iseq(S)`/`perm(S)` the arrangements without repeats.
//! [`Interpreter::solve`] runs a [`Solver`] plan (see [`super::plan`]):
//! bind, check, bind, ... depth first, calling back for every solution.
//! Callbacks return `Ok(false)` to stop the enumeration early.

use std::sync::Arc;

use super::expr::{set, thread_copy};
use super::ir::{CExpr, Choice, EK, Gen, Pattern, SolveStep, Solver, Undefined};
use super::{Env, Fail, Interpreter, R, within_budget, within_budget_every};
use crate::frontends::b::ast::{BinaryOp, UnaryOp};
use crate::frontends::b::types::Type;
use crate::frontends::b::value::{Elem, Value, relations, sequences as seqs, sets};

/// Callback for one enumerated value; `Ok(false)` stops the enumeration.
pub type EachValue<'c, 'e> = dyn FnMut(Value, &mut Env<'e>) -> R<bool> + 'c;

impl Interpreter {
    /// Calls `f` on every element of the set `s`, in ascending order for
    /// explicit sets. Returns `Ok(false)` if `f` stopped it.
    pub(crate) fn enum_set<'e>(
        &self,
        s: &CExpr,
        env: &mut Env<'e>,
        f: &mut EachValue<'_, 'e>,
    ) -> R<bool> {
        use BinaryOp::*;
        match &s.kind {
            EK::Ints(kind) => {
                let (mut lo, mut hi) = self.int_bounds(*kind);
                if self.bound_integers && (lo.is_none() || hi.is_none()) {
                    lo = lo.or(Some(self.minint));
                    hi = hi.or(Some(self.maxint));
                    // Read first: a store on every enumeration would make
                    // the threads fight over the line.
                    let cut = &self.bound_at_run_time;
                    if !cut.load(std::sync::atomic::Ordering::Relaxed) {
                        cut.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
                let (Some(lo), Some(hi)) = (lo, hi) else {
                    return Err(Fail::infinite(
                        s.span,
                        "cannot enumerate an infinite set of integers: bound the variable on \
                         both sides (`x : a..b`, or `x >= a & x <= b` next to `x : NATURAL`)",
                    ));
                };
                for i in lo..=hi {
                    within_budget(s.span)?;
                    if !f(Value::Int(i), env)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            EK::FreeType(k) => self
                .enum_type(&Type::Free(*k), &mut |v| f(v, env))
                .map_err(|e| e.at_default(s.span)),
            EK::Strings => Err(Fail::infinite(
                s.span,
                "cannot enumerate the infinite set STRING",
            )),
            EK::Binary(Interval, a, b) => {
                let lo = super::expr::int(&self.eval(a, env)?, a.span)?;
                let hi = super::expr::int(&self.eval(b, env)?, b.span)?;
                for i in lo..=hi {
                    within_budget(s.span)?;
                    if !f(Value::Int(i), env)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            EK::Binary(op @ (Minus | Inter), a, b) => {
                let keep_members = *op == Inter;
                if keep_members && self.is_unlistable(a, env) && !self.is_unlistable(b, env) {
                    // `(INTEGER - NAT) /\ (-2..7)`: the listed side, tested.
                    return self.enum_set(b, env, &mut |v, env| {
                        if self.member(&v, a, env)? {
                            f(v, env)
                        } else {
                            Ok(true)
                        }
                    });
                }
                if let (Some(sa), Some(sb)) = (explicit_set(a, env), explicit_set(b, env)) {
                    // Hot path (`p : PROC - proc`): both sets explicit and
                    // sorted, so one merge replaces a search per element.
                    let mut j = 0;
                    for (i, v) in sa.iter().enumerate() {
                        within_budget_every(i, s.span)?;
                        while j < sb.len() && sb[j].fast_cmp(v).is_lt() {
                            j += 1;
                        }
                        let member = j < sb.len() && sb[j].fast_eq(v);
                        if member == keep_members && !f(v.clone(), env)? {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
                self.enum_set(a, env, &mut |v, env| {
                    if self.member(&v, b, env)? == keep_members {
                        f(v, env)
                    } else {
                        Ok(true)
                    }
                })
            }
            EK::Unary(
                op @ (UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1),
                inner,
            ) => {
                let elems = self.elements(inner, env)?;
                let min = usize::from(matches!(op, UnaryOp::Pow1 | UnaryOp::Fin1));
                let mut result = Ok(true);
                let span = s.span;
                sets::for_each_subset(&elems, min, &mut |sub| match within_budget(span)
                    .and_then(|()| f(Value::set_from_sorted(sub), env))
                {
                    Ok(true) => true,
                    other => {
                        result = other;
                        false
                    }
                });
                result
            }
            // Over an empty set: `[]` alone, or nothing for `seq1`.
            EK::Unary(op @ (UnaryOp::Seq | UnaryOp::Seq1), inner)
                if self.is_empty_set(inner, env)? =>
            {
                if *op == UnaryOp::Seq {
                    return f(Value::empty_set(), env);
                }
                Ok(true)
            }
            EK::Unary(UnaryOp::Seq | UnaryOp::Seq1, _) => Err(Fail::infinite(
                s.span,
                "cannot enumerate seq(S): sequences are unbounded (use iseq(S) or bound the size)",
            )),
            EK::Unary(op @ (UnaryOp::Iseq | UnaryOp::Iseq1 | UnaryOp::Perm), inner) => {
                let elems = self.elements(inner, env)?;
                let (min, max) = match op {
                    UnaryOp::Iseq => (0, elems.len()),
                    UnaryOp::Iseq1 => (1, elems.len()),
                    _ => (elems.len(), elems.len()),
                };
                let mut used = vec![false; elems.len()];
                let mut prefix = Vec::new();
                injective_sequences(&elems, min, max, &mut used, &mut prefix, &mut |v| f(v, env))
            }
            EK::Binary(
                op @ (Relation | PartialFunction | TotalFunction | PartialInjection
                | TotalInjection | PartialSurjection | TotalSurjection | PartialBijection
                | TotalBijection),
                a,
                b,
            ) => {
                let dom = self.elements(a, env)?;
                let ran = self.elements(b, env)?;
                if *op == Relation {
                    let mut product = Vec::with_capacity(dom.len() * ran.len());
                    for x in dom.iter() {
                        for y in ran.iter() {
                            product.push(Value::pair(x.clone(), y.clone()));
                        }
                    }
                    let mut result = Ok(true);
                    let span = s.span;
                    sets::for_each_subset(&product, 0, &mut |sub| match within_budget(span)
                        .and_then(|()| f(Value::set_from_sorted(sub), env))
                    {
                        Ok(true) => true,
                        other => {
                            result = other;
                            false
                        }
                    });
                    return result;
                }
                let space = FunctionSpace {
                    partial: matches!(
                        op,
                        PartialFunction | PartialInjection | PartialSurjection | PartialBijection
                    ),
                    injective: matches!(
                        op,
                        PartialInjection | TotalInjection | PartialBijection | TotalBijection
                    ),
                    surjective: matches!(
                        op,
                        PartialSurjection | TotalSurjection | PartialBijection | TotalBijection
                    ),
                };
                space.enumerate(&dom, &ran, &mut |v| f(v, env))
            }
            // `LET u = E IN S END`: the elements of `S` with `u` bound,
            // listed lazily as `S`'s own (a space of functions).
            EK::Let(solver, body) => {
                let mut result = None;
                self.solve(solver, env, &mut |env| {
                    result = Some(self.enum_set(body, env, f)?);
                    Ok(false)
                })?;
                result.ok_or_else(|| Fail::new(s.span, "the LET bindings have no solution"))
            }
            // The branch taken, listed lazily as its own (the space of a
            // function that equations give only in part).
            EK::IfThenElse(c, a, b) => {
                let branch = if self.holds(c, env)? { a } else { b };
                self.enum_set(branch, env, f)
            }
            // `x : dom(r)` of a relation held in a slot: the first
            // components of its pairs (sorted, so a run of equal ones is
            // one element), without building the domain; of a function
            // kept symbolic, its domain as `--bound-integers` lists it.
            EK::Unary(UnaryOp::Dom, r) if let EK::Read(_) = r.kind => {
                match self.eval_ref(r, env)?.cloned() {
                    Some(Value::Set(pairs)) => {
                        let mut last: Option<&Value> = None;
                        for (i, p) in pairs.iter().enumerate() {
                            let x = relations::first(p);
                            if last.is_some_and(|l| l.fast_eq(x)) {
                                continue;
                            }
                            last = Some(x);
                            within_budget_every(i, s.span)?;
                            if !f(x.clone(), env)? {
                                return Ok(false);
                            }
                        }
                        Ok(true)
                    }
                    Some(Value::Symbolic(sym)) if self.bound_integers => {
                        let Some(keys) = self.domain_within_bounds(&sym, env)? else {
                            return Err(super::symbolic::cannot_list(&sym, r.span));
                        };
                        for (i, x) in keys.into_iter().enumerate() {
                            within_budget_every(i, s.span)?;
                            if !f(x, env)? {
                                return Ok(false);
                            }
                        }
                        Ok(true)
                    }
                    _ => self.enum_built(s, env, f),
                }
            }
            _ => self.enum_built(s, env, f),
        }
    }

    /// [`Self::enum_set`] of a set it has no lazier way to list: built,
    /// then its elements.
    fn enum_built<'e>(&self, s: &CExpr, env: &mut Env<'e>, f: &mut EachValue<'_, 'e>) -> R<bool> {
        let v = self.eval(s, env)?;
        for (i, x) in set(&v, s.span)?.iter().enumerate() {
            within_budget_every(i, s.span)?;
            if !f(x.clone(), env)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the set `s` is empty where that is known without listing
    /// an infinite set: false where `s` is infinite, symbolic or fails
    /// (the caller's own error then stands), unless the run was stopped.
    fn is_empty_set(&self, s: &CExpr, env: &mut Env<'_>) -> R<bool> {
        if self.is_unlistable(s, env) {
            return Ok(false);
        }
        match self.eval(s, env) {
            Ok(Value::Set(xs)) => Ok(xs.is_empty()),
            Err(f) if f.stopped.is_some() => Err(f),
            _ => Ok(false),
        }
    }

    /// The elements of a finite set expression, building it if symbolic.
    pub(crate) fn elements(&self, s: &CExpr, env: &mut Env<'_>) -> R<Arc<[Value]>> {
        match self.eval(s, env)? {
            Value::Set(elems) => Ok(elems),
            _ => Err(Fail::new(s.span, "expected a set")),
        }
    }

    /// Whether free type `k` has finitely many values as far as free
    /// types go: none of its constructors' arguments reaches a free type
    /// that contains itself (`open`: the free types being looked into).
    /// Integers and strings inside are refused when enumerated.
    pub(super) fn free_type_is_finite(&self, k: u32, open: &mut Vec<u32>) -> bool {
        fn finite(this: &Interpreter, t: &Type, open: &mut Vec<u32>) -> bool {
            match t {
                Type::Free(k) => this.free_type_is_finite(*k, open),
                Type::Pair(a, b) => finite(this, a, open) && finite(this, b, open),
                Type::Set(a) => finite(this, a, open),
                Type::Int | Type::Bool | Type::String | Type::Given(_) => true,
            }
        }
        if open.contains(&k) {
            return false;
        }
        open.push(k);
        let ok = self.free_types.get(k as usize).is_none_or(|free| {
            free.constructors
                .iter()
                .filter_map(|c| c.arg.as_ref())
                .all(|arg| finite(self, arg, open))
        });
        open.pop();
        ok
    }

    /// The number of values of a type (infinite for integers, strings
    /// and free types), as a float: `POW(A * POW(B))` overflows any
    /// integer long before it could be listed.
    pub(crate) fn type_count(&self, t: &Type) -> f64 {
        match t {
            Type::Bool => 2.0,
            Type::Given(n) => self
                .given_sets
                .get(*n as usize)
                .map_or(0.0, |g| g.elements.len() as f64),
            Type::Pair(a, b) => self.type_count(a) * self.type_count(b),
            Type::Set(a) => 2f64.powf(self.type_count(a)),
            Type::Int | Type::String | Type::Free(_) => f64::INFINITY,
        }
    }

    /// Every value of a finite type, in [`Self::enum_type`]'s order.
    fn type_values(&self, t: &Type) -> R<Vec<Value>> {
        let mut values = Vec::new();
        self.enum_type(t, &mut |v| {
            values.push(v);
            Ok(true)
        })?;
        Ok(values)
    }

    /// Calls `f` on every value of a finite type.
    pub(crate) fn enum_type(&self, t: &Type, f: &mut dyn FnMut(Value) -> R<bool>) -> R<bool> {
        match t {
            Type::Bool => Ok(f(Value::Bool(false))? && f(Value::Bool(true))?),
            Type::Given(n) => {
                let size = self
                    .given_sets
                    .get(*n as usize)
                    .map_or(0, |g| g.elements.len());
                for i in 0..size {
                    if !f(Value::Elem(Elem {
                        set: *n,
                        index: i as u32,
                    }))? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Type::Pair(a, b) => {
                let rights = self.type_values(b)?;
                self.enum_type(a, &mut |x| {
                    for y in &rights {
                        if !f(Value::pair(x.clone(), y.clone()))? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                })
            }
            Type::Set(a) => {
                let mut all = self.type_values(a)?;
                all.sort_unstable();
                let mut result = Ok(true);
                sets::for_each_subset(&all, 0, &mut |sub| match within_budget(
                    crate::diag::Span::default(),
                )
                .and_then(|()| f(Value::set_from_sorted(sub)))
                {
                    Ok(true) => true,
                    other => {
                        result = other;
                        false
                    }
                });
                result
            }
            Type::Int if self.bound_integers => {
                let cut = &self.bound_at_run_time;
                if !cut.load(std::sync::atomic::Ordering::Relaxed) {
                    cut.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                for i in self.minint..=self.maxint {
                    within_budget(crate::diag::Span::default())?;
                    if !f(Value::Int(i))? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Type::Int | Type::String => Err(Fail::infinite(
                crate::diag::Span::default(),
                "cannot enumerate an infinite type",
            )),
            Type::Free(k) => {
                if !self.free_type_is_finite(*k, &mut Vec::new()) {
                    return Err(Fail::infinite(
                        crate::diag::Span::default(),
                        format!(
                            "cannot enumerate the free type `{}`: it is recursive, so infinite",
                            self.free_type_name(*k)
                        ),
                    ));
                }
                let Some(free) = self.free_types.get(*k as usize) else {
                    return Ok(true);
                };
                for (i, c) in free.constructors.iter().enumerate() {
                    let tag = Value::Int(i as i64);
                    let go = match &c.arg {
                        None => f(Value::pair(tag, Value::Bool(true)))?,
                        Some(arg) => {
                            self.enum_type(arg, &mut |v| f(Value::pair(tag.clone(), v)))?
                        }
                    };
                    if !go {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Calls `f` once per solution of the plan, with the solver's variables
    /// bound in the frame. Returns `Ok(false)` if `f` stopped it.
    pub(crate) fn solve<'e>(
        &self,
        solver: &Solver,
        env: &mut Env<'e>,
        f: &mut dyn FnMut(&mut Env<'e>) -> R<bool>,
    ) -> R<bool> {
        self.run_steps(solver, 0, env, f)
    }

    pub(super) fn run_steps<'e>(
        &self,
        solver: &Solver,
        i: usize,
        env: &mut Env<'e>,
        f: &mut dyn FnMut(&mut Env<'e>) -> R<bool>,
    ) -> R<bool> {
        // The budget is polled where candidates are generated (the leaves
        // of enum_set), not per step: this is the hot path.
        let Some(step) = solver.steps.get(i) else {
            return f(env);
        };
        match step {
            SolveStep::Check(p) => {
                let ok = self
                    .unless_undefined(solver, self.holds(p, env))?
                    .unwrap_or(false);
                if ok {
                    self.run_steps(solver, i + 1, env, f)
                } else {
                    Ok(true)
                }
            }
            SolveStep::Bind(slot, generator) => {
                self.run_bind(solver, i, *slot as usize, generator, env, f)
            }
            SolveStep::Scan(scan) => self.run_scan(scan, solver, i + 1, env, f),
            SolveStep::BindPattern(pat, s) => self.enum_set(s, env, &mut |v, env| {
                if bind_pattern(pat, &v, env) {
                    self.run_steps(solver, i + 1, env, f)
                } else {
                    Ok(true)
                }
            }),
        }
    }

    /// `result`, or `None` where it failed by a function applied outside
    /// its domain and `solver` is lenient (the candidate is no solution;
    /// counted for the report). In the constants' search
    /// (`Undefined::Constants`), `first`, `last`, `front` and `tail` of
    /// the empty sequence stay errors: ProB's solver reads `f(x) = y` as
    /// `x |-> y : f`, but reports `front(iv)` with `iv = []`.
    #[inline]
    fn unless_undefined<T>(&self, solver: &Solver, result: R<T>) -> R<Option<T>> {
        match result {
            Ok(x) => Ok(Some(x)),
            Err(e)
                if solver.lenient()
                    && e.outside_domain
                    && !(e.empty_sequence && solver.undefined == Undefined::Constants) =>
            {
                self.rejected_as_undefined(solver, &e);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The `Bind(slot, generator)` step `i` of `solver`: gives the slot
    /// each candidate in turn and runs the steps after it.
    fn run_bind<'e>(
        &self,
        solver: &Solver,
        i: usize,
        slot: usize,
        generator: &Gen,
        env: &mut Env<'e>,
        f: &mut dyn FnMut(&mut Env<'e>) -> R<bool>,
    ) -> R<bool> {
        match generator {
            Gen::Eq(e) => {
                // `q = pst(p)` in a guard, p outside dom(pst): no candidate.
                let Some(v) = self.unless_undefined(solver, self.eval(e, env))? else {
                    return Ok(true);
                };
                env.frame[slot] = v;
                self.run_steps(solver, i + 1, env, f)
            }
            Gen::In(s) if solver.lenient() => {
                // `zz : delta(cur, input)` in a guard, `(cur, input)` outside
                // dom(delta): no candidate. What the steps after it fail
                // with is theirs to report.
                let mut after = false;
                let listed = self.enum_set(s, env, &mut |v, env| {
                    env.frame[slot] = v;
                    let r = self.run_steps(solver, i + 1, env, f);
                    after |= r.is_err();
                    r
                });
                if after {
                    return listed;
                }
                Ok(self.unless_undefined(solver, listed)?.unwrap_or(true))
            }
            Gen::In(s) => self.enum_set(s, env, &mut |v, env| {
                env.frame[slot] = v;
                self.run_steps(solver, i + 1, env, f)
            }),
            Gen::Type(t) => {
                for (k, v) in self.type_values(t)?.into_iter().enumerate() {
                    within_budget_every(k, solver.span)?;
                    env.frame[slot] = v;
                    if !self.run_steps(solver, i + 1, env, f)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Gen::Cases { cases, otherwise } => {
                let mut values = Vec::new();
                let mut any = false;
                for (condition, choice) in cases {
                    let holds = self.unless_undefined(solver, self.holds(condition, env))?;
                    if holds != Some(true) {
                        continue;
                    }
                    any = true;
                    match choice {
                        Choice::One(value) => {
                            values.extend(self.unless_undefined(solver, self.eval(value, env))?)
                        }
                        Choice::Each(set) => {
                            if let Some(elements) =
                                self.unless_undefined(solver, self.elements(set, env))?
                            {
                                values.extend(elements.iter().cloned());
                            }
                        }
                    }
                }
                if !any {
                    return self.run_bind(solver, i, slot, otherwise, env, f);
                }
                // Two cases may give the same value: one candidate each.
                values.sort_unstable_by(|a, b| a.fast_cmp(b));
                values.dedup_by(|a, b| a.fast_eq(b));
                for v in values {
                    env.frame[slot] = v;
                    if !self.run_steps(solver, i + 1, env, f)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Gen::Recurrence {
                points,
                x,
                over,
                body,
                domain,
                otherwise,
            } => {
                let built = self.recurrence(
                    solver,
                    slot,
                    points,
                    *x,
                    over,
                    body,
                    domain.as_ref(),
                    otherwise,
                    env,
                )?;
                let Some(function) = built else {
                    return self.run_bind(solver, i, slot, otherwise, env, f);
                };
                env.frame[slot] = function;
                self.run_steps(solver, i + 1, env, f)
            }
            Gen::SeqUpTo {
                elements,
                max_len,
                nonempty,
            } => {
                let elements = self.elements(elements, env)?;
                let max = self.eval(max_len, env)?.as_int().unwrap_or(-1);
                let mut indices: Vec<usize> = Vec::new();
                for len in usize::from(*nonempty)..=usize::try_from(max).unwrap_or(0) {
                    if max < 0 || (len > 0 && elements.is_empty()) {
                        break;
                    }
                    // Every word of length `len` over the elements, as an odometer.
                    indices.clear();
                    indices.resize(len, 0);
                    loop {
                        within_budget(solver.span)?;
                        env.frame[slot] =
                            seqs::from_owned(indices.iter().map(|&k| elements[k].clone()));
                        if !self.run_steps(solver, i + 1, env, f)? {
                            return Ok(false);
                        }
                        let Some(pos) = indices.iter().rposition(|&k| k + 1 < elements.len())
                        else {
                            break;
                        };
                        indices[pos] += 1;
                        indices[pos + 1..].iter_mut().for_each(|k| *k = 0);
                    }
                }
                Ok(true)
            }
            Gen::Unbounded(name, _) => Err(Fail::infinite(
                solver.span,
                format!(
                    "cannot enumerate `{name}`: no finite domain (bound it on both sides, e.g. `{name} : 1..10` or `{name} >= 1 & {name} <= 10`)"
                ),
            )),
        }
    }
}

impl Interpreter {
    /// The function a [`Gen::Recurrence`] defines: the `points`, then the
    /// image `body` at each element `x` of `over` in increasing order (or,
    /// where that reads a point not yet built, in decreasing order),
    /// with the function's slot holding the pairs so far; `None` where
    /// `body` applies it outside those pairs or the pairs' domain is not
    /// `domain` (without one, the domain every function of the space
    /// `otherwise` draws from has).
    #[allow(clippy::too_many_arguments)]
    fn recurrence(
        &self,
        solver: &Solver,
        slot: usize,
        points: &CExpr,
        x: u32,
        over: &CExpr,
        body: &CExpr,
        domain: Option<&CExpr>,
        otherwise: &Gen,
        env: &mut Env<'_>,
    ) -> R<Option<Value>> {
        let wanted = match (domain, otherwise) {
            (Some(domain), _) => self.elements(domain, env)?,
            (None, Gen::In(space)) => match self.common_domain(space, env)? {
                Some(keys) => keys,
                None => return Ok(None),
            },
            (None, _) => return Ok(None),
        };
        let points = self.elements(points, env)?;
        let xs = self.elements(over, env)?;
        // Increasing order first (`fib(x - 1)`), else decreasing
        // (`best(i) = ... best(i + 1) ...`, a table filled from its end).
        let mut built = None;
        for increasing in [true, false] {
            let mut pairs: Vec<Value> = points.to_vec();
            let mut complete = true;
            for k in 0..xs.len() {
                within_budget_every(k, solver.span)?;
                let at = &xs[if increasing { k } else { xs.len() - 1 - k }];
                env.frame[slot] = Value::set_from_vec(pairs.clone());
                env.frame[x as usize] = at.clone();
                match self.eval(body, env) {
                    Ok(image) => pairs.push(Value::pair(at.clone(), image)),
                    Err(e) if e.outside_domain => {
                        complete = false;
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
            if complete {
                built = Some(pairs);
                break;
            }
        }
        let Some(pairs) = built else {
            return Ok(None);
        };
        let function = Value::set_from_vec(pairs);
        let keys = crate::frontends::b::value::relations::domain(
            function.as_set().expect("a set of pairs"),
        );
        Ok((keys[..] == wanted[..]).then_some(function))
    }

    /// The domain every element of the set of relations `space` has, if
    /// it is a listed, non-empty set whose elements share one, or a
    /// symbolic set of total functions (`1..n --> BIT`).
    fn common_domain(&self, space: &CExpr, env: &mut Env<'_>) -> R<Option<Arc<[Value]>>> {
        let functions = match self.eval(space, env)? {
            Value::Set(functions) => functions,
            Value::Symbolic(s) => return self.total_functions_domain(&s, env),
            _ => return Ok(None),
        };
        let mut common: Option<Arc<[Value]>> = None;
        for f in functions.iter() {
            let Some(pairs) = f.as_set() else {
                return Ok(None);
            };
            if pairs.iter().any(|p| p.as_pair().is_none()) {
                return Ok(None);
            }
            let keys = crate::frontends::b::value::relations::domain(pairs);
            match &common {
                None => common = Some(keys.into()),
                Some(c) if c[..] == keys[..] => {}
                Some(_) => return Ok(None),
            }
        }
        Ok(common)
    }
}

/// The set a literal or slot holds, if `e` is one and holds a set.
fn explicit_set(e: &CExpr, env: &Env<'_>) -> Option<Arc<[Value]>> {
    let v = match &e.kind {
        // The program's literals are shared by every thread: take this
        // thread's copy, so that the reference count written is its own.
        EK::Lit(v) => {
            return match thread_copy(v) {
                Value::Set(s) => Some(s),
                _ => None,
            };
        }
        EK::Read(super::ir::Slot::Const(i)) => &env.consts[*i as usize],
        EK::Read(super::ir::Slot::Frame(i)) => &env.frame[*i as usize],
        _ => return None,
    };
    match v {
        Value::Set(s) => Some(s.clone()),
        _ => None,
    }
}

/// Destructures `v` into the pattern's slots; false if a bound part differs.
pub(crate) fn bind_pattern(p: &Pattern, v: &Value, env: &mut Env<'_>) -> bool {
    match p {
        Pattern::Slot(s) => {
            env.frame[*s as usize] = v.clone();
            true
        }
        Pattern::Bound(s) => env.frame[*s as usize] == *v,
        Pattern::Any => true,
        Pattern::Pair(a, b) => match v.as_pair() {
            Some((x, y)) => bind_pattern(a, x, env) && bind_pattern(b, y, env),
            None => false,
        },
    }
}

/// Injective sequences over `elems` of length `min..=max`, shortest first.
fn injective_sequences(
    elems: &[Value],
    min: usize,
    max: usize,
    used: &mut [bool],
    prefix: &mut Vec<Value>,
    f: &mut dyn FnMut(Value) -> R<bool>,
) -> R<bool> {
    for len in min..=max {
        if !arrangements(elems, len, used, prefix, f)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn arrangements(
    elems: &[Value],
    len: usize,
    used: &mut [bool],
    prefix: &mut Vec<Value>,
    f: &mut dyn FnMut(Value) -> R<bool>,
) -> R<bool> {
    if prefix.len() == len {
        within_budget(crate::diag::Span::default())?;
        return f(seqs::from_owned(prefix.iter().cloned()));
    }
    for i in 0..elems.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        prefix.push(elems[i].clone());
        let go_on = arrangements(elems, len, used, prefix, f)?;
        prefix.pop();
        used[i] = false;
        if !go_on {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The kind of function space being enumerated.
struct FunctionSpace {
    partial: bool,
    injective: bool,
    surjective: bool,
}

impl FunctionSpace {
    /// Calls `f` on every function from `dom` to `ran` of this kind, each
    /// domain element taking no image (if partial) and then each range
    /// element in turn, the first domain element varying slowest. A loop
    /// over an explicit choice per domain element, so that a domain of a
    /// million elements (`f : INT * INT --> S`) needs no deep stack.
    fn enumerate(
        &self,
        dom: &[Value],
        ran: &[Value],
        f: &mut dyn FnMut(Value) -> R<bool>,
    ) -> R<bool> {
        if self.injective && !self.partial && dom.len() > ran.len() {
            return Ok(true); // pigeonholes: no total injection
        }
        // Option `o` of a domain element: no image if partial and `o` is
        // 0, else range element `o - partial`.
        let skip = usize::from(self.partial);
        let options = ran.len() + skip;
        let image = |o: usize| o.checked_sub(skip);
        let mut chosen: Vec<usize> = Vec::with_capacity(dom.len());
        let mut used = vec![0u32; ran.len()];
        let mut covered = 0usize;
        // The first option to try at the next position.
        let mut next = 0usize;
        loop {
            // Polled at every node: a space whose every branch dies before
            // a leaf (`f : A >-> B & ...` pruned late) would never reach one.
            within_budget(crate::diag::Span::default())?;
            let i = chosen.len();
            // Not enough elements left to cover the range: back up.
            let hopeless = self.surjective && ran.len() - covered > dom.len() - i;
            let mut descended = false;
            if !hopeless && i == dom.len() {
                // Domain elements ascend, so the pairs are already sorted.
                let pairs: Vec<Value> = chosen
                    .iter()
                    .zip(dom)
                    .filter_map(|(&o, x)| image(o).map(|c| Value::pair(x.clone(), ran[c].clone())))
                    .collect();
                if !f(Value::set_from_sorted(pairs))? {
                    return Ok(false);
                }
            } else if !hopeless {
                let free = |o: usize| image(o).is_none_or(|c| !self.injective || used[c] == 0);
                if let Some(o) = (next..options).find(|&o| free(o)) {
                    if let Some(c) = image(o) {
                        used[c] += 1;
                        covered += usize::from(used[c] == 1);
                    }
                    chosen.push(o);
                    next = 0;
                    descended = true;
                }
            }
            if !descended {
                // Back up to the last element with an option left.
                let Some(o) = chosen.pop() else {
                    return Ok(true);
                };
                if let Some(c) = image(o) {
                    covered -= usize::from(used[c] == 1);
                    used[c] -= 1;
                }
                next = o + 1;
            }
        }
    }
}
