//! Attack tables, all computed at compile time: leapers in `leapers.rs`, sliders in
//! `sliders.rs`, and the line masks of a point here.
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

mod leapers;
mod sliders;
#[cfg(test)]
mod tests;

pub use leapers::*;
#[allow(unused_imports)]
use leapers::*;
pub use sliders::*;
#[allow(unused_imports)]
use sliders::*;

use super::bitboard::{BOARD_MASK, Bitboard, POINT_SLOTS, SQUARE_BITS};
use crate::core::{Color, SQUARES, Square};

pub(super) const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

pub(super) const fn index_of(file: i32, rank: i32) -> usize {
    (rank * 9 + file) as usize
}

pub(super) const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)
}

pub(super) const fn same_half(rank_a: i32, rank_b: i32) -> bool {
    (rank_a <= 4) == (rank_b <= 4)
}

/// The file and the rank of each point, as sets (a load, where computing them takes a
/// division and a variable `u128` shift).
pub(super) static LINE_MASKS: [(Bitboard, Bitboard); POINT_SLOTS] = {
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
pub(super) static DIAGONAL_NEIGHBOURS: [Bitboard; POINT_SLOTS] = horse_attacker_union(true);
