//! The distributed search on bundled models: ranks as threads of this
//! process, each with its own instance of the model (so values a B state
//! refers to by id must travel with the states), agree with one process
//! on counts, verdicts and trace lengths; and, with `mpirun` and the
//! `orbit-mpi` binary, ranks as processes (`external_mpi_*`).

use crate::cli_support::{Output, model_path, run_command, run_orbit, wait_or_kill};
use orbit::checker::Order;
use orbit::distributed::{ChannelTransport, Distribution};
use orbit::frontends::{CheckJob, LoadRequest, Registry};
use orbit::symmetry::SymmetryMode;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Loads `model` with the constants `sets` and checks it with `job`, on
/// this thread.
fn check_here(model: &Path, sets: &[(&str, u32)], job: CheckJob) -> Value {
    let registry = Registry::builtin();
    let constants: Vec<(String, u32)> = sets.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    let front_end = registry.for_path(model).expect("a front end");
    let loaded = front_end
        .load(&LoadRequest {
            constants: &constants,
            ..LoadRequest::new(model)
        })
        .expect("loads");
    let summary = loaded.check(&job).expect("runs");
    serde_json::from_str(&summary.to_json()).expect("JSON")
}

fn job(model: &Path, symmetry: Option<SymmetryMode>) -> CheckJob {
    CheckJob {
        symmetry,
        model_ltl: false,
        ..CheckJob::new(model)
    }
}

/// The reports of `ranks` ranks (threads) running `base` with their
/// distribution, rank 0 first.
fn check_on_ranks(model: &Path, sets: &[(&str, u32)], base: &CheckJob, ranks: usize) -> Vec<Value> {
    std::thread::scope(|scope| {
        let runs: Vec<_> = ChannelTransport::group(ranks)
            .into_iter()
            .map(|transport| {
                let job = CheckJob {
                    distribution: Some(Distribution::new(Box::new(transport))),
                    ..base.clone()
                };
                scope.spawn(move || check_here(model, sets, job))
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("rank")).collect()
    })
}

/// What must agree between runs: verdict, counts, trace length.
fn essentials(report: &Value) -> (Value, Value, Value, usize) {
    (
        report["result"].clone(),
        report["states"].clone(),
        report["transitions"].clone(),
        report["trace"].as_array().map_or(0, Vec::len),
    )
}

/// A bundled model, its constants and its symmetry reduction.
type Case = (
    &'static str,
    &'static [(&'static str, u32)],
    Option<SymmetryMode>,
);

/// Bundled models of the three languages: sequences (B's ids), symmetry,
/// violations.
const CASES: &[Case] = &[
    ("scheduler1.mch", &[("PROC", 4)], None),
    ("scheduler1.mch", &[("PROC", 4)], Some(SymmetryMode::Canon)),
    ("ValuesById.mch", &[], None),
    ("SymCounterEx.mch", &[], Some(SymmetryMode::Canon)),
    ("murphi/german.m", &[], None),
    ("murphi/german.m", &[], Some(SymmetryMode::Canon)),
    ("murphi/mutex_bug.m", &[], None),
    ("promela/peterson3.pml", &[], None),
];

#[test]
fn ranks_agree_with_one_process_on_bundled_models() {
    for &(file, sets, symmetry) in CASES {
        let model = model_path(file);
        let one = check_here(&model, sets, job(&model, symmetry));
        for (ranks, order) in [
            (2, Order::Bfs),
            (3, Order::Bfs),
            (2, Order::Any),
            (3, Order::Any),
        ] {
            let base = CheckJob {
                order,
                ..job(&model, symmetry)
            };
            let reports = check_on_ranks(&model, sets, &base, ranks);
            let what = format!("{file} {symmetry:?} on {ranks} ranks, {order:?}");
            let (got, want) = (essentials(&reports[0]), essentials(&one));
            if order == Order::Bfs || want.0 == "ok" {
                assert_eq!(got, want, "{what}");
            } else {
                // Any order: the same verdict, a trace no shorter.
                assert_eq!(got.0, want.0, "{what}");
                assert!(got.3 >= want.3, "{what}");
            }
            for report in &reports[1..] {
                assert_eq!(report["result"], reports[0]["result"], "{what}");
                assert_eq!(report["states"], reports[0]["states"], "{what}");
            }
            for report in &reports {
                crate::json_schema::check_report(report);
            }
            let per_rank = reports[0]["ranks"].as_array().expect("ranks");
            assert_eq!(per_rank.len(), ranks, "{what}");
            let owned: u64 = per_rank.iter().map(|r| r["states"].as_u64().unwrap()).sum();
            assert_eq!(Some(owned), reports[0]["states"].as_u64(), "{what}");
        }
    }
}

