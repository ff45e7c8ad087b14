#!/usr/bin/env bash
# Every test: the Ray drivers' tests on a local 2-CPU cluster and on a cluster of three nodes
# made with `ray start` on this machine (the pinned Ray installed into target/cluster-venv on
# first use), the game-file readers checked against the cchess
# package's (installed there too), then `cargo test --release` (unit, integration and
# property tests), then the search tuner's tests against a `tune` build (its own target dir,
# so that the normal binary stays as it is), and that the playing levels' labels in
# src/search/strength.rs are the fit of the games recorded for them. `.ci/run` runs exactly
# this script.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
venv=target/cluster-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/cluster/requirements.txt
"$venv/bin/python" scripts/cluster/test_cluster.py
PATH="$PWD/$venv/bin:$PATH" "$venv/bin/python" scripts/cluster/test_multinode.py
# The game-file readers against an independent one (the cchess package, pinned).
"$venv/bin/pip" install --quiet --disable-pip-version-check cchess==1.25.5
"$venv/bin/python" scripts/check_game_readers.py target/release/chariot 20
cargo test --release
cargo build --release --features tune --target-dir target/tune
python3 scripts/test_spsa.py target/tune/release/chariot
python3 scripts/strength_fit.py --check
