#!/usr/bin/env python3
"""Grows an engine's hash table to a large size and back, and measures what that costs.

Each cycle: `setoption Hash BIG` then `isready` (the time until `readyok` is the allocation
and zeroing), a short search, the engine's resident memory (from /proc); then `Hash 16`,
`isready`, the resident memory again (it must fall back); then a size the machine cannot give
(`Hash 65536` on a machine with less memory), which must be refused with an error while the
engine keeps working. Works for any UCI engine, so the figures can be taken side by side.

Usage: python3 scripts/hash_cycle.py ENGINE [BIG_MB] [CYCLES]
"""

import sys

import uci_pipe

ENGINE = sys.argv[1]
BIG = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
CYCLES = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def main():
    eng = uci_pipe.Engine(ENGINE)
    send = eng.send
    seen = []

    def until(prefix, limit=120):
        elapsed, lines = eng.until(prefix, limit)
        seen.extend(lines)
        return elapsed

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
    base = uci_pipe.rss_mb(eng.pid)
    print(f"{ENGINE}: Hash 16, resident {base:.0f} MB")
    for cycle in range(1, CYCLES + 1):
        send(f"setoption name Hash value {BIG}")
        grow = ready()
        search()
        big = uci_pipe.rss_mb(eng.pid)
        send("setoption name Hash value 16")
        shrink = ready()
        search()
        small = uci_pipe.rss_mb(eng.pid)
        mark = len(seen)
        send("setoption name Hash value 65536")
        refuse = ready()
        search()
        said = [l for l in seen[mark:] if "error" in l.lower() or "warning" in l.lower()]
        after = uci_pipe.rss_mb(eng.pid)
        print(f"  cycle {cycle}: Hash {BIG}: readyok after {grow:.0f} ms, resident {big:.0f} MB; "
              f"Hash 16: readyok after {shrink:.0f} ms, resident {small:.0f} MB; "
              f"Hash 65536: readyok after {refuse:.0f} ms, resident {after:.0f} MB, "
              f"said {said[0] if said else 'nothing'!r}")
    eng.quit()


if __name__ == "__main__":
    main()
