//! The symmetry soundness check: does the model's transition relation
//! really commute with the permutations its front end declares?
//!
//! Symmetry reduction is sound only if, for every state `s` and every
//! permutation `p` of the permutable domains, the successors of `p(s)` are
//! the images under `p` of the successors of `s` (and the checked labels of
//! `s` and `p(s)` agree). A front end trusts the user's declaration (a
//! Murphi `scalarset`, a B deferred set, a Promela proctype family) and its
//! type checker refuses what it can see, but a model can still break the
//! symmetry through the order of a loop over a scalarset. CMurphi, Rumur and
//! earlier orbit reduced such models silently, and their verdicts meant
//! nothing.
//!
//! The check samples expanded states: every state of the first
//! [`CHECK_FIRST`] expansions of each thread, then one in [`CHECK_EVERY`].
//! For a sampled `s` it draws a random permutation `p` (seeded by the state,
//! so a run checks the same pairs whatever the thread count), computes the
//! successors of `s` and of `p(s)` with the unreduced model, and compares
//! the multiset `{p(t) | s -> t}` with the multiset `{u | p(s) -> u}`. A
//! difference is a [`ModelError::refused`]: the run stops with the group
//! (rule, operation, transition) whose step has no counterpart, the
//! permutation, and the engine's trace to `s`.
//!
//! It runs before the state's own expansion (the model's per-thread scratch
//! then holds that expansion's results), costs two extra successor
//! computations per sampled state, and can be turned off
//! ([`crate::checker::Checker::symmetry_check`]).

use crate::model::{Model, ModelError, Permutation, StateSymmetry};
use std::fmt::Write;

/// Expansions per thread that are all checked.
pub const CHECK_FIRST: u64 = 512;
/// After [`CHECK_FIRST`], one expansion in this many is checked.
pub const CHECK_EVERY: u64 = 256;

/// Most characters of a state printed in a refusal (the trace shows the
/// state that was checked in full).
const SHOWN_CHARS: usize = 2_000;

/// Per-thread buffers and counters of the check.
#[derive(Debug, Default)]
pub struct SoundnessScratch {
    expanded: u64,
    permuted: Vec<u64>,
    image: Vec<u64>,
    /// Images of the successors of `s`, flat, and their groups.
    images: Vec<u64>,
    image_groups: Vec<usize>,
    /// Successors of `p(s)`, flat, and their groups.
    succs: Vec<u64>,
    succ_groups: Vec<usize>,
    order_a: Vec<u32>,
    order_b: Vec<u32>,
}

/// Whether the `expanded`-th expansion of a thread is checked.
#[inline]
fn sampled(expanded: u64, state: &[u64]) -> bool {
    expanded < CHECK_FIRST || mix(state).is_multiple_of(CHECK_EVERY)
}

