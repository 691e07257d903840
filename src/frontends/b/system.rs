//! A B machine as a [`Model`]: the glue between the interpreter (which
//! works on decoded [`Value`]s) and the model interface (which sees words,
//! transition groups and labels).
//!
//! A state is the constant valuation followed by the variables (see
//! [`crate::frontends::b::state`]). The initial states are every INITIALISATION outcome
//! of every constant valuation; successors are every enabled operation
//! instance, in declaration order, parameters in value order, as the
//! interpreter emits them, which makes the successor order deterministic.
//! A transition group is an operation; with partial order reduction an
//! operation with small parameter types is refined into instances (see
//! [`crate::frontends::b::por::instances`]).

use crate::diag::SourceFile;
use crate::frontends::b::eval::{EvalError, Interpreter, PropertyFailure, Step};
use crate::frontends::b::por::instances::Instances;
use crate::frontends::b::state::{ElementTables, StateLayout};
use crate::frontends::b::value::Value;
use crate::model::{GroupInfo, INITIAL_GROUP, Model, SlotInfo, StatePredicate};
use std::sync::Arc;
use workers::{ModelError, Violation, ViolationKind};

/// A loaded, type-checked B machine ready to be explored.
pub struct BSystem {
    interpreter: Interpreter,
    layout: StateLayout,
    file: Arc<SourceFile>,
    valuations: Vec<Vec<Value>>,
    /// Number of constant valuations (ProB shows each as a node of its own);
    /// 0 for a machine without constants.
    pub constant_valuations: usize,
    /// The given-set elements symmetry reduction may permute (set by the
    /// loader; none for a system built directly).
    pub interchangeable: crate::model::Permutable,
    /// Record shapes of the slots (constants, then variables), for
    /// printing; empty when no record is involved.
    pub shapes: Vec<crate::frontends::b::types::ValueShape>,
    /// What loading the model found worth telling the user (e.g. gluing
    /// invariants of a refinement that are not checked).
    pub warnings: Vec<String>,
    /// Whether `check_state` evaluates the invariant (`orbit check
    /// --no-invariant` turns it off; assertions are still checked).
    pub check_invariant: bool,
    /// Whether `check_state` evaluates the ASSERTIONS clause (`orbit check
    /// --no-assertions` turns it off, as ProB's `-noass`).
    pub check_assertions: bool,
    /// ProB's symmetry rules for constants, which a symmetry-reduced search
    /// applies to the valuations (set by the loader; none by default).
    pub constant_rules: crate::frontends::b::symmetry::ConstantRules,
    /// The transition groups (operations) with their read and write sets
    /// (set by the loader; names only for a system built directly).
    pub groups: Vec<GroupInfo>,
    /// The operation instances partial order reduction refines groups into
    /// ([`crate::model::Step::instance`]), when attached
    /// ([`Self::attach_instances`]); each scratch space takes a snapshot.
    instances: std::sync::RwLock<Option<Arc<Instances>>>,
    /// Per invariant conjunct: the slot whose packed form vouches for it
    /// (see [`BSystem::vouch_for`]); empty when none does.
    vouchers: Vec<Option<usize>>,
    /// Per constant valuation, the initial states (variables) that
    /// [`BSystem::valuation_without_initialisation`] listed, until the
    /// search takes them.
    listed_initial_states: parking_lot::Mutex<Vec<Option<Vec<Vec<Value>>>>>,
    /// The machine's `ASSERT_LTL...` definitions: name and formula (set by
    /// the loader).
    pub ltl: Vec<(String, String)>,
    /// Per LTL predicate atom (its text), the slots it reads (set by the
    /// loader).
    pub ltl_reads: Vec<(String, Vec<usize>)>,
}

/// The most initial states (of all constant valuations together) that
/// [`BSystem::valuation_without_initialisation`] keeps for the search.
const LISTED_INITIAL_STATES: usize = 1 << 16;

