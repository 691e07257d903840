//! A B machine explored with partial order reduction: [`PorSystem`] wraps a
//! [`BSystem`] and expands each state through an ample set
//! ([`crate::por::ample`]) via the engine's reduction hook
//! ([`TransitionSystem::reduced_successors`]).
//!
//! Per state it runs every operation once (as the plain search does),
//! groups the successors by operation instance ([`crate::por::instances`]),
//! asks the [`AmpleRule`] for the
//! cheapest proper ample set and emits only its successors. When some
//! operations are split into instances, a rule over whole operations is
//! asked first and the rule over instances only when it finds no proper
//! ample set. Each satisfies A1-A3 on its own, so mixing them per state is
//! sound (A2 and A3 are conditions on one state; A4 is the engine's
//! proviso). Operations first, because the cheapest set per state is not
//! the smallest search: on models/TokenRing.mch (5 servers) the instance
//! rule picks one `ClientRequest(s)` (1 transition) where the operation
//! rule picks `{MoveToken, GrantRequest}` (2), and the search grows from
//! 1,200 to 4,200 states; on the other models of `models/` both orders
//! give the same counts, and models with a single parameterised operation
//! (no proper operation-level set) still reduce per instance. The rest
//! stay in the scratch space; the others stay
//! in the scratch space in case the engine's cycle proviso asks for them
//! ([`TransitionSystem::remaining_successors`]). Everything else (initial
//! states, checks, labelled successors for traces) is the inner system's,
//! so counterexamples replay as real runs of the machine.

use std::collections::BTreeSet;

use crate::b::ast::Machine;
use crate::b::system::{BScratch, BSystem};
use crate::por::Analysis;
use crate::por::access::expr_reads;
use crate::por::ample::{AmpleRule, AmpleScratch, OpSet};
use crate::por::instances::Instances;
use workers::{Expansion, LabelledState, ModelError, TransitionSystem, Violation};

/// Which state properties the search checks: they decide the stutter
/// condition (A3) and whether the cycle proviso is needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The invariant is checked (not `--no-invariant`).
    pub invariant: bool,
    /// The goal is searched for (`--goal`).
    pub goal: bool,
}

/// The variables whose change may change a checked state property: those
/// of the invariant conjuncts some operation may break (if the invariant
/// is checked; see [`crate::por::invariant`] for why the preserved ones do
/// not count), of every assertion, and of the goal (if searched for).
/// Operations writing none of them are stutter operations (A3).
pub fn visible_variables(
    machine: &Machine,
    analysis: &Analysis,
    checked: Checked,
) -> BTreeSet<String> {
    let variables: BTreeSet<String> = machine.variables.iter().map(|v| v.name.clone()).collect();
    let mut out = BTreeSet::new();
    if checked.invariant {
        for c in analysis.conjuncts.iter().filter(|c| !c.preserved) {
            out.extend(c.reads.iter().cloned());
        }
    }
    for a in &machine.assertions {
        out.extend(expr_reads(&variables, a));
    }
    if checked.goal
        && let Some(g) = &machine.goal
    {
        out.extend(expr_reads(&variables, g));
    }
    out
}

/// The cost of a self-loop when choosing among candidate ample sets under
/// the cycle proviso (any other transition costs 1).
const SELF_LOOP_COST: u32 = 1 << 16;

/// A [`BSystem`] whose states are expanded through ample sets.
pub struct PorSystem<'a> {
    inner: &'a BSystem,
    /// The operation instances the ample sets are made of.
    instances: Instances,
    rule: AmpleRule,
    /// The rule over whole operations, when operations are split.
    op_rule: Option<AmpleRule>,
    proviso: bool,
}

