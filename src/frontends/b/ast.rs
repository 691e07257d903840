//! Abstract syntax of classical B machines, as the parser produces it.
//!
//! Definitions (the `DEFINITIONS` clause) are macros: the parser expands
//! every use, so no [`ExprKind`] or [`SubstKind`] refers to a definition.
//! Expressions and predicates share one type, [`Expr`], because B mixes them
//! (`bool(P)`, `{x | P}`); the type checker tells them apart.
//! Every node carries the [`Span`] of the source text it came from so that
//! errors found later (type errors, well-definedness errors during the
//! search) can point at file:line:column.

use crate::diag::Span;

/// A name with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name as written (B is case sensitive).
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// Which kind of component a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentKind {
    /// `MACHINE`
    Machine,
    /// `REFINEMENT` (checked as a machine in its own right)
    Refinement,
    /// `IMPLEMENTATION` (checked as a machine in its own right)
    Implementation,
}

/// A whole parsed B component.
#[derive(Clone, Debug)]
pub struct Machine {
    /// MACHINE, REFINEMENT or IMPLEMENTATION.
    pub kind: ComponentKind,
    /// The component's name.
    pub name: Ident,
    /// Parameters, e.g. `TOWN` and `n` in `MACHINE Towns(TOWN, n)`. A name
    /// with an upper-case letter and no lower-case one is a set parameter
    /// (a deferred set when the machine is checked on its own), any other
    /// a scalar parameter (a constant constrained by `CONSTRAINTS`).
    pub params: Vec<Ident>,
    /// `REFINES m`: the abstraction whose sets, constants and properties
    /// are in scope (see [`crate::frontends::b::compose`]).
    pub refines: Option<Ident>,
    /// `SEES` and `USES`: machines read but not changed.
    pub sees: Vec<MachineRef>,
    /// `INCLUDES` and `IMPORTS`: machine instances whose operations this
    /// machine calls.
    pub includes: Vec<MachineRef>,
    /// `EXTENDS`: included machine instances whose operations are all promoted.
    pub extends: Vec<MachineRef>,
    /// `PROMOTES`: operations of included machines offered as this machine's.
    pub promotes: Vec<Ident>,
    /// `VALUES c = e; ...` of an implementation: the concrete constants' values.
    pub values: Vec<(Ident, Expr)>,
    /// `CONSTRAINTS` on the machine parameters.
    pub constraints: Option<Expr>,
    /// `SETS`, in order of declaration.
    pub sets: Vec<SetDecl>,
    /// `FREETYPES` (ProB's inductive data types), in order of declaration.
    pub freetypes: Vec<FreeTypeDecl>,
    /// `CONSTANTS`, `CONCRETE_CONSTANTS` and `ABSTRACT_CONSTANTS`, in order.
    pub constants: Vec<Ident>,
    /// `PROPERTIES` (conjunction as written).
    pub properties: Option<Expr>,
    /// `VARIABLES`, `CONCRETE_VARIABLES`, `ABSTRACT_VARIABLES`, in order.
    pub variables: Vec<Ident>,
    /// The names among [`Self::variables`] declared `CONCRETE_VARIABLES`
    /// (they stay in every refinement).
    pub concrete_variables: Vec<String>,
    /// `INVARIANT`.
    pub invariant: Option<Expr>,
    /// `ASSERTIONS`, one entry per `;`-separated assertion.
    pub assertions: Vec<Expr>,
    /// `INITIALISATION`.
    pub initialisation: Option<Subst>,
    /// `OPERATIONS`, in order.
    pub operations: Vec<Operation>,
    /// `LOCAL_OPERATIONS` of an implementation: the specifications of
    /// operations that only its own operations call (their implementations
    /// are in `OPERATIONS`).
    pub local_operations: Vec<Operation>,
    /// Every definition of the `DEFINITIONS` clause (already expanded where
    /// used; kept for tools that list them).
    pub definitions: Vec<Definition>,
    /// The `GOAL == P` definition, parsed as a predicate, if present.
    pub goal: Option<Expr>,
    /// The `SCOPE == P` definition (ProB's), parsed as a predicate: a
    /// reachable state where it is false is kept but not expanded.
    pub scope: Option<Expr>,
    /// The `ASSERT_LTL...` definitions: name and formula (ProB's syntax).
    pub ltl: Vec<(String, String)>,
    /// The names of ProB's `EXPRESSIONS` and `PREDICATES` clauses: named
    /// formulas ProB shows beside each state. They are parsed, not
    /// evaluated: nothing that is checked depends on them.
    pub named_formulas: Vec<Ident>,
    /// The predicate atoms `{P}` of the LTL formulas (the machine's own and
    /// those given on the command line), each with its text as written.
    pub ltl_atoms: Vec<(String, Expr)>,
    /// The step atoms with arguments `[op(a1, ..., an)]` of the LTL
    /// formulas, each with its text as [`crate::temporal::ltl::Atom`]
    /// prints it.
    pub ltl_steps: Vec<LtlStep>,
    /// `scope_X == e` definitions: set name `X` and the expression
    /// (an interval `1..n` or an integer `n`), giving the size of deferred set `X`.
    pub scopes: Vec<(Ident, Expr)>,
}

