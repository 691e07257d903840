#!/usr/bin/env bash
# Runs the hostile inputs and faults that orbit must survive on the release
# build and prints, for each, the exit code, the wall time, the peak memory
# and the first line of the verdict or error. Expected: exit 3 with a
# partial summary for every limit, signal and fault; exit 2 with a position
# for bad input; never a crash (134, 139) or a panic (101).
#
# usage: scripts/fault-repro.sh      (builds the release binary first)
set -uo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
orbit="$PWD/target/release/orbit"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

machine() { # machine NAME TEXT: writes $dir/NAME.mch
  printf '%s\n' "$2" > "$dir/$1.mch"
}
chain() { # chain TERM OP N
  python3 -c "import sys; print(sys.argv[2].join([sys.argv[1]] * int(sys.argv[3])))" "$1" "$2" "$3"
}
run() { # run LABEL COMMAND...
  local label=$1; shift
  local start end code peak
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$dir/time" "$@" > "$dir/out" 2> "$dir/err"
  code=$?
  end=$(date +%s.%N)
  peak=$(tail -1 "$dir/time" 2>/dev/null)
  local first
  first=$(cat "$dir/out" "$dir/err" \
    | grep -m1 -E 'incomplete|no error|error|violation|deadlock|stopped' | cut -c1-110)
  printf '| %s | %s | %.1f s | %s MiB | %s |\n' "$label" "$code" "$(echo "$end - $start" | bc)" \
    "$(( ${peak:-0} / 1024 ))" "$first"
}

printf '| reproducer | exit | time | peak RSS | first line |\n|---|---|---|---|---|\n'

machine Inv "MACHINE Inv
VARIABLES x
INVARIANT x : 0..2
INITIALISATION x := 0
OPERATIONS inc = x := x + 1
END"
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
  chmod -R a+rX "$dir"
  for nproc in 1 3; do
    run "at most $nproc threads (prlimit --nproc=$nproc, non-root), --threads 2" \
      setpriv --reuid=nobody --regid=nogroup --clear-groups prlimit --nproc=$nproc "$orbit" check "$dir/Inv.mch" --threads 2
  done
fi

