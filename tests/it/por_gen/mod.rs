//! A seeded generator of small random B machines for the partial order
//! reduction differential tests (`tests/por_differential.rs`).
//!
//! A machine has 3-6 variables, each a small integer range `0..k` or BOOL,
//! and 2-7 operations. Each operation has a guard reading a random subset of
//! the variables (sometimes also a parameter `p : 0..k`), and parallel
//! assignments writing another random subset (constants, copies, modular
//! shifts, saturating increments, boolean tests), so pairs of operations
//! are by turns independent, racing on a variable, or enabling/disabling
//! each other. Half of the machines are built as processes with mostly
//! private variables. Some machines get an extra invariant conjunct
//! `not(x = a & y = b)` that may fail, some start from several initial
//! states, restrictive guards make some of them deadlock, and variables the
//! invariant does not type (their type is inferred from the initialisation)
//! make operations invisible to it.
//!
//! Every expression stays inside its variable's range (integer updates are
//! taken modulo the range or guarded by `v < max`), so the typing conjuncts
//! of the invariant always hold and only the extra conjunct can fail. The
//! machine is kept as data ([`Machine`]) as well as printed as B text
//! ([`Machine::to_b`]) so that the independent explorer of [`oracle`] can
//! compute the expected verdicts.

pub mod oracle;

use std::fmt::Write;

/// SplitMix64: a tiny, seedable pseudo-random generator (no dependency).
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// A random subset of `0..n` with at least `min` and at most `max` elements.
    pub fn subset(&mut self, n: usize, min: usize, max: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            items.swap(i, self.range(0, i as i64) as usize);
        }
        let size = self.range(min as i64, max.min(n) as i64) as usize;
        items.truncate(size);
        items.sort_unstable();
        items
    }
}

/// A variable's type: `0..max` or BOOL (FALSE = 0, TRUE = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Integers `0..max`.
    Int(i64),
    /// BOOL.
    Bool,
}

impl Kind {
    /// The largest value (as a number).
    pub fn max(self) -> i64 {
        match self {
            Kind::Int(m) => m,
            Kind::Bool => 1,
        }
    }

    /// A value printed in B.
    pub fn show(self, v: i64) -> String {
        match self {
            Kind::Int(_) => v.to_string(),
            Kind::Bool if v != 0 => "TRUE".to_string(),
            Kind::Bool => "FALSE".to_string(),
        }
    }
}

/// Something a guard compares or an action assigns from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// A literal of the target's kind.
    Const(i64),
    /// The value of a variable of the same kind.
    Var(usize),
    /// The operation's parameter (integers only).
    Param,
}

/// A guard conjunct: `x = t`, `x /= t` or (integers) `x < t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `=`
    Eq,
    /// `/=`
    Ne,
    /// `<`
    Lt,
}

/// A guard conjunct `var cmp term`.
#[derive(Clone, Copy, Debug)]
pub struct Atom {
    /// The variable compared.
    pub var: usize,
    /// The comparison.
    pub cmp: Cmp,
    /// What it is compared with (same kind as `var`).
    pub rhs: Term,
}

/// The right-hand side of an assignment to a variable of kind `Kind`.
#[derive(Clone, Copy, Debug)]
pub enum Value {
    /// A term of the target's kind (a parameter only for integer targets
    /// whose range contains the parameter's).
    Term(Term),
    /// Integer target: `(y + c) mod (max + 1)` for an integer variable y.
    Shift(usize, i64),
    /// Boolean target: `bool(y = c)` for a variable y of any kind.
    Test(usize, i64),
    /// Integer target: `v + 1` (the operation's guard then has `v < max`).
    Inc,
}

/// One operation.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Name (`op0`, `op1`, ...).
    pub name: String,
    /// Range `0..k` of the parameter `p`, if any.
    pub param: Option<i64>,
    /// Guard conjuncts (an empty guard is written `1 = 1`).
    pub guard: Vec<Atom>,
    /// Parallel assignments, to distinct variables (empty: `skip`).
    pub assigns: Vec<(usize, Value)>,
}

/// A generated machine.
#[derive(Clone, Debug)]
pub struct Machine {
    /// The seed it was generated from.
    pub seed: u64,
    /// Variable kinds (names are `v0`, `v1`, ...).
    pub vars: Vec<Kind>,
    /// Initial value of each variable, or `None` for "any value of its type".
    pub init: Vec<Option<i64>>,
    /// Whether the invariant types the variable (`v : 0..k`); otherwise its
    /// type is inferred from the initialisation, and operations writing only
    /// such variables are invisible to the invariant (stutter events), so
    /// the reduced search with invariant checking has something to reduce.
    pub typed: Vec<bool>,
    /// The operations.
    pub ops: Vec<Operation>,
    /// An extra invariant conjunct `not(x = a & y = b)`, as [(x, a), (y, b)].
    pub forbidden: Option<[(usize, i64); 2]>,
}

