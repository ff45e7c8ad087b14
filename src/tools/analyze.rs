//! `chariot analyze`: searches one position from the shell and prints each iteration with its
//! principal variation in ICCS and in human notation (WXF or Chinese), or as JSON lines.

use crate::core::{Color, Move, Piece, PieceKind, Square};
use crate::position::Position;
use crate::search::{IterationInfo, RULE_WIN, Reporter, SearchResult, mate_in_moves};
use std::io::Write;
use std::sync::Mutex;

/// How an analysis is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Human-readable lines, PV in WXF.
    Wxf,
    /// Human-readable lines, PV in Chinese.
    Chinese,
    /// One JSON object per line.
    Json,
}

/// A score as people read it: `+0.35`, `mate 3` / `mated 2`, or `rule win` / `rule loss`
/// (a repetition verdict: the other side must vary or lose), from the side to move.
pub fn score_text(value: i32) -> String {
    let rule_band = RULE_WIN - crate::search::MAX_PLY as i32..=RULE_WIN;
    match mate_in_moves(value) {
        Some(m) if m > 0 => format!("mate {m}"),
        Some(m) => format!("mated {}", -m),
        None if rule_band.contains(&value) => "rule win".to_string(),
        None if rule_band.contains(&-value) => "rule loss".to_string(),
        None => format!("{:+.2}", value as f64 / 100.0),
    }
}

/// The PV in human notation, each move written in the position it is played from.
pub fn pv_notation(pos: &Position, pv: &[Move], chinese: bool) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        out.push(if chinese {
            p.to_chinese(mv)
        } else {
            p.to_wxf(mv)
        });
        p.make_move(mv);
    }
    out
}

fn glyph(piece: Piece) -> char {
    match (piece.color(), piece.kind()) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Horse) => '马',
        (Color::Red, PieceKind::Chariot) => '车',
        (Color::Red, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '将',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Horse) => '馬',
        (Color::Black, PieceKind::Chariot) => '車',
        (Color::Black, PieceKind::Cannon) => '砲',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

/// The board with Chinese glyphs (Black's pieces in their traditional forms to tell them
/// apart), ranks and files labelled as ICCS.
pub fn glyph_diagram(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..10).rev() {
        out.push_str(&format!("{rank} "));
        for file in 0..9 {
            match pos.piece_on(Square::new(file, rank)) {
                Some(p) => out.push(glyph(p)),
                None => out.push('．'),
            }
        }
        out.push('\n');
        if rank == 5 {
            out.push_str("  ～～～～～～～～～\n");
        }
    }
    out.push_str("  ａｂｃｄｅｆｇｈｉ\n");
    out
}

/// Prints iterations as they come.
pub struct AnalyzeReporter {
    pos: Position,
    style: Style,
    out: Mutex<std::io::Stdout>,
}

impl AnalyzeReporter {
    pub fn new(pos: &Position, style: Style) -> AnalyzeReporter {
        AnalyzeReporter {
            pos: pos.clone(),
            style,
            out: Mutex::new(std::io::stdout()),
        }
    }

    fn line(&self, text: String) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

fn json_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| super::json_string(s)).collect();
    format!("[{}]", quoted.join(","))
}

impl Reporter for AnalyzeReporter {
    fn iteration(&self, info: &IterationInfo) {
        let iccs: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        let bound = match info.bound {
            Some(crate::search::tt::Bound::Lower) => " (lower bound)",
            Some(crate::search::tt::Bound::Upper) => " (upper bound)",
            _ => "",
        };
        match self.style {
            Style::Json => {
                let (kind, value) = match mate_in_moves(info.value) {
                    Some(m) => ("mate", m),
                    None => ("cp", info.value),
                };
                let wxf = pv_notation(&self.pos, &info.pv, false);
                let chinese = pv_notation(&self.pos, &info.pv, true);
                self.line(format!(
                    "{{\"type\":\"iteration\",\"depth\":{},\"seldepth\":{},\"multipv\":{},\"score\":{{\"{kind}\":{value}}},\"nodes\":{},\"nps\":{},\"time_ms\":{},\"hashfull\":{},\"pv\":{},\"pv_wxf\":{},\"pv_chinese\":{}}}",
                    info.depth,
                    info.seldepth,
                    info.multipv,
                    info.nodes,
                    info.nps(),
                    info.elapsed.as_millis(),
                    info.hashfull,
                    json_list(&iccs),
                    json_list(&wxf),
                    json_list(&chinese),
                ));
            }
            Style::Wxf | Style::Chinese => {
                let human = pv_notation(&self.pos, &info.pv, self.style == Style::Chinese);
                self.line(format!(
                    "depth {:>2}/{:<2} {}{:>10}{bound}  nodes {:>10}  nps {:>8}  time {:>6} ms\n    pv {}\n       {}",
                    info.depth,
                    info.seldepth,
                    if info.multipv > 1 { format!("#{} ", info.multipv) } else { String::new() },
                    score_text(info.value),
                    info.nodes,
                    info.nps(),
                    info.elapsed.as_millis(),
                    iccs.join(" "),
                    human.join(" "),
                ));
            }
        }
    }

    fn finished(&self, result: &SearchResult) {
        let best = result.best.map_or("(none)".to_string(), |m| m.to_string());
        match self.style {
            Style::Json => self.line(format!(
                "{{\"type\":\"bestmove\",\"move\":\"{best}\",\"ponder\":{},\"nodes\":{},\"time_ms\":{}}}",
                result.ponder.map_or("null".to_string(), |m| format!("\"{m}\"")),
                result.nodes,
                result.elapsed.as_millis()
            )),
            _ => {
                let human = result
                    .best
                    .map(|m| format!(" ({})", pv_notation(&self.pos, &[m], self.style == Style::Chinese).join("")))
                    .unwrap_or_default();
                self.line(format!("bestmove {best}{human}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{MATE, mated_in};

    #[test]
    fn scores_read_as_pawns_mates_and_rule_verdicts() {
        assert_eq!(score_text(35), "+0.35");
        assert_eq!(score_text(-120), "-1.20");
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(mated_in(2)), "mated 1");
        assert_eq!(score_text(RULE_WIN - 1), "rule win");
        assert_eq!(score_text(-(RULE_WIN - 5)), "rule loss");
    }
}
