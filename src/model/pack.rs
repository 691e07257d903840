//! States packed to bits, for any front end whose interpreter works on
//! one word per *leaf* (a scalar, one word of a bitset, an id): every leaf
//! takes the bits its values need, leaves are laid end to end across word
//! boundaries, and a packed state is the bits rounded up to whole words.
//! [`Packer::unpack`] and [`Packer::pack`] convert with shifts and masks
//! only; the engine stores, hashes and compares the packed words.

/// Where each leaf's bits are in a packed state.
#[derive(Clone, Debug)]
pub struct Packer {
    /// Per leaf (in interpreter word order): its first bit and its width.
    leaves: Vec<(u32, u32)>,
    /// Bits of a packed state (before rounding to words).
    bits: u32,
    /// Words of a packed state.
    width: usize,
}

/// The number of bits that hold every value `0..=max`.
pub fn bits_for(max: u64) -> u32 {
    64 - max.leading_zeros()
}

impl Packer {
    /// The packing of leaves of `bits` bits each (at most 64), in order.
    pub fn new(bits: impl IntoIterator<Item = u32>) -> Self {
        let mut at = 0u32;
        let leaves = bits
            .into_iter()
            .map(|b| {
                debug_assert!(b <= 64);
                // A leaf of one value takes no bits; it sits at bit 0, as
                // its position might otherwise be the first bit past the
                // last word.
                if b == 0 {
                    return (0, 0);
                }
                let leaf = (at, b.min(64));
                at += b.min(64);
                leaf
            })
            .collect();
        Packer {
            leaves,
            bits: at,
            width: (at as usize).div_ceil(64).max(1),
        }
    }

    /// Words of a packed state.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Bits of a packed state (before rounding to words).
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Bytes of a packed state that can be non-zero.
    pub fn significant_bytes(&self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }

    /// The packed word holding the first bit of leaf `leaf`.
    fn word_of(&self, leaf: usize) -> usize {
        self.leaves.get(leaf).map_or(0, |&(at, _)| at as usize / 64)
    }

    /// The packed words holding leaves `first..first + count` (at least one
    /// word): `(first word, number of words)`.
    pub fn words_of(&self, first: usize, count: usize) -> (usize, usize) {
        let mut words: Option<(usize, usize)> = None;
        for &(at, b) in self.leaves.iter().skip(first).take(count) {
            if b == 0 {
                continue; // no bits, in no word
            }
            let (s, e) = (at as usize / 64, (at + b - 1) as usize / 64);
            words = Some(words.map_or((s, e), |(a, z)| (a.min(s), z.max(e))));
        }
        let (start, end) = words.unwrap_or_else(|| {
            let w = self.word_of(first);
            (w, w)
        });
        (start, end - start + 1)
    }

    /// The slot of the packed state that holds the variable `name`, whose
    /// leaves are `first..first + count` (what [`super::Model::slots`]
    /// lists for a packed front end).
    pub fn slot(&self, name: &str, first: usize, count: usize) -> super::SlotInfo {
        let (offset, words) = self.words_of(first, count);
        super::SlotInfo {
            name: name.to_string(),
            offset,
            words,
        }
    }

    /// Whether `word` fits leaf `leaf`'s bits.
    #[inline]
    pub fn fits(&self, leaf: usize, word: u64) -> bool {
        self.leaves
            .get(leaf)
            .is_some_and(|&(_, bits)| bits == 64 || word >> bits == 0)
    }

    /// Unpacks `packed` into one word per leaf.
    #[inline]
    pub fn unpack(&self, packed: &[u64], out: &mut [u64]) {
        for (o, &(at, bits)) in out.iter_mut().zip(&self.leaves) {
            let (w, s) = ((at / 64) as usize, at % 64);
            let mut v = packed[w] >> s;
            if s + bits > 64 {
                v |= packed[w + 1] << (64 - s);
            }
            *o = if bits == 64 {
                v
            } else {
                v & ((1u64 << bits) - 1)
            };
        }
    }

    /// Packs one word per leaf into `out` (`width` words). Hot path (every
    /// successor): every word must fit its leaf ([`Packer::fits`]), which
    /// is not checked; a word that may not fit needs
    /// [`Packer::pack_truncating`].
    #[inline]
    pub fn pack(&self, words: &[u64], out: &mut [u64]) {
        out.fill(0);
        for (i, (&v, &(at, bits))) in words.iter().zip(&self.leaves).enumerate() {
            debug_assert!(self.fits(i, v), "{v} does not fit {bits} bits");
            let (w, s) = ((at / 64) as usize, at % 64);
            out[w] |= v << s;
            if s + bits > 64 {
                out[w + 1] |= v >> (64 - s);
            }
        }
    }

