//! An explicit state graph: every reachable state of a
//! [`TransitionSystem`] numbered in breadth-first order, its successor
//! edges, the breadth-first parent of each state (shortest paths back to
//! an initial state) and a few bits of labels per state.
//!
//! What the temporal checks need that the safety engine does not keep:
//! the edges. The graph is built level by level; the states of a level are
//! expanded in chunks by every thread (successor generation and the
//! symmetry layer's canonical labelling are the costly part), then the
//! chunks' successors are numbered in chunk order by one thread. The
//! numbering, the edges and the parents are therefore the same at every
//! thread count, and so are the counterexamples.

use crate::temporal::TemporalError;
use std::sync::atomic::{AtomicUsize, Ordering};
use workers::{ModelError, StopReason, TransitionSystem};

/// States expanded by one thread between two claims of work.
const CHUNK: usize = 64;

/// Most states a graph can number (ids are `u32`, one value is "none").
pub const MAX_STATES: usize = u32::MAX as usize - 1;

/// "No parent": the parent of an initial state.
pub const NO_PARENT: u32 = u32::MAX;

/// The reachable part of a system as an explicit graph (see the module
/// docs).
pub struct StateGraph {
    width: usize,
    /// `width` words per state, in id order.
    states: Vec<u64>,
    /// `succ[succ_start[v] .. succ_start[v + 1]]` are the successors of `v`
    /// (duplicates kept, in the system's order).
    succ_start: Vec<u64>,
    succ: Vec<u32>,
    /// With a tagged system: `tag_words` words of tag per edge, beside
    /// `succ`.
    tags: Vec<u64>,
    tag_words: usize,
    /// The breadth-first parent of each state ([`NO_PARENT`] for an
    /// initial state).
    parent: Vec<u32>,
    /// `label_words` words of label bits per state.
    labels: Vec<u64>,
    label_words: usize,
}

/// Open addressing from a state's words to its id.
struct Index {
    /// `id + 1` per slot, 0 when empty.
    slots: Vec<u32>,
    mask: usize,
}

impl Index {
    fn new() -> Self {
        Index {
            slots: vec![0; 1024],
            mask: 1023,
        }
    }

