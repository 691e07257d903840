//! Permutation flooding (Leuschel, Butler, Spermann, Turner, "Symmetry
//! reduction for B by permutation flooding", [Leuschel et al. 2007],
//! Algorithm 3.1).
//!
//! When a state is reached that is not yet visited, all its permutations
//! are added to the visited set as already treated, and the state itself is
//! explored (checked and expanded) as usual. The engine does the storing
//! (`TransitionSystem::flood`, in its own lock-free visited set); [`Flood`]
//! computes the images. The engine thus checks and expands one state per
//! orbit while its visited set holds every state of the explored orbits (as
//! many as without symmetry), and the states it explores are reached by
//! real transitions, so its traces need no mapping back.
//!
//! Partial permutations (§4 of the paper): permutations that differ only on
//! elements absent from the state give the same image, so only the
//! injective maps of the elements that occur into the interchangeable
//! elements are applied (`n!/(n-k)!` instead of `n!` for `k` occurring
//! elements of an `n`-element class).

use crate::model::{Permutable, Permutation, StateGraph, StateSymmetry};

/// The images of states under the permutations of one model's
/// interchangeable elements.
pub struct Flood {
    atoms: Vec<(u32, u32)>,
    movable: Vec<Vec<u32>>,
    set_sizes: Vec<usize>,
}

/// Per-thread buffers of [`Flood`].
#[derive(Debug, Default)]
pub struct FloodScratch {
    graph: StateGraph,
    image: Vec<u64>,
}

impl Flood {
    /// The flooding of states permuted over `domains`.
    pub fn new(domains: &Permutable) -> Self {
        Flood {
            atoms: domains.atoms(),
            movable: domains.movable.clone(),
            set_sizes: domains.set_sizes.clone(),
        }
    }

    /// Emits the image of `state` under every partial permutation: its
    /// whole orbit, `state` itself included, possibly with repetitions.
    pub fn images<S: StateSymmetry>(
        &self,
        sym: &S,
        state: &[u64],
        hooks: &mut S::Scratch,
        scratch: &mut FloodScratch,
        emit: &mut dyn FnMut(&[u64]),
    ) {
        scratch.graph.reset(&self.atoms);
        if !sym.describe(state, hooks, &mut scratch.graph) {
            // No interchangeable element occurs: the orbit is the state.
            return emit(state);
        }
        // The occurring elements of each class, and every injective map of
        // them into the class, extended to a permutation.
        let atoms = &self.atoms;
        let mut occurring: Vec<Vec<u32>> = vec![Vec::new(); self.set_sizes.len()];
        for (a, &occurs) in scratch.graph.occurs().iter().enumerate() {
            if occurs {
                let (s, i) = atoms[a];
                occurring[s as usize].push(i);
            }
        }
        let mut perm = Permutation::identity(&self.set_sizes);
        let image = &mut scratch.image;
        let mut count = 0u64;
        self.flood_class(0, &occurring, &mut perm, &mut |p| {
            // An orbit can be huge (11! images): stop with the run.
            count += 1;
            if workers::budget::tripped_every(count).is_some() {
                return false;
            }
            if sym.permute(p, state, hooks, image) {
                emit(image);
            }
            true
        });
    }

    /// Calls `f` with every permutation that maps the occurring elements of
    /// classes `s..` injectively into their classes (the rest of a class in
    /// increasing order onto the unused elements), until it returns false;
    /// whether it never did.
    fn flood_class(
        &self,
        s: usize,
        occurring: &[Vec<u32>],
        perm: &mut Permutation,
        f: &mut dyn FnMut(&Permutation) -> bool,
    ) -> bool {
        if s == occurring.len() {
            return f(perm);
        }
        let class = &self.movable[s];
        let mut used = vec![false; class.len()];
        let mut chosen = Vec::with_capacity(occurring[s].len());
        self.arrange(s, occurring, 0, &mut used, &mut chosen, perm, f)
    }

    #[allow(clippy::too_many_arguments)]
    fn arrange(
        &self,
        s: usize,
        occurring: &[Vec<u32>],
        k: usize,
        used: &mut Vec<bool>,
        chosen: &mut Vec<usize>,
        perm: &mut Permutation,
        f: &mut dyn FnMut(&Permutation) -> bool,
    ) -> bool {
        let class = &self.movable[s];
        if k == occurring[s].len() {
            // Fill in: occurring elements to their chosen images, the other
            // elements of the class in order onto the unused images.
            let images = &mut perm.images_mut()[s];
            for (&e, &c) in occurring[s].iter().zip(chosen.iter()) {
                images[e as usize] = class[c];
            }
            let mut free = (0..class.len()).filter(|&c| !used[c]);
            for &e in class {
                if !occurring[s].contains(&e) {
                    images[e as usize] = class[free.next().unwrap_or(0)];
                }
            }
            return self.flood_class(s + 1, occurring, perm, f);
        }
        for c in 0..class.len() {
            if !used[c] {
                used[c] = true;
                chosen.push(c);
                let go_on = self.arrange(s, occurring, k + 1, used, chosen, perm, f);
                chosen.pop();
                used[c] = false;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}
