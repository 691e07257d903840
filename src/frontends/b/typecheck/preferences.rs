//! ProB preferences set from a machine's `DEFINITIONS`.
//!
//! ProB lets a machine fix some of its animation preferences with
//! definitions such as `SET_PREF_MAXINT == 255` (see "Tutorial Setup
//! Phases" in the ProB manual). orbit reads those that change what the
//! machine means for the model checker: `SET_PREF_MAXINT`, `SET_PREF_MININT`,
//! `SET_PREF_DEFAULT_SETSIZE`, `SET_PREF_STATIC_SYMMETRY_DETECTION`
//! (ProB's normal form of symmetric constants) and
//! `SET_PREF_ALLOW_SIMULTANEOUS_ASSIGNMENTS` (branches of `||` may write
//! the same variable). Command-line options win
//! over them. The others (ProB's solvers, display, time-outs, and the
//! bounds on the transitions it computes, `SET_PREF_MAX_OPERATIONS`, which
//! orbit never cuts short) do not change what orbit checks.
//!
//! A `SET_PREF_` definition one letter or two away from a ProB preference
//! (`SET_PREF_MINIT`, `SET_PREF_MAXOPERATIONS`) is an error, as ProB
//! rejects a machine that sets a preference it does not have: the intended
//! one would silently stay unset. Other names orbit does not know are
//! ignored with a warning (ProB has preferences orbit does not list).
//!
//! The parser keeps definitions as macros (name, parameters, span), so the
//! body is read back from the source text: the text after `==`.

use super::CheckOptions;
use super::given_sets::const_int;
use crate::diag::{Diagnostic, SourceFile};
use crate::frontends::b::ast::{Definition, Machine};
use crate::frontends::b::parser::parse_expression;

/// ProB preferences a machine may set (after `SET_PREF_`): those of
/// ProB's public examples and of its manual.
const PREFERENCES: &[&str] = &[
    "ALLOW_COMPLEX_LETS",
    "ALLOW_INCOMPLETE_SETUP_CONSTANTS",
    "ALLOW_LOCAL_OPERATION_CALLS",
    "ALLOW_NEW_OPERATIONS_IN_REFINEMENT",
    "ALLOW_REALS",
    "ALLOW_SIMULTANEOUS_ASSIGNMENTS",
    "ALLOW_UNTYPED_IDENTIFIERS",
    "ANIMATE_SKIP_OPERATIONS",
    "CHR",
    "CLPFD",
    "COMPRESSION",
    "CSE",
    "CSE_SUBST",
    "CSE_WD_ONLY",
    "DATA_VALIDATION",
    "DEFAULT_SETSIZE",
    "DETECT_LAMBDAS",
    "DISPROVER_MODE",
    "DOUBLE_EVALUATION",
    "EXPAND_CLOSURES_FOR_STATE",
    "EXPAND_FORALL_UPTO",
    "IGNORE_PRJ_TYPES",
    "KODKOD",
    "KODKOD_MAX_NR_SOLS",
    "KODKOD_ONLY_FULL",
    "KODKOD_SAT_SOLVER",
    "KODKOD_SYMMETRY",
    "MAXINT",
    "MAX_DISPLAY_SET",
    "MAX_INITIALISATIONS",
    "MAX_OPERATIONS",
    "MEMO",
    "MEMOIZE_FUNCTIONS",
    "MININT",
    "NUMBER_OF_ANIMATED_ABSTRACTIONS",
    "OPERATION_REUSE",
    "PARTITION_PROPERTIES",
    "PERFORMANCE_INFO",
    "PROOF_INFO",
    "RANDOMISE_ENUMERATION_ORDER",
    "RAISE_ABORT_IMMEDIATELY",
    "RECURSIVE",
    "REQUIRE_OUTPUT_ASSIGNMENT",
    "SHOW_EVENTB_ANY_VALUES",
    "SMT",
    "SMT_SUPPORTED_INTERPRETER",
    "SOLVER_STRENGTH",
    "STATIC_ORDERING",
    "STATIC_SYMMETRY_DETECTION",
    "STRICT_RAISE_ENUM_WARNINGS",
    "SYMBOLIC",
    "SYMMETRY_MODE",
    "TIME_OUT",
    "TK_CUSTOM_STATE_VIEW_PADDING",
    "TRACE_INFO",
    "TRACE_UPON_ERROR",
    "TRY_FIND_ABORT",
    "USE_PO",
    "USE_RECORD_CONSTRUCTION",
    "WARN_WHEN_EXPANDING_INFINITE_CLOSURES",
];

