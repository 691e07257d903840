//! A B machine explored modulo symmetry: [`SymmetricSystem`] wraps a
//! [`BSystem`] and maps every initial state and successor it emits to the
//! representative of its orbit ([`Canonicaliser`], exact; or exact markers,
//! several per orbit) or of its symmetry marker ([`Markers`], approximate),
//! so that the engine's visited set holds one state per orbit (per
//! marker). With permutation flooding ([`Flood`]) states are not mapped;
//! instead the engine's flood hook stores each new state's orbit as seen.
//! Everything else (checks, goal, printing) is the wrapped machine's: a
//! representative is a real state of the machine, symmetric to the one
//! reached. Only the constant valuations that ProB's rules keep
//! ([`ConstantRules`](super::ConstantRules)) are set up, at least one per
//! orbit.
//!
//! Labelled successors are representatives too;
//! [`SymmetricSystem::real_trace`] turns a trace of representatives back
//! into a run of the unreduced machine.

use super::canonical::{CanonScratch, Canonicaliser};
use super::flood::{Flood, FloodScratch};
use super::markers::{MarkerScratch, Markers};
use super::{Interchangeable, Permutation};
use crate::b::system::{BScratch, BSystem};
use crate::b::value::Value;
use std::collections::HashSet;
use workers::{LabelledState, ModelError, TransitionSystem, Violation};

/// How states are mapped to representatives.
enum Reducer {
    /// Canonical labelling: one state per orbit.
    Canon(Canonicaliser),
    /// Symmetry markers: one state per marker.
    Markers(Markers),
    /// Exact markers: elements sorted by their markers.
    SortedMarkers(Markers, Interchangeable),
    /// Permutation flooding: one state per orbit explored, all of it in
    /// the engine's visited set.
    Flood(Flood),
}

/// A [`BSystem`] whose states are representatives of their orbits.
pub struct SymmetricSystem<'a> {
    inner: &'a BSystem,
    reducer: Reducer,
    /// The constant words of the valuations [`ConstantRules`](super::ConstantRules) keeps, or
    /// `None` when every valuation is kept.
    setups: Option<HashSet<Box<[u64]>>>,
    /// Per constant valuation, whether its initial states are computed:
    /// one kept valuation per orbit of valuations (see
    /// [`Self::initial_states`](TransitionSystem::initial_states)); `None`
    /// sets up every kept valuation.
    initialised: Option<Vec<bool>>,
    /// Number of orbits of the constant valuations, when computed for
    /// `initialised`.
    valuation_orbits: Option<usize>,
}

/// Per-thread buffers: the machine's and the reducer's.
pub struct SymScratch {
    inner: BScratch,
    reduce: ReduceScratch,
}

/// Per-thread buffers of the reducer.
struct ReduceScratch {
    canon: CanonScratch,
    markers: MarkerScratch,
    flood: FloodScratch,
}

impl<'a> SymmetricSystem<'a> {
    /// Wraps `inner`, permuting the elements `sym` calls interchangeable;
    /// states are canonical representatives.
    pub fn new(inner: &'a BSystem, sym: &Interchangeable) -> Self {
        let layout = inner.layout();
        Self::with_reducer(
            inner,
            sym,
            Reducer::Canon(Canonicaliser::new(layout, sym, layout.slots().len())),
        )
    }

    /// Wraps `inner` with approximate reduction by symmetry markers.
    pub fn with_markers(inner: &'a BSystem, sym: &Interchangeable) -> Self {
        let layout = inner.layout();
        Self::with_reducer(
            inner,
            sym,
            Reducer::Markers(Markers::new(layout, sym, layout.slots().len())),
        )
    }

    /// Wraps `inner` with exact markers (elements ordered by markers).
    pub fn with_exact_markers(inner: &'a BSystem, sym: &Interchangeable) -> Self {
        let layout = inner.layout();
        Self::with_reducer(
            inner,
            sym,
            Reducer::SortedMarkers(Markers::new(layout, sym, layout.slots().len()), sym.clone()),
        )
    }

    /// Wraps `inner` with permutation flooding.
    pub fn with_flooding(inner: &'a BSystem, sym: &Interchangeable) -> Self {
        Self::with_reducer(inner, sym, Reducer::Flood(Flood::new(inner.layout(), sym)))
    }

