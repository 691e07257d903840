//! ProB-style printing of values: `{PID1,PID2}`, `(a|->b)`, `[a,b]` for
//! non-empty sequences, `TRUE`, `"str"`, `{}`.

use std::fmt;

use super::{Value, sequences};
use crate::b::types::GivenSet;

/// A value together with the given sets that name its elements; its
/// `Display` prints the value as ProB does.
pub struct DisplayValue<'a> {
    /// The value to print.
    pub value: &'a Value,
    /// The machine's given sets, numbered as in [`crate::b::types`].
    pub sets: &'a [GivenSet],
}

impl Value {
    /// This value printed as ProB prints it, naming given-set elements
    /// from `sets`.
    pub fn display<'a>(&'a self, sets: &'a [GivenSet]) -> DisplayValue<'a> {
        DisplayValue { value: self, sets }
    }
}

impl fmt::Display for DisplayValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(f, self.value, self.sets)
    }
}

fn write_value(f: &mut fmt::Formatter<'_>, v: &Value, sets: &[GivenSet]) -> fmt::Result {
    match v {
        Value::Int(i) => write!(f, "{i}"),
        Value::Bool(true) => f.write_str("TRUE"),
        Value::Bool(false) => f.write_str("FALSE"),
        Value::Str(s) => write!(f, "\"{s}\""),
        Value::Elem(e) => match sets
            .get(e.set as usize)
            .and_then(|g| g.elements.get(e.index as usize))
        {
            Some(name) => f.write_str(name),
            None => write!(f, "ELEM{}_{}", e.set, e.index + 1),
        },
        Value::Pair(p) => {
            f.write_str("(")?;
            write_value(f, &p.0, sets)?;
            f.write_str("|->")?;
            write_value(f, &p.1, sets)?;
            f.write_str(")")
        }
        Value::Set(elems) => {
            if !elems.is_empty()
                && let Some(seq) = sequences::elements(elems)
            {
                return write_list(f, "[", "]", seq.into_iter(), sets);
            }
            write_list(f, "{", "}", elems.iter(), sets)
        }
    }
}

fn write_list<'v>(
    f: &mut fmt::Formatter<'_>,
    open: &str,
    close: &str,
    items: impl Iterator<Item = &'v Value>,
    sets: &[GivenSet],
) -> fmt::Result {
    f.write_str(open)?;
    for (i, x) in items.enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write_value(f, x, sets)?;
    }
    f.write_str(close)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::b::value::Elem;

    #[test]
    fn prints_like_prob() {
        let sets = vec![GivenSet {
            name: "PID".into(),
            elements: vec!["PID1".into(), "PID2".into()],
            deferred: true,
        }];
        let e = |i| Value::Elem(Elem { set: 0, index: i });
        let s = Value::set_from_vec(vec![e(1), e(0)]);
        assert_eq!(s.display(&sets).to_string(), "{PID1,PID2}");
        assert_eq!(
            Value::pair(e(0), Value::Int(-3)).display(&sets).to_string(),
            "(PID1|->-3)"
        );
        let seq = sequences::from_owned([Value::Bool(true), Value::str("a")]);
        assert_eq!(seq.display(&sets).to_string(), "[TRUE,\"a\"]");
        assert_eq!(Value::empty_set().display(&sets).to_string(), "{}");
    }
}
