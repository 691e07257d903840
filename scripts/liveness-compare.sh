#!/usr/bin/env bash
# orbit's liveness check (AG EF p, Rumur's `liveness`) against Rumur's on
# the same model, and against orbit's own safety run of it: wall time
# (median of RUNS, interleaved run by run), peak RSS, states, for 1 and 2
# threads, and the machine's load. The liveness property is appended to a
# copy of the bundled model (the bundled models carry none, so their
# counts and times elsewhere stay those of safety runs). Both tools must
# give the same verdict and states (checked). Needs rumur and a C
# compiler (apt-get install rumur build-essential); Rumur's verifiers are
# built with -O3 -march=native, without symmetry (orbit --symmetry off).
#
# Usage: scripts/liveness-compare.sh [RUNS] [CASE...]   (default 3 runs)
#   A CASE is MODEL|CONST|VALUE|PROPERTY: a bundled model's name
#   (models/murphi/NAME.m), the constant written to VALUE, and the
#   liveness property's Murphi text appended to it.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
[ -n "${ORBIT:-}" ] || cargo build --release --quiet
orbit=${ORBIT:-$PWD/target/release/orbit}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=(
  'peterson|N|5|liveness "a process can enter" exists i: pid do pc[i] = crit endexists;'
  'peterson|N|6|liveness "a process can enter" exists i: pid do pc[i] = crit endexists;'
  'german|NODES|4|liveness "the home can fall idle" cur_cmd = empty;'
)
if [ $# -gt 0 ]; then cases=("$@"); fi

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# wall seconds and peak RSS (MB) of a command, its output in $work/out
timed() {
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>&1 || true
  read -r s kb <"$work/time"
  echo "$s $((kb / 1024))"
}

echo "Machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg); orbit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(rumur --version 2>&1 | head -1); median of $runs runs"
echo
echo "| model | threads | states | verdict | orbit safety s | orbit liveness s | liveness/safety | Rumur liveness s | orbit/Rumur time | orbit MB | Rumur MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r model const value property <<<"$case"
  plain="$work/$model-$value.m"
  sed "s/^\([[:space:]]*\)$const[[:space:]]*:[[:space:]]*[0-9]*;/\1$const: $value;/" "models/murphi/$model.m" >"$plain"
  grep -q "$const: $value;" "$plain" || { echo "no constant $const in $model" >&2; exit 1; }
  live="$work/$model-$value-live.m"
  { cat "$plain"; echo; echo "$property"; } >"$live"
  for threads in 1 2; do
    exe="$work/$model-$value-$threads"
    rumur --symmetry-reduction off --deadlock-detection off --threads "$threads" --output "$exe.c" "$live"
    cc -O3 -march=native -mcx16 -o "$exe" "$exe.c" -lpthread -latomic
    safe=(); lt=(); rt=(); lmb=0; rmb=0
    for _ in $(seq "$runs"); do
      read -r s _ < <(timed "$orbit" check "$plain" --no-deadlock --threads "$threads")
      safe+=("$s")
      read -r s mb < <(timed "$orbit" check "$live" --no-deadlock --threads "$threads" --json)
      lt+=("$s"); lmb=$mb
      ostates=$(grep -o '"states":[0-9]*' "$work/out" | head -1 | cut -d: -f2)
      overdict=$(grep -o '"result":"[a-z_]*"' "$work/out" | cut -d'"' -f4)
      read -r s mb < <(timed "$exe")
      rt+=("$s"); rmb=$mb
      rstates=$(grep -o '[0-9]* states, [0-9]* rules fired' "$work/out" | cut -d' ' -f1)
      rverdict=ok
      grep -q 'liveness property .* violated' "$work/out" && rverdict=liveness_violation
    done
    [ "$ostates" = "$rstates" ] || { echo "$model $value: orbit $ostates states, Rumur $rstates" >&2; exit 1; }
    [ "$overdict" = "$rverdict" ] || { echo "$model $value: orbit $overdict, Rumur $rverdict" >&2; exit 1; }
    ms=$(printf '%s\n' "${safe[@]}" | median)
    ml=$(printf '%s\n' "${lt[@]}" | median)
    mr=$(printf '%s\n' "${rt[@]}" | median)
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
    echo "| $model $const=$value | $threads | $ostates | $overdict | $ms | $ml | $(ratio "$ml" "$ms") | $mr | $(ratio "$ml" "$mr") | $lmb | $rmb |"
  done
done
