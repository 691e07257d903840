//! Typing rules of substitutions, and the check that outputs are assigned.
//!
//! A substitution is well typed when its predicates are, and each assigned
//! value has the type of its target. Only machine variables (in the
//! `INITIALISATION` and operations), operation outputs and `VAR` locals may
//! be assigned; constants, input parameters and names bound by `ANY`/`LET`
//! may not.
//!
//! Every output of an operation must be assigned on every path through its
//! body ([`assigned_on_every_path`]): a sequence or parallel composition
//! assigns what either part assigns, a choice (`IF`, `SELECT`, `CASE`,
//! `CHOICE`) what all its branches assign; an `IF` without `ELSE` has an
//! implicit `skip` branch, while a `SELECT` or `CASE` without `ELSE` only
//! has its listed branches (when no guard holds nothing happens at all).

use super::Checker;
use super::scope::What;
use super::unify::TermId;
use crate::b::ast::{AssignTarget, Ident, Subst, SubstKind};
use crate::diag::Diagnostic;
use std::collections::BTreeSet;

impl Checker {
    /// Checks a substitution.
    pub(crate) fn subst(&mut self, s: &Subst) {
        match &s.kind {
            SubstKind::Skip => {}
            SubstKind::Assign(targets, values) => {
                if targets.len() != values.len() {
                    self.error(Diagnostic::error(
                        s.span,
                        format!(
                            "{} names are assigned {} values",
                            targets.len(),
                            values.len()
                        ),
                    ));
                }
                for (target, value) in targets.iter().zip(values) {
                    let t = self.target(target);
                    self.expect(value, t);
                }
            }
            SubstKind::BecomesElementOf(ids, set) => {
                let terms: Vec<TermId> = ids.iter().map(|id| self.assignable(id)).collect();
                let tuple = self.tuple(&terms);
                let set_type = self.terms.set(tuple);
                self.expect(set, set_type);
            }
            SubstKind::BecomesSuchThat(ids, p) => {
                for id in ids {
                    self.assignable(id);
                }
                self.pred(p);
            }
            SubstKind::Parallel(parts) | SubstKind::Sequence(parts) | SubstKind::Choice(parts) => {
                for part in parts {
                    self.subst(part);
                }
            }
            SubstKind::Block(body) => self.subst(body),
            SubstKind::Precondition(p, body) | SubstKind::Assert(p, body) => {
                self.pred(p);
                self.subst(body);
            }
            SubstKind::Select(branches, otherwise) | SubstKind::If(branches, otherwise) => {
                for (guard, body) in branches {
                    self.pred(guard);
                    self.subst(body);
                }
                if let Some(otherwise) = otherwise {
                    self.subst(otherwise);
                }
            }
            SubstKind::Case(selector, branches, otherwise) => {
                let t = self.infer(selector);
                for (values, body) in branches {
                    for v in values {
                        self.expect(v, t);
                    }
                    self.subst(body);
                }
                if let Some(otherwise) = otherwise {
                    self.subst(otherwise);
                }
            }
            SubstKind::Any(ids, p, body) => {
                let mark = self.bind(ids, What::Bound("ANY"));
                self.pred(p);
                self.subst(body);
                self.scope.truncate(mark);
            }
            SubstKind::Let(ids, p, body) => {
                let mark = self.bind(ids, What::Bound("LET"));
                self.pred(p);
                self.subst(body);
                self.scope.truncate(mark);
            }
            SubstKind::Var(ids, body) => {
                let mark = self.bind(ids, What::Local);
                self.subst(body);
                self.scope.truncate(mark);
            }
        }
    }

