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
//!
//! `--squares EPOCHS [--l2 W]` fits, instead of the weights, a correction per piece kind and
//! point (`chariot::eval::SquareAdjust`) on top of the table in the build, by gradient
//! descent (Adam) on the same error plus `W` times the sum of squared corrections, and prints
//! the source of `src/eval/square_adjust.rs`.

use chariot::eval::{
    EvalParams, HALF_POINTS, SQUARE_ADJUST, SquareAdjust, SquareTable, Value, evaluate_tuned,
    half_point, square_sensitivity,
};
use chariot::position::START_FEN;
use chariot::tools::pgn::{PgnGame, read_games};
use chariot::{Color, PieceKind, Position};
use rayon::prelude::*;
use std::collections::HashSet;

const USAGE: &str = "usage: tune_eval [--from WEIGHTS] [--limit PERCENT] [--only NAME,…] [--squares EPOCHS [--l2 W]] GAMES.pgn [MORE.pgn …]";

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
    let mut square_epochs = None;
    let mut l2 = 1e-9;
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
            "--squares" => match value.parse::<usize>() {
                Ok(n) if n > 0 => square_epochs = Some(n),
                _ => {
                    eprintln!("error: --squares takes a number of epochs, not '{value}'");
                    std::process::exit(2);
                }
            },
            "--l2" => match value.parse::<f64>() {
                Ok(x) if x >= 0.0 => l2 = x,
                _ => {
                    eprintln!("error: --l2 takes a non-negative number, not '{value}'");
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

    if let Some(epochs) = square_epochs {
        let fitted = fit_squares(&params, &train, &test, k, epochs, l2);
        let end_train = error_with(&params, &fitted, &train, k);
        let end_test = error_with(&params, &fitted, &test, k);
        eprintln!("error after: training {end_train:.6}, held out {end_test:.6}");
        print!("{}", square_adjust_text(&fitted));
        return;
    }

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
    error_with(params, &SQUARE_ADJUST, samples, k)
}

/// `error` with the per-point corrections `adjust`.
fn error_with(params: &EvalParams, adjust: &SquareAdjust, samples: &[Sample], k: f64) -> f64 {
    let table = SquareTable::with_adjust(params, adjust);
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

/// The most one `--squares` fit moves a point's correction, in centipawns: rare points get
/// their value from few games, and a correction refines the rules, it does not replace them.
const SQUARE_LIMIT: f64 = 80.0;

/// One sample as the square fit sees it: Red's evaluation now, the taper weights of a
/// square value (from `square_sensitivity`), and its pieces as (kind × `HALF_POINTS` +
/// point, +1 for Red or −1 for Black).
struct SquareSample {
    eval: f64,
    result: f64,
    mg: f64,
    eg: f64,
    pieces: Vec<(u16, f64)>,
}

impl SquareSample {
    fn new(params: &EvalParams, table: &SquareTable, sample: &Sample) -> SquareSample {
        let pos = &sample.pos;
        let eval = red_eval(params, table, pos);
        let tempo = if pos.side_to_move() == Color::Red {
            params.tempo
        } else {
            -params.tempo
        };
        let strong = if eval - tempo > 0 {
            Color::Red
        } else {
            Color::Black
        };
        let (mg, eg) = square_sensitivity(pos, strong);
        let mut pieces = Vec::with_capacity(32);
        for color in Color::BOTH {
            let sign = if color == Color::Red { 1.0 } else { -1.0 };
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    let rel = if color == Color::Red {
                        sq
                    } else {
                        sq.flip_rank()
                    };
                    let index = kind.index() * HALF_POINTS + half_point(rel.index());
                    pieces.push((index as u16, sign));
                }
            }
        }
        SquareSample {
            eval: eval as f64,
            result: sample.result,
            mg: mg as f64 / 256.0,
            eg: eg as f64 / 256.0,
            pieces,
        }
    }

    /// The evaluation with corrections `delta` (middlegame, endgame per feature) added.
    fn eval_with(&self, delta: &[(f64, f64)]) -> f64 {
        self.eval
            + self
                .pieces
                .iter()
                .map(|&(i, sign)| {
                    sign * (self.mg * delta[i as usize].0 + self.eg * delta[i as usize].1)
                })
                .sum::<f64>()
    }
}

