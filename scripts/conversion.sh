#!/usr/bin/env bash
# How often an engine converts endings the endgame books call won: each position of
# engine-tests/data/won_endings.epd (Red the stronger side, made by scripts/gen_won_endings.py)
# is played twice, so that each engine has the stronger side once, under the 60-moves
# no-capture limit. Prints each engine's conversions (its wins with Red) out of its games.
#
#   scripts/conversion.sh NEW_BINARY [OLD_BINARY] [TC] [CONCURRENCY]
#
# With one binary it plays itself. TC defaults to 1+0.01.
set -euo pipefail
new=${1:?usage: conversion.sh NEW_BINARY [OLD_BINARY] [TC] [CONCURRENCY]}
old=${2:-$new}
tc=${3:-1+0.01}
concurrency=${4:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
suite=$root/engine-tests/data/won_endings.epd
runner=$root/target/release/chariot
[ -x "$runner" ] || (cd "$root" && cargo build --release --quiet)
work=$(mktemp -d)
games=$(($(grep -c . "$suite") * 2))
"$runner" match --engine new="$new" --engine old="$old" --openings "$suite" \
    --games "$games" --tc "$tc" --concurrency "$concurrency" --no-progress \
    --pgn "$work/conversion.pgn" > "$work/log" 2>&1 || { cat "$work/log"; exit 1; }
python3 - "$root/scripts" "$work/conversion.pgn" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from ending_stats import games  # the same PGN reading
tally = {}
for tags, _ in games([sys.argv[2]]):
    won, played = tally.get(tags["Red"], (0, 0))
    tally[tags["Red"]] = (won + (tags["Result"] == "1-0"), played + 1)
for name, (won, played) in sorted(tally.items()):
    print(f"{name}: converted {won} of {played} ({100 * won / played:.0f}%)")
EOF
echo "games: $work/conversion.pgn"
