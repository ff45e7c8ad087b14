#!/usr/bin/env bash
# Generates training shards one after another: nnue-data/gen<G>-s<SEED>.bin, each of
# POSITIONS positions at NODES nodes per move, then xz-compresses it and prints the manifest
# line for nnue-data/README.md. Usage: scripts/datagen_shards.sh GEN FIRST_SEED COUNT
# [POSITIONS] [NODES] [THREADS] [EXTRA chariot datagen options...]
set -euo pipefail
cd "$(dirname "$0")/.."
gen=${1:?generation name, e.g. hce}
first=${2:?first seed}
count=${3:?number of shards}
positions=${4:-400000}
nodes=${5:-5000}
threads=${6:-1}
shift $(( $# < 6 ? $# : 6 ))
bin=${BIN:-target/release/chariot}
commit=$(git rev-parse --short HEAD)
for ((seed = first; seed < first + count; seed++)); do
  out=nnue-data/$gen-s$seed.bin
  [ -e "$out.xz" ] && continue
  "$bin" datagen -o "$out" --positions "$positions" --nodes "$nodes" --threads "$threads" \
    --seed "$seed" --no-progress "$@"
  n=$("$bin" datagen --stats "$out" | sed -n 's/.*positions \([0-9]*\)$/\1/p')
  xz -T1 -6 "$out"
  sum=$(sha256sum "$out.xz" | cut -d' ' -f1)
  echo "| \`$gen-s$seed.bin.xz\` | \`chariot datagen -o $gen-s$seed.bin --positions $positions --nodes $nodes --seed $seed $*\` | $commit | $n | \`$sum\` |" \
    | tee -a nnue-data/manifest-pending.txt
done
