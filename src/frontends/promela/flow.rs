//! The control flow of a proctype as SPIN builds it, so that orbit's
//! states are SPIN's and SPIN's counts are oracles.
//!
//! A proctype's body becomes *elements* linked by `next`: one per basic
//! statement, one per `if`/`do` (whose options start at their first
//! elements), one per `atomic`/`d_step`/`{ }` block, and SPIN's
//! structural elements (the `.` that closes an `if`, the target of a
//! `do`'s `break`, the final `-end-`). A process's program counter is an
//! element; jumps through `.`, `goto` and `break` are followed at once
//! (`hunt`), except where they leave an atomic sequence. On this graph
//! orbit runs SPIN's two default optimisations, which change which states
//! exist:
//!
//! - **statement merging**: a statement is followed, in the same step, by
//!   the local statements after it that have no alternatives (SPIN's
//!   `-o3` turns this off);
//! - **dead variables**: a local variable that is written again before it
//!   is read is reset to 0 after its last use (`-o1`, `-o2`).
//!
//! The transitions of each state are then those of SPIN's transition
//! table: the options of an `if`, `do` or block are flattened into the
//! transitions of their first statements; an `else` comes last.

use super::ast::{Expr, RecvArg, Seq, Stmt, StmtKind, VarRef};
use crate::diag::{Diagnostic, Span};
use std::collections::HashMap;

/// Element statuses, as SPIN's.
const ATOM: u8 = 2;
const L_ATOM: u8 = 4;
const D_ATOM: u8 = 32;

/// An element's id: its index in [`Flow::elems`]. SPIN's state numbers
/// are these plus one; state 0 is "no state".
pub type ElemId = usize;

/// What an element is.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A basic statement: an index into [`Flow::stmts`].
    Stmt(usize),
    /// `else`.
    Else,
    /// `goto` (and `break`): the element jumped to.
    Goto(ElemId),
    /// The target of a `do`'s `break` (SPIN's `BREAK` element).
    BreakTarget,
    /// A `.`: where the options of an `if` or `do` meet.
    Dot,
    /// `if`.
    If,
    /// `do`.
    Do,
    /// `atomic { }` with its body.
    Atomic(usize),
    /// `d_step { }` with its body.
    DStep(usize),
    /// `{ }` (and an `atomic` inside another) with its body.
    Block(usize),
    /// The end of the proctype (`-end-`): the process dies here.
    Stop,
}

/// One element.
#[derive(Clone, Debug)]
pub struct Element {
    /// What it is.
    pub kind: Kind,
    /// The element after it.
    pub next: Option<ElemId>,
    /// The options of an `if` or `do` (indices into [`Flow::seqs`]).
    pub options: Vec<usize>,
    /// SPIN's status bits (atomic, last of an atomic, in a `d_step`).
    status: u8,
    /// Whether it carries a label (any: SPIN merges through no label).
    labelled: bool,
    /// Whether it carries an `end` label.
    pub end_label: bool,
    /// Where it is in the source.
    pub span: Span,
    /// The state a merge chain from this element ends at (0: none).
    merge: usize,
    merge_start: usize,
    merge_single: usize,
    /// Locals (symbols) reset to 0 after the element runs.
    pub dead: Vec<usize>,
}

/// A sequence of elements.
#[derive(Clone, Copy, Debug)]
pub struct Sequence {
    /// Its first element.
    pub first: ElemId,
    /// Its last element.
    pub last: ElemId,
}

/// One transition of a state: the element run first, the elements merged
/// after it, and where the process goes.
#[derive(Clone, Debug)]
pub struct Trans {
    /// The element whose statement decides whether the transition is
    /// executable.
    pub elem: ElemId,
    /// The elements run after it in the same step (merged statements).
    pub chain: Vec<ElemId>,
    /// The state after the step (`None`: no state, after `-end-`).
    pub target: Option<ElemId>,
    /// Whether the process keeps control after the step (inside an
    /// atomic sequence).
    pub atomic: bool,
}

/// What the analyses need to know of the names in a statement.
pub trait Names {
    /// The symbol of a local scalar that dead-variable analysis tracks
    /// (not an array, not a channel), if `name` is one.
    fn tracked_local(&self, name: &str) -> Option<usize>;
    /// Whether `name` is a global variable (not one declared `local`).
    fn is_global(&self, name: &str) -> bool;
    /// The `xr` (1) and `xs` (2) claims on the channel variable `name`.
    fn exclusive(&self, name: &str) -> u8;
}

/// The control flow of one proctype.
#[derive(Clone, Debug, Default)]
pub struct Flow {
    /// Its elements.
    pub elems: Vec<Element>,
    /// Its sequences.
    pub seqs: Vec<Sequence>,
    /// The basic statements the elements run.
    pub stmts: Vec<StmtKind>,
    /// The state a new process starts in.
    pub start: ElemId,
    /// The transitions of each state.
    pub table: Vec<Vec<Trans>>,
    /// Whether each statement refers to global state.
    global_stmts: Vec<bool>,
    /// Whether the model declares a rendezvous channel (SPIN then merges
    /// no send).
    has_rendezvous: bool,
}

