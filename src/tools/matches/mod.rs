//! `chariot match`: games between two or more engines, refereed by Chariot's own rules judge.
//!
//! Two engines play head to head; more play a round robin (every pair meets) or a gauntlet
//! (the first engine against each of the others). Every pairing plays the same openings, each
//! twice with colours swapped. Each game gets fresh engine processes (so a crashed engine is
//! simply restarted); games run `concurrency` at a time. The first engine's results give the
//! Elo estimate and the optional SPRT, by default over pairs of games (the two games of one
//! opening: the pentanomial model, `stats`), or over single games; a table ranks all engines.
//!
//! A first Ctrl-C (see [`interrupt()`]) lets the games in progress finish and starts no new one;
//! a second abandons them. Finished games are in the PGN file, and `--resume` plays only the
//! missing ones.

pub mod engine;
pub mod game;
pub mod interrupt;
pub mod openings;
pub mod simulate;
pub mod stats;

pub use interrupt::{abandon, aborting, interrupt, interrupted};

use crate::position::Position;
use crate::rules::{GameResult, Rules};
use crate::tools::json_string;
use engine::{Engine, EngineConfig};
use game::{GameRecord, Limit};
use stats::{Model, Penta, Sprt, SprtVerdict, Tally};
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// How the engines are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Schedule {
    /// Every engine meets every other (two engines: a plain match).
    #[default]
    RoundRobin,
    /// The first engine meets each of the others.
    Gauntlet,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub schedule: Schedule,
    /// The limit of every engine without its own.
    pub limit: Limit,
    /// Games per pairing (rounded up to whole pairs of games per opening).
    pub games: usize,
    /// Start positions, in the order they are played.
    pub openings: Vec<Position>,
    pub concurrency: usize,
    /// Extra time an engine may overrun its clock before it loses on time.
    pub margin: Duration,
    /// How long a depth- or node-limited move may take before the engine counts as hung.
    pub hang: Duration,
    pub adjudication: game::Adjudication,
    /// Only for two engines.
    pub sprt: Option<Sprt>,
    /// The model of the games the Elo and the SPRT use.
    pub model: Model,
    /// The rules the referee judges by.
    pub rules: Rules,
    /// Write the engines' scores into the PGN as comments.
    pub pgn_scores: bool,
    /// The PGN's move notation.
    pub notation: crate::tools::gamefile::Notation,
    /// Play only the games with these indices (`start..end`, 0-based; the PGN's rounds are
    /// one more): a share of a match that others play the rest of (`scripts/cluster/`).
    pub rounds: Option<(usize, usize)>,
}

/// Who plays game `index`, and from which opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePlan {
    pub red: usize,
    pub black: usize,
    pub opening: usize,
}

impl MatchConfig {
    /// What the referee of each game needs.
    pub fn referee(&self) -> game::Referee {
        game::Referee {
            margin: self.margin,
            hang: self.hang,
            adjudication: self.adjudication,
            rules: self.rules,
        }
    }

    /// The pairs of engines that meet, by index.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.schedule {
            Schedule::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Schedule::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }

    pub fn games_per_pairing(&self) -> usize {
        self.games.max(1).div_ceil(2) * 2
    }

    pub fn total_games(&self) -> usize {
        self.pairings().len() * self.games_per_pairing()
    }

    /// Game `index`: pairings one after the other; within one, each opening twice, the first
    /// engine of the pair with Red first.
    pub fn plan(&self, index: usize) -> GamePlan {
        let per = self.games_per_pairing();
        let (a, b) = self.pairings()[index / per];
        let k = index % per;
        let (red, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
        GamePlan {
            red,
            black,
            opening: (k / 2) % self.openings.len().max(1),
        }
    }

    /// Is game `index` this run's to play (see `rounds`)?
    pub fn plays(&self, index: usize) -> bool {
        self.rounds
            .is_none_or(|(start, end)| (start..end).contains(&index))
    }

    /// How many games this run plays at most.
    pub fn games_to_play(&self) -> usize {
        (0..self.total_games()).filter(|&i| self.plays(i)).count()
    }

    /// The limit engine `engine` plays with.
    pub fn limit_of(&self, engine: usize) -> Limit {
        self.engines[engine].limit.unwrap_or(self.limit)
    }

    /// Checks what `run` relies on.
    pub fn validate(&self) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err("a match needs at least two engines".into());
        }
        let mut names: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
        names.sort();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("two engines are named '{}'", w[0]));
        }
        if self.openings.is_empty() {
            return Err("no opening positions".into());
        }
        if self.sprt.is_some() && self.engines.len() != 2 {
            return Err("an SPRT needs exactly two engines".into());
        }
        Ok(())
    }
}

