//! Executing substitutions: every outcome, in continuation-passing style.
//!
//! [`Interpreter::exec`] runs a substitution on the frame and calls the
//! continuation `k` once per outcome with the frame holding that outcome;
//! after `k` returns, the substitution restores what it changed. A
//! deterministic assignment therefore costs one evaluation and two moves,
//! and non-determinism (`CHOICE`, `ANY`, `::`, `SELECT`) is just several
//! calls of `k`. Parallel branches run on the same pre-state: each branch's
//! outcomes are recorded as the values of the slots it writes, then every
//! combination is applied.

use super::enumerate::bind_pattern;
use super::ir::{CExpr, CSubst, CWhile, EK, Pattern, Simultaneous, Solver};

use super::{Env, Fail, Interpreter, R};
use crate::frontends::b::value::{Value, relations, sets};

/// Continuation called once per outcome of a substitution.
pub type Outcome<'c, 'e> = dyn FnMut(&mut Env<'e>) -> R<()> + 'c;

impl Interpreter {
    /// The value `x := e` assigns: `e`'s value, except that a copied
    /// symbolic value (`xx := cp` for `cp = INTEGER * NATURAL1`) stays
    /// symbolic, as ProB keeps it, where `--bound-integers` would list
    /// it within MININT..MAXINT on reading: the state holds the set
    /// itself, not its bounded part (which another constant may equal).
    fn assigned(&self, e: &CExpr, env: &mut Env<'_>) -> R<Value> {
        if let EK::Read(slot) = &e.kind {
            let v = env.read(*slot);
            if let Value::Symbolic(_) = v {
                return Ok(v.clone());
            }
        }
        self.eval(e, env)
    }

    /// Runs `s`, calling `k` for every outcome; the frame is restored after.
    pub(crate) fn exec<'e>(&self, s: &CSubst, env: &mut Env<'e>, k: &mut Outcome<'_, 'e>) -> R<()> {
        match s {
            CSubst::Skip => k(env),
            CSubst::Assign(list) => {
                if let [(slot, e)] = list.as_slice() {
                    let mut v = self.assigned(e, env)?;
                    let slot = *slot as usize;
                    std::mem::swap(&mut env.frame[slot], &mut v);
                    let result = k(env);
                    env.frame[slot] = v;
                    return result;
                }
                if let [(s1, e1), (s2, e2)] = list.as_slice() {
                    // Two simultaneous assignments (`f(x) := y || s := s \/ {x}`,
                    // merged from `||`): as below, without the vector.
                    let mut v1 = self.assigned(e1, env)?;
                    let mut v2 = self.assigned(e2, env)?;
                    let (s1, s2) = (*s1 as usize, *s2 as usize);
                    std::mem::swap(&mut env.frame[s1], &mut v1);
                    std::mem::swap(&mut env.frame[s2], &mut v2);
                    let result = k(env);
                    std::mem::swap(&mut env.frame[s1], &mut v1);
                    std::mem::swap(&mut env.frame[s2], &mut v2);
                    return result;
                }
                let mut values = Vec::with_capacity(list.len());
                for (_, e) in list {
                    values.push(self.assigned(e, env)?);
                }
                for ((s, _), v) in list.iter().zip(values.iter_mut()) {
                    std::mem::swap(&mut env.frame[*s as usize], v);
                }
                let result = k(env);
                for ((s, _), v) in list.iter().zip(values.iter_mut()) {
                    std::mem::swap(&mut env.frame[*s as usize], v);
                }
                result
            }
            CSubst::BecomesIn(pat, set) => {
                let mut slots = Vec::new();
                pattern_slots(pat, &mut slots);
                let saved: Vec<Value> = slots
                    .iter()
                    .map(|&s| env.frame[s as usize].clone())
                    .collect();
                let result = self.enum_set(set, env, &mut |v, env| {
                    if bind_pattern(pat, &v, env) {
                        k(env)?;
                    }
                    Ok(true)
                });
                for (&s, v) in slots.iter().zip(saved) {
                    env.frame[s as usize] = v;
                }
                result.map(|_| ())
            }
            CSubst::BecomesSuchThat(pairs, solver) => {
                let targets: Vec<u32> = pairs.iter().map(|p| p.0).collect();
                self.solve_large(solver, env, &mut |env| {
                    let mut values: Vec<Value> = pairs
                        .iter()
                        .map(|&(_, fresh)| env.frame[fresh as usize].clone())
                        .collect();
                    with_assigned(env, &targets, &mut values, k)?;
                    Ok(true)
                })
                .map(|_| ())
            }
            CSubst::Parallel(branches) => self.parallel(branches, env, k),
            CSubst::Simultaneous(p) => self.simultaneous(p, env, k),
            CSubst::Sequence(items) => self.sequence(items, env, k),
            CSubst::Guard(p, body) => {
                if self.guard(p, env)? {
                    self.exec(body, env, k)
                } else {
                    Ok(())
                }
            }
            CSubst::While(w) => self.exec_while(w, env, k),
            CSubst::Accumulate(slot, elements, whole) => {
                let Some(at) = env.pending.iter().position(|(s, _)| s == slot) else {
                    return self.exec(&CSubst::Assign(vec![(*slot, whole.clone())]), env, k);
                };
                for e in elements {
                    let v = self.eval(e, env)?;
                    env.pending[at].1.push(v);
                }
                // Not taken back after `k`: the loop's body has this one
                // outcome, which the collected elements belong to.
                k(env)
            }
            CSubst::Assert(p, body, message) => {
                if self.holds(p, env)? {
                    self.exec(body, env, k)
                } else {
                    Err(Fail::new(p.span, message.clone()))
                }
            }
            CSubst::Select(branches, otherwise) => {
                let mut any = false;
                for (p, body) in branches {
                    if self.guard(p, env)? {
                        any = true;
                        self.exec(body, env, k)?;
                    }
                }
                match otherwise {
                    Some(e) if !any => self.exec(e, env, k),
                    _ => Ok(()),
                }
            }
            CSubst::If(branches, otherwise) => {
                for (p, body) in branches {
                    if self.holds(p, env)? {
                        return self.exec(body, env, k);
                    }
                }
                match otherwise {
                    Some(e) => self.exec(e, env, k),
                    None => k(env),
                }
            }
            CSubst::Case(e, branches, otherwise) => {
                let v = self.eval(e, env)?;
                for (values, body) in branches {
                    for c in values {
                        if self.eval(c, env)? == v {
                            return self.exec(body, env, k);
                        }
                    }
                }
                // No ELSE is `ELSE skip`, as ProB runs it (CaseStmt_v2).
                match otherwise {
                    Some(o) => self.exec(o, env, k),
                    None => k(env),
                }
            }
            CSubst::Choice(items) => {
                for item in items {
                    self.exec(item, env, k)?;
                }
                Ok(())
            }
            CSubst::Any(solver, body) => self
                .solve_large(solver, env, &mut |env| {
                    self.exec(body, env, k)?;
                    Ok(true)
                })
                .map(|_| ()),
            CSubst::Var(locals, body) => {
                for &l in locals {
                    env.frame[l as usize] = super::undefined();
                }
                self.exec(body, env, k)
            }
        }
    }

    /// The solutions of an `ANY` or `x : (P)` binder: by the constraint
    /// solver where it has the binder's view ([`Solver::by_solver`]: too
    /// many candidates for enumeration) and answers in this state, else
    /// by enumeration.
    fn solve_large<'e>(
        &self,
        solver: &Solver,
        env: &mut Env<'e>,
        f: &mut dyn FnMut(&mut Env<'e>) -> R<bool>,
    ) -> R<bool> {
        if let Some(binder) = solver.by_solver.as_deref()
            && self.constant_solver != super::cp::ConstantSolver::Enumerate
        {
            let base = solver.vars[0] as usize;
            let search = super::cp::Search::Parameters;
            match self.solve_binder(base, binder, env, search) {
                None => {}
                Some(Ok(valuations)) => {
                    for valuation in valuations {
                        for (&slot, v) in solver.vars.iter().zip(valuation) {
                            env.frame[slot as usize] = v;
                        }
                        if !f(env)? {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
                Some(Err(e)) => {
                    return Err(match e.stopped {
                        Some(reason) => Fail::stopped(e.span, reason),
                        None => Fail::new(e.span, e.message),
                    });
                }
            }
        }
        self.solve(solver, env, f)
    }

    /// A guard: false when a function is applied outside its domain (see
    /// the module docs of [`super`]).
    pub(crate) fn guard(&self, p: &super::ir::CPred, env: &mut Env<'_>) -> R<bool> {
        match self.holds(p, env) {
            Err(e) if e.outside_domain => Ok(false),
            other => other,
        }
    }

    fn sequence<'e>(&self, items: &[CSubst], env: &mut Env<'e>, k: &mut Outcome<'_, 'e>) -> R<()> {
        match items.split_first() {
            None => k(env),
            Some((first, rest)) => self.exec(first, env, &mut |env| self.sequence(rest, env, k)),
        }
    }

    fn parallel<'e>(
        &self,
        branches: &[(CSubst, Vec<u32>)],
        env: &mut Env<'e>,
        k: &mut Outcome<'_, 'e>,
    ) -> R<()> {
        // General case: the outcomes of each branch, then every
        // combination swapped in and out.
        let Some((mut values, counts, _)) = self.branch_outcomes(branches, env)? else {
            return Ok(()); // a blocked branch blocks the whole substitution
        };
        self.combine(branches, &counts, &mut values, env, k)
    }

    /// The outcomes of each branch of `||` run on the same pre-state, as
    /// the values of the slots it writes, one after another in one buffer:
    /// (buffer, outcomes of each branch, where each branch's start).
    /// `None` when a branch has no outcome.
    #[allow(clippy::type_complexity)]
    fn branch_outcomes(
        &self,
        branches: &[(CSubst, Vec<u32>)],
        env: &mut Env<'_>,
    ) -> R<Option<(Vec<Value>, Vec<usize>, Vec<usize>)>> {
        let mut values: Vec<Value> = Vec::new();
        let mut counts: Vec<usize> = Vec::with_capacity(branches.len());
        let mut offsets: Vec<usize> = Vec::with_capacity(branches.len());
        for (b, w) in branches {
            offsets.push(values.len());
            let mut n = 0;
            self.exec(b, env, &mut |env| {
                n += 1;
                values.extend(w.iter().map(|&s| env.frame[s as usize].clone()));
                Ok(())
            })?;
            if n == 0 {
                return Ok(None);
            }
            counts.push(n);
        }
        Ok(Some((values, counts, offsets)))
    }

    /// Branches of `||` that may write the same slots: for every
    /// combination of one outcome of each branch, each slot gets the
    /// pre-state's value with every branch's update to it merged in (see
    /// [`merge_update`]); updates that conflict are a model error.
    fn simultaneous<'e>(
        &self,
        p: &Simultaneous,
        env: &mut Env<'e>,
        k: &mut Outcome<'_, 'e>,
    ) -> R<()> {
        let Some((values, counts, offsets)) = self.branch_outcomes(&p.branches, env)? else {
            return Ok(()); // a blocked branch blocks the whole substitution
        };
        let pre: Vec<Value> = p
            .slots
            .iter()
            .map(|&s| env.frame[s as usize].clone())
            .collect();
        // One outcome of each branch, counted like an odometer.
        let mut choice = vec![0usize; counts.len()];
        loop {
            super::within_budget(p.span)?;
            let mut merged = pre.clone();
            for (b, (_, writes)) in p.branches.iter().enumerate() {
                let outcome = &values[offsets[b] + choice[b] * writes.len()..][..writes.len()];
                for (slot, v) in writes.iter().zip(outcome) {
                    let j = p.slots.binary_search(slot).unwrap_or_default();
                    merged[j] = merge_update(&merged[j], v, &pre[j]).ok_or_else(|| {
                        Fail::new(
                            p.span,
                            format!("conflicting simultaneous assignments to `{}`", p.names[j]),
                        )
                    })?;
                }
            }
            with_assigned(env, &p.slots, &mut merged, k)?;
            let mut b = 0;
            loop {
                let Some(c) = choice.get_mut(b) else {
                    return Ok(());
                };
                *c += 1;
                if *c < counts[b] {
                    break;
                }
                *c = 0;
                b += 1;
            }
        }
    }

    /// Calls `k` once per combination of one outcome of each branch:
    /// `values` holds `counts[b]` outcomes of branch `b` (the values of
    /// its writes), branch after branch. Each outcome is swapped into the
    /// frame and back, so the buffer is as it was when this returns.
    fn combine<'e>(
        &self,
        branches: &[(CSubst, Vec<u32>)],
        counts: &[usize],
        values: &mut [Value],
        env: &mut Env<'e>,
        k: &mut Outcome<'_, 'e>,
    ) -> R<()> {
        let (Some(((_, slots), later)), Some((&n, later_counts))) =
            (branches.split_first(), counts.split_first())
        else {
            return k(env);
        };
        let (mine, rest) = values.split_at_mut(n * slots.len());
        for o in 0..n {
            // The product of the branches' outcomes can be huge (three
            // `x :: 1..10000` in parallel): poll the budget here too.
            if n > 1 {
                super::within_budget(crate::diag::Span::default())?;
            }
            let outcome = &mut mine[o * slots.len()..(o + 1) * slots.len()];
            with_assigned(env, slots, outcome, &mut |env| {
                self.combine(later, later_counts, rest, env, k)
            })?;
        }
        Ok(())
    }

    /// Runs a `WHILE` loop without recursion, so that a long loop cannot
    /// exhaust the stack: the frames reached after each iteration (several
    /// if the body is non-deterministic) wait in a work list until the
    /// condition is false on them, and then `k` runs on each. The invariant
    /// is checked before every test of the condition; while the condition
    /// holds the variant must be a natural number smaller than at the
    /// previous iteration of the same run.
    fn exec_while<'e>(&self, w: &CWhile, env: &mut Env<'e>, k: &mut Outcome<'_, 'e>) -> R<()> {
        let original = env.frame.clone();
        let outer = env.pending.len();
        // A slot read before it has a value (a `VAR` local) is an error at
        // its first growth: the growths run as assignments then.
        if w.accumulators
            .iter()
            .all(|&s| !super::is_undefined(&env.frame[s as usize]))
        {
            env.pending
                .extend(w.accumulators.iter().map(|&s| (s, Vec::new())));
        }
        let result = self.run_while(w, outer, env, k);
        env.pending.truncate(outer);
        if outer == 0 {
            drop(std::mem::take(&mut *env.pending));
        }
        env.frame = original;
        result
    }

    /// Adds the elements collected since `outer` (see [`exec_while`]) to
    /// their slots, and stops collecting.
    fn add_collected(env: &mut Env<'_>, outer: usize) {
        for (slot, items) in env.pending.drain(outer..) {
            let set = &mut env.frame[slot as usize];
            if let Some(old) = set.as_set() {
                let added = Value::set_from_vec(items);
                let both = sets::union(old, added.as_set().unwrap_or_default());
                *set = Value::set_from_sorted(both);
            }
        }
    }

    fn run_while<'e>(
        &self,
        w: &CWhile,
        outer: usize,
        env: &mut Env<'e>,
        k: &mut Outcome<'_, 'e>,
    ) -> R<()> {
        let mut work: Vec<(Vec<Value>, Option<i64>)> = vec![(env.frame.clone(), None)];
        let mut iterations = 0u64;
        while let Some((frame, previous)) = work.pop() {
            env.frame = frame;
            if !self.holds(&w.invariant, env)? {
                return Err(Fail::new(w.invariant.span, "WHILE invariant is false"));
            }
            if !self.holds(&w.cond, env)? {
                Self::add_collected(env, outer);
                k(env)?;
                continue;
            }
            let variant = self.eval(&w.variant, env)?;
            let Some(v) = variant.as_int() else {
                return Err(Fail::new(w.variant.span, "WHILE variant is not an integer"));
            };
            if v < 0 {
                return Err(Fail::new(
                    w.variant.span,
                    format!("WHILE variant is negative ({v}) while the condition holds"),
                ));
            }
            if let Some(p) = previous
                && v >= p
            {
                return Err(Fail::new(
                    w.variant.span,
                    format!("WHILE variant did not decrease: {p} before the iteration, {v} after"),
                ));
            }
            iterations += 1;
            if iterations > workers::budget::LOOP_LIMIT {
                return Err(Fail::stopped(w.cond.span, workers::StopReason::LoopLimit));
            }
            if let Some(reason) = workers::budget::tripped_every(iterations) {
                return Err(Fail::stopped(w.cond.span, reason));
            }
            let mut next = Vec::new();
            self.exec(&w.body, env, &mut |env| {
                next.push(env.frame.clone());
                Ok(())
            })?;
            work.extend(next.into_iter().rev().map(|f| (f, Some(v))));
        }
        Ok(())
    }
}

