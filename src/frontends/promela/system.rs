//! A compiled Promela model as a [`Model`]: SPIN's interleaving of
//! processes, with its rules for atomic sequences, rendezvous, `else`,
//! `timeout` and the death of processes.
//!
//! A successor is a state SPIN stores: steps inside an atomic sequence
//! (and the handshake of a rendezvous) are taken within one call, so
//! their intermediate states are never states of the search. A process
//! in an atomic sequence keeps control until the sequence ends or it
//! blocks; a state where it blocks is stored, and every process may move
//! from it (SPIN's "loss of atomicity").
//! When nothing can move, `timeout` becomes true and every process tries
//! again. A state where nothing moves and every process is at a valid
//! end state (its end, or an `end` label) steps to itself, so only other
//! such states are deadlocks (SPIN's "invalid end state").

use super::compile::{Code, Program};
use super::eval::{Ctx, Fail, Outcome, model_error};
use super::flow::{ElemId, Kind, Trans};
use crate::diag::SourceFile;
use crate::model::{GroupInfo, INITIAL_GROUP, Model, Packer, SlotInfo, Step};
use std::collections::HashSet;
use std::sync::Arc;
use workers::{ModelError, Violation, ViolationKind};

/// How many steps inside atomic sequences one successor computation may
/// take (orbit's bound on a loop inside an atomic sequence).
const MAX_ATOMIC_STEPS: usize = workers::budget::LOOP_LIMIT as usize;

/// A Promela model, ready to explore.
pub struct PromelaSystem {
    prog: Program,
    /// The transition groups and their slots.
    groups: super::por::Groups,
    /// What each group reads and writes, computed when first asked.
    group_infos: std::sync::OnceLock<Vec<GroupInfo>>,
    slot_map: super::por::SlotMap,
    slot_infos: Vec<SlotInfo>,
    /// The family of interchangeable processes, or why there is none.
    symmetry: Result<Option<super::symmetry::SymmetryCells>, String>,
    file: Arc<SourceFile>,
    packer: Packer,
    cells: usize,
}

/// Per-thread working memory.
pub struct PromelaScratch {
    base: Vec<u64>,
    pool: Vec<Vec<u64>>,
    out: Vec<u64>,
    /// The steps taken since the stored state: (pid, proctype, element).
    path: Vec<(u32, u32, u32)>,
    /// Intermediate states met inside atomic sequences.
    seen: HashSet<Vec<u64>>,
    steps: usize,
}

/// The steps of one successor: SPIN's transitions from a stored state to
/// the next.
struct PStep<'a> {
    sys: &'a PromelaSystem,
    path: &'a [(u32, u32, u32)],
}

impl Step for PStep<'_> {
    fn group(&self) -> usize {
        // The transition that started the step: the group of its process
        // and first element.
        self.path.first().map_or(INITIAL_GROUP, |&(pid, p, e)| {
            self.sys.groups.of(pid as usize, p as usize, e as usize)
        })
    }

    fn label(&self) -> String {
        if self.path.is_empty() {
            return "initialise".to_string();
        }
        let parts: Vec<String> = self
            .path
            .iter()
            .map(|&(pid, p, e)| self.sys.describe(pid as usize, p as usize, e as usize))
            .collect();
        parts.join("; ")
    }
}

struct InitStep;

/// The step of a state where every process has ended to itself.
struct EndStep(usize);

impl Step for EndStep {
    fn group(&self) -> usize {
        self.0
    }

    fn label(&self) -> String {
        "(every process at a valid end state)".to_string()
    }
}

impl Step for InitStep {
    fn group(&self) -> usize {
        INITIAL_GROUP
    }

    fn label(&self) -> String {
        "initialise".to_string()
    }
}

