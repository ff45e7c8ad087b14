#!/usr/bin/env python3
"""Writes engine-tests/data/rules/cases.txt: rules-judge test cases, cross-checked with pyffish.

Every case is `FEN ; moves ; result ; reason ; options ; pyffish`:
- moves in ICCS (ranks 0-9), the whole game from the FEN; the game must end exactly at the last
  move (the Rust test checks that no earlier ply ended it);
- result `1-0`, `0-1`, `1/2-1/2`, or `*` for a game that goes on; reason as `chariot judge --json`
  names it (`-` when the game goes on);
- options: `-`, or space-separated `rules=asian|chinese|simple`, `limit=MOVES|off`,
  `occurrences=N`;
- pyffish: `same` when pyffish (Fairy-Stockfish's Python binding, `pip install pyffish`) gives the
  same result, `differs: why` where it does not (each difference explained by a choice in
  shared/docs/rules.md), `n/a: why` where pyffish cannot judge the case (rule sets and limits it
  does not have).

The expected results are written here by hand from the rules (shared/docs/rules.md), never taken
from Chariot. One rule has no case: a pawn that has not crossed the river is never chased, but
such a pawn cannot step aside, so no repetition cycle can chase it with every move (each new
attack on a piece that stays put needs the attack to have vanished in between, which only the
attacker can arrange); the unit tests of src/rules/chase.rs check it move by move. This script checks each `same` / `differs` mark against pyffish and stops if one is
wrong. Most cases exist twice: as written, and mirrored (ranks flipped, colours swapped), so each
rule is tested with either side as the offender.

Usage: python3 scripts/gen_rules_cases.py > engine-tests/data/rules/cases.txt
"""

import re
import sys

import pyffish as sf

VARIANT = "xiangqi"


def cycle(moves, times=2):
    return " ".join([moves] * times)


