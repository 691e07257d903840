//! The JSON reports against their committed JSON Schemas
//! (`src/report/schema/`, printed by `orbit schema check|por`).
//!
//! [`check_report`] and [`por_analysis`] are used by every test that reads
//! a `--json` output, so each report the suite produces is validated; the
//! tests here cover the shapes the other tests might not reach (stopped
//! runs, model errors before the search, symmetry, POR, compact storage)
//! and check that the schema is strict enough to catch drift.

use crate::cli_support::{CheckRun, model_path, run_orbit};
use orbit::report::json::{CHECK_REPORT_SCHEMA, POR_ANALYSIS_SCHEMA};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// Compiles one of the committed schemas.
fn compile(text: &str) -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

/// The errors of `value` against `validator`, one per line.
fn errors(validator: &jsonschema::Validator, value: &Value) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn check_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| compile(CHECK_REPORT_SCHEMA))
}

fn por_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| compile(POR_ANALYSIS_SCHEMA))
}

/// Panics unless `report` is a valid `orbit check --json` report.
pub fn check_report(report: &Value) {
    let found = errors(check_validator(), report);
    assert!(
        found.is_empty(),
        "the report does not match check-report.schema.json:\n  {}\nreport: {report:#}",
        found.join("\n  ")
    );
}

/// Panics unless `analysis` is a valid `orbit por --json` output.
pub fn por_analysis(analysis: &Value) {
    let found = errors(por_validator(), analysis);
    assert!(
        found.is_empty(),
        "the analysis does not match por-analysis.schema.json:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn orbit_schema_prints_the_committed_schemas() {
    for (which, text) in [("check", CHECK_REPORT_SCHEMA), ("por", POR_ANALYSIS_SCHEMA)] {
        let out = run_orbit(
            &["schema".to_string(), which.to_string()],
            crate::cli_support::DEFAULT_TIMEOUT,
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        assert_eq!(out.stdout, text);
        compile(&out.stdout);
    }
}

/// A model, its set sizes, extra flags and the expected `result`.
type Case = (
    &'static str,
    &'static [(&'static str, u32)],
    &'static [&'static str],
    &'static str,
);

#[test]
fn reports_of_every_kind_validate() {
    // CheckRun validates each report; these cover every result and option.
    let cases: &[Case] = &[
        ("scheduler0.mch", &[("PROC", 3)], &[], "ok"),
        ("scheduler0.mch", &[("PROC", 3)], &["--compact"], "ok"),
        (
            "scheduler0.mch",
            &[("PROC", 3)],
            &["--symmetry", "flood"],
            "ok",
        ),
        (
            "scheduler0.mch",
            &[("PROC", 3)],
            &["--symmetry", "markers"],
            "ok",
        ),
        ("Counters.mch", &[], &["--por"], "ok"),
        ("Philosophers.mch", &[], &[], "deadlock"),
        (
            "SymCounterEx.mch",
            &[],
            &["--symmetry", "canon"],
            "invariant_violation",
        ),
        (
            "scheduler0.mch",
            &[("PROC", 4)],
            &["--max-states", "10"],
            "stopped",
        ),
    ];
    for (model, sets, flags, result) in cases {
        let run = CheckRun::run(model, sets, flags);
        assert_eq!(run.result(), *result, "{}", run.command);
    }
}

#[test]
fn a_stopped_run_names_its_reason_and_exits_3() {
    let run = CheckRun::run("scheduler0.mch", &[("PROC", 4)], &["--max-states", "10"]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert_eq!(run.json["stopped"], "max-states");
}

#[test]
fn a_model_error_before_the_search_validates() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Bad.mch");
    std::fs::write(
        &path,
        "MACHINE Bad\nCONSTANTS c\nPROPERTIES c = 1 / 0\nEND\n",
    )
    .unwrap();
    let run = CheckRun::run_path(
        &path.to_string_lossy(),
        &[],
        &[],
        crate::cli_support::DEFAULT_TIMEOUT,
    );
    assert_eq!(run.result(), "model_error");
    assert_eq!(run.code, Some(1));
}

#[test]
fn the_schema_rejects_drift() {
    let run = CheckRun::run("scheduler0.mch", &[("PROC", 2)], &[]);
    let good = run.json.clone();
    check_report(&good);
    let mut unknown_field = good.clone();
    unknown_field["statez"] = json!(1);
    let mut missing_field = good.clone();
    missing_field.as_object_mut().unwrap().remove("states");
    let mut bad_result = good.clone();
    bad_result["result"] = json!("fine");
    let mut stopped_without_reason = good.clone();
    stopped_without_reason["result"] = json!("stopped");
    let mut reason_without_stop = good.clone();
    reason_without_stop["stopped"] = json!("max-states");
    let mut old_version = good;
    old_version["schema_version"] = json!(0);
    for bad in [
        unknown_field,
        missing_field,
        bad_result,
        stopped_without_reason,
        reason_without_stop,
        old_version,
    ] {
        assert!(
            !errors(check_validator(), &bad).is_empty(),
            "accepted: {bad:#}"
        );
    }
}

#[test]
fn the_por_analysis_validates() {
    for model in ["Counters.mch", "Peterson.mch", "Sieve.mch"] {
        let out = run_orbit(
            &[
                "por".to_string(),
                model_path(model).to_string_lossy().into_owned(),
                "--json".to_string(),
            ],
            crate::cli_support::DEFAULT_TIMEOUT,
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
        por_analysis(&v);
        assert_eq!(v["schema_version"], 1);
    }
}
