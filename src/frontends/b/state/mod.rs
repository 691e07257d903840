//! The flat state encoding of B machines.
//!
//! A state is the values of all constants followed by all variables, each
//! stored by the [`Codec`] its type calls for in one fixed-width `[u64]`
//! (the *unpacked* state, one or more words per slot). Constants are part
//! of the state (each constant valuation starts its own part of the
//! search, and symmetry reduction permutes constants with the variables).
//!
//! The engine sees the state *packed* to bits ([`StateLayout::packer`]):
//! each word takes the bits its codec needs ([`Codec::leaf_bits`]: a
//! process of 12 takes 4 bits, a relation between 12 processes and 3
//! states 36), laid end to end. The front end unpacks a state where it
//! decodes it into [`Value`]s, and packs what it emits.

mod codec;
mod interner;
mod ranges;
mod shipping;

pub use codec::{Codec, EncodeError, Finite, INTERNED_ID_BITS, MAX_BITSET_ELEMENTS};
pub use interner::Interner;
pub use ranges::{
    FunctionConjunct, function_conjuncts, function_of_variables, range_of_variables,
    set_carrier_of_variables,
};

use crate::frontends::b::types::{MachineTypes, Type};
use crate::frontends::b::value::Value;
use crate::model::Packer;

/// One constant or variable and where it lives in the state.
#[derive(Clone, Debug)]
pub struct Slot {
    /// The constant's or variable's name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// How its value is stored.
    pub codec: Codec,
    /// First word.
    pub offset: usize,
}

/// Most pairs a function's element table holds ([`ElementTables`]); a
/// function with more (sets as images) decodes its pairs one by one.
const MAX_ELEMENT_TABLE: u64 = 1 << 16;

/// Every element of the carrier of each relation-valued slot, decoded
/// once: decoding a relation then clones a shared pair per element instead
/// of allocating one (each decoded state used to allocate a pair per
/// element of every relation that changed). One per thread, so the
/// reference counts of the shared pairs are not contended.
pub struct ElementTables {
    /// Per slot: the value of every carrier index, for bitsets of pairs or sets.
    tables: Vec<Option<Vec<Value>>>,
}

/// The bits of every word of `slots` in a packed state, as their codecs
/// ask (before integer ranges).
fn leaf_bits(slots: &[Slot]) -> Vec<u32> {
    slots.iter().flat_map(|s| s.codec.leaf_bits()).collect()
}

/// The bits a slot of `codec` takes in a packed state, escape words packed
/// to their codes.
fn packed_bits(codec: &Codec) -> u64 {
    let mut bits = codec.leaf_bits();
    if codec.has_escape_word() {
        bits.pop();
        bits.push(ranges::RangedLeaf::escape_word(0, "").bits());
    }
    bits.iter().map(|&b| u64::from(b)).sum()
}

/// The layout of a machine's states: constants first, then variables.
pub struct StateLayout {
    slots: Vec<Slot>,
    constants: usize,
    width: usize,
    interner: Interner,
    packer: Packer,
    /// Integer words packed as offsets in their INVARIANT range.
    ranged: Vec<ranges::RangedLeaf>,
    /// Why the last state could not be packed, if it could not.
    overflow: std::sync::OnceLock<String>,
}

impl StateLayout {
    /// The layout for a machine with the given constant and variable names
    /// (in declaration order) and their inferred types.
    pub fn new(constant_names: &[String], variable_names: &[String], types: &MachineTypes) -> Self {
        let set_sizes: Vec<u64> = types
            .given_sets
            .iter()
            .map(|s| s.elements.len() as u64)
            .collect();
        let mut slots = Vec::new();
        let mut offset = 0;
        let named = constant_names
            .iter()
            .zip(&types.constants)
            .chain(variable_names.iter().zip(&types.variables));
        for (name, ty) in named {
            let codec = Codec::for_type(ty, &set_sizes);
            let width = codec.width();
            slots.push(Slot {
                name: name.clone(),
                ty: ty.clone(),
                codec,
                offset,
            });
            offset += width;
        }
        let packer = Packer::new(leaf_bits(&slots));
        StateLayout {
            slots,
            constants: constant_names.len(),
            width: offset,
            interner: Interner::new(),
            packer,
            ranged: Vec::new(),
            overflow: std::sync::OnceLock::new(),
        }
    }

