//! The engine process: UCCI and UCI on stdin/stdout.
//!
//! Data flow: a reader thread (`input`) turns input into lines and sends them over a channel; one
//! controller (`Engine`) parses each line into a `Command` and owns the position, the options
//! and the search pool. Searches run on the pool's threads and answer through a reporter that
//! writes `info`/`bestmove` lines via the single `Output`. While a search runs the controller
//! stays responsive: `isready`, `stop`, `ponderhit`, `probe` and `quit` act at once; other
//! commands wait in a queue and run, in order, when the search ends (so a script can send two
//! `go` lines in a row). In batch mode everything waits, as the UCCI spec describes.
//!
//! Choices where the protocols leave room:
//! - Each search gets its own `stop` and `ponderhit`: the first one after a `go` is for the
//!   running search; one sent after that search was stopped waits with the queued `go` it
//!   follows, so `stop`, `position … go infinite`, `stop` sent before the first `bestmove`
//!   gives two answers and leaves nothing running.
//! - `go ponder` and `go infinite` never answer before `ponderhit`/`stop`, even after a mate is
//!   found; a bare `go` is `go infinite`. UCCI `go depth 0` prints the static score and
//!   `nobestmove` (the evaluation the engine plays with, as `eval` explains it). `stop` while idle: UCCI answers `nobestmove`, UCI says nothing.
//! - A composed position (pieces where no game puts them, extra pieces) is accepted with an
//!   `info string warning: …` and played by the ordinary rules (`position::fen`).
//! - A move list is applied up to its first illegal or unreadable move; that move and the
//!   rest are dropped with an `info string error: …` naming it (text and index) and why, and
//!   the position reached is the one searched. Pikafish, Fairy-Stockfish and ElephantEye read
//!   the list so, and clients rely on it: pikafish-terminal sends the position *after* the
//!   game's moves followed by those moves again, meaning the position itself.
//! - A refused `position` (unreadable, or a FEN with no defined play) is reported as
//!   `info string error: …` and leaves the engine with no position: until a good `position`
//!   arrives, `go` says why and answers "no move" (UCCI `nobestmove`, UCI
//!   `bestmove (none)`), never a move of an earlier position that the GUI no longer shows.
//!   A number option outside its range is brought to the nearest bound and said so; `go`
//!   limits beyond the search's likewise. Unknown options are ignored (named with `debug`).
//! - `go draw`/`ponderhit draw`: the answer carries `draw` when the engine judges the position
//!   drawn or worse for itself; UCCI `bestmove … resign` only against a forced mate.
//! - A position already drawn by rule is still searched and answered with a move.
//! - End of input finishes a search with a bound of its own (depth, nodes, time: its
//!   `bestmove` is printed, so `echo "go depth 20" | chariot` answers) and stops one without
//!   (infinite, ponder, or `go mate N` alone, which may find no mate for ever), then exits.
//! - `EvalFile`/`evalfile` loads another net; a file that is missing, truncated, corrupt or of
//!   another architecture is refused with `info string error: …` and the current net stays.
//!
//! XBoard's adapter: XBoard with `uci2wb` and pondering on (XBoard's `hard`) plays without time losses in either
//! dialect against opponents that take a little time over their moves
//! (`XBOARD_ONLY=1 scripts/client-check.sh 21`, and `XBOARD_PROTOCOL=uci` for UCI).
//! `uci2wb` starts a new engine for every game and ponders only from a match's second game on:
//! the first game's `hard` reaches it before the engine has listed its `Ponder` option, and it
//! drops it. In its debug output (`UCI2WB debug output`) a line `# command e` after each of the
//! opponent's moves is the adapter queueing that move, not a garbled command.
//!
//! XBoard's adapter: Pondering through `uci2wb` 4.1 (Debian's) against an opponent that answers at once (MaxQi
//! at 10 s sudden death, for instance) can lose on time, in either dialect; the adapter is at
//! fault. When the opponent's move arrives within a millisecond or so of the adapter's
//! `go ponder` and is not the move pondered on, the adapter sends `stop` and at once the new
//! `position` and `go`, before it has read the `bestmove` that answers its `stop`; it takes that
//! stale move (a move for the position it pondered) as the answer to the new search, plays it,
//! and starts pondering on the next prediction while the real search still runs. From then on it
//! waits for the answer to a `go` that the engine has queued, as the protocol wants, behind a
//! `go ponder` nobody will end: the flag falls. Its `Error (unknown command): …` lines come
//! from the same race between its two threads. Chariot answers every `go` once, in order
//! (`scripts/engine_log_wrapper.sh` logs the exchange). The setting that avoids it is pondering
//! off (XBoard's `-xponder`, or `easy`): `XBOARD_PONDER=0 XBOARD_OPPONENT=maxqi XBOARD_TC=0:10
//! XBOARD_INC=0 XBOARD_ONLY=1 scripts/client-check.sh 20` plays that case.

