//! Move generation: pseudo-legal targets per piece, then a cheap legality filter.
//!
//! Legality in xiangqi is subtle (cannon screens, horse legs, the flying general), so the
//! filter finds, once per position, the few pieces whose moves could expose the king (see
//! `KingZone`): when the side to move is not in check, a move can only expose its king by
//! *leaving* a point that shields it — the lone blocker before an enemy chariot or king, either
//! of the two screens before an enemy cannon, a horse leg — or by *arriving* between the king
//! and an enemy cannon that has no screen yet. Arriving anywhere else only blocks, and a
//! capture only removes an attacker. Every other move is legal without a test. Only the
//! remaining moves — king moves, moves near those lines, and in check the moves that can
//! answer it at all — get the full test (`keeps_king_safe`). In the bulk-counting perft the
//! unaffected targets of a piece are counted with one popcount.

use super::{CheckInfo, Position};
use crate::board::Bitboard;
use crate::board::attacks::{
    ADVISOR_MOVES, ELEPHANT_POINTS, HORSE_ATTACKERS, HORSE_SPAN, KING_MOVES, LineAttacks, PALACES,
    PAWN_ATTACKERS, RAYS, cannon_captures, chariot_attacks, diagonal_neighbours, elephant_moves,
    file_mask, horse_attackers, horse_attacks, line_attacks, pawn_moves, pawn_moves_all, rank_mask,
    third_blockers,
};
use crate::core::{Color, Move, PieceKind, Square};

/// Room for every move of any position. A bound from the pieces' own maxima: 2 chariots and
/// 2 cannons reach at most 17 points each, 2 horses 8, 5 pawns 3, 2 elephants 4, the advisors
/// 5 together, the king 4: 119 in all, pseudo-legal or legal.
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Appends a move from `from` to each of `targets`, lowest point first. The generator's
    /// hot loop: the length is kept in a local, which a loop calling `push` per move does not
    /// manage, and the set's two 64-bit halves are walked in turn, each in a loop of its own
    /// (the set's iterator looks at both halves for every point).
    #[inline(always)]
    pub fn push_targets(&mut self, from: Square, targets: Bitboard) {
        let mut len = self.len;
        for (mut bits, base) in [(targets.0 as u64, 0), ((targets.0 >> 64) as u64, 64)] {
            while bits != 0 {
                let to = Square::from_index_unchecked(base + bits.trailing_zeros() as u8);
                bits &= bits - 1;
                self.moves[len] = Move::new(from, to);
                len += 1;
            }
        }
        self.len = len;
    }

    /// Empties the list (without touching its storage).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` holds, in their order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

/// Which kinds of move a generator produces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    All,
    Captures,
    Quiets,
}

/// Where the legality shortcut does not hold for the side to move: moves of `pinned` pieces,
/// moves onto `to_sensitive` and all king moves need the full test.
///
/// In check, only some targets can answer the check at all: a piece other than the king must
/// capture the lone checker or land on an empty point between it and the king (or on the
/// horse's leg), unless it is the screen of a checking cannon, which may answer by stepping
/// anywhere off the line. Such a move answers the check, and can open no other attack unless
/// the piece leaves the king's lines or a horse's leg beside it: only the king's moves and
/// those of pieces there (counted as `pinned`, the screen among them) are tested; against
/// two checkers, every move.
#[derive(Clone, Copy)]
pub struct KingZone {
    king: Square,
    in_check: bool,
    /// Own pieces whose leaving could open an attack on the king: the only piece between the
    /// king and an enemy chariot (or the enemy king, on the file), either of two screens
    /// between the king and an enemy cannon, and a piece on a horse leg aimed at the king.
    /// In check, every own piece on the king's lines or beside it (a superset, cheap to find);
    /// against two checkers, every point.
    pinned: Bitboard,
    /// Empty points between the king and an enemy cannon with no screen: a piece arriving
    /// there becomes a screen.
    to_sensitive: Bitboard,
    /// In check: the only targets that can answer it for pieces other than the king and the
    /// `screens` (every point, when more than one piece gives check).
    evasions: Bitboard,
    /// In check by a cannon: its screen, if ours.
    screens: Bitboard,
}