/// Per-thread buffers for decoding and encoding states.
pub struct BScratch {
    constants: Vec<Value>,
    variables: Vec<Value>,
    /// The constant words the decoded `constants` belong to (decoding
    /// constants again is skipped while they stay the same).
    constant_key: Option<Vec<u64>>,
    /// The state the decoded `variables` belong to (unchanged variables
    /// are not decoded again).
    variable_key: Option<Vec<u64>>,
    out: Vec<u64>,
    /// The variables of the successor in `out` that differ from the state
    /// expanded (see [`StateLayout::encode_changed_variables`]).
    rewritten: Vec<usize>,
    /// The engine's state unpacked (see [`crate::frontends::b::state`]).
    words: Vec<u64>,
    /// A successor packed for the engine.
    packed: Vec<u64>,
    /// The last state checked on this thread in which the whole invariant
    /// held (see [`BSystem::check_invariant_incrementally`]).
    invariant_held: Option<Vec<u64>>,
    /// Per variable: do its words differ from `invariant_held`'s?
    changed: Vec<bool>,
    /// Per invariant conjunct: does the state's packed form vouch for it?
    vouched: Vec<bool>,
    /// Decoded relation elements, shared by this thread's decodings.
    tables: ElementTables,
    /// The operation instances attached when this scratch was made.
    instances: Option<Arc<Instances>>,
    /// Whether a successor of the state last expanded was outside `SCOPE`
    /// (and so dropped).
    out_of_scope: bool,
}

impl BSystem {
    /// The value of slot `k` (constants, then variables) printed as ProB
    /// prints it, records with their field names.
    fn format_slot(&self, k: usize, v: &Value) -> String {
        match self.shapes.get(k) {
            Some(shape) => self.interpreter.format_shaped(v, shape),
            None => self.interpreter.format_value(v),
        }
    }

    /// Builds the system from an interpreter and a layout; computes the
    /// constant valuations (a model error if PROPERTIES is ill-defined).
    pub fn new(
        interpreter: Interpreter,
        mut layout: StateLayout,
        file: Arc<SourceFile>,
    ) -> Result<Self, ModelError> {
        let valuations = interpreter
            .constant_valuations()
            .map_err(|e| render_eval_error(&file, &e))?;
        layout.intern_big_constants(&valuations);
        // A machine without constants has no SETUP_CONSTANTS step (ProB
        // shows no node for it), so it counts no valuation.
        let constant_valuations = if layout.constant_count() == 0 {
            0
        } else {
            valuations.len()
        };
        let mut warnings = Vec::new();
        if !valuations.is_empty()
            && let Some((span, n)) = interpreter.undefined_rejections()
        {
            warnings.push(format!(
                "PROPERTIES applies a function outside its domain ({}) for {n} \
                 candidate value(s) while the constants are sought: read as false \
                 there, as ProB's constraint solver reads `f(x) = y` as `x |-> y : f`",
                file.location(span)
            ));
        }
        let groups = (0..interpreter.operation_count())
            .map(|op| GroupInfo {
                name: interpreter.operation_name(op).to_string(),
                guard_reads: Vec::new(),
                action_reads: Vec::new(),
                writes: (layout.constant_count()..layout.slots().len()).collect(),
            })
            .collect();
        Ok(BSystem {
            constant_valuations,
            interchangeable: crate::model::Permutable::none(),
            warnings,
            shapes: Vec::new(),
            check_invariant: true,
            check_assertions: true,
            constant_rules: crate::frontends::b::symmetry::ConstantRules::none(),
            groups,
            instances: std::sync::RwLock::new(None),
            vouchers: Vec::new(),
            interpreter,
            layout,
            file,
            valuations,
            ltl: Vec::new(),
            ltl_reads: Vec::new(),
            listed_initial_states: parking_lot::Mutex::new(Vec::new()),
        })
    }

    /// Lets the state layout vouch for the invariant conjuncts `v : A -->
    /// B` and `v : A +-> B` (see [`crate::frontends::b::state::function_conjuncts`])
    /// whose variable it packs as exactly those functions: a state in
    /// which such a variable's value packs without escape satisfies the
    /// conjunct, which is then not evaluated. (PetersonN with 4 processes:
    /// the invariant check took a third of the instructions.)
    pub fn vouch_for(&mut self, conjuncts: &[crate::frontends::b::state::FunctionConjunct]) {
        self.vouchers = self
            .interpreter
            .invariant_spans()
            .map(|span| {
                conjuncts
                    .iter()
                    .filter(|c| c.span == span)
                    .find_map(|c| self.layout.vouched_slot(c))
            })
            .collect();
        if self.vouchers.iter().all(Option::is_none) {
            self.vouchers.clear();
        }
        tracing::debug!(
            conjuncts = self.vouched_conjuncts(),
            "invariant conjuncts the state layout vouches for"
        );
    }

