//! The `chariot` binary: parses the command line and hands over to the library.

mod cli;

use chariot::position::Position;
use chariot::search::Limits;
use chariot::search::threads::SearchPool;
use chariot::search::tt;
use chariot::tools::analyze::{self, AnalyzeReporter, Style};
use chariot::tools::{bench, perft};
use clap::Parser;
use cli::{Cli, Command, PositionArgs};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Shell tools write with `println!`, which panics when the reader goes away (`| head`). Like
/// other Unix tools they should just end quietly, so they get the default SIGPIPE action back
/// (Rust ignores SIGPIPE). The engine protocol keeps ignoring it: its writer handles errors.
/// So does `match`: it writes to engines, and one that has died (a mistyped command line)
/// must be reported, not kill the runner; its own output handles a closed pipe itself.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; it only restores the
    // default disposition of one signal, which no other code here relies on.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.command.is_some()
        && !matches!(cli.command, Some(Command::Match(_) | Command::Datagen(_)))
    {
        quiet_on_closed_pipe();
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Bench(args)) => run_bench(args),
        Some(Command::Analyze(args)) => run_analyze(args),
        Some(Command::Match(args)) => run_match(*args),
        Some(Command::Judge(args)) => run_judge(args),
        Some(Command::Datagen(args)) => run_datagen(*args),
        Some(Command::Train(args)) => run_train(*args),
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

/// A FEN given on the command line, or `startpos`.
fn parse_fen(text: &str) -> Result<Position, String> {
    if text.trim().eq_ignore_ascii_case("startpos") {
        Ok(Position::startpos())
    } else {
        Position::from_fen(text).map_err(|e| format!("bad FEN: {e}"))
    }
}

/// Builds the position a command line names, or says what is wrong with it.
fn load_position(args: &PositionArgs) -> Result<Position, String> {
    let mut pos = parse_fen(args.fen())?;
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
        rules: args.rules.rules()?,
        eval: args.eval.evaluator()?,
        ..Limits::default()
    };
    let mut pool = SearchPool::new(args.threads.clamp(1, 256), args.hash.clamp(1, tt::MAX_MB));
    let reporter = Arc::new(AnalyzeReporter::new(&pos, style));
    pool.search_sync(&pos, limits, reporter);
    Ok(())
}