/// In check, the moves a generation wants: those onto `targets` (the answers to the check),
/// and every move of the pieces on `free` (the king, a checking cannon's screen).
#[derive(Clone, Copy)]
struct Answering {
    targets: Bitboard,
    free: Bitboard,
}

impl KingZone {
    /// What a generation in check wants (`None` out of check, or against two checkers).
    #[inline(always)]
    fn answering(&self) -> Option<Answering> {
        (self.in_check && self.evasions != Bitboard::FULL).then(|| Answering {
            targets: self.evasions,
            free: self.screens | Bitboard::from_square(self.king),
        })
    }

    /// Does a move generated by `generate_pseudo` still need `keeps_king_safe` before it may
    /// be played? Only those the shortcut does not clear, and never in check (evasions are
    /// always tested at generation).
    #[inline(always)]
    pub fn needs_test(&self, mv: Move) -> bool {
        !self.in_check
            && (mv.from() == self.king
                || self.pinned.contains(mv.from())
                || self.to_sensitive.contains(mv.to()))
    }
}

impl Position {
    fn king_zone(&self) -> KingZone {
        self.king_zone_knowing(self.in_check())
    }

    /// The legality data of this position, when the caller already knows whether the side to
    /// move is in check; pass it to `generate_in` for each generation at this node.
    pub fn king_zone_knowing(&self, in_check: bool) -> KingZone {
        let us = self.side;
        let them = us.opponent();
        let king = self.king_square(us);
        let mut zone = KingZone {
            king,
            in_check,
            pinned: Bitboard::EMPTY,
            to_sensitive: Bitboard::EMPTY,
            evasions: Bitboard::FULL,
            screens: Bitboard::EMPTY,
        };
        if in_check {
            self.find_evasions(&mut zone);
            return zone;
        }
        let own = self.color_pieces(us);
        let cannons = self.pieces(them, PieceKind::Cannon);
        let chariots = self.pieces(them, PieceKind::Chariot);
        let enemy_king = self.pieces(them, PieceKind::King);
        let sliders = cannons | chariots | enemy_king;
        let on_lines = (rank_mask(king) | file_mask(king)) & sliders;
        if (on_lines & (cannons | chariots)).any() {
            self.find_line_pins(&mut zone, sliders);
        } else if on_lines.any() {
            // Only the kings face each other along the file (most positions): the one piece
            // between them, if it is alone and ours, may not leave the file. Red looks up the
            // file, Black down, and the enemy king back the other way.
            let up = us == Color::Red;
            let enemy = self.king_square(them);
            let between = RAYS[king.index()][usize::from(!up)]
                & RAYS[enemy.index()][usize::from(up)]
                & self.occupied();
            if !between.more_than_one() {
                zone.pinned |= between & own;
            }
        }
        let horses = self.pieces(them, PieceKind::Horse);
        if (HORSE_SPAN[king.index()] & horses).any() {
            for step in &HORSE_ATTACKERS[king.index()] {
                if (step.targets & horses).any() {
                    zone.pinned |= own & step.gate;
                }
            }
        }
        zone
    }

    /// The part of `king_zone_knowing` along the king's rank and file, for when an enemy
    /// chariot, cannon or king (`sliders`) stands on one of them (when none does, it is
    /// skipped).
    fn find_line_pins(&self, zone: &mut KingZone, sliders: Bitboard) {
        let them = self.side.opponent();
        let king = zone.king;
        let occ = self.occupancy;
        let own = self.color_pieces(self.side);
        let cannons = self.pieces(them, PieceKind::Cannon);
        let chariots = self.pieces(them, PieceKind::Chariot);
        let LineAttacks {
            slide,
            cannon: second,
        } = line_attacks(king, occ);
        let first = slide & self.occupied();
        let third = third_blockers(king, occ);
        for (dir, &ray) in RAYS[king.index()].iter().enumerate() {
            let p1 = first & ray;
            if p1.is_empty() || (ray & sliders).is_empty() {
                continue;
            }
            let on_file = dir < 2;
            let liners = if on_file {
                chariots | self.pieces(them, PieceKind::King)
            } else {
                chariots
            };
            if (p1 & cannons).any() {
                zone.to_sensitive |= slide & ray & !p1;
            }
            if (second & ray & liners).any() {
                zone.pinned |= p1 & own;
            }
            if (third & ray & cannons).any() {
                zone.pinned |= (p1 | (second & ray)) & own;
            }
        }
    }

