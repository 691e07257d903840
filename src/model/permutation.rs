//! Permutations of the elements of the permutable domains (B's deferred
//! sets, Murphi's scalarsets).
//!
//! A [`Permutation`] maps each element of each domain to an element of the
//! same domain (the identity outside the interchangeable elements). How it
//! acts on a state is the front end's business
//! ([`super::StateSymmetry::permute`]).

/// A permutation of the elements of every permutable domain.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Permutation {
    /// `images[s][i]`: the image of element `i` of given set `s`.
    images: Vec<Vec<u32>>,
}

impl Permutation {
    /// The identity on given sets of the given sizes.
    pub fn identity(set_sizes: &[usize]) -> Self {
        Permutation {
            images: set_sizes.iter().map(|&n| (0..n as u32).collect()).collect(),
        }
    }

    /// A permutation from explicit images; `None` unless every `images[s]`
    /// is a permutation of `0..images[s].len()`.
    pub fn from_images(images: Vec<Vec<u32>>) -> Option<Self> {
        for image in &images {
            let mut seen = vec![false; image.len()];
            for &i in image {
                let slot = seen.get_mut(i as usize)?;
                if *slot {
                    return None;
                }
                *slot = true;
            }
        }
        Some(Permutation { images })
    }

    /// The images, for callers that fill a permutation in place; each row
    /// must stay a permutation of its indices.
    pub fn images_mut(&mut self) -> &mut [Vec<u32>] {
        &mut self.images
    }

    /// The image of element `index` of given set `set`.
    #[inline]
    pub fn image(&self, set: u32, index: u32) -> u32 {
        self.images
            .get(set as usize)
            .and_then(|m| m.get(index as usize))
            .copied()
            .unwrap_or(index)
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        self.images
            .iter()
            .all(|m| m.iter().enumerate().all(|(i, &j)| i as u32 == j))
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn compose(&self, other: &Permutation) -> Permutation {
        let images = other
            .images
            .iter()
            .enumerate()
            .map(|(s, m)| m.iter().map(|&j| self.image(s as u32, j)).collect())
            .collect();
        Permutation { images }
    }

    /// The inverse permutation.
    pub fn inverse(&self) -> Permutation {
        let images = self
            .images
            .iter()
            .map(|m| {
                let mut inv = vec![0; m.len()];
                for (i, &j) in m.iter().enumerate() {
                    inv[j as usize] = i as u32;
                }
                inv
            })
            .collect();
        Permutation { images }
    }
}

/// Every permutation that moves only the given interchangeable elements
/// (`movable[s]` for given set `s`), identity first. The count is the
/// product of factorials: use only for small sets (flooding, brute-force
/// test oracles).
pub fn all_permutations(set_sizes: &[usize], movable: &[Vec<u32>]) -> Vec<Permutation> {
    let mut result = vec![Permutation::identity(set_sizes)];
    for (s, free) in movable.iter().enumerate() {
        if free.len() < 2 {
            continue;
        }
        let orders = permutations_of(free);
        let mut next = Vec::with_capacity(result.len() * orders.len());
        for p in &result {
            for order in &orders {
                let mut q = p.clone();
                for (from, to) in free.iter().zip(order) {
                    q.images[s][*from as usize] = *to;
                }
                next.push(q);
            }
        }
        result = next;
    }
    result
}

/// All orderings of `items`, the given order first (lexicographic by position).
fn permutations_of(items: &[u32]) -> Vec<Vec<u32>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations_of(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_identity_first() {
        let all = all_permutations(&[3, 2], &[vec![0, 1, 2], vec![0, 1]]);
        assert_eq!(all.len(), 12);
        assert!(all[0].is_identity());
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 12);
        // Fixed elements stay fixed.
        let partial = all_permutations(&[3], &[vec![1, 2]]);
        assert_eq!(partial.len(), 2);
        assert!(partial.iter().all(|p| p.image(0, 0) == 0));
    }

    #[test]
    fn compose_and_inverse() {
        let p = Permutation::from_images(vec![vec![1, 2, 0]]).unwrap();
        assert!(p.compose(&p.inverse()).is_identity());
        assert_eq!(p.compose(&p).image(0, 0), 2);
        assert!(Permutation::from_images(vec![vec![0, 0]]).is_none());
        assert!(Permutation::from_images(vec![vec![0, 5]]).is_none());
    }
}
