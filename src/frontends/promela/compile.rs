//! Names resolved, the state laid out, and statements compiled to the
//! interpreter's code.
//!
//! The state is one cell per scalar (arrays expanded): a cell for the
//! first failed assertion, the globals, the global channels (a length
//! and the message fields), then one slot per process: its proctype (0:
//! no process), its state in its proctype's [`Flow`], its locals and its
//! channels. A process's pid is its slot, as in SPIN, where processes
//! die youngest first.

use super::ast::{BasicType, ChanShape, Decl, Expr, Proctype, RecvArg, Spec, StmtKind, VarRef};
use super::flow::{Flow, Names};
use crate::diag::{Diagnostic, Span};
use std::collections::HashMap;

/// SPIN's bound on processes.
pub const MAX_PROCESSES: usize = 255;

/// Where a variable's cells are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// At this cell of the state.
    Global(u32),
    /// At this cell of the running process's slot.
    Local(u32),
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Ex {
    /// A constant.
    Const(i64),
    /// A scalar variable.
    Load(Place, BasicType),
    /// An array element.
    LoadIndexed(Place, u32, BasicType, Box<Ex>, Span),
    /// `op e`.
    Unary(&'static str, Box<Ex>),
    /// `a op b`.
    Binary(&'static str, Box<Ex>, Box<Ex>, Span),
    /// `(c -> a : b)`.
    Cond(Box<Ex>, Box<Ex>, Box<Ex>),
    /// `len`, `empty`, `nempty`, `full`, `nfull` of a channel.
    ChanQuery(&'static str, Box<Ex>, Span),
    /// `c?[args]`: whether the first message has these fields (`None`:
    /// any value).
    Poll(Box<Ex>, Vec<Option<Ex>>, Span),
    /// `run P(args)`: a proctype and its arguments.
    Run(usize, Vec<Ex>, Span),
    /// `_pid`.
    Pid,
    /// `_nr_pr`.
    NrPr,
    /// `timeout`.
    Timeout,
    /// A flattened index one array level deeper: `outer * len + inner`,
    /// with `inner` checked to be below `len`.
    Index(Box<Ex>, Box<Ex>, u32, Span),
}

/// A compiled assignable reference.
#[derive(Clone, Debug)]
pub struct Lv {
    /// Its first cell.
    pub place: Place,
    /// The length of an array.
    pub len: Option<u32>,
    /// Its type.
    pub ty: BasicType,
    /// The index of an array element.
    pub index: Option<Ex>,
    /// Where it is.
    pub span: Span,
}

/// A compiled receive argument.
#[derive(Clone, Debug)]
pub enum RArg {
    /// Stores the field.
    Store(Lv),
    /// The field must equal this.
    Match(Ex),
}

/// A compiled basic statement.
#[derive(Clone, Debug)]
pub enum Code {
    /// An expression: executable when non-zero.
    Expr(Ex),
    /// `v = e`.
    Assign(Lv, Ex),
    /// `v++` (1) or `v--` (-1).
    Add(Lv, i64),
    /// `c!args`.
    Send(Ex, Vec<Ex>, Span),
    /// `c?args`.
    Recv(Ex, Vec<RArg>, Span),
    /// `assert(e)`, with the assertion's number.
    Assert(Ex, u32),
    /// No effect (printing).
    Nop,
}

/// A channel instance's storage.
#[derive(Clone, Debug)]
pub struct ChanStore {
    /// Its first cell (the length), relative to the state (global) or to
    /// the slot (local).
    pub offset: u32,
    /// Its shape.
    pub shape: ChanShape,
}

/// One proctype, compiled.
#[derive(Clone, Debug)]
pub struct CProc {
    /// Its name (`init` for init).
    pub name: String,
    /// Its control flow.
    pub flow: Flow,
    /// The code of each of the flow's statements.
    pub code: Vec<Code>,
    /// Its parameters and locals: name, first cell, length, type.
    pub local_names: Vec<(String, u32, u32, BasicType)>,
    /// The cell of each local the dead-variable analysis tracks.
    pub tracked_cells: Vec<u32>,
    /// Its parameters' cells and types, in order.
    pub params: Vec<(u32, BasicType)>,
    /// Its locals' initialisation: cell, type, initial value (or the
    /// local channel it is created with).
    pub inits: Vec<(u32, u32, BasicType, LocalInit)>,
    /// Its channels.
    pub chans: Vec<ChanStore>,
    /// Cells its locals and channels take.
    pub cells: u32,
    /// The type of each of its cells (for packing).
    pub cell_types: Vec<BasicType>,
}

/// How a local starts.
#[derive(Clone, Debug)]
pub enum LocalInit {
    /// 0.
    Zero,
    /// A value.
    Value(Ex),
    /// A local channel (an index into [`CProc::chans`]).
    Chan(usize),
}

/// A compiled model.
#[derive(Clone, Debug)]
pub struct Program {
    /// Its proctypes.
    pub procs: Vec<CProc>,
    /// Global cells: their types.
    pub global_types: Vec<BasicType>,
    /// Global variables' initial values: cell, length, type, value.
    pub global_inits: Vec<(u32, u32, BasicType, Ex)>,
    /// Global channels (channel numbers 1, 2, ...).
    pub global_chans: Vec<ChanStore>,
    /// Global channel variables: their cells and the channel numbers
    /// they start with.
    pub global_chan_vars: Vec<(u32, u32)>,
    /// The first cell of the process slots.
    pub slots_at: u32,
    /// Cells of a slot.
    pub slot_cells: u32,
    /// Number of slots.
    pub slots: u32,
    /// The most local channels a proctype has.
    pub local_chans: u32,
    /// Processes started first, in order (proctype indices).
    pub active: Vec<usize>,
    /// The assertions' texts and places.
    pub asserts: Vec<(String, Span)>,
    /// Whether the model uses `timeout`.
    pub uses_timeout: bool,
    /// Variable names of the cells (for slot information).
    pub global_names: Vec<(String, u32, u32)>,
    /// Global cells SPIN keeps out of the state: variables never read
    /// (SPIN hides them) and `_`.
    pub hidden_cells: Vec<u32>,
    /// What the user should know before the run.
    pub warnings: Vec<String>,
}

struct Var {
    place: Place,
    len: Option<u32>,
    ty: BasicType,
}

struct Scope<'a> {
    globals: &'a HashMap<String, Var>,
    /// `local` globals and `xr`/`xs` claims.
    local_globals: &'a [String],
    exclusive: &'a HashMap<String, u8>,
    locals: &'a HashMap<String, Var>,
    mtypes: &'a HashMap<String, i64>,
    procs: &'a HashMap<String, usize>,
    tracked: &'a HashMap<String, usize>,
    arity: &'a [usize],
}

impl Names for Scope<'_> {
    fn tracked_local(&self, name: &str) -> Option<usize> {
        self.tracked.get(name).copied()
    }

    fn is_global(&self, name: &str) -> bool {
        name != "_"
            && !self.locals.contains_key(name)
            && self.globals.contains_key(name)
            && !self.local_globals.iter().any(|l| l == name)
    }

    fn exclusive(&self, name: &str) -> u8 {
        self.exclusive.get(name).copied().unwrap_or(0)
    }
}

type R<T> = Result<T, Diagnostic>;

/// A local waiting for its initial value: cell, length, type, initialiser,
/// local channel.
type PendingInit<'a> = (u32, u32, BasicType, Option<&'a Expr>, Option<usize>);

