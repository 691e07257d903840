//! The translation of the constants' predicate into the CP solver's
//! variables and constraints, and the enumeration of its solutions (see
//! the parent module for what is translated).

use std::collections::HashMap;
use std::sync::Arc;

use pumpkin_conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_core::Solver as Cp;
use pumpkin_core::branching::branchers::alternating::AlternatingBrancher;
use pumpkin_core::branching::branchers::dynamic_brancher::DynamicBrancher;
use pumpkin_core::branching::branchers::independent_variable_value_brancher::IndependentVariableValueBrancher;
use pumpkin_core::branching::value_selection::InDomainMin;
use pumpkin_core::branching::variable_selection::FirstFail;
use pumpkin_core::constraints::{Constraint, NegatableConstraint};
use pumpkin_core::predicate;
use pumpkin_core::predicates::Predicate;
use pumpkin_core::proof::ConstraintTag;
use pumpkin_core::results::{CSPSolverExecutionFlag, ProblemSolution, SatisfactionResult};
use pumpkin_core::termination::TerminationCondition;
use pumpkin_core::variables::{AffineView, DomainId, Literal, TransformableVariable};

use super::super::ir::{CExpr, CPred, Cmp, EK, IntSet, PK, Slot, SolveStep, Solver};
use super::super::walk::Visitor;
use super::super::{Env, Fail, Interpreter, plan};
use super::Unsupported;
use super::alternation::StaticUntilStuck;
use super::decisions::Recording;
use super::sets::{ScalarItem, SetTerm};
use crate::diag::Span;
use crate::frontends::b::ast::{BinaryOp, QuantifiedExprKind, UnaryOp};
use crate::frontends::b::symmetry::ClassConstraints;
use crate::frontends::b::types::Type;
use crate::frontends::b::value::Value;
use crate::frontends::b::value::fast_hash::FastBuild;

/// Why a model could not be built.
pub(super) enum Failure {
    /// A construct beyond the translation.
    Unsupported(Unsupported),
    /// A conjunct over known values alone is false: no valuation.
    Unsat,
    /// No valuation within the range given to integers nothing bounds
    /// ([`Model::unsat_within_range`]): beyond it, there may be one.
    UnsatWithinRange(Unsupported),
    /// The run's budget ran out while evaluating.
    Stopped(workers::StopReason),
}

pub(super) type T<X> = Result<X, Failure>;

pub(super) fn unsupported(span: Span, what: impl Into<String>) -> Failure {
    Failure::Unsupported(Unsupported {
        span,
        what: what.into(),
    })
}

/// What an integer variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Int,
    /// `FALSE` 0, `TRUE` 1.
    Bool,
    /// An element of given set number `.0`, by its index.
    Elem(u32),
}

/// How an unknown value is represented by the solver's variables.
#[derive(Clone, Debug)]
pub(super) enum Enc {
    Scalar(Kind, DomainId),
    /// A total function: the image of each element of its domain (sorted).
    Function {
        domain: Arc<[Value]>,
        images: Arc<[Enc]>,
    },
    /// A set over a known universe (sorted): one 0/1 variable per
    /// element, 1 for a member.
    Set(SetTerm),
    /// A pair: its two components' encodings (`squadron : S --> A * B`
    /// has a pair of scalars per image).
    Pair(Arc<(Enc, Enc)>),
}

/// A linear integer term: `Σ cᵢ·xᵢ + k`.
#[derive(Clone, Debug, Default)]
pub(super) struct Lin {
    pub(super) terms: Vec<(i64, DomainId)>,
    pub(super) k: i64,
    /// Whether a coefficient or the constant overflowed 64 bits on the
    /// way (`x - MIN`): the term is then not translated ([`Model::linear`]).
    pub(super) overflow: bool,
}

impl Lin {
    pub(super) fn constant(k: i64) -> Lin {
        Lin {
            terms: Vec::new(),
            k,
            overflow: false,
        }
    }

    pub(super) fn var(x: DomainId) -> Lin {
        Lin {
            terms: vec![(1, x)],
            k: 0,
            overflow: false,
        }
    }

    pub(super) fn scaled(mut self, c: i64) -> Lin {
        for t in &mut self.terms {
            (t.0, self.overflow) = match t.0.checked_mul(c) {
                Some(v) => (v, self.overflow),
                None => (0, true),
            };
        }
        (self.k, self.overflow) = match self.k.checked_mul(c) {
            Some(v) => (v, self.overflow),
            None => (0, true),
        };
        self
    }

    pub(super) fn plus(mut self, other: Lin) -> Lin {
        for (c, x) in other.terms {
            match self.terms.iter_mut().find(|t| t.1 == x) {
                Some(t) => match t.0.checked_add(c) {
                    Some(v) => t.0 = v,
                    None => self.overflow = true,
                },
                None => self.terms.push((c, x)),
            }
        }
        self.terms.retain(|t| t.0 != 0);
        match self.k.checked_add(other.k) {
            Some(v) => self.k = v,
            None => self.overflow = true,
        }
        self.overflow |= other.overflow;
        self
    }
}

/// A translated expression.
#[derive(Clone, Debug)]
pub(super) enum Term {
    Lin(Lin),
    Fun(Enc),
    Set(SetTerm),
    /// A pair with a component over unknowns (`(x, f(1))`, an encoded
    /// pair).
    Pair(Box<(Term, Term)>),
    Known(Value),
}

/// What a bound variable defined over unknowns stands for: its
/// definition's term, and the scalar's kind and variable where it is one.
type Alias = (Term, Option<(Kind, DomainId)>);

/// The domain an unbounded integer constant starts from (the solver's
/// bounds are 32-bit: small multiples of it stay within them).
const WIDE: i64 = 1 << 24;

/// The widest domain propagation may leave an unbounded integer.
pub(super) const NARROWED: i64 = 1 << 20;

/// Most values of the smaller factor of a product of two unknowns.
const MAX_FACTOR_VALUES: i64 = 1 << 10;

/// The largest known exponent of a power of an unknown (`x ** k`, as
/// `k - 1` products).
const MAX_EXPONENT: i64 = 16;

/// Fewest and most members of a set over unknowns whose cardinality gets
/// redundant sums over cliques of exclusive members
/// ([`Model::post_clique_sums`]).
const MIN_CLIQUE_CARD: usize = 4;
const MAX_CLIQUE_CARD: usize = 4096;

/// Most instances a binder is unrolled into.
const MAX_INSTANCES: usize = 1 << 16;

/// Most candidates the plan of a binder's known conditions may try to
/// list its instances (`plan::candidate_space`): past it, as for `not(#l.(l
/// : A --> S & ...))` over 3^20 functions, listing them could run for
/// hours, so the binder is beyond the translation (a filter, which the
/// interpreter's own solver answers per solution) instead.
const MAX_UNROLLED_CANDIDATES: f64 = 1e7;

/// Most elements of the domain of an unknown function, or of the universe
/// of an unknown set, the solver encodes (one unknown each): past it the
/// model alone took gigabytes (`f : INTEGER * INTEGER >->> R` cut to
/// MAXINT 1024, 4 million images), and enumeration, which polls the
/// limits, is left to answer.
const MAX_ENCODED: usize = 1 << 16;

/// The fewest candidates of an asserted existential's variables for which
/// fresh solver variables stand for them ([`Model::witnessed`]).
const MIN_WITNESS_SPACE: f64 = 64.0;

/// An existential's variables, each with its generating set, and its
/// other conditions.
type WitnessedBinder = (Vec<(u32, Witness)>, Vec<CPred>);

/// A sequence of unknowns: its domain `1..n` and its images.
type Sequence = (Arc<[Value]>, Arc<[Enc]>);

/// What a witness variable ranges over ([`Model::witnessed`]).
#[derive(Clone, Debug)]
enum Witness {
    /// The members of a known set (or a total function space).
    In(CExpr),
    /// The sequences of `n` elements of a scalar type (`size(k) = 3`).
    Sequence(Type, usize),
    /// The sequences of `n` members of a known set of scalars (the
    /// elements of a lambda's `seq(S)` domain).
    SequenceIn(CExpr, usize),
    /// The value of an expression over the witnesses before it
    /// (`s = k ^ rev(k)`).
    Defined(CExpr),
}

/// Polls the run's budget for the solver.
#[derive(Default)]
struct Budget {
    calls: u32,
    reason: Option<workers::StopReason>,
}

impl TerminationCondition for Budget {
    fn should_stop(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(64) {
            self.reason = workers::budget::tripped();
        }
        self.reason.is_some()
    }
}

/// What a model solves for: the frame slots `base..base + names.len()`
/// (the constants of PROPERTIES, or an operation's parameters), their
/// names and types, and the frame the known values are read from.
pub(super) struct Unknowns<'i> {
    /// The first slot.
    pub(super) base: usize,
    /// Their names, for messages.
    pub(super) names: &'i [String],
    /// Their types.
    pub(super) types: &'i [Type],
    /// The known values: the machine's constants (for parameters) and the
    /// frame (a state's variables; unknown slots unset).
    pub(super) env: Env<'i>,
    /// Whether "no solution" within the range the solver gives an integer
    /// nothing bounds stands as no solution (an operation's guard, false
    /// there, as in ProB's CLP(FD)); else it is refused (the constants,
    /// whose solution may lie beyond it: `fib : 0..200 --> INTEGER`).
    pub(super) trusts_range: bool,
    /// Whether one solution suffices (`#x.(P)`): the search stops at the
    /// first.
    pub(super) first_only: bool,
    /// The candidate count up to which `auto` leaves the unknowns to
    /// enumeration alone ([`Built::Small`]).
    pub(super) small: f64,
    /// The constants' normal form, to post (see
    /// [`Model::post_normal_form`]); empty for other unknowns.
    pub(super) normal_form: &'i [ClassConstraints],
}

/// The solver's model of the unknowns.
pub(super) struct Model<'i> {
    pub(super) interp: &'i Interpreter,
    pub(super) cp: Cp,
    pub(super) tag: ConstraintTag,
    /// The first unknown slot.
    base: usize,
    /// How many unknowns.
    nc: usize,
    names: &'i [String],
    types: &'i [Type],
    /// Unknowns whose value is known before solving (by their index).
    known: Vec<Option<Value>>,
    /// Encodings of the other unknowns.
    enc: Vec<Option<Enc>>,
    /// The frame: known values and the bound variables of unrolled
    /// quantifiers.
    pub(super) env: Env<'i>,
    /// Every variable of an encoding: a solution is their values.
    pub(super) decision: Vec<DomainId>,
    /// The literal `[x >= 1]` of each 0/1 variable that has one.
    pub(super) bit_lits: HashMap<DomainId, Literal, FastBuild>,
    /// The literal of each atomic predicate `[x = v]`, `[x <= v]`, `[x >=
    /// v]` made so far ([`Model::atom_lit`]).
    atom_lits: HashMap<(DomainId, Atom, i32), Literal, FastBuild>,
    /// Set while a binder is planned again (never twice).
    replanning: bool,
    /// Bound variables of a quantifier defined as `x = E` with `E` over
    /// unknown constants (`LET x BE x = board(i, j) IN ..`), by frame slot:
    /// `x` stands for `E`'s term while the quantifier is translated
    /// ([`Model::quantifier_instances`]).
    /// A scalar's kind and variable where `E` is one (`f(i)` of an encoded
    /// function of scalars).
    aliases: HashMap<u32, Alias, FastBuild>,
    /// Set while [`Model::instances`] may make such aliases.
    aliasing: bool,
    /// Integers that nothing bounds before propagation: their variables,
    /// wide, for propagation to narrow (what they are, variable, span).
    wide: Vec<(String, DomainId, Span)>,
    /// The first of them (what, span): an answer of "no solution" holds
    /// only within the solver's range ([`Model::unsat_within_range`]).
    first_wide: Option<(String, Span)>,
    /// Variables whose bounds are their own, not the solver's range
    /// cutting an integer nothing bounds: scalars of typed domains, the
    /// 0/1 variables made as such (a set's membership bits, literals'
    /// views) and sums of them.
    pub(super) self_bounded: std::collections::HashSet<DomainId, FastBuild>,
    /// Integers of `wide` that a sum of `self_bounded` variables defines,
    /// or that comparisons of the predicate bound on both sides.
    defined_wide: Vec<DomainId>,
    /// Integers of `wide` that a comparison of the predicate itself (not
    /// one the translation derives) bounds: (from below, from above).
    bounded_sides: std::collections::HashMap<DomainId, (bool, bool), FastBuild>,
    /// Whether the comparison being posted is the predicate's own.
    posting_predicate: bool,
    /// Whether a product of an integer nothing bounds was cut to the
    /// solver's range ([`Model::product`]): "no solution" then holds only
    /// within it, whatever [`Model::defined_by_self_bounded`] found.
    range_capped: bool,
    /// Those of them whose typing interval is wider than [`WIDE`]
    /// (`x : NAT` with `SET_PREF_MAXINT == 2147483647`): cut to it.
    clamped: Vec<DomainId>,
    /// Those of them that propagation left open, with `--bound-integers`
    /// and [`Model::label_beyond_range`]: search labels them only within MININT..MAXINT (the lower and the
    /// upper cut, where that side was open), as ProB labels an integer
    /// nothing bounds; a value propagation fixes beyond is a solution.
    labelled_in_range: Vec<(DomainId, Option<i32>, Option<i32>)>,
    /// The slots a lambda being translated binds, which are not the
    /// unknowns they may share numbers with
    /// ([`Model::apply_lambda_to_sequence`]).
    shadowed: Vec<u32>,
    /// Whether such integers are labelled ([`Model::label_beyond_range`])
    /// rather than cut to MININT..MAXINT before the search.
    label_beyond_range: bool,
    /// The integers cut so.
    cut_to_range: Vec<DomainId>,
    /// See [`Unknowns::trusts_range`].
    trusts_range: bool,
    /// See [`Unknowns::first_only`].
    first_only: bool,
    /// See [`Unknowns::small`].
    small: f64,
    /// See [`Unknowns::normal_form`].
    normal_form: &'i [ClassConstraints],
    /// Constants computed from the solution after solving, by their
    /// defining conjunct `k = E`, which is beyond the translation: the
    /// solver does not search their values.
    deferred: Vec<usize>,
    /// The defining conjunct of each deferred constant (`k`, `E`).
    definitions: Vec<(usize, CExpr)>,
    /// Conjuncts beyond the translation: every solution of the others is
    /// tested on them.
    filters: Vec<CPred>,
    /// The disjunctions among the posted conjuncts, whose branches may
    /// bound an integer together ([`Model::narrow_by_disjunctions`]).
    disjunctions: Vec<CPred>,
    /// Set while the terms of an atom posted as a top-level conjunct are
    /// translated, outside any conditional part (`IF`, `bool`, binders):
    /// each of their applications is evaluated whenever the atom is, so an
    /// application of a set-encoded relation may require its argument in
    /// the domain (enumeration rejects a valuation that applies a function
    /// outside its domain).
    defined_here: bool,
    /// Set while the product on one side of a top-level `P = k` (`k` a
    /// known non-zero integer) is translated: each partial product of its
    /// factors is then within `-|k|..|k|` (its other factors are non-zero
    /// integers), which bounds the auxiliaries that would otherwise
    /// exceed 32 bits (`a * b * c * d = 711000000` over `0..711`).
    product_cap: Option<i64>,
    /// Pairs of literals that cannot both hold: a posted binary clause
    /// `¬a ∨ ¬b` (both orders).
    exclusive: std::collections::HashSet<(Literal, Literal), FastBuild>,
    /// The literal each 0/1 variable made by [`Model::bit_of`] equals.
    pub(super) bit_source: HashMap<DomainId, Literal, FastBuild>,
    /// Cardinalities of sets over unknowns: the members' bits and the
    /// variable equal to their sum ([`Model::post_clique_sums`]).
    cards: Vec<(Vec<DomainId>, DomainId)>,
    /// Posted disequalities of pairs of scalar variables, `(a, b) /= (c,
    /// d)`, kept until every conjunct is posted
    /// ([`Model::post_distinct_pairs`]).
    distinct_pairs: Vec<[(DomainId, DomainId); 2]>,
    /// Set where a clause was false at the root: there is no solution.
    refuted: bool,
}

/// What [`Model::build`] made.
pub(super) enum Built {
    /// Every conjunct the translation takes is posted.
    Ready {
        /// An integer is bounded only by propagation: enumeration, which
        /// cannot see those bounds, would try other values.
        alone: bool,
    },
    /// `auto` and candidates few enough to enumerate.
    Small,
    /// Build again with constant `.0` deferred: its defining conjunct is
    /// beyond the translation.
    Defer(usize),
    /// Build once per value (`.1`) of constant `.0`, fixed: another
    /// constant's typing set reads it (`f : 1..n --> S`, `c : V --> 1..k`),
    /// so that set is known in each case.
    Split(usize, Vec<Value>),
}

/// An atomic predicate on one variable and a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Atom {
    Eq,
    Le,
    Ge,
}

/// Most values of a constant [`Built::Split`] cases on.
const MAX_SPLIT: i64 = 64;

impl<'i> Model<'i> {
    /// An empty model of `unknowns`; those in `deferred` (by index) are
    /// computed after solving ([`Built::Defer`]).
    pub(super) fn new(interp: &'i Interpreter, unknowns: Unknowns<'i>, deferred: &[usize]) -> Self {
        let mut cp = Cp::default();
        let tag = cp.new_constraint_tag();
        let nc = unknowns.names.len();
        Model {
            interp,
            cp,
            tag,
            base: unknowns.base,
            nc,
            names: unknowns.names,
            types: unknowns.types,
            known: vec![None; nc],
            enc: vec![None; nc],
            env: unknowns.env,
            decision: Vec::new(),
            bit_lits: HashMap::default(),
            atom_lits: HashMap::default(),
            replanning: false,
            aliases: HashMap::default(),
            aliasing: false,
            wide: Vec::new(),
            first_wide: None,
            self_bounded: Default::default(),
            defined_wide: Vec::new(),
            bounded_sides: Default::default(),
            posting_predicate: false,
            range_capped: false,
            clamped: Vec::new(),
            labelled_in_range: Vec::new(),
            label_beyond_range: false,
            shadowed: Vec::new(),
            cut_to_range: Vec::new(),
            trusts_range: unknowns.trusts_range,
            first_only: unknowns.first_only,
            small: unknowns.small,
            normal_form: unknowns.normal_form,
            deferred: deferred.to_vec(),
            definitions: Vec::new(),
            filters: Vec::new(),
            disjunctions: Vec::new(),
            defined_here: false,
            product_cap: None,
            exclusive: std::collections::HashSet::default(),
            bit_source: HashMap::default(),
            cards: Vec::new(),
            distinct_pairs: Vec::new(),
            refuted: false,
        }
    }

    /// Fixes constant `k` to `value` (a case of [`Built::Split`]).
    pub(super) fn fix(&mut self, k: usize, value: Value) {
        self.env.frame[self.base + k] = value.clone();
        self.known[k] = Some(value);
    }

    /// The constant to case-split on before encoding constant `k`: a
    /// scalar unknown with at most [`MAX_SPLIT`] values that the typing
    /// set of `k` reads (`n` in `f : 1..n --> S`), with its values.
    fn split_on(&mut self, k: usize, conjuncts: &[CPred]) -> Option<(usize, Vec<Value>)> {
        let slot = self.base + k;
        let typing = conjuncts.iter().find_map(|c| match &c.kind {
            PK::Member(x, s, false) | PK::Subset(x, s, _, false)
                if matches!(x.kind, EK::Read(Slot::Frame(j)) if j as usize == slot) =>
            {
                Some(s)
            }
            _ => None,
        })?;
        if !self.reads_unknown(typing) || self.encodable(typing) {
            return None;
        }
        let mut slots = Vec::new();
        plan::expr_slots(typing, &mut slots);
        slots.into_iter().find_map(|s| {
            let j = self
                .index(s)
                .filter(|&j| j != k && self.known[j].is_none())?;
            if self.deferred.contains(&j) {
                return None;
            }
            if !matches!(self.types[j], Type::Int | Type::Bool | Type::Given(_)) {
                return None;
            }
            let Ok(Enc::Scalar(kind, x)) = self.encode_constant(j, conjuncts) else {
                return None;
            };
            let (lo, hi) = (self.lb(x), self.ub(x));
            (hi - lo < MAX_SPLIT).then(|| {
                let values = (lo..=hi)
                    .map(|v| super::sets::decode_scalar(kind, v as i32))
                    .collect();
                (j, values)
            })
        })
    }

    /// Builds the model of `conjuncts`: the constants' encodings, then
    /// every conjunct the translation takes; the others become filters
    /// of the solutions, and a constant whose definition is beyond the
    /// translation asks for a build with it deferred.
    pub(super) fn build(&mut self, conjuncts: &[CPred], auto: bool) -> T<Built> {
        let pointwise = self.known_constants(conjuncts)?;
        let mut defining = Vec::new();
        for k in 0..self.nc {
            if self.known[k].is_some() {
                continue;
            }
            let definition = definition_of(self.base + k, conjuncts);
            if self.deferred.contains(&k) {
                let (i, e) = definition.expect("a deferred constant has a definition");
                self.definitions.push((k, e.clone()));
                defining.push(i);
                continue;
            }
            if let Some((j, values)) = self.split_on(k, conjuncts) {
                return Ok(Built::Split(j, values));
            }
            match self.encode_constant(k, conjuncts) {
                Ok(enc) => self.enc[k] = Some(enc),
                Err(Failure::Unsupported(_)) if definition.is_some() => return Ok(Built::Defer(k)),
                Err(e) => return Err(e),
            }
        }
        // Enumeration cannot take an integer that nothing bounds: the
        // solver does, whatever the size of the rest; nor does it know the
        // functions given at every point (their spaces may be vast).
        if auto && !pointwise && self.wide.is_empty() {
            let space: f64 = self.enc.iter().flatten().map(|e| self.space(e)).product();
            if space <= self.small {
                return Ok(Built::Small);
            }
        }
        let mut left: Vec<&CPred> = (conjuncts.iter().enumerate())
            .filter(|(i, _)| !defining.contains(i))
            .map(|(_, c)| c)
            .collect();
        // Twice: a conjunct beyond the translation over the typing domains
        // (a product of two wide integers) may be within it over the
        // domains the others leave after propagation.
        for pass in 0..2 {
            if pass == 1 {
                if left.is_empty() {
                    break;
                }
                if self.cp.propagate_to_fixpoint() == CSPSolverExecutionFlag::Infeasible {
                    return Err(Failure::Unsat);
                }
            }
            let mut beyond = Vec::new();
            for c in left {
                let mark = self.decision.len();
                match self.post(c) {
                    Ok(()) if matches!(c.kind, PK::Or(..)) => self.disjunctions.push(c.clone()),
                    Ok(()) => {}
                    Err(Failure::Unsupported(why)) => {
                        tracing::trace!(span = ?c.span, ?why, "constant solver: not translated");
                        // What it posted before giving up is implied by it
                        // or defines auxiliaries; its fresh variables are
                        // not searched.
                        self.decision.truncate(mark);
                        beyond.push(c);
                    }
                    Err(e) => return Err(e),
                }
            }
            left = beyond;
        }
        self.post_clique_sums(Span::default())?;
        self.post_distinct_pairs(Span::default())?;
        for c in left {
            if let Some(k) = self.defined_constant(c) {
                return Ok(Built::Defer(k));
            }
            tracing::debug!(span = ?c.span, "constant solver: a conjunct filters the solutions");
            self.filters.push(c.clone());
        }
        let alone = !self.wide.is_empty();
        if alone {
            self.bound_wide_integers()?;
        }
        Ok(Built::Ready { alone })
    }

    /// Narrows the integers that nothing bounded before propagation to the
    /// domains propagation leaves them; where it leaves one unbounded,
    /// `--bound-integers` bounds it by MININT..MAXINT (as ProB enumerates
    /// it), else it is refused.
    fn bound_wide_integers(&mut self) -> T<()> {
        if self.cp.propagate_to_fixpoint() == CSPSolverExecutionFlag::Infeasible {
            return Err(Failure::Unsat);
        }
        // Disjunctions whose every branch bounds an integer, each bound
        // found feeding the next round.
        let disjunctions = std::mem::take(&mut self.disjunctions);
        let wide: Vec<DomainId> = self.wide.iter().map(|w| w.1).collect();
        for _ in 0..4 {
            if !self.narrow_by_disjunctions(&disjunctions, &wide)? {
                break;
            }
            if self.cp.propagate_to_fixpoint() == CSPSolverExecutionFlag::Infeasible {
                return Err(Failure::Unsat);
            }
        }
        // Kept: whether "no solution" holds outright asks them again.
        for (what, x, span) in self.wide.clone() {
            let (lb, ub) = (self.lb(x), self.ub(x));
            let (open_below, open_above) = (lb <= -NARROWED, ub >= NARROWED);
            if !open_below && !open_above && ub - lb <= NARROWED {
                continue;
            }
            let (minint, maxint) = (self.interp.minint, self.interp.maxint);
            // MININT..MAXINT would not bound a typed interval, nor one
            // wider than the solver's range.
            let cut = self.clamped.contains(&x)
                || (open_above && maxint >= WIDE)
                || (open_below && minint <= -WIDE);
            if !self.interp.bound_integers || !self.filters.is_empty() || cut {
                // Without the flag, or where a conjunct the solver does not
                // see might bound it (`(y |-> z) = (10 |-> x)`): not cut.
                return Err(unsupported(
                    span,
                    format!(
                        "{what}: no finite domain, even after propagation (bound it, \
                         e.g. `x : 0..100`, or give --bound-integers)"
                    ),
                ));
            }
            let cut = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            // A bound beyond MAXINT (or below MININT) is kept, the other
            // side cut at it (`x > 1000` labels 1001 only), as ProB does.
            let lower = (open_below || !open_above).then(|| cut(minint.min(ub)));
            let upper = (open_above || !open_below).then(|| cut(maxint.max(lb)));
            if lower.is_some_and(|lo| upper.is_some_and(|hi| lo > hi)) {
                return Err(Failure::Unsat);
            }
            if self.label_beyond_range {
                self.labelled_in_range.push((x, lower, upper));
                continue;
            }
            let var = || Term::Lin(Lin::var(x));
            if let Some(lo) = lower {
                self.post_cmp(Cmp::Ge, var(), Term::Lin(Lin::constant(lo.into())), span)?;
            }
            if let Some(hi) = upper {
                self.post_cmp(Cmp::Le, var(), Term::Lin(Lin::constant(hi.into())), span)?;
            }
            self.cut_to_range.push(x);
            self.used_bound();
        }
        Ok(())
    }

