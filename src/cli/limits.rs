//! `--time-limit` and `--memory`, and what enforces them, for every command
//! that can run long (`check`, `por`, `canon`): the stop signals, the
//! allocator's emergency reserve, the run's budget and its watchdog.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::signals::StopSignals;
use super::units::{parse_bytes, parse_duration};
use workers::budget::{Budget, Entered, Limits, MemoryBound, Watchdog};

/// The limits of one command's run.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Stop after this much wall time, e.g. `30s`, `10m`, counted from the
    /// start: reading the model, solving its constants and the analyses
    /// count too.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Stop before the process's memory passes this size, e.g. `4GiB`
    /// (without it: 90% of the memory the machine, cgroup and ulimits
    /// allow, so running out of memory is a clean stop).
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub memory: Option<u64>,
}

/// Memory set aside to finish cleanly (stop the workers, rebuild nothing,
/// print the summary) after an allocation is refused.
const EMERGENCY_RESERVE_BYTES: usize = 16 << 20;

/// A command running under its limits: while this lives, the calling
/// thread works for `budget`, which a watchdog trips on a limit or a
/// signal.
pub struct Limited {
    /// The flags the stop signals raise.
    pub signals: StopSignals,
    /// The run's budget (the engine's workers enter it too).
    pub budget: Budget,
    /// The memory bound in force.
    pub memory: MemoryBound,
    // Left first (fields drop in order), then the watchdog stops.
    _entered: Entered,
    _watchdog: Watchdog,
}

impl LimitArgs {
    /// Installs the stop signals, the emergency reserve, the allocator's
    /// cap and the watchdog, and enters the run's budget on the calling
    /// thread; `Err` (exit code 3) when the watchdog cannot start.
    pub fn start(&self) -> Result<Limited, ExitCode> {
        // Signals and limits hold from here on, through every phase.
        let signals = StopSignals::install();
        // Given back if an allocation is ever refused, so that running out
        // of memory ends in a summary instead of an abort (`crate::alloc`).
        crate::alloc::keep_emergency_reserve(EMERGENCY_RESERVE_BYTES);
        let memory = match self.memory {
            Some(bytes) => MemoryBound::at_most(bytes),
            None => MemoryBound::default_for_machine(),
        };
        // The allocator's cap: the bound less what is resident but not
        // allocated (the program, stacks, the allocator's own pages).
        let outside_heap = workers::budget::resident_bytes()
            .unwrap_or(0)
            .saturating_sub(workers::heap::in_use() as u64);
        workers::heap::cap(
            memory
                .resident
                .map(|bound| bound.saturating_sub(outside_heap) as usize),
        );
        let budget = Budget::new();
        let watchdog = Watchdog::start(
            &budget,
            Limits {
                cancel: Some(signals.cancel.clone()),
                deadline: self.time_limit.map(|limit| Instant::now() + limit),
                memory,
            },
        )
        .map_err(|e| {
            eprintln!("error: cannot start the thread that enforces the limits: {e}");
            ExitCode::from(crate::report::EXIT_INCOMPLETE)
        })?;
        let entered = budget.enter();
        Ok(Limited {
            signals,
            budget,
            memory,
            _entered: entered,
            _watchdog: watchdog,
        })
    }
}
