//! Compiling AST expressions and predicates into [`super::ir`] trees.
//!
//! Names are resolved once, here: a scope stack maps names to [`Slot`]s
//! (innermost binder first), then the machine's given sets and enumerated
//! elements become literal values. Binders (quantifiers, comprehension sets,
//! lambdas, `ANY`, `LET`, operation parameters) allocate frame slots with a
//! stack discipline, so nested binders reuse slots once they end; the
//! compiler tracks the largest frame any unit needs.

use std::collections::HashMap;

use super::ir::{BinderUnknowns, CExpr, CPred, Cmp, EK, IntSet, PK, Slot, Solver, Undefined};
use super::{memo, plan};
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{
    BinaryOp, Builtin, BuiltinConstant, Expr, ExprKind, Ident, Quantifier, UnaryOp,
};
use crate::frontends::b::types::{MachineTypes, Type, field_key};

/// Largest type whose identity `closure(r)` builds (see
/// `Compiler::closure_identity`).
const MAX_CLOSURE_IDENTITY: usize = 1 << 16;
use crate::frontends::b::value::{Elem, Value};

/// Result of compiling: a tree or a diagnostic pointing at the source.
pub type CResult<T> = Result<T, Diagnostic>;

/// Name resolution and slot allocation state for one machine.
pub struct Compiler<'a> {
    /// The machine's typing facts (MAXINT, given sets).
    pub types: &'a MachineTypes,
    /// Given set names and enumerated element names, as values.
    globals: HashMap<String, Value>,
    /// Free type names, with their numbers.
    free_types: HashMap<String, u32>,
    /// Constructor names: the constructor's number and whether it takes
    /// an argument.
    constructors: HashMap<String, (u32, bool)>,
    /// Names in scope, innermost last, and whether each may be read
    /// before it holds a value (`VAR` locals, outputs).
    scope: Vec<(String, Slot, bool)>,
    /// Next free frame slot.
    next: u32,
    /// Largest frame size seen since the last [`Compiler::reset_frame`].
    max: u32,
    /// Types of the unit's fixed frame slots (variables, parameters,
    /// outputs) where known: the fallback domain of `x : (P)`.
    pub slot_types: Vec<Option<Type>>,
    /// Set when a plan enumerates an integer within `--bound-integers`'
    /// bounds.
    bound_used: std::cell::Cell<bool>,
    /// Set for the next binder's plan: the top-level lambda or
    /// comprehension of a constant's definition, whose domain is not cut
    /// to `--bound-integers`' bounds (an infinite one keeps it symbolic,
    /// as in ProB); the binders nested in it keep the bound.
    unbounded_next: bool,
    /// Set while PROPERTIES is compiled: the conditions of quantifiers and
    /// comprehensions read a function applied outside its domain as false
    /// (as ProB's solver reads `f(x) = y` as `x |-> y : f`), counting each
    /// such candidate for the report; and a comprehension over sets or
    /// functions may be solved by the constraint solver (evaluated once,
    /// not per state, where a solver's model would cost more than it saves).
    pub in_properties: bool,
    /// Set while the image plan of a comprehension is compiled (see
    /// [`plan::plan`]'s `image`).
    planning_image: bool,
    /// Where a curried update (`f(a)(b) := e`) reads the function it
    /// updates (`f(a)`): a read outside the domain there is a model error
    /// even with `--undefined-blocks`, as ProB reports it
    /// (TestNestedFunUpdate).
    pub nested_targets: Vec<Span>,
}

impl<'a> Compiler<'a> {
    /// A compiler for a machine with these types.
    pub fn new(types: &'a MachineTypes) -> Self {
        let mut globals = HashMap::new();
        for (set_no, g) in types.given_sets.iter().enumerate() {
            let elems: Vec<Value> = (0..g.elements.len())
                .map(|i| {
                    Value::Elem(Elem {
                        set: set_no as u32,
                        index: i as u32,
                    })
                })
                .collect();
            if !g.deferred {
                for (name, v) in g.elements.iter().zip(&elems) {
                    globals.insert(name.clone(), v.clone());
                }
            }
            globals.insert(g.name.clone(), Value::set_from_sorted(elems));
        }
        let mut free_types = HashMap::new();
        let mut constructors = HashMap::new();
        for (k, free) in types.free_types.iter().enumerate() {
            free_types.insert(free.name.clone(), k as u32);
            for (i, c) in free.constructors.iter().enumerate() {
                constructors.insert(c.name.clone(), (i as u32, c.arg.is_some()));
            }
        }
        Compiler {
            types,
            globals,
            free_types,
            constructors,
            scope: Vec::new(),
            next: 0,
            max: 0,
            slot_types: Vec::new(),
            bound_used: std::cell::Cell::new(false),
            unbounded_next: false,
            in_properties: false,
            planning_image: false,
            nested_targets: Vec::new(),
        }
    }

