//! What an analysis GUI relies on, checked through the engine process over many positions,
//! time limits and thread counts: MultiPV lines that are distinct, ordered and of one depth,
//! a `bestmove` that is line 1's first move (and `ponder` its second), and no bound lines
//! when several lines are shown.

mod common;

use common::Engine;
use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

/// Middlegame and ending positions where several moves are close (and a start position).
const POSITIONS: &[&str] = &[
    "startpos",
    "startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
    "startpos moves c3c4 g6g5 b0c2 b9c7 h2e2 h9g7 h0g2 i9h9",
    "fen r2ak4/9/2n1b4/p1C1p1c1p/9/2P6/P3P3P/4C4/9/2BAKA3 w - - 0 1",
    "fen 2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1C1N2/9/2BAKAB2 b - - 0 1",
    "fen 3ak4/4a4/4b4/4R4/2b6/9/9/4B4/4A4/2BAK1r2 w - - 0 1",
];

/// One `info … pv …` line, read.
#[derive(Debug, Clone)]
struct Line {
    depth: i32,
    multipv: usize,
    score: i64,
    bound: bool,
    pv: Vec<String>,
    text: String,
}

/// Reads the score of either dialect into one comparable number (mates beyond every cp).
fn parse_line(text: &str) -> Option<Line> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.first() != Some(&"info") || !words.contains(&"pv") {
        return None;
    }
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1).copied())
    };
    let depth = after("depth")?.parse().ok()?;
    let multipv = after("multipv").map_or(Some(1), |v| v.parse().ok())?;
    let score = match after("score")? {
        "cp" => after("cp")?.parse().ok()?,
        "mate" => {
            let n: i64 = after("mate")?.parse().ok()?;
            if n > 0 { 1_000_000 - n } else { -1_000_000 - n }
        }
        plain => plain.parse().ok()?,
    };
    let pv_at = words.iter().position(|w| *w == "pv")?;
    Some(Line {
        depth,
        multipv,
        score,
        bound: words.contains(&"lowerbound") || words.contains(&"upperbound"),
        pv: words[pv_at + 1..].iter().map(|w| w.to_string()).collect(),
        text: text.to_string(),
    })
}

