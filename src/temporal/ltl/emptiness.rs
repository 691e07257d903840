//! Whether a product graph has a fair accepting cycle, and a lasso to one.
//!
//! The graph is implicit ([`Graph`]: its edges are made when asked for) and
//! is searched from its initial states by Tarjan's algorithm (iterative,
//! with one shared stack of pending edges), which closes strongly
//! connected components one by one; each is checked as it closes, and the
//! first fair one ends the search. A component `C` holds a *fair
//! accepting* cycle when a cycle through all of `C` is one, after strong
//! fairness has cut it down, as in the Emerson–Lei / Streett emptiness
//! checks (Emerson and Lei, 1987; Latvala and Heljanko, 2000):
//! - every acceptance set has a state in `C`;
//! - weak fairness `WF(op)`: `op` is disabled in some state of `C`, or an
//!   edge of `op` joins two states of `C` (a cycle through all of `C`
//!   then takes it); otherwise no cycle in `C` is fair;
//! - strong fairness `SF(op)`: `op` is enabled nowhere in `C`, or an edge
//!   of `op` lies in `C`; otherwise the states where such an `op` is
//!   enabled are removed and the components of the rest are checked the
//!   same way.
//!
//! States that no fair accepting cycle passes through (the caller knows
//! them from the automaton: [`Acceptance::on_cycle`]) are only reached:
//! the search neither stacks nor closes them, and with two threads
//! another thread reaches them ([`components_split`]).
//!
//! A component that passes the first test is copied out as an explicit
//! subgraph ([`Local`]) for the others. A fair component yields a lasso: a
//! shortest path from an initial state to its first state (breadth-first,
//! over the whole graph), then a cycle inside it that visits a state of
//! every acceptance set, an `op` edge for every fairness constraint that
//! has one inside, and a state where `op` is disabled for every weak one
//! that has none.

use std::collections::VecDeque;

/// A directed graph with tagged edges whose states are numbered below
/// [`Graph::bound`].
pub trait Graph {
    /// Every state id is below this.
    fn bound(&self) -> usize;
    /// The states searches start from.
    fn initial(&self) -> Vec<u32>;
    /// Appends the edges of `v` to `out`, as (target, tag).
    fn edges(&self, v: u32, out: &mut Vec<(u32, u32)>);
}

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

/// What a search went through: the states and edges it reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Explored {
    /// States reached.
    pub states: u64,
    /// Edges followed.
    pub edges: u64,
}

/// Most states a search can number (one id marks "unseen", one "done").
pub const MAX_STATES: usize = u32::MAX as usize - 2;

/// What the search for a fair accepting cycle is given: the acceptance
/// sets, the fairness constraints, and which states a cycle can pass
/// through.
pub struct Acceptance<'a> {
    /// The mask of every acceptance set.
    pub sets: u64,
    /// The acceptance sets of a state, as a mask over `sets`.
    pub accepting: &'a dyn Fn(u32) -> u64,
    /// The fairness constraints a cycle must meet.
    pub fairness: &'a [FairnessSet<'a>],
    /// False on states no fair accepting cycle passes through, and alike
    /// on the states of each strongly connected component (the product's
    /// states over an automaton component without an accepting cycle:
    /// [`super::buchi::Buchi::cycle_states`]). The search only reaches
    /// them: it neither stacks nor closes them.
    pub on_cycle: &'a (dyn Fn(u32) -> bool + Sync),
}

