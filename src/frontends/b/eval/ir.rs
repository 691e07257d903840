//! The compiled form of a machine that the interpreter runs.
//!
//! [`super::compile`] turns the AST into these trees once, in
//! [`super::Interpreter::new`]: every identifier becomes a [`Slot`] (an index
//! into the constants or into the evaluation frame), expressions and
//! predicates are separate trees, and every group of bound variables comes
//! with a [`Solver`] plan that says, statically, in which order its
//! variables are generated and when each conjunct is checked. Evaluation
//! then never looks a name up.

use crate::diag::Span;
use crate::frontends::b::ast::{BinaryOp, QuantifiedExprKind, UnaryOp};
use crate::frontends::b::types::Type;
use crate::frontends::b::value::Value;

/// Where an identifier's value lives at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Index into the constants of the current valuation.
    Const(u32),
    /// Index into the frame: variables first, then operation parameters,
    /// outputs and bound/local variables.
    Frame(u32),
}

/// Built-in integer sets, kept symbolic (never materialised unless needed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntSet {
    /// `NAT`: 0..MAXINT
    Nat,
    /// `NAT1`: 1..MAXINT
    Nat1,
    /// `INT`: MININT..MAXINT
    Int,
    /// `NATURAL` (unbounded)
    Natural,
    /// `NATURAL1` (unbounded)
    Natural1,
    /// `INTEGER` (unbounded)
    Integer,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub struct CExpr {
    /// What it computes.
    pub kind: EK,
    /// Source span, for error messages.
    pub span: Span,
}

