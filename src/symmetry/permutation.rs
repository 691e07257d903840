//! Permutations of given-set elements, applied to values and to encoded
//! states.
//!
//! A [`Permutation`] maps each element of each given set to an element of
//! the same set (the identity outside the interchangeable elements). Applied
//! to a state it renames every occurrence of an element, in scalars, in
//! bitsets (bit `i` moves to bit `p(i)`) and inside interned values (decoded,
//! renamed, re-interned), giving the symmetric state.

use crate::b::state::{Codec, EncodeError, Finite, StateLayout};
use crate::b::value::{Elem, Value};
use std::sync::Arc;

/// A permutation of the elements of every given set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Permutation {
    /// `images[s][i]`: the image of element `i` of given set `s`.
    images: Vec<Vec<u32>>,
}

impl Permutation {
    /// The identity on given sets of the given sizes.
    pub fn identity(set_sizes: &[usize]) -> Self {
        Permutation {
            images: set_sizes.iter().map(|&n| (0..n as u32).collect()).collect(),
        }
    }

    /// A permutation from explicit images; `None` unless every `images[s]`
    /// is a permutation of `0..images[s].len()`.
    pub fn from_images(images: Vec<Vec<u32>>) -> Option<Self> {
        for image in &images {
            let mut seen = vec![false; image.len()];
            for &i in image {
                let slot = seen.get_mut(i as usize)?;
                if *slot {
                    return None;
                }
                *slot = true;
            }
        }
        Some(Permutation { images })
    }

    /// The images, for callers that fill a permutation in place; each row
    /// must stay a permutation of its indices.
    pub(crate) fn images_mut(&mut self) -> &mut [Vec<u32>] {
        &mut self.images
    }

    /// The image of element `index` of given set `set`.
    #[inline]
    pub fn image(&self, set: u32, index: u32) -> u32 {
        self.images
            .get(set as usize)
            .and_then(|m| m.get(index as usize))
            .copied()
            .unwrap_or(index)
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        self.images
            .iter()
            .all(|m| m.iter().enumerate().all(|(i, &j)| i as u32 == j))
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn compose(&self, other: &Permutation) -> Permutation {
        let images = other
            .images
            .iter()
            .enumerate()
            .map(|(s, m)| m.iter().map(|&j| self.image(s as u32, j)).collect())
            .collect();
        Permutation { images }
    }

    /// The inverse permutation.
    pub fn inverse(&self) -> Permutation {
        let images = self
            .images
            .iter()
            .map(|m| {
                let mut inv = vec![0; m.len()];
                for (i, &j) in m.iter().enumerate() {
                    inv[j as usize] = i as u32;
                }
                inv
            })
            .collect();
        Permutation { images }
    }

    /// The renamed value (sets are re-sorted).
    pub fn apply_value(&self, value: &Value) -> Value {
        match value {
            Value::Elem(e) => Value::Elem(Elem {
                set: e.set,
                index: self.image(e.set, e.index),
            }),
            Value::Pair(p) => {
                Value::Pair(Arc::new((self.apply_value(&p.0), self.apply_value(&p.1))))
            }
            Value::Set(items) => {
                let mut v: Vec<Value> = items.iter().map(|x| self.apply_value(x)).collect();
                v.sort();
                Value::Set(Arc::from(v))
            }
            Value::Int(_) | Value::Bool(_) | Value::Str(_) => value.clone(),
        }
    }

    /// The index of the renamed value of finite type `f` with index `index`.
    fn apply_index(&self, f: &Finite, index: u64) -> u64 {
        match f {
            Finite::Bool => index,
            Finite::Given { set, .. } => self.image(*set, index as u32) as u64,
            Finite::Pair(a, b) => {
                let bc = b.card();
                self.apply_index(a, index / bc) * bc + self.apply_index(b, index % bc)
            }
            Finite::Set(t) => {
                let mut out = 0u64;
                let mut bits = index;
                while bits != 0 {
                    let i = bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    out |= 1 << self.apply_index(t, i);
                }
                out
            }
        }
    }

    /// Writes the renamed `state` into `out` (same layout).
    pub fn apply_state(
        &self,
        layout: &StateLayout,
        state: &[u64],
        out: &mut Vec<u64>,
    ) -> Result<(), EncodeError> {
        out.clear();
        out.resize(state.len(), 0);
        for slot in layout.slots() {
            let w = slot.codec.width();
            let (src, dst) = (
                &state[slot.offset..slot.offset + w],
                &mut out[slot.offset..slot.offset + w],
            );
            match &slot.codec {
                Codec::Int => dst.copy_from_slice(src),
                Codec::Scalar(f) => dst[0] = self.apply_index(f, src[0]),
                Codec::BitSet { element, .. } => {
                    for (word_index, &word) in src.iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            let i = word_index as u64 * 64 + bits.trailing_zeros() as u64;
                            bits &= bits - 1;
                            let j = self.apply_index(element, i);
                            dst[(j / 64) as usize] |= 1 << (j % 64);
                        }
                    }
                }
                Codec::Interned => {
                    let renamed = self.apply_value(&layout.decode_slot(slot, state));
                    layout.encode_slot(slot, &renamed, dst)?;
                }
            }
        }
        Ok(())
    }
}

