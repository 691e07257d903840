//! How a state is kept in a store: only its significant bytes.
//!
//! A state is `width` words, but a front end that packs its states to bits
//! (Murphi's 68-bit German state, say) leaves the high bytes of its last
//! word zero: [`crate::TransitionSystem::state_bytes`] says how many bytes
//! can be non-zero. The stores keep exactly those bytes of each state, the
//! words written little-endian one after the other, so a 68-bit state
//! takes 9 bytes instead of 16. Reading a state back zero-fills the rest.
//!
//! Every operation works word by word (`u64::from_le_bytes` on an unaligned
//! slice is one load on little-endian machines), so stored keys need no
//! alignment and the layout is the same on every machine.

/// The stored layout of states of one width. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyCodec {
    width: usize,
    /// Whole words stored.
    full: usize,
    /// Bytes of the next word stored after the whole ones (0 to 7).
    rest: usize,
}

impl KeyCodec {
    /// The layout of states of `width` words of which only the first
    /// `bytes` bytes (little-endian) can be non-zero; `bytes` is clamped to
    /// `8 * width`.
    pub(crate) fn new(width: usize, bytes: usize) -> Self {
        let bytes = bytes.min(8 * width);
        KeyCodec {
            width,
            full: bytes / 8,
            rest: bytes % 8,
        }
    }

    /// The layout of a store's keys: the state's significant bytes, or
    /// with a tree store its one-word root (compact stores keep
    /// fingerprints and use the layout only to hash).
    pub(crate) fn for_store(kind: crate::config::StoreKind, width: usize, bytes: usize) -> Self {
        match kind {
            crate::config::StoreKind::Tree => Self::new(1, 8),
            _ => Self::new(width, bytes),
        }
    }

    /// Bytes of a stored state.
    #[inline]
    pub(crate) fn bytes(&self) -> usize {
        8 * self.full + self.rest
    }

    /// Whether `state` is zero past the stored bytes (the front end's
    /// contract; checked in debug builds).
    pub(crate) fn fits(&self, state: &[u64]) -> bool {
        if state.len() != self.width {
            return false;
        }
        let tail = &state[self.full..];
        match tail.split_first() {
            None => true,
            Some((&partial, rest)) => {
                let high_zero = self.rest > 0 && partial >> (8 * self.rest) == 0;
                (partial == 0 || high_zero) && rest.iter().all(|&w| w == 0)
            }
        }
    }

    /// Writes `state` into `out` (`bytes()` long).
    #[inline]
    pub(crate) fn write(&self, state: &[u64], out: &mut [u8]) {
        debug_assert!(self.fits(state), "state has bits past its declared bytes");
        for (i, w) in state[..self.full].iter().enumerate() {
            out[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
        if self.rest > 0 {
            let at = 8 * self.full;
            out[at..at + self.rest].copy_from_slice(&state[self.full].to_le_bytes()[..self.rest]);
        }
    }

    /// Word `i` of a stored state (`i < width`).
    #[inline]
    pub(crate) fn word(&self, stored: &[u8], i: usize) -> u64 {
        if i < self.full {
            u64::from_le_bytes(stored[8 * i..8 * i + 8].try_into().expect("8 bytes"))
        } else if i == self.full && self.rest > 0 {
            // Byte by byte (at most 7): a copy of a variable length would
            // be a call to memmove on every probe that reaches this word.
            stored[8 * i..8 * i + self.rest]
                .iter()
                .rev()
                .fold(0u64, |w, &b| (w << 8) | b as u64)
        } else {
            0
        }
    }

    /// The stored state as words.
    #[cfg(test)]
    pub(crate) fn read(&self, stored: &[u8]) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.width);
        self.read_into(stored, &mut out);
        out
    }

    /// The stored state as words, into `out` (replacing its contents).
    #[inline]
    pub(crate) fn read_into(&self, stored: &[u8], out: &mut Vec<u64>) {
        out.clear();
        out.extend((0..self.width).map(|i| self.word(stored, i)));
    }

    /// Whether the stored state is `state`.
    #[inline]
    pub(crate) fn equals(&self, stored: &[u8], state: &[u64]) -> bool {
        // Whole words first (the common case is all of them); the partial
        // word and the zero words after it only when those match.
        for (i, &w) in state[..self.full].iter().enumerate() {
            if u64::from_le_bytes(stored[8 * i..8 * i + 8].try_into().expect("8 bytes")) != w {
                return false;
            }
        }
        (self.full..self.width).all(|i| self.word(stored, i) == state[i])
    }

    /// The fingerprint of the stored state: that of its words.
    #[inline]
    pub(crate) fn fingerprint(&self, stored: &[u8]) -> u64 {
        crate::hash::fingerprint_of(self.width, (0..self.width).map(|i| self.word(stored, i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::fingerprint;

    #[test]
    fn states_round_trip_through_their_significant_bytes() {
        for (width, bytes) in [
            (0, 0),
            (1, 8),
            (1, 3),
            (2, 9),
            (2, 16),
            (3, 17),
            (3, 8),
            (2, 99),
        ] {
            let codec = KeyCodec::new(width, bytes);
            assert_eq!(codec.bytes(), bytes.min(8 * width));
            let mut state = vec![0u64; width];
            for (i, w) in state.iter_mut().enumerate() {
                let keep = codec.bytes().saturating_sub(8 * i).min(8);
                *w = if keep == 8 {
                    0x0123_4567_89ab_cdef ^ i as u64
                } else if keep == 0 {
                    0
                } else {
                    0x00a5_5a3c_c3e1_1e77 & ((1u64 << (8 * keep)) - 1)
                };
            }
            assert!(codec.fits(&state));
            let mut out = vec![0xffu8; codec.bytes()];
            codec.write(&state, &mut out);
            assert_eq!(codec.read(&out), state);
            assert!(codec.equals(&out, &state));
            assert_eq!(codec.fingerprint(&out), fingerprint(&state));
            if width > 0 {
                let mut other = state.clone();
                other[0] ^= 1;
                if codec.fits(&other) {
                    assert!(!codec.equals(&out, &other));
                }
            }
        }
    }

    #[test]
    fn states_with_bits_past_the_declared_bytes_do_not_fit() {
        let codec = KeyCodec::new(2, 9);
        assert!(codec.fits(&[u64::MAX, 0xff]));
        assert!(!codec.fits(&[u64::MAX, 0x100]));
        assert!(!codec.fits(&[0, 0, 0]));
        let codec = KeyCodec::new(3, 8);
        assert!(!codec.fits(&[1, 0, 1]));
        assert!(codec.fits(&[1, 0, 0]));
    }
}
