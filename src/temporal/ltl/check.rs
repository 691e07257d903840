//! Checking one LTL property on a model: the automaton of the negated
//! formula, the model's graph with each state's letter (built by every
//! thread, as the liveness check's graph: the model's successors and the
//! symmetry layer's canonical labelling are the costly part, done once per
//! model state whatever the automaton), and a fair accepting cycle in the
//! product of the two, which is a counterexample. The product is never
//! stored: its edges are made from the model graph's as the search for
//! cycles asks for them ([`super::product`], [`super::emptiness`]), and the
//! search stops at the first fair accepting component.
//!
//! Exact at every thread count and with every fairness constraint; the
//! cycle search runs on two threads at most ([`super::emptiness`]).

use super::buchi::Buchi;
use super::emptiness::{Acceptance, FairnessSet, Graph, fair_lasso};
use super::formula::{Atom, Fairness, Ltl, Property};
use super::lettered::{CompiledAtom, LetteredModel, Letters, MAX_STEP_ATOMS, STUTTER};
use super::product::ProductGraph;
use crate::checker::Layered;
use crate::model::{Model, StateSymmetry};
use crate::por::PorLayer;
use crate::temporal::TemporalError;
use crate::temporal::graph::StateGraph;
use std::time::{Duration, Instant};
use workers::StopReason;

/// What an LTL check measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LtlFigures {
    /// States of the automaton of the negated formula.
    pub automaton_states: usize,
    /// States of the model's graph (the product is made from it).
    pub model_states: u64,
    /// States of the product the search reached.
    pub product_states: u64,
    /// Edges of the product it followed.
    pub product_edges: u64,
    /// Bytes of the model's graph and of the search's marks.
    pub graph_bytes: u64,
    /// Wall time of the check.
    pub wall: Duration,
}

/// The verdict of an LTL check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LtlVerdict {
    /// Every fair path of the model satisfies the formula.
    Holds,
    /// A fair path that violates it, as a lasso of the checked system's
    /// (representative) states: the last state equals
    /// `states[cycle_start]`, and the run repeats the steps after it.
    Violated {
        /// The states, initial first.
        states: Vec<Box<[u64]>>,
        /// The group of the step into each state ([`STUTTER`] for a
        /// deadlock's step of no operation; `groups[0]` unused).
        groups: Vec<u32>,
        /// The whole tag of the step into each state (with the bits of
        /// the step atoms with arguments; `tags[0]` unused).
        tags: Vec<u64>,
        /// The label of the step into each state (`None` for the first and
        /// for a deadlock's stutter).
        labels: Vec<Option<String>>,
        /// Where the cycle starts.
        cycle_start: usize,
    },
}

/// Why an LTL check gave no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LtlError {
    /// The property cannot be checked on this model (an unknown operation,
    /// a predicate the front end rejects, too many atoms).
    Refused(String),
    /// The graph could not be built.
    Search(TemporalError),
}

impl From<TemporalError> for LtlError {
    fn from(e: TemporalError) -> Self {
        LtlError::Search(e)
    }
}

/// Most atoms in one formula (one bit of a letter each).
pub const MAX_ATOMS: usize = 64;

/// Most product states (model states times automaton states) a check can
/// number.
pub const MAX_PRODUCT: usize = super::emptiness::MAX_STATES;

/// The groups named `op`, or why there are none.
fn groups_named<M: Model>(model: &M, op: &str) -> Result<Vec<usize>, LtlError> {
    let found: Vec<usize> = model
        .groups()
        .iter()
        .enumerate()
        .filter(|(_, g)| g.name == op)
        .map(|(k, _)| k)
        .collect();
    if found.is_empty() {
        let mut names: Vec<&str> = model.groups().iter().map(|g| g.name.as_str()).collect();
        names.dedup();
        return Err(LtlError::Refused(format!(
            "the LTL formula names `{op}`, which is no operation or rule of the model (it has: {})",
            names.join(", ")
        )));
    }
    Ok(found)
}

/// The atoms of `property` compiled against `model`, its fairness
/// constraints as (strong, groups), and the automaton of its negation; or
/// why the property cannot be checked on the model (checked before any
/// search, so that a typo costs nothing).
#[allow(clippy::type_complexity)]
pub fn prepare<'m, M: Model>(
    model: &'m M,
    property: &Property,
) -> Result<
    (
        Vec<CompiledAtom<'m, M::Scratch>>,
        Vec<(bool, Vec<usize>)>,
        Buchi,
    ),
    LtlError,
