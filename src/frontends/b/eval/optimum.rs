//! `MAXIMIZE` and `MINIMIZE` of a comprehension by branch and bound.
//!
//! ProB's optimisation idiom is `MAXIMIZE({c, x | P(x) & c = cost(x)})`:
//! the greatest element, whose first component is the objective. Listing
//! every solution first costs all of them (BinPacking: every packing of
//! seven objects into up to seven bins, 100 s). The search here asks the
//! comprehension's plan with `c > bound` added ([`Optimum::bounded`]) for
//! better solutions only: enumeration raises the bound to each solution's
//! `c` as it is found, so the plan prunes every candidate no better than
//! the best so far as soon as `c` is bound; where the comprehension is the
//! constraint solver's (a space enumeration cannot go through), the
//! solver is asked for one better solution at a time, each query asking
//! for twice the improvement of the last until one finds none, then
//! halving the gap to the best (a galloping search: a few queries where
//! one per unit of the objective took the solver's first solution just
//! beyond each bound, longer and longer near the optimum). A last search lists
//! the solutions with the best `c` and takes the greatest: the same
//! element as listing them all.

use super::cp::{ConstantSolver, Search};
use super::ir::Optimum;
use super::{Env, Fail, Interpreter, R};
use crate::diag::Span;
use crate::frontends::b::library::External;
use crate::frontends::b::value::Value;

impl Interpreter {
    /// The value of `MAXIMIZE` (`MINIMIZE`) of the comprehension `o`.
    pub(super) fn optimum(&self, o: &Optimum, span: Span, env: &mut Env<'_>) -> R<Value> {
        let bound = o.bound as usize;
        let saved = env.frame[bound].clone();
        let result = self.search_optimum(o, span, env);
        env.frame[bound] = saved;
        result
    }

    fn search_optimum(&self, o: &Optimum, span: Span, env: &mut Env<'_>) -> R<Value> {
        let by_solver =
            o.bounded.by_solver.is_some() && self.constant_solver != ConstantSolver::Enumerate;
        // No bound yet: the extreme integer (a solution whose objective is
        // the extreme itself is found by the listing below). The objective
        // is an integer by its type (see `Compiler::optimum`).
        let extreme = if o.maximize { i64::MIN } else { i64::MAX };
        let mut best: Option<i64> = None;
        // An objective no solution is better than, once a query finds none.
        let mut beyond: Option<i64> = None;
        // How far beyond the best the solver is asked first: doubled with
        // each better solution it finds (a solver's first solution beyond a
        // bound is often just beyond it: a path of 34 nodes took 17 queries,
        // the last five each about twice as long as the one before), then
        // halved back to the best once it finds none.
        let mut gap: i64 = 1;
        loop {
            let threshold = match (best, beyond) {
                (None, _) => extreme,
                (Some(b), Some(h)) if h == b => break,
                (Some(b), Some(h)) => midway(b, h),
                (Some(b), None) if by_solver => toward(b, gap - 1, o.maximize),
                (Some(b), None) => b,
            };
            env.frame[o.bound as usize] = Value::Int(threshold);
            let better = match by_solver {
                true => match self.better_by_solver(o, span, env)? {
                    Some(better) => better,
                    // The solver leaves it to enumeration.
                    None => self.better_by_enumeration(o, span, env)?,
                },
                false => self.better_by_enumeration(o, span, env)?,
            };
            match better {
                Some(c) => {
                    best = Some(c);
                    gap = gap.saturating_mul(2);
                }
                None if best.is_none_or(|b| b == threshold) => break,
                None => beyond = Some(threshold),
            }
        }
        let Some(best) = best else {
            // Empty, or every objective the extreme integer: listing
            // decides, and reports the empty set.
            return self.listed_optimum(o, span, env);
        };
        // Every solution whose objective is the best: one step back from
        // it admits exactly those.
        env.frame[o.bound as usize] = Value::Int(if o.maximize { best - 1 } else { best + 1 });
        let vars = &o.bounded.vars;
        let mut extreme: Option<Value> = None;
        let mut keep = |v: Value| {
            let better = match &extreme {
                None => true,
                Some(e) if o.maximize => v > *e,
                Some(e) => v < *e,
            };
            if better {
                extreme = Some(v);
            }
        };
        let listed = match by_solver {
            true => self.binder_by_solver(&o.bounded, env, Search::Comprehension)?,
            false => None,
        };
        match listed {
            Some(valuations) => {
                for valuation in valuations {
                    for (&slot, v) in vars.iter().zip(valuation) {
                        env.frame[slot as usize] = v;
                    }
                    keep(super::expr::tuple(vars, env));
                }
            }
            None => {
                self.solve(&o.bounded, env, &mut |env| {
                    keep(super::expr::tuple(vars, env));
                    Ok(true)
                })?;
            }
        }
        extreme.ok_or_else(|| Fail::new(span, "MAXIMIZE: the best solution was lost"))
    }

    /// One enumeration of the bounded plan, each solution raising the
    /// bound for the rest: the best objective of the solutions beyond the
    /// bound it starts with.
    fn better_by_enumeration(&self, o: &Optimum, span: Span, env: &mut Env<'_>) -> R<Option<i64>> {
        let objective = o.bounded.vars[0] as usize;
        let bound = o.bound as usize;
        let mut best = None;
        self.solve(&o.bounded, env, &mut |env| {
            let c = objective_of(&env.frame[objective], span)?;
            best = Some(c);
            env.frame[bound] = Value::Int(c);
            Ok(true)
        })?;
        Ok(best)
    }

    /// The objective of one solution beyond the bound from the constraint
    /// solver (`Some(None)`: there is none); `None` where the solver
    /// leaves the comprehension to enumeration.
    fn better_by_solver(
        &self,
        o: &Optimum,
        span: Span,
        env: &mut Env<'_>,
    ) -> R<Option<Option<i64>>> {
        let Some(valuations) = self.binder_by_solver(&o.bounded, env, Search::Exists)? else {
            return Ok(None);
        };
        match valuations.first() {
            Some(valuation) => Ok(Some(Some(objective_of(&valuation[0], span)?))),
            None => Ok(Some(None)),
        }
    }

    /// The comprehension listed, then its greatest (least) element.
    fn listed_optimum(&self, o: &Optimum, span: Span, env: &mut Env<'_>) -> R<Value> {
        let set = self.eval(&o.plain, env)?;
        let f = if o.maximize {
            External::Maximize
        } else {
            External::Minimize
        };
        f.apply(&[set]).map_err(|why| {
            Fail::new(
                span,
                format!("external function applied outside its domain: {why}"),
            )
        })
    }
}

/// `by` steps better than `from` (greater where `maximize`).
fn toward(from: i64, by: i64, maximize: bool) -> i64 {
    if maximize {
        from.saturating_add(by)
    } else {
        from.saturating_sub(by)
    }
}

/// The objective halfway from `best` to `beyond` (rounded toward `best`).
fn midway(best: i64, beyond: i64) -> i64 {
    let mid = i128::from(best) + (i128::from(beyond) - i128::from(best)) / 2;
    mid as i64
}

/// The objective's value (an integer by its type).
fn objective_of(v: &Value, span: Span) -> R<i64> {
    v.as_int()
        .ok_or_else(|| Fail::new(span, "MAXIMIZE: the objective is not an integer"))
}
