//! Each run has its own budget: two checkers in one process keep separate
//! limits and cancel flags, and one stopping leaves the other running to
//! its end, even while the first is inside one long expansion (where only
//! the budget, not the engine's loop, can stop it).

use orbit::checker::Checker;
use orbit::frontends::b::load::{LoadOptions, load_machine};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use workers::{Outcome, StopReason};

/// One state whose expansion enumerates 2^62 parameters: it ends only
/// when the run's budget stops it.
const HUGE_EXPANSION: &str = "MACHINE Huge\nVARIABLES x\nINVARIANT x : NAT\n\
    INITIALISATION x := 0\nOPERATIONS set(p) = PRE p : NAT THEN x := p END\nEND\n";

/// 20,001 states, a few seconds at the test build's speed; the other run
/// stops long before it ends.
const COUNTER: &str = "MACHINE Count\nVARIABLES n\nINVARIANT n : 0..20000\n\
    INITIALISATION n := 0\nOPERATIONS up = PRE n < 20000 THEN n := n + 1 END\nEND\n";

fn load(
    dir: &tempfile::TempDir,
    name: &str,
    text: &str,
    maxint: i64,
) -> orbit::frontends::b::system::BSystem {
    let path = dir.path().join(format!("{name}.mch"));
    std::fs::write(&path, text).expect("write the machine");
    let options = LoadOptions {
        maxint: Some(maxint),
        ..LoadOptions::default()
    };
    load_machine(&path, &options).expect("loads")
}

#[test]
fn two_checkers_in_one_process_stop_each_on_its_own_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let huge = load(&dir, "Huge", HUGE_EXPANSION, 1 << 62);
    let counter = load(&dir, "Count", COUNTER, 3);
    let started = Instant::now();
    let (limited, unlimited) = std::thread::scope(|s| {
        let limited = s.spawn(|| {
            Checker::new(&huge)
                .check_deadlock(false)
                .time_limit(Some(Duration::from_millis(300)))
                .run()
                .expect("valid")
                .report
        });
        let unlimited = s.spawn(|| {
            Checker::new(&counter)
                .check_deadlock(false)
                .time_limit(Some(Duration::from_secs(600)))
                .run()
                .expect("valid")
                .report
        });
        (limited.join().unwrap(), unlimited.join().unwrap())
    });
    assert_eq!(limited.outcome, Outcome::Stopped(StopReason::TimeLimit));
    assert!(
        matches!(unlimited.outcome, Outcome::Complete),
        "{:?}",
        unlimited.outcome
    );
    assert_eq!(unlimited.stats.states, 20_001);
    assert!(started.elapsed() < Duration::from_secs(300));
}

#[test]
fn cancelling_one_checker_leaves_the_other_running_on_every_thread_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    let huge = load(&dir, "Huge", HUGE_EXPANSION, 1 << 62);
    let counter = load(&dir, "Count", COUNTER, 3);
    for threads in [1, 2] {
        let cancel = Arc::new(AtomicBool::new(false));
        let never = Arc::new(AtomicBool::new(false));
        let (cancelled, other) = std::thread::scope(|s| {
            let cancelled = s.spawn(|| {
                Checker::new(&huge)
                    .threads(threads)
                    .check_deadlock(false)
                    .cancel(cancel.clone())
                    .run()
                    .expect("valid")
                    .report
            });
            let other = s.spawn(|| {
                Checker::new(&counter)
                    .threads(threads)
                    .check_deadlock(false)
                    .cancel(never.clone())
                    .run()
                    .expect("valid")
                    .report
            });
            std::thread::sleep(Duration::from_millis(200));
            cancel.store(true, Ordering::Relaxed);
            (cancelled.join().unwrap(), other.join().unwrap())
        });
        assert_eq!(
            cancelled.outcome,
            Outcome::Stopped(StopReason::Interrupted),
            "{threads} threads"
        );
        assert!(
            matches!(other.outcome, Outcome::Complete),
            "{:?}",
            other.outcome
        );
        assert_eq!(other.stats.states, 20_001, "{threads} threads");
    }
}
