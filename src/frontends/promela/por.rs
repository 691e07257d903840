//! Transition groups of a Promela model and what each reads and writes,
//! for partial order reduction and `orbit por`.
//!
//! A group is one transition of one process: a process slot (pid), a
//! proctype and the element the transition starts with. What it reads and
//! writes is what every statement it may run in one step touches: its
//! merged statements, and for an atomic sequence or a `d_step` every
//! statement reachable inside it. Whatever orbit cannot pin down is taken
//! as touching everything it could: a channel named by a variable touches
//! every channel, `run` every process, `_nr_pr` whether each process
//! exists, `timeout` and a rendezvous everything; a process dies when the
//! next slot is empty. The assertion cell is the only visible slot.

use super::compile::{Code, Ex, Lv, Place, Program, RArg};
use super::flow::{ElemId, Flow, Kind};
use crate::model::GroupInfo;
use std::collections::BTreeSet;

/// Where the state's slots (the model interface's, for read and write
/// sets) are.
pub struct SlotMap {
    /// Per global cell: its slot.
    pub global: Vec<usize>,
    /// The slot of each global channel.
    pub channels: Vec<usize>,
    /// The slot of each process's state and locals (by pid).
    pub processes: Vec<usize>,
    /// The slot of each process's proctype cell (by pid): whether the
    /// process exists.
    pub alive: Vec<usize>,
    /// Number of slots.
    pub count: usize,
}

/// The index of each group (pid, proctype, first element); what the
/// groups read and write is computed apart ([`infos`]), when partial order
/// reduction or `orbit por` asks.
pub struct Groups {
    /// Per pid and proctype: the first group of the pair.
    base: Vec<usize>,
    /// Per proctype, per element: its index among the proctype's
    /// transition starts.
    local: Vec<Vec<Option<u32>>>,
    procs: usize,
    /// Per proctype: the elements transitions start with, in group order.
    starts: Vec<Vec<ElemId>>,
    /// The group of the step of a state where every process has ended.
    pub end: usize,
}

impl Groups {
    /// Per group: the pid of its process (the end-state stutter: none).
    pub fn owners(&self, slots: usize) -> Vec<Option<u32>> {
        let per_pid: usize = self.starts.iter().map(Vec::len).sum();
        let mut owners: Vec<Option<u32>> = (0..slots)
            .flat_map(|pid| std::iter::repeat_n(Some(pid as u32), per_pid))
            .collect();
        owners.push(None);
        owners
    }

    /// The group of the transition of process `pid` (proctype `p`) that
    /// starts with element `e`.
    pub fn of(&self, pid: usize, p: usize, e: ElemId) -> usize {
        let local = self.local[p][e].expect("a transition start") as usize;
        self.base[pid * self.procs + p] + local
    }
}

/// The groups of `prog`.
pub fn groups(prog: &Program) -> Groups {
    let procs = prog.procs.len();
    let mut local = Vec::with_capacity(procs);
    let mut starts: Vec<Vec<ElemId>> = Vec::with_capacity(procs);
    for p in &prog.procs {
        let mut idx = vec![None; p.flow.elems.len()];
        let mut list = Vec::new();
        // Every state's transitions, reachable or not: a step's first
        // element always has a group.
        for trans in &p.flow.table {
            for t in trans {
                if idx[t.elem].is_none() {
                    idx[t.elem] = Some(list.len() as u32);
                    list.push(t.elem);
                }
            }
        }
        local.push(idx);
        starts.push(list);
    }
    let per_pid: usize = starts.iter().map(Vec::len).sum();
    let mut base = Vec::with_capacity(prog.slots as usize * procs);
    let mut next = 0;
    for _ in 0..prog.slots {
        for list in &starts {
            base.push(next);
            next += list.len();
        }
    }
    debug_assert_eq!(next, per_pid * prog.slots as usize);
    Groups {
        base,
        local,
        procs,
        starts,
        end: next,
    }
}

