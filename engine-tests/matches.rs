//! The match runner: a real match between two Chariot processes, and fake engines that
//! misbehave in each way the referee must score.

use chariot::position::Position;
use chariot::rules::{GameResult, GameState, RuleSet, Rules, judge};
use chariot::tools::matches::engine::{EngineConfig, Protocol};
use chariot::tools::matches::game::{Adjudication, Limit};
use chariot::tools::matches::{self, MatchConfig, Schedule};
use std::path::PathBuf;
use std::time::Duration;

fn chariot_engine(name: &str) -> EngineConfig {
    EngineConfig::new(name, env!("CARGO_BIN_EXE_chariot"))
}

fn config(engines: [EngineConfig; 2], limit: Limit, games: usize) -> MatchConfig {
    MatchConfig {
        engines: engines.into(),
        schedule: Schedule::RoundRobin,
        limit,
        games,
        openings: vec![Position::startpos()],
        concurrency: 2,
        margin: Duration::from_millis(200),
        hang: Duration::from_secs(1),
        adjudication: Default::default(),
        sprt: None,
        model: Default::default(),
        rules: Default::default(),
        pgn_scores: true,
        notation: chariot::tools::gamefile::Notation::Iccs,
        rounds: None,
    }
}

/// A fresh scratch folder for one test, unique to this test process.
fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a fake UCCI engine: it shakes hands, then answers `go` with `on_go` (shell code).
fn fake_engine(name: &str, on_go: &str) -> EngineConfig {
    let dir = scratch_dir("fakes");
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    ucci*) echo 'id name {name}'; echo ucciok ;;\n    isready*) echo readyok ;;\n    go*) {on_go} ;;\n    quit*) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    let mut engine = EngineConfig::new(name, &format!("sh {}", path.display()));
    engine.protocol = Protocol::Ucci;
    engine
}

#[test]
fn a_match_between_two_chariots_finishes_and_its_pgn_replays() {
    let cfg = config(
        [chariot_engine("one"), chariot_engine("two")],
        Limit::Depth(2),
        4,
    );
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    assert_eq!(report.games.len(), 4);
    assert_eq!(report.tally.games(), 4);
    // Colours alternate.
    assert_eq!(report.games.iter().filter(|g| g.red == 0).count(), 2);
    for g in &report.games {
        // Every move legal, and a rules ending agrees with the judge.
        let mut pos = Position::from_fen(&g.record.start_fen).unwrap();
        for &mv in &g.record.moves {
            assert!(pos.is_legal(mv), "game {}: {mv}", g.index);
            pos.make_move(mv);
        }
        if let GameState::Over(verdict) = judge(&pos, &Rules::default()) {
            assert_eq!(
                (verdict.result, verdict.reason.describe().to_string()),
                (g.record.outcome, g.record.reason.clone())
            );
        } else {
            assert!(g.record.reason.starts_with("adjudicated"), "{:?}", g.record);
        }
    }
    let pgn = matches::pgn(&cfg, &report);
    assert_eq!(pgn.matches("[Event ").count(), 4);
    assert!(pgn.contains("[Variant \"xiangqi\"]"));
    // The PGN re-parses: its moves replay from its FEN, the judge agrees with its result, and
    // the engines' scores ride along as comments.
    let games = chariot::tools::pgn::read_games(&pgn);
    assert_eq!(games.len(), 4);
    assert!(pgn.contains('{'), "scores as comments");
    let plain = matches::pgn(
        &MatchConfig {
            pgn_scores: false,
            ..cfg.clone()
        },
        &report,
    );
    assert!(!plain.contains('{'), "and without them when asked");
    assert_eq!(chariot::tools::pgn::read_games(&plain).len(), 4);
    for (game, played) in games.iter().zip(&report.games) {
        let start = Position::from_fen(game.fen().unwrap()).unwrap();
        let (state, plies, _) =
            chariot::rules::judge_game(&start, &game.moves, &Rules::default()).unwrap();
        assert_eq!(plies, played.record.moves.len());
        assert_eq!(game.result.as_deref(), Some(played.record.outcome.pgn()));
        if let GameState::Over(v) = state {
            assert_eq!(v.result, played.record.outcome);
        }
    }
}

