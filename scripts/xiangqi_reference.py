"""A deliberately plain xiangqi move generator, used only to produce test data.

It shares nothing with Chariot's Rust code: a 10x9 list-of-lists board, moves found by walking
offsets, and legality by asking "can any enemy piece reach my king?" after each move. It is
checked against pyffish (Fairy-Stockfish) at depths 1-3 by gen_perft_epd.py, and supplies the
depth-4 counts there, because pyffish's per-call cost (milliseconds) makes deep counts
impractical.
"""

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

ALIASES = {"e": "b", "h": "n"}


def parse_fen(fen):
    """Returns (board, red_to_move); board[rank][file], rank 0 = Red's back rank."""
    fields = fen.split()
    rows = fields[0].split("/")
    board = [[None] * 9 for _ in range(10)]
    for i, row in enumerate(rows):
        rank = 9 - i
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
            else:
                lower = ALIASES.get(c.lower(), c.lower())
                board[rank][file] = lower.upper() if c.isupper() else lower
                file += 1
    red = len(fields) < 2 or fields[1] in ("w", "r")
    return board, red


def is_red(piece):
    return piece.isupper()


def in_palace(file, rank, red):
    return 3 <= file <= 5 and (rank <= 2 if red else rank >= 7)


def own_half(rank, red):
    return rank <= 4 if red else rank >= 5


def pseudo_moves(board, red):
    """Every move by the piece rules, ignoring the own king's safety."""
    moves = []
    for r in range(10):
        for f in range(9):
            p = board[r][f]
            if p is None or is_red(p) != red:
                continue
            kind = p.lower()

            def add(tf, tr):
                if 0 <= tf < 9 and 0 <= tr < 10:
                    q = board[tr][tf]
                    if q is None or is_red(q) != red:
                        moves.append((f, r, tf, tr))

            if kind == "k":
                for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    if in_palace(f + df, r + dr, red):
                        add(f + df, r + dr)
            elif kind == "a":
                for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    if in_palace(f + df, r + dr, red):
                        add(f + df, r + dr)
            elif kind == "b":
                for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    tf, tr = f + 2 * df, r + 2 * dr
                    if 0 <= tf < 9 and 0 <= tr < 10 and own_half(tr, red):
                        if board[r + dr][f + df] is None:
                            add(tf, tr)
            elif kind == "n":
                for lf, lr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    if not (0 <= f + lf < 9 and 0 <= r + lr < 10):
                        continue
                    if board[r + lr][f + lf] is not None:
                        continue
                    if lf:
                        add(f + 2 * lf, r + 1)
                        add(f + 2 * lf, r - 1)
                    else:
                        add(f + 1, r + 2 * lr)
                        add(f - 1, r + 2 * lr)
            elif kind in "rc":
                for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    tf, tr = f + df, r + dr
                    jumped = False
                    while 0 <= tf < 9 and 0 <= tr < 10:
                        q = board[tr][tf]
                        if kind == "r":
                            if q is None:
                                add(tf, tr)
                            else:
                                add(tf, tr)
                                break
                        else:
                            if not jumped:
                                if q is None:
                                    add(tf, tr)
                                else:
                                    jumped = True
                            elif q is not None:
                                if is_red(q) != red:
                                    add(tf, tr)
                                break
                        tf += df
                        tr += dr
            elif kind == "p":
                fwd = 1 if red else -1
                add(f, r + fwd)
                if not own_half(r, red):
                    add(f + 1, r)
                    add(f - 1, r)
    return moves


def king_square(board, red):
    for r in range(10):
        for f in range(9):
            if board[r][f] == ("K" if red else "k"):
                return f, r
    raise ValueError("no king")


def attacked(board, red):
    """Is the king of `red`'s side capturable by the other side (kings facing included)?

    Looks outward from the king: along the four lines for chariots, cannons (one screen) and
    the facing king, at the eight horse points (with the leg beside the horse), and at the
    pawn points.
    """
    kf, kr = king_square(board, red)
    enemy = (lambda q: q is not None and q.islower()) if red else (
        lambda q: q is not None and q.isupper())
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        tf, tr = kf + df, kr + dr
        screens = 0
        while 0 <= tf < 9 and 0 <= tr < 10:
            q = board[tr][tf]
            if q is not None:
                if screens == 0:
                    if enemy(q) and (q.lower() == "r" or (q.lower() == "k" and df == 0)):
                        return True
                elif screens == 1:
                    if enemy(q) and q.lower() == "c":
                        return True
                    break
                screens += 1
            tf += df
            tr += dr
    for hf, hr, lf, lr in (
        (1, 2, 1, 1), (-1, 2, -1, 1), (1, -2, 1, -1), (-1, -2, -1, -1),
        (2, 1, 1, 1), (2, -1, 1, -1), (-2, 1, -1, 1), (-2, -1, -1, -1),
    ):
        f, r = kf + hf, kr + hr
        if 0 <= f < 9 and 0 <= r < 10 and enemy(board[r][f]) and board[r][f].lower() == "n":
            if board[kr + lr][kf + lf] is None:
                return True
    fwd = 1 if red else -1  # an enemy pawn attacks from the point in front of the king
    for df, dr in ((0, fwd), (1, 0), (-1, 0)):
        f, r = kf + df, kr + dr
        if 0 <= f < 9 and 0 <= r < 10 and enemy(board[r][f]) and board[r][f].lower() == "p":
            return True
    return False


def legal_moves(board, red):
    result = []
    for f, r, tf, tr in pseudo_moves(board, red):
        captured = board[tr][tf]
        board[tr][tf], board[r][f] = board[r][f], None
        if not attacked(board, red):
            result.append((f, r, tf, tr))
        board[r][f], board[tr][tf] = board[tr][tf], captured
    return result


def perft(board, red, depth):
    moves = legal_moves(board, red)
    if depth == 1:
        return len(moves)
    total = 0
    for f, r, tf, tr in moves:
        captured = board[tr][tf]
        board[tr][tf], board[r][f] = board[r][f], None
        total += perft(board, not red, depth - 1)
        board[r][f], board[tr][tf] = board[tr][tf], captured
    return total


def perft_fen(fen, depth):
    board, red = parse_fen(fen)
    return perft(board, red, depth)


if __name__ == "__main__":
    import sys

    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(perft_fen(START_FEN, depth))