impl Machine {
    /// The machine generated from `seed`.
    pub fn generate(seed: u64) -> Machine {
        let mut rng = Rng::new(seed);
        let nvars = rng.range(3, 6) as usize;
        let vars: Vec<Kind> = (0..nvars)
            .map(|_| {
                if rng.chance(35) {
                    Kind::Bool
                } else {
                    Kind::Int(rng.range(1, 4))
                }
            })
            .collect();
        let init = vars
            .iter()
            .map(|k| (!rng.chance(10)).then(|| rng.range(0, k.max())))
            .collect();
        let typed = vars.iter().map(|_| rng.chance(35)).collect();
        // Half of the machines are "processes": the variables are split into
        // 2-3 groups and each operation works on one group, reading another
        // variable only now and then, so many pairs of operations are
        // independent (what ample sets exploit).
        let groups = if rng.chance(50) { rng.range(2, 3) } else { 1 } as usize;
        let nops = rng.range(2, 7) as usize;
        let ops = (0..nops)
            .map(|i| {
                let group = rng.range(0, groups as i64 - 1) as usize;
                let pool: Vec<usize> = (0..nvars).filter(|v| v % groups == group).collect();
                Self::operation(&mut rng, &vars, &pool, i)
            })
            .collect();
        let forbidden = rng.chance(40).then(|| {
            let pair = rng.subset(nvars, 2, 2);
            [
                (pair[0], rng.range(0, vars[pair[0]].max())),
                (pair[1], rng.range(0, vars[pair[1]].max())),
            ]
        });
        Machine {
            seed,
            vars,
            init,
            typed,
            ops,
            forbidden,
        }
    }

    /// An operation reading and writing variables of `pool` (and, rarely,
    /// reading one more variable).
    fn operation(rng: &mut Rng, vars: &[Kind], pool: &[usize], index: usize) -> Operation {
        let param = rng.chance(25).then(|| rng.range(1, 2));
        let guarded = if rng.chance(30) { 0 } else { 2 };
        let mut read: Vec<usize> = rng
            .subset(pool.len(), 0, guarded)
            .into_iter()
            .map(|i| pool[i])
            .collect();
        if pool.len() < vars.len() && rng.chance(20) {
            read.push(rng.range(0, vars.len() as i64 - 1) as usize);
        }
        let guard = read
            .iter()
            .map(|&var| Self::atom(rng, vars, pool, var, param))
            .collect();
        let written: Vec<usize> = rng
            .subset(pool.len(), 1, 3)
            .into_iter()
            .map(|i| pool[i])
            .collect();
        let assigns: Vec<(usize, Value)> = written
            .iter()
            .map(|&var| (var, Self::value(rng, vars, pool, var, param)))
            .collect();
        // A saturating increment is guarded by `v < max`: it stays in range
        // and, unlike the modular one, makes the state graph acyclic there.
        let mut guard: Vec<Atom> = guard;
        for &(var, value) in &assigns {
            if let Value::Inc = value {
                guard.push(Atom {
                    var,
                    cmp: Cmp::Lt,
                    rhs: Term::Const(vars[var].max()),
                });
            }
        }
        Operation {
            name: format!("op{index}"),
            param,
            guard,
            assigns,
        }
    }