#[test]
fn misbehaving_engines_lose_with_the_right_reason() {
    let cases = [
        (
            "illegal",
            "echo 'bestmove a0a9'",
            "played an illegal move (a0a9)",
        ),
        ("crasher", "exit 1", "crashed"),
        ("sleeper", "sleep 30", "hung (no move)"),
        ("giver-up", "echo nobestmove", "gave no move"),
    ];
    for (name, on_go, reason) in cases {
        let cfg = config(
            [chariot_engine("chariot"), fake_engine(name, on_go)],
            Limit::Depth(1),
            2,
        );
        let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
        assert_eq!(report.tally.wins, 2, "{name}: {:?}", report.games);
        for g in &report.games {
            assert_eq!(g.record.reason, format!("{name} {reason}"), "{name}");
            let fake_red = g.red == 1;
            let expected = if fake_red {
                GameResult::BlackWins
            } else {
                GameResult::RedWins
            };
            assert_eq!(g.record.outcome, expected, "{name}");
        }
    }
}

#[test]
fn clocks_are_kept_by_the_runner() {
    // A fake that always thinks 400 ms loses on time at 0.2 s + 0 per game.
    let slow = fake_engine("slowpoke", "sleep 0.4; echo 'bestmove h2e2'");
    let mut cfg = config(
        [chariot_engine("chariot"), slow],
        Limit::Clock {
            base: Duration::from_millis(200),
            increment: Duration::ZERO,
            moves: None,
        },
        2,
    );
    cfg.margin = Duration::from_millis(50);
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    assert_eq!(report.tally.wins, 2, "{:?}", report.games);
    assert!(
        report
            .games
            .iter()
            .all(|g| g.record.reason == "slowpoke lost on time")
    );
}

#[test]
fn adjudication_on_agreed_scores() {
    // Red is a chariot and a horse up: both engines agree, so the game is given to Red early.
    let lopsided = "rnbakab2/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let mut cfg = config(
        [chariot_engine("one"), chariot_engine("two")],
        Limit::Depth(3),
        2,
    );
    cfg.openings = vec![Position::from_fen(lopsided).unwrap()];
    cfg.adjudication = Adjudication {
        draw: None,
        win: Some((500, 2)),
    };
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    for g in &report.games {
        assert_eq!(g.record.outcome, GameResult::RedWins, "{:?}", g.record);
        assert_eq!(g.record.reason, "adjudicated: both engines see Red winning");
        assert!(g.record.moves.len() <= 10, "{}", g.record.moves.len());
    }
    // Bare kings and advisors cannot win; with draw adjudication the game ends at once.
    let dead = "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1";
    cfg.openings = vec![Position::from_fen(dead).unwrap()];
    cfg.adjudication = Adjudication {
        draw: Some((0, 10, 2)),
        win: None,
    };
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    assert!(
        report
            .games
            .iter()
            .all(|g| g.record.outcome == GameResult::Draw)
    );
}