# (title, FEN, moves, result, reason, options, pyffish note or None for "same", mirror?)
OWN = [
    # --- Game ends on the board ---
    ("checkmate by two chariots", "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1", "i0i9",
     "1-0", "checkmate", "-", None, True),
    ("stalemate: no legal move is a loss", "3k5/9/8R/9/9/9/9/9/9/4K4 w - - 0 1", "i7i8",
     "1-0", "stalemate", "-", None, True),
    ("stalemate beats the move limit on the same ply", "3k5/9/8R/9/9/9/9/9/9/4K4 w - - 119 60",
     "i7i8", "1-0", "stalemate", "-", None, False),
    ("checkmate on the 120th ply takes precedence over the limit",
     "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 119 60", "i0i9", "1-0", "checkmate", "-", None, False),
    # --- Material ---
    ("last attacker captured: insufficient material", "4k4/9/9/9/9/9/9/9/4p4/3AK4 w - - 0 1",
     "d0e1", "1/2-1/2", "insufficient-material", "-", None, True),
    ("only kings, advisors and elephants", "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1", "",
     "1/2-1/2", "insufficient-material", "-", None, False),
    ("a lone pawn each is not a material draw", "3k5/9/9/9/4p4/4P4/9/9/9/5K3 w - - 0 1",
     "f0f1", "*", "-", "-", None, False),
    # --- No-capture limit ---
    ("120 plies without a capture", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 118 60", "a1a2 d9d8",
     "1/2-1/2", "move-limit", "-", None, False),
    ("the limit switched off", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 118 60", "a1a2 d9d8",
     "*", "-", "limit=off", "n/a: pyffish has no switch for the limit", False),
    ("a 50-move limit", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 98 50", "a1a2 d9d8",
     "1/2-1/2", "move-limit", "limit=50", None, False),
    # --- Perpetual check ---
    ("perpetual check by one chariot", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
     "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9", "0-1", "perpetual-check", "-", None, True),
    ("the second occurrence does not end the game", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
     "a0a9 e9e8 a9a8 e8e9 a8a9", "*", "-", "-", None, True),
    ("perpetual check by two pieces: a horse and the chariot it uncovers",
     "3k5/9/9/6N2/9/9/9/9/4R4/5K3 w - - 0 1", cycle("g6e7 d9e9 e7g6 e9d9"),
     "0-1", "perpetual-check", "-", None, True),
    ("perpetual check under the simple rules", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
     "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9", "0-1", "perpetual-check", "rules=simple",
     "n/a: pyffish knows only the Asian rules", False),
    ("perpetual check under the Chinese rules", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
     "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9", "0-1", "perpetual-check", "rules=chinese",
     "n/a: pyffish knows only the Asian rules", False),
    ("a fourth occurrence asked for: the third does not end the game",
     "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
     "*", "-", "occurrences=4", "n/a: pyffish always ends at the third", False),
    # --- Idle repetition ---
    ("idle moves by both sides", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
     cycle("d0d1 e9e8 d1d0 e8e9"), "1/2-1/2", "repetition", "-", None, True),
    # --- Perpetual chase ---
    ("a chariot chases an unprotected cannon", "4k4/9/2c6/9/9/9/9/1R7/9/5K3 w - - 0 1",
     cycle("b2c2 c7b7 c2b2 b7c7"), "0-1", "perpetual-chase", "-", None, True),
    ("the same chase under the simple rules is a draw", "4k4/9/2c6/9/9/9/9/1R7/9/5K3 w - - 0 1",
     cycle("b2c2 c7b7 c2b2 b7c7"), "1/2-1/2", "repetition", "rules=simple",
     "n/a: pyffish knows only the Asian rules", False),
    ("the same chase under the Chinese rules", "4k4/9/2c6/9/9/9/9/1R7/9/5K3 w - - 0 1",
     cycle("b2c2 c7b7 c2b2 b7c7"), "0-1", "perpetual-chase", "rules=chinese",
     "n/a: pyffish knows only the Asian rules", False),
    ("a chariot may chase a protected cannon", "4k4/9/r1c6/9/9/9/9/1R7/9/5K3 w - - 0 1",
     cycle("b2c2 c7b7 c2b2 b7c7"), "1/2-1/2", "repetition", "-", None, True),
    ("a chariot chases an unprotected horse", "2n1k4/9/9/9/9/9/9/1R7/9/5K3 w - - 0 1",
     cycle("b2c2 c9b7 c2b2 b7c9"), "0-1", "perpetual-chase", "-", None, True),
    ("a horse chases a protected chariot: still a chase",
     "4k4/9/9/9/r1r6/5N3/9/9/9/3R1K3 w - - 0 1", cycle("f4d3 c5d5 d3f4 d5c5"),
     "0-1", "perpetual-chase", "-", None, True),
    ("a chariot chases a crossed pawn", "4k4/9/9/9/9/2p6/9/9/3R5/5K3 w - - 0 1",
     cycle("d1c1 c4d4 c1d1 d4c4"), "0-1", "perpetual-chase", "-", None, True),
    ("a pawn never chases", "4k4/9/9/3c5/4P4/9/9/9/9/5K3 w - - 0 1",
     cycle("e5d5 d6e6 d5e5 e6d6"), "1/2-1/2", "repetition", "-", None, True),
    ("chariot against chariot is an offer to exchange", "4k4/9/2r6/9/9/9/9/1R7/9/5K3 w - - 0 1",
     cycle("b2c2 c7b7 c2b2 b7c7"), "1/2-1/2", "repetition", "-", None, True),
    # --- Mixtures ---
    ("one check one chase is allowed in the Asian rules", "R8/4k4/2c6/9/9/9/9/9/9/3K5 w - - 0 1",
     cycle("a9a7 e8e9 a7a9 e9e8"), "1/2-1/2", "repetition", "-", None, True),
    ("one check one chase is forbidden in the Chinese rules",
     "R8/4k4/2c6/9/9/9/9/9/9/3K5 w - - 0 1", cycle("a9a7 e8e9 a7a9 e9e8"),
     "0-1", "forbidden-sequence", "rules=chinese", "n/a: pyffish knows only the Asian rules", True),
    ("one check one chase under the simple rules", "R8/4k4/2c6/9/9/9/9/9/9/3K5 w - - 0 1",
     cycle("a9a7 e8e9 a7a9 e9e8"), "1/2-1/2", "repetition", "rules=simple",
     "n/a: pyffish knows only the Asian rules", False),
]

# Positions and move cycles from Fairy-Stockfish's own test suite (test.py,
# test_is_optional_game_end); pyffish ranks are converted to ICCS. The expected results here are
# the rules as shared/docs/rules.md reads them; where they differ from pyffish the note says why.
CHECK_CHASE = ("differs: the cycle mixes a check and a chase, which the Asian rules allow "
               "(rules.md §5, §6.9); Fairy-Stockfish counts the chase")
