//! The partial order reduction layer: expands a state through an ample set
//! ([`super::ample`]) chosen from the transition groups of the successors
//! the model emits, using the front end's [`Independence`].
//!
//! Per state it runs the model's successor function once (as the plain
//! search does), groups the successors by group (or instance, when the
//! front end refines groups), asks the [`AmpleRule`] for the cheapest
//! proper ample set and emits only its successors. When groups are refined
//! into instances, the rule over whole groups is asked first and the rule
//! over instances only when it finds no proper ample set. Each satisfies
//! A1-A3 on its own, so mixing them per state is sound (A2 and A3 are
//! conditions on one state; A4 is the engine's proviso). Groups first,
//! because the cheapest set per state is not the smallest search: on
//! models/TokenRing.mch (5 servers) the instance rule picks one
//! `ClientRequest(s)` (1 transition) where the operation rule picks
//! `{MoveToken, GrantRequest}` (2), and the search grows from 1,200 to
//! 4,200 states; on the other models of `models/` both orders give the
//! same counts, and models with a single parameterised operation (no
//! proper operation-level set) still reduce per instance. The successors
//! left out stay in the scratch space in case the engine's cycle proviso
//! asks for them.
//!
//! # With symmetry
//! Under a symmetry layer (`crate::checker`), the layer chooses the ample
//! set of the *representative* `r` the engine stored, among `r`'s real
//! successors, and the symmetry layer maps each emitted successor to its
//! representative. The argument needs the relations to be invariant under
//! the symmetry group (Emerson, Jha and Peled, "Combining partial order and
//! symmetry reductions", TACAS 1997): a permutation `p` maps the
//! transitions of a group `g` to those of a group `p(g)` with the same
//! relations, which the [`Independence`] contract asks of a front end with
//! symmetry. For B a group is an operation and `p(g) = g`; instance-level
//! relations, computed per parameter tuple by a bounded analysis, need not
//! be invariant, so only the group-level ones are used then (see
//! [`PorLayer::new`]).
//!
//! Why this finds every deadlock and every violation of a checked
//! (symmetric) property: let `R` be the stored representatives and `R'`
//! the union of their orbits, with the transitions `p(t)` out of `p(r)` for
//! each `t` of `r`'s ample set and permutation `p`. `R'` is closed:
//! `p(t)(p(r)) = p(t(r))` lies in the orbit of the stored
//! representative of `t(r)`. The sets `p(ample(r))` are ample sets of
//! `p(r)` in the unreduced model: the enabled groups of `p(r)` are the
//! images of those of `r`, and A1-A3 only ask about groups and the
//! invariant relations. Every
//! cycle of `R'` projects onto a closed walk of representatives; the
//! representative stored first on that walk was already stored when its
//! predecessor on the walk was expanded, so the engine's proviso (an ample
//! successor already visited forces full expansion) fully expanded that
//! predecessor, and its images are fully expanded in `R'`. So `R'` is an
//! ample-set reduction of the unreduced model satisfying A1-A4 from every
//! initial state, which preserves deadlocks and (with A3 and A4) every
//! reachable violation of a property the groups outside ample sets cannot
//! change; and a violation at `p(r)` is one at `r`, since the properties
//! are symmetric. The same holds with flooding and exact markers, whose
//! stored states also stand for their orbits.

use crate::model::{Independence, Model};
use crate::por::ample::{AmpleRule, AmpleScratch, OpSet};
use workers::ModelError;

/// The cost of a self-loop when choosing among candidate ample sets under
/// the cycle proviso (any other transition costs 1).
const SELF_LOOP_COST: u32 = 1 << 16;

/// Ample sets over a model's transition groups.
pub struct PorLayer {
    /// The rule the ample sets are made of: over instances, when groups are
    /// refined, else over groups.
    rule: AmpleRule,
    /// The rule over whole groups, when groups are refined into instances.
    group_rule: Option<AmpleRule>,
    /// The group of each instance (when refined).
    group_of: Option<Vec<usize>>,
    /// The first instance of each group (when refined).
    first: Vec<usize>,
    groups: usize,
    proviso: bool,
}