/// A fair accepting cycle of `graph` reachable from its initial states,
/// as a lasso, if there is one. With `threads > 1`, the states off cycles
/// are reached on a second thread while this one searches the others for
/// components ([`components_split`]); a cycle found that way is searched
/// for again on one thread, so that the lasso, like the verdict, is the
/// same at every thread count.
pub fn fair_lasso<G: Graph + Sync>(
    graph: &G,
    acceptance: &Acceptance<'_>,
    threads: usize,
) -> (Option<Lasso>, Explored) {
    let roots = graph.initial();
    if threads > 1 {
        let mut fair = false;
        let explored = components_split(graph, &roots, acceptance.on_cycle, &mut |c, self_loop| {
            fair = fair_component(graph, acceptance, c, self_loop).is_some();
            fair
        });
        if !fair {
            return (None, explored);
        }
    }
    let mut found = None;
    let explored = components(
        graph,
        &roots,
        &|_| true,
        acceptance.on_cycle,
        &mut |c, self_loop| {
            found = fair_component(graph, acceptance, c, self_loop);
            found.is_some()
        },
    );
    let lasso = found.map(|(local, part)| {
        let a = acceptance;
        lasso(graph, &local, &part, a.sets, a.accepting, a.fairness)
    });
    (lasso, explored)
}

/// The component `c` of `graph` (with whether its root has an edge to
/// itself) copied out with its fair part, if it has one.
fn fair_component<G: Graph>(
    graph: &G,
    acceptance: &Acceptance<'_>,
    c: &[u32],
    self_loop: bool,
) -> Option<(Local, Vec<u32>)> {
    let Acceptance {
        sets,
        accepting,
        fairness,
        ..
    } = *acceptance;
    if c.len() == 1 && !self_loop {
        return None;
    }
    let mask = c.iter().fold(0u64, |m, &v| m | accepting(v));
    if mask & sets != sets {
        return None;
    }
    let local = Local::of(graph, c);
    let all: Vec<u32> = (0..local.nodes.len() as u32).collect();
    let part = fair_part(&local, all, sets, accepting, fairness)?;
    Some((local, part))
}

/// A strongly connected component copied out of a graph: its states
/// (global ids, sorted) numbered by position, and the edges between them.
struct Local {
    nodes: Vec<u32>,
    start: Vec<u32>,
    succ: Vec<(u32, u32)>,
}

impl Local {
    /// The subgraph of `graph` on the states `c`.
    fn of<G: Graph>(graph: &G, c: &[u32]) -> Local {
        let mut nodes = c.to_vec();
        nodes.sort_unstable();
        let mut start = vec![0u32];
        let mut succ = Vec::new();
        let mut buffer = Vec::new();
        for &v in &nodes {
            buffer.clear();
            graph.edges(v, &mut buffer);
            for &(w, tag) in &buffer {
                if let Ok(k) = nodes.binary_search(&w) {
                    succ.push((k as u32, tag));
                }
            }
            start.push(succ.len() as u32);
        }
        Local { nodes, start, succ }
    }

    /// The global id of local state `v`.
    fn global(&self, v: u32) -> u32 {
        self.nodes[v as usize]
    }

