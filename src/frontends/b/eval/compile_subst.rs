//! Compiling substitutions into [`CSubst`] trees.
//!
//! `f(x) := e` becomes `f := f <+ {x |-> e}`; `BEGIN S END` is `S`; a
//! single-branch `SELECT` without `ELSE` (and `WHEN`) is a guard like
//! `PRE`. For `||` the set of slots each branch writes is computed here, and
//! two branches writing the same variable are rejected statically, as B's
//! rules demand.

use super::compile::{CResult, Compiler};
use super::ir::{CExpr, CSubst, CWhile, EK, Pattern, Simultaneous, Slot, Undefined};
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{AssignTarget, BinaryOp, Expr, ExprKind, Ident, Subst, SubstKind};
use crate::frontends::b::types::Type;

impl Compiler<'_> {
    /// Compiles a substitution.
    pub fn subst(&mut self, s: &Subst) -> CResult<CSubst> {
        Ok(match &s.kind {
            SubstKind::Skip => CSubst::Skip,
            SubstKind::Assign(targets, values) => {
                if targets.len() != values.len() {
                    return Err(Diagnostic::error(
                        s.span,
                        "as many values as targets are needed in `:=`",
                    ));
                }
                let mut out: Vec<(u32, CExpr)> = Vec::new();
                for (t, v) in targets.iter().zip(values) {
                    let (slot, value) = match t {
                        AssignTarget::Var(name) => (self.target(name)?, self.expr(v)?),
                        AssignTarget::FunctionPoint(name, args) => {
                            let slot = self.target(name)?;
                            let arg = self.args_tuple(args, name.span)?;
                            let value = self.expr(v)?;
                            // A curried update's reads of the function it
                            // updates span the target, from its name on.
                            super::walk::Visitor::expr(
                                &mut TargetReads {
                                    start: name.span.start,
                                    out: &mut self.nested_targets,
                                },
                                &value,
                            );
                            let span = name.span.to(value.span);
                            let maplet = CExpr {
                                kind: EK::Binary(BinaryOp::Maplet, Box::new(arg), Box::new(value)),
                                span,
                            };
                            let single = CExpr {
                                kind: EK::SetEnum(vec![maplet]),
                                span,
                            };
                            let old = CExpr {
                                kind: EK::Read(Slot::Frame(slot)),
                                span: name.span,
                            };
                            (
                                slot,
                                CExpr {
                                    kind: EK::Binary(
                                        BinaryOp::Override,
                                        Box::new(old),
                                        Box::new(single),
                                    ),
                                    span,
                                },
                            )
                        }
                    };
                    if out.iter().any(|(s, _)| *s == slot) {
                        return Err(Diagnostic::error(
                            s.span,
                            format!("`{}` is assigned twice", self.slot_name(slot)),
                        ));
                    }
                    out.push((slot, value));
                }
                CSubst::Assign(out)
            }
            SubstKind::BecomesElementOf(names, set) => {
                let mut slots = Vec::new();
                for n in names {
                    slots.push(self.target(n)?);
                }
                let mut it = slots.iter().map(|&s| Pattern::Slot(s));
                let first = it
                    .next()
                    .ok_or_else(|| Diagnostic::error(s.span, "`::` needs a target"))?;
                let pat = it.fold(first, |acc, p| Pattern::Pair(Box::new(acc), Box::new(p)));
                CSubst::BecomesIn(pat, self.expr(set)?)
            }
            SubstKind::BecomesSuchThat(names, p) => {
                let mut targets = Vec::new();
                for n in names {
                    targets.push(self.target(n)?);
                }
                let mark = self.mark();
                // Inside P, `x` is the new value (a fresh slot) and `x$0` the old one.
                let mut pairs = Vec::new();
                let mut types = Vec::new();
                for (n, &t) in names.iter().zip(&targets) {
                    self.push_name(&format!("{}$0", n.name), Slot::Frame(t));
                    let fresh = self.alloc();
                    self.push_name(&n.name, Slot::Frame(fresh));
                    pairs.push((t, fresh));
                    types.push(self.slot_types.get(t as usize).cloned().flatten());
                }
                let fresh: Vec<u32> = pairs.iter().map(|p| p.1).collect();
                let known: Option<Vec<Type>> = types.into_iter().collect();
                let mut solver =
                    self.solver(names, &fresh, known.as_deref(), p, s.span, Undefined::Error)?;
                solver.by_solver = self.large_binder_unknowns(names, known, &solver);
                self.pop(mark);
                // Keep the fresh slots reserved past the solver: they are
                // read after solving, when the targets are assigned.
                for _ in &fresh {
                    self.alloc();
                }
                CSubst::BecomesSuchThat(pairs, Box::new(solver))
            }
            SubstKind::Parallel(branches) => {
                let mut out: Vec<(CSubst, Vec<u32>)> = Vec::new();
                let mut shared = false;
                for b in flatten_parallel(branches) {
                    let c = self.subst(b)?;
                    let w = writes(&c);
                    for (_, other) in &out {
                        if self.types.simultaneous_assignments {
                            shared |= w.iter().any(|x| other.contains(x));
                            continue;
                        }
                        if let Some(slot) = w.iter().find(|x| other.contains(x)) {
                            return Err(Diagnostic::error(
                                b.span,
                                format!(
                                    "`{}` is written by two branches of `||`",
                                    self.slot_name(*slot)
                                ),
                            ));
                        }
                    }
                    out.push((c, w));
                }
                if shared {
                    let mut slots: Vec<u32> = out.iter().flat_map(|(_, w)| w.clone()).collect();
                    slots.sort_unstable();
                    slots.dedup();
                    let names = slots.iter().map(|&x| self.slot_name(x)).collect();
                    CSubst::Simultaneous(Box::new(Simultaneous {
                        branches: out,
                        slots,
                        names,
                        span: s.span,
                    }))
                } else if out
                    .iter()
                    .all(|(c, _)| matches!(c, CSubst::Assign(_) | CSubst::Skip))
                {
                    // Deterministic assignments with disjoint targets, all
                    // evaluated in the pre-state: one simultaneous assignment.
                    let mut merged = Vec::new();
                    for (c, _) in out {
                        if let CSubst::Assign(list) = c {
                            merged.extend(list);
                        }
                    }
                    CSubst::Assign(merged)
                } else {
                    CSubst::Parallel(out)
                }
            }
            SubstKind::Sequence(items) => CSubst::Sequence(
                items
                    .iter()
                    .map(|x| self.subst(x))
                    .collect::<CResult<_>>()?,
            ),
            SubstKind::Block(inner) => self.subst(inner)?,
            // The outermost PRE of an operation is its guard (see
            // `Interpreter::new`); one inside a body is an error where it
            // fails, as in ProB (a call's caller broke its contract).
            SubstKind::Precondition(p, body) => CSubst::Assert(
                self.pred(p)?,
                Box::new(self.subst(body)?),
                "precondition (PRE) inside the operation's body is false".into(),
            ),
            SubstKind::Assert(p, body) => CSubst::Assert(
                self.pred(p)?,
                Box::new(self.subst(body)?),
                "ASSERT condition is false".into(),
            ),
            SubstKind::CalledPre(op, p, body) => CSubst::Assert(
                self.pred(p)?,
                Box::new(self.subst(body)?),
                format!("precondition of called operation `{}` is false", op.name).into(),
            ),
            SubstKind::Select(branches, None) if branches.len() == 1 => {
                let (p, body) = &branches[0];
                CSubst::Guard(self.pred(p)?, Box::new(self.subst(body)?))
            }
            SubstKind::Select(branches, otherwise) => CSubst::Select(
                self.branches(branches)?,
                self.optional(otherwise.as_deref())?,
            ),
            SubstKind::If(branches, otherwise) => CSubst::If(
                self.branches(branches)?,
                self.optional(otherwise.as_deref())?,
            ),
            SubstKind::Case(e, branches, otherwise) => {
                let e = self.expr(e)?;
                let mut out = Vec::new();
                for (values, body) in branches {
                    let vs = values
                        .iter()
                        .map(|v| self.expr(v))
                        .collect::<CResult<Vec<_>>>()?;
                    out.push((vs, self.subst(body)?));
                }
                CSubst::Case(e, out, self.optional(otherwise.as_deref())?)
            }
            SubstKind::Choice(items) => CSubst::Choice(
                items
                    .iter()
                    .map(|x| self.subst(x))
                    .collect::<CResult<_>>()?,
            ),
            SubstKind::Any(names, p, body) | SubstKind::Let(names, p, body) => {
                let mark = self.mark();
                let vars = self.bind(names);
                // The variables are the machine's (see `plan::plan`).
                let types: Option<Vec<Type>> = names
                    .iter()
                    .map(|n| self.types.bound_type(n).cloned())
                    .collect();
                let mut solver =
                    self.solver(names, &vars, types.as_deref(), p, s.span, Undefined::False)?;
                solver.by_solver = self.large_binder_unknowns(names, types, &solver);
                let body = self.subst(body)?;
                self.pop(mark);
                CSubst::Any(Box::new(solver), Box::new(body))
            }
            SubstKind::Var(names, body) => {
                let mark = self.mark();
                let vars = self.bind_locals(names);
                let body = self.subst(body)?;
                self.pop(mark);
                CSubst::Var(vars, Box::new(body))
            }
            SubstKind::While(w) => {
                let mut w = CWhile {
                    cond: self.pred(&w.cond)?,
                    body: self.subst(&w.body)?,
                    invariant: self.while_invariant(&w.invariant)?,
                    variant: self.expr(&w.variant)?,
                    accumulators: Vec::new(),
                };
                super::accumulate::accumulate(&mut w);
                CSubst::While(Box::new(w))
            }
            SubstKind::OpCall(_, op, _) => {
                return Err(Diagnostic::error(
                    op.span,
                    format!("unknown operation `{}`", op.name),
                ));
            }
        })
    }

    /// A WHILE invariant without its typing conjuncts (`p : INTEGER`):
    /// they hold of every well-typed value, and ProB's loops type their
    /// outputs so before the first iteration has assigned them.
    fn while_invariant(&mut self, invariant: &Expr) -> CResult<super::ir::CPred> {
        use super::ir::{CPred, PK};
        let p = self.pred(invariant)?;
        let given_sets = &self.types.given_sets;
        let typing = |c: &CPred| {
            matches!(&c.kind, PK::Member(_, set, false)
                if super::symbolic::is_whole_type(set, given_sets))
        };
        Ok(match p.kind {
            PK::And(conjuncts) => CPred {
                kind: PK::And(conjuncts.into_iter().filter(|c| !typing(c)).collect()),
                span: p.span,
            },
            _ if typing(&p) => CPred {
                kind: PK::Const(true),
                span: p.span,
            },
            kind => CPred { kind, span: p.span },
        })
    }

    fn branches(&mut self, branches: &[(Expr, Subst)]) -> CResult<Vec<(super::ir::CPred, CSubst)>> {
        branches
            .iter()
            .map(|(p, s)| Ok((self.pred(p)?, self.subst(s)?)))
            .collect()
    }

    fn optional(&mut self, s: Option<&Subst>) -> CResult<Option<Box<CSubst>>> {
        s.map(|s| self.subst(s).map(Box::new)).transpose()
    }

    /// The frame slot of an assignable name (variable, output or local).
    fn target(&self, name: &Ident) -> CResult<u32> {
        match self.resolve(&name.name) {
            Some(Slot::Frame(s)) => Ok(s),
            Some(Slot::Const(_)) => Err(Diagnostic::error(
                name.span,
                format!("cannot assign to constant `{}`", name.name),
            )),
            None => Err(
                Diagnostic::error(name.span, format!("unknown variable `{}`", name.name))
                    .with_label("not a variable, output or local variable"),
            ),
        }
    }

    fn args_tuple(&mut self, args: &[Expr], span: Span) -> CResult<CExpr> {
        let joined = args
            .iter()
            .cloned()
            .reduce(|a, b| {
                let span = a.span.to(b.span);
                Expr {
                    kind: ExprKind::Binary(BinaryOp::Maplet, Box::new(a), Box::new(b)),
                    span,
                }
            })
            .ok_or_else(|| Diagnostic::error(span, "`f() :=` needs an argument"))?;
        self.expr(&joined)
    }
}

