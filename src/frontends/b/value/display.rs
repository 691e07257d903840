//! ProB-style printing of values: `{PID1,PID2}`, `(a|->b)`, `[a,b]` for
//! non-empty sequences, `TRUE`, `"str"`, `{}`, and `rec(a:1,b:TRUE)`
//! where the value's type holds records and `cons(1,nil)` where it holds
//! free types ([`ValueShape`]).

use std::fmt;
use std::fmt::Write as _;

use super::{Value, sequences};
use crate::frontends::b::types::{FreeType, GivenSet, ValueShape};

/// A value together with the given sets that name its elements (and the
/// field names of the records it holds); its `Display` prints the value as
/// ProB does.
pub struct DisplayValue<'a> {
    /// The value to print.
    pub value: &'a Value,
    /// The machine's given sets, numbered as in [`crate::frontends::b::types`].
    pub sets: &'a [GivenSet],
    /// Where the value's type holds records and free types.
    pub shape: &'a ValueShape,
    /// The machine's free types, numbered as [`ValueShape::Free`] numbers them.
    pub free: &'a [FreeType],
}

impl Value {
    /// This value printed as ProB prints it, naming given-set elements
    /// from `sets`.
    pub fn display<'a>(&'a self, sets: &'a [GivenSet]) -> DisplayValue<'a> {
        DisplayValue {
            value: self,
            sets,
            shape: &ValueShape::Plain,
            free: &[],
        }
    }

    /// As [`Value::display`], printing the records `shape` locates as
    /// `rec(a:1,b:TRUE)` and its values of the free types `free` as
    /// `cons(1,nil)`.
    pub fn display_shaped<'a>(
        &'a self,
        sets: &'a [GivenSet],
        shape: &'a ValueShape,
        free: &'a [FreeType],
    ) -> DisplayValue<'a> {
        DisplayValue {
            value: self,
            sets,
            shape,
            free,
        }
    }
}

impl fmt::Display for DisplayValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let context = Context {
            sets: self.sets,
            free: self.free,
        };
        write_value(f, self.value, &context, self.shape)
    }
}

/// What names the parts of a value: given sets and free types.
struct Context<'a> {
    sets: &'a [GivenSet],
    free: &'a [FreeType],
}

const PLAIN: ValueShape = ValueShape::Plain;

fn write_value(
    f: &mut fmt::Formatter<'_>,
    v: &Value,
    cx: &Context<'_>,
    shape: &ValueShape,
) -> fmt::Result {
    if let ValueShape::Record(fields) = shape
        && write_record(f, v, cx, fields)?
    {
        return Ok(());
    }
    if let ValueShape::Free(k) = shape
        && write_constructed(f, v, cx, *k)?
    {
        return Ok(());
    }
    let sets = cx.sets;
    match v {
        Value::Int(i) => write!(f, "{i}"),
        Value::Big(b) => write!(f, "{b}"),
        Value::Bool(true) => f.write_str("TRUE"),
        Value::Bool(false) => f.write_str("FALSE"),
        Value::Str(s) => {
            // As a B string literal: quotes, backslashes and line ends escaped.
            f.write_char('"')?;
            for c in s.chars() {
                match c {
                    '"' => f.write_str("\\\"")?,
                    '\\' => f.write_str("\\\\")?,
                    '\n' => f.write_str("\\n")?,
                    '\t' => f.write_str("\\t")?,
                    '\r' => f.write_str("\\r")?,
                    c => f.write_char(c)?,
                }
            }
            f.write_char('"')
        }
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
            write_value(f, &p.0, cx, left)?;
            f.write_str("|->")?;
            write_value(f, &p.1, cx, right)?;
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
                return write_list(f, "[", "]", seq.into_iter(), cx, item);
            }
            write_list(f, "{", "}", elems.iter(), cx, element)
        }
    }
}

