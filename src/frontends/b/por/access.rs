//! Read and write sets of an operation, read syntactically off the AST
//! (Dobrikov and Leuschel, "Optimising the ProB Model Checker for B using
//! Partial Order Reduction", §3: `read_G(e)`, `read_S(e)`, `write(e)`).
//!
//! * `write`: state variables assigned by `:=` (`f(x) := e` writes `f`),
//!   `::` and `: (P)`. Operation parameters, outputs and `ANY`/`LET`/`VAR`
//!   locals are not state variables and are never in a write set.
//! * `read_G`: variables the *enabledness* of the operation may depend on:
//!   the conditions of `PRE`, `SELECT`/`WHEN`, `ANY ... WHERE` and `ASSERT`,
//!   the sets of `x :: S` and predicates of `x : (P)` (an empty choice
//!   disables the operation too), wherever they occur, plus everything
//!   that decides whether such a construct is reached or what it sees: the
//!   conditions of enclosing `IF`/`CASE`/`LET` and all reads of earlier
//!   parts of a `;` sequence.
//! * `read_A`: variables read by the actions: right-hand sides, the function
//!   and arguments of `f(x) := e`, `IF`/`CASE` conditions, `LET` values, and
//!   the `ANY` predicates and `::`/`: (P)` choices (they produce the values
//!   the actions assign).
//!
//! Only names declared in `VARIABLES` are collected; constants are never
//! written, so they cannot make two operations dependent. Where a local
//! shadows a variable's name in an expression the variable is still counted
//! as read: more reads only make the analysis more conservative.

use std::collections::BTreeSet;

use crate::frontends::b::ast::{
    AssignTarget, Expr, ExprKind, Machine, Operation, Subst, SubstKind,
};
use crate::frontends::b::visit::walk_expr;

/// The read and write sets of one operation (names of state variables).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccessSets {
    /// Variables read by the guard (`read_G`).
    pub read_guard: BTreeSet<String>,
    /// Variables read by the actions (`read_S` in the paper).
    pub read_action: BTreeSet<String>,
    /// Variables assigned.
    pub write: BTreeSet<String>,
}

impl AccessSets {
    /// All variables read: `read_G ∪ read_A`.
    pub fn reads(&self) -> BTreeSet<String> {
        self.read_guard.union(&self.read_action).cloned().collect()
    }

    /// All variables read or written.
    pub fn touched(&self) -> BTreeSet<String> {
        let mut all = self.reads();
        all.extend(self.write.iter().cloned());
        all
    }
}

/// The state variables read by `expr` (`x$0` counts as a read of `x`).
pub fn expr_reads(variables: &BTreeSet<String>, expr: &Expr) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    walk_expr(expr, &mut |e| {
        if let ExprKind::Ident(name) = &e.kind {
            let name = name.strip_suffix("$0").unwrap_or(name);
            if variables.contains(name) {
                out.insert(name.to_string());
            }
        }
    });
    out
}

/// The access sets of `op` in `machine`.
pub fn access_sets(machine: &Machine, op: &Operation) -> AccessSets {
    let variables: BTreeSet<String> = machine.variables.iter().map(|v| v.name.clone()).collect();
    let mut locals: Vec<String> = op
        .params
        .iter()
        .chain(&op.outputs)
        .map(|i| i.name.clone())
        .collect();
    let mut sets = AccessSets::default();
    let mut walker = Walker {
        variables: &variables,
        sets: &mut sets,
    };
    walker.subst(&op.body, &BTreeSet::new(), &mut locals);
    sets
}

struct Walker<'a> {
    variables: &'a BTreeSet<String>,
    sets: &'a mut AccessSets,
}

