//! 64-bit fingerprints of states.
//!
//! A state is a slice of `u64` words; its fingerprint drives both the hash
//! table position (low bits) and, in compact mode, stands for the state
//! itself. Each word is combined with the running hash by a *folded
//! multiply* (the 64x64->128-bit product, high half xor low half), the
//! mixing step of wyhash (Wang Yi, 2019) and foldhash; a final folded
//! multiply with the length avalanches the result. This is fast (one
//! multiply per word) and mixes well enough that fingerprints of structured
//! states behave like random 64-bit values, which the collision estimate of
//! compact mode assumes. States of [`LANES_FROM`] words and more run four
//! such chains over their words in turn, folded into one at the end, so
//! that the multiplies of a long state overlap instead of each waiting on
//! the last. [`fingerprint`] (a slice) and [`fingerprint_of`] (the words
//! a store decodes one by one) compute the same value.

const P0: u64 = 0xa076_1d64_78bd_642f;
const P1: u64 = 0xe703_7ed1_a0b4_28db;
const P2: u64 = 0x8ebc_6af0_9c88_c6e3;

#[inline(always)]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let full = (a as u128).wrapping_mul(b as u128);
    (full as u64) ^ ((full >> 64) as u64)
}

/// The length from which states are hashed in four interleaved lanes
/// (shorter ones, most states, hash as one chain: lanes would only add
/// their folding).
const LANES_FROM: usize = 16;

/// The fingerprint of a state. Never `0` nor `u64::MAX` (the visited
/// sets use those two values to mark empty and migrated slots).
#[inline]
pub fn fingerprint(words: &[u64]) -> u64 {
    if words.len() < LANES_FROM {
        return fingerprint_of(words.len(), words.iter().copied());
    }
    // The lanes of `fingerprint_of` over whole chunks, without the
    // iterator's end checks between the words of a chunk.
    let chunks = words.chunks_exact(4);
    let tail = chunks.remainder();
    let mut lanes = LANE_SEEDS;
    for chunk in chunks {
        for (lane, &w) in lanes.iter_mut().zip(chunk) {
            *lane = folded_multiply(*lane ^ w, P1);
        }
    }
    finish(words.len(), lanes_folded(lanes), tail.iter().copied())
}

/// The seeds of the four lanes of a long state's fingerprint.
const LANE_SEEDS: [u64; 4] = [P0, P0 ^ P1, P0 ^ P2, P1 ^ P2];

/// The running hash after folding in the four lanes, in order.
#[inline(always)]
fn lanes_folded(lanes: [u64; 4]) -> u64 {
    let mut h = P0;
    for lane in lanes {
        h = folded_multiply(h ^ lane, P1);
    }
    h
}

/// The fingerprint from running hash `h` and the words left, `words`, of a
/// state of `len` words.
#[inline(always)]
fn finish(len: usize, mut h: u64, words: impl Iterator<Item = u64>) -> u64 {
    for w in words {
        h = folded_multiply(h ^ w, P1);
    }
    match folded_multiply(h ^ len as u64, P2) {
        0 => 1,
        u64::MAX => u64::MAX - 1,
        h => h,
    }
}

/// The fingerprint of the state whose `len` words `words` yields (the
/// stores hash states they keep as bytes without rebuilding them).
#[inline]
pub(crate) fn fingerprint_of(len: usize, mut words: impl Iterator<Item = u64>) -> u64 {
    if len < LANES_FROM {
        return finish(len, P0, words);
    }
    // Four independent chains over the words in turn, so that the
    // multiplies overlap instead of each waiting on the last (one chain is
    // bound by the multiply's latency: a state of a thousand words took
    // longer to hash than to generate), then folded in order.
    let mut lanes = LANE_SEEDS;
    for _ in 0..len / 4 {
        for lane in &mut lanes {
            *lane = folded_multiply(*lane ^ words.next().unwrap_or(0), P1);
        }
    }
    finish(len, lanes_folded(lanes), words)
}

/// Asks the processor to bring the cache line at `at` closer, so that a
/// later read of it does not wait on memory (a hint: no effect on results,
/// a no-op where the target has no stable prefetch instruction).
#[inline(always)]
pub fn prefetch<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing the program sees,
    // whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// The home slot of fingerprint `hash` in a table of `capacity` slots, of
