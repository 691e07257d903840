//! Writing results to stdout without panicking when the reader has gone
//! (`orbit check M | head -1`): a closed pipe ends the output quietly.

use std::io::Write;

/// Writes `text` to stdout; a failed write (e.g. a closed pipe) is
/// ignored, since nobody is left to read it.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Writes `line` and a newline to stdout, as [`print`].
pub fn print_line(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(line.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
}
