//! Tree compression of stored states (Laarman, van de Pol and Weber,
//! *Parallel recursive state compression for free*, SPIN 2011).
//!
//! A state of `w` words is stored as a binary tree of hash-consed nodes:
//! each word is a leaf node, each pair of node ids (two 32-bit ids in one
//! 64-bit value) an inner node, and equal values get equal ids
//! ([`Nodes::cons`]). The two ids at the top form the state's *root*, one
//! 64-bit word that the visited set stores in place of the state. States
//! that share parts share their subtrees, so a new state usually adds a
//! few nodes along the paths from its changed words to the root, and
//! costs its root plus those nodes instead of its `8 w` bytes.
//!
//! Compression is incremental ([`Compressor`]): the tree of the state
//! being expanded is kept, and a successor re-conses only the nodes above
//! the words it changes (about `log2 w` lookups for a one-word change
//! instead of `w - 1`).
//!
//! Levels: level 0 holds one id per word; level `j + 1` pairs the ids of
//! level `j` two by two, an odd last id carried up unchanged; the top
//! level has two ids. A one-word state is its own root (no nodes).

pub(crate) mod local;
pub(crate) mod shared;

/// Read access to a store of node values.
pub(crate) trait NodeValues {
    /// The value of node `id`.
    fn value(&self, id: u32) -> u64;
}

/// A store of hash-consed 64-bit node values.
pub(crate) trait Nodes: NodeValues {
    /// Why a node could not be added.
    type Error;
    /// The id of `value`, added if no equal value is stored.
    fn cons(&mut self, value: u64) -> Result<u32, Self::Error>;
}

