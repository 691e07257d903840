//! ProB's static symmetry reduction of constants ([ProB wiki: Symmetry Reduction],
//! "Static Symmetry Reduction"): of the constant valuations (the solutions
//! of PROPERTIES) only those in a normal form are set up, at least one per
//! orbit of the permutations of each deferred set.
//!
//! For each deferred set `D` (all of whose elements are interchangeable):
//!
//! 1. **Fixed constants.** A maximal set `ds` of scalar constants of type
//!    `D` that PROPERTIES declares pairwise different (top-level conjuncts
//!    `a /= b` or `not(a = b)`, chosen greedily in declaration order) gets
//!    the first elements in order: the `i`-th of `ds` is `D(i+1)`.
//! 2. **Least-number rule** (Section 6 of "New Techniques that Improve
//!    MACE-style Finite Model Finding", as ProB >= 1.5 adapts it): the other
//!    scalar constants of type `D`, in declaration order, each take an
//!    element already used (by `ds` or an earlier one) or the next unused
//!    one. With `a /= b` and `c, d : D` this leaves the wiki's 10 setups.
//! 3. **Partition rule** (ProB >= 1.8): for a conjunct `D = A \/ B \/ ...`
//!    over constants of type `POW(D)`, the *free* elements (those no scalar
//!    constant takes) are allocated to the blocks in order: a free element
//!    lies in an earlier block than any later free element. The wiki's
//!    `D = A \/ B & A /\ B = {} & card(A) = 3` keeps the one setup
//!    `A = {D1,D2,D3}`, `B = {D4,D5,D6}`.
//!
//! 4. **Bijection rule** (what ProB's recorded counts show it does: the
//!    Dining philosophers' `lFork : Phil >->> Forks` leaves one `lFork`):
//!    for a conjunct `f : A >->> B` between two different deferred sets,
//!    the first such constant (in the order written) whose target `B`
//!    has no rule of its own and is no other rule's source or target is
//!    the bijection `A(i) |-> B(i)`. So is a bijection between a deferred
//!    set `D` with no other rule and a set `X` that is not a given set's
//!    name and holds no deferred set's elements (ProB's records: `make :
//!    BOOL * BOOL >->> REC` leaves one `make`, so does `pos : Agents >->>
//!    1..N`; `SIG : ran(fst) >->> S` keeps all): `f : X >->> D` maps the
//!    elements of `X`, ascending, to `D(1), D(2), ...`, and `f : D >->> X`
//!    maps `D(1), D(2), ...` to them.
//!
//! Soundness: PROPERTIES cannot name an element of a deferred set, so the
//! valuations are closed under permutations of `D`, and each rule is met
//! by some member of every orbit: rename `ds` to the first elements and the
//! other scalars' new values, in order of first use, to the next ones
//! (rules 1 and 2); then sort the free elements stably by their block
//! (rule 3), a permutation that fixes every element a scalar takes; then
//! permute each rule-4 target `B` by `f` after `A`'s permutation (`B` has
//! no other rule, so this breaks none), which makes `f` the bijection
//! `A(i) |-> B(i)`; a bijection with `X` fixes `D` by the same permutation,
//! and permuting `D` leaves `X`, which holds no element of it, as it is. The
//! states reachable from the kept valuations therefore meet every orbit of
//! the states reachable from all of them, which is all a symmetry-reduced
//! search needs. Disjointness of the blocks is not needed for this, so it is
//! not required. Without symmetry reduction every valuation is kept.

use crate::frontends::b::ast::{BinaryOp, Expr, ExprKind, Machine, UnaryOp};
use crate::frontends::b::types::{GivenSet, Type};
use crate::frontends::b::value::{Elem, Value};
use crate::model::Permutable;
use std::collections::HashMap;

/// The symmetry-breaking rules of one deferred set.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ClassRules {
    /// The given set's number.
    set: u32,
    /// Constants (valuation indices) pairwise different: the `i`-th is
    /// element `i`.
    fixed: Vec<usize>,
    /// The other scalar constants of the set, in declaration order.
    scalars: Vec<usize>,
    /// Partitions of the set: each a list of block constants (of type
    /// `POW(D)`), in the order written.
    partitions: Vec<Vec<usize>>,
    /// Number of elements of the set.
    size: u32,
}

