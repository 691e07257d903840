//! How one B value of a known type is stored in state words.
//!
//! Every slot (constant or variable) gets a [`Codec`] chosen from its type:
//! - `INTEGER` and `BOOL`: one word.
//! - Finite scalar types (given-set elements, pairs of finite types, small
//!   sets used as elements): one word holding the value's index in the
//!   type's carrier ([`Finite`]), mixed radix for pairs.
//! - Sets over a finite carrier of at most [`MAX_BITSET_ELEMENTS`] elements
//!   (sets of given-set elements, relations and functions between small
//!   sets): a bitset of `ceil(n / 64)` words, bit `i` for carrier element `i`.
//! - Sets whose elements involve integers, when the INVARIANT bounds those
//!   integers to ranges (`lv : PID --> 0..3`, `s <: 1..8`): a bitset over
//!   the carrier with the ranges ([`Finite::Range`]), and one more word for
//!   a value outside it ([`Codec::RangedSet`]).
//! - Functions the INVARIANT types (`pc : PID --> STATE`, `lv : PID -->
//!   0..3`, `victim : 1..3 +-> PID`, `f : ACTIVE --> STATE`, `g : PID * PID
//!   --> BOOL`, `h : PID --> POW(RES)`), when that is smaller: one word per
//!   element of the domain's carrier holding its image's index (+ 1 for a
//!   partial function or one over part of the carrier, 0 for no image), and
//!   an escape word ([`Codec::Function`]).
//! - Everything else (sets of integers, sequences, strings, ...): one word,
//!   the value's id in the [`Interner`].
//!
//! All of these are canonical: equal values give equal words, so states
//! compare and hash as plain words. Given-set elements stay explicit (their
//! index within their set), which symmetry reduction needs to permute them.

use super::interner::Interner;
use crate::frontends::b::types::Type;
use crate::frontends::b::value::{Elem, Value};
use std::sync::Arc;

/// Bits of an interned value's id in a packed state: ids are 64-bit
/// content hashes (see [`Interner`]).
pub const INTERNED_ID_BITS: u32 = 64;

/// Largest carrier stored as a bitset (larger sets are interned).
pub const MAX_BITSET_ELEMENTS: u64 = 1024;

/// A finite type with an indexing of its carrier `0..card`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finite {
    /// `BOOL`: FALSE = 0, TRUE = 1.
    Bool,
    /// A given set with `size` elements; index = element index.
    Given {
        /// The given set's number.
        set: u32,
        /// Its number of elements.
        size: u64,
    },
    /// `A * B`: index = index(a) * card(B) + index(b).
    Pair(Box<Finite>, Box<Finite>),
    /// `POW(T)` of a carrier of at most 63 elements: index = bitmask.
    Set(Box<Finite>),
    /// The integers `lo..lo + size - 1` (an INVARIANT's range, never a
    /// type's carrier): index = value - lo.
    Range {
        /// Lowest value.
        lo: i64,
        /// Number of values.
        size: u64,
    },
}

impl Finite {
    /// The finite view of `ty`, if it is finite and its carrier fits in a
    /// `u64` index. `set_sizes[s]` is the size of given set `s`.
    pub fn of(ty: &Type, set_sizes: &[u64]) -> Option<Finite> {
        let f = match ty {
            Type::Bool => Finite::Bool,
            Type::Given(s) => Finite::Given {
                set: *s,
                size: *set_sizes.get(*s as usize)?,
            },
            Type::Pair(a, b) => {
                let (a, b) = (Finite::of(a, set_sizes)?, Finite::of(b, set_sizes)?);
                a.card().checked_mul(b.card())?;
                Finite::Pair(Box::new(a), Box::new(b))
            }
            Type::Set(t) => {
                let t = Finite::of(t, set_sizes)?;
                if t.card() > 63 {
                    return None;
                }
                Finite::Set(Box::new(t))
            }
            Type::Int | Type::String | Type::Free(_) => return None,
        };
        Some(f)
    }

