//! The command line: `chariot` alone runs the engine protocol; each subcommand has a module
//! here with its arguments and its runner, which calls the library's tool.

mod analyze;
mod bench;
mod datagen;
mod eval;
mod judge;
mod matches;
mod perft;
mod review;
mod train;

use chariot::position::Position;
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
    Perft(perft::PerftArgs),
    /// Search fixed positions at a fixed depth; prints the node signature and speed.
    Bench(bench::BenchArgs),
    /// Analyse one position: each iteration's score and principal variation.
    Analyze(analyze::AnalyzeArgs),
    /// Play matches, round robins or gauntlets of UCCI/UCI engines: W/D/L, Elo, SPRT, PGN.
    Match(Box<matches::MatchArgs>),
    /// Explain the static evaluation of a position: the score, and each piece's share.
    Eval(eval::EvalCmdArgs),
    /// Judge games by the rules: ongoing, or the result and why (with the repetition cycle).
    Judge(judge::JudgeArgs),
    /// Review whole games (PGN in any notation, XQF): each move's cost and mark, where the
    /// game turned, each side's accuracy; text, JSON or an annotated PGN.
    Review(Box<review::ReviewArgs>),
    /// Generate NNUE training positions by self-play (or, with --stats, describe data files).
    Datagen(Box<datagen::DatagenArgs>),
    /// Train an NNUE on datagen files and write the quantised net.
    Train(Box<train::TrainArgs>),
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
    /// Take the position from a game file instead (PGN in any notation and encoding, or
    /// XQF; its first game): the position after --ply plies of its main line, with the
    /// game's history (for the repetition rules).
    #[arg(long, conflicts_with_all = ["fen", "position"])]
    pub game: Option<std::path::PathBuf>,
    /// With --game: the position after this many plies (default: the end of the game).
    #[arg(long, requires = "game")]
    pub ply: Option<usize>,
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

/// Shell tools write with `println!`, which panics when the reader goes away (`| head`). Like
/// other Unix tools they should just end quietly, so they get the default SIGPIPE action back
/// (Rust ignores SIGPIPE). The engine protocol keeps ignoring it: its writer handles errors.
/// So does `match`: it writes to engines, and one that has died (a mistyped command line)
/// must be reported, not kill the runner; its own output handles a closed pipe itself.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; it only restores the
    // default disposition of one signal, which no other code here relies on.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A FEN given on the command line, or `startpos`. A composed placement is accepted with a
/// warning on stderr.
pub fn parse_fen(text: &str) -> Result<Position, String> {
    if text.trim().eq_ignore_ascii_case("startpos") {
        Ok(Position::startpos())
    } else {
        let pos = Position::from_fen(text).map_err(|e| format!("bad FEN: {e}"))?;
        if let Some(warning) = pos.placement_warning() {
            eprintln!("warning: {warning}");
        }
        Ok(pos)
    }
}

/// Says on stderr which of a set of openings are composed placements (the first three, and
/// how many in all): they are played, by the ordinary rules.
pub fn warn_composed_openings(openings: &[Position]) {
    let composed: Vec<(usize, String)> = openings
        .iter()
        .enumerate()
        .filter_map(|(i, pos)| pos.placement_warning().map(|w| (i + 1, w)))
        .collect();
    for (number, warning) in composed.iter().take(3) {
        eprintln!("warning: opening {number}: {warning}");
    }
    if composed.len() > 3 {
        eprintln!(
            "warning: {} of {} openings are composed positions",
            composed.len(),
            openings.len()
        );
    }
}

/// Builds the position a command line names, or says what is wrong with it.
pub fn load_position(args: &PositionArgs) -> Result<Position, String> {
    let mut pos = match &args.game {
        None => parse_fen(args.fen())?,
        Some(path) => {
            let file = chariot::tools::gamefile::read_path(path)?;
            let game = file
                .games
                .into_iter()
                .next()
                .ok_or_else(|| format!("{} holds no game", path.display()))?
                .map_err(|e| e.to_string())?;
            let plies = args.ply.unwrap_or(game.moves.len());
            if plies > game.moves.len() {
                return Err(format!(
                    "--ply {plies}: the game has {} plies",
                    game.moves.len()
                ));
            }
            let mut pos = game.start;
            for &mv in &game.moves[..plies] {
                pos.make_move(mv);
            }
            pos
        }
    };
    for text in &args.moves {
        let mv = pos.parse_move(text).map_err(|e| e.to_string())?;
        pos.make_move(mv);
    }
    Ok(pos)
}

/// Runs what the command line asks for.
pub fn run(cli: Cli) -> Result<(), String> {
    if cli.command.is_some()
        && !matches!(cli.command, Some(Command::Match(_) | Command::Datagen(_)))
    {
        quiet_on_closed_pipe();
    }
    match cli.command {
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Analyze(args)) => analyze::run(args),
        Some(Command::Match(args)) => matches::run(*args),
        Some(Command::Judge(args)) => judge::run(args),
        Some(Command::Review(args)) => review::run(*args),
        Some(Command::Eval(args)) => eval::run(args),
        Some(Command::Datagen(args)) => datagen::run(*args),
        Some(Command::Train(args)) => train::run(*args),
        None => {
            chariot::protocol::run(
                std::io::BufReader::new(std::io::stdin()),
                Box::new(std::io::stdout()),
            );
            Ok(())
        }
    }
}

/// Parses `A,B` or `A,B,C` numbers for an adjudication option.
pub fn comma_numbers<const N: usize>(option: &str, text: &str) -> Result<[i64; N], String> {
    let parts: Vec<Result<i64, _>> = text.split(',').map(|p| p.trim().parse::<i64>()).collect();
    match parts.into_iter().collect::<Result<Vec<_>, _>>() {
        Ok(v) if v.len() == N && v.iter().all(|&x| x >= 0) => Ok(v.try_into().expect("N values")),
        _ => Err(format!(
            "--{option} '{text}': expected {N} non-negative numbers separated by commas"
        )),
    }
}
