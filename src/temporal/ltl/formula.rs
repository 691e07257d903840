//! LTL formulas in ProB's syntax: parsing, negation normal form and the
//! semantics on ultimately periodic words (the tests' oracle).
//!
//! ```text
//! formula  := fairness '=>' formula | impl
//! impl     := or (('=>' | '->') impl)?         (right associative)
//! or       := and ('or' and)*
//! and      := binary ('&' binary)*
//! binary   := unary (('U' | 'W' | 'R') binary)?  (right associative)
//! unary    := ('not' | 'G' | 'F' | 'X') unary | atom | '(' formula ')'
//! atom     := 'true' | 'false' | 'deadlock' | '{' text '}' | 'e(' op ')' | '[' op ']'
//!           | '[' op '(' text? (',' text?)* ')' ']'
//! fairness := ('WF(' op ')' | 'SF(' op ')' | 'WEF' | 'SEF') ('&' fairness)*
//! ```
//!
//! `{...}` holds a predicate of the model's own language, `e(op)` says that
//! operation (B) or rule (Murphi) `op` is enabled, `[op]` that the next step
//! takes it, `[op(a, , b)]` with these arguments (expressions of the model's
//! language, evaluated by the front end; an empty one takes any value). Fairness constraints stand on the left of a top-level
//! implication, as in ProB: `WF(inc) => G F {x = 0}`.

use std::fmt;

/// An atomic proposition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// `{text}`: a predicate of the model's language on the current state.
    Predicate(String),
    /// `e(op)`: some transition of operation (group) `op` is enabled.
    Enabled(String),
    /// `[op]`: the next step is a transition of `op`.
    Taken(String),
    /// `[op(a1, ..., an)]`: the next step is a transition of `op` whose
    /// `k`-th argument equals the value of expression `ak` in the current
    /// state (the model's language; `None`: an empty argument, any value;
    /// `[op()]`, no arguments, takes any).
    TakenWith(String, Vec<Option<String>>),
    /// `deadlock`: no transition is enabled.
    Deadlock,
    /// `deadlock(ops)`, `controller(ops)`, `deterministic(ops)`: how many
    /// of the operations `ops` are enabled (none, exactly one, at most one).
    EnabledAmong(Among, Vec<String>),
    /// `sink`: no enabled transition leads to another state.
    Sink,
}

/// What an [`Atom::EnabledAmong`] asks of the number of its operations
/// that are enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Among {
    /// `deadlock(ops)`: none.
    None,
    /// `controller(ops)`: exactly one.
    ExactlyOne,
    /// `deterministic(ops)`: at most one.
    AtMostOne,
}

impl Among {
    /// The atom's keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Among::None => "deadlock",
            Among::ExactlyOne => "controller",
            Among::AtMostOne => "deterministic",
        }
    }

    /// Whether `enabled` operations of the atom's satisfy it.
    pub fn holds(self, enabled: usize) -> bool {
        match self {
            Among::None => enabled == 0,
            Among::ExactlyOne => enabled == 1,
            Among::AtMostOne => enabled <= 1,
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Predicate(text) => write!(f, "{{{text}}}"),
            Atom::Enabled(op) => write!(f, "e({op})"),
            Atom::Taken(op) => write!(f, "[{op}]"),
            Atom::TakenWith(op, args) => {
                let args: Vec<&str> = args.iter().map(|a| a.as_deref().unwrap_or("")).collect();
                write!(f, "[{op}({})]", args.join(","))
            }
            Atom::Deadlock => f.write_str("deadlock"),
            Atom::EnabledAmong(among, ops) => write!(f, "{}({})", among.keyword(), ops.join(",")),
            Atom::Sink => f.write_str("sink"),
        }
    }
}

/// A formula; atoms are indices into [`Property::atoms`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ltl {
    /// `true`.
    True,
    /// `false`.
    False,
    /// An atomic proposition.
    Atom(usize),
    /// `not f`.
    Not(Box<Ltl>),
    /// `f & g`.
    And(Box<Ltl>, Box<Ltl>),
    /// `f or g`.
    Or(Box<Ltl>, Box<Ltl>),
    /// `X f`.
    Next(Box<Ltl>),
    /// `f U g` (strong until).
    Until(Box<Ltl>, Box<Ltl>),
    /// `f R g` (release, the dual of until).
    Release(Box<Ltl>, Box<Ltl>),
}

