//! The language-neutral model interface: the contract between a front end
//! (B, Murphi) and everything above it — the reductions
//! ([`crate::symmetry`], [`crate::por`]), the layer stack
//! ([`crate::checker`]) and the engine (`workers`). LTSmin calls this
//! layer PINS; orbit's design follows it in spirit: fixed-width states,
//! transition groups with read/write dependency information, state labels
//! (the checked properties), and hooks for symmetry.
//!
//! ```text
//! front end ──> Model ──┬──> por::PorLayer         (ample sets over groups)
//!   (B, ...)      │     ├──> symmetry::SymmetryLayer (representatives)
//!                 │     └──> checker::Layered ──> workers::explore
//!       StateSymmetry ──┘     (one TransitionSystem for the engine)
//! ```
//!
//! # What a front end guarantees
//! - **Fixed width, canonical encoding.** Every state is
//!   [`Model::state_width`] `u64` words, and two states are the same state
//!   exactly when their words are equal (a set has one encoding, whatever
//!   the order its elements were added in; an encoded value means the same
//!   in every thread). Both front ends pack their states to bits with a
//!   [`Packer`] and declare the bytes that can be non-zero
//!   ([`Model::state_bytes`]), which is all the stores keep.
//! - **Determinism.** For one state, [`Model::successors`] emits the same
//!   successors with the same [`Step`]s in the same order on every call and
//!   every thread; likewise [`Model::initial_states`]. Counterexamples are
//!   rebuilt by replaying successors, and their labels come from the very
//!   calls the search makes ([`Step::label`]): there is no second
//!   successor function that must agree by convention.
//! - **Transition groups.** Every successor comes from one group
//!   ([`Step::group`], an index into [`Model::groups`]): a B operation, a
//!   Murphi rule. A front end may refine a group into *instances*
//!   ([`Step::instance`]: a B operation with fixed parameters, a Murphi
//!   ruleset instance), each a group of its own for partial order reduction.
//!   Each [`GroupInfo`] says which slots the group's guard reads and its
//!   action reads and writes; a group changes no slot it does not write.
//! - **Symmetry** (optional, [`StateSymmetry`]): the permutable domains
//!   (scalarsets, deferred sets), how a permutation acts on a state, and
//!   the state as a coloured graph whose automorphisms restricted to the
//!   domain elements are exactly the permutations fixing the state. The
//!   transition relation and the checked properties must commute with the
//!   permutations.

mod independence;
mod pack;
mod permutation;
mod symmetry;

pub use independence::{GroupSet, Independence, Instances, Relations};
pub use pack::{Packer, bits_for};
pub use symmetry::{
    NoSymmetry, Permutable, Permutation, StateGraph, StateSymmetry, all_permutations,
};
pub use workers::{ModelError, Violation, ViolationKind};

/// The group of the step that produced an initial state.
pub const INITIAL_GROUP: usize = usize::MAX;

/// One transition group of a model, with what it reads and writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupInfo {
    /// The group's name, e.g. the B operation `enter`.
    pub name: String,
    /// Slots its guard reads.
    pub guard_reads: Vec<usize>,
    /// Slots its action reads.
    pub action_reads: Vec<usize>,
    /// Slots its action may write.
    pub writes: Vec<usize>,
}

/// One slot of the state vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotInfo {
    /// The name of the variable (or constant) it holds.
    pub name: String,
    /// Its first word.
    pub offset: usize,
    /// Its number of words.
    pub words: usize,
}

/// The transition that produced a successor (or an initial state), as the
/// front end describes it to the layers above.
pub trait Step {
    /// The transition group: an index into [`Model::groups`], or
    /// [`INITIAL_GROUP`] for an initial state.
    fn group(&self) -> usize;

    /// The instance of the group, when the front end refines groups into
    /// instances for partial order reduction (an index into the
    /// [`Instances`] of the model's [`Independence`]); `None` when it does
    /// not, or for a transition outside the analysed instances (such a
    /// state is expanded fully). Called only by partial order reduction.
    fn instance(&self) -> Option<usize> {
        None
    }

    /// For an initial state: the class of initial states it belongs to (B:
    /// its constant valuation), so that a symmetry layer may set up one
    /// class per orbit of classes
    /// ([`StateSymmetry::skips_initial_class`]); `None` by default.
    fn initial_class(&self) -> Option<usize> {
        None
    }

    /// The transition's label for traces, e.g. `r <-- op(2)`. Called only
    /// to print counterexamples.
    fn label(&self) -> String;

    /// Whether the transition's `k`-th argument equals `value`, a value of
    /// the front end's own type as its [`StepArguments`] computes them;
    /// `None` when the step has no such argument.
    fn argument_is(&self, k: usize, value: &dyn std::any::Any) -> Option<bool> {
        let _ = (k, value);
        None
    }
}

/// A model as every layer above the front end sees it. See the module docs
/// for what an implementation must guarantee.
pub trait Model: Sync {
    /// Per-thread working memory (evaluation and decoding buffers).
    type Scratch: Send;