/// Per-thread buffers of [`PorLayer`].
pub struct PorScratch {
    /// The successors of the last expanded state, flat.
    words: Vec<u64>,
    /// The group (instance) of each successor in `words`.
    ops: Vec<u32>,
    /// A successor of the last expanded state came from outside the
    /// analysed instances: that state is fully expanded.
    unknown: bool,
    enabled: OpSet,
    cost: Vec<u32>,
    ample: AmpleScratch,
    /// The enabled groups, their transition counts and the choice of the
    /// group-level rule (when groups are refined).
    group_enabled: OpSet,
    group_cost: Vec<u32>,
    group_ample: AmpleScratch,
    /// The groups at their process's current location, and whether the
    /// model told them ([`Model::current_groups`]).
    here: OpSet,
    has_here: bool,
    /// The state `words` belong to.
    key: Vec<u64>,
    /// Whether that state was expanded through a proper ample set
    /// (`ample.chosen` is its ample set).
    proper: bool,
}

impl PorLayer {
    /// The layer for a model whose groups relate as `independence` says.
    /// With `symmetric` (under a symmetry layer) only the group-level
    /// relations are used (see the module docs).
    pub fn new(independence: &Independence, symmetric: bool) -> Self {
        let groups = independence.groups.len();
        match (&independence.instances, symmetric) {
            (Some(inst), false) => {
                let mut first = vec![usize::MAX; groups];
                for (i, &g) in inst.group_of.iter().enumerate().rev() {
                    first[g] = i;
                }
                PorLayer {
                    rule: AmpleRule::from(&inst.relations),
                    group_rule: Some(AmpleRule::from(&independence.groups)),
                    group_of: Some(inst.group_of.clone()),
                    first,
                    groups,
                    proviso: independence.proviso,
                }
            }
            _ => PorLayer {
                rule: AmpleRule::from(&independence.groups),
                group_rule: None,
                group_of: None,
                first: Vec::new(),
                groups,
                proviso: independence.proviso,
            },
        }
    }

    /// Whether the cycle proviso applies (some checked state label can be
    /// changed by a group).
    pub fn proviso(&self) -> bool {
        self.proviso
    }

    /// Fresh per-thread buffers.
    pub fn new_scratch(&self) -> PorScratch {
        let n = self.rule.operations();
        PorScratch {
            words: Vec::new(),
            ops: Vec::new(),
            unknown: false,
            enabled: OpSet::empty(n),
            cost: vec![0; n],
            ample: self.rule.scratch(),
            group_enabled: OpSet::empty(self.groups),
            group_cost: vec![0; self.groups],
            group_ample: match &self.group_rule {
                Some(r) => r.scratch(),
                None => AmpleScratch::default(),
            },
            here: OpSet::empty(self.groups),
            has_here: false,
            key: Vec::new(),
            proper: false,
        }
    }

    /// Runs the model's successor function on `state` into the scratch
    /// buffers and chooses an ample set; true when it is proper.
    pub fn expand<M: Model>(
        &self,
        model: &M,
        model_scratch: &mut M::Scratch,
        scratch: &mut PorScratch,
        state: &[u64],
    ) -> Result<bool, ModelError> {
        self.collect(model, model_scratch, scratch, state)?;
        scratch.proper = self.choose(scratch);
        Ok(scratch.proper)
    }

    /// Whether `state` is the state the scratch holds the expansion of.
    pub fn holds(&self, scratch: &PorScratch, state: &[u64]) -> bool {
        scratch.key == state
    }