fn run_judge(args: cli::JudgeArgs) -> Result<(), String> {
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

fn run_match(args: cli::MatchArgs) -> Result<(), String> {
    use chariot::tools::matches::{self, PlayedGame};
    let config = match_config(&args)?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    // Games already played (resume), and the PGN file each new game is appended to at once,
    // so an interrupted match loses no finished game.
    let mut previous = Vec::new();
    let pgn_file = match &args.pgn {
        None => None,
        Some(path) => {
            if args.resume && path.exists() {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
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
    let total = config.total_games() as u64;
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
    let report = matches::run(&config, previous, |g: &PlayedGame, r| {
        if let Some(file) = &pgn_file {
            use std::io::Write;
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            let _ = file.write_all(matches::pgn_game(&config, g).as_bytes());
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
fn match_config(args: &cli::MatchArgs) -> Result<chariot::tools::matches::MatchConfig, String> {
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
    let numbers = |flag: &str, text: &str, count: usize| -> Result<Vec<i64>, String> {
        let v: Vec<i64> = text
            .split(',')
            .map(|x| x.trim().parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--{flag} '{text}': numbers expected"))?;
        if v.len() != count || v.iter().any(|&n| n < 0) {
            return Err(format!(
                "--{flag} '{text}': {count} non-negative numbers expected"
            ));
        }
        Ok(v)
    };
    let mut adjudication = chariot::tools::matches::game::Adjudication::default();
    if let Some(text) = &args.draw_adjudication {
        let v = numbers("draw-adjudication", text, 3)?;
        adjudication.draw = Some((
            v[0] as usize,
            v[1].min(100_000) as i32,
            v[2].max(1) as usize,
        ));
    }
    if let Some(text) = &args.win_adjudication {
        let v = numbers("win-adjudication", text, 2)?;
        adjudication.win = Some((v[0].clamp(1, 100_000) as i32, v[1].max(1) as usize));
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
        rules: args.rules.rules()?,
        pgn_scores: !args.no_pgn_scores,
    };
    config.validate()?;
    Ok(config)
}

/// Parses `A,B` or `A,B,C` numbers for an adjudication option.
fn numbers<const N: usize>(option: &str, text: &str) -> Result<[i64; N], String> {
    let parts: Vec<Result<i64, _>> = text.split(',').map(|p| p.trim().parse::<i64>()).collect();
    match parts.into_iter().collect::<Result<Vec<_>, _>>() {
        Ok(v) if v.len() == N && v.iter().all(|&x| x >= 0) => Ok(v.try_into().expect("N values")),
        _ => Err(format!(
            "--{option} '{text}': expected {N} non-negative numbers separated by commas"
        )),
    }
}

fn run_datagen(args: cli::DatagenArgs) -> Result<(), String> {
    use chariot::tools::datagen::{self, DatagenConfig, DatagenReport, selfplay::GameSettings};
    use std::sync::atomic::{AtomicBool, Ordering};
    if !args.stats.is_empty() {
        let stats = datagen::stats::collect(&args.stats)?;
        print!("{}", stats.render());
        return Ok(());
    }
    let output = args.output.clone().ok_or("--output FILE is required")?;
    if !(1..=256).contains(&args.threads) {
        return Err(format!(
            "--threads {} is out of range (1 to 256)",
            args.threads
        ));
    }
    if !(1..=100_000_000).contains(&args.nodes) {
        return Err(format!(
            "--nodes {} is out of range (1 to 100000000)",
            args.nodes
        ));
    }
    if !(1..=tt::MAX_MB).contains(&args.hash) {
        return Err(format!(
            "--hash {} is out of range (1 to {})",
            args.hash,
            tt::MAX_MB
        ));
    }
    let [win_score, win_plies] = numbers::<2>("win-adjudication", &args.win_adjudication)?;
    let [draw_after, draw_score, draw_plies] =
        numbers::<3>("draw-adjudication", &args.draw_adjudication)?;
    let config = DatagenConfig {
        output,
        settings: GameSettings {
            nodes: args.nodes,
            random_plies: args.random_plies.min(200),
            max_start_score: args.max_start_score,
            win_score: win_score.min(30_000) as i32,
            win_plies: win_plies as usize,
            draw_after: draw_after as usize,
            draw_score: draw_score.min(30_000) as i32,
            draw_plies: draw_plies as usize,
            rules: args.rules.rules()?,
            hash_mb: args.hash,
            eval: args.eval.evaluator()?,
        },
        games: args.games,
        positions: args.positions,
        threads: args.threads,
        seed: args.seed,
        shard: datagen::parse_shard(&args.shard)?,
        append: args.append,
        openings: chariot::tools::matches::openings::load(&args.openings)?,
    };
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: writing the finished games (Ctrl-C again to quit at once)");
    });
    let total = config.positions.or(config.games);
    let bar = if args.no_progress {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(total.unwrap_or(0))
    };
    let unit = if config.positions.is_some() {
        "positions"
    } else {
        "games"
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}  [{{elapsed}}, ETA {{eta}}]"
        ))
        .expect("a valid template"),
    );
    struct Bar {
        bar: indicatif::ProgressBar,
        by_positions: bool,
        plain: bool,
        last_line: parking_lot::Mutex<std::time::Instant>,
    }
    impl datagen::Progress for Bar {
        fn update(&self, r: &DatagenReport) {
            self.bar.set_position(if self.by_positions {
                r.positions
            } else {
                r.games
            });
            self.bar.set_message(r.line());
            let mut last = self.last_line.lock();
            if self.plain && last.elapsed() >= Duration::from_secs(30) {
                *last = std::time::Instant::now();
                eprintln!("datagen: {}", r.line());
            }
        }
    }
    let progress = Bar {
        plain: bar.is_hidden(),
        bar,
        by_positions: config.positions.is_some(),
        last_line: parking_lot::Mutex::new(std::time::Instant::now()),
    };
    let report = datagen::run(&config, &STOP, &progress)?;
    progress.bar.finish_and_clear();
    println!(
        "{}{}: {} in {:.1} s",
        config.output.display(),
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        report.line(),
        report.elapsed.as_secs_f64()
    );
    Ok(())
}

fn run_train(args: cli::TrainArgs) -> Result<(), String> {
    use chariot::tools::train::{self, EpochReport, TrainConfig, TrainProgress};
    if !(1..=256).contains(&args.threads) {
        return Err(format!(
            "--threads {} is out of range (1 to 256)",
            args.threads
        ));
    }
    if !(args.lr > 0.0 && args.lr < 1.0 && (0.0..=1.0).contains(&args.lr_end)) {
        return Err("--lr must be in (0, 1) and --lr-end in [0, 1]".into());
    }
    if !(0.0..0.9).contains(&args.validation) {
        return Err("--validation must be in [0, 0.9)".into());
    }
    if args.k.is_some_and(|k| !(k > 1.0 && k < 100_000.0)) {
        return Err("--k must be a positive scale in centipawns".into());
    }
    let config = TrainConfig {
        data: args.data.clone(),
        epochs: args.epochs,
        batch: args.batch.max(1),
        lr: args.lr,
        lr_end: args.lr_end,
        decay: args.weight_decay,
        lambda: args.lambda,
        k: args.k,
        val_fraction: args.validation,
        seed: args.seed,
        threads: args.threads,
        max_positions: args.max_positions,
        checkpoint: args.checkpoint.clone(),
        resume: args.resume.clone(),
        mirror: !args.no_mirror,
    };
    let records = train::load(&config.data, config.max_positions)?;
    println!(
        "data: {} positions from {} file(s)",
        records.len(),
        config.data.len()
    );
    struct Bar(indicatif::ProgressBar);
    impl TrainProgress for Bar {
        fn batch(&self, epoch: usize, done: usize, total: usize, loss: f32) {
            self.0.set_length(total as u64);
            self.0.set_position(done as u64);
            self.0
                .set_message(format!("epoch {epoch}  batch loss {loss:.5}"));
        }
        fn epoch(&self, r: &EpochReport) {
            self.0.suspend(|| {
                println!(
                    "epoch {:>3}: train loss {:.6}  validation loss {:.6}  {:.0} positions/s  {:.1} s",
                    r.epoch,
                    r.train_loss,
                    r.val_loss,
                    r.positions_per_second,
                    r.elapsed.as_secs_f64()
                )
            });
        }
    }
    let bar = if args.no_progress {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(0)
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} batches  {msg}  [{elapsed}]")
            .expect("a valid template"),
    );
    let progress = Bar(bar);
    let report = train::train_on(&config, &records, &progress)?;
    progress.0.finish_and_clear();
    let net = report.model.quantise();
    let bytes = chariot::eval::nnue::file::write(&net);
    let partial = chariot::tools::datagen::partial_name(&args.output);
    std::fs::write(&partial, &bytes)
        .and_then(|()| std::fs::rename(&partial, &args.output))
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    println!(
        "K {:.1}, lambda {}; trained on {} positions, validated on {}; validation loss of the \
         search score alone {:.6}",
        report.k,
        config.lambda,
        report.train_positions,
        report.val_positions,
        report.score_baseline
    );
    println!(
        "wrote {} ({} bytes, hash {:016x})",
        args.output.display(),
        bytes.len(),
        net.hash
    );
    Ok(())
}