    /// Fills in the evasion targets of a zone in check (see `KingZone`).
    fn find_evasions(&self, zone: &mut KingZone) {
        let us = self.side;
        let them = us.opponent();
        let king = zone.king;
        let occ = self.occupancy;
        let LineAttacks { slide, cannon } = line_attacks(king, occ);
        let liners =
            slide & (self.pieces(them, PieceKind::Chariot) | self.pieces(them, PieceKind::King));
        let cannons = cannon & self.pieces(them, PieceKind::Cannon);
        let horses = horse_attackers(king, occ.normal) & self.pieces(them, PieceKind::Horse);
        let pawns = PAWN_ATTACKERS[them.index()][king.index()] & self.pieces(them, PieceKind::Pawn);
        let checkers = liners | cannons | horses | pawns;
        let Some(checker) = checkers.first().filter(|_| !checkers.more_than_one()) else {
            // Every move gets the full test.
            zone.pinned = Bitboard::FULL;
            return;
        };
        // A move that answers the lone check can open another attack only by leaving the
        // king's rank or file or a horse's leg beside the king: a piece there counts as
        // pinned. (Landing on the checker or on an empty point between it and the king makes
        // no new cannon screen: a cannon beyond the checker would see two pieces, or would
        // have been checking already; one between, as the checking cannon's screen, is the
        // exception, handled below.)
        zone.pinned =
            (rank_mask(king) | file_mask(king) | diagonal_neighbours(king)) & self.color_pieces(us);
        let mut evasions = checkers;
        if (liners | cannons).any() {
            // Strictly between the king and the checker, along the ray toward it. (Taking a
            // cannon's screen leaves the check, so only the empty points there answer it.)
            let between = RAYS[king.index()]
                .iter()
                .zip(&RAYS[checker.index()])
                .find(|(toward, _)| toward.contains(checker))
                .map_or(Bitboard::EMPTY, |(&toward, &beyond)| {
                    toward & !beyond & !checkers
                });
            let mut open = between & !self.occupied();
            if cannons.any() {
                zone.screens = between & self.color_pieces(us);
                // An enemy cannon as the screen would check through a piece landing between
                // it and the king (the points `slide` reaches before it).
                if (between & slide & self.pieces(them, PieceKind::Cannon)).any() {
                    open &= !slide;
                }
            }
            evasions |= open;
        } else if horses.any() {
            for step in &HORSE_ATTACKERS[king.index()] {
                if step.targets.contains(checker) {
                    evasions |= step.gate;
                }
            }
        }
        zone.evasions = evasions;
    }

    /// The targets of the piece on `from` that can be legal at all: in check, only those
    /// that answer it (see `KingZone`).
    #[inline(always)]
    fn possible_targets(zone: &KingZone, from: Square, targets: Bitboard) -> Bitboard {
        if zone.in_check && from != zone.king && !zone.screens.contains(from) {
            targets & zone.evasions
        } else {
            targets
        }
    }

    /// Must every move of the piece on `from` get the full legality test?
    #[inline(always)]
    fn needs_full_test(zone: &KingZone, from: Square) -> bool {
        from == zone.king || zone.pinned.contains(from)
    }

    /// Calls `visit(kind, from, targets)` for every piece of the side to move with its
    /// pseudo-legal targets of the requested kind.
    #[inline(always)]
    fn for_each_pseudo(&self, kind: GenKind, visit: impl FnMut(PieceKind, Square, Bitboard)) {
        self.for_each_pseudo_but(kind, false, None, visit);
    }

