#!/usr/bin/env python3
"""Grows an engine's hash table to a large size and back, and measures what that costs.

Each cycle: `setoption Hash BIG` then `isready` (the time until `readyok` is the allocation
and zeroing), a short search, the engine's resident memory (from /proc); then `Hash 16`,
`isready`, the resident memory again (it must fall back); then a size the machine cannot give
(`Hash 65536` on a machine with less memory), which must be refused with an error while the
engine keeps working. Works for any UCI engine, so the figures can be taken side by side.

Usage: python3 scripts/hash_cycle.py ENGINE [BIG_MB] [CYCLES]
"""

import subprocess
import sys
import time

ENGINE = sys.argv[1]
BIG = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
CYCLES = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    eng = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                           bufsize=1)
    seen = []

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    def until(prefix, limit=120):
        start = time.perf_counter()
        while True:
            line = eng.stdout.readline()
            if not line:
                raise SystemExit("the engine exited")
            seen.append(line.strip())
            if line.startswith(prefix):
                return time.perf_counter() - start
            if time.perf_counter() - start > limit:
                raise SystemExit(f"no {prefix} within {limit} s")

    def ready():
        send("isready")
        return until("readyok") * 1000

    def search():
        send("position startpos")
        send("go depth 8")
        until("bestmove")

    send("uci")
    until("uciok")
    ready()
    search()
    base = rss_mb(eng.pid)
    print(f"{ENGINE}: Hash 16, resident {base:.0f} MB")
    for cycle in range(1, CYCLES + 1):
        send(f"setoption name Hash value {BIG}")
        grow = ready()
        search()
        big = rss_mb(eng.pid)
        send("setoption name Hash value 16")
        shrink = ready()
        search()
        small = rss_mb(eng.pid)
        mark = len(seen)
        send("setoption name Hash value 65536")
        refuse = ready()
        search()
        said = [l for l in seen[mark:] if "error" in l.lower() or "warning" in l.lower()]
        after = rss_mb(eng.pid)
        print(f"  cycle {cycle}: Hash {BIG}: readyok after {grow:.0f} ms, resident {big:.0f} MB; "
              f"Hash 16: readyok after {shrink:.0f} ms, resident {small:.0f} MB; "
              f"Hash 65536: readyok after {refuse:.0f} ms, resident {after:.0f} MB, "
              f"said {said[0] if said else 'nothing'!r}")
    send("quit")
    eng.wait(timeout=30)


if __name__ == "__main__":
    main()