> {
    if property.atoms.len() > MAX_ATOMS {
        return Err(LtlError::Refused(format!(
            "not supported yet: LTL formulas with more than {MAX_ATOMS} distinct atoms"
        )));
    }
    let mut atoms = Vec::new();
    for atom in &property.atoms {
        atoms.push(match atom {
            Atom::Predicate(text) => CompiledAtom::Predicate(
                model
                    .state_predicate(text)
                    .map_err(|e| LtlError::Refused(format!("in the atom `{{{text}}}`: {e}")))?,
            ),
            Atom::Enabled(op) => CompiledAtom::Enabled(groups_named(model, op)?),
            Atom::Taken(op) => CompiledAtom::Taken(groups_named(model, op)?),
            Atom::TakenWith(op, args) => CompiledAtom::TakenWith(
                groups_named(model, op)?,
                model
                    .step_arguments(op, args)
                    .map_err(|e| LtlError::Refused(format!("in the atom `{atom}`: {e}")))?,
            ),
            Atom::Deadlock => CompiledAtom::Deadlock,
            Atom::EnabledAmong(among, ops) => CompiledAtom::EnabledAmong(
                *among,
                ops.iter()
                    .map(|op| groups_named(model, op))
                    .collect::<Result<_, _>>()?,
            ),
            Atom::Sink => CompiledAtom::Sink,
        });
    }
    let mut fair: Vec<(bool, Vec<usize>)> = Vec::new();
    for f in &property.fairness {
        match f {
            Fairness::Weak(op) => fair.push((false, groups_named(model, op)?)),
            Fairness::Strong(op) => fair.push((true, groups_named(model, op)?)),
            Fairness::WeakAll => fair.extend((0..model.groups().len()).map(|g| (false, vec![g]))),
            Fairness::StrongAll => fair.extend((0..model.groups().len()).map(|g| (true, vec![g]))),
        }
    }
    let buchi = Buchi::of(&Ltl::negation(property.formula.clone())).map_err(LtlError::Refused)?;
    Ok((atoms, fair, buchi))
}

/// One property's outcome: its verdict and figures, or why it has none.
pub type LtlOutcome = Result<(LtlVerdict, LtlFigures), LtlError>;

/// Checks `properties` in order on `layered` (the model with its symmetry
/// layer; its graph reduced through `por`'s ample sets, whose visible
/// groups are those of [`super::reduction`]) with `threads` threads, on one
/// graph of the model labelled with
/// every property's letters; the outcomes up to the first that is not
/// [`LtlVerdict::Holds`] (a violation, or why the check stopped). The first
/// outcome's wall time includes building the graph, which the others reuse.
/// Before any search: the index of a property that cannot be checked on
/// the model, and why.
pub fn check<M: Model, S: StateSymmetry>(
    layered: &Layered<'_, M, S>,
    por: Option<&PorLayer>,
    threads: usize,
    properties: &[&Property],
) -> Result<Vec<LtlOutcome>, (usize, LtlError)> {
    let mut start = Instant::now();
    let mut prepared = Vec::new();
    for (k, property) in properties.iter().enumerate() {
        prepared.push(prepare(layered.model(), property).map_err(|e| (k, e))?);
    }
    let groups = layered.model().groups().len();
    let mut letters = Vec::new();
    let mut fairness = Vec::new();
    let mut automata = Vec::new();
    // Label words: per property its letter, then one bit per fairness
    // constraint, set where its operation is enabled.
    let mut offsets = Vec::new();
    let mut label_words = 0;
    // Tag bits of the step atoms with arguments, above the group's 32.
    let mut tag_bit = 32;
    for (k, (atoms, fair, buchi)) in prepared.into_iter().enumerate() {
        offsets.push(label_words);
        label_words += 1 + fair.len().div_ceil(64);
        let l = Letters::new(atoms, groups, tag_bit);
        tag_bit += l.step_atoms_with_arguments();
        if tag_bit > 32 + MAX_STEP_ATOMS {
            return Err((
                k,
                LtlError::Refused(format!(
                    "not supported yet: more than {MAX_STEP_ATOMS} step atoms with arguments \
                     in one run"
                )),
            ));
        }
        letters.push(l);
        fairness.push(fair);
        automata.push(buchi);
    }
    let system = LetteredModel::new(layered, &letters).with_por(por);
    let built = StateGraph::build(&system, threads, label_words, 1, |scratch, state, out| {
        let (model, enabled, moves) = scratch.model_and_enabled();
        for (i, l) in letters.iter().enumerate() {
            let at = offsets[i];
            out[at] = l.state(model, state, enabled, moves)?;
            for (k, (_, groups)) in fairness[i].iter().enumerate() {
                if groups.iter().any(|&g| enabled[g / 64] >> (g % 64) & 1 == 1) {
                    out[at + 1 + k / 64] |= 1 << (k % 64);
                }
            }
        }
        Ok(())
    });
    let graph = match built {
        Ok(graph) => graph,
        Err(e) => return Ok(vec![Err(e.into())]),
    };
    tracing::debug!(elapsed = ?start.elapsed(), states = graph.len(), "LTL: model graph built");
    if let Some(reason) = workers::budget::tripped() {
        return Ok(vec![Err(LtlError::Search(TemporalError::Stopped(reason)))]);
    }
    let mut outcomes = Vec::new();
    for i in 0..letters.len() {
        let outcome = search(
            &graph,
            offsets[i],
            &letters[i],
            &fairness[i],
            &automata[i],
            threads,
            start,
        );
        let outcome = outcome.and_then(|(verdict, figures)| {
            Ok((
                step_labels(&system, verdict).map_err(LtlError::from)?,
                figures,
            ))
        });
        let go_on = matches!(outcome, Ok((LtlVerdict::Holds, _)));
        outcomes.push(outcome);
        if !go_on {
            break;
        }
        start = Instant::now();
    }
    Ok(outcomes)
}

