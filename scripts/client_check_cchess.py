#!/usr/bin/env python3
"""Plays a short game through the `cchess` Python library's engine clients (PyPI: cchess).

Chariot plays both sides: Red through `cchess.UcciEngine` (UCCI), Black through
`cchess.UciEngine` (UCI). These clients are written by other people: they send CRLF line
endings and two-field FENs, read `bestmove`/`nobestmove` their own way, and parse our `info`
lines. Every move is checked for legality by cchess's own board. The game must end normally:
a side with no move, or the ply limit.

Usage: python3 scripts/client_check_cchess.py [PATH_TO_CHARIOT] [PLIES]
Exit status 0 on success.
"""

import os
import sys
import time

import cchess

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/chariot")
PLIES = int(sys.argv[2]) if len(sys.argv) > 2 else 24


def wait_action(engine, kinds, timeout=30.0):
    """Polls the client until it reports one of `kinds`; returns that report."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        action = engine.get_action()
        if action is None:
            time.sleep(0.01)
            continue
        if action.get("action") in kinds:
            return action
    raise SystemExit(f"no {kinds} from the engine within {timeout} s")


def main():
    red = cchess.UcciEngine()
    black = cchess.UciEngine()
    for engine in (red, black):
        if not engine.load(ENGINE):
            raise SystemExit(f"cannot start {ENGINE}")
        if not engine.wait_for_ready(timeout=10):
            raise SystemExit("no handshake answer")
    print(f"engine id: {red.ids.get('name')}; UCCI options seen: {len(red.options)}, UCI options: {len(black.options)}")

    board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
    plies = 0
    result = "ply limit"
    while plies < PLIES:
        engine = red if plies % 2 == 0 else black
        fen = board.to_fen()
        engine.go_from(fen, {"depth": 6})
        action = wait_action(engine, ("bestmove", "dead", "draw"))
        if action["action"] != "bestmove":
            result = f"{'red' if plies % 2 == 0 else 'black'} has no move ({action['action']})"
            break
        move = action["move"]
        if board.move_iccs(move) is None:
            raise SystemExit(f"illegal move {move} in {fen}")
        board.next_turn()
        plies += 1
        print(f"{plies:3d}. {move}  score {action.get('score', '?')}")
    for engine in (red, black):
        engine.quit()
    print(f"game over after {plies} plies: {result}")


if __name__ == "__main__":
    main()
