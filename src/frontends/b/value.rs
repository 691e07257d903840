//! Runtime values of the B interpreter.
//!
//! A [`Value`] is the decoded form of part of a state, used while evaluating
//! expressions. States themselves are stored as flat words (see the state
//! encoding); values are built from them only where an operation needs them.
//! Sets are kept sorted (by the derived `Ord`) without duplicates, so equal
//! sets are equal values and compare and hash as such.

use num_bigint::{BigInt, Sign};
use std::sync::Arc;

/// An element of a given set: set number (see [`crate::frontends::b::types`]) and
/// 0-based index within the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Elem {
    /// Number of the given set.
    pub set: u32,
    /// 0-based index of the element in its set.
    pub index: u32,
}

/// A B value.
///
/// Integers are unbounded, as in ProB: one that fits in 64 bits is always an
/// [`Value::Int`], a larger one always a [`Value::Big`] (so equal integers
/// are equal values). The order is the derived order of the variants as
/// listed, except that `Big` sorts among the `Int`s by its value.
///
/// Equality and order look at the pointers of shared pairs and sets
/// first: a state's values are shared with the values kept from it
/// (memoised keys, the decoded variables of the previous state), and the
/// standard library's `Arc` compares the contents even of one allocation
/// with itself.
#[derive(Clone, Debug)]
pub enum Value {
    /// An integer that fits in 64 bits.
    Int(i64),
    /// `TRUE` or `FALSE`.
    Bool(bool),
    /// A string.
    Str(Arc<str>),
    /// An element of a deferred or enumerated set.
    Elem(Elem),
    /// A pair `a |-> b`.
    Pair(Arc<(Value, Value)>),
    /// A finite set: elements sorted ascending, no duplicates.
    Set(Arc<[Value]>),
    /// A set kept as its definition, as ProB keeps the constants a
    /// machine defines by an infinite or recursive lambda or set
    /// (`f = %x.(x : NATURAL | x * x)`): it can be applied and tested for
    /// membership, never listed (see [`Symbolic`]).
    Symbolic(Arc<Symbolic>),
    /// An integer beyond 64 bits (`fact(30)`, `2 ** 100`); never one that
    /// fits in an `i64` (see [`Value::integer`]).
    Big(Arc<BigInt>),
}

impl Value {
    /// The rank of the variant in the order of values: integers first
    /// (both kinds), then as declared.
    #[inline]
    fn rank(&self) -> u8 {
        match self {
            Value::Int(_) | Value::Big(_) => 0,
            Value::Bool(_) => 1,
            Value::Str(_) => 2,
            Value::Elem(_) => 3,
            Value::Pair(_) => 4,
            Value::Set(_) => 5,
            Value::Symbolic(_) => 6,
        }
    }
}

impl PartialEq for Value {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Elem(a), Value::Elem(b)) => a == b,
            (Value::Pair(a), Value::Pair(b)) => Arc::ptr_eq(a, b) || **a == **b,
            (Value::Set(a), Value::Set(b)) => Arc::ptr_eq(a, b) || a[..] == b[..],
            (Value::Symbolic(a), Value::Symbolic(b)) => a == b,
            (Value::Big(a), Value::Big(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Int(i) => i.hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Str(s) => s.hash(state),
            Value::Elem(e) => e.hash(state),
            Value::Pair(p) => p.hash(state),
            Value::Set(items) => items.hash(state),
            Value::Symbolic(d) => d.hash(state),
            Value::Big(b) => b.hash(state),
        }
    }
}