    /// Wraps `inner`, setting up only the constant valuations its
    /// [`ConstantRules`](super::ConstantRules) keep. The rules are only sound for the symmetries
    /// they were found for: with other elements `sym`, every valuation is
    /// set up.
    fn with_reducer(inner: &'a BSystem, sym: &Interchangeable, reducer: Reducer) -> Self {
        let layout = inner.layout();
        let rules = &inner.constant_rules;
        let sound = *sym == inner.interchangeable;
        let setups = (sound && layout.constant_count() > 0 && !rules.is_trivial()).then(|| {
            let mut words = Vec::new();
            inner
                .valuations()
                .iter()
                .filter(|v| rules.keeps(v))
                .filter_map(|v| {
                    layout.encode(v, &[], &mut words).ok()?;
                    Some(words[..layout.constant_words()].into())
                })
                .collect()
        });
        // Exact markers may keep several representatives per orbit, so
        // their counts depend on which valuations are set up: keep them all.
        let one_per_orbit =
            layout.constant_count() > 0 && !matches!(reducer, Reducer::SortedMarkers(..));
        let (initialised, valuation_orbits) = if one_per_orbit {
            let keep = |v: &[Value]| !sound || rules.keeps(v);
            let (chosen, orbits) = one_valuation_per_orbit(inner, sym, &keep);
            (Some(chosen), Some(orbits))
        } else {
            (None, None)
        };
        SymmetricSystem {
            inner,
            reducer,
            setups,
            initialised,
            valuation_orbits,
        }
    }

    /// Number of orbits of the constant valuations under the symmetry
    /// group, when the wrapper computed it (exact modes with constants).
    pub fn valuation_orbits(&self) -> Option<usize> {
        self.valuation_orbits
    }

    /// Number of constant valuations set up: those ProB's symmetry rules
    /// for constants keep (0 for a machine without constants).
    pub fn setups(&self) -> usize {
        match &self.setups {
            Some(kept) => kept.len(),
            None => self.inner.constant_valuations,
        }
    }

    /// Whether `state` starts from a constant valuation that is set up.
    fn is_setup(&self, state: &[u64]) -> bool {
        self.setups
            .as_ref()
            .is_none_or(|kept| kept.contains(&state[..self.inner.layout().constant_words()]))
    }

    fn new_reduce_scratch(&self) -> ReduceScratch {
        let canon = match &self.reducer {
            Reducer::Canon(c) => c.new_scratch(),
            Reducer::Markers(_) | Reducer::SortedMarkers(..) | Reducer::Flood(_) => {
                Canonicaliser::new(self.inner.layout(), &Interchangeable::none(), 0).new_scratch()
            }
        };
        ReduceScratch {
            canon,
            markers: MarkerScratch::default(),
            flood: FloodScratch::default(),
        }
    }

    /// The representative of `state`, in the scratch's output buffer.
    #[inline]
    fn reduce<'s>(&self, state: &'s [u64], scratch: &'s mut ReduceScratch) -> &'s [u64] {
        let layout = self.inner.layout();
        match &self.reducer {
            Reducer::Canon(c) => {
                c.canonicalise(layout, state, &mut scratch.canon);
                &scratch.canon.out
            }
            Reducer::Markers(m) => {
                m.representative(layout, state, &mut scratch.markers);
                &scratch.markers.out
            }
            Reducer::SortedMarkers(m, sym) => {
                m.sorted_representative(layout, state, sym, &mut scratch.markers);
                &scratch.markers.out
            }
            // Flooding explores the states as reached (see `flood`).
            Reducer::Flood(_) => state,
        }
    }

    /// Whether each representative is a permutation image of its state
    /// (every mode but approximate markers).
    pub fn maps_by_permutation(&self) -> bool {
        !matches!(self.reducer, Reducer::Markers(_))
    }

    /// The representative of `state` and a permutation that maps `state`
    /// to it, or `None` for approximate markers, whose representatives
    /// need not be symmetric to the state (allocates: for traces only).
    pub fn to_representative(&self, state: &[u64]) -> Option<(Box<[u64]>, Permutation)> {
        let layout = self.inner.layout();
        let sizes = &self.inner.interchangeable.set_sizes;
        let perm = match &self.reducer {
            Reducer::Markers(_) => return None,
            Reducer::Flood(_) => Permutation::identity(sizes),
            Reducer::Canon(c) => {
                let mut scratch = c.new_scratch();
                if c.derive(layout, state, &mut scratch) {
                    c.permutation(&scratch).clone()
                } else {
                    Permutation::identity(sizes)
                }
            }
            Reducer::SortedMarkers(m, sym) => {
                m.sorting_permutation(layout, state, sym, &mut MarkerScratch::default())
            }
        };
        let mut image = Vec::new();
        match perm.apply_state(layout, state, &mut image) {
            Ok(()) => Some((image.into(), perm)),
            Err(_) => Some((state.into(), Permutation::identity(sizes))),
        }
    }

    /// The initial states of the unreduced machine that are set up (see
    /// [`ConstantRules`](super::ConstantRules)), with their labels.
    pub fn real_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        let mut initial = self.inner.labelled_initial_states()?;
        initial.retain(|l| self.is_setup(&l.state));
        Ok(initial)
    }

    /// The wrapped machine.
    pub fn inner(&self) -> &BSystem {
        self.inner
    }

    /// The representative of `state` (allocates: not for the hot path).
    pub fn representative(&self, state: &[u64]) -> Box<[u64]> {
        let mut scratch = self.new_reduce_scratch();
        self.reduce(state, &mut scratch).into()
    }

    fn canonical_labelled(&self, mut all: Vec<LabelledState>) -> Vec<LabelledState> {
        let mut scratch = self.new_reduce_scratch();
        for l in &mut all {
            l.state = self.reduce(&l.state, &mut scratch).into();
        }
        all
    }
}

