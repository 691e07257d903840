#!/usr/bin/env python3
"""Agreement of orbit with ProB on ProB's public example machines.

ProB's examples and the results of ProB's own runs on them are public in the
hhu-stups "specifications" repository (a checkout is not bundled: its
machines carry no licence): `prob-examples/` holds the machines,
`meta-information/prob-examples/` one EDN file per machine with ProB's
number of states and transitions, whether a deadlock state exists, whether
the invariant is violated, and the machine file's SHA-256.

For every classical-B machine whose record gives ProB's state count (and
whose file still has the recorded hash), this runs `orbit check` three
times with a time limit each: all reachable states without checks (the
count: orbit's distinct states plus its constant valuations, ProB's nodes
without the root; ProB has one setup node when a machine has PROPERTIES
but no constants, and none when its record lists neither constants nor
properties although orbit set up one valuation: ProB made each constant
that PROPERTIES only types by a deferred set, `c : S`, an element of `S`), then invariants only and deadlocks only (the verdicts,
compared with ProB's flags). ProB stops at its first error, so where it
found one its count is of the states it explored and only the verdicts
compare, and only where ProB did not stop at the other kind of error first
(orbit's count may then run out of time, or stop at a well-definedness
error on the way: it must find ProB's error).
A machine that cannot be initialised (no outcome, a variable read before
or never assigned) agrees where ProB recorded no node beyond its setup.
A machine orbit rejects as ill-formed (a type error, an operation call
that B forbids, a scope that contradicts its set; not a construct orbit
does not support, nor a file it cannot find) agrees where ProB recorded
no state either.
ProB records no state at all where its run stopped at an error (a
well-definedness error: division by zero, a function applied outside its
domain, a failing WHILE invariant, ...; every such run of ProB took under a
second); there a machine agrees where orbit stops at a well-definedness
error too. Where ProB recorded some states and orbit's count stops at a
well-definedness error, the machine agrees if orbit had explored at least
ProB's count of nodes by then: ProB's record is of the nodes it explored
before its own stop (its records have no flag for such errors).
Every run has ProB's defaults: an integer that nothing bounds is
enumerated within MININT..MAXINT (`--bound-integers`), only the
constant valuations in ProB's normal form are set up
(`--constant-symmetry`), and a function applied outside its domain in an
operation's body blocks that transition (`--undefined-blocks`: ProB's
ClosureFunOutsideDomain and abort_test record no error there). It prints how many machines agree, how many
differ, how many orbit refuses and what refuses them (the first "not
supported yet" or error line, grouped), and how many time out; with
`--csv FILE` one row per machine.

Usage: scripts/prob-corpus.py SPECS_DIR [--orbit PATH] [--timeout SECONDS]
                              [--filter REGEX] [--list FILE] [--csv FILE] [--jobs N]
                              [--orbit-arg FLAG ...]
  (--list: only the machines whose paths FILE lists, one per line)
  (git clone https://github.com/hhu-stups/specifications SPECS_DIR; build
  orbit first: cargo build --release)
"""

import argparse
import collections
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import subprocess
import sys


def edn_field(text, name):
    """The value of top-level keyword `name` in a metadata record, as text."""
    m = re.search(r"(?m)^[ {]?:%s\s+(\"[^\"]*\"|[^\s,}]+)" % re.escape(name), text)
    return m.group(1).strip('"') if m else None


def records(specs):
    """ProB's records of classical-B machines with a known state count."""
    root = os.path.join(specs, "meta-information")
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if not re.search(r"\.(mch|ref|imp|sys)\.edn$", name):
                continue
            text = open(os.path.join(dirpath, name), encoding="utf-8").read()
            if edn_field(text, "formalism") != ":b":
                continue
            states = edn_field(text, "number-of-states")
            if states is None or not states.isdigit():
                continue
            sha = re.search(r':sha256\s+"([0-9a-f]+)"', text)
            yield {
                "file": os.path.normpath(os.path.join(specs, edn_field(text, "file"))),
                "states": int(states),
                "deadlock": edn_field(text, "deadlock") == "true",
                "invariant": edn_field(text, "invariant-violated") == "true",
                "sha256": sha.group(1) if sha else None,
                # ProB sets up constants (one node per valuation) whenever
                # the machine has constants or properties.
                "setup": any((edn_field(text, k) or "0") not in ("0", ":unknown")
                             for k in ("constants", "properties")),
                # The record says there are none (not only that it does
                # not count them).
                "no_constants": all(edn_field(text, k) == "0"
                                    for k in ("constants", "properties")),
            }


# Flags added to every run (`--orbit-arg`, repeatable).
EXTRA = []


