//! B's static analysis as the commands show it: `orbit por`'s report
//! (with source excerpts for how each pair was decided) and what `orbit
//! check --por` reduces by.

use super::independence::{Checked, independence};
use super::{Analysis, DEFAULT_BUDGET};
use crate::frontends::b::ast::Machine;
use crate::frontends::b::system::BSystem;
use crate::frontends::b::types::MachineTypes;
use crate::model::Independence;
use crate::por::PorAnalysis;
use crate::por::analysis::{enable_graph_text, matrix_text, operations_text, set_text};
use crate::report::PorInfo;
use crate::report::json::{
    ConjunctReport, EnableDecision, InstancesReport, OperationAccess, PairDecision,
    PorAnalysisReport, SCHEMA_VERSION,
};
use std::fmt::Write as _;

/// The analysis of `orbit por`: its report and its text, in which each
/// decision quotes the source (`source`, the machine's text).
pub fn por_analysis(a: &Analysis, source: &str) -> PorAnalysis {
    let report = report(a);
    let text = text(a, &report, source);
    PorAnalysis { report, text }
}

fn set(s: &std::collections::BTreeSet<String>) -> String {
    let v: Vec<&str> = s.iter().map(String::as_str).collect();
    set_text(&v)
}

/// The human-readable report: the generic parts of `report`, with the
/// invariant conjuncts, how each decision was taken (quoting `source`),
/// the counts of decisions and the instances.
fn text(a: &Analysis, report: &PorAnalysisReport, source: &str) -> String {
    let mut out = operations_text(report);
    if !a.conjuncts.is_empty() {
        let _ = writeln!(out, "invariant conjuncts:");
        for (i, c) in a.conjuncts.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {i} reads {}: {}, {}",
                set(&c.reads),
                if c.assumed { "assumed" } else { "not assumed" },
                if c.preserved {
                    "preserved by every operation"
                } else {
                    "may be broken (its variables are visible)"
                }
            );
        }
    }
    out.push_str(&matrix_text(report));
    let _ = writeln!(out, "pairs:");
    for (x, y, d) in &a.pairs {
        let how = d.describe_in(source);
        let _ = writeln!(out, "  {} {}: {how}", a.names[*x], a.names[*y]);
    }
    out.push_str(&enable_graph_text(report));
    out.push_str(&decision_counts(a));
    out.push_str(&instance_text(a));
    let _ = writeln!(out, "enable decisions:");
    for (x, y, d) in &a.enables {
        let _ = writeln!(
            out,
            "  {} -> {}: {}",
            a.names[*x],
            a.names[*y],
            d.describe_in(source)
        );
    }
    out
}

/// The operation instances and what their refinement found (empty when
/// no operation is split).
fn instance_text(a: &Analysis) -> String {
    let inst = &a.instances;
    let mut out = String::new();
    if !inst.any_split() {
        return out;
    }
    let _ = writeln!(out, "operation instances: {}", inst.names.join(", "));
    for (i, j, states) in &inst.refined {
        let _ = writeln!(
            out,
            "  {} {}: independent (enumeration of {states} states; the operations are dependent)",
            inst.names[*i], inst.names[*j]
        );
    }
    for (i, j) in &inst.refined_edges {
        let _ = writeln!(
            out,
            "  {} -> {}: no edge (enumeration)",
            inst.names[*i], inst.names[*j]
        );
    }
    let n = inst.len();
    let dependent = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| inst.dependent(i, j))
        .count();
    let _ = writeln!(
        out,
        "instance pairs: {dependent} of {} dependent",
        n * n.saturating_sub(1) / 2
    );
    out
}