/// Chooses one constant valuation per orbit of the symmetry group: the
/// first in the orbit that `keep` accepts. Returns the choice per valuation
/// and the number of orbits (over all valuations).
///
/// Setting up only these is exact: the interchangeable elements are never
/// named by the machine, so a permutation `p` maps the initial states of a
/// valuation `v` onto those of `p(v)`, and their representatives (canonical
/// forms, markers, flooded orbits) are the same. A valuation that cannot be
/// encoded is kept, so that its error is reported as before.
fn one_valuation_per_orbit(
    system: &BSystem,
    sym: &Interchangeable,
    keep: &dyn Fn(&[Value]) -> bool,
) -> (Vec<bool>, usize) {
    let layout = system.layout();
    let canon = Canonicaliser::new(layout, sym, layout.constant_count());
    let mut scratch = canon.new_scratch();
    let mut orbits: HashSet<Box<[u64]>> = HashSet::new();
    let mut covered: HashSet<Box<[u64]>> = HashSet::new();
    let mut words = Vec::new();
    let chosen = system
        .valuations()
        .iter()
        .map(|valuation| {
            if layout.encode(valuation, &[], &mut words).is_err() {
                return true;
            }
            canon.canonicalise(layout, &words, &mut scratch);
            let key: Box<[u64]> = scratch.out[..layout.constant_words()].into();
            orbits.insert(key.clone());
            keep(valuation) && covered.insert(key)
        })
        .collect();
    (chosen, orbits.len())
}

/// Number of orbits of the constant valuations of `system` under `sym`
/// (ProB shows one node per orbit when symmetry reduction is on), or of
/// their distinct markers with `markers`; 0 for a machine without constants.
pub fn constant_valuation_orbits(system: &BSystem, sym: &Interchangeable, markers: bool) -> usize {
    let layout = system.layout();
    let nc = layout.constant_count();
    if nc == 0 {
        return 0;
    }
    let mut seen = std::collections::HashSet::new();
    let mut words = Vec::new();
    if markers {
        let m = Markers::new(layout, sym, nc);
        let mut scratch = MarkerScratch::default();
        for valuation in system.valuations() {
            if layout.encode(valuation, &[], &mut words).is_ok() {
                seen.insert(vec![m.marker(layout, &words, &mut scratch)]);
            }
        }
    } else {
        let canon = Canonicaliser::new(layout, sym, nc);
        let mut scratch = canon.new_scratch();
        for valuation in system.valuations() {
            if layout.encode(valuation, &[], &mut words).is_ok() {
                canon.canonicalise(layout, &words, &mut scratch);
                seen.insert(scratch.out[..layout.constant_words()].to_vec());
            }
        }
    }
    seen.len()
}

impl TransitionSystem for SymmetricSystem<'_> {
    type Scratch = SymScratch;

    fn new_scratch(&self) -> SymScratch {
        SymScratch {
            inner: self.inner.new_scratch(),
            reduce: self.new_reduce_scratch(),
        }
    }

    fn state_width(&self) -> usize {
        self.inner.state_width()
    }

    fn initial_states(
        &self,
        scratch: &mut SymScratch,
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let SymScratch { inner, reduce } = scratch;
        match &self.initialised {
            Some(chosen) => self
                .inner
                .initial_states_of(&|i| chosen[i], &mut |s| emit(self.reduce(s, reduce))),
            None => self.inner.initial_states(inner, &mut |s| {
                if self.is_setup(s) {
                    emit(self.reduce(s, reduce))
                }
            }),
        }
    }

    fn successors(
        &self,
        scratch: &mut SymScratch,
        state: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        let SymScratch { inner, reduce } = scratch;
        self.inner
            .successors(inner, state, &mut |s| emit(self.reduce(s, reduce)))
    }

    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(self.canonical_labelled(self.real_initial_states()?))
    }

    fn labelled_successors(&self, state: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        Ok(self.canonical_labelled(self.inner.labelled_successors(state)?))
    }

    fn check_state(
        &self,
        scratch: &mut SymScratch,
        state: &[u64],
    ) -> Result<Option<Violation>, ModelError> {
        self.inner.check_state(&mut scratch.inner, state)
    }

    fn has_goal(&self) -> bool {
        self.inner.has_goal()
    }

    fn is_goal(&self, scratch: &mut SymScratch, state: &[u64]) -> Result<bool, ModelError> {
        self.inner.is_goal(&mut scratch.inner, state)
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.inner.describe_state(state)
    }

    fn floods(&self) -> bool {
        matches!(self.reducer, Reducer::Flood(_))
    }

    fn flood(&self, scratch: &mut SymScratch, state: &[u64], emit: &mut dyn FnMut(&[u64])) {
        if let Reducer::Flood(f) = &self.reducer {
            f.images(self.inner.layout(), state, &mut scratch.reduce.flood, emit);
        }
    }
}