#[test]
fn what_a_distributed_search_cannot_honour_is_refused_by_name() {
    let model = model_path("murphi/german.m");
    let refused = |job: CheckJob, words: &str| {
        let registry = Registry::builtin();
        let cli = registry
            .args(clap::Command::new("check").arg(clap::Arg::new("model")))
            .try_get_matches_from(["check", model.to_str().unwrap()])
            .unwrap();
        let loaded = registry
            .for_path(&model)
            .unwrap()
            .load(&LoadRequest {
                args: Some(&cli),
                ..LoadRequest::new(&model)
            })
            .unwrap();
        let transport = ChannelTransport::group(2).remove(0);
        let job = CheckJob {
            distribution: Some(Distribution::new(Box::new(transport))),
            ..job
        };
        match loaded.check(&job) {
            Ok(_) => panic!("not refused: {words}"),
            Err(e) => e.to_string(),
        }
    };
    let base = || job(&model, None);
    let cases = [
        (
            CheckJob {
                order: orbit::checker::Order::Dfs,
                ..base()
            },
            "a sequential order",
        ),
        (
            CheckJob {
                por: true,
                ..base()
            },
            "partial order reduction",
        ),
        (
            CheckJob {
                symmetry: Some(SymmetryMode::Flood),
                ..base()
            },
            "--symmetry flood",
        ),
        (
            CheckJob {
                store: workers::StoreKind::Tree,
                ..base()
            },
            "--store tree",
        ),
        (
            CheckJob {
                ltl: vec!["G F {true}".into()],
                ..base()
            },
            "LTL",
        ),
        (
            CheckJob {
                threads: 200,
                ..base()
            },
            "threads x ranks",
        ),
    ];
    for (job, words) in cases {
        let message = refused(job, words);
        assert!(message.contains(words), "{words}: {message}");
    }
}

/// The `orbit-mpi` binary (`.ci/run` builds it and names it in
/// `ORBIT_MPI_BIN`).
fn mpi_binary() -> PathBuf {
    let path = std::env::var_os("ORBIT_MPI_BIN")
        .map(PathBuf::from)
        .expect("ORBIT_MPI_BIN: the orbit-mpi binary");
    assert!(path.exists(), "{}", path.display());
    path
}

/// One MPI job at a time, each with its own session directory: two
/// `mpirun`s of these tests never share Open MPI's files under `/tmp`
/// (one job's clean-up could remove what the other is setting up).
fn mpi_job() -> (std::sync::MutexGuard<'static, ()>, tempfile::TempDir) {
    static ONE_JOB: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let guard = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    (guard, tempfile::tempdir().expect("temp dir"))
}

/// The arguments of one rank: `check MODEL --distributed --threads 1`.
fn distributed_check(model: &Path) -> [&str; 5] {
    [
        "check",
        model.to_str().unwrap(),
        "--distributed",
        "--threads",
        "1",
    ]
}

