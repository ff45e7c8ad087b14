//! FEN: reading and writing positions as text.
//!
//! Reading accepts every placement that has defined play, as other xiangqi programs and the
//! GUIs people paste composed puzzles into do: more pieces of a kind than a set holds, a pawn
//! on its own back rank, an elephant or advisor off its usual points. Such a piece moves by
//! its ordinary rule (a pawn forward and, across the river, sideways; an advisor only into its
//! palace, an elephant only within its own half). `Position::placement_warnings` names what
//! no game could bring about, for the caller to show. Refused, with a `FenError` that says
//! what is wrong and where: malformed text, not exactly one king a side, a king outside its
//! palace, and the side not to move in check (the kings facing each other included).
//! Side letters `w`/`r`/`b`, piece aliases `E`/`H`, and 2 to 6 fields are accepted.

use super::Position;
use crate::board::attacks::ELEPHANT_POINTS;
use crate::core::{Color, FILES, Piece, PieceKind, RANKS, Square};

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused. Ranks are named as ICCS numbers them (9 = Black's back rank, the
/// first one a FEN lists).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("the FEN has {0} ranks, expected 10 separated by '/'")]
    WrongRankCount(usize),
    #[error("rank {rank} has {points} points, expected 9")]
    WrongPointCount { rank: u8, points: usize },
    #[error("unknown piece letter '{letter}' on rank {rank}")]
    UnknownPiece { letter: char, rank: u8 },
    #[error("{color} has no king")]
    MissingKing { color: Color },
    #[error("{color} has {count} kings, a side has exactly one")]
    TooManyKings { color: Color, count: u32 },
    #[error("the {color} king stands on {square}, outside its palace")]
    KingOutsidePalace { color: Color, square: Square },
    #[error("the kings face each other on an open file")]
    KingsFacing,
    #[error("the side not to move ({color}) is in check")]
    SideNotToMoveInCheck { color: Color },
    #[error("missing side to move (expected w, r or b after the placement)")]
    MissingSide,
    #[error("side to move '{0}' is not w, r or b")]
    BadSide(String),
    #[error("{field} '{value}' is not a number")]
    BadCounter { field: &'static str, value: String },
    #[error("the FEN has {0} fields, at most 6 expected")]
    TooManyFields(usize),
}

impl Position {
    /// The same game seen from the other side: colours swapped and ranks flipped, the other
    /// side to move (for symmetry tests of evaluations).
    pub fn colour_mirror(&self) -> Position {
        let fen = self.to_fen();
        let mut fields = fen.split_whitespace();
        let placement = fields.next().unwrap_or_default();
        let side = fields.next().unwrap_or("w");
        let counters: Vec<&str> = fields.collect();
        let ranks: Vec<String> = placement
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if side == "b" { "w" } else { "b" };
        let text = format!("{} {side} {}", ranks.join("/"), counters.join(" "));
        Position::from_fen(text.trim()).expect("the mirror of a valid position is valid")
    }

    /// Parses a FEN (2 to 6 fields; see the module docs).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (&placement, rest) = fields.split_first().ok_or(FenError::Empty)?;
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut pos = Position::empty();
        place_pieces(&mut pos, placement)?;
        pos.side = match rest.first() {
            None => return Err(FenError::MissingSide),
            Some(s) if s.eq_ignore_ascii_case("w") || s.eq_ignore_ascii_case("r") => Color::Red,
            Some(s) if s.eq_ignore_ascii_case("b") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        if pos.side == Color::Black {
            pos.key ^= crate::board::zobrist::SIDE_KEY;
        }
        // Fields 3 and 4 (castling, en passant) mean nothing in xiangqi and are skipped.
        if let Some(clock) = rest.get(3) {
            pos.halfmove_clock = parse_counter("halfmove clock", clock)?;
        }
        if let Some(number) = rest.get(4) {
            pos.fullmove_number = parse_counter("fullmove number", number)?.max(1);
        }
        validate(&pos)?;
        Ok(pos)
    }

    /// The FEN of this position, always with all six fields and canonical letters.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.piece_on(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.letter());
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!(
            "{out} {side} - - {} {}",
            self.halfmove_clock, self.fullmove_number
        )
    }
}

