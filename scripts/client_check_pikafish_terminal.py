#!/usr/bin/env python3
"""Plays a whole game through pikafish-terminal's own engine driver and board (PyPI:
pikafish-terminal, a terminal game made for Pikafish), as its game loop drives them.

Two `PikafishEngine` instances over Chariot play each other (Red searches deeper than
Black, so the game comes to an end). Each turn goes as in pikafish-terminal's `game.py`:
the score (`go depth D movetime T`), the game-over test (`go depth 1`, "no legal moves"
when the answer is `bestmove (none)`), the engine's move (`go depth N`), the client's
legality test of that move (`go perft 1`, its `move: count` lines), then the client's
`XiangqiBoard.push_move`. The client sends the position *after* the moves, as a two-field
FEN, followed by all the moves again: the engine must drop the first move, which is no
longer legal, and search the position itself, as Pikafish does.

The game must end with a side that has no move (or reach the ply limit; the client has no
repetition rule), every move checked legal by the client's own perft call.

Usage: python3 scripts/client_check_pikafish_terminal.py ENGINE [PLIES]
"""

import sys

from pikafish_terminal.board import XiangqiBoard
from pikafish_terminal.engine import PikafishEngine

ENGINE = sys.argv[1]
PLIES = int(sys.argv[2]) if len(sys.argv) > 2 else 240


def main():
    red = PikafishEngine(path=ENGINE, depth=8)
    black = PikafishEngine(path=ENGINE, depth=3)
    board = XiangqiBoard()
    reason = None
    try:
        for engine in (red, black):
            engine.new_game()
        for ply in range(PLIES):
            engine = red if ply % 2 == 0 else black
            fen = board.board_to_fen()
            history = list(board.move_history)
            score = engine.get_position_evaluation(fen, history)
            over, why = engine.is_game_over(fen, history)
            if over:
                reason = why
                break
            best = engine.best_move(fen, history)
            if not engine.is_move_legal(fen, history, best):
                print(f"ply {ply}: the engine's move {best} is not legal by its own perft "
                      f"in {fen}", file=sys.stderr)
                return 1
            board.push_move(board._convert_from_engine_format(best))
            print(f"{ply + 1:3d}. {best} (score before it {score:+d}, for the side to move)")
        else:
            reason = f"ply limit ({PLIES})"
    finally:
        red.quit()
        black.quit()
    print(f"game over after {len(board.move_history)} plies: {reason}")
    print(f"final position: {board.board_to_fen()}")
    if reason is None or not (reason.startswith("No legal moves") or reason.startswith("ply limit")):
        print("the game did not end normally", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
