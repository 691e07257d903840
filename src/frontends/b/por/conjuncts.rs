//! Co-enabledness by guard conjuncts: a cheaper, sound companion of the
//! "never co-enabled" test of [`crate::frontends::b::por::dependency`].
//!
//! Dobrikov and Leuschel's independence (Definition 1) only constrains
//! states where both operations are enabled. orbit's first test enumerates
//! the candidate states over every variable the two guards read; with a
//! shared, large variable (Sieve's `nums`) or many guard variables (its
//! `primes` reads `next` and `p1..p4`) that product exceeds the budget.
//! This test splits each guard into its top-level conjuncts instead: if
//! operation `a` is enabled, every conjunct `c1` of its guard holds, and
//! likewise for `b`. So when some pair `c1` (of `a`) and `c2` (of `b`) has
//! no candidate state satisfying both, `a` and `b` are never co-enabled:
//! `c1 ∧ c2` is a function of the variables it reads, so it suffices to
//! enumerate those (all other variables keep their initial values). The
//! candidate states are those of the other tests (bounded integers, the
//! budget, the assumed invariant conjuncts); an evaluation error counts as
//! "maybe satisfied" and a query over the budget is not decided.
//!
//! Which conjuncts are necessary for enabledness: those of `PRE`, of a
//! `SELECT`/`WHEN` with a single branch and no `ELSE`, of `ANY ... WHERE`,
//! found at the top of the body (through `BEGIN`, `VAR`, `LET`, `ASSERT`,
//! every branch of `||` and the first part of `;`), except conjuncts that
//! mention a parameter, output or local by name (they are not functions of
//! the state alone).
//!
//! The same conjuncts bound the enable graph (Definition 3): when a
//! conjunct `c2` of `b`'s guard reads nothing `a` writes and excludes a
//! conjunct `c1` of `a`'s guard, `c2` is false wherever `a` is enabled and
//! stays false after `a`, so `a` cannot enable `b`.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use crate::diag::{SourceFile, Span};
use crate::frontends::b::ast::{BinaryOp, Expr, ExprKind, Machine, Subst, SubstKind, UnaryOp};
use crate::frontends::b::eval::{Interpreter, conjuncts};
use crate::frontends::b::por::access::{AccessSets, expr_reads};
use crate::frontends::b::por::states::{Candidates, Scan};
use crate::frontends::b::types::MachineTypes;
use crate::frontends::b::visit::mentions_any;

/// Two guard conjuncts (source spans) that no candidate state satisfies
/// together; equal spans mean one conjunct no candidate state satisfies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exclusion {
    /// The conjunct of the first operation's guard.
    pub first: Span,
    /// The conjunct of the second operation's guard.
    pub second: Span,
    /// Candidate states examined; `None` when one conjunct is the
    /// negation of the other (`x = e` and `x /= e`, `a <= b` and `a > b`,
    /// `P` and `not(P)`), whatever the state.
    pub states: Option<usize>,
}

/// How two conjuncts were shown exclusive ([`Exclusion::states`]).
type Proof = Option<usize>;

/// The state-only guard conjuncts of every operation, and an evaluator.
pub struct GuardConjuncts {
    /// Distinct conjuncts: span and the variables read.
    parts: Vec<(Span, BTreeSet<String>)>,
    /// Their shapes (the syntax tree without source positions).
    shapes: Vec<Expr>,
    /// Per operation, indices into `parts`.
    per_op: Vec<Vec<usize>>,
    /// An interpreter whose invariant conjunct `i` is `parts[i]` (`None`
    /// if they do not compile: then nothing is decided).
    eval: Option<Interpreter>,
    /// Results of the pair queries (see [`Exclusion::states`]).
    cache: RefCell<HashMap<(usize, usize), Option<Proof>>>,
}