impl PromelaSystem {
    /// The model of a compiled program read from `file`.
    pub fn new(
        prog: Program,
        file: Arc<SourceFile>,
        symmetry: Result<Option<super::symmetry::SymmetryCells>, String>,
    ) -> Self {
        let types = prog.cell_types();
        let cells = types.len();
        let mut bits: Vec<u32> = types.iter().map(|t| t.bits().0).collect();
        for &c in &prog.hidden_cells {
            bits[c as usize] = 0;
        }
        let packer = Packer::new(bits);
        let (slot_map, slot_infos) = Self::slot_map(&prog, &packer);
        let groups = super::por::groups(&prog);
        PromelaSystem {
            prog,
            groups,
            group_infos: std::sync::OnceLock::new(),
            slot_map,
            slot_infos,
            symmetry,
            file,
            packer,
            cells,
        }
    }

    /// The model interface's slots: the assertion, each global variable,
    /// the hidden variables, each global channel, each process.
    fn slot_map(prog: &Program, packer: &Packer) -> (super::por::SlotMap, Vec<SlotInfo>) {
        let cells = prog.global_types.len();
        let mut global = vec![0usize; cells];
        let mut infos = vec![packer.slot("(assertion)", 0, 1)];
        for (name, cell, len) in &prog.global_names {
            for k in *cell..cell + len {
                global[k as usize] = infos.len();
            }
            infos.push(packer.slot(name, *cell as usize, *len as usize));
        }
        if let Some(&first) = prog.hidden_cells.first() {
            for &c in &prog.hidden_cells {
                global[c as usize] = infos.len();
            }
            infos.push(packer.slot("(hidden)", first as usize, 1));
        }
        let mut channels = Vec::new();
        for (i, c) in prog.global_chans.iter().enumerate() {
            let n = 1 + c.shape.capacity * c.shape.fields.len();
            let slot = infos.len();
            global[c.offset as usize..c.offset as usize + n].fill(slot);
            channels.push(infos.len());
            infos.push(packer.slot(&format!("channel {}", i + 1), c.offset as usize, n));
        }
        let (mut processes, mut alive) = (Vec::new(), Vec::new());
        for pid in 0..prog.slots as usize {
            let at = prog.slots_at as usize + pid * prog.slot_cells as usize;
            alive.push(infos.len());
            infos.push(packer.slot(&format!("process {pid} (proctype)"), at, 1));
            processes.push(infos.len());
            infos.push(packer.slot(
                &format!("process {pid}"),
                at + 1,
                prog.slot_cells as usize - 1,
            ));
        }
        let count = infos.len();
        (
            super::por::SlotMap {
                global,
                channels,
                processes,
                alive,
                count,
            },
            infos,
        )
    }

    /// The compiled program.
    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// The state's packing.
    pub fn packer(&self) -> &Packer {
        &self.packer
    }

    /// The family of interchangeable processes, or why there is none.
    pub fn symmetry_cells(&self) -> &Result<Option<super::symmetry::SymmetryCells>, String> {
        &self.symmetry
    }

    /// The cells of a state.
    pub fn unpack(&self, state: &[u64], mem: &mut Vec<u64>) {
        mem.resize(self.cells, 0);
        self.packer.unpack(state, mem);
    }

    /// A state of cells, packed.
    pub fn pack(&self, mem: &[u64], out: &mut [u64]) {
        self.packer.pack_truncating(&mem[..self.cells], out);
    }

    /// Words of a packed state.
    pub fn state_width_words(&self) -> usize {
        self.packer.width()
    }

    fn describe(&self, pid: usize, p: usize, e: usize) -> String {
        let proc = &self.prog.procs[p];
        let el = &proc.flow.elems[e];
        let (line, _) = self.file.line_col(el.span.start);
        let text = match el.kind {
            Kind::Stop => "-end-".to_string(),
            Kind::Else => "else".to_string(),
            _ => {
                let t = &self.file.text[el.span.start as usize..el.span.end as usize];
                let t: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
                if t.len() > 60 {
                    format!("{}...", &t[..t.floor_char_boundary(57)])
                } else {
                    t
                }
            }
        };
        format!("{}:{pid} line {line}: {text}", proc.name)
    }

    /// Per group: the pid of its process ([`super::por::Groups::owners`]).
    pub fn group_owners(&self) -> Vec<Option<u32>> {
        self.groups.owners(self.prog.slots as usize)
    }