impl Machine {
    /// A component with a name and no clauses.
    pub fn empty(kind: ComponentKind, name: Ident) -> Self {
        Machine {
            kind,
            name,
            params: Vec::new(),
            refines: None,
            sees: Vec::new(),
            includes: Vec::new(),
            extends: Vec::new(),
            promotes: Vec::new(),
            values: Vec::new(),
            constraints: None,
            sets: Vec::new(),
            freetypes: Vec::new(),
            constants: Vec::new(),
            properties: None,
            variables: Vec::new(),
            concrete_variables: Vec::new(),
            invariant: None,
            assertions: Vec::new(),
            initialisation: None,
            operations: Vec::new(),
            local_operations: Vec::new(),
            definitions: Vec::new(),
            goal: None,
            scope: None,
            ltl: Vec::new(),
            named_formulas: Vec::new(),
            ltl_atoms: Vec::new(),
            ltl_steps: Vec::new(),
            scopes: Vec::new(),
        }
    }
}

/// A step atom with arguments of an LTL formula, `[op(a1, ..., an)]`:
/// each argument an expression over the state (`None`: any value).
#[derive(Clone, Debug)]
pub struct LtlStep {
    /// The atom as printed (the key the checker asks for it by).
    pub text: String,
    /// The operation.
    pub op: String,
    /// The arguments.
    pub args: Vec<Option<Expr>>,
}

/// A machine named in a structuring clause: `r.M(a, b)`.
#[derive(Clone, Debug)]
pub struct MachineRef {
    /// The renaming prefix `r` of `r.M`, if any.
    pub prefix: Option<String>,
    /// The machine's name `M`.
    pub name: Ident,
    /// Actual parameters, one per formal parameter of `M`.
    pub args: Vec<Expr>,
    /// The whole reference.
    pub span: Span,
}

/// A definition from the `DEFINITIONS` clause.
#[derive(Clone, Debug)]
pub struct Definition {
    /// Its name.
    pub name: Ident,
    /// Its formal parameters.
    pub params: Vec<Ident>,
    /// Span of the whole definition.
    pub span: Span,
}

/// A set declared in the `SETS` clause.
#[derive(Clone, Debug)]
pub enum SetDecl {
    /// `ID` (size from `scope_ID`, `card(ID) = n` in PROPERTIES, `--set`, or the default).
    Deferred(Ident),
    /// `ID = {a, b, c}`
    Enumerated(Ident, Vec<Ident>),
}

impl SetDecl {
    /// The declared set's name.
    pub fn name(&self) -> &Ident {
        match self {
            SetDecl::Deferred(n) | SetDecl::Enumerated(n, _) => n,
        }
    }
}

/// A free type of the `FREETYPES` clause: `List = nil, cons(INTEGER * List)`.
#[derive(Clone, Debug)]
pub struct FreeTypeDecl {
    /// The type's name.
    pub name: Ident,
    /// Its constructors, in order of declaration.
    pub constructors: Vec<ConstructorDecl>,
}

/// A constructor of a free type: a constant (`nil`) or a function of one
/// argument whose set is a type (`cons(INTEGER * List)`).
#[derive(Clone, Debug)]
pub struct ConstructorDecl {
    /// The constructor's name.
    pub name: Ident,
    /// The type of its argument, as written; `None` for a constant.
    pub arg: Option<Expr>,
}

/// An operation: `outs <-- name(params) = body`.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Its name.
    pub name: Ident,
    /// Output names (`r` in `r <-- op(x)`).
    pub outputs: Vec<Ident>,
    /// Input parameter names.
    pub params: Vec<Ident>,
    /// The body.
    pub body: Subst,
    /// Span of the whole operation.
    pub span: Span,
}