pub mod command;
pub mod coords;
mod input;
mod options;
pub mod output;

use options::Options;
pub use options::option_key;

use crate::core::{Color, Move};
use crate::eval::Evaluator;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::strength::Level;
use crate::search::threads::SearchPool;
use crate::search::timeman::{self, Clock};
use crate::search::tt::MAX_MB as MAX_HASH_MB;
use crate::search::{IterationInfo, Limits, Reporter, SearchResult, mate_in_moves};
use command::{Command, GoParams, PositionSpec};
use coords::{RankBase, RankState, move_text, to_internal};
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

/// Prints a search's progress and its final answer in the chosen dialect.
struct ProtocolReporter {
    out: Arc<Output>,
    dialect: Dialect,
    /// The rank numbers the client writes moves with.
    base: RankBase,
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
            self.base,
            info,
            self.show_wdl,
            self.multipv,
        ));
    }

    fn current_move(&self, depth: i32, mv: Move, number: usize) {
        if self.debug || depth > 0 {
            self.out.line(&format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_text(mv, self.base)
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
        let lines =
            output::bestmove_lines(self.dialect, self.base, result.best, result.ponder, suffix);
        self.out
            .lines_then(&lines, || self.answered.store(true, Ordering::SeqCst));
        let _ = self.done.send(());
    }
}

/// The controller: owns the game state and answers every command.
pub struct Engine {
    out: Arc<Output>,
    dialect: Dialect,
    /// What the client's move notation is known to be (`coords`).
    ranks: RankState,
    options: Options,
    pos: Position,
    /// Why the last `position` was refused; `go` searches nothing until a good one comes.
    position_error: Option<String>,
    banned: Vec<Move>,
    pool: SearchPool,
    /// A search is running (its `bestmove` not yet printed).
    searching: bool,
    /// The running search has no bound of its own (infinite, ponder, or a `go mate` with no
    /// depth, nodes or time): only `stop` ends it unless it finds what it looks for.
    open_ended: bool,
    /// The running search ponders and has had no `ponderhit` yet.
    pondering: bool,
    /// The running search has been told to stop (and is finishing).
    stopping: bool,
    /// The search that ended last was stopped by the input reader's `stop` (see `input`)
    /// before this controller read that line: when the line comes, it has had its answer
    /// (the `bestmove`), so it neither earns UCCI's idle `nobestmove` nor stops a search
    /// the queue has started since.
    stop_answered: bool,
    draw_offered: Arc<AtomicBool>,
    /// The running search's `answered` flag (see `ProtocolReporter`).
    answered: Arc<AtomicBool>,
    queue: VecDeque<Command>,
    done_tx: Sender<()>,
    done_rx: Receiver<()>,
    quit: bool,
    /// What varies a playing level's choices from game to game when `Random Seed` is 0: new
    /// at start-up and at every new game.
    game_seed: u64,
}

/// A number that differs from one call to the next (the clock's nanoseconds, mixed).
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1
}

