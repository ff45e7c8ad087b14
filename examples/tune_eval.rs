//! Tunes the evaluation weights (`chariot::eval::EvalParams`) on games Chariot played, by the
//! Texel method: find the weights under which the static evaluation best predicts each
//! position's game result, `result ≈ 1 / (1 + 10^(-K · eval / 400))`.
//!
//! ```text
//! cargo run --release --example tune_eval -- [--from WEIGHTS] [--limit PERCENT] [--only NAMES] GAMES.pgn …
//! ```
//!
//! Positions: every position of every game (from ply 8 on) where the side to move is not in
//! check and the move played is not a capture, so the static evaluation is about a quiet
//! position; duplicates are dropped. One position in ten is held out to check that the fit
//! generalises. The search is a coordinate descent: each weight in turn is moved up or down by
//! a step while that lowers the error, with steps 8, 4, 2 and 1 cp. The result is printed in
//! the form of the `eval_params!` list, ready to replace the one in `src/eval.rs`, and after
//! every pass to standard error; `--from` resumes from such a list (`name: value,` lines).
//! `--limit P` keeps every weight within P% (and at least 20 cp) of its default: game results
//! of fast games correlate with much besides the position's worth (a raised king, a pawn on
//! the last rank, lost defenders all come late in lost games), and an unbounded fit follows
//! those correlations to weights no player would accept. `--only a,b,c` tunes just the named
//! weights (say, new terms) and keeps every other one as it is.

use chariot::eval::{EvalParams, SquareTable, Value, evaluate_tuned};
use chariot::position::START_FEN;
use chariot::tools::pgn::{PgnGame, read_games};
use chariot::{Color, Position};
use rayon::prelude::*;
use std::collections::HashSet;

const USAGE: &str =
    "usage: tune_eval [--from WEIGHTS] [--limit PERCENT] [--only NAME,…] GAMES.pgn [MORE.pgn …]";

/// Plies skipped at the start of each game (the opening book's moves and the first replies).
const SKIP_PLIES: usize = 8;

/// One training position: the board and the game's result for Red (1, ½ or 0).
struct Sample {
    pos: Position,
    result: f64,
}

