#!/usr/bin/env python3
"""Checks Chariot's game-file readers against an independent one: the `cchess` package
(PyPI), which reads XQF and Chinese-notation PGN.

Random legal games (moves drawn by cchess's own move generator) are written by this
script's own writers, independent of Chariot's: XQF of version 10 (plain), 11 (scrambled)
and 18 (scrambled, pieces rotated), each with and without comments, and Chinese-notation
PGN (UTF-8) with cchess writing the moves. Each file is then read by cchess and by
`chariot judge --pgn FILE --json` (which lists the moves it read in ICCS); the two move
lists must agree, and both must be the game written.

Usage: python3 scripts/check_game_readers.py ENGINE [GAMES]
Exit status 0 when every file reads the same in both.
"""

import json
import os
import random
import struct
import subprocess
import sys
import tempfile

import cchess
from cchess.read_xqf import read_from_xqf

ENGINE = sys.argv[1]
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 30

ORDER = "RNBAKABNRCCPPPPP"
PHRASE = b"[(C) Copyright Mr. Dong Shiwei.]"


def iccs(move):
    (fx, fy), (tx, ty) = move
    return f"{chr(97 + fx)}{fy}{chr(97 + tx)}{ty}"


def random_game(rng, plies):
    """A random legal game from the start, as ICCS moves (cchess generates the moves)."""
    board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
    moves = []
    for _ in range(plies):
        legal = [(f, t) for f, t in board.create_moves()
                 if board.is_valid_move(f, t) and not board.is_checked_move(f, t)]
        if not legal:
            break
        move_from, move_to = rng.choice(legal)
        board.move(move_from, move_to)
        board.next_turn()
        moves.append(((move_from[0], move_from[1]), (move_to[0], move_to[1])))
    return moves


def key_of(b, times):
    return (((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * times & 0xFF


def write_xqf(moves, version, comments, rng):
    """An XQF file of the start position and `moves`, written from the format's description."""
    header = bytearray(0x400)
    header[0:2] = b"XQ"
    header[2] = version
    scrambled = version > 10
    if scrambled:
        for i in range(3, 16):
            header[i] = rng.randrange(256)
    mask, ors = header[3], header[8:12]
    ksum, kxy, kxyf, kxyt = header[12], header[13], header[14], header[15]
    pieces_key = key_of(kxy, kxy)
    from_key = key_of(kxyf, pieces_key)
    to_key = key_of(kxyt, from_key)
    size_key = (ksum * 256 + kxy) % 32000 + 767
    bytes4 = [(ksum & mask) | ors[0], (kxy & mask) | ors[1], (kxyf & mask) | ors[2],
              (kxyt & mask) | ors[3]]
    string_key = [PHRASE[i] & bytes4[i % 4] for i in range(32)]
    # Start position: Red's pieces on ranks 0-3, Black's mirrored.
    red = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0),
           (1, 2), (7, 2), (0, 3), (2, 3), (4, 3), (6, 3), (8, 3)]
    black = [(x, 9 - y) for x, y in red]
    points = [x * 10 + y for x, y in red + black]
    for i in range(32):
        if not scrambled:
            header[16 + i] = points[i]
        elif version >= 12:
            header[16 + i] = (points[(pieces_key + i + 1) & 31] + pieces_key) & 0xFF
        else:
            header[16 + i] = (points[i] + pieces_key) & 0xFF
    header[51] = 3
    body = bytearray()

    def record(src, dst, has_next, comment):
        text = comment.encode("gb18030") if comment else b""
        if not scrambled:
            body.extend([src + 0x18, dst + 0x20, 0xF0 if has_next else 0, 0])
            body.extend(struct.pack("<I", len(text)))
        else:
            flags = (0x80 if has_next else 0) | (0x20 if text else 0)
            body.extend([(src + 0x18 + from_key) & 0xFF, (dst + 0x20 + to_key) & 0xFF, flags, 0])
            if text:
                body.extend(struct.pack("<I", (len(text) + size_key) & 0xFFFFFFFF))
        body.extend(text)

    record(0, 0, bool(moves), None)
    for i, ((fx, fy), (tx, ty)) in enumerate(moves):
        record(fx * 10 + fy, tx * 10 + ty, i + 1 < len(moves), comments.get(i))
    if scrambled:
        for i in range(len(body)):
            body[i] = (body[i] + string_key[i % 32]) & 0xFF
    return bytes(header + body)


def cchess_moves_xqf(path):
    game = read_from_xqf(path)
    lines = game.dump_iccs_moves()
    return [m.lower() for m in lines[0]] if lines else []


def chariot_moves(path):
    out = subprocess.run([ENGINE, "judge", "--pgn", path, "--json"], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.splitlines()[0])["moves"]


def main():
    rng = random.Random(2026)
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(GAMES):
            moves = random_game(rng, rng.randrange(10, 120))
            want = [iccs(m) for m in moves]
            comments = {i: f"第{i + 1}着" for i in range(0, len(moves), 5)} if n % 2 else {}
            for version in (10, 11, 18):
                path = os.path.join(tmp, f"g{n}-v{version}.xqf")
                with open(path, "wb") as f:
                    f.write(write_xqf(moves, version, comments, rng))
                theirs = cchess_moves_xqf(path)
                ours = chariot_moves(path)
                checked += 1
                if not (theirs == ours == want):
                    failures += 1
                    print(f"game {n} version {version}: cchess {theirs[:6]}..., chariot "
                          f"{ours[:6]}..., written {want[:6]}...", file=sys.stderr)
            # Chinese-notation PGN, the moves written by cchess.
            board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
            text_moves = []
            for src, dst in moves:
                move = board.move(src, dst)
                text_moves.append(move.to_text())
                board.next_turn()
            body = " ".join(f"{i // 2 + 1}. {t}" if i % 2 == 0 else t
                            for i, t in enumerate(text_moves))
            path = os.path.join(tmp, f"g{n}.pgn")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f'[Game "Chinese Chess"]\n[Result "*"]\n\n{body} *\n')
            ours = chariot_moves(path)
            checked += 1
            if ours != want:
                failures += 1
                print(f"game {n} (Chinese PGN): chariot {ours[:6]}..., written {want[:6]}...",
                      file=sys.stderr)
    print(f"{checked - failures} of {checked} files read the same by cchess and Chariot")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