impl GuardConjuncts {
    /// Collects and compiles the guard conjuncts of `machine`'s operations.
    pub fn new(machine: &Machine, types: &MachineTypes) -> Self {
        let variables: BTreeSet<String> =
            machine.variables.iter().map(|v| v.name.clone()).collect();
        let mut exprs: Vec<Expr> = Vec::new();
        let mut parts = Vec::new();
        let mut per_op = Vec::new();
        for op in &machine.operations {
            let mut locals: Vec<String> = op
                .params
                .iter()
                .chain(&op.outputs)
                .map(|i| i.name.clone())
                .collect();
            let mut found = Vec::new();
            // The outermost PRE guards the operation; one inside its body
            // is an error where it fails (as an ASSERT), not a guard.
            let mut body = &op.body;
            while let SubstKind::Block(inner) = &body.kind {
                body = inner;
            }
            if let SubstKind::Precondition(p, rest) = &body.kind {
                found.extend(
                    conjuncts(p)
                        .into_iter()
                        .filter(|c| !mentions_any(c, &locals)),
                );
                body = rest;
            }
            necessary(body, &mut locals, &mut found);
            let mut mine = Vec::new();
            for e in found {
                let i = match exprs.iter().position(|x| x == e) {
                    Some(i) => i,
                    None => {
                        exprs.push(e.clone());
                        parts.push((e.span, expr_reads(&variables, e)));
                        exprs.len() - 1
                    }
                };
                if !mine.contains(&i) {
                    mine.push(i);
                }
            }
            per_op.push(mine);
        }
        let eval = compile(machine, types, &exprs);
        let shapes = exprs.iter().map(shape).collect();
        GuardConjuncts {
            parts,
            shapes,
            per_op,
            eval,
            cache: RefCell::new(HashMap::new()),
        }
    }

    /// A pair of conjuncts of `a`'s and `b`'s guards (or one conjunct) that
    /// no candidate state satisfies, if there is one: then `a` and `b` are
    /// never enabled together.
    pub fn exclusive(&self, a: usize, b: usize, candidates: &Candidates<'_>) -> Option<Exclusion> {
        self.find(a, b, candidates, &|_| true)
    }

    /// Whether `a` cannot enable `b` because a conjunct of `b`'s guard that
    /// reads nothing `a` writes excludes a conjunct of `a`'s guard.
    pub fn cannot_enable(
        &self,
        sets: &[AccessSets],
        a: usize,
        b: usize,
        candidates: &Candidates<'_>,
    ) -> Option<Exclusion> {
        let write = &sets[a].write;
        self.find(a, b, candidates, &|c2| self.parts[c2].1.is_disjoint(write))
    }

    /// The first exclusive pair `(c1, c2)`, `c2` satisfying `keep`.
    fn find(
        &self,
        a: usize,
        b: usize,
        candidates: &Candidates<'_>,
        keep: &dyn Fn(usize) -> bool,
    ) -> Option<Exclusion> {
        let (ca, cb) = (self.per_op.get(a)?, self.per_op.get(b)?);
        for &c2 in cb.iter().filter(|&&c| keep(c)) {
            for &c1 in ca {
                // Conjuncts over disjoint variables are only exclusive
                // through the invariant or alone; checking alone is enough
                // in practice and keeps the number of queries small.
                let pair = if self.parts[c1].1.is_disjoint(&self.parts[c2].1) {
                    [(c1, c1), (c2, c2)]
                        .into_iter()
                        .find_map(|(x, y)| self.query(x, y, candidates).map(|s| (x, y, s)))
                } else {
                    self.query(c1, c2, candidates).map(|s| (c1, c2, s))
                };
                if let Some((x, y, states)) = pair {
                    return Some(Exclusion {
                        first: self.parts[x].0,
                        second: self.parts[y].0,
                        states,
                    });
                }
            }
        }
        None
    }

    /// `Some` if no state satisfies conjuncts `i` and `j` (see
    /// [`Exclusion::states`]).
    fn query(&self, i: usize, j: usize, candidates: &Candidates<'_>) -> Option<Proof> {
        let key = (i.min(j), i.max(j));
        if let Some(r) = self.cache.borrow().get(&key) {
            return *r;
        }
        if complementary(&self.shapes[i], &self.shapes[j]) {
            self.cache.borrow_mut().insert(key, Some(None));
            return Some(None);
        }
        let eval = self.eval.as_ref()?;
        let involved: BTreeSet<String> = self.parts[i].1.union(&self.parts[j].1).cloned().collect();
        let scan = candidates.scan(&involved, &mut |consts, vars| {
            let holds = |c: usize| {
                eval.invariant_conjunct_holds(c, consts, vars)
                    .unwrap_or(true)
            };
            (holds(i) && holds(j)).then(String::new)
        });
        let r = match scan {
            Scan::Exhausted(states) => Some(Some(states)),
            Scan::Found(_) | Scan::TooBig(_) => None,
        };
        self.cache.borrow_mut().insert(key, r);
        r
    }
}

/// The conjunct at `span` in `source`, quoted, for reports (`` `p = 0` ``;
/// its byte range where `source` does not hold it).
pub fn span_text(source: &str, span: Span) -> String {
    source
        .get(span.start as usize..span.end as usize)
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
        .map_or_else(
            || format!("the conjunct at bytes {}..{}", span.start, span.end),
            |t| format!("`{t}`"),
        )
}

