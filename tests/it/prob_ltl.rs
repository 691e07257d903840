//! ProB's LTL test machine (`tests/it/prob_ltl/`, with ProB's recorded
//! verdicts in its README) as an oracle: orbit gives ProB's verdict on
//! every formula, at 1 and 2 threads and with `--por` where the formula
//! allows it; the counterexample of `G {card(active) = 0}` reaches the
//! violation in ProB's three transitions (without reduction); an atom that does not type is an
//! error, as in ProB.

use crate::cli_support::{CheckRun, DEFAULT_TIMEOUT};

const MACHINE: &str = "tests/it/prob_ltl/scheduler.mch";

/// The machine's own comment (TRUE: holds) and ProB's Groovy test.
const VERDICTS: [(&str, bool); 6] = [
    ("G (e(del) -> {card(ready \\/ waiting)>0})", true),
    ("G ({card(ready \\/ waiting)>0} -> e(del))", false),
    (
        "G ({card(active)>0} -> (e(swap) U {card(active)=0}))",
        false,
    ),
    (
        "G ({card(active)>0} -> ((G e(swap)) or (e(swap) U {card(active)=0})))",
        true,
    ),
    ("G({ TRUE = TRUE })", true),
    ("G({ card(active) = 0 })", false),
];

#[test]
fn orbit_gives_probs_verdicts_on_its_ltl_test_machine() {
    for (formula, holds) in VERDICTS {
        for flags in [
            &["--threads", "1"][..],
            &["--threads", "2"],
            &["--threads", "2", "--por"],
        ] {
            let mut all = vec!["--ltl", formula];
            all.extend_from_slice(flags);
            let r = CheckRun::run_path(MACHINE, &[], &all, DEFAULT_TIMEOUT);
            let what = format!("{formula} {flags:?}: {}", r.json);
            let expected = if holds { "ok" } else { "ltl_violation" };
            assert_eq!(r.result(), expected, "{what}");
            assert_eq!(r.code, Some(if holds { 0 } else { 1 }), "{what}");
            if formula == "G({ card(active) = 0 })" && !flags.contains(&"--por") {
                // ProB: INITIALISATION, new, ready; the state after them is
                // the first with an active process (the reduced graph's
                // paths need not be the model's shortest).
                let trace = r.json["trace"].as_array().expect("a lasso");
                let labels: Vec<&str> = trace[..3]
                    .iter()
                    .map(|s| s["label"].as_str().expect("a label"))
                    .collect();
                assert_eq!(labels[0], "INITIALISATION", "{what}");
                assert!(labels[1].starts_with("new("), "{what}");
                assert!(labels[2].starts_with("ready("), "{what}");
                assert!(trace[2]["changes"]["active"] != "{}", "{what}");
            }
        }
    }
    let r = CheckRun::run_path(
        MACHINE,
        &[],
        &["--ltl", "G({ active < 7 })"],
        DEFAULT_TIMEOUT,
    );
    assert_eq!(r.code, Some(2), "{}", r.json);
    assert!(
        r.stderr.contains("in the LTL atom `{active < 7}`"),
        "{}",
        r.stderr
    );
}
