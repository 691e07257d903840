//! A token ring of processes.

use std::collections::{HashSet, VecDeque};

use workers::{LabelledState, ModelError, TransitionSystem, Violation, ViolationKind};

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
