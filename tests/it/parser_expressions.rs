//! Expressions and predicates: operator priorities, the B look-alike
//! operators, and every construct of the language.

use crate::common;

use common::{assert_error_at, show};
use orbit::diag::SourceFile;
use orbit::frontends::b::parse_expression;

fn parse(text: &str) -> String {
    let file = SourceFile::new("e.b", text);
    match parse_expression(&file) {
        Ok(e) => show(&e),
        Err(d) => panic!("{}", d.render(&file)),
    }
}

fn error(text: &str, line: usize, col: usize, message: &str) {
    let file = SourceFile::new("e.b", text);
    match parse_expression(&file) {
        Ok(e) => panic!("expected an error, parsed {}", show(&e)),
        Err(d) => assert_error_at(&d, &file, line, col, message),
    }
}

#[test]
fn arithmetic_priorities() {
    assert_eq!(parse("1 + 2 * 3"), "(Add 1 (Mul 2 3))");
    assert_eq!(parse("1 - 2 - 3"), "(Minus (Minus 1 2) 3)");
    assert_eq!(parse("2 ** 3 ** 2"), "(Power 2 (Power 3 2))");
    assert_eq!(parse("a * b / c mod d"), "(Mod (Div (Mul a b) c) d)");
    assert_eq!(parse("-x + 1"), "(Add (Minus x) 1)");
    assert_eq!(parse("-2 * 3"), "(Mul -2 3)");
    assert_eq!(parse("1..n+1"), "(Interval 1 (Add n 1))");
    assert_eq!(parse("a - -1"), "(Minus a -1)");
}

#[test]
fn predicate_priorities() {
    // `=>` binds looser than `&` (Atelier B / ProB priorities 30 < 40).
    assert_eq!(
        parse("a = 1 & b = 2 => c = 3"),
        "(Implies (And (Eq a 1) (Eq b 2)) (Eq c 3))"
    );
    assert_eq!(parse("a => b => c"), "(Implies (Implies a b) c)");
    // `&` and `or` share a priority and associate to the left.
    assert_eq!(parse("a or b & c"), "(And (Or a b) c)");
    assert_eq!(parse("x = 1 <=> y = 2"), "(Equiv (Eq x 1) (Eq y 2))");
    assert_eq!(parse("not(a) & b"), "(And (Not a) b)");
    assert_eq!(parse("not a = b & c"), "(And (Not (Eq a b)) c)");
    assert_eq!(parse("x : A <-> B"), "(Member x (Relation A B))");
    assert_eq!(parse("x |-> y : S"), "(Member (Maplet x y) S)");
    assert_eq!(
        parse("f : A * B --> C"),
        "(Member f (TotalFunction (Mul A B) C))"
    );
}

#[test]
fn look_alike_operators() {
    assert_eq!(parse("s <- e"), "(Append s e)");
    assert_eq!(parse("a < b"), "(Lt a b)");
    assert_eq!(parse("e -> s"), "(Prepend e s)");
    assert_eq!(parse("a - b"), "(Minus a b)");
    assert_eq!(parse("A --> B"), "(TotalFunction A B)");
    assert_eq!(parse("A -->> B"), "(TotalSurjection A B)");
    assert_eq!(parse("a |-> b"), "(Maplet a b)");
    assert_eq!(parse("r |> S"), "(RangeRestriction r S)");
    assert_eq!(parse("r |>> S"), "(RangeSubtraction r S)");
    assert_eq!(parse("S <| r"), "(DomainRestriction S r)");
    assert_eq!(parse("S <<| r"), "(DomainSubtraction S r)");
    assert_eq!(parse("a / b"), "(Div a b)");
    assert_eq!(parse("a /= b"), "(Neq a b)");
    assert_eq!(parse("a /: b"), "(NotMember a b)");
    assert_eq!(parse("a /\\ b"), "(Inter a b)");
    assert_eq!(parse("a \\/ b"), "(Union a b)");
    assert_eq!(parse("a * b"), "(Mul a b)");
    assert_eq!(parse("a ** b"), "(Power a b)");
    assert_eq!(
        parse("a <: b & a <<: b & a /<: b & a /<<: b"),
        "(And (And (And (Subset a b) (StrictSubset a b)) (NotSubset a b)) (NotStrictSubset a b))"
    );
    assert_eq!(parse("r <+ s >< t"), "(DirectProduct (Override r s) t)");
    assert_eq!(
        parse("s ^ t /|\\ 2 \\|/ 1"),
        "(DropFront (TakeFront (Concat s t) 2) 1)"
    );
    assert_eq!(
        parse("a <= b or a >= b or a > b"),
        "(Or (Or (Le a b) (Ge a b)) (Gt a b))"
    );
}

