//! Lexer for classical B in ProB's ASCII syntax.
//!
//! The lexer turns the text of a machine into a vector of [`Token`]s ending
//! with [`TokenKind::Eof`]. Operators are recognised by longest match, which
//! is what B's many overlapping symbols need: `<--` (operation outputs) wins
//! over `<-` (append) and `<` (less than), `-->>` over `-->` over `->` over
//! `-`, `|->` over `|>` over `||` over `|`, and so on. Comments (`/* ... */`
//! and `// ...`) and white space are skipped. Reserved words that shape the
//! grammar (clause names, substitution keywords, `or`, `not`, `mod`) become
//! [`TokenKind::Keyword`]; built-in names such as `card` or `NAT` stay
//! identifiers and the expression parser recognises them.

use crate::diag::{Diagnostic, Span};

/// One lexical token.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Where it was written. Tokens produced by expanding a definition keep
    /// the span of the definition body they were copied from.
    pub span: Span,
    /// 0 for tokens read from the file; otherwise the index of the
    /// definition expansion that produced the token (set by the parser).
    pub origin: u32,
    /// Whether the parser made this token up: the parentheses it puts around
    /// an expanded definition body. Their span is the whole use site.
    pub synthetic: bool,
}

/// The kinds of tokens.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An identifier, including built-in names such as `card` or `NAT`.
    /// `x$0` is one identifier.
    Ident(String),
    /// A non-negative integer literal.
    Int(i64),
    /// A non-negative integer literal beyond 64 bits.
    BigInt(num_bigint::BigInt),
    /// A string literal, with escapes resolved.
    Str(String),
    /// A reserved word.
    Keyword(Keyword),
    /// An operator or punctuation symbol.
    Sym(Sym),
    /// The end of the input.
    Eof,
}

impl TokenKind {
    /// How the token is shown in error messages, e.g. `` `THEN` `` or
    /// `end of file`.
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Ident(name) => format!("`{name}`"),
            TokenKind::Int(n) => format!("`{n}`"),
            TokenKind::BigInt(n) => format!("`{n}`"),
            TokenKind::Str(_) => "a string literal".to_string(),
            TokenKind::Keyword(k) => format!("`{}`", k.text()),
            TokenKind::Sym(s) => format!("`{}`", s.text()),
            TokenKind::Eof => "end of file".to_string(),
        }
    }
}

