#!/usr/bin/env bash
# Perft speed benchmark: perft 5 from the start position (133,312,995 leaves), single thread,
# release build, best of N runs (default 5). Prints each run and the best speed.
#
# Usage: scripts/perft_bench.sh [RUNS] [DEPTH]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
depth=${2:-5}
cargo build --release --quiet
best=0
for i in $(seq "$runs"); do
  line=$(./target/release/chariot perft --fen startpos --depth "$depth" --threads 1 | grep '^Speed')
  speed=$(echo "$line" | awk '{print $2}')
  echo "run $i: $speed M nodes/s"
  best=$(awk -v a="$best" -v b="$speed" 'BEGIN { print (b > a) ? b : a }')
done
echo "best of $runs: $best M nodes/s (perft $depth, start position, 1 thread)"