    /// How many invariant conjuncts the state layout vouches for (see
    /// [`BSystem::vouch_for`]).
    pub fn vouched_conjuncts(&self) -> usize {
        self.vouchers.iter().flatten().count()
    }

    /// Makes the steps of scratch spaces created from now on name the
    /// operation instances `instances` (partial order reduction refines
    /// groups into them), or none.
    pub fn attach_instances(&self, instances: Option<Instances>) {
        let mut slot = self
            .instances
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *slot = instances.map(Arc::new);
    }

    /// The interpreter, for tools that need more than the engine's view.
    pub fn interpreter(&self) -> &Interpreter {
        &self.interpreter
    }

    /// The source text (every file read), for rendering diagnostics.
    pub fn file(&self) -> &SourceFile {
        &self.file
    }

    /// The state layout.
    pub fn layout(&self) -> &StateLayout {
        &self.layout
    }

    /// The solutions of PROPERTIES (one empty valuation without constants).
    pub fn valuations(&self) -> &[Vec<Value>] {
        &self.valuations
    }

    /// Keeps only the constant valuations in ProB's normal form
    /// ([`Self::constant_rules`]): ProB's static symmetry reduction of
    /// constants, sound without reducing states because every valuation
    /// outside the normal form is a renaming of one inside it by a
    /// permutation of deferred-set elements, which the machine cannot tell
    /// apart (the states reachable from it are the renamed states, with the
    /// same verdicts).
    pub fn keep_normal_form_valuations(&mut self) {
        if self.layout.constant_count() == 0 || self.constant_rules.is_trivial() {
            return;
        }
        let rules = &self.constant_rules;
        self.valuations.retain(|v| rules.keeps(v));
        self.constant_valuations = self.valuations.len();
    }

    fn error(&self, e: &EvalError) -> ModelError {
        render_eval_error(&self.file, e)
    }

    fn encode_error(&self) -> ModelError {
        match self.layout.pack_failure() {
            Some(why) => ModelError::new(format!("{why} ({})", self.file.name)),
            None => ModelError::new(
                "internal error: a value does not match its inferred type (please report this \
                 model)",
            ),
        }
    }

    /// Unpacks the engine's `state` into the scratch's buffer, which is
    /// taken out for the caller to read while it uses the scratch; the
    /// caller puts it back (`scratch.words = words`).
    fn unpack(&self, scratch: &mut BScratch, state: &[u64]) -> Vec<u64> {
        let mut words = std::mem::take(&mut scratch.words);
        self.layout.unpack(state, &mut words);
        words
    }

    /// Decodes `state` into the scratch's constants and variables, for
    /// evaluating a predicate or expression on it.
    fn load(&self, scratch: &mut BScratch, state: &[u64]) {
        let words = self.unpack(scratch, state);
        self.decode(scratch, &words);
        scratch.words = words;
    }

    /// Decodes the unpacked `state` into the scratch buffers.
    fn decode(&self, scratch: &mut BScratch, state: &[u64]) {
        let cw = self.layout.constant_words();
        if scratch.constant_key.as_deref() != Some(&state[..cw]) {
            self.layout.decode_constants(state, &mut scratch.constants);
            scratch.constant_key = Some(state[..cw].to_vec());
        }
        if scratch.variable_key.as_deref() == Some(state) {
            return;
        }
        self.layout.decode_variables_with(
            state,
            scratch.variable_key.as_deref(),
            &mut scratch.variables,
            &scratch.tables,
        );
        match &mut scratch.variable_key {
            Some(key) => key.copy_from_slice(state),
            None => scratch.variable_key = Some(state.to_vec()),
        }
    }