/// What each group of `groups` reads and writes, over the slots of
/// `slots`, named with `describe`.
pub fn infos(
    prog: &Program,
    groups: &Groups,
    slots: &SlotMap,
    describe: &dyn Fn(usize, usize, ElemId) -> String,
) -> Vec<GroupInfo> {
    let indices: Vec<Index<'_>> = prog.procs.iter().map(|p| Index::new(&p.flow)).collect();
    let occupants = occupants(prog);
    let mut infos = Vec::with_capacity(groups.end + 1);
    for (pid, can_hold) in occupants.iter().enumerate() {
        for (p, (starts, index)) in groups.starts.iter().zip(&indices).enumerate() {
            for &e in starts {
                // A transition no process can take (its proctype never
                // runs in this slot, or no reachable state of its flow
                // has it) touches nothing: it is never enabled.
                if !can_hold[p] || !index.states_of[e].iter().any(|&s| index.reachable[s]) {
                    infos.push(GroupInfo {
                        name: describe(pid, p, e),
                        guard_reads: Vec::new(),
                        action_reads: Vec::new(),
                        writes: Vec::new(),
                    });
                    continue;
                }
                let a = access(prog, slots, pid, p, index, e);
                infos.push(GroupInfo {
                    name: describe(pid, p, e),
                    guard_reads: a.guard.into_iter().collect(),
                    action_reads: a.reads.into_iter().collect(),
                    writes: a.writes.into_iter().collect(),
                });
            }
        }
    }
    // The stutter of a state where every process has ended changes
    // nothing, and is enabled only where nothing else is: no path that
    // avoids an enabled transition can enable it, so it depends on none.
    infos.push(GroupInfo {
        name: "(every process at a valid end state)".to_string(),
        guard_reads: Vec::new(),
        action_reads: Vec::new(),
        writes: Vec::new(),
    });
    infos
}

#[derive(Default)]
struct Access {
    guard: BTreeSet<usize>,
    reads: BTreeSet<usize>,
    writes: BTreeSet<usize>,
}

/// Per element: the transitions that start with it, and the states
/// whose transitions they are.
struct Index<'f> {
    by_elem: Vec<Vec<&'f super::flow::Trans>>,
    states_of: Vec<Vec<ElemId>>,
    /// Per state: whether the flow reaches it from its start.
    reachable: Vec<bool>,
}

impl<'f> Index<'f> {
    fn new(flow: &'f Flow) -> Self {
        let mut by_elem = vec![Vec::new(); flow.elems.len()];
        let mut states_of = vec![Vec::new(); flow.elems.len()];
        for (s, trans) in flow.table.iter().enumerate() {
            for t in trans {
                by_elem[t.elem].push(t);
                states_of[t.elem].push(s);
            }
        }
        let mut reachable = vec![false; flow.elems.len()];
        flow.reachable().for_each(|s| reachable[s] = true);
        Index {
            by_elem,
            states_of,
            reachable,
        }
    }
}

/// Per pid, per proctype: whether a process of the proctype can hold
/// the pid. The active processes hold theirs from the start; `run` takes
/// the first free pid (the running processes hold the pids below it, as
/// processes die youngest first), so never pid 0, and one past the active
/// processes unless every active process from that pid on can end.
fn occupants(prog: &Program) -> Vec<Vec<bool>> {
    let procs = prog.procs.len();
    let mut runs = vec![false; procs];
    for p in &prog.procs {
        for c in &p.code {
            code_runs(c, &mut runs);
        }
    }
    let ends: Vec<bool> = prog
        .procs
        .iter()
        .map(|p| {
            p.flow
                .reachable()
                .any(|s| p.flow.elems[s].kind == Kind::Stop)
        })
        .collect();
    let n = prog.active.len();
    (0..prog.slots as usize)
        .map(|pid| {
            let freeable = prog.active.iter().skip(pid).all(|&q| ends[q]);
            (0..procs)
                .map(|q| {
                    prog.active.get(pid) == Some(&q)
                        || (pid > 0 && runs[q] && (pid >= n || freeable))
                })
                .collect()
        })
        .collect()
}

