//! The B front end's [`StateSymmetry`]: graphs from [`StateGraphs`],
//! permutations by the [`Renamer`], markers from [`Markers`]. States come
//! and go packed, as the engine stores them; the work is done on the
//! unpacked words (see [`crate::frontends::b::state`]).

use super::graph::{GraphScratch, StateGraphs};
use super::markers::{MarkerScratch, Markers};
use super::rename::Renamer;
use crate::frontends::b::state::{EncodeError, StateLayout};
use crate::model::{Permutable, Permutation, StateGraph, StateSymmetry};
use crate::symmetry::SymmetryMode;

/// Whether [`BSymmetry`] keeps the table of approximate markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerMode {
    /// No markers (canonical labelling, flooding).
    None,
    /// Markers are computed (`--symmetry markers`, `markers-exact`).
    Markers,
}

/// The symmetry of the states of one B layout, over its slots
/// `0..slot_limit` (all slots, or the constants only).
pub struct BSymmetry<'a> {
    layout: &'a StateLayout,
    domains: Permutable,
    graphs: StateGraphs,
    markers: Option<Markers>,
    /// The slots the symmetry covers: `0..slot_limit`.
    slot_limit: usize,
    /// Per constant valuation, whether its initial states are set up
    /// (`None`: all; see [`super::plan_setups`]).
    setups: Option<Vec<bool>>,
    /// The given sets' names and their elements' names (for messages;
    /// empty: generic names).
    names: Vec<(String, Vec<String>)>,
}

/// Per-thread buffers of [`BSymmetry`].
#[derive(Debug, Default)]
pub struct BSymScratch {
    graph: GraphScratch,
    renamer: Renamer,
    markers: MarkerScratch,
    /// The state unpacked.
    words: Vec<u64>,
    /// A permuted state, unpacked.
    image: Vec<u64>,
}

impl<'a> BSymmetry<'a> {
    /// The symmetry of `layout`'s states under `domains`, over the slots
    /// `0..slot_limit`.
    pub fn new(
        layout: &'a StateLayout,
        domains: &Permutable,
        slot_limit: usize,
        markers: MarkerMode,
    ) -> Self {
        BSymmetry {
            layout,
            domains: domains.clone(),
            graphs: StateGraphs::new(layout, domains, slot_limit),
            slot_limit,
            markers: (markers == MarkerMode::Markers)
                .then(|| Markers::new(layout, domains, slot_limit)),
            setups: None,
            names: Vec::new(),
        }
    }

    /// The symmetry of `system`'s states for a search in `mode` (markers
    /// only for the marker modes).
    pub fn for_mode(system: &'a crate::frontends::b::system::BSystem, mode: SymmetryMode) -> Self {
        let layout = system.layout();
        let markers = match mode {
            SymmetryMode::Markers | SymmetryMode::MarkersExact => MarkerMode::Markers,
            SymmetryMode::Canon | SymmetryMode::Flood => MarkerMode::None,
        };
        let mut sym = BSymmetry::new(
            layout,
            &system.interchangeable,
            layout.slots().len(),
            markers,
        );
        sym.names = system
            .interpreter()
            .given_sets
            .iter()
            .map(|g| (g.name.clone(), g.elements.clone()))
            .collect();
        sym
    }

    /// Sets up only the constant valuations `setups` keeps (see
    /// [`super::plan_setups`]).
    pub fn with_setups(mut self, setups: Option<Vec<bool>>) -> Self {
        self.setups = setups;
        self
    }

    /// The state layout.
    pub fn layout(&self) -> &StateLayout {
        self.layout
    }

    /// Packs the unpacked `words` as [`StateSymmetry`]'s results are: the
    /// whole state, or the constants only when the symmetry covers only
    /// them. A permutation renames elements, never integers, so every
    /// integer of an image was packed before and packing cannot fail.
    fn pack(&self, words: &[u64], out: &mut Vec<u64>) -> Result<(), EncodeError> {
        if self.slot_limit < self.layout.slots().len() {
            self.layout.pack_constants(words, out);
            Ok(())
        } else {
            self.layout.pack(words, out)
        }
    }

    /// The markers, when kept.
    pub fn markers(&self) -> Option<&Markers> {
        self.markers.as_ref()
    }
}

