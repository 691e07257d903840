//! A fast hasher for keys the model makes (values, state words): short,
//! not adversarial, hashed on every successor. std's default (SipHash
//! with a random key) resists hash flooding, which a model checker's own
//! data does not need, at several times the cost: it was 11% of the
//! instructions of a B search whose successors intern a function.

use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hasher over 64-bit words, finished by a mixer.
/// Deterministic: equal keys hash equally in every process.
#[derive(Default)]
pub struct FastHasher(u64);

/// Builds [`FastHasher`]s, for `HashMap` and `DashMap`.
pub type FastBuild = BuildHasherDefault<FastHasher>;

impl Hasher for FastHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x = (x ^ (x >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^ (x >> 29)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(27);
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash + ?Sized>(t: &T) -> u64 {
        FastBuild::default().hash_one(t)
    }

    #[test]
    fn equal_keys_hash_equally_and_small_keys_spread() {
        assert_eq!(hash(&[1u64, 2, 3][..]), hash(&vec![1u64, 2, 3][..]));
        assert_eq!(hash("abc"), hash(&String::from("abc")));
        let mut seen = std::collections::HashSet::new();
        for a in 0..100u64 {
            for b in 0..100u32 {
                seen.insert(hash(&(a, b)));
            }
        }
        assert_eq!(seen.len(), 100 * 100);
        // Low bits spread too (hash tables index by them).
        let low: std::collections::HashSet<u64> = (0..4096u64).map(|i| hash(&i) & 4095).collect();
        assert!(low.len() > 2500, "{}", low.len());
    }
}
