//! The engines' partial order reduction hook: ample expansions, the cycle
//! proviso in every engine configuration, and the counters.

use workers::{
    Config, Expansion, LabelledState, ModelError, Outcome, ParallelMode, SearchOrder,
    TransitionSystem, Violation, ViolationKind, explore,
};

/// Two processes: `x` counts modulo `n` forever (operation `a`, invisible)
/// and `y` goes from 0 to 1 once (operation `b`, visible: `y = 1` is the
/// error). `a` and `b` are independent, so `{a}` is a valid ample set in
/// every state where `a` is enabled, but its successors form a cycle that
/// ignores `b` unless the proviso breaks it.
struct Ignoring {
    n: u64,
    proviso: bool,
}

impl Ignoring {
    fn each(&self, s: &[u64], only_a: Option<bool>, mut f: impl FnMut(&str, [u64; 2])) {
        let (x, y) = (s[0], s[1]);
        if only_a != Some(false) {
            f("a", [(x + 1) % self.n, y]);
        }
        if only_a != Some(true) && y == 0 {
            f("b", [x, 1]);
        }
    }
}

impl TransitionSystem for Ignoring {
    type Scratch = ();
    fn new_scratch(&self) {}
    fn state_width(&self) -> usize {
        2
    }
    fn initial_states(&self, _: &mut (), emit: &mut dyn FnMut(&[u64])) -> Result<(), ModelError> {
        emit(&[0, 0]);
        Ok(())
    }
    fn successors(
        &self,
        _: &mut (),
        s: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.each(s, None, |_, t| emit(&t));
        Ok(())
    }
    fn reduces(&self) -> bool {
        true
    }
    fn reduced_successors(
        &self,
        _: &mut (),
        s: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<Expansion, ModelError> {
        self.each(s, Some(true), |_, t| emit(&t));
        Ok(if s[1] == 0 {
            Expansion::Ample {
                proviso: self.proviso,
            }
        } else {
            Expansion::Full
        })
    }
    fn remaining_successors(
        &self,
        _: &mut (),
        s: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.each(s, Some(false), |_, t| emit(&t));
        Ok(())
    }
    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(vec![LabelledState {
            label: "init".into(),
            state: vec![0, 0].into(),
        }])
    }
    fn labelled_successors(&self, s: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        let mut out = Vec::new();
        self.each(s, None, |l, t| {
            out.push(LabelledState {
                label: l.into(),
                state: t.into(),
            })
        });
        Ok(out)
    }
    fn check_state(&self, _: &mut (), s: &[u64]) -> Result<Option<Violation>, ModelError> {
        Ok((s[1] == 1).then(|| Violation {
            kind: ViolationKind::Invariant,
            message: "y = 0".into(),
        }))
    }
    fn describe_state(&self, s: &[u64]) -> Vec<(String, String)> {
        vec![
            ("x".into(), s[0].to_string()),
            ("y".into(), s[1].to_string()),
        ]
    }
}

/// Two independent counters `x, y` in `0..=n` (deadlock at `(n, n)`);
/// the ample set is `{inc x}` while `x < n`.
struct Grid {
    n: u64,
}

impl Grid {
    fn each(&self, s: &[u64], part: Option<bool>, mut f: impl FnMut(&str, [u64; 2])) {
        let (x, y) = (s[0], s[1]);
        if part != Some(false) && x < self.n {
            f("incx", [x + 1, y]);
        }
        if part != Some(true) && y < self.n {
            f("incy", [x, y + 1]);
        }
    }
}

impl TransitionSystem for Grid {
    type Scratch = ();
    fn new_scratch(&self) {}
    fn state_width(&self) -> usize {
        2
    }
    fn initial_states(&self, _: &mut (), emit: &mut dyn FnMut(&[u64])) -> Result<(), ModelError> {
        emit(&[0, 0]);
        Ok(())
    }
    fn successors(
        &self,
        _: &mut (),
        s: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.each(s, None, |_, t| emit(&t));
        Ok(())
    }
    fn reduces(&self) -> bool {
        true
    }
    fn reduced_successors(
        &self,
        _: &mut (),
        s: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<Expansion, ModelError> {
        if s[0] < self.n && s[1] < self.n {
            self.each(s, Some(true), |_, t| emit(&t));
            Ok(Expansion::Ample { proviso: false })
        } else {
            self.each(s, None, |_, t| emit(&t));
            Ok(Expansion::Full)
        }
    }
    fn remaining_successors(
        &self,
        _: &mut (),
        s: &[u64],
        emit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), ModelError> {
        self.each(s, Some(false), |_, t| emit(&t));
        Ok(())
    }
    fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
        Ok(vec![LabelledState {
            label: "init".into(),
            state: vec![0, 0].into(),
        }])
    }
    fn labelled_successors(&self, s: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
        let mut out = Vec::new();
        self.each(s, None, |l, t| {
            out.push(LabelledState {
                label: l.into(),
                state: t.into(),
            })
        });
        Ok(out)
    }
    fn check_state(&self, _: &mut (), _: &[u64]) -> Result<Option<Violation>, ModelError> {
        Ok(None)
    }
    fn describe_state(&self, s: &[u64]) -> Vec<(String, String)> {
        vec![
            ("x".into(), s[0].to_string()),
            ("y".into(), s[1].to_string()),
        ]
    }
}

