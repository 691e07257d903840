//! Expressions and predicates: a Pratt parser over B's priority table.
//!
//! B mixes expressions and predicates (`bool(P)`, `{x | P}`), so both are
//! parsed by one function into [`Expr`]; the type checker tells them apart.
//! Binary operators bind according to the priorities of the Atelier B
//! reference manual, which ProB's parser follows (higher binds tighter;
//! all left-associative except `**`):
//!
//! | priority | operators |
//! |---------:|-----------|
//! | 30  | `=>` |
//! | 40  | `&` `or` |
//! | 50  | `<=>` |
//! | 60  | `=` `/=` `:` `/:` `<:` `<<:` `/<:` `/<<:` `<` `<=` `>` `>=` |
//! | 125 | `<->` and the function arrows `+->` `-->` `>+>` `>->` `+->>` `-->>` `>+>>` `>->>` |
//! | 160 | `\|->` `\/` `/\` `<\|` `<<\|` `\|>` `\|>>` `<+` `><` `^` `<-` `->` `/\|\` `\\|/` |
//! | 170 | `..` |
//! | 180 | `+` `-` |
//! | 190 | `*` `/` `mod` |
//! | 200 | `**` (right-associative) |
//! | 210 | unary `-` |
//! | tightest | postfix `~`, application `f(x)`, image `r[S]` |
//!
//! So `a & b => c` is `(a & b) => c`, `x : A <-> B` is `x : (A <-> B)` and
//! `1..n+1` is `1..(n+1)`. `<=>` sits between `&` and the comparisons (in
//! ProB comparisons are atomic predicates, so `a = b <=> c = d` compares two
//! predicates). `not P` takes an operand tighter than `<=>`.
//! Relational composition `(r ; s)`, parallel product `(r || s)` and pairs
//! `(a, b)` only exist inside parentheses, as in ProB.

use super::Parser;
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{
    BinaryOp, Builtin, BuiltinConstant, Expr, ExprKind, Ident, QuantifiedExprKind, Quantifier,
    UnaryOp,
};
use crate::frontends::b::lexer::{Keyword, Sym, Token, TokenKind};
use crate::frontends::b::library::External;

/// Operand priority of `not`: tighter than `<=>`, looser than `=`.
const NOT_OPERAND: u8 = 51;
/// Priority of unary minus.
const UNARY_MINUS: u8 = 210;

/// The binary operator a token stands for, its priority and whether it is
/// right-associative.
fn infix(kind: &TokenKind) -> Option<(BinaryOp, u8, bool)> {
    use BinaryOp as B;
    let op = match kind {
        TokenKind::Keyword(Keyword::Or) => (B::Or, 40),
        TokenKind::Keyword(Keyword::Mod) => (B::Mod, 190),
        TokenKind::Sym(sym) => match sym {
            Sym::Implies => (B::Implies, 30),
            Sym::Amp => (B::And, 40),
            Sym::Equiv => (B::Equiv, 50),
            Sym::Eq => (B::Eq, 60),
            Sym::Neq => (B::Neq, 60),
            Sym::Colon => (B::Member, 60),
            Sym::NotMember => (B::NotMember, 60),
            Sym::Subset => (B::Subset, 60),
            Sym::StrictSubset => (B::StrictSubset, 60),
            Sym::NotSubset => (B::NotSubset, 60),
            Sym::NotStrictSubset => (B::NotStrictSubset, 60),
            Sym::Lt => (B::Lt, 60),
            Sym::Le => (B::Le, 60),
            Sym::Gt => (B::Gt, 60),
            Sym::Ge => (B::Ge, 60),
            Sym::Relation => (B::Relation, 125),
            Sym::PartialFunction => (B::PartialFunction, 125),
            Sym::TotalFunction => (B::TotalFunction, 125),
            Sym::PartialInjection => (B::PartialInjection, 125),
            Sym::TotalInjection => (B::TotalInjection, 125),
            Sym::PartialSurjection => (B::PartialSurjection, 125),
            Sym::TotalSurjection => (B::TotalSurjection, 125),
            Sym::PartialBijection => (B::PartialBijection, 125),
            Sym::TotalBijection => (B::TotalBijection, 125),
            Sym::Maplet => (B::Maplet, 160),
            Sym::Union => (B::Union, 160),
            Sym::Inter => (B::Inter, 160),
            Sym::DomainRestriction => (B::DomainRestriction, 160),
            Sym::DomainSubtraction => (B::DomainSubtraction, 160),
            Sym::RangeRestriction => (B::RangeRestriction, 160),
            Sym::RangeSubtraction => (B::RangeSubtraction, 160),
            Sym::Override => (B::Override, 160),
            Sym::DirectProduct => (B::DirectProduct, 160),
            Sym::Caret => (B::Concat, 160),
            Sym::Append => (B::Append, 160),
            Sym::Prepend => (B::Prepend, 160),
            Sym::TakeFront => (B::TakeFront, 160),
            Sym::DropFront => (B::DropFront, 160),
            Sym::Interval => (B::Interval, 170),
            Sym::Plus => (B::Add, 180),
            Sym::Minus | Sym::SetMinus => (B::Minus, 180),
            Sym::Star => (B::Mul, 190),
            Sym::Slash => (B::Div, 190),
            Sym::Power => return Some((B::Power, 200, true)),
            _ => return None,
        },
        _ => return None,
    };
    Some((op.0, op.1, false))
}