    /// Has the search label the integers nothing bounds within
    /// MININT..MAXINT, keeping values propagation fixes beyond, instead of
    /// cutting their domains there before it starts
    /// ([`Model::labelled_in_range`]): slower where they are searched,
    /// but it finds the solutions whose integers the other unknowns
    /// determine (ProB's SynthesisModel: a program's intermediate values).
    pub(super) fn label_beyond_range(&mut self) {
        self.label_beyond_range = true;
    }

    /// Whether the model has cut integers nothing bounds to MININT..MAXINT
    /// and also searches other unknowns, which may determine them beyond:
    /// where it finds no solution, [`Model::label_beyond_range`] may.
    pub(super) fn may_label_beyond_range(&self) -> bool {
        !self.cut_to_range.is_empty()
            && self.decision.iter().any(|x| !self.cut_to_range.contains(x))
    }

    /// The unknown, encoded constant `c` defines (`k = E`, `E` not reading
    /// `k`).
    fn defined_constant(&self, c: &CPred) -> Option<usize> {
        (0..self.nc).find(|&k| {
            self.enc[k].is_some() && definition_of(self.base + k, std::slice::from_ref(c)).is_some()
        })
    }

    /// Every solution, decoded and sorted.
    /// Posts what the constants' normal form implies
    /// ([`ClassConstraints`]): the solver then skips valuations that the
    /// normal form would drop (of the wiki's partition `ID = P1 \/ P2 \/
    /// P3` of 9 elements, 1 in place of 1,680), and the rules, applied to
    /// the solutions, still decide. A deferred set is left alone where a
    /// constant whose type mentions it is known before solving (fixed by
    /// a case split, or defined by an equation), since such a value need
    /// not be in normal form.
    fn post_normal_form(&mut self) {
        for class in self.normal_form {
            let mentions = |k: usize| {
                self.types
                    .get(k)
                    .is_some_and(|t| mentions_given(t, class.set))
            };
            if (0..self.nc).any(|k| self.known[k].is_some() && mentions(k)) {
                continue;
            }
            let scalar = |k: usize| match self.enc.get(k) {
                Some(Some(Enc::Scalar(Kind::Elem(set), x))) if *set == class.set => Some(*x),
                _ => None,
            };
            let mut atoms = Vec::new();
            for (i, &k) in class.fixed.iter().enumerate() {
                if let Some(x) = scalar(k) {
                    atoms.push((x, Atom::Eq, i as i64));
                }
            }
            for (j, &k) in class.scalars.iter().enumerate() {
                if let Some(x) = scalar(k) {
                    atoms.push((x, Atom::Le, (class.fixed.len() + j) as i64));
                }
            }
            for (x, atom, v) in atoms {
                let l = self.atom_lit(x, atom, v);
                self.clause(vec![l]);
            }
            // The blocks' bits per element, where every block is a set over
            // the whole given set in its order.
            let elem = |i: u32| {
                Value::Elem(crate::frontends::b::value::Elem {
                    set: class.set,
                    index: i,
                })
            };
            let whole: Vec<Value> = (0..class.size).map(elem).collect();
            let blocks: Option<Vec<Arc<[DomainId]>>> = class
                .blocks
                .iter()
                .map(|&k| match self.enc.get(k) {
                    Some(Some(Enc::Set(t))) if *t.universe == *whole => Some(t.bits.clone()),
                    _ => None,
                })
                .collect();
            let Some(blocks) = blocks.filter(|b| !b.is_empty()) else {
                continue;
            };
            // Element `e + 1` in block `j` needs `e` in one of blocks `0..=j`.
            let free = class.fixed.len() + class.scalars.len();
            for e in free..(class.size as usize).saturating_sub(1) {
                for j in 0..blocks.len() {
                    let mut clause = vec![!self.bit_lit(blocks[j][e + 1])];
                    for b in &blocks[..=j] {
                        clause.push(self.bit_lit(b[e]));
                    }
                    self.clause(clause);
                }
            }
        }
    }

    pub(super) fn solutions(mut self) -> T<Vec<Vec<Value>>> {
        self.post_normal_form();
        // A clause false at the root (`a |-> b : {}`).
        if self.refuted || self.cp.is_inconsistent() {
            return Err(Failure::Unsat);
        }
        // Enumeration: branch on the unknowns' variables first (first
        // fail, smallest value), then the same way on any auxiliary
        // propagation has left (the solver's adaptive default there spent
        // a fifth of ProB's QueensRooksBishops_v2 keeping its activity
        // heap and random fallback in step); where that finds no solution
        // soon, alternate with the adaptive default ([`StaticUntilStuck`]).
        // The model's variables are numbered from 1 (0 is the solver's
        // constant true): a fresh fixed one takes the next.
        let every: Vec<DomainId> = (1..self.cp.new_bounded_integer(0, 0).id())
            .map(DomainId::new)
            .collect();
        // (A selector over no variable logs a warning: none is made.)
        let decisions = DynamicBrancher::new(
            [&self.decision, &every]
                .into_iter()
                .filter(|vars| !vars.is_empty())
                .map(|vars| {
                    Box::new(IndependentVariableValueBrancher::new(
                        FirstFail::new(vars),
                        InDomainMin,
                    )) as Box<dyn pumpkin_core::branching::Brancher>
                })
                .collect(),
        );
        let mut brancher = Recording::new(AlternatingBrancher::new(
            &self.cp,
            decisions,
            StaticUntilStuck::default(),
        ));
        let mut resolver = ResolutionResolver::default();
        let mut budget = Budget::default();
        let mut out = Vec::new();
        // Where each decision variable's value sits in a solution.
        let position: std::collections::HashMap<DomainId, usize> = self
            .decision
            .iter()
            .enumerate()
            .map(|(i, &x)| (x, i))
            .collect();
        let in_range = std::mem::take(&mut self.labelled_in_range);
        loop {
            let (values, decided, beyond) =
                match self.cp.satisfy(&mut brancher, &mut budget, &mut resolver) {
                    SatisfactionResult::Satisfiable(s) => {
                        let solution = s.solution();
                        let values: Vec<i32> = self
                            .decision
                            .iter()
                            .map(|&x| solution.get_integer_value(x))
                            .collect();
                        let decided = s.brancher().decisions_of(
                            |x| solution.get_integer_value(x),
                            |x| position.contains_key(&x),
                        );
                        let beyond = Self::labelled_beyond_range(&in_range, s.brancher(), |x| {
                            solution.get_integer_value(x)
                        });
                        (values, decided, beyond)
                    }
                    SatisfactionResult::Unsatisfiable(..) => break,
                    SatisfactionResult::Unknown(..) => {
                        return Err(Failure::Stopped(
                            budget.reason.unwrap_or(workers::StopReason::Interrupted),
                        ));
                    }
                };
            if !beyond.is_empty() {
                // Labelled beyond MININT..MAXINT: not a solution, nor is any
                // other labelling there after the same decisions.
                for clause in beyond {
                    self.cp.add_clause(clause, self.tag);
                }
                self.used_bound();
                continue;
            }
            let value_of = |x: DomainId| values[position[&x]];
            let valuation: Vec<Value> = (0..self.nc)
                .map(|k| match (&self.known[k], &self.enc[k]) {
                    (Some(v), _) => v.clone(),
                    (None, Some(e)) => decode(e, &value_of),
                    // Deferred: computed below.
                    (None, None) => super::super::unset(),
                })
                .collect();
            if let Some(valuation) = self.completed(valuation)? {
                out.push(valuation);
                if self.first_only {
                    break;
                }
            }
            // Nothing decided: propagation alone fixed the one solution.
            if self.decision.is_empty() || decided.as_ref().is_some_and(|d| d.is_empty()) {
                break;
            }
            // Every other solution falsifies one of the decisions that led
            // to this one (see `decisions`), or else differs in a value.
            let block: Vec<Predicate> = match decided {
                Some(decided) => decided.into_iter().map(|p| !p).collect(),
                None => self
                    .decision
                    .iter()
                    .zip(&values)
                    .map(|(&x, &v)| predicate!(x != v))
                    .collect(),
            };
            self.cp.add_clause(block, self.tag);
        }
        if out.is_empty() {
            return Err(self.unsat_within_range());
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// For each integer of `in_range` ([`Model::labelled_in_range`]) that the search
    /// labelled (a decision on it is behind the solution) to a value
    /// beyond its cut: the clause that keeps it within the cut after the
    /// decisions taken before its first. Empty where every value is in
    /// range or fixed by propagation.
    fn labelled_beyond_range<B: pumpkin_core::branching::Brancher>(
        in_range: &[(DomainId, Option<i32>, Option<i32>)],
        brancher: &Recording<B>,
        value_of: impl Fn(DomainId) -> i32 + Copy,
    ) -> Vec<Vec<Predicate>> {
        let mut clauses = Vec::new();
        for &(x, lower, upper) in in_range {
            let v = value_of(x);
            let cut = match (lower, upper) {
                (Some(lo), _) if v < lo => predicate!(x >= lo),
                (_, Some(hi)) if v > hi => predicate!(x <= hi),
                _ => continue,
            };
            if let Some(before) = brancher.decisions_before(x, value_of) {
                let mut clause: Vec<Predicate> = before.into_iter().map(|p| !p).collect();
                clause.push(cut);
                clauses.push(clause);
            }
        }
        clauses
    }

    /// The encoding of the unknown in frame slot `slot`, if it has one.
    pub(super) fn encoding(&self, slot: usize) -> Option<Enc> {
        let k = slot.checked_sub(self.base)?;
        self.enc.get(k).cloned().flatten()
    }

    /// The index of the unknown in frame slot `slot`.
    fn index(&self, slot: u32) -> Option<usize> {
        (slot as usize)
            .checked_sub(self.base)
            .filter(|&k| k < self.nc)
    }

    /// A solution of the posted conjuncts with its deferred constants
    /// computed, if the filters hold on it.
    fn completed(&mut self, mut valuation: Vec<Value>) -> T<Option<Vec<Value>>> {
        if self.definitions.is_empty() && self.filters.is_empty() {
            return Ok(Some(valuation));
        }
        let mut env = Env {
            consts: self.env.consts,
            frame: self.env.frame.clone(),
            pending: Default::default(),
        };
        env.frame[self.base..self.base + self.nc].clone_from_slice(&valuation);
        let base = self.base;
        let mut pending: Vec<usize> = self.definitions.iter().map(|d| d.0).collect();
        while !pending.is_empty() {
            let ready = self.definitions.iter().find(|(k, e)| {
                let mut slots = Vec::new();
                plan::expr_slots(e, &mut slots);
                pending.contains(k)
                    && !slots.iter().any(|&s| {
                        (s as usize)
                            .checked_sub(base)
                            .is_some_and(|j| pending.contains(&j))
                    })
            });
            let Some((k, e)) = ready else {
                let span = self.definitions[0].1.span;
                return Err(unsupported(
                    span,
                    "constants defined in terms of each other",
                ));
            };
            let k = *k;
            let value = self.interp.eval(e, &mut env).map_err(|f| self.failure(f))?;
            env.frame[base + k] = value.clone();
            valuation[k] = value;
            pending.retain(|&j| j != k);
        }
        for f in &self.filters {
            match self.interp.holds(f, &mut env) {
                Ok(true) => {}
                // Enumeration rejects a valuation that applies a function
                // outside its domain too.
                Ok(false) => return Ok(None),
                Err(e) if e.outside_domain => return Ok(None),
                Err(e) => return Err(self.failure(e)),
            }
        }
        Ok(Some(valuation))
    }

    // ---- the constants ----

    /// Evaluates the constants defined by an equality with known values,
    /// or given at every point ([`Self::pointwise_constant`]), until none
    /// is left. Returns whether one was given at every point.
    pub(super) fn known_constants(&mut self, conjuncts: &[CPred]) -> T<bool> {
        let mut pointwise = false;
        loop {
            let mut changed = false;
            for c in conjuncts {
                let PK::Cmp(Cmp::Eq, a, b) = &c.kind else {
                    continue;
                };
                for (x, e) in [(a, b), (b, a)] {
                    if let EK::Read(Slot::Frame(slot)) = x.kind
                        && let Some(k) = self.index(slot)
                        && self.known[k].is_none()
                        && !self.reads_unknown(e)
                    {
                        let v = self.eval(e)?;
                        self.env.frame[slot as usize] = v.clone();
                        self.known[k] = Some(v);
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                if !self.pointwise_constant(conjuncts)? {
                    return Ok(pointwise);
                }
                pointwise = true;
            }
        }
    }

    /// Makes known one total function given at every point of its known
    /// domain (`xc : nodes --> COORD & xc(a) = 1 & ... & xc(n) = 6`, as
    /// puzzles give their grid): `{a |-> 1, ..., n |-> 6}`. Whether it is
    /// in its space is then checked with the rest. Returns whether one was
    /// found.
    fn pointwise_constant(&mut self, conjuncts: &[CPred]) -> T<bool> {
        'constants: for k in 0..self.nc {
            if self.known[k].is_some() {
                continue;
            }
            let slot = self.base + k;
            let is_k = |x: &CExpr| matches!(unmemo(x).kind, EK::Read(Slot::Frame(j)) if j as usize == slot);
            let Some(domain) = conjuncts.iter().find_map(|c| match &c.kind {
                PK::Member(x, s, false) if is_k(x) => match &s.kind {
                    EK::Binary(op, d, _)
                        if total_function(*op).is_some() && !self.reads_unknown(d) =>
                    {
                        Some(d)
                    }
                    _ => None,
                },
                _ => None,
            }) else {
                continue;
            };
            let mut points = std::collections::BTreeMap::new();
            for c in conjuncts {
                let PK::Cmp(Cmp::Eq, a, b) = &c.kind else {
                    continue;
                };
                for (x, e) in [(a, b), (b, a)] {
                    if let EK::Apply(f, arg) = &unmemo(x).kind
                        && is_k(f)
                        && !self.reads_unknown(arg)
                        && !self.reads_unknown(e)
                    {
                        let (d, v) = (self.eval(arg)?, self.eval(e)?);
                        match points.insert(d, v.clone()) {
                            // Two images of one point: the solver finds
                            // there is no solution.
                            Some(other) if other != v => continue 'constants,
                            _ => break,
                        }
                    }
                }
            }
            let domain = self.known_set(domain)?;
            if domain.len() != points.len() || !domain.iter().all(|d| points.contains_key(d)) {
                continue;
            }
            let value = Value::set_from_sorted(
                points.into_iter().map(|(d, v)| Value::pair(d, v)).collect(),
            );
            self.env.frame[slot] = value.clone();
            self.known[k] = Some(value);
            return Ok(true);
        }
        Ok(false)
    }

    /// The encoding of constant `k`: from its typing conjunct, else its type.
    pub(super) fn encode_constant(&mut self, k: usize, conjuncts: &[CPred]) -> T<Enc> {
        // A function space first: `p : POW(INTEGER * INTEGER) & p : 1..n
        // --> 1..n` is a function, one image per element.
        let typing = |c: &&CPred| {
            matches!(&c.kind, PK::Member(x, s, false)
                if matches!(x.kind, EK::Read(Slot::Frame(j)) if j as usize == self.base + k)
                    && matches!(&s.kind, EK::Binary(op, _, _) if total_function(*op).is_some()))
        };
        if let Some(PK::Member(_, s, _)) = conjuncts.iter().find(typing).map(|c| &c.kind)
            && self.encodable(s)
        {
            return self.encode(s);
        }
        // A sequence whose size a conjunct fixes (`s : seq(0..9) & size(s)
        // = 6`): the total function over 1..6.
        if let Some(elements) = conjuncts.iter().find_map(|c| match &c.kind {
            PK::Member(x, s, false) if self.is_unknown_read(x, k) => seq_of(s).map(|(t, _)| t),
            _ => None,
        }) && self.encodable(elements)
            && let Some(n) = self.known_size((self.base + k) as u32, conjuncts)?
        {
            return self.sequence(n, |m| m.encode(elements));
        }
        for c in conjuncts {
            if let PK::Member(x, s, false) = &c.kind
                && matches!(x.kind, EK::Read(Slot::Frame(j)) if j as usize == self.base + k)
                && self.encodable(s)
            {
                return self.encode(s);
            }
            if let PK::Subset(x, s, _, false) = &c.kind
                && matches!(x.kind, EK::Read(Slot::Frame(j)) if j as usize == self.base + k)
                && !self.reads_unknown(s)
            {
                let universe = self.known_set(s)?;
                return self.new_set(universe, s.span);
            }
        }
        let name = &self.names[k];
        let span = conjuncts.first().map_or_else(Span::default, |c| c.span);
        // A sequence of scalars with only its size given (`size(s) = 6`,
        // its elements bounded where it is used): by its elements' type.
        if let Some(element) = sequence_element(&self.types[k])
            && let Some(n) = self.known_size((self.base + k) as u32, conjuncts)?
        {
            let element = element.clone();
            let what = format!("an element of `{name}`");
            return self.sequence_of_type(&element, n, &what, span);
        }
        match &self.types[k] {
            t @ (Type::Bool | Type::Given(_)) => {
                let t = t.clone();
                self.scalar_of_type(&t, name, span)
            }
            Type::Set(t) => {
                // `--bound-integers` cuts the type only for a constant no
                // equality defines: `ii = id(s1)` with `s1 <: 0..13` holds
                // pairs beyond MAXINT, and ProB finds them.
                let defined = definition_of(self.base + k, conjuncts).is_some();
                let t = (**t).clone();
                let universe = self.type_universe(&t, !defined, span)?;
                self.new_set(universe, span)
            }
            Type::Int => {
                let (lo, hi) = self.int_bounds_of(k, conjuncts);
                let what = format!("`{name}`");
                self.int_within(lo, hi, &what, span)
            }
            t => Err(unsupported(
                span,
                format!("`{name}`: a constant of type {t:?} without `{name} : S --> T`"),
            )),
        }
    }

    /// A fresh scalar of type `t` (an integer or a boolean, or an element
    /// of a given set): an integer over the solver's range, for
    /// propagation to narrow.
    fn scalar_of_type(&mut self, t: &Type, what: &str, span: Span) -> T<Enc> {
        match t {
            Type::Bool => Ok(self.scalar(Kind::Bool, 0, 1)),
            Type::Given(s) => {
                let n = self.interp.given_sets[*s as usize].elements.len() as i64;
                if n == 0 {
                    return Err(Failure::Unsat);
                }
                Ok(self.scalar(Kind::Elem(*s), 0, n - 1))
            }
            Type::Int => self.int_within(None, None, what, span),
            t => Err(unsupported(span, format!("a scalar of type {t:?}"))),
        }
    }

    /// An integer within `lo..hi`; a side nothing bounds gets the
    /// solver's range, for propagation to narrow ([`Model::widened`]).
    fn int_within(&mut self, lo: Option<i64>, hi: Option<i64>, what: &str, span: Span) -> T<Enc> {
        let enc = self.int_var(lo.unwrap_or(-WIDE), hi.unwrap_or(WIDE), span)?;
        if let (Enc::Scalar(_, x), true) = (&enc, lo.is_none() || hi.is_none()) {
            self.widened(what.to_string(), *x, span);
        }
        Ok(enc)
    }

    /// Bounds of integer constant `k` from top-level comparisons with
    /// known values.
    pub(super) fn int_bounds_of(
        &mut self,
        k: usize,
        conjuncts: &[CPred],
    ) -> (Option<i64>, Option<i64>) {
        let (mut lo, mut hi) = (None::<i64>, None::<i64>);
        for c in conjuncts {
            let PK::Cmp(op, a, b) = &c.kind else { continue };
            let slot = self.base + k;
            let is_k = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(j)) if j as usize == slot);
            let (op, other) = if is_k(a) {
                (*op, b)
            } else if is_k(b) {
                (op.mirrored(), a)
            } else {
                continue;
            };
            if self.reads_unknown(other) {
                continue;
            }
            let Ok(Value::Int(v)) = self.eval(other) else {
                continue;
            };
            match op {
                Cmp::Le => hi = Some(hi.map_or(v, |h| h.min(v))),
                Cmp::Lt => {
                    hi = Some(hi.map_or(v.saturating_sub(1), |h| h.min(v.saturating_sub(1))))
                }
                Cmp::Ge => lo = Some(lo.map_or(v, |l| l.max(v))),
                Cmp::Gt => {
                    lo = Some(lo.map_or(v.saturating_add(1), |l| l.max(v.saturating_add(1))))
                }
                _ => {}
            }
        }
        (lo, hi)
    }

    /// Whether `s` is a set an unknown constant can be encoded as a
    /// member of.
    pub(super) fn encodable(&self, s: &CExpr) -> bool {
        match &s.kind {
            EK::Binary(op, d, r) if total_function(*op).is_some() => {
                !self.reads_unknown(d) && self.encodable(r)
            }
            EK::Binary(BinaryOp::Interval, a, b) => {
                !self.reads_unknown(a) && !self.reads_unknown(b)
            }
            // An unbounded one types an integer for propagation to narrow.
            EK::Ints(_) => true,
            EK::Binary(_, a, b) if is_function_space(s) => {
                !self.reads_unknown(a) && !self.reads_unknown(b)
            }
            _ if pow_of(s).is_some() => !self.reads_unknown(s),
            _ => !self.reads_unknown(s) && !is_function_space(s),
        }
    }

    /// Whether `x` reads unknown `k` itself.
    fn is_unknown_read(&self, x: &CExpr, k: usize) -> bool {
        matches!(unmemo(x).kind, EK::Read(Slot::Frame(j)) if j as usize == self.base + k)
    }

    /// A sequence of `n` fresh scalars of type `element`
    /// ([`Self::scalar_of_type`]).
    fn sequence_of_type(&mut self, element: &Type, n: usize, what: &str, span: Span) -> T<Enc> {
        self.sequence(n, |m| m.scalar_of_type(element, what, span))
    }

    /// A sequence of `n` images, each encoded by `image`: the total
    /// function over `1..n`.
    fn sequence(&mut self, n: usize, mut image: impl FnMut(&mut Self) -> T<Enc>) -> T<Enc> {
        let domain: Arc<[Value]> = (1..=n as i64).map(Value::Int).collect();
        let images = (0..n).map(|_| image(self)).collect::<T<Vec<Enc>>>()?;
        Ok(Enc::Function {
            domain,
            images: images.into(),
        })
    }

    /// The size a conjunct `size(x) = n` (or `card(x) = n`) gives the
    /// variable in frame slot `slot`, `n` known and at most
    /// [`MAX_ENCODED`].
    fn known_size(&mut self, slot: u32, conjuncts: &[CPred]) -> T<Option<usize>> {
        for c in conjuncts {
            let PK::Cmp(Cmp::Eq, a, b) = &c.kind else {
                continue;
            };
            for (size, n) in [(a, b), (b, a)] {
                if let EK::Unary(UnaryOp::Size | UnaryOp::Card, x) = &unmemo(size).kind
                    && matches!(unmemo(x).kind, EK::Read(Slot::Frame(j)) if j == slot)
                    && !self.reads_unknown(n)
                    && let Value::Int(n) = self.eval(n)?
                {
                    return Ok(usize::try_from(n).ok().filter(|&n| n <= MAX_ENCODED));
                }
            }
        }
        Ok(None)
    }

    /// The encoding of an unknown member of `s` ([`Self::encodable`]).
    pub(super) fn encode(&mut self, s: &CExpr) -> T<Enc> {
        if let EK::Binary(op, d, r) = &s.kind
            && total_function(*op).is_some()
        {
            let domain = self.known_set(d)?;
            if domain.len() > MAX_ENCODED {
                return Err(unsupported(
                    s.span,
                    format!("a function over {} elements", domain.len()),
                ));
            }
            let images = (0..domain.len())
                .map(|_| self.encode(r))
                .collect::<T<Vec<Enc>>>()?;
            return Ok(Enc::Function {
                domain,
                images: images.into(),
            });
        }
        if let Some((inner, _)) = pow_of(s) {
            let universe = self.known_set(inner)?;
            if universe.len() > MAX_ENCODED {
                return Err(unsupported(
                    s.span,
                    format!("a subset of {} elements", universe.len()),
                ));
            }
            return self.new_set(universe, s.span);
        }
        if let EK::Ints(kind) = &s.kind {
            let (lo, hi) = self.interp.int_bounds(*kind);
            let enc = self.int_var(lo.unwrap_or(-WIDE), hi.unwrap_or(WIDE), s.span)?;
            if let (Enc::Scalar(_, x), true) = (&enc, lo.is_none() || hi.is_none()) {
                self.widened(format!("a member of {}", int_set_name(*kind)), *x, s.span);
            }
            return Ok(enc);
        }
        if let EK::Binary(_, a, b) = &s.kind
            && is_function_space(s)
        {
            let (a, b) = (self.known_set(a)?, self.known_set(b)?);
            let pairs: Vec<Value> = a
                .iter()
                .flat_map(|x| b.iter().map(move |y| Value::pair(x.clone(), y.clone())))
                .collect();
            return self.new_set(pairs.into(), s.span);
        }
        if !self.reads_unknown(s)
            && let Some(pair) = self.pair_of_known(s)?
        {
            return Ok(pair);
        }
        match self.scalar_set(s)? {
            ScalarSet::Interval(lo, hi) => self.int_var(lo, hi, s.span),
            ScalarSet::Values(kind, values) => {
                if values.is_empty() {
                    return Err(Failure::Unsat);
                }
                self.sparse_scalar(kind, &values, s.span)
            }
        }
    }

    /// A fresh pair of scalars in known set `s` of pairs of scalars
    /// (`Nd * Nd`, `{(1, 2), (1, 3), (2, 4)}`): each component over the
    /// values it takes in `s`, and the pair in `s` where `s` is not the
    /// product of those values; `None` where `s` holds other values.
    fn pair_of_known(&mut self, s: &CExpr) -> T<Option<Enc>> {
        if let EK::Binary(BinaryOp::Mul, a, b) = &unmemo(s).kind
            && let (Value::Set(_), Value::Set(_)) = (self.eval(a)?, self.eval(b)?)
        {
            let pair = (self.encode(a)?, self.encode(b)?);
            return Ok(Some(Enc::Pair(Arc::new(pair))));
        }
        let Ok(set) = self.known_set(s) else {
            return Ok(None);
        };
        let mut table = Vec::with_capacity(set.len());
        let mut kinds = None;
        for v in set.iter() {
            let Value::Pair(p) = v else {
                return Ok(None);
            };
            let (Some(k1), Some(k2)) = (scalar_kind(&p.0), scalar_kind(&p.1)) else {
                return Ok(None);
            };
            kinds.get_or_insert((k1, k2));
            let (Some(c1), Some(c2)) = (scalar_code(&p.0), scalar_code(&p.1)) else {
                return Ok(None);
            };
            table.push((c1, c2));
        }
        let Some((k1, k2)) = kinds else {
            return Err(Failure::Unsat);
        };
        let values = |pick: fn(&(i64, i64)) -> i64| {
            let mut v: Vec<i64> = table.iter().map(pick).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let (firsts, seconds) = (values(|p| p.0), values(|p| p.1));
        let x = self.sparse_scalar(k1, &firsts, s.span)?;
        let y = self.sparse_scalar(k2, &seconds, s.span)?;
        if table.len() < firsts.len() * seconds.len() {
            let (Enc::Scalar(_, a), Enc::Scalar(_, b)) = (&x, &y) else {
                unreachable!("scalars")
            };
            let Some(l) = self.pair_in_table(*a, *b, &table) else {
                return Err(unsupported(s.span, "a pair in a set of wide pairs"));
            };
            self.clause(vec![l]);
        }
        Ok(Some(Enc::Pair(Arc::new((x, y)))))
    }

    /// A fresh scalar of kind `kind` over `values` (sorted), which the
    /// search branches on.
    fn sparse_scalar(&mut self, kind: Kind, values: &[i64], span: Span) -> T<Enc> {
        let values = to_i32(values, span)?;
        let x = self.cp.new_sparse_integer(values);
        self.decision.push(x);
        self.self_bounded.insert(x);
        Ok(Enc::Scalar(kind, x))
    }

    /// Records an integer that nothing bounds, given the domain [`WIDE`].
    fn widened(&mut self, what: String, x: DomainId, span: Span) {
        self.first_wide.get_or_insert_with(|| (what.clone(), span));
        self.self_bounded.remove(&x);
        self.wide.push((what, x, span));
    }

    /// What "no solution" means for this model: that, unless an integer
    /// nothing bounds was given the domain [`WIDE`], whose values beyond it
    /// are not sought; then the answer is not known (refused, naming it)
    /// unless the unknowns trust the range ([`Unknowns::trusts_range`]).
    pub(super) fn unsat_within_range(&self) -> Failure {
        match &self.first_wide {
            _ if self.wide_all_defined() => Failure::Unsat,
            Some((what, span)) if !self.trusts_range => Failure::UnsatWithinRange(Unsupported {
                span: *span,
                what: format!(
                    "{what}: no solution within ±{WIDE}, the range the constraint solver \
                     gives an integer nothing bounds (bound it, e.g. `x : 0..100`)"
                ),
            }),
            _ => Failure::Unsat,
        }
    }

    /// A fresh scalar of kind `kind` within `lo..hi`, its own bounds
    /// (unless [`Model::widened`] says they are the solver's range).
    pub(super) fn scalar(&mut self, kind: Kind, lo: i64, hi: i64) -> Enc {
        let x = self.cp.new_bounded_integer(lo as i32, hi as i32);
        self.decision.push(x);
        self.self_bounded.insert(x);
        Enc::Scalar(kind, x)
    }

    pub(super) fn int_var(&mut self, lo: i64, hi: i64, span: Span) -> T<Enc> {
        if lo > hi {
            return Err(Failure::Unsat);
        }
        if lo < -WIDE || hi > WIDE {
            // Beyond ±WIDE the solver's sums overflow its 32 bits: what
            // propagation does not narrow is not sought there.
            let enc = self.scalar(Kind::Int, lo.max(-WIDE), hi.min(WIDE));
            if let Enc::Scalar(_, x) = enc {
                self.widened(format!("an integer in {lo}..{hi}"), x, span);
                self.clamped.push(x);
            }
            return Ok(enc);
        }
        Ok(self.scalar(Kind::Int, lo, hi))
    }

    /// Candidate values of an encoding.
    pub(super) fn space(&self, e: &Enc) -> f64 {
        match e {
            Enc::Scalar(_, x) => {
                (self.cp.upper_bound(x) as f64 - self.cp.lower_bound(x) as f64 + 1.0).max(1.0)
            }
            Enc::Function { images, .. } => images.iter().map(|i| self.space(i)).product(),
            Enc::Set(s) => 2f64.powi(s.bits.len() as i32),
            Enc::Pair(p) => self.space(&p.0) * self.space(&p.1),
        }
    }

    // ---- predicates ----

    /// Posts `p` as true.
    pub(super) fn post(&mut self, p: &CPred) -> T<()> {
        // A model can take long to build (thousands of unrolled
        // instances): the limits hold here too.
        if let Some(reason) = workers::budget::tripped() {
            return Err(Failure::Stopped(reason));
        }
        if self.refuted || self.cp.is_inconsistent() {
            return Err(Failure::Unsat);
        }
        if !self.pred_reads_unknown(p) {
            return if self.holds(p)? {
                Ok(())
            } else {
                Err(Failure::Unsat)
            };
        }
        match &p.kind {
            PK::Member(_, s, negated) if self.is_whole_type(s) => {
                if *negated {
                    Err(Failure::Unsat)
                } else {
                    Ok(())
                }
            }
            PK::And(ps) => ps.iter().try_for_each(|q| self.post(q)),
            PK::ForAll(s, q) => self.over_instances(s, p.span, |m, instances, residual| {
                m.post_instances(s, q, instances, residual)
            }),
            PK::Implies(..) | PK::Exists(..) => self.post_under(&[], p),
            PK::Cmp(Cmp::Eq, a, b) if self.all_different_items(a, b).is_some() => {
                let items = self.all_different_items(a, b).expect("checked");
                let vars = items
                    .iter()
                    .map(|item| match self.scalar_item(item)? {
                        ScalarItem::Var(_, x) => Ok(x),
                        ScalarItem::Known(v) => {
                            let code = scalar_code(&v).expect("a scalar");
                            self.aux(code, code, item.span)
                        }
                    })
                    .collect::<T<Vec<DomainId>>>()?;
                pumpkin_constraints::all_different(vars, self.tag).post(&mut self.cp);
                Ok(())
            }
            PK::Cmp(op @ (Cmp::Eq | Cmp::Neq), a, b)
                if let Some(l) = self.singletons_compared(*op, a, b, p.span)? =>
            {
                self.clause(vec![l]);
                Ok(())
            }
            PK::Cmp(op @ (Cmp::Eq | Cmp::Neq), a, b)
                if let Some(q) = self.pairs_compared(*op, a, b, p.span)? =>
            {
                self.post(&q)
            }
            PK::Cmp(Cmp::Eq, a, b) if let Some((product, k)) = self.product_equal_to(a, b)? => {
                self.defined_here = true;
                self.product_cap = Some(k.abs());
                let t = self.term(product);
                self.product_cap = None;
                self.defined_here = false;
                self.post_cmp(Cmp::Eq, t?, Term::Known(Value::Int(k)), p.span)
            }
            PK::Cmp(op, a, b) => {
                self.defined_here = true;
                let terms = self.term(a).and_then(|a| Ok((a, self.term(b)?)));
                self.defined_here = false;
                let (a, b) = terms?;
                self.posting_predicate = true;
                let posted = self.post_cmp(*op, a, b, p.span);
                self.posting_predicate = false;
                posted
            }
            PK::Member(x, set, false)
                if let EK::Unary(UnaryOp::Dom, _) = &unmemo(set).kind
                    && let Some((lambda, _)) = self.lambda_over_sequences(set)?
                    && self.sequence_term(x)?.is_some() =>
            {
                let EK::Lambda(s, _) = &unmemo(&lambda).kind else {
                    return Err(unsupported(
                        p.span,
                        "membership in the domain of a non-lambda",
                    ));
                };
                let x = self.term(x)?;
                self.with_lambda_parameter(s, None, x, p.span, |_| Ok(()))
            }
            PK::Member(x, s, false) if let Some((elements, nonempty)) = seq_of(s) => {
                match self.term(x)? {
                    Term::Fun(Enc::Function { domain, images }) if is_sequence_domain(&domain) => {
                        if nonempty && images.is_empty() {
                            return Err(Failure::Unsat);
                        }
                        images
                            .iter()
                            .try_for_each(|image| self.post_enc_member(image, elements))
                    }
                    _ => Err(unsupported(
                        p.span,
                        "membership in seq(S) of a sequence whose size is not known",
                    )),
                }
            }
            PK::Member(x, s, false) if is_function_space(s) => match self.term(x)? {
                Term::Fun(enc) => self.post_function_space(&enc, s),
                Term::Set(set) => self.post_function_space(&Enc::Set(set), s),
                _ => Err(unsupported(
                    p.span,
                    "membership of a known value in a function space",
                )),
            },
            PK::Member(x, s, false) if pow_of(s).is_some() => {
                let x = self.term(x)?;
                let x = self.set_term(x, p.span)?;
                self.post_in_pow(x, s)
            }
            // `{A, B, C} <: 1..9`: each element is a member.
            PK::Subset(a, b, false, false) if let EK::SetEnum(items) = &a.kind => {
                items.iter().try_for_each(|x| {
                    self.post(&CPred {
                        kind: PK::Member(x.clone(), b.clone(), false),
                        span: p.span,
                    })
                })
            }
            PK::Subset(a, b, false, false) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.set_term(a, p.span)?, self.set_term(b, p.span)?);
                self.post_subset(&a, &b);
                Ok(())
            }
            _ => {
                let l = self.lit(p)?;
                self.clause(vec![l]);
                Ok(())
            }
        }
    }

