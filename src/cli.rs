//! The command line: `chariot` alone runs the engine protocol; subcommands run the tools.

use clap::{Args, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "chariot", version, about = "Chariot, a xiangqi (Chinese chess) engine", long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the legal move tree of a position to a fixed depth.
    Perft(PerftArgs),
    /// Search fixed positions at a fixed depth; prints the node signature and speed.
    Bench(BenchArgs),
    /// Analyse one position: each iteration's score and principal variation.
    Analyze(AnalyzeArgs),
    /// Play matches, round robins or gauntlets of UCCI/UCI engines: W/D/L, Elo, SPRT, PGN.
    Match(Box<MatchArgs>),
    /// Judge games by the rules: ongoing, or the result and why (with the repetition cycle).
    Judge(JudgeArgs),
    /// Generate NNUE training positions by self-play (or, with --stats, describe data files).
    Datagen(Box<DatagenArgs>),
    /// Train an NNUE on datagen files and write the quantised net.
    Train(Box<TrainArgs>),
}

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

/// Which evaluation a search uses.
#[derive(Args, Debug, Clone)]
pub struct EvalArgs {
    /// The evaluation: nnue (the network) or hce (the hand-crafted one); default: the engine's.
    #[arg(long)]
    pub eval: Option<String>,
    /// A net file for --eval nnue instead of the embedded net.
    #[arg(long)]
    pub net: Option<std::path::PathBuf>,
}

impl EvalArgs {
    pub fn evaluator(&self) -> Result<chariot::eval::Evaluator, String> {
        match (&self.eval, &self.net) {
            (None, None) => Ok(chariot::eval::Evaluator::default()),
            (name, net) => {
                chariot::eval::Evaluator::parse(name.as_deref().unwrap_or("nnue"), net.as_deref())
            }
        }
    }
}

/// The rules a game is judged by.
#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// Repetition rules: asian (AXF/WXF), chinese (CXA) or simple (only perpetual check loses).
    #[arg(long, default_value = "asian")]
    pub rules: String,
    /// The no-capture limit in moves per side (60, 50, …) or 'off'.
    #[arg(long, default_value = "60")]
    pub move_limit: String,
    /// The occurrence of a position that ends the game by repetition (2 to 9).
    #[arg(long, default_value_t = 3)]
    pub occurrences: u32,
}

impl RuleArgs {
    pub fn rules(&self) -> Result<chariot::rules::Rules, String> {
        if !(2..=9).contains(&self.occurrences) {
            return Err(format!(
                "--occurrences {} is out of range (2 to 9)",
                self.occurrences
            ));
        }
        Ok(chariot::rules::Rules {
            set: self.rules.parse()?,
            occurrences: self.occurrences,
            move_limit: chariot::rules::parse_move_limit(&self.move_limit)?,
        })
    }
}

#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// The start position as FEN, or `startpos`.
    #[arg(long, default_value = "startpos", conflicts_with = "pgn")]
    pub fen: String,
    /// Moves played from it (ICCS such as h2e2, WXF or Chinese).
    #[arg(long, num_args = 1.., conflicts_with = "pgn")]
    pub moves: Vec<String>,
    /// Judge every game of this PGN file instead (its FEN tags and moves).
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// One JSON object per game instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine as NAME=COMMAND (a shell command line); two for a match, more for a round
    /// robin (or a gauntlet with --gauntlet).
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// An engine option as NAME.OPTION=VALUE (e.g. B.Threads=2), set after the handshake.
    #[arg(long = "option", num_args = 1)]
    pub options: Vec<String>,
    /// Protocol of every engine: auto (try UCCI, then UCI), ucci or uci.
    #[arg(long, default_value = "auto")]
    pub protocol: String,
    /// One engine's protocol, as NAME=auto|ucci|uci.
    #[arg(long = "engine-protocol", num_args = 1)]
    pub engine_protocols: Vec<String>,
    /// One engine's working directory, as NAME=DIR.
    #[arg(long = "dir", num_args = 1)]
    pub dirs: Vec<String>,
    /// One engine's own limit, as NAME=tc=[MOVES/]BASE[+INC], NAME=depth=D, NAME=nodes=N or
    /// NAME=movetime=MS.
    #[arg(long = "limit", num_args = 1)]
    pub limits: Vec<String>,
    /// With three or more engines: the first plays each of the others (default: everyone
    /// plays everyone).
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per pairing (played in pairs, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Fixed time per move, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Time control [MOVES/]BASE[+INC] in seconds, fractions allowed: 10+0.1 (sudden death
    /// with an increment), 40/60 (60 s for every 40 moves).
    #[arg(long)]
    pub tc: Option<String>,
    /// Openings: 'builtin' (the shipped suite of opening-theory positions), 'startpos', or a
    /// file of FEN/EPD lines, move lists or PGN games.
    #[arg(long, default_value = "builtin")]
    pub openings: String,
    /// Opening order: sequential or random (shuffled with --seed).
    #[arg(long, default_value = "sequential")]
    pub opening_order: String,
    /// Seed of the random opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: the cores divided by the threads per engine).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Write a JSON summary (tally, Elo, LOS, SPRT, reasons, standings) to this file.
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
    /// Write every game to this PGN file as it finishes.
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// Continue an interrupted match: the games already in the --pgn file count and are not
    /// played again.
    #[arg(long, requires = "pgn")]
    pub resume: bool,
    /// Stop when the SPRT decides: elo0,elo1[,alpha,beta] (defaults 0.05, 0.05).
    #[arg(long)]
    pub sprt: Option<String>,
    /// Adjudicate a draw: PLIES,SCORE,MOVES — after PLIES plies, when both engines' last
    /// MOVES scores are within ±SCORE centipawns (e.g. 80,10,8).
    #[arg(long)]
    pub draw_adjudication: Option<String>,
    /// Adjudicate a win: SCORE,MOVES — when both engines' last MOVES scores agree one side
    /// leads by SCORE centipawns (e.g. 1000,4).
    #[arg(long)]
    pub win_adjudication: Option<String>,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Leave the engines' scores out of the PGN (by default each move carries one).
    #[arg(long)]
    pub no_pgn_scores: bool,
    /// No live progress bar (a line per game is printed either way).
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, short, default_value_t = chariot::tools::bench::DEFAULT_DEPTH)]
    pub depth: i32,
    /// Also print each position's node count and move.
    #[arg(long, short)]
    pub verbose: bool,
    /// Search threads (the signature is defined for 1; more threads measure time to depth).
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Hash table size in MB (the signature is defined for the default).
    #[arg(long, default_value_t = chariot::tools::bench::DEFAULT_HASH_MB)]
    pub hash: usize,
    #[command(flatten)]
    pub eval: EvalArgs,
}

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
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// A position given on the command line: a FEN (or `startpos`) and moves played from it.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The position: `startpos` (the default) or a FEN in quotes, the same as `--fen`.
    #[arg(value_name = "POSITION", conflicts_with = "fen")]
    pub position: Option<String>,
    /// The position as FEN, or `startpos` for the starting position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (ICCS, e.g. h2e2) played from that position first.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// The FEN (or `startpos`) given, by either spelling.
    pub fn fen(&self) -> &str {
        self.position
            .as_deref()
            .or(self.fen.as_deref())
            .unwrap_or("startpos")
    }
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Threads to split the root moves over.
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
}
