//! The model as the LTL check reads it: a [`TransitionSystem`] over the
//! model's states (with its symmetry layer) whose every step carries its
//! group (operation, rule) as a tag, and whose deadlocks stay forever by a
//! step of no operation tagged [`STUTTER`], as ProB treats a finite run.
//! Its graph ([`crate::temporal::graph::StateGraph`]) labels each state
//! with its *letter*, the bits of the state atoms (`{p}`, `e(op)`,
//! `deadlock`) that hold there; the step atoms `[op]` and `[op(args)]` are
//! read from the tag of the step taken: its group in the low 32 bits, and
//! bit 32 + `i` set when the step matches the arguments of the `i`-th step
//! atom with arguments of the run ([`step_bits`]).
//!
//! After an expansion the scratch keeps the groups enabled in the state
//! ([`LetteredScratch::enabled`]), which the letter and fairness read.
//!
//! With a partial order reduction layer ([`LetteredModel::with_por`], whose
//! visible groups are those that may change the atoms, see
//! [`super::reduction`]) the system reduces: a state's successors are those
//! of an ample set, the rest on demand.

use super::formula::Among;
use crate::checker::{Layered, LayeredScratch};
use crate::model::{Model, Permutation, StatePredicate, StateSymmetry, Step, StepArguments};
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
    /// `[op(args)]`: the step's group is one of these and its arguments
    /// are the values the front end computes in the state it leaves.
    TakenWith(Vec<usize>, StepArguments<'m, Sc>),
    /// `deadlock`: no step.
    Deadlock,
    /// `deadlock(ops)`, `controller(ops)`, `deterministic(ops)`: per
    /// operation its groups; how many operations may be enabled.
    EnabledAmong(Among, Vec<Vec<usize>>),
    /// `sink`: no step leaves the state.
    Sink,
}

/// Most step atoms with arguments in one run (one tag bit each).
pub const MAX_STEP_ATOMS: usize = 32;

/// The atoms of a formula, compiled, and how they make letters.
pub struct Letters<'m, Sc> {
    atoms: Vec<CompiledAtom<'m, Sc>>,
    /// The bits of the predicate atoms.
    pub predicates: u64,
    /// Per group, the bits of the step atoms its steps make true.
    taken: Vec<u64>,
    /// Per step atom with arguments: its bit, and its tag bit (above 32).
    with_args: Vec<(u32, u32)>,
}

impl<'m, Sc> Letters<'m, Sc> {
    /// The letters of `atoms` on a model of `groups` groups; the step
    /// atoms with arguments take the tag bits from `first_tag_bit` on.
    pub fn new(atoms: Vec<CompiledAtom<'m, Sc>>, groups: usize, first_tag_bit: usize) -> Self {
        let mut predicates = 0u64;
        let mut taken = vec![0u64; groups];
        let mut with_args = Vec::new();
        for (k, atom) in atoms.iter().enumerate() {
            match atom {
                CompiledAtom::Predicate(_) => predicates |= 1 << k,
                CompiledAtom::Taken(gs) => gs.iter().for_each(|&g| taken[g] |= 1 << k),
                CompiledAtom::TakenWith(..) => {
                    with_args.push((k as u32, (first_tag_bit + with_args.len()) as u32));
                }
                CompiledAtom::Enabled(_)
                | CompiledAtom::Deadlock
                | CompiledAtom::EnabledAmong(..)
                | CompiledAtom::Sink => {}
            }
        }
        Letters {
            atoms,
            predicates,
            taken,
            with_args,
        }
    }

    /// Number of step atoms with arguments (tag bits taken).
    pub fn step_atoms_with_arguments(&self) -> usize {
        self.with_args.len()
    }

    /// The step atoms' bits per group, and per step atom with arguments
    /// its bit and tag bit (what [`step_bits`] reads).
    pub fn step_tables(&self) -> (&[u64], &[(u32, u32)]) {
        (&self.taken, &self.with_args)
    }

    /// The bits of the state atoms (all but `[op]`).
    pub fn state_atoms(&self) -> u64 {
        self.atoms
            .iter()
            .enumerate()
            .filter(|(_, a)| !matches!(a, CompiledAtom::Taken(_) | CompiledAtom::TakenWith(..)))
            .fold(0u64, |m, (k, _)| m | 1 << k)
    }