    /// Every initial state with its step, in order.
    fn for_each_initial(
        &self,
        keep: &dyn Fn(usize) -> bool,
        emit: &mut dyn FnMut(&dyn crate::model::Step, &[u64]),
    ) -> Result<(), ModelError> {
        let (mut out, mut packed, mut constant_words) = (Vec::new(), Vec::new(), Vec::new());
        let mut failed = false;
        for (index, constants) in self.valuations.iter().enumerate() {
            if !keep(index) {
                continue;
            }
            // The constants' words, once per valuation (they may be large
            // tables, and a valuation may have thousands of initial states).
            if self
                .layout
                .encode(constants, &[], &mut constant_words)
                .is_err()
            {
                return Err(self.encode_error());
            }
            let step = InitialStep {
                system: self,
                constants,
                valuation: index,
            };
            let mut scope_error = None;
            let listed = self
                .listed_initial_states
                .lock()
                .get_mut(index)
                .and_then(Option::take);
            let mut each = |variables: &[Value]| {
                // ProB's SCOPE: an initial state outside it is dropped.
                if !self.in_scope(constants, variables, &mut scope_error) {
                    return;
                }
                out.clone_from(&constant_words);
                if self.layout.encode_variables(variables, &mut out).is_err()
                    || self.layout.pack(&out, &mut packed).is_err()
                {
                    failed = true;
                } else {
                    emit(&step, &packed);
                }
            };
            match listed {
                Some(outcomes) => outcomes.iter().for_each(|variables| each(variables)),
                None => self
                    .interpreter
                    .initialise(constants, &mut each)
                    .map_err(|e| self.error(&e))?,
            }
            if let Some(e) = scope_error {
                return Err(self.error(&e));
            }
            if failed {
                return Err(self.encode_error());
            }
        }
        // Those of valuations `keep` skipped.
        self.listed_initial_states.lock().clear();
        Ok(())
    }