impl Engine {
    pub fn new(out: Arc<Output>) -> Engine {
        let options = Options::default();
        let (done_tx, done_rx) = unbounded();
        Engine {
            out,
            dialect: Dialect::Ucci,
            ranks: RankState::default(),
            pool: SearchPool::new(options.threads, options.hash_mb),
            options,
            pos: Position::startpos(),
            position_error: None,
            banned: Vec::new(),
            searching: false,
            open_ended: false,
            pondering: false,
            stopping: false,
            stop_answered: false,
            draw_offered: Arc::new(AtomicBool::new(false)),
            answered: Arc::new(AtomicBool::new(false)),
            queue: VecDeque::new(),
            done_tx,
            done_rx,
            quit: false,
            game_seed: fresh_seed(),
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
        // The reader's `stop` ended the last search before this line was read here: the
        // line has had its answer, and is not for a search started since from the queue.
        if matches!(cmd, Command::Stop) && std::mem::take(&mut self.stop_answered) {
            return;
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
        self.stop_answered = !self.stopping && self.pool.stop_requested();
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
                self.learn_rank_base(&spec);
                self.banned.clear();
                match self.build_position(&spec) {
                    Ok((pos, dropped)) => {
                        if let Some(reason) = dropped {
                            self.error(&reason);
                        }
                        if let Some(warning) = pos.placement_warning() {
                            self.out.info_string(&format!("warning: {warning}"));
                        }
                        self.pos = pos;
                        self.position_error = None;
                    }
                    Err(reason) => {
                        self.error(&format!("{reason}; position refused"));
                        self.refuse_position(reason);
                    }
                }
            }
            Command::BadPosition(reason) => {
                self.error(&reason);
                self.banned.clear();
                self.refuse_position(reason);
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
                self.game_seed = fresh_seed();
            }
            Command::Debug(on) => self.options.debug = on,
            Command::Eval => {
                if let Some(reason) = &self.position_error {
                    self.error(&format!(
                        "eval: no position (the last 'position' was refused: {reason})"
                    ));
                } else {
                    let eval = self.evaluator();
                    let trace = crate::eval::trace::trace(&eval, &self.pos);
                    for line in trace.lines() {
                        self.out.info_string(&line);
                    }
                    // Pikafish's closing line, which tools read: pawns, from Red's view.
                    let score = eval.evaluate(&self.pos);
                    let red = match self.pos.side_to_move() {
                        Color::Red => score,
                        Color::Black => -score,
                    };
                    self.out.line(&format!(
                        "Final evaluation       {:+.2} (white side)",
                        f64::from(red) / 100.0
                    ));
                }
            }
            Command::Display => {
                if let Some(reason) = &self.position_error {
                    self.error(&format!(
                        "d: no position (the last 'position' was refused: {reason})"
                    ));
                } else {
                    let lines = output::board_lines(&self.pos, self.ranks.base());
                    self.out.lines_then(&lines, || {});
                }
            }
            Command::Empty => {}
            Command::Unknown(text) => self.out.info_string(&format!("unknown command: {text}")),
            Command::Invalid(reason) => self.error(&reason),
        }
    }

    /// Builds the position a command names. A FEN that cannot be read (or has no defined
    /// play) refuses the whole command: `Err`. A move list is applied up to its first illegal
    /// or unreadable move, as Pikafish, Fairy-Stockfish and ElephantEye read it: that move and
    /// the rest are dropped, and the second field says which and why.
    fn build_position(&self, spec: &PositionSpec) -> Result<(Position, Option<String>), String> {
        let mut pos = match &spec.fen {
            None => Position::startpos(),
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?,
        };
        let base = self.ranks.base();
        for (i, text) in spec.moves.iter().enumerate() {
            match pos.parse_move(&to_internal(text, base)) {
                Ok(mv) => pos.make_move(mv),
                Err(e) => {
                    let rest = spec.moves.len() - i;
                    let dropped = match rest - 1 {
                        0 => "dropped".to_string(),
                        1 => "it and the move after it dropped".to_string(),
                        n => format!("it and the {n} moves after it dropped"),
                    };
                    let reason = format!(
                        "move {} of {}, '{text}': {e}; {dropped}, the position before it searched",
                        i + 1,
                        spec.moves.len()
                    );
                    return Ok((pos, Some(reason)));
                }
            }
        }
        Ok((pos, None))
    }

    /// The last `position` was refused: nothing is searched until a good one arrives.
    fn refuse_position(&mut self, reason: String) {
        self.position_error = Some(reason);
    }

    /// Works out the client's rank base from a `position` command (see `coords`).
    fn learn_rank_base(&mut self, spec: &PositionSpec) {
        self.ranks.bare_form = spec.bare;
        if spec.moves.iter().any(|t| coords::evidence(t).is_some()) {
            self.ranks.observe(&spec.moves);
            return;
        }
        if spec.moves.is_empty() {
            return;
        }
        let start = match &spec.fen {
            None => Some(Position::startpos()),
            Some(fen) => Position::from_fen(fen).ok(),
        };
        let Some(start) = start else { return };
        self.ranks.settle_by_legality(|base| {
            let mut pos = start.clone();
            spec.moves
                .iter()
                .take_while(|t| match pos.parse_move(&to_internal(t, base)) {
                    Ok(mv) => {
                        pos.make_move(mv);
                        true
                    }
                    Err(_) => false,
                })
                .count()
        });
    }

