//! An explorer of generated machines, independent of orbit: it evaluates the
//! [`Machine`] data directly and enumerates the whole reachable state graph,
//! so the differential tests know which errors exist before comparing
//! orbit's full search and its reduced search with them.

use super::{Atom, Cmp, Machine, Term, Value};
use std::collections::{HashMap, VecDeque};

/// What the whole state graph of a machine contains.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Distinct states reachable when states violating the invariant are not
    /// expanded (as orbit explores with invariant checking on).
    pub states: u64,
    /// Transitions out of the expanded states of that graph (one per
    /// operation instance: operation and parameter value).
    pub transitions: u64,
    /// Distinct initial states.
    pub initial_states: u64,
    /// A reachable state violates the invariant.
    pub invariant_violation: bool,
    /// A state without successors that satisfies the invariant is reachable
    /// without passing through a violating state (what a search checking
    /// both finds).
    pub deadlock_with_invariant: bool,
    /// A state without successors is reachable when every state is expanded
    /// (what a deadlock-only search finds).
    pub deadlock: bool,
    /// Distinct states when every state is expanded (the invariant ignored).
    pub all_states: u64,
    /// Transitions when every state is expanded.
    pub all_transitions: u64,
}

type State = Vec<i64>;

impl Machine {
    fn term_value(&self, state: &State, param: i64, term: Term) -> i64 {
        match term {
            Term::Const(c) => c,
            Term::Var(v) => state[v],
            Term::Param => param,
        }
    }

    fn holds(&self, state: &State, param: i64, atom: &Atom) -> bool {
        let lhs = state[atom.var];
        let rhs = self.term_value(state, param, atom.rhs);
        match atom.cmp {
            Cmp::Eq => lhs == rhs,
            Cmp::Ne => lhs != rhs,
            Cmp::Lt => lhs < rhs,
        }
    }

    /// Every (successor) of `state`, one per enabled operation instance.
    pub fn successors(&self, state: &State) -> Vec<State> {
        let mut out = Vec::new();
        for op in &self.ops {
            for param in 0..=op.param.unwrap_or(0) {
                if !op.guard.iter().all(|a| self.holds(state, param, a)) {
                    continue;
                }
                let mut next = state.clone();
                for &(v, value) in &op.assigns {
                    next[v] = match value {
                        Value::Term(t) => self.term_value(state, param, t),
                        Value::Shift(y, c) => (state[y] + c) % (self.vars[v].max() + 1),
                        Value::Test(y, c) => i64::from(state[y] == c),
                        Value::Inc => state[v] + 1,
                    };
                }
                out.push(next);
            }
        }
        out
    }

    /// Whether `state` satisfies the invariant.
    pub fn invariant(&self, state: &State) -> bool {
        match self.forbidden {
            Some([(x, a), (y, b)]) => !(state[x] == a && state[y] == b),
            None => true,
        }
    }

    /// Every initial state.
    pub fn initial_states(&self) -> Vec<State> {
        let mut states = vec![Vec::new()];
        for (v, init) in self.init.iter().enumerate() {
            let values: Vec<i64> = match init {
                Some(c) => vec![*c],
                None => (0..=self.vars[v].max()).collect(),
            };
            states = states
                .into_iter()
                .flat_map(|s| {
                    values.iter().map(move |&x| {
                        let mut s = s.clone();
                        s.push(x);
                        s
                    })
                })
                .collect();
        }
        states
    }

    /// Explores the whole state graph twice (with and without stopping at
    /// invariant violations) and reports what it contains.
    pub fn facts(&self) -> Facts {
        let mut facts = Facts::default();
        let inits = self.initial_states();
        facts.initial_states = inits.len() as u64;
        let (states, transitions, deadlock, violation) = self.explore(&inits, true);
        facts.states = states;
        facts.transitions = transitions;
        facts.deadlock_with_invariant = deadlock;
        facts.invariant_violation = violation;
        let (all_states, all_transitions, deadlock, _) = self.explore(&inits, false);
        facts.all_states = all_states;
        facts.all_transitions = all_transitions;
        facts.deadlock = deadlock;
        facts
    }

    /// BFS from `inits`; returns (states, transitions, a deadlock was met,
    /// a violation was met). With `stop_at_violation`, violating states are
    /// counted but neither expanded nor considered deadlocks.
    fn explore(&self, inits: &[State], stop_at_violation: bool) -> (u64, u64, bool, bool) {
        let mut seen: HashMap<State, ()> = HashMap::new();
        let mut queue = VecDeque::new();
        for s in inits {
            if seen.insert(s.clone(), ()).is_none() {
                queue.push_back(s.clone());
            }
        }
        let (mut transitions, mut deadlock, mut violation) = (0, false, false);
        while let Some(state) = queue.pop_front() {
            if !self.invariant(&state) {
                violation = true;
                if stop_at_violation {
                    continue;
                }
            }
            let next = self.successors(&state);
            deadlock |= next.is_empty();
            transitions += next.len() as u64;
            for s in next {
                if seen.insert(s.clone(), ()).is_none() {
                    queue.push_back(s);
                }
            }
        }
        (seen.len() as u64, transitions, deadlock, violation)
    }
}