    /// A fresh scratch space for one worker thread.
    fn new_scratch(&self) -> Self::Scratch;

    /// Number of `u64` words in every state.
    fn state_width(&self) -> usize;

    /// Bytes of a state that can be non-zero: every state's words, written
    /// little-endian, are zero past this many bytes. A front end that packs
    /// states to bits says so here and the stores keep only these bytes;
    /// the default (`8 * state_width()`) is always correct.
    fn state_bytes(&self) -> usize {
        8 * self.state_width()
    }

    /// Whether a state whose every successor is itself is a deadlock
    /// (CMurphi's and Rumur's default, "stuttering"); `false` (the
    /// default, ProB's): only a state without successors is.
    fn stutter_is_deadlock(&self) -> bool {
        false
    }

    /// After [`Self::successors`] with this scratch: whether the model
    /// itself dropped a successor other than the state (Rumur's `assume`
    /// properties discard states). Such a state still moves, so it is no
    /// stuttering deadlock. Default `false`.
    fn discarded_a_move(&self, _scratch: &Self::Scratch) -> bool {
        false
    }

    /// After [`Self::successors`] with this scratch: whether a successor
    /// was dropped for lying outside the model's scope (ProB's `SCOPE`
    /// definition). A state with such a successor has a transition, so it
    /// is no deadlock. Default `false`.
    fn left_scope(&self, _scratch: &Self::Scratch) -> bool {
        false
    }

    /// The slots of the state vector, in order.
    fn slots(&self) -> Vec<SlotInfo>;

    /// The transition groups, in order.
    fn groups(&self) -> &[GroupInfo];

    /// Emits every initial state with its step (group [`INITIAL_GROUP`]),
    /// in a deterministic order; duplicates are allowed.
    fn initial_states(
        &self,
        scratch: &mut Self::Scratch,
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError>;

    /// [`Self::initial_states`] restricted to the initial classes
    /// ([`Step::initial_class`]) that `keep` accepts (states without a
    /// class are always emitted). A front end overrides it to skip the work
    /// of the classes left out; the default filters.
    fn initial_states_of(
        &self,
        scratch: &mut Self::Scratch,
        keep: &dyn Fn(usize) -> bool,
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        self.initial_states(scratch, &mut |step, s| {
            if step.initial_class().is_none_or(keep) {
                emit(step, s)
            }
        })
    }

    /// Emits every successor of `state` with the step that produced it, in
    /// a deterministic order; duplicates are allowed. Hot path: must not
    /// allocate per successor.
    fn successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError>;

    /// The state labels that are checked on every state: the first false
    /// invariant conjunct or assertion of `state`, if any.
    fn check_state(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError>;

    /// Whether the model defines a goal label.
    fn has_goal(&self) -> bool {
        false
    }

    /// Whether `state` satisfies the goal label (false if there is none).
    fn is_goal(&self, _scratch: &mut Self::Scratch, _state: &[u64]) -> Result<bool, ModelError> {
        Ok(false)
    }

    /// The state as (slot name, printed value) pairs, for traces.
    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)>;

    /// The groups at the current location of their process in `state`
    /// (enabled or not), into `out`, for models whose groups belong to
    /// processes with program counters ([`Relations::with_owners`]):
    /// partial order reduction then knows that a group of a process
    /// elsewhere cannot run before that process moves. `false` (the
    /// default): the model has no such notion.
    fn current_groups(
        &self,
        _scratch: &mut Self::Scratch,
        _state: &[u64],
        _out: &mut GroupSet,
    ) -> bool {
        false
    }

    /// What a deadlock is called in the model's language, as the
    /// summary's headline (Promela: SPIN's "invalid end state"); `None`:
    /// orbit's generic wording.
    fn deadlock_headline(&self) -> Option<String> {
        None
    }

    /// Why the model has no initial state, when [`Self::initial_states`]
    /// emitted none: a search of nothing is an error of the model, never
    /// "no error found".
    fn no_initial_state(&self) -> String {
        "the model has no initial state".to_string()
    }

    /// After a complete search: what a property that can only be judged
    /// on the whole state space says is wrong (Murphi's `cover`: a
    /// condition no reachable state met), if anything. The checker then
    /// reports it as the run's error instead of "no error found".
    fn after_complete_search(&self) -> Option<String> {
        None
    }

    /// Compiles `text`, a state predicate in the model's own language (the
    /// atom `{text}` of an LTL formula), for evaluation on the model's
    /// states; an error says what is wrong with it (or that the language
    /// has no such predicates).
    fn state_predicate(&self, text: &str) -> Result<StatePredicate<'_, Self::Scratch>, String> {
        Err(format!(
            "not supported yet: state predicates (`{{{text}}}`) in LTL formulas for this language"
        ))
    }