    /// Number of values of this type. Always inlined, products and power
    /// sets out of line (a function slot's width asks its domain's on
    /// every decode; a plain `#[inline]` was refused for the recursion).
    #[inline(always)]
    pub fn card(&self) -> u64 {
        match self {
            Finite::Bool => 2,
            Finite::Given { size, .. } => *size,
            Finite::Range { size, .. } => *size,
            Finite::Pair(a, b) => Self::product_card(a, b),
            Finite::Set(t) => Self::power_card(t),
        }
    }

    /// [`Finite::card`] of `A * B`, out of line.
    fn product_card(a: &Finite, b: &Finite) -> u64 {
        a.card() * b.card()
    }

    /// [`Finite::card`] of `POW(T)`, out of line.
    fn power_card(t: &Finite) -> u64 {
        1u64 << t.card()
    }

    /// Whether index order is the order of [`Value`]'s `Ord` (false when
    /// sets occur inside: bitmask order is not lexicographic order).
    pub fn index_order_is_value_order(&self) -> bool {
        match self {
            Finite::Bool | Finite::Given { .. } | Finite::Range { .. } => true,
            Finite::Pair(a, b) => a.index_order_is_value_order() && b.index_order_is_value_order(),
            Finite::Set(_) => false,
        }
    }

    /// Index of `value` in the carrier, or `None` if it is not of this type.
    #[inline]
    pub fn index(&self, value: &Value) -> Option<u64> {
        // Hot path (every element of every relation of every successor is
        // encoded here): scalars and pairs of scalars without recursion.
        match (self, value) {
            (Finite::Pair(a, b), Value::Pair(p)) => {
                if let (Some(bc), Some(i), Some(j)) =
                    (b.scalar_card(), a.scalar_index(&p.0), b.scalar_index(&p.1))
                {
                    return Some(i? * bc + j?);
                }
            }
            (Finite::Bool | Finite::Given { .. } | Finite::Range { .. }, v) => {
                return self.scalar_index(v)?;
            }
            _ => {}
        }
        self.index_general(value)
    }

    /// The cardinality of a scalar carrier (`BOOL`, a given set, a
    /// range), without recursion; `None` for pairs and sets.
    #[inline]
    fn scalar_card(&self) -> Option<u64> {
        match self {
            Finite::Bool => Some(2),
            Finite::Given { size, .. } | Finite::Range { size, .. } => Some(*size),
            _ => None,
        }
    }

    /// [`Finite::index`] of a scalar carrier: `None` for pairs and sets
    /// (use the general case), `Some(None)` if `value` is not in it.
    #[inline]
    fn scalar_index(&self, value: &Value) -> Option<Option<u64>> {
        match (self, value) {
            (Finite::Bool, Value::Bool(b)) => Some(Some(*b as u64)),
            (Finite::Given { set, size }, Value::Elem(e)) => {
                Some((e.set == *set && (e.index as u64) < *size).then_some(e.index as u64))
            }
            (Finite::Range { lo, size }, Value::Int(i)) => {
                let offset = i.wrapping_sub(*lo) as u64;
                Some((offset < *size).then_some(offset))
            }
            (Finite::Bool | Finite::Given { .. } | Finite::Range { .. }, _) => Some(None),
            _ => None,
        }
    }

    /// [`Finite::index`] for any carrier, by recursion on its structure.
    fn index_general(&self, value: &Value) -> Option<u64> {
        match (self, value) {
            (Finite::Bool, Value::Bool(b)) => Some(*b as u64),
            (Finite::Given { set, size }, Value::Elem(e))
                if e.set == *set && (e.index as u64) < *size =>
            {
                Some(e.index as u64)
            }
            (Finite::Pair(a, b), Value::Pair(p)) => {
                Some(a.index(&p.0)? * b.card() + b.index(&p.1)?)
            }
            (Finite::Range { .. }, v) => self.scalar_index(v)?,
            (Finite::Set(t), Value::Set(items)) => {
                let mut mask = 0u64;
                for item in items.iter() {
                    mask |= 1 << t.index(item)?;
                }
                Some(mask)
            }
            _ => None,
        }
    }

