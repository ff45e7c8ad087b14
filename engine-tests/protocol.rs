//! The engine process, driven through the built binary exactly as a GUI drives it: full UCCI
//! and UCI transcripts, every `go` form, pondering, bans, probes, draw offers, bad input,
//! end of input, responsiveness during a search, and a long stream of random lines.

mod common;

use common::{Engine, bestmove_of, has_line, legal_in};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn ucci_handshake_and_a_short_game() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.expect("ucciok");
    assert!(hello.iter().any(|l| l.starts_with("id name Chariot")));
    assert!(
        hello
            .iter()
            .any(|l| l == "option usemillisec type check default true")
    );
    assert!(has_line(&hello, "option hashsize type spin"));
    e.send("setoption hashsize 32");
    e.send("setoption name Threads value 2");
    e.send("setoption newgame");
    e.ready();
    let mut played: Vec<String> = Vec::new();
    for _ in 0..4 {
        let moves = played.join(" ");
        e.send(&format!("position startpos moves {moves}"));
        e.send("go time 60000 increment 1000 opptime 60000 oppincrement 1000");
        let out = e.expect("bestmove");
        let info = out
            .iter()
            .find(|l| l.starts_with("info depth"))
            .expect("an info line");
        for field in [" score ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(field), "{info}");
        }
        assert!(!info.contains(" cp "), "UCCI scores have no cp: {info}");
        let mv = bestmove_of(&out);
        let refs: Vec<&str> = played.iter().map(|s| s.as_str()).collect();
        assert!(legal_in(None, &refs, &mv), "{mv} after {moves}");
        played.push(mv);
    }
    e.send("quit");
    e.expect("bye");
    assert!(e.exits_within(Duration::from_secs(5)).success());
}

#[test]
fn uci_dialect_speaks_like_pikafish() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.expect("uciok");
    assert!(has_line(&hello, "option name Hash type spin default 16"));
    assert!(
        hello
            .iter()
            .any(|l| l == "option name UCI_Variant type combo default xiangqi var xiangqi")
    );
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 2");
    e.send("ucinewgame");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go wtime 10000 btime 10000 winc 100 binc 100");
    let out = e.expect("bestmove");
    let info = out.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    assert!(
        info.contains(" score cp ") && info.contains(" wdl "),
        "{info}"
    );
    assert!(out.iter().any(|l| l.contains("multipv 2")), "{out:?}");
    assert!(legal_in(None, &["h2e2", "h9g7"], &bestmove_of(&out)));
    // Mated: UCI reports it Pikafish's way.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    e.send("go depth 5");
    let out = e.expect("bestmove");
    assert_eq!(
        out[out.len() - 2..],
        ["info depth 0 score mate 0", "bestmove (none)"]
    );
    // Two limits together: whichever comes first.
    e.send("position startpos");
    e.send("go movetime 200 depth 30");
    e.expect("bestmove");
    e.send("go movetime 5000 depth 3");
    let out = e.expect("bestmove");
    assert!(out.iter().any(|l| l.starts_with("info depth 3")), "{out:?}");
    assert!(
        !out.iter().any(|l| l.starts_with("info depth 4")),
        "{out:?}"
    );
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(5)).success());
}

#[test]
fn every_go_form_returns_a_legal_move() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("position startpos moves b0c2 b9c7");
    let moves = ["b0c2", "b9c7"];
    for go in [
        "go depth 4",
        "go nodes 5000",
        "go time 3000 movestogo 10",
        "go time 3000 increment 100",
        "go wtime 3000 btime 3000",
        "go movetime 100",
        "go depth 20 movetime 150",
        "go mate 2 depth 6",
        "go searchmoves a0a1 i0i1 depth 3",
        "go",
    ] {
        e.send(go);
        if go == "go" {
            // A bare go searches until told to stop.
            let early = e.silent_for(Duration::from_millis(150));
            assert!(
                !early.iter().any(|l| l.starts_with("bestmove")),
                "{early:?}"
            );
            e.send("stop");
        }
        let out = e.expect("bestmove");
        let mv = bestmove_of(&out);
        assert!(legal_in(None, &moves, &mv), "{go}: {mv}");
        if go.contains("searchmoves") {
            assert!(mv == "a0a1" || mv == "i0i1", "{mv}");
        }
    }
    e.send("go depth 0");
    let out = e.expect("nobestmove");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 0 score ")),
        "{out:?}"
    );
    e.send("go perft 2");
    let out = e.expect("Nodes searched");
    assert_eq!(out.last().unwrap(), "Nodes searched: 1510");
    assert_eq!(
        out.iter()
            .filter(|l| l.contains(": ") && l.len() <= 12)
            .count(),
        39
    );
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder time 2000 increment 0");
    // Pondering never ends by itself, even with a short clock.
    let early = e.silent_for(Duration::from_millis(400));
    assert!(!early.iter().any(|l| l.contains("bestmove")), "{early:?}");
    let hit = Instant::now();
    e.send("ponderhit");
    let out = e.expect("bestmove");
    assert!(
        hit.elapsed() < Duration::from_millis(2000),
        "{:?}",
        hit.elapsed()
    );
    assert!(legal_in(None, &["h2e2", "h9g7"], &bestmove_of(&out)));

    e.send("go ponder depth 3");
    let early = e.silent_for(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.contains("bestmove")), "{early:?}");
    e.send("stop");
    let out = e.expect("bestmove");
    assert!(legal_in(None, &["h2e2", "h9g7"], &bestmove_of(&out)));
    e.send("stop");
    e.expect("nobestmove");
}

