//! Source files, spans and diagnostics for every front end.
//!
//! A [`Diagnostic`] points at a [`Span`] of a [`SourceFile`]; rendering it
//! gives a rustc-style message whose location line reads
//! `--> file:line:column`. Line and column are 1-based; columns count
//! characters, not bytes.

/// A byte range `[start, end)` in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `[start, end)`.
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A source file with a line index for turning byte offsets into
/// line:column. A model made of several files (included machines,
/// definition files) keeps them all in one `SourceFile`, one after the
/// other ([`SourceFile::add`]), so that a [`Span`] points into any of them
/// and every location names the right file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The (first) file's name as the user gave it.
    pub name: String,
    /// The whole text: the first file's, then each added file's after a newline.
    pub text: String,
    line_starts: Vec<u32>,
    /// Where each file starts in `text`, its first line's index in
    /// `line_starts`, and its name; in order of offset.
    parts: Vec<Part>,
}

#[derive(Clone, Debug)]
struct Part {
    start: u32,
    first_line: usize,
    name: String,
}

impl SourceFile {
    /// Wraps a file's text.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let name = name.into();
        let mut line_starts = vec![0u32];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        SourceFile {
            parts: vec![Part {
                start: 0,
                first_line: 0,
                name: name.clone(),
            }],
            name,
            text,
            line_starts,
        }
    }

    /// Appends another file; returns the byte range its text occupies in
    /// [`Self::text`] (spans into it are offsets in that range).
    pub fn add(&mut self, name: impl Into<String>, text: &str) -> std::ops::Range<usize> {
        self.text.push('\n');
        let start = self.text.len();
        self.line_starts.push(start as u32);
        let first_line = self.line_starts.len() - 1;
        self.text.push_str(text);
        self.line_starts.extend(
            text.match_indices('\n')
                .map(|(i, _)| (start + i) as u32 + 1),
        );
        self.parts.push(Part {
            start: start as u32,
            first_line,
            name: name.into(),
        });
        start..self.text.len()
    }

    /// The file holding byte `offset`.
    fn part(&self, offset: u32) -> &Part {
        let i = self.parts.partition_point(|p| p.start <= offset);
        &self.parts[i.saturating_sub(1)]
    }

    /// The name of the file holding a span's start.
    pub fn file_name(&self, span: Span) -> &str {
        &self.part(span.start).name
    }

    /// Index into `line_starts` of the line holding `offset`.
    fn line_index(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// 1-based (line, column) of a byte offset within its file; columns
    /// count characters.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(self.text.len() as u32);
        let line = self.line_index(offset);
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let first = self.part(offset).first_line;
        (line - first + 1, self.text[start..end].chars().count() + 1)
    }

    /// The text of the line holding `offset`, without its newline.
    pub fn line_text(&self, offset: u32) -> &str {
        let offset = offset.min(self.text.len() as u32);
        let line = self.line_index(offset);
        let start = self.line_starts[line] as usize;
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&e| e as usize - 1);
        self.text[start..end.max(start)].trim_end_matches('\r')
    }

    /// `file:line:column` of the start of a span.
    pub fn location(&self, span: Span) -> String {
        let (line, col) = self.line_col(span.start);
        format!("{}:{}:{}", self.file_name(span), line, col)
    }
}