    /// The value with index `index` (which must be below [`Finite::card`]).
    #[inline]
    pub fn value(&self, index: u64) -> Value {
        // Hot path (decoding every state): pairs of scalars without recursion.
        if let Finite::Pair(a, b) = self
            && let Some(bc) = b.scalar_card()
            && let (Some(x), Some(y)) = (a.scalar_value(index / bc), b.scalar_value(index % bc))
        {
            return Value::Pair(Arc::new((x, y)));
        }
        self.value_general(index)
    }

    /// [`Finite::value`] of a scalar carrier; `None` for pairs and sets.
    #[inline]
    fn scalar_value(&self, index: u64) -> Option<Value> {
        match self {
            Finite::Bool => Some(Value::Bool(index != 0)),
            Finite::Given { set, .. } => Some(Value::Elem(Elem {
                set: *set,
                index: index as u32,
            })),
            Finite::Range { lo, .. } => Some(Value::Int(lo.wrapping_add(index as i64))),
            _ => None,
        }
    }

    /// [`Finite::value`] for any carrier, by recursion on its structure.
    fn value_general(&self, index: u64) -> Value {
        match self {
            Finite::Bool => Value::Bool(index != 0),
            Finite::Given { set, .. } => Value::Elem(Elem {
                set: *set,
                index: index as u32,
            }),
            Finite::Pair(a, b) => {
                let bc = b.card();
                Value::Pair(Arc::new((a.value(index / bc), b.value(index % bc))))
            }
            Finite::Range { lo, .. } => Value::Int(lo.wrapping_add(index as i64)),
            Finite::Set(t) => {
                let mut items: Vec<Value> = BitIter::new(&[index]).map(|i| t.value(i)).collect();
                if !t.index_order_is_value_order() {
                    items.sort();
                }
                Value::Set(Arc::from(items))
            }
        }
    }
}

/// How a slot's value is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Codec {
    /// One word, two's complement.
    Int,
    /// One word, the index in a finite carrier.
    Scalar(Finite),
    /// `words` words of bits over a finite carrier.
    BitSet {
        /// The carrier of the set's elements.
        element: Finite,
        /// Number of words.
        words: usize,
    },
    /// One word, an [`Interner`] id.
    Interned,
    /// A total (or partial) function from the carrier `domain` into the
    /// carrier `range`, as the INVARIANT types it: word `i` holds the index
    /// of the image of domain value `i`, then an escape word as in
    /// [`Codec::RangedSet`] for a value that is not such a function (a
    /// state violating the invariant).
    Function {
        /// The carrier the domain is part of (`BOOL`, a given set, a
        /// range, or pairs of them: one whose index order is value order).
        domain: Finite,
        /// The carrier of the images.
        range: Finite,
        /// A partial function (`+->`, ...): word `i` holds the index of the
        /// image + 1, and 0 when domain value `i` has no image.
        partial: bool,
    },
    /// A set over a carrier an INVARIANT bounds ([`Finite::Range`] inside):
    /// `words` words of bits as [`Codec::BitSet`], then an escape word, 0
    /// while the value fits the carrier; a value outside it (which
    /// violates the invariant) has zero bits and its [`Interner`] id + 1
    /// in the escape word.
    RangedSet {
        /// The carrier of the set's elements.
        element: Finite,
        /// Number of bitset words (the escape word comes after them).
        words: usize,
    },
}

/// A value did not fit the codec chosen from its inferred type: a bug in
/// type inference or the interpreter, reported instead of panicking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError;

impl Codec {
    /// The codec for values of type `ty`.
    pub fn for_type(ty: &Type, set_sizes: &[u64]) -> Codec {
        match ty {
            Type::Int => Codec::Int,
            Type::Set(t) => match Finite::of(t, set_sizes) {
                Some(element) if element.card() <= MAX_BITSET_ELEMENTS => {
                    let words = element.card().div_ceil(64).max(1) as usize;
                    Codec::BitSet { element, words }
                }
                _ => Codec::Interned,
            },
            _ => match Finite::of(ty, set_sizes) {
                Some(f) => Codec::Scalar(f),
                None => Codec::Interned,
            },
        }
    }

