//! Numbering and sizing of the given sets, and the integer bounds.
//!
//! Given sets are numbered as [`crate::frontends::b::types`] prescribes: machine set
//! parameters first, then the `SETS` clause in order. Enumerated sets have
//! their elements. A deferred set (or set parameter) `X` gets its size from,
//! in this order of precedence (as ProB does, see "Deferred Sets" in the ProB
//! manual):
//!
//! 1. a command-line override `--set X=n` ([`CheckOptions::set_sizes`]);
//! 2. a definition `scope_X == 1..n` or `scope_X == n`;
//! 3. a top-level conjunct `card(X) = n` (or `n = card(X)`) of `PROPERTIES`
//!    (`n` over literals, integer constants and `MAXINT`/`MININT`);
//! 4. [`CheckOptions::default_set_size`] (ProB's `DEFAULT_SETSIZE`, 2), or
//!    the least size `PROPERTIES` allows if that is larger
//!    (`card(X) >= n`, `n` over literals, integer constants and the sizes
//!    of other sets, `card(X) >= card(Y) + card(Z)`; `X = {a, b, c}`, distinct constants in `X`, a
//!    function that needs as many elements as a known set: `f : BOOL * BOOL
//!    >->> X`; `X = A \/ B` of disjoint non-empty parts, themselves
//!    possibly cut again: `B = C \/ D`).
//!
//! Its elements are named `X1, X2, ...` as ProB prints them. A `--set`
//! override replaces a `scope_X` definition (a scope only proposes a size),
//! but a `card(X) = n` property is a constraint of the machine: a size from
//! any source that disagrees with it is an error (the constants could never
//! be set up), and so is a scope or override on an enumerated set that does
//! not match its number of elements.

use std::collections::HashMap;

use super::CheckOptions;
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{
    BinaryOp, BuiltinConstant, Expr, ExprKind, Machine, SetDecl, UnaryOp,
};
use crate::frontends::b::types::GivenSet;
use crate::frontends::b::visit::mentions_any;

/// The largest given set orbit accepts (its elements are enumerated).
pub const MAX_GIVEN_SET_SIZE: u32 = 1_000_000;

/// Given sets with the span of their declarations.
pub(crate) struct NumberedSets {
    /// The sets, numbered.
    pub sets: Vec<GivenSet>,
    /// Where each set was declared.
    pub spans: Vec<Span>,
    /// Where each enumerated element was declared, per set (empty for deferred sets).
    pub element_spans: Vec<Vec<Span>>,
}

/// Whether a machine parameter is a set parameter: B's rule, written in
/// upper case only (`TOWN`), or, as ProB reads it, capitalised and left
/// untyped by CONSTRAINTS (`MACHINE included2(Param, value) CONSTRAINTS
/// value : INTEGER`, with `elem : Param` in an operation).
pub(crate) fn names_a_set(name: &str, constraints: Option<&Expr>) -> bool {
    let capitalised = name.chars().next().is_some_and(char::is_uppercase);
    !name.chars().any(char::is_lowercase)
        || (capitalised && !constraints.is_some_and(|c| mentions_any(c, &[name.to_string()])))
}