fn main() {
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    let mut params = EvalParams::DEFAULT;
    let mut limit_percent = None;
    let mut only: Option<Vec<usize>> = None;
    while files.first().is_some_and(|a| a.starts_with("--")) {
        let option = files.remove(0);
        if files.is_empty() {
            eprintln!("error: {option} needs a value\n{USAGE}");
            std::process::exit(2);
        }
        let value = files.remove(0);
        match option.as_str() {
            "--from" => read_weights(&value, &mut params),
            "--limit" => match value.parse::<Value>() {
                Ok(p) if p >= 0 => limit_percent = Some(p),
                _ => {
                    eprintln!("error: --limit takes a percentage, not '{value}'");
                    std::process::exit(2);
                }
            },
            "--only" => {
                let mut indices = Vec::new();
                for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    match EvalParams::NAMES.iter().position(|n| *n == name) {
                        Some(i) => indices.push(i),
                        None => {
                            eprintln!("error: --only: no weight is called '{name}'");
                            std::process::exit(2);
                        }
                    }
                }
                only = Some(indices);
            }
            other => {
                eprintln!("error: unknown option {other}\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    let mut defaults = EvalParams::DEFAULT;
    let bounds: Vec<(Value, Value)> = defaults
        .values_mut()
        .into_iter()
        .map(|d| match limit_percent {
            Some(p) => {
                let room = (d.abs() * p / 100).max(20);
                (*d - room, *d + room)
            }
            None => (Value::MIN / 4, Value::MAX / 4),
        })
        .collect();
    if files.is_empty() {
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let mut seen = HashSet::new();
    let mut samples = Vec::new();
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(err) => {
                eprintln!("error: cannot read {file}: {err}");
                std::process::exit(1);
            }
        };
        for game in read_games(&text) {
            collect_samples(&game, &mut seen, &mut samples);
        }
    }
    let mut train = Vec::new();
    let mut test = Vec::new();
    for (i, sample) in samples.into_iter().enumerate() {
        if i % 10 == 0 {
            test.push(sample);
        } else {
            train.push(sample);
        }
    }
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        test.len()
    );

    let k = fit_scale(&params, &train);
    eprintln!("scale K = {k:.3}");
    let start_train = error(&params, &train, k);
    let start_test = error(&params, &test, k);
    eprintln!("error before: training {start_train:.6}, held out {start_test:.6}");

    let mut best = start_train;
    for step in [8, 4, 2, 1] {
        loop {
            let mut improved = false;
            for (i, &(low, high)) in bounds.iter().enumerate() {
                if only.as_ref().is_some_and(|o| !o.contains(&i)) {
                    continue;
                }
                for delta in [step, -step] {
                    let mut trial = params;
                    let value = *trial.values_mut()[i] + delta;
                    if value < low || value > high {
                        continue;
                    }
                    *trial.values_mut()[i] = value;
                    let e = error(&trial, &train, k);
                    if e < best {
                        best = e;
                        params = trial;
                        improved = true;
                        break;
                    }
                }
            }
            eprintln!("step {step}: training error {best:.6}");
            eprintln!("{}", weights_text(&params));
            if !improved {
                break;
            }
        }
    }
    let end_test = error(&params, &test, k);
    eprintln!("error after: training {best:.6}, held out {end_test:.6}");

    print!("{}", weights_text(&params));
}

/// The weights as `eval_params!` lines.
fn weights_text(params: &EvalParams) -> String {
    let mut copy = *params;
    EvalParams::NAMES
        .iter()
        .zip(copy.values_mut())
        .map(|(name, value)| format!("    {name}: {value},\n"))
        .collect()
}

/// Sets the weights named in a file of `name: value,` lines (others keep their value).
fn read_weights(path: &str, params: &mut EvalParams) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| {
        eprintln!("error: cannot read {path}: {err}");
        std::process::exit(1);
    });
    for line in text.lines() {
        let Some((name, value)) = line.trim().trim_end_matches(',').split_once(':') else {
            continue;
        };
        let index = EvalParams::NAMES.iter().position(|n| *n == name.trim());
        match (index, value.trim().parse::<Value>()) {
            (Some(i), Ok(v)) => *params.values_mut()[i] = v,
            _ => eprintln!("warning: ignoring line '{line}'"),
        }
    }
}

/// Adds the quiet positions of one game to `samples`.
fn collect_samples(game: &PgnGame, seen: &mut HashSet<u64>, samples: &mut Vec<Sample>) {
    let result = match game.result.as_deref() {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        _ => return,
    };
    let Ok(mut pos) = Position::from_fen(game.fen().unwrap_or(START_FEN)) else {
        return;
    };
    for (ply, token) in game.moves.iter().enumerate() {
        let Ok(mv) = pos.parse_human_move(token) else {
            return;
        };
        let quiet = !pos.in_check() && pos.piece_on(mv.to()).is_none();
        if ply >= SKIP_PLIES && quiet && seen.insert(pos.key()) {
            let fresh = Position::from_fen(&pos.to_fen()).expect("a position's own FEN");
            samples.push(Sample { pos: fresh, result });
        }
        pos.make_move(mv);
    }
}

/// The evaluation of `pos` for Red, in centipawns.
fn red_eval(params: &EvalParams, table: &SquareTable, pos: &Position) -> Value {
    let value = evaluate_tuned(params, table, pos);
    if pos.side_to_move() == Color::Red {
        value
    } else {
        -value
    }
}

/// Mean squared difference between results and predicted results.
fn error(params: &EvalParams, samples: &[Sample], k: f64) -> f64 {
    let table = SquareTable::new(params);
    let total: f64 = samples
        .par_iter()
        .map(|s| {
            let eval = red_eval(params, &table, &s.pos) as f64;
            let predicted = 1.0 / (1.0 + 10f64.powf(-k * eval / 400.0));
            (s.result - predicted).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale `K` that fits the current weights best (a golden-section search).
fn fit_scale(params: &EvalParams, samples: &[Sample]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 3.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(params, samples, a) < error(params, samples, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}
