//! The game state: where the pieces stand, whose turn it is, and how it got here.
//!
//! A `Position` keeps three views of the board in step — a mailbox (`piece_on`), one bitboard
//! per piece and per color, and the two-way occupancy the slider tables need — plus the
//! Zobrist key, all updated incrementally by `make_move` and restored exactly by
//! `unmake_move`. The undo stack doubles as the history of keys the repetition rules need.

mod check;
pub mod fen;
pub mod movegen;
mod movelist;
pub mod notation;
pub mod perft;
pub mod see;

pub use check::CheckInfo;

use crate::board::attacks::{
    HORSE_ATTACKERS, HORSE_SPAN, PAWN_ATTACKERS, RAYS, TRANSPOSED_BIT, cannon_captures,
    chariot_attacks, file_mask, horse_attackers, line_attacks, rank_mask, third_blockers,
};
use crate::board::bitboard::SQUARE_BITS;
use crate::board::{Bitboard, Occupancy, zobrist};
use crate::core::{Color, Move, Piece, PieceKind, Square};

pub use fen::{FenError, START_FEN};
pub use movegen::MoveList;

/// What `unmake_move` needs to restore, and the key the position had before the move.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    halfmove_clock: u32,
    key: u64,
}

/// Mailbox slots: one for every value of a point's byte.
const MAILBOX_SLOTS: usize = 256;

/// A xiangqi position with its move history.
#[derive(Clone)]
pub struct Position {
    /// `[point]`, padded to 256 so that a point (a byte) needs no bounds check; the slots
    /// past the board stay empty.
    mailbox: [Option<Piece>; MAILBOX_SLOTS],
    /// Per piece (padded to 16, so `Piece::index`, masked to 4 bits, needs no bounds check).
    pieces: [Bitboard; 16],
    /// How many of each piece are on the board (cheaper than a popcount on every query);
    /// padded past 16 so that `has_attackers` reads four of them at once from any masked
    /// index.
    counts: [u8; COUNT_SLOTS],
    colors: [Bitboard; 2],
    occupancy: Occupancy,
    side: Color,
    key: u64,
    /// Plies since the last capture (xiangqi's no-capture counter).
    halfmove_clock: u32,
    /// Move number, starting at 1 and counted up after each Black move.
    fullmove_number: u32,
    history: Vec<Undo>,
}

/// The pieces of one side that could attack a king, grouped by how they attack.
#[derive(Clone, Copy)]
struct KingAttackers {
    /// Chariots and the king (the king "attacks" along its file: flying general).
    lines: u128,
    cannons: u128,
    horses: u128,
    pawns: u128,
}

/// Slots of `Position::counts`: one per piece index (16, masked), and three more.
const COUNT_SLOTS: usize = 19;

/// One piece's pseudo-legal moves as the legality test sees them (see
/// `Position::moves_from`): `keep_king_safe` answers for each target.
#[derive(Clone, Copy)]
pub(crate) struct PieceMoves {
    /// The own king's point, unless the piece is the king (`king_moves`): then its target.
    king: Square,
    king_moves: bool,
    by: Color,
    /// The occupancy with the piece lifted.
    without: Occupancy,
    attackers: KingAttackers,
}

impl PieceMoves {
    /// Would the piece's move to `to` leave its king safe? A captured attacker attacks no
    /// more.
    #[inline(always)]
    pub(crate) fn keep_king_safe(&self, to: Square) -> bool {
        let bit = SQUARE_BITS[to.index()];
        let mut occ = self.without;
        if occ.normal & bit == 0 {
            occ.toggle(to);
        }
        let a = self.attackers;
        let attackers = KingAttackers {
            lines: a.lines & !bit,
            cannons: a.cannons & !bit,
            horses: a.horses & !bit,
            pawns: a.pawns & !bit,
        };
        let king = if self.king_moves { to } else { self.king };
        !Position::king_in_danger(king, self.by, occ, attackers)
    }
}

/// Why a move given as text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("'{0}' is not a move in ICCS form (such as h2e2)")]
    Unparsable(String),
    #[error("{0} is not a legal move in this position")]
    Illegal(String),
}