/// A fairness constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fairness {
    /// `WF(op)`: if `op` is enabled from some point on, it is taken
    /// infinitely often.
    Weak(String),
    /// `SF(op)`: if `op` is enabled infinitely often, it is taken
    /// infinitely often.
    Strong(String),
    /// `WEF`: weak fairness for every operation.
    WeakAll,
    /// `SEF`: strong fairness for every operation.
    StrongAll,
}

/// A property: fairness constraints and a formula over atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The text it was parsed from.
    pub text: String,
    /// The fairness constraints (the paths considered).
    pub fairness: Vec<Fairness>,
    /// The formula every fair path must satisfy.
    pub formula: Ltl,
    /// The atoms, numbered as in the formula.
    pub atoms: Vec<Atom>,
}

/// A syntax error: where (a byte offset into the text) and what was
/// expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the error.
    pub at: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.at + 1, self.message)
    }
}

fn b(f: Ltl) -> Box<Ltl> {
    Box::new(f)
}

impl Ltl {
    /// `not f`, simplified for constants.
    pub fn negation(f: Ltl) -> Ltl {
        match f {
            Ltl::True => Ltl::False,
            Ltl::False => Ltl::True,
            f => Ltl::Not(b(f)),
        }
    }

    /// `F f` = `true U f`.
    pub fn eventually(f: Ltl) -> Ltl {
        Ltl::Until(b(Ltl::True), b(f))
    }

    /// `G f` = `false R f`.
    pub fn always(f: Ltl) -> Ltl {
        Ltl::Release(b(Ltl::False), b(f))
    }

    /// `f W g` = `g R (f or g)`.
    pub fn weak_until(f: Ltl, g: Ltl) -> Ltl {
        Ltl::Release(b(g.clone()), b(Ltl::Or(b(f), b(g))))
    }

    /// `f => g` = `not f or g`.
    pub fn implies(f: Ltl, g: Ltl) -> Ltl {
        Ltl::Or(b(Ltl::negation(f)), b(g))
    }

    /// The negation normal form: `not` only on atoms.
    pub fn nnf(&self) -> Ltl {
        self.nnf_of(false)
    }

    fn nnf_of(&self, negated: bool) -> Ltl {
        match (self, negated) {
            (Ltl::True, false) | (Ltl::False, true) => Ltl::True,
            (Ltl::True, true) | (Ltl::False, false) => Ltl::False,
            (Ltl::Atom(a), false) => Ltl::Atom(*a),
            (Ltl::Atom(a), true) => Ltl::Not(b(Ltl::Atom(*a))),
            (Ltl::Not(f), n) => f.nnf_of(!n),
            (Ltl::And(f, g), false) | (Ltl::Or(f, g), true) => {
                Ltl::And(b(f.nnf_of(negated)), b(g.nnf_of(negated)))
            }
            (Ltl::Or(f, g), false) | (Ltl::And(f, g), true) => {
                Ltl::Or(b(f.nnf_of(negated)), b(g.nnf_of(negated)))
            }
            (Ltl::Next(f), n) => Ltl::Next(b(f.nnf_of(n))),
            (Ltl::Until(f, g), false) | (Ltl::Release(f, g), true) => {
                Ltl::Until(b(f.nnf_of(negated)), b(g.nnf_of(negated)))
            }
            (Ltl::Release(f, g), false) | (Ltl::Until(f, g), true) => {
                Ltl::Release(b(f.nnf_of(negated)), b(g.nnf_of(negated)))
            }
        }
    }

    /// Whether the formula uses `X` (partial order reduction preserves
    /// only formulas without it).
    pub fn uses_next(&self) -> bool {
        match self {
            Ltl::True | Ltl::False | Ltl::Atom(_) => false,
            Ltl::Next(_) => true,
            Ltl::Not(f) => f.uses_next(),
            Ltl::And(f, g) | Ltl::Or(f, g) | Ltl::Until(f, g) | Ltl::Release(f, g) => {
                f.uses_next() || g.uses_next()
            }
        }
    }

