//! States packed to bits, as Rumur packs them: every scalar leaf of the
//! global variables takes the bits its values need (`card + 1` values with
//! *undefined*); [`crate::model::Packer`] lays them end to end. The
//! interpreter works on one word per leaf ([`super::types`]).

use super::types::Ty;
pub use crate::model::Packer;

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
        _ => out.push(crate::model::bits_for(ty.card())),
    }
}

/// The packing of globals of types `types`, in order.
pub fn packer<'a>(types: impl IntoIterator<Item = &'a Ty>) -> Packer {
    let mut bits = Vec::new();
    for ty in types {
        leaves(ty, &mut bits);
    }
    Packer::new(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_take_the_bits_of_their_values_across_word_boundaries() {
        // 3 values + undefined: 2 bits; 7 + 1: 3 bits; booleans: 2 bits.
        let a = Ty::Array(Box::new(Ty::Range(0, 29)), Box::new(Ty::Range(0, 6)));
        let types = [Ty::Range(1, 3), a, Ty::Bool];
        let p = packer(&types);
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