    /// Posts `q` for each instance of `s` whose conditions `residual`
    /// hold (a clause where they read unknowns).
    fn post_instances(
        &mut self,
        s: &Solver,
        q: &CPred,
        instances: Vec<Vec<Value>>,
        residual: &[CPred],
    ) -> T<()> {
        for instance in instances {
            self.bind(s, &instance);
            // Conditions over known values select the instances
            // whose body is a top-level conjunct.
            let known = residual.iter().all(|r| !self.pred_reads_unknown(r));
            let mut selected = known;
            if known {
                for r in residual {
                    if !self.holds(r)? {
                        selected = false;
                        break;
                    }
                }
            }
            if residual.is_empty() || selected {
                self.post(q)?;
            } else if known {
                // A known condition fails: the instance holds.
            } else {
                let mut guards = Vec::with_capacity(residual.len());
                for r in residual {
                    guards.push(self.lit(r)?);
                }
                self.post_under(&guards, q)?;
            }
        }
        Ok(())
    }

    /// Posts "the conjunction of `guards` implies `p`" as clauses: the
    /// conjuncts of `p`, the conclusions of its implications and the
    /// instances of its quantifiers each get the guards, so that
    /// `b(p, q) = TRUE => !i.(.. => b(p + i, q) = FALSE)` is one binary
    /// clause per instance where reified conjunctions and disjunctions
    /// would hide it from propagation.
    fn post_under(&mut self, guards: &[Literal], p: &CPred) -> T<()> {
        // A guard false at the root: nothing to post (`p` may well be
        // undefined there, `(i, j) : dom(f) => f(i, j) = 0`).
        if guards
            .iter()
            .any(|&g| self.cp.get_literal_value(g) == Some(false))
        {
            return Ok(());
        }
        if guards.is_empty() && !matches!(p.kind, PK::Implies(..) | PK::Exists(..)) {
            return self.post(p);
        }
        let with = |guards: &[Literal], l: Literal| {
            let mut ls: Vec<Literal> = guards.iter().map(|&g| !g).collect();
            ls.push(l);
            ls
        };
        if !self.pred_reads_unknown(p) {
            if !self.holds(p)? {
                let ls = guards.iter().map(|&g| !g).collect();
                self.clause(ls);
            }
            return Ok(());
        }
        match &p.kind {
            PK::And(ps) => ps.iter().try_for_each(|q| self.post_under(guards, q)),
            PK::Implies(a, b) => {
                if let Some((slot, x, values)) = self.alias_cases(a)? {
                    return self.post_cases(guards, slot, x, values, b);
                }
                let mut more = guards.to_vec();
                more.push(self.lit(a)?);
                self.post_under(&more, b)
            }
            PK::ForAll(s, q) => self.over_instances(s, p.span, |m, instances, residual| {
                for instance in instances {
                    m.bind(s, &instance);
                    let mut more = guards.to_vec();
                    for r in residual {
                        more.push(m.lit(r)?);
                    }
                    m.post_under(&more, q)?;
                }
                Ok(())
            }),
            // Many instances, each variable of a known set the solver can
            // encode: fresh variables are the witness.
            PK::Exists(s) if let Some((binds, checks)) = self.witnessed(s)? => {
                self.post_witnessed(guards, s, &binds, &checks)
            }
            // One instance (a `LET`, or every variable named by an
            // equality): its conditions hold.
            PK::Exists(s) => self.over_instances(s, p.span, |m, instances, residual| {
                match instances.as_slice() {
                    [one] => {
                        m.bind(s, one);
                        residual.iter().try_for_each(|r| m.post_under(guards, r))
                    }
                    _ => {
                        // Several instances: one literal for the whole
                        // quantifier, whose own instances alias afresh.
                        m.end_aliases(s);
                        let l = m.lit(p)?;
                        let ls = with(guards, l);
                        m.clause(ls);
                        Ok(())
                    }
                }
            }),
            _ => {
                let l = self.lit(p)?;
                let ls = with(guards, l);
                self.clause(ls);
                Ok(())
            }
        }
    }

    /// The variables of an existential asserted true (`#x.(x : S & P)`)
    /// that fresh solver variables can stand for, with its conditions:
    /// each variable bound by one generator over a known set the solver
    /// encodes with bounded variables (scalars, total functions into
    /// them), the rest checks, and at least [`MIN_WITNESS_SPACE`]
    /// candidates together (fewer unroll into a disjunction, which
    /// propagates as well).
    fn witnessed(&mut self, s: &Solver) -> T<Option<WitnessedBinder>> {
        use super::super::ir::Gen;
        let mut binds: Vec<(u32, Witness)> = Vec::new();
        // Sequences of a known size, by their elements' type or set.
        let mut sequences: Vec<(u32, Witness)> = Vec::new();
        let mut checks = Vec::new();
        for step in &s.steps {
            match step {
                // `num(k) = x` made the plan draw `k` from `dom(num)`, `num`
                // a lambda over sequences: a sequence of its elements, in
                // its domain (checked below).
                SolveStep::Bind(k, Gen::In(set))
                    if s.vars.contains(k)
                        && let Some((_, elements)) = self.lambda_over_sequences(set)? =>
                {
                    sequences.push((*k, Witness::In(elements)));
                    checks.push(member_of(*k, set));
                }
                SolveStep::Bind(k, Gen::In(set))
                    if s.vars.contains(k)
                        && !binds.iter().any(|(j, _)| j == k)
                        && !self.reads_unknown(set)
                        && !reads_binder(s, set) =>
                {
                    binds.push((*k, Witness::In(set.clone())));
                }
                // A sequence nothing bounds but its size (checked below).
                SolveStep::Bind(k, Gen::Unbounded(_, Some(t)))
                    if s.vars.contains(k) && sequence_element(t).is_some() =>
                {
                    let element = sequence_element(t).expect("checked").clone();
                    sequences.push((*k, Witness::Sequence(element, 0)));
                }
                SolveStep::Bind(k, Gen::Eq(e))
                    if s.vars.contains(k) && !binds.iter().any(|(j, _)| j == k) =>
                {
                    binds.push((*k, Witness::Defined(e.clone())));
                }
                SolveStep::Check(p) => checks.push(p.clone()),
                _ => return Ok(None),
            }
        }
        // Those defined by an equation over the others (`s = k ^ rev(k)`)
        // come after them.
        let mut defined = Vec::new();
        for (k, elements) in sequences {
            let Some(n) = self.known_size(k, &checks)? else {
                match defining_check(k, &checks) {
                    Some(e) => defined.push((k, Witness::Defined(e))),
                    None => return Ok(None),
                }
                continue;
            };
            binds.push((
                k,
                match elements {
                    Witness::Sequence(element, _) => Witness::Sequence(element, n),
                    Witness::In(set) => Witness::SequenceIn(set, n),
                    other => other,
                },
            ));
        }
        binds.extend(defined);
        if binds.len() != s.vars.len() {
            return Ok(None);
        }
        let mut space = 1.0;
        for (_, witness) in &binds {
            match witness {
                Witness::In(set) => match self.witness_space(set) {
                    Some(n) => space *= n,
                    None => return Ok(None),
                },
                Witness::Sequence(..) | Witness::SequenceIn(..) => space = f64::INFINITY,
                Witness::Defined(_) => {}
            }
        }
        Ok((space >= MIN_WITNESS_SPACE).then_some((binds, checks)))
    }

    /// How many values a witness in `set` may take, where fresh bounded
    /// variables encode it: a known set of scalars, or a total function
    /// from a known set into such values.
    fn witness_space(&mut self, set: &CExpr) -> Option<f64> {
        match &set.kind {
            EK::Binary(op, d, r) if total_function(*op).is_some() => {
                let n = self.known_set(d).ok()?.len();
                if n > MAX_ENCODED {
                    return None;
                }
                Some(self.witness_space(r)?.powi(n as i32))
            }
            EK::Ints(_) => None,
            _ if pow_of(set).is_some() || is_function_space(set) => None,
            _ => match self.scalar_set(set).ok()? {
                ScalarSet::Interval(lo, hi) if lo <= hi && hi - lo <= WIDE => {
                    Some((hi - lo + 1) as f64)
                }
                ScalarSet::Values(_, values) if !values.is_empty() => Some(values.len() as f64),
                _ => None,
            },
        }
    }

    /// Posts an existential's conditions over fresh variables standing for
    /// its bound variables ([`Self::witnessed`]): where it is asserted, a
    /// witness exists exactly when they have a solution. They are not
    /// sought (a valuation is not repeated per witness): the solver
    /// branches on them after the unknowns.
    fn post_witnessed(
        &mut self,
        guards: &[Literal],
        s: &Solver,
        binds: &[(u32, Witness)],
        checks: &[CPred],
    ) -> T<()> {
        let sought = self.decision.len();
        let mut encodings = Vec::with_capacity(binds.len());
        for (k, witness) in binds {
            let enc = match witness {
                Witness::In(set) => self.encode(set)?,
                Witness::Sequence(element, n) => {
                    self.sequence_of_type(element, *n, "a witness's element", s.span)?
                }
                Witness::SequenceIn(elements, n) => self.sequence(*n, |m| m.encode(elements))?,
                Witness::Defined(_) => continue,
            };
            encodings.push((*k, enc));
        }
        self.decision.truncate(sought);
        for (k, enc) in encodings {
            let alias = match enc {
                Enc::Scalar(kind, x) => (Term::Lin(Lin::var(x)), Some((kind, x))),
                Enc::Set(t) => (Term::Set(t), None),
                e => (enc_term(&e), None),
            };
            self.aliases.insert(k, alias);
        }
        let posted = binds
            .iter()
            .filter_map(|(k, w)| match w {
                Witness::Defined(e) => Some((*k, e)),
                _ => None,
            })
            .try_for_each(|(k, e)| {
                let t = self.term(e)?;
                self.aliases.insert(k, (t, None));
                Ok(())
            })
            .and_then(|()| checks.iter().try_for_each(|c| self.post_under(guards, c)));
        self.end_aliases(s);
        posted
    }

    /// The items of `card({e1, ..., en}) = n` (either way round): the
    /// items are pairwise different.
    fn all_different_items<'e>(&mut self, a: &'e CExpr, b: &'e CExpr) -> Option<&'e [CExpr]> {
        [(a, b), (b, a)].into_iter().find_map(|(card, n)| {
            let EK::Unary(UnaryOp::Card, set) = &card.kind else {
                return None;
            };
            let EK::SetEnum(items) = &set.kind else {
                return None;
            };
            if self.reads_unknown(n) {
                return None;
            }
            match self.eval(n) {
                Ok(Value::Int(n)) if n as usize == items.len() && n > 1 => Some(&items[..]),
                _ => None,
            }
        })
    }

    /// A literal for the conjunction of `ps` (true for none).
    pub(super) fn all(&mut self, ps: &[CPred]) -> T<Literal> {
        let mut ls = Vec::with_capacity(ps.len());
        for p in ps {
            ls.push(self.lit(p)?);
        }
        Ok(if ls.is_empty() {
            self.constant_lit(true)
        } else {
            self.and(ls)
        })
    }