#[test]
fn an_interrupted_match_resumes_from_its_pgn() {
    let cfg = config(
        [chariot_engine("one"), chariot_engine("two")],
        Limit::Depth(1),
        6,
    );
    let full = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    // The PGN in every notation (and in GBK) reads back to the same games.
    for notation in [
        chariot::tools::gamefile::Notation::Chinese,
        chariot::tools::gamefile::Notation::Wxf,
    ] {
        let written = MatchConfig {
            notation,
            ..cfg.clone()
        };
        let text = matches::pgn(&written, &full);
        let bytes = chariot::tools::gamefile::encoding::encode_gbk(&text);
        let (decoded, _) = chariot::tools::gamefile::encoding::decode(&bytes);
        let back = matches::parse_pgn(&cfg, &decoded).unwrap();
        assert_eq!(back.len(), full.games.len());
        for (a, b) in back.iter().zip(&full.games) {
            assert_eq!(a.record.moves, b.record.moves, "{notation:?}");
        }
    }
    // Keep only the games of rounds 1, 2 and 4, as if the match had stopped there.
    let kept: Vec<_> = full
        .games
        .iter()
        .filter(|g| [0, 1, 3].contains(&g.index))
        .cloned()
        .collect();
    let text: String = kept.iter().map(|g| matches::pgn_game(&cfg, g)).collect();
    let previous = matches::parse_pgn(&cfg, &text).unwrap();
    assert_eq!(previous.len(), 3);
    for (a, b) in previous.iter().zip(&kept) {
        assert_eq!(
            (a.index, a.red, a.record.outcome),
            (b.index, b.red, b.record.outcome)
        );
        assert_eq!(a.record.moves, b.record.moves);
    }
    let played = std::sync::Mutex::new(Vec::new());
    let resumed =
        matches::run(&cfg, previous, |g, _| played.lock().unwrap().push(g.index)).unwrap();
    let mut new_rounds = played.into_inner().unwrap();
    new_rounds.sort();
    assert_eq!(new_rounds, [2, 4, 5], "only the missing rounds are played");
    assert_eq!(resumed.games.len(), 6);
    assert_eq!(resumed.tally.games(), 6);
    // Pairs: one opening with colours swapped. The same deterministic engine on both sides
    // plays the same game twice, so every pair is a win and a loss or two draws: 1 point
    // each, and the pentanomial model sees a dead level match with no spread at all.
    assert_eq!(full.penta.counts, [0, 0, 3, 0, 0]);
    assert_eq!(
        resumed.penta, full.penta,
        "a pair split by the interruption counts once, when its second game is in"
    );
    assert_eq!(full.penta.elo(), Some((0.0, 0.0)));
    let summary = matches::summary_text(&cfg, &resumed);
    assert!(
        summary.contains("Pairs 3 (0/0.5/1/1.5/2 points: LL, LD, DD+WL, WD, WW): 0/0/3/0/0"),
        "{summary}"
    );
    let json = matches::json_summary(&cfg, &resumed);
    assert!(
        json.contains("\"elo_model\":\"pentanomial\",\"pairs\":3,\"pentanomial\":[0, 0, 3, 0, 0]"),
        "{json}"
    );
}

#[test]
fn round_robin_and_gauntlet_of_three_engines() {
    let engines = vec![
        chariot_engine("one"),
        chariot_engine("two"),
        chariot_engine("three"),
    ];
    let mut cfg = config(
        [chariot_engine("x"), chariot_engine("y")],
        Limit::Depth(1),
        2,
    );
    cfg.engines = engines;
    cfg.concurrency = 3;
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    assert_eq!(report.games.len(), 6, "three pairings of two games");
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        let h = report.head_to_head(a, b);
        assert_eq!(h.games(), 2, "{a} v {b}");
        // Colours swapped within the pairing.
        assert!(report.games.iter().any(|g| (g.red, g.black) == (a, b)));
        assert!(report.games.iter().any(|g| (g.red, g.black) == (b, a)));
    }
    let standings = report.standings(3);
    assert!(standings.iter().all(|t| t.games() == 4));
    let points: f64 = standings.iter().map(|t| t.score() * 4.0).sum();
    assert_eq!(points, 6.0, "every game hands out one point");
    let text = matches::summary_text(&cfg, &report);
    assert!(
        text.contains("rank engine") && text.contains("two vs three"),
        "{text}"
    );
    let json = matches::json_summary(&cfg, &report);
    assert_eq!(json.matches("\"engine\":").count(), 3, "{json}");

    cfg.schedule = Schedule::Gauntlet;
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    assert_eq!(report.games.len(), 4);
    assert!(report.games.iter().all(|g| g.red == 0 || g.black == 0));
    assert_eq!(
        report.tally.games(),
        4,
        "the first engine played every game"
    );
}

