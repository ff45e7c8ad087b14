//! Slider attacks (chariot, cannon) from line tables indexed by a rank's or a file's
//! occupancy, the transposed occupancy that makes a file's bits one shift away, and rays.

use super::*;

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

/// Chariot attacks along one line of `len` points from `pos`: every point up to and
/// including the first occupied one, in both directions. `pos`'s own bit is ignored.
pub(super) const fn line_slide(pos: i32, occ: u32, len: i32) -> u32 {
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
pub(super) const fn line_nth(pos: i32, occ: u32, len: i32, n: u32) -> u32 {
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
pub(super) const fn rank_table(nth: u32) -> [[u16; 512]; 9] {
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
pub(super) const fn file_table(nth: u32) -> [[u16; 1024]; 16] {
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
pub(super) const fn paired<const LINES: usize, const OCC: usize>(
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

pub(super) static RANK_LINES: [[u32; 512]; 9] = paired(rank_table(0), rank_table(2));
pub(super) static FILE_LINES: [[u32; 1024]; 16] = paired(file_table(0), file_table(2));
pub(super) static RANK_THIRD: [[u16; 512]; 9] = rank_table(3);
pub(super) static FILE_THIRD: [[u16; 1024]; 16] = file_table(3);

/// Spreads a 10-bit file pattern (bit = rank) onto file a of a board (bit `rank * 9`).
pub(super) static FILE_SPREAD: [u128; 1024] = {
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
pub(super) static POINT_COORDS: [[u8; 4]; 128] = {
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
pub(super) struct LinePoint {
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
