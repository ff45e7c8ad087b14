#!/usr/bin/env python3
"""A long `chariot match`, killed and resumed: its memory stays flat and its PGN ends up
with every game exactly once.

Plays GAMES games of Chariot against itself at fixed nodes with `--pgn`, samples the
runner's resident memory as it goes, kills it (SIGKILL, nothing flushed on purpose) about
half way, then runs the same command with `--resume` to the end. Prints the memory after
the first games and at the end of each run, and checks the final PGN: every round from 1 to
GAMES once, each game complete (tags, moves, a result).

Linux only (it reads /proc). Usage: python3 scripts/soak_match.py CHARIOT [GAMES] [NODES]
(defaults 1000 games at 1000 nodes a move).
"""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time

CHARIOT = os.path.abspath(sys.argv[1])
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
NODES = int(sys.argv[3]) if len(sys.argv) > 3 else 1000


def rss_mb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def rounds_in(path):
    text = open(path, encoding="utf-8").read()
    return [int(r) for r in re.findall(r'^\[Round "(\d+)"\]', text, re.M)], text


def run(pgn, resume, kill_after=None):
    cmd = [CHARIOT, "match", "--engine", f"a={CHARIOT}", "--engine", f"b={CHARIOT}",
           "--nodes", str(NODES), "--games", str(GAMES), "--concurrency", "2",
           "--opening-order", "random", "--seed", "77", "--no-progress", "--pgn", pgn]
    if resume:
        cmd.append("--resume")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = []
    while proc.poll() is None:
        time.sleep(1)
        done = len(rounds_in(pgn)[0]) if os.path.exists(pgn) else 0
        mb = rss_mb(proc.pid)
        if mb is not None:
            samples.append((done, mb))
        if kill_after is not None and done >= kill_after:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            break
    return samples


def main():
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "soak.pgn")
        first = run(pgn, False, kill_after=GAMES // 2)
        killed_at = len(rounds_in(pgn)[0])
        second = run(pgn, True)
        rounds, text = rounds_in(pgn)
        games = text.count("[Event ")
        results = len(re.findall(r'^\[Result "(1-0|0-1|1/2-1/2)"\]', text, re.M))
        ends = len(re.findall(r"(1-0|0-1|1/2-1/2)\s*$", text, re.M))
        ok = sorted(rounds) == list(range(1, GAMES + 1)) and games == results == ends == GAMES
        for name, samples in (("first run", first), ("resumed run", second)):
            early = next((mb for done, mb in samples if done >= 20), samples[0][1])
            print(f"{name}: resident memory {early:.1f} MB after 20 games, "
                  f"{samples[-1][1]:.1f} MB at its end ({samples[-1][0]} games in the PGN), "
                  f"largest {max(mb for _, mb in samples):.1f} MB")
        print(f"killed with {killed_at} games in the PGN; after --resume it holds {games} "
              f"games, rounds 1-{GAMES} {'each once' if sorted(rounds) == list(range(1, GAMES + 1)) else 'NOT each once'}, "
              f"{results} results")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
