//! Recursive-descent parser for classical B machines in ProB's ASCII syntax.
//!
//! The parser works on the token vector of [`crate::frontends::b::lexer`] and builds the
//! AST of [`crate::frontends::b::ast`]. It is split by concept:
//!
//! - this module: the token cursor (with look-ahead across definition
//!   expansions), error helpers, the nesting-depth guard and the public
//!   entry points;
//! - `definitions`: the `DEFINITIONS` clause, collected and checked
//!   before anything else (clause order is free in B);
//! - `expand`: expansion of definitions at each use by token-level macro
//!   substitution;
//! - `expr`: expressions and predicates, a Pratt parser driven by B's
//!   operator priority table;
//! - `subst`: generalised substitutions;
//! - `machine`: the machine header and clauses.
//!
//! Errors are [`Diagnostic`]s pointing at the offending token, with
//! messages such as "expected `THEN`, found `END`". When the offending token
//! comes from a definition body, the diagnostic points into that body and a
//! note names the use site. The parser never panics: nesting depth is
//! bounded ([`MAX_DEPTH`]) and so is the total size of definition
//! expansions.

mod definitions;
mod expand;
mod expr;
mod machine;
mod subst;

use std::collections::VecDeque;

use crate::diag::{Diagnostic, SourceFile, Span};
use crate::frontends::b::ast::{Expr, Ident, Machine, Subst};
use crate::frontends::b::lexer::{Keyword, Sym, Token, TokenKind, lex};

use expand::Definitions;

/// Maximum nesting depth of expressions and substitutions; deeper input is
/// rejected with an error instead of overflowing the stack. Parsing at this
/// depth fits in 512 KiB of stack in a debug build (threads get 2 MiB by
/// default).
pub const MAX_DEPTH: u32 = 200;

/// Maximum depth of the trees the parser builds, counting one level per
/// operator of a flat chain (`a + b + ... + z` is a tree as deep as it is
/// long, and so are `f(x)(y)...` and `S1 ; S2 ; ...`): the type checker,
/// the compiler, the interpreter and the printers recurse over it.
/// Conjunctions (`P & Q & ...`) do not count: every phase walks them as
/// lists (machines with tens of thousands of conjuncts are checked).
/// Deeper input is rejected with an error naming the place. Measured:
/// chains of 40,000 operators fit the 64 MiB worker stacks, release and
/// debug builds alike, and 80,000 do not; this limit keeps a factor of 2.
pub const MAX_TREE_DEPTH: u32 = 20_000;

/// Parses a whole B component (MACHINE, REFINEMENT or IMPLEMENTATION).
pub fn parse_machine(file: &SourceFile) -> Result<Machine, Diagnostic> {
    let tokens = lex(&file.text)?;
    let mut parser = Parser::new(file, tokens);
    parser.collect_definitions()?;
    parser.machine()
}

/// Parses a component from tokens already read from `file` (e.g. with the
/// tokens of definition files spliced in by [`crate::frontends::b::compose`]).
pub fn parse_machine_tokens(file: &SourceFile, tokens: Vec<Token>) -> Result<Machine, Diagnostic> {
    parse_machine_tokens_with(file, tokens, &[], true)
}

/// [`parse_machine_tokens`] for the checked machine, with LTL formulas
/// given besides its own (`--ltl`): their predicate atoms are parsed with
/// the machine's definitions ([`Machine::ltl_atoms`]), and those of its
/// own `ASSERT_LTL` definitions where `assert_ltl` (they are checked).
pub fn parse_machine_tokens_with(
    file: &SourceFile,
    tokens: Vec<Token>,
    ltl_formulas: &[String],
    assert_ltl: bool,
) -> Result<Machine, Diagnostic> {
    let mut parser = Parser::new(file, tokens);
    parser.ltl_formulas = ltl_formulas.to_vec();
    parser.assert_ltl_atoms = assert_ltl;
    parser.collect_definitions()?;
    parser.machine()
}

/// Parses a single expression or predicate (no definitions), e.g. for tests
/// and tools. The whole file must be one expression.
pub fn parse_expression(file: &SourceFile) -> Result<Expr, Diagnostic> {
    let tokens = lex(&file.text)?;
    let mut parser = Parser::new(file, tokens);
    let e = parser.expr()?;
    parser.expect_eof()?;
    Ok(e)
}