    /// The conjunct `c = e` of PROPERTIES that defines constant number `k`
    /// (frame slot `k`) as a set, compiled so that `e` stays symbolic
    /// where it cannot be built (see [`super::symbolic`]); `defs` gets
    /// the definition, named `name` and written `text`. An `e` that reads
    /// `c` is a recursive definition only if it is a lambda or a set
    /// comprehension (or a union or override with one); otherwise the
    /// conjunct is an ordinary constraint (`r = r~`), compiled as such.
    pub fn definition(
        &mut self,
        k: u32,
        name: &Ident,
        e: &Expr,
        defs: &mut Vec<super::symbolic::Definition>,
        text: &str,
    ) -> CResult<CPred> {
        let expr = self.definition_expr(e)?;
        let mut slots = Vec::new();
        plan::expr_slots(&expr, &mut slots);
        if slots.contains(&k) && !super::symbolic::is_function_definition(&expr) {
            let name_expr = CExpr {
                kind: EK::Read(Slot::Frame(k)),
                span: name.span,
            };
            return Ok(CPred {
                kind: PK::Cmp(Cmp::Eq, name_expr, expr),
                span: name.span.to(e.span),
            });
        }
        let def = defs.len() as u32;
        let expr = std::sync::Arc::new(expr);
        defs.push(super::symbolic::Definition {
            reads: super::memo::closed_reads(&expr).map(Vec::into_boxed_slice),
            expr: expr.clone(),
            name: name.name.clone(),
            text: text.into(),
            last: Default::default(),
            recursive: slots.contains(&k),
        });
        let symbolic = super::symbolic::SymbolicDef {
            def,
            expr,
            self_slot: slots.contains(&k).then_some(k),
        };
        Ok(CPred {
            kind: PK::Cmp(
                Cmp::Eq,
                CExpr {
                    kind: EK::Read(Slot::Frame(k)),
                    span: name.span,
                },
                CExpr {
                    kind: EK::Symbolic(Box::new(symbolic)),
                    span: e.span,
                },
            ),
            span: name.span.to(e.span),
        })
    }

    /// `id(T)` for the relation `r` of `closure(r)` over a finite type `T`
    /// (booleans, given sets and their pairs) of at most
    /// [`MAX_CLOSURE_IDENTITY`] values: ProB's `closure(r)` is `closure1(r)
    /// \/ id(T)`. `None` otherwise: the closure then holds the identity on
    /// the relation's field (`dom(r) \/ ran(r)`), all of it a model can
    /// list over integers or strings.
    fn closure_identity(&self, r: &Expr) -> Option<Value> {
        fn values(t: &Type, types: &MachineTypes, out: &mut Vec<Value>) -> bool {
            match t {
                Type::Bool => out.extend([Value::Bool(false), Value::Bool(true)]),
                Type::Given(n) => {
                    let size = types
                        .given_sets
                        .get(*n as usize)
                        .map_or(0, |g| g.elements.len());
                    out.extend((0..size as u32).map(|index| Value::Elem(Elem { set: *n, index })));
                }
                Type::Pair(a, b) => {
                    let (mut xs, mut ys) = (Vec::new(), Vec::new());
                    if !values(a, types, &mut xs) || !values(b, types, &mut ys) {
                        return false;
                    }
                    if xs.len().saturating_mul(ys.len()) > MAX_CLOSURE_IDENTITY {
                        return false;
                    }
                    for x in &xs {
                        out.extend(ys.iter().map(|y| Value::pair(x.clone(), y.clone())));
                    }
                }
                _ => return false,
            }
            out.len() <= MAX_CLOSURE_IDENTITY
        }
        let t = self.types.closures.get(&(r.span.start, r.span.end))?;
        let mut all = Vec::new();
        if !values(t, self.types, &mut all) {
            return None;
        }
        all.sort_unstable();
        let identity = all.into_iter().map(|v| Value::pair(v.clone(), v)).collect();
        Some(Value::set_from_sorted(identity))
    }

    /// The comprehension `{names | p}`; with `applied`, one of two or more
    /// variables also gets the plan of its last variable with the others
    /// bound (its image solver: how it is applied without being built).
    fn comprehension(
        &mut self,
        names: &[Ident],
        p: &Expr,
        span: Span,
        applied: bool,
    ) -> CResult<EK> {
        let mark = self.mark();
        let vars = self.bind(names);
        let mut solver = self.binder_solver(names, &vars, p, span)?;
        solver.by_solver = self.binder_unknowns(names, &solver);
        if applied && vars.len() >= 2 {
            let last = vars.len() - 1;
            self.planning_image = true;
            let image = self.binder_solver(&names[last..], &vars[last..], p, span);
            self.planning_image = false;
            let image = image?;
            solver.image = Some(Box::new(image));
        }
        self.pop(mark);
        Ok(EK::Comprehension(Box::new(solver)))
    }

    /// `MAXIMIZE` (`maximize`) or `MINIMIZE` of the comprehension `arg`
    /// of two or more variables, the first the integer objective: its plan again
    /// with `objective > bound` (`<`) added, for the branch and bound of
    /// [`super::ir::Optimum`].
    fn optimum(&mut self, maximize: bool, arg: &Expr) -> CResult<EK> {
        let ExprKind::Comprehension(names, p) = &arg.kind else {
            return Err(Diagnostic::error(arg.span, "expected a set comprehension"));
        };
        let plain = self.expr(arg)?;
        let mark = self.mark();
        // Not a B identifier: nothing in the model can name it.
        let bound_name = Ident {
            name: "$bound".into(),
            span: arg.span,
        };
        let bound = self.bind(std::slice::from_ref(&bound_name))[0];
        let vars = self.bind(names);
        let ident = |i: &Ident| Expr {
            kind: ExprKind::Ident(i.name.clone()),
            span: i.span,
        };
        let op = if maximize { BinaryOp::Gt } else { BinaryOp::Lt };
        let better = Expr {
            kind: ExprKind::Binary(op, Box::new(ident(&names[0])), Box::new(ident(&bound_name))),
            span: arg.span,
        };
        let condition = Expr {
            kind: ExprKind::Binary(BinaryOp::And, p.clone(), Box::new(better)),
            span: p.span,
        };
        let bounded = self
            .binder_solver(names, &vars, &condition, arg.span)
            .map(|mut s| {
                s.by_solver = self.binder_unknowns(names, &s);
                s
            });
        self.pop(mark);
        Ok(EK::Optimum(Box::new(super::ir::Optimum {
            maximize,
            plain,
            bounded: Box::new(bounded?),
            bound,
        })))
    }