/// A hash of the state's words (splitmix64 finaliser over a fold).
fn mix(state: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in state {
        h = (h ^ w).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 31;
    }
    h = (h ^ (h >> 30)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// A random permutation of the interchangeable elements, seeded by
/// `seed`, written into `perm`; never the identity when some domain has
/// two interchangeable elements.
pub fn random_permutation<S: StateSymmetry>(sym: &S, seed: u64, perm: &mut Permutation) {
    let domains = sym.domains();
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    *perm = Permutation::identity(&domains.set_sizes);
    let images = perm.images_mut();
    for (s, movable) in domains.movable.iter().enumerate() {
        // Fisher-Yates over the interchangeable elements' images.
        let mut targets = movable.clone();
        for i in (1..targets.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            targets.swap(i, j);
        }
        for (&from, &to) in movable.iter().zip(&targets) {
            images[s][from as usize] = to;
        }
    }
    if perm.is_identity()
        && let Some((s, m)) = domains
            .movable
            .iter()
            .enumerate()
            .find(|(_, m)| m.len() >= 2)
    {
        let images = perm.images_mut();
        images[s].swap(m[0] as usize, m[1] as usize);
    }
}

/// The check on `state` if this expansion is sampled: `Ok` when the
/// model's successors commute with a random permutation (or the state is
/// not sampled, or the model fails on `state` itself, which its own
/// expansion reports); a refusal naming the culprit otherwise.
#[inline]
pub fn check<M: Model, S: StateSymmetry>(
    model: &M,
    sym: &S,
    model_scratch: &mut M::Scratch,
    sym_scratch: &mut S::Scratch,
    scratch: &mut SoundnessScratch,
    state: &[u64],
) -> Result<(), ModelError> {
    let n = scratch.expanded;
    scratch.expanded += 1;
    if !sampled(n, state) {
        return Ok(());
    }
    check_now(model, sym, model_scratch, sym_scratch, scratch, state)
}

#[cold]
#[inline(never)]
fn check_now<M: Model, S: StateSymmetry>(
    model: &M,
    sym: &S,
    model_scratch: &mut M::Scratch,
    sym_scratch: &mut S::Scratch,
    scratch: &mut SoundnessScratch,
    state: &[u64],
) -> Result<(), ModelError> {
    let mut perm = Permutation::identity(&sym.domains().set_sizes);
    random_permutation(sym, mix(state) ^ 0x5bd1_e995, &mut perm);
    if perm.is_identity() {
        return Ok(());
    }
    let SoundnessScratch {
        permuted,
        image,
        images,
        image_groups,
        succs,
        succ_groups,
        order_a,
        order_b,
        ..
    } = scratch;
    if !sym.permute(&perm, state, sym_scratch, permuted) {
        return Ok(());
    }
    // The images of the successors of `state`.
    images.clear();
    image_groups.clear();
    let mut encodable = true;
    let own = model.successors(model_scratch, state, &mut |step, t| {
        if sym.permute(&perm, t, sym_scratch, image) {
            images.extend_from_slice(image);
            image_groups.push(step.group());
        } else {
            encodable = false;
        }
    });
    if own.is_err() || !encodable {
        // The state's own expansion reports its error.
        return Ok(());
    }
    // The successors of the permuted state.
    succs.clear();
    succ_groups.clear();
    let permuted_result = model.successors(model_scratch, permuted, &mut |step, u| {
        succs.extend_from_slice(u);
        succ_groups.push(step.group());
    });
    let width = model.state_width();
    if let Err(e) = permuted_result {
        if e.stopped.is_some() {
            return Err(e);
        }
        return Err(ModelError::refused(format!(
            "{} the model fails on the permuted state but not on this one: {}",
            preamble(sym, &perm),
            e.message
        )));
    }
    // The checked labels must agree too.
    let label = |s: &[u64], ms: &mut M::Scratch| {
        model
            .check_state(ms, s)
            .map(|v| v.map(|v| v.message))
            .unwrap_or_else(|e| Some(e.message))
    };
    let (mine, theirs) = (label(state, model_scratch), label(permuted, model_scratch));
    if mine.is_some() != theirs.is_some() {
        let (holds, fails) = if mine.is_some() {
            ("the permuted state", mine)
        } else {
            ("this state", theirs)
        };
        return Err(ModelError::refused(format!(
            "{} a checked property is not symmetric: it holds in {holds} but fails in the other \
             ({})",
            preamble(sym, &perm),
            fails.unwrap_or_default()
        )));
    }
    // Compare the two multisets of states.
    sort_rows(images, width, order_a);
    sort_rows(succs, width, order_b);
    let row = |v: &[u64], i: u32| {
        let i = i as usize;
        v[i * width..(i + 1) * width].to_vec()
    };
    let (mut i, mut j) = (0, 0);
    while i < order_a.len() || j < order_b.len() {
        let a = order_a
            .get(i)
            .map(|&k| &images[k as usize * width..][..width]);
        let b = order_b
            .get(j)
            .map(|&k| &succs[k as usize * width..][..width]);
        match (a, b) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), b) if b.is_none_or(|b| a < b) => {
                let k = order_a[i];
                return Err(mismatch(
                    model,
                    sym,
                    &perm,
                    image_groups[k as usize],
                    true,
                    &row(images, k),
                ));
            }
            _ => {
                let k = order_b[j];
                return Err(mismatch(
                    model,
                    sym,
                    &perm,
                    succ_groups[k as usize],
                    false,
                    &row(succs, k),
                ));
            }
        }
    }
    Ok(())
}

/// Sorts the row numbers of the flat `rows` (each `width` words) by row.
fn sort_rows(rows: &[u64], width: usize, order: &mut Vec<u32>) {
    let n = rows.len().checked_div(width).unwrap_or(0);
    order.clear();
    order.extend(0..n as u32);
    order.sort_unstable_by(|&x, &y| {
        let (x, y) = (x as usize * width, y as usize * width);
        rows[x..x + width].cmp(&rows[y..y + width])
    });
}

