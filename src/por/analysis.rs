//! The static analysis as `orbit por` prints it, for every front end: per
//! transition group its read and write sets, the dependency relation with
//! how each pair was decided, and the enable graph, as text, Graphviz dot
//! or JSON ([`PorAnalysisReport`]). A front end without an analysis of its
//! own gets one from its groups' read and write sets
//! ([`PorAnalysis::from_access`]); B builds its own (`crate::frontends::b`).

use crate::model::{GroupInfo, Independence, SlotInfo};
use crate::report::json::{
    EnableDecision, InstancesReport, OperationAccess, PairDecision, PorAnalysisReport,
    SCHEMA_VERSION,
};
use std::fmt::Write as _;

/// The analysis: the report, and its text (where a front end can say
/// more than the report, with source excerpts, say).
#[derive(Clone, Debug)]
pub struct PorAnalysis {
    /// The analysis as data (what `--json` prints).
    pub report: PorAnalysisReport,
    /// The human-readable analysis.
    pub text: String,
}

impl PorAnalysis {
    /// The analysis read from the groups' read and write sets and the
    /// relations `independence` derived from them
    /// ([`crate::model::Relations::from_access`]).
    pub fn from_access(
        slots: &[SlotInfo],
        groups: &[GroupInfo],
        independence: &Independence,
    ) -> Self {
        let names = |indices: &[usize]| -> Vec<String> {
            let mut v: Vec<String> = indices.iter().map(|&i| slots[i].name.clone()).collect();
            v.sort();
            v.dedup();
            v
        };
        let operations: Vec<OperationAccess> = groups
            .iter()
            .map(|g| OperationAccess {
                name: g.name.clone(),
                read_guard: names(&g.guard_reads),
                read_action: names(&g.action_reads),
                write: names(&g.writes),
            })
            .collect();
        let rel = &independence.groups;
        let n = groups.len();
        let shared = |a: &[usize], b: &[usize]| -> Vec<String> {
            let mut v: Vec<usize> = a.iter().copied().filter(|x| b.contains(x)).collect();
            v.sort_unstable();
            v.dedup();
            names(&v)
        };
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let (ga, gb) = (&groups[a], &groups[b]);
                let reads =
                    |g: &GroupInfo| [g.guard_reads.clone(), g.action_reads.clone()].concat();
                let mut meet = shared(&ga.writes, &[reads(gb), gb.writes.clone()].concat());
                meet.extend(shared(&gb.writes, &reads(ga)));
                meet.sort();
                meet.dedup();
                let dependent = rel.dependent(a, b);
                let how = match (dependent, meet.is_empty()) {
                    (true, false) => format!("read/write sets meet on {{{}}}", meet.join(", ")),
                    (true, true) => "dependent (the relations the front end gave)".to_string(),
                    (false, _) => {
                        "independent: neither writes what the other reads or writes".to_string()
                    }
                };
                pairs.push(PairDecision {
                    a: ga.name.clone(),
                    b: gb.name.clone(),
                    dependent,
                    how,
                });
            }
        }
        let mut enable = Vec::new();
        for a in 0..n {
            for b in (0..n).filter(|&b| b != a) {
                let meet = shared(&groups[a].writes, &groups[b].guard_reads);
                let edge = rel.enables(a, b);
                let how = match (edge, meet.is_empty()) {
                    (true, false) => {
                        format!("writes what the guard reads: {{{}}}", meet.join(", "))
                    }
                    (true, true) => "may enable (the relations the front end gave)".to_string(),
                    (false, _) => "writes nothing the guard reads".to_string(),
                };
                enable.push(EnableDecision {
                    from: groups[a].name.clone(),
                    to: groups[b].name.clone(),
                    edge,
                    how,
                });
            }
        }
        let instances = match &independence.instances {
            None => InstancesReport {
                names: Vec::new(),
                dependent: Vec::new(),
                enables: Vec::new(),
            },
            Some(inst) => {
                let mut seen = vec![0usize; n];
                let names = inst
                    .group_of
                    .iter()
                    .map(|&g| {
                        seen[g] += 1;
                        format!("{}#{}", groups[g].name, seen[g])
                    })
                    .collect();
                let m = inst.group_of.len();
                let r = &inst.relations;
                InstancesReport {
                    names,
                    dependent: (0..m)
                        .map(|i| (0..m).map(|j| i == j || r.dependent(i, j)).collect())
                        .collect(),
                    enables: (0..m)
                        .map(|i| (0..m).map(|j| i != j && r.enables(i, j)).collect())
                        .collect(),
                }
            }
        };
        let report = PorAnalysisReport {
            schema_version: SCHEMA_VERSION,
            operations,
            dependent: (0..n)
                .map(|a| (0..n).map(|b| a == b || rel.dependent(a, b)).collect())
                .collect(),
            pairs,
            enable,
            invariant_conjuncts: Vec::new(),
            instances,
        };
        let text = text(&report);
        PorAnalysis { report, text }
    }

    /// The enable graph (directed) and the dependency relation (undirected,
    /// in its own graph) as Graphviz dot.
    pub fn dot(&self) -> String {
        let r = &self.report;
        let mut out = String::from("digraph enable {\n");
        for op in &r.operations {
            let _ = writeln!(out, "  \"{}\";", op.name);
        }
        for e in r.enable.iter().filter(|e| e.edge) {
            let _ = writeln!(out, "  \"{}\" -> \"{}\";", e.from, e.to);
        }
        out.push_str("}\ngraph dependency {\n");
        for op in &r.operations {
            let _ = writeln!(out, "  \"{}\";", op.name);
        }
        for p in r.pairs.iter().filter(|p| p.dependent) {
            let _ = writeln!(out, "  \"{}\" -- \"{}\";", p.a, p.b);
        }
        out.push_str("}\n");
        out
    }

    /// The analysis as pretty-printed JSON.
    pub fn json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.report).expect("the analysis serialises");
        text.push('\n');
        text
    }
}

