//! Permutation flooding in the engine's own visited set
//! ([`TransitionSystem::flood`]; [Leuschel et al. 2007], Algorithm 3.1).
//!
//! When a state is stored as new, the system emits its orbit and every
//! image goes into the same visited set as the search's states (so memory
//! accounting, compact mode and thread scaling are the set's own), marked
//! as seen: later successors that land in the orbit are simply `Seen`.
//!
//! With several threads two states of one orbit can both be stored as new
//! before either is flooded. To explore each orbit exactly once, the orbit
//! belongs to whoever stores its least image (in word order) first: a
//! thread that stored `state` as new then finds the least image already
//! present leaves `state` in the set as a flooded state and does not check
//! or expand it. The least image is stored before any other image, and
//! either as a successor (explored) or by the flooding of an owner, so
//! exactly one thread owns each orbit. Sequentially the first state of an
//! orbit always owns it.

use crate::report::StopReason;
use crate::system::TransitionSystem;

/// The outcome of flooding one new state's orbit.
pub(crate) struct Flooded {
    /// Whether the new state is to be checked and expanded.
    pub(crate) explore: bool,
    /// States newly stored by flooding (the new state itself included
    /// when it is not explored).
    pub(crate) stored: u64,
}

/// Floods the orbit of `state` (just stored as new) through `insert`,
/// which stores a state as seen and says whether it was new. `images` is a
/// reusable buffer.
pub(crate) fn flood<T: TransitionSystem>(
    system: &T,
    scratch: &mut T::Scratch,
    state: &[u64],
    images: &mut Vec<u64>,
    insert: &mut dyn FnMut(&[u64]) -> Result<bool, StopReason>,
) -> Result<Flooded, StopReason> {
    let width = state.len();
    images.clear();
    system.flood(scratch, state, &mut |s| images.extend_from_slice(s));
    if width == 0 {
        return Ok(Flooded {
            explore: true,
            stored: 0,
        });
    }
    let least = images
        .chunks_exact(width)
        .min()
        .filter(|m| *m < state)
        .unwrap_or(state);
    let mut stored = 0;
    let explore = least == state || insert(least)?;
    if least != state {
        stored += u64::from(explore);
    }
    for image in images.chunks_exact(width) {
        if image != state && image != least && insert(image)? {
            stored += 1;
        }
    }
    if !explore {
        stored += 1;
    }
    Ok(Flooded { explore, stored })
}
