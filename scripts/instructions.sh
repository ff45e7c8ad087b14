#!/usr/bin/env bash
# Instructions the search spends on `chariot bench --depth DEPTH` (default 7), counted by
# callgrind inside the search alone (the fresh table and histories set up between the bench
# positions are left out). Exact and repeatable where timings on a shared machine vary by
# ±15%: the measure for a change that alters no search decision (the same nodes), which is
# then faster by exactly its share of fewer instructions, memory waits aside.
#
# Usage: scripts/instructions.sh [DEPTH] [BINARY...]
#   (default: builds and measures target/release/chariot; name other builds to compare)
# Needs valgrind (Debian: apt install valgrind). About a minute per build at depth 7.
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-7}
shift || true
if [ $# -eq 0 ]; then
  cargo build --release --quiet
  set -- target/release/chariot
fi
if ! command -v valgrind >/dev/null; then
  echo "instructions.sh: valgrind is needed (Debian: apt install valgrind)" >&2
  exit 2
fi
for bin in "$@"; do
  profile=$(mktemp)
  status=0
  log=$(valgrind --tool=callgrind --callgrind-out-file="$profile" \
    --toggle-collect='chariot::search::Worker::search' "$bin" bench --depth "$depth" 2>&1) ||
    status=$?
  rm -f "$profile"
  nodes=$(echo "$log" | awk '$2 == "nodes" { print $1; exit }')
  instructions=$(echo "$log" | awk '/Collected :/ { print $NF }')
  if [ "$status" -ne 0 ] || [ -z "$nodes" ] || [ -z "$instructions" ]; then
    echo "instructions.sh: no bench result from $bin (exit status $status)" >&2
    echo "$log" | tail -5 >&2
    exit 1
  fi
  echo "$bin: $nodes nodes, $instructions instructions in the search," \
    "$((instructions / nodes)) per node (bench --depth $depth)"
done
