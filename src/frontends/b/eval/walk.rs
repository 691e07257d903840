//! Read-only walks of the compiled IR: the one place that knows the parts
//! of every node. A [`Visitor`] overrides what it looks for (the slots a
//! node reads, the slots a binder binds, a kind of node) and lets the
//! `walk_*` functions go through the rest.

use super::ir::{CExpr, CPred, CSubst, EK, Gen, PK, Pattern, Slot, SolveStep, Solver};

/// A read-only visitor of the IR. Each node method's default walks the
/// node's parts; an override may look at the node first and call the
/// matching `walk_*` function to go on, or stop there.
pub(super) trait Visitor {
    /// A slot read: a constant, a frame slot, a local.
    fn read(&mut self, _slot: Slot) {}

    /// A frame slot a binder binds (its variables, a generator's slot, a
    /// pattern's fresh slots).
    fn bind(&mut self, _slot: u32) {}

    /// An expression.
    fn expr(&mut self, e: &CExpr) {
        walk_expr(self, e);
    }

    /// A predicate.
    fn pred(&mut self, p: &CPred) {
        walk_pred(self, p);
    }

    /// A binder's plan.
    fn solver(&mut self, s: &Solver) {
        walk_solver(self, s);
    }
}

/// The walk of an expression node, shared by [`walk_expr`] and
/// [`walk_expr_mut`]: `$kind` is the node's kind by reference (shared or
/// mutable), `$iter` the matching slice iterator, and `$special` the arms
/// where the two differ (slots read, kept and symbolic expressions).
macro_rules! walk_expr_parts {
    ($v:ident, $kind:expr, $iter:ident, { $($special:tt)* }) => {
        match $kind {
            $($special)*
            EK::Lit(_) | EK::Ints(_) | EK::Strings | EK::FreeType(_) => {}
            EK::Unary(_, a) | EK::Component(_, a) | EK::Destruct(_, _, a) => $v.expr(a),
            EK::Splits(a, sizes, _) => {
                $v.expr(a);
                sizes.$iter().flatten().for_each(|e| $v.expr(e));
            }
            EK::Binary(_, a, b)
            | EK::Projection(_, a, b)
            | EK::Iterate(a, b)
            | EK::Apply(a, b)
            | EK::ApplyBinder(a, b)
            | EK::ImageBinder(a, b)
            | EK::ComposeBinder(a, b)
            | EK::Image(a, b) => {
                $v.expr(a);
                $v.expr(b);
            }
            EK::SetEnum(xs) | EK::SeqEnum(xs) | EK::External(_, xs) => {
                xs.$iter().for_each(|x| $v.expr(x));
            }
            EK::Comprehension(s) => $v.solver(s),
            EK::Lambda(s, body) | EK::Quantified(_, s, body) | EK::Let(s, body) => {
                $v.solver(s);
                $v.expr(body);
            }
            EK::BoolOf(p) => $v.pred(p),
            EK::IfThenElse(c, a, b) => {
                $v.pred(c);
                $v.expr(a);
                $v.expr(b);
            }
        }
    };
}

/// The walk of a predicate node, shared by [`walk_pred`] and
/// [`walk_pred_mut`] (as [`walk_expr_parts`]).
macro_rules! walk_pred_parts {
    ($v:ident, $kind:expr, $iter:ident) => {
        match $kind {
            PK::Const(_) => {}
            PK::And(ps) => ps.$iter().for_each(|q| $v.pred(q)),
            PK::Or(a, b) | PK::Implies(a, b) | PK::Equiv(a, b) => {
                $v.pred(a);
                $v.pred(b);
            }
            PK::Not(a) => $v.pred(a),
            PK::Cmp(_, a, b) | PK::Member(a, b, _) | PK::Subset(a, b, ..) => {
                $v.expr(a);
                $v.expr(b);
            }
            PK::ForAll(s, q) => {
                $v.solver(s);
                $v.pred(q);
            }
            PK::Exists(s) => $v.solver(s),
        }
    };
}

/// Visits the parts of `e` (and the slots it reads itself).
pub(super) fn walk_expr<V: Visitor + ?Sized>(v: &mut V, e: &CExpr) {
    walk_expr_parts!(v, &e.kind, iter, {
        EK::Read(slot) => v.read(*slot),
        EK::Local(s, _) => v.read(Slot::Frame(*s)),
        EK::Memo(m) => v.expr(&m.expr),
        EK::Symbolic(d) => v.expr(&d.expr),
        EK::Optimum(o) => {
            v.expr(&o.plain);
            v.bind(o.bound);
            v.solver(&o.bounded);
        }
    })
}

/// Visits the parts of `p`.
pub(super) fn walk_pred<V: Visitor + ?Sized>(v: &mut V, p: &CPred) {
    walk_pred_parts!(v, &p.kind, iter)
}