fn configs() -> Vec<Config> {
    let mut out = vec![
        Config::default(),
        Config {
            order: SearchOrder::Dfs,
            ..Config::default()
        },
    ];
    for threads in [2, 3] {
        for mode in [ParallelMode::WorkStealing, ParallelMode::LevelSynchronous] {
            out.push(Config {
                threads,
                mode,
                ..Config::default()
            });
        }
    }
    out
}

#[test]
fn the_proviso_finds_the_error_an_ignoring_cycle_hides() {
    for config in configs() {
        let with = explore(
            &Ignoring {
                n: 50,
                proviso: true,
            },
            &config,
        );
        assert!(
            matches!(with.outcome, Outcome::Violation(_)),
            "{config:?}: {:?}",
            with.outcome
        );
        let trace = with.trace.expect("a trace");
        assert_eq!(trace.steps.last().unwrap().state[1], 1);
        // Without the proviso the cycle of `a` ignores `b` (the reason for
        // condition A4): the search completes and misses the error.
        let without = explore(
            &Ignoring {
                n: 50,
                proviso: false,
            },
            &config,
        );
        assert_eq!(without.outcome, Outcome::Complete, "{config:?}");
        assert_eq!(without.stats.states, 50);
        assert_eq!(without.stats.reduced_states, 50);
    }
}

#[test]
fn ample_expansions_are_counted_and_keep_the_deadlock() {
    for config in configs() {
        let report = explore(&Grid { n: 6 }, &config);
        assert_eq!(report.outcome, Outcome::Deadlock, "{config:?}");
        // The path along x, then along y: 2n + 1 states instead of (n+1)^2.
        assert_eq!(report.stats.states, 13, "{config:?}");
        assert_eq!(report.stats.transitions, 12, "{config:?}");
        assert_eq!(report.stats.reduced_states, 6, "{config:?}");
        assert_eq!(report.stats.proviso_expansions, 0, "{config:?}");
        assert_eq!(report.trace.expect("a trace").transitions(), 12);
    }
}

#[test]
fn systems_without_reduction_report_no_reduced_state() {
    struct Full(Grid);
    impl TransitionSystem for Full {
        type Scratch = ();
        fn new_scratch(&self) {}
        fn state_width(&self) -> usize {
            2
        }
        fn initial_states(
            &self,
            s: &mut (),
            emit: &mut dyn FnMut(&[u64]),
        ) -> Result<(), ModelError> {
            self.0.initial_states(s, emit)
        }
        fn successors(
            &self,
            sc: &mut (),
            s: &[u64],
            emit: &mut dyn FnMut(&[u64]),
        ) -> Result<(), ModelError> {
            self.0.successors(sc, s, emit)
        }
        fn labelled_initial_states(&self) -> Result<Vec<LabelledState>, ModelError> {
            self.0.labelled_initial_states()
        }
        fn labelled_successors(&self, s: &[u64]) -> Result<Vec<LabelledState>, ModelError> {
            self.0.labelled_successors(s)
        }
        fn check_state(&self, _: &mut (), _: &[u64]) -> Result<Option<Violation>, ModelError> {
            Ok(None)
        }
        fn describe_state(&self, s: &[u64]) -> Vec<(String, String)> {
            self.0.describe_state(s)
        }
    }
    for config in configs() {
        let report = explore(&Full(Grid { n: 4 }), &config);
        assert_eq!(report.outcome, Outcome::Deadlock);
        assert_eq!(report.stats.reduced_states, 0);
    }
    let report = explore(
        &Full(Grid { n: 4 }),
        &Config {
            check_deadlock: false,
            ..Config::default()
        },
    );
    assert_eq!(report.stats.states, 25);
}
