//! The engine process: UCCI and UCI on stdin/stdout.
//!
//! Data flow: a reader thread turns input into lines and sends them over a channel; one
//! controller (`Engine`) parses each line into a `Command` and owns the position, the options
//! and the search pool. Searches run on the pool's threads and answer through a reporter that
//! writes `info`/`bestmove` lines via the single `Output`. While a search runs the controller
//! stays responsive: `isready`, `stop`, `ponderhit`, `probe` and `quit` act at once; other
//! commands wait in a queue and run, in order, when the search ends (so a script can send two
//! `go` lines in a row). In batch mode everything waits, as the UCCI spec describes.

pub mod command;
pub mod output;

use crate::core::{Color, Move};
use crate::eval::evaluate;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::threads::SearchPool;
use crate::search::timeman::{self, Clock};
use crate::search::tt::MAX_MB as MAX_HASH_MB;
use crate::search::{IterationInfo, Limits, Reporter, SearchResult, mate_in_moves};
use command::{Command, GoParams, PositionSpec};
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use output::{Dialect, Output};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const NAME: &str = "Chariot";
const VERSION: &str = env!("CARGO_PKG_VERSION");
const AUTHOR: &str = "the Chariot developers";

const MAX_THREADS: usize = 256;
const MAX_MULTIPV: usize = 128;
const MAX_OVERHEAD_MS: u64 = 5_000;
/// `go perft` runs on the controller thread; deeper counts belong to `chariot perft`.
const MAX_PERFT_DEPTH: u32 = 6;
/// Largest no-capture limit the `drawmoves` option takes (moves per side; 0 = no limit).
const MAX_DRAW_MOVES: u64 = 1000;
/// The largest `go depth`, `go mate` and `go movestogo` the search takes.
const MAX_GO_DEPTH: i32 = 120;
const MAX_GO_MATE: i32 = 60;
const MAX_MOVES_TO_GO: i32 = 999;
/// The rule sets, as a combo option lists them.
const RULE_SET_VARS: &str = "var asian var chinese var simple";
/// The `evalfile` value that names the net built into the binary.
const EMBEDDED_NET: &str = "<embedded>";

/// The options a GUI can set.
#[derive(Clone, Debug)]
struct Options {
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    move_overhead_ms: u64,
    ponder: bool,
    use_millisec: bool,
    batch: bool,
    debug: bool,
    show_wdl: bool,
    rules: Rules,
    /// Search with the network (else the hand-crafted evaluation).
    use_nnue: bool,
    /// The network `use_nnue` selects, and the file it came from (`<embedded>`).
    net: Arc<crate::eval::nnue::Network>,
    eval_file: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            ponder: false,
            use_millisec: true,
            batch: false,
            debug: false,
            show_wdl: false,
            rules: Rules::default(),
            use_nnue: crate::eval::nnue::DEFAULT_ON,
            net: crate::eval::nnue::embedded(),
            eval_file: EMBEDDED_NET.into(),
        }
    }
}

/// Prints a search's progress and its final answer in the chosen dialect.
struct ProtocolReporter {
    out: Arc<Output>,
    dialect: Dialect,
    show_wdl: bool,
    multipv: usize,
    debug: bool,
    /// The opponent offered a draw (`go draw`, `ponderhit draw`).
    draw_offered: Arc<AtomicBool>,
    /// Set, under the output lock, when `bestmove` has been written.
    answered: Arc<AtomicBool>,
    done: Sender<()>,
}

impl Reporter for ProtocolReporter {
    fn iteration(&self, info: &IterationInfo) {
        self.out.line(&output::info_line(
            self.dialect,
            info,
            self.show_wdl,
            self.multipv,
        ));
    }

    fn current_move(&self, depth: i32, mv: Move, number: usize) {
        if self.debug || depth > 0 {
            self.out.line(&format!(
                "info depth {depth} currmove {mv} currmovenumber {number}"
            ));
        }
    }

    fn finished(&self, result: &SearchResult) {
        // Accept an offered draw only when the position is judged drawn or worse for us;
        // resign (UCCI) only against a forced mate.
        let suffix = if self.draw_offered.load(Ordering::Relaxed) && result.value <= 0 {
            Some("draw")
        } else if mate_in_moves(result.value).is_some_and(|m| m < 0) {
            Some("resign")
        } else {
            None
        };
        let lines = output::bestmove_lines(self.dialect, result.best, result.ponder, suffix);
        self.out
            .lines_then(&lines, || self.answered.store(true, Ordering::SeqCst));
        let _ = self.done.send(());
    }
}

