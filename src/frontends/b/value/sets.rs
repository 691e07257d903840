//! Operations on finite sets, represented as sorted slices without
//! duplicates. Binary operations merge the two sorted slices in linear time;
//! membership is a binary search. Adding or removing one element (the
//! common `s \/ {x}` and `s - {x}` of B models) copies once.

use super::Value;
use std::sync::Arc;

/// Is `v` an element of the sorted set `s`?
#[inline]
pub fn contains(s: &[Value], v: &Value) -> bool {
    // Hot path (`p : PROC`, `x : 1..n`, typing invariants): a sorted set
    // without duplicates whose ends are elements of one given set (or
    // integers) `len - 1` apart holds exactly the range between them, so
    // membership is a range check instead of a binary search.
    match (v, s.first(), s.last()) {
        (Value::Elem(x), Some(Value::Elem(lo)), Some(Value::Elem(hi)))
            if lo.set == hi.set && (hi.index - lo.index) as usize == s.len() - 1 =>
        {
            x.set == lo.set && lo.index <= x.index && x.index <= hi.index
        }
        (Value::Int(x), Some(Value::Int(lo)), Some(Value::Int(hi)))
            if (*hi as i128 - *lo as i128) == s.len() as i128 - 1 =>
        {
            lo <= x && x <= hi
        }
        _ => s.binary_search_by(|x| x.fast_cmp(v)).is_ok(),
    }
}