/// Checks one search's output for everything an analysis GUI relies on.
fn check_search(out: &[String], multipv: usize, context: &str) {
    let best_line = out.last().expect("an answer");
    let words: Vec<&str> = best_line.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{context}: {out:#?}");
    let best = words[1];
    let ponder = words
        .iter()
        .position(|w| *w == "ponder")
        .map(|i| words[i + 1]);
    let lines: Vec<Line> = out.iter().filter_map(|l| parse_line(l)).collect();
    // bestmove is line 1's first move as last reported, ponder its second.
    let last_first = lines
        .iter()
        .rev()
        .find(|l| l.multipv == 1)
        .unwrap_or_else(|| panic!("{context}: no line 1 at all: {out:#?}"));
    assert_eq!(
        last_first.pv[0], best,
        "{context}: bestmove is not line 1's move: {out:#?}"
    );
    assert_eq!(
        last_first.pv.get(1).map(String::as_str),
        ponder,
        "{context}: ponder is not line 1's second move: {out:#?}"
    );
    if multipv == 1 {
        return;
    }
    // Several lines: no bounds, each (depth, line) once, and per depth distinct root moves in
    // order, with no line number above the option.
    let mut by_depth: BTreeMap<i32, BTreeMap<usize, &Line>> = BTreeMap::new();
    for line in &lines {
        assert!(!line.bound, "{context}: bound line: {}", line.text);
        assert!(
            line.multipv >= 1 && line.multipv <= multipv,
            "{}",
            line.text
        );
        let previous = by_depth
            .entry(line.depth)
            .or_default()
            .insert(line.multipv, line);
        assert!(
            previous.is_none(),
            "{context}: line {} of depth {} reported twice: {out:#?}",
            line.multipv,
            line.depth
        );
    }
    for (depth, slots) in &by_depth {
        let numbers: Vec<usize> = slots.keys().copied().collect();
        let expected: Vec<usize> = (1..=numbers.len()).collect();
        assert_eq!(numbers, expected, "{context}: depth {depth}: {out:#?}");
        let mut moves = HashSet::new();
        let mut last_score = i64::MAX;
        for line in slots.values() {
            assert!(
                moves.insert(line.pv[0].clone()),
                "{context}: depth {depth} repeats {}: {out:#?}",
                line.pv[0]
            );
            assert!(
                line.score <= last_score,
                "{context}: depth {depth} is out of order: {out:#?}"
            );
            last_score = line.score;
        }
    }
}

/// Runs every position under `go` limits with the given options in one engine.
fn analyse_all(dialect: &str, threads: usize, multipv: usize, limits: &[&str]) {
    let mut e = Engine::after_handshake(dialect).0;
    let (threads_cmd, multipv_cmd) = if dialect == "uci" {
        (
            format!("setoption name Threads value {threads}"),
            format!("setoption name MultiPV value {multipv}"),
        )
    } else {
        (
            format!("setoption threads {threads}"),
            format!("setoption multipv {multipv}"),
        )
    };
    e.send(&threads_cmd);
    e.send(&multipv_cmd);
    if dialect == "uci" {
        e.send("setoption name UCI_ShowWDL value true");
    }
    for position in POSITIONS {
        for limit in limits {
            e.send("isready");
            e.expect("readyok");
            e.send(&format!("position {position}"));
            e.send(&format!("go {limit}"));
            let out = e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
            check_search(
                &out,
                multipv,
                &format!("{dialect}, {threads} threads, MultiPV {multipv}, {position}, go {limit}"),
            );
        }
    }
}

#[test]
fn multipv_lines_are_distinct_ordered_and_line_one_is_the_answer_one_thread() {
    analyse_all(
        "uci",
        1,
        3,
        &["movetime 120", "movetime 450", "depth 9", "nodes 40000"],
    );
}

#[test]
fn multipv_lines_are_distinct_ordered_and_line_one_is_the_answer_two_threads() {
    analyse_all(
        "uci",
        2,
        3,
        &["movetime 120", "movetime 450", "depth 9", "nodes 40000"],
    );
}

#[test]
fn multipv_in_ucci_and_with_many_lines() {
    analyse_all("ucci", 2, 5, &["time 300", "depth 7"]);
}

#[test]
fn one_line_bestmove_is_line_one_even_when_a_helper_chose() {
    analyse_all("uci", 2, 1, &["movetime 80", "movetime 300", "depth 10"]);
    analyse_all("ucci", 1, 1, &["time 80", "depth 9"]);
}

#[test]
fn an_interrupted_analysis_keeps_its_completed_lines() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name MultiPV value 3");
    e.send("setoption name Threads value 2");
    for (i, position) in POSITIONS.iter().enumerate() {
        e.send(&format!("position {position}"));
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(60 + 90 * i as u64));
        e.send("stop");
        let out = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
        check_search(&out, 3, &format!("stopped, {position}"));
    }
}

/// Sends `go depth 3` and returns everything up to the answer, which must be "no move".
fn no_move_answer(e: &mut Engine, dialect: &str) -> Vec<String> {
    e.send("go depth 3");
    let (done, answer) = if dialect == "uci" {
        ("bestmove", "bestmove (none)")
    } else {
        ("nobestmove", "nobestmove")
    };
    let out = e.until(Duration::from_secs(20), move |l| l.starts_with(done));
    assert_eq!(out.last().unwrap(), answer, "{out:#?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: no position to search")),
        "{out:#?}"
    );
    out
}

#[test]
fn no_move_is_given_for_a_position_that_was_refused() {
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::after_handshake(dialect).0;
        // A good position first, so there is an earlier one the engine could wrongly use.
        e.send("position startpos moves h2e2");
        e.send("go depth 3");
        e.expect("bestmove");
        for refused in [
            "position fen rnbakabnr/9/1c5c1 w",
            "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "position banana",
            "position fen",
            "fen 3k5/9/9/9/9/9/9/9/9/3K1K3 w - - 0 1",
        ] {
            e.send(refused);
            no_move_answer(&mut e, dialect);
            // It stays so, for every `go`, until a good position arrives.
            no_move_answer(&mut e, dialect);
            e.send("position startpos");
            e.send("go depth 3");
            let out = e.expect("bestmove");
            assert!(out.last().unwrap().len() > "bestmove ".len(), "{out:#?}");
        }
        // An illegal move ends the list there: the error names it and its index, and the
        // position before it is searched (the move-list tests are in `clients.rs`).
        e.send("position startpos moves h2e2 h9g7 h2h9");
        e.send("go depth 3");
        let out = e.expect("bestmove");
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string error: move 3 of 3, 'h2h9'")),
            "{out:#?}"
        );
        let best = common::bestmove_of(&out);
        assert!(
            common::legal_in(None, &["h2e2", "h9g7"], &best),
            "{best}: {out:#?}"
        );
        e.send("position startpos moves h2e2 h9g7");
        e.send("go depth 3");
        let out = e.expect("bestmove");
        let best = common::bestmove_of(&out);
        assert!(
            common::legal_in(None, &["h2e2", "h9g7"], &best),
            "{best}: {out:#?}"
        );
    }
}