/// Compiled expression kinds.
#[derive(Clone, Debug)]
pub enum EK {
    /// A literal value (numbers, booleans, given sets, enumerated elements).
    Lit(Value),
    /// Read a constant or frame slot.
    Read(Slot),
    /// Read the frame slot of a `VAR` local or an operation's output,
    /// named: a model error while it holds no value yet (see
    /// [`super::undefined`]).
    Local(u32, std::sync::Arc<str>),
    /// A built-in integer set.
    Ints(IntSet),
    /// `STRING`
    Strings,
    /// A free type (by number), as the set of all its values.
    FreeType(u32),
    /// `c~(v)`: the argument of constructor number `.0` (named `.1`, for
    /// messages) that built `v`; a model error for a value another
    /// constructor built.
    Destruct(u32, std::sync::Arc<str>, Box<CExpr>),
    /// One-argument operators and built-ins.
    Unary(UnaryOp, Box<CExpr>),
    /// Infix operators that yield values.
    Binary(BinaryOp, Box<CExpr>, Box<CExpr>),
    /// `prj1(S, T)` (true) or `prj2(S, T)` (false).
    Projection(bool, Box<CExpr>, Box<CExpr>),
    /// ProB's one-argument `prj1(p)` (true) or `prj2(p)` (false): a
    /// component of the pair `p`.
    Component(bool, Box<CExpr>),
    /// `iterate(r, n)`
    Iterate(Box<CExpr>, Box<CExpr>),
    /// `f(x)`, the arguments already paired.
    Apply(Box<CExpr>, Box<CExpr>),
    /// `{x, y | P}(a)` or `%x.(P | E)(a)` written in place (a
    /// [`ExprKind::Comprehension`](Self::Comprehension) with its image
    /// solver, or a [`ExprKind::Lambda`](Self::Lambda), then the argument): the image of `a` found
    /// by solving the predicate with the argument bound, as ProB applies
    /// them, never by building the set (which may be infinite: ASM and
    /// TLA translations apply `{z, v | z : BOOL & v : POW(A * INTEGER) &
    /// ...}(TRUE)`).
    ApplyBinder(Box<CExpr>, Box<CExpr>),
    /// `r[S]` for a comprehension or lambda `r` written in place (as in
    /// [`Self::ApplyBinder`]), then `S`: the images of each element of `S`
    /// solved for (`pred[{100, 102}]`).
    ImageBinder(Box<CExpr>, Box<CExpr>),
    /// `p ; r` for an explicit relation `p` and a comprehension or lambda
    /// `r` written in place: each pair's images under `r` solved for
    /// (`id(1..256) ; pred`).
    ComposeBinder(Box<CExpr>, Box<CExpr>),
    /// `r[S]`
    Image(Box<CExpr>, Box<CExpr>),
    /// `{a, b}`
    SetEnum(Vec<CExpr>),
    /// `[a, b]`
    SeqEnum(Vec<CExpr>),
    /// `{x, y | P}`: every solution, as the (left-nested) tuple of the variables.
    Comprehension(Box<Solver>),
    /// `%(x, y).(P | E)`: the solver and the body.
    Lambda(Box<Solver>, Box<CExpr>),
    /// `SIGMA`, `PI`, `UNION`, `INTER` over the solutions.
    Quantified(QuantifiedExprKind, Box<Solver>, Box<CExpr>),
    /// `bool(P)`
    BoolOf(Box<CPred>),
    /// `IF P THEN E1 ELSE E2 END`
    IfThenElse(Box<CPred>, Box<CExpr>, Box<CExpr>),
    /// `LET ... BE P IN E END`: the solver binds the names.
    Let(Box<Solver>, Box<CExpr>),
    /// The ways to cut a sequence into parts, each of the given size where
    /// one is given: every left-nested tuple `((a |-> b) |-> c)` with `a ^
    /// b ^ c` the sequence (how plans generate `x ^ y = s`). With the
    /// flag, the expression is a set of sequences and the cuts are those of
    /// each (`e |-> x ^ y : S` cuts every sequence of `S[{e}]`).
    Splits(Box<CExpr>, Vec<Option<CExpr>>, bool),
    /// An external function of ProB's libraries (see [`crate::frontends::b::library`]).
    External(crate::frontends::b::library::External, Vec<CExpr>),
    /// `MAXIMIZE(S)` or `MINIMIZE(S)` of a comprehension whose first
    /// variable is the objective, searched by branch and bound (see
    /// [`Optimum`]).
    Optimum(Box<Optimum>),
    /// The defining expression of a constant (`c = E` in PROPERTIES): its
    /// value, or the definition kept symbolic when it is recursive or
    /// cannot be built (see [`super::symbolic`]).
    Symbolic(Box<super::symbolic::SymbolicDef>),
    /// A loop-invariant expression, evaluated once per value of the slots
    /// it reads (see [`super::memo`]).
    Memo(std::sync::Arc<super::memo::Memo>),
}

/// Comparison operators of atomic predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `=`
    Eq,
    /// `/=`
    Neq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Cmp {
    /// The comparison with its operands swapped: `a < b` is `b > a`.
    pub fn mirrored(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            other => other,
        }
    }

    /// The comparison that holds exactly where this one does not: `a < b`
    /// fails where `a >= b` holds.
    pub fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Neq,
            Cmp::Neq => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }
}

/// A compiled predicate.
#[derive(Clone, Debug)]
pub struct CPred {
    /// What it tests.
    pub kind: PK,
    /// Source span: error messages and the text of failing invariants.
    pub span: Span,
}

/// Compiled predicate kinds.
#[derive(Clone, Debug)]
pub enum PK {
    /// A constant truth value.
    Const(bool),
    /// Conjunction of all.
    And(Vec<CPred>),
    /// `P or Q`
    Or(Box<CPred>, Box<CPred>),
    /// `P => Q`
    Implies(Box<CPred>, Box<CPred>),
    /// `P <=> Q`
    Equiv(Box<CPred>, Box<CPred>),
    /// `not(P)`
    Not(Box<CPred>),
    /// Comparisons.
    Cmp(Cmp, CExpr, CExpr),
    /// `e : S` (false) or `e /: S` (true: negated).
    Member(CExpr, CExpr, bool),
    /// `a <: b` with (strict, negated).
    Subset(CExpr, CExpr, bool, bool),
    /// `!x.(P => Q)`: solve P, check Q for every solution.
    ForAll(Box<Solver>, Box<CPred>),
    /// `#x.(P)`: is there a solution?
    Exists(Box<Solver>),
}