def run(orbit, path, flags, timeout):
    """Runs `orbit check` with `--json`; (JSON or None, first error line)."""
    # ProB's recorded runs do not check ASSERTIONS (machines whose
    # assertions fail have their whole state space recorded), nor the
    # ASSERT_LTL definitions (probcli checks those with -ltlassertions).
    cmd = [orbit, "check", path, "--json", "--threads", "1", "--bound-integers",
           "--constant-symmetry", "--undefined-blocks", "--no-assertions", "--no-assert-ltl",
           "--time-limit", "%ds" % timeout] + flags + EXTRA
    try:
        out = subprocess.run(cmd, capture_output=True, text=True,
                             timeout=timeout + 30, cwd=os.path.dirname(path))
    except subprocess.TimeoutExpired:
        return None, "timeout (killed)"
    try:
        return json.loads(out.stdout), ""
    except ValueError:
        lines = [l for l in out.stderr.splitlines() if l.strip()]
        first = next((l for l in lines if "not supported yet" in l),
                     lines[0] if lines else "exit %d" % out.returncode)
        return None, first


# Well-definedness errors: the model itself is faulty (not a limit of
# orbit's, such as an unbounded enumeration).
ILL_DEFINED = (r"function applied outside its domain|not a function here|division by zero"
               r"|modulo by zero|mod with a negative operand|of the empty set|of an empty set"
               r"|negative exponent|WHILE (invariant|variant)|ASSERT condition is false"
               r"|precondition \(PRE\) inside the operation.s body is false"
               r"|of the empty sequence|out of range .* of the sequence|no CASE branch"
               r"|is read before it is assigned a value|conflicting simultaneous assignments"
               r"|ASSERT_(EXPR|TRUE) failed|INTER over an empty set|inter of an empty set")


# Errors that leave a machine without an initial state (where orbit has
# stored none): INITIALISATION has no outcome, reads a variable before
# assigning it, or leaves one unassigned.
UNINITIALISED = (r"INITIALISATION has no outcome|variable `[^`]*` is not initialised"
                 r"|is read before it is assigned a value")


def blocker(message):
    """An error line without its position and names, to group refusals."""
    m = re.search(r"not supported yet: ([^(`'\"]*)", message)
    if m:
        return "not supported yet: " + m.group(1).strip()
    message = re.sub(r"^[^:]*:\d+:\d+:\s*", "", message)
    message = re.sub(r"`[^`]*`|'[^']*'|\"[^\"]*\"", "_", message)
    return re.sub(r"\d+", "N", message)[:90]


# Refusals for a limit of orbit's or of its surroundings, not for a fault
# of the machine.
NOT_ILL_FORMED = (r"not supported yet|cannot find|cannot enumerate|too large"
                  r"|no finite domain|cannot read the file")


def no_node(rec, report):
    """Whether orbit's model error leaves no state where ProB recorded none.

    No constant valuation, or no initial state: ProB has no node beyond
    its setup nodes either (its root then has no successor, which ProB
    records as a deadlock; where it reports the failed initialisation as
    an error it records no node at all). A machine orbit rejects as
    ill-formed where ProB recorded no state: ProB rejected it too. A well-definedness error where
    ProB recorded no state: ProB stopped at an error before its first.
    """
    message = report.get("message", "")
    if (report["result"] == "refused" and rec["states"] == 0
            and not re.search(NOT_ILL_FORMED, message)):
        return True  # both reject the machine
    if "PROPERTIES has no solution" in message and rec["states"] == 0:
        return True
    if (re.search(UNINITIALISED, message) and report.get("states", 0) == 0
            and rec["states"] in (0, 1 if rec["setup"] else 0)):
        return True
    return (report["result"] == "model_error" and rec["states"] == 0
            and bool(re.search(ILL_DEFINED, message)))


def stopped_alike(rec, report):
    """Whether orbit's count stopped at a well-definedness error after
    exploring at least as many nodes as ProB recorded.

    ProB records no error flag for a well-definedness error (an ASSERT
    that fails, a division by zero, a PRE that is false in a body, ...):
    it stops there, and its count is of the nodes it explored. orbit
    stopping at such an error no sooner than ProB's count is what ProB's
    record shows (with equal counts where both explore in the same order);
    orbit stopping sooner is a difference.
    """
    if report["result"] != "model_error":
        return False
    if not re.search(ILL_DEFINED, report.get("message", "")):
        return False
    explored = report.get("states", 0) + report.get("constant_valuations", 0)
    return 0 < rec["states"] <= explored


