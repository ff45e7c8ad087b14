//! A reviewed game written out: the text report for people (moves, turning points with the
//! board, each side's figures), JSON for scripts, and an annotated PGN for GUIs (scores,
//! marks and the best line as a variation, in the game's notation or another).

use super::{Mark, MoveReview, SideSummary, expected_score};
use crate::core::{Color, Move};
use crate::position::Position;
use crate::search::mate_in_moves;
use crate::tools::gamefile::{Game, Notation};
use crate::tools::json_string;

/// A Red's-view score as people read it: `+0.35`, `#3` (Red mates in 3), `#-2`.
pub fn score(value: i32) -> String {
    match mate_in_moves(value) {
        Some(m) => format!("#{m}"),
        None => format!("{:+.2}", f64::from(value) / 100.0),
    }
}

/// `12.` or `12...` for the move at 1-based `ply` of a game whose first mover is `first`.
fn move_number(game: &Game, ply: usize) -> String {
    let offset = usize::from(game.start.side_to_move() == Color::Black);
    let index = ply - 1 + offset;
    let number = game.start.fullmove_number() as usize + index / 2;
    if index % 2 == 0 {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// The position before 1-based `ply`.
fn position_before(game: &Game, ply: usize) -> Position {
    let mut pos = game.start.clone();
    for &mv in &game.moves[..ply - 1] {
        pos.make_move(mv);
    }
    pos
}

/// A line of moves written in `notation` from `pos`, numbered from `ply`, at most `max`.
fn line_text(
    game: &Game,
    pos: &Position,
    ply: usize,
    line: &[Move],
    notation: Notation,
    max: usize,
) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for (k, &mv) in line.iter().take(max).enumerate() {
        if !p.is_legal(mv) {
            break;
        }
        let number = move_number(game, ply + k);
        if k == 0 || number.ends_with('.') && !number.ends_with("...") {
            words.push(number);
        }
        words.push(notation.write(&p, mv));
        p.make_move(mv);
    }
    words.join(" ")
}

/// `text` padded with spaces to `width` terminal columns (Chinese characters take two).
fn pad(text: &str, width: usize) -> String {
    let columns: usize = text
        .chars()
        .map(|c| if (c as u32) < 0x1100 { 1 } else { 2 })
        .sum();
    format!("{text}{}", " ".repeat(width.saturating_sub(columns)))
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// Everything a report needs besides the moves.
pub struct Context<'a> {
    pub game: &'a Game,
    pub notation: Notation,
    /// How the positions were searched, for the heading (`400,000 nodes a position`).
    pub limits: String,
    pub seconds: f64,
    /// Positions searched of all (less when interrupted).
    pub searched: usize,
    pub positions: usize,
}

fn players(game: &Game) -> (String, String) {
    (
        game.tag("Red").unwrap_or("Red").to_string(),
        game.tag("Black").unwrap_or("Black").to_string(),
    )
}

/// The text report.
pub fn text(ctx: &Context, moves: &[MoveReview], sides: &[SideSummary; 2]) -> String {
    let game = ctx.game;
    let (red, black) = players(game);
    let mut out = format!(
        "Game {}: {red} (Red) - {black} (Black), {}, {} plies\n",
        game.number,
        game.result.as_deref().unwrap_or("*"),
        game.moves.len()
    );
    out.push_str(&format!(
        "Reviewed at {}: {} of {} positions in {:.1} s\n\n",
        ctx.limits, ctx.searched, ctx.positions, ctx.seconds
    ));
    out.push_str(
        "move              Red's score        Red wins     best line                                    loss\n",
    );
    for m in moves {
        let pos = position_before(game, m.ply);
        let played = ctx.notation.write(&pos, m.played);
        let mark = m.mark.map_or("", Mark::glyph);
        let best = if m.best == Some(m.played) {
            "=".to_string()
        } else {
            line_text(game, &pos, m.ply, &m.best_line, ctx.notation, 4)
        };
        let loss = if m.loss >= 0.005 {
            format!("{:.2}", m.loss)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{:<7}{}{:<3} {:>7} -> {:<7} {:>3}% -> {:>3}%  {} {loss}\n",
            move_number(game, m.ply),
            pad(&played, 10),
            mark,
            score(m.before),
            score(m.after),
            (100.0 * expected_score(m.before)).round(),
            (100.0 * expected_score(m.after)).round(),
            pad(&best, 44),
        ));
    }
    let turning: Vec<&MoveReview> = moves.iter().filter(|m| m.turning).collect();
    if !turning.is_empty() {
        out.push_str("\nWhere the game turned:\n");
    }
    for m in turning {
        let pos = position_before(game, m.ply);
        out.push_str(&format!(
            "\n{} {} {} ({}): {} -> {}; {} was {}\n",
            move_number(game, m.ply),
            ctx.notation.write(&pos, m.played),
            m.mark.map_or("", Mark::glyph),
            side_name(m.mover),
            score(m.before),
            score(m.after),
            if m.best_line.is_empty() {
                "no move"
            } else {
                "the best"
            },
            line_text(game, &pos, m.ply, &m.best_line, ctx.notation, 6),
        ));
        out.push_str(&crate::tools::analyze::glyph_diagram(&pos));
    }
    out.push_str(
        "\n            moves  average loss  inaccuracies ?!  mistakes ?  blunders ??  accuracy\n",
    );
    for (color, s) in [Color::Red, Color::Black].into_iter().zip(sides) {
        out.push_str(&format!(
            "{:<11} {:>5}  {:>9.0} cp  {:>15}  {:>10}  {:>11}  {:>7.1}%\n",
            side_name(color),
            s.moves,
            s.average_cp_loss,
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            s.accuracy
        ));
    }
    out
}

