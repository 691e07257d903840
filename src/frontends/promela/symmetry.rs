//! Symmetry over a family of processes: the instances of one proctype,
//! whose pids form a scalarset (the symmetry-markers paper's Def. 1).
//!
//! A family is found where the pids of its processes are known before
//! the run: `active [N] proctype P`, or `run P(...)`s with equal
//! arguments that open `init` (`init { atomic { run P(); run P() } }`).
//! Its pids may then be used only in symmetric ways: compared with `==`
//! and `!=` to other pids or to a constant that is no pid of the family
//! ("no process"), stored in variables (which then hold pids), and used
//! as indices of arrays (which are then indexed by pids), and sent in
//! messages on global channels (whose fields then hold pids). A global
//! channel array indexed by pids gives each process its own channels,
//! which a permutation moves with the process. A model
//! that compares a pid with a constant or indexes such an array with one
//! (as the paper's Peterson model does, by unrolling a loop over all pids)
//! is refused, naming the place, unless the user declares the family
//! symmetric (`--symmetric P`): then orbit trusts that the model treats
//! every pid alike. Arithmetic and ordering on pids, pids in messages on
//! local channels or channel variables, channels that carry pids used as
//! values, and local channels of the family are refused.
//!
//! A permutation of the family's pids moves each process's slot (its
//! state, its locals) to the image of its pid, maps the values of
//! pid-holding variables and message fields, and permutes the
//! pid-indexed elements of arrays and the contents of pid-indexed
//! channels.

use super::ast::{BasicType, Expr, RecvArg, Spec, Stmt, StmtKind, VarRef};
use super::compile::Program;
use super::system::PromelaSystem;
use crate::diag::{SourceFile, Span};
use crate::model::{Permutable, Permutation, StateGraph, StateSymmetry};
use crate::symmetry::markers::{MarkerTable, mix, sorting_permutation};
use std::collections::{HashMap, HashSet};

/// A family of interchangeable processes and what their pids reach.
#[derive(Clone, Debug, Default)]
pub struct SymmetryPlan {
    /// The family's proctype.
    pub proctype: usize,
    /// Its pids (slots), in increasing order.
    pub pids: Vec<u32>,
    /// Global variables holding pids of the family.
    pub pid_globals: HashSet<String>,
    /// Global arrays indexed by pids of the family.
    pub indexed_globals: HashSet<String>,
    /// The family's locals holding pids.
    pub pid_locals: HashSet<String>,
    /// Locals of other proctypes holding pids: proctype, name.
    pub other_pid_locals: HashSet<(usize, String)>,
    /// Message fields of global channels (or channel arrays) that hold
    /// pids: channel name, field.
    pub pid_fields: HashSet<(String, usize)>,
}

/// Scope of a variable use: a global, or a local of proctype `p`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Scope {
    Global,
    Local(usize),
}

