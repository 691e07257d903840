//! Invariant conjuncts the operations cannot break, proved by enumerating
//! candidate states ([`crate::frontends::b::por::states`]).
//!
//! A top-level conjunct `C` is *preserved* (under the assumed conjuncts
//! `P`) when every instance of every operation that writes a variable of
//! `C`, run from any candidate state satisfying `P`, leads to a state
//! satisfying `C`. Two uses:
//!
//! * **Stutter condition (A3) with the invariant checked.** The search
//!   stops at the first state violating the invariant, so every state it
//!   expands, and every state before the first violation on any path,
//!   satisfies all conjuncts (`P` = all). A preserved conjunct then holds
//!   in every successor of such a state, including the first violating
//!   state of a path, which must therefore violate an unpreserved
//!   conjunct. An operation that writes no variable of an unpreserved
//!   conjunct (nor of an assertion or the goal) keeps the truth of every
//!   unpreserved conjunct, and maps states satisfying the invariant to
//!   states satisfying it (preserved conjuncts hold after any operation
//!   from such a state). In the commutation argument behind A2 and A3
//!   (Baier and Katoen, Theorem 8.15) the ample operation is moved in front
//!   of a path `s -> .. -> bad` whose states before `bad` satisfy the
//!   invariant; the moved copies of those states satisfy it as well, and
//!   the moved copy of `bad` violates the same unpreserved conjunct as
//!   `bad`. So the violation survives the reduction, while only the
//!   unpreserved conjuncts make operations visible. (This is the paper's
//!   suggestion of §5 to find more stutter events by proving invariant
//!   preservation, with enumeration as the prover.)
//! * **Deadlock-only checking.** States violating the invariant are
//!   explored then, so the refined tests may assume only conjuncts that
//!   hold in every reachable state: the greatest set `P` of conjuncts that
//!   hold in every initial state and are all preserved under `P`
//!   ([`inductive`]), an inductive invariant by construction.
//!
//! A conjunct is not preserved when the enumeration finds a breaking
//! state, an evaluation error, or cannot enumerate the candidates.

use std::collections::BTreeSet;

use crate::frontends::b::por::access::AccessSets;
use crate::frontends::b::por::dependency::instances;
use crate::frontends::b::por::states::{Candidates, Scan};

/// For each top-level conjunct: whether it is preserved under the
/// conjuncts `candidates` currently assumes (see the module docs).
pub fn preserved(candidates: &Candidates<'_>, sets: &[AccessSets]) -> Vec<bool> {
    let reads = candidates.conjunct_reads();
    (0..reads.len())
        .map(|c| preserved_by_all(candidates, sets, c))
        .collect()
}

/// Whether every operation keeps conjunct `c` true.
fn preserved_by_all(candidates: &Candidates<'_>, sets: &[AccessSets], c: usize) -> bool {
    let reads = &candidates.conjunct_reads()[c];
    let interp = candidates.interpreter();
    sets.iter().enumerate().all(|(op, s)| {
        if s.write.is_disjoint(reads) {
            return true;
        }
        let involved: BTreeSet<String> = s.touched().union(reads).cloned().collect();
        let scan = candidates.scan(&involved, &mut |consts, vars| {
            let broken = instances(interp, op, consts, vars).and_then(|next| {
                for (_, after) in next {
                    if !interp
                        .invariant_conjunct_holds(c, consts, &after)
                        .map_err(|e| e.message)?
                    {
                        return Ok(true);
                    }
                }
                Ok(false)
            });
            match broken {
                Ok(false) => None,
                Ok(true) => Some("breaks".to_string()),
                Err(e) => Some(e),
            }
        });
        matches!(scan, Scan::Exhausted(_))
    })
}

/// The greatest set of conjuncts that hold in every initial state and are
/// preserved under themselves: they hold in every reachable state. Leaves
/// `candidates` assuming exactly that set.
pub fn inductive(candidates: &mut Candidates<'_>, sets: &[AccessSets]) -> Vec<bool> {
    let mut assumed = initially_true(candidates);
    loop {
        candidates.assume(assumed.clone());
        let kept = preserved(candidates, sets);
        let next: Vec<bool> = assumed.iter().zip(&kept).map(|(a, k)| *a && *k).collect();
        if next == assumed {
            return assumed;
        }
        assumed = next;
    }
}

/// For each conjunct: whether it holds in every initial state.
fn initially_true(candidates: &Candidates<'_>) -> Vec<bool> {
    let interp = candidates.interpreter();
    let n = candidates.conjunct_reads().len();
    let mut holds = vec![true; n];
    let Ok(valuations) = interp.constant_valuations() else {
        return vec![false; n];
    };
    for consts in &valuations {
        let r = interp.initialise(consts, &mut |vars| {
            for (c, h) in holds.iter_mut().enumerate() {
                if *h
                    && !interp
                        .invariant_conjunct_holds(c, consts, vars)
                        .unwrap_or(false)
                {
                    *h = false;
                }
            }
        });
        if r.is_err() {
            return vec![false; n];
        }
    }
    holds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;
    use crate::frontends::b::eval::Interpreter;
    use crate::frontends::b::por::access::access_sets;
    use crate::frontends::b::typecheck::{CheckOptions, check_machine, machine_preferences};

    fn with(text: &str, f: impl FnOnce(&mut Candidates<'_>, &[AccessSets])) {
        let file = SourceFile::new("t.mch", text);
        let m = crate::frontends::b::parse_machine(&file).expect("parses");
        let options = machine_preferences(&m, &file)
            .expect("preferences")
            .apply(CheckOptions::default(), false);
        let types = check_machine(&m, &options).expect("type checks");
        let interp = Interpreter::new(&m, &types, &file).expect("compiles");
        let sets: Vec<AccessSets> = m.operations.iter().map(|o| access_sets(&m, o)).collect();
        let mut c = Candidates::new(&m, &types, &interp, 10_000);
        f(&mut c, &sets);
    }

    #[test]
    fn guarded_counters_preserve_their_bounds() {
        with(
            "MACHINE M VARIABLES x, y INVARIANT x : 0..3 & y : 0..3 & x <= y
             INITIALISATION x, y := 0, 0
             OPERATIONS incx = PRE x < 3 THEN x := x + 1 END;
                        incy = PRE y < 3 THEN y := y + 1 END
             END",
            |c, sets| {
                // incx breaks x <= y (from x = y).
                assert_eq!(preserved(c, sets), vec![true, true, false]);
                // Without x <= y assumed, the bounds still hold everywhere.
                assert_eq!(inductive(c, sets), vec![true, true, false]);
                assert_eq!(c.assumed(), &[true, true, false]);
            },
        );
    }

    #[test]
    fn unguarded_increments_and_false_initial_states_are_not_inductive() {
        with(
            "MACHINE M VARIABLES x, y INVARIANT x : 0..3 & y : BOOL & y = TRUE
             INITIALISATION x, y := 0, FALSE
             OPERATIONS incx = BEGIN x := x + 1 END;
                        sety = BEGIN y := TRUE END
             END",
            |c, sets| {
                assert_eq!(preserved(c, sets), vec![false, true, true]);
                // y = TRUE is false initially; x : 0..3 is broken by incx.
                assert_eq!(inductive(c, sets), vec![false, true, false]);
            },
        );
    }
}