/// Built-in constants by name.
fn builtin_constant(name: &str) -> Option<BuiltinConstant> {
    use BuiltinConstant as C;
    Some(match name {
        "NAT" => C::Nat,
        "NAT1" => C::Nat1,
        "INT" => C::Int,
        "NATURAL" => C::Natural,
        "NATURAL1" => C::Natural1,
        "INTEGER" => C::Integer,
        "BOOL" => C::Bool,
        "STRING" => C::String,
        "MAXINT" => C::MaxInt,
        "MININT" => C::MinInt,
        _ => return None,
    })
}

/// One-argument built-ins `name(e)` by name.
fn unary_builtin(name: &str) -> Option<UnaryOp> {
    use UnaryOp as U;
    Some(match name {
        "card" => U::Card,
        "dom" => U::Dom,
        "ran" => U::Ran,
        "POW" => U::Pow,
        "POW1" => U::Pow1,
        "FIN" => U::Fin,
        "FIN1" => U::Fin1,
        "union" => U::GeneralUnion,
        "inter" => U::GeneralInter,
        "min" => U::Min,
        "max" => U::Max,
        "id" => U::Id,
        "closure" => U::Closure,
        "closure1" => U::Closure1,
        "seq" => U::Seq,
        "seq1" => U::Seq1,
        "iseq" => U::Iseq,
        "iseq1" => U::Iseq1,
        "perm" => U::Perm,
        "first" => U::First,
        "last" => U::Last,
        "front" => U::Front,
        "tail" => U::Tail,
        "size" => U::Size,
        "rev" => U::Rev,
        "conc" => U::Conc,
        "succ" => U::Succ,
        "pred" => U::Pred,
        "fnc" => U::Fnc,
        "rel" => U::Rel,
        _ => return None,
    })
}

/// Two-argument built-ins by name.
fn binary_builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "prj1" => Builtin::Prj1,
        "prj2" => Builtin::Prj2,
        "iterate" => Builtin::Iterate,
        _ => return None,
    })
}

/// Quantified expressions by name.
fn quantified_expr(name: &str) -> Option<QuantifiedExprKind> {
    Some(match name {
        "SIGMA" => QuantifiedExprKind::Sum,
        "PI" => QuantifiedExprKind::Product,
        "UNION" => QuantifiedExprKind::Union,
        "INTER" => QuantifiedExprKind::Inter,
        _ => return None,
    })
}

