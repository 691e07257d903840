//! The enable graph (Dobrikov and Leuschel, Definition 3): an edge
//! `a -> b` when `a` can enable `b`. `can_enable` is false when `a` writes
//! no variable of `b`'s guard; otherwise ProB asks
//! `test_path(G_a ∧ ¬G_b, a, G_b)`, and orbit looks for a candidate state
//! ([`crate::frontends::b::por::states`]) where `a` is enabled, `b` is not, and some
//! instance of `a` leads to a state where `b` is enabled. When the
//! candidates cannot be enumerated, a conjunct of `b`'s guard that `a`
//! does not write and that excludes one of `a`'s guard conjuncts still
//! rules the edge out ([`crate::frontends::b::por::conjuncts`]); otherwise the edge is
//! kept (conservative).

use std::collections::BTreeSet;

use crate::frontends::b::por::access::AccessSets;
use crate::frontends::b::por::conjuncts::{Exclusion, GuardConjuncts, how, span_text};
use crate::frontends::b::por::dependency::instances;
use crate::frontends::b::por::states::{Candidates, Scan};

/// How the question "can `a` enable `b`?" was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnableDecision {
    /// `a` writes no variable read by `b`'s guard: no edge.
    Disjoint,
    /// A candidate state where `a` enables `b`: edge.
    Witness(String),
    /// No candidate state where `a` enables `b`: no edge.
    Never {
        /// Candidate states examined.
        states: usize,
    },
    /// A conjunct of `b`'s guard that `a` does not write excludes a
    /// conjunct of `a`'s guard ([`crate::frontends::b::por::conjuncts`]): no edge.
    ExclusiveConjuncts(Exclusion),
    /// Not enumerable: edge, conservatively.
    Fallback(String),
}

impl EnableDecision {
    /// Whether the enable graph has the edge.
    pub fn is_edge(&self) -> bool {
        matches!(
            self,
            EnableDecision::Witness(_) | EnableDecision::Fallback(_)
        )
    }

    /// A one-line explanation.
    pub fn describe(&self) -> String {
        self.describe_in("")
    }

    /// [`EnableDecision::describe`], quoting guard conjuncts from `source`
    /// (the machine's text; byte ranges are shown where it is empty).
    pub fn describe_in(&self, source: &str) -> String {
        match self {
            EnableDecision::ExclusiveConjuncts(x) => format!(
                "no edge ({} excludes {}, {}, and is not written)",
                span_text(source, x.second),
                span_text(source, x.first),
                how(x)
            ),
            EnableDecision::Disjoint => "no edge (writes nothing the guard reads)".to_string(),
            EnableDecision::Witness(w) => format!("edge (enumeration: {w})"),
            EnableDecision::Never { states } => {
                format!("no edge (enumeration of {states} states)")
            }
            EnableDecision::Fallback(why) => format!("edge (not enumerable: {why})"),
        }
    }
}

/// Decides whether `a` can enable `b` (`a != b`: an operation cannot be
/// both enabled and disabled in one state).
pub fn can_enable(
    sets: &[AccessSets],
    a: usize,
    b: usize,
    candidates: &Candidates<'_>,
    guards: &GuardConjuncts,
) -> EnableDecision {
    if sets[a].write.is_disjoint(&sets[b].read_guard) {
        return EnableDecision::Disjoint;
    }
    let involved: BTreeSet<String> = sets[a]
        .touched()
        .union(&sets[b].touched())
        .cloned()
        .collect();
    let interp = candidates.interpreter();
    let scan = candidates.scan(&involved, &mut |consts, vars| {
        let at = || candidates.describe(vars);
        let result = (|| -> Result<bool, String> {
            if !instances(interp, b, consts, vars)?.is_empty() {
                return Ok(false);
            }
            for (_, next) in instances(interp, a, consts, vars)? {
                if !instances(interp, b, consts, &next)?.is_empty() {
                    return Ok(true);
                }
            }
            Ok(false)
        })();
        match result {
            Ok(false) => None,
            Ok(true) => Some(format!("enables from {}", at())),
            Err(e) => Some(format!("evaluation error from {}: {e}", at())),
        }
    });
    match scan {
        Scan::Exhausted(states) => EnableDecision::Never { states },
        Scan::Found(w) => EnableDecision::Witness(w),
        Scan::TooBig(why) => match guards.cannot_enable(sets, a, b, candidates) {
            Some(x) => EnableDecision::ExclusiveConjuncts(x),
            None => EnableDecision::Fallback(why),
        },
    }
}
