//! Quiescence search (`Worker::qsearch`): captures, evasions in check, and quiet checks at the
//! first quiescence ply, until the position is quiet. Standing pat takes the table's value of
//! the position instead of the static evaluation where the entry's bound says it is nearer
//! the truth (an exact value, a lower bound above the evaluation, an upper bound below it):
//! that value comes from a search, and quiescence is where the static evaluation is trusted
//! most.

use super::pvs::*;
use super::worker::*;
use super::*;

impl Worker {
    /// Quiescence: captures (all evasions in check) until the position is quiet; at the
    /// `first` quiescence ply, after the captures, also the quiet checks that SEE does not
    /// lose (a check the captures cannot see is often the start of a mate).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn qsearch(
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
        let static_eval = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| self.evaluate(ply), |e| e.eval)
        };
        let mut stand_pat = static_eval;
        // A searched value of this position whose bound says it is nearer the truth than
        // the static evaluation stands in for it.
        if !in_check && let Some(e) = entry {
            let value = value_from_tt(e.value, ply);
            let nearer = match e.bound {
                Bound::Exact => true,
                Bound::Lower => value > stand_pat,
                Bound::Upper => value < stand_pat,
            };
            if nearer && !is_rule_value(value) && value.abs() < MATE_BOUND {
                stand_pat = value;
            }
        }
        if stand_pat >= beta {
            if entry.is_none() {
                keep_evaluation(tt, key, ply, static_eval);
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
                picker.set_delta_floor(alpha - stand_pat - self.params().delta_margin);
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
                if stand_pat + gain + self.params().delta_margin <= alpha {
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
        let eval_to_store = if in_check { 0 } else { static_eval };
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