/// What the normal form of one deferred set's constants implies, in
/// terms a constraint solver can post (see
/// [`ConstantRules::class_constraints`]): the `i`-th `fixed` constant is
/// element `i`; the `j`-th of the other `scalars` is an element below
/// `fixed.len() + j + 1`; and each element from `fixed.len() +
/// scalars.len()` on (free whatever the scalars take) lies in a block of
/// `blocks` (the first partition's, in order) no later than the first
/// block of the element after it. These are necessary conditions only:
/// the rules still decide which valuations are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassConstraints {
    /// The given set's number.
    pub set: u32,
    /// Constants (valuation indices) fixed to the first elements.
    pub fixed: Vec<usize>,
    /// The other scalar constants of the set, in declaration order.
    pub scalars: Vec<usize>,
    /// The block constants of the set's first partition, in order.
    pub blocks: Vec<usize>,
    /// Number of elements of the set.
    pub size: u32,
}

/// A bijection fixed by the bijection rule: between two deferred sets, to
/// `A(i) |-> B(i)`; between a deferred set and another set `X`, to the
/// one that follows the order of `X`'s elements.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BijectionRule {
    /// The constant (valuation index).
    constant: usize,
    /// The source set's number, if it is a deferred set.
    from: Option<u32>,
    /// The target set's number, if it is a deferred set.
    to: Option<u32>,
}

impl BijectionRule {
    /// Whether the rule fixes deferred set `s`.
    fn fixes(&self, s: u32) -> bool {
        self.from == Some(s) || self.to == Some(s)
    }

    fn keeps(&self, constants: &[Value]) -> bool {
        let Some(Value::Set(pairs)) = constants.get(self.constant) else {
            return false;
        };
        let elem = |v: &Value, set: Option<u32>| match (v, set) {
            (Value::Elem(e), Some(s)) if e.set == s => Some(e.index),
            _ => None,
        };
        // The pairs are sorted by their first component: the deferred
        // side's indices count up from 0 along them, and where the source
        // is deferred the other side ascends along them too.
        pairs.iter().enumerate().all(|(i, pair)| {
            let Value::Pair(p) = pair else {
                return false;
            };
            let i = i as u32;
            match (self.from, self.to) {
                (Some(_), Some(_)) => {
                    elem(&p.0, self.from) == Some(i) && elem(&p.1, self.to) == Some(i)
                }
                (None, Some(_)) => elem(&p.1, self.to) == Some(i),
                (Some(_), None) => {
                    elem(&p.0, self.from) == Some(i)
                        && (i == 0 || pairs[i as usize - 1].as_pair().is_some_and(|q| *q.1 < p.1))
                }
                (None, None) => false,
            }
        })
    }
}

/// ProB's symmetry rules for the constants of one machine. See the module
/// docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstantRules {
    classes: Vec<ClassRules>,
    bijections: Vec<BijectionRule>,
}

impl ConstantRules {
    /// No rule: every valuation is kept.
    pub fn none() -> Self {
        ConstantRules::default()
    }

