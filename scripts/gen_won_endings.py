#!/usr/bin/env python3
"""Random positions of endings that the endgame books call won, for measuring how often the
engine actually converts them (`scripts/conversion.sh`).

Each line is a FEN with Red the stronger side and Red to move, the pieces placed at random
on points they can legally stand on; kept only when `pyffish` (Fairy-Stockfish's binding,
used here as an independent rules oracle, never by the engine) accepts it, neither king is
in check or faces the other (`scripts/xiangqi_reference.py`), and neither side is already
without a move.

    scripts/gen_won_endings.py [--per-ending 10] [--seed 1] > engine-tests/data/won_endings.epd
"""

import argparse
import random

import pyffish

import xiangqi_reference as reference

# (Red's attackers, Black's defenders): wins in the endgame books. Red also gets a random
# number of its own advisors and elephants.
ENDINGS = [
    ("R", ""),        # chariot against a bare king
    ("R", "AA"),      # chariot against two advisors
    ("R", "EE"),      # chariot against two elephants
    ("R", "AE"),      # chariot against an advisor and an elephant
    ("RH", "AAEE"),   # chariot and horse against a full palace
    ("RC", "AAEE"),   # chariot and cannon against a full palace
    ("H", ""),        # horse against a bare king
    ("H", "A"),       # horse against one advisor
    ("P", ""),        # a pawn across the river (not on the last rank) against a bare king
    ("CAA", ""),      # cannon with two advisors against a bare king
]

RED_PALACE = [(f, r) for f in range(3, 6) for r in range(0, 3)]
BLACK_PALACE = [(f, r) for f in range(3, 6) for r in range(7, 10)]
RED_ADVISOR = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
BLACK_ADVISOR = [(f, 9 - r) for f, r in RED_ADVISOR]
RED_ELEPHANT = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
BLACK_ELEPHANT = [(f, 9 - r) for f, r in RED_ELEPHANT]
ANYWHERE = [(f, r) for f in range(9) for r in range(10)]
RED_PAWN = [(f, r) for f in range(9) for r in range(5, 9)]


def fen_of(board):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            piece = board.get((file, rank))
            if piece is None:
                empty += 1
            else:
                # Fairy-Stockfish's letters: N for the horse, B for the elephant.
                row += (str(empty) if empty else "") + piece.translate(str.maketrans("HEhe", "NBnb"))
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " w - - 0 1"


def place(board, rng, piece, points):
    free = [p for p in points if p not in board]
    board[rng.choice(free)] = piece


def random_position(rng, attackers, defenders):
    board = {}
    place(board, rng, "K", RED_PALACE)
    place(board, rng, "k", BLACK_PALACE)
    for letter in defenders:
        place(board, rng, letter.lower(), BLACK_ADVISOR if letter == "A" else BLACK_ELEPHANT)
    extra_advisors = 0 if "A" in attackers else rng.randint(0, 2)
    for letter in attackers + "A" * extra_advisors + "E" * rng.randint(0, 2):
        points = {"A": RED_ADVISOR, "E": RED_ELEPHANT, "P": RED_PAWN}.get(letter, ANYWHERE)
        place(board, rng, letter, points)
    return fen_of(board)


def acceptable(fen):
    if pyffish.validate_fen(fen, "xiangqi") != pyffish.FEN_OK:
        return False
    # Neither king in check nor facing the other (the reference generator's test).
    board, _ = reference.parse_fen(fen)
    if reference.attacked(board, True) or reference.attacked(board, False):
        return False
    black_to_move = fen.replace(" w ", " b ")
    return bool(pyffish.legal_moves("xiangqi", fen, [])) and bool(
        pyffish.legal_moves("xiangqi", black_to_move, []))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-ending", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for attackers, defenders in ENDINGS:
        made = 0
        while made < args.per_ending:
            fen = random_position(rng, attackers, defenders)
            if acceptable(fen):
                print(fen)
                made += 1


if __name__ == "__main__":
    main()
