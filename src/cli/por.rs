//! `orbit por MODEL`: the static analysis of partial order reduction: per
//! transition group (B operation, Murphi rule) its read and write sets, the
//! dependency matrix with how each pair was decided, and the enable graph;
//! `--dot` prints both relations as Graphviz, `--json` as JSON.

use super::model::ModelArgs;
use crate::frontends::Checks;
use std::process::ExitCode;

/// Most candidate states enumerated per query (B), by default.
pub const DEFAULT_BUDGET: usize = crate::frontends::b::por::DEFAULT_BUDGET;

/// Arguments of `orbit por`.
#[derive(clap::Args, Debug)]
pub struct PorArgs {
    /// The model, its constants and its front end's flags.
    #[command(flatten)]
    pub input: ModelArgs,
    /// Most candidate states enumerated per query before falling back to
    /// the conservative answer (front ends that enumerate: B).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET)]
    pub budget: usize,
    /// Print the enable graph and the dependency relation as Graphviz dot.
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
    /// `--time-limit` and `--memory`.
    #[command(flatten)]
    pub limits: super::limits::LimitArgs,
}

/// Runs `orbit por`: 0 on success, 2 on bad input or a language without
/// the analysis, 1 when the model cannot be set up, 3 when a limit or a
/// signal stopped it.
pub fn run(args: &PorArgs) -> ExitCode {
    let _limited = match args.limits.start() {
        Ok(limited) => limited,
        Err(code) => return code,
    };
    let loaded = match args.input.load(Checks::default()) {
        Ok(loaded) => loaded,
        Err(failure) => return super::model::not_loaded(&failure),
    };
    let analysis = match loaded.por_analysis(args.budget) {
        Ok(analysis) => analysis,
        Err(e) => return super::job_error(e),
    };
    let out = if args.dot {
        analysis.dot()
    } else if args.json {
        analysis.json()
    } else {
        analysis.text
    };
    super::output::print(&out);
    ExitCode::SUCCESS
}