/// Numbers the given sets and fixes their sizes.
pub(crate) fn number_given_sets(
    machine: &Machine,
    options: &CheckOptions,
    diags: &mut Vec<Diagnostic>,
) -> NumberedSets {
    let mut out = NumberedSets {
        sets: Vec::new(),
        spans: Vec::new(),
        element_spans: Vec::new(),
    };
    for p in &machine.params {
        if !names_a_set(&p.name, machine.constraints.as_ref()) {
            diags.push(
                Diagnostic::error(
                    p.span,
                    format!("not supported yet: scalar machine parameter `{}`", p.name),
                )
                .with_note("set parameters are written in upper case, e.g. `MACHINE Towns(TOWN)`"),
            );
            continue;
        }
        out.sets.push(GivenSet {
            name: p.name.clone(),
            elements: Vec::new(),
            deferred: true,
        });
        out.spans.push(p.span);
        out.element_spans.push(Vec::new());
    }
    for decl in &machine.sets {
        let name = decl.name();
        let (elements, spans, deferred) = match decl {
            SetDecl::Deferred(_) => (Vec::new(), Vec::new(), true),
            SetDecl::Enumerated(_, elems) => (
                elems.iter().map(|e| e.name.clone()).collect(),
                elems.iter().map(|e| e.span).collect(),
                false,
            ),
        };
        out.sets.push(GivenSet {
            name: name.name.clone(),
            elements,
            deferred,
        });
        out.spans.push(name.span);
        out.element_spans.push(spans);
    }

    let card_facts = card_conjuncts(machine, options);
    let sizes: Vec<Option<u32>> = (0..out.sets.len())
        .map(|k| {
            size_of(
                &out.sets[k],
                out.spans[k],
                machine,
                options,
                &card_facts,
                diags,
            )
        })
        .collect();
    // Sets without a size take the least size PROPERTIES allows, if it
    // needs more than the default; a bound may read the sizes of other
    // sets (`card(X) >= card(Y) + card(Z)`): those of a first round.
    let mut known = integer_constants(machine, options);
    for (name, n, _) in &card_facts {
        if let Some(n) = n {
            known.insert(card_key(name), *n);
        }
    }
    let mut least_sizes: Vec<u32> = Vec::new();
    for _round in 0..2 {
        least_sizes = out
            .sets
            .iter()
            .zip(&sizes)
            .map(|(set, size)| {
                size.unwrap_or_else(|| {
                    if !set.deferred {
                        return set.elements.len() as u32;
                    }
                    let (least, most) = size_bounds(machine, &set.name, &known);
                    options.default_set_size.max(least).min(most)
                })
            })
            .collect();
        for (set, n) in out.sets.iter().zip(&least_sizes) {
            known.insert(card_key(&set.name), i64::from(*n));
        }
    }
    for (k, set) in out.sets.iter_mut().enumerate() {
        if set.deferred {
            let n = least_sizes[k];
            if n == 0 || n > MAX_GIVEN_SET_SIZE {
                diags.push(Diagnostic::error(
                    out.spans[k],
                    format!(
                        "set `{}` would have size {n} (the default set size)",
                        set.name
                    ),
                ));
                continue;
            }
            set.elements = (1..=n).map(|i| format!("{}{i}", set.name)).collect();
        }
    }
    check_options_name_sets(&out.sets, machine, options, diags);
    out
}

/// The size fixed for one set by the sources above, checking they agree.
/// Returns `None` when no source gives a size.
fn size_of(
    set: &GivenSet,
    decl_span: Span,
    machine: &Machine,
    options: &CheckOptions,
    card_facts: &[(String, Option<i64>, Span)],
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    // (size, where it came from, span to blame)
    let mut sources: Vec<(i64, String, Span)> = Vec::new();
    if !set.deferred {
        sources.push((
            set.elements.len() as i64,
            "its enumeration".to_string(),
            decl_span,
        ));
    }
    let overridden = options
        .set_sizes
        .iter()
        .rev()
        .find(|(name, _)| *name == set.name);
    if let Some((_, n)) = overridden {
        sources.push((i64::from(*n), format!("--set {}={n}", set.name), decl_span));
    }
    // `--set` overrides a `scope_X` definition (a scope only sets the default
    // size); a `card(X) = n` property is a constraint of the machine and
    // must agree with it.
    let scopes = machine
        .scopes
        .iter()
        .filter(|(i, _)| i.name == set.name && overridden.is_none());
    for (ident, expr) in scopes {
        match scope_size(expr) {
            Some(n) => sources.push((n, format!("scope_{}", ident.name), expr.span)),
            None => diags.push(
                Diagnostic::error(
                    expr.span,
                    format!("cannot read the size given by `scope_{}`", ident.name),
                )
                .with_label("expected `1..n` or an integer")
                .with_note("a scope definition reads `scope_X == 1..n` or `scope_X == n`"),
            ),
        }
    }
    // `card(X) = e` with a non-literal `e` is an ordinary property, not a size.
    for (_, n, span) in card_facts.iter().filter(|(name, _, _)| *name == set.name) {
        if let Some(n) = n {
            sources.push((
                *n,
                format!("`card({}) = {n}` in PROPERTIES", set.name),
                *span,
            ));
        }
    }
    let (first, rest) = sources.split_first()?;
    for (n, origin, span) in rest {
        if *n != first.0 {
            diags.push(Diagnostic::error(
                *span,
                format!(
                    "set `{}` has size {} from {}, but {origin} gives {n}",
                    set.name, first.0, first.1
                ),
            ));
        }
    }
    if first.0 < 1 || first.0 > i64::from(MAX_GIVEN_SET_SIZE) {
        diags.push(
            Diagnostic::error(
                first.2,
                format!("set `{}` would have size {} (from {})", set.name, first.0, first.1),
            )
            .with_note(format!(
                "given sets are non-empty, and orbit enumerates at most {MAX_GIVEN_SET_SIZE} elements"
            )),
        );
        return None;
    }
    Some(first.0 as u32)
}

