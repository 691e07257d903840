//! Sets grown one element at a time in a `WHILE` loop.
//!
//! `x := x \/ {e}` builds a new set from all of `x` and `e`: a loop that
//! adds n elements so copies O(n²) of them (102,400 additions to two sets
//! took a minute). Where a deterministic loop reads `x` nowhere but in
//! such assignments, nothing can observe `x` before the loop ends, so the
//! elements are collected as they come and added once, sorted, when it
//! ends: [`accumulate`] marks those assignments at compile time
//! ([`CSubst::Accumulate`]); the interpreter collects while the loop runs.

use super::ir::{CExpr, CSubst, CWhile, EK, Slot};
use super::walk::{Visitor, walk_subst};
use crate::frontends::b::ast::BinaryOp;
use crate::frontends::b::value::Value;

/// Marks the assignments `x := x \/ {...}` of `w`'s body whose slot the
/// loop reads and writes nowhere else, and lists their slots in
/// `w.accumulators`. Only a body with at most one outcome qualifies: the
/// elements collected on the way belong to the one iteration that follows.
pub(super) fn accumulate(w: &mut CWhile) {
    if !deterministic(&w.body) {
        return;
    }
    let mut grown = Vec::new();
    growths(&w.body, &mut grown);
    grown.sort_unstable();
    let mut slots: Vec<u32> = Vec::new();
    for run in grown.chunk_by(|a, b| a == b) {
        let slot = run[0];
        // Each growth reads its slot once and writes it once: any other
        // read or write sees `x` (or changes it) before the loop ends.
        let mut reads = Reads { slot, count: 0 };
        reads.pred(&w.cond);
        reads.pred(&w.invariant);
        reads.expr(&w.variant);
        walk_subst(&mut reads, &w.body);
        let mut writes = 0;
        count_writes(&w.body, slot, &mut writes);
        if reads.count == run.len() && writes == run.len() {
            slots.push(slot);
        }
    }
    if !slots.is_empty() {
        mark(&mut w.body, &slots);
        w.accumulators = slots;
    }
}

/// The elements added by `x := x \/ {e1, ...}` (or `{...} \/ x`) to `x`'s
/// frame slot, if `e` is such a growth of `slot`.
fn growth(slot: u32, e: &CExpr) -> Option<Vec<CExpr>> {
    let EK::Binary(BinaryOp::Union, a, b) = &e.kind else {
        return None;
    };
    let reads_slot = |x: &CExpr| match &x.kind {
        EK::Read(Slot::Frame(s)) | EK::Local(s, _) => *s == slot,
        _ => false,
    };
    let elements = |x: &CExpr| match &x.kind {
        EK::SetEnum(items) => Some(items.clone()),
        EK::Lit(Value::Set(items)) => Some(
            items
                .iter()
                .map(|v| CExpr {
                    kind: EK::Lit(v.clone()),
                    span: x.span,
                })
                .collect(),
        ),
        _ => None,
    };
    if reads_slot(a) {
        elements(b)
    } else if reads_slot(b) {
        elements(a)
    } else {
        None
    }
}

/// Whether `s` has at most one outcome: no choice, no `ANY`, no `::` or
/// `: (P)`, no `SELECT` of several branches.
fn deterministic(s: &CSubst) -> bool {
    match s {
        CSubst::Skip | CSubst::Assign(_) | CSubst::Accumulate(..) => true,
        CSubst::BecomesIn(..)
        | CSubst::BecomesSuchThat(..)
        | CSubst::Simultaneous(_)
        | CSubst::Choice(_)
        | CSubst::Select(..)
        | CSubst::Any(..) => false,
        CSubst::Parallel(branches) => branches.iter().all(|(b, _)| deterministic(b)),
        CSubst::Sequence(items) => items.iter().all(deterministic),
        CSubst::Guard(_, b) | CSubst::Assert(_, b, _) | CSubst::Var(_, b) => deterministic(b),
        CSubst::If(branches, otherwise) => {
            branches.iter().all(|(_, b)| deterministic(b))
                && otherwise.as_deref().is_none_or(deterministic)
        }
        CSubst::Case(_, branches, otherwise) => {
            branches.iter().all(|(_, b)| deterministic(b))
                && otherwise.as_deref().is_none_or(deterministic)
        }
        CSubst::While(w) => deterministic(&w.body),
    }
}

/// The slots of the single assignments in `s` that grow their slot, once
/// per assignment (not within nested loops, which collect for themselves).
fn growths(s: &CSubst, out: &mut Vec<u32>) {
    match s {
        CSubst::Assign(list) => {
            if let [(slot, e)] = list.as_slice()
                && growth(*slot, e).is_some()
            {
                out.push(*slot);
            }
        }
        CSubst::Parallel(branches) => branches.iter().for_each(|(b, _)| growths(b, out)),
        CSubst::Sequence(items) => items.iter().for_each(|b| growths(b, out)),
        CSubst::Guard(_, b) | CSubst::Assert(_, b, _) | CSubst::Var(_, b) => growths(b, out),
        CSubst::If(branches, otherwise) | CSubst::Select(branches, otherwise) => {
            branches.iter().for_each(|(_, b)| growths(b, out));
            otherwise.iter().for_each(|o| growths(o, out));
        }
        CSubst::Case(_, branches, otherwise) => {
            branches.iter().for_each(|(_, b)| growths(b, out));
            otherwise.iter().for_each(|o| growths(o, out));
        }
        _ => {}
    }
}

