//! `orbit por MODEL`: the static analysis of partial order reduction
//! ([`crate::por`]): per operation its read and write sets, the dependency
//! matrix with how each pair was decided, and the enable graph; `--dot`
//! prints both relations as Graphviz, `--json` as JSON.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use super::units::parse_set_size;
use crate::b::load::{LoadError, LoadOptions, load_model};
use crate::por::{Analysis, DEFAULT_BUDGET, analyse};

/// Arguments of `orbit por`.
#[derive(clap::Args, Debug)]
pub struct PorArgs {
    /// The B machine to analyse (.mch, .ref, .imp).
    pub model: PathBuf,
    /// Size of a deferred set, e.g. `--set PID=4` (repeatable).
    #[arg(long = "set", value_name = "SET=SIZE", value_parser = parse_set_size)]
    pub set_sizes: Vec<(String, u32)>,
    /// Value of MAXINT (ProB's default is 3).
    #[arg(long, value_name = "N")]
    pub maxint: Option<i64>,
    /// Value of MININT (ProB's default is -1).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub minint: Option<i64>,
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
    let options = LoadOptions {
        set_sizes: args.set_sizes.clone(),
        maxint: args.maxint,
        minint: args.minint,
    };
    let model = match load_model(&args.model, &options) {
        Ok(m) => m,
        Err(LoadError::Input(text)) => {
            eprint!("{text}");
            return ExitCode::from(2);
        }
        Err(LoadError::Model(text)) => {
            eprint!("{text}");
            return ExitCode::from(1);
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
        text(&analysis)
    };
    print!("{out}");
    ExitCode::SUCCESS
}

fn set(s: &std::collections::BTreeSet<String>) -> String {
    let v: Vec<&str> = s.iter().map(String::as_str).collect();
    format!("{{{}}}", v.join(", "))
}

/// The human-readable report.
fn text(a: &Analysis) -> String {
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
        let _ = writeln!(out, "  {} {}: {}", a.names[*x], a.names[*y], d.describe());
    }
    let _ = writeln!(out, "enable graph:");
    for (i, name) in a.names.iter().enumerate() {
        let targets: Vec<&str> = (0..n)
            .filter(|&j| a.enables(i, j))
            .map(|j| a.names[j].as_str())
            .collect();
        let _ = writeln!(out, "  {name} -> {}", set_of(&targets));
    }
    let _ = writeln!(out, "enable decisions:");
    for (x, y, d) in &a.enables {
        let _ = writeln!(
            out,
            "  {} -> {}: {}",
            a.names[*x],
            a.names[*y],
            d.describe()
        );
    }
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

/// The analysis as JSON.
fn json(a: &Analysis) -> String {
    use serde_json::json;
    let names = |s: &std::collections::BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>();
    let operations: Vec<_> = a
        .names
        .iter()
        .zip(&a.sets)
        .map(|(n, s)| {
            json!({
                "name": n,
                "read_guard": names(&s.read_guard),
                "read_action": names(&s.read_action),
                "write": names(&s.write),
            })
        })
        .collect();
    let n = a.names.len();
    let matrix: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| a.dependent(i, j)).collect())
        .collect();
    let pairs: Vec<_> = a
        .pairs
        .iter()
        .map(|(x, y, d)| {
            json!({"a": a.names[*x], "b": a.names[*y], "dependent": d.is_dependent(),
                   "how": d.describe()})
        })
        .collect();
    let enables: Vec<_> = a
        .enables
        .iter()
        .map(|(x, y, d)| {
            json!({"from": a.names[*x], "to": a.names[*y], "edge": d.is_edge(),
                   "how": d.describe()})
        })
        .collect();
    let v = json!({"operations": operations, "dependent": matrix, "pairs": pairs,
                   "enable": enables});
    format!("{v:#}\n")
}
