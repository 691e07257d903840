//! End-to-end checking speed on the thesis machines (one thread): load
//! once, then time complete explorations, without symmetry and with it.
//!
//! Run with `cargo bench --bench check`. The targets (one core):
//! scheduler1 with 6 processes under 0.3 s, USB_4Endpoints with 3
//! transfers under 1 s, scheduler0 with 9 processes at 500,000 states/s or
//! more; `scripts/check-speed.sh` prints the states per second of each.
//! With symmetry (issue 5): scheduler1 with 20 processes (2,171 ProB nodes)
//! under 0.5 s and TokenRing with 7 servers (3,160) under 1 s with
//! `canon`, and `canon` at least as fast as `markers`;
//! `scripts/sym-speed.sh` prints every mode against ProB's times.

use criterion::{Criterion, criterion_group, criterion_main};
use orbit::checker::{Checker, Layered};
use orbit::frontends::b::load::{LoadOptions, load_machine};
use orbit::frontends::b::symmetry::BSymmetry;
use orbit::frontends::b::system::BSystem;
use orbit::model::NoSymmetry;
use orbit::symmetry::SymmetryMode;
use std::path::PathBuf;
use std::time::Duration;
use workers::{Config, Outcome, explore};

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

fn bench_model(c: &mut Criterion, id: &str, file: &str, set: &str, size: u32, states: u64) {
    let options = LoadOptions {
        set_sizes: vec![(set.to_string(), size)],
        ..LoadOptions::default()
    };
    let system = load_machine(&model(file), &options).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    let config = Config {
        check_deadlock: false,
        ..Config::default()
    };
    c.bench_function(id, |b| {
        b.iter(|| {
            let report = explore(&Layered::<_, NoSymmetry>::new(&system, None, None), &config);
            assert!(matches!(report.outcome, Outcome::Complete));
            assert_eq!(report.stats.states, states);
        })
    });
}

/// A symmetry reduction mode of the benchmark.
#[derive(Clone, Copy)]
enum Mode {
    Canon,
    Markers,
}

fn bench_symmetry(c: &mut Criterion, file: &str, set: &str, size: u32, mode: Mode, states: u64) {
    let options = LoadOptions {
        set_sizes: vec![(set.to_string(), size)],
        ..LoadOptions::default()
    };
    let system: BSystem =
        load_machine(&model(file), &options).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    let config = Config {
        check_deadlock: false,
        threads: 1,
        ..Config::default()
    };
    let (name, layer_mode) = match mode {
        Mode::Canon => ("canon", SymmetryMode::Canon),
        Mode::Markers => ("markers", SymmetryMode::Markers),
    };
    fn build(s: &BSystem, layer_mode: SymmetryMode) -> Layered<'_, BSystem, BSymmetry<'_>> {
        Checker::new(s)
            .symmetry(BSymmetry::for_mode(s, layer_mode), layer_mode)
            .build()
            .expect("a valid combination")
            .0
    }
    let id = format!("{}/{set}={size}/{name}", file.trim_end_matches(".mch"));
    c.bench_function(&id, |b| {
        b.iter(|| {
            // Markers keep a table of the first state per marker: a fresh
            // reducer per run, as `orbit check` has.
            let reduced = build(&system, layer_mode);
            let report = explore(&reduced, &config);
            assert!(matches!(report.outcome, Outcome::Complete));
            assert_eq!(report.stats.states, states);
        })
    });
}

fn symmetry(c: &mut Criterion) {
    bench_symmetry(c, "scheduler1.mch", "PROC", 20, Mode::Canon, 2170);
    bench_symmetry(c, "scheduler1.mch", "PROC", 20, Mode::Markers, 2170);
    bench_symmetry(c, "TokenRing.mch", "Servers", 7, Mode::Canon, 3144);
    bench_symmetry(c, "TokenRing.mch", "Servers", 7, Mode::Markers, 1944);
    bench_symmetry(c, "USB_4Endpoints.mch", "TRANSFERS", 3, Mode::Canon, 3011);
    bench_symmetry(c, "USB_4Endpoints.mch", "TRANSFERS", 3, Mode::Markers, 3011);
}

fn thesis_machines(c: &mut Criterion) {
    bench_model(c, "scheduler0/PROC=6", "scheduler0.mch", "PROC", 6, 2187);
    bench_model(c, "scheduler1/PROC=6", "scheduler1.mch", "PROC", 6, 37008);
    bench_model(
        c,
        "USB_4Endpoints/TRANSFERS=2",
        "USB_4Endpoints.mch",
        "TRANSFERS",
        2,
        692,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(5));
    targets = thesis_machines, symmetry
}
criterion_main!(benches);
