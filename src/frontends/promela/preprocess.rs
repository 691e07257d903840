//! The C preprocessor as SPIN runs it on a model: `#define` (objects and
//! functions), `#undef`, `#include "file"`, and the conditionals `#if`,
//! `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`. It works on tokens, so
//! every token keeps the span of the text it was written in (an expanded
//! macro's tokens point into its `#define`). Stringizing (`#`), pasting
//! (`##`) and other directives are refused by name.

use super::lexer::{Tok, TokKind, lex};
use crate::diag::{Diagnostic, SourceFile, Span};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// How deep `#include` may nest (a file including itself stops here).
const MAX_INCLUDE_DEPTH: usize = 64;
/// How many tokens expansion may produce (a macro that grows without end
/// stops here).
const MAX_TOKENS: usize = 20_000_000;

#[derive(Clone, Debug)]
struct Macro {
    params: Option<Vec<String>>,
    body: Vec<Tok>,
}

/// The preprocessor's state over one model.
pub struct Preprocessor<'f> {
    file: &'f mut SourceFile,
    macros: HashMap<String, Macro>,
    out: Vec<Tok>,
    depth: usize,
}

/// Reads `path` into `file` (which must hold it already as its first
/// part, `range`), and returns the model's tokens after preprocessing.
pub fn preprocess(
    file: &mut SourceFile,
    path: &Path,
    range: std::ops::Range<usize>,
) -> Result<Vec<Tok>, Diagnostic> {
    let mut pp = Preprocessor {
        file,
        macros: HashMap::new(),
        out: Vec::new(),
        depth: 0,
    };
    pp.run_file(path, range)?;
    Ok(pp.out)
}

/// One open conditional: whether its current branch is kept, whether a
/// branch was kept already, and whether the enclosing text is kept.
struct Cond {
    keeping: bool,
    taken: bool,
    outer: bool,
    span: Span,
}