    /// `f` compiled to be applied where it is written (see
    /// [`EK::ApplyBinder`]) if it is a lambda or a comprehension of two or
    /// more variables, or an override or union with one (`(f <+ {x |->
    /// y})(z)` for a lambda `f` over `INTEGER`: `y` at `x`, `f(z)`
    /// elsewhere, never `f` listed).
    fn applied_binder(&mut self, f: &Expr) -> CResult<Option<CExpr>> {
        let kind = match &f.kind {
            ExprKind::Comprehension(names, p) if names.len() >= 2 => {
                self.comprehension(names, p, f.span, true)?
            }
            ExprKind::Lambda(names, p, body) => self.lambda(names, p, body, f.span)?,
            ExprKind::Binary(op @ (BinaryOp::Override | BinaryOp::Union), a, b)
                if written_binder(a) || written_binder(b) =>
            {
                let mut part = |e: &Expr| -> CResult<Box<CExpr>> {
                    Ok(Box::new(match self.applied_binder(e)? {
                        Some(c) => c,
                        None => self.expr(e)?,
                    }))
                };
                let (a, b) = (part(a)?, part(b)?);
                EK::Binary(*op, a, b)
            }
            _ => return Ok(None),
        };
        Ok(Some(CExpr { kind, span: f.span }))
    }

    /// The lambda `%names.(p | body)`.
    fn lambda(&mut self, names: &[Ident], p: &Expr, body: &Expr, span: Span) -> CResult<EK> {
        let (solver, body) = self.binder_with_body(names, p, body, span)?;
        Ok(EK::Lambda(solver, body))
    }

    /// The plan of a binder `names | p` with a body evaluated per solution
    /// (a lambda, `SIGMA`, `UNION`, ...), the body's loop-invariant parts
    /// kept.
    fn binder_with_body(
        &mut self,
        names: &[Ident],
        p: &Expr,
        body: &Expr,
        span: Span,
    ) -> CResult<(Box<Solver>, Box<CExpr>)> {
        let mark = self.mark();
        let vars = self.bind(names);
        let solver = self.solver(names, &vars, None, p, span, Undefined::Error)?;
        let mut body = self.expr(body)?;
        memo::memoize_body(&solver, &mut [&mut body], &mut []);
        self.pop(mark);
        Ok((Box::new(solver), Box::new(body)))
    }

    /// A definition's expression: its top-level lambdas and comprehensions
    /// (also within unions and overrides) planned without the integer
    /// bound.
    fn definition_expr(&mut self, e: &Expr) -> CResult<CExpr> {
        match &e.kind {
            ExprKind::Binary(op @ (BinaryOp::Union | BinaryOp::Override), a, b) => Ok(CExpr {
                kind: EK::Binary(
                    *op,
                    Box::new(self.definition_expr(a)?),
                    Box::new(self.definition_expr(b)?),
                ),
                span: e.span,
            }),
            ExprKind::Lambda(..) | ExprKind::Comprehension(..) => {
                self.unbounded_next = true;
                let compiled = self.expr(e);
                self.unbounded_next = false;
                compiled
            }
            _ => self.expr(e),
        }
    }