/// How a bound variable gets its candidate values.
#[derive(Clone, Debug)]
pub enum Gen {
    /// `x = e`: exactly one candidate.
    Eq(CExpr),
    /// `x : S` (also `x <: S` as `x : POW(S)`): every element of `S`,
    /// enumerated symbolically where possible.
    In(CExpr),
    /// No generating conjunct: every value of the (finite) type.
    Type(Type),
    /// No generating conjunct and no finite type: enumerating is an error
    /// (reported when the binder is evaluated). Holds the variable's name
    /// and, where known, its type (for the constraint solver, which may
    /// encode it: a sequence whose size is fixed).
    Unbounded(String, Option<Type>),
    /// `(C1 => x = e1 & ..) & (C2 => x = e2 & ..)` (TLA2B's translation of
    /// `IF`): the values `ei` of the cases whose condition `Ci` holds;
    /// where none holds, `otherwise`. The implications stay checks.
    Cases {
        /// Each case's condition and candidates.
        cases: Vec<(CPred, Choice)>,
        /// The generator where no condition holds.
        otherwise: Box<Gen>,
    },
    /// `f : S --> T` with `f(a) = e, ..` and `!x.(x : S2 => f(x) = E)`
    /// where `E` reads `f` (a recurrence, `fib(x) = fib(x - 1) + fib(x -
    /// 2)`): the one function built point by point, the elements of `S2`
    /// in increasing order (else in decreasing order), each `E` evaluated
    /// with `f` the points built so far. Where `E` needs a point not yet
    /// built in either order, or the points do not cover `S`, the
    /// candidates of `otherwise` (the space itself). The conjuncts stay
    /// checks.
    Recurrence {
        /// The set of the pairs `a |-> e` given point by point.
        points: CExpr,
        /// The quantifier's variable `x` (a frame slot).
        x: u32,
        /// The set `S2` it ranges over.
        over: CExpr,
        /// `E`, the image at `x`.
        body: CExpr,
        /// The space's domain `S`; `None` where the space is a named set
        /// of functions (`c : MSG` with `MSG = 1..n --> BIT`): then the
        /// domain its elements share, found where the set is evaluated.
        domain: Option<CExpr>,
        /// The generator where the recurrence gives no function.
        otherwise: Box<Gen>,
    },
    /// `x : seq(S)` (or `seq1(S)`, then `nonempty`) with `size(x) <= n`
    /// elsewhere: every sequence over `S` of length at most `n`, shortest first.
    SeqUpTo {
        /// The set `S` of the elements.
        elements: CExpr,
        /// The greatest length `n`.
        max_len: CExpr,
        /// Whether the empty sequence is left out.
        nonempty: bool,
    },
}

/// The candidates of one case of [`Gen::Cases`].
#[derive(Clone, Debug)]
pub enum Choice {
    /// One value (`C => x = e`).
    One(CExpr),
    /// Every element of a set (`not(C) => x : S`, from `C or x : S`).
    Each(CExpr),
}

impl Choice {
    /// The expression giving the value or the set.
    pub fn expr(&self) -> &CExpr {
        match self {
            Choice::One(e) | Choice::Each(e) => e,
        }
    }

    /// The expression giving the value or the set, to rewrite.
    pub fn expr_mut(&mut self) -> &mut CExpr {
        match self {
            Choice::One(e) | Choice::Each(e) => e,
        }
    }
}