    /// Stores each `INTEGER` constant that holds an integer beyond 64 bits
    /// in some valuation as an interned id instead of the raw word (both
    /// are one 64-bit word, so offsets and packing stay as they are).
    pub fn intern_big_constants(&mut self, valuations: &[Vec<Value>]) {
        for (i, slot) in self.slots[..self.constants].iter_mut().enumerate() {
            if matches!(slot.codec, Codec::Int)
                && valuations
                    .iter()
                    .any(|v| matches!(v.get(i), Some(Value::Big(_))))
            {
                debug_assert_eq!(Codec::Interned.leaf_bits(), Codec::Int.leaf_bits());
                slot.codec = Codec::Interned;
            }
        }
    }

    /// Stores every `INTEGER` variable that has a raw word as an interned
    /// id instead, so that it can hold an integer beyond 64 bits (for a
    /// model that writes one: `value := 10000000000000000000`). Both are
    /// one 64-bit word, so offsets and packing stay as they are.
    pub fn intern_int_variables(&mut self) {
        for slot in &mut self.slots[self.constants..] {
            if matches!(slot.codec, Codec::Int) {
                slot.codec = Codec::Interned;
            }
        }
    }

    /// Packs the variables that the invariant bounds, given one entry per
    /// variable: integers with a range in `int_ranges` (see
    /// [`range_of_variables`]) as offsets in it, and sets with a carrier
    /// in `set_carriers` (see [`set_carrier_of_variables`]) as bitsets over
    /// it ([`Codec::RangedSet`]) instead of interned ids, and total
    /// functions with a domain and range in `functions` (see
    /// [`function_of_variables`]) as the index of each image
    /// ([`Codec::Function`]) where that takes fewer bits than a bitset. Only sound
    /// while the invariant that gave them is checked: a state outside a
    /// range or carrier then violates it, and the few such values get
    /// escape codes.
    pub fn with_invariant_ranges(
        mut self,
        int_ranges: &[Option<(i64, i64)>],
        set_carriers: &[Option<Finite>],
        functions: &[Option<(Finite, Finite, bool)>],
    ) -> Self {
        let first = self.constants;
        let mut offset = self.slots.get(first).map_or(self.width, |s| s.offset);
        for (k, slot) in self.slots[first..].iter_mut().enumerate() {
            // Any bitset beats an interned value (no shared map to look it
            // up in); between a bitset and a function, the fewer bits.
            if slot.codec == Codec::Interned
                && let Some(Some(carrier)) = set_carriers.get(k)
            {
                slot.codec = Codec::ranged_set(carrier.clone());
            }
            if let Some(Some((domain, range, partial))) = functions.get(k) {
                let function = Codec::Function {
                    domain: domain.clone(),
                    range: range.clone(),
                    partial: *partial,
                };
                if slot.codec == Codec::Interned
                    || packed_bits(&function) < packed_bits(&slot.codec)
                {
                    slot.codec = function;
                }
            }
            slot.offset = offset;
            offset += slot.codec.width();
        }
        self.width = offset;
        let variables = &self.slots[first..];
        self.ranged = variables
            .iter()
            .zip(int_ranges)
            .filter(|(slot, _)| slot.codec == Codec::Int)
            .filter_map(|(slot, r)| Some(ranges::RangedLeaf::new(slot.offset, &slot.name, (*r)?)))
            .chain(
                variables
                    .iter()
                    .filter(|slot| slot.codec.has_escape_word())
                    .map(|slot| {
                        ranges::RangedLeaf::escape_word(
                            slot.offset + slot.codec.width() - 1,
                            &slot.name,
                        )
                    }),
            )
            .collect();
        let mut bits = leaf_bits(&self.slots);
        for r in &self.ranged {
            bits[r.leaf] = r.bits();
        }
        self.packer = Packer::new(bits);
        self
    }

