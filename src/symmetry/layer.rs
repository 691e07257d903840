//! The symmetry layer: maps every state the model emits to the
//! representative of its orbit ([`Canonicaliser`], exact; or exact markers,
//! several per orbit) or of its symmetry marker (approximate), so that the
//! engine's visited set holds one state per orbit (per marker). With
//! permutation flooding ([`Flood`]) states are not mapped; instead the
//! engine's flood hook stores each new state's orbit as seen.
//!
//! The layer knows the model only through its [`StateSymmetry`]: a
//! representative is a real state of the model, symmetric to the one
//! reached, so checks, goal and printing stay the model's.
//! [`SymmetryLayer::real_trace`] (module `trace`) turns a trace of
//! representatives back into a run of the unreduced model.

use super::canonical::{CanonScratch, Canonicaliser};
use super::flood::{Flood, FloodScratch};
use super::soundness::{self, SoundnessScratch};
use crate::model::{Model, ModelError, Permutable, Permutation, StateSymmetry};

/// The symmetry reduction modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryMode {
    /// Exact: one state per orbit, by canonical labelling of state graphs.
    Canon,
    /// Permutation flooding: one state per orbit checked and expanded, all
    /// permutations of it stored as seen.
    Flood,
    /// Approximate symmetry markers: different orbits may share a marker.
    Markers,
    /// Exact markers: elements ordered by their markers, then renamed;
    /// complete, but may keep several states per orbit.
    MarkersExact,
}

impl SymmetryMode {
    /// The mode's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SymmetryMode::Canon => "canon",
            SymmetryMode::Flood => "flood",
            SymmetryMode::Markers => "markers",
            SymmetryMode::MarkersExact => "markers-exact",
        }
    }

    /// Whether every state the layer stands for is in the orbit of a
    /// stored state (all modes but approximate markers).
    pub fn is_exact(self) -> bool {
        self != SymmetryMode::Markers
    }
}

/// How states are mapped to representatives.
enum Reducer {
    Canon(Canonicaliser),
    Markers,
    SortedMarkers,
    Flood(Flood),
}

/// A model's symmetry as a layer: representatives for states.
pub struct SymmetryLayer<S: StateSymmetry> {
    sym: S,
    mode: SymmetryMode,
    reducer: Reducer,
    /// Whether expansions are sampled for the soundness check.
    check: bool,
}

/// Per-thread buffers of the [`SymmetryLayer`].
pub struct SymmetryScratch<H> {
    hooks: H,
    canon: CanonScratch,
    flood: FloodScratch,
    out: Vec<u64>,
    soundness: SoundnessScratch,
}

impl<H> SymmetryScratch<H> {
    /// The canonicaliser's buffers and counters.
    pub fn canon(&self) -> &CanonScratch {
        &self.canon
    }
}

impl<S: StateSymmetry> SymmetryLayer<S> {
    /// The layer for the front end's symmetry `sym` in `mode`; refuses the
    /// marker modes when the front end computes no markers.
    pub fn new(sym: S, mode: SymmetryMode) -> Result<Self, String> {
        let marks = matches!(mode, SymmetryMode::Markers | SymmetryMode::MarkersExact);
        if marks && !sym.has_markers() {
            return Err(format!(
                "not supported: `--symmetry {}` needs symmetry markers, which this model's \
                 front end does not compute",
                mode.name()
            ));
        }
        let domains = sym.domains();
        let reducer = match mode {
            SymmetryMode::Canon => Reducer::Canon(Canonicaliser::new(domains)),
            SymmetryMode::Flood => Reducer::Flood(Flood::new(domains)),
            SymmetryMode::Markers => Reducer::Markers,
            SymmetryMode::MarkersExact => Reducer::SortedMarkers,
        };
        Ok(SymmetryLayer {
            sym,
            mode,
            reducer,
            check: true,
        })
    }

    /// Turns the soundness check ([`soundness`]) on (the default) or off.
    pub fn with_check(mut self, on: bool) -> Self {
        self.check = on;
        self
    }

    /// Whether the soundness check is on.
    pub fn checks(&self) -> bool {
        self.check
    }

    /// The soundness check of `state`'s expansion in `model` (when the
    /// check is on and samples it): a refusal when the model's successors
    /// do not commute with a permutation. Call before expanding `state`.
    #[inline]
    pub fn check_expansion<M: Model>(
        &self,
        model: &M,
        model_scratch: &mut M::Scratch,
        scratch: &mut SymmetryScratch<S::Scratch>,
        state: &[u64],
    ) -> Result<(), ModelError> {
        if !self.check {
            return Ok(());
        }
        soundness::check(
            model,
            &self.sym,
            model_scratch,
            &mut scratch.hooks,
            &mut scratch.soundness,
            state,
        )
    }

