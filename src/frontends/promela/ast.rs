//! The syntax tree of a Promela model, after preprocessing and with
//! `inline` calls expanded.

use crate::diag::Span;

/// A basic type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BasicType {
    /// `bit`: 0 or 1.
    Bit,
    /// `bool`: 0 or 1.
    Bool,
    /// `byte`: 0..=255.
    Byte,
    /// `short`: 16 bits, signed.
    Short,
    /// `int`: 32 bits, signed.
    Int,
    /// `unsigned x : n`: n bits.
    Unsigned(u8),
    /// `pid`: 0..=255.
    Pid,
    /// `mtype`: 0..=255.
    Mtype,
    /// `chan`: a channel's number (0: none).
    Chan,
}

impl BasicType {
    /// The number of bits a value takes and whether it is signed.
    pub fn bits(self) -> (u32, bool) {
        match self {
            BasicType::Bit | BasicType::Bool => (1, false),
            BasicType::Byte | BasicType::Pid | BasicType::Mtype | BasicType::Chan => (8, false),
            BasicType::Short => (16, true),
            BasicType::Int => (32, true),
            BasicType::Unsigned(n) => (u32::from(n), false),
        }
    }
}

/// A channel's shape: `[capacity] of { fields }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanShape {
    /// Messages it holds (0: rendezvous).
    pub capacity: usize,
    /// The type of each field of a message.
    pub fields: Vec<BasicType>,
}

/// A variable declaration (global, local or parameter).
#[derive(Clone, Debug)]
pub struct Decl {
    /// Its name.
    pub name: String,
    /// Its element type.
    pub ty: BasicType,
    /// The number of elements of an array (`None`: a scalar).
    pub len: Option<usize>,
    /// Its initial value.
    pub init: Option<Expr>,
    /// For `chan x = [n] of {...}`: the channel it is created with.
    pub chan: Option<ChanShape>,
    /// Where it is declared.
    pub span: Span,
}

/// A proctype, or `init`.
#[derive(Clone, Debug)]
pub struct Proctype {
    /// Its name (`:init:` for `init`).
    pub name: String,
    /// Instances started before anything runs (`active [n]`; `init`: 1).
    pub active: usize,
    /// Its parameters, in order.
    pub params: Vec<Decl>,
    /// Its local variables (declared anywhere in the body), in order.
    pub locals: Vec<Decl>,
    /// Its body.
    pub body: Seq,
    /// Its `xr` (1) and `xs` (2) claims on channels, by name.
    pub exclusive: Vec<(String, u8)>,
    /// Where it is declared.
    pub span: Span,
}

/// A model.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// The `mtype` constants in declaration order (SPIN numbers them from
    /// the last, starting at 1).
    pub mtypes: Vec<(String, Span)>,
    /// Global variables, in order.
    pub globals: Vec<Decl>,
    /// Globals declared `local` (SPIN: used by one process only).
    pub local_globals: Vec<String>,
    /// Globals declared `hidden` (SPIN keeps them out of the state).
    pub hidden_globals: Vec<String>,
    /// Proctypes and `init`, in order.
    pub proctypes: Vec<Proctype>,
}

/// A sequence of statements.
#[derive(Clone, Debug, Default)]
pub struct Seq {
    /// The statements.
    pub stmts: Vec<Stmt>,
}

/// A statement with its labels.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Its labels, outermost first.
    pub labels: Vec<(String, Span)>,
    /// Where it is.
    pub span: Span,
}

/// The statements.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// An expression: executable when non-zero (`skip` is `1`).
    Expr(Expr),
    /// `v = e`.
    Assign(VarRef, Expr),
    /// `v++`.
    Incr(VarRef),
    /// `v--`.
    Decr(VarRef),
    /// `c!e1,e2` (and `c!e1(e2)`).
    Send(VarRef, Vec<Expr>),
    /// `c?a1,a2`.
    Recv(VarRef, Vec<RecvArg>),
    /// `if :: ... fi`.
    If(Vec<Seq>),
    /// `do :: ... od`.
    Do(Vec<Seq>),
    /// `break`.
    Break,
    /// `goto label`.
    Goto(String),
    /// `else`.
    Else,
    /// `atomic { ... }`.
    Atomic(Seq),
    /// `d_step { ... }`.
    DStep(Seq),
    /// `{ ... }` (and an expanded `inline`).
    Block(Seq),
    /// `assert(e)`.
    Assert(Expr),
    /// `printf(...)`, `printm(...)` with their arguments: no effect on
    /// the state (the arguments still count as reads).
    Print(Vec<Expr>),
}

/// An argument of a receive.
#[derive(Clone, Debug)]
pub enum RecvArg {
    /// A variable that takes the field's value.
    Var(VarRef),
    /// A constant the field must equal.
    Const(Expr),
    /// `eval(e)`: the field must equal e's value.
    Eval(Expr),
}

/// A reference to a variable or an array element.
#[derive(Clone, Debug)]
pub struct VarRef {
    /// The variable's name.
    pub name: String,
    /// The index of an array element.
    pub index: Option<Box<Expr>>,
    /// Where it is.
    pub span: Span,
}

/// Expressions.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A constant.
    Const(i64, Span),
    /// A variable (or an `mtype` constant, decided when names resolve).
    Var(VarRef),
    /// `op e` (`!`, `-`, `~`).
    Unary(&'static str, Box<Expr>, Span),
    /// `a op b`.
    Binary(&'static str, Box<Expr>, Box<Expr>, Span),
    /// `(c -> a : b)`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>, Span),
    /// `len(c)`, `empty(c)`, `nempty(c)`, `full(c)`, `nfull(c)`.
    ChanQuery(&'static str, VarRef, Span),
    /// `c?[args]`: whether the first message matches.
    Poll(VarRef, Vec<RecvArg>, Span),
    /// `run P(args)`.
    Run(String, Vec<Expr>, Span),
    /// `_pid`.
    Pid(Span),
    /// `_nr_pr`.
    NrPr(Span),
    /// `timeout`.
    Timeout(Span),
    /// A flattened index one array level deeper (a structure's array
    /// field): `outer * len + inner`, where `inner` must be below `len`.
    Index(Box<Expr>, Box<Expr>, u32, Span),
}

impl Expr {
    /// Where the expression is.
    pub fn span(&self) -> Span {
        match self {
            Expr::Const(_, s)
            | Expr::Unary(_, _, s)
            | Expr::Binary(_, _, _, s)
            | Expr::Cond(_, _, _, s)
            | Expr::ChanQuery(_, _, s)
            | Expr::Poll(_, _, s)
            | Expr::Run(_, _, s)
            | Expr::Pid(s)
            | Expr::NrPr(s)
            | Expr::Timeout(s)
            | Expr::Index(_, _, _, s) => *s,
            Expr::Var(v) => v.span,
        }
    }
}
