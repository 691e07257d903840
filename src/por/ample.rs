//! Choosing ample sets during the search (Dobrikov and Leuschel,
//! "Optimising the ProB Model Checker for B using Partial Order
//! Reduction", §4, Algorithm 3).
//!
//! In a state with enabled operations `T`, a *proper* ample set `S ⊂ T`
//! must satisfy
//!
//! * (A1) `S` is empty only if `T` is: every candidate holds an enabled
//!   operation;
//! * (A2) along every execution from the state, no operation dependent on
//!   `S` runs before one of `S`. orbit checks the paper's local criteria:
//!   (A2.1) `S` is closed under the dependency relation within `T`
//!   (`DependencySet(α, T)`: the operations reachable from `α` in the
//!   dependency graph restricted to `T`), so every enabled operation
//!   outside `S` is independent of `S`; (A2.2) no operation dependent on
//!   `S` can become enabled by operations outside `S`: following enable
//!   graph edges from `T \ S` through operations outside `S` reaches no
//!   operation dependent on `S`. (Any operation that runs before `S` is
//!   either enabled now, or was enabled by an earlier one along such a
//!   path, so it lies in that reach.)
//! * (A3) when state properties are checked, every operation of `S` is a
//!   stutter operation: it writes no variable read by the invariant, the
//!   assertions or the goal (the `visible` groups of [`Relations`]).
//!
//! Deadlock-only checking needs only A1 and A2. The cycle condition (A4)
//! is the engine's proviso (`workers`' `por` module).
//!
//! When groups belong to processes with program counters (Promela's), A2.2
//! leaves out the groups of `S`'s processes that are not at their
//! process's current location, provided `S` holds every enabled group of
//! those processes: such a group can run only after its process moves,
//! and the first group of the process to run would be one at its current
//! location, outside `S` (so disabled now) and dependent on `S` (it shares
//! the program counter), which the search reaches and rejects on its own.
//! The static enable graph alone cannot tell that a guard on other
//! processes' variables does not matter while the process is elsewhere.
//!
//! The paper tries the candidates `DependencySet(α, T)` for randomly
//! chosen `α ∈ T` and takes the first that passes; orbit tries every `α`
//! and keeps the candidate with the fewest transitions (ties: the first
//! `α` in declaration order), which keeps the choice deterministic, as the
//! engine's contract requires.

pub use crate::model::GroupSet as OpSet;
use crate::model::Relations;

/// The relations the choice needs: the dependency relation, the enable
/// graph and the visible groups ("operations" below: B's word for groups),
/// as the front end's [`Relations`] give them (visible: the operations that
/// are not stutter operations, A3; none when no state property is checked).
#[derive(Clone, Debug)]
pub struct AmpleRule {
    r: Relations,
}

impl From<&Relations> for AmpleRule {
    fn from(r: &Relations) -> Self {
        AmpleRule { r: r.clone() }
    }
}

/// Reusable buffers for [`AmpleRule::choose`] (one per worker thread).
#[derive(Clone, Debug, Default)]
pub struct AmpleScratch {
    candidate: OpSet,
    /// The chosen proper ample set after a successful `choose`.
    pub chosen: OpSet,
    reach: OpSet,
    dependent_on: OpSet,
    /// Groups A2.2 leaves out (processes elsewhere).
    elsewhere: OpSet,
    owners: Vec<u32>,
    work: Vec<usize>,
}

impl AmpleRule {
    /// Number of operations.
    pub fn operations(&self) -> usize {
        self.r.n
    }

    /// Fresh buffers for [`AmpleRule::choose`].
    pub fn scratch(&self) -> AmpleScratch {
        AmpleScratch {
            candidate: OpSet::empty(self.r.n),
            chosen: OpSet::empty(self.r.n),
            reach: OpSet::empty(self.r.n),
            dependent_on: OpSet::empty(self.r.n),
            elsewhere: OpSet::empty(self.r.n),
            owners: Vec::new(),
            work: Vec::with_capacity(self.r.n),
        }
    }

    /// Chooses a proper ample set of the state whose enabled operations
    /// are `enabled`, where operation `op` has `cost[op]` transitions.
    /// Returns `true` and leaves it in `scratch.chosen`, or `false` when no
    /// candidate passes (the state is to be fully expanded). `here`: the
    /// groups at their process's current location, when the relations
    /// know the processes ([`Relations::with_owners`]).
    pub fn choose(
        &self,
        enabled: &OpSet,
        cost: &[u32],
        here: Option<&OpSet>,
        scratch: &mut AmpleScratch,
    ) -> bool {
        let mut best: Option<u64> = None;
        for alpha in enabled.iter() {
            if self.r.visible.contains(alpha) {
                continue; // any candidate holding α fails A3
            }
            if !self.dependency_set(alpha, enabled, scratch) {
                continue;
            }
            let c = &scratch.candidate;
            if c.len() == enabled.len() || (!self.r.visible.is_empty() && c.meets(&self.r.visible))
            {
                continue;
            }
            let total: u64 = c.iter().map(|op| u64::from(cost[op])).sum();
            if best.is_some_and(|b| total >= b) || !self.enabling_closed(enabled, here, scratch) {
                continue;
            }
            best = Some(total);
            let AmpleScratch {
                candidate, chosen, ..
            } = scratch;
            chosen.copy_from(candidate);
        }
        best.is_some()
    }

