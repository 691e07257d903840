//! The contract between a front end (B, later Murphi) and the engine.
//!
//! A front end compiles its model into a [`TransitionSystem`]: a set of
//! initial states, a successor function and a few state predicates. The
//! engine knows nothing else about the model. States are flat slices of
//! `u64` words of one fixed width per system ([`TransitionSystem::state_width`]);
//! the engine hashes, compares and stores them as plain words.
//!
//! # Determinism contract
//! For the same state, [`TransitionSystem::successors`] and
//! [`TransitionSystem::labelled_successors`] must emit the same successors in
//! the same order, on every call and every thread. The engine relies on it to
//! rebuild counterexamples: it keeps only parent links and replays the
//! labelled successor function of each parent to find the step that led to
//! the child (as stateright does). Two states are the same state exactly when
//! their words are equal: the encoding must be canonical (a set has one
//! encoding, whatever order its elements were added in).

use std::fmt;

/// A property of a single state that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which kind of property failed.
    pub kind: ViolationKind,
    /// Human-readable description, e.g. the failing invariant conjunct.
    pub message: String,
}

/// The kinds of state property a front end can report as violated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationKind {
    /// An invariant conjunct is false.
    Invariant,
    /// An assertion (a theorem about reachable states) is false.
    Assertion,
    /// A liveness property (AG EF p) fails: from the trace's last state no
    /// state satisfying it is reachable. Found after the search, on the
    /// whole state graph, never by `check_state`.
    Liveness,
    /// An LTL property fails: the trace is a lasso (a run that repeats
    /// its last steps forever) on which the formula is false. Found after
    /// the search, never by `check_state`.
    Ltl,
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ViolationKind::Invariant => "invariant violation",
            ViolationKind::Assertion => "assertion violation",
            ViolationKind::Liveness => "liveness violation",
            ViolationKind::Ltl => "LTL property violated",
        })
    }
}

/// An error in the model met while exploring: a well-definedness failure
/// (function applied outside its domain, division by zero, an unbounded
/// enumeration, ...). The engine reports it with the trace that reached it.
///
/// A system whose computation was cut short because the run's budget ran
/// out ([`crate::budget::tripped`]) returns a `ModelError` with `stopped`
/// set: the engine then reports an incomplete search, not a model error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// What went wrong, including where in the model (file:line:column).
    pub message: String,
    /// Set when this is no error of the model but the run's budget running
    /// out in the middle of a computation.
    pub stopped: Option<crate::report::StopReason>,
    /// Set when a declaration of the model was found not to hold (a
    /// declared symmetry that the transitions break): the model is refused
    /// rather than found wrong, and no verdict about its states stands.
    pub refused: bool,
}

impl ModelError {
    /// A model error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        ModelError {
            message: message.into(),
            stopped: None,
            refused: false,
        }
    }

    /// The model is refused: a declaration it makes does not hold.
    pub fn refused(message: impl Into<String>) -> Self {
        ModelError {
            message: message.into(),
            stopped: None,
            refused: true,
        }
    }

    /// Not an error of the model: the run's budget ran out (`reason`)
    /// while computing.
    pub fn stopped(reason: crate::report::StopReason) -> Self {
        ModelError {
            message: format!("stopped: {reason}"),
            stopped: Some(reason),
            refused: false,
        }
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ModelError {}

/// A successor together with the label of the transition that produced it.
/// Used only to print counterexamples, never on the hot path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledState {
    /// The transition label, e.g. `enter(PID1)` or `r <-- op(2)`.
    pub label: String,
    /// The successor state's words.
    pub state: Box<[u64]>,
}

/// How [`TransitionSystem::reduced_successors`] expanded a state (partial
/// order reduction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// Every successor was emitted.
    Full,
    /// Only the successors of a proper ample set were emitted.
    Ample {
        /// Whether the cycle proviso applies: if one of the emitted
        /// successors is already in the visited set, the engine must also
        /// take [`TransitionSystem::remaining_successors`] (the state is then
        /// fully expanded). Without it (deadlock-only checking) the ample
        /// set is final.
        proviso: bool,
    },
}

/// A model as the engine sees it. See the module docs for the determinism
/// contract.
pub trait TransitionSystem: Sync {
    /// Per-thread working memory (evaluation buffers, canonicaliser
    /// workspace, ...). Each worker thread makes one with
    /// [`TransitionSystem::new_scratch`] and passes it to every hot-path call.
    type Scratch: Send;

    /// A fresh scratch space for one worker thread.
    fn new_scratch(&self) -> Self::Scratch;

    /// Number of `u64` words in every state of this system.
    fn state_width(&self) -> usize;

    /// Bytes of a state that can be non-zero: every state's words, written
    /// little-endian one after the other, are zero past this many bytes
    /// (checked in debug builds). The stores keep only these bytes, so a
    /// front end that packs its states to bits should say so; the default
    /// (`8 * state_width()`) is always correct.
    fn state_bytes(&self) -> usize {
        8 * self.state_width()
    }

