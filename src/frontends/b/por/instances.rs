//! Dependency per operation instance: `inc(p) = PRE p : PROC THEN c(p) :=
//! c(p) + 1 END` writes `c` for every `p`, so Algorithm 2 calls `inc`
//! race-dependent on itself, yet `inc(PROC1)` and `inc(PROC2)` commute.
//!
//! Operations whose parameters range over small enumerable types without
//! integers (given sets, `BOOL`, pairs and small sets of those) are split
//! into one *instance* per parameter tuple; the others stay one instance.
//! The ample-set choice then works on instances
//! ([`crate::por::PorLayer`]). Two instances are independent when
//! their operations are (the operation-level test covers all instances);
//! otherwise, when their operations were found dependent by a race or by a
//! witness, Definition 1 is checked again on the candidate states for the
//! two instances alone (both enabled: each stays enabled after the other
//! and both orders reach the same states). The enable graph is refined the
//! same way. Decisions the candidates cannot support keep the
//! operation-level answer.

use std::collections::{BTreeSet, HashMap};

use crate::frontends::b::por::Analysis;
use crate::frontends::b::por::bounds::has_int;
use crate::frontends::b::por::dependency::{Decision, Instance, instances};
use crate::frontends::b::por::states::{Candidates, Scan, domain};
use crate::frontends::b::types::MachineTypes;
use crate::frontends::b::value::Value;

/// Most instances one operation is split into.
const MAX_PER_OPERATION: usize = 8;
/// Most instances in total (the relations are quadratic in them).
const MAX_TOTAL: usize = 48;
/// Candidate states the refinement may visit in all; beyond, the remaining
/// pairs keep the conservative answer.
const WORK_BUDGET: usize = 2_000_000;

/// The instances of a machine's operations and their relations.
#[derive(Clone, Debug, Default)]
pub struct Instances {
    /// Per operation: the parameter tuples of its instances, or `None`
    /// when it is not split (one instance for all its parameters).
    pub split: Vec<Option<Vec<Vec<Value>>>>,
    /// Index of each operation's first instance.
    pub base: Vec<usize>,
    /// The operation of each instance.
    pub op: Vec<usize>,
    /// Printed name of each instance, e.g. `inc(PROC1)`.
    pub names: Vec<String>,
    /// Dependency between instances, row-major `n * n`.
    dependent: Vec<bool>,
    /// Enable graph between instances, row-major `n * n`.
    enables: Vec<bool>,
    /// Pairs of instances found independent although their operations
    /// are dependent: `(i, j, candidate states examined)`.
    pub refined: Vec<(usize, usize, usize)>,
    /// Enable edges removed by the refinement: `(from, to)`.
    pub refined_edges: Vec<(usize, usize)>,
    /// Per split operation: parameter tuple to instance index.
    lookup: Vec<HashMap<Vec<Value>, usize>>,
    /// Candidate states visited by the refinement so far.
    work: usize,
}

impl Instances {
    /// Number of instances.
    pub fn len(&self) -> usize {
        self.op.len()
    }

    /// Whether there is no instance (no operation).
    pub fn is_empty(&self) -> bool {
        self.op.is_empty()
    }

    /// Whether any operation is split.
    pub fn any_split(&self) -> bool {
        self.split.iter().any(Option::is_some)
    }

    /// Whether instances `i` and `j` are dependent.
    pub fn dependent(&self, i: usize, j: usize) -> bool {
        self.dependent[i * self.len() + j]
    }

    /// Whether instance `i` can enable instance `j`.
    pub fn enables(&self, i: usize, j: usize) -> bool {
        self.enables[i * self.len() + j]
    }

    /// The instance of operation `op` run with `params`, if known.
    #[inline]
    pub fn instance(&self, op: usize, params: &[Value]) -> Option<usize> {
        if self.split[op].is_none() {
            return Some(self.base[op]);
        }
        self.lookup[op].get(params).copied()
    }
}

