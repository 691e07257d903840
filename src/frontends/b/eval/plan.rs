//! Static enumeration plans for bound variables.
//!
//! ProB solves the predicate of a binder by constraint propagation; we use
//! the simpler generate-and-test scheme that suffices for model checking
//! with finite domains (as in the interpreters of the permutation-flooding
//! paper's era): the predicate is split into its top-level conjuncts, and
//! variables are bound one at a time, each by a *generating* conjunct that
//! only mentions variables bound before it:
//!
//! * `x = e` gives one candidate (cheapest),
//! * `x : S` every element of `S` (enumerated symbolically for intervals,
//!   `NAT`, `POW`, function spaces, `iseq`, ...), `x |-> y : S` destructures,
//! * `x <: S` every subset of `S`,
//! * otherwise the variable's type, if it is finite.
//!
//! Every other conjunct becomes a check placed right after the last of its
//! variables is bound, so impossible candidates are pruned early. A
//! generating conjunct is satisfied by construction and not re-checked.
//! The plan is built once at compile time; choosing greedily the cheapest
//! generator available keeps e.g. `p : PROC & pst(p) = idle` a scan of
//! `PROC` with one check per element.

use super::ir::{
    CExpr, CPred, Choice, Cmp, EK, Gen, IntSet, PK, Pattern, Slot, SolveStep, Solver, Undefined,
};
use super::walk::{Visitor, walk_expr};
use crate::diag::Span;
use crate::frontends::b::ast::{BinaryOp, Ident, UnaryOp};
use crate::frontends::b::types::Type;
use crate::frontends::b::value::Value;

/// `--bound-integers`: the bounds that stand in for a missing one, and
/// where to record that one did.
#[derive(Clone, Copy)]
pub struct IntBound<'a> {
    /// MININT.
    pub lo: i64,
    /// MAXINT.
    pub hi: i64,
    /// Set when a plan enumerates an integer within the bound.
    pub used: &'a std::cell::Cell<bool>,
}

/// Builds the plan for binding `vars` (named `names`) subject to
/// `conjuncts`. With `int_bound` an integer variable that the conjuncts
/// leave unbounded on a side is enumerated up to MININT or MAXINT instead
/// of being an error (`--bound-integers`, as ProB enumerates `NATURAL`
/// within `MAXINT`), and the plan records that it did. `machine_vars`:
/// the variables are a machine's (constants, operation parameters, `ANY`),
/// not an expression's binder (see [`exists_witness`]). `image`: the
/// plan of a comprehension's last variable with the others given, which
/// computes one application (`f(5)` for `f = {i, res | .. & #j.(.. & res
/// = %k.(..))}`), so a witness with binders of its own is taken.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    names: &[Ident],
    vars: &[u32],
    types: Option<&[Type]>,
    machine_vars: bool,
    image: bool,
    conjuncts: Vec<CPred>,
    span: Span,
    undefined: Undefined,
    int_bound: Option<IntBound<'_>>,
) -> Solver {
    let fallback = int_bound.map(|b| (b.lo, b.hi, span, b.used));
    let conjuncts = split_pair_equalities(conjuncts);
    let statics = static_bounds(&conjuncts, vars);
    let static_of = |v: u32| {
        vars.iter()
            .position(|&x| x == v)
            .map_or((None, None), |k| statics[k])
    };
    // Whether a variable is an integer, where its type is known: `-` and
    // `*` of sets (difference, product) are not inverted by equations.
    // (By position in `vars`, known where the variables are walked: a
    // search per call costs a generated SAT encoding's thousands.)
    let is_int_at = |k: Option<usize>| {
        types
            .zip(k)
            .and_then(|(t, k)| t.get(k))
            .is_none_or(|t| matches!(t, Type::Int))
    };
    let is_int = |v: u32| is_int_at(vars.iter().position(|&x| x == v));
    // The variables some conjunct defines (`v = e`, `e` not reading `v`):
    // their equation, once ready, gives the exact value where a draw from
    // an infinite set (`res : 1..2 --> INTEGER`) would be cut by
    // `--bound-integers` (`res = mulvect(e, v)` with `e = 3`: `res(1) = 9`).
    let defined: Vec<bool> = vars
        .iter()
        .map(|&v| {
            let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
            let reads_v = |e: &CExpr| {
                let mut used = Vec::new();
                expr_slots(e, &mut used);
                used.contains(&v)
            };
            conjuncts.iter().any(|c| {
                matches!(&c.kind, PK::Cmp(Cmp::Eq, a, b)
                    if (is_v(a) && !reads_v(b)) || (is_v(b) && !reads_v(a)))
            })
        })
        .collect();
    let deps: Vec<Vec<u32>> = conjuncts
        .iter()
        .map(|c| {
            let mut used = Vec::new();
            pred_slots(c, &mut used);
            used.retain(|s| vars.contains(s));
            used.sort_unstable();
            used.dedup();
            used
        })
        .collect();
    // The conjuncts that read each variable (by position in `vars`), in
    // order: only they can generate it. With thousands of constants
    // (ProB's generated machines) trying every conjunct for every
    // variable at every step took minutes.
    let position = |slot: u32| vars.iter().position(|&x| x == slot);
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); vars.len()];
    for (i, d) in deps.iter().enumerate() {
        for &slot in d {
            if let Some(k) = position(slot) {
                readers[k].push(i);
            }
        }
    }
    // Whether each frame slot is bound (slots of other binders never are).
    let mut is_bound = vec![false; vars.iter().map(|&v| v as usize + 1).max().unwrap_or(0)];
    let mut bound: Vec<u32> = Vec::new();
    let mut done = vec![false; conjuncts.len()];
    let mut steps = Vec::new();
    // A conjunct that can be ill-defined (`yy = 10 / xx`) is checked only
    // after the conjuncts to its left, which B reads as its guards
    // (`pp : 1..xx & yy = 10 / xx`: no `pp` when `xx = 0`, and no division).
    let ill_defined: Vec<bool> = conjuncts.iter().map(may_be_ill_defined).collect();
    let emit_checks = |is_bound: &[bool], done: &mut Vec<bool>, steps: &mut Vec<SolveStep>| {
        for (i, c) in conjuncts.iter().enumerate() {
            if !done[i]
                && deps[i].iter().all(|&d| is_bound[d as usize])
                && (!ill_defined[i] || done[..i].iter().all(|&d| d))
            {
                done[i] = true;
                steps.push(SolveStep::Check(c.clone()));
            }
        }
    };
    if domains_contradict(&conjuncts, vars) {
        steps.push(SolveStep::Check(CPred {
            kind: PK::Const(false),
            span,
        }));
    }
    emit_checks(&is_bound, &mut done, &mut steps);
    while bound.len() < vars.len() {
        // (priority, conjunct, step, whether it uses the integer bound)
        let mut best: Option<(u32, usize, Candidate, bool)> = None;
        // Each variable's best generator that needs no condition (see
        // [`plain_generator`]).
        // (priority, generator, whether it uses the integer bound)
        let mut plain: Vec<Option<(u32, Gen, bool)>> = vec![None; vars.len()];
        let mut best_degree = 0;
        for (k, &v) in vars.iter().enumerate() {
            if is_bound[v as usize] {
                continue;
            }
            let degree = readers[k].iter().filter(|&&j| !done[j]).count();
            for &i in &readers[k] {
                let c = &conjuncts[i];
                if done[i] {
                    continue;
                }
                // Only a witness can give a machine's variable of an
                // infinite type (a constant defined inside a `#`) a value.
                let witness_only = machine_vars
                    && types
                        .and_then(|t| t.get(k))
                        .is_some_and(|t| !type_is_finite(t));
                let typed = witness_only || image;
                let Some((mut prio, mut cand)) =
                    generator(c, v, vars, &bound, typed, machine_vars, is_int_at(Some(k)))
                else {
                    continue;
                };
                let infinite_draw =
                    matches!(&cand.step, SolveStep::Bind(_, Gen::In(s)) if over_infinite(s));
                let pending = Pending {
                    conjuncts: &conjuncts,
                    done: &done,
                    vars,
                    bound: &bound,
                };
                let cand_bounded = std::cell::Cell::new(false);
                let cand_fallback = fallback.map(|(lo, hi, span, _)| (lo, hi, span, &cand_bounded));
                // `x : NATURAL` (or INTEGER) with `x < e` elsewhere: enumerate
                // the interval the comparisons allow, keeping every conjunct
                // as a check.
                if let SolveStep::Bind(_, Gen::In(set)) = &cand.step
                    && let EK::Ints(kind @ (IntSet::Natural | IntSet::Natural1 | IntSet::Integer)) =
                        set.kind
                {
                    let natural = match kind {
                        IntSet::Natural => Some(0),
                        IntSet::Natural1 => Some(1),
                        _ => None,
                    };
                    let (lo, hi) = static_of(v);
                    let implied = (lo.max(natural), hi);
                    if let Some(interval) = interval_for(
                        v,
                        implied,
                        &conjuncts,
                        &done,
                        vars,
                        &bound,
                        i,
                        &static_of,
                        cand_fallback,
                    ) {
                        cand.step = SolveStep::Bind(v, Gen::In(interval));
                        cand.exact = false;
                        prio = 3;
                    } else {
                        // Enumerating it is an error: name the variable.
                        let k = vars.iter().position(|&x| x == v).unwrap_or(0);
                        let name = names
                            .get(k)
                            .map_or_else(|| "?".to_string(), |n| n.name.clone());
                        let ty = types.and_then(|t| t.get(k)).cloned();
                        cand.step = SolveStep::Bind(v, Gen::Unbounded(name, ty));
                    }
                }
                // `f : S --> T` with `!x.(x : S2 => f(x) = E)` elsewhere: if
                // S2 = S, the one function `%x.(x : S2 | E)`.
                if let SolveStep::Bind(_, Gen::In(space)) = &cand.step
                    && let Some(pointwise) =
                        pointwise_definition(v, space, &conjuncts, &done, vars, &bound)
                {
                    cand.step = SolveStep::Bind(v, pointwise);
                    cand.exact = false;
                }
                // `x : seq(S)` with `size(x) <= n` elsewhere: the sequences
                // up to that length.
                // With `ran(x) = E` or `ran(x) <: E` too, the elements
                // come from `E` (`x : iseq(NATURAL) & size(x) = 4 &
                // ran(x) = {0, 1, 3, 5}`); the membership is still checked.
                if let SolveStep::Bind(_, Gen::In(set)) = &cand.step
                    && let EK::Unary(
                        kind @ (UnaryOp::Seq
                        | UnaryOp::Seq1
                        | UnaryOp::Iseq
                        | UnaryOp::Iseq1
                        | UnaryOp::Perm),
                        elements,
                    ) = &set.kind
                    && let Some(max_len) = size_bound(v, &pending)
                    && let Some(elements) = range_bound(v, &pending).or_else(|| {
                        // Injective sequences are listed better by their set.
                        matches!(kind, UnaryOp::Seq | UnaryOp::Seq1).then(|| (**elements).clone())
                    })
                {
                    cand.step = SolveStep::Bind(
                        v,
                        Gen::SeqUpTo {
                            elements,
                            max_len,
                            nonempty: matches!(kind, UnaryOp::Seq1 | UnaryOp::Iseq1),
                        },
                    );
                    cand.exact = false;
                    prio = 5;
                }
                // `x : seq(S) & x : seq(T)` (or `seq1`): the sequences over
                // `S /\ T`, which are only `[]` where that is empty
                // (`seq(0..1) /\ seq(2..3)`); both memberships still checked.
                if let SolveStep::Bind(_, Gen::In(set)) = &cand.step
                    && let EK::Unary(kind @ (UnaryOp::Seq | UnaryOp::Seq1), elements) = &set.kind
                    && let Some(other) = other_sequence_set(v, &pending, i)
                {
                    let span = set.span;
                    let both = binary(BinaryOp::Inter, (**elements).clone(), other, span);
                    cand.step = SolveStep::Bind(
                        v,
                        Gen::In(CExpr {
                            kind: EK::Unary(*kind, Box::new(both)),
                            span,
                        }),
                    );
                    cand.exact = false;
                }
                // `(x, y) : S` with `x + y = e` elsewhere: `x` from
                // `dom(S)`, then `y` from the equation, the membership a
                // check (`{x, y | (x, y) : W & x * y = p}`: the products
                // of a hundred first components, not of every pair).
                if let SolveStep::BindPattern(Pattern::Pair(l, r), set) = &cand.step
                    && let (&Pattern::Slot(x), &Pattern::Slot(y)) = (&**l, &**r)
                    && set_cost(set) < 8
                {
                    let solves = |from: u32, to: u32| {
                        let mut with = bound.clone();
                        with.push(from);
                        let ready = |e: &CExpr| is_ready(e, vars, &with);
                        conjuncts
                            .iter()
                            .zip(&done)
                            .enumerate()
                            .any(|(j, (c, done))| {
                                j != i
                                    && !done
                                    && matches!(&c.kind, PK::Cmp(Cmp::Eq, a, b)
                                    if solve_equation(a, b, to, is_int(to), &ready).is_some())
                            })
                    };
                    let projection = if solves(x, y) {
                        Some((x, UnaryOp::Dom))
                    } else if solves(y, x) {
                        Some((y, UnaryOp::Ran))
                    } else {
                        None
                    };
                    if let Some((first, op)) = projection {
                        let values = CExpr {
                            kind: EK::Unary(op, Box::new(set.clone())),
                            span: set.span,
                        };
                        cand.step = SolveStep::Bind(first, Gen::In(values));
                        cand.exact = false;
                    }
                }
                // `a ^ b = s` with `size(a) = 4` elsewhere: only the cuts
                // that give `a` 4 elements.
                if let SolveStep::BindPattern(pat, set) = &mut cand.step
                    && let EK::Splits(_, sizes, _) = &mut set.kind
                {
                    let mut leaves = Vec::new();
                    pattern_leaves(pat, &mut leaves);
                    for (size, leaf) in sizes.iter_mut().zip(leaves) {
                        if let Some(w) = leaf {
                            *size = exact_size(w, &pending);
                        }
                    }
                }
                // A domain cut by `--bound-integers` comes last: a variable
                // bound otherwise first may give this one an exact
                // generator (`c = d + d` once `d` is bound, rather than
                // `c > 3` cut to 4..MAXINT).
                if cand_bounded.get() {
                    prio += 8;
                }
                // A draw from an infinite set gives way to the variable's
                // equation, which waits for the variables it reads.
                if defined[k] && infinite_draw {
                    prio += 8;
                }
                if let Some(generator) = plain_generator(&cand, v)
                    && plain[k].as_ref().is_none_or(|p| prio < p.0)
                {
                    plain[k] = Some((prio, generator, cand_bounded.get()));
                }
                // Between generators of equal priority, the variable more
                // pending conjuncts read: binding it decides or solves more
                // of them (`z = y & x1 = z & ret1 = x1 * x1 & ret2 = y * y &
                // ret1 /= ret2`: `y` first, and the check fails before `x`
                // is drawn).
                if best
                    .as_ref()
                    .is_none_or(|b| prio < b.0 || (prio == b.0 && degree > best_degree))
                {
                    best = Some((prio, i, cand, cand_bounded.get()));
                    best_degree = degree;
                }
            }
        }
        // A generator without a bound of its own (or cut by
        // `--bound-integers`, or drawing from an infinite set) gives way
        // to implication cases where they hold (`y : NATURAL & (x = 0 =>
        // y = 1) & (x > 0 => y = ...)`).
        if let Some((_, _, cand, bounded)) = &mut best
            && let SolveStep::Bind(w, generator) = &mut cand.step
            && (*bounded
                || matches!(generator, Gen::Unbounded(..))
                || matches!(generator, Gen::In(s) if over_infinite(s)))
            && let Some(cases) = cases_of(*w, &conjuncts, &done, vars, &bound, machine_vars)
        {
            let otherwise = std::mem::replace(generator, Gen::Type(Type::Bool));
            *generator = Gen::Cases {
                cases,
                otherwise: Box::new(otherwise),
            };
            cand.exact = false;
        }
        // The interval the comparisons allow `v` (cut to MININT..MAXINT
        // on a side they leave open, with `fallback`).
        let compared = |v: u32, fallback| {
            interval_for(
                v,
                static_of(v),
                &conjuncts,
                &done,
                vars,
                &bound,
                usize::MAX,
                &static_of,
                fallback,
            )
        };
        // The generator of the variable's type (or of the interval
        // its comparisons allow), the last resort.
        let type_fallback = |v: u32| {
            let k = vars.iter().position(|&x| x == v).unwrap_or(0);
            let interval = || compared(v, fallback);
            let pending = Pending {
                conjuncts: &conjuncts,
                done: &done,
                vars,
                bound: &bound,
            };
            match types.and_then(|t| t.get(k)) {
                Some(t) if type_is_finite(t) => Gen::Type(t.clone()),
                Some(Type::Int) if let Some(interval) = interval() => Gen::In(interval),
                // `--bound-integers`: a sequence of integers whose size the
                // predicate bounds (`front(x) = [1, 2, 3, 4]`): the
                // sequences up to that size over MININT..MAXINT (and the
                // elements of the known part, `ran([1, 2, 3, 4])`).
                Some(Type::Set(pair))
                    if let Type::Pair(index, element) = &**pair
                        && **index == Type::Int
                        && **element == Type::Int
                        && let Some((lo, hi, span, used)) = fallback
                        && let Some(max_len) = size_bound(v, &pending) =>
                {
                    used.set(true);
                    let bounded = binary(
                        BinaryOp::Interval,
                        int_lit(lo, span),
                        int_lit(hi, span),
                        span,
                    );
                    let elements = match shortened_to(v, &pending) {
                        Some(known) => {
                            let span = known.span;
                            let known = CExpr {
                                kind: EK::Unary(UnaryOp::Ran, Box::new(known)),
                                span,
                            };
                            binary(BinaryOp::Union, bounded, known, span)
                        }
                        None => bounded,
                    };
                    Gen::SeqUpTo {
                        elements,
                        max_len,
                        nonempty: false,
                    }
                }
                // `--bound-integers`: a type of integers in pairs or sets
                // (`x : S * NAT1` with nothing bounding the integer) is
                // enumerated with its integers within MININT..MAXINT.
                Some(t) if fallback.is_some() && type_is_enumerable_within_bounds(t) => {
                    if let Some((_, _, _, used)) = fallback {
                        used.set(true);
                    }
                    Gen::Type(t.clone())
                }
                ty => Gen::Unbounded(
                    names
                        .get(k)
                        .map_or_else(|| "?".to_string(), |n| n.name.clone()),
                    ty.cloned(),
                ),
            }
        };
        // Open cases (`v * k = e` where `k` is 0, `C or v : S` where `C`
        // holds): whatever else generates `v`.
        if let Some((_, _, cand, bounded)) = &mut best
            && cand.open
            && let SolveStep::Bind(w, Gen::Cases { otherwise, .. }) = &mut cand.step
        {
            let k = vars.iter().position(|x| x == w).unwrap_or(0);
            **otherwise = match plain[k].take() {
                Some((_, generator, cut)) => {
                    *bounded |= cut;
                    generator
                }
                None => type_fallback(*w),
            };
        }
        match best {
            Some((_, i, cand, bounded)) => {
                if let (true, Some((_, _, _, used))) = (bounded, fallback) {
                    used.set(true);
                }
                done[i] = cand.exact;
                match cand.step {
                    SolveStep::BindPattern(ref pat, _) => pattern_slots(pat, &mut bound),
                    SolveStep::Bind(v, _) => bound.push(v),
                    SolveStep::Check(_) | SolveStep::Scan(_) => unreachable!("generators bind"),
                }
                steps.push(cand.step);
            }
            None => {
                let (v, generator) = if let Some((v, cases)) =
                    implication_cases(&conjuncts, &done, vars, &bound, machine_vars)
                {
                    // `(C => v = e) & (not(C) => v = f)`: the values of the
                    // cases that hold.
                    let otherwise = Box::new(type_fallback(v));
                    (v, Gen::Cases { cases, otherwise })
                } else if let Some((v, generator)) =
                    applied_domain_generator(&conjuncts, &done, vars, &bound)
                {
                    // `f(x)` is only defined for x in dom(f): enumerate
                    // that, keeping the conjunct as a check; within the
                    // interval comparisons give an integer `x` on both
                    // sides (`y > 7 & y < x & perfect(y) = TRUE`), which
                    // lists the domain of an `f` kept symbolic.
                    let k = vars.iter().position(|&x| x == v).unwrap_or(0);
                    let is_int = matches!(types.and_then(|t| t.get(k)), Some(Type::Int));
                    match (generator, is_int.then(|| compared(v, None)).flatten()) {
                        (Gen::In(dom), Some(interval)) => {
                            let span = dom.span;
                            (v, Gen::In(binary(BinaryOp::Inter, dom, interval, span)))
                        }
                        (generator, _) => (v, generator),
                    }
                } else {
                    // A variable its type or interval bounds first: once
                    // bound, it may bound the others (`n` before `arr :
                    // 1..n --> INTEGER`).
                    let mut unbound = vars.iter().filter(|v| !is_bound[**v as usize]);
                    let &first = unbound.clone().next().expect("an unbound variable");
                    unbound
                        .find_map(|&v| {
                            let g = type_fallback(v);
                            (!matches!(g, Gen::Unbounded(..))).then_some((v, g))
                        })
                        .unwrap_or_else(|| (first, type_fallback(first)))
                };
                bound.push(v);
                steps.push(SolveStep::Bind(v, generator));
            }
        }
        for &s in &bound {
            if let Some(b) = is_bound.get_mut(s as usize) {
                *b = true;
            }
        }
        emit_checks(&is_bound, &mut done, &mut steps);
    }
    let mut solver = Solver {
        vars: vars.to_vec(),
        steps,
        undefined,
        span,
        condition: None,
        by_solver: None,
        image: None,
    };
    super::scan::fuse(&mut solver);
    solver
}

