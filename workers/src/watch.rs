//! Time limit, cancellation and progress reporting, polled by the engines.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::report::{Progress, StopReason};

/// Watches the external stop conditions of one search.
pub(crate) struct Watch<'a> {
    config: &'a Config,
    start: Instant,
    last_progress: Instant,
}

impl<'a> Watch<'a> {
    /// Starts watching at `start`.
    pub(crate) fn new(config: &'a Config, start: Instant) -> Self {
        Watch {
            config,
            start,
            last_progress: start,
        }
    }

    /// Whether the search must stop now: the run's budget is exhausted
    /// (see [`crate::budget`]), cancelled, or out of time.
    pub(crate) fn stop_reason(&self) -> Option<StopReason> {
        if let Some(reason) = crate::budget::tripped() {
            return Some(reason);
        }
        if let Some(cancel) = &self.config.cancel
            && cancel.load(Ordering::Relaxed)
        {
            return Some(StopReason::Interrupted);
        }
        if let Some(limit) = self.config.time_limit
            && self.start.elapsed() >= limit
        {
            return Some(StopReason::TimeLimit);
        }
        None
    }

    /// Calls the progress callback if `progress_interval` has passed since
    /// the last call; `snapshot` gets the elapsed time to fill in.
    pub(crate) fn tick(&mut self, snapshot: impl FnOnce(Duration) -> Progress) {
        let Some(progress) = &self.config.progress else {
            return;
        };
        let now = Instant::now();
        if now.duration_since(self.last_progress) >= self.config.progress_interval {
            self.last_progress = now;
            progress(&snapshot(now.duration_since(self.start)));
        }
    }
}
