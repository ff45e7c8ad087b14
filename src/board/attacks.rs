//! Attack tables, all computed at compile time.
//!
//! Leapers (king, advisor, elephant, horse, pawn) get one table entry per point, with the
//! blocking point (elephant eye, horse leg) stored beside the targets it guards.
//!
//! Sliders (chariot, cannon) use *line tables*: the attacks of a piece along one rank depend
//! only on its file and the 9-bit occupancy of that rank, and along a file only on its rank
//! and the 10-bit occupancy of that file. Rank occupancy is a plain shift of the board's
//! `u128`; file occupancy comes from a second, *transposed* occupancy (`file * 10 + rank`) that
//! the position keeps beside the normal one, so no bit gathering is ever needed. The chariot
//! and cannon tables are paired, one entry holding both, for the many places that need both
//! views of one point (a cannon's moves, a king's attackers, pins).

use super::bitboard::{BOARD_MASK, Bitboard, POINT_SLOTS, SQUARE_BITS};
use crate::core::{Color, SQUARES, Square};

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

const fn index_of(file: i32, rank: i32) -> usize {
    (rank * 9 + file) as usize
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)
}

const fn same_half(rank_a: i32, rank_b: i32) -> bool {
    (rank_a <= 4) == (rank_b <= 4)
}

/// Bit of a point in the transposed occupancy (`file * 10 + rank`), padded like
/// `SQUARE_BITS`.
pub static TRANSPOSED_BIT: [u128; POINT_SLOTS] = {
    let mut table = [0u128; POINT_SLOTS];
    let mut sq = 0;
    while sq < SQUARES {
        table[sq] = 1u128 << ((sq % 9) * 10 + sq / 9);
        sq += 1;
    }
    table
};

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