    /// A literal true exactly when `p` holds.
    pub(super) fn lit(&mut self, p: &CPred) -> T<Literal> {
        if !self.pred_reads_unknown(p) {
            let truth = self.holds(p)?;
            return Ok(self.constant_lit(truth));
        }
        match &p.kind {
            PK::Const(b) => Ok(self.constant_lit(*b)),
            PK::Member(_, s, negated) if self.is_whole_type(s) => Ok(self.constant_lit(!negated)),
            PK::And(ps) => {
                let ls = ps.iter().map(|q| self.lit(q)).collect::<T<Vec<_>>>()?;
                Ok(self.and(ls))
            }
            PK::Or(a, b) => {
                let (a, b) = (self.lit(a)?, self.lit(b)?);
                Ok(self.or(vec![a, b]))
            }
            PK::Implies(a, b) => {
                // A condition known false guards what it would make
                // ill-defined (`(i, j) : dom(board) => board(i, j) = FALSE`).
                let a = self.lit(a)?;
                if a == self.constant_lit(false) {
                    return Ok(self.constant_lit(true));
                }
                let b = self.lit(b)?;
                Ok(self.or(vec![!a, b]))
            }
            PK::Equiv(a, b) => {
                let (a, b) = (self.lit(a)?, self.lit(b)?);
                let (ab, ba) = (self.or(vec![!a, b]), self.or(vec![!b, a]));
                Ok(self.and(vec![ab, ba]))
            }
            PK::Not(a) => Ok(!self.lit(a)?),
            PK::ForAll(s, q) => self.over_instances(s, p.span, |m, instances, residual| {
                let mut ls = Vec::new();
                for instance in instances {
                    m.bind(s, &instance);
                    let mut holds = Vec::with_capacity(residual.len() + 1);
                    for r in residual {
                        holds.push(!m.lit(r)?);
                    }
                    holds.push(m.lit(q)?);
                    ls.push(m.or(holds));
                }
                if ls.is_empty() {
                    return Ok(m.constant_lit(true));
                }
                Ok(m.and(ls))
            }),
            PK::Exists(s) => self.over_instances(s, p.span, |m, instances, residual| {
                let mut ls = Vec::new();
                for instance in instances {
                    m.bind(s, &instance);
                    let mut all = Vec::with_capacity(residual.len());
                    for r in residual {
                        all.push(m.lit(r)?);
                    }
                    ls.push(if all.is_empty() {
                        m.constant_lit(true)
                    } else {
                        m.and(all)
                    });
                }
                if ls.is_empty() {
                    return Ok(m.constant_lit(false));
                }
                Ok(m.or(ls))
            }),
            PK::Cmp(op @ (Cmp::Eq | Cmp::Neq), a, b)
                if let Some(l) = self.singletons_compared(*op, a, b, p.span)? =>
            {
                Ok(l)
            }
            PK::Cmp(op @ (Cmp::Eq | Cmp::Neq), a, b)
                if let Some(q) = self.pairs_compared(*op, a, b, p.span)? =>
            {
                self.lit(&q)
            }
            PK::Cmp(op, a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.cmp_lit(*op, a, b, p.span)
            }
            PK::Member(x, s, negated) if !is_function_space(s) && pow_of(s).is_none() => {
                let l = self.in_lit(x, s, p.span)?;
                Ok(if *negated { !l } else { l })
            }
            PK::Member(x, s, negated) => {
                let x = self.term(x)?;
                let l = match (&s.kind, x) {
                    (_, x) if pow_of(s).is_some() => {
                        let (inner, nonempty) = pow_of(s).expect("a power set");
                        let x = self.set_term(x, p.span)?;
                        let inner = self.term(inner)?;
                        let inner = self.set_term(inner, p.span)?;
                        let sub = self.subset_lit(&x, &inner, false);
                        if nonempty {
                            let card = self.card(&x);
                            let some = self.cmp_lit(
                                Cmp::Ge,
                                Term::Lin(card),
                                Term::Lin(Lin::constant(1)),
                                p.span,
                            )?;
                            self.and(vec![sub, some])
                        } else {
                            sub
                        }
                    }
                    (EK::Binary(op, a, b), x @ (Term::Set(_) | Term::Fun(_))) => {
                        let x = self.set_term(x, p.span)?;
                        let (a, b) = (self.known_set(a)?, self.known_set(b)?);
                        let ls = self.relation_space_lits(&x, *op, &a, &b, p.span)?;
                        if ls.is_empty() {
                            self.constant_lit(true)
                        } else {
                            self.and(ls)
                        }
                    }
                    _ => {
                        return Err(unsupported(
                            p.span,
                            "membership of a known value in a function space",
                        ));
                    }
                };
                Ok(if *negated { !l } else { l })
            }
            PK::Subset(a, b, strict, negated) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.set_term(a, p.span)?, self.set_term(b, p.span)?);
                let l = self.subset_lit(&a, &b, *strict);
                Ok(if *negated { !l } else { l })
            }
        }
    }

    /// `A = B` or `A /= B` where each side is a set of at most one
    /// element: `{x}`, or the image `f[{x}]` of a known point under an
    /// encoded total function (`{f(x)}` where `x` is in its domain, else
    /// empty). Compares the elements (`f[{(i+2, j+1)}] /= {b}` is
    /// `f(i+2, j+1) /= b` on the board and true off it), where the set
    /// translation would build both sets over their universe.
    fn singletons_compared(
        &mut self,
        op: Cmp,
        a: &CExpr,
        b: &CExpr,
        span: Span,
    ) -> T<Option<Literal>> {
        let (Some(x), Some(y)) = (self.singleton(a)?, self.singleton(b)?) else {
            return Ok(None);
        };
        let equal = match (x, y) {
            (Some(x), Some(y)) => {
                let (x, y) = (self.term(&x)?, self.term(&y)?);
                self.cmp_lit(Cmp::Eq, x, y, span)?
            }
            (None, None) => self.constant_lit(true),
            _ => self.constant_lit(false),
        };
        Ok(Some(if op == Cmp::Eq { equal } else { !equal }))
    }

    /// `e` as a set of at most one element, where it is written as one
    /// ([`Self::singletons_compared`]): `Some(Some(x))` for `{x}`,
    /// `Some(None)` for the empty image.
    fn singleton(&mut self, e: &CExpr) -> T<Option<Option<CExpr>>> {
        match &e.kind {
            EK::SetEnum(items) if items.len() == 1 => Ok(Some(Some(items[0].clone()))),
            EK::Lit(Value::Set(items)) if items.len() <= 1 => {
                Ok(Some(items.first().map(|x| CExpr {
                    kind: EK::Lit(x.clone()),
                    span: e.span,
                })))
            }
            EK::Image(f, points) => {
                let (EK::Read(Slot::Frame(slot)), EK::SetEnum(items)) = (&f.kind, &points.kind)
                else {
                    return Ok(None);
                };
                let [x] = items.as_slice() else {
                    return Ok(None);
                };
                let Some(Some(Enc::Function { domain, .. })) =
                    self.index(*slot).map(|k| self.enc[k].clone())
                else {
                    return Ok(None);
                };
                if self.reads_unknown(x) {
                    return Ok(None);
                }
                let v = self.eval(x)?;
                if domain.binary_search(&v).is_err() {
                    return Ok(Some(None));
                }
                Ok(Some(Some(CExpr {
                    kind: EK::Apply(f.clone(), Box::new(x.clone())),
                    span: e.span,
                })))
            }
            _ => Ok(None),
        }
    }

    pub(super) fn constant_lit(&self, truth: bool) -> Literal {
        if truth {
            self.cp.get_true_literal()
        } else {
            self.cp.get_false_literal()
        }
    }

    pub(super) fn clause(&mut self, mut ls: Vec<Literal>) {
        // Literals decided at the root (constants, known conditions):
        // a true one satisfies the clause, false ones drop out, so that
        // the clauses left are as short as they are meant.
        if ls
            .iter()
            .any(|&l| self.cp.get_literal_value(l) == Some(true))
        {
            return;
        }
        let undecided: Vec<Literal> = ls
            .iter()
            .copied()
            .filter(|&l| self.cp.get_literal_value(l) != Some(false))
            .collect();
        if undecided.is_empty() {
            // Every literal false: no solution. Posting the empty clause
            // would leave the solver inconsistent, where it can create no
            // more variables.
            self.refuted = true;
            return;
        }
        ls = undecided;
        if let [a, b] = ls[..] {
            self.exclusive.insert((!a, !b));
            self.exclusive.insert((!b, !a));
        }
        pumpkin_constraints::clause(ls, self.tag).post(&mut self.cp);
    }

    /// Redundant sums for the cardinalities of sets whose members exclude
    /// each other in groups: the members are split greedily into cliques
    /// of pairwise exclusive bits (no two queens on a row), each clique
    /// contributes a 0/1 sum, and the cardinality is posted again as the
    /// sum of those. `card(queens) = n` over an n×n board then forces a
    /// queen into a row whose other squares are attacked, which the sum of
    /// the squares alone cannot see.
    /// Posts the disequalities of pairs of variables: over each clique of
    /// at least three pairs that all differ (`squadron(i, j) /= squadron(k,
    /// l)` for every two cells), one `all_different` of their codes `(a -
    /// lo) · w + b - lo'`, which propagates as a permutation where the
    /// pairs fill their range; each other one as `a /= c or b /= d`.
    fn post_distinct_pairs(&mut self, span: Span) -> T<()> {
        let edges = std::mem::take(&mut self.distinct_pairs);
        let mut nodes: Vec<(DomainId, DomainId)> = Vec::new();
        let mut index: HashMap<(DomainId, DomainId), usize, FastBuild> = HashMap::default();
        let mut adjacent = std::collections::HashSet::<(usize, usize), FastBuild>::default();
        for [a, b] in &edges {
            let mut id = |p: (DomainId, DomainId)| {
                *index.entry(p).or_insert_with(|| {
                    nodes.push(p);
                    nodes.len() - 1
                })
            };
            let (i, j) = (id(*a), id(*b));
            adjacent.insert((i, j));
            adjacent.insert((j, i));
        }
        let mut cliques: Vec<Vec<usize>> = Vec::new();
        for i in 0..nodes.len() {
            match cliques
                .iter_mut()
                .find(|c| c.iter().all(|&j| adjacent.contains(&(i, j))))
            {
                Some(c) => c.push(i),
                None => cliques.push(vec![i]),
            }
        }
        let mut clique_of = vec![usize::MAX; nodes.len()];
        for (n, c) in cliques.iter().enumerate().filter(|(_, c)| c.len() >= 3) {
            for &i in c {
                clique_of[i] = n;
            }
            let members: Vec<(DomainId, DomainId)> = c.iter().map(|&i| nodes[i]).collect();
            let lo = |m: &Self, pick: fn(&(DomainId, DomainId)) -> DomainId| {
                members.iter().map(|p| m.lb(pick(p))).min().unwrap_or(0)
            };
            let (lo1, lo2) = (lo(self, |p| p.0), lo(self, |p| p.1));
            let hi2 = members.iter().map(|p| self.ub(p.1)).max().unwrap_or(0);
            let width = hi2 - lo2 + 1;
            let codes = members
                .iter()
                .map(|&(a, b)| {
                    let code = Lin::var(a)
                        .scaled(width)
                        .plus(Lin::var(b))
                        .plus(Lin::constant(-lo1 * width - lo2));
                    self.materialise(&code, span)
                })
                .collect::<T<Vec<DomainId>>>()?;
            tracing::debug!(
                pairs = codes.len(),
                "constant solver: pairs that all differ, as all_different of their codes"
            );
            pumpkin_constraints::all_different(codes, self.tag).post(&mut self.cp);
        }
        for [a, b] in edges {
            let (i, j) = (index[&a], index[&b]);
            if clique_of[i] != usize::MAX && clique_of[i] == clique_of[j] {
                continue;
            }
            let term = |(x, y): (DomainId, DomainId)| {
                Term::Pair(Box::new((Term::Lin(Lin::var(x)), Term::Lin(Lin::var(y)))))
            };
            let l = self.cmp_lit(Cmp::Neq, term(a), term(b), span)?;
            self.clause(vec![l]);
        }
        Ok(())
    }

    fn post_clique_sums(&mut self, span: Span) -> T<()> {
        for (bits, total) in std::mem::take(&mut self.cards) {
            let sources: Vec<Literal> = bits
                .iter()
                .map(|&b| match self.bit_source.get(&b) {
                    Some(&l) => l,
                    None => self.bit_lit(b),
                })
                .collect();
            let mut cliques: Vec<Vec<usize>> = Vec::new();
            for (i, &l) in sources.iter().enumerate() {
                let joins = cliques
                    .iter_mut()
                    .find(|c| c.iter().all(|&j| self.exclusive.contains(&(l, sources[j]))));
                match joins {
                    Some(c) => c.push(i),
                    None => cliques.push(vec![i]),
                }
            }
            if cliques.iter().all(|c| c.len() == 1) {
                continue;
            }
            tracing::debug!(
                members = bits.len(),
                cliques = cliques.len(),
                "constant solver: a cardinality summed over cliques of exclusive members"
            );
            let mut sum = Lin::constant(0);
            for c in &cliques {
                let part = c
                    .iter()
                    .fold(Lin::constant(0), |acc, &i| acc.plus(Lin::var(bits[i])));
                // At most one member of a clique: its sum is a 0/1 variable.
                let x = self.materialise(&part, span)?;
                sum = sum.plus(Lin::var(x));
            }
            let d = sum.plus(Lin::var(total).scaled(-1));
            let (vars, rhs) = self.linear(&d, span)?;
            pumpkin_constraints::equals(vars, rhs, self.tag).post(&mut self.cp);
        }
        Ok(())
    }

    /// `l ⇔ ∧ ls`
    pub(super) fn and(&mut self, mut ls: Vec<Literal>) -> Literal {
        // Constant conjuncts decide it or drop out.
        let (t, f) = (self.constant_lit(true), self.constant_lit(false));
        if ls.contains(&f) {
            return f;
        }
        ls.retain(|&l| l != t);
        if ls.is_empty() {
            return t;
        }
        if ls.len() == 1 {
            return ls[0];
        }
        let l = self.cp.new_literal();
        pumpkin_constraints::conjunction(ls, self.tag).reify(&mut self.cp, l);
        l
    }

    /// `l ⇔ ∨ ls`
    pub(super) fn or(&mut self, mut ls: Vec<Literal>) -> Literal {
        // Constant disjuncts decide it or drop out.
        let (t, f) = (self.constant_lit(true), self.constant_lit(false));
        if ls.contains(&t) {
            return t;
        }
        ls.retain(|&l| l != f);
        if ls.is_empty() {
            return f;
        }
        if ls.len() == 1 {
            return ls[0];
        }
        let l = self.cp.new_literal();
        pumpkin_constraints::clause(ls, self.tag).reify(&mut self.cp, l);
        l
    }

    /// The solutions of a quantifier's range, which must read only known
    /// values: the values of its bound variables.
    /// The solutions of a binder's conditions over known values (the
    /// values of its bound variables), and its conditions that read
    /// unknown constants, which each instance leaves to the solver.
    pub(super) fn instances(&mut self, s: &Solver, span: Span) -> T<(Vec<Vec<Value>>, Vec<CPred>)> {
        // The plan of the known steps alone (its condition and image,
        // for expressions' binders, are not needed to enumerate).
        let mut known = Solver {
            vars: s.vars.clone(),
            steps: Vec::with_capacity(s.steps.len()),
            undefined: s.undefined,
            span: s.span,
            condition: None,
            by_solver: None,
            image: None,
        };
        let mut residual = Vec::new();
        let aliasing = std::mem::take(&mut self.aliasing);
        for step in &s.steps {
            // `x = E` (or `x : {E}`, `(x, y) : {E |-> F}`) over unknowns
            // and none of the binder's variables: `x` stands for `E`'s term.
            if aliasing && let Some(parts) = self.alias_parts(s, step) {
                for (k, e) in parts {
                    let scalar = match self.scalar_item(&e) {
                        Ok(super::sets::ScalarItem::Var(kind, x)) => Some((kind, x)),
                        _ => None,
                    };
                    let t = match scalar {
                        Some((_, x)) => Term::Lin(Lin::var(x)),
                        None => self.term(&e)?,
                    };
                    self.aliases.insert(k, (t, scalar));
                }
                continue;
            }
            // `x : dom(f)` with `f` a total function over a known domain.
            let substituted;
            let step = match step {
                SolveStep::Bind(k, super::super::ir::Gen::In(set))
                    if let Some(domain) = self.known_domain(set) =>
                {
                    substituted = SolveStep::Bind(*k, super::super::ir::Gen::In(domain));
                    &substituted
                }
                // The same for a tuple, `(p, q) : dom(board)`.
                SolveStep::BindPattern(pattern, set)
                    if let Some(domain) = self.known_domain(set) =>
                {
                    substituted = SolveStep::BindPattern(pattern.clone(), domain);
                    &substituted
                }
                // `x : s` with `s` an unknown set: `x` ranges over the
                // universe `s` is encoded over, the membership left to
                // the solver.
                SolveStep::Bind(k, super::super::ir::Gen::In(set))
                    if let Some(universe) = self.known_universe(set) =>
                {
                    residual.push(member_of(*k, set));
                    substituted = SolveStep::Bind(*k, super::super::ir::Gen::In(universe));
                    &substituted
                }
                // The same for a tuple, `(p, q) : board`.
                SolveStep::BindPattern(pattern, set)
                    if let Some(universe) = self.known_universe(set)
                        && let Some(tuple) = pattern_expr(pattern, set.span) =>
                {
                    residual.push(CPred {
                        kind: PK::Member(tuple, set.clone(), false),
                        span: set.span,
                    });
                    substituted = SolveStep::BindPattern(pattern.clone(), universe);
                    &substituted
                }
                step => step,
            };
            let mut slots = Vec::new();
            plan::step_slots(step, &mut slots);
            let reads_unknown = slots.iter().any(|&k| self.unknown(k));
            match step {
                SolveStep::Check(p) if reads_unknown => residual.push(p.clone()),
                // A generator over unknowns (`i : dom(f)` read off
                // `f(i) = x`): plan the binder again from its conditions
                // over known values alone.
                _ if reads_unknown && !self.replanning => return self.replanned(s, span),
                _ if reads_unknown => {
                    return Err(unsupported(
                        span,
                        "a bound variable whose values depend on unknown constants",
                    ));
                }
                _ => known.steps.push(step.clone()),
            }
        }
        if plan::candidate_space(&known) > MAX_UNROLLED_CANDIDATES {
            return Err(unsupported(
                span,
                format!("a binder over more than {MAX_UNROLLED_CANDIDATES:e} candidates"),
            ));
        }
        let mut out = Vec::new();
        let vars = s.vars.clone();
        self.interp
            .solve(&known, &mut self.env, &mut |env| {
                out.push(
                    vars.iter()
                        .map(|&v| env.frame[v as usize].clone())
                        .collect(),
                );
                Ok(out.len() <= MAX_INSTANCES)
            })
            .map_err(|f| self.failure(f))?;
        if out.len() > MAX_INSTANCES {
            return Err(unsupported(
                span,
                format!("a binder over more than {MAX_INSTANCES} values"),
            ));
        }
        Ok((out, residual))
    }

    /// [`Self::instances`] of a quantifier's binder (`!`, `#`, a `LET` in a
    /// predicate), where a variable defined over unknowns may stand for
    /// its definition's term; [`Self::end_aliases`] ends that.
    fn quantifier_instances(&mut self, s: &Solver, span: Span) -> T<(Vec<Vec<Value>>, Vec<CPred>)> {
        self.aliasing = true;
        let out = self.instances(s, span);
        self.aliasing = false;
        if out.is_err() {
            self.end_aliases(s);
        }
        out
    }

    /// A guard `x : S` or `x = c` with `x` a bound variable aliasing a
    /// scalar unknown and `S` a few known values: the slot, the unknown
    /// and the values (the cases [`Self::post_cases`] splits on).
    fn alias_cases(&mut self, guard: &CPred) -> T<Option<(u32, DomainId, Vec<Value>)>> {
        const MAX_CASES: usize = 16;
        let (e, known) = match &guard.kind {
            PK::Member(e, set, false) => (e, set),
            PK::Cmp(Cmp::Eq, e, c) | PK::Cmp(Cmp::Eq, c, e)
                if matches!(e.kind, EK::Read(Slot::Frame(_))) =>
            {
                (e, c)
            }
            _ => return Ok(None),
        };
        let EK::Read(Slot::Frame(k)) = e.kind else {
            return Ok(None);
        };
        let Some(&(_, x)) = self.alias_scalar(k) else {
            return Ok(None);
        };
        if self.reads_unknown(known) {
            return Ok(None);
        }
        let values = match (&guard.kind, self.eval(known)?) {
            (PK::Member(..), Value::Set(values)) if values.len() <= MAX_CASES => values.to_vec(),
            (PK::Member(..), _) => return Ok(None),
            (_, value) => vec![value],
        };
        if values.iter().any(|v| scalar_code(v).is_none()) {
            return Ok(None);
        }
        Ok(Some((k, x, values)))
    }

    /// `x : {v1, ..} => body` (see [`Self::alias_cases`]) as one
    /// `x = vi => body[x := vi]` per value: `body` then compares
    /// unknowns with known values, so that `x : {Queen, Rook} =>
    /// board(k, j) /= x` is a binary clause per value where a guard
    /// literal would make each clause ternary and hide which cells
    /// exclude each other.
    fn post_cases(
        &mut self,
        guards: &[Literal],
        slot: u32,
        x: DomainId,
        values: Vec<Value>,
        body: &CPred,
    ) -> T<()> {
        let alias = self.aliases.remove(&slot).expect("an alias");
        let before = self.env.frame[slot as usize].clone();
        let mut out = Ok(());
        for v in values {
            let code = scalar_code(&v).expect("checked scalar");
            let l = self.atom_lit(x, Atom::Eq, code);
            if self.cp.get_literal_value(l) == Some(false) {
                continue;
            }
            self.env.frame[slot as usize] = v;
            let mut more = guards.to_vec();
            more.push(l);
            out = self.post_under(&more, body);
            if out.is_err() {
                break;
            }
        }
        self.env.frame[slot as usize] = before;
        self.aliases.insert(slot, alias);
        out
    }

    /// `body` over the [`Self::quantifier_instances`] of a quantifier's
    /// binder (the instances and the conditions left to each), with the
    /// aliases of its variables ended afterwards whatever `body` returns.
    fn over_instances<R>(
        &mut self,
        s: &Solver,
        span: Span,
        body: impl FnOnce(&mut Self, Vec<Vec<Value>>, &[CPred]) -> T<R>,
    ) -> T<R> {
        let (instances, residual) = self.quantifier_instances(s, span)?;
        let out = body(self, instances, &residual);
        self.end_aliases(s);
        out
    }

    /// `(a1, b1) = (a2, b2)` as `a1 = a2 & b1 = b2` (`/=` as `a1 /= a2 or
    /// b1 /= b2`), where both sides are pairs written out or one is a
    /// known pair: the components are what the solver compares
    /// (`(dx, dy) /= (x + 1, y + 2)` over unknown coordinates).
    fn pairs_compared(&mut self, op: Cmp, a: &CExpr, b: &CExpr, span: Span) -> T<Option<CPred>> {
        let Some((a1, b1)) = self.pair_parts(a)? else {
            return Ok(None);
        };
        let Some((a2, b2)) = self.pair_parts(b)? else {
            return Ok(None);
        };
        if !matches!(unmemo(a).kind, EK::Binary(BinaryOp::Maplet, ..))
            && !matches!(unmemo(b).kind, EK::Binary(BinaryOp::Maplet, ..))
        {
            return Ok(None);
        }
        let part = |x: CExpr, y: CExpr| CPred {
            kind: PK::Cmp(op, x, y),
            span,
        };
        let (first, second) = (part(a1, a2), part(b1, b2));
        let kind = match op {
            Cmp::Eq => PK::And(vec![first, second]),
            _ => PK::Or(Box::new(first), Box::new(second)),
        };
        Ok(Some(CPred { kind, span }))
    }

    /// The two components of a pair expression: of `a |-> b` written out,
    /// or of a known pair's value.
    fn pair_parts(&mut self, e: &CExpr) -> T<Option<(CExpr, CExpr)>> {
        if let EK::Binary(BinaryOp::Maplet, a, b) = &unmemo(e).kind {
            return Ok(Some(((**a).clone(), (**b).clone())));
        }
        if self.reads_unknown(e) {
            return Ok(None);
        }
        Ok(match self.eval(e)? {
            Value::Pair(p) => {
                let lit = |v: &Value| CExpr {
                    kind: EK::Lit(v.clone()),
                    span: e.span,
                };
                Some((lit(&p.0), lit(&p.1)))
            }
            _ => None,
        })
    }

    /// Whether `s` holds every value of its type (`INTEGER`, `POW(INTEGER
    /// * INTEGER)`, ...): membership in it is typing, true of every value
    /// whatever bounds `--bound-integers` sets for enumeration.
    fn is_whole_type(&self, s: &CExpr) -> bool {
        super::super::symbolic::is_whole_type(unmemo(s), &self.interp.given_sets)
    }

    /// The slots a step of binder `s` binds to one value each, with the
    /// expression over unknowns each stands for: `x = E`, `x : {E}`, `(x,
    /// y) : {E |-> F}`, where no expression reads the binder's variables.
    fn alias_parts(&self, s: &Solver, step: &SolveStep) -> Option<Vec<(u32, CExpr)>> {
        use super::super::ir::{Gen, Pattern};
        fn destructure(p: &Pattern, e: &CExpr, out: &mut Vec<(u32, CExpr)>) -> bool {
            match (p, &unmemo(e).kind) {
                (Pattern::Slot(k), _) => {
                    out.push((*k, e.clone()));
                    true
                }
                (Pattern::Any, _) => true,
                (Pattern::Pair(pa, pb), EK::Binary(BinaryOp::Maplet, a, b)) => {
                    destructure(pa, a, out) && destructure(pb, b, out)
                }
                _ => false,
            }
        }
        let single = |set: &CExpr| match &unmemo(set).kind {
            EK::SetEnum(items) if items.len() == 1 => Some(items[0].clone()),
            _ => None,
        };
        let mut parts = Vec::new();
        match step {
            SolveStep::Bind(k, Gen::Eq(e)) => parts.push((*k, e.clone())),
            SolveStep::Bind(k, Gen::In(set)) => parts.push((*k, single(set)?)),
            SolveStep::BindPattern(pattern, set) => {
                if !destructure(pattern, &single(set)?, &mut parts) {
                    return None;
                }
            }
            _ => return None,
        }
        let over_unknowns = parts.iter().any(|(_, e)| self.reads_unknown(e));
        let reads_binder = parts.iter().any(|(_, e)| reads_binder(s, e));
        (over_unknowns && !reads_binder).then_some(parts)
    }

    /// The scalar a bound variable stands for, if it is an alias of one.
    pub(super) fn alias_scalar(&self, slot: u32) -> Option<&(Kind, DomainId)> {
        self.aliases.get(&slot).and_then(|(_, s)| s.as_ref())
    }

    /// Ends the aliases of `s`'s variables.
    fn end_aliases(&mut self, s: &Solver) {
        for v in &s.vars {
            self.aliases.remove(v);
        }
    }

    /// `dom(f)` as a literal, where `f` is an unknown encoded as a total
    /// function: its domain is known before it is solved.
    fn known_domain(&self, set: &CExpr) -> Option<CExpr> {
        let set = unmemo(set);
        let EK::Unary(UnaryOp::Dom, f) = &set.kind else {
            return None;
        };
        let EK::Read(Slot::Frame(slot)) = f.kind else {
            return None;
        };
        if let Some((Term::Fun(Enc::Function { domain, .. }), _)) = self.aliases.get(&slot) {
            return Some(CExpr {
                kind: EK::Lit(Value::Set(domain.clone())),
                span: set.span,
            });
        }
        match self.enc.get(self.index(slot)?)? {
            Some(Enc::Function { domain, .. }) => Some(CExpr {
                kind: EK::Lit(Value::Set(domain.clone())),
                span: set.span,
            }),
            _ => None,
        }
    }

    /// The universe of `set` as a literal, where `set` is an unknown
    /// encoded as a set over it.
    fn known_universe(&self, set: &CExpr) -> Option<CExpr> {
        let EK::Read(Slot::Frame(slot)) = unmemo(set).kind else {
            return None;
        };
        match self.enc.get(self.index(slot)?)? {
            Some(Enc::Set(s)) => Some(CExpr {
                kind: EK::Lit(Value::Set(s.universe.clone())),
                span: set.span,
            }),
            _ => None,
        }
    }

    /// [`Self::instances`] of a binder planned again: its conditions
    /// (the plan's generators and checks, as conjuncts) over known values
    /// generate and test, the others are left to the solver.
    fn replanned(&mut self, s: &Solver, span: Span) -> T<(Vec<Vec<Value>>, Vec<CPred>)> {
        let read = frame_read;
        let mut conjuncts = Vec::new();
        for step in &s.steps {
            match step {
                SolveStep::Bind(k, super::super::ir::Gen::Eq(e)) => conjuncts.push(CPred {
                    kind: PK::Cmp(Cmp::Eq, read(*k, e.span), e.clone()),
                    span: e.span,
                }),
                SolveStep::Bind(k, super::super::ir::Gen::In(set)) => conjuncts.push(CPred {
                    kind: PK::Member(read(*k, set.span), set.clone(), false),
                    span: set.span,
                }),
                SolveStep::Bind(_, super::super::ir::Gen::Type(_))
                | SolveStep::Bind(_, super::super::ir::Gen::Unbounded(..)) => {}
                SolveStep::Check(p) => conjuncts.push(p.clone()),
                SolveStep::Scan(scan) => {
                    conjuncts.push(CPred {
                        kind: PK::Member(read(scan.slot, scan.set.span), scan.set.clone(), false),
                        span: scan.set.span,
                    });
                    conjuncts.push(scan.check.clone());
                }
                _ => {
                    return Err(unsupported(
                        span,
                        "a bound variable whose values depend on unknown constants",
                    ));
                }
            }
        }
        let (residual, known): (Vec<CPred>, Vec<CPred>) = conjuncts
            .into_iter()
            .partition(|c| self.pred_reads_unknown(c));
        let names: Vec<crate::frontends::b::ast::Ident> = s
            .vars
            .iter()
            .map(|v| crate::frontends::b::ast::Ident {
                name: format!("bound variable {v}"),
                span,
            })
            .collect();
        let known = plan::plan(
            &names,
            &s.vars,
            None,
            false,
            false,
            known,
            span,
            s.undefined,
            None,
        );
        self.replanning = true;
        let instances = self.instances(&known, span);
        self.replanning = false;
        let (instances, more) = instances?;
        debug_assert!(
            more.is_empty(),
            "a plan of known conjuncts reads no unknown"
        );
        Ok((instances, residual))
    }

    pub(super) fn bind(&mut self, s: &Solver, instance: &[Value]) {
        for (&v, value) in s.vars.iter().zip(instance) {
            self.env.frame[v as usize] = value.clone();
        }
    }

    pub(super) fn post_cmp(&mut self, op: Cmp, a: Term, b: Term, span: Span) -> T<()> {
        if op == Cmp::Neq
            && let (Some(a), Some(b)) = (var_pair(&a), var_pair(&b))
        {
            self.distinct_pairs.push([a, b]);
            return Ok(());
        }
        if let (Term::Fun(_) | Term::Set(_) | Term::Pair(_), _)
        | (_, Term::Fun(_) | Term::Set(_) | Term::Pair(_)) = (&a, &b)
        {
            let l = self.cmp_lit(op, a, b, span)?;
            self.clause(vec![l]);
            return Ok(());
        }
        let (a, b) = (self.lin(a, span)?, self.lin(b, span)?);
        let d = a.plus(b.scaled(-1));
        if d.overflow {
            return Err(unsupported(span, "an integer sum beyond 64 bits"));
        }
        if d.terms.is_empty() {
            return if compare(op, d.k, 0) {
                Ok(())
            } else {
                Err(Failure::Unsat)
            };
        }
        if self.posting_predicate {
            self.bounded_by_predicate(op, &d);
        }
        // Entailed by the domains: nothing to post. A bound beyond 32 bits
        // (`MAXIMIZE`'s first bound, `x > -10000000000`) then needs no
        // 32-bit sum.
        if self.entailed(op, &d) {
            return Ok(());
        }
        if self.entailed(op.negated(), &d) {
            return Err(Failure::Unsat);
        }
        // As propagation would, before the sum's 32-bit bounds are checked.
        if matches!(op, Cmp::Eq | Cmp::Le | Cmp::Lt) {
            self.tighten_at_most(&d, if op == Cmp::Lt { -1 } else { 0 })?;
        }
        if matches!(op, Cmp::Eq | Cmp::Ge | Cmp::Gt) {
            let slack = if op == Cmp::Gt { -1 } else { 0 };
            self.tighten_at_most(&d.clone().scaled(-1), slack)?;
        }
        let (vars, rhs) = self.linear(&d, span)?;
        let tag = self.tag;
        let cp = &mut self.cp;
        match op {
            Cmp::Eq => pumpkin_constraints::equals(vars, rhs, tag).post(cp),
            Cmp::Neq => pumpkin_constraints::not_equals(vars, rhs, tag).post(cp),
            Cmp::Le => pumpkin_constraints::less_than_or_equals(vars, rhs, tag).post(cp),
            Cmp::Lt => pumpkin_constraints::less_than_or_equals(vars, rhs - 1, tag).post(cp),
            Cmp::Ge => pumpkin_constraints::greater_than_or_equals(vars, rhs, tag).post(cp),
            Cmp::Gt => pumpkin_constraints::greater_than_or_equals(vars, rhs + 1, tag).post(cp),
        }
        // Only once posted: an equation left to filter solutions bounds
        // nothing the solver sees.
        if op == Cmp::Eq {
            self.defined_by_self_bounded(&d);
        }
        Ok(())
    }

    /// Narrows the domains of the variables of `d <= slack` (posted, not
    /// reified) to what the others' bounds leave each, as the solver's
    /// propagation would: a sum over integers nothing bounds then fits
    /// its 32 bits (`SIGMA(x).(x : coins | stolen(x) * x) = 100` with
    /// `stolen : coins --> NATURAL`).
    fn tighten_at_most(&mut self, d: &Lin, slack: i64) -> T<()> {
        let least = |m: &Self, c: i64, x: DomainId| {
            i128::from(c) * i128::from(if c > 0 { m.lb(x) } else { m.ub(x) })
        };
        let total: i128 = d.terms.iter().map(|&(c, x)| least(self, c, x)).sum();
        for &(c, x) in &d.terms {
            // c * x <= slack - k - (the least of the others).
            let room = i128::from(slack) - i128::from(d.k) - (total - least(self, c, x));
            let c = i128::from(c);
            let bound = if c > 0 {
                room.div_euclid(c)
            } else {
                -room.div_euclid(-c)
            };
            let Ok(bound) = i32::try_from(bound) else {
                continue;
            };
            if c > 0 && i64::from(bound) < self.ub(x) {
                self.cp.add_clause([predicate!(x <= bound)], self.tag);
            } else if c < 0 && i64::from(bound) > self.lb(x) {
                self.cp.add_clause([predicate!(x >= bound)], self.tag);
            }
            if self.cp.is_inconsistent() {
                return Err(Failure::Unsat);
            }
        }
        Ok(())
    }

    pub(super) fn cmp_lit(&mut self, op: Cmp, a: Term, b: Term, span: Span) -> T<Literal> {
        match (a, b) {
            (a @ Term::Pair(_), b) | (b, a @ Term::Pair(_)) => {
                if !matches!(op, Cmp::Eq | Cmp::Neq) {
                    return Err(unsupported(span, "an order comparison of pairs"));
                }
                let (Some((a1, a2)), Some((b1, b2))) = (term_parts(a), term_parts(b)) else {
                    return Ok(self.constant_lit(op == Cmp::Neq));
                };
                let first = self.cmp_lit(Cmp::Eq, a1, b1, span)?;
                let second = self.cmp_lit(Cmp::Eq, a2, b2, span)?;
                let l = self.and(vec![first, second]);
                Ok(if op == Cmp::Eq { l } else { !l })
            }
            (a, b) if (is_set(&a) || is_set(&b)) && matches!(op, Cmp::Eq | Cmp::Neq) => {
                let (a, b) = (self.set_term(a, span)?, self.set_term(b, span)?);
                let l = self.set_equal_lit(&a, &b);
                Ok(if op == Cmp::Eq { l } else { !l })
            }
            (Term::Set(_), _) | (_, Term::Set(_)) => {
                Err(unsupported(span, "an order comparison of sets"))
            }
            (Term::Fun(f), other) | (other, Term::Fun(f)) if matches!(op, Cmp::Eq | Cmp::Neq) => {
                let l = self.function_equals(&f, other, span)?;
                Ok(if op == Cmp::Eq { l } else { !l })
            }
            (Term::Fun(_), _) | (_, Term::Fun(_)) => {
                Err(unsupported(span, "an order comparison of functions"))
            }
            (a, b) => {
                let (a, b) = (self.lin(a, span)?, self.lin(b, span)?);
                let d = a.plus(b.scaled(-1));
                if d.overflow {
                    return Err(unsupported(span, "an integer sum beyond 64 bits"));
                }
                if d.terms.is_empty() {
                    return Ok(self.constant_lit(compare(op, d.k, 0)));
                }
                if self.entailed(op, &d) {
                    return Ok(self.constant_lit(true));
                }
                if self.entailed(op.negated(), &d) {
                    return Ok(self.constant_lit(false));
                }
                if let [(c, x)] = d.terms[..] {
                    return Ok(self.one_var_lit(op, c, x, d.k));
                }
                let (vars, rhs) = self.linear(&d, span)?;
                let l = self.cp.new_literal();
                let tag = self.tag;
                let cp = &mut self.cp;
                match op {
                    Cmp::Eq => pumpkin_constraints::equals(vars, rhs, tag).reify(cp, l),
                    Cmp::Neq => pumpkin_constraints::not_equals(vars, rhs, tag).reify(cp, l),
                    Cmp::Le => {
                        pumpkin_constraints::less_than_or_equals(vars, rhs, tag).reify(cp, l)
                    }
                    Cmp::Lt => {
                        pumpkin_constraints::less_than_or_equals(vars, rhs - 1, tag).reify(cp, l)
                    }
                    Cmp::Ge => pumpkin_constraints::less_than_or_equals(negated(&vars), -rhs, tag)
                        .reify(cp, l),
                    Cmp::Gt => {
                        pumpkin_constraints::less_than_or_equals(negated(&vars), -rhs - 1, tag)
                            .reify(cp, l)
                    }
                }
                Ok(l)
            }
        }
    }

    /// A literal for `c·x + k op 0`: an atomic predicate on `x` (bounds
    /// and equalities are the solver's own literals, where a reified
    /// linear constraint would be a propagator each).
    fn one_var_lit(&mut self, op: Cmp, c: i64, x: DomainId, k: i64) -> Literal {
        // Integers: `< 0` is `+ 1 <= 0`; `>= 0` is `-(c·x + k) <= 0`.
        let (c, k) = match op {
            Cmp::Eq | Cmp::Neq => {
                let l = if (-k) % c == 0 {
                    self.atom_lit(x, Atom::Eq, -k / c)
                } else {
                    self.constant_lit(false)
                };
                return if op == Cmp::Eq { l } else { !l };
            }
            Cmp::Le => (c, k),
            Cmp::Lt => (c, k + 1),
            Cmp::Ge => (-c, -k),
            Cmp::Gt => (-c, 1 - k),
        };
        // `c·x <= -k`
        if c > 0 {
            self.atom_lit(x, Atom::Le, floor_div(-k, c))
        } else {
            self.atom_lit(x, Atom::Ge, -floor_div(-k, -c))
        }
    }

    /// The literal of `x = v`, `x <= v` or `x >= v`, made once per
    /// predicate; constant where `v` lies outside `x`'s initial bounds.
    pub(super) fn atom_lit(&mut self, x: DomainId, atom: Atom, v: i64) -> Literal {
        let (lo, hi) = (self.lb(x), self.ub(x));
        let constant = match atom {
            Atom::Eq if v < lo || v > hi => Some(false),
            Atom::Le if v < lo => Some(false),
            Atom::Le if v >= hi => Some(true),
            Atom::Ge if v > hi => Some(false),
            Atom::Ge if v <= lo => Some(true),
            _ => None,
        };
        if let Some(truth) = constant {
            return self.constant_lit(truth);
        }
        // A 0/1 variable is its own literal.
        if (lo, hi) == (0, 1) {
            let one = Literal::new(x);
            return match (atom, v) {
                (Atom::Eq, 1) | (Atom::Ge, _) => one,
                _ => !one,
            };
        }
        // Within the bounds of an i32 variable.
        let v = v as i32;
        if let Some(&l) = self.atom_lits.get(&(x, atom, v)) {
            return l;
        }
        let p = match atom {
            Atom::Eq => predicate!(x == v),
            Atom::Le => predicate!(x <= v),
            Atom::Ge => predicate!(x >= v),
        };
        let l = self.cp.new_literal_for_predicate(p, self.tag);
        self.atom_lits.insert((x, atom, v), l);
        l
    }

    /// A literal for `f = other`, `f` an encoded function and `other` an
    /// encoded function over the same domain or a known function.
    pub(super) fn function_equals(&mut self, f: &Enc, other: Term, span: Span) -> T<Literal> {
        let Enc::Function { domain, images } = f else {
            unreachable!("Term::Fun holds functions")
        };
        let mut ls = Vec::new();
        match other {
            Term::Fun(Enc::Function {
                domain: d2,
                images: i2,
            }) => {
                if d2 != *domain {
                    return Err(unsupported(
                        span,
                        "equality of functions over different domains",
                    ));
                }
                for (a, b) in images.iter().zip(i2.iter()) {
                    ls.push(self.enc_equals(a, b, span)?);
                }
            }
            Term::Known(v) => {
                let Ok(pairs) = super::super::expr::set(&v, span) else {
                    return Ok(self.constant_lit(false));
                };
                if pairs.len() != domain.len() {
                    return Ok(self.constant_lit(false));
                }
                for (p, (x, img)) in pairs.iter().zip(domain.iter().zip(images.iter())) {
                    let Value::Pair(p) = p else {
                        return Ok(self.constant_lit(false));
                    };
                    if p.0 != *x {
                        return Ok(self.constant_lit(false));
                    }
                    let known = self.known_enc(img, &p.1, span)?;
                    ls.push(known);
                }
            }
            _ => return Ok(self.constant_lit(false)),
        }
        Ok(self.and(ls))
    }

    pub(super) fn enc_equals(&mut self, a: &Enc, b: &Enc, span: Span) -> T<Literal> {
        match (a, b) {
            (Enc::Scalar(_, x), Enc::Scalar(_, y)) => self.cmp_lit(
                Cmp::Eq,
                Term::Lin(Lin::var(*x)),
                Term::Lin(Lin::var(*y)),
                span,
            ),
            (f @ Enc::Function { .. }, g @ Enc::Function { .. }) => {
                self.function_equals(f, Term::Fun(g.clone()), span)
            }
            (Enc::Set(a), Enc::Set(b)) => Ok(self.set_equal_lit(a, b)),
            (Enc::Pair(p), Enc::Pair(q)) => {
                let first = self.enc_equals(&p.0, &q.0, span)?;
                let second = self.enc_equals(&p.1, &q.1, span)?;
                Ok(self.and(vec![first, second]))
            }
            _ => Ok(self.constant_lit(false)),
        }
    }

    /// A literal for "encoding `e` has the known value `v`".
    pub(super) fn known_enc(&mut self, e: &Enc, v: &Value, span: Span) -> T<Literal> {
        match e {
            Enc::Scalar(..) => {
                let Some(k) = scalar_code(v) else {
                    return Ok(self.constant_lit(false));
                };
                let Enc::Scalar(_, x) = e else { unreachable!() };
                self.cmp_lit(
                    Cmp::Eq,
                    Term::Lin(Lin::var(*x)),
                    Term::Lin(Lin::constant(k)),
                    span,
                )
            }
            Enc::Function { .. } => self.function_equals(e, Term::Known(v.clone()), span),
            Enc::Set(s) => {
                let known = self.set_term(Term::Known(v.clone()), span)?;
                Ok(self.set_equal_lit(s, &known))
            }
            Enc::Pair(p) => {
                let Value::Pair(v) = v else {
                    return Ok(self.constant_lit(false));
                };
                let first = self.known_enc(&p.0, &v.0, span)?;
                let second = self.known_enc(&p.1, &v.1, span)?;
                Ok(self.and(vec![first, second]))
            }
        }
    }

    /// Posts `enc : D op R` (a function space).
    pub(super) fn post_function_space(&mut self, enc: &Enc, s: &CExpr) -> T<()> {
        let EK::Binary(op, d, r) = &s.kind else {
            unreachable!("a function space")
        };
        let Enc::Function { domain, images } = enc else {
            return match enc {
                Enc::Set(set) if self.reads_unknown(d) || self.reads_unknown(r) => {
                    // `author : books --> persons` with `books` and
                    // `persons` unknown subsets of a given set.
                    let a = self.term(d)?;
                    let a = self.set_term(a, d.span)?;
                    let b = self.term(r)?;
                    let b = self.set_term(b, r.span)?;
                    self.post_relation_space_over(set, *op, &a, &b, s.span)
                }
                Enc::Set(set) => {
                    let (a, b) = (self.known_set(d)?, self.known_set(r)?);
                    self.post_relation_space(set, *op, &a, &b, s.span)
                }
                _ => Err(unsupported(s.span, "a function space for a scalar")),
            };
        };
        let Some((injective, surjective)) = total_function(*op) else {
            return Err(unsupported(
                s.span,
                format!("a total function typed again as {op:?}"),
            ));
        };
        if self.reads_unknown(d) || *self.known_set(d)? != **domain {
            return Err(unsupported(
                s.span,
                "a function typed over another domain than its first typing",
            ));
        }
        for image in images.iter() {
            self.post_enc_member(image, r)?;
        }
        if (injective || surjective) && images.iter().all(|i| matches!(i, Enc::Pair(_))) {
            return self.post_pair_images(images, r, injective, surjective, s.span);
        }
        if injective || surjective {
            let vars: Vec<DomainId> = images
                .iter()
                .map(|i| match i {
                    Enc::Scalar(_, x) => Ok(*x),
                    _ => Err(unsupported(
                        s.span,
                        "an injection or surjection into functions",
                    )),
                })
                .collect::<T<_>>()?;
            if injective {
                pumpkin_constraints::all_different(vars.clone(), self.tag).post(&mut self.cp);
            }
            if surjective {
                let ScalarSet::Values(_, range) = self.scalar_set(r)?.listed() else {
                    return Err(unsupported(s.span, "a surjection onto an infinite set"));
                };
                for v in to_i32(&range, r.span)? {
                    let ls: Vec<Literal> = vars
                        .iter()
                        .map(|&x| self.atom_lit(x, Atom::Eq, i64::from(v)))
                        .collect();
                    self.clause(ls);
                }
            }
        }
        Ok(())
    }

    /// Posts that a function whose images are pairs of scalars is
    /// injective (its images' codes `(a - lo(a)) · |b| + b - lo(b)` all
    /// differ) or onto `r` (each pair of `r` is some image).
    fn post_pair_images(
        &mut self,
        images: &[Enc],
        r: &CExpr,
        injective: bool,
        surjective: bool,
        span: Span,
    ) -> T<()> {
        let mut pairs = Vec::with_capacity(images.len());
        for image in images {
            let Enc::Pair(p) = image else {
                unreachable!("pairs")
            };
            let (Enc::Scalar(_, a), Enc::Scalar(_, b)) = (&p.0, &p.1) else {
                return Err(unsupported(
                    span,
                    "an injection or surjection into nested pairs",
                ));
            };
            pairs.push((*a, *b));
        }
        if injective {
            let bounds = |m: &Self, pick: fn(&(DomainId, DomainId)) -> DomainId| {
                let lo = pairs.iter().map(|p| m.lb(pick(p))).min().unwrap_or(0);
                let hi = pairs.iter().map(|p| m.ub(pick(p))).max().unwrap_or(0);
                (lo, hi)
            };
            let ((alo, _), (blo, bhi)) = (bounds(self, |p| p.0), bounds(self, |p| p.1));
            let width = bhi - blo + 1;
            let codes = pairs
                .iter()
                .map(|&(a, b)| {
                    let code = Lin::var(a)
                        .scaled(width)
                        .plus(Lin::var(b))
                        .plus(Lin::constant(-alo * width - blo));
                    self.materialise(&code, span)
                })
                .collect::<T<Vec<DomainId>>>()?;
            pumpkin_constraints::all_different(codes, self.tag).post(&mut self.cp);
        }
        if surjective {
            let range = self.known_set(r)?;
            for v in range.iter() {
                let Value::Pair(v) = v else {
                    return Err(Failure::Unsat);
                };
                let (Some(c1), Some(c2)) = (scalar_code(&v.0), scalar_code(&v.1)) else {
                    return Err(Failure::Unsat);
                };
                let mut ls = Vec::with_capacity(pairs.len());
                for &(a, b) in &pairs {
                    let (l1, l2) = (
                        self.atom_lit(a, Atom::Eq, c1),
                        self.atom_lit(b, Atom::Eq, c2),
                    );
                    ls.push(self.and(vec![l1, l2]));
                }
                let l = self.or(ls);
                self.clause(vec![l]);
            }
        }
        Ok(())
    }

    /// Posts that encoding `e` is a member of `s`.
    pub(super) fn post_enc_member(&mut self, e: &Enc, s: &CExpr) -> T<()> {
        match e {
            Enc::Scalar(_, x) if !is_function_space(s) && pow_of(s).is_none() => {
                self.post_member(Lin::var(*x), s)
            }
            Enc::Function { .. } | Enc::Set(_) if is_function_space(s) => {
                self.post_function_space(e, s)
            }
            Enc::Set(set) if pow_of(s).is_some() => self.post_in_pow(set.clone(), s),
            Enc::Pair(p) => {
                let l = self.pair_member_lit(enc_term(&p.0), enc_term(&p.1), s, s.span)?;
                self.clause(vec![l]);
                Ok(())
            }
            _ => Err(unsupported(
                s.span,
                "a value of another kind than its set's",
            )),
        }
    }

    /// Posts `x : POW(S)` (`POW1`, `FIN`, `FIN1`).
    pub(super) fn post_in_pow(&mut self, x: super::sets::SetTerm, s: &CExpr) -> T<()> {
        let (inner, nonempty) = pow_of(s).expect("a power set");
        let inner = self.term(inner)?;
        let inner = self.set_term(inner, s.span)?;
        self.post_subset(&x, &inner);
        if nonempty {
            let card = self.card(&x);
            self.post_cmp(
                Cmp::Ge,
                Term::Lin(card),
                Term::Lin(Lin::constant(1)),
                s.span,
            )?;
        }
        Ok(())
    }

    /// A literal for `x : s` (`s` not a function space nor a power set).
    pub(super) fn in_lit(&mut self, x: &CExpr, s: &CExpr, span: Span) -> T<Literal> {
        // `dom(f)` of a total function is known before it is solved.
        let domain = self.known_domain(s);
        let s = domain.as_ref().unwrap_or(s);
        if !self.reads_unknown(x) && !self.reads_unknown(s) {
            let member = CPred {
                kind: PK::Member(x.clone(), s.clone(), false),
                span,
            };
            let truth = self.holds(&member)?;
            return Ok(self.constant_lit(truth));
        }
        let (a, b) = match self.term(x)? {
            Term::Pair(p) => *p,
            t => return self.scalar_in_lit(t, s, span),
        };
        self.pair_member_lit(a, b, s, span)
    }

    /// A literal for `a |-> b : s`.
    fn pair_member_lit(&mut self, a: Term, b: Term, s: &CExpr, span: Span) -> T<Literal> {
        // `a |-> b : {p, q}` with `p` or `q` over unknowns: it is one
        // of them (a path's step `Path(i) : {UPath(i), inv(UPath(i))}`).
        if let EK::SetEnum(items) = &unmemo(s).kind
            && self.reads_unknown(s)
        {
            let mut ls = Vec::with_capacity(items.len());
            for item in items.iter() {
                let item = self.term(item)?;
                let pair = Term::Pair(Box::new((a.clone(), b.clone())));
                ls.push(self.cmp_lit(Cmp::Eq, pair, item, span)?);
            }
            return Ok(self.or(ls));
        }
        // `a |-> b : A * B` is `a : A & b : B`.
        if let EK::Binary(BinaryOp::Mul, left, right) = &unmemo(s).kind
            && !self.reads_unknown(s)
            && let (Value::Set(_), Value::Set(_)) = (self.eval(left)?, self.eval(right)?)
        {
            let (a, b) = (self.lin(a, span)?, self.lin(b, span)?);
            let first = self.member_lit(a, left)?;
            let second = self.member_lit(b, right)?;
            return Ok(self.and(vec![first, second]));
        }
        // `a |-> b : s`: some pair of `s` is (a, b).
        let (a, b) = (self.lin(a, span)?, self.lin(b, span)?);
        if !self.reads_unknown(s)
            && let Some(table) = self.scalar_pairs(s)?
        {
            let (a, b) = (self.materialise(&a, span)?, self.materialise(&b, span)?);
            if let Some(l) = self.pair_in_table(a, b, &table) {
                return Ok(l);
            }
        }
        let set = self.term(s)?;
        let set = self.set_term(set, s.span)?;
        let mut ls = Vec::new();
        for (u, &bit) in set.universe.iter().zip(set.bits.iter()) {
            let Value::Pair(p) = u else {
                return Err(unsupported(span, "a pair in a set of non-pairs"));
            };
            let (Some(c1), Some(c2)) = (scalar_code(&p.0), scalar_code(&p.1)) else {
                return Err(unsupported(
                    span,
                    "an unknown pair in a set of nested pairs",
                ));
            };
            let l1 = self.cmp_lit(
                Cmp::Eq,
                Term::Lin(a.clone()),
                Term::Lin(Lin::constant(c1)),
                span,
            )?;
            let l2 = self.cmp_lit(
                Cmp::Eq,
                Term::Lin(b.clone()),
                Term::Lin(Lin::constant(c2)),
                span,
            )?;
            let member = self.bit_lit(bit);
            ls.push(self.and(vec![l1, l2, member]));
        }
        Ok(self.or(ls))
    }

    /// A literal for `x : s`, `x` (of term `t`) not a pair.
    fn scalar_in_lit(&mut self, t: Term, s: &CExpr, span: Span) -> T<Literal> {
        let interval = matches!(s.kind, EK::Binary(BinaryOp::Interval, _, _) | EK::Ints(_));
        if self.reads_unknown(s) && !interval {
            let set = self.term(s)?;
            let set = self.set_term(set, s.span)?;
            return self.set_member_lit(t, set, span);
        }
        match t {
            Term::Lin(l) => self.member_lit(l, s),
            Term::Known(v) => match scalar_code(&v) {
                Some(k) => self.member_lit(Lin::constant(k), s),
                None => Err(unsupported(
                    span,
                    "membership of a known non-scalar in this set",
                )),
            },
            Term::Set(_) => Err(unsupported(
                span,
                "membership of an unknown set in a set of sets",
            )),
            Term::Fun(_) => Err(unsupported(
                span,
                "membership of an unknown function in this set",
            )),
            Term::Pair(_) => unreachable!("a pair's membership is decided by `in_lit`"),
        }
    }

    /// The pairs of a known set as scalar codes, if they all are pairs
    /// of scalars.
    fn scalar_pairs(&mut self, s: &CExpr) -> T<Option<Vec<(i64, i64)>>> {
        // A set that cannot be listed is left to the general translation.
        let Ok(set) = self.known_set(s) else {
            return Ok(None);
        };
        Ok(set
            .iter()
            .map(|u| match u {
                Value::Pair(p) => Some((scalar_code(&p.0)?, scalar_code(&p.1)?)),
                _ => None,
            })
            .collect())
    }

    /// A literal for `(a, b) : table` by support clauses: where it holds,
    /// each value of `a` implies one of the values of `b` it is paired
    /// with and each value of `b` one of those of `a`; where it does not,
    /// no pair of the table is taken. Propagation then keeps both domains
    /// arc consistent, as a table constraint does (a graph isomorphism's
    /// `p(x) |-> p(y) : g2`), where a disjunction of conjunctions per pair
    /// propagates only once one side is fixed. `None` where a domain is
    /// too wide to list.
    fn pair_in_table(&mut self, a: DomainId, b: DomainId, table: &[(i64, i64)]) -> Option<Literal> {
        const MAX_VALUES: i64 = 4096;
        let values = |m: &Self, x: DomainId| -> Option<Vec<i64>> {
            let (lo, hi) = (m.lb(x), m.ub(x));
            (hi - lo < MAX_VALUES)
                .then(|| (lo..=hi).filter(|&v| m.cp.contains(&x, v as i32)).collect())
        };
        let (va, vb) = (values(self, a)?, values(self, b)?);
        let pairs: Vec<(i64, i64)> = table
            .iter()
            .copied()
            .filter(|(x, y)| va.binary_search(x).is_ok() && vb.binary_search(y).is_ok())
            .collect();
        if pairs.is_empty() {
            return Some(self.constant_lit(false));
        }
        let r = self.cp.new_literal();
        let mut forward: HashMap<i64, Vec<i64>> = HashMap::new();
        let mut backward: HashMap<i64, Vec<i64>> = HashMap::new();
        for &(p, q) in &pairs {
            forward.entry(p).or_default().push(q);
            backward.entry(q).or_default().push(p);
        }
        for (x, mine, other, supports) in [(a, &va, b, &forward), (b, &vb, a, &backward)] {
            for &v in mine {
                let mut clause = vec![!r, !self.atom_lit(x, Atom::Eq, v)];
                for &w in supports.get(&v).map_or(&[][..], Vec::as_slice) {
                    clause.push(self.atom_lit(other, Atom::Eq, w));
                }
                self.clause(clause);
            }
        }
        for &(p, q) in &pairs {
            let clause = vec![
                r,
                !self.atom_lit(a, Atom::Eq, p),
                !self.atom_lit(b, Atom::Eq, q),
            ];
            self.clause(clause);
        }
        Some(r)
    }

    /// Posts `x : s`, `s` a set of scalars.
    pub(super) fn post_member(&mut self, x: Lin, s: &CExpr) -> T<()> {
        let l = self.member_lit(x, s)?;
        self.clause(vec![l]);
        Ok(())
    }

    /// A literal for `x : s`, `s` a set of scalars (an interval whose
    /// bounds may be unknown, or a known set).
    pub(super) fn member_lit(&mut self, x: Lin, s: &CExpr) -> T<Literal> {
        // `NATURAL`, `INTEGER`: only their finite side (membership is never
        // cut by --bound-integers).
        if let EK::Ints(kind) = &s.kind
            && let (lo, hi) = self.interp.int_bounds(*kind)
            && (lo.is_none() || hi.is_none())
        {
            let mut ls = Vec::new();
            if let Some(lo) = lo {
                ls.push(self.cmp_lit(
                    Cmp::Ge,
                    Term::Lin(x.clone()),
                    Term::Lin(Lin::constant(lo)),
                    s.span,
                )?);
            }
            if let Some(hi) = hi {
                ls.push(self.cmp_lit(
                    Cmp::Le,
                    Term::Lin(x),
                    Term::Lin(Lin::constant(hi)),
                    s.span,
                )?);
            }
            return Ok(if ls.is_empty() {
                self.constant_lit(true)
            } else {
                self.and(ls)
            });
        }
        if let EK::Binary(BinaryOp::Interval, a, b) = &s.kind
            && (self.reads_unknown(a) || self.reads_unknown(b))
        {
            let (a, b) = (self.term(a)?, self.term(b)?);
            let lo = self.cmp_lit(Cmp::Ge, Term::Lin(x.clone()), a, s.span)?;
            let hi = self.cmp_lit(Cmp::Le, Term::Lin(x), b, s.span)?;
            return Ok(self.and(vec![lo, hi]));
        }
        match self.scalar_set(s)? {
            ScalarSet::Interval(lo, hi) => {
                let l1 = self.cmp_lit(
                    Cmp::Ge,
                    Term::Lin(x.clone()),
                    Term::Lin(Lin::constant(lo)),
                    s.span,
                )?;
                let l2 =
                    self.cmp_lit(Cmp::Le, Term::Lin(x), Term::Lin(Lin::constant(hi)), s.span)?;
                Ok(self.and(vec![l1, l2]))
            }
            ScalarSet::Values(_, values) => {
                let x = self.materialise(&x, s.span)?;
                let inside: Vec<i32> = to_i32(&values, s.span)?
                    .into_iter()
                    .filter(|&v| self.cp.contains(&x, v))
                    .collect();
                let ls: Vec<Literal> = inside
                    .into_iter()
                    .map(|v| self.atom_lit(x, Atom::Eq, i64::from(v)))
                    .collect();
                if ls.is_empty() {
                    return Ok(self.constant_lit(false));
                }
                Ok(self.or(ls))
            }
        }
    }

    // ---- expressions ----

    pub(super) fn term(&mut self, e: &CExpr) -> T<Term> {
        if !self.reads_unknown(e) {
            return Ok(Term::Known(self.eval(e)?));
        }
        if let EK::Memo(m) = &e.kind {
            return self.term(&m.expr);
        }
        // Every operand of these is evaluated whenever they are; the rest
        // (`IF`, `bool`, binders) evaluate parts conditionally.
        let strict = matches!(
            e.kind,
            EK::Binary(..) | EK::Unary(..) | EK::Apply(..) | EK::SetEnum(..) | EK::Read(..)
        );
        let t = if strict || !self.defined_here {
            self.term_of(e)
        } else {
            self.defined_here = false;
            let t = self.term_of(e);
            self.defined_here = true;
            t
        };
        match t {
            Err(Failure::Unsupported(why)) => match self.tabulate(e)? {
                Some(t) => Ok(t),
                None => Err(Failure::Unsupported(why)),
            },
            t => t,
        }
    }

    /// `e` as a table over the one scalar unknown it reads (an unknown
    /// constant, a bound variable standing for one, or an unknown
    /// function's image at a known point), where the translation has no
    /// term for it: `words(chosen(1))(3)` and `size(words(chosen(1)))`
    /// with `words` known are `e`'s value for each value of `chosen(1)`,
    /// evaluated by the interpreter, at `chosen(1)` (an `element`). A
    /// value where `e` applies a function outside its domain is excluded
    /// where `e` is evaluated whenever its conjunct is (as enumeration
    /// rejects such a valuation); `None` where `e` reads more unknowns,
    /// its values are not scalars, or the unknown has over
    /// [`MAX_TABULATED`] values.
    fn tabulate(&mut self, e: &CExpr) -> T<Option<Term>> {
        let mut bound = BoundSlots(Vec::new());
        bound.expr(e);
        let mut leaves = Leaves {
            model: self,
            bound: bound.0,
            found: Vec::new(),
            other: false,
        };
        leaves.expr(e);
        let (found, other) = (leaves.found, leaves.other);
        if other || found.is_empty() {
            return Ok(None);
        }
        // Each leaf's scalar, and the frame value that gives it a value.
        let mut slots = Vec::with_capacity(found.len());
        let mut scalar = None;
        for leaf in found {
            let (slot, point, kind, x) = match leaf {
                Leaf::Scalar(slot, kind, x) => (slot, None, kind, x),
                Leaf::Point(slot, arg) => {
                    let arg = self.eval(&arg)?;
                    let Some(Enc::Function { domain, images }) = self.encoding(slot as usize)
                    else {
                        return Ok(None);
                    };
                    let Ok(i) = domain.binary_search(&arg) else {
                        return Ok(None);
                    };
                    let Enc::Scalar(kind, x) = images[i] else {
                        return Ok(None);
                    };
                    (slot, Some(arg), kind, x)
                }
            };
            if scalar.is_some_and(|s| s != (kind, x)) {
                return Ok(None);
            }
            scalar = Some((kind, x));
            slots.push((slot, point));
        }
        let Some((kind, x)) = scalar else {
            return Ok(None);
        };
        let (lo, hi) = (self.lb(x), self.ub(x));
        if hi - lo >= MAX_TABULATED {
            return Ok(None);
        }
        let saved: Vec<Value> = slots
            .iter()
            .map(|&(slot, _)| self.env.frame[slot as usize].clone())
            .collect();
        let mut table = Ok(Some(Vec::new()));
        let mut excluded = Vec::new();
        for code in lo..=hi {
            let value = super::sets::decode_scalar(kind, code as i32);
            for (slot, point) in &slots {
                self.env.frame[*slot as usize] = match point {
                    None => value.clone(),
                    Some(arg) => Value::set_from_vec(vec![Value::pair(arg.clone(), value.clone())]),
                };
            }
            let image = match self.interp.eval(e, &mut self.env) {
                Ok(v) => scalar_code(&v),
                Err(f) if f.stopped.is_some() => {
                    table = Err(self.failure(f));
                    break;
                }
                Err(f) if f.outside_domain && self.defined_here => {
                    excluded.push(code);
                    Some(0)
                }
                Err(_) => None,
            };
            match (image, &mut table) {
                (Some(image), Ok(Some(t))) => t.push((value, image)),
                _ => {
                    table = Ok(None);
                    break;
                }
            }
        }
        for ((slot, _), before) in slots.iter().zip(saved) {
            self.env.frame[*slot as usize] = before;
        }
        let Some(table) = table? else {
            return Ok(None);
        };
        let span = e.span;
        for code in excluded {
            let code = check_i32(code, span)?;
            self.cp.add_clause([predicate!(x != code)], self.tag);
        }
        if self.cp.is_inconsistent() {
            return Err(Failure::Unsat);
        }
        let mut domain = Vec::with_capacity(table.len());
        let mut array = Vec::with_capacity(table.len());
        for (value, image) in table {
            domain.push(value);
            array.push(self.aux(image, image, span)?);
        }
        self.element(&domain, array, Lin::var(x), span).map(Some)
    }

    fn term_of(&mut self, e: &CExpr) -> T<Term> {
        match &e.kind {
            EK::Read(Slot::Frame(slot)) if let Some((t, _)) = self.aliases.get(slot) => {
                Ok(t.clone())
            }
            EK::Read(Slot::Frame(slot)) if self.index(*slot).is_some() => {
                let k = self.index(*slot).expect("checked");
                let Some(enc) = self.enc[k].clone() else {
                    let name = &self.names[k];
                    return Err(unsupported(
                        e.span,
                        format!("`{name}`, computed after solving the others"),
                    ));
                };
                Ok(enc_term(&enc))
            }
            EK::Binary(op @ (BinaryOp::Add | BinaryOp::Minus), a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                if *op == BinaryOp::Minus && (is_set(&a) || is_set(&b)) {
                    let (a, b) = (self.set_term(a, e.span)?, self.set_term(b, e.span)?);
                    return Ok(Term::Set(self.set_op(BinaryOp::Minus, &a, &b)));
                }
                let (a, b) = (self.lin(a, e.span)?, self.lin(b, e.span)?);
                let sign = if *op == BinaryOp::Add { 1 } else { -1 };
                Ok(Term::Lin(a.plus(b.scaled(sign))))
            }
            EK::Binary(op @ (BinaryOp::Union | BinaryOp::Inter), a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.set_term(a, e.span)?, self.set_term(b, e.span)?);
                Ok(Term::Set(self.set_op(*op, &a, &b)))
            }
            EK::SetEnum(items) => Ok(Term::Set(self.set_of_scalars(items, e.span)?)),
            // A constant's definition kept symbolic where it is evaluated
            // (`S = a \/ b`): over unknowns, its expression.
            EK::Symbolic(d) if d.self_slot.is_none() => self.term(&d.expr),
            EK::Image(r, a) => {
                let (r, a) = (self.term(r)?, self.term(a)?);
                let (r, a) = (self.set_term(r, e.span)?, self.set_term(a, e.span)?);
                Ok(Term::Set(self.image(&r, &a, e.span)?))
            }
            EK::Unary(UnaryOp::Inverse, a) => {
                let a = self.term(a)?;
                let a = self.set_term(a, e.span)?;
                Ok(Term::Set(self.inverse(&a, e.span)?))
            }
            EK::Unary(UnaryOp::Size | UnaryOp::Card, a)
                if let Some(n) = self.sequence_term(a)?.map(|(_, images)| images.len()) =>
            {
                Ok(Term::Known(Value::Int(n as i64)))
            }
            EK::Unary(UnaryOp::Rev, a) if let Some((domain, images)) = self.sequence_term(a)? => {
                let images: Vec<Enc> = images.iter().rev().cloned().collect();
                Ok(Term::Fun(Enc::Function {
                    domain,
                    images: images.into(),
                }))
            }
            EK::Binary(BinaryOp::Concat, a, b)
                if let (Some((_, a)), Some((_, b))) =
                    (self.sequence_term(a)?, self.sequence_term(b)?) =>
            {
                let images: Vec<Enc> = a.iter().chain(b.iter()).cloned().collect();
                let domain: Arc<[Value]> = (1..=images.len() as i64).map(Value::Int).collect();
                Ok(Term::Fun(Enc::Function {
                    domain,
                    images: images.into(),
                }))
            }
            EK::Unary(UnaryOp::Card, a) => {
                let a = self.term(a)?;
                let a = self.set_term(a, e.span)?;
                let sum = self.card(&a);
                if a.bits.len() < MIN_CLIQUE_CARD || a.bits.len() > MAX_CLIQUE_CARD {
                    return Ok(Term::Lin(sum));
                }
                let total = self.materialise(&sum, e.span)?;
                self.cards.push((a.bits.to_vec(), total));
                Ok(Term::Lin(Lin::var(total)))
            }
            EK::Unary(op @ (UnaryOp::Dom | UnaryOp::Ran), a) => {
                let a = self.term(a)?;
                let a = self.set_term(a, e.span)?;
                Ok(Term::Set(self.projection(
                    &a,
                    *op == UnaryOp::Dom,
                    e.span,
                )?))
            }
            EK::Unary(op @ (UnaryOp::Min | UnaryOp::Max), a)
                if let EK::SetEnum(items) = &unmemo(a).kind =>
            {
                // `max({x, y})` of integers written out: the solver's own
                // `maximum` (`Sol(i, j) = T(i, j) + max({Sol(i + 1, j),
                // Sol(i + 1, j + 1)})`, a recurrence propagation solves).
                let mut vars = Vec::with_capacity(items.len());
                for item in items.iter() {
                    let t = self.term(item)?;
                    let l = self.lin(t, item.span)?;
                    vars.push(self.materialise(&l, item.span)?);
                }
                let lo = vars.iter().map(|&x| self.lb(x)).min();
                let hi = vars.iter().map(|&x| self.ub(x)).max();
                let (Some(lo), Some(hi)) = (lo, hi) else {
                    return Err(Failure::Unsat);
                };
                let m = self.aux(lo, hi, e.span)?;
                let tag = self.tag;
                if *op == UnaryOp::Max {
                    pumpkin_constraints::maximum(vars, m, tag).post(&mut self.cp);
                } else {
                    pumpkin_constraints::minimum(vars, m, tag).post(&mut self.cp);
                }
                Ok(Term::Lin(Lin::var(m)))
            }
            EK::Unary(op @ (UnaryOp::Min | UnaryOp::Max), a) => {
                let a = self.term(a)?;
                let a = self.set_term(a, e.span)?;
                Ok(Term::Lin(Lin::var(self.extremum(
                    &a,
                    *op == UnaryOp::Min,
                    e.span,
                )?)))
            }
            EK::Comprehension(s) => {
                let (instances, residual) = self.instances(s, e.span)?;
                let mut members: Vec<(Value, DomainId)> = Vec::with_capacity(instances.len());
                for instance in instances {
                    self.bind(s, &instance);
                    let tuple = super::super::expr::tuple(&s.vars, &self.env);
                    let l = self.all(&residual)?;
                    let bit = self.bit_of(l);
                    members.push((tuple, bit));
                }
                members.sort_by(|a, b| a.0.cmp(&b.0));
                let (universe, bits): (Vec<Value>, Vec<DomainId>) = members.into_iter().unzip();
                Ok(Term::Set(super::sets::SetTerm {
                    universe: universe.into(),
                    bits: bits.into(),
                }))
            }
            EK::Binary(BinaryOp::Mul, a, b) => {
                let cap = self.product_cap.take();
                let (a, b) = (self.factor(a, cap)?, self.factor(b, cap)?);
                self.times(a, b, cap, e.span).map(Term::Lin)
            }
            EK::Quantified(QuantifiedExprKind::Product, s, body) => {
                let cap = self.product_cap.take();
                let (instances, residual) = self.instances(s, e.span)?;
                if !residual.is_empty() {
                    return Err(unsupported(
                        e.span,
                        "PI over instances whose conditions read unknown constants",
                    ));
                }
                let mut product = Lin::constant(1);
                for instance in instances {
                    self.bind(s, &instance);
                    let t = self.factor(body, cap)?;
                    product = self.times(product, t, cap, e.span)?;
                }
                Ok(Term::Lin(product))
            }
            EK::Binary(BinaryOp::Power, a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.lin(a, e.span)?, self.lin(b, e.span)?);
                if !b.terms.is_empty() || !(0..=MAX_EXPONENT).contains(&b.k) {
                    return Err(unsupported(
                        e.span,
                        format!(
                            "a power with an unknown exponent or one outside 0..{MAX_EXPONENT}"
                        ),
                    ));
                }
                // x ** k as k - 1 products.
                let mut power = Lin::constant(1);
                if b.k > 0 {
                    let x = self.materialise(&a, e.span)?;
                    let mut acc = x;
                    for _ in 1..b.k {
                        acc = self.product(acc, x, e.span)?;
                    }
                    power = Lin::var(acc);
                }
                Ok(Term::Lin(power))
            }
            EK::Binary(op @ (BinaryOp::Div | BinaryOp::Mod), a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                let (a, b) = (self.lin(a, e.span)?, self.lin(b, e.span)?);
                if !b.terms.is_empty() {
                    return self.divide_by_unknown(*op, &a, &b, e.span);
                }
                if b.k <= 0 {
                    return Err(unsupported(
                        e.span,
                        format!("{op:?} by an unknown or non-positive divisor"),
                    ));
                }
                let x = self.materialise(&a, e.span)?;
                let (lo, hi) = (self.lb(x), self.ub(x));
                if *op == BinaryOp::Mod && lo < 0 {
                    return Err(unsupported(e.span, "`mod` of a possibly negative number"));
                }
                // x = b·q + r; B's division rounds towards zero.
                let q = self.aux(lo / b.k, hi / b.k, e.span)?;
                let (rlo, rhi) = if lo < 0 {
                    (-(b.k - 1), b.k - 1)
                } else {
                    (0, b.k - 1)
                };
                let r = self.aux(rlo, rhi, e.span)?;
                let d = Lin::var(x)
                    .plus(Lin::var(q).scaled(-b.k))
                    .plus(Lin::var(r).scaled(-1));
                let (vars, rhs) = self.linear(&d, e.span)?;
                pumpkin_constraints::equals(vars, rhs, self.tag).post(&mut self.cp);
                if lo < 0 {
                    // The remainder has the sign of the dividend.
                    let neg = self.atom_lit(x, Atom::Le, -1);
                    let rneg = self.atom_lit(r, Atom::Le, 0);
                    let rpos = self.atom_lit(r, Atom::Ge, 0);
                    self.clause(vec![!neg, rneg]);
                    self.clause(vec![neg, rpos]);
                }
                Ok(Term::Lin(Lin::var(if *op == BinaryOp::Div {
                    q
                } else {
                    r
                })))
            }
            EK::Unary(UnaryOp::Minus, a) => {
                let a = self.term(a)?;
                Ok(Term::Lin(self.lin(a, e.span)?.scaled(-1)))
            }
            EK::Binary(BinaryOp::Maplet, a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                Ok(Term::Pair(Box::new((a, b))))
            }
            EK::Component(first, p) => match term_parts(self.term(p)?) {
                Some((a, b)) => Ok(if *first { a } else { b }),
                None => Err(unsupported(e.span, "a projection of a non-pair")),
            },
            // `prj1(S, T)(p)` is `IF p : S * T THEN ... ELSE undefined`:
            // where the condition follows from the domains, its branch.
            EK::IfThenElse(c, a, b) => {
                let l = self.lit(c)?;
                if l == self.constant_lit(true) {
                    self.term(a)
                } else if l == self.constant_lit(false) {
                    self.term(b)
                } else {
                    Err(unsupported(
                        e.span,
                        "a conditional expression over unknowns",
                    ))
                }
            }
            EK::Apply(f, x)
                if let EK::Binary(BinaryOp::Maplet, a, b) = &x.kind
                    && self.reads_unknown(x) =>
            {
                let f = self.term(f)?;
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.apply_to_pair(f, a, b, e.span)
            }
            EK::Apply(f, x) | EK::ApplyBinder(f, x)
                if let EK::Lambda(s, body) = &unmemo(f).kind =>
            {
                match self.sequence_term(x)? {
                    Some(_) => {
                        let x = self.term(x)?;
                        self.apply_lambda_to_sequence(s, body, x, e.span)
                    }
                    None => self.apply_lambda(s, body, x, e.span),
                }
            }
            EK::Apply(f, x) => {
                let (f, x) = (self.term(f)?, self.term(x)?);
                // A lambda kept symbolic (`num = %s.(s : seq(0..9) | ...)`)
                // applied to an unknown sequence: its body over the images.
                if let (Term::Known(Value::Symbolic(sym)), Term::Fun(Enc::Function { domain, .. })) =
                    (&f, &x)
                    && is_sequence_domain(domain)
                {
                    let definition = self.interp.definitions[sym.def as usize].expr.clone();
                    if let EK::Lambda(s, body) = &unmemo(&definition).kind {
                        return self.apply_lambda_to_sequence(s, body, x, e.span);
                    }
                }
                self.apply(f, x, e.span)
            }
            EK::Quantified(QuantifiedExprKind::Sum, s, body) => {
                let (instances, residual) = self.instances(s, e.span)?;
                let mut sum = Lin::constant(0);
                for instance in instances {
                    self.bind(s, &instance);
                    let t = self.term(body)?;
                    let t = self.lin(t, e.span)?;
                    if residual.is_empty() {
                        sum = sum.plus(t);
                        continue;
                    }
                    // The body counts where the conditions hold.
                    let l = self.all(&residual)?;
                    let bit = self.bit_of(l);
                    if t.terms.is_empty() {
                        sum = sum.plus(Lin::var(bit).scaled(t.k));
                    } else {
                        let x = self.materialise(&t, e.span)?;
                        let (lo, hi) = (self.lb(x).min(0), self.ub(x).max(0));
                        let z = self.aux(lo, hi, e.span)?;
                        self.post_product(x, bit, z, e.span)?;
                        sum = sum.plus(Lin::var(z));
                    }
                }
                Ok(Term::Lin(sum))
            }
            _ => Err(unsupported(e.span, describe(e))),
        }
    }

    /// `%v.(P | E)(x)` written out (a definition such as `Rotate(T, k) ==
    /// %x.(x : 0..5 | T((x + k) mod 6))` applied) whose body reads
    /// unknowns: with `x` known, `E` with `v` bound to it; with `x` an
    /// unknown scalar, the element of `E`'s terms over `P`'s known
    /// solutions at `x`.
    fn apply_lambda(&mut self, s: &Solver, body: &CExpr, x: &CExpr, span: Span) -> T<Term> {
        const MAX_POINTS: usize = 1 << 10;
        let (mut instances, residual) = self.instances(s, span)?;
        if !residual.is_empty() || instances.len() > MAX_POINTS {
            return Err(unsupported(
                span,
                "a lambda applied whose domain depends on unknown constants or is large",
            ));
        }
        let tuple = |instance: &[Value]| {
            let mut parts = instance.iter().cloned();
            let first = parts.next().expect("a lambda binds a variable");
            parts.fold(first, Value::pair)
        };
        if !self.reads_unknown(x) {
            let v = self.eval(x)?;
            let Some(instance) = instances.iter().find(|i| tuple(i) == v) else {
                return Err(unsupported(span, "a function applied outside its domain"));
            };
            let instance = instance.clone();
            self.bind(s, &instance);
            return self.term(body);
        }
        let x = self.term(x)?;
        let x = self.lin(x, span)?;
        instances.sort_by_cached_key(|i| tuple(i));
        let mut domain = Vec::with_capacity(instances.len());
        let mut array = Vec::with_capacity(instances.len());
        for instance in instances {
            self.bind(s, &instance);
            let image = self.term(body)?;
            let image = self.lin(image, span)?;
            array.push(self.materialise(&image, span)?);
            domain.push(tuple(&instance));
        }
        self.element(&domain, array, x, span)
    }

    /// `%s.(P | E)(x)` with `x` an unknown sequence of known size: `P`
    /// posted and `E` translated with `s` standing for `x` (its domain
    /// is not enumerated: `seq(0..9)`).
    fn apply_lambda_to_sequence(
        &mut self,
        s: &Solver,
        body: &CExpr,
        x: Term,
        span: Span,
    ) -> T<Term> {
        self.with_lambda_parameter(s, Some(body), x, span, |m| m.term(body))
    }

    /// `then` with the lambda's variable standing for the sequence `x`,
    /// after posting the lambda's condition on it (`x` is in its domain);
    /// `body`, the lambda's body where `then` translates it.
    fn with_lambda_parameter<R>(
        &mut self,
        s: &Solver,
        body: Option<&CExpr>,
        x: Term,
        span: Span,
        then: impl FnOnce(&mut Self) -> T<R>,
    ) -> T<R> {
        let [slot] = s.vars[..] else {
            return Err(unsupported(
                span,
                "a lambda of several variables applied to a sequence",
            ));
        };
        let Some(condition) = s.condition.as_deref() else {
            return Err(unsupported(span, "a lambda without its condition"));
        };
        // The lambda may be a constant's definition, compiled apart: its
        // binders' slots may be the unknowns' own, and stand for its
        // variables while it is translated.
        let mut bound = BoundSlots(Vec::new());
        bound.solver(s);
        bound.pred(condition);
        if let Some(body) = body {
            bound.expr(body);
        }
        let shadowed = bound.0.len();
        self.shadowed.extend(bound.0);
        let before = self.aliases.insert(slot, (x, None));
        // The condition bounds the elements (`s : seq(0..9)`) before the
        // body's sums are checked against 32 bits.
        let result = self
            .post(condition)
            .and_then(|()| {
                if self.cp.propagate_to_fixpoint() == CSPSolverExecutionFlag::Infeasible {
                    Err(Failure::Unsat)
                } else {
                    Ok(())
                }
            })
            .and_then(|()| then(self));
        match before {
            Some(alias) => self.aliases.insert(slot, alias),
            None => self.aliases.remove(&slot),
        };
        self.shadowed.truncate(self.shadowed.len() - shadowed);
        result
    }

    /// The lambda `f` of `dom(f)` where `f` is known, kept symbolic, and
    /// its variable a sequence (`q : seq(0..9)` in its condition): its
    /// plan and the elements' set.
    fn lambda_over_sequences(&mut self, set: &CExpr) -> T<Option<(Arc<CExpr>, CExpr)>> {
        let EK::Unary(UnaryOp::Dom, f) = &unmemo(set).kind else {
            return Ok(None);
        };
        if self.reads_unknown(f) {
            return Ok(None);
        }
        let Value::Symbolic(sym) = self.eval(f)? else {
            return Ok(None);
        };
        let definition = self.interp.definitions[sym.def as usize].expr.clone();
        let EK::Lambda(s, _) = &unmemo(&definition).kind else {
            return Ok(None);
        };
        let [var] = s.vars[..] else {
            return Ok(None);
        };
        let conjuncts: Vec<&CPred> = match s.condition.as_deref() {
            Some(CPred {
                kind: PK::And(cs), ..
            }) => cs.iter().collect(),
            Some(c) => vec![c],
            None => return Ok(None),
        };
        let elements = conjuncts.iter().find_map(|c| match &c.kind {
            PK::Member(x, set, false)
                if matches!(unmemo(x).kind, EK::Read(Slot::Frame(j)) if j == var) =>
            {
                seq_of(set).map(|(t, _)| t.clone())
            }
            _ => None,
        });
        Ok(elements
            .filter(|t| !self.reads_unknown(t))
            .map(|t| (definition.clone(), t)))
    }

    /// The domain and images of `e` where it is a sequence of unknowns of
    /// known size (an encoded total function over `1..n`).
    fn sequence_term(&mut self, e: &CExpr) -> T<Option<Sequence>> {
        if !self.reads_unknown(e) {
            return Ok(None);
        }
        let is_sequence = matches!(
            unmemo(e).kind,
            EK::Read(_) | EK::Unary(UnaryOp::Rev, _) | EK::Binary(BinaryOp::Concat, ..)
        );
        if !is_sequence {
            return Ok(None);
        }
        Ok(match self.term(e) {
            Ok(Term::Fun(Enc::Function { domain, images })) if is_sequence_domain(&domain) => {
                Some((domain, images))
            }
            _ => None,
        })
    }

    pub(super) fn apply(&mut self, f: Term, x: Term, span: Span) -> T<Term> {
        match (f, x) {
            (Term::Fun(Enc::Function { domain, images }), Term::Known(x)) => {
                match domain.binary_search(&x) {
                    Ok(i) => Ok(enc_term(&images[i])),
                    Err(_) => Err(unsupported(span, "a function applied outside its domain")),
                }
            }
            (Term::Fun(Enc::Function { domain, images }), Term::Lin(x))
                if images.iter().all(|i| matches!(i, Enc::Pair(_))) =>
            {
                // Each component by its own `element`.
                let mut parts = [Vec::new(), Vec::new()];
                for image in images.iter() {
                    let Enc::Pair(p) = image else {
                        unreachable!("pairs")
                    };
                    for (part, e) in parts.iter_mut().zip([&p.0, &p.1]) {
                        match e {
                            Enc::Scalar(_, v) => part.push(*v),
                            _ => {
                                return Err(unsupported(
                                    span,
                                    "a function into nested pairs applied to an unknown",
                                ));
                            }
                        }
                    }
                }
                let [firsts, seconds] = parts;
                let a = self.element(&domain, firsts, x.clone(), span)?;
                let b = self.element(&domain, seconds, x, span)?;
                Ok(Term::Pair(Box::new((a, b))))
            }
            (Term::Fun(Enc::Function { domain, images }), Term::Lin(x)) => {
                let array: Vec<DomainId> = images
                    .iter()
                    .map(|i| match i {
                        Enc::Scalar(_, v) => Ok(*v),
                        _ => Err(unsupported(
                            span,
                            "a function of functions applied to an unknown",
                        )),
                    })
                    .collect::<T<_>>()?;
                self.element(&domain, array, x, span)
            }
            (Term::Known(f), Term::Lin(x)) => {
                let pairs = super::super::expr::set(&f, span)
                    .map_err(|_| unsupported(span, "applying a value that is not a function"))?;
                let mut domain = Vec::with_capacity(pairs.len());
                let mut array = Vec::with_capacity(pairs.len());
                for p in pairs {
                    let (Value::Pair(p), true) = (p, true) else {
                        return Err(unsupported(span, "applying a value that is not a function"));
                    };
                    let Some(v) = scalar_code(&p.1) else {
                        return Err(unsupported(span, "a known function into non-scalar values"));
                    };
                    if domain.last() == Some(&p.0) {
                        return Err(unsupported(
                            span,
                            "applying a relation that is not a function",
                        ));
                    }
                    domain.push(p.0.clone());
                    let v = check_i32(v, span)?;
                    array.push(self.cp.new_bounded_integer(v, v));
                }
                self.element(&domain, array, x, span)
            }
            (Term::Set(r), x) if self.defined_here => self.apply_relation(&r, x, span),
            (Term::Set(_), _) => Err(unsupported(
                span,
                "a relation applied where the application may be left unevaluated",
            )),
            _ => Err(unsupported(span, "this function application")),
        }
    }

    /// `f(a |-> b)` for a total function `f` over pairs of scalars (known,
    /// or encoded one image per pair) with `a` or `b` unknown: with one of
    /// them known, `f` restricted to the pairs that have it, applied to
    /// the other; with both unknown, over a grid `A * B` of intervals, the
    /// element at `(a - lo(A)) * |B| + b - lo(B)`.
    fn apply_to_pair(&mut self, f: Term, a: Term, b: Term, span: Span) -> T<Term> {
        let (domain, images): (Vec<Value>, Vec<Enc>) = match f {
            Term::Fun(Enc::Function { domain, images }) => (domain.to_vec(), images.to_vec()),
            Term::Known(f) => {
                let pairs = super::super::expr::set(&f, span)
                    .map_err(|_| unsupported(span, "applying a value that is not a function"))?;
                let mut domain = Vec::with_capacity(pairs.len());
                let mut images = Vec::with_capacity(pairs.len());
                for p in pairs {
                    let Value::Pair(p) = p else {
                        return Err(unsupported(span, "applying a value that is not a function"));
                    };
                    if domain.last() == Some(&p.0) {
                        return Err(unsupported(
                            span,
                            "applying a relation that is not a function",
                        ));
                    }
                    let Some(v) = scalar_code(&p.1) else {
                        return Err(unsupported(span, "a known function into non-scalar values"));
                    };
                    let v = check_i32(v, span)?;
                    domain.push(p.0.clone());
                    images.push(Enc::Scalar(Kind::Int, self.cp.new_bounded_integer(v, v)));
                }
                (domain, images)
            }
            _ => return Err(unsupported(span, "this application to a pair")),
        };
        let mut firsts = Vec::with_capacity(domain.len());
        let mut seconds = Vec::with_capacity(domain.len());
        for d in &domain {
            let Value::Pair(p) = d else {
                return Err(unsupported(
                    span,
                    "a function over non-pairs applied to a pair",
                ));
            };
            firsts.push(p.0.clone());
            seconds.push(p.1.clone());
        }
        let restrict = |keep: &dyn Fn(usize) -> bool, of: &[Value]| {
            let mut sub_domain = Vec::new();
            let mut sub_images = Vec::new();
            for i in (0..domain.len()).filter(|&i| keep(i)) {
                sub_domain.push(of[i].clone());
                sub_images.push(images[i].clone());
            }
            (sub_domain, sub_images)
        };
        match (a, b) {
            (Term::Known(va), b) => {
                let (d, i) = restrict(&|k| firsts[k] == va, &seconds);
                let f = Enc::Function {
                    domain: d.into(),
                    images: i.into(),
                };
                self.apply(Term::Fun(f), b, span)
            }
            (a, Term::Known(vb)) => {
                // Pairs sorted by first element: the restriction's firsts
                // are sorted too.
                let (d, i) = restrict(&|k| seconds[k] == vb, &firsts);
                let f = Enc::Function {
                    domain: d.into(),
                    images: i.into(),
                };
                self.apply(Term::Fun(f), a, span)
            }
            (Term::Lin(a), Term::Lin(b)) => {
                let codes = |vs: &[Value]| -> Option<Vec<i64>> {
                    let mut cs: Vec<i64> = vs.iter().map(scalar_code).collect::<Option<_>>()?;
                    cs.dedup();
                    Some(cs)
                };
                let (Some(xs), Some(mut ys)) = (codes(&firsts), codes(&seconds)) else {
                    return Err(unsupported(
                        span,
                        "a function over nested pairs applied to unknowns",
                    ));
                };
                ys.sort_unstable();
                ys.dedup();
                let interval = |cs: &[i64]| cs.windows(2).all(|w| w[1] == w[0] + 1);
                let (nx, ny) = (xs.len() as i64, ys.len() as i64);
                if !interval(&xs) || !interval(&ys) || nx * ny != domain.len() as i64 {
                    return Err(unsupported(
                        span,
                        "a function over pairs that are not a grid of intervals applied to unknowns",
                    ));
                }
                let index = a
                    .plus(Lin::constant(-xs[0]))
                    .scaled(ny)
                    .plus(b)
                    .plus(Lin::constant(-ys[0]));
                let grid: Vec<Value> = (0..domain.len() as i64).map(Value::Int).collect();
                let f = Enc::Function {
                    domain: grid.into(),
                    images: images.into(),
                };
                self.apply(Term::Fun(f), Term::Lin(index), span)
            }
            _ => Err(unsupported(span, "a function applied to a pair of sets")),
        }
    }

    /// `r(x)` for a set-encoded relation `r` (pairs of scalars) in a
    /// top-level atom ([`Model::defined_here`]): `x` is in `dom(r)`, `r`
    /// has one image there, and the result is that image.
    fn apply_relation(&mut self, r: &SetTerm, x: Term, span: Span) -> T<Term> {
        // The pairs whose first element `x` may be: the literal that `x` is
        // it and the pair is in `r`, and the second element's code.
        let mut candidates: Vec<(Literal, i64)> = Vec::new();
        let xv = match &x {
            Term::Lin(l) => Some(self.materialise(l, span)?),
            _ => None,
        };
        for (pair, &bit) in r.universe.iter().zip(r.bits.iter()) {
            let Value::Pair(p) = pair else {
                return Err(unsupported(span, "applying a set that is not a relation"));
            };
            let Some(image) = scalar_code(&p.1) else {
                return Err(unsupported(
                    span,
                    "a relation into non-scalar values applied",
                ));
            };
            let member = self.bit_lit(bit);
            let at = match &x {
                Term::Known(v) if *v == p.0 => member,
                Term::Known(_) => continue,
                Term::Lin(_) => {
                    let xv = xv.expect("materialised above");
                    let Some(code) = scalar_code(&p.0) else {
                        return Err(unsupported(
                            span,
                            "an unknown number applied to non-numbers",
                        ));
                    };
                    let Ok(code) = i32::try_from(code) else {
                        continue;
                    };
                    if !self.cp.contains(&xv, code) {
                        continue;
                    }
                    let is = self.atom_lit(xv, Atom::Eq, i64::from(code));
                    self.and(vec![is, member])
                }
                _ => return Err(unsupported(span, "a relation applied to a set or function")),
            };
            candidates.push((at, image));
        }
        // Defined: some pair applies. A function: at most one does.
        self.clause(candidates.iter().map(|c| c.0).collect());
        for (i, a) in candidates.iter().enumerate() {
            for b in &candidates[i + 1..] {
                if a.1 != b.1 {
                    self.clause(vec![!a.0, !b.0]);
                }
            }
        }
        let lo = candidates.iter().map(|c| c.1).min().unwrap_or(0);
        let hi = candidates.iter().map(|c| c.1).max().unwrap_or(0);
        let z = self.aux(lo, hi, span)?;
        for (at, image) in candidates {
            let image = check_i32(image, span)?;
            let is = self.atom_lit(z, Atom::Eq, i64::from(image));
            self.clause(vec![!at, is]);
        }
        Ok(Term::Lin(Lin::var(z)))
    }

    /// `array[x - lo]` for a function over the integers `lo..lo+n-1`;
    /// `x` must lie within them (else the application could be outside
    /// the domain, which enumeration reports and this would not).
    pub(super) fn element(
        &mut self,
        domain: &[Value],
        array: Vec<DomainId>,
        x: Lin,
        span: Span,
    ) -> T<Term> {
        // Integers, booleans and elements by their codes.
        let Some(lo) = domain.first().and_then(scalar_code) else {
            return Err(unsupported(
                span,
                "an unknown argument of a function over non-scalars",
            ));
        };
        if domain
            .iter()
            .enumerate()
            .any(|(i, d)| scalar_code(d) != Some(lo + i as i64))
        {
            return Err(unsupported(
                span,
                "an unknown argument of a function over a non-interval",
            ));
        }
        let x = self.materialise(&x, span)?;
        let hi = lo + domain.len() as i64 - 1;
        if self.lb(x) < lo || self.ub(x) > hi {
            return Err(unsupported(
                span,
                "a function applied to an unknown that may lie outside its domain",
            ));
        }
        let (rlo, rhi) = array.iter().fold((i64::MAX, i64::MIN), |(l, h), &v| {
            (l.min(self.lb(v)), h.max(self.ub(v)))
        });
        let z = self.aux(rlo, rhi, span)?;
        let index = x.offset(-(lo as i32));
        pumpkin_constraints::element(index, array, z, self.tag).post(&mut self.cp);
        Ok(Term::Lin(Lin::var(z)))
    }

    /// A variable equal to `x * y`, within the bounds of the products of
    /// their bounds.
    pub(super) fn product(&mut self, x: DomainId, y: DomainId, span: Span) -> T<DomainId> {
        self.capped_product(x, y, None, span)
    }

    /// [`Self::product`] whose value is known to lie within `-cap..cap`
    /// ([`Model::product_cap`]).
    fn capped_product(
        &mut self,
        x: DomainId,
        y: DomainId,
        cap: Option<i64>,
        span: Span,
    ) -> T<DomainId> {
        let (xl, xh, yl, yh) = (self.lb(x), self.ub(x), self.lb(y), self.ub(y));
        let products = [xl * yl, xl * yh, xh * yl, xh * yh];
        let mut lo = *products.iter().min().expect("four");
        let mut hi = *products.iter().max().expect("four");
        // A factor that reaches the range given to integers nothing bounds
        // ([`WIDE`]) has only been given it: its product is sought within
        // `WIDE << 4`, which leaves room for the sums it is part of to
        // stay within 32 bits ("no solution" then holds only within the
        // range, see [`Model::unsat_within_range`]).
        let reaches_range = |m: &Self, v: DomainId| m.lb(v) <= -WIDE || m.ub(v) >= WIDE;
        let overflows = lo < i64::from(i32::MIN) || hi > i64::from(i32::MAX);
        let cap = cap.or_else(|| {
            (overflows
                && self.first_wide.is_some()
                && (reaches_range(self, x) || reaches_range(self, y)))
            .then_some(WIDE << 4)
        });
        if let Some(cap) = cap {
            self.range_capped |= self.first_wide.is_some();
            (lo, hi) = (lo.max(-cap), hi.min(cap));
            if lo > hi {
                return Err(Failure::Unsat);
            }
        }
        let z = self.aux(lo, hi, span)?;
        self.post_capped_product(x, y, z, cap, span)?;
        if cap.is_some() {
            // The exact encoding propagates once a factor is fixed; bounds
            // reasoning (`z / y` bounds `x`) prunes before.
            pumpkin_constraints::times(x, y, z, self.tag).post(&mut self.cp);
        }
        Ok(z)
    }

    /// A factor of a product: under a cap ([`Model::product_cap`]), a
    /// factor that is itself a product is a partial product, so the cap
    /// holds for it too; any other factor is translated without it.
    fn factor(&mut self, e: &CExpr, cap: Option<i64>) -> T<Lin> {
        let nested = matches!(
            unmemo(e).kind,
            EK::Binary(BinaryOp::Mul, ..) | EK::Quantified(QuantifiedExprKind::Product, ..)
        );
        self.product_cap = cap.filter(|_| nested);
        let t = self.term(e);
        self.product_cap = None;
        self.lin(t?, e.span)
    }

    /// `a * b`: scaled where a factor is known, else a product variable
    /// (within `-cap..cap` under a cap).
    fn times(&mut self, a: Lin, b: Lin, cap: Option<i64>, span: Span) -> T<Lin> {
        if a.terms.is_empty() {
            return Ok(b.scaled(a.k));
        }
        if b.terms.is_empty() {
            return Ok(a.scaled(b.k));
        }
        let (x, y) = (self.materialise(&a, span)?, self.materialise(&b, span)?);
        if let Some(cap) = cap {
            self.restrict_to_divisors(x, cap)?;
            self.restrict_to_divisors(y, cap)?;
        }
        let z = self.capped_product(x, y, cap, span)?;
        if let Some(cap) = cap {
            self.restrict_to_divisors(z, cap)?;
        }
        Ok(Lin::var(z))
    }

    /// Removes from `x`'s domain the values that do not divide `k`: a
    /// factor or partial product of a product equal to `k` (non-zero)
    /// divides it. Where both the domain and `k`'s divisors are too many
    /// to list, the domain is left as it is.
    fn restrict_to_divisors(&mut self, x: DomainId, k: i64) -> T<()> {
        const MAX_LISTED: i64 = 1 << 12;
        let (lo, hi) = (self.lb(x), self.ub(x));
        if hi - lo < MAX_LISTED {
            for v in lo..=hi {
                if (v == 0 || k % v != 0) && self.cp.contains(&x, v as i32) {
                    self.cp.add_clause([predicate!(x != v as i32)], self.tag);
                }
            }
        } else {
            let mut divisors = Vec::new();
            let mut d = 1i64;
            while d * d <= k {
                if k % d == 0 {
                    divisors.extend([d, k / d, -d, -(k / d)]);
                }
                d += 1;
            }
            divisors.retain(|&d| (lo..=hi).contains(&d));
            divisors.sort_unstable();
            divisors.dedup();
            if divisors.len() as i64 > MAX_LISTED {
                return Ok(());
            }
            let ls = divisors
                .into_iter()
                .map(|d| self.atom_lit(x, Atom::Eq, d))
                .collect();
            self.clause(ls);
        }
        if self.cp.is_inconsistent() {
            return Err(Failure::Unsat);
        }
        Ok(())
    }

    /// `(P, k)` where one side of `a = b` is a product (`*` or `PI`) of
    /// unknowns and the other the known integer `k`, non-zero and within
    /// 32 bits.
    fn product_equal_to<'e>(&mut self, a: &'e CExpr, b: &'e CExpr) -> T<Option<(&'e CExpr, i64)>> {
        for (p, k) in [(a, b), (b, a)] {
            let is_product = matches!(
                unmemo(p).kind,
                EK::Binary(BinaryOp::Mul, ..) | EK::Quantified(QuantifiedExprKind::Product, ..)
            );
            if !is_product || !self.reads_unknown(p) || self.reads_unknown(k) {
                continue;
            }
            if let Value::Int(k) = self.eval(k)?
                && k != 0
                && i32::try_from(k).is_ok()
            {
                return Ok(Some((p, k)));
            }
        }
        Ok(None)
    }

    /// Posts `x * y = z` as one linear equation per value of the factor
    /// with the smaller domain (`[y = v] => z = v * x`): exact, and
    /// without the solver's multiplication propagator.
    pub(super) fn post_product(
        &mut self,
        x: DomainId,
        y: DomainId,
        z: DomainId,
        span: Span,
    ) -> T<()> {
        self.post_capped_product(x, y, z, None, span)
    }

    /// [`Self::post_product`] where `z` is within `-cap..cap`
    /// ([`Model::product_cap`]): where `v·x` could exceed 32 bits, the
    /// case `y = v` reads `x` through an auxiliary within `cap / |v|`.
    fn post_capped_product(
        &mut self,
        x: DomainId,
        y: DomainId,
        z: DomainId,
        cap: Option<i64>,
        span: Span,
    ) -> T<()> {
        let size = |m: &Self, v: DomainId| m.ub(v) - m.lb(v);
        let (x, y) = if size(self, y) <= size(self, x) {
            (x, y)
        } else {
            (y, x)
        };
        if size(self, y) > MAX_FACTOR_VALUES {
            // Too many cases to split: the solver's bounds propagator,
            // exact once both factors are fixed, where no corner product
            // leaves 32 bits or `z` is capped within them.
            let bound = |m: &Self, v: DomainId| m.lb(v).abs().max(m.ub(v).abs());
            if cap.is_none() && bound(self, x).saturating_mul(bound(self, y)) > i64::from(i32::MAX)
            {
                return Err(unsupported(
                    span,
                    "a product of two unknowns with large domains",
                ));
            }
            pumpkin_constraints::times(x, y, z, self.tag).post(&mut self.cp);
            return Ok(());
        }
        for v in self.lb(y)..=self.ub(y) {
            let v32 = check_i32(v, span)?;
            if !self.cp.contains(&y, v32) {
                continue;
            }
            let is = self.atom_lit(y, Atom::Eq, i64::from(v32));
            let bound = |m: &Self, x: DomainId| m.lb(x).abs().max(m.ub(x).abs());
            let reach = v.abs() * bound(self, x) + bound(self, z);
            let x = match cap {
                Some(cap) if v != 0 && reach > i64::from(i32::MAX) => {
                    let r = cap / v.abs();
                    let (lo, hi) = (self.lb(x).max(-r), self.ub(x).min(r));
                    if lo > hi {
                        self.clause(vec![!is]);
                        continue;
                    }
                    let xv = self.aux(lo, hi, span)?;
                    let same = Lin::var(x).plus(Lin::var(xv).scaled(-1));
                    let (vars, rhs) = self.linear(&same, span)?;
                    pumpkin_constraints::equals(vars, rhs, self.tag).implied_by(&mut self.cp, is);
                    xv
                }
                _ => x,
            };
            let d = Lin::var(x).scaled(v).plus(Lin::var(z).scaled(-1));
            let (vars, rhs) = self.linear(&d, span)?;
            pumpkin_constraints::equals(vars, rhs, self.tag).implied_by(&mut self.cp, is);
        }
        Ok(())
    }

    /// `a / b` or `a mod b` with `b` unknown (`G * H / I`, `I : 1..9`):
    /// `a = b·q + r` with `0 <= r < b`, the product posted per value of
    /// the factor with the smaller domain. Only where propagation has
    /// made `b` positive and `a` non-negative (elsewhere the division is
    /// ill-defined or rounds towards zero from below: not translated).
    fn divide_by_unknown(&mut self, op: BinaryOp, a: &Lin, b: &Lin, span: Span) -> T<Term> {
        let x = self.materialise(a, span)?;
        let y = self.materialise(b, span)?;
        if self.lb(y) < 1 || self.lb(x) < 0 {
            return Err(unsupported(
                span,
                format!(
                    "{op:?} by an unknown divisor that may be non-positive, or of a possibly negative number"
                ),
            ));
        }
        let q = self.aux(0, self.ub(x) / self.lb(y), span)?;
        let r = self.aux(0, self.ub(y) - 1, span)?;
        let p = self.product(y, q, span)?;
        let d = Lin::var(x)
            .plus(Lin::var(p).scaled(-1))
            .plus(Lin::var(r).scaled(-1));
        let (vars, rhs) = self.linear(&d, span)?;
        pumpkin_constraints::equals(vars, rhs, self.tag).post(&mut self.cp);
        self.post_cmp(
            Cmp::Lt,
            Term::Lin(Lin::var(r)),
            Term::Lin(Lin::var(y)),
            span,
        )?;
        Ok(Term::Lin(Lin::var(if op == BinaryOp::Div { q } else { r })))
    }

    /// A term as a linear term: known scalars by their codes.
    pub(super) fn lin(&mut self, t: Term, span: Span) -> T<Lin> {
        match t {
            Term::Lin(l) => Ok(l),
            Term::Known(v) => match scalar_code(&v) {
                Some(k) => Ok(Lin::constant(k)),
                None => Err(unsupported(
                    span,
                    "a set or pair where a number is expected",
                )),
            },
            Term::Fun(_) | Term::Set(_) | Term::Pair(_) => Err(unsupported(
                span,
                "a function, set or pair where a number is expected",
            )),
        }
    }

    /// The solver's form of `d` (`Σ cᵢ·xᵢ + k`): its terms and `-k`.
    pub(super) fn linear(&self, d: &Lin, span: Span) -> T<(Vec<AffineView<DomainId>>, i32)> {
        // The solver computes with 32-bit bounds: every scaled bound, and
        // their sum, must fit (else it would overflow).
        let mut total = d.k.unsigned_abs();
        for &(c, x) in &d.terms {
            let bound = self.lb(x).unsigned_abs().max(self.ub(x).unsigned_abs());
            total = total.saturating_add(c.unsigned_abs().saturating_mul(bound));
        }
        if total > i32::MAX as u64 {
            return Err(unsupported(
                span,
                "a sum or product whose bounds exceed 32 bits",
            ));
        }
        let vars = d
            .terms
            .iter()
            .map(|&(c, x)| Ok(x.scaled(check_i32(c, span)?)))
            .collect::<T<Vec<_>>>()?;
        Ok((vars, check_i32(-d.k, span)?))
    }

    /// A variable equal to `l`.
    pub(super) fn materialise(&mut self, l: &Lin, span: Span) -> T<DomainId> {
        if let [(1, x)] = l.terms[..]
            && l.k == 0
        {
            return Ok(x);
        }
        let (mut lo, mut hi) = (l.k, l.k);
        for &(c, x) in &l.terms {
            let (a, b) = (c * self.lb(x), c * self.ub(x));
            lo += a.min(b);
            hi += a.max(b);
        }
        let z = self.aux(lo, hi, span)?;
        if l.terms.iter().all(|(_, x)| self.self_bounded.contains(x)) {
            self.self_bounded.insert(z);
        }
        let d = l.clone().plus(Lin::var(z).scaled(-1));
        let (vars, rhs) = self.linear(&d, span)?;
        pumpkin_constraints::equals(vars, rhs, self.tag).post(&mut self.cp);
        Ok(z)
    }

    /// An auxiliary variable (not part of a solution).
    pub(super) fn aux(&mut self, lo: i64, hi: i64, span: Span) -> T<DomainId> {
        Ok(self
            .cp
            .new_bounded_integer(check_i32(lo, span)?, check_i32(hi, span)?))
    }

    /// Marks the integer nothing bounded that `d = 0` defines as a sum of
    /// self-bounded variables (`n = card({i | i : 1..8 & f(i) = TRUE})`)
    /// as bounded: its range is that of the sum, not the solver's.
    fn defined_by_self_bounded(&mut self, d: &Lin) {
        let wide = |m: &Self, x: DomainId| m.wide.iter().any(|w| w.1 == x);
        let mut defined = d
            .terms
            .iter()
            .filter(|&&(c, x)| c.abs() == 1 && wide(self, x) && !self.clamped.contains(&x));
        let (Some(&(_, x)), None) = (defined.next(), defined.next()) else {
            return;
        };
        if d.terms
            .iter()
            .all(|&(_, y)| y == x || self.self_bounded.contains(&y))
        {
            tracing::trace!("constant solver: an integer nothing bounds is a sum of bounded ones");
            self.defined_wide.push(x);
        }
    }

    /// Notes the side on which the predicate's own comparison `d op 0`,
    /// of one integer nothing bounded (`g(x) >= lo(x)` for each `x`),
    /// bounds it within the solver's range; bounded on both sides, its
    /// range is the predicate's, as where it is defined by a sum.
    fn bounded_by_predicate(&mut self, op: Cmp, d: &Lin) {
        let [(c, x)] = d.terms[..] else {
            return;
        };
        if c == 0 || !self.wide.iter().any(|w| w.1 == x) || self.clamped.contains(&x) {
            return;
        }
        // c * x + k op 0: x op' -k / c, the side flipped where c < 0.
        if (i128::from(d.k) / i128::from(c)).abs() >= i128::from(WIDE) {
            return;
        }
        let (below, above) = match op {
            Cmp::Eq => (true, true),
            Cmp::Ge | Cmp::Gt => (c > 0, c < 0),
            Cmp::Le | Cmp::Lt => (c < 0, c > 0),
            Cmp::Neq => return,
        };
        let sides = self.bounded_sides.entry(x).or_default();
        sides.0 |= below;
        sides.1 |= above;
        if *sides == (true, true) && !self.defined_wide.contains(&x) {
            tracing::trace!("constant solver: the predicate bounds an integer on both sides");
            self.defined_wide.push(x);
        }
    }

    /// Whether every integer nothing bounded is defined by self-bounded
    /// variables ([`Model::defined_by_self_bounded`]) and none was cut, in
    /// a product or by `--bound-integers`: "no solution" then holds
    /// outright.
    fn wide_all_defined(&self) -> bool {
        !self.range_capped
            && self.cut_to_range.is_empty()
            && self.labelled_in_range.is_empty()
            && !self.wide.is_empty()
            && self.wide.iter().all(|w| self.defined_wide.contains(&w.1))
    }

    /// Whether `d op 0` holds for every value the domains of `d`'s
    /// variables still hold.
    fn entailed(&self, op: Cmp, d: &Lin) -> bool {
        let (mut lo, mut hi) = (i128::from(d.k), i128::from(d.k));
        for &(c, x) in &d.terms {
            let (a, b) = (
                i128::from(c) * i128::from(self.lb(x)),
                i128::from(c) * i128::from(self.ub(x)),
            );
            lo += a.min(b);
            hi += a.max(b);
        }
        match op {
            Cmp::Eq => lo == 0 && hi == 0,
            Cmp::Neq => lo > 0 || hi < 0,
            Cmp::Le => hi <= 0,
            Cmp::Lt => hi < 0,
            Cmp::Ge => lo >= 0,
            Cmp::Gt => lo > 0,
        }
    }

    pub(super) fn lb(&self, x: DomainId) -> i64 {
        self.cp.lower_bound(&x) as i64
    }

    pub(super) fn ub(&self, x: DomainId) -> i64 {
        self.cp.upper_bound(&x) as i64
    }

    // ---- known values ----

    /// Records that `--bound-integers` cut an integer's domain (the
    /// report then says the run covers only those values).
    fn used_bound(&self) {
        self.interp
            .bound_at_run_time
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    pub(super) fn unknown(&self, slot: u32) -> bool {
        self.aliases.contains_key(&slot)
            || (self.index(slot).is_some_and(|k| self.known[k].is_none())
                && !self.shadowed.contains(&slot))
    }

    pub(super) fn reads_unknown(&self, e: &CExpr) -> bool {
        let mut v = plan::FrameReads::new(|s| self.unknown(s));
        v.expr(e);
        v.stopped
    }

    pub(super) fn pred_reads_unknown(&self, p: &CPred) -> bool {
        let mut v = plan::FrameReads::new(|s| self.unknown(s));
        v.pred(p);
        v.stopped
    }

    /// The value of a known expression (kept where it is a costly part of
    /// PROPERTIES: see [`super::super::memo::KeptParts`]).
    pub(super) fn eval(&mut self, e: &CExpr) -> T<Value> {
        self.interp
            .eval_known(e, &mut self.env)
            .map_err(|f| self.failure(f))
    }

    pub(super) fn holds(&mut self, p: &CPred) -> T<bool> {
        self.interp
            .holds(p, &mut self.env)
            .map_err(|f| self.failure(f))
    }

    /// An evaluation error: enumeration reports it exactly (or the stop).
    pub(super) fn failure(&self, f: Fail) -> Failure {
        match f.stopped {
            Some(reason) => Failure::Stopped(reason),
            None => unsupported(f.span, format!("evaluating: {}", f.message)),
        }
    }

    /// The elements of a known set.
    pub(super) fn known_set(&mut self, s: &CExpr) -> T<Arc<[Value]>> {
        let v = self.eval(s)?;
        match v {
            Value::Set(xs) => Ok(xs),
            _ => Err(unsupported(s.span, "a domain that cannot be listed")),
        }
    }

    /// A set of scalars: an interval (possibly large, never listed) or
    /// known values.
    pub(super) fn scalar_set(&mut self, s: &CExpr) -> T<ScalarSet> {
        match &s.kind {
            EK::Binary(BinaryOp::Interval, a, b) if !self.reads_unknown(s) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                match (a, b) {
                    (Value::Int(a), Value::Int(b)) => Ok(ScalarSet::Interval(a, b)),
                    _ => Err(unsupported(s.span, "an interval of non-integers")),
                }
            }
            EK::Ints(kind) => {
                let (lo, hi) = self.interp.int_bounds(*kind);
                if self.interp.bound_integers && (lo.is_none() || hi.is_none()) {
                    self.used_bound();
                }
                let lo = lo.or(self.interp.bound_integers.then_some(self.interp.minint));
                let hi = hi.or(self.interp.bound_integers.then_some(self.interp.maxint));
                match (lo, hi) {
                    (Some(lo), Some(hi)) => Ok(ScalarSet::Interval(lo, hi)),
                    _ => Err(unsupported(
                        s.span,
                        format!("{}: no finite domain", int_set_name(*kind)),
                    )),
                }
            }
            _ if !self.reads_unknown(s) => {
                let xs = self.known_set(s)?;
                let kind = match xs.first() {
                    None | Some(Value::Int(_)) => Kind::Int,
                    Some(Value::Bool(_)) => Kind::Bool,
                    Some(Value::Elem(e)) => Kind::Elem(e.set),
                    Some(_) => return Err(unsupported(s.span, "a set of non-scalar values")),
                };
                let codes = xs
                    .iter()
                    .map(|v| scalar_code(v).ok_or_else(|| unsupported(s.span, "a mixed set")))
                    .collect::<T<Vec<i64>>>()?;
                // A known set of consecutive integers (`s = 9..100000`
                // read back) is an interval: two bounds, not a literal
                // per value.
                if let (Kind::Int, [first, .., last]) = (kind, codes.as_slice())
                    && last - first + 1 == codes.len() as i64
                {
                    return Ok(ScalarSet::Interval(*first, *last));
                }
                Ok(ScalarSet::Values(kind, codes))
            }
            _ => Err(unsupported(
                s.span,
                "a set that depends on unknown constants",
            )),
        }
    }
}

