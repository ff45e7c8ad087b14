#!/usr/bin/env bash
# The measurements that need many cores, for a borrowed many-core machine without a Rust
# toolchain: prebuilt binaries come in DIR. Each part has a wall-clock budget (matches are
# stopped like Ctrl-C: running games finish, the summary is still written), and every result
# lands in OUT as soon as it exists, so a cut-short run still reports what it finished.
#
#   1. Lazy-SMP time and nodes to depth over the bench positions: 1 to 16 threads, two runs each.
#   2. Two threads against one in play (5+0.05).
#   3. A search change against the current build (2+0.02), when DIR holds chariot-new.
#   4. Chariot against Fairy-Stockfish in UCCI mode (10+0.1), when DIR holds fairy-stockfish.
#
# Usage: scripts/device_checks.sh DIR [OUT]
#   DIR: chariot, and optionally chariot-new, fairy-stockfish and the libraries it needs.
set -uo pipefail
dir=$(cd "${1:?usage: scripts/device_checks.sh DIR [OUT]}" && pwd)
out=${2:-${OUT:-device-out}}
mkdir -p "$out"
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chariot="$dir/chariot"
cores=$(nproc)
{
  echo "cores $cores"
  grep -m1 'model name' /proc/cpuinfo || true
  date -u
} >"$out/machine.txt"

# A match stopped after BUDGET seconds (SIGINT: the games in progress are played out).
match() {
  local budget=$1 name=$2
  shift 2
  timeout -s INT -k 120 "$budget" "$chariot" match --no-progress \
    --pgn "$out/$name.pgn" --json "$out/$name.json" "$@" >"$out/$name.log" 2>&1
  tail -n 12 "$out/$name.log"
}

echo "== 1. time and nodes to depth 14 over the bench positions"
# Both: the time to depth is the target; the nodes (all threads together) tell how much of
# the speed-up is lost to searching the same nodes twice, and how much to nodes/s not
# scaling with the cores (memory, frequency).
for threads in 1 2 4 8 16; do
  [ "$threads" -le "$cores" ] || continue
  for run in 1 2; do
    line=$(timeout 60 "$chariot" bench --depth 14 --threads "$threads" --verbose |
      awk '/ nodes .* nps$/ {n = $1; s = $3} /^time/ {t = $2} END {if (t) print t " ms, " n " nodes, " s " nodes/s"}')
    echo "threads $threads run $run: ${line:-timeout}" | tee -a "$out/smp.txt"
  done
done

echo "== 2. two threads against one, 5+0.05"
match 70 threads \
  --engine "two=$chariot" --engine "one=$chariot" --option two.Threads=2 \
  --tc 5+0.05 --games 400 --concurrency $((cores / 3)) --opening-order random --seed 3

if [ -x "$dir/chariot-new" ]; then
  echo "== 3. change against the current build, 2+0.02"
  match 120 change \
    --engine "new=$dir/chariot-new" --engine "base=$chariot" \
    --tc 2+0.02 --games 2000 --concurrency "$cores" --opening-order random --seed 5
fi

if [ -x "$dir/fairy-stockfish" ]; then
  echo "== 4. against Fairy-Stockfish, 10+0.1"
  match 200 fsf \
    --engine "chariot=$chariot" --engine "fsf=$dir/fairy-stockfish" \
    --tc 10+0.1 --games 400 --concurrency "$cores" --opening-order random --seed 11
fi
