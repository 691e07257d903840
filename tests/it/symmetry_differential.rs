//! Differential tests of symmetry reduction over every model in `models/`:
//!
//! * every reduction mode (and none, where the unreduced state space is
//!   small) with 1 and 2 threads finds the same verdict, with deadlock
//!   detection and, for models with a GOAL, when searching for the goal;
//!   counterexamples map back to real runs;
//! * where the state space is small enough for brute force (all
//!   permutations applied to every reachable state), canon and flood
//!   explore exactly one state per orbit, flood's visited set holds the
//!   whole unreduced state space, exact markers reach every orbit with
//!   states of that orbit, and approximate markers never more states than
//!   there are orbits.
//!
//! Models added later are picked up automatically; one too big for these
//! limits is skipped with a note rather than slowing the suite down.

use crate::sym_support;

use orbit::frontends::b::symmetry::PermuteB;
use orbit::frontends::b::system::BSystem;
use orbit::model::Model;
use orbit::symmetry::all_permutations;
use std::collections::HashSet;
use std::time::Duration;
use sym_support::{
    MODES, load_path, model_path, not_a_real_run, reachable, real_trace, reduced_view, unreduced,
};
use workers::{Config, Outcome, Report};

/// Set sizes that keep a model small (others use the model's own).
const SIZES: &[(&str, &[(&str, u32)])] = &[
    ("Dining.mch", &[("Phil", 3), ("Forks", 3)]),
    ("German.mch", &[("NODE", 2)]),
    ("scheduler0.mch", &[("PROC", 4)]),
    ("scheduler1.mch", &[("PROC", 4)]),
    ("TokenRing.mch", &[("Servers", 4)]),
    ("RussianPostalPuzzle.mch", &[("KeyIDs", 3)]),
    ("Towns.mch", &[("TOWN", 3)]),
    ("USB_4Endpoints.mch", &[("TRANSFERS", 2)]),
    ("Personnel.mch", &[("NAME", 3)]),
    ("Club.mch", &[("Person", 3)]),
    ("WideCounters.mch", &[("LEVEL", 2)]),
];

/// Smaller sizes where the partial order reduction's static analysis is
/// the cost: with three keys it refines 22 operation instances over up to
/// 16,384 candidate states (seconds), with two 16 over up to 1,024.
const POR_SIZES: &[(&str, &[(&str, u32)])] = &[("RussianPostalPuzzle.mch", &[("KeyIDs", 2)])];

/// An unreduced search stops past this many states and is then left out.
const MAX_STATES: u64 = 20_000;
/// Brute force only when group order times states stays below this.
const BRUTE_FORCE_WORK: u64 = 1_000_000;

fn sizes(file: &str) -> &'static [(&'static str, u32)] {
    SIZES
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, s)| *s)
        .unwrap_or(&[])
}

/// Every `.mch` file of `models/`, sorted.
fn model_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(model_path(""))
        .expect("models/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".mch"))
        .collect();
    files.sort();
    files
}

/// The unreduced search's configuration.
fn config(threads: usize, goal: bool) -> Config {
    Config {
        threads,
        stop_at_goal: goal,
        max_states: Some(MAX_STATES),
        time_limit: Some(Duration::from_secs(20)),
        ..Config::default()
    }
}

/// A reduced search's configuration: flood's visited set holds the
/// unreduced state space, so only the time is limited.
fn reduced_config(threads: usize, goal: bool) -> Config {
    Config {
        max_states: None,
        ..config(threads, goal)
    }
}

/// The verdict of a finished search, `None` if it stopped early.
fn verdict(report: &Report) -> Option<String> {
    match &report.outcome {
        Outcome::Stopped(_) => None,
        Outcome::Violation(v) => Some(format!("violation: {}", v.message)),
        other => Some(format!("{other:?}")),
    }
}

