//! Substitutions and operations through the whole pipeline: the outcomes
//! of each construct, operation labels, and errors.

use orbit::diag::{Diagnostic, SourceFile};
use orbit::frontends::b::eval::Interpreter;
use orbit::frontends::b::parse_machine;
use orbit::frontends::b::typecheck::{CheckOptions, check_machine};
use orbit::frontends::b::value::Value;

fn try_compile(text: &str) -> Result<Interpreter, Diagnostic> {
    let file = SourceFile::new("t.mch", text);
    let machine = parse_machine(&file).unwrap_or_else(|d| panic!("{}", d.render(&file)));
    let types = check_machine(&machine, &CheckOptions::default())
        .unwrap_or_else(|ds| panic!("{}", ds[0].render(&file)));
    Interpreter::new(&machine, &types, &file)
}

fn compile(text: &str) -> Interpreter {
    try_compile(text).unwrap_or_else(|d| panic!("{}", d.message))
}

/// Every initial state, printed as `v1,v2,...`.
fn initial_states(interp: &Interpreter) -> Vec<String> {
    let consts = interp.constant_valuations().unwrap().remove(0);
    let mut out = Vec::new();
    interp
        .initialise(&consts, &mut |vars| out.push(print(interp, vars)))
        .unwrap_or_else(|e| panic!("{}", e.message));
    out
}

fn print(interp: &Interpreter, vars: &[Value]) -> String {
    vars.iter()
        .map(|v| interp.format_value(v))
        .collect::<Vec<_>>()
        .join(",")
}

/// Every step from the first initial state: `label => vars`.
fn steps(interp: &Interpreter) -> Vec<String> {
    let consts = interp.constant_valuations().unwrap().remove(0);
    let mut init = None;
    interp
        .initialise(&consts, &mut |vars| {
            init = init.take().or(Some(vars.to_vec()))
        })
        .unwrap();
    let init = init.expect("an initial state");
    let mut out = Vec::new();
    interp
        .successors(&consts, &init, &mut |s| {
            out.push(format!(
                "{} => {}",
                interp.format_step(s),
                print(interp, s.variables)
            ))
        })
        .unwrap_or_else(|e| panic!("{}", e.message));
    out
}

fn init_machine(init: &str) -> Interpreter {
    compile(&format!(
        "MACHINE T\nVARIABLES x, y\nINVARIANT x : 0..9 & y : 0..9\nINITIALISATION {init}\nEND\n"
    ))
}

#[test]
fn nondeterministic_substitutions_offer_every_outcome() {
    assert_eq!(initial_states(&init_machine("x, y := 1, 2")), ["1,2"]);
    assert_eq!(initial_states(&init_machine("x := 1 || y := 2")), ["1,2"]);
    assert_eq!(
        initial_states(&init_machine("x := 1 ; y := x + 1")),
        ["1,2"]
    );
    assert_eq!(
        initial_states(&init_machine("x :: 1..3 || y := 0")),
        ["1,0", "2,0", "3,0"]
    );
    assert_eq!(
        initial_states(&init_machine("CHOICE x := 1 OR x := 2 END || y := 0")),
        ["1,0", "2,0"]
    );
    assert_eq!(
        initial_states(&init_machine("x :: {1, 2} || y :: {5, 6}")),
        ["1,5", "1,6", "2,5", "2,6"]
    );
    assert_eq!(
        initial_states(&init_machine(
            "ANY a WHERE a : 1..4 & a mod 2 = 0 THEN x, y := a, a END"
        )),
        ["2,2", "4,4"]
    );
    assert_eq!(
        initial_states(&init_machine(
            "x := 3 ; y := 1 ; y : (y : 0..9 & y > y$0 + x + 3)"
        )),
        ["3,8", "3,9"]
    );
    assert_eq!(
        initial_states(&init_machine(
            "x := 3 ; x : (x : 0..9 & x = x$0 * 2) ; y := 0"
        )),
        ["6,0"]
    );
    assert_eq!(
        initial_states(&init_machine("VAR t IN t := 4 ; x := t ; y := t + 1 END")),
        ["4,5"]
    );
    assert_eq!(
        initial_states(&init_machine("LET a BE a = 7 IN x := a || y := a END")),
        ["7,7"]
    );
}

