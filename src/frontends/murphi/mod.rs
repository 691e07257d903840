//! The Murphi front end: the language of CMurphi's and Rumur's manuals,
//! compiled to the model interface ([`crate::model`]), so that every layer
//! and engine applies to it.
//!
//! - `lexer`, `parser` (into `ast`): the syntax, with CMurphi's multisets
//!   (`multiset`, `choose`, `multisetadd`/`remove`/`removepred`/`count`),
//!   unions and `ismember`, `undefined` values and rule priorities;
//!   Rumur's `assume` and `cover`; constructs not run yet (liveness) are
//!   refused by name;
//! - `types`: resolved types and the word layout (one word per scalar
//!   leaf, 0 = undefined; a multiset is slots of a presence word and an
//!   element, sorted after every rule so that equal multisets are equal
//!   words);
//! - `compile` (into `ir`): names resolved, `--set` overrides of
//!   constants, types checked, read/write sets per rule;
//! - `eval`: the interpreter (range-checked assignments; undefined reads
//!   are errors, as in Rumur, except scalarsets and unions under
//!   `--dialect cmurphi`, which CMurphi reads unchecked: [`Dialect`]);
//! - `system`: [`MurphiSystem`], the program as a `Model`: rules are the
//!   transition groups, ruleset instances their transitions.
//!
//! Deadlocks follow CMurphi (and Rumur's default `stuttering`): a state
//! where no rule leads to another state, that is no rule is enabled or
//! every enabled rule leaves the state unchanged
//! ([`crate::model::Model::stutter_is_deadlock`]); `--deadlock-mode stuck`
//! counts only states without an enabled rule.

pub mod ast;
pub mod compile;
pub mod eval;
mod front_end;
pub mod ir;
pub mod lexer;
pub mod pack;
pub mod parser;
pub mod symmetry;
pub mod system;
pub mod types;

pub use front_end::{LoadedMurphi, MurphiFrontEnd};
pub use system::MurphiSystem;

use crate::diag::SourceFile;
use std::path::Path;
use std::sync::Arc;

/// Whose reading of a Murphi program orbit follows (`--dialect`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Dialect {
    /// Rumur's (the default): reading an undefined value of any type is a
    /// model error.
    #[default]
    Rumur,
    /// CMurphi 5's generated code: an undefined scalarset or union value
    /// reads without an error, equal only to another undefined value;
    /// stored, passed, returned, added to a multiset or narrowed it stays
    /// undefined; indexing an array
    /// with it is an error. Undefined booleans, enumerations and integers
    /// are errors, as in CMurphi.
    Cmurphi,
}

/// Reads, parses and compiles the Murphi program in `path` as `dialect`
/// reads it; `overrides` replace constants (`--set N=4`). Errors come back
/// rendered with file:line:column.
pub fn load(
    path: &Path,
    overrides: &[(String, i64)],
    dialect: Dialect,
) -> Result<MurphiSystem, String> {
    let text = crate::frontends::source::read_model_text(path)?;
    let file = Arc::new(SourceFile::new(path.display().to_string(), text));
    load_source(file, overrides, dialect)
}

/// [`load`] from text already read.
pub fn load_source(
    file: Arc<SourceFile>,
    overrides: &[(String, i64)],
    dialect: Dialect,
) -> Result<MurphiSystem, String> {
    let program = parser::parse_program(&file.text).map_err(|d| d.render(&file))?;
    let compiled = compile::compile(&program, overrides, dialect).map_err(|d| d.render(&file))?;
    Ok(MurphiSystem::new(compiled, file.clone())
        .map_err(|e| format!("error: {e}\n"))?
        .compiled_with(overrides, dialect))
}
