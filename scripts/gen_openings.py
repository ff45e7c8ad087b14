#!/usr/bin/env python3
"""Builds the opening suite shipped with `chariot match`: src/tools/matches/openings.epd.

The lines below follow the standard xiangqi opening systems (central cannon against screen
horses, same- and opposite-direction cannons, palace horses, single horse, the pawn, elephant,
horse and cannon openings, ...), written in WXF by the Chariot developers from common opening
theory: mainstream move orders, not quoted from any one book. Every prefix of a line from ply
MIN_PLY on is a candidate position. Chariot itself turns the moves into FENs (`chariot judge`,
which refuses an illegal move) and keeps a position only if its search at DEPTH scores it within
+-MAX_SCORE centipawns for the side to move, so the suite is balanced. Duplicates (transpositions)
are dropped.

Usage: cargo build --release && python3 scripts/gen_openings.py > src/tools/matches/openings.epd
"""

import json
import subprocess
import sys

CHARIOT = "target/release/chariot"
MIN_PLY = 4
DEPTH = 10
MAX_SCORE = 150

# (system, moves in WXF: Red, Black, Red, ...)
LINES = [
    # Central cannon against screen horses (中炮对屏风马)
    ("central cannon v screen horses, chariot crosses the river",
     "C2.5 H8+7 H2+3 H2+3 R1.2 R9.8 R2+6 P7+1 R2.3 C8.9 R3-1 C9-1"),
    ("central cannon v screen horses, cannon exchanges chariot",
     "C2.5 H8+7 H2+3 H2+3 R1.2 R9.8 R2+6 P7+1 R2.3 C8.9 R3.4 R8+6"),
    ("central cannon v screen horses, left horse to the river",
     "C2.5 H8+7 H2+3 H2+3 R1.2 R9.8 R2+6 P7+1 P7+1 H7+6 H8+7 C8.9"),
    ("central cannon v screen horses, five-seven cannons",
     "C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 P7+1 P7+1 H8+9 C8+4 C8.7 C2.1 R9.8 R1.2"),
    ("central cannon v screen horses, five-six cannons",
     "C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 C8.6 C8+4 H8+7 P7+1 R9.8 A4+5"),
    ("central cannon v screen horses, five-eight cannons",
     "C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 P7+1 P7+1 R2+6 C2.1 H8+7 R1.2"),
    ("central cannon v screen horses, advanced seventh pawn",
     "C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 P7+1 H2+3 H8+9 B7+5 C8.7 R1+1"),
    ("central cannon v screen horses, chariot to the riverbank",
     "C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 R2+4 P7+1 P7+1 C2.1 H8+7 R1.2"),
    ("central cannon v screen horses, left cannon blocks",
     "C2.5 H8+7 H2+3 H2+3 R1.2 R9.8 P7+1 C8+4 H8+7 P7+1 P5+1 C8.7"),
    ("central cannon v screen horses, two-headed snake",
     "C2.5 H8+7 H2+3 H2+3 P3+1 R9.8 P7+1 P3+1 H8+7 P3+1 R1.2 B7+5"),
    # Central cannon against palace horses (中炮对反宫马)
    ("central cannon v palace horses",
     "C2.5 H8+7 H2+3 C2.6 R1.2 H2+3 P7+1 R1.2 R2+6 P7+1 R2.3 C8+4"),
    ("central cannon v palace horses, five-six cannons",
     "C2.5 H8+7 H2+3 C2.6 R1.2 H2+3 C8.6 R1.2 H8+7 P7+1 R9.8 A6+5"),
    ("central cannon v palace horses, advanced pawn",
     "C2.5 H8+7 H2+3 C2.6 P7+1 H2+3 H8+7 R1.2 R1.2 P7+1 R2+4 B3+5"),
    # Central cannon against single horse (中炮对单提马)
    ("central cannon v single horse",
     "C2.5 H8+7 H2+3 R9.8 R1.2 H2+1 P7+1 P3+1 H8+7 R1.2 R9+1 C8+4"),
    # Same-direction cannons (顺炮)
    ("same-direction cannons, straight chariot v horizontal chariot",
     "C2.5 C8.5 H2+3 H8+7 R1.2 R9+1 H8+7 R9.4 A6+5 H2+3 R2+6 R4+5"),
    ("same-direction cannons, horizontal chariot v straight chariot",
     "C2.5 C8.5 H2+3 H8+7 R1+1 R9.8 R1.6 H2+3 R6+5 A4+5 H8+9 P3+1"),
    ("same-direction cannons, slow chariot",
     "C2.5 C8.5 H2+3 H8+7 R1.2 R9.8 P3+1 H2+3 H8+9 P3+1 C8.7 R1.2"),
    ("same-direction cannons, double straight chariots",
     "C2.5 C8.5 H2+3 H8+7 R1.2 R9.8 P7+1 R8+4 H8+7 H2+3 R9.8 P3+1"),
    # Opposite-direction cannons (列炮)
    ("opposite-direction cannons",
     "C2.5 C2.5 H2+3 H2+3 R1.2 R1.2 H8+7 P3+1 R9+1 H8+9 R9.4 C8.7"),
    ("opposite-direction cannons, half-way",
     "C2.5 H8+7 H2+3 C2.5 R1.2 H2+3 R2+4 R1.2 H8+7 P3+1 P7+1 C8+2"),
    # Central cannon against three-step tiger (中炮对三步虎)
    ("central cannon v three-step tiger",
     "C2.5 H8+7 H2+3 C8.9 R1.2 R9.8 H8+7 P3+1 P7+1 H2+3 R9+1 C2+2"),
    # Central cannon against the pawn counter (中炮对进左马 / 左炮封车)
    ("central cannon v left cannon blocking the chariot",
     "C2.5 H8+7 H2+3 R9.8 R1.2 C8+4 P3+1 H2+3 H8+9 P7+1 C8.7 R8+5"),
    ("central cannon v elephant defence",
     "C2.5 B3+5 H2+3 H2+3 R1.2 R1.2 H8+7 P3+1 R9.8 C8+4 P7+1 H8+9"),
    ("central cannon v advisor-corner cannon",
     "C2.5 C8.6 H2+3 H8+7 R1.2 R9.8 H8+7 H2+3 R9.8 P3+1 R2+4 A4+5"),
    ("central cannon v palace-corner cannon",
     "C2.5 C8.4 H2+3 H8+7 R1.2 R9.8 H8+7 H2+3 P7+1 P3+1 R9.8 B3+5"),
    # Pawn opening (仙人指路)
    ("pawn opening v pawn counter",
     "P7+1 P7+1 H8+7 H8+7 H2+3 H2+3 R1.2 R9.8 R9.8 C8+4 C8.9 R8+5"),
    ("pawn opening v bottom-pawn cannon",
     "P7+1 C2.3 C2.5 B3+5 H2+3 H2+1 R1.2 R1.2 H8+7 P3+1 P7+1 R2+4"),
    ("pawn opening v central cannon",
     "P7+1 C8.5 C8.5 H8+7 H8+7 R9.8 R9.8 H2+1 H2+3 P7+1 R8+4 C2.4"),
    ("pawn opening v elephant",
     "P7+1 B3+5 C2.5 H2+3 H2+3 R1.2 R1.2 C2.1 H8+7 P3+1 R2+6 H8+7"),
    ("pawn opening v horse",
     "P7+1 H2+3 H8+7 P3+1 H2+3 H8+9 R1.2 C8.7 C8.9 R9.8 R9.8 B3+5"),
    ("pawn opening v pawn, cannons to the side",
     "P7+1 P7+1 C2.3 C2.3 H2+1 H2+1 R1.2 R1.2 H8+7 H8+7 C8.9 C8.9"),
    ("third pawn opening v pawn",
     "P3+1 P3+1 H2+3 H2+3 H8+7 H8+7 R1.2 R1.2 C8.9 R9.8 R9.8 C2.1"),
    ("third pawn opening v bottom-pawn cannon",
     "P3+1 C8.7 C8.5 B7+5 H8+7 H8+9 R9.8 R9.8 H2+3 P3+1 R1.2 C2.1"),
    # Elephant opening (飞相局)
    ("elephant opening v pawn",
     "B3+5 P7+1 H2+3 H8+7 R1.2 R9.8 P7+1 H2+3 H8+7 P3+1 R9.8 R1.2"),
    ("elephant opening v central cannon",
     "B3+5 C8.5 H2+3 H8+7 R1.2 R9.8 H8+9 H2+3 C8.7 P3+1 R9.8 R1.2"),
    ("elephant opening v advisor-corner cannon",
     "B3+5 C8.4 H2+3 H8+7 R1.2 R9.8 P7+1 H2+3 H8+7 P7+1 R9.8 R1+1"),
    ("elephant opening v palace-corner cannon",
     "B3+5 C8.6 H2+3 H8+7 R1.2 R9.8 H8+9 H2+3 C8.7 R1.2 R9.8 P3+1"),
    ("elephant opening v left elephant",
     "B3+5 B3+5 H2+3 H8+7 R1.2 R9.8 P7+1 H2+3 H8+7 P3+1 R9.8 R1.2"),
    ("left elephant opening",
     "B7+5 P3+1 H8+7 H2+3 R9.8 R1.2 P3+1 H8+7 H2+3 P7+1 R1.2 R9.8"),
    # Horse opening (起马局)
    ("horse opening v pawn",
     "H2+3 P7+1 P7+1 H8+7 H8+7 H2+3 R1.2 R9.8 R9.8 C8+4 C8.9 R8+5"),
    ("horse opening v central cannon",
     "H2+3 C8.5 P7+1 H8+7 R1.2 R9.8 H8+7 H2+3 C8.9 P3+1 R9.8 R1.2"),
    ("horse opening v horse",
     "H2+3 H8+7 P7+1 P7+1 H8+7 H2+3 R1.2 R9.8 C8.9 C8.9 R9.8 R1.2"),
    ("left horse opening",
     "H8+7 P3+1 P3+1 H2+3 H2+3 H8+7 R9.8 R1.2 R1.2 C2+4 C2.1 R2+5"),
    # Cannon openings
    ("palace-corner cannon v central cannon",
     "C2.6 C8.5 H2+3 H8+7 R1.2 R9.8 H8+7 H2+3 R9.8 P3+1 R2+4 R1+1"),
    ("palace-corner cannon v horse",
     "C2.6 H8+7 H2+3 R9.8 R1.2 P7+1 H8+7 H2+3 R9.8 C8+4 P3+1 B7+5"),
    ("advisor-corner cannon v pawn",
     "C2.4 P7+1 H2+3 H8+7 R1.2 R9.8 H8+7 H2+3 R9.8 C8+4 P7+1 B3+5"),
    ("advisor-corner cannon v central cannon",
     "C2.4 C8.5 H2+3 H8+7 R1.2 R9.8 H8+7 H2+3 R9.8 P3+1 B3+5 R1.2"),
    ("golden hook cannon",
     "C8.7 C8.5 H8+9 H8+7 R9.8 R9.8 H2+3 H2+3 R1.2 P3+1 P3+1 R1.2"),
    ("edge-pawn opening",
     "P1+1 P3+1 H2+1 H2+3 R1.2 H8+7 C2.3 R9.8 H8+7 C8+4 B3+5 P7+1"),
    ("chariot opening",
     "R1+1 C8.5 H2+3 H8+7 R1.6 R9.8 H8+7 H2+3 R9.8 P3+1 B3+5 R1.2"),
    # More systems
    ("central cannon v screen horses, advisor first",
     "C2.5 H8+7 H2+3 H2+3 R1.2 R9.8 H8+7 P7+1 P7+1 A4+5 R9.8 C8+4"),
    ("central cannon v screen horses, edge horse",
     "C2.5 H8+7 H2+3 H2+3 R1.2 R9.8 H8+9 P7+1 R9.8 C8+4 P3+1 A4+5"),
    ("central cannon v screen horses, pawn exchange",
     "C2.5 H8+7 H2+3 H2+3 P7+1 P7+1 H8+7 R9.8 R9.8 C8+4 R8+6 C2.1"),
    ("central cannon v same-side pawn",
     "C2.5 P7+1 H2+3 H8+7 R1.2 R9.8 P7+1 H2+3 H8+7 C8+4 R9.8 C2.1"),
    ("central cannon v central cannon, mirror horses",
     "C2.5 C2.5 H2+3 H2+3 R1.2 R1.2 H8+7 H8+7 R9.8 R9.8 P3+1 P3+1"),
    ("same-direction cannons, straight chariot, pawn",
     "C2.5 C8.5 H2+3 H8+7 R1.2 R9.8 P3+1 R8+4 H8+7 H2+3 R9.8 P3+1"),
    ("pawn opening v pawn, central cannons later",
     "P7+1 P7+1 H8+7 H2+3 C2.5 H8+7 H2+3 C8.9 R1.2 R9.8 R9.8 A4+5"),
    ("pawn opening v horse, elephant",
     "P7+1 H8+7 H2+3 P7+1 B3+5 H2+3 R1.2 R1.2 H8+9 C8.9 R9.8 R9.8"),
    ("elephant opening v central cannon, horses",
     "B3+5 C8.5 H8+7 H8+7 R9.8 R9.8 H2+3 H2+3 R1.2 P3+1 P3+1 R1.2"),
    ("elephant opening v pawn, cannons",
     "B7+5 P7+1 H8+7 H8+7 R9.8 R9.8 C8.9 C8.9 R8+6 H2+3 H2+3 R1.2"),
    ("horse opening v pawn, exchange of pawns",
     "H8+7 P7+1 P7+1 P7+1 R9.8 H8+7 H2+3 H2+3 R1.2 C8.9 R2+4 R9.8"),
    ("horse opening v elephant",
     "H2+3 B3+5 P3+1 H2+3 H8+7 R1.2 R1.2 P7+1 R9.8 H8+9 C8.9 R9.8"),
    ("palace-corner cannon v pawn",
     "C2.6 P7+1 H2+3 H8+7 R1.2 R9.8 H8+7 H2+3 R9.8 C8+4 P3+1 P3+1"),
    ("advisor-corner cannon v horse",
     "C2.4 H8+7 H2+3 R9.8 R1.2 P7+1 H8+7 H2+3 R9.8 C8+4 B3+5 C2.1"),
    ("cannon to the third file",
     "C2.3 C8.5 H2+1 H8+7 R1.2 R9.8 H8+7 H2+3 R9.8 P3+1 B3+5 R1.2"),
    ("cannon to the edge",
     "C2.1 H8+7 H2+3 R9.8 R1.2 C8+4 P3+1 H2+3 H8+7 P7+1 B3+5 C2.1"),
]