    /// The first constant valuation from which INITIALISATION has no
    /// outcome (when the machine has constants): its `SETUP_CONSTANTS(..)`
    /// label and the constants' printed values. ProB's model checker
    /// reports such a setup node as a deadlock. An error while initialising
    /// gives `None`: the search reports it. The initial states listed on
    /// the way are kept for [`Model::for_each_initial`].
    pub fn valuation_without_initialisation(&self) -> Option<(String, Vec<(String, String)>)> {
        if self.layout.constant_count() == 0 {
            return None;
        }
        let mut listed = self.listed_initial_states.lock();
        listed.resize_with(self.valuations.len(), || None);
        let mut room = LISTED_INITIAL_STATES;
        for (index, constants) in self.valuations.iter().enumerate() {
            let Ok(outcomes) = self.interpreter.initial_states_upto(constants, room) else {
                return None;
            };
            let none = outcomes.as_ref().is_some_and(Vec::is_empty);
            // Kept for the search, which would find them again (by the
            // constraint solver, perhaps in seconds); beyond the room
            // left, only whether there is one is sought.
            room = match &outcomes {
                Some(found) => room - found.len(),
                None => 0,
            };
            listed[index] = outcomes;
            if none {
                let names = &self.layout.slots()[..constants.len()];
                let shown: Vec<(String, String)> = names
                    .iter()
                    .zip(constants)
                    .enumerate()
                    .map(|(k, (s, v))| (s.name.clone(), self.format_slot(k, v)))
                    .collect();
                let label = format!(
                    "SETUP_CONSTANTS({})",
                    shown
                        .iter()
                        .map(|(n, v)| format!("{n}={v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                return Some((label, shown));
            }
        }
        None
    }

    fn initial_label(&self, constants: &[Value]) -> String {
        if constants.is_empty() {
            "INITIALISATION".to_string()
        } else {
            let names = &self.layout.slots()[..constants.len()];
            let shown: Vec<String> = names
                .iter()
                .zip(constants)
                .enumerate()
                .map(|(k, (s, v))| format!("{}={}", s.name, self.format_slot(k, v)))
                .collect();
            format!("SETUP_CONSTANTS({}); INITIALISATION", shown.join(", "))
        }
    }

    /// Whether a state with these values lies within `SCOPE`; false after
    /// recording in `error` (the first one kept) an error evaluating it.
    fn in_scope(
        &self,
        constants: &[Value],
        variables: &[Value],
        error: &mut Option<EvalError>,
    ) -> bool {
        self.interpreter
            .in_scope(constants, variables)
            .unwrap_or_else(|e| {
                error.get_or_insert(e);
                false
            })
    }

    /// Every successor of the unpacked `state` with the interpreter's step
    /// (operation, parameters, outputs), unpacked, in the order of
    /// [`Model::successors`].
    pub(crate) fn for_each_successor(
        &self,
        scratch: &mut BScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&Step<'_>, &[u64]),
    ) -> Result<(), ModelError> {
        self.decode(scratch, state);
        let BScratch {
            constants,
            variables,
            out,
            rewritten,
            out_of_scope,
            ..
        } = scratch;
        *out_of_scope = false;
        rewritten.clear();
        let mut scope_error = None;
        out.clear();
        out.extend_from_slice(state);
        let mut failed = false;
        self.interpreter
            .successors(constants, variables, &mut |step| {
                // ProB's SCOPE: a successor outside it is dropped.
                if !self.in_scope(constants, step.variables, &mut scope_error) {
                    *out_of_scope = true;
                    return;
                }
                if self
                    .layout
                    .encode_changed_variables(variables, step.variables, out, rewritten)
                    .is_err()
                {
                    failed = true;
                } else {
                    emit(step, out);
                }
                self.layout.restore_variables(state, out, rewritten);
            })
            .map_err(|e| self.error(&e))?;
        if let Some(e) = scope_error {
            return Err(self.error(&e));
        }
        if failed {
            Err(self.encode_error())
        } else {
            Ok(())
        }
    }

    /// The first false invariant conjunct of the decoded (unpacked) `state`.
    ///
    /// The invariant is a function of the state, so against the last state
    /// this thread found it to hold in (with the same constants), only the
    /// conjuncts reading a variable whose words differ need evaluating (see
    /// [`Interpreter::check_invariant_except`]). The states checked one
    /// after the other are mostly siblings, which differ in the few
    /// variables their operations wrote.
    fn check_invariant_incrementally(
        &self,
        scratch: &mut BScratch,
        state: &[u64],
    ) -> Result<Option<PropertyFailure>, EvalError> {
        let BScratch {
            constants,
            variables,
            invariant_held,
            changed,
            vouched,
            ..
        } = scratch;
        vouched.clear();
        vouched.extend(
            self.vouchers
                .iter()
                .map(|slot| slot.is_some_and(|k| self.layout.unescaped(k, state))),
        );
        let cw = self.layout.constant_words();
        let failure = match invariant_held {
            Some(held) if held[..cw] == state[..cw] => {
                changed.clear();
                changed.extend(
                    self.layout.slots()[self.layout.constant_count()..]
                        .iter()
                        .map(|slot| {
                            let words = slot.offset..slot.offset + slot.codec.width();
                            held[words.clone()] != state[words]
                        }),
                );
                self.interpreter.check_invariant_except(
                    constants,
                    variables,
                    Some(changed),
                    vouched,
                )?
            }
            _ => self
                .interpreter
                .check_invariant_except(constants, variables, None, vouched)?,
        };
        if failure.is_none() {
            match invariant_held {
                Some(held) => held.copy_from_slice(state),
                None => *invariant_held = Some(state.to_vec()),
            }
        }
        Ok(failure)
    }

    fn violation(&self, kind: ViolationKind, failure: &PropertyFailure) -> Violation {
        let what = match kind {
            ViolationKind::Invariant => "invariant",
            ViolationKind::Assertion => "assertion",
            ViolationKind::Liveness => "liveness property",
            ViolationKind::Ltl => "LTL property",
        };
        Violation {
            kind,
            message: format!(
                "{what} `{}` is false ({})",
                failure.text.trim(),
                self.file.location(failure.span)
            ),
        }
    }
}

/// Renders a well-definedness error with its source location.
pub fn render_eval_error(file: &SourceFile, e: &EvalError) -> ModelError {
    if let Some(reason) = e.stopped {
        return ModelError::stopped(reason);
    }
    ModelError::new(format!("{} ({})", e.message, file.location(e.span)))
}

impl Model for BSystem {
    type Scratch = BScratch;

    fn new_scratch(&self) -> BScratch {
        BScratch {
            constants: Vec::new(),
            variables: Vec::new(),
            constant_key: None,
            variable_key: None,
            out: Vec::new(),
            rewritten: Vec::new(),
            words: Vec::new(),
            packed: Vec::new(),
            invariant_held: None,
            changed: Vec::new(),
            vouched: Vec::new(),
            tables: self.layout.element_tables(),
            out_of_scope: false,
            instances: self
                .instances
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .clone(),
        }
    }

    fn state_width(&self) -> usize {
        self.layout.packer().width()
    }

    /// States are packed to bits: bytes past the last slot's are zero.
    fn state_bytes(&self) -> usize {
        self.layout.packer().significant_bytes()
    }

    /// The packed words each slot's bits fall in.
    fn slots(&self) -> Vec<SlotInfo> {
        self.layout
            .slots()
            .iter()
            .map(|slot| {
                self.layout
                    .packer()
                    .slot(&slot.name, slot.offset, slot.codec.width())
            })
            .collect()
    }

    fn groups(&self) -> &[GroupInfo] {
        &self.groups
    }

    fn initial_states(
        &self,
        _scratch: &mut BScratch,
        emit: &mut dyn FnMut(&dyn crate::model::Step, &[u64]),
    ) -> Result<(), ModelError> {
        self.for_each_initial(&|_| true, emit)
    }

    fn initial_states_of(
        &self,
        _scratch: &mut BScratch,
        keep: &dyn Fn(usize) -> bool,
        emit: &mut dyn FnMut(&dyn crate::model::Step, &[u64]),
    ) -> Result<(), ModelError> {
        self.for_each_initial(keep, emit)
    }

    #[inline]
    fn successors(
        &self,
        scratch: &mut BScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&dyn crate::model::Step, &[u64]),
    ) -> Result<(), ModelError> {
        let instances = scratch.instances.take();
        let words = self.unpack(scratch, state);
        let mut packed = std::mem::take(&mut scratch.packed);
        let mut unpackable = false;
        let result = self.for_each_successor(scratch, &words, &mut |step, s| {
            let step = OperationStep {
                system: self,
                instances: instances.as_deref(),
                step,
            };
            if self.layout.pack_from(&words, state, s, &mut packed).is_ok() {
                emit(&step, &packed)
            } else {
                unpackable = true;
            }
        });
        scratch.instances = instances;
        scratch.words = words;
        scratch.packed = packed;
        match result {
            Ok(()) if unpackable => Err(self.encode_error()),
            result => result,
        }
    }

    fn left_scope(&self, scratch: &BScratch) -> bool {
        scratch.out_of_scope
    }

    fn check_state(
        &self,
        scratch: &mut BScratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        let words = self.unpack(scratch, state);
        self.decode(scratch, &words);
        let invariant = if self.check_invariant {
            self.check_invariant_incrementally(scratch, &words)
        } else {
            Ok(None)
        };
        scratch.words = words;
        if let Some(f) = invariant.map_err(|e| self.error(&e))? {
            return Ok(Some(self.violation(ViolationKind::Invariant, &f)));
        }
        if !self.check_assertions {
            return Ok(None);
        }
        let (c, v) = (&scratch.constants, &scratch.variables);
        if let Some(f) = self
            .interpreter
            .check_assertions(c, v)
            .map_err(|e| self.error(&e))?
        {
            return Ok(Some(self.violation(ViolationKind::Assertion, &f)));
        }
        Ok(None)
    }

    fn has_goal(&self) -> bool {
        self.interpreter.has_goal()
    }

    /// A predicate atom of an LTL formula the machine was loaded with (its
    /// `ASSERT_LTL` definitions, `--ltl`), parsed and typed with the
    /// machine.
    fn state_predicate(&self, text: &str) -> Result<StatePredicate<'_, BScratch>, String> {
        let k = self.interpreter.ltl_atom_index(text).ok_or_else(|| {
            format!("the predicate `{text}` was not loaded with the machine (give it with --ltl)")
        })?;
        Ok(Box::new(move |scratch: &mut BScratch, state: &[u64]| {
            self.load(scratch, state);
            self.interpreter
                .ltl_atom(k, &scratch.constants, &scratch.variables)
                .map_err(|e| self.error(&e))
        }))
    }

    /// A step atom with arguments the machine was loaded with: the values
    /// of its arguments in a state, as B values.
    fn step_arguments(
        &self,
        op: &str,
        args: &[Option<String>],
    ) -> Result<crate::model::StepArguments<'_, BScratch>, String> {
        let text = crate::temporal::ltl::Atom::TakenWith(op.to_string(), args.to_vec()).to_string();
        let k = self.interpreter.ltl_step_index(&text).ok_or_else(|| {
            format!("the atom `{text}` was not loaded with the machine (give it with --ltl)")
        })?;
        Ok(Box::new(move |scratch: &mut BScratch, state: &[u64]| {
            self.load(scratch, state);
            let values = self
                .interpreter
                .ltl_step_arguments(k, &scratch.constants, &scratch.variables)
                .map_err(|e| self.error(&e))?;
            Ok(values
                .into_iter()
                .map(|v| v.map(|v| Box::new(v) as Box<dyn std::any::Any + Send>))
                .collect())
        }))
    }

