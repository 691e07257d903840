//! Type terms with type variables, and their unification.
//!
//! Inference works on terms stored in an arena ([`Terms`]): a term is a
//! type constructor (`INTEGER`, `BOOL`, `STRING`, a given set, `A*B`,
//! `POW(A)`) over other terms, or a type variable. Variables are merged by
//! union-find with path compression, so unifying the types of a whole machine
//! costs close to linear time in its size (Robinson unification on a
//! union-find graph, as in Hindley-Milner inference). An occurs check keeps
//! terms finite, so `x : x` is a type error and never a loop.

use crate::frontends::b::types::Type;

/// Index of a term in [`Terms`].
pub(crate) type TermId = u32;

/// One arena node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// An unbound type variable.
    Var,
    /// A variable bound to another term.
    Link(TermId),
    Int,
    Bool,
    Str,
    Given(u32),
    Pair(TermId, TermId),
    Set(TermId),
    Free(u32),
}

/// The outermost constructor of a term, as seen after following links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Not known yet.
    Var,
    /// `INTEGER`
    Int,
    /// `BOOL`
    Bool,
    /// `STRING`
    Str,
    /// A given set.
    Given(u32),
    /// `A*B`
    Pair(TermId, TermId),
    /// `POW(A)`
    Set(TermId),
    /// Free type number `k`.
    Free(u32),
}

/// Why two terms could not be unified.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Mismatch {
    /// Different constructors, e.g. `INTEGER` against `POW(_)`.
    Clash,
    /// A variable would have to contain itself (`x : x`).
    Infinite,
}

/// Arena of type terms.
#[derive(Debug, Default)]
pub(crate) struct Terms {
    nodes: Vec<Node>,
    /// Record types: the outermost pair of a record's fields (right-nested
    /// pairs in the order of the sorted names, see
    /// [`crate::frontends::b::types::MachineTypes::fields`]) and the field names, kept
    /// on the representative.
    records: std::collections::HashMap<TermId, Vec<String>>,
    /// The names of the free types, by number, for messages.
    pub(crate) free_names: Vec<String>,
}

impl Terms {
    fn push(&mut self, node: Node) -> TermId {
        self.nodes.push(node);
        (self.nodes.len() - 1) as TermId
    }

    /// A fresh type variable.
    pub(crate) fn var(&mut self) -> TermId {
        self.push(Node::Var)
    }

    /// `INTEGER`
    pub(crate) fn int(&mut self) -> TermId {
        self.push(Node::Int)
    }

    /// `BOOL`
    pub(crate) fn bool(&mut self) -> TermId {
        self.push(Node::Bool)
    }

    /// `STRING`
    pub(crate) fn string(&mut self) -> TermId {
        self.push(Node::Str)
    }

    /// Given set number `k`.
    pub(crate) fn given(&mut self, k: u32) -> TermId {
        self.push(Node::Given(k))
    }

    /// Free type number `k`.
    pub(crate) fn free(&mut self, k: u32) -> TermId {
        self.push(Node::Free(k))
    }

    /// `a*b`
    pub(crate) fn pair(&mut self, a: TermId, b: TermId) -> TermId {
        self.push(Node::Pair(a, b))
    }

    /// `POW(a)`
    pub(crate) fn set(&mut self, a: TermId) -> TermId {
        self.push(Node::Set(a))
    }

    /// The record type with fields `names` (sorted, distinct) of types `fields`.
    pub(crate) fn record(&mut self, names: Vec<String>, fields: &[TermId]) -> TermId {
        let t = match fields {
            [only] => {
                let b = self.bool();
                self.pair(*only, b)
            }
            _ => {
                let mut t = *fields.last().expect("a record has fields");
                for &f in fields[..fields.len() - 1].iter().rev() {
                    t = self.pair(f, t);
                }
                t
            }
        };
        self.records.insert(t, names);
        t
    }

    /// Where `t` holds records, with their field names.
    pub(crate) fn value_shape(&mut self, t: TermId) -> crate::frontends::b::types::ValueShape {
        use crate::frontends::b::types::ValueShape;
        if let Some(fields) = self.record_fields(t) {
            return ValueShape::Record(
                fields
                    .into_iter()
                    .map(|(name, f)| (name, self.value_shape(f)))
                    .collect(),
            );
        }
        match self.shape(t) {
            Shape::Pair(a, b) => {
                let (a, b) = (self.value_shape(a), self.value_shape(b));
                if a == ValueShape::Plain && b == ValueShape::Plain {
                    ValueShape::Plain
                } else {
                    ValueShape::Pair(Box::new(a), Box::new(b))
                }
            }
            Shape::Set(a) => match self.value_shape(a) {
                ValueShape::Plain => ValueShape::Plain,
                inner => ValueShape::Set(Box::new(inner)),
            },
            Shape::Free(k) => ValueShape::Free(k),
            _ => ValueShape::Plain,
        }
    }