    /// Number of words this codec uses.
    #[inline]
    pub fn width(&self) -> usize {
        match self {
            Codec::BitSet { words, .. } => *words,
            Codec::RangedSet { words, .. } => *words + 1,
            Codec::Function { domain, .. } => domain.card() as usize + 1,
            _ => 1,
        }
    }

    /// The bitset codec of sets over `element` that an INVARIANT bounds.
    pub fn ranged_set(element: Finite) -> Codec {
        let words = element.card().div_ceil(64).max(1) as usize;
        Codec::RangedSet { element, words }
    }

    /// The image index a [`Codec::Function`]'s word holds (`None`: a
    /// partial function's "no image", word 0; otherwise image + 1).
    #[inline]
    pub fn function_image(partial: bool, word: u64) -> Option<u64> {
        word.checked_sub(partial as u64)
    }

    /// The [`Codec::Function`] word for image index `image` (`None`: no image).
    #[inline]
    pub fn function_word(partial: bool, image: Option<u64>) -> u64 {
        image.map_or(0, |i| i + partial as u64)
    }

    /// The bits each of this codec's words needs in a packed state: an
    /// index below the carrier's size, a bit per carrier element, an id
    /// below 2^32, or a whole word for an integer and for a ranged set's
    /// escape word (the layout packs those to their ranges).
    pub fn leaf_bits(&self) -> Vec<u32> {
        let bitset = |element: &Finite, words: usize| {
            let card = element.card();
            (0..words as u64).map(move |k| card.saturating_sub(64 * k).min(64) as u32)
        };
        match self {
            Codec::Int => vec![64],
            Codec::Scalar(f) => vec![crate::model::bits_for(f.card().saturating_sub(1))],
            Codec::BitSet { element, words } => bitset(element, *words).collect(),
            Codec::RangedSet { element, words } => bitset(element, *words).chain([64]).collect(),
            Codec::Function {
                domain,
                range,
                partial,
            } => {
                let image =
                    crate::model::bits_for((range.card() + *partial as u64).saturating_sub(1));
                (0..domain.card()).map(|_| image).chain([64]).collect()
            }
            Codec::Interned => vec![INTERNED_ID_BITS],
        }
    }

    /// Writes the images of the total function `items` (sorted pairs)
    /// from `domain` into `range` into `out`, or fails if it is not one.
    /// A partial function writes image index + 1, and 0 where there is none.
    #[inline]
    fn encode_function(
        domain: &Finite,
        range: &Finite,
        partial: bool,
        items: &[Value],
        out: &mut [u64],
    ) -> Result<(), EncodeError> {
        let (d, r) = (Carrier::of(domain), Carrier::of(range));
        if partial {
            out.fill(0);
            // Sorted pairs: a domain value twice (not a function) comes
            // out as an index that does not increase.
            let mut next = 0;
            for item in items {
                let Value::Pair(p) = item else {
                    return Err(EncodeError);
                };
                let k = d.index(&p.0).ok_or(EncodeError)?;
                if k < next {
                    return Err(EncodeError);
                }
                out[k as usize] =
                    Self::function_word(true, Some(r.index(&p.1).ok_or(EncodeError)?));
                next = k + 1;
            }
            return Ok(());
        }
        if items.len() as u64 != domain.card() {
            return Err(EncodeError);
        }
        // Sorted pairs of a total function: the k-th has the k-th domain
        // value (index order is value order for scalar carriers).
        for (k, item) in items.iter().enumerate() {
            let Value::Pair(p) = item else {
                return Err(EncodeError);
            };
            if d.index(&p.0) != Some(k as u64) {
                return Err(EncodeError);
            }
            out[k] = r.index(&p.1).ok_or(EncodeError)?;
        }
        Ok(())
    }

