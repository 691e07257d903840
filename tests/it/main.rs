//! orbit's integration tests, gathered in one test binary so that the test
//! build links once instead of once per file (on 2 cores that is minutes).
//!
//! Each module is one subject; run one with `cargo test --test it models::`
//! or a single case with `cargo test --test it models::scheduler0_card3`.
//! Tests that need an external program (`dreadnaut`, `bliss`) are named
//! `external_*` and are `#[ignore]`d with the reason: `.ci/run`, which
//! installs the programs, runs them with `-- --ignored external_`.

// Shared helpers.
mod canon_common;
mod cli_support;
mod common;
mod json_schema;
#[path = "support/nauty_harness.rs"]
mod nauty_harness;
mod por_gen;
mod procs;
mod sym_support;

// Subjects.
mod bench_cli;
mod canon_alloc;
mod canon_brute;
mod canon_cli;
mod canon_families;
mod canon_nauty;
mod canon_props;
mod check_cli;
mod constant_solver;
mod distributed;
mod eval_exprs;
mod eval_machines;
mod eval_substs;
mod front_ends;
mod graph_export;
mod hostile;
mod hostile_limits;
mod ltl_differential;
mod models;
mod modular;
mod murphi;
mod parser_expressions;
mod parser_fuzz;
mod parser_machines;
mod parser_models;
mod parser_substitutions;
mod por_cli;
mod por_differential;
mod por_models;
mod por_search;
mod prob_ltl;
mod procs_differential;
mod promela;
mod rumur_corpus;
mod run_budget;
mod symbolic;
mod symmetry;
mod symmetry_differential;
mod symmetry_traces;
mod tree_store;
mod typecheck_machines;
