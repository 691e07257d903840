//! States packed to bits, as Rumur packs them: every scalar leaf of the
//! global variables takes the bits its values need (`card + 1` values with
//! *undefined*), leaves are laid end to end across word boundaries, and the
//! state is the packed bits rounded up to whole words. The interpreter
//! works on one word per leaf ([`super::types`]); [`Packer::unpack`] and
//! [`Packer::pack`] convert, with shifts and masks only.

use super::types::Ty;

/// Where each leaf's bits are.
#[derive(Clone, Debug)]
pub struct Packer {
    /// Per leaf (in interpreter word order): its first bit and its width.
    leaves: Vec<(u32, u32)>,
    /// Words of a packed state.
    width: usize,
}

fn leaves(ty: &Ty, out: &mut Vec<u32>) {
    match ty {
        Ty::Array(index, elem) => {
            for _ in 0..index.card() {
                leaves(elem, out);
            }
        }
        Ty::Record(fields) => {
            for (_, t, _) in fields {
                leaves(t, out);
            }
        }
        Ty::Multiset(max, elem) => {
            for _ in 0..*max {
                // The presence word: 0 or 1.
                out.push(1);
                leaves(elem, out);
            }
        }
        // Words 0 (undefined) ..= card.
        _ => out.push(64 - ty.card().leading_zeros()),
    }
}

impl Packer {
    /// The packing of globals of types `types`, in order.
    pub fn new<'a>(types: impl IntoIterator<Item = &'a Ty>) -> Self {
        let mut bits = Vec::new();
        for ty in types {
            leaves(ty, &mut bits);
        }
        let mut at = 0u32;
        let leaves = bits
            .into_iter()
            .map(|b| {
                let leaf = (at, b);
                at += b;
                leaf
            })
            .collect();
        Packer {
            leaves,
            width: (at as usize).div_ceil(64).max(1),
        }
    }

    /// Words of a packed state.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Bits of a packed state (before rounding to words).
    pub fn bits(&self) -> u32 {
        self.leaves.last().map_or(0, |&(at, b)| at + b)
    }

    /// The first packed word holding unpacked word `leaf`.
    pub fn word_of(&self, leaf: usize) -> usize {
        self.leaves.get(leaf).map_or(0, |&(at, _)| at as usize / 64)
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

    /// Packs one word per leaf into `out` (`width` words).
    #[inline]
    pub fn pack(&self, words: &[u64], out: &mut [u64]) {
        out.fill(0);
        for (&v, &(at, bits)) in words.iter().zip(&self.leaves) {
            let (w, s) = ((at / 64) as usize, at % 64);
            out[w] |= v << s;
            if s + bits > 64 {
                out[w + 1] |= v >> (64 - s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_take_the_bits_of_their_values_across_word_boundaries() {
        // 3 values + undefined: 2 bits; 7 + 1: 3 bits; booleans: 2 bits.
        let a = Ty::Array(Box::new(Ty::Range(0, 29)), Box::new(Ty::Range(0, 6)));
        let types = [Ty::Range(1, 3), a, Ty::Bool];
        let p = Packer::new(&types);
        assert_eq!(p.bits(), 2 + 30 * 3 + 2);
        assert_eq!(p.width(), 2);
        let words: Vec<u64> = (0..32u64)
            .map(|i| i % 8 % if i == 0 || i == 31 { 3 } else { 8 })
            .collect();
        let mut packed = vec![0; p.width()];
        p.pack(&words, &mut packed);
        let mut back = vec![0; words.len()];
        p.unpack(&packed, &mut back);
        assert_eq!(back, words);
    }
}