    /// [`Packer::pack`] for words that may not fit their leaves: each
    /// loses its high bits (to be overwritten with [`Packer::set`]).
    #[inline]
    pub fn pack_truncating(&self, words: &[u64], out: &mut [u64]) {
        out.fill(0);
        for (&v, &(at, bits)) in words.iter().zip(&self.leaves) {
            Self::put(out, at, bits, v);
        }
    }

    /// Overwrites leaf `leaf` of the packed state `out` with `value`
    /// (truncated to the leaf's bits).
    #[inline]
    pub fn set(&self, leaf: usize, value: u64, out: &mut [u64]) {
        let (at, bits) = self.leaves[leaf];
        if bits == 0 {
            return;
        }
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        let (w, s) = ((at / 64) as usize, at % 64);
        out[w] &= !(mask << s);
        if s + bits > 64 {
            out[w + 1] &= !(mask >> (64 - s));
        }
        Self::put(out, at, bits, value);
    }

    /// Ors `value`, truncated to `bits` bits, into the leaf at bit `at`.
    #[inline(always)]
    fn put(out: &mut [u64], at: u32, bits: u32, value: u64) {
        if bits == 0 {
            return;
        }
        let v = if bits == 64 {
            value
        } else {
            value & ((1 << bits) - 1)
        };
        let (w, s) = ((at / 64) as usize, at % 64);
        out[w] |= v << s;
        if s + bits > 64 {
            out[w + 1] |= v >> (64 - s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_take_their_bits_across_word_boundaries() {
        let bits: Vec<u32> = std::iter::once(2)
            .chain(std::iter::repeat_n(3, 30))
            .chain([2, 64, 0, 1])
            .collect();
        let p = Packer::new(bits.iter().copied());
        assert_eq!(p.bits(), 2 + 30 * 3 + 2 + 64 + 1);
        assert_eq!(p.width(), 3);
        assert_eq!(p.significant_bytes(), 20);
        let words: Vec<u64> = bits
            .iter()
            .enumerate()
            .map(|(i, &b)| match b {
                0 => 0,
                64 => u64::MAX - i as u64,
                b => (i as u64 * 7) & ((1 << b) - 1),
            })
            .collect();
        assert!(words.iter().enumerate().all(|(i, &w)| p.fits(i, w)));
        let mut packed = vec![0; p.width()];
        p.pack(&words, &mut packed);
        let mut truncated = vec![0; p.width()];
        p.pack_truncating(&words, &mut truncated);
        assert_eq!(truncated, packed);
        let mut back = vec![0; words.len()];
        p.unpack(&packed, &mut back);
        assert_eq!(back, words);
        assert!(!p.fits(0, 4));
        // Setting a leaf leaves its neighbours alone, across a word boundary too.
        let mut set = packed.clone();
        p.set(31, 1, &mut set);
        p.set(32, 7, &mut set);
        let mut back = vec![0; words.len()];
        p.unpack(&set, &mut back);
        let mut expected = words.clone();
        expected[31] = 1;
        expected[32] = 7;
        assert_eq!(back, expected);
        assert_eq!(p.words_of(31, 2), (1, 2));
        assert_eq!(p.words_of(0, 1), (0, 1));
    }

    #[test]
    fn leaves_of_no_bits_after_a_full_word_stay_inside_the_state() {
        // 64 bits exactly, then a leaf of one value: one word, which
        // packing and unpacking never index past.
        let p = Packer::new([40, 24, 0]);
        assert_eq!((p.bits(), p.width()), (64, 1));
        let words = [(1 << 40) - 1, 5, 0];
        let mut packed = vec![0; p.width()];
        p.pack(&words, &mut packed);
        p.pack_truncating(&words, &mut packed);
        let mut back = [9; 3];
        p.unpack(&packed, &mut back);
        assert_eq!(back, words);
        p.set(2, 0, &mut packed);
        assert_eq!(p.words_of(1, 2), (0, 1));
        assert_eq!(p.words_of(2, 1), (0, 1));
        // A variable whose last leaf has no bits still covers its words.
        let q = Packer::new([60, 10, 0]);
        assert_eq!(q.words_of(1, 2), (0, 2));
    }

    #[test]
    fn bits_for_counts_the_bits_of_the_largest_value() {
        assert_eq!(bits_for(0), 0);
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 2);
        assert_eq!(bits_for(255), 8);
        assert_eq!(bits_for(u64::MAX), 64);
    }
}
