//! `chariot train`: fits the NNUE (`eval::nnue`) to self-play data, on the CPU.
//!
//! The positions are read once into memory (32 bytes each); the last `val_fraction` of
//! them (the end of the last file, so whole games apart from one) is held out for the
//! validation loss. Each epoch shuffles the rest with the seed, cuts it into mini-batches,
//! and splits each batch into one fixed chunk per thread; the chunks' gradients are added in
//! chunk order, so the same data, seed and thread count give the same net byte for byte.
//! Adam (optionally AdamW's decoupled weight decay) with a cosine learning-rate decay; the
//! weights are clipped to the quantisable range after every step. Half the positions, a
//! different half each epoch, are mirrored left to right (`--no-mirror` turns that off). After each epoch a
//! checkpoint (model and optimiser) can be written, and `--resume` continues from one.

pub mod model;
pub mod result_weight;

use crate::tools::datagen::format::{DataReader, Record};
use crate::tools::rng::Rng;
use model::{Adam, Grad, Model, sigmoid};
use rayon::prelude::*;
use result_weight::ResultWeight;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Everything a training run needs.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub data: Vec<PathBuf>,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate at the end, as a fraction of `lr` (cosine decay between).
    pub lr_end: f32,
    pub decay: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub lambda: f32,
    /// The result's weight at the end of each game, fading to `lambda` over `near_plies`
    /// (`result_weight`); `None`: `lambda` everywhere.
    pub lambda_near: Option<f32>,
    pub near_plies: u32,
    /// Score scale of the sigmoid; `None`: fitted to the data.
    pub k: Option<f32>,
    pub val_fraction: f32,
    pub seed: u64,
    pub threads: usize,
    /// Use at most this many positions (the first ones).
    pub max_positions: Option<usize>,
    /// Write a checkpoint here after every epoch.
    pub checkpoint: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    /// Mirror (flip files of) half the training positions each epoch, a different half
    /// every epoch.
    pub mirror: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            data: Vec::new(),
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            lr_end: 0.05,
            decay: 0.0,
            lambda: 0.3,
            lambda_near: None,
            near_plies: 100,
            k: None,
            val_fraction: 0.05,
            seed: 1,
            threads: 2,
            max_positions: None,
            checkpoint: None,
            resume: None,
            mirror: true,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f32,
    pub val_loss: f32,
    pub positions_per_second: f64,
    pub elapsed: Duration,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub model: Model,
    pub k: f32,
    pub train_positions: usize,
    pub val_positions: usize,
    /// Validation loss of predicting with the search score alone (a floor no static
    /// evaluation reaches).
    pub score_baseline: f32,
    /// Validation loss of predicting with the hand-crafted static evaluation (the bar a net
    /// must clear before a match is worth playing).
    pub hce_baseline: f32,
    pub epochs: Vec<EpochReport>,
    /// The mean weight of the results in the targets (`lambda` unless it fades).
    pub mean_lambda: f32,
}

/// Watches a run.
pub trait TrainProgress: Sync {
    fn batch(&self, _epoch: usize, _done: usize, _total: usize, _loss: f32) {}
    fn epoch(&self, _report: &EpochReport) {}
}

/// Reads every position of the files (each checked as it is read).
pub fn load(paths: &[PathBuf], limit: Option<usize>) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for path in paths {
        let mut reader = DataReader::open(path)?;
        while let Some(r) = reader.next_record()? {
            if limit.is_some_and(|l| out.len() >= l) {
                return Ok(out);
            }
            out.push(r);
        }
    }
    Ok(out)
}

/// The training target of a record.
#[inline]
pub fn target(record: &Record, lambda: f32, k: f32) -> f32 {
    lambda * record.outcome().points() + (1.0 - lambda) * sigmoid(record.score() as f32 / k)
}

