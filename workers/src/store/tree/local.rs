//! The node store of the tree-compressed sequential store: node values in
//! chunks that never move (an id is an insertion index) and an
//! open-addressing index over them, grown by half and rebuilt from the
//! values, as the sequential store's own table is.

use super::{NodeValues, Nodes};
use crate::hash::{fingerprint, next_pos};
use crate::report::StopReason;

/// log2 of the values per chunk (32 KiB chunks).
const CHUNK_BITS: u32 = 12;
/// Largest fill ratio of the index before it grows.
const MAX_LOAD: f64 = 0.8;

/// The single-threaded node store. See the module docs.
pub(crate) struct LocalNodes {
    chunks: Vec<Box<[u64]>>,
    len: u64,
    /// Tag of the value's hash (high 32 bits, never 0) above `id`.
    slots: Vec<u64>,
}

/// The store and the bytes it may still allocate: what [`Nodes::cons`]
/// needs.
pub(crate) struct Cons<'a> {
    pub(crate) nodes: &'a mut LocalNodes,
    /// Bytes the store may add (`None`: unbounded).
    pub(crate) room: Option<u64>,
}

#[inline(always)]
fn hash(value: u64) -> u64 {
    fingerprint(&[value])
}

#[inline(always)]
fn tag(hash: u64) -> u64 {
    (hash >> 32).max(1) << 32
}

impl LocalNodes {
    /// An empty store.
    pub(crate) fn new() -> Self {
        LocalNodes {
            chunks: Vec::new(),
            len: 0,
            slots: vec![0; 1024],
        }
    }

    /// Nodes stored.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Bytes allocated.
    pub(crate) fn bytes(&self) -> u64 {
        ((self.chunks.len() as u64) << CHUNK_BITS) * 8 + 8 * self.slots.len() as u64
    }

    #[inline]
    fn read(&self, id: u32) -> u64 {
        self.chunks[(id >> CHUNK_BITS) as usize][(id & ((1 << CHUNK_BITS) - 1)) as usize]
    }

    /// Grows the index by half, rebuilding it from the values (the old
    /// index is freed first).
    fn grow_index(&mut self) -> Result<(), StopReason> {
        if !crate::hash::regrow(&mut self.slots) {
            return Err(StopReason::MemoryLimit);
        }
        let len = self.slots.len();
        for id in 0..self.len as u32 {
            let h = hash(self.read(id));
            let mut pos = crate::hash::home(h, len);
            while self.slots[pos] != 0 {
                pos = next_pos(pos, len);
            }
            self.slots[pos] = tag(h) | u64::from(id);
        }
        Ok(())
    }
}

impl NodeValues for LocalNodes {
    #[inline]
    fn value(&self, id: u32) -> u64 {
        self.read(id)
    }
}

impl NodeValues for Cons<'_> {
    #[inline]
    fn value(&self, id: u32) -> u64 {
        self.nodes.read(id)
    }
}

impl Nodes for Cons<'_> {
    type Error = StopReason;

    fn cons(&mut self, value: u64) -> Result<u32, StopReason> {
        let nodes = &mut *self.nodes;
        let h = hash(value);
        let want = tag(h);
        let mut pos = crate::hash::home(h, nodes.slots.len());
        loop {
            let slot = nodes.slots[pos];
            if slot == 0 {
                break;
            }
            if slot & !u64::from(u32::MAX) == want && nodes.read(slot as u32) == value {
                return Ok(slot as u32);
            }
            pos = next_pos(pos, nodes.slots.len());
        }
        if nodes.len > u64::from(u32::MAX) {
            return Err(StopReason::StoreFull);
        }
        let mut extra = 0;
        let grow_index = (nodes.len + 1) as f64 > MAX_LOAD * nodes.slots.len() as f64;
        if grow_index {
            extra += 8 * (crate::hash::grown(nodes.slots.len()) - nodes.slots.len()) as u64;
        }
        let new_chunk = nodes.len & ((1 << CHUNK_BITS) - 1) == 0;
        if new_chunk {
            extra += 8 << CHUNK_BITS;
        }
        if self.room.is_some_and(|room| extra > room) {
            return Err(StopReason::MemoryLimit);
        }
        if grow_index {
            nodes.grow_index()?;
            pos = crate::hash::home(h, nodes.slots.len());
            while nodes.slots[pos] != 0 {
                pos = next_pos(pos, nodes.slots.len());
            }
        }
        if new_chunk {
            let mut chunk = Vec::new();
            chunk
                .try_reserve_exact(1 << CHUNK_BITS)
                .map_err(|_| StopReason::MemoryLimit)?;
            chunk.resize(1 << CHUNK_BITS, 0);
            nodes.chunks.push(chunk.into_boxed_slice());
        }
        let id = nodes.len as u32;
        nodes.chunks[(id >> CHUNK_BITS) as usize][(id & ((1 << CHUNK_BITS) - 1)) as usize] = value;
        nodes.len += 1;
        nodes.slots[pos] = want | u64::from(id);
        if let Some(room) = self.room.as_mut() {
            *room -= extra;
        }
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_share_ids_across_growth() {
        let mut nodes = LocalNodes::new();
        let mut cons = Cons {
            nodes: &mut nodes,
            room: None,
        };
        let ids: Vec<u32> = (0..10_000u64).map(|v| cons.cons(v * 3).unwrap()).collect();
        assert_eq!(ids, (0..10_000).collect::<Vec<_>>());
        for v in (0..10_000u64).rev() {
            assert_eq!(cons.cons(v * 3), Ok(v as u32));
            assert_eq!(cons.value(v as u32), v * 3);
        }
        assert_eq!(nodes.len(), 10_000);
    }

    #[test]
    fn a_bound_refuses_new_nodes_only() {
        let mut nodes = LocalNodes::new();
        let mut cons = Cons {
            nodes: &mut nodes,
            room: Some(100_000),
        };
        let mut stored = 0u64;
        let err = loop {
            match cons.cons(stored) {
                Ok(_) => stored += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(err, StopReason::MemoryLimit);
        assert_eq!(cons.cons(0), Ok(0));
        assert!(nodes.bytes() <= 100_000 + 8 * 1024, "{}", nodes.bytes());
    }
}
