#!/usr/bin/env bash
# Rebuilds the shipped net (nnue-data/default.nnue) from the committed shards, by the recipe
# in nnue-data/recipe.txt, and says whether the result is the shipped file byte for byte.
#
# Usage: scripts/build_net.sh [OUTPUT]   (default: target/rebuilt.nnue)
# The trainer is deterministic for the same data, seed and thread count; the recipe names all
# three.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/rebuilt.nnue}
recipe=nnue-data/recipe.txt
shards=$(sed -n 's/^shards: *//p' "$recipe")
args=$(sed -n 's/^train: *//p' "$recipe")
[ -n "$shards" ] && [ -n "$args" ] || { echo "no 'shards:' or 'train:' line in $recipe" >&2; exit 1; }
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=()
for shard in $shards; do
  xz -dc "nnue-data/$shard.bin.xz" > "$work/$shard.bin"
  files+=("$work/$shard.bin")
done
# shellcheck disable=SC2086
target/release/chariot train "${files[@]}" -o "$out" $args --no-progress
if cmp -s "$out" nnue-data/default.nnue; then
  echo "$out is nnue-data/default.nnue, byte for byte"
else
  echo "$out differs from nnue-data/default.nnue (another thread count or trainer build?)"
fi