/// Whether `name` is a built-in of B and so cannot name a variable,
/// constant, set, operation or bound variable.
pub(super) fn is_builtin_name(name: &str) -> bool {
    builtin_constant(name).is_some()
        || unary_builtin(name).is_some()
        || binary_builtin(name).is_some()
        || quantified_expr(name).is_some()
        || matches!(name, "TRUE" | "FALSE" | "bool" | "btrue" | "bfalse")
        || (unsupported_name(name).is_some() && !is_real_function(name))
}

/// ProB's functions on reals: names that are built-ins only when applied
/// (`floor(x)`), so older machines can still use them as plain names.
fn is_real_function(name: &str) -> bool {
    matches!(name, "real" | "floor" | "ceiling")
}

/// Reserved names of ProB's B that orbit does not support yet, with what
/// they are.
fn unsupported_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "REAL" | "FLOAT" | "real" | "floor" | "ceiling" => "real numbers",
        _ => return None,
    })
}

fn node(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    node(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span)
}

impl Parser<'_> {
    /// Parses an expression or predicate.
    pub(super) fn expr(&mut self) -> Result<Expr, Diagnostic> {
        self.expr_bp(0)
    }

    /// Parses operators of priority at least `min` (Pratt's algorithm).
    fn expr_bp(&mut self, min: u8) -> Result<Expr, Diagnostic> {
        self.enter()?;
        let result = self.expr_bp_inner(min);
        self.leave();
        result
    }

    fn expr_bp_inner(&mut self, min: u8) -> Result<Expr, Diagnostic> {
        let mut lhs = self.prefix()?;
        let mut links = 0;
        while let Some((op, priority, right_assoc)) = infix(self.peek_kind()) {
            if priority < min {
                break;
            }
            self.bump();
            // Each operator of a chain deepens the tree (conjunctions are
            // walked as lists by every phase: see MAX_TREE_DEPTH).
            if op != BinaryOp::And {
                self.link()?;
                links += 1;
            }
            let rhs = self.expr_bp(if right_assoc { priority } else { priority + 1 })?;
            lhs = binary(op, lhs, rhs);
        }
        self.unlink(links);
        Ok(lhs)
    }

    /// A prefix form followed by postfix application, image and inverse.
    fn prefix(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.primary()?;
        let mut links = 0;
        loop {
            if self.at_sym(Sym::LParen)
                || self.at_sym(Sym::LBracket)
                || self.at_sym(Sym::Tilde)
                || self.at_sym(Sym::Quote)
            {
                // `f(x)(y)...`, `r[s][t]...`, `r~~...` deepen the tree too.
                self.link()?;
                links += 1;
            }
            if self.at_sym(Sym::LParen) {
                self.bump();
                let args = self.expr_list(Sym::RParen)?;
                let span = self.span_from(e.span);
                e = node(ExprKind::Apply(Box::new(e), args), span);
            } else if self.at_sym(Sym::LBracket) {
                self.bump();
                let set = self.expr()?;
                self.expect_sym(Sym::RBracket)?;
                let span = self.span_from(e.span);
                e = node(ExprKind::Image(Box::new(e), Box::new(set)), span);
            } else if self.at_sym(Sym::Tilde) {
                self.bump();
                let span = self.span_from(e.span);
                e = node(ExprKind::Unary(UnaryOp::Inverse, Box::new(e)), span);
            } else if self.at_sym(Sym::Quote) {
                self.bump();
                let field = self.field_name()?;
                let span = self.span_from(e.span);
                e = node(ExprKind::Field(Box::new(e), field), span);
            } else {
                self.unlink(links);
                return Ok(e);
            }
        }
    }

    /// `e1, e2, ... CLOSE` (at least one expression); consumes `CLOSE`.
    pub(super) fn expr_list(&mut self, close: Sym) -> Result<Vec<Expr>, Diagnostic> {
        let mut items = vec![self.bracketed_expr()?];
        while self.eat_sym(Sym::Comma) {
            items.push(self.bracketed_expr()?);
        }
        if !self.eat_sym(close) {
            return Err(self.expected(&format!("`,` or `{}`", close.text())));
        }
        Ok(items)
    }

    fn primary(&mut self) -> Result<Expr, Diagnostic> {
        while self.expand_definition(true)? {}
        let start = self.peek().span;
        match self.peek_kind() {
            &TokenKind::Int(n) => {
                self.bump();
                Ok(node(ExprKind::Int(n), start))
            }
            TokenKind::BigInt(n) => {
                let n = n.clone();
                self.bump();
                Ok(node(ExprKind::BigInt(n), start))
            }
            TokenKind::Str(_) | TokenKind::Ident(_) => {
                let token = self.bump();
                match token.kind {
                    TokenKind::Str(s) => Ok(node(ExprKind::Str(s), start)),
                    TokenKind::Ident(ref name) => self.named(name.clone(), &token),
                    _ => Err(self.error_at(&token, "expected an expression")),
                }
            }
            TokenKind::Sym(Sym::Minus) => {
                self.bump();
                if let TokenKind::Int(n) = *self.peek_kind() {
                    self.bump();
                    return Ok(node(ExprKind::Int(-n), self.span_from(start)));
                }
                if let TokenKind::BigInt(n) = self.peek_kind() {
                    let n = -n.clone();
                    self.bump();
                    // `-9223372036854775808` is MININT of 64 bits.
                    return Ok(node(
                        match i64::try_from(&n) {
                            Ok(i) => ExprKind::Int(i),
                            Err(_) => ExprKind::BigInt(n),
                        },
                        self.span_from(start),
                    ));
                }
                let operand = self.expr_bp(UNARY_MINUS)?;
                Ok(node(
                    ExprKind::Unary(UnaryOp::Minus, Box::new(operand)),
                    self.span_from(start),
                ))
            }
            TokenKind::Keyword(Keyword::Not) => {
                self.bump();
                let operand = self.expr_bp(NOT_OPERAND)?;
                Ok(node(
                    ExprKind::Unary(UnaryOp::Not, Box::new(operand)),
                    self.span_from(start),
                ))
            }
            TokenKind::Sym(Sym::LParen) => self.parenthesised(),
            TokenKind::Sym(Sym::LBrace) => self.set_expression(),
            TokenKind::Sym(Sym::EmptySeq) => {
                self.bump();
                Ok(node(
                    ExprKind::Constant(BuiltinConstant::EmptySeq),
                    self.span_from(start),
                ))
            }
            TokenKind::Sym(Sym::LBracket) => {
                self.bump();
                if self.eat_sym(Sym::RBracket) {
                    return Ok(node(
                        ExprKind::Constant(BuiltinConstant::EmptySeq),
                        self.span_from(start),
                    ));
                }
                let items = self.expr_list(Sym::RBracket)?;
                Ok(node(ExprKind::SeqEnum(items), self.span_from(start)))
            }
            TokenKind::Sym(Sym::Bang) | TokenKind::Sym(Sym::Hash) => {
                let q = if self.bump().kind == TokenKind::Sym(Sym::Bang) {
                    Quantifier::ForAll
                } else {
                    Quantifier::Exists
                };
                let vars = self.binder_list()?;
                let mark = self.shadow(&vars);
                self.expect_sym(Sym::Dot)?;
                self.expect_sym(Sym::LParen)?;
                let body = self.expr()?;
                self.expect_sym(Sym::RParen)?;
                self.unshadow(mark);
                Ok(node(
                    ExprKind::Quantifier(q, vars, Box::new(body)),
                    self.span_from(start),
                ))
            }
            TokenKind::Sym(Sym::Percent) => {
                self.bump();
                let (vars, pred, value) = self.binder_pred_expr()?;
                Ok(node(
                    ExprKind::Lambda(vars, Box::new(pred), Box::new(value)),
                    self.span_from(start),
                ))
            }
            TokenKind::Keyword(Keyword::If) => self.if_expression(),
            TokenKind::Keyword(Keyword::Let) => {
                self.bump();
                let vars = self.ident_list()?;
                let mark = self.shadow(&vars);
                self.expect_kw(Keyword::Be)?;
                let pred = self.expr()?;
                self.expect_kw(Keyword::In)?;
                let body = self.expr()?;
                self.expect_kw(Keyword::End)?;
                self.unshadow(mark);
                Ok(node(
                    ExprKind::Let(vars, Box::new(pred), Box::new(body)),
                    self.span_from(start),
                ))
            }
            _ => Err(self.expected("an expression")),
        }
    }

    /// `x.(P | E)` or `(x, y).(P | E)` after `%`, `SIGMA` and the like.
    fn binder_pred_expr(&mut self) -> Result<(Vec<Ident>, Expr, Expr), Diagnostic> {
        let vars = self.binder_list()?;
        let mark = self.shadow(&vars);
        self.expect_sym(Sym::Dot)?;
        self.expect_sym(Sym::LParen)?;
        let pred = self.expr()?;
        self.expect_sym(Sym::Bar)?;
        let value = self.bracketed_expr()?;
        self.expect_sym(Sym::RParen)?;
        self.unshadow(mark);
        Ok((vars, pred, value))
    }

    /// An expression inside brackets, where `;` cannot end a substitution
    /// and so is relational composition, and `||` parallel product (both
    /// of the lowest priority, left-associative): `dom(f ; g)`,
    /// `UNION(i).(i : I | r(i) ; s)`.
    fn bracketed_expr(&mut self) -> Result<Expr, Diagnostic> {
        self.bracketed_operators(false)
    }

    /// An expression followed by `; e`, `|| e` and, with `pairs` (inside
    /// plain parentheses), `, e`: one priority, left-associative.
    fn bracketed_operators(&mut self, pairs: bool) -> Result<Expr, Diagnostic> {
        let mut e = self.expr()?;
        loop {
            let op = match self.peek_kind() {
                TokenKind::Sym(Sym::Comma) if pairs => BinaryOp::Maplet,
                TokenKind::Sym(Sym::Semicolon) => BinaryOp::Composition,
                TokenKind::Sym(Sym::Parallel) => BinaryOp::ParallelProduct,
                _ => return Ok(e),
            };
            self.bump();
            let rhs = self.expr()?;
            e = binary(op, e, rhs);
        }
    }

    /// `a: e1, b: e2)` after `rec(` or `struct(`; a field named twice is
    /// an error.
    fn record_fields(&mut self) -> Result<Vec<(Ident, Expr)>, Diagnostic> {
        let mut fields: Vec<(Ident, Expr)> = Vec::new();
        loop {
            let name = self.field_name()?;
            if let Some((first, _)) = fields.iter().find(|(f, _)| f.name == name.name) {
                return Err(Diagnostic::error(
                    name.span,
                    format!("field `{}` is given twice", name.name),
                )
                .with_note(format!("first given at {}", self.file.location(first.span))));
            }
            if !self.eat_sym(Sym::Colon) {
                return Err(self.expected("`:` and the field's value (`rec(a: 1, b: TRUE)`)"));
            }
            fields.push((name, self.expr()?));
            if !self.eat_sym(Sym::Comma) {
                break;
            }
        }
        self.expect_sym(Sym::RParen)?;
        Ok(fields)
    }

    /// A record field's name: any identifier, also one that names a
    /// built-in elsewhere (`rec(id: 1)`).
    pub(super) fn field_name(&mut self) -> Result<Ident, Diagnostic> {
        if let TokenKind::Ident(_) = self.peek_kind() {
            let t = self.bump();
            if let TokenKind::Ident(name) = t.kind {
                return Ok(Ident { name, span: t.span });
            }
        }
        Err(self.expected("a field name"))
    }

    /// Identifiers, built-in constants and built-in functions.
    /// `token` (already consumed) is the identifier `name`.
    fn named(&mut self, name: String, token: &Token) -> Result<Expr, Diagnostic> {
        let start = token.span;
        if let Some(what) = unsupported_name(&name)
            && (!is_real_function(&name) || self.at_sym(Sym::LParen))
        {
            return Err(self.unsupported(token, what));
        }
        let simple = |kind| Ok(node(kind, start));
        // An external function of ProB's libraries, declared by its marker.
        if let Some(f) = External::from_name(&name)
            && (self
                .defs
                .by_name
                .contains_key(&format!("EXTERNAL_FUNCTION_{name}"))
                || self
                    .defs
                    .by_name
                    .contains_key(&format!("EXTERNAL_PREDICATE_{name}")))
        {
            let args = if f.arity() == 0 {
                Vec::new()
            } else {
                self.expect_sym(Sym::LParen)?;
                self.expr_list(Sym::RParen)?
            };
            if args.len() != f.arity() {
                return Err(Diagnostic::error(
                    self.span_from(start),
                    format!(
                        "`{name}` takes {} argument(s), found {}",
                        f.arity(),
                        args.len()
                    ),
                ));
            }
            let span = self.span_from(start);
            let call = node(ExprKind::External(f, args), span);
            if f.is_predicate() {
                // `X(..)` of an EXTERNAL_PREDICATE stands where a predicate does.
                return Ok(binary(BinaryOp::Eq, call, node(ExprKind::True, span)));
            }
            return Ok(call);
        }

        match name.as_str() {
            "TRUE" => return simple(ExprKind::True),
            "FALSE" => return simple(ExprKind::False),
            // The predicates true and false (in a predicate's place, the
            // typechecker and the compiler read `True`/`False` as them).
            "btrue" => return simple(ExprKind::True),
            "bfalse" => return simple(ExprKind::False),
            "bool" => {
                self.expect_sym(Sym::LParen)?;
                let p = self.expr()?;
                self.expect_sym(Sym::RParen)?;
                return Ok(node(ExprKind::BoolOf(Box::new(p)), self.span_from(start)));
            }
            "rec" | "struct" if self.at_sym(Sym::LParen) => {
                self.bump();
                let fields = self.record_fields()?;
                let kind = if name == "rec" {
                    ExprKind::Record(fields)
                } else {
                    ExprKind::Struct(fields)
                };
                return Ok(node(kind, self.span_from(start)));
            }
            _ => {}
        }
        if let Some(c) = builtin_constant(&name) {
            return simple(ExprKind::Constant(c));
        }
        if let Some(op) = unary_builtin(&name) {
            if !self.at_sym(Sym::LParen) && matches!(op, UnaryOp::Succ | UnaryOp::Pred) {
                // `succ` and `pred` are also relations in their own right
                // (`succ[S]`, `f = pred`): the lambda `%x.(x : INTEGER | x
                // + 1)`, applied, imaged and kept symbolic as lambdas are.
                return Ok(successor_lambda(op == UnaryOp::Succ, self.span_from(start)));
            }
            self.expect_sym(Sym::LParen)?;
            let arg = self.bracketed_expr()?;
            self.expect_sym(Sym::RParen)?;
            return Ok(node(
                ExprKind::Unary(op, Box::new(arg)),
                self.span_from(start),
            ));
        }
        if let Some(b) = binary_builtin(&name) {
            self.expect_sym(Sym::LParen)?;
            let args = self.expr_list(Sym::RParen)?;
            // ProB also reads `prj1(p)` and `prj2(p)` of a pair.
            let one_ok = matches!(b, Builtin::Prj1 | Builtin::Prj2) && args.len() == 1;
            if args.len() != 2 && !one_ok {
                return Err(self.error_at(
                    token,
                    format!("`{name}` takes 2 arguments but {} were given", args.len()),
                ));
            }
            return Ok(node(ExprKind::Call(b, args), self.span_from(start)));
        }
        if let Some(q) = quantified_expr(&name) {
            let (vars, pred, value) = self.binder_pred_expr()?;
            return Ok(node(
                ExprKind::QuantifiedExpr(q, vars, Box::new(pred), Box::new(value)),
                self.span_from(start),
            ));
        }
        simple(ExprKind::Ident(name))
    }

    /// `(e)`, pairs `(a, b, c)`, composition `(r ; s)` and parallel
    /// product `(r || s)`.
    fn parenthesised(&mut self) -> Result<Expr, Diagnostic> {
        let open = self.bump();
        let mut e = self.bracketed_operators(true)?;
        if !self.at_sym(Sym::RParen) {
            return Err(if open.synthetic {
                self.expected("the end of the definition body")
            } else {
                self.expected("`)`")
            });
        }
        let close = self.bump();
        e.span = if open.synthetic {
            // An expanded definition: the node stands for its use site.
            open.span
        } else {
            // So that an operator's operands show their parentheses.
            open.span.to(close.span)
        };
        Ok(e)
    }

    /// `{}`, `{a, b}`, `{x | P}`, `{x, y | P}` and `{(x, y) | P}`.
    fn set_expression(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.bump().span;
        if self.eat_sym(Sym::RBrace) {
            return Ok(node(
                ExprKind::Constant(BuiltinConstant::EmptySet),
                self.span_from(start),
            ));
        }
        if self.at_comprehension() {
            let vars = self.binder_list()?;
            let mark = self.shadow(&vars);
            self.expect_sym(Sym::Bar)?;
            let pred = self.expr()?;
            self.expect_sym(Sym::RBrace)?;
            self.unshadow(mark);
            return Ok(node(
                ExprKind::Comprehension(vars, Box::new(pred)),
                self.span_from(start),
            ));
        }
        let items = self.expr_list(Sym::RBrace)?;
        Ok(node(ExprKind::SetEnum(items), self.span_from(start)))
    }

    /// Whether the tokens after `{` are `x, y |` or `(x, y) |`.
    fn at_comprehension(&self) -> bool {
        let mut k = 0;
        let parenthesised = self.sym_at(0, Sym::LParen);
        if parenthesised {
            k = 1;
        }
        loop {
            if !matches!(self.peek_at(k).kind, TokenKind::Ident(_)) {
                return false;
            }
            k += 1;
            if self.sym_at(k, Sym::Comma) {
                k += 1;
                continue;
            }
            if parenthesised {
                if !self.sym_at(k, Sym::RParen) {
                    return false;
                }
                k += 1;
            }
            return self.sym_at(k, Sym::Bar);
        }
    }

    /// `IF P THEN E1 (ELSIF P THEN E)* ELSE E2 END` as an expression;
    /// also called at `ELSIF`, which nests as an `IF` sharing the `END`.
    fn if_expression(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.bump().span;
        let cond = self.expr()?;
        self.expect_kw(Keyword::Then)?;
        let then = self.expr()?;
        let otherwise = if self.at_kw(Keyword::Elsif) {
            self.enter()?;
            let nested = self.if_expression();
            self.leave();
            nested?
        } else {
            self.expect_kw(Keyword::Else)?;
            let e = self.expr()?;
            self.expect_kw(Keyword::End)?;
            e
        };
        Ok(node(
            ExprKind::IfThenElse(Box::new(cond), Box::new(then), Box::new(otherwise)),
            self.span_from(start),
        ))
    }
}

/// `succ` (`up`) or `pred` written as a relation: `%x.(x : INTEGER | x + 1)`
/// or `x - 1`, its variable named so that no B identifier can capture it.
fn successor_lambda(up: bool, span: Span) -> Expr {
    let name = if up { "succ$x" } else { "pred$x" };
    let e = |kind| Expr { kind, span };
    let x = || e(ExprKind::Ident(name.to_string()));
    let typing = e(ExprKind::Binary(
        BinaryOp::Member,
        Box::new(x()),
        Box::new(e(ExprKind::Constant(BuiltinConstant::Integer))),
    ));
    let op = if up { BinaryOp::Add } else { BinaryOp::Minus };
    let body = e(ExprKind::Binary(
        op,
        Box::new(x()),
        Box::new(e(ExprKind::Int(1))),
    ));
    e(ExprKind::Lambda(
        vec![Ident {
            name: name.to_string(),
            span,
        }],
        Box::new(typing),
        Box::new(body),
    ))
}
