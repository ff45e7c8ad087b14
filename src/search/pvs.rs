//! The principal variation search of one node (`Worker::pvs`) and its pruning helpers.
//!
//! The steps, numbered in the code: the stop check; the game rules (a repetition is scored at once
//! by the verdict its cycle would earn, since the offender would have to deviate before the third
//! occurrence anyway; the no-capture limit and bare material draw); mate-distance pruning; the
//! transposition table (rule scores depend on the path, so they never cut off); the static
//! evaluation (drawn toward 0 as the no-capture clock runs, `Worker::evaluate`) and whether it
//! improves on ours two plies up (four when we were in check then, so had none; with neither, it
//! counts as improving); reverse futility at low depth; null move (not when
//! only pawns, advisors and elephants are left, which is where zugzwang lives); internal iterative
//! reduction without a hash move; then the move loop over the staged picker (`picker`): late-move
//! and futility pruning of quiet moves (worked out once per node, see `QuietPruning`), history and
//! SEE pruning, check extensions, singular-style care on the hash move, and late-move reductions
//! from `Reductions` (one ply less at nodes the table marks as having been on a principal
//! variation, one more where the children at the next ply have cut off often, and one more where
//! another thread is already in the node, see `breadcrumbs`); a reduced move that beats alpha is
//! searched again at full depth, a ply deeper if it beat the best so far by far, a ply shallower if
//! only just (the reduced search's margin says how much the move is worth a closer look). Every
//! tunable number is in `params.rs`.

use super::worker::*;
use super::*;

impl Worker {
    /// The principal variation search.
    ///
    /// `cut_node`: a zero-window node expected to fail high (the child of a move searched on
    /// the expectation that it fails low, alternating down the line): its late moves are
    /// reduced more, since one of the early ones is expected to refute.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pvs(
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
        // Improving on our evaluation two plies up, or four when we were in check two plies
        // up (no evaluation there); with neither to compare, assume it improves.
        let ours_before = |back: usize| {
            ply.checked_sub(back)
                .map(|p| self.stack[p].static_eval)
                .filter(|&e| e != -INFINITE)
        };
        let improving = !in_check
            && ply >= 2
            && ours_before(2)
                .or_else(|| ours_before(4))
                .is_none_or(|e| static_eval > e);
        let p = self.params();

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
        if tt_move.is_none() && depth >= self.params().iir_depth {
            depth -= 1;
        }

        self.stack[ply + 2].cutoffs = 0;

        // 9. The move loop. Near the root, with other threads about, leave a mark here and
        // see whether another thread is in this node already (see `breadcrumbs`).
        let smp = shared.node_counts.len() > 1;
        let mark = (smp && ply < self.params().breadcrumb_plies)
            .then(|| shared.breadcrumbs.enter(key, self.id));
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
        let tt_capture = entry.is_some_and(|e| e.depth >= depth - self.params().lmr_tt_capture_gap)
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
        // No shallow pruning once alpha is a mate score: no evaluation plus margin reaches
        // one, and in xiangqi a quiet move that gives no check can mate (a side left without
        // a move loses), so pruning there only hid the shorter mates behind longer ones
        // through checks. (Off the principal variation alpha is beta - 1 all through the
        // move loop, so this holds for the whole node.)
        let may_prune = !pv_node && !in_check && alpha < MATE_BOUND;
        let may_skip_quiets = may_prune && depth < self.params().lmr_depth;
        let quiet_pruning =
            QuietPruning::new(self.params(), may_prune, depth, improving, static_eval);
        let mut skipping_quiets = false;
        // Moves put off because another thread is searching them (see below).
        let may_defer = smp && ply + 1 < self.params().breadcrumb_plies;
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
            let p = self.params();
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
                gives_check && ply < self.params().check_extension_reach * self.root_depth as usize,
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
                if depth >= self.params().lmr_depth
                    && move_count > self.params().lmr_first_moves + usize::from(pv_node)
                    && !is_capture
                    && !in_check
                {
                    reduction = self.reductions.get(depth, move_count);
                    reduction -= i32::from(tt_pv);
                    reduction += i32::from(!improving);
                    reduction -= i32::from(gives_check);
                    reduction += i32::from(others_here);
                    reduction += self.params().lmr_cut_node * i32::from(cut_node);
                    reduction += i32::from(tt_capture);
                    reduction += i32::from(self.stack[ply + 1].cutoffs > 3);
                    if mv == killers[0] || mv == killers[1] || mv == counter {
                        reduction -= 1;
                    }
                    let history = self.histories.quiet_score(side, mv, context, piece_to);
                    reduction -= history / self.params().lmr_history_divisor;
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
                    // Well above the best so far: one ply deeper; barely above: one less
                    // (and no second search when that is the depth just searched).
                    let p = self.params();
                    let go_deeper =
                        value > best_value + p.lmr_deeper_margin + p.lmr_deeper_per_ply * new_depth;
                    let go_shallower = value < best_value + new_depth;
                    let research_depth = new_depth + i32::from(go_deeper) - i32::from(go_shallower);
                    if research_depth > new_depth - reduction {
                        value = -self.pvs(
                            false,
                            !cut_node,
                            research_depth,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            tt,
                            shared,
                            deeper,
                        );
                    }
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
                        let bonus = (self.params().history_bonus_per_ply * depth
                            - self.params().history_bonus_offset)
                            .min(self.params().history_max_bonus);
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
}

/// The shallow pruning of quiet moves that give no check at one node, whatever their history
/// and SEE: late-move pruning past a move count, futility pruning once alpha reaches the
/// evaluation plus a margin. Both only grow more true as the move loop goes on (the count
/// rises, alpha too). Worked out once per node; each move asks `drops`.
#[derive(Clone, Copy)]
pub(super) struct QuietPruning {
    /// Quiet moves past this many are pruned (`i32::MAX`: none).
    move_limit: i32,
    /// Quiet moves are pruned once alpha reaches this (`Value::MAX`: never).
    futility_value: Value,
}

impl QuietPruning {
    pub(super) fn new(
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
    pub(super) fn drops(self, alpha: Value, move_count: usize) -> bool {
        move_count as i32 > self.move_limit || self.futility_value <= alpha
    }
}

/// Is the node on a principal variation now, or was it when its table entry was stored (the
/// mark the table keeps for the node)?
pub(super) fn on_principal_variation(pv_node: bool, entry: Option<TtHit>) -> bool {
    pv_node || entry.is_some_and(|e| e.pv)
}

/// Stores the evaluation of a node that had no entry and stops on it (standing pat, reverse
/// futility), so the next visit need not evaluate it again. Standing pat is a lower bound on
/// the quiescence value, so it goes in as one, at quiescence depth: such an entry cuts only
/// where standing pat would, and brings no hash move.
pub(super) fn keep_evaluation(tt: &TranspositionTable, key: u64, ply: usize, eval: Value) {
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