/// Whether a step of `plan` may enumerate an integer that nothing bounds
/// (an error when it runs).
pub(crate) fn enumerates_unbounded(plan: &Solver) -> bool {
    fn unbounded(g: &Gen) -> bool {
        match g {
            Gen::Unbounded(..) => true,
            Gen::Cases { otherwise, .. } | Gen::Recurrence { otherwise, .. } => {
                unbounded(otherwise)
            }
            _ => false,
        }
    }
    plan.steps
        .iter()
        .any(|s| matches!(s, SolveStep::Bind(_, g) if unbounded(g)))
}

/// Candidates a plan generates, from the sets its generators draw from
/// where their sizes are literal (`x : 1..9`, `c : {a, b}`, `f : S -->
/// BOOL` with a given set `S`); other plain sets count as one (a lower
/// bound), a set of functions or subsets over sets of unknown size as
/// more than [`super::cp::AUTO_THRESHOLD`] (`c : 1..n --> coins`); one
/// for a single generator of scalars.
pub(crate) fn candidate_space(plan: &Solver) -> f64 {
    let mut of_sets = false;
    let sizes: Vec<f64> = plan
        .steps
        .iter()
        .map(|step| match step {
            SolveStep::Bind(_, Gen::In(set)) | SolveStep::BindPattern(_, set) => {
                of_sets |= set_of_sets(set);
                literal_size(set)
                    .unwrap_or_else(|| if set_of_sets(set) { f64::INFINITY } else { 1.0 })
            }
            _ => 1.0,
        })
        .filter(|&n| n > 1.0)
        .collect();
    // One scalar generator alone: enumeration tests each candidate once,
    // which the solver cannot beat (it would list them all, blocking each).
    if sizes.len() < 2 && !of_sets {
        return 1.0;
    }
    sizes.iter().product()
}

/// Whether `set` is a set of relations, functions or subsets.
fn set_of_sets(set: &CExpr) -> bool {
    match &set.kind {
        EK::Memo(m) => set_of_sets(&m.expr),
        // `IF keys = domain THEN {candidate} ELSE space END`
        // ([`the_one_where_domain_is`]): as large as the space.
        EK::IfThenElse(_, _, space) => set_of_sets(space),
        EK::Binary(op, _, _) => op.is_relation_set(),
        EK::Unary(op, _) => matches!(
            op,
            UnaryOp::Pow
                | UnaryOp::Pow1
                | UnaryOp::Fin
                | UnaryOp::Fin1
                | UnaryOp::Seq
                | UnaryOp::Seq1
                | UnaryOp::Iseq
                | UnaryOp::Iseq1
                | UnaryOp::Perm
        ),
        _ => false,
    }
}

/// The number of elements of `set` where it is a literal, an interval
/// between literals, or a set of functions or subsets over such sets.
fn literal_size(set: &CExpr) -> Option<f64> {
    match &set.kind {
        EK::Memo(m) => literal_size(&m.expr),
        EK::IfThenElse(_, _, space) => literal_size(space),
        EK::Lit(Value::Set(s)) => Some(s.len() as f64),
        EK::Binary(BinaryOp::Interval, a, b) => match (&a.kind, &b.kind) {
            (EK::Lit(Value::Int(a)), EK::Lit(Value::Int(b))) => Some((b - a + 1).max(0) as f64),
            _ => None,
        },
        EK::Binary(op, a, b) if op.is_relation_set() => {
            let (a, b) = (literal_size(a)?, literal_size(b)?);
            Some(match op.arrow_properties() {
                Some((true, _, _)) => b.powf(a),
                Some((false, _, _)) => (b + 1.0).powf(a),
                None => 2f64.powf(a * b),
            })
        }
        EK::Unary(UnaryOp::Pow | UnaryOp::Pow1 | UnaryOp::Fin | UnaryOp::Fin1, a) => {
            Some(2f64.powf(literal_size(a)?))
        }
        _ => None,
    }
}

/// Whether enumerating a type is reasonable once its integers range over
/// MININT..MAXINT (`--bound-integers`): integers in tuples, and sets of
/// integers, but not sets of tuples of integers (`seq(INTEGER)` is every
/// relation over the range: 2 to the power 25 with ProB's defaults).
pub fn type_is_enumerable_within_bounds(t: &Type) -> bool {
    match t {
        Type::Set(a) if **a == Type::Int => true,
        Type::Set(a) => type_is_finite(a),
        Type::Pair(a, b) => {
            type_is_enumerable_within_bounds(a) && type_is_enumerable_within_bounds(b)
        }
        _ => type_is_finite_within_bounds(t),
    }
}

/// Whether a type is finite once its integers range over MININT..MAXINT
/// (`--bound-integers`): every type but those with strings or recursive
/// free types.
pub fn type_is_finite_within_bounds(t: &Type) -> bool {
    match t {
        Type::Bool | Type::Given(_) | Type::Int => true,
        Type::String | Type::Free(_) => false,
        Type::Pair(a, b) => type_is_finite_within_bounds(a) && type_is_finite_within_bounds(b),
        Type::Set(a) => type_is_finite_within_bounds(a),
    }
}

/// Is every value of this type enumerable (no integers or strings inside)?
pub fn type_is_finite(t: &Type) -> bool {
    match t {
        Type::Bool | Type::Given(_) => true,
        Type::Int | Type::String | Type::Free(_) => false,
        Type::Pair(a, b) => type_is_finite(a) && type_is_finite(b),
        Type::Set(a) => type_is_finite(a),
    }
}

struct Candidate {
    step: SolveStep,
    exact: bool,
    /// The step is [`Gen::Cases`] whose `otherwise` the plan fills with
    /// the variable's best generator that needs no condition (see
    /// [`plain_generator`]), or its type's.
    open: bool,
}

