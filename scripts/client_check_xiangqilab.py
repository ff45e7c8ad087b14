#!/usr/bin/env python3
"""Drives Chariot through xiangqilab's own engine driver and analysis parser, as its desktop
GUI does: MultiPV 3, WDL on, one thread per core, 2 GB hash, `go movetime … depth …`.

For each position, the lines xiangqilab keeps (per line number, the first line of the
deepest depth) must be three different moves of one depth, line 1 must start with the
`bestmove`, and every line must play out on xiangqilab's own board. A refused position must
end with no move (xiangqilab then shows nothing, rather than a move of another position).

xiangqilab declares Python >= 3.13 for its Tk window; its engine and parser modules, used
here, run on the Python 3.11 of our machines (install with
`pip install --no-deps --ignore-requires-python xiangqilab`).

Usage: python3 scripts/client_check_xiangqilab.py ENGINE [MOVETIME_SECONDS]
"""

import sys

from xiangqilab.config import EngineConfig
from xiangqilab.engine import Engine
from xiangqilab.engine_output import EngineOutput
from xiangqilab.position_parser import PositionParser
from xiangqilab.variation import Variation

POSITIONS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "r2ak4/9/2n1b4/p1C1p1c1p/9/2P6/P3P3P/4C4/9/2BAKA3 w - - 0 1",
    "2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1C1N2/9/2BAKAB2 b - - 0 1",
    # Composed puzzles: mate in 2 and mate in 4.
    "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
    "3k2p2/4P4/9/9/9/2B1cnN2/9/7CR/4p4/2Cp1K3 w - - 0 1",
]
# Two kings on one side: refused, so the answer must be "no move".
REFUSED = "3k5/9/9/9/9/9/9/9/9/3K1K3 w - - 0 1"


def iccs(move):
    """xiangqilab's move (screen coordinates, row 0 at Black's side) in ICCS."""
    return "".join(f"{chr(97 + c.x)}{9 - c.y}" for c in (move.src, move.dst))


def analyse(engine, fen):
    """Runs one analysis as the GUI does and returns xiangqilab's view of it."""
    output = EngineOutput.default(PositionParser.parse(fen), PositionParser.parse_position_info(fen))
    engine.command_queue.put("set_position")
    engine.command_queue.put(fen)
    engine.command_queue.put("search")
    while not output.done:
        item = engine.result_queue.get(timeout=60)
        if item.startswith("stdout "):
            line = item[len("stdout "):]
            output = output.parse(line, engine.using_uci)
            if line.startswith("bestmove"):
                break
    return output


def main():
    engine_path = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.7
    config = EngineConfig({
        "engine_path": engine_path, "neural_net_path": "", "top_n_moves": 3,
        "search_depth": 40, "search_time_seconds": seconds, "hash_table_size_mb": 2048,
    })
    engine = Engine(config)
    failures = 0
    for fen in POSITIONS:
        out = analyse(engine, fen)
        lines = [out.alt_moves[k] for k in sorted(out.alt_moves)]
        firsts = [line.moves[0] for line in lines]
        depths = {line.depth for line in lines}
        problems = []
        if out.best_move is None:
            problems.append("no bestmove")
        elif not lines or lines[0].moves[0] != out.best_move.best_move:
            problems.append("line 1 does not start with the bestmove")
        if sorted(out.alt_moves) != [1, 2, 3]:
            problems.append(f"lines {sorted(out.alt_moves)}")
        if len(set(firsts)) != len(firsts):
            problems.append("a move is shown twice")
        if len(depths) != 1:
            problems.append(f"lines of several depths {sorted(depths)}")
        for line in lines:
            try:
                Variation.from_starting_position(out.position, out.position_info, line.moves)
            except Exception as e:  # xiangqilab's own board refused the line
                problems.append(f"line {line.multipv} does not play out: {e}")
        shown = "; ".join(f"{l.multipv}: d{l.depth} {' '.join(map(iccs, l.moves[:4]))}" for l in lines)
        print(("FAIL " if problems else "ok   ") + fen + "\n     " + shown)
        for p in problems:
            print("     " + p)
        failures += bool(problems)
    out = analyse(engine, REFUSED)
    if out.best_move is not None or out.alt_moves:
        print(f"FAIL {REFUSED}: a refused position got a move")
        failures += 1
    else:
        print(f"ok   {REFUSED} (refused: no move)")
    engine.command_queue.put("quit")
    engine.join()
    print(f"xiangqilab: {len(POSITIONS) + 1 - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