/// The analysis as data (what `orbit por --json` prints).
fn report(a: &Analysis) -> PorAnalysisReport {
    let names = |s: &std::collections::BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>();
    let operations = a
        .names
        .iter()
        .zip(&a.sets)
        .map(|(n, s)| OperationAccess {
            name: n.clone(),
            read_guard: names(&s.read_guard),
            read_action: names(&s.read_action),
            write: names(&s.write),
        })
        .collect();
    let n = a.names.len();
    let dependent = (0..n)
        .map(|i| (0..n).map(|j| a.dependent(i, j)).collect())
        .collect();
    let pairs = a
        .pairs
        .iter()
        .map(|(x, y, d)| PairDecision {
            a: a.names[*x].clone(),
            b: a.names[*y].clone(),
            dependent: d.is_dependent(),
            how: d.describe(),
        })
        .collect();
    let enable = a
        .enables
        .iter()
        .map(|(x, y, d)| EnableDecision {
            from: a.names[*x].clone(),
            to: a.names[*y].clone(),
            edge: d.is_edge(),
            how: d.describe(),
        })
        .collect();
    let invariant_conjuncts = a
        .conjuncts
        .iter()
        .map(|c| ConjunctReport {
            reads: names(&c.reads),
            assumed: c.assumed,
            preserved: c.preserved,
        })
        .collect();
    let inst = &a.instances;
    let n = inst.len();
    let instances = InstancesReport {
        names: inst.names.clone(),
        dependent: (0..n)
            .map(|i| (0..n).map(|j| i == j || inst.dependent(i, j)).collect())
            .collect(),
        enables: (0..n)
            .map(|i| (0..n).map(|j| i != j && inst.enables(i, j)).collect())
            .collect(),
    };
    PorAnalysisReport {
        schema_version: SCHEMA_VERSION,
        operations,
        dependent,
        pairs,
        enable,
        invariant_conjuncts,
        instances,
    }
}

/// Counts of how the pairs and enable edges were decided, one line each.
fn decision_counts(a: &Analysis) -> String {
    use super::dependency::Decision;
    use super::enable::EnableDecision as Edge;
    let (mut race, mut syn, mut ind, mut dep, mut big, mut apart) = (0, 0, 0, 0, 0, 0);
    for (_, _, d) in &a.pairs {
        match d {
            Decision::Race(_) => race += 1,
            Decision::Syntactic => syn += 1,
            Decision::NeverCoEnabled { .. } | Decision::ExclusiveConjuncts { .. } => apart += 1,
            Decision::EnumIndependent { .. } => ind += 1,
            Decision::EnumDependent { .. } => dep += 1,
            Decision::Fallback { .. } => big += 1,
        }
    }
    let (mut disjoint, mut witness, mut never, mut fallback) = (0, 0, 0, 0);
    for (_, _, d) in &a.enables {
        match d {
            Edge::Disjoint => disjoint += 1,
            Edge::Witness(_) => witness += 1,
            Edge::Never { .. } | Edge::ExclusiveConjuncts(_) => never += 1,
            Edge::Fallback(_) => fallback += 1,
        }
    }
    format!(
        "pairs decided: {race} race, {apart} never co-enabled (independent), {syn} \
         syntactic, {} by refined enumeration ({ind} \
         independent, {dep} dependent), {big} too big (fallback: dependent)\n\
         enable edges decided: {disjoint} disjoint, {} by enumeration ({witness} edges, {never} \
         never), {fallback} too big (fallback: edge)\n",
        ind + dep,
        witness + never
    )
}

/// Prepares `orbit check --por`: the static analysis of `machine` for the
/// properties `checked`, as the independence relations the partial order
/// reduction layer reduces by, and the summary's facts (completed after the
/// run by [`PorInfo::after`]). With `verbose`, how each pair was decided
/// goes to stderr.
pub fn prepare(
    system: &BSystem,
    machine: &Machine,
    types: &MachineTypes,
    checked: Checked,
    verbose: bool,
) -> (Independence, PorInfo) {
    let start = std::time::Instant::now();
    // States violating the invariant are explored when it is not checked,
    // so the candidates of the refined tests may not assume it then.
    let analysis = super::analyse_with(
        machine,
        types,
        system.interpreter(),
        DEFAULT_BUDGET,
        checked.invariant,
    );
    let analysis_time = start.elapsed();
    if verbose {
        let mut out = String::from("partial order reduction, static analysis:\n");
        for (x, y, d) in &analysis.pairs {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                analysis.names[*x],
                analysis.names[*y],
                d.describe()
            );
        }
        for (x, y, d) in &analysis.enables {
            let _ = writeln!(
                out,
                "  {} -> {}: {}",
                analysis.names[*x],
                analysis.names[*y],
                d.describe()
            );
        }
        out.push_str(&decision_counts(&analysis));
        out.push_str(&instance_text(&analysis));
        eprint!("{out}");
    }
    let independence = independence(system, machine, &analysis, checked);
    let info = PorInfo::before_run(&independence, analysis_time);
    (independence, info)
}