/// A GUI that stops a search and at once starts the next (a ponder miss, a script) may send
/// that search's own `stop` or `ponderhit` before the first `bestmove` is out: each goes to
/// the search it follows, and every `go` is answered.
#[test]
fn commands_sent_behind_a_stopping_search_reach_the_next_one() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    // Waits for a `bestmove` and checks it is legal after `moves` from the start.
    let answer_after = |e: &mut Engine, moves: &[&str]| {
        let out = e.expect("bestmove");
        assert!(legal_in(None, moves, &bestmove_of(&out)), "{out:?}");
    };
    let stop_then = |e: &mut Engine, next: &[&str]| {
        for line in ["position startpos", "go infinite", "stop"]
            .iter()
            .chain(["position startpos moves h2e2"].iter())
            .chain(next)
        {
            e.send(line);
        }
    };
    for _ in 0..3 {
        stop_then(&mut e, &["go infinite", "stop"]);
        answer_after(&mut e, &[]);
        answer_after(&mut e, &["h2e2"]);
        stop_then(&mut e, &["go ponder infinite", "ponderhit", "stop"]);
        answer_after(&mut e, &[]);
        answer_after(&mut e, &["h2e2"]);
        // Nothing is left running or owed: the next stop finds the engine idle.
        e.send("stop");
        e.expect("nobestmove");
    }
    // A `go` sent into a running search that was never stopped waits its turn; the first
    // `stop` is for the running search, the next for the waiting one.
    for line in [
        "position startpos",
        "go infinite",
        "position startpos moves h2e2",
        "go ponder infinite",
        "isready",
    ] {
        e.send(line);
    }
    e.expect("readyok");
    e.send("stop");
    answer_after(&mut e, &[]);
    let early = e.silent_for(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.contains("bestmove")), "{early:?}");
    e.send("ponderhit");
    e.send("stop");
    answer_after(&mut e, &["h2e2"]);
    // A `stop` behind a queued `position` (no `go` queued) still stops the running search.
    for line in [
        "position startpos",
        "go infinite",
        "position startpos moves h2e2",
        "stop",
    ] {
        e.send(line);
    }
    answer_after(&mut e, &[]);
    e.send("go depth 2");
    answer_after(&mut e, &["h2e2"]);
}

#[test]
fn banmoves_probe_and_draw_offers() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("position startpos");
    e.send("go depth 5");
    let first = bestmove_of(&e.expect("bestmove"));
    e.send(&format!("banmoves {first}"));
    e.send("banmoves b0c2 nonsense");
    e.expect("info string error: banmoves");
    e.send("go depth 5");
    let second = bestmove_of(&e.expect("bestmove"));
    assert!(second != first && second != "b0c2", "{first} {second}");
    // A new position clears the bans: the first move may be played again. (Asked through
    // `searchmoves`: a search over all moves may prefer another of two near-equal moves once
    // the table holds the banned search.)
    e.send("position startpos");
    e.send(&format!("go depth 2 searchmoves {first}"));
    assert_eq!(bestmove_of(&e.expect("bestmove")), first);
    // The table knows the position just searched.
    e.send("probe startpos");
    let pop = e.expect("pophash");
    assert!(pop.last().unwrap().contains("bestmove"), "{pop:?}");
    e.send("probe fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(e.expect("pophash").last().unwrap(), "pophash");
    // Every legal move banned: no move.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    e.send("banmoves e0e1 e0f0");
    e.send("go depth 3");
    e.expect("nobestmove");
    // A draw offer in a lost position is accepted; in a won one it is not.
    e.send("position fen 3k5/9/9/9/9/9/9/1r7/r8/4K4 w - - 0 1");
    e.send("go draw depth 4");
    let lost = e.expect("bestmove");
    assert!(
        lost.last().unwrap().ends_with(" draw") || lost.last().unwrap().ends_with(" resign"),
        "{lost:?}"
    );
    e.send("position fen 4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1");
    e.send("go draw depth 4");
    let won = e.expect("bestmove");
    assert!(!won.last().unwrap().contains("draw"), "{won:?}");
}

