//! The model as the LTL check reads it: a [`TransitionSystem`] over the
//! model's states (with its symmetry layer) whose every step carries its
//! group (operation, rule) as a tag, and whose deadlocks stay forever by a
//! step of no operation tagged [`STUTTER`], as ProB treats a finite run.
//! Its graph ([`crate::temporal::graph::StateGraph`]) labels each state
//! with its *letter*, the bits of the state atoms (`{p}`, `e(op)`,
//! `deadlock`) that hold there; the step atom `[op]` is read from the tag
//! of the step taken ([`Letters::taken`]).
//!
//! After an expansion the scratch keeps the groups enabled in the state
//! ([`LetteredScratch::enabled`]), which the letter and fairness read.
//!
//! With a partial order reduction layer ([`LetteredModel::with_por`], whose
//! visible groups are those that may change the atoms, see
//! [`super::reduction`]) the system reduces: a state's successors are those
//! of an ample set, the rest on demand.

use crate::checker::{Layered, LayeredScratch};
use crate::model::{Model, Permutation, StatePredicate, StateSymmetry};
use crate::por::{PorLayer, PorScratch};
use workers::{Expansion, LabelledState, ModelError, TransitionSystem, Violation};

/// The tag of a deadlock's step of no operation.
pub const STUTTER: u32 = u32::MAX;

/// An atom compiled against the model.
pub enum CompiledAtom<'m, Sc> {
    /// `{p}`: the front end's predicate.
    Predicate(StatePredicate<'m, Sc>),
    /// `e(op)`: a group of these is enabled.
    Enabled(Vec<usize>),
    /// `[op]`: the step's group is one of these.
    Taken(Vec<usize>),
    /// `deadlock`: no step.
    Deadlock,
}

/// The atoms of a formula, compiled, and how they make letters.
pub struct Letters<'m, Sc> {
    atoms: Vec<CompiledAtom<'m, Sc>>,
    /// The bits of the predicate atoms.
    pub predicates: u64,
    /// Per group, the bits of the step atoms its steps make true.
    taken: Vec<u64>,
}

impl<'m, Sc> Letters<'m, Sc> {
    /// The letters of `atoms` on a model of `groups` groups.
    pub fn new(atoms: Vec<CompiledAtom<'m, Sc>>, groups: usize) -> Self {
        let mut predicates = 0u64;
        let mut taken = vec![0u64; groups];
        for (k, atom) in atoms.iter().enumerate() {
            match atom {
                CompiledAtom::Predicate(_) => predicates |= 1 << k,
                CompiledAtom::Taken(gs) => gs.iter().for_each(|&g| taken[g] |= 1 << k),
                CompiledAtom::Enabled(_) | CompiledAtom::Deadlock => {}
            }
        }
        Letters {
            atoms,
            predicates,
            taken,
        }
    }

    /// Per group, the bits of the step atoms true on its steps.
    pub fn taken(&self) -> &[u64] {
        &self.taken
    }

    /// The bits of the state atoms (all but `[op]`).
    pub fn state_atoms(&self) -> u64 {
        self.atoms
            .iter()
            .enumerate()
            .filter(|(_, a)| !matches!(a, CompiledAtom::Taken(_)))
            .fold(0u64, |m, (k, _)| m | 1 << k)
    }

    /// The letter of `state`, whose enabled groups are the bits `enabled`.
    pub fn state(
        &self,
        scratch: &mut Sc,
        state: &[u64],
        enabled: &[u64],
    ) -> Result<u64, ModelError> {
        let mut letter = 0u64;
        let deadlock = enabled.iter().all(|&e| e == 0);
        for (k, atom) in self.atoms.iter().enumerate() {
            let holds = match atom {
                CompiledAtom::Predicate(p) => p(scratch, state)?,
                CompiledAtom::Enabled(gs) => {
                    gs.iter().any(|&g| enabled[g / 64] >> (g % 64) & 1 == 1)
                }
                CompiledAtom::Taken(_) => false,
                CompiledAtom::Deadlock => deadlock,
            };
            if holds {
                letter |= 1 << k;
            }
        }
        Ok(letter)
    }