/// The `K` for which `σ(score / K)` best predicts the results (golden-section search).
pub fn fit_k(records: &[Record]) -> f32 {
    let step = (records.len() / 200_000).max(1);
    let error = |k: f32| -> f64 {
        records
            .iter()
            .step_by(step)
            .map(|r| {
                let e = sigmoid(r.score() as f32 / k) - r.outcome().points();
                (e * e) as f64
            })
            .sum()
    };
    let (mut lo, mut hi) = (20.0f32, 3000.0f32);
    let g = 0.618_034f32;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The mean of `loss` over `records`, in parallel: fixed chunks, summed in order, so the
/// figure does not depend on the thread count.
/// `loss` is given each record's index in `records`.
fn mean_of(records: &[Record], loss: impl Fn(usize, &Record) -> f32 + Sync) -> f32 {
    const CHUNK: usize = 4096;
    if records.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = records
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            chunk
                .iter()
                .enumerate()
                .map(|(j, r)| loss(c * CHUNK + j, r) as f64)
                .sum()
        })
        .collect();
    (sums.iter().sum::<f64>() / records.len() as f64) as f32
}

/// The result's weight of record `i` of `records`, which start at index `first` of the
/// records `weight` was made for.
type Lambdas<'a> = (&'a ResultWeight, usize);

/// Mean loss of `model` over `records`.
pub fn mean_loss(model: &Model, records: &[Record], (w, first): Lambdas, k: f32) -> f32 {
    mean_of(records, |i, r| {
        model.loss(r, target(r, w.at(first + i), k), k)
    })
}

/// Mean loss of a prediction of `σ(score / K)` from each record's own search score.
pub fn score_loss(records: &[Record], (w, first): Lambdas, k: f32) -> f32 {
    mean_of(records, |i, r| {
        let e = sigmoid(r.score() as f32 / k) - target(r, w.at(first + i), k);
        e * e
    })
}

