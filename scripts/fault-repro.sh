#!/usr/bin/env bash
# Runs the hostile inputs and faults that orbit must survive on the release
# build and prints, for each, the exit code, the wall time, the peak memory
# and the first line of the verdict or error. Expected: exit 3 with a
# partial summary for every limit, signal and fault; exit 2 with a position
# for bad input; never a crash (134, 139) or a panic (101).
#
# usage: scripts/fault-repro.sh      (builds the release binary first)
#        ORBIT=path/to/orbit scripts/fault-repro.sh   (runs that binary, e.g. an older build)
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ORBIT:-}" ]; then
  cargo build --release --locked --quiet
fi
orbit="${ORBIT:-$PWD/target/release/orbit}"
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

# Round two: limits in every loop and phase, bounds of orbit, no misreading.
printf 'var x : 0..1;\nstartstate begin x := 0; end;\nrule "spin" x = 0 ==> var c : 0..10; begin\n  for i : 0..2000000000 do for j : 0..2000000000 do c := 0; endfor; endfor;\n  x := 1;\nend;\n' > "$dir/loop.m"
run "Murphi nested for over 2*10^9, --time-limit 3s" timeout 60 "$orbit" check "$dir/loop.m" --time-limit 3s
machine While "MACHINE While
VARIABLES x
INVARIANT x : NAT
INITIALISATION x := 0
OPERATIONS spin = PRE x = 0 THEN VAR i, j IN i := 0;
  WHILE i < 100000 DO j := 0;
    WHILE j < 100000 DO j := j + 1 INVARIANT j : INTEGER VARIANT 100000 - j END;
    i := i + 1
  INVARIANT i : INTEGER VARIANT 100000 - i END
END; x := 1 END
END"
run "B nested WHILE of 10^10 iterations, --time-limit 3s" timeout 60 "$orbit" check "$dir/While.mch" --time-limit 3s
printf 'var x : 0..1;\nstartstate begin x := 0; end;\nrule "spin" x = 0 ==> var c : 0..10; begin while true do c := 0; end; x := 1; end;\n' > "$dir/while.m"
run "Murphi while true" timeout 60 "$orbit" check "$dir/while.m"
printf 'var x : 0..1;\nstartstate begin x := 0; end;\nrule "count" x = 0 ==> var c : 0..10; begin for i := 0 to 17000000 do c := 1; endfor; x := 1; end;\n' > "$dir/for.m"
run "Murphi for over 17,000,001 values" timeout 60 "$orbit" check "$dir/for.m" --no-deadlock
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
vs = [f"v{i}" for i in range(8)]
ops = []
for i in range(8):
    for j in range(8):
        if i != j:
            a, b, c = vs[i], vs[j], vs[(i + j) % 8]
            ops.append(f"op{len(ops)} = PRE {a} < {b} + {c} & {b} > 0 THEN {a} := ({a} + {b}) mod 6 END")
open(f"{d}/Por.mch", "w").write("MACHINE Por\nVARIABLES " + ", ".join(vs) + "\nINVARIANT " + " & ".join(f"{v} : 0..5" for v in vs) + "\nINITIALISATION " + " || ".join(f"{v} := 0" for v in vs) + "\nOPERATIONS\n" + ";\n".join(ops) + "\nEND\n")
lines = ["var x : 0..10;", "startstate begin x := 0; end;"]
lines += [f'rule "r{i}" x = {i % 10} ==> begin x := ({i} + x) % 10; end;' for i in range(200000)]
open(f"{d}/big.m", "w").write("\n".join(lines) + "\n")
e = " + ".join(["1"] * 60000)
open(f"{d}/plus.m", "w").write(f'var x : 0..100000;\nstartstate begin x := 0; end;\nrule "r" x = 0 ==> begin x := ({e}) % 5 + 1; end;\n')
PY
run "56 operations, check --por --time-limit 2s" timeout 60 "$orbit" check "$dir/Por.mch" --por --time-limit 2s
run "56 operations, orbit por" timeout 60 "$orbit" por "$dir/Por.mch"
machine Fl "MACHINE Fl
SETS P
VARIABLES f
INVARIANT f : P --> 0..1
INITIALISATION f := P * {0}
OPERATIONS flip(p) = PRE p : P & f(p) = 0 THEN f(p) := 1 END
END"
run "flood, 11! images per state, --time-limit 2s --memory 200MiB" timeout 60 "$orbit" check "$dir/Fl.mch" --set P=11 --symmetry flood --time-limit 2s --memory 200MiB
run "12 MB Murphi model, --memory 300MiB" timeout 60 "$orbit" check "$dir/big.m" --memory 300MiB --time-limit 20s
printf 'n=10000000 g.\nx\n' > "$dir/empty.dre"
run "orbit canon, empty graph of 10^7 vertices" timeout 60 "$orbit" canon "$dir/empty.dre"
run "orbit canon, 10^7 vertices, --memory 300MiB" timeout 60 "$orbit" canon "$dir/empty.dre" --memory 300MiB
run "orbit canon, 10^7 vertices, prlimit --as=1GB" prlimit --as=1000000000 "$orbit" canon "$dir/empty.dre"
run "Murphi chain of 60,000 \`+\`" timeout 60 "$orbit" check "$dir/plus.m" --no-deadlock
printf 'var x : 0..5;\nstartstate begin x := 0; end;\nrule "r" x < 3 ==> begin\n  alias a : x + 1 do a := 2; endalias;\n  x := x + 1;\nend;\n' > "$dir/alias.m"
run "write through \`alias a : x + 1\`" timeout 60 "$orbit" check "$dir/alias.m"
for name in A B; do
  var=$(echo "$name" | tr A-Z a-z)
  printf 'MACHINE %s\nVARIABLES %s\nINVARIANT %s : 0..3\nINITIALISATION %s := 0\nOPERATIONS inc = PRE %s < 3 THEN %s := %s + 1 END\nEND\n' \
    "$name" "$var" "$var" "$var" "$var" "$var" "$var" > "$dir/$name.mch"
done
machine Top "MACHINE Top
INCLUDES A, B
PROMOTES inc
END"
run "two included \`inc\`, PROMOTES inc" timeout 60 "$orbit" check "$dir/Top.mch"
run "msg_net.m --symmetry markers" timeout 60 "$orbit" check models/murphi/msg_net.m --symmetry markers
"$orbit" check "$dir/alias.m" --json > "$dir/refused.json" 2> /dev/null
printf '| refused model with --json | %s | | | stdout: %s |\n' "$?" "$(head -c 90 "$dir/refused.json")"
