//! The `DEFINITIONS` clause: collecting and checking definitions.
//!
//! Definitions are macros, as in ProB and Atelier B (see [`super::expand`]
//! for their expansion). Because B's clause order is free, every
//! `DEFINITIONS` clause is collected from the token vector before the
//! machine is parsed: each definition is `Name == body` or
//! `Name(p1, ..., pn) == body`, separated by `;`. A body is a run of tokens;
//! it ends at a `;` (outside brackets and `BEGIN ... END`-like blocks) that
//! is followed by the start of another definition, a clause keyword or the
//! machine's `END`. So substitution bodies may contain `;` sequencing.
//!
//! Each body is then checked on its own: it must parse as an expression, a
//! predicate or a substitution (as ProB demands). This also detects
//! recursive definitions early.

use super::Parser;
use super::expand::DefInfo;
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{Definition, Ident};
use crate::frontends::b::lexer::{Keyword, Sym, Token, TokenKind};

/// Whether the token at `i` of `tokens` starts a definition:
/// `Name ==` or `Name(p, ...) ==`, or a `"file.def"` include.
fn starts_definition(tokens: &[Token], i: usize) -> bool {
    let kind = |j: usize| tokens.get(j).map(|t| &t.kind);
    match kind(i) {
        Some(TokenKind::Str(_)) => true,
        Some(TokenKind::Ident(_)) => match kind(i + 1) {
            Some(TokenKind::Sym(Sym::DefEq)) => true,
            Some(TokenKind::Sym(Sym::LParen)) => {
                let mut j = i + 2;
                loop {
                    match kind(j) {
                        Some(TokenKind::Ident(_)) => j += 1,
                        _ => return false,
                    }
                    match kind(j) {
                        Some(TokenKind::Sym(Sym::Comma)) => j += 1,
                        Some(TokenKind::Sym(Sym::RParen)) => {
                            return kind(j + 1) == Some(&TokenKind::Sym(Sym::DefEq));
                        }
                        _ => return false,
                    }
                }
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether `kw` opens a block closed by `END`, given the innermost open
/// block (`WHEN` opens one only outside `SELECT`).
fn opens_block(kw: Keyword, innermost: Option<Keyword>) -> bool {
    use Keyword::*;
    match kw {
        Begin | Pre | Assert | Select | Case | Either | Choice | Any | Let | Var | If | While => {
            true
        }
        When => innermost != Some(Select),
        _ => false,
    }
}

/// Finds the end of the definition body starting at `start`: the index of
/// the separating `;`, or of the clause keyword, `END` or `Eof` that ends
/// the clause.
fn body_end(tokens: &[Token], start: usize) -> usize {
    let mut brackets = 0usize;
    let mut blocks: Vec<Keyword> = Vec::new();
    let mut i = start;
    while let Some(t) = tokens.get(i) {
        match &t.kind {
            TokenKind::Eof => return i,
            TokenKind::Sym(Sym::LParen | Sym::LBracket | Sym::LBrace) => brackets += 1,
            TokenKind::Sym(Sym::RParen | Sym::RBracket | Sym::RBrace) => {
                brackets = brackets.saturating_sub(1)
            }
            // `END` closes the innermost block (the guard pops it), or ends the
            // clause when no block is open.
            TokenKind::Keyword(Keyword::End) if blocks.pop().is_none() => return i,
            TokenKind::Keyword(kw) if kw.is_clause() && blocks.is_empty() && brackets == 0 => {
                return i;
            }
            TokenKind::Keyword(kw) if opens_block(*kw, blocks.last().copied()) => blocks.push(*kw),
            TokenKind::Sym(Sym::Semicolon) if brackets == 0 && blocks.is_empty() => {
                let next = tokens.get(i + 1).map(|t| &t.kind);
                let ends_clause = match next {
                    Some(TokenKind::Keyword(k)) => k.is_clause() || *k == Keyword::End,
                    Some(TokenKind::Eof) | None => true,
                    _ => false,
                };
                if ends_clause || starts_definition(tokens, i + 1) {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    tokens.len().saturating_sub(1)
}

impl Parser<'_> {
    /// Collects every `DEFINITIONS` clause of the file and checks each
    /// body on its own.
    pub(super) fn collect_definitions(&mut self) -> Result<(), Diagnostic> {
        let starts: Vec<usize> = self
            .tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| t.kind == TokenKind::Keyword(Keyword::Definitions))
            .map(|(i, _)| i)
            .collect();
        for start in starts {
            let end = self.definitions_clause(start + 1)?;
            self.defs.clause_ends.insert(start, end);
        }
        for def in 0..self.defs.defs.len() {
            self.check_definition_body(def)?;
        }
        Ok(())
    }

    /// Reads the definitions of one clause starting at token index `i`;
    /// returns the index just past the clause.
    fn definitions_clause(&mut self, mut i: usize) -> Result<usize, Diagnostic> {
        // An empty clause.
        if let Some(TokenKind::Keyword(k)) = self.tokens.get(i).map(|t| &t.kind)
            && (k.is_clause() || *k == Keyword::End)
        {
            return Ok(i);
        }
        loop {
            let Some(first) = self.tokens.get(i).cloned() else {
                return Ok(i);
            };
            let name = match first.kind {
                TokenKind::Ident(name) => Ident {
                    name,
                    span: first.span,
                },
                TokenKind::Str(ref file) => {
                    return Err(
                        self.unsupported(&first, &format!("definition file include \"{file}\""))
                    );
                }
                _ => {
                    let found = first.kind.describe();
                    return Err(
                        self.error_at(&first, format!("expected a definition, found {found}"))
                    );
                }
            };
            i += 1;
            let mut params = Vec::new();
            if self.tokens.get(i).map(|t| &t.kind) == Some(&TokenKind::Sym(Sym::LParen)) {
                i += 1;
                loop {
                    match self.tokens.get(i).cloned() {
                        Some(Token {
                            kind: TokenKind::Ident(p),
                            span,
                            ..
                        }) => {
                            params.push(Ident { name: p, span });
                            i += 1;
                        }
                        Some(t) => {
                            return Err(self.error_at(
                                &t,
                                format!("expected a parameter name, found {}", t.kind.describe()),
                            ));
                        }
                        None => return Ok(i),
                    }
                    match self.tokens.get(i).cloned() {
                        Some(t) if t.kind == TokenKind::Sym(Sym::Comma) => i += 1,
                        Some(t) if t.kind == TokenKind::Sym(Sym::RParen) => {
                            i += 1;
                            break;
                        }
                        Some(t) => {
                            return Err(self.error_at(
                                &t,
                                format!("expected `,` or `)`, found {}", t.kind.describe()),
                            ));
                        }
                        None => return Ok(i),
                    }
                }
            }
            match self.tokens.get(i).cloned() {
                Some(t) if t.kind == TokenKind::Sym(Sym::DefEq) => i += 1,
                Some(t) => {
                    return Err(
                        self.error_at(&t, format!("expected `==`, found {}", t.kind.describe()))
                    );
                }
                None => return Ok(i),
            }
            let end = body_end(&self.tokens, i);
            let Some(body) = self
                .tokens
                .get(i..end)
                .map(<[Token]>::to_vec)
                .filter(|b| !b.is_empty())
            else {
                let t = self
                    .tokens
                    .get(end)
                    .cloned()
                    .unwrap_or_else(|| super::EOF_TOKEN.clone());
                return Err(self.error_at(
                    &t,
                    format!("expected a definition body, found {}", t.kind.describe()),
                ));
            };
            let last = body.last().map_or(name.span, |t| t.span);
            let span = name.span.to(last);
            if let Some(&previous) = self.defs.by_name.get(&name.name) {
                let earlier = self
                    .defs
                    .defs
                    .get(previous)
                    .map_or(name.span, |d| d.name.span);
                return Err(Diagnostic::error(
                    name.span,
                    format!("definition `{}` is defined twice", name.name),
                )
                .with_note(format!("first defined at {}", self.file.location(earlier))));
            }
            self.defs
                .by_name
                .insert(name.name.clone(), self.defs.defs.len());
            self.defs.defs.push(DefInfo {
                name,
                params,
                body,
                span,
            });
            i = end;
            match self.tokens.get(i).map(|t| &t.kind) {
                Some(TokenKind::Sym(Sym::Semicolon)) => {
                    i += 1;
                    if !starts_definition(&self.tokens, i) {
                        return Ok(i);
                    }
                }
                _ => return Ok(i),
            }
        }
    }

    /// Checks that a body parses as an expression, predicate or
    /// substitution on its own (parameters are plain identifiers).
    fn check_definition_body(&mut self, def: usize) -> Result<(), Diagnostic> {
        let as_expr = self.parse_definition_body(def, |p| p.expr().map(drop));
        let Err(expr_error) = as_expr else {
            return Ok(());
        };
        let as_subst = self.parse_definition_body(def, |p| p.subst().map(drop));
        let Err(subst_error) = as_subst else {
            return Ok(());
        };
        // A list of names, for a declaration clause (`VARIABLES Vars`).
        if self
            .parse_definition_body(def, |p| p.ident_list().map(drop))
            .is_ok()
        {
            return Ok(());
        }
        // Report the attempt that got further.
        Err(if subst_error.span.start > expr_error.span.start {
            subst_error
        } else {
            expr_error
        })
    }

    /// Parses the body of definition `def` alone with `parse`, which must
    /// consume all of it.
    pub(super) fn parse_definition_body<T>(
        &mut self,
        def: usize,
        parse: impl FnOnce(&mut Self) -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        let Some(info) = self.defs.defs.get(def) else {
            return Err(Diagnostic::error(Span::default(), "unknown definition"));
        };
        let mut body = info.body.clone();
        let end = body.last().map_or(info.span, |t| t.span);
        let origin = self.defs.record(def, 0, None);
        for t in &mut body {
            t.origin = origin;
        }
        body.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(end.end as usize, end.end as usize),
            origin,
            synthetic: false,
        });
        self.parse_tokens(body, parse)
    }

    /// Parses `tokens` (ending with `Eof`) on their own with `parse`, to
    /// their end, and comes back to where the parser was.
    fn parse_tokens<T>(
        &mut self,
        tokens: Vec<Token>,
        parse: impl FnOnce(&mut Self) -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        let saved_tokens = std::mem::replace(&mut self.tokens, tokens);
        let saved_pos = std::mem::replace(&mut self.pos, 0);
        let saved_pending = std::mem::take(&mut self.pending);
        let saved_depth = std::mem::replace(&mut self.depth, 0);
        let saved_shadowed = std::mem::take(&mut self.shadowed);
        let result = parse(self).and_then(|value| {
            self.expect_eof()?;
            Ok(value)
        });
        self.shadowed = saved_shadowed;
        self.tokens = saved_tokens;
        self.pos = saved_pos;
        self.pending = saved_pending;
        self.depth = saved_depth;
        result
    }

    /// Parses `text` (an LTL formula's predicate atom) with `parse`, the
    /// machine's definitions in scope. When the text stands at byte `base`
    /// of the file its tokens keep their places there; else they all stand
    /// at `at` (diagnostics say where in `text`).
    pub(super) fn parse_text<T>(
        &mut self,
        text: &str,
        at: Span,
        base: Option<usize>,
        parse: impl FnOnce(&mut Self) -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        let mut tokens = crate::frontends::b::lexer::lex(text)?;
        let column = |t: &Token| t.span.start as usize + 1;
        let columns: Vec<usize> = tokens.iter().map(column).collect();
        for t in &mut tokens {
            t.span = match base {
                Some(b) => Span::new(b + t.span.start as usize, b + t.span.end as usize),
                None => at,
            };
        }
        let mut failed_at = 0;
        let result = self.parse_tokens(tokens, |p| {
            let value = parse(p);
            failed_at = p.pos;
            value
        });
        let failed_at = failed_at.min(columns.len().saturating_sub(1));
        result.map_err(|mut d| {
            if let Some(c) = columns.get(failed_at) {
                d.message = format!("{} (column {c} of the predicate)", d.message);
            }
            d
        })
    }

    /// The index just past the `DEFINITIONS` clause whose keyword is the
    /// file token at `index`.
    pub(super) fn definitions_clause_end(&self, index: usize) -> Option<usize> {
        self.defs.clause_ends.get(&index).copied()
    }

    /// The position of the next token in the file's tokens, if no expanded
    /// tokens are pending.
    pub(super) fn file_position(&self) -> Option<usize> {
        self.pending.is_empty().then_some(self.pos)
    }

    /// Skips the file's tokens up to `index`.
    pub(super) fn skip_to(&mut self, index: usize) {
        self.pos = index.min(self.tokens.len().saturating_sub(1));
    }

    /// The definitions as recorded in the AST.
    pub(super) fn definition_list(&self) -> Vec<Definition> {
        self.defs
            .defs
            .iter()
            .map(|d| Definition {
                name: d.name.clone(),
                params: d.params.clone(),
                span: d.span,
            })
            .collect()
    }

    /// Names of all definitions, in order, with their indices.
    /// How many parameters definition `def` takes.
    pub(super) fn definition_arity(&self, def: usize) -> usize {
        self.defs.defs.get(def).map_or(0, |d| d.params.len())
    }

    pub(super) fn definition_names(&self) -> Vec<(usize, Ident)> {
        self.defs
            .defs
            .iter()
            .enumerate()
            .map(|(i, d)| (i, d.name.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::lexer::lex;

    /// The text of the body starting at token `start` of `text`.
    fn body(text: &str, start: usize) -> String {
        let tokens = lex(text).unwrap();
        let end = body_end(&tokens, start);
        let texts: Vec<&str> = tokens[start..end]
            .iter()
            .map(|t| &text[t.span.start as usize..t.span.end as usize])
            .collect();
        texts.join(" ")
    }

    #[test]
    fn bodies_end_at_a_semicolon_before_the_next_definition() {
        assert_eq!(body("a == x := 1 ; y := 2 ; b == 3", 2), "x := 1 ; y := 2");
        assert_eq!(body("a == 1 ; f(x, y) == 3", 2), "1");
        assert_eq!(body("a == 1 ; \"lib.def\"", 2), "1");
        assert_eq!(body("a == 1 ; VARIABLES x", 2), "1");
        assert_eq!(body("a == 1 VARIABLES x", 2), "1");
        assert_eq!(body("a == 1", 2), "1");
    }

    #[test]
    fn bodies_skip_blocks_and_brackets() {
        assert_eq!(
            body("a == IF c THEN 1 ELSE 2 END ; b == 1", 2),
            "IF c THEN 1 ELSE 2 END"
        );
        assert_eq!(
            body("a == BEGIN x := 1 ; b == 2 END END", 2),
            "BEGIN x := 1 ; b == 2 END"
        );
        assert_eq!(
            body(
                "a == CASE x OF EITHER 1 THEN skip OR 2 THEN skip END END END",
                2
            ),
            "CASE x OF EITHER 1 THEN skip OR 2 THEN skip END END"
        );
        assert_eq!(
            body("a == SELECT p THEN skip WHEN q THEN skip END END", 2),
            "SELECT p THEN skip WHEN q THEN skip END"
        );
        assert_eq!(body("a == f(x ; b == 2) ; c == 1", 2), "f ( x ; b == 2 )");
    }

    #[test]
    fn definition_starts() {
        let tokens = lex("f(x, y) == 1 ; g(x) := 2 ; h == 3 ; \"x.def\" ; k(x").unwrap();
        assert!(starts_definition(&tokens, 0));
        assert!(!starts_definition(&tokens, 9));
        assert!(starts_definition(&tokens, 16));
        assert!(starts_definition(&tokens, 20));
        assert!(!starts_definition(&tokens, 22));
    }
}
