//! Small hand-written transition systems with known state spaces, shared by
//! the integration tests and the benchmarks.
#![allow(dead_code)]

use std::collections::{HashSet, VecDeque};

use workers::{LabelledState, ModelError, TransitionSystem, Violation, ViolationKind};

/// A `dims`-dimensional lattice of counters `0..=max`, starting at the
/// origin; each transition increments one counter below `max`.
///
/// It has `(max+1)^dims` states and `dims * max * (max+1)^(dims-1)`
/// transitions; its only deadlock is the far corner, at depth `dims * max`,
/// and a state's BFS depth is the sum of its counters.
#[derive(Clone, Debug, Default)]
pub struct Lattice {
    pub dims: usize,
    pub max: u64,
    /// Invariant "sum of counters < bad_sum" (violated at depth `bad_sum`).
    pub bad_sum: Option<u64>,
    /// Computing the successors of this state raises a model error.
    pub error_at: Option<Vec<u64>>,
    /// Goal predicate: the state equals this one.
    pub goal: Option<Vec<u64>>,
    /// Each successor is emitted twice (duplicate edges count as
    /// transitions, not as states).
    pub duplicate_edges: bool,
    /// Rounds of busy work per successor, emulating the cost of a front
    /// end's successor function in benchmarks (0 in tests).
    pub work: u64,
}

impl Lattice {
    pub fn new(dims: usize, max: u64) -> Self {
        Lattice {
            dims,
            max,
            ..Lattice::default()
        }
    }

    pub fn state_count(&self) -> u64 {
        (self.max + 1).pow(self.dims as u32)
    }

    pub fn transition_count(&self) -> u64 {
        let t = self.dims as u64 * self.max * (self.max + 1).pow(self.dims as u32 - 1);
        if self.duplicate_edges { 2 * t } else { t }
    }

    fn each_successor(&self, state: &[u64], mut f: impl FnMut(usize, &[u64])) {
        let mut next = state.to_vec();
        for i in 0..self.dims {
            if state[i] < self.max {
                next[i] += 1;
                f(i, &next);
                if self.duplicate_edges {
                    f(i, &next);
                }
                next[i] -= 1;
            }
        }
    }
}

impl TransitionSystem for Lattice {
    type Scratch = Vec<u64>;

    fn new_scratch(&self) -> Vec<u64> {
        vec![0; self.dims]
    }

    fn state_width(&self) -> usize {
        self.dims
    }

    fn initial_states(
        &self,
        _scratch: &mut Vec<u64>,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        emit(&vec![0; self.dims]);
        Ok(())
    }

    fn successors(
        &self,
        scratch: &mut Vec<u64>,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        if self.error_at.as_deref() == Some(state) {
            return Err(ModelError::new("lattice.mch:1:1: division by zero"));
        }
        scratch.copy_from_slice(state);
        for i in 0..self.dims {
            if state[i] < self.max {
                scratch[i] += 1;
                if self.work > 0 {
                    let mut h = scratch[i];
                    for _ in 0..self.work {
                        h = std::hint::black_box(workers::fingerprint(&[h, i as u64]));
                    }
                    std::hint::black_box(h);
                }
                emit(scratch);
                if self.duplicate_edges {
                    emit(scratch);
                }
                scratch[i] -= 1;
            }
        }
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(vec![LabelledState {
            label: "init".into(),
            state: vec![0; self.dims].into(),
        }])
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        if self.error_at.as_deref() == Some(state) {
            return Err(ModelError::new("lattice.mch:1:1: division by zero"));
        }
        let mut out = Vec::new();
        self.each_successor(state, |i, s| {
            out.push(LabelledState {
                label: format!("inc({i})"),
                state: s.into(),
            })
        });
        Ok(out)
    }

    fn check_state(
        &self,
        _scratch: &mut Vec<u64>,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        Ok(match self.bad_sum {
            Some(bad) if state.iter().sum::<u64>() >= bad => Some(Violation {
                kind: ViolationKind::Invariant,
                message: format!("sum < {bad}"),
            }),
            _ => None,
        })
    }

    fn has_goal(&self) -> bool {
        self.goal.is_some()
    }

    fn is_goal(&self, _scratch: &mut Vec<u64>, state: &[u64]) -> Result<bool, ModelError> {
        Ok(self.goal.as_deref() == Some(state))
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        state
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("c{i}"), v.to_string()))
            .collect()
    }
}

/// A token ring of `n` processes, each idle (0), waiting (1) or critical
/// (2), plus the position of the token. A process may start waiting when
/// idle, enter when waiting and holding the token, and leave to idle,
/// passing the token on; an idle holder may pass the token on. Every state
/// has a successor. Two initial states (token at 0 or at 1), emitted twice
/// each. Invariant (if `check_mutex`): at most one process is critical.
/// If `broken`, a waiting process may also enter without the token, which
/// violates mutual exclusion.
#[derive(Clone, Debug)]
pub struct Ring {
    pub n: usize,
    pub broken: bool,
}

