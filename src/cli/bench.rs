//! `orbit bench`: the same check over a list of thread counts, repeated,
//! for scaling experiments.
//!
//! Every run is a child process (`orbit check ... --json`), so each run's
//! peak memory is its own and no run warms the caches of the next. The
//! result is a table (median wall time, states per second, speedup over the
//! first thread count, parallel efficiency, peak memory) printed on stdout
//! and written as CSV, plus a PNG plot of speedup against threads.

use super::plot::{SHORTEST_TIMED_SECONDS, plot_speedup};
use super::units::parse_set_size;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// Options of `orbit bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The model to check: a B machine (.mch, .ref, .imp) or a Murphi
    /// program (.m).
    pub model: PathBuf,
    /// Thread counts to measure, e.g. `1,2,4,8`. Speedups are relative to the first.
    #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Vec<u64>,
    /// Runs per thread count (the table shows medians).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Size of a deferred set, as for `orbit check` (repeatable).
    #[arg(long = "set", value_name = "SET=SIZE", value_parser = parse_set_size)]
    pub set_sizes: Vec<(String, u32)>,
    /// Directory for `bench.csv` and `speedup.png`.
    #[arg(long, default_value = "bench-out")]
    pub out: PathBuf,
    /// Further options passed to every `orbit check` run, after `--`,
    /// e.g. `-- --no-deadlock --order dfs`.
    #[arg(last = true)]
    pub check_args: Vec<String>,
}

/// One measured run.
#[derive(Clone, Debug)]
struct Run {
    result: String,
    states: u64,
    transitions: u64,
    wall: f64,
    peak_memory: u64,
}

/// The medians for one thread count.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Thread count.
    pub threads: u64,
    /// Median wall time in seconds.
    pub wall: f64,
    /// Distinct states (equal in every run).
    pub states: u64,
    /// States per second at the median wall time.
    pub states_per_second: f64,
    /// Median wall time of the first row divided by this row's.
    pub speedup: f64,
    /// Speedup divided by the ratio of thread counts.
    pub efficiency: f64,
    /// Median peak resident memory in bytes.
    pub peak_memory: u64,
}

/// Runs `orbit bench`.
pub fn run(args: &BenchArgs) -> ExitCode {
    // Every run is `orbit check`: refuse a model no front end reads before
    // the first one.
    if let Err(message) = crate::frontends::Registry::builtin().for_path(&args.model) {
        eprintln!("error: {message}");
        return ExitCode::from(2);
    }
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("error: cannot find the orbit executable to run: {e}");
            return ExitCode::from(2);
        }
    };
    let show_progress = std::io::stderr().is_terminal();
    let mut per_threads: Vec<(u64, Vec<Run>)> = Vec::new();
    for &threads in &args.threads {
        let mut runs = Vec::new();
        for i in 0..args.repeat {
            if show_progress {
                eprint!("\rthreads {threads}: run {}/{}   ", i + 1, args.repeat);
                let _ = std::io::stderr().flush();
            }
            match run_once(&exe, args, threads) {
                Ok(run) => runs.push(run),
                Err(message) => {
                    if show_progress {
                        eprintln!();
                    }
                    eprint!("{message}");
                    return ExitCode::from(2);
                }
            }
        }
        per_threads.push((threads, runs));
    }
    if show_progress {
        eprint!("\r{:40}\r", "");
    }
    if let Err(message) = check_agreement(&per_threads) {
        eprintln!("error: {message}");
        return ExitCode::from(1);
    }
    let rows = summarise(&per_threads);
    super::output::print(&table(&args.model, &rows));
    for row in rows.iter().filter(|r| r.wall < SHORTEST_TIMED_SECONDS) {
        eprintln!(
            "warning: with {} threads the median run took {:.3} s, too short to time \
             (under {SHORTEST_TIMED_SECONDS} s): left out of the plot; use a larger model",
            row.threads, row.wall
        );
    }
    let title = format!(
        "orbit bench: {} ({} run{} per thread count)",
        args.model.file_name().map_or_else(
            || args.model.display().to_string(),
            |n| n.to_string_lossy().into_owned()
        ),
        args.repeat,
        if args.repeat == 1 { "" } else { "s" }
    );
    if let Err(e) = write_outputs(&args.out, &rows, &title) {
        eprintln!(
            "error: cannot write the results to {}: {e}",
            args.out.display()
        );
        return ExitCode::from(2);
    }
    super::output::print(&format!(
        "\nwrote {} and {}\n",
        args.out.join("bench.csv").display(),
        args.out.join("speedup.png").display()
    ));
    ExitCode::SUCCESS
}