    /// Why a state could not be packed, after [`StateLayout::pack`] or an
    /// encoding failed for a reason of the model (an integer too often
    /// outside its range, two values with one content id).
    pub fn pack_failure(&self) -> Option<String> {
        if let Some(why) = self.overflow.get() {
            return Some(why.clone());
        }
        self.interner.collision().map(|id| {
            format!(
                "two different values of the variables stored by id (sequences, strings, sets \
                 of integers, ...) have the same 64-bit content id {id:#018x}: their states \
                 could not be told apart, so the run stops"
            )
        })
    }

    /// How unpacked states are packed to bits for the engine.
    pub fn packer(&self) -> &Packer {
        &self.packer
    }

    /// Packs the unpacked state `words` into `out` (resized to the packed
    /// width). Fails when an integer is outside its range and no escape
    /// is left ([`StateLayout::pack_failure`] says which).
    #[inline]
    pub fn pack(&self, words: &[u64], out: &mut Vec<u64>) -> Result<(), EncodeError> {
        out.resize(self.packer.width(), 0);
        if self.ranged.is_empty() {
            // Every codec's words fit their bits by construction.
            self.packer.pack(words, out);
            return Ok(());
        }
        // Ranged integers are whole words until coded below.
        self.packer.pack_truncating(words, out);
        for r in &self.ranged {
            let code = self.ranged_code(r, words[r.leaf])?;
            self.packer.set(r.leaf, code, out);
        }
        Ok(())
    }

    /// The packed code of `word` in ranged leaf `r`, or an encoding error
    /// (its reason kept for [`StateLayout::pack_failure`]) when every
    /// escape for values far outside the range is taken.
    #[inline]
    fn ranged_code(&self, r: &ranges::RangedLeaf, word: u64) -> Result<u64, EncodeError> {
        r.code(word as i64).ok_or_else(|| {
            let _ = self.overflow.set(r.overflow_message());
            EncodeError
        })
    }

    /// [`StateLayout::pack`] of `words` given the unpacked state `base` and
    /// its packed form `base_packed`: only the words that differ from
    /// `base`'s are packed again (a successor differs from its parent in
    /// the few variables its operation wrote).
    #[inline]
    pub fn pack_from(
        &self,
        base: &[u64],
        base_packed: &[u64],
        words: &[u64],
        out: &mut Vec<u64>,
    ) -> Result<(), EncodeError> {
        out.clear();
        out.extend_from_slice(base_packed);
        for (leaf, (&w, &b)) in words.iter().zip(base).enumerate() {
            if w != b {
                self.packer.set(leaf, w, out);
            }
        }
        // As in `pack`: ranged words were set truncated, coded here.
        for r in &self.ranged {
            if words[r.leaf] != base[r.leaf] {
                let code = self.ranged_code(r, words[r.leaf])?;
                self.packer.set(r.leaf, code, out);
            }
        }
        Ok(())
    }

    /// Packs the constants of `words` into `out`, every variable's bits
    /// zero: the key of a constant valuation (whatever its variable words).
    pub fn pack_constants(&self, words: &[u64], out: &mut Vec<u64>) {
        out.resize(self.packer.width(), 0);
        // Constants are never ranged: their words fit their bits.
        self.packer.pack(&words[..self.constant_words()], out);
    }

    /// Unpacks the packed state `packed` into `out` (resized to the width).
    #[inline]
    pub fn unpack(&self, packed: &[u64], out: &mut Vec<u64>) {
        out.resize(self.width, 0);
        self.packer.unpack(packed, out);
        for r in &self.ranged {
            out[r.leaf] = r.value(out[r.leaf]) as u64;
        }
    }

    /// Number of words per unpacked state.
    pub fn width(&self) -> usize {
        self.width
    }

    /// All slots: constants, then variables.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The slot of the variable a [`FunctionConjunct`] types, if its codec
    /// is exactly that conjunct's function codec: then every state in which
    /// the slot's escape word is 0 satisfies the conjunct (a value packs
    /// without escape only if it is such a function).
    pub fn vouched_slot(&self, conjunct: &FunctionConjunct) -> Option<usize> {
        let k = self.constants + conjunct.variable;
        let slot = self.slots.get(k)?;
        let codec = Codec::Function {
            domain: conjunct.domain.clone(),
            range: conjunct.range.clone(),
            partial: conjunct.partial,
        };
        (slot.codec == codec).then_some(k)
    }