/// Parses a single substitution (no definitions), e.g. for tests and tools.
pub fn parse_substitution(file: &SourceFile) -> Result<Subst, Diagnostic> {
    let tokens = lex(&file.text)?;
    let mut parser = Parser::new(file, tokens);
    let s = parser.subst()?;
    parser.expect_eof()?;
    Ok(s)
}

/// The parser state: a cursor over the file's tokens, preceded by a queue
/// of tokens produced by definition expansions that are read first.
pub(crate) struct Parser<'f> {
    file: &'f SourceFile,
    /// The file's tokens (ending with `Eof`), or a definition body being
    /// checked on its own.
    tokens: Vec<Token>,
    /// Index of the next token of `tokens` (after `pending`).
    pos: usize,
    /// Tokens from definition expansions, read before `tokens[pos]`.
    pending: VecDeque<Token>,
    /// The `DEFINITIONS` clause and the record of expansions.
    defs: Definitions,
    /// Current nesting depth of expressions and substitutions.
    depth: u32,
    /// Links of the flat chains on the current path (see [`MAX_TREE_DEPTH`]).
    links: u32,
    /// Span of the last consumed token, to end node spans.
    last_span: Span,
    /// Names bound by the binders being parsed: a definition of the same
    /// name is not expanded in their scope (the bound name shadows it).
    shadowed: Vec<String>,
    /// LTL formulas given besides the machine's (`--ltl`), whose predicate
    /// atoms are parsed with the machine's definitions.
    ltl_formulas: Vec<String>,
    /// Whether the atoms of the machine's `ASSERT_LTL` formulas are parsed
    /// (they are checked).
    assert_ltl_atoms: bool,
}

impl<'f> Parser<'f> {
    fn new(file: &'f SourceFile, tokens: Vec<Token>) -> Self {
        Parser {
            file,
            tokens,
            pos: 0,
            pending: VecDeque::new(),
            defs: Definitions::default(),
            depth: 0,
            links: 0,
            last_span: Span::default(),
            shadowed: Vec::new(),
            ltl_formulas: Vec::new(),
            assert_ltl_atoms: true,
        }
    }

    /// Starts the scope of bound names; returns the mark to end it with.
    fn shadow(&mut self, names: &[Ident]) -> usize {
        let mark = self.shadowed.len();
        self.shadowed.extend(names.iter().map(|n| n.name.clone()));
        mark
    }

    /// Ends the scope started at `mark`.
    fn unshadow(&mut self, mark: usize) {
        self.shadowed.truncate(mark);
    }

    /// `x, y` in a clause declaring names (`VARIABLES`, `CONSTANTS`, ...),
    /// where a definition may stand for some of them (`VARIABLES Vars`).
    fn declared_names(&mut self) -> Result<Vec<Ident>, Diagnostic> {
        let mut ids = Vec::new();
        // `Vars == (x, y, z)`: ProB takes parenthesised names too.
        let mut open = 0usize;
        loop {
            while self.expand_definition(false)? {}
            while self.eat_sym(Sym::LParen) {
                open += 1;
            }
            ids.push(self.ident()?);
            while open > 0 && self.eat_sym(Sym::RParen) {
                open -= 1;
            }
            if !self.eat_sym(Sym::Comma) {
                if open > 0 {
                    self.expect_sym(Sym::RParen)?;
                }
                return Ok(ids);
            }
        }
    }

    // ---- token cursor ----

    /// The token `k` places ahead (0 is the next one); `Eof` past the end.
    fn peek_at(&self, k: usize) -> &Token {
        if let Some(t) = self.pending.get(k) {
            return t;
        }
        let i = self.pos + (k - self.pending.len());
        match self.tokens.get(i) {
            Some(t) => t,
            // The token vector always ends with Eof; fall back to it.
            None => self.tokens.last().unwrap_or(&EOF_TOKEN),
        }
    }

    /// The next token.
    fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    /// The kind of the next token.
    fn peek_kind(&self) -> &TokenKind {
        &self.peek().kind
    }

    /// Consumes and returns the next token (`Eof` stays put).
    fn bump(&mut self) -> Token {
        let t = match self.pending.pop_front() {
            Some(t) => t,
            None => match self.tokens.get_mut(self.pos) {
                // Consumed tokens are never read again (look-ahead only goes
                // forward), so move the token out instead of cloning it.
                Some(t) if t.kind != TokenKind::Eof => {
                    self.pos += 1;
                    std::mem::replace(
                        t,
                        Token {
                            kind: TokenKind::Eof,
                            ..*t
                        },
                    )
                }
                Some(t) => t.clone(),
                None => EOF_TOKEN.clone(),
            },
        };
        self.last_span = t.span;
        t
    }

