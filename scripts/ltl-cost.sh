#!/usr/bin/env bash
# What an LTL check costs against the plain safety search of the same model
# at the same thread count, and how it scales from 1 to 2 threads. For each
# case: the safety run's wall time; the LTL phase's wall time (from the
# JSON report's `ltl` figures: the model's graph and the product's search)
# and its ratio to the safety run; the whole LTL run (safety search, then
# the LTL phase) and its ratio; on the 2-thread row, the speedup of the
# LTL phase and of the whole run over one thread; the automaton's and the
# product's states, and the verdict. Medians of RUNS interleaved runs,
# with the machine's load.
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
echo "| model | threads | states | automaton | product states | verdict | safety s | LTL phase s | phase/safety | LTL run s | run/safety | phase speedup | run speedup |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r model sets formula <<<"$case"
  for threads in 1 2; do
    safe=(); ltl=(); whole=()
    for _ in $(seq "$runs"); do
      # shellcheck disable=SC2086
      out=$("$orbit" check "$model" $sets --no-deadlock --no-assert-ltl --threads "$threads" --json || true)
      safe+=("$(echo "$out" | field wall_seconds)")
      # shellcheck disable=SC2086
      out=$("$orbit" check "$model" $sets --no-deadlock --no-assert-ltl --threads "$threads" --ltl "$formula" --json || true)
      phase=$(echo "$out" | grep -o '"ltl":\[.*\]' | field wall_seconds)
      search=$(echo "$out" | sed 's/"ltl":\[.*\]//' | field wall_seconds)
      ltl+=("$phase")
      whole+=("$(awk -v a="$phase" -v b="$search" 'BEGIN { print a + b }')")
      states=$(echo "$out" | field states)
      automaton=$(echo "$out" | field automaton_states)
      product=$(echo "$out" | field product_states)
      verdict=$(echo "$out" | grep -o '"result":"[a-z_]*"' | cut -d'"' -f4)
    done
    ms=$(printf '%s\n' "${safe[@]}" | median)
    ml=$(printf '%s\n' "${ltl[@]}" | median)
    mw=$(printf '%s\n' "${whole[@]}" | median)
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
    if [ "$threads" = 1 ]; then one_phase=$ml; one_run=$mw; up_phase=-; up_run=-; else
      up_phase=$(ratio "$one_phase" "$ml"); up_run=$(ratio "$one_run" "$mw"); fi
    echo "| $(basename "$model") $sets | $threads | $states | $automaton | $product | $verdict | $(printf %.2f "$ms") | $(printf %.2f "$ml") | $(ratio "$ml" "$ms") | $(printf %.2f "$mw") | $(ratio "$mw" "$ms") | $up_phase | $up_run |"
  done
done
