//! The command line, driven through the built binary as a user would.

use std::process::{Command, Output};

fn chariot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn perft_prints_total_time_and_speed() {
    let out = chariot(&["perft", "--fen", "startpos", "--depth", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Nodes: 79666"), "{text}");
    assert!(text.contains("Time: "), "{text}");
    assert!(text.contains("M nodes/s"), "{text}");
}

#[test]
fn perft_divide_lists_every_root_move() {
    let out = chariot(&["perft", "--depth", "2", "--divide", "--threads", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<(&str, u64)> = text
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| chariot::Move::parse_iccs(m).is_some())
        .map(|(m, n)| (m, n.trim().parse().unwrap()))
        .collect();
    assert_eq!(rows.len(), 44, "{text}");
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 1920);
    // 45 replies to the central cannon, as pyffish also counts.
    assert!(rows.contains(&("h2e2", 45)), "{text}");
    assert!(text.contains("Nodes: 1920"));
}

#[test]
fn perft_plays_moves_first() {
    let out = chariot(&["perft", "--depth", "1", "--moves", "h2e2", "h9g7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = {
        let mut pos = chariot::Position::startpos();
        for m in ["h2e2", "h9g7"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos.count_legal_moves()
    };
    assert!(
        stdout(&out).contains(&format!("Nodes: {expected}")),
        "{}",
        stdout(&out)
    );
}

#[test]
fn bad_input_is_a_clear_error_and_a_failure_exit() {
    let out = chariot(&[
        "perft",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        "--depth",
        "2",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the kings face each other"),
        "{}",
        stderr(&out)
    );

    let out = chariot(&["perft", "--depth", "2", "--moves", "h2e2", "e2e9"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("e2e9 is not a legal move"),
        "{}",
        stderr(&out)
    );

    let out = chariot(&["perft", "--depth", "2", "--moves", "zz"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("'zz' is not a move"),
        "{}",
        stderr(&out)
    );

    let out = chariot(&["perft", "--depth", "99999999999"]);
    assert!(!out.status.success());

    let out = chariot(&["perft", "--depth", "40"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("too deep"), "{}", stderr(&out));
}

#[test]
fn bench_prints_the_signature() {
    let out = chariot(&["bench", "--depth", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let first: Vec<&str> = text.lines().last().unwrap().split_whitespace().collect();
    assert_eq!(first[1], "nodes", "{text}");
    assert_eq!(first[3], "nps", "{text}");
    let nodes: u64 = first[0].parse().unwrap();
    assert_eq!(nodes, chariot::tools::bench::run(4).nodes);
    assert!(!chariot(&["bench", "--depth", "0"]).status.success());
}

#[test]
fn analyze_prints_iterations_in_text_and_json() {
    let out = chariot(&[
        "analyze", "--fen", "startpos", "--moves", "h2e2", "--depth", "5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"),
        "{text}"
    );
    assert!(text.contains("depth  5"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("bestmove "),
        "{text}"
    );

    let out = chariot(&["analyze", "--depth", "4", "--glyphs"]);
    let text = stdout(&out);
    assert!(text.contains('帅') && text.contains('将'), "{text}");
    assert!(
        text.contains("炮") || text.contains("马") || text.contains("兵"),
        "{text}"
    );

    let out = chariot(&["analyze", "--nodes", "3000", "--json", "--multipv", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with('{') && l.ends_with('}')),
        "{text}"
    );
    assert!(lines.iter().any(|l| l.contains("\"multipv\":2")), "{text}");
    assert!(
        lines.last().unwrap().contains("\"type\":\"bestmove\""),
        "{text}"
    );

    // Mate is reported as mate; the position may also be given without `--fen`.
    for args in [
        &[
            "analyze",
            "--fen",
            "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
            "--depth",
            "3",
        ][..],
        &["analyze", "4k4/R8/9/9/9/9/9/9/9/1R1K5 w", "--depth", "3"][..],
    ] {
        let out = chariot(args);
        assert!(stdout(&out).contains("mate 1"), "{}", stdout(&out));
    }
    let out = chariot(&["analyze", "startpos", "--moves", "h2e2", "--depth", "2"]);
    assert!(
        stdout(&out).contains("FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn analyze_refuses_bad_arguments() {
    for args in [
        &["analyze"][..],
        &["analyze", "--time", "-1"][..],
        &["analyze", "--time", "nan"][..],
        &["analyze", "--fen", "nonsense", "--depth", "3"][..],
        &["analyze", "--depth", "3", "--moves", "a0a9"][..],
        &["analyze", "startpos", "--fen", "startpos", "--depth", "3"][..],
        &["analyze", "nonsense", "--depth", "3"][..],
    ] {
        let out = chariot(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(!stderr(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn match_prints_results_elo_and_sprt() {
    let me = env!("CARGO_BIN_EXE_chariot");
    let pgn = std::env::temp_dir().join(format!("chariot-cli-match-{}.pgn", std::process::id()));
    let json = std::env::temp_dir().join(format!("chariot-cli-match-{}.json", std::process::id()));
    let a = format!("A={me}");
    let b = format!("B={me}");
    let out = chariot(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "1",
        "--games",
        "2",
        "--sprt",
        "0,5",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("A vs B: 2 games"), "{text}");
    assert!(text.contains("W/D/L "), "{text}");
    assert!(
        text.contains("SPRT elo0=0 elo1=5 (pentanomial): LLR "),
        "{text}"
    );
    assert!(text.contains("Pairs 1 (0/0.5/1/1.5/2 points"), "{text}");
    assert_eq!(
        std::fs::read_to_string(&pgn)
            .unwrap()
            .matches("[Event ")
            .count(),
        2
    );
    let summary = std::fs::read_to_string(&json).unwrap();
    assert!(
        summary.starts_with("{\"engines\":[\"A\",\"B\"],\"games\":2,"),
        "{summary}"
    );
    assert!(
        summary.contains("\"sprt\":{\"elo0\":0,\"elo1\":5,"),
        "{summary}"
    );
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(json);

    for bad in [
        vec!["match", "--engine", &a, "--depth", "1"],
        vec!["match", "--engine", &a, "--engine", &b],
        vec![
            "match", "--engine", &a, "--engine", &b, "--depth", "1", "--tc", "5+0",
        ],
        vec![
            "match", "--engine", "nonsense", "--engine", &b, "--depth", "1",
        ],
        vec!["match", "--engine", &a, "--engine", &b, "--tc", "x+1"],
        vec![
            "match", "--engine", &a, "--engine", &b, "--depth", "1", "--sprt", "1",
        ],
    ] {
        let out = chariot(&bad);
        assert!(!out.status.success(), "{bad:?}");
        assert!(!stderr(&out).is_empty(), "{bad:?}");
    }
}