    /// The edges of local state `v`.
    fn out(&self, v: u32) -> &[(u32, u32)] {
        &self.succ[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

impl Graph for Local {
    fn bound(&self) -> usize {
        self.nodes.len()
    }

    fn initial(&self) -> Vec<u32> {
        (0..self.nodes.len() as u32).collect()
    }

    fn edges(&self, v: u32, out: &mut Vec<(u32, u32)>) {
        out.extend_from_slice(self.out(v));
    }
}

/// The fair part of the states `c` of `local` (one strongly connected
/// component of the subgraph they make; see the module docs), if any, as
/// local ids.
fn fair_part(
    local: &Local,
    c: Vec<u32>,
    sets: u64,
    accepting: &dyn Fn(u32) -> u64,
    fairness: &[FairnessSet<'_>],
) -> Option<Vec<u32>> {
    let mut member = vec![false; local.nodes.len()];
    for &v in &c {
        member[v as usize] = true;
    }
    let inside_edges = |v: u32| local.out(v).iter().filter(|(w, _)| member[*w as usize]);
    // Trivial components (one state, no self-loop) hold no cycle.
    if c.len() == 1 && !inside_edges(c[0]).any(|&(w, _)| w == c[0]) {
        return None;
    }
    let mask = c.iter().fold(0u64, |m, &v| m | accepting(local.global(v)));
    if mask & sets != sets {
        return None;
    }
    let mut bad = Vec::new();
    for (k, f) in fairness.iter().enumerate() {
        if c.iter()
            .any(|&v| inside_edges(v).any(|&(_, tag)| (f.takes)(tag)))
        {
            continue;
        }
        if f.strong {
            if c.iter().any(|&v| (f.enabled)(local.global(v))) {
                bad.push(k);
            }
        } else if c.iter().all(|&v| (f.enabled)(local.global(v))) {
            return None;
        }
    }
    if bad.is_empty() {
        return Some(c);
    }
    // Remove the states where a strongly fair operation never taken inside
    // is enabled, and check the components of the rest.
    let rest: Vec<u32> = c
        .into_iter()
        .filter(|&v| !bad.iter().any(|&k| (fairness[k].enabled)(local.global(v))))
        .collect();
    let mut keep = vec![false; local.nodes.len()];
    for &v in &rest {
        keep[v as usize] = true;
    }
    let mut parts: Vec<Vec<u32>> = Vec::new();
    components(
        local,
        &rest,
        &|v| keep[v as usize],
        &|_| true,
        &mut |part, _| {
            parts.push(part.to_vec());
            false
        },
    );
    parts
        .into_iter()
        .find_map(|part| fair_part(local, part, sets, accepting, fairness))
}

/// `index` of a state not reached yet.
const UNSEEN: u32 = u32::MAX;
/// `index` of a state whose component has closed, or that lies on no
/// cycle the search looks for.
const DONE: u32 = u32::MAX - 1;

/// Tarjan's search state: per graph state its index and low link, the
/// states of the components not closed yet, and the call stack over one
/// shared stack of pending edges.
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<u32>,
    edges: Vec<(u32, u32)>,
    /// Per call: the state, its next edge in `edges`, the end of its
    /// edges, and whether it has a self-loop.
    calls: Vec<(u32, usize, usize, bool)>,
    counter: u32,
    explored: Explored,
}

impl Tarjan {
    /// A search over states below `n`, none reached yet.
    fn new(n: usize) -> Tarjan {
        assert!(n <= MAX_STATES, "the caller bounds the graph");
        Tarjan {
            index: vec![UNSEEN; n],
            low: vec![0u32; n],
            stack: Vec::new(),
            edges: Vec::new(),
            calls: Vec::new(),
            counter: 0,
            explored: Explored::default(),
        }
    }

    /// Reaches `v`: numbers and stacks it (when it is `on_cycle`; else
    /// marks it done, a component of its own that is never checked), and
    /// calls it.
    fn open<G: Graph>(&mut self, graph: &G, v: u32, on_cycle: bool) {
        if on_cycle {
            self.index[v as usize] = self.counter;
            self.low[v as usize] = self.counter;
            self.counter += 1;
            self.stack.push(v);
        } else {
            self.index[v as usize] = DONE;
        }
        let first = self.edges.len();
        graph.edges(v, &mut self.edges);
        // The search reads each target's index when it comes to the edge:
        // ask for them all now, so that the misses overlap.
        for &(w, _) in &self.edges[first..] {
            workers::prefetch(self.index.as_ptr().wrapping_add(w as usize));
        }
        self.explored.states += 1;
        self.explored.edges += (self.edges.len() - first) as u64;
        self.calls.push((v, first, self.edges.len(), false));
    }

    /// Searches from `root` (unless reached already or not `inside`),
    /// calling `closed` on each component of `on_cycle` states as it
    /// closes; true when `closed` stopped the search. A state off cycles
    /// is searched through here, or, with `hand_off`, given to it (once)
    /// instead.
    fn run<G: Graph>(
        &mut self,
        graph: &G,
        root: u32,
        inside: &dyn Fn(u32) -> bool,
        on_cycle: &dyn Fn(u32) -> bool,
        mut hand_off: Option<&mut dyn FnMut(u32)>,
        closed: &mut dyn FnMut(&[u32], bool) -> bool,
    ) -> bool {
        if self.index[root as usize] != UNSEEN || !inside(root) {
            return false;
        }
        self.open(graph, root, on_cycle(root));
        while let Some(&mut (v, ref mut at, end, ref mut self_loop)) = self.calls.last_mut() {
            if *at < end {
                let (w, _) = self.edges[*at];
                *at += 1;
                if w == v {
                    *self_loop = true;
                    continue;
                }
                if !inside(w) {
                    continue;
                }
                match self.index[w as usize] {
                    UNSEEN => {
                        let cycles = on_cycle(w);
                        match &mut hand_off {
                            Some(hand_off) if !cycles => {
                                self.index[w as usize] = DONE;
                                hand_off(w);
                            }
                            _ => self.open(graph, w, cycles),
                        }
                    }
                    DONE => {}
                    i => {
                        // An edge back into the stack closes a cycle: both
                        // ends are in one component, on cycles alike.
                        debug_assert!(self.index[v as usize] != DONE);
                        self.low[v as usize] = self.low[v as usize].min(i);
                    }
                }
                continue;
            }
            let (_, first, _, self_loop) = self.calls.pop().expect("a call");
            self.edges.truncate(first);
            if self.index[v as usize] == DONE {
                // Off cycles: nothing to close.
                continue;
            }
            if let Some(&(parent, ..)) = self.calls.last() {
                self.low[parent as usize] = self.low[parent as usize].min(self.low[v as usize]);
            }
            if self.low[v as usize] == self.index[v as usize] {
                let from = self
                    .stack
                    .iter()
                    .rposition(|&w| w == v)
                    .expect("v is stacked");
                for &w in &self.stack[from..] {
                    self.index[w as usize] = DONE;
                }
                if closed(&self.stack[from..], self_loop) {
                    return true;
                }
                self.stack.truncate(from);
            }
        }
        false
    }
}

/// Tarjan's algorithm over the states reached from `roots` inside the
/// subgraph that `inside` admits: calls `closed` on each strongly
/// connected component of `on_cycle` states as it closes (with whether its
/// root has an edge to itself) and stops when `closed` says so. What it
/// went through.
fn components<G: Graph>(
    graph: &G,
    roots: &[u32],
    inside: &dyn Fn(u32) -> bool,
    on_cycle: &dyn Fn(u32) -> bool,
    closed: &mut dyn FnMut(&[u32], bool) -> bool,
) -> Explored {
    let mut t = Tarjan::new(graph.bound());
    for &root in roots {
        if t.run(graph, root, inside, on_cycle, None, closed) {
            break;
        }
    }
    t.explored
}

/// States handed from one thread of [`components_split`] to the other,
/// or the end of the search.
enum Work {
    States(Vec<u32>),
    Stop,
}

/// States handed over at once.
const BATCH: usize = 1024;

/// [`components`] on two threads: this one runs Tarjan's algorithm over
/// the states on cycles, another reaches the states off cycles (no
/// component to find there: a depth-first search with one bit per state).
/// Each hands the states it meets that are the other's to it, in batches;
/// a count of the batches sent and not yet searched through ends the
/// search when it drops to zero (a batch is counted before it is sent and
/// uncounted after all it led to was sent, so zero means no work is left
/// anywhere). The components found, and what was explored when `closed`
/// never stops the search, are [`components`]'s.
fn components_split<G: Graph + Sync>(
    graph: &G,
    roots: &[u32],
    on_cycle: &(dyn Fn(u32) -> bool + Sync),
    closed: &mut dyn FnMut(&[u32], bool) -> bool,
) -> Explored {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
    use std::sync::mpsc::{Sender, channel};
    let (to_reach, reach_inbox) = channel::<Work>();
    let (to_search, search_inbox) = channel::<Work>();
    let pending = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let send = |to: &Sender<Work>, batch: Vec<u32>| {
        if !batch.is_empty() {
            pending.fetch_add(1, SeqCst);
            // The other side only stops when told or when nothing is
            // pending, after this batch: it still listens.
            let _ = to.send(Work::States(batch));
        }
    };
    let (cycling, off): (Vec<u32>, Vec<u32>) = roots.iter().partition(|&&r| on_cycle(r));
    send(&to_search, cycling);
    send(&to_reach, off);
    if pending.load(SeqCst) == 0 {
        return Explored::default();
    }
    // Uncounts a batch searched through; at zero, tells the other side.
    let done_with = |batch_end: &Sender<Work>| -> bool {
        let last = pending.fetch_sub(1, SeqCst) == 1;
        if last {
            let _ = batch_end.send(Work::Stop);
        }
        last
    };
    let (send, done_with, stop) = (&send, &done_with, &stop);
    std::thread::scope(|scope| {
        let to_search = &to_search;
        let reach = scope.spawn(move || {
            let mut seen = vec![0u64; graph.bound().div_ceil(64)];
            // Marks `v` reached; whether it was not before.
            let mut mark = |v: u32| {
                let (word, bit) = (v as usize / 64, 1u64 << (v % 64));
                let new = seen[word] & bit == 0;
                seen[word] |= bit;
                new
            };
            let mut explored = Explored::default();
            let (mut handed, mut stack, mut edges) = (Vec::new(), Vec::new(), Vec::new());
            'work: while let Ok(Work::States(batch)) = reach_inbox.recv() {
                for root in batch {
                    if mark(root) {
                        stack.push(root);
                    }
                    while let Some(v) = stack.pop() {
                        explored.states += 1;
                        edges.clear();
                        graph.edges(v, &mut edges);
                        explored.edges += edges.len() as u64;
                        for &(w, _) in &edges {
                            if !mark(w) {
                                continue;
                            }
                            if on_cycle(w) {
                                handed.push(w);
                                if handed.len() >= BATCH {
                                    send(to_search, std::mem::take(&mut handed));
                                }
                            } else {
                                stack.push(w);
                            }
                        }
                        if explored.states % 4096 == 0 && stop.load(SeqCst) {
                            break 'work;
                        }
                    }
                }
                send(to_search, std::mem::take(&mut handed));
                if done_with(to_search) {
                    break;
                }
            }
            explored
        });
        let mut t = Tarjan::new(graph.bound());
        let mut handed = Vec::new();
        while let Ok(Work::States(batch)) = search_inbox.recv() {
            let mut hand_off = |w: u32| {
                handed.push(w);
                if handed.len() >= BATCH {
                    send(&to_reach, std::mem::take(&mut handed));
                }
            };
            let mut stopped = false;
            for root in batch {
                if t.run(
                    graph,
                    root,
                    &|_| true,
                    on_cycle,
                    Some(&mut hand_off),
                    closed,
                ) {
                    stopped = true;
                    break;
                }
            }
            if stopped {
                stop.store(true, SeqCst);
                let _ = to_reach.send(Work::Stop);
                break;
            }
            send(&to_reach, std::mem::take(&mut handed));
            if done_with(&to_reach) {
                break;
            }
        }
        let reached = reach.join().expect("the reaching thread does not panic");
        Explored {
            states: t.explored.states + reached.states,
            edges: t.explored.edges + reached.edges,
        }
    })
}

/// The lasso through the fair states `part` of `local` (see the module
/// docs), in `graph`'s ids.
fn lasso<G: Graph>(
    graph: &G,
    local: &Local,
    part: &[u32],
    sets: u64,
    accepting: &dyn Fn(u32) -> u64,
    fairness: &[FairnessSet<'_>],
) -> Lasso {
    let mut member = vec![false; local.nodes.len()];
    for &v in part {
        member[v as usize] = true;
    }
    let inside_edges = |v: u32| local.out(v).iter().filter(|(w, _)| member[*w as usize]);
    let start = part[0];
    let (stem, stem_tags) = shortest_path(graph, local.global(start));
    let mut states = Vec::new();
    let mut tags = Vec::new();
    let cycle_start = stem.len() - 1;
    // The targets the cycle visits: states, or edges (source, target, tag).
    enum Target {
        State(u32),
        Edge(u32, u32, u32),
    }
    let mut targets = Vec::new();
    for k in 0..64 {
        if sets >> k & 1 == 1
            && let Some(&v) = part
                .iter()
                .find(|&&v| accepting(local.global(v)) >> k & 1 == 1)
        {
            targets.push(Target::State(v));
        }
    }
    for f in fairness {
        let edge = part.iter().find_map(|&v| {
            inside_edges(v)
                .find(|&&(_, tag)| (f.takes)(tag))
                .map(|&(w, tag)| (v, w, tag))
        });
        match edge {
            Some((v, w, tag)) => targets.push(Target::Edge(v, w, tag)),
            None => {
                if let Some(&v) = part.iter().find(|&&v| !(f.enabled)(local.global(v))) {
                    targets.push(Target::State(v));
                }
            }
        }
    }
    let mut at = start;
    let walk = |from: u32, to: u32, states: &mut Vec<u32>, tags: &mut Vec<u32>| {
        for (v, tag) in path_within(local, &member, from, to) {
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
    if states.is_empty() {
        let &(w, tag) = inside_edges(start)
            .next()
            .expect("a component with a cycle has an edge inside");
        states.push(w);
        tags.push(tag);
        at = w;
    }
    walk(at, start, &mut states, &mut tags);
    // The last state is `start` again: close the cycle on the state before.
    let closing_tag = tags.pop().expect("a cycle of at least one step");
    states.pop();
    let mut all = stem;
    all.extend(states.into_iter().map(|v| local.global(v)));
    let mut all_tags = stem_tags;
    all_tags.extend(tags);
    Lasso {
        states: all,
        tags: all_tags,
        cycle_start,
        closing_tag,
    }
}

/// A shortest path in `graph` from an initial state to `to`, as states and
/// the tags of the edges into them (`tags[0]` unused).
fn shortest_path<G: Graph>(graph: &G, to: u32) -> (Vec<u32>, Vec<u32>) {
    const NONE: u32 = u32::MAX;
    let mut parent = vec![(NONE, 0u32); graph.bound()];
    let mut queue = VecDeque::new();
    let mut reached = vec![false; graph.bound()];
    for v in graph.initial() {
        if !reached[v as usize] {
            reached[v as usize] = true;
            queue.push_back(v);
        }
    }
    let mut buffer = Vec::new();
    while let Some(v) = queue.pop_front() {
        if v == to {
            break;
        }
        buffer.clear();
        graph.edges(v, &mut buffer);
        for &(w, tag) in &buffer {
            if !reached[w as usize] {
                reached[w as usize] = true;
                parent[w as usize] = (v, tag);
                queue.push_back(w);
            }
        }
    }
    assert!(
        reached[to as usize],
        "the component was reached from an initial state"
    );
    let mut states = vec![to];
    let mut tags = Vec::new();
    let mut at = to;
    while parent[at as usize].0 != NONE {
        let (p, tag) = parent[at as usize];
        tags.push(tag);
        states.push(p);
        at = p;
    }
    tags.push(0);
    states.reverse();
    tags.reverse();
    (states, tags)
}

/// A shortest path from `from` to `to` through the `member` states of
/// `local`, without `from`: each state with the tag of the edge into it
/// (empty when they are the same state).
fn path_within(local: &Local, member: &[bool], from: u32, to: u32) -> Vec<(u32, u32)> {
    if from == to {
        return Vec::new();
    }
    const NONE: u32 = u32::MAX;
    let mut parent = vec![(NONE, 0u32); local.nodes.len()];
    let mut queue = VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        for &(w, tag) in local.out(v) {
            if !member[w as usize] || w == from || parent[w as usize].0 != NONE {
                continue;
            }
            parent[w as usize] = (v, tag);
            if w == to {
                let mut path = vec![(w, tag)];
                let mut at = v;
                while at != from {
                    let (p, t) = parent[at as usize];
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An explicit graph for the tests: edges as (source, target, tag).
    struct Edges {
        n: usize,
        initial: Vec<u32>,
        edges: Vec<(u32, u32, u32)>,
    }

    impl Graph for Edges {
        fn bound(&self) -> usize {
            self.n
        }
        fn initial(&self) -> Vec<u32> {
            self.initial.clone()
        }
        fn edges(&self, v: u32, out: &mut Vec<(u32, u32)>) {
            out.extend(
                self.edges
                    .iter()
                    .filter(|e| e.0 == v)
                    .map(|&(_, w, t)| (w, t)),
            );
        }
    }

    /// [`fair_lasso`] on one thread, every state on cycles.
    fn search(
        g: &Edges,
        accepting: &dyn Fn(u32) -> u64,
        fairness: &[FairnessSet<'_>],
    ) -> (Option<Lasso>, Explored) {
        let acceptance = Acceptance {
            sets: 1,
            accepting,
            fairness,
            on_cycle: &|_| true,
        };
        fair_lasso(g, &acceptance, 1)
    }

    /// Whether `lasso` is a path of `g` from an initial state that closes.
    fn is_lasso(g: &Edges, lasso: &Lasso) -> bool {
        let step = |a: u32, b: u32, t: u32| g.edges.contains(&(a, b, t));
        g.initial.contains(&lasso.states[0])
            && (1..lasso.states.len())
                .all(|i| step(lasso.states[i - 1], lasso.states[i], lasso.tags[i]))
            && step(
                *lasso.states.last().unwrap(),
                lasso.states[lasso.cycle_start],
                lasso.closing_tag,
            )
    }

    #[test]
    fn finds_only_reachable_accepting_cycles() {
        // 0 -> 1 -> 2 -> 1; 3 <-> 3 unreachable and accepting.
        let g = Edges {
            n: 4,
            initial: vec![0],
            edges: vec![(0, 1, 7), (1, 2, 8), (2, 1, 9), (3, 3, 1)],
        };
        let acc_cycle = |v: u32| u64::from(v == 2);
        let (lasso, explored) = search(&g, &acc_cycle, &[]);
        let lasso = lasso.expect("0 1 2 1 ... is accepting");
        assert!(is_lasso(&g, &lasso));
        assert_eq!(lasso.states[..2], [0, 1]);
        assert_eq!(explored.states, 3);
        let only_unreachable = |v: u32| u64::from(v == 3 || v == 0);
        assert_eq!(search(&g, &only_unreachable, &[]).0, None);
    }

    /// On random graphs whose states lie in layers (edges never go to an
    /// earlier layer, so every cycle stays in one), with the layers without
    /// accepting states off cycles: the search with and without the
    /// layers, on one and two threads, finds the same verdict and explores
    /// the same when there is no cycle to find; the lasso is the same on
    /// both thread counts and closes in the graph.
    #[test]
    fn off_cycle_states_change_no_verdict_on_any_thread_count() {
        let mut seed = 0x5eed_u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let mut verdicts = [0, 0];
        for round in 0..300 {
            let n = 2 + next(40) as usize;
            let layers = 1 + next(4) as u32;
            let layer: Vec<u32> = (0..n).map(|_| next(u64::from(layers)) as u32).collect();
            let mut edges = Vec::new();
            for _ in 0..n * (1 + next(3) as usize) {
                let (a, b) = (next(n as u64) as u32, next(n as u64) as u32);
                if layer[b as usize] >= layer[a as usize] {
                    edges.push((a, b, next(3) as u32));
                }
            }
            let accepting_layer: Vec<bool> = (0..layers).map(|_| next(2) == 0).collect();
            let marks: Vec<u64> = (0..n)
                .map(|v| u64::from(accepting_layer[layer[v] as usize] && next(3) == 0))
                .collect();
            let g = Edges {
                n,
                initial: vec![0, next(n as u64) as u32],
                edges,
            };
            let accepting = |v: u32| marks[v as usize];
            let on_cycle = |v: u32| accepting_layer[layer[v as usize] as usize];
            let every = Acceptance {
                sets: 1,
                accepting: &accepting,
                fairness: &[],
                on_cycle: &|_| true,
            };
            let split = Acceptance {
                on_cycle: &on_cycle,
                ..every
            };
            let (plain, plain_explored) = fair_lasso(&g, &every, 1);
            let (one, one_explored) = fair_lasso(&g, &split, 1);
            let (two, two_explored) = fair_lasso(&g, &split, 2);
            assert_eq!(plain.is_some(), one.is_some(), "round {round}");
            assert_eq!(one, two, "round {round}");
            assert_eq!(one_explored, two_explored, "round {round}");
            if plain.is_none() {
                assert_eq!(plain_explored, one_explored, "round {round}");
            }
            if let Some(lasso) = &one {
                assert!(is_lasso(&g, lasso), "round {round}");
                let cycle = &lasso.states[lasso.cycle_start..];
                assert!(cycle.iter().any(|&v| accepting(v) == 1), "round {round}");
            }
            verdicts[usize::from(one.is_some())] += 1;
        }
        // Both verdicts are drawn often.
        assert!(verdicts.iter().all(|&k| k > 50), "{verdicts:?}");
    }

    #[test]
    fn self_loops_make_cycles_and_single_states_do_not() {
        let g = Edges {
            n: 2,
            initial: vec![0],
            edges: vec![(0, 1, 0)],
        };
        assert_eq!(search(&g, &|_| 1, &[]).0, None);
        let g = Edges {
            n: 2,
            initial: vec![0],
            edges: vec![(0, 1, 0), (1, 1, 5)],
        };
        let lasso = search(&g, &|v| u64::from(v == 1), &[]).0.unwrap();
        assert!(is_lasso(&g, &lasso));
        assert_eq!((lasso.cycle_start, lasso.closing_tag), (1, 5));
    }

    #[test]
    fn strong_fairness_cuts_components_down() {
        // 0 <-> 1 with tag 1 from 0 to 1, tag 2 back; 1 has a self-loop
        // (tag 3). Operation 2 is enabled in 1 only. Under SF(op 2), the
        // cycle 0 1 0 takes op 2; the self-loop at 1 alone is unfair (op 2
        // enabled, never taken).
        let g = Edges {
            n: 2,
            initial: vec![0],
            edges: vec![(0, 1, 1), (1, 0, 2), (1, 1, 3)],
        };
        let sf = |strong| FairnessSet {
            strong,
            takes: Box::new(|t| t == 2),
            enabled: Box::new(|v| v == 1),
        };
        // Acceptance at 1 only: the fair cycles through 1 take op 2.
        let lasso = search(&g, &|v| u64::from(v == 1), &[sf(true)]).0.unwrap();
        assert!(is_lasso(&g, &lasso));
        assert!(lasso.tags.contains(&2) || lasso.closing_tag == 2);
        // Without the edge back, the self-loop at 1 is unfair under SF and
        // WF alike.
        let g = Edges {
            n: 2,
            initial: vec![0],
            edges: vec![(0, 1, 1), (1, 1, 3)],
        };
        let sf_never = |strong| FairnessSet {
            strong,
            takes: Box::new(|t| t == 2),
            enabled: Box::new(|v| v == 1),
        };
        assert_eq!(search(&g, &|_| 1, &[sf_never(true)]).0, None);
        assert_eq!(search(&g, &|_| 1, &[sf_never(false)]).0, None);
    }
}
