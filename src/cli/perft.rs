//! `chariot perft`: counts the legal move tree of a position (per root move with `--divide`).

use super::{PositionArgs, load_position};
use chariot::tools::perft;
use clap::Args;

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

pub fn run(args: PerftArgs) -> Result<(), String> {
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
