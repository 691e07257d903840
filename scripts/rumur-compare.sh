#!/usr/bin/env bash
# Same-state-space comparison of orbit with Rumur on the bundled Murphi
# models: both explore the same program with the same counts (checked here;
# models/murphi/EXPECTED.md). Prints wall time (median of RUNS, interleaved
# run by run), states per second and peak RSS for 1 and 2 threads, with and
# without symmetry (orbit canon vs Rumur exhaustive, both exact), and the
# machine's load; for the symmetry rows also Rumur's inexact default
# (`heuristic`) time. Needs rumur and a C compiler (apt-get install rumur
# build-essential); Rumur's verifiers are built with -O3 -march=native.
#
# Usage: scripts/rumur-compare.sh [RUNS] [CASE...]   (default 3 runs)
#   A CASE is MODEL|CONST|VALUE|SYMMETRY: MODEL a bundled model's name
#   (models/murphi/NAME.m) or a path to any .m file (CMurphi's examples,
#   say), CONST=VALUE written into it (CONST empty: run it as it is),
#   SYMMETRY off or canon. Without cases, the bundled set below runs.
#   A case may end in |BFILE|BSET: a B machine with the same state space
#   (models/PetersonN.mch is peterson.m in B, models/German.mch is
#   german.m), checked with --set BSET=VALUE, whose count must agree and
#   whose time and memory fill the B columns.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
[ -n "${ORBIT:-}" ] || cargo build --release --quiet
orbit=${ORBIT:-$PWD/target/release/orbit}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# model | constant | value | symmetry (off|canon)
cases=(
  "german|NODES|4|off|models/German.mch|NODE"
  "german|NODES|5|canon|models/German.mch|NODE"
  "peterson|N|5|off|models/PetersonN.mch|PID"
  "peterson|N|6|canon|models/PetersonN.mch|PID"
)
if [ $# -gt 0 ]; then cases=("$@"); fi

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "Machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg); orbit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(rumur --version 2>&1 | head -1); median of $runs runs"
echo
echo "| model | symmetry | threads | states | orbit s | Rumur s | orbit/Rumur time | orbit MB | Rumur MB | orbit/Rumur memory | Rumur heuristic s | orbit B s | orbit B MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r model const value sym btwin bset <<<"$case"
  file="models/murphi/$model.m"
  if [ -f "$model" ]; then file=$model; model=$(basename "$model" .m); fi
  src="$work/$model-$value.m"
  if [ -n "$const" ]; then
    sed "s/^\([[:space:]]*\)$const[[:space:]]*:[[:space:]]*[0-9]*;/\1$const: $value;/" "$file" >"$src"
    grep -q "$const: $value;" "$src" || { echo "no constant $const in $file" >&2; exit 1; }
  else
    cp "$file" "$src"
  fi
  rsym=off; osym=off
  if [ "$sym" = canon ]; then rsym=exhaustive; osym=canon; fi
  for threads in 1 2; do
    exe="$work/$model-$value-$sym-$threads"
    rumur --symmetry-reduction "$rsym" --deadlock-detection off --threads "$threads" --output "$exe.c" "$src"
    cc -O3 -march=native -mcx16 -o "$exe" "$exe.c" -lpthread -latomic
    if [ "$sym" = canon ]; then
      rumur --symmetry-reduction heuristic --deadlock-detection off --threads "$threads" --output "$exe-h.c" "$src"
      cc -O3 -march=native -mcx16 -o "$exe-h" "$exe-h.c" -lpthread -latomic
    fi
    ot=(); rt=(); om=(); rm=(); ht=(); bt=(); bm=(); ostates=0; rstates=0; bstates=
    for _ in $(seq "$runs"); do
      if [ -n "${btwin:-}" ]; then
        out=$(/usr/bin/time -f '%e %M' "$orbit" check "$btwin" --set "$bset=$value" --symmetry "$osym" --no-deadlock --threads "$threads" --json 2>"$work/time")
        bstates=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["states"])' "$out")
        read -r t m <"$work/time"; bt+=("$t"); bm+=("$m")
      fi
      out=$(/usr/bin/time -f '%e %M' "$orbit" check "$src" --symmetry "$osym" --no-deadlock --threads "$threads" --json 2>"$work/time")
      ostates=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["states"])' "$out")
      read -r t m <"$work/time"; ot+=("$t"); om+=("$m")
      /usr/bin/time -f '%e %M' "$exe" >"$work/rout" 2>"$work/time" || true
      rstates=$(grep -o '[0-9]* states, ' "$work/rout" | grep -o '[0-9]*' | head -1)
      t=$(tail -1 "$work/time" | cut -d' ' -f1); m=$(tail -1 "$work/time" | cut -d' ' -f2); rt+=("$t"); rm+=("$m")
      if [ "$sym" = canon ]; then
        /usr/bin/time -f '%e %M' "$exe-h" >/dev/null 2>"$work/time" || true
        ht+=("$(tail -1 "$work/time" | cut -d' ' -f1)")
      fi
    done
    if [ "$ostates" != "$rstates" ]; then
      echo "state counts differ on $model $const=$value: orbit $ostates, Rumur $rstates" >&2
      exit 1
    fi
    if [ -n "$bstates" ] && [ "$bstates" != "$ostates" ]; then
      echo "state counts differ on $btwin $bset=$value: B $bstates, Murphi $ostates" >&2
      exit 1
    fi
    b=-; bmb=-
    if [ ${#bt[@]} -gt 0 ]; then
      b=$(printf '%s\n' "${bt[@]}" | median); bmb=$(printf '%s\n' "${bm[@]}" | median)
    fi
    o=$(printf '%s\n' "${ot[@]}" | median); r=$(printf '%s\n' "${rt[@]}" | median)
    omb=$(printf '%s\n' "${om[@]}" | median); rmb=$(printf '%s\n' "${rm[@]}" | median)
    h=-; if [ ${#ht[@]} -gt 0 ]; then h=$(printf '%s\n' "${ht[@]}" | median); fi
    label=$model; if [ -n "$const" ]; then label="$model $const=$value"; fi
    python3 - "$label" "$sym" "$threads" "$ostates" "$o" "$r" "$omb" "$rmb" "$h" "$b" "$bmb" <<'PY'
import sys
name, sym, threads, states, o, r, om, rm, h, b, bm = sys.argv[1:]
o, r, om, rm = float(o), float(r), float(om) / 1024, float(rm) / 1024
ratio = lambda a, b: f"{a / b:.2f}x" if b > 0 else "-"
bm = f"{float(bm) / 1024:.0f}" if bm != "-" else "-"
print(f"| {name} | {sym} | {threads} | {int(states):,} | {o:.2f} | {r:.2f} | {ratio(o, r)} | {om:.0f} | {rm:.0f} | {ratio(om, rm)} | {h} | {b} | {bm} |")
PY
  done
done