#[test]
fn conditionals() {
    assert_eq!(
        initial_states(&init_machine(
            "x := 1 ; IF x = 1 THEN y := 1 ELSE y := 2 END"
        )),
        ["1,1"]
    );
    assert_eq!(
        initial_states(&init_machine(
            "x := 2 ; IF x = 1 THEN y := 1 ELSIF x = 2 THEN y := 5 END"
        )),
        ["2,5"]
    );
    assert_eq!(
        initial_states(&init_machine("x := 3 ; y := 0 ; IF x = 1 THEN y := 1 END")),
        ["3,0"]
    );
    assert_eq!(
        initial_states(&init_machine(
            "x := 1 ; SELECT x = 1 THEN y := 1 WHEN x > 0 THEN y := 2 WHEN x = 5 THEN y := 3 END"
        )),
        ["1,1", "1,2"]
    );
    assert_eq!(
        initial_states(&init_machine(
            "x := 9 ; SELECT x = 1 THEN y := 1 ELSE y := 4 END"
        )),
        ["9,4"]
    );
    assert_eq!(
        initial_states(&init_machine(
            "x := 2 ; CASE x OF EITHER 1 THEN y := 1 OR 2, 3 THEN y := 6 ELSE y := 0 END END"
        )),
        ["2,6"]
    );
    // A conjunct that can be ill-defined waits for those to its left:
    // with `x = 0` there is no `p`, and `10 / x` is never evaluated.
    assert_eq!(
        initial_states(&init_machine(
            "x := 0 ; y := 1 ; ANY p WHERE p : 1..x & y = 10 / x THEN y := p END"
        )),
        Vec::<String>::new()
    );
    assert_eq!(
        initial_states(&init_machine(
            "x := 2 ; y := 5 ; ANY p WHERE p : 1..x & y = 10 / x THEN y := p END"
        )),
        ["2,1", "2,2"]
    );
    // An enumeration of maplets applied evaluates only the value of the
    // key that matches, as ProB (the ASM translation's normal form reads
    // `y` in the FALSE branch before it has a value).
    assert_eq!(
        initial_states(&init_machine(
            "x := {TRUE |-> 3, FALSE |-> y}(bool(1 = 1)) ; y := {1 |-> x, 2 |-> 0, 3 |-> 1}(x - 2)"
        )),
        ["3,3"]
    );
    // No branch and no ELSE: skip, as ProB runs it (CaseStmt_v2).
    assert_eq!(
        initial_states(&init_machine(
            "x := 4 ; y := 2 ; CASE x OF EITHER 1 THEN y := 1 OR 2, 3 THEN y := 6 END END"
        )),
        ["4,2"]
    );
}

#[test]
fn operations_in_order_with_parameters_and_outputs() {
    let m = compile(
        "MACHINE T\nSETS PID\nVARIABLES s\nINVARIANT s <: PID\nINITIALISATION s := {}\nOPERATIONS\n\
         add(p) = PRE p : PID - s THEN s := s \\/ {p} END;\n\
         r <-- count = BEGIN r := card(s) END;\n\
         a, b <-- pair(p, q) = PRE p : PID & q : PID & p /= q THEN a := q || b := bool(p : s) END;\n\
         blocked = SELECT s /= {} THEN skip END\nEND\n",
    );
    assert_eq!(
        steps(&m),
        [
            "add(PID1) => {PID1}",
            "add(PID2) => {PID2}",
            "count --> 0 => {}",
            "pair(PID1,PID2) --> (PID2,FALSE) => {}",
            "pair(PID2,PID1) --> (PID1,FALSE) => {}",
        ]
    );
}