    /// Runs every group from `state` into the scratch buffers and collects
    /// the enabled groups (instances) and their transition counts.
    fn collect<M: Model>(
        &self,
        model: &M,
        model_scratch: &mut M::Scratch,
        scratch: &mut PorScratch,
        state: &[u64],
    ) -> Result<(), ModelError> {
        let PorScratch {
            words,
            ops,
            unknown,
            enabled,
            cost,
            key,
            group_enabled,
            group_cost,
            here,
            has_here,
            ..
        } = scratch;
        words.clear();
        ops.clear();
        enabled.clear();
        group_enabled.clear();
        *unknown = false;
        cost.iter_mut().for_each(|c| *c = 0);
        group_cost.iter_mut().for_each(|c| *c = 0);
        let proviso = self.proviso;
        let refined = self.group_of.is_some();
        model.successors(model_scratch, state, &mut |step, s| {
            words.extend_from_slice(s);
            let g = step.group();
            let i = if refined {
                step.instance().unwrap_or_else(|| {
                    *unknown = true;
                    self.first[g]
                })
            } else {
                g
            };
            ops.push(i as u32);
            enabled.insert(i);
            // A self-loop in an ample set always triggers the cycle
            // proviso (the state is stored already): prefer candidates
            // without one.
            let c = if proviso && s == state {
                SELF_LOOP_COST
            } else {
                1
            };
            cost[i] += c;
            if refined {
                group_enabled.insert(g);
                group_cost[g] += c;
            }
        })?;
        here.clear();
        *has_here = model.current_groups(model_scratch, state, here);
        key.clear();
        key.extend_from_slice(state);
        Ok(())
    }

    /// Chooses the ample set of the state just collected into
    /// `scratch.ample.chosen`: the group-level rule's if it finds one, else
    /// the instance-level rule's; `false`: expand fully.
    fn choose(&self, scratch: &mut PorScratch) -> bool {
        let PorScratch {
            enabled,
            cost,
            ample,
            unknown,
            group_enabled,
            group_cost,
            group_ample,
            here,
            has_here,
            ..
        } = scratch;
        let here = has_here.then_some(&*here);
        let by_group = self
            .group_rule
            .as_ref()
            .is_some_and(|r| r.choose(group_enabled, group_cost, here, group_ample));
        if !by_group {
            // The rule over instances, when groups are refined: `here`
            // names groups, not instances.
            let here = if self.group_of.is_some() { None } else { here };
            return !*unknown && self.rule.choose(enabled, cost, here, ample);
        }
        // The group-level set, as the enabled instances of its groups.
        let group_of = self.group_of.as_deref().unwrap_or_default();
        ample.chosen.clear();
        for i in enabled.iter() {
            if group_ample.chosen.contains(group_of[i]) {
                ample.chosen.insert(i);
            }
        }
        true
    }

    /// Emits the stored successors of the last expansion: with `inside`
    /// those of the ample set, else the others; all of them when the
    /// expansion was full and `inside`.
    pub fn emit_part(
        &self,
        scratch: &PorScratch,
        width: usize,
        inside: bool,
        emit: &mut dyn FnMut(&[u64]),
    ) {
        if !scratch.proper {
            if inside {
                scratch.words.chunks_exact(width.max(1)).for_each(emit);
            }
            return;
        }
        for (i, &op) in scratch.ops.iter().enumerate() {
            if scratch.ample.chosen.contains(op as usize) == inside {
                emit(&scratch.words[i * width..(i + 1) * width]);
            }
        }
    }

    /// Like [`Self::emit_part`], with the group of each successor's step.
    pub fn emit_steps(
        &self,
        scratch: &PorScratch,
        width: usize,
        inside: bool,
        emit: &mut dyn FnMut(usize, &[u64]),
    ) {
        let group = |op: u32| match &self.group_of {
            Some(of) => of[op as usize],
            None => op as usize,
        };
        for (i, &op) in scratch.ops.iter().enumerate() {
            let part = !scratch.proper || scratch.ample.chosen.contains(op as usize);
            if part == inside {
                emit(group(op), &scratch.words[i * width..(i + 1) * width]);
            }
        }
    }

    /// The groups enabled in the state of the last expansion.
    pub fn enabled_groups<'s>(&self, scratch: &'s PorScratch) -> &'s OpSet {
        if self.group_of.is_some() {
            &scratch.group_enabled
        } else {
            &scratch.enabled
        }
    }

    /// Whether the last expansion was through a proper ample set.
    pub fn was_proper(&self, scratch: &PorScratch) -> bool {
        scratch.proper
    }
}
