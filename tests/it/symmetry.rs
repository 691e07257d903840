//! Symmetry reduction against the thesis's tables (models/EXPECTED.md,
//! Tables 4.1 and 4.2) and against brute force.
//!
//! * CLI cases: `orbit check --symmetry canon` reproduces the published
//!   nausym counts, ProB-style: 1 root + orbits of the constant valuations +
//!   orbits of the states; every thread count gives the same verdict and
//!   counts.
//! * Library cases: canon's state count equals the number of orbits of the
//!   unreduced state space computed by brute force (the minimum image under
//!   all permutations) and every representative lies in its state's orbit
//!   (traces: tests/symmetry_traces.rs; every model and mode:
//!   tests/symmetry_differential.rs).
//! * ProB's symmetry rules for constants set up the wiki's 10 and 1 setups
//!   and meet every orbit of the constant valuations.

use crate::cli_support;
use crate::sym_support;

use cli_support::CheckRun;
use orbit::frontends::b::load::{LoadOptions, load_machine};
use orbit::frontends::b::symmetry::{PermuteB, plan_setups};
use orbit::frontends::b::system::BSystem;
use orbit::frontends::b::value::Value;
use orbit::model::Model;
use orbit::symmetry::all_permutations;
use std::collections::HashSet;
use sym_support::{load, reachable, reduced_view, unreduced};
use workers::TransitionSystem;