#[test]
fn function_point_assignment_and_lenient_guards() {
    // `pst(p) = idle` outside the domain of pst disables the operation (as in ProB).
    let m = compile(
        "MACHINE T\nSETS P; ST = {idle, busy}\nVARIABLES pst\nINVARIANT pst : P +-> ST\n\
         INITIALISATION pst := {}\nOPERATIONS\n\
         add(p) = PRE p : P & p /: dom(pst) THEN pst(p) := idle END;\n\
         work(p) = PRE p : P & pst(p) = idle THEN pst(p) := busy END\nEND\n",
    );
    assert_eq!(
        steps(&m),
        ["add(P1) => {(P1|->idle)}", "add(P2) => {(P2|->idle)}"]
    );
    // Also when the application defines another parameter: p2 has no state.
    let m = compile(
        "MACHINE T\nSETS P = {p1, p2}; ST = {idle, busy}\nVARIABLES pst\nINVARIANT pst : P +-> ST\n\
         INITIALISATION pst := {p1 |-> busy}\nOPERATIONS\n\
         get(p, s) = PRE p : P & s = pst(p) THEN skip END\nEND\n",
    );
    assert_eq!(steps(&m), ["get(p1,busy) => {(p1|->busy)}"]);
}

#[test]
fn errors() {
    let m = init_machine("x := 1 ; ASSERT x = 2 THEN y := 0 END");
    let consts = m.constant_valuations().unwrap().remove(0);
    let e = m.initialise(&consts, &mut |_| {}).unwrap_err();
    assert_eq!(e.message, "ASSERT condition is false");
    let m = init_machine("x := 1 ; y := {1 |-> 2}(x + 1)");
    let e = m.initialise(&consts, &mut |_| {}).unwrap_err();
    assert!(e.message.contains("outside its domain"), "{}", e.message);
    // An enumeration of maplets with a variable part: no key or two keys
    // with different values for the argument are still errors.
    let m = init_machine("x := 1 ; y := {1 |-> x, 3 |-> 2}(x + 1)");
    let e = m.initialise(&consts, &mut |_| {}).unwrap_err();
    assert!(e.message.contains("outside its domain"), "{}", e.message);
    let m = init_machine("x := 1 ; y := {1 |-> x, 1 |-> 2}(x)");
    let e = m.initialise(&consts, &mut |_| {}).unwrap_err();
    assert!(e.message.contains("not a function"), "{}", e.message);
    let d = try_compile(
        "MACHINE T\nVARIABLES x\nINVARIANT x : 0..9\nINITIALISATION x := 1 || x := 2\nEND\n",
    )
    .unwrap_err();
    assert!(
        d.message.contains("written by two branches"),
        "{}",
        d.message
    );
}

#[test]
fn invariant_failure_names_the_conjunct() {
    let m = compile(
        "MACHINE T\nVARIABLES x\nINVARIANT x : NAT & x < 2\nINITIALISATION x := 0\nOPERATIONS inc = x := x + 1\nEND\n",
    );
    let consts = m.constant_valuations().unwrap().remove(0);
    assert_eq!(m.check_invariant(&consts, &[Value::Int(1)]).unwrap(), None);
    let f = m
        .check_invariant(&consts, &[Value::Int(2)])
        .unwrap()
        .expect("violated");
    assert_eq!(f.text, "x < 2");
    // MAXINT is 3: 4 is not in NAT.
    assert_eq!(
        m.check_invariant(&consts, &[Value::Int(4)])
            .unwrap()
            .unwrap()
            .text,
        "x : NAT"
    );
}

/// The successors from the first initial state, or the error message.
fn steps_or_error(interp: &Interpreter) -> Result<Vec<String>, String> {
    let consts = interp.constant_valuations().unwrap().remove(0);
    let mut init = None;
    interp
        .initialise(&consts, &mut |vars| {
            init = init.take().or(Some(vars.to_vec()))
        })
        .unwrap();
    let init = init.expect("an initial state");
    let mut out = Vec::new();
    interp
        .successors(&consts, &init, &mut |s| out.push(interp.format_step(s)))
        .map_err(|e| e.message)?;
    Ok(out)
}

