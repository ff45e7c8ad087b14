//! Material and square values: the tables built from the weights, and the accumulator the
//! search keeps per ply (material and square sums, updated on a move's two points).

use super::*;

/// Game phase: horses and cannons count 1, chariots 2; 16 is the full board.
pub(super) const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
pub(super) const PHASE_MAX: i32 = 16;

/// Material of a kind, middlegame and endgame.
pub(super) const fn material(p: &EvalParams, kind: PieceKind) -> (Value, Value) {
    match kind {
        PieceKind::King => (0, 0),
        PieceKind::Advisor => (p.advisor_mg, p.advisor_eg),
        PieceKind::Elephant => (p.elephant_mg, p.elephant_eg),
        PieceKind::Horse => (p.horse_mg, p.horse_eg),
        PieceKind::Chariot => (p.chariot_mg, p.chariot_eg),
        PieceKind::Cannon => (p.cannon_mg, p.cannon_eg),
        PieceKind::Pawn => (p.pawn_mg, p.pawn_eg),
    }
}

/// Piece-square bonus for a Red piece of `kind` on `sq` (Black uses the mirrored point),
/// built from a few rules a player knows.
pub(super) const fn square_bonus(p: &EvalParams, kind: PieceKind, sq: usize) -> (Value, Value) {
    let file = (sq % 9) as i32;
    let rank = (sq / 9) as i32;
    let centre = 4 - if file > 4 { file - 4 } else { 4 - file }; // 0 at the edge, 4 on file e
    match kind {
        PieceKind::Pawn => {
            if rank <= 4 {
                let mg = if rank == 4 { p.pawn_river_bank } else { 0 };
                (mg, mg)
            } else if rank == 9 {
                (p.pawn_last_rank_mg, p.pawn_last_rank_eg)
            } else {
                let advance = if rank >= 8 { 2 } else { rank - 5 };
                let mg =
                    p.pawn_crossed_mg + p.pawn_centre_mg * centre + p.pawn_advance_mg * advance;
                let eg =
                    p.pawn_crossed_eg + p.pawn_centre_eg * centre + p.pawn_advance_eg * advance;
                (mg, eg)
            }
        }
        PieceKind::Horse => {
            let forward = if rank >= 5 && rank <= 7 {
                p.horse_forward
            } else if rank >= 3 {
                p.horse_midfield
            } else {
                0
            };
            let edge = if file == 0 || file == 8 {
                p.horse_edge
            } else {
                0
            };
            let back = if rank == 0 { p.horse_home } else { 0 };
            (
                p.horse_centre_mg * centre + forward + edge + back,
                p.horse_centre_eg * centre + edge,
            )
        }
        PieceKind::Chariot => {
            let crossed = if rank >= 5 { p.chariot_crossed } else { 0 };
            let deep = if rank == 6 || rank == 7 {
                p.chariot_deep
            } else {
                0
            };
            let open_lane = if file == 3 || file == 5 {
                p.chariot_open_lane
            } else {
                0
            };
            (crossed + deep + open_lane, p.chariot_base_eg + crossed / 2)
        }
        PieceKind::Cannon => {
            let central = if file == 4 { p.cannon_central } else { 0 };
            let home = if rank == 2 { p.cannon_home } else { 0 };
            let bottom = if rank == 9 { p.cannon_bottom } else { 0 };
            (central + home + bottom, central / 3)
        }
        PieceKind::Advisor | PieceKind::Elephant => {
            let middle = if file == 4 { p.defender_middle } else { 0 };
            (middle, middle)
        }
        PieceKind::King => {
            let raised = p.king_raised * rank;
            let aside = if file == 4 { 0 } else { p.king_aside };
            (raised + aside, aside)
        }
    }
}

/// Points of one half of the board split down the central file (the other half mirrors it):
/// what a per-point correction is indexed by.
pub const HALF_POINTS: usize = 50;

/// The index among `HALF_POINTS` of point `sq` (Red's view): rank × 5 + files from the edge.
pub const fn half_point(sq: usize) -> usize {
    let file = sq % 9;
    (sq / 9) * 5 + if file > 4 { 8 - file } else { file }
}

/// Per-point corrections (middlegame, endgame) to the square bonuses of each kind, indexed
/// `[kind][half_point]`: the rules of `square_bonus` say what a player knows; these say what
/// they miss, as fitted to game results by `examples/tune_eval.rs --squares`.
pub type SquareAdjust = [[(Value, Value); HALF_POINTS]; 7];

