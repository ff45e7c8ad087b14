//! The `chariot` binary: parses the command line and hands over to the library.

mod cli;

use chariot::position::Position;
use chariot::search::Limits;
use chariot::search::threads::SearchPool;
use chariot::tools::analyze::{self, AnalyzeReporter, Style};
use chariot::tools::{bench, perft};
use clap::Parser;
use cli::{Cli, Command, PositionArgs};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Bench(args)) => run_bench(args),
        Some(Command::Analyze(args)) => run_analyze(args),
        None => {
            chariot::protocol::run(
                std::io::BufReader::new(std::io::stdin()),
                Box::new(std::io::stdout()),
            );
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

fn run_bench(args: cli::BenchArgs) -> Result<(), String> {
    if !(1..=64).contains(&args.depth) {
        return Err(format!(
            "bench depth {} is out of range (1 to 64)",
            args.depth
        ));
    }
    let report = bench::run_threads(args.depth, args.threads.clamp(1, 256));
    if args.verbose {
        for (i, (nodes, best)) in report.per_position.iter().enumerate() {
            println!("position {:>2}: {nodes:>10} nodes  bestmove {best}", i + 1);
        }
    }
    println!("{} nodes {} nps", report.nodes, report.nps());
    if args.threads > 1 || args.verbose {
        println!(
            "time {} ms, {} threads",
            report.elapsed.as_millis(),
            args.threads.max(1)
        );
    }
    Ok(())
}

fn run_analyze(args: cli::AnalyzeArgs) -> Result<(), String> {
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
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        time,
        multipv: args.multipv.max(1),
        ..Limits::default()
    };
    let mut pool = SearchPool::new(args.threads.clamp(1, 256), args.hash.clamp(1, 65536));
    let reporter = Arc::new(AnalyzeReporter::new(&pos, style));
    pool.search_sync(&pos, limits, reporter);
    Ok(())
}