/// What `pref` (a name after `SET_PREF_`) is to orbit.
enum Preference {
    /// One of [`PREFERENCES`], in any case.
    Known,
    /// One edit from this preference, or two for a name of eight
    /// characters or more.
    Misspelt(&'static str),
    /// Neither: a preference orbit does not list, or none.
    Unknown,
}

fn preference(pref: &str) -> Preference {
    let upper = pref.to_uppercase();
    if PREFERENCES.contains(&upper.as_str()) {
        return Preference::Known;
    }
    let reach = if upper.len() >= 8 { 2 } else { 1 };
    match super::scope::closest(&upper, PREFERENCES.iter().copied(), reach) {
        Some(known) => Preference::Misspelt(known),
        None => Preference::Unknown,
    }
}

/// The body of a definition, `TRUE` or `FALSE`, read from the source text.
pub fn definition_bool(def: &Definition, file: &SourceFile) -> Result<bool, Diagnostic> {
    let body = file
        .text
        .get(def.span.start as usize..def.span.end as usize)
        .and_then(|text| text.split_once("=="))
        .map(|(_, body)| body.trim());
    match body {
        Some("TRUE") => Ok(true),
        Some("FALSE") => Ok(false),
        _ => Err(Diagnostic::error(
            def.span,
            format!("cannot read the value of `{}`", def.name.name),
        )
        .with_label("expected TRUE or FALSE")),
    }
}

/// The integer value of a definition's body, read from the source text.
fn definition_value(def: &Definition, file: &SourceFile) -> Result<i64, Diagnostic> {
    let unreadable = || {
        Diagnostic::error(
            def.span,
            format!("cannot read the value of `{}`", def.name.name),
        )
        .with_label("expected an integer")
        .with_note(format!("write e.g. `{} == 255`", def.name.name))
    };
    let text = file
        .text
        .get(def.span.start as usize..def.span.end as usize)
        .ok_or_else(unreadable)?;
    let (_, body) = text.split_once("==").ok_or_else(unreadable)?;
    let body = body.trim();
    if let Ok(n) = body.parse::<i64>() {
        return Ok(n);
    }
    let expr =
        parse_expression(&SourceFile::new(file.name.clone(), body)).map_err(|_| unreadable())?;
    const_int(&expr).ok_or_else(unreadable)
}

/// Preferences a machine sets in its `DEFINITIONS`; `None` where it sets none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MachinePreferences {
    /// `SET_PREF_MAXINT == n`
    pub maxint: Option<i64>,
    /// `SET_PREF_MININT == n`
    pub minint: Option<i64>,
    /// `SET_PREF_DEFAULT_SETSIZE == n`
    pub default_set_size: Option<u32>,
    /// `SET_PREF_STATIC_SYMMETRY_DETECTION == TRUE/FALSE`
    pub static_symmetry: Option<bool>,
    /// `SET_PREF_ALLOW_SIMULTANEOUS_ASSIGNMENTS == TRUE`
    pub simultaneous_assignments: bool,
}

impl MachinePreferences {
    /// `options` with the preferences filled in where the options leave
    /// them open (`maxint`, `minint`), or replacing the default set size
    /// unless `keep_set_size` (the command line gave one).
    pub fn apply(&self, mut options: CheckOptions, keep_set_size: bool) -> CheckOptions {
        options.maxint = options.maxint.or(self.maxint);
        options.minint = options.minint.or(self.minint);
        if let (Some(n), false) = (self.default_set_size, keep_set_size) {
            options.default_set_size = n;
        }
        options
    }
}