/// Can conjunct `c` generate variable `v` given the `bound` ones? Returns
/// a priority (lower is cheaper) and the step. `typed`: `v` is a
/// machine's variable (a constant, `ANY`) of an infinite type, which
/// nothing but a witness can generate, or an image plan's (see
/// [`exists_witness`]);
/// `machine`: a machine's variable (see [`exists_cases`]).
fn generator(
    c: &CPred,
    v: u32,
    vars: &[u32],
    bound: &[u32],
    typed: bool,
    machine: bool,
    int: bool,
) -> Option<(u32, Candidate)> {
    let ready = |e: &CExpr| is_ready(e, vars, bound);
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    match &c.kind {
        PK::Cmp(Cmp::Eq, a, b) => {
            // The side opposite the one `shape` matches, where it is ready.
            let other = |shape: &dyn Fn(&CExpr) -> bool| -> Option<&CExpr> {
                if shape(a) && ready(b) {
                    Some(b)
                } else if shape(b) && ready(a) {
                    Some(a)
                } else {
                    None
                }
            };
            let e = if let Some(e) = other(&is_v) {
                e
            } else {
                // `{.., v, ..} = e`: `v` is an element of `e` (the
                // equality stays a check).
                let in_enum =
                    |x: &CExpr| matches!(&x.kind, EK::SetEnum(items) if items.iter().any(is_v));
                // `(x, y) = e`: the components of `e` (ProB's `p1, p2 :
                // ((p1, p2) = CHOOSE(xx))`).
                // A component that is no variable (`(-n, n, s) = e`)
                // matches anything: the equality stays a check.
                let tuple = |t: &CExpr, e: &CExpr| {
                    if !matches!(t.kind, EK::Binary(BinaryOp::Maplet, ..)) || !ready(e) {
                        return None;
                    }
                    let (pat, exact) = match pattern(t, vars, bound) {
                        Some(pat) => (pat, true),
                        None => (loose_pattern(t, vars, bound)?, false),
                    };
                    let mut fresh = Vec::new();
                    pattern_slots(&pat, &mut fresh);
                    fresh.contains(&v).then(|| {
                        let one = CExpr {
                            kind: EK::SetEnum(vec![e.clone()]),
                            span: e.span,
                        };
                        (pat, one, exact)
                    })
                };
                if let Some((pat, one, exact)) = tuple(a, b).or_else(|| tuple(b, a)) {
                    return Some((
                        0,
                        Candidate {
                            step: SolveStep::BindPattern(pat, one),
                            exact,
                            open: false,
                        },
                    ));
                }
                // `x ^ y = s`: the ways to cut `s`.
                if let Some((pat, splits, exact)) = concatenation(a, b, v, vars, bound)
                    .or_else(|| concatenation(b, a, v, vars, bound))
                {
                    return Some((
                        1,
                        Candidate {
                            step: SolveStep::BindPattern(pat, splits),
                            exact,
                            open: false,
                        },
                    ));
                }
                // `v + d = e`: `v = e - d`; `v * k = e`: `v = e / k` where
                // `k` divides `e`, and where `k` is 0 whatever else
                // generates `v` (filled in by the plan).
                match solve_equation(a, b, v, int, &ready) {
                    Some(Solved::Value(value)) => {
                        return Some((
                            1,
                            Candidate {
                                step: SolveStep::Bind(v, Gen::Eq(value)),
                                exact: false,
                                open: false,
                            },
                        ));
                    }
                    Some(Solved::Quotient { divisor, value }) => {
                        let span = divisor.span;
                        let nonzero = CPred {
                            kind: PK::Cmp(Cmp::Neq, divisor, int_lit(0, span)),
                            span,
                        };
                        return Some((
                            1,
                            Candidate {
                                step: SolveStep::Bind(
                                    v,
                                    Gen::Cases {
                                        cases: vec![(nonzero, Choice::One(value))],
                                        otherwise: Box::new(Gen::Type(Type::Bool)),
                                    },
                                ),
                                exact: false,
                                open: true,
                            },
                        ));
                    }
                    None => {}
                }
                // `v \/ w = S`: v is a subset of S (the equality stays a
                // check).
                let in_union = |x: &CExpr| matches!(&x.kind, EK::Binary(BinaryOp::Union, l, r) if is_v(l) || is_v(r));
                let union_of = other(&in_union);
                // `{.., v, ..} = e` or `{.., v, ..} \/ w = e`: `v` is an
                // element of `e` (the equality stays a check).
                let enum_in_union = |x: &CExpr| matches!(&x.kind, EK::Binary(BinaryOp::Union, l, r) if in_enum(l) || in_enum(r));
                if let Some(e) = other(&in_enum).or_else(|| other(&enum_in_union)) {
                    return Some((
                        set_cost(e) + 1,
                        Candidate {
                            step: SolveStep::Bind(v, Gen::In(e.clone())),
                            exact: false,
                            open: false,
                        },
                    ));
                }
                if let Some(whole) = union_of {
                    let pow = CExpr {
                        kind: EK::Unary(UnaryOp::Pow, Box::new(whole.clone())),
                        span: whole.span,
                    };
                    return Some((
                        5,
                        Candidate {
                            step: SolveStep::Bind(v, Gen::In(pow)),
                            exact: false,
                            open: false,
                        },
                    ));
                }
                return None;
            };
            Some((
                0,
                Candidate {
                    step: SolveStep::Bind(v, Gen::Eq(e.clone())),
                    exact: true,
                    open: false,
                },
            ))
        }
        PK::Member(a, s, false) if ready(s) => {
            if is_v(a) {
                return Some((
                    set_cost(s),
                    Candidate {
                        step: SolveStep::Bind(v, Gen::In(s.clone())),
                        exact: true,
                        open: false,
                    },
                ));
            }
            // `e |-> v : S` (`v |-> e : S`) with `e` known: `v` is in the
            // image of `{e}` under `S` (under `S~`).
            if let EK::Binary(BinaryOp::Maplet, l, r) = &a.kind {
                let image = |rel: CExpr, e: &CExpr| {
                    let span = a.span;
                    let one = CExpr {
                        kind: EK::SetEnum(vec![e.clone()]),
                        span,
                    };
                    CExpr {
                        kind: EK::Image(Box::new(rel), Box::new(one)),
                        span,
                    }
                };
                let values = if is_v(r) && ready(l) && !matches!(l.kind, EK::Read(_)) {
                    Some(image(s.clone(), l))
                } else if is_v(l) && ready(r) && !matches!(r.kind, EK::Read(_)) {
                    let inverse = CExpr {
                        kind: EK::Unary(UnaryOp::Inverse, Box::new(s.clone())),
                        span: s.span,
                    };
                    Some(image(inverse, r))
                } else {
                    None
                };
                // Dearer than a pattern over `S` (`(z, y) : graph` beside
                // `(i - 1, x, z) : trclos`): an image scans `S`, or
                // applies a symbolic one.
                if let Some(values) = values {
                    return Some((
                        set_cost(s) + 3,
                        Candidate {
                            step: SolveStep::Bind(v, Gen::In(values)),
                            exact: true,
                            open: false,
                        },
                    ));
                }
                // `e |-> x ^ y : S` with `e` known: the ways to cut each
                // sequence of `S[{e}]`, the membership a check
                // (LL_LeftFactoring's `X |-> ([X] ^ g) : Rules`).
                if ready(l)
                    && let Some((pat, mut splits, _)) =
                        concatenation(r, &image(s.clone(), l), v, vars, bound)
                {
                    if let EK::Splits(_, _, each) = &mut splits.kind {
                        *each = true;
                    }
                    return Some((
                        set_cost(s) + 3,
                        Candidate {
                            step: SolveStep::BindPattern(pat, splits),
                            exact: false,
                            open: false,
                        },
                    ));
                }
            }
            let pat = pattern(a, vars, bound)?;
            let mut fresh = Vec::new();
            pattern_slots(&pat, &mut fresh);
            if !fresh.contains(&v) {
                return None;
            }
            Some((
                set_cost(s) + 1,
                Candidate {
                    step: SolveStep::BindPattern(pat, s.clone()),
                    exact: true,
                    open: false,
                },
            ))
        }
        // `v = e1 & .. or v = e2 & ..`: v is one of e1, e2 (the disjunction
        // stays a check).
        PK::Or(..) => {
            // `(x = e1 & y = f1) or (x = e2 & y = f2)`: the pairs, before
            // each variable's values on its own.
            if let Some((pat, tuples, exact)) = disjunct_tuples(c, v, vars, bound) {
                return Some((
                    1,
                    Candidate {
                        step: SolveStep::BindPattern(pat, tuples),
                        exact,
                        open: false,
                    },
                ));
            }
            let (mut values, mut sets) = (Vec::new(), Vec::new());
            if disjunct_candidates(c, v, int, &ready, &mut values, &mut sets) {
                // Listed values only (`v = e1 or v = e2`) are as good as
                // an enumerated set, and better than any set of functions
                // the typing conjunct gives (`Trans : Nodes --> (Labels
                // --> POW(Nodes)) & (Trans = A or Trans = B)`).
                let cost = match sets.iter().map(set_cost).max() {
                    None => 1,
                    Some(c) => 2 + c,
                };
                return Some((
                    cost,
                    Candidate {
                        step: SolveStep::Bind(v, Gen::In(union_of(values, sets, c.span))),
                        exact: false,
                        open: false,
                    },
                ));
            }
            // `C or v : S`: `S` where `C` fails, else whatever else
            // generates `v` (filled in by the plan).
            let (fails, set) = unless_member(c, v, vars, bound)?;
            Some((
                set_cost(&set) + 3,
                Candidate {
                    step: SolveStep::Bind(
                        v,
                        Gen::Cases {
                            cases: vec![(fails, Choice::Each(set))],
                            otherwise: Box::new(Gen::Type(Type::Bool)),
                        },
                    ),
                    exact: false,
                    open: true,
                },
            ))
        }
        // `{.., v, ..} <: S`: v is an element of S (the inclusion stays a
        // check).
        PK::Subset(a, s, _, false)
            if ready(s) && matches!(&a.kind, EK::SetEnum(items) if items.iter().any(is_v)) =>
        {
            Some((
                set_cost(s) + 1,
                Candidate {
                    step: SolveStep::Bind(v, Gen::In(s.clone())),
                    exact: false,
                    open: false,
                },
            ))
        }
        // `#u.(P(u) & v = E(u))`: v is one of the values of E over the
        // solutions of P (`x_n = x \/ {u}` of TLA2B's translations; the
        // `#` stays a check).
        PK::Exists(inner) => {
            if let Some(values) = exists_member(inner, v, vars, bound) {
                return Some((
                    set_cost(&values) + 1,
                    Candidate {
                        step: SolveStep::Bind(v, Gen::In(values)),
                        exact: false,
                        open: false,
                    },
                ));
            }
            let Some((witness, rest)) = exists_witness(inner, v, vars, bound, typed) else {
                // Values only in cases: where some case holds for every
                // solution, else whatever else generates `v`.
                let (conditions, choice) =
                    exists_cases(inner, v, vars, bound).filter(|_| machine)?;
                let step = if conditions.is_empty() {
                    SolveStep::Bind(v, Gen::In(choice.expr().clone()))
                } else {
                    let condition = all_of(conditions, c.span);
                    SolveStep::Bind(
                        v,
                        Gen::Cases {
                            cases: vec![(condition, choice)],
                            otherwise: Box::new(Gen::Type(Type::Bool)),
                        },
                    )
                };
                let open = matches!(step, SolveStep::Bind(_, Gen::Cases { .. }));
                return Some((
                    20,
                    Candidate {
                        step,
                        exact: false,
                        open,
                    },
                ));
            };
            let span = c.span;
            let one = CExpr {
                kind: EK::SetEnum(vec![witness]),
                span,
            };
            let values = CExpr {
                kind: EK::Quantified(
                    crate::frontends::b::ast::QuantifiedExprKind::Union,
                    Box::new(rest),
                    Box::new(one),
                ),
                span,
            };
            // Only where nothing else generates `v` (before its type).
            Some((
                20,
                Candidate {
                    step: SolveStep::Bind(v, Gen::In(values)),
                    exact: false,
                    open: false,
                },
            ))
        }
        PK::Subset(a, s, strict, false) if is_v(a) && ready(s) => {
            let pow = CExpr {
                kind: EK::Unary(UnaryOp::Pow, Box::new(s.clone())),
                span: s.span,
            };
            Some((
                4,
                Candidate {
                    step: SolveStep::Bind(v, Gen::In(pow)),
                    exact: !strict,
                    open: false,
                },
            ))
        }
        _ => None,
    }
}

/// For `v : S --> T` (`space`; also `>->`, `-->>`, `>->>`) and a conjunct
/// `!x.(x : S2 => v(x) = E)` not yet used: `IF S2 = S THEN {%x.(x : S2 |
/// E)} ELSE space END`, where `E` and `S2` read only `bound` variables of
/// `vars` (`pid : Agents --> NATURAL & !p.(p : Agents => pid(p) = ...)`:
/// one candidate instead of every function, and none cut by MAXINT).
/// Where `E` reads `v` too (a recurrence), [`Gen::Recurrence`] with the
/// points that equalities `v(a) = e` give; also where `S` is a named set
/// of functions (`c : MSG`), whose common domain is found at run time.
fn pointwise_definition(
    v: u32,
    space: &CExpr,
    conjuncts: &[CPred],
    done: &[bool],
    vars: &[u32],
    bound: &[u32],
) -> Option<Gen> {
    let domain = match &space.kind {
        EK::Binary(
            BinaryOp::TotalFunction
            | BinaryOp::TotalInjection
            | BinaryOp::TotalSurjection
            | BinaryOp::TotalBijection,
            domain,
            _,
        ) => Some(&**domain),
        // A known set of scalars (`x : BOOL`) holds no function: nothing
        // to look for among the conjuncts (thousands in generated SAT
        // encodings, for each of thousands of variables).
        EK::Lit(Value::Set(items)) if items.first().is_none_or(|i| !matches!(i, Value::Set(_))) => {
            return None;
        }
        EK::Read(_) | EK::Lit(_) => None,
        _ => return None,
    };
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    let reads = |e: &CExpr| {
        let mut slots = Vec::new();
        expr_slots(e, &mut slots);
        slots
    };
    let known = |s: &u32| !vars.contains(s) || bound.contains(s);
    let ready = |e: &CExpr| reads(e).iter().all(|s| *s != v && known(s));
    let by_quantifier = conjuncts.iter().zip(done).find_map(|(c, &used)| {
        if used {
            return None;
        }
        let (solver, x, over, q) = single_forall(c)?;
        let at_x = |e: &CExpr| applied_at(e, &is_v, x);
        let by_elements;
        let body = match (image_at(q, &is_v, x), &q.kind) {
            (Some(body), _) => body,
            // `size(v(x)) = n & !j.(j : 1..n => v(x)(j) = E)`: the
            // sequence `%j.(j : 1..n | E)` (the conjuncts are still checked).
            (None, PK::And(parts)) => {
                by_elements = parts.iter().find_map(|p| elementwise(p, &at_x))?;
                &by_elements
            }
            _ => return None,
        };
        if !ready(over) {
            return None;
        }
        let span = c.span;
        if !ready(body) {
            // A recurrence: `E` reads `v` and otherwise what is known.
            let slots = reads(body);
            if !slots.iter().all(|s| *s == v || known(s)) {
                return None;
            }
            let pairs = point_pairs(v, conjuncts, done, &ready);
            return Some(Gen::Recurrence {
                points: CExpr {
                    kind: EK::SetEnum(pairs),
                    span,
                },
                x,
                over: over.clone(),
                body: body.clone(),
                domain: domain.cloned(),
                otherwise: Box::new(Gen::In(space.clone())),
            });
        }
        let domain = domain?;
        Some(Gen::In(the_one_where_domain_is(
            over.clone(),
            domain,
            lambda(solver, body, span),
            space,
        )))
    });
    // Over a small finite space the equations are better checked: they
    // may read what an enclosing binder solves for (`#x.(x : 1..4 >->> S
    // & t = x(1))` defines `t`). Over one too large to list
    // (`volume : OBJECTS --> 1..100` and `volume(o1) = 34 & ...`: 10^14
    // functions) they give the one candidate.
    by_quantifier.or_else(|| {
        let domain = domain?;
        let unlistable = literal_size(space).is_some_and(|n| n > POINTWISE_SPACE);
        (over_infinite(space) || unlistable)
            .then(|| point_equalities(v, space, domain, conjuncts, done, &ready))
            .flatten()
            .map(Gen::In)
    })
}

/// Functions in a space beyond which equations `v(a) = e` give `v`'s
/// candidate rather than filter the space's functions.
const POINTWISE_SPACE: f64 = 1e6;

/// `!x.(x : S => P)` of one variable drawn from one set: its binder,
/// the variable, `S` and `P`.
fn single_forall(p: &CPred) -> Option<(&Solver, u32, &CExpr, &CPred)> {
    let PK::ForAll(solver, q) = &p.kind else {
        return None;
    };
    let [x] = solver.vars[..] else {
        return None;
    };
    let [SolveStep::Bind(_, Gen::In(over))] = &solver.steps[..] else {
        return None;
    };
    Some((solver, x, over, q))
}

/// Whether `e` is `w(x)` for a `w` that `is_w` accepts and the bound
/// variable `x` (frame slot).
fn applied_at(e: &CExpr, is_w: &dyn Fn(&CExpr) -> bool, x: u32) -> bool {
    matches!(&e.kind, EK::Apply(w, arg)
        if is_w(w) && matches!(arg.kind, EK::Read(Slot::Frame(k)) if k == x))
}

/// `E` where `q` is `w(x) = E` or `E = w(x)` ([`applied_at`]).
fn image_at<'q>(q: &'q CPred, is_w: &dyn Fn(&CExpr) -> bool, x: u32) -> Option<&'q CExpr> {
    match &q.kind {
        PK::Cmp(Cmp::Eq, a, b) if applied_at(a, is_w, x) => Some(b),
        PK::Cmp(Cmp::Eq, a, b) if applied_at(b, is_w, x) => Some(a),
        _ => None,
    }
}

/// `%x.(x : S | body)` over the binder of `!x.(x : S => ..)`.
fn lambda(solver: &Solver, body: &CExpr, span: Span) -> CExpr {
    CExpr {
        kind: EK::Lambda(
            Box::new(Solver {
                condition: None,
                by_solver: None,
                ..solver.clone()
            }),
            Box::new(body.clone()),
        ),
        span,
    }
}

