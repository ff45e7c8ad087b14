#!/usr/bin/env bash
# Lazy-SMP scaling: time to a fixed depth over the bench positions with 1 and with N threads
# (fresh table and histories per position), best of RUNS runs each.
#
# Usage: scripts/smp_scaling.sh [DEPTH] [THREADS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-13}
threads=${2:-2}
runs=${3:-3}
cargo build --release --quiet
best() {
  local t best=999999999
  for _ in $(seq "$runs"); do
    t=$(./target/release/chariot bench --depth "$depth" --threads "$1" --verbose | awk '/^time/ {print $2}')
    [ "$t" -lt "$best" ] && best=$t
  done
  echo "$best"
}
one=$(best 1)
many=$(best "$threads")
echo "depth $depth: 1 thread ${one} ms, $threads threads ${many} ms, speed-up $(awk -v a="$one" -v b="$many" 'BEGIN { printf "%.2f", a / b }')x"
