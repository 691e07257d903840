//! Generalised substitutions.
//!
//! `;` (sequencing) and `||` (parallel composition) share priority 20 and
//! associate to the left, as in Atelier B and ProB's grammar: so
//! `a := 1 || b := 2 ; c := 3` is `(a := 1 || b := 2) ; c := 3` and
//! `a := 1 ; b := 2 || c := 3` is `(a := 1 ; b := 2) || c := 3`. Runs of one
//! operator are flattened into one [`SubstKind::Sequence`] or
//! [`SubstKind::Parallel`].
//! In the `OPERATIONS` clause `;` also separates operations; a `;` followed
//! by an operation header (`name =`, `name(...) =`, `r <-- name ...`) ends
//! the body, since no substitution can start that way.
//!
//! A definition used where a substitution starts is expanded without the
//! parentheses put around expressions (`Inc == x := x + 1`).

use super::Parser;
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{
    AssignTarget, BinaryOp, Expr, ExprKind, Ident, Subst, SubstKind, While,
};
use crate::frontends::b::lexer::{Keyword, Sym, TokenKind};

impl Parser<'_> {
    /// Parses a substitution, including `;` sequences and `||`.
    ///
    /// Both operators have priority 20 and associate to the left, so
    /// `a ; b || c` is `(a ; b) || c`; runs of one operator are flattened.
    pub(super) fn subst(&mut self) -> Result<Subst, Diagnostic> {
        let first = self.subst_atom()?;
        let mut items = vec![first];
        let mut current: Option<Sym> = None;
        let mut links = 0;
        loop {
            let op = if self.at_sequence_semicolon() {
                Sym::Semicolon
            } else if self.at_sym(Sym::Parallel) {
                Sym::Parallel
            } else {
                break;
            };
            self.bump();
            // `S1 ; S2 ; ...` runs (and is checked) element by element.
            self.link()?;
            links += 1;
            let rhs = self.subst_atom()?;
            if current.is_some_and(|c| c != op) {
                let lhs = compose(current, std::mem::take(&mut items));
                items.push(lhs);
            }
            current = Some(op);
            items.push(rhs);
        }
        self.unlink(links);
        Ok(compose(current, items))
    }

    /// Whether the next token is a `;` continuing a sequence (not one
    /// separating operations).
    fn at_sequence_semicolon(&self) -> bool {
        self.at_sym(Sym::Semicolon) && !self.at_operation_header(1)
    }

    /// Whether the tokens from `k` on look like an operation header:
    /// `name =`, `name(...) =`, `r <-- name =`, `r <-- name(...) =` or
    /// `r1, r2 <-- ...` (an operation call `r <-- name(...)` in a sequence
    /// is not a header: no `=` follows it).
    pub(super) fn at_operation_header(&self, k: usize) -> bool {
        if !matches!(self.peek_at(k).kind, TokenKind::Ident(_)) {
            return false;
        }
        let mut j = k + 1;
        while self.sym_at(j, Sym::Comma) && matches!(self.peek_at(j + 1).kind, TokenKind::Ident(_))
        {
            j += 2;
        }
        if self.sym_at(j, Sym::OutputArrow) {
            return self.at_name_then_eq(j + 1);
        }
        j == k + 1 && self.at_name_then_eq(k)
    }

    /// Whether the tokens from `k` on are `name =` or `name(...) =`.
    fn at_name_then_eq(&self, k: usize) -> bool {
        if !matches!(self.peek_at(k).kind, TokenKind::Ident(_)) {
            return false;
        }
        match &self.peek_at(k + 1).kind {
            TokenKind::Sym(Sym::Eq) => true,
            TokenKind::Sym(Sym::LParen) => {
                let mut depth = 0usize;
                let mut j = k + 1;
                loop {
                    match &self.peek_at(j).kind {
                        TokenKind::Sym(Sym::LParen) => depth += 1,
                        TokenKind::Sym(Sym::RParen) => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                return self.sym_at(j + 1, Sym::Eq);
                            }
                        }
                        TokenKind::Eof => return false,
                        _ => {}
                    }
                    j += 1;
                }
            }
            _ => false,
        }
    }

    fn subst_atom(&mut self) -> Result<Subst, Diagnostic> {
        self.enter()?;
        let result = self.subst_atom_inner();
        self.leave();
        result
    }

    fn subst_atom_inner(&mut self) -> Result<Subst, Diagnostic> {
        while self.expand_definition(false)? {}
        let start = self.peek().span;
        let kind = match self.peek_kind() {
            TokenKind::Keyword(Keyword::Skip) => {
                self.bump();
                SubstKind::Skip
            }
            TokenKind::Keyword(Keyword::Begin) => {
                self.bump();
                let body = self.subst()?;
                self.expect_kw(Keyword::End)?;
                SubstKind::Block(Box::new(body))
            }
            TokenKind::Keyword(Keyword::Pre) => {
                let (cond, body) = self.guarded()?;
                SubstKind::Precondition(cond, Box::new(body))
            }
            TokenKind::Keyword(Keyword::Assert) => {
                let (cond, body) = self.guarded()?;
                SubstKind::Assert(cond, Box::new(body))
            }
            TokenKind::Keyword(Keyword::When) => {
                let (cond, body) = self.guarded()?;
                SubstKind::Select(vec![(cond, body)], None)
            }
            TokenKind::Keyword(Keyword::Select) => {
                let (branches, otherwise) = self.branches(Keyword::When)?;
                SubstKind::Select(branches, otherwise)
            }
            TokenKind::Keyword(Keyword::If) => {
                let (branches, otherwise) = self.branches(Keyword::Elsif)?;
                SubstKind::If(branches, otherwise)
            }
            TokenKind::Keyword(Keyword::Case) => self.case()?,
            TokenKind::Keyword(Keyword::Choice) => {
                self.bump();
                let mut options = vec![self.subst()?];
                while self.eat_kw(Keyword::OrChoice) {
                    options.push(self.subst()?);
                }
                self.expect_kw(Keyword::End)?;
                SubstKind::Choice(options)
            }
            TokenKind::Keyword(Keyword::Any) => {
                self.bump();
                let vars = self.ident_list()?;
                let mark = self.shadow(&vars);
                self.expect_kw(Keyword::Where)?;
                let pred = self.expr()?;
                self.expect_kw(Keyword::Then)?;
                let body = self.subst()?;
                self.expect_kw(Keyword::End)?;
                self.unshadow(mark);
                SubstKind::Any(vars, pred, Box::new(body))
            }
            TokenKind::Keyword(Keyword::Let) => {
                self.bump();
                let vars = self.ident_list()?;
                let mark = self.shadow(&vars);
                self.expect_kw(Keyword::Be)?;
                let pred = self.expr()?;
                self.expect_kw(Keyword::In)?;
                let body = self.subst()?;
                self.expect_kw(Keyword::End)?;
                self.unshadow(mark);
                SubstKind::Let(vars, pred, Box::new(body))
            }
            TokenKind::Keyword(Keyword::Var) => {
                self.bump();
                let vars = self.ident_list()?;
                let mark = self.shadow(&vars);
                self.expect_kw(Keyword::In)?;
                let body = self.subst()?;
                self.expect_kw(Keyword::End)?;
                self.unshadow(mark);
                SubstKind::Var(vars, Box::new(body))
            }
            TokenKind::Keyword(Keyword::While) => {
                self.bump();
                let cond = self.expr()?;
                self.expect_kw(Keyword::Do)?;
                let body = self.subst()?;
                self.expect_kw(Keyword::Invariant)?;
                let invariant = self.expr()?;
                self.expect_kw(Keyword::Variant)?;
                let variant = self.expr()?;
                self.expect_kw(Keyword::End)?;
                SubstKind::While(Box::new(While {
                    cond,
                    body,
                    invariant,
                    variant,
                }))
            }
            TokenKind::Ident(_) => self.assignment()?,
            _ => return Err(self.expected("a substitution")),
        };
        Ok(Subst {
            kind,
            span: self.span_from(start),
        })
    }

    /// `KW P THEN S END` for `PRE`, `ASSERT` and `WHEN`.
    fn guarded(&mut self) -> Result<(Expr, Subst), Diagnostic> {
        self.bump();
        let cond = self.expr()?;
        self.expect_kw(Keyword::Then)?;
        let body = self.subst()?;
        self.expect_kw(Keyword::End)?;
        Ok((cond, body))
    }

    /// `KW P THEN S (MORE P THEN S)* [ELSE S] END` for `SELECT ... WHEN`
    /// and `IF ... ELSIF`.
    #[allow(clippy::type_complexity)]
    fn branches(
        &mut self,
        more: Keyword,
    ) -> Result<(Vec<(Expr, Subst)>, Option<Box<Subst>>), Diagnostic> {
        self.bump();
        let mut branches = Vec::new();
        loop {
            let cond = self.expr()?;
            self.expect_kw(Keyword::Then)?;
            branches.push((cond, self.subst()?));
            if !self.eat_kw(more) {
                break;
            }
        }
        let otherwise = if self.eat_kw(Keyword::Else) {
            Some(Box::new(self.subst()?))
        } else {
            None
        };
        self.expect_kw(Keyword::End)?;
        Ok((branches, otherwise))
    }

    /// `CASE e OF EITHER v1, v2 THEN S (OR v THEN S)* [ELSE S] END END`
    fn case(&mut self) -> Result<SubstKind, Diagnostic> {
        self.bump();
        let scrutinee = self.expr()?;
        self.expect_kw(Keyword::Of)?;
        self.expect_kw(Keyword::Either)?;
        let mut branches = Vec::new();
        loop {
            let mut values = vec![self.expr()?];
            while self.eat_sym(Sym::Comma) {
                values.push(self.expr()?);
            }
            self.expect_kw(Keyword::Then)?;
            branches.push((values, self.subst()?));
            if !self.eat_kw(Keyword::OrChoice) {
                break;
            }
        }
        let otherwise = if self.eat_kw(Keyword::Else) {
            Some(Box::new(self.subst()?))
        } else {
            None
        };
        self.expect_kw(Keyword::End)?;
        self.expect_kw(Keyword::End)?;
        Ok(SubstKind::Case(scrutinee, branches, otherwise))
    }

    /// Substitutions starting with a name: `x, f(a) := e1, e2`,
    /// `x, y :: S`, `x, y : (P)` and operation calls `r <-- op(a)`, `op(a)`.
    fn assignment(&mut self) -> Result<SubstKind, Diagnostic> {
        let mut targets = Vec::new();
        // `f(a)(b) := e`: the argument lists after the first, per target.
        let mut curried: Vec<Vec<Vec<Expr>>> = Vec::new();
        // `r'a := e`: the field path, per target.
        let mut fields: Vec<Vec<Ident>> = Vec::new();
        loop {
            let name = self.ident()?;
            // `r'a'b := e`: the field path, turned into `r := r with a := ...`.
            let mut path = Vec::new();
            while self.eat_sym(Sym::Quote) {
                path.push(self.field_name()?);
            }
            if !path.is_empty() {
                targets.push(AssignTarget::Var(name));
                curried.push(Vec::new());
                fields.push(path);
                if !self.eat_sym(Sym::Comma) {
                    break;
                }
                continue;
            }
            fields.push(Vec::new());
            let mut more = Vec::new();
            if self.eat_sym(Sym::LParen) {
                let args = self.expr_list(Sym::RParen)?;
                while self.eat_sym(Sym::LParen) {
                    more.push(self.expr_list(Sym::RParen)?);
                }
                targets.push(AssignTarget::FunctionPoint(name, args));
            } else {
                targets.push(AssignTarget::Var(name));
            }
            curried.push(more);
            if !self.eat_sym(Sym::Comma) {
                break;
            }
        }
        match self.peek_kind() {
            TokenKind::Sym(Sym::Assign) => {
                let assign = self.bump();
                let mut values = vec![self.expr()?];
                while self.eat_sym(Sym::Comma) {
                    values.push(self.expr()?);
                }
                // `r'a'b := e` is `r := r with a := (r'a with b := e)`.
                for ((target, path), value) in targets.iter().zip(&fields).zip(values.iter_mut()) {
                    if let AssignTarget::Var(r) = target
                        && !path.is_empty()
                    {
                        *value = field_update(r, path, value.clone());
                    }
                }
                // `f(a)(b) := e` is `f(a) := f(a) <+ {b |-> e}` (and so on).
                for ((target, more), value) in targets.iter().zip(&curried).zip(values.iter_mut()) {
                    if let AssignTarget::FunctionPoint(f, args) = target
                        && !more.is_empty()
                    {
                        *value = curried_update(f, args, more, value.clone());
                    }
                }
                if values.len() != targets.len() {
                    return Err(self.error_at(
                        &assign,
                        format!(
                            "{} variable(s) assigned but {} value(s) given",
                            targets.len(),
                            values.len()
                        ),
                    ));
                }
                Ok(SubstKind::Assign(targets, values))
            }
            TokenKind::Sym(Sym::BecomesIn) => {
                self.bump();
                let vars =
                    plain_variables(targets).map_err(|span| self.not_a_variable(span, "::"))?;
                Ok(SubstKind::BecomesElementOf(vars, self.expr()?))
            }
            TokenKind::Sym(Sym::Colon) => {
                self.bump();
                let vars =
                    plain_variables(targets).map_err(|span| self.not_a_variable(span, ":"))?;
                Ok(SubstKind::BecomesSuchThat(vars, self.expr()?))
            }
            TokenKind::Sym(Sym::OutputArrow) => {
                self.bump();
                let outputs =
                    plain_variables(targets).map_err(|span| self.not_a_variable(span, "<--"))?;
                let op = self.ident()?;
                let args = if self.eat_sym(Sym::LParen) {
                    self.expr_list(Sym::RParen)?
                } else {
                    Vec::new()
                };
                Ok(SubstKind::OpCall(outputs, op, args))
            }
            TokenKind::Keyword(_)
            | TokenKind::Sym(Sym::Semicolon | Sym::Parallel)
            | TokenKind::Eof
                if targets.len() == 1 =>
            {
                // `op` or `op(a, b)` on its own: a call without outputs.
                Ok(match targets.pop() {
                    Some(AssignTarget::FunctionPoint(op, args)) => {
                        SubstKind::OpCall(Vec::new(), op, args)
                    }
                    Some(AssignTarget::Var(op)) => SubstKind::OpCall(Vec::new(), op, Vec::new()),
                    None => return Err(self.expected("a substitution")),
                })
            }
            _ => Err(self.expected("`:=`, `::` or `:`")),
        }
    }

    fn not_a_variable(&self, span: Span, op: &str) -> Diagnostic {
        Diagnostic::error(
            span,
            format!("only variables can be assigned with `{op}`, not function points"),
        )
    }
}

