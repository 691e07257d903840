#!/usr/bin/env bash
# The distributed search against one process on this machine: one
# process of 2 threads against `mpirun -np 2` ranks of 1 thread (wall
# time, median of RUNS, interleaved run by run), what the ranks sent per
# state, and each rank's store against the single process's store; then
# `-np 3` and `-np 4` (oversubscribed) once each, for their counts only.
# Every run must report the single process's states and transitions
# (checked). Needs Open MPI (apt-get install libopenmpi-dev openmpi-bin
# libclang-dev); builds the orbit-mpi binary unless ORBIT names one.
#
# Usage: scripts/distributed-compare.sh [RUNS] [CASE...]   (default 3 runs)
#   A CASE is MODEL|NAME=VALUE: a model file and the constant it is run with.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
[ -n "${ORBIT:-}" ] || cargo build --release --locked --quiet -p orbit-mpi --features mpi
orbit=${ORBIT:-$PWD/target/release/orbit-mpi}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi=(mpirun --allow-run-as-root --oversubscribe)

cases=('models/murphi/german.m|NODES=5' 'models/German.mch|NODE=5')
if [ $# -gt 0 ]; then cases=("$@"); fi

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# wall seconds of a command; its JSON report in $work/out
timed() {
  /usr/bin/time -f '%e' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || true
  cat "$work/time"
}
# a field of the JSON report in $work/out
field() { python3 -c "import json,sys; r=json.load(open('$work/out')); print(eval(sys.argv[1]))" "$1"; }

echo "Machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg); orbit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(mpirun --version 2>&1 | head -1); median of $runs runs"
echo
echo "| model | states | 1 process x 2 threads s | 2 ranks x 1 thread s | ranks/process time | states sent per state | bytes sent per state | messages | store per rank / process store | -np 3, -np 4 counts |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  IFS='|' read -r model set <<<"$case"
  one=(); two=()
  for _ in $(seq "$runs"); do
    one+=("$(timed "$orbit" check "$model" --set "$set" --threads 2 --no-assert-ltl --json)")
    expected=$(field '(r["result"], r["states"], r["transitions"])')
    single_store=$(field 'r["store_bytes"]')
    two+=("$(timed "${mpi[@]}" -np 2 "$orbit" check "$model" --set "$set" --distributed --threads 1 --no-assert-ltl --json)")
    got=$(field '(r["result"], r["states"], r["transitions"])')
    [ "$got" = "$expected" ] || { echo "2 ranks: $got, one process: $expected" >&2; cat "$work/err" >&2; exit 1; }
  done
  states=$(field 'r["states"]')
  sent=$(field 'sum(k["states_sent"] for k in r["ranks"]) / r["states"]')
  bytes=$(field 'sum(k["bytes_sent"] for k in r["ranks"]) / r["states"]')
  messages=$(field 'sum(k["messages_sent"] for k in r["ranks"])')
  stores=$(field '" / ".join("%.2f" % (k["store_bytes"] / '"$single_store"') for k in r["ranks"])')
  more=""
  for np in 3 4; do
    timed "${mpi[@]}" -np "$np" "$orbit" check "$model" --set "$set" --distributed --threads 1 --no-assert-ltl --json >/dev/null
    got=$(field '(r["result"], r["states"], r["transitions"])')
    [ "$got" = "$expected" ] || { echo "$np ranks: $got, one process: $expected" >&2; exit 1; }
    more+="${more:+, }$np ranks equal"
  done
  t1=$(printf '%s\n' "${one[@]}" | median)
  t2=$(printf '%s\n' "${two[@]}" | median)
  printf '| %s %s | %s | %s | %s | %.2f | %.2f | %.1f | %s | %s | %s |\n' \
    "$(basename "$model")" "$set" "$states" "$t1" "$t2" "$(echo "$t2 / $t1" | bc -l)" \
    "$sent" "$bytes" "$messages" "$stores" "$more"
done
echo
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
