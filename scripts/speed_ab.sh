#!/usr/bin/env bash
# Compares the search speed of two builds by running their `chariot bench` at the same
# time, one on each of two cores (swapped every round), so both meet the same phase of a
# shared machine, whose speed can drift by a third within minutes: alternating runs need
# dozens of rounds to see a 5% change, pairs run together a handful. Prints each round's
# nodes/s and B/A, then the means and the geometric mean of the per-round ratios. Run the
# same build against itself first to see the bias and spread of the machine's two cores.
#
# Usage: scripts/speed_ab.sh ROUNDS BINARY_A BINARY_B [BENCH ARGS...]
# Needs two free cores and `taskset` (util-linux).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS BINARY_A BINARY_B [BENCH ARGS...]" >&2
  exit 2
fi
rounds=$1
a=$2
b=$3
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$rounds"); do
  if [ $((i % 2)) -eq 0 ]; then core_a=0 core_b=1; else core_a=1 core_b=0; fi
  taskset -c "$core_a" "$a" bench "$@" >"$out/a" 2>&1 &
  taskset -c "$core_b" "$b" bench "$@" >"$out/b" 2>&1 &
  wait
  echo "$(awk '$2 == "nodes" { print $3 }' "$out/a") $(awk '$2 == "nodes" { print $3 }' "$out/b")"
done | awk '
  { sum_a += $1; sum_b += $2; logs += log($2 / $1); n++
    printf "round %2d: A %8d  B %8d  B/A %.3f\n", n, $1, $2, $2 / $1 }
  END { printf "means: A %.0f  B %.0f nodes/s  B/A %.4f  geometric mean of B/A %.4f\n",
          sum_a / n, sum_b / n, sum_b / sum_a, exp(logs / n) }'