/// An interpreter of `machine` whose invariant conjuncts are `exprs`.
fn compile(machine: &Machine, types: &MachineTypes, exprs: &[Expr]) -> Option<Interpreter> {
    let mut m = machine.clone();
    m.operations.clear();
    m.assertions.clear();
    m.invariant = exprs.iter().cloned().reduce(|acc, e| {
        let span = e.span;
        Expr {
            kind: ExprKind::Binary(BinaryOp::And, Box::new(acc), Box::new(e)),
            span,
        }
    });
    let file = SourceFile::new("guards", "");
    let interp = Interpreter::new(&m, types, &file).ok()?;
    (interp.invariant_conjunct_count() == exprs.len()).then_some(interp)
}

/// Collects into `out` the conjuncts that hold whenever `s` can run, over
/// the state alone (none mentions a name in `locals`).
fn necessary<'a>(s: &'a Subst, locals: &mut Vec<String>, out: &mut Vec<&'a Expr>) {
    let take = |p: &'a Expr, locals: &[String], out: &mut Vec<&'a Expr>| {
        for c in conjuncts(p) {
            if !mentions_any(c, locals) {
                out.push(c);
            }
        }
    };
    match &s.kind {
        SubstKind::Select(branches, None) if branches.len() == 1 => {
            take(&branches[0].0, locals, out);
            necessary(&branches[0].1, locals, out);
        }
        SubstKind::Any(ids, p, body) => {
            locals.extend(ids.iter().map(|i| i.name.clone()));
            take(p, locals, out);
            necessary(body, locals, out);
        }
        SubstKind::Let(ids, _, body) | SubstKind::Var(ids, body) => {
            locals.extend(ids.iter().map(|i| i.name.clone()));
            necessary(body, locals, out);
        }
        SubstKind::Block(body)
        | SubstKind::Precondition(_, body)
        | SubstKind::Assert(_, body)
        | SubstKind::CalledPre(_, _, body) => necessary(body, locals, out),
        SubstKind::Parallel(ss) => ss.iter().for_each(|x| necessary(x, locals, out)),
        SubstKind::Sequence(ss) => {
            if let Some(first) = ss.first() {
                necessary(first, locals, out);
            }
        }
        _ => {}
    }
}

/// `e` with every source position cleared, for comparing syntax trees.
fn shape(e: &Expr) -> Expr {
    fn clear(e: &mut Expr) {
        e.span = Span::default();
        match &mut e.kind {
            ExprKind::Unary(_, x) => clear(x),
            ExprKind::Binary(_, x, y) => {
                clear(x);
                clear(y);
            }
            _ => {}
        }
    }
    let mut e = e.clone();
    clear(&mut e);
    e
}

/// Whether one of the predicates `a`, `b` (shapes, [`shape`]) is the
/// negation of the other: no state satisfies both (the operands are the
/// same expressions, evaluated in the same state; where they fail to
/// evaluate, neither guard holds).
fn complementary(a: &Expr, b: &Expr) -> bool {
    use BinaryOp::*;
    let negated =
        |x: &Expr, y: &Expr| matches!(&x.kind, ExprKind::Unary(UnaryOp::Not, p) if **p == *y);
    if negated(a, b) || negated(b, a) {
        return true;
    }
    match (&a.kind, &b.kind) {
        (ExprKind::Binary(o1, x1, y1), ExprKind::Binary(o2, x2, y2)) => {
            let opposite = [
                (Eq, Neq),
                (Member, NotMember),
                (Subset, NotSubset),
                (StrictSubset, NotStrictSubset),
                (Lt, Ge),
                (Le, Gt),
            ]
            .iter()
            .any(|&(p, q)| (*o1, *o2) == (p, q) || (*o1, *o2) == (q, p));
            opposite && x1 == x2 && y1 == y2
        }
        _ => false,
    }
}

