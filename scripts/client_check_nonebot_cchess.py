#!/usr/bin/env python3
"""Plays a whole game through nonebot-plugin-cchess's own engine driver and board (PyPI: a
chat-bot plugin that plays xiangqi through a UCCI engine), as the plugin's AI player does.

Two `UCCIEngine` instances over Chariot play each other with the plugin's AI levels: Red
as level 5 (`go time 1500 depth 8`), Black as level 1 (`go time 100 depth 5`). Each move
goes as in the plugin: `Board.position()` (the FEN after the last capture, then the moves
since), `UCCIEngine.bestmove` (it reads lines up to `bestmove` and takes the move with its
own pattern), the move written in Chinese notation by the plugin (`Move.chinese`), then
`Board.push`, whose verdict ends the game: a side mated or its king taken, a move that
leaves its own king in check ("checked": the plugin's loss for the mover), or the plugin's
draw after 60 plies without a capture.

The game must end with a result and no move the plugin calls illegal or self-checking.

The plugin's package imports the nonebot framework on load; its `board`, `move`, `piece`,
`engine` and `drawer` modules do not, and are loaded here on their own (`drawer` needs
Pillow, which the plugin requires).

Usage: python3 scripts/client_check_nonebot_cchess.py ENGINE [PLIES]
"""

import asyncio
import importlib.util
import sys
import types
from pathlib import Path

ENGINE = Path(sys.argv[1])
PLIES = int(sys.argv[2]) if len(sys.argv) > 2 else 300


def load_plugin_modules():
    """The plugin's modules without its package `__init__` (which starts nonebot)."""
    spec = importlib.util.find_spec("nonebot_plugin_cchess")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("nonebot-plugin-cchess is not installed")
    package = types.ModuleType("nonebot_plugin_cchess")
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules["nonebot_plugin_cchess"] = package
    from nonebot_plugin_cchess.board import Board, MoveResult
    from nonebot_plugin_cchess.engine import UCCIEngine

    return Board, MoveResult, UCCIEngine


async def play():
    Board, MoveResult, UCCIEngine = load_plugin_modules()
    red, black = UCCIEngine(ENGINE), UCCIEngine(ENGINE)
    await red.open()
    await black.open()
    levels = {True: (red, 1500, 8), False: (black, 100, 5)}
    board = Board()
    result = None
    try:
        for ply in range(PLIES):
            engine, time, depth = levels[board.moveside]
            move = await engine.bestmove(board.position(), time=time, depth=depth)
            text = move.chinese(board)
            result = board.push(move)
            print(f"{ply + 1:3d}. {move.ucci()} {text}")
            if result == MoveResult.ILLEGAL:
                print(f"ply {ply + 1}: the plugin calls {move.ucci()} illegal", file=sys.stderr)
                return 1
            if result == MoveResult.CHECKED:
                print(f"ply {ply + 1}: {move.ucci()} leaves the mover's king in check",
                      file=sys.stderr)
                return 1
            if result:
                break
    finally:
        red.close()
        black.close()
    print(f"game over after {len(board.moves)} plies: {result}")
    print(f"final position: {board.fen()}")
    if result is None:
        print(f"no result within {PLIES} plies", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(play()))
