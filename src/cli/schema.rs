//! `orbit schema check|por`: prints the JSON Schema of a command's
//! `--json` output.

use crate::report::json::{CHECK_REPORT_SCHEMA, POR_ANALYSIS_SCHEMA};
use std::process::ExitCode;

/// Which output's schema to print.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaOf {
    /// `orbit check --json`.
    Check,
    /// `orbit por --json`.
    Por,
}

/// Arguments of `orbit schema`.
#[derive(clap::Args, Debug)]
pub struct SchemaArgs {
    /// The command whose `--json` output the schema describes.
    #[arg(value_enum)]
    pub of: SchemaOf,
}

/// Prints the schema; always succeeds.
pub fn run(args: &SchemaArgs) -> ExitCode {
    super::output::print(match args.of {
        SchemaOf::Check => CHECK_REPORT_SCHEMA,
        SchemaOf::Por => POR_ANALYSIS_SCHEMA,
    });
    ExitCode::SUCCESS
}
