#!/usr/bin/env bash
# Lazy-SMP scaling: time to a fixed depth over the bench positions with 1 and with N threads
# (fresh table and histories per position), RUNS runs each.
#
# Prints the speed-up of the best total time, and, from each position's best time over the
# runs, the geometric mean of the per-position speed-ups (a few long, unstable searches weigh
# less there than in the total) and the positions that got slower. Where timings are noisy
# (a shared VM: the same one-thread search varies by ±25%), the node figure helps: THREADS
# times the one-thread nodes over the mean nodes of the THREADS-thread runs, the speed-up if
# every thread searched as fast as one alone (true on idle cores: nodes/s scale 1.9-2.0x on
# two).
#
# Usage: scripts/smp_scaling.sh [DEPTH] [THREADS] [RUNS] [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-13}
threads=${2:-2}
runs=${3:-3}
bin=${4:-target/release/chariot}
if [ $# -lt 4 ]; then
  cargo build --release --quiet
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for _ in $(seq "$runs"); do
  for t in 1 "$threads"; do
    "$bin" bench --depth "$depth" --threads "$t" --verbose |
      awk -v t="$t" '/^position/ { print t, $2 + 0, $5 } /^time/ { print t, "total", $2 }
        / nodes .* nps$/ { print t, "nodes", $1 }' >>"$log"
  done
done
awk -v depth="$depth" -v n="$threads" '
  $2 == "nodes" { nodes[$1] += $3; runs[$1]++; next }
  {
    key = $1 " " $2
    if (!(key in best) || $3 < best[key]) best[key] = $3
    if ($2 != "total") positions[$2] = 1
  }
  END {
    one = best["1 total"]; many = best[n " total"]
    printf "depth %d: 1 thread %d ms, %d threads %d ms, speed-up %.2fx\n", depth, one, n, many, one / many
    count = 0; logsum = 0; slower = ""
    for (p in positions) {
      a = best["1 " p]; b = best[n " " p]
      if (a < 1) a = 1
      if (b < 1) b = 1
      logsum += log(a / b); count++
      if (b > a) slower = slower sprintf(" %d (%.2f)", p, a / b)
    }
    printf "per position (best of runs): geometric mean speed-up %.2fx over %d positions\n", exp(logsum / count), count
    if (slower != "") print "slower with " n " threads:" slower
    printf "nodes: 1 thread %d, %d threads %d (mean of %d runs): %.2fx\n", nodes[1] / runs[1], n, nodes[n] / runs[n], runs[n], n * (nodes[1] / runs[1]) / (nodes[n] / runs[n])
  }' "$log"
