//! What a side chases: the enemy pieces it threatens to win, in the sense of the repetition
//! rules (`shared/docs/rules.md` §6).
//!
//! `side` chases enemy piece V standing on a point when one of its pieces P can *legally*
//! capture V (a pinned piece only attacks along its pin) and:
//! - P is not a king or a pawn (their attacks never chase), V is not the king (that is a
//!   check) nor a pawn still on its own side of the river;
//! - P is a horse or cannon and V a chariot, or P an advisor or elephant and V a chariot, horse
//!   or cannon (a weaker piece attacking a stronger one chases even a protected piece); or
//! - after P takes V, V's side has no legal recapture on that point (protection is judged
//!   after the capture, so a pinned defender or one whose recapture would face the kings does
//!   not protect), and, when P and V are of the same kind, V could not take P first (otherwise
//!   it is an offer to exchange).
//!
//! Only new threats make a move a chase; the cycle code compares the sets before and after.
//! These routines make and take back moves on the position they are given and leave it
//! exactly as it was.

use crate::board::Bitboard;
use crate::core::{Color, Move, Piece, PieceKind};
use crate::position::Position;

/// Runs `f` with `side` to move, passing the turn first if it is the other side's, and gives
/// the turn back afterwards.
fn as_side_to_move<T>(pos: &mut Position, side: Color, f: impl FnOnce(&mut Position) -> T) -> T {
    let pass = pos.side_to_move() != side;
    if pass {
        pos.make_null_move();
    }
    let result = f(pos);
    if pass {
        pos.unmake_null_move();
    }
    result
}

/// The enemy pieces `side` chases in `pos`, judged as if `side` were to move.
pub fn chased_by(pos: &mut Position, side: Color) -> Bitboard {
    as_side_to_move(pos, side, chased_by_side_to_move)
}

fn chased_by_side_to_move(pos: &mut Position) -> Bitboard {
    let mut victims = Bitboard::EMPTY;
    for &mv in pos.legal_captures().iter() {
        let (from, to) = (mv.from(), mv.to());
        if victims.contains(to) {
            continue;
        }
        let (Some(attacker), Some(victim)) = (pos.piece_on(from), pos.piece_on(to)) else {
            continue;
        };
        if can_chase(attacker.kind())
            && can_be_chased(victim, to)
            && chases(pos, mv, attacker, victim)
        {
            victims = victims.with(to);
        }
    }
    victims
}

/// Kings and pawns never chase.
fn can_chase(kind: PieceKind) -> bool {
    !matches!(kind, PieceKind::King | PieceKind::Pawn)
}

/// The king is checked, not chased; a pawn that has not crossed the river cannot be chased.
fn can_be_chased(victim: Piece, on: crate::core::Square) -> bool {
    match victim.kind() {
        PieceKind::King => false,
        PieceKind::Pawn => !victim.color().own_half(on),
        _ => true,
    }
}

/// Does the legal capture `mv` of `attacker` on `victim` count as a chase?
fn chases(pos: &mut Position, mv: Move, attacker: Piece, victim: Piece) -> bool {
    use PieceKind::*;
    let stronger_victim = match attacker.kind() {
        Horse | Cannon => victim.kind() == Chariot,
        Advisor | Elephant => matches!(victim.kind(), Chariot | Horse | Cannon),
        _ => false,
    };
    if stronger_victim {
        return true;
    }
    // Protection, judged once the capture is made: can V's side take back on the point?
    pos.make_move(mv);
    let protected = pos.legal_moves().iter().any(|m| m.to() == mv.to());
    pos.unmake_move();
    if protected {
        return false;
    }
    if attacker.kind() == victim.kind() {
        // Same kind: an offer to exchange when the victim could take the attacker first.
        let back = Move::new(mv.to(), mv.from());
        return !as_side_to_move(pos, victim.color(), |p| p.is_legal(back));
    }
    true
}

/// Could `side`, if it moved again, mate at once (leave the opponent without a legal move)?
/// The Chinese rules count such a threat as an aggressive move.
pub fn threatens_mate(pos: &mut Position, side: Color) -> bool {
    as_side_to_move(pos, side, |pos| {
        pos.legal_moves().iter().any(|&mv| {
            pos.make_move(mv);
            let mated = pos.legal_moves().is_empty();
            pos.unmake_move();
            mated
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    fn chased(fen: &str, side: Color) -> Vec<String> {
        let mut pos = Position::from_fen(fen).unwrap();
        let before = pos.clone();
        let victims: Vec<String> = chased_by(&mut pos, side)
            .map(|sq: Square| sq.to_string())
            .collect();
        assert_eq!(pos, before, "the position is left as it was");
        victims
    }

    #[test]
    fn unprotected_pieces_are_chased_protected_ones_are_not() {
        // Red chariot a4 attacks the black horse c4 (unprotected): a chase.
        assert_eq!(chased("4k4/9/9/9/9/R1n6/9/9/9/3K5 w", Color::Red), ["c4"]);
        // The black chariot c9 protects it from behind: no chase.
        assert!(chased("2r1k4/9/9/9/9/R1n6/9/9/9/3K5 w", Color::Red).is_empty());
    }

    #[test]
    fn a_horse_attacking_a_protected_chariot_chases() {
        // Red horse d3 attacks the black chariot c5, protected by the chariot c9.
        assert_eq!(
            chased("2r1k4/9/9/9/2r6/9/3N5/9/9/3K5 w", Color::Red),
            ["c5"]
        );
    }

    #[test]
    fn pawns_and_kings_do_not_chase_and_uncrossed_pawns_are_not_chased() {
        // A crossed red pawn attacks a black horse: pawns never chase.
        assert!(chased("4k4/9/9/3nP4/9/9/9/9/9/4K4 w", Color::Red).is_empty());
        // A red chariot attacking a black pawn at home (c6): not chased; across (c4): chased.
        assert!(chased("4k4/9/9/R1p6/9/9/9/9/9/3K5 w", Color::Red).is_empty());
        assert_eq!(chased("4k4/9/9/9/9/R1p6/9/9/9/3K5 w", Color::Red), ["c4"]);
    }

    #[test]
    fn an_exchange_offer_is_not_a_chase_unless_the_victim_cannot_hit_back() {
        // Chariot against chariot on an open rank: an offer to exchange.
        assert!(chased("4k4/9/9/9/9/R3r4/9/9/9/3K5 w", Color::Red).is_empty());
        // Red horse e2 attacks the black horse d4, whose leg toward e2 (d3) is blocked.
        assert_eq!(
            chased("4k4/9/9/9/9/3n5/3C5/4N4/9/3K5 w", Color::Red),
            ["d4"]
        );
    }

    #[test]
    fn a_pinned_attacker_does_not_chase() {
        // The red chariot e3 stands between its king and the black chariot e8: pinned, it may
        // not take the horse on a3.
        assert!(chased("3k5/4r4/9/9/9/9/n3R4/9/9/4K4 w", Color::Red).is_empty());
    }
}