/// Advisor steps: one point diagonally inside the palace.
pub static ADVISOR_MOVES: [Bitboard; POINT_SLOTS] = {
    let mut table = [Bitboard::EMPTY; POINT_SLOTS];
    let steps = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
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

/// A move that a blocking point can stop: the point that must be empty (an elephant's eye, a
/// horse's leg) and the targets it guards, both as bit masks so the hot loops test them
/// without shifts. A direction off the board has both empty and contributes nothing.
#[derive(Clone, Copy)]
pub struct Gated {
    pub gate: Bitboard,
    pub targets: Bitboard,
}

/// Elephant steps per point: two points diagonally, never across the river.
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
            if on_board(tf, tr) && same_half(r, tr) {
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
const fn horse_attacker_union(gates: bool) -> [Bitboard; POINT_SLOTS] {
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

/// The seven points each color's elephants can stand on (and so the only ones they
/// attack), in `Color` order.
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

/// Chariot attacks along one line of `len` points from `pos`: every point up to and
/// including the first occupied one, in both directions. `pos`'s own bit is ignored.
const fn line_slide(pos: i32, occ: u32, len: i32) -> u32 {
    let mut bits = 0;
    let mut dir = -1;
    while dir <= 1 {
        let mut p = pos + dir;
        while p >= 0 && p < len {
            bits |= 1 << p;
            if occ >> p & 1 != 0 {
                break;
            }
            p += dir;
        }
        dir += 2;
    }
    bits
}

/// The `n`-th occupied point (1 = first) along one line in both directions from `pos`: `n = 2`
/// gives cannon capture targets (beyond exactly one screen), `n = 3` the pieces beyond two.
const fn line_nth(pos: i32, occ: u32, len: i32, n: u32) -> u32 {
    let mut bits = 0;
    let mut dir = -1;
    while dir <= 1 {
        let mut p = pos + dir;
        let mut seen = 0;
        while p >= 0 && p < len {
            if occ >> p & 1 != 0 {
                seen += 1;
                if seen == n {
                    bits |= 1 << p;
                    break;
                }
            }
            p += dir;
        }
        dir += 2;
    }
    bits
}

/// Line table along a rank: `nth == 0` is the chariot slide, otherwise the `nth` blocker.
const fn rank_table(nth: u32) -> [[u16; 512]; 9] {
    let mut table = [[0u16; 512]; 9];
    let mut file = 0;
    while file < 9 {
        let mut occ = 0;
        while occ < 512 {
            table[file][occ] = if nth == 0 {
                line_slide(file as i32, occ as u32, 9)
            } else {
                line_nth(file as i32, occ as u32, 9, nth)
            } as u16;
            occ += 1;
        }
        file += 1;
    }
    table
}

/// Line table along a file, as `rank_table`; rows past rank 9 are empty padding, so that a
/// row index masked to 4 bits needs no bounds check.
const fn file_table(nth: u32) -> [[u16; 1024]; 16] {
    let mut table = [[0u16; 1024]; 16];
    let mut rank = 0;
    while rank < 10 {
        let mut occ = 0;
        while occ < 1024 {
            table[rank][occ] = if nth == 0 {
                line_slide(rank as i32, occ as u32, 10)
            } else {
                line_nth(rank as i32, occ as u32, 10, nth)
            } as u16;
            occ += 1;
        }
        rank += 1;
    }
    table
}

/// Two line tables in one: the chariot slide in the low 16 bits of each entry, the cannon
/// target in the high 16, so that one lookup serves both pieces (a cannon moves as one and
/// captures as the other, and a king is attacked through both).
const fn paired<const LINES: usize, const OCC: usize>(
    slide: [[u16; OCC]; LINES],
    cannon: [[u16; OCC]; LINES],
) -> [[u32; OCC]; LINES] {
    let mut table = [[0u32; OCC]; LINES];
    let mut line = 0;
    while line < LINES {
        let mut occ = 0;
        while occ < OCC {
            table[line][occ] = slide[line][occ] as u32 | (cannon[line][occ] as u32) << 16;
            occ += 1;
        }
        line += 1;
    }
    table
}

static RANK_LINES: [[u32; 512]; 9] = paired(rank_table(0), rank_table(2));
static FILE_LINES: [[u32; 1024]; 16] = paired(file_table(0), file_table(2));
static RANK_THIRD: [[u16; 512]; 9] = rank_table(3);
static FILE_THIRD: [[u16; 1024]; 16] = file_table(3);

/// Spreads a 10-bit file pattern (bit = rank) onto file a of a board (bit `rank * 9`).
static FILE_SPREAD: [u128; 1024] = {
    let mut table = [0u128; 1024];
    let mut pattern = 0;
    while pattern < 1024 {
        let mut rank = 0;
        while rank < 10 {
            if pattern >> rank & 1 != 0 {
                table[pattern] |= 1u128 << (rank * 9);
            }
            rank += 1;
        }
        pattern += 1;
    }
    table
};

/// Both occupancies a slider lookup needs: normal (`rank * 9 + file`) and transposed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Occupancy {
    pub normal: u128,
    pub transposed: u128,
}

impl Occupancy {
    /// Toggles one point in both views.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.normal ^= SQUARE_BITS[sq.index()];
        self.transposed ^= TRANSPOSED_BIT[sq.index()];
    }

    /// The occupancy after a piece moves `from` → `to` (a capture leaves `to` occupied).
    #[inline]
    pub fn after_move(self, from: Square, to: Square) -> Occupancy {
        let mut next = self;
        next.toggle(from);
        if !Bitboard(self.normal).contains(to) {
            next.toggle(to);
        }
        next
    }
}

/// Per point (indexed up to 127, so a masked index needs no bounds check): its file, its
/// rank, and the shifts of its rank in the normal occupancy (rank × 9) and of its file in
/// the transposed one (file × 10). A load each, where dividing the index by 9 costs several
/// instructions, and every slider lookup needs them.
static POINT_COORDS: [[u8; 4]; 128] = {
    let mut table = [[0u8; 4]; 128];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % 9) as u8, (sq / 9) as u8);
        table[sq] = [file, rank, rank * 9, file * 10];
        sq += 1;
    }
    table
};

