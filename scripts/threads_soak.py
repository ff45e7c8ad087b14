#!/usr/bin/env python3
"""Many searches in a row on more threads than cores, the thread count changed between them.

SEARCHES searches from a few openings; every BLOCK searches the `Threads` option moves along
1 -> 64 -> 1 -> 8 -> 64 -> ...; searches alternate between `go nodes N` and `go infinite`
stopped after a moment. Every `bestmove` must be one of the position's legal moves (from the
engine's own `go perft 1`); every `stop` and `isready` is timed. At the end the process's
threads must be back to what one search thread needs. Prints the figures; exit status 1 on a
bad move, a hang (no answer within 30 s) or threads left behind.

Linux only (it reads /proc). Usage: python3 scripts/threads_soak.py ENGINE [SEARCHES] [BLOCK]
(defaults 1000 searches, 50 a block).
"""

import statistics
import sys
import time

import uci_pipe

ENGINE = sys.argv[1]
SEARCHES = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
BLOCK = int(sys.argv[3]) if len(sys.argv) > 3 else 50
SCHEDULE = [1, 64, 1, 8, 64, 2, 64, 1]
OPENINGS = [[], ["h2e2", "h9g7"], ["c3c4", "b9c7", "b0c2"], ["b2e2", "h7e7", "h0g2"]]


def main():
    eng = uci_pipe.Engine(ENGINE)
    send = eng.send

    def until(prefix, limit=30.0):
        return eng.until(prefix, limit)

    send("uci")
    until("uciok")
    legal = []
    for moves in OPENINGS:
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("go perft 1")
        _, lines = until("Nodes searched")
        legal.append({l.split(":")[0] for l in lines if ":" in l and "Nodes" not in l})
    send("isready")
    until("readyok")
    base_threads = uci_pipe.threads(eng.pid)
    stops, readies, bad = [], [], 0
    started = time.time()
    for n in range(SEARCHES):
        if n % BLOCK == 0:
            send(f"setoption name Threads value {SCHEDULE[(n // BLOCK) % len(SCHEDULE)]}")
        k = n % len(OPENINGS)
        moves = OPENINGS[k]
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        if n % 2 == 0:
            send("go nodes 20000")
        else:
            send("go infinite")
            time.sleep(0.02)
            send("isready")
            readies.append(until("readyok")[0] * 1000)
            send("stop")
        elapsed, lines = until("bestmove")
        if n % 2 == 1:
            stops.append(elapsed * 1000)
            if "-v" in sys.argv and (stops[-1] > 10 or readies[-1] > 10):
                print(f"  search {n + 1} (Threads {SCHEDULE[(n // BLOCK) % len(SCHEDULE)]}): "
                      f"isready {readies[-1]:.1f} ms, stop {stops[-1]:.1f} ms")
        move = lines[-1].split()[1]
        if move not in legal[k]:
            print(f"search {n + 1}: bestmove {move} is not legal after {moves}")
            bad += 1
    send("setoption name Threads value 1")
    send("isready")
    until("readyok")
    end_threads = uci_pipe.threads(eng.pid)
    eng.quit()
    print(f"{ENGINE}: {SEARCHES} searches in {time.time() - started:.0f} s, Threads along "
          f"{SCHEDULE} every {BLOCK}")
    print(f"  illegal or missing bestmoves: {bad}")
    print(f"  stop -> bestmove: median {statistics.median(stops):.1f} ms, "
          f"worst {max(stops):.1f} ms ({len(stops)} stops)")
    print(f"  isready -> readyok: median {statistics.median(readies):.1f} ms, "
          f"worst {max(readies):.1f} ms")
    print(f"  process threads: {base_threads} at Threads 1 before, {end_threads} after")
    sys.exit(1 if bad or end_threads > base_threads else 0)


if __name__ == "__main__":
    main()
