//! From the syntax tree to the program the interpreter runs ([`super::ir`]):
//! names resolved (constants folded, `--set` overrides applied), types
//! checked, word offsets assigned, read/write sets collected per rule.

use super::Dialect;
use super::ast::*;
use super::ir::*;
use super::parser::Program;
use super::types::{Kind, Ty};
use crate::diag::{Diagnostic, Span};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// A compiled program.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// Global variables, in order.
    pub globals: Vec<GlobalVar>,
    /// Words of a state.
    pub width: usize,
    /// Procedures and functions.
    pub procs: Vec<CProc>,
    /// Start states.
    pub starts: Vec<CRule>,
    /// Rules, in order (a ruleset's rule once, with its parameters).
    pub rules: Vec<CRule>,
    /// Invariants.
    pub invariants: Vec<CRule>,
    /// Assumptions (Rumur's `assume` properties): states where one is
    /// false are discarded.
    pub assumptions: Vec<CRule>,
    /// Cover properties (Rumur's `cover`): some reachable state must
    /// satisfy each instance.
    pub covers: Vec<CRule>,
    /// Liveness properties (Rumur's `liveness`): from every reachable
    /// state a state satisfying each instance stays reachable.
    pub liveness: Vec<CRule>,
    /// Cover statements, numbered by [`CStmt::Cover`]: name and place.
    pub cover_statements: Vec<(String, Span)>,
    /// The scalarset domains: (type name, size).
    pub domains: Vec<(String, u64)>,
}

#[derive(Clone, Debug)]
enum Sym {
    Const(i64, Ty),
    Type(Ty),
    Global(usize),
    Local(usize, Ty),
    /// A reference (a `var` parameter, or an alias of a designator that
    /// starts at global `root`).
    Ref(usize, Ty, Option<usize>),
    Proc(usize),
}

type R<T> = Result<T, Diagnostic>;

struct Compiler<'a> {
    scopes: Vec<HashMap<String, Sym>>,
    globals: Vec<GlobalVar>,
    width: usize,
    procs: Vec<CProc>,
    enums: usize,
    domains: Vec<(String, u64)>,
    overrides: &'a [(String, i64)],
    used_overrides: BTreeSet<String>,
    next_local: usize,
    max_local: usize,
    reads: BTreeSet<usize>,
    writes: BTreeSet<usize>,
    /// The result type of the function being compiled.
    result: Option<Option<Ty>>,
    /// The types of the enumerations, by number.
    enum_tys: Vec<Ty>,
    /// The union types, by number.
    union_tys: Vec<Ty>,
    /// The declaration whose type is being resolved (for messages about
    /// types, which carry no place of their own).
    type_span: Span,
    /// Frame words that hold a value, not a variable: the aliases of
    /// expressions that are not designators (and references bound to
    /// them). Writing through one is refused, as in Rumur.
    read_only: BTreeSet<usize>,
    /// The bindings of the rule-level aliases being compiled.
    prelude: Vec<CStmt>,
    /// The global variables those bindings read or may write through.
    prelude_roots: Vec<usize>,
    /// The compiled `assume` properties.
    assumptions: Vec<CRule>,
    /// The compiled `cover` properties and the cover statements met.
    covers: Vec<CRule>,
    liveness: Vec<CRule>,
    cover_statements: Vec<(String, Span)>,
    /// The conditions of the enclosing `choose` rulesets (the chosen slot
    /// holds an element) and the variables they read.
    choose_guards: Vec<(CExpr, Option<usize>)>,
    /// Whose reading of the program (CMurphi's reads undefined scalarset
    /// and union values without an error).
    dialect: Dialect,
}

/// Most scalar leaves a state may have (a state of this many words is
/// far beyond what any search could store).
const MAX_STATE_SCALARS: usize = 1 << 20;
/// Most elements of a scalarset (its permutations are computed over it).
const MAX_SCALARSET: i64 = 1 << 16;
/// Most elements of an array index type.
const MAX_ARRAY: u64 = 1 << 24;

fn err<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(Diagnostic::error(span, msg))
}

/// Compiles `program` as `dialect` reads it; `overrides` replace the
/// values of constants (`--set NAME=N`).
pub fn compile(program: &Program, overrides: &[(String, i64)], dialect: Dialect) -> R<Compiled> {
    let mut c = Compiler {
        scopes: vec![HashMap::new()],
        globals: Vec::new(),
        width: 0,
        procs: Vec::new(),
        enums: 0,
        domains: Vec::new(),
        overrides,
        used_overrides: BTreeSet::new(),
        next_local: 0,
        max_local: 0,
        reads: BTreeSet::new(),
        writes: BTreeSet::new(),
        result: None,
        enum_tys: Vec::new(),
        union_tys: Vec::new(),
        type_span: Span::new(0, 0),
        read_only: BTreeSet::new(),
        prelude: Vec::new(),
        prelude_roots: Vec::new(),
        choose_guards: Vec::new(),
        assumptions: Vec::new(),
        covers: Vec::new(),
        liveness: Vec::new(),
        cover_statements: Vec::new(),
        dialect,
    };
    let (mut starts, mut rules, mut invariants) = (Vec::new(), Vec::new(), Vec::new());
    let mut params = Vec::new();
    let (mut decls, mut items) = (program.decls.iter(), program.rules.iter());
    for &is_decl in &program.order {
        if workers::budget::tripped().is_some() {
            return err(Span::new(0, 0), "stopped");
        }
        if is_decl {
            if let Some(d) = decls.next() {
                c.decl(d, true)?;
            }
        } else if let Some(r) = items.next() {
            c.rule(r, &mut params, &mut starts, &mut rules, &mut invariants)?;
        }
    }
    if let Some((name, _)) = overrides
        .iter()
        .find(|(n, _)| !c.used_overrides.contains(n))
    {
        return err(
            Span::new(0, 0),
            format!("`--set {name}=...` names no constant of the model"),
        );
    }
    if starts.is_empty() {
        return err(Span::new(0, 0), "the model has no startstate");
    }
    Ok(Compiled {
        globals: c.globals,
        width: c.width,
        procs: c.procs,
        starts,
        rules,
        invariants,
        assumptions: c.assumptions,
        covers: c.covers,
        liveness: c.liveness,
        cover_statements: c.cover_statements,
        domains: c.domains,
    })
}

fn const_eval(e: &CExpr, span: Span) -> R<i64> {
    let v = match e {
        CExpr::Const(v) => *v,
        CExpr::Unary(op, a) => {
            let a = const_eval(a, span)?;
            match op {
                UnOp::Neg => match a.checked_neg() {
                    Some(v) => v,
                    None => return err(span, "this constant expression overflows"),
                },
                UnOp::BitNot => !a,
                UnOp::Not => i64::from(a == 0),
            }
        }
        CExpr::Binary(op, a, b, _) => {
            let (a, b) = (const_eval(a, span)?, const_eval(b, span)?);
            match super::eval::binary(*op, a, b) {
                Some(v) => v,
                None => {
                    return err(
                        span,
                        "this constant expression divides by zero or overflows",
                    );
                }
            }
        }
        CExpr::Cond(c, a, b) => {
            if const_eval(c, span)? != 0 {
                const_eval(a, span)?
            } else {
                const_eval(b, span)?
            }
        }
        _ => return err(span, "expected a constant expression"),
    };
    Ok(v)
}

