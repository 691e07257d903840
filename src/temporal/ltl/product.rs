//! The product of a model (with its symmetry layer) and a Büchi automaton,
//! as a [`TransitionSystem`] whose states are a model state followed by
//! one word, the automaton state.
//!
//! A product state `(s, q)` reads the letter of `s` in `q`: the state
//! atoms (`{p}`, `e(op)`, `deadlock`) are evaluated on `s`, the step atom
//! `[op]` on the transition taken from `s`. The product moves from `(s, q)`
//! along each model step `s -> s'` whose letter `q`'s label accepts, to
//! `(s', q')` for every automaton successor `q'`. A state without model
//! steps (a deadlock) is treated as ProB does: the run stays in it forever
//! by a step of no operation (`[op]` false, `deadlock` true). Each edge is
//! tagged with the group (operation, rule) of its step, or [`STUTTER`].
//! After an expansion the scratch keeps the groups enabled in `s`, which
//! fairness needs ([`Product::enabled`]).

use super::buchi::Buchi;
use crate::checker::{Layered, LayeredScratch};
use crate::model::{Model, Permutation, StatePredicate, StateSymmetry};
use workers::{LabelledState, ModelError, TransitionSystem, Violation};

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

/// The product (see the module docs).
pub struct Product<'a, 'm, M: Model, S: StateSymmetry> {
    layered: &'a Layered<'m, M, S>,
    buchi: &'a Buchi,
    atoms: Vec<CompiledAtom<'a, M::Scratch>>,
    groups: usize,
    /// With symmetry: check on states' permutation images that every
    /// predicate atom is invariant.
    check_invariance: bool,
    /// The predicate atoms' bits, and per automaton state the predicate
    /// literals of its label (atoms that must hold, atoms that must not):
    /// a product state whose model state contradicts them is never made.
    predicates: u64,
    must: Vec<u64>,
    must_not: Vec<u64>,
}

/// Per-thread buffers of the product.
pub struct ProductScratch<MS, SS> {
    inner: LayeredScratch<MS, SS>,
    /// The model successors of the state being expanded: group, words.
    groups: Vec<u32>,
    words: Vec<u64>,
    /// Bit `g` set when group `g` is enabled in the last expanded state.
    enabled: Vec<u64>,
    out: Vec<u64>,
    /// Expansions so far (the invariance check samples them).
    expanded: u64,
    perm: Option<Permutation>,
}

impl<MS, SS> ProductScratch<MS, SS> {
    /// The groups enabled in the state last expanded, as bits.
    pub fn enabled(&self) -> &[u64] {
        &self.enabled
    }
}

/// Expansions whose predicate atoms are all checked for invariance before
/// the check samples one state in [`CHECK_EVERY`].
const CHECK_FIRST: u64 = 4096;
/// The sampling of the invariance check after [`CHECK_FIRST`].
const CHECK_EVERY: u64 = 64;