    /// Whether the formula holds at position `i` of the ultimately periodic
    /// word `stem · cycle^ω` (each letter the set of atoms true there,
    /// as a bit mask). Positions past the stem fold into the cycle.
    pub fn holds_on_lasso(&self, word: &[u64], cycle_start: usize, i: usize) -> bool {
        let n = word.len();
        let next = |j: usize| if j + 1 < n { j + 1 } else { cycle_start };
        match self {
            Ltl::True => true,
            Ltl::False => false,
            Ltl::Atom(a) => word[i] >> a & 1 == 1,
            Ltl::Not(f) => !f.holds_on_lasso(word, cycle_start, i),
            Ltl::And(f, g) => {
                f.holds_on_lasso(word, cycle_start, i) && g.holds_on_lasso(word, cycle_start, i)
            }
            Ltl::Or(f, g) => {
                f.holds_on_lasso(word, cycle_start, i) || g.holds_on_lasso(word, cycle_start, i)
            }
            Ltl::Next(f) => f.holds_on_lasso(word, cycle_start, next(i)),
            // Every position from i on is visited within n steps.
            Ltl::Until(f, g) => {
                let mut j = i;
                for _ in 0..=n {
                    if g.holds_on_lasso(word, cycle_start, j) {
                        return true;
                    }
                    if !f.holds_on_lasso(word, cycle_start, j) {
                        return false;
                    }
                    j = next(j);
                }
                false
            }
            Ltl::Release(f, g) => !Ltl::Until(
                b(Ltl::negation((**f).clone())),
                b(Ltl::negation((**g).clone())),
            )
            .holds_on_lasso(word, cycle_start, i),
        }
    }

    /// The formula in SPIN's syntax (`spin -f`), atoms as `pN`.
    pub fn to_spin(&self) -> String {
        match self {
            Ltl::True => "true".into(),
            Ltl::False => "false".into(),
            Ltl::Atom(a) => format!("p{a}"),
            Ltl::Not(f) => format!("(! {})", f.to_spin()),
            Ltl::And(f, g) => format!("({} && {})", f.to_spin(), g.to_spin()),
            Ltl::Or(f, g) => format!("({} || {})", f.to_spin(), g.to_spin()),
            Ltl::Next(f) => format!("(X {})", f.to_spin()),
            Ltl::Until(f, g) => format!("({} U {})", f.to_spin(), g.to_spin()),
            Ltl::Release(f, g) => format!("({} V {})", f.to_spin(), g.to_spin()),
        }
    }
}

