//! FEN reading and writing: every rejection gives its exact error, every alias is accepted,
//! and FEN -> position -> FEN is exact.

use chariot::core::{Color, Square};
use chariot::position::{FenError, Position, START_FEN};

fn err(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

#[test]
fn round_trip_is_exact() {
    let fens = [
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "3k5/4a4/3P5/2R1P4/9/4r4/2p6/9/4A4/4K4 w - - 37 52",
        "4k4/9/9/9/9/4n4/9/4C4/4A4/3AK4 b - - 0 1",
    ];
    for fen in fens {
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }
}

#[test]
fn accepts_side_letters_aliases_and_short_forms() {
    let canonical = Position::from_fen(START_FEN).unwrap();
    let variants = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR W - -",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  - -  0  1 ",
    ];
    for fen in variants {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos, canonical, "{fen}");
        assert_eq!(pos.to_fen(), START_FEN, "{fen}");
    }
    let black = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
        .unwrap();
    assert_eq!(black.side_to_move(), Color::Black);
    assert_ne!(
        black.key(),
        canonical.key(),
        "the side to move is part of the key"
    );
    let counters = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 17 40").unwrap();
    assert_eq!(
        (counters.halfmove_clock(), counters.fullmove_number()),
        (17, 40)
    );
}

#[test]
fn rejects_malformed_text() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("   "), FenError::Empty);
    assert_eq!(err("4k4/9/9/9/9/9/9/9/3K5 w"), FenError::WrongRankCount(9));
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/9/3K5 w"),
        FenError::WrongRankCount(11)
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K6 w"),
        FenError::WrongPointCount {
            rank: 0,
            points: 10
        }
    );
    assert_eq!(
        err("4k3/9/9/9/9/9/9/9/9/3K5 w"),
        FenError::WrongPointCount { rank: 9, points: 8 }
    );
    assert_eq!(
        err("4k4/9/9/9/4x4/9/9/9/9/3K5 w"),
        FenError::UnknownPiece {
            letter: 'x',
            rank: 5
        }
    );
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/3K5"), FenError::MissingSide);
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5 x"),
        FenError::BadSide("x".into())
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1"),
        FenError::BadCounter {
            field: "halfmove clock",
            value: "x".into()
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 -3"),
        FenError::BadCounter {
            field: "fullmove number",
            value: "-3".into()
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra"),
        FenError::TooManyFields(7)
    );
}

#[test]
fn rejects_missing_and_extra_kings_and_a_king_outside_its_palace() {
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9/3K5 w"),
        FenError::MissingKing {
            color: Color::Black
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/9 w"),
        FenError::MissingKing { color: Color::Red }
    );
    assert_eq!(
        err("3kk4/9/9/9/9/9/9/9/9/3K5 w"),
        FenError::TooManyKings {
            color: Color::Black,
            count: 2
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/K8 w"),
        FenError::KingOutsidePalace {
            color: Color::Red,
            square: sq("a0")
        }
    );
    assert_eq!(
        err("9/9/9/9/4k4/9/9/9/9/3K5 w"),
        FenError::KingOutsidePalace {
            color: Color::Black,
            square: sq("e5")
        }
    );
    // A king in the other side's palace is outside its own.
    assert_eq!(
        err("3k1K3/9/9/9/9/9/9/9/9/9 w"),
        FenError::KingOutsidePalace {
            color: Color::Red,
            square: sq("f9")
        }
    );
}

/// Each FEN is accepted, with a warning that says what cannot arise in a game.
fn accepted_with_warnings(cases: &[(&str, &str)]) {
    for (fen, warning) in cases {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let text = pos.placement_warning().unwrap_or_default();
        assert!(text.contains(warning), "{fen}: {text}");
        assert!(text.ends_with("played by the ordinary rules"), "{text}");
    }
}

#[test]
fn accepts_extra_pieces_with_a_warning() {
    let cases = [
        ("5k3/9/9/9/9/9/9/9/9/3KAAA2 w", "red has 3 advisors"),
        ("5k3/9/9/9/9/9/9/9/9/B1BKB4 w", "red has 3 elephants"),
        ("5k3/9/9/9/9/NNN6/9/9/9/3K5 w", "red has 3 horses"),
        ("3k5/9/9/9/9/9/9/9/rrr6/4K4 w", "black has 3 chariots"),
        ("3k5/9/9/9/9/9/9/9/ccc6/4K4 w", "black has 3 cannons"),
        ("3k5/9/9/PPPPPP3/9/9/9/9/9/4K4 w", "red has 6 pawns"),
    ];
    accepted_with_warnings(&cases);
}

#[test]
fn accepts_pieces_on_points_no_game_reaches_with_a_warning() {
    let cases = [
        ("5k3/9/9/9/9/9/9/9/9/3KA4 w", "a red advisor on e0"),
        ("3ka4/9/9/9/9/9/9/9/9/4K4 w", "a black advisor on e9"),
        ("5k3/9/9/9/9/9/9/9/9/1B1K5 w", "a red elephant on b0"),
        ("3k5/9/9/9/2B6/9/9/9/9/4K4 w", "a red elephant on c5"),
        ("3k5/9/9/9/9/2b6/9/9/9/4K4 w", "a black elephant on c4"),
        ("3k5/9/9/9/9/9/9/P8/9/4K4 w", "a red pawn on a2"),
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "a red pawn on b3"),
        ("3k5/9/p8/9/9/9/9/9/9/4K4 w", "a black pawn on a7"),
        ("3k5/9/9/9/3p5/9/9/9/9/4K4 w", "a black pawn on d5"),
        ("3k1p3/9/9/9/9/9/9/9/9/4K4 w", "a black pawn on f9"),
    ];
    accepted_with_warnings(&cases);
    // A position of a game has none.
    assert_eq!(Position::startpos().placement_warning(), None);
}

#[test]
fn rejects_facing_kings_and_the_waiting_side_in_check() {
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::KingsFacing);
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 b"), FenError::KingsFacing);
    // Black king attacked by a red chariot while Red is to move.
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
        FenError::SideNotToMoveInCheck {
            color: Color::Black
        }
    );
    // Red king attacked by a black cannon while Black is to move.
    assert_eq!(
        err("3k5/9/9/9/9/9/3c5/9/3N5/3K5 b"),
        FenError::SideNotToMoveInCheck { color: Color::Red }
    );
    // The same positions with the checked side to move are fine.
    assert!(
        Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b")
            .unwrap()
            .in_check()
    );
    assert!(
        Position::from_fen("3k5/9/9/9/9/9/3c5/9/3N5/3K5 w")
            .unwrap()
            .in_check()
    );
}

#[test]
fn errors_read_well() {
    let text = |fen: &str| err(fen).to_string();
    assert_eq!(
        text("4k4/9/9/9/9/9/9/9/9/3K6 w"),
        "rank 0 has 10 points, expected 9"
    );
    assert_eq!(
        text("3kk4/9/9/9/9/9/9/9/9/3K5 w"),
        "black has 2 kings, a side has exactly one"
    );
    assert_eq!(
        text("3k5/9/9/9/9/9/9/9/9/K8 w"),
        "the red king stands on a0, outside its palace"
    );
    assert_eq!(
        text("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        "the kings face each other on an open file"
    );
}
