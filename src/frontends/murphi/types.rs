//! Murphi types as the compiler resolves them, and how their values are
//! laid out in words: every scalar leaf is one word, `0` meaning
//! *undefined* (Murphi's undefined values are part of the state) and
//! `v - lo + 1` a value `v` of a type whose least value is `lo`.

use std::sync::Arc;

/// A resolved type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `boolean`: 0 = false, 1 = true.
    Bool,
    /// `lo .. hi`.
    Range(i64, i64),
    /// An enumeration (its number and its names; values are ordinals).
    Enum(usize, Arc<[String]>),
    /// A scalarset of `size` elements; `domain` numbers the permutable
    /// domains of the program (values are element indices).
    Scalarset { domain: usize, size: u64 },
    /// An integer without bounds (quantifier variables `i := a to b`).
    Int,
    /// `union {A, B}` of enumerations and scalarsets (number `id`): the
    /// values of member `k` are `offset_k .. offset_k + card_k`.
    Union(usize, Vec<(Ty, u64)>),
    /// `array [index] of elem`.
    Array(Box<Ty>, Box<Ty>),
    /// `record ... end`: fields with their word offsets.
    Record(Vec<(String, Ty, usize)>),
    /// `multiset [max] of elem`: `max` slots, each a presence word (0
    /// empty, 1 present) then an element. The slots' order means nothing:
    /// after every rule the present elements are sorted to the front
    /// ([`normalise_multisets`]), so each multiset value has one layout.
    Multiset(u64, Box<Ty>),
}

/// The kind of a scalar value, for type checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `true`/`false`.
    Bool,
    /// An integer (of any range).
    Int,
    /// An element of enumeration `n`.
    Enum(usize),
    /// An element of scalarset domain `n`.
    Scalarset(usize),
    /// A value of union `n`.
    Union(usize),
}

/// The least value of `Ty::Int` leaves (so that every integer in reach
/// encodes to a non-zero word).
const INT_LO: i64 = i64::MIN / 2;

impl Ty {
    /// Number of words a value takes.
    pub fn width(&self) -> usize {
        match self {
            Ty::Array(index, elem) => index.card() as usize * elem.width(),
            Ty::Record(fields) => fields.iter().map(|(_, t, _)| t.width()).sum(),
            Ty::Multiset(max, elem) => *max as usize * (1 + elem.width()),
            _ => 1,
        }
    }

    /// Number of values of a scalar type (0 for `Int` and compound types).
    pub fn card(&self) -> u64 {
        match self {
            Ty::Bool => 2,
            // Wide ranges (up to the whole of i64) count without overflow.
            Ty::Range(lo, hi) => {
                (i128::from(*hi) - i128::from(*lo) + 1).clamp(0, u64::MAX as i128) as u64
            }
            Ty::Enum(_, names) => names.len() as u64,
            Ty::Scalarset { size, .. } => *size,
            Ty::Union(_, members) => members.iter().map(|(t, _)| t.card()).sum(),
            _ => 0,
        }
    }

    /// The least value (what word 1 encodes).
    pub fn lo(&self) -> i64 {
        match self {
            Ty::Range(lo, _) => *lo,
            Ty::Int => INT_LO,
            _ => 0,
        }
    }

    /// Whether it is a scalar (one word).
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Ty::Array(..) | Ty::Record(_) | Ty::Multiset(..))
    }

    /// The kind of a scalar type.
    pub fn kind(&self) -> Option<Kind> {
        match self {
            Ty::Bool => Some(Kind::Bool),
            Ty::Range(..) | Ty::Int => Some(Kind::Int),
            Ty::Enum(id, _) => Some(Kind::Enum(*id)),
            Ty::Scalarset { domain, .. } => Some(Kind::Scalarset(*domain)),
            Ty::Union(id, _) => Some(Kind::Union(*id)),
            _ => None,
        }
    }

    /// Whether `v` is a value of this scalar type.
    pub fn contains(&self, v: i64) -> bool {
        match self {
            Ty::Int => true,
            Ty::Range(lo, hi) => (*lo..=*hi).contains(&v),
            _ => v >= 0 && (v as u64) < self.card(),
        }
    }

    /// The word of value `v`.
    #[inline]
    pub fn encode(&self, v: i64) -> u64 {
        v.wrapping_sub(self.lo()).wrapping_add(1) as u64
    }

    /// The value of a defined word.
    #[inline]
    pub fn decode(&self, word: u64) -> i64 {
        (word as i64).wrapping_sub(1).wrapping_add(self.lo())
    }

    /// The position of value `v` among the values of an index type.
    #[inline]
    pub fn position(&self, v: i64) -> Option<usize> {
        self.contains(v).then(|| (v - self.lo()) as usize)
    }

    /// Prints value `v` of this scalar type.
    pub fn show(&self, v: i64) -> String {
        match self {
            Ty::Bool => (if v != 0 { "true" } else { "false" }).to_string(),
            Ty::Enum(_, names) => names
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| v.to_string()),
            Ty::Scalarset { .. } => format!("{}", v + 1),
            Ty::Union(_, members) => members
                .iter()
                .find(|(t, off)| v >= *off as i64 && v < (*off + t.card()) as i64)
                .map_or_else(|| v.to_string(), |(t, off)| t.show(v - *off as i64)),
            _ => v.to_string(),
        }
    }

    /// Prints the value stored at `words` (one value of this type).
    pub fn show_words(&self, words: &[u64]) -> String {
        match self {
            Ty::Array(index, elem) => {
                let w = elem.width();
                let items: Vec<String> = (0..index.card())
                    .map(|i| {
                        let k = i as usize * w;
                        format!(
                            "{}: {}",
                            index.show(i as i64 + index.lo()),
                            elem.show_words(&words[k..k + w])
                        )
                    })
                    .collect();
                format!("[{}]", items.join(", "))
            }
            Ty::Record(fields) => {
                let items: Vec<String> = fields
                    .iter()
                    .map(|(n, t, off)| {
                        format!("{n}: {}", t.show_words(&words[*off..*off + t.width()]))
                    })
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
            Ty::Multiset(_, elem) => {
                let items: Vec<String> = words
                    .chunks(1 + elem.width())
                    .filter(|slot| slot[0] != 0)
                    .map(|slot| elem.show_words(&slot[1..]))
                    .collect();
                format!("{{|{}|}}", items.join(", "))
            }
            _ if words[0] == 0 => "undefined".into(),
            _ => self.show(self.decode(words[0])),
        }
    }
}

