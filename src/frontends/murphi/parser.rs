//! A recursive-descent parser for Murphi (the language of CMurphi's and
//! Rumur's manuals). Constructs orbit does not run yet are refused by name
//! ("not supported yet: ...") with their position.

use super::ast::*;
use super::lexer::{Tok, Token, lex};
use crate::diag::{Diagnostic, Span};

/// A parsed Murphi program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Global declarations, procedures and functions, in order.
    pub decls: Vec<Decl>,
    /// Rules, start states, invariants and rulesets, in order.
    pub rules: Vec<Rule>,
    /// The source order of both: `true` for the next declaration, `false`
    /// for the next rule (names must be declared before they are used).
    pub order: Vec<bool>,
}

/// Deepest nesting of expressions and statements the parser follows.
const MAX_DEPTH: usize = 2_000;

/// Deepest tree the parser builds, counting one level per operator of a
/// chain such as `a + b + c` (a left-nested tree that the compiler and
/// the interpreter walk recursively) on top of the nesting. As in the B
/// front end (`MAX_TREE_DEPTH` there): chains of 40,000 operators fit the
/// command's and the workers' stacks, this keeps a factor of 2.
pub const MAX_TREE_DEPTH: usize = 20_000;

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// Operators of the chains on the current path (see [`MAX_TREE_DEPTH`]).
    links: usize,
    /// Unnamed rules, start states, invariants... so far, per kind (an
    /// unnamed one is called `invariant 1`, `rule 3`, as in Rumur).
    rule_count: std::collections::HashMap<&'static str, usize>,
}

type R<T> = Result<T, Diagnostic>;

