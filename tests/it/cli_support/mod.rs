//! Running the `orbit` binary from integration tests.
//!
//! [`run_orbit`] runs the CLI with a time limit (a hung search fails the test
//! instead of hanging CI) and [`CheckRun`] is the parsed `orbit check --json`
//! report together with the exit code and stderr.

#![allow(dead_code)] // each test crate uses a different part of this module

use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The default limit on one `orbit` run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// Path of a file in the repository's `models/` directory.
pub fn model_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(file)
}

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Output {
    /// Process exit code (`None` if killed by a signal).
    pub code: Option<i32>,
    /// Everything printed on stdout.
    pub stdout: String,
    /// Everything printed on stderr.
    pub stderr: String,
}

/// Runs `orbit` with `args`; panics if it runs longer than `timeout`.
pub fn run_orbit(args: &[String], timeout: Duration) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_orbit"));
    command.args(args);
    run_command(command, timeout)
}

/// Runs `command` (stdin empty, stdout and stderr captured); if it runs
/// longer than `timeout`, prints the stacks of its processes (with gdb,
/// where installed), kills them all and panics.
pub fn run_command(mut command: Command, timeout: Duration) -> Output {
    let what = format!("{command:?}");
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    // Drain both pipes on threads so a chatty child cannot block on a full pipe.
    let mut stdout_pipe = child.stdout.take().expect("stdout is piped");
    let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
    let stdout_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout_pipe.read_to_string(&mut s);
        s
    });
    let mut stderr_reader = Some(std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr_pipe.read_to_string(&mut s);
        s
    }));
    let mut stderr = || {
        let reader = stderr_reader.take().expect("read once");
        reader.join().unwrap_or_default()
    };
    let status = wait_or_kill(&mut child, timeout, || format!("{what}\n{}", stderr()));
    Output {
        code: status.code(),
        stdout: stdout_reader.join().unwrap_or_default(),
        stderr: stderr(),
    }
}

/// Waits for `child`; if it runs longer than `timeout`, prints the stacks
/// of its processes (with gdb, where installed), kills them all and
/// panics with them and `output()` (what it printed so far).
pub fn wait_or_kill(
    child: &mut std::process::Child,
    timeout: Duration,
    output: impl FnOnce() -> String,
) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("cannot wait for the child") {
            return status;
        }
        if start.elapsed() > timeout {
            let tree = process_tree(child.id());
            let stacks = stacks_of(&tree);
            for &pid in tree.iter().rev() {
                // SAFETY: sending a signal to a process id.
                unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            }
            let _ = child.wait();
            panic!(
                "a child ran longer than {timeout:?} and was killed; its stacks:\n{stacks}\n\
                 its output so far:\n{}",
                output()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `root` and its descendants, parents first.
fn process_tree(root: u32) -> Vec<u32> {
    let mut tree = vec![root];
    let mut k = 0;
    while k < tree.len() {
        // Each thread's children (a child belongs to the thread that
        // started it).
        let tasks = std::fs::read_dir(format!("/proc/{}/task", tree[k]));
        for task in tasks.into_iter().flatten().flatten() {
            let children =
                std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            tree.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<u32>().ok()),
            );
        }
        k += 1;
    }
    tree
}

/// Every thread's stack of each process of `pids` (a hung run's
/// diagnosis), or why there are none.
fn stacks_of(pids: &[u32]) -> String {
    let mut out = String::new();
    for pid in pids {
        let name = std::fs::read_to_string(format!("/proc/{pid}/cmdline"))
            .unwrap_or_default()
            .replace('\0', " ");
        out.push_str(&format!("--- {pid}: {name}\n"));
        match Command::new("gdb")
            .args([
                "-p",
                &pid.to_string(),
                "-batch",
                "-ex",
                "thread apply all bt",
            ])
            .stdin(Stdio::null())
            .output()
        {
            Ok(gdb) => out.push_str(&String::from_utf8_lossy(&gdb.stdout)),
            Err(e) => out.push_str(&format!("(no stacks: gdb: {e})\n")),
        }
    }
    out
}

