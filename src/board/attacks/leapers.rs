//! Leaper attacks (king, advisor, elephant, horse, pawn): per-point tables with the gate
//! (elephant eye, horse leg) beside each step, gate-indexed lookups, and whole-side moves by
//! shifts.

use super::*;

/// The nine palace points of each color, in `Color` order (Red's at the bottom).
pub static PALACES: [Bitboard; 2] = {
    let mut table = [Bitboard::EMPTY; 2];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        if in_palace(f, r) {
            let color = if r <= 4 { 0 } else { 1 };
            table[color].0 |= 1u128 << sq;
        }
        sq += 1;
    }
    table
};

/// King steps: one point orthogonally, staying inside the palace it stands in.
pub static KING_MOVES: [Bitboard; POINT_SLOTS] = {
    let mut table = [Bitboard::EMPTY; POINT_SLOTS];
    let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        if in_palace(f, r) {
            let mut bits = 0u128;
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + steps[i].0, r + steps[i].1);
                if on_board(nf, nr) && in_palace(nf, nr) && same_half(r, nr) {
                    bits |= 1u128 << index_of(nf, nr);
                }
                i += 1;
            }
            table[sq] = Bitboard(bits);
        }
        sq += 1;
    }
    table
};

/// Advisor steps per color and point: one point diagonally, onto a point of that color's
/// palace. An advisor stands on its palace's corners or centre in a game; a composed position
/// may put one anywhere, and it then moves by the same rule (into its palace or nowhere), as
/// other xiangqi programs play it.
pub static ADVISOR_MOVES: [[Bitboard; POINT_SLOTS]; 2] = {
    let mut table = [[Bitboard::EMPTY; POINT_SLOTS]; 2];
    let steps = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if on_board(nf, nr) && in_palace(nf, nr) {
                let color = if nr <= 4 { 0 } else { 1 };
                table[color][sq].0 |= 1u128 << index_of(nf, nr);
            }
            i += 1;
        }
        sq += 1;
    }
    table
};

/// A move that a blocking point can stop: the point that must be empty (an elephant's eye, a
/// horse's leg) and the targets it guards, both as bit masks so the hot loops test them
/// without shifts. A direction off the board has both empty and contributes nothing.
#[derive(Clone, Copy)]
pub struct Gated {
    pub gate: Bitboard,
    pub targets: Bitboard,
}

