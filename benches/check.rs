//! End-to-end checking speed on the thesis machines (no symmetry, one
//! thread): load once, then time complete explorations.
//!
//! Run with `cargo bench --bench check`. The targets (one core):
//! scheduler1 with 6 processes under 0.3 s, USB_4Endpoints with 3
//! transfers under 1 s, scheduler0 with 9 processes at 500,000 states/s or
//! more; `scripts/check-speed.sh` prints the states per second of each.

use criterion::{Criterion, criterion_group, criterion_main};
use orbit::b::load::{LoadOptions, load_machine};
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
            let report = explore(&system, &config);
            assert!(matches!(report.outcome, Outcome::Complete));
            assert_eq!(report.stats.states, states);
        })
    });
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
        693,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(5));
    targets = thesis_machines
}
criterion_main!(benches);