/// For `!j.(j : R => w(j) = E)` where `at_x(w)` (`w` is `v(x)`): the
/// function `%j.(j : R | E)` that `w` must be.
fn elementwise(p: &CPred, at_x: &dyn Fn(&CExpr) -> bool) -> Option<CExpr> {
    let (solver, j, _, q) = single_forall(p)?;
    Some(lambda(solver, image_at(q, at_x, j)?, p.span))
}

/// The pairs `a |-> e` of the conjuncts `v(a) = e` (or `e = v(a)`) not
/// yet used, with every `a` and `e` `ready`.
fn point_pairs(
    v: u32,
    conjuncts: &[CPred],
    done: &[bool],
    ready: &dyn Fn(&CExpr) -> bool,
) -> Vec<CExpr> {
    let at = |e: &CExpr| match &e.kind {
        EK::Apply(f, arg) if matches!(f.kind, EK::Read(Slot::Frame(s)) if s == v) => {
            Some((**arg).clone())
        }
        _ => None,
    };
    conjuncts
        .iter()
        .zip(done)
        .filter(|(_, used)| !**used)
        .filter_map(|(c, _)| {
            let PK::Cmp(Cmp::Eq, a, b) = &c.kind else {
                return None;
            };
            let (arg, image) = match (at(a), at(b)) {
                (Some(arg), _) => (arg, b),
                (None, Some(arg)) => (arg, a),
                (None, None) => return None,
            };
            (ready(&arg) && ready(image)).then(|| CExpr {
                kind: EK::Binary(
                    BinaryOp::Maplet,
                    Box::new(arg),
                    Box::new(CExpr::clone(image)),
                ),
                span: c.span,
            })
        })
        .collect()
}

/// For `v : S --> T` (`space`, with domain `S`, infinite) and conjuncts
/// `v(a) = e` not yet used, with every `a` and `e` `ready`: `IF dom(P) = S THEN {P}
/// ELSE space END` for `P = {a |-> e, ...}` (`name : 0..3 >-> STRING &
/// name(0) = "" & name(1) = "one" & ...`: the one function the equations
/// give, where listing `space` is impossible). Where two equations give
/// one point two images, `P` is no function and the membership, still
/// checked, rejects it.
fn point_equalities(
    v: u32,
    space: &CExpr,
    domain: &CExpr,
    conjuncts: &[CPred],
    done: &[bool],
    ready: &dyn Fn(&CExpr) -> bool,
) -> Option<CExpr> {
    let pairs = point_pairs(v, conjuncts, done, ready);
    let span = pairs.first()?.span;
    let points = CExpr {
        kind: EK::SetEnum(pairs),
        span,
    };
    let keys = CExpr {
        kind: EK::Unary(UnaryOp::Dom, Box::new(points.clone())),
        span,
    };
    Some(the_one_where_domain_is(keys, domain, points, space))
}

/// `IF keys = domain THEN {candidate} ELSE space END`: the one function
/// a pointwise definition gives where it covers the space's domain,
/// else the space itself (its membership is checked either way).
fn the_one_where_domain_is(keys: CExpr, domain: &CExpr, candidate: CExpr, space: &CExpr) -> CExpr {
    let span = candidate.span;
    let covers = CPred {
        kind: PK::Cmp(Cmp::Eq, keys, domain.clone()),
        span,
    };
    CExpr {
        kind: EK::IfThenElse(
            Box::new(covers),
            Box::new(CExpr {
                kind: EK::SetEnum(vec![candidate]),
                span,
            }),
            Box::new(space.clone()),
        ),
        span,
    }
}

/// For `#u.(P & v = E)` (planned as `inner`): `E` and the plan of `P`
/// without the conditions that read `v` or another unbound variable of
/// `vars`, if nothing else of it reads them. A
/// witness with binders of its own is taken only for a machine's
/// variable of an infinite type (`typed`: a constant defined inside a
/// `#`) or an image plan's; a comprehension's is better left symbolic.
fn exists_witness(
    inner: &Solver,
    v: u32,
    vars: &[u32],
    bound: &[u32],
    typed: bool,
) -> Option<(CExpr, Solver)> {
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    let reads = |p: &CPred| {
        let mut slots = Vec::new();
        pred_slots(p, &mut slots);
        slots
    };
    let mut witness = None;
    let mut steps = Vec::with_capacity(inner.steps.len());
    for step in &inner.steps {
        if let SolveStep::Check(p) = step
            && reads(p).contains(&v)
        {
            if witness.is_none()
                && let PK::Cmp(Cmp::Eq, a, b) = &p.kind
            {
                let e = if is_v(a) {
                    b
                } else if is_v(b) {
                    a
                } else {
                    continue;
                };
                let mut slots = Vec::new();
                expr_slots(e, &mut slots);
                if !slots.contains(&v) {
                    witness = Some(e.clone());
                }
            }
            continue;
        }
        // A condition on another variable still unbound is left to the
        // `#`, which stays a check (`x, y : (#n.(x = s /|\ n & y = s \|/ n))`:
        // x's candidates need not wait for y).
        if let SolveStep::Check(p) = step
            && reads(p)
                .iter()
                .any(|s| *s != v && vars.contains(s) && !bound.contains(s))
        {
            continue;
        }
        steps.push(step.clone());
    }
    let witness = witness?;
    // A comprehension's witness that computes sets by binders of its own
    // (`{r | #m.(... & r = rec(..., modules: {m | ...}))}`) would build a
    // definition that is better left symbolic.
    if !typed && has_binder(&witness) {
        return None;
    }
    if steps
        .iter()
        .any(|s| matches!(s, SolveStep::Bind(_, Gen::Unbounded(..))))
    {
        return None;
    }
    let rest = Solver {
        steps,
        condition: None,
        by_solver: None,
        ..inner.clone()
    };
    let mut slots = Vec::new();
    solver_slots(&rest, &mut slots);
    expr_slots(&witness, &mut slots);
    let ready = slots
        .iter()
        .all(|s| *s != v && (!vars.contains(s) || bound.contains(s)));
    ready.then_some((witness, rest))
}

/// For `#u.(u = E & .. & v : S)` (or `v <: S`), where equalities with
/// ready expressions define every `u`: `LET u = E IN S END` (or its
/// subsets), the set `v` takes its values from; the `#` stays a check
/// (`TRK : (#urn.(urn = union(ran(nxt)) & TRK : dom(urn) --> ran(urn)))`:
/// the functions between two sets, not every relation of `TRK`'s type).
fn exists_member(inner: &Solver, v: u32, vars: &[u32], bound: &[u32]) -> Option<CExpr> {
    let defined = inner
        .steps
        .iter()
        .take_while(|s| matches!(s, SolveStep::Bind(_, Gen::Eq(e)) if is_ready(e, vars, bound)))
        .count();
    if defined != inner.vars.len() {
        return None;
    }
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    // The subsets of a relation before a function space (`TRK <: urn`
    // gives 2^card(urn) candidates, `dom(urn) --> ran(urn)` card(ran)^card(dom)).
    let checks = || {
        inner.steps[defined..].iter().filter_map(|step| match step {
            SolveStep::Check(c) => Some(c),
            _ => None,
        })
    };
    let set = checks()
        .find_map(|c| match &c.kind {
            PK::Subset(a, s, false, false) if is_v(a) && is_ready(s, vars, bound) => Some(CExpr {
                kind: EK::Unary(UnaryOp::Pow, Box::new(s.clone())),
                span: s.span,
            }),
            _ => None,
        })
        .or_else(|| {
            checks().find_map(|c| match &c.kind {
                PK::Member(a, s, false) if is_v(a) && is_ready(s, vars, bound) => Some(s.clone()),
                _ => None,
            })
        })?;
    let span = set.span;
    let definitions = Solver {
        steps: inner.steps[..defined].to_vec(),
        condition: None,
        by_solver: None,
        image: None,
        ..inner.clone()
    };
    Some(CExpr {
        kind: EK::Let(Box::new(definitions), Box::new(set)),
        span,
    })
}

/// For `x ^ y ^ .. = s` or `conc([x, y, ..]) = s` (`cat`, `s`) with `s` ready and the parts distinct
/// variables or ready expressions, `v` among the variables: the pattern of
/// the parts, the ways to cut `s` into as many (`CardTrick`'s `x, y : (x ^ y
/// = initial)`), a ready part cut at its size (`x ^ [c, c] ^ y = s`), and
/// whether the cuts are exactly the solutions (no ready part to check).
fn concatenation(
    cat: &CExpr,
    s: &CExpr,
    v: u32,
    vars: &[u32],
    bound: &[u32],
) -> Option<(Pattern, CExpr, bool)> {
    if !is_ready(s, vars, bound) {
        return None;
    }
    // The parts, left to right, of a left-nested `((a ^ b) ^ c)` or of
    // `conc([a, b, c])`.
    let mut parts = Vec::new();
    match &cat.kind {
        EK::Binary(BinaryOp::Concat, ..) => {
            let mut e = cat;
            while let EK::Binary(BinaryOp::Concat, a, b) = &e.kind {
                parts.push(&**b);
                e = a;
            }
            parts.push(e);
            parts.reverse();
        }
        EK::Unary(UnaryOp::Conc, items) if let EK::SeqEnum(items) = &items.kind => {
            parts.extend(items.iter());
        }
        _ => return None,
    }
    if parts.is_empty() {
        return None;
    }
    let mut pats = Vec::with_capacity(parts.len());
    let mut sizes = Vec::with_capacity(parts.len());
    for p in &parts {
        let EK::Read(Slot::Frame(slot)) = p.kind else {
            if !is_ready(p, vars, bound) {
                return None;
            }
            pats.push(Pattern::Any);
            sizes.push(Some(CExpr {
                kind: EK::Unary(UnaryOp::Size, Box::new((*p).clone())),
                span: p.span,
            }));
            continue;
        };
        if parts[..pats.len()]
            .iter()
            .any(|q| matches!(q.kind, EK::Read(Slot::Frame(t)) if t == slot))
        {
            return None;
        }
        pats.push(pattern(p, vars, bound)?);
        sizes.push(None);
    }
    if !pats
        .iter()
        .any(|p| matches!(p, Pattern::Slot(s) if *s == v))
    {
        return None;
    }
    let exact = !pats.iter().any(|p| matches!(p, Pattern::Any));
    let mut pats = pats.into_iter();
    let first = pats.next()?;
    let pat = pats.fold(first, |acc, p| Pattern::Pair(Box::new(acc), Box::new(p)));
    Some((
        pat,
        CExpr {
            kind: EK::Splits(Box::new(s.clone()), sizes, false),
            span: cat.span,
        },
        exact,
    ))
}

/// The leaves of a pattern left to right: the slot each binds (`None`
/// for one already bound).
fn pattern_leaves(p: &Pattern, out: &mut Vec<Option<u32>>) {
    match p {
        Pattern::Slot(s) => out.push(Some(*s)),
        Pattern::Bound(_) | Pattern::Any => out.push(None),
        Pattern::Pair(a, b) => {
            pattern_leaves(a, out);
            pattern_leaves(b, out);
        }
    }
}

/// The conjuncts not solved yet, and the variables bound so far: what the
/// look-ups for `size(v)` and `ran(v)` read.
struct Pending<'a> {
    conjuncts: &'a [CPred],
    done: &'a [bool],
    vars: &'a [u32],
    bound: &'a [u32],
}

impl Pending<'_> {
    /// The conjuncts not solved yet.
    fn conjuncts(&self) -> impl Iterator<Item = &PK> {
        self.conjuncts
            .iter()
            .zip(self.done)
            .filter(|(_, done)| !**done)
            .map(|(c, _)| &c.kind)
    }

    /// Whether every solver variable `e` reads is bound.
    fn ready(&self, e: &CExpr) -> bool {
        is_ready(e, self.vars, self.bound)
    }

    /// `e` from a pending `op(v) = e` (either way round) with `e` ready.
    fn equal_to(&self, op: UnaryOp, v: u32) -> Option<CExpr> {
        self.conjuncts().find_map(|c| match c {
            PK::Cmp(Cmp::Eq, a, b) if applied(a, op, v) && self.ready(b) => Some(b.clone()),
            PK::Cmp(Cmp::Eq, a, b) if applied(b, op, v) && self.ready(a) => Some(a.clone()),
            _ => None,
        })
    }
}

/// Whether `e` is `op(v)` (`size(v)`, `ran(v)`).
fn applied(e: &CExpr, op: UnaryOp, v: u32) -> bool {
    matches!(&e.kind, EK::Unary(o, x)
        if *o == op && matches!(x.kind, EK::Read(Slot::Frame(s)) if s == v))
}

/// `e` from a pending conjunct `size(v) = e` (either way round) with `e`
/// ready.
fn exact_size(v: u32, pending: &Pending) -> Option<CExpr> {
    pending.equal_to(UnaryOp::Size, v)
}

/// The generator of `v` that `step` gives without a condition: its own
/// (not the open cases of [`Candidate::open`]), or the image of the
/// bound part for `(bound, v) : S` (`S[{bound}]`, the membership staying a
/// check).
fn plain_generator(cand: &Candidate, v: u32) -> Option<Gen> {
    if cand.open {
        return None;
    }
    match &cand.step {
        SolveStep::Bind(w, generator) if *w == v => Some(generator.clone()),
        SolveStep::BindPattern(Pattern::Pair(l, r), set) if matches!(**r, Pattern::Slot(s) if s == v) =>
        {
            let key = bound_pattern_expr(l, set.span)?;
            let span = set.span;
            Some(Gen::In(CExpr {
                kind: EK::Image(
                    Box::new(set.clone()),
                    Box::new(CExpr {
                        kind: EK::SetEnum(vec![key]),
                        span,
                    }),
                ),
                span,
            }))
        }
        _ => None,
    }
}

/// A pattern of bound slots as the expression of its value.
fn bound_pattern_expr(p: &Pattern, span: Span) -> Option<CExpr> {
    Some(CExpr {
        kind: match p {
            Pattern::Slot(_) | Pattern::Any => return None,
            Pattern::Bound(s) => EK::Read(Slot::Frame(*s)),
            Pattern::Pair(a, b) => EK::Binary(
                BinaryOp::Maplet,
                Box::new(bound_pattern_expr(a, span)?),
                Box::new(bound_pattern_expr(b, span)?),
            ),
        },
        span,
    })
}

/// An equation solved for one variable (see [`solve_equation`]).
enum Solved {
    /// The one candidate value.
    Value(CExpr),
    /// `v * k = e` with `k` an expression: `e / k` where `k` is not zero;
    /// where it is, the equation does not determine `v`.
    Quotient {
        /// `k`.
        divisor: CExpr,
        /// `e / k`.
        value: CExpr,
    },
}

