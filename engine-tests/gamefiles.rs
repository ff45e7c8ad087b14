//! Game files as players keep them: PGN in Chinese, WXF and ICCS notation, in UTF-8, GBK and
//! Big5, and XQF of the plain and the scrambled versions; every notation written and read
//! back to the same moves over many generated games, bad games reported by number while the
//! rest of the file reads, and no input that panics.

use chariot::Position;
use chariot::core::Move;
use chariot::tools::gamefile::{self, Game, Notation, encoding, xqf};
use chariot::tools::rng::Rng;

/// A game of `plies` random legal moves from the start (shorter if it ends).
fn random_game(seed: u64, plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        pos.make_move(mv);
        moves.push(mv);
    }
    let comments = (0..moves.len())
        .map(|i| (i % 7 == 3).then(|| format!("注释 {i}")))
        .collect();
    Game {
        number: 1,
        line: 0,
        tags: vec![
            ("Event".into(), "测试赛".into()),
            ("Red".into(), "红方".into()),
            ("Black".into(), "黑方".into()),
        ],
        start,
        moves,
        comments,
        intro: Some("开局".into()),
        result: Some("1/2-1/2".into()),
        notation: Notation::Chinese,
    }
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

#[test]
fn a_chinese_pgn_in_gbk_with_crlf_comments_and_variations_reads() {
    let text = "[Game \"Chinese Chess\"]\r\n[Event \"全国象棋个人赛\"]\r\n[Red \"红方\"]\r\n[Black \"黑方\"]\r\n[Result \"1-0\"]\r\n\r\n\
                1. 炮二平五 马８进７ {屏风马} 2. 马二进三 (2. 兵七进一 卒7进1) 车9平8\r\n\
                3. 車一平二 馬2進3 4. 兵七進一 卒７进１ 1-0\r\n";
    let bytes = encoding::encode_gbk(text);
    let file = gamefile::read_bytes(&bytes);
    assert_eq!(file.encoding, "gb18030");
    assert_eq!(file.games.len(), 1);
    let game = file.games[0].as_ref().unwrap();
    assert_eq!(
        iccs(&game.moves),
        [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"
        ]
    );
    assert_eq!(game.comments[1].as_deref(), Some("屏风马"));
    assert_eq!(game.tag("Red"), Some("红方"));
    assert_eq!(game.result.as_deref(), Some("1-0"));
    assert_eq!(game.notation, Notation::Chinese);
}

const AFTER_H2E2: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";

#[test]
fn chinese_notation_cases_each_with_its_iccs() {
    // (FEN, move text, expected ICCS)
    let cases = [
        // Black's files from Black's right, in ASCII and full-width digits.
        (AFTER_H2E2, "炮8平5", "h7e7"),
        (AFTER_H2E2, "马２进３", "b9c7"),
        (AFTER_H2E2, "砲２平５", "b7e7"),
        // Traditional characters.
        ("startpos", "傌八進七", "b0c2"),
        ("startpos", "俥九進一", "a0a1"),
        // Tandem cannons (Red front/rear), Black's tandem chariots.
        ("3k5/9/9/9/9/9/4C4/4C4/9/4K4 w", "前炮平六", "e3d3"),
        ("3k5/9/9/9/9/9/4C4/4C4/9/4K4 w", "后炮平四", "e2f2"),
        ("3k5/4r4/9/4r4/9/9/9/9/9/5K3 b", "前车平4", "e6d6"),
        ("3k5/4r4/9/4r4/9/9/9/9/9/5K3 b", "後車進1", "e8e7"),
        // Three red pawns on one file: front, middle, rear.
        ("3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w", "前兵平六", "e6d6"),
        ("3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w", "中兵平六", "e5d5"),
        ("3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w", "前兵进一", "e6e7"),
        // Pawns tandem on two files: the place and the file.
        ("3k5/9/9/2P1P4/2P1P4/9/9/9/9/5K3 w", "前七平八", "c6b6"),
        ("3k5/9/9/2P1P4/2P1P4/9/9/9/9/5K3 w", "后五平四", "e5f5"),
        // WXF tandem forms.
        ("3k5/9/9/9/9/9/4C4/4C4/9/4K4 w", "C+.6", "e3d3"),
        ("3k5/9/9/2P1P4/2P1P4/9/9/9/9/5K3 w", "7+.8", "c6b6"),
    ];
    for (fen, text, want) in cases {
        let pos = if fen == "startpos" {
            Position::startpos()
        } else {
            Position::from_fen(fen).unwrap()
        };
        let mv = pos
            .parse_human_move(text)
            .unwrap_or_else(|e| panic!("{fen}: {text}: {e}"));
        assert_eq!(mv.to_string(), want, "{fen}: {text}");
    }
}