/// `mpirun -np ranks` of the MPI build checking `model`: rank 0's report.
fn mpirun(ranks: usize, model: &Path, flags: &[&str]) -> (Option<i32>, Value, String) {
    let (_one_job, session) = mpi_job();
    let mut command = Command::new("mpirun");
    command
        .env("OMPI_MCA_orte_tmpdir_base", session.path())
        .args([
            "--allow-run-as-root",
            "--oversubscribe",
            "-np",
            &ranks.to_string(),
        ])
        .arg(mpi_binary())
        .args(distributed_check(model))
        .arg("--json")
        .args(flags);
    // A hung run fails with every process's stacks rather than hanging CI.
    let out = run_command(command, Duration::from_secs(240));
    let report = serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "one JSON report from rank 0 ({e}):\n{}\n{}",
            out.stdout, out.stderr
        )
    });
    (out.code, report, out.stderr)
}

#[test]
fn the_orbit_binary_names_the_one_that_joins_mpi_jobs() {
    let model = model_path("murphi/german.m");
    let args: Vec<String> = vec![
        "check".into(),
        model.to_str().unwrap().into(),
        "--distributed".into(),
    ];
    let Output { code, stderr, .. } = run_orbit(&args, Duration::from_secs(60));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--distributed needs the orbit-mpi binary")
            && stderr.contains("-p orbit-mpi --features mpi"),
        "{stderr}"
    );
}

/// One process's report, by the default build's binary.
fn one_process(model: &Path, flags: &[&str]) -> (Option<i32>, Value) {
    let mut args: Vec<String> = vec![
        "check".into(),
        model.to_str().unwrap().into(),
        "--json".into(),
    ];
    args.extend(flags.iter().map(|f| f.to_string()));
    let Output { code, stdout, .. } = run_orbit(&args, Duration::from_secs(300));
    (code, serde_json::from_str(stdout.trim()).expect("JSON"))
}

#[test]
#[ignore = "needs Open MPI and the orbit-mpi binary in ORBIT_MPI_BIN; .ci/run runs it with --ignored external_"]
fn external_mpi_ranks_agree_with_one_process() {
    for &(file, sets, symmetry) in CASES {
        let model = model_path(file);
        let sets: Vec<String> = sets.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let mut flags: Vec<&str> = sets.iter().flat_map(|s| ["--set", s.as_str()]).collect();
        flags.push("--no-assert-ltl");
        if symmetry.is_some() {
            flags.extend(["--symmetry", "canon"]);
        }
        let (code, one) = one_process(&model, &flags);
        // Each rank count and each order once (every pairing of them runs
        // in process in `ranks_agree_with_one_process_on_bundled_models`):
        // an mpirun costs about a second to start.
        for (ranks, order) in [(3, "bfs"), (2, "any")] {
            let mut flags = flags.clone();
            flags.extend(["--order", order]);
            let (mpi_code, report, stderr) = mpirun(ranks, &model, &flags);
            crate::json_schema::check_report(&report);
            let what = format!("{file} {flags:?} on {ranks} ranks: {stderr}");
            let (got, want) = (essentials(&report), essentials(&one));
            if order == "bfs" || want.0 == "ok" {
                assert_eq!(got, want, "{what}");
            } else {
                assert_eq!(got.0, want.0, "{what}");
                assert!(got.3 >= want.3, "{what}");
            }
            assert_eq!(mpi_code, code, "{what}");
            assert_eq!(report["job_ranks"], ranks, "{what}");
            assert_eq!(
                report["ranks"].as_array().map(Vec::len),
                Some(ranks),
                "{what}"
            );
        }
    }
}

