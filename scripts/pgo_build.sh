#!/usr/bin/env bash
# A profile-guided release build: builds Chariot instrumented, runs `chariot bench` (the fixed
# search positions, so the profile is the search's and evaluation's hot paths), merges the
# profile and builds again with it. The result searches the same tree (the script checks that
# its bench signature is the instrumented build's, i.e. the source's) a few percent faster:
# see the README's measured figures. The plain `cargo build --release` stays the reference.
#
# Usage: scripts/pgo_build.sh            -> target/pgo/release/chariot
# Needs llvm-profdata: $LLVM_PROFDATA, rustup's llvm-tools component, or a system one
# (Debian: apt install llvm). It must read the profile format of rustc's LLVM.
set -euo pipefail
cd "$(dirname "$0")/.."

# Candidate llvm-profdata tools, most likely to match rustc's LLVM first.
candidates() {
  if [ -n "${LLVM_PROFDATA:-}" ]; then
    echo "$LLVM_PROFDATA"
  fi
  local sysroot tool
  sysroot=$(rustc --print sysroot)
  for tool in "$sysroot"/lib/rustlib/*/bin/llvm-profdata; do
    [ -x "$tool" ] && echo "$tool"
  done
  # Versioned system tools newest first (llvm-profdata-19, ...), then the unversioned one.
  compgen -c llvm-profdata- | sort -u -t- -k3 -rn
  command -v llvm-profdata || true
}

if [ -z "$(candidates)" ]; then
  echo "pgo_build.sh: llvm-profdata is needed (rustup component add llvm-tools, or apt install llvm)" >&2
  exit 2
fi

# RUSTFLAGS replaces the rustflags of .cargo/config.toml, so its target CPU is repeated here.
base_flags=""
if [ "$(uname -m)" = x86_64 ]; then
  base_flags="-C target-cpu=x86-64-v2"
fi

profiles=$(pwd)/target/pgo-profiles
rm -rf "$profiles"
mkdir -p "$profiles"

echo "pgo_build.sh: instrumented build" >&2
RUSTFLAGS="$base_flags -C profile-generate=$profiles" \
  cargo build --release --quiet --target-dir target/pgo-generate
signature=$(target/pgo-generate/release/chariot bench | awk '$2 == "nodes" { print $1 }')

# The first tool that reads the profile's format merges it.
merged=""
for profdata in $(candidates); do
  if "$profdata" merge -o "$profiles/merged.profdata" "$profiles"/*.profraw 2>/dev/null; then
    merged=$profdata
    break
  fi
done
if [ -z "$merged" ]; then
  echo "pgo_build.sh: no llvm-profdata here reads rustc's profile format ($(rustc --version --verbose | grep LLVM))" >&2
  exit 2
fi
echo "pgo_build.sh: profile merged by $merged" >&2

echo "pgo_build.sh: optimised build" >&2
RUSTFLAGS="$base_flags -C profile-use=$profiles/merged.profdata" \
  cargo build --release --quiet --target-dir target/pgo
binary=target/pgo/release/chariot
check=$("$binary" bench | awk '$2 == "nodes" { print $1 }')
if [ "$check" != "$signature" ]; then
  echo "pgo_build.sh: bench signature $check differs from the instrumented build's $signature" >&2
  exit 1
fi
echo "pgo_build.sh: $binary (bench $check nodes)"