    /// The fields (name and type, sorted by name) of `t` if it is a record type.
    pub(crate) fn record_fields(&mut self, t: TermId) -> Option<Vec<(String, TermId)>> {
        let r = self.find(t);
        let names = self.records.get(&r)?.clone();
        let mut out = Vec::with_capacity(names.len());
        let mut cur = r;
        for (i, name) in names.iter().enumerate() {
            if i + 1 == names.len() && names.len() > 1 {
                out.push((name.clone(), cur));
                break;
            }
            let Shape::Pair(a, b) = self.shape(cur) else {
                return None;
            };
            out.push((name.clone(), a));
            cur = b;
        }
        Some(out)
    }

    /// `POW(a*b)`, the type of relations from `a` to `b`.
    pub(crate) fn relation(&mut self, a: TermId, b: TermId) -> TermId {
        let p = self.pair(a, b);
        self.set(p)
    }

    /// `POW(INTEGER*a)`, the type of sequences over `a`.
    pub(crate) fn seq(&mut self, a: TermId) -> TermId {
        let i = self.int();
        self.relation(i, a)
    }

    /// The term for a closed [`Type`].
    pub(crate) fn of_type(&mut self, ty: &Type) -> TermId {
        match ty {
            Type::Int => self.int(),
            Type::Bool => self.bool(),
            Type::String => self.string(),
            Type::Given(k) => self.given(*k),
            Type::Free(k) => self.free(*k),
            Type::Pair(a, b) => {
                let (a, b) = (self.of_type(a), self.of_type(b));
                self.pair(a, b)
            }
            Type::Set(a) => {
                let a = self.of_type(a);
                self.set(a)
            }
        }
    }

    /// The representative of `t` (follows links, compressing the path).
    pub(crate) fn find(&mut self, t: TermId) -> TermId {
        let mut root = t;
        while let Node::Link(next) = self.nodes[root as usize] {
            root = next;
        }
        let mut cur = t;
        while let Node::Link(next) = self.nodes[cur as usize] {
            self.nodes[cur as usize] = Node::Link(root);
            cur = next;
        }
        root
    }

    /// The outermost constructor of `t`.
    pub(crate) fn shape(&mut self, t: TermId) -> Shape {
        let r = self.find(t);
        match self.nodes[r as usize] {
            Node::Var | Node::Link(_) => Shape::Var,
            Node::Int => Shape::Int,
            Node::Bool => Shape::Bool,
            Node::Str => Shape::Str,
            Node::Given(k) => Shape::Given(k),
            Node::Pair(a, b) => Shape::Pair(a, b),
            Node::Set(a) => Shape::Set(a),
            Node::Free(k) => Shape::Free(k),
        }
    }