/// Fits per-point corrections on top of `SQUARE_ADJUST` by gradient descent (Adam, full
/// batch, `epochs` passes) on the training error plus `l2` times the sum of squared
/// corrections. The evaluation is linear in a square value but for integer rounding and the
/// ending scale's choice of the leading side, both held as they are at the start.
fn fit_squares(
    params: &EvalParams,
    train: &[Sample],
    test: &[Sample],
    k: f64,
    epochs: usize,
    l2: f64,
) -> SquareAdjust {
    let table = SquareTable::new(params);
    let prepare = |samples: &[Sample]| -> Vec<SquareSample> {
        samples
            .par_iter()
            .map(|s| SquareSample::new(params, &table, s))
            .collect()
    };
    let (train, test) = (prepare(train), prepare(test));
    let features = 7 * HALF_POINTS;
    let slope = k * std::f64::consts::LN_10 / 400.0;
    let predict = |e: f64| 1.0 / (1.0 + 10f64.powf(-k * e / 400.0));
    let loss = |samples: &[SquareSample], delta: &[(f64, f64)]| -> f64 {
        samples
            .par_iter()
            .map(|s| (s.result - predict(s.eval_with(delta))).powi(2))
            .sum::<f64>()
            / samples.len().max(1) as f64
    };
    let mut delta = vec![(0.0, 0.0); features];
    let mut moment = vec![(0.0, 0.0); features];
    let mut velocity = vec![(0.0, 0.0); features];
    let (rate, beta1, beta2) = (0.5, 0.9, 0.999);
    for epoch in 1..=epochs {
        let n = train.len().max(1) as f64;
        let gradient = train
            .par_iter()
            .fold(
                || vec![(0.0, 0.0); features],
                |mut g, s| {
                    let p = predict(s.eval_with(&delta));
                    let d = -2.0 * (s.result - p) * p * (1.0 - p) * slope / n;
                    for &(i, sign) in &s.pieces {
                        g[i as usize].0 += d * sign * s.mg;
                        g[i as usize].1 += d * sign * s.eg;
                    }
                    g
                },
            )
            .reduce(
                || vec![(0.0, 0.0); features],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        x.0 += y.0;
                        x.1 += y.1;
                    }
                    a
                },
            );
        let t = epoch as i32;
        for i in 0..features {
            let g = (
                gradient[i].0 + 2.0 * l2 * delta[i].0,
                gradient[i].1 + 2.0 * l2 * delta[i].1,
            );
            let step = |d: &mut f64, m: &mut f64, v: &mut f64, g: f64| {
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                let m_hat = *m / (1.0 - beta1.powi(t));
                let v_hat = *v / (1.0 - beta2.powi(t));
                *d =
                    (*d - rate * m_hat / (v_hat.sqrt() + 1e-12)).clamp(-SQUARE_LIMIT, SQUARE_LIMIT);
            };
            step(&mut delta[i].0, &mut moment[i].0, &mut velocity[i].0, g.0);
            step(&mut delta[i].1, &mut moment[i].1, &mut velocity[i].1, g.1);
        }
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!(
                "epoch {epoch}: training {:.6}, held out {:.6}",
                loss(&train, &delta),
                loss(&test, &delta)
            );
        }
    }
    let mut adjust = SQUARE_ADJUST;
    for kind in 0..7 {
        for point in 0..HALF_POINTS {
            let (mg, eg) = delta[kind * HALF_POINTS + point];
            adjust[kind][point].0 += mg.round() as Value;
            adjust[kind][point].1 += eg.round() as Value;
        }
    }
    adjust
}

/// The corrections as the source of `src/eval/square_adjust.rs`.
fn square_adjust_text(adjust: &SquareAdjust) -> String {
    let mut text = String::from(
        "//! Per-point corrections to the square bonuses (see `SquareAdjust`). Written by\n\
         //! `cargo run --release --example tune_eval -- --squares …`; not edited by hand.\n\n\
         use super::SquareAdjust;\n\n\
         #[rustfmt::skip]\n\
         pub const SQUARE_ADJUST: SquareAdjust = [\n",
    );
    for (kind, points) in PieceKind::ALL.iter().zip(adjust) {
        text += &format!(
            "    // {kind:?}: (middlegame, endgame) by rank 0-9 (Red's view), files a-e\n    [\n"
        );
        for rank in points.chunks(5) {
            let row: Vec<String> = rank
                .iter()
                .map(|(mg, eg)| format!("({mg:4}, {eg:4})"))
                .collect();
            text += &format!("        {},\n", row.join(", "));
        }
        text += "    ],\n";
    }
    text + "];\n"
}
