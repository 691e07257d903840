//! Whether a product graph has a fair accepting cycle, and a lasso to one.
//!
//! The graph's strongly connected components are found by Tarjan's
//! algorithm (iterative). A component `C` holds a *fair accepting* cycle
//! when a cycle through all of `C` is one, after strong fairness has cut
//! it down, as in the Emerson–Lei / Streett emptiness checks (Emerson and
//! Lei, 1987; Latvala and Heljanko, 2000):
//! - every acceptance set has a state in `C`;
//! - weak fairness `WF(op)`: `op` is disabled in some state of `C`, or an
//!   edge of `op` joins two states of `C` (a cycle through all of `C`
//!   then takes it); otherwise no cycle in `C` is fair;
//! - strong fairness `SF(op)`: `op` is enabled nowhere in `C`, or an edge
//!   of `op` lies in `C`; otherwise the states where such an `op` is
//!   enabled are removed and the components of the rest are checked the
//!   same way.
//!
//! A fair component yields a lasso: a shortest path (the graph's
//! breadth-first parents) to its first state, then a cycle inside it that
//! visits a state of every acceptance set, an `op` edge for every fairness
//! constraint that has one inside, and a state where `op` is disabled for
//! every weak one that has none.

use crate::temporal::graph::StateGraph;
use std::collections::VecDeque;

/// A fairness constraint over edge tags: the tags that take its
/// operation, whether it is strong, and whether its operation is enabled
/// in a state (by state id).
pub struct FairnessSet<'a> {
    /// Whether the constraint is strong fairness (else weak).
    pub strong: bool,
    /// Whether an edge with this tag takes the constraint's operation.
    pub takes: Box<dyn Fn(u32) -> bool + 'a>,
    /// Whether the operation is enabled in a state.
    pub enabled: Box<dyn Fn(u32) -> bool + 'a>,
}

/// A lasso in the graph: `states[..]` a path from an initial state, the
/// last state has an edge to `states[cycle_start]`; `tags[i]` is the tag of
/// the edge into `states[i]` (`tags[0]` unused), and `closing_tag` the tag
/// of the edge back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    /// The states, initial first.
    pub states: Vec<u32>,
    /// The tags of the edges into them.
    pub tags: Vec<u32>,
    /// Where the cycle starts.
    pub cycle_start: usize,
    /// The tag of the edge from the last state back to the cycle's start.
    pub closing_tag: u32,
}

/// A fair accepting cycle of `graph`, as a lasso, if there is one;
/// `accepting(v)` gives the acceptance sets of `v` as a mask over `sets`
/// sets.
pub fn fair_lasso(
    graph: &StateGraph,
    sets: u64,
    accepting: &dyn Fn(u32) -> u64,
    fairness: &[FairnessSet<'_>],
) -> Option<Lasso> {
    let n = graph.len();
    let mut member = vec![u32::MAX; n];
    let all: Vec<u32> = (0..n as u32).collect();
    let mut generation = 0u32;
    let components = components(graph, &all, &|_| true);
    for c in components {
        if let Some(fair) = fair_part(
            graph,
            c,
            sets,
            accepting,
            fairness,
            &mut member,
            &mut generation,
        ) {
            return Some(lasso(graph, &fair, sets, accepting, fairness));
        }
    }
    None
}

/// The fair part of component `c` (see the module docs), if any.
fn fair_part(
    graph: &StateGraph,
    c: Vec<u32>,
    sets: u64,
    accepting: &dyn Fn(u32) -> u64,
    fairness: &[FairnessSet<'_>],
    member: &mut Vec<u32>,
    generation: &mut u32,
) -> Option<Vec<u32>> {
    *generation += 1;
    let gen_ = *generation;
    for &v in &c {
        member[v as usize] = gen_;
    }
    let inside = |v: u32, member: &Vec<u32>| member[v as usize] == gen_;
    // Trivial components (one state, no self-loop) hold no cycle.
    if c.len() == 1 && !graph.successors(c[0]).contains(&c[0]) {
        return None;
    }
    let mask = c.iter().fold(0u64, |m, &v| m | accepting(v));
    if mask & sets != sets {
        return None;
    }
    let mut bad = Vec::new();
    for (k, f) in fairness.iter().enumerate() {
        let taken = c.iter().any(|&v| {
            graph
                .edges_of(v)
                .any(|(w, tag)| inside(w, member) && (f.takes)(tag))
        });
        if taken {
            continue;
        }
        if f.strong {
            if c.iter().any(|&v| (f.enabled)(v)) {
                bad.push(k);
            }
        } else if c.iter().all(|&v| (f.enabled)(v)) {
            return None;
        }
    }
    if bad.is_empty() {
        return Some(c);
    }
    let rest: Vec<u32> = c
        .into_iter()
        .filter(|&v| !bad.iter().any(|&k| (fairness[k].enabled)(v)))
        .collect();
    let within = {
        let member = member.clone();
        move |v: u32| member[v as usize] == gen_
    };
    // The removed states leave the set: rebuild the membership of `rest`.
    let keep: std::collections::HashSet<u32> = rest.iter().copied().collect();
    let parts = components(graph, &rest, &|v| within(v) && keep.contains(&v));
    for part in parts {
        if let Some(fair) = fair_part(graph, part, sets, accepting, fairness, member, generation) {
            return Some(fair);
        }
    }
    None
}

/// The strongly connected components of the subgraph of the states in
/// `roots`' reach that `inside` admits, by Tarjan's algorithm with an
/// explicit stack; components come in the order Tarjan closes them.
fn components(graph: &StateGraph, roots: &[u32], inside: &dyn Fn(u32) -> bool) -> Vec<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    let n = graph.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0u32;
    // Call stack: (state, next edge position).
    let mut calls: Vec<(u32, usize)> = Vec::new();
    for &root in roots {
        if index[root as usize] != UNSEEN || !inside(root) {
            continue;
        }
        calls.push((root, 0));
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut at)) = calls.last_mut() {
            let succ = graph.successors(v);
            if *at < succ.len() {
                let w = succ[*at];
                *at += 1;
                if !inside(w) {
                    continue;
                }
                if index[w as usize] == UNSEEN {
                    index[w as usize] = counter;
                    low[w as usize] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    calls.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let mut c = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    c.push(w);
                    if w == v {
                        break;
                    }
                }
                c.sort_unstable();
                out.push(c);
            }
        }
    }
    out
}