struct Builder<'n> {
    flow: Flow,
    labels: HashMap<String, ElemId>,
    gotos: Vec<(ElemId, String, Span)>,
    breaks: Vec<Vec<ElemId>>,
    _names: std::marker::PhantomData<&'n ()>,
}

impl Flow {
    /// Builds the flow of a proctype body, runs SPIN's optimisations
    /// (`optimise`: merging and dead variables, SPIN's defaults) and
    /// makes the transition table.
    pub fn build(
        body: &Seq,
        names: &dyn Names,
        optimise: bool,
        has_rendezvous: bool,
    ) -> Result<Flow, Diagnostic> {
        let mut b = Builder {
            flow: Flow::default(),
            labels: HashMap::new(),
            gotos: Vec::new(),
            breaks: Vec::new(),
            _names: std::marker::PhantomData,
        };
        let top = b.sequence(body, Some(Kind::Stop))?;
        for (goto, label, span) in std::mem::take(&mut b.gotos) {
            let Some(&target) = b.labels.get(&label) else {
                return Err(Diagnostic::error(
                    span,
                    format!("no label `{label}` in this proctype"),
                ));
            };
            b.flow.elems[goto].kind = Kind::Goto(target);
        }
        let mut flow = b.flow;
        flow.has_rendezvous = has_rendezvous;
        flow.global_stmts = flow
            .stmts
            .iter()
            .map(|s| stmt_is_global(s, names))
            .collect();
        flow.link_block_ends();
        let top = flow.seqs[top];
        if optimise {
            let fsm = Fsm::build(&flow, top, names);
            fsm.dead_variables(&mut flow);
            fsm.merge(&mut flow);
        }
        flow.patch_atomics();
        flow.start = flow.hunt(top.first, flow.elems[top.first].status);
        flow.table = (0..flow.elems.len()).map(|e| flow.transitions(e)).collect();
        Ok(flow)
    }

