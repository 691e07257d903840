#!/usr/bin/env bash
# Prints the checking speed of the issue's speed targets (one thread, no
# symmetry): states, wall time (median of N runs) and states per second.
# Usage: scripts/check-speed.sh [RUNS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release --quiet
bin=target/release/orbit
printf '%-32s %10s %10s %14s %s\n' model states "median s" "states/s" target
run() {
  local label=$1 target=$2; shift 2
  local times=() states=0
  for _ in $(seq "$runs"); do
    out=$("$bin" check "$@" --no-deadlock --threads 1 --json)
    states=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["states"])' "$out")
    times+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["wall_seconds"])' "$out")")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  rate=$(python3 -c "print(int($states / $median) if $median > 0 else 0)")
  printf '%-32s %10s %10.3f %14s %s\n' "$label" "$states" "$median" "$rate" "$target"
}
run "scheduler1 PROC=6"          "< 0.3 s"          models/scheduler1.mch --set PROC=6
run "USB_4Endpoints TRANSFERS=3" "< 1 s"            models/USB_4Endpoints.mch --set TRANSFERS=3
run "scheduler0 PROC=9"          ">= 500000 st/s"   models/scheduler0.mch --set PROC=9