/// Splits the operations of `analysis` into instances and refines its
/// relations on them.
pub fn refine(analysis: &Analysis, types: &MachineTypes, candidates: &Candidates<'_>) -> Instances {
    let n_ops = analysis.names.len();
    let mut split: Vec<Option<Vec<Vec<Value>>>> = (0..n_ops)
        .map(|op| parameter_tuples(&types.operations[op].params, types))
        .collect();
    // Keep the total bounded: unsplit the largest operations first (a
    // machine of more than MAX_TOTAL operations ends with none split).
    loop {
        let total: usize = split.iter().map(|s| s.as_ref().map_or(1, Vec::len)).sum();
        let largest = (0..n_ops)
            .filter(|&op| split[op].is_some())
            .max_by_key(|&op| split[op].as_ref().map_or(0, Vec::len));
        match largest {
            Some(op) if total > MAX_TOTAL => split[op] = None,
            _ => break,
        }
    }
    let mut out = Instances {
        split,
        ..Instances::default()
    };
    let interp = candidates.interpreter();
    for op in 0..n_ops {
        out.base.push(out.op.len());
        let mut lookup = HashMap::new();
        match &out.split[op] {
            None => {
                out.op.push(op);
                out.names.push(analysis.names[op].clone());
            }
            Some(tuples) => {
                for t in tuples {
                    lookup.insert(t.clone(), out.op.len());
                    out.op.push(op);
                    let shown: Vec<String> = t.iter().map(|v| interp.format_value(v)).collect();
                    out.names
                        .push(format!("{}({})", analysis.names[op], shown.join(",")));
                }
            }
        }
        out.lookup.push(lookup);
    }
    let n = out.len();
    out.dependent = vec![true; n * n];
    out.enables = vec![false; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let dep = pair_dependent(analysis, &mut out, i, j, candidates);
            out.dependent[i * n + j] = dep;
            out.dependent[j * n + i] = dep;
        }
    }
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            let edge = edge(analysis, &mut out, i, j, candidates);
            out.enables[i * n + j] = edge;
        }
    }
    out
}

impl Instances {
    /// The parameter tuple of instance `i`, `None` for a whole operation.
    fn params(&self, i: usize) -> Option<Vec<Value>> {
        let op = self.op[i];
        self.split[op]
            .as_ref()
            .map(|tuples| tuples[i - self.base[op]].clone())
    }
}

/// Whether instance `i` can enable instance `j` (`i != j`). An operation
/// that writes nothing the other's guard reads cannot enable it. Towards an
/// unsplit operation the operation-level edge holds for every source
/// instance (refined per source instance); towards an instance of a split
/// operation the operation-level test says nothing (the operation may be
/// enabled through another instance), so the edge is tested per instance.
fn edge(
    analysis: &Analysis,
    out: &mut Instances,
    i: usize,
    j: usize,
    candidates: &Candidates<'_>,
) -> bool {
    let (a, b) = (out.op[i], out.op[j]);
    if analysis.sets[a]
        .write
        .is_disjoint(&analysis.sets[b].read_guard)
    {
        return false;
    }
    let (pi, pj) = (out.params(i), out.params(j));
    if pj.is_none() && (!analysis.enables(a, b) || pi.is_none()) {
        return analysis.enables(a, b);
    }
    if out.work > WORK_BUDGET {
        return true; // out of budget: the conservative answer
    }
    let mut work = 0;
    let never = never_enables(analysis, (a, pi), (b, pj), candidates, &mut work);
    out.work += work;
    if never {
        out.refined_edges.push((i, j));
        false
    } else {
        true
    }
}

