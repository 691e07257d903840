#!/usr/bin/env bash
# Bytes per state, peak memory and time of the three stores (--store
# exact|tree|compact) on the bundled models big enough to measure, runs
# interleaved, medians of RUNS; prints a Markdown table and the load.
# Usage: scripts/store-compare.sh [RUNS] [THREADS]   (defaults 3 and 1)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
threads=${2:-1}
cargo build --release --quiet
bin=target/release/orbit
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); threads: $threads; medians of $runs"
echo
echo "| model | states | state bytes | store | bytes/state | tree nodes | peak RSS | time |"
echo "|---|---|---|---|---|---|---|---|"
row() {
  local label=$1; shift
  declare -A times peaks json
  for _ in $(seq "$runs"); do
    for store in exact tree compact; do
      out=$(/usr/bin/time -f '%M' -o /tmp/store-compare.rss \
        "$bin" check "$@" --no-deadlock --threads "$threads" --store "$store" --json || true)
      json[$store]=$out
      times[$store]+="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["wall_seconds"])' "$out") "
      peaks[$store]+="$(cat /tmp/store-compare.rss) "
    done
  done
  for store in exact tree compact; do
    python3 - "$label" "$store" "${json[$store]}" "${times[$store]}" "${peaks[$store]}" <<'PY'
import json, statistics, sys
label, store, out, times, peaks = sys.argv[1:]
r = json.loads(out)
t = statistics.median(float(x) for x in times.split())
p = statistics.median(int(x) for x in peaks.split()) / 1024
per = r.get("store_bytes_per_state")
per = f"{per:.1f}" if per is not None else "-"
nodes = f"{r['tree_nodes']:,}" if "tree_nodes" in r else "-"
state = r["state_bytes"] if store != "compact" else "(8: fingerprint)"
print(f"| {label} | {r['states']:,} | {state} | {store} | {per} | {nodes} | {p:.1f} MB | {t:.2f} s |")
PY
  done
}
row "WideCounters LEVEL=5"   models/WideCounters.mch --set LEVEL=5
row "Dining"                 models/Dining.mch
row "PetersonN PID=6"        models/PetersonN.mch --set PID=6
row "scheduler0 PROC=11"     models/scheduler0.mch --set PROC=11
row "German NODES=4 (Murphi)" models/murphi/german.m --set NODES=4
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
