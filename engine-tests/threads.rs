//! More search threads than cores, changed between searches, and the hash resized (and a size
//! the machine cannot give refused): no deadlock, no crash, every `bestmove` legal, `stop` and
//! `isready` answered, in their place. (The latency and memory figures are taken by
//! `scripts/stop_latency.py` and `scripts/hash_cycle.py`, not asserted here.)

mod common;

use common::{Engine, bestmove_of, has_line, legal_in};
use std::time::Duration;

/// The memory this machine has available, in MB (Linux), or None.
fn available_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

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
    // The largest table the option takes, on a machine that cannot give it: refused with an
    // error, and the engine goes on with its table.
    if available_mb().is_some_and(|mb| mb < 60_000) {
        e.send("setoption name Hash value 65536");
        let out = e.until(Duration::from_secs(10), |l| l.contains("error"));
        assert!(
            out.last()
                .unwrap()
                .contains("cannot allocate a 65536 MB hash table; keeping 16 MB"),
            "{out:?}"
        );
        e.ready();
        e.send("go depth 4");
        e.expect("bestmove");
    }
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(10)).success());
}

#[test]
fn isready_and_stop_answered_at_once_yet_in_their_place() {
    let mut e = Engine::after_handshake("ucci").0;
    // Batch mode: everything waits for the search's answer, `isready` too.
    e.send("setoption batch true");
    e.send("position startpos");
    e.send("go depth 12");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let out = e.until(Duration::from_secs(30), |l| l == "readyok");
    assert!(
        out.iter().any(|l| l.starts_with("bestmove")),
        "readyok before bestmove in batch mode: {out:?}"
    );
    e.send("setoption batch false");
    // Debug mode: the controller sees every line, `isready` included.
    e.send("setoption debug true");
    e.send("isready");
    let out = e.until(Duration::from_secs(10), |l| l == "readyok");
    assert!(has_line(&out, "info string received: isready"), "{out:?}");
    e.send("setoption debug false");
    e.ready();
    // A table resize ahead of `isready` is done before `readyok` (the line waits its turn),
    // and a `go` sent before `stop` is the search that `stop` ends.
    e.send("setoption hashsize 256");
    e.ready();
    e.send("setoption threads 16");
    e.ready();
    for round in 0..20 {
        e.send("position startpos moves h2e2");
        e.send("go infinite");
        if round % 2 == 0 {
            std::thread::sleep(Duration::from_millis(30));
            e.ready();
        }
        e.send("stop");
        let out = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
        let best = bestmove_of(&out);
        assert!(legal_in(None, &["h2e2"], &best), "round {round}: {best}");
        // Nothing is left running: the next `isready` is answered, no second `bestmove`.
        e.ready();
        assert!(
            !e.silent_for(Duration::from_millis(20))
                .iter()
                .any(|l| l.starts_with("bestmove")),
            "round {round}"
        );
    }
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(10)).success());
}