/// Elephant steps per point: two points diagonally, on either side of the river (which side
/// an elephant may land on depends on its color: `elephant_moves_of`).
pub static ELEPHANT_STEPS: [[Gated; 4]; SQUARES] = {
    let none = Gated {
        gate: Bitboard::EMPTY,
        targets: Bitboard::EMPTY,
    };
    let mut table = [[none; 4]; SQUARES];
    let dirs = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (tf, tr) = (f + 2 * dirs[i].0, r + 2 * dirs[i].1);
            if on_board(tf, tr) {
                table[sq][i] = Gated {
                    gate: Bitboard(1u128 << index_of(f + dirs[i].0, r + dirs[i].1)),
                    targets: Bitboard(1u128 << index_of(tf, tr)),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    table
};

/// Horse moves per point, grouped by leg.
pub static HORSE_MOVES: [[Gated; 4]; SQUARES] = {
    let none = Gated {
        gate: Bitboard::EMPTY,
        targets: Bitboard::EMPTY,
    };
    let mut table = [[none; 4]; SQUARES];
    let legs = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (lf, lr) = (f + legs[i].0, r + legs[i].1);
            if on_board(lf, lr) {
                // Two steps along the leg's direction and one step to either side.
                let (df, dr) = legs[i];
                let mut bits = 0u128;
                let ends = [(lf + df + dr, lr + dr + df), (lf + df - dr, lr + dr - df)];
                let mut j = 0;
                while j < 2 {
                    if on_board(ends[j].0, ends[j].1) {
                        bits |= 1u128 << index_of(ends[j].0, ends[j].1);
                    }
                    j += 1;
                }
                table[sq][i] = Gated {
                    gate: Bitboard(1u128 << index_of(lf, lr)),
                    targets: Bitboard(bits),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    table
};

/// Points from which a horse could attack a point whatever the legs (horse steps are
/// symmetric: the points a horse there could reach): a cheap test before the full lookup.
pub static HORSE_SPAN: [Bitboard; POINT_SLOTS] = horse_attacker_union(false);

/// Per point, the union over its four horse-attacker steps of their gates (`gates`) or of
/// their targets.
pub(super) const fn horse_attacker_union(gates: bool) -> [Bitboard; POINT_SLOTS] {
    let mut table = [Bitboard::EMPTY; POINT_SLOTS];
    let mut sq = 0;
    while sq < SQUARES {
        let mut bits = 0;
        let mut i = 0;
        while i < 4 {
            let step = HORSE_ATTACKERS[sq][i];
            bits |= if gates { step.gate.0 } else { step.targets.0 };
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// The seven points each color's elephants can stand on in a game (and so the only ones
/// they attack, unless a composed position put one elsewhere), in `Color` order.
pub const ELEPHANT_POINTS: [Bitboard; 2] = [
    Bitboard(1 << 2 | 1 << 6 | 1 << 18 | 1 << 22 | 1 << 26 | 1 << 38 | 1 << 42),
    Bitboard(1 << 83 | 1 << 87 | 1 << 63 | 1 << 67 | 1 << 71 | 1 << 47 | 1 << 51),
];

/// Horses that attack a point, grouped by the leg they need: the leg is a diagonal neighbour
/// of the attacked point, and the two horses that use it stand beyond it.
pub static HORSE_ATTACKERS: [[Gated; 4]; SQUARES] = {
    let none = Gated {
        gate: Bitboard::EMPTY,
        targets: Bitboard::EMPTY,
    };
    let mut table = [[none; 4]; SQUARES];
    let dirs = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = dirs[i];
            let (lf, lr) = (f + df, r + dr);
            if on_board(lf, lr) {
                let mut bits = 0u128;
                if on_board(lf + df, lr) {
                    bits |= 1u128 << index_of(lf + df, lr);
                }
                if on_board(lf, lr + dr) {
                    bits |= 1u128 << index_of(lf, lr + dr);
                }
                table[sq][i] = Gated {
                    gate: Bitboard(1u128 << index_of(lf, lr)),
                    targets: Bitboard(bits),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    table
};

/// Pawn moves per color and point: forward, and sideways once across the river.
pub static PAWN_MOVES: [[Bitboard; POINT_SLOTS]; 2] = {
    let mut table = [[Bitboard::EMPTY; POINT_SLOTS]; 2];
    let mut color = 0;
    while color < 2 {
        let forward = if color == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < SQUARES {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let crossed = if color == 0 { r >= 5 } else { r <= 4 };
            let mut bits = 0u128;
            if on_board(f, r + forward) {
                bits |= 1u128 << index_of(f, r + forward);
            }
            if crossed {
                if on_board(f - 1, r) {
                    bits |= 1u128 << index_of(f - 1, r);
                }
                if on_board(f + 1, r) {
                    bits |= 1u128 << index_of(f + 1, r);
                }
            }
            table[color][sq] = Bitboard(bits);
            sq += 1;
        }
        color += 1;
    }
    table
};

/// Points from which a pawn of the given color attacks a point (the inverse of `PAWN_MOVES`).
pub static PAWN_ATTACKERS: [[Bitboard; POINT_SLOTS]; 2] = {
    let mut table = [[Bitboard::EMPTY; POINT_SLOTS]; 2];
    let mut color = 0;
    while color < 2 {
        let mut from = 0;
        while from < SQUARES {
            let mut targets = PAWN_MOVES[color][from].0;
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                table[color][to].0 |= 1u128 << from;
                targets &= targets - 1;
            }
            from += 1;
        }
        color += 1;
    }
    table
};

/// The points around `sq` as bits of one word: bit `k` is the point `sq - 10 + k` (for the
/// neighbours a leaper's gate can be on: `k` = 1, 9, 11, 19 straight, 0, 2, 18, 20 diagonal).
/// Points off the board's ends read as empty; a wrapped point (past an edge file) may read
/// as anything, but no step's gate is ever there.
#[inline(always)]
pub(super) fn neighbourhood(sq: Square, occupied: u128) -> u32 {
    ((occupied << 10) >> sq.index()) as u32
}

/// Window bits of the four straight neighbours (horse legs) and the four diagonal ones
/// (horse legs toward a point, elephant eyes), in the order of a `GateIndexed` index.
pub(super) const STRAIGHT_GATES: [u32; 4] = [1, 9, 11, 19];
pub(super) const DIAGONAL_GATES: [u32; 4] = [0, 2, 18, 20];

/// The 4-bit index of which of the gates at window bits `gates` are occupied.
#[inline(always)]
pub(super) fn gate_index(window: u32, gates: [u32; 4]) -> usize {
    ((window >> gates[0] & 1)
        | (window >> (gates[1] - 1) & 2)
        | (window >> (gates[2] - 2) & 4)
        | (window >> (gates[3] - 3) & 8)) as usize
}

/// A leaper's targets per point and per pattern of occupied gates (bit `j` of the index set
/// when the gate at window bit `gates[j]` is occupied): one load instead of four gate tests.
pub(super) type GateIndexed = [[u128; 16]; POINT_SLOTS];

/// Builds a `GateIndexed` table from per-step gates and targets.
pub(super) const fn index_by_gates(steps: &[[Gated; 4]; SQUARES], gates: [u32; 4]) -> GateIndexed {
    let mut table = [[0u128; 16]; POINT_SLOTS];
    let mut sq = 0;
    while sq < SQUARES {
        let mut pattern = 0;
        while pattern < 16 {
            let mut i = 0;
            while i < 4 {
                let step = steps[sq][i];
                if step.gate.0 != 0 {
                    let k = step.gate.0.trailing_zeros() + 10 - sq as u32;
                    let mut j = 0;
                    while gates[j] != k {
                        j += 1;
                    }
                    if pattern >> j & 1 == 0 {
                        table[sq][pattern] |= step.targets.0;
                    }
                }
                i += 1;
            }
            pattern += 1;
        }
        sq += 1;
    }
    table
}

pub(super) static HORSE_MOVES_BY_LEGS: GateIndexed = index_by_gates(&HORSE_MOVES, STRAIGHT_GATES);
pub(super) static HORSE_ATTACKERS_BY_LEGS: GateIndexed =
    index_by_gates(&HORSE_ATTACKERS, DIAGONAL_GATES);
pub(super) static ELEPHANT_MOVES_BY_EYES: GateIndexed =
    index_by_gates(&ELEPHANT_STEPS, DIAGONAL_GATES);

/// Points a horse on `sq` attacks, given which points are occupied (legs block).
#[inline]
pub fn horse_attacks(sq: Square, occupied: u128) -> Bitboard {
    let legs = gate_index(neighbourhood(sq, occupied), STRAIGHT_GATES);
    Bitboard(HORSE_MOVES_BY_LEGS[sq.index()][legs])
}

/// Points from which a horse would attack `sq`, given the occupancy.
#[inline]
pub fn horse_attackers(sq: Square, occupied: u128) -> Bitboard {
    let legs = gate_index(neighbourhood(sq, occupied), DIAGONAL_GATES);
    Bitboard(HORSE_ATTACKERS_BY_LEGS[sq.index()][legs])
}

/// Points an elephant on `sq` can reach, given the occupancy (eyes block, no river crossing).
#[inline]
pub fn elephant_moves(sq: Square, occupied: u128) -> Bitboard {
    let eyes = gate_index(neighbourhood(sq, occupied), DIAGONAL_GATES);
    Bitboard(ELEPHANT_MOVES_BY_EYES[sq.index()][eyes])
}

/// The palace centres (e1, e8) and the four corners of each palace, in `Color` order.
pub(super) const PALACE_CENTRES: [u128; 2] = [1 << 13, 1 << 76];
pub(super) const PALACE_CORNERS: [u128; 2] = [
    1 << 3 | 1 << 5 | 1 << 21 | 1 << 23,
    1 << 66 | 1 << 68 | 1 << 84 | 1 << 86,
];

/// Every point the advisors `advisors` of `color` move to, with no loop over them when they
/// stand where a game puts them: from a corner of their palace to the centre and from the
/// centre to the corners. Advisors elsewhere (composed positions) are added one by one.
/// Equal to the union of `ADVISOR_MOVES[color]` over `advisors`.
#[inline]
pub fn advisor_moves_all(color: Color, advisors: Bitboard) -> Bitboard {
    let (centre, corners) = (PALACE_CENTRES[color.index()], PALACE_CORNERS[color.index()]);
    let from_corners = if advisors.0 & corners != 0 { centre } else { 0 };
    let from_centre = if advisors.0 & centre != 0 { corners } else { 0 };
    let elsewhere = Bitboard(advisors.0 & !(centre | corners));
    let odd = elsewhere.fold(Bitboard::EMPTY, |set, sq| {
        set | ADVISOR_MOVES[color.index()][sq.index()]
    });
    Bitboard(from_corners | from_centre) | odd
}

/// Points an elephant of `color` on `sq` can reach: [`elephant_moves`] on its own side of
/// the river. (One that a composed position put across the river may step back home, and
/// nowhere else.)
#[inline]
pub fn elephant_moves_of(color: Color, sq: Square, occupied: u128) -> Bitboard {
    elephant_moves(sq, occupied) & HOME_HALVES[color.index()]
}

/// Every point the elephants `elephants` of `color` reach given the occupancy, with no loop
/// over them: the same rule as `elephant_moves_of` (two points diagonally over an empty eye,
/// never across the river), one diagonal at a time for all of them at once by shifts, for
/// the elephants on their own side of the river: that half of the board is worked on as one
/// 64-bit word. One across it (a composed position) is added by itself. Equal to the union
/// of `elephant_moves_of` over `elephants`.
#[inline]
pub fn elephant_moves_all(color: Color, elephants: Bitboard, occupied: u128) -> Bitboard {
    const HALF: u64 = (1 << 45) - 1;
    const FILE_A: u64 = FILE_SPREAD[0x3ff] as u64 & HALF;
    // Two files right needs a start on files a..g, two files left one on files c..i.
    const RIGHT_OK: u64 = HALF & !(FILE_A << 7 | FILE_A << 8);
    const LEFT_OK: u64 = HALF & !(FILE_A | FILE_A << 1);
    // The half's lowest point: a0 for Red, a5 for Black.
    let base = if color == Color::Red { 0 } else { 45 };
    let home = HOME_HALVES[color.index()];
    let e = ((elephants & home).0 >> base) as u64;
    // Points off the half read as occupied: no step leaves it.
    let empty = !(occupied >> base) as u64 & HALF;
    // A diagonal step is ±9 (a rank) ±1 (a file); the eye is one step, the target two.
    let up_right = ((e & RIGHT_OK) << 10 & empty) << 10;
    let up_left = ((e & LEFT_OK) << 8 & empty) << 8;
    let down_right = ((e & RIGHT_OK) >> 8 & empty) >> 8;
    let down_left = ((e & LEFT_OK) >> 10 & empty) >> 10;
    let moves = Bitboard((((up_right | up_left | down_right | down_left) & HALF) as u128) << base);
    (elephants & !home).fold(moves, |set, sq| {
        set | elephant_moves_of(color, sq, occupied)
    })
}

/// Points a pawn of `color` on `sq` moves to.
#[inline]
pub fn pawn_moves(color: Color, sq: Square) -> Bitboard {
    PAWN_MOVES[color.index()][sq.index()]
}

/// The five ranks on each color's own side of the river.
pub const HOME_HALVES: [Bitboard; 2] = [
    Bitboard((1u128 << 45) - 1),
    Bitboard(((1u128 << 45) - 1) << 45),
];

/// Every point the pawns `pawns` of `color` move to, for all of them at once by shifts:
/// one rank forward, and sideways for those across the river. Equal to the union of
/// `pawn_moves` over `pawns`.
#[inline]
pub fn pawn_moves_all(color: Color, pawns: Bitboard) -> Bitboard {
    // A step right (+1) cannot start on file i, a step left (-1) not on file a.
    const FILE_A: u128 = FILE_SPREAD[0x3ff];
    const NOT_FILE_I: u128 = BOARD_MASK & !(FILE_A << 8);
    const NOT_FILE_A: u128 = BOARD_MASK & !FILE_A;
    let p = pawns.0;
    let forward = match color {
        Color::Red => (p << 9) & BOARD_MASK,
        Color::Black => p >> 9,
    };
    let crossed = p & !HOME_HALVES[color.index()].0;
    let sideways = ((crossed & NOT_FILE_I) << 1) | ((crossed & NOT_FILE_A) >> 1);
    Bitboard(forward | sideways)
}
