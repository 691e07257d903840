//! A Murphi program as a [`Model`]: the state is the global variables'
//! words; the transition groups are the rules (a ruleset's rule is one
//! group for all its instances); successors come rule by rule in
//! declaration order, ruleset instances in parameter order.

use super::ast::{Quantifier, Rule};
use super::compile::Compiled;
use super::eval::{Fail, Machine, message};
use super::ir::{CRule, Range};
use super::pack::Packer;
use super::types::{Ty, normalise_multisets};
use crate::diag::{SourceFile, Span};
use crate::model::{
    CoverCount, GroupInfo, INITIAL_GROUP, Independence, LivenessProperty, Model, ModelError,
    Permutation, SlotInfo, StatePredicate, Step, StepArguments, Violation, ViolationKind,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One instance of a rule, start state or invariant: the values of its
/// ruleset parameters.
#[derive(Clone, Debug)]
struct Instance {
    rule: usize,
    values: Vec<i64>,
}

/// A loaded Murphi program.
pub struct MurphiSystem {
    prog: Compiled,
    file: Arc<SourceFile>,
    starts: Vec<Instance>,
    rules: Vec<Instance>,
    invariants: Vec<Instance>,
    assumptions: Vec<Instance>,
    /// The instances of `cover` properties and their hits (states that
    /// satisfy them), and the hits of cover statements.
    covers: Vec<Instance>,
    cover_hits: Vec<AtomicU64>,
    statement_hits: Vec<AtomicU64>,
    /// The instances of `liveness` properties.
    liveness: Vec<Instance>,
    /// The constants' overrides and the dialect the program was compiled
    /// with (state predicates are compiled the same way).
    overrides: Vec<(String, i64)>,
    dialect: super::Dialect,
    /// Whether rules have different CMurphi priorities (then a state fires
    /// only its enabled rules of the least priority number).
    prioritised: bool,
    groups: Vec<GroupInfo>,
    packer: Packer,
    /// The multisets of the state: (first word, slots, words per slot),
    /// sorted after every rule so that each multiset has one layout.
    multisets: Vec<(usize, usize, usize)>,
    /// Whether `check_state` evaluates the invariants (`--no-invariant`
    /// turns it off).
    pub check_invariants: bool,
    /// Whether a state whose rules all leave it unchanged is a deadlock
    /// (CMurphi's semantics and Rumur's default `stuttering`; `true`
    /// unless `--deadlock-mode stuck`).
    pub stutter_deadlocks: bool,
}

/// Per-thread interpreter memory: the machine's words, the unpacked state
/// being expanded, and a packed successor.
pub struct MurphiScratch {
    mem: Vec<u64>,
    base: Vec<u64>,
    out: Vec<u64>,
    /// Whether the last expansion discarded, by an `assume` property, a
    /// successor other than the state.
    discarded_move: bool,
    /// With priorities: what the last state's priority pass learnt of
    /// each rule instance's guard.
    guards: Vec<Guard>,
}

/// What is known of a rule instance's guard in the state being expanded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Guard {
    Unknown,
    Held,
    Failed,
}

/// How much of a rule [`MurphiSystem::in_frame`] runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// The aliases and the guard.
    Guard,
    /// The aliases, the guard and, if it holds, the body.
    Fire,
    /// The aliases and the body: the guard is known to hold.
    FireEnabled,
}

struct RuleStep<'a> {
    rules: &'a [CRule],
    inst: &'a Instance,
    group: usize,
}

impl Step for RuleStep<'_> {
    fn group(&self) -> usize {
        self.group
    }

    fn label(&self) -> String {
        let r = &self.rules[self.inst.rule];
        if r.params.is_empty() {
            return r.name.clone();
        }
        let params: Vec<String> = r
            .params
            .iter()
            .zip(&self.inst.values)
            .map(|((_, _, name, ty), v)| format!("{name}:{}", ty.show(*v)))
            .collect();
        format!("{}, {}", r.name, params.join(", "))
    }

    /// `value` is what [`MurphiSystem::step_arguments`] computes: the
    /// argument's value among the parameter's, `None` when it is none of
    /// them.
    fn argument_is(&self, k: usize, value: &dyn std::any::Any) -> Option<bool> {
        let mine = *self.inst.values.get(k)?;
        let value = value.downcast_ref::<Option<i64>>()?;
        Some(*value == Some(mine))
    }
}

