//! Renaming a state by the derived permutation: the same result as
//! [`Permutation::apply_state`], faster on interned slots.
//!
//! An interned slot holds the id of a value in the machine's interner;
//! renaming it means decoding the value, renaming its elements and
//! interning the result, which hashes the whole value. Here a slot whose
//! elements the permutation all fixes keeps its id, and the id of a renamed
//! value is remembered per (slot, old id, images of the value's elements in
//! the order they occur): those determine the renamed value, so a hit gives
//! exactly the id that interning would (ids are shared by all threads).

use crate::frontends::b::state::{Codec, EncodeError, Finite, StateLayout};
use crate::frontends::b::symmetry::PermuteB;
use crate::frontends::b::value::Value;
use crate::frontends::b::value::fast_hash::FastBuild;
use crate::model::Permutation;
use std::collections::HashMap;

/// Entries kept before the memo starts over (bounds its memory).
const MEMO_LIMIT: usize = 1 << 16;

/// Per-thread renaming buffers and the memo of renamed interned values.
#[derive(Default)]
pub struct Renamer {
    memo: HashMap<Box<[u64]>, u64, FastBuild>,
    key: Vec<u64>,
}

impl std::fmt::Debug for Renamer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renamer")
            .field("memo", &self.memo.len())
            .finish()
    }
}

