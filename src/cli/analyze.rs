//! `chariot analyze`: one position's analysis, iteration by iteration, as text or JSON.

use super::{EvalArgs, PositionArgs, RuleArgs, load_position};
use chariot::search::{Limits, threads::SearchPool, tt};
use chariot::tools::analyze::{self, AnalyzeReporter, Style};
use clap::Args;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Search to this depth.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search for this many seconds (fractions allowed).
    #[arg(long)]
    pub time: Option<f64>,
    /// Number of principal variations.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Draw the board with Chinese glyphs and write the PV in Chinese notation.
    #[arg(long)]
    pub glyphs: bool,
    /// Play at this rating instead of full strength (the engine's UCI_Elo scale), as the
    /// move a level would choose.
    #[arg(long)]
    pub elo: Option<i32>,
    /// The seed of a level's choice (the engine's Random Seed); the same seed, the same move.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub eval: EvalArgs,
}

pub fn run(args: AnalyzeArgs) -> Result<(), String> {
    let pos = load_position(&args.position)?;
    if args.depth.is_none() && args.nodes.is_none() && args.time.is_none() {
        return Err("say how long to search: --depth N, --nodes N or --time SECONDS".into());
    }
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0 && t < 1e7) => {
            return Err(format!("--time {t} is not a usable number of seconds"));
        }
        Some(t) => {
            let d = Duration::from_secs_f64(t);
            Some(chariot::search::timeman::TimeBudget { soft: d, hard: d })
        }
        None => None,
    };
    let style = if args.json {
        Style::Json
    } else if args.glyphs {
        Style::Chinese
    } else {
        Style::Wxf
    };
    if style != Style::Json {
        let board = if args.glyphs {
            analyze::glyph_diagram(&pos)
        } else {
            pos.diagram()
        };
        println!("{board}\nFEN: {}\n", pos.to_fen());
    }
    let strength = args
        .elo
        .and_then(|elo| chariot::search::strength::Level::from_elo(elo, args.seed));
    let nodes = match strength {
        Some(level) => Some(args.nodes.map_or(level.nodes(), |n| n.min(level.nodes()))),
        None => args.nodes,
    };
    let limits = Limits {
        depth: args.depth,
        nodes,
        strength,
        time,
        multipv: args.multipv.max(1),
        rules: args.rules.rules()?,
        eval: args.eval.evaluator()?,
        ..Limits::default()
    };
    let mut pool = SearchPool::new(args.threads.clamp(1, 256), args.hash.clamp(1, tt::MAX_MB));
    let reporter = Arc::new(AnalyzeReporter::new(&pos, style));
    pool.search_sync(&pos, limits, reporter);
    Ok(())
}
