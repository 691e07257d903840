//! Sets as the solver sees them: a known, sorted universe and one 0/1
//! variable per element (1 for a member). Unknown set and relation
//! constants (`s <: S`, `r : A <-> B`, `p : A +-> B`), known sets,
//! functions read as sets of pairs and comprehensions over known ranges
//! all become such terms; `card` is the sum of the bits, `:`, `<:`, `=`
//! clauses over them, `\/`, `/\`, `-`, `dom` and `ran` new bits.

use std::sync::Arc;

use pumpkin_core::variables::{DomainId, Literal};

use super::super::ir::{CExpr, Cmp, EK, Slot};
use super::super::plan;
use super::model::{Atom, Enc, Failure, Kind, Lin, Model, T, Term, scalar_code, unsupported};
use crate::diag::Span;
use crate::frontends::b::ast::BinaryOp;
use crate::frontends::b::value::{Elem, Value};

/// Literals by the value they make a member (sorted by value).
type Groups = std::collections::BTreeMap<Value, Vec<Literal>>;

/// Largest universe a set is encoded over.
pub(super) const MAX_UNIVERSE: usize = 1 << 14;

/// A set over a known universe (sorted, without duplicates): member `i`
/// when `bits[i]` is 1.
#[derive(Clone, Debug)]
pub(super) struct SetTerm {
    pub(super) universe: Arc<[Value]>,
    pub(super) bits: Arc<[DomainId]>,
}

