//! Constants kept symbolic (`src/frontends/b/eval/symbolic.rs`): recursive and
//! infinite functions and sets defined in PROPERTIES are applied and tested
//! for membership without being built, as ProB does; whatever needs them
//! listed is a named error. Counts are worked out by hand in
//! `models/EXPECTED.md`.

use std::path::Path;

use crate::cli_support::{DEFAULT_TIMEOUT, model_path, run_orbit};

/// Runs `orbit check` on `path` with `args`: (exit code, stdout, stderr).
fn check(path: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["check".to_string(), path.display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let out = run_orbit(&all, DEFAULT_TIMEOUT);
    (out.code, out.stdout, out.stderr)
}

/// Writes `text` as `name` in a fresh directory.
fn machine(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// The JSON report of a run that exits with `code`.
fn report(path: &Path, args: &[&str], code: i32) -> serde_json::Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (got, out, err) = check(path, &all);
    assert_eq!(got, Some(code), "{}: {out}{err}", path.display());
    let report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    crate::json_schema::check_report(&report);
    report
}

/// The headline and message of a run that stops at a model error.
fn model_error(text: &str, args: &[&str]) -> String {
    let (_dir, path) = machine("M.mch", text);
    let (code, out, err) = check(&path, args);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("model error"), "{out}{err}");
    out
}

#[test]
fn recursive_and_infinite_constants_are_applied_without_being_built() {
    let path = model_path("RecursiveFunctions.mch");
    for args in [
        &["--threads", "1"][..],
        &["--threads", "2"],
        &["--threads", "1", "--order", "dfs"],
        &["--bound-integers"],
        &["--por"],
    ] {
        let r = report(&path, args, 0);
        assert_eq!(r["states"].as_u64(), Some(6), "{args:?}");
        assert_eq!(r["transitions"].as_u64(), Some(11), "{args:?}");
    }
}

#[test]
fn assertions_over_symbolic_constants_are_checked() {
    let text = std::fs::read_to_string(model_path("RecursiveFunctions.mch")).unwrap();
    for (right, wrong) in [
        (
            "fac(20) = 2432902008176640000",
            "fac(20) = 2432902008176640001",
        ),
        (
            "sq[{-2, 1, 2, 3}] = {1, 4, 9}",
            "sq[{-2, 1, 2, 3}] = {1, 9}",
        ),
        ("parity[1..4] = {0, 1}", "parity[1..4] = {1}"),
        ("([1, 2] ; parity) = [1, 0]", "([1, 2] ; parity) = [1, 1]"),
        ("-1 /: dom(parity)", "-1 : dom(parity)"),
        ("[] /: WORD", "[] : WORD"),
        ("(3 |-> 8) /: sq", "(3 |-> 8) : sq"),
    ] {
        assert!(text.contains(right), "{right}");
        let (_dir, path) = machine("RecursiveFunctions.mch", &text.replace(right, wrong));
        let (code, out, err) = check(&path, &[]);
        assert_eq!(code, Some(1), "{wrong}: {out}{err}");
        assert!(
            out.contains("assertion violation") && out.contains(wrong),
            "{wrong}: {out}{err}"
        );
    }
}

#[test]
fn a_symbolic_function_applied_outside_its_domain_is_a_model_error() {
    let out = model_error(
        "MACHINE M\nABSTRACT_CONSTANTS fac\n\
         PROPERTIES fac = %n.(n : NATURAL | IF n = 0 THEN 1 ELSE n * fac(n - 1) END)\n\
         VARIABLES k\nINVARIANT k : -1..2\nINITIALISATION k := 2\n\
         OPERATIONS dec = PRE k >= -1 THEN k := fac(k) - 2 END\nEND\n",
        &[],
    );
    // fac(2) - 2 = 0, fac(0) - 2 = -1, fac(-1) is outside the domain.
    assert!(
        out.contains("function applied outside its domain") && out.contains("M.mch:7:"),
        "{out}"
    );
    assert!(
        out.contains("fac=%n.(n : NATURAL | IF n = 0 THEN 1 ELSE n * fac(n - 1) END)"),
        "{out}"
    );
}

#[test]
fn a_lambda_body_is_evaluated_only_where_it_is_applied() {
    // 12 / x fails at x = 0: the constant stays symbolic, g(2) works,
    // and g(0) is the error, where it is applied.
    let text = "MACHINE M\nABSTRACT_CONSTANTS g, h\n\
                PROPERTIES g = %x.(x : 0..3 | 12 / x) & h = %x.(x : 1..3 | x + 1)\n\
                ASSERTIONS g(2) = 6 & h = {1 |-> 2, 2 |-> 3, 3 |-> 4}\n\
                VARIABLES k\nINVARIANT k : 0..3\nINITIALISATION k := 3\n\
                OPERATIONS dec = PRE k > 0 THEN k := k - 1 END;\n\
                use = PRE g(k) > 0 THEN skip END\nEND\n";
    let out = model_error(text, &[]);
    assert!(out.contains("division by zero"), "{out}");
    // h, whose body never fails, is an explicit set (a sequence).
    assert!(out.contains("h = [2,3,4]"), "{out}");
}

