//! The JSON report of a refused model or flag (exit code 2): the
//! diagnostics the front end rendered, taken apart again into message,
//! file, line, column and notes, so that a tool driving `orbit check
//! --json` gets a structured error for every outcome.
//!
//! Front ends hand their refusals up as text rendered by
//! [`crate::diag::Diagnostic::render`] (`error: ...`, ` --> file:line:column`,
//! the source excerpt, `= note: ...`), or as one `error: ...` line; this
//! module reads exactly that format back.

use serde::Serialize;

/// One diagnostic of a refusal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DiagnosticReport {
    /// What is wrong, e.g. "expected `THEN`, found `END`".
    pub message: String,
    /// The file, when the diagnostic points into one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line, with `file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// 1-based column (in characters), with `file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// Further explanations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The diagnostics in `text`, a refusal as the front ends render it. Text
/// that is not in the diagnostic format becomes the message of one
/// diagnostic without a place.
pub fn diagnostics(text: &str) -> Vec<DiagnosticReport> {
    let mut out: Vec<DiagnosticReport> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(message) = line.strip_prefix("error: ") {
            out.push(DiagnosticReport {
                message: message.to_string(),
                ..DiagnosticReport::default()
            });
            continue;
        }
        let Some(current) = out.last_mut() else {
            if !trimmed.is_empty() {
                out.push(DiagnosticReport {
                    message: trimmed.to_string(),
                    ..DiagnosticReport::default()
                });
            }
            continue;
        };
        if let Some(place) = trimmed.strip_prefix("--> ") {
            if current.file.is_none()
                && let Some((file, line, column)) = split_place(place)
            {
                current.file = Some(file.to_string());
                current.line = Some(line);
                current.column = Some(column);
            }
        } else if let Some(note) = note_of(trimmed) {
            current.notes.push(note.to_string());
        } else if is_excerpt(trimmed) || trimmed.is_empty() {
            // The source line and its underline: the place says it.
        } else {
            current.message.push('\n');
            current.message.push_str(trimmed);
        }
    }
    out
}

/// `file:line:column` split at its last two colons (a file name may hold
/// colons).
fn split_place(place: &str) -> Option<(&str, u64, u64)> {
    let (rest, column) = place.rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    Some((file, line.parse().ok()?, column.parse().ok()?))
}

/// The text of a `= note: ...` line.
fn note_of(line: &str) -> Option<&str> {
    line.strip_prefix("= note: ")
}

/// Whether `line` is part of a source excerpt: `|`, `12 | text` or
/// `| ^^^ label`.
fn is_excerpt(line: &str) -> bool {
    let digits = line.trim_start_matches(|c: char| c.is_ascii_digit());
    digits.trim_start().starts_with('|')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Diagnostic, SourceFile, Span};

    #[test]
    fn a_rendered_diagnostic_reads_back_whole() {
        let file = SourceFile::new("dir:x/M.mch", "MACHINE M\nVARIABLES x\nINVARIANT x : NAT\n");
        let rendered = Diagnostic::error(Span::new(22, 31), "expected `END`")
            .with_label("here")
            .with_note("first note")
            .with_note("second note")
            .render(&file);
        assert_eq!(
            diagnostics(&rendered),
            vec![DiagnosticReport {
                message: "expected `END`".into(),
                file: Some("dir:x/M.mch".into()),
                line: Some(3),
                column: Some(1),
                notes: vec!["first note".into(), "second note".into()],
            }]
        );
    }

    #[test]
    fn plain_lines_are_messages_without_a_place() {
        let d = diagnostics("error: `--set N=...` is given twice\n");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].message, "`--set N=...` is given twice");
        assert_eq!(d[0].file, None);
        let d = diagnostics("M.mch: cannot read: No such file or directory\n");
        assert_eq!(
            d[0].message,
            "M.mch: cannot read: No such file or directory"
        );
        assert!(diagnostics("").is_empty());
    }

    #[test]
    fn every_error_of_a_text_is_a_diagnostic() {
        let d = diagnostics("error: one\n --> a.m:1:2\nerror: two\n --> a.m:3:4\n");
        let places: Vec<_> = d.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(places, vec![(Some(1), Some(2)), (Some(3), Some(4))]);
    }
}