/// The opening of every refusal: what was checked, and with which
/// permutation.
fn preamble<S: StateSymmetry>(sym: &S, perm: &Permutation) -> String {
    format!(
        "the declared symmetry does not hold: with the permutation {},",
        describe_permutation(sym, perm)
    )
}

/// `Node: 1->2, 2->1; Value: ...`: the elements a permutation moves, by
/// the front end's names.
pub fn describe_permutation<S: StateSymmetry>(sym: &S, perm: &Permutation) -> String {
    let domains = sym.domains();
    let mut out = String::new();
    for (s, &size) in domains.set_sizes.iter().enumerate() {
        let moved: Vec<u32> = (0..size as u32)
            .filter(|&i| perm.image(s as u32, i) != i)
            .collect();
        if moved.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("; ");
        }
        let _ = write!(out, "{}: ", sym.domain_name(s));
        for (k, &i) in moved.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            let _ = write!(
                out,
                "{} -> {}",
                sym.element_name(s, i),
                sym.element_name(s, perm.image(s as u32, i))
            );
        }
    }
    out
}

/// The refusal for a step without a counterpart: `from_state` says whether
/// the step is one of the state's (its image is no step of the permuted
/// state) or one of the permuted state's.
#[cold]
fn mismatch<M: Model, S: StateSymmetry>(
    model: &M,
    sym: &S,
    perm: &Permutation,
    group: usize,
    from_state: bool,
    target: &[u64],
) -> ModelError {
    let name = model
        .groups()
        .get(group)
        .map_or_else(|| format!("group {group}"), |g| g.name.clone());
    let what = if from_state {
        "leads from this state to a state whose image under the permutation is no successor \
         of the permuted state"
    } else {
        "leads from the permuted state to a state that is the image of no successor of this \
         state"
    };
    let mut shown = model
        .describe_state(target)
        .into_iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    if let Some((cut, _)) = shown.char_indices().nth(SHOWN_CHARS) {
        shown.truncate(cut);
        shown.push_str(" ...");
    }
    ModelError::refused(format!(
        "{} `{name}` {what} (that state: {}); the transitions of `{name}` depend on the \
         identity of the elements (a loop over a symmetric type whose order matters, or an \
         element singled out); fix the model, or run without --symmetry (or with \
         --no-symmetry-check to trust the declaration)",
        preamble(sym, perm),
        shown
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Permutable, StateGraph};

    struct Two(Permutable);

    impl StateSymmetry for Two {
        type Scratch = ();
        fn new_scratch(&self) {}
        fn domains(&self) -> &Permutable {
            &self.0
        }
        fn describe(&self, _: &[u64], _: &mut (), _: &mut StateGraph) -> bool {
            false
        }
        fn permute(&self, p: &Permutation, s: &[u64], _: &mut (), out: &mut Vec<u64>) -> bool {
            out.clear();
            out.extend(s.iter().map(|&w| u64::from(p.image(0, w as u32))));
            true
        }
    }

    #[test]
    fn random_permutations_move_something_and_stay_in_the_classes() {
        let sym = Two(Permutable {
            movable: vec![vec![1, 2, 3]],
            set_sizes: vec![4],
        });
        let mut p = Permutation::identity(&[4]);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..200 {
            random_permutation(&sym, seed, &mut p);
            assert!(!p.is_identity());
            assert_eq!(p.image(0, 0), 0, "element 0 is not interchangeable");
            seen.insert(p.clone());
        }
        // All five non-identity permutations of three elements occur.
        assert_eq!(seen.len(), 5);
        assert_eq!(
            describe_permutation(
                &sym,
                &Permutation::from_images(vec![vec![0, 2, 1, 3]]).unwrap()
            ),
            "domain 1: #2 -> #3, #3 -> #2"
        );
    }

    #[test]
    fn sampling_takes_the_first_expansions_then_a_fraction() {
        assert!((0..CHECK_FIRST).all(|n| sampled(n, &[n])));
        let later = (0..64_000u64)
            .filter(|&k| sampled(CHECK_FIRST, &[k]))
            .count();
        let expected = 64_000 / CHECK_EVERY as usize;
        assert!(later > expected / 2 && later < expected * 2, "{later}");
    }
}
