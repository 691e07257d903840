//! B types and the typing facts of a machine.
//!
//! Classical B is statically typed: every expression has one of the types
//! below, inferred from typing predicates (`x : S`, `f : A --> B`, ...) and
//! from use. Sequences are `Set(Pair(Int, T))`; relations and functions are
//! `Set(Pair(A, B))`.
//!
//! Given sets (deferred and enumerated sets, and set parameters of the
//! machine) are numbered in this order: machine set parameters first, then
//! the `SETS` clause in declaration order. [`Type::Given`] holds that number,
//! and so does [`crate::frontends::b::value::Elem::set`].

use crate::frontends::b::ast::Ident;
use std::collections::HashMap;

/// The type of a B expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `INTEGER`
    Int,
    /// `BOOL`
    Bool,
    /// `STRING`
    String,
    /// A given set, by its number (see module docs).
    Given(u32),
    /// `A * B`
    Pair(Box<Type>, Box<Type>),
    /// `POW(T)`
    Set(Box<Type>),
    /// A free type of the `FREETYPES` clause, by its number in
    /// [`MachineTypes::free_types`]. A value of it is the pair of its
    /// constructor's number (an integer) and the constructor's argument
    /// (`TRUE` for a constant constructor).
    Free(u32),
}

/// Where a type holds records, with their field names: values are stored
/// without names (a record is the right-nested pair of its fields, see
/// [`MachineTypes::fields`]), so printing them as `rec(a:1,b:TRUE)` needs this.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ValueShape {
    /// No record inside.
    #[default]
    Plain,
    /// A record: its fields, sorted by name, with their shapes.
    Record(Vec<(String, ValueShape)>),
    /// A pair with a record inside.
    Pair(Box<ValueShape>, Box<ValueShape>),
    /// A set with records inside its elements.
    Set(Box<ValueShape>),
    /// A value of free type number `k`: printed as `cons(1,nil)` with the
    /// constructors of [`MachineTypes::free_types`].
    Free(u32),
}

/// A free type of the `FREETYPES` clause, with its constructors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreeType {
    /// The type's name.
    pub name: String,
    /// Its constructors; a value holds the index of its constructor here.
    pub constructors: Vec<Constructor>,
}

/// A constructor of a free type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constructor {
    /// Its name.
    pub name: String,
    /// The type of its argument; `None` for a constant constructor.
    pub arg: Option<Type>,
    /// Where the argument's type holds records or free types.
    pub shape: ValueShape,
}

/// A deferred or enumerated set (or machine set parameter), with its size fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenSet {
    /// The set's name, e.g. `PID`.
    pub name: String,
    /// Element names in order: the enumerated names, or `PID1, PID2, ...`
    /// for deferred sets (as ProB prints them).
    pub elements: Vec<String>,
    /// True for deferred sets and set parameters (their elements are
    /// interchangeable, which symmetry reduction exploits).
    pub deferred: bool,
}