    /// The type of the left-hand side of `:=`.
    fn target(&mut self, target: &AssignTarget) -> TermId {
        match target {
            AssignTarget::Var(id) => self.assignable(id),
            AssignTarget::FunctionPoint(f, args) => {
                let t = self.assignable(f);
                let (dom, ran) = (self.terms.var(), self.terms.var());
                let rel = self.terms.relation(dom, ran);
                if self.terms.unify(rel, t).is_err() {
                    let found = self.show(t);
                    self.error(Diagnostic::error(
                        f.span,
                        format!(
                            "`{}(...) :=` needs a function, but `{}` has type {found}",
                            f.name, f.name
                        ),
                    ));
                    return self.terms.var();
                }
                let arg_terms: Vec<TermId> = args.iter().map(|a| self.infer(a)).collect();
                let arg = self.tuple(&arg_terms);
                let span = args
                    .first()
                    .map_or(f.span, |a| a.span.to(args[args.len() - 1].span));
                self.unify_at(span, dom, arg);
                ran
            }
        }
    }

    /// The type of a name being assigned; reports names that may not be.
    fn assignable(&mut self, id: &Ident) -> TermId {
        let b = self.ident(&id.name, id.span);
        let problem = match b.what {
            What::Variable(_) | What::Output | What::Local | What::Unknown => None,
            What::Param => Some(format!(
                "cannot assign to input parameter `{}` of operation `{}`",
                id.name,
                self.operation.as_deref().unwrap_or("?")
            )),
            What::Bound(by) => Some(format!(
                "cannot assign to `{}`: it is bound by {by} and read only",
                id.name
            )),
            other => Some(format!(
                "cannot assign to {} `{}`",
                other.describe(),
                id.name
            )),
        };
        if let Some(message) = problem {
            self.error(
                Diagnostic::error(id.span, message).with_note(
                    "only variables, operation outputs and `VAR` locals can be assigned",
                ),
            );
        }
        b.term
    }
}

/// The names a substitution assigns on every path through it.
pub(crate) fn assigned_on_every_path(s: &Subst) -> BTreeSet<&str> {
    match &s.kind {
        SubstKind::Skip => BTreeSet::new(),
        SubstKind::Assign(targets, _) => targets
            .iter()
            .map(|t| match t {
                AssignTarget::Var(id) | AssignTarget::FunctionPoint(id, _) => id.name.as_str(),
            })
            .collect(),
        SubstKind::BecomesElementOf(ids, _) | SubstKind::BecomesSuchThat(ids, _) => {
            ids.iter().map(|id| id.name.as_str()).collect()
        }
        SubstKind::Parallel(parts) | SubstKind::Sequence(parts) => {
            parts.iter().flat_map(assigned_on_every_path).collect()
        }
        SubstKind::Choice(parts) => all_branches(parts.iter()),
        SubstKind::Block(body)
        | SubstKind::Precondition(_, body)
        | SubstKind::Assert(_, body)
        | SubstKind::Any(_, _, body)
        | SubstKind::Let(_, _, body) => assigned_on_every_path(body),
        SubstKind::Var(ids, body) => {
            let mut names = assigned_on_every_path(body);
            for id in ids {
                names.remove(id.name.as_str());
            }
            names
        }
        SubstKind::Select(branches, otherwise) => {
            all_branches(branches.iter().map(|(_, b)| b).chain(otherwise.as_deref()))
        }
        SubstKind::Case(_, branches, otherwise) => {
            all_branches(branches.iter().map(|(_, b)| b).chain(otherwise.as_deref()))
        }
        SubstKind::If(branches, otherwise) => match otherwise {
            Some(otherwise) => {
                all_branches(branches.iter().map(|(_, b)| b).chain(Some(&**otherwise)))
            }
            None => BTreeSet::new(),
        },
    }
}

/// The names every one of several branches assigns.
fn all_branches<'a>(mut branches: impl Iterator<Item = &'a Subst>) -> BTreeSet<&'a str> {
    let Some(first) = branches.next() else {
        return BTreeSet::new();
    };
    let mut names = assigned_on_every_path(first);
    for b in branches {
        let other = assigned_on_every_path(b);
        names.retain(|n| other.contains(n));
    }
    names
}