#[test]
#[ignore = "needs Open MPI and the orbit-mpi binary in ORBIT_MPI_BIN; .ci/run runs it with --ignored external_"]
fn external_mpi_a_killed_rank_leaves_the_run_incomplete() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Each rank under a shell that records the rank's exit code; the
    // shell ignores mpirun's SIGTERM (sent to the whole process group, so
    // orbit, which handles it, gets it once).
    let wrapper = dir.path().join("rank.sh");
    std::fs::write(
        &wrapper,
        "#!/bin/bash\ntrap '' TERM INT\n\"$@\" > \"$OUT.$OMPI_COMM_WORLD_RANK\" 2>&1\n\
         echo $? > \"$OUT.rc.$OMPI_COMM_WORLD_RANK\"\n",
    )
    .unwrap();
    let out = dir.path().join("rank");
    let model = model_path("murphi/german.m");
    let (_one_job, session) = mpi_job();
    let mpirun = Command::new("mpirun")
        .env("OMPI_MCA_orte_tmpdir_base", session.path())
        .args([
            "--allow-run-as-root",
            "--oversubscribe",
            "-np",
            "2",
            "-x",
            "OUT",
            // mpirun (Open MPI 4) waits this many seconds, sends the
            // survivor SIGTERM, waits as long again and sends SIGKILL (1
            // by default): time for rank 0 to wait out its grace period
            // and report on a loaded machine.
            "--mca",
            "odls_base_sigkill_timeout",
            "5",
        ])
        .env("OUT", &out)
        .arg("bash")
        .arg(&wrapper)
        .arg(mpi_binary())
        .args(distributed_check(&model))
        .args(["--set", "NODES=5"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("mpirun runs");
    // Whatever happens, no rank outlives the test.
    struct KillOnDrop(std::process::Child);
    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            let _ = self.0.kill();
        }
    }
    let mut mpirun = KillOnDrop(mpirun);
    // Let the search get going, then kill rank 1's orbit outright.
    std::thread::sleep(Duration::from_secs(2));
    let pids = Command::new("pgrep")
        .args([
            "-f",
            &format!("{} check {}", mpi_binary().display(), model.display()),
        ])
        .output()
        .expect("pgrep");
    let binary = std::fs::canonicalize(mpi_binary()).unwrap();
    // The orbit processes themselves (not mpirun nor the shells).
    let ranks: Vec<i32> = String::from_utf8_lossy(&pids.stdout)
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe == binary))
        .filter(|pid| {
            let marker = format!("OUT={}", out.display());
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == marker.as_bytes()))
        })
        .collect();
    assert_eq!(ranks.len(), 2, "two ranks running: {ranks:?}");
    let rank1 = ranks
        .iter()
        .copied()
        .find(|&pid| {
            std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| {
                env.split(|&b| b == 0)
                    .any(|v| v == b"OMPI_COMM_WORLD_RANK=1")
            })
        })
        .expect("rank 1's process");
    // SAFETY: sending a signal to a process id.
    assert_eq!(unsafe { libc::kill(rank1, libc::SIGKILL) }, 0);
    let status = wait_or_kill(&mut mpirun.0, Duration::from_secs(120), String::new);
    assert!(!status.success(), "mpirun reports the failure");
    let rc0 =
        std::fs::read_to_string(format!("{}.rc.0", out.display())).expect("rank 0 ended by itself");
    let text0 = std::fs::read_to_string(format!("{}.0", out.display())).unwrap();
    let text1 = std::fs::read_to_string(format!("{}.1", out.display())).unwrap_or_default();
    assert_eq!(
        rc0.trim(),
        "3",
        "rank 0 exits 3:\n{text0}\nrank 1:\n{text1}"
    );
    assert!(
        text0.contains("incomplete"),
        "rank 0 ({rc0}):\n{text0}\nrank 1:\n{text1}"
    );
    assert!(!text0.contains("no error"), "{text0}");
    assert!(text0.contains("1 of 2 reported"), "{text0}");
}

#[test]
fn limits_stop_every_rank_with_the_partial_figures() {
    let model = model_path("murphi/german.m");
    for order in [Order::Bfs, Order::Any] {
        let base = CheckJob {
            order,
            time_limit: Some(Duration::from_millis(1)),
            ..job(&model, None)
        };
        let reports = check_on_ranks(&model, &[], &base, 2);
        for report in &reports {
            assert_eq!(report["result"], "stopped", "{order:?}: {report}");
            assert_eq!(report["stopped"], "time-limit", "{order:?}: {report}");
            crate::json_schema::check_report(report);
        }
    }
}
