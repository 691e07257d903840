//! Expansion of definitions (macros) at their uses.
//!
//! At a use, the parser replaces the name (and its parenthesised arguments)
//! by the body tokens, replacing each parameter by the argument's tokens;
//! an argument of more than one token is put in parentheses. In expression
//! position the whole body is also put in parentheses (`sq(x) == x*x` used
//! as `sq(a+1) + 1` means `((a+1)*(a+1)) + 1`), with a synthetic `(` whose
//! span is the use site, so the resulting node points at the use. Body
//! tokens keep their own spans, so a syntax error inside a body points at
//! the body and carries a note naming the use site.
//!
//! Every expansion is recorded with its parent expansion (the one that
//! produced the used name). A definition whose name is expanded inside its
//! own expansion chain is recursive and rejected. Arguments keep the origin
//! of the use site, so `f(f(1))` is not mistaken for recursion. The total
//! number of expanded tokens is bounded to stop exponential blow-up.

use std::collections::HashMap;

use super::Parser;
use crate::diag::{Diagnostic, SourceFile, Span};
use crate::frontends::b::ast::Ident;
use crate::frontends::b::lexer::{Keyword, Sym, Token, TokenKind};
use crate::frontends::b::library::{External, is_printing_substitution};

/// Upper bound on the number of tokens produced by definition expansion.
const MAX_EXPANDED_TOKENS: usize = 5_000_000;

/// Upper bound on the notes naming nested use sites in one diagnostic.
const MAX_EXPANSION_NOTES: usize = 4;

/// One definition.
#[derive(Debug)]
pub(super) struct DefInfo {
    /// Its name.
    pub(super) name: Ident,
    /// Its formal parameters.
    pub(super) params: Vec<Ident>,
    /// The tokens of its body.
    pub(super) body: Vec<Token>,
    /// The whole definition.
    pub(super) span: Span,
}

/// One expansion of a definition.
#[derive(Debug)]
struct Expansion {
    def: usize,
    /// The expansion that produced the used name (0: the file itself).
    parent: u32,
    /// Where the definition was used; `None` when its body is checked on
    /// its own.
    use_span: Option<Span>,
}

/// All definitions of a machine and the record of their expansions.
#[derive(Debug, Default)]
pub(super) struct Definitions {
    /// The definitions in order.
    pub(super) defs: Vec<DefInfo>,
    /// Index of each definition by name.
    pub(super) by_name: HashMap<String, usize>,
    /// Index 0 is a placeholder for "not from an expansion".
    expansions: Vec<Expansion>,
    expanded_tokens: usize,
    /// For each `DEFINITIONS` keyword's index in the file's tokens, the
    /// index just past its clause.
    pub(super) clause_ends: HashMap<usize, usize>,
}

impl Definitions {
    /// Adds notes naming the use sites of the expansion chain `origin`.
    pub(super) fn add_expansion_notes(
        &self,
        mut d: Diagnostic,
        origin: u32,
        file: &SourceFile,
    ) -> Diagnostic {
        let mut current = origin;
        let mut notes = 0;
        while let Some(exp) = self
            .expansions
            .get(current as usize)
            .filter(|_| current != 0)
        {
            if notes == MAX_EXPANSION_NOTES {
                break;
            }
            if let (Some(use_span), Some(def)) = (exp.use_span, self.defs.get(exp.def)) {
                d = d.with_note(format!(
                    "in the expansion of definition `{}` used at {}",
                    def.name.name,
                    file.location(use_span)
                ));
                notes += 1;
            }
            current = exp.parent;
        }
        d
    }

    /// Whether `origin` descends from an expansion of definition `def`.
    fn chain_contains(&self, mut origin: u32, def: usize) -> bool {
        while origin != 0 {
            match self.expansions.get(origin as usize) {
                Some(exp) if exp.def == def => return true,
                Some(exp) => origin = exp.parent,
                None => return false,
            }
        }
        false
    }

    /// Records an expansion of `def` and returns its origin index.
    pub(super) fn record(&mut self, def: usize, parent: u32, use_span: Option<Span>) -> u32 {
        if self.expansions.is_empty() {
            self.expansions.push(Expansion {
                def: usize::MAX,
                parent: 0,
                use_span: None,
            });
        }
        self.expansions.push(Expansion {
            def,
            parent,
            use_span,
        });
        (self.expansions.len() - 1) as u32
    }
}