    /// `--bound-integers`' bounds for a plan, if the flag is given.
    pub fn int_bound(&self) -> Option<plan::IntBound<'_>> {
        self.types.int_range().map(|(lo, hi)| plan::IntBound {
            lo,
            hi,
            used: &self.bound_used,
        })
    }

    /// Records that a plan given bounds of its own (not
    /// [`Self::int_bound`]'s) enumerates an integer within them.
    pub fn note_bound_used(&self) {
        self.bound_used.set(true);
    }

    /// Whether some plan compiled so far enumerates an integer within
    /// `--bound-integers`' bounds.
    pub fn bound_used(&self) -> bool {
        self.bound_used.get()
    }

    /// Starts a new compilation unit whose frame begins with `base` slots.
    pub fn reset_frame(&mut self, base: u32) {
        self.scope.clear();
        self.slot_types.clear();
        self.next = base;
        self.max = base;
    }

    /// Frame size needed by the current unit.
    pub fn frame_size(&self) -> u32 {
        self.max
    }

    /// Makes `name` refer to `slot` until the matching [`Compiler::pop`].
    pub fn push_name(&mut self, name: &str, slot: Slot) {
        self.scope.push((name.to_string(), slot, false));
    }

    /// Makes `name` refer to frame slot `slot`, a `VAR` local or an output
    /// that holds no value until assigned: reading it is checked.
    pub fn push_local(&mut self, name: &str, slot: u32) {
        self.scope.push((name.to_string(), Slot::Frame(slot), true));
    }

    /// Allocates fresh frame slots for the `VAR` locals `names` and puts
    /// them in scope.
    pub fn bind_locals(&mut self, names: &[Ident]) -> Vec<u32> {
        names
            .iter()
            .map(|n| {
                let s = self.alloc();
                self.push_local(&n.name, s);
                s
            })
            .collect()
    }

    /// Allocates fresh frame slots for `names` and puts them in scope.
    pub fn bind(&mut self, names: &[Ident]) -> Vec<u32> {
        names
            .iter()
            .map(|n| {
                let s = self.alloc();
                self.push_name(&n.name, Slot::Frame(s));
                s
            })
            .collect()
    }

    /// Allocates one anonymous frame slot.
    pub fn alloc(&mut self) -> u32 {
        let s = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        s
    }

    /// Current scope depth and next slot, to restore with [`Compiler::pop`].
    pub fn mark(&self) -> (usize, u32) {
        (self.scope.len(), self.next)
    }

    /// Ends every binding made since `mark`, freeing their slots.
    pub fn pop(&mut self, mark: (usize, u32)) {
        self.scope.truncate(mark.0);
        self.next = mark.1;
    }

    /// The name a frame slot is known by in the current scope.
    pub fn slot_name(&self, slot: u32) -> String {
        self.scope
            .iter()
            .rev()
            .find(|(_, s, _)| *s == Slot::Frame(slot))
            .map_or_else(|| format!("#{slot}"), |(n, _, _)| n.clone())
    }

    /// The slot a name resolves to, if it is in scope.
    pub fn resolve(&self, name: &str) -> Option<Slot> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, _)| *s)
    }

    fn lookup(&self, name: &str, span: Span) -> CResult<EK> {
        if let Some((_, slot, checked)) = self.scope.iter().rev().find(|(n, _, _)| n == name) {
            return Ok(match slot {
                // (An inlined call's outputs are renamed `o@1`: the
                // message names `o`.)
                Slot::Frame(s) if *checked => {
                    EK::Local(*s, name.split('@').next().unwrap_or(name).into())
                }
                _ => EK::Read(*slot),
            });
        }
        if let Some(v) = self.globals.get(name) {
            return Ok(EK::Lit(v.clone()));
        }
        if let Some(&k) = self.free_types.get(name) {
            return Ok(EK::FreeType(k));
        }
        match self.constructors.get(name) {
            Some(&(i, false)) => {
                return Ok(EK::Lit(Value::pair(
                    Value::Int(i.into()),
                    Value::Bool(true),
                )));
            }
            Some(&(_, true)) => {
                return Err(Diagnostic::error(
                    span,
                    format!("not supported yet: the constructor `{name}` as a set of pairs"),
                )
                .with_note(format!(
                    "apply it (`{name}(x)`) or its inverse (`{name}~(v)`) to a value"
                )));
            }
            None => {}
        }
        Err(
            Diagnostic::error(span, format!("unknown identifier `{name}`"))
                .with_label("not declared in this machine"),
        )
    }

    /// A record (`op` is `|->`) or a set of records (`op` is `*`): the
    /// fields sorted by name as right-nested pairs, one field `a` as
    /// `a |-> TRUE` (see [`MachineTypes::fields`]).
    fn record(
        &mut self,
        fields: &[(crate::frontends::b::ast::Ident, Expr)],
        op: BinaryOp,
        span: Span,
    ) -> CResult<EK> {
        let mut sorted: Vec<&(crate::frontends::b::ast::Ident, Expr)> = fields.iter().collect();
        sorted.sort_by(|a, b| a.0.name.cmp(&b.0.name));
        let mut parts: Vec<CExpr> = sorted
            .iter()
            .map(|(_, e)| self.expr(e))
            .collect::<CResult<_>>()?;
        if parts.len() == 1 {
            let truth = Value::Bool(true);
            let pad = if op == BinaryOp::Mul {
                Value::set_from_sorted(vec![truth])
            } else {
                truth
            };
            parts.push(CExpr {
                kind: EK::Lit(pad),
                span,
            });
        }
        let mut value = parts.pop().expect("a record has fields");
        while let Some(field) = parts.pop() {
            value = CExpr {
                kind: EK::Binary(op, Box::new(field), Box::new(value)),
                span,
            };
        }
        Ok(value.kind)
    }

    /// `c(x)` and `c~(v)` for a constructor `c` of a free type (not
    /// hidden by a local name): the value `(i |-> x)` of constructor number
    /// `i`, and the argument of such a value. `None` for any other `f`.
    fn construction(&mut self, f: &Expr, args: &[Expr], span: Span) -> CResult<Option<EK>> {
        let (name, inverse) = match &f.kind {
            ExprKind::Ident(name) => (name, false),
            ExprKind::Unary(UnaryOp::Inverse, inner) => match &inner.kind {
                ExprKind::Ident(name) => (name, true),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        if self.resolve(name).is_some() {
            return Ok(None);
        }
        let Some(&(i, true)) = self.constructors.get(name.as_str()) else {
            return Ok(None);
        };
        let arg = self.tuple(args, span)?;
        Ok(Some(if inverse {
            EK::Destruct(i, name.as_str().into(), Box::new(arg))
        } else {
            EK::Binary(
                BinaryOp::Maplet,
                Box::new(CExpr {
                    kind: EK::Lit(Value::Int(i.into())),
                    span: f.span,
                }),
                Box::new(arg),
            )
        }))
    }

    /// Compiles an expression (a value-producing term).
    pub fn expr(&mut self, e: &Expr) -> CResult<CExpr> {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::Ident(name) => self.lookup(name, span)?,
            ExprKind::Int(i) => EK::Lit(Value::Int(*i)),
            ExprKind::BigInt(n) => EK::Lit(Value::integer(n.clone())),
            ExprKind::Str(s) => EK::Lit(Value::str(s)),
            ExprKind::True => EK::Lit(Value::Bool(true)),
            ExprKind::False => EK::Lit(Value::Bool(false)),
            ExprKind::Constant(c) => match c {
                BuiltinConstant::Nat => EK::Ints(IntSet::Nat),
                BuiltinConstant::Nat1 => EK::Ints(IntSet::Nat1),
                BuiltinConstant::Int => EK::Ints(IntSet::Int),
                BuiltinConstant::Natural => EK::Ints(IntSet::Natural),
                BuiltinConstant::Natural1 => EK::Ints(IntSet::Natural1),
                BuiltinConstant::Integer => EK::Ints(IntSet::Integer),
                BuiltinConstant::String => EK::Strings,
                BuiltinConstant::Bool => EK::Lit(Value::set_from_sorted(vec![
                    Value::Bool(false),
                    Value::Bool(true),
                ])),
                BuiltinConstant::MaxInt => EK::Lit(Value::Int(self.types.maxint)),
                BuiltinConstant::MinInt => EK::Lit(Value::Int(self.types.minint)),
                BuiltinConstant::EmptySet | BuiltinConstant::EmptySeq => {
                    EK::Lit(Value::empty_set())
                }
            },
            ExprKind::Unary(UnaryOp::Not, _) => return Err(expected_expression(span)),
            ExprKind::Unary(UnaryOp::Minus, inner) if matches!(inner.kind, ExprKind::Int(_)) => {
                let ExprKind::Int(i) = inner.kind else {
                    unreachable!("guarded by matches!")
                };
                EK::Lit(Value::Int(-i))
            }
            ExprKind::Unary(UnaryOp::Closure, inner) => {
                let r = self.expr(inner)?;
                match self.closure_identity(inner) {
                    // closure1(r) \/ id(T)
                    Some(identity) => EK::Binary(
                        BinaryOp::Union,
                        Box::new(CExpr {
                            kind: EK::Unary(UnaryOp::Closure1, Box::new(r)),
                            span,
                        }),
                        Box::new(CExpr {
                            kind: EK::Lit(identity),
                            span,
                        }),
                    ),
                    None => EK::Unary(UnaryOp::Closure, Box::new(r)),
                }
            }
            ExprKind::Unary(op, inner) => EK::Unary(*op, Box::new(self.expr(inner)?)),
            ExprKind::Binary(op, a, b) => {
                if op.is_predicate() {
                    return Err(expected_expression(span));
                }
                if *op == BinaryOp::Composition
                    && let Some(r) = self.applied_binder(b)?
                {
                    // `p ; pred`: each pair's images solved for.
                    return Ok(CExpr {
                        kind: EK::ComposeBinder(Box::new(self.expr(a)?), Box::new(r)),
                        span,
                    });
                }
                EK::Binary(*op, Box::new(self.expr(a)?), Box::new(self.expr(b)?))
            }
            ExprKind::Call(builtin @ (Builtin::Prj1 | Builtin::Prj2), args) if args.len() == 1 => {
                EK::Component(*builtin == Builtin::Prj1, Box::new(self.expr(&args[0])?))
            }
            ExprKind::Call(builtin, args) => {
                let [a, b] = args.as_slice() else {
                    return Err(Diagnostic::error(
                        span,
                        format!("`{builtin:?}` takes two arguments"),
                    ));
                };
                let (a, b) = (Box::new(self.expr(a)?), Box::new(self.expr(b)?));
                match builtin {
                    Builtin::Prj1 => EK::Projection(true, a, b),
                    Builtin::Prj2 => EK::Projection(false, a, b),
                    Builtin::Iterate => EK::Iterate(a, b),
                }
            }
            ExprKind::Apply(f, args) => {
                if let ExprKind::Call(b @ (Builtin::Prj1 | Builtin::Prj2), sets) = &f.kind
                    && let [left, right] = sets.as_slice()
                {
                    return Ok(CExpr {
                        kind: self.projection_applied(
                            *b == Builtin::Prj1,
                            left,
                            right,
                            args,
                            span,
                        )?,
                        span,
                    });
                }
                if let Some(constructed) = self.construction(f, args, span)? {
                    return Ok(CExpr {
                        kind: constructed,
                        span,
                    });
                }
                // `(l ; r)(x)` for a lambda `l` (a function): `r(l(x))`.
                if let ExprKind::Binary(BinaryOp::Composition, l, r) = &f.kind
                    && let ExprKind::Lambda(..) = &l.kind
                {
                    let inner = Expr {
                        kind: ExprKind::Apply(l.clone(), args.clone()),
                        span,
                    };
                    let outer = Expr {
                        kind: ExprKind::Apply(r.clone(), vec![inner]),
                        span,
                    };
                    return self.expr(&outer);
                }
                // `%x.(x : INTEGER | E)(a)`: `E` with `a` for `x`.
                if let Some(reduced) = super::rewrite::beta_reduced(f, args) {
                    return self.expr(&reduced);
                }
                // Applied where it is written: solved for the image.
                if let Some(f) = self.applied_binder(f)? {
                    let arg = self.tuple(args, span)?;
                    return Ok(CExpr {
                        kind: EK::ApplyBinder(Box::new(f), Box::new(arg)),
                        span,
                    });
                }
                let f = self.expr(f)?;
                let arg = self.tuple(args, span)?;
                EK::Apply(Box::new(f), Box::new(arg))
            }
            ExprKind::Image(r, s) => match self.applied_binder(r)? {
                // Each element's images solved for, the relation never built.
                Some(r) => EK::ImageBinder(Box::new(r), Box::new(self.expr(s)?)),
                None => EK::Image(Box::new(self.expr(r)?), Box::new(self.expr(s)?)),
            },
            ExprKind::SetEnum(items) => {
                EK::SetEnum(items.iter().map(|x| self.expr(x)).collect::<CResult<_>>()?)
            }
            ExprKind::SeqEnum(items) => {
                EK::SeqEnum(items.iter().map(|x| self.expr(x)).collect::<CResult<_>>()?)
            }
            ExprKind::Comprehension(names, p) => {
                let applied = self.in_properties;
                self.comprehension(names, p, span, applied)?
            }
            ExprKind::Lambda(names, p, body) => self.lambda(names, p, body, span)?,
            ExprKind::QuantifiedExpr(kind, names, p, body) => {
                let (solver, body) = self.binder_with_body(names, p, body, span)?;
                EK::Quantified(*kind, solver, body)
            }
            ExprKind::Quantifier(..) => return Err(expected_expression(span)),
            ExprKind::BoolOf(p) => EK::BoolOf(Box::new(self.pred(p)?)),
            ExprKind::IfThenElse(c, a, b) => EK::IfThenElse(
                Box::new(self.pred(c)?),
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
            ),
            ExprKind::Let(names, p, body) => {
                let mark = self.mark();
                let vars = self.bind(names);
                let solver = self.solver(names, &vars, None, p, span, Undefined::Error)?;
                let body = self.expr(body)?;
                self.pop(mark);
                EK::Let(Box::new(solver), Box::new(body))
            }
            ExprKind::External(crate::frontends::b::library::External::ToString, args)
                if args.first().is_some_and(|a| {
                    self.types
                        .printed_with_names
                        .contains(&(a.span.start, a.span.end))
                }) =>
            {
                return Err(Diagnostic::error(
                    span,
                    "not supported yet: TO_STRING of a value holding records or free-type values",
                ));
            }
            ExprKind::External(
                f @ (crate::frontends::b::library::External::Maximize
                | crate::frontends::b::library::External::Minimize),
                args,
            ) if matches!(args.as_slice(), [a]
                if matches!(&a.kind, ExprKind::Comprehension(names, _)
                    if names.len() >= 2 && self.types.bound_type(&names[0]) == Some(&Type::Int))) =>
            {
                self.optimum(
                    *f == crate::frontends::b::library::External::Maximize,
                    &args[0],
                )?
            }
            ExprKind::External(f, args) => EK::External(
                *f,
                args.iter().map(|a| self.expr(a)).collect::<CResult<_>>()?,
            ),
            ExprKind::Record(fields) => self.record(fields, BinaryOp::Maplet, span)?,
            ExprKind::Struct(fields) => self.record(fields, BinaryOp::Mul, span)?,
            ExprKind::RecordWith(r, field, value) => {
                let Some(&(index, count)) = self.types.fields.get(&field_key(span, field.span))
                else {
                    return Err(Diagnostic::error(
                        field.span,
                        format!("cannot tell which field `{}` is here", field.name),
                    ));
                };
                let record = self.expr(r)?;
                let value = self.expr(value)?;
                // The record's fields, with the one assigned replaced.
                let mut parts: Vec<CExpr> = Vec::with_capacity(count as usize + 1);
                for k in 0..count {
                    if k == index {
                        parts.push(value.clone());
                        continue;
                    }
                    let mut part = record.clone();
                    for _ in 0..k {
                        part = CExpr {
                            kind: EK::Component(false, Box::new(part)),
                            span,
                        };
                    }
                    if k + 1 < count {
                        part = CExpr {
                            kind: EK::Component(true, Box::new(part)),
                            span,
                        };
                    }
                    parts.push(part);
                }
                if count == 1 {
                    parts.push(CExpr {
                        kind: EK::Lit(Value::Bool(true)),
                        span,
                    });
                }
                let mut value = parts.pop().expect("a record has fields");
                while let Some(part) = parts.pop() {
                    value = CExpr {
                        kind: EK::Binary(BinaryOp::Maplet, Box::new(part), Box::new(value)),
                        span,
                    };
                }
                return Ok(value);
            }
            ExprKind::Field(r, field) => {
                let Some(&(index, count)) = self.types.fields.get(&field_key(span, field.span))
                else {
                    return Err(Diagnostic::error(
                        field.span,
                        format!("cannot tell which field `{}` is here", field.name),
                    )
                    .with_note("a definition that accesses record fields at several record types is not supported yet"));
                };
                let mut value = self.expr(r)?;
                for _ in 0..index {
                    value = CExpr {
                        kind: EK::Component(false, Box::new(value)),
                        span,
                    };
                }
                if count == 1 || index + 1 < count {
                    value = CExpr {
                        kind: EK::Component(true, Box::new(value)),
                        span,
                    };
                }
                return Ok(value);
            }
        };
        Ok(CExpr { kind, span })
    }

    /// Compiles `f(a, b)` arguments into the single argument `a |-> b`.
    fn tuple(&mut self, args: &[Expr], span: Span) -> CResult<CExpr> {
        let mut it = args.iter();
        let Some(first) = it.next() else {
            return Err(Diagnostic::error(
                span,
                "function application needs an argument",
            ));
        };
        let mut acc = self.expr(first)?;
        for a in it {
            let b = self.expr(a)?;
            let span = acc.span.to(b.span);
            acc = CExpr {
                kind: EK::Binary(BinaryOp::Maplet, Box::new(acc), Box::new(b)),
                span,
            };
        }
        Ok(acc)
    }

    /// `prj1(S, T)(p)` (or `prj2`) as ProB computes it, without building
    /// `S * T`, which is often infinite (`prj1(INTEGER, INTEGER)(1, 4)`): the
    /// component of `p` when `p : S * T`, and otherwise the error of a
    /// function applied outside its domain (the application of `{}`).
    fn projection_applied(
        &mut self,
        first: bool,
        left: &Expr,
        right: &Expr,
        args: &[Expr],
        span: Span,
    ) -> CResult<EK> {
        let pair = self.tuple(args, span)?;
        let component = |first| CExpr {
            kind: EK::Component(first, Box::new(pair.clone())),
            span,
        };
        let member = |x, set| CPred {
            kind: PK::Member(x, set, false),
            span,
        };
        let inside = CPred {
            kind: PK::And(vec![
                member(component(true), self.expr(left)?),
                member(component(false), self.expr(right)?),
            ]),
            span,
        };
        let outside = CExpr {
            kind: EK::Apply(
                Box::new(CExpr {
                    kind: EK::Lit(Value::empty_set()),
                    span,
                }),
                Box::new(pair.clone()),
            ),
            span,
        };
        Ok(EK::IfThenElse(
            Box::new(inside),
            Box::new(component(first)),
            Box::new(outside),
        ))
    }

    /// Compiles a predicate.
    pub fn pred(&mut self, e: &Expr) -> CResult<CPred> {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::True => PK::Const(true),
            ExprKind::False => PK::Const(false),
            ExprKind::Unary(UnaryOp::Not, p) => return Ok(negation(self.pred(p)?)),
            ExprKind::Binary(op, a, b) => match op {
                BinaryOp::And => {
                    let mut parts = Vec::new();
                    for c in conjuncts(e) {
                        parts.push(self.pred(c)?);
                    }
                    PK::And(parts)
                }
                BinaryOp::Or => PK::Or(Box::new(self.pred(a)?), Box::new(self.pred(b)?)),
                BinaryOp::Implies => PK::Implies(Box::new(self.pred(a)?), Box::new(self.pred(b)?)),
                BinaryOp::Equiv => PK::Equiv(Box::new(self.pred(a)?), Box::new(self.pred(b)?)),
                BinaryOp::Eq => PK::Cmp(Cmp::Eq, self.expr(a)?, self.expr(b)?),
                BinaryOp::Neq => PK::Cmp(Cmp::Neq, self.expr(a)?, self.expr(b)?),
                BinaryOp::Lt => PK::Cmp(Cmp::Lt, self.expr(a)?, self.expr(b)?),
                BinaryOp::Le => PK::Cmp(Cmp::Le, self.expr(a)?, self.expr(b)?),
                BinaryOp::Gt => PK::Cmp(Cmp::Gt, self.expr(a)?, self.expr(b)?),
                BinaryOp::Ge => PK::Cmp(Cmp::Ge, self.expr(a)?, self.expr(b)?),
                BinaryOp::Member | BinaryOp::NotMember
                    if let Some(conditions) = super::rewrite::identity_membership(a, b) =>
                {
                    let p = self.pred(&conditions)?;
                    return Ok(if *op == BinaryOp::NotMember {
                        negation(p)
                    } else {
                        p
                    });
                }
                BinaryOp::Member => PK::Member(self.expr(a)?, self.expr(b)?, false),
                BinaryOp::NotMember => PK::Member(self.expr(a)?, self.expr(b)?, true),
                BinaryOp::Subset => PK::Subset(self.expr(a)?, self.expr(b)?, false, false),
                BinaryOp::StrictSubset => PK::Subset(self.expr(a)?, self.expr(b)?, true, false),
                BinaryOp::NotSubset => PK::Subset(self.expr(a)?, self.expr(b)?, false, true),
                BinaryOp::NotStrictSubset => PK::Subset(self.expr(a)?, self.expr(b)?, true, true),
                _ => return Err(expected_predicate(span)),
            },
            ExprKind::Quantifier(q, names, body) => {
                // `#(f, y).(f = %x.(..) & P)`: `#y.(P)` with the lambda for `f`.
                if *q == Quantifier::Exists
                    && let Some(rewritten) = super::rewrite::one_point(names, body)
                {
                    return self.pred(&rewritten);
                }
                let mark = self.mark();
                let vars = self.bind(names);
                let kind = match q {
                    Quantifier::ForAll => {
                        let (guard, goal) = match &body.kind {
                            ExprKind::Binary(BinaryOp::Implies, p, q) => (Some(&**p), &**q),
                            _ => (None, &**body),
                        };
                        let solver = match guard {
                            Some(p) => self.binder_solver(names, &vars, p, span)?,
                            None => {
                                let types = self.binder_types(names);
                                plan::plan(
                                    names,
                                    &vars,
                                    Some(&types),
                                    false,
                                    false,
                                    Vec::new(),
                                    span,
                                    Undefined::Error,
                                    self.int_bound(),
                                )
                            }
                        };
                        let mut goal = self.pred(goal)?;
                        memo::memoize_body(&solver, &mut [], &mut [&mut goal]);
                        PK::ForAll(Box::new(solver), Box::new(goal))
                    }
                    Quantifier::Exists => {
                        let mut solver = self.binder_solver(names, &vars, body, span)?;
                        let types = names
                            .iter()
                            .map(|n| self.types.bound_type(n).cloned())
                            .collect::<Option<Vec<Type>>>();
                        solver.by_solver = self.large_binder_unknowns(names, types, &solver);
                        PK::Exists(Box::new(solver))
                    }
                };
                self.pop(mark);
                kind
            }
            ExprKind::Let(names, p, body) => {
                // `LET x BE x = e IN P END` in a predicate: exists a binding with P.
                let mark = self.mark();
                let vars = self.bind(names);
                let mut parts: Vec<CPred> = Vec::new();
                for c in conjuncts(p) {
                    parts.push(self.pred(c)?);
                }
                parts.push(self.pred(body)?);
                self.pop(mark);
                let types = self.binder_types(names);
                PK::Exists(Box::new(plan::plan(
                    names,
                    &vars,
                    Some(&types),
                    false,
                    false,
                    parts,
                    span,
                    Undefined::Error,
                    self.int_bound(),
                )))
            }
            _ => return Err(expected_predicate(span)),
        };
        Ok(CPred { kind, span })
    }

    /// Compiles the conjuncts of `p` and plans how to enumerate `vars`
    /// (already bound in scope to `names`). `types` gives a fallback domain
    /// per variable when no conjunct generates it.
    pub fn solver(
        &mut self,
        names: &[Ident],
        vars: &[u32],
        types: Option<&[Type]>,
        p: &Expr,
        span: Span,
        undefined: Undefined,
    ) -> CResult<Solver> {
        self.solver_of(names, vars, types, &conjuncts(p), p.span, span, undefined)
    }

    /// The solver of a quantifier's or comprehension's condition: lenient
    /// and counted in PROPERTIES (see [`Self::in_properties`]).
    fn binder_solver(
        &mut self,
        names: &[Ident],
        vars: &[u32],
        p: &Expr,
        span: Span,
    ) -> CResult<Solver> {
        let undefined = if self.in_properties {
            Undefined::Counted
        } else {
            Undefined::Error
        };
        self.solver(names, vars, None, p, span, undefined)
    }

    /// [`Self::solver`] for the conjunction of `parts` (spanning
    /// `condition_span`).
    #[allow(clippy::too_many_arguments)]
    pub fn solver_of(
        &mut self,
        names: &[Ident],
        vars: &[u32],
        types: Option<&[Type]>,
        parts: &[&Expr],
        condition_span: Span,
        span: Span,
        undefined: Undefined,
    ) -> CResult<Solver> {
        let unbounded = std::mem::take(&mut self.unbounded_next);
        let parts = parts
            .iter()
            .map(|c| self.pred(c))
            .collect::<CResult<Vec<CPred>>>()?;
        let condition = CPred {
            kind: PK::And(parts.clone()),
            span: condition_span,
        };
        let machine_vars = types.is_some();
        let binder_types;
        let types = match types {
            Some(t) => t,
            None => {
                binder_types = self.binder_types(names);
                &binder_types
            }
        };
        let mut solver = plan::plan(
            names,
            vars,
            Some(types),
            machine_vars,
            self.planning_image,
            parts,
            span,
            undefined,
            if unbounded { None } else { self.int_bound() },
        );
        solver.condition = Some(Box::new(condition));
        memo::memoize(&mut solver);
        Ok(solver)
    }

    /// The type checker's types of bound variables, as a fallback domain;
    /// an unrecorded type counts as `INTEGER` (not enumerable).
    /// The constraint solver's view of a comprehension over sets or
    /// functions in PROPERTIES (whose enumeration builds every candidate:
    /// `{q | q : 1..n >-> 1..n & ...}` tries n^n), where its variables'
    /// types are known and their slots consecutive.
    fn binder_unknowns(&self, names: &[Ident], solver: &Solver) -> Option<Box<BinderUnknowns>> {
        if !self.in_properties {
            return None;
        }
        let types = names
            .iter()
            .map(|n| self.types.bound_type(n).cloned())
            .collect::<Option<Vec<Type>>>()?;
        // Over sets or functions, or where enumeration would try many
        // candidates (`{x, y, p | {x, y} <: 100..999 & #k.(..)}`).
        if !types.iter().any(|t| matches!(t, Type::Set(_)))
            && plan::candidate_space(solver) <= super::cp::AUTO_THRESHOLD
        {
            return None;
        }
        binder_view(names, types, solver).map(Box::new)
    }

    /// The constraint solver's view of an `ANY` or `x : (P)` whose plan
    /// would try more than [`super::cp::AUTO_THRESHOLD`] candidates in a
    /// state ([`plan::candidate_space`]), where its variables' types are
    /// known and their slots consecutive.
    pub(super) fn large_binder_unknowns(
        &self,
        names: &[Ident],
        types: Option<Vec<Type>>,
        solver: &Solver,
    ) -> Option<Box<BinderUnknowns>> {
        if plan::candidate_space(solver) <= super::cp::AUTO_THRESHOLD {
            return None;
        }
        binder_view(names, types?, solver).map(Box::new)
    }

    fn binder_types(&self, names: &[Ident]) -> Vec<Type> {
        names
            .iter()
            .map(|n| self.types.bound_type(n).cloned().unwrap_or(Type::Int))
            .collect()
    }
}

