//! Property tests: random games from the start never reach an illegal position, and at every
//! step the fast legal generator agrees with a slow reference ("after the move, can any enemy
//! piece take my king, or do the kings face each other?").

use chariot::core::{Color, Move, PieceKind, Square};
use chariot::position::Position;
use chariot::position::movegen::GenKind;
use proptest::prelude::*;

/// Do the two kings stand on one file with nothing between them? Walks the file point by
/// point, independently of the bitboard code.
fn kings_face(pos: &Position) -> bool {
    let red = pos.king_square(Color::Red);
    let black = pos.king_square(Color::Black);
    if red.file() != black.file() {
        return false;
    }
    (red.rank() + 1..black.rank()).all(|rank| pos.piece_on(Square::new(red.file(), rank)).is_none())
}

/// The slow reference: a pseudo-legal move is legal iff afterwards the opponent has no
/// pseudo-legal capture of the mover's king and the kings do not face each other.
fn reference_legal(pos: &Position, mv: Move) -> bool {
    let mover = pos.side_to_move();
    let mut after = pos.clone();
    after.make_move(mv);
    let king = after.king_square(mover);
    let king_takeable = after
        .pseudo_legal_moves(GenKind::All)
        .iter()
        .any(|m| m.to() == king);
    !king_takeable && !kings_face(&after)
}

fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    pos.check_consistency().map_err(TestCaseError::fail)?;
    let legal = pos.legal_moves();
    let pseudo = pos.pseudo_legal_moves(GenKind::All);
    for &mv in pseudo.iter() {
        let expected = reference_legal(pos, mv);
        prop_assert_eq!(legal.contains(mv), expected, "{} in {}", mv, pos.to_fen());
        prop_assert_eq!(
            pos.is_legal(mv),
            expected,
            "is_legal({}) in {}",
            mv,
            pos.to_fen()
        );
        if !pos.in_check() {
            prop_assert_eq!(
                pos.is_legal_out_of_check(mv),
                expected,
                "is_legal_out_of_check({}) in {}",
                mv,
                pos.to_fen()
            );
        }
    }
    prop_assert!(legal.iter().all(|m| pseudo.contains(*m)));
    prop_assert_eq!(legal.len() as u64, pos.count_legal_moves());
    let captures = pos.legal_captures();
    let capture_count = legal
        .iter()
        .filter(|m| pos.piece_on(m.to()).is_some())
        .count();
    prop_assert_eq!(captures.len(), capture_count);
    // The evasion generator (the search's, in check): the legal moves, in the same order.
    let evasions: Vec<Move> = pos.check_evasions().iter().copied().collect();
    let expected: Vec<Move> = if pos.in_check() {
        legal.iter().copied().collect()
    } else {
        Vec::new()
    };
    prop_assert_eq!(evasions, expected, "evasions in {}", pos.to_fen());
    // The quiet-check generator: a subsequence of the quiet moves that keeps every check.
    let mut quiets = chariot::position::MoveList::new();
    pos.generate(GenKind::Quiets, &mut quiets);
    let candidates = pos.quiet_check_candidates();
    let mut rest = quiets.iter();
    for &mv in candidates.iter() {
        prop_assert!(
            rest.any(|&q| q == mv),
            "{} out of order in {}",
            mv,
            pos.to_fen()
        );
    }
    for &mv in legal.iter() {
        let mut after = pos.clone();
        after.make_move(mv);
        prop_assert_eq!(
            pos.gives_check(mv),
            after.in_check(),
            "{} in {}",
            mv,
            pos.to_fen()
        );
        if after.in_check() && pos.piece_on(mv.to()).is_none() {
            prop_assert!(
                candidates.contains(mv),
                "quiet check {} missed in {}",
                mv,
                pos.to_fen()
            );
        }
        // Nobody ever captures a king.
        prop_assert_ne!(
            pos.piece_on(mv.to()).map(|p| p.kind()),
            Some(PieceKind::King)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_games_stay_legal(choices in proptest::collection::vec(any::<u16>(), 1..160)) {
        let mut pos = Position::startpos();
        for choice in choices {
            check_position(&pos)?;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.make_move(legal[choice as usize % legal.len()]);
        }
        // Take the whole game back: the start position returns exactly.
        while pos.unmake_move().is_some() {}
        prop_assert_eq!(pos.to_fen(), Position::startpos().to_fen());
        prop_assert_eq!(pos.key(), Position::startpos().key());
    }
}

/// Composed placements (`data/perft-composed.epd`: pawns, advisors and elephants on points no
/// game reaches, extra pieces): every generator agrees with the reference along seeded random
/// games from each of them.
#[test]
fn composed_positions_stay_legal() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let text = include_str!("data/perft-composed.epd");
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim())
        .collect();
    assert!(fens.len() >= 300);
    for fen in fens {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..24 {
            check_position(&pos).unwrap_or_else(|e| panic!("{e}"));
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.make_move(legal[next() as usize % legal.len()]);
        }
    }
}