impl Compiler<'_> {
    fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn define(&mut self, name: &str, sym: Sym, span: Span) -> R<()> {
        let scope = self.scopes.last_mut().expect("a scope");
        if scope.contains_key(name) {
            return err(
                span,
                format!("`{name}` is declared twice in the same scope"),
            );
        }
        scope.insert(name.to_string(), sym);
        Ok(())
    }

    fn alloc_local(&mut self, width: usize) -> usize {
        let at = self.next_local;
        self.read_only.retain(|&w| w < at || w >= at + width);
        self.next_local += width;
        self.max_local = self.max_local.max(self.next_local);
        at
    }

    fn decl(&mut self, d: &Decl, global: bool) -> R<()> {
        match d {
            Decl::Const(name, e, span) => {
                let (ce, kind) = self.expr(e)?;
                let mut v = const_eval(&ce, e.span)?;
                if global && let Some((_, o)) = self.overrides.iter().find(|(n, _)| n == name) {
                    if kind != Kind::Int {
                        return err(*span, format!("`--set {name}` needs an integer constant"));
                    }
                    v = *o;
                    self.used_overrides.insert(name.clone());
                }
                let ty = self.kind_ty(kind);
                self.define(name, Sym::Const(v, ty), *span)
            }
            Decl::Type(name, t, span) => {
                self.type_span = *span;
                let ty = self.type_expr(t, Some(name))?;
                self.define(name, Sym::Type(ty), *span)
            }
            Decl::Var(names, t) => {
                if let Some((_, span)) = names.first() {
                    self.type_span = *span;
                }
                let ty = self.type_expr(t, None)?;
                for (name, span) in names {
                    if global && self.width.saturating_add(ty.width()) > MAX_STATE_SCALARS {
                        return err(
                            *span,
                            format!(
                                "the state would hold more than {MAX_STATE_SCALARS} scalars: too big to check"
                            ),
                        );
                    }
                    if global {
                        let g = self.globals.len();
                        self.globals.push(GlobalVar {
                            name: name.clone(),
                            ty: ty.clone(),
                            offset: self.width,
                        });
                        self.width += ty.width();
                        self.define(name, Sym::Global(g), *span)?;
                    } else {
                        let at = self.alloc_local(ty.width());
                        self.define(name, Sym::Local(at, ty.clone()), *span)?;
                    }
                }
                Ok(())
            }
            Decl::Proc(p) => self.proc(p),
        }
    }

    fn type_expr(&mut self, t: &TypeExpr, name: Option<&str>) -> R<Ty> {
        Ok(match t {
            TypeExpr::Boolean => Ty::Bool,
            TypeExpr::Named(n, span) => match self.lookup(n) {
                Some(Sym::Type(ty)) => ty.clone(),
                _ if n.eq_ignore_ascii_case("boolean") => Ty::Bool,
                _ => return err(*span, format!("`{n}` is not a type")),
            },
            TypeExpr::Multiset(max, elem) => {
                let (m, _) = self.expr(max)?;
                let m = const_eval(&m, max.span)?;
                if m < 1 || m as u64 > MAX_ARRAY {
                    return err(
                        max.span,
                        format!("a multiset holds 1 to {MAX_ARRAY} elements, not {m}"),
                    );
                }
                let e = self.type_expr(elem, None)?;
                if e.has_multiset() {
                    return err(self.type_span, "not supported yet: multisets of multisets");
                }
                if (m as u128) * (1 + e.width() as u128) > MAX_STATE_SCALARS as u128 {
                    return err(
                        self.type_span,
                        format!(
                            "a multiset of {m} elements of {} scalars is too big to check",
                            e.width()
                        ),
                    );
                }
                Ty::Multiset(m as u64, Box::new(e))
            }
            TypeExpr::Range(lo, hi) => {
                let (l, _) = self.expr(lo)?;
                let (h, _) = self.expr(hi)?;
                let (l, h) = (const_eval(&l, lo.span)?, const_eval(&h, hi.span)?);
                if l > h {
                    return err(lo.span.to(hi.span), format!("the range {l}..{h} is empty"));
                }
                Ty::Range(l, h)
            }
            TypeExpr::Enum(names) => {
                let id = self.enums;
                self.enums += 1;
                let list: Arc<[String]> = names.iter().map(|(n, _)| n.clone()).collect();
                let ty = Ty::Enum(id, list);
                self.enum_tys.push(ty.clone());
                for (i, (n, span)) in names.iter().enumerate() {
                    self.define(n, Sym::Const(i as i64, ty.clone()), *span)?;
                }
                ty
            }
            TypeExpr::Scalarset(n) => {
                let (e, _) = self.expr(n)?;
                let size = const_eval(&e, n.span)?;
                if size > MAX_SCALARSET {
                    return err(
                        n.span,
                        format!(
                            "a scalarset of {size} elements is too big (at most {MAX_SCALARSET})"
                        ),
                    );
                }
                if size < 1 {
                    return err(
                        n.span,
                        format!("a scalarset needs at least one element, not {size}"),
                    );
                }
                let domain = self.domains.len();
                self.domains
                    .push((name.unwrap_or("scalarset").to_string(), size as u64));
                Ty::Scalarset {
                    domain,
                    size: size as u64,
                }
            }
            TypeExpr::Array(index, elem) => {
                let i = self.type_expr(index, None)?;
                if !i.is_scalar() || matches!(i, Ty::Int) {
                    return err(
                        self.type_span,
                        "an array index type must be a range, enumeration, boolean or scalarset",
                    );
                }
                let e = self.type_expr(elem, None)?;
                if i.card() > MAX_ARRAY
                    || (i.card() as u128) * (e.width() as u128) > MAX_STATE_SCALARS as u128
                {
                    return err(
                        self.type_span,
                        format!(
                            "an array of {} elements of {} scalars is too big to check",
                            i.card(),
                            e.width()
                        ),
                    );
                }
                Ty::Array(Box::new(i), Box::new(e))
            }
            TypeExpr::Union(members) => {
                let mut out = Vec::new();
                let mut offset = 0;
                for m in members {
                    let ty = self.type_expr(m, None)?;
                    match ty {
                        Ty::Enum(..) | Ty::Scalarset { .. } => {}
                        Ty::Union(_, inner) => {
                            // A union of unions is the union of their members.
                            for (t, _) in inner {
                                let c = t.card();
                                out.push((t, offset));
                                offset += c;
                            }
                            continue;
                        }
                        _ => {
                            return err(
                                self.type_span,
                                "a union's members are enumerations and scalarsets",
                            );
                        }
                    }
                    let c = ty.card();
                    out.push((ty, offset));
                    offset += c;
                }
                let id = self.union_tys.len();
                let ty = Ty::Union(id, out);
                self.union_tys.push(ty.clone());
                ty
            }
            TypeExpr::Record(fields) => {
                let mut out = Vec::new();
                let mut off = 0;
                for (n, ft) in fields {
                    if out.iter().any(|(m, _, _)| m == n) {
                        return err(
                            self.type_span,
                            format!("the record has two fields named `{n}`"),
                        );
                    }
                    let ty = self.type_expr(ft, None)?;
                    let w = ty.width();
                    out.push((n.clone(), ty, off));
                    off += w;
                }
                Ty::Record(out)
            }
        })
    }

    fn proc(&mut self, p: &Proc) -> R<()> {
        let id = self.procs.len();
        let (saved_next, saved_max) = (self.next_local, self.max_local);
        let saved_rw = (
            std::mem::take(&mut self.reads),
            std::mem::take(&mut self.writes),
        );
        self.next_local = 0;
        self.max_local = 0;
        self.scopes.push(HashMap::new());
        // Types first, in the enclosing scope: a parameter may shadow the
        // name of its own type, or of the result type.
        let mut types = Vec::new();
        self.type_span = p.span;
        for (_, _, t) in &p.params {
            types.push(self.type_expr(t, None)?);
        }
        let result = match &p.result {
            Some(t) => Some(self.type_expr(t, None)?),
            None => None,
        };
        let mut params = Vec::new();
        for ((name, by_ref, _), ty) in p.params.iter().zip(types) {
            let at = self.alloc_local(if *by_ref { 1 } else { ty.width() });
            let sym = if *by_ref {
                Sym::Ref(at, ty.clone(), None)
            } else {
                Sym::Local(at, ty.clone())
            };
            self.define(name, sym, p.span)?;
            params.push((at, *by_ref, ty));
        }
        // Registered before the body, so that it can call itself.
        self.procs.push(CProc {
            name: p.name.clone(),
            params,
            result: result.clone(),
            frame: 0,
            body: Vec::new(),
            reads: Vec::new(),
            writes: Vec::new(),
        });
        self.scopes[0].insert(p.name.clone(), Sym::Proc(id));
        for d in &p.decls {
            self.decl(d, false)?;
        }
        let saved_result = self.result.replace(result);
        let body = self.stmts(&p.body)?;
        self.result = saved_result;
        self.scopes.pop();
        let proc_ = &mut self.procs[id];
        proc_.body = body;
        proc_.frame = self.max_local;
        proc_.reads = self.reads.iter().copied().collect();
        proc_.writes = self.writes.iter().copied().collect();
        (self.reads, self.writes) = saved_rw;
        self.next_local = saved_next;
        self.max_local = saved_max;
        Ok(())
    }

    fn range(&mut self, q: &Quantifier) -> R<(Range, Ty)> {
        Ok(match &q.range {
            QRange::Type(t) => {
                let ty = self.type_expr(t, None)?;
                if !ty.is_scalar() || matches!(ty, Ty::Int) {
                    return err(q.span, "a quantifier ranges over a scalar type");
                }
                (Range::Type(ty.clone()), ty)
            }
            QRange::Ints(from, to, by) => {
                let from = self.int_expr(from)?;
                let to = self.int_expr(to)?;
                let by = match by {
                    Some(b) => self.int_expr(b)?,
                    None => CExpr::Const(1),
                };
                (Range::Ints(from, to, by, q.span), Ty::Int)
            }
        })
    }

    fn int_expr(&mut self, e: &Expr) -> R<CExpr> {
        let (c, k) = self.expr(e)?;
        if k != Kind::Int {
            return err(
                e.span,
                format!("expected an integer, found {}", kind_name(k)),
            );
        }
        Ok(c)
    }

    fn bool_expr(&mut self, e: &Expr) -> R<CExpr> {
        let (c, k) = self.expr(e)?;
        if k != Kind::Bool {
            return err(
                e.span,
                format!("expected a boolean, found {}", kind_name(k)),
            );
        }
        Ok(c)
    }

    #[allow(clippy::too_many_arguments)]
    fn rule(
        &mut self,
        r: &Rule,
        params: &mut Vec<(usize, Range, String, Ty)>,
        starts: &mut Vec<CRule>,
        rules: &mut Vec<CRule>,
        invariants: &mut Vec<CRule>,
    ) -> R<()> {
        if let Rule::Alias(decls, inner) = r {
            self.scopes.push(HashMap::new());
            let saved = (
                self.next_local,
                self.prelude.len(),
                self.prelude_roots.len(),
            );
            self.reads.clear();
            self.writes.clear();
            let bindings = self.alias_bindings(decls)?;
            self.prelude.extend(bindings);
            let touched: Vec<usize> = self.reads.union(&self.writes).copied().collect();
            self.prelude_roots.extend(touched);
            for r in inner {
                self.rule(r, params, starts, rules, invariants)?;
            }
            self.prelude.truncate(saved.1);
            self.prelude_roots.truncate(saved.2);
            self.next_local = saved.0;
            self.scopes.pop();
            return Ok(());
        }
        if let Rule::Choose(name, set, inner, span) = r {
            self.scopes.push(HashMap::new());
            let saved = self.next_local;
            let base = params.len();
            let set = self.place(set)?;
            let Ty::Multiset(max, _) = set.ty else {
                return err(
                    *span,
                    format!(
                        "`choose` ranges over a multiset, and `{}` is not one",
                        set.text
                    ),
                );
            };
            let ty = Ty::Range(0, max as i64 - 1);
            let at = self.alloc_local(1);
            self.define(name, Sym::Local(at, ty.clone()), *span)?;
            params.push((at, Range::Type(ty.clone()), name.clone(), ty.clone()));
            // The chosen slot must hold an element.
            let index = CExpr::Load(Box::new(Place {
                base: Base::Local(at),
                sels: Vec::new(),
                bounds: bounds(&ty),
                ty: ty.clone(),
                root: None,
                text: name.clone(),
                span: *span,
            }));
            let mut present = set.clone();
            present.sels.push(Sel::Index {
                index: Box::new(index),
                index_ty: ty,
                lo: 0,
                len: max,
                elem_width: set.ty.width() / max as usize,
            });
            present.ty = Ty::Range(1, 1);
            present.bounds = (1, 1);
            let guard = CExpr::Unary(UnOp::Not, Box::new(CExpr::IsUndefined(Box::new(present))));
            self.choose_guards.push((guard, set.root));
            for r in inner {
                if matches!(
                    r,
                    Rule::Start { .. }
                        | Rule::Invariant { .. }
                        | Rule::Assume { .. }
                        | Rule::Cover { .. }
                        | Rule::Liveness { .. }
                ) {
                    return err(
                        *span,
                        "a `choose` holds rules, not start states or invariants",
                    );
                }
                self.rule(r, params, starts, rules, invariants)?;
            }
            self.choose_guards.pop();
            params.truncate(base);
            self.next_local = saved;
            self.scopes.pop();
            return Ok(());
        }
        if let Rule::Ruleset(qs, inner) = r {
            self.scopes.push(HashMap::new());
            let base = params.len();
            let saved = self.next_local;
            for q in qs {
                let (range, ty) = self.range(q)?;
                let at = self.alloc_local(1);
                self.define(&q.name, Sym::Local(at, ty.clone()), q.span)?;
                params.push((at, range, q.name.clone(), ty));
            }
            for r in inner {
                self.rule(r, params, starts, rules, invariants)?;
            }
            params.truncate(base);
            self.next_local = saved;
            self.scopes.pop();
            return Ok(());
        }
        let saved = (self.next_local, self.max_local);
        self.max_local = self.next_local;
        self.reads.clear();
        self.writes.clear();
        // What the enclosing aliases bind is read by the guard and may be
        // written by the body.
        self.reads.extend(self.prelude_roots.iter().copied());
        self.scopes.push(HashMap::new());
        let (name, span, guard, body, guard_reads) = match r {
            Rule::Simple {
                name,
                guard,
                decls,
                body,
                span,
                ..
            } => {
                let mut g = match guard {
                    Some(g) => Some(self.bool_expr(g)?),
                    None => None,
                };
                // Inside `choose`: the chosen slots must hold elements,
                // tested first (the guard may read them).
                for (present, root) in self.choose_guards.iter().rev() {
                    g = Some(match g {
                        Some(g) => {
                            CExpr::Binary(BinOp::And, Box::new(present.clone()), Box::new(g), *span)
                        }
                        None => present.clone(),
                    });
                    self.reads.extend(*root);
                }
                let guard_reads: Vec<usize> = std::mem::take(&mut self.reads).into_iter().collect();
                for d in decls {
                    self.decl(d, false)?;
                }
                let b = self.stmts(body)?;
                (name, *span, g, b, guard_reads)
            }
            Rule::Start {
                name,
                decls,
                body,
                span,
            } => {
                for d in decls {
                    self.decl(d, false)?;
                }
                let b = self.stmts(body)?;
                (name, *span, None, b, Vec::new())
            }
            Rule::Invariant { name, cond, span }
            | Rule::Assume { name, cond, span }
            | Rule::Cover { name, cond, span }
            | Rule::Liveness { name, cond, span } => {
                let c = self.bool_expr(cond)?;
                (name, *span, Some(c), Vec::new(), Vec::new())
            }
            Rule::Ruleset(..) | Rule::Alias(..) | Rule::Choose(..) => {
                unreachable!("handled above")
            }
        };
        self.scopes.pop();
        self.writes.extend(self.prelude_roots.iter().copied());
        let compiled = CRule {
            priority: match r {
                Rule::Simple { priority, .. } => *priority,
                _ => 0,
            },
            name: name.clone(),
            params: params.clone(),
            prelude: self.prelude.clone(),
            guard,
            body,
            frame: self.max_local,
            span,
            guard_reads,
            reads: self.reads.iter().copied().collect(),
            writes: self.writes.iter().copied().collect(),
        };
        match r {
            Rule::Simple { .. } => rules.push(compiled),
            Rule::Start { .. } => starts.push(compiled),
            Rule::Assume { .. } => self.assumptions.push(compiled),
            Rule::Cover { .. } => self.covers.push(compiled),
            Rule::Liveness { .. } => self.liveness.push(compiled),
            _ => invariants.push(compiled),
        }
        (self.next_local, self.max_local) = saved;
        Ok(())
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> R<Vec<CStmt>> {
        stmts.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, s: &Stmt) -> R<CStmt> {
        Ok(match &s.kind {
            StmtKind::Assign(d, e) => {
                let place = self.target(d)?;
                if let Some(root) = place.root {
                    self.writes.insert(root);
                }
                if matches!(e.kind, ExprKind::Undefined) {
                    return Ok(CStmt::Undefine(place));
                }
                if place.ty.is_scalar() {
                    let (v, k) = self.expr(e)?;
                    let want = place.ty.kind().expect("a scalar");
                    // CMurphi: a variable of the same kind is copied even
                    // when undefined (`x := y` leaves `x` undefined).
                    if k == want
                        && let CExpr::Load(src) | CExpr::LoadUnchecked(src) = &v
                    {
                        return Ok(CStmt::AssignVar(place, (**src).clone(), s.span));
                    }
                    let coerced = self.coerce(v.clone(), k, want, e.span, "");
                    if let Ok(v) = coerced {
                        return Ok(CStmt::Assign(place, v, s.span));
                    }
                    if k != want {
                        return err(
                            e.span,
                            format!(
                                "cannot assign {} to `{}`, which holds {}",
                                kind_name(k),
                                place.text,
                                kind_name(want)
                            ),
                        );
                    }
                    CStmt::Assign(place, v, s.span)
                } else {
                    if let Some(call) = self.compound_call(e) {
                        let (id, args, ty) = call?;
                        if ty != place.ty {
                            return err(
                                e.span,
                                format!("this call does not return the type of `{}`", place.text),
                            );
                        }
                        return Ok(CStmt::CopyCall(place, id, args, e.span));
                    }
                    let src = match &e.kind {
                        ExprKind::Designator(..) => self.place(e)?,
                        _ => {
                            return err(
                                e.span,
                                "expected a variable of the same array or record type",
                            );
                        }
                    };
                    if src.ty != place.ty {
                        return err(
                            e.span,
                            format!("`{}` and `{}` have different types", place.text, src.text),
                        );
                    }
                    CStmt::Copy(place, src)
                }
            }
            StmtKind::If(arms, otherwise) => {
                let mut out = Vec::new();
                for (c, body) in arms {
                    out.push((self.bool_expr(c)?, self.stmts(body)?));
                }
                CStmt::If(out, self.stmts(otherwise)?)
            }
            StmtKind::Switch(e, cases, otherwise) => {
                let (v, k) = self.expr(e)?;
                let mut out = Vec::new();
                for (values, body) in cases {
                    let mut vs = Vec::new();
                    for value in values {
                        let (c, ck) = self.expr(value)?;
                        let c = self.coerce(c.clone(), ck, k, value.span, "").unwrap_or(c);
                        let ck = if self.coerce(CExpr::Const(0), ck, k, value.span, "").is_ok() {
                            k
                        } else {
                            ck
                        };
                        if ck != k {
                            return err(
                                value.span,
                                format!(
                                    "this case is {}, the switch {}",
                                    kind_name(ck),
                                    kind_name(k)
                                ),
                            );
                        }
                        vs.push(c);
                    }
                    out.push((vs, self.stmts(body)?));
                }
                CStmt::Switch(v, out, self.stmts(otherwise)?)
            }
            StmtKind::For(q, body) => {
                let (range, ty) = self.range(q)?;
                self.scopes.push(HashMap::new());
                let at = self.alloc_local(1);
                self.define(&q.name, Sym::Local(at, ty), q.span)?;
                let b = self.stmts(body)?;
                self.scopes.pop();
                CStmt::For(at, range, b)
            }
            StmtKind::While(c, body) => CStmt::While(self.bool_expr(c)?, self.stmts(body)?, s.span),
            StmtKind::Call(name, args) => {
                // A function called as a statement: its result is dropped.
                let (id, args) = self.call(name, args, s.span)?;
                CStmt::Call(id, args, s.span)
            }
            StmtKind::Clear(d) => {
                let p = self.target(d)?;
                if let Some(root) = p.root {
                    self.writes.insert(root);
                }
                CStmt::Clear(p)
            }
            StmtKind::Undefine(d) => {
                let p = self.target(d)?;
                if let Some(root) = p.root {
                    self.writes.insert(root);
                }
                CStmt::Undefine(p)
            }
            StmtKind::MultisetAdd(v, m) => {
                let set = self.multiset_place(m)?;
                let Ty::Multiset(_, elem) = &set.ty else {
                    unreachable!("checked by multiset_place")
                };
                let elem = (**elem).clone();
                let value = match elem.kind() {
                    Some(want) => {
                        let (c, k) = self.expr(v)?;
                        let c = self.coerce(c, k, want, v.span, "")?;
                        MultisetValue::Scalar(c, elem.clone())
                    }
                    None => {
                        let src = self.place(v)?;
                        if src.ty != elem {
                            return err(v.span, "the value is not of the multiset's element type");
                        }
                        MultisetValue::Copy(src)
                    }
                };
                CStmt::MultisetAdd(set, value, s.span)
            }
            StmtKind::MultisetRemove(i, m) => {
                let i = self.int_expr(i)?;
                let set = self.multiset_place(m)?;
                CStmt::MultisetRemove(set, i, s.span)
            }
            StmtKind::MultisetRemovePred(name, m, pred) => {
                let (set, at, pred) = self.multiset_predicate(name, m, pred)?;
                if let Some(root) = set.root {
                    self.writes.insert(root);
                }
                CStmt::MultisetRemovePred(set, at, pred)
            }
            StmtKind::Assume(c) => CStmt::Assume(self.bool_expr(c)?),
            StmtKind::Cover(name, c) => {
                let c = self.bool_expr(c)?;
                self.cover_statements.push((name.clone(), s.span));
                CStmt::Cover(self.cover_statements.len() - 1, c)
            }
            StmtKind::Error(m) => CStmt::Error(m.clone(), s.span),
            StmtKind::Assert(c, m) => CStmt::Assert(self.bool_expr(c)?, m.clone(), s.span),
            StmtKind::Put => CStmt::If(Vec::new(), Vec::new()),
            StmtKind::Alias(decls, body) => {
                self.scopes.push(HashMap::new());
                let mut out = self.alias_bindings(decls)?;
                out.extend(self.stmts(body)?);
                self.scopes.pop();
                CStmt::Block(out)
            }
            StmtKind::Return(e) => match (&self.result, e) {
                (Some(Some(ty)), Some(e)) if !ty.is_scalar() => {
                    let ty = ty.clone();
                    if let Some(call) = self.compound_call(e) {
                        let (id, args, result) = call?;
                        if result != ty {
                            return err(
                                e.span,
                                "this call does not return the function's result type",
                            );
                        }
                        CStmt::ReturnCall(id, args, e.span)
                    } else {
                        let p = self.place(e)?;
                        if p.ty != ty {
                            return err(
                                e.span,
                                format!("`{}` does not have the function's result type", p.text),
                            );
                        }
                        CStmt::ReturnPlace(p)
                    }
                }
                (Some(Some(ty)), Some(e)) => {
                    let ty = ty.clone();
                    let (v, k) = self.expr(e)?;
                    let want = ty.kind().expect("scalar");
                    let (v, k) = match self.coerce(v.clone(), k, want, e.span, "") {
                        Ok(c) => (c, want),
                        Err(_) => (v, k),
                    };
                    if Some(k) != ty.kind() {
                        return err(
                            e.span,
                            format!(
                                "this function returns {}, not {}",
                                kind_name(ty.kind().expect("scalar")),
                                kind_name(k)
                            ),
                        );
                    }
                    CStmt::ReturnChecked(v, ty, e.span)
                }
                (Some(Some(_)), None) => return err(s.span, "a function's `return` needs a value"),
                (_, Some(e)) => return err(e.span, "only a function returns a value"),
                (_, None) => CStmt::Return(None),
            },
        })
    }

    /// Binds the names of an alias in the current scope: a designator by
    /// reference (reads and writes through it count for its variable), any
    /// other expression by value. Returns the statements that bind them.
    fn alias_bindings(&mut self, decls: &[AliasDecl]) -> R<Vec<CStmt>> {
        let mut out = Vec::new();
        for d in decls {
            let designator = matches!(&d.target.kind, ExprKind::Designator(n, _)
                if matches!(self.lookup(n), Some(Sym::Global(_) | Sym::Local(..) | Sym::Ref(..))));
            if designator {
                let place = self.place(&d.target)?;
                if let Some(root) = place.root {
                    self.writes.insert(root);
                }
                let at = self.alloc_local(1);
                if self.is_read_only(&place) {
                    self.read_only.insert(at);
                }
                self.define(&d.name, Sym::Ref(at, place.ty.clone(), place.root), d.span)?;
                out.push(CStmt::BindRef(at, place));
            } else {
                let (v, k) = self.expr(&d.target)?;
                let ty = self.kind_ty(k);
                // An alias of a constant is a constant (usable in types).
                if let Ok(c) = const_eval(&v, d.target.span) {
                    self.define(&d.name, Sym::Const(c, ty), d.span)?;
                    continue;
                }
                let at = self.alloc_local(1);
                self.read_only.insert(at);
                self.define(&d.name, Sym::Local(at, ty.clone()), d.span)?;
                let place = Place {
                    base: Base::Local(at),
                    sels: Vec::new(),
                    bounds: bounds(&ty),
                    ty,
                    root: None,
                    text: d.name.clone(),
                    span: d.span,
                };
                out.push(CStmt::Assign(place, v, d.target.span));
            }
        }
        Ok(out)
    }

    /// A designator that must be a multiset, written by the statement
    /// compiled.
    fn multiset_place(&mut self, m: &Expr) -> R<Place> {
        let set = self.target(m)?;
        if !matches!(set.ty, Ty::Multiset(..)) {
            return err(m.span, format!("`{}` is not a multiset", set.text));
        }
        if let Some(root) = set.root {
            self.writes.insert(root);
        }
        Ok(set)
    }

    /// `i: m, pred` of `multisetcount` and `multisetremovepred`: the
    /// multiset, the frame word binding `i` to each present slot, and the
    /// predicate compiled with `i` in scope.
    fn multiset_predicate(
        &mut self,
        name: &str,
        m: &Expr,
        pred: &Expr,
    ) -> R<(Place, usize, CExpr)> {
        let set = self.place(m)?;
        let Ty::Multiset(max, _) = set.ty else {
            return err(m.span, format!("`{}` is not a multiset", set.text));
        };
        self.scopes.push(HashMap::new());
        let at = self.alloc_local(1);
        self.define(name, Sym::Local(at, Ty::Range(0, max as i64 - 1)), m.span)?;
        let pred = self.bool_expr(pred);
        self.scopes.pop();
        Ok((set, at, pred?))
    }

    /// The type of a value of kind `k` (integers unbounded).
    fn kind_ty(&self, k: Kind) -> Ty {
        match k {
            Kind::Bool => Ty::Bool,
            Kind::Int => Ty::Int,
            Kind::Enum(id) => self.enum_tys[id].clone(),
            Kind::Scalarset(domain) => Ty::Scalarset {
                domain,
                size: self.domains[domain].1,
            },
            Kind::Union(id) => self.union_tys[id].clone(),
        }
    }

    /// `e`, of kind `from`, as a value of kind `to`: unchanged when the
    /// kinds agree, shifted into a union from one of its members, or
    /// narrowed (checked at run time) from a union to one of its members.
    fn coerce(&self, e: CExpr, from: Kind, to: Kind, span: Span, what: &str) -> R<CExpr> {
        if from == to {
            return Ok(e);
        }
        let member = |u: usize, k: Kind| match &self.union_tys[u] {
            Ty::Union(_, members) => members
                .iter()
                .find(|(t, _)| t.kind() == Some(k))
                .map(|(t, off)| (*off as i64, t.card() as i64)),
            _ => None,
        };
        match (from, to) {
            (k, Kind::Union(u)) if member(u, k).is_some() => {
                let (off, _) = member(u, k).expect("checked");
                Ok(CExpr::Widen(Box::new(e), off))
            }
            (Kind::Union(u), k) if member(u, k).is_some() => {
                let (off, card) = member(u, k).expect("checked");
                Ok(CExpr::Narrow(Box::new(e), off, card, span))
            }
            _ => err(
                span,
                format!(
                    "{what}: expected {}, found {}",
                    kind_name(to),
                    kind_name(from)
                ),
            ),
        }
    }

    /// If `e` calls a function returning an array or record (`f(a)`, or
    /// `f` without arguments), the compiled call and the result's type.
    fn compound_call(&mut self, e: &Expr) -> Option<R<(usize, Vec<Arg>, Ty)>> {
        let (name, args): (&str, &[Expr]) = match &e.kind {
            ExprKind::Call(name, args) => (name, args),
            ExprKind::Designator(name, sels) if sels.is_empty() => (name, &[]),
            _ => return None,
        };
        let Some(Sym::Proc(id)) = self.lookup(name) else {
            return None;
        };
        let ty = self.procs[*id].result.clone().filter(|t| !t.is_scalar())?;
        Some(
            self.call(name, args, e.span)
                .map(|(id, args)| (id, args, ty)),
        )
    }

    fn call(&mut self, name: &str, args: &[Expr], span: Span) -> R<(usize, Vec<Arg>)> {
        let id = match self.lookup(name) {
            Some(Sym::Proc(id)) => *id,
            _ => return err(span, format!("`{name}` is not a procedure or function")),
        };
        let params = self.procs[id].params.clone();
        if params.len() != args.len() {
            return err(
                span,
                format!(
                    "`{name}` takes {} arguments, not {}",
                    params.len(),
                    args.len()
                ),
            );
        }
        let mut out = Vec::new();
        for ((_, by_ref, ty), a) in params.iter().zip(args) {
            if matches!(a.kind, ExprKind::Undefined) {
                if *by_ref {
                    return err(
                        a.span,
                        "a `var` parameter needs a variable, not `undefined`",
                    );
                }
                out.push(Arg::Undefined);
                continue;
            }
            if *by_ref {
                let p = match &a.kind {
                    ExprKind::Designator(..) => self.target(a)?,
                    _ => return err(a.span, "a `var` parameter needs a variable"),
                };
                if p.ty != *ty && !(p.ty.kind().is_some() && p.ty.kind() == ty.kind()) {
                    return err(
                        a.span,
                        format!("`{}` does not have the parameter's type", p.text),
                    );
                }
                if let Some(root) = p.root {
                    self.writes.insert(root);
                    self.reads.insert(root);
                }
                out.push(Arg::Ref(p));
            } else if ty.is_scalar()
                && matches!(&a.kind, ExprKind::Designator(n, sel)
                    if matches!(self.lookup(n), Some(Sym::Global(_) | Sym::Local(..) | Sym::Ref(..)))
                        && self.lookup_kind(n, sel) == ty.kind())
            {
                // A variable passed by value may be undefined: copied as is.
                let p = self.place(a)?;
                if p.ty.kind() != ty.kind() {
                    return err(
                        a.span,
                        format!("`{}` does not have the parameter's type", p.text),
                    );
                }
                out.push(Arg::Scalar(p));
            } else if ty.is_scalar() {
                let (v, k) = self.expr(a)?;
                let want = ty.kind().expect("scalar");
                let (v, k) = match self.coerce(v.clone(), k, want, a.span, "") {
                    Ok(c) => (c, want),
                    Err(_) => (v, k),
                };
                if Some(k) != ty.kind() {
                    return err(
                        a.span,
                        format!(
                            "expected {}, found {}",
                            kind_name(ty.kind().expect("scalar")),
                            kind_name(k)
                        ),
                    );
                }
                out.push(Arg::Value(v));
            } else if let Some(call) = self.compound_call(a) {
                let (id, args, result) = call?;
                if result != *ty {
                    return err(a.span, "this call does not return the parameter's type");
                }
                out.push(Arg::Result(id, args, a.span));
            } else {
                let p = self.place(a)?;
                if p.ty != *ty {
                    return err(
                        a.span,
                        format!("`{}` does not have the parameter's type", p.text),
                    );
                }
                out.push(Arg::Copy(p));
            }
        }
        let (r, w) = (self.procs[id].reads.clone(), self.procs[id].writes.clone());
        self.reads.extend(r);
        self.writes.extend(w);
        Ok((id, out))
    }

    /// The kind of designator `name` with selectors `sel`, if it is one
    /// (without compiling it).
    fn lookup_kind(&self, name: &str, sel: &[Selector]) -> Option<Kind> {
        let mut ty = match self.lookup(name)? {
            Sym::Global(g) => self.globals[*g].ty.clone(),
            Sym::Local(_, t) | Sym::Ref(_, t, _) => t.clone(),
            _ => return None,
        };
        for s in sel {
            ty = match (s, ty) {
                (Selector::Field(f, _), Ty::Record(fields)) => {
                    fields.into_iter().find(|(n, _, _)| n == f)?.1
                }
                (Selector::Index(_), Ty::Array(_, elem) | Ty::Multiset(_, elem)) => *elem,
                _ => return None,
            };
        }
        ty.kind()
    }

    /// The place `e` designates, to be written: refused when it is an
    /// alias of a value (`alias a : x + 1 do a := 2`), which has no
    /// variable to write.
    fn target(&mut self, e: &Expr) -> R<Place> {
        let place = self.place(e)?;
        if self.is_read_only(&place) {
            return err(
                e.span,
                format!(
                    "`{}` is an alias of an expression, not of a variable: it cannot be \
                     assigned to or passed as a `var` parameter",
                    place.text
                ),
            );
        }
        Ok(place)
    }

    /// Whether `place` is (inside) an alias of a value.
    fn is_read_only(&self, place: &Place) -> bool {
        match place.base {
            Base::Local(at) | Base::Ref(at) => self.read_only.contains(&at),
            _ => false,
        }
    }

    fn place(&mut self, e: &Expr) -> R<Place> {
        let ExprKind::Designator(name, sels) = &e.kind else {
            return err(e.span, "expected a variable");
        };
        let (base, mut ty, root) = match self.lookup(name) {
            Some(Sym::Global(g)) => {
                let g = *g;
                (
                    Base::Global(self.globals[g].offset),
                    self.globals[g].ty.clone(),
                    Some(g),
                )
            }
            Some(Sym::Local(at, ty)) => (Base::Local(*at), ty.clone(), None),
            Some(Sym::Ref(at, ty, root)) => (Base::Ref(*at), ty.clone(), *root),
            Some(_) => return err(e.span, format!("`{name}` is not a variable")),
            None => return err(e.span, format!("`{name}` is not declared")),
        };
        let mut out = Vec::new();
        for s in sels {
            match s {
                Selector::Field(f, span) => {
                    let Ty::Record(fields) = &ty else {
                        return err(
                            *span,
                            format!("`.{f}` selects a field of something that is not a record"),
                        );
                    };
                    let Some((_, fty, off)) = fields.iter().find(|(n, _, _)| n == f) else {
                        return err(*span, format!("the record has no field `{f}`"));
                    };
                    out.push(Sel::Field(*off));
                    ty = fty.clone();
                }
                Selector::Index(i) if matches!(ty, Ty::Multiset(..)) => {
                    // An element of a multiset, by the slot index a
                    // `choose`, `multisetcount` or `multisetremovepred`
                    // bound.
                    let Ty::Multiset(max, elem) = &ty else {
                        unreachable!("matched above")
                    };
                    let (max, elem) = (*max, (**elem).clone());
                    let v = self.int_expr(i)?;
                    out.push(Sel::Index {
                        index: Box::new(v),
                        index_ty: Ty::Range(0, max as i64 - 1),
                        lo: 0,
                        len: max,
                        elem_width: 1 + elem.width(),
                    });
                    out.push(Sel::Field(1));
                    ty = elem;
                }
                Selector::Index(i) => {
                    let Ty::Array(index_ty, elem) = &ty else {
                        return err(i.span, "indexes something that is not an array");
                    };
                    let (index_ty, elem) = ((**index_ty).clone(), (**elem).clone());
                    let (v, k) = self.expr(i)?;
                    let want = index_ty.kind().expect("scalar");
                    let (v, k) = match self.coerce(v.clone(), k, want, i.span, "") {
                        Ok(c) => (c, want),
                        Err(_) => (v, k),
                    };
                    if Some(k) != index_ty.kind() {
                        return err(
                            i.span,
                            format!(
                                "the index is {}, the array wants {}",
                                kind_name(k),
                                kind_name(index_ty.kind().expect("scalar"))
                            ),
                        );
                    }
                    out.push(Sel::Index {
                        index: Box::new(v),
                        lo: index_ty.lo(),
                        len: index_ty.card(),
                        index_ty,
                        elem_width: elem.width(),
                    });
                    ty = elem;
                }
            }
        }
        if let Some(root) = root {
            self.reads.insert(root);
        }
        Ok(Place {
            base,
            sels: out,
            bounds: bounds(&ty),
            ty,
            root,
            text: e_text(name, sels),
            span: e.span,
        })
    }

    fn expr(&mut self, e: &Expr) -> R<(CExpr, Kind)> {
        Ok(match &e.kind {
            ExprKind::Int(i) => (CExpr::Const(*i), Kind::Int),
            ExprKind::Bool(b) => (CExpr::Const(i64::from(*b)), Kind::Bool),
            ExprKind::Designator(name, sels) => {
                if sels.is_empty()
                    && let Some(Sym::Const(v, ty)) = self.lookup(name)
                {
                    return Ok((CExpr::Const(*v), ty.kind().unwrap_or(Kind::Int)));
                }
                if sels.is_empty()
                    && let Some(Sym::Proc(_)) = self.lookup(name)
                {
                    return self.expr(&Expr {
                        kind: ExprKind::Call(name.clone(), Vec::new()),
                        span: e.span,
                    });
                }
                let p = self.place(e)?;
                match p.ty.kind() {
                    // CMurphi's generated code reads an undefined
                    // scalarset or union value unchecked.
                    Some(k @ (Kind::Scalarset(_) | Kind::Union(_)))
                        if self.dialect == Dialect::Cmurphi =>
                    {
                        (CExpr::LoadUnchecked(Box::new(p)), k)
                    }
                    Some(k) => (CExpr::Load(Box::new(p)), k),
                    None => {
                        return err(
                            e.span,
                            format!("`{}` is an array or record, not a value", p.text),
                        );
                    }
                }
            }
            ExprKind::Call(name, args) => {
                let (id, args) = self.call(name, args, e.span)?;
                match self.procs[id].result.as_ref() {
                    Some(ty) => match ty.kind() {
                        Some(k) => (CExpr::Call(id, args, e.span), k),
                        None => {
                            return err(
                                e.span,
                                format!(
                                    "`{name}` returns an array or record: assign it to a \
                                     variable, pass it or return it"
                                ),
                            );
                        }
                    },
                    None => {
                        return err(e.span, format!("`{name}` is a procedure: it has no value"));
                    }
                }
            }
            ExprKind::Unary(op, a) => {
                if *op == "~" {
                    (
                        CExpr::Unary(UnOp::BitNot, Box::new(self.int_expr(a)?)),
                        Kind::Int,
                    )
                } else if *op == "!" {
                    (
                        CExpr::Unary(UnOp::Not, Box::new(self.bool_expr(a)?)),
                        Kind::Bool,
                    )
                } else {
                    (
                        CExpr::Unary(UnOp::Neg, Box::new(self.int_expr(a)?)),
                        Kind::Int,
                    )
                }
            }
            ExprKind::Binary(op, a, b) => match *op {
                "&" | "|" | "&&" | "||" | "->" => {
                    let op = match *op {
                        "&&" => "&",
                        "||" => "|",
                        other => other,
                    };
                    let (x, kx) = self.expr(a)?;
                    let (y, ky) = self.expr(b)?;
                    match (kx, ky) {
                        (Kind::Bool, Kind::Bool) => (
                            CExpr::Binary(BinOp::from_symbol(op), Box::new(x), Box::new(y), e.span),
                            Kind::Bool,
                        ),
                        // Rumur: `&` and `|` on integers are bitwise.
                        (Kind::Int, Kind::Int) if op != "->" => {
                            let bit = if op == "&" {
                                BinOp::BitAnd
                            } else {
                                BinOp::BitOr
                            };
                            (
                                CExpr::Binary(bit, Box::new(x), Box::new(y), e.span),
                                Kind::Int,
                            )
                        }
                        _ => {
                            return err(
                                e.span,
                                format!(
                                    "`{op}` needs two booleans (or two integers, bitwise), not {} and {}",
                                    kind_name(kx),
                                    kind_name(ky)
                                ),
                            );
                        }
                    }
                }
                "^" | "<<" | ">>" => (
                    CExpr::Binary(
                        BinOp::from_symbol(op),
                        Box::new(self.int_expr(a)?),
                        Box::new(self.int_expr(b)?),
                        e.span,
                    ),
                    Kind::Int,
                ),
                "+" | "-" | "*" | "/" | "%" => (
                    CExpr::Binary(
                        BinOp::from_symbol(op),
                        Box::new(self.int_expr(a)?),
                        Box::new(self.int_expr(b)?),
                        e.span,
                    ),
                    Kind::Int,
                ),
                "=" | "!=" => {
                    let compound = |c: &Self, x: &Expr| match &x.kind {
                        ExprKind::Designator(n, _) => matches!(
                            c.lookup(n),
                            Some(Sym::Global(_) | Sym::Local(..) | Sym::Ref(..))
                        ),
                        _ => false,
                    };
                    if compound(self, a) && compound(self, b) {
                        let pa = self.place(a)?;
                        if !pa.ty.is_scalar() {
                            let pb = self.place(b)?;
                            if pa.ty != pb.ty {
                                return err(e.span, "compares values of different types");
                            }
                            if pa.ty.has_multiset() {
                                return err(e.span, "not supported yet: comparing multisets");
                            }
                            return Ok((
                                CExpr::CompoundEq(*op == "=", Box::new(pa), Box::new(pb)),
                                Kind::Bool,
                            ));
                        }
                    }
                    let (x, kx) = self.expr(a)?;
                    let (y, ky) = self.expr(b)?;
                    // A union value compares with its members' values.
                    let (x, y) = match (kx, ky) {
                        (Kind::Union(_), k) if k != kx => {
                            (x, self.coerce(y, ky, kx, e.span, "compares")?)
                        }
                        (k, Kind::Union(_)) if k != ky => {
                            (self.coerce(x, kx, ky, e.span, "compares")?, y)
                        }
                        _ if kx != ky => {
                            return err(
                                e.span,
                                format!("compares {} with {}", kind_name(kx), kind_name(ky)),
                            );
                        }
                        _ => (x, y),
                    };
                    (
                        CExpr::Binary(BinOp::from_symbol(op), Box::new(x), Box::new(y), e.span),
                        Kind::Bool,
                    )
                }
                _ => {
                    let (x, kx) = self.expr(a)?;
                    let (y, ky) = self.expr(b)?;
                    if kx != ky || !matches!(kx, Kind::Int | Kind::Enum(_)) {
                        return err(
                            e.span,
                            format!(
                                "`{op}` compares integers, not {} and {}",
                                kind_name(kx),
                                kind_name(ky)
                            ),
                        );
                    }
                    (
                        CExpr::Binary(BinOp::from_symbol(op), Box::new(x), Box::new(y), e.span),
                        Kind::Bool,
                    )
                }
            },
            ExprKind::Cond(c, a, b) => {
                let c = self.bool_expr(c)?;
                let (x, kx) = self.expr(a)?;
                let (y, ky) = self.expr(b)?;
                if kx != ky {
                    return err(e.span, "the two branches have different types");
                }
                (CExpr::Cond(Box::new(c), Box::new(x), Box::new(y)), kx)
            }
            ExprKind::Quant(exists, q, body) => {
                let (range, ty) = self.range(q)?;
                self.scopes.push(HashMap::new());
                let at = self.alloc_local(1);
                self.define(&q.name, Sym::Local(at, ty), q.span)?;
                let b = self.bool_expr(body)?;
                self.scopes.pop();
                (
                    CExpr::Quant(*exists, at, Box::new(range), Box::new(b)),
                    Kind::Bool,
                )
            }
            ExprKind::IsUndefined(d) => {
                let p = self.place(d)?;
                if !p.ty.is_scalar() {
                    return err(
                        d.span,
                        format!(
                            "`isundefined` takes a scalar, and `{}` is an array or record",
                            p.text
                        ),
                    );
                }
                (CExpr::IsUndefined(Box::new(p)), Kind::Bool)
            }
            ExprKind::Undefined => {
                return err(
                    e.span,
                    "`undefined` can only be assigned or passed as an argument",
                );
            }
            ExprKind::MultisetCount(name, m, pred) => {
                let (set, at, pred) = self.multiset_predicate(name, m, pred)?;
                (
                    CExpr::MultisetCount(Box::new(set), at, Box::new(pred)),
                    Kind::Int,
                )
            }
            ExprKind::IsMember(v, t) => {
                let (v, k) = self.expr(v)?;
                let member = self.type_expr(t, None)?;
                let Some(mk) = member.kind() else {
                    return err(e.span, "`ismember` tests membership of a scalar type");
                };
                if mk == k {
                    return Ok((CExpr::Const(1), Kind::Bool));
                }
                let Kind::Union(id) = k else {
                    return err(
                        e.span,
                        format!("`ismember` takes a union value, not {}", kind_name(k)),
                    );
                };
                let Ty::Union(_, members) = &self.union_tys[id] else {
                    unreachable!("union kinds name union types")
                };
                let Some((t, off)) = members.iter().find(|(t, _)| t.kind() == Some(mk)) else {
                    return err(e.span, "this type is not a member of the union");
                };
                let (lo, hi) = (*off as i64, (*off + t.card()) as i64);
                let ge = CExpr::Binary(
                    BinOp::Ge,
                    Box::new(v.clone()),
                    Box::new(CExpr::Const(lo)),
                    e.span,
                );
                let lt = CExpr::Binary(BinOp::Lt, Box::new(v), Box::new(CExpr::Const(hi)), e.span);
                (
                    CExpr::Binary(BinOp::And, Box::new(ge), Box::new(lt), e.span),
                    Kind::Bool,
                )
            }
        })
    }
}

fn e_text(name: &str, sels: &[Selector]) -> String {
    let mut s = name.to_string();
    for sel in sels {
        match sel {
            Selector::Field(f, _) => {
                s.push('.');
                s.push_str(f);
            }
            Selector::Index(_) => s.push_str("[...]"),
        }
    }
    s
}