/// Reads `SET_PREF_MAXINT`, `SET_PREF_MININT` and `SET_PREF_DEFAULT_SETSIZE`
/// from a parsed machine and its source text.
pub fn machine_preferences(
    machine: &Machine,
    file: &SourceFile,
) -> Result<MachinePreferences, Vec<Diagnostic>> {
    let mut prefs = MachinePreferences::default();
    let mut diags = Vec::new();
    for def in &machine.definitions {
        let name = def.name.name.as_str();
        if let Some(pref) = name.strip_prefix("SET_PREF_") {
            match preference(pref) {
                Preference::Known => {}
                Preference::Misspelt(known) => {
                    diags.push(
                        Diagnostic::error(def.span, format!("`{name}` is not a ProB preference"))
                            .with_label(format!("did you mean `SET_PREF_{known}`?"))
                            .with_note(
                                "ProB rejects a machine that sets a preference it does not have",
                            ),
                    );
                    continue;
                }
                Preference::Unknown => {
                    tracing::warn!("{name}: not a ProB preference orbit knows; ignored");
                }
            }
        }
        if name == "SET_PREF_STATIC_SYMMETRY_DETECTION" {
            match definition_bool(def, file) {
                Ok(on) => prefs.static_symmetry = Some(on),
                Err(d) => diags.push(d),
            }
            continue;
        }
        if name == "SET_PREF_ALLOW_SIMULTANEOUS_ASSIGNMENTS" {
            match definition_bool(def, file) {
                Ok(on) => prefs.simultaneous_assignments = on,
                Err(d) => diags.push(d),
            }
            continue;
        }
        if !matches!(
            name,
            "SET_PREF_MAXINT" | "SET_PREF_MININT" | "SET_PREF_DEFAULT_SETSIZE"
        ) {
            continue;
        }
        let value = match definition_value(def, file) {
            Ok(n) => n,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        match name {
            "SET_PREF_MAXINT" => prefs.maxint = Some(value),
            "SET_PREF_MININT" => prefs.minint = Some(value),
            _ => match u32::try_from(value) {
                Ok(n) if n >= 1 => prefs.default_set_size = Some(n),
                _ => diags.push(
                    Diagnostic::error(
                        def.span,
                        format!("a default set size of {value} is not allowed"),
                    )
                    .with_note("given sets are non-empty"),
                ),
            },
        }
    }
    if diags.is_empty() {
        Ok(prefs)
    } else {
        Err(diags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::parser::parse_machine;

    #[test]
    fn misspelt_preferences_are_errors() {
        for (text, known) in [
            ("SET_PREF_MINIT == 0", Some("MININT")),
            ("SET_PREF_MAXOPERATIONS == 7", Some("MAX_OPERATIONS")),
            (
                "SET_PREF_allow_local_operation_calls2 == TRUE",
                Some("ALLOW_LOCAL_OPERATION_CALLS"),
            ),
            ("SET_PREF_MAXINT == 7", None),
            ("SET_PREF_maxint == 7", None),
            ("SET_PREF_SOMETHING_ELSE_ENTIRELY == 7", None),
        ] {
            let text = format!("MACHINE m\nDEFINITIONS {text}\nEND\n");
            let file = SourceFile::new("m.mch", &text);
            let machine = parse_machine(&file).unwrap();
            match (machine_preferences(&machine, &file), known) {
                (Ok(_), None) => {}
                (Err(ds), Some(known)) => {
                    assert!(ds[0].message.contains("is not a ProB preference"), "{text}");
                    assert!(
                        format!("{:?}", ds[0]).contains(known),
                        "{text}: {:?}",
                        ds[0]
                    );
                }
                (got, _) => panic!("{text}: {got:?}"),
            }
        }
    }

    #[test]
    fn static_symmetry_detection_is_read_as_a_truth_value() {
        for (body, want) in [
            ("TRUE", Ok(Some(true))),
            ("FALSE", Ok(Some(false))),
            ("1", Err(())),
        ] {
            let text = format!(
                "MACHINE m\nDEFINITIONS SET_PREF_STATIC_SYMMETRY_DETECTION == {body}\nEND\n"
            );
            let file = SourceFile::new("m.mch", &text);
            let m = parse_machine(&file).unwrap();
            let got = machine_preferences(&m, &file)
                .map(|p| p.static_symmetry)
                .map_err(|_| ());
            assert_eq!(got, want, "{body}");
        }
    }

    fn options_for(text: &str, given: CheckOptions) -> Result<CheckOptions, Vec<Diagnostic>> {
        let file = SourceFile::new("m.mch", text);
        let machine = parse_machine(&file).expect("parses");
        Ok(machine_preferences(&machine, &file)?.apply(given, false))
    }

    #[test]
    fn definitions_set_bounds_unless_options_do() {
        let text = "MACHINE m\nDEFINITIONS SET_PREF_MAXINT == 255; SET_PREF_MININT == -256;\n\
                    SET_PREF_DEFAULT_SETSIZE == 4\nEND\n";
        let o = options_for(text, CheckOptions::default()).unwrap();
        assert_eq!(
            (o.maxint, o.minint, o.default_set_size),
            (Some(255), Some(-256), 4)
        );
        let o = options_for(
            text,
            CheckOptions {
                maxint: Some(7),
                ..CheckOptions::default()
            },
        )
        .unwrap();
        assert_eq!((o.maxint, o.minint), (Some(7), Some(-256)));
        let file = SourceFile::new("m.mch", text);
        let prefs = machine_preferences(&parse_machine(&file).unwrap(), &file).unwrap();
        assert_eq!(
            prefs.apply(CheckOptions::default(), true).default_set_size,
            2
        );
    }

    #[test]
    fn values_may_be_closed_arithmetic_with_powers() {
        let text = "MACHINE m\nDEFINITIONS SET_PREF_MAXINT == 2**31-1; \
                    SET_PREF_MININT == -(2**31)\nEND\n";
        let o = options_for(text, CheckOptions::default()).unwrap();
        assert_eq!(
            (o.maxint, o.minint),
            (Some(2_147_483_647), Some(-2_147_483_648))
        );
        // Too large for 64 bits: unreadable, not wrapped.
        let text = "MACHINE m\nDEFINITIONS SET_PREF_MAXINT == 2**64\nEND\n";
        assert!(options_for(text, CheckOptions::default()).is_err());
    }

    #[test]
    fn unreadable_value_is_an_error_at_the_definition() {
        let text = "MACHINE m\nDEFINITIONS SET_PREF_MAXINT == {1}\nEND\n";
        let errs = options_for(text, CheckOptions::default()).unwrap_err();
        assert_eq!(
            errs[0].message,
            "cannot read the value of `SET_PREF_MAXINT`"
        );
        let file = SourceFile::new("m.mch", text);
        assert!(errs[0].render(&file).contains("--> m.mch:2:13"));
    }
}
