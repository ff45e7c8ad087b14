//! Static exchange evaluation: does a capture sequence on one point win material?
//!
//! Xiangqi needs care here: a cannon attacks only over exactly one screen, so every capture
//! can create or destroy cannon attacks, and horse legs open and close too. The exchange is
//! therefore replayed with the occupancy updated after each capture and the attackers
//! recomputed from it — never from a list made before the first capture.

use super::Position;
use crate::board::attacks::{
    ELEPHANT_POINTS, HOME_HALVES, HORSE_SPAN, KING_MOVES, PALACES, PAWN_ATTACKERS,
    diagonal_neighbours, elephant_moves, file_mask, file_slide, horse_attackers, line_attacks,
    rank_mask,
};
use crate::board::{Bitboard, Occupancy};
use crate::core::{Color, Move, PieceKind, Square};

/// A piece value in centipawns, as SEE and move ordering count it.
pub type Value = i32;

/// Values for SEE and move ordering: the position's own, kept apart from the evaluation's
/// tuned weights so that tuning the evaluation does not reorder the search.
const EXCHANGE_VALUES: [Value; 7] = [10_000, 200, 200, 400, 900, 470, 100];

/// Material value of a piece kind, for move ordering and SEE.
#[inline]
pub fn piece_value(kind: PieceKind) -> Value {
    EXCHANGE_VALUES[kind.index()]
}

impl Position {
    /// The cheapest piece of `side` attacking `sq` with the board occupied as `occ` (pieces
    /// whose point is empty in `occ` have been traded off and do not count), the king last:
    /// its point and kind. The kinds are tried cheapest first, so the line lookup the
    /// cannons and chariots need is made only when no lesser piece attacks.
    #[inline]
    fn least_valuable_attacker(
        &self,
        sq: Square,
        occ: Occupancy,
        side: Color,
    ) -> Option<(Square, PieceKind)> {
        let present = Bitboard(occ.normal);
        // A kind's pieces still on the board, and the first of them among `reach`.
        let pieces = |kind| self.pieces(side, kind) & present;
        let found = |reach: Bitboard, pieces: Bitboard, kind| {
            (reach & pieces).first().map(|from| (from, kind))
        };
        // Each kind's reach is computed only when the side has such a piece left (and the
        // lines only when a cannon or chariot stands on one of them).
        let pawns = pieces(PieceKind::Pawn);
        if let Some(hit) = found(
            PAWN_ATTACKERS[side.index()][sq.index()],
            pawns,
            PieceKind::Pawn,
        ) {
            return Some(hit);
        }
        // An advisor reaches only its own palace, from a diagonal neighbour; an elephant only
        // its own half (its seven points, unless a composed position put one elsewhere).
        let advisors = pieces(PieceKind::Advisor);
        if PALACES[side.index()].contains(sq)
            && let Some(hit) = found(diagonal_neighbours(sq), advisors, PieceKind::Advisor)
        {
            return Some(hit);
        }
        let elephants = pieces(PieceKind::Elephant);
        let elephant_reach = if (elephants & !ELEPHANT_POINTS[side.index()]).any() {
            HOME_HALVES[side.index()]
        } else {
            ELEPHANT_POINTS[side.index()]
        };
        if elephants.any()
            && elephant_reach.contains(sq)
            && let Some(hit) = found(
                elephant_moves(sq, occ.normal),
                elephants,
                PieceKind::Elephant,
            )
        {
            return Some(hit);
        }
        let horses = pieces(PieceKind::Horse);
        if (HORSE_SPAN[sq.index()] & horses).any()
            && let Some(hit) = found(horse_attackers(sq, occ.normal), horses, PieceKind::Horse)
        {
            return Some(hit);
        }
        let (cannons, chariots) = (pieces(PieceKind::Cannon), pieces(PieceKind::Chariot));
        if ((cannons | chariots) & (rank_mask(sq) | file_mask(sq))).any() {
            let lines = line_attacks(sq, occ);
            if let Some(hit) = found(lines.cannon, cannons, PieceKind::Cannon)
                .or_else(|| found(lines.slide, chariots, PieceKind::Chariot))
            {
                return Some(hit);
            }
        }
        found(
            KING_MOVES[sq.index()],
            pieces(PieceKind::King),
            PieceKind::King,
        )
    }

