#!/usr/bin/env bash
# Compares orbit with SPIN on Promela models: for each model, the states
# SPIN's verifier stores (`spin -a`, `pan` compiled with -DNOREDUCE, depth
# bound 10^7) and its verdict, against `orbit check`'s distinct states and
# verdict. Prints one row per model: states (spin, orbit), errors, and
# `same`, `DIFF` or why a side did not run.
#
#   scripts/spin-compare.sh MODEL.pml...        # default: SPIN's defaults
#   OPTS="-o1 -o2 -o3" ORBIT_FLAGS=--spin-no-optimise scripts/spin-compare.sh ...
#   NOENDS=1 scripts/spin-compare.sh ...       # invalid end states ignored
#                                              # (pan -E, orbit --no-deadlock)
#
# Needs spin and a C compiler; ORBIT=path chooses the binary
# (default target/release/orbit).
set -uo pipefail
orbit=${ORBIT:-$(dirname "$0")/../target/release/orbit}
opts=${OPTS:-}
flags=${ORBIT_FLAGS:-}
pan_flags=
if [ -n "${NOENDS:-}" ]; then
  pan_flags=-E
  flags="$flags --no-deadlock"
fi
printf '%-40s %10s %10s %6s %6s  %s\n' model spin orbit s.err o.err verdict
for model in "$@"; do
  dir=$(mktemp -d)
  cp "$model" "$dir/"
  # Included files sit beside the model.
  cp "$(dirname "$model")"/*.h "$dir/" 2>/dev/null || true
  name=$(basename "$model")
  spin_states=- spin_errors=- orbit_states=- orbit_errors=- verdict=
  if (cd "$dir" && timeout 60 spin -a $opts "$name" >spin.out 2>&1 &&
      gcc -O2 -DNOREDUCE -DVECTORSZ=4096 -o pan pan.c >gcc.out 2>&1 &&
      timeout 120 ./pan -m10000000 -w24 $pan_flags >pan.out 2>&1); then
    spin_states=$(grep -o '[0-9]* states, stored' "$dir/pan.out" | head -1 | cut -d' ' -f1)
    spin_errors=$(grep -o 'errors: [0-9]*' "$dir/pan.out" | head -1 | cut -d' ' -f2)
  else
    verdict="spin failed"
  fi
  out=$(timeout 120 "$orbit" check $flags "$dir/$name" 2>&1)
  code=$?
  orbit_states=$(echo "$out" | grep -o 'distinct states: *[0-9,]*' | grep -o '[0-9,]*$' | tr -d ,)
  [ -z "$orbit_states" ] && orbit_states=-
  case $code in
    0) orbit_errors=0 ;;
    1) orbit_errors=1 ;;
    *) orbit_errors="x$code"; verdict=${verdict:-"orbit: $(echo "$out" | grep -m1 -E 'error|not supported' | cut -c1-90)"} ;;
  esac
  if [ -z "$verdict" ]; then
    if [ "$spin_errors" = 0 ] && [ "$orbit_errors" = 0 ]; then
      [ "$spin_states" = "$orbit_states" ] && verdict=same || verdict=DIFF
    elif [ "$spin_errors" != 0 ] && [ "$orbit_errors" = 1 ]; then
      verdict="same (both find an error)"
    else
      verdict=DIFF
    fi
  fi
  printf '%-40s %10s %10s %6s %6s  %s\n' "$name" "$spin_states" "$orbit_states" "$spin_errors" "$orbit_errors" "$verdict"
  rm -rf "$dir"
done
