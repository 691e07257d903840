//! The verbs of the command line (`check`, `canon`, ...), each built only
//! when the command line names it.
//!
//! clap's derive builds every verb's arguments before it parses anything:
//! a run of `orbit check` built `bench`'s, `graph`'s and the others' too,
//! and that code and memory were part of every run's start. Here each verb
//! is named and described up front (what `orbit --help` lists) and its
//! arguments are added by [`clap::Command::defer`] when clap enters it.

use clap::{ArgMatches, Args, FromArgMatches};

use super::{bench, canon, check, graph, por, schema};

/// A verb and its arguments.
#[derive(Debug)]
pub(super) enum Command {
    /// `orbit check`.
    Check(check::CheckArgs),
    /// `orbit canon`.
    Canon(canon::CanonArgs),
    /// `orbit bench`.
    Bench(bench::BenchArgs),
    /// `orbit graph`.
    Graph(graph::GraphArgs),
    /// `orbit por`.
    Por(por::PorArgs),
    /// `orbit schema`.
    Schema(schema::SchemaArgs),
}

/// A verb's name, its one-line description (what `orbit --help` lists) and
/// the function that adds its arguments, the description again (an
/// arguments struct's own doc comment would otherwise replace it) and
/// anything else only its own help shows.
struct Verb {
    name: &'static str,
    about: &'static str,
    build: fn(clap::Command) -> clap::Command,
}

const CHECK_ABOUT: &str =
    "Explore a model's reachable states and check its invariant, assertions, deadlocks and goal";
const CANON_ABOUT: &str = "Canonical labelling of graphs in nauty's dreadnaut format: prints the canonical labelling and a hash of the canonical form, one line per graph";
const BENCH_ABOUT: &str = "Run the same check over several thread counts, repeated, and write a table (text and CSV) and a PNG plot of the speedup";
const GRAPH_ABOUT: &str = "The coloured graph of a reachable state (as symmetry reduction labels it) in dreadnaut format, for canonical labelling benchmarks";
const POR_ABOUT: &str =
    "Static analysis for partial order reduction: read/write sets, dependency, enable graph";
const SCHEMA_ABOUT: &str = "The JSON Schema of `orbit check --json` or `orbit por --json`";

const CHECK_EXIT_CODES: &str = "Exit codes:\n  \
    0  every reachable state was explored and no error was found\n  \
    1  an invariant, assertion, liveness or LTL property fails, a deadlock or goal state was found, or the model is ill-defined\n  \
    2  bad input or usage\n  \
    3  incomplete: a limit (--max-states, --time-limit, --memory), Ctrl-C, SIGTERM or a failed worker thread stopped the search; no verdict";

/// The verbs, in the order `orbit --help` lists them.
const VERBS: [Verb; 6] = [
    Verb {
        name: "check",
        about: CHECK_ABOUT,
        build: |c| {
            check::CheckArgs::augment_args(c)
                .about(CHECK_ABOUT)
                .after_help(CHECK_EXIT_CODES)
        },
    },
    Verb {
        name: "canon",
        about: CANON_ABOUT,
        build: |c| canon::CanonArgs::augment_args(c).about(CANON_ABOUT),
    },
    Verb {
        name: "bench",
        about: BENCH_ABOUT,
        build: |c| bench::BenchArgs::augment_args(c).about(BENCH_ABOUT),
    },
    Verb {
        name: "graph",
        about: GRAPH_ABOUT,
        build: |c| graph::GraphArgs::augment_args(c).about(GRAPH_ABOUT),
    },
    Verb {
        name: "por",
        about: POR_ABOUT,
        build: |c| por::PorArgs::augment_args(c).about(POR_ABOUT),
    },
    Verb {
        name: "schema",
        about: SCHEMA_ABOUT,
        build: |c| schema::SchemaArgs::augment_args(c).about(SCHEMA_ABOUT),
    },
];

impl clap::Subcommand for Command {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        cmd.subcommands(VERBS.iter().map(|verb| {
            clap::Command::new(verb.name)
                .about(verb.about)
                .defer(verb.build)
        }))
    }

    /// The same verbs: orbit parses a command line once and never updates
    /// a parsed one.
    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        VERBS.iter().any(|verb| verb.name == name)
    }
}