/// `e` without its memo: a memo (of a definition used more than once,
/// `(i, j) : dom(board)`) stands for its expression.
/// Whether `e` reads a variable of binder `s`.
fn reads_binder(s: &Solver, e: &CExpr) -> bool {
    let mut slots = Vec::new();
    plan::expr_slots(e, &mut slots);
    slots.iter().any(|v| s.vars.contains(v))
}

fn unmemo(e: &CExpr) -> &CExpr {
    match &e.kind {
        EK::Memo(m) => &m.expr,
        _ => e,
    }
}

/// The defining conjunct of constant `k` among `conjuncts`, `k = E` with
/// `E` not reading `k`: its index and `E`.
fn definition_of(k: usize, conjuncts: &[CPred]) -> Option<(usize, &CExpr)> {
    conjuncts.iter().enumerate().find_map(|(i, c)| {
        let PK::Cmp(Cmp::Eq, a, b) = &c.kind else {
            return None;
        };
        [(a, b), (b, a)].into_iter().find_map(|(x, e)| {
            let EK::Read(Slot::Frame(j)) = x.kind else {
                return None;
            };
            let mut slots = Vec::new();
            plan::expr_slots(e, &mut slots);
            (j as usize == k && !slots.contains(&j)).then_some((i, e))
        })
    })
}