impl Ring {
    fn successors_of(&self, state: &[u64], mut f: impl FnMut(String, &[u64])) {
        let n = self.n;
        let token = state[n] as usize;
        let mut next = state.to_vec();
        for i in 0..n {
            match state[i] {
                0 => {
                    next[i] = 1;
                    f(format!("request({i})"), &next);
                    next[i] = 0;
                    if token == i {
                        next[n] = ((i + 1) % n) as u64;
                        f(format!("pass({i})"), &next);
                        next[n] = token as u64;
                    }
                }
                1 if token == i || self.broken => {
                    next[i] = 2;
                    f(format!("enter({i})"), &next);
                    next[i] = 1;
                }
                2 => {
                    next[i] = 0;
                    next[n] = ((i + 1) % n) as u64;
                    f(format!("leave({i})"), &next);
                    next[i] = 2;
                    next[n] = token as u64;
                }
                _ => {}
            }
        }
    }

    fn initial(&self) -> Vec<Vec<u64>> {
        (0..2u64)
            .map(|t| {
                let mut s = vec![0; self.n + 1];
                s[self.n] = t;
                s
            })
            .collect()
    }

    /// Reference counts (states, transitions) by a plain BFS over a
    /// `HashSet`, independent of the engine.
    pub fn reference_counts(&self) -> (u64, u64) {
        let mut seen: HashSet<Vec<u64>> = HashSet::new();
        let mut queue = VecDeque::new();
        for s in self.initial() {
            if seen.insert(s.clone()) {
                queue.push_back(s);
            }
        }
        let mut transitions = 0;
        while let Some(s) = queue.pop_front() {
            self.successors_of(&s, |_, t| {
                transitions += 1;
                if seen.insert(t.to_vec()) {
                    queue.push_back(t.to_vec());
                }
            });
        }
        (seen.len() as u64, transitions)
    }
}

impl TransitionSystem for Ring {
    type Scratch = ();

    fn new_scratch(&self) {}

    fn state_width(&self) -> usize {
        self.n + 1
    }

    fn initial_states(&self, _: &mut (), emit: &mut dyn FnMut(&[u64])) -> Result<(), ModelError> {
        for s in self.initial() {
            emit(&s);
            emit(&s);
        }
        Ok(())
    }

    fn successors(
        &self,
        _: &mut (),
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.successors_of(state, |_, s| emit(s));
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(self
            .initial()
            .into_iter()
            .flat_map(|s| {
                let l = LabelledState {
                    label: format!("init(token={})", s[self.n]),
                    state: s.into(),
                };
                [l.clone(), l]
            })
            .collect())
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        let mut out = Vec::new();
        self.successors_of(state, |label, s| {
            out.push(LabelledState {
                label,
                state: s.into(),
            })
        });
        Ok(out)
    }

    fn check_state(&self, _: &mut (), state: &[u64]) -> Result<Option<Violation>, ModelError> {
        let critical = state[..self.n].iter().filter(|&&p| p == 2).count();
        Ok((critical > 1).then(|| Violation {
            kind: ViolationKind::Invariant,
            message: "mutual exclusion".into(),
        }))
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        let mut out: Vec<_> = (0..self.n)
            .map(|i| (format!("p{i}"), state[i].to_string()))
            .collect();
        out.push(("token".into(), state[self.n].to_string()));
        out
    }
}

/// Checks that a trace is a real path of `system` from an initial state
/// (labels included) and returns its number of transitions.
pub fn check_trace_is_path<T: TransitionSystem>(system: &T, trace: &workers::Trace) -> usize {
    let init = system.labelled_initial_states().unwrap();
    assert!(
        init.iter()
            .any(|l| l.label == trace.steps[0].label && l.state == trace.steps[0].state)
    );
    for pair in trace.steps.windows(2) {
        let succ = system.labelled_successors(&pair[0].state).unwrap();
        assert!(
            succ.iter()
                .any(|l| l.label == pair[1].label && l.state == pair[1].state),
            "{:?} is not a successor of {:?}",
            pair[1],
            pair[0]
        );
    }
    trace.transitions()
}

/// Reference exploration through the labelled API with a `HashSet`:
/// (distinct states, transitions, BFS depth of the shallowest state that
/// fails `check_state`, if any). Independent of the engine.
pub fn reference_bfs<T: TransitionSystem>(system: &T) -> (u64, u64, Option<usize>) {
    let mut scratch = system.new_scratch();
    let mut seen: HashSet<Box<[u64]>> = HashSet::new();
    let mut queue = VecDeque::new();
    let mut first_bad = None;
    for l in system.labelled_initial_states().unwrap() {
        if seen.insert(l.state.clone()) {
            queue.push_back((l.state, 0usize));
        }
    }
    let mut transitions = 0;
    while let Some((s, depth)) = queue.pop_front() {
        if first_bad.is_none() && system.check_state(&mut scratch, &s).unwrap().is_some() {
            first_bad = Some(depth);
        }
        for l in system.labelled_successors(&s).unwrap() {
            transitions += 1;
            if seen.insert(l.state.clone()) {
                queue.push_back((l.state, depth + 1));
            }
        }
    }
    (seen.len() as u64, transitions, first_bad)
}

