//! The JSON report of `orbit check --json`: serde structs whose shape is
//! fixed by the JSON Schema in `schema/check-report.schema.json` (printed
//! by `orbit schema check`; the integration tests validate every report
//! they produce against it).
//!
//! Compatibility: [`SCHEMA_VERSION`] changes whenever a field is removed,
//! renamed or changes meaning; new optional fields keep the version.

use serde::Serialize;
use serde::ser::SerializeMap;

/// Version of the report's shape (the `schema_version` field).
pub const SCHEMA_VERSION: u32 = 1;

/// The JSON Schema of [`CheckReport`] (draft 2020-12).
pub const CHECK_REPORT_SCHEMA: &str = include_str!("schema/check-report.schema.json");

/// The JSON Schema of `orbit por --json` (draft 2020-12).
pub const POR_ANALYSIS_SCHEMA: &str = include_str!("schema/por-analysis.schema.json");

/// Everything `orbit check` reports about one run.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The model file as given on the command line.
    pub model: String,
    /// The verdict.
    pub result: Verdict,
    /// Why an incomplete search stopped (only with `result: "stopped"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<StopCause>,
    /// The violated property, the model error, or why the search stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Distinct states stored, checked and expanded (orbits with symmetry).
    pub states: u64,
    /// Successor edges of the explored states.
    pub transitions: u64,
    /// Valuations of the constants (orbits of them with symmetry).
    pub constant_valuations: u64,
    /// Distinct initial states.
    pub initial_states: u64,
    /// Figures of the search; absent when the model failed before it.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchFigures>,
    /// The symmetry reduction, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<SymmetryReport>,
    /// The partial order reduction, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub por: Option<PorReport>,
    /// How often each `cover` of the model was hit (Murphi), in the order
    /// of the model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<CoverReport>,
    /// The liveness check, when the model has liveness properties and the
    /// search was complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub liveness: Option<LivenessReport>,
    /// The counterexample: the initialisation, then one step per operation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<TraceStep>,
    /// For a lasso (an LTL counterexample): the index in `trace` of the
    /// step the run returns to after its last step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle_start: Option<usize>,
    /// The LTL properties checked (up to the first that failed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ltl: Vec<LtlReport>,
    /// Why no counterexample could be rebuilt, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_error: Option<String>,
    /// The bound the user put on the exploration (`--bound-integers`), if
    /// any: a result `ok` covers the states within it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounded: Option<String>,
    /// Why the search was approximate (`--symmetry markers`), if it was: a
    /// result `ok` covers the states it visited, which may miss whole
    /// orbits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approximate: Option<String>,
    /// With `result: "refused"`: what is wrong with the model or the
    /// flags, one entry per error.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<super::refusal::DiagnosticReport>,
}

