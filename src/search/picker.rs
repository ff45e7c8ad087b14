//! The staged move picker: hands out a node's moves best-first, generating them lazily.
//!
//! Stages: the transposition-table move (checked for legality, since it may come from another
//! position with the same hash); then captures that do not lose material by SEE, most
//! valuable victim first (chariot and cannon captures top the list), adjusted by capture
//! history; then quiet moves — killers, the counter-move, then by history; then the losing
//! captures. In check all legal moves are ordered together. Quiescence takes the good captures
//! only, and at its first ply then the quiet checks. A cutoff in an early stage saves
//! generating the later ones.

use super::history::{Context, Histories, PieceTo};
use crate::core::{Move, Square};
use crate::position::MoveList;
use crate::position::movegen::{GenKind, KingZone, MAX_MOVES};
use crate::position::see::piece_value;
use crate::position::{CheckInfo, Position};
use crate::search::tt::TranspositionTable;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    /// The killers and the counter-move, tried before the other quiet moves are generated.
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    /// Quiescence at its first ply, after the captures: quiet moves that give check and do
    /// not lose material by SEE.
    GenerateQuietChecks,
    QuietChecks,
    GenerateEvasions,
    Evasions,
    Done,
}

/// Scores for quiet moves named by the heuristics (above any history value).
const KILLER_1: i32 = 1 << 20;
const KILLER_2: i32 = KILLER_1 - 1;
const COUNTER: i32 = KILLER_1 - 2;

/// The sort key of the `index`-th generated move `mv` scored `score`: the score on top, then
/// the generation order (earlier first among equals), then the move itself, so that every
/// key is distinct and sorting them descending gives the stable order of the scores.
#[inline(always)]
fn sort_key(score: i32, index: usize, mv: Move) -> u64 {
    let score = (score as i64 - i32::MIN as i64) as u64;
    let rank = (MAX_MOVES - 1 - index) as u64;
    score << 32 | rank << 16 | mv.raw() as u64
}

/// The move lists and scores of one node's picker. Each search ply keeps its own, reused
/// node after node, so starting a node does not clear a couple of kilobytes (see
/// `Worker::picker_buffers`).
pub struct PickerBuffers {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    bad: MoveList,
    /// Scratch for `sort_descending`.
    keys: [u64; MAX_MOVES],
}

impl PickerBuffers {
    pub fn new() -> PickerBuffers {
        PickerBuffers {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            bad: MoveList::new(),
            keys: [0; MAX_MOVES],
        }
    }
}

impl Default for PickerBuffers {
    fn default() -> Self {
        PickerBuffers::new()
    }
}

pub struct MovePicker<'a> {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    context: Context,
    captures_only: bool,
    /// Quiescence only: follow the captures with the quiet checks.
    quiet_checks: bool,
    /// Main search: the search prunes every quiet move from here on unless it gives check
    /// (see `keep_only_quiet_checks`), so no other quiet move is handed out.
    only_quiet_checks: bool,
    /// The opponent king's data for the check tests, made when first needed.
    check_info: Option<CheckInfo>,
    /// Quiescence: captures of a victim worth at most this are dropped by delta pruning
    /// unless they give check (see `set_delta_floor`).
    delta_floor: i32,
    in_check: bool,
    /// Legality data, computed when first needed (see `zone`) and shared from then on.
    zone: Option<KingZone>,
    /// Once the quiet moves are generated: the king, whose quiet moves in the list are not
    /// tested yet (see `generate`).
    untested_king: Option<Square>,
    /// The moves of the current stage, their scores, the losing captures put off to the
    /// end: only the first `len` of each list mean anything.
    buf: &'a mut PickerBuffers,
    next: usize,
    bad_next: usize,
    /// The refutation moves already given (`Stage::Refutations`), never given twice.
    refutations: [Move; 3],
    refutation_next: usize,
    /// Where the captures' children will be looked up: each capture's bucket is fetched as
    /// soon as it is selected, before its SEE (in the main search and quiescence alike).
    table: Option<&'a TranspositionTable>,
    /// The last capture whose bucket was fetched (see `fetched`).
    fetched: Move,
}