/// Per-thread buffers of [`PorSystem`].
pub struct PorScratch {
    inner: BScratch,
    /// The successors of the last expanded state, flat.
    words: Vec<u64>,
    /// The operation instance of each successor in `words`.
    ops: Vec<u32>,
    /// A successor of the last expanded state had parameters outside the
    /// analysed instances: that state is fully expanded.
    unknown: bool,
    enabled: OpSet,
    cost: Vec<u32>,
    ample: AmpleScratch,
    /// The enabled operations, their transition counts and the choice of
    /// the operation-level rule.
    op_enabled: OpSet,
    op_cost: Vec<u32>,
    op_ample: AmpleScratch,
    /// The state `words` belong to.
    key: Vec<u64>,
    /// Whether that state was expanded through a proper ample set
    /// (`ample.chosen` is its ample set).
    proper: bool,
}

impl<'a> PorSystem<'a> {
    /// Wraps `inner`, reducing by the static `analysis` of its machine for
    /// the properties `checked`.
    pub fn new(
        inner: &'a BSystem,
        machine: &Machine,
        analysis: &Analysis,
        checked: Checked,
    ) -> Self {
        let inst = &analysis.instances;
        let n = inst.len();
        let visible_vars = visible_variables(machine, analysis, checked);
        let visible = OpSet::of(
            n,
            (0..n).filter(|&i| !analysis.sets[inst.op[i]].write.is_disjoint(&visible_vars)),
        );
        let rule = AmpleRule::new(
            n,
            |i, j| inst.dependent(i, j),
            |i, j| inst.enables(i, j),
            visible,
        );
        let ops = analysis.names.len();
        let op_rule = inst.any_split().then(|| {
            let visible = OpSet::of(
                ops,
                (0..ops).filter(|&a| !analysis.sets[a].write.is_disjoint(&visible_vars)),
            );
            AmpleRule::new(
                ops,
                |a, b| analysis.dependent(a, b),
                |a, b| analysis.enables(a, b),
                visible,
            )
        });
        PorSystem {
            inner,
            instances: inst.clone(),
            rule,
            op_rule,
            // With no variable visible, no operation can change a checked
            // property after an initial state: only deadlocks remain to be
            // preserved, for which A1 and A2 suffice.
            proviso: !visible_vars.is_empty(),
        }
    }

    /// The wrapped system.
    pub fn inner(&self) -> &BSystem {
        self.inner
    }

    /// Whether the cycle proviso applies (some state property is checked).
    pub fn proviso(&self) -> bool {
        self.proviso
    }

    /// Runs every operation from `state` into the scratch buffers and
    /// collects the enabled operations and their transition counts.
    fn expand(&self, scratch: &mut PorScratch, state: &[u64]) -> Result<(), ModelError> {
        let PorScratch {
            inner,
            words,
            ops,
            unknown,
            enabled,
            cost,
            key,
            op_enabled,
            op_cost,
            ..
        } = scratch;
        words.clear();
        ops.clear();
        enabled.clear();
        op_enabled.clear();
        *unknown = false;
        cost.iter_mut().for_each(|c| *c = 0);
        op_cost.iter_mut().for_each(|c| *c = 0);
        let proviso = self.proviso;
        self.inner
            .for_each_successor(inner, state, &mut |step, s| {
                words.extend_from_slice(s);
                let i = self
                    .instances
                    .instance(step.op, step.params)
                    .unwrap_or_else(|| {
                        *unknown = true;
                        self.instances.base[step.op]
                    });
                ops.push(i as u32);
                enabled.insert(i);
                // A self-loop in an ample set always triggers the cycle
                // proviso (the state is stored already): prefer candidates
                // without one.
                let c = if proviso && s == state {
                    SELF_LOOP_COST
                } else {
                    1
                };
                cost[i] += c;
                op_enabled.insert(step.op);
                op_cost[step.op] += c;
            })?;
        key.clear();
        key.extend_from_slice(state);
        Ok(())
    }