def chariot(*args):
    out = subprocess.run([CHARIOT, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return out.stdout


def fen_after(moves):
    report = json.loads(chariot("judge", "--moves", *moves, "--json"))
    if report["state"] != "ongoing" or report["plies"] != len(moves):
        raise RuntimeError(f"the game ended: {report}")
    return report["fen"]


def score(fen):
    last = None
    for line in chariot("analyze", "--fen", fen, "--depth", str(DEPTH), "--json").splitlines():
        info = json.loads(line)
        if "score" in info:
            last = info
    value = last["score"]
    return value.get("cp") if isinstance(value, dict) else value


def main():
    seen = set()
    kept = []
    for name, line in LINES:
        moves = line.split()
        for ply in range(MIN_PLY, len(moves) + 1):
            try:
                fen = fen_after(moves[:ply])
            except RuntimeError as e:
                # Keep the legal part of the line, and say where it broke.
                print(f"line cut: {name}: move {ply} ({moves[ply - 1]}): {e}", file=sys.stderr)
                break
            placement = " ".join(fen.split()[:2])
            if placement in seen:
                continue
            seen.add(placement)
            value = score(fen)
            if value is None or abs(value) > MAX_SCORE:
                print(f"dropped ({value}): {name}, {ply} plies", file=sys.stderr)
                continue
            kept.append((fen, name, " ".join(moves[:ply]), value))
    print("# The opening suite of `chariot match` (the default --openings). Generated by")
    print("# scripts/gen_openings.py from standard opening lines; see that script for how.")
    print(f"# {len(kept)} positions, each within +-{MAX_SCORE} centipawns at depth {DEPTH}.")
    for fen, name, moves, value in kept:
        fields = fen.split()
        epd = " ".join(fields[:4])
        print(f'{epd} id "{name}"; c0 "{moves}"; c1 "score {value}";')
    print(f"{len(kept)} positions kept", file=sys.stderr)


if __name__ == "__main__":
    main()
