//! From an LTL formula to a generalised Büchi automaton: the tableau
//! construction of Gerth, Peled, Vardi and Wolper ("Simple on-the-fly
//! automatic verification of linear temporal logic", PSTV 1995).
//!
//! The formula is put in negation normal form; each node of the tableau
//! holds the subformulas that must hold now (`old`) and from the next
//! position on (`next`); nodes with the same `old` and `next` are merged.
//! A node's *label* is the literals of its `old`: a word position read in
//! that node must satisfy them. One acceptance set per `f U g` subformula:
//! the nodes where it is not pending (`f U g` not in `old`, or `g` in
//! `old`). A run is accepting when it visits every set infinitely often
//! (with no until, every node accepts).
//!
//! Letters are read *in* states: a run `q0 q1 ...` reads position `i` in
//! `q_i`, whose label position `i` must satisfy; `q0` is an initial node.

use super::formula::Ltl;
use std::collections::BTreeSet;

/// A literal of a node's label: atom `atom` holds (`positive`) or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Literal {
    /// The atom's index.
    pub atom: usize,
    /// Whether it must hold (else it must not).
    pub positive: bool,
}

/// A generalised Büchi automaton with labels on states.
#[derive(Clone, Debug)]
pub struct Buchi {
    /// The label of each state: literals the letter read there satisfies.
    pub labels: Vec<Vec<Literal>>,
    /// The successors of each state.
    pub successors: Vec<Vec<u32>>,
    /// The initial states.
    pub initial: Vec<u32>,
    /// Acceptance sets: `accepting[i]` is the bit mask (over sets) of the
    /// sets state `i` belongs to.
    pub accepting: Vec<u64>,
    /// Number of acceptance sets (at least 1).
    pub sets: usize,
}

/// Most acceptance sets (untils of the formula) handled: one bit each.
pub const MAX_SETS: usize = 64;

/// Most tableau nodes built before the translation gives up.
pub const MAX_NODES: usize = 100_000;

#[derive(Clone)]
struct Node {
    incoming: BTreeSet<usize>,
    new: BTreeSet<Ltl>,
    old: BTreeSet<Ltl>,
    next: BTreeSet<Ltl>,
}

/// The incoming mark of initial nodes.
const INIT: usize = usize::MAX;

