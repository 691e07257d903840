//! Promela's grammar, as SPIN's manual gives it, over preprocessed tokens;
//! `inline` calls are expanded here, as SPIN expands them (the body's
//! tokens with the arguments in place of the parameters).

use super::ast::*;
use super::lexer::{Tok, TokKind};
use super::structs::{self, Field, FieldType, Typedefs};
use crate::diag::{Diagnostic, Span};
use std::collections::HashMap;

/// How deep statements and expressions may nest.
const MAX_DEPTH: usize = 2_000;

/// The precedence of a binary operator (higher binds tighter), as in
/// SPIN's grammar (C's, without the comma).
pub fn binary_precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | "<=" | ">" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

/// Words that are constructs orbit does not run yet, named when met.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("never", "never claims"),
    ("ltl", "`ltl` formulas"),
    ("trace", "trace assertions"),
    ("notrace", "trace assertions"),
    ("unless", "`unless`"),
    ("provided", "`provided` clauses"),
    ("priority", "process priorities"),
    ("c_code", "embedded C code"),
    ("c_expr", "embedded C code"),
    ("c_decl", "embedded C code"),
    ("c_state", "embedded C code"),
    ("c_track", "embedded C code"),
    ("enabled", "`enabled`"),
    ("pc_value", "`pc_value`"),
    ("np_", "`np_`"),
    ("_last", "`_last`"),
    ("_priority", "`_priority`"),
    ("get_priority", "process priorities"),
    ("set_priority", "process priorities"),
    ("D_proctype", "`D_proctype`"),
    ("eval", "`eval` outside a receive"),
];

fn basic_type(word: &str) -> Option<BasicType> {
    Some(match word {
        "bit" => BasicType::Bit,
        "bool" => BasicType::Bool,
        "byte" => BasicType::Byte,
        "short" => BasicType::Short,
        "int" => BasicType::Int,
        "pid" => BasicType::Pid,
        "mtype" => BasicType::Mtype,
        "chan" => BasicType::Chan,
        "unsigned" => BasicType::Unsigned(0),
        _ => return None,
    })
}

#[derive(Clone)]
struct Inline {
    params: Vec<String>,
    body: Vec<Tok>,
}

/// Parses a preprocessed model.
pub fn parse(toks: Vec<Tok>, end: Span) -> Result<Spec, Diagnostic> {
    let mut inlines = HashMap::new();
    let mut p = Parser {
        toks,
        at: 0,
        end,
        inlines: &mut inlines,
        locals: None,
        exclusive: Vec::new(),
        depth: 0,
        typedefs: Typedefs::new(),
        struct_globals: HashMap::new(),
        struct_locals: HashMap::new(),
    };
    p.spec()
}

struct Parser<'i> {
    toks: Vec<Tok>,
    at: usize,
    end: Span,
    inlines: &'i mut HashMap<String, Inline>,
    /// The locals of the proctype being parsed.
    locals: Option<Vec<Decl>>,
    /// Its `xr`/`xs` claims.
    exclusive: Vec<(String, u8)>,
    depth: usize,
    /// The `typedef`s declared so far.
    typedefs: Typedefs,
    /// Global variables of a structure type: their type and length.
    struct_globals: HashMap<String, (String, Option<usize>)>,
    /// The current proctype's variables of a structure type.
    struct_locals: HashMap<String, (String, Option<usize>)>,
}

