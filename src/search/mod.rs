//! The search: iterative deepening with aspiration windows over a principal variation search,
//! quiescence on captures, a shared transposition table, and Lazy-SMP threads (`threads`).
//!
//! A `Worker` is one search thread's state. The main worker (id 0) alone checks the clock,
//! reports through the `Reporter`, and decides when to stop; helpers search the same tree with
//! staggered depths and share what they learn through the table.

pub mod breadcrumbs;
pub mod history;
pub mod params;
pub mod picker;
pub mod threads;
pub mod timeman;
pub mod tt;

use crate::core::{Move, Piece, PieceKind};
use crate::eval::{Accumulator, Evaluator, Value, evaluate_with, nnue, nnue_value};
use crate::position::Position;
use crate::rules::{CycleVerdict, Rules, cycle_verdict, insufficient_material};
use history::{Histories, PieceTo, Tried};
use params::SearchParams;
use picker::{MovePicker, PickerBuffers};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable, TtHit, value_from_tt, value_to_tt};

/// The search's parameters: constants, so that the code folds them.
const PARAMS: &SearchParams = &SearchParams::DEFAULT;

/// At most this many moves of a node are put off for another thread's (see `pvs`).
const DEFERRED_MOVES: usize = 8;
/// Deepest ply the search reaches (iterations, extensions and quiescence together).
pub const MAX_PLY: usize = 128;
/// Score of giving mate now; mate in `n` plies is `MATE - n`.
pub const MATE: Value = 30_000;
/// Scores at or beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// Above every real score.
pub const INFINITE: Value = MATE + 1;
/// A win by the repetition rules (the opponent's perpetual check), below any mate score.
pub const RULE_WIN: Value = 20_000;
/// The score of a draw by the rules. The evaluation never returns it, so a stored score equal
/// to it always comes from a rule (repetition, move limit, material) somewhere below.
pub const DRAW: Value = 0;

/// Does this score come from the rules of the game rather than the board: a draw, or a win or
/// loss by a repetition verdict? Such scores depend on the moves that led to the position, so
/// the transposition table keeps them only for move ordering, never for a cut-off (a position
/// reached by another path may have another value).
#[inline]
pub fn is_rule_value(value: Value) -> bool {
    value == DRAW || (RULE_WIN - MAX_PLY as Value..=RULE_WIN).contains(&value.abs())
}

/// A ply count as a score offset.
#[inline]
pub fn ply_value(ply: usize) -> Value {
    ply as Value
}

/// The score of being mated at `ply`.
#[inline]
pub fn mated_in(ply: usize) -> Value {
    -MATE + ply_value(ply)
}

/// Mate in how many moves (positive: we mate; negative: we are mated), if `value` is a mate.
pub fn mate_in_moves(value: Value) -> Option<i32> {
    if value >= MATE_BOUND {
        Some((MATE - value + 1) / 2)
    } else if value <= -MATE_BOUND {
        Some(-(MATE + value) / 2)
    } else {
        None
    }
}

/// What bounds one search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<i32>,
    pub time: Option<timeman::TimeBudget>,
    /// Search until told to stop (`go infinite`, pondering).
    pub infinite: bool,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
    /// Never these root moves.
    pub ban_moves: Vec<Move>,
    pub multipv: usize,
    /// The rules repetitions and the no-capture limit are scored by.
    pub rules: Rules,
    /// The evaluation to search with.
    pub eval: Evaluator,
}

/// One iteration's (or one PV line's) report.
#[derive(Clone, Debug)]
pub struct IterationInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based PV line number.
    pub multipv: usize,
    pub value: Value,
    /// `Some(Lower)` / `Some(Upper)` when the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl IterationInfo {
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` when the side to move has no legal move (it has lost).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub value: Value,
    pub depth: i32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Where the main thread sends what it finds. Only the main thread calls it.
pub trait Reporter: Send + Sync {
    fn iteration(&self, _info: &IterationInfo) {}
    fn current_move(&self, _depth: i32, _mv: Move, _number: usize) {}
    fn finished(&self, _result: &SearchResult) {}
}

/// A reporter that says nothing.
pub struct Silent;
impl Reporter for Silent {}

/// State shared by all threads of a search.
pub struct SharedState {
    pub stop: AtomicBool,
    /// While set, the search does not stop on its own (pondering, `go infinite`).
    pub ponder: AtomicBool,
    /// Microseconds from `epoch` at which the clock started (moved by `ponderhit`).
    pub clock_start_us: AtomicU64,
    pub epoch: Instant,
    pub node_counts: Vec<AtomicU64>,
    /// Which thread searches which node near the root (used with more than one thread).
    pub breadcrumbs: breadcrumbs::Breadcrumbs,
}

impl SharedState {
    pub fn new(threads: usize) -> SharedState {
        SharedState {
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(false),
            clock_start_us: AtomicU64::new(0),
            epoch: Instant::now(),
            node_counts: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            breadcrumbs: breadcrumbs::Breadcrumbs::new(),
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Time since the clock started (the search start, or `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        let now = self.epoch.elapsed().as_micros() as u64;
        Duration::from_micros(now.saturating_sub(self.clock_start_us.load(Ordering::Relaxed)))
    }

    /// Starts the clock now.
    pub fn restart_clock(&self) {
        self.clock_start_us
            .store(self.epoch.elapsed().as_micros() as u64, Ordering::Relaxed);
    }
}