#[test]
fn function_arrows() {
    for (op, name) in [
        ("<->", "Relation"),
        ("+->", "PartialFunction"),
        ("-->", "TotalFunction"),
        (">+>", "PartialInjection"),
        (">->", "TotalInjection"),
        ("+->>", "PartialSurjection"),
        ("-->>", "TotalSurjection"),
        (">+>>", "PartialBijection"),
        (">->>", "TotalBijection"),
    ] {
        assert_eq!(parse(&format!("A {op} B")), format!("({name} A B)"));
    }
}

#[test]
fn parentheses_pairs_composition_and_parallel_product() {
    assert_eq!(parse("(a, b)"), "(Maplet a b)");
    assert_eq!(parse("(a, b, c)"), "(Maplet (Maplet a b) c)");
    assert_eq!(parse("(r ; s)"), "(Composition r s)");
    assert_eq!(parse("(r ; s ; t)"), "(Composition (Composition r s) t)");
    assert_eq!(parse("(r || s)"), "(ParallelProduct r s)");
    assert_eq!(parse("(1 + 2) * 3"), "(Mul (Add 1 2) 3)");
    // Inside a call's brackets `;` cannot end a substitution: ProB reads
    // it (and `||`) there too, as in `dom(ff ; (gg~))` or `conc(c ; d)`.
    assert_eq!(parse("dom(r ; s~)"), "(Dom (Composition r (Inverse s)))");
    assert_eq!(parse("f(r ; s, t)"), "(Apply f (Composition r s) t)");
    assert_eq!(parse("conc(r || s)"), "(Conc (ParallelProduct r s))");
    assert_eq!(
        parse("UNION(i).(i : I | r(i)~ ; s)"),
        "(Union [i] (Member i I) (Composition (Inverse (Apply r i)) s))"
    );
}

#[test]
fn application_image_and_inverse() {
    assert_eq!(parse("f(x)"), "(Apply f x)");
    assert_eq!(parse("f(x, y)"), "(Apply f x y)");
    assert_eq!(parse("f(x)(y)"), "(Apply (Apply f x) y)");
    assert_eq!(parse("r[S]"), "(Image r S)");
    assert_eq!(parse("r~[{a}]"), "(Image (Inverse r) {a})");
    assert_eq!(
        parse("card(pst~[{active}]) <= 1"),
        "(Le (Card (Image (Inverse pst) {active})) 1)"
    );
}

#[test]
fn sets_and_sequences() {
    assert_eq!(parse("{}"), "EmptySet");
    assert_eq!(parse("{a, b}"), "{a b}");
    assert_eq!(parse("{x | x : S}"), "(Comprehension [x] (Member x S))");
    assert_eq!(parse("{x, y | x < y}"), "(Comprehension [x y] (Lt x y))");
    assert_eq!(parse("{(x, y) | x < y}"), "(Comprehension [x y] (Lt x y))");
    assert_eq!(parse("{(a, b)}"), "{(Maplet a b)}");
    assert_eq!(parse("[]"), "EmptySeq");
    assert_eq!(parse("[a, b]"), "[a b]");
    assert_eq!(
        parse("POW(S) \\/ POW1(S) \\/ FIN(S) \\/ FIN1(S)"),
        "(Union (Union (Union (Pow S) (Pow1 S)) (Fin S)) (Fin1 S))"
    );
    assert_eq!(
        parse("union(SS) /\\ inter(SS)"),
        "(Inter (GeneralUnion SS) (GeneralInter SS))"
    );
}