impl<'a, 'm, M: Model, S: StateSymmetry> Product<'a, 'm, M, S> {
    /// The product of `layered` and `buchi` with the compiled `atoms`.
    pub fn new(
        layered: &'a Layered<'m, M, S>,
        buchi: &'a Buchi,
        atoms: Vec<CompiledAtom<'a, M::Scratch>>,
    ) -> Self {
        let predicates = atoms
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, CompiledAtom::Predicate(_)))
            .fold(0u64, |m, (k, _)| m | 1 << k);
        let literals = |positive: bool| -> Vec<u64> {
            buchi
                .labels
                .iter()
                .map(|label| {
                    label
                        .iter()
                        .filter(|l| l.positive == positive)
                        .fold(0u64, |m, l| m | 1 << l.atom)
                        & predicates
                })
                .collect()
        };
        Product {
            layered,
            buchi,
            check_invariance: layered.symmetry().is_some() && predicates != 0,
            must: literals(true),
            must_not: literals(false),
            predicates,
            atoms,
            groups: layered.model().groups().len(),
        }
    }

    /// The predicate atoms' bits of the model state `state`.
    fn predicate_bits(&self, scratch: &mut M::Scratch, state: &[u64]) -> Result<u64, ModelError> {
        let mut bits = 0u64;
        for (k, atom) in self.atoms.iter().enumerate() {
            if let CompiledAtom::Predicate(p) = atom
                && p(scratch, state)?
            {
                bits |= 1 << k;
            }
        }
        Ok(bits)
    }

    /// Whether a model state with predicate bits `bits` fits the
    /// predicate literals of automaton state `q`.
    fn fits(&self, q: u32, bits: u64) -> bool {
        let q = q as usize;
        self.must[q] & !bits == 0 && self.must_not[q] & bits == 0
    }

    /// Words of the model's states.
    pub fn model_width(&self) -> usize {
        self.layered.model().state_width()
    }

    /// The state atoms' bits of `state` (the model state) with `enabled`
    /// groups (the step atoms are added per step).
    fn state_letter(&self, predicates: u64, enabled: &[u64], deadlock: bool) -> u64 {
        let mut letter = predicates;
        for (k, atom) in self.atoms.iter().enumerate() {
            let holds = match atom {
                CompiledAtom::Predicate(_) => false,
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
        letter
    }

    /// The step atoms' bits of a step of `group` ([`STUTTER`]: none).
    fn step_letter(&self, group: u32) -> u64 {
        let mut letter = 0u64;
        for (k, atom) in self.atoms.iter().enumerate() {
            if let CompiledAtom::Taken(gs) = atom
                && gs.contains(&(group as usize))
            {
                letter |= 1 << k;
            }
        }
        letter
    }

    /// Refuses the run when a predicate atom differs on `state` and a
    /// random permutation image of it (symmetry needs invariant atoms).
    #[cold]
    fn check_invariant(
        &self,
        scratch: &mut ProductScratch<M::Scratch, S::Scratch>,
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
        for atom in &self.atoms {
            if let CompiledAtom::Predicate(p) = atom
                && p(model, state)? != p(model, &image)?
            {
                return Err(ModelError::refused(format!(
                    "an atom of the LTL formula is not invariant under the symmetry's \
                     permutations ({}): symmetry reduction would change its verdict; \
                     run without --symmetry",
                    crate::symmetry::soundness::describe_permutation(layer.symmetry(), perm)
                )));
            }
        }
        Ok(())
    }
}

impl<M: Model, S: StateSymmetry> TransitionSystem for Product<'_, '_, M, S> {
    type Scratch = ProductScratch<M::Scratch, S::Scratch>;

    fn new_scratch(&self) -> Self::Scratch {
        ProductScratch {
            inner: self.layered.new_scratch(),
            groups: Vec::new(),
            words: Vec::new(),
            enabled: vec![0; self.groups.div_ceil(64).max(1)],
            out: Vec::new(),
            expanded: 0,
            perm: None,
        }
    }

    /// The model's words and the automaton state (successors carry one
    /// more word, the tag).
    fn state_width(&self) -> usize {
        self.model_width() + 1
    }

    fn initial_states(
        &self,
        scratch: &mut Self::Scratch,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let mut initial = Vec::new();
        self.layered
            .initial_states(&mut scratch.inner, &mut |s| initial.push(s.to_vec()))?;
        for s in initial {
            let bits = self.predicate_bits(scratch.inner.model_mut(), &s)?;
            for &q in self.buchi.initial.iter().filter(|&&q| self.fits(q, bits)) {
                scratch.out.clear();
                scratch.out.extend_from_slice(&s);
                scratch.out.push(u64::from(q));
                emit(&scratch.out);
            }
        }
        Ok(())
    }

    fn successors(
        &self,
        scratch: &mut Self::Scratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let w = self.model_width();
        let (s, q) = (&state[..w], state[w] as u32);
        if self.check_invariance {
            let n = scratch.expanded;
            scratch.expanded += 1;
            if n < CHECK_FIRST || workers::fingerprint(s).is_multiple_of(CHECK_EVERY) {
                self.check_invariant(scratch, s)?;
            }
        }
        let ProductScratch {
            inner,
            groups,
            words,
            enabled,
            out,
            ..
        } = scratch;
        groups.clear();
        words.clear();
        enabled.iter_mut().for_each(|e| *e = 0);
        let bits = self.predicate_bits(inner.model_mut(), s)?;
        if !self.fits(q, bits) {
            // Not made by the product's own successors; an initial state
            // whose label contradicts it has no run.
            return Ok(());
        }
        self.layered
            .stepped_successors(inner, s, &mut |step, rep| {
                let g = step.group();
                enabled[g / 64] |= 1 << (g % 64);
                groups.push(g as u32);
                words.extend_from_slice(rep);
            })?;
        let deadlock = groups.is_empty();
        let letter = self.state_letter(bits, enabled, deadlock);
        let next = &self.buchi.successors[q as usize];
        let mut step = |group: u32, target: &[u64], out: &mut Vec<u64>| -> Result<(), ModelError> {
            if !self.buchi.reads(q, letter | self.step_letter(group)) {
                return Ok(());
            }
            let target_bits = if self.predicates == 0 {
                0
            } else {
                self.predicate_bits(inner.model_mut(), target)?
            };
            for &q2 in next.iter().filter(|&&q2| self.fits(q2, target_bits)) {
                out.clear();
                out.extend_from_slice(target);
                out.push(u64::from(q2));
                out.push(u64::from(group));
                emit(out);
            }
            Ok(())
        };
        if deadlock {
            step(STUTTER, s, out)?;
        } else {
            for (k, &g) in groups.iter().enumerate() {
                step(g, &words[k * w..(k + 1) * w], out)?;
            }
        }
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
        self.layered
            .model()
            .describe_state(&state[..self.model_width()])
    }
}
