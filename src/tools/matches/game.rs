//! Refereeing one game between two engines.
//!
//! Every move is checked for legality by Chariot's own move generator, and the game ends by
//! the rules judge (`crate::rules`): mate and stalemate, repetition verdicts with perpetual
//! check and chase under the chosen rule set, the no-capture limit and material draws. An
//! illegal move, a time forfeit, a crash, a hang or a missing move loses.

pub use super::engine::Limit;
use super::engine::{Engine, Failure, GoLimit};
use crate::core::{Color, Move};
use crate::position::Position;
use crate::rules::{GameResult, GameState, judge};
use std::time::Duration;

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
    fn verdict(&self, plies: usize, scores: &[Option<i32>]) -> Option<(GameResult, String)> {
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
                    GameResult::RedWins,
                    "adjudicated: both engines see Red winning".into(),
                ));
            }
            if recent.iter().all(|&s| s <= -score) {
                return Some((
                    GameResult::BlackWins,
                    "adjudicated: both engines see Black winning".into(),
                ));
            }
        }
        if let Some((after, score, moves)) = self.draw
            && plies >= after
            && let Some(recent) = last(moves)
            && recent.iter().all(|&s| s.abs() <= score)
        {
            return Some((
                GameResult::Draw,
                "adjudicated: both engines see a draw".into(),
            ));
        }
        None
    }
}

/// The record of a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start_fen: String,
    pub moves: Vec<Move>,
    /// The score the mover reported with each move, from Red's point of view (centipawns).
    pub scores: Vec<Option<i32>>,
    pub outcome: GameResult,
    pub reason: String,
}

/// Longest game before it is adjudicated a draw.
const MAX_PLIES: usize = 600;

/// What the referee of a game goes by.
#[derive(Clone, Copy, Debug)]
pub struct Referee {
    /// Extra time an engine may overrun its clock before it loses on time.
    pub margin: Duration,
    /// How long a depth- or node-limited move may take before the engine counts as hung.
    pub hang: Duration,
    pub adjudication: Adjudication,
    pub rules: crate::rules::Rules,
}

/// Plays one game from `start`: `red` and `black` are the engines, `limits` their limits (Red's
/// first); the referee gives the clock margin, the hang timeout, adjudication and the rules.
/// `None` when the game was abandoned because the match was interrupted.
pub fn play(
    start: &Position,
    red: &mut Engine,
    black: &mut Engine,
    limits: [Limit; 2],
    referee: &Referee,
) -> Option<GameRecord> {
    let (margin, hang) = (referee.margin, referee.hang);
    let (adjudication, rules) = (referee.adjudication, &referee.rules);
    let start_fen = start.to_fen();
    // The engines get the opening as a FEN, so the referee starts from the same FEN: moves
    // that led to the opening position never count for repetitions.
    let mut pos = Position::from_fen(&start_fen).expect("a position's own FEN reads back");
    let mut moves: Vec<Move> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    let clock_of = |limit: Limit| match limit {
        Limit::Clock {
            base,
            increment,
            moves,
        } => (base, increment, moves),
        _ => (Duration::ZERO, Duration::ZERO, None),
    };
    let increments = [clock_of(limits[0]).1, clock_of(limits[1]).1];
    let mut clocks = [clock_of(limits[0]).0, clock_of(limits[1]).0];
    // Moves each side has made, for controls of so many moves.
    let mut made = [0u32; 2];
    let to_go = |side: usize, made: &[u32; 2]| {
        clock_of(limits[side])
            .2
            .map(|n| n.max(1) - made[side] % n.max(1))
    };
    // Each ply's reported score, from Red's point of view.
    let mut scores: Vec<Option<i32>> = Vec::new();
    let finish = |moves: Vec<Move>, scores: Vec<Option<i32>>, outcome, reason| {
        Some(GameRecord {
            start_fen: start_fen.clone(),
            moves,
            scores,
            outcome,
            reason,
        })
    };
    loop {
        if let GameState::Over(verdict) = judge(&pos, rules) {
            let reason = verdict.reason.describe().to_string();
            return finish(moves, scores, verdict.result, reason);
        }
        if let Some((outcome, reason)) = adjudication.verdict(moves.len(), &scores) {
            return finish(moves, scores, outcome, reason);
        }
        if moves.len() >= MAX_PLIES {
            let reason = format!("adjudicated after {MAX_PLIES} plies");
            return finish(moves, scores, GameResult::Draw, reason);
        }
        let side = pos.side_to_move();
        let (engine, me, other) = match side {
            Color::Red => (&mut *red, 0, 1),
            Color::Black => (&mut *black, 1, 0),
        };
        let limit = limits[me];
        let (go, allowed) = match limit {
            Limit::Depth(d) => (GoLimit::Depth(d), hang),
            Limit::Nodes(n) => (GoLimit::Nodes(n), hang),
            Limit::MoveTime(t) => (GoLimit::MoveTime(t), t + margin),
            Limit::Clock { .. } => {
                // An opponent without a clock is shown one like ours.
                let (opp, opp_inc) = match limits[other] {
                    Limit::Clock { .. } => (clocks[other], increments[other]),
                    _ => (clocks[me], increments[me]),
                };
                let go = GoLimit::Clock {
                    own: clocks[me],
                    own_inc: increments[me],
                    opp,
                    opp_inc,
                    moves_to_go: to_go(me, &made),
                    red: side == Color::Red,
                };
                (go, clocks[me] + margin)
            }
        };
        let name = engine.name.clone();
        let loser_reason = |what: &str| format!("{name} {what}");
        let outcome_against = GameResult::win_for(side.opponent());
        match engine.go(&start_fen, &texts, go, allowed) {
            Err(Failure::Aborted) => return None,
            Err(Failure::Timeout) => {
                let what = if matches!(limit, Limit::Depth(_) | Limit::Nodes(_)) {
                    "hung (no move)"
                } else {
                    "lost on time"
                };
                return finish(moves, scores, outcome_against, loser_reason(what));
            }
            Err(Failure::Crashed) => {
                return finish(moves, scores, outcome_against, loser_reason("crashed"));
            }
            Err(Failure::NoMove) => {
                return finish(moves, scores, outcome_against, loser_reason("gave no move"));
            }
            Ok((text, used, score)) => {
                if let Limit::Clock { .. } = limit {
                    if used > clocks[me] + margin {
                        let reason = loser_reason("lost on time");
                        return finish(moves, scores, outcome_against, reason);
                    }
                    clocks[me] = clocks[me].saturating_sub(used) + increments[me];
                    made[me] += 1;
                    if let (base, _, Some(n)) = clock_of(limit)
                        && made[me] % n.max(1) == 0
                    {
                        // A new period of the control begins.
                        clocks[me] += base;
                    }
                }
                let Ok(mv) = pos.parse_move(&text) else {
                    let reason = loser_reason(&format!("played an illegal move ({text})"));
                    return finish(moves, scores, outcome_against, reason);
                };
                scores.push(score.map(|v| if side == Color::Red { v } else { -v }));
                pos.make_move(mv);
                moves.push(mv);
                texts.push(mv.to_string());
            }
        }
    }
}