/// One finished game, with who played which colour (engine indices).
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub index: usize,
    pub red: usize,
    pub black: usize,
    pub record: GameRecord,
}

impl PlayedGame {
    /// Points for `engine` (1, ½ or 0), or `None` if it did not play.
    pub fn points_of(&self, engine: usize) -> Option<f64> {
        let side_won = match self.record.outcome {
            GameResult::Draw => return (engine == self.red || engine == self.black).then_some(0.5),
            GameResult::RedWins => self.red,
            GameResult::BlackWins => self.black,
        };
        if engine == side_won {
            Some(1.0)
        } else if engine == self.red || engine == self.black {
            Some(0.0)
        } else {
            None
        }
    }
}

/// The whole match.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    pub games: Vec<PlayedGame>,
    /// The first engine's wins, draws and losses (against everyone it met).
    pub tally: Tally,
    /// The first engine's finished pairs of games (one opening, colours swapped).
    pub penta: Penta,
    pub sprt: Option<(f64, SprtVerdict)>,
    /// The match stopped before all games were played (Ctrl-C).
    pub interrupted: bool,
    /// The first engine's points in games whose partner (same opening, colours swapped) is
    /// not in yet, by game index.
    unpaired: HashMap<usize, f64>,
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

    /// Each engine's wins, draws and losses over all its games.
    pub fn standings(&self, engines: usize) -> Vec<Tally> {
        let mut out = vec![Tally::default(); engines];
        for g in &self.games {
            for (e, tally) in out.iter_mut().enumerate() {
                if let Some(points) = g.points_of(e) {
                    tally.add(points);
                }
            }
        }
        out
    }

    /// Engine `a`'s wins, draws and losses against engine `b`.
    pub fn head_to_head(&self, a: usize, b: usize) -> Tally {
        let mut t = Tally::default();
        for g in &self.games {
            if (g.red, g.black) != (a, b) && (g.red, g.black) != (b, a) {
                continue;
            }
            if let Some(points) = g.points_of(a) {
                t.add(points);
            }
        }
        t
    }
}

/// Plays game `index`; `Ok(None)` when it was abandoned (the match was interrupted).
fn play_one(config: &MatchConfig, index: usize) -> Result<Option<PlayedGame>, String> {
    let plan = config.plan(index);
    let opening = &config.openings[plan.opening];
    let timeout = Duration::from_secs(10);
    let mut red = Engine::start(&config.engines[plan.red], &config.rules, timeout)?;
    let mut black = Engine::start(&config.engines[plan.black], &config.rules, timeout)?;
    red.new_game(timeout)?;
    black.new_game(timeout)?;
    let limits = [config.limit_of(plan.red), config.limit_of(plan.black)];
    let record = game::play(opening, &mut red, &mut black, limits, &config.referee());
    red.quit();
    black.quit();
    Ok(record.map(|record| PlayedGame {
        index,
        red: plan.red,
        black: plan.black,
        record,
    }))
}

/// Adds a finished game to the report (tally, pairs and SPRT); returns whether the SPRT has
/// decided.
fn record(config: &MatchConfig, report: &mut MatchReport, game: PlayedGame) -> bool {
    if let Some(points) = game.points_of(0) {
        report.tally.add(points);
        // Games 2k and 2k+1 are one opening with colours swapped (`MatchConfig::plan`): the
        // pair counts once both are in, whichever finished first.
        match report.unpaired.remove(&(game.index ^ 1)) {
            Some(other) => report.penta.add(points + other),
            None => {
                report.unpaired.insert(game.index, points);
            }
        }
    }
    report.games.push(game);
    let Some(sprt) = config.sprt else {
        return false;
    };
    let llr = match config.model {
        Model::Pentanomial => sprt.llr_pairs(&report.penta),
        Model::Trinomial => sprt.llr(&report.tally),
    };
    let verdict = sprt.verdict_of(llr);
    report.sprt = Some((llr, verdict));
    verdict != SprtVerdict::Continue
}

/// Plays the match; `on_game` sees each game as it finishes (for progress output and the
/// PGN file). `previous` are games already played (resuming from a PGN): they count, and their
/// rounds are not played again. The report keeps every game whole (see `run_lean`).
pub fn run(
    config: &MatchConfig,
    previous: Vec<PlayedGame>,
    on_game: impl Fn(&PlayedGame, &MatchReport) + Sync,
) -> Result<MatchReport, String> {
    run_with(config, previous, true, on_game)
}

