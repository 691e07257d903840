//! Loop-invariant binder expressions, evaluated once per value of what
//! they read.
//!
//! Machines written as puzzles nest set comprehensions that do not depend
//! on the variables of the binder around them: `{x, y | (x, y) : Pairs &
//! possible(x + y) /\ knows(Pairs) = {}}`, with `Pairs` and `knows(Pairs)`
//! closed comprehensions of DEFINITIONS, re-evaluates both for every
//! candidate `(x, y)`. ProB's solver computes such a closed set once.
//!
//! At compile time, [`memoize`] walks the part of a binder that runs once
//! per candidate (its steps after the first generator, its body and its
//! condition) and wraps each largest comprehension, lambda, quantified
//! expression or pass over a relation (`dom`, `ran`, `~`, closures) that
//! reads none of the binder's variables (nor any variable bound between)
//! in an [`EK::Memo`]. At run time [`Interpreter::eval_memo`]
//! keeps, per thread, the last value of each and the values of the slots
//! it read; an evaluation with the same values read returns it. Errors are
//! never kept (the next evaluation meets them again), nor values computed
//! from a symbolic set (whose definition reads the valuation's constants
//! behind the slot's back).
//!
//! A comprehension or lambda tested for membership (`e : {x | P}`, the
//! superset of `<:`) is never wrapped: membership tests its predicate
//! without building the set, which may be infinite. Expressions that
//! contain a symbolic definition or an external function are never
//! wrapped either.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::ir::{CExpr, CPred, EK, PK, Slot, SolveStep, Solver};
use super::walk::{Visitor, VisitorMut, walk_expr, walk_expr_mut, walk_pred_mut};
use super::{Env, Interpreter, R};
use crate::frontends::b::ast::{BinaryOp, UnaryOp};
use crate::frontends::b::value::Value;

/// A loop-invariant expression evaluated once per value of its reads.
#[derive(Clone, Debug)]
pub struct Memo {
    /// The cache entry's number, unique in the process.
    pub id: u32,
    /// Every slot the expression reads that it does not bind itself.
    pub reads: Box<[Slot]>,
    /// The expression.
    pub expr: CExpr,
}

/// The next [`Memo::id`].
static NEXT_ID: AtomicU32 = AtomicU32::new(0);

/// A value kept with the values of the slots it was computed from: what a
/// thread keeps of one [`Memo`], and what the interpreter keeps of a
/// constant's definition (see [`super::symbolic`]).
#[derive(Debug)]
pub(super) struct Kept {
    /// The values of the slots read, when it was computed.
    key: Box<[Value]>,
    /// The expression's value.
    value: Value,
    /// How many PROPERTIES candidates the computation rejected as
    /// undefined (see `Interpreter::undefined_rejections`), counted again
    /// at each reuse.
    rejections: u64,
}

impl Kept {
    /// `value`, computed from what `reads` hold in `env` while rejecting
    /// `rejections` candidates as undefined, to keep; `None` where a read
    /// or the value is or holds a symbolic set (whose definition reads
    /// the valuation's constants behind the slot's back). An expression
    /// kept holds no symbolic definition (see [`invariant_reads`]): where
    /// its reads hold no symbolic set, neither does its value below the
    /// top (a symbolic definition's own value, kept symbolic, is one).
    pub(super) fn new(
        reads: &[Slot],
        env: &Env<'_>,
        value: &Value,
        rejections: u64,
    ) -> Option<Kept> {
        let key: Box<[Value]> = reads.iter().map(|&slot| read(slot, env).clone()).collect();
        if key.iter().any(holds_symbolic) || matches!(value, Value::Symbolic(_)) {
            return None;
        }
        Some(Kept {
            key,
            value: value.clone(),
            rejections,
        })
    }

    /// The kept value, if `reads` hold in `env` what they held when it
    /// was computed (counting its rejections again).
    pub(super) fn reuse(
        &self,
        reads: &[Slot],
        env: &Env<'_>,
        interp: &Interpreter,
    ) -> Option<Value> {
        let same = reads
            .iter()
            .zip(self.key.iter())
            .all(|(&slot, kept)| read(slot, env) == kept);
        if !same {
            return None;
        }
        if self.rejections > 0 {
            interp.count_undefined_rejections(self.rejections);
        }
        Some(self.value.clone())
    }
}