FSF = [
    ("cannon chases a chariot (rook) directly",
     "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
     "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2", "0-1", "perpetual-chase", None),
    ("discovered chase by a cannon",
     "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1",
     "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5", "0-1", "perpetual-chase", None),
    ("the same chariot moves without the cannon: a pawn attacker only",
     "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
     "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5", "1/2-1/2", "repetition", None),
    ("discovered check alternating with a discovered chase",
     "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", cycle("f4d4 f5d5 d4f4 d5f5"),
     "1/2-1/2", "repetition", CHECK_CHASE),
    ("mutual chase by a chariot and a horse", "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
     "f6h6 " + cycle("h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6"), "1/2-1/2", "mutual-perpetual",
     None),
    ("perpetual check against intermittent checks", "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
     cycle("d6e6 e4d4 e6d6 d4e4"), "1-0", "perpetual-check", None),
    ("perpetual check by a pawn", "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
     cycle("f1e1 f2e2 e1f1 e2f2"), "1-0", "perpetual-check", None),
    ("a cannon chases a cannon that cannot hit back", "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1",
     cycle("d6e6 e7g5 e6d6 g5e7"), "1-0", "perpetual-chase", None),
    ("a chariot answers a cannon with check and chase",
     "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1", cycle("d1d3 b1b3 d3d1 b3b1"),
     "1/2-1/2", "repetition", CHECK_CHASE),
    ("a horse chases a chariot pinned to its cannon", "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1",
     cycle("g6g5 f6g8 g5g6 g8f6"), "1-0", "perpetual-chase", None),
    ("two horses take turns to chase a pawn", "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1",
     cycle("d9e9 d8e8 e9d9 e8d8"), "1-0", "perpetual-chase", None),
    ("a chariot chases a chariot pinned to its king", "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1",
     cycle("e4e3 c4c3 e3e4 c3c4"), "1-0", "perpetual-chase", None),
    ("a chariot chases a cannon that cannot hit back", "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1",
     cycle("a1c1 a4c4 c1a1 c4a4"), "1-0", "perpetual-chase", None),
    ("mutual perpetual check", "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
     cycle("e3d3 d6e6 d3e3 e6d6"), "1/2-1/2", "mutual-perpetual", None),
    ("cannons against pawns: no chase", "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1",
     cycle("h6g6 g5h5 g6h6 h5g5"), "1/2-1/2", "repetition", None),
    ("the chased chariot is protected by horses", "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w - - 0 1",
     cycle("e4e3 c4c3 e3e4 c3c4"), "1/2-1/2", "repetition", None),
    ("a cannon offers to exchange", "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1",
     cycle("c2a2 a6c6 a2c2 c6a6"), "1/2-1/2", "repetition", None),
    ("chariots attack different pieces in turn", "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
     "b1a1 " + cycle("a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1"), "1/2-1/2", "repetition", None),
    ("the attack does not change: no chase",
     "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1", cycle("h0h1 h4h3 h1h0 h3h4"),
     "1/2-1/2", "repetition", None),
    ("a chariot pinned by a horse attacks its pinner",
     "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
     "b6b8 " + cycle("f9e8 b8b9 e8f9 b9b8"), "1/2-1/2", "mutual-perpetual",
     "differs: the black chariot pinned by the horse may take its pinner (rules.md §6.2), so "
     "Black chases too; Fairy-Stockfish does not count a pinned chariot's attack (rules.md §13.7)"),
    ("a chariot pinned by a horse, and a screen that moves away",
     "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1", cycle("e1f0 h3h1 f0e1 h1h3"),
     "1/2-1/2", "mutual-perpetual",
     "differs: the red chariot pinned by the horse may take its pinner, and the advisor moving "
     "off the cannon screen leaves the horse unprotected, so Red chases too (rules.md §6.2, "
     "§6.7); Fairy-Stockfish does not count a pinned chariot's attack"),
    ("pinning a protector undermines its protection",
     "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1", cycle("e3g4 e1f1 g4e3 f1e1"),
     "1-0", "perpetual-chase", None),
    ("a discovered check threat is a chase", "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
     cycle("b4c2 b0c0 c2b4 c0b0"), "1-0", "perpetual-chase", None),
    ("a pin undermines the protection (horse)", "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1",
     cycle("e0d0 e4d4 d0e0 d4e4"), "1-0", "perpetual-chase", None),
    ("a pin undermines the protection (chariot)", "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1",
     cycle("e0d0 e4d4 d0e0 d4e4"), "1-0", "perpetual-chase", None),
    ("protection through a discovered line", "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1",
     cycle("d0c2 h0h2 c2d0 h2h0"), "1-0", "perpetual-chase", None),
    ("a protected horse is not chased", "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
     cycle("d0c2 d3c3 c2d0 c3d3"), "1/2-1/2", "repetition", None),
    ("the king alone does not protect", "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1",
     cycle("d0c2 d3c3 c2d0 c3d3"), "1-0", "perpetual-chase", None),
    ("a protector whose recapture would face the kings does not protect",
     "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1", cycle("e1g0 e9f9 g0e1 f9e9"),
     "1-0", "perpetual-chase",
     "differs: the red horse on e1 cannot retake on f3 without facing the kings, a fake root "
     "(rules.md §3, §6.5), so Black chases the cannon; Fairy-Stockfish calls it a draw (its own "
     "test leaves the value unchecked)"),
    ("a cannon cannot protect without a screen", "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
     cycle("b4c4 b3c3 c4b4 c3b3"), "1-0", "perpetual-chase", None),
    ("mutual chase with a cannon's fake protection",
     "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1", cycle("f8f6 f9e8 f6f8 e8f9"),
     "1/2-1/2", "mutual-perpetual", None),
]


