//! One search thread's state (`Worker`) and its driver: iterative deepening with aspiration
//! windows, the root move loop with MultiPV, and the small steps every node shares (playing a
//! move with its evaluation accumulator, evaluating, repetition and rule scores). The node
//! searches themselves are in [`super::pvs`] and [`super::qsearch`].
//!
//! What is reported is what an analysis GUI can show as it comes: the lines of an iteration
//! are printed together when the iteration is complete, best first, each a different root
//! move, all of that depth (GUIs keep the first line they see for each depth and line
//! number, so a line printed and then displaced within the same depth would stay on screen).
//! Aspiration bounds are printed only with a single line. An iteration cut short leaves the
//! lines of the last complete one as the answer, so `bestmove` is always the first move of
//! the last line 1 printed; the one exception, with a single line, is a move that proved
//! better than the old best within the unfinished iteration: it is printed, then played.
//!
//! The worker keeps one evaluation accumulator per ply: the hand-crafted evaluation's
//! material and square sums, or the network's two perspectives (`eval::nnue`), whichever the
//! search's `Limits::eval` chose; a move updates the next ply's from the current one, a null
//! move copies it.

use super::*;

/// One node's entry on the search stack.
#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    pub(super) static_eval: Value,
    pub(super) piece_to: PieceTo,
    pub(super) mv: Move,
    /// Beta cutoffs at this ply since the grandparent began (more for those without a hash
    /// move): many mean the parent's moves keep being refuted, so it reduces more.
    pub(super) cutoffs: u8,
    /// Set by the parent just before it searches this node: is the side to move in check?
    /// (The parent learns it anyway when deciding on a check extension.)
    pub(super) known_check: Option<bool>,
}

/// What a node's best value says about its true value, for the table: a fail-high is a lower
/// bound, a value inside the window of a PV node is exact, anything else an upper bound.
pub(super) fn bound_of(best: Value, alpha: Value, beta: Value, pv_node: bool) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if pv_node && best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// LMR table: reductions in plies by depth and move number.
pub(super) struct Reductions([[i8; 64]; 64]);

impl Reductions {
    pub(super) fn new(params: &SearchParams) -> Reductions {
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

    pub(super) fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(63)][moves.min(63)] as i32
    }
}

/// Per-ply state, one slot more than the deepest node can reach with the plies it looks
/// ahead (`ply + 2`): a fixed length, so an index known to be at most `MAX_PLY` needs no
/// bounds check.
pub(crate) const PLY_SLOTS: usize = MAX_PLY + 4;
pub(super) type PlyArray<T> = Box<[T; PLY_SLOTS]>;