#[test]
fn built_ins() {
    assert_eq!(
        parse("card(S) + min(S) + max(S)"),
        "(Add (Add (Card S) (Min S)) (Max S))"
    );
    assert_eq!(parse("dom(r) \\/ ran(r)"), "(Union (Dom r) (Ran r))");
    assert_eq!(parse("id(S)"), "(Id S)");
    assert_eq!(parse("prj1(S, T)"), "(Prj1 S T)");
    assert_eq!(parse("prj2(S, T)"), "(Prj2 S T)");
    assert_eq!(parse("iterate(r, 2)"), "(Iterate r 2)");
    assert_eq!(
        parse("closure(r) = closure1(r)"),
        "(Eq (Closure r) (Closure1 r))"
    );
    assert_eq!(parse("fnc(r) = rel(f)"), "(Eq (Fnc r) (Rel f))");
    assert_eq!(parse("succ(n) = pred(m)"), "(Eq (Succ n) (Pred m))");
    assert_eq!(
        parse("seq(S) \\/ seq1(S) \\/ iseq(S) \\/ iseq1(S) \\/ perm(S)"),
        "(Union (Union (Union (Union (Seq S) (Seq1 S)) (Iseq S)) (Iseq1 S)) (Perm S))"
    );
    assert_eq!(
        parse("first(s) + last(s) + size(s)"),
        "(Add (Add (First s) (Last s)) (Size s))"
    );
    assert_eq!(
        parse("front(s) ^ tail(s) ^ rev(s) ^ conc(ss)"),
        "(Concat (Concat (Concat (Front s) (Tail s)) (Rev s)) (Conc ss))"
    );
    assert_eq!(parse("bool(x > 0) = TRUE"), "(Eq (bool (Gt x 0)) TRUE)");
    assert_eq!(
        parse("NAT \\/ NAT1 \\/ INT \\/ NATURAL \\/ NATURAL1 \\/ INTEGER"),
        "(Union (Union (Union (Union (Union Nat Nat1) Int) Natural) Natural1) Integer)"
    );
    assert_eq!(
        parse("x : BOOL & s : STRING & MININT < MAXINT"),
        "(And (And (Member x Bool) (Member s String)) (Lt MinInt MaxInt))"
    );
    assert_eq!(parse("s = \"hi\""), "(Eq s \"hi\")");
    assert_eq!(parse("FALSE"), "FALSE");
}

#[test]
fn binders() {
    assert_eq!(
        parse("!x.(x : S => x > 0)"),
        "(ForAll [x] (Implies (Member x S) (Gt x 0)))"
    );
    assert_eq!(
        parse("!(x, y).(x : S & y : S => x = y)"),
        "(ForAll [x y] (Implies (And (Member x S) (Member y S)) (Eq x y)))"
    );
    assert_eq!(parse("#x.(x : S)"), "(Exists [x] (Member x S))");
    assert_eq!(parse("#(x, y).(x = y)"), "(Exists [x y] (Eq x y))");
    assert_eq!(
        parse("%x.(x : NAT | x + 1)"),
        "(Lambda [x] (Member x Nat) (Add x 1))"
    );
    assert_eq!(
        parse("%(x, y).(x : S & y : S | x)"),
        "(Lambda [x y] (And (Member x S) (Member y S)) x)"
    );
    assert_eq!(parse("SIGMA(x).(x : S | x)"), "(Sum [x] (Member x S) x)");
    assert_eq!(parse("PI(x).(x : S | x)"), "(Product [x] (Member x S) x)");
    assert_eq!(
        parse("UNION(x).(x : S | {x})"),
        "(Union [x] (Member x S) {x})"
    );
    assert_eq!(
        parse("INTER(x).(x : S | {x})"),
        "(Inter [x] (Member x S) {x})"
    );
}