impl PartialOrd for Value {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::Str(a), Value::Str(b)) => a.cmp(b),
            (Value::Elem(a), Value::Elem(b)) => a.cmp(b),
            (Value::Pair(a), Value::Pair(b)) if Arc::ptr_eq(a, b) => Ordering::Equal,
            (Value::Pair(a), Value::Pair(b)) => a.cmp(b),
            (Value::Set(a), Value::Set(b)) if Arc::ptr_eq(a, b) => Ordering::Equal,
            (Value::Set(a), Value::Set(b)) => a.cmp(b),
            (Value::Symbolic(a), Value::Symbolic(b)) => a.cmp(b),
            (Value::Big(a), Value::Big(b)) => a.cmp(b),
            // A `Big` lies beyond every `Int`, on its sign's side.
            (Value::Big(a), Value::Int(_)) => match a.sign() {
                Sign::Minus => Ordering::Less,
                _ => Ordering::Greater,
            },
            (Value::Int(_), Value::Big(b)) => match b.sign() {
                Sign::Minus => Ordering::Greater,
                _ => Ordering::Less,
            },
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// A constant's defining expression, kept unevaluated: the interpreter's
/// definition number (equal numbers are equal values: the definition is
/// evaluated with the constants of the state it is read in) and its
/// source text, for printing.
#[derive(Clone, Debug)]
pub struct Symbolic {
    /// Index of the definition in the interpreter's table.
    pub def: u32,
    /// The definition as written.
    pub text: Arc<str>,
}

impl PartialEq for Symbolic {
    fn eq(&self, other: &Self) -> bool {
        self.def == other.def
    }
}

impl Eq for Symbolic {}

impl PartialOrd for Symbolic {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Symbolic {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.def.cmp(&other.def)
    }
}

impl std::hash::Hash for Symbolic {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.def.hash(state);
    }
}

pub mod apply_index;
pub mod display;
pub mod fast_hash;
pub mod integers;
pub mod relations;
pub mod sequences;
pub mod sets;

pub use display::DisplayValue;

impl Value {
    /// The pair `a |-> b`.
    pub fn pair(a: Value, b: Value) -> Value {
        Value::Pair(Arc::new((a, b)))
    }

    /// The empty set (also the empty sequence).
    pub fn empty_set() -> Value {
        Value::Set(Arc::from(Vec::new()))
    }

    /// A set from elements already sorted ascending without duplicates.
    pub fn set_from_sorted(elems: Vec<Value>) -> Value {
        debug_assert!(
            elems.windows(2).all(|w| w[0] < w[1]),
            "set elements not sorted"
        );
        Value::Set(Arc::from(elems))
    }

    /// A set from elements in any order, possibly with duplicates.
    pub fn set_from_vec(mut elems: Vec<Value>) -> Value {
        if !elems.windows(2).all(|w| w[0] < w[1]) {
            elems.sort_unstable();
            elems.dedup();
        }
        Value::Set(Arc::from(elems))
    }

    /// The string value `s`.
    pub fn str(s: &str) -> Value {
        Value::Str(Arc::from(s))
    }

    /// The integer `n`: an [`Value::Int`] where it fits in 64 bits, a
    /// [`Value::Big`] otherwise.
    pub fn integer(n: BigInt) -> Value {
        match i64::try_from(&n) {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Big(Arc::new(n)),
        }
    }

    /// The integer, of either size, if this is one.
    pub fn as_integer(&self) -> Option<BigInt> {
        match self {
            Value::Int(i) => Some(BigInt::from(*i)),
            Value::Big(b) => Some((**b).clone()),
            _ => None,
        }
    }

