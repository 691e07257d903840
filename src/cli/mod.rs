//! Command-line subcommands.

pub mod canon;