    /// Whether the unpacked state `words` holds slot `k`'s value without
    /// escape (see [`StateLayout::vouched_slot`]).
    #[inline]
    pub fn unescaped(&self, k: usize, words: &[u64]) -> bool {
        let slot = &self.slots[k];
        let w = slot.codec.width();
        slot.codec.escape(&words[slot.offset..slot.offset + w]) == Some(0)
    }

    /// Number of constant slots (they come first).
    pub fn constant_count(&self) -> usize {
        self.constants
    }

    /// Words of the constants part (a prefix of every state).
    pub fn constant_words(&self) -> usize {
        self.slots
            .get(self.constants)
            .map_or(self.width, |s| s.offset)
    }

    /// Values interned so far (a memory statistic).
    pub fn interned_values(&self) -> usize {
        self.interner.len()
    }

    /// Encodes constants then variables into `out` (resized to the width).
    pub fn encode(
        &self,
        constants: &[Value],
        variables: &[Value],
        out: &mut Vec<u64>,
    ) -> Result<(), EncodeError> {
        out.clear();
        out.resize(self.width, 0);
        for (slot, value) in self.slots.iter().zip(constants.iter().chain(variables)) {
            let w = slot.codec.width();
            self.encode_slot(slot, value, &mut out[slot.offset..slot.offset + w])?;
        }
        Ok(())
    }

    /// Encodes only the variables, into the variable part of `state`
    /// (whose constant part is left as it is).
    pub fn encode_variables(
        &self,
        variables: &[Value],
        state: &mut [u64],
    ) -> Result<(), EncodeError> {
        for (slot, value) in self.slots[self.constants..].iter().zip(variables) {
            let w = slot.codec.width();
            self.encode_slot(slot, value, &mut state[slot.offset..slot.offset + w])?;
        }
        Ok(())
    }

    /// Like [`StateLayout::encode_variables`] for a successor of the state
    /// `out` holds, whose variables were decoded as `before`: only the
    /// variables not identical to their `before` value (see
    /// [`Value::is_identical`]) are encoded over `out`, and their indices
    /// pushed on `changed`, for [`StateLayout::restore_variables`] to put
    /// the state back for the next successor (most operations change few
    /// variables: this spares a copy of every variable's words per
    /// successor, and encoding a relation costs a lookup per pair).
    pub fn encode_changed_variables(
        &self,
        before: &[Value],
        after: &[Value],
        out: &mut [u64],
        changed: &mut Vec<usize>,
    ) -> Result<(), EncodeError> {
        let slots = &self.slots[self.constants..];
        for (k, ((slot, old), new)) in slots.iter().zip(before).zip(after).enumerate() {
            if !old.is_identical(new) {
                changed.push(k);
                let words = slot.offset..slot.offset + slot.codec.width();
                self.encode_slot(slot, new, &mut out[words])?;
            }
        }
        Ok(())
    }

    /// Copies back from `state` the words of the variables `changed` lists
    /// (as [`StateLayout::encode_changed_variables`] left them), and
    /// empties `changed`.
    pub fn restore_variables(&self, state: &[u64], out: &mut [u64], changed: &mut Vec<usize>) {
        for k in changed.drain(..) {
            let slot = &self.slots[self.constants + k];
            let words = slot.offset..slot.offset + slot.codec.width();
            out[words.clone()].copy_from_slice(&state[words]);
        }
    }

    /// Decodes the variables of `state` into `out`, which holds the
    /// variables decoded from `last` (if given): variables whose words are
    /// the same in both states keep their value (successive states of a
    /// search often share most variables; decoding a relation allocates).
    pub fn decode_variables_reusing(
        &self,
        state: &[u64],
        last: Option<&[u64]>,
        out: &mut Vec<Value>,
    ) {
        let slots = &self.slots[self.constants..];
        let Some(last) = last.filter(|_| out.len() == slots.len()) else {
            return self.decode_variables(state, out);
        };
        for (slot, value) in slots.iter().zip(out.iter_mut()) {
            let words = slot.offset..slot.offset + slot.codec.width();
            if state[words.clone()] != last[words] {
                *value = self.decode_slot(slot, state);
            }
        }
    }