    fn slot(&self, pid: usize) -> usize {
        self.prog.slots_at as usize + pid * self.prog.slot_cells as usize
    }

    fn nr_pr(&self, mem: &[u64]) -> usize {
        let mut n = 0;
        while n < self.prog.slots as usize && mem[self.slot(n)] != 0 {
            n += 1;
        }
        n
    }

    fn ctx<'m>(&'m self, mem: &'m mut [u64], pid: usize, timeout: bool) -> Ctx<'m> {
        Ctx {
            prog: &self.prog,
            mem,
            pid,
            timeout,
        }
    }

    fn err(&self, f: Fail) -> ModelError {
        model_error(&self.file, f)
    }

    fn take(&self, sc: &mut PromelaScratch, from: &[u64]) -> Vec<u64> {
        let mut v = sc.pool.pop().unwrap_or_default();
        v.clear();
        v.extend_from_slice(from);
        v
    }

    fn emit_state(
        &self,
        sc: &mut PromelaScratch,
        mem: &[u64],
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) {
        // Hidden cells pack to nothing.
        self.packer.pack_truncating(&mem[..self.cells], &mut sc.out);
        let step = PStep {
            sys: self,
            path: &sc.path,
        };
        emit(&step, &sc.out);
    }

    /// Whether every running process is at a valid end state.
    fn all_ended(&self, mem: &[u64]) -> bool {
        (0..self.nr_pr(mem)).all(|pid| {
            let base = self.slot(pid);
            let p = &self.prog.procs[mem[base] as usize - 1];
            p.flow.valid_end(mem[base + 1] as usize - 1)
        })
    }

    /// Runs element `e` of process `pid` (its statement only).
    fn run_element(
        &self,
        mem: &mut [u64],
        pid: usize,
        p: usize,
        e: ElemId,
        timeout: bool,
    ) -> Result<Outcome, Fail> {
        let proc = &self.prog.procs[p];
        match proc.flow.elems[e].kind {
            Kind::Stmt(k) => self.ctx(mem, pid, timeout).run(&proc.code[k]),
            Kind::Stop => {
                if pid + 1 == self.nr_pr(mem) {
                    self.ctx(mem, pid, timeout).kill(pid);
                    Ok(Outcome::Done)
                } else {
                    Ok(Outcome::Blocked)
                }
            }
            Kind::DStep(_) => self.run_dstep(mem, pid, p, e, timeout),
            _ => Ok(Outcome::Done),
        }
    }

    /// Runs a `d_step` as one step, choosing the first executable option
    /// wherever there is a choice.
    fn run_dstep(
        &self,
        mem: &mut [u64],
        pid: usize,
        p: usize,
        e: ElemId,
        timeout: bool,
    ) -> Result<Outcome, Fail> {
        let entry = self.prog.procs[p].flow.dstep_entry(e);
        self.run_dstep_from(mem, pid, p, e, Some(entry), true, timeout)
    }

    /// Runs the `d_step` `e` from element `at` on (`first`: nothing of it
    /// ran yet, so it may block).
    #[allow(clippy::too_many_arguments)]
    fn run_dstep_from(
        &self,
        mem: &mut [u64],
        pid: usize,
        p: usize,
        e: ElemId,
        mut at: Option<ElemId>,
        mut first: bool,
        timeout: bool,
    ) -> Result<Outcome, Fail> {
        let flow = &self.prog.procs[p].flow;
        let mut n = 0usize;
        while let Some(cur) = at {
            if !flow.in_dstep(cur) {
                break;
            }
            n += 1;
            if n > workers::budget::LOOP_LIMIT as usize {
                return Err((
                    "a `d_step` that does not end".to_string(),
                    flow.elems[e].span,
                ));
            }
            let mut starts = Vec::new();
            if flow.is_choice(cur) {
                flow.options(cur, &mut starts, 0);
            } else {
                starts.push(cur);
            }
            let mut went = None;
            for &g in &starts {
                if flow.elems[g].kind == Kind::Else {
                    continue;
                }
                let saved: Vec<u64> = mem.to_vec();
                match self.run_element(mem, pid, p, g, timeout)? {
                    Outcome::Blocked => mem.copy_from_slice(&saved),
                    Outcome::Done => {
                        went = Some(g);
                        break;
                    }
                    Outcome::Failed(id) => return Ok(Outcome::Failed(id)),
                    Outcome::Rendezvous(..) => {
                        return Err((
                            "not supported yet: a rendezvous inside a `d_step`".to_string(),
                            flow.elems[g].span,
                        ));
                    }
                }
            }
            if went.is_none()
                && let Some(&g) = starts.iter().find(|&&g| flow.elems[g].kind == Kind::Else)
            {
                went = Some(g);
            }
            let Some(g) = went else {
                if first {
                    return Ok(Outcome::Blocked);
                }
                return Err((
                    "a `d_step` blocks after its first statement".to_string(),
                    flow.elems[cur].span,
                ));
            };
            first = false;
            at = flow.plain_target(g);
        }
        let base = self.slot(pid);
        mem[base + 1] = at.map_or(0, |t| t as u64 + 1);
        Ok(Outcome::Done)
    }