type R<T> = Result<T, Diagnostic>;

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.at + k)
    }

    fn here(&self) -> Span {
        self.peek().map_or(self.end, |t| t.span)
    }

    fn at_punct(&self, p: &str) -> bool {
        self.peek().is_some_and(|t| t.is(p))
    }

    fn at_word(&self, w: &str) -> bool {
        self.peek().and_then(Tok::ident) == Some(w)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.at_punct(p) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.at_word(w) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn found(&self) -> String {
        self.peek()
            .map_or_else(|| "the end of the model".to_string(), Tok::describe)
    }

    fn expect(&mut self, p: &str) -> R<Span> {
        match self.peek() {
            Some(t) if t.is(p) => {
                let s = t.span;
                self.at += 1;
                Ok(s)
            }
            _ => Err(Diagnostic::error(
                self.here(),
                format!("expected `{p}`, found {}", self.found()),
            )),
        }
    }

    fn expect_word(&mut self, w: &str) -> R<Span> {
        if self.at_word(w) {
            let s = self.here();
            self.at += 1;
            Ok(s)
        } else {
            Err(Diagnostic::error(
                self.here(),
                format!("expected `{w}`, found {}", self.found()),
            ))
        }
    }

    fn name(&mut self, what: &str) -> R<(String, Span)> {
        match self.peek() {
            Some(Tok {
                kind: TokKind::Ident(s),
                span,
                ..
            }) => {
                let r = (s.clone(), *span);
                self.at += 1;
                Ok(r)
            }
            _ => Err(Diagnostic::error(
                self.here(),
                format!("expected {what}, found {}", self.found()),
            )),
        }
    }

    fn unsupported_word(&self) -> Option<Diagnostic> {
        let w = self.peek()?.ident()?;
        let (_, what) = UNSUPPORTED.iter().find(|(k, _)| *k == w)?;
        Some(Diagnostic::error(
            self.here(),
            format!("not supported yet: {what}"),
        ))
    }

    fn deeper(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                self.here(),
                format!("statements or expressions nest deeper than {MAX_DEPTH}"),
            ));
        }
        Ok(())
    }

    fn spec(&mut self) -> R<Spec> {
        let mut spec = Spec::default();
        while self.peek().is_some() {
            if self.eat(";") {
                continue;
            }
            if let Some(d) = self.unsupported_word() {
                return Err(d);
            }
            if self.at_word("mtype") && (self.peek_at(1).is_some_and(|t| t.is("=") || t.is("{"))) {
                self.mtype_decl(&mut spec)?;
            } else if self.at_word("inline") {
                self.inline_def()?;
            } else if self.at_word("active") || self.at_word("proctype") {
                let p = self.proctype()?;
                spec.proctypes.push(p);
            } else if self.at_word("init") {
                let span = self.here();
                self.at += 1;
                let (locals, body) = self.body()?;
                spec.proctypes.push(Proctype {
                    name: ":init:".to_string(),
                    active: 1,
                    params: Vec::new(),
                    locals,
                    body,
                    exclusive: std::mem::take(&mut self.exclusive),
                    span,
                });
            } else if self.at_word("show") {
                self.at += 1;
            } else if self.at_word("local") || self.at_word("hidden") {
                let list = if self.at_word("local") {
                    &mut spec.local_globals
                } else {
                    &mut spec.hidden_globals
                };
                self.at += 1;
                let before = spec.globals.len();
                self.decls(&mut spec.globals, false)?;
                list.extend(spec.globals[before..].iter().map(|d| d.name.clone()));
            } else if self.at_word("typedef") {
                self.typedef()?;
            } else if self
                .peek()
                .and_then(Tok::ident)
                .is_some_and(|w| self.is_type(w))
            {
                self.decls(&mut spec.globals, false)?;
            } else {
                return Err(Diagnostic::error(
                    self.here(),
                    format!(
                        "expected a declaration, `proctype`, `init` or `inline`, found {}",
                        self.found()
                    ),
                ));
            }
        }
        Ok(spec)
    }

    fn mtype_decl(&mut self, spec: &mut Spec) -> R<()> {
        self.at += 1;
        self.eat("=");
        self.expect("{")?;
        // SPIN also reads names without commas between them.
        loop {
            let (n, s) = self.name("an mtype name")?;
            spec.mtypes.push((n, s));
            if !self.eat(",") && self.peek().is_none_or(|t| t.ident().is_none()) {
                break;
            }
        }
        self.expect("}")?;
        Ok(())
    }

    fn inline_def(&mut self) -> R<()> {
        self.at += 1;
        let (name, _) = self.name("the inline's name")?;
        self.expect("(")?;
        let mut params = Vec::new();
        while !self.at_punct(")") {
            params.push(self.name("a parameter name")?.0);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(")")?;
        let open = self.expect("{")?;
        let start = self.at;
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                Some(t) if t.is("{") => depth += 1,
                Some(t) if t.is("}") => depth -= 1,
                Some(_) => {}
                None => {
                    return Err(Diagnostic::error(open, "this `{` has no `}`"));
                }
            }
            self.at += 1;
        }
        let body = self.toks[start..self.at - 1].to_vec();
        self.inlines.insert(name, Inline { params, body });
        Ok(())
    }

    fn proctype(&mut self) -> R<Proctype> {
        let span = self.here();
        let mut active = 0;
        if self.eat_word("active") {
            active = 1;
            if self.eat("[") {
                let n = self.const_expr("the number of instances")?;
                self.expect("]")?;
                active = usize::try_from(n).unwrap_or(0);
            }
        }
        if let Some(d) = self.unsupported_word() {
            return Err(d);
        }
        self.expect_word("proctype")?;
        let (name, _) = self.name("the proctype's name")?;
        self.expect("(")?;
        let mut params = Vec::new();
        while !self.at_punct(")") {
            let mut group = Vec::new();
            self.one_decl(&mut group, true)?;
            params.extend(group);
            if !self.eat(";") && !self.eat(",") {
                break;
            }
        }
        self.expect(")")?;
        if let Some(d) = self.unsupported_word() {
            return Err(d);
        }
        let (locals, body) = self.body()?;
        Ok(Proctype {
            name,
            active,
            params,
            locals,
            body,
            exclusive: std::mem::take(&mut self.exclusive),
            span,
        })
    }

    fn body(&mut self) -> R<(Vec<Decl>, Seq)> {
        self.locals = Some(Vec::new());
        self.struct_locals.clear();
        self.expect("{")?;
        let seq = self.sequence(&["}"])?;
        self.expect("}")?;
        let locals = self.locals.take().unwrap_or_default();
        Ok((locals, seq))
    }

    /// Declarations of one type, `T a, b = 1, c[2]`.
    fn decls(&mut self, out: &mut Vec<Decl>, param: bool) -> R<()> {
        self.one_decl(out, param)
    }

    /// Whether `w` names a type: a basic one or a `typedef`.
    fn is_type(&self, w: &str) -> bool {
        basic_type(w).is_some() || self.typedefs.contains_key(w)
    }

    /// `typedef T { fields }`: fields of basic types (with lengths and
    /// initial values) and of `typedef`s declared before.
    fn typedef(&mut self) -> R<()> {
        self.at += 1;
        let (name, span) = self.name("the typedef's name")?;
        if self.is_type(&name) {
            return Err(Diagnostic::error(
                span,
                format!("type `{name}` is declared twice"),
            ));
        }
        self.expect("{")?;
        let mut fields: Vec<Field> = Vec::new();
        while !self.at_punct("}") {
            let word = self.peek().and_then(Tok::ident).map(str::to_string);
            if let Some(inner) = word.filter(|w| self.typedefs.contains_key(w)) {
                self.at += 1;
                loop {
                    let (f, _) = self.name("a field name")?;
                    let len = self.array_len(span)?;
                    fields.push(Field {
                        name: f,
                        ty: FieldType::Struct(inner.clone()),
                        len,
                        init: None,
                    });
                    if !self.eat(",") {
                        break;
                    }
                }
            } else {
                let mut decls = Vec::new();
                self.one_decl(&mut decls, false)?;
                for d in decls {
                    if d.chan.is_some() {
                        return Err(Diagnostic::error(
                            d.span,
                            "not supported yet: a channel created in a `typedef`",
                        ));
                    }
                    fields.push(Field {
                        name: d.name,
                        ty: FieldType::Basic(d.ty),
                        len: d.len,
                        init: d.init,
                    });
                }
            }
            if !self.eat(";") && !self.at_punct("}") {
                return Err(Diagnostic::error(
                    self.here(),
                    format!("expected `;` or `}}`, found {}", self.found()),
                ));
            }
        }
        self.expect("}")?;
        self.eat(";");
        for (i, f) in fields.iter().enumerate() {
            if fields[..i].iter().any(|g| g.name == f.name) {
                return Err(Diagnostic::error(
                    span,
                    format!("`{name}` has two fields named `{}`", f.name),
                ));
            }
        }
        if fields.is_empty() {
            return Err(Diagnostic::error(span, format!("`{name}` has no field")));
        }
        self.typedefs.insert(name, fields);
        Ok(())
    }

    /// An optional `[N]` after a name.
    fn array_len(&mut self, span: Span) -> R<Option<usize>> {
        if !self.eat("[") {
            return Ok(None);
        }
        let n = self.const_expr("the array's length")?;
        self.expect("]")?;
        if !(1..=65_535).contains(&n) {
            return Err(Diagnostic::error(span, "an array has 1 to 65535 elements"));
        }
        Ok(Some(n as usize))
    }

    /// `T a, b[2]` for a `typedef` `T`: one variable per leaf field.
    fn struct_decl(
        &mut self,
        tname: String,
        tspan: Span,
        out: &mut Vec<Decl>,
        param: bool,
    ) -> R<()> {
        if param {
            return Err(Diagnostic::error(
                tspan,
                "not supported yet: a parameter of a `typedef` type",
            ));
        }
        let leaves = structs::leaves(&self.typedefs, &tname);
        loop {
            let (name, span) = self.name("a variable name")?;
            let len = self.array_len(span)?;
            // `T x = v`: SPIN reads the value and ignores it (the fields
            // start as their `typedef` says); so does orbit.
            if self.eat("=") {
                self.expr()?;
            }
            let n = len.unwrap_or(1);
            if leaves.iter().any(|l| n * l.count > 65_535) {
                return Err(Diagnostic::error(
                    span,
                    "not supported yet: a structure variable with more than 65535 elements in a field",
                ));
            }
            for l in &leaves {
                out.push(Decl {
                    name: format!("{name}{}", l.suffix),
                    ty: l.ty,
                    len: (len.is_some() || l.array).then_some(n * l.count),
                    init: l.init.clone(),
                    chan: None,
                    span,
                });
            }
            let scope = if self.locals.is_some() {
                &mut self.struct_locals
            } else {
                &mut self.struct_globals
            };
            scope.insert(name, (tname.clone(), len));
            if !self.eat(",") {
                break;
            }
        }
        Ok(())
    }

    /// The structure type and length of variable `name`, if it has one.
    fn struct_var(&self, name: &str) -> Option<(String, Option<usize>)> {
        let local = self
            .locals
            .as_ref()
            .is_some_and(|l| l.iter().any(|d| d.name == name));
        if local {
            return None;
        }
        self.struct_locals
            .get(name)
            .or_else(|| self.struct_globals.get(name))
            .cloned()
    }

    fn one_decl(&mut self, out: &mut Vec<Decl>, param: bool) -> R<()> {
        if let Some(d) = self.unsupported_word() {
            return Err(d);
        }
        let (word, tspan) = self.name("a type")?;
        if self.typedefs.contains_key(&word) {
            return self.struct_decl(word, tspan, out, param);
        }
        let Some(mut ty) = basic_type(&word) else {
            return Err(Diagnostic::error(
                tspan,
                format!("expected a type, found `{word}`"),
            ));
        };
        if self.at_punct(":") {
            return Err(Diagnostic::error(
                self.here(),
                "not supported yet: named `mtype` sets",
            ));
        }
        loop {
            let (name, span) = self.name("a variable name")?;
            if let BasicType::Unsigned(_) = ty {
                self.expect(":")?;
                let bits = self.const_expr("the number of bits")?;
                if !(1..=32).contains(&bits) {
                    return Err(Diagnostic::error(span, "an unsigned takes 1 to 32 bits"));
                }
                ty = BasicType::Unsigned(bits as u8);
            }
            let mut len = None;
            if self.eat("[") {
                let n = self.const_expr("the array's length")?;
                self.expect("]")?;
                if !(1..=65_535).contains(&n) {
                    return Err(Diagnostic::error(span, "an array has 1 to 65535 elements"));
                }
                len = Some(n as usize);
            }
            let mut init = None;
            let mut chan = None;
            if !param && self.eat("=") {
                if ty == BasicType::Chan && self.at_punct("[") {
                    chan = Some(self.chan_shape()?);
                } else if self.at_punct("{") {
                    return Err(Diagnostic::error(
                        self.here(),
                        "not supported yet: array initialiser lists",
                    ));
                } else {
                    init = Some(self.expr()?);
                }
            }
            out.push(Decl {
                name,
                ty,
                len,
                init,
                chan,
                span,
            });
            if !self.eat(",") {
                break;
            }
            // In a parameter list, `,` also separates declarations.
            if param
                && self
                    .peek()
                    .and_then(Tok::ident)
                    .is_some_and(|w| self.is_type(w))
            {
                self.at -= 1;
                break;
            }
        }
        Ok(())
    }

    fn chan_shape(&mut self) -> R<ChanShape> {
        self.expect("[")?;
        let cap = self.const_expr("the channel's capacity")?;
        self.expect("]")?;
        if !(0..=255).contains(&cap) {
            return Err(Diagnostic::error(
                self.here(),
                "a channel holds 0 to 255 messages",
            ));
        }
        self.expect_word("of")?;
        self.expect("{")?;
        let mut fields = Vec::new();
        loop {
            let (w, s) = self.name("a field type")?;
            if self.typedefs.contains_key(&w) {
                for l in structs::leaves(&self.typedefs, &w) {
                    if matches!(l.ty, BasicType::Unsigned(_)) {
                        return Err(Diagnostic::error(
                            s,
                            "not supported yet: `unsigned` message fields",
                        ));
                    }
                    fields.extend(std::iter::repeat_n(l.ty, l.count));
                }
                if !self.eat(",") {
                    break;
                }
                continue;
            }
            let Some(t) = basic_type(&w) else {
                return Err(Diagnostic::error(
                    s,
                    format!("not supported yet: a message field of type `{w}`"),
                ));
            };
            if matches!(t, BasicType::Unsigned(_)) {
                return Err(Diagnostic::error(
                    s,
                    "not supported yet: `unsigned` message fields",
                ));
            }
            fields.push(t);
            if !self.eat(",") {
                break;
            }
        }
        self.expect("}")?;
        Ok(ChanShape {
            capacity: cap as usize,
            fields,
        })
    }

    fn at_separator(&self) -> bool {
        self.at_punct(";") || self.at_punct("->")
    }

    /// Statements up to one of `ends` (not consumed).
    fn sequence(&mut self, ends: &[&str]) -> R<Seq> {
        self.deeper()?;
        let mut stmts = Vec::new();
        loop {
            while self.at_separator() {
                self.at += 1;
            }
            match self.peek() {
                None => break,
                Some(t) if ends.iter().any(|e| t.is(e) || t.ident() == Some(e)) => break,
                _ => {}
            }
            stmts.extend(self.statement()?);
            if !self.at_separator() && !self.peek().is_some_and(|t| t.line_start) {
                match self.peek() {
                    Some(t) if ends.iter().any(|e| t.is(e) || t.ident() == Some(e)) => {}
                    // A statement ending in `}` (or `fi`, `od`) needs no `;`,
                    // nor does `else` (SPIN reads `:: else skip`).
                    _ if stmts.last().is_some_and(ends_in_brace) => {}
                    _ if stmts
                        .last()
                        .is_some_and(|s| matches!(s.kind, StmtKind::Else)) => {}
                    None => break,
                    _ => {
                        return Err(Diagnostic::error(
                            self.here(),
                            format!("expected `;` or `->`, found {}", self.found()),
                        ));
                    }
                }
            }
        }
        self.depth -= 1;
        Ok(Seq { stmts })
    }

    /// One statement (none for a declaration; two for `for` and
    /// `select`, which SPIN writes as an assignment and a loop).
    fn statement(&mut self) -> R<Vec<Stmt>> {
        let start = self.here();
        // Labels.
        let mut labels = Vec::new();
        while let (Some(a), Some(b)) = (self.peek(), self.peek_at(1)) {
            match (a.ident(), b.is(":")) {
                (Some(name), true) if !self.is_type(name) => {
                    labels.push((name.to_string(), a.span));
                    self.at += 2;
                }
                _ => break,
            }
        }
        if let Some(d) = self.unsupported_word() {
            return Err(d);
        }
        if self.at_word("hidden") {
            return Err(Diagnostic::error(
                self.here(),
                "not supported yet: `hidden` local variables",
            ));
        }
        if self.at_word("show") || self.at_word("local") {
            self.at += 1;
        }
        let word = self.peek().and_then(Tok::ident).map(str::to_string);
        if let Some(w) = word.as_deref()
            && self.is_type(w)
        {
            if !labels.is_empty() {
                return Err(Diagnostic::error(
                    start,
                    "a declaration cannot have a label",
                ));
            }
            let mut decls = Vec::new();
            self.decls(&mut decls, false)?;
            match &mut self.locals {
                Some(locals) => locals.extend(decls),
                None => {
                    return Err(Diagnostic::error(start, "a declaration outside a proctype"));
                }
            }
            return Ok(Vec::new());
        }
        if let Some(w @ ("xr" | "xs")) = word.as_deref() {
            let flag = if w == "xr" { 1 } else { 2 };
            self.at += 1;
            loop {
                let v = self.varref()?;
                self.exclusive.push((v.name, flag));
                if !self.eat(",") {
                    break;
                }
            }
            return Ok(Vec::new());
        }
        if let Some(w @ ("for" | "select")) = word.as_deref() {
            return self.for_loop(w == "for", labels, start);
        }
        let kind = match word.as_deref() {
            Some("if") | Some("do") => {
                let is_do = word.as_deref() == Some("do");
                self.at += 1;
                let close = if is_do { "od" } else { "fi" };
                let mut options = Vec::new();
                while self.eat("::") {
                    options.push(self.sequence(&["::", close])?);
                }
                if options.is_empty() {
                    return Err(Diagnostic::error(
                        self.here(),
                        format!("expected `::`, found {}", self.found()),
                    ));
                }
                self.expect_word(close)?;
                if is_do {
                    StmtKind::Do(options)
                } else {
                    StmtKind::If(options)
                }
            }
            Some("break") => {
                self.at += 1;
                StmtKind::Break
            }
            Some("goto") => {
                self.at += 1;
                StmtKind::Goto(self.name("a label")?.0)
            }
            Some("skip") => {
                self.at += 1;
                StmtKind::Expr(Expr::Const(1, start))
            }
            Some("else") => {
                self.at += 1;
                StmtKind::Else
            }
            Some("atomic") | Some("d_step") => {
                self.at += 1;
                self.expect("{")?;
                let body = self.sequence(&["}"])?;
                self.expect("}")?;
                if body.stmts.is_empty() {
                    return Err(Diagnostic::error(start, "an empty sequence"));
                }
                if word.as_deref() == Some("atomic") {
                    StmtKind::Atomic(body)
                } else {
                    StmtKind::DStep(body)
                }
            }
            Some("assert") => {
                self.at += 1;
                StmtKind::Assert(self.expr()?)
            }
            Some("printf") | Some("printm") => {
                let is_printf = word.as_deref() == Some("printf");
                self.at += 1;
                self.expect("(")?;
                let mut args = Vec::new();
                if is_printf {
                    match self.peek().map(|t| &t.kind) {
                        Some(TokKind::Str(_)) => self.at += 1,
                        _ => {
                            return Err(Diagnostic::error(
                                self.here(),
                                format!("expected a format string, found {}", self.found()),
                            ));
                        }
                    }
                    while self.eat(",") {
                        args.push(self.expr()?);
                    }
                } else {
                    args.push(self.expr()?);
                }
                self.expect(")")?;
                StmtKind::Print(args)
            }
            Some(name) if self.inlines.contains_key(name) => {
                let seq = self.inline_call()?;
                StmtKind::Block(seq)
            }
            _ if self.at_punct("{") => {
                self.at += 1;
                let body = self.sequence(&["}"])?;
                self.expect("}")?;
                if body.stmts.is_empty() {
                    return Err(Diagnostic::error(start, "an empty sequence"));
                }
                StmtKind::Block(body)
            }
            _ => self.simple_statement()?,
        };
        let span = start.to(self.toks[self.at.saturating_sub(1)].span);
        if self.at_word("unless") {
            return Err(Diagnostic::error(
                self.here(),
                "not supported yet: `unless`",
            ));
        }
        Ok(vec![Stmt { kind, labels, span }])
    }

    /// `for (i : a .. b) { body }` and `select (i : a .. b)` as SPIN
    /// writes them: `i = a` and a `do` loop.
    fn for_loop(&mut self, is_for: bool, labels: Vec<(String, Span)>, start: Span) -> R<Vec<Stmt>> {
        self.at += 1;
        self.expect("(")?;
        let var = self.varref()?;
        let (from, to) = if self.eat_word("in") {
            let (arr, aspan) = self.name("an array")?;
            let _ = arr;
            return Err(Diagnostic::error(
                aspan,
                "not supported yet: `for (x in array)`; write `for (x : 0 .. N-1)`",
            ));
        } else {
            self.expect(":")?;
            let from = self.expr()?;
            self.expect(".")?;
            self.expect(".")?;
            let to = self.expr()?;
            (from, to)
        };
        self.expect(")")?;
        let span = start.to(self.toks[self.at - 1].span);
        let v = || Expr::Var(var.clone());
        let stmt = |kind| Stmt {
            kind,
            labels: Vec::new(),
            span,
        };
        let incr = stmt(StmtKind::Assign(
            var.clone(),
            Expr::Binary("+", Box::new(v()), Box::new(Expr::Const(1, span)), span),
        ));
        let options = if is_for {
            self.expect("{")?;
            let mut body = self.sequence(&["}"])?;
            self.expect("}")?;
            let cond = Expr::Binary("<=", Box::new(v()), Box::new(to), span);
            body.stmts.insert(0, stmt(StmtKind::Expr(cond)));
            body.stmts.push(incr);
            vec![
                body,
                Seq {
                    stmts: vec![stmt(StmtKind::Else), stmt(StmtKind::Break)],
                },
            ]
        } else {
            let cond = Expr::Binary("<", Box::new(v()), Box::new(to), span);
            vec![
                Seq {
                    stmts: vec![stmt(StmtKind::Break)],
                },
                Seq {
                    stmts: vec![stmt(StmtKind::Expr(cond)), incr],
                },
            ]
        };
        let mut first = stmt(StmtKind::Assign(var.clone(), from));
        first.labels = labels;
        Ok(vec![first, stmt(StmtKind::Do(options))])
    }

    /// A constant expression (array lengths, capacities).
    fn const_expr(&mut self, what: &str) -> R<i64> {
        let at = self.here();
        let e = self.expr()?;
        fold(&e).ok_or_else(|| Diagnostic::error(at, format!("{what} must be a constant")))
    }

    fn inline_call(&mut self) -> R<Seq> {
        let (name, span) = self.name("an inline")?;
        let inline = self.inlines[&name].clone();
        self.expect("(")?;
        let mut args: Vec<Vec<Tok>> = Vec::new();
        let mut current = Vec::new();
        let mut depth = 0usize;
        loop {
            let Some(t) = self.peek().cloned() else {
                return Err(Diagnostic::error(span, "this call has no `)`"));
            };
            self.at += 1;
            if t.is("(") || t.is("[") {
                depth += 1;
            } else if (t.is(")") || t.is("]")) && depth > 0 {
                depth -= 1;
            } else if t.is(")") {
                if !current.is_empty() || !args.is_empty() {
                    args.push(std::mem::take(&mut current));
                }
                break;
            } else if t.is(",") && depth == 0 {
                args.push(std::mem::take(&mut current));
                continue;
            }
            current.push(t);
        }
        if args.len() != inline.params.len() {
            return Err(Diagnostic::error(
                span,
                format!(
                    "inline `{name}` takes {} arguments, and {} are given",
                    inline.params.len(),
                    args.len()
                ),
            ));
        }
        let mut toks = Vec::with_capacity(inline.body.len());
        for t in &inline.body {
            match t
                .ident()
                .and_then(|n| inline.params.iter().position(|p| p == n))
            {
                Some(k) => toks.extend(args[k].iter().cloned()),
                None => toks.push(t.clone()),
            }
        }
        let mut sub = Parser {
            toks,
            at: 0,
            end: span,
            inlines: self.inlines,
            locals: self.locals.take(),
            exclusive: std::mem::take(&mut self.exclusive),
            depth: self.depth,
            typedefs: std::mem::take(&mut self.typedefs),
            struct_globals: std::mem::take(&mut self.struct_globals),
            struct_locals: std::mem::take(&mut self.struct_locals),
        };
        let seq = sub.sequence(&[]);
        self.locals = sub.locals.take();
        self.exclusive = std::mem::take(&mut sub.exclusive);
        self.typedefs = std::mem::take(&mut sub.typedefs);
        self.struct_globals = std::mem::take(&mut sub.struct_globals);
        self.struct_locals = std::mem::take(&mut sub.struct_locals);
        let seq = seq?;
        if seq.stmts.is_empty() {
            return Err(Diagnostic::error(span, "an inline with an empty body"));
        }
        Ok(seq)
    }

    fn simple_statement(&mut self) -> R<StmtKind> {
        let starts_with_name = self.peek().and_then(Tok::ident).is_some_and(|w| {
            !matches!(
                w,
                "run"
                    | "len"
                    | "empty"
                    | "nempty"
                    | "full"
                    | "nfull"
                    | "timeout"
                    | "true"
                    | "false"
                    | "_pid"
                    | "_nr_pr"
            )
        });
        if !starts_with_name {
            return Ok(StmtKind::Expr(self.expr()?));
        }
        let var = self.varref()?;
        if self.eat("=") {
            return Ok(StmtKind::Assign(var, self.expr()?));
        }
        if self.eat("++") {
            return Ok(StmtKind::Incr(var));
        }
        if self.eat("--") {
            return Ok(StmtKind::Decr(var));
        }
        if self.at_punct("!!") || self.at_punct("??") {
            return Err(Diagnostic::error(
                self.here(),
                format!(
                    "not supported yet: {}",
                    if self.at_punct("!!") {
                        "sorted send `!!`"
                    } else {
                        "random receive `??`"
                    }
                ),
            ));
        }
        if self.eat("!") {
            let mut args = Vec::new();
            self.send_arg(&mut args)?;
            loop {
                if self.eat(",") {
                    self.send_arg(&mut args)?;
                } else if self.at_punct("(") {
                    // `c!a(b, c)`: SPIN's other way to write `c!a,b,c`.
                    self.at += 1;
                    self.send_arg(&mut args)?;
                    while self.eat(",") {
                        self.send_arg(&mut args)?;
                    }
                    self.expect(")")?;
                } else {
                    break;
                }
            }
            return Ok(StmtKind::Send(var, args));
        }
        if self.at_punct("?") && self.peek_at(1).is_some_and(|t| t.is("[")) {
            let poll = self.poll(var)?;
            return Ok(StmtKind::Expr(self.binary_from(poll, 0)?));
        }
        if self.eat("?") {
            if self.at_punct("<") {
                return Err(Diagnostic::error(
                    self.here(),
                    "not supported yet: receives that keep the message (`?<..>`)",
                ));
            }
            let mut args = Vec::new();
            self.recv_args_one(&mut args)?;
            loop {
                if self.eat(",") {
                    self.recv_args_one(&mut args)?;
                } else if self.at_punct("(") {
                    self.at += 1;
                    self.recv_args_one(&mut args)?;
                    while self.eat(",") {
                        self.recv_args_one(&mut args)?;
                    }
                    self.expect(")")?;
                } else {
                    break;
                }
            }
            return Ok(StmtKind::Recv(var, args));
        }
        // An expression that starts with a variable.
        let lhs = Expr::Var(var);
        Ok(StmtKind::Expr(self.binary_from(lhs, 0)?))
    }

    /// `c?[args]`, after `c`.
    fn poll(&mut self, chan: VarRef) -> R<Expr> {
        self.expect("?")?;
        self.expect("[")?;
        let mut args = vec![self.recv_arg()?];
        while self.eat(",") {
            args.push(self.recv_arg()?);
        }
        let end = self.expect("]")?;
        let span = chan.span.to(end);
        Ok(Expr::Poll(chan, args, span))
    }

    /// A sent value; a whole structure sends each of its leaf elements.
    fn send_arg(&mut self, args: &mut Vec<Expr>) -> R<()> {
        match self.whole_struct()? {
            Some(refs) => args.extend(refs.into_iter().map(Expr::Var)),
            None => args.push(self.expr()?),
        }
        Ok(())
    }

    /// A receive argument; a whole structure receives each of its leaf
    /// elements.
    fn recv_args_one(&mut self, args: &mut Vec<RecvArg>) -> R<()> {
        match self.whole_struct()? {
            Some(refs) => args.extend(refs.into_iter().map(RecvArg::Var)),
            None => args.push(self.recv_arg()?),
        }
        Ok(())
    }

    /// A whole structure `x` or `x[i]` (no field named), as the
    /// references to its leaf elements in order (as a message carries
    /// it); `None`, and nothing read, if the next tokens are not one.
    fn whole_struct(&mut self) -> R<Option<Vec<VarRef>>> {
        let Some(name) = self.peek().and_then(Tok::ident).map(str::to_string) else {
            return Ok(None);
        };
        let Some((tname, len)) = self.struct_var(&name) else {
            return Ok(None);
        };
        let start = self.at;
        let span = self.here();
        self.at += 1;
        let mut index = None;
        let mut end = span;
        if self.eat("[") {
            index = Some(self.expr()?);
            end = self.expect("]")?;
        }
        if self.at_punct(".") {
            self.at = start;
            return Ok(None);
        }
        if len.is_none() && index.is_some() {
            return Err(Diagnostic::error(span, format!("`{name}` is no array")));
        }
        let i = len.map(|_| index.unwrap_or(Expr::Const(0, span)));
        let span = span.to(end);
        let mut refs = Vec::new();
        for l in structs::leaves(&self.typedefs, &tname) {
            for k in 0..l.count {
                let element = Expr::Const(k as i64, span);
                let index = match (&i, l.array) {
                    (Some(i), true) => Some(structs::nest(Some(i.clone()), element, l.count, span)),
                    (Some(i), false) => Some(i.clone()),
                    (None, true) => Some(element),
                    (None, false) => None,
                };
                refs.push(VarRef {
                    name: format!("{name}{}", l.suffix),
                    index: index.map(Box::new),
                    span,
                });
            }
        }
        Ok(Some(refs))
    }

    fn recv_arg(&mut self) -> R<RecvArg> {
        if self.at_word("eval") {
            self.at += 1;
            self.expect("(")?;
            let e = self.expr()?;
            self.expect(")")?;
            return Ok(RecvArg::Eval(e));
        }
        match self.peek().map(|t| &t.kind) {
            Some(TokKind::Ident(w)) if !matches!(w.as_str(), "true" | "false") => {
                Ok(RecvArg::Var(self.varref()?))
            }
            _ => Ok(RecvArg::Const(self.unary()?)),
        }
    }

    fn varref(&mut self) -> R<VarRef> {
        let (name, span) = self.name("a variable")?;
        let mut index = None;
        let mut end = span;
        if self.eat("[") {
            index = Some(Box::new(self.expr()?));
            end = self.expect("]")?;
        }
        let Some((mut tname, len)) = self.struct_var(&name) else {
            if self.at_punct(".") {
                return Err(Diagnostic::error(
                    self.here(),
                    format!("`{name}` is no structure"),
                ));
            }
            return Ok(VarRef {
                name,
                index,
                span: span.to(end),
            });
        };
        // A field of a structure: the flattened variable of its leaf.
        let mut path = name.clone();
        let mut flat: Option<Expr> = match (len, index) {
            (Some(_), i) => Some(i.map_or(Expr::Const(0, span), |i| *i)),
            (None, Some(_)) => {
                return Err(Diagnostic::error(span, format!("`{name}` is no array")));
            }
            (None, None) => None,
        };
        loop {
            if !self.eat(".") {
                return Err(Diagnostic::error(
                    span.to(end),
                    format!(
                        "not supported yet: a whole structure (`{path}`) as a value; name one of its fields"
                    ),
                ));
            }
            let (f, fspan) = self.name("a field name")?;
            let Some(field) = self.typedefs[&tname].iter().find(|x| x.name == f).cloned() else {
                return Err(Diagnostic::error(
                    fspan,
                    format!("`{tname}` has no field `{f}`"),
                ));
            };
            path.push('.');
            path.push_str(&f);
            end = fspan;
            let mut i = None;
            if self.eat("[") {
                i = Some(self.expr()?);
                end = self.expect("]")?;
            }
            match (field.len, i) {
                (Some(n), i) => {
                    let i = i.unwrap_or(Expr::Const(0, fspan));
                    flat = Some(structs::nest(flat, i, n, span.to(end)));
                }
                (None, Some(_)) => {
                    return Err(Diagnostic::error(fspan, format!("`{f}` is no array")));
                }
                (None, None) => {}
            }
            match field.ty {
                FieldType::Basic(_) => break,
                FieldType::Struct(inner) => tname = inner,
            }
        }
        Ok(VarRef {
            name: path,
            index: flat.map(Box::new),
            span: span.to(end),
        })
    }

    /// An expression.
    pub fn expr(&mut self) -> R<Expr> {
        self.deeper()?;
        let lhs = self.unary()?;
        let e = self.binary_from(lhs, 0);
        self.depth -= 1;
        e
    }

    fn binary_from(&mut self, mut lhs: Expr, min: u8) -> R<Expr> {
        while let Some(TokKind::Punct(op)) = self.peek().map(|t| &t.kind) {
            let op = *op;
            let Some(prec) = binary_precedence(op) else {
                break;
            };
            if prec < min {
                break;
            }
            self.at += 1;
            self.deeper()?;
            let first = self.unary()?;
            let rhs = self.binary_from(first, prec + 1)?;
            self.depth -= 1;
            let span = lhs.span().to(rhs.span());
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), span);
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> R<Expr> {
        let start = self.here();
        for op in ["!", "-", "~"] {
            if self.eat(op) {
                self.deeper()?;
                let e = self.unary()?;
                self.depth -= 1;
                let span = start.to(e.span());
                return Ok(Expr::Unary(op, Box::new(e), span));
            }
        }
        self.primary()
    }

    fn primary(&mut self) -> R<Expr> {
        let start = self.here();
        if let Some(d) = self.unsupported_word() {
            return Err(d);
        }
        let Some(t) = self.peek().cloned() else {
            return Err(Diagnostic::error(
                self.end,
                "expected an expression, found the end of the model",
            ));
        };
        match &t.kind {
            TokKind::Int(v) => {
                self.at += 1;
                Ok(Expr::Const(*v, t.span))
            }
            TokKind::Punct("(") => {
                self.at += 1;
                let e = self.expr()?;
                if self.eat("->") {
                    let a = self.expr()?;
                    self.expect(":")?;
                    let b = self.expr()?;
                    let end = self.expect(")")?;
                    return Ok(Expr::Cond(
                        Box::new(e),
                        Box::new(a),
                        Box::new(b),
                        start.to(end),
                    ));
                }
                self.expect(")")?;
                Ok(e)
            }
            TokKind::Ident(w) => match w.as_str() {
                "true" => {
                    self.at += 1;
                    Ok(Expr::Const(1, t.span))
                }
                "false" => {
                    self.at += 1;
                    Ok(Expr::Const(0, t.span))
                }
                "_pid" => {
                    self.at += 1;
                    Ok(Expr::Pid(t.span))
                }
                "_nr_pr" => {
                    self.at += 1;
                    Ok(Expr::NrPr(t.span))
                }
                "timeout" => {
                    self.at += 1;
                    Ok(Expr::Timeout(t.span))
                }
                "len" | "empty" | "nempty" | "full" | "nfull" => {
                    let op: &'static str = match w.as_str() {
                        "len" => "len",
                        "empty" => "empty",
                        "nempty" => "nempty",
                        "full" => "full",
                        _ => "nfull",
                    };
                    self.at += 1;
                    self.expect("(")?;
                    let v = self.varref()?;
                    let end = self.expect(")")?;
                    Ok(Expr::ChanQuery(op, v, start.to(end)))
                }
                "run" => {
                    self.at += 1;
                    let (name, _) = self.name("a proctype")?;
                    self.expect("(")?;
                    let mut args = Vec::new();
                    while !self.at_punct(")") {
                        args.push(self.expr()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    let end = self.expect(")")?;
                    if self.at_punct("(") {
                        return Err(Diagnostic::error(
                            self.here(),
                            "not supported yet: `run` with a priority",
                        ));
                    }
                    Ok(Expr::Run(name, args, start.to(end)))
                }
                _ => {
                    let v = self.varref()?;
                    if self.at_punct("?") && self.peek_at(1).is_some_and(|t| t.is("[")) {
                        return self.poll(v);
                    }
                    if self.at_punct("@") || (self.at_punct(":") && v.index.is_some()) {
                        return Err(Diagnostic::error(
                            self.here(),
                            "not supported yet: remote references",
                        ));
                    }
                    Ok(Expr::Var(v))
                }
            },
            _ => Err(Diagnostic::error(
                t.span,
                format!("expected an expression, found {}", t.describe()),
            )),
        }
    }
}