impl Position {
    /// An empty board, Red to move; only `fen` builds on it, since it breaks the invariants
    /// (no kings) until the pieces are placed.
    fn empty() -> Position {
        Position {
            mailbox: [None; MAILBOX_SLOTS],
            pieces: [Bitboard::EMPTY; 16],
            counts: [0; COUNT_SLOTS],
            colors: [Bitboard::EMPTY; 2],
            occupancy: Occupancy::default(),
            side: Color::Red,
            key: 0,
            halfmove_clock: 0,
            fullmove_number: 1,
            history: Vec::new(),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }

    /// Places a piece on an empty point, updating every view and (if `KEYED`) the key.
    #[inline(always)]
    fn put_piece<const KEYED: bool>(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.mailbox[sq.index()].is_none());
        self.mailbox[sq.index()] = Some(piece);
        self.pieces[piece.index()].0 |= SQUARE_BITS[sq.index()];
        self.counts[piece.index()] += 1;
        self.colors[piece.color().index()].0 |= SQUARE_BITS[sq.index()];
        self.occupancy.toggle(sq);
        if KEYED {
            self.key ^= zobrist::piece_key(piece, sq);
        }
    }

    /// Moves a piece to an empty point (or one just emptied by a capture), updating every
    /// view and (if `KEYED`; taking a move back restores the key as a whole) the key with one
    /// exclusive-or per view.
    #[inline(always)]
    fn shift_piece<const KEYED: bool>(&mut self, piece: Piece, from: Square, to: Square) {
        debug_assert_eq!(self.mailbox[from.index()], Some(piece));
        debug_assert!(self.mailbox[to.index()].is_none());
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
        let bits = SQUARE_BITS[from.index()] | SQUARE_BITS[to.index()];
        self.pieces[piece.index()].0 ^= bits;
        self.colors[piece.color().index()].0 ^= bits;
        self.occupancy.normal ^= bits;
        self.occupancy.transposed ^= TRANSPOSED_BIT[from.index()] | TRANSPOSED_BIT[to.index()];
        if KEYED {
            self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        }
    }