#[test]
fn the_static_score_is_the_evaluation_the_engine_plays_with() {
    let fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1CN3NC1/9/R1BAKAB1R b - - 0 1";
    let pos = chariot::Position::from_fen(fen).unwrap();
    let net = chariot::eval::Evaluator::default().evaluate(&pos);
    let hce = chariot::eval::Evaluator::Hce.evaluate(&pos);
    assert_ne!(net, hce, "the test needs a position where they differ");
    let hash = format!("{:016x}", chariot::eval::nnue::embedded().hash);
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 0");
    let out = e.expect("nobestmove");
    assert!(
        out.contains(&format!("info depth 0 score {net}")),
        "{out:#?}"
    );
    e.send("eval");
    e.send("isready");
    let out = e.expect("readyok");
    let last = out
        .iter()
        .find(|l| l.starts_with("info string Static evaluation"))
        .unwrap_or_else(|| panic!("{out:#?}"));
    assert!(last.contains(&hash), "{last}");
    assert!(
        last.contains(&format!("cp {} and cp {net}", -net)),
        "{last}"
    );
    // Every piece but the kings has its share on the board (two rows per rank).
    let rows = out
        .iter()
        .filter(|l| l.starts_with("info string ") && l.contains('.'))
        .count();
    assert!(rows >= 10, "{out:#?}");
    e.send("setoption usennue false");
    e.send("go depth 0");
    let out = e.expect("nobestmove");
    assert!(
        out.contains(&format!("info depth 0 score {hce}")),
        "{out:#?}"
    );
    // UCI: the same command.
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send(&format!("position fen {fen}"));
    e.send("eval");
    e.send("isready");
    let out = e.expect("readyok");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string Static evaluation (NNUE")
                && l.contains(&format!("cp {net}"))),
        "{out:#?}"
    );
}

#[test]
fn chariot_eval_explains_a_fen_from_the_shell() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["eval", "startpos", "--moves", "h2e2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let hash = format!("{:016x}", chariot::eval::nnue::embedded().hash);
    assert!(text.contains(&hash), "{text}");
    assert!(text.contains("(Black to move)"), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args([
            "eval",
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/4K4 w",
            "--eval",
            "hce",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad FEN"));
}

/// Two composed puzzles (a pawn on its own back rank): mate in 2 and mate in 4.
const PUZZLES: &[(&str, &str, i32)] = &[
    (
        "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
        "g5g9",
        2,
    ),
    (
        "3k2p2/4P4/9/9/9/2B1cnN2/9/7CR/4p4/2Cp1K3 w - - 0 1",
        "h2h9",
        4,
    ),
];

#[test]
fn composed_puzzles_are_accepted_with_a_warning_and_solved() {
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::after_handshake(dialect).0;
        for (fen, first, mate) in PUZZLES {
            e.send(&format!("position fen {fen}"));
            e.send("go depth 12");
            let out = e.expect("bestmove");
            assert!(
                out.iter()
                    .any(|l| l.starts_with("info string warning: composed position")
                        && l.contains("cannot arise in a game")),
                "{out:#?}"
            );
            assert_eq!(common::bestmove_of(&out), *first, "{fen}: {out:#?}");
            let score = if dialect == "uci" {
                format!("score mate {mate} ")
            } else {
                format!("score {} ", 10_000 - (2 * mate - 1))
            };
            assert!(
                out.iter()
                    .rev()
                    .find(|l| l.contains(" pv "))
                    .unwrap()
                    .contains(&score),
                "{fen}: {out:#?}"
            );
        }
    }
    for (fen, first, mate) in PUZZLES {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(["analyze", fen, "--depth", "12"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("bestmove {first}"))),
            "{text}"
        );
        assert!(text.contains(&format!("mate {mate}")), "{text}");
        let warning = String::from_utf8_lossy(&out.stderr);
        assert!(
            warning.starts_with("warning: composed position"),
            "{warning}"
        );
    }
}