    /// A decoding cache for one thread (see [`ElementTables`]).
    pub fn element_tables(&self) -> ElementTables {
        ElementTables {
            tables: self
                .slots
                .iter()
                .map(|slot| match &slot.codec {
                    // Only compound elements (pairs, sets) allocate when decoded.
                    Codec::BitSet { element, .. } | Codec::RangedSet { element, .. }
                        if matches!(element, Finite::Pair(..) | Finite::Set(_)) =>
                    {
                        Some((0..element.card()).map(|i| element.value(i)).collect())
                    }
                    // Every (domain value, image) pair, at d * |range| + r,
                    // unless there are too many (large sets as images).
                    Codec::Function { domain, range, .. }
                        if domain
                            .card()
                            .checked_mul(range.card())
                            .is_some_and(|n| n <= MAX_ELEMENT_TABLE) =>
                    {
                        let element =
                            Finite::Pair(Box::new(domain.clone()), Box::new(range.clone()));
                        Some((0..element.card()).map(|i| element.value(i)).collect())
                    }
                    _ => None,
                })
                .collect(),
        }
    }

    /// [`StateLayout::decode_variables_reusing`] taking the elements of
    /// relations from `tables` (shared, not allocated per state).
    pub fn decode_variables_with(
        &self,
        state: &[u64],
        last: Option<&[u64]>,
        out: &mut Vec<Value>,
        tables: &ElementTables,
    ) {
        let first = self.constants;
        let slots = &self.slots[first..];
        let last = last.filter(|_| out.len() == slots.len());
        if last.is_none() {
            out.clear();
            out.resize(slots.len(), Value::Int(0));
        }
        for (k, (slot, value)) in slots.iter().zip(out.iter_mut()).enumerate() {
            let words = slot.offset..slot.offset + slot.codec.width();
            if last.is_some_and(|last| state[words.clone()] == last[words.clone()]) {
                continue;
            }
            if let (Codec::Function { range, partial, .. }, Some(table)) =
                (&slot.codec, &tables.tables[first + k])
                && slot.codec.escape(&state[words.clone()]) == Some(0)
            {
                let images = &state[slot.offset..slot.offset + slot.codec.width() - 1];
                let per = range.card();
                let pair = |d: usize, r: u64| table[(d as u64 * per + r) as usize].clone();
                *value = Value::Set(if *partial {
                    images
                        .iter()
                        .enumerate()
                        .filter_map(|(d, &word)| Some(pair(d, Codec::function_image(true, word)?)))
                        .collect()
                } else {
                    // One pair per domain element: an exact-size iterator,
                    // collected straight into the shared slice.
                    images
                        .iter()
                        .enumerate()
                        .map(|(d, &word)| pair(d, word))
                        .collect()
                });
                continue;
            }
            let bits = match &slot.codec {
                Codec::BitSet { element, .. } => Some((element, &state[words])),
                Codec::RangedSet { element, words: n } if state[slot.offset + n] == 0 => {
                    Some((element, &state[slot.offset..slot.offset + n]))
                }
                _ => None,
            };
            *value = match (bits, &tables.tables[first + k]) {
                (Some((element, bits)), Some(table)) => {
                    let mut items: Vec<Value> = codec::BitIter::new(bits)
                        .map(|i| table[i as usize].clone())
                        .collect();
                    if !element.index_order_is_value_order() {
                        items.sort();
                    }
                    Value::Set(items.into())
                }
                _ => self.decode_slot(slot, state),
            };
        }
    }

    /// Decodes the constants of `state` into `out`.
    pub fn decode_constants(&self, state: &[u64], out: &mut Vec<Value>) {
        out.clear();
        out.extend(
            self.slots[..self.constants]
                .iter()
                .map(|s| self.decode_slot(s, state)),
        );
    }

