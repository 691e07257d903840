//! Candidate states for the refined dependency test.
//!
//! ProB answers `test_path` (Dobrikov and Leuschel, Definition 2) with its
//! constraint solver. orbit enumerates instead: for a pair of operations it
//! takes every valuation of the variables the two touch over their finite
//! types (integers from `MININT` to `MAXINT`, as for `INT`), keeps the
//! states satisfying every invariant conjunct that mentions only those
//! variables (ProB's `test_path` also starts from states satisfying the
//! invariant), and fixes every other variable to its value in an initial
//! state: the two operations neither read nor write those, so their values
//! cannot change the outcome. Each constant valuation is tried.
//! A variable confined by an assumed typing conjunct to a literal set
//! (`x : 0..20`, `f : S --> T`, [`crate::frontends::b::por::domains`]) ranges over that
//! set only. Otherwise integer variables must be bounded within
//! `MININT..MAXINT` by an assumed conjunct ([`crate::frontends::b::por::bounds`]), so
//! that the enumeration covers every state the search can meet.
//! When the product of the domains exceeds the budget, or a type is not
//! enumerable (`STRING`, large powersets), the caller falls back to the
//! conservative answer.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use crate::frontends::b::ast::Machine;
use crate::frontends::b::eval::{Interpreter, conjuncts};
use crate::frontends::b::por::access::expr_reads;
use crate::frontends::b::por::bounds::{bounded_by, has_int};
use crate::frontends::b::por::domains::typed_domain;
use crate::frontends::b::types::{MachineTypes, Type};
use crate::frontends::b::value::{Elem, Value};

/// Most constant valuations tried (with more, every query falls back to
/// the conservative answer).
const MAX_VALUATIONS: usize = 4096;

/// The callback of [`Candidates::scan`]: constants and variables of a
/// candidate state to a witness, if the state is one.
pub type Visit<'f> = dyn FnMut(&[Value], &[Value]) -> Option<String> + 'f;

/// What a scan over the candidate states found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Every candidate was visited; the callback never stopped: how many.
    Exhausted(usize),
    /// The callback stopped with this witness.
    Found(String),
    /// The candidates cannot be enumerated within the budget: why.
    TooBig(String),
}

impl Scan {
    /// The answer of a scan cut short by the run's budget: conservative.
    fn stopped(reason: workers::StopReason) -> Scan {
        Scan::TooBig(format!("stopped: {reason}"))
    }
}

/// The machine-wide data for enumerating candidate states.
pub struct Candidates<'a> {
    machine: &'a Machine,
    types: &'a MachineTypes,
    interpreter: &'a Interpreter,
    /// Constant valuations, each with the variables of one initial state.
    bases: Vec<(Vec<Value>, Vec<Value>)>,
    /// Why there are no bases, if there are none.
    no_base: Option<String>,
    /// Variables read by each top-level invariant conjunct.
    invariant_reads: Vec<BTreeSet<String>>,
    /// Variables each top-level conjunct bounds ([`crate::frontends::b::por::bounds`]).
    invariant_bounds: Vec<BTreeSet<String>>,
    /// Which conjuncts the candidate states satisfy (all by default).
    assumed: Vec<bool>,
    /// Variables bounded by an assumed conjunct.
    bounded: BTreeSet<String>,
    /// Per conjunct: the variable slot it confines to a literal set, and
    /// that set ([`crate::frontends::b::por::domains`]).
    invariant_domains: Vec<Option<(usize, Rc<Vec<Value>>)>>,
    /// The smallest domain of each slot confined by an assumed conjunct.
    typed: HashMap<usize, Rc<Vec<Value>>>,
    /// Most candidate states per scan.
    pub budget: usize,
    /// The domains built so far, by variable slot.
    domains: RefCell<HashMap<usize, Rc<Vec<Value>>>>,
    /// The candidate states enumerated so far, by the varied variables
    /// (cleared when the assumed conjuncts change).
    valid: RefCell<ValidCache>,
}

/// The variable slots a scan varies and their domains.
type Plan = (Vec<usize>, Vec<Rc<Vec<Value>>>);

/// Candidate states (base index, variables) by the variables varied.
type ValidCache = HashMap<Vec<String>, Rc<Vec<(usize, Vec<Value>)>>>;

