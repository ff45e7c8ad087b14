//! One self-play game for training data: Chariot against itself at a fixed node budget.
//!
//! A game starts from one of the openings, then a number of random legal plies, so that
//! games differ; a start whose first search is already lopsided (beyond `max_start_score`)
//! is drawn again. Every move is searched with the same node budget by one worker with its
//! own table (so one game depends on its seed alone, whatever else runs beside it). The
//! rules judge ends the game (mate, stalemate, repetition verdicts, the no-capture limit, bare
//! material); besides, a long run of decisive scores is adjudicated a win, a long run of
//! near-zero scores late in a game a draw, and a game of `MAX_PLIES` plies a draw.
//!
//! Kept positions are quiet ones: not in check, the best move not a capture, and not yet
//! decided by a mate score. Their labels are the search's score and the game's result, both
//! for the side to move.

use super::format::{Outcome, Record};
use crate::core::Color;
use crate::eval::Evaluator;
use crate::position::Position;
use crate::rules::{GameResult, GameState, Rules, judge};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, MATE_BOUND, SharedState, Silent, Worker, threads};
use crate::tools::rng::Rng;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The longest game; longer ones are drawn.
pub const MAX_PLIES: usize = 400;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub nodes: u64,
    /// Random legal plies played from the opening before the search takes over.
    pub random_plies: usize,
    /// A start whose first search scores beyond this (either way) is drawn again.
    pub max_start_score: i32,
    /// Win adjudication: this many plies in a row with the score (of the side that leads)
    /// at least this high.
    pub win_score: i32,
    pub win_plies: usize,
    /// Draw adjudication: after `draw_after` plies, `draw_plies` plies in a row within
    /// ±`draw_score`.
    pub draw_after: usize,
    pub draw_score: i32,
    pub draw_plies: usize,
    pub rules: Rules,
    pub hash_mb: usize,
    /// The evaluation both sides search with.
    pub eval: Evaluator,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            nodes: 5000,
            random_plies: 8,
            max_start_score: 300,
            win_score: 1000,
            win_plies: 8,
            draw_after: 160,
            draw_score: 10,
            draw_plies: 20,
            rules: Rules::default(),
            hash_mb: 4,
            eval: Evaluator::default(),
        }
    }
}

/// A finished game.
#[derive(Debug)]
pub struct GameOutput {
    pub records: Vec<Record>,
    pub result: GameResult,
    pub plies: usize,
}

/// One thread's search state, kept from game to game (cleared at each start).
pub struct Player {
    worker: Worker,
    tt: TranspositionTable,
    shared: Arc<SharedState>,
}

impl Player {
    pub fn new(hash_mb: usize) -> Player {
        Player {
            worker: Worker::new(0),
            tt: TranspositionTable::new(hash_mb),
            shared: Arc::new(SharedState::new(1)),
        }
    }

    fn new_game(&mut self) {
        self.worker.clear();
        self.tt.clear();
    }

    /// Searches `pos` to the node budget: the best move (if any) and its score for the
    /// side to move.
    fn search(&mut self, pos: &Position, limits: &Limits) -> (Option<crate::Move>, i32) {
        self.shared.stop.store(false, Ordering::Relaxed);
        self.shared.node_counts[0].store(0, Ordering::Relaxed);
        self.shared.restart_clock();
        self.tt.new_search();
        self.worker
            .search(pos, limits, &self.tt, &self.shared, &Silent);
        let result = threads::result_of(&self.worker, &self.shared);
        (result.best, result.value)
    }
}

/// Plays a random start: an opening and `random_plies` random legal moves, redrawn while
/// the game would already be over.
fn random_start(openings: &[Position], settings: &GameSettings, rng: &mut Rng) -> Position {
    loop {
        let mut pos = openings[rng.below(openings.len() as u64) as usize].clone();
        let mut alive = true;
        for _ in 0..settings.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || judge(&pos, &settings.rules).is_over() {
                alive = false;
                break;
            }
            pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
        }
        if alive && !judge(&pos, &settings.rules).is_over() {
            return pos;
        }
    }
}

/// The ply number of a position set up from a FEN (its move counter and side to move).
fn start_ply(pos: &Position) -> u32 {
    (pos.fullmove_number().saturating_sub(1)) * 2 + (pos.side_to_move() == Color::Black) as u32
}