    /// `for_each_pseudo`, leaving out the advisors and elephants if `skip_defenders`, and with
    /// `answering`, every piece but its `free` ones that cannot reach its `targets` (seen
    /// from tables before any attack is looked up). The pieces visited come in the same order.
    #[inline(always)]
    fn for_each_pseudo_but(
        &self,
        kind: GenKind,
        skip_defenders: bool,
        answering: Option<Answering>,
        mut visit: impl FnMut(PieceKind, Square, Bitboard),
    ) {
        let out_of_reach = |from: Square, reach: Bitboard| {
            answering.is_some_and(|a| !a.free.contains(from) && (reach & a.targets).is_empty())
        };
        let us = self.side;
        let own = self.color_pieces(us);
        let enemy = self.color_pieces(us.opponent());
        let empty = !self.occupied();
        let targets = match kind {
            GenKind::All => !own,
            GenKind::Captures => enemy,
            GenKind::Quiets => empty,
        };
        let occ = self.occupancy;
        for from in self.pieces(us, PieceKind::Chariot) {
            if out_of_reach(from, file_mask(from) | rank_mask(from)) {
                continue;
            }
            visit(
                PieceKind::Chariot,
                from,
                chariot_attacks(from, occ) & targets,
            );
        }
        for from in self.pieces(us, PieceKind::Cannon) {
            if out_of_reach(from, file_mask(from) | rank_mask(from)) {
                continue;
            }
            let bb = match kind {
                GenKind::Captures => cannon_captures(from, occ) & enemy,
                GenKind::Quiets => chariot_attacks(from, occ) & empty,
                GenKind::All => {
                    let lines = line_attacks(from, occ);
                    (lines.slide & empty) | (lines.cannon & enemy)
                }
            };
            visit(PieceKind::Cannon, from, bb);
        }
        for from in self.pieces(us, PieceKind::Horse) {
            // A horse captures only where an enemy piece stands a horse's step away.
            if (kind != GenKind::Captures || (HORSE_SPAN[from.index()] & targets).any())
                && !out_of_reach(from, HORSE_SPAN[from.index()])
            {
                visit(
                    PieceKind::Horse,
                    from,
                    horse_attacks(from, occ.normal) & targets,
                );
            }
        }
        // Pawn captures are rare: one test on all the pawns' moves at once skips the loop
        // over them when none captures (the moves, when some do, come in the same order).
        let pawns = self.pieces(us, PieceKind::Pawn);
        if kind != GenKind::Captures || (pawn_moves_all(us, pawns) & targets).any() {
            for from in pawns {
                let moves = pawn_moves(us, from);
                if !out_of_reach(from, moves) {
                    visit(PieceKind::Pawn, from, moves & targets);
                }
            }
        }
        // Elephants capture only on their own seven points, advisors and the king only in
        // their palace: without an enemy piece there, their loops are skipped.
        let captures = kind == GenKind::Captures;
        if !skip_defenders && (!captures || (ELEPHANT_POINTS[us.index()] & targets).any()) {
            for from in self.pieces(us, PieceKind::Elephant) {
                let moves = elephant_moves(from, occ.normal);
                if !out_of_reach(from, moves) {
                    visit(PieceKind::Elephant, from, moves & targets);
                }
            }
        }
        if !captures || (PALACES[us.index()] & targets).any() {
            if !skip_defenders {
                for from in self.pieces(us, PieceKind::Advisor) {
                    let moves = ADVISOR_MOVES[from.index()];
                    if !out_of_reach(from, moves) {
                        visit(PieceKind::Advisor, from, moves & targets);
                    }
                }
            }
            for from in self.pieces(us, PieceKind::King) {
                visit(PieceKind::King, from, KING_MOVES[from.index()] & targets);
            }
        }
    }