/// The least and most sizes PROPERTIES allows for deferred set `name`,
/// from its top-level conjuncts (as ProB infers deferred set sizes): `card(X) >= n`
/// (`n` from literals and the integers `known` holds: constants, other sets' sizes),
/// `card(X) > n` (and mirrored), `X = {a, b, c}` (or `{a} \/ {b, c}`) of
/// distinct names (exactly that many: the size is then also at most that), and constants that
/// conjuncts `a : X` and `a /= b` (or `not(a = b)`) make pairwise distinct elements of `X`
/// (the largest such group found greedily), and functions that need as
/// many elements as a set of known size (`f : BOOL * BOOL >->> X`); 0
/// and `u32::MAX` where nothing bounds it.
fn size_bounds(machine: &Machine, name: &str, known: &HashMap<String, i64>) -> (u32, u32) {
    let Some(props) = &machine.properties else {
        return (0, u32::MAX);
    };
    let is_set = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if n == name);
    let card_of_set = |e: &Expr| matches!(&e.kind, ExprKind::Unary(UnaryOp::Card, s) if is_set(s));
    fn ident(e: &Expr) -> Option<&str> {
        match &e.kind {
            ExprKind::Ident(n) => Some(n.as_str()),
            _ => None,
        }
    }
    let mut least: i64 = 0;
    let mut most: i64 = i64::MAX;
    let mut members: Vec<&str> = Vec::new();
    let mut distinct: Vec<(&str, &str)> = Vec::new();
    for c in conjuncts(props) {
        // `not(a = b)` is `a /= b`.
        if let ExprKind::Unary(UnaryOp::Not, inner) = &c.kind
            && let ExprKind::Binary(BinaryOp::Eq, a, b) = &inner.kind
        {
            if let (Some(x), Some(y)) = (ident(a), ident(b)) {
                distinct.push((x, y));
            }
            continue;
        }
        let ExprKind::Binary(op, a, b) = &c.kind else {
            continue;
        };
        match op {
            BinaryOp::Ge | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Lt => {
                // Normalise to `card(X) >= n` / `card(X) > n`.
                let (card, bound, strict) = match op {
                    BinaryOp::Ge => (a, b, false),
                    BinaryOp::Gt => (a, b, true),
                    BinaryOp::Le => (b, a, false),
                    _ => (b, a, true),
                };
                if card_of_set(card)
                    && let Some(n) = const_int_in(bound, known)
                {
                    least = least.max(if strict { n.saturating_add(1) } else { n });
                }
            }
            BinaryOp::Eq => {
                let enumeration = if is_set(a) {
                    b
                } else if is_set(b) {
                    a
                } else {
                    continue;
                };
                // `{a, b, c}`, or a union of extensions: `{a} \/ {b, c}`.
                let mut items = Vec::new();
                if extension_items(enumeration, &mut items) {
                    let mut names: Vec<&str> = items.iter().filter_map(|e| ident(e)).collect();
                    names.sort_unstable();
                    names.dedup();
                    if names.len() == items.len() {
                        least = least.max(items.len() as i64);
                    }
                    most = most.min(items.len() as i64);
                } else if let Some((at_least, at_most)) = union_bounds(enumeration, props, known, 0)
                {
                    // `X = a \/ b \/ c` of sets whose sizes are known.
                    least = least.max(at_least);
                    most = most.min(at_most);
                }
            }
            BinaryOp::Member if is_set(b) => members.extend(ident(a)),
            BinaryOp::Member => {
                if let Some(n) = size_from_function_space(machine, b, &is_set, known) {
                    least = least.max(n);
                }
            }
            BinaryOp::Neq => {
                if let (Some(x), Some(y)) = (ident(a), ident(b)) {
                    distinct.push((x, y));
                }
            }
            _ => {}
        }
    }
    // A group of members that are pairwise distinct, grown greedily.
    let differ = |x: &str, y: &str| {
        distinct
            .iter()
            .any(|&(a, b)| (a, b) == (x, y) || (a, b) == (y, x))
    };
    let mut best = 0usize;
    for (i, &first) in members.iter().enumerate() {
        let mut group = vec![first];
        for &m in &members[i + 1..] {
            if group.iter().all(|&g| differ(g, m)) {
                group.push(m);
            }
        }
        best = best.max(group.len());
    }
    least = least.max(best as i64);
    let clamp = |n: i64| n.clamp(0, i64::from(u32::MAX)) as u32;
    (clamp(least), clamp(most))
}

