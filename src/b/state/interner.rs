//! A concurrent hash-consing table for values that have no flat encoding.
//!
//! Values whose type is infinite or too large for a bitset (sets of
//! integers, sequences, strings, deep nestings) are stored in a state as a
//! single word: their id in this table. Equal values get equal ids, so the
//! state encoding stays canonical (equal states have equal words).
//!
//! Ids are handed out in first-come order, so they depend on thread timing;
//! they are stable within one run, which is all the engine needs (states
//! are compared within a run). Nothing orders states by id.

use crate::b::value::Value;
use crate::b::value::fast_hash::FastBuild;
use dashmap::DashMap;
use parking_lot::RwLock;

/// Maps values to dense `u64` ids and back. `Send + Sync`.
#[derive(Default)]
pub struct Interner {
    ids: DashMap<Value, u64, FastBuild>,
    values: RwLock<Vec<Value>>,
}

impl Interner {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `value`, adding it if it is new.
    pub fn intern(&self, value: &Value) -> u64 {
        if let Some(id) = self.ids.get(value) {
            return *id;
        }
        // The entry guard serialises racing inserts of the same value, so
        // each value gets exactly one id.
        *self.ids.entry(value.clone()).or_insert_with(|| {
            let mut values = self.values.write();
            values.push(value.clone());
            values.len() as u64 - 1
        })
    }

    /// The value with id `id`. Ids come only from [`Interner::intern`] on
    /// the same table, so a missing id is a bug in the caller.
    pub fn value(&self, id: u64) -> Value {
        self.values.read()[id as usize].clone()
    }

    /// Number of distinct values interned so far.
    pub fn len(&self) -> usize {
        self.values.read().len()
    }

    /// Whether no value was interned yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn equal_values_get_equal_ids_and_round_trip() {
        let t = Interner::new();
        let a = Value::Set(Arc::from(vec![Value::Int(1), Value::Int(5)]));
        let b = Value::Str(Arc::from("x"));
        let ia = t.intern(&a);
        let ib = t.intern(&b);
        assert_ne!(ia, ib);
        assert_eq!(t.intern(&a.clone()), ia);
        assert_eq!(t.value(ia), a);
        assert_eq!(t.value(ib), b);
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn racing_threads_agree_on_ids() {
        let t = Interner::new();
        let ids: Vec<Vec<u64>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..500)
                            .map(|i| t.intern(&Value::Int(i)))
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