/// The dependency of instances `i < j`.
fn pair_dependent(
    analysis: &Analysis,
    out: &mut Instances,
    i: usize,
    j: usize,
    candidates: &Candidates<'_>,
) -> bool {
    let (a, b) = (out.op[i], out.op[j]);
    if a != b && !analysis.dependent(a, b) {
        return false;
    }
    let (pi, pj) = (out.params(i), out.params(j));
    if pi.is_none() && pj.is_none() {
        return true; // nothing finer than the operations
    }
    let worth = a == b || {
        let (x, y) = (a.min(b), a.max(b));
        analysis.pairs.iter().any(|(p, q, d)| {
            (*p, *q) == (x, y) && matches!(d, Decision::Race(_) | Decision::EnumDependent { .. })
        })
    };
    if !worth || out.work > WORK_BUDGET {
        return true;
    }
    let mut work = 0usize;
    let involved: BTreeSet<String> = analysis.sets[a]
        .touched()
        .union(&analysis.sets[b].touched())
        .cloned()
        .collect();
    let interp = candidates.interpreter();
    let scan = candidates.scan(&involved, &mut |consts, vars| {
        work += 1;
        match independent_at(interp, (a, pi.as_deref()), (b, pj.as_deref()), consts, vars) {
            Ok(true) => None,
            Ok(false) => Some("dependent".to_string()),
            Err(e) => Some(e),
        }
    });
    out.work += work;
    match scan {
        Scan::Exhausted(states) => {
            out.refined.push((i, j, states));
            false
        }
        _ => true,
    }
}

/// An operation with its parameters fixed (`None`: any parameters).
type Inst<'p> = (usize, Option<&'p [Value]>);

/// The successors of one instance.
fn inst_successors(
    interp: &crate::frontends::b::eval::Interpreter,
    (op, params): Inst<'_>,
    consts: &[Value],
    vars: &[Value],
) -> Result<Vec<Instance>, String> {
    let mut all = instances(interp, op, consts, vars)?;
    if let Some(p) = params {
        all.retain(|(label, _)| label.starts_with(p));
    }
    Ok(all)
}

/// Definition 1 for two instances in one state (vacuous unless both are
/// enabled).
fn independent_at(
    interp: &crate::frontends::b::eval::Interpreter,
    x: Inst<'_>,
    y: Inst<'_>,
    consts: &[Value],
    vars: &[Value],
) -> Result<bool, String> {
    let ix = inst_successors(interp, x, consts, vars)?;
    let iy = inst_successors(interp, y, consts, vars)?;
    if ix.is_empty() || iy.is_empty() {
        return Ok(true);
    }
    // Every instance of one stays enabled after every instance of the
    // other, and both orders give the same transitions and states.
    let labels =
        |v: &[Instance]| -> BTreeSet<Vec<Value>> { v.iter().map(|(l, _)| l.clone()).collect() };
    let (lx_all, ly_all) = (labels(&ix), labels(&iy));
    let mut xy = BTreeSet::new();
    for (lx, s1) in &ix {
        let next = inst_successors(interp, y, consts, s1)?;
        if !ly_all.is_subset(&labels(&next)) {
            return Ok(false);
        }
        for (ly, s2) in next {
            xy.insert((lx.clone(), ly, s2));
        }
    }
    let mut yx = BTreeSet::new();
    for (ly, s1) in &iy {
        let next = inst_successors(interp, x, consts, s1)?;
        if !lx_all.is_subset(&labels(&next)) {
            return Ok(false);
        }
        for (lx, s2) in next {
            yx.insert((lx, ly.clone(), s2));
        }
    }
    Ok(xy == yx)
}