/// Runs every mode and thread count on `system` and returns the common
/// verdict. The unreduced search is left out when it passes the state
/// limit (canon's verdict is then the reference); `None` if a reduced
/// search passes the time limit.
fn same_verdicts(file: &str, system: &BSystem, goal: bool) -> Option<String> {
    let plain = verdict(&workers::explore(&unreduced(system), &config(1, goal)));
    let expected = match &plain {
        Some(v) => v.clone(),
        None => verdict(&workers::explore(
            &reduced_view(system, "canon"),
            &reduced_config(1, goal),
        ))?,
    };
    for threads in [1, 2] {
        let what = format!("{file} goal={goal} threads={threads}");
        if plain.is_some() && threads > 1 {
            let off = verdict(&workers::explore(
                &unreduced(system),
                &config(threads, goal),
            ));
            assert_eq!(off.as_ref(), Some(&expected), "{what} --symmetry off");
        }
        for mode in MODES {
            let reduced = reduced_view(system, mode);
            let report = workers::explore(&reduced, &reduced_config(threads, goal));
            assert_eq!(verdict(&report)?, expected, "{what} --symmetry {mode}");
            if let Some(trace) = &report.trace {
                let real = real_trace(&reduced, trace)
                    .unwrap_or_else(|e| panic!("{what} --symmetry {mode}: {e}"));
                if let Some(why) = not_a_real_run(system, &real) {
                    panic!("{what} --symmetry {mode}: {why}");
                }
            }
        }
    }
    Some(expected)
}

#[test]
fn every_mode_and_thread_count_finds_the_same_verdict_on_every_model() {
    let mut compared = Vec::new();
    for file in model_files() {
        let system = load_path(&model_path(&file), sizes(&file));
        for goal in [false, true] {
            if goal && !system.has_goal() {
                continue;
            }
            match same_verdicts(&file, &system, goal) {
                Some(v) => compared.push(format!("{file} goal={goal}: {v}")),
                None => eprintln!("note: {file} goal={goal} is too big to compare, skipped"),
            }
        }
    }
    // The models of the papers are all small enough to be compared.
    for file in [
        "SymCounterEx.mch",
        "scheduler1.mch",
        "Dining.mch",
        "TicTacToe_Sym.mch",
    ] {
        assert!(
            compared.iter().any(|c| c.starts_with(file)),
            "{file} was not compared: {compared:#?}"
        );
    }
}

#[test]
fn reduced_counts_agree_with_brute_force_orbits() {
    let mut checked = 0;
    for file in model_files() {
        let system = load_path(&model_path(&file), sizes(&file));
        let sym = &system.interchangeable;
        let plain = match workers::explore(
            &unreduced(&system),
            &Config {
                check_deadlock: false,
                ..config(1, false)
            },
        ) {
            r if r.outcome == Outcome::Complete => r.stats.states,
            _ => continue,
        };
        if sym.is_trivial() || sym.group_order().saturating_mul(plain) > BRUTE_FORCE_WORK {
            continue;
        }
        let perms = all_permutations(&sym.set_sizes, &sym.movable);
        let layout = system.layout();
        let mut image = Vec::new();
        let mut orbit_of = |s: &[u64]| {
            perms
                .iter()
                .map(|p| {
                    p.apply_packed(layout, s, &mut image).expect("renaming");
                    image.clone()
                })
                .min()
                .expect("the identity is a permutation")
        };
        let states = reachable(&unreduced(&system));
        assert_eq!(states.len() as u64, plain, "{file}");
        let orbits: HashSet<Vec<u64>> = states.iter().map(|s| orbit_of(s)).collect();
        for threads in [1, 2] {
            let what = format!("{file} threads={threads}");
            let no_deadlock = Config {
                check_deadlock: false,
                ..reduced_config(threads, false)
            };
            let canon = workers::explore(&reduced_view(&system, "canon"), &no_deadlock);
            assert_eq!(canon.stats.states, orbits.len() as u64, "{what}: canon");
            let flood = workers::explore(&reduced_view(&system, "flood"), &no_deadlock);
            assert_eq!(flood.stats.states, orbits.len() as u64, "{what}: flood");
            assert_eq!(flood.stats.states + flood.stats.flooded, plain, "{what}");
            let markers = workers::explore(&reduced_view(&system, "markers"), &no_deadlock);
            assert!(markers.stats.states <= orbits.len() as u64, "{what}");
        }
        let exact = reachable(&reduced_view(&system, "markers-exact"));
        let exact_orbits: HashSet<Vec<u64>> = exact.iter().map(|s| orbit_of(s)).collect();
        assert_eq!(exact_orbits, orbits, "{file}: markers-exact");
        let canon: HashSet<Vec<u64>> = reachable(&reduced_view(&system, "canon"))
            .iter()
            .map(|s| orbit_of(s))
            .collect();
        assert_eq!(canon, orbits, "{file}: canon representatives");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} models were small enough");
}

