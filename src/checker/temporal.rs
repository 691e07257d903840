//! The checker's temporal phase: after a complete safety search, the
//! model's liveness properties ([`crate::temporal::liveness`]) and the
//! LTL properties ([`crate::temporal::ltl`]) are checked, and their
//! verdicts and counterexamples put into the run's report.

use super::{CheckerError, Layered, real_trace};
use crate::model::{GroupSet, Independence, Model, StateSymmetry};
use crate::por::PorLayer;
use crate::symmetry::SymmetryMode;
use crate::temporal::TemporalError;
use crate::temporal::liveness::{LivenessFigures, LivenessVerdict};
use crate::temporal::ltl::lettered::STUTTER;
use crate::temporal::ltl::{LtlError, LtlFigures, LtlVerdict, Property};
use workers::{Config, ModelError, Report, Trace, TraceStep};

/// An LTL property to check, with the name reports give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LtlProperty {
    /// Its name (a B definition's, or `--ltl` and its number).
    pub name: String,
    /// The parsed property.
    pub property: Property,
}

/// What one LTL check measured, by property name.
#[derive(Clone, Debug, PartialEq)]
pub struct LtlRun {
    /// The property's name.
    pub name: String,
    /// Its formula as written.
    pub formula: String,
    /// The figures.
    pub figures: LtlFigures,
}

/// The label of a deadlock's step of no operation in a lasso.
pub const STUTTER_LABEL: &str = "(deadlock: no operation is enabled, the state repeats)";

/// Most times a lasso of representatives is unrolled to close it in the
/// real system (the real cycle may need the representatives' cycle
/// several times, up to the order of the permutation it amounts to).
const MAX_UNROLL: usize = 24;

/// Refuses what the LTL check cannot honour: a property whose atoms do
/// not compile against the model (an unknown operation, a predicate the
/// front end rejects), partial order reduction of a property it would not
/// preserve ([`crate::temporal::ltl::reduction`]) and approximate symmetry
/// modes.
pub(super) fn refuse_ltl_with<M: Model, S>(
    model: &M,
    properties: &[LtlProperty],
    por: bool,
    symmetry: &Option<(S, SymmetryMode)>,
) -> Result<(), CheckerError> {
    let Some(first) = properties.first() else {
        return Ok(());
    };
    for p in properties {
        if let Err(LtlError::Refused(message)) =
            crate::temporal::ltl::check::prepare(model, &p.property)
        {
            return Err(CheckerError::new(
                format!("LTL property `{}`: {message}", p.name),
                "correct the formula",
            ));
        }
    }
    if por {
        for p in properties {
            crate::temporal::ltl::reduction::visible_groups(model, &p.property).map_err(
                |what| {
                    CheckerError::new(
                        format!(
                            "not supported yet: partial order reduction with {what} \
                         (LTL property `{}`)",
                            p.name
                        ),
                        "run without --por",
                    )
                },
            )?;
        }
    }
    let names_groups = |p: &LtlProperty| {
        !p.property.fairness.is_empty()
            || p.property.atoms.iter().any(|a| {
                matches!(
                    a,
                    crate::temporal::ltl::Atom::Enabled(_)
                        | crate::temporal::ltl::Atom::Taken(_)
                        | crate::temporal::ltl::Atom::TakenWith(..)
                        | crate::temporal::ltl::Atom::EnabledAmong(..)
                )
            })
    };
    if symmetry.is_some()
        && !model.groups_commute_with_symmetry()
        && let Some(p) = properties.iter().find(|p| names_groups(p))
    {
        return Err(CheckerError::new(
            format!(
                "not supported yet: LTL property `{}` names operations (e(op), [op] or fairness) \
                 with symmetry reduction, and this model's operations belong to single elements",
                p.name
            ),
            "run without --symmetry",
        ));
    }
    if symmetry.is_some()
        && let Some((p, atom)) = properties.iter().find_map(|p| {
            p.property
                .atoms
                .iter()
                .find(|a| {
                    matches!(a, crate::temporal::ltl::Atom::TakenWith(_, args)
                        if args.iter().any(Option::is_some))
                })
                .map(|a| (p, a))
        })
    {
        return Err(CheckerError::new(
            format!(
                "not supported yet: the step atom `{atom}` (with arguments) in LTL property \
                 `{}` with symmetry reduction: its arguments may name single elements",
                p.name
            ),
            "run without --symmetry",
        ));
    }
    if let Some((_, mode)) = symmetry
        && !mode.is_exact()
    {
        return Err(CheckerError::new(
            format!(
                "not supported yet: LTL properties (`{}`) with the approximate symmetry mode {}",
                first.name,
                mode.name()
            ),
            "use an exact symmetry mode (canon, flood, markers-exact) or none",
        ));
    }
    Ok(())
}