/// Whether no candidate state has instance `a(pi)` enabling `b(pj)`.
fn never_enables(
    analysis: &Analysis,
    (a, pi): (usize, Option<Vec<Value>>),
    (b, pj): (usize, Option<Vec<Value>>),
    candidates: &Candidates<'_>,
    work: &mut usize,
) -> bool {
    let involved: BTreeSet<String> = analysis.sets[a]
        .touched()
        .union(&analysis.sets[b].touched())
        .cloned()
        .collect();
    let interp = candidates.interpreter();
    let (x, y) = ((a, pi.as_deref()), (b, pj.as_deref()));
    let scan = candidates.scan(&involved, &mut |consts, vars| {
        *work += 1;
        let r = (|| -> Result<bool, String> {
            if !inst_successors(interp, y, consts, vars)?.is_empty() {
                return Ok(false);
            }
            for (_, next) in inst_successors(interp, x, consts, vars)? {
                if !inst_successors(interp, y, consts, &next)?.is_empty() {
                    return Ok(true);
                }
            }
            Ok(false)
        })();
        match r {
            Ok(false) => None,
            Ok(true) => Some("enables".to_string()),
            Err(e) => Some(e),
        }
    });
    matches!(scan, Scan::Exhausted(_))
}

/// Every parameter tuple of an operation whose parameter types are small
/// and integer-free, in value order; `None` otherwise (or without
/// parameters).
fn parameter_tuples(
    params: &[crate::frontends::b::types::Type],
    types: &MachineTypes,
) -> Option<Vec<Vec<Value>>> {
    if params.is_empty() || params.iter().any(has_int) {
        return None;
    }
    let mut tuples: Vec<Vec<Value>> = vec![Vec::new()];
    for ty in params {
        let values = domain(ty, types, MAX_PER_OPERATION)?;
        let mut next = Vec::new();
        for t in &tuples {
            for v in &values {
                let mut t = t.clone();
                t.push(v.clone());
                next.push(t);
            }
        }
        if next.len() > MAX_PER_OPERATION {
            return None;
        }
        tuples = next;
    }
    Some(tuples)
}

#[cfg(test)]
mod tests {
    use crate::frontends::b::por::tests::analyse_text;

    #[test]
    fn increments_of_different_processes_are_independent() {
        let a = analyse_text(
            "MACHINE M SETS PROC = {p1, p2, p3} VARIABLES c
             INVARIANT c : PROC --> 0..2 INITIALISATION c := PROC * {0}
             OPERATIONS inc(p) = PRE p : PROC & c(p) < 2 THEN c(p) := c(p) + 1 END;
                        reset = PRE c(p1) > 0 THEN c(p1) := 0 END
             END",
        );
        let inst = &a.instances;
        assert_eq!(
            inst.names,
            ["inc(p1)", "inc(p2)", "inc(p3)", "reset"],
            "{inst:?}"
        );
        assert!(!inst.dependent(0, 1) && !inst.dependent(1, 2) && !inst.dependent(0, 2));
        // reset writes c(p1) only: dependent on inc(p1) alone.
        assert!(inst.dependent(0, 3));
        assert!(!inst.dependent(1, 3) && !inst.dependent(2, 3));
        // reset re-enables inc(p1) (from 2), inc(p1) enables reset (from 0).
        assert!(inst.enables(3, 0) && !inst.enables(3, 1));
        assert!(inst.enables(0, 3) && !inst.enables(1, 3));
        assert!(!inst.enables(0, 1));
        assert_eq!(
            inst.instance(0, &[]),
            None,
            "inc is split: needs its parameter"
        );
        assert_eq!(inst.instance(1, &[]), Some(3));
    }

    #[test]
    fn instances_competing_for_a_lock_stay_dependent() {
        let a = analyse_text(
            "MACHINE M SETS PROC = {p1, p2} VARIABLES lock, owner
             INVARIANT lock : BOOL & owner : PROC
             INITIALISATION lock := FALSE || owner := p1
             OPERATIONS grab(p) = PRE p : PROC & lock = FALSE THEN lock := TRUE || owner := p END;
                        free = PRE lock = TRUE THEN lock := FALSE END
             END",
        );
        let inst = &a.instances;
        assert_eq!(inst.names, ["grab(p1)", "grab(p2)", "free"]);
        assert!(inst.dependent(0, 1));
        assert!(inst.enables(2, 0) && inst.enables(2, 1));
        assert!(!inst.enables(0, 1), "grab(p1) never enables grab(p2)");
    }
}
