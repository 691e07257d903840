//! What every front end's symmetry markers share (Bošnački, Donaldson,
//! Leuschel, Massart, "Efficient approximate verification of Promela
//! models via symmetry markers"): a front end computes a marker per
//! element and per state from its own values; the table that maps a state
//! marker to the first state met with it (approximate markers), and the
//! permutation that orders each domain's elements by their markers (exact
//! markers, the paper's Algorithm 5.1), are here.

use crate::model::{Permutable, Permutation};
use std::collections::HashMap;
use std::sync::Mutex;

/// Number of independently locked shards of a [`MarkerTable`].
const SHARDS: usize = 64;

/// The first state met with each state marker: the representative of
/// every later state with that marker (approximate markers).
pub struct MarkerTable {
    shards: Vec<Mutex<HashMap<u64, Box<[u64]>>>>,
}

impl Default for MarkerTable {
    fn default() -> Self {
        MarkerTable {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }
}

impl MarkerTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes into `out` the state standing for `state`, whose marker is
    /// `marker`: the first state recorded with it (`state` itself if it is
    /// the first).
    pub fn representative(&self, marker: u64, state: &[u64], out: &mut Vec<u64>) {
        let mut shard = self.shards[(marker as usize) % SHARDS]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let rep = shard.entry(marker).or_insert_with(|| state.into());
        out.clear();
        out.extend_from_slice(rep);
    }
}

/// The permutation that orders the movable elements of each domain of
/// `domains` by `marker(domain, element)`, ties by index: the `r`-th
/// element of a class in marker order goes to the class's `r`-th element.
/// Renaming a state by it gives a state of its orbit, the same for
/// symmetric states whose markers do not tie.
pub fn sorting_permutation(
    domains: &Permutable,
    marker: impl Fn(usize, u32) -> u64,
) -> Permutation {
    let mut perm = Permutation::identity(&domains.set_sizes);
    let images = perm.images_mut();
    for (d, class) in domains.movable.iter().enumerate() {
        let mut order: Vec<(u64, u32)> = class.iter().map(|&i| (marker(d, i), i)).collect();
        order.sort_unstable();
        for (rank, &(_, i)) in order.iter().enumerate() {
            images[d][i as usize] = class[rank];
        }
    }
    perm
}

/// The splitmix64 finaliser: a cheap bijective mix of 64 bits, the hash
/// step of markers and of the canonicaliser's shortcut.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_keeps_the_first_state_per_marker() {
        let table = MarkerTable::new();
        let mut out = Vec::new();
        table.representative(7, &[1, 2], &mut out);
        assert_eq!(out, [1, 2]);
        table.representative(7, &[3, 4], &mut out);
        assert_eq!(out, [1, 2]);
        table.representative(8, &[3, 4], &mut out);
        assert_eq!(out, [3, 4]);
    }

    #[test]
    fn elements_are_sorted_by_marker_within_their_class() {
        // Domain 0: elements 1..=3 movable, 0 fixed; domain 1: none.
        let domains = Permutable {
            movable: vec![vec![1, 2, 3], vec![]],
            set_sizes: vec![4, 2],
        };
        let markers = [0u64, 30, 10, 20];
        let perm = sorting_permutation(&domains, |d, i| {
            assert_eq!(d, 0);
            markers[i as usize]
        });
        // Marker order 2 (10), 3 (20), 1 (30) goes to 1, 2, 3.
        let images: Vec<u32> = (0..4).map(|i| perm.image(0, i)).collect();
        assert_eq!(images, [0, 3, 1, 2]);
    }

    #[test]
    fn mix_is_splitmix64() {
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
    }
}