impl CheckReport {
    /// The report of a run that ended before its search: nothing counted.
    pub fn before_search(model: &std::path::Path, result: Verdict, message: String) -> Self {
        CheckReport {
            schema_version: SCHEMA_VERSION,
            model: model.display().to_string(),
            result,
            stopped: None,
            message: Some(message),
            states: 0,
            transitions: 0,
            constant_valuations: 0,
            initial_states: 0,
            search: None,
            symmetry: None,
            por: None,
            covers: Vec::new(),
            liveness: None,
            cycle_start: None,
            ltl: Vec::new(),
            trace: Vec::new(),
            trace_error: None,
            bounded: None,
            approximate: None,
            diagnostics: Vec::new(),
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every reachable state was explored and no error found (exit 0).
    Ok,
    /// An invariant is false in a reachable state (exit 1).
    InvariantViolation,
    /// An assertion is false in a reachable state (exit 1).
    AssertionViolation,
    /// A liveness property fails: from the trace's last state no state
    /// satisfying it is reachable (exit 1).
    LivenessViolation,
    /// An LTL property is false on a fair run: the trace is a lasso, see
    /// `cycle_start` (exit 1).
    LtlViolation,
    /// A reachable state has no enabled operation, or (Murphi's stuttering
    /// deadlocks) none that leads to another state (exit 1).
    Deadlock,
    /// A reachable state satisfies GOAL, with `--goal` (exit 1).
    GoalFound,
    /// The model is ill-defined (exit 1).
    ModelError,
    /// The search did not explore everything: see `stopped` (exit 3).
    Stopped,
    /// The model or the flags were refused before anything ran (see
    /// `diagnostics`), or the search found a declaration of the model
    /// that does not hold, such as a symmetry its transitions break (see
    /// `message` and `trace`) (exit 2).
    Refused,
}

/// Why a search stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopCause {
    /// `--max-states` distinct states were stored.
    MaxStates,
    /// `--time-limit` elapsed.
    TimeLimit,
    /// The memory bound was reached.
    Memory,
    /// Ctrl-C (SIGINT).
    Interrupted,
    /// SIGTERM.
    Terminated,
    /// A worker thread could not be started or failed.
    WorkerFailure,
    /// The store could name no more states or tree nodes.
    StoreFull,
    /// A loop of the model ran orbit's iteration bound.
    LoopLimit,
    /// The model's calls nested as deep as orbit's bound.
    CallDepth,
}

/// Figures of a search that ran.
#[derive(Clone, Debug, Serialize)]
pub struct SearchFigures {
    /// Largest depth of a stored state (the BFS level with `--order bfs`).
    pub max_depth: u64,
    /// Wall time of the search, in seconds.
    pub wall_seconds: f64,
    /// Distinct states per second of wall time.
    pub states_per_second: f64,
    /// Bytes of the visited store at the end.
    pub store_bytes: u64,
    /// Bytes of the empty store (its initial table, and the first chunk
    /// of each column its first state takes).
    pub store_initial_bytes: u64,
    /// Bytes of one state as stored (packed to bits, rounded up to bytes),
    /// before the store's own costs (table slot, parent link).
    pub state_bytes: u64,
    /// Store bytes per distinct state; `null` while the store is under
    /// twice its initial size, where the figure would measure the table's
    /// fixed size rather than the states.
    pub store_bytes_per_state: Option<f64>,
    /// Peak resident memory of the process (`null` where unknown).
    pub peak_memory_bytes: Option<u64>,
    /// Worker threads used.
    pub threads: usize,
    /// With `--store tree`: the tree nodes stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree_nodes: Option<u64>,
    /// With `--compact`: the probability that a fingerprint collision hid
    /// a state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collision_probability: Option<f64>,
    /// With `--distributed`: the ranks of the job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_ranks: Option<usize>,
    /// With `--distributed`: each rank's figures, by rank; only the
    /// reporting rank's when it lost the others.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<RankReport>,
}

/// One element of `ranks`: one process of a distributed search.
#[derive(Clone, Debug, Serialize)]
pub struct RankReport {
    /// The rank.
    pub rank: usize,
    /// Distinct states the rank owns.
    pub states: u64,
    /// Successor edges its expansions emitted.
    pub transitions: u64,
    /// Bytes of its visited store.
    pub store_bytes: u64,
    /// States it sent to the ranks that own them.
    pub states_sent: u64,
    /// Messages it sent.
    pub messages_sent: u64,
    /// Bytes of those messages.
    pub bytes_sent: u64,
}

/// The `symmetry` object.
#[derive(Clone, Debug, Serialize)]
pub struct SymmetryReport {
    /// `canon`, `flood`, `markers` or `markers-exact`.
    pub mode: &'static str,
    /// Permutations in the symmetry group (saturating at 2^64 - 1).
    pub group_order: u64,
    /// Orbits of the constant valuations (the `constant_valuations` above).
    pub constant_orbits: u64,
    /// Constant valuations set up (ProB's normal form for symmetric
    /// constants) before they were reduced to orbits.
    pub constant_setups: u64,
    /// With flooding: states stored, all permutations included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flooded_states: Option<u64>,
    /// For modes that can miss states.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// One element of `ltl`: what checking one LTL property measured.
#[derive(Clone, Debug, Serialize)]
pub struct LtlReport {
    /// The property's name.
    pub name: String,
    /// Its formula.
    pub formula: String,
    /// States of the Büchi automaton of its negation.
    pub automaton_states: u64,
    /// States of the model's graph the product is made from.
    pub model_states: u64,
    /// States of the product of the model and the automaton that the
    /// search reached.
    pub product_states: u64,
    /// Edges of the product it followed.
    pub product_edges: u64,
    /// Bytes of the model's graph and of the search's marks.
    pub graph_bytes: u64,
    /// Wall time of the check.
    pub wall_seconds: f64,
}

/// One element of `covers`.
#[derive(Clone, Debug, Serialize)]
pub struct CoverReport {
    /// The cover's name.
    pub name: String,
    /// States (a property) or executions (a statement) that met it; with
    /// symmetry reduction, representatives.
    pub hits: u64,
}

/// The `liveness` object: what the check of the liveness properties
/// measured.
#[derive(Clone, Debug, Serialize)]
pub struct LivenessReport {
    /// Property instances checked.
    pub properties: u64,
    /// States of the explicit graph the check built.
    pub states: u64,
    /// Its edges, duplicates included.
    pub edges: u64,
    /// Bytes of the graph (states, edges, parents, labels).
    pub graph_bytes: u64,
    /// Wall time of the check.
    pub wall_seconds: f64,
}

/// The `por` object.
#[derive(Clone, Debug, Serialize)]
pub struct PorReport {
    /// States expanded through a proper ample set only.
    pub reduced_states: u64,
    /// Distinct states of the run.
    pub states: u64,
    /// States fully expanded by the cycle proviso.
    pub proviso_expansions: u64,
    /// Only deadlocks are checked: conditions A1 and A2, no proviso.
    pub deadlock_only: bool,
    /// Dependent pairs of operation instances.
    pub dependent_pairs: usize,
    /// All pairs of operation instances.
    pub pairs: usize,
    /// Wall time of the static analysis, in seconds.
    pub analysis_seconds: f64,
}

/// One step of the counterexample.
#[derive(Clone, Debug, Serialize)]
pub struct TraceStep {
    /// The initialisation or the operation taken, with its parameters.
    pub label: String,
    /// Variables (and constants) that changed, in declaration order, with
    /// their new values; every one of them for the first step.
    pub changes: Changes,
}

/// Name/value pairs serialised as one JSON object, in their order.
#[derive(Clone, Debug, Default)]
pub struct Changes(pub Vec<(String, String)>);

impl Serialize for Changes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// `orbit por --json`: the static analysis behind partial order reduction.
#[derive(Clone, Debug, Serialize)]
pub struct PorAnalysisReport {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Per operation: the variables its guard reads, its actions read, it
    /// writes.
    pub operations: Vec<OperationAccess>,
    /// `dependent[i][j]`: operations `i` and `j` are dependent.
    pub dependent: Vec<Vec<bool>>,
    /// How each pair of operations was decided.
    pub pairs: Vec<PairDecision>,
    /// How each possible enable edge was decided.
    pub enable: Vec<EnableDecision>,
    /// The invariant's conjuncts: what they read, whether they are assumed
    /// to bound the enumeration, whether every operation preserves them.
    pub invariant_conjuncts: Vec<ConjunctReport>,
    /// The operation instances (operations split by small parameters).
    pub instances: InstancesReport,
}

/// Read and write sets of one operation.
#[derive(Clone, Debug, Serialize)]
pub struct OperationAccess {
    /// The operation.
    pub name: String,
    /// Variables its guard reads.
    pub read_guard: Vec<String>,
    /// Variables its actions read.
    pub read_action: Vec<String>,
    /// Variables it writes.
    pub write: Vec<String>,
}

/// A decided pair of the dependency matrix.
#[derive(Clone, Debug, Serialize)]
pub struct PairDecision {
    /// One operation.
    pub a: String,
    /// The other.
    pub b: String,
    /// Whether they are dependent.
    pub dependent: bool,
    /// How it was decided.
    pub how: String,
}

/// A decided edge of the enable graph.
#[derive(Clone, Debug, Serialize)]
pub struct EnableDecision {
    /// The operation that may enable.
    pub from: String,
    /// The operation that may be enabled.
    pub to: String,
    /// Whether the edge is in the graph.
    pub edge: bool,
    /// How it was decided.
    pub how: String,
}

/// One invariant conjunct in the POR analysis.
#[derive(Clone, Debug, Serialize)]
pub struct ConjunctReport {
    /// Variables it reads.
    pub reads: Vec<String>,
    /// Whether the analysis assumes it (it bounds the enumerated states).
    pub assumed: bool,
    /// Whether no operation can break it.
    pub preserved: bool,
}

/// The operation instances and their relations.
#[derive(Clone, Debug, Serialize)]
pub struct InstancesReport {
    /// Instance names, e.g. `inc(PROC1)`.
    pub names: Vec<String>,
    /// `dependent[i][j]`.
    pub dependent: Vec<Vec<bool>>,
    /// `enables[i][j]`: instance `i` may enable instance `j`.
    pub enables: Vec<Vec<bool>>,
}
