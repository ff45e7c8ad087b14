//! `chariot review`: a whole game analysed move by move — where it turned, and how well each
//! side played.
//!
//! Every position of the main line is searched (two lines, so that an only move shows), and
//! each move is judged by what it cost its player in **expected score**, not in centipawns:
//! a score `s` (centipawns, side to move) is worth `1 / (1 + e^(−s/335))`, the net's own
//! scale (335 is the K the trainer fitted gen8's search scores to the game results with). In
//! that currency a pawn thrown away in a level position costs much, the same pawn in a won
//! or lost one nearly nothing, which is how players judge errors.
//!
//! The marks, on the expected score a move gave away (the best move's, minus the move
//! played's): `?!` inaccuracy from 0.05, `?` mistake from 0.10, `??` blunder from 0.20 (from
//! a level position: about two thirds of a pawn, one and a third, and a horse). `!` marks the
//! only move: the best, played, when the second best would have given away 0.20 or more and
//! the position was not lost anyway (captures excepted: taking what was offered is no find).
//! A turning point is a move after which the game's
//! verdict (Red winning at an expected score of 0.75 or more, Black at 0.25 or less, or
//! balanced) changed against its player. Accuracy is the mean over a side's moves of
//! `100 · e^(−4.5 · loss)`: 100 for best moves, about 80 for an inaccuracy, 64 for a mistake,
//! 41 for a blunder.
//!
//! Positions are analysed in parallel, one single-threaded search each with its own table,
//! cleared before every position, rather than one position at a time on Lazy-SMP threads:
//! the positions are independent work, so two threads review a game 2.08 times as fast as
//! one (a 195-ply game at 600,000 nodes a position: 23.7 s against 49.1 s on this 2-core
//! machine), where two Lazy-SMP threads reach a depth 1.80 times as fast as one (the
//! README's figure). And with `--nodes` (the default) the report is the same whatever the
//! number of threads and whichever thread took which position, which Lazy-SMP's shared
//! table cannot give.

pub mod report;

use crate::core::{Color, Move};
use crate::eval::Evaluator;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::threads::SearchPool;
use crate::search::timeman::TimeBudget;
use crate::search::{IterationInfo, Limits, MATE, Reporter, SearchResult};
use crate::tools::gamefile::Game;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The net's scale: expected score = logistic(score / K).
const K: f64 = 335.0;
pub const INACCURACY: f64 = 0.05;
pub const MISTAKE: f64 = 0.10;
pub const BLUNDER: f64 = 0.20;
/// An expected score at or beyond which a side is winning.
const WINNING: f64 = 0.75;

/// How long each position is searched, and with what.
#[derive(Clone, Debug)]
pub struct Settings {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub time: Option<std::time::Duration>,
    pub threads: usize,
    pub hash_mb: usize,
    pub rules: Rules,
    pub eval: Evaluator,
}

/// The expected score of `value` (centipawns, or a mate score) for the side it is from.
pub fn expected_score(value: i32) -> f64 {
    if value.abs() >= MATE - 1000 {
        return if value > 0 { 1.0 } else { 0.0 };
    }
    1.0 / (1.0 + (-f64::from(value) / K).exp())
}

/// What the search found in one position.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// From the side to move's view.
    pub value: i32,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    /// The second line's value (side to move), if there is a second legal move.
    pub second: Option<i32>,
    pub depth: i32,
    pub nodes: u64,
}

/// Keeps the last complete iteration's two lines.
#[derive(Default)]
struct Capture {
    lines: Mutex<[Option<IterationInfo>; 2]>,
}

impl Reporter for Capture {
    fn iteration(&self, info: &IterationInfo) {
        if info.bound.is_some() || !(1..=2).contains(&info.multipv) {
            return;
        }
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if info.multipv == 1 {
            lines[1] = None;
        }
        lines[info.multipv - 1] = Some(info.clone());
    }
}

fn analyse(pool: &mut SearchPool, pos: &Position, settings: &Settings) -> Analysis {
    pool.clear();
    let capture = std::sync::Arc::new(Capture::default());
    let limits = Limits {
        depth: settings.depth,
        nodes: settings.nodes,
        time: settings.time.map(|d| TimeBudget { soft: d, hard: d }),
        multipv: 2,
        rules: settings.rules,
        eval: settings.eval.clone(),
        ..Limits::default()
    };
    let result: SearchResult = pool.search_sync(pos, limits, capture.clone());
    let lines = capture.lines.lock().unwrap_or_else(|e| e.into_inner());
    let first = lines[0].as_ref();
    Analysis {
        value: first.map_or(result.value, |l| l.value),
        best: result.best,
        pv: first.map_or_else(Vec::new, |l| l.pv.clone()),
        second: lines[1].as_ref().map(|l| l.value),
        depth: result.depth,
        nodes: result.nodes,
    }
}

