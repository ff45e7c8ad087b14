#!/usr/bin/env bash
# Quick self-play smoke match: the current build against itself at fixed nodes.
#
# Usage: scripts/selfplay.sh [GAMES] [NODES]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
nodes=${2:-20000}
cargo build --release --quiet
engine="$PWD/target/release/chariot"
"$engine" match --engine "A=$engine" --engine "B=$engine" --nodes "$nodes" --games "$games" \
  --concurrency "$(nproc)"