/// Counts the writes of `slot` in `s`, nested loops included (a nested
/// loop's own collecting counts as a write its growths do not match).
fn count_writes(s: &CSubst, slot: u32, count: &mut usize) {
    match s {
        CSubst::Accumulate(..) | CSubst::While(_) => {
            // A nested loop that writes the slot, however, is not matched
            // by a growth of this loop.
            if super::compile_subst::writes(s).contains(&slot) {
                *count += 2;
            }
        }
        CSubst::Assign(list) => *count += list.iter().filter(|(s, _)| *s == slot).count(),
        CSubst::Parallel(branches) => branches
            .iter()
            .for_each(|(b, _)| count_writes(b, slot, count)),
        CSubst::Sequence(items) => items.iter().for_each(|b| count_writes(b, slot, count)),
        CSubst::Guard(_, b) | CSubst::Assert(_, b, _) | CSubst::Var(_, b) => {
            count_writes(b, slot, count)
        }
        CSubst::If(branches, otherwise) | CSubst::Select(branches, otherwise) => {
            branches
                .iter()
                .for_each(|(_, b)| count_writes(b, slot, count));
            otherwise.iter().for_each(|o| count_writes(o, slot, count));
        }
        CSubst::Case(_, branches, otherwise) => {
            branches
                .iter()
                .for_each(|(_, b)| count_writes(b, slot, count));
            otherwise.iter().for_each(|o| count_writes(o, slot, count));
        }
        other => {
            if super::compile_subst::writes(other).contains(&slot) {
                *count += 2;
            }
        }
    }
}

/// Counts the reads of one frame slot.
struct Reads {
    slot: u32,
    count: usize,
}

impl Visitor for Reads {
    fn read(&mut self, slot: Slot) {
        if slot == Slot::Frame(self.slot) {
            self.count += 1;
        }
    }
}

/// Turns the growths of `slots` in `s` into [`CSubst::Accumulate`].
fn mark(s: &mut CSubst, slots: &[u32]) {
    match s {
        CSubst::Assign(list) => {
            if let [(slot, e)] = list.as_slice()
                && slots.contains(slot)
                && let Some(elements) = growth(*slot, e)
            {
                *s = CSubst::Accumulate(*slot, elements, e.clone());
            }
        }
        CSubst::Parallel(branches) => branches.iter_mut().for_each(|(b, _)| mark(b, slots)),
        CSubst::Sequence(items) => items.iter_mut().for_each(|b| mark(b, slots)),
        CSubst::Guard(_, b) | CSubst::Assert(_, b, _) | CSubst::Var(_, b) => mark(b, slots),
        CSubst::If(branches, otherwise) | CSubst::Select(branches, otherwise) => {
            branches.iter_mut().for_each(|(_, b)| mark(b, slots));
            otherwise.iter_mut().for_each(|o| mark(o, slots));
        }
        CSubst::Case(_, branches, otherwise) => {
            branches.iter_mut().for_each(|(_, b)| mark(b, slots));
            otherwise.iter_mut().for_each(|o| mark(o, slots));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::frontends::b::eval::ir::{CPred, PK};

    fn e(kind: EK) -> CExpr {
        CExpr {
            kind,
            span: Span::default(),
        }
    }

    fn read(slot: u32) -> CExpr {
        e(EK::Read(Slot::Frame(slot)))
    }

    /// `slot := slot \/ {slot 9}`.
    fn grow(slot: u32) -> CSubst {
        let one = e(EK::SetEnum(vec![read(9)]));
        CSubst::Assign(vec![(
            slot,
            e(EK::Binary(
                BinaryOp::Union,
                Box::new(read(slot)),
                Box::new(one),
            )),
        )])
    }

    fn lp(body: CSubst, invariant: PK) -> CWhile {
        let truth = |kind| CPred {
            kind,
            span: Span::default(),
        };
        CWhile {
            cond: truth(PK::Const(true)),
            body,
            invariant: truth(invariant),
            variant: read(9),
            accumulators: Vec::new(),
        }
    }

    fn marked(w: &CWhile) -> Vec<u32> {
        let mut out = Vec::new();
        let mut visit = |s: &CSubst| {
            if let CSubst::Accumulate(slot, ..) = s {
                out.push(*slot);
            }
        };
        match &w.body {
            CSubst::Sequence(items) => items.iter().for_each(&mut visit),
            other => visit(other),
        }
        out
    }

    #[test]
    fn only_slots_read_nowhere_else_are_collected() {
        // Slot 1 grows twice and is read nowhere else; slot 2 grows, but
        // the invariant reads it; slot 3 grows and is assigned too.
        let body = CSubst::Sequence(vec![
            grow(1),
            grow(2),
            grow(1),
            grow(3),
            CSubst::Assign(vec![(3, read(9))]),
        ]);
        let in_two = PK::Member(read(9), read(2), false);
        let mut w = lp(body, in_two);
        accumulate(&mut w);
        assert_eq!(w.accumulators, vec![1]);
        assert_eq!(marked(&w), vec![1, 1]);
    }

    #[test]
    fn a_body_with_several_outcomes_collects_nothing() {
        let body = CSubst::Choice(vec![grow(1), CSubst::Skip]);
        let mut w = lp(body, PK::Const(true));
        accumulate(&mut w);
        assert!(w.accumulators.is_empty());
        let mut w = lp(grow(1), PK::Const(true));
        accumulate(&mut w);
        assert_eq!(w.accumulators, vec![1]);
    }
}