/// The typing facts of a whole machine, as the type checker infers them and
/// the interpreter and state encoding use them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineTypes {
    /// Given sets, numbered as in the module docs, with their sizes fixed.
    pub given_sets: Vec<GivenSet>,
    /// Types of the constants, in the order of `Machine::constants`.
    pub constants: Vec<Type>,
    /// Types of the variables, in the order of `Machine::variables`.
    pub variables: Vec<Type>,
    /// Types of each operation's parameters and outputs, in the order of `Machine::operations`.
    pub operations: Vec<OperationTypes>,
    /// Types of bound variables (of `!`, `#`, `{x | P}`, `%`, `SIGMA`, `PI`,
    /// `UNION`, `INTER`, `ANY`, `LET`, `VAR`), keyed by the `(start, end)`
    /// of the binding identifier's span. A binder written inside a definition
    /// that is expanded at different types (so one span, several types) is
    /// left out.
    pub bound: HashMap<(u32, u32), Type>,
    /// The element type `T` of each relation `r` that `closure(r)` is
    /// applied to, keyed by `r`'s `(start, end)`: `closure(r)` holds
    /// `id(T)` (ProB's definition: `closure1(r) \/ id(T)`).
    pub closures: HashMap<(u32, u32), Type>,
    /// The arguments of `TO_STRING` whose values hold records or values of
    /// free types (or whose type is unknown), keyed by `(start, end)`:
    /// printing those needs names orbit's plain printing does not have.
    pub printed_with_names: std::collections::HashSet<(u32, u32)>,
    /// Record field accesses `r'f`, keyed by [`field_key`] (where the
    /// whole access and the field's name are): the field's index among the
    /// record's fields (sorted by name) and their number. A record value is
    /// its field values in that order as right-nested pairs (`a |-> (b |->
    /// c)`; one field `a` is `a |-> TRUE`), so `struct(...)` is a cartesian
    /// product. An access that one definition expands at two record types
    /// with one key is left out (compiling it is an error, not a guess).
    pub fields: HashMap<FieldKey, (u32, u32)>,
    /// The record shapes of the constants' and then the variables' types
    /// (empty when no record is involved).
    pub shapes: Vec<ValueShape>,
    /// The record shapes of each operation's parameters, then outputs
    /// (empty when no record is involved).
    pub operation_shapes: Vec<Vec<ValueShape>>,
    /// The free types of the `FREETYPES` clause, numbered as
    /// [`Type::Free`] numbers them.
    pub free_types: Vec<FreeType>,
    /// The value of `MAXINT` (upper bound of `NAT` and `INT`).
    pub maxint: i64,
    /// The value of `MININT` (lower bound of `INT`).
    pub minint: i64,
    /// `--bound-integers`: an integer variable of a binder that nothing
    /// bounds is enumerated within `MININT..MAXINT` (as ProB does) instead
    /// of being an error.
    pub bound_integers: bool,
    /// `--undefined-blocks`: a function applied outside its domain in an
    /// operation's body blocks that transition (ProB's model checker)
    /// instead of being a model error.
    pub undefined_blocks: bool,
    /// `SET_PREF_STATIC_SYMMETRY_DETECTION == TRUE/FALSE`: whether the
    /// machine asks for ProB's normal form of symmetric constants (`None`:
    /// it does not say).
    pub static_symmetry: Option<bool>,
    /// `SET_PREF_ALLOW_SIMULTANEOUS_ASSIGNMENTS == TRUE`: branches of `||`
    /// may write the same variable, their updates merged (as in abstract
    /// state machines, which ProB's translations to B rely on).
    pub simultaneous_assignments: bool,
    /// How the constants are sought (`--solver`).
    pub constant_solver: crate::frontends::b::eval::cp::ConstantSolver,
}

/// Identifies a field access `r'f`: the span of the whole access and of
/// the field's name. Both are needed: an access inside a definition whose
/// argument is written after the definition spans only the argument, so
/// `x'a` and `x'b` from one expansion share the first.
pub type FieldKey = (u32, u32, u32, u32);

/// The [`FieldKey`] of an access spanning `whole` whose field name spans
/// `field`.
pub fn field_key(whole: crate::diag::Span, field: crate::diag::Span) -> FieldKey {
    (whole.start, whole.end, field.start, field.end)
}

impl MachineTypes {
    /// The range unbounded integers are enumerated in, if they are.
    pub fn int_range(&self) -> Option<(i64, i64)> {
        self.bound_integers.then_some((self.minint, self.maxint))
    }
}

impl MachineTypes {
    /// The names of the given sets, indexed by set number.
    pub fn set_names(&self) -> Vec<String> {
        self.given_sets.iter().map(|s| s.name.clone()).collect()
    }

    /// The type of the variable bound at `binder`, if it was recorded.
    pub fn bound_type(&self, binder: &Ident) -> Option<&Type> {
        self.bound.get(&(binder.span.start, binder.span.end))
    }
}

#[cfg(test)]
impl MachineTypes {
    /// The types of a test machine: a deferred set `name` of `size`
    /// elements `name1`, `name2`, ... if `set` is given, the constants and
    /// variables of the given types, no operations, and `-1..3` as
    /// MININT..MAXINT.
    pub(crate) fn for_test(
        set: Option<(&str, usize)>,
        constants: Vec<Type>,
        variables: Vec<Type>,
    ) -> Self {
        MachineTypes {
            given_sets: set
                .map(|(name, size)| GivenSet {
                    name: name.into(),
                    elements: (1..=size).map(|i| format!("{name}{i}")).collect(),
                    deferred: true,
                })
                .into_iter()
                .collect(),
            constants,
            variables,
            operations: Vec::new(),
            bound: Default::default(),
            closures: Default::default(),
            printed_with_names: Default::default(),
            fields: Default::default(),
            shapes: Vec::new(),
            operation_shapes: Vec::new(),
            free_types: Vec::new(),
            bound_integers: false,
            undefined_blocks: false,
            static_symmetry: None,
            simultaneous_assignments: false,
            constant_solver: Default::default(),
            maxint: 3,
            minint: -1,
        }
    }
}

/// Types of one operation's parameters and outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperationTypes {
    /// Input parameter types, in order.
    pub params: Vec<Type>,
    /// Output types, in order.
    pub outputs: Vec<Type>,
}