/// any size: the low 32 bits of the fingerprint scaled to the capacity
/// (Lemire's multiply-shift range reduction), so tables need not be powers
/// of two and can grow by less than doubling. The stores' tags come from
/// the top bits, independent of the home.
#[inline(always)]
pub(crate) fn home(hash: u64, capacity: usize) -> usize {
    ((hash.rotate_left(32) as u128 * capacity as u128) >> 64) as usize
}

/// The capacity the sequential table of `capacity` slots grows to: half as
/// large again (doubling would leave a fresh table a quarter emptier; the
/// sequential table never holds two generations, so smaller steps cost
/// only more frequent rebuilds).
#[inline]
pub(crate) fn grown(capacity: usize) -> usize {
    capacity + capacity.div_ceil(2)
}

/// The slot after `pos` in a linear-probing table of `len` slots.
#[inline(always)]
pub(crate) fn next_pos(pos: usize, len: usize) -> usize {
    if pos + 1 == len { 0 } else { pos + 1 }
}

/// Replaces the single-threaded table `slots` by an empty one of
/// [`grown`] size, for the caller to refill from its own columns. The old
/// table is freed before the new one is touched, so the moment of growth
/// never holds both; `false`, with `slots` untouched, if the system refuses
/// the memory (an address-space limit, say).
pub(crate) fn regrow(slots: &mut Vec<u64>) -> bool {
    let len = grown(slots.len());
    let mut fresh = Vec::new();
    if fresh.try_reserve_exact(len).is_err() {
        return false;
    }
    drop(std::mem::take(slots));
    fresh.resize(len, 0u64);
    *slots = fresh;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn homes_spread_over_tables_of_any_size() {
        for capacity in [1usize, 3, 1000, 1536, 2304] {
            let mut hits = vec![0u32; capacity];
            for i in 0..20 * capacity as u64 {
                let pos = home(fingerprint(&[i]), capacity);
                hits[pos] += 1;
            }
            // Every slot is some state's home, none is far above the mean.
            assert!(hits.iter().all(|&h| h > 0 && h < 60), "{capacity}");
        }
        assert_eq!(grown(1024), 1536);
        assert_eq!(grown(3), 5);
    }

    #[test]
    fn distinct_small_states_get_distinct_fingerprints() {
        let mut seen = HashSet::new();
        for a in 0..64u64 {
            for b in 0..64u64 {
                for c in 0..16u64 {
                    assert!(seen.insert(fingerprint(&[a, b, c])));
                }
            }
        }
    }

    #[test]
    fn long_states_differing_in_one_word_get_distinct_fingerprints() {
        // Long states hash in lanes: a change in any word, of any lane or
        // of the tail, or a swap across lanes, changes the fingerprint.
        let base: Vec<u64> = (0..LANES_FROM as u64 * 3 + 3).collect();
        let mut seen = HashSet::new();
        assert!(seen.insert(fingerprint(&base)));
        for i in 0..base.len() {
            for delta in [1u64, 1 << 40] {
                let mut s = base.clone();
                s[i] ^= delta;
                assert!(seen.insert(fingerprint(&s)), "word {i}");
            }
            if i > 0 {
                let mut s = base.clone();
                s.swap(i - 1, i);
                assert!(seen.insert(fingerprint(&s)), "swap at {i}");
            }
        }
    }

    #[test]
    fn slices_and_word_iterators_hash_alike() {
        for len in 0..3 * LANES_FROM + 3 {
            let s: Vec<u64> = (0..len as u64).map(|i| i.wrapping_mul(P2) ^ 7).collect();
            assert_eq!(
                fingerprint(&s),
                fingerprint_of(len, s.iter().copied()),
                "{len}"
            );
        }
    }

    #[test]
    fn word_order_and_length_matter() {
        assert_ne!(fingerprint(&[1, 2]), fingerprint(&[2, 1]));
        assert_ne!(fingerprint(&[0]), fingerprint(&[0, 0]));
        assert_ne!(fingerprint(&[]), 0);
    }

    #[test]
    fn low_bits_spread_evenly() {
        // Table positions come from the low bits: 16 buckets over 16k
        // consecutive counters should each get close to 1/16.
        let mut buckets = [0u32; 16];
        for i in 0..16_384u64 {
            buckets[(fingerprint(&[i]) & 15) as usize] += 1;
        }
        for &b in &buckets {
            assert!((900..1150).contains(&b), "{buckets:?}");
        }
    }
}
