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
    /// Judge every game of this PGN file instead (its FEN tags and moves).
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// One JSON object per game instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(args: JudgeArgs) -> Result<(), String> {
    use chariot::tools::{judge, pgn};
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
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games = pgn::read_games(&text);
    if games.is_empty() {
        return Err(format!("{} holds no PGN game", path.display()));
    }
    let mut failed = 0;
    for (i, game) in games.iter().enumerate() {
        let judged = parse_fen(game.fen().unwrap_or("startpos"))
            .and_then(|start| judge::judge_moves(&start, &game.moves, &rules));
        match judged {
            Ok(j) if args.json => println!("{}", judge::json_report(i + 1, &j)),
            Ok(j) => print!("{}", judge::text_report(&format!("game {}", i + 1), &j)),
            Err(e) => {
                failed += 1;
                eprintln!("chariot: game {} (line {}): {e}", i + 1, game.line);
            }
        }
    }
    if failed > 0 {
        return Err(format!(
            "{failed} of {} games could not be judged",
            games.len()
        ));
    }
    Ok(())
}