#[test]
fn membership_in_an_infinite_set_is_tested_without_building_it() {
    let (_dir, path) = machine(
        "M.mch",
        "MACHINE M\nABSTRACT_CONSTANTS EVEN, WORD\n\
         PROPERTIES EVEN = {x | x : NATURAL & x mod 2 = 0} & WORD = seq(BOOL)\n\
         VARIABLES n, w\nINVARIANT n : EVEN & w : WORD & size(w) <= 3\n\
         INITIALISATION n := 0 || w := []\n\
         OPERATIONS inc = PRE n < 6 THEN n := n + 2 END;\n\
         push(b) = PRE b : BOOL & size(w) < 3 THEN w := w <- b END\nEND\n",
    );
    // n in {0, 2, 4, 6} times the 1 + 2 + 4 + 8 sequences of up to 3 booleans.
    for args in [
        &["--no-deadlock"][..],
        &["--no-deadlock", "--bound-integers"],
    ] {
        let r = report(&path, args, 0);
        assert_eq!(r["states"].as_u64(), Some(4 * 15), "{args:?}");
    }
    // An odd n breaks the invariant.
    let (_dir, path) = machine(
        "M.mch",
        "MACHINE M\nABSTRACT_CONSTANTS EVEN\n\
         PROPERTIES EVEN = {x | x : NATURAL & x mod 2 = 0}\n\
         VARIABLES n\nINVARIANT n : EVEN\nINITIALISATION n := 0\n\
         OPERATIONS inc = PRE n < 6 THEN n := n + 3 END\nEND\n",
    );
    let (code, out, err) = check(&path, &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("invariant violation"), "{out}{err}");
}

#[test]
fn what_a_symbolic_constant_cannot_do_is_named() {
    let base = "MACHINE M\nABSTRACT_CONSTANTS sq\n\
                PROPERTIES sq = %x.(x : INTEGER | x * x) & @P@\n\
                VARIABLES k\nINVARIANT k : 0..1\nINITIALISATION k := 0\n\
                OPERATIONS op = PRE @G@ THEN skip END\nEND\n";
    for (prop, guard, expected) in [
        (
            "1 = 1",
            "card(sq) > 0",
            "not supported yet: listing the elements of `%x.(x : INTEGER | x * x)`",
        ),
        (
            "1 = 1",
            "sq /= {}",
            "not supported yet: comparing `%x.(x : INTEGER | x * x)`",
        ),
        (
            "sq : NATURAL --> NATURAL",
            "1 = 1",
            "not supported yet: testing whether `sq`, which is kept symbolic, is in",
        ),
    ] {
        let text = base.replace("@P@", prop).replace("@G@", guard);
        let (_dir, path) = machine("M.mch", &text);
        let (code, out, err) = check(&path, &[]);
        assert!(matches!(code, Some(1 | 2)), "{prop} / {guard}: {out}{err}");
        assert!(
            out.contains(expected) || err.contains(expected),
            "{prop} / {guard}: {out}{err}"
        );
    }
}

