//! Independent parts of PROPERTIES, solved one by one.
//!
//! Constants that no conjunct relates (`MaxVector : NATURAL1` and the
//! partition of a deferred set `Inst` into its kinds of instruction) have
//! independent valuations: the valuations of the whole are the product of
//! those of the parts. One plan for all of them enumerates the first part
//! once for each valuation of the second, so a part without solution is
//! found only after every valuation of the parts before it (ProB's
//! "component partitioning" finds it at once). Solved part by part, the
//! smallest first, a part without solution ends the search, and the
//! others are enumerated once each.

use super::ir::{CPred, Solver};
use super::plan;

/// A part of PROPERTIES: the constants (frame slots) it binds and the
/// conjuncts over them.
pub(super) struct Component {
    /// The constants' frame slots, in increasing order.
    pub slots: Vec<u32>,
    /// The conjuncts that read them (in PROPERTIES order).
    pub conjuncts: Vec<CPred>,
}

/// Splits `conjuncts` over constants `0..nc` into the parts that share no
/// constant, each constant in exactly one (a constant no conjunct reads
/// is a part of its own); conjuncts that read no constant go with the
/// first part. Ordered by their first constant.
pub(super) fn split(conjuncts: &[CPred], nc: usize) -> Vec<Component> {
    let mut parent: Vec<usize> = (0..nc).collect();
    fn root(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    let reads: Vec<Vec<u32>> = conjuncts
        .iter()
        .map(|c| {
            let mut slots = Vec::new();
            plan::pred_slots(c, &mut slots);
            slots.retain(|&s| (s as usize) < nc);
            slots.sort_unstable();
            slots.dedup();
            slots
        })
        .collect();
    for slots in &reads {
        if let Some((&first, rest)) = slots.split_first() {
            for &s in rest {
                let (a, b) = (
                    root(&mut parent, first as usize),
                    root(&mut parent, s as usize),
                );
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
    }
    // Parts numbered by their first constant.
    let mut index = vec![usize::MAX; nc];
    let mut parts: Vec<Component> = Vec::new();
    for k in 0..nc {
        let r = root(&mut parent, k);
        if index[r] == usize::MAX {
            index[r] = parts.len();
            parts.push(Component {
                slots: Vec::new(),
                conjuncts: Vec::new(),
            });
        }
        parts[index[r]].slots.push(k as u32);
    }
    for (c, slots) in conjuncts.iter().zip(&reads) {
        let part = slots
            .first()
            .map_or(0, |&s| index[root(&mut parent, s as usize)]);
        if let Some(p) = parts.get_mut(part) {
            p.conjuncts.push(c.clone());
        }
    }
    parts
}

/// The order in which to solve the parts' plans: the fewest candidates
/// first, then the fewest constants (a part without solution is then
/// likely found before a large one is enumerated: a single unconstrained
/// function `DualOpFunc : Data * Data --> Data * BOOL` has 12^36
/// candidates, a part of three bounded integers a few dozen).
pub(super) fn solving_order(plans: &[Solver]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..plans.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |k: usize| (plan::candidate_space(&plans[k]), plans[k].vars.len());
        let (ka, kb) = (key(a), key(b));
        ka.0.total_cmp(&kb.0).then(ka.1.cmp(&kb.1))
    });
    order
}

/// Every combination of one valuation from each part (`per_part[i]` holds
/// part `i`'s valuations of its `slots[i]`), as valuations of all `nc`
/// constants; the last part varies fastest.
pub(super) fn product<V: Clone>(
    per_part: &[Vec<Vec<V>>],
    slots: &[&[u32]],
    nc: usize,
    unset: V,
) -> Vec<Vec<V>> {
    let total: usize = per_part.iter().map(Vec::len).product();
    let mut out = Vec::with_capacity(total);
    if total == 0 {
        return out;
    }
    let mut pick = vec![0usize; per_part.len()];
    loop {
        let mut valuation = vec![unset.clone(); nc];
        for (part, &k) in pick.iter().enumerate() {
            for (&slot, v) in slots[part].iter().zip(&per_part[part][k]) {
                valuation[slot as usize] = v.clone();
            }
        }
        out.push(valuation);
        // The next combination, as an odometer.
        let mut i = per_part.len();
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            pick[i] += 1;
            if pick[i] < per_part[i].len() {
                break;
            }
            pick[i] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_take_every_combination_with_the_last_part_fastest() {
        let parts = vec![
            vec![vec![1], vec![2]],
            vec![vec![7, 8], vec![9, 9], vec![0, 0]],
        ];
        let slots: Vec<&[u32]> = vec![&[1], &[0, 2]];
        let all = product(&parts, &slots, 3, -1);
        assert_eq!(all.len(), 6);
        assert_eq!(all[0], vec![7, 1, 8]);
        assert_eq!(all[1], vec![9, 1, 9]);
        assert_eq!(all[3], vec![7, 2, 8]);
        // A part without valuation leaves none.
        let none = product(&[vec![vec![1]], vec![]], &slots, 3, -1);
        assert!(none.is_empty());
    }
}