impl<'a> Candidates<'a> {
    /// Prepares the scans: solves the constants and takes one initial state
    /// per constant valuation. `budget` bounds the states of one scan.
    pub fn new(
        machine: &'a Machine,
        types: &'a MachineTypes,
        interpreter: &'a Interpreter,
        budget: usize,
    ) -> Self {
        let variables: BTreeSet<String> =
            machine.variables.iter().map(|v| v.name.clone()).collect();
        let parts = machine
            .invariant
            .as_ref()
            .map(conjuncts)
            .unwrap_or_default();
        let invariant_reads: Vec<BTreeSet<String>> =
            parts.iter().map(|c| expr_reads(&variables, c)).collect();
        let names: Vec<String> = machine.variables.iter().map(|v| v.name.clone()).collect();
        let range = (types.minint, types.maxint);
        let invariant_bounds = parts
            .iter()
            .map(|c| bounded_by(c, &names, &types.variables, range))
            .collect();
        let invariant_domains = parts
            .iter()
            .map(|c| typed_domain(c, &names, types, budget).map(|(i, d)| (i, Rc::new(d))))
            .collect();
        let mut bases = Vec::new();
        let mut no_base = None;
        match interpreter.constant_valuations() {
            Ok(vals) => {
                if vals.len() > MAX_VALUATIONS {
                    no_base = Some(format!("more than {MAX_VALUATIONS} constant valuations"));
                }
                for consts in vals.into_iter().take(MAX_VALUATIONS) {
                    let mut first = None;
                    let r = interpreter.initialise(&consts, &mut |vars| {
                        if first.is_none() {
                            first = Some(vars.to_vec());
                        }
                    });
                    match (r, first) {
                        (Ok(()), Some(vars)) => bases.push((consts, vars)),
                        (Err(e), _) => no_base = Some(format!("initialisation fails: {e}")),
                        (Ok(()), None) => {}
                    }
                }
                if bases.is_empty() && no_base.is_none() {
                    no_base = Some("no initial state".to_string());
                }
            }
            Err(e) => no_base = Some(format!("the constants cannot be solved: {e}")),
        }
        let mut candidates = Candidates {
            machine,
            types,
            interpreter,
            bases,
            no_base,
            assumed: vec![true; invariant_reads.len()],
            invariant_reads,
            invariant_bounds,
            bounded: BTreeSet::new(),
            invariant_domains,
            typed: HashMap::new(),
            budget,
            domains: RefCell::new(HashMap::new()),
            valid: RefCell::new(HashMap::new()),
        };
        candidates.assume(candidates.assumed.clone());
        candidates
    }

    /// Restricts the candidate states to those satisfying the conjuncts
    /// marked in `assumed` (one flag per top-level invariant conjunct).
    pub fn assume(&mut self, assumed: Vec<bool>) {
        self.bounded = (0..assumed.len())
            .filter(|&i| assumed[i])
            .flat_map(|i| self.invariant_bounds[i].iter().cloned())
            .collect();
        self.typed.clear();
        for (i, d) in self.invariant_domains.iter().enumerate() {
            if let (true, Some((slot, d))) = (assumed[i], d) {
                let smaller = self.typed.get(slot).is_none_or(|old| d.len() < old.len());
                if smaller {
                    self.typed.insert(*slot, d.clone());
                }
            }
        }
        self.assumed = assumed;
        self.valid.borrow_mut().clear();
    }

    /// The conjuncts currently assumed.
    pub fn assumed(&self) -> &[bool] {
        &self.assumed
    }

    /// The variables read by each top-level invariant conjunct.
    pub fn conjunct_reads(&self) -> &[BTreeSet<String>] {
        &self.invariant_reads
    }

