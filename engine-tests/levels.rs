//! Playing levels through the engine process: the options in both dialects, a weaker engine
//! that is really weaker, choices that replay with a seed, and a clock used like a person's.

mod common;

use common::Engine;
use std::time::{Duration, Instant};

#[test]
fn the_options_are_listed_and_read_in_both_dialects() {
    let (mut e, out) = Engine::after_handshake("uci");
    for name in ["UCI_LimitStrength", "UCI_Elo", "Skill Level", "Random Seed"] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name}: {out:#?}"
        );
    }
    e.send("setoption name UCI_Elo value 99999");
    e.send("isready");
    let said = e.expect("readyok");
    assert!(
        said.iter()
            .any(|l| l.contains("option UCI_Elo: 99999 is outside")),
        "{said:#?}"
    );
    let (mut e, out) = Engine::after_handshake("ucci");
    for name in ["uci_limitstrength", "uci_elo", "skilllevel", "randomseed"] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option {name} type"))),
            "{name}: {out:#?}"
        );
    }
    // UCCI's way: a level changes what `go` does (a level's node budget is small).
    e.send("setoption uci_limitstrength true");
    e.send("setoption uci_elo 500");
    e.send("position startpos");
    e.send("go depth 30");
    let out = e.expect("bestmove");
    let nodes: u64 = out
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.iter()
                .position(|x| *x == "nodes")
                .and_then(|i| w[i + 1].parse().ok())
        })
        .max()
        .unwrap();
    assert!(nodes < 5_000, "a 500 level searched {nodes} nodes");
    // Skill Level alone limits too; 20 is full strength.
    e.send("setoption uci_limitstrength false");
    e.send("setoption skilllevel 0");
    e.send("go depth 6");
    let out = e.expect("bestmove");
    assert!(out.iter().all(|l| !l.contains("depth 6 ")), "{out:#?}");
}

/// The move a level plays in each of a few positions, by `go nodes` (no clock).
fn choices(elo: i32, seed: u64) -> Vec<String> {
    let (mut e, _) = Engine::after_handshake("uci");
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {elo}"));
    e.send(&format!("setoption name Random Seed value {seed}"));
    let mut moves = Vec::new();
    for played in [
        "",
        " moves h2e2",
        " moves h2e2 h9g7",
        " moves c3c4",
        " moves b0c2 b9c7",
        " moves h2e2 b9c7 h0g2",
    ] {
        e.send(&format!("position startpos{played}"));
        e.send("go depth 20");
        moves.push(common::bestmove_of(&e.expect("bestmove")));
    }
    moves
}

#[test]
fn a_seed_replays_the_same_moves_and_another_varies_them() {
    let first = choices(450, 11);
    assert_eq!(first, choices(450, 11));
    let others: Vec<Vec<String>> = (12..16).map(|seed| choices(450, seed)).collect();
    assert!(others.iter().any(|o| *o != first), "{first:?} {others:?}");
}

#[test]
fn a_limited_engine_is_weaker() {
    let bin = env!("CARGO_BIN_EXE_chariot");
    let args: Vec<String> = [
        "match",
        "--engine",
        &format!("full={bin}"),
        "--engine",
        &format!("weak={bin}"),
        "--option",
        "weak.UCI_LimitStrength=true",
        "--option",
        "weak.UCI_Elo=800",
        "--option",
        "weak.Random Seed=5",
        "--nodes",
        "3000",
        "--games",
        "8",
        "--concurrency",
        "2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = std::process::Command::new(bin)
        .args(&args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let wdl = text
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L "))
        .unwrap_or_else(|| panic!("{text}"));
    let counts: Vec<u32> = wdl
        .split_whitespace()
        .next()
        .unwrap()
        .split('/')
        .map(|n| n.parse().unwrap())
        .collect();
    // Full strength, 3,000 nodes a move, against a level of about a tenth of that.
    assert!(
        counts[0] * 2 + counts[1] >= 13,
        "full strength scored {wdl}"
    );
}

#[test]
fn a_level_takes_its_time_but_stops_at_once() {
    let (mut e, _) = Engine::after_handshake("uci");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1000");
    e.send("position startpos");
    e.send("isready");
    e.expect("readyok");
    // 32 s on the clock: a full-strength move would get about a second; a level thinks at
    // least half of that although its few nodes take a millisecond.
    let t = Instant::now();
    e.send("go wtime 32000 btime 32000");
    e.expect("bestmove");
    assert!(
        t.elapsed() >= Duration::from_millis(400),
        "{:?}",
        t.elapsed()
    );
    e.send("go wtime 600000 btime 600000");
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    e.send("stop");
    e.expect("bestmove");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}