/// A root move with what the last iterations said about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub value: Value,
    pub previous_value: Value,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes this thread spent below the move in this search (for time management: a move
    /// that takes nearly all the effort is seldom overturned).
    pub nodes: u64,
}

/// One node's entry on the search stack.
#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: Value,
    piece_to: PieceTo,
    mv: Move,
    /// Beta cutoffs at this ply since the grandparent began (more for those without a hash
    /// move): many mean the parent's moves keep being refuted, so it reduces more.
    cutoffs: u8,
    /// Set by the parent just before it searches this node: is the side to move in check?
    /// (The parent learns it anyway when deciding on a check extension.)
    known_check: Option<bool>,
}

/// What a node's best value says about its true value, for the table: a fail-high is a lower
/// bound, a value inside the window of a PV node is exact, anything else an upper bound.
fn bound_of(best: Value, alpha: Value, beta: Value, pv_node: bool) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if pv_node && best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// LMR table: reductions in plies by depth and move number.
struct Reductions([[i8; 64]; 64]);

impl Reductions {
    fn new(params: &SearchParams) -> Reductions {
        let mut table = [[0i8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                let value = params.lmr_base
                    + (depth as f64).ln() * (moves as f64).ln() / params.lmr_divisor;
                *r = value.max(0.0) as i8;
            }
        }
        Reductions(table)
    }

    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(63)][moves.min(63)] as i32
    }
}

/// Per-ply state, one slot more than the deepest node can reach with the plies it looks
/// ahead (`ply + 2`): a fixed length, so an index known to be at most `MAX_PLY` needs no
/// bounds check.
pub(crate) const PLY_SLOTS: usize = MAX_PLY + 4;
type PlyArray<T> = Box<[T; PLY_SLOTS]>;