/// One step of a solver plan.
#[derive(Clone, Debug)]
pub enum SolveStep {
    /// Give a frame slot each candidate in turn.
    Bind(u32, Gen),
    /// Give a tuple pattern (`x |-> y : S`) each element of a set in turn.
    BindPattern(Pattern, CExpr),
    /// Keep only the current candidates for which this conjunct holds.
    Check(CPred),
    /// `p : S & f(p) = c` as one pass over `f` (see [`super::scan`]).
    Scan(Box<super::scan::PreimageScan>),
}

/// A tuple of frame slots to destructure a value into.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// Bind this slot.
    Slot(u32),
    /// The value must equal this slot's already bound value.
    Bound(u32),
    /// Destructure a pair.
    Pair(Box<Pattern>, Box<Pattern>),
    /// Any value: a part a check elsewhere constrains (the known middle of
    /// `x ^ [c, c] ^ y = s`).
    Any,
}

/// What a solver's conditions make of a function applied outside its
/// domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undefined {
    /// An error of the model (ordinary predicates).
    Error,
    /// The candidate is not a solution (operation guards, as ProB's
    /// default).
    False,
    /// The candidate is not a solution, and it is counted on the
    /// interpreter for the report (PROPERTIES: ProB's solver reads `f(x) =
    /// y` as `x |-> y : f`; see `Interpreter::undefined_rejections`).
    Counted,
    /// As `Counted`, for the constants' own search (PROPERTIES at the
    /// top level), except that `first`, `last`, `front` and `tail` of the
    /// empty sequence are errors: ProB enumerates a constant typed `iv :
    /// iseq(ID)` and reports `front(iv)` at `iv = []`, where in a nested
    /// binder (`{x | front(x) = [1, 2]}`) it solves the equation instead.
    Constants,
}

/// A static plan for enumerating the solutions of a predicate over some
/// bound variables (see [`super::plan`]).
#[derive(Clone, Debug)]
pub struct Solver {
    /// The bound variables' frame slots, in declaration order.
    pub vars: Vec<u32>,
    /// Steps in execution order.
    pub steps: Vec<SolveStep>,
    /// What a function applied outside its domain in a `Check` (or a
    /// generating equality) makes of the candidate.
    pub undefined: Undefined,
    /// Where the binder was written.
    pub span: Span,
    /// The binder's whole predicate, for testing given values of the
    /// variables without enumerating (membership in a comprehension or a
    /// lambda kept symbolic); set for the binders of expressions.
    pub condition: Option<Box<CPred>>,
    /// Set where the constraint solver may find the variables instead
    /// (a comprehension over sets or functions, as `{q | q : 1..n >->
    /// 1..n & ...}`: see [`super::cp`]).
    pub by_solver: Option<Box<BinderUnknowns>>,
    /// For a comprehension in PROPERTIES of two or more variables, the
    /// plan of its last variable with the others bound: how a
    /// comprehension kept symbolic is applied (`f(x)` for `f = {x, y |
    /// P}` solves `P` for `y`).
    pub image: Option<Box<Solver>>,
}

/// What the constraint solver needs to solve a binder's condition for
/// its variables (frame slots `vars`, consecutive).
#[derive(Clone, Debug)]
pub struct BinderUnknowns {
    /// The variables' names, for messages.
    pub names: Vec<String>,
    /// Their types.
    pub types: Vec<Type>,
    /// The condition's conjuncts.
    pub conjuncts: Vec<CPred>,
}

impl Solver {
    /// Whether a function applied outside its domain rejects the
    /// candidate instead of failing.
    pub fn lenient(&self) -> bool {
        self.undefined != Undefined::Error
    }
}