#[test]
fn if_and_let_expressions() {
    assert_eq!(
        parse("IF x < 0 THEN -x ELSE x END"),
        "(If (Lt x 0) (Minus x) x)"
    );
    assert_eq!(
        parse("IF a THEN 1 ELSIF b THEN 2 ELSE 3 END"),
        "(If a 1 (If b 2 3))"
    );
    assert_eq!(
        parse("LET y BE y = x + 1 IN y * y END"),
        "(Let [y] (Eq y (Add x 1)) (Mul y y))"
    );
}

#[test]
fn becomes_such_that_before_value() {
    assert_eq!(parse("x = x$0 + 1"), "(Eq x (Add x$0 1))");
}

#[test]
fn errors_name_what_was_expected() {
    error("(a + )", 1, 6, "expected an expression, found `)`");
    error("a +\n  * b", 2, 3, "expected an expression, found `*`");
    error("{a, b", 1, 6, "expected `,` or `}`, found end of file");
    error("!x.x > 0", 1, 4, "expected `(`, found `x`");
    error("card S", 1, 6, "expected `(`, found `S`");
    error(
        "prj1(S, T, U)",
        1,
        1,
        "`prj1` takes 2 arguments but 3 were given",
    );
    assert_eq!(parse("prj1(p)"), "(Prj1 p)");
    error("a b", 1, 3, "expected end of file, found `b`");
    error("x := 1", 1, 3, "expected end of file, found `:=`");
    // Integers are unbounded; a literal beyond 64 bits is kept exactly.
    assert_eq!(
        parse("99999999999999999999 + 0x10000000000000000"),
        "(Add big:99999999999999999999 big:18446744073709551616)"
    );
    assert_eq!(parse("-9223372036854775808"), "-9223372036854775808");
    assert_eq!(parse("-9223372036854775809"), "big:-9223372036854775809");
    error("IF a THEN b END", 1, 13, "expected `ELSE`, found `END`");
    error(
        "{card | card > 0}",
        1,
        2,
        "expected an identifier, found the built-in `card`",
    );
}

/// Runs `f` on a thread with the command line's stack: the trees of long
/// chains are as deep as the chains, and dropping them recurses too.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(128 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    on_big_stack(deep_nesting_is_an_error_not_a_crash_body);
}

fn deep_nesting_is_an_error_not_a_crash_body() {
    let deep = format!("{}x{}", "(".repeat(10_000), ")".repeat(10_000));
    let file = SourceFile::new("e.b", deep);
    let d = parse_expression(&file).unwrap_err();
    assert!(d.message.contains("nesting too deep"), "{}", d.message);
    let deep = format!("{}x", "-".repeat(10_000));
    let d = parse_expression(&SourceFile::new("e.b", deep)).unwrap_err();
    assert!(d.message.contains("nesting too deep"), "{}", d.message);
    // Long flat chains are fine: left-associative operators do not nest the parser.
    let long = vec!["x"; 15_000].join(" + ");
    assert!(parse_expression(&SourceFile::new("e.b", long)).is_ok());
    // But the tree they build is as deep as they are long, and every later
    // phase recurses over it: past MAX_TREE_DEPTH they are refused.
    let too_long = vec!["x"; 25_000].join(" + ");
    let d = parse_expression(&SourceFile::new("e.b", too_long)).unwrap_err();
    assert!(d.message.contains("too deeply nested"), "{}", d.message);
    // Conjunctions are lists for every phase: no limit.
    let conjunction = vec!["x = 1"; 50_000].join(" & ");
    assert!(parse_expression(&SourceFile::new("e.b", conjunction)).is_ok());
}