#[test]
fn every_notation_round_trips_over_many_generated_games() {
    for seed in 0..60 {
        let game = random_game(seed, 120);
        for notation in [Notation::Chinese, Notation::Wxf, Notation::Iccs] {
            let text = gamefile::write_pgn(&game, notation, &[]);
            for bytes in [text.clone().into_bytes(), encoding::encode_gbk(&text)] {
                let file = gamefile::read_bytes(&bytes);
                let back = file.games[0]
                    .as_ref()
                    .unwrap_or_else(|e| panic!("seed {seed} {notation:?}: {e}\n{text}"));
                assert_eq!(back.moves, game.moves, "seed {seed} {notation:?}");
                assert_eq!(back.notation, notation);
                assert_eq!(back.comments, game.comments, "seed {seed}");
            }
        }
    }
}

#[test]
fn xqf_of_every_version_round_trips() {
    for seed in 0..40 {
        let game = random_game(100 + seed, 90);
        for version in [10u8, 11, 12, 18] {
            let bytes = xqf::write(&game, version, seed).unwrap();
            assert_eq!(&bytes[..2], b"XQ");
            let file = gamefile::read_bytes(&bytes);
            assert_eq!(file.encoding, "XQF");
            let back = file.games[0]
                .as_ref()
                .unwrap_or_else(|e| panic!("seed {seed} version {version}: {e}"));
            assert_eq!(back.moves, game.moves, "seed {seed} version {version}");
            assert_eq!(back.comments, game.comments);
            assert_eq!(back.intro.as_deref(), Some("开局"));
            assert_eq!(back.tag("Event"), Some("测试赛"));
            assert_eq!(back.tag("Red"), Some("红方"));
            assert_eq!(back.result.as_deref(), Some("1/2-1/2"));
        }
    }
    // A handicap start (Red without its left horse), Black to move.
    let mut game = random_game(7, 0);
    game.start =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR b")
            .unwrap();
    let mut pos = game.start.clone();
    for text in ["h9g7", "h2e2"] {
        let mv = pos.parse_move(text).unwrap();
        pos.make_move(mv);
        game.moves.push(mv);
        game.comments.push(None);
    }
    let back = xqf::read(&xqf::write(&game, 18, 3).unwrap(), 1).unwrap();
    assert_eq!(back.start.to_fen(), game.start.to_fen());
    assert_eq!(iccs(&back.moves), ["h9g7", "h2e2"]);
}

#[test]
fn a_broken_game_is_named_and_the_rest_still_read() {
    let mut text = String::new();
    for i in 0..500 {
        if i == 321 {
            text.push_str("[Event \"broken\"]\n\n1. 炮二平五 马8进7 2. 车九进九 *\n\n");
        } else {
            text.push_str("[Event \"fine\"]\n\n1. 炮二平五 马8进7 2. 马二进三 *\n\n");
        }
    }
    let games = gamefile::read_pgn(&text);
    assert_eq!(games.len(), 500);
    assert_eq!(games.iter().filter(|g| g.is_ok()).count(), 499);
    let err = games[321].as_ref().unwrap_err();
    assert_eq!((err.game, err.ply), (322, Some(3)));
    let message = err.to_string();
    assert!(
        message.starts_with("game 322 (line 1285), move 2. '车九进九': "),
        "{message}"
    );
}

#[test]
fn no_input_panics_or_hangs() {
    let mut rng = Rng::new(99);
    let game = random_game(5, 60);
    let samples = [
        xqf::write(&game, 10, 1).unwrap(),
        xqf::write(&game, 18, 2).unwrap(),
        gamefile::write_pgn(&game, Notation::Chinese, &[]).into_bytes(),
        encoding::encode_gbk(&gamefile::write_pgn(&game, Notation::Wxf, &[])),
    ];
    for sample in &samples {
        for _ in 0..400 {
            let mut bytes = sample.clone();
            // Damage: flip bytes, cut the end, or both.
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(bytes.len() as u64) as usize;
                bytes[at] = rng.next_u64() as u8;
            }
            if rng.below(3) == 0 {
                bytes.truncate(rng.below(bytes.len() as u64) as usize);
            }
            let _ = gamefile::read_bytes(&bytes);
        }
    }
    for len in [0usize, 1, 2, 3, 100, 1023, 1024, 1030] {
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        if len >= 2 {
            bytes[..2].copy_from_slice(b"XQ");
        }
        let _ = gamefile::read_bytes(&bytes);
    }
}
