//! `chariot match`: games between two engines, refereed by Chariot's own rules code.
//!
//! Each opening is played twice with colours swapped; each game gets fresh engine processes
//! (so a crashed engine is simply restarted); games run `concurrency` at a time. The first
//! engine's wins, draws and losses give the Elo estimate, and an optional SPRT stops the match
//! as soon as it is decided.
//!
//! This is the first part of the match-runner issue: round robins, adjudication by score, the
//! progress bar, resuming from a PGN and the opening suite come next.

pub mod engine;
pub mod game;
pub mod stats;

use crate::position::Position;
use crate::rules::{GameResult, Rules};
use engine::{Engine, EngineConfig};
use game::{GameRecord, Limit};
use stats::{Sprt, SprtVerdict, Tally};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineConfig; 2],
    pub limit: Limit,
    /// Games to play (rounded up to whole pairs of games per opening).
    pub games: usize,
    pub openings: Vec<Position>,
    pub concurrency: usize,
    /// Extra time an engine may overrun its clock before it loses on time.
    pub margin: Duration,
    /// How long a depth- or node-limited move may take before the engine counts as hung.
    pub hang: Duration,
    pub adjudication: game::Adjudication,
    pub sprt: Option<Sprt>,
    /// The rules the referee judges by.
    pub rules: Rules,
}

/// One finished game, with who played Red.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub index: usize,
    /// 0 if the first engine played Red.
    pub red: usize,
    pub record: GameRecord,
}

/// The whole match.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    pub games: Vec<PlayedGame>,
    /// From the first engine's point of view.
    pub tally: Tally,
    pub sprt: Option<(f64, SprtVerdict)>,
}

impl MatchReport {
    /// Result reasons and how often each occurred.
    pub fn reasons(&self) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for g in &self.games {
            *out.entry(g.record.reason.clone()).or_default() += 1;
        }
        out
    }
}

fn play_one(config: &MatchConfig, index: usize) -> Result<PlayedGame, String> {
    let opening = &config.openings[(index / 2) % config.openings.len()];
    let red = index % 2;
    let timeout = Duration::from_secs(10);
    let mut first = Engine::start(&config.engines[red], timeout)?;
    let mut second = Engine::start(&config.engines[1 - red], timeout)?;
    first.new_game(timeout)?;
    second.new_game(timeout)?;
    let record = game::play(opening, &mut first, &mut second, config);
    first.quit();
    second.quit();
    Ok(PlayedGame { index, red, record })
}

/// Adds a finished game to the report (tally and SPRT); returns whether the SPRT has decided.
fn record(config: &MatchConfig, report: &mut MatchReport, game: PlayedGame) -> bool {
    let first_won = match game.record.outcome {
        GameResult::Draw => None,
        GameResult::RedWins => Some(game.red == 0),
        GameResult::BlackWins => Some(game.red == 1),
    };
    match first_won {
        Some(true) => report.tally.wins += 1,
        Some(false) => report.tally.losses += 1,
        None => report.tally.draws += 1,
    }
    report.games.push(game);
    let Some(sprt) = config.sprt else {
        return false;
    };
    let verdict = sprt.verdict(&report.tally);
    report.sprt = Some((sprt.llr(&report.tally), verdict));
    verdict != SprtVerdict::Continue
}

