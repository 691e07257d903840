//! Helpers shared by the parser tests: a fully parenthesised printer for
//! expressions and substitutions, so tests can state the tree they expect.

#![allow(dead_code)]

use orbit::diag::{Diagnostic, SourceFile};
use orbit::frontends::b::ast::{AssignTarget, Expr, ExprKind, Ident, Subst, SubstKind};

/// Prints an expression as an S-expression, e.g. `(And (Eq a b) c)`.
pub fn show(e: &Expr) -> String {
    use ExprKind::*;
    match &e.kind {
        Ident(n) => n.clone(),
        Int(n) => n.to_string(),
        BigInt(n) => format!("big:{n}"),
        Str(s) => format!("{s:?}"),
        True => "TRUE".into(),
        False => "FALSE".into(),
        Constant(c) => format!("{c:?}"),
        Unary(op, a) => format!("({op:?} {})", show(a)),
        Binary(op, a, b) => format!("({op:?} {} {})", show(a), show(b)),
        Call(b, args) => format!("({b:?} {})", list(args)),
        Apply(f, args) => format!("(Apply {} {})", show(f), list(args)),
        Image(r, s) => format!("(Image {} {})", show(r), show(s)),
        SetEnum(items) => format!("{{{}}}", list(items)),
        SeqEnum(items) => format!("[{}]", list(items)),
        Comprehension(vars, p) => format!("(Comprehension [{}] {})", ids(vars), show(p)),
        Lambda(vars, p, v) => format!("(Lambda [{}] {} {})", ids(vars), show(p), show(v)),
        Quantifier(q, vars, p) => format!("({q:?} [{}] {})", ids(vars), show(p)),
        QuantifiedExpr(q, vars, p, v) => format!("({q:?} [{}] {} {})", ids(vars), show(p), show(v)),
        BoolOf(p) => format!("(bool {})", show(p)),
        IfThenElse(c, a, b) => format!("(If {} {} {})", show(c), show(a), show(b)),
        Let(vars, p, body) => format!("(Let [{}] {} {})", ids(vars), show(p), show(body)),
        Record(fields) => format!("(rec {})", record_fields(fields)),
        Struct(fields) => format!("(struct {})", record_fields(fields)),
        Field(r, f) => format!("(Field {} {})", show(r), f.name),
        RecordWith(r, f, e) => format!("(With {} {} {})", show(r), f.name, show(e)),
        External(f, args) => format!("({} {})", f.name(), list(args)),
    }
}

fn record_fields(fields: &[(Ident, Expr)]) -> String {
    fields
        .iter()
        .map(|(n, e)| format!("{}:{}", n.name, show(e)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn list(items: &[Expr]) -> String {
    items.iter().map(show).collect::<Vec<_>>().join(" ")
}

fn ids(vars: &[Ident]) -> String {
    vars.iter()
        .map(|v| v.name.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn branches(bs: &[(Expr, Subst)]) -> String {
    bs.iter()
        .map(|(c, s)| format!("({} {})", show(c), show_subst(s)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn otherwise(e: &Option<Box<Subst>>) -> String {
    e.as_ref()
        .map_or(String::new(), |s| format!(" (Else {})", show_subst(s)))
}

/// Prints a substitution as an S-expression.
pub fn show_subst(s: &Subst) -> String {
    use SubstKind::*;
    let substs = |items: &[Subst]| items.iter().map(show_subst).collect::<Vec<_>>().join(" ");
    match &s.kind {
        Skip => "skip".into(),
        Assign(targets, values) => {
            let targets = targets
                .iter()
                .map(|t| match t {
                    AssignTarget::Var(v) => v.name.clone(),
                    AssignTarget::FunctionPoint(f, args) => format!("{}({})", f.name, list(args)),
                })
                .collect::<Vec<_>>()
                .join(" ");
            format!("(Assign [{targets}] {})", list(values))
        }
        BecomesElementOf(vars, e) => format!("(BecomesElementOf [{}] {})", ids(vars), show(e)),
        BecomesSuchThat(vars, e) => format!("(BecomesSuchThat [{}] {})", ids(vars), show(e)),
        Parallel(items) => format!("(Parallel {})", substs(items)),
        Sequence(items) => format!("(Sequence {})", substs(items)),
        Block(b) => format!("(Block {})", show_subst(b)),
        Precondition(p, b) => format!("(Pre {} {})", show(p), show_subst(b)),
        Assert(p, b) => format!("(Assert {} {})", show(p), show_subst(b)),
        Select(bs, e) => format!("(Select {}{})", branches(bs), otherwise(e)),
        If(bs, e) => format!("(If {}{})", branches(bs), otherwise(e)),
        Case(e, bs, o) => {
            let bs = bs
                .iter()
                .map(|(vals, s)| format!("([{}] {})", list(vals), show_subst(s)))
                .collect::<Vec<_>>()
                .join(" ");
            format!("(Case {} {bs}{})", show(e), otherwise(o))
        }
        Choice(items) => format!("(Choice {})", substs(items)),
        Any(vars, p, b) => format!("(Any [{}] {} {})", ids(vars), show(p), show_subst(b)),
        Let(vars, p, b) => format!("(Let [{}] {} {})", ids(vars), show(p), show_subst(b)),
        Var(vars, b) => format!("(Var [{}] {})", ids(vars), show_subst(b)),
        CalledPre(op, p, b) => format!("(CalledPre {} {} {})", op.name, show(p), show_subst(b)),
        OpCall(outs, op, args) => format!("(Call [{}] {} {})", ids(outs), op.name, list(args)),
        While(w) => format!(
            "(While {} {} {} {})",
            show(&w.cond),
            show_subst(&w.body),
            show(&w.invariant),
            show(&w.variant)
        ),
    }
}

/// Renders a diagnostic and checks that it points at `file:line:col`.
pub fn assert_error_at(d: &Diagnostic, file: &SourceFile, line: usize, col: usize, message: &str) {
    let rendered = d.render(file);
    let location = format!("--> {}:{line}:{col}", file.name);
    assert!(
        rendered.contains(&location),
        "expected {location} in\n{rendered}"
    );
    assert!(
        d.message.contains(message),
        "expected message containing {message:?} in\n{rendered}"
    );
}