/// The value of a constant expression.
fn fold(e: &Expr) -> Option<i64> {
    Some(match e {
        Expr::Const(v, _) => *v,
        Expr::Unary(op, a, _) => {
            let v = fold(a)? as i32;
            i64::from(match *op {
                "!" => i32::from(v == 0),
                "-" => v.wrapping_neg(),
                _ => !v,
            })
        }
        Expr::Binary(op, a, b, _) => super::eval::binary_op(op, fold(a)?, fold(b)?)?,
        Expr::Cond(c, a, b, _) => {
            if fold(c)? != 0 {
                fold(a)?
            } else {
                fold(b)?
            }
        }
        _ => return None,
    })
}

fn ends_in_brace(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::If(_)
            | StmtKind::Do(_)
            | StmtKind::Atomic(_)
            | StmtKind::DStep(_)
            | StmtKind::Block(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;

    pub(crate) fn parse_text(text: &str) -> Result<Spec, String> {
        let file = SourceFile::new("t.pml", text);
        let toks = super::super::lexer::lex(text, 0..text.len()).map_err(|d| d.render(&file))?;
        parse(toks, Span::new(text.len(), text.len())).map_err(|d| d.render(&file))
    }

    #[test]
    fn a_proctype_with_loops_labels_and_channels_parses() {
        let spec = parse_text(
            "mtype = { req, ack }; chan c = [2] of { mtype, byte }; byte x;\n\
             active [2] proctype P(byte a) { byte k; L: do :: c!req,k -> k++ :: c?ack,eval(k) :: else -> break od; goto L }\n\
             init { atomic { run P(1); x = (x > 1 -> 2 : 3) } }",
        )
        .unwrap();
        assert_eq!(spec.mtypes.len(), 2);
        assert_eq!(spec.globals.len(), 2);
        assert_eq!(spec.proctypes.len(), 2);
        let p = &spec.proctypes[0];
        assert_eq!((p.active, p.params.len(), p.locals.len()), (2, 1, 1));
        assert_eq!(p.body.stmts.len(), 2);
        assert_eq!(p.body.stmts[0].labels[0].0, "L");
    }

    #[test]
    fn inlines_expand_with_their_arguments() {
        let spec = parse_text("byte y; inline inc(v) { v = v + 1; v++ } init { inc(y) }").unwrap();
        match &spec.proctypes[0].body.stmts[0].kind {
            StmtKind::Block(seq) => assert_eq!(seq.stmts.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn structure_fields_become_flattened_variables() {
        let spec = parse_text(
            "typedef U { byte c[4]; bit d }; typedef T { int a = 3; U u[2] };\n\
             T g[3]; init { T l; g[1].u[1].c[2] = l.a; l.u[0].d = 1 }",
        )
        .unwrap();
        let globals: Vec<(&str, Option<usize>)> = spec
            .globals
            .iter()
            .map(|d| (d.name.as_str(), d.len))
            .collect();
        assert_eq!(
            globals,
            vec![("g.a", Some(3)), ("g.u.c", Some(24)), ("g.u.d", Some(6))]
        );
        assert!(matches!(spec.globals[0].init, Some(Expr::Const(3, _))));
        let init = &spec.proctypes[0];
        let locals: Vec<&str> = init.locals.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(locals, vec!["l.a", "l.u.c", "l.u.d"]);
        let StmtKind::Assign(v, Expr::Var(r)) = &init.body.stmts[0].kind else {
            panic!("{:?}", init.body.stmts[0].kind);
        };
        assert_eq!((v.name.as_str(), r.name.as_str()), ("g.u.c", "l.a"));
        // ((1 * 2) + 1) * 4 + 2, each inner index checked on its own.
        let Some(Expr::Index(outer, inner, 4, _)) = v.index.as_deref() else {
            panic!("{:?}", v.index);
        };
        assert!(matches!(**inner, Expr::Const(2, _)));
        assert!(matches!(**outer, Expr::Index(_, _, 2, _)));
        for (text, message) in [
            (
                "typedef T { byte a }; T x; init { x.b = 1 }",
                "`T` has no field `b`",
            ),
            ("byte x; init { x.a = 1 }", "`x` is no structure"),
            (
                "typedef T { byte a }; T x; init { x[0].a = 1 }",
                "`x` is no array",
            ),
            (
                "typedef T { byte a }; proctype P(T x) { skip }",
                "a parameter of a `typedef` type",
            ),
        ] {
            let err = parse_text(text).unwrap_err();
            assert!(err.contains(message), "{text}: {err}");
        }
    }

    #[test]
    fn constructs_not_run_yet_are_named_with_their_place() {
        for (text, what) in [
            ("never { skip }", "never claims"),
            ("init { skip unless { skip } }", "`unless`"),
            (
                "typedef T { byte a }; T x; init { x = x }",
                "a whole structure (`x`) as a value",
            ),
            ("chan c = [1] of { byte }; init { c!!1 }", "sorted send"),
        ] {
            let err = parse_text(text).unwrap_err();
            assert!(
                err.contains(&format!("not supported yet: {what}")),
                "{text}: {err}"
            );
            assert!(err.contains("t.pml:1:"), "{err}");
        }
    }
}
