//! Names in scope while checking a machine.
//!
//! Machine-level names (sets, enumerated elements, constants, variables)
//! live in one table; operation parameters and outputs, and bound variables
//! (quantifiers, comprehensions, `ANY`, `LET`, `VAR`, ...) live on a stack
//! searched innermost first, so inner bindings shadow outer ones. Which
//! machine-level names a clause may read is decided by [`Clause`].

use super::unify::TermId;
use std::collections::HashMap;

/// What a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum What {
    /// Given set number `k`.
    Set(u32),
    /// An element of enumerated set number `k`.
    Element(u32),
    /// Free type number `k`.
    FreeType(u32),
    /// Constructor `i` of free type number `k`.
    Constructor(u32, u32),
    /// Constant number `i`.
    Constant(usize),
    /// Variable number `i`.
    Variable(usize),
    /// An input parameter of the current operation.
    Param,
    /// An output of the current operation.
    Output,
    /// A variable bound by the named construct (`ANY`, `!`, ...): read only.
    Bound(&'static str),
    /// A local variable of `VAR ... IN`: assignable.
    Local,
    /// A name already reported as unknown or invisible: anything goes, so
    /// that one mistake gives one error.
    Unknown,
}

impl What {
    /// How the name is described in messages ("constant", "variable", ...).
    pub(crate) fn describe(self) -> String {
        match self {
            What::Set(_) => "set".into(),
            What::Element(_) => "enumerated set element".into(),
            What::FreeType(_) => "free type".into(),
            What::Constructor(..) => "constructor".into(),
            What::Constant(_) => "constant".into(),
            What::Variable(_) => "variable".into(),
            What::Param => "input parameter".into(),
            What::Output => "output parameter".into(),
            What::Bound(by) => format!("variable bound by {by}"),
            What::Local => "local variable".into(),
            What::Unknown => "name".into(),
        }
    }
}

/// A name's meaning and type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Binding {
    /// What it refers to.
    pub what: What,
    /// Its type.
    pub term: TermId,
}

/// The clause being checked, which decides what is visible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Clause {
    /// `CONSTRAINTS`: set parameters only.
    Constraints,
    /// `PROPERTIES`: sets, elements, constants.
    Properties,
    /// `INVARIANT`, `ASSERTIONS`, `INITIALISATION`, operations, `GOAL`: everything.
    Dynamic,
}

/// The names visible at one point of the machine.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    globals: HashMap<String, Binding>,
    locals: Vec<(String, Binding)>,
    /// Number of set parameters (the first given sets), visible in CONSTRAINTS.
    pub set_params: u32,
}

impl Scope {
    /// Declares a machine-level name; returns the earlier binding if the name is taken.
    pub(crate) fn declare_global(&mut self, name: &str, binding: Binding) -> Result<(), Binding> {
        match self.globals.get(name) {
            Some(old) => Err(*old),
            None => {
                self.globals.insert(name.to_string(), binding);
                Ok(())
            }
        }
    }

    /// The machine-level binding of a name, visible or not.
    pub(crate) fn global(&self, name: &str) -> Option<Binding> {
        self.globals.get(name).copied()
    }

    /// Pushes a local binding (operation parameter or bound variable).
    pub(crate) fn push_local(&mut self, name: &str, binding: Binding) {
        self.locals.push((name.to_string(), binding));
    }

    /// Number of local bindings, to restore with [`Scope::truncate`].
    pub(crate) fn mark(&self) -> usize {
        self.locals.len()
    }

    /// Drops the local bindings pushed since `mark`.
    pub(crate) fn truncate(&mut self, mark: usize) {
        self.locals.truncate(mark);
    }

    /// The innermost local binding of a name.
    pub(crate) fn local(&self, name: &str) -> Option<Binding> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, b)| *b)
    }

    /// Whether a machine-level binding may be read in `clause`.
    pub(crate) fn visible(&self, what: What, clause: Clause) -> bool {
        match (clause, what) {
            (Clause::Dynamic, _) => true,
            (Clause::Properties, What::Variable(_)) => false,
            (Clause::Properties, _) => true,
            (Clause::Constraints, What::Set(k)) => k < self.set_params,
            (Clause::Constraints, _) => false,
        }
    }

    /// The visible name closest to `name` (edit distance at most 2 and less
    /// than half its length), to suggest for a misspelt identifier.
    pub(crate) fn suggest(&self, name: &str, clause: Clause) -> Option<String> {
        let limit = 2.min(name.chars().count().saturating_sub(1) / 2 + 1);
        let locals = self.locals.iter().map(|(n, _)| n.as_str());
        let globals = self
            .globals
            .iter()
            .filter(|(_, b)| self.visible(b.what, clause))
            .map(|(n, _)| n.as_str());
        closest(name, locals.chain(globals), limit).map(str::to_string)
    }
}

/// The candidate nearest `name` by [`edit_distance`], at most `limit`
/// edits away (the first in order of names among equally near ones).
pub(super) fn closest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
    limit: usize,
) -> Option<&'a str> {
    candidates
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance between two strings, by characters; case changes cost 1.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding(what: What) -> Binding {
        Binding { what, term: 0 }
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_substitutions() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("pst", "pst"), 0);
    }

    #[test]
    fn locals_shadow_and_are_dropped_at_truncate() {
        let mut s = Scope::default();
        s.declare_global("x", binding(What::Variable(0))).unwrap();
        assert!(s.declare_global("x", binding(What::Constant(0))).is_err());
        let mark = s.mark();
        s.push_local("x", binding(What::Bound("!")));
        assert_eq!(s.local("x").unwrap().what, What::Bound("!"));
        s.truncate(mark);
        assert!(s.local("x").is_none());
    }

    #[test]
    fn suggestions_respect_visibility() {
        let mut s = Scope::default();
        s.declare_global("proc", binding(What::Variable(0)))
            .unwrap();
        assert_eq!(s.suggest("porc", Clause::Dynamic), Some("proc".into()));
        assert_eq!(s.suggest("porc", Clause::Properties), None);
        assert_eq!(s.suggest("zzzzzz", Clause::Dynamic), None);
    }
}