/// Compiles a parsed model with SPIN's optimisations (statement merging,
/// dead-variable resets) if `options` asks for them, and room for the
/// processes it may start.
pub fn compile(spec: &Spec, options: &super::Options) -> R<Program> {
    let optimise = options.optimise;
    let mut mtypes = HashMap::new();
    let n = spec.mtypes.len() as i64;
    for (i, (name, span)) in spec.mtypes.iter().enumerate() {
        if mtypes.insert(name.clone(), n - i as i64).is_some() {
            return Err(Diagnostic::error(
                *span,
                format!("mtype `{name}` is declared twice"),
            ));
        }
    }
    let procs_by_name: HashMap<String, usize> = spec
        .proctypes
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.clone(), i))
        .collect();
    let arity: Vec<usize> = spec.proctypes.iter().map(|p| p.params.len()).collect();
    // `xr`/`xs` claims: on a global channel from any proctype, on a
    // local one from its own.
    let mut global_claims: HashMap<String, u8> = HashMap::new();
    for p in &spec.proctypes {
        for (name, flag) in &p.exclusive {
            let local = p.params.iter().chain(&p.locals).any(|d| &d.name == name);
            if !local {
                *global_claims.entry(name.clone()).or_default() |= flag;
            }
        }
    }
    let has_rendezvous = spec
        .globals
        .iter()
        .chain(spec.proctypes.iter().flat_map(|p| p.locals.iter()))
        .any(|d| d.chan.as_ref().is_some_and(|c| c.capacity == 0));

    let read = names_read(spec);
    let mut hidden_cells = Vec::new();
    // Globals: cell 0 is the failed assertion.
    let mut global_types = vec![BasicType::Unsigned(16)];
    let mut globals: HashMap<String, Var> = HashMap::new();
    let mut global_inits = Vec::new();
    let mut global_chans = Vec::new();
    let mut global_chan_vars = Vec::new();
    let mut global_names = Vec::new();
    let empty_scope_locals = HashMap::new();
    let empty_tracked = HashMap::new();
    for d in &spec.globals {
        check_name(d, &globals, &mtypes)?;
        let cell = global_types.len() as u32;
        let len = d.len.unwrap_or(1) as u32;
        for _ in 0..len {
            global_types.push(d.ty);
        }
        let hidden = spec.hidden_globals.contains(&d.name);
        if d.ty != BasicType::Chan && (hidden || !read.contains(&d.name)) {
            // SPIN hides a variable no expression reads, and `hidden` ones:
            // not part of the state (a value lives within one step).
            hidden_cells.extend(cell..cell + len);
        } else {
            global_names.push((d.name.clone(), cell, len));
        }
        globals.insert(
            d.name.clone(),
            Var {
                place: Place::Global(cell),
                len: d.len.map(|l| l as u32),
                ty: d.ty,
            },
        );
        if let Some(shape) = &d.chan {
            for k in 0..len {
                global_chans.push(ChanStore {
                    offset: 0,
                    shape: shape.clone(),
                });
                global_chan_vars.push((cell + k, global_chans.len() as u32));
            }
        } else if let Some(init) = &d.init {
            let scope = Scope {
                globals: &globals,
                local_globals: &spec.local_globals,
                exclusive: &global_claims,
                locals: &empty_scope_locals,
                mtypes: &mtypes,
                procs: &procs_by_name,
                tracked: &empty_tracked,
                arity: &arity,
            };
            let e = scope.expr(init)?;
            global_inits.push((cell, len, d.ty, e));
        }
    }
    // `_`: a sink for values nothing reads.
    let sink = global_types.len() as u32;
    global_types.push(BasicType::Int);
    hidden_cells.push(sink);
    globals.insert(
        "_".to_string(),
        Var {
            place: Place::Global(sink),
            len: None,
            ty: BasicType::Int,
        },
    );
    for c in &mut global_chans {
        c.offset = global_types.len() as u32;
        global_types.push(BasicType::Byte);
        for _ in 0..c.shape.capacity {
            global_types.extend(c.shape.fields.iter().copied());
        }
    }
    let slots_at = global_types.len() as u32;

    let mut procs = Vec::new();
    let mut asserts = Vec::new();
    let mut uses_timeout = false;
    for p in &spec.proctypes {
        let c = compile_proc(
            p,
            &globals,
            &spec.local_globals,
            &global_claims,
            &mtypes,
            &procs_by_name,
            &arity,
            optimise,
            has_rendezvous,
            &mut asserts,
            &mut uses_timeout,
        )?;
        procs.push(c);
    }
    let slot_cells = 2 + procs.iter().map(|p| p.cells).max().unwrap_or(0);
    let local_chans = procs
        .iter()
        .map(|p| p.chans.len() as u32)
        .max()
        .unwrap_or(0);
    let mut active = Vec::new();
    for (i, p) in spec.proctypes.iter().enumerate() {
        for _ in 0..p.active {
            active.push(i);
        }
    }
    let (slots, warnings) = match (process_bound(spec, &procs_by_name), options.max_processes) {
        (_, Some(n)) => (n.clamp(1, MAX_PROCESSES), Vec::new()),
        (Ok(n), None) => (n.min(MAX_PROCESSES), Vec::new()),
        (Err(d), None) => (
            MAX_PROCESSES,
            vec![format!(
                "{}: orbit keeps room for SPIN's {MAX_PROCESSES} processes in every state \
                 (`--max-processes N` keeps room for N, and stops with an error if more run)",
                d.message
            )],
        ),
    };
    Ok(Program {
        procs,
        global_types,
        global_inits,
        global_chans,
        global_chan_vars,
        slots_at,
        slot_cells,
        slots: slots as u32,
        local_chans,
        active,
        asserts,
        uses_timeout,
        global_names,
        hidden_cells,
        warnings,
    })
}

