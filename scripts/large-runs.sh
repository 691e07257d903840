#!/usr/bin/env bash
# Time and bytes per state of the large runs (German with 5 nodes, about 11
# million states, in Murphi and in B, no symmetry, 2 threads) for one or
# more orbit binaries, run interleaved: median wall time, median peak RSS
# and the store's bytes per state of RUNS runs each, and the machine's load.
#
# Usage: scripts/large-runs.sh [RUNS] [BINARY...]
#   (default: 3 runs of target/release/orbit, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  cargo build --release --quiet
  bins=(target/release/orbit)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/^\([[:space:]]*\)NODES[[:space:]]*:[[:space:]]*[0-9]*;/\1NODES: 5;/' models/murphi/german.m >"$work/german5.m"
cases=("Murphi german NODES=5|$work/german5.m" "B German NODE=5|models/German.mch --set NODE=5")
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

echo "Machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start; median of $runs interleaved runs, 2 threads"
echo
echo "| model | binary | states | wall s | peak MB | store bytes/state |"
echo "|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r label args <<<"$case"
  declare -A times=() peaks=() bps=() states=()
  for _ in $(seq "$runs"); do
    for bin in "${bins[@]}"; do
      # shellcheck disable=SC2086
      out=$("$bin" check $args --threads 2 --json)
      [ "$(field "$out" result)" = ok ] || { echo "$bin $label: $out" >&2; exit 1; }
      states[$bin]=$(field "$out" states)
      times[$bin]+="$(field "$out" wall_seconds) "
      peaks[$bin]+="$(field "$out" peak_memory_bytes) "
      bps[$bin]+="$(field "$out" store_bytes_per_state) "
    done
  done
  for bin in "${bins[@]}"; do
    t=$(tr ' ' '\n' <<<"${times[$bin]}" | grep . | median)
    p=$(tr ' ' '\n' <<<"${peaks[$bin]}" | grep . | median)
    b=$(tr ' ' '\n' <<<"${bps[$bin]}" | grep . | median)
    printf '| %s | %s | %s | %.2f | %.1f | %.2f |\n' "$label" "$bin" "${states[$bin]}" "$t" "$(echo "$p/1000000" | bc -l)" "$b"
  done
  unset times peaks bps states
done
echo
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
