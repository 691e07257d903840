//! The layer stack as one [`TransitionSystem`] for the engine: the model's
//! successors, through the partial order reduction layer (which successors)
//! and the symmetry layer (which state stands for each), in that order.
//! Each layer only does what it changes; everything else (checks, goal,
//! printing) is the model's, with no forwarding code per layer.

use crate::model::{INITIAL_GROUP, Model, NoSymmetry, StateSymmetry, Step};
use crate::por::{PorLayer, PorScratch};
use crate::symmetry::{RealRuns, SymmetryLayer, SymmetryScratch};
use workers::{Expansion, LabelledState, ModelError, TransitionSystem, Violation};

/// Receives a successor's step, the successor, and its representative
/// ([`Layered::stepped_successors`]).
pub type SteppedEmit<'e> = dyn FnMut(&dyn Step, &[u64], &[u64]) + 'e;

/// A model with its reductions, as the engine explores it.
pub struct Layered<'m, M: Model, S: StateSymmetry = NoSymmetry> {
    model: &'m M,
    symmetry: Option<SymmetryLayer<S>>,
    por: Option<PorLayer>,
}

/// Per-thread buffers of every layer.
pub struct LayeredScratch<MS, SS> {
    model: MS,
    symmetry: Option<SymmetryScratch<SS>>,
    por: Option<PorScratch>,
    /// Whether the last expansion had a successor other than its state
    /// (kept only when the model counts stuttering as deadlock).
    moved: bool,
}

impl<MS, SS> LayeredScratch<MS, SS> {
    /// The model's buffers, to evaluate the model's own predicates on a
    /// state (the temporal checks' atoms).
    pub fn model_mut(&mut self) -> &mut MS {
        &mut self.model
    }

    /// The symmetry layer's buffers, if it is on.
    pub fn symmetry(&self) -> Option<&SymmetryScratch<SS>> {
        self.symmetry.as_ref()
    }
}

impl<'m, M: Model, S: StateSymmetry> Layered<'m, M, S> {
    /// `model` with the given layers.
    pub fn new(model: &'m M, symmetry: Option<SymmetryLayer<S>>, por: Option<PorLayer>) -> Self {
        Layered {
            model,
            symmetry,
            por,
        }
    }

    /// The model.
    pub fn model(&self) -> &'m M {
        self.model
    }

    /// The symmetry layer, if on.
    pub fn symmetry(&self) -> Option<&SymmetryLayer<S>> {
        self.symmetry.as_ref()
    }

    /// The partial order reduction layer, if on.
    pub fn por(&self) -> Option<&PorLayer> {
        self.por.as_ref()
    }

    /// The model and the layers, to restack them.
    pub fn into_parts(self) -> (&'m M, Option<SymmetryLayer<S>>, Option<PorLayer>) {
        (self.model, self.symmetry, self.por)
    }

    /// The unreduced model's labelled transitions (for mapping traces).
    pub fn real_runs(&self) -> ModelRuns<'_, M> {
        ModelRuns(self.model)
    }

    /// Every model successor of `state` with the step that produced it,
    /// itself and its representative under the symmetry layer (itself
    /// without one); no partial order reduction and no soundness check:
    /// what the temporal checks, which read the steps, expand states by.
    pub fn stepped_successors(
        &self,
        scratch: &mut LayeredScratch<M::Scratch, S::Scratch>,
        state: &[u64],
        emit: &mut SteppedEmit<'_>,
    ) -> Result<(), ModelError> {
        let LayeredScratch {
            model, symmetry, ..
        } = scratch;
        let layer = self.symmetry.as_ref();
        self.model.successors(model, state, &mut |step, t| {
            reduced(layer, symmetry, t, &mut |rep| emit(step, t, rep))
        })
    }

    /// Like [`Self::stepped_successors`], through an ample set of `por`
    /// (a layer of its own, not the search's; `ps` its buffers): runs the
    /// model's successors of `state` once and emits those of the ample set
    /// (all of them when no proper one exists), with their group, each as
    /// its representative; `true` when the set was proper.
    /// [`Self::remaining_stepped_successors`] emits the others.
    pub fn ample_stepped_successors(
        &self,
        scratch: &mut LayeredScratch<M::Scratch, S::Scratch>,
        por: &PorLayer,
        ps: &mut PorScratch,
        state: &[u64],
        emit: &mut dyn FnMut(usize, &[u64]),
    ) -> Result<bool, ModelError> {
        let LayeredScratch {
            model, symmetry, ..
        } = scratch;
        let proper = por.expand(self.model, model, ps, state)?;
        let layer = self.symmetry.as_ref();
        por.emit_steps(ps, self.model.state_width(), true, &mut |g, s| {
            reduced(layer, symmetry, s, &mut |rep| emit(g, rep))
        });
        Ok(proper)
    }

    /// After [`Self::ample_stepped_successors`] with the same buffers: the
    /// successors its ample set left out (none after a full expansion).
    pub fn remaining_stepped_successors(
        &self,
        scratch: &mut LayeredScratch<M::Scratch, S::Scratch>,
        por: &PorLayer,
        ps: &PorScratch,
        emit: &mut dyn FnMut(usize, &[u64]),
    ) {
        if !por.was_proper(ps) {
            return;
        }
        let layer = self.symmetry.as_ref();
        let symmetry = &mut scratch.symmetry;
        por.emit_steps(ps, self.model.state_width(), false, &mut |g, s| {
            reduced(layer, symmetry, s, &mut |rep| emit(g, rep))
        });
    }
}

