//! The Promela front end: SPIN's language, with SPIN's semantics, so that
//! SPIN's state counts are oracles.
//!
//! - `preprocess` (over `lexer`'s tokens): the C preprocessor as SPIN
//!   runs it;
//! - `parser` (into `ast`): the grammar, `inline`s expanded, `typedef`s
//!   flattened (`structs`); constructs not run yet are refused by name;
//! - `flow`: each proctype's control flow as SPIN builds it, with SPIN's
//!   default statement merging and dead-variable resets, and its
//!   transition table;
//! - `compile`: names resolved, the state laid out, statements compiled;
//! - `eval`: the interpreter;
//! - `system`: [`PromelaSystem`], the model as a `Model`, with SPIN's
//!   rules for atomic sequences, rendezvous, `else`, `timeout`, process
//!   creation and death, and valid end states.
//!
//! A state is the globals, the channels, and each process's proctype,
//! state and locals; the states orbit explores are those SPIN's `pan`
//! stores (intermediate states of atomic sequences and rendezvous are
//! not states). An assertion that fails and a state where nothing moves
//! while some process is not at a valid end state (SPIN's "invalid end
//! state", orbit's deadlock) are errors with the shortest trace.

pub mod ast;
pub mod compile;
pub mod eval;
pub mod flow;
mod front_end;
pub mod lexer;
pub mod parser;
pub mod por;
pub mod preprocess;
pub mod structs;
pub mod symmetry;
pub mod system;

pub use front_end::{LoadedPromela, PromelaFrontEnd};
pub use system::PromelaSystem;

use crate::diag::{SourceFile, Span};
use std::path::Path;
use std::sync::Arc;

/// How a model is compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// SPIN's statement merging and dead-variable resets (its defaults;
    /// off: SPIN's `-o1 -o2 -o3`).
    pub optimise: bool,
    /// Room for this many processes in every state (`None`: as many as
    /// the model can start, or SPIN's 255 when orbit cannot bound them).
    pub max_processes: Option<usize>,
    /// Proctypes the user declares symmetric (`--symmetric`).
    pub symmetric: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            optimise: true,
            max_processes: None,
            symmetric: Vec::new(),
        }
    }
}

/// Reads, preprocesses, parses and compiles the model in `path`. Errors
/// come back rendered with file:line:column.
pub fn load(path: &Path, options: &Options) -> Result<PromelaSystem, String> {
    let text = crate::frontends::source::read_model_text(path)?;
    let len = text.len();
    let mut file = SourceFile::new(path.display().to_string(), text);
    let toks = preprocess::preprocess(&mut file, path, 0..len).map_err(|d| d.render(&file))?;
    let end = Span::new(file.text.len(), file.text.len());
    let spec = parser::parse(toks, end).map_err(|d| d.render(&file))?;
    if spec.proctypes.is_empty() {
        return Err(format!(
            "error: `{}` has no proctype and no `init`: nothing runs\n",
            path.display()
        ));
    }
    if spec.proctypes.iter().all(|p| p.active == 0) {
        return Err(format!(
            "error: `{}` starts no process (no `init`, no `active proctype`)\n",
            path.display()
        ));
    }
    let prog = compile::compile(&spec, options).map_err(|d| d.render(&file))?;
    let plan = symmetry::plan(&spec, &file, &options.symmetric)
        .and_then(|plan| plan.map(|plan| family_cells(&plan, &prog)).transpose());
    if let (Err(why), false) = (&plan, options.symmetric.is_empty()) {
        return Err(format!("error: {why}\n"));
    }
    Ok(PromelaSystem::new(prog, Arc::new(file), plan))
}

/// The cells a permutation of the family's pids touches, or why the
/// family is no symmetry after all (its processes can end: SPIN removes
/// ended processes youngest first).
fn family_cells(
    plan: &symmetry::SymmetryPlan,
    prog: &compile::Program,
) -> Result<symmetry::SymmetryCells, String> {
    let proc = &prog.procs[plan.proctype];
    let ends = proc
        .flow
        .reachable()
        .any(|s| proc.flow.elems[s].kind == flow::Kind::Stop);
    if ends {
        return Err(format!(
            "not supported yet: symmetry over processes that can end (`{}`): SPIN removes ended \
             processes youngest first, which no permutation of their pids respects",
            proc.name
        ));
    }
    let cells = symmetry::SymmetryCells::new(plan, prog);
    symmetry::check_cover(&cells)?;
    Ok(cells)
}