/// The value of the inner node over ids `left` and `right`.
#[inline(always)]
fn pair(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

/// The two ids of an inner node's value.
#[inline(always)]
fn split(value: u64) -> (u32, u32) {
    ((value >> 32) as u32, value as u32)
}

/// The levels of the trees of states of one width.
#[derive(Clone, Debug)]
struct Shape {
    width: usize,
    /// `(start, len)` of each level in a flat array of ids, level 0 first.
    levels: Vec<(usize, usize)>,
    /// Ids of all levels.
    total: usize,
}

impl Shape {
    fn new(width: usize) -> Self {
        let mut levels = Vec::new();
        let mut total = 0;
        if width >= 2 {
            let mut len = width;
            loop {
                levels.push((total, len));
                total += len;
                if len == 2 {
                    break;
                }
                len = len.div_ceil(2);
            }
        }
        Shape {
            width,
            levels,
            total,
        }
    }

    /// Writes into `out` (`width` words) the state of `root`, and its ids
    /// into `ids` (`total` long) if given.
    fn expand<N: NodeValues + ?Sized>(
        &self,
        nodes: &N,
        root: u64,
        out: &mut [u64],
        mut ids: Option<&mut [u32]>,
    ) {
        debug_assert_eq!(out.len(), self.width);
        let Some(&(top, _)) = self.levels.last() else {
            // One word is its own root; no word, nothing to fill.
            if let Some(word) = out.first_mut() {
                *word = root;
            }
            return;
        };
        let (left, right) = split(root);
        let top_level = self.levels.len() - 1;
        for (i, id) in [left, right].into_iter().enumerate() {
            if let Some(ids) = ids.as_deref_mut() {
                ids[top + i] = id;
            }
            self.fill(nodes, top_level, i, id, out, &mut ids);
        }
    }

    /// Fills the words under entry `i` of level `level`, whose id is `id`.
    fn fill<N: NodeValues + ?Sized>(
        &self,
        nodes: &N,
        level: usize,
        i: usize,
        id: u32,
        out: &mut [u64],
        ids: &mut Option<&mut [u32]>,
    ) {
        if level == 0 {
            out[i] = nodes.value(id);
            return;
        }
        let (below, below_len) = self.levels[level - 1];
        let c = 2 * i;
        if c + 1 < below_len {
            let (left, right) = split(nodes.value(id));
            for (k, child) in [left, right].into_iter().enumerate() {
                if let Some(ids) = ids.as_deref_mut() {
                    ids[below + c + k] = child;
                }
                self.fill(nodes, level - 1, c + k, child, out, ids);
            }
        } else {
            if let Some(ids) = ids.as_deref_mut() {
                ids[below + c] = id;
            }
            self.fill(nodes, level - 1, c, id, out, ids);
        }
    }
}

/// One worker's tree compressor: the tree of the state whose successors
/// it is compressing (the *base*), and scratch space. See the module docs.
#[derive(Clone)]
pub(crate) struct Compressor {
    shape: Shape,
    /// The caller's name for the base state (a parent reference), if any.
    base: Option<u64>,
    words: Vec<u64>,
    ids: Vec<u32>,
    /// Ids of the state being compressed, where they differ from `ids`.
    next: Vec<u32>,
    /// Scratch lists of changed entries of two adjacent levels.
    dirty: Vec<usize>,
    dirty_above: Vec<usize>,
}

impl Compressor {
    /// A compressor for states of `width` words, with no base.
    pub(crate) fn new(width: usize) -> Self {
        let shape = Shape::new(width);
        let total = shape.total;
        Compressor {
            shape,
            base: None,
            words: vec![0; width],
            ids: vec![0; total],
            next: vec![0; total],
            dirty: Vec::with_capacity(width),
            dirty_above: Vec::with_capacity(width),
        }
    }

    /// The name of the base state, if there is one.
    #[inline]
    pub(crate) fn base(&self) -> Option<u64> {
        self.base
    }

    /// Makes the state of `root` (named `name`) the base.
    pub(crate) fn set_base<N: NodeValues + ?Sized>(&mut self, nodes: &N, name: u64, root: u64) {
        self.shape
            .expand(nodes, root, &mut self.words, Some(&mut self.ids));
        self.base = Some(name);
    }

    /// The base state's words (meaningful while [`Compressor::base`] is
    /// some).
    pub(crate) fn base_state(&self) -> &[u64] {
        &self.words
    }

    /// Forgets the base: the next states are compressed from scratch.
    pub(crate) fn clear_base(&mut self) {
        self.base = None;
    }

    /// The root of `state`, consing the nodes that differ from the base's.
    pub(crate) fn root<N: Nodes + ?Sized>(
        &mut self,
        nodes: &mut N,
        state: &[u64],
    ) -> Result<u64, N::Error> {
        debug_assert_eq!(state.len(), self.shape.width);
        let levels = &self.shape.levels;
        let Some(&(top, _)) = levels.last() else {
            return Ok(state.first().copied().unwrap_or(0));
        };
        // `dirty`: the entries of the current level (in increasing order)
        // whose ids differ from the base's; their new ids are in `next`.
        let mut dirty = std::mem::take(&mut self.dirty);
        let mut dirty_above = std::mem::take(&mut self.dirty_above);
        dirty.clear();
        let have_base = self.base.is_some();
        for (i, (&word, &was)) in state.iter().zip(&self.words).enumerate() {
            if !have_base || word != was {
                self.next[i] = nodes.cons(word)?;
                dirty.push(i);
            }
        }
        for level in 1..levels.len() {
            let (below, below_len) = levels[level - 1];
            let at = levels[level].0;
            dirty_above.clear();
            let mut k = 0;
            while k < dirty.len() {
                // The first dirty entry of a pair (or a carried entry), and
                // whether its right sibling is dirty too.
                let c = dirty[k];
                let p = c / 2;
                let l = 2 * p;
                k += 1;
                let both = k < dirty.len() && dirty[k] / 2 == p;
                if both {
                    k += 1;
                }
                self.next[at + p] = if l + 1 == below_len {
                    self.next[below + l]
                } else {
                    let left = if c == l {
                        self.next[below + l]
                    } else {
                        self.ids[below + l]
                    };
                    let right = if c == l + 1 || both {
                        self.next[below + l + 1]
                    } else {
                        self.ids[below + l + 1]
                    };
                    nodes.cons(pair(left, right))?
                };
                dirty_above.push(p);
            }
            std::mem::swap(&mut dirty, &mut dirty_above);
        }
        let id = |i: usize| {
            if dirty.contains(&i) {
                self.next[top + i]
            } else {
                self.ids[top + i]
            }
        };
        let root = pair(id(0), id(1));
        self.dirty = dirty;
        self.dirty_above = dirty_above;
        Ok(root)
    }
}

/// Writes the state of `root` (of `out.len()` words) into `out`.
pub(crate) fn expand<N: NodeValues + ?Sized>(nodes: &N, root: u64, out: &mut [u64]) {
    Shape::new(out.len()).expand(nodes, root, out, None);
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Nodes in a plain map, for testing the shape and the compressor.
    #[derive(Default)]
    struct MapNodes {
        ids: HashMap<u64, u32>,
        values: Vec<u64>,
    }

    impl NodeValues for MapNodes {
        fn value(&self, id: u32) -> u64 {
            self.values[id as usize]
        }
    }

    impl Nodes for MapNodes {
        type Error = ();
        fn cons(&mut self, value: u64) -> Result<u32, ()> {
            let next = self.values.len() as u32;
            let id = *self.ids.entry(value).or_insert(next);
            if id == next {
                self.values.push(value);
            }
            Ok(id)
        }
    }

    #[test]
    fn levels_pair_ids_and_carry_the_odd_one() {
        assert!(Shape::new(1).levels.is_empty());
        assert_eq!(Shape::new(2).levels, vec![(0, 2)]);
        assert_eq!(Shape::new(3).levels, vec![(0, 3), (3, 2)]);
        assert_eq!(Shape::new(5).levels, vec![(0, 5), (5, 3), (8, 2)]);
        assert_eq!(Shape::new(8).levels, vec![(0, 8), (8, 4), (12, 2)]);
    }

    proptest! {
        /// Every state reads back from its root; equal states get equal
        /// roots and different states different roots, whatever the base.
        #[test]
        fn roots_identify_states(width in 1usize..=9,
                                 states in proptest::collection::vec(
                                     proptest::collection::vec(0u64..4, 9), 1..40),
                                 bases in proptest::collection::vec(any::<bool>(), 40)) {
            let mut nodes = MapNodes::default();
            let mut c = Compressor::new(width);
            let mut roots: HashMap<u64, Vec<u64>> = HashMap::new();
            let mut prev: Option<u64> = None;
            for (k, state) in states.iter().enumerate() {
                let state = &state[..width];
                match prev {
                    Some(root) if bases[k] => c.set_base(&nodes, k as u64, root),
                    _ => c.clear_base(),
                }
                let root = c.root(&mut nodes, state).unwrap();
                let mut back = vec![0; width];
                expand(&nodes, root, &mut back);
                prop_assert_eq!(&back, state);
                if let Some(seen) = roots.insert(root, state.to_vec()) {
                    prop_assert_eq!(seen, state.to_vec());
                }
                prev = Some(root);
            }
            let distinct: std::collections::HashSet<_> =
                states.iter().map(|s| s[..width].to_vec()).collect();
            prop_assert_eq!(roots.len(), distinct.len());
        }
    }

    #[test]
    fn a_one_word_change_conses_one_path() {
        let mut nodes = MapNodes::default();
        let mut c = Compressor::new(8);
        let state: Vec<u64> = (0..8).map(|i| 100 + i).collect();
        let root = c.root(&mut nodes, &state).unwrap();
        // 8 leaves, 4 + 2 inner nodes below the root.
        assert_eq!(nodes.values.len(), 14);
        c.set_base(&nodes, 0, root);
        let mut next = state.clone();
        next[5] = 7;
        c.root(&mut nodes, &next).unwrap();
        // A new leaf and its two ancestors below the root.
        assert_eq!(nodes.values.len(), 17);
    }
}