/// The partial order reduction layer of the LTL check's graph: the
/// search's relations, with the groups that may change an atom of some
/// property visible (after [`refuse_ltl_with`] accepted them).
pub(super) fn ltl_por_layer<M: Model>(
    model: &M,
    properties: &[LtlProperty],
    independence: Option<&Independence>,
    symmetric: bool,
) -> Option<PorLayer> {
    let independence = independence.filter(|_| !properties.is_empty())?;
    let mut visible = GroupSet::empty(model.groups().len());
    for p in properties {
        let groups = crate::temporal::ltl::reduction::visible_groups(model, &p.property)
            .expect("accepted before the run");
        visible.union_with(&groups);
    }
    Some(PorLayer::new(
        &independence.with_visible_groups(&visible),
        symmetric,
    ))
}

/// After a complete search: checks `properties` in order and puts the
/// first violation (or why the check stopped, or was refused) into
/// `report`; the figures of the properties checked.
pub(super) fn check_ltl<M: Model, S: StateSymmetry>(
    layered: &Layered<'_, M, S>,
    por: Option<&PorLayer>,
    config: &Config,
    properties: &[LtlProperty],
    report: &mut Report,
) -> Vec<LtlRun> {
    let mut runs = Vec::new();
    if properties.is_empty() || !matches!(report.outcome, workers::Outcome::Complete) {
        return runs;
    }
    let checked: Vec<&Property> = properties.iter().map(|p| &p.property).collect();
    // A property that cannot be prepared is refused before any search.
    let (outcomes, first) =
        match crate::temporal::ltl::check(layered, por, config.threads, &checked) {
            Ok(outcomes) => (outcomes, 0),
            Err((k, e)) => (vec![Err(e)], k),
        };
    for (p, outcome) in properties[first..].iter().zip(outcomes) {
        match outcome {
            Err(LtlError::Refused(message)) => {
                report.outcome = workers::Outcome::ModelError(ModelError::refused(format!(
                    "LTL property `{}`: {message}",
                    p.name
                )));
            }
            Err(LtlError::Search(TemporalError::Stopped(reason))) => {
                report.outcome = workers::Outcome::Stopped(reason);
            }
            Err(LtlError::Search(TemporalError::Model(e))) => {
                report.outcome = workers::Outcome::ModelError(e);
            }
            Ok((verdict, figures)) => {
                runs.push(LtlRun {
                    name: p.name.clone(),
                    formula: p.property.text.clone(),
                    figures,
                });
                if let LtlVerdict::Violated {
                    states,
                    groups,
                    labels,
                    cycle_start,
                    ..
                } = verdict
                {
                    report.outcome = workers::Outcome::Violation(workers::Violation {
                        kind: workers::ViolationKind::Ltl,
                        message: format!(
                            "LTL property `{}` is false: {}; the counterexample is a run \
                             that repeats its steps from step {} on forever",
                            p.name,
                            p.property.text,
                            cycle_start + 1
                        ),
                    });
                    match lasso_trace(layered, &states, &groups, &labels, cycle_start) {
                        Ok(trace) => report.trace = Some(trace),
                        Err(e) => report.trace_error = Some(e),
                    }
                }
            }
        }
    }
    runs
}

/// The lasso of representatives `states` (the group and label of the step
/// into each) as a labelled trace of the real model.
fn lasso_trace<M: Model, S: StateSymmetry>(
    layered: &Layered<'_, M, S>,
    states: &[Box<[u64]>],
    groups: &[u32],
    labels: &[Option<String>],
    cycle_start: usize,
) -> Result<Trace, String> {
    use workers::TransitionSystem;
    let initial = layered
        .labelled_initial_states()
        .map_err(|e| format!("model error while replaying the initialisation: {e}"))?;
    let first = initial
        .into_iter()
        .find(|l| l.state == states[0])
        .ok_or("the lasso's first state is not an initial state")?;
    let mut steps = vec![TraceStep {
        label: first.label,
        state: first.state,
    }];
    for i in 1..states.len() {
        let label = match labels.get(i) {
            _ if groups[i] == STUTTER => STUTTER_LABEL.to_string(),
            Some(Some(label)) => label.clone(),
            _ => return Err(format!("step {i} of the lasso is not a step of the model")),
        };
        steps.push(TraceStep {
            label,
            state: states[i].clone(),
        });
    }
    let reps = Trace {
        steps,
        cycle_start: Some(cycle_start),
    };
    real_lasso(layered, reps)
}

