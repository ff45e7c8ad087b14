//! Check detection for moves: which moves give check, answered for most moves by two set
//! tests against what `check_info` computes once per node.

use super::*;

/// The opponent's king and the points that matter for checking it (see `check_info`).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    pub(super) king: Square,
    /// The king's rank and file.
    pub(super) lines: Bitboard,
    /// Its lines up to and including the first piece each way: where a chariot (or, on the
    /// file, the other king) would give check.
    pub(super) open_lines: Bitboard,
    /// Pieces of the side to move whose leaving could uncover a check: along a line of the
    /// king, the first piece with an own chariot second or an own cannon third, and the
    /// second with an own cannon third; a piece on the leg of an own horse aimed at it.
    pub(super) uncovering: Bitboard,
    /// Empty points between the king and a cannon of the side to move with nothing between
    /// them: a piece arriving there becomes the cannon's screen.
    pub(super) screens: Bitboard,
    /// Where a horse or a pawn of the side to move would give check.
    pub(super) horse_checks: Bitboard,
    pub(super) pawn_checks: Bitboard,
    /// Every point a piece could give check from by arriving there (the lines, the horse
    /// and the pawn checks; the screens lie on the lines): a move to anywhere else checks
    /// only by uncovering, so most moves are answered by this and `uncovering` alone.
    pub(super) arrivals: Bitboard,
}

impl Position {
    /// The pieces that give check to the side to move (the facing king among them).
    pub fn checkers(&self) -> Bitboard {
        let them = self.side.opponent();
        let king = self.king_square(self.side);
        let attackers = self.king_attackers(them);
        let lines = line_attacks(king, self.occupancy);
        Bitboard(
            lines.slide.0 & attackers.lines
                | lines.cannon.0 & attackers.cannons
                | horse_attackers(king, self.occupancy.normal).0 & attackers.horses
                | PAWN_ATTACKERS[them.index()][king.index()].0 & attackers.pawns,
        )
    }

    /// Does the legal move `mv` give check to the opponent?
    pub fn gives_check(&self, mv: Move) -> bool {
        self.gives_check_with(&self.check_info(), mv)
    }

    /// What `gives_check_with` needs about the opponent's king, computed once per node when
    /// many moves are asked about.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let king = self.king_square(us.opponent());
        let own = self.color_pieces(us);
        let occ = self.occupancy;
        let open_lines = chariot_attacks(king, occ);
        let cannons = self.pieces(us, PieceKind::Cannon);
        let chariots = self.pieces(us, PieceKind::Chariot);
        let lines = rank_mask(king) | file_mask(king);
        let mut uncovering = Bitboard::EMPTY;
        if ((cannons | chariots) & lines).any() {
            // The second piece along each line, looked up only here: most positions have
            // no chariot or cannon of the side to move on the king's lines.
            let second = cannon_captures(king, occ);
            let first = open_lines & self.occupied();
            let third = third_blockers(king, occ);
            for ray in RAYS[king.index()] {
                // A cannon third along the ray checks once the first or second piece leaves,
                // a chariot second once the first does.
                if (third & ray & cannons).any() {
                    uncovering |= (first | second) & ray;
                } else if (second & ray & chariots).any() {
                    uncovering |= first & ray;
                }
            }
        }
        let horses = self.pieces(us, PieceKind::Horse);
        if (HORSE_SPAN[king.index()] & horses).any() {
            for step in &HORSE_ATTACKERS[king.index()] {
                if (step.targets & horses).any() {
                    uncovering |= step.gate;
                }
            }
        }
        let mut screens = Bitboard::EMPTY;
        if (open_lines & cannons).any() {
            let empty = open_lines & !self.occupied();
            for ray in RAYS[king.index()] {
                if (ray & open_lines & cannons).any() {
                    screens |= ray & empty;
                }
            }
        }
        let horse_checks = horse_attackers(king, occ.normal);
        let pawn_checks = PAWN_ATTACKERS[us.index()][king.index()];
        CheckInfo {
            king,
            lines,
            open_lines,
            uncovering: uncovering & own,
            screens,
            horse_checks,
            pawn_checks,
            arrivals: lines | horse_checks | pawn_checks,
        }
    }

    /// `gives_check` with the king's data precomputed by `check_info` for this position.
    #[inline(always)]
    pub fn gives_check_with(&self, info: &CheckInfo, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        if !info.arrivals.contains(to) && !info.uncovering.contains(from) {
            return false;
        }
        let Some(moved) = self.mailbox[from.index()] else {
            return false;
        };
        // A move checks by its own piece from `to`, by uncovering another from `from`, or by
        // becoming a cannon's screen on `to`. Horses and pawns check by table; whatever else
        // could check gets the full test on the board after the move. A chariot checks only
        // from an open line; a cannon only from beyond the first piece (leaving `from` can
        // only take pieces away, and with none between it would not check).
        let could_check = match moved.kind() {
            PieceKind::Horse if info.horse_checks.contains(to) => return true,
            PieceKind::Pawn if info.pawn_checks.contains(to) => return true,
            // Nothing stands between the king and a point of its open lines (the first piece
            // on them included), and the chariot's own point cannot be between: a chariot
            // arriving there checks.
            PieceKind::Chariot if info.open_lines.contains(to) => return true,
            PieceKind::King => info.open_lines.contains(to),
            PieceKind::Cannon => (info.lines & !info.open_lines).contains(to),
            _ => false,
        };
        if could_check || info.uncovering.contains(from) || info.screens.contains(to) {
            self.gives_check_near_king(info, moved, from, to)
        } else {
            false
        }
    }

    /// `gives_check_with` for a move that could check: the full test on the board after the
    /// move (kept out of line, as most moves never get here).
    #[inline(never)]
    pub(super) fn gives_check_near_king(
        &self,
        info: &CheckInfo,
        moved: Piece,
        from: Square,
        to: Square,
    ) -> bool {
        let us = self.side;
        let mut attackers = self.king_attackers(us);
        let step = SQUARE_BITS[from.index()] | SQUARE_BITS[to.index()];
        match moved.kind() {
            PieceKind::Chariot | PieceKind::King => attackers.lines ^= step,
            PieceKind::Cannon => attackers.cannons ^= step,
            PieceKind::Horse => attackers.horses ^= step,
            PieceKind::Pawn => attackers.pawns ^= step,
            PieceKind::Advisor | PieceKind::Elephant => {}
        }
        let occ = self.occupancy.after_move(from, to);
        Self::king_in_danger(info.king, us, occ, attackers)
    }
}
