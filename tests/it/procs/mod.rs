//! A second, tiny front end written for the tests: *procs*, a language of
//! `n` symmetric processes, compiled straight to the model interface
//! (`orbit::model`). It proves that the layers need nothing from B: the
//! same symmetry and partial order reduction run on it through
//! [`Model`], [`StateSymmetry`] and [`Independence::from_access`] alone.
//!
//! A model has `n` processes with a counter `c[i]` in `0..k`, a lock
//! `owner` (none or a process) and a shared `total` in `0..=t`. Per
//! process `i` three groups (`step(i)`, `acquire(i)`, `release(i)`):
//!
//! ```text
//! step(i):    c[i] < k - 1                 -> c[i] := c[i] + 1
//! acquire(i): owner = none & c[i] = k - 1  -> owner := i
//! release(i): owner = i & total < t        -> owner := none; c[i] := 0; total := total + 1
//! ```
//!
//! Once `total = t` the owner keeps the lock and the others wait: a
//! deadlock. The invariant, when there is one, is `total <= bad` or "at
//! most `bad` counters are at `k - 1`". Processes are interchangeable.

pub mod front_end;

use orbit::model::{
    GroupInfo, GroupSet, INITIAL_GROUP, Independence, LivenessProperty, Model, ModelError,
    Permutable, Permutation, Relations, SlotInfo, StateGraph, StatePredicate, StateSymmetry, Step,
    Violation, ViolationKind,
};

/// The invariant of a procs model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invariant {
    /// No invariant.
    None,
    /// `total <= bad`.
    TotalAtMost(u64),
    /// At most `bad` counters are at their maximum.
    FullAtMost(u64),
}

/// A liveness property of a procs model (AG EF of the predicate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Live {
    /// `owner = none` (invariant under renaming the processes).
    Free,
    /// `total >= v` (invariant too).
    TotalAtLeast(u64),
    /// `total = v` (invariant).
    TotalIs(u64),
    /// `c[i] = v`: names process `i`, so symmetry reduction refuses it.
    CounterAt(usize, u64),
}

/// A procs model.
#[derive(Clone, Debug)]
pub struct Procs {
    pub n: usize,
    pub k: u64,
    pub t: u64,
    pub invariant: Invariant,
    /// The liveness properties.
    pub liveness: Vec<Live>,
    /// Whether the owner may release once `total = t` too (`total` then
    /// stays at `t`): the graph has cycles and no deadlock.
    pub cyclic: bool,
    groups: Vec<GroupInfo>,
    domains: Permutable,
}

const NONE: u64 = u64::MAX;

struct ProcStep {
    group: usize,
    name: &'static str,
    process: usize,
}

impl Step for ProcStep {
    fn group(&self) -> usize {
        self.group
    }

    fn label(&self) -> String {
        if self.group == INITIAL_GROUP {
            "init".into()
        } else {
            format!("{}({})", self.name, self.process)
        }
    }
}

impl Procs {
    /// The model with `n` processes, counters below `k`, `t` releases.
    pub fn new(n: usize, k: u64, t: u64, invariant: Invariant) -> Procs {
        let (owner, total) = (n, n + 1);
        let mut groups = Vec::new();
        for i in 0..n {
            groups.push(GroupInfo {
                name: format!("step({i})"),
                guard_reads: vec![i],
                action_reads: vec![i],
                writes: vec![i],
            });
            groups.push(GroupInfo {
                name: format!("acquire({i})"),
                guard_reads: vec![owner, i],
                action_reads: vec![],
                writes: vec![owner],
            });
            groups.push(GroupInfo {
                name: format!("release({i})"),
                guard_reads: vec![owner, total],
                action_reads: vec![total],
                writes: vec![owner, i, total],
            });
        }
        Procs {
            n,
            k,
            t,
            invariant,
            liveness: Vec::new(),
            cyclic: false,
            groups,
            domains: Permutable {
                movable: vec![if n >= 2 {
                    (0..n as u32).collect()
                } else {
                    vec![]
                }],
                set_sizes: vec![n],
            },
        }
    }

    /// The slots the invariant reads.
    pub fn invariant_slots(&self) -> Vec<usize> {
        match self.invariant {
            Invariant::None => vec![],
            Invariant::TotalAtMost(_) => vec![self.n + 1],
            Invariant::FullAtMost(_) => (0..self.n).collect(),
        }
    }

    /// The independence relations from the read/write matrix alone
    /// (LTSmin's default), for a search that checks the invariant
    /// (`checks_invariant`) or only deadlocks. Every acquire may enable
    /// every other group through `owner`, so this reduces little.
    pub fn access_independence(&self, checks_invariant: bool) -> Independence {
        Independence::from_access(&self.groups, &self.visible_slots(checks_invariant))
    }

    fn visible_slots(&self, checks_invariant: bool) -> Vec<usize> {
        if checks_invariant {
            self.invariant_slots()
        } else {
            vec![]
        }
    }