/// Material plus square bonus of each piece on each point, middlegame and endgame, indexed
/// `[piece][point]`: a Black piece's row is its Red kind's mirrored across the river, kept
/// as a row of its own so that the accumulator's updates need no mirroring. Padded to 16
/// pieces of `POINT_SLOTS` points (the padding never read), so a lookup by the masked indices
/// of `Piece::index` and `Square::index` needs no bounds check.
pub struct SquareTable([[(Value, Value); POINT_SLOTS]; 16]);

impl SquareTable {
    /// The table of weights `p` with the fitted per-point corrections (`SQUARE_ADJUST`).
    pub const fn new(p: &EvalParams) -> SquareTable {
        SquareTable::with_adjust(p, &SQUARE_ADJUST)
    }

    /// The table of weights `p` with the per-point corrections `adjust` (for the tuner).
    pub const fn with_adjust(p: &EvalParams, adjust: &SquareAdjust) -> SquareTable {
        let mut table = [[(0, 0); POINT_SLOTS]; 16];
        let mut k = 0;
        while k < 7 {
            let kind = PieceKind::ALL[k];
            let (material_mg, material_eg) = material(p, kind);
            let mut sq = 0;
            while sq < SQUARES {
                let (mg, eg) = square_bonus(p, kind, sq);
                let (adjust_mg, adjust_eg) = adjust[k][half_point(sq)];
                let value = (material_mg + mg + adjust_mg, material_eg + eg + adjust_eg);
                let red = Piece::new(Color::Red, kind).index();
                let black = Piece::new(Color::Black, kind).index();
                table[red][sq] = value;
                table[black][Square::from_index_unchecked(sq as u8).flip_rank().index()] = value;
                sq += 1;
            }
            k += 1;
        }
        SquareTable(table)
    }
}

/// The table of the default weights, built at compile time.
pub(super) static SQUARE_TABLE: SquareTable = SquareTable::new(&EvalParams::DEFAULT);

/// The material and piece-square part of the evaluation, which a move changes only on its
/// two points: the search keeps one per ply and updates it move by move instead of summing
/// all pieces at every node (the way an NNUE accumulator will be kept later).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    /// Per color, from that color's point of view.
    pub(super) mg: [Value; 2],
    pub(super) eg: [Value; 2],
    pub(super) phase: i32,
}

/// Middlegame and endgame value of a piece on a point (material + square bonus).
#[inline]
pub(super) fn placement(table: &SquareTable, piece: Piece, sq: Square) -> (Value, Value) {
    table.0[piece.index()][sq.index()]
}

impl Accumulator {
    /// Sums every piece of `pos`.
    pub fn new(pos: &Position) -> Accumulator {
        Accumulator::with_table(pos, &SQUARE_TABLE)
    }

    /// Sums every piece of `pos` by another table (for tuning).
    pub fn with_table(pos: &Position, table: &SquareTable) -> Accumulator {
        let mut acc = Accumulator::default();
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    acc.add_by(table, Piece::new(color, kind), sq);
                }
            }
        }
        acc
    }

    #[inline]
    pub(super) fn add(&mut self, piece: Piece, sq: Square) {
        self.add_by(&SQUARE_TABLE, piece, sq);
    }

    #[inline]
    pub(super) fn add_by(&mut self, table: &SquareTable, piece: Piece, sq: Square) {
        let (mg, eg) = placement(table, piece, sq);
        let c = piece.color().index();
        self.mg[c] += mg;
        self.eg[c] += eg;
        self.phase += PHASE_WEIGHT[piece.kind().index()];
    }

    #[inline]
    pub(super) fn remove(&mut self, piece: Piece, sq: Square) {
        let (mg, eg) = placement(&SQUARE_TABLE, piece, sq);
        let c = piece.color().index();
        self.mg[c] -= mg;
        self.eg[c] -= eg;
        self.phase -= PHASE_WEIGHT[piece.kind().index()];
    }

    /// The accumulator after `mv` is played in `pos` (call before making the move).
    #[inline]
    pub fn after(&self, pos: &Position, mv: Move) -> Accumulator {
        let mut next = *self;
        if let Some(moved) = pos.piece_on(mv.from()) {
            next.remove(moved, mv.from());
            next.add(moved, mv.to());
        }
        if let Some(victim) = pos.piece_on(mv.to()) {
            next.remove(victim, mv.to());
        }
        next
    }
}