/// Plays the match; `on_game` sees each game as it finishes (for progress output and the
/// PGN file). `previous` are games already played (resuming from a PGN): they count, and their
/// rounds are not played again.
pub fn run(
    config: &MatchConfig,
    previous: Vec<PlayedGame>,
    on_game: impl Fn(&PlayedGame, &MatchReport) + Sync,
) -> Result<MatchReport, String> {
    if config.openings.is_empty() {
        return Err("no opening positions".into());
    }
    let total = config.games.div_ceil(2) * 2;
    let done: std::collections::HashSet<usize> = previous.iter().map(|g| g.index).collect();
    let mut start = MatchReport::default();
    let mut decided = false;
    for game in previous {
        decided |= record(config, &mut start, game);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(decided);
    let report = Mutex::new(start);
    let error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        return;
                    }
                    if done.contains(&index) {
                        continue;
                    }
                    match play_one(config, index) {
                        Ok(game) => {
                            let mut r = report.lock().unwrap_or_else(|e| e.into_inner());
                            if record(config, &mut r, game) {
                                stop.store(true, Ordering::Relaxed);
                            }
                            let last = r.games.last().expect("just recorded");
                            on_game(last, &r);
                        }
                        Err(e) => {
                            *error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                            stop.store(true, Ordering::Relaxed);
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut report = report.into_inner().unwrap_or_else(|e| e.into_inner());
    report.games.sort_by_key(|g| g.index);
    Ok(report)
}

/// The games as PGN, with the xiangqi variant, start FEN, result reason and ICCS moves.
pub fn pgn(config: &MatchConfig, report: &MatchReport) -> String {
    report.games.iter().map(|g| pgn_game(config, g)).collect()
}

/// One game as PGN.
pub fn pgn_game(config: &MatchConfig, g: &PlayedGame) -> String {
    let mut out = String::new();
    {
        let (red, black) = (&config.engines[g.red].name, &config.engines[1 - g.red].name);
        let r = &g.record;
        out.push_str(&format!(
            "[Event \"chariot match\"]\n[Round \"{}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{}\"]\n[Variant \"xiangqi\"]\n[FEN \"{}\"]\n[Termination \"{}\"]\n\n",
            g.index + 1,
            r.outcome.pgn(),
            r.start_fen,
            r.reason
        ));
        let mut pos = Position::from_fen(&r.start_fen).expect("the start FEN was ours");
        let mut line = String::new();
        for (i, &mv) in r.moves.iter().enumerate() {
            if pos.side_to_move() == crate::core::Color::Red {
                line.push_str(&format!("{}. ", pos.fullmove_number()));
            } else if i == 0 {
                line.push_str(&format!("{}... ", pos.fullmove_number()));
            }
            line.push_str(&format!("{mv} "));
            pos.make_move(mv);
        }
        line.push_str(r.outcome.pgn());
        out.push_str(&line);
        out.push_str("\n\n");
    }
    out
}

/// Reads back games written by `pgn_game` (to resume a match). Games whose players are not
/// the configured engines are refused.
pub fn parse_pgn(config: &MatchConfig, text: &str) -> Result<Vec<PlayedGame>, String> {
    let mut games = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let tag = |name: &str| -> Option<String> {
            let start = chunk.find(&format!("[{name} \""))? + name.len() + 3;
            let end = chunk[start..].find('"')? + start;
            Some(chunk[start..end].to_string())
        };
        let broken = || {
            format!(
                "a game in the PGN is incomplete: {}",
                chunk.lines().next().unwrap_or("")
            )
        };
        let round: usize = tag("Round")
            .and_then(|r| r.parse().ok())
            .ok_or_else(broken)?;
        let red_name = tag("Red").ok_or_else(broken)?;
        let red = config
            .engines
            .iter()
            .position(|e| e.name == red_name)
            .ok_or_else(|| format!("the PGN's engine '{red_name}' is not in this match"))?;
        let outcome = match tag("Result").ok_or_else(broken)?.as_str() {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            other => {
                return Err(format!(
                    "round {round}: result '{other}' is not a finished game"
                ));
            }
        };
        let start_fen = tag("FEN").ok_or_else(broken)?;
        let reason = tag("Termination").unwrap_or_default();
        let mut pos = Position::from_fen(&start_fen).map_err(|e| format!("round {round}: {e}"))?;
        let mut moves = Vec::new();
        let body = chunk.split("\n\n").nth(1).ok_or_else(broken)?;
        for token in body.split_whitespace() {
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2"].contains(&token) {
                continue;
            }
            let mv = pos
                .parse_move(token)
                .map_err(|e| format!("round {round}: {e}"))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        let record = GameRecord {
            start_fen,
            moves,
            outcome,
            reason,
        };
        games.push(PlayedGame {
            index: round - 1,
            red,
            record,
        });
    }
    Ok(games)
}

/// The match result as one JSON object (for scripts).
pub fn json_summary(config: &MatchConfig, report: &MatchReport) -> String {
    let t = report.tally;
    let quote = |text: &str| format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""));
    let (elo, err) = match t.elo() {
        Some((e, r)) => (format!("{e:.2}"), format!("{r:.2}")),
        None => ("null".into(), "null".into()),
    };
    let reasons: Vec<String> = report
        .reasons()
        .iter()
        .map(|(k, n)| format!("{}:{n}", quote(k)))
        .collect();
    let sprt = match (config.sprt, report.sprt) {
        (Some(s), Some((llr, verdict))) => {
            let (lower, upper) = s.bounds();
            format!(
                "{{\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{},\"llr\":{llr:.4},\"lower\":{lower:.4},\"upper\":{upper:.4},\"verdict\":{}}}",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                quote(&format!("{verdict:?}"))
            )
        }
        _ => "null".into(),
    };
    format!(
        "{{\"engines\":[{},{}],\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{:.4},\"elo\":{elo},\"elo_error95\":{err},\"los\":{:.4},\"draw_ratio\":{:.4},\"reasons\":{{{}}},\"sprt\":{sprt}}}\n",
        quote(&config.engines[0].name),
        quote(&config.engines[1].name),
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        t.los(),
        t.draw_ratio(),
        reasons.join(",")
    )
}