    /// A variable of `pool` of kind `kind` other than `not`, if there is one.
    fn other_var(
        rng: &mut Rng,
        vars: &[Kind],
        pool: &[usize],
        not: usize,
        kind: Option<Kind>,
    ) -> Option<usize> {
        let candidates: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&v| {
                v != not
                    && match kind {
                        Some(Kind::Bool) => vars[v] == Kind::Bool,
                        Some(Kind::Int(_)) => vars[v] != Kind::Bool,
                        None => true,
                    }
            })
            .collect();
        (!candidates.is_empty())
            .then(|| candidates[rng.range(0, candidates.len() as i64 - 1) as usize])
    }

    fn atom(rng: &mut Rng, vars: &[Kind], pool: &[usize], var: usize, param: Option<i64>) -> Atom {
        let kind = vars[var];
        let cmp = match (kind, rng.range(0, 3)) {
            (_, 0) => Cmp::Eq,
            (Kind::Int(_), 1 | 2) => Cmp::Lt,
            _ => Cmp::Ne,
        };
        let rhs = if param.is_some() && kind != Kind::Bool && rng.chance(30) {
            Term::Param
        } else if rng.chance(25) {
            match Self::other_var(rng, vars, pool, var, Some(kind)) {
                Some(v) => Term::Var(v),
                None => Term::Const(rng.range(0, kind.max())),
            }
        } else {
            Term::Const(rng.range(0, kind.max()))
        };
        // `x < 0` is never true: compare with something larger instead.
        let rhs = match (cmp, rhs) {
            (Cmp::Lt, Term::Const(0)) => Term::Const(kind.max()),
            _ => rhs,
        };
        Atom { var, cmp, rhs }
    }

    fn value(
        rng: &mut Rng,
        vars: &[Kind],
        pool: &[usize],
        var: usize,
        param: Option<i64>,
    ) -> Value {
        let kind = vars[var];
        match kind {
            Kind::Int(max) => match rng.range(0, 9) {
                0 | 1 if param.is_some_and(|p| p <= max) => Value::Term(Term::Param),
                2 | 3 => match Self::other_var(rng, vars, pool, usize::MAX, Some(kind)) {
                    Some(y) => Value::Shift(y, rng.range(0, 2)),
                    None => Value::Term(Term::Const(rng.range(0, max))),
                },
                4 | 5 => Value::Shift(var, 1),
                6 | 7 => Value::Inc,
                _ => Value::Term(Term::Const(rng.range(0, max))),
            },
            Kind::Bool => match rng.range(0, 3) {
                0 => match Self::other_var(rng, vars, pool, var, Some(Kind::Bool)) {
                    Some(y) => Value::Term(Term::Var(y)),
                    None => Value::Term(Term::Const(rng.range(0, 1))),
                },
                1 => {
                    let y = Self::other_var(rng, vars, pool, usize::MAX, None).unwrap_or(var);
                    Value::Test(y, rng.range(0, vars[y].max()))
                }
                2 => Value::Test(var, 0),
                _ => Value::Term(Term::Const(rng.range(0, 1))),
            },
        }
    }

    fn term(&self, kind: Kind, term: Term) -> String {
        match term {
            Term::Const(c) => kind.show(c),
            Term::Var(v) => format!("v{v}"),
            Term::Param => "p".to_string(),
        }
    }

    /// The machine as classical B text.
    pub fn to_b(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "/* generated by tests/por_gen, seed {} */", self.seed);
        let _ = writeln!(out, "MACHINE Gen{}", self.seed);
        let names: Vec<String> = (0..self.vars.len()).map(|v| format!("v{v}")).collect();
        let _ = writeln!(out, "VARIABLES {}", names.join(", "));
        let mut inv: Vec<String> = self
            .vars
            .iter()
            .enumerate()
            .filter(|&(v, _)| self.typed[v])
            .map(|(v, k)| match k {
                Kind::Int(m) => format!("v{v} : 0..{m}"),
                Kind::Bool => format!("v{v} : BOOL"),
            })
            .collect();
        if let Some([(x, a), (y, b)]) = self.forbidden {
            inv.push(format!(
                "not(v{x} = {} & v{y} = {})",
                self.vars[x].show(a),
                self.vars[y].show(b)
            ));
        }
        if inv.is_empty() {
            inv.push("TRUE = TRUE".to_string());
        }
        let _ = writeln!(out, "INVARIANT\n  {}", inv.join(" &\n  "));
        let init: Vec<String> = self
            .init
            .iter()
            .enumerate()
            .map(|(v, i)| match (i, self.vars[v]) {
                (Some(c), k) => format!("v{v} := {}", k.show(*c)),
                (None, Kind::Int(m)) => format!("v{v} :: 0..{m}"),
                (None, Kind::Bool) => format!("v{v} :: BOOL"),
            })
            .collect();
        let _ = writeln!(out, "INITIALISATION\n  {}", init.join(" ||\n  "));
        let _ = writeln!(out, "OPERATIONS");
        let ops: Vec<String> = self.ops.iter().map(|op| self.op_to_b(op)).collect();
        let _ = writeln!(out, "{}", ops.join(";\n"));
        let _ = writeln!(out, "END");
        out
    }

    fn op_to_b(&self, op: &Operation) -> String {
        let mut guard: Vec<String> = Vec::new();
        if let Some(k) = op.param {
            guard.push(format!("p : 0..{k}"));
        }
        for a in &op.guard {
            let kind = self.vars[a.var];
            let cmp = match a.cmp {
                Cmp::Eq => "=",
                Cmp::Ne => "/=",
                Cmp::Lt => "<",
            };
            guard.push(format!("v{} {cmp} {}", a.var, self.term(kind, a.rhs)));
        }
        if guard.is_empty() {
            guard.push("1 = 1".to_string());
        }
        let body = if op.assigns.is_empty() {
            "skip".to_string()
        } else {
            let parts: Vec<String> = op
                .assigns
                .iter()
                .map(|&(v, value)| {
                    let kind = self.vars[v];
                    let rhs = match value {
                        Value::Term(t) => self.term(kind, t),
                        Value::Shift(y, c) => format!("(v{y} + {c}) mod {}", kind.max() + 1),
                        Value::Test(y, c) => format!("bool(v{y} = {})", self.vars[y].show(c)),
                        Value::Inc => format!("v{v} + 1"),
                    };
                    format!("v{v} := {rhs}")
                })
                .collect();
            parts.join(" || ")
        };
        let head = match op.param {
            Some(_) => format!("{}(p)", op.name),
            None => op.name.clone(),
        };
        let keyword = if op.param.is_some() { "PRE" } else { "SELECT" };
        format!("  {head} = {keyword} {} THEN {body} END", guard.join(" & "))
    }
}
