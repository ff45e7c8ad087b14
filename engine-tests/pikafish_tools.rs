//! What tools made for Pikafish (and ElephantEye) read from an engine, checked through the
//! built binary: a move list that ends at its first illegal move (in both dialects and both
//! rank bases), pikafish-terminal's exact command sequence over a whole game, and the
//! answers to `d` (`Fen:`, `Key:`, `Checkers:`), `eval` (`Final evaluation`) and `go perft`.

mod common;

use chariot::Position;
use common::{Engine, bestmove_of, has_line};

/// The position after `moves` (ICCS, ranks 0..9) from `fen` (or the start).
fn position_after(fen: Option<&str>, moves: &[&str]) -> Position {
    let mut pos = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap());
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

/// A move in ranks 1..10 read as ranks 0..9 (the test's own conversion).
fn one_based_to_iccs(text: &str) -> String {
    let file1 = &text[..1];
    let rest = &text[1..];
    let split = rest.find(|c: char| c.is_ascii_alphabetic()).unwrap();
    let rank1: u8 = rest[..split].parse().unwrap();
    let file2 = &rest[split..split + 1];
    let rank2: u8 = rest[split + 1..].parse().unwrap();
    format!("{file1}{}{file2}{}", rank1 - 1, rank2 - 1)
}

#[test]
fn an_illegal_move_ends_the_move_list_in_both_dialects_and_rank_bases() {
    struct Case {
        dialect: &'static str,
        setup: &'static [&'static str],
        position: &'static str,
        /// The start of the error line: the dropped move's index and text.
        error: &'static str,
        /// Where the search must have been: the FEN (or the start) and the moves kept.
        fen: Option<&'static str>,
        kept: &'static [&'static str],
        one_based: bool,
    }
    let after_h2e2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
    let cases = [
        // pikafish-terminal's first move: the position after the move, then the move again.
        Case {
            dialect: "uci",
            setup: &[],
            position: "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b moves h2e2",
            error: "move 1 of 1, 'h2e2'",
            fen: Some(after_h2e2),
            kept: &[],
            one_based: false,
        },
        Case {
            dialect: "ucci",
            setup: &[],
            position: "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b moves h2e2",
            error: "move 1 of 1, 'h2e2'",
            fen: Some(after_h2e2),
            kept: &[],
            one_based: false,
        },
        Case {
            dialect: "ucci",
            setup: &[],
            position: "position startpos moves h2e2 h9g7 h2h9 b0c2",
            error: "move 3 of 4, 'h2h9'",
            fen: None,
            kept: &["h2e2", "h9g7"],
            one_based: false,
        },
        Case {
            dialect: "uci",
            setup: &[],
            position: "position startpos moves h2e2 banana h9g7",
            error: "move 2 of 3, 'banana'",
            fen: None,
            kept: &["h2e2"],
            one_based: false,
        },
        // A Fairy-Stockfish-style client: ranks 1..10.
        Case {
            dialect: "uci",
            setup: &["setoption name UCI_Variant value xiangqi"],
            position: "position startpos moves h3e3 h10g8 h3h10",
            error: "move 3 of 3, 'h3h10'",
            fen: None,
            kept: &["h2e2", "h9g7"],
            one_based: true,
        },
        Case {
            dialect: "uci",
            setup: &["setoption name RankBase value 1-10"],
            position: "position startpos moves h3e3 e3e3",
            error: "move 2 of 2, 'e3e3'",
            fen: None,
            kept: &["h2e2"],
            one_based: true,
        },
    ];
    for case in &cases {
        let mut e = Engine::after_handshake(case.dialect).0;
        for line in case.setup {
            e.send(line);
        }
        e.send(case.position);
        e.send("go depth 4");
        let out = e.expect("bestmove");
        let error = format!("info string error: {}", case.error);
        assert!(has_line(&out, &error), "{}: {out:#?}", case.position);
        let best = bestmove_of(&out);
        let iccs = if case.one_based {
            one_based_to_iccs(&best)
        } else {
            best.clone()
        };
        let pos = position_after(case.fen, case.kept);
        assert!(
            pos.parse_move(&iccs).is_ok(),
            "{}: bestmove {best} is not legal where the list ends: {out:#?}",
            case.position
        );
        // `d` shows the position searched.
        e.send("d");
        let board = e.expect("Checkers:");
        assert!(
            has_line(&board, &format!("Fen: {}", pos.to_fen())),
            "{board:#?}"
        );
    }
    // The shell tools keep refusing a list with an illegal move.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["perft", "--depth", "1", "--moves", "h2e2", "h2e2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