    /// Compiles the arguments `args` of the LTL step atom `[op(args)]`
    /// (expressions in the model's language, evaluated in the state the
    /// step leaves; `None`: any value); an error says what is wrong with
    /// them, or that the language has no such atoms.
    fn step_arguments(
        &self,
        op: &str,
        args: &[Option<String>],
    ) -> Result<StepArguments<'_, Self::Scratch>, String> {
        let _ = args;
        Err(format!(
            "not supported yet: arguments in the step atom `[{op}(...)]` for this language"
        ))
    }

    /// The slots (indices into [`Self::slots`]) that the state predicate
    /// `text` reads, as [`Self::state_predicate`] compiles it; `None` when
    /// the front end cannot say (partial order reduction then refuses an
    /// LTL property with the atom `{text}`).
    fn predicate_reads(&self, _text: &str) -> Option<Vec<usize>> {
        None
    }

    /// Whether every transition group is left unchanged by the symmetry's
    /// permutations (a Murphi ruleset is one group for all its instances,
    /// a B operation one for all its parameters): then LTL's `e(op)`,
    /// `[op]` and fairness are invariant and may run under symmetry
    /// reduction. `false` by default (groups per process or element).
    fn groups_commute_with_symmetry(&self) -> bool {
        false
    }

    /// The LTL properties the model states itself (B: its `ASSERT_LTL...`
    /// definitions), as (name, formula) in ProB's syntax; none by default.
    fn ltl_assertions(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// After a search: how often each of the model's `cover` properties
    /// and statements was hit (states that satisfy a property, executions
    /// of a statement whose condition was true), as Rumur reports them;
    /// none by default.
    fn cover_counts(&self) -> Vec<CoverCount> {
        Vec::new()
    }

    /// The model's liveness properties (Rumur's `liveness`): state
    /// predicates `p` such that from every reachable state a state
    /// satisfying `p` stays reachable (CTL's AG EF p). Checked by
    /// [`crate::temporal::liveness`] after a complete search; none by
    /// default.
    fn liveness_properties(&self) -> Vec<LivenessProperty> {
        Vec::new()
    }

    /// The liveness property that permutation `perm` of the symmetry's
    /// domains maps property `index` to: for an instance of a family that
    /// names an element ([`LivenessProperty::names_element_of`]), the
    /// instance naming the element's image (so that `p_index(s)` holds
    /// exactly when `p_image(perm(s))` does), `None` when the model has
    /// no such instance (the family is not closed under the permutations);
    /// `index` itself for the others (the default).
    fn liveness_image(&self, index: usize, _perm: &Permutation) -> Option<usize> {
        Some(index)
    }

    /// Whether `state` satisfies liveness property `index` (an index into
    /// [`Self::liveness_properties`]).
    fn liveness_holds(
        &self,
        _scratch: &mut Self::Scratch,
        _state: &[u64],
        _index: usize,
    ) -> Result<bool, ModelError> {
        Ok(true)
    }

    /// Whether a state's words refer to values kept outside them (see
    /// [`workers::TransitionSystem::exports_context`]); default no.
    fn exports_context(&self) -> bool {
        false
    }

    /// Appends the values `state` refers to by id and for which `fresh`
    /// returns true (see [`workers::TransitionSystem::export_context`]).
    fn export_context(
        &self,
        _state: &[u64],
        _fresh: &mut dyn FnMut(u64) -> bool,
        _out: &mut Vec<u8>,
    ) {
    }

    /// Makes values written by [`Model::export_context`] known here.
    fn import_context(&self, _bytes: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

/// A state predicate a front end compiled (see [`Model::state_predicate`]):
/// whether a state satisfies it, with the model's per-thread buffers.
pub type StatePredicate<'m, Sc> =
    Box<dyn Fn(&mut Sc, &[u64]) -> Result<bool, ModelError> + Send + Sync + 'm>;

/// The arguments of a step atom `[op(a1, ..., an)]` a front end compiled
/// (see [`Model::step_arguments`]): their values in a state, in the front
/// end's own value type, `None` for an empty argument (any value). A step
/// matches when each value is its argument's ([`Step::argument_is`]).
pub type StepArguments<'m, Sc> = Box<
    dyn Fn(&mut Sc, &[u64]) -> Result<Vec<Option<Box<dyn std::any::Any + Send>>>, ModelError>
        + Send
        + Sync
        + 'm,
>;

/// How often one `cover` of a model was hit in a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverCount {
    /// Its name, e.g. `x reaches 3`.
    pub name: String,
    /// States (a property) or executions (a statement) that met it.
    pub hits: u64,
}

/// One liveness property of a model (one instance of a quantified family).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LivenessProperty {
    /// Its name as reports give it, e.g. `x is y, y:3`.
    pub name: String,
    /// Where the model states it (`file:line:column`).
    pub place: String,
    /// The permutable domain it names an element of (a ruleset parameter
    /// of a scalarset type), if any: such an instance is not invariant
    /// under symmetry reduction's permutations, which then checks the
    /// family through [`Model::liveness_image`].
    pub names_element_of: Option<String>,
}