/// An expression or predicate with its source span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// Expressions and predicates.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A variable, constant, set name, enumerated element or bound variable.
    /// `x$0` (value before a `: (P)` substitution) is `Ident("x$0")`.
    Ident(String),
    /// An integer literal.
    Int(i64),
    /// An integer literal beyond 64 bits (its sign included).
    BigInt(num_bigint::BigInt),
    /// A string literal `"..."`.
    Str(String),
    /// `TRUE`
    True,
    /// `FALSE`
    False,
    /// A built-in constant set or number: `NAT`, `INTEGER`, `BOOL`, `MAXINT`, `{}`, `[]`, ...
    Constant(BuiltinConstant),
    /// `op e`
    Unary(UnaryOp, Box<Expr>),
    /// `a op b`
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// Built-ins with several arguments: `prj1(S, T)`, `iterate(r, n)`, ...
    Call(Builtin, Vec<Expr>),
    /// `f(a)` or `f(a, b)` (the latter means `f(a |-> b)`).
    Apply(Box<Expr>, Vec<Expr>),
    /// `r[S]`, relational image.
    Image(Box<Expr>, Box<Expr>),
    /// `{a, b, c}` (non-empty).
    SetEnum(Vec<Expr>),
    /// `[a, b, c]` (non-empty).
    SeqEnum(Vec<Expr>),
    /// `{x, y | P}`
    Comprehension(Vec<Ident>, Box<Expr>),
    /// `%(x, y).(P | E)`
    Lambda(Vec<Ident>, Box<Expr>, Box<Expr>),
    /// `!(x, y).(P => Q)` and `#(x, y).(P)`; the body is the whole predicate inside.
    Quantifier(Quantifier, Vec<Ident>, Box<Expr>),
    /// `SIGMA(x).(P | E)`, `PI(x).(P | E)`, `UNION(x).(P | E)`, `INTER(x).(P | E)`.
    QuantifiedExpr(QuantifiedExprKind, Vec<Ident>, Box<Expr>, Box<Expr>),
    /// `bool(P)`
    BoolOf(Box<Expr>),
    /// `IF P THEN E1 ELSE E2 END` as an expression (ProB extension).
    IfThenElse(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `LET x, y BE x = E1 & y = E2 IN E END` as an expression (ProB extension):
    /// names, the defining predicate, the body.
    Let(Vec<Ident>, Box<Expr>, Box<Expr>),
    /// `rec(a: e1, b: e2)`: a record, fields as written.
    Record(Vec<(Ident, Expr)>),
    /// `struct(a: S, b: T)`: the set of records with fields in these sets.
    Struct(Vec<(Ident, Expr)>),
    /// `r'a`: a field of a record.
    Field(Box<Expr>, Ident),
    /// The record `r` with field `a` replaced by `e` (what `r'a := e` assigns).
    RecordWith(Box<Expr>, Ident, Box<Expr>),
    /// A call of an external function of ProB's standard libraries that
    /// orbit implements, e.g. `STRING_LENGTH(s)` (see [`crate::frontends::b::library`]).
    External(crate::frontends::b::library::External, Vec<Expr>),
}

/// Built-in constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinConstant {
    /// `NAT` (0..MAXINT)
    Nat,
    /// `NAT1` (1..MAXINT)
    Nat1,
    /// `INT` (MININT..MAXINT)
    Int,
    /// `NATURAL` (mathematical, unbounded)
    Natural,
    /// `NATURAL1`
    Natural1,
    /// `INTEGER` (mathematical, unbounded)
    Integer,
    /// `BOOL`
    Bool,
    /// `STRING`
    String,
    /// `MAXINT`
    MaxInt,
    /// `MININT`
    MinInt,
    /// `{}`
    EmptySet,
    /// `[]`
    EmptySeq,
}

/// Prefix and postfix operators and one-argument built-ins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-e`
    Minus,
    /// `not(P)`
    Not,
    /// `r~`
    Inverse,
    /// `card(S)`
    Card,
    /// `dom(r)`
    Dom,
    /// `ran(r)`
    Ran,
    /// `POW(S)`
    Pow,
    /// `POW1(S)`
    Pow1,
    /// `FIN(S)`
    Fin,
    /// `FIN1(S)`
    Fin1,
    /// `union(SS)`
    GeneralUnion,
    /// `inter(SS)`
    GeneralInter,
    /// `min(S)`
    Min,
    /// `max(S)`
    Max,
    /// `id(S)`
    Id,
    /// `closure(r)` (reflexive transitive closure over the relation's field)
    Closure,
    /// `closure1(r)`
    Closure1,
    /// `seq(S)`
    Seq,
    /// `seq1(S)`
    Seq1,
    /// `iseq(S)`
    Iseq,
    /// `iseq1(S)`
    Iseq1,
    /// `perm(S)`
    Perm,
    /// `first(s)`
    First,
    /// `last(s)`
    Last,
    /// `front(s)`
    Front,
    /// `tail(s)`
    Tail,
    /// `size(s)`
    Size,
    /// `rev(s)`
    Rev,
    /// `conc(ss)`
    Conc,
    /// `succ(n)` (also usable as a function)
    Succ,
    /// `pred(n)`
    Pred,
    /// `SIGMA`-free sum of a set of integers is not B; not listed.
    /// `fnc(r)`
    Fnc,
    /// `rel(f)`
    Rel,
}