/// Marks in `runs` the proctypes `code` may start.
fn code_runs(code: &Code, runs: &mut [bool]) {
    fn ex(e: &Ex, runs: &mut [bool]) {
        match e {
            Ex::Run(p, args, _) => {
                runs[*p] = true;
                args.iter().for_each(|a| ex(a, runs));
            }
            Ex::Unary(_, a) => ex(a, runs),
            Ex::Binary(_, a, b, _) | Ex::Index(a, b, _, _) => {
                ex(a, runs);
                ex(b, runs);
            }
            Ex::Cond(a, b, c) => {
                ex(a, runs);
                ex(b, runs);
                ex(c, runs);
            }
            _ => {}
        }
    }
    match code {
        Code::Expr(e) | Code::Assert(e, _) => ex(e, runs),
        Code::Assign(_, e) => ex(e, runs),
        Code::Send(_, args, _) => args.iter().for_each(|a| ex(a, runs)),
        Code::Add(..) | Code::Recv(..) | Code::Nop => {}
    }
}

/// What the transition of `pid` starting with `e` touches.
fn access(
    prog: &Program,
    slots: &SlotMap,
    pid: usize,
    p: usize,
    index: &Index<'_>,
    e: ElemId,
) -> Access {
    let flow = &prog.procs[p].flow;
    let (by_elem, states_of) = (&index.by_elem, &index.states_of);
    let own = slots.processes[pid];
    let mut a = Access::default();
    a.guard.insert(own);
    a.reads.insert(own);
    a.writes.insert(own);
    let code = &prog.procs[p].code;
    // The guard: the first statement (and for `else`, its siblings').
    let mut guard = Access::default();
    if flow.elems[e].kind == Kind::Else {
        // Executable when the other transitions of its state are not.
        for &s in &states_of[e] {
            for t in &flow.table[s] {
                element(prog, slots, pid, flow, code, t.elem, &mut guard);
            }
        }
    } else {
        element(prog, slots, pid, flow, code, e, &mut guard);
    }
    a.guard.extend(guard.reads.iter().copied());
    a.guard.extend(guard.guard.iter().copied());
    // The action: every statement the step may run.
    let mut seen = vec![false; flow.elems.len()];
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        if std::mem::replace(&mut seen[x], true) {
            continue;
        }
        element(prog, slots, pid, flow, code, x, &mut a);
        // The statements after `x` in the same step: merged ones, and in
        // an atomic sequence the next transitions.
        for t in &by_elem[x] {
            todo.extend(t.chain.iter().copied());
            if t.atomic
                && let Some(n) = t.target
            {
                todo.extend(flow.table[n].iter().map(|u| u.elem));
            }
        }
        if let Kind::DStep(_) = flow.elems[x].kind {
            // Every statement inside a d_step of the proctype (a superset
            // of this one's).
            todo.extend((0..flow.elems.len()).filter(|&k| flow.in_dstep(k)));
        }
    }
    a.reads.extend(a.guard.iter().copied());
    a
}

fn all_processes(slots: &SlotMap, set: &mut BTreeSet<usize>) {
    set.extend(slots.processes.iter().copied());
    set.extend(slots.alive.iter().copied());
}

fn all_channels(prog: &Program, slots: &SlotMap, set: &mut BTreeSet<usize>) {
    set.extend(slots.channels.iter().copied());
    if prog.local_chans > 0 {
        all_processes(slots, set);
    }
}

/// What element `e`'s statement touches.
fn element(
    prog: &Program,
    slots: &SlotMap,
    pid: usize,
    flow: &Flow,
    code: &[Code],
    e: ElemId,
    a: &mut Access,
) {
    match flow.elems[e].kind {
        Kind::Stmt(k) => statement(prog, slots, pid, &code[k], a),
        Kind::Stop => {
            // A process dies when it is the youngest: when the next slot
            // is empty. Its slot empties.
            if let Some(&next) = slots.alive.get(pid + 1) {
                a.guard.insert(next);
                a.reads.insert(next);
            }
            a.writes.insert(slots.alive[pid]);
        }
        _ => {}
    }
}

