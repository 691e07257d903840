//! Partial order reduction for LTL without next-time: which groups a
//! property makes visible, and what it refuses.
//!
//! The model graph the LTL check reads is built through ample sets
//! ([`crate::por`]) satisfying, per state (Clarke, Grumberg and Peled,
//! *Model Checking*, §10; Peled, CAV 1994):
//!
//! * C0, C1: the ample set is empty only in a deadlock, and no group
//!   dependent on it can run before one of it (the rule's A1, A2);
//! * C2 (visibility): a proper ample set holds no *visible* group, one that
//!   may change an atom: it writes a slot that a predicate atom `{p}`
//!   reads, or one that the guard of an operation named by `e(op)` reads;
//! * C3 (cycles): every cycle of the reduced graph has a fully expanded
//!   state. The graph build ([`crate::temporal::graph`]) is breadth-first
//!   and expands a state fully when one of its ample successors lies on the
//!   state's own level or an earlier one: the levels along a cycle cannot
//!   only grow, so some edge of it goes to a level no deeper than its
//!   source, and that source was fully expanded. Levels and numbering do
//!   not depend on the thread count, so neither does the graph.
//!
//! Then every path of the model has a path of the reduced graph that is
//! stuttering-equivalent to it on the atoms, and a formula without `X` has
//! the same truth on both. `deadlock` needs no visible group: a path that
//! ends in a deadlock runs, in the reduced graph, the same steps in
//! another order (an ample set none of whose groups the path takes would
//! stay enabled to its end, C1), so it ends in the same deadlock, and no
//! state before it is one.
//!
//! Refused by name: `X` (not invariant under stuttering), `[op]` (the step
//! taken is part of each letter, so moving an invisible step before a
//! visible one changes the word) and fairness (the reduced graph changes
//! which groups are enabled along a cycle, and so which cycles are fair).

use super::formula::{Atom, Ltl, Property};
use crate::model::{GroupSet, Model};

/// Whether `f` uses the next-time operator.
fn has_next(f: &Ltl) -> bool {
    match f {
        Ltl::Next(_) => true,
        Ltl::True | Ltl::False | Ltl::Atom(_) => false,
        Ltl::Not(a) => has_next(a),
        Ltl::And(a, b) | Ltl::Or(a, b) | Ltl::Until(a, b) | Ltl::Release(a, b) => {
            has_next(a) || has_next(b)
        }
    }
}

/// The groups of `model` that may change an atom of `property`, or why
/// partial order reduction cannot preserve the property's verdict.
pub fn visible_groups<M: Model>(model: &M, property: &Property) -> Result<GroupSet, String> {
    if has_next(&property.formula) {
        return Err("the next-time operator X".to_string());
    }
    if !property.fairness.is_empty() {
        return Err("fairness assumptions".to_string());
    }
    let groups = model.groups();
    let mut slots: Vec<usize> = Vec::new();
    for atom in &property.atoms {
        match atom {
            Atom::Predicate(text) => {
                slots.extend(model.predicate_reads(text).ok_or_else(|| {
                    format!("the atom `{{{text}}}`, whose variables this language does not tell")
                })?)
            }
            Atom::Enabled(op) => {
                for g in groups.iter().filter(|g| g.name == *op) {
                    slots.extend(&g.guard_reads);
                }
            }
            Atom::Taken(_) | Atom::TakenWith(..) => {
                return Err(format!("the step atom `{atom}`"));
            }
            Atom::EnabledAmong(_, ops) => {
                for g in groups.iter().filter(|g| ops.contains(&g.name)) {
                    slots.extend(&g.guard_reads);
                }
            }
            Atom::Sink => return Err("the atom `sink`".to_string()),
            Atom::Deadlock => {}
        }
    }
    slots.sort_unstable();
    slots.dedup();
    Ok(GroupSet::of(
        groups.len(),
        (0..groups.len()).filter(|&g| {
            groups[g]
                .writes
                .iter()
                .any(|s| slots.binary_search(s).is_ok())
        }),
    ))
}
