//! The `chariot` binary: parses the command line and hands over to the library.

mod cli;

use chariot::position::Position;
use chariot::tools::perft;
use clap::Parser;
use cli::{Cli, Command, PositionArgs};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => run_perft(args),
        None => {
            eprintln!("chariot: the engine protocol is not built yet; see `chariot --help`");
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("chariot: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Builds the position a command line names, or says what is wrong with it.
fn load_position(args: &PositionArgs) -> Result<Position, String> {
    let mut pos = if args.fen.trim().eq_ignore_ascii_case("startpos") {
        Position::startpos()
    } else {
        Position::from_fen(&args.fen).map_err(|e| format!("bad FEN: {e}"))?
    };
    for text in &args.moves {
        let mv = pos.parse_move(text).map_err(|e| e.to_string())?;
        pos.make_move(mv);
    }
    Ok(pos)
}

fn run_perft(args: cli::PerftArgs) -> Result<(), String> {
    let pos = load_position(&args.position)?;
    if args.depth > 12 {
        return Err(format!(
            "depth {} is too deep for perft (at most 12)",
            args.depth
        ));
    }
    let report = perft::run(&pos, args.depth, args.threads.max(1));
    if args.divide {
        for (mv, nodes) in &report.divide {
            println!("{mv}: {nodes}");
        }
        println!();
    }
    println!("Nodes: {}", report.nodes);
    println!("Time: {:.3} s", report.elapsed.as_secs_f64());
    println!("Speed: {:.1} M nodes/s", report.mnps());
    Ok(())
}
