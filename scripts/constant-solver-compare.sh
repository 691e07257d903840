#!/usr/bin/env bash
# Times the three ways of finding B constants (`--solver enumerate`, `cp`,
# `auto`) on the bundled puzzles and on any machines given as arguments;
# prints a Markdown table (median of REPEAT runs, wall seconds; "-" for a
# run stopped by the time limit, "refused" for a construct `cp` does not
# translate). Build first: cargo build --release.
#   scripts/constant-solver-compare.sh [MACHINE.mch ...]
#   env: ORBIT (default target/release/orbit), LIMIT (default 20s), REPEAT (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
ORBIT=${ORBIT:-target/release/orbit}
LIMIT=${LIMIT:-20s}
REPEAT=${REPEAT:-3}
machines=(models/puzzles/*.mch "$@")

run() { # run MACHINE SOLVER: prints seconds, "-" or "refused"
  local start end code out
  start=$(date +%s.%N)
  set +e
  out=$("$ORBIT" check "$1" --solver "$2" --bound-integers --time-limit "$LIMIT" --json 2>&1)
  code=$?
  set -e
  end=$(date +%s.%N)
  if [ $code -eq 2 ] && grep -q "not supported yet by the constraint solver" <<<"$out"; then
    echo refused
  elif [ $code -eq 3 ]; then
    echo -
  else
    echo "$end - $start" | bc
  fi
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "-")}'; }

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| machine | enumerate (s) | cp (s) | auto (s) | valuations |"
echo "|---|---|---|---|---|"
for m in "${machines[@]}"; do
  declare -A times=()
  for solver in enumerate cp auto; do times[$solver]=""; done
  # Interleaved: one run of each mode per round.
  for _ in $(seq "$REPEAT"); do
    for solver in enumerate cp auto; do
      times[$solver]+="$(run "$m" "$solver")"$'\n'
    done
  done
  vals=$("$ORBIT" check "$m" --bound-integers --time-limit "$LIMIT" --json 2>/dev/null \
    | grep -o '"constant_valuations":[0-9]*' | cut -d: -f2 || true)
  row="| $(basename "$m") |"
  for solver in enumerate cp auto; do
    all=$(printf '%s' "${times[$solver]}" | grep -v '^$')
    if grep -qv '^[0-9.]*$' <<<"$all"; then
      t=$(grep -v '^[0-9.]*$' <<<"$all" | head -1)
    else
      t=$(median <<<"$all")
    fi
    [[ $t =~ ^[0-9.]+$ ]] && t=$(printf '%.2f' "$t")
    row+=" $t |"
  done
  echo "$row ${vals:--} |"
done
