//! SIGINT (Ctrl-C) and SIGTERM: both stop a search cleanly, with the
//! partial summary and exit code 3; the summary says which one it was. A
//! second one, while a phase that does not poll the flag still runs (a
//! huge INITIALISATION, say), ends the process at once with exit code 3
//! and no summary.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The flags the stop signals raise.
pub struct StopSignals {
    /// Raised by SIGINT or SIGTERM: the engine's cancel flag.
    pub cancel: Arc<AtomicBool>,
    /// Raised by SIGTERM only.
    pub terminated: Arc<AtomicBool>,
}

impl StopSignals {
    /// Registers the handlers. Where a signal cannot be registered the run
    /// goes on without it (the default action then ends the process).
    pub fn install() -> Self {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let cancel = Arc::new(AtomicBool::new(false));
        let terminated = Arc::new(AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM] {
            // Registered first, so it sees the flag as the previous signal
            // left it: set means this is the second.
            if let Err(e) = signal_hook::flag::register_conditional_shutdown(
                signal,
                i32::from(crate::report::EXIT_INCOMPLETE),
                Arc::clone(&cancel),
            ) {
                tracing::warn!("cannot handle a second signal {signal}: {e}");
            }
        }
        for (signal, flag) in [
            (SIGINT, &cancel),
            (SIGTERM, &terminated),
            (SIGTERM, &cancel),
        ] {
            if let Err(e) = signal_hook::flag::register(signal, Arc::clone(flag)) {
                tracing::warn!("cannot handle signal {signal}: {e}");
            }
        }
        StopSignals { cancel, terminated }
    }
}
