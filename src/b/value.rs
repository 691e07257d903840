//! Runtime values of the B interpreter.
//!
//! A [`Value`] is the decoded form of part of a state, used while evaluating
//! expressions. States themselves are stored as flat words (see the state
//! encoding); values are built from them only where an operation needs them.
//! Sets are kept sorted (by the derived `Ord`) without duplicates, so equal
//! sets are equal values and compare and hash as such.

use std::sync::Arc;

/// An element of a given set: set number (see [`crate::b::types`]) and
/// 0-based index within the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Elem {
    /// Number of the given set.
    pub set: u32,
    /// 0-based index of the element in its set.
    pub index: u32,
}

/// A B value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// An integer.
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
}
