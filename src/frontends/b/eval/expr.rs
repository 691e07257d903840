//! Evaluating compiled expressions to values.
//!
//! Integer arithmetic is exact: in 64 bits where the operands and the result
//! fit, beyond that in [`crate::frontends::b::value::integers`] (division by
//! zero is a well-definedness error); `-` and `*` are integer or set operations depending
//! on the operands' values (the type checker has ensured both agree).
//! Symbolic sets (`NAT`, `POW(S)`, `A --> B`, ...) are only materialised
//! when used as a value; membership and enumeration handle them without
//! building them (see [`super::pred`] and [`super::enumerate`]).

use super::ir::{CExpr, EK, Slot, Solver};
use super::{Env, Fail, Interpreter, R, within_budget_every};
use crate::diag::Span;
use crate::frontends::b::ast::{BinaryOp, QuantifiedExprKind, UnaryOp};
use crate::frontends::b::value::integers::{self, IntOp};
use crate::frontends::b::value::relations::{self as rel, Applied};
use crate::frontends::b::value::{Symbolic, Value, sequences as seqs, sets};

/// The integer in `v`, or a type error at `span` (also for an integer
/// beyond 64 bits where orbit needs one that fits: a count, an index, a
/// bound to enumerate).
#[inline]
pub fn int(v: &Value, span: Span) -> R<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(not_an_int(v, span)),
    }
}

/// The error for a value [`int`] cannot read.
#[cold]
#[inline(never)]
fn not_an_int(v: &Value, span: Span) -> Fail {
    match v {
        Value::Big(b) => Fail::new(
            span,
            format!(
                "not supported yet: the integer {b}, beyond 64 bits, here (orbit computes and \
                 compares such integers, but does not count, index or enumerate with them)"
            ),
        ),
        _ => Fail::new(span, "expected an integer"),
    }
}

/// `va op vb` on integers of any size (the path beyond 64 bits), or a
/// type error at the operand's span.
#[cold]
#[inline(never)]
fn big_arith(op: IntOp, va: &Value, vb: &Value, spans: (Span, Span), span: Span) -> R<Value> {
    let (sa, sb) = spans;
    if !va.is_integer() {
        return Err(not_an_int(va, sa));
    }
    if !vb.is_integer() {
        return Err(not_an_int(vb, sb));
    }
    integers::binary_values(op, va, vb)
        .expect("both integers")
        .map_err(|e| Fail::new(span, e.message(op)))
}

/// The elements of the set `v`, or a type error at `span`.
#[inline]
pub fn set(v: &Value, span: Span) -> R<&[Value]> {
    match v {
        Value::Set(s) => Ok(s),
        _ => Err(not_a_set(v, span)),
    }
}

/// The error for a value [`set`] cannot list.
#[cold]
#[inline(never)]
fn not_a_set(v: &Value, span: Span) -> Fail {
    match v {
        Value::Symbolic(s) => super::symbolic::cannot_list(s, span),
        _ => Fail::new(span, "expected a set"),
    }
}

/// The shared elements of the set `v`, or a type error at `span`.
fn shared_set(v: &Value, span: Span) -> R<&std::sync::Arc<[Value]>> {
    match v {
        Value::Set(s) => Ok(s),
        _ => Err(not_a_set(v, span)),
    }
}

/// The elements of the sequence `v` in order, or an error at `span`.
pub fn seq(v: &Value, span: Span) -> R<Vec<&Value>> {
    seqs::elements(set(v, span)?)
        .ok_or_else(|| Fail::new(span, "expected a sequence (a function from 1..n)"))
}

/// Largest number of values a thread keeps copies of (then it starts over).
const THREAD_COPIES: usize = 1 << 12;

thread_local! {
    /// Per thread: a copy of each shared value of the program (literal
    /// sets, given sets) it evaluated, keyed by the original's address,
    /// with the original kept alive so that no other value can take that
    /// address while the entry exists.
    static COPIES: std::cell::RefCell<
        std::collections::HashMap<usize, (Value, Value), crate::frontends::b::value::fast_hash::FastBuild>,
    > = Default::default();
}

/// `v`, a value of the compiled program that every thread reads: cloning
/// it would write its reference count, which sits in the cache line of its
/// first elements, so threads evaluating the same literal would take that
/// line from each other on every use. A thread clones its own deep copy.
#[inline]
pub(crate) fn thread_copy(v: &Value) -> Value {
    let Some(address) = v.shared_address() else {
        return v.clone();
    };
    COPIES.with_borrow_mut(|copies| {
        if let Some((_, copy)) = copies.get(&address) {
            return copy.clone();
        }
        if copies.len() >= THREAD_COPIES {
            copies.clear();
        }
        let copy = v.deep_clone();
        copies.insert(address, (v.clone(), copy.clone()));
        copy
    })
}

impl Interpreter {
    /// The set a comprehension over sets or functions denotes, found by
    /// the constraint solver where enumeration would try more than
    /// [`super::cp::AUTO_THRESHOLD`] candidates (`{q | q : 1..n >-> 1..n &
    /// ...}`); `None` leaves it to enumeration (`--solver enumerate`,
    /// few candidates, or a condition beyond the solver).
    fn comprehension_by_solver(&self, solver: &Solver, env: &mut Env<'_>) -> R<Option<Value>> {
        let search = super::cp::Search::Comprehension;
        let Some(valuations) = self.binder_by_solver(solver, env, search)? else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(valuations.len());
        for valuation in valuations {
            for (&slot, v) in solver.vars.iter().zip(valuation) {
                env.frame[slot as usize] = v;
            }
            out.push(tuple(&solver.vars, env));
        }
        Ok(Some(Value::set_from_vec(out)))
    }

    /// The valuations of a binder's variables that the constraint solver
    /// finds through the binder's view of it ([`Solver::by_solver`]);
    /// `None` where it has none, under `--solver enumerate`, or where the
    /// solver leaves it to enumeration.
    pub(crate) fn binder_by_solver(
        &self,
        solver: &Solver,
        env: &Env<'_>,
        search: super::cp::Search,
    ) -> R<Option<Vec<Vec<Value>>>> {
        let Some(binder) = solver.by_solver.as_deref() else {
            return Ok(None);
        };
        if self.constant_solver == super::cp::ConstantSolver::Enumerate {
            return Ok(None);
        }
        let base = solver.vars[0] as usize;
        match self.solve_binder(base, binder, env, search) {
            None => Ok(None),
            Some(Ok(valuations)) => Ok(Some(valuations)),
            Some(Err(e)) => Err(match e.stopped {
                Some(reason) => Fail::stopped(e.span, reason),
                None => Fail::new(e.span, e.message),
            }),
        }
    }

