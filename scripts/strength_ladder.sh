#!/usr/bin/env bash
# Measures the playing levels (UCI_LimitStrength + UCI_Elo) against each other: a match
# between each pair of neighbouring levels, and prints one table row per step with the
# measured Elo difference beside the one the option claims.
# Usage: scripts/strength_ladder.sh GAMES TC "ELO ELO ..." [extra chariot match options]
#   e.g. scripts/strength_ladder.sh 300 2+0.02 "200 400 600 800 1000 1200 1400 1600 1800 2000"
# CONCURRENCY (default 2) games run at once; SEED (default 0) shifts the match seeds for a
# fresh set of openings. Levels up to about 2000 are node budgets of a few thousand nodes that
# mostly wait out their thinking time, so many games at once do not change them; above that,
# a loaded machine lets the clock cut a level's budget short: run those steps with
# CONCURRENCY=2 and nothing else on the two cores. 3000 is full strength. Games use the
# shipped openings in random order, both colours each.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:?games per step}
tc=${2:?time control, e.g. 1+0.01}
levels=(${3:?levels, low to high})
shift 3
bin=${BIN:-target/release/chariot}
echo "| Step | Games at $tc | W/D/L (stronger side) | Measured Elo | Claimed |"
echo "|---|---|---|---|---|"
for ((i = 0; i + 1 < ${#levels[@]}; i++)); do
  lo=${levels[i]}
  hi=${levels[i + 1]}
  out=$("$bin" match --engine "hi=$bin" --engine "lo=$bin" \
    --option hi.UCI_LimitStrength=true --option "hi.UCI_Elo=$hi" \
    --option lo.UCI_LimitStrength=true --option "lo.UCI_Elo=$lo" \
    --tc "$tc" --games "$games" --concurrency "${CONCURRENCY:-2}" --opening-order random --seed "$((hi + games + ${SEED:-0}))" \
    "$@" 2>&1 | tail -20)
  wdl=$(echo "$out" | sed -n 's#^W/D/L \([0-9/]*\).*#\1#p')
  elo=$(echo "$out" | sed -n 's#^Elo \(.*\) (95%).*#\1#p')
  losses=$(echo "$out" | grep -ci "time" || true)
  echo "| $lo → $hi | $games | $wdl | $elo | $((hi - lo)) |"
  [ "$losses" -gt 0 ] && echo "$out" | grep -i time >&2
done