    /// The front end's sharper relations, from what it knows of the
    /// guards: `step(i)`, `acquire(i)` and `release(i)` are never enabled
    /// together (they need `c[i] < k - 1`, `c[i] = k - 1` and no owner, and
    /// `owner = i`), nor are two releases or a release and an acquire; the
    /// only dependent pairs are two acquires (each disables the other).
    /// `step(i)` may enable `acquire(i)`, `acquire(i)` only `release(i)`,
    /// `release(i)` every acquire and `step(i)`. All of it is invariant
    /// under renaming the processes, as symmetry needs.
    pub fn independence(&self, checks_invariant: bool) -> Independence {
        let n = self.groups.len();
        let (kind, proc_) = (|g: usize| g % 3, |g: usize| g / 3);
        let (step, acquire, release) = (0, 1, 2);
        let visible = self.visible_slots(checks_invariant);
        let groups = Relations::new(
            n,
            |a, b| kind(a) == acquire && kind(b) == acquire,
            |a, b| match (kind(a), kind(b)) {
                (x, y) if x == step && y == acquire => proc_(a) == proc_(b),
                (x, y) if x == acquire && y == release => proc_(a) == proc_(b),
                (x, y) if x == release && y == acquire => true,
                (x, y) if x == release && y == step => proc_(a) == proc_(b),
                _ => false,
            },
            GroupSet::of(
                n,
                (0..n).filter(|&g| self.groups[g].writes.iter().any(|s| visible.contains(s))),
            ),
        );
        Independence {
            groups,
            instances: None,
            proviso: !visible.is_empty(),
        }
    }

    /// Whether liveness property `live` holds in `s`.
    pub fn live_holds(&self, live: Live, s: &[u64]) -> bool {
        match live {
            Live::Free => s[self.n] == NONE,
            Live::TotalAtLeast(v) => s[self.n + 1] >= v,
            Live::TotalIs(v) => s[self.n + 1] == v,
            Live::CounterAt(i, v) => s[i] == v,
        }
    }

    /// Whether the invariant holds in `s`.
    pub fn invariant_holds(&self, s: &[u64]) -> bool {
        match self.invariant {
            Invariant::None => true,
            Invariant::TotalAtMost(bad) => s[self.n + 1] <= bad,
            Invariant::FullAtMost(bad) => {
                s[..self.n].iter().filter(|&&c| c == self.k - 1).count() as u64 <= bad
            }
        }
    }

    /// Every successor of `s` with its group, in a fixed order.
    pub fn next(&self, s: &[u64], f: &mut dyn FnMut(usize, &[u64])) {
        let (owner, total) = (self.n, self.n + 1);
        let mut out = s.to_vec();
        for i in 0..self.n {
            if s[i] + 1 < self.k {
                out[i] += 1;
                f(3 * i, &out);
                out[i] -= 1;
            }
            if s[owner] == NONE && s[i] == self.k - 1 {
                out[owner] = i as u64;
                f(3 * i + 1, &out);
                out[owner] = NONE;
            }
            if s[owner] == i as u64 && (s[total] < self.t || self.cyclic) {
                let (c, o, t) = (out[i], out[owner], out[total]);
                out[owner] = NONE;
                out[i] = 0;
                out[total] = (out[total] + 1).min(self.t);
                f(3 * i + 2, &out);
                (out[i], out[owner], out[total]) = (c, o, t);
            }
        }
    }

    /// The initial state.
    pub fn initial(&self) -> Vec<u64> {
        let mut s = vec![0; self.n + 2];
        s[self.n] = NONE;
        s
    }
}

impl Model for Procs {
    type Scratch = ();

    fn new_scratch(&self) {}

    fn state_width(&self) -> usize {
        self.n + 2
    }

    fn slots(&self) -> Vec<SlotInfo> {
        let mut names: Vec<String> = (0..self.n).map(|i| format!("c[{i}]")).collect();
        names.push("owner".into());
        names.push("total".into());
        names
            .into_iter()
            .enumerate()
            .map(|(offset, name)| SlotInfo {
                name,
                offset,
                words: 1,
            })
            .collect()
    }

    fn groups(&self) -> &[GroupInfo] {
        &self.groups
    }

    fn initial_states(
        &self,
        _: &mut (),
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        let step = ProcStep {
            group: INITIAL_GROUP,
            name: "init",
            process: 0,
        };
        emit(&step, &self.initial());
        Ok(())
    }

    fn successors(
        &self,
        _: &mut (),
        state: &[u64],
        emit: &mut dyn FnMut(&dyn Step, &[u64]),
    ) -> Result<(), ModelError> {
        self.next(state, &mut |group, s| {
            let step = ProcStep {
                group,
                name: ["step", "acquire", "release"][group % 3],
                process: group / 3,
            };
            emit(&step, s)
        });
        Ok(())
    }

