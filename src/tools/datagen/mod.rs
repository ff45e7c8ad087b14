//! `chariot datagen`: training positions from self-play, for the NNUE trainer.
//!
//! Games (`selfplay`) run one per thread; game `k` of shard `I/N` plays with the seed
//! derived from `(seed, k·N + I)`, so shards play disjoint games and their files simply
//! concatenate. Finished games are written in the order of `k` (a small reorder buffer), so
//! the file depends only on the seed and settings, not on the thread count or timing.
//!
//! The output is written as `FILE.partial` and renamed to `FILE` when the run ends (its
//! count reached, or a Ctrl-C, after which every finished game is written): a killed run
//! leaves only a `.partial` file, never one that looks finished. `--append` continues a
//! finished file (renamed to `.partial` while it grows). The format is in [`mod@format`].

pub mod format;
pub mod selfplay;
pub mod stats;

use crate::position::Position;
use crate::rules::GameResult;
use crate::tools::rng::Rng;
use format::{DataWriter, Record};
use selfplay::{GameOutput, GameSettings, Player, play_game};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A whole data-generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub output: PathBuf,
    pub settings: GameSettings,
    /// Stop after this many games (of this shard).
    pub games: Option<u64>,
    /// Stop once this many positions are written.
    pub positions: Option<u64>,
    pub threads: usize,
    pub seed: u64,
    /// Shard `I` of `N` (`0 <= I < N`).
    pub shard: (u64, u64),
    pub append: bool,
    pub openings: Vec<Position>,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct DatagenReport {
    pub positions: u64,
    pub games: u64,
    /// Red wins, draws, Black wins.
    pub results: [u64; 3],
    pub elapsed: Duration,
    pub interrupted: bool,
}

impl DatagenReport {
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    fn add(&mut self, game: &GameOutput) {
        self.games += 1;
        self.positions += game.records.len() as u64;
        self.results[match game.result {
            GameResult::RedWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
    }

    /// One line: positions, rate, games and results.
    pub fn line(&self) -> String {
        format!(
            "{} positions ({:.0}/s), {} games (Red {} / draw {} / Black {})",
            self.positions,
            self.positions_per_second(),
            self.games,
            self.results[0],
            self.results[1],
            self.results[2]
        )
    }
}

/// Parses `I/N`.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{text}' is not a shard (I/N with 0 <= I < N, e.g. 0/4)");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.trim().parse::<u64>().map_err(|_| bad())?,
        n.trim().parse::<u64>().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The name a file has while it is being written.
pub fn partial_name(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Watches the run: called on every written game with the report so far.
pub trait Progress: Sync {
    fn update(&self, _report: &DatagenReport) {}
}

/// Reports nothing.
pub struct Quiet;
impl Progress for Quiet {}

/// Runs the self-play until the game or position count is reached or `stop` is raised.
pub fn run(
    config: &DatagenConfig,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<DatagenReport, String> {
    if config.openings.is_empty() {
        return Err("no openings to start from".into());
    }
    if config.games.is_none() && config.positions.is_none() {
        return Err("say how much to generate: --games N or --positions N".into());
    }
    let partial = partial_name(&config.output);
    if config.output.exists() && !config.append {
        return Err(format!(
            "{} exists: pass --append to continue it, or choose another name",
            config.output.display()
        ));
    }
    if partial.exists() {
        return Err(format!(
            "{} exists (a run that did not finish): check it with --stats, then rename or \
             remove it",
            partial.display()
        ));
    }
    if config.append && config.output.exists() {
        format::count_records(&config.output)?;
        std::fs::rename(&config.output, &partial)
            .map_err(|e| format!("{}: {e}", config.output.display()))?;
    }
    let mut writer = format::create_or_append(&partial, config.append)?;
    let report = generate(config, stop, progress, &mut writer);
    let finished = writer
        .flush()
        .map_err(|e| format!("{}: {e}", partial.display()))
        .and_then(|()| {
            let file: BufWriter<File> = writer.into_inner();
            let file = file.into_inner().map_err(|e| e.to_string())?;
            file.sync_all().map_err(|e| e.to_string())
        });
    let report = report?;
    finished?;
    std::fs::rename(&partial, &config.output)
        .map_err(|e| format!("{}: {e}", config.output.display()))?;
    Ok(report)
}

/// Plays and writes the games (see the module docs for the order).
fn generate(
    config: &DatagenConfig,
    stop: &AtomicBool,
    progress: &dyn Progress,
    writer: &mut DataWriter<BufWriter<File>>,
) -> Result<DatagenReport, String> {
    let start = Instant::now();
    let (shard, shards) = config.shard;
    let next_game = AtomicU64::new(0);
    // Raised by the writer when the count is reached, or by a failed write.
    let done = Arc::new(AtomicBool::new(false));
    let halt = || stop.load(Ordering::Relaxed) || done.load(Ordering::Relaxed);
    let (tx, rx) = crossbeam_channel::unbounded::<(u64, GameOutput)>();
    let mut report = DatagenReport::default();
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let next_game = &next_game;
            let halt = &halt;
            std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn_scoped(scope, move || {
                    let mut player = Player::new(config.settings.hash_mb);
                    loop {
                        let k = next_game.fetch_add(1, Ordering::Relaxed);
                        if config.games.is_some_and(|g| k >= g) || halt() {
                            break;
                        }
                        let seed = Rng::derive(config.seed, k * shards + shard);
                        let game =
                            play_game(&mut player, &config.openings, &config.settings, seed, halt);
                        match game {
                            Some(game) => {
                                if tx.send((k, game)).is_err() {
                                    break;
                                }
                            }
                            None => break,
                        }
                    }
                })
                .expect("a datagen thread starts");
        }
        drop(tx);
        let mut pending: BTreeMap<u64, GameOutput> = BTreeMap::new();
        let mut expected = 0u64;
        let mut write = |game: &GameOutput, report: &mut DatagenReport| -> Result<(), String> {
            for record in &game.records {
                writer.write(record).map_err(|e| e.to_string())?;
            }
            report.add(game);
            Ok(())
        };
        let full = |report: &DatagenReport| config.positions.is_some_and(|p| report.positions >= p);
        for (k, game) in rx.iter() {
            pending.insert(k, game);
            while let Some(game) = pending.remove(&expected) {
                expected += 1;
                if full(&report) {
                    continue;
                }
                if let Err(e) = write(&game, &mut report) {
                    error = Some(e);
                    done.store(true, Ordering::Relaxed);
                }
                report.elapsed = start.elapsed();
                progress.update(&report);
                if full(&report) {
                    done.store(true, Ordering::Relaxed);
                }
            }
        }
        // Interrupted: games finished after a gap are still written.
        for game in pending.into_values() {
            if error.is_some() || full(&report) {
                break;
            }
            if let Err(e) = write(&game, &mut report) {
                error = Some(e);
            }
        }
    });
    report.elapsed = start.elapsed();
    report.interrupted = stop.load(Ordering::Relaxed);
    match error {
        Some(e) => Err(format!("writing {}: {e}", config.output.display())),
        None => Ok(report),
    }
}

/// All records of the files, in order (for tests and small files).
pub fn read_all(path: &Path) -> Result<Vec<Record>, String> {
    let mut reader = format::DataReader::open(path)?;
    let mut out = Vec::new();
    while let Some(r) = reader.next_record()? {
        out.push(r);
    }
    Ok(out)
}
