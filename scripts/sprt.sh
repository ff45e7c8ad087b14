#!/usr/bin/env bash
# SPRT between two revisions: builds BASE_REV and NEW_REV into separate folders and plays
# NEW against BASE until the test decides (elo0=0, elo1=5, alpha=beta=0.05 by default).
#
# Usage: scripts/sprt.sh BASE_REV NEW_REV [TC] [MAX_GAMES]
#   TC defaults to 10+0.1 (seconds); MAX_GAMES to 20000.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/sprt.sh BASE_REV NEW_REV [TC] [MAX_GAMES]}
new=${2:?usage: scripts/sprt.sh BASE_REV NEW_REV [TC] [MAX_GAMES]}
tc=${3:-10+0.1}
games=${4:-20000}
work=$(mktemp -d)
build() {
  local rev=$1 dir=$2
  git worktree add --detach "$dir" "$rev" >/dev/null
  (cd "$dir" && cargo build --release --quiet)
}
cargo build --release --quiet
runner="$PWD/target/release/chariot"
build "$base" "$work/base"
build "$new" "$work/new"
cleanup() {
  git worktree remove --force "$work/base" >/dev/null 2>&1 || true
  git worktree remove --force "$work/new" >/dev/null 2>&1 || true
}
trap cleanup EXIT
"$runner" match \
  --engine "new=$work/new/target/release/chariot" \
  --engine "base=$work/base/target/release/chariot" \
  --tc "$tc" --games "$games" --concurrency "$(nproc)" \
  --sprt 0,5 --pgn "$work/sprt.pgn"
echo "games saved in $work/sprt.pgn"