#[test]
fn guards_selecting_by_a_function_value_scan_the_function() {
    // `p : S & f(p) = c` is solved by one pass over f (a preimage scan):
    // the same instances, in the same order, as enumerating S.
    let machine = |f: &str, guard: &str| {
        compile(&format!(
            "MACHINE T\nSETS P = {{a, b, c, d}}\nVARIABLES f, s\n\
             INVARIANT f : P <-> BOOL & s <: P\n\
             INITIALISATION f := {f} || s := {{a, b, d}}\n\
             OPERATIONS op(p) = PRE {guard} THEN skip END END\n"
        ))
    };
    let f = "{a |-> TRUE, b |-> FALSE, c |-> TRUE, d |-> TRUE}";
    assert_eq!(
        steps_or_error(&machine(f, "p : P & f(p) = TRUE")).unwrap(),
        vec!["op(a)", "op(c)", "op(d)"]
    );
    assert_eq!(
        steps_or_error(&machine(f, "p : s & TRUE = f(p)")).unwrap(),
        vec!["op(a)", "op(d)"]
    );
    assert_eq!(
        steps_or_error(&machine(f, "p : P - s & f(p) = TRUE")).unwrap(),
        vec!["op(c)"]
    );
    // Differences and intersections of explicit sets are merged.
    assert_eq!(
        steps_or_error(&machine(f, "p : P - s")).unwrap(),
        vec!["op(c)"]
    );
    assert_eq!(
        steps_or_error(&machine(f, "p : P /\\ s")).unwrap(),
        vec!["op(a)", "op(b)", "op(d)"]
    );
    assert_eq!(
        steps_or_error(&machine(f, "p : s - {b}")).unwrap(),
        vec!["op(a)", "op(d)"]
    );
    // Outside dom(f) the guard is false, as in ProB.
    let partial = "{b |-> TRUE, d |-> TRUE}";
    assert_eq!(
        steps_or_error(&machine(partial, "p : P & f(p) = TRUE")).unwrap(),
        vec!["op(b)", "op(d)"]
    );
    // Several images of an element of S: the error of applying f there;
    // outside S they do not matter.
    let relation = "{a |-> TRUE, c |-> FALSE, c |-> TRUE}";
    let err = steps_or_error(&machine(relation, "p : P & f(p) = TRUE")).unwrap_err();
    assert!(err.contains("not a function"), "{err}");
    assert_eq!(
        steps_or_error(&machine(relation, "p : s & f(p) = TRUE")).unwrap(),
        vec!["op(a)"]
    );
}

/// A `VAR` local or an output holds no value until assigned: reading it
/// in an operation's body is a model error naming it (it once read 0, or
/// whatever an earlier operation had left in its slot). An output left
/// unassigned is any value of its type, as B allows: the label shows `?`.
#[test]
fn locals_and_outputs_are_read_only_once_assigned() {
    let machine = |ops: &str| {
        compile(&format!(
            "MACHINE T\nVARIABLES y\nINVARIANT y : 0..9\nINITIALISATION y := 1\n\
             OPERATIONS {ops} END\n"
        ))
    };
    let err = steps_or_error(&machine("op = VAR x IN x := x + 1 ; y := x END")).unwrap_err();
    assert_eq!(err, "`x` is read before it is assigned a value");
    // An earlier operation's local is not a value for a later one.
    let ops = "set = VAR x IN x := 5 ; y := x END; get = VAR x IN y := x END";
    let err = steps_or_error(&machine(ops)).unwrap_err();
    assert_eq!(err, "`x` is read before it is assigned a value");
    assert_eq!(
        steps_or_error(&machine("o <-- out = IF y > 5 THEN o := 2 END")).unwrap(),
        vec!["out --> ?"]
    );
    // Tested in the guard, an output has no value yet: an error, as in
    // ProB (its systeme1 and PRE_on_output examples), never a false guard;
    // typed there by its whole type, it is typing only.
    let err = steps_or_error(&machine("o <-- typed = PRE o : NAT THEN o := 1 END")).unwrap_err();
    assert_eq!(err, "`o` is read before it is assigned a value");
    assert_eq!(
        steps_or_error(&machine("o <-- typed = PRE o : INTEGER THEN o := 1 END")).unwrap(),
        vec!["typed --> 1"]
    );
    let err = steps_or_error(&machine("o <-- inc = o := o + 1")).unwrap_err();
    assert_eq!(err, "`o` is read before it is assigned a value");
    // Assigned on every path, they are ordinary values.
    let ops = "o <-- out = BEGIN IF y > 5 THEN o := 2 ELSE o := 3 END ; o := o + 1 END; \
               op = VAR x IN x := 4 ; y := x + y END";
    assert_eq!(
        steps_or_error(&machine(ops)).unwrap(),
        vec!["out --> 4", "op"]
    );
}