#[test]
fn unsupported_recursion_is_named_not_overflowed() {
    // Deeper than the thread's stack allows: a model error, not a stack
    // overflow; 5,000 levels fit.
    let out = model_error(
        "MACHINE M\nABSTRACT_CONSTANTS inc\n\
         PROPERTIES inc = %x.(x : NATURAL | IF x = 0 THEN 0 ELSE 1 + inc(x - 1) END)\n\
         VARIABLES n\nINVARIANT n : NATURAL\nINITIALISATION n := inc(1000000)\n\
         OPERATIONS op = PRE n < 1000000 THEN n := inc(5000) END\nEND\n",
        &[],
    );
    assert!(
        out.contains("a recursive definition nests too deeply"),
        "{out}"
    );
    let (_dir, path) = machine(
        "M.mch",
        "MACHINE M\nABSTRACT_CONSTANTS inc\n\
         PROPERTIES inc = %x.(x : NATURAL | IF x = 0 THEN 0 ELSE 1 + inc(x - 1) END)\n\
         VARIABLES n\nINVARIANT n : NATURAL\nINITIALISATION n := inc(5000)\n\
         OPERATIONS op = PRE n = 5000 THEN n := inc(4999) END\nEND\n",
    );
    for threads in ["1", "2"] {
        let r = report(&path, &["--threads", threads, "--no-deadlock"], 0);
        assert_eq!(r["states"].as_u64(), Some(2), "{threads}");
    }
    // A recursive set comprehension is applied by solving its condition
    // for its last variable (ProB's constraint solving finds the image).
    let (_dir, path) = machine(
        "M.mch",
        "MACHINE M\nABSTRACT_CONSTANTS fib\n\
         PROPERTIES fib = {x, z | x : NATURAL & z : NATURAL & (x <= 1 => z = 1) & \
         (x > 1 => z = fib(x - 1) + fib(x - 2))}\n\
         VARIABLES n\nINVARIANT n : NATURAL & n = 8\nINITIALISATION n := fib(5)\n\
         OPERATIONS op = skip\nEND\n",
    );
    let r = report(&path, &[], 0);
    assert_eq!(r["states"].as_u64(), Some(1), "{r}");
    // Outside its domain: a model error.
    let out = model_error(
        "MACHINE M\nABSTRACT_CONSTANTS half\n\
         PROPERTIES half = {x, h | x : NATURAL & h : NATURAL & h * 2 = x}\n\
         VARIABLES n\nINVARIANT n : NATURAL\nINITIALISATION n := half(7)\n\
         OPERATIONS op = skip\nEND\n",
        &["--bound-integers", "--maxint", "20"],
    );
    assert!(out.contains("outside its domain"), "{out}");
}

#[test]
fn only_lambdas_and_comprehensions_define_a_constant_recursively() {
    // `r = r~` constrains r (the symmetric relations on two elements,
    // 2^3 of them); it defines nothing.
    let (_dir, path) = machine(
        "M.mch",
        "MACHINE M\nSETS P = {a, b}\nCONSTANTS r\nPROPERTIES r : P <-> P & r = r~\n\
         VARIABLES k\nINVARIANT k : 0..1\nINITIALISATION k := 0\n\
         OPERATIONS op = PRE k = 0 THEN k := 1 END\nEND\n",
    );
    let r = report(&path, &["--no-deadlock"], 0);
    assert_eq!(r["constant_valuations"].as_u64(), Some(8));
    // The binders nested in a definition keep `--bound-integers`: only the
    // definition's own domain (NATURAL) is left unbounded.
    let (_dir, path) = machine(
        "M.mch",
        "MACHINE M\nABSTRACT_CONSTANTS sqrt\n\
         PROPERTIES sqrt = %x.(x : NATURAL | max({y | y : INTEGER & y * y <= x}))\n\
         ASSERTIONS sqrt(3) = 1 & sqrt(0) = 0\n\
         VARIABLES k\nINVARIANT k : 0..1\nINITIALISATION k := sqrt(2)\n\
         OPERATIONS op = skip\nEND\n",
    );
    let r = report(&path, &["--bound-integers"], 0);
    assert_eq!(r["states"].as_u64(), Some(1));
    let (code, out, err) = check(&path, &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("cannot enumerate `y`"), "{out}{err}");
}

#[test]
fn functions_over_huge_finite_domains_are_applied_without_being_built() {
    // 2 * 65536 * 65536 pairs: built, this took 17 GiB before any state
    // (ProB's Z80 ALU machines define their adders so).
    let text = "MACHINE M\nCONSTANTS WORD, add\n\
                PROPERTIES WORD = 0..65535 &\n\
                add = %(c, x, y).(c : 0..1 & x : WORD & y : WORD | (c + x + y) mod 65536)\n\
                VARIABLES acc\nINVARIANT acc : WORD\nINITIALISATION acc := 65530\n\
                OPERATIONS step = PRE acc /= 4 THEN acc := add(1, acc, 1) END\nEND\n";
    let (_dir, path) = machine("M.mch", text);
    let r = report(&path, &["--no-deadlock", "--time-limit", "60s"], 0);
    // 65530, 65532, 65534, 0, 2, 4
    assert_eq!(r["states"].as_u64(), Some(6), "{r}");
    // What needs it listed is named, not attempted.
    let out = model_error(&text.replace("acc /= 4", "card(add) > 0"), &[]);
    assert!(out.contains("which is kept symbolic"), "{out}");
}

