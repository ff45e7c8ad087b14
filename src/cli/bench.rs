//! `chariot bench`: the fixed search whose node count is the engine's signature, and its speed.

use super::EvalArgs;
use chariot::search::tt;
use chariot::tools::bench;
use clap::Args;

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

pub fn run(args: BenchArgs) -> Result<(), String> {
    if !(1..=64).contains(&args.depth) {
        return Err(format!(
            "bench depth {} is out of range (1 to 64)",
            args.depth
        ));
    }
    if !(1..=tt::MAX_MB).contains(&args.hash) {
        return Err(format!(
            "bench hash {} MB is out of range (1 to {})",
            args.hash,
            tt::MAX_MB
        ));
    }
    let report = bench::run_with(
        args.depth,
        args.threads.clamp(1, 256),
        args.hash,
        args.eval.evaluator()?,
    );
    if args.verbose {
        for (i, result) in report.per_position.iter().enumerate() {
            println!(
                "position {:>2}: {:>10} nodes {:>8} ms  bestmove {}",
                i + 1,
                result.nodes,
                result.elapsed.as_millis(),
                result.best
            );
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
