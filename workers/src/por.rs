//! The engines' half of partial order reduction: expanding a state through
//! an ample set and the cycle proviso, sound for any number of workers and
//! any exploration order.
//!
//! A system that [`TransitionSystem::reduces`] chooses, per state, an ample
//! set satisfying the emptiness, dependency and stutter conditions (A1-A3
//! of Dobrikov and Leuschel, "Optimising the ProB Model Checker for B using
//! Partial Order Reduction", §4) and emits only its successors
//! ([`TransitionSystem::reduced_successors`]). The engine adds the cycle
//! condition A4 in its strong form (A4', every cycle of the reduced state
//! space contains a fully expanded state; Baier and Katoen, Lemma 8.23).
//!
//! # The proviso: cycle closing by insertion order
//! The paper fully expands a state with a transition to an already
//! *expanded* state, which presumes one thread and a queue to ask. orbit
//! uses the visited set instead, whose inserts are linearizable: when one
//! of the successors of a proper ample set is **already stored** (the
//! insert reports "seen", self-loops included), the engine also takes the
//! remaining successors ([`TransitionSystem::remaining_successors`]), so
//! the state is fully expanded.
//!
//! *Soundness (A4').* Take any cycle `s0 -> s1 -> ... -> sk = s0` of the
//! reduced state space, and on it the state `f = s(i+1)` whose insert into
//! the visited set was linearized first; let `p = s(i)` be its predecessor
//! on the cycle (`p = f` for a self-loop). `p` was inserted after `f` (or
//! is `f`), and `p` is expanded only after its own insert (a worker takes
//! `p` from a batch that the inserting worker published after inserting
//! it, so the insert happens before the expansion). Suppose `p` was not
//! fully expanded: then `p -> f` is an edge of `p`'s proper ample set, and
//! when `p`'s worker inserts `f`, that insert is linearized after `f`'s
//! first insert, so it reports "seen" and the proviso fully expands `p`, a
//! contradiction. Hence `p` is fully expanded: every cycle contains a fully
//! expanded state, whatever the number of threads, the interleaving of
//! their inserts and the order (BFS levels, work stealing, DFS) in which
//! they expand states. The argument needs nothing from the search order,
//! which is why it replaces the stack proviso of sequential DFS and the
//! queue proviso of BFS. (It expands more states than necessary, like the
//! paper's test: any ample edge into an old state forces a full
//! expansion, also when it closes no cycle, e.g. the second edge into a
//! diamond's bottom state. In a breadth-first search only edges to states
//! of the same or a smaller depth can close a cycle; exploiting that needs
//! the depth of the stored state on a "seen" insert, which the visited
//! sets do not return yet.)
//!
//! With A1-A3 and A4' every reachable violation of a state property whose
//! atomic propositions the ample operations stutter on, and every deadlock,
//! is reachable in the reduced state space (Baier and Katoen, Theorem
//! 8.15, for the stutter-trace equivalence that safety needs). For
//! deadlock-only checking A1 and A2 suffice (Godefroid and Wolper), so the
//! system returns [`Expansion::Ample`] with `proviso: false` and no state is
//! expanded again.

use crate::system::{Expansion, TransitionSystem};

/// One engine thread's partial order reduction counters.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PorCounts {
    /// Whether the system reduces at all (read once, so that systems
    /// without a reduction take the plain path).
    pub(crate) reduces: bool,
    /// Set by the store when an insert finds the state already stored;
    /// cleared before the successors of each expansion are inserted.
    pub(crate) saw_stored: bool,
    /// States expanded through a proper ample set only.
    pub(crate) reduced: u64,
    /// States fully expanded by the proviso.
    pub(crate) proviso: u64,
}

impl PorCounts {
    /// Zero counters for `system`.
    pub(crate) fn new<T: TransitionSystem>(system: &T) -> Self {
        PorCounts {
            reduces: system.reduces(),
            ..PorCounts::default()
        }
    }

    /// Whether the expansion just done must be completed by the proviso;
    /// counts the state as reduced or as fully expanded by the proviso.
    #[inline]
    pub(crate) fn needs_remaining(&mut self, expansion: Expansion) -> bool {
        match expansion {
            Expansion::Full => false,
            Expansion::Ample { proviso } if proviso && self.saw_stored => {
                self.proviso += 1;
                true
            }
            Expansion::Ample { .. } => {
                self.reduced += 1;
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain;
    impl TransitionSystem for Plain {
        type Scratch = ();
        fn new_scratch(&self) {}
        fn state_width(&self) -> usize {
            1
        }
        fn initial_states(
            &self,
            _: &mut (),
            emit: &mut dyn FnMut(&[u64]),
        ) -> Result<(), crate::ModelError> {
            emit(&[0]);
            Ok(())
        }
        fn successors(
            &self,
            _: &mut (),
            _: &[u64],
            _: &mut dyn FnMut(&[u64]),
        ) -> Result<(), crate::ModelError> {
            Ok(())
        }
        fn labelled_initial_states(&self) -> Result<Vec<crate::LabelledState>, crate::ModelError> {
            Ok(Vec::new())
        }
        fn labelled_successors(
            &self,
            _: &[u64],
        ) -> Result<Vec<crate::LabelledState>, crate::ModelError> {
            Ok(Vec::new())
        }
        fn check_state(
            &self,
            _: &mut (),
            _: &[u64],
        ) -> Result<Option<crate::Violation>, crate::ModelError> {
            Ok(None)
        }
        fn describe_state(&self, _: &[u64]) -> Vec<(String, String)> {
            Vec::new()
        }
    }

    #[test]
    fn the_proviso_applies_only_to_proper_ample_sets_that_met_a_stored_state() {
        let mut c = PorCounts::new(&Plain);
        assert!(!c.reduces);
        assert!(!c.needs_remaining(Expansion::Full));
        assert!(!c.needs_remaining(Expansion::Ample { proviso: true }));
        c.saw_stored = true;
        assert!(!c.needs_remaining(Expansion::Full));
        assert!(!c.needs_remaining(Expansion::Ample { proviso: false }));
        assert!(c.needs_remaining(Expansion::Ample { proviso: true }));
        assert_eq!((c.reduced, c.proviso), (2, 1));
    }
}