fn ply_array<T: Clone>(value: T) -> PlyArray<T> {
    vec![value; PLY_SLOTS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has PLY_SLOTS elements"))
}

/// One search thread's state; its histories live on between searches.
pub struct Worker {
    pub id: usize,
    pos: Position,
    pub histories: Histories,
    reductions: Reductions,
    stack: PlyArray<Frame>,
    /// Material and square sums per ply, updated move by move (`eval::Accumulator`).
    accs: PlyArray<Accumulator>,
    /// The network's accumulators per ply, when searching with it (`net`).
    nnue_accs: PlyArray<nnue::Accumulator>,
    net: Option<Arc<nnue::Network>>,
    pv: PlyArray<Vec<Move>>,
    root_moves: Vec<RootMove>,
    /// One set of move-picker buffers per ply below the root (lent to the search).
    picker_buffers: Vec<PickerBuffers>,
    root_depth: i32,
    seldepth: usize,
    nodes: u64,
    limits: Limits,
    stopped: bool,
    completed_depth: i32,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            pos: Position::startpos(),
            histories: Histories::new(),
            reductions: Reductions::new(PARAMS),
            stack: ply_array(Frame::default()),
            accs: ply_array(Accumulator::default()),
            nnue_accs: ply_array(nnue::Accumulator::default()),
            net: None,
            pv: ply_array(Vec::new()),
            picker_buffers: (0..MAX_PLY + 2).map(|_| PickerBuffers::new()).collect(),
            root_moves: Vec::new(),
            root_depth: 0,
            seldepth: 0,
            nodes: 0,
            limits: Limits::default(),
            stopped: false,
            completed_depth: 0,
        }
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.histories.clear();
    }

    /// The root moves after the search, best first.
    pub fn root_moves(&self) -> &[RootMove] {
        &self.root_moves
    }

    pub fn completed_depth(&self) -> i32 {
        self.completed_depth
    }

    /// Prepares a search of `pos`: the root move list and the check history.
    fn setup(&mut self, pos: &Position, limits: &Limits) {
        self.pos = pos.clone();
        self.net = limits.eval.network().cloned();
        match &self.net {
            Some(net) => self.nnue_accs[0] = nnue::Accumulator::new(net, pos),
            None => self.accs[0] = Accumulator::new(pos),
        }
        self.limits = limits.clone();
        self.nodes = 0;
        self.stopped = false;
        self.completed_depth = 0;
        self.seldepth = 0;
        let legal = pos.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .filter(|m| !limits.ban_moves.contains(m))
            .collect();
        if moves.is_empty() && !legal.is_empty() && !limits.search_moves.is_empty() {
            // `searchmoves` named nothing legal: ignore it rather than give up.
            moves = legal
                .iter()
                .copied()
                .filter(|m| !limits.ban_moves.contains(m))
                .collect();
        }
        self.root_moves = moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                value: -INFINITE,
                previous_value: -INFINITE,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
    }

    fn report_nodes(&self, shared: &SharedState) {
        shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Checks the stop conditions; the main thread also watches the clock and node limit.
    /// Called at every node: the common answer (no node limit, not a 1024th node) is given
    /// here, the rest by `check_stop`.
    #[inline(always)]
    fn should_stop(&mut self, shared: &SharedState) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 != 0 && self.limits.nodes.is_none() {
            return false;
        }
        self.check_stop(shared)
    }

    /// `should_stop` at the nodes where the clock, the stop flag or a node limit is looked at.
    #[inline(never)]
    fn check_stop(&mut self, shared: &SharedState) -> bool {
        if self.nodes & 1023 == 0 {
            self.report_nodes(shared);
            if self.id == 0 && !shared.ponder.load(Ordering::Relaxed) {
                let hard = self.limits.time.map(|t| t.hard);
                if hard.is_some_and(|h| shared.elapsed() >= h) {
                    shared.stop.store(true, Ordering::Relaxed);
                }
                if self.limits.nodes.is_some_and(|n| shared.total_nodes() >= n) {
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
            if shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        // A node limit is exact for a single thread, so `go nodes` is reproducible.
        if self.id == 0 && self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
        self.stopped
    }

    /// Runs iterative deepening until a limit is reached or the search is stopped.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        tt: &TranspositionTable,
        shared: &SharedState,
        reporter: &dyn Reporter,
    ) {
        self.setup(pos, limits);
        if self.root_moves.is_empty() {
            return;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let multipv = limits.multipv.clamp(1, self.root_moves.len());
        let mut last_best = Move::NONE;
        let mut best_since = 0;
        let mut best_changes = 0.0f64;
        let mut previous_value = 0;
        for depth in 1..=max_depth {
            // Lazy SMP: helpers skip some depths so the threads spread over several.
            if self.id > 0 && depth > 1 && depth < max_depth && (depth + self.id as i32) % 3 == 0 {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.previous_value = rm.value;
            }
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_index].previous_value;
                let mut window = PARAMS.aspiration_window;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                    (
                        (prev - window).max(-INFINITE),
                        (prev + window).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let value =
                        self.root_search(depth, alpha, beta, pv_index, tt, shared, reporter);
                    self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.value));
                    if self.stopped {
                        break;
                    }
                    let bound = if value <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (value - window).max(-INFINITE);
                        Some(Bound::Upper)
                    } else if value >= beta {
                        beta = (value + window).min(INFINITE);
                        Some(Bound::Lower)
                    } else {
                        None
                    };
                    if bound.is_none() {
                        break;
                    }
                    if self.id == 0 && shared.elapsed() > Duration::from_secs(3) {
                        self.report(pv_index, depth, bound, tt, shared, reporter);
                    }
                    window += window / 2 + PARAMS.aspiration_growth;
                }
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.value));
                if self.id == 0 && !(self.stopped && depth > 1) {
                    self.report(pv_index, depth, None, tt, shared, reporter);
                }
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                // A helper that completes the requested depth ends a depth-limited search for
                // everyone: the answer is there, whichever thread found it.
                if limits.depth == Some(depth) && !limits.infinite {
                    shared.stop.store(true, Ordering::Relaxed);
                    break;
                }
                continue;
            }
            // Main thread: is it time to stop?
            let best = &self.root_moves[0];
            if let Some(mate) = limits.mate
                && mate_in_moves(best.value).is_some_and(|m| m > 0 && m <= mate)
            {
                break;
            }
            if best.mv != last_best {
                best_changes += 1.0;
                last_best = best.mv;
                best_since = depth;
            }
            best_changes *= 0.5;
            let value = best.value;
            if let Some(budget) = limits.time
                && !shared.ponder.load(Ordering::Relaxed)
            {
                let progress = timeman::Progress {
                    elapsed: shared.elapsed(),
                    best_changes,
                    score_drop: previous_value - value,
                    single_move: self.root_moves.len() == 1,
                    settled_iterations: depth - best_since,
                    best_move_effort: best.nodes as f64 / self.nodes.max(1) as f64,
                };
                if timeman::iteration_done(&budget, &progress, PARAMS) {
                    break;
                }
            }
            previous_value = value;
        }
        self.report_nodes(shared);
    }

    /// Reports line `pv_index` of the current iteration.
    #[allow(clippy::too_many_arguments)]
    fn report(
        &self,
        pv_index: usize,
        depth: i32,
        bound: Option<Bound>,
        tt: &TranspositionTable,
        shared: &SharedState,
        reporter: &dyn Reporter,
    ) {
        self.report_nodes(shared);
        let rm = &self.root_moves[pv_index];
        let value = if rm.value == -INFINITE {
            rm.previous_value
        } else {
            rm.value
        };
        reporter.iteration(&IterationInfo {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: pv_index + 1,
            value,
            bound,
            nodes: shared.total_nodes(),
            elapsed: shared.elapsed(),
            hashfull: tt.hashfull(),
            pv: rm.pv.clone(),
        });
    }

    /// Searches the root moves from `pv_index` on.
    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: Value,
        beta: Value,
        pv_index: usize,
        tt: &TranspositionTable,
        shared: &SharedState,
        reporter: &dyn Reporter,
    ) -> Value {
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let original_alpha = alpha;
        // The plies below the root take their picker buffers from here, one each.
        let mut bufs = std::mem::take(&mut self.picker_buffers);
        self.stack[0] = Frame {
            static_eval: self.evaluate(0),
            ..Frame::default()
        };
        self.stack[2].cutoffs = 0;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.id == 0 && shared.elapsed() > Duration::from_secs(3) {
                reporter.current_move(depth, mv, i + 1);
            }
            self.stack[0].mv = mv;
            self.stack[0].piece_to = PieceTo::of(&self.pos, mv);
            let nodes_before = self.nodes;
            tt.prefetch(self.pos.key_after(mv));
            self.play(0, mv);
            let gives_check = self.pos.in_check();
            self.stack[1].known_check = Some(gives_check);
            let extension = i32::from(gives_check);
            let new_depth = depth - 1 + extension;
            let value = if i == pv_index {
                -self.pvs(
                    true, false, new_depth, -beta, -alpha, 1, tt, shared, &mut bufs,
                )
            } else {
                let mut v = -self.pvs(
                    false,
                    true,
                    new_depth,
                    -alpha - 1,
                    -alpha,
                    1,
                    tt,
                    shared,
                    &mut bufs,
                );
                if v > alpha && !self.stopped {
                    v = -self.pvs(
                        true, false, new_depth, -beta, -alpha, 1, tt, shared, &mut bufs,
                    );
                }
                v
            };
            self.pos.unmake_move();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || value > alpha {
                rm.value = value;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.value = -INFINITE;
            }
            if value > best {
                best = value;
                best_move = mv;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.picker_buffers = bufs;
        if !self.stopped && !best_move.is_none() {
            // Keep the root in the table too, so `probe` and the next search find it.
            let bound = bound_of(best, original_alpha, beta, true);
            let key = self.pos.key();
            tt.store(
                key,
                best_move,
                value_to_tt(best, 0),
                self.stack[0].static_eval,
                depth,
                bound,
                true,
            );
        }
        best
    }

    /// Plays `mv` from the node at `ply`: the evaluation accumulator of the next ply follows,
    /// and the move counts as a node. (Every caller has already prefetched the child's table
    /// bucket, when it picked the move.)
    fn play(&mut self, ply: usize, mv: Move) {
        match &self.net {
            Some(net) => {
                self.nnue_accs[ply + 1] = self.nnue_accs[ply].after(net, &self.pos, mv);
            }
            None => self.accs[ply + 1] = self.accs[ply].after(&self.pos, mv),
        }
        self.pos.make_move(mv);
        self.nodes += 1;
    }

    /// The static evaluation at `ply`, from that ply's accumulator.
    #[inline]
    fn evaluate(&self, ply: usize) -> Value {
        match &self.net {
            Some(net) => nnue_value(
                &self.pos,
                net.evaluate(&self.nnue_accs[ply], self.pos.side_to_move()),
            ),
            None => evaluate_with(&self.pos, &self.accs[ply]),
        }
    }

    /// The PV at `ply` becomes `mv` followed by the PV found one ply deeper.
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Scores a position that repeats one `distance` plies back by the rules judge's verdict
    /// on the cycle (found by key first, so the cycle is classified only here): a forced rule
    /// loss is a loss, not a draw. A single repetition counts, as if the cycle went on.
    fn repetition_value(&mut self, distance: usize, ply: usize) -> Value {
        match cycle_verdict(&mut self.pos, distance, self.limits.rules.set) {
            CycleVerdict::SideToMoveWins => RULE_WIN - ply_value(ply),
            CycleVerdict::SideToMoveLoses => -RULE_WIN + ply_value(ply),
            CycleVerdict::Draw => DRAW,
        }
    }

    /// Is the game drawn here by the no-capture limit or for want of attacking material?
    fn rule_draw(&self) -> bool {
        let limit = self.limits.rules.move_limit;
        limit.is_some_and(|l| self.pos.halfmove_clock() >= l) || insufficient_material(&self.pos)
    }

    /// May the side to move try a null move? Not when only pawns, advisors and elephants are
    /// left to it: there zugzwang is real, and having no move at all loses.
    fn null_move_allowed(&self) -> bool {
        let us = self.pos.side_to_move();
        let big = self.pos.count(us, PieceKind::Chariot) * 2
            + self.pos.count(us, PieceKind::Horse)
            + self.pos.count(us, PieceKind::Cannon);
        big >= 2
    }

    /// The principal variation search.
    ///
    /// `cut_node`: a zero-window node expected to fail high (the child of a move searched on
    /// the expectation that it fails low, alternating down the line): its late moves are
    /// reduced more, since one of the early ones is expected to refute.
    #[allow(clippy::too_many_arguments)]
    fn pvs(
        &mut self,
        pv_node: bool,
        cut_node: bool,
        mut depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        tt: &TranspositionTable,
        shared: &SharedState,
        bufs: &mut [PickerBuffers],
    ) -> Value {
        // Never more (the ply limit below returns before any child), but said here so the
        // per-ply slots below are indexed without bounds checks.
        let ply = ply.min(MAX_PLY);
        // 1. Quiescence at the horizon.
        if depth <= 0 {
            return self.qsearch(pv_node, alpha, beta, ply, true, tt, shared, bufs);
        }
        let (buf, deeper) = bufs
            .split_first_mut()
            .expect("a picker buffer for every ply");
        self.pv[ply].clear();
        if self.should_stop(shared) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.stack[ply]
            .known_check
            .unwrap_or_else(|| self.pos.in_check());

        // 2. Game rules: repetition, the no-capture limit, material, the ply limit.
        if let Some(distance) = self.pos.repetition_distance() {
            return self.repetition_value(distance, ply);
        }
        if self.rule_draw() {
            return DRAW;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }

        // 3. Mate distance pruning: no line from here can beat a mate already found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(MATE - ply_value(ply) - 1);
        if alpha >= beta {
            return alpha;
        }

        // 4. Transposition table.
        let key = self.pos.key();
        let entry = tt.probe(key);
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        let tt_pv = on_principal_variation(pv_node, entry);
        if let Some(e) = entry {
            let value = value_from_tt(e.value, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if !pv_node && e.depth >= depth && usable && !is_rule_value(value) {
                return value;
            }
        }

        // 5. Static evaluation.
        let static_eval = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| self.evaluate(ply), |e| e.eval)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        let p = PARAMS;

        // Neither shortcut below looks at the moves, so neither may answer where beta is a
        // mated score: only the move loop can tell that this side has no move left (a
        // stalemate loses in xiangqi) and is mated after all.
        if !pv_node && !in_check && beta > -MATE_BOUND {
            // 6. Reverse futility: far above beta at low depth, assume it holds.
            if depth <= p.rfp_depth
                && static_eval - p.rfp_margin * (depth - i32::from(improving)) >= beta
                && static_eval < MATE_BOUND
            {
                if entry.is_none() {
                    keep_evaluation(tt, key, ply, static_eval);
                }
                return static_eval;
            }
            // 7. Null move: if passing still fails high, the position is good enough.
            if depth >= p.nmp_depth
                && static_eval >= beta
                && !self.stack[ply.saturating_sub(1)].mv.is_none()
                && self.null_move_allowed()
            {
                tt.prefetch(self.pos.key_after_null());
                let reduction = p.nmp_base
                    + depth / p.nmp_divisor
                    + ((static_eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
                self.stack[ply].mv = Move::NONE;
                self.stack[ply].piece_to = PieceTo::NONE;
                match self.net {
                    Some(_) => self.nnue_accs[ply + 1] = self.nnue_accs[ply],
                    None => self.accs[ply + 1] = self.accs[ply],
                }
                self.pos.make_null_move();
                self.nodes += 1;
                self.stack[ply + 1].known_check = Some(false);
                let value = -self.pvs(
                    false,
                    !cut_node,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    tt,
                    shared,
                    deeper,
                );
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if value >= beta {
                    return if value >= MATE_BOUND { beta } else { value };
                }
            }
        }

        // 8. Internal iterative reduction: no hash move, so this node is likely unimportant.
        if tt_move.is_none() && depth >= PARAMS.iir_depth {
            depth -= 1;
        }

        self.stack[ply + 2].cutoffs = 0;

        // 9. The move loop. Near the root, with other threads about, leave a mark here and
        // see whether another thread is in this node already (see `breadcrumbs`).
        let smp = shared.node_counts.len() > 1;
        let mark =
            (smp && ply < PARAMS.breadcrumb_plies).then(|| shared.breadcrumbs.enter(key, self.id));
        let others_here = mark.as_ref().is_some_and(|m| m.others_here);
        let earlier = |back: usize| {
            ply.checked_sub(back)
                .map_or(PieceTo::NONE, |p| self.stack[p].piece_to)
        };
        let context = [earlier(1), earlier(2), earlier(4)];
        let prev = context[0];
        let counter = self.histories.counters[prev.0 as usize];
        let killers = self.histories.killers[ply];
        let mut picker =
            MovePicker::new(&self.pos, tt_move, killers, counter, context, in_check, buf);
        picker.prefetch_from(tt);
        let side = self.pos.side_to_move().index();
        // A capture as the hash move of an entry searched nearly this deep: the quiet moves
        // are less likely to be best here.
        let tt_capture = entry.is_some_and(|e| e.depth >= depth - PARAMS.lmr_tt_capture_gap)
            && !tt_move.is_none()
            && self.pos.piece_on(tt_move.to()).is_some();
        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiets_tried: Tried<_, 32> = Tried::new((Move::NONE, PieceTo::NONE));
        let mut captures_tried: Tried<_, 16> = Tried::new((PieceTo::NONE, PieceKind::Pawn));
        // The opponent king's data for the check test of every move, made when first needed.
        let mut check_info = None;
        // Without late-move reductions, the move count matters only to the pruning, so once
        // the pruning would drop every quiet move but the checks, the picker need not hand
        // the others out (nor score and sort those not generated yet): the same search.
        let may_prune = !pv_node && !in_check;
        let may_skip_quiets = may_prune && depth < PARAMS.lmr_depth;
        let quiet_pruning = QuietPruning::new(PARAMS, may_prune, depth, improving, static_eval);
        let mut skipping_quiets = false;
        // Moves put off because another thread is searching them (see below).
        let may_defer = smp && ply + 1 < PARAMS.breadcrumb_plies;
        let mut deferred: Tried<Move, DEFERRED_MOVES> = Tried::new(Move::NONE);
        let mut next_deferred = 0;
        loop {
            // Whether late-move or futility pruning drops the next move if it is quiet and
            // gives no check (alpha does not change before the pruning asks).
            let futile = quiet_pruning.drops(alpha, move_count + 1);
            if futile
                && may_skip_quiets
                && !skipping_quiets
                && best_value > -MATE_BOUND
                && let Some(info) = &check_info
            {
                picker.keep_only_quiet_checks(info);
                skipping_quiets = true;
            }
            let (mv, revisit) = match picker.next(&self.pos, &self.histories) {
                Some(mv) => (mv, false),
                None if next_deferred < deferred.as_slice().len() => {
                    next_deferred += 1;
                    (deferred.as_slice()[next_deferred - 1], true)
                }
                None => break,
            };
            move_count += 1;
            // The child's bucket is fetched while the move is weighed for pruning (the
            // picker fetched the captures' already).
            if !picker.fetched(mv) {
                tt.prefetch(self.pos.key_after(mv));
            }
            let victim = self.pos.piece_on(mv.to()).map(Piece::kind);
            let is_capture = victim.is_some();
            let piece_to = PieceTo::of(&self.pos, mv);
            let p = PARAMS;
            // Whether the move checks: pruning spares checks, and the child is told, so it is
            // computed once (before the move, where most moves are cleared by a glance at the
            // king's lines).
            let gives_check = self
                .pos
                .gives_check_with(check_info.get_or_insert_with(|| self.pos.check_info()), mv);

            // 10. Shallow pruning of moves that are unlikely to matter (never of checks).
            if may_prune && best_value > -MATE_BOUND && move_count > 1 && !revisit {
                if !is_capture {
                    let prunable = !gives_check
                        && (futile
                            || (depth <= p.history_prune_depth
                                && self.histories.quiet_score(side, mv, context, piece_to)
                                    < -p.history_prune_margin * depth)
                            || (depth <= p.see_prune_depth
                                && !self.pos.see_ge(mv, -p.see_quiet_margin * depth)));
                    if prunable {
                        continue;
                    }
                } else if depth <= p.see_prune_depth
                    && !gives_check
                    && !self.pos.see_ge(mv, -p.see_capture_margin * depth * depth)
                {
                    // (A losing capture that checks stays: SEE knows nothing of pins, and in
                    // xiangqi a pinned defender — by a cannon or the facing kings — is common.)
                    continue;
                }
            }

            self.stack[ply].mv = mv;
            self.stack[ply].piece_to = piece_to;
            self.play(ply, mv);
            // Another thread is searching this move's position now: come back to it once the
            // other moves are done, when its result is likely in the table (ABDADA).
            if may_defer
                && move_count > 1
                && !revisit
                && deferred.as_slice().len() < DEFERRED_MOVES
                && shared.breadcrumbs.busy(self.pos.key(), self.id)
            {
                self.pos.unmake_move();
                self.nodes -= 1;
                deferred.push(mv);
                move_count -= 1;
                continue;
            }
            self.stack[ply + 1].known_check = Some(gives_check);

            // 11. Extensions: checks, while the line is not already very long.
            let extension = i32::from(
                gives_check && ply < PARAMS.check_extension_reach * self.root_depth as usize,
            );
            let new_depth = depth - 1 + extension;

            // 12. Late-move reductions, then the PVS re-searches.
            // The first move gets the full window; a later one a zero window, reduced if
            // late, searched again at full depth if it beats alpha, and with the full window
            // at a PV node if it lands inside it.
            let mut value = -INFINITE;
            let mut full_window = move_count == 1;
            if move_count > 1 {
                let mut reduction = 0;
                if depth >= PARAMS.lmr_depth
                    && move_count > PARAMS.lmr_first_moves + usize::from(pv_node)
                    && !is_capture
                    && !in_check
                {
                    reduction = self.reductions.get(depth, move_count);
                    reduction -= i32::from(tt_pv);
                    reduction += i32::from(!improving);
                    reduction -= i32::from(gives_check);
                    reduction += i32::from(others_here);
                    reduction += PARAMS.lmr_cut_node * i32::from(cut_node);
                    reduction += i32::from(tt_capture);
                    reduction += i32::from(self.stack[ply + 1].cutoffs > 3);
                    if mv == killers[0] || mv == killers[1] || mv == counter {
                        reduction -= 1;
                    }
                    let history = self.histories.quiet_score(side, mv, context, piece_to);
                    reduction -= history / PARAMS.lmr_history_divisor;
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                value = -self.pvs(
                    false,
                    reduction > 0 || !cut_node,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    tt,
                    shared,
                    deeper,
                );
                if value > alpha && reduction > 0 {
                    value = -self.pvs(
                        false,
                        !cut_node,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        tt,
                        shared,
                        deeper,
                    );
                }
                full_window = pv_node && value > alpha && value < beta;
            }
            if full_window {
                value = -self.pvs(
                    pv_node,
                    !pv_node && !cut_node,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    tt,
                    shared,
                    deeper,
                );
            }
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }

            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = mv;
                    alpha = value;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        self.stack[ply].cutoffs = self.stack[ply]
                            .cutoffs
                            .saturating_add(1 + u8::from(tt_move.is_none()));
                        // 13. A cutoff: teach the histories. The captures tried before it
                        // failed here, whichever kind of move refuted.
                        let bonus = (PARAMS.history_bonus_per_ply * depth
                            - PARAMS.history_bonus_offset)
                            .min(PARAMS.history_max_bonus);
                        for &(cpt, kind) in captures_tried.as_slice() {
                            self.histories.update_capture(cpt, kind, -bonus);
                        }
                        if let Some(kind) = victim {
                            self.histories.update_capture(piece_to, kind, bonus);
                        } else {
                            self.histories
                                .update_quiet(side, mv, context, piece_to, bonus);
                            for &(q, qpt) in quiets_tried.as_slice() {
                                self.histories.update_quiet(side, q, context, qpt, -bonus);
                            }
                            self.histories.add_killer(ply, mv);
                            if prev != PieceTo::NONE {
                                self.histories.counters[prev.0 as usize] = mv;
                            }
                        }
                        break;
                    }
                }
            }
            match victim {
                Some(kind) => captures_tried.push((piece_to, kind)),
                None => quiets_tried.push((mv, piece_to)),
            }
        }

        // 14. No legal move: mated or stalemated, and both lose in xiangqi.
        if move_count == 0 {
            return mated_in(ply);
        }
        if best_value == -INFINITE {
            // Every move was pruned: fall back on alpha.
            return alpha;
        }

        let bound = bound_of(best_value, original_alpha, beta, pv_node);
        let eval_to_store = if in_check { 0 } else { static_eval };
        tt.store(
            key,
            best_move,
            value_to_tt(best_value, ply),
            eval_to_store,
            depth,
            bound,
            tt_pv,
        );
        best_value
    }

    /// Quiescence: captures (all evasions in check) until the position is quiet; at the
    /// `first` quiescence ply, after the captures, also the quiet checks that SEE does not
    /// lose (a check the captures cannot see is often the start of a mate).
    #[allow(clippy::too_many_arguments)]
    fn qsearch(
        &mut self,
        pv_node: bool,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        first: bool,
        tt: &TranspositionTable,
        shared: &SharedState,
        bufs: &mut [PickerBuffers],
    ) -> Value {
        // As in `pvs`: never more, said for the bounds checks.
        let ply = ply.min(MAX_PLY);
        self.pv[ply].clear();
        if self.should_stop(shared) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.stack[ply]
            .known_check
            .unwrap_or_else(|| self.pos.in_check());
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        let key = self.pos.key();
        let entry = tt.probe(key);
        if let Some(e) = entry
            && !pv_node
        {
            let value = value_from_tt(e.value, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if usable && !is_rule_value(value) {
                return value;
            }
        }
        let stand_pat = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| self.evaluate(ply), |e| e.eval)
        };
        if stand_pat >= beta {
            if entry.is_none() {
                keep_evaluation(tt, key, ply, stand_pat);
            }
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let original_alpha = alpha;
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        let (buf, deeper) = bufs
            .split_first_mut()
            .expect("a picker buffer for every ply");
        let mut picker = MovePicker::quiescence(&self.pos, tt_move, in_check, first, buf);
        picker.prefetch_from(tt);
        let mut best_value = stand_pat;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        loop {
            if !in_check {
                picker.set_delta_floor(alpha - stand_pat - PARAMS.delta_margin);
            }
            let Some(mv) = picker.next(&self.pos, &self.histories) else {
                break;
            };
            move_count += 1;
            // As in the main search: the child's bucket is on its way while the move is
            // weighed.
            if !picker.fetched(mv) {
                tt.prefetch(self.pos.key_after(mv));
            }
            // Whether the move checks is asked only where delta pruning needs it; otherwise
            // the child finds out for itself (one look at its king, cheaper than the
            // check data of this node when few moves are searched here).
            let mut gives_check = None;
            if !in_check {
                // Delta pruning: even winning this piece cannot lift us to alpha.
                let gain = self
                    .pos
                    .piece_on(mv.to())
                    .map_or(0, |p| crate::position::see::piece_value(p.kind()));
                if stand_pat + gain + PARAMS.delta_margin <= alpha {
                    if !picker.gives_check(&self.pos, mv) {
                        continue;
                    }
                    gives_check = Some(true);
                }
            }
            self.play(ply, mv);
            self.stack[ply + 1].known_check = gives_check;
            let value = -self.qsearch(pv_node, -beta, -alpha, ply + 1, false, tt, shared, deeper);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = mv;
                    alpha = value;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = bound_of(best_value, original_alpha, beta, pv_node);
        let eval_to_store = if in_check { 0 } else { stand_pat };
        tt.store(
            key,
            best_move,
            value_to_tt(best_value, ply),
            eval_to_store,
            -1,
            bound,
            on_principal_variation(pv_node, entry),
        );
        best_value
    }
}

