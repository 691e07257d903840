//! The Murphi interpreter: runs compiled rules on a word memory whose
//! first words are the state and the rest a stack of frames.

use super::compile::Compiled;
use super::ir::*;
use super::types::Ty;
use crate::diag::{SourceFile, Span};

/// Why a computation stopped.
#[derive(Clone, Debug)]
///
/// Kept to two words (errors and compound results boxed), so that every
/// evaluation's `Result<i64, Fail>` comes back in registers: the
/// interpreter returns one from each node it evaluates.
pub enum Fail {
    /// A model error (undefined value read, out-of-range assignment,
    /// `error`, failed `assert`...): message and place.
    Error(Box<(String, Span)>),
    /// A function returned a value (internal control flow).
    Return(i64),
    /// A procedure or function returned without a value.
    ReturnNothing,
    /// A function returned an array or record: its words.
    ReturnWords(Box<Vec<u64>>),
    /// An `assume` statement was false: the rule is abandoned and its
    /// successor discarded.
    Discard,
    /// The run's budget ran out (a limit, a signal) or a `while` ran
    /// [`workers::budget::LOOP_LIMIT`] times: no error of the model.
    Stopped(workers::StopReason),
}

impl Fail {
    /// The model error `message` at `span`.
    #[cold]
    pub fn error(message: String, span: Span) -> Fail {
        Fail::Error(Box::new((message, span)))
    }
}

type R<T> = Result<T, Fail>;

/// `a op b` on integers and booleans; `None` on division by zero or
/// overflow.
pub fn binary(op: BinOp, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        BinOp::Add => a.checked_add(b)?,
        BinOp::Sub => a.checked_sub(b)?,
        BinOp::Mul => a.checked_mul(b)?,
        BinOp::Div => a.checked_div(b)?,
        BinOp::Rem => a.checked_rem(b)?,
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        // A negative shift shifts the other way, a shift by 64 or more
        // leaves only the sign (as in Rumur).
        BinOp::Shl | BinOp::Shr => {
            let left = (op == BinOp::Shl) == (b >= 0);
            let n = b.unsigned_abs();
            match (left, n >= 64) {
                (true, true) => 0,
                (true, false) => a << n,
                (false, true) => a >> 63,
                (false, false) => a >> n,
            }
        }
        BinOp::And => i64::from(a != 0 && b != 0),
        BinOp::Or => i64::from(a != 0 || b != 0),
        BinOp::Implies => i64::from(a == 0 || b != 0),
        BinOp::Eq => i64::from(a == b),
        BinOp::Ne => i64::from(a != b),
        BinOp::Lt => i64::from(a < b),
        BinOp::Le => i64::from(a <= b),
        BinOp::Gt => i64::from(a > b),
        BinOp::Ge => i64::from(a >= b),
    })
}

/// The values `from, from + by, ...` up to `to` (down to it for a
/// negative step), stopping before an overflow; an error for a zero step.
pub fn int_range(from: i64, to: i64, by: i64) -> Result<impl Iterator<Item = i64>, String> {
    if by == 0 {
        return Err("a loop steps `by 0`".into());
    }
    let mut next = Some(from);
    Ok(std::iter::from_fn(move || {
        let v = next.filter(|&v| (by > 0 && v <= to) || (by < 0 && v >= to))?;
        next = v.checked_add(by);
        Some(v)
    }))
}

/// Fails with the reason the run must stop, if it must, every
/// [`workers::budget::POLL_EVERY`]-th iteration `n` of a loop.
#[inline]
fn poll(n: u64) -> R<()> {
    match workers::budget::tripped_every(n) {
        None => Ok(()),
        Some(reason) => Err(Fail::Stopped(reason)),
    }
}
/// Deepest call nesting: deeper calls stop the run
/// ([`workers::StopReason::CallDepth`], a bound of orbit's).
pub const MAX_CALLS: usize = workers::budget::CALL_DEPTH_LIMIT;