    fn check_state(&self, _: &mut (), state: &[u64]) -> Result<Option<Violation>, ModelError> {
        Ok((!self.invariant_holds(state)).then(|| Violation {
            kind: ViolationKind::Invariant,
            message: format!("{:?}", self.invariant),
        }))
    }

    fn liveness_properties(&self) -> Vec<LivenessProperty> {
        self.liveness
            .iter()
            .map(|&live| LivenessProperty {
                name: format!("{live:?}"),
                place: "procs".into(),
                names_element_of: matches!(live, Live::CounterAt(..)).then(|| "process".into()),
            })
            .collect()
    }

    /// Predicates for LTL atoms: `free` (no owner), `total>=V`, `cI=V`
    /// (counter of process `I`).
    fn state_predicate(&self, text: &str) -> Result<StatePredicate<'_, ()>, String> {
        let n = self.n;
        let number = |t: &str| t.parse::<u64>().map_err(|_| format!("not a number: {t}"));
        if text == "free" {
            return Ok(Box::new(move |_: &mut (), s: &[u64]| Ok(s[n] == NONE)));
        }
        if let Some(v) = text.strip_prefix("total>=") {
            let v = number(v)?;
            return Ok(Box::new(move |_: &mut (), s: &[u64]| Ok(s[n + 1] >= v)));
        }
        if let Some((i, v)) = text.strip_prefix('c').and_then(|t| t.split_once('=')) {
            let (i, v) = (number(i)? as usize, number(v)?);
            if i >= n {
                return Err(format!("no process {i}"));
            }
            return Ok(Box::new(move |_: &mut (), s: &[u64]| Ok(s[i] == v)));
        }
        Err(format!("unknown predicate {text}"))
    }

    fn predicate_reads(&self, text: &str) -> Option<Vec<usize>> {
        let n = self.n;
        if text == "free" {
            return Some(vec![n]);
        }
        if text.starts_with("total>=") {
            return Some(vec![n + 1]);
        }
        let i = text.strip_prefix('c')?.split_once('=')?.0.parse().ok()?;
        Some(vec![i])
    }

    fn liveness_image(&self, index: usize, perm: &Permutation) -> Option<usize> {
        match self.liveness[index] {
            Live::CounterAt(i, v) => {
                let image = Live::CounterAt(perm.image(0, i as u32) as usize, v);
                self.liveness.iter().position(|&l| l == image)
            }
            _ => Some(index),
        }
    }

    fn liveness_holds(&self, _: &mut (), state: &[u64], index: usize) -> Result<bool, ModelError> {
        Ok(self.live_holds(self.liveness[index], state))
    }

    fn describe_state(&self, state: &[u64]) -> Vec<(String, String)> {
        self.slots()
            .into_iter()
            .zip(state)
            .map(|(slot, v)| (slot.name, v.to_string()))
            .collect()
    }
}

/// Vertex colours of the procs graph (above the atoms').
const VALUE: u32 = StateGraph::FIRST_FREE_COLOUR;
const OWNER: u32 = StateGraph::FIRST_FREE_COLOUR + 0x1000;
const NO_OWNER: u32 = OWNER + 1;

impl StateSymmetry for Procs {
    type Scratch = Vec<Option<u32>>;

    fn new_scratch(&self) -> Vec<Option<u32>> {
        Vec::new()
    }

    fn domains(&self) -> &Permutable {
        &self.domains
    }

    /// Process atom `i` -> the vertex of its counter's value (one per
    /// distinct value, coloured by it); the owner slot -> the owner's atom.
    /// `total` is the same in every permutation and left out.
    fn describe(&self, state: &[u64], values: &mut Vec<Option<u32>>, g: &mut StateGraph) -> bool {
        if self.n < 2 {
            return false;
        }
        values.clear();
        values.resize(self.k as usize, None);
        for (i, &c) in state[..self.n].iter().enumerate() {
            let a = g.atom(i as u32);
            let c = c as usize;
            let v = *values[c].get_or_insert_with(|| g.add_vertex(VALUE + c as u32));
            g.add_edge(a, v, 0);
        }
        match state[self.n] {
            NONE => {
                g.add_vertex(NO_OWNER);
            }
            o => {
                let slot = g.add_vertex(OWNER);
                g.add_edge(slot, o as u32, 1);
            }
        }
        g.touched()
    }

    fn permute(
        &self,
        p: &Permutation,
        state: &[u64],
        _: &mut Vec<Option<u32>>,
        out: &mut Vec<u64>,
    ) -> bool {
        out.clear();
        out.resize(state.len(), 0);
        for (i, &c) in state[..self.n].iter().enumerate() {
            out[p.image(0, i as u32) as usize] = c;
        }
        out[self.n] = match state[self.n] {
            NONE => NONE,
            o => u64::from(p.image(0, o as u32)),
        };
        out[self.n + 1] = state[self.n + 1];
        true
    }
}
