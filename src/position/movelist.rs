//! A fixed-capacity list of moves on the stack, as the move generator fills it.

use crate::board::Bitboard;
use crate::core::{Move, Square};

/// Room for every move of any position. A bound from the pieces' own maxima: 2 chariots and
/// 2 cannons reach at most 17 points each, 2 horses 8, 5 pawns 3, 2 elephants 4, the advisors
/// 5 together, the king 4: 119 in all, pseudo-legal or legal.
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Appends a move from `from` to each of `targets`, lowest point first. The generator's
    /// hot loop: the length is kept in a local, which a loop calling `push` per move does not
    /// manage, and the set's two 64-bit halves are walked in turn, each in a loop of its own
    /// (the set's iterator looks at both halves for every point).
    #[inline(always)]
    pub fn push_targets(&mut self, from: Square, targets: Bitboard) {
        let mut len = self.len;
        for (mut bits, base) in [(targets.0 as u64, 0), ((targets.0 >> 64) as u64, 64)] {
            while bits != 0 {
                let to = Square::from_index_unchecked(base + bits.trailing_zeros() as u8);
                bits &= bits - 1;
                self.moves[len] = Move::new(from, to);
                len += 1;
            }
        }
        self.len = len;
    }

    /// Empties the list (without touching its storage).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` holds, in their order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}