/// An interpreter over one thread's memory: the state words, then frames.
pub struct Machine<'p, 'm> {
    prog: &'p Compiled,
    /// Hits per cover statement, if they are counted.
    cover_hits: &'p [std::sync::atomic::AtomicU64],
    /// State words, then frames.
    pub mem: &'m mut Vec<u64>,
    fp: usize,
    sp: usize,
    calls: usize,
}

impl<'p, 'm> Machine<'p, 'm> {
    /// A machine for `prog` over `mem` (grown as needed).
    pub fn new(prog: &'p Compiled, mem: &'m mut Vec<u64>) -> Self {
        let width = prog.width.max(1);
        if mem.len() < width + 64 {
            mem.resize(width + 64, 0);
        }
        Machine {
            prog,
            cover_hits: &[],
            mem,
            fp: width,
            sp: width,
            calls: 0,
        }
    }

    /// Counts the hits of cover statements in `hits` (one per statement).
    pub fn counting_covers(mut self, hits: &'p [std::sync::atomic::AtomicU64]) -> Self {
        self.cover_hits = hits;
        self
    }

    /// Pushes a frame of `words` words (zeroed); returns the old frame pointer.
    pub fn push_frame(&mut self, words: usize) -> usize {
        let old = self.fp;
        self.fp = self.sp;
        self.sp += words;
        if self.mem.len() < self.sp {
            self.mem.resize(self.sp * 2, 0);
        }
        self.mem[self.fp..self.sp].fill(0);
        old
    }

    /// Pops the frame pushed when `old` was returned.
    pub fn pop_frame(&mut self, old: usize) {
        self.sp = self.fp;
        self.fp = old;
    }

    /// Sets frame word `at` to value `v` of type `ty`.
    pub fn bind(&mut self, at: usize, ty: &Ty, v: i64) {
        self.mem[self.fp + at] = ty.encode(v);
    }

    fn addr(&mut self, p: &Place) -> R<usize> {
        let mut a = match p.base {
            Base::Global(off) => off,
            Base::Local(off) => self.fp + off,
            Base::Ref(slot) => self.mem[self.fp + slot] as usize,
        };
        for s in &p.sels {
            match s {
                Sel::Field(off) => a += off,
                Sel::Index {
                    index,
                    index_ty,
                    lo,
                    len,
                    elem_width,
                } => {
                    let i = self.eval(index)?;
                    let pos = i.wrapping_sub(*lo) as u64;
                    let Some(pos) = (pos < *len).then_some(pos as usize) else {
                        if undefined_read(index_ty, i) {
                            return Err(Fail::error(
                                format!("an undefined value indexes `{}`", p.text),
                                p.span,
                            ));
                        }
                        return Err(Fail::error(
                            format!(
                                "index {} of `{}` is out of its range",
                                index_ty.show(i),
                                p.text
                            ),
                            p.span,
                        ));
                    };
                    a += pos * elem_width;
                }
            }
        }
        Ok(a)
    }