    fn predicate_reads(&self, text: &str) -> Option<Vec<usize>> {
        self.ltl_reads
            .iter()
            .find(|(t, _)| t == text)
            .map(|(_, reads)| reads.clone())
    }

    fn ltl_assertions(&self) -> Vec<(String, String)> {
        self.ltl.clone()
    }

    /// An operation is one group for all its parameters, which the
    /// permutations of the deferred sets map to itself.
    fn groups_commute_with_symmetry(&self) -> bool {
        true
    }

    fn is_goal(&self, scratch: &mut BScratch, state: &[u64]) -> Result<bool, ModelError> {
        self.load(scratch, state);
        self.interpreter
            .goal(&scratch.constants, &scratch.variables)
            .map_err(|e| self.error(&e))
    }

    fn no_initial_state(&self) -> String {
        if self.layout.constant_count() > 0 && self.valuations.is_empty() {
            format!(
                "PROPERTIES has no solution: no valuation of the constants satisfies it ({})",
                self.file.name
            )
        } else if self.valuations.is_empty() {
            // No constants: the properties are a closed predicate, and false.
            format!("PROPERTIES is false ({})", self.file.name)
        } else {
            format!(
                "INITIALISATION has no outcome{} ({})",
                if self.layout.constant_count() > 0 {
                    " for any valuation of the constants"
                } else {
                    ""
                },
                self.file.name
            )
        }
    }