/// Maps a lasso of representatives to a real lasso: the stem and the cycle
/// unrolled until the real run comes back to a state it passed at the
/// start of an unrolling (see [`MAX_UNROLL`]).
fn real_lasso<M: Model, S: StateSymmetry>(
    layered: &Layered<'_, M, S>,
    reps: Trace,
) -> Result<Trace, String> {
    let Some(layer) = layered.symmetry() else {
        return Ok(reps);
    };
    let start = reps.cycle_start.unwrap_or(0);
    let stem = &reps.steps[..=start];
    let cycle = &reps.steps[start + 1..];
    let runs = layered.real_runs();
    if cycle.len() == 1 && cycle[0].label == STUTTER_LABEL {
        let mut real = layer.real_trace(
            &runs,
            &Trace {
                steps: stem.to_vec(),
                cycle_start: None,
            },
        )?;
        let last = real.steps.last().expect("a step").state.clone();
        real.steps.push(TraceStep {
            label: STUTTER_LABEL.to_string(),
            state: last,
        });
        real.cycle_start = Some(start);
        return Ok(real);
    }
    for r in 1..=MAX_UNROLL {
        let mut steps = stem.to_vec();
        for _ in 0..r {
            steps.extend_from_slice(cycle);
        }
        let real = layer.real_trace(
            &runs,
            &Trace {
                steps,
                cycle_start: None,
            },
        )?;
        let last = &real.steps.last().expect("a step").state;
        if let Some(j) = (0..r).find(|j| real.steps[start + j * cycle.len()].state == *last) {
            return Ok(Trace {
                steps: real.steps,
                cycle_start: Some(start + j * cycle.len()),
            });
        }
    }
    Err(format!(
        "the counterexample's cycle of representatives does not close in the real model \
         within {MAX_UNROLL} unrollings"
    ))
}

/// Refuses what the liveness check cannot honour: partial order reduction
/// (an ample set can prune the only path to a state satisfying `p`) and
/// symmetry modes that are not exact.
pub(super) fn refuse_liveness_with<M: Model, S: StateSymmetry>(
    model: &M,
    por: bool,
    symmetry: &Option<(S, SymmetryMode)>,
) -> Result<(), CheckerError> {
    let properties = model.liveness_properties();
    let Some(first) = properties.first() else {
        return Ok(());
    };
    if por {
        return Err(CheckerError::new(
            format!(
                "not supported yet: partial order reduction with liveness properties \
                 (\"{}\", {}): an ample set can cut the only path to a state that satisfies one",
                first.name, first.place
            ),
            "run without --por",
        ));
    }
    if let Some((_, mode)) = symmetry
        && !mode.is_exact()
    {
        return Err(CheckerError::new(
            format!(
                "not supported yet: liveness properties (\"{}\", {}) with the approximate \
                 symmetry mode {}",
                first.name,
                first.place,
                mode.name()
            ),
            "use an exact symmetry mode (canon, flood, markers-exact) or none",
        ));
    }
    Ok(())
}

