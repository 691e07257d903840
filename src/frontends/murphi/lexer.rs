//! Murphi tokens. Keywords are case-insensitive (as in CMurphi and Rumur),
//! identifiers are not. Comments: `-- ...` to the end of the line and
//! `/* ... */`.

use crate::diag::{Diagnostic, Span};

/// A token kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier (case kept).
    Ident(String),
    /// A keyword, lowercased.
    Keyword(&'static str),
    /// An integer literal.
    Int(i64),
    /// A string literal (rule names, messages).
    Str(String),
    /// An operator or punctuation.
    Punct(&'static str),
    /// End of input.
    Eof,
}

/// A token with its place in the source.
#[derive(Clone, Debug)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Where it is.
    pub span: Span,
}

const KEYWORDS: &[&str] = &[
    "alias",
    "array",
    "assert",
    "begin",
    "boolean",
    "by",
    "case",
    "clear",
    "const",
    "do",
    "else",
    "elsif",
    "end",
    "endalias",
    "endexists",
    "endfor",
    "endforall",
    "endfunction",
    "endif",
    "endprocedure",
    "endrecord",
    "endrule",
    "endruleset",
    "endstartstate",
    "endswitch",
    "endwhile",
    "enum",
    "error",
    "exists",
    "false",
    "for",
    "forall",
    "function",
    "if",
    "invariant",
    "isundefined",
    "multiset",
    "of",
    "procedure",
    "put",
    "record",
    "return",
    "rule",
    "ruleset",
    "scalarset",
    "startstate",
    "switch",
    "then",
    "to",
    "traceuntil",
    "true",
    "type",
    "undefine",
    "union",
    "var",
    "while",
    "ismember",
    "multisetadd",
    "multisetcount",
    "multisetremove",
    "multisetremovepred",
    "choose",
    "endchoose",
    "liveness",
    "cover",
    "assume",
    "property",
    "undefined",
];

/// Longest first, so that `:=` is not read as `:`.
const PUNCT: &[&str] = &[
    "==>", ":=", "..", "->", "!=", "<=", ">=", "&&", "||", "<<", ">>", "(", ")", "[", "]", "{",
    "}", ";", ":", ",", ".", "=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "!", "?", "^", "~",
];

/// Rumur's Unicode spellings of operators, and their ASCII meaning.
const UNICODE: &[(char, &str)] = &[
    ('∧', "&"),
    ('∨', "|"),
    ('¬', "!"),
    ('≤', "<="),
    ('≥', ">="),
    ('≠', "!="),
    ('→', "->"),
    ('÷', "/"),
    ('×', "*"),
    ('−', "-"),
    ('∕', "/"),
    ('≔', ":="),
];

/// Splits `text` into tokens (the last one is [`Tok::Eof`]).
pub fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut steps = 0u64;
    while i < bytes.len() {
        // A huge file (tens of megabytes) stops with the run.
        steps += 1;
        if workers::budget::tripped_every(steps).is_some() {
            return Err(Diagnostic::error(Span::new(i, i), "stopped"));
        }
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if text[i..].starts_with("--") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            let start = i;
            match text[i + 2..].find("*/") {
                Some(end) => i += 2 + end + 2,
                None => {
                    return Err(Diagnostic::error(
                        Span::new(start, start + 2),
                        "this comment is never closed (expected `*/`)",
                    ));
                }
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let lower = word.to_ascii_lowercase();
            let tok = match KEYWORDS.iter().find(|k| **k == lower) {
                Some(k) => Tok::Keyword(k),
                None => Tok::Ident(word.to_string()),
            };
            out.push(Token {
                tok,
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                let mut end = i + 1;
                while end < bytes.len() && bytes[end].is_ascii_digit() {
                    end += 1;
                }
                return Err(Diagnostic::error(
                    Span::new(start, end),
                    format!(
                        "not supported yet: real numbers (`{}`, CMurphi's `real` types)",
                        &text[start..end]
                    ),
                ));
            }
            let digits = &text[start..i];
            // A leading 0 means octal, `0x` hexadecimal (as in C and Rumur).
            let (radix, body) = if let Some(hex) = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                (16, hex)
            } else if digits.len() > 1 && digits.starts_with('0') {
                (8, &digits[1..])
            } else {
                (10, digits)
            };
            let value = i64::from_str_radix(body, radix).map_err(|_| {
                Diagnostic::error(
                    Span::new(start, i),
                    format!("`{digits}` is not a base-{radix} integer that fits in 64 bits"),
                )
            })?;
            out.push(Token {
                tok: Tok::Int(value),
                span: Span::new(start, i),
            });
            continue;
        }
        // Strings, also between typographic quotes (Rumur reads both).
        let smart = text[i..].starts_with('“');
        if c == b'"' || smart {
            let close = if smart { '”' } else { '"' };
            i += if smart { '“'.len_utf8() } else { 1 };
            let mut value = String::new();
            while i < bytes.len() && !text[i..].starts_with(close) {
                let ch = text[i..].chars().next().unwrap_or('?');
                if ch == '\\' && i + 1 < bytes.len() {
                    let next = text[i + 1..].chars().next().unwrap_or('?');
                    value.push(next);
                    i += 1 + next.len_utf8();
                    continue;
                }
                value.push(ch);
                i += ch.len_utf8();
            }
            if i >= bytes.len() {
                return Err(Diagnostic::error(
                    Span::new(start, start + 1),
                    "this string is never closed (expected `\"`)",
                ));
            }
            i += close.len_utf8();
            out.push(Token {
                tok: Tok::Str(value),
                span: Span::new(start, i),
            });
            continue;
        }
        if let Some(&(ch, ascii)) = UNICODE.iter().find(|(ch, _)| text[i..].starts_with(*ch)) {
            let p = PUNCT.iter().find(|p| **p == ascii).copied().unwrap_or("?");
            i += ch.len_utf8();
            out.push(Token {
                tok: Tok::Punct(p),
                span: Span::new(start, i),
            });
            continue;
        }
        match PUNCT.iter().find(|p| text[i..].starts_with(**p)) {
            Some(p) => {
                i += p.len();
                out.push(Token {
                    tok: Tok::Punct(p),
                    span: Span::new(start, i),
                });
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(Diagnostic::error(
                    Span::new(start, start + ch.len_utf8()),
                    format!("unexpected character `{ch}`"),
                ));
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::new(bytes.len(), bytes.len()),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_ignore_case_and_comments_are_skipped() {
        let toks: Vec<Tok> = lex("VAR x : Boolean; -- c\n/* d */ x := 10 ==> \"r\"")
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect();
        assert_eq!(
            toks,
            vec![
                Tok::Keyword("var"),
                Tok::Ident("x".into()),
                Tok::Punct(":"),
                Tok::Keyword("boolean"),
                Tok::Punct(";"),
                Tok::Ident("x".into()),
                Tok::Punct(":="),
                Tok::Int(10),
                Tok::Punct("==>"),
                Tok::Str("r".into()),
                Tok::Eof,
            ]
        );
        assert!(lex("/* open").is_err());
        assert_eq!(
            lex("010 0x1f").unwrap()[..2]
                .iter()
                .map(|t| t.tok.clone())
                .collect::<Vec<_>>(),
            vec![Tok::Int(8), Tok::Int(31)]
        );
        assert!(lex("09").is_err());
        assert_eq!(lex("\"a\\\"b\"").unwrap()[0].tok, Tok::Str("a\"b".into()));
        assert_eq!(lex("a ∧ b").unwrap()[1].tok, Tok::Punct("&"));
        assert!(lex("x # y").is_err());
    }
}