/// The shallow pruning of quiet moves that give no check at one node, whatever their history
/// and SEE: late-move pruning past a move count, futility pruning once alpha reaches the
/// evaluation plus a margin. Both only grow more true as the move loop goes on (the count
/// rises, alpha too). Worked out once per node; each move asks `drops`.
#[derive(Clone, Copy)]
struct QuietPruning {
    /// Quiet moves past this many are pruned (`i32::MAX`: none).
    move_limit: i32,
    /// Quiet moves are pruned once alpha reaches this (`Value::MAX`: never).
    futility_value: Value,
}

impl QuietPruning {
    fn new(
        p: &SearchParams,
        may_prune: bool,
        depth: i32,
        improving: bool,
        static_eval: Value,
    ) -> Self {
        let lmp = may_prune && depth <= p.lmp_depth;
        let futility = may_prune && depth <= p.fp_depth;
        QuietPruning {
            move_limit: if lmp {
                p.lmp_base
                    + if improving {
                        depth * depth
                    } else {
                        depth * depth / 2
                    }
            } else {
                i32::MAX
            },
            futility_value: if futility {
                static_eval + p.fp_base + p.fp_margin * depth
            } else {
                Value::MAX
            },
        }
    }

    /// Would a quiet move that gives no check be dropped as the node's `move_count`-th move?
    #[inline(always)]
    fn drops(self, alpha: Value, move_count: usize) -> bool {
        move_count as i32 > self.move_limit || self.futility_value <= alpha
    }
}