/// A compiled substitution.
#[derive(Clone, Debug)]
pub enum CSubst {
    /// `skip`
    Skip,
    /// Simultaneous assignment of frame slots.
    Assign(Vec<(u32, CExpr)>),
    /// `x :: S` (pattern for several names).
    BecomesIn(Pattern, CExpr),
    /// `x : (P)`: the solver binds fresh slots, then copy them to the targets.
    BecomesSuchThat(Vec<(u32, u32)>, Box<Solver>),
    /// `S1 || S2`: branches and the slots each one writes.
    Parallel(Vec<(CSubst, Vec<u32>)>),
    /// `S1 || S2` whose branches write some slot in common (ProB's
    /// `SET_PREF_ALLOW_SIMULTANEOUS_ASSIGNMENTS`): their updates merge.
    Simultaneous(Box<Simultaneous>),
    /// `S1 ; S2`
    Sequence(Vec<CSubst>),
    /// `PRE P THEN S` and single-branch `SELECT`: a guard.
    Guard(CPred, Box<CSubst>),
    /// `ASSERT P THEN S` (and a called operation's precondition): false is
    /// a model error with the message.
    Assert(CPred, Box<CSubst>, std::borrow::Cow<'static, str>),
    /// `SELECT`: every true branch; else branch if none is true.
    Select(Vec<(CPred, CSubst)>, Option<Box<CSubst>>),
    /// `IF`: first true branch, else branch or skip.
    If(Vec<(CPred, CSubst)>, Option<Box<CSubst>>),
    /// `CASE e OF ...`: the first branch listing `e`'s value, else the
    /// else branch or skip.
    Case(CExpr, Vec<(Vec<CExpr>, CSubst)>, Option<Box<CSubst>>),
    /// `CHOICE`: every branch.
    Choice(Vec<CSubst>),
    /// `ANY`/`LET`: every solution, then the body.
    Any(Box<Solver>, Box<CSubst>),
    /// `VAR`: the locals' slots (no value until assigned), then the body.
    Var(Vec<u32>, Box<CSubst>),
    /// `WHILE P DO S INVARIANT I VARIANT V END`
    While(Box<CWhile>),
    /// `x := x \/ {e1, ...}` (the slot, the elements, the whole assignment's
    /// value) in a `WHILE` loop that reads `x` nowhere else: while the loop
    /// runs, the elements are collected and added to `x` when it ends,
    /// instead of copying `x` at every iteration (see `accumulate`).
    /// Outside such a run it is the assignment.
    Accumulate(u32, Vec<CExpr>, CExpr),
}

/// Branches of `||` that may write the same slots (see
/// [`CSubst::Simultaneous`]).
#[derive(Clone, Debug)]
pub struct Simultaneous {
    /// The branches and the slots each one writes.
    pub branches: Vec<(CSubst, Vec<u32>)>,
    /// Every slot some branch writes, sorted.
    pub slots: Vec<u32>,
    /// The names of `slots`, for errors.
    pub names: Vec<String>,
    /// The whole substitution.
    pub span: Span,
}

/// `MAXIMIZE({c, x | P})` (or `MINIMIZE`): the comprehension's greatest
/// (least) element, which has the greatest (least) objective `c`. Instead
/// of listing every solution, the enumeration admits only solutions with
/// `c` beyond the best found so far; then the solutions with the best `c`
/// are listed and the greatest (least) of them taken, as listing all would
/// give.
#[derive(Clone, Debug)]
pub struct Optimum {
    /// `MAXIMIZE` rather than `MINIMIZE`.
    pub maximize: bool,
    /// The comprehension as written: listed whole where the objective is
    /// not an integer.
    pub plain: CExpr,
    /// Its plan with `c > bound` (`c < bound` to minimise) added.
    pub bounded: Box<Solver>,
    /// The frame slot of `bound`.
    pub bound: u32,
}

/// A compiled `WHILE` loop.
#[derive(Clone, Debug)]
pub struct CWhile {
    /// The loop condition.
    pub cond: CPred,
    /// The body.
    pub body: CSubst,
    /// Checked before every test of the condition.
    pub invariant: CPred,
    /// A natural number, evaluated while the condition holds; each
    /// iteration must decrease it.
    pub variant: CExpr,
    /// Slots the body only grows by [`CSubst::Accumulate`].
    pub accumulators: Vec<u32>,
}