    fn ban_moves(&mut self, moves: &[String]) {
        self.ranks.observe(moves);
        let base = self.ranks.base();
        for text in moves {
            match self.pos.parse_move(&to_internal(text, base)) {
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
        // A probe asks about one position: a list that does not reach it is no answer.
        let pos = match self.build_position(spec) {
            Ok((pos, None)) => pos,
            Ok((_, Some(reason))) | Err(reason) => {
                self.error(&format!("probe: {reason}"));
                self.out.line("pophash");
                return;
            }
        };
        let mut line = String::from("pophash");
        if let Some(hit) = self.pool.probe(pos.key()) {
            use crate::search::tt::Bound;
            if !hit.mv.is_none() && pos.is_legal(hit.mv) {
                line.push_str(&format!(
                    " bestmove {}",
                    move_text(hit.mv, self.ranks.base())
                ));
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
            self.out
                .line(&format!("{}: {nodes}", move_text(*mv, self.ranks.base())));
        }
        self.out.line("");
        self.out.line(&format!("Nodes searched: {}", report.nodes));
        self.out.line("");
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

    /// The evaluation the options choose: the one every search and score uses.
    fn evaluator(&self) -> Evaluator {
        if self.options.use_nnue {
            Evaluator::Nnue(self.options.net.clone())
        } else {
            Evaluator::Hce
        }
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
        if let Some(reason) = &self.position_error {
            self.error(&format!(
                "no position to search (the last 'position' was refused: {reason}); send a good 'position'"
            ));
            self.out.line(match self.dialect {
                Dialect::Ucci => "nobestmove",
                Dialect::Uci => "bestmove (none)",
            });
            return;
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let legal = self.pos.legal_moves();
        let allowed = legal.iter().filter(|m| !self.banned.contains(m)).count();
        if allowed == 0 {
            // Mated or stalemated (both lose), or every move banned.
            for line in output::bestmove_lines(self.dialect, self.ranks.base(), None, None, None) {
                self.out.line(&line);
            }
            return;
        }
        if go.depth == Some(0) && self.dialect == Dialect::Ucci {
            self.out.line(&format!(
                "info depth 0 {}",
                output::score_field(self.dialect, self.evaluator().evaluate(&self.pos))
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
        self.ranks.observe(&go.search_moves);
        let base = self.ranks.base();
        let search_moves = go
            .search_moves
            .iter()
            .filter_map(|t| self.pos.parse_move(&to_internal(t, base)).ok())
            .collect();
        let has_limit =
            go.depth.is_some() || go.nodes.is_some() || go.mate.is_some() || time.is_some();
        let mut limits = Limits {
            depth: self.go_limit("depth", go.depth.map(i128::from), MAX_GO_DEPTH),
            nodes: go.nodes,
            mate: self.go_limit("mate", go.mate.map(i128::from), MAX_GO_MATE),
            time,
            infinite: go.infinite || !has_limit,
            search_moves,
            ban_moves: self.banned.clone(),
            multipv: self.options.multipv,
            rules: self.options.rules,
            eval: self.evaluator(),
            unscaled_eval: false,
            strength: None,
        };
        if let Some(elo) = self.options.level_elo() {
            let seed = match self.options.seed {
                0 => self.game_seed,
                seed => seed,
            };
            if let Some(level) = Level::from_elo(elo, seed) {
                let budget = level.nodes();
                limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
                limits.strength = Some(level);
            }
        }
        self.draw_offered = Arc::new(AtomicBool::new(go.draw));
        self.answered = Arc::new(AtomicBool::new(false));
        let reporter = Arc::new(ProtocolReporter {
            out: self.out.clone(),
            dialect: self.dialect,
            base,
            show_wdl: self.options.show_wdl,
            multipv: self.options.multipv,
            debug: self.options.debug,
            draw_offered: self.draw_offered.clone(),
            answered: self.answered.clone(),
            done: self.done_tx.clone(),
        });
        let bounded = limits.depth.is_some() || limits.nodes.is_some() || limits.time.is_some();
        self.open_ended = limits.infinite || go.ponder || !bounded;
        self.pondering = go.ponder;
        self.pool.start(&self.pos, limits, go.ponder, reporter);
        self.searching = true;
    }

    /// Input ended: finish what was asked, stopping what would never end.
    fn end_of_input(&mut self) {
        loop {
            if self.searching {
                if self.open_ended {
                    self.stopping = true;
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

/// Runs the protocol on `input`/`output` until `quit` or the end of input.
pub fn run<R: BufRead + Send + 'static>(input: R, output: Box<dyn std::io::Write + Send>) {
    let out = Arc::new(Output::new(output));
    let (line_tx, line_rx) = unbounded::<Option<String>>();
    let mut engine = Engine::new(out.clone());
    let fast = Arc::new(input::FastPath::new(out, engine.pool.stopper()));
    let reader_fast = fast.clone();
    std::thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || input::read_lines(input, line_tx, reader_fast))
        .expect("spawn the input reader");
    let done_rx = engine.done_rx.clone();
    while !engine.quit {
        select! {
            recv(line_rx) -> msg => match msg {
                Ok(Some(line)) => {
                    engine.handle_line(&line);
                    fast.handled(&line, !engine.options.batch && !engine.options.debug);
                }
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