/// Machine variables hold no value until INITIALISATION assigns them:
/// reading one earlier is a model error naming it (it was an internal
/// error: the slot's placeholder did not fit the variable's type), and so
/// is an INITIALISATION that leaves one unassigned on some path.
#[test]
fn initialisation_reads_only_assigned_variables() {
    let init_error = |init: &str| {
        let interp = compile(&format!(
            "MACHINE T\nSETS ID = {{aa, bb}}\nVARIABLES xx, yy\nINVARIANT xx : ID & yy : ID\n\
             INITIALISATION {init}\nEND\n"
        ));
        let consts = interp.constant_valuations().unwrap().remove(0);
        interp
            .initialise(&consts, &mut |_| {})
            .map(|()| "no error".to_string())
            .unwrap_or_else(|e| e.message)
    };
    assert_eq!(
        init_error("xx := yy ; yy := aa"),
        "`yy` is read before it is assigned a value"
    );
    assert_eq!(
        init_error("xx := aa || yy := xx"),
        "`xx` is read before it is assigned a value"
    );
    assert_eq!(
        init_error("xx := aa ; IF xx = bb THEN yy := aa ELSE skip END"),
        "INITIALISATION ends without assigning `yy`"
    );
    assert_eq!(init_error("xx := aa ; yy := xx"), "no error");
}

/// A loop that grows a set one element at a time collects the elements
/// and adds them when it ends: the outcome is the one of the same loop
/// where the set is read on the way (its invariant reads it), for either
/// order of the union, duplicates and a nested loop; a `VAR` local grown
/// before it has a value is still the error of reading it.
#[test]
fn sets_grown_in_a_loop_are_collected_with_the_same_outcome() {
    let machine = |ops: &str| {
        compile(&format!(
            "MACHINE T\nVARIABLES y\nINVARIANT y : 0..9\nINITIALISATION y := 1\n\
             OPERATIONS {ops} END\n"
        ))
    };
    let grow = |invariant: &str| {
        format!(
            "o <-- grow = VAR s, t, i, j IN s := {{y}}; t := {{}}; i := 0;\n\
             WHILE i < 40 DO\n\
               IF i mod 3 = 0 THEN s := s \\/ {{i mod 7, 2 * i}} ELSE s := {{i}} \\/ s END;\n\
               j := 0;\n\
               WHILE j < 3 DO t := t \\/ {{i * j}}; j := j + 1 INVARIANT j <= 3 VARIANT 3 - j END;\n\
               i := i + 1\n\
             INVARIANT {invariant} VARIANT 40 - i END;\n\
             o := (s, card(t)) END"
        )
    };
    let collected = steps_or_error(&machine(&grow("i <= 40"))).unwrap();
    let read = steps_or_error(&machine(&grow("i <= 40 & card(s) >= i & card(t) >= 0"))).unwrap();
    assert_eq!(collected, read);
    let expected: std::collections::BTreeSet<i64> = (0..40)
        .flat_map(|i| {
            if i % 3 == 0 {
                vec![i % 7, 2 * i]
            } else {
                vec![i]
            }
        })
        .chain([1])
        .collect();
    let listed: Vec<String> = expected.iter().map(|v| v.to_string()).collect();
    let products: std::collections::BTreeSet<i64> =
        (0..40).flat_map(|i| (0..3).map(move |j| i * j)).collect();
    assert_eq!(
        collected,
        vec![format!(
            "grow --> ({{{}}}|->{})",
            listed.join(","),
            products.len()
        )]
    );
    let unset = "o <-- grow = VAR s, i IN i := 0;\n\
                 WHILE i < 3 DO s := s \\/ {i}; i := i + 1 INVARIANT i <= 3 VARIANT 3 - i END;\n\
                 o := card(s) END";
    let err = steps_or_error(&machine(unset)).unwrap_err();
    assert_eq!(err, "`s` is read before it is assigned a value");
}