/// Where a point's two lines are looked up: its file and rank, and the occupancy of its rank
/// and of its file as table indices. The lookups mask their indices and shifts: no-ops on a
/// real point, which only let the compiler see that every table index is in bounds and every
/// file shift below 64 bits, so they have no bounds checks and no shift wider than needed.
#[derive(Clone, Copy)]
struct LinePoint {
    file: usize,
    rank: usize,
    /// `rank * 9`: where the rank starts in the normal occupancy.
    rank_shift: u32,
    rank_occ: usize,
    file_occ: usize,
}

impl LinePoint {
    #[inline(always)]
    fn new(sq: Square, occ: Occupancy) -> LinePoint {
        let [file, rank, rank_shift, file_shift] = POINT_COORDS[sq.index() & 127];
        LinePoint {
            file: file as usize,
            rank: rank as usize,
            rank_shift: rank_shift as u32,
            rank_occ: (occ.normal >> (rank_shift & 127)) as usize & 0x1ff,
            file_occ: (occ.transposed >> (file_shift & 127)) as usize & 0x3ff,
        }
    }

    /// The board set of a 9-bit pattern along this point's rank and a 10-bit pattern along
    /// its file.
    #[inline(always)]
    fn place(self, along_rank: u32, along_file: u32) -> Bitboard {
        let on_rank = ((along_rank & 0x1ff) as u128) << (self.rank_shift & 127);
        let on_file_a = FILE_SPREAD[along_file as usize & 0x3ff];
        let (low, high) = (on_file_a as u64, (on_file_a >> 64) as u64);
        let shift = self.file as u32 & 15;
        // A shift of the two halves by less than 64: the high half takes the bits shifted
        // out of the low one (in two steps, so a shift of 0 never shifts by 64).
        let high = high << shift | (low >> 1) >> (63 - shift);
        Bitboard(on_rank | ((high as u128) << 64 | (low << shift) as u128))
    }

    /// The paired (chariot, cannon) entries of this point's rank and file.
    #[inline(always)]
    fn lines(self) -> (u32, u32) {
        (
            RANK_LINES[self.file][self.rank_occ],
            FILE_LINES[self.rank & 15][self.file_occ],
        )
    }
}

/// What a chariot and a cannon on one point reach, from one lookup.
#[derive(Clone, Copy, Debug)]
pub struct LineAttacks {
    /// A chariot's attacks: every point up to and including the first piece each way.
    pub slide: Bitboard,
    /// A cannon's capture targets: the first piece beyond exactly one screen each way.
    pub cannon: Bitboard,
}

/// Both slider views of `sq` at once; cheaper than `chariot_attacks` and `cannon_captures`
/// apart, which each find the point's lines.
#[inline]
pub fn line_attacks(sq: Square, occ: Occupancy) -> LineAttacks {
    let point = LinePoint::new(sq, occ);
    let (rank, file) = point.lines();
    LineAttacks {
        slide: point.place(rank, file),
        cannon: point.place(rank >> 16, file >> 16),
    }
}

/// A cannon on `sq`: its capture targets, and how many empty points it can move to (the
/// chariot slide less its blockers), counted along the point's two lines without placing
/// the slide on the board. The evaluation's cannon mobility needs no more.
#[inline]
pub fn cannon_reach(sq: Square, occ: Occupancy) -> (Bitboard, u32) {
    let point = LinePoint::new(sq, occ);
    let (rank, file) = point.lines();
    let moves = (rank & 0x1ff & !(point.rank_occ as u32)).count_ones()
        + (file & 0x3ff & !(point.file_occ as u32)).count_ones();
    (point.place(rank >> 16, file >> 16), moves)
}

/// Points a chariot on `sq` attacks (moves to, or captures on if occupied).
#[inline]
pub fn chariot_attacks(sq: Square, occ: Occupancy) -> Bitboard {
    let point = LinePoint::new(sq, occ);
    let (rank, file) = point.lines();
    point.place(rank, file)
}

