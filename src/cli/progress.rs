//! The progress line on stderr.

use crate::report::group;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;
use workers::Progress;

/// The progress line on stderr: shown only on a terminal and only once a
/// run has taken more than a second.
pub struct ProgressLine {
    bar: ProgressBar,
}

impl ProgressLine {
    /// A hidden-until-needed progress line.
    pub fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(2));
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        ProgressLine { bar }
    }

    /// The callback the engine calls about once a second.
    pub fn callback(&self) -> workers::ProgressFn {
        let bar = self.bar.clone();
        std::sync::Arc::new(move |p: &Progress| {
            if p.elapsed < Duration::from_secs(1) {
                return;
            }
            let rate = p.states as f64 / p.elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} states, {} transitions, {} states/s, queue {}, store {}, {:.0} s",
                group(p.states),
                group(p.transitions),
                group(rate as u64),
                group(p.queue),
                bytesize::ByteSize(p.store_bytes).display().iec(),
                p.elapsed.as_secs_f64()
            ));
            bar.tick();
        })
    }

    /// Removes the line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Default for ProgressLine {
    fn default() -> Self {
        Self::new()
    }
}
