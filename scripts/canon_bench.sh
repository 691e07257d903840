#!/usr/bin/env bash
# Regenerates the canonical labelling benchmark table (orbit vs nauty dense,
# nauty sparse, Traces and bliss; columns: family, n, graphs, median time per
# graph of each tool, orbit / faster nauty, orbit / fastest other tool):
# prints the Markdown table and writes it to target/canon_bench.md. Rows
# "model states" come from benches/canon_graphs/*.dre (state graphs written
# by `orbit graph MODEL --set S=k --state 99 --all`).
#
#   scripts/canon_bench.sh            full run (a few minutes)
#   scripts/canon_bench.sh --quick    fewer graphs and repetitions
#   scripts/canon_bench.sh Paley      only families whose name contains "Paley"
#
# Needs a C++ compiler and bliss (Debian: apt-get install -y libbliss-dev
# libgmp-dev); without bliss the bliss column reads n/a. nauty and Traces
# come from the nauty-Traces-sys dev-dependency (its build needs libclang:
# apt-get install -y libclang-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
if [ -f /usr/include/bliss/graph.hh ]; then
  g++ -O3 -o target/canon_bliss_harness scripts/canon_bliss_harness.cc \
    $(pkg-config --cflags --libs libbliss-cxx) -lgmp
  export ORBIT_BLISS_HARNESS="$PWD/target/canon_bliss_harness"
else
  echo "bliss not installed (apt-get install -y libbliss-dev): bliss column n/a" >&2
fi
cargo bench --bench canon_compare -- "$@" | tee target/canon_bench.md
echo "table written to target/canon_bench.md" >&2