/// The part of `chariot_attacks` along the file of `sq` alone (up and down to the first
/// piece each way, that piece included): one lookup instead of two.
#[inline]
pub fn file_slide(sq: Square, occ: Occupancy) -> Bitboard {
    let point = LinePoint::new(sq, occ);
    point.place(0, FILE_LINES[point.rank & 15][point.file_occ])
}

/// Points a cannon on `sq` could capture on (the first piece beyond exactly one screen),
/// whatever their color.
#[inline]
pub fn cannon_captures(sq: Square, occ: Occupancy) -> Bitboard {
    let point = LinePoint::new(sq, occ);
    let (rank, file) = point.lines();
    point.place(rank >> 16, file >> 16)
}

/// The third occupied point along each of the four lines from `sq` (the piece beyond two
/// screens): where a cannon would stand to aim at `sq` through two screens.
#[inline]
pub fn third_blockers(sq: Square, occ: Occupancy) -> Bitboard {
    let point = LinePoint::new(sq, occ);
    point.place(
        RANK_THIRD[point.file][point.rank_occ] as u32,
        FILE_THIRD[point.rank & 15][point.file_occ] as u32,
    )
}

/// The four rays from a point: up the file (toward rank 9), down the file, right along the
/// rank (toward file i), left. The first two are file rays.
pub static RAYS: [[Bitboard; 4]; SQUARES] = {
    let mut table = [[Bitboard::EMPTY; 4]; SQUARES];
    let dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut sq = 0;
    while sq < SQUARES {
        let mut i = 0;
        while i < 4 {
            let (mut f, mut r) = ((sq % 9) as i32 + dirs[i].0, (sq / 9) as i32 + dirs[i].1);
            let mut bits = 0u128;
            while on_board(f, r) {
                bits |= 1u128 << index_of(f, r);
                f += dirs[i].0;
                r += dirs[i].1;
            }
            table[sq][i] = Bitboard(bits);
            i += 1;
        }
        sq += 1;
    }
    table
};

/// The points around `sq` as bits of one word: bit `k` is the point `sq - 10 + k` (for the
/// neighbours a leaper's gate can be on: `k` = 1, 9, 11, 19 straight, 0, 2, 18, 20 diagonal).
/// Points off the board's ends read as empty; a wrapped point (past an edge file) may read
/// as anything, but no step's gate is ever there.
#[inline(always)]
fn neighbourhood(sq: Square, occupied: u128) -> u32 {
    ((occupied << 10) >> sq.index()) as u32
}

/// Window bits of the four straight neighbours (horse legs) and the four diagonal ones
/// (horse legs toward a point, elephant eyes), in the order of a `GateIndexed` index.
const STRAIGHT_GATES: [u32; 4] = [1, 9, 11, 19];
const DIAGONAL_GATES: [u32; 4] = [0, 2, 18, 20];

/// The 4-bit index of which of the gates at window bits `gates` are occupied.
#[inline(always)]
fn gate_index(window: u32, gates: [u32; 4]) -> usize {
    ((window >> gates[0] & 1)
        | (window >> (gates[1] - 1) & 2)
        | (window >> (gates[2] - 2) & 4)
        | (window >> (gates[3] - 3) & 8)) as usize
}

/// A leaper's targets per point and per pattern of occupied gates (bit `j` of the index set
/// when the gate at window bit `gates[j]` is occupied): one load instead of four gate tests.
type GateIndexed = [[u128; 16]; POINT_SLOTS];