/// A set of scalar codes.
pub(super) enum ScalarSet {
    Interval(i64, i64),
    Values(Kind, Vec<i64>),
}

impl ScalarSet {
    /// Its elements, listed when an interval is small.
    pub(super) fn listed(self) -> ScalarSet {
        match self {
            ScalarSet::Interval(lo, hi) if hi - lo < 1 << 16 => {
                ScalarSet::Values(Kind::Int, (lo..=hi).collect())
            }
            s => s,
        }
    }
}

/// The B value of encoding `e` in a solution.
fn decode(e: &Enc, value_of: &dyn Fn(DomainId) -> i32) -> Value {
    match e {
        Enc::Scalar(kind, x) => super::sets::decode_scalar(*kind, value_of(*x)),
        Enc::Function { domain, images } => Value::Set(
            domain
                .iter()
                .zip(images.iter())
                .map(|(d, i)| Value::Pair(Arc::new((d.clone(), decode(i, value_of)))))
                .collect(),
        ),
        Enc::Set(s) => Value::Set(
            s.universe
                .iter()
                .zip(s.bits.iter())
                .filter(|(_, b)| value_of(**b) != 0)
                .map(|(u, _)| u.clone())
                .collect(),
        ),
        Enc::Pair(p) => Value::pair(decode(&p.0, value_of), decode(&p.1, value_of)),
    }
}