    /// Takes the piece off a point, updating every view and the key.
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        debug_assert_eq!(self.mailbox[sq.index()], Some(piece));
        self.mailbox[sq.index()] = None;
        self.pieces[piece.index()].0 &= !SQUARE_BITS[sq.index()];
        self.counts[piece.index()] -= 1;
        self.colors[piece.color().index()].0 &= !SQUARE_BITS[sq.index()];
        self.occupancy.toggle(sq);
        self.key ^= zobrist::piece_key(piece, sq);
    }

    /// The same position with the piece on `sq` taken off (none for an empty point or a king),
    /// the move history kept: for explaining an evaluation piece by piece, not for play.
    pub fn without_piece(&self, sq: Square) -> Option<Position> {
        let piece = self.piece_on(sq)?;
        if piece.kind() == PieceKind::King {
            return None;
        }
        let mut pos = self.clone();
        pos.remove_piece(piece, sq);
        Some(pos)
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key of the placement and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key the position will have after `mv` (a move of a piece on its from-point), known
    /// before the move is made: the search fetches the child's table bucket early with it.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let mut key = self.key ^ zobrist::SIDE_KEY;
        if let Some(moved) = self.mailbox[from.index()] {
            key ^= zobrist::piece_key(moved, from) ^ zobrist::piece_key(moved, to);
        }
        if let Some(victim) = self.mailbox[to.index()] {
            key ^= zobrist::piece_key(victim, to);
        }
        key
    }

    /// The key after `make_null_move` (see `key_after`).
    #[inline]
    pub fn key_after_null(&self) -> u64 {
        self.key ^ zobrist::SIDE_KEY
    }

    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// Points holding `kind` pieces of `color`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[Piece::new(color, kind).index()]
    }

    /// How many `kind` pieces `color` has.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> u32 {
        self.counts[Piece::new(color, kind).index()] as u32
    }

    /// Points holding any piece of `color`.
    #[inline]
    pub fn color_pieces(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occupancy.normal)
    }

    #[inline]
    pub fn occupancy(&self) -> Occupancy {
        self.occupancy
    }

    /// Where `color`'s king stands. Every position built by `from_fen` has both kings.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        // A king never leaves its palace: Red's lies in the low 64 points, Black's in the
        // high ones, so one half's lowest bit is the answer, with no test for which half.
        let kings = self.pieces(color, PieceKind::King).0;
        let index = match color {
            Color::Red => (kings as u64).trailing_zeros(),
            Color::Black => 64 + ((kings >> 64) as u64).trailing_zeros(),
        };
        debug_assert_eq!(
            Bitboard(kings).first().map(Square::index),
            Some(index as usize)
        );
        Square::from_index_unchecked(index as u8)
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Number of moves made since the position was set up.
    #[inline]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The moves made since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Keys of the earlier positions since the set-up, oldest first (the current key is not
    /// included). The repetition rules look back through these.
    pub fn key_history(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        self.history.iter().map(|u| u.key)
    }

    /// `color`'s attackers of a king.
    #[inline]
    fn king_attackers(&self, color: Color) -> KingAttackers {
        let bb = |kind| self.pieces(color, kind).0;
        KingAttackers {
            lines: bb(PieceKind::Chariot) | bb(PieceKind::King),
            cannons: bb(PieceKind::Cannon),
            horses: bb(PieceKind::Horse),
            pawns: bb(PieceKind::Pawn),
        }
    }

    /// Would a king of the side opposite `by` on `king` be attacked by `attackers` (which belong
    /// to `by`) with the board occupied as `occ`? Includes the flying-general rule.
    #[inline(always)]
    fn king_in_danger(king: Square, by: Color, occ: Occupancy, attackers: KingAttackers) -> bool {
        let lines = line_attacks(king, occ);
        lines.slide.0 & attackers.lines != 0
            || lines.cannon.0 & attackers.cannons != 0
            || (HORSE_SPAN[king.index()].0 & attackers.horses != 0
                && horse_attackers(king, occ.normal).0 & attackers.horses != 0)
            || PAWN_ATTACKERS[by.index()][king.index()].0 & attackers.pawns != 0
    }

    /// Is `color`'s king attacked (including by the facing enemy king)?
    pub fn is_in_check(&self, color: Color) -> bool {
        let them = color.opponent();
        Self::king_in_danger(
            self.king_square(color),
            them,
            self.occupancy,
            self.king_attackers(them),
        )
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_in_check(self.side)
    }

    /// Does the pseudo-legal move `mv` of the side to move leave its own king safe?
    #[inline(always)]
    pub(crate) fn keeps_king_safe(&self, mv: Move) -> bool {
        self.moves_from(mv.from()).keep_king_safe(mv.to())
    }

    /// The legality test of the moves of the piece on `from` (see `PieceMoves`): what does
    /// not depend on the target (the king's point, the board without the piece, the enemy's
    /// attackers) worked out once for all of them.
    #[inline(always)]
    pub(crate) fn moves_from(&self, from: Square) -> PieceMoves {
        let them = self.side.opponent();
        let mut without = self.occupancy;
        without.toggle(from);
        let king_moves = self.mailbox[from.index()].map(Piece::kind) == Some(PieceKind::King);
        PieceMoves {
            king: self.king_square(self.side),
            king_moves,
            by: them,
            without,
            attackers: self.king_attackers(them),
        }
    }

    /// Plays `mv`, which must be legal (or at least pseudo-legal) in this position.
    pub fn make_move(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let moved = self.mailbox[from.index()].expect("a move starts on a piece");
        let captured = self.mailbox[to.index()];
        self.history.push(Undo {
            mv,
            captured,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
        });
        if let Some(victim) = captured {
            self.remove_piece(victim, to);
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock += 1;
        }
        self.shift_piece::<true>(moved, from, to);
        if self.side == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = self.side.opponent();
        self.key ^= zobrist::SIDE_KEY;
    }

    /// Passes the turn (for null-move pruning in the search). The no-capture counter restarts,
    /// so no repetition is ever found across a null move.
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            mv: Move::NONE,
            captured: None,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
        });
        self.halfmove_clock = 0;
        self.side = self.side.opponent();
        self.key ^= zobrist::SIDE_KEY;
    }

    /// Takes back `make_null_move`.
    pub fn unmake_null_move(&mut self) {
        let undo = self.history.pop().expect("a null move to take back");
        debug_assert!(undo.mv.is_none());
        self.side = self.side.opponent();
        self.halfmove_clock = undo.halfmove_clock;
        self.key = undo.key;
    }

    /// How many plies back the current position (same placement, same side to move) stood on
    /// the board before, most recent first. Only since the last capture (a capture cannot be
    /// part of a cycle), and at least 4 plies back (each side must move away and back).
    pub fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.history.len();
        let reach = (self.halfmove_clock as usize).min(n);
        // Even distances as pairs of plies: a plain range, which the search's call inlines
        // (a `step_by` iterator did not).
        (2..=reach / 2)
            .map(|pairs| 2 * pairs)
            .filter(move |&d| self.history[n - d].key == self.key)
    }

    /// The most recent earlier occurrence of the current position (see `earlier_occurrences`).
    #[inline]
    pub fn repetition_distance(&self) -> Option<usize> {
        self.earlier_occurrences().next()
    }

    /// Has `color` a piece that can ever attack the enemy king (chariot, horse, cannon, pawn)?
    #[inline]
    pub fn has_attackers(&self, color: Color) -> bool {
        // The four kinds are consecutive (horse, chariot, cannon, pawn), so their counts are
        // four bytes in a row: one load (the counts are padded, so it never reads past them).
        const _: () = assert!(
            PieceKind::Chariot as usize == PieceKind::Horse as usize + 1
                && PieceKind::Cannon as usize == PieceKind::Horse as usize + 2
                && PieceKind::Pawn as usize == PieceKind::Horse as usize + 3
        );
        let first = Piece::new(color, PieceKind::Horse).index() & 15;
        let mut four = [0u8; 4];
        four.copy_from_slice(&self.counts[first..first + 4]);
        u32::from_ne_bytes(four) != 0
    }

    /// Takes back the last move made; returns it, or `None` if no move was made since set-up.
    pub fn unmake_move(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        let (from, to) = (undo.mv.from(), undo.mv.to());
        let moved = self.mailbox[to.index()].expect("the last move's piece is on its target");
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove_number -= 1;
        }
        self.shift_piece::<false>(moved, to, from);
        if let Some(victim) = undo.captured {
            self.put_piece::<false>(victim, to);
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.key = undo.key;
        Some(undo.mv)
    }

    /// The key computed from scratch; must always equal `key()`.
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::SIDE_KEY
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(piece) = self.mailbox[sq.index()] {
                key ^= zobrist::piece_key(piece, sq);
            }
        }
        key
    }

    /// Checks that every incrementally kept view agrees with the mailbox. For tests and
    /// debugging; returns a description of the first disagreement.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut pieces = [Bitboard::EMPTY; 16];
        let mut colors = [Bitboard::EMPTY; 2];
        let mut occ = Occupancy::default();
        for sq in Square::all() {
            if let Some(p) = self.mailbox[sq.index()] {
                pieces[p.index()] = pieces[p.index()].with(sq);
                colors[p.color().index()] = colors[p.color().index()].with(sq);
                occ.toggle(sq);
            }
        }
        if pieces != self.pieces {
            return Err("piece bitboards disagree with the mailbox".into());
        }
        if (0..16).any(|i| pieces[i].count() != self.counts[i] as u32) {
            return Err("piece counts disagree with the mailbox".into());
        }
        if colors != self.colors {
            return Err("color bitboards disagree with the mailbox".into());
        }
        if occ != self.occupancy {
            return Err("occupancy disagrees with the mailbox".into());
        }
        if self.compute_key() != self.key {
            return Err("incremental key disagrees with a full recomputation".into());
        }
        if self.is_in_check(self.side.opponent()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }

    /// Parses a move in ICCS form and checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = Move::parse_iccs(text).ok_or_else(|| MoveError::Unparsable(text.to_string()))?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal(mv.to_string()))
        }
    }

    /// An ASCII diagram of the board, Black at the top, with ICCS coordinates.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..10).rev() {
            out.push_str(&format!("{rank}  "));
            for file in 0..9 {
                let c = self
                    .piece_on(Square::new(file, rank))
                    .map_or('.', Piece::letter);
                out.push(c);
                if file < 8 {
                    out.push(' ');
                }
            }
            out.push('\n');
            if rank == 5 {
                out.push_str("   -----------------\n");
            }
        }
        out.push_str("   a b c d e f g h i\n");
        out
    }
}

