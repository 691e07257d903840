//! `orbit por MODEL`: the static analysis of partial order reduction
//! ([`crate::b::por`]): per operation its read and write sets, the dependency
//! matrix with how each pair was decided, and the enable graph; `--dot`
//! prints both relations as Graphviz, `--json` as JSON.

use std::fmt::Write as _;
use std::process::ExitCode;

use super::model::ModelArgs;
use super::report::json::{PorAnalysisReport, PorReport};
use crate::b::load::{LoadError, load_model};
use crate::b::por::independence::{Checked, independence};
use crate::b::por::{Analysis, DEFAULT_BUDGET, analyse};

/// Arguments of `orbit por`.
#[derive(clap::Args, Debug)]
pub struct PorArgs {
    /// The machine, set sizes and integer bounds.
    #[command(flatten)]
    pub input: ModelArgs,
    /// Most candidate states enumerated per query before falling back to
    /// the conservative answer.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET)]
    pub budget: usize,
    /// Print the enable graph and the dependency relation as Graphviz dot.
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `orbit por`: 0 on success, 2 on bad input, 1 when the constants
/// cannot be solved.
pub fn run(args: &PorArgs) -> ExitCode {
    if super::murphi::is_murphi(&args.input.model) {
        eprintln!(
            "error: not supported yet: `orbit por` on Murphi programs (it reads B machines; \
             `orbit check` runs both)"
        );
        return ExitCode::from(2);
    }
    let options = match args.input.load_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let model = match load_model(&args.input.model, &options) {
        Ok(m) => m,
        Err(LoadError::Input(text)) => {
            eprint!("{text}");
            return ExitCode::from(2);
        }
        Err(LoadError::Model(text)) => {
            eprint!("{text}");
            return ExitCode::from(1);
        }
        Err(LoadError::Stopped(reason)) => {
            eprintln!("stopped: {reason}");
            return ExitCode::from(3);
        }
    };
    let analysis = analyse(
        &model.machine,
        &model.types,
        &model.interpreter,
        args.budget,
    );
    let out = if args.dot {
        dot(&analysis)
    } else if args.json {
        json(&analysis)
    } else {
        text(&analysis, &model.file.text)
    };
    super::output::print(&out);
    ExitCode::SUCCESS
}

fn set(s: &std::collections::BTreeSet<String>) -> String {
    let v: Vec<&str> = s.iter().map(String::as_str).collect();
    format!("{{{}}}", v.join(", "))
}

/// The human-readable report.
fn text(a: &Analysis, source: &str) -> String {
    let mut out = String::new();
    let n = a.names.len();
    let _ = writeln!(out, "operations:");
    for (i, name) in a.names.iter().enumerate() {
        let s = &a.sets[i];
        let _ = writeln!(
            out,
            "  {i} {name}: read_G {} read_A {} write {}",
            set(&s.read_guard),
            set(&s.read_action),
            set(&s.write)
        );
    }
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
    let _ = writeln!(out, "dependency matrix (D dependent, . independent):");
    let width = a.names.iter().map(String::len).max().unwrap_or(0);
    let header: Vec<String> = (0..n).map(|i| (i % 10).to_string()).collect();
    let _ = writeln!(out, "  {:width$}  {}", "", header.join(" "));
    for (i, name) in a.names.iter().enumerate() {
        let row: Vec<&str> = (0..n)
            .map(|j| if a.dependent(i, j) { "D" } else { "." })
            .collect();
        let _ = writeln!(out, "  {name:width$}  {}", row.join(" "));
    }
    let _ = writeln!(out, "pairs:");
    for (x, y, d) in &a.pairs {
        let how = d.describe_in(source);
        let _ = writeln!(out, "  {} {}: {how}", a.names[*x], a.names[*y]);
    }
    let _ = writeln!(out, "enable graph:");
    for (i, name) in a.names.iter().enumerate() {
        let targets: Vec<&str> = (0..n)
            .filter(|&j| a.enables(i, j))
            .map(|j| a.names[j].as_str())
            .collect();
        let _ = writeln!(out, "  {name} -> {}", set_of(&targets));
    }
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

fn set_of(names: &[&str]) -> String {
    format!("{{{}}}", names.join(", "))
}

/// Graphviz: the enable graph (directed) and the dependency relation
/// (undirected, in its own graph).
fn dot(a: &Analysis) -> String {
    let mut out = String::from("digraph enable {\n");
    for name in &a.names {
        let _ = writeln!(out, "  \"{name}\";");
    }
    for (x, y, d) in &a.enables {
        if d.is_edge() {
            let _ = writeln!(out, "  \"{}\" -> \"{}\";", a.names[*x], a.names[*y]);
        }
    }
    out.push_str("}\ngraph dependency {\n");
    for name in &a.names {
        let _ = writeln!(out, "  \"{name}\";");
    }
    for (x, y, d) in &a.pairs {
        if d.is_dependent() {
            let _ = writeln!(out, "  \"{}\" -- \"{}\";", a.names[*x], a.names[*y]);
        }
    }
    out.push_str("}\n");
    out
}

/// The analysis as JSON (see [`PorAnalysisReport`]).
fn json(a: &Analysis) -> String {
    use super::report::json::{
        ConjunctReport, EnableDecision, InstancesReport, OperationAccess, PairDecision,
        SCHEMA_VERSION,
    };
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
    let report = PorAnalysisReport {
        schema_version: SCHEMA_VERSION,
        operations,
        dependent,
        pairs,
        enable,
        invariant_conjuncts,
        instances,
    };
    let mut text = serde_json::to_string_pretty(&report).expect("the analysis serialises");
    text.push('\n');
    text
}

/// What the summary of `orbit check --por` says about the reduction.
pub struct PorInfo {
    /// States expanded through a proper ample set only.
    pub reduced: u64,
    /// Distinct states of the run.
    pub states: u64,
    /// States fully expanded by the cycle proviso.
    pub proviso: u64,
    /// No checked property can change after an initial state (deadlock-only
    /// checking): A1 and A2 only, no stutter condition, no proviso.
    pub deadlock_only: bool,
    /// Wall time of the static analysis.
    pub analysis: std::time::Duration,
    /// Dependent pairs and all pairs of operation instances.
    pub dependent_pairs: (usize, usize),
}

impl PorInfo {
    /// The `por` object of the report.
    pub fn to_report(&self) -> PorReport {
        PorReport {
            reduced_states: self.reduced,
            states: self.states,
            proviso_expansions: self.proviso,
            deadlock_only: self.deadlock_only,
            dependent_pairs: self.dependent_pairs.0,
            pairs: self.dependent_pairs.1,
            analysis_seconds: self.analysis.as_secs_f64(),
        }
    }
}

/// The summary line of a run with partial order reduction.
pub fn report_text(info: &PorReport) -> String {
    format!(
        "partial order reduction: on ({} of {} states reduced; {} fully expanded by the \
         cycle proviso; {} of {} pairs of operation instances dependent; analysis {:.3} s{})\n",
        info.reduced_states,
        info.states,
        info.proviso_expansions,
        info.dependent_pairs,
        info.pairs,
        info.analysis_seconds,
        if info.deadlock_only {
            "; no checked property can change, only deadlocks matter: A1 and A2, no proviso"
        } else {
            ""
        }
    )
}

/// Counts of how the pairs and enable edges were decided, one line each.
fn decision_counts(a: &Analysis) -> String {
    use crate::b::por::dependency::Decision;
    use crate::b::por::enable::EnableDecision;
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
            EnableDecision::Disjoint => disjoint += 1,
            EnableDecision::Witness(_) => witness += 1,
            EnableDecision::Never { .. } | EnableDecision::ExclusiveConjuncts(_) => never += 1,
            EnableDecision::Fallback(_) => fallback += 1,
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
    system: &crate::b::system::BSystem,
    machine: &crate::b::ast::Machine,
    types: &crate::b::types::MachineTypes,
    checked: Checked,
    verbose: bool,
) -> (crate::model::Independence, PorInfo) {
    let start = std::time::Instant::now();
    // States violating the invariant are explored when it is not checked,
    // so the candidates of the refined tests may not assume it then.
    let analysis = crate::b::por::analyse_with(
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
    let inst = &analysis.instances;
    let n = inst.len();
    let dependent = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| inst.dependent(i, j))
        .count();
    let info = PorInfo {
        reduced: 0,
        states: 0,
        proviso: 0,
        deadlock_only: !independence.proviso,
        analysis: analysis_time,
        dependent_pairs: (dependent, n * n.saturating_sub(1) / 2),
    };
    (independence, info)
}

impl PorInfo {
    /// Completes the facts with the run's report.
    pub fn after(mut self, report: &workers::Report) -> Self {
        self.reduced = report.stats.reduced_states;
        self.states = report.stats.states;
        self.proviso = report.stats.proviso_expansions;
        self
    }
}
