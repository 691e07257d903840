//! Adding one component's declarations to another's, and the checks that
//! come with it (no name declared twice, no operation defined twice).

use std::collections::HashMap;

use super::syntax::conjunction;
use crate::diag::{Diagnostic, Span};
use crate::frontends::b::ast::{Machine, Operation, SetDecl};

/// Adds the declarations and predicates of `from` to `into` (not its
/// initialisation, parameters or definitions). A name declared twice is an
/// error, except a set or constant that both declare at the same place:
/// two instances of one machine share its sets and constants.
pub(super) fn merge_declarations(into: &mut Machine, mut from: Machine) -> Result<(), Diagnostic> {
    let existing = declared(into);
    let shared = |name: &str, span: Span| existing.get(name) == Some(&span);
    from.sets.retain(|s| !shared(&s.name().name, s.name().span));
    from.freetypes
        .retain(|f| !shared(&f.name.name, f.name.span));
    from.constants.retain(|c| !shared(&c.name, c.span));
    for (name, span) in declared(&from) {
        if existing.contains_key(&name) {
            return Err(Diagnostic::error(
                span,
                format!(
                    "`{name}` is declared twice in the model (in `{}` and in a machine it names)",
                    into.name.name
                ),
            )
            .with_note("rename an included instance (`INCLUDES r.M`) or see the machine instead"));
        }
    }
    into.sets.extend(from.sets);
    into.freetypes.extend(from.freetypes);
    into.constants.extend(from.constants);
    into.variables.extend(from.variables);
    into.concrete_variables.extend(from.concrete_variables);
    into.properties = conjunction(into.properties.take().into_iter().chain(from.properties));
    into.invariant = conjunction(into.invariant.take().into_iter().chain(from.invariant));
    into.assertions.extend(from.assertions);
    into.operations.extend(from.operations);
    Ok(())
}

/// Every set, enumerated element, free type, constructor, constant and
/// variable `m` declares, with
/// where.
fn declared(m: &Machine) -> HashMap<String, Span> {
    let mut names = HashMap::new();
    for s in &m.sets {
        names.insert(s.name().name.clone(), s.name().span);
        if let SetDecl::Enumerated(_, elements) = s {
            for e in elements {
                names.insert(e.name.clone(), e.span);
            }
        }
    }
    for f in &m.freetypes {
        names.insert(f.name.name.clone(), f.name.span);
        for c in &f.constructors {
            names.insert(c.name.name.clone(), c.name.span);
        }
    }
    for c in m.constants.iter().chain(&m.variables) {
        names.insert(c.name.clone(), c.span);
    }
    names
}

/// No two operations with one name.
pub(super) fn check_unique_operations(ops: &[Operation]) -> Result<(), Diagnostic> {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for op in ops {
        if let Some(first) = seen.insert(op.name.name.as_str(), op.name.span) {
            let _ = first;
            return Err(Diagnostic::error(
                op.name.span,
                format!("operation `{}` is defined twice", op.name.name),
            ));
        }
    }
    Ok(())
}