impl Position {
    /// What in this placement no game could bring about: pieces on points their kind never
    /// reaches, more pieces of a kind than a set holds. Empty for every position of a game.
    pub fn placement_warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let set = self.pieces(color, kind);
                if set.count() > kind.max_count() {
                    warnings.push(format!(
                        "{color} has {} {}s, more than a set holds ({})",
                        set.count(),
                        kind.name(),
                        kind.max_count()
                    ));
                }
                for sq in set.filter(|&sq| !point_reachable(color, kind, sq)) {
                    warnings.push(format!(
                        "a {} {} on {sq} cannot arise in a game",
                        color,
                        kind.name()
                    ));
                }
            }
        }
        warnings
    }

    /// The warnings as one line, if there are any (for `info string warning: …` or stderr).
    pub fn placement_warning(&self) -> Option<String> {
        let warnings = self.placement_warnings();
        (!warnings.is_empty()).then(|| {
            format!(
                "composed position: {}; played by the ordinary rules",
                warnings.join(", ")
            )
        })
    }
}

fn parse_counter(field: &'static str, text: &str) -> Result<u32, FenError> {
    if text == "-" {
        return Ok(0);
    }
    text.parse().map_err(|_| FenError::BadCounter {
        field,
        value: text.to_string(),
    })
}

fn place_pieces(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(FenError::WrongRankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i as u8;
        let mut points = Vec::with_capacity(9);
        for c in text.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| *n >= 1) {
                points.extend(std::iter::repeat_n(None, n as usize));
            } else {
                let piece =
                    Piece::from_letter(c).ok_or(FenError::UnknownPiece { letter: c, rank })?;
                points.push(Some(piece));
            }
        }
        if points.len() != FILES as usize {
            return Err(FenError::WrongPointCount {
                rank,
                points: points.len(),
            });
        }
        for (file, piece) in points.into_iter().enumerate() {
            if let Some(piece) = piece {
                pos.put_piece::<true>(piece, Square::new(file as u8, rank));
            }
        }
    }
    Ok(())
}

/// Can a piece of this color and kind ever stand on `sq` in a real game?
pub fn point_reachable(color: Color, kind: PieceKind, sq: Square) -> bool {
    // Work from Red's side: Black's points are Red's mirrored across the river.
    let sq = if color == Color::Red {
        sq
    } else {
        sq.flip_rank()
    };
    let (file, rank) = (sq.file(), sq.rank());
    match kind {
        PieceKind::King => (3..=5).contains(&file) && rank <= 2,
        PieceKind::Advisor => matches!((file, rank), (3 | 5, 0) | (4, 1) | (3 | 5, 2)),
        PieceKind::Elephant => ELEPHANT_POINTS[Color::Red.index()].contains(sq),
        // Before the river a pawn only walks forward from its start point (files a c e g i,
        // rank 3); after it, anywhere.
        PieceKind::Pawn => rank >= 5 || (rank >= 3 && file % 2 == 0),
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => true,
    }
}

fn validate(pos: &Position) -> Result<(), FenError> {
    for color in Color::BOTH {
        let kings = pos.pieces(color, PieceKind::King);
        match kings.count() {
            0 => return Err(FenError::MissingKing { color }),
            1 => {}
            count => return Err(FenError::TooManyKings { color, count }),
        }
        if let Some(square) = kings.first()
            && !point_reachable(color, PieceKind::King, square)
        {
            return Err(FenError::KingOutsidePalace { color, square });
        }
    }
    let (red_king, black_king) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
    if red_king.file() == black_king.file() {
        let between = crate::board::attacks::chariot_attacks(red_king, pos.occupancy);
        if between.contains(black_king) {
            return Err(FenError::KingsFacing);
        }
    }
    let waiting = pos.side.opponent();
    if pos.is_in_check(waiting) {
        return Err(FenError::SideNotToMoveInCheck { color: waiting });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        assert_eq!(pos.occupied().count(), 32);
    }

    #[test]
    fn reachable_points_match_the_rules() {
        let count = |color, kind| {
            Square::all()
                .filter(|&sq| point_reachable(color, kind, sq))
                .count()
        };
        for color in Color::BOTH {
            assert_eq!(count(color, PieceKind::King), 9);
            assert_eq!(count(color, PieceKind::Advisor), 5);
            assert_eq!(count(color, PieceKind::Elephant), 7);
            assert_eq!(count(color, PieceKind::Pawn), 45 + 10);
        }
    }
}