fn check_name(d: &Decl, vars: &HashMap<String, Var>, mtypes: &HashMap<String, i64>) -> R<()> {
    if vars.contains_key(&d.name) || mtypes.contains_key(&d.name) {
        return Err(Diagnostic::error(
            d.span,
            format!("`{}` is declared twice", d.name),
        ));
    }
    if d.ty == BasicType::Chan && d.init.is_some() {
        return Err(Diagnostic::error(
            d.span,
            "not supported yet: a channel variable initialised with another channel",
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn compile_proc(
    p: &Proctype,
    globals: &HashMap<String, Var>,
    local_globals: &[String],
    global_claims: &HashMap<String, u8>,
    mtypes: &HashMap<String, i64>,
    procs: &HashMap<String, usize>,
    arity: &[usize],
    optimise: bool,
    has_rendezvous: bool,
    asserts: &mut Vec<(String, Span)>,
    uses_timeout: &mut bool,
) -> R<CProc> {
    let mut locals: HashMap<String, Var> = HashMap::new();
    let mut tracked = HashMap::new();
    let mut tracked_cells = Vec::new();
    let mut local_names = Vec::new();
    let mut cell_types = Vec::new();
    let mut params = Vec::new();
    let mut chans = Vec::new();
    let mut decls: Vec<(&Decl, bool)> = p.params.iter().map(|d| (d, true)).collect();
    decls.extend(p.locals.iter().map(|d| (d, false)));
    let mut pending: Vec<PendingInit<'_>> = Vec::new();
    for (d, is_param) in decls {
        check_name(d, &locals, mtypes)?;
        let cell = 2 + cell_types.len() as u32;
        let len = d.len.unwrap_or(1) as u32;
        for _ in 0..len {
            cell_types.push(d.ty);
        }
        local_names.push((d.name.clone(), cell, len, d.ty));
        // SPIN tracks scalars, not the fields of structures (`x.f`).
        if d.len.is_none() && d.ty != BasicType::Chan && !d.name.contains('.') {
            tracked.insert(d.name.clone(), tracked_cells.len());
            tracked_cells.push(cell);
        }
        locals.insert(
            d.name.clone(),
            Var {
                place: Place::Local(cell),
                len: d.len.map(|l| l as u32),
                ty: d.ty,
            },
        );
        if is_param {
            if d.len.is_some() {
                return Err(Diagnostic::error(d.span, "an array cannot be a parameter"));
            }
            params.push((cell, d.ty));
        } else if let Some(shape) = &d.chan {
            for k in 0..len {
                chans.push(ChanStore {
                    offset: 0,
                    shape: shape.clone(),
                });
                pending.push((cell + k, 1, d.ty, None, Some(chans.len() - 1)));
            }
        } else {
            pending.push((cell, len, d.ty, d.init.as_ref(), None));
        }
    }
    for c in &mut chans {
        c.offset = 2 + cell_types.len() as u32;
        cell_types.push(BasicType::Byte);
        for _ in 0..c.shape.capacity {
            cell_types.extend(c.shape.fields.iter().copied());
        }
    }
    let mut claims = global_claims.clone();
    for (name, flag) in &p.exclusive {
        if locals.contains_key(name) {
            *claims.entry(name.clone()).or_default() |= flag;
        }
    }
    let scope = Scope {
        globals,
        local_globals,
        exclusive: &claims,
        locals: &locals,
        mtypes,
        procs,
        tracked: &tracked,
        arity,
    };
    let mut inits = Vec::new();
    for (cell, len, ty, init, chan) in pending {
        let init = match (init, chan) {
            (_, Some(c)) => LocalInit::Chan(c),
            (Some(e), None) => LocalInit::Value(scope.expr(e)?),
            (None, None) => LocalInit::Zero,
        };
        inits.push((cell, len, ty, init));
    }
    let flow = Flow::build(&p.body, &scope, optimise, has_rendezvous)?;
    let mut code = Vec::with_capacity(flow.stmts.len());
    for s in &flow.stmts {
        code.push(scope.stmt(s, asserts, uses_timeout)?);
    }
    let name = if p.name == ":init:" {
        "init".to_string()
    } else {
        p.name.clone()
    };
    Ok(CProc {
        name,
        flow,
        code,
        local_names,
        tracked_cells,
        params,
        inits,
        chans,
        cells: cell_types.len() as u32,
        cell_types,
    })
}

/// The names that some expression reads (not counting `printf`s).
fn names_read(spec: &Spec) -> std::collections::HashSet<String> {
    use super::ast::Stmt;
    fn expr(e: &Expr, out: &mut std::collections::HashSet<String>) {
        match e {
            Expr::Var(v) => var(v, out, true),
            Expr::Unary(_, a, _) => expr(a, out),
            Expr::Binary(_, a, b, _) | Expr::Index(a, b, _, _) => {
                expr(a, out);
                expr(b, out);
            }
            Expr::Cond(a, b, c, _) => {
                expr(a, out);
                expr(b, out);
                expr(c, out);
            }
            Expr::ChanQuery(_, v, _) => var(v, out, true),
            Expr::Poll(v, args, _) => {
                var(v, out, true);
                recv(args, out);
            }
            Expr::Run(_, args, _) => args.iter().for_each(|a| expr(a, out)),
            Expr::Const(..) | Expr::Pid(_) | Expr::NrPr(_) | Expr::Timeout(_) => {}
        }
    }
    fn var(v: &VarRef, out: &mut std::collections::HashSet<String>, read: bool) {
        if read {
            out.insert(v.name.clone());
        }
        if let Some(i) = &v.index {
            expr(i, out);
        }
    }
    fn recv(args: &[RecvArg], out: &mut std::collections::HashSet<String>) {
        for a in args {
            match a {
                RecvArg::Var(v) => var(v, out, false),
                RecvArg::Const(e) | RecvArg::Eval(e) => expr(e, out),
            }
        }
    }
    fn stmts(ss: &[Stmt], out: &mut std::collections::HashSet<String>) {
        for s in ss {
            match &s.kind {
                StmtKind::Expr(e) | StmtKind::Assert(e) => expr(e, out),
                StmtKind::Assign(v, e) => {
                    var(v, out, false);
                    expr(e, out);
                }
                StmtKind::Incr(v) | StmtKind::Decr(v) => var(v, out, true),
                StmtKind::Send(c, args) => {
                    var(c, out, true);
                    args.iter().for_each(|a| expr(a, out));
                }
                StmtKind::Recv(c, args) => {
                    var(c, out, true);
                    recv(args, out);
                }
                StmtKind::If(opts) | StmtKind::Do(opts) => {
                    opts.iter().for_each(|o| stmts(&o.stmts, out))
                }
                StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => {
                    stmts(&b.stmts, out)
                }
                StmtKind::Print(_) | StmtKind::Break | StmtKind::Goto(_) | StmtKind::Else => {}
            }
        }
    }
    let mut out = std::collections::HashSet::new();
    for d in &spec.globals {
        if let Some(e) = &d.init {
            expr(e, &mut out);
        }
    }
    for p in &spec.proctypes {
        for d in p.locals.iter().chain(&p.params) {
            if let Some(e) = &d.init {
                expr(e, &mut out);
            }
        }
        stmts(&p.body.stmts, &mut out);
    }
    out
}

/// How many processes can exist at once: `active` ones and those `run`
/// starts, where that is bounded without running the model (no `run` in
/// a loop, no proctype starting itself).
fn process_bound(spec: &Spec, procs: &HashMap<String, usize>) -> R<usize> {
    // runs[p] = (proctype started, span, inside a loop) for each `run` in p.
    let mut runs: Vec<Vec<(usize, Span, bool)>> = Vec::new();
    for p in &spec.proctypes {
        let mut out = Vec::new();
        collect_runs(&p.body.stmts, false, procs, &mut out);
        runs.push(out);
    }
    let n = spec.proctypes.len();
    let mut count: Vec<Option<usize>> = vec![None; n];
    fn instances(
        p: usize,
        spec: &Spec,
        runs: &[Vec<(usize, Span, bool)>],
        count: &mut Vec<Option<usize>>,
        visiting: &mut Vec<bool>,
    ) -> R<usize> {
        if let Some(c) = count[p] {
            return Ok(c);
        }
        let mut total = spec.proctypes[p].active;
        for (q, qruns) in runs.iter().enumerate() {
            for &(target, span, in_loop) in qruns {
                if target != p {
                    continue;
                }
                if in_loop || visiting[q] || q == p {
                    return Err(Diagnostic::error(
                        span,
                        format!(
                            "a `run` may start `{}` without a bound orbit can see (in a loop or a recursion)",
                            spec.proctypes[p].name
                        ),
                    ));
                }
                visiting[p] = true;
                let k = instances(q, spec, runs, count, visiting)?;
                visiting[p] = false;
                total += k;
            }
        }
        count[p] = Some(total);
        Ok(total)
    }
    let mut total = 0;
    let mut visiting = vec![false; n];
    for p in 0..n {
        total += instances(p, spec, &runs, &mut count, &mut visiting)?;
    }
    Ok(total.max(1))
}

fn collect_runs(
    stmts: &[super::ast::Stmt],
    in_loop: bool,
    procs: &HashMap<String, usize>,
    out: &mut Vec<(usize, Span, bool)>,
) {
    fn expr(
        e: &Expr,
        in_loop: bool,
        procs: &HashMap<String, usize>,
        out: &mut Vec<(usize, Span, bool)>,
    ) {
        match e {
            Expr::Run(name, args, span) => {
                if let Some(&p) = procs.get(name) {
                    out.push((p, *span, in_loop));
                }
                args.iter().for_each(|a| expr(a, in_loop, procs, out));
            }
            Expr::Unary(_, a, _) => expr(a, in_loop, procs, out),
            Expr::Binary(_, a, b, _) => {
                expr(a, in_loop, procs, out);
                expr(b, in_loop, procs, out);
            }
            Expr::Cond(a, b, c, _) => {
                expr(a, in_loop, procs, out);
                expr(b, in_loop, procs, out);
                expr(c, in_loop, procs, out);
            }
            _ => {}
        }
    }
    // A backward `goto` makes a loop too: any label in the body counts.
    for s in stmts {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Assign(_, e) | StmtKind::Assert(e) => {
                expr(e, in_loop, procs, out)
            }
            StmtKind::If(opts) => opts
                .iter()
                .for_each(|o| collect_runs(&o.stmts, in_loop, procs, out)),
            StmtKind::Do(opts) => opts
                .iter()
                .for_each(|o| collect_runs(&o.stmts, true, procs, out)),
            StmtKind::Atomic(b) | StmtKind::DStep(b) | StmtKind::Block(b) => {
                collect_runs(&b.stmts, in_loop, procs, out)
            }
            _ => {}
        }
    }
}

impl Scope<'_> {
    fn var(&self, v: &VarRef) -> R<&Var> {
        self.locals
            .get(&v.name)
            .or_else(|| self.globals.get(&v.name))
            .ok_or_else(|| Diagnostic::error(v.span, format!("`{}` is not declared", v.name)))
    }

    /// Whether `v` names an `mtype` constant (not a variable).
    fn is_mtype(&self, v: &VarRef) -> bool {
        v.index.is_none()
            && !self.locals.contains_key(&v.name)
            && !self.globals.contains_key(&v.name)
            && self.mtypes.contains_key(&v.name)
    }

    fn lvalue(&self, v: &VarRef) -> R<Lv> {
        let var = self.var(v)?;
        let index = match (&v.index, var.len) {
            (Some(i), Some(_)) => Some(self.expr(i)?),
            (None, None) => None,
            (Some(_), None) => {
                return Err(Diagnostic::error(
                    v.span,
                    format!("`{}` is no array", v.name),
                ));
            }
            (None, Some(_)) => {
                return Err(Diagnostic::error(
                    v.span,
                    format!("the array `{}` needs an index", v.name),
                ));
            }
        };
        Ok(Lv {
            place: var.place,
            len: var.len,
            ty: var.ty,
            index,
            span: v.span,
        })
    }

    fn load(&self, v: &VarRef) -> R<Ex> {
        if v.name == "_" {
            return Err(Diagnostic::error(v.span, "`_` can be written, not read"));
        }
        if v.index.is_none()
            && !self.locals.contains_key(&v.name)
            && !self.globals.contains_key(&v.name)
            && let Some(&m) = self.mtypes.get(&v.name)
        {
            return Ok(Ex::Const(m));
        }
        let lv = self.lvalue(v)?;
        Ok(match lv.index {
            None => Ex::Load(lv.place, lv.ty),
            Some(i) => Ex::LoadIndexed(lv.place, lv.len.unwrap_or(1), lv.ty, Box::new(i), lv.span),
        })
    }

    fn expr(&self, e: &Expr) -> R<Ex> {
        Ok(match e {
            Expr::Const(v, _) => Ex::Const(*v),
            Expr::Var(v) => self.load(v)?,
            Expr::Unary(op, a, _) => Ex::Unary(op, Box::new(self.expr(a)?)),
            Expr::Binary(op, a, b, span) => {
                Ex::Binary(op, Box::new(self.expr(a)?), Box::new(self.expr(b)?), *span)
            }
            Expr::Cond(c, a, b, _) => Ex::Cond(
                Box::new(self.expr(c)?),
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
            ),
            Expr::ChanQuery(op, v, span) => Ex::ChanQuery(op, Box::new(self.chan(v)?), *span),
            Expr::Poll(v, args, span) => {
                let mut out = Vec::new();
                for a in args {
                    out.push(match a {
                        RecvArg::Var(v) if self.is_mtype(v) => {
                            Some(Ex::Const(self.mtypes[&v.name]))
                        }
                        RecvArg::Var(v) => {
                            self.lvalue(v)?;
                            None
                        }
                        RecvArg::Const(e) | RecvArg::Eval(e) => Some(self.expr(e)?),
                    });
                }
                Ex::Poll(Box::new(self.chan(v)?), out, *span)
            }
            Expr::Run(name, args, span) => {
                let Some(&p) = self.procs.get(name) else {
                    return Err(Diagnostic::error(*span, format!("no proctype `{name}`")));
                };
                if name == ":init:" {
                    return Err(Diagnostic::error(*span, "`init` cannot be run"));
                }
                if args.len() != self.arity[p] {
                    return Err(Diagnostic::error(
                        *span,
                        format!(
                            "proctype `{name}` takes {} arguments, and {} are given",
                            self.arity[p],
                            args.len()
                        ),
                    ));
                }
                let args = args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?;
                Ex::Run(p, args, *span)
            }
            Expr::Pid(_) => Ex::Pid,
            Expr::NrPr(_) => Ex::NrPr,
            Expr::Timeout(_) => Ex::Timeout,
            Expr::Index(outer, inner, len, span) => Ex::Index(
                Box::new(self.expr(outer)?),
                Box::new(self.expr(inner)?),
                *len,
                *span,
            ),
        })
    }

    fn chan(&self, v: &VarRef) -> R<Ex> {
        let var = self.var(v)?;
        if var.ty != BasicType::Chan {
            return Err(Diagnostic::error(
                v.span,
                format!("`{}` is no channel", v.name),
            ));
        }
        self.load(v)
    }

    fn stmt(&self, s: &StmtKind, asserts: &mut Vec<(String, Span)>, timeout: &mut bool) -> R<Code> {
        Ok(match s {
            StmtKind::Expr(e) => {
                *timeout |= mentions_timeout(e);
                Code::Expr(self.expr(e)?)
            }
            StmtKind::Assign(v, e) => Code::Assign(self.lvalue(v)?, self.expr(e)?),
            StmtKind::Incr(v) => Code::Add(self.lvalue(v)?, 1),
            StmtKind::Decr(v) => Code::Add(self.lvalue(v)?, -1),
            StmtKind::Send(c, args) => Code::Send(
                self.chan(c)?,
                args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?,
                c.span,
            ),
            StmtKind::Recv(c, args) => {
                let mut out = Vec::new();
                for a in args {
                    out.push(match a {
                        RecvArg::Var(v) if self.is_mtype(v) => {
                            RArg::Match(Ex::Const(self.mtypes[&v.name]))
                        }
                        RecvArg::Var(v) => RArg::Store(self.lvalue(v)?),
                        RecvArg::Const(e) | RecvArg::Eval(e) => RArg::Match(self.expr(e)?),
                    });
                }
                Code::Recv(self.chan(c)?, out, c.span)
            }
            StmtKind::Assert(e) => {
                asserts.push((String::new(), e.span()));
                Code::Assert(self.expr(e)?, asserts.len() as u32)
            }
            StmtKind::Print(_) => Code::Nop,
            other => unreachable!("not a basic statement: {other:?}"),
        })
    }
}

fn mentions_timeout(e: &Expr) -> bool {
    match e {
        Expr::Timeout(_) => true,
        Expr::Unary(_, a, _) => mentions_timeout(a),
        Expr::Binary(_, a, b, _) => mentions_timeout(a) || mentions_timeout(b),
        Expr::Cond(a, b, c, _) => mentions_timeout(a) || mentions_timeout(b) || mentions_timeout(c),
        _ => false,
    }
}

impl Program {
    /// The types of every cell of the state, in order (for packing).
    pub fn cell_types(&self) -> Vec<BasicType> {
        let mut out = self.global_types.clone();
        let ptype_bits = crate::model::bits_for(self.procs.len() as u64);
        let pc_bits = crate::model::bits_for(
            self.procs
                .iter()
                .map(|p| p.flow.elems.len() as u64 + 1)
                .max()
                .unwrap_or(1),
        );
        for _ in 0..self.slots {
            out.push(BasicType::Unsigned(ptype_bits.max(1) as u8));
            out.push(BasicType::Unsigned(pc_bits.max(1) as u8));
            for k in 0..self.slot_cells - 2 {
                // The widest type any proctype keeps in this cell.
                let widest = self
                    .procs
                    .iter()
                    .filter_map(|p| p.cell_types.get(k as usize))
                    .map(|t| t.bits().0)
                    .max()
                    .unwrap_or(1);
                out.push(BasicType::Unsigned(widest.max(1) as u8));
            }
        }
        out
    }
}