    /// Finds the rules of `machine`, whose constants have the types
    /// `constant_types`; only deferred sets all of whose elements `sym`
    /// permutes get rules.
    pub fn of(
        machine: &Machine,
        constant_types: &[Type],
        given_sets: &[GivenSet],
        sym: &Permutable,
    ) -> Self {
        let index: HashMap<&str, usize> = machine
            .constants
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), i))
            .collect();
        let mut conjuncts = Vec::new();
        if let Some(p) = &machine.properties {
            flatten_and(p, &mut conjuncts);
        }
        let mut different: Vec<(usize, usize)> = Vec::new();
        for c in &conjuncts {
            let pair = match &c.kind {
                ExprKind::Binary(BinaryOp::Neq, a, b) => Some((&**a, &**b)),
                ExprKind::Unary(UnaryOp::Not, inner) => match &inner.kind {
                    ExprKind::Binary(BinaryOp::Eq, a, b) => Some((&**a, &**b)),
                    _ => None,
                },
                _ => None,
            };
            if let Some((a, b)) = pair
                && let (Some(i), Some(j)) = (constant(a, &index), constant(b, &index))
            {
                different.push((i, j));
            }
        }
        let mut classes = Vec::new();
        for (s, set) in given_sets.iter().enumerate() {
            let complete = sym
                .movable
                .get(s)
                .is_some_and(|m| m.len() == set.elements.len());
            if !set.deferred || !complete {
                continue;
            }
            let of_set = |t: &Type| *t == Type::Given(s as u32);
            // Greedily: each scalar different from all fixed ones so far is
            // fixed too (the first always is: the least-number rule would
            // give it the first element anyway).
            let mut fixed: Vec<usize> = Vec::new();
            let mut scalars = Vec::new();
            for (i, t) in constant_types.iter().enumerate() {
                if !of_set(t) {
                    continue;
                }
                let apart =
                    |j: &usize| different.contains(&(i, *j)) || different.contains(&(*j, i));
                if fixed.iter().all(apart) {
                    fixed.push(i);
                } else {
                    scalars.push(i);
                }
            }
            let powerset = Type::Set(Box::new(Type::Given(s as u32)));
            let partitions: Vec<Vec<usize>> = conjuncts
                .iter()
                .filter_map(|c| partition_of(c, &set.name, &index))
                .filter(|blocks| blocks.iter().all(|&b| constant_types[b] == powerset))
                .collect();
            if !fixed.is_empty() || !partitions.is_empty() {
                classes.push(ClassRules {
                    set: s as u32,
                    fixed,
                    scalars,
                    partitions,
                    size: set.elements.len() as u32,
                });
            }
        }
        let symmetric = |s: u32| {
            given_sets.get(s as usize).is_some_and(|set| {
                set.deferred
                    && sym
                        .movable
                        .get(s as usize)
                        .is_some_and(|m| m.len() == set.elements.len())
            })
        };
        let mut bijections: Vec<BijectionRule> = Vec::new();
        for c in &conjuncts {
            let Some((constant, from, to)) = bijection_of(c, &index, constant_types, given_sets)
            else {
                continue;
            };
            let in_use = |s: u32| {
                classes.iter().any(|class| class.set == s) || bijections.iter().any(|b| b.fixes(s))
            };
            let rule = match (from, to) {
                (Side::Given(a), Side::Given(b)) => {
                    (a != b && symmetric(a) && symmetric(b) && !in_use(b))
                        .then_some((Some(a), Some(b)))
                }
                (Side::Other(x), Side::Given(d)) | (Side::Given(d), Side::Other(x)) => {
                    (symmetric(d) && !in_use(d) && !mentions_deferred(x, given_sets)).then_some(
                        if matches!(to, Side::Given(_)) {
                            (None, Some(d))
                        } else {
                            (Some(d), None)
                        },
                    )
                }
                _ => None,
            };
            if let Some((from, to)) = rule {
                bijections.push(BijectionRule { constant, from, to });
            }
        }
        ConstantRules {
            classes,
            bijections,
        }
    }

    /// Whether no valuation can be left out.
    pub fn is_trivial(&self) -> bool {
        self.classes.is_empty() && self.bijections.is_empty()
    }

    /// Conditions that every valuation in normal form meets, per deferred
    /// set with a rule, for the constraint solver to post so that it does
    /// not search the others ([`ClassConstraints`]).
    pub fn class_constraints(&self) -> Vec<ClassConstraints> {
        self.classes
            .iter()
            .map(|class| ClassConstraints {
                set: class.set,
                fixed: class.fixed.clone(),
                scalars: class.scalars.clone(),
                blocks: class.partitions.first().cloned().unwrap_or_default(),
                size: class.size,
            })
            .collect()
    }

    /// Whether the valuation `constants` is in normal form.
    pub fn keeps(&self, constants: &[Value]) -> bool {
        self.classes.iter().all(|class| class.keeps(constants))
            && self.bijections.iter().all(|b| b.keeps(constants))
    }
}