/// Sets `moved` once a successor `s` differs from `state` (the first
/// differing one ends the comparisons).
#[inline(always)]
fn note_move(moved: &mut bool, s: &[u64], state: &[u64]) {
    if !*moved && s != state {
        *moved = true;
    }
}

/// Emits `state`'s representative (or `state` without a symmetry layer).
#[inline(always)]
fn reduced<S: StateSymmetry>(
    layer: Option<&SymmetryLayer<S>>,
    scratch: &mut Option<SymmetryScratch<S::Scratch>>,
    state: &[u64],
    emit: &mut dyn FnMut(&[u64]),
) {
    match (layer, scratch) {
        (Some(layer), Some(scratch)) => emit(layer.reduce(state, scratch)),
        _ => emit(state),
    }
}

impl<M: Model, S: StateSymmetry> TransitionSystem for Layered<'_, M, S> {
    type Scratch = LayeredScratch<M::Scratch, S::Scratch>;

    fn new_scratch(&self) -> Self::Scratch {
        LayeredScratch {
            model: self.model.new_scratch(),
            symmetry: self.symmetry.as_ref().map(SymmetryLayer::new_scratch),
            por: self.por.as_ref().map(PorLayer::new_scratch),
            moved: true,
        }
    }

    fn stutter_is_deadlock(&self) -> bool {
        self.model.stutter_is_deadlock()
    }

    fn moved(&self, scratch: &Self::Scratch) -> bool {
        scratch.moved
    }

    fn discarded(&self, scratch: &Self::Scratch) -> bool {
        self.model.left_scope(&scratch.model)
    }

    fn state_width(&self) -> usize {
        self.model.state_width()
    }

    fn state_bytes(&self) -> usize {
        self.model.state_bytes()
    }

    fn initial_states(
        &self,
        scratch: &mut Self::Scratch,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let LayeredScratch {
            model, symmetry, ..
        } = scratch;
        let layer = self.symmetry.as_ref();
        let keep = |class: usize| layer.is_none_or(|l| !l.symmetry().skips_initial_class(class));
        self.model
            .initial_states_of(model, &keep, &mut |_, s| reduced(layer, symmetry, s, emit))
    }

    #[inline]
    fn successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let LayeredScratch {
            model,
            symmetry,
            moved,
            ..
        } = scratch;
        // Whether a successor differs from the state is decided on the
        // model's own successors, before symmetry picks representatives.
        let stutter = self.model.stutter_is_deadlock();
        *moved = !stutter;
        match (self.symmetry.as_ref(), symmetry) {
            (Some(layer), Some(ss)) => {
                layer.check_expansion(self.model, model, ss, state)?;
                self.model.successors(model, state, &mut |_, s| {
                    note_move(moved, s, state);
                    emit(layer.reduce(s, ss))
                })
            }
            _ => self.model.successors(model, state, &mut |_, s| {
                note_move(moved, s, state);
                emit(s)
            }),
        }?;
        if stutter && !*moved {
            *moved = self.model.discarded_a_move(model);
        }
        Ok(())
    }

    fn reduces(&self) -> bool {
        self.por.is_some()
    }

    fn reduced_successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<Expansion, ModelError> {
        let Some(por) = &self.por else {
            self.successors(scratch, state, emit)?;
            return Ok(Expansion::Full);
        };
        let LayeredScratch {
            model,
            symmetry,
            por: ps,
            moved,
        } = scratch;
        let ps = ps.as_mut().expect("scratch made with the layer");
        if let (Some(layer), Some(ss)) = (self.symmetry.as_ref(), symmetry.as_mut()) {
            layer.check_expansion(self.model, model, ss, state)?;
        }
        let proper = por.expand(self.model, model, ps, state)?;
        let layer = self.symmetry.as_ref();
        let width = self.model.state_width();
        let stutter = self.model.stutter_is_deadlock();
        let went = std::cell::Cell::new(!stutter);
        let mut emit_moving = |s: &[u64]| {
            let mut m = went.get();
            note_move(&mut m, s, state);
            went.set(m);
            reduced(layer, symmetry, s, emit)
        };
        por.emit_part(ps, width, true, &mut emit_moving);
        if stutter && !went.get() && self.model.discarded_a_move(model) {
            went.set(true);
        }
        if proper && stutter && !went.get() {
            // An ample set that only stutters cannot tell a stuttering
            // deadlock from a state that moves by another rule: expand
            // fully.
            por.emit_part(ps, width, false, &mut emit_moving);
            *moved = went.get();
            return Ok(Expansion::Full);
        }
        *moved = went.get();
        Ok(if proper {
            Expansion::Ample {
                proviso: por.proviso(),
            }
        } else {
            Expansion::Full
        })
    }

    fn remaining_successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let Some(por) = &self.por else {
            return Ok(());
        };
        let LayeredScratch {
            model,
            symmetry,
            por: ps,
            ..
        } = scratch;
        let ps = ps.as_mut().expect("scratch made with the layer");
        if !por.holds(ps, state) {
            // Not the state just expanded (the engine always asks right
            // after `reduced_successors`, but stay correct regardless).
            por.expand(self.model, model, ps, state)?;
        }
        if por.was_proper(ps) {
            let layer = self.symmetry.as_ref();
            let width = self.model.state_width();
            por.emit_part(ps, width, false, &mut |s| reduced(layer, symmetry, s, emit));
        }
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        let all = self.real_runs().initial()?;
        Ok(self.representatives(all))
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        let all = self.real_runs().successors(state)?;
        Ok(self.representatives(all))
    }

    fn check_state(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        self.model.check_state(&mut scratch.model, state)
    }

    fn has_goal(&self) -> bool {
        self.model.has_goal()
    }

    fn is_goal(&self, scratch: &mut Self::Scratch, state: &[u64]) -> Result<bool, ModelError> {
        self.model.is_goal(&mut scratch.model, state)
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.model.describe_state(state)
    }

    fn floods(&self) -> bool {
        self.symmetry.as_ref().is_some_and(SymmetryLayer::floods)
    }

    fn flood(&self, scratch: &mut Self::Scratch, state: &[u64], emit: &mut dyn FnMut(&[u64])) {
        if let (Some(layer), Some(ss)) = (&self.symmetry, &mut scratch.symmetry) {
            layer.flood(state, ss, emit);
        }
    }

    fn exports_context(&self) -> bool {
        self.model.exports_context()
    }

    fn export_context(&self, state: &[u64], fresh: &mut dyn FnMut(u64) -> bool, out: &mut Vec<u8>) {
        self.model.export_context(state, fresh, out);
    }

    fn import_context(&self, bytes: &[u8]) -> Result<(), String> {
        self.model.import_context(bytes)
    }
}

