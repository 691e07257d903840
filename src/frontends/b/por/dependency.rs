//! The dependency relation of Dobrikov and Leuschel's Algorithm 2: two
//! operations are *race dependent* when their write sets meet (unless no
//! candidate state enables both, see below),
//! *syntactically independent* when neither writes what the other reads,
//! and otherwise decided by the refined test, which ProB answers with
//! `test_path` and orbit by enumerating candidate states
//! ([`crate::frontends::b::por::states`]).
//!
//! The refined test checks Definition 1 itself in every candidate state `s`
//! where both operations are enabled: after every instance of `a`, every
//! instance of `b` enabled in `s` is still enabled and vice versa
//! (enabledness, instance by instance), and the instances
//! `s -a(p)-> -b(q)-> s'` are exactly the instances `s -b(q)-> -a(p)-> s'`
//! with the same parameters, outputs and final state (commutativity).
//! This covers both branches of the paper's test (disabling, lines 9-10,
//! and interference of the actions, line 8) and is exact for the
//! candidates; evaluation errors and unenumerable states count as
//! dependence.
//!
//! Definition 1 quantifies over the states where both operations are
//! enabled, so a pair that is never enabled together is independent,
//! whatever it writes (the standard independence relation; the steps of
//! one process all write its program counter but are enabled one at a
//! time). Before calling a race dependent, and before the refined test,
//! orbit enumerates the candidate
//! states over the variables the two guards read (`read_G`, on which
//! enabledness depends): if none enables both, the pair
//! is *never co-enabled* and independent. The candidate states cover every
//! state the search can meet (the same guards as the refined test: bounded
//! integers, the budget, evaluation errors count as co-enabled), and the
//! ample-set checks A2.1/A2.2 stay sound: an operation outside `S` that is
//! independent of `a ∈ S` cannot disable `a`, so `a` is still enabled when
//! an operation never co-enabled with it would have to run.

use std::collections::BTreeSet;

use crate::frontends::b::eval::Interpreter;
use crate::frontends::b::por::access::AccessSets;
use crate::frontends::b::por::conjuncts::{Exclusion, GuardConjuncts, how, span_text};
use crate::frontends::b::por::states::{Candidates, Scan};
use crate::frontends::b::value::Value;

/// How a pair of distinct operations was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Both write these variables: dependent.
    Race(Vec<String>),
    /// Neither writes a variable the other reads: independent.
    Syntactic,
    /// No candidate state enables both: independent (Definition 1 holds
    /// vacuously), whatever they read and write.
    NeverCoEnabled {
        /// The variables both write (empty: no race).
        race: Vec<String>,
        /// Candidate states examined.
        states: usize,
    },
    /// Two guard conjuncts (or one) that no candidate state satisfies
    /// together ([`crate::frontends::b::por::conjuncts`]): never co-enabled, independent.
    ExclusiveConjuncts {
        /// The variables both write (empty: no race).
        race: Vec<String>,
        /// The conjuncts.
        exclusion: Exclusion,
    },
    /// No candidate state shows dependence: independent.
    EnumIndependent {
        /// Candidate states examined.
        states: usize,
    },
    /// A candidate state shows dependence: dependent.
    EnumDependent {
        /// The state and what goes wrong there.
        witness: String,
    },
    /// The candidates could not be enumerated: dependent, conservatively.
    Fallback {
        /// Why.
        reason: String,
    },
}

impl Decision {
    /// Whether the pair counts as dependent.
    pub fn is_dependent(&self) -> bool {
        !matches!(
            self,
            Decision::Syntactic
                | Decision::NeverCoEnabled { .. }
                | Decision::ExclusiveConjuncts { .. }
                | Decision::EnumIndependent { .. }
        )
    }

    /// A one-line explanation, e.g. `dependent (race on x, y)`.
    pub fn describe(&self) -> String {
        self.describe_in("")
    }

    /// [`Decision::describe`], quoting guard conjuncts from `source` (the
    /// machine's text; byte ranges are shown where it is empty).
    pub fn describe_in(&self, source: &str) -> String {
        match self {
            Decision::ExclusiveConjuncts { race, exclusion } => {
                let (x, y) = (
                    span_text(source, exclusion.first),
                    span_text(source, exclusion.second),
                );
                let what = if exclusion.first == exclusion.second {
                    format!("{x} never holds")
                } else {
                    format!("{x} and {y} exclude each other")
                };
                let both = if race.is_empty() {
                    String::new()
                } else {
                    format!("; both write {}", race.join(", "))
                };
                format!(
                    "independent (never co-enabled: {what}, {}{both})",
                    how(exclusion)
                )
            }
            Decision::Race(vs) => format!("dependent (race on {})", vs.join(", ")),
            Decision::Syntactic => "independent (syntactic)".to_string(),
            Decision::NeverCoEnabled { race, states } if race.is_empty() => {
                format!("independent (never co-enabled in {states} states)")
            }
            Decision::NeverCoEnabled { race, states } => format!(
                "independent (never co-enabled in {states} states; both write {})",
                race.join(", ")
            ),
            Decision::EnumIndependent { states } => {
                format!("independent (enumeration of {states} states)")
            }
            Decision::EnumDependent { witness } => {
                format!("dependent (enumeration: {witness})")
            }
            Decision::Fallback { reason } => format!("dependent (not enumerable: {reason})"),
        }
    }
}

/// One instance of an operation: parameters and outputs, then the successor.
pub(crate) type Instance = (Vec<Value>, Vec<Value>);