/// `run` for a match whose games are written as they finish: once `on_game` has seen a game,
/// the report keeps only its result (moves, scores and start position are dropped), so the
/// runner's memory stays nearly flat over thousands of games (`pgn` of such a report has no
/// moves).
pub fn run_lean(
    config: &MatchConfig,
    previous: Vec<PlayedGame>,
    on_game: impl Fn(&PlayedGame, &MatchReport) + Sync,
) -> Result<MatchReport, String> {
    run_with(config, previous, false, on_game)
}

/// Drops what only the PGN needs.
fn strip(game: &mut PlayedGame) {
    game.record.moves = Vec::new();
    game.record.scores = Vec::new();
    game.record.start_fen = String::new();
}

fn run_with(
    config: &MatchConfig,
    previous: Vec<PlayedGame>,
    keep_moves: bool,
    on_game: impl Fn(&PlayedGame, &MatchReport) + Sync,
) -> Result<MatchReport, String> {
    config.validate()?;
    let total = config.total_games();
    let done: std::collections::HashSet<usize> = previous.iter().map(|g| g.index).collect();
    let mut start = MatchReport::default();
    let mut decided = false;
    for game in previous {
        decided |= record(config, &mut start, game);
        if !keep_moves {
            strip(start.games.last_mut().expect("just recorded"));
        }
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(decided);
    let report = Mutex::new(start);
    let error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) || interrupted() {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        return;
                    }
                    if done.contains(&index) || !config.plays(index) {
                        continue;
                    }
                    match play_one(config, index) {
                        Ok(Some(game)) => {
                            let mut r = report.lock().unwrap_or_else(|e| e.into_inner());
                            if record(config, &mut r, game) {
                                stop.store(true, Ordering::Relaxed);
                            }
                            let last = r.games.last().expect("just recorded");
                            on_game(last, &r);
                            if !keep_moves {
                                strip(r.games.last_mut().expect("just recorded"));
                            }
                        }
                        Ok(None) => return,
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
    report.interrupted = interrupted();
    report.games.sort_by_key(|g| g.index);
    Ok(report)
}

/// The games as PGN, with the xiangqi variant, start FEN, result reason and the moves in the
/// match's notation (ICCS unless asked otherwise).
pub fn pgn(config: &MatchConfig, report: &MatchReport) -> String {
    report.games.iter().map(|g| pgn_game(config, g)).collect()
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PGN; the engines' reported scores (from Red's view, in pawns) follow the moves
/// as comments.
pub fn pgn_game(config: &MatchConfig, g: &PlayedGame) -> String {
    let (red, black) = (&config.engines[g.red].name, &config.engines[g.black].name);
    let r = &g.record;
    let mut out = format!(
        "[Event \"chariot match\"]\n[Round \"{}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n[Variant \"xiangqi\"]\n[FEN \"{}\"]\n[Termination \"{}\"]\n[PlyCount \"{}\"]\n\n",
        g.index + 1,
        escape(red),
        escape(black),
        r.outcome.pgn(),
        r.start_fen,
        escape(&r.reason),
        r.moves.len()
    );
    let notation = config.notation;
    if notation != crate::tools::gamefile::Notation::Iccs {
        let name = match notation {
            crate::tools::gamefile::Notation::Wxf => "WXF",
            _ => "Chinese",
        };
        out.insert_str(out.len() - 1, &format!("[Format \"{name}\"]\n"));
    }
    let mut pos = Position::from_fen(&r.start_fen).expect("the start FEN was ours");
    let mut line = String::new();
    for (i, &mv) in r.moves.iter().enumerate() {
        if pos.side_to_move() == crate::core::Color::Red {
            line.push_str(&format!("{}. ", pos.fullmove_number()));
        } else if i == 0 {
            line.push_str(&format!("{}... ", pos.fullmove_number()));
        }
        line.push_str(&notation.write(&pos, mv));
        line.push(' ');
        if let Some(Some(score)) = r.scores.get(i).filter(|_| config.pgn_scores) {
            line.push_str(&format!("{{{:+.2}}} ", *score as f64 / 100.0));
        }
        pos.make_move(mv);
    }
    line.push_str(r.outcome.pgn());
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Reads back games written by `pgn_game` (to resume a match). Games whose players are not
/// engines of this match are refused.
pub fn parse_pgn(config: &MatchConfig, text: &str) -> Result<Vec<PlayedGame>, String> {
    let mut games = Vec::new();
    for game in crate::tools::pgn::read_games(text) {
        let broken = || format!("the game at line {} of the PGN is incomplete", game.line);
        let round: usize = game
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .filter(|&r| r >= 1)
            .ok_or_else(broken)?;
        let engine = |tag: &str| -> Result<usize, String> {
            let name = game.tag(tag).ok_or_else(broken)?;
            config
                .engines
                .iter()
                .position(|e| e.name == name)
                .ok_or_else(|| format!("the PGN's engine '{name}' is not in this match"))
        };
        let (red, black) = (engine("Red")?, engine("Black")?);
        let plan = (round <= config.total_games()).then(|| config.plan(round - 1));
        if plan.is_none_or(|p| (p.red, p.black) != (red, black)) {
            return Err(format!(
                "round {round} of the PGN does not belong to this match's schedule"
            ));
        }
        let outcome = match game.tag("Result").ok_or_else(broken)? {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            other => {
                return Err(format!(
                    "round {round}: result '{other}' is not a finished game"
                ));
            }
        };
        let start_fen = game.fen().ok_or_else(broken)?.to_string();
        let opening = plan.map(|p| config.openings[p.opening].to_fen());
        if opening.as_deref() != Some(start_fen.as_str()) {
            return Err(format!(
                "round {round} of the PGN starts from another opening than this match's"
            ));
        }
        let mut pos = Position::from_fen(&start_fen).map_err(|e| format!("round {round}: {e}"))?;
        let mut moves = Vec::new();
        for token in &game.moves {
            let mv = pos
                .parse_human_move(token)
                .map_err(|e| format!("round {round}: {e}"))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        // Scores as `pgn_game` writes them: pawns from Red's point of view.
        let scores = game
            .comments
            .iter()
            .map(|c| {
                c.as_deref()
                    .and_then(|t| t.parse::<f64>().ok())
                    .map(|pawns| (pawns * 100.0).round() as i32)
            })
            .collect();
        let record = GameRecord {
            start_fen,
            scores,
            moves,
            outcome,
            reason: game.tag("Termination").unwrap_or_default().to_string(),
        };
        games.push(PlayedGame {
            index: round - 1,
            red,
            black,
            record,
        });
    }
    Ok(games)
}

/// An Elo estimate and its 95% half-width as two JSON numbers (`null` while unbounded).
fn json_elo(elo: Option<(f64, f64)>) -> (String, String) {
    match elo {
        Some((e, r)) => (format!("{e:.2}"), format!("{r:.2}")),
        None => ("null".into(), "null".into()),
    }
}

fn elo_fields(t: &Tally, elo: Option<(f64, f64)>) -> String {
    let (elo, err) = json_elo(elo);
    format!(
        "\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{:.4},\"elo\":{elo},\"elo_error95\":{err},\"los\":{:.4},\"draw_ratio\":{:.4}",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        t.los(),
        t.draw_ratio()
    )
}

/// The match result as one JSON object (for scripts): the first engine's figures at the top
/// level, every engine's in `standings`.
pub fn json_summary(config: &MatchConfig, report: &MatchReport) -> String {
    let reasons: Vec<String> = report
        .reasons()
        .iter()
        .map(|(k, n)| format!("{}:{n}", json_string(k)))
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
                json_string(&format!("{verdict:?}"))
            )
        }
        _ => "null".into(),
    };
    let names: Vec<String> = config
        .engines
        .iter()
        .map(|e| json_string(&e.name))
        .collect();
    let standings: Vec<String> = report
        .standings(config.engines.len())
        .iter()
        .zip(&config.engines)
        .map(|(t, e)| {
            format!(
                "{{\"engine\":{},{}}}",
                json_string(&e.name),
                elo_fields(t, t.elo())
            )
        })
        .collect();
    let (tri, tri_err) = json_elo(report.tally.elo());
    let (penta, penta_err) = json_elo(report.penta.elo());
    let models = format!(
        "\"elo_model\":{},\"pairs\":{},\"pentanomial\":{:?},\"elo_pentanomial\":{penta},\"elo_pentanomial_error95\":{penta_err},\"elo_trinomial\":{tri},\"elo_trinomial_error95\":{tri_err}",
        json_string(config.model.name()),
        report.penta.pairs(),
        report.penta.counts
    );
    format!(
        "{{\"engines\":[{}],{},{models},\"reasons\":{{{}}},\"sprt\":{sprt},\"standings\":[{}],\"interrupted\":{}}}\n",
        names.join(","),
        elo_fields(&report.tally, model_elo(config.model, report)),
        reasons.join(","),
        standings.join(","),
        report.interrupted
    )
}

