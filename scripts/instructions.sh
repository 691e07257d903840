#!/usr/bin/env bash
# One-thread instruction counts (callgrind) of the speed targets of
# scripts/check-speed.sh and of both front ends on German with 3 nodes:
# counts do not depend on the machine's load, so they compare builds
# where wall times cannot. Needs valgrind.
#
# Usage: scripts/instructions.sh [BINARY...]   (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  cargo build --release --quiet
  bins=(target/release/orbit)
fi
cases=(
  "scheduler1 PROC=6|models/scheduler1.mch --set PROC=6 --no-deadlock"
  "USB_4Endpoints TRANSFERS=3|models/USB_4Endpoints.mch --set TRANSFERS=3 --no-deadlock"
  "Murphi german NODES=3|models/murphi/german.m --set NODES=3"
  "B German NODE=3|models/German.mch --set NODE=3"
)
header="| model |"
rule="|---|"
for bin in "${bins[@]}"; do header+=" $bin |"; rule+="---|"; done
echo "$header"
echo "$rule"
for case in "${cases[@]}"; do
  IFS='|' read -r label args <<<"$case"
  row="| $label |"
  for bin in "${bins[@]}"; do
    # shellcheck disable=SC2086
    count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" check $args --threads 1 --json 2>&1 >/dev/null |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    row+=" $count |"
  done
  echo "$row"
done
