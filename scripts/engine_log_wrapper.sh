#!/usr/bin/env bash
# Runs Chariot with everything it reads and writes copied, time-stamped, to $ENGINE_LOG
# (default /tmp/chariot-io.log): for finding out what a GUI or adapter actually sent.
# Point the GUI at this script instead of the binary; CHARIOT names the binary.
log=${ENGINE_LOG:-/tmp/chariot-io.log}
bin=${CHARIOT:-$(dirname "$0")/../target/release/chariot}
stamp() { while IFS= read -r line; do printf "%s %s %s\n" "$EPOCHREALTIME" "$1" "$line" >>"$log"; printf "%s\n" "$line"; done; }
stamp '>' | "$bin" "$@" | stamp '<'