    /// The states a process can reach from its start.
    pub fn reachable(&self) -> impl Iterator<Item = ElemId> + '_ {
        let mut seen = vec![false; self.elems.len()];
        let mut stack = vec![self.start];
        seen[self.start] = true;
        while let Some(s) = stack.pop() {
            for t in &self.table[s] {
                if let Some(n) = t.target
                    && !seen[n]
                {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (0..self.elems.len()).filter(move |&s| seen[s])
    }

    /// Whether a process at `state` is at a valid end state.
    pub fn valid_end(&self, state: ElemId) -> bool {
        let e = &self.elems[state];
        e.end_label || e.kind == Kind::Stop
    }

    /// The first element of a `d_step`'s body.
    pub fn dstep_entry(&self, e: ElemId) -> ElemId {
        self.hunt_start(self.body(e).expect("a d_step").first)
    }

    /// Whether the element is inside a `d_step`.
    pub fn in_dstep(&self, e: ElemId) -> bool {
        self.elems[e].status & D_ATOM != 0
    }

    /// SPIN's `huntele`: from `e`, follows `goto`s, `.`s and `break`
    /// targets to the element that runs, stopping before leaving an
    /// atomic sequence (`status` is the status of the element jumping).
    fn hunt(&self, e: ElemId, status: u8) -> ElemId {
        // State 0 is no element's: nothing stops the hunt early.
        self.hunt_until(e, status, 0)
    }

    /// SPIN's `huntstart`: skips `.` elements.
    fn hunt_start(&self, mut e: ElemId) -> ElemId {
        for _ in 0..200 {
            match (&self.elems[e].kind, self.elems[e].next) {
                (Kind::Dot, Some(n)) => e = n,
                _ => return e,
            }
        }
        e
    }

    /// The body of a block element.
    fn body(&self, e: ElemId) -> Option<Sequence> {
        match self.elems[e].kind {
            Kind::Atomic(s) | Kind::DStep(s) | Kind::Block(s) => Some(self.seqs[s]),
            _ => None,
        }
    }

    /// A block's body goes on where the block goes on.
    fn link_block_ends(&mut self) {
        for e in 0..self.elems.len() {
            if let Some(body) = self.body(e) {
                self.elems[body.last].next = self.elems[e].next;
            }
        }
    }

    /// SPIN's `patch_atomic`: a `goto` leaving an atomic sequence ends it.
    fn patch_atomics(&mut self) {
        for e in 0..self.elems.len() {
            if let Kind::Goto(g) = self.elems[e].kind {
                let (fs, gs) = (self.elems[e].status, self.elems[g].status);
                if fs & (ATOM | L_ATOM) != 0 && gs & (ATOM | L_ATOM) == 0 {
                    self.elems[e].status = (fs & !ATOM) | L_ATOM;
                }
                let fs = self.elems[e].status;
                if fs & L_ATOM != 0 && gs & (ATOM | L_ATOM) != 0 {
                    self.elems[e].status = (fs & !L_ATOM) | ATOM;
                }
            }
        }
    }

    /// Where the single transition of a basic element goes (SPIN's
    /// `put_el`), without merging.
    pub fn plain_target(&self, e: ElemId) -> Option<ElemId> {
        let el = &self.elems[e];
        match el.kind {
            Kind::Goto(g) => Some(self.hunt(g, el.status)),
            _ => el.next.map(|n| self.hunt(n, el.status)),
        }
    }

    /// The options of a choice state (an `if`, `do` or block), each the
    /// element its option starts with, flattened through nested choices
    /// (SPIN's `retrans`).
    pub fn options(&self, e: ElemId, out: &mut Vec<ElemId>, depth: usize) {
        let starts: Vec<ElemId> = match &self.elems[e].kind {
            Kind::If | Kind::Do => self.elems[e]
                .options
                .iter()
                .map(|&s| self.hunt_start(self.seqs[s].first))
                .filter(|&g| !self.is_false(g))
                .collect(),
            Kind::Atomic(_) | Kind::Block(_) => {
                vec![self.hunt_start(self.body(e).expect("a block").first)]
            }
            _ => unreachable!("options of a basic element"),
        };
        for g in starts {
            if self.is_choice(g) && depth < 64 {
                self.options(g, out, depth + 1);
            } else {
                out.push(g);
            }
        }
    }

    /// Whether state `e` is a choice (an `if`, `do` or block): its
    /// transitions are its options'.
    pub fn is_choice(&self, e: ElemId) -> bool {
        matches!(
            self.elems[e].kind,
            Kind::If | Kind::Do | Kind::Atomic(_) | Kind::Block(_)
        )
    }

    /// An option starting with the constant `false` is dropped.
    fn is_false(&self, e: ElemId) -> bool {
        matches!(self.elems[e].kind, Kind::Stmt(s) if matches!(self.stmts[s], StmtKind::Expr(Expr::Const(0, _))))
    }

    /// The transitions of state `e`.
    fn transitions(&self, e: ElemId) -> Vec<Trans> {
        if self.is_choice(e) {
            let mut starts = Vec::new();
            self.options(e, &mut starts, 0);
            starts
                .into_iter()
                .map(|g| self.basic_transition(g))
                .collect()
        } else {
            vec![self.basic_transition(e)]
        }
    }

    /// The transition of a basic element, with the statements merged
    /// after it (SPIN's `case_cache`).
    fn basic_transition(&self, e: ElemId) -> Trans {
        let el = &self.elems[e];
        let ntarget = if el.merge_start != 0 {
            el.merge_start
        } else {
            el.merge
        };
        let mut atomic = el.status & ATOM != 0;
        let mut chain = Vec::new();
        if ntarget == 0 || matches!(el.kind, Kind::DStep(_)) {
            return Trans {
                elem: e,
                chain,
                target: self.plain_target(e),
                atomic,
            };
        }
        let mut f = e;
        let target = Some(ntarget - 1);
        for _ in 0..self.elems.len() {
            let next = match self.elems[f].kind {
                Kind::Goto(g) if g + 1 == ntarget => Some(g),
                Kind::Goto(g) => Some(self.hunt_until(g, self.elems[f].status, ntarget)),
                _ => self.elems[f].next,
            };
            let Some(n) = next else {
                break;
            };
            if n + 1 == ntarget {
                break;
            }
            let fe = &self.elems[n];
            if fe.merge == 0 && fe.merge_single == 0 {
                // SPIN's "bad hop": the chain stops here (and the step
                // still ends at the chain's end, as SPIN's does).
                break;
            }
            chain.push(n);
            atomic = fe.status & ATOM != 0;
            f = n;
        }
        Trans {
            elem: e,
            chain,
            target,
            atomic,
        }
    }

    /// [`Self::hunt`] that stops at state `stop`.
    fn hunt_until(&self, mut e: ElemId, status: u8, stop: usize) -> ElemId {
        for _ in 0..500 {
            if e + 1 == stop {
                return e;
            }
            let g = match self.elems[e].kind {
                Kind::Goto(t) => t,
                Kind::Dot | Kind::BreakTarget => match self.elems[e].next {
                    Some(n) => n,
                    None => return e,
                },
                _ => return e,
            };
            if status & ATOM != 0 && self.elems[g].status & ATOM == 0 {
                return e;
            }
            e = g;
        }
        e
    }
}

impl Builder<'_> {
    fn new_el(&mut self, kind: Kind, span: Span) -> ElemId {
        self.flow.elems.push(Element {
            kind,
            next: None,
            options: Vec::new(),
            status: 0,
            labelled: false,
            end_label: false,
            span,
            merge: 0,
            merge_start: 0,
            merge_single: 0,
            dead: Vec::new(),
        });
        self.flow.elems.len() - 1
    }

    /// Appends `e` to the open sequence `seq` (first, last).
    fn add_el(&mut self, e: ElemId, seq: &mut Option<(ElemId, ElemId)>) {
        match seq {
            None => *seq = Some((e, e)),
            Some((_, last)) => {
                self.flow.elems[*last].next = Some(e);
                *last = e;
            }
        }
    }

    fn label(&mut self, e: ElemId, labels: &[(String, Span)]) -> Result<(), Diagnostic> {
        for (name, span) in labels {
            if self.labels.insert(name.clone(), e).is_some() {
                return Err(Diagnostic::error(
                    *span,
                    format!("label `{name}` is declared twice"),
                ));
            }
            self.flow.elems[e].labelled = true;
            if name.starts_with("end") {
                self.flow.elems[e].end_label = true;
            }
        }
        Ok(())
    }

    /// Builds a sequence (with `closing` appended: the `-end-` of a body)
    /// and returns its index.
    fn sequence(&mut self, seq: &Seq, closing: Option<Kind>) -> Result<usize, Diagnostic> {
        let mut open: Option<(ElemId, ElemId)> = None;
        let stmts = prune_skips(&seq.stmts);
        for stmt in stmts {
            self.statement(stmt, &mut open)?;
        }
        if let Some(kind) = closing {
            let span = seq.stmts.last().map(|s| s.span).unwrap_or_default();
            let stop = self.new_el(kind, span);
            self.add_el(stop, &mut open);
        }
        let Some((first, last)) = open else {
            return Err(Diagnostic::error(Span::default(), "an empty sequence"));
        };
        self.flow.seqs.push(Sequence { first, last });
        Ok(self.flow.seqs.len() - 1)
    }

    fn statement(
        &mut self,
        stmt: &Stmt,
        open: &mut Option<(ElemId, ElemId)>,
    ) -> Result<(), Diagnostic> {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::If(options) | StmtKind::Do(options) => {
                let is_do = matches!(stmt.kind, StmtKind::Do(_));
                if is_do {
                    self.breaks.push(Vec::new());
                }
                let mut seqs = Vec::new();
                for o in options {
                    seqs.push(self.sequence(o, None)?);
                }
                // `else` goes last.
                let is_else =
                    |b: &Self, s: usize| b.flow.elems[b.flow.seqs[s].first].kind == Kind::Else;
                if let Some(k) = seqs.iter().position(|&s| is_else(self, s)) {
                    if seqs.iter().filter(|&&s| is_else(self, s)).count() > 1 {
                        return Err(Diagnostic::error(span, "two `else` options"));
                    }
                    let s = seqs.remove(k);
                    seqs.push(s);
                }
                let e = self.new_el(if is_do { Kind::Do } else { Kind::If }, span);
                let t = self.new_el(Kind::Dot, span);
                for &s in &seqs {
                    let last = self.flow.seqs[s].last;
                    self.flow.elems[last].next = Some(t);
                    self.flow.seqs[s].last = t;
                }
                self.flow.elems[e].options = seqs;
                self.label(e, &stmt.labels)?;
                if is_do {
                    self.add_el(t, open);
                    let brk = self.new_el(Kind::BreakTarget, span);
                    // SPIN labels the break target, so nothing merges into it.
                    self.flow.elems[brk].labelled = true;
                    for g in self.breaks.pop().unwrap_or_default() {
                        self.flow.elems[g].kind = Kind::Goto(brk);
                    }
                    self.add_el(e, open);
                    self.add_el(brk, open);
                } else {
                    self.add_el(e, open);
                    self.add_el(t, open);
                }
                return Ok(());
            }
            _ => {}
        }
        let e = match &stmt.kind {
            StmtKind::Atomic(body) | StmtKind::DStep(body) | StmtKind::Block(body) => {
                let s = self.sequence(body, None)?;
                let kind = match stmt.kind {
                    StmtKind::Atomic(_) => Kind::Atomic(s),
                    StmtKind::DStep(_) => Kind::DStep(s),
                    _ => Kind::Block(s),
                };
                match kind {
                    Kind::Atomic(_) => self.make_atomic(s, 0),
                    Kind::DStep(_) => {
                        self.make_atomic(s, D_ATOM);
                        self.check_dstep(s)?;
                    }
                    _ => {}
                }
                self.new_el(kind, span)
            }
            StmtKind::Break => {
                let Some(list) = self.breaks.last_mut() else {
                    return Err(Diagnostic::error(span, "`break` outside a `do`"));
                };
                let e = self.flow.elems.len();
                list.push(e);
                self.new_el(Kind::Goto(usize::MAX), span)
            }
            StmtKind::Goto(label) => {
                let e = self.new_el(Kind::Goto(usize::MAX), span);
                self.gotos.push((e, label.clone(), span));
                e
            }
            StmtKind::Else => self.new_el(Kind::Else, span),
            other => {
                self.flow.stmts.push(other.clone());
                self.new_el(Kind::Stmt(self.flow.stmts.len() - 1), span)
            }
        };
        let is_goto = matches!(stmt.kind, StmtKind::Goto(_) | StmtKind::Break);
        if is_goto && stmt.labels.iter().any(|(l, _)| is_special_label(l)) {
            // SPIN puts a special label of a `goto` on a `skip` before it.
            self.flow.stmts.push(StmtKind::Expr(Expr::Const(1, span)));
            let skip = self.new_el(Kind::Stmt(self.flow.stmts.len() - 1), span);
            self.label(skip, &stmt.labels)?;
            self.add_el(skip, open);
        } else {
            self.label(e, &stmt.labels)?;
        }
        self.add_el(e, open);
        Ok(())
    }

