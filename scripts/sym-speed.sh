#!/usr/bin/env bash
# Symmetry reduction speed on the thesis machines at the largest
# cardinalities of Tables 4.1/4.2 (models/EXPECTED.md), against ProB's times
# in those tables (ProB 1.2.7 on a 2 GHz AMD dual core of 2008: the ratio is
# a ratio of times on different machines, not a like-for-like comparison).
#
# Runs every mode (off, canon, flood, markers, markers-exact) with one
# thread, RUNS times each (median wall time), and prints a Markdown table.
# A run that exceeds LIMIT seconds is stopped and reported as "> LIMIT s".
#
# Usage: scripts/sym-speed.sh [RUNS] [LIMIT]   (defaults 3 and 60)
# Columns: states and constant valuations as orbit counts them; "ProB
# nodes" is the ProB-style count (1 + valuations + states) to compare with
# the tables; "ProB s" is the table's time for the matching method (off: wo,
# canon: nausym, flood: flood, markers: hash; markers-exact has none);
# "ProB s / orbit s" is how many times less time orbit took.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
limit=${2:-60}
cargo build --release --quiet
bin=target/release/orbit

# model | --set arguments | card | ProB times: wo flood hash nausym ("*": not done)
cases=(
  "scheduler0|--set PROC=7|7|115.01 55.07 1.00 1.28"
  "scheduler1|--set PROC=20|20|* * 141.96 257.16"
  "RussianPostalPuzzle|--set KeyIDs=5|5|64.52 15.91 2.58 5.57"
  "TokenRing|--set Servers=7|7|* * 4.27 33.86"
  "Dining|--set Phil=4 --set Forks=4|4|145.53 18.13 0.15 0.54"
  "USB_4Endpoints|--set TRANSFERS=3|3|1533.54 265.19 208.40 297.43"
)
modes=(off canon flood markers markers-exact)

echo "Machine: $(nproc) cores, $(uname -m); orbit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), --threads 1, median of $runs runs, limit $limit s"
echo
echo "| model | card | mode | states | ProB nodes | median s | ProB s | ProB s / orbit s |"
echo "|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r model sets card prob <<<"$case"
  read -r t_wo t_flood t_hash t_nausym <<<"$prob"
  for mode in "${modes[@]}"; do
    case $mode in
      off) t_prob=$t_wo ;;
      canon) t_prob=$t_nausym ;;
      flood) t_prob=$t_flood ;;
      markers) t_prob=$t_hash ;;
      *) t_prob="-" ;;
    esac
    times=() states="" nodes="" stopped=""
    for _ in $(seq "$runs"); do
      # shellcheck disable=SC2086
      out=$(timeout $((limit + 30)) "$bin" check "models/$model.mch" $sets --symmetry "$mode" \
        --no-deadlock --threads 1 --time-limit "${limit}s" --json || true)
      if [ -z "$out" ]; then stopped=1; break; fi
      read -r result st cv wall < <(python3 -c '
import json, sys
j = json.loads(sys.argv[1])
print(j["result"], j["states"], j.get("constant_valuations", 0), j["wall_seconds"])' "$out")
      if [ "$result" = stopped ]; then stopped=1; break; fi
      states=$st
      nodes=$((1 + cv + st))
      times+=("$wall")
    done
    if [ -n "$stopped" ]; then
      printf '| %s | %s | %s | - | - | > %s | %s | - |\n' "$model" "$card" "$mode" "$limit" "$t_prob"
      continue
    fi
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    ratio=$(python3 -c '
import sys
t, p = float(sys.argv[1]), sys.argv[2]
print("-" if p in ("-", "*") else f"{float(p) / max(t, 1e-6):,.0f}")' "$median" "$t_prob")
    printf '| %s | %s | %s | %s | %s | %.3f | %s | %s |\n' \
      "$model" "$card" "$mode" "$states" "$nodes" "$median" "$t_prob" "$ratio"
  done
done
