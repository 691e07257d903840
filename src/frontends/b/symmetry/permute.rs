//! Permutations applied to B values and to encoded B states: every
//! occurrence of an element is renamed, in scalars, in bitsets (bit `i`
//! moves to bit `p(i)`) and inside interned values (decoded, renamed,
//! re-interned), giving the symmetric state.

use crate::frontends::b::state::{Codec, EncodeError, Finite, StateLayout};
use crate::frontends::b::value::{Elem, Value};
use crate::model::Permutation;
use std::sync::Arc;

/// How a [`Permutation`] acts on B values and states.
pub trait PermuteB {
    /// The renamed value (sets are re-sorted).
    fn apply_value(&self, value: &Value) -> Value;

    /// Sets in `dst` (zeroed) the renamed bits of `src`, a bitset over
    /// `element`.
    fn apply_bits(&self, element: &Finite, src: &[u64], dst: &mut [u64]) {
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

    /// Writes the renamed `state` into `out` (same layout).
    fn apply_state(
        &self,
        layout: &StateLayout,
        state: &[u64],
        out: &mut Vec<u64>,
    ) -> Result<(), EncodeError>;

    /// The index of the renamed value of finite type `f` with index `index`.
    fn apply_index(&self, f: &Finite, index: u64) -> u64;

    /// [`PermuteB::apply_state`] on a packed state, as the engine stores
    /// it (see [`crate::frontends::b::state`]): `out` is the renamed packed state.
    fn apply_packed(
        &self,
        layout: &StateLayout,
        packed: &[u64],
        out: &mut Vec<u64>,
    ) -> Result<(), EncodeError> {
        let (mut words, mut image) = (Vec::new(), Vec::new());
        layout.unpack(packed, &mut words);
        self.apply_state(layout, &words, &mut image)?;
        layout.pack(&image, out)
    }
}

impl PermuteB for Permutation {
    /// The renamed value (sets are re-sorted).
    fn apply_value(&self, value: &Value) -> Value {
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
            Value::Int(_) | Value::Big(_) | Value::Bool(_) | Value::Str(_) | Value::Symbolic(_) => {
                value.clone()
            }
        }
    }

    /// The index of the renamed value of finite type `f` with index `index`.
    fn apply_index(&self, f: &Finite, index: u64) -> u64 {
        match f {
            Finite::Bool | Finite::Range { .. } => index,
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
    fn apply_state(
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
                Codec::BitSet { element, .. } => self.apply_bits(element, src, dst),
                // A value outside the carrier is renamed as a value.
                Codec::RangedSet { element, words } if src[*words] == 0 => {
                    self.apply_bits(element, &src[..*words], &mut dst[..*words]);
                }
                // The image of a renamed element is the renamed image.
                Codec::Function {
                    domain,
                    range,
                    partial,
                } if slot.codec.escape(src) == Some(0) => {
                    for (k, &word) in src[..src.len() - 1].iter().enumerate() {
                        let image = Codec::function_image(*partial, word)
                            .map(|i| self.apply_index(range, i));
                        dst[self.apply_index(domain, k as u64) as usize] =
                            Codec::function_word(*partial, image);
                    }
                }
                Codec::Interned | Codec::RangedSet { .. } | Codec::Function { .. } => {
                    let renamed = self.apply_value(&layout.decode_slot(slot, state));
                    layout.encode_slot(slot, &renamed, dst)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::types::{MachineTypes, Type};
    use crate::model::all_permutations;

    fn elem(set: u32, index: u32) -> Value {
        Value::Elem(Elem { set, index })
    }
    fn set(mut v: Vec<Value>) -> Value {
        v.sort();
        Value::Set(Arc::from(v))
    }

    #[test]
    fn state_renaming_matches_value_renaming() {
        let pid = Type::Given(0);
        let types = MachineTypes::for_test(
            Some(("P", 3)),
            Vec::new(),
            vec![
                pid.clone(),
                Type::Set(Box::new(pid.clone())),
                Type::Set(Box::new(Type::Pair(
                    Box::new(pid.clone()),
                    Box::new(Type::Int),
                ))),
                Type::Set(Box::new(Type::Set(Box::new(pid.clone())))),
            ],
        );
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
