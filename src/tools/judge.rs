//! `chariot judge`: the rules judge from the shell. For each game (a FEN and moves, or every
//! game of a PGN file) it prints whether the game is over, who won and why, and for a
//! repetition the class of every move of the cycle — the same verdicts the engine and the
//! match referee use.

use crate::core::Color;
use crate::position::Position;
use crate::rules::{GameState, Rules, judge_game};
use crate::tools::json_string;

/// One judged game.
#[derive(Clone, Debug)]
pub struct JudgedGame {
    pub start_fen: String,
    /// Moves given, and moves played until the game ended (the rest are not judged).
    pub given: usize,
    pub played: usize,
    pub state: GameState,
    /// The position where judging stopped.
    pub end: Position,
    /// The moves judged, in ICCS.
    pub moves: Vec<String>,
}

/// Judges the game of `moves` (any notation `parse_human_move` reads) from `start`.
pub fn judge_moves(
    start: &Position,
    moves: &[String],
    rules: &Rules,
) -> Result<JudgedGame, String> {
    let (state, played, end) = judge_game(start, moves, rules)?;
    Ok(JudgedGame {
        start_fen: start.to_fen(),
        given: moves.len(),
        played,
        state,
        moves: end.moves_played().map(|m| m.to_string()).collect(),
        end,
    })
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// The verdict as text for people; `title` names the game (empty for a single game).
pub fn text_report(title: &str, game: &JudgedGame) -> String {
    let mut out = String::new();
    if !title.is_empty() {
        out.push_str(&format!("{title}: "));
    }
    match &game.state {
        GameState::Ongoing => {
            out.push_str(&format!(
                "ongoing after {} plies, {} to move (no-capture clock {})\n",
                game.played,
                side_name(game.end.side_to_move()),
                game.end.halfmove_clock()
            ));
        }
        GameState::Over(verdict) => {
            out.push_str(&format!(
                "{} by {} after {} plies",
                verdict.result.describe(),
                verdict.reason.describe(),
                game.played
            ));
            if game.played < game.given {
                out.push_str(&format!(
                    " ({} later moves not judged: the game was over)",
                    game.given - game.played
                ));
            }
            out.push('\n');
            if !verdict.cycle.is_empty() {
                out.push_str("repetition cycle:\n");
                let first_ply = game.played - verdict.cycle.len() + 1;
                for (i, m) in verdict.cycle.iter().enumerate() {
                    out.push_str(&format!(
                        "  ply {:>3}  {}  {:<5}  {}\n",
                        first_ply + i,
                        m.mv,
                        side_name(m.mover),
                        m.class.label()
                    ));
                }
            }
        }
    }
    out
}

/// The verdict as one JSON object; `game` is the 1-based game number.
pub fn json_report(game_number: usize, game: &JudgedGame) -> String {
    let mut fields = vec![
        format!("\"game\":{game_number}"),
        format!("\"start_fen\":{}", json_string(&game.start_fen)),
        format!("\"plies\":{}", game.played),
        format!("\"moves_given\":{}", game.given),
        format!("\"fen\":{}", json_string(&game.end.to_fen())),
        format!(
            "\"moves\":[{}]",
            game.moves
                .iter()
                .map(|m| json_string(m))
                .collect::<Vec<_>>()
                .join(",")
        ),
    ];
    match &game.state {
        GameState::Ongoing => {
            fields.push("\"state\":\"ongoing\"".into());
            fields.push(format!(
                "\"side_to_move\":\"{}\"",
                side_name(game.end.side_to_move()).to_ascii_lowercase()
            ));
        }
        GameState::Over(verdict) => {
            fields.push("\"state\":\"over\"".into());
            fields.push(format!("\"result\":\"{}\"", verdict.result.pgn()));
            fields.push(format!("\"reason\":\"{}\"", verdict.reason.code()));
            let first_ply = game.played - verdict.cycle.len() + 1;
            let cycle: Vec<String> = verdict
                .cycle
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let chased: Vec<String> = m
                        .class
                        .chased
                        .iter()
                        .map(|(sq, kind)| format!("{{\"piece\":\"{}\",\"square\":\"{sq}\"}}", kind.name()))
                        .collect();
                    format!(
                        "{{\"ply\":{},\"move\":\"{}\",\"side\":\"{}\",\"class\":\"{}\",\"chased\":[{}]}}",
                        first_ply + i,
                        m.mv,
                        side_name(m.mover).to_ascii_lowercase(),
                        m.class.code(),
                        chased.join(",")
                    )
                })
                .collect();
            fields.push(format!("\"cycle\":[{}]", cycle.join(",")));
        }
    }
    format!("{{{}}}", fields.join(","))
}
