//! Constant valuations under symmetry: which valuations a symmetry-reduced
//! search sets up, and how many orbits they form (ProB shows one
//! SETUP_CONSTANTS node per orbit).

use super::hooks::{BSymmetry, MarkerMode};
use super::markers::{MarkerScratch, Markers};
use crate::frontends::b::system::BSystem;
use crate::frontends::b::value::Value;
use crate::model::{Permutable, StateSymmetry};
use crate::symmetry::Canonicaliser;
use std::collections::HashSet;

/// Chooses one constant valuation per orbit of the symmetry group: the
/// first in the orbit that `keep` accepts. Returns the choice per valuation
/// and the number of orbits (over all valuations).
///
/// Setting up only these is exact: the interchangeable elements are never
/// named by the machine, so a permutation `p` maps the initial states of a
/// valuation `v` onto those of `p(v)`, and their representatives (canonical
/// forms, markers, flooded orbits) are the same. A valuation that cannot be
/// encoded is kept, so that its error is reported as before.
pub fn one_valuation_per_orbit(
    system: &BSystem,
    domains: &Permutable,
    keep: &dyn Fn(&[Value]) -> bool,
) -> (Vec<bool>, usize) {
    let layout = system.layout();
    let sym = BSymmetry::new(layout, domains, layout.constant_count(), MarkerMode::None);
    let canon = Canonicaliser::new(domains);
    let mut scratch = canon.new_scratch();
    let mut hooks = sym.new_scratch();
    let mut orbits: HashSet<Box<[u64]>> = HashSet::new();
    let mut covered: HashSet<Box<[u64]>> = HashSet::new();
    let (mut words, mut packed) = (Vec::new(), Vec::new());
    let chosen = system
        .valuations()
        .iter()
        .map(|valuation| {
            if layout.encode(valuation, &[], &mut words).is_err() {
                return true;
            }
            // The symmetry works on packed states, as the engine stores
            // them; the variables' bits are all zero here.
            layout.pack_constants(&words, &mut packed);
            canon.canonicalise(&sym, &packed, &mut hooks, &mut scratch);
            let key: Box<[u64]> = scratch.out[..].into();
            orbits.insert(key.clone());
            keep(valuation) && covered.insert(key)
        })
        .collect();
    (chosen, orbits.len())
}

/// Number of orbits of the constant valuations of `system` under
/// `domains` (ProB shows one node per orbit when symmetry reduction is
/// on), or of their distinct markers with `markers`; 0 for a machine
/// without constants.
pub fn constant_valuation_orbits(system: &BSystem, domains: &Permutable, markers: bool) -> usize {
    let layout = system.layout();
    let nc = layout.constant_count();
    if nc == 0 {
        return 0;
    }
    if !markers {
        return one_valuation_per_orbit(system, domains, &|_| true).1;
    }
    let m = Markers::new(layout, domains, nc);
    let mut scratch = MarkerScratch::default();
    let mut words = Vec::new();
    let mut seen = HashSet::new();
    for valuation in system.valuations() {
        if layout.encode(valuation, &[], &mut words).is_ok() {
            seen.insert(m.marker(layout, &words, &mut scratch));
        }
    }
    seen.len()
}

/// What [`plan_setups`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupPlan {
    /// Constant valuations kept by ProB's symmetry rules for constants
    /// (all of them when the rules do not apply).
    pub setups: usize,
    /// Orbits of the constant valuations, when computed.
    pub valuation_orbits: Option<usize>,
    /// Per constant valuation, whether it is set up (`None`: all), for
    /// [`BSymmetry::with_setups`](super::BSymmetry::with_setups).
    pub keep: Option<Vec<bool>>,
}

/// Chooses the constant valuations to set up for a search of `system`
/// reduced by the permutations of `domains`: ProB's rules for constants
/// ([`ConstantRules`](super::ConstantRules)) when they were found for
/// these domains, and one valuation per orbit (see
/// [`one_valuation_per_orbit`]) unless `several_per_orbit` (exact markers,
/// whose counts depend on which valuations are set up: all kept ones are).
pub fn plan_setups(system: &BSystem, domains: &Permutable, several_per_orbit: bool) -> SetupPlan {
    let layout = system.layout();
    let rules = &system.constant_rules;
    // The rules are only sound for the symmetries they were found for.
    let sound = *domains == system.interchangeable;
    let by_rules = sound && layout.constant_count() > 0 && !rules.is_trivial();
    let setups = if by_rules {
        let mut words = Vec::new();
        let kept: HashSet<Box<[u64]>> = system
            .valuations()
            .iter()
            .filter(|v| rules.keeps(v))
            .filter_map(|v| {
                layout.encode(v, &[], &mut words).ok()?;
                Some(words[..layout.constant_words()].into())
            })
            .collect();
        kept.len()
    } else {
        system.constant_valuations
    };
    if layout.constant_count() > 0 && !several_per_orbit {
        let keep = |v: &[Value]| !sound || rules.keeps(v);
        let (chosen, orbits) = one_valuation_per_orbit(system, domains, &keep);
        SetupPlan {
            setups,
            valuation_orbits: Some(orbits),
            keep: Some(chosen),
        }
    } else {
        SetupPlan {
            setups,
            valuation_orbits: None,
            keep: by_rules.then(|| system.valuations().iter().map(|v| rules.keeps(v)).collect()),
        }
    }
}