impl Renamer {
    /// Writes `state` renamed by `perm` into `out` (same layout).
    ///
    /// Renames the slots `0..slot_limit` only; the other words are copied
    /// (a constant valuation is renamed without the variables, whose words
    /// are not values yet).
    pub fn apply_to(
        &mut self,
        perm: &Permutation,
        layout: &StateLayout,
        slot_limit: usize,
        state: &[u64],
        out: &mut Vec<u64>,
    ) -> Result<(), EncodeError> {
        out.clear();
        out.extend_from_slice(state);
        for (k, slot) in layout.slots()[..slot_limit.min(layout.slots().len())]
            .iter()
            .enumerate()
        {
            let w = slot.codec.width();
            let (src, dst) = (
                &state[slot.offset..slot.offset + w],
                &mut out[slot.offset..slot.offset + w],
            );
            // Bitsets are rebuilt bit by bit below.
            dst.fill(0);
            match &slot.codec {
                Codec::Int => dst.copy_from_slice(src),
                Codec::Scalar(f) => dst[0] = image(perm, f, src[0]),
                Codec::BitSet { element, .. } => image_bits(perm, element, src, dst),
                Codec::RangedSet { element, words } if src[*words] == 0 => {
                    image_bits(perm, element, &src[..*words], &mut dst[..*words]);
                }
                Codec::Function {
                    domain,
                    range,
                    partial,
                } if slot.codec.escape(src) == Some(0) => {
                    for (k, &word) in src[..w - 1].iter().enumerate() {
                        let to =
                            Codec::function_image(*partial, word).map(|i| image(perm, range, i));
                        dst[image(perm, domain, k as u64) as usize] =
                            Codec::function_word(*partial, to);
                    }
                }
                // A value outside its carrier (a state violating the
                // invariant) is renamed as a value.
                Codec::RangedSet { .. } | Codec::Function { .. } => {
                    let value = layout.decode_slot(slot, state);
                    layout.encode_slot(slot, &perm.apply_value(&value), dst)?;
                }
                Codec::Interned => {
                    let value = layout.decode_slot(slot, state);
                    self.key.clear();
                    self.key.extend([k as u64, src[0]]);
                    let mut moved = false;
                    elements(&value, &mut |set, index| {
                        let to = perm.image(set, index);
                        moved |= to != index;
                        self.key.push(u64::from(set) << 32 | u64::from(to));
                    });
                    if !moved {
                        dst[0] = src[0];
                    } else if let Some(&id) = self.memo.get(self.key.as_slice()) {
                        dst[0] = id;
                    } else {
                        layout.encode_slot(slot, &perm.apply_value(&value), dst)?;
                        if self.memo.len() >= MEMO_LIMIT {
                            self.memo.clear();
                        }
                        self.memo.insert(self.key.as_slice().into(), dst[0]);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Calls `f` with every given-set element of `v`, in order.
fn elements(v: &Value, f: &mut dyn FnMut(u32, u32)) {
    match v {
        Value::Elem(e) => f(e.set, e.index),
        Value::Pair(p) => {
            elements(&p.0, f);
            elements(&p.1, f);
        }
        Value::Set(items) => items.iter().for_each(|x| elements(x, f)),
        Value::Int(_) | Value::Big(_) | Value::Bool(_) | Value::Str(_) | Value::Symbolic(_) => {}
    }
}

/// Sets in `dst` (zeroed) the renamed bits of `src`, a bitset over
/// `element`.
fn image_bits(perm: &Permutation, element: &Finite, src: &[u64], dst: &mut [u64]) {
    for (word_index, &word) in src.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = word_index as u64 * 64 + u64::from(bits.trailing_zeros());
            bits &= bits - 1;
            let j = image(perm, element, i);
            dst[(j / 64) as usize] |= 1 << (j % 64);
        }
    }
}

/// The index of the renamed value of finite type `f` with index `index`.
fn image(perm: &Permutation, f: &Finite, index: u64) -> u64 {
    match f {
        Finite::Bool | Finite::Range { .. } => index,
        Finite::Given { set, .. } => u64::from(perm.image(*set, index as u32)),
        Finite::Pair(a, b) => {
            let bc = b.card();
            image(perm, a, index / bc) * bc + image(perm, b, index % bc)
        }
        Finite::Set(t) => {
            let mut out = 0u64;
            let mut bits = index;
            while bits != 0 {
                let i = u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                out |= 1 << image(perm, t, i);
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::types::{MachineTypes, Type};
    use crate::frontends::b::value::Elem;
    use crate::model::all_permutations;

    /// Renaming agrees with `Permutation::apply_state` on every slot kind,
    /// with the memo cold and warm.
    #[test]
    fn agrees_with_apply_state() {
        let pid = Type::Given(0);
        let int_pairs = Type::Set(Box::new(Type::Pair(
            Box::new(Type::Int),
            Box::new(pid.clone()),
        )));
        let types = MachineTypes::for_test(
            Some(("P", 4)),
            Vec::new(),
            vec![
                pid.clone(),
                Type::Set(Box::new(pid.clone())),
                int_pairs,
                Type::Set(Box::new(Type::Pair(Box::new(pid.clone()), Box::new(pid)))),
                Type::Int,
            ],
        );
        let names: Vec<String> = ["x", "s", "q", "r", "n"].map(String::from).to_vec();
        let layout = StateLayout::new(&[], &names, &types);
        let p = |i| Value::Elem(Elem { set: 0, index: i });
        let vars = vec![
            p(1),
            Value::set_from_vec(vec![p(0), p(3)]),
            Value::set_from_vec(vec![
                Value::pair(Value::Int(1), p(2)),
                Value::pair(Value::Int(2), p(0)),
            ]),
            Value::set_from_vec(vec![Value::pair(p(0), p(1)), Value::pair(p(3), p(3))]),
            Value::Int(-7),
        ];
        let mut words = Vec::new();
        layout.encode(&[], &vars, &mut words).unwrap();
        let mut renamer = Renamer::default();
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for round in 0..2 {
            for perm in all_permutations(&[4], &[vec![0, 1, 2, 3]]) {
                renamer
                    .apply_to(&perm, &layout, layout.slots().len(), &words, &mut ours)
                    .unwrap();
                perm.apply_state(&layout, &words, &mut theirs).unwrap();
                assert_eq!(ours, theirs, "round {round}: {perm:?}");
            }
        }
        assert!(!renamer.memo.is_empty());
    }
}