    /// The id of `words` if `states` holds it, else where to put it.
    fn find(&self, states: &[u64], width: usize, words: &[u64]) -> Result<u32, usize> {
        let mut at = workers::fingerprint(words) as usize & self.mask;
        loop {
            match self.slots[at] {
                0 => return Err(at),
                k => {
                    let id = (k - 1) as usize;
                    if &states[id * width..(id + 1) * width] == words {
                        return Ok(id as u32);
                    }
                }
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Doubles the table when it is half full (before an insertion).
    fn grow_if_needed(&mut self, states: &[u64], width: usize, count: usize) {
        if 2 * (count + 1) <= self.slots.len() {
            return;
        }
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        self.mask = size - 1;
        for id in 0..count {
            let words = &states[id * width..(id + 1) * width];
            let mut at = workers::fingerprint(words) as usize & self.mask;
            while self.slots[at] != 0 {
                at = (at + 1) & self.mask;
            }
            self.slots[at] = id as u32 + 1;
        }
    }
}

/// What one thread made of a chunk of a level: per state, its labels and
/// how many successors it has; the successors' words one after the other.
#[derive(Default)]
struct ChunkOut {
    first: usize,
    counts: Vec<u32>,
    successors: Vec<u64>,
    labels: Vec<u64>,
}

impl StateGraph {
    /// Builds the graph of `system` with `threads` threads; `label` writes
    /// `label_words` words of label bits for each state (called once per
    /// state, on the thread that expands it, right after the state's
    /// successors with the same scratch, so that it may read what the
    /// expansion left there). With `tag_words > 0`, every successor the
    /// system emits carries that many more words after its
    /// `state_width()` words: the edge's tag ([`StateGraph::edges_of`],
    /// [`StateGraph::edge_tags`]), not part of the state.
    pub fn build<T, L>(
        system: &T,
        threads: usize,
        label_words: usize,
        tag_words: usize,
        label: L,
    ) -> Result<StateGraph, TemporalError>
    where
        T: TransitionSystem,
        L: Fn(&mut T::Scratch, &[u64], &mut [u64]) -> Result<(), ModelError> + Sync,
    {
        let width = system.state_width();
        let mut graph = StateGraph {
            width,
            states: Vec::new(),
            succ_start: vec![0],
            succ: Vec::new(),
            tags: Vec::new(),
            tag_words,
            parent: Vec::new(),
            labels: Vec::new(),
            label_words,
        };
        let mut index = Index::new();
        let mut scratches: Vec<T::Scratch> =
            (0..threads.max(1)).map(|_| system.new_scratch()).collect();
        let mut initial: Vec<Box<[u64]>> = Vec::new();
        system.initial_states(&mut scratches[0], &mut |s| initial.push(s.into()))?;
        for s in &initial {
            graph.add(&mut index, s, NO_PARENT)?;
        }
        drop(initial);
        let emitted = width + tag_words;
        let mut level = 0..graph.len();
        while !level.is_empty() {
            let outs = expand_level(system, &graph, level.clone(), &mut scratches, &label)?;
            for out in outs {
                let mut at = 0;
                for (k, &count) in out.counts.iter().enumerate() {
                    let v = out.first + k;
                    for _ in 0..count {
                        let s = &out.successors[at..at + width];
                        graph
                            .tags
                            .extend_from_slice(&out.successors[at + width..at + emitted]);
                        at += emitted;
                        let id = graph.add(&mut index, s, v as u32)?;
                        graph.succ.push(id);
                    }
                    graph.succ_start.push(graph.succ.len() as u64);
                }
                graph.labels.extend_from_slice(&out.labels);
            }
            if let Some(reason) = workers::budget::tripped() {
                return Err(TemporalError::Stopped(reason));
            }
            level = level.end..graph.len();
        }
        Ok(graph)
    }

    /// The id of `s`, adding it (with `parent`) if new.
    fn add(&mut self, index: &mut Index, s: &[u64], parent: u32) -> Result<u32, TemporalError> {
        match index.find(&self.states, self.width, s) {
            Ok(id) => Ok(id),
            Err(_) => {
                let id = self.len();
                if id >= MAX_STATES {
                    return Err(TemporalError::Stopped(StopReason::StoreFull));
                }
                index.grow_if_needed(&self.states, self.width, id);
                let Err(at) = index.find(&self.states, self.width, s) else {
                    unreachable!("the state was not there before the table grew")
                };
                index.slots[at] = id as u32 + 1;
                self.states.extend_from_slice(s);
                self.parent.push(parent);
                Ok(id as u32)
            }
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether the graph has no state.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Number of edges (duplicates included).
    pub fn edges(&self) -> usize {
        self.succ.len()
    }

    /// The words of state `v`.
    pub fn state(&self, v: u32) -> &[u64] {
        let v = v as usize;
        &self.states[v * self.width..(v + 1) * self.width]
    }

    /// The successors of `v`.
    pub fn successors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.succ[self.succ_start[v] as usize..self.succ_start[v + 1] as usize]
    }

    /// The edges of `v`: (successor, the tag's first word as `u32`; 0 for
    /// an untagged graph).
    pub fn edges_of(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.edge_tags(v)
            .map(|(w, tag)| (w, tag.first().map_or(0, |&t| t as u32)))
    }

    /// The edges of `v` with their whole tags.
    pub fn edge_tags(&self, v: u32) -> impl Iterator<Item = (u32, &[u64])> + '_ {
        let v = v as usize;
        let range = self.succ_start[v] as usize..self.succ_start[v + 1] as usize;
        let k = self.tag_words;
        range.map(move |e| (self.succ[e], &self.tags[e * k..(e + 1) * k]))
    }

    /// The label words of `v`.
    pub fn labels(&self, v: u32) -> &[u64] {
        let v = v as usize;
        &self.labels[v * self.label_words..(v + 1) * self.label_words]
    }

    /// Whether label bit `bit` of `v` is set.
    pub fn label(&self, v: u32, bit: usize) -> bool {
        self.labels(v)[bit / 64] >> (bit % 64) & 1 == 1
    }

    /// The breadth-first parent of `v`, `None` for an initial state.
    pub fn parent(&self, v: u32) -> Option<u32> {
        let p = self.parent[v as usize];
        (p != NO_PARENT).then_some(p)
    }

    /// A shortest path from an initial state to `v`, as state ids.
    pub fn path_to(&self, v: u32) -> Vec<u32> {
        let mut path = vec![v];
        let mut at = v;
        while let Some(p) = self.parent(at) {
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    /// The predecessors of every state, as `(start, preds)`:
    /// `preds[start[v] .. start[v + 1]]` are the states with an edge to `v`.
    pub fn predecessors(&self) -> (Vec<u64>, Vec<u32>) {
        let n = self.len();
        let mut start = vec![0u64; n + 1];
        for &w in &self.succ {
            start[w as usize + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill: Vec<u64> = start[..n].to_vec();
        let mut preds = vec![0u32; self.succ.len()];
        for v in 0..n as u32 {
            for &w in self.successors(v) {
                preds[fill[w as usize] as usize] = v;
                fill[w as usize] += 1;
            }
        }
        (start, preds)
    }

    /// Bytes the graph takes (states, edges, parents, labels).
    pub fn bytes(&self) -> u64 {
        (self.states.capacity() * 8
            + self.succ_start.capacity() * 8
            + self.succ.capacity() * 4
            + self.tags.capacity() * 8
            + self.parent.capacity() * 4
            + self.labels.capacity() * 8) as u64
    }
}

/// Expands the states `level` of `graph`, in chunks claimed by every
/// scratch's thread; the chunks in order.
fn expand_level<T, L>(
    system: &T,
    graph: &StateGraph,
    level: std::ops::Range<usize>,
    scratches: &mut [T::Scratch],
    label: &L,
) -> Result<Vec<ChunkOut>, TemporalError>
where
    T: TransitionSystem,
    L: Fn(&mut T::Scratch, &[u64], &mut [u64]) -> Result<(), ModelError> + Sync,
{
    let chunks = level.len().div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    let work = |scratch: &mut T::Scratch| -> Result<Vec<(usize, ChunkOut)>, TemporalError> {
        let mut done = Vec::new();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks {
                return Ok(done);
            }
            if let Some(reason) = workers::budget::tripped() {
                return Err(TemporalError::Stopped(reason));
            }
            let first = level.start + c * CHUNK;
            let last = (first + CHUNK).min(level.end);
            let mut out = ChunkOut {
                first,
                ..ChunkOut::default()
            };
            for v in first..last {
                let state = graph.state(v as u32);
                let mut count = 0u32;
                system.successors(scratch, state, &mut |s| {
                    out.successors.extend_from_slice(s);
                    count += 1;
                })?;
                out.counts.push(count);
                let at = out.labels.len();
                out.labels.resize(at + graph.label_words, 0);
                label(scratch, state, &mut out.labels[at..])?;
            }
            done.push((c, out));
        }
    };
    let mut results: Vec<(usize, ChunkOut)> = Vec::with_capacity(chunks);
    if scratches.len() == 1 || chunks == 1 {
        results = work(&mut scratches[0])?;
    } else {
        let budget = workers::budget::current();
        let parts: Vec<Result<Vec<(usize, ChunkOut)>, TemporalError>> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = scratches
                    .iter_mut()
                    .map(|scratch| {
                        let budget = budget.clone();
                        let work = &work;
                        scope.spawn(move || {
                            let _entered = budget.as_ref().map(|b| b.enter());
                            work(scratch)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join()
                            .unwrap_or(Err(TemporalError::Stopped(StopReason::WorkerFailed)))
                    })
                    .collect()
            });
        for part in parts {
            results.extend(part?);
        }
    }
    results.sort_unstable_by_key(|(c, _)| *c);
    Ok(results.into_iter().map(|(_, out)| out).collect())
}

impl From<ModelError> for TemporalError {
    fn from(e: ModelError) -> Self {
        match e.stopped {
            Some(reason) => TemporalError::Stopped(reason),
            None => TemporalError::Model(e),
        }
    }
}