/// `{a, b}`.
pub fn set_text<S: AsRef<str>>(names: &[S]) -> String {
    let v: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    format!("{{{}}}", v.join(", "))
}

/// The human-readable analysis of `r`: access sets, the dependency matrix
/// (`D` dependent, `.` independent), the pairs and the enable graph.
pub fn text(r: &PorAnalysisReport) -> String {
    let mut out = operations_text(r);
    out.push_str(&matrix_text(r));
    let _ = writeln!(out, "pairs:");
    for p in &r.pairs {
        let _ = writeln!(out, "  {} {}: {}", p.a, p.b, p.how);
    }
    out.push_str(&enable_graph_text(r));
    let _ = writeln!(out, "enable decisions:");
    for e in &r.enable {
        let _ = writeln!(out, "  {} -> {}: {}", e.from, e.to, e.how);
    }
    out
}

/// Each operation of `r` with what its guard reads, its action reads and
/// it writes.
pub fn operations_text(r: &PorAnalysisReport) -> String {
    let mut out = String::from("operations:\n");
    for (i, op) in r.operations.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {i} {}: read_G {} read_A {} write {}",
            op.name,
            set_text(&op.read_guard),
            set_text(&op.read_action),
            set_text(&op.write)
        );
    }
    out
}

/// The enable graph of `r`: per operation, those it may enable, in the
/// order of the operations.
pub fn enable_graph_text(r: &PorAnalysisReport) -> String {
    let edges: std::collections::HashSet<(&str, &str)> = r
        .enable
        .iter()
        .filter(|e| e.edge)
        .map(|e| (e.from.as_str(), e.to.as_str()))
        .collect();
    let mut out = String::from("enable graph:\n");
    for from in &r.operations {
        let targets: Vec<&str> = r
            .operations
            .iter()
            .map(|to| to.name.as_str())
            .filter(|&to| to != from.name && edges.contains(&(from.name.as_str(), to)))
            .collect();
        let _ = writeln!(out, "  {} -> {}", from.name, set_text(&targets));
    }
    out
}

/// The dependency matrix of `r`, one row per operation.
pub fn matrix_text(r: &PorAnalysisReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "dependency matrix (D dependent, . independent):");
    let width = r.operations.iter().map(|o| o.name.len()).max().unwrap_or(0);
    let header: Vec<String> = (0..r.operations.len())
        .map(|i| (i % 10).to_string())
        .collect();
    let _ = writeln!(out, "  {:width$}  {}", "", header.join(" "));
    for (op, row) in r.operations.iter().zip(&r.dependent) {
        let cells: Vec<&str> = row.iter().map(|&d| if d { "D" } else { "." }).collect();
        let _ = writeln!(out, "  {:width$}  {}", op.name, cells.join(" "));
    }
    out
}