/// Visits the parts of a generator.
pub(super) fn walk_gen<V: Visitor + ?Sized>(v: &mut V, g: &Gen) {
    match g {
        Gen::Eq(e) | Gen::In(e) => v.expr(e),
        Gen::SeqUpTo {
            elements, max_len, ..
        } => {
            v.expr(elements);
            v.expr(max_len);
        }
        Gen::Cases { cases, otherwise } => {
            for (condition, choice) in cases {
                v.pred(condition);
                v.expr(choice.expr());
            }
            walk_gen(v, otherwise);
        }
        Gen::Recurrence {
            points,
            x,
            over,
            body,
            domain,
            otherwise,
        } => {
            v.expr(points);
            v.expr(over);
            v.bind(*x);
            v.expr(body);
            if let Some(domain) = domain {
                v.expr(domain);
            }
            walk_gen(v, otherwise);
        }
        Gen::Type(_) | Gen::Unbounded(..) => {}
    }
}

/// Visits a destructuring pattern: its fresh slots are bound, the slots
/// it compares with read.
pub(super) fn walk_pattern<V: Visitor + ?Sized>(v: &mut V, p: &Pattern) {
    match p {
        Pattern::Slot(s) => v.bind(*s),
        Pattern::Bound(s) => v.read(Slot::Frame(*s)),
        Pattern::Any => {}
        Pattern::Pair(a, b) => {
            walk_pattern(v, a);
            walk_pattern(v, b);
        }
    }
}

/// Visits a binder's plan: its variables and steps. Its whole condition,
/// the constraint solver's view of it and its image plan restate the
/// predicate the steps hold (the same nodes, the same slots): walking them
/// too would double the walk at each level of nesting.
pub(super) fn walk_solver<V: Visitor + ?Sized>(v: &mut V, s: &Solver) {
    s.vars.iter().for_each(|&slot| v.bind(slot));
    for step in &s.steps {
        walk_step(v, step);
    }
}

/// Walks one step of a plan: the slots it binds, then what it reads.
pub(super) fn walk_step<V: Visitor + ?Sized>(v: &mut V, step: &SolveStep) {
    match step {
        SolveStep::Bind(slot, g) => {
            v.bind(*slot);
            walk_gen(v, g);
        }
        SolveStep::BindPattern(p, e) => {
            walk_pattern(v, p);
            v.expr(e);
        }
        SolveStep::Check(p) => v.pred(p),
        SolveStep::Scan(scan) => {
            v.bind(scan.slot);
            v.read(scan.func);
            v.expr(&scan.set);
            v.expr(&scan.value);
            v.pred(&scan.check);
        }
    }
}

/// Visits every expression, predicate and plan of a substitution, and the
/// slots its patterns and locals bind.
pub(super) fn walk_subst<V: Visitor + ?Sized>(v: &mut V, s: &CSubst) {
    match s {
        CSubst::Skip => {}
        CSubst::Assign(list) => list.iter().for_each(|(_, e)| v.expr(e)),
        CSubst::Accumulate(_, _, whole) => v.expr(whole),
        CSubst::BecomesIn(p, e) => {
            walk_pattern(v, p);
            v.expr(e);
        }
        CSubst::BecomesSuchThat(_, solver) => v.solver(solver),
        CSubst::Parallel(branches) => branches.iter().for_each(|(b, _)| walk_subst(v, b)),
        CSubst::Simultaneous(p) => p.branches.iter().for_each(|(b, _)| walk_subst(v, b)),
        CSubst::Sequence(items) | CSubst::Choice(items) => {
            items.iter().for_each(|b| walk_subst(v, b))
        }
        CSubst::Guard(p, b) | CSubst::Assert(p, b, _) => {
            v.pred(p);
            walk_subst(v, b);
        }
        CSubst::Select(branches, otherwise) | CSubst::If(branches, otherwise) => {
            for (p, b) in branches {
                v.pred(p);
                walk_subst(v, b);
            }
            if let Some(o) = otherwise {
                walk_subst(v, o);
            }
        }
        CSubst::Case(e, branches, otherwise) => {
            v.expr(e);
            for (values, b) in branches {
                values.iter().for_each(|c| v.expr(c));
                walk_subst(v, b);
            }
            if let Some(o) = otherwise {
                walk_subst(v, o);
            }
        }
        CSubst::Any(solver, b) => {
            v.solver(solver);
            walk_subst(v, b);
        }
        CSubst::Var(locals, b) => {
            locals.iter().for_each(|&slot| v.bind(slot));
            walk_subst(v, b);
        }
        CSubst::While(w) => {
            v.pred(&w.cond);
            v.pred(&w.invariant);
            v.expr(&w.variant);
            walk_subst(v, &w.body);
        }
    }
}