/// A counter `0..n` stepping by 2 or by 1 (in that emission order), with
/// the invariant `x != bad`. BFS reaches `bad` in `ceil(bad / 2)` steps;
/// DFS, following the last emitted (+1) edge, takes longer.
#[derive(Clone, Debug)]
pub struct Steps {
    pub n: u64,
    pub bad: u64,
}

impl Steps {
    fn each_successor(&self, x: u64, mut f: impl FnMut(&str, u64)) {
        if x + 2 < self.n {
            f("plus2", x + 2);
        }
        if x + 1 < self.n {
            f("plus1", x + 1);
        }
    }
}

impl TransitionSystem for Steps {
    type Scratch = ();

    fn new_scratch(&self) {}

    fn state_width(&self) -> usize {
        1
    }

    fn initial_states(&self, _: &mut (), emit: &mut dyn FnMut(&[u64])) -> Result<(), ModelError> {
        emit(&[0]);
        Ok(())
    }

    fn successors(
        &self,
        _: &mut (),
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.each_successor(state[0], |_, y| emit(&[y]));
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(vec![LabelledState {
            label: "init".into(),
            state: vec![0].into(),
        }])
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        let mut out = Vec::new();
        self.each_successor(state[0], |l, y| {
            out.push(LabelledState {
                label: l.into(),
                state: vec![y].into(),
            })
        });
        Ok(out)
    }

    fn check_state(&self, _: &mut (), state: &[u64]) -> Result<Option<Violation>, ModelError> {
        Ok((state[0] == self.bad).then(|| Violation {
            kind: ViolationKind::Assertion,
            message: "x /= bad".into(),
        }))
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        vec![("x".into(), state[0].to_string())]
    }
}

/// A lattice whose successor function panics at one state: a bug in a
/// front end must not hang the parallel engines.
#[derive(Clone, Debug)]
pub struct Panicky(pub Lattice, pub Vec<u64>);

impl TransitionSystem for Panicky {
    type Scratch = Vec<u64>;
    fn new_scratch(&self) -> Vec<u64> {
        self.0.new_scratch()
    }
    fn state_width(&self) -> usize {
        self.0.state_width()
    }
    fn initial_states(
        &self,
        s: &mut Vec<u64>,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.0.initial_states(s, emit)
    }
    fn successors(
        &self,
        s: &mut Vec<u64>,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        assert_ne!(state, &self.1[..], "front-end bug");
        self.0.successors(s, state, emit)
    }
    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        self.0.labelled_initial_states()
    }
    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        self.0.labelled_successors(state)
    }
    fn check_state(
        &self,
        s: &mut Vec<u64>,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        self.0.check_state(s, state)
    }
    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.0.describe_state(state)
    }
}

/// An explicit graph: state `[v]` for node `v`, successors `edges[v]` (in
/// order, duplicates allowed), initial nodes `init`, invariant `v != bad`.
#[derive(Clone, Debug)]
pub struct Graph {
    pub edges: Vec<Vec<u64>>,
    pub init: Vec<u64>,
    pub bad: Option<u64>,
}

impl TransitionSystem for Graph {
    type Scratch = ();

    fn new_scratch(&self) {}

    fn state_width(&self) -> usize {
        1
    }

    fn initial_states(&self, _: &mut (), emit: &mut dyn FnMut(&[u64])) -> Result<(), ModelError> {
        self.init.iter().for_each(|&v| emit(&[v]));
        Ok(())
    }

    fn successors(
        &self,
        _: &mut (),
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.edges[state[0] as usize]
            .iter()
            .for_each(|&w| emit(&[w]));
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(self
            .init
            .iter()
            .map(|&v| LabelledState {
                label: format!("init{v}"),
                state: vec![v].into(),
            })
            .collect())
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        Ok(self.edges[state[0] as usize]
            .iter()
            .map(|&w| LabelledState {
                label: format!("to{w}"),
                state: vec![w].into(),
            })
            .collect())
    }

    fn check_state(&self, _: &mut (), state: &[u64]) -> Result<Option<Violation>, ModelError> {
        Ok((Some(state[0]) == self.bad).then(|| Violation {
            kind: ViolationKind::Invariant,
            message: "bad".into(),
        }))
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        vec![("v".into(), state[0].to_string())]
    }
}