/// Every permutation that moves only the given interchangeable elements
/// (`movable[s]` for given set `s`), identity first. The count is the
/// product of factorials: use only for small sets (flooding, brute-force
/// test oracles).
pub fn all_permutations(set_sizes: &[usize], movable: &[Vec<u32>]) -> Vec<Permutation> {
    let mut result = vec![Permutation::identity(set_sizes)];
    for (s, free) in movable.iter().enumerate() {
        if free.len() < 2 {
            continue;
        }
        let orders = permutations_of(free);
        let mut next = Vec::with_capacity(result.len() * orders.len());
        for p in &result {
            for order in &orders {
                let mut q = p.clone();
                for (from, to) in free.iter().zip(order) {
                    q.images[s][*from as usize] = *to;
                }
                next.push(q);
            }
        }
        result = next;
    }
    result
}

/// All orderings of `items`, the given order first (lexicographic by position).
fn permutations_of(items: &[u32]) -> Vec<Vec<u32>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations_of(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::b::types::{GivenSet, MachineTypes, Type};

    fn elem(set: u32, index: u32) -> Value {
        Value::Elem(Elem { set, index })
    }
    fn set(mut v: Vec<Value>) -> Value {
        v.sort();
        Value::Set(Arc::from(v))
    }

    #[test]
    fn counts_and_identity_first() {
        let all = all_permutations(&[3, 2], &[vec![0, 1, 2], vec![0, 1]]);
        assert_eq!(all.len(), 12);
        assert!(all[0].is_identity());
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 12);
        // Fixed elements stay fixed.
        let partial = all_permutations(&[3], &[vec![1, 2]]);
        assert_eq!(partial.len(), 2);
        assert!(partial.iter().all(|p| p.image(0, 0) == 0));
    }

    #[test]
    fn compose_and_inverse() {
        let p = Permutation::from_images(vec![vec![1, 2, 0]]).unwrap();
        assert!(p.compose(&p.inverse()).is_identity());
        assert_eq!(p.compose(&p).image(0, 0), 2);
        assert!(Permutation::from_images(vec![vec![0, 0]]).is_none());
        assert!(Permutation::from_images(vec![vec![0, 5]]).is_none());
    }

    #[test]
    fn state_renaming_matches_value_renaming() {
        let pid = Type::Given(0);
        let types = MachineTypes {
            bound: Default::default(),
            given_sets: vec![GivenSet {
                name: "P".into(),
                elements: (1..=3).map(|i| format!("P{i}")).collect(),
                deferred: true,
            }],
            constants: vec![],
            variables: vec![
                pid.clone(),
                Type::Set(Box::new(pid.clone())),
                Type::Set(Box::new(Type::Pair(
                    Box::new(pid.clone()),
                    Box::new(Type::Int),
                ))),
                Type::Set(Box::new(Type::Set(Box::new(pid.clone())))),
            ],
            operations: vec![],
            maxint: 3,
            minint: -1,
        };
        let names: Vec<String> = ["x", "s", "f", "ss"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let layout = StateLayout::new(&[], &names, &types);
        let vars = vec![
            elem(0, 0),
            set(vec![elem(0, 0), elem(0, 2)]),
            set(vec![Value::Pair(Arc::new((elem(0, 1), Value::Int(7))))]),
            set(vec![
                set(vec![elem(0, 0)]),
                set(vec![elem(0, 1), elem(0, 2)]),
            ]),
        ];
        let mut words = Vec::new();
        layout.encode(&[], &vars, &mut words).unwrap();
        for p in all_permutations(&[3], &[vec![0, 1, 2]]) {
            let mut renamed = Vec::new();
            p.apply_state(&layout, &words, &mut renamed).unwrap();
            let expected: Vec<Value> = vars.iter().map(|v| p.apply_value(v)).collect();
            let mut expected_words = Vec::new();
            layout.encode(&[], &expected, &mut expected_words).unwrap();
            assert_eq!(renamed, expected_words, "{p:?}");
        }
    }
}