    fn exports_context(&self) -> bool {
        self.layout.refers_by_id()
    }

    fn export_context(&self, state: &[u64], fresh: &mut dyn FnMut(u64) -> bool, out: &mut Vec<u8>) {
        self.layout.export_values(state, fresh, out);
    }

    fn import_context(&self, bytes: &[u8]) -> Result<(), String> {
        self.layout.import_values(bytes)
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        let mut words = Vec::new();
        self.layout.unpack(state, &mut words);
        let state = &words;
        self.layout
            .slots()
            .iter()
            .enumerate()
            .map(|(k, slot)| {
                (
                    slot.name.clone(),
                    self.format_slot(k, &self.layout.decode_slot(slot, state)),
                )
            })
            .collect()
    }
}

/// The step of an operation, as the model interface sees it.
struct OperationStep<'a, 'v> {
    system: &'a BSystem,
    instances: Option<&'a Instances>,
    step: &'a Step<'v>,
}

impl crate::model::Step for OperationStep<'_, '_> {
    #[inline]
    fn group(&self) -> usize {
        self.step.op
    }

    #[inline]
    fn instance(&self) -> Option<usize> {
        self.instances?.instance(self.step.op, self.step.params)
    }

    fn label(&self) -> String {
        self.system.interpreter.format_step(self.step)
    }

    fn argument_is(&self, k: usize, value: &dyn std::any::Any) -> Option<bool> {
        let value = value.downcast_ref::<Value>()?;
        Some(self.step.params.get(k)? == value)
    }
}

/// The step to an initial state: SETUP_CONSTANTS (if any) and
/// INITIALISATION.
struct InitialStep<'a> {
    system: &'a BSystem,
    constants: &'a [Value],
    /// Index of the constant valuation.
    valuation: usize,
}

impl crate::model::Step for InitialStep<'_> {
    fn group(&self) -> usize {
        INITIAL_GROUP
    }

    fn initial_class(&self) -> Option<usize> {
        Some(self.valuation)
    }

    fn label(&self) -> String {
        self.system.initial_label(self.constants)
    }
}