    /// Chooses the ample set of the state just expanded into
    /// `scratch.ample.chosen` (as instances): the operation-level rule's
    /// if it finds one, else the instance-level rule's; `false`: expand
    /// fully.
    fn choose(&self, scratch: &mut PorScratch) -> bool {
        let PorScratch {
            enabled,
            cost,
            ample,
            unknown,
            op_enabled,
            op_cost,
            op_ample,
            ..
        } = scratch;
        let by_op = self
            .op_rule
            .as_ref()
            .is_some_and(|r| r.choose(op_enabled, op_cost, op_ample));
        if !by_op {
            return !*unknown && self.rule.choose(enabled, cost, ample);
        }
        // The operation-level set, as the enabled instances of its operations.
        ample.chosen.clear();
        for i in enabled.iter() {
            if op_ample.chosen.contains(self.instances.op[i]) {
                ample.chosen.insert(i);
            }
        }
        true
    }

    /// Emits the stored successors whose operation is (`inside`) or is not
    /// in the chosen ample set.
    fn emit_part(&self, scratch: &PorScratch, inside: bool, emit: &mut dyn FnMut(&[u64])) {
        let width = self.inner.state_width();
        for (i, &op) in scratch.ops.iter().enumerate() {
            if scratch.ample.chosen.contains(op as usize) == inside {
                emit(&scratch.words[i * width..(i + 1) * width]);
            }
        }
    }
}

