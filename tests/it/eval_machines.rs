//! Whole-machine tests of the interpreter: parse and type-check the example
//! machines of the thesis (Appendix B, copied into tests/eval_machines/),
//! explore their state spaces with a small breadth-first search over
//! `Vec<Value>` states, and compare with the "wo" (no symmetry) state counts
//! of ProB in Tables 4.1 and 4.2. ProB counts the root, one state per
//! constant valuation (if there are constants) and every distinct state.

use std::collections::{HashSet, VecDeque};

use orbit::diag::SourceFile;
use orbit::frontends::b::ast::SetDecl;
use orbit::frontends::b::eval::Interpreter;
use orbit::frontends::b::parse_machine;
use orbit::frontends::b::typecheck::{CheckOptions, check_machine};
use orbit::frontends::b::value::Value;

/// Parses, type-checks and compiles `text` with every deferred set of size `card`.
fn load(name: &str, text: &str, card: u32) -> Interpreter {
    let text = if card == 0 {
        text.to_string()
    } else {
        with_scopes(text, card)
    };
    let file = SourceFile::new(name, text);
    let machine = parse_machine(&file).unwrap_or_else(|d| panic!("{}", d.render(&file)));
    let mut options = CheckOptions::default();
    for s in &machine.sets {
        if let SetDecl::Deferred(n) = s
            && card > 0
        {
            options.set_sizes.push((n.name.clone(), card));
        }
    }
    for p in machine.params.iter().filter(|_| card > 0) {
        options.set_sizes.push((p.name.clone(), card));
    }
    let types =
        check_machine(&machine, &options).unwrap_or_else(|ds| panic!("{}", ds[0].render(&file)));
    Interpreter::new(&machine, &types, &file).unwrap_or_else(|d| panic!("{}", d.render(&file)))
}