/// Most instances of one ruleset.
const MAX_INSTANCES: usize = 1 << 24;

/// Every tuple of values of `params` (ruleset order: the first parameter
/// varies slowest).
fn instances(prog: &Compiled, rules: &[CRule], file: &SourceFile) -> Result<Vec<Instance>, String> {
    let mut out = Vec::new();
    let mut mem = Vec::new();
    let mut machine = Machine::new(prog, &mut mem);
    for (k, r) in rules.iter().enumerate() {
        let mut tuples: Vec<Vec<i64>> = vec![Vec::new()];
        for (_, range, _, _) in &r.params {
            let values: Vec<i64> = match range {
                Range::Type(ty) => (0..ty.card()).map(|i| i as i64 + ty.lo()).collect(),
                Range::Ints(from, to, by, _) => {
                    let ev = |m: &mut Machine<'_, '_>, e| m.eval(e).map_err(|f| message(file, &f));
                    let (from, to, by) = (
                        ev(&mut machine, from)?,
                        ev(&mut machine, to)?,
                        ev(&mut machine, by)?,
                    );
                    let values = super::eval::int_range(from, to, by)
                        .map_err(|m| format!("{m} ({})", file.location(r.span)))?;
                    // Stop collecting once the ruleset is too big anyway.
                    let v: Vec<i64> = values.take(MAX_INSTANCES + 1).collect();
                    v
                }
            };
            if tuples.len().saturating_mul(values.len()) > MAX_INSTANCES {
                return Err(format!(
                    "the ruleset of `{}` has more than {MAX_INSTANCES} instances ({})",
                    r.name,
                    file.location(r.span)
                ));
            }
            tuples = tuples
                .into_iter()
                .flat_map(|t| {
                    values.iter().map(move |&v| {
                        let mut t = t.clone();
                        t.push(v);
                        t
                    })
                })
                .collect();
        }
        out.extend(
            tuples
                .into_iter()
                .map(|values| Instance { rule: k, values }),
        );
    }
    Ok(out)
}

impl MurphiSystem {
    /// The system of a compiled program.
    pub fn new(prog: Compiled, file: Arc<SourceFile>) -> Result<Self, String> {
        let starts = instances(&prog, &prog.starts, &file)?;
        let rules = instances(&prog, &prog.rules, &file)?;
        let invariants = instances(&prog, &prog.invariants, &file)?;
        let assumptions = instances(&prog, &prog.assumptions, &file)?;
        let prioritised = prog
            .rules
            .windows(2)
            .any(|w| w[0].priority != w[1].priority);
        let covers = instances(&prog, &prog.covers, &file)?;
        let liveness = instances(&prog, &prog.liveness, &file)?;
        let cover_hits = covers.iter().map(|_| AtomicU64::new(0)).collect();
        let statement_hits = prog
            .cover_statements
            .iter()
            .map(|_| AtomicU64::new(0))
            .collect();
        // Covers are judged on every state and every rule execution, which
        // a reduced search would not all see.
        let covered = !covers.is_empty() || !prog.cover_statements.is_empty();
        // An assumption discards successors by what it reads of them, and
        // with priorities a rule fires only if no rule of a lower number
        // is enabled: whether a rule fires then depends on every variable,
        // and partial order reduction sees every rule as dependent on
        // every other (so does it with covers, which must see every state
        // and rule execution).
        let all: Vec<usize> = (0..prog.globals.len()).collect();
        let groups = prog
            .rules
            .iter()
            .map(|r| GroupInfo {
                name: r.name.clone(),
                guard_reads: if assumptions.is_empty() && !prioritised && !covered {
                    r.guard_reads.clone()
                } else {
                    all.clone()
                },
                action_reads: r.reads.clone(),
                writes: r.writes.clone(),
            })
            .collect();
        let packer = super::pack::packer(prog.globals.iter().map(|g| &g.ty));
        let mut multisets = Vec::new();
        for g in &prog.globals {
            super::types::multisets_in(&g.ty, g.offset, &mut multisets);
        }
        Ok(MurphiSystem {
            packer,
            multisets,
            prog,
            file,
            starts,
            rules,
            invariants,
            assumptions,
            covers,
            cover_hits,
            statement_hits,
            liveness,
            overrides: Vec::new(),
            dialect: super::Dialect::default(),
            prioritised,
            groups,
            check_invariants: true,
            stutter_deadlocks: true,
        })
    }