    /// Whether variable `v` (a representative) occurs in `t`.
    fn occurs(&mut self, v: TermId, t: TermId) -> bool {
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            let r = self.find(t);
            if r == v {
                return true;
            }
            match self.nodes[r as usize] {
                Node::Pair(a, b) => stack.extend([a, b]),
                Node::Set(a) => stack.push(a),
                _ => {}
            }
        }
        false
    }

    /// Makes `a` and `b` the same type. On failure the variables met before
    /// the clash stay bound (so both sides print with what was learnt) but
    /// two different constructors are never merged, so both sides still
    /// print as what they were; the caller reports the error and carries on.
    pub(crate) fn unify(&mut self, a: TermId, b: TermId) -> Result<(), Mismatch> {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return Ok(());
        }
        match (self.nodes[ra as usize], self.nodes[rb as usize]) {
            (Node::Var, _) => {
                if self.occurs(ra, rb) {
                    return Err(Mismatch::Infinite);
                }
                self.nodes[ra as usize] = Node::Link(rb);
            }
            (_, Node::Var) => {
                if self.occurs(rb, ra) {
                    return Err(Mismatch::Infinite);
                }
                self.nodes[rb as usize] = Node::Link(ra);
            }
            (Node::Pair(a1, a2), Node::Pair(b1, b2)) => {
                if let (Some(x), Some(y)) = (self.records.get(&ra), self.records.get(&rb))
                    && x != y
                {
                    return Err(Mismatch::Clash);
                }
                self.unify(a1, b1)?;
                self.unify(a2, b2)?;
                self.merge(ra, rb);
            }
            (Node::Set(a1), Node::Set(b1)) => {
                self.unify(a1, b1)?;
                self.merge(ra, rb);
            }
            (x, y) if x == y => {}
            _ => return Err(Mismatch::Clash),
        }
        Ok(())
    }

    /// Links two equal structures so later finds are short.
    fn merge(&mut self, a: TermId, b: TermId) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.nodes[rb as usize] = Node::Link(ra);
            if let Some(names) = self.records.remove(&rb) {
                self.records.entry(ra).or_insert(names);
            }
        }
    }

    /// The closed type of `t`, or `None` if it still contains a variable.
    pub(crate) fn resolve(&mut self, t: TermId) -> Option<Type> {
        Some(match self.shape(t) {
            Shape::Var => return None,
            Shape::Int => Type::Int,
            Shape::Bool => Type::Bool,
            Shape::Str => Type::String,
            Shape::Given(k) => Type::Given(k),
            Shape::Free(k) => Type::Free(k),
            Shape::Pair(a, b) => Type::Pair(Box::new(self.resolve(a)?), Box::new(self.resolve(b)?)),
            Shape::Set(a) => Type::Set(Box::new(self.resolve(a)?)),
        })
    }

    /// `t` in B notation (`POW(PID*INTEGER)`); unknown parts print as `?`.
    pub(crate) fn display(&mut self, t: TermId, set_names: &[String]) -> String {
        let mut out = String::new();
        self.write(t, set_names, &mut out);
        out
    }

    fn write(&mut self, t: TermId, set_names: &[String], out: &mut String) {
        if let Some(fields) = self.record_fields(t) {
            out.push_str("struct(");
            for (i, (name, f)) in fields.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&name);
                out.push(':');
                self.write(f, set_names, out);
            }
            out.push(')');
            return;
        }
        match self.shape(t) {
            Shape::Var => out.push('?'),
            Shape::Int => out.push_str("INTEGER"),
            Shape::Bool => out.push_str("BOOL"),
            Shape::Str => out.push_str("STRING"),
            Shape::Given(k) => match set_names.get(k as usize) {
                Some(name) => out.push_str(name),
                None => out.push_str(&format!("GIVEN{k}")),
            },
            Shape::Free(k) => match self.free_names.get(k as usize) {
                Some(name) => out.push_str(name),
                None => out.push_str(&format!("FREE{k}")),
            },
            Shape::Pair(a, b) => {
                // `*` is left-associative: only a pair on the right needs parentheses.
                self.write(a, set_names, out);
                out.push('*');
                let right_is_pair = matches!(self.shape(b), Shape::Pair(..));
                if right_is_pair {
                    out.push('(');
                }
                self.write(b, set_names, out);
                if right_is_pair {
                    out.push(')');
                }
            }
            Shape::Set(a) => {
                out.push_str("POW(");
                self.write(a, set_names, out);
                out.push(')');
            }
        }
    }
}

/// A closed [`Type`] in B notation, with given sets by name.
pub fn type_to_string(ty: &Type, set_names: &[String]) -> String {
    let mut terms = Terms::default();
    let t = terms.of_type(ty);
    terms.display(t, set_names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["PID".to_string()]
    }

    #[test]
    fn unifies_structures_and_binds_variables() {
        let mut t = Terms::default();
        let v = t.var();
        let w = t.var();
        let pid = t.given(0);
        let i = t.int();
        let left = t.relation(v, i);
        let right = t.relation(pid, w);
        t.unify(left, right).unwrap();
        assert_eq!(
            t.resolve(left),
            Some(Type::Set(Box::new(Type::Pair(
                Box::new(Type::Given(0)),
                Box::new(Type::Int)
            ))))
        );
        assert_eq!(t.display(right, &names()), "POW(PID*INTEGER)");
    }

    #[test]
    fn clash_and_occurs_check_fail() {
        let mut t = Terms::default();
        let i = t.int();
        let b = t.bool();
        assert!(t.unify(i, b).is_err());
        let v = t.var();
        let sv = t.set(v);
        assert_eq!(t.unify(v, sv).unwrap_err(), Mismatch::Infinite);
        // A clash inside a structure leaves both sides as they were.
        let si = t.set(i);
        let sb = t.set(b);
        assert_eq!(t.unify(si, sb).unwrap_err(), Mismatch::Clash);
        assert_eq!(t.display(si, &[]), "POW(INTEGER)");
        assert_eq!(t.display(sb, &[]), "POW(BOOL)");
    }

    #[test]
    fn display_parenthesises_right_nested_pairs_only() {
        let mut t = Terms::default();
        let (a, b, c) = (t.int(), t.given(0), t.bool());
        let ab = t.pair(a, b);
        let left = t.pair(ab, c);
        assert_eq!(t.display(left, &names()), "INTEGER*PID*BOOL");
        let bc = t.pair(b, c);
        let right = t.pair(a, bc);
        assert_eq!(t.display(right, &names()), "INTEGER*(PID*BOOL)");
        let v = t.var();
        let sv = t.set(v);
        assert_eq!(t.display(sv, &names()), "POW(?)");
        assert_eq!(
            type_to_string(&Type::Set(Box::new(Type::String)), &[]),
            "POW(STRING)"
        );
    }
}