    /// After element `e` ran: its dead locals go to 0.
    fn reset_dead(&self, mem: &mut [u64], pid: usize, p: usize, e: ElemId) {
        let proc = &self.prog.procs[p];
        let base = self.slot(pid);
        for &var in &proc.flow.elems[e].dead {
            mem[base + proc.tracked_cells[var] as usize] = 0;
        }
    }

    /// Completes transition `t` of process `pid` whose first element ran:
    /// its dead locals, the merged statements after it, its new state.
    /// `Some(id)` when a merged assertion failed.
    fn finish(
        &self,
        mem: &mut [u64],
        pid: usize,
        p: usize,
        t: &Trans,
    ) -> Result<Option<u32>, Fail> {
        let proc = &self.prog.procs[p];
        let alive = mem[self.slot(pid)] != 0;
        if !alive {
            return Ok(None);
        }
        if matches!(proc.flow.elems[t.elem].kind, Kind::DStep(_)) {
            // The d_step set the state it ends in.
            return Ok(None);
        }
        self.reset_dead(mem, pid, p, t.elem);
        for &f in &t.chain {
            match self.run_element(mem, pid, p, f, false)? {
                Outcome::Failed(id) => return Ok(Some(id)),
                Outcome::Done => {}
                _ => {
                    return Err((
                        "a merged statement blocked (orbit's merging is wrong here)".to_string(),
                        proc.flow.elems[f].span,
                    ));
                }
            }
            self.reset_dead(mem, pid, p, f);
        }
        let base = self.slot(pid);
        mem[base + 1] = t.target.map_or(0, |s| s as u64 + 1);
        Ok(None)
    }