thread_local! {
    /// Per thread, by [`Memo::id`]: the last value computed.
    static CACHE: RefCell<Vec<Option<Kept>>> = const { RefCell::new(Vec::new()) };
}

/// The value a slot holds.
#[inline]
fn read<'v>(slot: Slot, env: &'v Env<'_>) -> &'v Value {
    match slot {
        Slot::Const(i) => &env.consts[i as usize],
        Slot::Frame(i) => &env.frame[i as usize],
    }
}

/// Whether `v` is or holds a symbolic set.
fn holds_symbolic(v: &Value) -> bool {
    match v {
        Value::Symbolic(_) => true,
        Value::Pair(p) => holds_symbolic(&p.0) || holds_symbolic(&p.1),
        // The elements of a set share a type: scalars hold none.
        Value::Set(items) => match items.first() {
            None
            | Some(
                Value::Int(_) | Value::Big(_) | Value::Bool(_) | Value::Str(_) | Value::Elem(_),
            ) => false,
            Some(_) => items.iter().any(holds_symbolic),
        },
        Value::Int(_) | Value::Big(_) | Value::Bool(_) | Value::Str(_) | Value::Elem(_) => false,
    }
}

impl Interpreter {
    /// The value of a [`Memo`]: this thread's last one if the slots it
    /// reads hold the same values, else computed (and kept).
    pub(super) fn eval_memo(&self, m: &Memo, env: &mut Env<'_>) -> R<Value> {
        let hit = CACHE.with_borrow(|cache| {
            let kept = cache.get(m.id as usize)?.as_ref()?;
            kept.reuse(&m.reads, env, self)
        });
        if let Some(value) = hit {
            return Ok(value);
        }
        let before = self.undefined_rejection_count();
        let value = self.eval(&m.expr, env)?;
        let rejections = self.undefined_rejection_count().saturating_sub(before);
        if let Some(kept) = Kept::new(&m.reads, env, &value, rejections) {
            CACHE.with_borrow_mut(|cache| {
                let i = m.id as usize;
                if cache.len() <= i {
                    cache.resize_with(i + 1, || None);
                }
                cache[i] = Some(kept);
            });
        }
        Ok(value)
    }
}

/// The shortest computation of a part of PROPERTIES worth keeping in
/// [`KeptParts`]: cheaper ones are computed again rather than looked up.
const KEEP_FROM: std::time::Duration = std::time::Duration::from_millis(20);

/// The closed parts of PROPERTIES (`(x, y) : step4` of a puzzle, with
/// `step4` a nest of comprehensions) that the constraint solver evaluates
/// while building its models of the constants, kept across threads for
/// the interpreter's life: `--solver auto` builds a model to decide
/// whether the solver applies, then again on the thread racing
/// enumeration, and a split builds one per case; each would compute the
/// set again. Only the interpreter's own PROPERTIES nodes are kept (they
/// live as long as it, so an address names one expression), each with
/// the values of the slots it reads, as [`Kept`].
#[derive(Debug)]
pub(crate) struct KeptParts {
    /// The addresses of the nodes of PROPERTIES' conjuncts, listed at the
    /// first lookup.
    nodes: std::sync::OnceLock<std::collections::HashSet<usize>>,
    /// The values kept.
    kept: parking_lot::Mutex<Vec<KeptPart>>,
    /// The shortest computation kept ([`KEEP_FROM`]).
    keep_from: std::time::Duration,
}

/// One value of [`KeptParts`].
#[derive(Debug)]
struct KeptPart {
    /// The node's address.
    node: usize,
    /// The slots it reads.
    reads: Box<[Slot]>,
    /// Its value, with theirs.
    kept: Kept,
}

impl Default for KeptParts {
    fn default() -> Self {
        KeptParts {
            nodes: Default::default(),
            kept: Default::default(),
            keep_from: KEEP_FROM,
        }
    }
}

/// A walk listing the addresses of expression nodes.
struct Addresses(std::collections::HashSet<usize>);

impl Visitor for Addresses {
    fn expr(&mut self, e: &CExpr) {
        self.0.insert(std::ptr::from_ref(e) as usize);
        walk_expr(self, e);
    }
}