#[test]
fn deep_nesting_of_every_construct_is_an_error_not_a_crash() {
    let n = 5_000;
    for (open, middle, close) in [
        ("bool(", "x = 1", ")"),
        ("{x | ", "x = 1", "}"),
        ("%x.(x : S | ", "x", ")"),
        ("!x.(", "x = 1", ")"),
        ("f(", "x", ")"),
        ("[", "x", "]"),
        ("IF a THEN ", "x", " ELSE y END"),
        ("not ", "a", ""),
        ("x ** ", "x", ""),
        ("card(", "S", ")"),
        ("r[", "S", "]"),
    ] {
        let text = format!("{}{}{}", open.repeat(n), middle, close.repeat(n));
        let d = parse_expression(&SourceFile::new("e.b", text)).unwrap_err();
        assert!(
            d.message.contains("nesting too deep"),
            "{open}: {}",
            d.message
        );
    }
    let chain = format!("IF a THEN x {} ELSE y END", "ELSIF a THEN x ".repeat(n));
    let d = parse_expression(&SourceFile::new("e.b", chain)).unwrap_err();
    assert!(d.message.contains("nesting too deep"), "{}", d.message);
}

/// ProB's `<>` (the empty sequence, like `[]`) and `\` (set difference,
/// like `-`), which were misread as `<` followed by `>` and refused.
#[test]
fn empty_sequence_and_backslash_set_difference() {
    assert_eq!(parse("<>"), parse("[]"));
    assert_eq!(parse("s \\ {1}"), parse("s - {1}"));
    assert_eq!(parse("a \\ b \\ c"), "(Minus (Minus a b) c)");
    assert_eq!(parse("a \\/ b"), parse("a \\/ b"));
    assert_eq!(parse("size(<>)"), parse("size([])"));
}

#[test]
fn unicode_operators_read_as_their_ascii_forms() {
    for (unicode, ascii) in [
        (
            "∀x·(x ∈ ℕ ⇒ x ≥ 0) ∧ a ≠ b",
            "!x.(x : NATURAL => x >= 0) & a /= b",
        ),
        ("∃y·(y ∈ ℤ ∨ ¬(y ≤ 1))", "#y.(y : INTEGER or not(y <= 1))"),
        (
            "f ∈ A ⇸ B ∧ g ∈ A → B ∧ h ∈ A ↣ B ∧ k ∈ A ↠ B ∧ m ∈ A ⤖ B",
            "f : A +-> B & g : A --> B & h : A >-> B & k : A -->> B & m : A >->> B",
        ),
        (
            "S ∪ T ∩ ∅ ⊆ ℙ(U) × ℙ₁(V)",
            "S \\/ T /\\ {} <: POW(U) * POW1(V)",
        ),
        ("(r ◁ s ▷ t) ⩤ u ⩥ v ⊕ w", "(r <| s |> t) <<| u |>> v <+ w"),
        (
            "x ↦ y ∈ r⁻¹ ∧ 1‥3 ⊂ ℕ₁ ∧ a ∉ b ∧ c ⊈ d ∧ e ⊄ f",
            "x |-> y : r~ & 1..3 <<: NATURAL1 & a /: b & c /<: d & e /<<: f",
        ),
        (
            "λz·(z ∈ ℕ ∣ z − 1) = {q | q ∈ ℕ} ⇔ Σ(i)·(i ∈ S ∣ i) = 0",
            "%z.(z : NATURAL | z - 1) = {q | q : NATURAL} <=> SIGMA(i).(i : S | i) = 0",
        ),
    ] {
        assert_eq!(parse(unicode), parse(ascii), "{unicode}");
    }
}

#[test]
fn records_parse_with_their_field_names() {
    assert_eq!(parse("rec(a: 1, id: TRUE)"), "(rec a:1 id:TRUE)");
    assert_eq!(parse("struct(a: NAT, b: BOOL)"), "(struct a:Nat b:Bool)");
    assert_eq!(
        parse("r'a + f(x)'b'c"),
        "(Add (Field r a) (Field (Field (Apply f x) b) c))"
    );
    error("rec(a: 1, a: 2)", 1, 11, "field `a` is given twice");
    error("rec(a 1)", 1, 7, "expected `:` and the field's value");
}