impl Buchi {
    /// The automaton of `formula` (any form: it is put in negation normal
    /// form first). Errors if the formula has more than [`MAX_SETS`]
    /// untils or its tableau more than [`MAX_NODES`] nodes.
    pub fn of(formula: &Ltl) -> Result<Buchi, String> {
        let f = formula.nnf();
        let mut untils = Vec::new();
        collect_untils(&f, &mut untils);
        if untils.len() > MAX_SETS {
            return Err(format!(
                "not supported yet: LTL formulas with more than {MAX_SETS} until operators \
                 (F, U and W count)"
            ));
        }
        let mut nodes: Vec<Node> = Vec::new();
        let start = Node {
            incoming: BTreeSet::from([INIT]),
            new: BTreeSet::from([f]),
            old: BTreeSet::new(),
            next: BTreeSet::new(),
        };
        // An explicit stack instead of GPVW's recursion: each entry is a
        // node still to expand.
        let mut stack = vec![start];
        while let Some(mut node) = stack.pop() {
            if nodes.len() > MAX_NODES {
                return Err(format!(
                    "not supported yet: LTL formulas whose tableau has more than {MAX_NODES} nodes"
                ));
            }
            let Some(eta) = node.new.pop_first() else {
                match nodes
                    .iter_mut()
                    .find(|n| n.old == node.old && n.next == node.next)
                {
                    Some(same) => same.incoming.extend(node.incoming),
                    None => {
                        let id = nodes.len();
                        stack.push(Node {
                            incoming: BTreeSet::from([id]),
                            new: node.next.clone(),
                            old: BTreeSet::new(),
                            next: BTreeSet::new(),
                        });
                        nodes.push(node);
                    }
                }
                continue;
            };
            match &eta {
                Ltl::False => {}
                Ltl::True => {
                    node.old.insert(eta);
                    stack.push(node);
                }
                Ltl::Atom(_) | Ltl::Not(_) => {
                    if !node.old.contains(&Ltl::negation(eta.clone()).nnf()) {
                        node.old.insert(eta);
                        stack.push(node);
                    }
                }
                Ltl::And(f, g) => {
                    for h in [f, g] {
                        if !node.old.contains(&**h) {
                            node.new.insert((**h).clone());
                        }
                    }
                    node.old.insert(eta);
                    stack.push(node);
                }
                Ltl::Next(f) => {
                    node.next.insert((**f).clone());
                    node.old.insert(eta);
                    stack.push(node);
                }
                Ltl::Or(f, g) | Ltl::Until(f, g) | Ltl::Release(f, g) => {
                    // Two nodes: new1 with `next1`, and new2.
                    let (new1, next1, new2): (Vec<&Ltl>, Option<Ltl>, Vec<&Ltl>) = match &eta {
                        Ltl::Or(..) => (vec![f], None, vec![g]),
                        Ltl::Until(..) => (vec![f], Some(eta.clone()), vec![g]),
                        _ => (vec![g], Some(eta.clone()), vec![f, g]),
                    };
                    let mut first = node.clone();
                    let mut second = node;
                    for h in new1 {
                        if !first.old.contains(h) {
                            first.new.insert(h.clone());
                        }
                    }
                    if let Some(n) = next1 {
                        first.next.insert(n);
                    }
                    for h in new2 {
                        if !second.old.contains(h) {
                            second.new.insert(h.clone());
                        }
                    }
                    first.old.insert(eta.clone());
                    second.old.insert(eta);
                    // Expanded in the order first, then second.
                    stack.push(second);
                    stack.push(first);
                }
            }
        }
        let labels = nodes
            .iter()
            .map(|n| {
                n.old
                    .iter()
                    .filter_map(|f| match f {
                        Ltl::Atom(a) => Some(Literal {
                            atom: *a,
                            positive: true,
                        }),
                        Ltl::Not(g) => match **g {
                            Ltl::Atom(a) => Some(Literal {
                                atom: a,
                                positive: false,
                            }),
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut successors = vec![Vec::new(); nodes.len()];
        let mut initial = Vec::new();
        for (id, n) in nodes.iter().enumerate() {
            for &from in &n.incoming {
                if from == INIT {
                    initial.push(id as u32);
                } else {
                    successors[from].push(id as u32);
                }
            }
        }
        let sets = untils.len().max(1);
        let accepting = nodes
            .iter()
            .map(|n| {
                if untils.is_empty() {
                    return 1;
                }
                let mut mask = 0u64;
                for (k, u) in untils.iter().enumerate() {
                    let Ltl::Until(_, g) = u else {
                        unreachable!("untils only")
                    };
                    if !n.old.contains(u) || n.old.contains(&**g) {
                        mask |= 1 << k;
                    }
                }
                mask
            })
            .collect();
        Ok(Buchi {
            labels,
            successors,
            initial,
            accepting,
            sets,
        }
        .merged())
    }

    /// The automaton with equivalent states merged: states with the same
    /// label, the same acceptance sets and the same successors accept the
    /// same runs from there on (they are bisimilar), so one of them stands
    /// for all; repeated until no two are alike. The tableau makes such
    /// twins often (the node that first meets `G p` and the one that keeps
    /// it), and every state saved is a copy of the model saved in the
    /// product.
    fn merged(mut self) -> Buchi {
        loop {
            let signature = |q: usize, successors: &[Vec<u32>]| {
                let mut next = successors[q].clone();
                next.sort_unstable();
                next.dedup();
                (self.labels[q].clone(), self.accepting[q], next)
            };
            let mut first_with: std::collections::HashMap<_, u32> =
                std::collections::HashMap::new();
            let mut rename: Vec<u32> = Vec::with_capacity(self.len());
            let mut kept: Vec<usize> = Vec::new();
            for q in 0..self.len() {
                let id = *first_with
                    .entry(signature(q, &self.successors))
                    .or_insert_with(|| {
                        kept.push(q);
                        kept.len() as u32 - 1
                    });
                rename.push(id);
            }
            if kept.len() == self.len() {
                return self;
            }
            let renamed = |qs: &[u32]| -> Vec<u32> {
                let mut out: Vec<u32> = qs.iter().map(|&q| rename[q as usize]).collect();
                out.sort_unstable();
                out.dedup();
                out
            };
            self = Buchi {
                labels: kept.iter().map(|&q| self.labels[q].clone()).collect(),
                successors: kept.iter().map(|&q| renamed(&self.successors[q])).collect(),
                initial: renamed(&self.initial),
                accepting: kept.iter().map(|&q| self.accepting[q]).collect(),
                sets: self.sets,
            };
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the automaton has no state (its language is empty).
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The mask of every acceptance set.
    pub fn all_sets(&self) -> u64 {
        if self.sets >= 64 {
            u64::MAX
        } else {
            (1 << self.sets) - 1
        }
    }

    /// Per state, whether an accepting cycle can pass through it: the
    /// state lies on a cycle of the automaton and the states of its
    /// strongly connected component meet every acceptance set. A cycle of
    /// the product stays inside one component of the automaton, so no
    /// accepting cycle of the product passes through a state whose entry
    /// here is false: a search needs only to reach such states.
    pub fn cycle_states(&self) -> Vec<bool> {
        let n = self.len();
        // reach[q][r]: r is reachable from q in one step or more (the
        // automata are small: a search from every state).
        let reach: Vec<Vec<bool>> = (0..n)
            .map(|q| {
                let mut seen = vec![false; n];
                let mut stack: Vec<u32> = self.successors[q].clone();
                while let Some(r) = stack.pop() {
                    if !std::mem::replace(&mut seen[r as usize], true) {
                        stack.extend(&self.successors[r as usize]);
                    }
                }
                seen
            })
            .collect();
        (0..n)
            .map(|q| {
                reach[q][q]
                    && (0..n)
                        .filter(|&r| reach[q][r] && reach[r][q])
                        .fold(0u64, |m, r| m | self.accepting[r])
                        & self.all_sets()
                        == self.all_sets()
            })
            .collect()
    }

    /// Whether the letter `letter` (bit `a` set when atom `a` holds)
    /// satisfies the label of state `q`.
    pub fn reads(&self, q: u32, letter: u64) -> bool {
        self.labels[q as usize]
            .iter()
            .all(|l| (letter >> l.atom & 1 == 1) == l.positive)
    }

    /// Whether the automaton accepts the ultimately periodic word
    /// `word[..cycle_start] · word[cycle_start..]^ω` (the tests' oracle):
    /// some run reading it visits every acceptance set infinitely often.
    pub fn accepts_lasso(&self, word: &[u64], cycle_start: usize) -> bool {
        let n = word.len();
        let q = self.len();
        let id = |pos: usize, state: u32| pos * q + state as usize;
        let next_pos = |pos: usize| if pos + 1 < n { pos + 1 } else { cycle_start };
        // The product of positions and states, restricted to reading runs.
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n * q];
        for pos in 0..n {
            for s in 0..q as u32 {
                if !self.reads(s, word[pos]) {
                    continue;
                }
                for &t in &self.successors[s as usize] {
                    succ[id(pos, s)].push(id(next_pos(pos), t));
                }
            }
        }
        let mut reach = vec![false; n * q];
        let mut stack: Vec<usize> = self
            .initial
            .iter()
            .filter(|&&s| self.reads(s, word[0]))
            .map(|&s| id(0, s))
            .collect();
        for &v in &stack {
            reach[v] = true;
        }
        while let Some(v) = stack.pop() {
            for &w in &succ[v] {
                if !reach[w] {
                    reach[w] = true;
                    stack.push(w);
                }
            }
        }
        // An accepting cycle: an SCC among reachable vertices (found by
        // mutual reachability, the oracle being small) covering all sets.
        let reaches_from = |v: usize| {
            let mut seen = vec![false; n * q];
            let mut stack = vec![v];
            while let Some(x) = stack.pop() {
                for &w in &succ[x] {
                    if !seen[w] {
                        seen[w] = true;
                        stack.push(w);
                    }
                }
            }
            seen
        };
        let from: Vec<Vec<bool>> = (0..n * q).map(reaches_from).collect();
        (0..n * q).filter(|&v| reach[v] && from[v][v]).any(|v| {
            let mask = (0..n * q)
                .filter(|&w| from[v][w] && from[w][v])
                .fold(0u64, |m, w| m | self.accepting[w % q]);
            mask & self.all_sets() == self.all_sets()
        })
    }
}

fn collect_untils(f: &Ltl, out: &mut Vec<Ltl>) {
    match f {
        Ltl::True | Ltl::False | Ltl::Atom(_) => {}
        Ltl::Not(g) | Ltl::Next(g) => collect_untils(g, out),
        Ltl::And(g, h) | Ltl::Or(g, h) | Ltl::Release(g, h) => {
            collect_untils(g, out);
            collect_untils(h, out);
        }
        Ltl::Until(g, h) => {
            if !out.contains(f) {
                out.push(f.clone());
            }
            collect_untils(g, out);
            collect_untils(h, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::formula::parse;
    use super::*;

    /// A deterministic generator of formulas over `atoms` atoms.
    fn random_formula(seed: &mut u64, depth: u32, atoms: usize) -> Ltl {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = (*seed >> 33) as usize;
        let b = Box::new;
        if depth == 0 {
            return match r % 6 {
                0 => Ltl::True,
                1 => Ltl::False,
                k => Ltl::Atom(k % atoms),
            };
        }
        let sub = |s: &mut u64| random_formula(s, depth - 1, atoms);
        match r % 9 {
            0 => Ltl::negation(sub(seed)),
            1 => Ltl::And(b(sub(seed)), b(sub(seed))),
            2 => Ltl::Or(b(sub(seed)), b(sub(seed))),
            3 => Ltl::Next(b(sub(seed))),
            4 => Ltl::Until(b(sub(seed)), b(sub(seed))),
            5 => Ltl::Release(b(sub(seed)), b(sub(seed))),
            6 => Ltl::eventually(sub(seed)),
            7 => Ltl::always(sub(seed)),
            _ => Ltl::Atom(r % atoms),
        }
    }

    #[test]
    fn cycle_states_are_those_on_accepting_components() {
        // The automaton of `not G F p`, i.e. `F G !p`: a waiting state
        // (no accepting cycle) and the state looping on `!p`.
        let p = || Ltl::Atom(0);
        let b = Buchi::of(&Ltl::negation(Ltl::always(Ltl::eventually(p())))).unwrap();
        let cycles = b.cycle_states();
        assert!(cycles.iter().any(|&c| c) && cycles.iter().any(|&c| !c));
        for (q, &cycle) in cycles.iter().enumerate() {
            assert_eq!(cycle, b.accepting[q] != 0, "state {q}");
        }
        // `G p` holds on one accepting state that loops: every state.
        let b = Buchi::of(&Ltl::always(p())).unwrap();
        assert!(b.cycle_states().iter().all(|&c| c));
        // No initial state of `X X p` lies on a cycle.
        let b = Buchi::of(&Ltl::Next(Box::new(Ltl::Next(Box::new(p()))))).unwrap();
        let cycles = b.cycle_states();
        for &q in &b.initial {
            assert!(!cycles[q as usize]);
        }
    }

    /// The automaton accepts exactly the lassos the formula holds on: every
    /// word of up to 4 letters over 2 atoms with every loop start, for
    /// random formulas.
    #[test]
    fn the_automaton_accepts_the_lassos_the_formula_holds_on() {
        let mut seed = 7;
        for _ in 0..300 {
            let f = random_formula(&mut seed, 3, 2);
            let a = Buchi::of(&f).unwrap();
            for len in 1..=4usize {
                for bits in 0..(1u64 << (2 * len)) {
                    let word: Vec<u64> = (0..len).map(|i| bits >> (2 * i) & 3).collect();
                    for start in 0..len {
                        assert_eq!(
                            a.accepts_lasso(&word, start),
                            f.holds_on_lasso(&word, start, 0),
                            "{f:?} on {word:?} looping at {start}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn small_formulas_give_small_automata() {
        let a = Buchi::of(&Ltl::negation(parse("G F {p}").unwrap().formula)).unwrap();
        assert_eq!(
            a.len(),
            2,
            "F G not p: a state waiting, a state where p fails forever"
        );
        let a = Buchi::of(&parse("G {p}").unwrap().formula).unwrap();
        assert_eq!(a.len(), 1);
        let a = Buchi::of(&parse("false").unwrap().formula).unwrap();
        assert!(a.initial.is_empty());
    }
}
