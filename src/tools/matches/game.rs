//! Refereeing one game between two engines.
//!
//! Every move is checked for legality by Chariot's own move generator. The game ends by the
//! rules as far as they are built today: no legal move (mate or stalemate) loses; a position
//! occurring a third time ends the game — a side that gave check with every move of the cycle
//! (while the other did not) loses, otherwise it is a draw (the full chase rules come with the
//! rules judge); 120 plies without a capture, or no attacking material left on either side, is
//! a draw. An illegal move, a time forfeit, a crash, a hang or a missing move loses.

use super::engine::{Engine, Failure, GoLimit};
use crate::core::{Color, Move, PieceKind};
use crate::position::Position;
use crate::position::repetition::{CycleVerdict, judge_cycle};
use std::time::Duration;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    RedWins,
    BlackWins,
    Draw,
}

impl Outcome {
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    fn win_for(color: Color) -> Outcome {
        match color {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

/// How long each side may think.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    Depth(u32),
    Nodes(u64),
    MoveTime(Duration),
    Clock { base: Duration, increment: Duration },
}

/// Ending games early on the engines' own scores (both must agree).
#[derive(Clone, Copy, Debug, Default)]
pub struct Adjudication {
    /// Draw once at least `after` plies are played and both engines' last `moves` scores are
    /// within ±`score` centipawns.
    pub draw: Option<(usize, i32, usize)>,
    /// Win once both engines' last `moves` scores agree one side is ahead by `score`
    /// centipawns or more.
    pub win: Option<(i32, usize)>,
}

impl Adjudication {
    /// Scores are from Red's point of view, one per ply (the mover's report, sign-adjusted).
    fn verdict(&self, plies: usize, scores: &[Option<i32>]) -> Option<(Outcome, String)> {
        let last = |n: usize| -> Option<Vec<i32>> {
            if scores.len() < 2 * n {
                return None;
            }
            scores[scores.len() - 2 * n..].iter().copied().collect()
        };
        if let Some((score, moves)) = self.win
            && let Some(recent) = last(moves)
        {
            if recent.iter().all(|&s| s >= score) {
                return Some((
                    Outcome::RedWins,
                    "adjudicated: both engines see Red winning".into(),
                ));
            }
            if recent.iter().all(|&s| s <= -score) {
                return Some((
                    Outcome::BlackWins,
                    "adjudicated: both engines see Black winning".into(),
                ));
            }
        }
        if let Some((after, score, moves)) = self.draw
            && plies >= after
            && let Some(recent) = last(moves)
            && recent.iter().all(|&s| s.abs() <= score)
        {
            return Some((Outcome::Draw, "adjudicated: both engines see a draw".into()));
        }
        None
    }
}

/// The record of a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start_fen: String,
    pub moves: Vec<Move>,
    pub outcome: Outcome,
    pub reason: String,
}

/// Longest game before it is adjudicated a draw.
const MAX_PLIES: usize = 600;

/// The rules' verdict on the position after the last move, if the game is over.
pub fn judge(pos: &Position, checks: &[bool]) -> Option<(Outcome, String)> {
    let mover = pos.side_to_move();
    if pos.legal_moves().is_empty() {
        let how = if pos.in_check() {
            "checkmate"
        } else {
            "stalemate (no legal move)"
        };
        return Some((Outcome::win_for(mover.opponent()), how.to_string()));
    }
    // Third occurrence: count earlier occurrences since the last capture.
    let keys: Vec<u64> = pos.key_history().collect();
    let reach = (pos.halfmove_clock() as usize).min(keys.len());
    let earlier: Vec<usize> = (1..=reach)
        .filter(|&d| keys[keys.len() - d] == pos.key())
        .collect();
    if earlier.len() >= 2 {
        let checked = |i: usize| checks.get(i).copied().unwrap_or(false);
        return Some(match judge_cycle(keys.len(), earlier[0], checked) {
            CycleVerdict::SideToMoveWins => (Outcome::win_for(mover), "perpetual check".into()),
            CycleVerdict::SideToMoveLoses => {
                (Outcome::win_for(mover.opponent()), "perpetual check".into())
            }
            CycleVerdict::Draw => (Outcome::Draw, "repetition".into()),
        });
    }
    if pos.halfmove_clock() >= crate::search::NO_CAPTURE_LIMIT {
        return Some((Outcome::Draw, "no capture in 60 moves each".to_string()));
    }
    let attackers = |c: Color| {
        [
            PieceKind::Chariot,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Pawn,
        ]
        .iter()
        .any(|&k| pos.count(c, k) > 0)
    };
    if !attackers(Color::Red) && !attackers(Color::Black) {
        return Some((Outcome::Draw, "insufficient material".to_string()));
    }
    None
}

/// Plays one game from `start`: `red` and `black` are the engines.
/// `margin` is how far an engine may overrun its clock; `hang` how long a depth- or
/// node-limited move may take before the engine counts as hung.
pub fn play(
    start: &Position,
    red: &mut Engine,
    black: &mut Engine,
    limit: Limit,
    margin: Duration,
    hang: Duration,
    adjudication: Adjudication,
) -> GameRecord {
    let start_fen = start.to_fen();
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    let mut checks = vec![pos.in_check()];
    let (base, increment) = match limit {
        Limit::Clock { base, increment } => (base, increment),
        _ => (Duration::ZERO, Duration::ZERO),
    };
    let mut clocks = [base, base];
    // Each ply's reported score, from Red's point of view.
    let mut scores: Vec<Option<i32>> = Vec::new();
    let finish = |moves: Vec<Move>, outcome: Outcome, reason: String| GameRecord {
        start_fen: start_fen.clone(),
        moves,
        outcome,
        reason,
    };
    loop {
        if let Some((outcome, reason)) = judge(&pos, &checks) {
            return finish(moves, outcome, reason);
        }
        if let Some((outcome, reason)) = adjudication.verdict(moves.len(), &scores) {
            return finish(moves, outcome, reason);
        }
        if moves.len() >= MAX_PLIES {
            return finish(
                moves,
                Outcome::Draw,
                format!("adjudicated after {MAX_PLIES} plies"),
            );
        }
        let side = pos.side_to_move();
        let (engine, me, other) = match side {
            Color::Red => (&mut *red, 0, 1),
            Color::Black => (&mut *black, 1, 0),
        };
        let (go, allowed) = match limit {
            Limit::Depth(d) => (GoLimit::Depth(d), hang),
            Limit::Nodes(n) => (GoLimit::Nodes(n), hang),
            Limit::MoveTime(t) => (GoLimit::MoveTime(t), t + margin),
            Limit::Clock { .. } => (
                GoLimit::Clock {
                    own: clocks[me],
                    own_inc: increment,
                    opp: clocks[other],
                    opp_inc: increment,
                    red: side == Color::Red,
                },
                clocks[me] + margin,
            ),
        };
        let name = engine.name.clone();
        let loser_reason = |what: &str| format!("{name} {what}");
        let outcome_against = Outcome::win_for(side.opponent());
        match engine.go(&start_fen, &texts, go, allowed) {
            Err(Failure::Timeout) => {
                let what = if matches!(limit, Limit::Depth(_) | Limit::Nodes(_)) {
                    "hung (no move)"
                } else {
                    "lost on time"
                };
                return finish(moves, outcome_against, loser_reason(what));
            }
            Err(Failure::Crashed) => {
                return finish(moves, outcome_against, loser_reason("crashed"));
            }
            Err(Failure::NoMove) => {
                return finish(moves, outcome_against, loser_reason("gave no move"));
            }
            Ok((text, used, score)) => {
                scores.push(score.map(|v| if side == Color::Red { v } else { -v }));
                if let Limit::Clock { .. } = limit {
                    if used > clocks[me] + margin {
                        return finish(moves, outcome_against, loser_reason("lost on time"));
                    }
                    clocks[me] = clocks[me].saturating_sub(used) + increment;
                }
                let Ok(mv) = pos.parse_move(&text) else {
                    return finish(
                        moves,
                        outcome_against,
                        loser_reason(&format!("played an illegal move ({text})")),
                    );
                };
                pos.make_move(mv);
                moves.push(mv);
                texts.push(mv.to_string());
                checks.push(pos.in_check());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(fen: &str, moves: &[&str]) -> (Position, Vec<bool>) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut checks = vec![pos.in_check()];
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
            checks.push(pos.in_check());
        }
        (pos, checks)
    }

    #[test]
    fn mate_stalemate_and_material() {
        let (pos, checks) = replay("3k5/9/9/9/9/9/9/9/9/3RK4 b", &[]);
        assert_eq!(
            judge(&pos, &checks).unwrap(),
            (Outcome::RedWins, "checkmate".to_string())
        );
        let (pos, checks) = replay("3k5/8R/9/9/9/9/9/9/9/4K4 b", &[]);
        assert_eq!(judge(&pos, &checks).unwrap().0, Outcome::RedWins);
        let (pos, checks) = replay("3k5/9/9/9/9/9/9/4B4/4A4/3AK4 w", &[]);
        assert_eq!(judge(&pos, &checks).unwrap().1, "insufficient material");
        let (pos, checks) = replay(crate::position::START_FEN, &["h2e2"]);
        assert_eq!(judge(&pos, &checks), None);
    }

    #[test]
    fn third_occurrence_ends_the_game() {
        // Red checks on every move, Black steps aside: Red loses by perpetual check.
        let cycle = [
            "a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9",
        ];
        let (pos, checks) = replay("4k4/9/9/9/9/9/9/9/9/R2K5 w", &cycle);
        assert_eq!(
            judge(&pos, &checks).unwrap(),
            (Outcome::BlackWins, "perpetual check".to_string())
        );
        // One repetition short of the third occurrence: the game goes on.
        let (pos, checks) = replay("4k4/9/9/9/9/9/9/9/9/R2K5 w", &cycle[..5]);
        assert_eq!(judge(&pos, &checks), None);
        // Idle moves by both: a draw.
        let idle = [
            "d0d1", "e9e8", "d1d0", "e8e9", "d0d1", "e9e8", "d1d0", "e8e9",
        ];
        let (pos, checks) = replay("4k4/9/9/9/9/9/9/9/9/R2K5 w", &idle);
        assert_eq!(
            judge(&pos, &checks).unwrap(),
            (Outcome::Draw, "repetition".to_string())
        );
    }
}
