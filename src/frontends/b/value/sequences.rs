//! Sequences: a B sequence of length `n` is a function `1..n --> T`, i.e. a
//! set of pairs `i |-> x`. Since pairs order by index first, the elements
//! of a valid sequence appear in index order in the sorted set.

use super::Value;
use super::relations::{first, second};

/// The elements of `s` in order if `s` is a sequence (its domain is `1..n`),
/// `None` otherwise.
pub fn elements(s: &[Value]) -> Option<Vec<&Value>> {
    let mut out = Vec::with_capacity(s.len());
    for (i, p) in s.iter().enumerate() {
        match (first(p), p) {
            (Value::Int(k), Value::Pair(_)) if *k == i as i64 + 1 => out.push(second(p)),
            _ => return None,
        }
    }
    Some(out)
}

/// Is `s` a sequence?
pub fn is_sequence(s: &[Value]) -> bool {
    s.iter().enumerate().all(
        |(i, p)| matches!((p, first(p)), (Value::Pair(_), Value::Int(k)) if *k == i as i64 + 1),
    )
}

/// The sequence `[x1, x2, ...]` as a set of pairs.
pub fn from_elements<'a>(xs: impl IntoIterator<Item = &'a Value>) -> Value {
    from_owned(xs.into_iter().cloned())
}

/// The sequence of the given owned elements.
pub fn from_owned(xs: impl IntoIterator<Item = Value>) -> Value {
    let v: Vec<Value> = xs
        .into_iter()
        .enumerate()
        .map(|(i, x)| Value::pair(Value::Int(i as i64 + 1), x))
        .collect();
    // Indices ascend, so the pairs are already sorted.
    Value::set_from_sorted(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_round_trip() {
        let xs = [Value::Int(7), Value::Int(3), Value::Int(7)];
        let s = from_elements(xs.iter());
        let elems = elements(s.as_set().unwrap()).unwrap();
        assert_eq!(elems, xs.iter().collect::<Vec<_>>());
        assert!(is_sequence(s.as_set().unwrap()));
        let not_seq = Value::set_from_vec(vec![Value::pair(Value::Int(2), Value::Int(1))]);
        assert!(elements(not_seq.as_set().unwrap()).is_none());
        assert!(!is_sequence(not_seq.as_set().unwrap()));
    }
}