#[test]
fn repetition_rules_are_options_in_both_dialects() {
    // After a red chariot chased the black cannon, stepping back repeats the chase: a win for
    // Black under the Asian rules, nothing under the simple ones.
    let chase = "position fen 4k4/9/2c6/9/9/9/9/1R7/9/5K3 w - - 0 1 moves b2c2 c7b7 c2b2 b7c7 b2c2";
    let score = |lines: &[String]| -> i32 {
        let info = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .expect("an info line with a score");
        let mut words = info.split_whitespace();
        words.find(|w| *w == "score");
        let next = words.next().unwrap();
        let value = if next == "cp" {
            words.next().unwrap()
        } else {
            next
        };
        value.parse().unwrap()
    };
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.expect("ucciok");
    assert!(has_line(
        &hello,
        "option repetition type combo default asian"
    ));
    assert!(has_line(&hello, "option drawmoves type spin"));
    e.send(chase);
    e.send("go depth 5");
    let asian = e.expect("bestmove");
    assert_eq!(bestmove_of(&asian), "c7b7");
    assert!(score(&asian) > 10_000, "{asian:?}");
    e.send("setoption repetition simple");
    e.send(chase);
    e.send("go depth 5");
    let simple = e.expect("bestmove");
    assert!(score(&simple) < 10_000, "{simple:?}");
    e.send("setoption repetition martian");
    e.expect("info string error");
    e.send("setoption drawmoves lots");
    e.expect("info string error");

    let mut e = Engine::start();
    e.send("uci");
    let hello = e.expect("uciok");
    assert!(has_line(&hello, "option name Repetition Rule type combo"));
    e.send("setoption name Repetition Rule value chinese");
    e.send("setoption name Draw Moves value 0");
    e.send("isready");
    e.expect("readyok");
    e.send(chase);
    e.send("go depth 5");
    let chinese = e.expect("bestmove");
    assert!(score(&chinese) > 10_000, "{chinese:?}");
}

#[test]
fn out_of_range_option_values_are_brought_in_and_said() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    for (line, note) in [
        (
            "setoption threads -5",
            "option threads: -5 is outside 1..256; 1 used",
        ),
        (
            "setoption multipv 500",
            "option multipv: 500 is outside 1..128; 128 used",
        ),
        (
            "setoption name MultiPV value 0",
            "option MultiPV: 0 is outside 1..128; 1 used",
        ),
    ] {
        e.send(line);
        let lines = e.expect("info string error");
        assert_eq!(lines.last().unwrap(), &format!("info string error: {note}"));
    }
    // Values inside the range, leading zeros too, pass without a word.
    e.send("setoption threads 001");
    e.send("setoption multipv 1");
    e.send("isready");
    let quiet = e.expect("readyok");
    assert!(!quiet.iter().any(|l| l.contains("error")), "{quiet:?}");
    e.send("go depth 3");
    e.expect("bestmove");
    // So are limits of `go` beyond what the search does.
    e.send("go depth 99999999999999999999");
    let started = e.expect("info string error");
    assert_eq!(
        started.last().unwrap(),
        "info string error: go depth: more than 120; 120 used"
    );
    e.send("stop");
    e.expect("bestmove");
    e.send("go time 1000 movestogo 5000 depth 2");
    let lines = e.expect("bestmove");
    assert!(
        has_line(
            &lines,
            "info string error: go movestogo: more than 999; 999 used"
        ),
        "{lines:?}"
    );
}

