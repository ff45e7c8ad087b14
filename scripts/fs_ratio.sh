#!/usr/bin/env bash
# Chariot's search speed as a multiple of Fairy-Stockfish's (a ratio measured side by side,
# which a shared machine's drifting speed does not disturb). Each round runs Fairy-Stockfish's own
# `bench xiangqi` and then `chariot bench` of every build named, so all of them meet the same
# phase of a shared machine; prints the geometric means of each build's nodes/s and of its
# per-round ratio to Fairy-Stockfish. 40 rounds take about a minute per build.
#
# Usage: scripts/fs_ratio.sh ROUNDS BINARY...   (FAIRY_STOCKFISH overrides the engine's path)
# Needs Fairy-Stockfish (Debian: apt install fairy-stockfish) and python3.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS BINARY..." >&2
  exit 2
fi
rounds=$1
shift
fsf=${FAIRY_STOCKFISH:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
if [ ! -x "$fsf" ]; then
  echo "fs_ratio.sh: fairy-stockfish not found (apt install fairy-stockfish, or set FAIRY_STOCKFISH)" >&2
  exit 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for _ in $(seq "$rounds"); do
  line=$("$fsf" bench xiangqi 2>&1 | awk -F: '/Nodes\/second/ { gsub(/ /, "", $2); print $2 }')
  for bin in "$@"; do
    line="$line $("$bin" bench | awk '$2 == "nodes" { print $3 }')"
  done
  echo "$line" >>"$log"
done
python3 - "$log" "$@" <<'PY'
import math
import sys

rows = [list(map(float, line.split())) for line in open(sys.argv[1]) if line.strip()]
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
fs = [r[0] for r in rows]
print(f"Fairy-Stockfish: {geo(fs) / 1e6:.3f} M nodes/s (geometric mean; "
      f"{min(fs) / 1e6:.3f}-{max(fs) / 1e6:.3f}), {len(rows)} rounds")
for i, name in enumerate(sys.argv[2:], start=1):
    nps = [r[i] for r in rows]
    ratio = geo([r[i] / r[0] for r in rows])
    print(f"{name}: {geo(nps) / 1e6:.3f} M nodes/s, {ratio:.2f}x Fairy-Stockfish")
PY
