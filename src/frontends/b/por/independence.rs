//! The B front end's producer of the model interface's partial order
//! reduction knowledge: the read/write slots of each operation
//! ([`group_infos`]), and the dependency relation, enable graph and
//! visible operations the static analysis decided ([`independence`]).

use std::collections::BTreeSet;

use super::Analysis;
use super::access::{access_sets, expr_reads};
use crate::frontends::b::ast::Machine;
use crate::frontends::b::state::StateLayout;
use crate::frontends::b::system::BSystem;
use crate::model::{GroupInfo, GroupSet, Independence, Instances, Relations};

/// Which state properties the search checks: they decide the stutter
/// condition (A3) and whether the cycle proviso is needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The invariant is checked (not `--no-invariant`).
    pub invariant: bool,
    /// The goal is searched for (`--goal`).
    pub goal: bool,
}

/// The slots of `layout` that hold the variables `names` (constants are
/// never written, so they do not count), ascending.
fn variable_slots(layout: &StateLayout, names: &BTreeSet<String>) -> Vec<usize> {
    layout
        .slots()
        .iter()
        .enumerate()
        .skip(layout.constant_count())
        .filter(|(_, s)| names.contains(&s.name))
        .map(|(k, _)| k)
        .collect()
}

/// The transition groups of `machine` (its operations, in order) with the
/// slots of `layout` their guards read and their actions read and write.
pub fn group_infos(machine: &Machine, layout: &StateLayout) -> Vec<GroupInfo> {
    machine
        .operations
        .iter()
        .map(|op| {
            let sets = access_sets(machine, op);
            GroupInfo {
                name: op.name.name.clone(),
                guard_reads: variable_slots(layout, &sets.read_guard),
                action_reads: variable_slots(layout, &sets.read_action),
                writes: variable_slots(layout, &sets.write),
            }
        })
        .collect()
}

/// Per LTL predicate atom of `machine` (its text), the slots of `layout`
/// holding the variables it reads.
pub fn ltl_atom_reads(machine: &Machine, layout: &StateLayout) -> Vec<(String, Vec<usize>)> {
    let variables: BTreeSet<String> = machine.variables.iter().map(|v| v.name.clone()).collect();
    machine
        .ltl_atoms
        .iter()
        .map(|(text, atom)| {
            let names = expr_reads(&variables, atom);
            (text.clone(), variable_slots(layout, &names))
        })
        .collect()
}

/// The variables whose change may change a checked state property: those
/// of the invariant conjuncts some operation may break (if the invariant
/// is checked; see [`super::invariant`] for why the preserved ones do not
/// count), of every assertion, and of the goal (if searched for).
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
    // Where SCOPE stops the search is seen as a property is.
    if let Some(s) = &machine.scope {
        out.extend(expr_reads(&variables, s));
    }
    out
}

/// The relations of `analysis` for the properties `checked`, as the model
/// interface's [`Independence`]; attaches the operation instances to
/// `system` so that its steps name them ([`crate::model::Step::instance`]).
pub fn independence(
    system: &BSystem,
    machine: &Machine,
    analysis: &Analysis,
    checked: Checked,
) -> Independence {
    let inst = &analysis.instances;
    let n = inst.len();
    let visible_vars = visible_variables(machine, analysis, checked);
    let instance_relations = Relations::new(
        n,
        |i, j| inst.dependent(i, j),
        |i, j| inst.enables(i, j),
        GroupSet::of(
            n,
            (0..n).filter(|&i| !analysis.sets[inst.op[i]].write.is_disjoint(&visible_vars)),
        ),
    );
    // With no variable visible, no operation can change a checked property
    // after an initial state: only deadlocks remain to be preserved, for
    // which A1 and A2 suffice.
    let proviso = !visible_vars.is_empty();
    if !inst.any_split() {
        // One instance per operation, in order: the instance relations are
        // the operations'.
        system.attach_instances(None);
        return Independence {
            groups: instance_relations,
            instances: None,
            proviso,
        };
    }
    let ops = analysis.names.len();
    let groups = Relations::new(
        ops,
        |a, b| analysis.dependent(a, b),
        |a, b| analysis.enables(a, b),
        GroupSet::of(
            ops,
            (0..ops).filter(|&a| !analysis.sets[a].write.is_disjoint(&visible_vars)),
        ),
    );
    system.attach_instances(Some(inst.clone()));
    Independence {
        groups,
        instances: Some(Instances {
            group_of: inst.op.clone(),
            relations: instance_relations,
        }),
        proviso,
    }
}