/// Infix operators (expressions and predicates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    // ---- arithmetic and sets ----
    /// `+`
    Add,
    /// `-` (integer subtraction or set difference, decided by types)
    Minus,
    /// `*` (integer product or cartesian product, decided by types)
    Mul,
    /// `/`
    Div,
    /// `mod`
    Mod,
    /// `**`
    Power,
    /// `a..b`
    Interval,
    /// `\/`
    Union,
    /// `/\`
    Inter,
    /// `a |-> b` (also `(a, b)` pairs)
    Maplet,
    // ---- relations and functions ----
    /// `<->`
    Relation,
    /// `+->`
    PartialFunction,
    /// `-->`
    TotalFunction,
    /// `>+>`
    PartialInjection,
    /// `>->`
    TotalInjection,
    /// `+->>`
    PartialSurjection,
    /// `-->>`
    TotalSurjection,
    /// `>+>>`
    PartialBijection,
    /// `>->>`
    TotalBijection,
    /// `<|`
    DomainRestriction,
    /// `<<|`
    DomainSubtraction,
    /// `|>`
    RangeRestriction,
    /// `|>>`
    RangeSubtraction,
    /// `<+`
    Override,
    /// `><`
    DirectProduct,
    /// `;` inside parentheses: relational composition `(r1 ; r2)`
    Composition,
    /// `||` inside parentheses: parallel product `(r1 || r2)`
    ParallelProduct,
    // ---- sequences ----
    /// `s <- e` (append)
    Append,
    /// `e -> s` (prepend)
    Prepend,
    /// `s ^ t`
    Concat,
    /// `s /|\ n` (first n elements)
    TakeFront,
    /// `s \|/ n` (drop first n elements)
    DropFront,
    // ---- predicates ----
    /// `=`
    Eq,
    /// `/=`
    Neq,
    /// `:`
    Member,
    /// `/:`
    NotMember,
    /// `<:`
    Subset,
    /// `<<:`
    StrictSubset,
    /// `/<:`
    NotSubset,
    /// `/<<:`
    NotStrictSubset,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&`
    And,
    /// `or`
    Or,
    /// `=>`
    Implies,
    /// `<=>`
    Equiv,
}

impl BinaryOp {
    /// Whether the operator builds a set of functions: `+->`, `-->`, the
    /// injections, surjections and bijections.
    pub fn is_function_arrow(self) -> bool {
        use BinaryOp::*;
        matches!(
            self,
            PartialFunction
                | TotalFunction
                | PartialInjection
                | TotalInjection
                | PartialSurjection
                | TotalSurjection
                | PartialBijection
                | TotalBijection
        )
    }

    /// What a [function arrow](Self::is_function_arrow) asks of its
    /// functions besides being functions: (total, injective, surjective).
    pub fn arrow_properties(self) -> Option<(bool, bool, bool)> {
        use BinaryOp::*;
        Some(match self {
            PartialFunction => (false, false, false),
            TotalFunction => (true, false, false),
            PartialInjection => (false, true, false),
            TotalInjection => (true, true, false),
            PartialSurjection => (false, false, true),
            TotalSurjection => (true, false, true),
            PartialBijection => (false, true, true),
            TotalBijection => (true, true, true),
            _ => return None,
        })
    }

    /// Whether the operator builds a set of relations: `<->` or a
    /// [function arrow](Self::is_function_arrow).
    pub fn is_relation_set(self) -> bool {
        self == BinaryOp::Relation || self.is_function_arrow()
    }

    /// Whether the operator builds a predicate (comparisons, membership,
    /// inclusion, connectives) rather than an expression.
    pub fn is_predicate(self) -> bool {
        use BinaryOp::*;
        matches!(
            self,
            Eq | Neq
                | Member
                | NotMember
                | Subset
                | StrictSubset
                | NotSubset
                | NotStrictSubset
                | Lt
                | Le
                | Gt
                | Ge
                | And
                | Or
                | Implies
                | Equiv
        )
    }
}

/// Built-ins taking several arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `prj1(S, T)`
    Prj1,
    /// `prj2(S, T)`
    Prj2,
    /// `iterate(r, n)`
    Iterate,
}

/// `!` and `#`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// `!x.(P => Q)`
    ForAll,
    /// `#x.(P)`
    Exists,
}

