//! `typedef`: structures, flattened as SPIN's semantics allow. A variable
//! of a structure type becomes one variable per leaf field, named by its
//! path (`x.f.g`, a name no Promela identifier can take), an array when
//! the variable or any field on the path is one; a reference
//! `x[i].f[j].g` becomes that variable indexed row-major by `i` and `j`,
//! each index checked against its own bound ([`super::ast::Expr::Index`]).

use super::ast::{BasicType, Expr};
use crate::diag::Span;
use std::collections::HashMap;

/// A field of a `typedef`.
#[derive(Clone, Debug)]
pub struct Field {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: FieldType,
    /// The number of elements of an array field.
    pub len: Option<usize>,
    /// Its initial value (a basic field's).
    pub init: Option<Expr>,
}

/// The type of a field.
#[derive(Clone, Debug)]
pub enum FieldType {
    /// A basic type.
    Basic(BasicType),
    /// Another `typedef`.
    Struct(String),
}

/// The `typedef`s of a model, by name.
pub type Typedefs = HashMap<String, Vec<Field>>;

/// A leaf field of a structure: what one flattened variable holds per
/// structure.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// Its path, `.f.g`.
    pub suffix: String,
    /// Its type.
    pub ty: BasicType,
    /// Its elements per structure (the product of the array lengths on
    /// its path).
    pub count: usize,
    /// Whether any field on its path is an array.
    pub array: bool,
    /// Its initial value.
    pub init: Option<Expr>,
}

/// The leaves of `typedefs[name]`, in declaration order. The
/// `typedef`s it names are declared before it, so the recursion ends.
pub fn leaves(typedefs: &Typedefs, name: &str) -> Vec<Leaf> {
    let mut out = Vec::new();
    for f in &typedefs[name] {
        let n = f.len.unwrap_or(1);
        match &f.ty {
            FieldType::Basic(ty) => out.push(Leaf {
                suffix: format!(".{}", f.name),
                ty: *ty,
                count: n,
                array: f.len.is_some(),
                init: f.init.clone(),
            }),
            FieldType::Struct(inner) => {
                for l in leaves(typedefs, inner) {
                    out.push(Leaf {
                        suffix: format!(".{}{}", f.name, l.suffix),
                        ty: l.ty,
                        count: n * l.count,
                        array: f.len.is_some() || l.array,
                        init: l.init,
                    });
                }
            }
        }
    }
    out
}

/// The flattened index after one more array level: `outer` (the index
/// so far, if any level was an array) times `len`, plus `inner`.
pub fn nest(outer: Option<Expr>, inner: Expr, len: usize, span: Span) -> Expr {
    match outer {
        None => inner,
        Some(o) => Expr::Index(Box::new(o), Box::new(inner), len as u32, span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, ty: FieldType, len: Option<usize>) -> Field {
        Field {
            name: name.to_string(),
            ty,
            len,
            init: None,
        }
    }

    #[test]
    fn leaves_multiply_the_lengths_on_their_path() {
        let mut t = Typedefs::new();
        t.insert(
            "U".to_string(),
            vec![
                field("c", FieldType::Basic(BasicType::Byte), Some(4)),
                field("d", FieldType::Basic(BasicType::Bit), None),
            ],
        );
        t.insert(
            "T".to_string(),
            vec![
                field("a", FieldType::Basic(BasicType::Int), None),
                field("u", FieldType::Struct("U".to_string()), Some(2)),
            ],
        );
        let l = leaves(&t, "T");
        let got: Vec<(&str, usize, bool)> = l
            .iter()
            .map(|l| (l.suffix.as_str(), l.count, l.array))
            .collect();
        assert_eq!(
            got,
            vec![(".a", 1, false), (".u.c", 8, true), (".u.d", 2, true)]
        );
    }
}