impl TransitionSystem for PorSystem<'_> {
    type Scratch = PorScratch;

    fn new_scratch(&self) -> PorScratch {
        PorScratch {
            inner: self.inner.new_scratch(),
            words: Vec::new(),
            ops: Vec::new(),
            unknown: false,
            enabled: OpSet::empty(self.rule.operations()),
            cost: vec![0; self.rule.operations()],
            ample: self.rule.scratch(),
            op_enabled: OpSet::empty(self.instances.base.len()),
            op_cost: vec![0; self.instances.base.len()],
            op_ample: match &self.op_rule {
                Some(r) => r.scratch(),
                None => AmpleScratch::default(),
            },
            key: Vec::new(),
            proper: false,
        }
    }

    fn state_width(&self) -> usize {
        self.inner.state_width()
    }

    fn initial_states(
        &self,
        scratch: &mut PorScratch,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.inner.initial_states(&mut scratch.inner, emit)
    }

    fn successors(
        &self,
        scratch: &mut PorScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.inner.successors(&mut scratch.inner, state, emit)
    }

    fn reduces(&self) -> bool {
        true
    }

    fn reduced_successors(
        &self,
        scratch: &mut PorScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<Expansion, ModelError> {
        self.expand(scratch, state)?;
        scratch.proper = self.choose(scratch);
        if scratch.proper {
            self.emit_part(scratch, true, emit);
            Ok(Expansion::Ample {
                proviso: self.proviso,
            })
        } else {
            let width = self.inner.state_width();
            scratch.words.chunks_exact(width).for_each(emit);
            Ok(Expansion::Full)
        }
    }

    fn remaining_successors(
        &self,
        scratch: &mut PorScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        if scratch.key != state {
            // Not the state just expanded (the engine always asks right
            // after `reduced_successors`, but stay correct regardless).
            let mut ignore = |_: &[u64]| {};
            self.reduced_successors(scratch, state, &mut ignore)?;
        }
        if scratch.proper {
            self.emit_part(scratch, false, emit);
        }
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        self.inner.labelled_initial_states()
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        self.inner.labelled_successors(state)
    }

    fn check_state(
        &self,
        scratch: &mut PorScratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        self.inner.check_state(&mut scratch.inner, state)
    }

    fn has_goal(&self) -> bool {
        self.inner.has_goal()
    }

    fn is_goal(&self, scratch: &mut PorScratch, state: &[u64]) -> Result<bool, ModelError> {
        self.inner.is_goal(&mut scratch.inner, state)
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.inner.describe_state(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::b::eval::Interpreter;
    use crate::b::state::StateLayout;
    use crate::b::typecheck::{CheckOptions, check_machine, machine_preferences};
    use crate::diag::SourceFile;
    use crate::por::{DEFAULT_BUDGET, analyse};
    use std::sync::Arc;

    const TWO: &str = "MACHINE M VARIABLES x, y INVARIANT x : 0..2 & y : 0..2 & x + y < 4
         INITIALISATION x, y := 0, 0
         OPERATIONS incx = PRE x < 2 THEN x := x + 1 END;
                    incy = PRE y < 2 THEN y := y + 1 END
         END";

    fn with_system(text: &str, checked: Checked, f: impl FnOnce(&BSystem, &PorSystem<'_>)) {
        let file = Arc::new(SourceFile::new("t.mch", text));
        let m = crate::b::parse_machine(&file).expect("parses");
        let options = machine_preferences(&m, &file)
            .expect("preferences")
            .apply(CheckOptions::default(), false);
        let types = check_machine(&m, &options).expect("type checks");
        let interp = Interpreter::new(&m, &types, &file).expect("compiles");
        let analysis = analyse(&m, &types, &interp, DEFAULT_BUDGET);
        let names: Vec<String> = m.variables.iter().map(|v| v.name.clone()).collect();
        let layout = StateLayout::new(&[], &names, &types);
        let system = BSystem::new(interp, layout, file.clone()).expect("system");
        let reduced = PorSystem::new(&system, &m, &analysis, checked);
        f(&system, &reduced);
    }

    fn collect(f: impl FnOnce(&mut dyn FnMut(&[u64]))) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        f(&mut |s| out.push(s.to_vec()));
        out
    }

    #[test]
    fn ample_and_remaining_successors_partition_the_successors() {
        let checked = Checked {
            invariant: true,
            goal: false,
        };
        with_system(TWO, checked, |full, reduced| {
            // Either increment can break x + y < 4 (from x + y = 3): both
            // variables are visible.
            assert!(reduced.proviso());
            let mut scratch = reduced.new_scratch();
            let init = collect(|e| reduced.initial_states(&mut scratch, e).unwrap());
            let mut fs = full.new_scratch();
            let all = collect(|e| full.successors(&mut fs, &init[0], e).unwrap());
            let mut expansion = Expansion::Full;
            let ample = collect(|e| {
                expansion = reduced
                    .reduced_successors(&mut scratch, &init[0], e)
                    .unwrap()
            });
            let rest = collect(|e| {
                reduced
                    .remaining_successors(&mut scratch, &init[0], e)
                    .unwrap()
            });
            let mut union: Vec<Vec<u64>> = ample.iter().chain(&rest).cloned().collect();
            union.sort();
            let mut sorted = all.clone();
            sorted.sort();
            assert_eq!(union, sorted);
            match expansion {
                // Both operations write a variable of the breakable
                // conjunct: no proper ample set.
                Expansion::Full => assert!(rest.is_empty() && ample.len() == 2),
                Expansion::Ample { .. } => panic!("visible operations in an ample set"),
            }
        });
    }

    #[test]
    fn deadlock_only_checking_takes_one_operation() {
        let checked = Checked {
            invariant: false,
            goal: false,
        };
        with_system(TWO, checked, |_, reduced| {
            assert!(!reduced.proviso());
            let mut scratch = reduced.new_scratch();
            let init = collect(|e| reduced.initial_states(&mut scratch, e).unwrap());
            let mut expansion = Expansion::Full;
            let ample = collect(|e| {
                expansion = reduced
                    .reduced_successors(&mut scratch, &init[0], e)
                    .unwrap()
            });
            assert_eq!(expansion, Expansion::Ample { proviso: false });
            assert_eq!(ample.len(), 1);
            let rest = collect(|e| {
                reduced
                    .remaining_successors(&mut scratch, &init[0], e)
                    .unwrap()
            });
            assert_eq!(rest.len(), 1);
            assert_ne!(ample, rest);
        });
    }
}