/// Parses a property in ProB's syntax.
pub fn parse(text: &str) -> Result<Property, SyntaxError> {
    let mut p = Parser {
        text,
        at: 0,
        atoms: Vec::new(),
    };
    let (fairness, formula) = p.property()?;
    p.skip_space();
    if p.at < text.len() {
        return Err(p.error("an operator or the end of the formula"));
    }
    Ok(Property {
        text: text.to_string(),
        fairness,
        formula,
        atoms: p.atoms,
    })
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
    atoms: Vec<Atom>,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_space(&mut self) {
        let trimmed = self.rest().trim_start();
        self.at = self.text.len() - trimmed.len();
    }

    fn error(&self, expected: &str) -> SyntaxError {
        let found = self.rest().chars().next().map_or_else(
            || "the end of the formula".to_string(),
            |c| format!("`{c}`"),
        );
        SyntaxError {
            at: self.at,
            message: format!("expected {expected}, found {found}"),
        }
    }

    /// Whether the next token is the keyword or symbol `word` (a keyword
    /// made of letters must not run on into a longer name); eats it if so.
    fn eat(&mut self, word: &str) -> bool {
        self.skip_space();
        let rest = self.rest();
        if !rest.starts_with(word) {
            return false;
        }
        let letters = word.chars().all(|c| c.is_ascii_alphabetic());
        let after = rest[word.len()..].chars().next();
        if letters && after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        self.at += word.len();
        true
    }

    /// Whether the next token is the unary temporal operator `letter`
    /// (`G`, `F` or `X`); eats it if so. As in ProB, where no name stands
    /// bare in a formula, a word of these letters alone is a run of
    /// operators: `GF {p}` is `G F {p}`, `XX` is `X X`.
    fn eat_unary(&mut self, letter: &str) -> bool {
        self.skip_space();
        let rest = self.rest();
        let word = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(rest, |end| &rest[..end]);
        if word.starts_with(letter) && word.chars().all(|c| matches!(c, 'G' | 'F' | 'X')) {
            self.at += letter.len();
            return true;
        }
        false
    }

    fn expect(&mut self, word: &str) -> Result<(), SyntaxError> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.error(&format!("`{word}`")))
        }
    }

    fn property(&mut self) -> Result<(Vec<Fairness>, Ltl), SyntaxError> {
        let start = self.at;
        let mut fairness = Vec::new();
        loop {
            let f = if self.eat("WEF") {
                Fairness::WeakAll
            } else if self.eat("SEF") {
                Fairness::StrongAll
            } else if self.eat("WF") {
                self.expect("(")?;
                let op = self.name()?;
                self.expect(")")?;
                Fairness::Weak(op)
            } else if self.eat("SF") {
                self.expect("(")?;
                let op = self.name()?;
                self.expect(")")?;
                Fairness::Strong(op)
            } else {
                break;
            };
            fairness.push(f);
            if self.eat("&") {
                continue;
            }
            self.expect("=>")?;
            return Ok((fairness, self.implication()?));
        }
        self.at = start;
        Ok((fairness, self.implication()?))
    }

    fn implication(&mut self) -> Result<Ltl, SyntaxError> {
        let f = self.or()?;
        // `->` is read as `=>` (SPIN's spelling, found in B machines).
        if self.eat("=>") || self.eat("->") {
            let g = self.implication()?;
            return Ok(Ltl::implies(f, g));
        }
        Ok(f)
    }

    fn or(&mut self) -> Result<Ltl, SyntaxError> {
        let mut f = self.and()?;
        while self.eat("or") {
            f = Ltl::Or(b(f), b(self.and()?));
        }
        Ok(f)
    }

    fn and(&mut self) -> Result<Ltl, SyntaxError> {
        let mut f = self.binary()?;
        while self.eat("&") {
            f = Ltl::And(b(f), b(self.binary()?));
        }
        Ok(f)
    }

    fn binary(&mut self) -> Result<Ltl, SyntaxError> {
        let f = self.unary()?;
        if self.eat("U") {
            Ok(Ltl::Until(b(f), b(self.binary()?)))
        } else if self.eat("W") {
            Ok(Ltl::weak_until(f, self.binary()?))
        } else if self.eat("R") {
            Ok(Ltl::Release(b(f), b(self.binary()?)))
        } else {
            Ok(f)
        }
    }

    fn unary(&mut self) -> Result<Ltl, SyntaxError> {
        if self.eat("not") {
            return Ok(Ltl::negation(self.unary()?));
        }
        if self.eat_unary("G") {
            return Ok(Ltl::always(self.unary()?));
        }
        if self.eat_unary("F") {
            return Ok(Ltl::eventually(self.unary()?));
        }
        if self.eat_unary("X") {
            return Ok(Ltl::Next(b(self.unary()?)));
        }
        if self.eat("true") {
            return Ok(Ltl::True);
        }
        if self.eat("false") {
            return Ok(Ltl::False);
        }
        for among in [Among::None, Among::ExactlyOne, Among::AtMostOne] {
            let save = self.at;
            if self.eat(among.keyword()) {
                if self.eat("(") {
                    let mut ops = vec![self.name()?];
                    while self.eat(",") {
                        ops.push(self.name()?);
                    }
                    self.expect(")")?;
                    return Ok(self.atom(Atom::EnabledAmong(among, ops)));
                }
                if among == Among::None {
                    return Ok(self.atom(Atom::Deadlock));
                }
                self.at = save;
                return Err(self.error(&format!("`{}(op, ...)`", among.keyword())));
            }
        }
        if self.eat("sink") {
            return Ok(self.atom(Atom::Sink));
        }
        if self.eat("(") {
            let f = self.implication()?;
            self.expect(")")?;
            return Ok(f);
        }
        if self.eat("{") {
            let text = self.braced()?;
            return Ok(self.atom(Atom::Predicate(text)));
        }
        if self.eat("[") {
            let op = self.name()?;
            if self.eat("(") {
                let args = self.arguments()?;
                self.expect("]")?;
                return Ok(self.atom(Atom::TakenWith(op, args)));
            }
            self.expect("]")?;
            return Ok(self.atom(Atom::Taken(op)));
        }
        self.skip_space();
        for (word, what) in [
            ("Y", "past operators (Y, H, O, S, T)"),
            ("H", "past operators (Y, H, O, S, T)"),
            ("O", "past operators (Y, H, O, S, T)"),
            ("current", "`current`"),
            (
                "unchanged",
                "transition predicates (`unchanged`, `changed`, ...)",
            ),
            (
                "changed",
                "transition predicates (`unchanged`, `changed`, ...)",
            ),
            (
                "increasing",
                "transition predicates (`unchanged`, `changed`, ...)",
            ),
            (
                "decreasing",
                "transition predicates (`unchanged`, `changed`, ...)",
            ),
            ("BA", "transition predicates (`BA`)"),
        ] {
            let save = self.at;
            if self.eat(word) {
                self.at = save;
                return Err(self.unsupported(what));
            }
        }
        if self.eat("e") {
            self.expect("(")?;
            let op = self.name()?;
            self.expect(")")?;
            return Ok(self.atom(Atom::Enabled(op)));
        }
        Err(self.error("a formula (an atom `{...}`, `e(op)`, `[op]`, `deadlock`, `true`, `false`, `not`, `G`, `F`, `X` or `(`)"))
    }

    fn unsupported(&self, what: &str) -> SyntaxError {
        SyntaxError {
            at: self.at,
            message: format!("not supported yet: {what} in LTL formulas"),
        }
    }

    fn atom(&mut self, atom: Atom) -> Ltl {
        let k = match self.atoms.iter().position(|a| *a == atom) {
            Some(k) => k,
            None => {
                self.atoms.push(atom);
                self.atoms.len() - 1
            }
        };
        Ltl::Atom(k)
    }

    /// The text up to the `}` that closes the `{` just eaten (nested
    /// braces, such as set extensions, are kept).
    fn braced(&mut self) -> Result<String, SyntaxError> {
        let mut depth = 1;
        for (k, c) in self.rest().char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        let text = self.rest()[..k].trim().to_string();
                        self.at += k + 1;
                        return Ok(text);
                    }
                }
                _ => {}
            }
        }
        Err(self.error("`}` closing the predicate"))
    }

    /// An operation or rule name: letters, digits, `_`, `.` (B's renamed
    /// operations), or a Murphi rule's quoted name.
    /// The arguments of `[op(...)]` after its `(`, up to the closing `)`:
    /// expressions of the model's language separated by top-level commas
    /// (brackets nest), each `None` when empty.
    fn arguments(&mut self) -> Result<Vec<Option<String>>, SyntaxError> {
        let mut depth = 0usize;
        let mut args = Vec::new();
        let mut start = 0;
        for (k, c) in self.rest().char_indices() {
            match c {
                '(' | '{' | '[' => depth += 1,
                ')' if depth == 0 => {
                    let rest = self.rest();
                    args.push(rest[start..k].trim().to_string());
                    self.at += k + 1;
                    if args.len() == 1 && args[0].is_empty() {
                        return Ok(Vec::new()); // `op()`: any arguments
                    }
                    return Ok(args
                        .into_iter()
                        .map(|a| (!a.is_empty()).then_some(a))
                        .collect());
                }
                ')' | '}' | ']' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    args.push(self.rest()[start..k].trim().to_string());
                    start = k + 1;
                }
                _ => {}
            }
        }
        self.at += self.rest().len();
        Err(self.error("a `)` closing the arguments"))
    }

    fn name(&mut self) -> Result<String, SyntaxError> {
        self.skip_space();
        let rest = self.rest();
        if let Some(quoted) = rest.strip_prefix('"') {
            if let Some(end) = quoted.find('"') {
                self.at += end + 2;
                return Ok(quoted[..end].to_string());
            }
            return Err(self.error("a closing `\"`"));
        }
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.error("an operation name"));
        }
        self.at += len;
        Ok(rest[..len].to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prob_syntax_parses_with_its_precedences() {
        let p = parse("G ({x > 0} => F [inc]) & not e(dec)").unwrap();
        assert_eq!(
            p.atoms,
            vec![
                Atom::Predicate("x > 0".into()),
                Atom::Taken("inc".into()),
                Atom::Enabled("dec".into())
            ]
        );
        assert!(matches!(p.formula, Ltl::And(..)));
        // U binds tighter than &, & than or, or than =>.
        let p = parse("{a} U {b} & {c} or {d} => {e}").unwrap();
        let (a, bb, c, d, e) = (0, 1, 2, 3, 4);
        let at = |k| Ltl::Atom(k);
        assert_eq!(
            p.formula,
            Ltl::implies(
                Ltl::Or(
                    b(Ltl::And(b(Ltl::Until(b(at(a)), b(at(bb)))), b(at(c)))),
                    b(at(d))
                ),
                at(e)
            )
        );
    }

    #[test]
    fn runs_of_unary_operators_need_no_spaces() {
        let at = |k| Ltl::Atom(k);
        for (run, spaced) in [
            ("GF{x=0}", "G F {x=0}"),
            ("FG({x=0} or {x=1})", "F G ({x=0} or {x=1})"),
            ("XX {x=0}", "X X {x=0}"),
            ("GFX [inc]", "G F X [inc]"),
            ("SF(inc) => GF {x=0}", "SF(inc) => G F {x=0}"),
        ] {
            let (p, q) = (parse(run).unwrap(), parse(spaced).unwrap());
            assert_eq!((p.formula, p.fairness), (q.formula, q.fairness), "{run}");
        }
        assert_eq!(
            parse("GF e(inc)").unwrap().formula,
            Ltl::always(Ltl::eventually(at(0)))
        );
        // Other words are not split: `Go` is no formula.
        assert!(parse("Go").is_err());
    }

    #[test]
    fn fairness_stands_left_of_the_top_implication() {
        let p = parse("WF(inc) & SF(dec) => G F {x = 0}").unwrap();
        assert_eq!(
            p.fairness,
            vec![Fairness::Weak("inc".into()), Fairness::Strong("dec".into())]
        );
        let p = parse("WEF => G {x = {1, 2}}").unwrap();
        assert_eq!(p.fairness, vec![Fairness::WeakAll]);
        assert_eq!(p.atoms, vec![Atom::Predicate("x = {1, 2}".into())]);
    }

    #[test]
    fn step_atoms_take_arguments_as_prob_does() {
        let p = parse("G ([op(3,,4*f(v, w))] => X {x = 1})").unwrap();
        let args = vec![Some("3".to_string()), None, Some("4*f(v, w)".to_string())];
        assert_eq!(p.atoms[0], Atom::TakenWith("op".into(), args));
        assert_eq!(p.atoms[0].to_string(), "[op(3,,4*f(v, w))]");
        let p = parse("G [op({1, 2})]").unwrap();
        assert_eq!(
            p.atoms[0],
            Atom::TakenWith("op".into(), vec![Some("{1, 2}".to_string())])
        );
    }

    #[test]
    fn probs_enabledness_atoms() {
        let p = parse("G (not deadlock(a, b) & controller(a,\"c(1)\") & deterministic(b)) or sink")
            .unwrap();
        assert_eq!(
            p.atoms,
            vec![
                Atom::EnabledAmong(Among::None, vec!["a".into(), "b".into()]),
                Atom::EnabledAmong(Among::ExactlyOne, vec!["a".into(), "c(1)".into()]),
                Atom::EnabledAmong(Among::AtMostOne, vec!["b".into()]),
                Atom::Sink,
            ]
        );
        assert_eq!(p.atoms[0].to_string(), "deadlock(a,b)");
        assert_eq!(parse("G deadlock").unwrap().atoms, vec![Atom::Deadlock]);
        assert!(parse("G controller").is_err());
        assert!(
            (0..3)
                .map(|n| Among::ExactlyOne.holds(n))
                .eq([false, true, false])
        );
        assert!(
            (0..3)
                .map(|n| Among::AtMostOne.holds(n))
                .eq([true, true, false])
        );
        assert!(
            (0..3)
                .map(|n| Among::None.holds(n))
                .eq([true, false, false])
        );
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse("G (").unwrap_err();
        assert_eq!(e.at, 3);
        assert!(e.message.contains("expected a formula"), "{e}");
        let e = parse("Y {x = 1}").unwrap_err();
        assert!(
            e.message.contains("not supported yet: past operators"),
            "{e}"
        );
        let e = parse("G [op(1, 2]").unwrap_err();
        assert!(e.message.contains("a `)` closing the arguments"), "{e}");
        assert!(parse("{x = 1} )").is_err());
        assert!(parse("{x = 1").is_err());
    }

    #[test]
    fn negation_normal_form_keeps_the_meaning() {
        let p = parse("not (G ({a} => F {b}) U X {c})").unwrap();
        let f = &p.formula;
        let n = f.nnf();
        // Every letter sequence of length 3 with every loop start.
        for bits in 0..(1u64 << 9) {
            let word: Vec<u64> = (0..3).map(|i| bits >> (3 * i) & 7).collect();
            for start in 0..3 {
                for i in 0..3 {
                    assert_eq!(
                        f.holds_on_lasso(&word, start, i),
                        n.holds_on_lasso(&word, start, i)
                    );
                }
            }
        }
    }
}