/// Runs the binary with `input` as its whole standard input; returns what it printed.
fn run_piped(input: &[u8]) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn end_of_input_finishes_the_search_first() {
    let (ok, text) = run_piped(b"ucci\nposition startpos\ngo depth 7\n");
    assert!(ok);
    assert!(
        text.lines().last().unwrap().starts_with("bestmove "),
        "{text}"
    );
    assert!(text.contains("info depth 7 "), "{text}");

    // An infinite search is stopped and answered.
    let (ok, text) = run_piped(b"uci\nposition startpos\ngo infinite\n");
    assert!(ok);
    assert!(
        text.lines().last().unwrap().starts_with("bestmove "),
        "{text}"
    );
}

#[test]
fn end_of_input_stops_every_search_without_a_bound_of_its_own() {
    // `go mate 2` from the start position finds no mate and would search for ever; `go
    // ponder` waits for a `ponderhit` that will not come. At the end of input each is
    // stopped, answered, and the process exits (well within a second on an idle machine;
    // the bound here leaves room for a loaded one).
    for input in [
        "ucci\nposition startpos\ngo mate 2\n",
        "uci\nposition startpos\ngo mate 2\n",
        "uci\nposition startpos moves h2e2\ngo ponder wtime 60000 btime 60000\n",
        "uci\nposition startpos\ngo searchmoves h2e2 b2e2\n",
    ] {
        let t = Instant::now();
        let (ok, text) = run_piped(input.as_bytes());
        assert!(ok, "{input}: {text}");
        assert!(
            t.elapsed() < Duration::from_secs(3),
            "{input}: exited after {:?}",
            t.elapsed()
        );
        assert!(
            text.lines().last().unwrap().starts_with("bestmove "),
            "{input}: {text}"
        );
    }
    // A mate search that finds its mate answers with it, as a bounded search does.
    let (ok, text) =
        run_piped(b"uci\nposition fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\ngo mate 1\n");
    assert!(ok);
    assert!(text.contains("score mate 1"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("bestmove e1d1"),
        "{text}"
    );
}

#[test]
fn stays_responsive_during_a_deep_search() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        e.send("isready");
        e.expect("readyok");
        times.push(t.elapsed());
    }
    times.sort();
    assert!(
        times[2] < Duration::from_millis(50),
        "isready round trips {times:?}"
    );
    let t = Instant::now();
    e.send("stop");
    e.expect("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(250),
        "stop took {:?}",
        t.elapsed()
    );

    // A small clock is respected.
    e.send("go time 400 increment 0");
    let t = Instant::now();
    e.expect("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(400),
        "go time 400 took {:?}",
        t.elapsed()
    );

    // quit in the middle of a search exits promptly.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("quit");
    e.expect("bye");
    assert!(e.exits_within(Duration::from_secs(2)).success());
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn bad_input_never_breaks_the_engine() {
    let mut e = Engine::start();
    // No handshake at all: commands still work.
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    assert!(legal_in(
        None,
        &["h2e2"],
        &bestmove_of(&e.expect("bestmove"))
    ));
    for garbage in [
        "",
        "   ",
        "\u{1b}[A??",
        "go depth -5",
        "go depth",
        "go nodes banana",
        "go movetime 99999999999999999999999",
        "position startpos moves h2e2 h2e2",
        "position",
        "position fen",
        "position fen rnbakabnr/9/1c5c1 w",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "setoption",
        "setoption name",
        "setoption hashsize banana",
        "setoption hashsize -1",
        "setoption name Hash value 99999999999999999999",
        "setoption threads 0",
        "setoption name Skill Level value 3",
        "setoption Repetition Rule asian",
        "setoption name UCI_Variant value chess",
        "banmoves",
        "banmoves z9z9",
        "probe",
        "probe fen nonsense",
        "ponderhit",
        "stop",
        "ucci",
        "uci",
        "ucci",
        "promotion false",
        "newgame",
    ] {
        e.send(garbage);
        e.ready();
    }
    // The last `position` was refused: no move of any earlier position is answered.
    e.send("go depth 3");
    let out = e.expect("nobestmove");
    assert!(has_line(&out, "info string error: no position"), "{out:?}");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let out = e.expect("bestmove");
    assert!(legal_in(None, &["h2e2"], &bestmove_of(&out)), "{out:?}");
    // Two go in a row: both are answered, in order.
    e.send("go depth 4");
    e.send("go depth 3");
    e.expect("bestmove");
    e.expect("bestmove");
    // A whole game on one line.
    let long = format!(
        "position startpos moves {}",
        "b0c2 b9c7 c2b0 c7b9 ".repeat(200)
    );
    e.send(&long);
    e.send("go depth 2");
    e.expect("bestmove");
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(5)).success());
}