/// Searches the product of `graph` (the property's letter in label word
/// `offset`, its fairness bits after it) and `buchi` for a fair accepting
/// cycle.
fn search<Sc>(
    graph: &StateGraph,
    offset: usize,
    letters: &Letters<'_, Sc>,
    fair: &[(bool, Vec<usize>)],
    buchi: &Buchi,
    threads: usize,
    start: Instant,
) -> LtlOutcome {
    if graph.len().saturating_mul(buchi.len()) > MAX_PRODUCT {
        return Err(LtlError::Search(TemporalError::Stopped(
            StopReason::StoreFull,
        )));
    }
    let product = ProductGraph::new(
        graph,
        offset,
        buchi,
        letters.state_atoms(),
        letters.step_tables(),
    );
    let accepting = |p: u32| buchi.accepting[product.automaton_state(p) as usize];
    let sets: Vec<FairnessSet<'_>> = fair
        .iter()
        .enumerate()
        .map(|(k, (strong, groups))| FairnessSet {
            strong: *strong,
            takes: Box::new(move |tag| tag != STUTTER && groups.contains(&(tag as usize))),
            enabled: Box::new({
                let product = &product;
                move |p| graph.label(product.model_state(p), 64 * (offset + 1) + k)
            }),
        })
        .collect();
    let searched = Instant::now();
    let cycle_states = buchi.cycle_states();
    let on_cycle = |p: u32| cycle_states[product.automaton_state(p) as usize];
    let acceptance = Acceptance {
        sets: buchi.all_sets(),
        accepting: &accepting,
        fairness: &sets,
        on_cycle: &on_cycle,
    };
    // A second thread helps only when some states lie off cycles.
    let threads = if cycle_states.iter().all(|&c| c) {
        1
    } else {
        threads
    };
    let (lasso, explored) = fair_lasso(&product, &acceptance, threads);
    tracing::debug!(elapsed = ?searched.elapsed(), states = explored.states, "LTL: product searched");
    let figures = LtlFigures {
        automaton_states: buchi.len(),
        model_states: graph.len() as u64,
        product_states: explored.states,
        product_edges: explored.edges,
        // The model graph, and the search's two words per product state.
        graph_bytes: graph.bytes() + 8 * product.bound() as u64,
        wall: start.elapsed(),
    };
    let verdict = match lasso {
        None => LtlVerdict::Holds,
        Some(lasso) => {
            let model_state = |p: u32| graph.state(product.model_state(p)).into();
            let mut states: Vec<Box<[u64]>> =
                lasso.states.iter().map(|&p| model_state(p)).collect();
            let mut groups = lasso.tags.clone();
            states.push(model_state(lasso.states[lasso.cycle_start]));
            groups.push(lasso.closing_tag);
            // The whole tags (with the arguments' bits), for the labels.
            let mut ids = lasso.states.clone();
            ids.push(lasso.states[lasso.cycle_start]);
            let tags: Vec<u64> = std::iter::once(0)
                .chain((1..ids.len()).map(|i| {
                    product
                        .edge_tag(ids[i - 1], ids[i], groups[i])
                        .unwrap_or(u64::from(groups[i]))
                }))
                .collect();
            LtlVerdict::Violated {
                states,
                groups,
                tags,
                labels: Vec::new(),
                cycle_start: lasso.cycle_start,
            }
        }
    };
    Ok((verdict, figures))
}

/// The verdict with the label of each step of its lasso: the model's step
/// from each state to the next with the edge's whole tag.
fn step_labels<M: Model, S: StateSymmetry>(
    system: &LetteredModel<'_, '_, M, S>,
    verdict: LtlVerdict,
) -> Result<LtlVerdict, TemporalError> {
    let LtlVerdict::Violated {
        states,
        groups,
        tags,
        cycle_start,
        ..
    } = verdict
    else {
        return Ok(verdict);
    };
    let mut scratch = workers::TransitionSystem::new_scratch(system);
    let mut out = vec![None];
    for i in 1..states.len() {
        out.push(if groups[i] == STUTTER {
            None
        } else {
            system.step_label(&mut scratch, &states[i - 1], tags[i], &states[i])?
        });
    }
    Ok(LtlVerdict::Violated {
        states,
        groups,
        tags,
        labels: out,
        cycle_start,
    })
}