    /// The machine the states are for.
    pub fn machine(&self) -> &'a Machine {
        self.machine
    }

    /// Constant valuations with the variables of one initial state each.
    pub fn bases(&self) -> &[(Vec<Value>, Vec<Value>)] {
        &self.bases
    }

    /// The interpreter the states are for.
    pub fn interpreter(&self) -> &'a Interpreter {
        self.interpreter
    }

    /// Calls `f(constants, variables)` on every candidate state varying the
    /// variables `involved`, until it returns a witness or an error
    /// (reported as found: an evaluation error is a reason for dependence).
    /// Once the run's budget is out, every scan is [`Scan::TooBig`] (the
    /// conservative answer, at once), so the rest of the analysis takes no
    /// time; its caller reports the stop.
    pub fn scan(&self, involved: &BTreeSet<String>, f: &mut Visit<'_>) -> Scan {
        if let Some(why) = &self.no_base {
            return Scan::TooBig(why.clone());
        }
        if let Some(reason) = workers::budget::tripped() {
            return Scan::stopped(reason);
        }
        // Vary the variables the invariant relates to the involved ones as
        // well (so that e.g. `f : dom --> R` keeps `f` a function), when
        // the budget allows.
        let closed = self.close(involved);
        let (involved, slots, domains) = match self.plan(&closed) {
            Ok((slots, domains)) => (&closed, slots, domains),
            Err(_) => match self.plan(involved) {
                Ok((slots, domains)) => (involved, slots, domains),
                Err(why) => return Scan::TooBig(why),
            },
        };
        let key: Vec<String> = involved.iter().cloned().collect();
        let cached = self.valid.borrow().get(&key).cloned();
        let states = match cached {
            Some(states) => states,
            None => {
                let states = Rc::new(self.valid_states(involved, &slots, &domains));
                self.valid.borrow_mut().insert(key, states.clone());
                states
            }
        };
        for (n, (b, vars)) in (1u64..).zip(states.iter()) {
            if let Some(reason) = workers::budget::tripped_every(n) {
                return Scan::stopped(reason);
            }
            if let Some(w) = f(&self.bases[*b].0, vars) {
                return Scan::Found(w);
            }
        }
        // A callback cut short by the budget (its evaluations fail) proves
        // nothing.
        if let Some(reason) = workers::budget::tripped() {
            return Scan::stopped(reason);
        }
        Scan::Exhausted(states.len())
    }

    /// Every valuation of the `slots` over their `domains`, for every base,
    /// that satisfies the assumed conjuncts over `involved`: (base index,
    /// variables).
    fn valid_states(
        &self,
        involved: &BTreeSet<String>,
        slots: &[usize],
        domains: &[Rc<Vec<Value>>],
    ) -> Vec<(usize, Vec<Value>)> {
        let checked: Vec<usize> = (0..self.invariant_reads.len())
            .filter(|&i| self.assumed[i] && self.invariant_reads[i].is_subset(involved))
            .collect();
        let mut out = Vec::new();
        if domains.iter().any(|d| d.is_empty()) {
            return out;
        }
        for (b, (consts, base)) in self.bases.iter().enumerate() {
            let mut vars = base.clone();
            let mut digits = vec![0usize; slots.len()];
            for n in 1u64.. {
                // Cut short once the budget is out (the scan then answers
                // conservatively).
                if workers::budget::tripped_every(n).is_some() {
                    break;
                }
                for (k, &slot) in slots.iter().enumerate() {
                    vars[slot] = domains[k][digits[k]].clone();
                }
                let valid = checked.iter().all(|&c| {
                    self.interpreter
                        .invariant_conjunct_holds(c, consts, &vars)
                        .unwrap_or(false)
                });
                if valid {
                    out.push((b, vars.clone()));
                }
                // Next valuation, mixed radix.
                let mut k = 0;
                while k < digits.len() {
                    digits[k] += 1;
                    if digits[k] < domains[k].len() {
                        break;
                    }
                    digits[k] = 0;
                    k += 1;
                }
                if k == digits.len() {
                    break;
                }
            }
        }
        out
    }

    /// `involved` plus the variables of every invariant conjunct that
    /// mentions one of them.
    fn close(&self, involved: &BTreeSet<String>) -> BTreeSet<String> {
        let mut closed = involved.clone();
        for (i, reads) in self.invariant_reads.iter().enumerate() {
            if self.assumed[i] && !reads.is_disjoint(involved) {
                closed.extend(reads.iter().cloned());
            }
        }
        closed
    }

    /// The slots and domains of the variables in `involved`, or why they
    /// exceed the budget.
    fn plan(&self, involved: &BTreeSet<String>) -> Result<Plan, String> {
        let mut slots = Vec::new();
        let mut domains = Vec::new();
        // Sizes first: building a large domain only to refuse it is slow.
        let mut total: usize = self.bases.len();
        for (i, v) in self.machine.variables.iter().enumerate() {
            if !involved.contains(&v.name) {
                continue;
            }
            let size = match self.typed.get(&i) {
                Some(d) => d.len(),
                None => domain_size(&self.types.variables[i], self.types).ok_or_else(|| {
                    format!("the type of `{}` has too many values to enumerate", v.name)
                })?,
            };
            total = match total.checked_mul(size) {
                Some(t) if t <= self.budget => t,
                _ => return Err(format!("more than {} candidate states", self.budget)),
            };
        }
        let mut total: usize = self.bases.len();
        for (i, v) in self.machine.variables.iter().enumerate() {
            if !involved.contains(&v.name) {
                continue;
            }
            let ty = &self.types.variables[i];
            if let Some(d) = self.typed.get(&i) {
                total = match total.checked_mul(d.len()) {
                    Some(t) if t <= self.budget => t,
                    _ => return Err(format!("more than {} candidate states", self.budget)),
                };
                slots.push(i);
                domains.push(d.clone());
                continue;
            }
            if has_int(ty) && !self.bounded.contains(&v.name) {
                return Err(format!(
                    "no assumed invariant conjunct bounds the integers of `{}` within \
                     MININT..MAXINT",
                    v.name
                ));
            }
            let cached = self.domains.borrow().get(&i).cloned();
            let d = match cached {
                Some(d) => d,
                None => {
                    let Some(d) = domain(ty, self.types, self.budget) else {
                        return Err(format!(
                            "the type of `{}` has too many values to enumerate",
                            v.name
                        ));
                    };
                    let d = Rc::new(d);
                    self.domains.borrow_mut().insert(i, d.clone());
                    d
                }
            };
            total = match total.checked_mul(d.len()) {
                Some(t) if t <= self.budget => t,
                _ => return Err(format!("more than {} candidate states", self.budget)),
            };
            slots.push(i);
            domains.push(d);
        }
        Ok((slots, domains))
    }

    /// `x=1, y={a}`: the whole state.
    pub fn describe(&self, vars: &[Value]) -> String {
        let parts: Vec<String> = self
            .machine
            .variables
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{}={}", v.name, self.interpreter.format_value(&vars[i])))
            .collect();
        parts.join(", ")
    }
}