/// Quantified expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantifiedExprKind {
    /// `SIGMA(x).(P | E)`
    Sum,
    /// `PI(x).(P | E)`
    Product,
    /// `UNION(x).(P | E)`
    Union,
    /// `INTER(x).(P | E)`
    Inter,
}

/// A substitution with its source span.
#[derive(Clone, Debug, PartialEq)]
pub struct Subst {
    /// What it is.
    pub kind: SubstKind,
    /// Where it was written.
    pub span: Span,
}

/// The left-hand side of `:=`.
#[derive(Clone, Debug, PartialEq)]
pub enum AssignTarget {
    /// `x := e`
    Var(Ident),
    /// `f(a) := e` or `f(a, b) := e` (the latter means `f(a |-> b) := e`)
    FunctionPoint(Ident, Vec<Expr>),
}

/// Substitutions (generalised substitutions of classical B).
#[derive(Clone, Debug, PartialEq)]
pub enum SubstKind {
    /// `skip`
    Skip,
    /// `x, f(a) := e1, e2`: targets and values, same length.
    Assign(Vec<AssignTarget>, Vec<Expr>),
    /// `x, y :: S`
    BecomesElementOf(Vec<Ident>, Expr),
    /// `x, y : (P)` where `P` may mention `x$0` for the old value.
    BecomesSuchThat(Vec<Ident>, Expr),
    /// `S1 || S2 || ...`
    Parallel(Vec<Subst>),
    /// `S1 ; S2 ; ...`
    Sequence(Vec<Subst>),
    /// `BEGIN S END`
    Block(Box<Subst>),
    /// `PRE P THEN S END` (a guard for the model checker, as in ProB)
    Precondition(Expr, Box<Subst>),
    /// `ASSERT P THEN S END` (a well-definedness check: false is a model error)
    Assert(Expr, Box<Subst>),
    /// The precondition `P` of operation `op` where another operation calls
    /// it (made by [`crate::frontends::b::compose`]): false is a model error, as an
    /// `ASSERT`, since the caller broke the callee's contract.
    CalledPre(Ident, Expr, Box<Subst>),
    /// `SELECT P THEN S WHEN Q THEN T ... ELSE U END`; also the standalone
    /// `WHEN P THEN S END`.
    Select(Vec<(Expr, Subst)>, Option<Box<Subst>>),
    /// `IF P THEN S ELSIF Q THEN T ... ELSE U END` (no ELSE means skip)
    If(Vec<(Expr, Subst)>, Option<Box<Subst>>),
    /// `CASE e OF EITHER v1, v2 THEN S OR v3 THEN T ... ELSE U END END`
    /// (no ELSE means skip, as ProB runs it)
    Case(Expr, Vec<(Vec<Expr>, Subst)>, Option<Box<Subst>>),
    /// `CHOICE S OR T OR ... END`
    Choice(Vec<Subst>),
    /// `ANY x, y WHERE P THEN S END`
    Any(Vec<Ident>, Expr, Box<Subst>),
    /// `LET x, y BE x = e1 & y = e2 IN S END`
    Let(Vec<Ident>, Expr, Box<Subst>),
    /// `VAR x, y IN S END`
    Var(Vec<Ident>, Box<Subst>),
    /// `r1, r2 <-- op(a, b)`: a call of an operation of an included machine.
    /// [`crate::frontends::b::compose`] replaces every call by the operation's body.
    OpCall(Vec<Ident>, Ident, Vec<Expr>),
    /// `WHILE P DO S INVARIANT I VARIANT V END`
    While(Box<While>),
}

/// The parts of a `WHILE` loop.
#[derive(Clone, Debug, PartialEq)]
pub struct While {
    /// The loop condition.
    pub cond: Expr,
    /// The body.
    pub body: Subst,
    /// Must hold before every test of the condition (a model error otherwise).
    pub invariant: Expr,
    /// A natural number that every iteration decreases (a model error otherwise).
    pub variant: Expr,
}
