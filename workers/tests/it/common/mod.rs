//! Small hand-written transition systems with known state spaces, shared by
//! the integration tests, the benchmarks and the scaling example.
#![allow(dead_code, unused_imports)]

mod graph;
mod lattice;
mod ring;
mod steps;

pub use graph::Graph;
pub use lattice::{Lattice, Panicky};
pub use ring::Ring;
pub use steps::Steps;

use std::collections::{HashSet, VecDeque};

use workers::TransitionSystem;

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