/// `--por --symmetry MODE` on every bundled model, for every exact mode and
/// thread count: the verdict of the unreduced search (or of canon alone,
/// for models too big to search unreduced), never more states than the
/// mode alone, and counterexamples that map back to real runs.
#[test]
fn por_with_every_exact_mode_finds_the_same_verdict_on_every_model() {
    use orbit::frontends::b::load::{LoadOptions, load_machine_with_ast};
    use orbit::frontends::b::por::independence::{Checked, analyse_for_search};
    use orbit::por::PorLayer;
    let mut compared = 0;
    for file in model_files() {
        let por_sizes = POR_SIZES.iter().find(|(f, _)| *f == file);
        let options = LoadOptions {
            set_sizes: por_sizes
                .map_or_else(|| sizes(&file), |(_, s)| *s)
                .iter()
                .map(|(s, n)| (s.to_string(), *n))
                .collect(),
            ..LoadOptions::default()
        };
        let (system, machine, types) =
            load_machine_with_ast(&model_path(&file), &options).expect("loads");
        for goal in [false, true] {
            if goal && !system.has_goal() {
                continue;
            }
            let checked = Checked {
                invariant: true,
                goal,
            };
            let independence = analyse_for_search(&system, &machine, &types, checked);
            let expected = match verdict(&workers::explore(&unreduced(&system), &config(1, goal))) {
                Some(v) => v,
                None => match verdict(&workers::explore(
                    &reduced_view(&system, "canon"),
                    &reduced_config(1, goal),
                )) {
                    Some(v) => v,
                    None => continue,
                },
            };
            for mode in ["canon", "flood", "markers-exact"] {
                let alone =
                    workers::explore(&reduced_view(&system, mode), &reduced_config(1, goal));
                for threads in [1, 2] {
                    let what = format!("{file} goal={goal} --por --symmetry {mode} -j{threads}");
                    let view = reduced_view(&system, mode);
                    let (_, symmetry, _) = view.into_parts();
                    let both = orbit::checker::Layered::new(
                        &system,
                        symmetry,
                        Some(PorLayer::new(&independence, true)),
                    );
                    let report = workers::explore(&both, &reduced_config(threads, goal));
                    assert_eq!(verdict(&report).as_ref(), Some(&expected), "{what}");
                    let complete = |r: &Report| matches!(r.outcome, Outcome::Complete);
                    if complete(&report) && complete(&alone) {
                        assert!(
                            report.stats.states <= alone.stats.states,
                            "{what}: {} states, {} without --por",
                            report.stats.states,
                            alone.stats.states
                        );
                    }
                    if let Some(trace) = &report.trace {
                        let layer = both.symmetry().expect("a symmetry layer");
                        let real = layer
                            .real_trace(&both.real_runs(), trace)
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                        if let Some(why) = not_a_real_run(&system, &real) {
                            panic!("{what}: {why}");
                        }
                    }
                }
            }
            compared += 1;
        }
    }
    assert!(compared >= 20, "only {compared} models compared");
}
