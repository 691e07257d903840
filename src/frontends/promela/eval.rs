//! The interpreter: expressions and basic statements over a state's
//! cells, with C's integer arithmetic as SPIN's verifiers compute it.

use super::ast::BasicType;
use super::compile::{ChanStore, Code, Ex, Lv, Place, Program, RArg};
use workers::ModelError;

/// `a op b` as C computes it on `int`s (`None`: division by zero).
pub fn binary_op(op: &str, a: i64, b: i64) -> Option<i64> {
    let (x, y) = (a as i32, b as i32);
    Some(i64::from(match op {
        "+" => x.wrapping_add(y),
        "-" => x.wrapping_sub(y),
        "*" => x.wrapping_mul(y),
        "/" => {
            if y == 0 {
                return None;
            }
            x.wrapping_div(y)
        }
        "%" => {
            if y == 0 {
                return None;
            }
            x.wrapping_rem(y)
        }
        "&" => x & y,
        "|" => x | y,
        "^" => x ^ y,
        "<<" => x.wrapping_shl(y as u32),
        ">>" => x.wrapping_shr(y as u32),
        "<" => i32::from(x < y),
        "<=" => i32::from(x <= y),
        ">" => i32::from(x > y),
        ">=" => i32::from(x >= y),
        "==" => i32::from(x == y),
        "!=" => i32::from(x != y),
        "&&" => i32::from(x != 0 && y != 0),
        "||" => i32::from(x != 0 || y != 0),
        _ => return None,
    }))
}

/// A value as a cell of type `ty` keeps it (SPIN truncates on assignment).
pub fn encode(v: i64, ty: BasicType) -> u64 {
    let (bits, _) = ty.bits();
    (v as u64) & ((1u64 << bits) - 1)
}

/// A cell's value.
pub fn decode(raw: u64, ty: BasicType) -> i64 {
    let (bits, signed) = ty.bits();
    if signed {
        ((raw << (64 - bits)) as i64) >> (64 - bits)
    } else {
        raw as i64
    }
}

/// What running a statement did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It is not executable.
    Blocked,
    /// It ran.
    Done,
    /// A send on a rendezvous channel: it runs when a receiver takes the
    /// message (channel number, message).
    Rendezvous(u64, Vec<i64>),
    /// An assertion failed (its number).
    Failed(u32),
}

/// A process's view of a state while it runs a statement.
pub struct Ctx<'a> {
    /// The program.
    pub prog: &'a Program,
    /// The state's cells.
    pub mem: &'a mut [u64],
    /// The running process.
    pub pid: usize,
    /// Whether `timeout` holds.
    pub timeout: bool,
}

/// An error of the model while a statement runs: its message and place.
pub type Fail = (String, crate::diag::Span);