/// Is the node on a principal variation now, or was it when its table entry was stored (the
/// mark the table keeps for the node)?
fn on_principal_variation(pv_node: bool, entry: Option<TtHit>) -> bool {
    pv_node || entry.is_some_and(|e| e.pv)
}

/// Stores the evaluation of a node that had no entry and stops on it (standing pat, reverse
/// futility), so the next visit need not evaluate it again. Standing pat is a lower bound on
/// the quiescence value, so it goes in as one, at quiescence depth: such an entry cuts only
/// where standing pat would, and brings no hash move.
fn keep_evaluation(tt: &TranspositionTable, key: u64, ply: usize, eval: Value) {
    tt.store(
        key,
        Move::NONE,
        value_to_tt(eval, ply),
        eval,
        -1,
        Bound::Lower,
        false,
    );
}

/// Searches `pos` on the calling thread with a private table: for tests and tools that want
/// a plain function.
pub fn search_position(pos: &Position, limits: &Limits, hash_mb: usize) -> SearchResult {
    let tt = TranspositionTable::new(hash_mb);
    let shared = Arc::new(SharedState::new(1));
    let mut worker = Worker::new(0);
    // The clock starts once the table and the worker exist: a search's time is searching.
    shared.restart_clock();
    worker.search(pos, limits, &tt, &shared, &Silent);
    threads::result_of(&worker, &shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: i32) -> SearchResult {
        let pos = Position::from_fen(fen).unwrap();
        search_position(
            &pos,
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            8,
        )
    }

    #[test]
    fn finds_mate_in_one() {
        // The chariot on a8 holds rank 8; the other chariot mates on b9.
        let r = best("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", 4);
        assert_eq!(r.best.unwrap().to_string(), "b0b9");
        assert_eq!(mate_in_moves(r.value), Some(1));
    }

    #[test]
    fn no_move_means_no_best_move() {
        let r = best("3k5/9/9/9/9/9/9/9/9/3RK4 b", 4);
        assert!(r.best.is_none());
    }

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-MATE + 2), Some(-1));
        assert_eq!(mate_in_moves(150), None);
    }
}