/// `a \/ b` of two sorted sets.
pub fn union(a: &[Value], b: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// `a /\ b` of two sorted sets.
pub fn inter(a: &[Value], b: &[Value]) -> Vec<Value> {
    if a.len() > 8 * b.len() {
        return b.iter().filter(|x| contains(a, x)).cloned().collect();
    }
    if b.len() > 8 * a.len() {
        return a.iter().filter(|x| contains(b, x)).cloned().collect();
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// Whether the sorted sets `a` and `b` share an element (`a /\ b /= {}`,
/// without building the intersection).
pub fn intersects(a: &[Value], b: &[Value]) -> bool {
    if a.len() > 8 * b.len() {
        return b.iter().any(|x| contains(a, x));
    }
    if b.len() > 8 * a.len() {
        return a.iter().any(|x| contains(b, x));
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// `a - b` of two sorted sets.
pub fn difference(a: &[Value], b: &[Value]) -> Vec<Value> {
    if b.len() <= 4 {
        let mut out = Vec::with_capacity(a.len());
        out.extend(a.iter().filter(|x| !b.contains(x)).cloned());
        return out;
    }
    let mut out = Vec::with_capacity(a.len());
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j < b.len() && b[j] == *x {
            continue;
        }
        out.push(x.clone());
    }
    out
}

/// `a <: b` of two sorted sets.
pub fn is_subset(a: &[Value], b: &[Value]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    if a.len() * 8 < b.len() {
        return a.iter().all(|x| contains(b, x));
    }
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}

/// `s \/ {v}`.
pub fn insert(s: &[Value], v: &Value) -> Vec<Value> {
    match s.binary_search_by(|x| x.fast_cmp(v)) {
        Ok(_) => s.to_vec(),
        Err(pos) => {
            let mut out = Vec::with_capacity(s.len() + 1);
            out.extend_from_slice(&s[..pos]);
            out.push(v.clone());
            out.extend_from_slice(&s[pos..]);
            out
        }
    }
}

/// `s - {v}`.
pub fn remove(s: &[Value], v: &Value) -> Vec<Value> {
    match s.binary_search_by(|x| x.fast_cmp(v)) {
        Ok(pos) => {
            let mut out = Vec::with_capacity(s.len() - 1);
            out.extend_from_slice(&s[..pos]);
            out.extend_from_slice(&s[pos + 1..]);
            out
        }
        Err(_) => s.to_vec(),
    }
}

/// `s \/ {v}` as a shared set, built with one allocation; `s` itself
/// (shared, not copied) when it already holds `v`, which also lets the
/// state encoding see that the value did not change.
pub fn with_inserted(s: &Arc<[Value]>, v: Value) -> Arc<[Value]> {
    match s.binary_search_by(|x| x.fast_cmp(&v)) {
        Ok(_) => s.clone(),
        Err(pos) => splice(s, pos..pos, Some(v)),
    }
}

/// `s - {v}` as a shared set (see [`with_inserted`]).
pub fn with_removed(s: &Arc<[Value]>, v: &Value) -> Arc<[Value]> {
    match s.binary_search_by(|x| x.fast_cmp(v)) {
        Ok(pos) => splice(s, pos..pos + 1, None),
        Err(_) => s.clone(),
    }
}

/// `s` with the elements at `cut` replaced by `mid` (if any), as a new
/// shared slice. Written straight into one allocation: this is the inner
/// step of `f(x) := y`, `s \/ {x}` and `s - {x}` on every transition, and
/// both `collect` into an `Arc<[_]>` and building a `Vec` first cost
/// several times more.
pub fn splice(s: &[Value], cut: std::ops::Range<usize>, mid: Option<Value>) -> Arc<[Value]> {
    let (head, tail) = (&s[..cut.start], &s[cut.end..]);
    let len = head.len() + usize::from(mid.is_some()) + tail.len();
    let mut out = Arc::<[Value]>::new_uninit_slice(len);
    let slots = Arc::get_mut(&mut out).expect("a fresh Arc is unique");
    let (first, rest) = slots.split_at_mut(head.len());
    for (slot, v) in first.iter_mut().zip(head) {
        slot.write(v.clone());
    }
    let rest = match mid {
        Some(v) => {
            rest[0].write(v);
            &mut rest[1..]
        }
        None => rest,
    };
    for (slot, v) in rest.iter_mut().zip(tail) {
        slot.write(v.clone());
    }
    // SAFETY: `head.len()` slots were written from `head`, then one from
    // `mid` if given, then the rest, `tail.len()` of them, from `tail`:
    // all `len` slots are initialised.
    unsafe { out.assume_init() }
}

/// Calls `f` on every subset of `s` (as a sorted vector), in order of
/// increasing size, then lexicographically by element position. Stops and
/// returns `false` as soon as `f` does.
pub fn for_each_subset(
    s: &[Value],
    min_size: usize,
    f: &mut dyn FnMut(Vec<Value>) -> bool,
) -> bool {
    let n = s.len();
    for k in min_size..=n {
        let mut chosen: Vec<usize> = (0..k).collect();
        loop {
            if !f(chosen.iter().map(|&i| s[i].clone()).collect()) {
                return false;
            }
            // Next k-combination of 0..n in lexicographic order: bump the
            // rightmost position that can still move, reset those after it.
            let mut i = k;
            while i > 0 && chosen[i - 1] == n - k + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            chosen[i - 1] += 1;
            for j in i..k {
                chosen[j] = chosen[j - 1] + 1;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i64]) -> Vec<Value> {
        v.iter().map(|&i| Value::Int(i)).collect()
    }

    #[test]
    fn shared_insert_and_remove_agree_with_the_copying_ones() {
        let s: Arc<[Value]> = ints(&[1, 3, 5]).into();
        for x in 0..7 {
            let x = Value::Int(x);
            assert_eq!(with_inserted(&s, x.clone()).to_vec(), insert(&s, &x));
            assert_eq!(with_removed(&s, &x).to_vec(), remove(&s, &x));
        }
        // Unchanged sets are shared, not copied.
        assert!(Arc::ptr_eq(&s, &with_inserted(&s, Value::Int(3))));
        assert!(Arc::ptr_eq(&s, &with_removed(&s, &Value::Int(2))));
        assert_eq!(splice(&s, 0..3, None).len(), 0);
        assert_eq!(
            splice(&s, 3..3, Some(Value::Int(9))).to_vec(),
            ints(&[1, 3, 5, 9])
        );
    }

    #[test]
    fn merge_operations() {
        let a = ints(&[1, 3, 5, 7]);
        let b = ints(&[3, 4, 7, 9]);
        assert_eq!(union(&a, &b), ints(&[1, 3, 4, 5, 7, 9]));
        assert_eq!(inter(&a, &b), ints(&[3, 7]));
        assert_eq!(difference(&a, &b), ints(&[1, 5]));
        assert_eq!(difference(&a, &ints(&[1, 2, 3, 4, 5, 6])), ints(&[7]));
        assert!(is_subset(&ints(&[3, 7]), &a));
        assert!(!is_subset(&ints(&[3, 4]), &a));
        assert!(contains(&a, &Value::Int(5)));
        assert!(!contains(&a, &Value::Int(4)));
    }

    #[test]
    fn intersects_agrees_with_the_intersection_on_every_pair_of_subsets() {
        // Every pair of subsets of 0..6 and of 0..40 (the lopsided sizes
        // take the membership scan, the others the merge).
        let small: Vec<Vec<Value>> = (0u32..64)
            .map(|m| ints(&(0..6).filter(|i| m >> i & 1 == 1).collect::<Vec<_>>()))
            .collect();
        let large = [
            ints(&(0..40).collect::<Vec<_>>()),
            ints(&(6..40).collect::<Vec<_>>()),
        ];
        for a in small.iter().chain(&large) {
            for b in small.iter().chain(&large) {
                assert_eq!(intersects(a, b), !inter(a, b).is_empty(), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn range_membership_agrees_with_binary_search() {
        use crate::frontends::b::value::Elem;
        let e = |set, index| Value::Elem(Elem { set, index });
        let sets: Vec<Vec<Value>> = vec![
            vec![e(0, 0), e(0, 1), e(0, 2)],
            vec![e(0, 1), e(0, 2)],
            vec![e(0, 0), e(0, 2)],
            vec![e(0, 2), e(1, 0)],
            vec![e(1, 0)],
            ints(&[-1, 0, 1]),
            ints(&[1, 3]),
            ints(&[i64::MIN, i64::MAX]),
            vec![Value::Int(0), e(0, 0)],
        ];
        let probes = [e(0, 0), e(0, 1), e(0, 2), e(0, 3), e(1, 0), e(1, 1)]
            .into_iter()
            .chain(ints(&[i64::MIN, -2, -1, 0, 1, 2, 3, i64::MAX]));
        for v in probes {
            for s in &sets {
                assert_eq!(contains(s, &v), s.contains(&v), "{v:?} in {s:?}");
            }
        }
    }

    #[test]
    fn insert_and_remove_keep_order() {
        let a = ints(&[1, 5]);
        assert_eq!(insert(&a, &Value::Int(3)), ints(&[1, 3, 5]));
        assert_eq!(insert(&a, &Value::Int(5)), ints(&[1, 5]));
        assert_eq!(remove(&a, &Value::Int(1)), ints(&[5]));
        assert_eq!(remove(&a, &Value::Int(2)), ints(&[1, 5]));
    }

    #[test]
    fn subsets_are_all_enumerated_once() {
        let s = ints(&[1, 2, 3, 4]);
        let mut seen = Vec::new();
        for_each_subset(&s, 0, &mut |x| {
            seen.push(x);
            true
        });
        assert_eq!(seen.len(), 16);
        assert_eq!(seen[0], Vec::<Value>::new());
        assert_eq!(seen[15], s);
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 16);
        let mut nonempty = 0;
        for_each_subset(&s, 1, &mut |_| {
            nonempty += 1;
            true
        });
        assert_eq!(nonempty, 15);
    }
}
