#!/usr/bin/env bash
# Prints a Markdown table like Table 1 of [Dobrikov, Leuschel 2014]
# (Dobrikov and Leuschel): for every partial order reduction model of
# models/, the states and transitions of the full search and of the reduced
# search (--por), the reduction, and the median wall times (search; and the
# static analysis, which the paper lists separately), once checking
# invariants and deadlocks (MC) and once deadlocks only (NoINV,
# --no-invariant). One thread, breadth-first; release build.
#
# Usage: scripts/por-table.sh [RUNS]   (default 3 runs per cell; medians)
#        POR_MODELS="Counters Sieve" scripts/por-table.sh   (a subset of the models)
#
# Runs that stop at an error (CountersInv's invariant violation,
# Philosophers' deadlock) report the states explored until then, as the
# paper's starred rows do; the verdict column says which.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release --quiet
bin=target/release/orbit

help=$("$bin" check --help)
has_por=no
has_noinv=no
grep -q -- '--por' <<<"$help" && has_por=yes
grep -q -- '--no-invariant' <<<"$help" && has_noinv=yes

models=(${POR_MODELS:-Counters CountersInv TokenRingPor Sieve Philosophers PhilosophersOrdered
        PurchaseOrder Peterson PetersonCounters Dekker})

ms() { awk -v s="$1" 'BEGIN { printf "%.1f", 1000 * s }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run MODEL FLAGS...: prints "verdict states transitions median_search_seconds
# median_analysis_seconds" (the analysis time is 0 without --por)
run() {
  local model=$1; shift
  local out times=() analysis=()
  for _ in $(seq "$runs"); do
    out=$("$bin" check "models/$model.mch" --threads 1 --json "$@" || true)
    times+=("$(jq -r .wall_seconds <<<"$out")")
    analysis+=("$(jq -r '.por.analysis_seconds // 0' <<<"$out")")
  done
  printf '%s %s %s %s %s\n' "$(jq -r .result <<<"$out")" "$(jq -r .states <<<"$out")" \
    "$(jq -r .transitions <<<"$out")" "$(ms "$(median "${times[@]}")")" \
    "$(ms "$(median "${analysis[@]}")")"
}

percent() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1f", 100 * (a - b) / a; else print "-" }'; }

echo "| model | check | verdict | states | transitions | POR states | POR transitions | states saved % | transitions saved % | time (ms) | POR time (ms) | POR analysis (ms) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
checks=(MC)
[ "$has_noinv" = yes ] && checks+=(NoINV)
for model in "${models[@]}"; do
  for check in "${checks[@]}"; do
    flags=()
    [ "$check" = NoINV ] && flags+=(--no-invariant)
    read -r verdict states transitions time _ < <(run "$model" "${flags[@]}")
    if [ "$has_por" = yes ]; then
      read -r pverdict pstates ptransitions ptime panalysis < <(run "$model" "${flags[@]}" --por)
      [ "$pverdict" = "$verdict" ] || verdict="$verdict / POR: $pverdict"
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$model" \
        "$check" "$verdict" "$states" "$transitions" "$pstates" "$ptransitions" \
        "$(percent "$states" "$pstates")" "$(percent "$transitions" "$ptransitions")" \
        "$time" "$ptime" "$panalysis"
    else
      printf '| %s | %s | %s | %s | %s | - | - | - | - | %s | - | - |\n' "$model" "$check" \
        "$verdict" "$states" "$transitions" "$time"
    fi
  done
done
[ "$has_por" = yes ] || echo
[ "$has_por" = yes ] || echo "(this orbit has no --por flag yet: full search only)"