impl Preprocessor<'_> {
    fn run_file(&mut self, path: &Path, range: std::ops::Range<usize>) -> Result<(), Diagnostic> {
        let toks = lex(&self.file.text, range)?;
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = 0;
        let mut pending: Vec<Tok> = Vec::new();
        while i < toks.len() {
            let t = &toks[i];
            if t.is("#") && t.line_start {
                self.flush(&mut pending)?;
                let mut j = i + 1;
                while j < toks.len() && !toks[j].line_start {
                    j += 1;
                }
                let line = &toks[i + 1..j];
                self.directive(t.span, line, path, &mut conds)?;
                i = j;
                continue;
            }
            if conds.last().is_none_or(|c| c.keeping) {
                pending.push(t.clone());
            }
            i += 1;
        }
        self.flush(&mut pending)?;
        if let Some(c) = conds.last() {
            return Err(Diagnostic::error(
                c.span,
                "this conditional has no `#endif`",
            ));
        }
        Ok(())
    }

    fn flush(&mut self, pending: &mut Vec<Tok>) -> Result<(), Diagnostic> {
        let toks = std::mem::take(pending);
        let expanded = self.expand(&toks, &HashSet::new())?;
        self.out.extend(expanded);
        if self.out.len() > MAX_TOKENS {
            let span = self.out.last().map(|t| t.span).unwrap_or_default();
            return Err(Diagnostic::error(
                span,
                format!("macro expansion gives more than {MAX_TOKENS} tokens"),
            ));
        }
        Ok(())
    }

    fn directive(
        &mut self,
        hash: Span,
        line: &[Tok],
        path: &Path,
        conds: &mut Vec<Cond>,
    ) -> Result<(), Diagnostic> {
        let Some(name_tok) = line.first() else {
            return Ok(()); // a lone `#`
        };
        let name = name_tok.ident().unwrap_or("");
        let keeping = conds.last().is_none_or(|c| c.keeping);
        let span = hash.to(name_tok.span);
        match name {
            "ifdef" | "ifndef" => {
                let defined = match line.get(1).and_then(Tok::ident) {
                    Some(m) => self.macros.contains_key(m),
                    None => return Err(Diagnostic::error(span, format!("`#{name}` needs a name"))),
                };
                let keep = keeping && (defined == (name == "ifdef"));
                conds.push(Cond {
                    keeping: keep,
                    taken: keep,
                    outer: keeping,
                    span,
                });
            }
            "if" => {
                let keep = keeping && self.condition(span, &line[1..])?;
                conds.push(Cond {
                    keeping: keep,
                    taken: keep,
                    outer: keeping,
                    span,
                });
            }
            "elif" | "else" => {
                let Some(c) = conds.last() else {
                    return Err(Diagnostic::error(span, format!("`#{name}` without `#if`")));
                };
                let (outer, taken) = (c.outer, c.taken);
                let keep =
                    outer && !taken && (name == "else" || self.condition(span, &line[1..])?);
                let c = conds.last_mut().expect("checked above");
                c.keeping = keep;
                c.taken |= keep;
            }
            "endif" => {
                if conds.pop().is_none() {
                    return Err(Diagnostic::error(span, "`#endif` without `#if`"));
                }
            }
            _ if !keeping => {}
            "define" => self.define(span, &line[1..])?,
            "undef" => {
                if let Some(m) = line.get(1).and_then(Tok::ident) {
                    self.macros.remove(m);
                }
            }
            "include" => self.include(span, &line[1..], path)?,
            _ => {
                return Err(Diagnostic::error(
                    span,
                    format!("not supported yet: the preprocessor directive `#{name}`"),
                ));
            }
        }
        Ok(())
    }

    fn define(&mut self, span: Span, rest: &[Tok]) -> Result<(), Diagnostic> {
        let Some(name) = rest.first().and_then(Tok::ident) else {
            return Err(Diagnostic::error(span, "`#define` needs a name"));
        };
        let mut body_at = 1;
        let params = match rest.get(1) {
            // A function-like macro: `(` right after the name.
            Some(p) if p.is("(") && p.span.start == rest[0].span.end => {
                let mut params = Vec::new();
                let mut j = 2;
                loop {
                    match rest.get(j) {
                        Some(t) if t.is(")") => break,
                        Some(t) => match t.ident() {
                            Some(id) => params.push(id.to_string()),
                            None if t.is(",") => {}
                            None => {
                                return Err(Diagnostic::error(
                                    t.span,
                                    format!(
                                        "expected a parameter name of macro `{name}`, found {}",
                                        t.describe()
                                    ),
                                ));
                            }
                        },
                        None => {
                            return Err(Diagnostic::error(
                                span,
                                format!("the parameters of macro `{name}` have no `)`"),
                            ));
                        }
                    }
                    j += 1;
                }
                body_at = j + 1;
                Some(params)
            }
            _ => None,
        };
        let body = rest[body_at.min(rest.len())..].to_vec();
        if let Some(t) = body.iter().find(|t| t.is("#")) {
            return Err(Diagnostic::error(
                t.span,
                "not supported yet: `#` and `##` in a macro body",
            ));
        }
        self.macros.insert(name.to_string(), Macro { params, body });
        Ok(())
    }

    fn include(&mut self, span: Span, rest: &[Tok], path: &Path) -> Result<(), Diagnostic> {
        let Some(TokKind::Str(name)) = rest.first().map(|t| &t.kind) else {
            return Err(Diagnostic::error(
                span,
                "not supported yet: `#include` of anything but a \"file\"",
            ));
        };
        if self.depth >= MAX_INCLUDE_DEPTH {
            return Err(Diagnostic::error(
                span,
                format!("`#include` nests deeper than {MAX_INCLUDE_DEPTH} files"),
            ));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let target: PathBuf = dir.join(name);
        let text = crate::frontends::source::read_model_text(&target).map_err(|e| {
            let e = e.trim();
            Diagnostic::error(span, e.strip_prefix("error: ").unwrap_or(e).to_string())
        })?;
        let range = self.file.add(target.display().to_string(), &text);
        self.depth += 1;
        let result = self.run_file(&target, range);
        self.depth -= 1;
        result
    }

    /// The value of a `#if` condition.
    fn condition(&mut self, span: Span, toks: &[Tok]) -> Result<bool, Diagnostic> {
        // `defined X` and `defined(X)` first, before macros expand.
        let mut replaced = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            if toks[i].ident() == Some("defined") {
                let (name, next) = if toks.get(i + 1).is_some_and(|t| t.is("(")) {
                    (toks.get(i + 2).and_then(Tok::ident), i + 4)
                } else {
                    (toks.get(i + 1).and_then(Tok::ident), i + 2)
                };
                let Some(name) = name else {
                    return Err(Diagnostic::error(toks[i].span, "`defined` needs a name"));
                };
                replaced.push(Tok {
                    kind: TokKind::Int(i64::from(self.macros.contains_key(name))),
                    span: toks[i].span,
                    line_start: false,
                });
                i = next;
                continue;
            }
            replaced.push(toks[i].clone());
            i += 1;
        }
        let expanded = self.expand(&replaced, &HashSet::new())?;
        let mut p = CondParser {
            toks: &expanded,
            at: 0,
            span,
        };
        let v = p.ternary()?;
        if p.at < expanded.len() {
            return Err(Diagnostic::error(
                expanded[p.at].span,
                format!("unexpected {} in `#if`", expanded[p.at].describe()),
            ));
        }
        Ok(v != 0)
    }

    /// `toks` with every macro expanded (those in `hidden` are being
    /// expanded already and stay as they are).
    fn expand(&self, toks: &[Tok], hidden: &HashSet<String>) -> Result<Vec<Tok>, Diagnostic> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            let Some(m) = t
                .ident()
                .filter(|n| !hidden.contains(*n))
                .and_then(|n| self.macros.get(n).map(|m| (n, m)))
            else {
                out.push(t.clone());
                i += 1;
                continue;
            };
            let (name, mac) = m;
            let first_out = out.len();
            let mut inner = hidden.clone();
            inner.insert(name.to_string());
            match &mac.params {
                None => {
                    out.extend(self.expand(&mac.body, &inner)?);
                    i += 1;
                }
                Some(params) => {
                    if !toks.get(i + 1).is_some_and(|t| t.is("(")) {
                        // A function-like macro's name alone is no call.
                        out.push(t.clone());
                        i += 1;
                        continue;
                    }
                    let (args, next) = split_args(toks, i + 1).ok_or_else(|| {
                        Diagnostic::error(
                            t.span,
                            format!("the call of macro `{name}` has no closing `)`"),
                        )
                    })?;
                    let args: Vec<Vec<Tok>> =
                        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
                            Vec::new()
                        } else {
                            args
                        };
                    if args.len() != params.len() {
                        return Err(Diagnostic::error(
                            t.span,
                            format!(
                                "macro `{name}` takes {} arguments, and {} are given",
                                params.len(),
                                args.len()
                            ),
                        ));
                    }
                    let mut args_expanded = Vec::with_capacity(args.len());
                    for a in &args {
                        args_expanded.push(self.expand(a, hidden)?);
                    }
                    let mut body = Vec::new();
                    for b in &mac.body {
                        match b.ident().and_then(|n| params.iter().position(|p| p == n)) {
                            Some(k) => body.extend(args_expanded[k].iter().cloned()),
                            None => body.push(b.clone()),
                        }
                    }
                    out.extend(self.expand(&body, &inner)?);
                    i = next;
                }
            }
            // A macro used first on its line starts the line (SPIN's
            // newlines end statements).
            if let Some(f) = out.get_mut(first_out) {
                f.line_start = t.line_start;
            }
            if out.len() > MAX_TOKENS {
                return Err(Diagnostic::error(
                    t.span,
                    format!("macro expansion gives more than {MAX_TOKENS} tokens"),
                ));
            }
        }
        Ok(out)
    }
}

