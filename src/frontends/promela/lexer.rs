//! Promela's tokens. The lexer reads one file of a [`SourceFile`] (a
//! model and the files it includes live in one), so every token's span
//! points at the text it came from, whatever macro expansion does later.

use crate::diag::{Diagnostic, Span};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// A name or a keyword.
    Ident(String),
    /// An integer (decimal, octal `0..`, hexadecimal `0x..`) or a character
    /// constant (`'a'`).
    Int(i64),
    /// A string constant, without its quotes (only `printf` takes them).
    Str(String),
    /// An operator or punctuation mark.
    Punct(&'static str),
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    /// What it is.
    pub kind: TokKind,
    /// Where it is.
    pub span: Span,
    /// Whether it is the first token on its line (preprocessor directives
    /// start there).
    pub line_start: bool,
}

impl Tok {
    /// Whether the token is the punctuation mark `p`.
    pub fn is(&self, p: &str) -> bool {
        matches!(&self.kind, TokKind::Punct(q) if *q == p)
    }

    /// The name, if the token is one.
    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            TokKind::Ident(s) => Some(s),
            _ => None,
        }
    }

    /// The token as text, for messages.
    pub fn describe(&self) -> String {
        match &self.kind {
            TokKind::Ident(s) => format!("`{s}`"),
            TokKind::Int(v) => format!("`{v}`"),
            TokKind::Str(s) => format!("\"{s}\""),
            TokKind::Punct(p) => format!("`{p}`"),
        }
    }
}

const PUNCTS: [&str; 41] = [
    "::", "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--", "!!", "??", "?", "!",
    "<", ">", "=", "+", "-", "*", "/", "%", "&", "|", "^", "~", "(", ")", "{", "}", "[", "]", ";",
    ",", ".", ":", "@", "#", "\\",
];

/// The tokens of `text[range]`, whose offsets are those of the text (one
/// file of a [`SourceFile`]). Comments (`/* */`, `//`) and line
/// continuations (`\` before a newline) are skipped.
pub fn lex(text: &str, range: std::ops::Range<usize>) -> Result<Vec<Tok>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut i = range.start;
    let end = range.end;
    let mut out = Vec::new();
    let mut line_start = true;
    while i < end {
        let c = bytes[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'\\' && (bytes.get(i + 1) == Some(&b'\n') || bytes.get(i + 1) == Some(&b'\r')) {
            // A line continuation: the next line goes on this one.
            i += 1;
            while i < end && bytes[i] != b'\n' {
                i += 1;
            }
            i += 1;
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            while i + 1 < end && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            if i + 1 >= end {
                return Err(Diagnostic::error(
                    Span::new(start, start + 2),
                    "unterminated comment",
                ));
            }
            i += 2;
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < end && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while i < end && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            TokKind::Ident(text[start..i].to_string())
        } else if c.is_ascii_digit() {
            while i < end && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let s = &text[start..i];
            // SPIN reads decimal (a leading 0 is no octal) and hexadecimal.
            let parsed = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                i64::from_str_radix(h, 16).ok()
            } else {
                s.parse().ok()
            };
            match parsed {
                Some(v) => TokKind::Int(v),
                None => {
                    return Err(Diagnostic::error(
                        Span::new(start, i),
                        format!("`{s}` is no number"),
                    ));
                }
            }
        } else if c == b'"' {
            i += 1;
            while i < end && bytes[i] != b'"' && bytes[i] != b'\n' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            if i >= end || bytes[i] != b'"' {
                return Err(Diagnostic::error(
                    Span::new(start, i.min(end)),
                    "unterminated string",
                ));
            }
            i += 1;
            TokKind::Str(text[start + 1..i - 1].to_string())
        } else if c == b'\'' {
            let (value, len) = match (bytes.get(i + 1), bytes.get(i + 2), bytes.get(i + 3)) {
                (Some(b'\\'), Some(&e), Some(b'\'')) => (
                    match e {
                        b'n' => 10,
                        b't' => 9,
                        b'0' => 0,
                        other => i64::from(other),
                    },
                    4,
                ),
                (Some(&ch), Some(b'\''), _) => (i64::from(ch), 3),
                _ => {
                    return Err(Diagnostic::error(
                        Span::new(start, start + 1),
                        "bad character constant",
                    ));
                }
            };
            i += len;
            TokKind::Int(value)
        } else {
            let rest = &text[i..end];
            match PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                Some(p) => {
                    i += p.len();
                    TokKind::Punct(p)
                }
                None => {
                    let ch = rest.chars().next().unwrap_or('?');
                    return Err(Diagnostic::error(
                        Span::new(start, start + ch.len_utf8()),
                        format!("unexpected character `{ch}`"),
                    ));
                }
            }
        };
        out.push(Tok {
            kind,
            span: Span::new(start, i),
            line_start,
        });
        line_start = false;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokKind> {
        lex(text, 0..text.len())
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn operators_take_the_longest_match_and_comments_vanish() {
        let k = kinds("a->b /* x */ c!=0x1F // y\n 'a' 017");
        // 017 is seventeen: SPIN has no octal.
        assert_eq!(
            k,
            vec![
                TokKind::Ident("a".into()),
                TokKind::Punct("->"),
                TokKind::Ident("b".into()),
                TokKind::Ident("c".into()),
                TokKind::Punct("!="),
                TokKind::Int(31),
                TokKind::Int(97),
                TokKind::Int(17),
            ]
        );
    }

    #[test]
    fn line_starts_are_marked_and_continuations_join_lines() {
        let text = "#define A \\\n 1\nB";
        let toks = lex(text, 0..text.len()).unwrap();
        let starts: Vec<bool> = toks.iter().map(|t| t.line_start).collect();
        assert_eq!(starts, vec![true, false, false, false, true]);
    }
}