/// pikafish-terminal 0.0.8 (`engine.py`): each turn it sends the position *after* the game's
/// moves, as a two-field FEN, followed by all the moves again, and asks `go depth 1` whether
/// the game is over, `go perft 1` whether a move is legal (reading `move: count` lines up to
/// `Nodes searched:`), `go depth D movetime T` for the score and `go depth N` for the move.
#[test]
fn pikafish_terminals_command_sequence_plays_a_game() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send("isready");
    e.expect("readyok");
    e.send("ucinewgame");
    e.send("isready");
    e.expect("readyok");
    let mut pos = Position::startpos();
    let mut history: Vec<String> = Vec::new();
    let mut over = false;
    for ply in 0..60 {
        let fen = pos.to_fen();
        let two_fields: Vec<&str> = fen.split_whitespace().take(2).collect();
        let mut command = format!("position fen {}", two_fields.join(" "));
        if !history.is_empty() {
            command.push_str(&format!(" moves {}", history.join(" ")));
        }
        // is_game_over
        e.send(&command);
        e.send("go depth 1");
        let out = e.expect("bestmove");
        if !history.is_empty() {
            assert!(
                has_line(
                    &out,
                    &format!("info string error: move 1 of {}", history.len())
                ),
                "ply {ply}: {out:#?}"
            );
        }
        if bestmove_of(&out) == "(none)" {
            assert!(pos.legal_moves().is_empty(), "ply {ply}: {out:#?}");
            over = true;
            break;
        }
        // get_position_evaluation
        e.send(&command);
        e.send("go depth 6 movetime 300");
        let out = e.expect("bestmove");
        assert!(
            out.iter()
                .any(|l| l.contains(" score cp ") || l.contains(" score mate ")),
            "ply {ply}: {out:#?}"
        );
        // best_move
        e.send(&command);
        e.send("go depth 5");
        let best = bestmove_of(&e.expect("bestmove"));
        let mv = pos
            .parse_move(&best)
            .unwrap_or_else(|err| panic!("ply {ply}: bestmove {best}: {err}"));
        // is_move_legal, as the client checks a player's move.
        e.send(&command);
        e.send("go perft 1");
        let out = e.expect("Nodes searched:");
        let listed: Vec<&str> = out
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("info") && !l.starts_with("Nodes"))
            .map(|l| l.split(':').next().unwrap())
            .collect();
        assert_eq!(listed.len(), pos.legal_moves().len(), "ply {ply}: {out:#?}");
        assert!(listed.contains(&best.as_str()), "ply {ply}: {out:#?}");
        pos.make_move(mv);
        history.push(best);
    }
    assert!(over || history.len() == 60, "{history:?}");
    assert!(
        history.len() >= 20,
        "a game of {} plies: {history:?}",
        history.len()
    );
    e.send("quit");
}

#[test]
fn d_eval_and_perft_answer_as_pikafish_does() {
    let mut e = Engine::after_handshake("uci").0;
    // Black in check from a chariot and a horse at once.
    let fen = "3k5/9/4N4/9/9/9/9/9/9/3RK4 b - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("d");
    let out = e.expect("Checkers:");
    assert!(has_line(&out, &format!("Fen: {fen}")), "{out:#?}");
    let key = out.iter().find(|l| l.starts_with("Key: ")).unwrap();
    let hex = &key["Key: ".len()..];
    assert!(
        hex.len() == 16
            && hex
                .chars()
                .all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c)),
        "{key}"
    );
    let checkers = out.last().unwrap();
    let mut points: Vec<&str> = checkers["Checkers:".len()..].split_whitespace().collect();
    points.sort();
    assert_eq!(points, ["d0", "e7"], "{out:#?}");
    assert!(has_line(&out, "   a   b   c"), "{out:#?}");
    assert_eq!(
        out.iter().filter(|l| l.starts_with(" | ")).count(),
        10,
        "{out:#?}"
    );
    // The same position reached another way has the same key; another has another.
    let key_of = |e: &mut Engine, position: &str| {
        e.send(position);
        e.send("d");
        let out = e.expect("Checkers:");
        assert_eq!(out.last().unwrap().trim_end(), "Checkers:", "{out:#?}");
        out.iter().find(|l| l.starts_with("Key: ")).unwrap().clone()
    };
    let start = key_of(&mut e, "position startpos");
    let back = key_of(&mut e, "position startpos moves b0c2 b9c7 c2b0 c7b9");
    let other = key_of(&mut e, "position startpos moves b0c2 b9c7");
    assert_eq!(start, back);
    assert_ne!(start, other);
    assert_ne!(&start, key);

    // `eval`: Chariot's explanation, then Pikafish's closing line in pawns from Red's view.
    e.send(
        "position fen r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1CN3NC1/9/R1BAKAB1R b - - 0 1",
    );
    e.send("eval");
    let out = e.expect("Final evaluation");
    let last = out.last().unwrap();
    let value: f64 = last["Final evaluation".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{last}"));
    let static_line = out
        .iter()
        .find(|l| l.contains("Static evaluation"))
        .unwrap();
    assert!(
        static_line.contains(&format!("{value:+.2} (Red's view)")),
        "{out:#?}"
    );
    assert!(last.ends_with("(white side)"), "{last}");

    // `go perft`: `move: count` lines, a blank line, the total, a blank line.
    e.send("position startpos");
    e.send("go perft 2");
    let out = e.expect("Nodes searched:");
    let counts: u64 = out
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| m.len() == 4)
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(counts, 1920);
    assert_eq!(out.last().unwrap(), "Nodes searched: 1920");
    assert_eq!(out[out.len() - 2], "");
    e.send("isready");
    let tail = e.expect("readyok");
    assert_eq!(tail, ["", "readyok"]);
}
