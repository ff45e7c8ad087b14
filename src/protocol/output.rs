//! The engine's voice: one writer owns the output, every line is flushed, and the text of
//! each message is formatted for the dialect the GUI chose (UCCI or UCI).

use super::coords::{RankBase, move_text, square_text};
use crate::core::{Move, Square};
use crate::position::Position;
use crate::search::tt::Bound;
use crate::search::{IterationInfo, MATE, mate_in_moves};
use std::io::Write;
use std::sync::Mutex;

/// The two dialects. They share move and FEN notation (ICCS, ranks 0..9) and differ in
/// handshake, option syntax, score notation and end-of-search lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    Uci,
}

/// The single writer of protocol lines.
pub struct Output {
    writer: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            writer: Mutex::new(writer),
        }
    }

    /// Writes one line and flushes it. A closed output (the GUI went away) is ignored.
    pub fn line(&self, text: &str) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// Writes several lines and runs `after` while still holding the writer, so whoever
    /// checks the effect of `after` through `locked` sees it exactly when the lines are out.
    pub fn lines_then(&self, lines: &[String], after: impl FnOnce()) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        for text in lines {
            let _ = writeln!(w, "{text}");
        }
        let _ = w.flush();
        after();
    }

    /// Runs `f` while holding the writer (see `lines_then`).
    pub fn locked<T>(&self, f: impl FnOnce() -> T) -> T {
        let _w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        f()
    }

    /// `info string …` (UCI) or `info message …` would both do; `info string` is understood by
    /// UCI GUIs and ignored as an unknown info by UCCI GUIs.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// UCCI's mate convention (ElephantEye's, which UCCI GUIs were tested against): mate in `p`
/// plies is `10000 - p`, being mated `p - 10000`.
const UCCI_MATE: i32 = 10_000;

/// The score field for a value from the side to move's point of view.
pub fn score_field(dialect: Dialect, value: i32) -> String {
    match (dialect, mate_in_moves(value)) {
        (Dialect::Uci, Some(moves)) => format!("score mate {moves}"),
        (Dialect::Uci, None) => format!("score cp {value}"),
        (Dialect::Ucci, Some(_)) => {
            let plies = MATE - value.abs();
            let v = UCCI_MATE - plies;
            format!("score {}", if value > 0 { v } else { -v })
        }
        (Dialect::Ucci, None) => format!("score {value}"),
    }
}

/// Win/draw/loss per mille from a score, for `UCI_ShowWDL`: a logistic model in which a
/// two-pawn edge wins about three games in four.
pub fn wdl(value: i32) -> (u32, u32, u32) {
    if let Some(m) = mate_in_moves(value) {
        return if m > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
    let win = logistic((value as f64 - 120.0) / 80.0);
    let loss = logistic((-value as f64 - 120.0) / 80.0);
    let w = (win * 1000.0).round() as u32;
    let l = (loss * 1000.0).round() as u32;
    (w, 1000 - w - l, l)
}

/// One `info` line for an iteration.
pub fn info_line(
    dialect: Dialect,
    base: RankBase,
    info: &IterationInfo,
    show_wdl: bool,
    multipv: usize,
) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if dialect == Dialect::Uci || multipv > 1 {
        line.push_str(&format!(" multipv {}", info.multipv));
    }
    line.push(' ');
    line.push_str(&score_field(dialect, info.value));
    match info.bound {
        Some(Bound::Lower) => line.push_str(" lowerbound"),
        Some(Bound::Upper) => line.push_str(" upperbound"),
        _ => {}
    }
    if show_wdl {
        let (w, d, l) = wdl(info.value);
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    line.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        info.nodes,
        info.nps(),
        info.hashfull,
        info.elapsed.as_millis()
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push(' ');
            line.push_str(&move_text(*mv, base));
        }
    }
    line
}