    /// Decodes the variables of `state` into `out`.
    pub fn decode_variables(&self, state: &[u64], out: &mut Vec<Value>) {
        out.clear();
        out.extend(
            self.slots[self.constants..]
                .iter()
                .map(|s| self.decode_slot(s, state)),
        );
    }

    /// Encodes one slot's value into its words `out` (exactly the codec's
    /// width). An integer beyond 64 bits in an `INTEGER` slot (one word)
    /// cannot be stored: [`StateLayout::pack_failure`] then says so.
    #[inline]
    pub fn encode_slot(
        &self,
        slot: &Slot,
        value: &Value,
        out: &mut [u64],
    ) -> Result<(), EncodeError> {
        slot.codec
            .encode(value, &self.interner, out)
            .inspect_err(|_| self.note_unstorable(slot, value))
    }

    /// Records why `value` does not fit `slot`, where the model (not a
    /// mismatch of types) is the reason.
    #[cold]
    #[inline(never)]
    fn note_unstorable(&self, slot: &Slot, value: &Value) {
        if let (Codec::Int, Value::Big(b)) = (&slot.codec, value) {
            let _ = self.overflow.set(format!(
                "not supported yet: storing the integer {b}, beyond 64 bits, in `{}` (an \
                 INTEGER constant or variable is one 64-bit word; larger integers are computed \
                 and compared, and stored inside sets, sequences and functions)",
                slot.name
            ));
        }
    }