/// Parses a Murphi program.
pub fn parse_program(text: &str) -> R<Program> {
    let mut p = Parser {
        toks: lex(text)?,
        pos: 0,
        depth: 0,
        links: 0,
        rule_count: std::collections::HashMap::new(),
    };
    p.program()
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Keyword(k) => format!("`{k}`"),
        Tok::Int(i) => format!("`{i}`"),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Eof => "the end of the file".into(),
    }
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    /// The token `k` places ahead (the end of the file past the last).
    fn peek_at(&self, k: usize) -> &Tok {
        let last = self.toks.len() - 1;
        &self.toks[(self.pos + k).min(last)].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Keyword(x) if *x == k)
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(x) if *x == p)
    }

    fn eat_kw(&mut self, k: &str) -> bool {
        let yes = self.is_kw(k);
        if yes {
            self.bump();
        }
        yes
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let yes = self.is_punct(p);
        if yes {
            self.bump();
        }
        yes
    }

    fn error<T>(&self, expected: &str) -> R<T> {
        Err(Diagnostic::error(
            self.span(),
            format!("expected {expected}, found {}", describe(self.peek())),
        ))
    }

    fn expect_kw(&mut self, k: &str) -> R<()> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            self.error(&format!("`{k}`"))
        }
    }

    fn expect_punct(&mut self, p: &str) -> R<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.error(&format!("`{p}`"))
        }
    }

    /// `end` or the construct's own closing keyword.
    fn expect_end(&mut self, own: &str) -> R<()> {
        if self.eat_kw("end") || self.eat_kw(own) {
            Ok(())
        } else {
            self.error(&format!("`{own}` or `end`"))
        }
    }

    fn ident(&mut self) -> R<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                let span = self.bump().span;
                Ok((s, span))
            }
            _ => self.error("a name"),
        }
    }

    fn unsupported<T>(&self, what: &str) -> R<T> {
        Err(Diagnostic::error(
            self.span(),
            format!("not supported yet: {what}"),
        ))
    }

    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                self.span(),
                format!("nesting deeper than {MAX_DEPTH} levels (a bound of orbit)"),
            ));
        }
        Ok(())
    }

    fn program(&mut self) -> R<Program> {
        let mut prog = Program::default();
        // Declarations, procedures and rules may come in any order (as
        // Rumur reads them); declarations are resolved before the rules.
        while !matches!(self.peek(), Tok::Eof) {
            if workers::budget::tripped().is_some() {
                return Err(Diagnostic::error(self.span(), "stopped"));
            }
            if self.eat_punct(";") {
                continue;
            }
            if self.is_kw("const") || self.is_kw("type") || self.is_kw("var") {
                let decls = self.decl_section()?;
                prog.order.extend(decls.iter().map(|_| true));
                prog.decls.extend(decls);
            } else if self.is_kw("procedure") || self.is_kw("function") {
                prog.decls.push(Decl::Proc(self.proc_decl()?));
                prog.order.push(true);
            } else {
                prog.rules.push(self.rule()?);
                prog.order.push(false);
            }
        }
        Ok(prog)
    }

    /// One `const`, `type` or `var` section.
    fn decl_section(&mut self) -> R<Vec<Decl>> {
        let mut out = Vec::new();
        if self.eat_kw("const") {
            while let Tok::Ident(_) = self.peek() {
                let names = self.ident_list()?;
                if !self.eat_punct(":") {
                    self.expect_punct("=")?;
                }
                let value = self.expr()?;
                self.end_decl()?;
                for (name, span) in names {
                    out.push(Decl::Const(name, value.clone(), span));
                }
            }
        } else if self.eat_kw("type") {
            while let Tok::Ident(_) = self.peek() {
                let names = self.ident_list()?;
                if !self.eat_punct(":") {
                    self.expect_punct("=")?;
                }
                let ty = self.type_expr()?;
                self.end_decl()?;
                for (name, span) in names {
                    out.push(Decl::Type(name, ty.clone(), span));
                }
            }
        } else {
            self.expect_kw("var")?;
            while let Tok::Ident(_) = self.peek() {
                let names = self.ident_list()?;
                self.expect_punct(":")?;
                let ty = self.type_expr()?;
                self.end_decl()?;
                out.push(Decl::Var(names, ty));
            }
        }
        Ok(out)
    }

    /// The `;` after a declaration: optional, as Rumur reads it; extra
    /// ones are skipped.
    fn end_decl(&mut self) -> R<()> {
        while self.eat_punct(";") {}
        Ok(())
    }

    fn ident_list(&mut self) -> R<Vec<(String, Span)>> {
        let mut names = vec![self.ident()?];
        while self.eat_punct(",") {
            names.push(self.ident()?);
        }
        Ok(names)
    }

    /// Declarations local to a rule or procedure, up to `begin` (if any).
    fn local_decls(&mut self) -> R<Vec<Decl>> {
        let mut out = Vec::new();
        while self.is_kw("const") || self.is_kw("type") || self.is_kw("var") {
            out.extend(self.decl_section()?);
        }
        if !out.is_empty() {
            self.expect_kw("begin")?;
        } else {
            self.eat_kw("begin");
        }
        Ok(out)
    }

    fn type_expr(&mut self) -> R<TypeExpr> {
        self.deeper()?;
        let ty = if self.eat_kw("boolean") {
            TypeExpr::Boolean
        } else if self.eat_kw("enum") {
            self.expect_punct("{")?;
            let mut names = vec![self.ident()?];
            while self.eat_punct(",") {
                if self.is_punct("}") {
                    break;
                }
                names.push(self.ident()?);
            }
            self.expect_punct("}")?;
            TypeExpr::Enum(names)
        } else if self.eat_kw("scalarset") {
            self.expect_punct("(")?;
            let n = self.expr()?;
            self.expect_punct(")")?;
            TypeExpr::Scalarset(Box::new(n))
        } else if self.eat_kw("array") {
            self.expect_punct("[")?;
            let index = self.type_expr()?;
            self.expect_punct("]")?;
            self.expect_kw("of")?;
            let elem = self.type_expr()?;
            TypeExpr::Array(Box::new(index), Box::new(elem))
        } else if self.eat_kw("record") {
            let mut fields = Vec::new();
            // Rumur reads fields without `;` between them too.
            while let Tok::Ident(_) = self.peek() {
                let names = self.ident_list()?;
                self.expect_punct(":")?;
                let ty = self.type_expr()?;
                for (n, _) in names {
                    fields.push((n, ty.clone()));
                }
                self.end_decl()?;
            }
            self.expect_end("endrecord")?;
            TypeExpr::Record(fields)
        } else if self.eat_kw("union") {
            self.expect_punct("{")?;
            let mut members = vec![self.type_expr()?];
            while self.eat_punct(",") {
                members.push(self.type_expr()?);
            }
            self.expect_punct("}")?;
            TypeExpr::Union(members)
        } else if matches!(self.peek(), Tok::Ident(n) if n.eq_ignore_ascii_case("real"))
            && matches!(self.peek_at(1), Tok::Punct("("))
        {
            return self.unsupported("real numbers (CMurphi's `real` types)");
        } else if self.eat_kw("multiset") {
            self.expect_punct("[")?;
            let max = self.expr()?;
            self.expect_punct("]")?;
            self.expect_kw("of")?;
            let elem = self.type_expr()?;
            TypeExpr::Multiset(Box::new(max), Box::new(elem))
        } else {
            // A named type, or a range `lo .. hi` whose bound may be a name.
            let start = self.pos;
            if let Tok::Ident(name) = self.peek().clone() {
                let span = self.bump().span;
                if !self.is_punct("..") && !self.is_binary_op() {
                    self.depth -= 1;
                    return Ok(TypeExpr::Named(name, span));
                }
                self.pos = start;
            }
            let lo = self.expr()?;
            self.expect_punct("..")?;
            let hi = self.expr()?;
            TypeExpr::Range(Box::new(lo), Box::new(hi))
        };
        self.depth -= 1;
        Ok(ty)
    }

    fn is_binary_op(&self) -> bool {
        ["+", "-", "*", "/", "%"].iter().any(|p| self.is_punct(p))
    }

    fn proc_decl(&mut self) -> R<Proc> {
        let is_function = self.is_kw("function");
        let span = self.bump().span;
        let (name, _) = self.ident()?;
        let mut params = Vec::new();
        self.expect_punct("(")?;
        while !self.is_punct(")") {
            let by_ref = self.eat_kw("var");
            let names = self.ident_list()?;
            self.expect_punct(":")?;
            let ty = self.type_expr()?;
            for (n, _) in names {
                params.push((n, by_ref, ty.clone()));
            }
            // Groups are separated by `;` (Rumur also reads them without).
            if !self.eat_punct(";") && !self.is_kw("var") && !matches!(self.peek(), Tok::Ident(_)) {
                break;
            }
        }
        self.expect_punct(")")?;
        let result = if is_function {
            self.expect_punct(":")?;
            Some(self.type_expr()?)
        } else {
            None
        };
        self.eat_punct(";");
        let decls = self.local_decls()?;
        let body = self.stmts()?;
        self.expect_end(if is_function {
            "endfunction"
        } else {
            "endprocedure"
        })?;
        self.eat_punct(";");
        Ok(Proc {
            name,
            params,
            result,
            decls,
            body,
            span,
        })
    }

    /// A property's name written after its condition (`invariant x > 0 "positive"`),
    /// consumed if there is one.
    fn trailing_name(&mut self) -> Option<String> {
        let Tok::Str(s) = self.peek() else {
            return None;
        };
        let s = s.clone();
        self.bump();
        Some(s)
    }

    fn rule_name(&mut self, kind: &'static str) -> String {
        let count = self.rule_count.entry(kind).or_default();
        *count += 1;
        let count = *count;
        match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                s
            }
            _ => format!("{kind} {count}"),
        }
    }

    fn rule(&mut self) -> R<Rule> {
        self.deeper()?;
        let span = self.span();
        let rule = if self.eat_kw("rule") {
            // CMurphi's rule priority.
            let mut priority = 0;
            if let Tok::Int(p) = self.peek() {
                priority = *p;
                self.bump();
            }
            let name = self.rule_name("rule");
            let guard = if self.is_kw("begin")
                || self.is_kw("var")
                || self.is_kw("const")
                || self.is_kw("type")
                || self.is_punct("==>")
            {
                None
            } else {
                Some(self.expr()?)
            };
            if guard.is_some() || self.is_punct("==>") {
                self.expect_punct("==>")?;
            }
            let decls = self.local_decls()?;
            let body = self.stmts()?;
            self.expect_end("endrule")?;
            Rule::Simple {
                name,
                guard,
                decls,
                body,
                priority,
                span,
            }
        } else if self.eat_kw("startstate") {
            let name = self.rule_name("startstate");
            let decls = self.local_decls()?;
            let body = self.stmts()?;
            self.expect_end("endstartstate")?;
            Rule::Start {
                name,
                decls,
                body,
                span,
            }
        } else if self.eat_kw("invariant") {
            let named = matches!(self.peek(), Tok::Str(_));
            let mut name = self.rule_name("invariant");
            let cond = self.expr()?;
            if !named && let Some(s) = self.trailing_name() {
                name = s;
            }
            Rule::Invariant { name, cond, span }
        } else if self.eat_kw("assume") {
            let named = matches!(self.peek(), Tok::Str(_));
            let mut name = self.rule_name("assume");
            let cond = self.expr()?;
            if !named && let Some(s) = self.trailing_name() {
                name = s;
            }
            Rule::Assume { name, cond, span }
        } else if self.eat_kw("cover") {
            let named = matches!(self.peek(), Tok::Str(_));
            let mut name = self.rule_name("cover");
            let cond = self.expr()?;
            if !named && let Some(s) = self.trailing_name() {
                name = s;
            }
            Rule::Cover { name, cond, span }
        } else if self.eat_kw("ruleset") {
            let qs = self.quantifiers()?;
            self.expect_kw("do")?;
            let mut rules = Vec::new();
            while !self.is_kw("end") && !self.is_kw("endruleset") {
                rules.push(self.rule()?);
                while self.eat_punct(";") {}
            }
            self.expect_end("endruleset")?;
            Rule::Ruleset(qs, rules)
        } else if self.eat_kw("alias") {
            let decls = self.alias_decls()?;
            let mut rules = Vec::new();
            while !self.is_kw("end") && !self.is_kw("endalias") {
                rules.push(self.rule()?);
                while self.eat_punct(";") {}
            }
            self.expect_end("endalias")?;
            Rule::Alias(decls, rules)
        } else if self.eat_kw("choose") {
            let (name, _) = self.ident()?;
            self.expect_punct(":")?;
            let set = self.designator()?;
            self.expect_kw("do")?;
            let mut rules = Vec::new();
            while !self.is_kw("end") && !self.is_kw("endchoose") {
                rules.push(self.rule()?);
                while self.eat_punct(";") {}
            }
            self.expect_end("endchoose")?;
            Rule::Choose(name, set, rules, span)
        } else if self.eat_kw("liveness") {
            let named = matches!(self.peek(), Tok::Str(_));
            let mut name = self.rule_name("liveness");
            let cond = self.expr()?;
            if !named && let Some(s) = self.trailing_name() {
                name = s;
            }
            Rule::Liveness { name, cond, span }
        } else if self.is_kw("property") {
            return self.unsupported("property rules");
        } else {
            return self.error("a rule, ruleset, startstate or invariant");
        };
        self.depth -= 1;
        Ok(rule)
    }

    /// `(i: m, pred)` after `multisetcount` or `multisetremovepred` (CMurphi
    /// writes `,`; `;` is accepted too).
    fn multiset_predicate(&mut self) -> R<(String, Expr, Expr)> {
        self.expect_punct("(")?;
        let (name, _) = self.ident()?;
        self.expect_punct(":")?;
        let m = self.designator()?;
        if !self.eat_punct(";") {
            self.expect_punct(",")?;
        }
        let pred = self.expr()?;
        self.expect_punct(")")?;
        Ok((name, m, pred))
    }

    /// `a: e {; a: e} do`.
    fn alias_decls(&mut self) -> R<Vec<AliasDecl>> {
        let mut out = Vec::new();
        loop {
            let (name, span) = self.ident()?;
            self.expect_punct(":")?;
            let target = self.expr()?;
            out.push(AliasDecl { name, target, span });
            // Rumur reads aliases without `;` between them too.
            let separated = self.eat_punct(";");
            if self.is_kw("do") || !(separated || matches!(self.peek(), Tok::Ident(_))) {
                break;
            }
        }
        self.expect_kw("do")?;
        Ok(out)
    }

    /// `q1; q2; ...`: the quantifiers of a ruleset, or of a `for`,
    /// `forall` or `exists` as CMurphi reads them (Rumur takes one).
    fn quantifiers(&mut self) -> R<Vec<Quantifier>> {
        let mut qs = vec![self.quantifier()?];
        while self.eat_punct(";") {
            qs.push(self.quantifier()?);
        }
        Ok(qs)
    }

    fn quantifier(&mut self) -> R<Quantifier> {
        let (name, span) = self.ident()?;
        if self.eat_punct(":=") {
            let from = self.expr()?;
            self.expect_kw("to")?;
            let to = self.expr()?;
            let by = if self.eat_kw("by") {
                Some(self.expr()?)
            } else {
                None
            };
            return Ok(Quantifier {
                name,
                range: QRange::Ints(from, to, by),
                span,
                whole: Span::new(span.start as usize, self.prev_span().end as usize),
            });
        }
        self.expect_punct(":")?;
        let range = QRange::Type(self.type_expr()?);
        Ok(Quantifier {
            name,
            range,
            span,
            whole: Span::new(span.start as usize, self.prev_span().end as usize),
        })
    }

    fn at_stmts_end(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
            || [
                "end",
                "endif",
                "elsif",
                "else",
                "endfor",
                "endwhile",
                "endswitch",
                "case",
                "endrule",
                "endstartstate",
                "endprocedure",
                "endfunction",
                "endalias",
            ]
            .iter()
            .any(|k| self.is_kw(k))
    }

    fn stmts(&mut self) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        while !self.at_stmts_end() {
            if self.eat_punct(";") {
                continue;
            }
            out.push(self.stmt()?);
            if !self.eat_punct(";") && !self.at_stmts_end() {
                return self.error("`;`");
            }
        }
        Ok(out)
    }

    fn stmt(&mut self) -> R<Stmt> {
        self.deeper()?;
        let span = self.span();
        let kind = if self.eat_kw("if") {
            let mut arms = Vec::new();
            let c = self.expr()?;
            self.expect_kw("then")?;
            arms.push((c, self.stmts()?));
            let mut otherwise = Vec::new();
            loop {
                if self.eat_kw("elsif") {
                    let c = self.expr()?;
                    self.expect_kw("then")?;
                    arms.push((c, self.stmts()?));
                } else if self.eat_kw("else") {
                    otherwise = self.stmts()?;
                } else {
                    break;
                }
            }
            self.expect_end("endif")?;
            StmtKind::If(arms, otherwise)
        } else if self.eat_kw("switch") {
            let e = self.expr()?;
            let mut cases = Vec::new();
            let mut otherwise = Vec::new();
            loop {
                if self.eat_kw("case") {
                    let mut values = vec![self.expr()?];
                    while self.eat_punct(",") {
                        values.push(self.expr()?);
                    }
                    self.expect_punct(":")?;
                    cases.push((values, self.stmts()?));
                } else if self.eat_kw("else") {
                    otherwise = self.stmts()?;
                } else {
                    break;
                }
            }
            self.expect_end("endswitch")?;
            StmtKind::Switch(e, cases, otherwise)
        } else if self.eat_kw("for") {
            let mut qs = self.quantifiers()?;
            self.expect_kw("do")?;
            let mut body = self.stmts()?;
            self.expect_end("endfor")?;
            // CMurphi's `for i : T; j : U do`: loops nested in order.
            let outer = qs.remove(0);
            for q in qs.into_iter().rev() {
                body = vec![Stmt {
                    kind: StmtKind::For(q, body),
                    span,
                }];
            }
            StmtKind::For(outer, body)
        } else if self.eat_kw("while") {
            let c = self.expr()?;
            self.expect_kw("do")?;
            let body = self.stmts()?;
            self.expect_end("endwhile")?;
            StmtKind::While(c, body)
        } else if self.eat_kw("clear") {
            StmtKind::Clear(self.designator()?)
        } else if self.eat_kw("undefine") {
            StmtKind::Undefine(self.designator()?)
        } else if self.eat_kw("error") {
            match self.bump().tok {
                Tok::Str(s) => StmtKind::Error(s),
                _ => {
                    return Err(Diagnostic::error(
                        self.prev_span(),
                        "expected a message string",
                    ));
                }
            }
        } else if self.eat_kw("assert") {
            let before = match self.peek().clone() {
                Tok::Str(s) => {
                    self.bump();
                    Some(s)
                }
                _ => None,
            };
            let c = self.expr()?;
            let msg = match (before, self.peek().clone()) {
                (Some(s), _) => s,
                (None, Tok::Str(s)) => {
                    self.bump();
                    s
                }
                _ => "assertion".into(),
            };
            StmtKind::Assert(c, msg)
        } else if self.eat_kw("put") {
            if let Tok::Str(_) = self.peek() {
                self.bump();
            } else {
                self.expr()?;
            }
            StmtKind::Put
        } else if self.eat_kw("return") {
            if self.is_punct(";") || self.at_stmts_end() {
                StmtKind::Return(None)
            } else {
                StmtKind::Return(Some(self.expr()?))
            }
        } else if self.eat_kw("alias") {
            let decls = self.alias_decls()?;
            let body = self.stmts()?;
            self.expect_end("endalias")?;
            StmtKind::Alias(decls, body)
        } else if self.eat_kw("assume") {
            // A message may come first, as in Rumur's `assume "..." cond`.
            if let Tok::Str(_) = self.peek() {
                self.bump();
            }
            StmtKind::Assume(self.expr()?)
        } else if self.eat_kw("cover") {
            let name = match self.peek().clone() {
                Tok::Str(s) => {
                    self.bump();
                    s
                }
                _ => self.rule_name("cover"),
            };
            StmtKind::Cover(name, self.expr()?)
        } else if self.is_kw("liveness") {
            return self.error(
                "a statement (`liveness` is a property of the whole model: write it \
                 at the top level or in a ruleset, not in a rule's body)",
            );
        } else if self.eat_kw("multisetadd") {
            self.expect_punct("(")?;
            let e = self.expr()?;
            self.expect_punct(",")?;
            let m = self.designator()?;
            self.expect_punct(")")?;
            StmtKind::MultisetAdd(e, m)
        } else if self.eat_kw("multisetremove") {
            self.expect_punct("(")?;
            let i = self.expr()?;
            self.expect_punct(",")?;
            let m = self.designator()?;
            self.expect_punct(")")?;
            StmtKind::MultisetRemove(i, m)
        } else if self.eat_kw("multisetremovepred") {
            let (name, m, pred) = self.multiset_predicate()?;
            StmtKind::MultisetRemovePred(name, m, pred)
        } else {
            let d = self.designator()?;
            if self.eat_punct(":=") {
                let e = self.expr()?;
                StmtKind::Assign(d, e)
            } else {
                match d.kind {
                    ExprKind::Call(name, args) => StmtKind::Call(name, args),
                    ExprKind::Designator(name, sel) if sel.is_empty() => {
                        StmtKind::Call(name, vec![])
                    }
                    _ => return self.error("`:=`"),
                }
            }
        };
        self.depth -= 1;
        Ok(Stmt {
            kind,
            span: span.to(self.prev_span()),
        })
    }

    /// A designator, or a call `f(args)`.
    fn designator(&mut self) -> R<Expr> {
        let (name, span) = self.ident()?;
        if self.eat_punct("(") {
            let mut args = Vec::new();
            while !self.is_punct(")") {
                args.push(self.expr()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct(")")?;
            return Ok(Expr {
                kind: ExprKind::Call(name, args),
                span: span.to(self.prev_span()),
            });
        }
        let mut sel = Vec::new();
        loop {
            if self.eat_punct(".") {
                let (f, fs) = self.ident()?;
                sel.push(Selector::Field(f, fs));
            } else if self.eat_punct("[") {
                sel.push(Selector::Index(self.expr()?));
                self.expect_punct("]")?;
            } else {
                break;
            }
        }
        Ok(Expr {
            kind: ExprKind::Designator(name, sel),
            span: span.to(self.prev_span()),
        })
    }

    fn expr(&mut self) -> R<Expr> {
        self.deeper()?;
        let c = self.implication()?;
        let e = if self.eat_punct("?") {
            let a = self.expr()?;
            self.expect_punct(":")?;
            let b = self.expr()?;
            let span = c.span.to(b.span);
            Expr {
                kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                span,
            }
        } else {
            c
        };
        self.depth -= 1;
        Ok(e)
    }

    fn binary(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Self) -> R<Expr>,
        right: bool,
    ) -> R<Expr> {
        let mut lhs = next(self)?;
        let links = self.links;
        let result = loop {
            let Some(op) = ops.iter().find(|op| self.is_punct(op)).copied() else {
                break Ok(lhs);
            };
            if let Err(e) = self.link() {
                break Err(e);
            }
            self.bump();
            let rhs = if right {
                self.binary(ops, next, right)
            } else {
                next(self)
            };
            let rhs = match rhs {
                Ok(rhs) => rhs,
                Err(e) => break Err(e),
            };
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
            if right {
                break Ok(lhs);
            }
        };
        self.links = links;
        result
    }

    /// Adds one operator of a chain to the depth of the tree being built;
    /// an error past [`MAX_TREE_DEPTH`].
    fn link(&mut self) -> R<()> {
        self.links += 1;
        if self.links + self.depth > MAX_TREE_DEPTH {
            return Err(Diagnostic::error(
                self.span(),
                format!(
                    "too deeply nested: more than {MAX_TREE_DEPTH} levels (each operator of a \
                     chain such as `a + b + c` counts as one level); split the expression, \
                     e.g. with intermediate variables or functions"
                ),
            ));
        }
        Ok(())
    }

    fn implication(&mut self) -> R<Expr> {
        self.binary(&["->"], Self::or, true)
    }

    fn or(&mut self) -> R<Expr> {
        self.binary(&["|", "||"], Self::and, false)
    }

    fn and(&mut self) -> R<Expr> {
        self.binary(&["&", "&&"], Self::not, false)
    }

    fn not(&mut self) -> R<Expr> {
        if self.is_punct("!") {
            let span = self.bump().span;
            self.deeper()?;
            let e = self.not()?;
            self.depth -= 1;
            let span = span.to(e.span);
            return Ok(Expr {
                kind: ExprKind::Unary("!", Box::new(e)),
                span,
            });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> R<Expr> {
        self.binary(&["=", "!=", "<=", ">=", "<", ">"], Self::xor, false)
    }

    /// Rumur's bitwise `^` (and `&`, `|`, `~` on integers, decided by the
    /// type checker), and shifts.
    fn xor(&mut self) -> R<Expr> {
        self.binary(&["^"], Self::shift, false)
    }

    fn shift(&mut self) -> R<Expr> {
        self.binary(&["<<", ">>"], Self::additive, false)
    }

    fn additive(&mut self) -> R<Expr> {
        self.binary(&["+", "-"], Self::multiplicative, false)
    }

    fn multiplicative(&mut self) -> R<Expr> {
        self.binary(&["*", "/", "%"], Self::unary, false)
    }

    fn unary(&mut self) -> R<Expr> {
        if self.is_punct("!") {
            return self.not();
        }
        if self.is_punct("~") {
            let t = self.bump();
            self.deeper()?;
            let e = self.unary()?;
            self.depth -= 1;
            let span = t.span.to(e.span);
            return Ok(Expr {
                kind: ExprKind::Unary("~", Box::new(e)),
                span,
            });
        }
        if self.is_punct("-") || self.is_punct("+") {
            let t = self.bump();
            self.deeper()?;
            let e = self.unary()?;
            self.depth -= 1;
            let span = t.span.to(e.span);
            return Ok(if t.tok == Tok::Punct("+") {
                e
            } else {
                Expr {
                    kind: ExprKind::Unary("-", Box::new(e)),
                    span,
                }
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> R<Expr> {
        let span = self.span();
        match self.peek().clone() {
            Tok::Int(i) => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Int(i),
                    span,
                })
            }
            Tok::Keyword("true") | Tok::Keyword("false") => {
                let b = self.is_kw("true");
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Bool(b),
                    span,
                })
            }
            Tok::Punct("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_punct(")")?;
                Ok(e)
            }
            Tok::Keyword("isundefined") => {
                self.bump();
                self.expect_punct("(")?;
                let d = self.designator()?;
                self.expect_punct(")")?;
                Ok(Expr {
                    kind: ExprKind::IsUndefined(Box::new(d)),
                    span: span.to(self.prev_span()),
                })
            }
            Tok::Keyword(k @ ("exists" | "forall")) => {
                self.bump();
                let mut qs = self.quantifiers()?;
                self.expect_kw("do")?;
                let mut body = self.expr()?;
                self.expect_end(if k == "exists" {
                    "endexists"
                } else {
                    "endforall"
                })?;
                // CMurphi's `forall i : T; j : U do`: nested quantifiers.
                let span = span.to(self.prev_span());
                let outer = qs.remove(0);
                for q in qs.into_iter().rev() {
                    body = Expr {
                        kind: ExprKind::Quant(k == "exists", Box::new(q), Box::new(body)),
                        span,
                    };
                }
                Ok(Expr {
                    kind: ExprKind::Quant(k == "exists", Box::new(outer), Box::new(body)),
                    span,
                })
            }
            Tok::Keyword("undefined") => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Undefined,
                    span,
                })
            }
            Tok::Keyword("multisetcount") => {
                self.bump();
                let (name, m, pred) = self.multiset_predicate()?;
                Ok(Expr {
                    kind: ExprKind::MultisetCount(name, Box::new(m), Box::new(pred)),
                    span: span.to(self.prev_span()),
                })
            }
            Tok::Keyword("ismember") => {
                self.bump();
                self.expect_punct("(")?;
                let e = self.expr()?;
                self.expect_punct(",")?;
                let t = self.type_expr()?;
                self.expect_punct(")")?;
                Ok(Expr {
                    kind: ExprKind::IsMember(Box::new(e), t),
                    span: span.to(self.prev_span()),
                })
            }
            Tok::Ident(_) => self.designator(),
            _ => self.error("an expression"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_declarations_rules_and_rulesets() {
        let p = parse_program(
            "const N: 3; type pid: scalarset(N); st: enum {idle, busy};
             var s: array [pid] of st; n: 0..N;
             procedure reset(var x: st); begin x := idle; end;
             function busy_count(): 0..N; var c: 0..N; begin c := 0;
               for p: pid do if s[p] = busy then c := c + 1 endif endfor; return c; end;
             startstate begin for p: pid do reset(s[p]) endfor; n := 0; end;
             ruleset p: pid do rule \"go\" s[p] = idle & n < N ==> begin s[p] := busy; n := n + 1 end end;
             invariant \"bound\" busy_count() = n",
        )
        .unwrap();
        assert_eq!(p.decls.len(), 7);
        assert_eq!(p.rules.len(), 3);
        assert!(
            matches!(&p.rules[1], Rule::Ruleset(qs, rules) if qs.len() == 1 && rules.len() == 1)
        );
    }

    #[test]
    fn declarations_need_no_semicolons_and_quantifiers_nest() {
        // Rumur: record fields, constants and aliases without `;`.
        let p = parse_program(
            "const N: 2 M: 3
             type r: record a: 0..N b: boolean c, d: 0..M end
             var x: r y: r
             rule true ==> alias u: x.a v: x.b do u := 0; v := true endalias end",
        )
        .unwrap();
        let fields = p.decls.iter().find_map(|d| match d {
            Decl::Type(_, TypeExpr::Record(f), _) => Some(f.len()),
            _ => None,
        });
        assert_eq!(fields, Some(4));
        // CMurphi: `for` and `forall` with several quantifiers nest them
        // in order.
        let p = parse_program(
            "type a: 1..2; b: 1..3; var m: array [a] of array [b] of boolean;
             startstate for i: a; j: b do m[i][j] := false endfor end;
             invariant forall i: a; j: b do !m[i][j] endforall",
        )
        .unwrap();
        let Rule::Start { body, .. } = &p.rules[0] else {
            panic!("a start state")
        };
        let StmtKind::For(outer, inner) = &body[0].kind else {
            panic!("a loop")
        };
        assert_eq!(outer.name, "i");
        assert!(matches!(&inner[0].kind, StmtKind::For(q, _) if q.name == "j"));
        let Rule::Invariant { cond, .. } = &p.rules[1] else {
            panic!("an invariant")
        };
        let ExprKind::Quant(false, q, body) = &cond.kind else {
            panic!("forall")
        };
        assert_eq!(q.name, "i");
        assert!(matches!(&body.kind, ExprKind::Quant(false, q, _) if q.name == "j"));
    }

    #[test]
    fn multisets_parse() {
        let p = parse_program(
            "type m: multiset [3] of boolean; var n: m;
             choose i: n do rule multisetcount(j: n, n[j]) > 1 ==>
               begin multisetremove(i, n); multisetadd(true, n);
                 multisetremovepred(j: n; !n[j]) end endchoose",
        )
        .unwrap();
        assert!(
            matches!(&p.rules[0], Rule::Choose(i, _, rules, _) if i == "i" && rules.len() == 1)
        );
    }

    #[test]
    fn unsupported_constructs_are_named() {
        let e = parse_program("rule begin liveness \"c\" true end").unwrap_err();
        assert!(
            e.message
                .contains("`liveness` is a property of the whole model"),
            "{}",
            e.message
        );
        let e = parse_program("property \"p\" true").unwrap_err();
        assert!(
            e.message.contains("not supported yet: property rules"),
            "{}",
            e.message
        );
        let p = parse_program("ruleset i: 0..2 do liveness \"l\" i = 1 end").unwrap();
        assert!(
            matches!(&p.rules[0], Rule::Ruleset(_, rules) if matches!(&rules[0], Rule::Liveness { name, .. } if name == "l"))
        );
        assert!(parse_program("type t: union {a, b};").is_ok());
        let e = parse_program("var x: boolean; rule x := end").unwrap_err();
        assert!(e.message.contains("expected"), "{}", e.message);
    }
}