    fn at_sym(&self, sym: Sym) -> bool {
        self.peek_kind() == &TokenKind::Sym(sym)
    }

    fn at_kw(&self, kw: Keyword) -> bool {
        self.peek_kind() == &TokenKind::Keyword(kw)
    }

    fn sym_at(&self, k: usize, sym: Sym) -> bool {
        self.peek_at(k).kind == TokenKind::Sym(sym)
    }

    /// Consumes the next token if it is `sym`.
    fn eat_sym(&mut self, sym: Sym) -> bool {
        let found = self.at_sym(sym);
        if found {
            self.bump();
        }
        found
    }

    /// Consumes the next token if it is `kw`.
    fn eat_kw(&mut self, kw: Keyword) -> bool {
        let found = self.at_kw(kw);
        if found {
            self.bump();
        }
        found
    }

    /// Consumes `sym` or reports "expected `sym`, found ...".
    fn expect_sym(&mut self, sym: Sym) -> Result<Token, Diagnostic> {
        if self.at_sym(sym) {
            Ok(self.bump())
        } else {
            Err(self.expected(&format!("`{}`", sym.text())))
        }
    }

    /// Consumes `kw` or reports "expected `kw`, found ...".
    fn expect_kw(&mut self, kw: Keyword) -> Result<Token, Diagnostic> {
        if self.at_kw(kw) {
            Ok(self.bump())
        } else {
            Err(self.expected(&format!("`{}`", kw.text())))
        }
    }

    fn expect_eof(&mut self) -> Result<(), Diagnostic> {
        if self.peek_kind() == &TokenKind::Eof {
            Ok(())
        } else {
            Err(self.expected("end of file"))
        }
    }

    /// Consumes an identifier that is not a reserved built-in name.
    fn ident(&mut self) -> Result<Ident, Diagnostic> {
        match self.peek_kind() {
            TokenKind::Ident(name) if expr::is_builtin_name(name) => {
                let name = name.clone();
                Err(self.error_here(format!(
                    "expected an identifier, found the built-in `{name}`"
                )))
            }
            TokenKind::Ident(name) if name.ends_with("$0") => {
                let name = name.clone();
                Err(self.error_here(format!(
                    "`{name}` (a value before a becomes-such-that substitution) can only be used in expressions"
                )))
            }
            TokenKind::Ident(_) => {
                let t = self.bump();
                match t.kind {
                    TokenKind::Ident(name) => Ok(Ident { name, span: t.span }),
                    _ => Err(self.error_at(&t, "expected an identifier")),
                }
            }
            _ => Err(self.expected("an identifier")),
        }
    }

    /// `x, y, z`: one or more identifiers separated by commas.
    fn ident_list(&mut self) -> Result<Vec<Ident>, Diagnostic> {
        let mut ids = vec![self.ident()?];
        while self.eat_sym(Sym::Comma) {
            ids.push(self.ident()?);
        }
        Ok(ids)
    }

    /// `x`, `x, y` or `(x, y)`: the bound variables of a quantifier.
    fn binder_list(&mut self) -> Result<Vec<Ident>, Diagnostic> {
        if self.eat_sym(Sym::LParen) {
            let ids = self.ident_list()?;
            self.expect_sym(Sym::RParen)?;
            Ok(ids)
        } else {
            self.ident_list()
        }
    }

    // ---- errors ----

    /// An error at a token, with notes naming the definition uses that
    /// produced it.
    fn error_at(&self, token: &Token, message: impl Into<String>) -> Diagnostic {
        let d = Diagnostic::error(token.span, message);
        self.defs.add_expansion_notes(d, token.origin, self.file)
    }

    /// An error at the next token.
    fn error_here(&self, message: impl Into<String>) -> Diagnostic {
        self.error_at(self.peek(), message)
    }

    /// "expected WHAT, found TOKEN" at the next token.
    fn expected(&self, what: &str) -> Diagnostic {
        let next = self.peek();
        let found = if next.kind == TokenKind::Eof && next.origin != 0 {
            "the end of the definition body".to_string()
        } else {
            next.kind.describe()
        };
        self.error_here(format!("expected {what}, found {found}"))
            .with_label(format!("expected {what}"))
    }