/// Writes `v` as `rec(a:..,b:..)` if it has the layout of a record with
/// these fields (right-nested pairs; one field `a` is `a |-> TRUE`);
/// returns whether it did.
fn write_record(
    f: &mut fmt::Formatter<'_>,
    v: &Value,
    cx: &Context<'_>,
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
        write_value(f, value, cx, shape)?;
    }
    f.write_str(")")?;
    Ok(true)
}

/// Writes `v` as `c` or `c(x)` if it is a value of free type `k` (the
/// pair of its constructor's number and argument); an argument that is a
/// pair is written as the constructor's arguments, `cons(1,nil)`. Returns
/// whether it did.
fn write_constructed(
    f: &mut fmt::Formatter<'_>,
    v: &Value,
    cx: &Context<'_>,
    k: u32,
) -> Result<bool, fmt::Error> {
    let Value::Pair(p) = v else {
        return Ok(false);
    };
    let Some(c) = p.0.as_int().and_then(|i| {
        cx.free
            .get(k as usize)?
            .constructors
            .get(usize::try_from(i).ok()?)
    }) else {
        return Ok(false);
    };
    f.write_str(&c.name)?;
    if c.arg.is_none() {
        return Ok(true);
    }
    f.write_str("(")?;
    match (&p.1, &c.arg) {
        (Value::Pair(args), Some(crate::frontends::b::types::Type::Pair(..))) => {
            let (a, b) = match &c.shape {
                ValueShape::Pair(a, b) => (&**a, &**b),
                _ => (&PLAIN, &PLAIN),
            };
            write_value(f, &args.0, cx, a)?;
            f.write_str(",")?;
            write_value(f, &args.1, cx, b)?;
        }
        (arg, _) => write_value(f, arg, cx, &c.shape)?,
    }
    f.write_str(")")?;
    Ok(true)
}

fn write_list<'v>(
    f: &mut fmt::Formatter<'_>,
    open: &str,
    close: &str,
    items: impl Iterator<Item = &'v Value>,
    cx: &Context<'_>,
    shape: &ValueShape,
) -> fmt::Result {
    f.write_str(open)?;
    for (i, x) in items.enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write_value(f, x, cx, shape)?;
    }
    f.write_str(close)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::value::Elem;

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
        assert_eq!(
            Value::str("\"a\\\nb").display(&sets).to_string(),
            r#""\"a\\\nb""#
        );
    }

    #[test]
    fn free_type_values_print_with_their_constructors() {
        use crate::frontends::b::types::{Constructor, FreeType, Type};
        let list = [FreeType {
            name: "List".into(),
            constructors: vec![
                Constructor {
                    name: "nil".into(),
                    arg: None,
                    shape: ValueShape::Plain,
                },
                Constructor {
                    name: "cons".into(),
                    arg: Some(Type::Pair(Box::new(Type::Int), Box::new(Type::Free(0)))),
                    shape: ValueShape::Pair(
                        Box::new(ValueShape::Plain),
                        Box::new(ValueShape::Free(0)),
                    ),
                },
            ],
        }];
        let nil = Value::pair(Value::Int(0), Value::Bool(true));
        let cons =
            |x: i64, tail: Value| Value::pair(Value::Int(1), Value::pair(Value::Int(x), tail));
        let two = cons(2, cons(1, nil.clone()));
        let shape = ValueShape::Free(0);
        assert_eq!(
            two.display_shaped(&[], &shape, &list).to_string(),
            "cons(2,cons(1,nil))"
        );
        let set = Value::set_from_vec(vec![nil.clone(), two.clone()]);
        let set_shape = ValueShape::Set(Box::new(ValueShape::Free(0)));
        assert_eq!(
            set.display_shaped(&[], &set_shape, &list).to_string(),
            "{nil,cons(2,cons(1,nil))}"
        );
        // Without the free types: the pairs they are stored as.
        assert_eq!(nil.display(&[]).to_string(), "(0|->TRUE)");
    }
}
