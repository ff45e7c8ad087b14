//! Move-ordering memory kept by each search thread between nodes: killer moves, counter
//! moves, butterfly history, continuation history (one, two and four plies back) and capture
//! history.
//!
//! All are "history heuristics": a quiet move that caused a cutoff somewhere is likely to be
//! good elsewhere. Bonuses use the usual gravity formula so values stay within ±`HISTORY_MAX`.

use super::PLY_SLOTS;
use crate::core::{Move, Piece, PieceKind, SQUARES, Square};
use crate::position::Position;

pub const HISTORY_MAX: i32 = 16_384;

/// A (piece, target point) pair, the index of continuation history.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PieceTo(pub u16);

impl PieceTo {
    pub const NONE: PieceTo = PieceTo(0);

    pub fn of(pos: &Position, mv: Move) -> PieceTo {
        pos.piece_on(mv.from())
            .map_or(PieceTo::NONE, |piece| PieceTo::new(piece, mv.to()))
    }

    /// `piece` arriving on `to`.
    pub fn new(piece: Piece, to: Square) -> PieceTo {
        PieceTo((piece.index() * SQUARES + to.index()) as u16 + 1)
    }
}

const PIECE_TO: usize = 14 * SQUARES + 1;
/// Butterfly slots per side: from · 90 + to, rounded up to a power of two.
const BUTTERFLY_SLOTS: usize = 8192;

/// `Histories::quiet_scorer`: a node's quiet-move scoring, its tables looked up.
pub struct QuietScorer<'a> {
    butterfly: &'a [i16; BUTTERFLY_SLOTS],
    rows: [&'a [i16; PIECE_TO]; 3],
}

impl QuietScorer<'_> {
    /// Ordering score of a quiet move `mv`, `current` its piece and target.
    #[inline(always)]
    pub fn score(&self, mv: Move, current: PieceTo) -> i32 {
        let at = current.0 as usize;
        self.butterfly[Histories::butterfly_index(mv)] as i32
            + self.rows[0][at] as i32
            + self.rows[1][at] as i32
            + self.rows[2][at] as i32
    }
}

/// The moves one, two and four plies before a node (`PieceTo::NONE` where there is none, or
/// after a null move): continuation history scores a quiet move in this context.
pub type Context = [PieceTo; 3];

pub struct Histories {
    pub killers: [[Move; 2]; PLY_SLOTS],
    /// Indexed by the previous move's `PieceTo`: the reply that refuted it last time.
    pub counters: Vec<Move>,
    /// `[side][from][to]`.
    butterfly: Box<[[i16; BUTTERFLY_SLOTS]; 2]>,
    /// `[earlier PieceTo][current PieceTo]`, shared by both plies of the context.
    continuation: Vec<i16>,
    /// `[capturing PieceTo][captured kind]`: how well this capture did in other positions.
    captures: Vec<i16>,
}

fn gravity(entry: &mut i16, bonus: i32) {
    let value = *entry as i32;
    let next = value + bonus - value * bonus.abs() / HISTORY_MAX;
    *entry = next.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            killers: [[Move::NONE; 2]; PLY_SLOTS],
            counters: vec![Move::NONE; PIECE_TO],
            butterfly: Box::new([[0; BUTTERFLY_SLOTS]; 2]),
            continuation: vec![0; PIECE_TO * PIECE_TO],
            captures: vec![0; PIECE_TO * PieceKind::ALL.len()],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers = [[Move::NONE; 2]; PLY_SLOTS];
        self.counters.fill(Move::NONE);
        self.butterfly.iter_mut().for_each(|side| side.fill(0));
        self.continuation.fill(0);
        self.captures.fill(0);
    }

    fn capture_index(piece_to: PieceTo, victim: PieceKind) -> usize {
        piece_to.0 as usize * PieceKind::ALL.len() + victim.index()
    }

    /// The capture history of `piece_to` taking a `victim`.
    pub fn capture_score(&self, piece_to: PieceTo, victim: PieceKind) -> i32 {
        self.captures[Self::capture_index(piece_to, victim)] as i32
    }

    /// Rewards (or, with a negative bonus, punishes) a capture.
    pub fn update_capture(&mut self, piece_to: PieceTo, victim: PieceKind, bonus: i32) {
        gravity(
            &mut self.captures[Self::capture_index(piece_to, victim)],
            bonus,
        );
    }

    fn continuation_index(before: PieceTo, current: PieceTo) -> usize {
        before.0 as usize * PIECE_TO + current.0 as usize
    }

    /// A move's slot in its side's butterfly table; the mask only tells the compiler what
    /// is true anyway (from · 90 + to < 8100), so the lookup needs no bounds check.
    #[inline(always)]
    fn butterfly_index(mv: Move) -> usize {
        (mv.from().index() * SQUARES + mv.to().index()) & (BUTTERFLY_SLOTS - 1)
    }

    /// Ordering score of a quiet move.
    #[inline]
    pub fn quiet_score(&self, side: usize, mv: Move, context: Context, current: PieceTo) -> i32 {
        self.quiet_scorer(side, context).score(mv, current)
    }

    /// Scores the quiet moves of one node: the side's butterfly table and the three
    /// continuation rows of the node's context looked up once, not once per move.
    #[inline]
    pub fn quiet_scorer(&self, side: usize, context: Context) -> QuietScorer<'_> {
        let row = |before: PieceTo| -> &[i16; PIECE_TO] {
            let start = before.0 as usize * PIECE_TO;
            self.continuation[start..start + PIECE_TO]
                .try_into()
                .expect("a row is PIECE_TO long")
        };
        QuietScorer {
            // `& 1` (a side is 0 or 1) spares the bounds check.
            butterfly: &self.butterfly[side & 1],
            rows: [row(context[0]), row(context[1]), row(context[2])],
        }
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move.
    pub fn update_quiet(
        &mut self,
        side: usize,
        mv: Move,
        context: Context,
        current: PieceTo,
        bonus: i32,
    ) {
        gravity(&mut self.butterfly[side][Self::butterfly_index(mv)], bonus);
        for before in context {
            gravity(
                &mut self.continuation[Self::continuation_index(before, current)],
                bonus,
            );
        }
    }

    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

/// Moves searched at a node without causing a cutoff, kept for the history malus (a fixed
/// array: no allocation in the search).
pub struct Tried<T: Copy, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> Tried<T, N> {
    /// An empty list; `filler` only initialises the unused slots.
    pub fn new(filler: T) -> Self {
        Tried {
            items: [filler; N],
            len: 0,
        }
    }

    /// Keeps `item` if there is room (the first `N` are enough for the malus).
    pub fn push(&mut self, item: T) {
        if self.len < N {
            self.items[self.len] = item;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
}