/// The new value of `r` for `r'path[0]'path[1]... := value`.
fn field_update(r: &Ident, path: &[Ident], value: Expr) -> Expr {
    // The records being updated at each level: r, r'path[0], ... Each node
    // gets its own span: the compiler finds a field's position by span.
    let mut records = vec![Expr {
        kind: ExprKind::Ident(r.name.clone()),
        span: r.span,
    }];
    for field in &path[..path.len() - 1] {
        let inner = records.last().expect("one level").clone();
        records.push(Expr {
            kind: ExprKind::Field(Box::new(inner), field.clone()),
            span: r.span.to(field.span),
        });
    }
    let mut value = value;
    for (field, record) in path.iter().zip(records).rev() {
        let span = field.span.to(value.span);
        value = Expr {
            kind: ExprKind::RecordWith(Box::new(record), field.clone(), Box::new(value)),
            span,
        };
    }
    value
}

/// The new value of `f(args)` for `f(args)(more[0])(more[1])... := value`:
/// `f(args) <+ {more[0] |-> (f(args)(more[0]) <+ {more[1] |-> value})}`.
fn curried_update(f: &Ident, args: &[Expr], more: &[Vec<Expr>], value: Expr) -> Expr {
    let span = value.span;
    let node = |kind| Expr { kind, span };
    let pair = |items: &[Expr]| {
        items
            .iter()
            .cloned()
            .reduce(|a, b| node(ExprKind::Binary(BinaryOp::Maplet, Box::new(a), Box::new(b))))
            .expect("argument lists are not empty")
    };
    // The function being updated at each level: f(args), f(args)(more[0]),
    // ..., each spanning the target as written (a read outside the domain
    // is reported there).
    let through = |from: Span, level: &[Expr]| level.iter().fold(from, |s, e| s.to(e.span));
    let mut applied = vec![Expr {
        kind: ExprKind::Apply(
            Box::new(Expr {
                kind: ExprKind::Ident(f.name.clone()),
                span: f.span,
            }),
            args.to_vec(),
        ),
        span: through(f.span, args),
    }];
    for level in &more[..more.len() - 1] {
        let inner = applied.last().expect("one level").clone();
        let span = through(inner.span, level);
        applied.push(Expr {
            kind: ExprKind::Apply(Box::new(inner), level.clone()),
            span,
        });
    }
    let mut value = value;
    for (level, function) in more.iter().zip(applied).rev() {
        let point = node(ExprKind::Binary(
            BinaryOp::Maplet,
            Box::new(pair(level)),
            Box::new(value),
        ));
        value = node(ExprKind::Binary(
            BinaryOp::Override,
            Box::new(function),
            Box::new(node(ExprKind::SetEnum(vec![point]))),
        ));
    }
    value
}

/// Combines the operands of a run of `op` (`;` or `||`) into one node.
fn compose(op: Option<Sym>, mut items: Vec<Subst>) -> Subst {
    if items.len() == 1
        && let Some(only) = items.pop()
    {
        return only;
    }
    let span = match (items.first(), items.last()) {
        (Some(a), Some(b)) => a.span.to(b.span),
        _ => Span::default(),
    };
    let kind = if op == Some(Sym::Parallel) {
        SubstKind::Parallel(items)
    } else {
        SubstKind::Sequence(items)
    };
    Subst { kind, span }
}

/// The names of `targets` if none is a function point; otherwise the span
/// of the first function point.
fn plain_variables(targets: Vec<AssignTarget>) -> Result<Vec<Ident>, Span> {
    targets
        .into_iter()
        .map(|t| match t {
            AssignTarget::Var(id) => Ok(id),
            AssignTarget::FunctionPoint(id, _) => Err(id.span),
        })
        .collect()
}