impl ClassRules {
    fn keeps(&self, constants: &[Value]) -> bool {
        let index_of = |c: usize| match constants.get(c) {
            Some(Value::Elem(Elem { set, index })) if *set == self.set => Some(*index),
            _ => None,
        };
        for (i, &c) in self.fixed.iter().enumerate() {
            if index_of(c) != Some(i as u32) {
                return false;
            }
        }
        // Elements 0..next are taken by scalars; each scalar takes one of
        // them or the next.
        let mut next = self.fixed.len() as u32;
        for &c in &self.scalars {
            match index_of(c) {
                Some(i) if i < next => {}
                Some(i) if i == next => next += 1,
                _ => return false,
            }
        }
        // The free elements `next..size`, in order of their blocks,
        // partition by partition.
        if self.partitions.is_empty() {
            return true;
        }
        let mut previous: Option<Vec<usize>> = None;
        for e in next..self.size {
            let elem = Value::Elem(Elem {
                set: self.set,
                index: e,
            });
            let key: Vec<usize> = self
                .partitions
                .iter()
                .map(|blocks| {
                    blocks
                        .iter()
                        .position(|&b| match constants.get(b) {
                            Some(Value::Set(items)) => items.binary_search(&elem).is_ok(),
                            _ => false,
                        })
                        .unwrap_or(blocks.len())
                })
                .collect();
            if previous.as_ref().is_some_and(|p| *p > key) {
                return false;
            }
            previous = Some(key);
        }
        true
    }
}

/// The conjuncts of `e` (its top-level `&`s).
fn flatten_and<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            flatten_and(a, out);
            flatten_and(b, out);
        }
        _ => out.push(e),
    }
}

/// The constant `e` names, if it is one.
fn constant(e: &Expr, index: &HashMap<&str, usize>) -> Option<usize> {
    match &e.kind {
        ExprKind::Ident(name) => index.get(name.as_str()).copied(),
        _ => None,
    }
}

/// One side of a bijection `f : A >->> B`.
#[derive(Clone, Copy, Debug)]
enum Side<'t> {
    /// A given set, named whole.
    Given(u32),
    /// Any other set, with the type of its elements.
    Other(&'t Type),
}

/// Whether values of type `t` may hold elements of a deferred set (a
/// free type might).
fn mentions_deferred(t: &Type, given_sets: &[GivenSet]) -> bool {
    match t {
        Type::Int | Type::Bool | Type::String => false,
        Type::Given(g) => given_sets.get(*g as usize).is_none_or(|set| set.deferred),
        Type::Pair(a, b) => mentions_deferred(a, given_sets) || mentions_deferred(b, given_sets),
        Type::Set(e) => mentions_deferred(e, given_sets),
        Type::Free(_) => true,
    }
}

/// The constant and the two sides of a conjunct `f : A >->> B`.
fn bijection_of<'t>(
    c: &Expr,
    index: &HashMap<&str, usize>,
    constant_types: &'t [Type],
    given_sets: &[GivenSet],
) -> Option<(usize, Side<'t>, Side<'t>)> {
    let ExprKind::Binary(BinaryOp::Member, f, space) = &c.kind else {
        return None;
    };
    let ExprKind::Binary(BinaryOp::TotalBijection, from, to) = &space.kind else {
        return None;
    };
    let names = |e: &Expr, s: u32| {
        matches!(&e.kind, ExprKind::Ident(n)
            if given_sets.get(s as usize).is_some_and(|set| set.name == *n))
    };
    let f = constant(f, index)?;
    let Type::Set(pair) = &constant_types[f] else {
        return None;
    };
    let Type::Pair(a, b) = &**pair else {
        return None;
    };
    let side = |e: &Expr, t: &'t Type| match t {
        Type::Given(s) if names(e, *s) => Side::Given(*s),
        _ => Side::Other(t),
    };
    Some((f, side(from, a), side(to, b)))
}