    /// Is the exchange started by `mv` worth at least `threshold` for the mover?
    ///
    /// Plays the captures on the target point out, least valuable attacker first. After
    /// each capture the side to move may stop, keeping the material balance as it stands,
    /// or take back. So the answer is decided at the first point where stopping settles it
    /// for the side to move: after one of the mover's captures, a balance below `threshold`
    /// means the opponent stops there and the answer is no; after one of the opponent's, a
    /// balance at `threshold` or above means the mover stops and the answer is yes.
    /// Otherwise the side to move takes back (it can only do better), and where it has no
    /// capture left the balance stands. The exchange is played only as far as that point.
    pub fn see_ge(&self, mv: Move, threshold: Value) -> bool {
        let (from, to) = (mv.from(), mv.to());
        // The mover's balance against `threshold` if the exchange stops after the first
        // capture, and after the first recapture (often that decides it).
        let mut balance = self.piece_on(to).map_or(0, |p| piece_value(p.kind())) - threshold;
        if balance < 0 {
            return false;
        }
        let Some(mover) = self.piece_on(from) else {
            return true;
        };
        let mut on_point = piece_value(mover.kind());
        if balance - on_point >= 0 {
            return true;
        }
        let mut occ = self.occupancy;
        occ.toggle(from);
        if self.piece_on(to).is_none() {
            occ.toggle(to);
        }
        let mut side = mover.color().opponent();
        while let Some((sq, kind)) = self.least_valuable_attacker(to, occ, side) {
            if kind == PieceKind::King && !self.king_may_take(to, occ, sq, side) {
                break;
            }
            // `side` takes the piece on the point.
            let mover_took = side == mover.color();
            balance += if mover_took { on_point } else { -on_point };
            on_point = piece_value(kind);
            occ.toggle(sq);
            side = side.opponent();
            if mover_took && balance < 0 {
                return false;
            }
            if !mover_took && balance >= 0 {
                return true;
            }
        }
        // The side to move has no capture: the balance stands.
        balance >= 0
    }

    /// May the king of `side` on `from` take on `to` (the board occupied as `occ`)? Only if
    /// nothing can take it back, and not onto a file where it would face the other king.
    fn king_may_take(&self, to: Square, occ: Occupancy, from: Square, side: Color) -> bool {
        let mut after = occ;
        after.toggle(from);
        let enemy = side.opponent();
        let facing = file_slide(to, after) & self.pieces(enemy, PieceKind::King);
        facing.is_empty() && self.least_valuable_attacker(to, after, enemy).is_none()
    }

    /// The material outcome of the exchange started by `mv`, for the mover: the full
    /// exchange played out and walked back (the reference `see_ge` is tested against).
    #[cfg(test)]
    fn see(&self, mv: Move) -> Value {
        let (from, to) = (mv.from(), mv.to());
        let Some(mover) = self.piece_on(from) else {
            return 0;
        };
        let mut gains = vec![self.piece_on(to).map_or(0, |p| piece_value(p.kind()))];
        let mut occ = self.occupancy;
        occ.toggle(from);
        if self.piece_on(to).is_none() {
            occ.toggle(to);
        }
        let mut at_stake = piece_value(mover.kind());
        let mut side = mover.color().opponent();
        while let Some((sq, kind)) = self.least_valuable_attacker(to, occ, side) {
            if kind == PieceKind::King && !self.king_may_take(to, occ, sq, side) {
                break;
            }
            let last = *gains.last().expect("never empty");
            gains.push(at_stake - last);
            at_stake = piece_value(kind);
            occ.toggle(sq);
            side = side.opponent();
        }
        while gains.len() > 1 {
            let deeper = gains.pop().expect("two or more");
            let last = gains.last_mut().expect("one or more");
            *last = -(-*last).max(deeper);
        }
        gains[0]
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

    /// `see_ge`, which stops as soon as the answer is settled, agrees with the whole
    /// exchange played out and walked back, for every move of positions along seeded random
    /// games from the bench positions and every threshold around the piece values.
    #[test]
    fn the_early_answer_agrees_with_the_full_exchange() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let thresholds = [
            -1000, -901, -900, -500, -401, -400, -200, -100, -1, 0, 1, 99, 100,
        ];
        let mut checked = 0;
        // Random games from the start, each following its own line.
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let full = pos.see(mv);
                    for t in thresholds.iter().chain(&[full, full + 1, full - 1]) {
                        assert_eq!(pos.see_ge(mv, *t), full >= *t, "{} {mv} {t}", pos.to_fen());
                        checked += 1;
                    }
                }
                let mv = moves[(next() % moves.len() as u64) as usize];
                pos.make_move(mv);
            }
        }
        assert!(checked > 100_000, "{checked}");
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