    /// Whether a state whose every successor is the state itself is a
    /// deadlock too (CMurphi's and Rumur's default: a state that can only
    /// stutter is stuck). Default `false`: a deadlock is a state without
    /// successors.
    fn stutter_is_deadlock(&self) -> bool {
        false
    }

    /// After [`TransitionSystem::successors`] or
    /// [`TransitionSystem::reduced_successors`] of a state with this
    /// scratch: whether the state moves, that is some successor differs
    /// from it (or the system dropped one that did). Only asked when
    /// [`TransitionSystem::stutter_is_deadlock`] is true, and then it
    /// alone decides (`false` with no successor at all); a system that
    /// says so must keep it exact (a reduced expansion that only stutters
    /// must fall back to a full one).
    fn moved(&self, _scratch: &Self::Scratch) -> bool {
        true
    }

    /// After [`TransitionSystem::successors`] or
    /// [`TransitionSystem::reduced_successors`] of a state with this
    /// scratch: whether the system dropped a successor (one outside the
    /// model's scope). A state that has one is no deadlock, even without
    /// successors. Default `false`.
    fn discarded(&self, _scratch: &Self::Scratch) -> bool {
        false
    }

    /// Emits every initial state, in a deterministic order. Duplicates are
    /// allowed (the engine deduplicates).
    fn initial_states(
        &self,
        scratch: &mut Self::Scratch,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError>;

    /// Emits every successor of `state`, in a deterministic order.
    /// Duplicates are allowed. Hot path: must not allocate per successor.
    fn successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError>;

    /// Whether the engine should expand states through
    /// [`TransitionSystem::reduced_successors`] (partial order reduction).
    /// Systems without a reduction keep the default `false` and cost the
    /// engine nothing.
    fn reduces(&self) -> bool {
        false
    }

    /// Emits the successors of an ample set of `state` (a subset of
    /// [`TransitionSystem::successors`], empty only if that is empty) and
    /// says whether it was proper. Deterministic like `successors`. Only
    /// called when [`TransitionSystem::reduces`] is true.
    fn reduced_successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<Expansion, ModelError> {
        self.successors(scratch, state, emit)?;
        Ok(Expansion::Full)
    }

    /// After [`TransitionSystem::reduced_successors`] returned
    /// [`Expansion::Ample`] for `state`, emits the successors it left out,
    /// so that both calls together emit every successor. The engine calls it
    /// right after `reduced_successors` on the same scratch (the cycle
    /// proviso).
    fn remaining_successors(
        &self,
        _scratch: &mut Self::Scratch,
        _state: &[u64],
        _emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        Ok(())
    }

    /// The initial states with labels, in the same order as
    /// [`TransitionSystem::initial_states`]. For counterexamples only.
    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError>;

    /// The successors of `state` with labels, in the same order as
    /// [`TransitionSystem::successors`]. For counterexamples only.
    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError>;

    /// Checks the state properties (invariant, assertions) of `state`.
    fn check_state(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError>;

    /// Whether the model defines a goal predicate.
    fn has_goal(&self) -> bool {
        false
    }

    /// Whether `state` satisfies the goal predicate (false if there is none).
    fn is_goal(&self, _scratch: &mut Self::Scratch, _state: &[u64]) -> Result<bool, ModelError> {
        Ok(false)
    }

    /// The state as (variable name, printed value) pairs, for traces.
    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)>;

    /// Whether the system floods (see [`TransitionSystem::flood`]); off by
    /// default, so the engine skips the hook entirely.
    fn floods(&self) -> bool {
        false
    }

    /// Permutation flooding (Leuschel et al., [Leuschel et al. 2007],
    /// Algorithm 3.1): emits the states symmetric to `state`, which the
    /// engine has just stored as new (its whole orbit; `state` itself and
    /// duplicates allowed). The engine stores them in its visited set as
    /// seen, without checking or expanding them, so one state per orbit is
    /// explored. Called only when [`TransitionSystem::floods`].
    fn flood(&self, _scratch: &mut Self::Scratch, _state: &[u64], _emit: &mut dyn FnMut(&[u64])) {}

    /// Whether a state's words refer to values kept outside them (B's
    /// values without a flat encoding are ids into a table of the
    /// process): a distributed search then ships them with the states
    /// ([`TransitionSystem::export_context`]). Off by default.
    fn exports_context(&self) -> bool {
        false
    }

    /// Appends to `out` the values `state` refers to by id that another
    /// process needs to evaluate it, for each id for which `fresh` returns
    /// true (the ids not yet sent to that process; `fresh` records them).
    /// Only called when [`TransitionSystem::exports_context`].
    fn export_context(
        &self,
        _state: &[u64],
        _fresh: &mut dyn FnMut(u64) -> bool,
        _out: &mut Vec<u8>,
    ) {
    }

    /// Makes the values [`TransitionSystem::export_context`] wrote (in
    /// another process of the same build and model) known here, before a
    /// state that refers to them is checked or expanded.
    fn import_context(&self, _bytes: &[u8]) -> Result<(), String> {
        Ok(())
    }
}