/// The controller: owns the game state and answers every command.
pub struct Engine {
    out: Arc<Output>,
    dialect: Dialect,
    options: Options,
    pos: Position,
    banned: Vec<Move>,
    pool: SearchPool,
    /// A search is running (its `bestmove` not yet printed).
    searching: bool,
    /// The running search waits for `stop` (infinite) or `ponderhit`.
    open_ended: bool,
    /// The running search ponders and has had no `ponderhit` yet.
    pondering: bool,
    /// The running search has been told to stop (and is finishing).
    stopping: bool,
    draw_offered: Arc<AtomicBool>,
    /// The running search's `answered` flag (see `ProtocolReporter`).
    answered: Arc<AtomicBool>,
    queue: VecDeque<Command>,
    done_tx: Sender<()>,
    done_rx: Receiver<()>,
    quit: bool,
}

impl Engine {
    pub fn new(out: Arc<Output>) -> Engine {
        let options = Options::default();
        let (done_tx, done_rx) = unbounded();
        Engine {
            out,
            dialect: Dialect::Ucci,
            pool: SearchPool::new(options.threads, options.hash_mb),
            options,
            pos: Position::startpos(),
            banned: Vec::new(),
            searching: false,
            open_ended: false,
            pondering: false,
            stopping: false,
            draw_offered: Arc::new(AtomicBool::new(false)),
            answered: Arc::new(AtomicBool::new(false)),
            queue: VecDeque::new(),
            done_tx,
            done_rx,
            quit: false,
        }
    }

    fn error(&self, text: &str) {
        self.out.info_string(&format!("error: {text}"));
    }

    /// Commands that act at once even while a search runs.
    fn is_immediate(cmd: &Command) -> bool {
        matches!(
            cmd,
            Command::IsReady
                | Command::Stop
                | Command::PonderHit { .. }
                | Command::Quit
                | Command::Probe(_)
                | Command::Empty
                | Command::Unknown(_)
                | Command::Invalid(_)
        )
    }

