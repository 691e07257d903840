//! What a front end knows about how its transition groups interact, for
//! partial order reduction: the dependency relation, the enable graph and
//! which groups are visible to the checked properties.
//!
//! [`Relations::from_access`] derives all three from the read/write
//! matrix of [`GroupInfo`] alone, as LTSmin does from its dependency
//! matrix: any front end gets a sound reduction for free. A front end that
//! knows more (B decides pairs of guards by enumeration, see
//! `crate::frontends::b::por`) builds sharper relations with [`Relations::new`].

use super::GroupInfo;

/// A set of transition groups (by index) as a bit set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupSet {
    pub(crate) words: Vec<u64>,
}

impl GroupSet {
    /// The empty set over `n` groups.
    pub fn empty(n: usize) -> Self {
        GroupSet {
            words: vec![0; n.div_ceil(64).max(1)],
        }
    }

    /// The set of the given groups, over `n` groups.
    pub fn of(n: usize, groups: impl IntoIterator<Item = usize>) -> Self {
        let mut s = GroupSet::empty(n);
        for g in groups {
            s.insert(g);
        }
        s
    }

    /// Empties the set.
    #[inline]
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// Adds `g`.
    #[inline]
    pub fn insert(&mut self, g: usize) {
        self.words[g / 64] |= 1 << (g % 64);
    }

    /// Whether `g` is in the set.
    #[inline]
    pub fn contains(&self, g: usize) -> bool {
        self.words[g / 64] >> (g % 64) & 1 == 1
    }

    /// Whether the sets share a group.
    #[inline]
    pub fn meets(&self, other: &GroupSet) -> bool {
        self.words.iter().zip(&other.words).any(|(a, b)| a & b != 0)
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// `self ∪= other`.
    #[inline]
    pub fn union_with(&mut self, other: &GroupSet) {
        self.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a |= b);
    }

    /// Number of groups in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The groups in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + bit
                })
            })
        })
    }

    /// Copies `other` into `self` (same size).
    #[inline]
    pub(crate) fn copy_from(&mut self, other: &GroupSet) {
        self.words.copy_from_slice(&other.words);
    }
}

/// The dependency relation, the enable graph and the visible groups over
/// `n` groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relations {
    pub(crate) n: usize,
    /// `dependent[a]`: the groups dependent on `a` (`a` included).
    pub(crate) dependent: Vec<GroupSet>,
    /// `enables[a]`: the groups `a` may enable (`a` excluded).
    pub(crate) enables: Vec<GroupSet>,
    /// Groups that may change a checked state label (stutter condition).
    pub(crate) visible: GroupSet,
    /// Per owner (a process), its groups, when the front end says which
    /// process each group belongs to ([`Relations::with_owners`]).
    pub(crate) owned: Option<Vec<GroupSet>>,
    /// Per group: its owner's index into `owned` (`u32::MAX`: none).
    pub(crate) owner: Vec<u32>,
}

impl Relations {
    /// The same relations, with the process each group belongs to
    /// (`None`: no process). A process's groups must all read and write
    /// its program counter, so that they depend on each other; the model
    /// reports per state which groups are at the current location of
    /// their process ([`super::Model::current_groups`]).
    pub fn with_owners(mut self, owners: &[Option<u32>]) -> Self {
        let count = owners
            .iter()
            .flatten()
            .map(|&o| o as usize + 1)
            .max()
            .unwrap_or(0);
        let mut owned = vec![GroupSet::empty(self.n); count];
        self.owner = vec![u32::MAX; self.n];
        for (g, o) in owners.iter().enumerate().take(self.n) {
            if let Some(o) = o {
                owned[*o as usize].insert(g);
                self.owner[g] = *o;
            }
        }
        self.owned = Some(owned);
        self
    }

    /// The relations over `n` groups: `dependent` (symmetric; any order of
    /// the pairs), `enables` (the edges of the enable graph: `a` may make
    /// `b` enabled) and the `visible` groups, those that may change a
    /// checked state label. Two groups must count as dependent when one
    /// can disable the other, or when their effects do not commute.
    pub fn new(
        n: usize,
        dependent: impl Fn(usize, usize) -> bool,
        enables: impl Fn(usize, usize) -> bool,
        visible: GroupSet,
    ) -> Self {
        let dependent = (0..n)
            .map(|a| {
                GroupSet::of(
                    n,
                    (0..n).filter(|&b| a == b || dependent(a, b) || dependent(b, a)),
                )
            })
            .collect();
        let enables = (0..n)
            .map(|a| GroupSet::of(n, (0..n).filter(|&b| a != b && enables(a, b))))
            .collect();
        Relations {
            n,
            dependent,
            enables,
            visible,
            owned: None,
            owner: Vec::new(),
        }
    }

