//! `chariot judge`: the rules judge over a move list or every game of a PGN file.

use super::{RuleArgs, parse_fen};
use clap::Args;

#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// The start position as FEN, or `startpos`.
    #[arg(long, default_value = "startpos", conflicts_with = "pgn")]
    pub fen: String,
    /// Moves played from it (ICCS such as h2e2, WXF or Chinese).
    #[arg(long, num_args = 1.., conflicts_with = "pgn")]
    pub moves: Vec<String>,
    /// Judge every game of this file instead: PGN (ICCS, WXF or Chinese moves; UTF-8, GBK or
    /// Big5) or XQF; `-` reads standard input.
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// One JSON object per game instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(args: JudgeArgs) -> Result<(), String> {
    use chariot::tools::judge;
    let rules = args.rules.rules()?;
    let Some(path) = &args.pgn else {
        let start = parse_fen(&args.fen)?;
        let game = judge::judge_moves(&start, &args.moves, &rules)?;
        if args.json {
            println!("{}", judge::json_report(1, &game));
        } else {
            print!("{}", judge::text_report("", &game));
        }
        return Ok(());
    };
    let file = chariot::tools::gamefile::read_path(path)?;
    if file.games.is_empty() {
        return Err(format!("{} holds no game", path.display()));
    }
    let mut failed = 0;
    for game in &file.games {
        let judged = game.as_ref().map_err(|e| e.to_string()).and_then(|g| {
            let moves: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
            judge::judge_moves(&g.start, &moves, &rules)
                .map(|j| (g.number, j))
                .map_err(|e| format!("game {}: {e}", g.number))
        });
        match judged {
            Ok((n, j)) if args.json => println!("{}", judge::json_report(n, &j)),
            Ok((n, j)) => print!("{}", judge::text_report(&format!("game {n}"), &j)),
            Err(e) => {
                failed += 1;
                eprintln!("chariot: {e}");
            }
        }
    }
    let games = &file.games;
    if failed > 0 {
        return Err(format!(
            "{failed} of {} games could not be judged",
            games.len()
        ));
    }
    Ok(())
}