pub(super) fn ply_array<T: Clone>(value: T) -> PlyArray<T> {
    vec![value; PLY_SLOTS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has PLY_SLOTS elements"))
}

/// What a root move's line says, as a report (`multipv` is `slot + 1`). A move not searched
/// in the last iteration shows the value it had before.
pub(super) fn line_info(
    rm: &RootMove,
    slot: usize,
    tt: &TranspositionTable,
    shared: &SharedState,
) -> IterationInfo {
    IterationInfo {
        depth: rm.depth.max(1),
        seldepth: rm.seldepth.max(1),
        multipv: slot + 1,
        value: if rm.value == -INFINITE {
            rm.previous_value
        } else {
            rm.value
        },
        bound: None,
        nodes: shared.total_nodes(),
        elapsed: shared.elapsed(),
        hashfull: tt.hashfull(),
        pv: rm.pv.clone(),
    }
}

/// One search thread's state; its histories live on between searches.
pub struct Worker {
    pub id: usize,
    pub(super) pos: Position,
    pub histories: Histories,
    pub(super) reductions: Reductions,
    pub(super) stack: PlyArray<Frame>,
    /// Material and square sums per ply, updated move by move (`eval::Accumulator`).
    pub(super) accs: PlyArray<Accumulator>,
    /// The network's accumulators per ply, when searching with it (`net`).
    pub(super) nnue_accs: PlyArray<nnue::Accumulator>,
    pub(super) net: Option<Arc<nnue::Network>>,
    pub(super) pv: PlyArray<Vec<Move>>,
    pub(super) root_moves: Vec<RootMove>,
    /// One set of move-picker buffers per ply below the root (lent to the search).
    pub(super) picker_buffers: Vec<PickerBuffers>,
    pub(super) root_depth: i32,
    pub(super) seldepth: usize,
    pub(super) nodes: u64,
    pub(super) limits: Limits,
    pub(super) stopped: bool,
    pub(super) completed_depth: i32,
    /// The aspiration window of the root search under way.
    pub(super) window: (Value, Value),
    /// What a `tune` build plays this search (`params::tuned` when it began).
    #[cfg(feature = "tune")]
    tuned: &'static SearchParams,
}

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            pos: Position::startpos(),
            histories: Histories::new(),
            reductions: Reductions::new(&SearchParams::DEFAULT),
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
            window: (-INFINITE, INFINITE),
            #[cfg(feature = "tune")]
            tuned: &SearchParams::DEFAULT,
        }
    }

    /// The search's parameters: in a normal build the constants, so that the code folds
    /// them.
    #[cfg(not(feature = "tune"))]
    #[inline(always)]
    pub(super) fn params(&self) -> &'static SearchParams {
        &SearchParams::DEFAULT
    }

    /// The search's parameters: in a `tune` build those set when the search began.
    #[cfg(feature = "tune")]
    #[inline(always)]
    pub(super) fn params(&self) -> &'static SearchParams {
        self.tuned
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
    pub(super) fn setup(&mut self, pos: &Position, limits: &Limits) {
        self.pos = pos.clone();
        self.net = limits.eval.network().cloned();
        match &self.net {
            Some(net) => self.nnue_accs[0] = nnue::Accumulator::new(net, pos),
            None => self.accs[0] = Accumulator::new(pos),
        }
        self.limits = limits.clone();
        #[cfg(feature = "tune")]
        {
            let tuned = params::tuned();
            if !std::ptr::eq(tuned, self.tuned) {
                self.tuned = tuned;
                self.reductions = Reductions::new(tuned);
            }
        }
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
                depth: 0,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
    }

    pub(super) fn report_nodes(&self, shared: &SharedState) {
        shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Checks the stop conditions; the main thread also watches the clock and node limit.
    /// Called at every node: the stop flag is read at every node (one relaxed load of a line
    /// that is written once a search), so that a thread given the processor after `stop`
    /// leaves within microseconds: with many more threads than cores, a thread that ran on
    /// to its next 1024th node first would keep the answer waiting a slice per thread. The
    /// clock and the node counters are looked at every 1024th node, by `check_stop`.
    #[inline(always)]
    pub(super) fn should_stop(&mut self, shared: &SharedState) -> bool {
        if self.stopped {
            return true;
        }
        // The first iteration (a few hundred nodes) is left to finish, so that even a search
        // stopped at once answers from a complete depth 1.
        if self.root_depth > 1 && shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 != 0 && self.limits.nodes.is_none() {
            return false;
        }
        self.check_stop(shared)
    }

    /// `should_stop` at the nodes where the clock, the stop flag or a node limit is looked at.
    #[inline(never)]
    pub(super) fn check_stop(&mut self, shared: &SharedState) -> bool {
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
            } else if shared.oversubscribed {
                std::thread::yield_now();
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
        // A playing level ranks a few root moves to choose among; only the lines asked for
        // are reported.
        let lines = limits.multipv.max(limits.strength.map_or(1, |l| l.lines()));
        let multipv = lines.clamp(1, self.root_moves.len());
        let shown = limits.multipv.clamp(1, multipv);
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
            // The lines as the last completed iteration left them: what an interrupted one
            // falls back to (`settle_interrupted`).
            let committed = self.root_moves.clone();
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_index].previous_value;
                let mut window = self.params().aspiration_window;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                    (
                        (prev - window).max(-INFINITE),
                        (prev + window).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    self.window = (alpha, beta);
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
                    // A bound is worth showing on a long search, but only with one line: a
                    // GUI showing several keeps the first line of each depth it sees.
                    if self.id == 0 && multipv == 1 && shared.elapsed() > Duration::from_secs(3) {
                        self.report(pv_index, bound, tt, shared, reporter);
                    }
                    window += window / 2 + self.params().aspiration_growth;
                }
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.value));
                if self.stopped {
                    break;
                }
            }
            if self.stopped && depth > 1 {
                self.settle_interrupted(committed, multipv, tt, shared, reporter);
                break;
            }
            // The iteration's lines, best first, each a different root move, all of this
            // depth: reported together once they are all known, so that no line is shown and
            // then displaced by a later line of the same depth.
            if self.id == 0 {
                for slot in 0..shown {
                    // (Stopped within depth 1, lines not yet searched are left out.)
                    let known = self.root_moves[slot].value > -INFINITE;
                    if slot == 0 || known {
                        self.report(slot, None, tt, shared, reporter);
                    }
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                // A helper that completes the requested depth ends a depth-limited search for
                // everyone: the answer is there, whichever thread found it. (With several
                // lines the main thread's are the answer: it completes them itself.)
                if limits.depth == Some(depth) && !limits.infinite && multipv == 1 {
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
                if timeman::iteration_done(&budget, &progress, self.params()) {
                    break;
                }
            }
            previous_value = value;
        }
        self.report_nodes(shared);
    }

    /// Reports the line in `slot` (0-based) as it stands.
    pub(super) fn report(
        &self,
        slot: usize,
        bound: Option<Bound>,
        tt: &TranspositionTable,
        shared: &SharedState,
        reporter: &dyn Reporter,
    ) {
        self.report_nodes(shared);
        let mut info = line_info(&self.root_moves[slot], slot, tt, shared);
        info.bound = bound;
        if info.value == -INFINITE {
            // Only when stopped within the first iteration, before this move was searched.
            info.value = self.stack[0].static_eval;
        }
        reporter.iteration(&info);
    }

    /// The search was stopped within iteration `root_depth`, after `committed` (the root
    /// moves as the previous iteration left them). What was reported last stays the answer:
    /// the lines go back to `committed`, except that with one line a move that has proved
    /// better than the last iteration's best in this one (its search finished, above the
    /// best's window) is kept and reported, since the old best is refuted.
    fn settle_interrupted(
        &mut self,
        committed: Vec<RootMove>,
        multipv: usize,
        tt: &TranspositionTable,
        shared: &SharedState,
        reporter: &dyn Reporter,
    ) {
        let first = &self.root_moves[0];
        let refuted = multipv == 1
            && first.mv != committed[0].mv
            && first.depth == self.root_depth
            && first.value > -INFINITE;
        if !refuted {
            self.root_moves = committed;
            return;
        }
        if self.id == 0 {
            let bound = (first.value >= self.window.1).then_some(Bound::Lower);
            self.report(0, bound, tt, shared, reporter);
        }
    }

    /// Searches the root moves from `pv_index` on.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn root_search(
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
                rm.depth = depth;
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
    pub(super) fn play(&mut self, ply: usize, mv: Move) {
        match &self.net {
            Some(net) => {
                self.nnue_accs[ply + 1] = self.nnue_accs[ply].after(net, &self.pos, mv);
            }
            None => self.accs[ply + 1] = self.accs[ply].after(&self.pos, mv),
        }
        self.pos.make_move(mv);
        self.nodes += 1;
    }

    /// The static evaluation at `ply`, from that ply's accumulator, drawn toward 0 as the
    /// no-capture clock runs: half way when it reaches the move limit. An edge that cannot be
    /// turned into a capture before the limit is worth less, so the side ahead prefers lines
    /// that make progress, and the side behind those that run the clock down. Never exactly 0
    /// (kept for draws by the rules).
    #[inline]
    pub(super) fn evaluate(&self, ply: usize) -> Value {
        let value = match &self.net {
            Some(net) => nnue_value(&self.pos, net.evaluate(&self.nnue_accs[ply], &self.pos)),
            None => evaluate_with(&self.pos, &self.accs[ply]),
        };
        match self.limits.rules.move_limit {
            Some(limit) if limit > 0 && !self.limits.unscaled_eval => {
                let limit = limit as Value;
                let clock = (self.pos.halfmove_clock() as Value).min(limit);
                let scaled = value - value * clock / (2 * limit);
                if scaled == 0 { 1 } else { scaled }
            }
            _ => value,
        }
    }

    /// The PV at `ply` becomes `mv` followed by the PV found one ply deeper.
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Scores a position that repeats one `distance` plies back by the rules judge's verdict
    /// on the cycle (found by key first, so the cycle is classified only here): a forced rule
    /// loss is a loss, not a draw. A single repetition counts, as if the cycle went on.
    pub(super) fn repetition_value(&mut self, distance: usize, ply: usize) -> Value {
        match cycle_verdict(&mut self.pos, distance, self.limits.rules.set) {
            CycleVerdict::SideToMoveWins => RULE_WIN - ply_value(ply),
            CycleVerdict::SideToMoveLoses => -RULE_WIN + ply_value(ply),
            CycleVerdict::Draw => DRAW,
        }
    }

    /// Is the game drawn here by the no-capture limit or for want of attacking material?
    pub(super) fn rule_draw(&self) -> bool {
        let limit = self.limits.rules.move_limit;
        limit.is_some_and(|l| self.pos.halfmove_clock() >= l) || insufficient_material(&self.pos)
    }

    /// May the side to move try a null move? Not when only pawns, advisors and elephants are
    /// left to it: there zugzwang is real, and having no move at all loses.
    pub(super) fn null_move_allowed(&self) -> bool {
        let us = self.pos.side_to_move();
        let big = self.pos.count(us, PieceKind::Chariot) * 2
            + self.pos.count(us, PieceKind::Horse)
            + self.pos.count(us, PieceKind::Cannon);
        big >= 2
    }
}
