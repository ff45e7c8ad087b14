//! `chariot match`: the command line of matches, round robins and gauntlets (limits, openings,
//! adjudication, SPRT), the live report and the PGN/JSON output.

use super::RuleArgs;
use clap::Args;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine as NAME=COMMAND (a shell command line); two for a match, more for a round
    /// robin (or a gauntlet with --gauntlet).
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// An engine option as NAME.OPTION=VALUE (e.g. B.Threads=2), set after the handshake.
    #[arg(long = "option", num_args = 1)]
    pub options: Vec<String>,
    /// Protocol of every engine: auto (try UCCI, then UCI), ucci or uci.
    #[arg(long, default_value = "auto")]
    pub protocol: String,
    /// One engine's protocol, as NAME=auto|ucci|uci.
    #[arg(long = "engine-protocol", num_args = 1)]
    pub engine_protocols: Vec<String>,
    /// One engine's working directory, as NAME=DIR.
    #[arg(long = "dir", num_args = 1)]
    pub dirs: Vec<String>,
    /// One engine's own limit, as NAME=tc=[MOVES/]BASE[+INC], NAME=depth=D, NAME=nodes=N or
    /// NAME=movetime=MS.
    #[arg(long = "limit", num_args = 1)]
    pub limits: Vec<String>,
    /// With three or more engines: the first plays each of the others (default: everyone
    /// plays everyone).
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per pairing (played in pairs, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Fixed time per move, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Time control [MOVES/]BASE[+INC] in seconds, fractions allowed: 10+0.1 (sudden death
    /// with an increment), 40/60 (60 s for every 40 moves).
    #[arg(long)]
    pub tc: Option<String>,
    /// Openings: 'builtin' (the shipped suite of opening-theory positions), 'startpos', or a
    /// file of FEN/EPD lines, move lists or PGN games.
    #[arg(long, default_value = "builtin")]
    pub openings: String,
    /// Opening order: sequential or random (shuffled with --seed).
    #[arg(long, default_value = "sequential")]
    pub opening_order: String,
    /// Seed of the random opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: the cores divided by the threads per engine).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Write a JSON summary (tally, Elo, LOS, SPRT, reasons, standings) to this file.
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
    /// Write every game to this PGN file as it finishes.
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// Continue an interrupted match: the games already in the --pgn file count and are not
    /// played again.
    #[arg(long, requires = "pgn")]
    pub resume: bool,
    /// Stop when the SPRT decides: elo0,elo1[,alpha,beta] (defaults 0.05, 0.05).
    #[arg(long)]
    pub sprt: Option<String>,
    /// The model of the games for the Elo and the SPRT: pentanomial (pairs of games, one
    /// opening with colours swapped, as fishtest and fastchess count them) or trinomial
    /// (single games: win, draw, loss).
    #[arg(long, default_value = "pentanomial")]
    pub stats: String,
    /// Adjudicate a draw: PLIES,SCORE,MOVES — after PLIES plies, when both engines' last
    /// MOVES scores are within ±SCORE centipawns (e.g. 80,10,8).
    #[arg(long)]
    pub draw_adjudication: Option<String>,
    /// Adjudicate a win: SCORE,MOVES — when both engines' last MOVES scores agree one side
    /// leads by SCORE centipawns (e.g. 1000,4).
    #[arg(long)]
    pub win_adjudication: Option<String>,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Leave the engines' scores out of the PGN (by default each move carries one).
    #[arg(long)]
    pub no_pgn_scores: bool,
    /// The PGN's move notation: iccs (the default), wxf or chinese.
    #[arg(long, default_value = "iccs")]
    pub pgn_notation: String,
    /// The PGN's encoding: utf-8 (the default) or gbk (what most Chinese GUIs expect).
    #[arg(long, default_value = "utf-8")]
    pub pgn_encoding: String,
    /// No live progress bar (a line per game is printed either way).
    #[arg(long)]
    pub no_progress: bool,
    /// Play only rounds A to B (1-based, as the PGN numbers them), e.g. 5-6: one share of a
    /// match that other runs play the rest of.
    #[arg(long, conflicts_with = "merge")]
    pub rounds: Option<String>,
    /// Play nothing: merge the games of these PGN files (shares of this same match, written
    /// with --rounds) into one report, --json and --pgn.
    #[arg(long, num_args = 1.., conflicts_with = "resume")]
    pub merge: Vec<std::path::PathBuf>,
    /// Print how many games the match has, then exit.
    #[arg(long)]
    pub count_games: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
}

pub fn run(args: MatchArgs) -> Result<(), String> {
    use chariot::tools::matches::{self, PlayedGame};
    let mut config = match_config(&args)?;
    if args.count_games {
        println!("{}", config.total_games());
        return Ok(());
    }
    if let Some(text) = &args.rounds {
        config.rounds = Some(parse_rounds(text, config.total_games())?);
    }
    if !args.merge.is_empty() {
        return merge(&args, config);
    }
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let gbk = chariot::tools::gamefile::encoding::wants_gbk("--pgn-encoding", &args.pgn_encoding)?;
    // Games already played (resume), and the PGN file each new game is appended to at once,
    // so an interrupted match loses no finished game.
    let mut previous = Vec::new();
    let pgn_file = match &args.pgn {
        None => None,
        Some(path) => {
            if args.resume && path.exists() {
                let bytes = std::fs::read(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let (text, _) = chariot::tools::gamefile::encoding::decode(&bytes);
                previous = matches::parse_pgn(&config, &text)?;
                say_or_abandon(&format!(
                    "resuming: {} games already played",
                    previous.len()
                ));
            }
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(args.resume)
                .write(true)
                .truncate(!args.resume)
                .open(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Some(std::sync::Mutex::new(file))
        }
    };
    // Ctrl-C: the first lets the games in progress end, the second abandons them, a third
    // gives up at once.
    let _ = ctrlc::set_handler(|| match matches::interrupt() {
        1 => eprintln!(
            "\ninterrupted: finishing the games in progress (Ctrl-C again to abandon them)"
        ),
        2 => eprintln!("\nabandoning the games in progress"),
        _ => std::process::exit(130),
    });
    let total = config.games_to_play() as u64;
    let bar = if args.no_progress {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(total)
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]")
            .expect("a valid template"),
    );
    bar.set_position(previous.len() as u64);
    let report = matches::run_lean(&config, previous, |g: &PlayedGame, r| {
        if let Some(file) = &pgn_file {
            use std::io::Write;
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            let text = matches::pgn_game(&config, g);
            let _ = if gbk {
                file.write_all(&chariot::tools::gamefile::encoding::encode_gbk(&text))
            } else {
                file.write_all(text.as_bytes())
            };
            let _ = file.flush();
        }
        let t = r.tally;
        let so_far = format!(
            "{} W/D/L {}-{}-{}  Elo {}",
            names[0],
            t.wins,
            t.draws,
            t.losses,
            matches::elo_short(&t)
        );
        bar.suspend(|| {
            let line = format!(
                "game {:>4}: {} (red) vs {}: {} ({})   {so_far}",
                g.index + 1,
                names[g.red],
                names[g.black],
                g.record.outcome.pgn(),
                g.record.reason,
            );
            say_or_abandon(&line);
        });
        bar.set_position(r.games.len() as u64);
        bar.set_message(so_far);
    })?;
    bar.finish_and_clear();
    say_or_abandon(&format!(
        "\n{}",
        matches::summary_text(&config, &report).trim_end()
    ));
    if let Some(path) = &args.json {
        std::fs::write(path, matches::json_summary(&config, &report))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Prints a line of the match's report. When no one reads it any more (`| head` has
/// ended), the match stops as on a second Ctrl-C: the games in progress are abandoned, the
/// finished ones are already in the PGN file, and the runner ends without more output.
fn say_or_abandon(line: &str) {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    static CLOSED: AtomicBool = AtomicBool::new(false);
    if CLOSED.load(Ordering::SeqCst) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        CLOSED.store(true, Ordering::SeqCst);
        chariot::tools::matches::abandon();
    }
}

/// One limit: `tc=[MOVES/]BASE[+INC]` (seconds, fractions allowed), `depth=D`, `nodes=N` or
/// `movetime=MS`.
fn parse_limit(spec: &str) -> Result<chariot::tools::matches::game::Limit, String> {
    use chariot::tools::matches::game::Limit;
    let seconds = |t: &str| -> Result<Duration, String> {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("'{t}' is not a number of seconds"))
    };
    let (kind, value) = spec
        .split_once('=')
        .ok_or_else(|| format!("limit '{spec}': expected tc=, depth=, nodes= or movetime="))?;
    let number = |v: &str| v.trim().parse::<u64>().ok().filter(|&n| n > 0);
    match kind.trim() {
        "tc" => {
            // [MOVES/]BASE[+INC]
            let (moves, clock) = match value.split_once('/') {
                Some((n, rest)) => match number(n) {
                    Some(n) if n <= 1000 => (Some(n as u32), rest),
                    _ => return Err(format!("limit '{spec}': moves per control 1 to 1000")),
                },
                None => (None, value),
            };
            let (base, inc) = clock.split_once('+').unwrap_or((clock, "0"));
            let (base, increment) = (seconds(base)?, seconds(inc)?);
            if base.is_zero() && increment.is_zero() {
                return Err(format!("limit '{spec}': the clock would be empty"));
            }
            Ok(Limit::Clock {
                base,
                increment,
                moves,
            })
        }
        "depth" => match number(value) {
            Some(d) if d <= 64 => Ok(Limit::Depth(d as u32)),
            _ => Err(format!("limit '{spec}': depth 1 to 64")),
        },
        "nodes" => number(value)
            .map(Limit::Nodes)
            .ok_or_else(|| format!("limit '{spec}': a positive node count")),
        "movetime" => number(value)
            .map(|ms| Limit::MoveTime(Duration::from_millis(ms)))
            .ok_or_else(|| format!("limit '{spec}': a positive number of milliseconds")),
        other => Err(format!("limit '{spec}': unknown kind '{other}'")),
    }
}

/// Builds the match configuration from the command line, or says what is wrong with it.
fn match_config(args: &MatchArgs) -> Result<chariot::tools::matches::MatchConfig, String> {
    use chariot::tools::matches::{MatchConfig, Schedule, engine, openings, stats};
    if args.engines.len() < 2 {
        return Err("give at least two --engine NAME=COMMAND".into());
    }
    let protocol_of = |text: &str| match text.trim().to_ascii_lowercase().as_str() {
        "auto" => Ok(engine::Protocol::Auto),
        "ucci" => Ok(engine::Protocol::Ucci),
        "uci" => Ok(engine::Protocol::Uci),
        other => Err(format!("unknown protocol '{other}' (auto, ucci or uci)")),
    };
    let protocol = protocol_of(&args.protocol)?;
    let mut engines = args
        .engines
        .iter()
        .map(|text| {
            let (name, command) = text
                .split_once('=')
                .filter(|(n, c)| !n.trim().is_empty() && !c.trim().is_empty())
                .ok_or_else(|| format!("--engine '{text}': expected NAME=COMMAND"))?;
            let mut e = engine::EngineConfig::new(name.trim(), command.trim());
            e.protocol = protocol;
            Ok(e)
        })
        .collect::<Result<Vec<_>, String>>()?;
    // NAME=REST for the per-engine flags.
    fn split_named<'a>(
        engines: &'a mut [engine::EngineConfig],
        flag: &str,
        text: &'a str,
        separator: char,
    ) -> Result<(&'a mut engine::EngineConfig, &'a str), String> {
        let (name, rest) = text
            .split_once(separator)
            .filter(|(n, r)| !n.trim().is_empty() && !r.trim().is_empty())
            .ok_or_else(|| format!("--{flag} '{text}': expected NAME{separator}VALUE"))?;
        let name = name.trim();
        let target = engines
            .iter_mut()
            .find(|e| e.name == name)
            .ok_or_else(|| format!("--{flag} '{text}': no engine named '{name}'"))?;
        Ok((target, rest.trim()))
    }
    for text in &args.options {
        let (target, rest) = split_named(&mut engines, "option", text, '.')?;
        let (key, value) = rest
            .split_once('=')
            .filter(|(k, _)| !k.trim().is_empty())
            .ok_or_else(|| format!("--option '{text}': expected NAME.OPTION=VALUE"))?;
        target
            .options
            .push((key.trim().to_string(), value.trim().to_string()));
    }
    for text in &args.engine_protocols {
        let (target, rest) = split_named(&mut engines, "engine-protocol", text, '=')?;
        target.protocol = protocol_of(rest)?;
    }
    for text in &args.dirs {
        let (target, rest) = split_named(&mut engines, "dir", text, '=')?;
        let dir = std::path::PathBuf::from(rest);
        if !dir.is_dir() {
            return Err(format!(
                "--dir '{text}': {} is not a directory",
                dir.display()
            ));
        }
        target.dir = Some(dir);
    }
    for text in &args.limits {
        let (target, rest) = split_named(&mut engines, "limit", text, '=')?;
        target.limit = Some(parse_limit(rest)?);
    }
    let global = [
        args.depth.map(|d| format!("depth={d}")),
        args.nodes.map(|n| format!("nodes={n}")),
        args.movetime.map(|ms| format!("movetime={ms}")),
        args.tc.as_ref().map(|tc| format!("tc={tc}")),
    ];
    let given: Vec<&String> = global.iter().flatten().collect();
    let limit = match given.as_slice() {
        [one] => parse_limit(one)?,
        [] if engines.iter().all(|e| e.limit.is_some()) => parse_limit("depth=1")?,
        _ => {
            return Err(
                "give exactly one limit: --depth D, --nodes N, --movetime MS or --tc BASE+INC"
                    .into(),
            );
        }
    };
    let order = match args.opening_order.to_ascii_lowercase().as_str() {
        "sequential" => openings::Order::Sequential,
        "random" => openings::Order::Random(args.seed),
        other => return Err(format!("--opening-order '{other}': sequential or random")),
    };
    let openings = openings::arrange(openings::load(&args.openings)?, order);
    super::warn_composed_openings(&openings);
    let sprt = match &args.sprt {
        None => None,
        Some(text) => {
            let v: Vec<f64> = text
                .split(',')
                .map(|x| {
                    x.trim()
                        .parse::<f64>()
                        .map_err(|_| format!("--sprt '{text}': numbers expected"))
                })
                .collect::<Result<_, _>>()?;
            match v.as_slice() {
                [e0, e1] => Some(stats::Sprt {
                    elo0: *e0,
                    elo1: *e1,
                    alpha: 0.05,
                    beta: 0.05,
                }),
                [e0, e1, a, b] if *a > 0.0 && *a < 0.5 && *b > 0.0 && *b < 0.5 => {
                    Some(stats::Sprt {
                        elo0: *e0,
                        elo1: *e1,
                        alpha: *a,
                        beta: *b,
                    })
                }
                _ => return Err(format!("--sprt '{text}': expected elo0,elo1[,alpha,beta]")),
            }
        }
    };
    let model = stats::Model::parse(&args.stats)
        .ok_or_else(|| format!("--stats '{}': pentanomial or trinomial", args.stats))?;
    let mut adjudication = chariot::tools::matches::game::Adjudication::default();
    if let Some(text) = &args.draw_adjudication {
        let [after, score, moves] = super::comma_numbers::<3>("draw-adjudication", text)?;
        adjudication.draw = Some((
            after as usize,
            score.min(100_000) as i32,
            moves.max(1) as usize,
        ));
    }
    if let Some(text) = &args.win_adjudication {
        let [score, moves] = super::comma_numbers::<2>("win-adjudication", text)?;
        adjudication.win = Some((score.clamp(1, 100_000) as i32, moves.max(1) as usize));
    }
    // By default as many games at once as the cores allow, given each engine's threads.
    let threads = engines
        .iter()
        .flat_map(|e| &e.options)
        .filter(|(k, _)| k.eq_ignore_ascii_case("threads"))
        .filter_map(|(_, v)| v.parse::<usize>().ok())
        .max()
        .unwrap_or(1)
        .max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = args
        .concurrency
        .unwrap_or((cores / threads).max(1))
        .clamp(1, 64);
    let config = MatchConfig {
        adjudication,
        engines,
        schedule: if args.gauntlet {
            Schedule::Gauntlet
        } else {
            Schedule::RoundRobin
        },
        limit,
        games: args.games.max(1),
        openings,
        concurrency,
        margin: Duration::from_millis(args.margin),
        hang: Duration::from_secs(60),
        sprt,
        model,
        rules: args.rules.rules()?,
        pgn_scores: !args.no_pgn_scores,
        notation: chariot::tools::gamefile::Notation::parse(&args.pgn_notation).ok_or_else(
            || {
                format!(
                    "--pgn-notation '{}': iccs, wxf or chinese",
                    args.pgn_notation
                )
            },
        )?,
        rounds: None,
    };
    config.validate()?;
    Ok(config)
}

/// `A-B`, 1-based and inclusive, as game indices `A-1..B`.
fn parse_rounds(text: &str, total: usize) -> Result<(usize, usize), String> {
    let bad = || format!("--rounds '{text}': expected A-B with 1 <= A <= B <= {total}");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || a > b || b > total {
        return Err(bad());
    }
    Ok((a - 1, b))
}

/// `--merge`: the games of shares of one match, reported as the whole match would be.
fn merge(args: &MatchArgs, mut config: chariot::tools::matches::MatchConfig) -> Result<(), String> {
    use chariot::tools::matches;
    let mut games = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in &args.merge {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (text, _) = chariot::tools::gamefile::encoding::decode(&bytes);
        for game in
            matches::parse_pgn(&config, &text).map_err(|e| format!("{}: {e}", path.display()))?
        {
            if !seen.insert(game.index) {
                return Err(format!(
                    "{}: round {} is in more than one file",
                    path.display(),
                    game.index + 1
                ));
            }
            games.push(game);
        }
    }
    config.rounds = Some((0, 0));
    let report = matches::run(&config, games, |_, _| {})?;
    if let Some(path) = &args.pgn {
        let text = matches::pgn(&config, &report);
        let gbk =
            chariot::tools::gamefile::encoding::wants_gbk("--pgn-encoding", &args.pgn_encoding)?;
        let bytes = if gbk {
            chariot::tools::gamefile::encoding::encode_gbk(&text)
        } else {
            text.into_bytes()
        };
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    say_or_abandon(matches::summary_text(&config, &report).trim_end());
    if let Some(path) = &args.json {
        std::fs::write(path, matches::json_summary(&config, &report))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