    /// Decodes one slot of `state`.
    pub fn decode_slot(&self, slot: &Slot, state: &[u64]) -> Value {
        slot.codec.decode(
            &state[slot.offset..slot.offset + slot.codec.width()],
            &self.interner,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::value::Elem;
    use std::sync::Arc;

    #[test]
    fn constants_come_first_and_round_trip() {
        let types = MachineTypes::for_test(
            Some(("PID", 2)),
            vec![Type::Given(0)],
            vec![Type::Set(Box::new(Type::Given(0))), Type::Int],
        );
        let layout = StateLayout::new(&["c".into()], &["active".into(), "n".into()], &types);
        assert_eq!(layout.width(), 3);
        assert_eq!(layout.constant_words(), 1);
        let c = vec![Value::Elem(Elem { set: 0, index: 1 })];
        let v = vec![
            Value::Set(Arc::from(vec![Value::Elem(Elem { set: 0, index: 0 })])),
            Value::Int(4),
        ];
        let mut words = Vec::new();
        layout.encode(&c, &v, &mut words).unwrap();
        assert_eq!(words, vec![1, 1, 4]);
        // Packed: 1 bit for `c`, 2 for `active`, a whole word for `n`.
        assert_eq!(layout.packer().bits(), 1 + 2 + 64);
        assert_eq!(layout.packer().significant_bytes(), 9);
        let mut packed = Vec::new();
        layout.pack(&words, &mut packed).unwrap();
        assert_eq!(packed, vec![1 | 1 << 1 | 4 << 3, 0]);
        let mut unpacked = Vec::new();
        layout.unpack(&packed, &mut unpacked);
        assert_eq!(unpacked, words);
        let (mut c2, mut v2) = (Vec::new(), Vec::new());
        layout.decode_constants(&words, &mut c2);
        layout.decode_variables(&words, &mut v2);
        assert_eq!((c2, v2), (c, v));
    }

    #[test]
    fn decoding_with_element_tables_agrees_with_plain_decoding() {
        let pid = Type::Given(0);
        let rel = Type::Set(Box::new(Type::Pair(
            Box::new(pid.clone()),
            Box::new(Type::Bool),
        )));
        let types = MachineTypes::for_test(
            Some(("PID", 2)),
            Vec::new(),
            vec![rel, Type::Set(Box::new(pid)), Type::Int],
        );
        let names = ["f".into(), "s".into(), "n".into()];
        let layout = StateLayout::new(&[], &names, &types);
        let tables = layout.element_tables();
        let e = |index| Value::Elem(Elem { set: 0, index });
        let states: Vec<Vec<Value>> = vec![
            vec![Value::empty_set(), Value::empty_set(), Value::Int(0)],
            vec![
                Value::set_from_vec(vec![
                    Value::pair(e(0), Value::Bool(true)),
                    Value::pair(e(1), Value::Bool(false)),
                ]),
                Value::set_from_vec(vec![e(1)]),
                Value::Int(2),
            ],
            vec![
                Value::set_from_vec(vec![Value::pair(e(1), Value::Bool(true))]),
                Value::set_from_vec(vec![e(1)]),
                Value::Int(2),
            ],
        ];
        let (mut with, mut last): (Vec<Value>, Option<Vec<u64>>) = (Vec::new(), None);
        for v in &states {
            let mut words = Vec::new();
            layout.encode(&[], v, &mut words).unwrap();
            layout.decode_variables_with(&words, last.as_deref(), &mut with, &tables);
            let mut plain = Vec::new();
            layout.decode_variables(&words, &mut plain);
            assert_eq!(&with, v);
            assert_eq!(&plain, v);
            last = Some(words);
        }
    }

    /// Packing a state from another's packed form, re-packing only the
    /// words that differ, gives the state's own packing: for every pair of
    /// states, with a function slot (a non-function value takes its escape
    /// word), a ranged integer (in range, near and far outside) and a set.
    #[test]
    fn packing_from_another_state_gives_the_states_own_packing() {
        let pid = Type::Given(0);
        let function = Type::Set(Box::new(Type::Pair(
            Box::new(pid.clone()),
            Box::new(Type::Int),
        )));
        let types = MachineTypes::for_test(
            Some(("PID", 3)),
            Vec::new(),
            vec![function, Type::Int, Type::Set(Box::new(pid))],
        );
        let names = ["f".into(), "n".into(), "s".into()];
        let given = Finite::Given { set: 0, size: 3 };
        let layout = StateLayout::new(&[], &names, &types).with_invariant_ranges(
            &[None, Some((0, 3)), None],
            &[None, None, Some(given.clone())],
            &[
                Some((given, Finite::Range { lo: 0, size: 4 }, false)),
                None,
                None,
            ],
        );
        let e = |index| Value::Elem(Elem { set: 0, index });
        let f = |images: &[(u32, i64)]| {
            Value::set_from_vec(
                images
                    .iter()
                    .map(|&(d, r)| Value::pair(e(d), Value::Int(r)))
                    .collect(),
            )
        };
        let states: Vec<Vec<Value>> = vec![
            vec![
                f(&[(0, 0), (1, 0), (2, 0)]),
                Value::Int(0),
                Value::empty_set(),
            ],
            vec![
                f(&[(0, 3), (1, 0), (2, 2)]),
                Value::Int(3),
                Value::set_from_vec(vec![e(1)]),
            ],
            vec![
                f(&[(0, 3), (1, 0), (2, 2)]),
                Value::Int(5),
                Value::set_from_vec(vec![e(0), e(2)]),
            ],
            vec![f(&[(0, 1), (1, 1)]), Value::Int(-1), Value::empty_set()],
            vec![
                f(&[(0, 1), (0, 2), (1, 1), (2, 0)]),
                Value::Int(1000),
                Value::set_from_vec(vec![e(2)]),
            ],
            vec![
                f(&[(0, 0), (1, 0), (2, 0)]),
                Value::Int(-5000),
                Value::empty_set(),
            ],
        ];
        let packed_and_words: Vec<(Vec<u64>, Vec<u64>)> = states
            .iter()
            .map(|v| {
                let (mut words, mut packed) = (Vec::new(), Vec::new());
                layout.encode(&[], v, &mut words).unwrap();
                layout.pack(&words, &mut packed).unwrap();
                (words, packed)
            })
            .collect();
        for (base_words, base_packed) in &packed_and_words {
            for (words, packed) in &packed_and_words {
                let mut from = Vec::new();
                layout
                    .pack_from(base_words, base_packed, words, &mut from)
                    .unwrap();
                assert_eq!(&from, packed, "from {base_words:?} to {words:?}");
            }
        }
    }
}