/// Runs the static analysis of `machine` for a search checking `checked`
/// (the candidate states assume the invariant only when it is checked) and
/// returns its [`Independence`], attaching the instances to `system`.
pub fn analyse_for_search(
    system: &BSystem,
    machine: &Machine,
    types: &crate::frontends::b::types::MachineTypes,
    checked: Checked,
) -> Independence {
    let analysis = super::analyse_with(
        machine,
        types,
        system.interpreter(),
        super::DEFAULT_BUDGET,
        checked.invariant,
    );
    independence(system, machine, &analysis, checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Layered;
    use crate::diag::SourceFile;
    use crate::frontends::b::eval::Interpreter;
    use crate::frontends::b::por::{DEFAULT_BUDGET, analyse};
    use crate::frontends::b::typecheck::{CheckOptions, check_machine, machine_preferences};
    use crate::model::{Model, NoSymmetry};
    use crate::por::PorLayer;
    use std::sync::Arc;
    use workers::{Expansion, TransitionSystem};

    const TWO: &str = "MACHINE M VARIABLES x, y INVARIANT x : 0..2 & y : 0..2 & x + y < 4
         INITIALISATION x, y := 0, 0
         OPERATIONS incx = PRE x < 2 THEN x := x + 1 END;
                    incy = PRE y < 2 THEN y := y + 1 END
         END";

    fn with_system(text: &str, checked: Checked, f: impl FnOnce(&BSystem, &Layered<'_, BSystem>)) {
        let file = Arc::new(SourceFile::new("t.mch", text));
        let m = crate::frontends::b::parse_machine(&file).expect("parses");
        let options = machine_preferences(&m, &file)
            .expect("preferences")
            .apply(CheckOptions::default(), false);
        let types = check_machine(&m, &options).expect("type checks");
        let interp = Interpreter::new(&m, &types, &file).expect("compiles");
        let analysis = analyse(&m, &types, &interp, DEFAULT_BUDGET);
        let names: Vec<String> = m.variables.iter().map(|v| v.name.clone()).collect();
        let layout = StateLayout::new(&[], &names, &types);
        let mut system = BSystem::new(interp, layout, file.clone()).expect("system");
        system.groups = group_infos(&m, system.layout());
        let ind = independence(&system, &m, &analysis, checked);
        let reduced: Layered<'_, BSystem, NoSymmetry> =
            Layered::new(&system, None, Some(PorLayer::new(&ind, false)));
        f(&system, &reduced);
    }

    fn collect(f: impl FnOnce(&mut dyn FnMut(&[u64]))) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        f(&mut |s| out.push(s.to_vec()));
        out
    }

    #[test]
    fn groups_read_and_write_the_slots_of_their_variables() {
        let checked = Checked {
            invariant: true,
            goal: false,
        };
        with_system(TWO, checked, |system, _| {
            let groups = system.groups();
            assert_eq!(groups[0].name, "incx");
            assert_eq!(
                (&groups[0].guard_reads, &groups[0].writes),
                (&vec![0], &vec![0])
            );
            assert_eq!(
                (&groups[1].guard_reads, &groups[1].writes),
                (&vec![1], &vec![1])
            );
        });
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
            assert!(reduced.por().unwrap().proviso());
            let mut scratch = reduced.new_scratch();
            let init = collect(|e| reduced.initial_states(&mut scratch, e).unwrap());
            let mut fs = full.new_scratch();
            let all = collect(|e| {
                full.successors(&mut fs, &init[0], &mut |_, s| e(s))
                    .unwrap()
            });
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
            assert!(!reduced.por().unwrap().proviso());
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