macro_rules! keywords {
    ($($variant:ident => $text:literal,)*) => {
        /// Reserved words of the B grammar.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Keyword {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )*
        }

        impl Keyword {
            /// The word as written.
            pub fn text(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $text,)*
                }
            }

            /// The keyword spelled `word`, if any.
            pub fn from_word(word: &str) -> Option<Keyword> {
                match word {
                    $($text => Some(Keyword::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

keywords! {
    Machine => "MACHINE",
    Model => "MODEL",
    System => "SYSTEM",
    Refinement => "REFINEMENT",
    Implementation => "IMPLEMENTATION",
    Refines => "REFINES",
    Constraints => "CONSTRAINTS",
    Sets => "SETS",
    Constants => "CONSTANTS",
    ConcreteConstants => "CONCRETE_CONSTANTS",
    AbstractConstants => "ABSTRACT_CONSTANTS",
    VisibleConstants => "VISIBLE_CONSTANTS",
    Properties => "PROPERTIES",
    Variables => "VARIABLES",
    ConcreteVariables => "CONCRETE_VARIABLES",
    AbstractVariables => "ABSTRACT_VARIABLES",
    VisibleVariables => "VISIBLE_VARIABLES",
    Invariant => "INVARIANT",
    Assertions => "ASSERTIONS",
    Initialisation => "INITIALISATION",
    Initialization => "INITIALIZATION",
    Operations => "OPERATIONS",
    Events => "EVENTS",
    Definitions => "DEFINITIONS",
    Includes => "INCLUDES",
    Sees => "SEES",
    Uses => "USES",
    Extends => "EXTENDS",
    Promotes => "PROMOTES",
    Imports => "IMPORTS",
    Values => "VALUES",
    LocalOperations => "LOCAL_OPERATIONS",
    End => "END",
    Begin => "BEGIN",
    Skip => "skip",
    Pre => "PRE",
    Assert => "ASSERT",
    Select => "SELECT",
    When => "WHEN",
    Else => "ELSE",
    If => "IF",
    Then => "THEN",
    Elsif => "ELSIF",
    Case => "CASE",
    Of => "OF",
    Either => "EITHER",
    OrChoice => "OR",
    Choice => "CHOICE",
    Any => "ANY",
    Where => "WHERE",
    Let => "LET",
    Be => "BE",
    In => "IN",
    Var => "VAR",
    While => "WHILE",
    Do => "DO",
    Variant => "VARIANT",
    Or => "or",
    Not => "not",
    Mod => "mod",
}

impl Keyword {
    /// Whether the keyword starts a clause of a machine (or ends it: `END`
    /// is not included).
    pub fn is_clause(self) -> bool {
        use Keyword::*;
        matches!(
            self,
            Machine
                | Model
                | System
                | Refinement
                | Implementation
                | Refines
                | Constraints
                | Sets
                | Constants
                | ConcreteConstants
                | AbstractConstants
                | VisibleConstants
                | Properties
                | Variables
                | ConcreteVariables
                | AbstractVariables
                | VisibleVariables
                | Invariant
                | Assertions
                | Initialisation
                | Initialization
                | Operations
                | Events
                | Definitions
                | Includes
                | Sees
                | Uses
                | Extends
                | Promotes
                | Imports
                | Values
                | LocalOperations
        )
    }
}

macro_rules! symbols {
    ($($variant:ident => $text:literal,)*) => {
        /// Operators and punctuation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Sym {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )*
        }

        impl Sym {
            /// The symbol as written.
            pub fn text(self) -> &'static str {
                match self {
                    $(Sym::$variant => $text,)*
                }
            }
        }

        /// Every symbol, longest first, for longest-match lexing.
        const SYMBOLS: &[(&str, Sym)] = &[$(($text, Sym::$variant),)*];
    };
}

// Longest symbols first: the lexer takes the first entry that matches.
symbols! {
    NotStrictSubset => "/<<:",
    TotalBijection => ">->>",
    PartialSurjection => "+->>",
    TotalSurjection => "-->>",
    PartialBijection => ">+>>",
    Equiv => "<=>",
    Relation => "<->",
    PartialFunction => "+->",
    TotalFunction => "-->",
    PartialInjection => ">+>",
    TotalInjection => ">->",
    StrictSubset => "<<:",
    NotSubset => "/<:",
    DomainSubtraction => "<<|",
    RangeSubtraction => "|>>",
    Maplet => "|->",
    OutputArrow => "<--",
    TakeFront => "/|\\",
    DropFront => "\\|/",
    Assign => ":=",
    BecomesIn => "::",
    DefEq => "==",
    Implies => "=>",
    Neq => "/=",
    NotMember => "/:",
    Inter => "/\\",
    Union => "\\/",
    Subset => "<:",
    Le => "<=",
    Ge => ">=",
    DomainRestriction => "<|",
    RangeRestriction => "|>",
    Override => "<+",
    DirectProduct => "><",
    EmptySeq => "<>",
    Append => "<-",
    Prepend => "->",
    Parallel => "||",
    Power => "**",
    Interval => "..",
    LParen => "(",
    RParen => ")",
    LBracket => "[",
    RBracket => "]",
    LBrace => "{",
    RBrace => "}",
    Comma => ",",
    Semicolon => ";",
    Bar => "|",
    Dot => ".",
    Colon => ":",
    Eq => "=",
    Lt => "<",
    Gt => ">",
    Plus => "+",
    Minus => "-",
    Star => "*",
    Slash => "/",
    Caret => "^",
    Tilde => "~",
    Bang => "!",
    Hash => "#",
    Percent => "%",
    Amp => "&",
    SetMinus => "\\",
    Quote => "'",
}

/// ProB's Unicode notation and the ASCII it stands for; two-character
/// forms (`ℕ₁`) come before their one-character prefixes.
const UNICODE_OPERATORS: &[(&str, &str)] = &[
    ("ℕ₁", "NATURAL1"),
    ("ℕ1", "NATURAL1"),
    ("ℙ₁", "POW1"),
    ("ℙ1", "POW1"),
    ("⁻¹", "~"),
    ("∧", "&"),
    ("∨", "or"),
    ("¬", "not"),
    ("⇒", "=>"),
    ("⇔", "<=>"),
    ("∀", "!"),
    ("∃", "#"),
    ("λ", "%"),
    ("·", "."),
    ("∈", ":"),
    ("∉", "/:"),
    ("⊆", "<:"),
    ("⊂", "<<:"),
    ("⊈", "/<:"),
    ("⊄", "/<<:"),
    ("≠", "/="),
    ("≤", "<="),
    ("≥", ">="),
    ("∪", "\\/"),
    ("∩", "/\\"),
    ("∅", "{}"),
    ("×", "*"),
    ("ℕ", "NATURAL"),
    ("ℤ", "INTEGER"),
    ("ℙ", "POW"),
    ("↦", "|->"),
    ("↔", "<->"),
    ("→", "-->"),
    ("⇸", "+->"),
    ("↣", ">->"),
    ("⤔", ">+>"),
    ("↠", "-->>"),
    ("⤀", "+->>"),
    ("⤖", ">->>"),
    ("◁", "<|"),
    ("⩤", "<<|"),
    ("▷", "|>"),
    ("⩥", "|>>"),
    ("\u{E103}", "<+"),
    ("⊕", "<+"),
    ("⋖", "<+"),
    ("⊗", "><"),
    ("∼", "~"),
    ("‥", ".."),
    ("≔", ":="),
    ("∣", "|"),
    ("−", "-"),
    ("⋃", "UNION"),
    ("⋂", "INTER"),
    ("Σ", "SIGMA"),
    ("Π", "PI"),
    ("↑", "/|\\"),
    ("↓", "\\|/"),
    ("⌢", "^"),
    ("⌒", "^"),
];

/// The length and ASCII form of the Unicode operator `rest` starts with.
fn unicode_operator(rest: &str) -> Option<(usize, &'static str)> {
    UNICODE_OPERATORS
        .iter()
        .find(|(u, _)| rest.starts_with(u))
        .map(|&(u, ascii)| (u.len(), ascii))
}

/// Splits `text` into tokens, ending with one [`TokenKind::Eof`] token.
/// A byte-order mark and a first line starting with `#!` (a machine run as
/// a script, as ProB allows) are skipped.
///
/// Errors: an unexpected character, an unterminated comment or string, or
/// an integer literal that does not fit in an `i64`.
pub fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut pos = if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    if text[pos..].starts_with("#!") {
        pos = text[pos..].find('\n').map_or(text.len(), |end| pos + end);
    }
    let mut lexer = Lexer {
        text,
        pos,
        tokens: Vec::with_capacity(text.len() / 3),
        last_comment_end: None,
    };
    lexer.run()?;
    Ok(lexer.tokens)
}

struct Lexer<'t> {
    text: &'t str,
    pos: usize,
    tokens: Vec<Token>,
    /// Where the last `/* ... */` comment ended, for a hint when a comment
    /// was closed earlier than its author meant.
    last_comment_end: Option<usize>,
}

