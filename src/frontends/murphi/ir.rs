//! The compiled program the interpreter runs: names resolved to word
//! offsets, types to [`Ty`], rulesets expanded.

use super::types::{Kind, Ty};
use crate::diag::Span;

/// Where a designator's first word is found.
#[derive(Clone, Copy, Debug)]
pub enum Base {
    /// A global variable at this word of the state.
    Global(usize),
    /// A local (or quantifier, or value parameter) at this word of the frame.
    Local(usize),
    /// A reference parameter: the frame word holding the absolute address.
    Ref(usize),
}

/// A step from a designator's base.
#[derive(Clone, Debug)]
pub enum Sel {
    /// A record field at this offset.
    Field(usize),
    /// An array element.
    Index {
        /// The index expression.
        index: Box<CExpr>,
        /// The array's index type.
        index_ty: Ty,
        /// The least index value and the number of indices (cached from
        /// `index_ty` for the hot path).
        lo: i64,
        /// See `lo`.
        len: u64,
        /// Words per element.
        elem_width: usize,
    },
}

/// A designator: where a value lives.
#[derive(Clone, Debug)]
pub struct Place {
    /// The base.
    pub base: Base,
    /// The selectors.
    pub sels: Vec<Sel>,
    /// The value's type.
    pub ty: Ty,
    /// For a scalar: its least and greatest value (cached from `ty` for
    /// the hot path; `i64::MAX` above unbounded integers).
    pub bounds: (i64, i64),
    /// The global variable it starts from, if any (for read/write sets).
    pub root: Option<usize>,
    /// Its text, for messages.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// The value of an undefined scalarset or union read unchecked
/// ([`CExpr::LoadUnchecked`]): below every element (their values start at
/// 0), so it equals only another undefined value, as in CMurphi.
pub const UNDEFINED: i64 = -1;

/// A compiled expression (its value is an `i64`: booleans 0/1, enums and
/// scalarsets their ordinal).
#[derive(Clone, Debug)]
pub enum CExpr {
    /// A constant.
    Const(i64),
    /// The scalar stored at a place (an error if undefined).
    Load(Box<Place>),
    /// A scalarset or union value read as CMurphi's generated code reads
    /// it (`--dialect cmurphi`): undefined reads as [`UNDEFINED`].
    LoadUnchecked(Box<Place>),
    /// A function call.
    Call(usize, Vec<Arg>, Span),
    /// `-e`, `!e` or `~e`.
    Unary(UnOp, Box<CExpr>),
    /// A binary operator.
    Binary(BinOp, Box<CExpr>, Box<CExpr>, Span),
    /// `c ? a : b`.
    Cond(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    /// `exists` (true) or `forall` over the values of a range, bound in
    /// a frame word.
    Quant(bool, usize, Box<Range>, Box<CExpr>),
    /// `isundefined(place)`.
    IsUndefined(Box<Place>),
    /// Equality of two compound places (`=` is true, `!=` false).
    CompoundEq(bool, Box<Place>, Box<Place>),
    /// A union value narrowed to one member: `e - offset`, an error unless
    /// it lies in `offset .. offset + card` ([`UNDEFINED`] stays so).
    Narrow(Box<CExpr>, i64, i64, Span),
    /// A member's value shifted into its union: `e + offset`
    /// ([`UNDEFINED`] stays so).
    Widen(Box<CExpr>, i64),
    /// `multisetcount`: the present slots of the multiset for which the
    /// predicate holds, with the slot index bound in a frame word.
    MultisetCount(Box<Place>, usize, Box<CExpr>),
}

/// The element `multisetadd` adds.
#[derive(Clone, Debug)]
pub enum MultisetValue {
    /// A scalar of the element type (range-checked).
    Scalar(CExpr, Ty),
    /// A compound value, copied.
    Copy(Place),
}

/// An argument of a call.
#[derive(Clone, Debug)]
pub enum Arg {
    /// A scalar by value.
    Value(CExpr),
    /// A compound value, copied.
    Copy(Place),
    /// A scalar variable by value, copied even when undefined.
    Scalar(Place),
    /// A `var` parameter: the place itself.
    Ref(Place),
    /// `undefined`, passed by value.
    Undefined,
    /// The array or record a function call returns, copied.
    Result(usize, Vec<Arg>, Span),
}

/// What a quantifier ranges over.
#[derive(Clone, Debug)]
pub enum Range {
    /// Every value of a scalar type.
    Type(Ty),
    /// `from to to by step`, declared at the span.
    Ints(CExpr, CExpr, CExpr, Span),
}

/// A compiled statement.
#[derive(Clone, Debug)]
pub enum CStmt {
    /// A scalar assignment (range-checked).
    Assign(Place, CExpr, Span),
    /// A scalar assignment from a variable of the same kind: an undefined
    /// value is copied as undefined (CMurphi), a defined one range-checked.
    AssignVar(Place, Place, Span),
    /// A compound copy (same type).
    Copy(Place, Place),
    /// `place := f(args)` for a function returning an array or record.
    CopyCall(Place, usize, Vec<Arg>, Span),
    /// `return place` in a function returning an array or record.
    ReturnPlace(Place),
    /// `return f(args)` in a function returning an array or record.
    ReturnCall(usize, Vec<Arg>, Span),
    /// `if`.
    If(Vec<(CExpr, Vec<CStmt>)>, Vec<CStmt>),
    /// `switch`.
    Switch(CExpr, Vec<(Vec<CExpr>, Vec<CStmt>)>, Vec<CStmt>),
    /// `for`, binding a frame word.
    For(usize, Range, Vec<CStmt>),
    /// `while`.
    While(CExpr, Vec<CStmt>, Span),
    /// A procedure call.
    Call(usize, Vec<Arg>, Span),
    /// `clear` (every leaf to its least value).
    Clear(Place),
    /// `undefine`.
    Undefine(Place),
    /// `error`.
    Error(String, Span),
    /// `assert`.
    Assert(CExpr, String, Span),
    /// `assume` (Rumur): when false, the rule is abandoned.
    Assume(CExpr),
    /// `cover` statement number `k` (Rumur): counts a hit when true.
    Cover(usize, CExpr),
    /// `return`, with a function's result.
    Return(Option<CExpr>),
    /// A function's `return e`, range-checked against its result type.
    ReturnChecked(CExpr, Ty, Span),
    /// An alias of a designator: stores the place's address in a frame word.
    BindRef(usize, Place),
    /// A block (an alias's body after its bindings).
    Block(Vec<CStmt>),
    /// `multisetadd`: the element goes to the first empty slot (an error
    /// when there is none).
    MultisetAdd(Place, MultisetValue, Span),
    /// `multisetremove`: empties the slot of the index.
    MultisetRemove(Place, CExpr, Span),
    /// `multisetremovepred`: empties every present slot for which the
    /// predicate holds, the slot index bound in a frame word.
    MultisetRemovePred(Place, usize, CExpr),
}

/// A procedure or function.
#[derive(Clone, Debug)]
pub struct CProc {
    /// Its name.
    pub name: String,
    /// Per parameter: its frame word, whether by reference, its type.
    pub params: Vec<(usize, bool, Ty)>,
    /// The result type of a function.
    pub result: Option<Ty>,
    /// Words of its frame.
    pub frame: usize,
    /// Its body (compiled after every signature is known).
    pub body: Vec<CStmt>,
    /// Global variables it reads and writes, itself and through calls.
    pub reads: Vec<usize>,
    /// See `reads`.
    pub writes: Vec<usize>,
}

/// A rule, start state or invariant with its bound parameters.
#[derive(Clone, Debug)]
pub struct CRule {
    /// Its name (with parameters, e.g. `go, p:1`, filled in per instance).
    pub name: String,
    /// The quantifiers binding its parameters: (frame word, range, name, type).
    pub params: Vec<(usize, Range, String, Ty)>,
    /// The guard (rules), the condition (invariants).
    pub guard: Option<CExpr>,
    /// The bindings of the aliases around it, run before the guard.
    pub prelude: Vec<CStmt>,
    /// The body.
    pub body: Vec<CStmt>,
    /// Words of its frame.
    pub frame: usize,
    /// Where it is.
    pub span: Span,
    /// CMurphi's priority (0 unless given): in a state, only the enabled
    /// rules with the least priority number fire.
    pub priority: i64,
    /// Global variables its guard reads.
    pub guard_reads: Vec<usize>,
    /// Global variables its body reads.
    pub reads: Vec<usize>,
    /// Global variables its body may write.
    pub writes: Vec<usize>,
}

/// A global variable.
#[derive(Clone, Debug)]
pub struct GlobalVar {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Its first word.
    pub offset: usize,
}

/// The bounds a [`Place`] caches for a value of type `ty`.
pub fn bounds(ty: &Ty) -> (i64, i64) {
    match ty {
        Ty::Int => (ty.lo(), i64::MAX),
        Ty::Range(lo, hi) => (*lo, *hi),
        _ => (0, ty.card() as i64 - 1),
    }
}

/// A scalar kind check failed: names what was expected.
pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Bool => "a boolean",
        Kind::Int => "an integer",
        Kind::Enum(_) => "an enumeration value",
        Kind::Scalarset(_) => "a scalarset element",
        Kind::Union(_) => "a union value",
    }
}

/// A unary operator of the compiled program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `!`: logical negation.
    Not,
    /// `-`: arithmetic negation.
    Neg,
    /// `~`: bitwise complement (Rumur).
    BitNot,
}

/// A binary operator of the compiled program (`&` and `|` on integers are
/// the bitwise [`BinOp::BitAnd`] and [`BinOp::BitOr`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `&` on integers.
    BitAnd,
    /// `|` on integers.
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&` on booleans.
    And,
    /// `|` on booleans.
    Or,
    /// `->`
    Implies,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl BinOp {
    /// The operator written `symbol` in the source, as the parser gives
    /// it (`&&`, `||` are `&`, `|`; on integers the compiler picks the
    /// bitwise operators).
    ///
    /// # Panics
    /// On a symbol the parser never produces.
    pub fn from_symbol(symbol: &str) -> BinOp {
        match symbol {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "^" => BinOp::BitXor,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            "&" | "&&" => BinOp::And,
            "|" | "||" => BinOp::Or,
            "->" => BinOp::Implies,
            "=" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            other => unreachable!("the parser produced operator `{other}`"),
        }
    }

    /// How the operator is written (for messages).
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd | BinOp::And => "&",
            BinOp::BitOr | BinOp::Or => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Implies => "->",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }
}
