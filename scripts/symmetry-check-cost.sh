#!/usr/bin/env bash
# What the symmetry soundness check costs: one-thread instruction counts
# (callgrind) of symmetry-reduced runs with the check (the default) and
# with --no-symmetry-check, on models of the three front ends. Counts do
# not depend on the machine's load. Needs valgrind.
#
# Usage: scripts/symmetry-check-cost.sh [BINARY]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=target/release/orbit
fi
cases=(
  "Murphi german NODES=4, canon|models/murphi/german.m --set NODES=4 --symmetry canon"
  "Murphi german NODES=5, canon|models/murphi/german.m --set NODES=5 --symmetry canon"
  "Murphi german NODES=4, markers-exact|models/murphi/german.m --set NODES=4 --symmetry markers-exact"
  "B German NODE=4, canon|models/German.mch --set NODE=4 --symmetry canon"
  "Promela peterson5, canon|models/promela/peterson5.pml --symmetric user --symmetry canon"
)
count() {
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" check $1 --threads 1 --json 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "| run | states | with check | without | cost |"
echo "|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r label args <<<"$case"
  # shellcheck disable=SC2086
  states=$("$bin" check $args --threads 1 --json 2>/dev/null | sed -n 's/.*"states":\([0-9]*\).*/\1/p')
  with=$(count "$args")
  without=$(count "$args --no-symmetry-check")
  cost=$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%+.2f%%", 100 * (a - b) / b }')
  echo "| $label | $states | $with | $without | $cost |"
done