    /// Writes the bits of the set `items` over `element` into `out`, or
    /// fails if an item is not in the carrier.
    #[inline]
    fn encode_bits(element: &Finite, items: &[Value], out: &mut [u64]) -> Result<(), EncodeError> {
        out.fill(0);
        if let Finite::Pair(a, b) = element
            && let (Some(a), Some(b)) = (Scalar::of(a), Scalar::of(b))
        {
            // Hot path (relations and functions between given sets, BOOL
            // and ranges, re-encoded on every successor that changes them):
            // the two carriers are read once, not per pair.
            for item in items {
                let Value::Pair(p) = item else {
                    return Err(EncodeError);
                };
                let i = a.index(&p.0).ok_or(EncodeError)? * b.size
                    + b.index(&p.1).ok_or(EncodeError)?;
                out[(i / 64) as usize] |= 1 << (i % 64);
            }
            return Ok(());
        }
        for item in items {
            let i = element.index(item).ok_or(EncodeError)?;
            out[(i / 64) as usize] |= 1 << (i % 64);
        }
        Ok(())
    }

    /// The set of the bits in `words` over `element`.
    fn decode_bits(element: &Finite, words: &[u64]) -> Value {
        let mut items: Vec<Value> = BitIter::new(words).map(|i| element.value(i)).collect();
        if !element.index_order_is_value_order() {
            items.sort();
        }
        Value::Set(Arc::from(items))
    }

    /// Whether the last word is an escape word (see [`Codec::escape`]).
    pub fn has_escape_word(&self) -> bool {
        matches!(self, Codec::RangedSet { .. } | Codec::Function { .. })
    }

    /// The escape word of a ranged set or a function (`None` for other
    /// codecs): 0 while its value fits the bitset or the images.
    #[inline]
    pub fn escape(&self, words: &[u64]) -> Option<u64> {
        match self {
            Codec::RangedSet { words: n, .. } => Some(words[*n]),
            Codec::Function { domain, .. } => Some(words[domain.card() as usize]),
            _ => None,
        }
    }

    /// Writes `value` into `out` (exactly [`Codec::width`] words).
    pub fn encode(
        &self,
        value: &Value,
        interner: &Interner,
        out: &mut [u64],
    ) -> Result<(), EncodeError> {
        match (self, value) {
            (Codec::Int, Value::Int(i)) => out[0] = *i as u64,
            (Codec::Scalar(f), v) => out[0] = f.index(v).ok_or(EncodeError)?,
            (Codec::BitSet { element, .. }, Value::Set(items)) => {
                Self::encode_bits(element, items, out)?;
            }
            (Codec::RangedSet { element, .. }, v) => {
                Self::encode_or_escape(v, interner, out, |items, bits| {
                    Self::encode_bits(element, items, bits)
                })?;
            }
            (
                Codec::Function {
                    domain,
                    range,
                    partial,
                },
                v,
            ) => {
                Self::encode_or_escape(v, interner, out, |items, images| {
                    Self::encode_function(domain, range, *partial, items, images)
                })?;
            }
            (Codec::Interned, v) => out[0] = Self::intern(v, interner)?,
            _ => return Err(EncodeError),
        }
        Ok(())
    }

    /// The interned id of `value` (a value whose id another value has is
    /// an encoding error, never a shared word; the interner records it).
    fn intern(value: &Value, interner: &Interner) -> Result<u64, EncodeError> {
        interner.intern(value).map_err(|_| EncodeError)
    }

    /// Writes a set `value` with `fits` into all of `out` but its last
    /// word, the escape word, which it zeroes; a value `fits` refuses has
    /// those words zeroed and its interned id + 1 in the escape word.
    fn encode_or_escape(
        value: &Value,
        interner: &Interner,
        out: &mut [u64],
        fits: impl FnOnce(&[Value], &mut [u64]) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        let (words, escape) = out.split_at_mut(out.len() - 1);
        let fitted = match value {
            Value::Set(items) => fits(items, words).is_ok(),
            _ => false,
        };
        escape[0] = 0;
        if !fitted {
            words.fill(0);
            escape[0] = Self::intern(value, interner)? + 1;
        }
        Ok(())
    }