fn flatten_parallel(branches: &[Subst]) -> Vec<&Subst> {
    let mut out = Vec::new();
    for b in branches {
        match &b.kind {
            SubstKind::Parallel(inner) => out.extend(flatten_parallel(inner)),
            _ => out.push(b),
        }
    }
    out
}

/// The frame slots a substitution may assign, outside its own locals.
pub fn writes(s: &CSubst) -> Vec<u32> {
    let mut out = Vec::new();
    collect_writes(s, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn collect_writes(s: &CSubst, out: &mut Vec<u32>) {
    match s {
        CSubst::Skip => {}
        CSubst::Assign(list) => out.extend(list.iter().map(|(s, _)| *s)),
        CSubst::BecomesIn(p, _) => pattern_targets(p, out),
        CSubst::BecomesSuchThat(pairs, _) => out.extend(pairs.iter().map(|p| p.0)),
        CSubst::Parallel(bs) => bs.iter().for_each(|(b, _)| collect_writes(b, out)),
        CSubst::Simultaneous(p) => out.extend(&p.slots),
        CSubst::Sequence(bs) | CSubst::Choice(bs) => bs.iter().for_each(|b| collect_writes(b, out)),
        CSubst::Guard(_, b) | CSubst::Assert(_, b, _) | CSubst::Any(_, b) => collect_writes(b, out),
        CSubst::Select(bs, e) | CSubst::If(bs, e) => {
            bs.iter().for_each(|(_, b)| collect_writes(b, out));
            if let Some(e) = e {
                collect_writes(e, out);
            }
        }
        CSubst::Case(_, bs, e) => {
            bs.iter().for_each(|(_, b)| collect_writes(b, out));
            if let Some(e) = e {
                collect_writes(e, out);
            }
        }
        CSubst::While(w) => collect_writes(&w.body, out),
        CSubst::Accumulate(slot, _, _) => out.push(*slot),
        CSubst::Var(locals, b) => {
            let mut inner = Vec::new();
            collect_writes(b, &mut inner);
            out.extend(inner.into_iter().filter(|s| !locals.contains(s)));
        }
    }
}

fn pattern_targets(p: &Pattern, out: &mut Vec<u32>) {
    match p {
        Pattern::Slot(s) => out.push(*s),
        Pattern::Bound(_) | Pattern::Any => {}
        Pattern::Pair(a, b) => {
            pattern_targets(a, out);
            pattern_targets(b, out);
        }
    }
}

/// Collects the spans of the applications that start at `start` (where an
/// assignment's target is written): a curried update's reads of the
/// function it updates.
struct TargetReads<'a> {
    start: u32,
    out: &'a mut Vec<Span>,
}

impl super::walk::Visitor for TargetReads<'_> {
    fn expr(&mut self, e: &CExpr) {
        if matches!(e.kind, EK::Apply(..)) && e.span.start == self.start {
            self.out.push(e.span);
        }
        super::walk::walk_expr(self, e);
    }
}