/// The review as one JSON object.
pub fn json(ctx: &Context, moves: &[MoveReview], sides: &[SideSummary; 2]) -> String {
    let game = ctx.game;
    let (red, black) = players(game);
    let move_objects: Vec<String> = moves
        .iter()
        .map(|m| {
            let pos = position_before(game, m.ply);
            let best_line: Vec<String> = m.best_line.iter().map(|mv| json_string(&mv.to_string())).collect();
            format!(
                "{{\"ply\":{},\"side\":\"{}\",\"move\":\"{}\",\"text\":{},\"before\":{},\"after\":{},\"win_before\":{:.3},\"win_after\":{:.3},\"best\":{},\"best_line\":[{}],\"loss\":{:.3},\"cp_loss\":{},\"mark\":{},\"turning\":{}}}",
                m.ply,
                side_name(m.mover).to_ascii_lowercase(),
                m.played,
                json_string(&ctx.notation.write(&pos, m.played)),
                m.before,
                m.after,
                expected_score(m.before),
                expected_score(m.after),
                m.best.map_or("null".to_string(), |b| json_string(&b.to_string())),
                best_line.join(","),
                m.loss,
                m.cp_loss,
                m.mark.map_or("null".to_string(), |k| json_string(k.glyph())),
                m.turning
            )
        })
        .collect();
    let side_objects: Vec<String> = sides
        .iter()
        .map(|s| {
            format!(
                "{{\"moves\":{},\"average_cp_loss\":{:.1},\"inaccuracies\":{},\"mistakes\":{},\"blunders\":{},\"accuracy\":{:.1}}}",
                s.moves, s.average_cp_loss, s.inaccuracies, s.mistakes, s.blunders, s.accuracy
            )
        })
        .collect();
    format!(
        "{{\"game\":{},\"red\":{},\"black\":{},\"result\":{},\"start_fen\":{},\"plies\":{},\"limits\":{},\"positions\":{},\"searched\":{},\"seconds\":{:.1},\"moves\":[{}],\"red_summary\":{},\"black_summary\":{}}}",
        game.number,
        json_string(&red),
        json_string(&black),
        json_string(game.result.as_deref().unwrap_or("*")),
        json_string(&game.start.to_fen()),
        game.moves.len(),
        json_string(&ctx.limits),
        ctx.positions,
        ctx.searched,
        ctx.seconds,
        move_objects.join(","),
        side_objects[0],
        side_objects[1]
    )
}

/// The game as PGN with the review in it: after each move its mark and score (Red's view),
/// and after a marked move the best line as a variation.
pub fn annotated_pgn(ctx: &Context, moves: &[MoveReview], sides: &[SideSummary; 2]) -> String {
    let game = ctx.game;
    let mut extra: Vec<(Option<String>, Option<String>)> = vec![(None, None); game.moves.len()];
    for m in moves {
        let pos = position_before(game, m.ply);
        let mark = m.mark.map_or(String::new(), |k| format!("{} ", k.glyph()));
        let mut comment = format!("{mark}{}", score(m.after));
        let variation = match m.mark {
            Some(Mark::Only) | None => None,
            Some(_) => {
                comment.push_str(&format!(
                    " (best {}: {})",
                    ctx.notation.write(&pos, m.best.unwrap_or(m.played)),
                    score(m.before)
                ));
                Some(line_text(game, &pos, m.ply, &m.best_line, ctx.notation, 8))
            }
        };
        extra[m.ply - 1] = (Some(comment), variation.filter(|v| !v.is_empty()));
    }
    let mut annotated = game.clone();
    let summary = |s: &SideSummary| {
        format!(
            "accuracy {:.1}%, {} ?!, {} ?, {} ??",
            s.accuracy, s.inaccuracies, s.mistakes, s.blunders
        )
    };
    let note = format!(
        "Chariot review at {}: Red {}; Black {}",
        ctx.limits,
        summary(&sides[0]),
        summary(&sides[1])
    );
    annotated.intro = Some(match &game.intro {
        Some(text) => format!("{text} | {note}"),
        None => note,
    });
    annotated
        .tags
        .retain(|(n, _)| !n.eq_ignore_ascii_case("Annotator"));
    annotated.tags.push(("Annotator".into(), "Chariot".into()));
    crate::tools::gamefile::write_pgn(&annotated, ctx.notation, &extra)
}