#[test]
fn per_engine_limits_and_working_directories() {
    let dir = scratch_dir("wd");
    let log = dir.join("go.log");
    // The fake logs its directory and each `go` line, then plays an illegal move.
    let mut fake = fake_engine(
        "logger",
        &format!(
            "pwd >> {0}; echo \"$line\" >> {0}; echo 'bestmove a0a9'",
            log.display()
        ),
    );
    fake.dir = Some(dir.clone());
    fake.limit = Some(Limit::Nodes(1234));
    let cfg = config([chariot_engine("chariot"), fake], Limit::Depth(1), 2);
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    assert_eq!(report.tally.wins, 2);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("go nodes 1234"), "{logged}");
    assert!(!logged.contains("go depth"), "{logged}");
    let canonical = dir.canonicalize().unwrap();
    assert!(
        logged
            .lines()
            .any(|l| std::path::Path::new(l).canonicalize().ok().as_ref() == Some(&canonical)),
        "{logged}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn engines_listing_the_rule_options_are_told_the_referees_rules() {
    let dir = scratch_dir("rules");
    let log = dir.join("setoption.log");
    let script = dir.join("listener.sh");
    // Lists an option with no name, then Chariot's two rule options; logs each setoption,
    // then plays an illegal move.
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    ucci*) echo 'option '; echo 'option drawmoves type spin min 0 max 999 default 60'; echo 'option repetition type combo default asian var asian var chinese var simple'; echo ucciok ;;\n    setoption*) echo \"$line\" >> {0} ;;\n    isready*) echo readyok ;;\n    go*) echo 'bestmove a0a9' ;;\n    quit*) exit 0 ;;\n  esac\ndone\n",
            log.display()
        ),
    )
    .unwrap();
    let mut listener = EngineConfig::new("listener", &format!("sh {}", script.display()));
    listener.protocol = Protocol::Ucci;
    let run = |listener: &EngineConfig| {
        std::fs::remove_file(&log).ok();
        let mut cfg = config(
            [chariot_engine("chariot"), listener.clone()],
            Limit::Depth(1),
            2,
        );
        cfg.rules.move_limit = Some(100);
        cfg.rules.set = RuleSet::Chinese;
        matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
        std::fs::read_to_string(&log).unwrap()
    };
    let logged = run(&listener);
    assert!(logged.contains("setoption drawmoves 50"), "{logged}");
    assert!(logged.contains("setoption repetition chinese"), "{logged}");
    // What `--option` sets by hand is left alone.
    listener.options = vec![("DrawMoves".to_string(), "70".to_string())];
    let logged = run(&listener);
    assert!(logged.contains("setoption DrawMoves 70"), "{logged}");
    assert!(!logged.contains("drawmoves 50"), "{logged}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ctrl_c_stops_the_match_and_resume_completes_it() {
    let dir = scratch_dir("int");
    let pgn = dir.join("games.pgn");
    let exe = env!("CARGO_BIN_EXE_chariot");
    let args = |resume: bool| {
        let mut a = vec![
            "match".to_string(),
            "--engine".into(),
            format!("A={exe}"),
            "--engine".into(),
            format!("B={exe}"),
            "--depth".into(),
            "4".into(),
            "--games".into(),
            "8".into(),
            "--concurrency".into(),
            "1".into(),
            "--no-progress".into(),
            "--pgn".into(),
            pgn.display().to_string(),
        ];
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let count = || {
        std::fs::read_to_string(&pgn)
            .map(|t| t.matches("[Event ").count())
            .unwrap_or(0)
    };
    let mut child = std::process::Command::new(exe)
        .args(args(false))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while count() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: sends SIGINT to the child we started and still own.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "an interrupted match ends normally");
    let partial = count();
    assert!(
        (2..8).contains(&partial),
        "{partial} games before the interrupt"
    );
    let out = std::process::Command::new(exe)
        .args(args(true))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        count(),
        8,
        "the resumed match ends with all games, none twice"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let mut rounds: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .collect();
    rounds.sort();
    rounds.dedup();
    assert_eq!(rounds.len(), 8);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn moves_to_go_controls_refill_the_clock() {
    let dir = scratch_dir("mtg");
    let log = dir.join("input.log");
    // A Chariot whose input is logged: the runner's `go` lines show the control.
    let logged = EngineConfig::new(
        "logged",
        &format!(
            "tee -a {} | {}",
            log.display(),
            env!("CARGO_BIN_EXE_chariot")
        ),
    );
    let mut cfg = config(
        [logged, chariot_engine("plain")],
        Limit::Clock {
            base: Duration::from_millis(600),
            increment: Duration::ZERO,
            moves: Some(2),
        },
        2,
    );
    // Eight plies each game, then a draw by adjudication.
    cfg.adjudication = Adjudication {
        draw: Some((8, 100_000, 1)),
        win: None,
    };
    let report = matches::run(&cfg, Vec::new(), |_, _| {}).unwrap();
    assert_eq!(report.games.len(), 2);
    let text = std::fs::read_to_string(&log).unwrap();
    let gos: Vec<&str> = text.lines().filter(|l| l.starts_with("go ")).collect();
    assert!(gos.iter().any(|l| l.contains("movestogo 2")), "{gos:?}");
    assert!(gos.iter().any(|l| l.contains("movestogo 1")), "{gos:?}");
    // After two moves the clock is refilled: a later `go` has more time than the one before.
    let times: Vec<u64> = gos
        .iter()
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "time").unwrap();
            words[at + 1].parse().unwrap()
        })
        .collect();
    assert!(times.windows(2).any(|w| w[1] > w[0]), "{gos:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_does_not_start_is_a_clear_error() {
    // Every engine runs through the shell, so a mistyped command line starts a shell that
    // ends at once: the runner must say so and exit non-zero, not die on the closed pipe.
    let exe = env!("CARGO_BIN_EXE_chariot");
    for (command, expected) in [
        ("no-such-engine-anywhere", "exit status 127"),
        ("sh -c 'exit 3'", "exit status 3"),
    ] {
        let out = std::process::Command::new(exe)
            .args(["match", "--engine", &format!("A={exe}"), "--engine"])
            .arg(format!("B={command}"))
            .args(["--depth", "2", "--games", "2", "--no-progress"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {stderr}");
        assert!(
            stderr.contains("B: the engine ended before its handshake")
                && stderr.contains(expected),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    // A net file the engine cannot load (here: not a net at all) would leave it playing with
    // its own net; the runner must stop instead of reporting a match that was not played.
    let exe = env!("CARGO_BIN_EXE_chariot");
    let bad = std::env::temp_dir().join(format!("not-a-net-{}.nnue", std::process::id()));
    std::fs::write(&bad, b"hello").unwrap();
    let out = std::process::Command::new(exe)
        .args(["match", "--engine", &format!("A={exe}"), "--engine"])
        .arg(format!("B={exe}"))
        .arg("--option")
        .arg(format!("B.EvalFile={}", bad.display()))
        .args(["--depth", "2", "--games", "2", "--no-progress"])
        .output()
        .unwrap();
    std::fs::remove_file(&bad).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("B: the engine refused its options")
            && stderr.contains("not a Chariot net file"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).trim().is_empty());
}

#[test]
fn a_closed_report_pipe_ends_the_match_quietly() {
    // `chariot match … | head -1`: once the reader has gone, the runner abandons the games
    // and ends instead of playing on unseen or dying on the write.
    let exe = env!("CARGO_BIN_EXE_chariot");
    let mut child = std::process::Command::new(exe)
        .args(["match", "--engine", &format!("A={exe}"), "--engine"])
        .arg(format!("B={exe}"))
        .args([
            "--depth",
            "3",
            "--games",
            "200",
            "--concurrency",
            "1",
            "--no-progress",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut out, &mut first).unwrap();
    assert!(first.starts_with("game    1:"), "{first}");
    drop(out);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the match went on after its reader left"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
}
