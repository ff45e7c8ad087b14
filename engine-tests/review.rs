//! `chariot review` through the binary: a club game in Chinese notation saved in GBK, with a
//! hanging chariot at move 5, gets its `??` there and a turning point; the report is the
//! same at fixed nodes whatever the threads; the annotated PGN reads back to the same moves;
//! an XQF file on standard input reviews the same.

use chariot::tools::gamefile::{self, xqf};
use std::io::Write;
use std::process::{Command, Stdio};

const GAME: &str = "engine-tests/data/blunder-gbk.pgn";

fn review(args: &[&str], stdin: Option<&[u8]>) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("review")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        input.write_all(bytes).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The report without its timing, which is all that may differ between runs.
fn without_seconds(json: &str) -> String {
    let start = json.find("\"seconds\":").unwrap();
    let end = start + json[start..].find(',').unwrap();
    format!("{}{}", &json[..start], &json[end..])
}

#[test]
fn the_hanging_chariot_is_the_blunder_and_the_turning_point() {
    let text = review(&[GAME, "--nodes", "60000"], None);
    let line = text
        .lines()
        .find(|l| l.starts_with("5.  "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("兵七进一") && line.contains("??"), "{line}");
    // No other move of the game is a blunder (the move, the turning point and the table's
    // heading), and the turn is at move 5.
    assert_eq!(text.matches("??").count(), 3, "{text}");
    assert!(
        text.contains("Where the game turned:\n\n5. 兵七进一 ?? (Red)"),
        "{text}"
    );
    assert!(
        text.contains("Li (Red) - Wang (Black), 0-1, 12 plies"),
        "{text}"
    );

    let json = review(
        &[GAME, "--nodes", "60000", "--json", "--threads", "1"],
        None,
    );
    assert!(
        json.contains("\"ply\":9,\"side\":\"red\",\"move\":\"c3c4\",\"text\":\"兵七进一\""),
        "{json}"
    );
    let ninth = &json[json.find("\"ply\":9,").unwrap()..];
    let ninth = &ninth[..ninth.find('}').unwrap()];
    assert!(
        ninth.contains("\"mark\":\"??\"") && ninth.contains("\"turning\":true"),
        "{ninth}"
    );
    assert!(json.contains("\"red_summary\":{\"moves\":6,"), "{json}");
    // Fixed nodes: the same report on two threads.
    let again = review(
        &[GAME, "--nodes", "60000", "--json", "--threads", "2"],
        None,
    );
    assert_eq!(without_seconds(&json), without_seconds(&again));
}

#[test]
fn the_annotated_pgn_reads_back_and_xqf_on_stdin_reviews_the_same() {
    let out = std::env::temp_dir().join(format!("chariot-review-{}.pgn", std::process::id()));
    let out_text = out.to_str().unwrap();
    review(
        &[GAME, "--depth", "6", "--pgn", out_text, "--encoding", "gbk"],
        None,
    );
    let bytes = std::fs::read(&out).unwrap();
    let file = gamefile::read_bytes(&bytes);
    assert_eq!(file.encoding, "gb18030");
    let annotated = file.games[0].as_ref().unwrap();
    let original = gamefile::read_bytes(&std::fs::read(GAME).unwrap())
        .games
        .remove(0)
        .unwrap();
    assert_eq!(annotated.moves, original.moves);
    assert_eq!(annotated.tag("Annotator"), Some("Chariot"));
    assert_eq!(annotated.notation, gamefile::Notation::Chinese);
    let text = gamefile::encoding::decode(&bytes).0;
    assert!(text.contains("兵七进一 {??"), "{text}");
    assert!(text.contains("(5."), "the best line as a variation: {text}");
    // In another notation.
    review(
        &[GAME, "--depth", "6", "--pgn", out_text, "--notation", "wxf"],
        None,
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(
        text.contains("[Format \"WXF\"]") && text.contains("P7+1 {??"),
        "{text}"
    );
    let back = gamefile::read_pgn(&text).remove(0).unwrap();
    assert_eq!(back.moves, original.moves);

    let xqf = xqf::write(&original, 18, 7).unwrap();
    let from_xqf = review(&["-", "--nodes", "40000", "--json"], Some(&xqf));
    let from_pgn = review(&[GAME, "--nodes", "40000", "--json"], None);
    assert_eq!(without_seconds(&from_xqf), without_seconds(&from_pgn));
}

#[test]
fn analyze_judge_and_match_read_the_same_files() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // The position after 5. 兵七进一: Black takes the chariot.
    let text = run(&["analyze", "--game", GAME, "--ply", "9", "--depth", "6"]);
    assert!(text.contains("bestmove h9h6"), "{text}");
    let json = run(&["judge", "--pgn", GAME, "--json"]);
    assert!(json.contains("\"plies\":12"), "{json}");
    // A GBK Chinese-notation PGN as a match's openings: the position at its end.
    let out = run(&[
        "match",
        "--engine",
        &format!("a={}", env!("CARGO_BIN_EXE_chariot")),
        "--engine",
        &format!("b={}", env!("CARGO_BIN_EXE_chariot")),
        "--openings",
        GAME,
        "--depth",
        "1",
        "--games",
        "2",
        "--no-progress",
    ]);
    assert!(out.contains("a vs b: 2 games"), "{out}");
}