    /// Evaluates an expression.
    pub(crate) fn eval(&self, e: &CExpr, env: &mut Env<'_>) -> R<Value> {
        let span = e.span;
        match &e.kind {
            EK::Lit(v) => Ok(thread_copy(v)),
            EK::Read(slot) => {
                let v = env.read(*slot);
                if let Value::Symbolic(sym) = v
                    && self.bound_integers
                {
                    let sym = sym.clone();
                    return self.listed_within_bounds(sym, env);
                }
                Ok(v.clone())
            }
            EK::Local(i, name) => {
                let v = &env.frame[*i as usize];
                if super::is_undefined(v) {
                    return Err(Fail::new(
                        span,
                        format!("`{name}` is read before it is assigned a value"),
                    ));
                }
                Ok(v.clone())
            }
            // With `--bound-integers`, `NATURAL` as a value is cut to
            // MININT..MAXINT (the run says it is bounded); without, it is an
            // error. Tests of membership, inclusion, `A - S` and `A /\ S`
            // never build it.
            EK::Ints(_) => self.materialise(e, env),
            EK::Strings => self.materialise(e, env),
            // Built where it is finite (not recursive).
            EK::FreeType(_) => self.materialise(e, env),
            EK::Destruct(ctor, name, v) => match self.eval(v, env)? {
                Value::Pair(pair) if pair.0 == Value::Int((*ctor).into()) => Ok(pair.1.clone()),
                _ => Err(Fail::new(
                    span,
                    format!("`{name}~` applied to a value another constructor built"),
                )),
            },
            EK::Unary(op, a) => self.unary(*op, a, e, env),
            EK::Binary(op, a, b) => self.binary(*op, a, b, e, env),
            EK::Projection(first, a, b) => {
                let sa = self.eval(a, env)?;
                let sb = self.eval(b, env)?;
                let (sa, sb) = (set(&sa, a.span)?, set(&sb, b.span)?);
                let mut out = Vec::with_capacity(sa.len() * sb.len());
                for x in sa {
                    for y in sb {
                        let p = Value::pair(x.clone(), y.clone());
                        out.push(Value::pair(p, if *first { x.clone() } else { y.clone() }));
                    }
                }
                Ok(Value::set_from_vec(out))
            }
            EK::Symbolic(def) => self.eval_symbolic(def, env),
            EK::Memo(m) => self.eval_memo(m, env),
            EK::Optimum(o) => self.optimum(o, span, env),
            EK::External(f, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                if *f == crate::frontends::b::library::External::ToString {
                    let printed = values[0].display(&self.given_sets).to_string();
                    return Ok(Value::str(&printed));
                }
                f.apply(&values).map_err(|why| {
                    use crate::frontends::b::library::External::{AssertExpr, AssertTrue};
                    if matches!(f, AssertTrue | AssertExpr) {
                        // The model's own assertion, with its message.
                        Fail::new(span, why)
                    } else {
                        Fail::new(
                            span,
                            format!("external function applied outside its domain: {why}"),
                        )
                    }
                })
            }
            EK::Component(first, p) => match self.eval(p, env)? {
                Value::Pair(pair) => Ok(if *first {
                    pair.0.clone()
                } else {
                    pair.1.clone()
                }),
                _ => Err(Fail::new(p.span, "expected a pair")),
            },
            EK::Iterate(r, n) => {
                let rv = self.eval(r, env)?;
                let n = int(&self.eval(n, env)?, span)?;
                let r = set(&rv, span)?;
                if n < 0 {
                    return Err(Fail::new(
                        span,
                        format!("iterate with a negative count {n}"),
                    ));
                }
                if n == 0 {
                    let mut field = rel::domain(r);
                    field = sets::union(&field, &rel::range(r));
                    return Ok(Value::set_from_sorted(rel::identity(&field)));
                }
                let mut acc = r.to_vec();
                for _ in 1..n {
                    acc = rel::compose(&acc, r);
                }
                Ok(Value::set_from_sorted(acc))
            }
            EK::Apply(f, x) => {
                if let Some(y) = self.eval_ref(e, env)? {
                    return Ok(y.clone());
                }
                let arg = self.eval(x, env)?;
                if let Some(y) = self.apply_maplets(f, &arg, env)? {
                    return Ok(y);
                }
                let owned;
                let fv = match f.kind {
                    EK::Read(Slot::Const(i)) => &env.consts[i as usize],
                    EK::Read(Slot::Frame(i)) => &env.frame[i as usize],
                    _ => {
                        owned = self.eval(f, env)?;
                        &owned
                    }
                };
                if let Value::Symbolic(s) = fv {
                    let s = s.clone();
                    return self.apply_symbolic(&s, &arg, span, env);
                }
                apply(fv, &arg, f.span, span)
            }
            EK::ApplyBinder(f, x) => {
                let arg = self.eval(x, env)?;
                self.apply_binder(f, &arg, span, env)
            }
            EK::ComposeBinder(p, r) => {
                let pv = self.eval(p, env)?;
                self.compose_binder(set(&pv, p.span)?, r, span, env)
            }
            EK::ImageBinder(r, s) => {
                let sv = self.eval(s, env)?;
                self.image_binder(r, set(&sv, s.span)?, span, env)
            }
            EK::Image(r, s) => {
                if let EK::Unary(UnaryOp::Inverse, inner) = &r.kind {
                    // `r~[S]`: the x with some `x |-> y : r`, y in S (no inverse built).
                    let rv = self.eval(inner, env)?;
                    let pairs = set(&rv, inner.span)?;
                    let mut out: Vec<Value> = if let EK::SetEnum(items) = &s.kind
                        && let [item] = items.as_slice()
                    {
                        // `r~[{y}]` (`pst~[{active}]`): no singleton set built.
                        let y = self.eval(item, env)?;
                        pairs
                            .iter()
                            .filter(|p| rel::second(p).fast_eq(&y))
                            .map(|p| rel::first(p).clone())
                            .collect()
                    } else {
                        let sv = self.eval(s, env)?;
                        let sset = set(&sv, s.span)?;
                        pairs
                            .iter()
                            .filter(|p| sets::contains(sset, rel::second(p)))
                            .map(|p| rel::first(p).clone())
                            .collect()
                    };
                    out.dedup();
                    return Ok(Value::set_from_sorted(out));
                }
                // A loop-invariant closure is kept by the memo: look inside.
                let closure = match &r.kind {
                    EK::Memo(m) => &m.expr.kind,
                    other => other,
                };
                // Only a name can be symbolic; reading it twice costs nothing.
                if let EK::Unary(op @ (UnaryOp::Closure1 | UnaryOp::Closure), inner) = closure
                    && matches!(inner.kind, EK::Read(_))
                    && let Value::Symbolic(sym) = self.eval(inner, env)?
                {
                    let sv = self.eval(s, env)?;
                    let reflexive = *op == UnaryOp::Closure;
                    return self.closure_image_symbolic(
                        &sym,
                        set(&sv, s.span)?,
                        reflexive,
                        span,
                        env,
                    );
                }
                let rv = self.eval(r, env)?;
                if let EK::Binary(BinaryOp::Interval, lo, hi) = &s.kind
                    && !matches!(rv, Value::Symbolic(_))
                    && let Some(lo) = self.eval(lo, env)?.as_int()
                    && let Some(hi) = self.eval(hi, env)?.as_int()
                {
                    // `r[a..b]`: the pairs whose first is within, the
                    // interval never built (`r[3..10000000]`).
                    let within =
                        |p: &&Value| rel::first(p).as_int().is_some_and(|x| lo <= x && x <= hi);
                    let out = set(&rv, r.span)?
                        .iter()
                        .filter(within)
                        .map(|p| rel::second(p).clone());
                    return Ok(Value::set_from_vec(out.collect()));
                }
                let sv = self.eval(s, env)?;
                if let Value::Symbolic(sym) = &rv {
                    return self.image_symbolic(sym, set(&sv, s.span)?, span, env);
                }
                Ok(Value::set_from_sorted(rel::image(
                    set(&rv, r.span)?,
                    set(&sv, s.span)?,
                )))
            }
            EK::SetEnum(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.eval(x, env)?);
                }
                Ok(Value::set_from_vec(out))
            }
            EK::SeqEnum(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.eval(x, env)?);
                }
                Ok(seqs::from_owned(out))
            }
            EK::Comprehension(solver) => {
                if let Some(set) = self.comprehension_by_solver(solver, env)? {
                    return Ok(set);
                }
                let mut out = Vec::new();
                self.solve(solver, env, &mut |env| {
                    out.push(tuple(&solver.vars, env));
                    Ok(true)
                })?;
                Ok(Value::set_from_vec(out))
            }
            EK::Lambda(solver, body) => {
                let mut out = Vec::new();
                self.solve(solver, env, &mut |env| {
                    let y = self.eval(body, env)?;
                    out.push(Value::pair(tuple(&solver.vars, env), y));
                    Ok(true)
                })?;
                Ok(Value::set_from_vec(out))
            }
            EK::Quantified(kind, solver, body) => self.quantified(*kind, solver, body, span, env),
            EK::BoolOf(p) => Ok(Value::Bool(self.holds(p, env)?)),
            EK::IfThenElse(c, a, b) => {
                if self.holds(c, env)? {
                    self.eval(a, env)
                } else {
                    self.eval(b, env)
                }
            }
            EK::Splits(s, sizes, each) => {
                let v = self.eval(s, env)?;
                let mut fixed = Vec::with_capacity(sizes.len());
                for size in sizes {
                    fixed.push(match size {
                        Some(e) => Some(super::expr::int(&self.eval(e, env)?, e.span)?),
                        None => None,
                    });
                }
                let mut out = Vec::new();
                if *each {
                    for sequence in set(&v, s.span)?.iter() {
                        // Only sequences can be cut (`S[{e}]` of a relation
                        // into sets holds others; they match no cut).
                        if let Ok(elements) = seq(sequence, s.span) {
                            Self::splits(&elements, &fixed, 0, None, &mut out, span)?;
                        }
                    }
                } else {
                    let elements = seq(&v, s.span)?;
                    Self::splits(&elements, &fixed, 0, None, &mut out, span)?;
                }
                Ok(Value::set_from_vec(out))
            }
            EK::Let(solver, body) => {
                let mut result = None;
                self.solve(solver, env, &mut |env| {
                    result = Some(self.eval(body, env)?);
                    Ok(false)
                })?;
                result.ok_or_else(|| Fail::new(span, "the LET bindings have no solution"))
            }
        }
    }

    /// Pushes onto `out` every way to cut `elements[from..]` into
    /// `sizes.len()` parts, each of its fixed size where it has one, as the
    /// left-nested tuple continuing `prefix`.
    fn splits(
        elements: &[&Value],
        sizes: &[Option<i64>],
        from: usize,
        prefix: Option<Value>,
        out: &mut Vec<Value>,
        span: Span,
    ) -> R<()> {
        let Some((size, rest)) = sizes.split_first() else {
            return Ok(());
        };
        let left = elements.len() - from;
        let lengths = match size {
            Some(n) if *n < 0 || *n as usize > left => return Ok(()),
            Some(n) => *n as usize..=*n as usize,
            // The last part takes what is left.
            None if rest.is_empty() => left..=left,
            None => 0..=left,
        };
        for len in lengths {
            if rest.is_empty() && len != left {
                continue;
            }
            within_budget_every(out.len(), span)?;
            let part = seqs::from_elements(elements[from..from + len].iter().copied());
            let tuple = match &prefix {
                None => part,
                Some(t) => Value::pair(t.clone(), part),
            };
            if rest.is_empty() {
                out.push(tuple);
            } else {
                Self::splits(elements, rest, from + len, Some(tuple), out, span)?;
            }
        }
        Ok(())
    }

    /// `card(r~[{y}])` without building the image, if `e` is `r~[{y}]`
    /// (`card(pst~[{active}]) <= 1`, `pst~[{active}] = {}`: invariants and
    /// guards evaluated in every state). Each `x |-> y` is in `r` once, so
    /// the image has one element per pair with second component `y`.
    /// Evaluates `r`, then `y`, as the general path does.
    pub(crate) fn inverse_singleton_count(&self, e: &CExpr, env: &mut Env<'_>) -> R<Option<usize>> {
        if let EK::Image(r, s) = &e.kind
            && let EK::Unary(UnaryOp::Inverse, inner) = &r.kind
            && let EK::SetEnum(items) = &s.kind
            && let [item] = items.as_slice()
        {
            let rv = self.eval(inner, env)?;
            let pairs = set(&rv, inner.span)?;
            let y = self.eval(item, env)?;
            return Ok(Some(
                pairs.iter().filter(|p| rel::second(p).fast_eq(&y)).count(),
            ));
        }
        Ok(None)
    }

    /// Whether `r~[{y}]`, `A /\ B` or `A - B` is empty, decided without
    /// building it (`(rtbl~)[{r}] /\ resbl = {}`, `resrt - ran(rsrtbl) =
    /// {}` of guards): no pair with second `y`, no common element, or `A <:
    /// B`. `None` where `e` is none of these, or a side is not a listed set
    /// (`A /\ NATURAL`, a symbolic set): the caller evaluates it.
    pub(crate) fn is_empty_unbuilt(&self, e: &CExpr, env: &mut Env<'_>) -> R<Option<bool>> {
        if let Some(n) = self.inverse_singleton_count(e, env)? {
            return Ok(Some(n == 0));
        }
        let EK::Binary(op @ (BinaryOp::Inter | BinaryOp::Minus), a, b) = &e.kind else {
            return Ok(None);
        };
        if self.is_unlistable(b, env) || self.is_unlistable(a, env) {
            return Ok(None);
        }
        let va = self.eval(a, env)?;
        let Value::Set(x) = &va else {
            return Ok(None);
        };
        let vb = self.eval(b, env)?;
        let Value::Set(y) = &vb else {
            return Ok(None);
        };
        Ok(Some(if *op == BinaryOp::Inter {
            !sets::intersects(x, y)
        } else {
            sets::is_subset(x, y)
        }))
    }

    /// `{k1 |-> v1, k2 |-> v2, ...}(arg)` where exactly one key equals
    /// `arg`: its value, the others unevaluated (as ProB, which applies
    /// the normal forms of its ASM translation, `{TRUE |-> x1, FALSE |->
    /// x}(upd)`, before `x` has a value). `None` where `f` is not such an
    /// enumeration or not exactly one key matches: the caller applies the
    /// whole set, which reports a missing or ambiguous key.
    fn apply_maplets(&self, f: &CExpr, arg: &Value, env: &mut Env<'_>) -> R<Option<Value>> {
        let EK::SetEnum(items) = &f.kind else {
            return Ok(None);
        };
        let mut found = None;
        for item in items {
            let EK::Binary(BinaryOp::Maplet, k, v) = &item.kind else {
                return Ok(None);
            };
            if self.eval(k, env)? == *arg {
                if found.is_some() {
                    return Ok(None);
                }
                found = Some(v);
            }
        }
        match found {
            Some(v) => self.eval(v, env).map(Some),
            None => Ok(None),
        }
    }

    /// The value of `e` by reference, without cloning, when it is a
    /// literal, a slot, or a function application of such (the common
    /// `pst(p)` of guards); `None` for anything else.
    pub(crate) fn eval_ref<'v>(&self, e: &'v CExpr, env: &'v Env<'_>) -> R<Option<&'v Value>> {
        match &e.kind {
            EK::Lit(v) => Ok(Some(v)),
            EK::Read(Slot::Const(i)) => Ok(Some(&env.consts[*i as usize])),
            EK::Read(Slot::Frame(i)) => Ok(Some(&env.frame[*i as usize])),
            EK::Apply(f, x) => {
                let (Some(fv), Some(xv)) = (self.eval_ref(f, env)?, self.eval_ref(x, env)?) else {
                    return Ok(None);
                };
                if matches!(fv, Value::Symbolic(_)) {
                    return Ok(None);
                }
                apply_ref(fv, xv, f.span, e.span).map(Some)
            }
            _ => Ok(None),
        }
    }

    fn quantified(
        &self,
        kind: QuantifiedExprKind,
        solver: &super::ir::Solver,
        body: &CExpr,
        span: Span,
        env: &mut Env<'_>,
    ) -> R<Value> {
        match kind {
            QuantifiedExprKind::Sum | QuantifiedExprKind::Product => {
                let sum = kind == QuantifiedExprKind::Sum;
                let mut acc = Value::Int(if sum { 0 } else { 1 });
                let op = if sum { IntOp::Add } else { IntOp::Mul };
                self.solve(solver, env, &mut |env| {
                    let v = self.eval(body, env)?;
                    let next = match (&acc, &v) {
                        (Value::Int(a), Value::Int(b)) if sum => a.checked_add(*b),
                        (Value::Int(a), Value::Int(b)) => a.checked_mul(*b),
                        _ => None,
                    };
                    acc = match next {
                        Some(n) => Value::Int(n),
                        None => big_arith(op, &acc, &v, (span, body.span), span)?,
                    };
                    Ok(true)
                })?;
                Ok(acc)
            }
            QuantifiedExprKind::Union => {
                let mut acc: Vec<Value> = Vec::new();
                self.solve(solver, env, &mut |env| {
                    let v = self.eval(body, env)?;
                    acc = sets::union(&acc, set(&v, body.span)?);
                    Ok(true)
                })?;
                Ok(Value::set_from_sorted(acc))
            }
            QuantifiedExprKind::Inter => {
                let mut acc: Option<Vec<Value>> = None;
                self.solve(solver, env, &mut |env| {
                    let v = self.eval(body, env)?;
                    let s = set(&v, body.span)?;
                    acc = Some(match &acc {
                        None => s.to_vec(),
                        Some(a) => sets::inter(a, s),
                    });
                    Ok(true)
                })?;
                acc.map(Value::set_from_sorted)
                    .ok_or_else(|| Fail::new(span, "INTER over an empty set of indices"))
            }
        }
    }

    /// The cardinality of an interval, a cartesian product or a power set
    /// of those, computed from their bounds (`card(1..2147483647)`,
    /// `card((1..1000) * (1..1000))`, `card(POW(1..20))`) rather than from
    /// a set too large to build; `None` for any other set, or a count
    /// beyond 64 bits.
    fn card_by_arithmetic(&self, a: &CExpr, env: &mut Env<'_>) -> R<Option<i64>> {
        Ok(match &a.kind {
            EK::Memo(m) => return self.card_by_arithmetic(&m.expr, env),
            EK::Binary(BinaryOp::Interval, lo, hi) => {
                match (self.eval(lo, env)?.as_int(), self.eval(hi, env)?.as_int()) {
                    (Some(lo), Some(hi)) if hi < lo => Some(0),
                    (Some(lo), Some(hi)) => hi.checked_sub(lo).and_then(|d| d.checked_add(1)),
                    _ => None,
                }
            }
            EK::Binary(BinaryOp::Mul, x, y) => {
                match (
                    self.card_by_arithmetic(x, env)?,
                    self.card_by_arithmetic(y, env)?,
                ) {
                    (Some(x), Some(y)) => x.checked_mul(y),
                    _ => None,
                }
            }
            EK::Unary(op @ (UnaryOp::Pow | UnaryOp::Pow1), x) => {
                match self.card_by_arithmetic(x, env)? {
                    Some(n) if n < 63 => Some((1i64 << n) - i64::from(*op == UnaryOp::Pow1)),
                    _ => None,
                }
            }
            // `card(S --> T) = |T|^|S|`, `card(S +-> T) = (|T| + 1)^|S|`,
            // `card(S <-> T) = 2^(|S| * |T|)`.
            EK::Binary(op, x, y) if op.is_relation_set() => {
                let (Some(nx), Some(ny)) = (self.part_card(x, env)?, self.part_card(y, env)?)
                else {
                    return Ok(None);
                };
                let (Ok(nx), Ok(ny)) = (u32::try_from(nx), u32::try_from(ny)) else {
                    return Ok(None);
                };
                match relations_count(*op, nx, ny) {
                    Some((count, true)) => i64::try_from(count).ok(),
                    _ => None,
                }
            }
            _ => None,
        })
    }

    /// The number of elements of a part of a set of functions: by
    /// [`Self::card_by_arithmetic`], or of a set read in place.
    fn part_card(&self, x: &CExpr, env: &mut Env<'_>) -> R<Option<i64>> {
        if let Some(n) = self.card_by_arithmetic(x, env)? {
            return Ok(Some(n));
        }
        Ok(match self.eval_ref(x, env)? {
            Some(Value::Set(items)) => i64::try_from(items.len()).ok(),
            _ => None,
        })
    }

    fn unary(&self, op: UnaryOp, a: &CExpr, whole: &CExpr, env: &mut Env<'_>) -> R<Value> {
        use UnaryOp::*;
        let span = whole.span;
        if matches!(
            op,
            Pow | Pow1 | Fin | Fin1 | Seq | Seq1 | Iseq | Iseq1 | Perm
        ) {
            return self.materialise(whole, env);
        }
        if op == Card {
            // card of a symbolic set without building it where possible.
            if let EK::Ints(_) = a.kind {
                return Err(Fail::new(span, "card of an infinite set"));
            }
            if let Some(n) = self.inverse_singleton_count(a, env)? {
                return Ok(Value::Int(n as i64));
            }
            if let Some(n) = self.card_by_arithmetic(a, env)? {
                return Ok(Value::Int(n));
            }
            // A set read in place (a given set, a constant, a variable):
            // counted without a copy of it.
            if let Some(Value::Set(items)) = self.eval_ref(a, env)? {
                return Ok(Value::Int(items.len() as i64));
            }
        }
        let v = self.eval(a, env)?;
        let sp = a.span;
        Ok(match op {
            Minus => match v.as_int().and_then(i64::checked_neg) {
                Some(n) => Value::Int(n),
                None => big_arith(IntOp::Sub, &Value::Int(0), &v, (span, sp), span)?,
            },
            Not => return Err(Fail::new(span, "a predicate used as a value")),
            Inverse => Value::set_from_vec(rel::inverse(set(&v, sp)?)),
            Card => Value::Int(set(&v, sp)?.len() as i64),
            Dom => Value::set_from_sorted(rel::domain(set(&v, sp)?)),
            Ran => Value::set_from_sorted(rel::range(set(&v, sp)?)),
            GeneralUnion => {
                let mut acc: Vec<Value> = Vec::new();
                for s in set(&v, sp)? {
                    acc = sets::union(&acc, set(s, sp)?);
                }
                Value::set_from_sorted(acc)
            }
            GeneralInter => {
                let ss = set(&v, sp)?;
                let Some((first, rest)) = ss.split_first() else {
                    return Err(Fail::new(span, "inter of an empty set of sets"));
                };
                let mut acc = set(first, sp)?.to_vec();
                for s in rest {
                    acc = sets::inter(&acc, set(s, sp)?);
                }
                Value::set_from_sorted(acc)
            }
            Min | Max => {
                let s = set(&v, sp)?;
                let x = if op == Min { s.first() } else { s.last() };
                match x {
                    Some(x) => x.clone(),
                    None => {
                        return Err(Fail::new(
                            span,
                            format!("{} of the empty set", if op == Min { "min" } else { "max" }),
                        ));
                    }
                }
            }
            Id => Value::set_from_sorted(rel::identity(set(&v, sp)?)),
            Closure1 => closure_cached(&v, sp, false)?,
            Closure => closure_cached(&v, sp, true)?,
            First | Last | Front | Tail => {
                let s = seq(&v, sp)?;
                if s.is_empty() {
                    // `first(s)` is `s(1)`, `last(s)` is `s(size(s))`: an
                    // application outside the domain, which a guard reads
                    // as false (ProB's FlightSystem guards TakeTicket with
                    // `first(waitingQueue(fl)) = cu`); `front` and `tail`
                    // with them. PROPERTIES reports it (see
                    // `Fail::empty_sequence`).
                    return Err(Fail::empty_sequence(
                        span,
                        match op {
                            First => "first of the empty sequence",
                            Last => "last of the empty sequence",
                            Front => "front of the empty sequence",
                            _ => "tail of the empty sequence",
                        },
                    ));
                }
                match op {
                    First => s[0].clone(),
                    Last => s[s.len() - 1].clone(),
                    Front => seqs::from_elements(s[..s.len() - 1].iter().copied()),
                    _ => seqs::from_elements(s[1..].iter().copied()),
                }
            }
            Size => Value::Int(seq(&v, sp)?.len() as i64),
            Rev => seqs::from_elements(seq(&v, sp)?.into_iter().rev()),
            Conc => {
                let mut out: Vec<Value> = Vec::new();
                for s in seq(&v, sp)? {
                    out.extend(seq(s, sp)?.into_iter().cloned());
                }
                seqs::from_owned(out)
            }
            Succ => match v.as_int().and_then(|i| i.checked_add(1)) {
                Some(n) => Value::Int(n),
                None => big_arith(IntOp::Add, &v, &Value::Int(1), (sp, span), span)?,
            },
            Pred => match v.as_int().and_then(|i| i.checked_sub(1)) {
                Some(n) => Value::Int(n),
                None => big_arith(IntOp::Sub, &v, &Value::Int(1), (sp, span), span)?,
            },
            Fnc => {
                let r = set(&v, sp)?;
                let out: Vec<Value> = rel::domain(r)
                    .into_iter()
                    .map(|x| {
                        let ys: Vec<Value> = rel::pairs_from(r, &x)
                            .iter()
                            .map(|p| rel::second(p).clone())
                            .collect();
                        Value::pair(x, Value::set_from_vec(ys))
                    })
                    .collect();
                Value::set_from_sorted(out)
            }
            Rel => {
                let mut out = Vec::new();
                for p in set(&v, sp)? {
                    for y in set(rel::second(p), sp)? {
                        out.push(Value::pair(rel::first(p).clone(), y.clone()));
                    }
                }
                Value::set_from_vec(out)
            }
            Pow | Pow1 | Fin | Fin1 | Seq | Seq1 | Iseq | Iseq1 | Perm => {
                unreachable!("handled above")
            }
        })
    }

    fn binary(
        &self,
        op: BinaryOp,
        a: &CExpr,
        b: &CExpr,
        whole: &CExpr,
        env: &mut Env<'_>,
    ) -> R<Value> {
        use BinaryOp::*;
        let span = whole.span;
        if op.is_relation_set() {
            return self.materialise(whole, env);
        }
        if op == Override
            && let EK::SetEnum(items) = &b.kind
            && let [item] = items.as_slice()
            && let EK::Binary(Maplet, x, y) = &item.kind
        {
            // `f <+ {x |-> y}` (from `f(x) := y`): replace one image, one
            // allocation, no singleton built (the hot path of most models).
            let fv = self.eval(a, env)?;
            let (xv, yv) = (self.eval(x, env)?, self.eval(y, env)?);
            return Ok(Value::Set(rel::with_image(
                shared_set(&fv, a.span)?,
                xv,
                yv,
            )));
        }
        if matches!(op, Union | Minus)
            && let EK::SetEnum(items) = &b.kind
            && let [item] = items.as_slice()
        {
            // `s \/ {x}` and `s - {x}`: one copy, no singleton set built.
            let sv = self.eval(a, env)?;
            let x = self.eval(item, env)?;
            let s = shared_set(&sv, a.span)?;
            return Ok(Value::Set(if op == Union {
                sets::with_inserted(s, x)
            } else {
                sets::with_removed(s, &x)
            }));
        }
        if matches!(op, DomainSubtraction | DomainRestriction)
            && let EK::SetEnum(items) = &a.kind
            && let [item] = items.as_slice()
        {
            // `{x} <<| f` and `{x} <| f`: cut out (or keep) the run of pairs
            // from x, one allocation, no singleton set built.
            let x = self.eval(item, env)?;
            let rv = self.eval(b, env)?;
            let r = shared_set(&rv, b.span)?;
            let run = rel::run_from(r, &x);
            return Ok(Value::Set(if op == DomainSubtraction {
                sets::splice(r, run, None)
            } else {
                r[run].into()
            }));
        }
        if matches!(op, Minus | Inter) {
            // `A - NATURAL`, `A /\ NATURAL`, `NATURAL /\ A`: the members of
            // the listed side kept by a test on each, as `enum_set` lists
            // them.
            // `open_a` only where it decides: a walk down a chain of `-`
            // at each of its links would be quadratic in its length.
            let open_b = self.is_unlistable(b, env);
            if (open_b || op == Inter) && self.is_unlistable(a, env) != open_b {
                return self.materialise(whole, env);
            }
        }
        let va = self.eval(a, env)?;
        let vb = self.eval(b, env)?;
        let (sa, sb) = (a.span, b.span);
        let arith = |f: fn(i64, i64) -> Option<i64>, op: IntOp| -> R<Value> {
            if let (Value::Int(x), Value::Int(y)) = (&va, &vb)
                && let Some(r) = f(*x, *y)
            {
                return Ok(Value::Int(r));
            }
            big_arith(op, &va, &vb, (sa, sb), span)
        };
        Ok(match op {
            Add => arith(i64::checked_add, IntOp::Add)?,
            Minus => match (&va, &vb) {
                // `s - {}` and `{} - s` share `s`'s elements instead of
                // copying them (a loop's `set := set - removed` of a large set).
                (Value::Set(x), Value::Set(y)) if x.is_empty() || y.is_empty() => va.clone(),
                (Value::Set(x), Value::Set(y)) => Value::set_from_sorted(sets::difference(x, y)),
                _ => arith(i64::checked_sub, IntOp::Sub)?,
            },
            Mul => match (&va, &vb) {
                (Value::Set(x), Value::Set(y)) => {
                    let mut out = Vec::with_capacity(x.len() * y.len());
                    for p in x.iter() {
                        for q in y.iter() {
                            out.push(Value::pair(p.clone(), q.clone()));
                        }
                    }
                    Value::set_from_sorted(out)
                }
                _ => arith(i64::checked_mul, IntOp::Mul)?,
            },
            Div | Mod => {
                let (Value::Int(x), Value::Int(y)) = (&va, &vb) else {
                    let op = if op == Div { IntOp::Div } else { IntOp::Mod };
                    return big_arith(op, &va, &vb, (sa, sb), span);
                };
                let (x, y) = (*x, *y);
                if y == 0 {
                    return Err(Fail::new(
                        span,
                        format!("{} by zero", if op == Div { "division" } else { "modulo" }),
                    ));
                }
                if op == Mod && (x < 0 || y < 0) {
                    return Err(Fail::new(span, "mod with a negative operand"));
                }
                // B division truncates towards zero, like Rust's
                // (`MININT / -1` overflows 64 bits).
                match if op == Div {
                    x.checked_div(y)
                } else {
                    x.checked_rem(y)
                } {
                    Some(r) => Value::Int(r),
                    None => big_arith(IntOp::Div, &va, &vb, (sa, sb), span)?,
                }
            }
            Power => {
                if let (Value::Int(x), Value::Int(y)) = (&va, &vb)
                    && let Ok(y) = u32::try_from(*y)
                    && let Some(r) = x.checked_pow(y)
                {
                    Value::Int(r)
                } else {
                    big_arith(IntOp::Pow, &va, &vb, (sa, sb), span)?
                }
            }
            Interval
                if matches!((&va, &vb), (Value::Big(_), _) | (_, Value::Big(_)))
                    && va.is_integer()
                    && vb.is_integer() =>
            {
                // A bound beyond 64 bits: empty, or too large to build.
                if vb < va {
                    return Ok(Value::empty_set());
                }
                return Err(Fail::infinite(
                    span,
                    format!(
                        "the interval {}..{} is too large to build",
                        va.as_integer().expect("an integer"),
                        vb.as_integer().expect("an integer")
                    ),
                ));
            }
            Interval => {
                let (lo, hi) = (int(&va, sa)?, int(&vb, sb)?);
                if hi >= lo && hi - lo >= super::MAX_MATERIALISED as i64 {
                    return Err(Fail::infinite(
                        span,
                        format!("the interval {lo}..{hi} is too large to build"),
                    ));
                }
                Value::set_from_sorted((lo..=hi).map(Value::Int).collect())
            }
            Union => match (set(&va, sa)?, set(&vb, sb)?) {
                (_, []) => va.clone(),
                ([], _) => vb.clone(),
                (x, y) => Value::set_from_sorted(sets::union(x, y)),
            },
            Inter => Value::set_from_sorted(sets::inter(set(&va, sa)?, set(&vb, sb)?)),
            Maplet => Value::pair(va, vb),
            DomainRestriction => {
                Value::set_from_sorted(rel::restrict_domain(set(&vb, sb)?, set(&va, sa)?, true))
            }
            DomainSubtraction => {
                Value::set_from_sorted(rel::restrict_domain(set(&vb, sb)?, set(&va, sa)?, false))
            }
            RangeRestriction => {
                Value::set_from_sorted(rel::restrict_range(set(&va, sa)?, set(&vb, sb)?, true))
            }
            RangeSubtraction => {
                Value::set_from_sorted(rel::restrict_range(set(&va, sa)?, set(&vb, sb)?, false))
            }
            Override => Value::set_from_sorted(rel::overwrite(set(&va, sa)?, set(&vb, sb)?)),
            DirectProduct => {
                Value::set_from_sorted(rel::direct_product(set(&va, sa)?, set(&vb, sb)?))
            }
            Composition => {
                if let Value::Symbolic(r) = &vb {
                    return self.compose_symbolic(set(&va, sa)?, r, span, env);
                }
                Value::set_from_sorted(rel::compose(set(&va, sa)?, set(&vb, sb)?))
            }
            ParallelProduct => {
                Value::set_from_sorted(rel::parallel_product(set(&va, sa)?, set(&vb, sb)?))
            }
            Append => {
                let mut s: Vec<Value> = seq(&va, sa)?.into_iter().cloned().collect();
                s.push(vb);
                seqs::from_owned(s)
            }
            Prepend => {
                let mut s = vec![va];
                s.extend(seq(&vb, sb)?.into_iter().cloned());
                seqs::from_owned(s)
            }
            Concat => {
                let mut s: Vec<Value> = seq(&va, sa)?.into_iter().cloned().collect();
                s.extend(seq(&vb, sb)?.into_iter().cloned());
                seqs::from_owned(s)
            }
            TakeFront | DropFront => {
                let s = seq(&va, sa)?;
                let n = int(&vb, sb)?;
                if n < 0 || n as usize > s.len() {
                    return Err(Fail::new(
                        span,
                        format!("index {n} out of range 0..{} of the sequence", s.len()),
                    ));
                }
                let n = n as usize;
                if op == TakeFront {
                    seqs::from_elements(s[..n].iter().copied())
                } else {
                    seqs::from_elements(s[n..].iter().copied())
                }
            }
            Relation | PartialFunction | TotalFunction | PartialInjection | TotalInjection
            | PartialSurjection | TotalSurjection | PartialBijection | TotalBijection => {
                unreachable!("handled above")
            }
            Eq | Neq | Member | NotMember | Subset | StrictSubset | NotSubset | NotStrictSubset
            | Lt | Le | Gt | Ge | And | Or | Implies | Equiv => {
                return Err(Fail::new(span, "a predicate used as a value"));
            }
        })
    }

    /// An upper bound on the number of elements of a set of relations or
    /// subsets (`S --> T`: |T|^|S|, `S +-> T`: (|T|+1)^|S|, `S <-> T` and
    /// `POW(S)`: 2^|S*T| and 2^|S|) from the sizes of its parts; `None`
    /// for any other set, or parts that are not listed sets.
    fn space_size(&self, e: &CExpr, env: &mut Env<'_>) -> R<Option<u128>> {
        let mut card = |x: &CExpr| -> R<Option<u32>> {
            Ok(match self.eval(x, env)? {
                Value::Set(s) => u32::try_from(s.len()).ok(),
                _ => None,
            })
        };
        Ok(match &e.kind {
            EK::Binary(op, a, b) if op.is_relation_set() => {
                let (Some(na), Some(nb)) = (card(a)?, card(b)?) else {
                    return Ok(None);
                };
                relations_count(*op, na, nb).map(|(count, _)| count)
            }
            EK::Unary(UnaryOp::Pow | UnaryOp::Pow1, a) => {
                card(a)?.map(|n| 2u128.checked_pow(n).unwrap_or(u128::MAX))
            }
            _ => None,
        })
    }

    /// Is `e` a set that cannot be listed but whose members a test tells
    /// (`NATURAL`, `INTEGER`, a constant kept symbolic, and differences,
    /// unions and intersections of such): `A /\ e` and `A - e` keep the
    /// members of `A` that pass it.
    pub(crate) fn is_unlistable(&self, e: &CExpr, env: &Env<'_>) -> bool {
        self.unlistable(e, Some(env))
    }

    /// [`Self::is_unlistable`]; without `env`, by what `e` writes alone
    /// (an unbounded built-in set of integers, or sets made of one), not
    /// the constants it reads.
    fn unlistable(&self, e: &CExpr, env: Option<&Env<'_>>) -> bool {
        match &e.kind {
            EK::Ints(kind) => !matches!(self.int_bounds(*kind), (Some(_), Some(_))),
            // A constant kept symbolic (`iv = INTEGER`).
            EK::Read(slot) => {
                let v = env.and_then(|env| env.get(*slot));
                matches!(v, Some(Value::Symbolic(_)))
            }
            // The domain of a function kept symbolic (`dom(f)` for `f =
            // %n.(n : NATURAL | ..)`): tested by membership.
            EK::Unary(UnaryOp::Dom, f) if matches!(f.kind, EK::Read(_)) => self.unlistable(f, env),
            // `NATURAL - (0..3)`, `NATURAL \/ A`, `NATURAL /\ INTEGER`:
            // their members told by a test on each part.
            EK::Binary(BinaryOp::Minus, a, _) => self.unlistable(a, env),
            // `INTEGER * NATURAL1` as written: a set product (an integer
            // product has no set operand), its pairs told by a test on each
            // side. A product of constants (`T * C` for `C = INTEGER`) is
            // listed within the bounds, as relations over it may need.
            EK::Binary(BinaryOp::Mul, a, b) => self.unlistable(a, None) || self.unlistable(b, None),
            EK::Binary(BinaryOp::Union, a, b) => self.unlistable(a, env) || self.unlistable(b, env),
            // The right operand first: in a chain `s1 /\ s2 /\ ...` (parsed
            // to the left) it is a leaf, and the left one a walk down the chain.
            EK::Binary(BinaryOp::Inter, a, b) => self.unlistable(b, env) && self.unlistable(a, env),
            _ => false,
        }
    }

    /// A symbolic constant's value where it is read as a value (not tested
    /// for membership): under `--bound-integers` a set of integers
    /// (`iv = INTEGER`) is listed within MININT..MAXINT, as `INTEGER` is;
    /// any other stays symbolic.
    #[cold]
    #[inline(never)]
    fn listed_within_bounds(&self, sym: std::sync::Arc<Symbolic>, env: &mut Env<'_>) -> R<Value> {
        match self.integer_set_definition(&sym) {
            // A set too large to list even so (`0..4294967295`) stays
            // symbolic: tested for membership, never built.
            Some(def) => match self.materialise(&def, env) {
                Err(f) if f.infinite => Ok(Value::Symbolic(sym)),
                listed => listed,
            },
            None => Ok(Value::Symbolic(sym)),
        }
    }

    /// Builds a symbolic set as an explicit value, by enumerating it.
    pub(crate) fn materialise(&self, e: &CExpr, env: &mut Env<'_>) -> R<Value> {
        // A space whose size its parts tell (`1..40 --> BIT`: 2^40) is
        // refused before millions of its elements are built in vain.
        if self
            .space_size(e, env)?
            .is_some_and(|n| n > super::MAX_MATERIALISED as u128)
        {
            return Err(Fail::infinite(
                e.span,
                "this set is too large to build explicitly",
            ));
        }
        let mut out = Vec::new();
        self.enum_set(e, env, &mut |v, _| {
            if out.len() >= super::MAX_MATERIALISED {
                return Err(Fail::infinite(
                    e.span,
                    "this set is too large to build explicitly",
                ));
            }
            out.push(v);
            Ok(true)
        })?;
        Ok(Value::set_from_vec(out))
    }
}

