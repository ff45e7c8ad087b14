//! The rules judge against `engine-tests/data/rules/cases.txt`: every case's game must end
//! exactly at its last move with the expected result and reason (or go on, for `*`). The cases
//! come from `scripts/gen_rules_cases.py`, which cross-checks them with pyffish.

use chariot::position::Position;
use chariot::rules::{GameState, Rules, judge_game, parse_move_limit};
use std::process::Command;

struct Case {
    line: usize,
    title: String,
    fen: String,
    moves: Vec<String>,
    result: String,
    reason: String,
    rules: Rules,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/rules/cases.txt");
    let mut cases = Vec::new();
    let mut title = String::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            title = comment.trim().to_string();
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.splitn(6, ';').map(str::trim).collect();
        assert_eq!(fields.len(), 6, "line {}: six fields", index + 1);
        let mut rules = Rules::default();
        for option in fields[4].split_whitespace().filter(|o| *o != "-") {
            match option.split_once('=') {
                Some(("rules", set)) => rules.set = set.parse().unwrap(),
                Some(("limit", moves)) => rules.move_limit = parse_move_limit(moves).unwrap(),
                Some(("occurrences", n)) => rules.occurrences = n.parse().unwrap(),
                _ => panic!("line {}: unknown option {option}", index + 1),
            }
        }
        cases.push(Case {
            line: index + 1,
            title: title.clone(),
            fen: fields[0].to_string(),
            moves: fields[1].split_whitespace().map(String::from).collect(),
            result: fields[2].to_string(),
            reason: fields[3].to_string(),
            rules,
        });
    }
    cases
}

#[test]
fn every_case_is_judged_as_the_rules_say() {
    let cases = cases();
    assert!(
        cases.len() >= 40,
        "at least 40 cases, found {}",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let start = Position::from_fen(&case.fen).unwrap();
        let (state, played, _) = judge_game(&start, &case.moves, &case.rules).unwrap();
        let (result, reason, cycle) = match &state {
            GameState::Ongoing => ("*".to_string(), "-".to_string(), 0),
            GameState::Over(v) => (
                v.result.pgn().to_string(),
                v.reason.code().to_string(),
                v.cycle.len(),
            ),
        };
        let repetition = [
            "perpetual-check",
            "perpetual-chase",
            "forbidden-sequence",
            "mutual-perpetual",
            "repetition",
        ]
        .contains(&reason.as_str());
        if result != case.result
            || reason != case.reason
            || played != case.moves.len()
            || repetition != (cycle > 0)
        {
            failures.push(format!(
                "line {} ({}): got {result} {reason} after {played} of {} moves (cycle of {cycle}), expected {} {}",
                case.line,
                case.title,
                case.moves.len(),
                case.result,
                case.reason
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_family_of_verdict_is_covered() {
    let cases = cases();
    for reason in [
        "checkmate",
        "stalemate",
        "perpetual-check",
        "perpetual-chase",
        "forbidden-sequence",
        "mutual-perpetual",
        "repetition",
        "move-limit",
        "insufficient-material",
        "-",
    ] {
        assert!(
            cases.iter().any(|c| c.reason == reason),
            "no case ends by {reason}"
        );
    }
}

fn chariot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn judge_cli_reports_the_verdict_and_the_cycle() {
    let moves = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9";
    let mut args = vec![
        "judge",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        "--moves",
    ];
    args.extend(moves.split(' '));
    let out = chariot(&args);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Black wins by perpetual check after 9 plies"),
        "{text}"
    );
    assert_eq!(text.matches(" check\n").count(), 4, "{text}");
    assert_eq!(text.matches(" idle\n").count(), 4, "{text}");

    args.push("--json");
    let out = chariot(&args);
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(json.contains("\"result\":\"0-1\""), "{json}");
    assert!(json.contains("\"reason\":\"perpetual-check\""), "{json}");
    assert_eq!(json.matches("\"class\":\"check\"").count(), 4, "{json}");

    // A chase names the chased piece; under the simple rules the same game is a draw.
    let chase = |rules: &str| {
        let mut args = vec!["judge", "--rules", rules, "--fen", CHASE, "--moves"];
        args.extend(CHASE_MOVES.split(' '));
        String::from_utf8(chariot(&args).stdout).unwrap()
    };
    let asian = chase("asian");
    assert!(
        asian.contains("chase cannon c7") && asian.contains("chase cannon b7"),
        "{asian}"
    );
    let simple = chase("simple");
    assert!(simple.starts_with("draw by repetition"), "{simple}");
}

/// A red chariot chases an unprotected black cannon back and forth.
const CHASE: &str = "4k4/9/2c6/9/9/9/9/1R7/9/5K3 w - - 0 1";
const CHASE_MOVES: &str = "b2c2 c7b7 c2b2 b7c7 b2c2 c7b7 c2b2 b7c7";

#[test]
fn judge_cli_reads_pgn_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("chariot-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &pgn,
        "[Event \"one\"]\n[FEN \"3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1\"]\n\n1. i0i9 1-0\n\n\
         [Event \"two\"]\n\n1. h2e2 h9g7 2. h0g2 *\n",
    )
    .unwrap();
    let out = chariot(&["judge", "--pgn", pgn.to_str().unwrap(), "--json"]);
    assert!(out.status.success());
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].contains("\"reason\":\"checkmate\""),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("\"state\":\"ongoing\""), "{}", lines[1]);
    assert!(lines[1].contains("\"plies\":3"), "{}", lines[1]);

    // An illegal move and a bad FEN: a clear error and a failing exit status.
    let out = chariot(&["judge", "--moves", "h2e2", "h2e2"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2"));
    let out = chariot(&["judge", "--fen", "not a fen"]);
    assert!(!out.status.success());
    let out = chariot(&["judge", "--rules", "martian"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown rule set"));
    std::fs::remove_dir_all(&dir).ok();
}