/// The constraint solver's view of a binder (its variables `names` of
/// `types`, its plan's conjuncts), where its slots are consecutive and it
/// has conditions.
pub(super) fn binder_view(
    names: &[Ident],
    types: Vec<Type>,
    solver: &Solver,
) -> Option<BinderUnknowns> {
    let consecutive = solver.vars.windows(2).all(|w| w[1] == w[0] + 1);
    match solver.condition.as_deref() {
        Some(CPred {
            kind: PK::And(conjuncts),
            ..
        }) if consecutive && !conjuncts.is_empty() => Some(BinderUnknowns {
            names: names.iter().map(|n| n.name.clone()).collect(),
            types,
            conjuncts: conjuncts.clone(),
        }),
        _ => None,
    }
}

/// The top-level conjuncts of a predicate, in source order.
pub fn conjuncts(e: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                stack.push(b);
                stack.push(a);
            }
            _ => out.push(x),
        }
    }
    out
}

fn expected_expression(span: Span) -> Diagnostic {
    Diagnostic::error(span, "expected an expression, found a predicate")
        .with_label("a predicate cannot be used as a value")
        .with_note("use `bool(P)` to turn a predicate into a BOOL value")
}

fn expected_predicate(span: Span) -> Diagnostic {
    Diagnostic::error(span, "expected a predicate, found an expression")
        .with_label("this is a value, not a predicate")
        .with_note("compare it with something, e.g. `x = TRUE`")
}

/// `not(p)`, the negation moved into an atomic `p` (`not(y /: A)` is
/// `y : A`, `not(x > 2)` is `x <= 2`) so that plans see the generator it
/// is; B's predicates have two values, so this changes no verdict.
fn negation(p: CPred) -> CPred {
    let span = p.span;
    let kind = match p.kind {
        PK::Const(b) => PK::Const(!b),
        PK::Not(q) => return *q,
        PK::Member(a, s, negated) => PK::Member(a, s, !negated),
        PK::Subset(a, s, strict, negated) => PK::Subset(a, s, strict, !negated),
        PK::Cmp(op, a, b) => PK::Cmp(op.negated(), a, b),
        kind => PK::Not(Box::new(CPred { kind, span })),
    };
    CPred { kind, span }
}

/// Is `e` a binder [`Compiler::applied_binder`] applies where it is
/// written: a lambda, a comprehension of two or more variables, or an
/// override or union with one?
fn written_binder(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Comprehension(names, _) => names.len() >= 2,
        ExprKind::Lambda(..) => true,
        ExprKind::Binary(BinaryOp::Override | BinaryOp::Union, a, b) => {
            written_binder(a) || written_binder(b)
        }
        _ => false,
    }
}