thread_local! {
    /// The last `closure`/`closure1` computed on this thread: its argument,
    /// whether reflexive, and the result. Operations often test several
    /// parameter values against the closure of the same relation
    /// (`tt1 |-> tt2 : closure1(roads)`); comparing the argument is far
    /// cheaper than recomputing the closure.
    static LAST_CLOSURE: std::cell::RefCell<Option<(Value, bool, Value)>> = const { std::cell::RefCell::new(None) };
}

/// `closure1(r)`, or `closure(r)` if `reflexive`, reusing the last result
/// computed on this thread for the same relation.
fn closure_cached(r: &Value, span: Span, reflexive: bool) -> R<Value> {
    let hit = LAST_CLOSURE.with(|c| {
        c.borrow().as_ref().and_then(|(arg, refl, result)| {
            (*refl == reflexive && arg == r).then(|| result.clone())
        })
    });
    if let Some(result) = hit {
        return Ok(result);
    }
    let pairs = set(r, span)?;
    let mut closed = rel::transitive_closure_within(pairs, super::MAX_MATERIALISED, || {
        super::within_budget(span)
    })?
    .ok_or_else(|| {
        Fail::infinite(
            span,
            format!(
                "the closure has more than {} pairs, too many to build",
                super::MAX_MATERIALISED
            ),
        )
    })?;
    if reflexive {
        let field = sets::union(&rel::domain(pairs), &rel::range(pairs));
        closed = sets::union(&closed, &rel::identity(&field));
    }
    let result = Value::set_from_sorted(closed);
    LAST_CLOSURE.with(|c| *c.borrow_mut() = Some((r.clone(), reflexive, result.clone())));
    Ok(result)
}

