//! The machine header and its clauses.
//!
//! A component is `MACHINE name(params) clauses END` (also `MODEL`,
//! `REFINEMENT` and `IMPLEMENTATION`). Clauses come in any order, each at
//! most once, except that `SEES`/`USES` and `INCLUDES`/`IMPORTS` collect
//! into one list each; the structuring clauses only name machines here
//! ([`crate::frontends::b::compose`] reads and merges them). The `DEFINITIONS` clause was collected
//! before parsing (see [`super::expand`]) and is skipped here; afterwards
//! `scope_X` and `GOAL` definitions are parsed into [`Machine::scopes`] and
//! [`Machine::goal`].

use std::collections::HashMap;

use super::Parser;
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{
    ComponentKind, ConstructorDecl, Expr, ExprKind, FreeTypeDecl, Ident, Machine, MachineRef,
    Operation, SetDecl,
};
use crate::frontends::b::lexer::{Keyword, Sym, Token, TokenKind};

impl Parser<'_> {
    /// Parses the whole component.
    pub(super) fn machine(&mut self) -> Result<Machine, Diagnostic> {
        let kind = match self.peek_kind() {
            // `SYSTEM` (Atelier B's event B) is a machine whose operations are events.
            TokenKind::Keyword(Keyword::Machine | Keyword::Model | Keyword::System) => {
                ComponentKind::Machine
            }
            TokenKind::Keyword(Keyword::Refinement) => ComponentKind::Refinement,
            TokenKind::Keyword(Keyword::Implementation) => ComponentKind::Implementation,
            _ => return Err(self.expected("`MACHINE`, `REFINEMENT` or `IMPLEMENTATION`")),
        };
        self.bump();
        let name = self.ident()?;
        let params = if self.eat_sym(Sym::LParen) {
            let params = self.ident_list()?;
            self.expect_sym(Sym::RParen)?;
            params
        } else {
            Vec::new()
        };
        let mut m = Machine::empty(kind, name);
        m.params = params;
        let mut seen: HashMap<Keyword, Span> = HashMap::new();
        loop {
            let token = self.peek().clone();
            let TokenKind::Keyword(kw) = token.kind else {
                // ProB's `FREETYPES` (not a keyword of classical B, so
                // not reserved).
                if matches!(&token.kind, TokenKind::Ident(name) if name == "FREETYPES") {
                    self.bump();
                    m.freetypes.extend(self.free_types()?);
                    continue;
                }
                // ProB's named formulas: `name == formula; ...`.
                if let TokenKind::Ident(name) = &token.kind
                    && (name == "EXPRESSIONS" || name == "PREDICATES")
                {
                    self.bump();
                    loop {
                        let formula = self.ident()?;
                        self.expect_sym(Sym::DefEq)?;
                        self.expr()?;
                        m.named_formulas.push(formula);
                        if !self.eat_sym(Sym::Semicolon) {
                            break;
                        }
                    }
                    continue;
                }
                let mut d = self.expected("a clause keyword or `END`");
                if !seen.is_empty() && token.kind != TokenKind::Eof {
                    d = d.with_note("the previous clause ends just before this; is an operator such as `&` or `,` missing?");
                }
                return Err(d);
            };
            if kw == Keyword::End {
                self.bump();
                break;
            }
            if !kw.is_clause() {
                return Err(self.expected("a clause keyword or `END`"));
            }
            // INITIALIZATION is another spelling of INITIALISATION, and
            // EVENTS (of a SYSTEM) one of OPERATIONS.
            let clause = if kw == Keyword::Initialization {
                Keyword::Initialisation
            } else if kw == Keyword::Events {
                Keyword::Operations
            } else {
                kw
            };
            if let Some(first) = seen.insert(clause, token.span) {
                return Err(self
                    .error_at(&token, format!("duplicate clause `{}`", kw.text()))
                    .with_note(format!("first given at {}", self.file.location(first))));
            }
            self.clause(clause, &token, &mut m)?;
        }
        self.expect_eof()?;
        m.definitions = self.definition_list();
        // Where each ASSERT_LTL formula's string stands in the file.
        let mut literals: Vec<(String, Span)> = Vec::new();
        for (index, def_name) in self.definition_names() {
            if let Some(set) = def_name.name.strip_prefix("scope_") {
                let size = self.parse_definition_body(index, |p| p.expr())?;
                m.scopes.push((
                    Ident {
                        name: set.to_string(),
                        span: def_name.span,
                    },
                    size,
                ));
            } else if def_name.name == "GOAL" && self.definition_arity(index) == 0 {
                // With parameters `GOAL` is a macro like any other, not the
                // state predicate ProB's model checker looks for.
                m.goal = Some(self.parse_definition_body(index, |p| p.expr())?);
            } else if def_name.name == "SCOPE" {
                m.scope = Some(self.parse_definition_body(index, |p| p.expr())?);
            } else if def_name.name.starts_with("ASSERT_LTL") {
                let body = self.parse_definition_body(index, |p| p.expr())?;
                let ExprKind::Str(formula) = body.kind else {
                    return Err(Diagnostic::error(
                        body.span,
                        format!("expected a string (an LTL formula) as `{}`", def_name.name),
                    ));
                };
                literals.push((def_name.name.clone(), body.span));
                m.ltl.push((def_name.name.clone(), formula));
            }
        }
        // Each formula with where it stands: its string in the file (an
        // atom found in it is located exactly), else the definition's name
        // (or the file's start, for --ltl).
        let own = if self.assert_ltl_atoms {
            &m.ltl[..]
        } else {
            &[]
        };
        let formulas: Vec<(String, Span, Option<Span>)> = own
            .iter()
            .map(|(name, f)| {
                let at = m
                    .definitions
                    .iter()
                    .find(|d| d.name.name == *name)
                    .map_or_else(Span::default, |d| d.name.span);
                let literal = literals.iter().find(|(n, _)| n == name).map(|&(_, s)| s);
                (f.clone(), at, literal)
            })
            .chain(
                self.ltl_formulas
                    .iter()
                    .map(|f| (f.clone(), Span::default(), None)),
            )
            .collect();
        for (formula, at, literal) in formulas {
            // A formula that does not parse is reported by the checker.
            let Ok(property) = crate::temporal::ltl::parse(&formula) else {
                continue;
            };
            for atom in property.atoms {
                if let crate::temporal::ltl::Atom::TakenWith(op, args) = &atom {
                    self.step_atom(&mut m, &atom, op, args, at)?;
                    continue;
                }
                let crate::temporal::ltl::Atom::Predicate(text) = atom else {
                    continue;
                };
                if m.ltl_atoms.iter().any(|(t, _)| *t == text) {
                    continue;
                }
                // The atom's text as it stands in the file, if it does.
                let base = literal.and_then(|l| {
                    let source = self.file.text.get(l.start as usize..l.end as usize)?;
                    source.find(&*text).map(|k| l.start as usize + k)
                });
                let expr = self
                    .parse_text(&text, at, base, |p| p.expr())
                    .map_err(|d| {
                        let message = format!("in the LTL atom `{{{text}}}`: {}", d.message);
                        Diagnostic { message, ..d }
                    })?;
                m.ltl_atoms.push((text, expr));
            }
        }
        Ok(m)
    }

    /// Parses the arguments of the step atom `atom`, `[op(args)]`, of an
    /// LTL formula defined at `at` into `m` (once per atom).
    fn step_atom(
        &mut self,
        m: &mut Machine,
        atom: &crate::temporal::ltl::Atom,
        op: &str,
        args: &[Option<String>],
        at: Span,
    ) -> Result<(), Diagnostic> {
        let text = atom.to_string();
        if m.ltl_steps.iter().any(|s| s.text == text) {
            return Ok(());
        }
        let mut parsed = Vec::new();
        for arg in args {
            parsed.push(match arg {
                None => None,
                Some(arg) => Some(self.parse_text(arg, at, None, |p| p.expr()).map_err(|d| {
                    let message = format!("in the LTL atom `{text}`: {}", d.message);
                    Diagnostic { message, ..d }
                })?),
            });
        }
        m.ltl_steps.push(crate::frontends::b::ast::LtlStep {
            text,
            op: op.to_string(),
            args: parsed,
        });
        Ok(())
    }

    /// Parses the clause introduced by `kw` (the next token) into `m`.
    fn clause(&mut self, kw: Keyword, token: &Token, m: &mut Machine) -> Result<(), Diagnostic> {
        use Keyword::*;
        if kw == Definitions {
            let end = self
                .file_position()
                .and_then(|pos| self.definitions_clause_end(pos));
            match end {
                Some(end) => self.skip_to(end),
                None => {
                    return Err(self.error_at(token, "`DEFINITIONS` cannot come from a definition"));
                }
            }
            return Ok(());
        }
        self.bump();
        match kw {
            Machine | Model | System | Refinement | Implementation => {
                return Err(self.error_at(
                    token,
                    format!("expected a clause keyword or `END`, found `{}`", kw.text()),
                ));
            }
            Refines => m.refines = Some(self.ident()?),
            Constraints => m.constraints = Some(self.expr()?),
            Sets => m.sets = self.set_declarations()?,
            Constants | ConcreteConstants | AbstractConstants | VisibleConstants => {
                m.constants.extend(self.declared_names()?);
            }
            Properties => m.properties = Some(self.expr()?),
            Variables | AbstractVariables | VisibleVariables => {
                m.variables.extend(self.declared_names()?);
            }
            ConcreteVariables => {
                let names = self.declared_names()?;
                m.concrete_variables
                    .extend(names.iter().map(|n| n.name.clone()));
                m.variables.extend(names);
            }
            Invariant => m.invariant = Some(self.expr()?),
            Assertions => {
                m.assertions.push(self.expr()?);
                while self.eat_sym(Sym::Semicolon) {
                    m.assertions.push(self.expr()?);
                }
            }
            Initialisation => m.initialisation = Some(self.subst()?),
            Operations => m.operations = self.operations()?,
            LocalOperations => m.local_operations = self.operations()?,
            Sees | Uses => m.sees.extend(self.machine_refs(false)?),
            Includes | Imports => m.includes.extend(self.machine_refs(true)?),
            Extends => m.extends = self.machine_refs(true)?,
            Promotes => m.promotes = self.ident_list()?,
            Values => m.values = self.values()?,
            _ => return Err(self.unsupported(token, &format!("{} clause", kw.text()))),
        }
        Ok(())
    }

    /// `r.M(a, b), N, ...` (arguments only where `with_args`).
    fn machine_refs(&mut self, with_args: bool) -> Result<Vec<MachineRef>, Diagnostic> {
        let mut refs = Vec::new();
        loop {
            let start = self.peek().span;
            let full = self.ident()?;
            let (prefix, name) = match full.name.rsplit_once('.') {
                Some((prefix, name)) => {
                    let offset = (prefix.len() + 1) as u32;
                    let span = Span {
                        start: full.span.start + offset,
                        end: full.span.end,
                    };
                    (
                        Some(prefix.to_string()),
                        Ident {
                            name: name.to_string(),
                            span,
                        },
                    )
                }
                None => (None, full),
            };
            let args = if with_args && self.eat_sym(Sym::LParen) {
                self.expr_list(Sym::RParen)?
            } else {
                Vec::new()
            };
            refs.push(MachineRef {
                prefix,
                name,
                args,
                span: self.span_from(start),
            });
            if !self.eat_sym(Sym::Comma) {
                return Ok(refs);
            }
        }
    }

    /// `c1 = e1; c2 = e2; ...` of the `VALUES` clause.
    fn values(&mut self) -> Result<Vec<(Ident, Expr)>, Diagnostic> {
        let mut values = Vec::new();
        loop {
            let name = self.ident()?;
            if !self.eat_sym(Sym::Eq) {
                return Err(self.expected("`=`"));
            }
            values.push((name, self.expr()?));
            if !self.eat_sym(Sym::Semicolon) || !matches!(self.peek_kind(), TokenKind::Ident(_)) {
                return Ok(values);
            }
        }
    }

    /// `S; T = {a, b}; ...`
    fn set_declarations(&mut self) -> Result<Vec<SetDecl>, Diagnostic> {
        let mut sets = Vec::new();
        loop {
            let name = self.ident()?;
            if self.eat_sym(Sym::Eq) {
                self.expect_sym(Sym::LBrace)?;
                let elements = self.ident_list()?;
                if !self.eat_sym(Sym::RBrace) {
                    return Err(self.expected("`,` or `}`"));
                }
                sets.push(SetDecl::Enumerated(name, elements));
            } else {
                sets.push(SetDecl::Deferred(name));
            }
            // A `;` separates declarations; one before the next clause is tolerated.
            if !self.eat_sym(Sym::Semicolon) || !matches!(self.peek_kind(), TokenKind::Ident(_)) {
                return Ok(sets);
            }
        }
    }

    /// `List = nil, cons(INTEGER * List); Tree = ...` of the `FREETYPES` clause.
    fn free_types(&mut self) -> Result<Vec<FreeTypeDecl>, Diagnostic> {
        let mut types = Vec::new();
        loop {
            let name = self.ident()?;
            if self.peek_kind() == &TokenKind::Sym(Sym::LParen) {
                let token = self.peek().clone();
                return Err(self.error_at(
                    &token,
                    format!(
                        "not supported yet: the free type `{}` with type parameters",
                        name.name
                    ),
                ));
            }
            if !self.eat_sym(Sym::Eq) {
                return Err(self.expected("`=` and the constructors of the free type"));
            }
            let mut constructors = Vec::new();
            loop {
                let name = self.ident()?;
                let arg = if self.eat_sym(Sym::LParen) {
                    let arg = self.expr()?;
                    self.expect_sym(Sym::RParen)?;
                    Some(arg)
                } else {
                    None
                };
                constructors.push(ConstructorDecl { name, arg });
                if !self.eat_sym(Sym::Comma) {
                    break;
                }
            }
            types.push(FreeTypeDecl { name, constructors });
            // A `;` separates declarations; one before the next clause is tolerated.
            if !self.eat_sym(Sym::Semicolon) || !matches!(self.peek_kind(), TokenKind::Ident(_)) {
                return Ok(types);
            }
        }
    }

    /// `op1 = S1; r <-- op2(x) = S2; ...`
    fn operations(&mut self) -> Result<Vec<Operation>, Diagnostic> {
        let mut ops = Vec::new();
        loop {
            ops.push(self.operation()?);
            if !self.eat_sym(Sym::Semicolon)
                || matches!(self.peek_kind(), TokenKind::Keyword(_) | TokenKind::Eof)
            {
                return Ok(ops);
            }
        }
    }

    /// `r1, r2 <-- name(p1, p2) = body`
    fn operation(&mut self) -> Result<Operation, Diagnostic> {
        let start = self.peek().span;
        let outputs = if self.sym_at(1, Sym::OutputArrow) || self.sym_at(1, Sym::Comma) {
            let outputs = self.ident_list()?;
            self.expect_sym(Sym::OutputArrow)?;
            outputs
        } else {
            Vec::new()
        };
        let name = self.ident()?;
        let params = if self.eat_sym(Sym::LParen) {
            let params = self.ident_list()?;
            self.expect_sym(Sym::RParen)?;
            params
        } else {
            Vec::new()
        };
        if !self.eat_sym(Sym::Eq) {
            return Err(self.expected("`=`"));
        }
        let mark = self.shadow(&params);
        self.shadow(&outputs);
        let body = self.subst();
        self.unshadow(mark);
        let body = body?;
        Ok(Operation {
            name,
            outputs,
            params,
            body,
            span: self.span_from(start),
        })
    }
}