/// Where the multisets of values of type `ty` stored at word `at` are:
/// (first word, slots, words per slot) of each, in word order.
pub fn multisets_in(ty: &Ty, at: usize, out: &mut Vec<(usize, usize, usize)>) {
    match ty {
        Ty::Array(index, elem) if elem.has_multiset() => {
            let w = elem.width();
            for i in 0..index.card() as usize {
                multisets_in(elem, at + i * w, out);
            }
        }
        Ty::Record(fields) => {
            for (_, t, off) in fields {
                multisets_in(t, at + off, out);
            }
        }
        Ty::Multiset(max, elem) => out.push((at, *max as usize, 1 + elem.width())),
        _ => {}
    }
}

impl Ty {
    /// Whether values of this type contain a multiset.
    pub fn has_multiset(&self) -> bool {
        match self {
            Ty::Array(_, elem) => elem.has_multiset(),
            Ty::Record(fields) => fields.iter().any(|(_, t, _)| t.has_multiset()),
            Ty::Multiset(..) => true,
            _ => false,
        }
    }
}

/// Sorts the slots of each multiset `(first word, slots, words per slot)`
/// of `words`: present elements first, in increasing order of their words,
/// then the empty (all-zero) slots. Equal multisets get equal words.
pub fn normalise_multisets(words: &mut [u64], multisets: &[(usize, usize, usize)]) {
    for &(at, slots, w) in multisets {
        let set = &mut words[at..at + slots * w];
        // Insertion sort: multisets are small, and mostly sorted already.
        for i in 1..slots {
            let mut j = i;
            while j > 0 && slot_less(&set[j * w..(j + 1) * w], &set[(j - 1) * w..j * w]) {
                let (left, right) = set.split_at_mut(j * w);
                left[(j - 1) * w..].swap_with_slice(&mut right[..w]);
                j -= 1;
            }
        }
    }
}

/// The slot order of [`normalise_multisets`].
fn slot_less(a: &[u64], b: &[u64]) -> bool {
    match (a[0] != 0, b[0] != 0) {
        (true, true) => a < b,
        (true, false) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_encode_undefined_as_zero() {
        let r = Ty::Range(-2, 3);
        assert_eq!(r.encode(-2), 1);
        assert_eq!(r.decode(r.encode(3)), 3);
        assert_eq!(Ty::Int.decode(Ty::Int.encode(-1)), -1);
        assert_ne!(Ty::Int.encode(-1), 0);
        let a = Ty::Array(
            Box::new(Ty::Range(1, 3)),
            Box::new(Ty::Record(vec![
                ("a".into(), Ty::Bool, 0),
                ("b".into(), Ty::Range(0, 1), 1),
            ])),
        );
        assert_eq!(a.width(), 6);
        assert_eq!(
            a.show_words(&[2, 0, 1, 1, 0, 2]),
            "[1: {a: true, b: undefined}, 2: {a: false, b: 0}, 3: {a: undefined, b: 1}]"
        );
    }

    #[test]
    fn multisets_sort_present_elements_first() {
        let m = Ty::Multiset(4, Box::new(Ty::Range(0, 9)));
        let ty = Ty::Array(Box::new(Ty::Range(0, 1)), Box::new(m));
        let mut at = Vec::new();
        multisets_in(&ty, 3, &mut at);
        assert_eq!(at, vec![(3, 4, 2), (11, 4, 2)]);
        let mut words = vec![9, 9, 9, 0, 0, 1, 5, 1, 2, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0];
        normalise_multisets(&mut words, &at);
        assert_eq!(
            words,
            vec![9, 9, 9, 1, 2, 1, 5, 0, 0, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            Ty::Multiset(4, Box::new(Ty::Range(0, 9))).show_words(&words[3..11]),
            "{|1, 4|}"
        );
    }
}
