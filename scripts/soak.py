#!/usr/bin/env python3
"""A long run of one engine process, as GUIs and match runners use it: GAMES games in a row
against itself at fixed nodes, `ucinewgame` between games, each game from one of a few
openings. Prints the process's resident memory, open file descriptors and threads after the
first ten games and at the end, and checks that a game replays move for move at the end as it
was played at the start (the same opening at fixed nodes after `ucinewgame` must give the
same game). Exit status 1 when the memory grew by 5% or more, a descriptor or a thread was
left behind, or a game did not replay.

Linux only (it reads /proc). Usage: python3 scripts/soak.py ENGINE [GAMES] [NODES] [PLIES]
(defaults 2000 games, 2000 nodes a move, at most 160 plies a game).
"""

import sys
import time

import uci_pipe

ENGINE = sys.argv[1]
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
NODES = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
PLIES = int(sys.argv[4]) if len(sys.argv) > 4 else 160
OPENINGS = [[], ["h2e2", "h9g7"], ["c3c4", "b9c7"], ["b2e2", "h7e7"], ["g3g4", "c6c5"]]


def proc_figures(pid):
    return int(uci_pipe.rss_mb(pid) * 1024), uci_pipe.fds(pid), uci_pipe.threads(pid)


def main():
    eng = uci_pipe.Engine(ENGINE)
    send = eng.send

    def until(prefix):
        return eng.until(prefix)[1][-1]

    send("uci")
    until("uciok")
    send("isready")
    until("readyok")
    games = {}
    early = None
    started = time.time()
    for n in range(1, GAMES + 1):
        send("ucinewgame")
        send("isready")
        until("readyok")
        moves = list(OPENINGS[n % len(OPENINGS)])
        while len(moves) < PLIES:
            send("position startpos moves " + " ".join(moves) if moves else "position startpos")
            send(f"go nodes {NODES}")
            best = until("bestmove").split()[1]
            if best in ("(none)", "0000"):
                break
            moves.append(best)
        if n <= len(OPENINGS) * 3 or n > GAMES - len(OPENINGS):
            games.setdefault(n % len(OPENINGS), []).append((n, moves))
        if n == 10:
            early = proc_figures(eng.pid)
        if n % 100 == 0:
            print(f"{n} games, {time.time() - started:.0f} s", flush=True)
    late = proc_figures(eng.pid)
    eng.quit()
    replay_failures = 0
    for opening, played in sorted(games.items()):
        first_n, first = played[0]
        last_n, last = played[-1]
        same = first == last
        replay_failures += not same
        print(f"opening {opening}: game {first_n} and game {last_n} "
              f"{'are the same' if same else 'DIFFER'} ({len(first)} plies)")
    growth = (late[0] - early[0]) / early[0]
    print(f"{ENGINE}: {GAMES} games at {NODES} nodes a move in {time.time() - started:.0f} s")
    print(f"  resident memory after 10 games {early[0] / 1024:.1f} MB, at the end "
          f"{late[0] / 1024:.1f} MB ({100 * growth:+.1f}%)")
    print(f"  open file descriptors {early[1]} -> {late[1]}; threads {early[2]} -> {late[2]}")
    bad = growth >= 0.05 or late[1] > early[1] or late[2] > early[2] or replay_failures
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
