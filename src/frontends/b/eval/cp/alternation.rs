//! When the solver leaves its static branching order.
//!
//! Enumerating every solution, the static order (first fail, smallest
//! value) resumes the search next to the solution just blocked and finds
//! the next one in a few decisions; the solver's adaptive default
//! (activity-based, learning which bounds conflict) wanders off and
//! relearns. Finding one solution of an arithmetic puzzle is the
//! opposite: the static order enumerates without end what learning on
//! bounds refutes. So the static order decides until it has made
//! [`STUCK_AFTER`] decisions without a solution, and from then until the
//! next solution the two take turns decision by decision.
//!
//! `--solver cp`, `--threads 1`, one run each, load about 1 (ProB's
//! machines): all 92 solutions of QueensAllSolutions 6.5 s by taking
//! turns from the start, 2.6 s so; the 30,240 of SurjEnumCst 12.5 s,
//! 2.7 s; QueensRooksBishops_v2 (22,984) 9.5 s, 4.2 s; Project Euler 9's
//! one triple 3.1 s both, against no answer within 20 s by the static
//! order alone.

use pumpkin_core::branching::branchers::alternating::{AlternatingStrategy, BrancherToUse};
use pumpkin_core::branching::{BrancherEvent, SelectionContext};
use pumpkin_core::results::SolutionReference;

/// Decisions without a solution after which the static order takes
/// turns with the adaptive default.
pub(super) const STUCK_AFTER: u64 = 200;

/// The strategy of an `AlternatingBrancher` whose other brancher is the
/// static order (see the module's documentation).
#[derive(Debug, Default)]
pub(super) struct StaticUntilStuck {
    /// Decisions since the last solution (or the start).
    since_solution: u64,
    /// Whether the adaptive default made the last decision.
    adaptive: bool,
}

impl StaticUntilStuck {
    /// Whether the adaptive default makes the next decision.
    fn adaptive_next(&mut self) -> bool {
        self.since_solution += 1;
        self.adaptive = self.since_solution > STUCK_AFTER && !self.adaptive;
        self.adaptive
    }

    /// A solution is found: the static order again.
    fn solved(&mut self) {
        self.since_solution = 0;
        self.adaptive = false;
    }
}

impl AlternatingStrategy for StaticUntilStuck {
    fn next_decision(&mut self, _context: &mut SelectionContext) -> BrancherToUse {
        if self.adaptive_next() {
            BrancherToUse::Default
        } else {
            BrancherToUse::Other
        }
    }

    fn on_solution(&mut self, _solution: SolutionReference) {
        self.solved();
    }

    fn is_using_default_brancher(&self) -> bool {
        self.adaptive
    }

    fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
        vec![BrancherEvent::Solution]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(strategy: &mut StaticUntilStuck, n: u64) -> Vec<bool> {
        (0..n).map(|_| strategy.adaptive_next()).collect()
    }

    #[test]
    fn the_static_order_decides_until_stuck_then_they_take_turns() {
        let mut strategy = StaticUntilStuck::default();
        assert!(turns(&mut strategy, STUCK_AFTER).iter().all(|&a| !a));
        assert_eq!(turns(&mut strategy, 4), [true, false, true, false]);
        assert!(turns(&mut strategy, 1)[0]);
        strategy.solved();
        assert!(!strategy.is_using_default_brancher());
        assert!(turns(&mut strategy, STUCK_AFTER).iter().all(|&a| !a));
        assert!(strategy.adaptive_next());
    }
}