    /// A2.1: `scratch.candidate := DependencySet(alpha, enabled)`; `false`
    /// if it meets a visible operation when those are excluded (A3), which
    /// ends the candidate early.
    fn dependency_set(&self, alpha: usize, enabled: &OpSet, scratch: &mut AmpleScratch) -> bool {
        let AmpleScratch {
            candidate, work, ..
        } = scratch;
        candidate.clear();
        candidate.insert(alpha);
        work.clear();
        work.push(alpha);
        while let Some(a) = work.pop() {
            for (k, (&dep, &en)) in self.r.dependent[a]
                .words
                .iter()
                .zip(&enabled.words)
                .enumerate()
            {
                let mut new = dep & en & !candidate.words[k];
                candidate.words[k] |= new;
                while new != 0 {
                    let op = k * 64 + new.trailing_zeros() as usize;
                    if self.r.visible.contains(op) {
                        return false;
                    }
                    work.push(op);
                    new &= new - 1;
                }
            }
        }
        true
    }

    /// A2.2 for `scratch.candidate`: no operation reachable in the enable
    /// graph from `enabled \ S` through operations outside `S` depends on
    /// `S`.
    fn enabling_closed(
        &self,
        enabled: &OpSet,
        here: Option<&OpSet>,
        scratch: &mut AmpleScratch,
    ) -> bool {
        let AmpleScratch {
            candidate,
            reach,
            dependent_on,
            elsewhere,
            owners,
            work,
            ..
        } = scratch;
        dependent_on.clear();
        for op in candidate.iter() {
            dependent_on.union_with(&self.r.dependent[op]);
        }
        elsewhere.clear();
        if let (Some(owned), Some(here)) = (&self.r.owned, here) {
            owners.clear();
            owners.extend(candidate.iter().map(|op| self.r.owner[op]));
            owners.sort_unstable();
            owners.dedup();
            // Only when `S` holds every enabled group of its processes.
            let whole = !owners.contains(&u32::MAX)
                && enabled.iter().all(|op| {
                    candidate.contains(op) || owners.binary_search(&self.r.owner[op]).is_err()
                });
            if whole {
                for &o in owners.iter() {
                    elsewhere.union_with(&owned[o as usize]);
                }
                for (e, h) in elsewhere.words.iter_mut().zip(&here.words) {
                    *e &= !h;
                }
            }
        }
        reach.clear();
        work.clear();
        for op in enabled.iter().filter(|&op| !candidate.contains(op)) {
            reach.insert(op);
            work.push(op);
        }
        while let Some(a) = work.pop() {
            for (k, &en) in self.r.enables[a].words.iter().enumerate() {
                let mut new = en & !candidate.words[k] & !reach.words[k] & !elsewhere.words[k];
                if new & dependent_on.words[k] != 0 {
                    return false;
                }
                reach.words[k] |= new;
                while new != 0 {
                    work.push(k * 64 + new.trailing_zeros() as usize);
                    new &= new - 1;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(
        n: usize,
        dep: &[(usize, usize)],
        en: &[(usize, usize)],
        visible: &[usize],
    ) -> AmpleRule {
        AmpleRule::from(&Relations::new(
            n,
            |a, b| dep.contains(&(a, b)),
            |a, b| en.contains(&(a, b)),
            OpSet::of(n, visible.iter().copied()),
        ))
    }

    fn choose(r: &AmpleRule, enabled: &[usize], cost: &[u32]) -> Option<Vec<usize>> {
        let mut s = r.scratch();
        let e = OpSet::of(r.operations(), enabled.iter().copied());
        r.choose(&e, cost, None, &mut s)
            .then(|| s.chosen.iter().collect())
    }

    #[test]
    fn independent_operations_give_singletons() {
        let r = rule(3, &[], &[], &[]);
        assert_eq!(choose(&r, &[0, 1, 2], &[1, 1, 1]), Some(vec![0]));
        // The cheapest candidate wins.
        assert_eq!(choose(&r, &[0, 1, 2], &[3, 1, 2]), Some(vec![1]));
        // A single enabled operation is not a proper subset (A1 keeps it).
        assert_eq!(choose(&r, &[2], &[1, 1, 1]), None);
        assert_eq!(choose(&r, &[], &[1, 1, 1]), None);
    }

    #[test]
    fn candidates_are_closed_under_dependency_within_the_enabled_ones() {
        // 0 - 1 dependent, 2 alone; 3 depends on 2 but is disabled.
        let r = rule(4, &[(0, 1), (2, 3)], &[], &[]);
        assert_eq!(choose(&r, &[0, 1, 2], &[1, 1, 5]), Some(vec![0, 1]));
        assert_eq!(choose(&r, &[0, 1, 2], &[1, 1, 1]), Some(vec![2]));
        // Full dependency: no proper ample set.
        let full = rule(3, &[(0, 1), (1, 2), (0, 2)], &[], &[]);
        assert_eq!(choose(&full, &[0, 1, 2], &[1, 1, 1]), None);
    }

    #[test]
    fn an_operation_that_can_enable_a_dependent_one_blocks_the_candidate() {
        // 2 is disabled and depends on 0; 1 can enable 2 (A2.2 fails for
        // {0}); {1} is fine: nothing depends on it.
        let r = rule(3, &[(0, 2)], &[(1, 2)], &[]);
        assert_eq!(choose(&r, &[0, 1], &[1, 1, 1]), Some(vec![1]));
        assert_eq!(choose(&r, &[0, 1], &[1, 5, 1]), Some(vec![1]));
        // Through a chain: 1 enables 3, which enables 2.
        let r = rule(4, &[(0, 2)], &[(1, 3), (3, 2)], &[]);
        assert_eq!(choose(&r, &[0, 1], &[1, 9, 1, 1]), Some(vec![1]));
        // ...but not through the candidate itself: 0 enables 3 enables 2.
        let r = rule(4, &[(0, 2)], &[(0, 3), (3, 2)], &[]);
        assert_eq!(choose(&r, &[0, 1], &[1, 9, 1, 1]), Some(vec![0]));
    }

    #[test]
    fn groups_of_a_process_elsewhere_cannot_run_before_it_moves() {
        // Process 0 owns 0 (here, enabled) and 1 (elsewhere): both share
        // its program counter. Process 1 owns 2 (here, enabled), which
        // writes what 1's guard reads, and 3 (elsewhere).
        let dep = [(0, 1), (1, 2), (2, 3)];
        let en = [(2, 1), (0, 1), (2, 3)];
        let owners = [Some(0), Some(0), Some(1), Some(1)];
        let r = AmpleRule::from(
            &Relations::new(
                4,
                |a, b| dep.contains(&(a, b)),
                |a, b| en.contains(&(a, b)),
                OpSet::empty(4),
            )
            .with_owners(&owners),
        );
        let enabled = OpSet::of(4, [0, 2]);
        let mut s = r.scratch();
        // Without locations, 2 may enable 1, which depends on {0}.
        assert!(!r.choose(&enabled, &[1, 5, 1, 1], None, &mut s));
        // With them, 1 waits for process 0 to move: {0} is ample.
        let here = OpSet::of(4, [0, 2]);
        assert!(r.choose(&enabled, &[1, 5, 1, 1], Some(&here), &mut s));
        assert_eq!(s.chosen.iter().collect::<Vec<_>>(), vec![0]);
        // A disabled group of process 0 at its location that 2 may enable
        // (1 is here now) still blocks {0}.
        let here = OpSet::of(4, [0, 1, 2]);
        assert!(!r.choose(&enabled, &[1, 5, 1, 1], Some(&here), &mut s));
    }

    #[test]
    fn visible_operations_are_never_in_a_proper_ample_set() {
        let r = rule(3, &[(0, 1)], &[], &[1]);
        // {0} closes to {0, 1}, which holds the visible 1; {2} is fine.
        assert_eq!(choose(&r, &[0, 1, 2], &[1, 1, 9]), Some(vec![2]));
        assert_eq!(choose(&r, &[0, 1], &[1, 1, 1]), None);
        let r = rule(2, &[], &[], &[0, 1]);
        assert_eq!(choose(&r, &[0, 1], &[1, 1]), None);
    }

    #[test]
    fn op_sets_beyond_one_word() {
        let r = rule(130, &[(0, 129)], &[], &[]);
        let enabled: Vec<usize> = vec![0, 100, 129];
        assert_eq!(choose(&r, &enabled, &vec![1; 130]), Some(vec![100]));
        assert_eq!(
            choose(&r, &[0, 129, 5], &{
                let mut c = vec![1; 130];
                c[5] = 3;
                c
            }),
            Some(vec![0, 129])
        );
    }
}