    /// Evaluates `e`.
    pub fn eval(&mut self, e: &CExpr) -> R<i64> {
        Ok(match e {
            CExpr::Const(v) => *v,
            CExpr::Load(p) => {
                let a = self.addr(p)?;
                let w = self.mem[a];
                if w == 0 {
                    return Err(Fail::error(format!("`{}` is undefined", p.text), p.span));
                }
                (w as i64).wrapping_sub(1).wrapping_add(p.bounds.0)
            }
            // Scalarsets and unions start at 0: word 0 reads as UNDEFINED.
            CExpr::LoadUnchecked(p) => {
                let a = self.addr(p)?;
                (self.mem[a] as i64).wrapping_sub(1)
            }
            CExpr::Widen(e, offset) => match self.eval(e)? {
                UNDEFINED => UNDEFINED,
                v => v + offset,
            },
            CExpr::Call(id, args, span) => match self.call(*id, args, *span)? {
                Some(v) => v,
                None => {
                    return Err(Fail::error(
                        format!(
                            "function `{}` ended without `return`",
                            self.prog.procs[*id].name
                        ),
                        *span,
                    ));
                }
            },
            CExpr::Unary(op, a) => {
                let a = self.eval(a)?;
                match op {
                    UnOp::Not => i64::from(a == 0),
                    UnOp::Neg => a.wrapping_neg(),
                    UnOp::BitNot => !a,
                }
            }
            CExpr::Binary(op, a, b, span) => {
                // Short-circuit: `x != 0 & a[x] ...` guards are common.
                let x = self.eval(a)?;
                match (*op, x) {
                    (BinOp::And, 0) => return Ok(0),
                    (BinOp::Or, x) if x != 0 => return Ok(1),
                    (BinOp::Implies, 0) => return Ok(1),
                    _ => {}
                }
                let y = self.eval(b)?;
                binary(*op, x, y).ok_or_else(|| {
                    let op = op.symbol();
                    Fail::error(
                        format!("`{op}` divides by zero or overflows ({x} {op} {y})"),
                        *span,
                    )
                })?
            }
            CExpr::Cond(c, a, b) => {
                if self.eval(c)? != 0 {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            CExpr::Quant(exists, at, range, body) => {
                let mut found = !*exists;
                self.each(range, *at, &mut |m| {
                    let v = m.eval(body)? != 0;
                    if v == *exists {
                        found = *exists;
                        return Ok(false);
                    }
                    Ok(true)
                })?;
                i64::from(found)
            }
            CExpr::IsUndefined(p) => {
                let a = self.addr(p)?;
                let w = p.ty.width();
                i64::from(self.mem[a..a + w].iter().all(|&x| x == 0))
            }
            CExpr::Narrow(e, offset, card, span) => {
                let v = self.eval(e)?;
                if v == UNDEFINED {
                    return Ok(UNDEFINED);
                }
                let v = v - offset;
                if !(0..*card).contains(&v) {
                    return Err(Fail::error(
                        "the union value is not of the expected member type".into(),
                        *span,
                    ));
                }
                v
            }
            CExpr::MultisetCount(set, at, pred) => {
                let mut n = 0;
                self.each_element(set, *at, &mut |m| {
                    n += i64::from(m.eval(pred)? != 0);
                    Ok(false)
                })?;
                n
            }
            CExpr::CompoundEq(eq, a, b) => {
                let (x, y) = (self.addr(a)?, self.addr(b)?);
                let w = a.ty.width();
                i64::from((self.mem[x..x + w] == self.mem[y..y + w]) == *eq)
            }
        })
    }

    /// Binds frame word `at` to each value of `range` in turn and calls
    /// `f`, until it returns false.
    fn each(&mut self, range: &Range, at: usize, f: &mut dyn FnMut(&mut Self) -> R<bool>) -> R<()> {
        match range {
            Range::Type(ty) => {
                for i in 0..ty.card() {
                    poll(i + 1)?;
                    let v = i as i64 + ty.lo();
                    self.mem[self.fp + at] = ty.encode(v);
                    if !f(self)? {
                        break;
                    }
                }
            }
            Range::Ints(from, to, by, span) => {
                let (from, to, by) = (self.eval(from)?, self.eval(to)?, self.eval(by)?);
                let values = int_range(from, to, by).map_err(|m| Fail::error(m, *span))?;
                for (n, v) in (1u64..).zip(values) {
                    poll(n)?;
                    self.mem[self.fp + at] = Ty::Int.encode(v);
                    if !f(self)? {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Binds frame word `at` to the index of each present slot of the
    /// multiset at `set` in turn and calls `f`, until it returns true.
    fn each_element(
        &mut self,
        set: &Place,
        at: usize,
        f: &mut dyn FnMut(&mut Self) -> R<bool>,
    ) -> R<()> {
        let (max, sw) = slots(&set.ty);
        let a = self.addr(set)?;
        for j in 0..max {
            if self.mem[a + j * sw] == 0 {
                continue;
            }
            // Index `j` of a `0 .. max - 1` range.
            self.mem[self.fp + at] = j as u64 + 1;
            if f(self)? {
                break;
            }
        }
        Ok(())
    }

    fn call(&mut self, id: usize, args: &[Arg], span: Span) -> R<Option<i64>> {
        let p = &self.prog.procs[id];
        if self.calls >= MAX_CALLS {
            tracing::warn!(
                "calls of the model nested {MAX_CALLS} deep, orbit's bound (in a call of `{}`)",
                p.name
            );
            return Err(Fail::Stopped(workers::StopReason::CallDepth));
        }
        // Arguments are evaluated in the caller's frame.
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(match a {
                Arg::Value(e) => ArgVal::Scalar(self.eval(e)?),
                Arg::Copy(pl) => {
                    let at = self.addr(pl)?;
                    ArgVal::Words(self.mem[at..at + pl.ty.width()].to_vec())
                }
                Arg::Ref(pl) => ArgVal::Addr(self.addr(pl)?),
                Arg::Result(id, args, span) => ArgVal::Words(self.call_words(*id, args, *span)?),
                Arg::Undefined => ArgVal::Undefined,
                Arg::Scalar(pl) => {
                    let at = self.addr(pl)?;
                    match self.mem[at] {
                        0 => ArgVal::Undefined,
                        w => ArgVal::Scalar(pl.ty.decode(w)),
                    }
                }
            });
        }
        let old = self.push_frame(p.frame);
        for ((at, _, ty), v) in p.params.iter().zip(values) {
            match v {
                ArgVal::Scalar(x) if undefined_read(ty, x) => self.mem[self.fp + at] = 0,
                ArgVal::Scalar(x) => {
                    if !ty.contains(x) {
                        self.pop_frame(old);
                        return Err(Fail::error(
                            format!("argument {} is out of the parameter's range", ty.show(x)),
                            span,
                        ));
                    }
                    self.mem[self.fp + at] = ty.encode(x);
                }
                ArgVal::Words(w) => {
                    self.mem[self.fp + at..self.fp + at + w.len()].copy_from_slice(&w)
                }
                ArgVal::Addr(a) => self.mem[self.fp + at] = a as u64,
                ArgVal::Undefined => self.mem[self.fp + at] = 0,
            }
        }
        self.calls += 1;
        let result = self.stmts(&p.body);
        self.calls -= 1;
        self.pop_frame(old);
        match result {
            Ok(()) => Ok(None),
            Err(Fail::Return(v)) => Ok(Some(v)),
            Err(Fail::ReturnNothing) => Ok(None),
            Err(Fail::ReturnWords(w)) => Err(Fail::ReturnWords(w)),
            Err(e) => Err(e),
        }
    }

    /// Calls a function returning an array or record; its value's words.
    fn call_words(&mut self, id: usize, args: &[Arg], span: Span) -> R<Vec<u64>> {
        match self.call(id, args, span) {
            Err(Fail::ReturnWords(w)) => Ok(*w),
            Ok(_) => Err(Fail::error(
                format!(
                    "`{}` ended without returning a value",
                    self.prog.procs[id].name
                ),
                span,
            )),
            Err(e) => Err(e),
        }
    }

    /// Runs `stmts`.
    pub fn stmts(&mut self, stmts: &[CStmt]) -> R<()> {
        for s in stmts {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &CStmt) -> R<()> {
        match s {
            CStmt::Assign(p, e, span) => {
                let v = self.eval(e)?;
                if v < p.bounds.0 || v > p.bounds.1 {
                    if undefined_read(&p.ty, v) {
                        // CMurphi: the undefined value read unchecked is
                        // stored as undefined.
                        let a = self.addr(p)?;
                        self.mem[a] = 0;
                        return Ok(());
                    }
                    return Err(Fail::error(
                        format!("{} is out of the range of `{}`", p.ty.show(v), p.text),
                        *span,
                    ));
                }
                let a = self.addr(p)?;
                self.mem[a] = v.wrapping_sub(p.bounds.0).wrapping_add(1) as u64;
            }
            CStmt::AssignVar(dst, src, span) => {
                let a = self.addr(src)?;
                let w = self.mem[a];
                let d = self.addr(dst)?;
                if w == 0 {
                    self.mem[d] = 0;
                } else {
                    let v = (w as i64).wrapping_sub(1).wrapping_add(src.bounds.0);
                    if v < dst.bounds.0 || v > dst.bounds.1 {
                        return Err(Fail::error(
                            format!("{} is out of the range of `{}`", dst.ty.show(v), dst.text),
                            *span,
                        ));
                    }
                    self.mem[d] = v.wrapping_sub(dst.bounds.0).wrapping_add(1) as u64;
                }
            }
            CStmt::Copy(dst, src) => {
                let (d, s) = (self.addr(dst)?, self.addr(src)?);
                let w = dst.ty.width();
                self.mem.copy_within(s..s + w, d);
            }
            CStmt::CopyCall(dst, id, args, span) => {
                let words = self.call_words(*id, args, *span)?;
                let d = self.addr(dst)?;
                self.mem[d..d + words.len()].copy_from_slice(&words);
            }
            CStmt::ReturnPlace(src) => {
                let s = self.addr(src)?;
                return Err(Fail::ReturnWords(Box::new(
                    self.mem[s..s + src.ty.width()].to_vec(),
                )));
            }
            CStmt::ReturnCall(id, args, span) => {
                return Err(Fail::ReturnWords(Box::new(
                    self.call_words(*id, args, *span)?,
                )));
            }
            CStmt::If(arms, otherwise) => {
                for (c, body) in arms {
                    if self.eval(c)? != 0 {
                        return self.stmts(body);
                    }
                }
                self.stmts(otherwise)?;
            }
            CStmt::Switch(e, cases, otherwise) => {
                let v = self.eval(e)?;
                for (values, body) in cases {
                    for c in values {
                        if self.eval(c)? == v {
                            return self.stmts(body);
                        }
                    }
                }
                self.stmts(otherwise)?;
            }
            CStmt::For(at, range, body) => {
                self.each(range, *at, &mut |m| m.stmts(body).map(|()| true))?;
            }
            CStmt::While(c, body, _) => {
                let mut n = 0u64;
                while self.eval(c)? != 0 {
                    n += 1;
                    poll(n)?;
                    if n > workers::budget::LOOP_LIMIT {
                        return Err(Fail::Stopped(workers::StopReason::LoopLimit));
                    }
                    self.stmts(body)?;
                }
            }
            CStmt::Call(id, args, span) => {
                self.call(*id, args, *span)?;
            }
            CStmt::Clear(p) => {
                let a = self.addr(p)?;
                clear(&p.ty, &mut self.mem[a..a + p.ty.width()]);
            }
            CStmt::Undefine(p) => {
                let a = self.addr(p)?;
                self.mem[a..a + p.ty.width()].fill(0);
            }
            CStmt::Error(m, span) => return Err(Fail::error(format!("error: {m}"), *span)),
            CStmt::Assert(c, m, span) => {
                if self.eval(c)? == 0 {
                    return Err(Fail::error(format!("assertion failed: {m}"), *span));
                }
            }
            CStmt::Cover(k, c) => {
                if self.eval(c)? != 0
                    && let Some(hits) = self.cover_hits.get(*k)
                {
                    hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
            CStmt::Assume(c) => {
                if self.eval(c)? == 0 {
                    return Err(Fail::Discard);
                }
            }
            CStmt::BindRef(slot, p) => {
                let a = self.addr(p)?;
                self.mem[self.fp + slot] = a as u64;
            }
            CStmt::Block(body) => self.stmts(body)?,
            CStmt::MultisetAdd(set, value, span) => {
                let (max, sw) = slots(&set.ty);
                // The value first (it may read the multiset).
                let words: Vec<u64> = match value {
                    MultisetValue::Scalar(e, ty) => {
                        let v = self.eval(e)?;
                        if undefined_read(ty, v) {
                            // CMurphi adds the undefined value read unchecked.
                            vec![0]
                        } else if !ty.contains(v) {
                            return Err(Fail::error(
                                format!(
                                    "{} is out of the range of `{}`'s elements",
                                    ty.show(v),
                                    set.text
                                ),
                                *span,
                            ));
                        } else {
                            vec![ty.encode(v)]
                        }
                    }
                    MultisetValue::Copy(src) => {
                        let a = self.addr(src)?;
                        self.mem[a..a + sw - 1].to_vec()
                    }
                };
                let a = self.addr(set)?;
                let Some(free) = (0..max).find(|j| self.mem[a + j * sw] == 0) else {
                    return Err(Fail::error(
                        format!("`{}` is full: it holds at most {max} elements", set.text),
                        *span,
                    ));
                };
                let slot = a + free * sw;
                self.mem[slot] = 1;
                self.mem[slot + 1..slot + sw].copy_from_slice(&words);
            }
            CStmt::MultisetRemove(set, index, span) => {
                let (max, sw) = slots(&set.ty);
                let i = self.eval(index)?;
                if !(0..max as i64).contains(&i) {
                    return Err(Fail::error(
                        format!("{i} is not a slot of `{}`", set.text),
                        *span,
                    ));
                }
                let a = self.addr(set)? + i as usize * sw;
                self.mem[a..a + sw].fill(0);
            }
            CStmt::MultisetRemovePred(set, at, pred) => {
                let (_, sw) = slots(&set.ty);
                let a = self.addr(set)?;
                let mut remove = Vec::new();
                self.each_element(set, *at, &mut |m| {
                    if m.eval(pred)? != 0 {
                        remove.push(m.mem[m.fp + at] as usize - 1);
                    }
                    Ok(false)
                })?;
                for j in remove {
                    self.mem[a + j * sw..a + (j + 1) * sw].fill(0);
                }
            }
            CStmt::ReturnChecked(e, ty, span) => {
                let v = self.eval(e)?;
                // The undefined value read unchecked is returned as is.
                if !(ty.contains(v) || undefined_read(ty, v)) {
                    return Err(Fail::error(
                        format!(
                            "the function returns {}, outside its result type",
                            ty.show(v)
                        ),
                        *span,
                    ));
                }
                return Err(Fail::Return(v));
            }
            CStmt::Return(e) => {
                return Err(match e {
                    Some(e) => Fail::Return(self.eval(e)?),
                    None => Fail::ReturnNothing,
                });
            }
        }
        Ok(())
    }
}

enum ArgVal {
    Scalar(i64),
    Undefined,
    Words(Vec<u64>),
    Addr(usize),
}

/// The slots of a multiset type and the words of each.
fn slots(ty: &Ty) -> (usize, usize) {
    match ty {
        Ty::Multiset(max, elem) => (*max as usize, 1 + elem.width()),
        _ => (0, 1),
    }
}

/// Sets every leaf of a value of type `ty` to its least value (a multiset
/// to empty).
fn clear(ty: &Ty, words: &mut [u64]) {
    match ty {
        Ty::Multiset(..) => words.fill(0),
        Ty::Array(_, elem) => {
            let w = elem.width();
            for chunk in words.chunks_mut(w) {
                clear(elem, chunk);
            }
        }
        Ty::Record(fields) => {
            for (_, t, off) in fields {
                clear(t, &mut words[*off..*off + t.width()]);
            }
        }
        _ => words[0] = 1,
    }
}

/// Renders a failure as a model error message.
pub fn message(file: &SourceFile, f: &Fail) -> String {
    match f {
        Fail::Error(error) => format!("{} ({})", error.0, file.location(error.1)),
        Fail::Return(_) | Fail::ReturnNothing | Fail::ReturnWords(_) => {
            "`return` outside a function".to_string()
        }
        Fail::Discard => "an `assume` outside a rule is false".to_string(),
        Fail::Stopped(reason) => format!("stopped: {reason}"),
    }
}

/// Whether `v`, bound for a place of type `ty`, is the undefined value
/// of a scalarset or union read unchecked ([`CExpr::LoadUnchecked`],
/// `--dialect cmurphi`): stored, passed, returned or added, it stays
/// undefined (word 0); as an index it is an error.
fn undefined_read(ty: &Ty, v: i64) -> bool {
    v == UNDEFINED && matches!(ty, Ty::Scalarset { .. } | Ty::Union(..))
}