    /// Every cover, property instances then statements: its name, place
    /// and hit counter.
    fn covers_with_hits(&self) -> impl Iterator<Item = (String, Span, &AtomicU64)> + '_ {
        let properties = self
            .covers
            .iter()
            .zip(&self.cover_hits)
            .map(|(inst, hits)| {
                let rule = &self.prog.covers[inst.rule];
                let step = RuleStep {
                    rules: &self.prog.covers,
                    inst,
                    group: 0,
                };
                (step.label(), rule.span, hits)
            });
        let statements = self
            .prog
            .cover_statements
            .iter()
            .zip(&self.statement_hits)
            .map(|((name, span), hits)| (name.clone(), *span, hits));
        properties.chain(statements)
    }

    /// Records the constants' overrides and the dialect the program was
    /// compiled with, for the state predicates compiled later.
    pub fn compiled_with(mut self, overrides: &[(String, i64)], dialect: super::Dialect) -> Self {
        self.overrides = overrides.to_vec();
        self.dialect = dialect;
        self
    }

    /// The compiled program.
    pub fn program(&self) -> &Compiled {
        &self.prog
    }

    /// How states are packed.
    pub fn packer(&self) -> &Packer {
        &self.packer
    }

    /// Number of interpreter words (one per scalar leaf) of a state.
    fn leaves(&self) -> usize {
        self.prog.width
    }

    /// The relations partial order reduction uses: from the rules'
    /// read/write sets, with the variables the invariants read visible
    /// when `invariants` are checked.
    pub fn independence(&self, invariants: bool) -> Independence {
        let mut visible: Vec<usize> = Vec::new();
        if invariants && self.check_invariants {
            // An invariant's condition is compiled as a guard; what it
            // reads is collected in its guard reads.
            for r in &self.prog.invariants {
                visible.extend(&r.guard_reads);
                visible.extend(&r.reads);
            }
        }
        visible.sort_unstable();
        visible.dedup();
        Independence::from_access(&self.groups, &visible)
    }

    /// A Murphi boolean expression over the global variables (constants,
    /// types, functions of the program in scope), compiled as the
    /// condition of one more invariant at the end of the program.
    fn compile_atom(&self, text: &str) -> Result<CRule, String> {
        self.compile_property(&format!("invariant \"LTL atom\"\n{text}\n"), 0)
    }

    /// The property `text` (an invariant, in rulesets binding `params`
    /// parameters) compiled at the end of the program.
    fn compile_property(&self, text: &str, params: usize) -> Result<CRule, String> {
        let source = format!("{}\n{text};\n", self.file.text);
        let file = SourceFile::new(self.file.name.clone(), source);
        let program = super::parser::parse_program(&file.text).map_err(|d| d.render(&file))?;
        let compiled = super::compile::compile(&program, &self.overrides, self.dialect)
            .map_err(|d| d.render(&file))?;
        let same = compiled.invariants.len() == self.prog.invariants.len() + 1
            && compiled.rules.len() == self.prog.rules.len()
            && compiled.starts.len() == self.prog.starts.len()
            && compiled.procs.len() == self.prog.procs.len();
        match compiled.invariants.last() {
            Some(rule) if same && rule.params.len() == params => Ok(rule.clone()),
            _ => Err("expected one boolean expression".to_string()),
        }
    }

    /// The quantifiers of the rulesets around the rules named `op` (the
    /// outermost first), the same for all of them; an error if none is
    /// named so, if they differ, or if one is inside a `choose`.
    fn rule_quantifiers(&self, op: &str) -> Result<Vec<Quantifier>, String> {
        fn walk(
            rules: &[Rule],
            op: &str,
            around: &mut Vec<Quantifier>,
            chosen: bool,
            found: &mut Vec<Option<Vec<Quantifier>>>,
        ) {
            for rule in rules {
                match rule {
                    Rule::Simple { name, .. } if name == op => {
                        found.push((!chosen).then(|| around.clone()));
                    }
                    Rule::Ruleset(quantifiers, inner) => {
                        let depth = around.len();
                        around.extend(quantifiers.iter().cloned());
                        walk(inner, op, around, chosen, found);
                        around.truncate(depth);
                    }
                    Rule::Alias(_, inner) => walk(inner, op, around, chosen, found),
                    Rule::Choose(_, _, inner, _) => walk(inner, op, around, true, found),
                    _ => {}
                }
            }
        }
        let program =
            super::parser::parse_program(&self.file.text).map_err(|d| d.render(&self.file))?;
        let mut found = Vec::new();
        walk(&program.rules, op, &mut Vec::new(), false, &mut found);
        let text = |q: &Quantifier| &self.file.text[q.whole.start as usize..q.whole.end as usize];
        let texts = |qs: &Option<Vec<Quantifier>>| -> Option<Vec<&str>> {
            qs.as_ref().map(|qs| qs.iter().map(text).collect())
        };
        match found.first() {
            None => Err(format!("no rule is named `{op}`")),
            Some(None) => Err(format!(
                "not supported yet: arguments of `{op}`, a rule inside `choose`"
            )),
            Some(Some(first)) if found.iter().all(|q| texts(q) == texts(&found[0])) => {
                Ok(first.clone())
            }
            Some(_) => Err(format!(
                "not supported yet: arguments of `{op}`, a name that rules with different \
                 parameters share"
            )),
        }
    }

    fn machine<'s>(&'s self, mem: &'s mut Vec<u64>) -> Machine<'s, 's> {
        Machine::new(&self.prog, mem).counting_covers(&self.statement_hits)
    }

    fn error(&self, f: &Fail) -> ModelError {
        if let Fail::Stopped(reason) = f {
            return ModelError::stopped(*reason);
        }
        ModelError::new(message(&self.file, f))
    }

    /// Whether the property `rule` (instance `inst`) holds in the unpacked
    /// state `base`, evaluated in the machine memory `mem`.
    fn holds(
        &self,
        mem: &mut Vec<u64>,
        base: &[u64],
        rule: &CRule,
        inst: &Instance,
    ) -> Result<bool, ModelError> {
        let m = &mut self.machine(mem);
        m.mem[..self.leaves()].copy_from_slice(base);
        self.run(m, rule, inst).map_err(|f| self.error(&f))
    }

    /// Runs instance `inst` of `rule` on the machine's state words: its
    /// guard (if any), then its body; `Ok(false)` if the guard is false.
    fn run(&self, m: &mut Machine<'_, '_>, rule: &CRule, inst: &Instance) -> Result<bool, Fail> {
        self.in_frame(m, rule, inst, Frame::Fire)
    }

    /// Whether instance `inst` of `rule` is enabled (its aliases and guard
    /// only; the state words are not changed).
    fn enabled(
        &self,
        m: &mut Machine<'_, '_>,
        rule: &CRule,
        inst: &Instance,
    ) -> Result<bool, Fail> {
        self.in_frame(m, rule, inst, Frame::Guard)
    }

    /// In a frame with `inst`'s parameters bound: the aliases, the guard
    /// (unless `what` says it held) and, if it holds and `what` asks for
    /// it, the body. Whether the guard held.
    fn in_frame(
        &self,
        m: &mut Machine<'_, '_>,
        rule: &CRule,
        inst: &Instance,
        what: Frame,
    ) -> Result<bool, Fail> {
        let old = m.push_frame(rule.frame);
        for ((at, _, _, ty), v) in rule.params.iter().zip(&inst.values) {
            m.bind(*at, ty, *v);
        }
        let result = (|| {
            m.stmts(&rule.prelude)?;
            if what != Frame::FireEnabled
                && let Some(g) = &rule.guard
                && m.eval(g)? == 0
            {
                return Ok(false);
            }
            if what == Frame::Guard {
                return Ok(true);
            }
            match m.stmts(&rule.body) {
                Ok(()) | Err(Fail::ReturnNothing) => Ok(true),
                Err(e) => Err(e),
            }
        })();
        m.pop_frame(old);
        result
    }

    /// The least priority number among the rules enabled in the state in
    /// the machine's words (CMurphi fires only those rules). Records in
    /// `known` the guards it evaluated (one entry per rule instance), so
    /// that firing does not evaluate them again.
    fn least_enabled_priority(
        &self,
        m: &mut Machine<'_, '_>,
        known: &mut Vec<Guard>,
    ) -> Result<i64, Fail> {
        known.clear();
        known.resize(self.rules.len(), Guard::Unknown);
        let mut least = i64::MAX;
        for (k, inst) in self.rules.iter().enumerate() {
            let rule = &self.prog.rules[inst.rule];
            if rule.priority < least {
                if self.enabled(m, rule, inst)? {
                    known[k] = Guard::Held;
                    least = rule.priority;
                } else {
                    known[k] = Guard::Failed;
                }
            }
        }
        Ok(least)
    }

    /// [`Self::run`] for a rule whose body may hit a false `assume`:
    /// `Ok(None)` then (the rule is abandoned, and the state words may be
    /// half-changed), else whether it fired.
    fn fire(
        &self,
        m: &mut Machine<'_, '_>,
        rule: &CRule,
        inst: &Instance,
    ) -> Result<Option<bool>, Fail> {
        self.fire_as(m, rule, inst, Frame::Fire)
    }

    /// [`Self::fire`], told whether the guard is known to hold.
    fn fire_as(
        &self,
        m: &mut Machine<'_, '_>,
        rule: &CRule,
        inst: &Instance,
        what: Frame,
    ) -> Result<Option<bool>, Fail> {
        match self.in_frame(m, rule, inst, what) {
            Err(Fail::Discard) => Ok(None),
            other => other.map(Some),
        }
    }

    /// Whether the state in the machine's words satisfies every `assume`
    /// property (Rumur): the states that do not are discarded.
    fn assumed(&self, m: &mut Machine<'_, '_>) -> Result<bool, Fail> {
        for inst in &self.assumptions {
            if !self.run(m, &self.prog.assumptions[inst.rule], inst)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Model for MurphiSystem {
    type Scratch = MurphiScratch;

    fn new_scratch(&self) -> MurphiScratch {
        MurphiScratch {
            mem: Vec::new(),
            base: vec![0; self.leaves()],
            out: vec![0; self.packer.width()],
            discarded_move: false,
            guards: Vec::new(),
        }
    }

    fn state_width(&self) -> usize {
        self.packer.width()
    }

    fn stutter_is_deadlock(&self) -> bool {
        self.stutter_deadlocks
    }

    fn discarded_a_move(&self, scratch: &MurphiScratch) -> bool {
        scratch.discarded_move
    }

    fn cover_counts(&self) -> Vec<CoverCount> {
        self.covers_with_hits()
            .map(|(name, _, hits)| CoverCount {
                name,
                hits: hits.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// A `cover` no reachable state (property) or rule execution
    /// (statement) made true.
    fn after_complete_search(&self) -> Option<String> {
        let missed: Vec<String> = self
            .covers_with_hits()
            .filter(|(_, _, hits)| hits.load(Ordering::Relaxed) == 0)
            .map(|(name, span, _)| {
                format!("cover \"{name}\" not hit ({})", self.file.location(span))
            })
            .collect();
        (!missed.is_empty()).then(|| missed.join("; "))
    }

    /// States are packed to bits: bytes past the last field's are zero.
    fn state_bytes(&self) -> usize {
        (self.packer.bits() as usize).div_ceil(8)
    }

    /// The packed words each variable's bits fall in.
    fn slots(&self) -> Vec<SlotInfo> {
        self.prog
            .globals
            .iter()
            .map(|g| self.packer.slot(&g.name, g.offset, g.ty.width()))
            .collect()
    }

    fn groups(&self) -> &[GroupInfo] {
        &self.groups
    }

    fn initial_states(
        &self,
        scratch: &mut MurphiScratch,
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        let w = self.leaves();
        // A new search: covers count from nothing.
        for hits in self.cover_hits.iter().chain(&self.statement_hits) {
            hits.store(0, Ordering::Relaxed);
        }
        let MurphiScratch { mem, out, .. } = scratch;
        let m = &mut self.machine(mem);
        for inst in &self.starts {
            m.mem[..w].fill(0);
            let rule = &self.prog.starts[inst.rule];
            if self.fire(m, rule, inst).map_err(|f| self.error(&f))? != Some(true) {
                continue;
            }
            let step = RuleStep {
                rules: &self.prog.starts,
                inst,
                group: INITIAL_GROUP,
            };
            normalise_multisets(&mut m.mem[..w], &self.multisets);
            if !self.assumed(m).map_err(|f| self.error(&f))? {
                continue;
            }
            self.packer.pack(&m.mem[..w], out);
            emit(&step, out);
        }
        Ok(())
    }

    fn successors(
        &self,
        scratch: &mut MurphiScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        let w = self.leaves();
        let MurphiScratch {
            mem,
            base,
            out,
            discarded_move,
            guards,
        } = scratch;
        *discarded_move = false;
        self.packer.unpack(state, base);
        let m = &mut self.machine(mem);
        m.mem[..w].copy_from_slice(base);
        let least = if self.prioritised {
            self.least_enabled_priority(m, guards)
                .map_err(|f| self.error(&f))?
        } else {
            0
        };
        for (k, inst) in self.rules.iter().enumerate() {
            let rule = &self.prog.rules[inst.rule];
            let what = if self.prioritised {
                if rule.priority != least {
                    continue;
                }
                match guards[k] {
                    Guard::Failed => continue,
                    Guard::Held => Frame::FireEnabled,
                    Guard::Unknown => Frame::Fire,
                }
            } else {
                Frame::Fire
            };
            let fired = self
                .fire_as(m, rule, inst, what)
                .map_err(|f| self.error(&f))?;
            if fired.is_none() {
                // Abandoned by an `assume`: undo what the body did.
                m.mem[..w].copy_from_slice(base);
            }
            if fired == Some(true) {
                let step = RuleStep {
                    rules: &self.prog.rules,
                    inst,
                    group: inst.rule,
                };
                normalise_multisets(&mut m.mem[..w], &self.multisets);
                if self.assumed(m).map_err(|f| self.error(&f))? {
                    self.packer.pack(&m.mem[..w], out);
                    emit(&step, out);
                } else if m.mem[..w] != base[..] {
                    *discarded_move = true;
                }
                m.mem[..w].copy_from_slice(base);
            }
        }
        Ok(())
    }

    fn check_state(
        &self,
        scratch: &mut MurphiScratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        if !self.check_invariants && self.covers.is_empty() {
            return Ok(None);
        }
        let w = self.leaves();
        let MurphiScratch { mem, base, .. } = scratch;
        self.packer.unpack(state, base);
        let m = &mut self.machine(mem);
        m.mem[..w].copy_from_slice(base);
        // Every state is checked once: count the covers it satisfies.
        for (inst, hits) in self.covers.iter().zip(&self.cover_hits) {
            if self
                .run(m, &self.prog.covers[inst.rule], inst)
                .map_err(|f| self.error(&f))?
            {
                hits.fetch_add(1, Ordering::Relaxed);
            }
        }
        if !self.check_invariants {
            return Ok(None);
        }
        for inst in &self.invariants {
            let rule = &self.prog.invariants[inst.rule];
            // An invariant is a rule whose guard is its condition: "not
            // enabled" means false.
            if !self.run(m, rule, inst).map_err(|f| self.error(&f))? {
                let step = RuleStep {
                    rules: &self.prog.invariants,
                    inst,
                    group: 0,
                };
                return Ok(Some(Violation {
                    kind: ViolationKind::Invariant,
                    message: format!(
                        "invariant \"{}\" is false ({})",
                        step.label(),
                        self.file.location(rule.span)
                    ),
                }));
            }
        }
        Ok(None)
    }

    /// The atom compiled as one more invariant ([`Self::compile_atom`]).
    fn state_predicate(&self, text: &str) -> Result<StatePredicate<'_, MurphiScratch>, String> {
        let rule = self.compile_atom(text)?;
        let inst = Instance {
            rule: 0,
            values: Vec::new(),
        };
        Ok(Box::new(
            move |scratch: &mut MurphiScratch, state: &[u64]| {
                let MurphiScratch { mem, base, .. } = scratch;
                self.packer.unpack(state, base);
                self.holds(mem, base, &rule, &inst)
            },
        ))
    }

    /// Each argument `e` of parameter `p: T` is compiled as the invariant
    /// `ruleset x: T do invariant x = (e) end` at the end of the program
    /// (so that Murphi's rules check its type against the parameter's),
    /// and its value in a state is the `x` of `T` where that holds.
    fn step_arguments(
        &self,
        op: &str,
        args: &[Option<String>],
    ) -> Result<StepArguments<'_, MurphiScratch>, String> {
        let quantifiers = self.rule_quantifiers(op)?;
        // `[op()]`: any arguments.
        let any = vec![None; quantifiers.len()];
        let args = if args.is_empty() { &any[..] } else { args };
        if args.len() != quantifiers.len() {
            return Err(format!(
                "`{op}` has {} parameter(s), the atom gives {} argument(s)",
                quantifiers.len(),
                args.len()
            ));
        }
        let mut compiled = Vec::new();
        for (q, arg) in quantifiers.iter().zip(args) {
            let Some(arg) = arg else {
                compiled.push(None);
                continue;
            };
            let whole = &self.file.text[q.whole.start as usize..q.whole.end as usize];
            let range = &whole[q.name.len()..];
            const X: &str = "orbit_step_argument";
            let rule = self.compile_property(
                &format!(
                    "ruleset {X}{range} do invariant \"LTL step argument\"\n{X} = ({arg})\nend"
                ),
                1,
            )?;
            let values = instances(&self.prog, std::slice::from_ref(&rule), &self.file)?;
            compiled.push(Some((rule, values)));
        }
        Ok(Box::new(
            move |scratch: &mut MurphiScratch, state: &[u64]| {
                let MurphiScratch { mem, base, .. } = scratch;
                self.packer.unpack(state, base);
                let mut out: Vec<Option<Box<dyn std::any::Any + Send>>> = Vec::new();
                for c in &compiled {
                    let Some((rule, values)) = c else {
                        out.push(None);
                        continue;
                    };
                    let mut value = None;
                    for inst in values {
                        if self.holds(mem, base, rule, inst)? {
                            value = Some(inst.values[0]);
                            break;
                        }
                    }
                    out.push(Some(Box::new(value)));
                }
                Ok(out)
            },
        ))
    }

    /// What the atom's condition reads, collected as an invariant's.
    fn predicate_reads(&self, text: &str) -> Option<Vec<usize>> {
        let rule = self.compile_atom(text).ok()?;
        let mut reads: Vec<usize> = rule
            .guard_reads
            .iter()
            .chain(&rule.reads)
            .copied()
            .collect();
        reads.sort_unstable();
        reads.dedup();
        Some(reads)
    }
    /// A rule's group is the whole ruleset, which the scalarset
    /// permutations map to itself.
    fn groups_commute_with_symmetry(&self) -> bool {
        true
    }

    fn liveness_properties(&self) -> Vec<LivenessProperty> {
        self.liveness
            .iter()
            .map(|inst| {
                let rule = &self.prog.liveness[inst.rule];
                let step = RuleStep {
                    rules: &self.prog.liveness,
                    inst,
                    group: 0,
                };
                LivenessProperty {
                    name: step.label(),
                    place: self.file.location(rule.span),
                    names_element_of: rule.params.iter().find_map(|(_, _, _, ty)| match ty {
                        Ty::Scalarset { domain, .. } => Some(self.prog.domains[*domain].0.clone()),
                        _ => None,
                    }),
                }
            })
            .collect()
    }

    fn liveness_image(&self, index: usize, perm: &Permutation) -> Option<usize> {
        let inst = &self.liveness[index];
        let rule = &self.prog.liveness[inst.rule];
        let values: Vec<i64> = rule
            .params
            .iter()
            .zip(&inst.values)
            .map(|((_, _, _, ty), &v)| match ty {
                Ty::Scalarset { domain, .. } => i64::from(perm.image(*domain as u32, v as u32)),
                _ => v,
            })
            .collect();
        self.liveness
            .iter()
            .position(|other| other.rule == inst.rule && other.values == values)
    }

    fn liveness_holds(
        &self,
        scratch: &mut MurphiScratch,
        state: &[u64],
        index: usize,
    ) -> Result<bool, ModelError> {
        let inst = &self.liveness[index];
        let w = self.leaves();
        let MurphiScratch { mem, base, .. } = scratch;
        self.packer.unpack(state, base);
        let m = &mut self.machine(mem);
        m.mem[..w].copy_from_slice(base);
        self.run(m, &self.prog.liveness[inst.rule], inst)
            .map_err(|f| self.error(&f))
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        let mut words = vec![0; self.leaves()];
        self.packer.unpack(state, &mut words);
        let state = &words;
        self.prog
            .globals
            .iter()
            .map(|g| {
                (
                    g.name.clone(),
                    g.ty.show_words(&state[g.offset..g.offset + g.ty.width()]),
                )
            })
            .collect()
    }
}