def to_sf(move):
    return move[0] + str(int(move[1]) + 1) + move[2] + str(int(move[3]) + 1)


def mirror_fen(fen):
    fields = fen.split()
    rows = fields[0].split("/")[::-1]
    placement = "/".join(r.swapcase() for r in rows)
    side = "b" if fields[1] == "w" else "w"
    return " ".join([placement, side] + fields[2:])


def mirror_move(move):
    return move[0] + str(9 - int(move[1])) + move[2] + str(9 - int(move[3]))


def mirror_result(result):
    return {"1-0": "0-1", "0-1": "1-0"}.get(result, result)


def pyffish_result(fen, moves):
    """The game state pyffish sees after `moves`: a result string or `*`."""
    sf_moves = [to_sf(m) for m in moves]
    red_to_move = (fen.split()[1] == "w") == (len(moves) % 2 == 0)
    if not sf.legal_moves(VARIANT, fen, sf_moves):
        return "0-1" if red_to_move else "1-0"
    if all(sf.has_insufficient_material(VARIANT, fen, sf_moves)):
        return "1/2-1/2"
    ended, value = sf.is_optional_game_end(VARIANT, fen, sf_moves)
    if not ended:
        return "*"
    if value == 0:
        return "1/2-1/2"
    return "1-0" if (value > 0) == red_to_move else "0-1"


def main():
    cases = []
    for title, fen, moves, result, reason, options, note, mirror in OWN:
        cases.append((title, fen, moves.split(), result, reason, options, note))
        if mirror:
            cases.append((title + " (mirrored)", mirror_fen(fen),
                          [mirror_move(m) for m in moves.split()], mirror_result(result), reason,
                          options, note))
    for title, fen, moves, result, reason, note in FSF:
        cases.append(("FSF suite: " + title, fen, moves.split(), result, reason, "-", note))

    out = [line.rstrip() for line in __doc__.splitlines()[2:14]]
    out = ["# " + line if line else "#" for line in out]
    out.append("# Generated by scripts/gen_rules_cases.py; cases marked 'FSF suite' use positions from")
    out.append("# Fairy-Stockfish's test.py (test_is_optional_game_end).")
    for title, fen, moves, result, reason, options, note in cases:
        judged = None
        if note is None or note.startswith("differs"):
            judged = pyffish_result(fen, moves)
            agrees = judged == result
            if note is None and not agrees:
                sys.exit(f"pyffish disagrees on '{title}': {judged} (expected {result})")
            if note is not None and agrees:
                sys.exit(f"pyffish agrees on '{title}', which is marked as differing")
        mark = "same" if note is None else note
        out.append("")
        out.append(f"# {title}")
        out.append(f"{fen} ; {' '.join(moves)} ; {result} ; {reason} ; {options} ; {mark}")
    print("\n".join(out))
    print(f"{len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
