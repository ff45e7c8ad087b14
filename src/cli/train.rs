//! `chariot train`: fits a net to datagen files and writes the quantised net file.

use clap::Args;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Data files written by `chariot datagen`.
    #[arg(required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// The net file to write.
    #[arg(long, short)]
    pub output: std::path::PathBuf,
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// The learning rate at the end, as a fraction of --lr (cosine decay between).
    #[arg(long, default_value_t = 0.05)]
    pub lr_end: f32,
    /// Decoupled weight decay (AdamW); 0 is plain Adam.
    #[arg(long, default_value_t = 0.0)]
    pub weight_decay: f32,
    /// Weight of the game result in the target, 0..1 (the rest is the search score).
    #[arg(long, default_value_t = 0.3)]
    pub lambda: f32,
    /// The weight of the result for the last position of each game, fading linearly to
    /// --lambda over --near-plies plies before it (default: --lambda everywhere).
    #[arg(long)]
    pub lambda_near: Option<f32>,
    /// How many plies before the end of a game --lambda-near fades over.
    #[arg(long, default_value_t = 100)]
    pub near_plies: u32,
    /// Score scale K of the sigmoid (default: fitted to the data's results).
    #[arg(long)]
    pub k: Option<f32>,
    /// Fraction of the positions (the end of the last file) held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, short, default_value_t = 2)]
    pub threads: usize,
    /// Use only the first N positions.
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Write a checkpoint (model and optimiser) here after every epoch.
    #[arg(long)]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Continue from a checkpoint (its epoch count; --epochs is the total).
    #[arg(long)]
    pub resume: Option<std::path::PathBuf>,
    /// Train on the positions as they are (by default half of them, a different half each
    /// epoch, are mirrored left to right).
    #[arg(long)]
    pub no_mirror: bool,
    /// No live progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: TrainArgs) -> Result<(), String> {
    use chariot::tools::train::{self, EpochReport, TrainConfig, TrainProgress};
    if !(1..=256).contains(&args.threads) {
        return Err(format!(
            "--threads {} is out of range (1 to 256)",
            args.threads
        ));
    }
    if !(args.lr > 0.0 && args.lr < 1.0 && (0.0..=1.0).contains(&args.lr_end)) {
        return Err("--lr must be in (0, 1) and --lr-end in [0, 1]".into());
    }
    if !(0.0..0.9).contains(&args.validation) {
        return Err("--validation must be in [0, 0.9)".into());
    }
    if args.k.is_some_and(|k| !(k > 1.0 && k < 100_000.0)) {
        return Err("--k must be a positive scale in centipawns".into());
    }
    let config = TrainConfig {
        data: args.data.clone(),
        epochs: args.epochs,
        batch: args.batch.max(1),
        lr: args.lr,
        lr_end: args.lr_end,
        decay: args.weight_decay,
        lambda: args.lambda,
        lambda_near: args.lambda_near,
        near_plies: args.near_plies,
        k: args.k,
        val_fraction: args.validation,
        seed: args.seed,
        threads: args.threads,
        max_positions: args.max_positions,
        checkpoint: args.checkpoint.clone(),
        resume: args.resume.clone(),
        mirror: !args.no_mirror,
    };
    let records = train::load(&config.data, config.max_positions)?;
    println!(
        "data: {} positions from {} file(s)",
        records.len(),
        config.data.len()
    );
    struct Bar(indicatif::ProgressBar);
    impl TrainProgress for Bar {
        fn batch(&self, epoch: usize, done: usize, total: usize, loss: f32) {
            self.0.set_length(total as u64);
            self.0.set_position(done as u64);
            self.0
                .set_message(format!("epoch {epoch}  batch loss {loss:.5}"));
        }
        fn epoch(&self, r: &EpochReport) {
            self.0.suspend(|| {
                println!(
                    "epoch {:>3}: train loss {:.6}  validation loss {:.6}  {:.0} positions/s  {:.1} s",
                    r.epoch,
                    r.train_loss,
                    r.val_loss,
                    r.positions_per_second,
                    r.elapsed.as_secs_f64()
                )
            });
        }
    }
    let bar = if args.no_progress {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(0)
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} batches  {msg}  [{elapsed}]")
            .expect("a valid template"),
    );
    let progress = Bar(bar);
    let report = train::train_on(&config, &records, &progress)?;
    progress.0.finish_and_clear();
    let net = report.model.quantise();
    let bytes = chariot::eval::nnue::file::write(&net);
    let partial = chariot::tools::datagen::partial_name(&args.output);
    std::fs::write(&partial, &bytes)
        .and_then(|()| std::fs::rename(&partial, &args.output))
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    println!(
        "K {:.1}, lambda {} (mean {:.3}); trained on {} positions, validated on {}",
        report.k, config.lambda, report.mean_lambda, report.train_positions, report.val_positions
    );
    println!(
        "validation loss: net {:.6}, hand-crafted static evaluation {:.6}, search score {:.6}",
        report.epochs.last().map_or(f32::NAN, |e| e.val_loss),
        report.hce_baseline,
        report.score_baseline
    );
    println!(
        "wrote {} ({} bytes, hash {:016x})",
        args.output.display(),
        bytes.len(),
        net.hash
    );
    Ok(())
}
