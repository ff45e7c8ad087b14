//! Move notation on real opening lines: every move is written in WXF and Chinese as opening
//! books print it, and each of those spellings (and the ICCS form) reads back as the move.

use chariot::position::Position;

/// (ICCS, WXF, Chinese) for each move of a line from the start position.
type Line = &'static [(&'static str, &'static str, &'static str)];

/// Central cannon, crossing chariot, against the screen horses (中炮过河车对屏风马).
const CENTRAL_CANNON_VS_SCREEN_HORSES: Line = &[
    ("h2e2", "C2.5", "炮二平五"),
    ("h9g7", "H8+7", "马8进7"),
    ("h0g2", "H2+3", "马二进三"),
    ("i9h9", "R9.8", "车9平8"),
    ("i0h0", "R1.2", "车一平二"),
    ("g6g5", "P7+1", "卒7进1"),
    ("h0h6", "R2+6", "车二进六"),
    ("b9c7", "H2+3", "马2进3"),
    ("c3c4", "P7+1", "兵七进一"),
    ("c9e7", "E3+5", "象3进5"),
    ("b0c2", "H8+7", "马八进七"),
    ("f9e8", "A6+5", "士6进5"),
    ("a0b0", "R9.8", "车九平八"),
    ("a9b9", "R1.2", "车1平2"),
];

/// Same-direction cannons (顺炮直车对横车).
const SAME_DIRECTION_CANNONS: Line = &[
    ("h2e2", "C2.5", "炮二平五"),
    ("h7e7", "C8.5", "炮8平5"),
    ("h0g2", "H2+3", "马二进三"),
    ("h9g7", "H8+7", "马8进7"),
    ("i0h0", "R1.2", "车一平二"),
    ("i9i8", "R9+1", "车9进1"),
    ("h0h4", "R2+4", "车二进四"),
    ("i8d8", "R9.4", "车9平4"),
];

/// Elephant opening with an advisor move and a retreating cannon (飞相局).
const ELEPHANT_OPENING: Line = &[
    ("g0e2", "E3+5", "相三进五"),
    ("h7e7", "C8.5", "炮8平5"),
    ("h0g2", "H2+3", "马二进三"),
    ("h9g7", "H8+7", "马8进7"),
    ("f0e1", "A4+5", "仕四进五"),
    ("b7b8", "C2-1", "炮2退1"),
    ("h2h6", "C2+4", "炮二进四"),
    ("a6a5", "P1+1", "卒1进1"),
    ("e1f0", "A5-4", "仕五退四"),
];

fn check_line(line: Line) {
    let mut pos = Position::startpos();
    for &(iccs, wxf, chinese) in line {
        let mv = pos
            .parse_move(iccs)
            .unwrap_or_else(|e| panic!("{iccs}: {e}"));
        assert_eq!(pos.to_wxf(mv), wxf, "{iccs} in {}", pos.to_fen());
        assert_eq!(pos.to_chinese(mv), chinese, "{iccs} in {}", pos.to_fen());
        for text in [iccs, wxf, chinese] {
            assert_eq!(
                pos.parse_human_move(text),
                Ok(mv),
                "reading {text} in {}",
                pos.to_fen()
            );
        }
        pos.make_move(mv);
    }
}

#[test]
fn central_cannon_against_screen_horses() {
    check_line(CENTRAL_CANNON_VS_SCREEN_HORSES);
}

#[test]
fn same_direction_cannons() {
    check_line(SAME_DIRECTION_CANNONS);
}

#[test]
fn elephant_opening() {
    check_line(ELEPHANT_OPENING);
}

#[test]
fn reading_accepts_the_usual_variants() {
    let pos = Position::startpos();
    let central = pos.parse_move("h2e2").unwrap();
    for text in ["C2=5", "c2.5", "C 2 . 5", "炮二平五", "砲二平五", "H2-E2"] {
        assert_eq!(pos.parse_human_move(text), Ok(central), "{text}");
    }
    let horse = pos.parse_move("h0g2").unwrap();
    for text in ["H2+3", "N2+3", "马二进三", "馬二進三", "傌二进三"] {
        assert_eq!(pos.parse_human_move(text), Ok(horse), "{text}");
    }
    let mut black = pos.clone();
    black.make_move(central);
    let reply = black.parse_move("h9g7").unwrap();
    for text in ["H8+7", "马8进7", "馬８進７"] {
        assert_eq!(black.parse_human_move(text), Ok(reply), "{text}");
    }
    for bad in ["", "Z2.5", "炮二平十", "C2.5.5", "h2e9"] {
        assert!(pos.parse_human_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn tandem_pawns_follow_the_wxf_rules() {
    // Three red pawns on file c (Red's file 7) across the river, and a red king.
    let pos = Position::from_fen("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w").unwrap();
    let spell = |iccs: &str| {
        let mv = pos.parse_move(iccs).unwrap();
        (pos.to_wxf(mv), pos.to_chinese(mv))
    };
    assert_eq!(spell("c7d7"), ("P+.6".to_string(), "前兵平六".to_string()));
    assert_eq!(spell("c6d6"), ("P7.6".to_string(), "中兵平六".to_string()));
    assert_eq!(spell("c5b5"), ("P-.8".to_string(), "后兵平八".to_string()));
}