    /// Emits the successors of `mem` where `only` (a process in an atomic
    /// sequence) or every process moves; whether any moved.
    fn expand(
        &self,
        sc: &mut PromelaScratch,
        mem: &[u64],
        only: Option<usize>,
        timeout: bool,
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<bool, ModelError> {
        sc.steps += 1;
        if sc.steps > MAX_ATOMIC_STEPS {
            workers::budget::trip(workers::StopReason::LoopLimit);
            return Err(ModelError::stopped(workers::StopReason::LoopLimit));
        }
        if sc.steps.is_multiple_of(256)
            && let Some(reason) = workers::budget::tripped()
        {
            return Err(ModelError::stopped(reason));
        }
        let nr = self.nr_pr(mem);
        let mut moved = false;
        // SPIN tries the youngest process first; in an atomic sequence,
        // only its process.
        let (first, last) = match only {
            Some(p) if p < nr => (p, p + 1),
            Some(_) => (0, 0),
            None => (0, nr),
        };
        for pid in (first..last).rev() {
            let base = self.slot(pid);
            let p = mem[base] as usize - 1;
            let pc = mem[base + 1];
            if pc == 0 {
                continue;
            }
            let proc = &self.prog.procs[p];
            let mut moved_pid = false;
            for t in &proc.flow.table[pc as usize - 1] {
                let is_else = proc.flow.elems[t.elem].kind == Kind::Else;
                if is_else && moved_pid {
                    continue;
                }
                let mut work = self.take(sc, mem);
                let outcome = self
                    .run_element(&mut work, pid, p, t.elem, timeout)
                    .map_err(|f| self.err(f))?;
                match outcome {
                    Outcome::Blocked => {}
                    Outcome::Failed(id) => {
                        moved = true;
                        moved_pid = true;
                        work[0] = u64::from(id);
                        sc.path.push((pid as u32, p as u32, t.elem as u32));
                        self.emit_state(sc, &work, emit);
                        sc.path.pop();
                    }
                    Outcome::Done => {
                        moved = true;
                        moved_pid = true;
                        sc.path.push((pid as u32, p as u32, t.elem as u32));
                        if let Some(id) =
                            self.finish(&mut work, pid, p, t).map_err(|f| self.err(f))?
                        {
                            work[0] = u64::from(id);
                            self.emit_state(sc, &work, emit);
                        } else {
                            self.after(sc, &work, pid, t.atomic, emit)?;
                        }
                        sc.path.pop();
                    }
                    Outcome::Rendezvous(chan, msg) => {
                        sc.path.push((pid as u32, p as u32, t.elem as u32));
                        if self.rendezvous(sc, &work, pid, p, t, chan, &msg, timeout, emit)? {
                            moved = true;
                        }
                        sc.path.pop();
                    }
                }
                sc.pool.push(work);
            }
        }
        if !moved && only.is_some() {
            // The atomic process blocks: the state is stored (SPIN's
            // `AllOver`), and every process moves from it.
            return Ok(false);
        }
        if !moved && !timeout && self.prog.uses_timeout {
            return self.expand(sc, mem, None, true, emit);
        }
        Ok(moved)
    }

    /// After a step of `pid` to `work`: emits it, or goes on inside an
    /// atomic sequence.
    fn after(
        &self,
        sc: &mut PromelaScratch,
        work: &[u64],
        pid: usize,
        atomic: bool,
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        if !atomic || work[self.slot(pid)] == 0 {
            self.emit_state(sc, work, emit);
            return Ok(());
        }
        let mut key = work.to_vec();
        key.push(pid as u64);
        if !sc.seen.insert(key) {
            return Ok(());
        }
        let moved = self.expand(sc, work, Some(pid), false, emit)?;
        if !moved {
            // The sequence blocks here and loses atomicity: this state is
            // one SPIN stores, and every process moves from it.
            self.emit_state(sc, work, emit);
        }
        Ok(())
    }

    /// A rendezvous: `pid`'s send (transition `t`, message `msg` on
    /// `chan`) meets every receive that takes it; whether one did.
    #[allow(clippy::too_many_arguments)]
    fn rendezvous(
        &self,
        sc: &mut PromelaScratch,
        work: &[u64],
        pid: usize,
        p: usize,
        t: &Trans,
        chan: u64,
        msg: &[i64],
        timeout: bool,
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<bool, ModelError> {
        let mut met = false;
        let nr = self.nr_pr(work);
        for q in (0..nr).rev() {
            if q == pid {
                continue;
            }
            let base = self.slot(q);
            let pq = work[base] as usize - 1;
            let pc = work[base + 1];
            if pc == 0 {
                continue;
            }
            let proc = &self.prog.procs[pq];
            for tq in &proc.flow.table[pc as usize - 1] {
                // A receive, or a `d_step` that starts with one (the rest
                // of the `d_step` runs with the handshake).
                let (k, dstep) = match proc.flow.elems[tq.elem].kind {
                    Kind::Stmt(k) => (k, None),
                    Kind::DStep(_) => {
                        let entry = proc.flow.dstep_entry(tq.elem);
                        match proc.flow.elems[entry].kind {
                            Kind::Stmt(k) if !proc.flow.is_choice(entry) => (k, Some(entry)),
                            _ => continue,
                        }
                    }
                    _ => continue,
                };
                if !matches!(proc.code[k], Code::Recv(..)) {
                    continue;
                }
                let mut w2 = self.take(sc, work);
                let took = self
                    .ctx(&mut w2, q, timeout)
                    .rendezvous_receive(&proc.code[k], chan, msg)
                    .map_err(|f| self.err(f))?;
                let mut dstep_failed = None;
                if took && let Some(entry) = dstep {
                    let rest = proc.flow.plain_target(entry);
                    match self
                        .run_dstep_from(&mut w2, q, pq, tq.elem, rest, false, timeout)
                        .map_err(|f| self.err(f))?
                    {
                        Outcome::Done => {}
                        Outcome::Failed(id) => dstep_failed = Some(id),
                        _ => {
                            return Err(self.err((
                                "a `d_step` blocks after its first statement".to_string(),
                                proc.flow.elems[tq.elem].span,
                            )));
                        }
                    }
                }
                if took {
                    met = true;
                    sc.path.push((q as u32, pq as u32, tq.elem as u32));
                    let failed = match self.finish(&mut w2, pid, p, t).map_err(|f| self.err(f))? {
                        Some(id) => Some(id),
                        None => self.finish(&mut w2, q, pq, tq).map_err(|f| self.err(f))?,
                    }
                    .or(dstep_failed);
                    if let Some(id) = failed {
                        w2[0] = u64::from(id);
                        self.emit_state(sc, &w2, emit);
                    } else {
                        self.after(sc, &w2, q, tq.atomic, emit)?;
                    }
                    sc.path.pop();
                }
                sc.pool.push(w2);
            }
        }
        Ok(met)
    }

    fn show_queue(&self, mem: &[u64], at: usize, c: &super::compile::ChanStore) -> String {
        let nf = c.shape.fields.len();
        let msgs: Vec<String> = (0..mem[at] as usize)
            .map(|m| {
                let fields: Vec<String> = (0..nf)
                    .map(|k| {
                        super::eval::decode(mem[at + 1 + m * nf + k], c.shape.fields[k]).to_string()
                    })
                    .collect();
                fields.join(",")
            })
            .collect();
        format!("[{}]", msgs.join("] ["))
    }

    /// The initial state's cells.
    fn initial(&self) -> Result<Vec<u64>, Fail> {
        let mut mem = vec![0u64; self.cells];
        for (cell, id) in &self.prog.global_chan_vars {
            mem[*cell as usize] = u64::from(*id);
        }
        let mut ctx = self.ctx(&mut mem, 0, false);
        for (cell, len, ty, e) in &self.prog.global_inits {
            let v = ctx.eval(e)?;
            for k in 0..*len {
                ctx.mem[(*cell + k) as usize] = super::eval::encode(v, *ty);
            }
        }
        for &p in &self.prog.active {
            let span = self.prog.procs[p]
                .flow
                .elems
                .first()
                .map(|e| e.span)
                .unwrap_or_default();
            let args = vec![0; self.prog.procs[p].params.len()];
            ctx.spawn(p, &args, span)?;
        }
        Ok(mem)
    }
}

impl Model for PromelaSystem {
    type Scratch = PromelaScratch;

    fn new_scratch(&self) -> PromelaScratch {
        PromelaScratch {
            base: vec![0; self.cells],
            pool: Vec::new(),
            out: vec![0; self.packer.width()],
            path: Vec::new(),
            seen: HashSet::new(),
            steps: 0,
        }
    }

    fn state_width(&self) -> usize {
        self.packer.width()
    }

    fn state_bytes(&self) -> usize {
        self.packer.significant_bytes()
    }

    fn slots(&self) -> Vec<SlotInfo> {
        self.slot_infos.clone()
    }

    fn groups(&self) -> &[GroupInfo] {
        self.group_infos.get_or_init(|| {
            let describe = |pid: usize, p: usize, e: usize| {
                let el = &self.prog.procs[p].flow.elems[e];
                let (line, _) = self.file.line_col(el.span.start);
                format!("{}:{pid} line {line}", self.prog.procs[p].name)
            };
            super::por::infos(&self.prog, &self.groups, &self.slot_map, &describe)
        })
    }

    fn initial_states(
        &self,
        scratch: &mut PromelaScratch,
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        let mem = self.initial().map_err(|f| self.err(f))?;
        self.packer.pack_truncating(&mem, &mut scratch.out);
        emit(&InitStep, &scratch.out);
        Ok(())
    }

    fn current_groups(
        &self,
        scratch: &mut PromelaScratch,
        state: &[u64],
        out: &mut crate::model::GroupSet,
    ) -> bool {
        let mut mem = std::mem::take(&mut scratch.base);
        self.packer.unpack(state, &mut mem);
        for pid in 0..self.nr_pr(&mem) {
            let base = self.slot(pid);
            let p = mem[base] as usize - 1;
            let pc = mem[base + 1] as usize;
            if pc == 0 {
                continue;
            }
            for t in &self.prog.procs[p].flow.table[pc - 1] {
                out.insert(self.groups.of(pid, p, t.elem));
            }
        }
        scratch.base = mem;
        true
    }

    fn successors(
        &self,
        scratch: &mut PromelaScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        let mut base = std::mem::take(&mut scratch.base);
        self.packer.unpack(state, &mut base);
        scratch.seen.clear();
        scratch.steps = 0;
        scratch.path.clear();
        let result = if base[0] != 0 {
            // A failed assertion ends the run here.
            Ok(())
        } else {
            match self.expand(scratch, &base, None, false, emit) {
                Ok(false) if self.all_ended(&base) => {
                    // A valid end state stutters.
                    emit(&EndStep(self.groups.end), state);
                    Ok(())
                }
                Ok(_) => Ok(()),
                Err(e) => Err(e),
            }
        };
        scratch.base = base;
        result
    }

    fn deadlock_headline(&self) -> Option<String> {
        Some(
            "deadlock: invalid end state (nothing can move, and a process is not at its end or an `end` label)"
                .to_string(),
        )
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        let mut mem = vec![0; self.cells];
        self.packer.unpack(state, &mut mem);
        let show = |cell: u32, len: u32, ty: super::ast::BasicType, base: usize| {
            let values: Vec<String> = (0..len)
                .map(|k| super::eval::decode(mem[base + (cell + k) as usize], ty).to_string())
                .collect();
            if len == 1 && values.len() == 1 {
                values[0].clone()
            } else {
                format!("[{}]", values.join(", "))
            }
        };
        let mut out = Vec::new();
        for (name, cell, len) in &self.prog.global_names {
            let ty = self.prog.global_types[*cell as usize];
            out.push((name.clone(), show(*cell, *len, ty, 0)));
        }
        for (i, c) in self.prog.global_chans.iter().enumerate() {
            out.push((
                format!("channel {}", i + 1),
                self.show_queue(&mem, c.offset as usize, c),
            ));
        }
        for pid in 0..self.nr_pr(&mem) {
            let base = self.slot(pid);
            let proc = &self.prog.procs[mem[base] as usize - 1];
            let pc = mem[base + 1] as usize;
            let at = if pc == 0 {
                "ended".to_string()
            } else {
                let (line, _) = self.file.line_col(proc.flow.elems[pc - 1].span.start);
                format!("line {line}")
            };
            let mut parts = vec![at];
            for (name, cell, len, ty) in &proc.local_names {
                parts.push(format!("{name} = {}", show(*cell, *len, *ty, base)));
            }
            out.push((format!("{}:{pid}", proc.name), parts.join(", ")));
        }
        out
    }

    fn check_state(
        &self,
        scratch: &mut PromelaScratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        self.packer.unpack(state, &mut scratch.base);
        let id = scratch.base[0];
        if id == 0 {
            return Ok(None);
        }
        let span = self.prog.asserts[id as usize - 1].1;
        let text = &self.file.text[span.start as usize..span.end as usize];
        Ok(Some(Violation {
            kind: ViolationKind::Assertion,
            message: format!(
                "assert({}) failed at {}",
                text.split_whitespace().collect::<Vec<_>>().join(" "),
                self.file.location(span)
            ),
        }))
    }
}