/// The arguments of a macro call whose `(` is at `open`, split at the
/// top-level commas, and the index after the `)`.
fn split_args(toks: &[Tok], open: usize) -> Option<(Vec<Vec<Tok>>, usize)> {
    let mut depth = 0usize;
    let mut args = vec![Vec::new()];
    let mut i = open + 1;
    while i < toks.len() {
        let t = &toks[i];
        if t.is("(") || t.is("[") || t.is("{") {
            depth += 1;
        } else if t.is(")") || t.is("]") || t.is("}") {
            if depth == 0 {
                return Some((args, i + 1));
            }
            depth -= 1;
        } else if t.is(",") && depth == 0 {
            args.push(Vec::new());
            i += 1;
            continue;
        }
        args.last_mut().expect("never empty").push(t.clone());
        i += 1;
    }
    None
}

/// Integer expressions of `#if` (names left after expansion are 0).
struct CondParser<'t> {
    toks: &'t [Tok],
    at: usize,
    span: Span,
}

impl CondParser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn ternary(&mut self) -> Result<i64, Diagnostic> {
        let c = self.binary(0)?;
        if self.peek().is_some_and(|t| t.is("?")) {
            self.at += 1;
            let a = self.ternary()?;
            self.expect(":")?;
            let b = self.ternary()?;
            return Ok(if c != 0 { a } else { b });
        }
        Ok(c)
    }

    fn expect(&mut self, p: &str) -> Result<(), Diagnostic> {
        match self.peek() {
            Some(t) if t.is(p) => {
                self.at += 1;
                Ok(())
            }
            Some(t) => Err(Diagnostic::error(
                t.span,
                format!("expected `{p}` in `#if`, found {}", t.describe()),
            )),
            None => Err(Diagnostic::error(
                self.span,
                format!("expected `{p}` in `#if`"),
            )),
        }
    }

    fn binary(&mut self, min: u8) -> Result<i64, Diagnostic> {
        let mut lhs = self.unary()?;
        while let Some(TokKind::Punct(op)) = self.peek().map(|t| &t.kind) {
            let op = *op;
            let Some(prec) = super::parser::binary_precedence(op) else {
                break;
            };
            if prec < min {
                break;
            }
            self.at += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = super::eval::binary_op(op, lhs, rhs).unwrap_or(0);
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<i64, Diagnostic> {
        let Some(t) = self.peek().cloned() else {
            return Err(Diagnostic::error(self.span, "`#if` needs a condition"));
        };
        self.at += 1;
        match &t.kind {
            TokKind::Int(v) => Ok(*v),
            TokKind::Ident(_) => Ok(0),
            TokKind::Punct("(") => {
                let v = self.ternary()?;
                self.expect(")")?;
                Ok(v)
            }
            TokKind::Punct("!") => Ok(i64::from(self.unary()? == 0)),
            TokKind::Punct("-") => Ok(self.unary()?.wrapping_neg()),
            TokKind::Punct("~") => Ok(!self.unary()?),
            TokKind::Punct("+") => self.unary(),
            _ => Err(Diagnostic::error(
                t.span,
                format!("unexpected {} in `#if`", t.describe()),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Vec<String> {
        let mut file = SourceFile::new("m.pml", text);
        let toks = preprocess(&mut file, Path::new("m.pml"), 0..text.len()).unwrap();
        toks.iter()
            .map(|t| match &t.kind {
                TokKind::Ident(s) => s.clone(),
                TokKind::Int(v) => v.to_string(),
                TokKind::Str(s) => format!("\"{s}\""),
                TokKind::Punct(p) => p.to_string(),
            })
            .collect()
    }

    #[test]
    fn object_and_function_macros_expand_recursively() {
        let t = run("#define N 3\n#define ADD(a,b) ((a)+(b))\nx = ADD(N, y[N])\n");
        assert_eq!(t.join(" "), "x = ( ( 3 ) + ( y [ 3 ] ) )");
    }

    #[test]
    fn conditionals_keep_one_branch() {
        let t = run(
            "#define A 2\n#if A > 1 && defined(A)\nyes\n#elif 1\nno\n#else\nno\n#endif\n#ifndef B\nb\n#endif\n",
        );
        assert_eq!(t, vec!["yes", "b"]);
    }

    #[test]
    fn a_self_referring_macro_stops() {
        assert_eq!(run("#define X X + 1\nX\n").join(" "), "X + 1");
    }

    #[test]
    fn unknown_directives_are_named() {
        let text = "#pragma once\n";
        let mut file = SourceFile::new("m.pml", text);
        let err = preprocess(&mut file, Path::new("m.pml"), 0..text.len()).unwrap_err();
        assert!(
            err.render(&file)
                .contains("not supported yet: the preprocessor directive `#pragma`")
        );
    }
}
