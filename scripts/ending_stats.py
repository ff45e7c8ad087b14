#!/usr/bin/env python3
"""How played endings turned out, by material: evidence for the evaluation's ending scales.

Reads PGN files written by `chariot match` (ICCS moves, `{+1.23}` scores from Red's point
of view), replays each game on a plain 9x10 board and, for every material balance that
stood for at least MIN_PLIES plies once both sides were down to a few attacking pieces,
records the game once: the result and the engine's score when the balance first appeared,
both from the stronger side's point of view (stronger by the exchange values below).
Games that repeat move for move (the same game in two files) are counted once.

    scripts/ending_stats.py games1.pgn games2.pgn ... [--min-games 8]

Prints one line per balance: games, the stronger side's score in them, how many were
drawn, and the mean engine score at the start. A balance the engine scores well ahead but
that is mostly drawn is a candidate for scaling down (`win_scale` in src/eval.rs).
"""

import argparse
import re
import sys
from collections import defaultdict

import xiangqi_reference as reference

MIN_PLIES = 8
VALUES = {"r": 9.0, "h": 4.0, "c": 4.5, "p": 1.0, "a": 2.0, "e": 2.0, "k": 0.0}
START = reference.START_FEN


def parse_fen(fen):
    """The board as {(file, rank): letter}, horses as h and elephants as e."""
    rows, _ = reference.parse_fen(fen)
    rename = str.maketrans("nbNB", "heHE")
    return {(file, rank): piece.translate(rename)
            for rank, row in enumerate(rows) for file, piece in enumerate(row) if piece}


def side_material(board, red):
    """Counts per kind for one side, pawns split into crossed and not."""
    counts = defaultdict(int)
    for (file, rank), piece in board.items():
        if piece.isupper() != red:
            continue
        kind = piece.lower()
        if kind == "p":
            crossed = rank >= 5 if red else rank <= 4
            bottom = rank == 9 if red else rank == 0
            kind = "b" if bottom else ("p" if crossed else "q")
        counts[kind] += 1
    return counts


def signature(counts):
    """e.g. 'RHP+AAE': attackers (P crossed, B on the last rank, Q not crossed), then
    defenders."""
    attackers = "".join(
        letter * counts[kind] for kind, letter in
        [("r", "R"), ("h", "H"), ("c", "C"), ("p", "P"), ("b", "B"), ("q", "Q")])
    return attackers + "+" + "A" * counts["a"] + "E" * counts["e"]


def value(counts):
    return sum(VALUES[{"b": "p", "q": "p"}.get(k, k)] * n for k, n in counts.items())


def is_ending(red, black):
    """Both sides down to at most two of chariot, horse and cannon, chariots counting two."""
    def majors(c):
        return 2 * c["r"] + c["h"] + c["c"]
    return majors(red) <= 3 and majors(black) <= 3


def games(paths):
    text = "".join(open(p, encoding="utf-8", errors="replace").read() for p in paths)
    for block in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', block, re.M))
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        moves = re.findall(r"\b([a-i][0-9][a-i][0-9])\b(?:\s*\{([^}]*)\})?", body)
        if "Result" in tags and moves:
            yield tags, moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--min-games", type=int, default=8)
    args = parser.parse_args()
    seen = set()
    stats = defaultdict(lambda: [0, 0.0, 0, 0.0])  # games, score, draws, summed engine score
    for tags, moves in games(args.pgn):
        key = (tags.get("FEN", ""), " ".join(m for m, _ in moves))
        if key in seen:
            continue
        seen.add(key)
        result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags["Result"])
        if result is None:
            continue
        board = parse_fen(tags.get("FEN", START))
        runs = []  # (balance, first ply, Red's engine score then)
        for ply, (move, comment) in enumerate(moves):
            src = (ord(move[0]) - 97, int(move[1]))
            dst = (ord(move[2]) - 97, int(move[3]))
            piece = board.pop(src, None)
            if piece is None:
                break
            board[dst] = piece
            red, black = side_material(board, True), side_material(board, False)
            balance = (signature(red), signature(black))
            if not runs or runs[-1][0] != balance:
                try:
                    score = float(comment.split()[0]) if comment else None
                except ValueError:
                    score = None
                runs.append([balance, ply, score, is_ending(red, black), value(red) - value(black)])
        ends = [r[1] for r in runs[1:]] + [len(moves)]
        counted = set()
        for (balance, first, score, ending, diff), end in zip(runs, ends):
            if not ending or end - first < MIN_PLIES or score is None or abs(score) > 50:
                continue
            red_strong = diff > 0 or (diff == 0 and score >= 0)
            strong, weak = balance if red_strong else balance[::-1]
            if (strong, weak) in counted:
                continue
            counted.add((strong, weak))
            entry = stats[(strong, weak)]
            entry[0] += 1
            entry[1] += result if red_strong else 1 - result
            entry[2] += result == 0.5
            entry[3] += score if red_strong else -score
    print(f"{len(seen)} distinct games")
    print(f"{'stronger':>14} {'weaker':>14} {'games':>6} {'score':>6} {'draws':>6} {'eval':>6}")
    rows = [(k, v) for k, v in stats.items() if v[0] >= args.min_games]
    rows.sort(key=lambda kv: -kv[1][0])
    for (strong, weak), (n, score, draws, evals) in rows:
        print(f"{strong:>14} {weak:>14} {n:6d} {score / n:6.2f} {draws / n:6.2f} {evals / n:6.2f}")


if __name__ == "__main__":
    sys.exit(main())