/// The two components of a pair term (an encoded or written pair, or a
/// known pair's value); `None` where `t` is not a pair.
fn term_parts(t: Term) -> Option<(Term, Term)> {
    match t {
        Term::Pair(p) => Some(*p),
        Term::Known(Value::Pair(p)) => Some((Term::Known(p.0.clone()), Term::Known(p.1.clone()))),
        _ => None,
    }
}

/// The variables of a pair of two single variables (an encoded pair of
/// scalars); `None` for any other term.
fn var_pair(t: &Term) -> Option<(DomainId, DomainId)> {
    let Term::Pair(p) = t else { return None };
    let var = |t: &Term| match t {
        Term::Lin(l) if l.k == 0 && matches!(l.terms[..], [(1, _)]) => Some(l.terms[0].1),
        _ => None,
    };
    Some((var(&p.0)?, var(&p.1)?))
}

/// What kind of scalar `v` is; `None` where it is not a scalar.
fn scalar_kind(v: &Value) -> Option<Kind> {
    match v {
        Value::Int(_) => Some(Kind::Int),
        Value::Bool(_) => Some(Kind::Bool),
        Value::Elem(e) => Some(Kind::Elem(e.set)),
        _ => None,
    }
}

/// The term an encoding stands for.
fn enc_term(e: &Enc) -> Term {
    match e {
        Enc::Scalar(_, x) => Term::Lin(Lin::var(*x)),
        Enc::Set(set) => Term::Set(set.clone()),
        Enc::Pair(p) => Term::Pair(Box::new((enc_term(&p.0), enc_term(&p.1)))),
        f @ Enc::Function { .. } => Term::Fun(f.clone()),
    }
}