    /// The mode.
    pub fn mode(&self) -> SymmetryMode {
        self.mode
    }

    /// The front end's symmetry.
    pub fn symmetry(&self) -> &S {
        &self.sym
    }

    /// The permutable domains.
    pub fn domains(&self) -> &Permutable {
        self.sym.domains()
    }

    /// Fresh per-thread buffers.
    pub fn new_scratch(&self) -> SymmetryScratch<S::Scratch> {
        let canon = match &self.reducer {
            Reducer::Canon(c) => c.new_scratch(),
            _ => Canonicaliser::new(&Permutable::none()).new_scratch(),
        };
        SymmetryScratch {
            hooks: self.sym.new_scratch(),
            canon,
            flood: FloodScratch::default(),
            out: Vec::new(),
            soundness: SoundnessScratch::default(),
        }
    }

    /// The representative of `state`, in the scratch's buffers.
    #[inline]
    pub fn reduce<'s>(
        &self,
        state: &'s [u64],
        scratch: &'s mut SymmetryScratch<S::Scratch>,
    ) -> &'s [u64] {
        match &self.reducer {
            Reducer::Canon(c) => {
                c.canonicalise(&self.sym, state, &mut scratch.hooks, &mut scratch.canon);
                &scratch.canon.out
            }
            Reducer::Markers => {
                self.sym
                    .marker_representative(state, &mut scratch.hooks, &mut scratch.out);
                &scratch.out
            }
            Reducer::SortedMarkers => {
                let perm = self.sym.marker_permutation(state, &mut scratch.hooks);
                if !self
                    .sym
                    .permute(&perm, state, &mut scratch.hooks, &mut scratch.out)
                {
                    scratch.out.clear();
                    scratch.out.extend_from_slice(state);
                }
                &scratch.out
            }
            // Flooding explores the states as reached (see `flood`).
            Reducer::Flood(_) => state,
        }
    }

    /// Whether the layer floods (the engine's flood hook is on).
    pub fn floods(&self) -> bool {
        matches!(self.reducer, Reducer::Flood(_))
    }

    /// Emits the orbit of `state` (flooding only).
    pub fn flood(
        &self,
        state: &[u64],
        scratch: &mut SymmetryScratch<S::Scratch>,
        emit: &mut dyn FnMut(&[u64]),
    ) {
        if let Reducer::Flood(f) = &self.reducer {
            f.images(
                &self.sym,
                state,
                &mut scratch.hooks,
                &mut scratch.flood,
                emit,
            );
        }
    }

    /// Whether each representative is a permutation image of its state
    /// (every mode but approximate markers).
    pub fn maps_by_permutation(&self) -> bool {
        !matches!(self.reducer, Reducer::Markers)
    }

    /// The representative of `state` and a permutation that maps `state`
    /// to it, or `None` for approximate markers, whose representatives
    /// need not be symmetric to the state (allocates: for traces only).
    pub fn to_representative(&self, state: &[u64]) -> Option<(Box<[u64]>, Permutation)> {
        let sizes = &self.sym.domains().set_sizes;
        let mut hooks = self.sym.new_scratch();
        let perm = match &self.reducer {
            Reducer::Markers => return None,
            Reducer::Flood(_) => Permutation::identity(sizes),
            Reducer::Canon(c) => {
                let mut scratch = c.new_scratch();
                if c.derive(&self.sym, state, &mut hooks, &mut scratch) {
                    c.permutation(&scratch).clone()
                } else {
                    Permutation::identity(sizes)
                }
            }
            Reducer::SortedMarkers => self.sym.marker_permutation(state, &mut hooks),
        };
        let mut image = Vec::new();
        if self.sym.permute(&perm, state, &mut hooks, &mut image) {
            Some((image.into(), perm))
        } else {
            Some((state.into(), Permutation::identity(sizes)))
        }
    }

    /// The representative of `state` (allocates: not for the hot path).
    pub fn representative(&self, state: &[u64]) -> Box<[u64]> {
        let mut scratch = self.new_scratch();
        self.reduce(state, &mut scratch).into()
    }

    /// `perm(state)`, or `None` when it cannot be encoded (allocates).
    pub fn permute(&self, perm: &Permutation, state: &[u64]) -> Option<Box<[u64]>> {
        let mut hooks = self.sym.new_scratch();
        let mut image = Vec::new();
        self.sym
            .permute(perm, state, &mut hooks, &mut image)
            .then(|| image.into())
    }
}
