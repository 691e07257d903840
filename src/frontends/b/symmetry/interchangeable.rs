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

use crate::frontends::b::ast::{ExprKind, Machine};
use crate::frontends::b::types::GivenSet;
use crate::frontends::b::visit::walk_machine_exprs;
use crate::model::Permutable;
use std::collections::HashSet;

/// Finds the interchangeable elements of `machine`'s given sets.
pub fn interchangeable_elements(machine: &Machine, given_sets: &[GivenSet]) -> Permutable {
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
    Permutable {
        movable,
        set_sizes: given_sets.iter().map(|s| s.elements.len()).collect(),
    }
}
