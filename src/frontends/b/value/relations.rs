//! Operations on relations: sets of pairs. Because a set is sorted and pairs
//! order by their first component first, all pairs with the same first
//! component are adjacent, so function application and domain restriction to
//! one element are binary searches.

use super::{Elem, Value};
use std::sync::Arc;

/// The pairs of a relation whose first component is `x` (a contiguous run).
#[inline]
pub fn pairs_from<'a>(rel: &'a [Value], x: &Value) -> &'a [Value] {
    &rel[run_from(rel, x)]
}

/// The positions of [`pairs_from`]: a binary search for the start, then a
/// scan for the end (runs are short, of length 1 in a function, so the
/// scan beats a second binary search; this is the `f(x)` of every guard).
pub fn run_from(rel: &[Value], x: &Value) -> std::ops::Range<usize> {
    if let Value::Elem(e) = x {
        // Functions from a given set (`pst(p)`): compare one packed key.
        let key = elem_key(e);
        let at = |i: usize| matches!(first(&rel[i]), Value::Elem(f) if elem_key(f) == key);
        // A total function over the whole set holds `x`'s pair at `x`'s
        // index: the run starts there if the pair before it is another's.
        let i = e.index as usize;
        let start = if i < rel.len() && at(i) && (i == 0 || !at(i - 1)) {
            i
        } else {
            rel.partition_point(|p| match first(p) {
                Value::Elem(f) => elem_key(f) < key,
                other => other.fast_cmp(x).is_lt(),
            })
        };
        let len = (start..rel.len()).take_while(|&j| at(j)).count();
        return start..start + len;
    }
    let start = interval_index(rel, x)
        .unwrap_or_else(|| rel.partition_point(|p| first(p).fast_cmp(x).is_lt()));
    let len = rel[start..]
        .iter()
        .take_while(|p| first(p).fast_cmp(x).is_eq())
        .count();
    start..start + len
}

/// Where the run of the integer `x` starts in a function over an interval
/// (`victim(l)`), found without a search: at `x - lo` if the domain has no
/// gap below it (`lo` the first argument). `None` otherwise.
fn interval_index(rel: &[Value], x: &Value) -> Option<usize> {
    let (Value::Int(n), Some(Value::Int(lo))) = (x, rel.first().map(first)) else {
        return None;
    };
    let at = |i: usize| matches!(first(&rel[i]), Value::Int(m) if m == n);
    let i = usize::try_from(n.checked_sub(*lo)?).ok()?;
    (i < rel.len() && at(i) && (i == 0 || !at(i - 1))).then_some(i)
}

/// An element as one integer ordered like [`Elem`]'s `Ord` (set, then index).
#[inline]
fn elem_key(e: &Elem) -> u64 {
    ((e.set as u64) << 32) | e.index as u64
}

/// First component of a pair (the value itself if it is not a pair, which
/// a type-correct model never has in a relation).
pub fn first(p: &Value) -> &Value {
    match p {
        Value::Pair(pair) => &pair.0,
        other => other,
    }
}

/// Second component of a pair (see [`first`]).
pub fn second(p: &Value) -> &Value {
    match p {
        Value::Pair(pair) => &pair.1,
        other => other,
    }
}

/// How applying a relation to one argument can go.
#[derive(Debug, PartialEq, Eq)]
pub enum Applied<'a> {
    /// Exactly one image.
    Value(&'a Value),
    /// The argument is not in the domain.
    OutsideDomain,
    /// The argument has several images: the relation is not a function.
    NotAFunction,
}

/// `f(x)`.
pub fn apply<'a>(f: &'a [Value], x: &Value) -> Applied<'a> {
    applied(pairs_from(f, x))
}

/// What a function's run of pairs for one argument (see [`pairs_from`])
/// gives when it is applied there.
#[inline]
pub fn applied(run: &[Value]) -> Applied<'_> {
    match run {
        [] => Applied::OutsideDomain,
        [p] => Applied::Value(second(p)),
        _ => Applied::NotAFunction,
    }
}

/// `dom(r)`, sorted.
pub fn domain(r: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(r.len());
    for p in r {
        let x = first(p);
        if out.last() != Some(x) {
            out.push(x.clone());
        }
    }
    out
}

