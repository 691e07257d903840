//! An explicit state graph: every reachable state of a
//! [`TransitionSystem`] numbered in breadth-first order, its successor
//! edges, the breadth-first parent of each state (shortest paths back to
//! an initial state) and a few bits of labels per state.
//!
//! What the temporal checks need that the safety engine does not keep:
//! the edges. The graph is built level by level; the states of a level are
//! expanded in chunks by every thread (successor generation and the
//! symmetry layer's canonical labelling are the costly part), and the
//! chunks' successors are numbered in chunk order by one thread at a time,
//! while the others go on expanding. The numbering, the edges and the
//! parents are therefore the same at every thread count, and so are the
//! counterexamples.
//!
//! A system that reduces (partial order reduction) is expanded through its
//! ample sets; the numbering applies the cycle proviso ([`StateGraph::build`]).

use crate::temporal::TemporalError;
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use workers::{Expansion, ModelError, StopReason, TransitionSystem};

/// States expanded by one thread between two claims of work.
const CHUNK: usize = 64;

/// How many edges ahead numbering asks for the index slot of an edge's
/// target, and, half as far ahead, for the state that slot names, so that
/// both cache misses overlap the edges before it.
const LOOKAHEAD: usize = 16;

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

    /// Asks for the home slot of fingerprint `hash` to be brought into
    /// the cache.
    #[inline]
    fn prefetch(&self, hash: u64) {
        workers::prefetch(self.slots.as_ptr().wrapping_add(hash as usize & self.mask));
    }

    /// Asks for the words of the state in the home slot of `hash`, if
    /// any, to be brought into the cache (its comparison comes next).
    #[inline]
    fn prefetch_state(&self, states: &[u64], width: usize, hash: u64) {
        let k = self.slots[hash as usize & self.mask] as usize;
        if k != 0 {
            workers::prefetch(states.as_ptr().wrapping_add((k - 1) * width));
        }
    }

    /// The id of `words` (whose fingerprint is `hash`) if `states` holds
    /// it, else where to put it.
    fn find(&self, states: &[u64], width: usize, words: &[u64], hash: u64) -> Result<u32, usize> {
        let mut at = hash as usize & self.mask;
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
/// how many successors it has; the successors' words one after the other,
/// and their fingerprints (hashed here, on the expanding threads, rather
/// than by the one thread that numbers).
/// With a reducing system, per state also the successors its ample set
/// left out (none when the expansion was full), which numbering adds only
/// when the cycle proviso asks for them.
#[derive(Default)]
struct ChunkOut {
    first: usize,
    counts: Vec<u32>,
    successors: Vec<u64>,
    hashes: Vec<u64>,
    left_counts: Vec<u32>,
    left_out: Vec<u64>,
    labels: Vec<u64>,
}

impl StateGraph {
    /// Builds the graph of `system` with `threads` threads; `label` writes
    /// `label_words` words of label bits for each state (called once per
    /// state, on the thread that expands it, right after the state's
    /// successors with the same scratch, so that it may read what the
    /// expansion left there). With `tag_words > 0`, every successor the
    /// system emits carries that many more words after its
    /// `state_width()` words: the edge's tag ([`StateGraph::edge_tags`]),
    /// not part of the state.
    ///
    /// When `system` reduces ([`TransitionSystem::reduces`]), each state is
    /// expanded through its ample set, and fully when an ample successor
    /// lies on the state's own breadth-first level or an earlier one (with
    /// the proviso on): every cycle of the graph then has a fully expanded
    /// state.
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
            graph.add(&mut index, s, workers::fingerprint(s), NO_PARENT)?;
        }
        drop(initial);
        let mut level = 0..graph.len();
        while !level.is_empty() {
            // The level's states, apart from the graph that numbering its
            // successors extends meanwhile.
            let frontier = graph.states[level.start * width..level.end * width].to_vec();
            expand_level(
                system,
                &mut graph,
                &mut index,
                &frontier,
                level.start,
                &mut scratches,
                &label,
            )?;
            if let Some(reason) = workers::budget::tripped() {
                return Err(TemporalError::Stopped(reason));
            }
            level = level.end..graph.len();
        }
        Ok(graph)
    }

    /// Numbers the successors of a chunk of the level being expanded (in
    /// order: chunks are numbered in chunk order) and adds the chunk's
    /// edges and labels. A state expanded through an ample set gets the
    /// successors it left out too when one of its ample successors lies on
    /// its own level or an earlier one, below `next_level` (the cycle
    /// proviso for breadth-first search: along a cycle the levels cannot
    /// only grow, so some edge of it goes to a level no deeper than its
    /// source, whose source is then fully expanded).
    fn number(
        &mut self,
        index: &mut Index,
        out: &ChunkOut,
        next_level: u32,
    ) -> Result<(), TemporalError> {
        let emitted = self.width + self.tag_words;
        let (mut at, mut left_at, mut edge) = (0, 0, 0);
        for &hash in out.hashes.iter().take(LOOKAHEAD) {
            index.prefetch(hash);
        }
        for (k, &count) in out.counts.iter().enumerate() {
            let v = out.first + k;
            let mut seen = false;
            for _ in 0..count {
                if let Some(&ahead) = out.hashes.get(edge + LOOKAHEAD) {
                    index.prefetch(ahead);
                }
                if let Some(&ahead) = out.hashes.get(edge + LOOKAHEAD / 2) {
                    index.prefetch_state(&self.states, self.width, ahead);
                }
                let successor = &out.successors[at..at + emitted];
                let id = self.add_edge(index, successor, out.hashes[edge], v as u32)?;
                seen |= id < next_level;
                at += emitted;
                edge += 1;
            }
            let left = out.left_counts.get(k).map_or(0, |&n| n as usize);
            if seen {
                for _ in 0..left {
                    let successor = &out.left_out[left_at..left_at + emitted];
                    let hash = workers::fingerprint(&successor[..self.width]);
                    self.add_edge(index, successor, hash, v as u32)?;
                    left_at += emitted;
                }
            } else {
                left_at += left * emitted;
            }
            self.succ_start.push(self.succ.len() as u64);
        }
        self.labels.extend_from_slice(&out.labels);
        Ok(())
    }

    /// Adds the edge from `v` to the state of `emitted` (its words, then
    /// the tag; `hash` the state's fingerprint), numbering the state if
    /// new; its id.
    fn add_edge(
        &mut self,
        index: &mut Index,
        emitted: &[u64],
        hash: u64,
        v: u32,
    ) -> Result<u32, TemporalError> {
        let (s, tag) = emitted.split_at(self.width);
        self.tags.extend_from_slice(tag);
        let id = self.add(index, s, hash, v)?;
        self.succ.push(id);
        Ok(id)
    }

    /// The id of `s` (whose fingerprint is `hash`), adding it (with
    /// `parent`) if new.
    fn add(
        &mut self,
        index: &mut Index,
        s: &[u64],
        hash: u64,
        parent: u32,
    ) -> Result<u32, TemporalError> {
        match index.find(&self.states, self.width, s, hash) {
            Ok(id) => Ok(id),
            Err(_) => {
                let id = self.len();
                if id >= MAX_STATES {
                    return Err(TemporalError::Stopped(StopReason::StoreFull));
                }
                index.grow_if_needed(&self.states, self.width, id);
                let Err(at) = index.find(&self.states, self.width, s, hash) else {
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

    /// Asks for the label words of `v` to be brought into the cache (a
    /// hint for a search about to read them).
    #[inline]
    pub fn prefetch_labels(&self, v: u32) {
        workers::prefetch(
            self.labels
                .as_ptr()
                .wrapping_add(v as usize * self.label_words),
        );
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

/// The chunks of a level that are expanded and wait to be numbered, and
/// whether a thread is numbering.
struct Pending {
    chunks: BTreeMap<usize, ChunkOut>,
    /// The next chunk to number.
    next: usize,
    numbering: bool,
}

/// Expands the states `frontier` (ids from `first`) in chunks claimed by
/// every scratch's thread, and numbers their successors into `graph` as
/// the chunks come in: the thread that finishes a chunk while nobody
/// numbers takes the numbering up and goes on while the next chunk in
/// order is ready, so that numbering (one thread at a time, in chunk
/// order) overlaps the other threads' expansions.
fn expand_level<T, L>(
    system: &T,
    graph: &mut StateGraph,
    index: &mut Index,
    frontier: &[u64],
    first: usize,
    scratches: &mut [T::Scratch],
    label: &L,
) -> Result<(), TemporalError>
where
    T: TransitionSystem,
    L: Fn(&mut T::Scratch, &[u64], &mut [u64]) -> Result<(), ModelError> + Sync,
{
    let width = graph.width;
    let label_words = graph.label_words;
    let states = frontier.len() / width.max(1);
    // The first id of the next level: states below it are on this level or
    // an earlier one.
    let next_level = (first + states) as u32;
    let chunks = states.div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let pending = Mutex::new(Pending {
        chunks: BTreeMap::new(),
        next: 0,
        numbering: false,
    });
    let numbered = Mutex::new((graph, index));
    // Hands `out` (chunk `c`) over, and numbers what is ready if nobody is.
    let deliver = |c: usize, out: ChunkOut| -> Result<(), TemporalError> {
        let mut p = pending.lock();
        p.chunks.insert(c, out);
        if p.numbering {
            return Ok(());
        }
        p.numbering = true;
        loop {
            let mut batch = Vec::new();
            while let Some(out) = {
                let at = p.next;
                p.chunks.remove(&at)
            } {
                batch.push(out);
                p.next += 1;
            }
            if batch.is_empty() {
                p.numbering = false;
                return Ok(());
            }
            drop(p);
            {
                let mut g = numbered.lock();
                let (graph, index) = &mut *g;
                for out in &batch {
                    if let Err(e) = graph.number(index, out, next_level) {
                        pending.lock().numbering = false;
                        return Err(e);
                    }
                }
            }
            p = pending.lock();
        }
    };
    let work = |scratch: &mut T::Scratch| -> Result<(), TemporalError> {
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks || failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            if let Some(reason) = workers::budget::tripped() {
                return Err(TemporalError::Stopped(reason));
            }
            let from = c * CHUNK;
            let to = (from + CHUNK).min(states);
            let mut out = ChunkOut {
                first: first + from,
                ..ChunkOut::default()
            };
            let reduces = system.reduces();
            for v in from..to {
                let state = &frontier[v * width..(v + 1) * width];
                let mut count = 0u32;
                let mut push = |s: &[u64]| {
                    out.successors.extend_from_slice(s);
                    out.hashes.push(workers::fingerprint(&s[..width]));
                    count += 1;
                };
                let expansion = if reduces {
                    system.reduced_successors(scratch, state, &mut push)?
                } else {
                    system.successors(scratch, state, &mut push)?;
                    Expansion::Full
                };
                out.counts.push(count);
                if reduces {
                    let mut left = 0u32;
                    if let Expansion::Ample { proviso: true } = expansion {
                        system.remaining_successors(scratch, state, &mut |s| {
                            out.left_out.extend_from_slice(s);
                            left += 1;
                        })?;
                    }
                    out.left_counts.push(left);
                }
                let at = out.labels.len();
                out.labels.resize(at + label_words, 0);
                label(scratch, state, &mut out.labels[at..])?;
            }
            deliver(c, out)?;
        }
    };
    let work = |scratch: &mut T::Scratch| {
        let result = work(scratch);
        if result.is_err() {
            failed.store(true, Ordering::Relaxed);
        }
        result
    };
    if scratches.len() == 1 || chunks <= 1 {
        work(&mut scratches[0])?;
    } else {
        let budget = workers::budget::current();
        let results: Vec<Result<(), TemporalError>> = std::thread::scope(|scope| {
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
        for result in results {
            result?;
        }
    }
    let p = pending.lock();
    debug_assert!(p.chunks.is_empty() && p.next == chunks);
    Ok(())
}

impl From<ModelError> for TemporalError {
    fn from(e: ModelError) -> Self {
        match e.stopped {
            Some(reason) => TemporalError::Stopped(reason),
            None => TemporalError::Model(e),
        }
    }
}