/// `a = b` solved for `v` where one side is `v` and the other `ready`, or,
/// for an integer `v`, where both sides are linear in `v` with a literal
/// coefficient (sums, differences and products by literals of `v` and
/// `ready` terms: `x + x + x = 60`, `2 * v - d = e`, `x2 + y2 = s` once
/// `x2` is bound), or one side is `v * k` or `k * v` with `k` ready: the
/// one candidate for `v`, which the equation, staying a check, keeps where
/// it holds (`r * 2 = x` gives `x / 2`, kept where 2 divides `x`).
/// `int`: whether `v` is an integer; a set `v` is solved only from `v = e`
/// (`v - d = e` is a set difference there, which leaves `v`'s elements of
/// `d` free).
fn solve_equation(
    a: &CExpr,
    b: &CExpr,
    v: u32,
    int: bool,
    ready: &dyn Fn(&CExpr) -> bool,
) -> Option<Solved> {
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    if is_v(a) && ready(b) {
        return Some(Solved::Value(b.clone()));
    }
    if is_v(b) && ready(a) {
        return Some(Solved::Value(a.clone()));
    }
    if !int {
        return None;
    }
    let span = a.span;
    if let (Some(left), Some(right)) = (linear(a, v, ready), linear(b, v, ready)) {
        // `ca * v + ra = cb * v + rb`: `v = (rb - ra) / (ca - cb)`.
        let coef = left.coef.checked_sub(right.coef)?;
        if coef == 0 {
            return None;
        }
        let (plus, minus) = if coef > 0 {
            (right.rest, left.rest)
        } else {
            (left.rest, right.rest)
        };
        let difference = match (plus, minus) {
            (Some(p), Some(m)) => binary(BinaryOp::Minus, p, m, span),
            (Some(p), None) => p,
            (None, Some(m)) => binary(BinaryOp::Minus, int_lit(0, span), m, span),
            (None, None) => int_lit(0, span),
        };
        let divisor = coef.checked_abs()?;
        return Some(Solved::Value(if divisor == 1 {
            difference
        } else {
            binary(BinaryOp::Div, difference, int_lit(divisor, span), span)
        }));
    }
    // `v * k = e` with `k` ready but not a literal: `e / k` where `k` is
    // not 0.
    let quotient = |side: &CExpr, other: &CExpr| {
        let EK::Binary(BinaryOp::Mul, x, y) = &side.kind else {
            return None;
        };
        let k = if is_v(x) && ready(y) {
            y
        } else if is_v(y) && ready(x) {
            x
        } else {
            return None;
        };
        ready(other).then(|| Solved::Quotient {
            divisor: (**k).clone(),
            value: binary(BinaryOp::Div, other.clone(), (**k).clone(), side.span),
        })
    };
    quotient(a, b).or_else(|| quotient(b, a))
}

/// An integer expression as `coef * v + rest` (see [`linear`]); `rest`
/// `None` for 0.
struct Linear {
    coef: i64,
    rest: Option<CExpr>,
}

/// `e` as `coef * v + rest` with `rest` ready and `coef` a literal, if it
/// is built so from `v`, ready terms, `+`, `-` and products by literals.
fn linear(e: &CExpr, v: u32, ready: &dyn Fn(&CExpr) -> bool) -> Option<Linear> {
    if matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v) {
        return Some(Linear {
            coef: 1,
            rest: None,
        });
    }
    if ready(e) {
        return Some(Linear {
            coef: 0,
            rest: Some(e.clone()),
        });
    }
    let EK::Binary(op, x, y) = &e.kind else {
        return None;
    };
    let span = e.span;
    match op {
        BinaryOp::Add | BinaryOp::Minus => {
            let (l, r) = (linear(x, v, ready)?, linear(y, v, ready)?);
            let add = *op == BinaryOp::Add;
            let coef = if add {
                l.coef.checked_add(r.coef)?
            } else {
                l.coef.checked_sub(r.coef)?
            };
            let rest = match (l.rest, r.rest) {
                (Some(p), Some(q)) => Some(binary(*op, p, q, span)),
                (Some(p), None) => Some(p),
                (None, Some(q)) if add => Some(q),
                (None, Some(q)) => Some(binary(BinaryOp::Minus, int_lit(0, span), q, span)),
                (None, None) => None,
            };
            Some(Linear { coef, rest })
        }
        BinaryOp::Mul => {
            let (k, term) = match (&x.kind, &y.kind) {
                (EK::Lit(Value::Int(k)), _) => (*k, y),
                (_, EK::Lit(Value::Int(k))) => (*k, x),
                _ => return None,
            };
            let inner = linear(term, v, ready)?;
            Some(Linear {
                coef: inner.coef.checked_mul(k)?,
                rest: inner
                    .rest
                    .map(|r| binary(BinaryOp::Mul, int_lit(k, span), r, span)),
            })
        }
        _ => None,
    }
}

/// `l op r`.
fn binary(op: BinaryOp, l: CExpr, r: CExpr, span: Span) -> CExpr {
    CExpr {
        kind: EK::Binary(op, Box::new(l), Box::new(r)),
        span,
    }
}

/// The integer literal `n`.
fn int_lit(n: i64, span: Span) -> CExpr {
    CExpr {
        kind: EK::Lit(Value::Int(n)),
        span,
    }
}

/// `e` from `a = b` solved for `v` (see [`solve_equation`]) where it needs
/// no condition.
fn equation_value(
    a: &CExpr,
    b: &CExpr,
    v: u32,
    int: bool,
    ready: &dyn Fn(&CExpr) -> bool,
) -> Option<CExpr> {
    match solve_equation(a, b, v, int, ready)? {
        Solved::Value(e) => Some(e),
        Solved::Quotient { .. } => None,
    }
}

/// The candidates of `v` in a disjunct: the values of its equalities and
/// the sets of its memberships (`v = e`, `v : S`, an equation solved for
/// `v`, one conjunct of a conjunction), or `false` if some disjunct says
/// nothing of `v` with only `ready` expressions.
fn disjunct_candidates(
    p: &CPred,
    v: u32,
    int: bool,
    ready: &dyn Fn(&CExpr) -> bool,
    values: &mut Vec<CExpr>,
    sets: &mut Vec<CExpr>,
) -> bool {
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    match &p.kind {
        PK::Or(a, b) => {
            disjunct_candidates(a, v, int, ready, values, sets)
                && disjunct_candidates(b, v, int, ready, values, sets)
        }
        PK::And(ps) => ps.iter().any(|q| {
            let (n, m) = (values.len(), sets.len());
            let found = disjunct_candidates(q, v, int, ready, values, sets);
            if !found {
                values.truncate(n);
                sets.truncate(m);
            }
            found
        }),
        PK::Cmp(Cmp::Eq, a, b) if is_v(a) && ready(b) => {
            values.push(b.clone());
            true
        }
        PK::Cmp(Cmp::Eq, a, b) if is_v(b) && ready(a) => {
            values.push(a.clone());
            true
        }
        PK::Cmp(Cmp::Eq, a, b) if let Some(q) = equation_value(a, b, v, int, ready) => {
            values.push(q);
            true
        }
        // Not over an infinite set: that leaves `v` to another conjunct.
        PK::Member(a, s, false) if is_v(a) && ready(s) && set_cost(s) < 8 => {
            sets.push(s.clone());
            true
        }
        _ => false,
    }
}

/// `{e1, e2, ..} \/ S1 \/ S2 ..`: every candidate of a disjunction.
fn union_of(values: Vec<CExpr>, sets: Vec<CExpr>, span: Span) -> CExpr {
    let listed = (!values.is_empty()).then_some(CExpr {
        kind: EK::SetEnum(values),
        span,
    });
    listed
        .into_iter()
        .chain(sets)
        .reduce(|a, b| CExpr {
            kind: EK::Binary(BinaryOp::Union, Box::new(a), Box::new(b)),
            span,
        })
        .expect("a disjunction has candidates")
}

/// `C or v : S` (either way round) where `C` does not read `v` and reads
/// only bound variables: where `C` is false, `v` is an element of `S`.
fn unless_member(c: &CPred, v: u32, vars: &[u32], bound: &[u32]) -> Option<(CPred, CExpr)> {
    let PK::Or(a, b) = &c.kind else {
        return None;
    };
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    [(a, b), (b, a)]
        .into_iter()
        .find_map(|(member, other)| match &member.kind {
            PK::Member(x, s, false)
                if is_v(x)
                    && is_ready(s, vars, bound)
                    && set_cost(s) < 8
                    && is_ready_pred(other, vars, bound) =>
            {
                let span = other.span;
                let fails = CPred {
                    kind: PK::Not(Box::new((**other).clone())),
                    span,
                };
                Some((fails, s.clone()))
            }
            _ => None,
        })
}

/// Whether two conjuncts make a variable a total function on an infinite
/// and on a finite domain (`make : INTEGER * INTEGER >->> REC &
/// make : INT * INT --> REC`): no valuation satisfies both, and enumerating the
/// functions on the finite one would not end.
fn domains_contradict(conjuncts: &[CPred], vars: &[u32]) -> bool {
    fn infinite(e: &CExpr) -> bool {
        match &e.kind {
            EK::Ints(IntSet::Natural | IntSet::Natural1 | IntSet::Integer) | EK::Strings => true,
            EK::Binary(BinaryOp::Mul, a, b) => {
                let whole = |x: &CExpr| infinite(x) || matches!(x.kind, EK::Ints(_));
                (infinite(a) || infinite(b)) && whole(a) && whole(b)
            }
            _ => false,
        }
    }
    fn finite(e: &CExpr) -> bool {
        match &e.kind {
            EK::Ints(IntSet::Nat | IntSet::Nat1 | IntSet::Int) => true,
            EK::Binary(BinaryOp::Mul, a, b) => finite(a) && finite(b),
            _ => literal_size(e).is_some(),
        }
    }
    let mut domains: Vec<(u32, &CExpr)> = Vec::new();
    for c in conjuncts {
        if let PK::Member(a, s, false) = &c.kind
            && let EK::Read(Slot::Frame(v)) = a.kind
            && vars.contains(&v)
            && let EK::Binary(op, dom, _) = &s.kind
            && op.arrow_properties().is_some_and(|(total, _, _)| total)
        {
            domains.push((v, dom));
        }
    }
    domains
        .iter()
        .any(|(v, a)| infinite(a) && domains.iter().any(|(w, b)| w == v && finite(b)))
}

/// For `(x = e1 & y = f1) or (x = e2 & y = f2) or ..` with every `e`, `f`
/// ready: the pattern `x |-> y` and the set `{e1 |-> f1, e2 |-> f2, ..}`
/// it takes its values from (a knight's moves: 8 candidates, not every
/// square then every move). The variables are the unbound ones that every
/// disjunct gives a value, `v` among them, two at least; exact when each
/// disjunct is nothing but one equality for each of them.
fn disjunct_tuples(
    p: &CPred,
    v: u32,
    vars: &[u32],
    bound: &[u32],
) -> Option<(Pattern, CExpr, bool)> {
    fn flatten<'a>(p: &'a CPred, or: bool, out: &mut Vec<&'a CPred>) {
        match &p.kind {
            PK::Or(a, b) if or => {
                flatten(a, or, out);
                flatten(b, or, out);
            }
            PK::And(ps) if !or => ps.iter().for_each(|q| flatten(q, or, out)),
            _ => out.push(p),
        }
    }
    let unbound = |e: &CExpr| match e.kind {
        EK::Read(Slot::Frame(s)) if vars.contains(&s) && !bound.contains(&s) => Some(s),
        _ => None,
    };
    let mut disjuncts = Vec::new();
    flatten(p, true, &mut disjuncts);
    // Per disjunct: the value of each variable it defines, and whether it
    // says anything else.
    let mut defined: Vec<(Vec<(u32, &CExpr)>, bool)> = Vec::with_capacity(disjuncts.len());
    for d in disjuncts {
        let mut conjuncts = Vec::new();
        flatten(d, false, &mut conjuncts);
        let mut values: Vec<(u32, &CExpr)> = Vec::new();
        let mut more = false;
        for c in conjuncts {
            let value = match &c.kind {
                PK::Cmp(Cmp::Eq, a, b) => match (unbound(a), unbound(b)) {
                    (Some(w), _) if is_ready(b, vars, bound) => Some((w, b)),
                    (_, Some(w)) if is_ready(a, vars, bound) => Some((w, a)),
                    _ => None,
                },
                _ => None,
            };
            match value {
                Some((w, e)) if !values.iter().any(|(x, _)| *x == w) => values.push((w, e)),
                _ => more = true,
            }
        }
        // The variables every disjunct defines are among the first's: with
        // fewer than two, or without `v`, there is no tuple (a clause of a
        // SAT instance, `x1 = TRUE or x2 = FALSE`, is rejected here).
        if defined.is_empty() && (values.len() < 2 || !values.iter().any(|(w, _)| *w == v)) {
            return None;
        }
        defined.push((values, more));
    }
    let (first, _) = defined.first()?;
    let common: Vec<u32> = first
        .iter()
        .map(|(w, _)| *w)
        .filter(|w| defined.iter().all(|(vs, _)| vs.iter().any(|(x, _)| x == w)))
        .collect();
    if common.len() < 2 || !common.contains(&v) {
        return None;
    }
    let exact = defined
        .iter()
        .all(|(vs, more)| !more && vs.len() == common.len());
    let maplet = |a: CExpr, b: CExpr| CExpr {
        span: a.span,
        kind: EK::Binary(BinaryOp::Maplet, Box::new(a), Box::new(b)),
    };
    let pattern = common[1..]
        .iter()
        .fold(Pattern::Slot(common[0]), |acc, &w| {
            Pattern::Pair(Box::new(acc), Box::new(Pattern::Slot(w)))
        });
    let tuples = defined
        .iter()
        .map(|(vs, _)| {
            let value = |w: u32| {
                vs.iter()
                    .find(|(x, _)| *x == w)
                    .map(|(_, e)| (*e).clone())
                    .expect("a common variable")
            };
            common[1..]
                .iter()
                .fold(value(common[0]), |acc, &w| maplet(acc, value(w)))
        })
        .collect();
    Some((
        pattern,
        CExpr {
            kind: EK::SetEnum(tuples),
            span: p.span,
        },
        exact,
    ))
}

/// `(a |-> b) = (c |-> d)` as `a = c & b = d`, so that each side can
/// generate a variable.
fn split_pair_equalities(conjuncts: Vec<CPred>) -> Vec<CPred> {
    let mut out = Vec::with_capacity(conjuncts.len());
    let mut work: Vec<CPred> = conjuncts.into_iter().rev().collect();
    while let Some(c) = work.pop() {
        match c.kind {
            PK::Cmp(Cmp::Eq, a, b)
                if matches!(
                    (&a.kind, &b.kind),
                    (
                        EK::Binary(BinaryOp::Maplet, ..),
                        EK::Binary(BinaryOp::Maplet, ..)
                    )
                ) =>
            {
                let (EK::Binary(_, a1, a2), EK::Binary(_, b1, b2)) = (a.kind, b.kind) else {
                    unreachable!("matched maplets")
                };
                work.push(CPred {
                    kind: PK::Cmp(Cmp::Eq, *a2, *b2),
                    span: c.span,
                });
                work.push(CPred {
                    kind: PK::Cmp(Cmp::Eq, *a1, *b1),
                    span: c.span,
                });
            }
            kind => out.push(CPred { kind, span: c.span }),
        }
    }
    out
}

/// Whether every solver variable `e` reads is already bound.
fn is_ready(e: &CExpr, vars: &[u32], bound: &[u32]) -> bool {
    let mut used = Vec::new();
    expr_slots(e, &mut used);
    used.iter().all(|s| !vars.contains(s) || bound.contains(s))
}

/// Whether predicate `p` reads only `bound` variables of `vars` (see
/// [`is_ready`]).
fn is_ready_pred(p: &CPred, vars: &[u32], bound: &[u32]) -> bool {
    let mut used = Vec::new();
    pred_slots(p, &mut used);
    used.iter().all(|s| !vars.contains(s) || bound.contains(s))
}