    /// "not supported yet: WHAT" at a token.
    fn unsupported(&self, token: &Token, what: &str) -> Diagnostic {
        self.error_at(token, format!("not supported yet: {what}"))
    }

    // ---- depth guard ----

    /// Enters one level of nesting; errors past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here(format!("nesting too deep: more than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Adds one link of a flat chain to the tree depth of the current
    /// path; errors past [`MAX_TREE_DEPTH`]. The caller removes its links
    /// with [`Parser::unlink`] when its chain ends.
    fn link(&mut self) -> Result<(), Diagnostic> {
        self.links += 1;
        if self.links + self.depth > MAX_TREE_DEPTH {
            return Err(self.error_here(format!(
                "too deeply nested: more than {MAX_TREE_DEPTH} levels (each operator of a \
                 chain such as `a + b + c` counts as one level); split the expression, e.g. \
                 with definitions or intermediate variables"
            )));
        }
        Ok(())
    }

    /// Removes `count` links added by [`Parser::link`].
    fn unlink(&mut self, count: u32) {
        self.links = self.links.saturating_sub(count);
    }

    /// The span from `start` to the end of the last consumed token (just
    /// `start` if that token lies before it, as happens when a definition
    /// body written earlier in the file was expanded).
    fn span_from(&self, start: Span) -> Span {
        if self.last_span.end < start.start {
            start
        } else {
            start.to(self.last_span)
        }
    }
}

static EOF_TOKEN: Token = Token {
    kind: TokenKind::Eof,
    span: Span { start: 0, end: 0 },
    origin: 0,
    synthetic: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn parser_for(file: &SourceFile) -> Parser<'_> {
        Parser::new(file, lex(&file.text).unwrap())
    }

    #[test]
    fn look_ahead_reads_pending_tokens_before_the_file() {
        let file = SourceFile::new("t.b", "a b");
        let mut p = parser_for(&file);
        let mut extra = p.peek().clone();
        extra.kind = TokenKind::Ident("z".into());
        p.pending.push_back(extra);
        assert_eq!(p.peek_at(0).kind, TokenKind::Ident("z".into()));
        assert_eq!(p.peek_at(1).kind, TokenKind::Ident("a".into()));
        assert_eq!(p.peek_at(2).kind, TokenKind::Ident("b".into()));
        assert_eq!(p.peek_at(3).kind, TokenKind::Eof);
        assert_eq!(p.peek_at(100).kind, TokenKind::Eof);
        assert_eq!(p.bump().kind, TokenKind::Ident("z".into()));
        assert_eq!(p.bump().kind, TokenKind::Ident("a".into()));
        assert_eq!(p.bump().kind, TokenKind::Ident("b".into()));
        // Eof stays put however often it is consumed.
        assert_eq!(p.bump().kind, TokenKind::Eof);
        assert_eq!(p.bump().kind, TokenKind::Eof);
    }

    #[test]
    fn identifiers_exclude_built_ins_and_old_values() {
        let file = SourceFile::new("t.b", "x card x$0");
        let mut p = parser_for(&file);
        assert_eq!(p.ident().unwrap().name, "x");
        assert!(p.ident().unwrap_err().message.contains("built-in `card`"));
        p.bump();
        assert!(p.ident().unwrap_err().message.contains("`x$0`"));
    }

    #[test]
    fn declared_names_may_come_from_a_definition_in_parentheses() {
        let text = "MACHINE M\nDEFINITIONS Vars == (x, y); More == z\n\
                    VARIABLES Vars, (w), More\nINVARIANT x : BOOL\nEND\n";
        let m =
            crate::frontends::b::parser::parse_machine(&SourceFile::new("m.mch", text)).unwrap();
        let names: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["x", "y", "w", "z"]);
        // An unclosed list is an error at its end.
        let text = "MACHINE M\nVARIABLES (x, y\nINVARIANT x : BOOL\nEND\n";
        let err = crate::frontends::b::parser::parse_machine(&SourceFile::new("m.mch", text))
            .unwrap_err();
        assert!(err.message.contains("`)`"), "{}", err.message);
    }

    #[test]
    fn span_from_never_runs_backwards() {
        let file = SourceFile::new("t.b", "a b");
        let mut p = parser_for(&file);
        p.bump();
        p.bump();
        assert_eq!(p.span_from(Span::new(0, 1)), Span::new(0, 3));
        // A start after the last token (an expanded body written earlier).
        assert_eq!(p.span_from(Span::new(10, 12)), Span::new(10, 12));
    }
}
