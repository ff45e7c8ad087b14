#!/usr/bin/env bash
# The slow perft checks that `cargo test` skips: depth 4 of every suite position and perft
# 5 and 6 from the start position (133,312,995 and 5,392,831,844 leaves).
#
# Usage: scripts/deep_perft.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test perft -- --ignored --nocapture
