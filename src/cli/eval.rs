//! `chariot eval`: the static evaluation of a position explained (the score from both views,
//! the evaluation and net that gave it, each piece's share drawn on the board).

use super::{EvalArgs, PositionArgs, load_position};
use chariot::eval::trace::trace;
use clap::Args;

#[derive(Args, Debug)]
pub struct EvalCmdArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub eval: EvalArgs,
}

pub fn run(args: EvalCmdArgs) -> Result<(), String> {
    let pos = load_position(&args.position)?;
    let evaluator = args.eval.evaluator()?;
    for line in trace(&evaluator, &pos).lines() {
        println!("{line}");
    }
    Ok(())
}