impl Ctx<'_> {
    fn slot(&self, pid: usize) -> usize {
        self.prog.slots_at as usize + pid * self.prog.slot_cells as usize
    }

    fn addr(&self, place: Place) -> usize {
        match place {
            Place::Global(c) => c as usize,
            Place::Local(c) => self.slot(self.pid) + c as usize,
        }
    }

    /// The number of running processes.
    pub fn nr_pr(&self) -> usize {
        let mut n = 0;
        while n < self.prog.slots as usize && self.mem[self.slot(n)] != 0 {
            n += 1;
        }
        n
    }

    fn element(
        &mut self,
        place: Place,
        len: u32,
        index: &Ex,
        span: crate::diag::Span,
    ) -> Result<usize, Fail> {
        let i = self.eval(index)?;
        if i < 0 || i >= i64::from(len) {
            return Err((
                format!("array index {i} out of bounds (0..{})", len - 1),
                span,
            ));
        }
        Ok(self.addr(place) + i as usize)
    }

    fn lv_addr(&mut self, lv: &Lv) -> Result<usize, Fail> {
        match &lv.index {
            None => Ok(self.addr(lv.place)),
            Some(i) => self.element(lv.place, lv.len.unwrap_or(1), i, lv.span),
        }
    }

    fn store(&mut self, lv: &Lv, v: i64) -> Result<(), Fail> {
        let a = self.lv_addr(lv)?;
        self.mem[a] = encode(v, lv.ty);
        Ok(())
    }

    /// The storage of channel `id`.
    fn channel(&self, id: i64, span: crate::diag::Span) -> Result<(usize, &ChanStore), Fail> {
        let globals = self.prog.global_chans.len() as i64;
        if id >= 1 && id <= globals {
            let c = &self.prog.global_chans[id as usize - 1];
            return Ok((c.offset as usize, c));
        }
        let per = i64::from(self.prog.local_chans);
        if id > globals && per > 0 {
            let k = id - globals - 1;
            let (pid, j) = ((k / per) as usize, (k % per) as usize);
            if pid < self.prog.slots as usize {
                let ptype = self.mem[self.slot(pid)];
                if ptype != 0
                    && let Some(c) = self.prog.procs[ptype as usize - 1].chans.get(j)
                {
                    return Ok((self.slot(pid) + c.offset as usize, c));
                }
            }
        }
        Err((
            if id == 0 {
                "a channel operation on an uninitialised channel".to_string()
            } else {
                format!("channel {id} does not exist")
            },
            span,
        ))
    }

    /// The value of an expression (it may start processes: `run`).
    pub fn eval(&mut self, e: &Ex) -> Result<i64, Fail> {
        Ok(match e {
            Ex::Const(v) => *v,
            Ex::Load(p, ty) => decode(self.mem[self.addr(*p)], *ty),
            Ex::LoadIndexed(p, len, ty, i, span) => {
                let a = self.element(*p, *len, i, *span)?;
                decode(self.mem[a], *ty)
            }
            Ex::Unary(op, a) => {
                let v = self.eval(a)? as i32;
                i64::from(match *op {
                    "!" => i32::from(v == 0),
                    "-" => v.wrapping_neg(),
                    _ => !v,
                })
            }
            Ex::Binary(op, a, b, span) => {
                let x = self.eval(a)?;
                match *op {
                    "&&" if x == 0 => return Ok(0),
                    "||" if x != 0 => return Ok(1),
                    _ => {}
                }
                let y = self.eval(b)?;
                binary_op(op, x, y).ok_or_else(|| ("division by zero".to_string(), *span))?
            }
            Ex::Cond(c, a, b) => {
                if self.eval(c)? != 0 {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Ex::Index(outer, inner, len, span) => {
                let i = self.eval(inner)?;
                if i < 0 || i >= i64::from(*len) {
                    return Err((
                        format!("array index {i} out of bounds (0..{})", len - 1),
                        *span,
                    ));
                }
                self.eval(outer)? * i64::from(*len) + i
            }
            Ex::ChanQuery(op, c, span) => {
                let id = self.eval(c)?;
                let (at, store) = self.channel(id, *span)?;
                let len = self.mem[at] as usize;
                let cap = store.shape.capacity;
                i64::from(match *op {
                    "len" => return Ok(len as i64),
                    "empty" => len == 0,
                    "nempty" => len != 0,
                    "full" => len >= cap,
                    _ => len < cap,
                })
            }
            Ex::Poll(c, args, span) => {
                let id = self.eval(c)?;
                let (at, store) = self.channel(id, *span)?;
                let fields = store.shape.fields.clone();
                // A poll may give fewer fields than a message has.
                if self.mem[at] == 0 || args.len() > fields.len() {
                    return Ok(0);
                }
                for (k, a) in args.iter().enumerate() {
                    if let Some(e) = a
                        && self.eval(e)? != decode(self.mem[at + 1 + k], fields[k])
                    {
                        return Ok(0);
                    }
                }
                1
            }
            Ex::Run(p, args, span) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a)?);
                }
                match self.spawn(*p, &values, *span)? {
                    Some(pid) => pid as i64,
                    None => 0,
                }
            }
            Ex::Pid => self.pid as i64,
            Ex::NrPr => self.nr_pr() as i64,
            Ex::Timeout => i64::from(self.timeout),
        })
    }

    /// Starts a process of proctype `p` with `args`; its pid, or `None`
    /// when SPIN's bound on processes is reached.
    pub fn spawn(
        &mut self,
        p: usize,
        args: &[i64],
        span: crate::diag::Span,
    ) -> Result<Option<usize>, Fail> {
        let pid = self.nr_pr();
        if pid >= self.prog.slots as usize {
            if pid >= super::compile::MAX_PROCESSES {
                return Ok(None);
            }
            return Err((
                format!(
                    "more than {} processes would run (orbit's room for processes; see `--max-processes`)",
                    self.prog.slots
                ),
                span,
            ));
        }
        let proc = &self.prog.procs[p];
        let base = self.slot(pid);
        self.mem[base] = p as u64 + 1;
        self.mem[base + 1] = proc.flow.start as u64 + 1;
        for (&(cell, ty), &v) in proc.params.iter().zip(args) {
            self.mem[base + cell as usize] = encode(v, ty);
        }
        let caller = self.pid;
        self.pid = pid;
        let globals = self.prog.global_chans.len() as u64;
        let per = u64::from(self.prog.local_chans);
        for (cell, len, ty, init) in &proc.inits {
            let v = match init {
                super::compile::LocalInit::Zero => 0,
                super::compile::LocalInit::Value(e) => match self.eval(e) {
                    Ok(v) => v,
                    Err(f) => {
                        self.pid = caller;
                        return Err(f);
                    }
                },
                super::compile::LocalInit::Chan(j) => {
                    (globals + pid as u64 * per + *j as u64 + 1) as i64
                }
            };
            for k in 0..*len {
                self.mem[base + (*cell + k) as usize] = encode(v, *ty);
            }
        }
        self.pid = caller;
        Ok(Some(pid))
    }

    /// Removes the youngest process, `pid`.
    pub fn kill(&mut self, pid: usize) {
        let base = self.slot(pid);
        let n = self.prog.slot_cells as usize;
        self.mem[base..base + n].iter_mut().for_each(|c| *c = 0);
    }

    /// Runs a basic statement.
    pub fn run(&mut self, code: &Code) -> Result<Outcome, Fail> {
        Ok(match code {
            Code::Expr(e) => {
                if self.eval(e)? != 0 {
                    Outcome::Done
                } else {
                    Outcome::Blocked
                }
            }
            Code::Assign(lv, e) => {
                let v = self.eval(e)?;
                self.store(lv, v)?;
                Outcome::Done
            }
            Code::Add(lv, d) => {
                let a = self.lv_addr(lv)?;
                let v = decode(self.mem[a], lv.ty);
                self.mem[a] = encode(v.wrapping_add(*d), lv.ty);
                Outcome::Done
            }
            Code::Assert(e, id) => {
                if self.eval(e)? != 0 {
                    Outcome::Done
                } else {
                    Outcome::Failed(*id)
                }
            }
            Code::Nop => Outcome::Done,
            Code::Send(c, args, span) => {
                let id = self.eval(c)?;
                let (at, store) = self.channel(id, *span)?;
                let (cap, nf) = (store.shape.capacity, store.shape.fields.len());
                if args.len() != nf {
                    return Err((
                        format!("a send of {} fields on a channel of {nf}", args.len()),
                        *span,
                    ));
                }
                let fields = store.shape.fields.clone();
                let len = self.mem[at] as usize;
                if cap == 0 {
                    let mut msg = Vec::with_capacity(nf);
                    for a in args {
                        msg.push(self.eval(a)?);
                    }
                    return Ok(Outcome::Rendezvous(id as u64, msg));
                }
                if len >= cap {
                    return Ok(Outcome::Blocked);
                }
                for (k, a) in args.iter().enumerate() {
                    let v = self.eval(a)?;
                    self.mem[at + 1 + len * nf + k] = encode(v, fields[k]);
                }
                self.mem[at] = len as u64 + 1;
                Outcome::Done
            }
            Code::Recv(c, args, span) => {
                let id = self.eval(c)?;
                let (at, store) = self.channel(id, *span)?;
                let (cap, nf) = (store.shape.capacity, store.shape.fields.len());
                if args.len() != nf {
                    return Err((
                        format!("a receive of {} fields on a channel of {nf}", args.len()),
                        *span,
                    ));
                }
                let fields = store.shape.fields.clone();
                let len = self.mem[at] as usize;
                if cap == 0 || len == 0 {
                    return Ok(Outcome::Blocked);
                }
                let msg: Vec<i64> = (0..nf)
                    .map(|k| decode(self.mem[at + 1 + k], fields[k]))
                    .collect();
                if !self.receive(args, &msg)? {
                    return Ok(Outcome::Blocked);
                }
                // Shift the queue and clear the freed message.
                let cells = len * nf;
                self.mem.copy_within(at + 1 + nf..at + 1 + cells, at + 1);
                for k in 0..nf {
                    self.mem[at + 1 + cells - nf + k] = 0;
                }
                self.mem[at] = len as u64 - 1;
                Outcome::Done
            }
        })
    }

    /// Matches `msg` against a receive's arguments and, if it matches,
    /// stores its fields.
    pub fn receive(&mut self, args: &[RArg], msg: &[i64]) -> Result<bool, Fail> {
        for (a, &v) in args.iter().zip(msg) {
            if let RArg::Match(e) = a
                && self.eval(e)? != v
            {
                return Ok(false);
            }
        }
        for (a, &v) in args.iter().zip(msg) {
            if let RArg::Store(lv) = a {
                self.store(lv, v)?;
            }
        }
        Ok(true)
    }

    /// For a receive on a rendezvous channel: whether it takes `msg` from
    /// channel `chan` (and then stores its fields).
    pub fn rendezvous_receive(
        &mut self,
        code: &Code,
        chan: u64,
        msg: &[i64],
    ) -> Result<bool, Fail> {
        let Code::Recv(c, args, _) = code else {
            return Ok(false);
        };
        if self.eval(c)? != chan as i64 || args.len() != msg.len() {
            return Ok(false);
        }
        self.receive(args, msg)
    }
}

/// A model error at a place of the model.
pub fn model_error(file: &crate::diag::SourceFile, (message, span): Fail) -> ModelError {
    ModelError::new(format!("{message} at {}", file.location(span)))
}