/// Searches every position of `game`'s main line (the start and after each move), on
/// `settings.threads` threads; `progress` is told each finished position. `stop` set ends
/// the work early: the positions not reached stay `None`.
pub fn analyse_game(
    game: &Game,
    settings: &Settings,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Option<Analysis>> {
    let mut positions = vec![game.start.clone()];
    for &mv in &game.moves {
        let mut next = positions.last().expect("one at least").clone();
        next.make_move(mv);
        positions.push(next);
    }
    let results: Mutex<Vec<Option<Analysis>>> = Mutex::new(vec![None; positions.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let hash = settings.hash_mb.max(1);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.clamp(1, positions.len().max(1)) {
            scope.spawn(|| {
                let mut pool = SearchPool::new(1, hash);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= positions.len() || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let a = analyse(&mut pool, &positions[i], settings);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(a);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// A move's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Only,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Only => "!",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// One move judged.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// 1-based.
    pub ply: usize,
    pub mover: Color,
    pub played: Move,
    /// Scores before and after the move, from Red's view (centipawns or mate scores).
    pub before: i32,
    pub after: i32,
    pub best: Option<Move>,
    /// The best line from the position before the move.
    pub best_line: Vec<Move>,
    /// Expected score the move gave away (0 to 1), and centipawns (capped at 1000).
    pub loss: f64,
    pub cp_loss: i32,
    pub mark: Option<Mark>,
    /// The verdict changed against the mover with this move.
    pub turning: bool,
}

/// A side's figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct SideSummary {
    pub moves: usize,
    pub average_cp_loss: f64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    pub accuracy: f64,
}

fn red_view(value: i32, side: Color) -> i32 {
    if side == Color::Red { value } else { -value }
}

/// The verdict of a position from Red's expected score: 1 Red winning, -1 Black, 0 level.
fn verdict(red_expected: f64) -> i32 {
    if red_expected >= WINNING {
        1
    } else if red_expected <= 1.0 - WINNING {
        -1
    } else {
        0
    }
}

/// Judges every move whose two positions were analysed.
pub fn judge(game: &Game, analyses: &[Option<Analysis>]) -> Vec<MoveReview> {
    let mut pos = game.start.clone();
    let mut out = Vec::new();
    for (i, &mv) in game.moves.iter().enumerate() {
        let mover = pos.side_to_move();
        let (Some(Some(a)), Some(Some(b))) = (analyses.get(i), analyses.get(i + 1)) else {
            break;
        };
        // Mover's view: the best available against what the move left.
        let best_value = a.value;
        // The best move costs nothing, whatever the next search makes of it.
        let played_value = if a.best == Some(mv) {
            best_value
        } else {
            -b.value
        };
        let loss = (expected_score(best_value) - expected_score(played_value)).max(0.0);
        let cp_loss = (best_value.clamp(-1000, 1000) - played_value.clamp(-1000, 1000)).max(0);
        // A capture is not marked as an only move: taking what was offered is no find.
        let capture = pos.piece_on(mv.to()).is_some();
        let only = a.best == Some(mv)
            && !capture
            && a.second.is_some_and(|s| {
                expected_score(best_value) - expected_score(s) >= BLUNDER
                    && expected_score(best_value) > 1.0 - WINNING
            });
        let mark = if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else if only {
            Some(Mark::Only)
        } else {
            None
        };
        let before = red_view(a.value, mover);
        let after = red_view(-b.value, mover);
        let sign = if mover == Color::Red { 1 } else { -1 };
        let (v0, v1) = (
            verdict(expected_score(before)),
            verdict(expected_score(after)),
        );
        pos.make_move(mv);
        out.push(MoveReview {
            ply: i + 1,
            mover,
            played: mv,
            before,
            after,
            best: a.best,
            best_line: a.pv.clone(),
            loss,
            cp_loss,
            mark,
            turning: v1 * sign < v0 * sign,
        });
    }
    out
}

/// Each side's figures (Red's, then Black's).
pub fn summarise(moves: &[MoveReview]) -> [SideSummary; 2] {
    let mut out = [SideSummary::default(); 2];
    for (side, summary) in [Color::Red, Color::Black].into_iter().zip(out.iter_mut()) {
        let own: Vec<&MoveReview> = moves.iter().filter(|m| m.mover == side).collect();
        if own.is_empty() {
            continue;
        }
        let n = own.len() as f64;
        summary.moves = own.len();
        summary.average_cp_loss = own.iter().map(|m| f64::from(m.cp_loss)).sum::<f64>() / n;
        let count = |mark| own.iter().filter(|m| m.mark == Some(mark)).count();
        summary.inaccuracies = count(Mark::Inaccuracy);
        summary.mistakes = count(Mark::Mistake);
        summary.blunders = count(Mark::Blunder);
        summary.accuracy = own
            .iter()
            .map(|m| 100.0 * (-4.5 * m.loss).exp())
            .sum::<f64>()
            / n;
    }
    out
}
