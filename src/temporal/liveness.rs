//! Rumur's `liveness` properties: from every reachable state, a state
//! satisfying `p` stays reachable (CTL's AG EF p; Rumur's
//! `doc/properties.rst`).
//!
//! # Algorithm
//! The reachable states are numbered in an explicit [`StateGraph`] whose
//! labels hold one bit per property (`p` evaluated once per state). For
//! each property, the states satisfying it are marked and the marks
//! spread backwards along the edges (a breadth-first search over the
//! reversed graph): the marked states are exactly those where EF p holds.
//! A reachable state left unmarked violates AG EF p. Ids follow the
//! breadth-first order of the graph, so the unmarked state of least id is
//! as shallow as any, and its breadth-first parents give a shortest path
//! to it: the counterexample. Cost: the graph, then O(states + edges) per
//! property. (Rumur instead re-expands every state until no mark moves,
//! which costs an expansion per state and round.)
//!
//! # Under symmetry reduction
//! The graph of representatives is bisimilar to the full graph for every
//! predicate invariant under the permutations, and EF p is preserved by
//! bisimulation: the verdicts are exact for such `p`. An instance of a
//! property quantified over a scalarset names one element and is not
//! invariant; the checker refuses it with symmetry on
//! ([`crate::checker::Checker::build`]). Partial order reduction does not
//! preserve EF p (an ample set may prune the only path to p) and is
//! refused with liveness properties too.

use super::TemporalError;
use super::graph::StateGraph;
use std::collections::VecDeque;
use std::time::{Duration, Instant};
use workers::{ModelError, TransitionSystem};

/// What the liveness check measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LivenessFigures {
    /// Property instances checked.
    pub properties: usize,
    /// States of the graph (as many as the safety search stored).
    pub states: u64,
    /// Edges of the graph, duplicates included.
    pub edges: u64,
    /// Bytes the graph took at its largest (states, edges, parents,
    /// labels; the predecessor lists are made after it and freed).
    pub graph_bytes: u64,
    /// Wall time of the check (graph and marking).
    pub wall: Duration,
}

/// The verdict of the liveness check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LivenessVerdict {
    /// Every property holds in every reachable state.
    Holds,
    /// Property `property` fails: from the last state of `path` (a
    /// shortest path from an initial state, as words of the checked
    /// system's states) no state satisfying it is reachable.
    Violated {
        /// The index of the property.
        property: usize,
        /// The path, initial state first.
        path: Vec<Box<[u64]>>,
    },
}

/// Checks `properties` liveness properties of `system` with `threads`
/// threads; `holds(scratch, state, k)` says whether `state` satisfies
/// property `k`. The first property (by index) that fails is reported.
pub fn check<T, H>(
    system: &T,
    threads: usize,
    properties: usize,
    holds: H,
) -> Result<(LivenessVerdict, LivenessFigures), TemporalError>
where
    T: TransitionSystem,
    H: Fn(&mut T::Scratch, &[u64], usize) -> Result<bool, ModelError> + Sync,
{
    let start = Instant::now();
    let (graph, mut figures) = labelled_graph(system, threads, properties, 0, holds)?;
    let (start_of, preds) = graph.predecessors();
    let mut verdict = LivenessVerdict::Holds;
    for k in 0..properties {
        if let Some(reason) = workers::budget::tripped() {
            return Err(TemporalError::Stopped(reason));
        }
        if let Some(v) = first_without_path(&graph, &start_of, &preds, k) {
            let path = graph
                .path_to(v)
                .into_iter()
                .map(|s| graph.state(s).into())
                .collect();
            verdict = LivenessVerdict::Violated { property: k, path };
            break;
        }
    }
    figures.wall = start.elapsed();
    Ok((verdict, figures))
}