/// The greatest length `size(v) <= e`, `size(v) < e`, `size(v) = e`
/// (or `card(v)` for `size(v)`),
/// `front(v) = e` or `tail(v) = e` (either way round, with ready `e`) or
/// `size(v) : a..e` (with ready `a` and `e`) allows, as an expression.
fn size_bound(v: u32, pending: &Pending) -> Option<CExpr> {
    // `card(v)` of a sequence is its size.
    let is_size = |e: &CExpr| applied(e, UnaryOp::Size, v) || applied(e, UnaryOp::Card, v);
    // `front(v) = e` or `tail(v) = e`: `size(e) + 1`.
    if let Some(e) = shortened_to(v, pending) {
        let span = e.span;
        let size = CExpr {
            kind: EK::Unary(UnaryOp::Size, Box::new(e)),
            span,
        };
        return Some(binary(BinaryOp::Add, size, int_lit(1, span), span));
    }
    for c in pending.conjuncts() {
        if let PK::Member(a, set, false) = c
            && is_size(a)
            && let EK::Binary(BinaryOp::Interval, low, high) = &set.kind
            && pending.ready(low)
            && pending.ready(high)
        {
            return Some((**high).clone());
        }
        let PK::Cmp(op, a, b) = c else { continue };
        let (op, e) = if is_size(a) && pending.ready(b) {
            (*op, b)
        } else if is_size(b) && pending.ready(a) {
            (op.mirrored(), a)
        } else {
            continue;
        };
        match op {
            Cmp::Le | Cmp::Eq => return Some(e.clone()),
            Cmp::Lt => {
                return Some(binary(
                    BinaryOp::Minus,
                    e.clone(),
                    int_lit(1, e.span),
                    e.span,
                ));
            }
            _ => {}
        }
    }
    None
}

/// `e` from a pending `front(v) = e` or `tail(v) = e` (either way round)
/// with `e` ready.
fn shortened_to(v: u32, pending: &Pending) -> Option<CExpr> {
    pending
        .equal_to(UnaryOp::Front, v)
        .or_else(|| pending.equal_to(UnaryOp::Tail, v))
}

/// A set holding the range of `v`: `E` from `ran(v) = E` (either way
/// round) or `ran(v) <: E`, with `E` ready.
/// `T` from a pending `v : seq(T)` (or `seq1(T)`) other than conjunct
/// `drawn` (the one `v` is drawn by), with `T` ready.
fn other_sequence_set(v: u32, pending: &Pending, drawn: usize) -> Option<CExpr> {
    let mut conjuncts = pending.conjuncts.iter().zip(pending.done).enumerate();
    conjuncts.find_map(|(j, (c, done))| match &c.kind {
        PK::Member(x, set, false)
            if j != drawn
                && !done
                && matches!(x.kind, EK::Read(Slot::Frame(s)) if s == v)
                && let EK::Unary(UnaryOp::Seq | UnaryOp::Seq1, t) = &set.kind
                && pending.ready(t) =>
        {
            Some((**t).clone())
        }
        _ => None,
    })
}

fn range_bound(v: u32, pending: &Pending) -> Option<CExpr> {
    pending.equal_to(UnaryOp::Ran, v).or_else(|| {
        pending.conjuncts().find_map(|c| match c {
            PK::Subset(a, b, _, false) if applied(a, UnaryOp::Ran, v) && pending.ready(b) => {
                Some(b.clone())
            }
            _ => None,
        })
    })
}

/// What a pending comparison says about `v`: `v op e` with `e` ready, or
/// `v op w + d` with `w` another variable not bound yet (and `d` ready).
enum Side {
    Ready(CExpr),
    Var(u32, Option<(BinaryOp, CExpr)>),
}

/// The lower and upper bounds (as expressions over bound variables) that
/// the pending conjuncts give `v`, through at most `depth` other unbound
/// variables: `i < j & j <= n` bounds `i` by `n - 1` before `j` is bound.
/// Sound because every conjunct must hold.
struct Bounds<'a> {
    conjuncts: &'a [CPred],
    done: &'a [bool],
    vars: &'a [u32],
    bound: &'a [u32],
    skip: usize,
    statics: &'a dyn Fn(u32) -> (Option<i64>, Option<i64>),
}

impl Bounds<'_> {
    fn ready(&self, e: &CExpr) -> bool {
        is_ready(e, self.vars, self.bound)
    }

    fn is_var(&self, e: &CExpr, v: u32) -> bool {
        matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v)
    }

    /// An unbound variable of this binder other than `v`, if `e` reads one.
    fn other_var(&self, e: &CExpr, v: u32) -> Option<u32> {
        match e.kind {
            EK::Read(Slot::Frame(s))
                if s != v && self.vars.contains(&s) && !self.bound.contains(&s) =>
            {
                Some(s)
            }
            _ => None,
        }
    }

    /// `side op other` solved for `v`: the comparison (turned round when
    /// `v` comes negated, as in `d - v op e`) and what `v` is compared to.
    fn solve(&self, v: u32, side: &CExpr, other: &CExpr, op: Cmp) -> Option<(Cmp, Side)> {
        let build = |op: BinaryOp, l: &CExpr, r: &CExpr| CExpr {
            kind: EK::Binary(op, Box::new(l.clone()), Box::new(r.clone())),
            span: other.span,
        };
        if self.is_var(side, v) {
            if self.ready(other) {
                return Some((op, Side::Ready(other.clone())));
            }
            if let Some(w) = self.other_var(other, v) {
                return Some((op, Side::Var(w, None)));
            }
            if let EK::Binary(bop @ (BinaryOp::Add | BinaryOp::Minus), x, d) = &other.kind
                && let Some(w) = self.other_var(x, v)
                && self.ready(d)
            {
                return Some((op, Side::Var(w, Some((*bop, (**d).clone())))));
            }
            return None;
        }
        let EK::Binary(bop @ (BinaryOp::Add | BinaryOp::Minus), x, d) = &side.kind else {
            return None;
        };
        // `v + d op w`, `v - d op w` and `d + v op w`: `v op w - d`, ...
        let unbound = |undo: BinaryOp, d: &CExpr| {
            self.other_var(other, v)
                .map(|w| (op, Side::Var(w, Some((undo, d.clone())))))
        };
        let undo = if *bop == BinaryOp::Add {
            BinaryOp::Minus
        } else {
            BinaryOp::Add
        };
        match bop {
            // v + d op e, v - d op e
            _ if self.is_var(x, v) && self.ready(d) => {
                if self.ready(other) {
                    Some((op, Side::Ready(build(undo, other, d))))
                } else {
                    unbound(undo, d)
                }
            }
            // d + v op e
            BinaryOp::Add if self.is_var(d, v) && self.ready(x) => {
                if self.ready(other) {
                    Some((op, Side::Ready(build(BinaryOp::Minus, other, x))))
                } else {
                    unbound(BinaryOp::Minus, x)
                }
            }
            // d - v op e
            BinaryOp::Minus if self.is_var(d, v) && self.ready(x) && self.ready(other) => {
                Some((op.mirrored(), Side::Ready(build(BinaryOp::Minus, x, other))))
            }
            _ => None,
        }
    }

    /// The bounds of `v` (lows, highs) and the span of a conjunct giving
    /// one; `visiting` holds the variables on the path, against cycles.
    fn collect(
        &self,
        v: u32,
        depth: u32,
        visiting: &mut Vec<u32>,
    ) -> (Vec<CExpr>, Vec<CExpr>, Option<Span>) {
        let lit = |n: i64, span: Span| CExpr {
            kind: EK::Lit(crate::frontends::b::value::Value::Int(n)),
            span,
        };
        let shifted = |e: &CExpr, by: i64| CExpr {
            kind: EK::Binary(
                BinaryOp::Add,
                Box::new(e.clone()),
                Box::new(lit(by, e.span)),
            ),
            span: e.span,
        };
        let mut lows: Vec<CExpr> = Vec::new();
        let mut highs: Vec<CExpr> = Vec::new();
        let mut span = None;
        visiting.push(v);
        for (i, c) in self.conjuncts.iter().enumerate() {
            if self.done[i] || i == self.skip {
                continue;
            }
            // A variable reached through another: its interval counts too.
            if visiting.len() > 1
                && let PK::Member(x, set, false) = &c.kind
                && self.is_var(x, v)
                && let EK::Binary(BinaryOp::Interval, a, b) = &set.kind
            {
                if self.ready(a) {
                    lows.push((**a).clone());
                }
                if self.ready(b) {
                    highs.push((**b).clone());
                }
                span = Some(c.span);
                continue;
            }
            let PK::Cmp(op, a, b) = &c.kind else { continue };
            let Some((op, side)) = self
                .solve(v, a, b, *op)
                .or_else(|| self.solve(v, b, a, op.mirrored()))
            else {
                continue;
            };
            let (more_lows, more_highs) = match side {
                Side::Ready(e) => (vec![e.clone()], vec![e]),
                Side::Var(w, offset) => {
                    if depth == 0 || visiting.contains(&w) {
                        continue;
                    }
                    let (wl, wh, _) = self.collect(w, depth - 1, visiting);
                    let apply = |e: CExpr| match &offset {
                        Some((bop, d)) => CExpr {
                            kind: EK::Binary(*bop, Box::new(e), Box::new(d.clone())),
                            span: d.span,
                        },
                        None => e,
                    };
                    (
                        wl.into_iter().map(apply).collect(),
                        wh.into_iter().map(apply).collect(),
                    )
                }
            };
            let before = lows.len() + highs.len();
            match op {
                Cmp::Lt => highs.extend(more_highs.iter().map(|e| shifted(e, -1))),
                Cmp::Le => highs.extend(more_highs),
                Cmp::Gt => lows.extend(more_lows.iter().map(|e| shifted(e, 1))),
                Cmp::Ge => lows.extend(more_lows),
                Cmp::Eq => {
                    lows.extend(more_lows);
                    highs.extend(more_highs);
                }
                Cmp::Neq => {}
            }
            if lows.len() + highs.len() > before {
                span = Some(c.span);
            }
        }
        visiting.pop();
        // Literal bounds of a variable reached through another.
        if !visiting.is_empty() {
            let (lo, hi) = (self.statics)(v);
            let at = span.unwrap_or_default();
            if let Some(n) = lo {
                lows.push(lit(n, at));
            }
            if let Some(n) = hi {
                highs.push(lit(n, at));
            }
        }
        (lows, highs, span)
    }
}

/// The interval `max({lows})..min({highs})` that the pending comparisons
/// `v < e`, `v <= e`, `e < v`, ... (with ready `e`, or through unbound
/// variables with such bounds) and an implied lower bound allow for `v`,
/// if they bound it on both sides. Conjunct `skip` is the generator being
/// replaced.
#[allow(clippy::too_many_arguments)]
fn interval_for(
    v: u32,
    implied: (Option<i64>, Option<i64>),
    conjuncts: &[CPred],
    done: &[bool],
    vars: &[u32],
    bound: &[u32],
    skip: usize,
    statics: &dyn Fn(u32) -> (Option<i64>, Option<i64>),
    fallback: Option<(i64, i64, Span, &std::cell::Cell<bool>)>,
) -> Option<CExpr> {
    let lit = |n: i64, span: Span| CExpr {
        kind: EK::Lit(crate::frontends::b::value::Value::Int(n)),
        span,
    };
    let bounds = Bounds {
        conjuncts,
        done,
        vars,
        bound,
        skip,
        statics,
    };
    let (mut lows, mut highs, span) = bounds.collect(v, 2, &mut Vec::new());
    // Bounds the conjuncts imply by propagation count when they bound
    // both sides (see `static_bounds`).
    let both_implied = implied.0.is_some() && implied.1.is_some();
    let span = span.or(fallback.map(|f| f.2)).or_else(|| {
        both_implied.then(|| conjuncts.first().map_or_else(Span::default, |c| c.span))
    })?;
    if let Some(n) = implied.0 {
        lows.push(lit(n, span));
    }
    if let Some(n) = implied.1 {
        highs.push(lit(n, span));
    }
    // `--bound-integers`: MININT and MAXINT stand in for a missing bound.
    let (mut cut_low, mut cut_high) = (None, None);
    if let Some((lo, hi, _, used)) = fallback {
        if lows.is_empty() {
            cut_low = Some(lo);
            used.set(true);
        }
        if highs.is_empty() {
            cut_high = Some(hi);
            used.set(true);
        }
    }
    let combine = |mut es: Vec<CExpr>, op: UnaryOp| -> Option<CExpr> {
        match es.len() {
            0 => None,
            1 => es.pop(),
            _ => Some(CExpr {
                kind: EK::Unary(
                    op,
                    Box::new(CExpr {
                        kind: EK::SetEnum(es),
                        span,
                    }),
                ),
                span,
            }),
        }
    };
    // A bound beyond the cut is kept, as ProB enumerates from the bound it
    // has: `x > 1000` with MAXINT 3 gives `1001..max({3, 1001})`.
    match (cut_low, cut_high) {
        (Some(lo), Some(hi)) => {
            lows.push(lit(lo, span));
            highs.push(lit(hi, span));
        }
        (Some(lo), None) => {
            let high = combine(highs.clone(), UnaryOp::Min)?;
            lows.push(combine(vec![lit(lo, span), high], UnaryOp::Min)?);
        }
        (None, Some(hi)) => {
            let low = combine(lows.clone(), UnaryOp::Max)?;
            highs.push(combine(vec![lit(hi, span), low], UnaryOp::Max)?);
        }
        (None, None) => {}
    }
    let low = combine(lows, UnaryOp::Max)?;
    let high = combine(highs, UnaryOp::Min)?;
    Some(CExpr {
        kind: EK::Binary(BinaryOp::Interval, Box::new(low), Box::new(high)),
        span,
    })
}