impl Interpreter {
    /// The value of `e`, which the constraint solver reads as known:
    /// kept in [`KeptParts`] where `e` is a node of PROPERTIES (the
    /// interpreter's own) whose computation is costly.
    pub(super) fn eval_known(&self, e: &CExpr, env: &mut Env<'_>) -> R<Value> {
        let kept = &self.kept_parts;
        let address = std::ptr::from_ref(e) as usize;
        let nodes = kept.nodes.get_or_init(|| {
            let mut walk = Addresses(Default::default());
            for c in &self.properties_conjuncts {
                walk.pred(c);
            }
            walk.0
        });
        if !nodes.contains(&address) {
            return self.eval(e, env);
        }
        let hit = kept
            .kept
            .lock()
            .iter()
            .filter(|p| p.node == address)
            .find_map(|p| p.kept.reuse(&p.reads, env, self));
        if let Some(value) = hit {
            return Ok(value);
        }
        let before = self.undefined_rejection_count();
        let start = std::time::Instant::now();
        let value = self.eval(e, env)?;
        if start.elapsed() >= kept.keep_from
            && let Some(reads) = closed_reads(e)
        {
            let rejections = self.undefined_rejection_count().saturating_sub(before);
            if let Some(k) = Kept::new(&reads, env, &value, rejections) {
                kept.kept.lock().push(KeptPart {
                    node: address,
                    reads: reads.into_boxed_slice(),
                    kept: k,
                });
            }
        }
        Ok(value)
    }
}

/// Wraps the loop-invariant expressions of `solver`'s steps and
/// condition (see the module docs).
pub(super) fn memoize(solver: &mut Solver) {
    let Some(&base) = solver.vars.iter().min() else {
        return;
    };
    let mut walk = Walk { base };
    // Steps up to the first generator run once per evaluation of the
    // binder: only what follows runs per candidate.
    let mut repeated = false;
    for step in &mut solver.steps {
        match step {
            SolveStep::Check(p) if repeated => walk.pred(p),
            SolveStep::Check(_) => {}
            SolveStep::Bind(_, g) => {
                if repeated {
                    walk.generator(g);
                }
                repeated = true;
            }
            SolveStep::BindPattern(_, e) => {
                if repeated {
                    walk.expr(e);
                }
                repeated = true;
            }
            SolveStep::Scan(scan) => {
                if repeated {
                    walk.expr(&mut scan.set);
                }
                walk.expr(&mut scan.value);
                walk.pred(&mut scan.check);
                repeated = true;
            }
        }
    }
    if let Some(condition) = solver.condition.as_deref_mut() {
        walk.pred(condition);
    }
}

/// Wraps the loop-invariant expressions of the body of `solver`'s binder
/// (a lambda's or quantified expression's `bodies`, a `!`'s `goals`),
/// which run once per solution.
pub(super) fn memoize_body(solver: &Solver, bodies: &mut [&mut CExpr], goals: &mut [&mut CPred]) {
    let Some(&base) = solver.vars.iter().min() else {
        return;
    };
    let mut walk = Walk { base };
    for body in bodies {
        walk.expr(body);
    }
    for goal in goals {
        walk.pred(goal);
    }
}

/// The walk of one binder: `base` is its first variable's slot; every
/// frame slot from it up is bound in the binder. Nested binders run once
/// per candidate of the outer one: all of them is walked.
struct Walk {
    base: u32,
}

impl Walk {
    /// A set tested for membership: a comprehension or lambda stays
    /// itself (see the module docs), also as the elements' set of a set
    /// of sets, sequences or functions (`st : seq1({t | P})` tests `P` of
    /// each element); its parts may be wrapped.
    fn tested(&mut self, s: &mut CExpr) {
        use UnaryOp::*;
        match &mut s.kind {
            EK::Comprehension(_) | EK::Lambda(..) => walk_expr_mut(self, s),
            // `x : dom(r)` of a relation in a slot is a binary search in
            // `r` (see `Interpreter::member`): cheaper than looking up a
            // kept domain, which compares `r` whole.
            EK::Unary(Dom, a) if matches!(a.kind, EK::Read(_)) => {}
            EK::Unary(Pow | Pow1 | Fin | Fin1 | Seq | Seq1 | Iseq | Iseq1 | Perm, a) => {
                self.tested(a)
            }
            EK::Binary(op, a, b) if op.is_function_arrow() || *op == BinaryOp::Relation => {
                self.tested(a);
                self.tested(b);
            }
            _ => self.expr(s),
        }
    }
}