/// `ran(r)`, sorted.
pub fn range(r: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = r.iter().map(|p| second(p).clone()).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `r~`, sorted.
pub fn inverse(r: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = r
        .iter()
        .map(|p| Value::pair(second(p).clone(), first(p).clone()))
        .collect();
    out.sort_unstable();
    out
}

/// `r[s]`, sorted.
pub fn image(r: &[Value], s: &[Value]) -> Vec<Value> {
    if let [x] = s {
        // `r[{x}]`: one run of pairs, sorted by their second components.
        return pairs_from(r, x).iter().map(|p| second(p).clone()).collect();
    }
    let mut out = Vec::new();
    if s.len() * 4 < r.len() {
        for x in s {
            out.extend(pairs_from(r, x).iter().map(|p| second(p).clone()));
        }
    } else {
        out.extend(
            r.iter()
                .filter(|p| super::sets::contains(s, first(p)))
                .map(|p| second(p).clone()),
        );
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// `s <| r` (keep) or `s <<| r` (remove), sorted.
pub fn restrict_domain(r: &[Value], s: &[Value], keep: bool) -> Vec<Value> {
    r.iter()
        .filter(|p| super::sets::contains(s, first(p)) == keep)
        .cloned()
        .collect()
}

/// `r |> s` (keep) or `r |>> s` (remove), sorted.
pub fn restrict_range(r: &[Value], s: &[Value], keep: bool) -> Vec<Value> {
    r.iter()
        .filter(|p| super::sets::contains(s, second(p)) == keep)
        .cloned()
        .collect()
}

/// `r <+ q`: `q` plus the pairs of `r` whose first component is not in `dom(q)`.
pub fn overwrite(r: &[Value], q: &[Value]) -> Vec<Value> {
    if q.len() == 1 {
        // The common `f(x) := e`: replace the run of `x` in place.
        let run = run_from(r, first(&q[0]));
        let (start, len) = (run.start, run.len());
        let mut out = Vec::with_capacity(r.len() + 1 - len);
        out.extend_from_slice(&r[..start]);
        out.push(q[0].clone());
        out.extend_from_slice(&r[start + len..]);
        return out;
    }
    let dom_q = domain(q);
    let kept = restrict_domain(r, &dom_q, false);
    super::sets::union(&kept, q)
}

/// `f <+ {x |-> y}` (the `f(x) := y` of B) as a shared set, built with
/// one allocation; `f` itself (shared, not copied) when `y` already is the
/// only image of `x`, which also lets the state encoding see that the
/// value did not change.
pub fn with_image(f: &Arc<[Value]>, x: Value, y: Value) -> Arc<[Value]> {
    let run = run_from(f, &x);
    if run.len() == 1 && second(&f[run.start]).fast_eq(&y) {
        return f.clone();
    }
    super::sets::splice(f, run, Some(Value::pair(x, y)))
}

/// `(r ; q)`: relational composition, sorted.
pub fn compose(r: &[Value], q: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for p in r {
        for t in pairs_from(q, second(p)) {
            out.push(Value::pair(first(p).clone(), second(t).clone()));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// `r >< q`: `{x |-> (y |-> z) | x |-> y : r & x |-> z : q}`.
pub fn direct_product(r: &[Value], q: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for p in r {
        for t in pairs_from(q, first(p)) {
            out.push(Value::pair(
                first(p).clone(),
                Value::pair(second(p).clone(), second(t).clone()),
            ));
        }
    }
    out.sort_unstable();
    out
}

/// `(r || q)`: `{(x |-> y) |-> (a |-> b) | x |-> a : r & y |-> b : q}`.
pub fn parallel_product(r: &[Value], q: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(r.len() * q.len());
    for p in r {
        for t in q {
            out.push(Value::pair(
                Value::pair(first(p).clone(), first(t).clone()),
                Value::pair(second(p).clone(), second(t).clone()),
            ));
        }
    }
    out.sort_unstable();
    out
}

/// `closure1(r)`: the transitive closure, by Warshall's algorithm on a bit
/// matrix over the field of `r` (sorted, so the result comes out sorted).
pub fn transitive_closure(r: &[Value]) -> Vec<Value> {
    match transitive_closure_within(r, usize::MAX, || Ok::<(), ()>(())) {
        Ok(Some(pairs)) => pairs,
        Ok(None) | Err(()) => unreachable!("no limit and no stop"),
    }
}

/// [`transitive_closure`] that calls `poll` once per row of the matrix
/// (Warshall's algorithm takes n^3 / 64 steps: seconds for thousands of
/// elements) and stops with its error, and gives `None` instead of a
/// closure of more than `limit` pairs (`closure1` of a chain of 5,000
/// elements has 12.5 million).
pub fn transitive_closure_within<E>(
    r: &[Value],
    limit: usize,
    mut poll: impl FnMut() -> Result<(), E>,
) -> Result<Option<Vec<Value>>, E> {
    let field = super::sets::union(&domain(r), &range(r));
    let n = field.len();
    let words = n.div_ceil(64);
    let index = |x: &Value| field.binary_search(x).expect("in the field");
    let mut rows = vec![0u64; n * words];
    for p in r {
        let (i, j) = (index(first(p)), index(second(p)));
        rows[i * words + j / 64] |= 1 << (j % 64);
    }
    for k in 0..n {
        poll()?;
        let row_k: Vec<u64> = rows[k * words..(k + 1) * words].to_vec();
        for i in 0..n {
            if rows[i * words + k / 64] & (1 << (k % 64)) != 0 {
                for (w, bits) in row_k.iter().enumerate() {
                    rows[i * words + w] |= bits;
                }
            }
        }
    }
    let pairs: u64 = rows.iter().map(|w| u64::from(w.count_ones())).sum();
    if pairs > limit as u64 {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(pairs as usize);
    for i in 0..n {
        for j in 0..n {
            if rows[i * words + j / 64] & (1 << (j % 64)) != 0 {
                out.push(Value::pair(field[i].clone(), field[j].clone()));
            }
        }
    }
    Ok(Some(out))
}

/// The strongly connected components of the graph `r` over its field
/// `dom(r) \/ ran(r)`, each sorted (ProB's `SCCS`), by Tarjan's algorithm
/// without recursion; `None` when an element of `r` is not a pair.
pub fn strongly_connected_components(r: &[Value]) -> Option<Vec<Vec<Value>>> {
    if !r.iter().all(|p| matches!(p, Value::Pair(_))) {
        return None;
    }
    let field = super::sets::union(&domain(r), &range(r));
    let n = field.len();
    let index = |x: &Value| field.binary_search(x).expect("in the field");
    // Successor lists: `r` is sorted by source, so each node's edges are
    // one run of `targets`.
    let mut start = vec![0usize; n + 1];
    let mut targets = Vec::with_capacity(r.len());
    for p in r {
        start[index(first(p)) + 1] += 1;
        targets.push(index(second(p)));
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    const UNSEEN: usize = usize::MAX;
    let (mut order, mut low) = (vec![UNSEEN; n], vec![0usize; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut components, mut next) = (Vec::new(), Vec::new(), 0);
    // Each frame: a node and the position of its next edge.
    let mut frames: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        frames.push((root, start[root]));
        (order[root], low[root], next) = (next, next, next + 1);
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut edge)) = frames.last_mut() {
            if *edge < start[v + 1] {
                let w = targets[*edge];
                *edge += 1;
                if order[w] == UNSEEN {
                    (order[w], low[w], next) = (next, next, next + 1);
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, start[w]));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(field[w].clone());
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                components.push(component);
            }
        }
    }
    Some(components)
}

/// `id(s)`.
pub fn identity(s: &[Value]) -> Vec<Value> {
    s.iter()
        .map(|x| Value::pair(x.clone(), x.clone()))
        .collect()
}

/// Is `r` a function (each first component once)?
pub fn is_function(r: &[Value]) -> bool {
    r.windows(2).all(|w| first(&w[0]) != first(&w[1]))
}

/// Is the function `f` injective?
pub fn is_injective(f: &[Value]) -> bool {
    let mut ran: Vec<&Value> = f.iter().map(second).collect();
    ran.sort_unstable();
    ran.windows(2).all(|w| w[0] != w[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(a: i64, b: i64) -> Value {
        Value::pair(Value::Int(a), Value::Int(b))
    }

    fn rel(pairs: &[(i64, i64)]) -> Vec<Value> {
        let mut v: Vec<Value> = pairs.iter().map(|&(a, b)| p(a, b)).collect();
        v.sort();
        v
    }

    #[test]
    fn application_finds_the_unique_image() {
        let f = rel(&[(1, 10), (2, 20), (3, 30)]);
        assert_eq!(apply(&f, &Value::Int(2)), Applied::Value(&Value::Int(20)));
        assert_eq!(apply(&f, &Value::Int(4)), Applied::OutsideDomain);
        let r = rel(&[(1, 10), (1, 11)]);
        assert_eq!(apply(&r, &Value::Int(1)), Applied::NotAFunction);
    }

    #[test]
    fn runs_of_pairs_from_one_element() {
        let r = rel(&[(1, 10), (2, 20), (2, 21), (2, 22), (4, 40)]);
        assert_eq!(run_from(&r, &Value::Int(2)), 1..4);
        assert_eq!(run_from(&r, &Value::Int(4)), 4..5);
        assert_eq!(run_from(&r, &Value::Int(3)), 4..4);
        assert_eq!(run_from(&r, &Value::Int(9)), 5..5);
        assert_eq!(pairs_from(&r, &Value::Int(0)), &[] as &[Value]);
        let e = |index| Value::Elem(Elem { set: 1, index });
        let f: Vec<Value> = [(0, 0), (2, 1), (2, 2), (5, 0)]
            .iter()
            .map(|&(a, b)| Value::pair(e(a), e(b)))
            .collect();
        assert_eq!(run_from(&f, &e(2)), 1..3);
        assert_eq!(run_from(&f, &e(3)), 3..3);
        assert_eq!(run_from(&f, &e(5)), 3..4);
        assert_eq!(run_from(&f, &Value::Elem(Elem { set: 1, index: 9 })), 4..4);
        assert_eq!(run_from(&f, &Value::Elem(Elem { set: 0, index: 9 })), 0..0);
    }

    /// Every relation over small integers, against a scan: the shortcut
    /// for a pair at its offset from the first must find the whole run.
    #[test]
    fn runs_from_an_integer_match_a_scan() {
        for bits in 0u32..1 << 10 {
            let pairs: Vec<(i64, i64)> = (0..10)
                .filter(|k| bits >> k & 1 == 1)
                .map(|k| (k / 2 - 1, k % 2))
                .collect();
            let r = rel(&pairs);
            for n in [i64::MIN, -3, -2, -1, 0, 1, 2, 3, 4, 5, i64::MAX] {
                let x = Value::Int(n);
                let start = r.partition_point(|p| *first(p) < x);
                let len = r.iter().filter(|p| *first(p) == x).count();
                assert_eq!(run_from(&r, &x), start..start + len, "{r:?} from {n}");
            }
        }
    }

    /// Every relation over small sets, against a scan: the shortcut for
    /// a pair at the element's own index must find the whole run.
    #[test]
    fn runs_from_an_element_match_a_scan() {
        let e = |set, index| Value::Elem(Elem { set, index });
        for bits in 0u32..1 << 10 {
            // Pairs (a, b) of a 5 x 2 grid over set 1, some of set 0 first.
            let mut r: Vec<Value> = (0..10)
                .filter(|k| bits >> k & 1 == 1)
                .map(|k| Value::pair(e(1, k / 2), e(2, k % 2)))
                .collect();
            if bits % 3 == 0 {
                r.push(Value::pair(e(0, 7), e(2, 0)));
            }
            r.sort();
            for set in [0, 1] {
                for index in 0..8 {
                    let x = e(set, index);
                    let start = r.iter().position(|p| *first(p) == x);
                    let len = r.iter().filter(|p| *first(p) == x).count();
                    let want = match start {
                        Some(s) => s..s + len,
                        None => {
                            let s = r.partition_point(|p| *first(p) < x);
                            s..s
                        }
                    };
                    assert_eq!(run_from(&r, &x), want, "{r:?} from {x:?}");
                }
            }
        }
    }

    #[test]
    fn override_replaces_images() {
        let f = rel(&[(1, 10), (2, 20), (3, 30)]);
        assert_eq!(
            overwrite(&f, &rel(&[(2, 5)])),
            rel(&[(1, 10), (2, 5), (3, 30)])
        );
        assert_eq!(
            overwrite(&f, &rel(&[(4, 5)])),
            rel(&[(1, 10), (2, 20), (3, 30), (4, 5)])
        );
        assert_eq!(
            overwrite(&f, &rel(&[(1, 0), (4, 5)])),
            rel(&[(1, 0), (2, 20), (3, 30), (4, 5)])
        );
    }

    #[test]
    fn override_of_one_image_agrees_and_shares_when_unchanged() {
        let f: Arc<[Value]> = rel(&[(1, 10), (2, 20), (3, 30)]).into();
        for (x, y) in [(0, 1), (2, 5), (2, 20), (3, 0), (4, 5)] {
            let expected = overwrite(&f, &rel(&[(x, y)]));
            assert_eq!(
                with_image(&f, Value::Int(x), Value::Int(y)).to_vec(),
                expected
            );
        }
        assert!(Arc::ptr_eq(
            &f,
            &with_image(&f, Value::Int(2), Value::Int(20))
        ));
    }

    #[test]
    fn image_inverse_composition_closure() {
        let r = rel(&[(1, 2), (2, 3), (3, 1), (2, 1)]);
        assert_eq!(
            image(&r, &[Value::Int(2)]),
            vec![Value::Int(1), Value::Int(3)]
        );
        assert_eq!(inverse(&r), rel(&[(2, 1), (3, 2), (1, 3), (1, 2)]));
        assert_eq!(compose(&rel(&[(1, 2)]), &r), rel(&[(1, 3), (1, 1)]));
        assert_eq!(
            transitive_closure(&rel(&[(1, 2), (2, 3)])),
            rel(&[(1, 2), (2, 3), (1, 3)])
        );
        assert_eq!(
            domain(&r),
            vec![Value::Int(1), Value::Int(2), Value::Int(3)]
        );
        assert!(!is_function(&r));
        assert!(is_injective(&rel(&[(1, 2), (2, 3)])));
        assert!(!is_injective(&rel(&[(1, 2), (2, 2)])));
    }
}