/// The end-of-search line(s).
pub fn bestmove_lines(
    dialect: Dialect,
    base: RankBase,
    best: Option<Move>,
    ponder: Option<Move>,
    suffix: Option<&str>,
) -> Vec<String> {
    match (best, dialect) {
        (None, Dialect::Ucci) => vec!["nobestmove".into()],
        (None, Dialect::Uci) => vec!["info depth 0 score mate 0".into(), "bestmove (none)".into()],
        (Some(m), _) => {
            let mut line = format!("bestmove {}", move_text(m, base));
            if let Some(p) = ponder {
                line.push_str(&format!(" ponder {}", move_text(p, base)));
            }
            if let (Some(s), Dialect::Ucci) = (suffix, dialect) {
                line.push(' ');
                line.push_str(s);
            }
            vec![line]
        }
    }
}

/// The answer to `d`, laid out as Pikafish prints it (tools read its `Fen:`, `Key:` and
/// `Checkers:` lines): the board in boxes with Black at the top and the client's rank
/// numbers, then the FEN, the position's hash key (Chariot's own, in 16 upper-case hex
/// digits) and the points of the pieces giving check.
pub fn board_lines(pos: &Position, base: RankBase) -> Vec<String> {
    const RULE: &str = " +---+---+---+---+---+---+---+---+---+";
    let mut lines = vec![String::new(), RULE.to_string()];
    for rank in (0..10u8).rev() {
        let mut row = String::new();
        for file in 0..9u8 {
            let piece = pos.piece_on(Square::new(file, rank));
            row.push_str(" | ");
            row.push(piece.map_or(' ', |p| p.letter()));
        }
        let shown = rank + if base == RankBase::One { 1 } else { 0 };
        lines.push(format!("{row} | {shown}"));
        lines.push(RULE.to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h   i".to_string());
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.to_fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: String = pos
        .checkers()
        .map(|sq| square_text(sq, base) + " ")
        .collect();
    lines.push(format!("Checkers: {checkers}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_each_dialect() {
        assert_eq!(score_field(Dialect::Uci, 37), "score cp 37");
        assert_eq!(score_field(Dialect::Ucci, -37), "score -37");
        assert_eq!(score_field(Dialect::Uci, MATE - 3), "score mate 2");
        assert_eq!(score_field(Dialect::Uci, -MATE + 2), "score mate -1");
        assert_eq!(score_field(Dialect::Ucci, MATE - 3), "score 9997");
        assert_eq!(score_field(Dialect::Ucci, -MATE + 2), "score -9998");
    }

    #[test]
    fn wdl_is_a_distribution() {
        for v in [-3000, -200, -50, 0, 50, 200, 3000, MATE - 1, -MATE + 4] {
            let (w, d, l) = wdl(v);
            assert_eq!(w + d + l, 1000, "{v}");
        }
        let (w, _, l) = wdl(0);
        assert_eq!(w, l);
        assert!(wdl(300).0 > wdl(100).0);
    }

    #[test]
    fn no_move_lines() {
        assert_eq!(
            bestmove_lines(Dialect::Ucci, RankBase::Zero, None, None, None),
            ["nobestmove"]
        );
        assert_eq!(
            bestmove_lines(Dialect::Uci, RankBase::Zero, None, None, None),
            ["info depth 0 score mate 0", "bestmove (none)"]
        );
        let m = Move::parse_iccs("h2e2");
        let p = Move::parse_iccs("h9g7");
        assert_eq!(
            bestmove_lines(Dialect::Ucci, RankBase::Zero, m, p, Some("draw")),
            ["bestmove h2e2 ponder h9g7 draw"]
        );
        assert_eq!(
            bestmove_lines(Dialect::Uci, RankBase::Zero, m, p, Some("draw")),
            ["bestmove h2e2 ponder h9g7"]
        );
        assert_eq!(
            bestmove_lines(Dialect::Uci, RankBase::One, m, p, None),
            ["bestmove h3e3 ponder h10g8"]
        );
    }
}
