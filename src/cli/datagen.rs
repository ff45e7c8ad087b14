//! `chariot datagen`: self-play training data (and `--stats` over data files).

use super::{EvalArgs, RuleArgs, comma_numbers};
use chariot::search::tt;
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The data file to write (while running it is FILE.partial).
    #[arg(long, short, required_unless_present = "stats")]
    pub output: Option<std::path::PathBuf>,
    /// Describe these data files instead (counts, results, scores, material, duplicates).
    #[arg(long, num_args = 1.., conflicts_with = "output")]
    pub stats: Vec<std::path::PathBuf>,
    /// Stop after this many games.
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop once this many positions are written.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random legal plies played after the opening.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Draw another start when its first search scores beyond this (centipawns).
    #[arg(long, default_value_t = 300)]
    pub max_start_score: i32,
    /// Adjudicate a win: SCORE,PLIES — PLIES plies in a row scored at least SCORE for one side.
    #[arg(long, default_value = "1000,8")]
    pub win_adjudication: String,
    /// Adjudicate a draw: AFTER,SCORE,PLIES — after AFTER plies, PLIES plies in a row within
    /// ±SCORE.
    #[arg(long, default_value = "160,10,20")]
    pub draw_adjudication: String,
    /// Games played at once (one per thread).
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the random starts (the same seed and settings give the same file).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play shard I of N (I/N): N runs with the same seed play disjoint games.
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// Continue an existing file.
    #[arg(long)]
    pub append: bool,
    /// Openings: 'builtin', 'startpos' or a file (as `chariot match` reads them).
    #[arg(long, default_value = "builtin")]
    pub openings: String,
    /// Hash table per thread, in MB.
    #[arg(long, default_value_t = 4)]
    pub hash: usize,
    /// No live progress bar (a line every 30 s goes to standard error instead).
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub eval: EvalArgs,
}

pub fn run(args: DatagenArgs) -> Result<(), String> {
    use chariot::tools::datagen::{self, DatagenConfig, DatagenReport, selfplay::GameSettings};
    use std::sync::atomic::{AtomicBool, Ordering};
    if !args.stats.is_empty() {
        let stats = datagen::stats::collect(&args.stats)?;
        print!("{}", stats.render());
        return Ok(());
    }
    let output = args.output.clone().ok_or("--output FILE is required")?;
    if !(1..=256).contains(&args.threads) {
        return Err(format!(
            "--threads {} is out of range (1 to 256)",
            args.threads
        ));
    }
    if !(1..=100_000_000).contains(&args.nodes) {
        return Err(format!(
            "--nodes {} is out of range (1 to 100000000)",
            args.nodes
        ));
    }
    if !(1..=tt::MAX_MB).contains(&args.hash) {
        return Err(format!(
            "--hash {} is out of range (1 to {})",
            args.hash,
            tt::MAX_MB
        ));
    }
    let [win_score, win_plies] = comma_numbers::<2>("win-adjudication", &args.win_adjudication)?;
    let [draw_after, draw_score, draw_plies] =
        comma_numbers::<3>("draw-adjudication", &args.draw_adjudication)?;
    let config = DatagenConfig {
        output,
        settings: GameSettings {
            nodes: args.nodes,
            random_plies: args.random_plies.min(200),
            max_start_score: args.max_start_score,
            win_score: win_score.min(30_000) as i32,
            win_plies: win_plies as usize,
            draw_after: draw_after as usize,
            draw_score: draw_score.min(30_000) as i32,
            draw_plies: draw_plies as usize,
            rules: args.rules.rules()?,
            hash_mb: args.hash,
            eval: args.eval.evaluator()?,
        },
        games: args.games,
        positions: args.positions,
        threads: args.threads,
        seed: args.seed,
        shard: datagen::parse_shard(&args.shard)?,
        append: args.append,
        openings: chariot::tools::matches::openings::load(&args.openings)?,
    };
    super::warn_composed_openings(&config.openings);
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: writing the finished games (Ctrl-C again to quit at once)");
    });
    let total = config.positions.or(config.games);
    let bar = if args.no_progress {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(total.unwrap_or(0))
    };
    let unit = if config.positions.is_some() {
        "positions"
    } else {
        "games"
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}  [{{elapsed}}, ETA {{eta}}]"
        ))
        .expect("a valid template"),
    );
    struct Bar {
        bar: indicatif::ProgressBar,
        by_positions: bool,
        plain: bool,
        last_line: parking_lot::Mutex<std::time::Instant>,
    }
    impl datagen::Progress for Bar {
        fn update(&self, r: &DatagenReport) {
            self.bar.set_position(if self.by_positions {
                r.positions
            } else {
                r.games
            });
            self.bar.set_message(r.line());
            let mut last = self.last_line.lock();
            if self.plain && last.elapsed() >= Duration::from_secs(30) {
                *last = std::time::Instant::now();
                eprintln!("datagen: {}", r.line());
            }
        }
    }
    let progress = Bar {
        plain: bar.is_hidden(),
        bar,
        by_positions: config.positions.is_some(),
        last_line: parking_lot::Mutex::new(std::time::Instant::now()),
    };
    let report = datagen::run(&config, &STOP, &progress)?;
    progress.bar.finish_and_clear();
    println!(
        "{}{}: {} in {:.1} s",
        config.output.display(),
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        report.line(),
        report.elapsed.as_secs_f64()
    );
    Ok(())
}