/// Plays one game from the seed. `None` if `stop` said so before it finished (it is asked
/// before every move).
pub fn play_game(
    player: &mut Player,
    openings: &[Position],
    settings: &GameSettings,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<GameOutput> {
    let mut rng = Rng::new(seed);
    let limits = Limits {
        nodes: Some(settings.nodes),
        rules: settings.rules,
        eval: settings.eval.clone(),
        unscaled_eval: true,
        ..Limits::default()
    };
    player.new_game();
    let mut pos = loop {
        if stop() {
            return None;
        }
        let pos = random_start(openings, settings, &mut rng);
        let (_, value) = player.search(&pos, &limits);
        if value.abs() <= settings.max_start_score {
            break pos;
        }
        player.new_game();
    };
    let first_ply = start_ply(&pos) + pos.game_ply() as u32;
    // Kept positions with their side to move; results filled in at the end.
    let mut kept: Vec<(Record, Color)> = Vec::new();
    // Each searched ply's score from Red's point of view.
    let mut red_scores: Vec<i32> = Vec::new();
    let mut plies = 0usize;
    let result = loop {
        if stop() {
            return None;
        }
        if let GameState::Over(verdict) = judge(&pos, &settings.rules) {
            break verdict.result;
        }
        if plies >= MAX_PLIES {
            break GameResult::Draw;
        }
        let (best, value) = player.search(&pos, &limits);
        let Some(best) = best else {
            // The judge saw a legal move; the search must have one too.
            break GameResult::win_for(pos.side_to_move().opponent());
        };
        let mover = pos.side_to_move();
        let quiet = !pos.in_check() && pos.piece_on(best.to()).is_none();
        if quiet && value.abs() < MATE_BOUND {
            let ply = first_ply + plies as u32;
            kept.push((Record::new(&pos, value, Outcome::Draw, ply), mover));
        }
        red_scores.push(if mover == Color::Red { value } else { -value });
        if let Some(result) = adjudicate(settings, &red_scores) {
            break result;
        }
        pos.make_move(best);
        plies += 1;
    };
    let records = kept
        .into_iter()
        .map(|(mut record, mover)| {
            let outcome = match result {
                GameResult::Draw => Outcome::Draw,
                r if r == GameResult::win_for(mover) => Outcome::Win,
                _ => Outcome::Loss,
            };
            record.set_outcome(outcome);
            record
        })
        .collect();
    Some(GameOutput {
        records,
        result,
        plies,
    })
}

/// A win or draw decided by a run of scores (Red's point of view, one per ply).
fn adjudicate(settings: &GameSettings, red_scores: &[i32]) -> Option<GameResult> {
    let n = red_scores.len();
    if settings.win_plies > 0 && n >= settings.win_plies {
        let recent = &red_scores[n - settings.win_plies..];
        if recent.iter().all(|&s| s >= settings.win_score) {
            return Some(GameResult::RedWins);
        }
        if recent.iter().all(|&s| s <= -settings.win_score) {
            return Some(GameResult::BlackWins);
        }
    }
    if settings.draw_plies > 0 && n >= settings.draw_after.max(settings.draw_plies) {
        let recent = &red_scores[n - settings.draw_plies..];
        if recent.iter().all(|&s| s.abs() <= settings.draw_score) {
            return Some(GameResult::Draw);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_a_function_of_its_seed_and_keeps_only_quiet_positions() {
        let openings = vec![Position::startpos()];
        let settings = GameSettings {
            nodes: 400,
            ..GameSettings::default()
        };
        let stop = || false;
        let mut player = Player::new(1);
        let a = play_game(&mut player, &openings, &settings, 11, &stop).unwrap();
        let b = play_game(&mut Player::new(1), &openings, &settings, 11, &stop).unwrap();
        assert_eq!(a.records, b.records);
        assert!(!a.records.is_empty());
        for r in &a.records {
            let pos = Position::from_fen(&r.to_fen()).unwrap();
            assert!(!pos.in_check(), "{r:?}");
            let expected = match a.result {
                GameResult::Draw => Outcome::Draw,
                w if w == GameResult::win_for(r.side_to_move()) => Outcome::Win,
                _ => Outcome::Loss,
            };
            assert_eq!(r.outcome(), expected);
            assert!(r.ply() >= settings.random_plies as u32);
        }
        assert!(play_game(&mut player, &openings, &settings, 11, &|| true).is_none());
    }

    #[test]
    fn adjudication_needs_a_whole_run() {
        let s = GameSettings::default();
        let mut scores = vec![1200; 7];
        assert_eq!(adjudicate(&s, &scores), None);
        scores.push(1500);
        assert_eq!(adjudicate(&s, &scores), Some(GameResult::RedWins));
        scores.push(-50);
        assert_eq!(adjudicate(&s, &scores), None);
        let quiet = vec![3; 170];
        assert_eq!(adjudicate(&s, &quiet), Some(GameResult::Draw));
        assert_eq!(adjudicate(&s, &quiet[..100]), None);
    }
}