/// [`check`] for properties that form families permuted by symmetry
/// reduction (instances that name one element of a permuted domain, such
/// as a ruleset's liveness property over a scalarset), on the graph of
/// representatives. `system` emits, after each successor's words,
/// `tag_words` words that pack, 16 bits per property, the *inverse* map of
/// the edge: for each property `j` at the successor's representative, the
/// property `i` at the expanded state it stands for (with `σ` the
/// permutation that took the real successor to its representative,
/// `σ(i) = j`).
///
/// EF p_i holds at a real state `s` exactly when EF p_σ(i) holds at `σ(s)`,
/// so the marks spread backwards over pairs (state, property) along the
/// edges, each through its map (the annotated quotient structure of
/// Emerson and Sistla, "Symmetry and model checking", 1996): exact for
/// the whole family without unfolding the symmetry. The verdict names the
/// property at the representative; the caller renames it for the real
/// trace.
pub fn check_family<T, H>(
    system: &T,
    threads: usize,
    properties: usize,
    tag_words: usize,
    holds: H,
) -> Result<(LivenessVerdict, LivenessFigures), TemporalError>
where
    T: TransitionSystem,
    H: Fn(&mut T::Scratch, &[u64], usize) -> Result<bool, ModelError> + Sync,
{
    let start = Instant::now();
    let (graph, mut figures) = labelled_graph(system, threads, properties, tag_words, holds)?;
    let n = graph.len();
    // Edges into each state: (source, edge's tag) by target.
    let mut start_of = vec![0usize; n + 1];
    for v in 0..n as u32 {
        for (w, _) in graph.edge_tags(v) {
            start_of[w as usize + 1] += 1;
        }
    }
    for v in 0..n {
        start_of[v + 1] += start_of[v];
    }
    let mut fill = start_of.clone();
    let mut incoming: Vec<(u32, u32, usize)> = vec![(0, 0, 0); graph.edges()];
    for v in 0..n as u32 {
        for (k, (w, _)) in graph.edge_tags(v).enumerate() {
            incoming[fill[w as usize]] = (v, w, k);
            fill[w as usize] += 1;
        }
    }
    let inverse = |v: u32, k: usize, j: usize| -> usize {
        let (_, tag) = graph.edge_tags(v).nth(k).expect("the edge");
        (tag[j / 4] >> (16 * (j % 4)) & 0xffff) as usize
    };
    let mut good = vec![false; n * properties];
    let mut queue: VecDeque<(u32, usize)> = VecDeque::new();
    for v in 0..n as u32 {
        for j in 0..properties {
            if graph.label(v, j) {
                good[v as usize * properties + j] = true;
                queue.push_back((v, j));
            }
        }
    }
    while let Some((w, j)) = queue.pop_front() {
        for &(v, _, k) in &incoming[start_of[w as usize]..start_of[w as usize + 1]] {
            let i = inverse(v, k, j);
            if !good[v as usize * properties + i] {
                good[v as usize * properties + i] = true;
                queue.push_back((v, i));
            }
        }
        if let Some(reason) = workers::budget::tripped_every(queue.len() as u64) {
            return Err(TemporalError::Stopped(reason));
        }
    }
    let verdict = match good.iter().position(|g| !g) {
        None => LivenessVerdict::Holds,
        Some(at) => {
            let (v, property) = ((at / properties) as u32, at % properties);
            let path = graph
                .path_to(v)
                .into_iter()
                .map(|s| graph.state(s).into())
                .collect();
            LivenessVerdict::Violated { property, path }
        }
    };
    figures.wall = start.elapsed();
    Ok((verdict, figures))
}

/// The graph of `system` (with `tag_words` words of tag per edge) whose
/// label bit `k` says that a state satisfies property `k`, and its figures
/// (the wall time is the caller's to fill in).
fn labelled_graph<T, H>(
    system: &T,
    threads: usize,
    properties: usize,
    tag_words: usize,
    holds: H,
) -> Result<(StateGraph, LivenessFigures), TemporalError>
where
    T: TransitionSystem,
    H: Fn(&mut T::Scratch, &[u64], usize) -> Result<bool, ModelError> + Sync,
{
    let words = properties.div_ceil(64);
    let graph = StateGraph::build(system, threads, words, tag_words, |scratch, state, out| {
        for k in 0..properties {
            if holds(scratch, state, k)? {
                out[k / 64] |= 1 << (k % 64);
            }
        }
        Ok(())
    })?;
    let figures = LivenessFigures {
        properties,
        states: graph.len() as u64,
        edges: graph.edges() as u64,
        graph_bytes: graph.bytes(),
        wall: Duration::ZERO,
    };
    Ok((graph, figures))
}

