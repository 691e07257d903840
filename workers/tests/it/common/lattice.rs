//! The counter lattice, and a variant whose successor function panics.

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
