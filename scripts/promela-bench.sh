#!/usr/bin/env bash
# orbit against SPIN's verifier on the same Promela state spaces: wall
# time and peak memory (medians of interleaved runs), as ratios.
#
#   scripts/promela-bench.sh [RUNS]      # default 3
#
# Rows: one thread without partial order reduction (pan -DNOREDUCE, -O2);
# two threads (pan -DNCORE=2 against orbit --threads 2); SPIN's partial
# order reduction (pan's default) against orbit's --por; the markers
# paper's Peterson with 6 and 7 processes and orbit's e-mail system with 4
# clients under symmetry reduction (the paper's times, on a 1.7 GHz
# Pentium with SPIN 4.2.6, are context only).
# Needs spin, a C compiler and target/release/orbit.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
orbit=${ORBIT:-target/release/orbit}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 scripts/peterson-pml.py 6 > "$work/peterson6.pml"
python3 scripts/peterson-pml.py 7 > "$work/peterson7.pml"
cp models/promela/peterson5.pml models/promela/email3.pml models/promela/email4.pml \
  tests/it/spin_corpus/p329.pml tests/it/spin_corpus/*.h "$work/"

build_pan() { # build_pan MODEL NAME CFLAGS...
  local model=$1 name=$2
  shift 2
  mkdir -p "$work/$name"
  cp "$work/$model" "$work"/*.h "$work/$name/" 2>/dev/null || true
  (cd "$work/$name" && spin -a "$model" >/dev/null && cc -O2 "$@" -o pan pan.c 2>/dev/null)
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() { # measure OUTFILE CMD...: appends "seconds kilobytes"
  local out=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >"$work/run.txt" 2>&1 || true
  cat "$work/time.txt" >>"$out"
}

row() { # row LABEL PAN_DIR PAN_ARGS ORBIT_ARGS...
  local label=$1 pan=$2 pan_args=$3
  shift 3
  : >"$work/o.txt"
  : >"$work/p.txt"
  for _ in $(seq "$runs"); do
    measure "$work/o.txt" "$orbit" check "$@"
    states=$(grep -o 'distinct states: *[0-9,]*' "$work/run.txt" | grep -o '[0-9,]*$' || echo -)
    if [ "$pan" != - ]; then
      # shellcheck disable=SC2086
      (cd "$work/$pan" && measure "$work/p.txt" ./pan $pan_args)
      pstates=$(grep -o '[0-9]* states, stored' "$work/run.txt" | cut -d' ' -f1 || echo -)
    fi
  done
  ot=$(cut -d' ' -f1 "$work/o.txt" | median)
  om=$(cut -d' ' -f2 "$work/o.txt" | median)
  if [ "$pan" != - ]; then
    pt=$(cut -d' ' -f1 "$work/p.txt" | median)
    pm=$(cut -d' ' -f2 "$work/p.txt" | median)
    printf '| %s | %s | %s | %.2f | %.2f | %.2fx | %d | %d | %.2fx |\n' "$label" "$states" "$pstates" \
      "$ot" "$pt" "$(echo "$ot / $pt" | bc -l)" $((om / 1024)) $((pm / 1024)) "$(echo "$om / $pm" | bc -l)"
  else
    printf '| %s | %s | - | %.2f | - | - | %d | - | - |\n' "$label" "$states" "$ot" $((om / 1024))
  fi
}

build_pan peterson5.pml p5-noreduce -DNOREDUCE
build_pan peterson5.pml p5-por
build_pan peterson5.pml p5-ncore -DNOREDUCE -DNCORE=2 -DSAFETY
build_pan p329.pml p329-noreduce -DNOREDUCE
build_pan p329.pml p329-ncore -DNOREDUCE -DNCORE=2 -DSAFETY
build_pan email3.pml e3-noreduce -DNOREDUCE
build_pan email3.pml e3-por

echo "Machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg); $(spin -V | head -1); median of $runs runs"
echo
echo "| run | orbit states | pan states | orbit s | pan s | orbit/pan time | orbit MB | pan MB | orbit/pan memory |"
echo "|---|---|---|---|---|---|---|---|---|"
row "peterson5, 1 thread" p5-noreduce "-m10000000" "$work/peterson5.pml" --threads 1
row "peterson5, 2 threads (pan -DNCORE=2)" p5-ncore "-m10000000" "$work/peterson5.pml" --threads 2
row "peterson5, pan's POR / orbit --por" p5-por "-m10000000" "$work/peterson5.pml" --threads 1 --por
row "email3, 1 thread" e3-noreduce "-m10000000" "$work/email3.pml" --threads 1
row "email3, pan's POR / orbit --por" e3-por "-m10000000" "$work/email3.pml" --threads 1 --por
row "p329 (SPIN book), 1 thread" p329-noreduce "-m10000000" "$work/p329.pml" --threads 1
row "p329 (SPIN book), 2 threads (pan -DNCORE=2)" p329-ncore "-m10000000" "$work/p329.pml" --threads 2
for n in 6 7; do
  for mode in canon markers-exact markers; do
    row "peterson$n --symmetry $mode, 1 thread" - - "$work/peterson$n.pml" --symmetry "$mode" --symmetric user --threads 1
  done
done
for mode in canon markers-exact markers; do
  row "email4 --symmetry $mode, 1 thread" - - "$work/email4.pml" --symmetry "$mode" --symmetric client --threads 1
done
echo
echo "The paper's times (SymmSPIN segmented / TopSPIN sorted / TopSPIN flattened, seconds): Peterson 6: 7 / 7 / 2; Peterson 7: 85 / 56 / 10."