/// After a complete search of a model with liveness properties: checks
/// them ([`crate::temporal::liveness`]) and puts the verdict into
/// `report` (a violation with its trace, or why the check stopped).
pub(super) fn check_liveness<M: Model, S: StateSymmetry>(
    layered: &Layered<'_, M, S>,
    config: &Config,
    report: &mut Report,
) -> Option<LivenessFigures> {
    let model = layered.model();
    let properties = model.liveness_properties();
    if properties.is_empty() || !matches!(report.outcome, workers::Outcome::Complete) {
        return None;
    }
    let holds = |scratch: &mut super::LayeredScratch<M::Scratch, S::Scratch>,
                 state: &[u64],
                 k: usize| model.liveness_holds(scratch.model_mut(), state, k);
    let families =
        layered.symmetry().is_some() && properties.iter().any(|p| p.names_element_of.is_some());
    let result = if families {
        let system = FamilyEdges {
            layered,
            properties: properties.len(),
        };
        crate::temporal::liveness::check_family(
            &system,
            config.threads,
            properties.len(),
            system.tag_words(),
            holds,
        )
    } else {
        crate::temporal::liveness::check(layered, config.threads, properties.len(), holds)
    };
    match result {
        Err(TemporalError::Stopped(reason)) => {
            report.outcome = workers::Outcome::Stopped(reason);
            None
        }
        Err(TemporalError::Model(e)) => {
            report.outcome = workers::Outcome::ModelError(e);
            None
        }
        Ok((verdict, figures)) => {
            if let LivenessVerdict::Violated { property, path } = verdict {
                let mut property = property;
                let replayed = workers::trace::replay(layered, &path);
                if let Ok(trace) = &replayed {
                    report.trace = Some(trace.clone());
                    real_trace(layered, report);
                }
                // A family's property is named at the representative: the
                // real run's last state is its image under some `π`, whose
                // inverse renames the property.
                if let (true, Some(layer), Some(real)) =
                    (families, layered.symmetry(), &report.trace)
                    && let Some(last) = real.last_state()
                    && let Some((_, pi)) = layer.to_representative(last)
                    && let Some(renamed) = model.liveness_image(property, &pi.inverse())
                {
                    property = renamed;
                }
                let p = &properties[property];
                report.outcome = workers::Outcome::Violation(workers::Violation {
                    kind: workers::ViolationKind::Liveness,
                    message: format!(
                        "liveness property \"{}\" violated ({}): no state that satisfies it \
                         is reachable from the last state of the trace",
                        p.name, p.place
                    ),
                });
                if let Err(e) = replayed {
                    report.trace_error = Some(e);
                }
            }
            Some(figures)
        }
    }
}

/// The graph of representatives for a liveness family under symmetry:
/// each successor carries, as its tag, the inverse of the map its
/// canonicalising permutation induces on the properties (see
/// [`crate::temporal::liveness::check_family`]).
struct FamilyEdges<'a, 'm, M: Model, S: StateSymmetry> {
    layered: &'a Layered<'m, M, S>,
    properties: usize,
}

impl<M: Model, S: StateSymmetry> FamilyEdges<'_, '_, M, S> {
    /// Words of tag: 16 bits per property.
    fn tag_words(&self) -> usize {
        self.properties.div_ceil(4)
    }
}

impl<M: Model, S: StateSymmetry> workers::TransitionSystem for FamilyEdges<'_, '_, M, S> {
    type Scratch = super::LayeredScratch<M::Scratch, S::Scratch>;

    fn new_scratch(&self) -> Self::Scratch {
        self.layered.new_scratch()
    }

    fn state_width(&self) -> usize {
        self.layered.model().state_width()
    }

    fn initial_states(
        &self,
        scratch: &mut Self::Scratch,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.layered.initial_states(scratch, emit)
    }

    fn successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let model = self.layered.model();
        let layer = self
            .layered
            .symmetry()
            .expect("families run under symmetry");
        let mut out: Vec<u64> = Vec::new();
        let mut open = None;
        model.successors(scratch.model_mut(), state, &mut |_, t| {
            let (rep, perm) = layer
                .to_representative(t)
                .unwrap_or_else(|| (t.into(), crate::model::Permutation::identity(&[])));
            out.clear();
            out.extend_from_slice(&rep);
            let mut tag = vec![0u64; self.tag_words()];
            for i in 0..self.properties {
                match model.liveness_image(i, &perm) {
                    Some(j) => tag[j / 4] |= (i as u64) << (16 * (j % 4)),
                    None => open = Some(i),
                }
            }
            out.extend_from_slice(&tag);
            emit(&out);
        })?;
        if let Some(i) = open {
            let p = &model.liveness_properties()[i];
            return Err(ModelError::refused(format!(
                "the liveness property \"{}\" ({}) names an element of `{}`, but the model has \
                 no instance for the element's image under a permutation: the family is not \
                 closed under the symmetry",
                p.name,
                p.place,
                p.names_element_of.as_deref().unwrap_or_default()
            )));
        }
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<workers::LabelledState>, ModelError> {
        Ok(Vec::new())
    }

    fn labelled_successors(&self, _: &[u64]) -> Result<Vec<workers::LabelledState>, ModelError> {
        Ok(Vec::new())
    }

    fn check_state(
        &self,
        _: &mut Self::Scratch,
        _: &[u64],
    ) -> Result<Option<workers::Violation>, ModelError> {
        Ok(None)
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.layered.model().describe_state(state)
    }
}