    /// Appends the legal moves of `from` to `targets` to `list`, using the shortcut where it
    /// holds.
    #[inline(always)]
    fn push_legal(&self, zone: &KingZone, from: Square, targets: Bitboard, list: &mut MoveList) {
        let targets = Self::possible_targets(zone, from, targets);
        let doubtful = if Self::needs_full_test(zone, from) {
            targets
        } else {
            targets & zone.to_sensitive
        };
        if doubtful.is_empty() {
            list.push_targets(from, targets);
        } else {
            self.push_tested(from, targets, doubtful, list);
        }
    }

    /// `push_legal` for a piece with doubtful targets: those get the full test, in the same
    /// order as the others.
    #[inline(never)]
    fn push_tested(
        &self,
        from: Square,
        targets: Bitboard,
        doubtful: Bitboard,
        list: &mut MoveList,
    ) {
        let moves = self.moves_from(from);
        for to in targets {
            if !doubtful.contains(to) || moves.keep_king_safe(to) {
                list.push(Move::new(from, to));
            }
        }
    }

    /// The legal moves of a side in check (`zone` must say so), as `generate_in` lists them
    /// for `GenKind::All`: one copy of the generator, for all moves, where `generate_in`
    /// carries three for every kind, so that the search's evasions stay small in the
    /// instruction cache.
    pub fn generate_evasions_in(&self, zone: &KingZone, list: &mut MoveList) {
        debug_assert!(zone.in_check);
        self.for_each_pseudo_but(GenKind::All, false, zone.answering(), |_, from, targets| {
            self.push_legal(zone, from, targets, list)
        });
    }

    /// Generates the legal moves of the requested kind.
    pub fn generate(&self, kind: GenKind, list: &mut MoveList) {
        self.generate_in(kind, &self.king_zone(), list);
    }

    /// Generates the legal moves of the requested kind with legality data computed once for
    /// the node (see `king_zone_knowing`).
    pub fn generate_in(&self, kind: GenKind, zone: &KingZone, list: &mut MoveList) {
        self.generate_testing_king::<true>(kind, zone, list);
    }

    /// `generate_in` out of check, except that the king's own moves are listed untested:
    /// the caller tests each one it takes with `keeps_king_safe`, so those it never reaches
    /// (a cutoff came first) cost nothing. The legal moves come in `generate_in`'s order.
    pub fn generate_king_untested_in(&self, kind: GenKind, zone: &KingZone, list: &mut MoveList) {
        debug_assert!(!zone.in_check);
        self.generate_testing_king::<false>(kind, zone, list);
    }

    /// `generate_in`, with the king's moves tested or not (`TEST_KING`).
    #[inline(always)]
    fn generate_testing_king<const TEST_KING: bool>(
        &self,
        kind: GenKind,
        zone: &KingZone,
        list: &mut MoveList,
    ) {
        if let Some(answering) = zone.answering() {
            // In check by one piece: only the pieces that can answer it are looked at.
            self.for_each_pseudo_but(kind, false, Some(answering), |_, from, targets| {
                self.push_legal(zone, from, targets, list)
            });
        } else if !zone.in_check && zone.pinned.is_empty() && zone.to_sensitive.is_empty() {
            // Nothing pinned and no point where a piece would become a screen: only the
            // king's own moves can be illegal (the same moves, in the same order, with no
            // test asked of the others).
            self.for_each_pseudo(kind, |piece, from, targets| {
                if TEST_KING && piece == PieceKind::King {
                    self.push_legal(zone, from, targets, list)
                } else {
                    list.push_targets(from, targets)
                }
            });
        } else {
            self.for_each_pseudo(kind, |piece, from, targets| {
                if !TEST_KING && piece == PieceKind::King {
                    list.push_targets(from, targets)
                } else {
                    self.push_legal(zone, from, targets, list)
                }
            });
        }
    }

    /// The pseudo-legal moves of the requested kind, for a side not in check: the caller
    /// tests each one it takes (`KingZone::needs_test`, then `keeps_king_safe`), so a node
    /// that cuts off early never tests the rest, and one that takes none never needs the
    /// legality data. The legal moves among them come in `generate_in`'s order.
    pub fn generate_pseudo(&self, kind: GenKind, list: &mut MoveList) {
        self.for_each_pseudo(kind, |_, from, targets| list.push_targets(from, targets));
    }