/// A visitor that may rewrite the IR in place. Unlike [`Visitor`], it
/// reaches every copy of a node: a rewrite must also reach a binder's
/// whole condition and image plan, which restate its steps. Each method's
/// default walks the node's parts.
pub(super) trait VisitorMut {
    /// An expression.
    fn expr(&mut self, e: &mut CExpr) {
        walk_expr_mut(self, e);
    }

    /// A predicate.
    fn pred(&mut self, p: &mut CPred) {
        walk_pred_mut(self, p);
    }

    /// A binder's plan.
    fn solver(&mut self, s: &mut Solver) {
        walk_solver_mut(self, s);
    }

    /// A generator.
    fn generator(&mut self, g: &mut Gen) {
        walk_gen_mut(self, g);
    }
}

/// Walks the parts of `e` mutably (a kept expression's is made unique; a
/// symbolic constant's definition is a leaf).
pub(super) fn walk_expr_mut<V: VisitorMut + ?Sized>(v: &mut V, e: &mut CExpr) {
    walk_expr_parts!(v, &mut e.kind, iter_mut, {
        EK::Read(_) | EK::Local(..) => {}
        EK::Memo(m) => v.expr(&mut std::sync::Arc::make_mut(m).expr),
        EK::Optimum(o) => {
            v.expr(&mut o.plain);
            v.solver(&mut o.bounded);
        }
        // Shared with the interpreter's definition, whose frame is not
        // this one: never rewritten from here.
        EK::Symbolic(_) => {}
    })
}

/// Walks the parts of `p` mutably.
pub(super) fn walk_pred_mut<V: VisitorMut + ?Sized>(v: &mut V, p: &mut CPred) {
    walk_pred_parts!(v, &mut p.kind, iter_mut)
}

/// Walks the parts of a generator mutably.
pub(super) fn walk_gen_mut<V: VisitorMut + ?Sized>(v: &mut V, g: &mut Gen) {
    match g {
        Gen::Eq(e) | Gen::In(e) => v.expr(e),
        Gen::SeqUpTo {
            elements, max_len, ..
        } => {
            v.expr(elements);
            v.expr(max_len);
        }
        Gen::Cases { cases, otherwise } => {
            for (condition, choice) in cases {
                v.pred(condition);
                v.expr(choice.expr_mut());
            }
            v.generator(otherwise);
        }
        Gen::Recurrence {
            points,
            over,
            body,
            domain,
            otherwise,
            ..
        } => {
            v.expr(points);
            v.expr(over);
            v.expr(body);
            if let Some(domain) = domain {
                v.expr(domain);
            }
            v.generator(otherwise);
        }
        Gen::Type(_) | Gen::Unbounded(..) => {}
    }
}

/// Walks a binder's plan mutably: its steps, its whole condition and its
/// image plan.
pub(super) fn walk_solver_mut<V: VisitorMut + ?Sized>(v: &mut V, s: &mut Solver) {
    for step in &mut s.steps {
        match step {
            SolveStep::Bind(_, g) => v.generator(g),
            SolveStep::BindPattern(_, e) => v.expr(e),
            SolveStep::Check(p) => v.pred(p),
            SolveStep::Scan(scan) => {
                v.expr(&mut scan.set);
                v.expr(&mut scan.value);
                v.pred(&mut scan.check);
            }
        }
    }
    if let Some(condition) = s.condition.as_deref_mut() {
        v.pred(condition);
    }
    if let Some(image) = s.image.as_deref_mut() {
        v.solver(image);
    }
}

#[cfg(test)]
mod tests {
    use super::super::compile::Compiler;
    use super::super::ir::Undefined;
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::ast::ExprKind;
    use crate::frontends::b::types::MachineTypes;

    /// Counts the slots read.
    struct Count(usize);

    impl Visitor for Count {
        fn read(&mut self, _: Slot) {
            self.0 += 1;
        }
    }

    #[test]
    fn each_read_of_nested_binders_is_visited_once() {
        let file = SourceFile::new(
            "p",
            "{x | x : {y | y : {z | z : 1..3 & z > 0} & y > 1} & x > 2}".to_string(),
        );
        let e = crate::frontends::b::parse_expression(&file).expect("parses");
        let ExprKind::Comprehension(ids, p) = &e.kind else {
            panic!("not a comprehension")
        };
        let types = MachineTypes::for_test(None, Vec::new(), Vec::new());
        let mut c = Compiler::new(&types);
        c.reset_frame(0);
        let vars = c.bind(ids);
        let solver = c
            .solver(ids, &vars, None, p, e.span, Undefined::Error)
            .expect("compiles");
        // `z > 0`, `y > 1`, `x > 2`: the conditions kept beside the steps
        // are not walked again.
        let mut count = Count(0);
        count.solver(&solver);
        assert_eq!(count.0, 3);
    }
}