    /// The relations the read/write matrix implies, as in LTSmin: `a` and
    /// `b` are dependent when one writes a slot the other reads or writes
    /// (disabling, and effects that do not commute, both need that); `a`
    /// may enable `b` when it writes a slot `b`'s guard reads; a group is
    /// visible when it writes one of `visible_slots` (the slots the checked
    /// labels read).
    pub fn from_access(groups: &[GroupInfo], visible_slots: &[usize]) -> Self {
        let touches = |a: &GroupInfo, b: &GroupInfo| {
            a.writes.iter().any(|s| {
                b.guard_reads.contains(s) || b.action_reads.contains(s) || b.writes.contains(s)
            })
        };
        let n = groups.len();
        Relations::new(
            n,
            |a, b| touches(&groups[a], &groups[b]) || touches(&groups[b], &groups[a]),
            |a, b| {
                groups[a]
                    .writes
                    .iter()
                    .any(|s| groups[b].guard_reads.contains(s))
            },
            GroupSet::of(
                n,
                (0..n).filter(|&g| groups[g].writes.iter().any(|s| visible_slots.contains(s))),
            ),
        )
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no groups.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Whether `a` and `b` are dependent (every group is dependent on
    /// itself).
    pub fn dependent(&self, a: usize, b: usize) -> bool {
        self.dependent[a].contains(b)
    }

    /// Whether `a` may enable `b`.
    pub fn enables(&self, a: usize, b: usize) -> bool {
        self.enables[a].contains(b)
    }

    /// Whether `g` may change a checked state label.
    pub fn visible(&self, g: usize) -> bool {
        self.visible.contains(g)
    }

    /// Whether some group is visible.
    pub fn any_visible(&self) -> bool {
        !self.visible.is_empty()
    }
}

/// A refinement of the groups into instances (operations with fixed
/// parameters), with relations of their own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instances {
    /// The group of each instance.
    pub group_of: Vec<usize>,
    /// The relations between instances.
    pub relations: Relations,
}

/// Everything partial order reduction needs from a front end.
///
/// # Contract
/// The relations over-approximate: two groups that can disable each other
/// or whose effects do not commute are dependent; an edge `a -> b` exists
/// whenever `a` can make `b` enabled; a group that can change a checked
/// label is visible. With symmetry, the group relations must also be
/// invariant under the permutations: a permutation maps the transitions of
/// a group `g` to those of a group `p(g)` with `dependent(p(a), p(b)) =
/// dependent(a, b)`, likewise for edges and visibility (B: `p(g) = g`, an
/// operation stays itself; a per-process group `step(i)` goes to
/// `step(p(i))`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Independence {
    /// The relations between groups.
    pub groups: Relations,
    /// The relations between instances, when the front end refines groups
    /// ([`super::Step::instance`]).
    pub instances: Option<Instances>,
    /// Whether the cycle proviso is needed: some state label is checked
    /// that a group may change. Without it (deadlock-only checking) an
    /// ample set needs only the conditions on one state.
    pub proviso: bool,
}

impl Independence {
    /// Group-level relations only, derived from the read/write matrix
    /// ([`Relations::from_access`]); `visible_slots` are the slots the
    /// checked labels read (empty for deadlock-only checking).
    pub fn from_access(groups: &[GroupInfo], visible_slots: &[usize]) -> Self {
        let groups = Relations::from_access(groups, visible_slots);
        let proviso = !visible_slots.is_empty();
        Independence {
            groups,
            instances: None,
            proviso,
        }
    }
}

impl Independence {
    /// The same relations with `visible` (a set over the groups) as the
    /// groups that may change a checked label, for labels other than the
    /// ones the front end decided them for (LTL atoms): an instance is
    /// visible when its group is, and the cycle proviso is on.
    pub fn with_visible_groups(&self, visible: &GroupSet) -> Independence {
        let mut out = self.clone();
        out.groups.visible = visible.clone();
        if let Some(inst) = &mut out.instances {
            let n = inst.group_of.len();
            inst.relations.visible =
                GroupSet::of(n, (0..n).filter(|&i| visible.contains(inst.group_of[i])));
        }
        out.proviso = true;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(name: &str, guard: &[usize], reads: &[usize], writes: &[usize]) -> GroupInfo {
        GroupInfo {
            name: name.into(),
            guard_reads: guard.to_vec(),
            action_reads: reads.to_vec(),
            writes: writes.to_vec(),
        }
    }

    #[test]
    fn the_read_write_matrix_gives_dependency_enabling_and_visibility() {
        let groups = [
            group("a", &[0], &[0], &[0]),
            group("b", &[1], &[1], &[1]),
            group("c", &[0, 1], &[], &[2]),
            group("d", &[2], &[], &[3]),
        ];
        let r = Relations::from_access(&groups, &[3]);
        assert!(!r.dependent(0, 1));
        assert!(r.dependent(0, 2) && r.dependent(2, 0), "a writes c's guard");
        assert!(r.dependent(2, 3) && !r.dependent(0, 3));
        assert!(r.enables(0, 2) && r.enables(2, 3) && !r.enables(3, 2));
        assert!(r.visible(3) && !r.visible(0) && r.any_visible());
        let none = Relations::from_access(&groups, &[]);
        assert!(!none.any_visible());
    }

    #[test]
    fn group_sets_beyond_one_word() {
        let mut s = GroupSet::empty(130);
        for g in [0, 63, 64, 129] {
            s.insert(g);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 129]);
        assert_eq!(s.len(), 4);
        assert!(s.contains(129) && !s.contains(128));
    }
}