    /// Generates the legal quiet moves that may give check, a superset of the quiet checks
    /// (`gives_check_with` decides), in the order `generate_in` lists them: the moves of a
    /// piece that could uncover a check, and the others' moves onto a point where their own
    /// kind could check or where they would screen a cannon (see `CheckInfo`).
    pub fn generate_quiet_checks_in(&self, zone: &KingZone, info: &CheckInfo, list: &mut MoveList) {
        // Advisors and elephants check only by uncovering or by screening a cannon: most
        // nodes need not look at their moves.
        let us = self.side;
        let defenders = self.pieces(us, PieceKind::Advisor) | self.pieces(us, PieceKind::Elephant);
        let skip_defenders = info.screens.is_empty() && (info.uncovering & defenders).is_empty();
        self.for_each_pseudo_but(
            GenKind::Quiets,
            skip_defenders,
            None,
            |kind, from, targets| {
                let targets = if info.uncovering.contains(from) {
                    targets
                } else {
                    let checking = match kind {
                        PieceKind::Chariot | PieceKind::King => info.open_lines,
                        PieceKind::Cannon => info.lines & !info.open_lines,
                        PieceKind::Horse => info.horse_checks,
                        PieceKind::Pawn => info.pawn_checks,
                        PieceKind::Advisor | PieceKind::Elephant => Bitboard::EMPTY,
                    };
                    targets & (checking | info.screens)
                };
                if targets.any() {
                    self.push_legal(zone, from, targets, list)
                }
            },
        );
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::All, &mut list);
        list
    }

    /// Legal captures only (for quiescence search).
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenKind::Captures, &mut list);
        list
    }

    /// Legal moves when in check (every one of them answers the check). Empty when not in
    /// check.
    pub fn check_evasions(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.in_check() {
            self.generate_evasions_in(&self.king_zone(), &mut list);
        }
        list
    }

    /// The legal quiet moves that may give check (every quiet check among them, in the
    /// order of the quiet moves; see `generate_quiet_checks_in`).
    pub fn quiet_check_candidates(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_quiet_checks_in(&self.king_zone(), &self.check_info(), &mut list);
        list
    }

    /// Pseudo-legal moves: by the pieces' movement rules, ignoring the own king's safety.
    pub fn pseudo_legal_moves(&self, kind: GenKind) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_pseudo(kind, |_, from, targets| {
            for to in targets {
                list.push(Move::new(from, to));
            }
        });
        list
    }

    /// The number of legal moves, counted without listing them (perft's leaves).
    pub fn count_legal_moves(&self) -> u64 {
        self.count_legal_moves_inline()
    }

    #[inline(always)]
    fn count_legal_moves_inline(&self) -> u64 {
        let zone = self.king_zone();
        let mut count = 0u64;
        self.for_each_pseudo(GenKind::All, |_, from, targets| {
            // Kept tiny so it inlines into every piece loop; the rare full tests live apart.
            let targets = Self::possible_targets(&zone, from, targets);
            let doubtful = if Self::needs_full_test(&zone, from) {
                targets
            } else {
                count += (targets & !zone.to_sensitive).count() as u64;
                targets & zone.to_sensitive
            };
            if doubtful.any() {
                count += self.count_safe(from, doubtful);
            }
        });
        count
    }

    /// How many of the moves `from` → `targets` keep the king safe (full test each).
    #[inline(never)]
    fn count_safe(&self, from: Square, targets: Bitboard) -> u64 {
        targets
            .filter(|&to| self.keeps_king_safe(Move::new(from, to)))
            .count() as u64
    }

    /// Is `mv` legal here? Safe to call with any move (for example one from a hash table or a
    /// GUI): only the moving piece's targets are generated.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_given::<false>(mv)
    }

    /// `is_legal` for a side known not to be in check (the search knows): a move that
    /// cannot expose the king (`may_expose_king`) needs no full test.
    pub fn is_legal_out_of_check(&self, mv: Move) -> bool {
        self.is_legal_given::<true>(mv)
    }

    /// Could a pseudo-legal move from `from` to `to` change an attack on the mover's king?
    /// Only a king move, or one that leaves the king's rank, file or diagonal neighbours (a
    /// horse's leg), or lands on its rank or file (a cannon's screen): a move off them (a
    /// capture only takes an attacker away) is legal whenever the king is not in check.
    #[inline(always)]
    pub fn may_expose_king(&self, from: Square, to: Square) -> bool {
        let king = self.king_square(self.side);
        let lines = file_mask(king) | rank_mask(king);
        (lines | diagonal_neighbours(king)).contains(from) || lines.contains(to)
    }

    #[inline(always)]
    fn is_legal_given<const SAFE_NOW: bool>(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_on(from) else {
            return false;
        };
        let us = self.side;
        if piece.color() != us || mv.is_none() || self.color_pieces(us).contains(to) {
            return false;
        }
        let occ = self.occupancy;
        let targets = match piece.kind() {
            PieceKind::Chariot => chariot_attacks(from, occ),
            PieceKind::Cannon => {
                let lines = line_attacks(from, occ);
                (lines.slide & !self.occupied()) | (lines.cannon & self.color_pieces(us.opponent()))
            }
            PieceKind::Horse => horse_attacks(from, occ.normal),
            PieceKind::Pawn => pawn_moves(us, from),
            PieceKind::Elephant => elephant_moves(from, occ.normal),
            PieceKind::Advisor => ADVISOR_MOVES[from.index()],
            PieceKind::King => KING_MOVES[from.index()],
        };
        if !targets.contains(to) {
            return false;
        }
        if SAFE_NOW && !self.may_expose_king(from, to) {
            debug_assert!(!self.in_check());
            return true;
        }
        self.keeps_king_safe(mv)
    }

    /// Counts the leaf nodes of the legal move tree to `depth` (bulk counting at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: `perft_popcnt` needs only the popcnt instruction, which this CPU has.
            return unsafe { self.perft_popcnt(depth) };
        }
        self.perft_portable(depth)
    }

    /// Perft for any CPU.
    fn perft_portable(&mut self, depth: u32) -> u64 {
        self.perft_with(depth, Self::perft_portable)
    }

    /// The same walk compiled with the popcnt instruction: bulk counting is mostly popcounts,
    /// and the portable x86-64 fallback for them is a dozen instructions each (measured with
    /// callgrind: see scripts/perft_bench.sh).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn perft_popcnt(&mut self, depth: u32) -> u64 {
        self.perft_with(depth, |pos, d| pos.perft_popcnt(d))
    }

    #[inline(always)]
    fn perft_with(&mut self, depth: u32, recurse: impl Fn(&mut Position, u32) -> u64) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves_inline(),
            _ => {
                let moves = self.legal_moves();
                let mut nodes = 0;
                for &mv in moves.iter() {
                    self.make_move(mv);
                    nodes += recurse(self, depth - 1);
                    self.unmake_move();
                }
                nodes
            }
        }
    }

    /// Per-root-move counts to `depth`, in generation order.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        moves
            .iter()
            .map(|&mv| {
                self.make_move(mv);
                let nodes = self.perft(depth.saturating_sub(1));
                self.unmake_move();
                (mv, nodes)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_perft_matches_known_counts() {
        let mut pos = Position::startpos();
        assert_eq!(pos.perft(1), 44);
        assert_eq!(pos.perft(2), 1_920);
        assert_eq!(pos.perft(3), 79_666);
    }

    #[test]
    fn a_lone_piece_between_the_kings_stays_on_the_file() {
        let moves = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let mut list: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            list.sort();
            list
        };
        // Red's horse is the only piece between the kings: it may not move at all.
        assert_eq!(
            moves("4k4/9/9/9/9/4H4/9/9/9/4K4 w"),
            ["e0d0", "e0e1", "e0f0"]
        );
        // Black's cannon may move along the file only (and not take the king it faces).
        assert_eq!(
            moves("4k4/9/9/9/4c4/9/9/9/9/4K4 b"),
            [
                "e5e1", "e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e9d9", "e9e8", "e9f9"
            ]
        );
        // Two pieces between: neither is held.
        assert_eq!(moves("4k4/9/9/9/4p4/4P4/9/9/9/4K4 w").len(), 4);
        assert!(moves("4k4/9/9/9/4p4/4P4/9/9/9/4K4 w").contains(&"e4e5".to_string()));
    }

    #[test]
    fn generators_partition_the_moves() {
        let pos = Position::from_fen(
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
        )
        .unwrap();
        let all = pos.legal_moves();
        let caps = pos.legal_captures();
        let mut quiets = MoveList::new();
        pos.generate(GenKind::Quiets, &mut quiets);
        assert_eq!(all.len(), caps.len() + quiets.len());
        assert!(caps.iter().all(|&m| pos.piece_on(m.to()).is_some()));
        assert!(quiets.iter().all(|&m| pos.piece_on(m.to()).is_none()));
        assert_eq!(pos.count_legal_moves(), all.len() as u64);
        assert!(pos.check_evasions().is_empty());
    }

    /// The legal moves by brute force: every pseudo-legal move whose mover is not in check
    /// afterwards.
    fn brute_force_legal(pos: &Position) -> Vec<Move> {
        let mut moves: Vec<Move> = pos
            .pseudo_legal_moves(GenKind::All)
            .iter()
            .copied()
            .filter(|&mv| {
                let mut after = pos.clone();
                after.make_move(mv);
                !after.is_in_check(pos.side_to_move())
            })
            .collect();
        moves.sort_by_key(|m| m.raw());
        moves
    }

    #[test]
    fn check_evasions_cover_every_answer() {
        let fens = [
            // Cannon check through Black's own horse: the horse may step anywhere off the
            // file (the chariot cannot reach a point between).
            "r3k4/9/4n4/9/9/9/9/4C4/9/3K5 b",
            // Cannon check through a red screen: capturing the screen keeps the check.
            "3k5/9/r2N5/9/9/9/9/3C5/9/4K4 b",
            // Chariot check along the rank, blockable.
            "3k5/9/9/9/7R1/9/9/9/4K3r/r8 w",
            // Horse check, the leg blockable.
            "4k4/9/9/9/9/2n6/9/3K5/9/2R6 w",
            // Two pieces give check: only the king can answer.
            "3k5/9/9/9/5R3/9/9/3n5/9/4K3r w",
            // Cannon check through a red cannon: a chariot landing between the king and that
            // cannon makes it check (a6-d6), one landing beyond it answers (a3-d3).
            "3k5/9/9/r8/3C5/9/r8/3C5/9/4K4 b",
            // Horse check: the only piece that can take the horse is pinned on the file.
            "4k4/6N2/4n4/9/9/9/9/4R4/9/3K5 b",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            assert!(pos.in_check(), "{fen}");
            let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            legal.sort_by_key(|m| m.raw());
            assert_eq!(legal, brute_force_legal(&pos), "{fen}");
            assert_eq!(pos.count_legal_moves(), legal.len() as u64, "{fen}");
        }
        let pos = Position::from_fen(fens[0]).unwrap();
        for screen_move in ["e7c8", "e7g6"] {
            assert!(pos.parse_move(screen_move).is_ok(), "{screen_move}");
        }
    }

    #[test]
    fn is_legal_refuses_garbage_moves() {
        let pos = Position::startpos();
        for text in ["h2e2", "b0c2", "a3a4", "h2h9"] {
            assert!(pos.is_legal(Move::parse_iccs(text).unwrap()), "{text}");
        }
        for text in ["e0e1x", "a3b3", "b9c7", "e5e6", "a0a9"] {
            let legal = Move::parse_iccs(text).is_some_and(|m| pos.is_legal(m));
            assert!(!legal, "{text}");
        }
        assert!(!pos.is_legal(Move::NONE));
    }
}
