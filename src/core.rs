//! The vocabulary every other module speaks: points on the board, sides, pieces and moves.
//!
//! Kept tiny and `Copy` so that the hot paths (move generation, search) pass plain integers
//! around. Points are numbered `rank * 9 + file`, file `a..i` left to right from Red's side,
//! rank 0 = Red's back rank, exactly as ICCS writes them (`a0`..`i9`).

use std::fmt;

/// Number of files (a..i).
pub const FILES: u8 = 9;
/// Number of ranks (0..9).
pub const RANKS: u8 = 10;
/// Number of points on the board.
pub const SQUARES: usize = 90;

/// A point of the board, `0..90`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The point on `file` (0 = a) and `rank` (0 = Red's back rank). Both must be in range.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < FILES && rank < RANKS);
        Square(rank * FILES + file)
    }

    /// The point with this index, if it is on the board.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The point with this index; the caller guarantees `index < 90`.
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARES);
        Square(index)
    }

    /// The point's index, 0..90, masked to 7 bits: tables padded to 128 points
    /// (`board::bitboard::POINT_SLOTS`) need no bounds check for it.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 0x7f) as usize
    }

    /// File 0..9 (a..i).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0..10 (0 = Red's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The point `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
            Some(Square::new(f as u8, r as u8))
        } else {
            None
        }
    }

    /// The same point seen from the other side (rank `r` becomes `9 - r`, file kept).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), RANKS - 1 - self.rank())
    }

    /// Parses ICCS coordinates such as `e0` or `H9` (case-insensitive).
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'0');
        (file < FILES && rank < RANKS).then(|| Square::new(file, rank))
    }

    /// Iterates over all 90 points in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A side: Red moves first and sits on ranks 0..4, Black on ranks 5..9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Is `sq` on this side's own half (before the river)?
    #[inline]
    pub const fn own_half(self, sq: Square) -> bool {
        match self {
            Color::Red => sq.rank() <= 4,
            Color::Black => sq.rank() >= 5,
        }
    }

    /// The direction "forward" in ranks: +1 for Red, -1 for Black.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// The seven kinds of xiangqi piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Chariot = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most of this kind one side can have on the board.
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The upper-case FEN letter (`K A B N R C P`).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The kind for a FEN letter of either case, accepting the aliases `E` (elephant) and
    /// `H` (horse).
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        Some(match letter.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

/// A piece: a kind and a color, packed as `color * 7 + kind` so it indexes tables of 14.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    #[inline]
    pub const fn color(self) -> Color {
        if self.0 < 7 { Color::Red } else { Color::Black }
    }

    #[inline]
    pub const fn kind(self) -> PieceKind {
        // A table rather than `% 7`: this is asked at nearly every node and move.
        const KINDS: [PieceKind; 16] = {
            let mut table = [PieceKind::King; 16];
            let mut i = 0;
            while i < 14 {
                table[i] = PieceKind::ALL[i % 7];
                i += 1;
            }
            table
        };
        KINDS[(self.0 & 15) as usize]
    }

    /// `0..14`, for table lookups; masked to 4 bits, so tables padded to 16 pieces need no
    /// bounds check for it.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 15) as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn letter(self) -> char {
        let upper = self.kind().letter();
        match self.color() {
            Color::Red => upper,
            Color::Black => upper.to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter (aliases `E`/`H` accepted).
    pub fn from_letter(letter: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(letter)?;
        let color = if letter.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

/// A move from one point to another, packed in 16 bits (`from | to << 7`).
///
/// What it captures is not stored: the position knows, and the undo stack remembers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(u16);

impl Move {
    /// The "no move" value; never a legal move since from == to.
    pub const NONE: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        // Masked to the 7 bits it was packed in, like `from` (the compiler then knows the
        // point is below 128 before `Square::index` masks it again).
        Square((self.0 >> 7 & 0x7f) as u8)
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The packed form, for hash tables.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// `from_raw` for a value known to come from `raw()` of a real move (debug builds check).
    #[inline]
    pub const fn from_raw_unchecked(raw: u16) -> Move {
        debug_assert!(Move::from_raw(raw).0 == raw);
        Move(raw)
    }

    /// Unpacks `raw()`; an out-of-range point yields `NONE` (so a corrupt hash entry can
    /// never name a point off the board).
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        let (from, to) = ((raw & 0x7f) as usize, (raw >> 7 & 0x7f) as usize);
        if from < SQUARES && to < SQUARES && raw >> 14 == 0 {
            Move(raw)
        } else {
            Move::NONE
        }
    }

    /// Parses the coordinates of a move in ICCS form: `h2e2`, also `H2-E2`. Says nothing about
    /// legality; see `Position::parse_move`.
    pub fn parse_iccs(text: &str) -> Option<Move> {
        let text = text.trim();
        let (from, to) = match text.len() {
            4 => (text.get(0..2)?, text.get(2..4)?),
            5 if text.as_bytes()[2] == b'-' => (text.get(0..2)?, text.get(3..5)?),
            _ => return None,
        };
        let (from, to) = (Square::parse(from)?, Square::parse(to)?);
        (from != to).then(|| Move::new(from, to))
    }
}

impl fmt::Display for Move {
    /// Simplified ICCS, as UCCI and UCI use: `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse_as_iccs() {
        assert_eq!(Square::new(0, 0).to_string(), "a0");
        assert_eq!(Square::new(8, 9).to_string(), "i9");
        assert_eq!(Square::new(4, 0).index(), 4);
        assert_eq!(Square::new(0, 1).index(), 9);
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a"), None);
        assert_eq!(Square::parse("a10"), None);
    }

    #[test]
    fn moves_round_trip_iccs_and_accept_the_hyphen_form() {
        let m = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(m.from().to_string(), "h2");
        assert_eq!(m.to().to_string(), "e2");
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::parse_iccs("H2-E2"), Some(m));
        assert_eq!(Move::parse_iccs("h2e"), None);
        assert_eq!(Move::parse_iccs("h2h2"), None);
        assert_eq!(Move::parse_iccs("h2xe2"), None);
    }

    #[test]
    fn pieces_pack_color_and_kind() {
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(
            Piece::from_letter('H'),
            Some(Piece::new(Color::Red, PieceKind::Horse))
        );
        assert_eq!(
            Piece::from_letter('e'),
            Some(Piece::new(Color::Black, PieceKind::Elephant))
        );
        assert_eq!(Piece::from_letter('x'), None);
    }
}