def check(orbit, rec, timeout):
    """Compares orbit with one ProB record; returns a result row."""
    row = {"file": rec["file"], "prob_states": rec["states"],
           "prob_deadlock": rec["deadlock"], "prob_invariant": rec["invariant"]}
    try:
        data = open(rec["file"], "rb").read()
    except OSError:
        row["outcome"] = "missing"
        return row
    if rec["sha256"] and hashlib.sha256(data).hexdigest() != rec["sha256"]:
        row["outcome"] = "changed"
        return row
    report, error = run(orbit, rec["file"], ["--no-deadlock", "--no-invariant"], timeout)
    if report is not None and report["result"] not in ("ok", "stopped") and (
            no_node(rec, report) or stopped_alike(rec, report)):
        row["detail"] = report.get("message", "")
        row["outcome"] = "agrees"
        return row
    if report is not None and report["result"] == "refused":
        row["detail"] = report.get("message", "")
        row["outcome"] = "refused"
        return row
    # Where ProB stopped at an error only the verdicts compare: a count
    # that does not finish in time leaves them to decide.
    found_error = rec["deadlock"] or rec["invariant"]
    unfinished = (report is None and error.startswith("timeout")) or (
        report is not None and report["result"] == "stopped")
    # A count stopped by an error in the model (a well-definedness error
    # on the way) leaves the verdicts to decide too: the checks may meet
    # ProB's error first.
    stopped_by = None
    if found_error and report is not None and report["result"] == "model_error":
        stopped_by = report
        unfinished = True
    if unfinished and found_error:
        report = None
    elif report is None:
        row["detail"] = error
        if error.startswith("timeout"):
            row["outcome"] = "timeout"
        elif rec["states"] == 0 and re.search(UNINITIALISED, error):
            # The machine cannot be initialised: ProB has no node either.
            row["outcome"] = "agrees"
        else:
            row["outcome"] = "refused"
        return row
    elif report["result"] == "stopped":
        row["outcome"] = "timeout"
        return row
    if report is not None and report["result"] != "ok":
        row["detail"] = report.get("message", "")
        row["outcome"] = "stopped by " + report["result"]
        return row
    states = None
    if report is not None:
        valuations = report.get("constant_valuations", 0)
        if valuations == 0 and rec["setup"]:
            valuations = 1  # PROPERTIES without constants: one setup node
        elif valuations == 1 and rec["no_constants"]:
            # ProB's record lists neither constants nor properties: it made
            # each constant that PROPERTIES only types by a deferred set
            # (`c : S`) an element of that set, and sets up nothing.
            valuations = 0
        states = report["states"] + valuations
        row["orbit_states"] = states
    verdicts = []
    for flags, key, result in (
        (["--no-deadlock"], "prob_invariant", "invariant_violation"),
        (["--no-invariant"], "prob_deadlock", "deadlock"),
    ):
        other = "prob_deadlock" if key == "prob_invariant" else "prob_invariant"
        if row[other] and not row[key]:
            # ProB stopped at its other error: not finding this one there
            # says nothing.
            verdicts.append(None)
            continue
        verdict, _ = run(orbit, rec["file"], flags, timeout)
        if verdict is None or verdict["result"] in ("stopped", "model_error"):
            verdicts.append(None)
        else:
            verdicts.append((verdict["result"] == result) == row[key])
    row["verdicts_agree"] = verdicts
    # ProB stops at its first error, so its count is the whole state space
    # only where it found none; elsewhere only the verdicts compare.
    counts = states == rec["states"] or found_error
    # Without a count, orbit must have found ProB's error itself.
    found = states is not None or any(verdicts)
    if counts and found and all(v is not False for v in verdicts):
        row["outcome"] = "agrees"
    elif not found and not any(v is False for v in verdicts):
        if stopped_by is not None:
            row["detail"] = stopped_by.get("message", "")
            row["outcome"] = "stopped by model_error"
        else:
            row["outcome"] = "timeout"  # neither the count nor a verdict finished
    else:
        row["outcome"] = "differs"
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs")
    host = subprocess.run(["rustc", "-vV"], capture_output=True, text=True).stdout
    host = next((l.split()[1] for l in host.splitlines() if l.startswith("host:")), "")
    ap.add_argument("--orbit", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "target", host, "release", "orbit"))
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--filter", default="")
    ap.add_argument("--list")
    ap.add_argument("--csv")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--orbit-arg", action="append", default=[],
                    help="a flag added to every orbit run (repeatable), e.g. --orbit-arg=--solver=enumerate")
    args = ap.parse_args()
    EXTRA.extend(args.orbit_arg)
    orbit = os.path.abspath(args.orbit)
    recs = [r for r in records(os.path.abspath(args.specs)) if re.search(args.filter, r["file"])]
    if args.list:
        wanted = {os.path.abspath(l.strip()) for l in open(args.list) if l.strip()}
        recs = [r for r in recs if r["file"] in wanted]
    print("%d machines with ProB's state count" % len(recs), file=sys.stderr)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda r: check(orbit, r, args.timeout), recs))
    outcomes = collections.Counter(r["outcome"] for r in rows)
    ran = len(rows) - outcomes["missing"] - outcomes["changed"]
    print("machines: %d (ProB's count known, file as recorded)" % ran)
    for outcome, n in outcomes.most_common():
        print("  %-28s %5d  %5.1f%%" % (outcome, n, 100.0 * n / max(ran, 1)))
    blockers = collections.Counter(blocker(r.get("detail", "")) for r in rows
                                   if r["outcome"] == "refused")
    print("refused, by first error (grouped):")
    for what, n in blockers.most_common(40):
        print("  %5d  %s" % (n, what))
    differs = [r for r in rows if r["outcome"] == "differs"]
    print("differing (first 40):")
    for r in differs[:40]:
        print("  %s: ProB %d states, orbit %s; verdicts agree %s" % (
            os.path.relpath(r["file"], args.specs), r["prob_states"],
            r.get("orbit_states"), r.get("verdicts_agree")))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            keys = ["file", "outcome", "prob_states", "orbit_states", "prob_deadlock",
                    "prob_invariant", "verdicts_agree", "detail"]
            w = csv.DictWriter(f, keys, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