fn run_once(exe: &Path, args: &BenchArgs, threads: u64) -> Result<Run, String> {
    let mut command = Command::new(exe);
    command
        .arg("check")
        .arg(&args.model)
        .arg("--json")
        .arg("--threads")
        .arg(threads.to_string());
    for (name, size) in &args.set_sizes {
        command.arg("--set").arg(format!("{name}={size}"));
    }
    command.args(&args.check_args);
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("error: cannot run {}: {e}\n", exe.display()))?;
    if output.status.code() == Some(2) || output.stdout.is_empty() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let json: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("error: `orbit check` printed no valid JSON ({e})\n"))?;
    let number = |key: &str| json.get(key).and_then(|v| v.as_f64()).unwrap_or(0.0);
    Ok(Run {
        result: json
            .get("result")
            .and_then(|v| v.as_str())
            .unwrap_or("unknown")
            .to_string(),
        states: number("states") as u64,
        transitions: number("transitions") as u64,
        wall: number("wall_seconds"),
        peak_memory: number("peak_memory_bytes") as u64,
    })
}

/// A complete search gives the same verdict and counts whatever the thread
/// count; a benchmark whose runs disagree measures a bug, not a speed.
fn check_agreement(per_threads: &[(u64, Vec<Run>)]) -> Result<(), String> {
    let mut all = per_threads
        .iter()
        .flat_map(|(t, runs)| runs.iter().map(move |r| (t, r)));
    let Some((t0, first)) = all.next() else {
        return Ok(());
    };
    let complete = first.result == "ok";
    for (t, run) in all {
        if run.result != first.result
            || (complete && (run.states, run.transitions) != (first.states, first.transitions))
        {
            return Err(format!(
                "runs disagree: {} threads gave {} with {} states and {} transitions, {} threads gave {} with {} and {}",
                t0,
                first.result,
                first.states,
                first.transitions,
                t,
                run.result,
                run.states,
                run.transitions
            ));
        }
    }
    Ok(())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn summarise(per_threads: &[(u64, Vec<Run>)]) -> Vec<Row> {
    let mut rows: Vec<Row> = per_threads
        .iter()
        .map(|(threads, runs)| {
            let wall = median(runs.iter().map(|r| r.wall).collect());
            let states = runs.first().map_or(0, |r| r.states);
            Row {
                threads: *threads,
                wall,
                states,
                states_per_second: if wall > 0.0 {
                    states as f64 / wall
                } else {
                    0.0
                },
                speedup: 1.0,
                efficiency: 1.0,
                peak_memory: median(runs.iter().map(|r| r.peak_memory as f64).collect()) as u64,
            }
        })
        .collect();
    if let Some(base) = rows.first().cloned() {
        for row in &mut rows {
            row.speedup = if row.wall > 0.0 {
                base.wall / row.wall
            } else {
                0.0
            };
            row.efficiency = row.speedup / (row.threads as f64 / base.threads as f64);
        }
    }
    rows
}

fn table(model: &Path, rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "{}", model.display());
    let _ = writeln!(
        out,
        "{:>7} {:>12} {:>12} {:>14} {:>8} {:>10} {:>12}",
        "threads", "median s", "states", "states/s", "speedup", "efficiency", "peak MiB"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:>7} {:>12.3} {:>12} {:>14.0} {:>8.2} {:>10.2} {:>12.1}",
            r.threads,
            r.wall,
            r.states,
            r.states_per_second,
            r.speedup,
            r.efficiency,
            r.peak_memory as f64 / (1024.0 * 1024.0)
        );
    }
    out
}

fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "threads,median_wall_seconds,states,states_per_second,speedup,efficiency,peak_memory_bytes\n",
    );
    for r in rows {
        out.push_str(&format!(
            "{},{:.6},{},{:.1},{:.4},{:.4},{}\n",
            r.threads,
            r.wall,
            r.states,
            r.states_per_second,
            r.speedup,
            r.efficiency,
            r.peak_memory
        ));
    }
    out
}

fn write_outputs(dir: &Path, rows: &[Row], title: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("bench.csv"), csv(rows))?;
    plot_speedup(&dir.join("speedup.png"), rows, title).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(threads_wall: f64, states: u64) -> Run {
        Run {
            result: "ok".into(),
            states,
            transitions: 10,
            wall: threads_wall,
            peak_memory: 1 << 20,
        }
    }

    #[test]
    fn medians_speedups_and_efficiency() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        let rows = summarise(&[
            (1, vec![run(2.0, 100), run(4.0, 100), run(3.0, 100)]),
            (2, vec![run(1.5, 100)]),
        ]);
        assert_eq!(rows[0].wall, 3.0);
        assert_eq!(rows[1].speedup, 2.0);
        assert_eq!(rows[1].efficiency, 1.0);
        assert!((rows[0].states_per_second - 100.0 / 3.0).abs() < 1e-9);
        assert!(csv(&rows).starts_with("threads,median_wall_seconds"));
    }

    #[test]
    fn disagreeing_counts_are_refused() {
        assert!(check_agreement(&[(1, vec![run(1.0, 100)]), (2, vec![run(1.0, 99)])]).is_err());
        assert!(check_agreement(&[(1, vec![run(1.0, 100)]), (2, vec![run(0.5, 100)])]).is_ok());
    }
}