/// Swaps `values` into `slots`, runs `k`, then swaps them back (`values`
/// is as it was when this returns).
/// `acc` (the updates merged so far into `pre`) with one more branch's
/// value `v` of the same variable merged in: a branch that left the
/// variable as it was changes nothing; a set (a relation, a function)
/// changed by both takes both branches' removals and additions, as
/// updates of different points of a function do in an abstract state
/// machine. `None` where the updates conflict: different values of a
/// variable that is not a set, or two images of one point of a function.
fn merge_update(acc: &Value, v: &Value, pre: &Value) -> Option<Value> {
    if v == pre || v == acc {
        return Some(acc.clone());
    }
    if acc == pre {
        return Some(v.clone());
    }
    let (acc_set, v_set, pre_set) = (acc.as_set()?, v.as_set()?, pre.as_set()?);
    let removed = sets::difference(pre_set, v_set);
    let added = sets::difference(v_set, pre_set);
    let merged = sets::union(&sets::difference(acc_set, &removed), &added);
    let pairs = |s: &[Value]| s.iter().all(|x| x.as_pair().is_some());
    let function = |s: &[Value]| pairs(s) && relations::is_function(s);
    if function(pre_set) && function(acc_set) && function(v_set) && !function(&merged) {
        return None;
    }
    Some(Value::set_from_vec(merged))
}

fn with_assigned<'e>(
    env: &mut Env<'e>,
    slots: &[u32],
    values: &mut [Value],
    k: &mut Outcome<'_, 'e>,
) -> R<()> {
    for (&s, v) in slots.iter().zip(values.iter_mut()) {
        std::mem::swap(&mut env.frame[s as usize], v);
    }
    let result = k(env);
    for (&s, v) in slots.iter().zip(values.iter_mut()).rev() {
        std::mem::swap(&mut env.frame[s as usize], v);
    }
    result
}

fn pattern_slots(p: &Pattern, out: &mut Vec<u32>) {
    match p {
        Pattern::Slot(s) => out.push(*s),
        Pattern::Bound(_) | Pattern::Any => {}
        Pattern::Pair(a, b) => {
            pattern_slots(a, out);
            pattern_slots(b, out);
        }
    }
}