/// Most values of the unknown a tabulated term reads ([`Model::tabulate`]).
const MAX_TABULATED: i64 = 1 << 10;

/// A scalar unknown a term reads ([`Model::tabulate`]).
enum Leaf {
    /// A frame slot holding one: an unknown constant encoded as a scalar,
    /// or a bound variable standing for one.
    Scalar(u32, Kind, DomainId),
    /// `f(a)` with `f` (in the slot) an unknown function and `a` known.
    Point(u32, CExpr),
}

/// The scalar unknowns an expression reads ([`Model::tabulate`]); `other`
/// where it reads an unknown otherwise.
struct Leaves<'m, 'i> {
    model: &'m Model<'i>,
    /// The slots binders within the expression bind: a point that reads
    /// one is not one point but many (`PI(i).(i : 1..4 | f(i))`).
    bound: Vec<u32>,
    found: Vec<Leaf>,
    other: bool,
}

impl Visitor for Leaves<'_, '_> {
    fn expr(&mut self, e: &CExpr) {
        if self.other || !self.model.reads_unknown(e) {
            return;
        }
        match &e.kind {
            EK::Memo(m) => self.expr(&m.expr),
            EK::Read(Slot::Frame(slot)) => {
                let scalar = match self.model.alias_scalar(*slot) {
                    Some(&(kind, x)) => Some((kind, x)),
                    None if self.model.aliases.contains_key(slot) => None,
                    None => match self.model.encoding(*slot as usize) {
                        Some(Enc::Scalar(kind, x)) => Some((kind, x)),
                        _ => None,
                    },
                };
                match scalar {
                    Some((kind, x)) => self.found.push(Leaf::Scalar(*slot, kind, x)),
                    None => self.other = true,
                }
            }
            EK::Apply(f, a)
                if let EK::Read(Slot::Frame(slot)) = unmemo(f).kind
                    && !self.model.aliases.contains_key(&slot)
                    && matches!(
                        self.model.encoding(slot as usize),
                        Some(Enc::Function { .. })
                    )
                    && !self.model.reads_unknown(a) =>
            {
                let mut reads_bound = plan::FrameReads::new(|s| self.bound.contains(&s));
                reads_bound.expr(a);
                if reads_bound.stopped {
                    self.other = true;
                } else {
                    self.found.push(Leaf::Point(slot, (**a).clone()));
                }
            }
            _ => super::super::walk::walk_expr(self, e),
        }
    }

    fn read(&mut self, slot: Slot) {
        if let Slot::Frame(s) = slot
            && self.model.unknown(s)
        {
            self.other = true;
        }
    }
}

/// The frame slots the binders within an expression bind.
struct BoundSlots(Vec<u32>);

impl Visitor for BoundSlots {
    fn bind(&mut self, slot: u32) {
        self.0.push(slot);
    }
}

/// The integer code of a scalar value.
pub(super) fn scalar_code(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        Value::Elem(e) => Some(e.index as i64),
        _ => None,
    }
}

/// The tuple a pattern binds, as an expression over its slots (none
/// where a part is any value).
fn pattern_expr(pattern: &super::super::ir::Pattern, span: Span) -> Option<CExpr> {
    use super::super::ir::Pattern;
    let kind = match pattern {
        Pattern::Slot(s) | Pattern::Bound(s) => EK::Read(Slot::Frame(*s)),
        Pattern::Pair(a, b) => EK::Binary(
            BinaryOp::Maplet,
            Box::new(pattern_expr(a, span)?),
            Box::new(pattern_expr(b, span)?),
        ),
        Pattern::Any => return None,
    };
    Some(CExpr { kind, span })
}

/// (injective, surjective) for the total function spaces.
fn total_function(op: BinaryOp) -> Option<(bool, bool)> {
    match op.arrow_properties() {
        Some((true, injective, surjective)) => Some((injective, surjective)),
        _ => None,
    }
}

/// Whether `s` is a set of relations or functions (`<->`, `-->`, ...).
/// A read of the variable in frame slot `slot`.
fn frame_read(slot: u32, span: Span) -> CExpr {
    CExpr {
        kind: EK::Read(Slot::Frame(slot)),
        span,
    }
}

/// `x : set`, `x` the variable in frame slot `slot`.
fn member_of(slot: u32, set: &CExpr) -> CPred {
    CPred {
        kind: PK::Member(frame_read(slot, set.span), set.clone(), false),
        span: set.span,
    }
}

/// `E` of a conjunct `x = E` (or `E = x`) of `checks`, `x` the variable
/// in frame slot `slot` and `E` not reading it.
fn defining_check(slot: u32, checks: &[CPred]) -> Option<CExpr> {
    let is_x = |e: &CExpr| matches!(unmemo(e).kind, EK::Read(Slot::Frame(j)) if j == slot);
    checks.iter().find_map(|c| match &c.kind {
        PK::Cmp(Cmp::Eq, a, b) if is_x(a) && !reads_slot(b, slot) => Some(b.clone()),
        PK::Cmp(Cmp::Eq, a, b) if is_x(b) && !reads_slot(a, slot) => Some(a.clone()),
        _ => None,
    })
}

/// Whether `e` reads frame slot `slot`.
fn reads_slot(e: &CExpr, slot: u32) -> bool {
    let mut v = plan::FrameReads::new(|s| s == slot);
    v.expr(e);
    v.stopped
}

/// The type of the elements of a sequence of scalars of type `t`.
fn sequence_element(t: &Type) -> Option<&Type> {
    match t {
        Type::Set(pair) => match &**pair {
            Type::Pair(index, element)
                if **index == Type::Int
                    && matches!(**element, Type::Int | Type::Bool | Type::Given(_)) =>
            {
                Some(element)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The elements of `seq(S)` (`S`) or `seq1(S)` (and `true`).
fn seq_of(s: &CExpr) -> Option<(&CExpr, bool)> {
    match &unmemo(s).kind {
        EK::Unary(UnaryOp::Seq, t) => Some((t, false)),
        EK::Unary(UnaryOp::Seq1, t) => Some((t, true)),
        _ => None,
    }
}

/// Whether a function's domain is `1..n`: it is a sequence.
fn is_sequence_domain(domain: &[Value]) -> bool {
    domain
        .iter()
        .enumerate()
        .all(|(i, v)| *v == Value::Int(i as i64 + 1))
}

fn is_function_space(s: &CExpr) -> bool {
    matches!(&s.kind, EK::Binary(op, _, _) if op.is_relation_set())
}

/// Whether a term is a set (an encoded set or a known set).
fn is_set(t: &Term) -> bool {
    matches!(t, Term::Set(_) | Term::Known(Value::Set(_)))
}

/// The set of `POW(S)`, `POW1(S)`, `FIN(S)`, `FIN1(S)`, and whether
/// the empty set is left out.
fn pow_of(s: &CExpr) -> Option<(&CExpr, bool)> {
    match &s.kind {
        EK::Unary(UnaryOp::Pow | UnaryOp::Fin, inner) => Some((inner, false)),
        EK::Unary(UnaryOp::Pow1 | UnaryOp::Fin1, inner) => Some((inner, true)),
        _ => None,
    }
}

fn compare(op: Cmp, a: i64, b: i64) -> bool {
    match op {
        Cmp::Eq => a == b,
        Cmp::Neq => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    }
}

/// `⌊a / b⌋` for `b > 0`.
fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

fn negated(vars: &[AffineView<DomainId>]) -> Vec<AffineView<DomainId>> {
    vars.iter().map(|v| v.scaled(-1)).collect()
}

pub(super) fn check_i32(v: i64, span: Span) -> T<i32> {
    i32::try_from(v).map_err(|_| unsupported(span, format!("the integer {v}, beyond 32 bits")))
}

fn to_i32(values: &[i64], span: Span) -> T<Vec<i32>> {
    values.iter().map(|&v| check_i32(v, span)).collect()
}

/// A name for an expression the translation does not handle.
fn describe(e: &CExpr) -> String {
    match &e.kind {
        EK::Unary(op, _) => format!("the operator {op:?} over unknown constants"),
        EK::Binary(op, _, _) => format!("the operator {op:?} over unknown constants"),
        EK::Quantified(kind, _, _) => format!("{kind:?} over unknown constants"),
        EK::Read(_) => "a read of this variable".into(),
        _ => "this expression over unknown constants".into(),
    }
}

/// The integer set kinds, for messages.
fn int_set_name(k: IntSet) -> &'static str {
    match k {
        IntSet::Nat => "NAT",
        IntSet::Nat1 => "NAT1",
        IntSet::Int => "INT",
        IntSet::Natural => "NATURAL",
        IntSet::Natural1 => "NATURAL1",
        IntSet::Integer => "INTEGER",
    }
}

/// Whether `t` mentions given set number `set` (a free type may hold any).
fn mentions_given(t: &Type, set: u32) -> bool {
    match t {
        Type::Int | Type::Bool | Type::String => false,
        Type::Free(_) => true,
        Type::Given(s) => *s == set,
        Type::Pair(a, b) => mentions_given(a, set) || mentions_given(b, set),
        Type::Set(x) => mentions_given(x, set),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_terms_flag_an_overflow_instead_of_wrapping() {
        // `x > MIN` moved to one side: `x - MIN` is beyond 64 bits.
        assert!(Lin::constant(i64::MIN).scaled(-1).overflow);
        assert!(Lin::constant(i64::MAX).plus(Lin::constant(1)).overflow);
        assert!(
            Lin::constant(1)
                .plus(Lin::constant(i64::MAX).plus(Lin::constant(1)))
                .overflow
        );
        let fine = Lin::constant(i64::MAX).plus(Lin::constant(-5)).scaled(-1);
        assert!(!fine.overflow);
        assert_eq!(fine.k, 5 - i64::MAX);
    }

    #[test]
    fn a_negated_comparison_holds_exactly_where_it_does_not() {
        let ops = [Cmp::Eq, Cmp::Neq, Cmp::Le, Cmp::Lt, Cmp::Ge, Cmp::Gt];
        for op in ops {
            for a in -2..=2 {
                for b in -2..=2 {
                    assert_eq!(compare(op.negated(), a, b), !compare(op, a, b), "{op:?}");
                }
            }
        }
    }
}
