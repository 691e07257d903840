//! The coloured graphs of a model's first reachable states, as symmetry
//! reduction labels them (`orbit graph`): the same for every front end
//! with a [`crate::model::StateSymmetry`].

use super::{JobError, ModelParts};
use crate::canon::{Graph, GraphBuilder};
use crate::model::{Model, ModelError, StateGraph, StateSymmetry};
use std::collections::{HashSet, VecDeque};

/// The graphs of the first `count` distinct states of `parts`' model in
/// breadth-first order (fewer when it has fewer).
pub(super) fn state_graphs<P: ModelParts>(parts: &P, count: u64) -> Result<Vec<Graph>, JobError> {
    let Some(sym) = parts.graph_symmetry() else {
        return Err(JobError::Unsupported(
            "state graphs for this language (it has no symmetry reduction)".to_string(),
        ));
    };
    let states = first_states(parts.model(), count)?;
    let atoms = sym.domains().atoms();
    let mut scratch = sym.new_scratch();
    let mut graph = StateGraph::default();
    let mut builder = GraphBuilder::new(0);
    Ok(states
        .iter()
        .map(|state| {
            graph.reset(&atoms);
            sym.describe(state, &mut scratch, &mut graph);
            graph.emit(&mut builder);
            builder.build()
        })
        .collect())
}

fn job_error(e: ModelError) -> JobError {
    match e.stopped {
        Some(reason) => JobError::Stopped(reason),
        None => JobError::Model(e.message),
    }
}

/// The first `n` distinct states of `model` in breadth-first order.
fn first_states<M: Model>(model: &M, n: u64) -> Result<Vec<Vec<u64>>, JobError> {
    let mut scratch = model.new_scratch();
    let mut seen = HashSet::new();
    let mut order: Vec<Vec<u64>> = Vec::new();
    let mut queue = VecDeque::new();
    let mut add = |s: &[u64], order: &mut Vec<Vec<u64>>, queue: &mut VecDeque<usize>| {
        if (order.len() as u64) < n && seen.insert(s.to_vec()) {
            queue.push_back(order.len());
            order.push(s.to_vec());
        }
    };
    model
        .initial_states(&mut scratch, &mut |_, s| add(s, &mut order, &mut queue))
        .map_err(job_error)?;
    while let Some(i) = queue.pop_front() {
        if order.len() as u64 >= n {
            break;
        }
        if let Some(reason) = workers::budget::tripped() {
            return Err(JobError::Stopped(reason));
        }
        let state = order[i].clone();
        model
            .successors(&mut scratch, &state, &mut |_, s| {
                add(s, &mut order, &mut queue)
            })
            .map_err(job_error)?;
    }
    Ok(order)
}
