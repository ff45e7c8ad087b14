//! More search threads than cores, changed between searches, and the hash resized: no
//! deadlock, no crash, every `bestmove` legal, `stop` and `isready` answered. (The latency
//! figures are taken by `scripts/stop_latency.py`, not asserted here.)

mod common;

use common::{Engine, bestmove_of, legal_in};
use std::time::Duration;

#[test]
fn threads_beyond_the_cores_and_back_between_searches() {
    let mut e = Engine::after_handshake("uci").0;
    let openings: [&[&str]; 3] = [&[], &["h2e2", "h9g7"], &["c3c4", "b9c7", "b0c2"]];
    for (round, threads) in [1, 64, 1, 64, 7, 1, 32, 64, 1].into_iter().enumerate() {
        e.send(&format!("setoption name Threads value {threads}"));
        e.ready();
        let moves = openings[round % openings.len()];
        let list = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        e.send(&format!("position startpos{list}"));
        e.send("go nodes 30000");
        let out = e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
        let best = bestmove_of(&out);
        assert!(legal_in(None, moves, &best), "threads {threads}: {best}");
        // An open-ended search on them: stopped and answered, with a legal move.
        e.send(&format!("position startpos{list}"));
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(150));
        e.ready();
        e.send("stop");
        let out = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
        let best = bestmove_of(&out);
        assert!(legal_in(None, moves, &best), "threads {threads}: {best}");
    }
    // A large table and back, answered between searches.
    e.send("setoption name Hash value 1024");
    e.ready();
    e.send("setoption name Hash value 16");
    e.ready();
    e.send("position startpos");
    e.send("go depth 4");
    e.expect("bestmove");
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(10)).success());
}
