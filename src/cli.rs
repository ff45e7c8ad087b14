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
}

/// A position given on the command line: a FEN (or `startpos`) and moves played from it.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The position as FEN, or `startpos` for the starting position.
    #[arg(long, default_value = "startpos")]
    pub fen: String,
    /// Moves (ICCS, e.g. h2e2) played from that position first.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
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