impl Model<'_> {
    /// A set of fresh decision bits over `universe`.
    pub(super) fn new_set(&mut self, universe: Arc<[Value]>, span: Span) -> T<Enc> {
        if universe.len() > MAX_UNIVERSE {
            return Err(unsupported(
                span,
                format!("a set over {} possible elements", universe.len()),
            ));
        }
        let bits: Vec<DomainId> = (0..universe.len())
            .map(|_| {
                let x = self.cp.new_bounded_integer(0, 1);
                self.decision.push(x);
                self.self_bounded.insert(x);
                x
            })
            .collect();
        Ok(Enc::Set(SetTerm {
            universe,
            bits: bits.into(),
        }))
    }

    /// The set `{e1, ..., en}` of scalars, some unknown: a bit per value
    /// an item can take, set when some item takes it.
    pub(super) fn set_of_scalars(&mut self, items: &[CExpr], span: Span) -> T<SetTerm> {
        let mut members = Groups::new();
        for item in items {
            match self.scalar_item(item)? {
                ScalarItem::Known(v) => {
                    let t = self.constant_lit(true);
                    members.entry(v).or_default().push(t);
                }
                ScalarItem::Var(kind, x) => {
                    for (v, l) in self.value_literals(kind, x, span)? {
                        members.entry(v).or_default().push(l);
                    }
                }
            }
            if members.len() > MAX_UNIVERSE {
                return Err(unsupported(
                    span,
                    format!("a set over more than {MAX_UNIVERSE} possible elements"),
                ));
            }
        }
        Ok(self.set_of_groups(members))
    }

    /// Each value variable `x` (of `kind`) can take, with the literal
    /// `[x = v]`; refused beyond [`MAX_UNIVERSE`] values.
    fn value_literals(&mut self, kind: Kind, x: DomainId, span: Span) -> T<Vec<(Value, Literal)>> {
        let (lo, hi) = (self.cp.lower_bound(&x), self.cp.upper_bound(&x));
        if i64::from(hi) - i64::from(lo) >= MAX_UNIVERSE as i64 {
            return Err(unsupported(
                span,
                format!("a set over more than {MAX_UNIVERSE} possible elements"),
            ));
        }
        Ok((lo..=hi)
            .filter(|&v| self.cp.contains(&x, v))
            .collect::<Vec<i32>>()
            .into_iter()
            .map(|v| {
                let l = self.atom_lit(x, Atom::Eq, i64::from(v));
                (decode_scalar(kind, v), l)
            })
            .collect())
    }

    /// An item of a set extension as a known scalar or a variable with
    /// its kind: a constant, or an integer expression.
    /// The encoding whose part `e` reads: of an unknown, of an encoded
    /// function's image (`f(x)`), of a pair's component (`prj1(S, T)(p)`
    /// and its well-definedness test); `None` for anything else.
    fn shape(&self, e: &CExpr) -> Option<Enc> {
        match &e.kind {
            EK::Memo(m) => self.shape(&m.expr),
            EK::Read(Slot::Frame(k)) => self.encoding(*k as usize),
            EK::Apply(f, _) => match self.shape(f)? {
                Enc::Function { images, .. } => images.first().cloned(),
                _ => None,
            },
            EK::Component(first, p) => match self.shape(p)? {
                Enc::Pair(p) => Some(if *first { p.0.clone() } else { p.1.clone() }),
                _ => None,
            },
            EK::IfThenElse(_, a, _) => self.shape(a),
            _ => None,
        }
    }

    pub(super) fn scalar_item(&mut self, e: &CExpr) -> T<ScalarItem> {
        let arithmetic = matches!(
            e.kind,
            EK::Binary(
                BinaryOp::Add
                    | BinaryOp::Minus
                    | BinaryOp::Mul
                    | BinaryOp::Div
                    | BinaryOp::Mod
                    | BinaryOp::Power,
                ..
            )
        );
        match (self.term(e)?, &e.kind) {
            (Term::Known(v), _) if scalar_code(&v).is_some() => Ok(ScalarItem::Known(v)),
            (_, EK::Read(Slot::Frame(k)))
                if let Some(Enc::Scalar(kind, x)) = self.encoding(*k as usize) =>
            {
                Ok(ScalarItem::Var(kind, x))
            }
            (_, EK::Read(Slot::Frame(k))) if let Some(&(kind, x)) = self.alias_scalar(*k) => {
                Ok(ScalarItem::Var(kind, x))
            }
            (Term::Lin(l), _) if arithmetic => {
                Ok(ScalarItem::Var(Kind::Int, self.materialise(&l, e.span)?))
            }
            // `f(x)`, `prj1(S, T)(f(x))`, `f` an encoded function: the
            // kind of the scalars it reads.
            (Term::Lin(l), _) if let Some(Enc::Scalar(kind, _)) = self.shape(e) => {
                Ok(ScalarItem::Var(kind, self.materialise(&l, e.span)?))
            }
            _ => Err(unsupported(
                e.span,
                "a set extension of non-scalar unknowns",
            )),
        }
    }

    /// The literal "bit `x` is 1".
    pub(super) fn bit_lit(&mut self, x: DomainId) -> Literal {
        if let Some(&l) = self.bit_lits.get(&x) {
            return l;
        }
        let l = self.atom_lit(x, Atom::Ge, 1);
        self.bit_lits.insert(x, l);
        l
    }

    /// A bit equal to literal `l`.
    pub(super) fn bit_of(&mut self, l: Literal) -> DomainId {
        // A positive literal is a 0/1 variable already.
        let inner = *l.get_integer_variable().inner();
        if Literal::new(inner) == l {
            self.bit_lits.insert(inner, l);
            self.self_bounded.insert(inner);
            return inner;
        }
        let x = self.cp.new_bounded_integer(0, 1);
        self.self_bounded.insert(x);
        let lx = self.bit_lit(x);
        self.clause(vec![!l, lx]);
        self.clause(vec![l, !lx]);
        self.bit_source.insert(x, l);
        x
    }

    /// A bit fixed to 0 or 1.
    fn fixed_bit(&mut self, one: bool) -> DomainId {
        let v = one as i32;
        let x = self.cp.new_bounded_integer(v, v);
        self.self_bounded.insert(x);
        x
    }

    /// A term as a set term (known sets, encoded sets, functions as sets
    /// of pairs).
    pub(super) fn set_term(&mut self, t: Term, span: Span) -> T<SetTerm> {
        match t {
            Term::Set(s) => Ok(s),
            Term::Known(Value::Set(xs)) => {
                let one = self.fixed_bit(true);
                Ok(SetTerm {
                    bits: vec![one; xs.len()].into(),
                    universe: xs,
                })
            }
            Term::Fun(Enc::Function { domain, images }) => {
                let mut universe = Vec::new();
                let mut bits = Vec::new();
                for (d, image) in domain.iter().zip(images.iter()) {
                    let Enc::Scalar(kind, x) = image else {
                        return Err(unsupported(
                            span,
                            "a function of sets or functions read as a set",
                        ));
                    };
                    for (v, l) in self.value_literals(*kind, *x, span)? {
                        universe.push(Value::pair(d.clone(), v));
                        bits.push(self.bit_of(l));
                    }
                }
                Ok(SetTerm {
                    universe: universe.into(),
                    bits: bits.into(),
                })
            }
            _ => Err(unsupported(span, "a number where a set is expected")),
        }
    }

    /// `r~`: the same bits over the swapped pairs.
    pub(super) fn inverse(&mut self, r: &SetTerm, span: Span) -> T<SetTerm> {
        let mut swapped = Vec::with_capacity(r.universe.len());
        for (pair, &bit) in r.universe.iter().zip(r.bits.iter()) {
            let Value::Pair(p) = pair else {
                return Err(unsupported(
                    span,
                    "the inverse of a set that is not a relation",
                ));
            };
            swapped.push((Value::pair(p.1.clone(), p.0.clone()), bit));
        }
        swapped.sort_by(|a, b| a.0.cmp(&b.0));
        let (universe, bits): (Vec<Value>, Vec<DomainId>) = swapped.into_iter().unzip();
        Ok(SetTerm {
            universe: universe.into(),
            bits: bits.into(),
        })
    }

    /// The bit of `v` in `s`, if `v` is in its universe.
    fn bit_in(s: &SetTerm, v: &Value) -> Option<DomainId> {
        s.universe.binary_search(v).ok().map(|i| s.bits[i])
    }

    /// A literal for `x : s`.
    pub(super) fn set_member_lit(&mut self, x: Term, s: SetTerm, span: Span) -> T<Literal> {
        match x {
            Term::Known(v) => Ok(match Self::bit_in(&s, &v) {
                Some(b) => self.bit_lit(b),
                None => self.constant_lit(false),
            }),
            Term::Lin(x) => {
                let x = self.materialise(&x, span)?;
                let mut ls = Vec::new();
                for (u, &b) in s.universe.iter().zip(s.bits.iter()) {
                    let Some(code) = scalar_code(u) else {
                        return Err(unsupported(
                            span,
                            "an unknown number in a set of non-numbers",
                        ));
                    };
                    let Ok(code) = i32::try_from(code) else {
                        continue;
                    };
                    if !self.cp.contains(&x, code) {
                        continue;
                    }
                    let is = self.atom_lit(x, Atom::Eq, i64::from(code));
                    let member = self.bit_lit(b);
                    ls.push(self.and(vec![is, member]));
                }
                Ok(if ls.is_empty() {
                    self.constant_lit(false)
                } else {
                    self.or(ls)
                })
            }
            _ => Err(unsupported(
                span,
                "membership of a function or set with unknowns",
            )),
        }
    }

    /// The clauses of `a <: b`.
    fn subset_clauses(&mut self, a: &SetTerm, b: &SetTerm) -> Vec<Vec<Literal>> {
        let mut clauses = Vec::new();
        for (u, &bit) in a.universe.iter().zip(a.bits.iter()) {
            let la = self.bit_lit(bit);
            match Self::bit_in(b, u) {
                Some(bb) => {
                    let lb = self.bit_lit(bb);
                    clauses.push(vec![!la, lb]);
                }
                None => clauses.push(vec![!la]),
            }
        }
        clauses
    }

    /// Posts `a <: b`.
    pub(super) fn post_subset(&mut self, a: &SetTerm, b: &SetTerm) {
        for c in self.subset_clauses(a, b) {
            self.clause(c);
        }
    }

    /// A literal for `a <: b` (`a <<: b` when `strict`).
    pub(super) fn subset_lit(&mut self, a: &SetTerm, b: &SetTerm, strict: bool) -> Literal {
        let clauses = self.subset_clauses(a, b);
        let mut ls: Vec<Literal> = clauses.into_iter().map(|c| self.or(c)).collect();
        if strict {
            let equal = self.set_equal_lit(a, b);
            ls.push(!equal);
        }
        if ls.is_empty() {
            return self.constant_lit(true);
        }
        self.and(ls)
    }

    /// A literal for `a = b`.
    pub(super) fn set_equal_lit(&mut self, a: &SetTerm, b: &SetTerm) -> Literal {
        let mut clauses = self.subset_clauses(a, b);
        clauses.extend(self.subset_clauses(b, a));
        let ls: Vec<Literal> = clauses.into_iter().map(|c| self.or(c)).collect();
        if ls.is_empty() {
            return self.constant_lit(true);
        }
        self.and(ls)
    }

    /// `a \/ b`, `a /\ b` or `a - b`.
    pub(super) fn set_op(&mut self, op: BinaryOp, a: &SetTerm, b: &SetTerm) -> SetTerm {
        let mut universe: Vec<Value> = a
            .universe
            .iter()
            .chain(b.universe.iter())
            .cloned()
            .collect();
        universe.sort();
        universe.dedup();
        let mut bits = Vec::with_capacity(universe.len());
        for u in &universe {
            let la = Self::bit_in(a, u).map(|x| self.bit_lit(x));
            let lb = Self::bit_in(b, u).map(|x| self.bit_lit(x));
            let f = self.constant_lit(false);
            let (la, lb) = (la.unwrap_or(f), lb.unwrap_or(f));
            let l = match op {
                BinaryOp::Union => self.or(vec![la, lb]),
                BinaryOp::Inter => self.and(vec![la, lb]),
                _ => self.and(vec![la, !lb]),
            };
            bits.push(self.bit_of(l));
        }
        SetTerm {
            universe: universe.into(),
            bits: bits.into(),
        }
    }

    /// `card(s)`: the sum of its bits.
    pub(super) fn card(&self, s: &SetTerm) -> Lin {
        s.bits
            .iter()
            .fold(Lin::constant(0), |acc, &b| acc.plus(Lin::var(b)))
    }

    /// `min(s)` (`least`) or `max(s)` of a set of integers: a variable
    /// that equals one member and is below (above) every member. The set
    /// is then not empty: as a function applied outside its domain, an
    /// undefined `min` rejects the candidate.
    pub(super) fn extremum(&mut self, s: &SetTerm, least: bool, span: Span) -> T<DomainId> {
        let mut values = Vec::with_capacity(s.universe.len());
        for u in s.universe.iter() {
            match u {
                Value::Int(n) => values.push(super::model::check_i32(*n, span)?),
                _ => return Err(unsupported(span, "`min` or `max` of a set of non-integers")),
            }
        }
        let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
            return Err(Failure::Unsat);
        };
        let m = self.cp.new_bounded_integer(lo, hi);
        let mut some = Vec::with_capacity(values.len());
        for (&v, &b) in values.iter().zip(s.bits.iter()) {
            let member = self.bit_lit(b);
            // A member bounds the extremum.
            let beyond = if least {
                self.atom_lit(m, Atom::Le, i64::from(v))
            } else {
                self.atom_lit(m, Atom::Ge, i64::from(v))
            };
            self.clause(vec![!member, beyond]);
            // The extremum is a member.
            let is = self.atom_lit(m, Atom::Eq, i64::from(v));
            self.clause(vec![!is, member]);
            some.push(is);
        }
        self.clause(some);
        Ok(m)
    }

    /// `dom(s)` (`first`) or `ran(s)` of a set of pairs.
    pub(super) fn projection(&mut self, s: &SetTerm, first: bool, span: Span) -> T<SetTerm> {
        let mut groups = Groups::new();
        for (u, &b) in s.universe.iter().zip(s.bits.iter()) {
            let Value::Pair(p) = u else {
                return Err(unsupported(span, "`dom` or `ran` of a set of non-pairs"));
            };
            let key = if first { p.0.clone() } else { p.1.clone() };
            let l = self.bit_lit(b);
            groups.entry(key).or_default().push(l);
        }
        Ok(self.set_of_groups(groups))
    }

    /// The set of the keys of `groups`, each a member when one of its
    /// literals holds.
    fn set_of_groups(&mut self, groups: Groups) -> SetTerm {
        let mut universe = Vec::with_capacity(groups.len());
        let mut bits = Vec::with_capacity(groups.len());
        for (key, ls) in groups {
            let l = self.or(ls);
            universe.push(key);
            bits.push(self.bit_of(l));
        }
        SetTerm {
            universe: universe.into(),
            bits: bits.into(),
        }
    }

    /// `r[s]`: a bit per second element of `r`'s pairs, set when some
    /// pair of `r` whose first element is in `s` has it.
    pub(super) fn image(&mut self, r: &SetTerm, s: &SetTerm, span: Span) -> T<SetTerm> {
        let mut groups = Groups::new();
        for (u, &b) in r.universe.iter().zip(r.bits.iter()) {
            let Value::Pair(p) = u else {
                return Err(unsupported(span, "the image of a set of non-pairs"));
            };
            let Some(sb) = Self::bit_in(s, &p.0) else {
                continue;
            };
            let (lr, ls) = (self.bit_lit(b), self.bit_lit(sb));
            let l = self.and(vec![lr, ls]);
            groups.entry(p.1.clone()).or_default().push(l);
        }
        Ok(self.set_of_groups(groups))
    }

    /// Posts that relation `s` lies in `A op B` (a relation or partial or
    /// total function space over known `A` and `B`).
    pub(super) fn post_relation_space(
        &mut self,
        s: &SetTerm,
        op: BinaryOp,
        a: &[Value],
        b: &[Value],
        span: Span,
    ) -> T<()> {
        for l in self.relation_space_lits(s, op, a, b, span)? {
            self.clause(vec![l]);
        }
        Ok(())
    }

    /// Posts that relation `s` lies in `A op B` where `A` and `B` are
    /// sets of the model (unknown, or built from unknowns): each pair's
    /// bit implies its components' bits, and the arrow's counts are bounded
    /// by membership (a total function has one image exactly for each
    /// member of `A`, none elsewhere).
    pub(super) fn post_relation_space_over(
        &mut self,
        s: &SetTerm,
        op: BinaryOp,
        a: &SetTerm,
        b: &SetTerm,
        span: Span,
    ) -> T<()> {
        let (functional, (total, injective, surjective)) = space_properties(op, span)?;
        let member = |t: &SetTerm, x: &Value| t.universe.binary_search(x).ok().map(|i| t.bits[i]);
        // Per element of A (of B): the bits of the pairs it is the first
        // (the second) component of.
        type Bits = std::collections::BTreeMap<Value, Vec<DomainId>>;
        let (mut firsts, mut seconds) = (Bits::new(), Bits::new());
        for (u, &bit) in s.universe.iter().zip(s.bits.iter()) {
            let Value::Pair(p) = u else {
                return Err(unsupported(span, "a relation of non-pairs"));
            };
            let pair = self.bit_lit(bit);
            for (x, side) in [(&p.0, a), (&p.1, b)] {
                match member(side, x) {
                    Some(x) => {
                        let x = self.bit_lit(x);
                        self.clause(vec![!pair, x]);
                    }
                    None => self.clause(vec![!pair]),
                }
            }
            firsts.entry(p.0.clone()).or_default().push(bit);
            seconds.entry(p.1.clone()).or_default().push(bit);
        }
        let bound = |m: &mut Self, side: &SetTerm, groups: &Bits, at_least: bool, at_most: bool| {
            for (x, &bit) in side.universe.iter().zip(side.bits.iter()) {
                let count = groups.get(x).map_or(Lin::constant(0), |bits| {
                    bits.iter()
                        .fold(Lin::constant(0), |acc, &b| acc.plus(Lin::var(b)))
                });
                if at_most {
                    let l = m.cmp_lit(
                        Cmp::Le,
                        Term::Lin(count.clone()),
                        Term::Lin(Lin::constant(1)),
                        span,
                    )?;
                    m.clause(vec![l]);
                }
                if at_least {
                    let l = m.cmp_lit(Cmp::Ge, Term::Lin(count), Term::Lin(Lin::var(bit)), span)?;
                    m.clause(vec![l]);
                }
            }
            T::Ok(())
        };
        if functional {
            bound(self, a, &firsts, total, true)?;
        }
        if injective || surjective {
            bound(self, b, &seconds, surjective, injective)?;
        }
        Ok(())
    }

    /// Literals whose conjunction says that relation `s` lies in
    /// `A op B`.
    pub(super) fn relation_space_lits(
        &mut self,
        s: &SetTerm,
        op: BinaryOp,
        a: &[Value],
        b: &[Value],
        span: Span,
    ) -> T<Vec<Literal>> {
        let mut out = Vec::new();
        // Nothing outside A * B.
        for (u, &bit) in s.universe.iter().zip(s.bits.iter()) {
            let Value::Pair(p) = u else {
                return Err(unsupported(span, "a relation of non-pairs"));
            };
            if a.binary_search(&p.0).is_err() || b.binary_search(&p.1).is_err() {
                let l = self.bit_lit(bit);
                out.push(!l);
            }
        }
        let (functional, (total, injective, surjective)) = space_properties(op, span)?;
        let count = |s: &SetTerm, first: bool, key: &Value| -> Lin {
            s.universe
                .iter()
                .zip(s.bits.iter())
                .filter(|(u, _)| {
                    matches!(u, Value::Pair(p) if (if first { &p.0 } else { &p.1 }) == key)
                })
                .fold(Lin::constant(0), |acc, (_, &bit)| acc.plus(Lin::var(bit)))
        };
        let mut bound = |m: &mut Self, lin: Lin, lo: Option<i64>, hi: Option<i64>| -> T<()> {
            if let Some(lo) = lo {
                let l = m.cmp_lit(
                    Cmp::Ge,
                    Term::Lin(lin.clone()),
                    Term::Lin(Lin::constant(lo)),
                    span,
                )?;
                out.push(l);
            }
            if let Some(hi) = hi {
                let l = m.cmp_lit(Cmp::Le, Term::Lin(lin), Term::Lin(Lin::constant(hi)), span)?;
                out.push(l);
            }
            Ok(())
        };
        if functional {
            for x in a {
                let lin = count(s, true, x);
                bound(self, lin, total.then_some(1), Some(1))?;
            }
        }
        if injective || surjective {
            for y in b {
                let lin = count(s, false, y);
                bound(self, lin, surjective.then_some(1), injective.then_some(1))?;
            }
        }
        Ok(out)
    }

    /// Every value of a finite type, as a universe (or why not); with
    /// `--bound-integers` and `within_bounds`, the integers within
    /// MININT..MAXINT (`s <: INTEGER` as ProB enumerates it).
    pub(super) fn type_universe(
        &mut self,
        t: &crate::frontends::b::types::Type,
        within_bounds: bool,
        span: Span,
    ) -> T<Arc<[Value]>> {
        let mut values = Vec::new();
        // Sets of integers only: a set of pairs of integers within the
        // bounds would cut relations ProB builds from known values
        // (`even \/ odd = (1..4) * (1..4)`).
        let finite = plan::type_is_finite(t)
            || (within_bounds
                && self.interp.bound_integers
                && *t == crate::frontends::b::types::Type::Int);
        if !finite {
            return Err(unsupported(span, "a set over an infinite type"));
        }
        // Listing stops at the limit, but a pair or set type lists its
        // components' values first: `Labels <-> POW(Nodes)` is 2^48 of them.
        if *t != crate::frontends::b::types::Type::Int
            && self.interp.type_count(t) > MAX_UNIVERSE as f64
        {
            return Err(unsupported(span, "a set over a large type"));
        }
        let result = self.interp.enum_type(t, &mut |v| {
            values.push(v);
            Ok(values.len() <= MAX_UNIVERSE)
        });
        match result {
            Ok(true) => {
                values.sort();
                values.dedup();
                Ok(values.into())
            }
            _ => Err(unsupported(span, "a set over a large type")),
        }
    }
}

/// Whether the relation space `op` is one of functions, and whether its
/// functions are total, injective and surjective.
fn space_properties(op: BinaryOp, span: Span) -> T<(bool, (bool, bool, bool))> {
    match op.arrow_properties() {
        Some(properties) => Ok((true, properties)),
        None if op == BinaryOp::Relation => Ok((false, (false, false, false))),
        None => Err(unsupported(span, format!("the relation space {op:?}"))),
    }
}

/// The value of a scalar code.
pub(super) fn decode_scalar(kind: Kind, v: i32) -> Value {
    match kind {
        Kind::Int => Value::Int(v as i64),
        Kind::Bool => Value::Bool(v != 0),
        Kind::Elem(set) => Value::Elem(Elem {
            set,
            index: v as u32,
        }),
    }
}

/// An item of a set extension ([`Model::scalar_item`]).
pub(super) enum ScalarItem {
    Known(Value),
    Var(Kind, DomainId),
}