    /// The letter of `state`, whose enabled groups are the bits `enabled`
    /// and which a step leaves (to another state) when `moves`.
    pub fn state(
        &self,
        scratch: &mut Sc,
        state: &[u64],
        enabled: &[u64],
        moves: bool,
    ) -> Result<u64, ModelError> {
        let mut letter = 0u64;
        let deadlock = enabled.iter().all(|&e| e == 0);
        let on = |gs: &[usize]| gs.iter().any(|&g| enabled[g / 64] >> (g % 64) & 1 == 1);
        for (k, atom) in self.atoms.iter().enumerate() {
            let holds = match atom {
                CompiledAtom::Predicate(p) => p(scratch, state)?,
                CompiledAtom::Enabled(gs) => on(gs),
                CompiledAtom::EnabledAmong(among, ops) => {
                    among.holds(ops.iter().filter(|gs| on(gs)).count())
                }
                CompiledAtom::Sink => !moves,
                CompiledAtom::Taken(_) | CompiledAtom::TakenWith(..) => false,
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

/// The bits of the step atoms true on a step tagged `tag`: those of its
/// group (`taken`) and those of the step atoms with arguments (atom bit,
/// tag bit) whose tag bit it has.
#[inline]
pub fn step_bits(taken: &[u64], with_args: &[(u32, u32)], tag: u64) -> u64 {
    let mut bits = taken[tag as u32 as usize];
    for &(atom, bit) in with_args {
        bits |= (tag >> bit & 1) << atom;
    }
    bits
}

/// The model with tagged steps (see the module docs).
pub struct LetteredModel<'a, 'm, M: Model, S: StateSymmetry> {
    layered: &'a Layered<'m, M, S>,
    letters: &'a [Letters<'a, M::Scratch>],
    /// Every step atom with arguments of the letters: its groups, its
    /// arguments and its tag bit.
    with_args: Vec<StepAtom<'a, M::Scratch>>,
    /// Some letter reads `sink`: expansions note whether a step leaves.
    sink: bool,
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
    /// Per step atom with arguments, their values in the state expanded.
    values: Vec<ArgumentValues>,
    /// Whether a step of the state last expanded leaves it (noted only
    /// when a letter reads `sink`).
    moves: bool,
}

/// The values of a step atom's arguments in a state (`None`: any).
type ArgumentValues = Vec<Option<Box<dyn std::any::Any + Send>>>;

/// Receives a tagged successor with its step (`None`: a deadlock's stutter).
type TaggedEmit<'e> = dyn FnMut(Option<&dyn Step>, &[u64]) + 'e;

/// A step atom with arguments: its groups, its arguments, its tag bit.
type StepAtom<'a, Sc> = (&'a [usize], &'a StepArguments<'a, Sc>, u32);

impl<MS, SS> LetteredScratch<MS, SS> {
    /// The groups enabled in the state last expanded, as bits.
    pub fn enabled(&self) -> &[u64] {
        &self.enabled
    }

    /// The model's scratch, the enabled groups' bits and whether a step
    /// leaves the state, apart.
    pub fn model_and_enabled(&mut self) -> (&mut MS, &[u64], bool) {
        (self.inner.model_mut(), &self.enabled, self.moves)
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
            with_args: letters
                .iter()
                .flat_map(|l| {
                    l.atoms
                        .iter()
                        .filter_map(|a| match a {
                            CompiledAtom::TakenWith(groups, args) => Some((&groups[..], args)),
                            _ => None,
                        })
                        .zip(&l.with_args)
                        .map(|((groups, args), &(_, bit))| (groups, args, bit))
                })
                .collect(),
            sink: letters
                .iter()
                .any(|l| l.atoms.iter().any(|a| matches!(a, CompiledAtom::Sink))),
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

    /// Emits every step of `state` as its representative followed by its
    /// tag (a deadlock: `state` tagged [`STUTTER`]), with the step, and
    /// leaves the enabled groups in the scratch.
    fn tagged_steps(
        &self,
        scratch: &mut LetteredScratch<M::Scratch, S::Scratch>,
        state: &[u64],
        emit: &mut TaggedEmit<'_>,
    ) -> Result<(), ModelError> {
        let LetteredScratch {
            inner,
            enabled,
            out,
            values,
            moves,
            ..
        } = scratch;
        *moves = false;
        values.clear();
        for (_, args, _) in &self.with_args {
            values.push(args(inner.model_mut(), state)?);
        }
        enabled.iter_mut().for_each(|e| *e = 0);
        let mut any = false;
        let (with_args, sink) = (&self.with_args, self.sink);
        self.layered
            .stepped_successors(inner, state, &mut |step, successor, rep| {
                if sink && !*moves {
                    *moves = successor != state;
                }
                let g = step.group();
                enabled[g / 64] |= 1 << (g % 64);
                any = true;
                let mut tag = g as u64;
                for ((groups, _, bit), values) in with_args.iter().zip(values.iter()) {
                    if groups.contains(&g) && arguments_match(step, values) {
                        tag |= 1 << bit;
                    }
                }
                emit(Some(step), tagged(out, rep, tag));
            })?;
        if !any {
            emit(None, tagged(out, state, u64::from(STUTTER)));
        }
        Ok(())
    }

    /// The label of a step of `state` tagged `tag` to `target` (a
    /// representative), for a counterexample; `None` when there is none.
    pub fn step_label(
        &self,
        scratch: &mut LetteredScratch<M::Scratch, S::Scratch>,
        state: &[u64],
        tag: u64,
        target: &[u64],
    ) -> Result<Option<String>, ModelError> {
        let width = state.len();
        let mut label = None;
        self.tagged_steps(scratch, state, &mut |step, out| {
            if label.is_none() && out[width] == tag && &out[..width] == target {
                label = step.map(|s| s.label());
            }
        })?;
        Ok(label)
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
            values: Vec::new(),
            moves: false,
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
        self.tagged_steps(scratch, state, &mut |_, out| emit(out))
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
        // The same bit layout: bit `g % 64` of word `g / 64`.
        let groups = por.enabled_groups(ps);
        enabled.copy_from_slice(&groups.words);
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

/// Whether each argument of `step` is the value in `values` (or any).
fn arguments_match(step: &dyn Step, values: &ArgumentValues) -> bool {
    values.iter().enumerate().all(|(k, v)| {
        v.as_ref()
            .is_none_or(|v| step.argument_is(k, v.as_ref()) == Some(true))
    })
}

/// `state` followed by the tag `tag`, in `out`.
#[inline]
fn tagged<'o>(out: &'o mut Vec<u64>, state: &[u64], tag: u64) -> &'o [u64] {
    out.clear();
    out.extend_from_slice(state);
    out.push(tag);
    out
}