/// The lasso through the fair set `c` (see the module docs).
fn lasso(
    graph: &StateGraph,
    c: &[u32],
    sets: u64,
    accepting: &dyn Fn(u32) -> u64,
    fairness: &[FairnessSet<'_>],
) -> Lasso {
    let set: std::collections::HashSet<u32> = c.iter().copied().collect();
    let start = c[0];
    let stem = graph.path_to(start);
    let mut states = stem.clone();
    let mut tags = vec![0u32; states.len()];
    // The tags along the stem, from the edges the parents took.
    for i in 1..states.len() {
        tags[i] = graph
            .edges_of(states[i - 1])
            .find(|&(w, _)| w == states[i])
            .map_or(0, |(_, t)| t);
    }
    let cycle_start = states.len() - 1;
    // The targets the cycle visits: states, or edges (source, target, tag).
    enum Target {
        State(u32),
        Edge(u32, u32, u32),
    }
    let mut targets = Vec::new();
    for k in 0..64 {
        if sets >> k & 1 == 1
            && let Some(&v) = c.iter().find(|&&v| accepting(v) >> k & 1 == 1)
        {
            targets.push(Target::State(v));
        }
    }
    for f in fairness {
        let edge = c.iter().find_map(|&v| {
            graph
                .edges_of(v)
                .find(|&(w, tag)| set.contains(&w) && (f.takes)(tag))
                .map(|(w, tag)| (v, w, tag))
        });
        match edge {
            Some((v, w, tag)) => targets.push(Target::Edge(v, w, tag)),
            None => {
                if let Some(&v) = c.iter().find(|&&v| !(f.enabled)(v)) {
                    targets.push(Target::State(v));
                }
            }
        }
    }
    let mut at = start;
    let walk = |from: u32, to: u32, states: &mut Vec<u32>, tags: &mut Vec<u32>| {
        for (v, tag) in path_within(graph, &set, from, to) {
            states.push(v);
            tags.push(tag);
        }
    };
    for t in &targets {
        match *t {
            Target::State(v) => {
                walk(at, v, &mut states, &mut tags);
                at = v;
            }
            Target::Edge(v, w, tag) => {
                walk(at, v, &mut states, &mut tags);
                states.push(w);
                tags.push(tag);
                at = w;
            }
        }
    }
    // Back to the start, by at least one step.
    if states.len() - 1 == cycle_start {
        let (w, tag) = graph
            .edges_of(start)
            .find(|(w, _)| set.contains(w))
            .expect("a component with a cycle has an edge inside");
        states.push(w);
        tags.push(tag);
        at = w;
    }
    walk(at, start, &mut states, &mut tags);
    // The last state is `start` again: close the cycle on the state before.
    let closing_tag = tags.pop().expect("a cycle of at least one step");
    states.pop();
    Lasso {
        states,
        tags,
        cycle_start,
        closing_tag,
    }
}

/// A shortest path from `from` to `to` inside `set`, without `from`:
/// each state with the tag of the edge into it (empty when they are the
/// same state).
fn path_within(
    graph: &StateGraph,
    set: &std::collections::HashSet<u32>,
    from: u32,
    to: u32,
) -> Vec<(u32, u32)> {
    if from == to {
        return Vec::new();
    }
    let mut parent: std::collections::HashMap<u32, (u32, u32)> = std::collections::HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        for (w, tag) in graph.edges_of(v) {
            if !set.contains(&w) || w == from || parent.contains_key(&w) {
                continue;
            }
            parent.insert(w, (v, tag));
            if w == to {
                let mut path = vec![(w, tag)];
                let mut at = v;
                while at != from {
                    let (p, t) = parent[&at];
                    path.push((at, t));
                    at = p;
                }
                path.reverse();
                return path;
            }
            queue.push_back(w);
        }
    }
    unreachable!("states of one component reach each other")
}