    /// SPIN's `make_atomic`: every element of the sequence is atomic, the
    /// last ends the atomic sequence.
    fn make_atomic(&mut self, s: usize, added: u8) {
        let seq = self.flow.seqs[s];
        self.walk_atomic(seq.first, seq.last, added);
        let last = seq.last;
        match self.flow.elems[last].kind {
            Kind::Atomic(inner) | Kind::Block(inner) => self.make_atomic(inner, added),
            _ => {
                let el = &mut self.flow.elems[last];
                el.status = (el.status & !ATOM) | L_ATOM;
            }
        }
    }

    fn walk_atomic(&mut self, first: ElemId, last: ElemId, added: u8) {
        let mut f = first;
        for _ in 0..=self.flow.elems.len() {
            self.flow.elems[f].status |= ATOM | added;
            match self.flow.elems[f].kind {
                Kind::Atomic(inner) | Kind::Block(inner) => {
                    // An atomic inside an atomic is a plain block.
                    self.flow.elems[f].kind = Kind::Block(inner);
                    let seq = self.flow.seqs[inner];
                    self.walk_atomic(seq.first, seq.last, added);
                }
                Kind::DStep(inner) if added != 0 => {
                    self.flow.elems[f].kind = Kind::Block(inner);
                    let seq = self.flow.seqs[inner];
                    self.walk_atomic(seq.first, seq.last, added);
                }
                _ => {}
            }
            for o in self.flow.elems[f].options.clone() {
                let seq = self.flow.seqs[o];
                self.walk_atomic(seq.first, seq.last, added);
            }
            if f == last {
                break;
            }
            match self.flow.elems[f].next {
                Some(n) => f = n,
                None => break,
            }
        }
    }