/// The machine text with every `scope_X == ...` definition set to `1..card`
/// (the `--set` option may not contradict a scope definition).
fn with_scopes(text: &str, card: u32) -> String {
    text.lines()
        .map(
            |line| match (line.trim_start().starts_with("scope_"), line.find("==")) {
                (true, Some(eq)) => {
                    let end = if line.trim_end().ends_with(';') {
                        ";"
                    } else {
                        ""
                    };
                    format!("{}== 1..{card}{end}", &line[..eq])
                }
                _ => line.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// Explores every reachable state, checking the invariant on each, and
/// returns ProB's state count.
fn prob_state_count(interp: &Interpreter, has_constants: bool) -> usize {
    let valuations = interp.constant_valuations().expect("constants");
    let mut seen: HashSet<(usize, Vec<Value>)> = HashSet::new();
    let mut queue = VecDeque::new();
    for (c, consts) in valuations.iter().enumerate() {
        interp
            .initialise(consts, &mut |vars| {
                if seen.insert((c, vars.to_vec())) {
                    queue.push_back((c, vars.to_vec()));
                }
            })
            .expect("initialisation");
    }
    while let Some((c, vars)) = queue.pop_front() {
        let consts = &valuations[c];
        if let Some(f) = interp.check_invariant(consts, &vars).expect("invariant") {
            panic!("invariant `{}` violated in {:?}", f.text, vars);
        }
        interp
            .successors(consts, &vars, &mut |step| {
                if seen.insert((c, step.variables.to_vec())) {
                    queue.push_back((c, step.variables.to_vec()));
                }
            })
            .expect("successors");
    }
    1 + if has_constants { valuations.len() } else { 0 } + seen.len()
}

macro_rules! machine {
    ($file:literal, $card:expr) => {
        load($file, include_str!(concat!("eval_machines/", $file)), $card)
    };
}

#[test]
fn scheduler0_matches_prob() {
    for (card, states) in [(2, 16), (3, 55), (4, 190)] {
        assert_eq!(
            prob_state_count(&machine!("scheduler0.mch", card), false),
            states,
            "card {card}"
        );
    }
}

#[test]
fn scheduler1_matches_prob() {
    for (card, states) in [(2, 27), (3, 145), (4, 825)] {
        assert_eq!(
            prob_state_count(&machine!("scheduler1.mch", card), false),
            states,
            "card {card}"
        );
    }
}

#[test]
fn token_ring_matches_prob() {
    for (card, states) in [(2, 35), (3, 295)] {
        assert_eq!(
            prob_state_count(&machine!("TokenRing.mch", card), true),
            states,
            "card {card}"
        );
    }
}

#[test]
fn dining_matches_prob() {
    for (card, states) in [(2, 21), (3, 337)] {
        assert_eq!(
            prob_state_count(&machine!("Dining.mch", card), true),
            states,
            "card {card}"
        );
    }
}

#[test]
fn russian_postal_puzzle_matches_prob() {
    for (card, states) in [(1, 15), (2, 81), (3, 441)] {
        assert_eq!(
            prob_state_count(&machine!("RussianPostalPuzzle.mch", card), false),
            states,
            "card {card}"
        );
    }
}

#[test]
fn towns_matches_prob() {
    for (card, states) in [(2, 17), (3, 513)] {
        assert_eq!(
            prob_state_count(&machine!("Towns.mch", card), false),
            states,
            "card {card}"
        );
    }
}

#[test]
fn usb_matches_prob() {
    for (card, states) in [(1, 29), (2, 694)] {
        assert_eq!(
            prob_state_count(&machine!("USB.mch", card), true),
            states,
            "card {card}"
        );
    }
}

#[test]
fn dining_constants_with_five_philosophers_are_quick() {
    // lFork, rFork : Phil >->> Forks with lFork(p) /= rFork(p): 5! bijections
    // times the 44 derangements relative to each; generated as permutations.
    let m = machine!("Dining.mch", 5);
    let t = std::time::Instant::now();
    assert_eq!(m.constant_valuations().unwrap().len(), 120 * 44);
    assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
}

#[test]
fn interpreter_is_shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Interpreter>();
}

/// Equations give a variable its one value once the others are bound:
/// `x + y = e` after `x` from the pairs' domain, `x * y = e` as `e / x`
/// where `x` is not 0 and, where it is, every `y` its membership allows.
#[test]
fn solved_equations_keep_every_solution() {
    let text = "MACHINE Solved
CONSTANTS k
PROPERTIES k : {0, 2}
VARIABLES n
INVARIANT n = 0
  & (k = 0 => card({x, y | x : 0..3 & y : 1..9 & x * y = 6 * k}) = 9)
  & (k = 2 => card({x, y | x : 0..3 & y : 1..9 & x * y = 6 * k}) = 2)
  & card({x, y | (x, y) : {1, 2, 3} * {1, 2, 3, 4} & x + y = 4 + k}) = 3 - k / 2
  & card({x, y | (x, y) : {1, 2, 3} * {1, 2, 3, 4} & y - x = k}) = 3 - k / 2
  & {x | x : 1..5 & 6 - x = 2 + k} = {4 - k}
INITIALISATION n := 0
OPERATIONS
  stay = skip
END";
    // The root, two valuations, one state each.
    assert_eq!(prob_state_count(&load("Solved.mch", text, 0), true), 5);
}

/// `x, y :(#n.(x = s /|\ n & y = s \|/ n))` gives each variable its
/// candidates from the `#` without waiting for the other (ProB's
/// CardTrick: "cannot enumerate `x`" before).
#[test]
fn witnesses_of_an_exists_do_not_wait_for_each_other() {
    let text = "MACHINE Cut
VARIABLES x, y
INVARIANT x : seq(1..3) & y : seq(1..3) & x ^ y = [1, 2, 3]
INITIALISATION x, y :(#n.(n : 0..3 & x = [1, 2, 3] /|\\ n & y = [1, 2, 3] \\|/ n & x ^ y = [1, 2, 3]))
OPERATIONS
  stay = skip
END";
    // The root and the four cuts of [1, 2, 3].
    assert_eq!(prob_state_count(&load("Cut.mch", text, 0), false), 5);
}

/// A disjunction of memberships gives a variable their union; `C or v : S`
/// gives `v` the set `S` where `C` fails (ProB's IntervalSMTProblem: `v`
/// has no other bound there).
#[test]
fn disjunctions_generate_every_solution() {
    let text = "MACHINE Disjoint
CONSTANTS x, y, v
PROPERTIES x : 0..20 & x >= 19 & (y : x..x+1 or y : 30..31)
  & (v : 100..102 or x < 19) & (v - y) mod 2 = 0
VARIABLES n
INVARIANT n = 0 & card({z | (z : 1..3 or z : 2..5 or z = 9) & z /= 4}) = 5
INITIALISATION n := 0
OPERATIONS
  stay = skip
END";
    // x is 19 or 20, y one of four, v of the same parity as y: 12
    // valuations; the root, one state each.
    assert_eq!(prob_state_count(&load("Disjoint.mch", text, 0), true), 25);
}

/// Loop-invariant comprehensions are evaluated once per value of what they
/// read: a state variable, a constant with two valuations, an operation's
/// parameter. A value kept for other values would break an invariant.
#[test]
fn kept_binder_values_follow_what_they_read() {
    let text = "MACHINE Kept
CONSTANTS k
PROPERTIES k : {1, 2} & card({p | p : 1..3 & p <= card({q | q : 1..k})}) = k
VARIABLES n, m
INVARIANT n : 0..3 & m : 0..9
  & !x.(x : 1..3 => card({y | y : 1..n}) = n)
  & SIGMA(z).(z : 1..2 | card({y | y : 1..n + k})) = 2 * (n + k)
  & m = card({y | y : 1..n * k})
INITIALISATION n := 0 || m := 0
OPERATIONS
  inc(d) = PRE n < 3 & d : 1..2 & d = card({y | y : 1..d}) THEN
    n := n + 1 || m := card({y | y : 1..(n + 1) * k})
  END;
  dec = PRE n > 0 THEN n := n - 1 || m := card({y | y : 1..(n - 1) * k}) END
END";
    // The root, two valuations, four states each.
    assert_eq!(prob_state_count(&load("Kept.mch", text, 0), true), 11);
}

/// `-` is a set difference on sets: `r2 - xx = xx` and `r2 - {yy} = xx`
/// leave `r2`'s elements of `xx` (of `{yy}`) free, so no equation gives a
/// set parameter its one value (it was solved as `r2 = xx + xx`, an
/// integer sum, and failed with "expected an integer").
#[test]
fn set_differences_are_not_solved_as_integer_subtractions() {
    let text = "MACHINE Diff
SETS ID = {aa, bb, cc, dd, ee, ff, gg, hh, ii, jj}
VARIABLES xx
INVARIANT xx <: ID
INITIALISATION xx := {aa, cc, ee, gg, ii}
OPERATIONS
  Unsat(r2) = PRE r2 - xx = xx THEN skip END;
  Add(yy, r2) = PRE r2 - {yy} = xx THEN xx := r2 END
END";
    // The root and every superset of the five initial elements (`Add`
    // adds one element at a time): 1 + 2^5.
    assert_eq!(prob_state_count(&load("Diff.mch", text, 0), false), 33);
}

/// An `ANY` whose variables are given values only inside a `#` and
/// there only in the cases of implications (TLA2B's translation of
/// `\E m \in Data : Put(t, m)` with `IF`s inside) takes them from those
/// cases over the `#`'s solutions: every buffer of up to four messages,
/// every waiter removed, not the buffers of a type's enumeration
/// ("cannot enumerate `buffer_n`", or under `--bound-integers` only the
/// buffers whose indices stay within MAXINT).
#[test]
fn values_defined_in_the_cases_of_an_exists_are_every_solution() {
    let text = "MACHINE Buffer
SETS THREADS = {p1, p2, c1}; MSG = {m1}
ABSTRACT_CONSTANTS Producers, Consumers
PROPERTIES Producers = {p1, p2} & Consumers = {c1}
DEFINITIONS
  Notify == (waitSet /= {} => #xx.(xx : waitSet & waitSet_n = waitSet - {xx}))
    & (not(waitSet /= {}) => waitSet_n = waitSet);
  Put(tt, mm) == (size(buffer) < 4 => buffer_n = buffer <- mm & Notify)
    & (not(size(buffer) < 4) => waitSet_n = waitSet \\/ {tt} & buffer_n = buffer)
VARIABLES buffer, waitSet
INVARIANT buffer : seq(MSG) & size(buffer) <= 4 & waitSet <: THREADS
INITIALISATION buffer, waitSet := [], {}
OPERATIONS
  Produce(tt) = PRE tt : Producers - waitSet THEN
    ANY buffer_n, waitSet_n WHERE buffer_n : POW(INTEGER * MSG)
      & #mm.(mm : MSG & Put(tt, mm))
    THEN buffer, waitSet := buffer_n, waitSet_n END
  END;
  Consume(tt) = PRE tt : Consumers - waitSet THEN
    ANY buffer_n, waitSet_n WHERE buffer_n : POW(INTEGER * MSG)
      & (size(buffer) > 0 => buffer_n = tail(buffer) & Notify)
      & (not(size(buffer) > 0) => waitSet_n = waitSet \\/ {tt} & buffer_n = buffer)
    THEN buffer, waitSet := buffer_n, waitSet_n END
  END
END";
    // The root, one valuation and 11 states (a breadth-first search of
    // the protocol by hand: sizes 0..4 with the waiters each allows).
    assert_eq!(prob_state_count(&load("Buffer.mch", text, 0), true), 13);
}
