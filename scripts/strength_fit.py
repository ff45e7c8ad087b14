#!/usr/bin/env python3
"""Fits the playing levels' Elo labels to the games played between them.

Every match between two node budgets (`scripts/strength_games.tsv`: budgets, W/D/L, how it
was played) measures the Elo difference of those budgets. Elo is taken as piecewise linear in
the logarithm of the budget, with a knot at each budget of `LEVELS` in
src/search/strength.rs; full strength stands at the top knot's budget times
`FULL_NODES_FACTOR`. A weighted least-squares fit (weights from each match's own error)
gives each knot's Elo, with the 250- and 600-node levels pinned where the temperature levels
and the Fairy-Stockfish anchor put them.

    scripts/strength_fit.py              # the fitted labels and each match's residual
    scripts/strength_fit.py --check      # fail unless strength.rs's labels are the fit's (±25)
"""
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINNED = {250: 909, 600: 1180}
TOLERANCE = 25


def shipped_levels():
    """(Elo, nodes) of the temperature-0 levels of strength.rs, the full-strength factor."""
    src = (ROOT / "src/search/strength.rs").read_text()
    consts = {m[0]: int(m[1]) for m in re.findall(r"pub const (\w+): i32 = (\d+);", src)}
    factor = int(re.search(r"const FULL_NODES_FACTOR: u64 = (\d+);", src)[1])
    table = src[src.index("const LEVELS"):]
    table = table[: table.index("];")]
    levels = []
    for elo, nodes, temp in re.findall(r"\((\w+), ([\w:]+), (\d+)\)", table):
        elo = int(elo) if elo.isdigit() else consts[elo]
        if nodes == "u64::MAX":
            levels.append((elo, "full"))
        elif temp == "0":
            levels.append((elo, int(nodes.replace("_", ""))))
    return levels, factor


def games():
    rows = []
    for line in (ROOT / "scripts/strength_games.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        lo, hi, w, d, l, tc, conc, what = line.split("\t")
        rows.append((lo, hi, int(w), int(d), int(l), what))
    return rows


def elo_and_sigma(w, d, l):
    """The Elo difference and its standard error, from one match's W/D/L."""
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n / n
    slope = 400 / math.log(10) / (s * (1 - s))
    return -400 * math.log10(1 / s - 1), slope * math.sqrt(var)


def solve(a, b):
    """Solves a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit():
    levels, factor = shipped_levels()
    knots = [n for _, n in levels if n != "full"]
    full = knots[-1] * factor
    knots.append(full)

    def position(nodes):
        nodes = full if nodes == "full" else float(nodes)
        row = [0.0] * len(knots)
        for k in range(len(knots) - 1):
            if knots[k] <= nodes <= knots[k + 1]:
                t = math.log(nodes / knots[k]) / math.log(knots[k + 1] / knots[k])
                row[k] += 1 - t
                row[k + 1] += t
                return row
        raise SystemExit(f"strength_games.tsv: {nodes} nodes is outside the levels' budgets")

    eqs = []
    for lo, hi, w, d, l, what in games():
        elo, sigma = elo_and_sigma(w, d, l)
        row = [h - x for h, x in zip(position(hi), position(lo))]
        eqs.append((row, elo, 1 / sigma**2, what))
    for nodes, elo in PINNED.items():
        row = [1.0 if k == nodes else 0.0 for k in knots]
        eqs.append((row, elo, 1e8, "pinned"))
    n = len(knots)
    ata = [[sum(e[0][i] * e[0][j] * e[2] for e in eqs) for j in range(n)] for i in range(n)]
    aty = [sum(e[0][i] * e[1] * e[2] for e in eqs) for i in range(n)]
    labels = solve(ata, aty)
    return levels, knots, labels, eqs


def main():
    levels, knots, labels, eqs = fit()
    for (elo, nodes), fitted in zip(levels, labels):
        name = "full strength" if nodes == "full" else f"{nodes} nodes"
        print(f"{name:>14}: shipped {elo}, fitted {fitted:.0f}")
    if "--check" in sys.argv:
        bad = [(e, f) for (e, _), f in zip(levels, labels) if abs(e - f) > TOLERANCE]
        if bad:
            sys.exit(f"labels off the fit by more than {TOLERANCE}: {bad}")
        print("strength.rs's labels agree with the fit")
        return
    chi2 = 0.0
    for row, elo, weight, what in eqs:
        if what == "pinned":
            continue
        predicted = sum(r * x for r, x in zip(row, labels))
        z = (elo - predicted) * math.sqrt(weight)
        chi2 += z * z
        print(f"{what:52s} measured {elo:+6.0f}, fit {predicted:+6.0f}, z {z:+.1f}")
    print(f"chi2 {chi2:.1f} over {len(eqs) - len(PINNED)} matches, {len(knots) - len(PINNED)} free labels")


if __name__ == "__main__":
    main()
