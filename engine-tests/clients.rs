//! Scripted exchanges of the clients that write moves differently: a variantfishtest-style
//! client (UCI with `UCI_Variant`, ranks 1..10), XBoard's Cyclone dialect through `uci2wb -c`
//! (`UCI_Variant` but bare `startpos … moves` lines and ranks 0..9), and a Pikafish-style
//! client (UCI, `position`, ranks 0..9). Each plays a game in which every `bestmove` must be
//! legal in the client's notation, checked here with a conversion of the test's own.

mod common;

use chariot::Position;
use common::Engine;

/// A move in ranks 1..10 as ICCS with ranks 0..9, or `None` if it is not one.
fn from_one_based(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    for _ in 0..2 {
        let file = *bytes.get(i)? as char;
        if !('a'..='i').contains(&file) {
            return None;
        }
        i += 1;
        let digits: String = text[i..]
            .chars()
            .take_while(char::is_ascii_digit)
            .take(2)
            .collect();
        let rank: u8 = digits.parse().ok()?;
        if !(1..=10).contains(&rank) {
            return None;
        }
        i += digits.len();
        out.push(file);
        out.push(char::from(b'0' + rank - 1));
    }
    (i == text.len()).then_some(out)
}

#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// variantfishtest and other Fairy-Stockfish tools.
    FairyStockfish,
    /// uci2wb -c.
    Cyclone,
    /// cchess, pikafish-terminal, xiangqi_tui.
    Pikafish,
}

/// Plays `plies` plies, the engine choosing both sides' moves; returns the moves as the
/// client wrote them.
fn play(style: Style, plies: usize) -> Vec<String> {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    if style != Style::Pikafish {
        e.send("setoption name UCI_Variant value xiangqi");
    }
    e.send("ucinewgame");
    e.ready();
    let mut pos = Position::startpos();
    let mut client_moves: Vec<String> = Vec::new();
    for ply in 0..plies {
        let moves = if client_moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", client_moves.join(" "))
        };
        match style {
            Style::Cyclone => e.send(&format!("startpos{moves}")),
            _ => e.send(&format!("position startpos{moves}")),
        }
        e.send("go depth 4");
        let lines = e.expect("bestmove");
        let text = common::bestmove_of(&lines);
        let iccs = match style {
            Style::FairyStockfish => from_one_based(&text)
                .unwrap_or_else(|| panic!("ply {ply}: '{text}' is not a move in a1-i10")),
            _ => text.clone(),
        };
        let mv = pos
            .parse_move(&iccs)
            .unwrap_or_else(|e| panic!("ply {ply}: bestmove {text}: {e}"));
        // The principal variation is written the same way.
        let pv = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
        let first_pv = pv
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        assert_eq!(first_pv, text, "{pv}");
        pos.make_move(mv);
        client_moves.push(text);
        if pos.legal_moves().is_empty() {
            break;
        }
    }
    e.send("quit");
    client_moves
}

#[test]
fn a_fairy_stockfish_style_client_gets_ranks_1_to_10() {
    let moves = play(Style::FairyStockfish, 16);
    assert!(
        moves.iter().all(|m| from_one_based(m).is_some()),
        "{moves:?}"
    );
    // Black's back-rank pieces leave rank 10 sooner or later; rank 0 never appears.
    assert!(moves.iter().any(|m| m.contains("10")), "{moves:?}");
}

#[test]
fn the_cyclone_dialect_and_pikafish_style_clients_get_ranks_0_to_9() {
    for style in [Style::Cyclone, Style::Pikafish] {
        let moves = play(style, 16);
        assert!(moves.iter().all(|m| m.len() == 4), "{moves:?}");
        assert!(
            moves.iter().any(|m| m.contains('0') || m.contains('9')),
            "{moves:?}"
        );
    }
}

#[test]
fn the_rank_base_follows_what_the_client_sends() {
    let mut e = Engine::start();
    e.send("ucci");
    let ucci = e.expect("ucciok");
    assert!(
        ucci.iter()
            .any(|l| l.starts_with("option rankbase type combo default auto"))
    );
    e.send("uci");
    let uci = e.expect("uciok");
    assert!(
        uci.iter()
            .any(|l| l.starts_with("option name RankBase type combo"))
    );
    // No UCI_Variant and no rank 10, but "h3e3" is legal only read as 1..10.
    e.send("position startpos moves h3e3");
    e.send("go depth 3 searchmoves b10c8 h10g8");
    let best = common::bestmove_of(&e.expect("bestmove"));
    assert!(["b10c8", "h10g8"].contains(&best.as_str()), "{best}");
    // A rank 0 switches back.
    e.send("position startpos moves h2e2 h9g7 b0c2");
    e.send("go depth 3");
    let best = common::bestmove_of(&e.expect("bestmove"));
    assert_eq!(best.len(), 4, "{best}");
    // Fixed by the option.
    e.send("setoption name RankBase value 1-10");
    e.send("position startpos");
    e.send("banmoves h3e3");
    e.send("go depth 3 searchmoves h3e3 b1c3");
    let best = common::bestmove_of(&e.expect("bestmove"));
    assert_eq!(best, "b1c3");
    e.send("go perft 1");
    let lines = e.expect("Nodes searched");
    assert!(lines.iter().any(|l| l.starts_with("b1c3: ")), "{lines:?}");
    e.send("quit");
}
