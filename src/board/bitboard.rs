//! `Bitboard`: a set of points as the low 90 bits of a `u128`.
//!
//! Bit `i` stands for the point with index `i` (`rank * 9 + file`). Every operation keeps bits
//! 90..127 clear — complement masks them off — so `count` and iteration never see ghosts.

use crate::core::{SQUARES, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The 90 board bits.
pub const BOARD_MASK: u128 = (1u128 << SQUARES) - 1;

/// Slots in a table indexed by a point, where it is padded past the 90 points: a point's
/// index is 7 bits (`Square::index`), so such a lookup needs no bounds check.
pub const POINT_SLOTS: usize = 128;

/// Bit of a point on the board (`1 << index`), as a load rather than a variable `u128`
/// shift, which takes half a dozen instructions. Padded to `POINT_SLOTS` with empty sets.
pub static SQUARE_BITS: [u128; POINT_SLOTS] = {
    let mut table = [0u128; POINT_SLOTS];
    let mut sq = 0;
    while sq < SQUARES {
        table[sq] = 1u128 << sq;
        sq += 1;
    }
    table
};

/// A set of points.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(BOARD_MASK);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// One 64-bit half picked and tested: cheaper than shifting the whole `u128` by a
    /// variable count.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        let i = sq.index();
        let half = if i < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (i & 63) & 1 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest point in the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Removes and returns the lowest point; the set must not be empty.
    #[inline]
    pub fn pop_first(&mut self) -> Square {
        debug_assert!(self.0 != 0);
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        sq
    }

    /// More than one point in the set?
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// Calls `visit` on every point of the set, lowest first (the order of the iterator),
    /// with a plain loop over each 64-bit half: cheaper than the iterator where the body is
    /// small enough to be written out twice (the evaluation's loops over its pieces).
    #[inline(always)]
    pub fn for_each_point(self, mut visit: impl FnMut(Square)) {
        let mut low = self.0 as u64;
        while low != 0 {
            visit(Square::from_index_unchecked(low.trailing_zeros() as u8));
            low &= low - 1;
        }
        let mut high = (self.0 >> 64) as u64;
        while high != 0 {
            visit(Square::from_index_unchecked(
                64 + high.trailing_zeros() as u8,
            ));
            high &= high - 1;
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Lowest point first. Works on the two 64-bit halves separately: a whole-`u128` count
    /// of trailing zeros and borrow chain cost about twice the instructions, and this loop
    /// runs over every piece in every evaluation.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let low = self.0 as u64;
        if low != 0 {
            self.0 ^= (low & low.wrapping_neg()) as u128;
            return Some(Square::from_index_unchecked(low.trailing_zeros() as u8));
        }
        let high = (self.0 >> 64) as u64;
        if high != 0 {
            self.0 ^= ((high & high.wrapping_neg()) as u128) << 64;
            return Some(Square::from_index_unchecked(
                64 + high.trailing_zeros() as u8,
            ));
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl std::fmt::Debug for Bitboard {
    /// Draws the set as a board, Black's side at the top, as a player reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let mark = if self.contains(Square::new(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the 90 points (bits 90..127 stay clear).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_never_sets_bits_beyond_the_board() {
        assert_eq!((!Bitboard::EMPTY).count(), 90);
        assert_eq!((!Bitboard::FULL).count(), 0);
        let one = Bitboard::from_square(Square::new(4, 0));
        assert_eq!((!one).count(), 89);
        assert_eq!((!one).0 >> 90, 0);
    }

    #[test]
    fn iteration_yields_points_in_order() {
        let set = Bitboard::EMPTY
            .with(Square::new(8, 9))
            .with(Square::new(0, 0))
            .with(Square::new(4, 5));
        let points: Vec<String> = set.map(|s| s.to_string()).collect();
        assert_eq!(points, ["a0", "e5", "i9"]);
        assert!(set.more_than_one());
        assert!(!Bitboard::from_square(Square::new(1, 1)).more_than_one());
        // Both 64-bit halves, across the seam at point 64.
        let all: Vec<usize> = Bitboard::FULL.map(Square::index).collect();
        assert_eq!(all, (0..SQUARES).collect::<Vec<_>>());
        let seam = Bitboard(0b111u128 << 63);
        assert_eq!(seam.map(Square::index).collect::<Vec<_>>(), [63, 64, 65]);
    }
}