/// The closing summary for people: the first engine's W/D/L, Elo, LOS and draw ratio, the
/// result reasons, the SPRT, and with more than two engines a ranking with the results of
/// each pairing.
pub fn summary_text(config: &MatchConfig, report: &MatchReport) -> String {
    let mut out = String::new();
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let t = report.tally;
    let opponents = if names.len() == 2 {
        names[1].to_string()
    } else {
        "the field".to_string()
    };
    out.push_str(&format!(
        "{} vs {opponents}: {} games{}\n",
        names[0],
        t.games(),
        if report.interrupted {
            " (interrupted: --resume finishes it)"
        } else {
            ""
        }
    ));
    out.push_str(&format!(
        "W/D/L {}/{}/{}  score {:.1}%  draws {:.1}%\n",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        100.0 * t.draw_ratio()
    ));
    out.push_str(&elo_line(config.model, report));
    out.push('\n');
    for (reason, n) in report.reasons() {
        out.push_str(&format!("  {n:>4} x {reason}\n"));
    }
    if let (Some(s), Some((llr, verdict))) = (config.sprt, report.sprt) {
        let (lo, hi) = s.bounds();
        out.push_str(&format!(
            "SPRT elo0={} elo1={} ({}): LLR {llr:.2} [{lo:.2}, {hi:.2}] {verdict:?}\n",
            s.elo0,
            s.elo1,
            config.model.name()
        ));
    }
    if names.len() > 2 {
        out.push_str("\nrank engine               games  score   Elo vs field\n");
        let standings = report.standings(names.len());
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| {
            standings[b]
                .score()
                .partial_cmp(&standings[a].score())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        for (rank, &e) in order.iter().enumerate() {
            let s = &standings[e];
            out.push_str(&format!(
                "{:>4} {:<20} {:>6} {:>5.1}%  {}\n",
                rank + 1,
                names[e],
                s.games(),
                100.0 * s.score(),
                elo_short(s)
            ));
        }
        out.push_str("\npairing                                  W/D/L       Elo\n");
        for (a, b) in config.pairings() {
            let h = report.head_to_head(a, b);
            out.push_str(&format!(
                "{:<40} {:>3}/{}/{:<3}  {}\n",
                format!("{} vs {}", names[a], names[b]),
                h.wins,
                h.draws,
                h.losses,
                elo_short(&h)
            ));
        }
    }
    out
}

/// The first engine's Elo under `model`.
fn model_elo(model: Model, report: &MatchReport) -> Option<(f64, f64)> {
    match model {
        Model::Pentanomial => report.penta.elo(),
        Model::Trinomial => report.tally.elo(),
    }
}

/// The Elo line of the summary (by the match's model, the other model's in brackets), then
/// the pairs' five counts.
fn elo_line(model: Model, report: &MatchReport) -> String {
    let t = &report.tally;
    let p = &report.penta;
    let mut out = match model_elo(model, report) {
        Some((elo, err)) => {
            let elo = if elo.abs() < 0.05 { 0.0 } else { elo };
            format!(
                "Elo {elo:+.1} +- {err:.1} (95%, {})  LOS {:.1}%",
                model.name(),
                100.0 * t.los()
            )
        }
        None => format!(
            "Elo not bounded yet (score {:.0}%, {})  LOS {:.1}%",
            100.0 * t.score(),
            model.name(),
            100.0 * t.los()
        ),
    };
    let other = match model {
        Model::Pentanomial => Model::Trinomial,
        Model::Trinomial => Model::Pentanomial,
    };
    if let Some((elo, err)) = model_elo(other, report) {
        out.push_str(&format!("  [{}: {elo:+.1} +- {err:.1}]", other.name()));
    }
    let c = p.counts;
    out.push_str(&format!(
        "\nPairs {} (0/0.5/1/1.5/2 points: LL, LD, DD+WL, WD, WW): {}/{}/{}/{}/{}",
        p.pairs(),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4]
    ));
    out
}

/// `+35 +- 40`, or `-` while the Elo is unbounded (no game, or all won or lost).
pub fn elo_short(t: &Tally) -> String {
    t.elo().map_or("-".to_string(), |(e, err)| {
        format!("{:+.0} +- {err:.0}", if e.abs() < 0.5 { 0.0 } else { e })
    })
}
