//! Zobrist keys: one random 64-bit number per (piece, point) and one for the side to move.
//!
//! Generated at compile time from a fixed seed with splitmix64, so keys (and everything
//! hashed with them, such as the bench signature) are the same on every machine and build.

use super::bitboard::POINT_SLOTS;
use crate::core::{Piece, SQUARES, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (next, z ^ (z >> 31))
}

/// Keys per piece and point, drawn piece by piece, point by point; padded to 16 pieces of
/// `POINT_SLOTS` points (the padding never read), so a lookup by the masked indices of
/// `Piece::index` and `Square::index` needs no bounds check.
static PIECE_KEYS: [[u64; POINT_SLOTS]; 16] = {
    let mut table = [[0u64; POINT_SLOTS]; 16];
    let mut state = 0x0c4a_2107_u64;
    let mut piece = 0;
    while piece < 14 {
        let mut sq = 0;
        while sq < SQUARES {
            let (next, value) = splitmix64(state);
            state = next;
            table[piece][sq] = value;
            sq += 1;
        }
        piece += 1;
    }
    table
};

/// Key toggled when the side to move changes (set when Black is to move).
pub const SIDE_KEY: u64 = splitmix64(0x5eed_b1ac).1;

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}