/// The instances of operation `op` from the state `vars`.
pub(crate) fn instances(
    interpreter: &Interpreter,
    op: usize,
    consts: &[Value],
    vars: &[Value],
) -> Result<Vec<Instance>, String> {
    let mut out = Vec::new();
    interpreter
        .operation_successors(op, consts, vars, &mut |step| {
            let mut label = step.params.to_vec();
            label.extend_from_slice(step.outputs);
            out.push((label, step.variables.to_vec()));
        })
        .map_err(|e| e.message)?;
    Ok(out)
}

/// Decides whether operations `a` and `b` (distinct) are dependent.
pub fn decide(
    names: &[String],
    sets: &[AccessSets],
    a: usize,
    b: usize,
    candidates: &Candidates<'_>,
    guard_conjuncts: &GuardConjuncts,
) -> Decision {
    let (sa, sb) = (&sets[a], &sets[b]);
    let involved: BTreeSet<String> = sa.touched().union(&sb.touched()).cloned().collect();
    let interp = candidates.interpreter();
    let race: Vec<String> = sa.write.intersection(&sb.write).cloned().collect();
    if race.is_empty() && sa.reads().is_disjoint(&sb.write) && sb.reads().is_disjoint(&sa.write) {
        return Decision::Syntactic;
    }
    // Enabledness depends on the guard reads alone (`read_G` covers every
    // construct that can disable an operation, see `crate::frontends::b::por::access`);
    // other variables keep their initial values, and an evaluation error
    // there counts as co-enabled. Cheaper than the refined test below (fewer
    // variables), so it also decides pairs whose refined test is too big.
    let guards: BTreeSet<String> = sa.read_guard.union(&sb.read_guard).cloned().collect();
    if let Some(states) = never_co_enabled(interp, a, b, &guards, candidates) {
        return Decision::NeverCoEnabled { race, states };
    }
    // Too many guard variables for that test: try pairs of guard conjuncts.
    if let Some(exclusion) = guard_conjuncts.exclusive(a, b, candidates) {
        return Decision::ExclusiveConjuncts { race, exclusion };
    }
    if !race.is_empty() {
        return Decision::Race(race);
    }
    let (na, nb) = (&names[a], &names[b]);
    let scan = candidates.scan(&involved, &mut |consts, vars| {
        let at = || candidates.describe(vars);
        match independent_at(interp, a, b, consts, vars) {
            Ok(None) => None,
            Ok(Some(Failure::Disables(first))) => {
                let (x, y) = if first == a { (na, nb) } else { (nb, na) };
                Some(format!("{x} disables {y} from {}", at()))
            }
            Ok(Some(Failure::NoCommute)) => {
                Some(format!("{na} and {nb} do not commute from {}", at()))
            }
            Err(e) => Some(format!("evaluation error from {}: {e}", at())),
        }
    });
    match scan {
        Scan::Exhausted(states) => Decision::EnumIndependent { states },
        Scan::Found(witness) => Decision::EnumDependent { witness },
        Scan::TooBig(reason) => Decision::Fallback { reason },
    }
}

/// The candidate states examined if none of them (varying `involved`, the
/// variables the guards of `a` and `b` read) enables both `a` and `b`;
/// `None` if one
/// does, evaluation fails somewhere, or the states cannot be enumerated.
pub(crate) fn never_co_enabled(
    interp: &Interpreter,
    a: usize,
    b: usize,
    involved: &BTreeSet<String>,
    candidates: &Candidates<'_>,
) -> Option<usize> {
    let scan = candidates.scan(involved, &mut |consts, vars| {
        let both = || -> Result<bool, String> {
            Ok(!instances(interp, a, consts, vars)?.is_empty()
                && !instances(interp, b, consts, vars)?.is_empty())
        };
        match both() {
            Ok(false) => None,
            Ok(true) => Some(String::new()),
            Err(e) => Some(e),
        }
    });
    match scan {
        Scan::Exhausted(states) => Some(states),
        Scan::Found(_) | Scan::TooBig(_) => None,
    }
}

/// Why two operations are not independent in a state.
enum Failure {
    /// Running this operation disables the other one.
    Disables(usize),
    /// Both orders are possible but lead to different instances or states.
    NoCommute,
}

/// Checks Definition 1 in one state (vacuously true unless both are enabled).
fn independent_at(
    interp: &Interpreter,
    a: usize,
    b: usize,
    consts: &[Value],
    vars: &[Value],
) -> Result<Option<Failure>, String> {
    let ia = instances(interp, a, consts, vars)?;
    if ia.is_empty() {
        return Ok(None);
    }
    let ib = instances(interp, b, consts, vars)?;
    if ib.is_empty() {
        return Ok(None);
    }
    // Every instance of b stays enabled after every instance of a (and
    // vice versa): with parameters, one instance can disable another
    // instance of the other operation while leaving it enabled.
    let labels =
        |v: &[Instance]| -> BTreeSet<Vec<Value>> { v.iter().map(|(l, _)| l.clone()).collect() };
    let (la_all, lb_all) = (labels(&ia), labels(&ib));
    // (label of a, label of b, final state) for a-then-b and b-then-a.
    let mut ab = BTreeSet::new();
    for (la, s1) in &ia {
        let next = instances(interp, b, consts, s1)?;
        if !lb_all.is_subset(&labels(&next)) {
            return Ok(Some(Failure::Disables(a)));
        }
        for (lb, s2) in next {
            ab.insert((la.clone(), lb, s2));
        }
    }
    let mut ba = BTreeSet::new();
    for (lb, s1) in &ib {
        let next = instances(interp, a, consts, s1)?;
        if !la_all.is_subset(&labels(&next)) {
            return Ok(Some(Failure::Disables(b)));
        }
        for (la, s2) in next {
            ba.insert((la, lb.clone(), s2));
        }
    }
    Ok((ab != ba).then_some(Failure::NoCommute))
}