impl VisitorMut for Walk {
    fn pred(&mut self, p: &mut CPred) {
        match &mut p.kind {
            // Membership tests a comprehension's predicate in place.
            PK::Member(a, s, _) | PK::Subset(a, s, ..) => {
                self.expr(a);
                self.tested(s);
            }
            _ => walk_pred_mut(self, p),
        }
    }

    fn expr(&mut self, e: &mut CExpr) {
        match &mut e.kind {
            // Never kept, nor their parts (see the module docs).
            EK::Symbolic(_) | EK::External(..) | EK::Optimum(_) => return,
            EK::Memo(m) => {
                // Kept by a binder inside: kept here too when it reads
                // nothing of this one; else its parts may be.
                if m.reads
                    .iter()
                    .any(|s| matches!(s, Slot::Frame(i) if *i >= self.base))
                {
                    walk_expr_mut(self, &mut Arc::make_mut(m).expr);
                }
                return;
            }
            _ => {}
        }
        // `dom(f) /\ S` (the domain of an applied function within an
        // interval, see `plan`): `dom(f)` of a function kept symbolic is
        // tested by membership, never built, so it stays itself.
        if let EK::Binary(BinaryOp::Inter, a, b) = &mut e.kind
            && matches!(&a.kind, EK::Unary(UnaryOp::Dom, f) if matches!(f.kind, EK::Read(_)))
        {
            self.expr(b);
            return;
        }
        if costly(e)
            && let Some(reads) = invariant_reads(e, self.base)
        {
            let expr = std::mem::replace(
                e,
                CExpr {
                    kind: EK::Lit(Value::Bool(false)),
                    span: e.span,
                },
            );
            e.kind = EK::Memo(Arc::new(Memo {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                reads: reads.into_boxed_slice(),
                expr,
            }));
            return;
        }
        if let EK::ApplyBinder(f, x) | EK::ImageBinder(f, x) | EK::ComposeBinder(x, f) = &mut e.kind
        {
            // The binder applied stays itself (it is solved, not built).
            self.tested(f);
            self.expr(x);
            return;
        }
        walk_expr_mut(self, e);
    }
}

/// Whether `e` is worth keeping: a binder (comprehension, lambda,
/// quantified expression), or a relation's domain, range, inverse or
/// closure, each a pass over a whole set (`x2 : dom(W)` of a comprehension
/// inside another over `W`).
fn costly(e: &CExpr) -> bool {
    match &e.kind {
        EK::Comprehension(_)
        | EK::Lambda(..)
        | EK::ApplyBinder(..)
        | EK::ImageBinder(..)
        | EK::ComposeBinder(..)
        | EK::Quantified(..) => true,
        EK::Unary(op, _) => matches!(
            op,
            UnaryOp::Dom | UnaryOp::Ran | UnaryOp::Inverse | UnaryOp::Closure | UnaryOp::Closure1
        ),
        _ => false,
    }
}

/// The slots `e` reads and does not bind, sorted, if it holds nothing
/// that must not be kept (see [`invariant_reads`]).
pub(super) fn closed_reads(e: &CExpr) -> Option<Vec<Slot>> {
    invariant_reads(e, u32::MAX)
}

/// The slots `e` reads and does not bind, sorted, if it reads no frame
/// slot from `base` up and holds nothing that must not be kept (a
/// symbolic definition, an external function); `None` otherwise.
fn invariant_reads(e: &CExpr, base: u32) -> Option<Vec<Slot>> {
    let mut reads = Reads::default();
    reads.expr(e);
    if reads.unkeepable {
        return None;
    }
    let mut free: Vec<Slot> = reads
        .read
        .into_iter()
        .filter(|s| !matches!(s, Slot::Frame(i) if reads.bound.contains(i)))
        .collect();
    if free
        .iter()
        .any(|s| matches!(s, Slot::Frame(i) if *i >= base))
    {
        return None;
    }
    free.sort_by_key(|s| match *s {
        Slot::Const(i) => (0, i),
        Slot::Frame(i) => (1, i),
    });
    free.dedup();
    Some(free)
}

/// What an expression reads and binds.
#[derive(Default)]
struct Reads {
    read: Vec<Slot>,
    bound: Vec<u32>,
    /// Set on a symbolic definition or an external function.
    unkeepable: bool,
}