    /// Whether this is an integer (of either size).
    pub fn is_integer(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Big(_))
    }

    /// The integer, if this is one that fits in 64 bits.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements of a set (sorted, no duplicates), if this is a set.
    pub fn as_set(&self) -> Option<&[Value]> {
        match self {
            Value::Set(s) => Some(s),
            _ => None,
        }
    }

    /// The same order as `Ord`, with the scalar cases
    /// (integers, set elements) inlined: the comparison of the binary
    /// searches on the hot path.
    #[inline]
    pub fn fast_cmp(&self, other: &Value) -> std::cmp::Ordering {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            (Value::Elem(a), Value::Elem(b)) => a.cmp(b),
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            _ => self.cmp(other),
        }
    }

    /// The same as `==`, with the scalar cases inlined: the comparison
    /// of guards (`pst(p) = idle`) and of function updates on the hot path
    /// (the derived `eq` is an out-of-line call).
    #[inline]
    pub fn fast_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Elem(a), Value::Elem(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            _ => self == other,
        }
    }

    /// A copy that shares no allocation with `self` (every set, pair and
    /// string rebuilt).
    pub fn deep_clone(&self) -> Value {
        match self {
            Value::Int(_) | Value::Bool(_) | Value::Elem(_) => self.clone(),
            Value::Big(b) => Value::Big(Arc::new((**b).clone())),
            Value::Str(s) => Value::Str(Arc::from(&**s)),
            Value::Pair(p) => Value::Pair(Arc::new((p.0.deep_clone(), p.1.deep_clone()))),
            Value::Set(items) => Value::Set(items.iter().map(Value::deep_clone).collect()),
            Value::Symbolic(s) => Value::Symbolic(Arc::new((**s).clone())),
        }
    }

    /// The address of the allocation a set, pair or string shares with its
    /// clones; `None` for a scalar.
    pub fn shared_address(&self) -> Option<usize> {
        match self {
            Value::Int(_) | Value::Bool(_) | Value::Elem(_) => None,
            Value::Str(s) => Some(Arc::as_ptr(s) as *const u8 as usize),
            Value::Pair(p) => Some(Arc::as_ptr(p) as *const u8 as usize),
            Value::Set(items) => Some(Arc::as_ptr(items) as *const u8 as usize),
            Value::Symbolic(s) => Some(Arc::as_ptr(s) as *const u8 as usize),
            Value::Big(b) => Some(Arc::as_ptr(b) as *const u8 as usize),
        }
    }

    /// A constant-time equality test that may answer `false` for equal
    /// values: scalars compare by value, sets, pairs and strings by pointer
    /// (a value copied from another shares its allocation). Lets the state
    /// encoding skip values an operation did not change.
    #[inline]
    pub fn is_identical(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Elem(a), Value::Elem(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => Arc::ptr_eq(a, b),
            (Value::Pair(a), Value::Pair(b)) => Arc::ptr_eq(a, b),
            (Value::Set(a), Value::Set(b)) => Arc::ptr_eq(a, b),
            (Value::Symbolic(a), Value::Symbolic(b)) => Arc::ptr_eq(a, b),
            (Value::Big(a), Value::Big(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Both components, if this is a pair.
    pub fn as_pair(&self) -> Option<(&Value, &Value)> {
        match self {
            Value::Pair(p) => Some((&p.0, &p.1)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_values_are_equal_and_copies_are_identical() {
        let s = Value::set_from_vec(vec![Value::Int(2), Value::Int(1)]);
        let same_elements = Value::set_from_vec(vec![Value::Int(1), Value::Int(2)]);
        assert!(s.is_identical(&s.clone()));
        assert!(!s.is_identical(&same_elements)); // equal, but not shared
        assert!(Value::Int(3).is_identical(&Value::Int(3)));
        assert!(!Value::Int(3).is_identical(&Value::Int(4)));
        assert!(!Value::Int(0).is_identical(&Value::Bool(false)));
    }

    #[test]
    fn the_order_of_values_and_its_fast_forms_agree() {
        let e = |set, index| Value::Elem(Elem { set, index });
        let big = |text: &str| Value::integer(text.parse().unwrap());
        let values = [
            big("-99999999999999999999"),
            Value::Int(i64::MIN),
            Value::Int(-1),
            Value::Int(3),
            Value::Int(i64::MAX),
            big("99999999999999999999"),
            Value::Bool(false),
            Value::Bool(true),
            Value::str("a"),
            e(0, 1),
            e(1, 0),
            Value::pair(Value::Int(1), e(0, 0)),
            Value::empty_set(),
            Value::set_from_vec(vec![Value::Int(2), Value::Int(1)]),
        ];
        // Listed in ascending order: integers of both sizes by value.
        for (i, a) in values.iter().enumerate() {
            for (j, b) in values.iter().enumerate() {
                assert_eq!(a.cmp(b), i.cmp(&j), "{a:?} vs {b:?}");
                assert_eq!(a.partial_cmp(b), Some(i.cmp(&j)));
                assert_eq!(a.fast_cmp(b), a.cmp(b), "{a:?} vs {b:?}");
                assert_eq!(a.fast_eq(b), a == b, "{a:?} vs {b:?}");
            }
        }
    }
}
