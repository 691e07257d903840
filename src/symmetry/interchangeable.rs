//! Which given-set elements symmetry reduction may permute.
//!
//! Deferred sets (and set parameters of the machine): all their elements are
//! interchangeable, since the machine cannot name any of them.
//! Enumerated sets: the elements that the machine never names in any
//! predicate, expression or substitution are interchangeable among
//! themselves ([Leuschel et al. 2007] §6: in SymCounterEx, `add` names
//! `s1`, so `s1` is fixed and only `s2` and `s3` may be swapped). A name
//! counts as a use even where a bound variable shadows it; that only fixes
//! more elements, which is always sound.

use crate::b::ast::{ExprKind, Machine};
use crate::b::types::GivenSet;
use crate::b::visit::walk_machine_exprs;
use std::collections::HashSet;

/// For each given set (by number), the indices of its elements that may be
/// permuted among themselves: empty when fewer than two are free.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interchangeable {
    /// `movable[s]`: sorted indices of the free elements of given set `s`.
    pub movable: Vec<Vec<u32>>,
    /// `set_sizes[s]`: number of elements of given set `s`.
    pub set_sizes: Vec<usize>,
}

impl Interchangeable {
    /// Finds the interchangeable elements of `machine`'s given sets.
    pub fn of(machine: &Machine, given_sets: &[GivenSet]) -> Self {
        let mut named: HashSet<&str> = HashSet::new();
        walk_machine_exprs(machine, &mut |e| {
            if let ExprKind::Ident(name) = &e.kind {
                named.insert(name.as_str());
            }
        });
        let movable = given_sets
            .iter()
            .map(|set| {
                let free: Vec<u32> = if set.deferred {
                    (0..set.elements.len() as u32).collect()
                } else {
                    (0..set.elements.len() as u32)
                        .filter(|&i| !named.contains(set.elements[i as usize].as_str()))
                        .collect()
                };
                if free.len() >= 2 { free } else { Vec::new() }
            })
            .collect();
        Interchangeable {
            movable,
            set_sizes: given_sets.iter().map(|s| s.elements.len()).collect(),
        }
    }

    /// No interchangeable element at all (symmetry reduction is the identity).
    pub fn none() -> Self {
        Interchangeable {
            movable: Vec::new(),
            set_sizes: Vec::new(),
        }
    }

    /// Whether any element can be permuted at all.
    pub fn is_trivial(&self) -> bool {
        self.movable.iter().all(Vec::is_empty)
    }

    /// Number of permutations in the symmetry group (the product of the
    /// factorials of the class sizes), saturating at `u64::MAX`.
    pub fn group_order(&self) -> u64 {
        self.movable
            .iter()
            .flat_map(|m| 2..=m.len() as u64)
            .fold(1u64, |acc, k| acc.saturating_mul(k))
    }
}