/// How an exclusion was shown, for reports: `in 21 states` or
/// `complementary`.
pub fn how(x: &Exclusion) -> String {
    match x.states {
        Some(n) => format!("in {n} states"),
        None => "complementary".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::por::access::access_sets;
    use crate::frontends::b::typecheck::{CheckOptions, check_machine, machine_preferences};

    /// Runs `f` on the guard conjuncts, candidates (budget 1,000) and
    /// access sets of `text`, with operation indices by name.
    fn with(
        text: &str,
        f: impl FnOnce(&GuardConjuncts, &Candidates<'_>, &[AccessSets], &dyn Fn(&str) -> usize),
    ) {
        let file = SourceFile::new("t.mch", text);
        let m = crate::frontends::b::parse_machine(&file).expect("parses");
        let options = machine_preferences(&m, &file)
            .expect("preferences")
            .apply(CheckOptions::default(), false);
        let types = check_machine(&m, &options).expect("type checks");
        let interp = Interpreter::new(&m, &types, &file).expect("compiles");
        let candidates = Candidates::new(&m, &types, &interp, 1_000);
        let guards = GuardConjuncts::new(&m, &types);
        let sets: Vec<AccessSets> = m.operations.iter().map(|o| access_sets(&m, o)).collect();
        let index = |n: &str| m.operations.iter().position(|o| o.name.name == n).unwrap();
        f(&guards, &candidates, &sets, &index);
    }

    /// `s` (20 bits) is over the budget; the guards' conjuncts over `p`
    /// alone are not.
    const SHARED: &str = "MACHINE M VARIABLES s, p, q INVARIANT s <: 1..20 & p : 0..3 & q : 0..3
         INITIALISATION s, p, q := {}, 0, 0
         OPERATIONS
           a = SELECT p = 0 & s /= {} THEN s := s - {1} END;
           b = SELECT p > 1 & q = 0 THEN s := s \\/ {2} || q := 1 END;
           c = SELECT p < 3 & s = {} THEN p := p + 1 END;
           d(v) = PRE v : 0..3 & p /= v THEN p := v END
         END";

    #[test]
    fn conjuncts_over_few_variables_exclude_each_other() {
        with(SHARED, |g, c, _, ix| {
            let x = g
                .exclusive(ix("a"), ix("b"), c)
                .expect("p = 0 excludes p > 1");
            assert_eq!(x.states, Some(4));
            assert_eq!(span_text(SHARED, x.first), "`p = 0`");
            assert_eq!(span_text(SHARED, x.second), "`p > 1`");
            // `s /= {}` and `s = {}` are complementary, whatever `s` ranges over.
            let x = g.exclusive(ix("a"), ix("c"), c).expect("complementary");
            assert_eq!(
                (x.states, span_text(SHARED, x.second)),
                (None, "`s = {}`".to_string())
            );
        });
    }

    #[test]
    fn overlapping_conjuncts_and_parameters_decide_nothing() {
        with(SHARED, |g, c, _, ix| {
            // p > 1 and p < 3 hold together at p = 2.
            assert_eq!(g.exclusive(ix("b"), ix("c"), c), None);
            // `p /= v` mentions the parameter: not a state conjunct.
            assert_eq!(g.exclusive(ix("a"), ix("d"), c), None);
            let d: Vec<&(Span, BTreeSet<String>)> =
                g.per_op[ix("d")].iter().map(|&i| &g.parts[i]).collect();
            assert!(d.is_empty(), "{d:?}");
        });
    }

    #[test]
    fn an_unwritten_exclusive_conjunct_rules_out_an_enable_edge() {
        with(SHARED, |g, c, sets, ix| {
            // a writes only s; b's `p > 1` excludes a's `p = 0` and stays false.
            let x = g.cannot_enable(sets, ix("a"), ix("b"), c).expect("no edge");
            assert_eq!(span_text(SHARED, x.second), "`p > 1`");
            // c's `p < 3` holds with a's `p = 0`, and `s = {}` is written by
            // a (which may well enable c).
            assert_eq!(g.cannot_enable(sets, ix("a"), ix("c"), c), None);
        });
    }

    #[test]
    fn complementary_predicates() {
        let file = SourceFile::new(
            "t.mch",
            "MACHINE M VARIABLES x INVARIANT x : INTEGER INITIALISATION x := 0
             OPERATIONS
               a = SELECT x < 5 THEN skip END; b = SELECT x >= 5 THEN skip END;
               c = SELECT not(x < 5) THEN skip END; d = SELECT 5 > x THEN skip END
             END",
        );
        let m = crate::frontends::b::parse_machine(&file).expect("parses");
        let guard = |i: usize| match &m.operations[i].body.kind {
            SubstKind::Select(b, _) => shape(&b[0].0),
            _ => panic!("expected a SELECT"),
        };
        assert!(complementary(&guard(0), &guard(1)));
        assert!(complementary(&guard(2), &guard(0)));
        // `5 > x` is `x < 5` with the operands swapped: not recognised
        // (and not complementary to `x >= 5` syntactically).
        assert!(!complementary(&guard(3), &guard(1)));
        assert!(!complementary(&guard(0), &guard(0)));
    }
}
