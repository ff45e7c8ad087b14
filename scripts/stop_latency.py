#!/usr/bin/env python3
"""Measures how fast an engine answers `stop` and `isready` during `go infinite`, with many
search threads (more than the cores), as GUIs and match runners need.

Each round: `position startpos`, `go infinite`, a wait, then `isready` (time to `readyok`)
and `stop` (time to `bestmove`), whose move must be legal from the start. Prints the median
and the worst of each. Works for any UCI engine (Pikafish-HCE too), so the figures can be
taken side by side.

Usage: python3 scripts/stop_latency.py ENGINE [THREADS] [ROUNDS] [HASH_MB]
"""

import statistics
import sys
import time

import uci_pipe

ENGINE = sys.argv[1]
THREADS = int(sys.argv[2]) if len(sys.argv) > 2 else 64
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 20
HASH = int(sys.argv[4]) if len(sys.argv) > 4 else 16


def main():
    eng = uci_pipe.Engine(ENGINE)
    send = eng.send

    def until(prefix):
        elapsed, lines = eng.until(prefix)
        return elapsed, lines[-1]

    send("uci")
    until("uciok")
    send(f"setoption name Threads value {THREADS}")
    send(f"setoption name Hash value {HASH}")
    send("isready")
    until("readyok")
    stops, readies = [], []
    for _ in range(ROUNDS):
        send("position startpos")
        send("go infinite")
        time.sleep(0.3)
        send("isready")
        elapsed, _ = until("readyok")
        readies.append(elapsed * 1000)
        time.sleep(0.1)
        send("stop")
        elapsed, line = until("bestmove")
        stops.append(elapsed * 1000)
        move = line.split()[1]
        if len(move) != 4:
            raise SystemExit(f"bad bestmove: {line}")
    eng.quit()
    print(f"{ENGINE}: {THREADS} threads, {ROUNDS} rounds")
    if "-v" in sys.argv:
        print("  stop:", " ".join(f"{x:.1f}" for x in stops))
        print("  isready:", " ".join(f"{x:.1f}" for x in readies))
    print(f"  stop -> bestmove: median {statistics.median(stops):.1f} ms, worst {max(stops):.1f} ms")
    print(f"  isready -> readyok: median {statistics.median(readies):.1f} ms, "
          f"worst {max(readies):.1f} ms")


if __name__ == "__main__":
    main()