impl Parser<'_> {
    /// If the next token names a definition, replaces it (and its
    /// arguments) by the body. With `parenthesise`, the body is put in
    /// parentheses (expression position). Returns whether it expanded.
    pub(super) fn expand_definition(&mut self, parenthesise: bool) -> Result<bool, Diagnostic> {
        let def = match self.peek_kind() {
            TokenKind::Ident(name) if self.shadowed.contains(name) => return Ok(false),
            TokenKind::Ident(name) => match self.defs.by_name.get(name) {
                Some(&def) => def,
                None => return Ok(false),
            },
            _ => return Ok(false),
        };
        // ProB's external functions that orbit implements are read as calls
        // of the built-in (see `named`), and its printing substitutions as
        // `skip`, instead of expanding their placeholder bodies.
        if let TokenKind::Ident(used) = self.peek_kind() {
            let marked = |prefix: &str| self.defs.by_name.contains_key(&format!("{prefix}{used}"));
            if External::from_name(used).is_some()
                && (marked("EXTERNAL_FUNCTION_") || marked("EXTERNAL_PREDICATE_"))
            {
                return Ok(false);
            }
            if is_printing_substitution(used) && marked("EXTERNAL_SUBSTITUTION_") {
                let name = used.clone();
                let arity = self.defs.defs.get(def).map_or(0, |d| d.params.len());
                let name_token = self.bump();
                if arity > 0 {
                    self.definition_arguments(&name_token, &name, arity)?;
                }
                self.pending.push_front(Token {
                    kind: TokenKind::Keyword(Keyword::Skip),
                    span: self.span_from(name_token.span),
                    origin: name_token.origin,
                    synthetic: true,
                });
                return Ok(true);
            }
        }
        let name_token = self.bump();
        // Other external functions (`EXTERNAL_FUNCTION_X`, ...) give `X` a
        // placeholder body; evaluating it would silently give a wrong value.
        if let TokenKind::Ident(used) = &name_token.kind
            && [
                "EXTERNAL_FUNCTION_",
                "EXTERNAL_PREDICATE_",
                "EXTERNAL_SUBSTITUTION_",
            ]
            .iter()
            .any(|prefix| self.defs.by_name.contains_key(&format!("{prefix}{used}")))
        {
            return Err(self.error_at(
                &name_token,
                format!(
                    "not supported yet: external function `{used}` (ProB computes it outside B; \
                     its definition's body is only a placeholder)"
                ),
            ));
        }
        let (name, param_names, arity) = match self.defs.defs.get(def) {
            Some(d) => (
                d.name.name.clone(),
                d.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
                d.params.len(),
            ),
            None => return Ok(false),
        };
        if self.defs.chain_contains(name_token.origin, def) {
            return Err(self.error_at(
                &name_token,
                format!("definition `{name}` is recursive: it is used in its own body"),
            ));
        }
        let args = if arity > 0 {
            self.definition_arguments(&name_token, &name, arity)?
        } else {
            Vec::new()
        };
        let use_span = self.span_from(name_token.span);
        let origin = self.defs.record(def, name_token.origin, Some(use_span));
        let body = self
            .defs
            .defs
            .get(def)
            .map(|d| d.body.as_slice())
            .unwrap_or_default();
        let mut out = Vec::with_capacity(body.len() + 2);
        let paren = |sym| Token {
            kind: TokenKind::Sym(sym),
            span: use_span,
            origin: name_token.origin,
            synthetic: true,
        };
        if parenthesise {
            out.push(paren(Sym::LParen));
        }
        for t in body {
            let param = match &t.kind {
                TokenKind::Ident(id) => param_names.iter().position(|p| p == id),
                _ => None,
            };
            match param.and_then(|k| args.get(k)) {
                Some(arg) if arg.len() == 1 => out.extend(arg.iter().cloned()),
                Some(arg) => {
                    let open = arg.first().map_or(t.span, |a| a.span);
                    let close = arg.last().map_or(t.span, |a| a.span);
                    let wrap = |sym, span| Token {
                        kind: TokenKind::Sym(sym),
                        span,
                        origin: t.origin,
                        synthetic: false,
                    };
                    out.push(wrap(Sym::LParen, open));
                    out.extend(arg.iter().cloned());
                    out.push(wrap(Sym::RParen, close));
                }
                None => out.push(Token {
                    origin,
                    ..t.clone()
                }),
            }
        }
        if parenthesise {
            out.push(paren(Sym::RParen));
        }
        self.defs.expanded_tokens += out.len();
        if self.defs.expanded_tokens > MAX_EXPANDED_TOKENS {
            return Err(self.error_at(
                &name_token,
                format!("definitions expand to more than {MAX_EXPANDED_TOKENS} tokens (at this use of `{name}`)"),
            ));
        }
        for t in out.into_iter().rev() {
            self.pending.push_front(t);
        }
        Ok(true)
    }

    /// Reads `(a1, ..., an)` after a definition's name: the tokens of each
    /// argument, split at top-level commas.
    fn definition_arguments(
        &mut self,
        name_token: &Token,
        name: &str,
        arity: usize,
    ) -> Result<Vec<Vec<Token>>, Diagnostic> {
        if !self.at_sym(Sym::LParen) {
            let found = self.peek_kind().describe();
            return Err(self.error_here(format!(
                "expected `(` and {arity} argument(s) for definition `{name}`, found {found}"
            )));
        }
        let open = self.bump();
        let mut args = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let t = self.bump();
            match &t.kind {
                TokenKind::Eof => return Err(self.error_at(&open, "this `(` is never closed")),
                TokenKind::Sym(Sym::LParen | Sym::LBracket | Sym::LBrace) => depth += 1,
                TokenKind::Sym(Sym::RParen) if depth == 0 => break,
                TokenKind::Sym(Sym::RParen | Sym::RBracket | Sym::RBrace) => {
                    depth = depth.saturating_sub(1)
                }
                TokenKind::Sym(Sym::Comma) if depth == 0 => {
                    if args.last().is_some_and(Vec::is_empty) {
                        return Err(self.error_at(&t, "expected an argument, found `,`"));
                    }
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if let Some(arg) = args.last_mut() {
                arg.push(t);
            }
        }
        if args.last().is_some_and(Vec::is_empty) {
            let t = Token {
                kind: TokenKind::Sym(Sym::RParen),
                span: self.last_span,
                origin: 0,
                synthetic: false,
            };
            return Err(self.error_at(&t, "expected an argument, found `)`"));
        }
        if args.len() != arity {
            return Err(self.error_at(
                name_token,
                format!(
                    "definition `{name}` takes {arity} argument(s) but {} were given",
                    args.len()
                ),
            ));
        }
        Ok(args)
    }
}