    /// Whether a predicate atom differs on `a` and `b`.
    fn predicates_differ(
        &self,
        scratch: &mut Sc,
        a: &[u64],
        b: &[u64],
    ) -> Result<bool, ModelError> {
        for atom in &self.atoms {
            if let CompiledAtom::Predicate(p) = atom
                && p(scratch, a)? != p(scratch, b)?
            {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The model with tagged steps (see the module docs).
pub struct LetteredModel<'a, 'm, M: Model, S: StateSymmetry> {
    layered: &'a Layered<'m, M, S>,
    letters: &'a [Letters<'a, M::Scratch>],
    por: Option<&'a PorLayer>,
    groups: usize,
    /// With symmetry: check on states' permutation images that every
    /// predicate atom is invariant.
    check_invariance: bool,
}

/// Per-thread buffers of the lettered model.
pub struct LetteredScratch<MS, SS> {
    inner: LayeredScratch<MS, SS>,
    /// Bit `g` set when group `g` is enabled in the last expanded state.
    enabled: Vec<u64>,
    out: Vec<u64>,
    /// Expansions so far (the invariance check samples them).
    expanded: u64,
    perm: Option<Permutation>,
    por: Option<PorScratch>,
}

impl<MS, SS> LetteredScratch<MS, SS> {
    /// The groups enabled in the state last expanded, as bits.
    pub fn enabled(&self) -> &[u64] {
        &self.enabled
    }

    /// The model's scratch and the enabled groups' bits, apart.
    pub fn model_and_enabled(&mut self) -> (&mut MS, &[u64]) {
        (self.inner.model_mut(), &self.enabled)
    }
}

/// Expansions whose predicate atoms are all checked for invariance before
/// the check samples one state in [`CHECK_EVERY`].
const CHECK_FIRST: u64 = 4096;
/// The sampling of the invariance check after [`CHECK_FIRST`].
const CHECK_EVERY: u64 = 64;

impl<'a, 'm, M: Model, S: StateSymmetry> LetteredModel<'a, 'm, M, S> {
    /// `layered` read through the `letters` of one or more properties.
    pub fn new(layered: &'a Layered<'m, M, S>, letters: &'a [Letters<'a, M::Scratch>]) -> Self {
        LetteredModel {
            layered,
            check_invariance: layered.symmetry().is_some()
                && letters.iter().any(|l| l.predicates != 0),
            letters,
            por: None,
            groups: layered.model().groups().len(),
        }
    }

    /// The same, expanded through the ample sets of `por`.
    pub fn with_por(mut self, por: Option<&'a PorLayer>) -> Self {
        self.por = por;
        self
    }

    /// Checks the predicate atoms' invariance on `state` when sampled.
    fn sample_invariance(
        &self,
        scratch: &mut LetteredScratch<M::Scratch, S::Scratch>,
        state: &[u64],
    ) -> Result<(), ModelError> {
        if self.check_invariance {
            let n = scratch.expanded;
            scratch.expanded += 1;
            if n < CHECK_FIRST || workers::fingerprint(state).is_multiple_of(CHECK_EVERY) {
                self.check_invariant(scratch, state)?;
            }
        }
        Ok(())
    }

    /// Refuses the run when a predicate atom differs on `state` and a
    /// random permutation image of it (symmetry needs invariant atoms).
    #[cold]
    fn check_invariant(
        &self,
        scratch: &mut LetteredScratch<M::Scratch, S::Scratch>,
        state: &[u64],
    ) -> Result<(), ModelError> {
        let Some(layer) = self.layered.symmetry() else {
            return Ok(());
        };
        let perm = scratch
            .perm
            .get_or_insert_with(|| Permutation::identity(&layer.domains().set_sizes));
        let seed = workers::fingerprint(state);
        crate::symmetry::soundness::random_permutation(layer.symmetry(), seed, perm);
        let Some(image) = layer.permute(perm, state) else {
            return Ok(());
        };
        let model = scratch.inner.model_mut();
        let mut differ = false;
        for letters in self.letters {
            differ = differ || letters.predicates_differ(model, state, &image)?;
        }
        if differ {
            return Err(ModelError::refused(format!(
                "an atom of the LTL formula is not invariant under the symmetry's \
                 permutations ({}): symmetry reduction would change its verdict; \
                 run without --symmetry",
                crate::symmetry::soundness::describe_permutation(layer.symmetry(), perm)
            )));
        }
        Ok(())
    }
}

impl<M: Model, S: StateSymmetry> TransitionSystem for LetteredModel<'_, '_, M, S> {
    type Scratch = LetteredScratch<M::Scratch, S::Scratch>;

    fn new_scratch(&self) -> Self::Scratch {
        LetteredScratch {
            inner: self.layered.new_scratch(),
            enabled: vec![0; self.groups.div_ceil(64).max(1)],
            out: Vec::new(),
            expanded: 0,
            perm: None,
            por: self.por.map(PorLayer::new_scratch),
        }
    }

    /// The model's words (successors carry one more word, the tag).
    fn state_width(&self) -> usize {
        self.layered.model().state_width()
    }

    fn initial_states(
        &self,
        scratch: &mut Self::Scratch,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.layered.initial_states(&mut scratch.inner, emit)
    }

    fn successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.sample_invariance(scratch, state)?;
        let LetteredScratch {
            inner,
            enabled,
            out,
            ..
        } = scratch;
        enabled.iter_mut().for_each(|e| *e = 0);
        let mut any = false;
        self.layered
            .stepped_successors(inner, state, &mut |step, rep| {
                let g = step.group();
                enabled[g / 64] |= 1 << (g % 64);
                any = true;
                emit(tagged(out, rep, g as u64));
            })?;
        if !any {
            emit(tagged(out, state, u64::from(STUTTER)));
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
        let Some(por) = self.por else {
            self.successors(scratch, state, emit)?;
            return Ok(Expansion::Full);
        };
        self.sample_invariance(scratch, state)?;
        let LetteredScratch {
            inner,
            enabled,
            out,
            por: ps,
            ..
        } = scratch;
        let ps = ps.as_mut().expect("scratch made with the layer");
        let proper =
            self.layered
                .ample_stepped_successors(inner, por, ps, state, &mut |g, rep| {
                    emit(tagged(out, rep, g as u64))
                })?;
        let groups = por.enabled_groups(ps);
        enabled.iter_mut().for_each(|e| *e = 0);
        for g in groups.iter() {
            enabled[g / 64] |= 1 << (g % 64);
        }
        if groups.is_empty() {
            emit(tagged(out, state, u64::from(STUTTER)));
        }
        Ok(if proper {
            Expansion::Ample { proviso: true }
        } else {
            Expansion::Full
        })
    }

    fn remaining_successors(
        &self,
        scratch: &mut Self::Scratch,
        _state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let (
            Some(por),
            LetteredScratch {
                inner,
                out,
                por: Some(ps),
                ..
            },
        ) = (self.por, scratch)
        else {
            return Ok(());
        };
        self.layered
            .remaining_stepped_successors(inner, por, ps, &mut |g, rep| {
                emit(tagged(out, rep, g as u64))
            });
        Ok(())
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(Vec::new())
    }

    fn labelled_successors(&self, _state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        Ok(Vec::new())
    }

    fn check_state(
        &self,
        _scratch: &mut Self::Scratch,
        _state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        Ok(None)
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.layered.model().describe_state(state)
    }
}

/// `state` followed by the tag `tag`, in `out`.
#[inline]
fn tagged<'o>(out: &'o mut Vec<u64>, state: &[u64], tag: u64) -> &'o [u64] {
    out.clear();
    out.extend_from_slice(state);
    out.push(tag);
    out
}