/// Mean loss of the hand-crafted evaluation's static score as the prediction.
pub fn hce_loss(records: &[Record], (w, first): Lambdas, k: f32) -> f32 {
    mean_of(records, |i, r| {
        let score = crate::position::Position::from_fen(&r.to_fen())
            .map_or(0, |pos| crate::eval::evaluate(&pos));
        let e = sigmoid(score as f32 / k) - target(r, w.at(first + i), k);
        e * e
    })
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"CHARCKPT";

fn write_checkpoint(
    path: &PathBuf,
    epoch: usize,
    model: &Model,
    adam: &Adam,
) -> Result<(), String> {
    let mut bytes = CHECKPOINT_MAGIC.to_vec();
    bytes.extend_from_slice(&(epoch as u64).to_le_bytes());
    bytes.extend_from_slice(&adam.t.to_le_bytes());
    for m in [model, &adam.m, &adam.v] {
        bytes.extend_from_slice(&m.to_bytes());
    }
    let partial = crate::tools::datagen::partial_name(path);
    std::fs::write(&partial, &bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a checkpoint: the epochs done, the model and the optimiser.
pub fn read_checkpoint(path: &PathBuf) -> Result<(usize, Model, Adam), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bad = |why: String| format!("{}: not a usable checkpoint: {why}", path.display());
    if bytes.len() < 24 || &bytes[..8] != CHECKPOINT_MAGIC {
        return Err(bad("no CHARCKPT magic".into()));
    }
    let epoch = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")) as usize;
    let t = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let body = &bytes[24..];
    if body.len() % 3 != 0 {
        return Err(bad("wrong size".into()));
    }
    let third = body.len() / 3;
    let model = Model::from_bytes(&body[..third]).map_err(bad)?;
    let m = Model::from_bytes(&body[third..2 * third]).map_err(bad)?;
    let v = Model::from_bytes(&body[2 * third..]).map_err(bad)?;
    Ok((epoch, model, Adam { m, v, t }))
}

/// Trains on `records` (already loaded); see the module docs.
pub fn train_on(
    config: &TrainConfig,
    records: &[Record],
    progress: &dyn TrainProgress,
) -> Result<TrainReport, String> {
    if records.len() < 2 {
        return Err(format!(
            "{} positions are too few to train on",
            records.len()
        ));
    }
    for lambda in std::iter::once(config.lambda).chain(config.lambda_near) {
        if !(lambda.is_finite() && (0.0..=1.0).contains(&lambda)) {
            return Err(format!("lambda {lambda} is not in 0..1"));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let val_len = ((records.len() as f32 * config.val_fraction) as usize).min(records.len() - 1);
    let (train, val) = records.split_at(records.len() - val_len);
    let weight = match config.lambda_near {
        Some(near) => ResultWeight::fading(records, config.lambda, near, config.near_plies),
        None => ResultWeight::constant(config.lambda),
    };
    let val_lambdas = (&weight, train.len());
    let k = config.k.unwrap_or_else(|| fit_k(train));
    let (start_epoch, mut model, mut adam) = match &config.resume {
        Some(path) => read_checkpoint(path)?,
        None => (0, Model::random(config.seed), Adam::new()),
    };
    let score_baseline = pool.install(|| score_loss(val, val_lambdas, k));
    let hce_baseline = pool.install(|| hce_loss(val, val_lambdas, k));
    let threads = config.threads.max(1);
    let batch = config.batch.clamp(1, train.len());
    let batches = train.len().div_ceil(batch);
    let total_steps = (config.epochs * batches).max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Model::zeros()).collect();
    let mut total = Model::zeros();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut epochs = Vec::new();
    for epoch in start_epoch..config.epochs {
        let started = Instant::now();
        let mut rng = Rng::new(Rng::derive(config.seed, epoch as u64));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut loss_sum = 0.0f64;
        for (b, indices) in order.chunks(batch).enumerate() {
            let step = epoch * batches + b;
            let progress_fraction = step as f32 / total_steps as f32;
            let lr = config.lr
                * (config.lr_end
                    + (1.0 - config.lr_end)
                        * 0.5
                        * (1.0 + (std::f32::consts::PI * progress_fraction).cos()));
            let per_thread = indices.len().div_ceil(threads);
            let losses: Vec<f64> = pool.install(|| {
                grads
                    .par_iter_mut()
                    .zip(indices.par_chunks(per_thread.max(1)))
                    .map(|(grad, chunk)| {
                        grad.clear();
                        chunk
                            .iter()
                            .map(|&i| {
                                let r = &train[i as usize];
                                let mirror =
                                    config.mirror && Rng::derive(epoch as u64, i as u64) & 1 == 1;
                                let t = target(r, weight.at(i as usize), k);
                                model.backward(r, mirror, t, k, grad) as f64
                            })
                            .sum()
                    })
                    .collect()
            });
            total.clear();
            let used = indices.len().div_ceil(per_thread.max(1));
            for g in &grads[..used] {
                total.add(g);
            }
            let scale = 1.0 / indices.len() as f32;
            total.w1.iter_mut().for_each(|g| *g *= scale);
            total.b1.iter_mut().for_each(|g| *g *= scale);
            total.w2.iter_mut().for_each(|g| *g *= scale);
            total.b2.iter_mut().for_each(|g| *g *= scale);
            adam.step(&mut model, &total, lr, config.decay);
            let batch_loss: f64 = losses.iter().sum();
            loss_sum += batch_loss;
            progress.batch(
                epoch + 1,
                b + 1,
                batches,
                (batch_loss / indices.len() as f64) as f32,
            );
        }
        let elapsed = started.elapsed();
        let val_loss = pool.install(|| mean_loss(&model, val, val_lambdas, k));
        let report = EpochReport {
            epoch: epoch + 1,
            train_loss: (loss_sum / train.len() as f64) as f32,
            val_loss,
            positions_per_second: train.len() as f64 / elapsed.as_secs_f64().max(1e-9),
            elapsed,
        };
        progress.epoch(&report);
        epochs.push(report);
        if let Some(path) = &config.checkpoint {
            write_checkpoint(path, epoch + 1, &model, &adam)?;
        }
    }
    Ok(TrainReport {
        model,
        k,
        train_positions: train.len(),
        val_positions: val.len(),
        score_baseline,
        hce_baseline,
        epochs,
        mean_lambda: weight.mean(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue;
    use crate::position::Position;
    use crate::tools::datagen::selfplay::{GameSettings, Player, play_game};

    /// A few hundred positions of hand-crafted self-play: fixed data that does not change
    /// when the shipped net does.
    fn tiny_data() -> Vec<Record> {
        let settings = GameSettings {
            nodes: 300,
            eval: crate::eval::Evaluator::Hce,
            ..GameSettings::default()
        };
        let openings = vec![Position::startpos()];
        let mut player = Player::new(1);
        let mut out = Vec::new();
        for seed in 0..12 {
            let game = play_game(&mut player, &openings, &settings, seed, &|| false).unwrap();
            out.extend(game.records);
        }
        out
    }

    #[test]
    fn loss_falls_the_net_is_reproducible_and_the_integer_net_agrees() {
        let data = tiny_data();
        assert!(data.len() > 200, "{} positions", data.len());
        let config = TrainConfig {
            epochs: 6,
            batch: 64,
            lr: 0.01,
            k: Some(300.0),
            threads: 2,
            ..TrainConfig::default()
        };
        let report = train_on(&config, &data, &NoProgress).unwrap();
        let first = report.epochs.first().unwrap().train_loss;
        let last = report.epochs.last().unwrap().train_loss;
        assert!(last < first * 0.8, "training loss {first} -> {last}");
        let again = train_on(&config, &data, &NoProgress).unwrap();
        assert_eq!(
            again.model, report.model,
            "same data, seed and threads, same net"
        );

        // The quantised net scores within a few centipawns of the float model: rounding
        // each weight to 1/255 leaves a noise of a few centipawns, never a bias. (Over
        // other sets of 12 games the mean was 3.3-4.2 cp and the worst 13-24 cp; a
        // wrong scale anywhere is off by far more.)
        let net = report.model.quantise();
        let (mut worst, mut sum, mut bias, mut n) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
        for r in data.iter().step_by(3) {
            let pos = Position::from_fen(&r.to_fen()).unwrap();
            let float = report.model.evaluate(r);
            let int = nnue::evaluate(&net, &pos) as f32;
            worst = worst.max((float - int).abs());
            sum += (float - int).abs();
            bias += int - float;
            n += 1.0;
        }
        let (mean, bias) = (sum / n, bias / n);
        eprintln!("integer against float: mean {mean:.2} cp, worst {worst:.2} cp, bias {bias:.2}");
        assert!(
            mean <= 5.0 && worst <= 30.0 && bias.abs() <= 2.0,
            "mean {mean}, worst {worst}, bias {bias}"
        );
    }

    struct NoProgress;
    impl TrainProgress for NoProgress {}

    #[test]
    fn k_fits_the_scale_of_the_scores() {
        // Results drawn as σ(score / 250) says: the fit finds about 250.
        let pos = Position::startpos();
        let mut rng = Rng::new(3);
        let records: Vec<Record> = (0..40_000)
            .map(|_| {
                let score = rng.below(1200) as i32 - 600;
                let p = sigmoid(score as f32 / 250.0);
                let outcome = if rng.unit() < p {
                    crate::tools::datagen::format::Outcome::Win
                } else {
                    crate::tools::datagen::format::Outcome::Loss
                };
                Record::new(&pos, score, outcome, 0)
            })
            .collect();
        let k = fit_k(&records);
        assert!((200.0..310.0).contains(&k), "K = {k}");
    }
}
