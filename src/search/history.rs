//! Move-ordering memory kept by each search thread between nodes: killer moves, counter
//! moves, butterfly history, continuation history (one, two and four plies back) and capture
//! history.
//!
//! All are "history heuristics": a quiet move that caused a cutoff somewhere is likely to be
//! good elsewhere. Bonuses use the usual gravity formula so values stay within ±`HISTORY_MAX`.

use super::MAX_PLY;
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

/// The moves one, two and four plies before a node (`PieceTo::NONE` where there is none, or
/// after a null move): continuation history scores a quiet move in this context.
pub type Context = [PieceTo; 3];

pub struct Histories {
    pub killers: [[Move; 2]; MAX_PLY + 2],
    /// Indexed by the previous move's `PieceTo`: the reply that refuted it last time.
    pub counters: Vec<Move>,
    /// `[side][from][to]`.
    butterfly: Vec<i16>,
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
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            counters: vec![Move::NONE; PIECE_TO],
            butterfly: vec![0; 2 * SQUARES * SQUARES],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            captures: vec![0; PIECE_TO * PieceKind::ALL.len()],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 2];
        self.counters.fill(Move::NONE);
        self.butterfly.fill(0);
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

    fn butterfly_index(side: usize, mv: Move) -> usize {
        (side * SQUARES + mv.from().index()) * SQUARES + mv.to().index()
    }

    /// Ordering score of a quiet move.
    pub fn quiet_score(&self, side: usize, mv: Move, context: Context, current: PieceTo) -> i32 {
        let cont = |before| self.continuation[Self::continuation_index(before, current)] as i32;
        self.butterfly[Self::butterfly_index(side, mv)] as i32
            + cont(context[0])
            + cont(context[1])
            + cont(context[2])
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
        gravity(&mut self.butterfly[Self::butterfly_index(side, mv)], bonus);
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
