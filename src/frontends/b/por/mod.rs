//! Partial order reduction for B, the front end's part: the static analysis
//! that runs before the search (Dobrikov and Leuschel, "Optimising the ProB
//! Model Checker for B using Partial Order Reduction", §3; a copy of the
//! paper's text is not in the repository, the algorithm is summarised in
//! each module), producing the model interface's
//! [`Independence`](crate::model::Independence).
//!
//! * [`access`]: read sets of guard and actions and the write set of every
//!   operation, from the AST;
//! * [`states`]: the candidate states on which orbit answers the paper's
//!   constraint-solving queries (`test_path`) by enumeration;
//! * [`conjuncts`]: co-enabledness and enabling decided by pairs of guard
//!   conjuncts, over fewer variables than the whole guards;
//! * [`dependency`]: Algorithm 2, the dependency relation, recording how
//!   each pair was decided;
//! * [`enable`]: the enable graph of Definition 3;
//! * [`instances`]: the same relations per operation instance (parameter
//!   tuple), for operations with small parameter types;
//! * [`domains`]: candidate domains read off typing conjuncts (`x : 0..20`,
//!   `f : S --> T`);
//! * [`bounds`], [`invariant`]: which invariant conjuncts the candidate
//!   states may assume, which integers they bound, and which conjuncts no
//!   operation can break (for the stutter condition);
//! * [`independence`]: all of it as the relations the language-neutral
//!   layer ([`crate::por`]) reduces by, and the groups' read/write slots.

pub mod access;
pub mod bounds;
pub mod conjuncts;
pub mod dependency;
pub mod domains;
pub mod enable;
pub mod independence;
pub mod instances;
pub mod invariant;
pub mod report;
pub mod states;

use std::collections::BTreeSet;

use crate::frontends::b::ast::Machine;
use crate::frontends::b::eval::Interpreter;
use crate::frontends::b::types::MachineTypes;
use access::{AccessSets, access_sets};
use dependency::{Decision, decide};
use enable::{EnableDecision, can_enable};
use states::Candidates;

/// Default budget of candidate states per query.
pub const DEFAULT_BUDGET: usize = 100_000;

/// The result of the static analysis of one machine.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Operation names, in declaration order.
    pub names: Vec<String>,
    /// Access sets, per operation.
    pub sets: Vec<AccessSets>,
    /// `(a, b, decision)` for every pair `a < b`.
    pub pairs: Vec<(usize, usize, Decision)>,
    /// `(a, b, decision)` for every ordered pair `a != b`.
    pub enables: Vec<(usize, usize, EnableDecision)>,
    /// The top-level invariant conjuncts, in order.
    pub conjuncts: Vec<Conjunct>,
    /// The operation instances and their relations.
    pub instances: instances::Instances,
}

/// What the analysis knows about one top-level invariant conjunct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conjunct {
    /// The variables it reads.
    pub reads: BTreeSet<String>,
    /// Whether the candidate states of the refined tests satisfy it.
    pub assumed: bool,
    /// Whether no operation can break it from a candidate state
    /// ([`invariant::preserved`]).
    pub preserved: bool,
}

impl Analysis {
    /// Whether operations `a` and `b` are dependent (every operation is
    /// dependent on itself).
    pub fn dependent(&self, a: usize, b: usize) -> bool {
        if a == b {
            return true;
        }
        let (a, b) = (a.min(b), a.max(b));
        self.pairs
            .iter()
            .find(|(x, y, _)| (*x, *y) == (a, b))
            .is_none_or(|(_, _, d)| d.is_dependent())
    }

    /// Whether the enable graph has the edge `a -> b`.
    pub fn enables(&self, a: usize, b: usize) -> bool {
        self.enables
            .iter()
            .any(|(x, y, d)| (*x, *y) == (a, b) && d.is_edge())
    }
}

/// Runs the analysis; `budget` bounds the candidate states of each query.
/// The candidate states satisfy the invariant (see [`analyse_with`]).
pub fn analyse(
    machine: &Machine,
    types: &MachineTypes,
    interpreter: &Interpreter,
    budget: usize,
) -> Analysis {
    analyse_with(machine, types, interpreter, budget, true)
}

