//! Typing rules of substitutions, and the check that outputs are assigned.
//!
//! A substitution is well typed when its predicates are, and each assigned
//! value has the type of its target. Only machine variables (in the
//! `INITIALISATION` and operations), operation outputs and `VAR` locals may
//! be assigned; constants, input parameters and names bound by `ANY`/`LET`
//! may not.
//!
//! As B's static rules require, the `INITIALISATION` must assign every
//! variable and an operation every output: each must be in the substitution's
//! frame ([`possibly_assigned`]), i.e. be the target of some assignment in
//! it. Whether a given path really assigns it (an `IF` without `ELSE` may
//! not) is left to the interpreter, which reports it when it happens; the
//! interpreter also reports a name written by two branches of `||`.

use super::Checker;
use super::scope::What;
use super::unify::TermId;
use crate::diag::Diagnostic;
use crate::frontends::b::ast::{AssignTarget, Ident, Subst, SubstKind};

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
            SubstKind::Precondition(p, body)
            | SubstKind::Assert(p, body)
            | SubstKind::CalledPre(_, p, body) => {
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
            SubstKind::While(w) => {
                self.pred(&w.cond);
                self.subst(&w.body);
                self.pred(&w.invariant);
                let int = self.terms.int();
                self.expect(&w.variant, int);
            }
            SubstKind::OpCall(_, op, _) => self.error(
                Diagnostic::error(op.span, format!("unknown operation `{}`", op.name))
                    .with_note("only operations of machines named in INCLUDES, IMPORTS or EXTENDS can be called \
                                (and the machine's own with `SET_PREF_ALLOW_LOCAL_OPERATION_CALLS == TRUE`)"),
            ),
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

/// The names a substitution may assign (its frame), in order, as written.
pub(crate) fn possibly_assigned<'a>(s: &'a Subst, out: &mut Vec<&'a Ident>) {
    match &s.kind {
        SubstKind::Skip => {}
        SubstKind::Assign(targets, _) => out.extend(targets.iter().map(|t| match t {
            AssignTarget::Var(id) | AssignTarget::FunctionPoint(id, _) => id,
        })),
        SubstKind::BecomesElementOf(ids, _) | SubstKind::BecomesSuchThat(ids, _) => out.extend(ids),
        SubstKind::Parallel(parts) | SubstKind::Sequence(parts) | SubstKind::Choice(parts) => {
            for part in parts {
                possibly_assigned(part, out);
            }
        }
        SubstKind::Block(body)
        | SubstKind::Precondition(_, body)
        | SubstKind::Assert(_, body)
        | SubstKind::CalledPre(_, _, body)
        | SubstKind::Any(_, _, body)
        | SubstKind::Let(_, _, body) => possibly_assigned(body, out),
        SubstKind::While(w) => possibly_assigned(&w.body, out),
        SubstKind::OpCall(outputs, _, _) => out.extend(outputs),
        SubstKind::Var(locals, body) => {
            let start = out.len();
            possibly_assigned(body, out);
            let mut i = start;
            while i < out.len() {
                if locals.iter().any(|l| l.name == out[i].name) {
                    out.remove(i);
                } else {
                    i += 1;
                }
            }
        }
        SubstKind::Select(branches, otherwise) | SubstKind::If(branches, otherwise) => {
            for (_, body) in branches {
                possibly_assigned(body, out);
            }
            if let Some(otherwise) = otherwise {
                possibly_assigned(otherwise, out);
            }
        }
        SubstKind::Case(_, branches, otherwise) => {
            for (_, body) in branches {
                possibly_assigned(body, out);
            }
            if let Some(otherwise) = otherwise {
                possibly_assigned(otherwise, out);
            }
        }
    }
}