/// A small deterministic random generator (xorshift), so a failure can be replayed.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

#[test]
fn thousands_of_random_lines() {
    let mut next = xorshift(0x2107);
    let words = [
        "ucci",
        "uci",
        "isready",
        "setoption",
        "name",
        "value",
        "hashsize",
        "Hash",
        "threads",
        "multipv",
        "position",
        "startpos",
        "fen",
        "moves",
        "banmoves",
        "go",
        "ponder",
        "draw",
        "depth",
        "nodes",
        "time",
        "increment",
        "movestogo",
        "wtime",
        "btime",
        "movetime",
        "infinite",
        "mate",
        "perft",
        "searchmoves",
        "ponderhit",
        "stop",
        "probe",
        "h2e2",
        "b0c2",
        "h9g7",
        "e0e1",
        "a0a9",
        "zz",
        "-1",
        "0",
        "1",
        "2",
        "3",
        "99999999999999999999",
        "rnbakabnr/9",
        "w",
        "b",
        "-",
        "usemillisec",
        "false",
        "true",
        "debug",
        "ucinewgame",
        "\t",
        "é",
        "\u{0}",
    ];
    let mut e = Engine::start();
    e.send("ucci");
    e.expect("ucciok");
    for i in 0..4000 {
        let len = (next() % 8) as usize;
        let mut line: Vec<String> = (0..len)
            .map(|_| words[(next() % words.len() as u64) as usize].to_string())
            .collect();
        if next() % 10 == 0 {
            // Mutate: random bytes in the middle.
            let junk: String = (0..(next() % 6))
                .map(|_| char::from_u32((next() % 0x3000) as u32 + 1).unwrap_or('x'))
                .collect();
            line.insert(0, junk);
        }
        let text = line.join(" ");
        // Keep searches short and never leave one running.
        let text = text.replace("infinite", "depth 2");
        e.send(&text);
        e.send("stop");
        if i % 200 == 0 {
            e.send("setoption hashsize 8");
            e.send("setoption threads 1");
            e.send("setoption usemillisec true");
            e.ready();
        }
    }
    e.send("stop");
    e.send("setoption threads 1");
    e.send("position startpos");
    e.send("go depth 3");
    e.expect("bestmove");
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(30)).success());
}

/// A GUI or script firing whole commands faster than searches end, `go` into running
/// searches included: every `go` is answered by exactly one `bestmove` once the searches
/// still open are stopped, and the engine never stalls.
#[test]
fn every_go_in_a_rapid_stream_is_answered_once() {
    let mut next = xorshift(0x5eed);
    let commands = [
        "go infinite",
        "go ponder infinite",
        "go depth 4",
        "go depth 7",
        "go nodes 2000",
        "go time 300 increment 0",
        "go ponder time 300 increment 0",
        "go draw depth 3",
        "stop",
        "ponderhit",
        "ponderhit draw",
        "isready",
        "position startpos",
        "position startpos moves h2e2",
        "banmoves h2e2",
        "setoption threads 2",
        "setoption threads 1",
        "setoption hashsize 4",
        "setoption newgame",
        "probe startpos",
    ];
    for round in 0..4 {
        let mut e = Engine::start();
        e.send("ucci");
        e.expect("ucciok");
        let mut gos = 0;
        for _ in 0..60 {
            let cmd = commands[(next() % commands.len() as u64) as usize];
            gos += usize::from(cmd.starts_with("go"));
            e.send(cmd);
            if next() % 5 == 0 {
                std::thread::sleep(Duration::from_millis(next() % 40));
            }
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut answers = 0;
        while answers < gos {
            assert!(
                Instant::now() < deadline,
                "round {round}: {answers} of {gos} answered"
            );
            e.send("stop");
            answers += e
                .silent_for(Duration::from_millis(100))
                .iter()
                .filter(|l| l.starts_with("bestmove"))
                .count();
        }
        assert_eq!(answers, gos, "round {round}");
        e.send("stop");
        let rest = e.until(Duration::from_secs(10), |l| l == "nobestmove");
        assert!(!has_line(&rest, "bestmove"), "round {round}: {rest:?}");
        e.send("quit");
        assert!(e.exits_within(Duration::from_secs(10)).success());
    }
}