    /// If the running search has already written its `bestmove`, the GUI may be answering
    /// it: treat the search as over before reading the next command.
    fn collect_finished(&mut self) {
        while self.searching && self.out.locked(|| self.answered.load(Ordering::SeqCst)) {
            let _ = self.done_rx.recv();
            self.search_finished();
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) {
        self.collect_finished();
        let cmd = command::parse(line);
        if self.options.debug {
            self.out
                .info_string(&format!("received: {}", line.trim_end()));
        }
        let must_wait = self.must_wait(&cmd);
        // Behind a queued `go`, a `stop` or `ponderhit` the running search has already had is
        // meant for that `go`'s search: it keeps its place in the queue.
        let go_queued = self.queue.iter().any(|c| matches!(c, Command::Go(_)));
        let keeps_order = if go_queued {
            !Self::answered_out_of_turn(&cmd) && !self.acts_on_running_search(&cmd)
        } else {
            !self.queue.is_empty() && !Self::is_immediate(&cmd)
        };
        if must_wait || keeps_order {
            self.queue.push_back(cmd);
        } else {
            self.execute(cmd);
        }
    }

    /// Must this command wait for the running search's `bestmove`? All do in batch mode, and
    /// otherwise all but those that act at once (`is_immediate`).
    fn must_wait(&self, cmd: &Command) -> bool {
        self.searching && (self.options.batch || !Self::is_immediate(cmd))
    }

    /// Commands answered at once even when others wait in the queue: they neither change
    /// the game state nor act on a search.
    fn answered_out_of_turn(cmd: &Command) -> bool {
        Self::is_immediate(cmd) && !matches!(cmd, Command::Stop | Command::PonderHit { .. })
    }

    /// Is this `stop` or `ponderhit` still news to the running search? A search already told
    /// to stop (or already hit) has had its own, so a second one is for the queued `go`.
    fn acts_on_running_search(&self, cmd: &Command) -> bool {
        let live = self.searching && !self.stopping;
        match cmd {
            Command::Stop => live,
            Command::PonderHit { .. } => live && self.pondering,
            _ => false,
        }
    }

    /// The running search printed its answer.
    fn search_finished(&mut self) {
        self.pool.wait();
        self.searching = false;
        self.open_ended = false;
        self.pondering = false;
        self.stopping = false;
        self.run_queue();
    }

    /// Runs the queued commands in order: all of them while no search runs, and once a
    /// queued `go` has started one, those that act at once during a search (its `stop`, its
    /// `ponderhit`), up to the first that must wait for its `bestmove`.
    fn run_queue(&mut self) {
        while !self.quit && self.queue.front().is_some_and(|cmd| !self.must_wait(cmd)) {
            if let Some(cmd) = self.queue.pop_front() {
                self.execute(cmd);
            }
        }
    }

    fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                self.handshake();
            }
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.handshake();
            }
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => {
                if let Some(pos) = self.build_position(&spec) {
                    self.pos = pos;
                    self.banned.clear();
                }
            }
            Command::BanMoves(moves) => self.ban_moves(&moves),
            Command::Go(go) => self.go(*go),
            Command::PonderHit { draw } => {
                if self.searching {
                    if draw {
                        self.draw_offered.store(true, Ordering::Relaxed);
                    }
                    self.pondering = false;
                    self.pool.ponderhit();
                }
            }
            Command::Stop => {
                if self.searching {
                    self.stopping = true;
                    self.pool.stop();
                } else if self.dialect == Dialect::Ucci {
                    self.out.line("nobestmove");
                }
            }
            Command::Probe(spec) => self.probe(&spec),
            Command::Quit => {
                if self.searching {
                    self.pool.stop();
                    let _ = self.done_rx.recv();
                    self.pool.wait();
                    self.searching = false;
                }
                if self.dialect == Dialect::Ucci {
                    self.out.line("bye");
                }
                self.quit = true;
            }
            Command::NewGame => {
                self.pool.clear();
                self.banned.clear();
            }
            Command::Debug(on) => self.options.debug = on,
            Command::Display => {
                for line in self.pos.diagram().lines() {
                    self.out.info_string(line);
                }
                self.out.info_string(&format!("fen {}", self.pos.to_fen()));
            }
            Command::Empty => {}
            Command::Unknown(text) => self.out.info_string(&format!("unknown command: {text}")),
            Command::Invalid(reason) => self.error(&reason),
        }
    }

    fn handshake(&self) {
        let out = &self.out;
        match self.dialect {
            Dialect::Ucci => {
                out.line(&format!("id name {NAME} {VERSION}"));
                out.line(&format!("id version {VERSION}"));
                out.line(&format!("id copyright 2026 {AUTHOR}"));
                out.line(&format!("id author {AUTHOR}"));
                out.line("option usemillisec type check default true");
                out.line("option batch type check default false");
                out.line("option debug type check default false");
                out.line("option ponder type check default false");
                out.line(&format!(
                    "option hashsize type spin min 1 max {MAX_HASH_MB} default 16"
                ));
                out.line(&format!(
                    "option threads type spin min 1 max {MAX_THREADS} default 1"
                ));
                out.line(&format!(
                    "option multipv type spin min 1 max {MAX_MULTIPV} default 1"
                ));
                out.line(&format!(
                    "option moveoverhead type spin min 0 max {MAX_OVERHEAD_MS} default 30"
                ));
                out.line(&format!(
                    "option repetition type combo default asian {RULE_SET_VARS}"
                ));
                out.line(&format!(
                    "option drawmoves type spin min 0 max {MAX_DRAW_MOVES} default 60"
                ));
                out.line(&format!(
                    "option usennue type check default {}",
                    crate::eval::nnue::DEFAULT_ON
                ));
                out.line(&format!(
                    "option evalfile type string default {EMBEDDED_NET}"
                ));
                out.line("option newgame type button");
                out.line("ucciok");
            }
            Dialect::Uci => {
                out.line(&format!("id name {NAME} {VERSION}"));
                out.line(&format!("id author {AUTHOR}"));
                out.line(&format!(
                    "option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"
                ));
                out.line(&format!(
                    "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
                ));
                out.line(&format!(
                    "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
                ));
                out.line(&format!(
                    "option name Move Overhead type spin default 30 min 0 max {MAX_OVERHEAD_MS}"
                ));
                out.line("option name Ponder type check default false");
                out.line("option name Clear Hash type button");
                out.line("option name UCI_Variant type combo default xiangqi var xiangqi");
                out.line("option name UCI_ShowWDL type check default false");
                out.line(&format!(
                    "option name Repetition Rule type combo default asian {RULE_SET_VARS}"
                ));
                out.line(&format!(
                    "option name Draw Moves type spin default 60 min 0 max {MAX_DRAW_MOVES}"
                ));
                out.line(&format!(
                    "option name UseNNUE type check default {}",
                    crate::eval::nnue::DEFAULT_ON
                ));
                out.line(&format!(
                    "option name EvalFile type string default {EMBEDDED_NET}"
                ));
                out.line("uciok");
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key = option_key(name);
        let flag = |v: Option<&str>| -> Option<bool> {
            match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
                Some("true" | "on" | "1" | "yes") => Some(true),
                Some("false" | "off" | "0" | "no") => Some(false),
                None => Some(true),
                _ => None,
            }
        };
        // A whole number, brought into min..=max; how it was brought in is told afterwards.
        let clamped = std::cell::Cell::new(None);
        let spin = |v: Option<&str>, min: u64, max: u64| -> Option<u64> {
            let text = v?.trim();
            let negative = text.starts_with('-');
            let digits = if negative { &text[1..] } else { text };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // `None`: negative, or too large for any option.
            let given = if negative {
                None
            } else {
                text.parse::<u64>().ok()
            };
            let n = match given {
                Some(v) => v.clamp(min, max),
                None if negative => min,
                None => max,
            };
            if given != Some(n) {
                clamped.set(Some(format!(
                    "option {name}: {text} is outside {min}..{max}; {n} used"
                )));
            }
            Some(n)
        };
        let bad = |this: &Self| {
            this.error(&format!(
                "option {name}: '{}' is not a valid value",
                value.unwrap_or("")
            ))
        };
        match key.as_str() {
            "hash" | "hashsize" => match spin(value, 0, MAX_HASH_MB as u64) {
                // 0 means "engine decides": the default.
                Some(mb) => {
                    let mb = if mb == 0 { 16 } else { mb as usize };
                    if mb != self.options.hash_mb {
                        match self.pool.set_hash(mb) {
                            Ok(()) => self.options.hash_mb = mb,
                            Err(e) => self.error(&e),
                        }
                    }
                }
                None => bad(self),
            },
            "threads" => match spin(value, 1, MAX_THREADS as u64) {
                Some(n) => {
                    let n = n as usize;
                    if n != self.pool.thread_count() {
                        self.pool.set_threads(n);
                    }
                    self.options.threads = n;
                }
                None => bad(self),
            },
            "multipv" => match spin(value, 1, MAX_MULTIPV as u64) {
                Some(n) => self.options.multipv = n as usize,
                None => bad(self),
            },
            "moveoverhead" => match spin(value, 0, MAX_OVERHEAD_MS) {
                Some(n) => self.options.move_overhead_ms = n,
                None => bad(self),
            },
            "ponder" | "usemillisec" | "batch" | "debug" | "ucishowwdl" => {
                let field = match key.as_str() {
                    "ponder" => &mut self.options.ponder,
                    "usemillisec" => &mut self.options.use_millisec,
                    "batch" => &mut self.options.batch,
                    "debug" => &mut self.options.debug,
                    _ => &mut self.options.show_wdl,
                };
                match flag(value) {
                    Some(b) => *field = b,
                    None => bad(self),
                }
            }
            "repetition" | "repetitionrule" | "rules" => match value.unwrap_or("").parse() {
                Ok(set) => self.options.rules.set = set,
                Err(e) => self.error(&format!("option {name}: {e}")),
            },
            "drawmoves" | "movelimit" => match spin(value, 0, MAX_DRAW_MOVES) {
                Some(0) => self.options.rules.move_limit = None,
                Some(n) => self.options.rules.move_limit = Some(n as u32 * 2),
                None => bad(self),
            },
            "usennue" => match flag(value) {
                Some(on) => {
                    if on != self.options.use_nnue {
                        // The table keeps evaluations: start afresh with the other one.
                        self.pool.clear();
                    }
                    self.options.use_nnue = on;
                }
                None => bad(self),
            },
            "evalfile" => {
                let path = value.unwrap_or("").trim();
                let loaded = if path.is_empty() || path == EMBEDDED_NET {
                    Ok(crate::eval::nnue::embedded())
                } else {
                    crate::eval::nnue::file::load(std::path::Path::new(path)).map(Arc::new)
                };
                match loaded {
                    Ok(net) => {
                        self.out.info_string(&format!(
                            "NNUE evaluation using {} (hash {:016x})",
                            if path.is_empty() { EMBEDDED_NET } else { path },
                            net.hash
                        ));
                        if net.hash != self.options.net.hash {
                            self.pool.clear();
                        }
                        self.options.net = net;
                        self.options.eval_file = path.to_string();
                    }
                    Err(e) => self.error(&format!(
                        "option {name}: {e}; keeping {} (hash {:016x})",
                        self.options.eval_file, self.options.net.hash
                    )),
                }
            }
            "newgame" | "clearhash" => {
                self.pool.clear();
                self.banned.clear();
            }
            "ucivariant" => {
                let v = value.unwrap_or("").trim();
                if !v.eq_ignore_ascii_case("xiangqi") {
                    self.error(&format!("variant '{v}' is not supported; only xiangqi"));
                }
            }
            // Options of other engines and GUIs (books, skill levels, rule switches we do not
            // have yet): ignored, as the protocol asks.
            _ => {
                if self.options.debug {
                    self.out
                        .info_string(&format!("ignoring unknown option {name}"));
                }
            }
        }
        if let Some(note) = clamped.take() {
            self.error(&note);
        }
    }

    /// Builds the position a command names, reporting what is wrong. A bad FEN gives `None`;
    /// a bad move ends the move list there (the moves before it stay applied).
    fn build_position(&self, spec: &PositionSpec) -> Option<Position> {
        let mut pos = match &spec.fen {
            None => Position::startpos(),
            Some(fen) => match Position::from_fen(fen) {
                Ok(p) => p,
                Err(e) => {
                    self.error(&format!("bad FEN '{fen}': {e}; position unchanged"));
                    return None;
                }
            },
        };
        for (i, text) in spec.moves.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(mv) => pos.make_move(mv),
                Err(e) => {
                    self.error(&format!(
                        "move {} ({e}): the move list stops there, {} of {} moves applied",
                        i + 1,
                        i,
                        spec.moves.len()
                    ));
                    break;
                }
            }
        }
        Some(pos)
    }

    fn ban_moves(&mut self, moves: &[String]) {
        for text in moves {
            match self.pos.parse_move(text) {
                Ok(mv) => {
                    if !self.banned.contains(&mv) {
                        self.banned.push(mv);
                    }
                }
                Err(e) => self.error(&format!("banmoves: {e}; ignored")),
            }
        }
    }

    fn probe(&self, spec: &PositionSpec) {
        let Some(pos) = self.build_position(spec) else {
            self.out.line("pophash");
            return;
        };
        let mut line = String::from("pophash");
        if let Some(hit) = self.pool.probe(pos.key()) {
            use crate::search::tt::Bound;
            if !hit.mv.is_none() && pos.is_legal(hit.mv) {
                line.push_str(&format!(" bestmove {}", hit.mv));
            }
            let depth = hit.depth.max(0);
            if matches!(hit.bound, Bound::Lower | Bound::Exact) {
                line.push_str(&format!(" lowerbound {} depth {depth}", hit.value));
            }
            if matches!(hit.bound, Bound::Upper | Bound::Exact) {
                line.push_str(&format!(" upperbound {} depth {depth}", hit.value));
            }
        }
        self.out.line(&line);
    }

    fn perft(&self, depth: u32) {
        if depth > MAX_PERFT_DEPTH {
            self.error(&format!("go perft {depth}: at most {MAX_PERFT_DEPTH} here (use `chariot perft` from the shell)"));
            return;
        }
        let report = crate::position::perft::run(&self.pos, depth, self.options.threads);
        for (mv, nodes) in &report.divide {
            self.out.line(&format!("{mv}: {nodes}"));
        }
        self.out.line("");
        self.out.line(&format!("Nodes searched: {}", report.nodes));
    }

    /// A `go` limit brought into 1..=`max`, what the search can do; the GUI is told when it
    /// was not there already.
    fn go_limit(&self, field: &str, value: Option<i128>, max: i32) -> Option<i32> {
        let v = value?;
        if v > i128::from(max) {
            self.error(&format!("go {field}: more than {max}; {max} used"));
        } else if v < 1 {
            self.error(&format!("go {field}: less than 1; 1 used"));
        }
        Some(v.clamp(1, i128::from(max)) as i32)
    }

    /// The clock for this move, in milliseconds.
    fn clock(&self, go: &GoParams) -> Clock {
        let unit = if self.options.use_millisec { 1 } else { 1000 };
        let ms = |v: u64| Duration::from_millis(v.saturating_mul(unit));
        let (time, inc) = match self.pos.side_to_move() {
            Color::Red => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        let time_left = go.time.map(ms).or(time.map(Duration::from_millis));
        let increment = go
            .increment
            .map(ms)
            .or(inc.map(Duration::from_millis))
            .unwrap_or_default();
        let moves_to_go = self
            .go_limit("movestogo", go.moves_to_go.map(i128::from), MAX_MOVES_TO_GO)
            .map(|m| m as u32);
        Clock {
            time_left,
            increment,
            moves_to_go,
            move_time: go.move_time.map(Duration::from_millis),
        }
    }

    fn go(&mut self, go: GoParams) {
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let legal = self.pos.legal_moves();
        let allowed = legal.iter().filter(|m| !self.banned.contains(m)).count();
        if allowed == 0 {
            // Mated or stalemated (both lose), or every move banned.
            for line in output::bestmove_lines(self.dialect, None, None, None) {
                self.out.line(&line);
            }
            return;
        }
        if go.depth == Some(0) && self.dialect == Dialect::Ucci {
            self.out.line(&format!(
                "info depth 0 {}",
                output::score_field(self.dialect, evaluate(&self.pos))
            ));
            self.out.line("nobestmove");
            return;
        }
        let clock = self.clock(&go);
        let overhead = Duration::from_millis(self.options.move_overhead_ms);
        let mut time = timeman::allocate(&clock, overhead);
        if self.options.ponder
            && let Some(t) = time.as_mut()
        {
            // The ponder option only says we will think on the opponent's time too.
            t.soft = (t.soft * 5 / 4).min(t.hard);
        }
        let search_moves = go
            .search_moves
            .iter()
            .filter_map(|t| self.pos.parse_move(t).ok())
            .collect();
        let has_limit =
            go.depth.is_some() || go.nodes.is_some() || go.mate.is_some() || time.is_some();
        let limits = Limits {
            depth: self.go_limit("depth", go.depth.map(i128::from), MAX_GO_DEPTH),
            nodes: go.nodes,
            mate: self.go_limit("mate", go.mate.map(i128::from), MAX_GO_MATE),
            time,
            infinite: go.infinite || !has_limit,
            search_moves,
            ban_moves: self.banned.clone(),
            multipv: self.options.multipv,
            rules: self.options.rules,
            eval: if self.options.use_nnue {
                crate::eval::Evaluator::Nnue(self.options.net.clone())
            } else {
                crate::eval::Evaluator::Hce
            },
        };
        self.draw_offered = Arc::new(AtomicBool::new(go.draw));
        self.answered = Arc::new(AtomicBool::new(false));
        let reporter = Arc::new(ProtocolReporter {
            out: self.out.clone(),
            dialect: self.dialect,
            show_wdl: self.options.show_wdl,
            multipv: self.options.multipv,
            debug: self.options.debug,
            draw_offered: self.draw_offered.clone(),
            answered: self.answered.clone(),
            done: self.done_tx.clone(),
        });
        self.open_ended = limits.infinite || go.ponder;
        self.pondering = go.ponder;
        self.pool.start(&self.pos, limits, go.ponder, reporter);
        self.searching = true;
    }

    /// Input ended: finish what was asked, stopping what would never end.
    fn end_of_input(&mut self) {
        loop {
            if self.searching {
                if self.open_ended {
                    self.pool.stop();
                }
                let _ = self.done_rx.recv();
                self.search_finished();
            }
            if !self.searching && self.queue.is_empty() || self.quit {
                break;
            }
        }
    }
}

/// An option name as engines match it: case, spaces and underscores ignored ("Draw Moves",
/// "draw_moves" and "drawmoves" are one option).
pub fn option_key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Runs the protocol on `input`/`output` until `quit` or the end of input.
pub fn run<R: BufRead + Send + 'static>(input: R, output: Box<dyn std::io::Write + Send>) {
    let out = Arc::new(Output::new(output));
    let (line_tx, line_rx) = unbounded::<Option<String>>();
    std::thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || read_lines(input, line_tx))
        .expect("spawn the input reader");
    let mut engine = Engine::new(out);
    let done_rx = engine.done_rx.clone();
    while !engine.quit {
        select! {
            recv(line_rx) -> msg => match msg {
                Ok(Some(line)) => engine.handle_line(&line),
                _ => {
                    engine.end_of_input();
                    break;
                }
            },
            recv(done_rx) -> _ => {
                if engine.searching {
                    engine.search_finished();
                }
            }
        }
    }
}

/// Reads lines (any bytes; invalid UTF-8 is replaced, never fatal) until end of input.
fn read_lines<R: BufRead>(mut input: R, tx: Sender<Option<String>>) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer).into_owned();
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(None);
}