/// The number of values of `ty` (saturating), `None` if not enumerable.
pub fn domain_size(ty: &Type, types: &MachineTypes) -> Option<usize> {
    match ty {
        Type::Int => usize::try_from(types.maxint.checked_sub(types.minint)?.checked_add(1)?).ok(),
        Type::Bool => Some(2),
        Type::String | Type::Free(_) => None,
        Type::Given(s) => Some(types.given_sets.get(*s as usize)?.elements.len()),
        Type::Pair(a, b) => Some(domain_size(a, types)?.saturating_mul(domain_size(b, types)?)),
        Type::Set(t) => {
            let n = domain_size(t, types)?;
            Some(if n >= 63 { usize::MAX } else { 1usize << n })
        }
    }
}

/// Every value of `ty`, if there are at most `limit` (integers range over
/// `MININT..MAXINT`; `STRING` is not enumerable).
pub fn domain(ty: &Type, types: &MachineTypes, limit: usize) -> Option<Vec<Value>> {
    let out = match ty {
        Type::Int => {
            let n = types.maxint.checked_sub(types.minint)?.checked_add(1)?;
            if n < 0 || n as u64 > limit as u64 {
                return None;
            }
            (types.minint..=types.maxint).map(Value::Int).collect()
        }
        Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Type::String | Type::Free(_) => return None,
        Type::Given(s) => {
            let n = types.given_sets.get(*s as usize)?.elements.len();
            (0..n as u32)
                .map(|index| Value::Elem(Elem { set: *s, index }))
                .collect()
        }
        Type::Pair(a, b) => {
            let (a, b) = (domain(a, types, limit)?, domain(b, types, limit)?);
            if a.len().checked_mul(b.len())? > limit {
                return None;
            }
            a.iter()
                .flat_map(|x| b.iter().map(move |y| Value::pair(x.clone(), y.clone())))
                .collect()
        }
        Type::Set(t) => {
            let elems = domain(t, types, limit)?;
            if elems.len() >= 32 || (1usize << elems.len()) > limit {
                return None;
            }
            (0..1u64 << elems.len())
                .map(|mask| {
                    let items = (0..elems.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| elems[i].clone())
                        .collect();
                    Value::set_from_vec(items)
                })
                .collect()
        }
    };
    Some(out)
}
