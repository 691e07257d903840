//! Blocking a solution by its decisions.
//!
//! To enumerate every solution the solver blocks each one it finds with
//! a nogood. The nogood of every variable's value grows with the model
//! and is watched through every later search: with tens of thousands of
//! solutions (the 30,240 partial surjections of ProB's SurjEnumCst) its
//! propagation was most of the run.
//! The decisions that led to a solution are enough: propagation from
//! them fixed every other variable, so any other solution falsifies one
//! of them, and they are few. Only where they are all on the variables
//! sought, though: a decision on an auxiliary variable (an intermediate
//! product's bounds) may lead to the same values of the sought ones.

use pumpkin_core::branching::{Brancher, BrancherEvent, SelectionContext};
use pumpkin_core::predicates::{Predicate, PredicateType};
use pumpkin_core::results::SolutionReference;
use pumpkin_core::statistics::StatisticLogger;
use pumpkin_core::variables::DomainId;

/// A brancher that remembers the decisions of the brancher it wraps
/// while they are on the solver's trail.
#[derive(Debug)]
pub(super) struct Recording<B> {
    inner: B,
    /// Every decision made since the last restart that the last
    /// backtrack left assigned (a superset of those on the trail).
    decisions: Vec<Predicate>,
}

impl<B: Brancher> Recording<B> {
    /// Wraps `inner`.
    pub(super) fn new(inner: B) -> Self {
        Recording {
            inner,
            decisions: Vec::new(),
        }
    }

    /// The decisions behind a solution whose variables have the values
    /// `value_of` gives: every decision still on the trail (and maybe
    /// predicates propagated true again since they were decided), if
    /// all of them are on variables `sought` says are sought. Where the
    /// solver decided on an auxiliary variable, another solution may
    /// share the sought variables' values with this one: `None`, block
    /// it by their values.
    pub(super) fn decisions_of(
        &self,
        value_of: impl Fn(DomainId) -> i32,
        sought: impl Fn(DomainId) -> bool,
    ) -> Option<Vec<Predicate>> {
        let decided = self.holding(value_of);
        decided
            .iter()
            .all(|p| sought(p.get_domain()))
            .then_some(decided)
    }
}

impl<B> Recording<B> {
    /// The decisions behind a solution (as [`Recording::decisions_of`])
    /// taken before the first on `x`; `None` where none is on `x`
    /// (propagation fixed it).
    pub(super) fn decisions_before(
        &self,
        x: DomainId,
        value_of: impl Fn(DomainId) -> i32,
    ) -> Option<Vec<Predicate>> {
        let decided = self.holding(value_of);
        let first = decided.iter().position(|p| p.get_domain() == x)?;
        Some(decided[..first].to_vec())
    }

    /// The recorded decisions that hold where the variables have the
    /// values `value_of` gives, in the order they were taken.
    fn holding(&self, value_of: impl Fn(DomainId) -> i32) -> Vec<Predicate> {
        self.decisions
            .iter()
            .copied()
            .filter(|p| holds(*p, value_of(p.get_domain())))
            .collect()
    }
}

/// Whether `p` holds where its variable has `value`.
fn holds(p: Predicate, value: i32) -> bool {
    entailed(p, value, value, |v| v == value)
}

/// Whether `p` holds in the solver's current domains.
fn is_true(context: &SelectionContext, p: Predicate) -> bool {
    let x = p.get_domain();
    entailed(p, context.lower_bound(x), context.upper_bound(x), |v| {
        context.contains(x, v)
    })
}

/// Whether `p` holds for every value of a domain with bounds `lower`,
/// `upper` and membership `contains`.
fn entailed(p: Predicate, lower: i32, upper: i32, contains: impl Fn(i32) -> bool) -> bool {
    let rhs = p.get_right_hand_side();
    match p.get_predicate_type() {
        PredicateType::LowerBound => lower >= rhs,
        PredicateType::UpperBound => upper <= rhs,
        PredicateType::Equal => lower == rhs && upper == rhs,
        PredicateType::NotEqual => !contains(rhs),
    }
}

impl<B: Brancher> Brancher for Recording<B> {
    fn log_statistics(&self, statistic_logger: StatisticLogger) {
        self.inner.log_statistics(statistic_logger);
    }

    fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
        let decision = self.inner.next_decision(context)?;
        self.decisions.push(decision);
        Some(decision)
    }

    fn on_conflict(&mut self) {
        self.inner.on_conflict();
    }

    fn on_backtrack(&mut self) {
        self.inner.on_backtrack();
    }

    fn on_solution(&mut self, solution: SolutionReference) {
        self.inner.on_solution(solution);
    }

    fn on_unassign_integer(&mut self, variable: DomainId, value: i32) {
        self.inner.on_unassign_integer(variable, value);
    }

    fn on_appearance_in_conflict_predicate(&mut self, predicate: Predicate) {
        self.inner.on_appearance_in_conflict_predicate(predicate);
    }

    fn on_restart(&mut self) {
        self.decisions.clear();
        self.inner.on_restart();
    }

    fn synchronise(&mut self, context: &mut SelectionContext) {
        // A decision undone by the backtrack is unassigned or false now
        // (by what was learnt); one still true stays, harmlessly.
        self.decisions.retain(|p| is_true(context, *p));
        self.inner.synchronise(context);
    }

    fn is_restart_pointless(&mut self) -> bool {
        self.inner.is_restart_pointless()
    }

    fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
        let mut events = self.inner.subscribe_to_events();
        for e in [BrancherEvent::Synchronise, BrancherEvent::Restart] {
            if !events.contains(&e) {
                events.push(e);
            }
        }
        events
    }
}