/// `--set` arguments of a case.
type Sets = &'static [(&'static str, u32)];
/// A model run: file, sets, extra flags.
type Run = (&'static str, Sets, &'static [&'static str]);

/// (model, sets, published ProB-style count with symmetry: the nausym column).
const NAUSYM: &[(&str, Sets, u64)] = &[
    ("scheduler0.mch", &[("PROC", 2)], 10),
    ("scheduler0.mch", &[("PROC", 3)], 17),
    ("scheduler0.mch", &[("PROC", 4)], 26),
    ("scheduler0.mch", &[("PROC", 5)], 37),
    ("scheduler0.mch", &[("PROC", 6)], 50),
    ("scheduler0.mch", &[("PROC", 7)], 65),
    ("scheduler1.mch", &[("PROC", 2)], 14),
    ("scheduler1.mch", &[("PROC", 3)], 29),
    ("scheduler1.mch", &[("PROC", 4)], 51),
    ("scheduler1.mch", &[("PROC", 5)], 81),
    ("scheduler1.mch", &[("PROC", 6)], 120),
    ("scheduler1.mch", &[("PROC", 7)], 169),
    ("scheduler1.mch", &[("PROC", 10)], 386),
    ("RussianPostalPuzzle.mch", &[("KeyIDs", 1)], 15),
    ("RussianPostalPuzzle.mch", &[("KeyIDs", 2)], 48),
    ("RussianPostalPuzzle.mch", &[("KeyIDs", 3)], 119),
    ("RussianPostalPuzzle.mch", &[("KeyIDs", 4)], 248),
    ("USB_4Endpoints.mch", &[("TRANSFERS", 1)], 29),
    ("USB_4Endpoints.mch", &[("TRANSFERS", 2)], 355),
    ("TokenRing.mch", &[("Servers", 2)], 19),
    ("TokenRing.mch", &[("Servers", 3)], 60),
    ("TokenRing.mch", &[("Servers", 4)], 174),
    ("TokenRing.mch", &[("Servers", 5)], 480),
    ("Dining.mch", &[("Phil", 2), ("Forks", 2)], 8),
    ("Dining.mch", &[("Phil", 3), ("Forks", 3)], 13),
    ("Dining.mch", &[("Phil", 4), ("Forks", 4)], 48),
    ("Towns.mch", &[("TOWN", 2)], 11),
    ("Towns.mch", &[("TOWN", 3)], 105),
];

fn prob_count(run: &CheckRun) -> u64 {
    1 + run.count("constant_valuations") + run.count("states")
}

#[test]
fn canon_reproduces_the_nausym_counts() {
    for &(model, sets, expected) in NAUSYM {
        let run = CheckRun::run(model, sets, &["--symmetry", "canon"]);
        if run.result() != "ok" {
            run.fail("expected no error");
        }
        if prob_count(&run) != expected {
            run.fail(&format!(
                "expected the published count {expected}, got 1 + {} + {}",
                run.count("constant_valuations"),
                run.count("states")
            ));
        }
        assert_eq!(run.json["symmetry"]["mode"], "canon", "{}", run.command);
    }
}

#[test]
fn flood_reproduces_the_flood_counts_and_floods_the_plain_state_space() {
    for &(model, sets, expected) in NAUSYM {
        // Flooding costs a permutation per state of the plain state space:
        // keep to the small cardinalities.
        if sets.iter().any(|&(_, n)| n > 5) || expected > 1000 {
            continue;
        }
        let plain_states = CheckRun::run(model, sets, &[]).count("states");
        let run = CheckRun::run(model, sets, &["--symmetry", "flood"]);
        if run.result() != "ok" || prob_count(&run) != expected {
            run.fail(&format!("expected ok with the published count {expected}"));
        }
        let flooded = run.json["symmetry"]["flooded_states"].as_u64();
        assert_eq!(flooded, Some(plain_states), "{}", run.command);
    }
}

/// Whether the thesis's hash (symmetry markers) column equals nausym for
/// this row: all of Table 4.1; in Table 4.2 only where the numbers agree.
fn hash_column_is_exact(model: &str, prob: u64) -> bool {
    !matches!(
        (model, prob),
        ("TokenRing.mch", 174 | 480) | ("Dining.mch", 8 | 13 | 48) | ("Towns.mch", 3045)
    )
}

#[test]
fn markers_never_exceed_canon_and_match_the_exact_hash_rows() {
    for &(model, sets, expected) in NAUSYM {
        let run = CheckRun::run(model, sets, &["--symmetry", "markers"]);
        if run.result() != "ok" {
            run.fail("expected no error");
        }
        let got = prob_count(&run);
        if got > expected || (hash_column_is_exact(model, expected) && got != expected) {
            run.fail(&format!(
                "markers gave {got}, the exact count is {expected}"
            ));
        }
        let warning = run.json["symmetry"]["warning"].as_str().unwrap_or("");
        assert!(warning.contains("missed states"), "{}", run.command);
    }
}

#[test]
fn thread_counts_agree_under_symmetry() {
    let cases: &[Run] = &[
        ("TokenRing.mch", &[("Servers", 4)], &[]),
        ("scheduler1.mch", &[("PROC", 5)], &[]),
        ("SymCounterEx.mch", &[], &[]),
        ("RussianPostalPuzzle.mch", &[("KeyIDs", 2)], &["--goal"]),
    ];
    for &(model, sets, extra) in cases {
        // Verdicts agree in every mode; canon's counts agree too (markers'
        // depend on which state of a marker is seen first).
        let mut verdict: Option<String> = None;
        let mut canon_states = None;
        for (mode, threads) in [
            ("canon", "1"),
            ("canon", "2"),
            ("canon", "3"),
            ("markers", "1"),
            ("markers", "2"),
            ("flood", "1"),
            ("flood", "2"),
            ("markers-exact", "2"),
        ] {
            let mut flags = vec!["--symmetry", mode, "--threads", threads];
            flags.extend_from_slice(extra);
            let run = CheckRun::run(model, sets, &flags);
            let result = run.result().to_string();
            match &verdict {
                None => verdict = Some(result),
                Some(first) => assert_eq!(first, &result, "{}", run.command),
            }
            if matches!(mode, "canon" | "flood") && run.result() == "ok" {
                let states = run.count("states");
                assert_eq!(
                    *canon_states.get_or_insert(states),
                    states,
                    "{}",
                    run.command
                );
            }
        }
    }
}

#[test]
fn symmetry_finds_the_same_verdicts_as_plain_search() {
    let cases: &[Run] = &[
        ("SymCounterEx.mch", &[], &[]),
        ("RussianPostalPuzzle.mch", &[("KeyIDs", 1)], &["--goal"]),
        ("RussianPostalPuzzle.mch", &[("KeyIDs", 2)], &["--goal"]),
        ("TicTacToe_SimplerSym.mch", &[], &["--goal"]),
        ("Personnel.mch", &[("NAME", 3)], &[]),
        ("Course.mch", &[], &[]),
        ("prob_wiki_partition.mch", &[], &["--no-deadlock"]),
    ];
    for &(model, sets, extra) in cases {
        let plain = CheckRun::run(model, sets, extra);
        for mode in ["canon", "flood", "markers", "markers-exact"] {
            let mut flags = vec!["--symmetry", mode];
            flags.extend_from_slice(extra);
            let reduced = CheckRun::run(model, sets, &flags);
            assert_eq!(plain.result(), reduced.result(), "{}", reduced.command);
            assert!(
                reduced.count("states") <= plain.count("states"),
                "{}",
                reduced.command
            );
        }
    }
}

#[test]
fn symcounterex_keeps_s1_fixed() {
    // `add` names s1: only s2 and s3 are interchangeable, so the three
    // initial states {s1}, {s2}, {s3} form two orbits, and the violation
    // (add from {s2} or {s3}) is still found.
    let run = CheckRun::run("SymCounterEx.mch", &[], &["--symmetry", "canon"]);
    assert_eq!(run.result(), "invariant_violation");
    assert_eq!(run.count("initial_states"), 2);
    assert_eq!(run.json["symmetry"]["group_order"], 2);
    let trace = run.trace();
    assert_eq!(trace.len(), 2, "{}", run.command);
    assert_eq!(trace[1]["label"], "add");
}

#[test]
fn canon_counts_are_brute_force_orbit_counts() {
    let cases: &[(&str, Sets)] = &[
        ("scheduler0.mch", &[("PROC", 4)]),
        ("scheduler1.mch", &[("PROC", 4)]),
        ("RussianPostalPuzzle.mch", &[("KeyIDs", 3)]),
        ("TokenRing.mch", &[("Servers", 4)]),
        ("Dining.mch", &[("Phil", 3), ("Forks", 3)]),
        ("Towns.mch", &[("TOWN", 3)]),
        ("USB_4Endpoints.mch", &[("TRANSFERS", 2)]),
        ("Personnel.mch", &[("NAME", 3)]),
        ("SymCounterEx.mch", &[]),
        ("Club.mch", &[("Person", 3)]),
    ];
    for &(model, sets) in cases {
        let system = load(model, sets);
        let sym = &system.interchangeable;
        let perms = all_permutations(&sym.set_sizes, &sym.movable);
        let layout = system.layout();
        let plain = reachable(&unreduced(&system));
        let mut image = Vec::new();
        let orbit_min = |s: &[u64], image: &mut Vec<u64>| {
            perms
                .iter()
                .map(|p| {
                    p.apply_packed(layout, s, image).expect("renaming");
                    image.clone()
                })
                .min()
                .expect("the identity is a permutation")
        };
        let orbits: HashSet<Vec<u64>> = plain.iter().map(|s| orbit_min(s, &mut image)).collect();
        let reduced = reduced_view(&system, "canon");
        let reps = reachable(&reduced);
        assert_eq!(reps.len(), orbits.len(), "{model} {sets:?}: orbit count");
        // Each state's representative is in its orbit, and symmetric
        // states share their representative.
        let rep_orbits: HashSet<Vec<u64>> = reps.iter().map(|s| orbit_min(s, &mut image)).collect();
        assert_eq!(rep_orbits, orbits, "{model} {sets:?}");
        // Exact markers (Algorithm 5.1) cover every orbit with states of
        // that orbit, possibly several per orbit.
        let sorted = reduced_view(&system, "markers-exact");
        let sorted_reps = reachable(&sorted);
        assert!(sorted_reps.len() >= orbits.len() && sorted_reps.len() <= plain.len());
        let sorted_orbits: HashSet<Vec<u64>> = sorted_reps
            .iter()
            .map(|s| orbit_min(s, &mut image))
            .collect();
        assert_eq!(sorted_orbits, orbits, "{model} {sets:?}: markers-exact");
        for s in plain.iter().take(200) {
            let r = reduced.symmetry().expect("layer").representative(s);
            assert_eq!(orbit_min(&r, &mut image), orbit_min(s, &mut image));
            for p in &perms {
                p.apply_packed(layout, s, &mut image).expect("renaming");
                assert_eq!(
                    reduced.symmetry().expect("layer").representative(&image),
                    r,
                    "{model}: {s:?} {p:?}"
                );
            }
        }
    }
}

#[test]
fn exported_state_graphs_are_isomorphic_exactly_for_symmetric_states() {
    // scheduler0 with 3 processes: state 0 is the initial state, states 1-3
    // are `new` of each process (symmetric to each other).
    let model = cli_support::model_path("scheduler0.mch");
    let args: Vec<String> = [
        "graph",
        &model.to_string_lossy(),
        "--set",
        "PROC=3",
        "--state",
        "3",
        "--all",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = cli_support::run_orbit(&args, cli_support::DEFAULT_TIMEOUT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 4);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("states.dre");
    std::fs::write(&file, &out.stdout).expect("write graphs");
    let canon = cli_support::run_orbit(
        &["canon".to_string(), file.to_string_lossy().to_string()],
        cli_support::DEFAULT_TIMEOUT,
    );
    assert_eq!(canon.code, Some(0), "{}", canon.stderr);
    let hashes: Vec<&str> = canon
        .stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(hashes.len(), 4, "{}", canon.stdout);
    assert_ne!(hashes[0], hashes[1]);
    assert_eq!(hashes[1], hashes[2]);
    assert_eq!(hashes[2], hashes[3]);
}

#[test]
fn constant_valuations_count_as_orbits_like_prob_setups() {
    // [ProB wiki: Symmetry Reduction]: `MACHINE m` (a /= b, c, d in D, card(D) = 6)
    // has 10 setups up to symmetry, the partition example one, and ProB's
    // rules for constants set up exactly those; thesis Table 4.3:
    // TicTacToe_SimplerSym has 1450 nodes with nausym.
    let cases: &[(&str, u64, u64)] = &[
        ("prob_wiki_m.mch", 10, 10),
        ("prob_wiki_partition.mch", 1, 1),
        ("TicTacToe_SimplerSym.mch", 1, 1448),
    ];
    for &(model, valuations, states) in cases {
        for mode in ["canon", "flood", "markers-exact"] {
            let run = CheckRun::run(model, &[], &["--no-deadlock", "--symmetry", mode]);
            assert_eq!(run.result(), "ok", "{}", run.command);
            assert_eq!(
                run.count("constant_valuations"),
                valuations,
                "{}",
                run.command
            );
            assert_eq!(
                run.json["symmetry"]["constant_setups"].as_u64(),
                Some(valuations),
                "{}",
                run.command
            );
            if mode != "markers-exact" {
                assert_eq!(run.count("states"), states, "{}", run.command);
            }
        }
        // Without symmetry: by default the same setups (ProB's normal form),
        // with --no-constant-symmetry every solution of PROPERTIES.
        let plain = CheckRun::run(model, &[], &["--no-deadlock"]);
        assert_eq!(
            plain.count("constant_valuations"),
            valuations,
            "{}",
            plain.command
        );
        let every = CheckRun::run(model, &[], &["--no-deadlock", "--no-constant-symmetry"]);
        assert!(
            every.count("constant_valuations") > valuations,
            "{}",
            every.command
        );
    }
}

/// The constant valuations of `system` that its symmetry rules keep.
fn kept_valuations(system: &BSystem) -> Vec<Vec<Value>> {
    system
        .valuations()
        .iter()
        .filter(|v| system.constant_rules.keeps(v))
        .cloned()
        .collect()
}

/// The orbits (as their least member) of constant valuations.
fn valuation_orbits(system: &BSystem, valuations: &[Vec<Value>]) -> HashSet<Vec<Value>> {
    let sym = &system.interchangeable;
    let perms = all_permutations(&sym.set_sizes, &sym.movable);
    valuations
        .iter()
        .map(|v| {
            perms
                .iter()
                .map(|p| v.iter().map(|x| p.apply_value(x)).collect::<Vec<_>>())
                .min()
                .expect("the identity is a permutation")
        })
        .collect()
}

#[test]
fn prob_rules_for_constants_keep_the_wiki_setups() {
    // The wiki's table of the 10 setups of `MACHINE m`, as (c, d) with
    // a = D1, b = D2.
    let system = load("prob_wiki_m.mch", &[]);
    let name = |v: &Value| match system.interpreter().format_value(v).as_str() {
        "D1" => "a".to_string(),
        "D2" => "b".to_string(),
        other => other.to_string(),
    };
    let kept: HashSet<Vec<String>> = kept_valuations(&system)
        .iter()
        .map(|v| v.iter().map(name).collect())
        .collect();
    let wiki = "a b a a a b a b a b D3 D4 a b a D3 a b b a a b b b a b b D3 \
                a b D3 a a b D3 b a b D3 D3";
    let words: Vec<&str> = wiki.split_whitespace().collect();
    let expected: HashSet<Vec<String>> = words
        .chunks(4)
        .map(|row| row.iter().map(|w| w.to_string()).collect())
        .collect();
    assert_eq!(expected.len(), 10);
    assert_eq!(kept, expected);
    // The partition example: A = {D1,D2,D3}, B = {D4,D5,D6} only.
    let system = load("prob_wiki_partition.mch", &[]);
    let kept = kept_valuations(&system);
    assert_eq!(kept.len(), 1);
    let shown: Vec<String> = kept[0]
        .iter()
        .map(|v| system.interpreter().format_value(v))
        .collect();
    assert_eq!(shown, ["{D1,D2,D3}", "{D4,D5,D6}"]);
}

#[test]
fn prob_rules_for_constants_meet_every_orbit() {
    // Soundness: the kept valuations meet every orbit of the valuations,
    // also with overlapping blocks, scalars beside a partition and
    // constants the rules do not constrain.
    let dir = tempfile::tempdir().expect("temp dir");
    let mixed = dir.path().join("Mixed.mch");
    std::fs::write(
        &mixed,
        "MACHINE Mixed SETS D CONSTANTS x, y, A, B, C, f
         PROPERTIES x : D & y : D & A <: D & B <: D & C <: D & f : D --> BOOL &
           D = A \\/ B \\/ C & A /\\ B = {} & y /= x & card(D) = 4 &
           card(A) <= 2 & card(C) <= 1
         END",
    )
    .expect("write the machine");
    let mixed = load_machine(&mixed, &LoadOptions::default()).expect("load Mixed");
    let models = [
        load("prob_wiki_m.mch", &[]),
        load("prob_wiki_partition.mch", &[]),
        load("TicTacToe_SimplerSym.mch", &[]),
        load("TokenRing.mch", &[("Servers", 3)]),
        mixed,
    ];
    for system in &models {
        let kept = kept_valuations(system);
        assert_eq!(
            valuation_orbits(system, &kept),
            valuation_orbits(system, system.valuations()),
            "{:?}",
            system.layout().slots().first().map(|s| &s.name)
        );
    }
    // The rules do cut the mixed machine's valuations down.
    assert!(kept_valuations(&models[4]).len() < models[4].valuations().len());
}

/// The reduced system sets up one constant valuation per orbit: its initial
/// representatives are exactly the representatives of the initial states of
/// every valuation, and it initialises as few valuations as there are
/// orbits (TokenRing's bijections: 24 valuations, orbits of the ring).
#[test]
fn one_valuation_per_orbit_gives_every_initial_representative() {
    let system = load("TokenRing.mch", &[("Servers", 4)]);
    let reduced = reduced_view(&system, "canon");
    let mut scratch = reduced.new_scratch();
    let mut from_chosen = HashSet::new();
    let mut chosen = 0usize;
    reduced
        .initial_states(&mut scratch, &mut |s| {
            chosen += 1;
            from_chosen.insert(s.to_vec());
        })
        .expect("initial states");
    let mut from_all = HashSet::new();
    let mut inner = system.new_scratch();
    let mut every = 0usize;
    system
        .initial_states(&mut inner, &mut |_, s| {
            every += 1;
            from_all.insert(
                reduced
                    .symmetry()
                    .expect("layer")
                    .representative(s)
                    .to_vec(),
            );
        })
        .expect("initial states");
    assert_eq!(from_chosen, from_all);
    let orbits = plan_setups(&system, &system.interchangeable, false)
        .valuation_orbits
        .expect("computed for canon");
    assert!(orbits < system.valuations().len(), "{orbits} orbits");
    assert!(chosen < every, "{chosen} initial states set up of {every}");
}

/// Regression: a constant in a deferred set and a partial function
/// initialised empty made every symmetry mode panic while the constant
/// valuations were canonicalised (the renaming read the variables' words,
/// which held no values yet). 32 states and 2 valuations unreduced; one
/// orbit of valuations and 16 orbits of states (the symmetry differential
/// tests confirm them by brute force).
#[test]
fn constants_with_interned_variables_canonicalise_without_panicking() {
    let plain = CheckRun::run("HotelBooking.mch", &[], &["--no-constant-symmetry"]);
    assert_eq!((plain.result(), plain.count("states")), ("ok", 32));
    for mode in ["canon", "flood", "markers", "markers-exact"] {
        let r = CheckRun::run("HotelBooking.mch", &[], &["--symmetry", mode]);
        assert_eq!(r.code, Some(0), "{}: {}", r.command, r.stderr);
        assert_eq!((r.result(), r.count("states")), ("ok", 16), "{}", r.command);
    }
}