/// `f(x)` with the errors ProB reports; "outside the domain" is marked so
/// that operation guards can treat it as false.
pub fn apply(f: &Value, x: &Value, fspan: Span, span: Span) -> R<Value> {
    apply_ref(f, x, fspan, span).cloned()
}

/// [`apply`] returning a reference into `f`.
#[inline]
pub fn apply_ref<'v>(f: &'v Value, x: &Value, fspan: Span, span: Span) -> R<&'v Value> {
    let f = shared_set(f, fspan)?;
    match rel::applied(&f[crate::frontends::b::value::apply_index::run_of(f, x)]) {
        Applied::Value(y) => Ok(y),
        Applied::OutsideDomain => Err(Fail::outside_domain(
            span,
            "function applied outside its domain",
        )),
        Applied::NotAFunction => Err(Fail::new(
            span,
            "applying a relation that is not a function here",
        )),
    }
}

/// The value of the bound variables `vars` as a left-nested tuple.
pub fn tuple(vars: &[u32], env: &Env<'_>) -> Value {
    let mut it = vars.iter().map(|&s| env.frame[s as usize].clone());
    match it.next() {
        Some(first) => it.fold(first, Value::pair),
        // The parser never produces a binder without names.
        None => Value::empty_set(),
    }
}

/// The number of elements of `S op T`, a set of relations (`op` one of
/// `<->` and the function arrows), for |S| = `ns` and |T| = `nt`, and
/// whether it is exact: `S <-> T` has 2^(ns*nt), `S --> T` nt^ns and
/// `S +-> T` (nt+1)^ns; an injection, surjection or bijection arrow gets
/// the count of its total or partial functions as a bound (not exact).
/// Counts beyond `u128` are `u128::MAX`; `None` for another `op`.
fn relations_count(op: BinaryOp, ns: u32, nt: u32) -> Option<(u128, bool)> {
    let power = |base: u128, exp: u32| base.checked_pow(exp).unwrap_or(u128::MAX);
    if op == BinaryOp::Relation {
        return Some((power(2, ns.saturating_mul(nt)), true));
    }
    let (total, injective, surjective) = op.arrow_properties()?;
    let images = u128::from(nt) + u128::from(!total);
    Some((power(images, ns), !injective && !surjective))
}