/// The blocks of a conjunct `set = A \/ B \/ ...` (either way round), if
/// every block is a constant.
fn partition_of(c: &Expr, set: &str, index: &HashMap<&str, usize>) -> Option<Vec<usize>> {
    let ExprKind::Binary(BinaryOp::Eq, l, r) = &c.kind else {
        return None;
    };
    let is_set = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if n == set);
    let union = if is_set(l) {
        r
    } else if is_set(r) {
        l
    } else {
        return None;
    };
    let mut blocks = Vec::new();
    union_blocks(union, index, &mut blocks)?;
    (blocks.len() >= 2).then_some(blocks)
}

fn union_blocks(e: &Expr, index: &HashMap<&str, usize>, out: &mut Vec<usize>) -> Option<()> {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Union, a, b) => {
            union_blocks(a, index, out)?;
            union_blocks(b, index, out)
        }
        _ => {
            out.push(constant(e, index)?);
            Some(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elem(index: u32) -> Value {
        Value::Elem(Elem { set: 0, index })
    }

    fn set(indices: &[u32]) -> Value {
        Value::set_from_vec(indices.iter().map(|&i| elem(i)).collect())
    }

    #[test]
    fn a_bijection_with_other_values_is_kept_in_their_order() {
        let pairs = |ps: &[(Value, Value)]| {
            Value::set_from_vec(
                ps.iter()
                    .map(|(a, b)| Value::pair(a.clone(), b.clone()))
                    .collect(),
            )
        };
        let int = Value::Int;
        let onto = BijectionRule {
            constant: 0,
            from: None,
            to: Some(0),
        };
        assert!(onto.keeps(&[pairs(&[(int(5), elem(0)), (int(7), elem(1))])]));
        assert!(!onto.keeps(&[pairs(&[(int(5), elem(1)), (int(7), elem(0))])]));
        let from = BijectionRule {
            constant: 0,
            from: Some(0),
            to: None,
        };
        assert!(from.keeps(&[pairs(&[(elem(0), int(5)), (elem(1), int(7))])]));
        assert!(!from.keeps(&[pairs(&[(elem(0), int(7)), (elem(1), int(5))])]));
        let between = BijectionRule {
            constant: 0,
            from: Some(0),
            to: Some(0),
        };
        assert!(between.keeps(&[pairs(&[(elem(0), elem(0)), (elem(1), elem(1))])]));
        assert!(!between.keeps(&[pairs(&[(elem(0), elem(1)), (elem(1), elem(0))])]));
    }

    #[test]
    fn least_number_rule_leaves_ten_setups_of_the_wiki_machine() {
        let rules = ClassRules {
            set: 0,
            fixed: vec![0, 1],
            scalars: vec![2, 3],
            partitions: Vec::new(),
            size: 6,
        };
        let mut kept = Vec::new();
        for a in 0..6 {
            for b in (0..6).filter(|&b| b != a) {
                for c in 0..6 {
                    for d in 0..6 {
                        let v = [elem(a), elem(b), elem(c), elem(d)];
                        if rules.keeps(&v) {
                            kept.push((c, d));
                        }
                    }
                }
            }
        }
        assert_eq!(kept.len(), 10);
        assert!(kept.contains(&(2, 3)) && !kept.contains(&(3, 2)));
    }

    #[test]
    fn partition_rule_orders_free_elements_by_block() {
        // x : D takes element 0; elements 1..4 are free.
        let rules = ClassRules {
            set: 0,
            fixed: vec![0],
            scalars: Vec::new(),
            partitions: vec![vec![1, 2]],
            size: 4,
        };
        assert!(rules.keeps(&[elem(0), set(&[0, 1]), set(&[2, 3])]));
        assert!(rules.keeps(&[elem(0), set(&[1]), set(&[0, 2, 3])]));
        assert!(!rules.keeps(&[elem(0), set(&[0, 2]), set(&[1, 3])]));
        // Element 0 is not free: its block does not matter.
        assert!(rules.keeps(&[elem(0), set(&[1, 2]), set(&[0, 3])]));
        assert!(!rules.keeps(&[elem(1), set(&[1, 2]), set(&[0, 3])]));
    }
}