impl FromArgMatches for Command {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, mut sub)) = matches.remove_subcommand() else {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::MissingSubcommand,
                "a subcommand is required but one was not provided",
            ));
        };
        let sub = &mut sub;
        Ok(match name.as_str() {
            "check" => Command::Check(FromArgMatches::from_arg_matches_mut(sub)?),
            "canon" => Command::Canon(FromArgMatches::from_arg_matches_mut(sub)?),
            "bench" => Command::Bench(FromArgMatches::from_arg_matches_mut(sub)?),
            "graph" => Command::Graph(FromArgMatches::from_arg_matches_mut(sub)?),
            "por" => Command::Por(FromArgMatches::from_arg_matches_mut(sub)?),
            "schema" => Command::Schema(FromArgMatches::from_arg_matches_mut(sub)?),
            other => {
                return Err(clap::Error::raw(
                    clap::error::ErrorKind::InvalidSubcommand,
                    format!("the subcommand '{other}' wasn't recognized"),
                ));
            }
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Cli;
    use super::*;
    use clap::{CommandFactory, Parser};

    #[test]
    fn the_command_line_is_well_formed_with_every_verb_built() {
        // Builds every deferred verb and checks clap's own invariants
        // (duplicate flags, conflicting names, ...).
        Cli::command().debug_assert();
    }

    #[test]
    fn every_verb_is_listed_with_its_description_and_parses_to_its_variant() {
        let listed: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| format!("{} {}", c.get_name(), c.get_about().unwrap()))
            .collect();
        let verbs: Vec<String> = VERBS
            .iter()
            .map(|v| format!("{} {}", v.name, v.about))
            .collect();
        assert_eq!(listed, verbs);
        for verb in &VERBS {
            assert!(<Command as clap::Subcommand>::has_subcommand(verb.name));
        }
        assert!(!<Command as clap::Subcommand>::has_subcommand("help"));
        let parsed = |args: &[&str]| Cli::try_parse_from(args).map(|cli| cli.command);
        assert!(
            matches!(parsed(&["orbit", "check", "m.mch"]), Ok(Command::Check(a)) if a.input.model.to_str() == Some("m.mch"))
        );
        assert!(
            matches!(parsed(&["orbit", "canon", "g.dre", "--orbits"]), Ok(Command::Canon(a)) if a.orbits)
        );
        assert!(matches!(
            parsed(&["orbit", "bench", "m.mch"]),
            Ok(Command::Bench(_))
        ));
        assert!(matches!(
            parsed(&["orbit", "graph", "m.mch"]),
            Ok(Command::Graph(_))
        ));
        assert!(matches!(
            parsed(&["orbit", "por", "m.mch"]),
            Ok(Command::Por(_))
        ));
        assert!(
            matches!(parsed(&["orbit", "schema", "por"]), Ok(Command::Schema(a)) if a.of == schema::SchemaOf::Por)
        );
        // A verb's flags are its own; the global -v is everyone's.
        assert!(parsed(&["orbit", "schema", "por", "--orbits"]).is_err());
        assert!(
            Cli::try_parse_from(["orbit", "canon", "g.dre", "-vv"])
                .is_ok_and(|cli| cli.verbose == 2)
        );
        assert!(parsed(&["orbit", "frob"]).is_err());
        assert!(parsed(&["orbit"]).is_err());
    }

    #[test]
    fn the_help_names_every_registered_language() {
        let about = Cli::command()
            .get_about()
            .map(|a| a.to_string())
            .unwrap_or_default();
        for front_end in crate::frontends::Registry::builtin().front_ends() {
            assert!(about.contains(front_end.name()), "{about}");
        }
    }

    #[test]
    fn a_verb_s_help_keeps_its_description_and_check_s_its_exit_codes() {
        let mut cli = Cli::command();
        cli.build();
        for verb in &VERBS {
            let sub = cli.find_subcommand_mut(verb.name).unwrap();
            let help = sub.render_help().to_string();
            assert!(help.starts_with(verb.about), "{}: {help}", verb.name);
            assert_eq!(help.contains("Exit codes:"), verb.name == "check", "{help}");
        }
    }
}