/// Builds a `GateIndexed` table from per-step gates and targets.
const fn index_by_gates(steps: &[[Gated; 4]; SQUARES], gates: [u32; 4]) -> GateIndexed {
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

static HORSE_MOVES_BY_LEGS: GateIndexed = index_by_gates(&HORSE_MOVES, STRAIGHT_GATES);
static HORSE_ATTACKERS_BY_LEGS: GateIndexed = index_by_gates(&HORSE_ATTACKERS, DIAGONAL_GATES);
static ELEPHANT_MOVES_BY_EYES: GateIndexed = index_by_gates(&ELEPHANT_STEPS, DIAGONAL_GATES);

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
const PALACE_CENTRES: [u128; 2] = [1 << 13, 1 << 76];
const PALACE_CORNERS: [u128; 2] = [
    1 << 3 | 1 << 5 | 1 << 21 | 1 << 23,
    1 << 66 | 1 << 68 | 1 << 84 | 1 << 86,
];

/// Every point the advisors `advisors` of `color` move to, with no loop over them: an
/// advisor stands on a corner of its palace or in its centre, and moves from a corner to
/// the centre and from the centre to the corners. Equal to the union of `ADVISOR_MOVES`
/// over `advisors`.
#[inline]
pub fn advisor_moves_all(color: Color, advisors: Bitboard) -> Bitboard {
    let (centre, corners) = (PALACE_CENTRES[color.index()], PALACE_CORNERS[color.index()]);
    let from_corners = if advisors.0 & corners != 0 { centre } else { 0 };
    let from_centre = if advisors.0 & centre != 0 { corners } else { 0 };
    Bitboard(from_corners | from_centre)
}

/// Every point the elephants `elephants` of `color` reach given the occupancy, with no loop
/// over them: the same rule as `elephant_moves` (two points diagonally over an empty eye,
/// never across the river), one diagonal at a time for all of them at once by shifts. The
/// elephants must stand on their own side of the river, as they always do (the FEN reader
/// refuses any other point): that half of the board is worked on as one 64-bit word.
/// Equal to the union of `elephant_moves` over `elephants`.
#[inline]
pub fn elephant_moves_all(color: Color, elephants: Bitboard, occupied: u128) -> Bitboard {
    debug_assert!((elephants & !HOME_HALVES[color.index()]).is_empty());
    const HALF: u64 = (1 << 45) - 1;
    const FILE_A: u64 = FILE_SPREAD[0x3ff] as u64 & HALF;
    // Two files right needs a start on files a..g, two files left one on files c..i.
    const RIGHT_OK: u64 = HALF & !(FILE_A << 7 | FILE_A << 8);
    const LEFT_OK: u64 = HALF & !(FILE_A | FILE_A << 1);
    // The half's lowest point: a0 for Red, a5 for Black.
    let base = if color == Color::Red { 0 } else { 45 };
    let e = (elephants.0 >> base) as u64;
    // Points off the half read as occupied: no step leaves it.
    let empty = !(occupied >> base) as u64 & HALF;
    // A diagonal step is ±9 (a rank) ±1 (a file); the eye is one step, the target two.
    let up_right = ((e & RIGHT_OK) << 10 & empty) << 10;
    let up_left = ((e & LEFT_OK) << 8 & empty) << 8;
    let down_right = ((e & RIGHT_OK) >> 8 & empty) >> 8;
    let down_left = ((e & LEFT_OK) >> 10 & empty) >> 10;
    Bitboard((((up_right | up_left | down_right | down_left) & HALF) as u128) << base)
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

/// The file and the rank of each point, as sets (a load, where computing them takes a
/// division and a variable `u128` shift).
static LINE_MASKS: [(Bitboard, Bitboard); POINT_SLOTS] = {
    let mut table = [(Bitboard::EMPTY, Bitboard::EMPTY); POINT_SLOTS];
    let mut sq = 0;
    while sq < SQUARES {
        table[sq] = (
            Bitboard(FILE_SPREAD[0x3ff] << (sq % 9)),
            Bitboard(0x1ffu128 << (sq / 9 * 9)),
        );
        sq += 1;
    }
    table
};

/// The whole file of a point, as a set.
#[inline]
pub fn file_mask(sq: Square) -> Bitboard {
    LINE_MASKS[sq.index()].0
}

/// The whole rank of a point, as a set.
#[inline]
pub fn rank_mask(sq: Square) -> Bitboard {
    LINE_MASKS[sq.index()].1
}

/// The up to four diagonal neighbours of a point (where horse legs toward it lie).
#[inline]
pub fn diagonal_neighbours(sq: Square) -> Bitboard {
    DIAGONAL_NEIGHBOURS[sq.index()]
}

/// `diagonal_neighbours` per point: the gates of its horse attackers.
static DIAGONAL_NEIGHBOURS: [Bitboard; POINT_SLOTS] = horse_attacker_union(true);

#[cfg(test)]
mod tests {
    use super::*;

    /// The targets of the steps whose gate is empty in `occupied`, step by step: what the
    /// gate-indexed tables must agree with.
    fn open_targets(steps: &[Gated; 4], occupied: u128) -> Bitboard {
        let mut bits = 0;
        for step in steps {
            if occupied & step.gate.0 == 0 {
                bits |= step.targets.0;
            }
        }
        Bitboard(bits)
    }

    #[test]
    fn gate_indexed_leapers_agree_with_step_by_step_tests() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..2000 {
            let mut occupied = (random() as u128 | (random() as u128) << 64) & BOARD_MASK;
            // Sparse and dense boards as well as half-full ones.
            match round % 3 {
                0 => occupied &= random() as u128 | (random() as u128) << 64,
                1 => occupied |= random() as u128 | (random() as u128) << 64,
                _ => {}
            }
            occupied &= BOARD_MASK;
            for sq in Square::all() {
                let i = sq.index();
                assert_eq!(
                    horse_attacks(sq, occupied),
                    open_targets(&HORSE_MOVES[i], occupied)
                );
                assert_eq!(
                    horse_attackers(sq, occupied),
                    open_targets(&HORSE_ATTACKERS[i], occupied)
                );
                assert_eq!(
                    elephant_moves(sq, occupied),
                    open_targets(&ELEPHANT_STEPS[i], occupied)
                );
            }
        }
    }

    fn sq(text: &str) -> Square {
        Square::parse(text).unwrap()
    }

    fn occupancy(points: &[&str]) -> Occupancy {
        let mut occ = Occupancy::default();
        for p in points {
            occ.toggle(sq(p));
        }
        occ
    }

    fn names(bb: Bitboard) -> Vec<String> {
        bb.map(|s| s.to_string()).collect()
    }

    #[test]
    fn chariot_stops_at_the_first_piece_each_way() {
        let occ = occupancy(&["e4", "e6", "c4", "e2"]);
        let att = chariot_attacks(sq("e4"), occ);
        assert_eq!(
            names(att),
            ["e2", "e3", "c4", "d4", "f4", "g4", "h4", "i4", "e5", "e6"]
        );
    }

    #[test]
    fn cannon_jumps_exactly_one_screen() {
        let occ = occupancy(&["b2", "b7", "b9", "e2", "h2", "b5"]);
        let att = cannon_captures(sq("b2"), occ);
        // Up the file: screen b5, target b7 (b9 is behind a second piece). Along the rank:
        // screen e2, target h2.
        assert_eq!(names(att), ["h2", "b7"]);
    }

    /// The next number of a xorshift sequence: random boards, the same in every run.
    fn next_random(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn horse_span_holds_the_points_a_free_horse_reaches_the_point_from() {
        for sq in Square::all() {
            let from: Vec<Square> = Square::all()
                .filter(|&p| horse_attacks(p, 0).contains(sq))
                .collect();
            let span: Vec<Square> = HORSE_SPAN[sq.index()].collect();
            assert_eq!(span, from, "{sq}");
        }
    }

    #[test]
    fn elephant_points_are_those_the_elephants_reach_from_their_start() {
        for color in Color::BOTH {
            // From the two start points (c0 and g0, or c9 and g9), every point reachable on
            // an empty board.
            let rank = if color == Color::Red { 0 } else { 9 };
            let mut reached = Bitboard::EMPTY
                .with(Square::new(2, rank))
                .with(Square::new(6, rank));
            loop {
                let next = reached.fold(reached, |set, sq| set | elephant_moves(sq, 0));
                if next == reached {
                    break;
                }
                reached = next;
            }
            assert_eq!(reached.count(), 7);
            assert_eq!(ELEPHANT_POINTS[color.index()], reached, "{color:?}");
        }
    }

    #[test]
    fn elephant_moves_all_is_the_union_of_each_elephants_moves() {
        let mut seed = 0x51a3_6b0e_d3c1_27f9u64;
        for round in 0..3000 {
            let a = next_random(&mut seed);
            let b = next_random(&mut seed);
            let occupied = (a as u128 | (b as u128) << 64) & BOARD_MASK;
            // Elephants anywhere on their own side of the river (a few, as in play, or
            // many), each on an occupied point as a real piece would be.
            let color = Color::BOTH[round % 2];
            let c = next_random(&mut seed);
            let d = next_random(&mut seed);
            let mut elephants = (c as u128 | (d as u128) << 64) & HOME_HALVES[color.index()].0;
            if round % 4 < 2 {
                elephants &=
                    (next_random(&mut seed) as u128) << 32 | next_random(&mut seed) as u128;
            }
            let elephants = Bitboard(elephants);
            let occupied = occupied | elephants.0;
            let union = elephants.fold(Bitboard::EMPTY, |set, sq| {
                set | elephant_moves(sq, occupied)
            });
            assert_eq!(
                elephant_moves_all(color, elephants, occupied),
                union,
                "round {round}"
            );
        }
    }

    #[test]
    fn advisor_moves_all_is_the_union_of_each_advisors_moves() {
        for color in Color::BOTH {
            // The points an advisor may stand on (corners and centre), from the diagram.
            let (low, centre, high) = if color == Color::Red {
                (0, 1, 2)
            } else {
                (7, 8, 9)
            };
            let points = [(3, low), (5, low), (4, centre), (3, high), (5, high)]
                .map(|(file, rank)| Square::new(file, rank));
            assert_eq!(points.len(), 5);
            for subset in 0..1u32 << points.len() {
                let advisors = points
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset >> i & 1 != 0)
                    .fold(Bitboard::EMPTY, |set, (_, sq)| set.with(*sq));
                let union =
                    advisors.fold(Bitboard::EMPTY, |set, sq| set | ADVISOR_MOVES[sq.index()]);
                assert_eq!(
                    advisor_moves_all(color, advisors),
                    union,
                    "{color:?} {subset}"
                );
            }
        }
    }

    /// Slider lookups against a walk along each ray, for every point and many random
    /// occupancies: the first piece each way (chariot), the second (cannon), the third.
    #[test]
    fn slider_lookups_match_a_walk_along_the_rays() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            let seed = next_random(&mut seed);
            let bits = (seed as u128 | (seed.rotate_left(23) as u128) << 64) & BOARD_MASK;
            let mut occ = Occupancy::default();
            for sq in Bitboard(bits) {
                occ.toggle(sq);
            }
            for from in Square::all() {
                let (mut slide, mut nth) = (Bitboard::EMPTY, [Bitboard::EMPTY; 3]);
                for &ray in &RAYS[from.index()] {
                    // Walk outward: the ray's points sorted by distance from `from`.
                    let mut points: Vec<Square> = ray.collect();
                    points.sort_by_key(|p| {
                        (p.file() as i32 - from.file() as i32).abs()
                            + (p.rank() as i32 - from.rank() as i32).abs()
                    });
                    let mut seen = 0;
                    for p in points {
                        let occupied = occ.normal >> p.index() & 1 != 0;
                        if seen == 0 {
                            slide |= Bitboard(SQUARE_BITS[p.index()]);
                        }
                        if occupied {
                            if seen < 3 {
                                nth[seen] |= Bitboard(SQUARE_BITS[p.index()]);
                            }
                            seen += 1;
                        }
                    }
                }
                let lines = line_attacks(from, occ);
                assert_eq!(lines.slide, slide, "{from}");
                assert_eq!(lines.cannon, nth[1], "{from}");
                assert_eq!(chariot_attacks(from, occ), slide, "{from}");
                assert_eq!(file_slide(from, occ), slide & file_mask(from), "{from}");
                assert_eq!(cannon_captures(from, occ), nth[1], "{from}");
                let empty = !Bitboard(occ.normal);
                assert_eq!(
                    cannon_reach(from, occ),
                    (nth[1], (slide & empty).count()),
                    "{from}"
                );
                assert_eq!(third_blockers(from, occ), nth[2], "{from}");
            }
        }
    }

    #[test]
    fn horse_legs_block_and_attackers_mirror_moves() {
        let occ = occupancy(&["b0", "b1"]);
        assert_eq!(names(horse_attacks(sq("b0"), occ.normal)), ["d1"]);
        let open = occupancy(&["b0"]);
        assert_eq!(
            names(horse_attacks(sq("b0"), open.normal)),
            ["d1", "a2", "c2"]
        );
        // Attackers are exactly the horses whose moves reach the point, for every occupancy
        // tried here.
        for target in Square::all() {
            for blockers in [&[][..], &["e4", "d5", "f3"][..]] {
                let occ = occupancy(blockers);
                for from in Square::all() {
                    let moves = horse_attacks(from, occ.normal);
                    let attackers = horse_attackers(target, occ.normal);
                    assert_eq!(
                        moves.contains(target),
                        attackers.contains(from),
                        "{from} {target}"
                    );
                }
            }
        }
    }

    #[test]
    fn elephants_and_advisors_stay_home() {
        let empty = Occupancy::default();
        assert_eq!(names(elephant_moves(sq("c4"), empty.normal)), ["a2", "e2"]);
        assert_eq!(names(elephant_moves(sq("c5"), empty.normal)), ["a7", "e7"]);
        let eye = occupancy(&["d3"]);
        assert_eq!(names(elephant_moves(sq("c4"), eye.normal)), ["a2"]);
        assert_eq!(
            names(ADVISOR_MOVES[sq("e1").index()]),
            ["d0", "f0", "d2", "f2"]
        );
        assert_eq!(names(KING_MOVES[sq("d0").index()]), ["e0", "d1"]);
        assert_eq!(
            names(KING_MOVES[sq("e8").index()]),
            ["e7", "d8", "f8", "e9"]
        );
    }

    #[test]
    fn pawn_moves_of_all_pawns_at_once_match_one_by_one() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2_000 {
            let seed = next_random(&mut seed);
            let pawns =
                Bitboard((seed as u128 | (seed.rotate_left(29) as u128) << 64) & BOARD_MASK);
            for color in Color::BOTH {
                let one_by_one = pawns
                    .into_iter()
                    .fold(Bitboard::EMPTY, |acc, sq| acc | pawn_moves(color, sq));
                assert_eq!(pawn_moves_all(color, pawns), one_by_one, "{pawns:?}");
            }
        }
    }

    #[test]
    fn pawns_go_sideways_only_after_the_river() {
        assert_eq!(names(pawn_moves(Color::Red, sq("c3"))), ["c4"]);
        assert_eq!(names(pawn_moves(Color::Red, sq("c5"))), ["b5", "d5", "c6"]);
        assert_eq!(names(pawn_moves(Color::Red, sq("c9"))), ["b9", "d9"]);
        assert_eq!(names(pawn_moves(Color::Black, sq("c6"))), ["c5"]);
        assert_eq!(
            names(pawn_moves(Color::Black, sq("c4"))),
            ["c3", "b4", "d4"]
        );
    }

    #[test]
    fn palaces_are_the_nine_points_around_each_king() {
        for (color, corners) in [(Color::Red, ["d0", "f2"]), (Color::Black, ["d7", "f9"])] {
            let palace = PALACES[color.index()];
            assert_eq!(palace.count(), 9);
            for corner in corners {
                assert!(palace.contains(sq(corner)), "{corner}");
            }
        }
    }

    #[test]
    fn masks_cover_lines() {
        assert_eq!(file_mask(sq("e5")).count(), 10);
        assert_eq!(rank_mask(sq("e5")).count(), 9);
        assert_eq!(names(diagonal_neighbours(sq("a0"))), ["b1"]);
    }
}
