//! Static exchange evaluation: does a capture sequence on one point win material?
//!
//! Xiangqi needs care here: a cannon attacks only over exactly one screen, so every capture
//! can create or destroy cannon attacks, and horse legs open and close too. The exchange is
//! therefore replayed with the occupancy updated after each capture and the attackers
//! recomputed from it — never from a list made before the first capture.

use super::Position;
use crate::board::attacks::{
    ADVISOR_MOVES, KING_MOVES, PAWN_ATTACKERS, chariot_attacks, elephant_moves, file_mask,
    horse_attackers, line_attacks,
};
use crate::board::{Bitboard, Occupancy};
use crate::core::{Color, Move, PieceKind, Square};
use crate::eval::{Value, piece_value};

impl Position {
    /// Pieces of `side` attacking `sq` with the board occupied as `occ` (pieces whose point
    /// is empty in `occ` have been traded off and do not count).
    fn attackers_with(&self, sq: Square, occ: Occupancy, side: Color) -> Bitboard {
        let present = Bitboard(occ.normal);
        let kind = |k| self.pieces(side, k);
        let lines = line_attacks(sq, occ);
        let all = (lines.slide & kind(PieceKind::Chariot))
            | (lines.cannon & kind(PieceKind::Cannon))
            | (horse_attackers(sq, occ.normal) & kind(PieceKind::Horse))
            | (PAWN_ATTACKERS[side.index()][sq.index()] & kind(PieceKind::Pawn))
            | (KING_MOVES[sq.index()] & kind(PieceKind::King))
            | (ADVISOR_MOVES[sq.index()] & kind(PieceKind::Advisor))
            | (elephant_moves(sq, occ.normal) & kind(PieceKind::Elephant));
        all & present
    }

    /// Is the exchange started by `mv` worth at least `threshold` for the mover?
    ///
    /// Plays the captures on the target point out, least valuable attacker first, recording
    /// what each side has gained; then walks the list back, letting each side stop capturing
    /// where that is better for it.
    pub fn see_ge(&self, mv: Move, threshold: Value) -> bool {
        // The exchange is worth at most the victim, and at least the victim minus the
        // capturer (the mover can always stop after one recapture): often that decides it.
        let victim = self.piece_on(mv.to()).map_or(0, |p| piece_value(p.kind()));
        if victim < threshold {
            return false;
        }
        let attacker = self
            .piece_on(mv.from())
            .map_or(0, |p| piece_value(p.kind()));
        if victim - attacker >= threshold {
            return true;
        }
        self.see(mv) >= threshold
    }

    /// The material outcome of the exchange started by `mv`, for the mover.
    pub fn see(&self, mv: Move) -> Value {
        let (from, to) = (mv.from(), mv.to());
        let Some(mover) = self.piece_on(from) else {
            return 0;
        };
        let mut gains = [0 as Value; 40];
        gains[0] = self.piece_on(to).map_or(0, |p| piece_value(p.kind()));
        let mut occ = self.occupancy;
        occ.toggle(from);
        if self.piece_on(to).is_none() {
            occ.toggle(to);
        }
        let mut at_stake = piece_value(mover.kind());
        let mut side = mover.color().opponent();
        let mut depth = 0;
        while depth + 1 < gains.len() {
            let attackers = self.attackers_with(to, occ, side);
            let Some((sq, kind)) = self.least_valuable(attackers, side) else {
                break;
            };
            if kind == PieceKind::King {
                // The king may only take if nothing can take it back, and not onto a file
                // where it would face the other king.
                let mut after = occ;
                after.toggle(sq);
                let enemy = side.opponent();
                let facing = chariot_attacks(to, after)
                    & file_mask(to)
                    & self.pieces(enemy, PieceKind::King);
                if facing.any() || self.attackers_with(to, after, enemy).any() {
                    break;
                }
            }
            depth += 1;
            gains[depth] = at_stake - gains[depth - 1];
            at_stake = piece_value(kind);
            occ.toggle(sq);
            side = side.opponent();
        }
        while depth > 0 {
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
            depth -= 1;
        }
        gains[0]
    }

    /// The cheapest of `attackers` (pieces of `side`), the king last.
    fn least_valuable(&self, attackers: Bitboard, side: Color) -> Option<(Square, PieceKind)> {
        const ORDER: [PieceKind; 7] = [
            PieceKind::Pawn,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Chariot,
            PieceKind::King,
        ];
        ORDER
            .iter()
            .find_map(|&k| (attackers & self.pieces(side, k)).first().map(|sq| (sq, k)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: Value) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_move(mv).unwrap();
        pos.see_ge(mv, threshold)
    }

    #[test]
    fn free_pieces_and_defended_pieces() {
        // Chariot takes an undefended horse.
        assert!(see("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w", "e1e5", 0));
        // Chariot takes a horse defended by a pawn: loses the chariot for a horse.
        assert!(!see("4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w", "e1e5", 0));
        assert!(see("4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w", "e1e5", -500));
        assert!(!see("4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w", "e1e5", -499));
    }

    #[test]
    fn a_king_cannot_take_back_onto_the_other_kings_file() {
        // The black rook takes the advisor on d0 beside the red king: taking back would put
        // the red king face to face with the black king on d9.
        assert!(see("3k5/9/9/9/9/3r5/9/9/9/3AK4 b", "d4d0", 200));
        // With the black king off the d-file the red king takes back.
        assert!(!see("5k3/9/9/9/9/3r5/9/9/9/3AK4 b", "d4d0", 0));
    }

    #[test]
    fn a_capture_can_create_a_cannon_screen() {
        // Red chariot e1 takes a pawn on e5; the black horse on e6 is a screen for the black
        // cannon on e8, which takes back.
        assert!(!see("4k4/4c4/9/4n4/4p4/9/9/9/4R4/3K5 w", "e1e5", 1));
        // Without the screen the cannon cannot take back: the pawn is free.
        assert!(see("4k4/4c4/9/9/4p4/9/9/9/4R4/3K5 w", "e1e5", 1));
    }
}
