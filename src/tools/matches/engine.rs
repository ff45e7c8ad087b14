//! Driving an external engine process (UCCI or UCI) for the match runner.
//!
//! The engine runs as a child process; a reader thread forwards its output lines over a
//! channel so every wait has a deadline: an engine that hangs, crashes or answers nonsense
//! costs it the game, never the match.

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crate::protocol::option_key;
use crate::rules::Rules;

/// How long each side may think.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    Depth(u32),
    Nodes(u64),
    MoveTime(Duration),
    /// `base` for every `moves` moves (the whole game when `None`), plus `increment` per move.
    Clock {
        base: Duration,
        increment: Duration,
        moves: Option<u32>,
    },
}

/// Which dialect to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Ucci,
    Uci,
    /// Try the UCCI handshake, then UCI.
    Auto,
}

/// How to start one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    /// A shell command line.
    pub command: String,
    pub protocol: Protocol,
    /// Options to set after the handshake, as (name, value).
    pub options: Vec<(String, String)>,
    /// The directory to start it in (default: the runner's).
    pub dir: Option<std::path::PathBuf>,
    /// Its own time control or fixed limit, instead of the match's.
    pub limit: Option<Limit>,
}

impl EngineConfig {
    /// An engine started by a shell command line, with no options.
    pub fn new(name: &str, command: &str) -> EngineConfig {
        EngineConfig {
            name: name.to_string(),
            command: command.to_string(),
            protocol: Protocol::Auto,
            options: Vec::new(),
            dir: None,
            limit: None,
        }
    }
}

/// Why an engine failed to produce a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer in time (a hang, or a time forfeit).
    Timeout,
    /// The process ended.
    Crashed,
    /// `nobestmove` or `bestmove (none)` with legal moves available.
    NoMove,
    /// The match was interrupted (a second Ctrl-C): the game is abandoned, not scored.
    Aborted,
}

/// The limits of one `go`.
#[derive(Clone, Copy, Debug)]
pub enum GoLimit {
    Depth(u32),
    Nodes(u64),
    MoveTime(Duration),
    /// Clocks in the engine's colours: (own time, own increment, opponent time, opponent
    /// increment), the moves left before the next time control, and whether the engine plays
    /// Red.
    Clock {
        own: Duration,
        own_inc: Duration,
        opp: Duration,
        opp_inc: Duration,
        moves_to_go: Option<u32>,
        red: bool,
    },
}

/// A running engine.
pub struct Engine {
    pub name: String,
    protocol: Protocol,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The process has been reaped (its id may belong to someone else now).
    reaped: bool,
    /// The last score the engine reported during the current move.
    last_score: Option<i32>,
    /// The options the engine listed in its handshake, as (name as listed, `option_key`).
    advertised: Vec<(String, String)>,
}

/// The option name of a handshake line: `option NAME type …` (UCCI) or `option name NAME
/// type …` (UCI, where the name may have spaces).
fn advertised_option(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option ")?.trim_start();
    let name = match rest.strip_prefix("name ") {
        Some(uci) => uci.split(" type ").next()?.trim(),
        None => rest.split_whitespace().next()?,
    };
    (!name.is_empty()).then(|| name.to_string())
}

/// A mate score in centipawn terms, for adjudication.
const MATE_CP: i32 = 100_000;

/// The score of an `info` line in centipawns from the engine's side: UCI `score cp N` /
/// `score mate N`, or UCCI's plain `score N` (ElephantEye-style mates beyond ±9000 count as
/// mates).
pub fn parse_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    if words.first() == Some(&"string") {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    match (words.get(at + 1).copied(), words.get(at + 2)) {
        (Some("cp"), Some(v)) => v.parse().ok(),
        (Some("mate"), Some(v)) => {
            let n: i32 = v.parse().ok()?;
            Some(if n > 0 { MATE_CP } else { -MATE_CP })
        }
        (Some(v), _) => {
            let n: i32 = v.parse().ok()?;
            Some(if n.abs() > 9000 {
                n.signum() * MATE_CP
            } else {
                n
            })
        }
        _ => None,
    }
}

