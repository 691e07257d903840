//! The Murphi syntax tree, as parsed (names unresolved).

use crate::diag::Span;

/// A type expression.
#[derive(Clone, Debug)]
pub enum TypeExpr {
    /// A named type (or `boolean`).
    Named(String, Span),
    /// `lo .. hi`.
    Range(Box<Expr>, Box<Expr>),
    /// `enum { a, b }`.
    Enum(Vec<(String, Span)>),
    /// `scalarset(n)`.
    Scalarset(Box<Expr>),
    /// `array [index] of elem`.
    Array(Box<TypeExpr>, Box<TypeExpr>),
    /// `record f : T; ... end`.
    Record(Vec<(String, TypeExpr)>),
    /// `boolean`.
    Boolean,
    /// `union {A, B}` of enumerations and scalarsets.
    Union(Vec<TypeExpr>),
    /// `multiset [max] of elem`.
    Multiset(Box<Expr>, Box<TypeExpr>),
}

/// A declaration (`const`, `type`, `var`) or a procedure/function.
#[derive(Clone, Debug)]
pub enum Decl {
    /// `const name : value;`
    Const(String, Expr, Span),
    /// `type name : T;`
    Type(String, TypeExpr, Span),
    /// `var a, b : T;`
    Var(Vec<(String, Span)>, TypeExpr),
    /// A procedure (`result: None`) or function.
    Proc(Proc),
}

/// A procedure or function.
#[derive(Clone, Debug)]
pub struct Proc {
    /// Its name.
    pub name: String,
    /// Its parameters: (name, by reference, type).
    pub params: Vec<(String, bool, TypeExpr)>,
    /// The result type of a function.
    pub result: Option<TypeExpr>,
    /// Local declarations.
    pub decls: Vec<Decl>,
    /// The body.
    pub body: Vec<Stmt>,
    /// Where it is declared.
    pub span: Span,
}

/// A quantifier: `i : T` or `i := a to b [by c]`.
#[derive(Clone, Debug)]
pub struct Quantifier {
    /// The bound name.
    pub name: String,
    /// What it ranges over.
    pub range: QRange,
    /// Where it is (its name).
    pub span: Span,
    /// The whole quantifier, name and range.
    pub whole: Span,
}

/// What a quantifier ranges over.
#[derive(Clone, Debug)]
pub enum QRange {
    /// Every value of a type.
    Type(TypeExpr),
    /// `from to to [by step]`.
    Ints(Expr, Expr, Option<Expr>),
}

/// A rule-level item.
#[derive(Clone, Debug)]
pub enum Rule {
    /// `rule "name" guard ==> decls begin body end`.
    Simple {
        /// The name (or a generated one).
        name: String,
        /// The guard (true if absent).
        guard: Option<Expr>,
        /// Local declarations.
        decls: Vec<Decl>,
        /// The body.
        body: Vec<Stmt>,
        /// CMurphi's priority (`rule 5 "name"`, default 0): in a state only
        /// the enabled rules of the least priority number fire.
        priority: i64,
        /// Where it is.
        span: Span,
    },
    /// `startstate "name" decls begin body end`.
    Start {
        /// The name.
        name: String,
        /// Local declarations.
        decls: Vec<Decl>,
        /// The body.
        body: Vec<Stmt>,
        /// Where it is.
        span: Span,
    },
    /// `invariant "name" expr`.
    Invariant {
        /// The name.
        name: String,
        /// The condition.
        cond: Expr,
        /// Where it is.
        span: Span,
    },
    /// `assume "name" cond` (Rumur): states where it is false are
    /// discarded, neither checked nor expanded.
    Assume {
        /// The name.
        name: String,
        /// The condition.
        cond: Expr,
        /// Where it is.
        span: Span,
    },
    /// `liveness "name" cond` (Rumur): from every reachable state, a state
    /// satisfying it stays reachable (AG EF cond).
    Liveness {
        /// The name.
        name: String,
        /// The condition.
        cond: Expr,
        /// Where it is.
        span: Span,
    },
    /// `cover "name" cond` (Rumur): some reachable state must satisfy it.
    Cover {
        /// The name.
        name: String,
        /// The condition.
        cond: Expr,
        /// Where it is.
        span: Span,
    },
    /// `ruleset q; q do rules end`.
    Ruleset(Vec<Quantifier>, Vec<Rule>),
    /// `alias a: e; ... do rules end`.
    Alias(Vec<AliasDecl>, Vec<Rule>),
    /// `choose i: m do rules endchoose`: the rules once per present
    /// element `i` of multiset `m`.
    Choose(String, Expr, Vec<Rule>, Span),
}

/// One binding of an `alias`: a name for a designator (a reference) or
/// for the value of an expression.
#[derive(Clone, Debug)]
pub struct AliasDecl {
    /// The new name.
    pub name: String,
    /// What it stands for.
    pub target: Expr,
    /// Where it is.
    pub span: Span,
}

/// A designator step.
#[derive(Clone, Debug)]
pub enum Selector {
    /// `.field`
    Field(String, Span),
    /// `[index]`
    Index(Expr),
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// Expression kinds.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` / `false`.
    Bool(bool),
    /// A name with selectors: `x`, `a[i].f`.
    Designator(String, Vec<Selector>),
    /// A function call.
    Call(String, Vec<Expr>),
    /// A unary operator (`-`, `!`).
    Unary(&'static str, Box<Expr>),
    /// A binary operator.
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `exists q do e endexists` (`true`) or `forall` (`false`).
    Quant(bool, Box<Quantifier>, Box<Expr>),
    /// `isundefined(d)`.
    IsUndefined(Box<Expr>),
    /// `multisetcount(i: m, pred)`: how many elements `i` of `m` satisfy
    /// `pred`.
    MultisetCount(String, Box<Expr>, Box<Expr>),
    /// `ismember(e, T)`: whether union value `e` is of member type `T`.
    IsMember(Box<Expr>, TypeExpr),
    /// `undefined` (CMurphi): only assigned or passed by value.
    Undefined,
}

/// A statement.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// Statement kinds.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `d := e`.
    Assign(Expr, Expr),
    /// `if c then s {elsif c then s} [else s] endif`.
    If(Vec<(Expr, Vec<Stmt>)>, Vec<Stmt>),
    /// `switch e case v, w : s ... else s endswitch`.
    Switch(Expr, Vec<(Vec<Expr>, Vec<Stmt>)>, Vec<Stmt>),
    /// `for q do s endfor`.
    For(Quantifier, Vec<Stmt>),
    /// `while c do s endwhile`.
    While(Expr, Vec<Stmt>),
    /// A procedure call.
    Call(String, Vec<Expr>),
    /// `clear d`.
    Clear(Expr),
    /// `undefine d`.
    Undefine(Expr),
    /// `error "msg"`.
    Error(String),
    /// `assert e "msg"`.
    Assert(Expr, String),
    /// `put e` (no effect on the state; not printed).
    Put,
    /// `return [e]`.
    Return(Option<Expr>),
    /// `alias a: e; ... do stmts end`.
    Alias(Vec<AliasDecl>, Vec<Stmt>),
    /// `assume cond` (Rumur): when false, the rule is abandoned and its
    /// successor discarded.
    Assume(Expr),
    /// `cover "name" cond` (Rumur): some execution must find it true.
    Cover(String, Expr),
    /// `multisetadd(e, m)`.
    MultisetAdd(Expr, Expr),
    /// `multisetremove(i, m)`.
    MultisetRemove(Expr, Expr),
    /// `multisetremovepred(i: m, pred)`.
    MultisetRemovePred(String, Expr, Expr),
}
