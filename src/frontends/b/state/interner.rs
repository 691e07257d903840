//! Ids for the values that have no flat encoding.
//!
//! Values whose type is infinite or too large for a bitset (sequences,
//! strings, sets of integers without an invariant range, deep nestings)
//! are stored in a state as one word: their id. The id is a 64-bit hash
//! of the value's content, so equal values get equal ids in every thread,
//! process and run of the same build: a state means the same thing
//! outside the process that made it (as distributed exploration and
//! saved states need), and ids do not depend on thread timing.
//!
//! Two different values with the same id would make two states equal:
//! each id's value is kept, and a value whose id is taken by another is
//! refused ([`Collision`]), never merged. With 64-bit ids that needs
//! about 2^32 distinct values to become likely.
//!
//! # Reads
//! The table is a sharded map from id to value (no global lock): reading a
//! value takes one shard's read lock and clones the value's reference.
//! Per-thread deep copies (which would keep even the reference counts
//! thread-local) were measured and are not used: on scheduler1 with 8
//! processes, whose queues take more distinct values than a bounded
//! per-thread cache held, copying a sequence on every miss (an allocation
//! per element) made the one-thread search 70% slower.

use crate::frontends::b::value::Value;
use dashmap::DashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::OnceLock;

/// A value whose content id another value already has: the two cannot
/// share a state word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collision;

/// Maps values to content ids and back. `Send + Sync`.
pub struct Interner {
    values: DashMap<u64, Value, BuildHasherDefault<IdHasher>>,
    /// The first id two values were found to share.
    collided: OnceLock<u64>,
}

impl Default for Interner {
    fn default() -> Self {
        Self::new()
    }
}

impl Interner {
    /// An empty table.
    pub fn new() -> Self {
        Interner {
            values: DashMap::default(),
            collided: OnceLock::new(),
        }
    }

    /// The id of `value`: a hash of its content, the same in every
    /// process. Registers the value so that [`Interner::value`] finds it.
    pub fn intern(&self, value: &Value) -> Result<u64, Collision> {
        let id = content_id(value);
        self.intern_as(value, id).inspect_err(|_| {
            let _ = self.collided.set(id);
        })
    }

    /// The first id two different values were found to share, if any.
    pub fn collision(&self) -> Option<u64> {
        self.collided.get().copied()
    }

    fn intern_as(&self, value: &Value, id: u64) -> Result<u64, Collision> {
        if let Some(stored) = self.values.get(&id) {
            return if *stored == *value {
                Ok(id)
            } else {
                Err(Collision)
            };
        }
        let entry = self.values.entry(id).or_insert_with(|| value.clone());
        if *entry == *value {
            Ok(id)
        } else {
            Err(Collision)
        }
    }

    /// The value with id `id`. Ids come only from [`Interner::intern`] on
    /// the same table, so a missing id is a bug in the caller.
    pub fn value(&self, id: u64) -> Value {
        self.values
            .get(&id)
            .map(|stored| stored.clone())
            .expect("an id this table handed out")
    }

    /// Number of distinct values interned so far.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no value was interned yet.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// The content id of `value`: a 64-bit hash of its structure (never
/// `u64::MAX`, so that an id + 1 fits a word). Depends only on the value,
/// not on the process, the platform's word size or byte order.
pub fn content_id(value: &Value) -> u64 {
    let mut h = ContentHasher(SEED);
    value.hash(&mut h);
    match h.finish() {
        u64::MAX => u64::MAX - 1,
        id => id,
    }
}

const SEED: u64 = 0x243f_6a88_85a3_08d3;
const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

/// A hasher over 64-bit words with a full 64x64 -> 128-bit multiply per
/// word (folded), so that ids of structured values spread like random
/// ones. Every integer is fed as a 64-bit word, bytes as little-endian
/// words, so the result does not depend on the platform.
struct ContentHasher(u64);

impl ContentHasher {
    #[inline]
    fn mix(&mut self, x: u64) {
        let m = (self.0 ^ x) as u128 * MULTIPLIER as u128;
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
}

impl Hasher for ContentHasher {
    fn finish(&self) -> u64 {
        let m = (self.0 as u128) * 0xbf58_476d_1ce4_e5b9u128;
        (m as u64) ^ ((m >> 64) as u64)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.mix(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        // The length in the last word: "ab" and "ab\0" differ.
        self.mix(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 56));
    }

    fn write_u8(&mut self, x: u8) {
        self.mix(x as u64);
    }

    fn write_u16(&mut self, x: u16) {
        self.mix(x as u64);
    }

    fn write_u32(&mut self, x: u32) {
        self.mix(x as u64);
    }

    fn write_u64(&mut self, x: u64) {
        self.mix(x);
    }

    fn write_usize(&mut self, x: usize) {
        self.mix(x as u64);
    }

    fn write_i64(&mut self, x: i64) {
        self.mix(x as u64);
    }

    fn write_isize(&mut self, x: isize) {
        self.mix(x as i64 as u64);
    }
}

/// Hashes keys that are already content ids: their bits spread well.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn set(items: &[i64]) -> Value {
        Value::Set(items.iter().map(|&i| Value::Int(i)).collect())
    }

    #[test]
    fn equal_values_get_equal_ids_and_round_trip() {
        let t = Interner::new();
        let a = set(&[1, 5]);
        let b = Value::Str(Arc::from("x"));
        let ia = t.intern(&a).unwrap();
        let ib = t.intern(&b).unwrap();
        assert_ne!(ia, ib);
        assert_eq!(t.intern(&a.clone()), Ok(ia));
        assert_eq!(t.value(ia), a);
        assert_eq!(t.value(ib), b);
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn ids_depend_on_the_value_only() {
        // Two tables (as two processes would have), values interned in
        // opposite orders: the same ids. The literal pins the hash down,
        // so that a change to it (which would change every stored state's
        // meaning) is a deliberate one.
        let (t, u) = (Interner::new(), Interner::new());
        let values = [set(&[1, 2]), set(&[]), Value::Str(Arc::from("ab"))];
        let ids: Vec<u64> = values.iter().map(|v| t.intern(v).unwrap()).collect();
        let back: Vec<u64> = values.iter().rev().map(|v| u.intern(v).unwrap()).collect();
        assert_eq!(ids, back.into_iter().rev().collect::<Vec<_>>());
        assert_eq!(content_id(&set(&[1, 2])), ids[0]);
        assert_eq!(ids[1], content_id(&Value::empty_set()));
        assert_eq!(content_id(&Value::Int(7)), 0x67ff_a840_a6bd_10d1);
    }

    #[test]
    fn a_value_whose_id_is_taken_is_refused() {
        let t = Interner::new();
        let a = set(&[3]);
        let id = t.intern(&a).unwrap();
        // Forge a collision: another value stored under `a`'s id.
        t.values.insert(id, set(&[4]));
        assert_eq!(t.intern(&a), Err(Collision));
        assert_eq!(t.collision(), Some(id));
    }

    #[test]
    fn near_values_get_distinct_ids() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..200 {
            for j in 0..50 {
                assert!(seen.insert(content_id(&set(&[i, j]))));
            }
            assert!(seen.insert(content_id(&Value::Str(Arc::from("a".repeat(i as usize))))));
        }
    }

    #[test]
    fn racing_threads_agree_on_ids() {
        let t = Interner::new();
        let ids: Vec<Vec<u64>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..500)
                            .map(|i| t.intern(&set(&[i])).unwrap())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(ids.windows(2).all(|w| w[0] == w[1]));
        assert_eq!(t.len(), 500);
    }
}
