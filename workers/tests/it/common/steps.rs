//! A counter with +1 and +2 steps: BFS and DFS traces differ.

use workers::{LabelledState, ModelError, TransitionSystem, Violation, ViolationKind};

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