/// The least state of `graph` from which no state with label bit `k` is
/// reachable, if any (backward breadth-first search from the labelled
/// states over the predecessor lists `preds[start[v] .. start[v + 1]]`).
fn first_without_path(graph: &StateGraph, start: &[u64], preds: &[u32], k: usize) -> Option<u32> {
    let n = graph.len();
    let mut reaches = vec![false; n];
    let mut queue: VecDeque<u32> = VecDeque::new();
    for v in 0..n as u32 {
        if graph.label(v, k) {
            reaches[v as usize] = true;
            queue.push_back(v);
        }
    }
    while let Some(w) = queue.pop_front() {
        for &v in &preds[start[w as usize] as usize..start[w as usize + 1] as usize] {
            if !reaches[v as usize] {
                reaches[v as usize] = true;
                queue.push_back(v);
            }
        }
    }
    reaches.iter().position(|r| !r).map(|v| v as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use workers::{LabelledState, Violation};

    /// `0 .. n` counting up by one (to `top`) and down by one (from
    /// `down_from` at most): a line graph.
    struct Counter {
        top: u64,
        down_from: u64,
    }

    impl TransitionSystem for Counter {
        type Scratch = ();
        fn new_scratch(&self) {}
        fn state_width(&self) -> usize {
            1
        }
        fn initial_states(
            &self,
            _: &mut (),
            emit: &mut dyn FnMut(&[u64]),
        ) -> Result<(), ModelError> {
            emit(&[0]);
            Ok(())
        }
        fn successors(
            &self,
            _: &mut (),
            s: &[u64],
            emit: &mut dyn FnMut(&[u64]),
        ) -> Result<(), ModelError> {
            if s[0] < self.top {
                emit(&[s[0] + 1]);
            }
            if s[0] > 0 && s[0] <= self.down_from {
                emit(&[s[0] - 1]);
            }
            Ok(())
        }
        fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
            Ok(vec![])
        }
        fn labelled_successors(&self, _: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
            Ok(vec![])
        }
        fn check_state(&self, _: &mut (), _: &[u64]) -> Result<Option<Violation>, ModelError> {
            Ok(None)
        }
        fn describe_state(&self, _: &[u64]) -> Vec<(String, String)> {
            vec![]
        }
    }

    fn verdict(system: &Counter, threads: usize, target: u64) -> LivenessVerdict {
        check(system, threads, 1, |_, s, _| Ok(s[0] == target))
            .unwrap()
            .0
    }

    #[test]
    fn a_value_reachable_from_everywhere_is_live() {
        let c = Counter {
            top: 300,
            down_from: 300,
        };
        for threads in [1, 2] {
            assert_eq!(verdict(&c, threads, 7), LivenessVerdict::Holds);
        }
    }

    #[test]
    fn the_shallowest_state_that_cannot_return_is_reported() {
        // Down moves stop above 8: from 9 on, 7 is out of reach.
        let c = Counter {
            top: 300,
            down_from: 8,
        };
        for threads in [1, 2] {
            let LivenessVerdict::Violated { property, path } = verdict(&c, threads, 7) else {
                panic!("7 is not live from 9");
            };
            assert_eq!(property, 0);
            let path: Vec<u64> = path.iter().map(|s| s[0]).collect();
            assert_eq!(path, (0..=9).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_value_never_reached_fails_at_the_initial_state() {
        let c = Counter {
            top: 9,
            down_from: 9,
        };
        let LivenessVerdict::Violated { path, .. } = verdict(&c, 1, 10) else {
            panic!("10 is never reached");
        };
        assert_eq!(path.len(), 1);
    }

    #[test]
    fn a_deadlock_without_p_violates() {
        let c = Counter {
            top: 5,
            down_from: 0,
        };
        let LivenessVerdict::Violated { path, .. } = verdict(&c, 2, 3) else {
            panic!("4 and 5 cannot return to 3");
        };
        assert_eq!(path.last().unwrap()[0], 4);
    }
}