impl<'a> MovePicker<'a> {
    /// A picker for a main-search node, working in `buf`.
    pub fn new(
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        context: Context,
        in_check: bool,
        buf: &'a mut PickerBuffers,
    ) -> MovePicker<'a> {
        // (In check the hash move is found among the evasions, which are all legal.)
        let stage = if in_check {
            Stage::GenerateEvasions
        } else if !tt_move.is_none() && pos.is_legal_out_of_check(tt_move) {
            Stage::TtMove
        } else {
            Stage::GenerateCaptures
        };
        buf.moves.clear();
        buf.bad.clear();
        MovePicker {
            stage,
            tt_move: if stage == Stage::TtMove || in_check {
                tt_move
            } else {
                Move::NONE
            },
            killers,
            counter,
            context,
            captures_only: false,
            quiet_checks: false,
            only_quiet_checks: false,
            check_info: None,
            delta_floor: i32::MIN,
            in_check,
            zone: None,
            untested_king: None,
            buf,
            next: 0,
            bad_next: 0,
            refutations: [Move::NONE; 3],
            refutation_next: 0,
            table: None,
            fetched: Move::NONE,
        }
    }

    /// A picker for quiescence: captures that do not lose material (all evasions in check),
    /// then, with `quiet_checks` and not in check, the quiet checks that do not either.
    pub fn quiescence(
        pos: &Position,
        tt_move: Move,
        in_check: bool,
        quiet_checks: bool,
        buf: &'a mut PickerBuffers,
    ) -> MovePicker<'a> {
        // Like every quiescence capture, the hash move must not lose material. (In check it
        // is found among the evasions.)
        let tt_usable = !in_check
            && !tt_move.is_none()
            && pos.piece_on(tt_move.to()).is_some()
            && pos.is_legal_out_of_check(tt_move)
            && pos.see_ge(tt_move, 0);
        let mut picker = MovePicker::new(
            pos,
            Move::NONE,
            [Move::NONE; 2],
            Move::NONE,
            [PieceTo::NONE; 3],
            in_check,
            buf,
        );
        picker.captures_only = true;
        picker.quiet_checks = quiet_checks && !in_check;
        if !in_check && tt_usable {
            picker.tt_move = tt_move;
            picker.stage = Stage::TtMove;
        } else if in_check {
            picker.tt_move = tt_move;
        }
        picker
    }

    /// From now on hands out no quiet move that does not give check (`info` is the position's
    /// `check_info`). For a search that would prune all of those anyway, and does not count
    /// them: the quiet moves not yet generated are then never scored or sorted, and the
    /// checks among them come in the order they would have had.
    pub fn keep_only_quiet_checks(&mut self, info: &CheckInfo) {
        self.only_quiet_checks = true;
        self.check_info.get_or_insert(*info);
    }

    /// Quiescence, before each `next`: the search's delta pruning drops a capture of a victim
    /// worth at most `floor` unless it gives check, so such captures are not put through SEE,
    /// and only the checking ones are handed out (which SEE would have passed or, losing,
    /// handed out for their check anyway: the same moves in the same order).
    pub fn set_delta_floor(&mut self, floor: i32) {
        self.delta_floor = floor;
    }

    /// Fetch each selected capture's child bucket from `table` early (see `table`).
    pub fn prefetch_from(&mut self, table: &'a TranspositionTable) {
        self.table = Some(table);
    }

    /// Has the picker already fetched `mv`'s child bucket? (The caller then need not.)
    #[inline(always)]
    pub fn fetched(&self, mv: Move) -> bool {
        self.fetched == mv
    }

    /// Does `mv` give check? The opponent king's data is made once for the node and shared
    /// by the picker's own tests and its caller's (quiescence asks about every move).
    pub fn gives_check(&mut self, pos: &Position, mv: Move) -> bool {
        let info = self.check_info.get_or_insert_with(|| pos.check_info());
        pos.gives_check_with(info, mv)
    }

    /// Whether a quiet move is still wanted: under `keep_only_quiet_checks`, only a check.
    #[inline(always)]
    fn quiet_wanted(&self, pos: &Position, mv: Move) -> bool {
        !self.only_quiet_checks
            || pos.gives_check_with(self.check_info.as_ref().expect("set with the flag"), mv)
    }

    fn generate(&mut self, pos: &Position, kind: GenKind) {
        // The captures (never generated in check: evasions come instead) leave their
        // legality tests to the moment they are taken: a node that cuts off on an early
        // capture never tests the others, and one that takes none never computes the
        // legality data. Their scores are distinct (see `GenerateCaptures`), so which of them
        // are still in the list does not change the order in which the legal ones are taken.
        // (Deferring the quiet moves' tests cost more than it saved: most quiet moves of a
        // node that reaches them are taken.)
        if kind == GenKind::Captures && !self.in_check {
            pos.generate_pseudo(kind, &mut self.buf.moves);
        } else if kind == GenKind::Quiets && !self.in_check {
            // The king's quiet moves come last in their order, often after a cutoff: each
            // is tested when taken (`take_quiet`).
            let zone = self.zone(pos);
            pos.generate_king_untested_in(kind, &zone, &mut self.buf.moves);
            self.untested_king = Some(pos.king_square(pos.side_to_move()));
        } else {
            let zone = self.zone(pos);
            pos.generate_in(kind, &zone, &mut self.buf.moves);
        }
    }

    /// The node's legality data, computed when first needed.
    #[inline(always)]
    fn zone(&mut self, pos: &Position) -> KingZone {
        let in_check = self.in_check;
        *self
            .zone
            .get_or_insert_with(|| pos.king_zone_knowing(in_check))
    }

    /// May a generated capture be played? (See `generate`.)
    #[inline(always)]
    fn playable(&mut self, pos: &Position, mv: Move) -> bool {
        // (Captures are generated out of check only.)
        if !pos.may_expose_king(mv.from(), mv.to()) {
            return true;
        }
        let in_check = self.in_check;
        let zone = self
            .zone
            .get_or_insert_with(|| pos.king_zone_knowing(in_check));
        !zone.needs_test(mv) || pos.keeps_king_safe(mv)
    }

    /// The quiet moves that may give check (see `generate_quiet_checks_in`).
    fn generate_quiet_checks(&mut self, pos: &Position, info: &CheckInfo) {
        let zone = self.zone(pos);
        pos.generate_quiet_checks_in(&zone, info, &mut self.buf.moves);
    }

    /// Most valuable victim first, least valuable attacker next, shifted by the capture
    /// history (a quarter of it: at most about two pawns' worth of victim value).
    fn capture_score(pos: &Position, mv: Move, histories: &Histories) -> i32 {
        let (Some(victim), Some(mover)) = (pos.piece_on(mv.to()), pos.piece_on(mv.from())) else {
            return 0;
        };
        let history = histories.capture_score(PieceTo::new(mover, mv.to()), victim.kind());
        piece_value(victim.kind()) * 16 - piece_value(mover.kind()) / 16 + history / 4
    }

    /// Sorts all of `self.buf.moves` best first, equal scores in generation order, by the keys
    /// the stage has put in `self.buf.keys` (see `sort_key`), for stages that usually run to
    /// the end and take moves in order (`take_next`). Every key is distinct, so an unstable
    /// sort of one array gives exactly the stable order.
    fn sort_descending(&mut self) {
        let len = self.buf.moves.len();
        let PickerBuffers { moves, keys, .. } = &mut *self.buf;
        keys[..len].sort_unstable_by(|a, b| b.cmp(a));
        for (i, key) in keys[..len].iter().enumerate() {
            moves[i] = Move::from_raw_unchecked(*key as u16);
        }
    }

    /// Takes the next move of an already sorted stage.
    fn take_next(&mut self) -> Option<Move> {
        let mv = self.buf.moves.get(self.next).copied()?;
        self.next += 1;
        Some(mv)
    }

    /// Takes the best-scored remaining move of `self.buf.moves` (selection, not a full sort: most
    /// nodes cut off after a few moves).
    fn take_best(&mut self) -> Option<Move> {
        let PickerBuffers { moves, scores, .. } = &mut *self.buf;
        let next = self.next;
        let len = moves.len();
        if next >= len {
            return None;
        }
        let scores = &mut scores[..len];
        let mut best = next;
        for i in next + 1..len {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        let mv = moves[best];
        scores.swap(next, best);
        moves.swap(next, best);
        self.next = next + 1;
        Some(mv)
    }

    /// The next move to search, or `None` when all have been given.
    ///
    /// The quiet moves, most of what a node is given, come straight from the sorted list
    /// here, inlined into the search; the stages' work is done out of line.
    #[inline(always)]
    pub fn next(&mut self, pos: &Position, histories: &Histories) -> Option<Move> {
        if self.stage == Stage::Quiets
            && let Some(mv) = self.take_quiet(pos)
        {
            return Some(mv);
        }
        self.next_staged(pos, histories)
    }

    /// The next sorted quiet move not already given as the hash move or a refutation (and a
    /// check, once only checks are wanted).
    #[inline(always)]
    fn take_quiet(&mut self, pos: &Position) -> Option<Move> {
        while let Some(&mv) = self.buf.moves.as_slice().get(self.next) {
            self.next += 1;
            if mv != self.tt_move
                && !self.refutations.contains(&mv)
                && self.quiet_wanted(pos, mv)
                && !self
                    .untested_king
                    .is_some_and(|king| mv.from() == king && !Self::king_move_safe(pos, mv))
            {
                return Some(mv);
            }
        }
        None
    }

    /// The legality test of a king's quiet move left untested by the generation.
    #[inline(never)]
    fn king_move_safe(pos: &Position, mv: Move) -> bool {
        pos.keeps_king_safe(mv)
    }

    /// `next` for everything but a quiet move already sorted: each stage's work in its own
    /// function, so that the set-up one stage hoists out of its loops (the generators' tables
    /// and masks) is paid only when that stage runs, not on every move handed out.
    #[inline(never)]
    fn next_staged(&mut self, pos: &Position, histories: &Histories) -> Option<Move> {
        loop {
            // A stage returns `None` once it has nothing more, having set the next stage.
            let found = match self.stage {
                Stage::TtMove => self.tt_move_stage(pos),
                Stage::GenerateCaptures => self.generate_captures_stage(pos, histories),
                Stage::GoodCaptures => self.good_captures_stage(pos),
                Stage::Refutations => self.refutations_stage(pos),
                Stage::GenerateQuiets => self.generate_quiets_stage(pos, histories),
                Stage::Quiets => {
                    let mv = self.take_quiet(pos);
                    if mv.is_none() {
                        self.stage = Stage::BadCaptures;
                    }
                    mv
                }
                Stage::BadCaptures => self.bad_captures_stage(),
                Stage::GenerateQuietChecks => self.generate_quiet_checks_stage(pos),
                Stage::QuietChecks => self.quiet_checks_stage(pos),
                Stage::GenerateEvasions => self.generate_evasions_stage(pos, histories),
                Stage::Evasions => {
                    let mv = self.take_best();
                    if mv.is_none() {
                        self.stage = Stage::Done;
                    }
                    mv
                }
                Stage::Done => return None,
            };
            if found.is_some() {
                return found;
            }
        }
    }

    /// The hash move, unless only quiet checks are wanted and it is not one.
    #[inline(never)]
    fn tt_move_stage(&mut self, pos: &Position) -> Option<Move> {
        self.stage = Stage::GenerateCaptures;
        let mv = self.tt_move;
        (!self.only_quiet_checks || pos.piece_on(mv.to()).is_some() || self.quiet_wanted(pos, mv))
            .then_some(mv)
    }

    #[inline(never)]
    fn generate_captures_stage(&mut self, pos: &Position, histories: &Histories) -> Option<Move> {
        self.generate(pos, GenKind::Captures);
        // Equal scores are broken by generation order, packed into the score: every score
        // distinct, so selection takes them in one fixed order.
        let PickerBuffers { moves, scores, .. } = &mut *self.buf;
        for (i, (score, &mv)) in scores.iter_mut().zip(moves.iter()).enumerate() {
            *score = Self::capture_score(pos, mv, histories) * MAX_MOVES as i32
                + (MAX_MOVES - 1 - i) as i32;
        }
        self.next = 0;
        self.stage = Stage::GoodCaptures;
        None
    }

    /// The best remaining capture that does not lose material (in quiescence, that is not
    /// delta-pruned, or else gives check); the losing ones put off to the end.
    #[inline(never)]
    fn good_captures_stage(&mut self, pos: &Position) -> Option<Move> {
        loop {
            let Some(mv) = self.take_best() else {
                self.stage = match (self.captures_only, self.quiet_checks) {
                    (false, _) => Stage::Refutations,
                    (true, true) => Stage::GenerateQuietChecks,
                    (true, false) => Stage::Done,
                };
                return None;
            };
            if mv == self.tt_move || !self.playable(pos, mv) {
                continue;
            }
            if let Some(table) = self.table {
                table.prefetch(pos.key_after(mv));
                self.fetched = mv;
            }
            if self.captures_only
                && pos
                    .piece_on(mv.to())
                    .is_some_and(|v| piece_value(v.kind()) <= self.delta_floor)
            {
                if self.gives_check(pos, mv) {
                    return Some(mv);
                }
                continue;
            }
            if pos.see_ge(mv, 0) {
                return Some(mv);
            }
            // Quiescence skips losing captures unless they check (SEE cannot see a defender
            // pinned by a cannon or the facing kings); the main search tries them all, last.
            if !self.captures_only {
                self.buf.bad.push(mv);
            } else if self.gives_check(pos, mv) {
                return Some(mv);
            }
        }
    }

    /// The killers and the counter-move, in the order their scores would sort them among the
    /// quiet moves, so the search sees the same sequence, but a cutoff here saves generating
    /// the rest.
    #[inline(never)]
    fn refutations_stage(&mut self, pos: &Position) -> Option<Move> {
        let candidates = [self.killers[0], self.killers[1], self.counter];
        while self.refutation_next < candidates.len() {
            let mv = candidates[self.refutation_next];
            self.refutation_next += 1;
            let fresh = !mv.is_none()
                && mv != self.tt_move
                && !self.refutations.contains(&mv)
                && pos.piece_on(mv.to()).is_none()
                && pos.is_legal_out_of_check(mv)
                && self.quiet_wanted(pos, mv);
            if fresh {
                self.refutations[self.refutation_next - 1] = mv;
                return Some(mv);
            }
        }
        self.stage = Stage::GenerateQuiets;
        None
    }

    #[inline(never)]
    fn generate_quiets_stage(&mut self, pos: &Position, histories: &Histories) -> Option<Move> {
        self.buf.moves.clear();
        if self.only_quiet_checks
            && let Some(info) = self.check_info
        {
            // Only the checks, in their generation order, so they sort as they would have
            // among all the quiet moves.
            self.generate_quiet_checks(pos, &info);
            self.buf.moves.retain(|mv| pos.gives_check_with(&info, mv));
        } else {
            self.generate(pos, GenKind::Quiets);
        }
        let scorer = histories.quiet_scorer(pos.side_to_move().index(), self.context);
        let PickerBuffers { moves, keys, .. } = &mut *self.buf;
        for (i, (key, &mv)) in keys.iter_mut().zip(moves.iter()).enumerate() {
            let score = if mv == self.killers[0] {
                KILLER_1
            } else if mv == self.killers[1] {
                KILLER_2
            } else if mv == self.counter {
                COUNTER
            } else {
                scorer.score(mv, PieceTo::of(pos, mv))
            };
            *key = sort_key(score, i, mv);
        }
        self.sort_descending();
        self.next = 0;
        self.stage = Stage::Quiets;
        None
    }

    fn bad_captures_stage(&mut self) -> Option<Move> {
        if self.bad_next < self.buf.bad.len() {
            self.bad_next += 1;
            return Some(self.buf.bad[self.bad_next - 1]);
        }
        self.stage = Stage::Done;
        None
    }

    #[inline(never)]
    fn generate_quiet_checks_stage(&mut self, pos: &Position) -> Option<Move> {
        self.buf.moves.clear();
        let info = *self.check_info.get_or_insert_with(|| pos.check_info());
        self.generate_quiet_checks(pos, &info);
        self.next = 0;
        self.stage = Stage::QuietChecks;
        None
    }

    /// The next generated quiet check that does not lose material, tested one at a time: a
    /// cutoff on an early check spares the rest.
    #[inline(never)]
    fn quiet_checks_stage(&mut self, pos: &Position) -> Option<Move> {
        loop {
            let Some(mv) = self.take_next() else {
                self.stage = Stage::Done;
                return None;
            };
            let info = self.check_info.as_ref().expect("made by the stage before");
            if pos.gives_check_with(info, mv) && pos.see_ge(mv, 0) {
                return Some(mv);
            }
        }
    }

    #[inline(never)]
    fn generate_evasions_stage(&mut self, pos: &Position, histories: &Histories) -> Option<Move> {
        let zone = self.zone(pos);
        pos.generate_evasions_in(&zone, &mut self.buf.moves);
        let scorer = histories.quiet_scorer(pos.side_to_move().index(), self.context);
        let PickerBuffers { moves, scores, .. } = &mut *self.buf;
        for (score, &mv) in scores.iter_mut().zip(moves.iter()) {
            *score = if mv == self.tt_move {
                i32::MAX
            } else if pos.piece_on(mv.to()).is_some() {
                KILLER_1 * 2 + Self::capture_score(pos, mv, histories)
            } else {
                scorer.score(mv, PieceTo::of(pos, mv))
            };
        }
        self.next = 0;
        self.stage = Stage::Evasions;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_every_legal_move_exactly_once() {
        let fens = [
            crate::position::START_FEN,
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
            "4k4/9/9/9/4p4/9/9/4C4/9/3K5 b - - 0 1",
            // The chariot on e2 is pinned (its capture on d2 is illegal), and the king may not
            // take the pawn on d1, which the pawn on d2 guards: captures whose legality
            // test the picker leaves to the moment it takes them.
            "3r1k3/9/9/9/4r4/9/9/3pR4/3p5/4K4 w - - 0 1",
            // Two of the king's three quiet moves are illegal (d0 faces the other king, f0
            // the chariot): the king's quiet moves are tested only when taken.
            "3k1r3/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        ];
        let histories = Histories::new();
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = pos.legal_moves();
            let tt = legal[legal.len() / 2];
            let killers = [legal[0], Move::NONE];
            let mut buf = PickerBuffers::new();
            let mut picker = MovePicker::new(
                &pos,
                tt,
                killers,
                Move::NONE,
                [PieceTo::NONE; 3],
                pos.in_check(),
                &mut buf,
            );
            let mut seen = Vec::new();
            while let Some(mv) = picker.next(&pos, &histories) {
                seen.push(mv);
            }
            assert_eq!(seen.len(), legal.len(), "{fen}");
            assert!(legal.iter().all(|m| seen.contains(m)), "{fen}");
            assert_eq!(seen[0], tt, "the hash move comes first");
        }
    }

    #[test]
    fn quiescence_adds_the_safe_quiet_checks_only_when_asked() {
        let histories = Histories::new();
        // (position, has quiet checks: the rooks' a0a9 and b8b9 in the first, none in the second)
        let cases = [
            ("4k4/1R7/9/9/2r3P2/9/9/9/4A4/R3K4 w", true),
            (
                "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
                false,
            ),
        ];
        for (fen, has_checks) in cases {
            let pos = Position::from_fen(fen).unwrap();
            let picked = |quiet_checks| {
                let mut buf = PickerBuffers::new();
                let mut picker =
                    MovePicker::quiescence(&pos, Move::NONE, false, quiet_checks, &mut buf);
                let mut seen = Vec::new();
                while let Some(mv) = picker.next(&pos, &histories) {
                    seen.push(mv);
                }
                seen
            };
            let captures = picked(false);
            let with_checks = picked(true);
            assert_eq!(with_checks[..captures.len()], captures[..], "{fen}");
            let mut quiet_checks: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&mv| {
                    pos.piece_on(mv.to()).is_none() && pos.gives_check(mv) && pos.see_ge(mv, 0)
                })
                .collect();
            let mut added = with_checks[captures.len()..].to_vec();
            quiet_checks.sort_by_key(|mv| mv.raw());
            added.sort_by_key(|mv| mv.raw());
            assert_eq!(added, quiet_checks, "{fen}");
            assert_eq!(!added.is_empty(), has_checks, "{fen}");
        }
    }

    #[test]
    fn keeping_only_quiet_checks_drops_the_other_quiet_moves_and_keeps_the_order() {
        let fens = [
            // Quiet checks by the chariots (a0a9, b8b9), captures, and other quiet moves.
            "4k4/1R7/9/9/2r3P2/9/9/9/4A4/R3K4 w",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
            "3k5/4a4/3P5/2R1P4/9/4r4/2p6/9/4A4/4K4 w",
        ];
        let mut histories = Histories::new();
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = pos.legal_moves();
            // Some history, so the quiet moves are sorted by more than generation order.
            for (i, &mv) in legal.iter().enumerate() {
                let bonus = (i as i32 * 37 % 11 - 5) * 300;
                histories.update_quiet(0, mv, [PieceTo::NONE; 3], PieceTo::of(&pos, mv), bonus);
            }
            let killers = [legal[legal.len() - 1], legal[1]];
            let picked = |from_move: Option<usize>| {
                let mut buf = PickerBuffers::new();
                let mut picker = MovePicker::new(
                    &pos,
                    legal[0],
                    killers,
                    Move::NONE,
                    [PieceTo::NONE; 3],
                    false,
                    &mut buf,
                );
                let mut seen = Vec::new();
                loop {
                    if from_move == Some(seen.len()) {
                        picker.keep_only_quiet_checks(&pos.check_info());
                    }
                    let Some(mv) = picker.next(&pos, &histories) else {
                        break;
                    };
                    seen.push(mv);
                }
                seen
            };
            let all = picked(None);
            assert_eq!(all.len(), legal.len(), "{fen}");
            for from_move in [0, 1, 3, 6] {
                let expected: Vec<Move> = all
                    .iter()
                    .enumerate()
                    .filter(|&(i, &mv)| {
                        i < from_move || pos.piece_on(mv.to()).is_some() || pos.gives_check(mv)
                    })
                    .map(|(_, &mv)| mv)
                    .collect();
                assert_eq!(
                    picked(Some(from_move)),
                    expected,
                    "{fen} from move {from_move}"
                );
            }
        }
    }

    #[test]
    fn an_illegal_hash_move_is_never_played() {
        let pos = Position::startpos();
        let bogus = Move::parse_iccs("e0e5").unwrap();
        let histories = Histories::new();
        let mut buf = PickerBuffers::new();
        let mut picker = MovePicker::new(
            &pos,
            bogus,
            [Move::NONE; 2],
            Move::NONE,
            [PieceTo::NONE; 3],
            false,
            &mut buf,
        );
        while let Some(mv) = picker.next(&pos, &histories) {
            assert!(pos.is_legal(mv));
        }
    }
}