impl Visitor for Reads {
    fn read(&mut self, slot: Slot) {
        self.read.push(slot);
    }

    fn bind(&mut self, slot: u32) {
        self.bound.push(slot);
    }

    fn expr(&mut self, e: &CExpr) {
        match &e.kind {
            EK::Symbolic(_) | EK::External(..) | EK::Optimum(_) => self.unkeepable = true,
            _ => walk_expr(self, e),
        }
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

    /// The number of [`EK::Memo`] nodes in the plan of `{names | pred}`.
    fn memos_in(names: &[&str], pred: &str) -> usize {
        let file = SourceFile::new("p", format!("{{{} | {pred}}}", names.join(", ")));
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
        let text = format!("{:?}", solver.steps);
        assert!(
            !text.contains("expr: CExpr { kind: Memo("),
            "a kept expression is kept once: {text}"
        );
        text.matches("Memo { id").count()
    }

    #[test]
    fn a_closed_comprehension_inside_a_binder_is_kept() {
        assert_eq!(memos_in(&["x"], "x : 1..3 & x < card({y | y : 1..10})"), 1);
        // Inside a nested binder too (where the plan may copy it).
        assert!(
            memos_in(
                &["x"],
                "x : 1..3 & #z.(z : 1..x & z < card({y | y : 1..10}))"
            ) >= 1
        );
    }

    #[test]
    fn what_reads_the_binders_variables_is_not_kept() {
        assert_eq!(memos_in(&["x"], "x : 1..3 & 0 < card({y | y : 1..x})"), 0);
        // Nor the first generator's set, evaluated once per binder.
        assert_eq!(memos_in(&["x"], "x : {y | y : 1..3}"), 0);
        // Membership tests a comprehension's predicate in place.
        assert_eq!(memos_in(&["x"], "x : 1..3 & x : {y | y > 1}"), 0);
        // Also in the elements' set of a set of sequences or functions.
        assert_eq!(memos_in(&["x"], "x : 1..3 & [x] : seq1({y | y > 1})"), 0);
        assert_eq!(
            memos_in(&["x"], "x : 1..3 & {x |-> x} : {y | y > 1} +-> NAT"),
            0
        );
    }

    #[test]
    fn the_solver_evaluates_a_closed_part_of_properties_once() {
        use crate::frontends::b::typecheck::{CheckOptions, check_machine};
        let file = SourceFile::new(
            "t.mch",
            "MACHINE M CONSTANTS x, y
             PROPERTIES (x, y) : {a, b | a : 1..30 & b : 1..30 & a * b = 36} & x < y
             END",
        );
        let m = crate::frontends::b::parse_machine(&file).expect("parses");
        let types = check_machine(&m, &CheckOptions::default()).expect("type checks");
        let mut interp = Interpreter::new(&m, &types, &file).expect("compiles");
        interp.kept_parts.keep_from = std::time::Duration::ZERO;
        let pairs = |v: Vec<Vec<Value>>| -> Vec<(Value, Value)> {
            v.into_iter()
                .map(|c| (c[0].clone(), c[1].clone()))
                .collect()
        };
        let expected: Vec<(Value, Value)> = [(2, 18), (3, 12), (4, 9)]
            .into_iter()
            .map(|(a, b)| (Value::Int(a), Value::Int(b)))
            .collect();
        let first = interp.constant_valuations().expect("solves");
        assert_eq!(pairs(first), expected);
        let kept = interp.kept_parts.kept.lock().len();
        assert!(kept > 0, "the comprehension is kept");
        // Solved again: every part is found kept, none computed anew.
        let second = interp.constant_valuations().expect("solves");
        assert_eq!(pairs(second), expected);
        assert_eq!(interp.kept_parts.kept.lock().len(), kept);
    }

    #[test]
    fn symbolic_sets_are_found_inside_values() {
        use crate::frontends::b::value::Symbolic;
        let symbolic = Value::Symbolic(std::sync::Arc::new(Symbolic {
            def: 0,
            text: "f".into(),
        }));
        let set = Value::set_from_vec(vec![Value::set_from_vec(Vec::new()), symbolic]);
        assert!(holds_symbolic(&Value::pair(Value::Int(1), set)));
        assert!(!holds_symbolic(&Value::set_from_vec(vec![Value::Int(1)])));
    }
}
