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

/// Words of images kept in the buffer: a bigger orbit (a state where 11
/// interchangeable elements occur has 11! = 39,916,800 images) is
/// streamed twice instead, so that flooding takes no memory per image.
const BUFFERED_WORDS: usize = 1 << 20;

/// Floods the orbit of `state` (just stored as new) through `insert`,
/// which stores a state as seen and says whether it was new. `images` is a
/// reusable buffer. An orbit of more than [`BUFFERED_WORDS`] words is
/// generated twice (once for its least image, once to store it); the
/// run's budget is read after each pass (the system reads it while it
/// generates).
pub(crate) fn flood<T: TransitionSystem>(
    system: &T,
    scratch: &mut T::Scratch,
    state: &[u64],
    images: &mut Vec<u64>,
    insert: &mut dyn FnMut(&[u64]) -> Result<bool, StopReason>,
) -> Result<Flooded, StopReason> {
    flood_buffering(system, scratch, state, images, insert, BUFFERED_WORDS)
}

/// [`flood`], buffering at most `buffered_words` words of images.
fn flood_buffering<T: TransitionSystem>(
    system: &T,
    scratch: &mut T::Scratch,
    state: &[u64],
    images: &mut Vec<u64>,
    insert: &mut dyn FnMut(&[u64]) -> Result<bool, StopReason>,
    buffered_words: usize,
) -> Result<Flooded, StopReason> {
    let width = state.len();
    images.clear();
    if width == 0 {
        return Ok(Flooded {
            explore: true,
            stored: 0,
        });
    }
    // The least image, once the orbit no longer fits the buffer.
    let mut streamed: Option<Vec<u64>> = None;
    system.flood(scratch, state, &mut |s| match &mut streamed {
        None if images.len() + s.len() <= buffered_words => images.extend_from_slice(s),
        None => {
            let mut least = images.chunks_exact(width).min().unwrap_or(s).to_vec();
            if s < least.as_slice() {
                least.copy_from_slice(s);
            }
            *images = Vec::new();
            streamed = Some(least);
        }
        Some(least) => {
            if s < least.as_slice() {
                least.copy_from_slice(s);
            }
        }
    });
    stop_if_tripped()?;
    let least: &[u64] = match &streamed {
        Some(least) if least.as_slice() < state => least,
        Some(_) => state,
        None => images
            .chunks_exact(width)
            .min()
            .filter(|m| *m < state)
            .unwrap_or(state),
    };
    let mut stored = 0;
    let explore = least == state || insert(least)?;
    if least != state {
        stored += u64::from(explore);
    }
    if streamed.is_none() {
        for image in images.chunks_exact(width) {
            if image != state && image != least && insert(image)? {
                stored += 1;
            }
        }
    } else {
        let mut failed = None;
        system.flood(scratch, state, &mut |image| {
            if failed.is_none() && image != state && image != least {
                match insert(image) {
                    Ok(new) => stored += u64::from(new),
                    Err(reason) => failed = Some(reason),
                }
            }
        });
        if let Some(reason) = failed {
            return Err(reason);
        }
        stop_if_tripped()?;
    }
    if !explore {
        stored += 1;
    }
    Ok(Flooded { explore, stored })
}

/// `Err` with the reason the run's budget ran out, if it has.
fn stop_if_tripped() -> Result<(), StopReason> {
    match crate::budget::tripped() {
        Some(reason) => Err(reason),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// States of 2 words whose orbit is every pair of distinct values
    /// below 6 in the state's own order of its two words (15 images, each
    /// emitted twice).
    struct Pairs;
    impl TransitionSystem for Pairs {
        type Scratch = ();
        fn new_scratch(&self) {}
        fn state_width(&self) -> usize {
            2
        }
        fn initial_states(
            &self,
            _: &mut (),
            emit: &mut dyn FnMut(&[u64]),
        ) -> Result<(), crate::ModelError> {
            emit(&[3, 1]);
            Ok(())
        }
        fn successors(
            &self,
            _: &mut (),
            _: &[u64],
            _: &mut dyn FnMut(&[u64]),
        ) -> Result<(), crate::ModelError> {
            Ok(())
        }
        fn labelled_initial_states(&self) -> Result<Vec<crate::LabelledState>, crate::ModelError> {
            Ok(Vec::new())
        }
        fn labelled_successors(
            &self,
            _: &[u64],
        ) -> Result<Vec<crate::LabelledState>, crate::ModelError> {
            Ok(Vec::new())
        }
        fn check_state(
            &self,
            _: &mut (),
            _: &[u64],
        ) -> Result<Option<crate::Violation>, crate::ModelError> {
            Ok(None)
        }
        fn describe_state(&self, _: &[u64]) -> Vec<(String, String)> {
            Vec::new()
        }
        fn floods(&self) -> bool {
            true
        }
        fn flood(&self, _: &mut (), state: &[u64], emit: &mut dyn FnMut(&[u64])) {
            let descending = state[0] > state[1];
            for _ in 0..2 {
                for a in 0..6 {
                    for b in a + 1..6 {
                        let image = if descending { [b, a] } else { [a, b] };
                        emit(&image);
                    }
                }
            }
        }
    }

    /// Floods `state` into a set that already holds `present`, buffering
    /// `words`: the outcome and the set after.
    fn run(state: &[u64], present: &[[u64; 2]], words: usize) -> (bool, u64, BTreeSet<Vec<u64>>) {
        let mut set: BTreeSet<Vec<u64>> = present.iter().map(|s| s.to_vec()).collect();
        set.insert(state.to_vec());
        let mut images = Vec::new();
        let flooded = flood_buffering(
            &Pairs,
            &mut (),
            state,
            &mut images,
            &mut |s| Ok(set.insert(s.to_vec())),
            words,
        )
        .expect("no budget, no stop");
        (flooded.explore, flooded.stored, set)
    }

    #[test]
    fn a_streamed_orbit_is_flooded_as_a_buffered_one() {
        for (state, present) in [
            ([3, 1], &[][..]),
            ([1, 0], &[][..]),
            ([4, 2], &[[1, 0]][..]),
            ([4, 2], &[[5, 3], [2, 0]][..]),
            ([2, 4], &[[0, 1]][..]),
        ] {
            let buffered = run(&state, present, 1 << 20);
            // The present states are images too: the set is the orbit.
            assert_eq!(buffered.2.len(), 15, "{state:?}");
            // Explored unless the least image was there first.
            let least = if state[0] > state[1] { [1, 0] } else { [0, 1] };
            assert_eq!(buffered.0, !present.contains(&least), "{state:?}");
            for words in [0, 2, 6, 29] {
                assert_eq!(run(&state, present, words), buffered, "{state:?} {words}");
            }
        }
    }
}