impl PartialEq for Position {
    /// Two positions are equal when placement, side and counters agree (history aside).
    fn eq(&self, other: &Position) -> bool {
        self.mailbox == other.mailbox
            && self.side == other.side
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earlier_occurrences_list_every_repetition_nearest_first() {
        let mut pos = Position::startpos();
        // Horses out and back twice, then a capture that cuts every cycle off.
        let line = [
            "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9", "h2h9", "i9h9",
        ];
        let mut seen = Vec::new();
        for m in line {
            pos.make_move(pos.parse_move(m).unwrap());
            let all: Vec<usize> = pos.earlier_occurrences().collect();
            assert_eq!(pos.repetition_distance(), all.first().copied(), "after {m}");
            seen.push(all);
        }
        let expected: [&[usize]; 10] = [&[], &[], &[], &[4], &[4], &[4], &[4], &[4, 8], &[], &[]];
        assert_eq!(seen, expected);
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut pos = Position::startpos();
        let before = pos.clone();
        let line = ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6", "c6c5"];
        for m in line {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
            pos.check_consistency().unwrap();
        }
        assert_eq!(
            pos.halfmove_clock(),
            1,
            "e2e6 captured, then one quiet move"
        );
        for _ in line {
            pos.unmake_move();
            pos.check_consistency().unwrap();
        }
        assert_eq!(pos, before);
        assert_eq!(pos.key(), before.key());
        assert_eq!(pos.unmake_move(), None);
    }

    #[test]
    fn key_after_is_the_key_the_move_makes() {
        // Every legal move, quiet or capture (the cannons can take from the start), of each
        // position along one opening line.
        let mut pos = Position::startpos();
        for m in ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6", "c6c5"] {
            for &mv in pos.legal_moves().iter() {
                let expected = pos.key_after(mv);
                pos.make_move(mv);
                assert_eq!(pos.key(), expected, "{mv}");
                pos.unmake_move();
            }
            let expected = pos.key_after_null();
            pos.make_null_move();
            assert_eq!(pos.key(), expected, "null move");
            pos.unmake_null_move();
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
    }

    #[test]
    fn flying_general_is_a_check() {
        // The advisor on e1 is all that stands between the kings: it is pinned.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w").unwrap();
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(legal, ["e0d0", "e0f0"]);
        // A king may not step onto the open file of the other king.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert!(!pos.in_check());
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(legal, ["e0f0", "e0e1"]);
    }

    #[test]
    fn gives_check_sees_cannon_screens_and_discoveries() {
        // Red cannon e2 looks up the file through two screens (red horse e5, black pawn e6):
        // no check. Moving the horse away leaves one screen: a discovered cannon check.
        let pos = Position::from_fen("4k4/9/9/4p4/4N4/9/9/4C4/9/3K4R w").unwrap();
        assert!(!pos.is_in_check(Color::Black));
        let cases = [
            ("e5c4", true),
            ("e5g6", true),
            ("i0i9", true),
            ("d0d1", false),
            ("e2e3", false),
        ];
        for (m, expected) in cases {
            let mv = pos.parse_move(m).unwrap();
            assert_eq!(pos.gives_check(mv), expected, "{m}");
            let mut after = pos.clone();
            after.make_move(mv);
            assert_eq!(after.in_check(), expected, "{m}");
        }
        // The red pawn on f8 stands on the leg of the red horse on f7, aimed at the king:
        // stepping aside uncovers a horse check.
        let pos = Position::from_fen("4k4/5P3/5N3/9/9/9/9/9/9/3K5 w").unwrap();
        for (m, expected) in [("f8g8", true), ("f7h6", false), ("d0d1", false)] {
            let mv = pos.parse_move(m).unwrap();
            assert_eq!(pos.gives_check(mv), expected, "{m}");
        }
    }
}