#[test]
fn a_function_applying_a_costly_symbolic_comprehension_is_kept_symbolic() {
    // ProB's SonLazySetEvaluation adders: `carries` solves for `c` among
    // 256 messages per argument; `add` over its 65,536 arguments would
    // solve 16.7 million candidates before the first state, applied it
    // solves 256 per state (each remembered across the `i`s).
    let text = "MACHINE M\nCONSTANTS MSG, carries, add\n\
                PROPERTIES MSG = 1..8 --> 0..1 &\n\
                carries = {m1, m2, c | m1 : MSG & m2 : MSG & c : MSG & c(1) = 1 &\n\
                  !r.(r : 2..8 => c(r) = (m1(r - 1) + m2(r - 1) + c(r - 1)) / 2)} &\n\
                add = %(m1, m2).(m1 : MSG & m2 : MSG |\n\
                  %i.(i : 1..8 | (m1(i) + m2(i) + carries(m1 |-> m2)(i)) mod 2))\n\
                VARIABLES m1, m2\nINVARIANT m1 : MSG & m2 : MSG\n\
                INITIALISATION m1 := %i.(i : 1..8 | 0) || m2 := %i.(i : 1..8 | 0)\n\
                OPERATIONS step(p) = SELECT p = add(m1 |-> m2) THEN m1 := p END\nEND\n";
    let (_dir, path) = machine("M.mch", text);
    let r = report(&path, &["--time-limit", "60s"], 0);
    // m1 := m1 + 0 + 1 (the carry in): every one of the 256 messages.
    assert_eq!(r["states"].as_u64(), Some(256), "{r}");
}

#[test]
fn an_override_of_a_lambda_written_in_place_is_applied_without_being_built() {
    // ProB's RecordCallResidue: `(f <+ {x |-> y})(z)` for a lambda `f`
    // over INTEGER * INTEGER is `y` at `x` and `f(z)` elsewhere; listing
    // `f` (even within --bound-integers' MAXINT) would lose `(2, 4)`.
    let text = "MACHINE M\nDEFINITIONS f == %(i, j).(i : INTEGER & j : INTEGER | i * 10 + j)\n\
                CONSTANTS c\nPROPERTIES c : INTEGER & \n\
                c = (f <+ {(3, 4) |-> f(3, 4) + 100})(2, 4) + \n\
                (f <+ {(3, 4) |-> 0})(3, 4) + (f \\/ {(1, 1) |-> 11})(1, 1)\n\
                VARIABLES v\nINVARIANT v : INTEGER\nINITIALISATION v := c\n\
                OPERATIONS step = PRE v = 35 THEN v := v + 1 END\nEND\n";
    let (_dir, path) = machine("M.mch", text);
    for args in [
        &["--no-deadlock"][..],
        &["--no-deadlock", "--bound-integers"],
    ] {
        let r = report(&path, args, 0);
        // c = 24 + 0 + 11 = 35, then 36.
        assert_eq!(r["states"].as_u64(), Some(2), "{args:?}: {r}");
    }
}

#[test]
fn a_variable_copying_an_infinite_product_keeps_it_whole() {
    // ProB's DomRangeClosures: `INTEGER * NATURAL1` is not `INT * NAT1`,
    // also when --bound-integers lists integers within MININT..MAXINT:
    // `xx := cp` stores the product itself, `dom(xx)` reads it listed.
    let text = "MACHINE M\nCONSTANTS cp, cp2, cp5\n\
                PROPERTIES cp = INTEGER * NATURAL1 & cp2 = INT * NAT1 &\n\
                cp5 = NATURAL * (INTEGER - {0})\n\
                VARIABLES xx\nINVARIANT xx <: INTEGER * INTEGER\n\
                INITIALISATION xx := cp\n\
                OPERATIONS d <-- DomCP = BEGIN d := dom(xx) END;\n\
                set2 = BEGIN xx := cp2 END; set5 = BEGIN xx := cp5 END;\n\
                beyond = SELECT (2 |-> 4) : xx THEN skip END\nEND\n";
    let (_dir, path) = machine("M.mch", text);
    let r = report(&path, &["--no-deadlock", "--bound-integers"], 0);
    // xx is cp, cp2 or cp5: three states, `beyond` enabled at cp and cp5
    // only (4 is beyond MAXINT = 3 in cp2).
    assert_eq!(r["states"].as_u64(), Some(3), "{r}");
    assert_eq!(r["transitions"].as_u64(), Some(3 * 3 + 2), "{r}");
    // A finite interval too large to list stays symbolic where read.
    let text = "MACHINE M\nCONSTANTS big, f\n\
                PROPERTIES big = 0 .. 4294967295 & f : 1..2 --> big & f(1) = 4294967295 &\n\
                f(2) = 0\nVARIABLES v\nINVARIANT v : big\nINITIALISATION v := f(1)\nEND\n";
    let (_dir, path) = machine("M.mch", text);
    let r = report(&path, &["--no-deadlock", "--bound-integers"], 0);
    assert_eq!(r["states"].as_u64(), Some(1), "{r}");
}