/// An error in a model or input file, pointing at source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline, e.g. "expected `THEN`, found `END`".
    pub message: String,
    /// The offending text.
    pub span: Span,
    /// A short text shown under the offending text (may be empty).
    pub label: String,
    /// Further explanations, one per line, shown as `= note: ...`.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error with a message at a span.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            span,
            label: String::new(),
            notes: Vec::new(),
        }
    }

    /// Adds the text shown under the offending source.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Renders like rustc: headline, `--> file:line:column`, the source line
    /// with the span underlined, then the notes. No colours.
    pub fn render(&self, file: &SourceFile) -> String {
        use std::fmt::Write;
        let (line, col) = file.line_col(self.span.start);
        let mut out = String::new();
        let _ = writeln!(out, "error: {}", self.message);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        let _ = writeln!(
            out,
            "{pad}--> {}:{}:{}",
            file.file_name(self.span),
            line,
            col
        );
        let full_line = file.line_text(self.span.start);
        let span_chars = {
            let end = (self.span.end as usize).min(file.text.len());
            let start = (self.span.start as usize).min(end);
            file.text
                .get(start..end)
                .map_or(1, |s| s.chars().take_while(|&c| c != '\n').count())
        };
        // A window of the line around the span, so that a huge line (a
        // generated model) is not echoed whole.
        let (line_text, col) = excerpt(full_line, col, span_chars);
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{line} | {line_text}");
        let line_chars = line_text.chars().count();
        let width = span_chars
            .max(1)
            .min(line_chars.saturating_sub(col - 1).max(1));
        let _ = write!(out, "{pad} | {}{}", " ".repeat(col - 1), "^".repeat(width));
        if !self.label.is_empty() {
            let _ = write!(out, " {}", self.label);
        }
        out.push('\n');
        for note in &self.notes {
            let _ = writeln!(out, "{pad} = note: {note}");
        }
        out
    }
}

/// Characters of a source line shown around a diagnostic's column.
const EXCERPT_CHARS: usize = 160;

/// The part of `line` to print for a span starting at (1-based) `col` and
/// `span_chars` long, with the column within that part: the whole line if
/// it is short, otherwise a window of [`EXCERPT_CHARS`] characters around
/// the span's start, with `...` where it was cut.
fn excerpt(line: &str, col: usize, span_chars: usize) -> (String, usize) {
    let chars = line.chars().count();
    if chars <= EXCERPT_CHARS {
        return (line.to_string(), col);
    }
    let before = EXCERPT_CHARS / 4;
    let start = col.saturating_sub(1).saturating_sub(before);
    let take = EXCERPT_CHARS.max(span_chars.min(EXCERPT_CHARS) + before);
    let mut text = String::new();
    if start > 0 {
        text.push_str("...");
    }
    text.extend(line.chars().skip(start).take(take));
    if start + take < chars {
        text.push_str("...");
    }
    let shift = if start > 0 { 3 } else { 0 };
    (text, col - start + shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a diagnostic on a 1.8 MB line echoed the whole line.
    #[test]
    fn long_lines_are_shown_as_a_window_around_the_span() {
        let mut text = "x".repeat(100_000);
        text.push_str(" @@ ");
        text.push_str(&"y".repeat(100_000));
        let f = SourceFile::new("m.mch", text);
        let d = Diagnostic::error(Span::new(100_001, 100_003), "unexpected `@@`");
        let r = d.render(&f);
        assert!(r.len() < 1000, "{} bytes", r.len());
        assert!(r.contains("--> m.mch:1:100002"), "{r}");
        let shown = r.lines().find(|l| l.starts_with("1 | ")).unwrap();
        let marks = r.lines().find(|l| l.contains('^')).unwrap();
        let at = marks.find('^').unwrap();
        assert_eq!(&shown[at..at + 2], "@@", "{r}");
    }

    #[test]
    fn line_and_column_are_one_based_and_count_characters() {
        let f = SourceFile::new("m.mch", "ab\nçd e\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // 'ç' is two bytes: the 'e' after "çd " is the 4th character.
        assert_eq!(f.line_col(7), (2, 4));
        assert_eq!(f.location(Span::new(7, 8)), "m.mch:2:4");
    }

    #[test]
    fn render_points_at_the_span() {
        let f = SourceFile::new("m.mch", "MACHINE m\nVARIABLES x y\nEND\n");
        let d = Diagnostic::error(
            Span::new(22, 23),
            "expected `,` or a clause keyword, found `y`",
        )
        .with_label("expected `,`");
        let r = d.render(&f);
        assert!(r.contains("--> m.mch:2:13"), "{r}");
        assert!(r.contains("            ^ expected `,`"), "{r}");
    }
}
