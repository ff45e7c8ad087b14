//! `chariot review`: every move of a game file judged (text, JSON or annotated PGN).

use super::{EvalArgs, RuleArgs};
use chariot::tools::gamefile::{self, Notation};
use chariot::tools::review::{self, report};
use clap::Args;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Nodes a position when no limit is given: a 195-ply game took 64 s on two cores.
const DEFAULT_NODES: u64 = 1_500_000;

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game file: PGN (Chinese, WXF or ICCS moves; UTF-8, GBK or Big5) or XQF; `-` for
    /// standard input.
    pub file: std::path::PathBuf,
    /// Which games of a many-game file: N or A-B (1-based); default all.
    #[arg(long)]
    pub game: Option<String>,
    /// Search each position to this depth.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search each position this many nodes (the default: 1,500,000; the same file and
    /// settings give the same report).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search each position this many seconds.
    #[arg(long)]
    pub time: Option<f64>,
    /// Positions searched at once (default: the cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table of each search, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// One JSON object per game instead of the text report.
    #[arg(long)]
    pub json: bool,
    /// Write the games annotated (marks, scores, best lines) to this PGN file.
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// The notation of the report and the PGN: chinese, wxf or iccs (default: the file's).
    #[arg(long)]
    pub notation: Option<String>,
    /// The annotated PGN's encoding: utf-8 or gbk.
    #[arg(long, default_value = "utf-8")]
    pub encoding: String,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub eval: EvalArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// `N` or `A-B` as a 1-based inclusive range.
fn parse_games(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--game '{text}': expected N or A-B (1-based)");
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

pub fn run(args: ReviewArgs) -> Result<(), String> {
    let notation = match &args.notation {
        None => None,
        Some(t) => Some(
            Notation::parse(t).ok_or_else(|| format!("--notation '{t}': chinese, wxf or iccs"))?,
        ),
    };
    let gbk = gamefile::encoding::wants_gbk("--encoding", &args.encoding)?;
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0 && t < 1e6) => {
            return Err(format!("--time {t} is not a usable number of seconds"));
        }
        t => t.map(Duration::from_secs_f64),
    };
    let nodes = match (args.depth, args.nodes, time) {
        (None, None, None) => Some(DEFAULT_NODES),
        _ => args.nodes,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let settings = review::Settings {
        depth: args.depth.map(|d| d.clamp(1, 100)),
        nodes,
        time,
        threads,
        hash_mb: args.hash.clamp(1, 4096),
        rules: args.rules.rules()?,
        eval: args.eval.evaluator()?,
    };
    let limits = match (settings.depth, settings.nodes, settings.time) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes a position"),
        (_, _, Some(t)) => format!("{:.2} s a position", t.as_secs_f64()),
        _ => unreachable!("a limit is always set"),
    };
    let file = gamefile::read_path(&args.file)?;
    if file.games.is_empty() {
        return Err(format!("{} holds no game", args.file.display()));
    }
    let (first, last) = match &args.game {
        Some(text) => parse_games(text)?,
        None => (1, file.games.len()),
    };
    if first > file.games.len() {
        return Err(format!(
            "--game {first}: the file holds {} games",
            file.games.len()
        ));
    }
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: reporting what is done (Ctrl-C again to quit)");
    });
    let mut pgn_out = String::new();
    let mut failed = 0;
    for entry in &file.games[first - 1..last.min(file.games.len())] {
        let game = match entry {
            Ok(g) => g,
            Err(e) => {
                failed += 1;
                eprintln!("chariot: {e}");
                continue;
            }
        };
        let positions = game.moves.len() + 1;
        let bar = if args.no_progress || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            indicatif::ProgressBar::hidden()
        } else {
            indicatif::ProgressBar::new(positions as u64)
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} positions  game {msg}  [{elapsed}]",
            )
            .expect("a valid template"),
        );
        bar.set_message(game.number.to_string());
        let started = Instant::now();
        let analyses = review::analyse_game(game, &settings, &STOP, &|_| bar.inc(1));
        bar.finish_and_clear();
        let moves = review::judge(game, &analyses);
        let sides = review::summarise(&moves);
        let ctx = report::Context {
            game,
            notation: notation.unwrap_or(game.notation),
            limits: limits.clone(),
            seconds: started.elapsed().as_secs_f64(),
            searched: analyses.iter().filter(|a| a.is_some()).count(),
            positions,
        };
        if args.json {
            println!("{}", report::json(&ctx, &moves, &sides));
        } else {
            println!("{}", report::text(&ctx, &moves, &sides));
        }
        if args.pgn.is_some() {
            pgn_out.push_str(&report::annotated_pgn(&ctx, &moves, &sides));
        }
        if STOP.load(Ordering::SeqCst) {
            break;
        }
    }
    if let Some(path) = &args.pgn {
        let bytes = if gbk {
            gamefile::encoding::encode_gbk(&pgn_out)
        } else {
            pgn_out.into_bytes()
        };
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if failed > 0 {
        return Err(format!("{failed} game(s) could not be read"));
    }
    Ok(())
}
