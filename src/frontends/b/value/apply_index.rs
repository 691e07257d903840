//! Hash indexes of large relations applied to structured arguments.
//!
//! [`super::relations::run_from`] finds `f(x)` by a binary search: a
//! handful of integer comparisons where `x` is a number or an element, but
//! where `x` is a sequence, a set or a tuple each step compares whole
//! values. A machine that defines its data by tables (bit vectors as
//! sequences: `bv16_sshort(byte_bv16(b1, b2))` over 65,536 sequences of 16
//! bits) spends most of its time there. So a thread that applies the same
//! large relation to structured arguments often enough builds a hash
//! index of it, once, and looks each argument up in one hash and one
//! comparison.
//!
//! Each thread keeps a few indexes ([`KEPT`]), most recently used first,
//! each holding its relation alive so that no other relation can take its
//! address while the index exists. A relation is indexed after as many
//! lookups as its length over [`LOOKUPS_PER_ENTRY`]: by then the searches
//! have cost more than building the index does.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::Value;
use super::fast_hash::FastBuild;
use super::relations::{first, run_from};

/// Shortest relation worth an index: below it a search is a few
/// comparisons.
const MIN_LEN: usize = 512;

/// Indexes a thread keeps.
const KEPT: usize = 4;

/// A relation is indexed after `len / LOOKUPS_PER_ENTRY` lookups.
const LOOKUPS_PER_ENTRY: usize = 16;

/// One relation a thread applies: lookups so far, then its index.
struct Entry {
    rel: Arc<[Value]>,
    lookups: usize,
    /// Each first component's run of pairs, as `start..end`.
    index: Option<HashMap<Value, (u32, u32), FastBuild>>,
}

thread_local! {
    static ENTRIES: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The positions of the pairs of `rel` whose first component is `x`, as
/// [`run_from`] finds them, through the thread's index of `rel` where it
/// has one (an empty range where `x` has none, not necessarily where
/// [`run_from`]'s would start).
#[inline]
pub fn run_of(rel: &Arc<[Value]>, x: &Value) -> Range<usize> {
    if rel.len() < MIN_LEN || matches!(x, Value::Int(_) | Value::Elem(_) | Value::Bool(_)) {
        return run_from(rel, x);
    }
    indexed_run(rel, x)
}

#[inline(never)]
fn indexed_run(rel: &Arc<[Value]>, x: &Value) -> Range<usize> {
    ENTRIES.with_borrow_mut(|entries| {
        let at = match entries.iter().position(|e| Arc::ptr_eq(&e.rel, rel)) {
            Some(i) => i,
            None => {
                if entries.len() == KEPT {
                    entries.pop();
                }
                entries.push(Entry {
                    rel: rel.clone(),
                    lookups: 0,
                    index: None,
                });
                entries.len() - 1
            }
        };
        // Most recently used first.
        entries[..=at].rotate_right(1);
        let entry = &mut entries[0];
        if entry.index.is_none() {
            entry.lookups += 1;
            if entry.lookups < rel.len() / LOOKUPS_PER_ENTRY {
                return run_from(rel, x);
            }
            entry.index = Some(build(rel));
        }
        match entry.index.as_ref().and_then(|index| index.get(x)) {
            Some(&(start, end)) => start as usize..end as usize,
            None => 0..0,
        }
    })
}

/// Each first component of `rel` with its run of pairs.
fn build(rel: &[Value]) -> HashMap<Value, (u32, u32), FastBuild> {
    let mut index = HashMap::with_capacity_and_hasher(rel.len(), FastBuild::default());
    let mut start = 0;
    while start < rel.len() {
        let key = first(&rel[start]);
        let mut end = start + 1;
        while end < rel.len() && first(&rel[end]) == key {
            end += 1;
        }
        index.insert(key.clone(), (start as u32, end as u32));
        start = end;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(bits: &[i64]) -> Value {
        Value::set_from_vec(
            bits.iter()
                .enumerate()
                .map(|(i, &b)| Value::pair(Value::Int(i as i64 + 1), Value::Int(b)))
                .collect(),
        )
    }

    #[test]
    fn the_index_finds_every_run_the_search_finds() {
        // A relation from 10-bit sequences: one pair for most, two for
        // every seventh, none for every fifth.
        let mut pairs = Vec::new();
        let mut absent = Vec::new();
        for n in 0..1024i64 {
            let bits: Vec<i64> = (0..10).map(|k| (n >> k) & 1).collect();
            if n % 5 == 0 {
                absent.push(seq(&bits));
                continue;
            }
            pairs.push(Value::pair(seq(&bits), Value::Int(n)));
            if n % 7 == 0 {
                pairs.push(Value::pair(seq(&bits), Value::Int(-n)));
            }
        }
        let rel: Arc<[Value]> = match Value::set_from_vec(pairs) {
            Value::Set(s) => s,
            _ => unreachable!(),
        };
        // Enough rounds to build the index and use it.
        for _ in 0..3 {
            for p in rel.iter() {
                let x = first(p);
                assert_eq!(run_of(&rel, x), run_from(&rel, x));
            }
            for x in &absent {
                assert!(run_from(&rel, x).is_empty());
                assert!(run_of(&rel, x).is_empty());
            }
        }
        ENTRIES.with_borrow(|entries| assert!(entries[0].index.is_some()));
    }
}
