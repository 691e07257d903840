//! How both stores keep a state's parent: 40 bits (5 bytes), with all bits
//! set standing for [`NO_PARENT`] (no id or reference reaches it: a store
//! holds fewer than 2^40 states). Counterexamples follow these links.

use super::{NO_PARENT, Ref};

/// Bytes of a stored parent.
pub(crate) const PARENT_BYTES: usize = 5;

/// How [`NO_PARENT`] is stored.
pub(crate) const NO_PARENT_STORED: u64 = (1 << (8 * PARENT_BYTES)) - 1;

/// Writes `parent` into the first [`PARENT_BYTES`] of `out`.
#[inline]
pub(crate) fn write(parent: Ref, out: &mut [u8]) {
    let stored = if parent == NO_PARENT {
        NO_PARENT_STORED
    } else {
        parent
    };
    out[..PARENT_BYTES].copy_from_slice(&stored.to_le_bytes()[..PARENT_BYTES]);
}

/// The parent stored in the first [`PARENT_BYTES`] of `bytes`.
#[inline]
pub(crate) fn read(bytes: &[u8]) -> Ref {
    let mut word = [0u8; 8];
    word[..PARENT_BYTES].copy_from_slice(&bytes[..PARENT_BYTES]);
    match u64::from_le_bytes(word) {
        NO_PARENT_STORED => NO_PARENT,
        parent => parent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_round_trip_through_forty_bits() {
        let mut bytes = [0u8; PARENT_BYTES];
        for parent in [0, 1, 12_345, NO_PARENT_STORED - 1, NO_PARENT] {
            write(parent, &mut bytes);
            assert_eq!(read(&bytes), parent);
        }
    }
}