/// Integer bounds of the variables (by position in `vars`) that the
/// top-level conjuncts imply: `x : a..b` and `x : NATURAL` with literal
/// bounds, comparisons between a variable and a literal, and, propagated
/// to a fixpoint, between two variables (`1 < x & x <= y & y < 100`
/// bounds `x` to 2..99). Sound because every conjunct must hold; the
/// comparisons stay checks.
fn static_bounds(conjuncts: &[CPred], vars: &[u32]) -> Vec<(Option<i64>, Option<i64>)> {
    enum Term {
        Var(usize),
        Int(i64),
    }
    let term = |e: &CExpr| match &e.kind {
        EK::Read(Slot::Frame(s)) => vars.iter().position(|v| v == s).map(Term::Var),
        EK::Lit(crate::frontends::b::value::Value::Int(n)) => Some(Term::Int(*n)),
        _ => None,
    };
    let mut bounds: Vec<(Option<i64>, Option<i64>)> = vec![(None, None); vars.len()];
    // `x <= y + k` between variables, as (x, y, k).
    let mut edges: Vec<(usize, usize, i64)> = Vec::new();
    let tighten = |b: &mut (Option<i64>, Option<i64>), lo: Option<i64>, hi: Option<i64>| {
        let mut changed = false;
        if let Some(lo) = lo
            && b.0.is_none_or(|old| lo > old)
        {
            b.0 = Some(lo);
            changed = true;
        }
        if let Some(hi) = hi
            && b.1.is_none_or(|old| hi < old)
        {
            b.1 = Some(hi);
            changed = true;
        }
        changed
    };
    for c in conjuncts {
        match &c.kind {
            PK::Member(x, s, false) => {
                let Some(Term::Var(k)) = term(x) else {
                    continue;
                };
                match &s.kind {
                    EK::Binary(BinaryOp::Interval, a, b) => {
                        let lo = match term(a) {
                            Some(Term::Int(n)) => Some(n),
                            _ => None,
                        };
                        let hi = match term(b) {
                            Some(Term::Int(n)) => Some(n),
                            _ => None,
                        };
                        tighten(&mut bounds[k], lo, hi);
                    }
                    EK::Ints(IntSet::Natural) => {
                        tighten(&mut bounds[k], Some(0), None);
                    }
                    EK::Ints(IntSet::Natural1) => {
                        tighten(&mut bounds[k], Some(1), None);
                    }
                    _ => {}
                }
            }
            PK::Cmp(op, a, b) => {
                // As `l <= r + k` (and `=` as both ways).
                let (l, r, k, both) = match op {
                    Cmp::Le => (a, b, 0, false),
                    Cmp::Lt => (a, b, -1, false),
                    Cmp::Ge => (b, a, 0, false),
                    Cmp::Gt => (b, a, -1, false),
                    Cmp::Eq => (a, b, 0, true),
                    Cmp::Neq => continue,
                };
                match (term(l), term(r)) {
                    (Some(Term::Var(x)), Some(Term::Int(n))) => {
                        let hi = n.checked_add(k);
                        let lo = if both { Some(n) } else { None };
                        tighten(&mut bounds[x], lo, hi);
                    }
                    (Some(Term::Int(n)), Some(Term::Var(y))) => {
                        let lo = n.checked_sub(k);
                        let hi = if both { Some(n) } else { None };
                        tighten(&mut bounds[y], lo, hi);
                    }
                    (Some(Term::Var(x)), Some(Term::Var(y))) => {
                        edges.push((x, y, k));
                        if both {
                            edges.push((y, x, 0));
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    // x <= y + k: hi(x) <= hi(y) + k and lo(y) >= lo(x) - k. Each round
    // settles at least one more step of every chain.
    for _ in 0..=vars.len() {
        let mut changed = false;
        for &(x, y, k) in &edges {
            let hi = bounds[y].1.and_then(|h| h.checked_add(k));
            let lo = bounds[x].0.and_then(|l| l.checked_sub(k));
            changed |= tighten(&mut bounds[x], None, hi);
            changed |= tighten(&mut bounds[y], lo, None);
        }
        if !changed {
            break;
        }
    }
    bounds
}

/// For the first unbound variable with any, that variable and its
/// [`cases_of`].
fn implication_cases(
    conjuncts: &[CPred],
    done: &[bool],
    vars: &[u32],
    bound: &[u32],
    machine: bool,
) -> Option<(u32, Vec<(CPred, Choice)>)> {
    vars.iter()
        .filter(|v| !bound.contains(v))
        .find_map(|&v| cases_of(v, conjuncts, done, vars, bound, machine).map(|cases| (v, cases)))
}

/// The cases `(C, e)` of `v` from the implications `C => (.. & v = e &
/// ..)` among the conjuncts left whose condition `C` and value `e` read
/// only bound variables (TLA2B writes `IF C THEN v' = e ELSE v' = f`
/// so), and for a machine's variable from the `#` among them (see
/// [`value_cases`]); `None` if there are none.
fn cases_of(
    v: u32,
    conjuncts: &[CPred],
    done: &[bool],
    vars: &[u32],
    bound: &[u32],
    machine: bool,
) -> Option<Vec<(CPred, Choice)>> {
    let cases: Vec<(CPred, Choice)> = conjuncts
        .iter()
        .zip(done)
        .filter(|(c, d)| !**d && matches!(c.kind, PK::Implies(..) | PK::Exists(_)))
        .filter_map(|(c, _)| value_cases(c, v, vars, bound, machine))
        .flatten()
        .map(|(conditions, choice)| (all_of(conditions, choice.expr().span), choice))
        .collect();
    (!cases.is_empty()).then_some(cases)
}

/// A case of [`value_cases`]: where every condition holds, the variable
/// takes its value from the choice.
type ValueCase = (Vec<CPred>, Choice);

/// What `p` says about the values of `v`, as cases whose conditions and
/// choices read only `bound` variables of `vars`: `v = e` is one value
/// always; `C => Q` is `Q`'s cases under `C` too; a conjunction the
/// cases of a part that has one that always holds, else those of all its
/// parts (TLA2B's `(C => v = e) & (not(C) => v = f)`); and for a machine's
/// variable (`machine`) `#u.(P)` the values over the solutions of `P`
/// (see [`exists_cases`]). `None` if `p` says nothing so.
fn value_cases(
    p: &CPred,
    v: u32,
    vars: &[u32],
    bound: &[u32],
    machine: bool,
) -> Option<Vec<ValueCase>> {
    let is_v = |e: &CExpr| matches!(e.kind, EK::Read(Slot::Frame(s)) if s == v);
    let ready = |e: &CExpr| is_ready(e, vars, bound);
    match &p.kind {
        PK::Cmp(Cmp::Eq, a, b) if is_v(a) && ready(b) => {
            Some(vec![(Vec::new(), Choice::One(b.clone()))])
        }
        PK::Cmp(Cmp::Eq, a, b) if is_v(b) && ready(a) => {
            Some(vec![(Vec::new(), Choice::One(a.clone()))])
        }
        PK::Implies(condition, consequent) if is_ready_pred(condition, vars, bound) => {
            let mut cases = value_cases(consequent, v, vars, bound, machine)?;
            for (conditions, _) in &mut cases {
                conditions.insert(0, (**condition).clone());
            }
            Some(cases)
        }
        PK::And(parts) => {
            let per_part: Vec<Vec<ValueCase>> = parts
                .iter()
                .filter_map(|p| value_cases(p, v, vars, bound, machine))
                .collect();
            if let Some(always) = per_part
                .iter()
                .find(|cases| cases.iter().any(|(conditions, _)| conditions.is_empty()))
            {
                return Some(always.clone());
            }
            let cases: Vec<ValueCase> = per_part.into_iter().flatten().collect();
            (!cases.is_empty()).then_some(cases)
        }
        PK::Exists(inner) if machine => exists_cases(inner, v, vars, bound).map(|c| vec![c]),
        _ => None,
    }
}

/// The conjunction of `conditions` (`true` if there are none).
fn all_of(mut conditions: Vec<CPred>, span: Span) -> CPred {
    match conditions.len() {
        0 => CPred {
            kind: PK::Const(true),
            span,
        },
        1 => conditions.pop().expect("one condition"),
        _ => CPred {
            kind: PK::And(conditions),
            span,
        },
    }
}

/// For `#u.(P)` (planned as `inner`) where `P`'s conjuncts give `v`
/// values only in cases (`#mm.(mm : Data & (C => v = buf <- mm) & (not(C)
/// => v = buf))`, TLA2B's `\E`): every value over the solutions of the
/// rest of `P`, `UNION(u).(rest | IF C1 THEN S1 ELSE .. ELSE Sn)`, under
/// the condition that some case holds for every solution (elsewhere `v`
/// is not bounded by the `#`); unconditionally where a conjunct gives `v`
/// a value always. The `#` stays a check.
fn exists_cases(inner: &Solver, v: u32, vars: &[u32], bound: &[u32]) -> Option<ValueCase> {
    let unbound = |s: &u32| vars.contains(s) && !bound.contains(s);
    let mut cases = Vec::new();
    let mut steps = Vec::with_capacity(inner.steps.len());
    for step in &inner.steps {
        let mut slots = Vec::new();
        step_slots(step, &mut slots);
        if !slots.iter().any(unbound) {
            steps.push(step.clone());
            continue;
        }
        match step {
            SolveStep::Check(p) => {
                if slots.contains(&v) {
                    cases.extend(value_cases(p, v, vars, bound, true).into_iter().flatten());
                }
            }
            // A solution of `P` would depend on the variables sought.
            _ => return None,
        }
    }
    if cases.is_empty()
        || steps
            .iter()
            .any(|s| matches!(s, SolveStep::Bind(_, Gen::Unbounded(..))))
    {
        return None;
    }
    let span = inner.span;
    let set_of = |choice: &Choice| match choice {
        Choice::One(e) => CExpr {
            kind: EK::SetEnum(vec![e.clone()]),
            span: e.span,
        },
        Choice::Each(s) => s.clone(),
    };
    let always = cases.iter().find(|(conditions, _)| conditions.is_empty());
    let (condition, body) = match always {
        Some((_, choice)) => (None, set_of(choice)),
        None => {
            let (last, earlier) = cases.split_last().expect("a case");
            let mut body = set_of(&last.1);
            for (conditions, choice) in earlier.iter().rev() {
                body = CExpr {
                    kind: EK::IfThenElse(
                        Box::new(all_of(conditions.clone(), span)),
                        Box::new(set_of(choice)),
                        Box::new(body),
                    ),
                    span,
                };
            }
            let some_case = cases
                .iter()
                .map(|(conditions, _)| all_of(conditions.clone(), span))
                .reduce(|a, b| CPred {
                    kind: PK::Or(Box::new(a), Box::new(b)),
                    span,
                })
                .expect("a case");
            (Some(some_case), body)
        }
    };
    let rest = Solver {
        steps,
        condition: None,
        by_solver: None,
        image: None,
        ..inner.clone()
    };
    let values = CExpr {
        kind: EK::Quantified(
            crate::frontends::b::ast::QuantifiedExprKind::Union,
            Box::new(rest.clone()),
            Box::new(body),
        ),
        span,
    };
    let conditions = match condition {
        Some(some_case) => vec![CPred {
            kind: PK::ForAll(Box::new(rest), Box::new(some_case)),
            span,
        }],
        None => Vec::new(),
    };
    Some((conditions, Choice::Each(values)))
}

/// The first unbound variable that some pending conjunct applies a ready
/// function to, with `In(dom(f))` as its generator.
fn applied_domain_generator(
    conjuncts: &[CPred],
    done: &[bool],
    vars: &[u32],
    bound: &[u32],
) -> Option<(u32, Gen)> {
    vars.iter().filter(|v| !bound.contains(v)).find_map(|&v| {
        conjuncts
            .iter()
            .zip(done)
            .filter(|(_, d)| !**d)
            .find_map(|(c, _)| applied_domain(c, v, vars, bound))
            .map(|g| (v, g))
    })
}

/// `In(dom(f))` if `c` applies a ready function `f` to the variable `v`.
fn applied_domain(c: &CPred, v: u32, vars: &[u32], bound: &[u32]) -> Option<Gen> {
    let mut found = None;
    visit_pred_exprs(c, &mut |e| {
        if found.is_none()
            && let EK::Apply(f, arg) = &e.kind
            && matches!(arg.kind, EK::Read(Slot::Frame(s)) if s == v)
            && is_ready(f, vars, bound)
        {
            let dom = CExpr {
                kind: EK::Unary(UnaryOp::Dom, f.clone()),
                span: f.span,
            };
            found = Some(Gen::In(dom));
        }
    });
    found
}

/// Calls `f` on every expression of a predicate, outside nested binders.
/// Whether evaluating `p` can fail even where every function it applies
/// is applied inside its domain: a division or modulo (by zero), `min`,
/// `max`, `first`, `last`, `front` or `tail` (of an empty set or
/// sequence). Looks through the conjunct's own expressions, not into
/// nested binders.
fn may_be_ill_defined(p: &CPred) -> bool {
    let mut found = false;
    visit_pred_exprs(p, &mut |e| {
        found |= matches!(
            e.kind,
            EK::Binary(BinaryOp::Div | BinaryOp::Mod, ..)
                | EK::Unary(
                    UnaryOp::Min
                        | UnaryOp::Max
                        | UnaryOp::First
                        | UnaryOp::Last
                        | UnaryOp::Front
                        | UnaryOp::Tail,
                    _
                )
        );
    });
    found
}

fn visit_pred_exprs(p: &CPred, f: &mut dyn FnMut(&CExpr)) {
    match &p.kind {
        PK::And(ps) => ps.iter().for_each(|q| visit_pred_exprs(q, f)),
        PK::Or(a, b) | PK::Implies(a, b) | PK::Equiv(a, b) => {
            visit_pred_exprs(a, f);
            visit_pred_exprs(b, f);
        }
        PK::Not(a) => visit_pred_exprs(a, f),
        PK::Cmp(_, a, b) | PK::Member(a, b, _) | PK::Subset(a, b, _, _) => {
            visit_exprs(a, f);
            visit_exprs(b, f);
        }
        PK::Const(_) | PK::ForAll(..) | PK::Exists(_) => {}
    }
}

fn visit_exprs(e: &CExpr, f: &mut dyn FnMut(&CExpr)) {
    f(e);
    match &e.kind {
        EK::Unary(_, a) | EK::Component(_, a) | EK::Destruct(_, _, a) => visit_exprs(a, f),
        EK::Binary(_, a, b)
        | EK::Projection(_, a, b)
        | EK::Iterate(a, b)
        | EK::Apply(a, b)
        | EK::Image(a, b) => {
            visit_exprs(a, f);
            visit_exprs(b, f);
        }
        EK::SetEnum(xs) | EK::SeqEnum(xs) | EK::External(_, xs) => {
            xs.iter().for_each(|x| visit_exprs(x, f))
        }
        _ => {}
    }
}

/// Whether the set `s` is infinite by its shape: an infinite built-in set,
/// or sets, sequences, relations or pairs over one (`S +-> INTEGER`).
fn over_infinite(s: &CExpr) -> bool {
    match &s.kind {
        EK::Ints(IntSet::Natural | IntSet::Natural1 | IntSet::Integer)
        | EK::Strings
        | EK::FreeType(_)
        | EK::Unary(UnaryOp::Seq | UnaryOp::Seq1, _) => true,
        EK::Unary(
            UnaryOp::Pow
            | UnaryOp::Pow1
            | UnaryOp::Fin
            | UnaryOp::Fin1
            | UnaryOp::Iseq
            | UnaryOp::Iseq1
            | UnaryOp::Perm,
            a,
        ) => over_infinite(a),
        EK::Binary(op, a, b)
            if op.is_function_arrow() || matches!(op, BinaryOp::Relation | BinaryOp::Mul) =>
        {
            over_infinite(a) || over_infinite(b)
        }
        _ => false,
    }
}

/// Cost class of enumerating a set expression.
fn set_cost(s: &CExpr) -> u32 {
    // A set of functions, relations, pairs or subsets over an infinite set
    // (`f : S +-> INTEGER`) comes after finite sets: another conjunct
    // (`f : S --> 1..5`) may give a finite domain. It comes before the
    // infinite sets themselves, which `--bound-integers` cannot cut
    // (`s : seq(S) & s : POW(INTEGER * S)`).
    let direct = matches!(
        &s.kind,
        EK::Ints(_) | EK::Strings | EK::FreeType(_) | EK::Unary(UnaryOp::Seq | UnaryOp::Seq1, _)
    );
    if over_infinite(s) && !direct {
        return 8;
    }
    // A comprehension that lists its elements (`{dx, dy | (dx = x + 1 &
    // dy = y + 2) or ..}`) is as cheap as a set enumeration.
    let listed = |solver: &Solver| {
        solver.steps.iter().all(|step| match step {
            SolveStep::Bind(_, Gen::Eq(_)) | SolveStep::Check(_) => true,
            SolveStep::Bind(_, Gen::In(set)) | SolveStep::BindPattern(_, set) => {
                matches!(set.kind, EK::SetEnum(_))
            }
            _ => false,
        })
    };
    match &s.kind {
        EK::Lit(_) | EK::Read(_) | EK::SetEnum(_) => 1,
        EK::Comprehension(solver) if listed(solver) => 1,
        EK::Ints(IntSet::Natural | IntSet::Natural1 | IntSet::Integer)
        | EK::Strings
        | EK::FreeType(_) => 9,
        EK::Unary(UnaryOp::Seq | UnaryOp::Seq1, _) => 9,
        _ => 2,
    }
}

/// A maplet tree of solver variables, as a destructuring pattern.
fn pattern(e: &CExpr, vars: &[u32], bound: &[u32]) -> Option<Pattern> {
    match &e.kind {
        EK::Read(Slot::Frame(s)) if vars.contains(s) => Some(if bound.contains(s) {
            Pattern::Bound(*s)
        } else {
            Pattern::Slot(*s)
        }),
        // A variable of an enclosing binder or an operation's parameter
        // (`N |-> s : Rules` in `#s.(..)` under parameter `N`): bound.
        EK::Read(Slot::Frame(s)) => Some(Pattern::Bound(*s)),
        EK::Binary(BinaryOp::Maplet, a, b) => {
            pattern_pair(pattern(a, vars, bound)?, pattern(b, vars, bound)?)
        }
        _ => None,
    }
}

/// [`pattern`] of a tuple whose components that are not variables (`-n`
/// in `(-n, n, s)`) match anything: the tuple's equality must be checked.
fn loose_pattern(e: &CExpr, vars: &[u32], bound: &[u32]) -> Option<Pattern> {
    let EK::Binary(BinaryOp::Maplet, a, b) = &e.kind else {
        return None;
    };
    let part = |x: &CExpr| {
        pattern(x, vars, bound)
            .or_else(|| loose_pattern(x, vars, bound))
            .unwrap_or(Pattern::Any)
    };
    pattern_pair(part(a), part(b))
}

/// The pattern of the pair of `pa` and `pb`, unless both bind one slot
/// (the same unbound variable twice would need an equality check).
fn pattern_pair(pa: Pattern, pb: Pattern) -> Option<Pattern> {
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    pattern_slots(&pa, &mut sa);
    pattern_slots(&pb, &mut sb);
    if sa.iter().any(|s| sb.contains(s)) {
        return None;
    }
    Some(Pattern::Pair(Box::new(pa), Box::new(pb)))
}

/// The slots a pattern binds.
fn pattern_slots(p: &Pattern, out: &mut Vec<u32>) {
    match p {
        Pattern::Slot(s) => out.push(*s),
        Pattern::Bound(_) | Pattern::Any => {}
        Pattern::Pair(a, b) => {
            pattern_slots(a, out);
            pattern_slots(b, out);
        }
    }
}

/// The frame slots a walk reads (including inside nested binders, their
/// own variables among them), each handed to `stop` until it answers
/// true; a recursive definition reads its own constant only when applied,
/// so its reads of it are left out.
pub(super) struct FrameReads<F: FnMut(u32) -> bool> {
    stop: F,
    /// The constants of the recursive definitions being walked.
    own: Vec<u32>,
    /// Whether `stop` answered true (the walk goes no further).
    pub(super) stopped: bool,
}

impl<F: FnMut(u32) -> bool> FrameReads<F> {
    /// A walk handing each slot read to `stop`.
    pub(super) fn new(stop: F) -> Self {
        FrameReads {
            stop,
            own: Vec::new(),
            stopped: false,
        }
    }
}

impl<F: FnMut(u32) -> bool> Visitor for FrameReads<F> {
    fn read(&mut self, slot: Slot) {
        if let Slot::Frame(s) = slot
            && !self.stopped
            && !self.own.contains(&s)
            && (self.stop)(s)
        {
            self.stopped = true;
        }
    }

    fn expr(&mut self, e: &CExpr) {
        if self.stopped {
            return;
        }
        if let EK::Symbolic(d) = &e.kind
            && let Some(own) = d.self_slot
        {
            self.own.push(own);
            self.expr(&d.expr);
            self.own.pop();
            return;
        }
        walk_expr(self, e);
    }

    fn pred(&mut self, p: &CPred) {
        if !self.stopped {
            super::walk::walk_pred(self, p);
        }
    }
}

/// A walk collecting every frame slot read into `out`.
fn collect_into(out: &mut Vec<u32>) -> FrameReads<impl FnMut(u32) -> bool + '_> {
    FrameReads::new(move |s| {
        out.push(s);
        false
    })
}

/// Every frame slot a predicate reads (including inside nested binders).
pub fn pred_slots(p: &CPred, out: &mut Vec<u32>) {
    collect_into(out).pred(p);
}

/// Every frame slot one step of a plan reads.
pub fn step_slots(step: &SolveStep, out: &mut Vec<u32>) {
    super::walk::walk_step(&mut collect_into(out), step);
}

/// Every frame slot a plan's steps read.
fn solver_slots(s: &Solver, out: &mut Vec<u32>) {
    collect_into(out).solver(s);
}

/// Whether `e` has a binder (comprehension, lambda, quantified
/// expression, `LET`) or a predicate (`bool`, `IF`) anywhere inside.
fn has_binder(e: &CExpr) -> bool {
    match &e.kind {
        EK::Lit(_) | EK::Ints(_) | EK::Strings | EK::FreeType(_) | EK::Read(_) | EK::Local(..) => {
            false
        }
        EK::Unary(_, a) | EK::Component(_, a) | EK::Destruct(_, _, a) => has_binder(a),
        EK::Splits(a, sizes, _) => has_binder(a) || sizes.iter().flatten().any(has_binder),
        EK::Binary(_, a, b)
        | EK::Projection(_, a, b)
        | EK::Iterate(a, b)
        | EK::Apply(a, b)
        | EK::Image(a, b) => has_binder(a) || has_binder(b),
        EK::SetEnum(xs) | EK::SeqEnum(xs) | EK::External(_, xs) => xs.iter().any(has_binder),
        EK::Comprehension(_)
        | EK::Optimum(_)
        | EK::Lambda(..)
        | EK::ApplyBinder(..)
        | EK::ImageBinder(..)
        | EK::ComposeBinder(..)
        | EK::Quantified(..)
        | EK::Let(..)
        | EK::BoolOf(_)
        | EK::IfThenElse(..)
        | EK::Symbolic(_)
        | EK::Memo(_) => true,
    }
}

/// Every frame slot an expression reads (including inside nested binders).
pub fn expr_slots(e: &CExpr, out: &mut Vec<u32>) {
    collect_into(out).expr(e);
}

#[cfg(test)]
mod tests {
    use super::super::compile::Compiler;
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::ast::ExprKind;
    use crate::frontends::b::types::MachineTypes;

    fn types() -> MachineTypes {
        MachineTypes::for_test(None, Vec::new(), Vec::new())
    }

    /// Calls `f` with a compiler in which the variables `names` of
    /// `{names | pred}` are bound (their idents, slots, the predicate and
    /// the binder's span); also returns the source.
    fn with_binder<T>(
        names: &[&str],
        pred: &str,
        f: impl FnOnce(&mut Compiler<'_>, &[Ident], &[u32], &crate::frontends::b::ast::Expr, Span) -> T,
    ) -> (T, SourceFile) {
        let file = SourceFile::new("p", format!("{{{} | {pred}}}", names.join(", ")));
        let e = crate::frontends::b::parse_expression(&file).expect("parses");
        let ExprKind::Comprehension(ids, p) = &e.kind else {
            panic!("not a comprehension")
        };
        let t = types();
        let mut c = Compiler::new(&t);
        c.reset_frame(0);
        let vars = c.bind(ids);
        (f(&mut c, ids, &vars, p, e.span), file)
    }

    /// The plan for `{names | pred}` as a short string: `x:In [check] y:Eq`.
    fn plan_of(names: &[&str], pred: &str) -> String {
        let (solver, file) = with_binder(names, pred, |c, ids, vars, p, span| {
            c.solver(ids, vars, None, p, span, Undefined::Error)
                .expect("compiles")
        });
        solver
            .steps
            .iter()
            .map(|s| match s {
                SolveStep::Bind(v, g) => format!(
                    "{}:{}",
                    names[*v as usize],
                    match g {
                        Gen::Eq(_) => "Eq",
                        Gen::In(_) => "In",
                        Gen::Type(_) => "Type",
                        Gen::Unbounded(..) => "Unbounded",
                        Gen::SeqUpTo { .. } => "SeqUpTo",
                        Gen::Cases { .. } => "Cases",
                        Gen::Recurrence { .. } => "Recurrence",
                    }
                ),
                SolveStep::BindPattern(..) => "pattern".to_string(),
                SolveStep::Scan(..) => "scan".to_string(),
                SolveStep::Check(p) => format!(
                    "[{}]",
                    &file.text[p.span.start as usize..p.span.end as usize]
                ),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn equalities_generate_before_memberships_and_checks_come_early() {
        // y = x + 1 needs x first; `x > 0` is checked right after x is bound.
        assert_eq!(
            plan_of(&["x", "y"], "y = x + 1 & x : 1..3 & x > 0"),
            "x:In [x > 0] y:Eq"
        );
        // The equality wins over the membership for y; the membership becomes a check.
        assert_eq!(
            plan_of(&["x", "y"], "x : 1..3 & y : 1..9 & y = x * 2"),
            "x:In y:Eq [y : 1..9]"
        );
    }

    #[test]
    fn pairs_destructure_and_missing_domains_are_reported() {
        assert_eq!(plan_of(&["x", "y"], "x |-> y : {1 |-> 2}"), "pattern");
        assert_eq!(plan_of(&["x"], "x > 2"), "x:Unbounded [x > 2]");
        // Applying a function to x bounds x by the function's domain.
        assert_eq!(
            plan_of(&["x"], "{1 |-> 2}(x) > 1"),
            "x:In [{1 |-> 2}(x) > 1]"
        );
    }

    #[test]
    fn disjunctions_of_equalities_generate_tuples() {
        // A knight's moves: the pairs, the disjunction implied by them.
        assert_eq!(
            plan_of(
                &["x", "y"],
                "x : 1..5 & y : 1..5 & ((x = 3 + 1 & y = 3 + 2) or (x = 3 - 1 & y = 3 - 2))"
            ),
            "pattern [x : 1..5] [y : 1..5]"
        );
        // A disjunct that says more keeps the disjunction as a check.
        assert_eq!(
            plan_of(&["x", "y"], "(x = 1 & y = 2 & x < y) or (x = 2 & y = 1)"),
            "pattern [(x = 1 & y = 2 & x < y) or (x = 2 & y = 1)]"
        );
        // One variable in common: that variable's values only, listed, so
        // drawn first.
        assert_eq!(
            plan_of(&["x", "y"], "y : 1..2 & ((x = 1 & y = 2) or x = 2)"),
            "x:In y:In [((x = 1 & y = 2) or x = 2)]"
        );
    }

    #[test]
    fn disjunctions_of_memberships_generate_their_union() {
        // Every disjunct bounds `x`: their union.
        assert_eq!(
            plan_of(&["x"], "x : 1..3 or x = 9 or x : 7..8"),
            "x:In [x : 1..3 or x = 9 or x : 7..8]"
        );
        // `C or y : S`: `S` where `C` fails (once `x` is bound).
        assert_eq!(
            plan_of(&["x", "y"], "x : 1..5 & (y : 7..8 or x < 3)"),
            "x:In y:Cases [(y : 7..8 or x < 3)]"
        );
        // `a \/ b = S`: each a subset of `S`.
        assert_eq!(
            plan_of(&["a", "b"], "a \\/ b = 1..3 & a /\\ b = {}"),
            "a:In b:In [a \\/ b = 1..3] [a /\\ b = {}]"
        );
        // A disjunct without a bound of `x` leaves the disjunction a check.
        assert_eq!(
            plan_of(&["x"], "x : 0..9 & (x : 1..3 or x > 7)"),
            "x:In [(x : 1..3 or x > 7)]"
        );
    }

    #[test]
    fn equations_solve_for_a_variable_once_the_others_are_bound() {
        // The pairs' first components, then the second from the sum.
        assert_eq!(
            plan_of(&["x", "y"], "(x, y) : {1 |-> 2, 2 |-> 1} & x + y = 3"),
            "x:In y:Eq [(x, y) : {1 |-> 2, 2 |-> 1}] [x + y = 3]"
        );
        // A product by a variable: a quotient where it is not 0.
        assert_eq!(
            plan_of(&["x", "y"], "x : 0..3 & y : 1..9 & x * y = 6"),
            "x:In y:Cases [y : 1..9] [x * y = 6]"
        );
        // `d - v = e`.
        assert_eq!(plan_of(&["x"], "6 - x = 2"), "x:Eq [6 - x = 2]");
        // `v + v = e`: a half, where there is one.
        assert_eq!(plan_of(&["x"], "x + x = 6"), "x:Eq [x + x = 6]");
        // Of two variables drawn alike, the one more conjuncts read first:
        // here the check fails before `x` is drawn at all.
        assert_eq!(
            plan_of(
                &["x", "y", "z", "r1", "r2"],
                "x : 1..9 & y : 1..9 & z = y & r1 = z * z & r2 = y * y & r1 /= r2"
            ),
            "y:In z:Eq r1:Eq r2:Eq [r1 /= r2] x:In"
        );
        // Linear in `x` on both sides, with literal coefficients.
        assert_eq!(plan_of(&["x"], "x + x + x = 60"), "x:Eq [x + x + x = 60]");
        assert_eq!(
            plan_of(&["x", "y"], "y : 1..3 & 2 * x - y = x + 7"),
            "y:In x:Eq [2 * x - y = x + 7]"
        );
    }

    #[test]
    fn total_functions_on_an_infinite_and_a_finite_domain_contradict() {
        let plan = plan_of(
            &["f"],
            "f : INTEGER * INTEGER >->> BOOL & f : INT * INT --> BOOL",
        );
        assert!(plan.starts_with("[{f | f : INTEGER"), "{plan}");
        assert!(plan.contains("f:In"), "{plan}");
        let plan = plan_of(&["f"], "f : INTEGER +-> BOOL & f : INT --> BOOL");
        assert!(plan.starts_with("f:In"), "{plan}");
    }

    /// The bounds `static_bounds` finds for `{names | pred}`.
    fn bounds_of(names: &[&str], pred: &str) -> Vec<(Option<i64>, Option<i64>)> {
        with_binder(names, pred, |c, _, vars, p, _| {
            let parts: Vec<CPred> = super::super::conjuncts(p)
                .into_iter()
                .map(|q| c.pred(q).expect("compiles"))
                .collect();
            static_bounds(&parts, vars)
        })
        .0
    }

    #[test]
    fn bounds_propagate_along_comparisons_between_variables() {
        // x < y, y <= 100 - 1, 1 < x: x in 2..98, y in 3..99.
        assert_eq!(
            bounds_of(&["x", "y"], "1 < x & x < y & y < 100"),
            [(Some(2), Some(98)), (Some(3), Some(99))]
        );
        // Through a chain and an equality, from NATURAL and an interval.
        assert_eq!(
            bounds_of(&["a", "b", "c"], "a : NATURAL & a <= b & b = c & c : 0..5"),
            [(Some(0), Some(5)), (Some(0), Some(5)), (Some(0), Some(5))]
        );
        // Nothing bounds y from above.
        assert_eq!(
            bounds_of(&["x", "y"], "x : 1..3 & x <= y"),
            [(Some(1), Some(3)), (Some(1), None)]
        );
        // The plan uses them: no unbounded variable left.
        assert_eq!(
            plan_of(&["x", "y"], "1 < x & x <= y & y < 100"),
            "x:In [1 < x] y:In [x <= y] [y < 100]"
        );
    }
}