    /// Reads the value stored in `words` (exactly [`Codec::width`] words).
    pub fn decode(&self, words: &[u64], interner: &Interner) -> Value {
        match self {
            Codec::Int => Value::Int(words[0] as i64),
            Codec::Scalar(f) => f.value(words[0]),
            Codec::BitSet { element, .. } => Self::decode_bits(element, words),
            Codec::RangedSet { element, words: n } => match words[*n] {
                0 => Self::decode_bits(element, &words[..*n]),
                escape => interner.value(escape - 1),
            },
            Codec::Function {
                domain,
                range,
                partial,
            } => {
                let n = domain.card() as usize;
                match words[n] {
                    0 => Value::Set(Arc::from(
                        words[..n]
                            .iter()
                            .enumerate()
                            .filter_map(|(k, &word)| {
                                let image = Self::function_image(*partial, word)?;
                                Some(Value::Pair(Arc::new((
                                    domain.value(k as u64),
                                    range.value(image),
                                ))))
                            })
                            .collect::<Vec<_>>(),
                    )),
                    escape => interner.value(escape - 1),
                }
            }
            Codec::Interned => interner.value(words[0]),
        }
    }
}

/// A function's domain or range for indexing: a scalar carrier unpacked
/// (the common case, without recursion), or any other carrier.
#[derive(Clone, Copy)]
enum Carrier<'a> {
    Scalar(Scalar),
    Other(&'a Finite),
}

impl<'a> Carrier<'a> {
    #[inline]
    fn of(f: &'a Finite) -> Self {
        Scalar::of(f).map_or(Carrier::Other(f), Carrier::Scalar)
    }

    /// [`Finite::index`] of `v`.
    #[inline]
    fn index(self, v: &Value) -> Option<u64> {
        match self {
            Carrier::Scalar(s) => s.index(v),
            Carrier::Other(f) => f.index(v),
        }
    }
}

/// A scalar carrier (`BOOL`, a given set or a range) unpacked for
/// indexing.
#[derive(Clone, Copy)]
struct Scalar {
    kind: ScalarKind,
    /// Number of values.
    size: u64,
}

#[derive(Clone, Copy)]
enum ScalarKind {
    Bool,
    Given(u32),
    /// A range from this lowest value.
    Range(i64),
}

impl Scalar {
    /// The scalar view of `f`, if it is `BOOL` or a given set.
    #[inline]
    fn of(f: &Finite) -> Option<Scalar> {
        let (kind, size) = match f {
            Finite::Bool => (ScalarKind::Bool, 2),
            Finite::Given { set, size } => (ScalarKind::Given(*set), *size),
            Finite::Range { lo, size } => (ScalarKind::Range(*lo), *size),
            _ => return None,
        };
        Some(Scalar { kind, size })
    }

    /// [`Finite::index`] of `v` in this carrier.
    #[inline]
    fn index(self, v: &Value) -> Option<u64> {
        match (self.kind, v) {
            (ScalarKind::Bool, Value::Bool(b)) => Some(*b as u64),
            (ScalarKind::Given(set), Value::Elem(e))
                if e.set == set && (e.index as u64) < self.size =>
            {
                Some(e.index as u64)
            }
            (ScalarKind::Range(lo), Value::Int(i)) => {
                let offset = i.wrapping_sub(lo) as u64;
                (offset < self.size).then_some(offset)
            }
            _ => None,
        }
    }
}

/// Iterates the indices of set bits, lowest first.
pub(super) struct BitIter<'a> {
    words: &'a [u64],
    word: usize,
    bits: u64,
}

impl<'a> BitIter<'a> {
    pub(super) fn new(words: &'a [u64]) -> Self {
        BitIter {
            words,
            word: 0,
            bits: words.first().copied().unwrap_or(0),
        }
    }
}

