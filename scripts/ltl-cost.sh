#!/usr/bin/env bash
# What an LTL check costs against the plain safety search of the same model
# at the same thread count, and how the product's construction scales from
# 1 to 2 threads. For each case: the safety run's wall time, the LTL
# phase's wall time (from the JSON report's `ltl` figures), their ratio,
# the automaton's and the product's states, and the verdict; medians of
# RUNS interleaved runs, with the machine's load.
#
# Usage: scripts/ltl-cost.sh [RUNS] [CASE...]   (default 3 runs)
#   A CASE is MODEL|SETS|FORMULA: a model file, `--set` flags (space
#   separated, may be empty) and an LTL formula in ProB's syntax.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
[ -n "${ORBIT:-}" ] || cargo build --release --quiet
orbit=${ORBIT:-$PWD/target/release/orbit}

cases=(
  'models/murphi/german.m|--set NODES=4|G ({cur_cmd = req_exclusive} => F {cur_cmd = empty})'
  'models/German.mch|--set NODE=4|G ({cur_cmd = req_exclusive} => F {cur_cmd = empty})'
  'models/murphi/peterson.m|--set N=6|G F {exists i: pid do pc[i] = crit endexists}'
)
if [ $# -gt 0 ]; then cases=("$@"); fi

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { grep -o "\"$1\":[0-9.e+-]*" | head -1 | cut -d: -f2; }

echo "Machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg); orbit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); median of $runs runs"
echo
echo "| model | threads | states | automaton | product states | verdict | safety s | LTL s | LTL/safety |"
echo "|---|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r model sets formula <<<"$case"
  for threads in 1 2; do
    safe=(); ltl=()
    for _ in $(seq "$runs"); do
      # shellcheck disable=SC2086
      out=$("$orbit" check "$model" $sets --no-deadlock --no-assert-ltl --threads "$threads" --json || true)
      safe+=("$(echo "$out" | field wall_seconds)")
      # shellcheck disable=SC2086
      out=$("$orbit" check "$model" $sets --no-deadlock --no-assert-ltl --threads "$threads" --ltl "$formula" --json || true)
      ltl+=("$(echo "$out" | grep -o '"ltl":\[.*\]' | field wall_seconds)")
      states=$(echo "$out" | field states)
      automaton=$(echo "$out" | field automaton_states)
      product=$(echo "$out" | field product_states)
      verdict=$(echo "$out" | grep -o '"result":"[a-z_]*"' | cut -d'"' -f4)
    done
    ms=$(printf '%s\n' "${safe[@]}" | median)
    ml=$(printf '%s\n' "${ltl[@]}" | median)
    ratio=$(awk -v a="$ml" -v b="$ms" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    echo "| $(basename "$model") $sets | $threads | $states | $automaton | $product | $verdict | $ms | $ml | $ratio |"
  done
done
