//! ProB-style printing of values: `{PID1,PID2}`, `(a|->b)`, `[a,b]` for
//! non-empty sequences, `TRUE`, `"str"`, `{}`, and `rec(a:1,b:TRUE)`
//! where the value's type holds records ([`ValueShape`]).

use std::fmt;

use super::{Value, sequences};
use crate::b::types::{GivenSet, ValueShape};

/// A value together with the given sets that name its elements (and the
/// field names of the records it holds); its `Display` prints the value as
/// ProB does.
pub struct DisplayValue<'a> {
    /// The value to print.
    pub value: &'a Value,
    /// The machine's given sets, numbered as in [`crate::b::types`].
    pub sets: &'a [GivenSet],
    /// Where the value's type holds records.
    pub shape: &'a ValueShape,
}

impl Value {
    /// This value printed as ProB prints it, naming given-set elements
    /// from `sets`.
    pub fn display<'a>(&'a self, sets: &'a [GivenSet]) -> DisplayValue<'a> {
        DisplayValue {
            value: self,
            sets,
            shape: &ValueShape::Plain,
        }
    }

    /// As [`Value::display`], printing the records `shape` locates as
    /// `rec(a:1,b:TRUE)`.
    pub fn display_shaped<'a>(
        &'a self,
        sets: &'a [GivenSet],
        shape: &'a ValueShape,
    ) -> DisplayValue<'a> {
        DisplayValue {
            value: self,
            sets,
            shape,
        }
    }
}

impl fmt::Display for DisplayValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(f, self.value, self.sets, self.shape)
    }
}

const PLAIN: ValueShape = ValueShape::Plain;

fn write_value(
    f: &mut fmt::Formatter<'_>,
    v: &Value,
    sets: &[GivenSet],
    shape: &ValueShape,
) -> fmt::Result {
    if let ValueShape::Record(fields) = shape
        && write_record(f, v, sets, fields)?
    {
        return Ok(());
    }
    match v {
        Value::Int(i) => write!(f, "{i}"),
        Value::Bool(true) => f.write_str("TRUE"),
        Value::Bool(false) => f.write_str("FALSE"),
        Value::Str(s) => write!(f, "\"{s}\""),
        Value::Symbolic(s) => f.write_str(&s.text),
        Value::Elem(e) => match sets
            .get(e.set as usize)
            .and_then(|g| g.elements.get(e.index as usize))
        {
            Some(name) => f.write_str(name),
            None => write!(f, "ELEM{}_{}", e.set, e.index + 1),
        },
        Value::Pair(p) => {
            let (left, right) = match shape {
                ValueShape::Pair(a, b) => (&**a, &**b),
                _ => (&PLAIN, &PLAIN),
            };
            f.write_str("(")?;
            write_value(f, &p.0, sets, left)?;
            f.write_str("|->")?;
            write_value(f, &p.1, sets, right)?;
            f.write_str(")")
        }
        Value::Set(elems) => {
            let element = match shape {
                ValueShape::Set(e) => &**e,
                _ => &PLAIN,
            };
            if !elems.is_empty()
                && let Some(seq) = sequences::elements(elems)
            {
                // A sequence's elements are the second parts of its pairs.
                let item = match element {
                    ValueShape::Pair(_, b) => &**b,
                    _ => &PLAIN,
                };
                return write_list(f, "[", "]", seq.into_iter(), sets, item);
            }
            write_list(f, "{", "}", elems.iter(), sets, element)
        }
    }
}

/// Writes `v` as `rec(a:..,b:..)` if it has the layout of a record with
/// these fields (right-nested pairs; one field `a` is `a |-> TRUE`);
/// returns whether it did.
fn write_record(
    f: &mut fmt::Formatter<'_>,
    v: &Value,
    sets: &[GivenSet],
    fields: &[(String, ValueShape)],
) -> Result<bool, fmt::Error> {
    let mut values: Vec<&Value> = Vec::with_capacity(fields.len());
    let mut rest = v;
    for i in 0..fields.len() {
        if i + 1 == fields.len() && fields.len() > 1 {
            values.push(rest);
            break;
        }
        let Value::Pair(p) = rest else {
            return Ok(false);
        };
        values.push(&p.0);
        rest = &p.1;
    }
    f.write_str("rec(")?;
    for (i, ((name, shape), value)) in fields.iter().zip(values).enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{name}:")?;
        write_value(f, value, sets, shape)?;
    }
    f.write_str(")")?;
    Ok(true)
}

fn write_list<'v>(
    f: &mut fmt::Formatter<'_>,
    open: &str,
    close: &str,
    items: impl Iterator<Item = &'v Value>,
    sets: &[GivenSet],
    shape: &ValueShape,
) -> fmt::Result {
    f.write_str(open)?;
    for (i, x) in items.enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write_value(f, x, sets, shape)?;
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
