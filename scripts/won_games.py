#!/usr/bin/env python3
"""Won games converted: how often each engine wins a game once it is clearly ahead in play.

Reads PGN files written by `chariot match` (ICCS moves, each followed by the mover's score
`{+1.23}` from Red's point of view). A game counts as won for a side from the first time
the judge engine's scores put that side at THRESHOLD or more on RUN of the judge's moves in a
row; the game is then credited to the engine playing that side, with how it ended. One judge
for all games (by default the engine named by --judge, else both engines' scores) keeps the
test the same for both sides when one engine's scores mean something else (another net, or
scores damped by the move clock).

    scripts/won_games.py games.pgn ... [--judge NAME] [--threshold 3.0] [--run 4]

Prints, per engine: games won on the board, how many it converted, how many were drawn (and
by what) and lost.
"""

import argparse
import re
from collections import Counter, defaultdict

from ending_stats import games


def won_side(tags, moves, judge, threshold, run):
    """'red', 'black' or None: the side first held at +threshold for `run` judge moves."""
    red_first = " b " not in tags.get("FEN", "w ") + " "
    streak = {"red": 0, "black": 0}
    for ply, (_, comment) in enumerate(moves):
        mover = "red" if (ply % 2 == 0) == red_first else "black"
        if judge and tags.get("Red" if mover == "red" else "Black") != judge:
            continue
        try:
            score = float(comment.split()[0])
        except (ValueError, IndexError):
            continue
        for side, ahead in (("red", score >= threshold), ("black", score <= -threshold)):
            streak[side] = streak[side] + 1 if ahead else 0
            if streak[side] >= run:
                return side
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--judge", help="use only this engine's scores")
    parser.add_argument("--threshold", type=float, default=3.0, help="pawns")
    parser.add_argument("--run", type=int, default=4, help="judge moves in a row")
    args = parser.parse_args()
    tally = defaultdict(Counter)
    for tags, moves in games(args.pgn):
        side = won_side(tags, moves, args.judge, args.threshold, args.run)
        if side is None:
            continue
        engine = tags["Red" if side == "red" else "Black"]
        win = "1-0" if side == "red" else "0-1"
        result = tags["Result"]
        row = tally[engine]
        row["won"] += 1
        if result == win:
            row["converted"] += 1
        elif result == "1/2-1/2":
            row["drawn"] += 1
            row["drawn: " + tags.get("Termination", "?")] += 1
        else:
            row["lost"] += 1
    for engine, row in sorted(tally.items()):
        how = ", ".join(f"{k[7:]} {v}" for k, v in sorted(row.items()) if k.startswith("drawn: "))
        rate = 100 * row["converted"] / row["won"]
        print(f"{engine}: ahead in {row['won']}, converted {row['converted']} ({rate:.0f}%), "
              f"drawn {row['drawn']}" + (f" ({how})" if how else "") + f", lost {row['lost']}")


if __name__ == "__main__":
    main()