impl Lexer<'_> {
    fn run(&mut self) -> Result<(), Diagnostic> {
        loop {
            self.skip_blanks_and_comments()?;
            let start = self.pos;
            let rest = &self.text[start..];
            let Some(c) = rest.chars().next() else {
                self.push(TokenKind::Eof, start);
                return Ok(());
            };
            if c.is_ascii_alphabetic() {
                self.identifier();
            } else if c.is_ascii_digit() {
                self.integer()?;
            } else if c == '"' {
                self.string("\"")?;
            } else if rest.starts_with("'''") {
                // ProB's multi-line string literal.
                self.string("'''")?;
            } else if let Some(&(text, sym)) = SYMBOLS
                .iter()
                .find(|(s, _)| s.as_bytes().first() == Some(&(c as u8)) && rest.starts_with(s))
            {
                self.pos += text.len();
                self.push(TokenKind::Sym(sym), start);
            } else if let Some((len, ascii)) = unicode_operator(rest) {
                // ProB's Unicode syntax: the same tokens as the ASCII form,
                // spanning the Unicode text.
                let tokens = lex(ascii)?;
                self.pos += len;
                for t in tokens {
                    if t.kind != TokenKind::Eof {
                        self.push(t.kind, start);
                    }
                }
            } else {
                let span = Span::new(start, start + c.len_utf8());
                let mut d = Diagnostic::error(span, format!("unexpected character `{c}`"));
                if !c.is_ascii() {
                    d = d.with_note(
                        "only ProB's ASCII syntax of B is supported (no Unicode operators)",
                    );
                }
                let after_comment = self
                    .last_comment_end
                    .and_then(|end| self.text.get(end..start));
                if after_comment.is_some_and(|gap| !gap.contains('\n')) {
                    d = d.with_note(
                        "a comment was closed by the `*/` just before this; B comments do not nest",
                    );
                }
                return Err(d);
            }
        }
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.tokens.push(Token {
            kind,
            span: Span::new(start, self.pos),
            origin: 0,
            synthetic: false,
        });
    }

    fn skip_blanks_and_comments(&mut self) -> Result<(), Diagnostic> {
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if let Some(comment) = trimmed.strip_prefix("/*") {
                match comment.find("*/") {
                    Some(end) => {
                        self.pos += end + 4;
                        self.last_comment_end = Some(self.pos);
                    }
                    None => {
                        return Err(Diagnostic::error(
                            Span::new(self.pos, self.pos + 2),
                            "unterminated comment: `/*` has no closing `*/`",
                        ));
                    }
                }
            } else if trimmed.starts_with("//") {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return Ok(());
            }
        }
    }

    fn identifier(&mut self) {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut end = start;
        let word_end = |mut end: usize| {
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            end
        };
        end = word_end(end);
        // A renamed name `r.x` (a variable or operation of the machine
        // included as `r.M`) is one identifier: a `.` between two names that
        // are not keywords, without spaces; but not right after `!`, `#` or
        // `%`, where `x.` ends the bound variable (`!x.(P => Q)`).
        let binder = matches!(
            self.tokens.last().map(|t| &t.kind),
            Some(TokenKind::Sym(Sym::Bang | Sym::Hash | Sym::Percent))
        );
        while !binder
            && Keyword::from_word(&self.text[start..end]).is_none()
            && bytes.get(end) == Some(&b'.')
            && bytes.get(end + 1).is_some_and(|b| b.is_ascii_alphabetic())
        {
            let next = word_end(end + 1);
            if Keyword::from_word(&self.text[end + 1..next]).is_some() {
                break;
            }
            end = next;
        }
        // `x$0` names the value of `x` before a becomes-such-that substitution.
        if self.text[end..].starts_with("$0") {
            end += 2;
        }
        self.pos = end;
        let word = &self.text[start..end];
        let kind = match Keyword::from_word(word) {
            Some(k) => TokenKind::Keyword(k),
            None => TokenKind::Ident(word.to_string()),
        };
        self.push(kind, start);
    }

    fn integer(&mut self) -> Result<(), Diagnostic> {
        let start = self.pos;
        // ProB's hexadecimal literals: `0x1F`.
        let rest = &self.text[start..];
        if (rest.starts_with("0x") || rest.starts_with("0X"))
            && rest[2..]
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_hexdigit())
        {
            let digits = rest[2..].bytes().take_while(u8::is_ascii_hexdigit).count();
            self.pos += 2 + digits;
            let text = &self.text[start..self.pos];
            let kind = match i64::from_str_radix(&text[2..], 16) {
                Ok(value) => TokenKind::Int(value),
                Err(_) => TokenKind::BigInt(
                    num_bigint::BigInt::parse_bytes(&text.as_bytes()[2..], 16)
                        .expect("hexadecimal digits"),
                ),
            };
            self.push(kind, start);
            return Ok(());
        }
        let digits = self.text[start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        self.pos += digits;
        let text = &self.text[start..self.pos];
        let kind = match text.parse::<i64>() {
            Ok(value) => TokenKind::Int(value),
            Err(_) => TokenKind::BigInt(text.parse().expect("decimal digits")),
        };
        self.push(kind, start);
        Ok(())
    }

    /// A string literal between `quote`s (`"` or ProB's `'''`), with
    /// backslash escapes resolved.
    fn string(&mut self, quote: &str) -> Result<(), Diagnostic> {
        let start = self.pos;
        let body = start + quote.len();
        let mut value = String::new();
        let mut chars = self.text[body..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                _ if self.text[body + i..].starts_with(quote) => {
                    self.pos = body + i + quote.len();
                    self.push(TokenKind::Str(value), start);
                    return Ok(());
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => value.push('\n'),
                    Some((_, 't')) => value.push('\t'),
                    Some((_, 'r')) => value.push('\r'),
                    Some((_, other)) => value.push(other),
                    None => break,
                },
                other => value.push(other),
            }
        }
        Err(Diagnostic::error(
            Span::new(start, start + 1),
            "unterminated string literal",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        lex(text).unwrap().into_iter().map(|t| t.kind).collect()
    }

    fn syms(text: &str) -> Vec<Sym> {
        kinds(text)
            .into_iter()
            .filter_map(|k| match k {
                TokenKind::Sym(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn longest_match_separates_overlapping_operators() {
        assert_eq!(syms("<-- <- <-> < <= <=> <: <<: <<| <|"), {
            use Sym::*;
            vec![
                OutputArrow,
                Append,
                Relation,
                Lt,
                Le,
                Equiv,
                Subset,
                StrictSubset,
                DomainSubtraction,
                DomainRestriction,
            ]
        });
        assert_eq!(syms("- --> -->> -> | || |-> |> |>>"), {
            use Sym::*;
            vec![
                Minus,
                TotalFunction,
                TotalSurjection,
                Prepend,
                Bar,
                Parallel,
                Maplet,
                RangeRestriction,
                RangeSubtraction,
            ]
        });
        assert_eq!(syms("/ /= /: /\\ /<: /<<: /|\\ \\|/ * **"), {
            use Sym::*;
            vec![
                Slash,
                Neq,
                NotMember,
                Inter,
                NotSubset,
                NotStrictSubset,
                TakeFront,
                DropFront,
                Star,
                Power,
            ]
        });
        assert_eq!(syms("a-->>b"), vec![Sym::TotalSurjection]);
        assert_eq!(
            kinds("0x1F 0X10 0"),
            vec![
                TokenKind::Int(31),
                TokenKind::Int(16),
                TokenKind::Int(0),
                TokenKind::Eof
            ]
        );
        assert_eq!(
            syms("<> \\ \\/"),
            vec![Sym::EmptySeq, Sym::SetMinus, Sym::Union]
        );
        assert_eq!(syms("1..n"), vec![Sym::Interval]);
    }

    #[test]
    fn keywords_identifiers_and_literals() {
        assert_eq!(
            kinds("IF x$0 or not THEN 42 \"a\\\"b\""),
            vec![
                TokenKind::Keyword(Keyword::If),
                TokenKind::Ident("x$0".into()),
                TokenKind::Keyword(Keyword::Or),
                TokenKind::Keyword(Keyword::Not),
                TokenKind::Keyword(Keyword::Then),
                TokenKind::Int(42),
                TokenKind::Str("a\"b".into()),
                TokenKind::Eof,
            ]
        );
    }

    #[test]
    fn triple_quoted_strings_span_lines_and_keep_double_quotes() {
        assert_eq!(
            kinds("'''\"''' = '''a\nb\\'c''' r'f"),
            vec![
                TokenKind::Str("\"".into()),
                TokenKind::Sym(Sym::Eq),
                TokenKind::Str("a\nb'c".into()),
                TokenKind::Ident("r".into()),
                TokenKind::Sym(Sym::Quote),
                TokenKind::Ident("f".into()),
                TokenKind::Eof,
            ]
        );
    }

    #[test]
    fn comments_are_skipped() {
        assert_eq!(
            kinds("a /* b \n c */ d // e\n f"),
            vec![
                TokenKind::Ident("a".into()),
                TokenKind::Ident("d".into()),
                TokenKind::Ident("f".into()),
                TokenKind::Eof,
            ]
        );
    }

    #[test]
    fn a_byte_order_mark_and_a_shebang_line_are_skipped() {
        let first = |text: &str| {
            let token = lex(text).unwrap().swap_remove(0);
            (token.kind, token.span)
        };
        let ident = |at| (TokenKind::Ident("MACHINE_".into()), Span::new(at, at + 8));
        assert_eq!(first("\u{feff}MACHINE_"), ident(3));
        assert_eq!(first("#! /usr/bin/probcli\nMACHINE_"), ident(20));
        assert_eq!(first("\u{feff}#!x\nMACHINE_"), ident(7));
        assert_eq!(kinds("#!x"), vec![TokenKind::Eof]);
        // Elsewhere `#` is the existential quantifier.
        assert_eq!(kinds("x\n#!"), kinds("x #!"));
    }

    #[test]
    fn errors_point_at_the_offending_text() {
        // Integers are unbounded: a long literal is no error.
        assert_eq!(
            kinds("99999999999999999999 0x1F")[..2],
            [
                TokenKind::BigInt("99999999999999999999".parse().unwrap()),
                TokenKind::Int(31)
            ]
        );
        let e = lex("a /* open").unwrap_err();
        assert_eq!(e.span.start, 2);
        let e = lex("a \"open").unwrap_err();
        assert_eq!(e.span.start, 2);
        let e = lex("a @ b").unwrap_err();
        assert_eq!(e.message, "unexpected character `@`");
        assert!(e.notes.is_empty());
        // A `*/` inside a comment closes it; the rest is read as B.
        let e = lex("/* see `/* x */` below */").unwrap_err();
        assert_eq!(e.span, Span::new(15, 16));
        assert!(
            e.notes[0].contains("B comments do not nest"),
            "{:?}",
            e.notes
        );
        let e = lex("a ⊛ b").unwrap_err();
        assert_eq!(e.span, Span::new(2, 5));
        // ProB's Unicode operators are tokens spanning their text.
        let toks = lex("a ∈ b").unwrap();
        assert_eq!(toks[1].kind, TokenKind::Sym(Sym::Colon));
        assert_eq!(toks[1].span, Span::new(2, 5));
        // Both override signs and both concatenation arcs ProB's editors write.
        for (text, ascii) in [
            ("f ⋖ g", "<+"),
            ("f ⊕ g", "<+"),
            ("s ⌒ t", "^"),
            ("s ⌢ t", "^"),
        ] {
            let toks = lex(text).unwrap();
            assert_eq!(toks[1].kind, lex(ascii).unwrap()[0].kind, "{text}");
        }
    }

    #[test]
    fn spans_cover_the_token_text() {
        let toks = lex("ab  <--c").unwrap();
        assert_eq!(toks[0].span, Span::new(0, 2));
        assert_eq!(toks[1].span, Span::new(4, 7));
        assert_eq!(toks[2].span, Span::new(7, 8));
        assert_eq!(toks[3].span, Span::new(8, 8));
    }
}