impl Engine {
    /// Starts the engine and completes the handshake within `timeout`; sets the configured
    /// options, and the referee's `rules` where the engine lists options for them.
    pub fn start(
        config: &EngineConfig,
        rules: &Rules,
        timeout: Duration,
    ) -> Result<Engine, String> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&config.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        // Its own process group, so ending it ends whatever the command line started.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", config.name))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: config.name.clone(),
            protocol: config.protocol,
            child,
            stdin,
            lines,
            reaped: false,
            last_score: None,
            advertised: Vec::new(),
        };
        let greeted = match config.protocol {
            Protocol::Ucci => engine
                .handshake("ucci", "ucciok", timeout)
                .map(|_| Protocol::Ucci),
            Protocol::Uci => engine
                .handshake("uci", "uciok", timeout)
                .map(|_| Protocol::Uci),
            Protocol::Auto => match engine.handshake("ucci", "ucciok", timeout / 2) {
                Ok(()) => Ok(Protocol::Ucci),
                // Silence may be a UCI engine ignoring `ucci`; an ended process is not.
                Err(Failure::Timeout) => engine
                    .handshake("uci", "uciok", timeout / 2)
                    .map(|_| Protocol::Uci),
                Err(e) => Err(e),
            },
        };
        engine.protocol = match greeted {
            Ok(protocol) => protocol,
            Err(Failure::Crashed) => {
                return Err(format!(
                    "{}: the engine ended before its handshake ({}; command: {})",
                    config.name,
                    engine.exit_description(),
                    config.command
                ));
            }
            Err(e) => {
                return Err(format!(
                    "{}: no answer to the handshake ({e:?}; command: {})",
                    config.name, config.command
                ));
            }
        };
        if engine.protocol == Protocol::Ucci {
            engine.send("setoption usemillisec true");
        }
        for (name, value) in &config.options {
            engine.set_option(name, value);
        }
        engine.tell_rules(rules, &config.options);
        engine.ready_after_options(timeout)?;
        Ok(engine)
    }

    /// `isready` after the options were sent: an option the engine refused (an
    /// `info string error` line, as Chariot answers a bad value or a net file it cannot
    /// load) stops the match before it starts, rather than letting the engine play on
    /// with what it had.
    fn ready_after_options(&mut self, timeout: Duration) -> Result<(), String> {
        self.send("isready");
        let line = self
            .wait_for(&["readyok", "info string error"], Instant::now() + timeout)
            .map_err(|e| format!("{}: no readyok ({e:?})", self.name))?;
        match line.strip_prefix("info string ") {
            Some(error) => Err(format!(
                "{}: the engine refused its options: {}",
                self.name,
                error.trim()
            )),
            None => Ok(()),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let line = match self.protocol {
            Protocol::Ucci => format!("setoption {name} {value}"),
            _ => format!("setoption name {name} value {value}"),
        };
        self.send(&line);
    }

    /// Tells an engine that lists Chariot's rule options (`drawmoves` / `Draw Moves`,
    /// `repetition` / `Repetition Rule`) the referee's no-capture limit and repetition rules,
    /// so it plays toward the same draw the referee will call; unless `--option` set them.
    fn tell_rules(&mut self, rules: &Rules, explicit: &[(String, String)]) {
        let values = [
            (
                "drawmoves",
                rules.move_limit.map_or(0, |plies| plies / 2).to_string(),
            ),
            ("repetition", rules.set.name().to_string()),
            ("repetitionrule", rules.set.name().to_string()),
        ];
        for (key, value) in values {
            let set_by_hand = explicit.iter().any(|(name, _)| option_key(name) == key);
            let listed = self
                .advertised
                .iter()
                .find(|(_, listed)| listed == key)
                .map(|(name, _)| name.clone());
            if let (Some(name), false) = (listed, set_by_hand) {
                self.set_option(&name, &value);
            }
        }
    }

    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    fn send(&mut self, line: &str) {
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    /// Waits for a line starting with one of `prefixes`; returns it. Scores in `info` lines
    /// seen on the way are remembered in `last_score`.
    fn wait_for(&mut self, prefixes: &[&str], deadline: Instant) -> Result<String, Failure> {
        loop {
            if super::interrupt::aborting() {
                return Err(Failure::Aborted);
            }
            // Wake up now and then to notice an interrupted match.
            let left = deadline.saturating_duration_since(Instant::now());
            let nap = left.min(Duration::from_millis(100));
            match self.lines.recv_timeout(nap) {
                Ok(line) => {
                    if prefixes.iter().any(|p| line.starts_with(p)) {
                        return Ok(line);
                    }
                    if let Some(score) = parse_score(&line) {
                        self.last_score = Some(score);
                    }
                }
                Err(RecvTimeoutError::Timeout) if nap == left => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Crashed),
            }
        }
    }

    /// Sends `hello` and waits for `ok`, noting the options the engine lists on the way.
    fn handshake(&mut self, hello: &str, ok: &str, timeout: Duration) -> Result<(), Failure> {
        self.send(hello);
        self.advertised.clear();
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.wait_for(&[ok, "option "], deadline)?;
            if line.starts_with(ok) {
                return Ok(());
            }
            if let Some(name) = advertised_option(&line) {
                let key = option_key(&name);
                self.advertised.push((name, key));
            }
        }
    }

    /// How the process ended, for an error message: its exit status once it has one (the
    /// shell's 127 and 126 explained), after waiting up to a second for it.
    fn exit_description(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return match status.code() {
                        Some(127) => "exit status 127: the shell found no such command".into(),
                        Some(126) => "exit status 126: the command is not executable".into(),
                        Some(code) => format!("exit status {code}"),
                        None => format!("{status}"),
                    };
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Ok(None) => return "its output closed, the process still running".into(),
                Err(e) => return format!("its status unknown: {e}"),
            }
        }
    }

    fn ready(&mut self, timeout: Duration) -> Result<(), String> {
        self.send("isready");
        self.wait_for(&["readyok"], Instant::now() + timeout)
            .map(|_| ())
            .map_err(|e| format!("{}: no readyok ({e:?})", self.name))
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), String> {
        match self.protocol {
            Protocol::Ucci => self.send("setoption newgame"),
            _ => self.send("ucinewgame"),
        }
        self.ready(timeout)
    }

    /// Asks for a move in the position `fen` + `moves`; returns the move text, the time the
    /// engine took and the last score it reported (from its side), if any. `allowed` is how
    /// long it may think before it loses on time.
    pub fn go(
        &mut self,
        fen: &str,
        moves: &[String],
        limit: GoLimit,
        allowed: Duration,
    ) -> Result<(String, Duration, Option<i32>), Failure> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position);
        let ms = |d: Duration| d.as_millis();
        let go = match (limit, self.protocol) {
            (GoLimit::Depth(d), _) => format!("go depth {d}"),
            (GoLimit::Nodes(n), _) => format!("go nodes {n}"),
            (GoLimit::MoveTime(t), Protocol::Ucci) => {
                format!("go time {} movestogo 1", ms(t))
            }
            (GoLimit::MoveTime(t), _) => format!("go movetime {}", ms(t)),
            (
                GoLimit::Clock {
                    own,
                    own_inc,
                    opp,
                    opp_inc,
                    moves_to_go,
                    ..
                },
                Protocol::Ucci,
            ) => format!(
                "go time {} increment {}{} opptime {} oppincrement {}",
                ms(own),
                ms(own_inc),
                moves_to_go.map_or(String::new(), |n| format!(" movestogo {n}")),
                ms(opp),
                ms(opp_inc)
            ),
            (
                GoLimit::Clock {
                    own,
                    own_inc,
                    opp,
                    opp_inc,
                    moves_to_go,
                    red,
                },
                _,
            ) => {
                let (w, b, wi, bi) = if red {
                    (own, opp, own_inc, opp_inc)
                } else {
                    (opp, own, opp_inc, own_inc)
                };
                format!(
                    "go wtime {} btime {} winc {} binc {}{}",
                    ms(w),
                    ms(b),
                    ms(wi),
                    ms(bi),
                    moves_to_go.map_or(String::new(), |n| format!(" movestogo {n}"))
                )
            }
        };
        let start = Instant::now();
        self.last_score = None;
        self.send(&go);
        let line = self.wait_for(&["bestmove", "nobestmove"], start + allowed)?;
        let used = start.elapsed();
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("bestmove"), Some(mv)) if mv != "(none)" && mv != "0000" => {
                Ok((mv.to_string(), used, self.last_score))
            }
            _ => Err(Failure::NoMove),
        }
    }

    /// Ends the engine: `quit`, then a kill if it lingers.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.reaped = true;
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the engine's whole process group.
    fn kill(&mut self) {
        if self.reaped {
            return;
        }
        #[cfg(unix)]
        {
            let group = format!("-{}", self.child.id());
            let _ = Command::new("kill")
                .args(["-9", "--", &group])
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_both_dialects() {
        assert_eq!(
            parse_score("info depth 5 score cp -37 nodes 10 pv h2e2"),
            Some(-37)
        );
        assert_eq!(
            parse_score("info depth 5 score mate 3 pv h2e2"),
            Some(MATE_CP)
        );
        assert_eq!(
            parse_score("info depth 5 score mate -2 pv h2e2"),
            Some(-MATE_CP)
        );
        assert_eq!(
            parse_score("info depth 5 score 42 time 3 pv h2e2"),
            Some(42)
        );
        assert_eq!(
            parse_score("info depth 5 score -9995 pv h2e2"),
            Some(-MATE_CP)
        );
        assert_eq!(parse_score("info string score 5"), None);
        assert_eq!(parse_score("bestmove h2e2"), None);
    }

    #[test]
    fn option_names_in_both_dialects() {
        let name = |line| advertised_option(line);
        assert_eq!(
            name("option drawmoves type spin min 0 max 999 default 60"),
            Some("drawmoves".to_string())
        );
        assert_eq!(
            name("option name Draw Moves type spin default 60 min 0 max 999"),
            Some("Draw Moves".to_string())
        );
        assert_eq!(name("id name Chariot"), None);
        assert_eq!(name("option "), None);
        assert_eq!(option_key("Draw Moves"), option_key("drawmoves"));
        assert_eq!(option_key("Repetition_Rule"), "repetitionrule");
    }
}