impl StateSymmetry for BSymmetry<'_> {
    type Scratch = BSymScratch;

    fn new_scratch(&self) -> BSymScratch {
        BSymScratch::default()
    }

    fn domains(&self) -> &Permutable {
        &self.domains
    }

    fn domain_name(&self, domain: usize) -> String {
        self.names
            .get(domain)
            .map_or_else(|| format!("set {}", domain + 1), |(n, _)| n.clone())
    }

    fn element_name(&self, domain: usize, element: u32) -> String {
        self.names
            .get(domain)
            .and_then(|(_, e)| e.get(element as usize))
            .map_or_else(|| format!("#{}", element + 1), String::clone)
    }

    #[inline]
    fn describe(&self, state: &[u64], scratch: &mut BSymScratch, graph: &mut StateGraph) -> bool {
        std::mem::swap(&mut scratch.graph.graph, graph);
        self.layout.unpack(state, &mut scratch.words);
        let touched = self
            .graphs
            .collect_into(self.layout, &scratch.words, &mut scratch.graph);
        std::mem::swap(&mut scratch.graph.graph, graph);
        touched
    }

    #[inline]
    fn permute(
        &self,
        perm: &Permutation,
        state: &[u64],
        scratch: &mut BSymScratch,
        out: &mut Vec<u64>,
    ) -> bool {
        let BSymScratch {
            renamer,
            words,
            image,
            ..
        } = scratch;
        self.layout.unpack(state, words);
        let renamed = renamer
            .apply_to(perm, self.layout, self.slot_limit, words, image)
            .is_ok();
        renamed && self.pack(image, out).is_ok()
    }

    fn skips_initial_class(&self, class: usize) -> bool {
        self.setups
            .as_ref()
            .is_some_and(|keep| !keep.get(class).copied().unwrap_or(true))
    }

    fn has_markers(&self) -> bool {
        self.markers.is_some()
    }

    fn marker_representative(&self, state: &[u64], scratch: &mut BSymScratch, out: &mut Vec<u64>) {
        match &self.markers {
            Some(m) => {
                self.layout.unpack(state, &mut scratch.words);
                m.representative(self.layout, &scratch.words, &mut scratch.markers);
                if self.pack(&scratch.markers.out, out).is_err() {
                    // Not reached (see `permute`); the state stands for itself.
                    out.clear();
                    out.extend_from_slice(state);
                }
            }
            None => {
                out.clear();
                out.extend_from_slice(state);
            }
        }
    }

    fn marker_permutation(&self, state: &[u64], scratch: &mut BSymScratch) -> Permutation {
        match &self.markers {
            Some(m) => {
                self.layout.unpack(state, &mut scratch.words);
                let words = &scratch.words;
                m.sorting_permutation(self.layout, words, &self.domains, &mut scratch.markers)
            }
            None => Permutation::identity(&self.domains.set_sizes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::b::symmetry::PermuteB;
    use crate::frontends::b::types::{MachineTypes, Type};
    use crate::frontends::b::value::{Elem, Value};
    use crate::model::all_permutations;
    use crate::symmetry::Canonicaliser;
    use std::collections::HashSet;

    /// Every relation `r <: D * D` on three elements, with `c : D`: the
    /// representatives are one per orbit, whichever way (shortcut or
    /// search) each state took.
    #[test]
    fn representatives_are_one_per_orbit_on_all_relations() {
        let n = 3u32;
        let dt = Type::Given(0);
        let r = Type::Set(Box::new(Type::Pair(
            Box::new(dt.clone()),
            Box::new(dt.clone()),
        )));
        let types = MachineTypes::for_test(Some(("D", n as usize)), Vec::new(), vec![dt, r]);
        let layout = StateLayout::new(&[], &["c".into(), "r".into()], &types);
        let domains = Permutable {
            movable: vec![(0..n).collect()],
            set_sizes: vec![n as usize],
        };
        let sym = BSymmetry::new(&layout, &domains, 2, MarkerMode::None);
        let mut hooks = sym.new_scratch();
        let canon = Canonicaliser::new(&domains);
        let mut scratch = canon.new_scratch();
        let perms = all_permutations(&domains.set_sizes, &domains.movable);
        let d = |i: u32| Value::Elem(Elem { set: 0, index: i });
        let mut words = Vec::new();
        let mut image = Vec::new();
        let mut packed = Vec::new();
        let mut orbits = HashSet::new();
        let mut reps = HashSet::new();
        for c in 0..n {
            for bits in 0u32..1 << (n * n) {
                let pairs = (0..n * n)
                    .filter(|k| bits >> k & 1 == 1)
                    .map(|k| Value::pair(d(k / n), d(k % n)))
                    .collect();
                let vars = [d(c), Value::set_from_vec(pairs)];
                layout.encode(&[], &vars, &mut words).unwrap();
                layout.pack(&words, &mut packed).unwrap();
                canon.canonicalise(&sym, &packed, &mut hooks, &mut scratch);
                let rep = scratch.out.clone();
                let mut orbit = Vec::new();
                for p in &perms {
                    p.apply_state(&layout, &words, &mut image).unwrap();
                    layout.pack(&image, &mut packed).unwrap();
                    orbit.push(packed.clone());
                    canon.canonicalise(&sym, &packed, &mut hooks, &mut scratch);
                    assert_eq!(scratch.out, rep, "{vars:?} under {p:?}");
                }
                assert!(
                    orbit.contains(&rep),
                    "{vars:?}: representative off its orbit"
                );
                orbits.insert(orbit.into_iter().min().unwrap());
                reps.insert(rep);
            }
        }
        assert_eq!(reps.len(), orbits.len());
        // Both ways were taken: cycles without a marked element need the search.
        assert!(scratch.shortcuts > 0 && scratch.labelled > 0);
    }
}
