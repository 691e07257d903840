//! Shared by the symmetry test crates: loading models (also variants with
//! an extra invariant conjunct, written to a temporary file), the reduced
//! systems of every mode, brute-force reachability and the check that a
//! trace is a real run of the unreduced machine.

#![allow(dead_code)] // each test crate uses a different part of this module

use orbit::checker::{Layered, ModelRuns};
use orbit::frontends::b::load::{LoadOptions, load_machine};
use orbit::frontends::b::symmetry::{BSymmetry, plan_setups};
use orbit::frontends::b::system::BSystem;
use orbit::model::NoSymmetry;
use orbit::symmetry::{RealRuns, SymmetryLayer, SymmetryMode};
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use workers::{Trace, TransitionSystem};

/// A machine reduced by symmetry, as the engine explores it.
pub type Reduced<'a> = Layered<'a, BSystem, BSymmetry<'a>>;

/// `--set` sizes of a case.
pub type Sets = &'static [(&'static str, u32)];

/// The reduction modes, as `--symmetry` names them.
pub const MODES: [&str; 4] = ["canon", "flood", "markers", "markers-exact"];

/// Path of a file in `models/`.
pub fn model_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(file)
}

/// Loads `path` with the given set sizes.
pub fn load_path(path: &Path, sets: &[(&str, u32)]) -> BSystem {
    let options = LoadOptions {
        set_sizes: sets.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
        ..LoadOptions::default()
    };
    load_machine(path, &options).unwrap_or_else(|e| panic!("cannot load {}: {e:?}", path.display()))
}

/// Loads a model of `models/`.
pub fn load(model: &str, sets: &[(&str, u32)]) -> BSystem {
    load_path(&model_path(model), sets)
}

/// Writes a copy of `models/<model>` whose INVARIANT starts with the
/// conjunct `extra & ...` into `dir`, and returns its path (the machine is
/// renamed after the new file).
pub fn variant(dir: &Path, model: &str, extra: &str) -> PathBuf {
    let text = std::fs::read_to_string(model_path(model)).expect("read the model");
    let name = model.trim_end_matches(".mch");
    let new_name = format!("{name}_bad");
    // The clauses start lines (the header comment may name them too).
    let clause = |keyword: &str| {
        text.find(&format!("\n{keyword}"))
            .map(|i| i + 1)
            .unwrap_or_else(|| panic!("{model} has no {keyword} clause"))
    };
    let (machine, invariant) = (clause("MACHINE"), clause("INVARIANT"));
    let mut out = text[..machine].to_string();
    out.push_str(&format!("MACHINE {new_name}"));
    out.push_str(&text[machine + "MACHINE ".len() + name.len()..invariant]);
    out.push_str(&format!("INVARIANT\n  {extra} &\n"));
    out.push_str(&text[invariant + "INVARIANT".len()..]);
    let path = dir.join(format!("{new_name}.mch"));
    std::fs::write(&path, out).expect("write the variant");
    path
}

/// The layer mode `--symmetry <mode>` names.
pub fn mode_of(mode: &str) -> SymmetryMode {
    match mode {
        "canon" => SymmetryMode::Canon,
        "flood" => SymmetryMode::Flood,
        "markers" => SymmetryMode::Markers,
        "markers-exact" => SymmetryMode::MarkersExact,
        other => panic!("unknown mode {other}"),
    }
}

/// The reduced view of `system` in `mode`, setting up the constant
/// valuations `orbit check` sets up.
pub fn reduced_view<'a>(system: &'a BSystem, mode: &str) -> Reduced<'a> {
    let mode = mode_of(mode);
    let domains = system.interchangeable.clone();
    let plan = plan_setups(system, &domains, mode == SymmetryMode::MarkersExact);
    let sym = BSymmetry::for_mode(system, mode).with_setups(plan.keep);
    Layered::new(
        system,
        Some(SymmetryLayer::new(sym, mode).expect("B has markers")),
        None,
    )
}

/// The machine without reduction, as the engine explores it.
pub fn unreduced(system: &BSystem) -> Layered<'_, BSystem, NoSymmetry> {
    Layered::new(system, None, None)
}

/// Maps a trace of representatives of `reduced` back to a real run.
pub fn real_trace(reduced: &Reduced<'_>, trace: &Trace) -> Result<Trace, String> {
    reduced
        .symmetry()
        .expect("a symmetry layer")
        .real_trace(&reduced.real_runs(), trace)
}

/// Every reachable state of `system`, by breadth-first search.
pub fn reachable<T: TransitionSystem>(system: &T) -> HashSet<Vec<u64>> {
    let mut scratch = system.new_scratch();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    system
        .initial_states(&mut scratch, &mut |s| {
            if seen.insert(s.to_vec()) {
                queue.push_back(s.to_vec());
            }
        })
        .expect("initial states");
    while let Some(state) = queue.pop_front() {
        system
            .successors(&mut scratch, &state, &mut |s| {
                if seen.insert(s.to_vec()) {
                    queue.push_back(s.to_vec());
                }
            })
            .expect("successors");
    }
    seen
}

/// Why `trace` is not a run of `system` (its first state an initial state
/// with its label, each further step a successor by the named operation
/// with those parameters), or `None` if it is one.
pub fn not_a_real_run(system: &BSystem, trace: &Trace) -> Option<String> {
    let first = trace.steps.first()?;
    let runs = ModelRuns(system);
    let initial = runs.initial().expect("initial states");
    if !initial
        .iter()
        .any(|l| l.label == first.label && l.state == first.state)
    {
        return Some(format!("step 0 ({}) is not an initial state", first.label));
    }
    for (i, w) in trace.steps.windows(2).enumerate() {
        let successors = runs.successors(&w[0].state).expect("successors");
        if !successors
            .iter()
            .any(|l| l.label == w[1].label && l.state == w[1].state)
        {
            return Some(format!(
                "step {} ({}) is not a successor of step {i}",
                i + 1,
                w[1].label
            ));
        }
    }
    None
}