#[cfg(test)]
mod relations_count_tests {
    use super::relations_count;
    use crate::frontends::b::ast::BinaryOp;

    #[test]
    fn spaces_are_counted_exactly_or_bounded() {
        assert_eq!(relations_count(BinaryOp::Relation, 2, 3), Some((64, true)));
        assert_eq!(
            relations_count(BinaryOp::TotalFunction, 12, 4),
            Some((16_777_216, true))
        );
        assert_eq!(
            relations_count(BinaryOp::PartialFunction, 2, 2),
            Some((9, true))
        );
        // The 6 injections of 3 elements into 3 are bounded by the 27
        // functions.
        assert_eq!(
            relations_count(BinaryOp::TotalInjection, 3, 3),
            Some((27, false))
        );
        assert_eq!(
            relations_count(BinaryOp::TotalFunction, 300, 300),
            Some((u128::MAX, true))
        );
        assert_eq!(relations_count(BinaryOp::Union, 2, 2), None);
    }
}

#[cfg(test)]
mod thread_copy_tests {
    use super::*;

    #[test]
    fn each_thread_reads_its_own_copy_of_a_shared_value() {
        let original = Value::set_from_vec(vec![Value::pair(Value::Int(1), Value::str("a"))]);
        let mine = thread_copy(&original);
        assert_eq!(mine, original);
        assert_ne!(mine.shared_address(), original.shared_address());
        // The same copy on every use in this thread.
        assert_eq!(
            thread_copy(&original).shared_address(),
            mine.shared_address()
        );
        // Another thread gets a copy of its own.
        let theirs = std::thread::scope(|s| {
            s.spawn(|| thread_copy(&original).shared_address())
                .join()
                .unwrap()
        });
        assert_ne!(theirs, mine.shared_address());
        assert_ne!(theirs, original.shared_address());
        // Scalars are not copied through the table.
        assert_eq!(thread_copy(&Value::Int(3)), Value::Int(3));
    }
}