impl Iterator for BitIter<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let bit = self.bits.trailing_zeros() as u64;
        self.bits &= self.bits - 1;
        Some(self.word as u64 * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elem(set: u32, index: u32) -> Value {
        Value::Elem(Elem { set, index })
    }
    fn set(mut items: Vec<Value>) -> Value {
        items.sort();
        items.dedup();
        Value::Set(Arc::from(items))
    }
    fn pair(a: Value, b: Value) -> Value {
        Value::Pair(Arc::new((a, b)))
    }
    fn round_trip(ty: &Type, v: &Value) -> Vec<u64> {
        let sizes = [3, 70];
        let codec = Codec::for_type(ty, &sizes);
        let interner = Interner::new();
        let mut words = vec![0; codec.width()];
        codec.encode(v, &interner, &mut words).unwrap();
        assert_eq!(&codec.decode(&words, &interner), v, "{codec:?}");
        words
    }

    #[test]
    fn scalars_sets_and_relations_round_trip() {
        let pid = Type::Given(0);
        round_trip(&Type::Int, &Value::Int(-7));
        round_trip(&Type::Bool, &Value::Bool(true));
        round_trip(&pid, &elem(0, 2));
        let pow = Type::Set(Box::new(pid.clone()));
        assert_eq!(
            round_trip(&pow, &set(vec![elem(0, 0), elem(0, 2)])),
            vec![0b101]
        );
        round_trip(&pow, &set(vec![]));
        let rel = Type::Set(Box::new(Type::Pair(
            Box::new(pid.clone()),
            Box::new(Type::Bool),
        )));
        round_trip(
            &rel,
            &set(vec![
                pair(elem(0, 1), Value::Bool(false)),
                pair(elem(0, 2), Value::Bool(true)),
            ]),
        );
        // A set over a 70-element carrier needs two words.
        let big = Type::Set(Box::new(Type::Given(1)));
        assert_eq!(
            round_trip(&big, &set(vec![elem(1, 0), elem(1, 69)])),
            vec![1, 1 << 5]
        );
        // Sets of integers are interned.
        round_trip(
            &Type::Set(Box::new(Type::Int)),
            &set(vec![Value::Int(3), Value::Int(-1)]),
        );
    }

    #[test]
    fn partial_functions_store_image_plus_one() {
        let pid = Finite::Given { set: 0, size: 3 };
        let codec = Codec::Function {
            domain: Finite::Range { lo: 1, size: 2 },
            range: pid,
            partial: true,
        };
        // Images 0..2 + 1 and "none" fit two bits each, then the escape word.
        assert_eq!(codec.leaf_bits(), vec![2, 2, 64]);
        let interner = Interner::new();
        let mut words = vec![0; codec.width()];
        let cases = [
            (set(vec![]), vec![0, 0, 0]),
            (set(vec![pair(Value::Int(2), elem(0, 0))]), vec![0, 1, 0]),
            (
                set(vec![
                    pair(Value::Int(1), elem(0, 2)),
                    pair(Value::Int(2), elem(0, 1)),
                ]),
                vec![3, 2, 0],
            ),
        ];
        for (v, expected) in cases {
            codec.encode(&v, &interner, &mut words).unwrap();
            assert_eq!(words, expected);
            assert_eq!(codec.decode(&words, &interner), v);
        }
        // Not a function (1 has two images), or outside the domain: escaped.
        for v in [
            set(vec![
                pair(Value::Int(1), elem(0, 0)),
                pair(Value::Int(1), elem(0, 1)),
            ]),
            set(vec![pair(Value::Int(3), elem(0, 0))]),
        ] {
            codec.encode(&v, &interner, &mut words).unwrap();
            assert_eq!(&words[..2], &[0, 0]);
            assert_ne!(words[2], 0);
            assert_eq!(codec.decode(&words, &interner), v);
        }
    }

    #[test]
    fn functions_over_pairs_and_with_sets_as_images_round_trip() {
        let p = || Finite::Given { set: 0, size: 2 };
        // knows : P * P --> BOOL: one image per pair, in index order.
        let knows = Codec::Function {
            domain: Finite::Pair(Box::new(p()), Box::new(p())),
            range: Finite::Bool,
            partial: false,
        };
        assert_eq!(knows.leaf_bits(), vec![1, 1, 1, 1, 64]);
        // held : P --> POW(R) with R of 3: a 3-bit mask per process.
        let held = Codec::Function {
            domain: p(),
            range: Finite::Set(Box::new(Finite::Given { set: 1, size: 3 })),
            partial: false,
        };
        assert_eq!(held.leaf_bits(), vec![3, 3, 64]);
        let interner = Interner::new();
        let pp = |a, b| pair(elem(0, a), elem(0, b));
        let cases = [
            (
                &knows,
                set(vec![
                    pair(pp(0, 0), Value::Bool(false)),
                    pair(pp(0, 1), Value::Bool(true)),
                    pair(pp(1, 0), Value::Bool(false)),
                    pair(pp(1, 1), Value::Bool(true)),
                ]),
                vec![0, 1, 0, 1, 0],
            ),
            (
                &held,
                set(vec![
                    pair(elem(0, 0), set(vec![elem(1, 0), elem(1, 2)])),
                    pair(elem(0, 1), set(vec![])),
                ]),
                vec![0b101, 0, 0],
            ),
        ];
        for (codec, v, expected) in cases {
            let mut words = vec![0; codec.width()];
            codec.encode(&v, &interner, &mut words).unwrap();
            assert_eq!(words, expected);
            assert_eq!(codec.decode(&words, &interner), v);
        }
        // Not total (no image for p2): escaped, and decoded as it was.
        let v = set(vec![pair(elem(0, 0), set(vec![]))]);
        let mut words = vec![0; held.width()];
        held.encode(&v, &interner, &mut words).unwrap();
        assert_ne!(words[2], 0);
        assert_eq!(held.decode(&words, &interner), v);
    }

    #[test]
    fn sets_of_sets_decode_in_value_order() {
        let pid = Type::Given(0);
        let ty = Type::Set(Box::new(Type::Set(Box::new(pid))));
        let v = set(vec![
            set(vec![elem(0, 1)]),
            set(vec![elem(0, 0), elem(0, 1)]),
            set(vec![]),
        ]);
        round_trip(&ty, &v);
    }

    #[test]
    fn fast_paths_agree_with_the_general_indexing() {
        let sizes = [3, 2];
        let pid = Type::Given(0);
        for ty in [
            Type::Pair(Box::new(pid.clone()), Box::new(Type::Given(1))),
            Type::Pair(Box::new(Type::Bool), Box::new(pid.clone())),
            Type::Pair(
                Box::new(Type::Pair(Box::new(pid.clone()), Box::new(Type::Bool))),
                Box::new(pid.clone()),
            ),
        ] {
            let f = Finite::of(&ty, &sizes).unwrap();
            for i in 0..f.card() {
                let v = f.value(i);
                assert_eq!(v, f.value_general(i));
                assert_eq!(f.index(&v), Some(i));
                assert_eq!(f.index_general(&v), Some(i));
            }
            // Values of another type are rejected by the fast path too.
            assert_eq!(f.index(&pair(elem(1, 0), elem(1, 0))), None);
            assert_eq!(f.index(&pair(elem(0, 5), Value::Bool(true))), None);
        }
    }

    #[test]
    fn encoding_is_canonical() {
        let ty = Type::Set(Box::new(Type::Given(0)));
        let a = round_trip(&ty, &set(vec![elem(0, 2), elem(0, 1)]));
        let b = round_trip(&ty, &set(vec![elem(0, 1), elem(0, 2)]));
        assert_eq!(a, b);
    }

    #[test]
    fn ill_typed_values_are_reported_not_panicking() {
        let codec = Codec::for_type(&Type::Given(0), &[3]);
        let mut w = [0];
        assert_eq!(
            codec.encode(&Value::Int(1), &Interner::new(), &mut w),
            Err(EncodeError)
        );
        assert_eq!(
            codec.encode(&elem(0, 9), &Interner::new(), &mut w),
            Err(EncodeError)
        );
        // The relation fast path rejects what the general one rejects.
        let rel = Type::Set(Box::new(Type::Pair(
            Box::new(Type::Given(0)),
            Box::new(Type::Bool),
        )));
        let codec = Codec::for_type(&rel, &[3]);
        for bad in [
            set(vec![pair(elem(0, 3), Value::Bool(true))]),
            set(vec![pair(elem(1, 0), Value::Bool(true))]),
            set(vec![pair(Value::Bool(true), elem(0, 0))]),
            set(vec![elem(0, 0)]),
        ] {
            assert_eq!(
                codec.encode(&bad, &Interner::new(), &mut w),
                Err(EncodeError)
            );
        }
    }
}
