//! Explicit graphs, for property tests.

use workers::{LabelledState, ModelError, TransitionSystem, Violation, ViolationKind};

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