impl<M: Model, S: StateSymmetry> Layered<'_, M, S> {
    /// Replaces each labelled state by its representative (traces only).
    fn representatives(&self, mut all: Vec<LabelledState>) -> Vec<LabelledState> {
        if let Some(layer) = &self.symmetry {
            let mut scratch = layer.new_scratch();
            for l in &mut all {
                l.state = layer.reduce(&l.state, &mut scratch).into();
            }
        }
        all
    }
}

/// A model's labelled transitions, from the very successor function the
/// search uses ([`Step::label`]).
pub struct ModelRuns<'m, M: Model>(pub &'m M);

impl<M: Model> RealRuns for ModelRuns<'_, M> {
    fn initial(&self) -> Result<Vec<LabelledState>, ModelError> {
        let mut scratch = self.0.new_scratch();
        let mut all = Vec::new();
        self.0.initial_states(&mut scratch, &mut |step, s| {
            debug_assert_eq!(step.group(), INITIAL_GROUP);
            all.push(labelled(step, s));
        })?;
        Ok(all)
    }

    fn successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        let mut scratch = self.0.new_scratch();
        let mut all = Vec::new();
        self.0.successors(&mut scratch, state, &mut |step, s| {
            all.push(labelled(step, s))
        })?;
        Ok(all)
    }
}

fn labelled(step: &dyn Step, state: &[u64]) -> LabelledState {
    LabelledState {
        label: step.label(),
        state: state.into(),
    }
}