    /// A `d_step` runs as one step: orbit refuses what cannot run so.
    fn check_dstep(&self, s: usize) -> Result<(), Diagnostic> {
        let mut stack = vec![self.flow.seqs[s]];
        let mut seen = vec![false; self.flow.elems.len()];
        while let Some(seq) = stack.pop() {
            let mut f = seq.first;
            loop {
                if seen[f] {
                    break;
                }
                seen[f] = true;
                let el = &self.flow.elems[f];
                if let Kind::Stmt(k) = el.kind
                    && let StmtKind::Send(..) | StmtKind::Recv(..) = self.flow.stmts[k]
                    && f != self.flow.seqs[s].first
                {
                    return Err(Diagnostic::error(
                        el.span,
                        "not supported yet: channel operations inside a `d_step` after its first statement",
                    ));
                }
                for &o in &el.options {
                    stack.push(self.flow.seqs[o]);
                }
                if let Some(b) = match el.kind {
                    Kind::Block(b) | Kind::Atomic(b) | Kind::DStep(b) => Some(b),
                    _ => None,
                } {
                    stack.push(self.flow.seqs[b]);
                }
                if f == seq.last {
                    break;
                }
                match el.next {
                    Some(n) => f = n,
                    None => break,
                }
            }
        }
        Ok(())
    }
}

fn is_special_label(l: &str) -> bool {
    l.starts_with("end") || l.starts_with("accept") || l.starts_with("progress")
}

fn is_skip_like(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::Expr(Expr::Const(1, _)) | StmtKind::Print(_)
    )
}