impl Walker<'_> {
    fn reads(&self, e: &Expr) -> BTreeSet<String> {
        expr_reads(self.variables, e)
    }

    /// A condition deciding enabledness, seen under the context `ctx`.
    fn guard(&mut self, e: &Expr, ctx: &BTreeSet<String>) {
        let r = self.reads(e);
        self.sets.read_guard.extend(r);
        self.sets.read_guard.extend(ctx.iter().cloned());
    }

    fn action(&mut self, e: &Expr) {
        let r = self.reads(e);
        self.sets.read_action.extend(r);
    }

    fn write(&mut self, name: &str, locals: &[String]) {
        if self.variables.contains(name) && !locals.iter().any(|l| l == name) {
            self.sets.write.insert(name.to_string());
        }
    }

    /// Walks `s`; `ctx` holds the variables that decide whether `s` runs
    /// and with which values (they join `read_G` if `s` has a guard).
    fn subst(&mut self, s: &Subst, ctx: &BTreeSet<String>, locals: &mut Vec<String>) {
        match &s.kind {
            SubstKind::Skip => {}
            SubstKind::Assign(targets, values) => {
                for t in targets {
                    match t {
                        AssignTarget::Var(v) => self.write(&v.name, locals),
                        AssignTarget::FunctionPoint(f, args) => {
                            self.write(&f.name, locals);
                            if self.variables.contains(&f.name) {
                                self.sets.read_action.insert(f.name.clone());
                            }
                            args.iter().for_each(|a| self.action(a));
                        }
                    }
                }
                values.iter().for_each(|v| self.action(v));
            }
            SubstKind::BecomesElementOf(xs, e) | SubstKind::BecomesSuchThat(xs, e) => {
                self.guard(e, ctx);
                self.action(e);
                xs.iter().for_each(|x| self.write(&x.name, locals));
            }
            SubstKind::Parallel(ss) | SubstKind::Choice(ss) => {
                ss.iter().for_each(|s| self.subst(s, ctx, locals))
            }
            SubstKind::Sequence(ss) => {
                let mut inner = ctx.clone();
                for s in ss {
                    let before = self.sets.reads();
                    self.subst(s, &inner, locals);
                    // Everything read so far may flow into later guards.
                    inner.extend(self.sets.reads().difference(&before).cloned());
                }
            }
            SubstKind::Block(s) => self.subst(s, ctx, locals),
            SubstKind::Precondition(p, s)
            | SubstKind::Assert(p, s)
            | SubstKind::CalledPre(_, p, s) => {
                self.guard(p, ctx);
                self.subst(s, ctx, locals);
            }
            SubstKind::Select(branches, otherwise) => {
                for (p, _) in branches {
                    self.guard(p, ctx);
                }
                for (_, s) in branches {
                    self.subst(s, ctx, locals);
                }
                if let Some(s) = otherwise {
                    self.subst(s, ctx, locals);
                }
            }
            SubstKind::If(branches, otherwise) => {
                let mut inner = ctx.clone();
                for (p, _) in branches {
                    self.action(p);
                    inner.extend(self.reads(p));
                }
                for (_, s) in branches {
                    self.subst(s, &inner, locals);
                }
                if let Some(s) = otherwise {
                    self.subst(s, &inner, locals);
                }
            }
            SubstKind::Case(e, branches, otherwise) => {
                let mut inner = ctx.clone();
                self.action(e);
                inner.extend(self.reads(e));
                for (values, _) in branches {
                    for v in values {
                        self.action(v);
                        inner.extend(self.reads(v));
                    }
                }
                for (_, s) in branches {
                    self.subst(s, &inner, locals);
                }
                if let Some(s) = otherwise {
                    self.subst(s, &inner, locals);
                }
            }
            SubstKind::Any(xs, p, s) => {
                self.guard(p, ctx);
                self.action(p);
                let mut inner = ctx.clone();
                inner.extend(self.reads(p));
                self.scoped(xs, s, &inner, locals);
            }
            SubstKind::Let(xs, p, s) => {
                self.action(p);
                let mut inner = ctx.clone();
                inner.extend(self.reads(p));
                self.scoped(xs, s, &inner, locals);
            }
            SubstKind::Var(xs, s) => self.scoped(xs, s, ctx, locals),
            SubstKind::While(w) => {
                // Conservative: the loop's tests may fail (a model error),
                // and every read of one iteration may steer the next.
                let mut inner = ctx.clone();
                for e in [&w.cond, &w.invariant, &w.variant] {
                    self.guard(e, ctx);
                    self.action(e);
                    inner.extend(self.reads(e));
                }
                let before = self.sets.reads();
                self.subst(&w.body, &inner, locals);
                inner.extend(self.sets.reads().difference(&before).cloned());
                self.subst(&w.body, &inner, locals);
            }
            SubstKind::OpCall(outputs, _, args) => {
                // Calls are inlined before any analysis; one left over is
                // reported by the type checker. Count what it names.
                args.iter().for_each(|a| self.action(a));
                outputs.iter().for_each(|x| self.write(&x.name, locals));
            }
        }
    }

    fn scoped(
        &mut self,
        xs: &[crate::frontends::b::ast::Ident],
        s: &Subst,
        ctx: &BTreeSet<String>,
        locals: &mut Vec<String>,
    ) {
        let n = locals.len();
        locals.extend(xs.iter().map(|x| x.name.clone()));
        self.subst(s, ctx, locals);
        locals.truncate(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::parse_machine;

    fn sets(text: &str) -> Vec<(String, AccessSets)> {
        let file = SourceFile::new("t.mch".to_string(), text.to_string());
        let m = parse_machine(&file).expect("parses");
        m.operations
            .iter()
            .map(|op| (op.name.name.clone(), access_sets(&m, op)))
            .collect()
    }

    fn names(s: &BTreeSet<String>) -> Vec<&str> {
        s.iter().map(String::as_str).collect()
    }

    #[test]
    fn guards_actions_and_writes_are_separated() {
        let ops = sets(
            "MACHINE M CONSTANTS k PROPERTIES k = 2 VARIABLES x, y, f, z
             INVARIANT x : NAT & y : NAT & f : 1..3 --> NAT & z : NAT
             INITIALISATION x, y, z := 0, 0, 0 || f := (1..3) * {0}
             OPERATIONS
               op(p) = PRE p : 1..3 & x < k THEN f(p) := y + z END;
               r <-- get = BEGIN r := x END;
               pick = ANY v WHERE v : 0..y THEN x := v END;
               ch = IF z > 0 THEN y :: 0..x ELSE skip END
             END",
        );
        let (_, op) = &ops[0];
        assert_eq!(names(&op.read_guard), ["x"]);
        assert_eq!(names(&op.read_action), ["f", "y", "z"]);
        assert_eq!(names(&op.write), ["f"]);
        let (_, get) = &ops[1];
        assert!(get.write.is_empty(), "outputs are not state variables");
        assert_eq!(names(&get.read_action), ["x"]);
        assert!(get.read_guard.is_empty());
        let (_, pick) = &ops[2];
        assert_eq!(names(&pick.read_guard), ["y"]);
        assert_eq!(names(&pick.write), ["x"]);
        let (_, ch) = &ops[3];
        // The choice `y :: 0..x` can be empty; it runs only when `z > 0`.
        assert_eq!(names(&ch.read_guard), ["x", "z"]);
        assert_eq!(names(&ch.write), ["y"]);
    }

    #[test]
    fn locals_are_not_written_and_sequences_feed_later_guards() {
        let ops = sets(
            "MACHINE M VARIABLES x, y INVARIANT x : NAT & y : NAT
             INITIALISATION x, y := 0, 0
             OPERATIONS
               op = VAR t IN t := y ; SELECT t > 0 THEN x := x + 1 END END
             END",
        );
        let (_, op) = &ops[0];
        assert_eq!(names(&op.write), ["x"]);
        assert_eq!(names(&op.read_guard), ["y"]);
        assert_eq!(names(&op.read_action), ["x", "y"]);
    }
}