/// The arguments of `orbit check <model> --set X=n ... <flags> --json`.
/// The model's own LTL assertions are left out (`--no-assert-ltl`): the
/// runs that use this reproduce counts and verdicts of ProB's model
/// checking, which does not check them; the LTL tests pass `--ltl` or
/// run orbit themselves.
pub fn check_args(model: &str, sets: &[(&str, u32)], flags: &[&str]) -> Vec<String> {
    let mut args = vec!["check".to_string(), model.to_string()];
    if !flags.iter().any(|f| f.starts_with("--ltl")) {
        args.push("--no-assert-ltl".to_string());
    }
    for (set, size) in sets {
        args.push("--set".to_string());
        args.push(format!("{set}={size}"));
    }
    args.extend(flags.iter().map(|f| f.to_string()));
    args.push("--json".to_string());
    args
}

/// A finished `orbit check --json` run.
#[derive(Debug)]
pub struct CheckRun {
    /// The command line, for failure messages.
    pub command: String,
    /// Process exit code.
    pub code: Option<i32>,
    /// The JSON object printed on stdout.
    pub json: Value,
    /// stderr, for failure messages.
    pub stderr: String,
}

impl CheckRun {
    /// Runs `orbit check` on a file of `models/` and parses its JSON report.
    pub fn run(model_file: &str, sets: &[(&str, u32)], flags: &[&str]) -> CheckRun {
        let path = model_path(model_file);
        Self::run_path(&path.to_string_lossy(), sets, flags, DEFAULT_TIMEOUT)
    }

    /// Runs `orbit check` on any path and parses its JSON report.
    pub fn run_path(
        model: &str,
        sets: &[(&str, u32)],
        flags: &[&str],
        timeout: Duration,
    ) -> CheckRun {
        let args = check_args(model, sets, flags);
        let command = format!("orbit {}", args.join(" "));
        let out = run_orbit(&args, timeout);
        let json = parse_report(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{command}: stdout is not one JSON object ({e})\nexit code: {:?}\nstdout:\n{}\nstderr:\n{}",
                out.code, out.stdout, out.stderr
            )
        });
        CheckRun {
            command,
            code: out.code,
            json,
            stderr: out.stderr,
        }
    }

    /// The `result` field ("ok", "invariant_violation", ...).
    pub fn result(&self) -> &str {
        self.json["result"]
            .as_str()
            .unwrap_or_else(|| self.fail("no string field `result`"))
    }

    /// A non-negative integer field of the report.
    pub fn count(&self, key: &str) -> u64 {
        self.json[key]
            .as_u64()
            .unwrap_or_else(|| self.fail(&format!("no integer field `{key}`")))
    }

    /// The counterexample steps (empty if there is none).
    pub fn trace(&self) -> Vec<Value> {
        self.json["trace"].as_array().cloned().unwrap_or_default()
    }

    /// Panics with `what` and the whole run for context.
    pub fn fail(&self, what: &str) -> ! {
        panic!(
            "{}\n  {what}\n  exit code: {:?}\n  report: {}\n  stderr:\n{}",
            self.command,
            self.code,
            serde_json::to_string_pretty(&self.json).unwrap_or_default(),
            self.stderr
        )
    }
}

/// Parses stdout: one JSON object (surrounding whitespace allowed), which
/// must match the report's JSON Schema.
fn parse_report(stdout: &str) -> Result<Value, String> {
    let value: Value = serde_json::from_str(stdout.trim()).map_err(|e| e.to_string())?;
    if value.is_object() {
        crate::json_schema::check_report(&value);
        Ok(value)
    } else {
        Err("not an object".to_string())
    }
}

/// Whether `text` contains `<file_name>:<line>:<column>` for some numbers,
/// returning the first (line, column) found.
pub fn find_location(text: &str, file_name: &str) -> Option<(u32, u32)> {
    let pattern = format!("{file_name}:");
    let mut rest = text;
    while let Some(pos) = rest.find(&pattern) {
        let after = &rest[pos + pattern.len()..];
        if let Some((line, after_line)) = leading_number(after)
            && let Some(after_colon) = after_line.strip_prefix(':')
            && let Some((column, _)) = leading_number(after_colon)
        {
            return Some((line, column));
        }
        rest = &rest[pos + pattern.len()..];
    }
    None
}

fn leading_number(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

#[cfg(test)]
mod tests {
    use super::find_location;

    #[test]
    fn finds_file_line_column() {
        assert_eq!(
            find_location("error\n --> /tmp/x/bad.mch:4:7\n", "bad.mch"),
            Some((4, 7))
        );
        assert_eq!(find_location("bad.mch: cannot read", "bad.mch"), None);
        assert_eq!(
            find_location("bad.mch:3 and bad.mch:5:1", "bad.mch"),
            Some((5, 1))
        );
    }
}