/// SPIN's `check_sequence`: the second and later of a run of unlabelled
/// `skip`s inside a sequence are dropped (not the first or last
/// statement).
fn prune_skips(stmts: &[Stmt]) -> Vec<&Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    let mut run = 0;
    for (i, s) in stmts.iter().enumerate() {
        if is_skip_like(s) && s.labels.is_empty() {
            run += 1;
            let is_print = matches!(s.kind, StmtKind::Print(_));
            if run > 1 && !is_print && i != 0 && i + 1 != stmts.len() {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(s);
    }
    out
}

/// SPIN's FSM of a proctype (`pangen5.c`): an edge per element, from its
/// state to the state after it, carrying the element's reads and writes.
struct Fsm {
    /// Per state (element + 1; 0: none): its edges, last added first.
    edges: Vec<Vec<Edge>>,
    /// States in the order SPIN lists them (newest first).
    order: Vec<usize>,
    exists: Vec<bool>,
}

#[derive(Clone, Debug)]
struct Edge {
    to: usize,
    step: ElemId,
    reads: Vec<usize>,
    writes: Vec<usize>,
}

impl Fsm {
    fn build(flow: &Flow, top: Sequence, names: &dyn Names) -> Fsm {
        let n = flow.elems.len() + 1;
        let mut fsm = Fsm {
            edges: vec![Vec::new(); n],
            order: Vec::new(),
            exists: vec![false; n],
        };
        let mut done = vec![false; flow.elems.len()];
        fsm.walk(flow, top, names, &mut done);
        fsm.order.reverse();
        fsm
    }

    fn state(&mut self, s: usize) {
        if !self.exists[s] {
            self.exists[s] = true;
            self.order.push(s);
        }
    }

    fn edge(&mut self, flow: &Flow, from: usize, to: usize, step: ElemId, names: &dyn Names) {
        self.state(from);
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        if let Kind::Stmt(k) = flow.elems[step].kind {
            stmt_uses(&flow.stmts[k], names, &mut reads, &mut writes);
        }
        self.edges[from].insert(
            0,
            Edge {
                to,
                step,
                reads,
                writes,
            },
        );
        self.state(to);
    }

    /// SPIN's `ana_seq`.
    fn walk(&mut self, flow: &Flow, seq: Sequence, names: &dyn Names, done: &mut [bool]) {
        let mut e = seq.first;
        loop {
            if !done[e] {
                done[e] = true;
                let from = e + 1;
                let el = &flow.elems[e];
                if !el.options.is_empty() {
                    for &o in &el.options {
                        let g = flow.hunt_start(flow.seqs[o].first);
                        if !flow.is_false(g) {
                            self.edge(flow, from, g + 1, e, names);
                        }
                    }
                    for &o in &el.options {
                        self.walk(flow, flow.seqs[o], names, done);
                    }
                } else if let Some(body) = flow.body(e) {
                    let g = flow.hunt_start(body.first);
                    self.edge(flow, from, g + 1, e, names);
                    self.walk(flow, body, names, done);
                } else {
                    let to = flow.plain_target(e).map_or(0, |t| t + 1);
                    self.edge(flow, from, to, e, names);
                }
            }
            if e == seq.last {
                break;
            }
            match flow.elems[e].next {
                Some(n) => e = n,
                None => break,
            }
        }
    }

    /// SPIN's `FSM_DFS`: whether, from `from`, `var` is written before it
    /// is read on the first path that uses it.
    fn dead_from(&self, from: usize, var: usize, seen: &mut [bool]) -> bool {
        if from == 0 {
            return true;
        }
        if seen[from] {
            return true;
        }
        seen[from] = true;
        for t in &self.edges[from] {
            if t.reads.contains(&var) {
                return false;
            }
            if t.writes.contains(&var) {
                return true;
            }
            if !self.dead_from(t.to, var, seen) {
                return false;
            }
        }
        true
    }

    /// SPIN's `FSM_ANA` and `good_dead`: the locals each element leaves
    /// dead.
    fn dead_variables(&self, flow: &mut Flow) {
        let mut seen = vec![false; self.edges.len()];
        for &s in &self.order {
            for t in &self.edges[s] {
                for (list, is_write) in [(&t.reads, false), (&t.writes, true)] {
                    for &var in list {
                        seen.iter_mut().for_each(|x| *x = false);
                        if !self.dead_from(t.to, var, &mut seen) {
                            continue;
                        }
                        let stmt = match flow.elems[t.step].kind {
                            Kind::Stmt(k) => &flow.stmts[k],
                            _ => continue,
                        };
                        let good = if is_write {
                            !matches!(stmt, StmtKind::Assign(_, Expr::Const(0, _)))
                        } else {
                            matches!(stmt, StmtKind::Expr(_) | StmtKind::Recv(..))
                        };
                        let dead = &mut flow.elems[t.step].dead;
                        if good && !dead.contains(&var) {
                            dead.push(var);
                        }
                    }
                }
            }
        }
    }

    fn eligible(&self, flow: &Flow, state: usize) -> bool {
        let Some(t) = self.edges.get(state).and_then(|e| e.first()) else {
            return false;
        };
        if self.edges[state].len() > 1 {
            return false;
        }
        let el = &flow.elems[t.step];
        if el.labelled {
            return false;
        }
        match &el.kind {
            Kind::Stmt(k) => match &flow.stmts[*k] {
                StmtKind::Assign(..)
                | StmtKind::Incr(_)
                | StmtKind::Decr(_)
                | StmtKind::Assert(_)
                | StmtKind::Print(_) => {}
                _ => return false,
            },
            Kind::Dot | Kind::Goto(_) => {}
            _ => return false,
        }
        el.status & (ATOM | L_ATOM) != 0 || !flow.has_global(t.step)
    }

    fn build_step(&self, flow: &mut Flow, state: usize, stack: &mut Vec<usize>) -> Option<usize> {
        let t = self.edges[state].first()?;
        if flow.elems[t.step].merge != 0 {
            return Some(flow.elems[t.step].merge);
        }
        if !self.eligible(flow, state) || stack.contains(&state) {
            return None;
        }
        stack.push(state);
        let to = t.to;
        let step = t.step;
        let r = if to == 0 {
            None
        } else {
            self.build_step(flow, to, stack)
        };
        flow.elems[step].merge = r.unwrap_or(to);
        stack.pop();
        Some(flow.elems[step].merge)
    }

    /// SPIN's `FSM_MERGER`.
    fn merge(&self, flow: &mut Flow) {
        for &s in &self.order {
            for k in 0..self.edges[s].len() {
                let t = &self.edges[s][k];
                if flow.elems[t.step].merge != 0 {
                    continue;
                }
                if matches!(flow.elems[t.step].kind, Kind::Stmt(i) if matches!(flow.stmts[i], StmtKind::Expr(_) | StmtKind::Send(..) | StmtKind::Recv(..)))
                {
                    continue;
                }
                // Only a state's own single edge can be eligible.
                if self.edges[s].len() > 1 || !self.eligible(flow, s) {
                    continue;
                }
                let to = t.to;
                if to == 0 || !self.eligible(flow, to) {
                    flow.elems[t.step].merge_single = to;
                    continue;
                }
                self.build_step(flow, s, &mut Vec::new());
            }
        }
        // Merge starts: a condition (not `run`), a receive or a buffered
        // send, followed by a merge chain.
        for &s in &self.order {
            for t in &self.edges[s] {
                let el = &flow.elems[t.step];
                if el.merge != 0 {
                    continue;
                }
                let Kind::Stmt(k) = el.kind else {
                    continue;
                };
                let starts = match &flow.stmts[k] {
                    StmtKind::Expr(e) => !has_run(e),
                    StmtKind::Recv(..) => true,
                    StmtKind::Send(..) => !flow.has_rendezvous,
                    _ => false,
                };
                if !starts || self.edges[s].len() > 1 {
                    continue;
                }
                if el.status & (ATOM | L_ATOM) == 0 && flow.has_global(t.step) {
                    continue;
                }
                let Some(g) = self.edges.get(t.to).and_then(|e| e.first()) else {
                    continue;
                };
                let ge = &flow.elems[g.step];
                let start = if ge.merge != 0 {
                    ge.merge
                } else {
                    ge.merge_single
                };
                flow.elems[t.step].merge_start = start;
            }
        }
    }
}

impl Flow {
    /// SPIN's `has_global` of an element's statement.
    fn has_global(&self, e: ElemId) -> bool {
        match &self.elems[e].kind {
            Kind::Stmt(k) => self.global_stmts.get(*k).copied().unwrap_or(true),
            Kind::Else => false,
            _ => false,
        }
    }
}

fn has_run(e: &Expr) -> bool {
    match e {
        Expr::Run(..) => true,
        Expr::Poll(..) => false,
        Expr::Unary(_, a, _) => has_run(a),
        Expr::Binary(_, a, b, _) => has_run(a) || has_run(b),
        Expr::Cond(a, b, c, _) => has_run(a) || has_run(b) || has_run(c),
        _ => false,
    }
}

fn expr_reads(e: &Expr, names: &dyn Names, reads: &mut Vec<usize>) {
    match e {
        Expr::Var(v) => var_read(v, names, reads),
        Expr::Unary(_, a, _) => expr_reads(a, names, reads),
        Expr::Binary(_, a, b, _) | Expr::Index(a, b, _, _) => {
            expr_reads(a, names, reads);
            expr_reads(b, names, reads);
        }
        Expr::Cond(a, b, c, _) => {
            expr_reads(a, names, reads);
            expr_reads(b, names, reads);
            expr_reads(c, names, reads);
        }
        Expr::ChanQuery(_, v, _) => var_read(v, names, reads),
        // SPIN records a poll's channel and its `eval`s, not its variables.
        Expr::Poll(v, args, _) => {
            var_read(v, names, reads);
            for a in args {
                if let RecvArg::Eval(e) = a {
                    expr_reads(e, names, reads);
                }
            }
        }
        Expr::Run(_, args, _) => args.iter().for_each(|a| expr_reads(a, names, reads)),
        Expr::Const(..) | Expr::Pid(_) | Expr::NrPr(_) | Expr::Timeout(_) => {}
    }
}

/// SPIN's `ana_var`: an indexed reference records only its index's reads.
fn var_read(v: &VarRef, names: &dyn Names, reads: &mut Vec<usize>) {
    match &v.index {
        Some(i) => expr_reads(i, names, reads),
        None => record(v, names, reads),
    }
}

fn var_write(v: &VarRef, names: &dyn Names, reads: &mut Vec<usize>, writes: &mut Vec<usize>) {
    match &v.index {
        Some(i) => expr_reads(i, names, reads),
        None => record(v, names, writes),
    }
}

/// Adds `v`'s symbol to `list` if it is a tracked local.
fn record(v: &VarRef, names: &dyn Names, list: &mut Vec<usize>) {
    if let Some(s) = names.tracked_local(&v.name)
        && !list.contains(&s)
    {
        list.push(s);
    }
}

/// The tracked locals a statement reads and writes (SPIN's `ana_stmnt`).
fn stmt_uses(s: &StmtKind, names: &dyn Names, reads: &mut Vec<usize>, writes: &mut Vec<usize>) {
    match s {
        StmtKind::Expr(e) | StmtKind::Assert(e) => expr_reads(e, names, reads),
        StmtKind::Print(args) => args.iter().for_each(|a| expr_reads(a, names, reads)),
        StmtKind::Assign(v, e) => {
            var_write(v, names, reads, writes);
            expr_reads(e, names, reads);
        }
        StmtKind::Incr(v) | StmtKind::Decr(v) => {
            var_write(v, names, reads, writes);
            expr_reads(&Expr::Var(v.clone()), names, reads);
        }
        StmtKind::Send(c, args) => {
            expr_reads(&Expr::Var(c.clone()), names, reads);
            args.iter().for_each(|a| expr_reads(a, names, reads));
        }
        StmtKind::Recv(c, args) => {
            expr_reads(&Expr::Var(c.clone()), names, reads);
            for a in args {
                match a {
                    RecvArg::Eval(e) => expr_reads(e, names, reads),
                    RecvArg::Var(v) => var_write(v, names, reads, writes),
                    RecvArg::Const(_) => {}
                }
            }
        }
        _ => {}
    }
}

/// Whether a statement refers to global state (SPIN's `has_global`): a
/// global variable, `_nr_pr`, `timeout`, or a channel operation the
/// process has no `xr`/`xs` claim for.
pub fn stmt_is_global(s: &StmtKind, names: &dyn Names) -> bool {
    const XR: u8 = 1;
    const XS: u8 = 2;
    fn expr(e: &Expr, names: &dyn Names) -> bool {
        match e {
            Expr::Var(v) => var(v, names),
            Expr::Unary(_, a, _) => expr(a, names),
            Expr::Binary(_, a, b, _) | Expr::Index(a, b, _, _) => expr(a, names) || expr(b, names),
            Expr::Cond(a, b, c, _) => expr(a, names) || expr(b, names) || expr(c, names),
            Expr::ChanQuery(op, c, _) => {
                let xu = names.exclusive(&c.name);
                match *op {
                    "len" => xu & (XR | XS) != (XR | XS),
                    "nempty" | "full" => xu & XR != XR,
                    _ => xu & XS != XS,
                }
            }
            Expr::Poll(c, args, _) => {
                recv_args(args, names) || names.exclusive(&c.name) & (XR | XS) != (XR | XS)
            }
            Expr::NrPr(_) | Expr::Timeout(_) => true,
            Expr::Run(_, args, _) => args.iter().any(|a| expr(a, names)),
            Expr::Const(..) | Expr::Pid(_) => false,
        }
    }
    fn var(v: &VarRef, names: &dyn Names) -> bool {
        names.is_global(&v.name) || v.index.as_ref().is_some_and(|i| expr(i, names))
    }
    fn recv_args(args: &[RecvArg], names: &dyn Names) -> bool {
        args.iter().any(|a| match a {
            RecvArg::Const(_) => false,
            RecvArg::Eval(e) => expr(e, names),
            RecvArg::Var(v) => var(v, names),
        })
    }
    match s {
        StmtKind::Expr(e) | StmtKind::Assert(e) => expr(e, names),
        StmtKind::Print(args) => args.iter().any(|a| expr(a, names)),
        StmtKind::Assign(v, e) => var(v, names) || expr(e, names),
        StmtKind::Incr(v) | StmtKind::Decr(v) => var(v, names),
        StmtKind::Send(c, args) => {
            args.iter()
                .any(|a| !matches!(a, Expr::Const(..)) && expr(a, names))
                || names.exclusive(&c.name) & XS != XS
        }
        StmtKind::Recv(c, args) => recv_args(args, names) || names.exclusive(&c.name) & XR != XR,
        _ => false,
    }
}