/// The names of a union `a \/ b \/ ...` of at least two names.
fn union_parts(e: &Expr) -> Option<Vec<&str>> {
    fn parts<'e>(e: &'e Expr, out: &mut Vec<&'e str>) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => {
                out.push(n);
                true
            }
            ExprKind::Binary(BinaryOp::Union, a, b) => parts(a, out) && parts(b, out),
            _ => false,
        }
    }
    let mut names = Vec::new();
    (parts(e, &mut names) && names.len() >= 2).then_some(names)
}

/// The least and most sizes of `a \/ b \/ ...`, a union of names: the
/// largest part and the sum, or at least the sum where PROPERTIES makes
/// every two parts disjoint (`a /\ b = {}`). A part's size is what `known`
/// holds (`card(a) = 3` in PROPERTIES), else at least 1 where PROPERTIES
/// says `a /= {}` and at least its own parts' where it is a union
/// (`Inst = Invalid \/ Valid & Valid = Stop \/ Exec`, all disjoint and
/// non-empty: at least 3), and at most unknown. `depth` counts the
/// unions followed (unions defined by each other end there).
fn union_bounds(
    union: &Expr,
    props: &Expr,
    known: &HashMap<String, i64>,
    depth: u32,
) -> Option<(i64, i64)> {
    let names = union_parts(union)?;
    let sizes: Vec<(i64, i64)> = names
        .iter()
        .map(|n| match known.get(&card_key(n)) {
            Some(&k) => (k, k),
            None => (least_part_size(n, props, known, depth), i64::MAX),
        })
        .collect();
    let sum = sizes
        .iter()
        .try_fold(0i64, |a, b| a.checked_add(b.1))
        .unwrap_or(i64::MAX);
    let least_sum = sizes.iter().fold(0i64, |a, b| a.saturating_add(b.0));
    let largest = sizes.iter().map(|s| s.0).max()?;
    let empty = |e: &Expr| {
        matches!(
            &e.kind,
            ExprKind::Constant(BuiltinConstant::EmptySet | BuiltinConstant::EmptySeq)
        )
    };
    let disjoint_pairs: Vec<(&str, &str)> = conjuncts(props)
        .into_iter()
        .filter_map(|c| match &c.kind {
            ExprKind::Binary(BinaryOp::Eq, a, b) => {
                let meet = if empty(b) {
                    a
                } else if empty(a) {
                    b
                } else {
                    return None;
                };
                match &meet.kind {
                    ExprKind::Binary(BinaryOp::Inter, x, y) => match (&x.kind, &y.kind) {
                        (ExprKind::Ident(x), ExprKind::Ident(y)) => Some((x.as_str(), y.as_str())),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        })
        .collect();
    let disjoint = |x: &str, y: &str| {
        disjoint_pairs
            .iter()
            .any(|&(a, b)| (a, b) == (x, y) || (a, b) == (y, x))
    };
    let all_disjoint = names
        .iter()
        .enumerate()
        .all(|(i, x)| names[i + 1..].iter().all(|y| disjoint(x, y)));
    if least_sum == 0 && sum == i64::MAX {
        return None;
    }
    Some((if all_disjoint { least_sum } else { largest }, sum))
}

/// The least size PROPERTIES allows a set constant `name` of unknown
/// size: 1 where it says `name /= {}`, its parts' where it says `name = a
/// \/ b` (see [`union_bounds`]).
fn least_part_size(name: &str, props: &Expr, known: &HashMap<String, i64>, depth: u32) -> i64 {
    let is_name = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if n == name);
    let empty = |e: &Expr| matches!(&e.kind, ExprKind::Constant(BuiltinConstant::EmptySet));
    let mut least = 0;
    for c in conjuncts(props) {
        let ExprKind::Binary(op, a, b) = &c.kind else {
            continue;
        };
        match op {
            BinaryOp::Neq if (is_name(a) && empty(b)) || (empty(a) && is_name(b)) => {
                least = least.max(1);
            }
            BinaryOp::Eq if depth < 8 => {
                let other = if is_name(a) {
                    b
                } else if is_name(b) {
                    a
                } else {
                    continue;
                };
                if let Some((at_least, _)) = union_bounds(other, props, known, depth + 1) {
                    least = least.max(at_least);
                }
            }
            _ => {}
        }
    }
    least
}

/// Collects the items of `set` when it is a set extension or a union of
/// them; false otherwise.
fn extension_items<'e>(set: &'e Expr, items: &mut Vec<&'e Expr>) -> bool {
    match &set.kind {
        ExprKind::SetEnum(list) => {
            items.extend(list);
            true
        }
        ExprKind::Binary(BinaryOp::Union, a, b) => {
            extension_items(a, items) && extension_items(b, items)
        }
        _ => false,
    }
}

/// The least size of deferred set `X` (`is_set`) that a function in
/// `space` needs, when the other side's size is known statically: `A >->
/// X` and `A >->> X` need `|A|` elements, `X >->> A` and `X -->> A` (or
/// `+->>`) as many as `A` has.
fn size_from_function_space(
    machine: &Machine,
    space: &Expr,
    is_set: &dyn Fn(&Expr) -> bool,
    known: &HashMap<String, i64>,
) -> Option<i64> {
    let ExprKind::Binary(arrow, from, to) = &space.kind else {
        return None;
    };
    use BinaryOp::{PartialSurjection, TotalBijection, TotalInjection, TotalSurjection};
    if is_set(to) && matches!(arrow, TotalInjection | TotalBijection) {
        return static_size(machine, from, known);
    }
    if is_set(from) && matches!(arrow, TotalBijection | TotalSurjection | PartialSurjection) {
        return static_size(machine, to, known);
    }
    None
}

/// The number of elements of `set` where the machine's text alone gives
/// it: `BOOL`, an enumerated set, an interval of bounds over literals and
/// the integer constants `known`, a set extension of distinct elements of
/// enumerated sets or numbers, and products of these.
fn static_size(machine: &Machine, set: &Expr, known: &HashMap<String, i64>) -> Option<i64> {
    match &set.kind {
        ExprKind::Constant(crate::frontends::b::ast::BuiltinConstant::Bool) => Some(2),
        ExprKind::Ident(name) => machine.sets.iter().find_map(|decl| match decl {
            SetDecl::Enumerated(n, items) if n.name == *name => Some(items.len() as i64),
            _ => None,
        }),
        ExprKind::Binary(BinaryOp::Interval, a, b) => {
            let span = const_int_in(b, known)?
                .checked_sub(const_int_in(a, known)?)?
                .checked_add(1)?;
            Some(span.max(0))
        }
        ExprKind::Binary(BinaryOp::Mul, a, b) => {
            static_size(machine, a, known)?.checked_mul(static_size(machine, b, known)?)
        }
        ExprKind::SetEnum(items) => {
            // Elements of enumerated sets and numbers: distinct by their
            // text (two constants could be equal).
            let element = |n: &str| {
                machine.sets.iter().any(|decl| {
                    matches!(decl, SetDecl::Enumerated(_, items) if items.iter().any(|i| i.name == n))
                })
            };
            let mut keys: Vec<String> = items
                .iter()
                .map(|e| match &e.kind {
                    ExprKind::Ident(n) if element(n) => Some(n.clone()),
                    ExprKind::Int(k) => Some(k.to_string()),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            keys.sort_unstable();
            keys.dedup();
            (keys.len() == items.len()).then_some(keys.len() as i64)
        }
        _ => None,
    }
}

/// Sizes in `--set` overrides and `scope_` definitions for sets that do not exist.
fn check_options_name_sets(
    sets: &[GivenSet],
    machine: &Machine,
    options: &CheckOptions,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, _) in &options.set_sizes {
        if !sets.iter().any(|s| s.name == *name) {
            let known: Vec<&str> = sets.iter().map(|s| s.name.as_str()).collect();
            diags.push(
                Diagnostic::error(
                    machine.name.span,
                    format!("--set {name}=...: the machine has no set `{name}`"),
                )
                .with_note(format!(
                    "its sets are: {}",
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                )),
            );
        }
    }
    for (ident, _) in &machine.scopes {
        if !sets.iter().any(|s| s.name == ident.name) {
            // ProB ignores it with a warning (machines keep scopes for sets
            // of machines they no longer see).
            tracing::warn!(
                "ignoring `scope_{}`: `{}` is not a set of this machine",
                ident.name,
                ident.name
            );
        }
    }
}

/// The size a `scope_X` expression gives: `a..b` is `b-a+1`, `n` is `n`.
fn scope_size(expr: &Expr) -> Option<i64> {
    match &expr.kind {
        ExprKind::Binary(BinaryOp::Interval, lo, hi) => Some(
            const_int(hi)?
                .checked_sub(const_int(lo)?)?
                .checked_add(1)?
                .max(0),
        ),
        _ => const_int(expr),
    }
}

/// Value of a literal integer expression (`3`, `-1`, `2+1`), if it is one.
pub(crate) fn const_int(expr: &Expr) -> Option<i64> {
    const_int_in(expr, &HashMap::new())
}

/// Value of an integer expression over literals and the constants
/// `known` gives values, if it is one.
fn const_int_in(expr: &Expr, known: &HashMap<String, i64>) -> Option<i64> {
    match &expr.kind {
        ExprKind::Int(n) => Some(*n),
        ExprKind::Ident(name) => known.get(name).copied(),
        ExprKind::Constant(BuiltinConstant::MaxInt) => known.get(MAXINT_KEY).copied(),
        ExprKind::Constant(BuiltinConstant::MinInt) => known.get(MININT_KEY).copied(),
        ExprKind::Unary(UnaryOp::Minus, e) => const_int_in(e, known)?.checked_neg(),
        ExprKind::Unary(UnaryOp::Card, e) => match &e.kind {
            ExprKind::Ident(set) => known.get(&card_key(set)).copied(),
            _ => None,
        },
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_int_in(a, known)?, const_int_in(b, known)?);
            match op {
                BinaryOp::Add => a.checked_add(b),
                BinaryOp::Minus => a.checked_sub(b),
                BinaryOp::Mul => a.checked_mul(b),
                BinaryOp::Div => a.checked_div(b),
                BinaryOp::Power => a.checked_pow(u32::try_from(b).ok()?),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The keys of `MAXINT` and `MININT` among known integers (keywords, never
/// the names of constants).
const MAXINT_KEY: &str = "MAXINT";
const MININT_KEY: &str = "MININT";

/// The key of `card(X)` among known integers (no identifier has parentheses).
fn card_key(set: &str) -> String {
    format!("card({set})")
}

/// Integer constants that top-level conjuncts of PROPERTIES define by an
/// equality with literals and other such constants (`N = 4`, `M = N + 1`),
/// as ProB reads them before it sizes the deferred sets (`card(Agents) =
/// N`); `MAXINT` and `MININT` are known too (`card(A) = MAXINT`).
fn integer_constants(machine: &Machine, options: &CheckOptions) -> HashMap<String, i64> {
    let mut known = HashMap::new();
    known.insert(
        MAXINT_KEY.to_string(),
        options.maxint.unwrap_or(PROB_DEFAULT_MAXINT),
    );
    known.insert(
        MININT_KEY.to_string(),
        options.minint.unwrap_or(PROB_DEFAULT_MININT),
    );
    let Some(props) = &machine.properties else {
        return known;
    };
    let is_constant = |n: &str| machine.constants.iter().any(|c| c.name == n);
    let definitions: Vec<(&str, &Expr)> = conjuncts(props)
        .into_iter()
        .filter_map(|c| match &c.kind {
            ExprKind::Binary(BinaryOp::Eq, a, b) => match (&a.kind, &b.kind) {
                (ExprKind::Ident(n), _) if is_constant(n) => Some((n.as_str(), &**b)),
                (_, ExprKind::Ident(n)) if is_constant(n) => Some((n.as_str(), &**a)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    loop {
        let mut changed = false;
        for (name, e) in &definitions {
            if !known.contains_key(*name)
                && let Some(v) = const_int_in(e, &known)
            {
                known.insert(name.to_string(), v);
                changed = true;
            }
        }
        if !changed {
            return known;
        }
    }
}

/// The top-level conjuncts of a predicate, left to right.
pub(crate) fn conjuncts(pred: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut stack = vec![pred];
    while let Some(p) = stack.pop() {
        match &p.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                stack.push(b);
                stack.push(a);
            }
            _ => out.push(p),
        }
    }
    out
}

/// Every top-level `card(X) = e` / `e = card(X)` conjunct of PROPERTIES
/// with `X` a plain name: (name, value of `e` if it is a literal, span).
fn card_conjuncts(machine: &Machine, options: &CheckOptions) -> Vec<(String, Option<i64>, Span)> {
    let Some(props) = &machine.properties else {
        return Vec::new();
    };
    let known = integer_constants(machine, options);
    let card_of = |e: &Expr| match &e.kind {
        ExprKind::Unary(UnaryOp::Card, s) => match &s.kind {
            ExprKind::Ident(name) => Some(name.clone()),
            _ => None,
        },
        _ => None,
    };
    conjuncts(props)
        .into_iter()
        .filter_map(|c| match &c.kind {
            ExprKind::Binary(BinaryOp::Eq, a, b) => {
                if let Some(name) = card_of(a) {
                    Some((name, const_int_in(b, &known), c.span))
                } else {
                    card_of(b).map(|name| (name, const_int_in(a, &known), c.span))
                }
            }
            _ => None,
        })
        .collect()
}

/// ProB's default `MAXINT` (preference `MAXINT`).
pub const PROB_DEFAULT_MAXINT: i64 = 3;
/// ProB's default `MININT` (preference `MININT`).
pub const PROB_DEFAULT_MININT: i64 = -1;
/// ProB's default size of a deferred set (preference `DEFAULT_SETSIZE`).
pub const PROB_DEFAULT_SET_SIZE: u32 = 2;

/// `MAXINT` and `MININT`: the options (which carry `--maxint` and
/// `SET_PREF_MAXINT`, see [`super::machine_preferences`]), else ProB's defaults.
pub(crate) fn integer_bounds(
    machine: &Machine,
    options: &CheckOptions,
    diags: &mut Vec<Diagnostic>,
) -> (i64, i64) {
    let maxint = options.maxint.unwrap_or(PROB_DEFAULT_MAXINT);
    let minint = options.minint.unwrap_or(PROB_DEFAULT_MININT);
    if minint > maxint {
        diags.push(Diagnostic::error(
            machine.name.span,
            format!("MININT ({minint}) is greater than MAXINT ({maxint})"),
        ));
    }
    (maxint, minint)
}