/// Runs the analysis. With `assume_invariant` the candidate states are
/// restricted to those satisfying the invariant conjuncts over their
/// variables, which is sound when the search stops at the first state
/// violating the invariant; without it (deadlock-only checking, where
/// states violating the invariant are explored too) only to the conjuncts
/// proved inductive ([`invariant::inductive`]).
pub fn analyse_with(
    machine: &Machine,
    types: &MachineTypes,
    interpreter: &Interpreter,
    budget: usize,
    assume_invariant: bool,
) -> Analysis {
    let names: Vec<String> = machine
        .operations
        .iter()
        .map(|o| o.name.name.clone())
        .collect();
    let sets: Vec<AccessSets> = machine
        .operations
        .iter()
        .map(|o| access_sets(machine, o))
        .collect();
    let mut candidates = Candidates::new(machine, types, interpreter, budget);
    if !assume_invariant {
        invariant::inductive(&mut candidates, &sets);
    }
    let preserved = invariant::preserved(&candidates, &sets);
    let conjuncts = candidates
        .conjunct_reads()
        .iter()
        .zip(candidates.assumed())
        .zip(&preserved)
        .map(|((reads, &assumed), &preserved)| Conjunct {
            reads: reads.clone(),
            assumed,
            preserved,
        })
        .collect();
    let guards = conjuncts::GuardConjuncts::new(machine, types);
    let n = names.len();
    let mut pairs = Vec::new();
    let mut enables = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if a < b {
                pairs.push((a, b, decide(&names, &sets, a, b, &candidates, &guards)));
            }
            if a != b {
                enables.push((a, b, can_enable(&sets, a, b, &candidates, &guards)));
            }
        }
    }
    let mut analysis = Analysis {
        names,
        sets,
        pairs,
        enables,
        conjuncts,
        instances: instances::Instances::default(),
    };
    analysis.instances = instances::refine(&analysis, types, &candidates);
    analysis
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::typecheck::{CheckOptions, check_machine, machine_preferences};

    /// The analysis of a machine given as text (also used by the other
    /// modules' tests).
    pub(super) fn analyse_text(text: &str) -> Analysis {
        let file = SourceFile::new("t.mch", text);
        let m = crate::frontends::b::parse_machine(&file).expect("parses");
        let options = machine_preferences(&m, &file)
            .expect("preferences")
            .apply(CheckOptions::default(), false);
        let types = check_machine(&m, &options).expect("type checks");
        let interp = Interpreter::new(&m, &types, &file).expect("compiles");
        analyse(&m, &types, &interp, DEFAULT_BUDGET)
    }

    fn decision(a: &Analysis, x: &str, y: &str) -> Decision {
        let ix = a.names.iter().position(|n| n == x).unwrap();
        let iy = a.names.iter().position(|n| n == y).unwrap();
        let (ix, iy) = (ix.min(iy), ix.max(iy));
        a.pairs
            .iter()
            .find(|(p, q, _)| (*p, *q) == (ix, iy))
            .unwrap()
            .2
            .clone()
    }

    #[test]
    fn independent_counters_are_syntactically_independent() {
        let a = analyse_text(
            "MACHINE M VARIABLES x, y INVARIANT x : 0..3 & y : 0..3
             INITIALISATION x, y := 0, 0
             OPERATIONS incx = PRE x < 3 THEN x := x + 1 END;
                        incy = PRE y < 3 THEN y := y + 1 END
             END",
        );
        assert_eq!(decision(&a, "incx", "incy"), Decision::Syntactic);
        assert!(!a.dependent(0, 1));
        assert!(a.dependent(0, 0));
        assert!(!a.enables(0, 1) && !a.enables(1, 0));
    }

    #[test]
    fn shared_writes_are_a_race() {
        let a = analyse_text(
            "MACHINE M VARIABLES x INVARIANT x : 0..3
             INITIALISATION x := 0
             OPERATIONS up = PRE x < 3 THEN x := x + 1 END;
                        reset = BEGIN x := 0 END
             END",
        );
        assert_eq!(
            decision(&a, "up", "reset"),
            Decision::Race(vec!["x".into()])
        );
        assert!(a.dependent(0, 1));
        // reset can enable up (from x = 3), up cannot enable reset (always enabled).
        assert!(a.enables(1, 0));
        assert!(!a.enables(0, 1));
    }

    #[test]
    fn enumeration_proves_the_papers_example_independent() {
        // Example 1 of the paper: e2 changes x but cannot disable e1.
        let a = analyse_text(
            "MACHINE M VARIABLES x, y INVARIANT x : 0..10 & y : BOOL
             INITIALISATION x, y := 1, FALSE
             DEFINITIONS SET_PREF_MAXINT == 10
             OPERATIONS e1 = SELECT x : NAT THEN y := TRUE END;
                        e2 = ANY v WHERE v : 1..10 THEN x := v END
             END",
        );
        match decision(&a, "e1", "e2") {
            Decision::EnumIndependent { states } => assert_eq!(states, 22),
            d => panic!("expected independence by enumeration, got {d:?}"),
        }
        assert!(!a.dependent(0, 1));
    }

    #[test]
    fn enumeration_finds_a_disabling_witness() {
        let a = analyse_text(
            "MACHINE M VARIABLES x, y INVARIANT x : 0..3 & y : BOOL
             INITIALISATION x, y := 3, FALSE
             OPERATIONS e1 = PRE x > 1 THEN y := TRUE END;
                        e2 = PRE x > 0 THEN x := x - 1 END
             END",
        );
        match decision(&a, "e1", "e2") {
            Decision::EnumDependent { witness } => {
                assert!(witness.contains("e2 disables e1"), "{witness}");
                assert!(witness.contains("x=2"), "{witness}");
            }
            d => panic!("expected a witness, got {d:?}"),
        }
        assert!(a.dependent(0, 1));
        // e2 writes x, read by e1's guard, but only ever disables it.
        assert!(!a.enables(1, 0));
    }

    #[test]
    fn actions_that_do_not_commute_are_dependent() {
        let a = analyse_text(
            "MACHINE M VARIABLES x, y INVARIANT x : 0..3 & y : 0..3
             INITIALISATION x, y := 0, 0
             OPERATIONS copy = BEGIN y := x END;
                        set = BEGIN x := 1 END
             END",
        );
        match decision(&a, "copy", "set") {
            Decision::EnumDependent { witness } => {
                assert!(witness.contains("commute"), "{witness}")
            }
            d => panic!("expected dependence, got {d:?}"),
        }
    }

    #[test]
    fn unbounded_integers_fall_back_to_the_conservative_answer() {
        // With MAXINT = 3 the candidates would stop at x = 3, from where
        // `a` never enables `b`; but x is not bounded, and from x = 4 it does.
        let a = analyse_text(
            "MACHINE M VARIABLES x, y INVARIANT x : INTEGER & y : 0..1
             INITIALISATION x, y := 0, 0
             OPERATIONS a = PRE x < 6 THEN x := x + 1 END;
                        b = PRE x >= 5 & y = 0 THEN y := 1 END
             END",
        );
        assert!(a.enables(0, 1));
        assert!(matches!(
            &a.enables.iter().find(|(x, y, _)| (*x, *y) == (0, 1)).unwrap().2,
            EnableDecision::Fallback(why) if why.contains("`x`")
        ));
        assert!(a.dependent(0, 1));
        assert!(!a.conjuncts[0].preserved || a.conjuncts[0].reads.contains("x"));
    }

    #[test]
    fn an_unenumerable_type_falls_back_to_dependent() {
        let a = analyse_text(
            "MACHINE M VARIABLES x, y INVARIANT x : STRING & y : BOOL
             INITIALISATION x, y := \"a\", FALSE
             OPERATIONS e1 = PRE x = \"a\" THEN y := TRUE END;
                        e2 = BEGIN x := \"b\" END
             END",
        );
        assert!(matches!(
            decision(&a, "e1", "e2"),
            Decision::Fallback { .. }
        ));
        assert!(a.dependent(0, 1));
        assert!(a.enables(1, 0));
    }
}