for spec in "+:1:7000" "-:1:10000" "\\/:{1}:10000" "|->:1:10000" "^:[1]:10000"; do
  op=${spec%%:*}; rest=${spec#*:}; term=${rest%:*}; n=${rest##*:}
  machine Chain "MACHINE Chain
VARIABLES x, y
INVARIANT x : NAT & y = y
INITIALISATION x := 0 ; y := $(chain "$term" " $op " "$n")
OPERATIONS op = SELECT x = 0 THEN x := 1 END
END"
  run "\`$op\` chain of $n, 2 threads" "$orbit" check "$dir/Chain.mch" --threads 2 --no-deadlock
done
for spec in "or:x >= 0:5000" "=>:x = 0:10000"; do
  op=${spec%%:*}; rest=${spec#*:}; term=${rest%:*}; n=${rest##*:}
  machine Chain "MACHINE Chain
VARIABLES x
INVARIANT x : NAT & ($(chain "$term" " $op " "$n"))
INITIALISATION x := 0
OPERATIONS op = SELECT x = 0 THEN x := 1 END
END"
  run "\`$op\` chain of $n, 2 threads" "$orbit" check "$dir/Chain.mch" --threads 2 --no-deadlock
done
machine Chain "MACHINE Chain
VARIABLES x
INVARIANT x : INTEGER
INITIALISATION x := $(chain 1 " + " 25000)
END"
run "\`+\` chain of 25000 (past the limit)" "$orbit" check "$dir/Chain.mch"
machine Seq "MACHINE Seq
VARIABLES x
INVARIANT x : INTEGER
INITIALISATION x := 0
OPERATIONS op = PRE x = 0 THEN $(chain "x := x + 1" " ; " 10000) END
END"
run "\`;\` sequence of 10000, 2 threads" "$orbit" check "$dir/Seq.mch" --threads 2 --no-deadlock
run "\`;\` sequence of 10000, orbit por" "$orbit" por "$dir/Seq.mch"
run "\`;\` sequence of 10000, orbit graph" "$orbit" graph "$dir/Seq.mch" --state 1

machine Consts "MACHINE Consts
CONSTANTS f
PROPERTIES f : 1..12 --> 1..12 & f(1) = 13
VARIABLES x
INVARIANT x : NAT
INITIALISATION x := 0
END"
run "unsatisfiable constants, --time-limit 5s" "$orbit" check "$dir/Consts.mch" --time-limit 5s
machine Pow "MACHINE Pow
VARIABLES x
INVARIANT x <: 1..30
INITIALISATION x :: POW(1..30)
END"
run "x :: POW(1..30), --time-limit 10s --memory 200MiB" "$orbit" check "$dir/Pow.mch" --time-limit 10s --memory 200MiB
machine Nat "MACHINE Nat
VARIABLES x
INVARIANT x : NAT
INITIALISATION x := 0
OPERATIONS set(p) = PRE p : NAT THEN x := p END
END"
run "p : NAT with --maxint 2^62, --time-limit 5s" "$orbit" check "$dir/Nat.mch" --maxint 4611686018427387904 --time-limit 5s
machine Card "MACHINE Card
CONSTANTS c
PROPERTIES c = card((1..12) --> (1..4))
VARIABLES x
INVARIANT x : NAT
INITIALISATION x := 0
END"
run "card((1..12) --> (1..4)), --time-limit 5s" "$orbit" check "$dir/Card.mch" --time-limit 5s
machine Grow "MACHINE Grow
VARIABLES s
INVARIANT s <: NATURAL
INITIALISATION s := {}
OPERATIONS grow = s := s \\/ {card(s)}
END"
run "growing set of integers, --memory 64MiB" "$orbit" check "$dir/Grow.mch" --memory 64MiB
run "TokenRing Servers=7 --compact, --memory 100MiB" "$orbit" check models/TokenRing.mch --set Servers=7 --compact --memory 100MiB --no-deadlock
run "TokenRing Servers=7 under prlimit --as=1.5GB" prlimit --as=1500000000 "$orbit" check models/TokenRing.mch --set Servers=7 --no-deadlock
run "--time-limit 1e20" "$orbit" check models/scheduler0.mch --time-limit 1e20
machine Wide "MACHINE Wide
VARIABLES x
INVARIANT x : 0..100000
INITIALISATION x := 0
OPERATIONS set(v) = PRE v : 0..100000 THEN x := v END
END"
"$orbit" check "$dir/Wide.mch" --max-states 1000 --threads 2 --json > "$dir/wide.json"
printf '| 100,000 successors per state, --max-states 1000, 2 threads | %s | | | states stored: %s |\n' \
  "$?" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["states"])' "$dir/wide.json")"
"$orbit" check models/scheduler0.mch --max-states 0 --json > "$dir/zero.json"
printf '| --max-states 0 | %s | | | states stored: %s |\n' \
  "$?" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["states"])' "$dir/zero.json")"
run "--set PROC=3 --set PROC=4" "$orbit" check models/scheduler0.mch --set PROC=3 --set PROC=4
run "--threads 300" "$orbit" check models/scheduler0.mch --threads 300
run "graph --state 18446744073709551615" "$orbit" graph models/scheduler0.mch --state 18446744073709551615
printf 'MACHINE Bytes\nVARIABLES x\xff\nEND\n' > "$dir/Bytes.mch"
run "non-UTF-8 input" "$orbit" check "$dir/Bytes.mch"
python3 -c "print('MACHINE Long\nVARIABLES x\nINVARIANT x : NAT & ' + ' & '.join(['x = x'] * 200000) + ' & @\nEND')" > "$dir/Long.mch"
"$orbit" check "$dir/Long.mch" > /dev/null 2> "$dir/long.err"
code=$?
printf '| error on a %s-byte line | %s | | | diagnostic of %s bytes |\n' "$(wc -c < "$dir/Long.mch")" "$code" "$(wc -c < "$dir/long.err")"
"$orbit" check models/scheduler0.mch --set PROC=5 | head -1 > /dev/null
printf '| orbit check ... \\| head -1 | %s | | | |\n' "${PIPESTATUS[0]}"
for signal in INT TERM; do
  "$orbit" check models/scheduler0.mch --set PROC=14 --no-deadlock --json > "$dir/sig.json" 2> /dev/null &
  pid=$!
  sleep 2
  kill -s "$signal" "$pid"
  wait "$pid"
  code=$?
  printf '| SIG%s after 2 s | %s | | | stopped: %s, states: %s |\n' "$signal" "$code" \
    "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("stopped"))' "$dir/sig.json")" \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["states"])' "$dir/sig.json")"
done
"$orbit" -v check models/scheduler0.mch --set PROC=2 2> "$dir/log" > /dev/null
printf '| -v with stderr to a file | %s | | | ANSI escapes in the log: %s |\n' "$?" "$(grep -c $'\x1b' "$dir/log")"
