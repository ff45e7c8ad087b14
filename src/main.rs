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

/// Shell tools write with `println!`, which panics when the reader goes away (`| head`). Like
/// other Unix tools they should just end quietly, so they get the default SIGPIPE action back
/// (Rust ignores SIGPIPE). The engine protocol keeps ignoring it: its writer handles errors.
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
    if cli.command.is_some() {
        quiet_on_closed_pipe();
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Bench(args)) => run_bench(args),
        Some(Command::Analyze(args)) => run_analyze(args),
        Some(Command::Match(args)) => run_match(args),
        Some(Command::Judge(args)) => run_judge(args),
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
        rules: args.rules.rules()?,
        ..Limits::default()
    };
    let mut pool = SearchPool::new(args.threads.clamp(1, 256), args.hash.clamp(1, 65536));
    let reporter = Arc::new(AnalyzeReporter::new(&pos, style));
    pool.search_sync(&pos, limits, reporter);
    Ok(())
}

fn run_judge(args: cli::JudgeArgs) -> Result<(), String> {
    use chariot::tools::{judge, pgn};
    let rules = args.rules.rules()?;
    let parse_fen = |fen: &str| -> Result<Position, String> {
        if fen.trim().eq_ignore_ascii_case("startpos") {
            Ok(Position::startpos())
        } else {
            Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))
        }
    };
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
    use chariot::tools::matches::{self, MatchConfig, engine, game::Limit, stats};
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine NAME=COMMAND, not {}",
            args.engines.len()
        ));
    }
    let protocol = match args.protocol.to_ascii_lowercase().as_str() {
        "auto" => engine::Protocol::Auto,
        "ucci" => engine::Protocol::Ucci,
        "uci" => engine::Protocol::Uci,
        other => return Err(format!("unknown protocol '{other}' (auto, ucci or uci)")),
    };
    let config_of = |text: &String| -> Result<engine::EngineConfig, String> {
        let (name, command) = text
            .split_once('=')
            .filter(|(n, c)| !n.trim().is_empty() && !c.trim().is_empty())
            .ok_or_else(|| format!("--engine '{text}': expected NAME=COMMAND"))?;
        Ok(engine::EngineConfig {
            name: name.trim().to_string(),
            command: command.trim().to_string(),
            protocol,
            options: Vec::new(),
        })
    };
    let mut engines = [config_of(&args.engines[0])?, config_of(&args.engines[1])?];
    for text in &args.options {
        let parsed = text.split_once('.').and_then(|(engine, rest)| {
            let (key, value) = rest.split_once('=')?;
            Some((engine.trim(), key.trim(), value.trim()))
        });
        let Some((engine, key, value)) = parsed.filter(|(_, k, _)| !k.is_empty()) else {
            return Err(format!("--option '{text}': expected NAME.OPTION=VALUE"));
        };
        let target = engines
            .iter_mut()
            .find(|e| e.name == engine)
            .ok_or_else(|| format!("--option '{text}': no engine named '{engine}'"))?;
        target.options.push((key.to_string(), value.to_string()));
    }
    let seconds = |t: &str| -> Result<Duration, String> {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("'{t}' is not a number of seconds"))
    };
    let limit =
        match (args.depth, args.nodes, args.movetime, &args.tc) {
            (Some(d), None, None, None) if (1..=64).contains(&d) => Limit::Depth(d),
            (None, Some(n), None, None) if n > 0 => Limit::Nodes(n),
            (None, None, Some(ms), None) if ms > 0 => Limit::MoveTime(Duration::from_millis(ms)),
            (None, None, None, Some(tc)) => {
                let (base, inc) = tc.split_once('+').unwrap_or((tc.as_str(), "0"));
                Limit::Clock {
                    base: seconds(base)?,
                    increment: seconds(inc)?,
                }
            }
            _ => return Err(
                "give exactly one limit: --depth 1..64, --nodes N, --movetime MS or --tc BASE+INC"
                    .into(),
            ),
        };
    let openings = match &args.openings {
        None => vec![Position::startpos()],
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| Position::from_fen(l).map_err(|e| format!("opening '{l}': {e}")))
                .collect::<Result<Vec<_>, _>>()?
        }
    };
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
    let mut adjudication = matches::game::Adjudication::default();
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
    let config = MatchConfig {
        adjudication,
        engines,
        limit,
        games: args.games.max(1),
        openings,
        concurrency: args.concurrency.clamp(1, 64),
        margin: Duration::from_millis(args.margin),
        hang: Duration::from_secs(60),
        sprt,
        rules: args.rules.rules()?,
    };
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
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
                println!("resuming: {} games already played", previous.len());
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
    let report = matches::run(
        &config,
        previous,
        |g: &matches::PlayedGame, r: &matches::MatchReport| {
            if let Some(file) = &pgn_file {
                use std::io::Write;
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                let _ = file.write_all(matches::pgn_game(&config, g).as_bytes());
                let _ = file.flush();
            }
            let red = &names[g.red];
            let black = &names[1 - g.red];
            let elo = r.tally.elo().map_or("-".to_string(), |(e, err)| {
                format!("{:+.0} +- {err:.0}", if e.abs() < 0.5 { 0.0 } else { e })
            });
            println!(
                "game {:>4}: {red} (red) vs {black}: {} ({})   W/D/L {}-{}-{}  Elo {elo}",
                g.index + 1,
                g.record.outcome.pgn(),
                g.record.reason,
                r.tally.wins,
                r.tally.draws,
                r.tally.losses
            );
        },
    )?;
    let t = report.tally;
    println!();
    println!("{} vs {}: {} games", names[0], names[1], t.games());
    println!(
        "W/D/L {}/{}/{}  score {:.1}%  draws {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        100.0 * t.draw_ratio()
    );
    match t.elo() {
        Some((elo, err)) => {
            let elo = if elo.abs() < 0.05 { 0.0 } else { elo };
            println!(
                "Elo {elo:+.1} +- {err:.1} (95%)  LOS {:.1}%",
                100.0 * t.los()
            )
        }
        None => println!(
            "Elo not bounded yet (score {:.0}%)  LOS {:.1}%",
            100.0 * t.score(),
            100.0 * t.los()
        ),
    }
    for (reason, n) in report.reasons() {
        println!("  {n:>4} x {reason}");
    }
    if let (Some(s), Some((llr, verdict))) = (config.sprt, report.sprt) {
        let (lo, hi) = s.bounds();
        println!(
            "SPRT elo0={} elo1={}: LLR {llr:.2} [{lo:.2}, {hi:.2}] {verdict:?}",
            s.elo0, s.elo1
        );
    }
    if let Some(path) = &args.json {
        std::fs::write(path, matches::json_summary(&config, &report))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