/// Finds the family of interchangeable processes of `spec`, if any:
/// `Ok(None)` when no proctype has two instances with known pids;
/// `Err(reason)` (with its place) when one has, but the model breaks
/// their symmetry. `declared`: the proctypes the user declared
/// symmetric (`--symmetric`).
pub fn plan(
    spec: &Spec,
    file: &SourceFile,
    declared: &[String],
) -> Result<Option<SymmetryPlan>, String> {
    let mut candidates = Vec::new();
    let active_total: usize = spec.proctypes.iter().map(|p| p.active).sum();
    let mut before = 0;
    for (i, p) in spec.proctypes.iter().enumerate() {
        let runs = count_runs(spec, &p.name);
        if p.active >= 2 && runs == 0 {
            candidates.push((
                i,
                (before..before + p.active)
                    .map(|k| k as u32)
                    .collect::<Vec<_>>(),
            ));
        } else if p.active == 0
            && let Some(n) = leading_runs(spec, &p.name)
            && n >= 2
            && n == runs
        {
            candidates.push((
                i,
                (active_total..active_total + n).map(|k| k as u32).collect(),
            ));
        }
        before += p.active;
    }
    for d in declared {
        if !spec.proctypes.iter().any(|p| &p.name == d) {
            return Err(format!(
                "`--symmetric {d}`: the model has no proctype `{d}`"
            ));
        }
        if !candidates
            .iter()
            .any(|(i, _)| &spec.proctypes[*i].name == d)
        {
            return Err(format!(
                "`--symmetric {d}`: orbit cannot tell the pids of `{d}`'s processes before the run \
                 (it needs `active [N] proctype {d}`, or `run {d}(...)`s with equal arguments that open `init`)"
            ));
        }
    }
    let chosen: Vec<&(usize, Vec<u32>)> = if declared.is_empty() {
        candidates.iter().collect()
    } else {
        candidates
            .iter()
            .filter(|(i, _)| declared.contains(&spec.proctypes[*i].name))
            .collect()
    };
    let (proctype, pids) = match chosen.as_slice() {
        [] => return Ok(None),
        [one] => (one.0, one.1.clone()),
        _ => {
            return Err(format!(
                "not supported yet: symmetry over more than one family of processes ({}); \
                 choose one with `--symmetric`",
                chosen
                    .iter()
                    .map(|(i, _)| format!("`{}`", spec.proctypes[*i].name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    };
    let p = &spec.proctypes[proctype];
    let trusted = declared.contains(&p.name);
    if let Some(d) = p.locals.iter().find(|d| d.chan.is_some()) {
        return Err(format!(
            "not supported yet: symmetry over processes with local channels (`{}` at {})",
            d.name,
            file.location(d.span)
        ));
    }
    let mut a = Analysis {
        spec,
        family: proctype,
        pids: pids.clone(),
        pid_vars: HashSet::new(),
        indexed: HashSet::new(),
        pid_fields: HashSet::new(),
        escaped: HashMap::new(),
        breaks: None,
        trusted,
        file,
    };
    a.flow();
    a.check_all();
    a.check_escapes();
    if let Some(why) = a.breaks {
        return Err(format!(
            "the processes of `{}` are not interchangeable: {why}{}",
            p.name,
            if trusted {
                String::new()
            } else {
                format!(
                    " (declare `--symmetric {}` if the model treats every pid of `{}` alike)",
                    p.name, p.name
                )
            }
        ));
    }
    let mut plan = SymmetryPlan {
        proctype,
        pids,
        ..SymmetryPlan::default()
    };
    for (scope, name) in &a.pid_vars {
        match scope {
            Scope::Global => {
                plan.pid_globals.insert(name.clone());
            }
            Scope::Local(q) if *q == proctype => {
                plan.pid_locals.insert(name.clone());
            }
            Scope::Local(q) => {
                plan.other_pid_locals.insert((*q, name.clone()));
            }
        }
    }
    plan.pid_fields = a.pid_fields;
    for (scope, name) in &a.indexed {
        if *scope != Scope::Global {
            return Err(format!(
                "not supported yet: a local array (`{name}`) indexed by pids of `{}`",
                p.name
            ));
        }
        plan.indexed_globals.insert(name.clone());
    }
    Ok(Some(plan))
}

/// How many `run P(...)` the model has.
fn count_runs(spec: &Spec, name: &str) -> usize {
    fn expr(e: &Expr, name: &str) -> usize {
        match e {
            Expr::Run(n, args, _) => {
                usize::from(n == name) + args.iter().map(|a| expr(a, name)).sum::<usize>()
            }
            Expr::Unary(_, a, _) => expr(a, name),
            Expr::Binary(_, a, b, _) => expr(a, name) + expr(b, name),
            Expr::Cond(a, b, c, _) => expr(a, name) + expr(b, name) + expr(c, name),
            _ => 0,
        }
    }
    fn stmts(ss: &[Stmt], name: &str) -> usize {
        ss.iter()
            .map(|s| match &s.kind {
                StmtKind::Expr(e) | StmtKind::Assign(_, e) | StmtKind::Assert(e) => expr(e, name),
                StmtKind::If(o) | StmtKind::Do(o) => o.iter().map(|q| stmts(&q.stmts, name)).sum(),
                StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => {
                    stmts(&b.stmts, name)
                }
                _ => 0,
            })
            .sum()
    }
    spec.proctypes
        .iter()
        .map(|p| stmts(&p.body.stmts, name))
        .sum()
}

/// The number of `run P(...)`s with equal arguments (constants or
/// variables) that open
/// `init` (its first statement, an atomic sequence or block of them, or
/// its first statements), if that is how `init` starts.
fn leading_runs(spec: &Spec, name: &str) -> Option<usize> {
    let init = spec.proctypes.iter().find(|p| p.name == ":init:")?;
    let first = init.body.stmts.first()?;
    let list: &[Stmt] = match &first.kind {
        StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => &b.stmts,
        _ => &init.body.stmts,
    };
    let mut args: Option<Vec<Option<String>>> = None;
    let mut n = 0;
    for s in list {
        let StmtKind::Expr(Expr::Run(p, a, _)) = &s.kind else {
            break;
        };
        if p != name {
            break;
        }
        // Constants, or variables that nothing between the runs changes.
        let values: Vec<Option<String>> = a
            .iter()
            .map(|e| match e {
                Expr::Const(v, _) => Some(v.to_string()),
                Expr::Var(v) if v.index.is_none() => Some(v.name.clone()),
                _ => None,
            })
            .collect();
        if values.iter().any(Option::is_none) || args.as_ref().is_some_and(|x| *x != values) {
            return None;
        }
        args = Some(values);
        n += 1;
    }
    Some(n)
}

struct Analysis<'a> {
    spec: &'a Spec,
    family: usize,
    /// The family's pids: a constant among them names one process.
    pids: Vec<u32>,
    pid_vars: HashSet<(Scope, String)>,
    indexed: HashSet<(Scope, String)>,
    /// Fields of global channels that carry pids.
    pid_fields: HashSet<(String, usize)>,
    /// Global channels used as values (assigned, passed, sent), and where.
    escaped: HashMap<String, Span>,
    breaks: Option<String>,
    trusted: bool,
    file: &'a SourceFile,
}

impl Analysis<'_> {
    fn scope(&self, proc: usize, name: &str) -> Scope {
        let p = &self.spec.proctypes[proc];
        if p.params.iter().chain(&p.locals).any(|d| d.name == name) {
            Scope::Local(proc)
        } else {
            Scope::Global
        }
    }

    /// Whether `name` (in proctype `proc`) is a global channel or
    /// channel array.
    fn global_chan(&self, proc: usize, name: &str) -> bool {
        self.scope(proc, name) == Scope::Global
            && self
                .spec
                .globals
                .iter()
                .any(|d| d.name == name && d.chan.is_some())
    }

    /// Whether `v` (in proctype `proc`) holds pids.
    fn is_pid_var(&self, proc: usize, v: &VarRef) -> bool {
        self.pid_vars
            .contains(&(self.scope(proc, &v.name), v.name.clone()))
    }

    /// Whether `e` (in proctype `proc`) is a pid of the family.
    fn is_pid(&self, proc: usize, e: &Expr) -> bool {
        match e {
            Expr::Pid(_) => proc == self.family,
            Expr::Var(v) => self
                .pid_vars
                .contains(&(self.scope(proc, &v.name), v.name.clone())),
            Expr::Cond(_, a, b, _) => self.is_pid(proc, a) || self.is_pid(proc, b),
            _ => false,
        }
    }

    /// Which variables hold pids and which arrays pids index: the least
    /// fixpoint of the assignments.
    fn flow(&mut self) {
        loop {
            let before = (
                self.pid_vars.len(),
                self.indexed.len(),
                self.pid_fields.len(),
            );
            for proc in 0..self.spec.proctypes.len() {
                let body = self.spec.proctypes[proc].body.stmts.clone();
                self.flow_stmts(proc, &body);
            }
            let after = (
                self.pid_vars.len(),
                self.indexed.len(),
                self.pid_fields.len(),
            );
            if after == before {
                break;
            }
        }
    }

    fn flow_stmts(&mut self, proc: usize, ss: &[Stmt]) {
        for s in ss {
            match &s.kind {
                StmtKind::Assign(v, e) => {
                    if self.is_pid(proc, e) {
                        let key = (self.scope(proc, &v.name), v.name.clone());
                        self.pid_vars.insert(key);
                    }
                    self.flow_var(proc, v);
                    self.flow_expr(proc, e);
                }
                StmtKind::Expr(e) | StmtKind::Assert(e) => self.flow_expr(proc, e),
                StmtKind::Incr(v) | StmtKind::Decr(v) => self.flow_var(proc, v),
                StmtKind::Send(c, args) => {
                    self.flow_var(proc, c);
                    let global = self.global_chan(proc, &c.name);
                    for (k, a) in args.iter().enumerate() {
                        if global && self.is_pid(proc, a) {
                            self.pid_fields.insert((c.name.clone(), k));
                        }
                        self.flow_expr(proc, a);
                    }
                }
                StmtKind::Recv(c, args) => {
                    self.flow_var(proc, c);
                    let global = self.global_chan(proc, &c.name);
                    for (k, a) in args.iter().enumerate() {
                        match a {
                            RecvArg::Var(v) => {
                                if global {
                                    let field = (c.name.clone(), k);
                                    if self.pid_fields.contains(&field) {
                                        let key = (self.scope(proc, &v.name), v.name.clone());
                                        self.pid_vars.insert(key);
                                    } else if self.is_pid_var(proc, v) {
                                        self.pid_fields.insert(field);
                                    }
                                }
                                self.flow_var(proc, v)
                            }
                            RecvArg::Eval(e) if global && self.is_pid(proc, e) => {
                                self.pid_fields.insert((c.name.clone(), k));
                                self.flow_expr(proc, e)
                            }
                            RecvArg::Const(e) | RecvArg::Eval(e) => self.flow_expr(proc, e),
                        }
                    }
                }
                StmtKind::If(o) | StmtKind::Do(o) => {
                    for q in o {
                        self.flow_stmts(proc, &q.stmts);
                    }
                }
                StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => {
                    self.flow_stmts(proc, &b.stmts)
                }
                StmtKind::Print(args) => args.iter().for_each(|a| self.flow_expr(proc, a)),
                StmtKind::Break | StmtKind::Goto(_) | StmtKind::Else => {}
            }
        }
    }

    fn flow_var(&mut self, proc: usize, v: &VarRef) {
        if let Some(i) = &v.index {
            if self.is_pid(proc, i) {
                let key = (self.scope(proc, &v.name), v.name.clone());
                self.indexed.insert(key);
            }
            self.flow_expr(proc, i);
        }
    }

    fn flow_expr(&mut self, proc: usize, e: &Expr) {
        match e {
            Expr::Var(v) => {
                if self.global_chan(proc, &v.name) {
                    self.escaped.entry(v.name.clone()).or_insert(v.span);
                }
                self.flow_var(proc, v)
            }
            Expr::ChanQuery(_, v, _) => self.flow_var(proc, v),
            Expr::Unary(_, a, _) => self.flow_expr(proc, a),
            Expr::Binary(op, a, b, _) => {
                // A variable compared for equality with a pid holds pids.
                if matches!(*op, "==" | "!=") {
                    for (x, y) in [(a, b), (b, a)] {
                        if let Expr::Var(v) = &**x
                            && self.is_pid(proc, y)
                            && !self.global_chan(proc, &v.name)
                        {
                            let key = (self.scope(proc, &v.name), v.name.clone());
                            self.pid_vars.insert(key);
                        }
                    }
                }
                self.flow_expr(proc, a);
                self.flow_expr(proc, b);
            }
            Expr::Cond(a, b, c, _) => {
                self.flow_expr(proc, a);
                self.flow_expr(proc, b);
                self.flow_expr(proc, c);
            }
            Expr::Run(_, args, _) => args.iter().for_each(|a| self.flow_expr(proc, a)),
            Expr::Poll(v, _, _) => self.flow_var(proc, v),
            Expr::Index(a, b, _, _) => {
                self.flow_expr(proc, a);
                self.flow_expr(proc, b);
            }
            Expr::Const(..) | Expr::Pid(_) | Expr::NrPr(_) | Expr::Timeout(_) => {}
        }
    }

    /// A constant that is no pid of the family ("no process", as 0 is
    /// when the family's pids start at 1): symmetric wherever a pid is.
    fn is_neutral(&self, e: &Expr) -> bool {
        matches!(e, Expr::Const(c, _) if u32::try_from(*c).map_or(true, |c| !self.pids.contains(&c)))
    }

    fn broken(&mut self, what: String, span: Span, trustable: bool) {
        if self.breaks.is_none() && !(trustable && self.trusted) {
            self.breaks = Some(format!("{what} at {}", self.file.location(span)));
        }
    }

    fn check_all(&mut self) {
        for proc in 0..self.spec.proctypes.len() {
            let body = self.spec.proctypes[proc].body.stmts.clone();
            self.check_stmts(proc, &body);
            let p = &self.spec.proctypes[proc];
            for d in p.locals.clone() {
                if let Some(e) = &d.init {
                    self.check_value(proc, e);
                }
            }
        }
    }

    fn check_stmts(&mut self, proc: usize, ss: &[Stmt]) {
        for s in ss {
            match &s.kind {
                StmtKind::Assign(v, e) => {
                    self.check_var(proc, v);
                    let target_pid = self
                        .pid_vars
                        .contains(&(self.scope(proc, &v.name), v.name.clone()));
                    if target_pid && !self.is_pid(proc, e) && !self.is_neutral(e) {
                        self.broken(
                            format!("`{}`, which holds pids, is given another value", v.name),
                            s.span,
                            true,
                        );
                    }
                    if self.is_pid(proc, e) {
                        self.check_pid_expr(proc, e);
                    } else {
                        self.check_value(proc, e);
                    }
                }
                StmtKind::Expr(e) | StmtKind::Assert(e) => self.check_value(proc, e),
                StmtKind::Incr(v) | StmtKind::Decr(v) => {
                    self.check_var(proc, v);
                    if self.is_pid(proc, &Expr::Var(v.clone())) {
                        self.broken("arithmetic on a pid".to_string(), v.span, false);
                    }
                }
                StmtKind::Send(c, args) => {
                    self.check_var(proc, c);
                    for (k, a) in args.iter().enumerate() {
                        self.check_field(proc, c, k, a);
                    }
                }
                StmtKind::Recv(c, args) => {
                    self.check_var(proc, c);
                    for (k, a) in args.iter().enumerate() {
                        match a {
                            RecvArg::Var(v) => {
                                self.check_var(proc, v);
                                if self.is_pid_var(proc, v) && !self.global_chan(proc, &c.name) {
                                    self.broken(
                                        "not supported yet: a pid received on a local channel \
                                         or through a channel variable"
                                            .to_string(),
                                        v.span,
                                        false,
                                    );
                                }
                            }
                            RecvArg::Const(e) | RecvArg::Eval(e) => self.check_field(proc, c, k, e),
                        }
                    }
                }
                StmtKind::If(o) | StmtKind::Do(o) => {
                    for q in o {
                        self.check_stmts(proc, &q.stmts);
                    }
                }
                StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => {
                    self.check_stmts(proc, &b.stmts)
                }
                StmtKind::Print(_) | StmtKind::Break | StmtKind::Goto(_) | StmtKind::Else => {}
            }
        }
    }

    /// Field `k` of a message on channel `c`, sent or matched: `e`, a
    /// pid where the field holds pids, no pid where it does not.
    fn check_field(&mut self, proc: usize, c: &VarRef, k: usize, e: &Expr) {
        let global = self.global_chan(proc, &c.name);
        let holds = global && self.pid_fields.contains(&(c.name.clone(), k));
        if self.is_pid(proc, e) {
            if !global {
                self.broken(
                    "not supported yet: a pid in a message on a local channel or through a \
                     channel variable"
                        .to_string(),
                    e.span(),
                    false,
                );
            }
            self.check_pid_expr(proc, e);
        } else if holds && !self.is_neutral(e) {
            let constant = matches!(e, Expr::Const(..));
            self.broken(
                format!(
                    "field {} of `{}`'s messages holds pids, and here {}",
                    k + 1,
                    c.name,
                    if constant {
                        "a constant"
                    } else {
                        "a value that is no pid"
                    }
                ),
                e.span(),
                constant,
            );
            self.check_value(proc, e);
        } else {
            self.check_value(proc, e);
        }
    }

    /// Channels whose messages hold pids, or which pids index, may be
    /// used only as channels: a channel variable holding one would escape
    /// the permutation.
    fn check_escapes(&mut self) {
        let mut escaped: Vec<(String, Span)> = self
            .escaped
            .iter()
            .map(|(name, span)| (name.clone(), *span))
            .collect();
        escaped.sort_by_key(|(_, span)| span.start);
        for (name, span) in escaped {
            let carries = self.pid_fields.iter().any(|(c, _)| *c == name);
            let indexed = self.indexed.contains(&(Scope::Global, name.clone()));
            if carries || indexed {
                let what = if carries {
                    "whose messages hold pids"
                } else {
                    "which pids index"
                };
                self.broken(
                    format!("not supported yet: channel `{name}`, {what}, used as a value"),
                    span,
                    false,
                );
            }
        }
    }

    /// A variable reference: an array pids index must be indexed by pids.
    fn check_var(&mut self, proc: usize, v: &VarRef) {
        let Some(i) = &v.index else {
            return;
        };
        let indexed = self
            .indexed
            .contains(&(self.scope(proc, &v.name), v.name.clone()));
        if indexed && !self.is_pid(proc, i) {
            self.broken(
                format!(
                    "`{}`, indexed by pids, is indexed by something else",
                    v.name
                ),
                v.span,
                true,
            );
        }
        if self.is_pid(proc, i) {
            self.check_pid_expr(proc, i);
        } else {
            self.check_value(proc, i);
        }
    }

    /// A pid used as a pid (an index, a value stored).
    fn check_pid_expr(&mut self, proc: usize, e: &Expr) {
        if let Expr::Cond(c, a, b, _) = e {
            self.check_value(proc, c);
            self.check_pid_expr(proc, a);
            self.check_pid_expr(proc, b);
        } else if let Expr::Var(v) = e {
            self.check_var(proc, v);
        }
    }

    /// An expression whose value is no pid: pids in it may only be
    /// compared with `==` and `!=` to pids.
    fn check_value(&mut self, proc: usize, e: &Expr) {
        match e {
            Expr::Binary(op, a, b, span) => {
                let (pa, pb) = (self.is_pid(proc, a), self.is_pid(proc, b));
                if pa || pb {
                    if !matches!(*op, "==" | "!=") {
                        self.broken(format!("a pid is an operand of `{op}`"), *span, false);
                    } else if let Some(other) = (!(pa && pb))
                        .then_some(if pa { b } else { a })
                        .filter(|o| !self.is_neutral(o))
                    {
                        let constant = matches!(**other, Expr::Const(..));
                        self.broken(
                            if constant {
                                "a pid is compared with a constant".to_string()
                            } else {
                                "a pid is compared with a value that is no pid".to_string()
                            },
                            *span,
                            constant,
                        );
                    }
                    for x in [a, b] {
                        if self.is_pid(proc, x) {
                            self.check_pid_expr(proc, x);
                        } else {
                            self.check_value(proc, x);
                        }
                    }
                } else {
                    self.check_value(proc, a);
                    self.check_value(proc, b);
                }
            }
            _ if self.is_pid(proc, e) => {
                self.broken("a pid is used as a number".to_string(), e.span(), false);
            }
            Expr::Var(v) | Expr::ChanQuery(_, v, _) => self.check_var(proc, v),
            Expr::Unary(_, a, _) => self.check_value(proc, a),
            Expr::Cond(a, b, c, _) => {
                self.check_value(proc, a);
                self.check_value(proc, b);
                self.check_value(proc, c);
            }
            Expr::Run(_, args, _) => {
                for a in args {
                    if self.is_pid(proc, a) {
                        self.broken(
                            "not supported yet: a pid passed to `run`".to_string(),
                            a.span(),
                            false,
                        );
                    }
                    self.check_value(proc, a);
                }
            }
            Expr::Poll(v, args, _) => {
                self.check_var(proc, v);
                for (k, a) in args.iter().enumerate() {
                    if let RecvArg::Const(x) | RecvArg::Eval(x) = a {
                        self.check_field(proc, v, k, x);
                    }
                }
            }
            // A flattened index of a structure's array field: pids in it
            // are numbers (the arithmetic of the flattening).
            Expr::Index(a, b, _, _) => {
                self.check_value(proc, a);
                self.check_value(proc, b);
            }
            Expr::Const(..) | Expr::Pid(_) | Expr::NrPr(_) | Expr::Timeout(_) => {}
        }
    }
}

/// The cells a permutation touches, from a plan and the compiled layout.
#[derive(Clone, Debug, Default)]
pub struct SymmetryCells {
    /// The family's pids.
    pub pids: Vec<u32>,
    /// Slot-relative cells of the family's locals that hold pids.
    pub pid_locals: Vec<u32>,
    /// Per proctype other than the family's: slot-relative cells of its
    /// locals that hold pids.
    pub other_pid_locals: Vec<Vec<u32>>,
    /// Global cells that hold pids (variables and message fields).
    pub pid_globals: Vec<u32>,
    /// Global arrays indexed by pids: first cell, length, whether their
    /// elements hold pids.
    pub indexed: Vec<(u32, u32, bool)>,
    /// Channel arrays indexed by pids: each process's own channels.
    pub owned: Vec<OwnedChans>,
}

/// The channels of a global channel array indexed by pids: element `p`
/// is process `p`'s, and moves with it.
#[derive(Clone, Debug, Default)]
pub struct OwnedChans {
    /// The array's length.
    pub len: u32,
    /// Per pid below `len`: the first cell of its channel.
    pub at: Vec<u32>,
    /// The cells of one channel (its length and its message slots).
    pub width: u32,
    /// The channel-relative cells that hold pids.
    pub pid_cells: Vec<u32>,
}

impl SymmetryCells {
    /// The cells of `plan` in `prog`'s layout.
    pub fn new(plan: &SymmetryPlan, prog: &Program) -> Self {
        let mut cells = SymmetryCells {
            pids: plan.pids.clone(),
            other_pid_locals: vec![Vec::new(); prog.procs.len()],
            ..SymmetryCells::default()
        };
        let proc = &prog.procs[plan.proctype];
        for (name, cell, len, _) in &proc.local_names {
            if plan.pid_locals.contains(name) {
                cells.pid_locals.extend(*cell..cell + len);
            }
        }
        for (t, other) in prog.procs.iter().enumerate() {
            for (name, cell, len, _) in &other.local_names {
                if plan.other_pid_locals.contains(&(t, name.clone())) {
                    cells.other_pid_locals[t].extend(*cell..cell + len);
                }
            }
        }
        let chan_of = |cell: u32| -> Option<&super::compile::ChanStore> {
            let (_, n) = prog.global_chan_vars.iter().find(|(c, _)| *c == cell)?;
            prog.global_chans.get(*n as usize - 1)
        };
        for (name, cell, len) in &prog.global_names {
            let holds = plan.pid_globals.contains(name);
            let is_chan = prog.global_types[*cell as usize] == BasicType::Chan;
            let fields: Vec<usize> = plan
                .pid_fields
                .iter()
                .filter(|(c, _)| c == name)
                .map(|(_, k)| *k)
                .collect();
            if is_chan {
                let Some(first) = chan_of(*cell) else {
                    continue;
                };
                let nf = first.shape.fields.len() as u32;
                let width = 1 + first.shape.capacity as u32 * nf;
                let mut pid_cells: Vec<u32> = (0..first.shape.capacity as u32)
                    .flat_map(|i| fields.iter().map(move |&f| 1 + i * nf + f as u32))
                    .collect();
                pid_cells.sort_unstable();
                let elements: Vec<u32> = (*cell..cell + len)
                    .map(|c| chan_of(c).map_or(0, |ch| ch.offset))
                    .collect();
                if plan.indexed_globals.contains(name) {
                    cells.owned.push(OwnedChans {
                        len: *len,
                        at: elements,
                        width,
                        pid_cells,
                    });
                } else {
                    for at in elements {
                        cells.pid_globals.extend(pid_cells.iter().map(|k| at + k));
                    }
                }
            } else if plan.indexed_globals.contains(name) {
                cells.indexed.push((*cell, *len, holds));
            } else if holds {
                cells.pid_globals.extend(*cell..cell + len);
            }
        }
        cells
    }
}

/// The symmetry of a Promela model's family of processes.
pub struct PromelaSymmetry<'a> {
    sys: &'a PromelaSystem,
    cells: SymmetryCells,
    domains: Permutable,
    /// Per pid: its atom (index among the family's pids), or none.
    atom_of: Vec<Option<u32>>,
    marker_table: MarkerTable,
}

/// Per-thread buffers of [`PromelaSymmetry`].
pub struct PromelaSymScratch {
    mem: Vec<u64>,
    out: Vec<u64>,
    values: HashMap<(u32, u64), u32>,
    markers: Vec<u64>,
    plain: Vec<u64>,
}

const E_LOCAL: u32 = 1 << 20;
const E_LOCAL_PID: u32 = 2 << 20;
const E_ARRAY: u32 = 3 << 20;
const E_ARRAY_PID: u32 = 4 << 20;
const E_GLOBAL: u32 = 5 << 20;
const E_OWNED: u32 = 6 << 20;
const E_OWNED_PID: u32 = 7 << 20;
const CELL: u32 = StateGraph::FIRST_FREE_COLOUR;
const VALUE: u32 = StateGraph::FIRST_FREE_COLOUR + (1 << 24);

impl<'a> PromelaSymmetry<'a> {
    /// The symmetry of `sys` over the family `cells` describes.
    pub fn new(sys: &'a PromelaSystem, cells: SymmetryCells) -> Self {
        let slots = sys.program().slots as usize;
        let mut atom_of = vec![None; slots];
        for (a, &p) in cells.pids.iter().enumerate() {
            atom_of[p as usize] = Some(a as u32);
        }
        let domains = Permutable {
            movable: vec![cells.pids.clone()],
            set_sizes: vec![slots],
        };
        PromelaSymmetry {
            sys,
            cells,
            domains,
            atom_of,
            marker_table: MarkerTable::new(),
        }
    }

    fn slot(&self, pid: usize) -> usize {
        let prog = self.sys.program();
        prog.slots_at as usize + pid * prog.slot_cells as usize
    }

    /// Calls `f` with every cell of `mem` outside the family's slots and
    /// channels that holds a pid: global variables, message fields of
    /// global channels, and locals of the other processes.
    fn for_pid_cells(&self, mem: &[u64], mut f: impl FnMut(usize)) {
        for &c in &self.cells.pid_globals {
            f(c as usize);
        }
        if self.cells.other_pid_locals.iter().all(Vec::is_empty) {
            return;
        }
        for s in 0..self.sys.program().slots as usize {
            if self.atom_of[s].is_some() {
                continue;
            }
            let base = self.slot(s);
            let Some(t) = (mem[base] as usize).checked_sub(1) else {
                continue;
            };
            for &k in &self.cells.other_pid_locals[t] {
                f(base + k as usize);
            }
        }
    }

    /// The vertex of the value `v` of cell kind `kind` (one per pair).
    fn value_vertex(scratch: &mut PromelaSymScratch, g: &mut StateGraph, kind: u32, v: u64) -> u32 {
        *scratch
            .values
            .entry((kind, v))
            .or_insert_with(|| g.add_vertex(VALUE))
    }

    /// Per element of the family: its marker (the paper's Def. 4),
    /// refined by the markers of the pids its own pid-holding cells refer
    /// to (Alg. 5.1's `local`), so that elements with equal markers are
    /// told apart, and ordered, by what they point to.
    fn element_markers(&self, mem: &[u64], markers: &mut Vec<u64>, plain: &mut Vec<u64>) {
        self.plain_markers(mem, plain);
        markers.clear();
        markers.extend_from_slice(plain);
        let refer =
            |h: u64, v: u64| mix(h ^ self.atom_of(v).map_or(v << 1, |b| plain[b as usize] | 1));
        for (a, &p) in self.cells.pids.iter().enumerate() {
            let mut h = plain[a];
            let base = self.slot(p as usize);
            for &k in &self.cells.pid_locals {
                h = refer(h, mem[base + k as usize]);
            }
            for o in &self.cells.owned {
                let at = o.at[p as usize] as usize;
                for &k in &o.pid_cells {
                    h = refer(h, mem[at + k as usize]);
                }
            }
            for &(first, len, holds) in &self.cells.indexed {
                if holds && p < len {
                    h = refer(h, mem[(first + p) as usize]);
                }
            }
            markers[a] = h;
        }
    }

    /// Per element of the family: its marker, the paper's Def. 4.
    fn plain_markers(&self, mem: &[u64], markers: &mut Vec<u64>) {
        let n = self.cells.pids.len();
        markers.clear();
        markers.resize(n, 0);
        let cells = self.sys.program().slot_cells as usize;
        for (a, &p) in self.cells.pids.iter().enumerate() {
            let base = self.slot(p as usize);
            let mut h = 0x5151u64;
            for k in 0..cells {
                if self.cells.pid_locals.contains(&(k as u32)) {
                    continue;
                }
                h = mix(h ^ mem[base + k]);
            }
            self.for_pid_cells(mem, |c| h = mix(h ^ u64::from(mem[c] == u64::from(p))));
            for o in &self.cells.owned {
                let at = o.at[p as usize] as usize;
                for k in 0..o.width {
                    let v = mem[at + k as usize];
                    h = mix(h ^ if o.pid_cells.binary_search(&k).is_ok() {
                        u64::from(self.atom_of(v).is_some())
                    } else {
                        v
                    });
                }
                for &k in &o.pid_cells {
                    let count = self
                        .cells
                        .pids
                        .iter()
                        .filter(|&&q| mem[(o.at[q as usize] + k) as usize] == u64::from(p))
                        .count();
                    h = mix(h ^ (u64::from(k) << 32) ^ count as u64);
                }
            }
            for &(first, len, holds) in &self.cells.indexed {
                if p < len {
                    let v = mem[(first + p) as usize];
                    h = mix(h ^ if holds {
                        u64::from(self.atom_of(v).is_some())
                    } else {
                        v
                    });
                }
                if holds {
                    let count = self
                        .cells
                        .pids
                        .iter()
                        .filter(|&&q| q < len && mem[(first + q) as usize] == u64::from(p))
                        .count();
                    h = mix(h ^ count as u64);
                }
            }
            for &k in &self.cells.pid_locals {
                let count = self
                    .cells
                    .pids
                    .iter()
                    .filter(|&&q| mem[self.slot(q as usize) + k as usize] == u64::from(p))
                    .count();
                h = mix(h ^ (u64::from(k) << 32) ^ count as u64);
            }
            markers[a] = h;
        }
    }

    fn atom_of(&self, v: u64) -> Option<u32> {
        self.atom_of.get(v as usize).copied().flatten()
    }
}

impl StateSymmetry for PromelaSymmetry<'_> {
    type Scratch = PromelaSymScratch;

    fn new_scratch(&self) -> PromelaSymScratch {
        PromelaSymScratch {
            mem: Vec::new(),
            out: Vec::new(),
            values: HashMap::new(),
            markers: Vec::new(),
            plain: Vec::new(),
        }
    }

    fn domains(&self) -> &Permutable {
        &self.domains
    }

    fn domain_name(&self, _domain: usize) -> String {
        "_pid".to_string()
    }

    /// Pids print as SPIN prints them, from 0.
    fn element_name(&self, _domain: usize, element: u32) -> String {
        element.to_string()
    }

    fn describe(&self, state: &[u64], scratch: &mut PromelaSymScratch, g: &mut StateGraph) -> bool {
        let mut mem = std::mem::take(&mut scratch.mem);
        self.sys.unpack(state, &mut mem);
        scratch.values.clear();
        let cells = self.sys.program().slot_cells as usize;
        for (a, &p) in self.cells.pids.iter().enumerate() {
            let base = self.slot(p as usize);
            let atom = g.atom(a as u32);
            for k in 0..cells {
                let v = mem[base + k];
                if self.cells.pid_locals.contains(&(k as u32))
                    && let Some(b) = self.atom_of(v)
                {
                    let to = g.atom(b);
                    g.add_edge(atom, to, E_LOCAL_PID + k as u32);
                    continue;
                }
                let to = Self::value_vertex(scratch, g, k as u32, v);
                g.add_edge(atom, to, E_LOCAL + k as u32);
            }
        }
        for (i, &(first, len, holds)) in self.cells.indexed.iter().enumerate() {
            for &p in &self.cells.pids {
                if p >= len {
                    continue;
                }
                let a = self.atom_of[p as usize].expect("a family pid");
                let atom = g.atom(a);
                let v = mem[(first + p) as usize];
                if holds && let Some(b) = self.atom_of(v) {
                    let to = g.atom(b);
                    g.add_edge(atom, to, E_ARRAY_PID + i as u32);
                } else {
                    let to = Self::value_vertex(scratch, g, (1 << 16) + i as u32, v);
                    g.add_edge(atom, to, E_ARRAY + i as u32);
                }
            }
        }
        self.for_pid_cells(&mem, |c| {
            if let Some(b) = self.atom_of(mem[c]) {
                let cell = g.add_vertex(CELL + c as u32);
                let to = g.atom(b);
                g.add_edge(cell, to, E_GLOBAL);
            }
        });
        let mut first = 0;
        for o in &self.cells.owned {
            for (a, &p) in self.cells.pids.iter().enumerate() {
                let atom = g.atom(a as u32);
                let at = o.at[p as usize] as usize;
                for k in 0..o.width {
                    let v = mem[at + k as usize];
                    if o.pid_cells.binary_search(&k).is_ok()
                        && let Some(b) = self.atom_of(v)
                    {
                        let to = g.atom(b);
                        g.add_edge(atom, to, E_OWNED_PID + first + k);
                    } else {
                        let to = Self::value_vertex(scratch, g, (2 << 16) + first + k, v);
                        g.add_edge(atom, to, E_OWNED + first + k);
                    }
                }
            }
            first += o.width;
        }
        // Value vertices coloured by rank: invariant under permutations,
        // distinct values get distinct colours.
        let mut ranked: Vec<((u32, u64), u32)> =
            scratch.values.iter().map(|(k, v)| (*k, *v)).collect();
        ranked.sort_unstable();
        for (rank, &(_, v)) in ranked.iter().enumerate() {
            g.set_colour(v, VALUE + rank as u32);
        }
        scratch.mem = mem;
        g.touched()
    }

    fn permute(
        &self,
        perm: &Permutation,
        state: &[u64],
        scratch: &mut PromelaSymScratch,
        out: &mut Vec<u64>,
    ) -> bool {
        let mut mem = std::mem::take(&mut scratch.mem);
        self.sys.unpack(state, &mut mem);
        let mut new = std::mem::take(&mut scratch.out);
        new.clear();
        new.extend_from_slice(&mem);
        let image = |v: u64| -> u64 {
            if self.atom_of(v).is_some() {
                u64::from(perm.image(0, v as u32))
            } else {
                v
            }
        };
        let cells = self.sys.program().slot_cells as usize;
        for &p in &self.cells.pids {
            let q = perm.image(0, p) as usize;
            let (from, to) = (self.slot(p as usize), self.slot(q));
            new[to..to + cells].copy_from_slice(&mem[from..from + cells]);
            for &k in &self.cells.pid_locals {
                new[to + k as usize] = image(mem[from + k as usize]);
            }
        }
        self.for_pid_cells(&mem, |c| new[c] = image(mem[c]));
        for o in &self.cells.owned {
            let w = o.width as usize;
            for &p in &self.cells.pids {
                let from = o.at[p as usize] as usize;
                let to = o.at[perm.image(0, p) as usize] as usize;
                new[to..to + w].copy_from_slice(&mem[from..from + w]);
                for &k in &o.pid_cells {
                    new[to + k as usize] = image(mem[from + k as usize]);
                }
            }
        }
        for &(first, len, holds) in &self.cells.indexed {
            for i in 0..len {
                let j = if self.atom_of(u64::from(i)).is_some() {
                    perm.image(0, i)
                } else {
                    i
                };
                let v = mem[(first + i) as usize];
                new[(first + j) as usize] = if holds { image(v) } else { v };
            }
        }
        out.resize(self.sys.state_width_words(), 0);
        self.sys.pack(&new, out);
        scratch.mem = mem;
        scratch.out = new;
        true
    }

    fn has_markers(&self) -> bool {
        true
    }

    fn marker_representative(
        &self,
        state: &[u64],
        scratch: &mut PromelaSymScratch,
        out: &mut Vec<u64>,
    ) {
        let mut mem = std::mem::take(&mut scratch.mem);
        self.sys.unpack(state, &mut mem);
        let mut markers = std::mem::take(&mut scratch.markers);
        self.element_markers(&mem, &mut markers, &mut scratch.plain);
        // The state's marker: what no permutation moves, the sorted
        // element markers, and each pid-holding global by its pid's marker.
        let mut fixed = mem.clone();
        let cells = self.sys.program().slot_cells as usize;
        for &p in &self.cells.pids {
            let base = self.slot(p as usize);
            fixed[base..base + cells].iter_mut().for_each(|c| *c = 0);
        }
        for &(first, len, _) in &self.cells.indexed {
            for &p in &self.cells.pids {
                if p < len {
                    fixed[(first + p) as usize] = 0;
                }
            }
        }
        for o in &self.cells.owned {
            for &p in &self.cells.pids {
                let at = o.at[p as usize] as usize;
                fixed[at..at + o.width as usize].fill(0);
            }
        }
        let mut h = 0x4d61u64;
        self.for_pid_cells(&mem, |c| {
            let v = mem[c];
            fixed[c] = match self.atom_of(v) {
                Some(a) => markers[a as usize] | 1,
                None => v << 1,
            };
        });
        for &c in &fixed {
            h = mix(h ^ c);
        }
        let mut sorted = markers.clone();
        sorted.sort_unstable();
        for m in sorted {
            h = mix(h ^ m);
        }
        self.marker_table.representative(h, state, out);
        scratch.mem = mem;
        scratch.markers = markers;
    }

    fn marker_permutation(&self, state: &[u64], scratch: &mut PromelaSymScratch) -> Permutation {
        let mut mem = std::mem::take(&mut scratch.mem);
        self.sys.unpack(state, &mut mem);
        let mut markers = std::mem::take(&mut scratch.markers);
        self.element_markers(&mem, &mut markers, &mut scratch.plain);
        let atom_of = &self.atom_of;
        let perm = sorting_permutation(&self.domains, |_, p| {
            markers[atom_of[p as usize].expect("a family pid") as usize]
        });
        scratch.mem = mem;
        scratch.markers = markers;
        perm
    }
}

/// Whether every pid-indexed array covers the family's pids.
pub fn check_cover(cells: &SymmetryCells) -> Result<(), String> {
    let max = cells.pids.iter().copied().max().unwrap_or(0);
    let lens = cells.indexed.iter().map(|&(_, len, _)| len);
    for len in lens.chain(cells.owned.iter().map(|o| o.len)) {
        if len <= max {
            return Err(format!(
                "an array indexed by pids of the family has {len} elements, fewer than the pids (up to {max})"
            ));
        }
    }
    Ok(())
}