fn statement(prog: &Program, slots: &SlotMap, pid: usize, code: &Code, a: &mut Access) {
    match code {
        Code::Expr(e) => expr(prog, slots, pid, e, a),
        Code::Assign(lv, e) => {
            lvalue(prog, slots, pid, lv, a);
            expr(prog, slots, pid, e, a);
        }
        Code::Add(lv, _) => {
            lvalue(prog, slots, pid, lv, a);
            let mut r = BTreeSet::new();
            place(slots, pid, lv.place, lv.len.unwrap_or(1), &mut r);
            a.reads.extend(r);
        }
        Code::Assert(e, _) => {
            expr(prog, slots, pid, e, a);
            a.writes.insert(slots.global[0]);
        }
        Code::Nop => {}
        Code::Send(c, args, _) => {
            expr(prog, slots, pid, c, a);
            args.iter().for_each(|x| expr(prog, slots, pid, x, a));
            all_channels(prog, slots, &mut a.guard);
            all_channels(prog, slots, &mut a.reads);
            all_channels(prog, slots, &mut a.writes);
            if has_rendezvous(prog) {
                // A rendezvous runs another process's receive: anything.
                a.reads.extend(0..slots.count);
                a.writes.extend(0..slots.count);
            }
        }
        Code::Recv(c, args, _) => {
            expr(prog, slots, pid, c, a);
            for x in args {
                match x {
                    RArg::Store(lv) => lvalue(prog, slots, pid, lv, a),
                    RArg::Match(e) => expr(prog, slots, pid, e, a),
                }
            }
            all_channels(prog, slots, &mut a.guard);
            all_channels(prog, slots, &mut a.reads);
            all_channels(prog, slots, &mut a.writes);
        }
    }
}

fn has_rendezvous(prog: &Program) -> bool {
    prog.global_chans.iter().any(|c| c.shape.capacity == 0)
        || prog
            .procs
            .iter()
            .any(|p| p.chans.iter().any(|c| c.shape.capacity == 0))
}

/// The slots of the cells a place spans (`len` cells).
fn place(slots: &SlotMap, pid: usize, at: Place, len: u32, out: &mut BTreeSet<usize>) {
    match at {
        Place::Global(c) => {
            for k in c..c + len.max(1) {
                out.insert(slots.global[k as usize]);
            }
        }
        Place::Local(_) => {
            out.insert(slots.processes[pid]);
        }
    }
}

fn lvalue(prog: &Program, slots: &SlotMap, pid: usize, lv: &Lv, a: &mut Access) {
    place(slots, pid, lv.place, lv.len.unwrap_or(1), &mut a.writes);
    if let Some(i) = &lv.index {
        expr(prog, slots, pid, i, a);
    }
}

fn expr(prog: &Program, slots: &SlotMap, pid: usize, e: &Ex, a: &mut Access) {
    match e {
        Ex::Const(_) | Ex::Pid => {}
        Ex::Load(p, _) => place(slots, pid, *p, 1, &mut a.reads),
        Ex::LoadIndexed(p, len, _, i, _) => {
            place(slots, pid, *p, *len, &mut a.reads);
            expr(prog, slots, pid, i, a);
        }
        Ex::Unary(_, x) => expr(prog, slots, pid, x, a),
        Ex::Binary(_, x, y, _) | Ex::Index(x, y, _, _) => {
            expr(prog, slots, pid, x, a);
            expr(prog, slots, pid, y, a);
        }
        Ex::Cond(c, x, y) => {
            expr(prog, slots, pid, c, a);
            expr(prog, slots, pid, x, a);
            expr(prog, slots, pid, y, a);
        }
        Ex::ChanQuery(_, c, _) | Ex::Poll(c, _, _) => {
            expr(prog, slots, pid, c, a);
            if let Ex::Poll(_, args, _) = e {
                args.iter()
                    .flatten()
                    .for_each(|x| expr(prog, slots, pid, x, a));
            }
            all_channels(prog, slots, &mut a.reads);
        }
        Ex::Run(_, args, _) => {
            args.iter().for_each(|x| expr(prog, slots, pid, x, a));
            // A new process takes the first free slot (found from which
            // slots hold a process), with its locals and channels.
            a.reads.extend(slots.alive.iter().copied());
            all_processes(slots, &mut a.writes);
            all_channels(prog, slots, &mut a.writes);
        }
        Ex::NrPr => a.reads.extend(slots.alive.iter().copied()),
        Ex::Timeout => a.reads.extend(0..slots.count),
    }
}
