//! The hand-crafted evaluation: what a position is worth, in centipawns, for the side to move.
//!
//! Terms (each from Red's point of view, then negated for Black):
//! - material with xiangqi values, tapered between a middlegame and an endgame value (the
//!   cannon is worth more with many pieces on the board, the horse more in the endgame);
//! - piece-square tables built from a few rules a player knows (pawns gain value across the
//!   river and toward the centre, horses want the centre and the enemy half, cannons the
//!   central file, the king stays home);
//! - mobility of chariots, horses and cannons;
//! - king safety: missing advisors and elephants against enemy attackers, enemy chariots and
//!   horses attacking palace points, a cannon on the king's file;
//! - endings a side cannot win (no piece that can cross the river and attack) scaled down.
//!
//! Integer arithmetic only, so every machine gets the same numbers (and the same bench).
//! NNUE will come later behind the same `evaluate` function.

use crate::board::attacks::{PALACES, chariot_attacks, file_mask, horse_attacks};
use crate::core::{Color, Move, Piece, PieceKind, SQUARES, Square};
use crate::position::Position;

/// A score in centipawns (or a mate score, see `search`).
pub type Value = i32;

/// Middlegame and endgame values per kind, in `PieceKind` order.
const MATERIAL_MG: [Value; 7] = [0, 200, 200, 400, 900, 470, 100];
const MATERIAL_EG: [Value; 7] = [0, 200, 200, 460, 940, 420, 110];

/// Game phase: horses and cannons count 1, chariots 2; 16 is the full board.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
const PHASE_MAX: i32 = 16;

/// Mobility bonus per reachable point.
const CHARIOT_MOBILITY: Value = 3;
const HORSE_MOBILITY: Value = 6;
const CANNON_MOBILITY: Value = 1;

/// King safety weights.
const MISSING_ADVISOR: Value = 22;
const MISSING_ELEPHANT: Value = 16;
const CANNON_ON_KING_FILE: Value = 25;
/// Per point of the enemy palace a chariot or horse attacks (middlegame only).
const PALACE_PRESSURE: Value = 6;

/// Piece-square bonus for a Red piece of `kind` on `sq` (Black uses the mirrored point).
const fn square_bonus(kind: PieceKind, sq: usize) -> (Value, Value) {
    let file = (sq % 9) as i32;
    let rank = (sq / 9) as i32;
    let centre = 4 - if file > 4 { file - 4 } else { 4 - file }; // 0 at the edge, 4 on file e
    match kind {
        PieceKind::Pawn => {
            if rank <= 4 {
                let mg = if rank == 4 { 10 } else { 0 };
                (mg, mg)
            } else if rank == 9 {
                // A pawn on the last rank can only step sideways: little threat.
                (60, 50)
            } else {
                let advance = if rank >= 8 { 2 } else { rank - 5 };
                let mg = 70 + 12 * centre + 12 * advance;
                let eg = 90 + 6 * centre + 10 * advance;
                (mg, eg)
            }
        }
        PieceKind::Horse => {
            let forward = if rank >= 5 && rank <= 7 {
                14
            } else if rank >= 3 {
                6
            } else {
                0
            };
            let edge = if file == 0 || file == 8 { -12 } else { 0 };
            let back = if rank == 0 { -8 } else { 0 };
            (4 * centre + forward + edge + back, 5 * centre + edge)
        }
        PieceKind::Chariot => {
            let crossed = if rank >= 5 { 10 } else { 0 };
            let deep = if rank == 6 || rank == 7 { 8 } else { 0 };
            let open_lane = if file == 3 || file == 5 { 6 } else { 0 };
            (crossed + deep + open_lane, 4 + crossed / 2)
        }
        PieceKind::Cannon => {
            let central = if file == 4 { 22 } else { 0 };
            let home = if rank == 2 { 6 } else { 0 };
            let bottom = if rank == 9 { 10 } else { 0 };
            (central + home + bottom, central / 3)
        }
        PieceKind::Advisor | PieceKind::Elephant => {
            let middle = if file == 4 { 8 } else { 0 };
            (middle, middle)
        }
        PieceKind::King => {
            let raised = -12 * rank;
            let aside = if file == 4 { 0 } else { -6 };
            (raised + aside, aside)
        }
    }
}

/// The tables, indexed `[kind][point]` from Red's side, middlegame and endgame packed.
static SQUARE_TABLE: [[(Value, Value); SQUARES]; 7] = {
    let mut table = [[(0, 0); SQUARES]; 7];
    let mut k = 0;
    while k < 7 {
        let mut sq = 0;
        while sq < SQUARES {
            table[k][sq] = square_bonus(PieceKind::ALL[k], sq);
            sq += 1;
        }
        k += 1;
    }
    table
};

/// The material and piece-square part of the evaluation, which a move changes only on its
/// two points: the search keeps one per ply and updates it move by move instead of summing
/// all pieces at every node (the way an NNUE accumulator will be kept later).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    /// Per color, from that color's point of view.
    mg: [Value; 2],
    eg: [Value; 2],
    phase: i32,
}

/// Middlegame and endgame value of a piece on a point (material + square bonus).
#[inline]
fn placement(piece: Piece, sq: Square) -> (Value, Value) {
    let rel = if piece.color() == Color::Red {
        sq
    } else {
        sq.flip_rank()
    };
    let k = piece.kind().index();
    let (pmg, peg) = SQUARE_TABLE[k][rel.index()];
    (MATERIAL_MG[k] + pmg, MATERIAL_EG[k] + peg)
}

impl Accumulator {
    /// Sums every piece of `pos`.
    pub fn new(pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    acc.add(Piece::new(color, kind), sq);
                }
            }
        }
        acc
    }

    #[inline]
    fn add(&mut self, piece: Piece, sq: Square) {
        let (mg, eg) = placement(piece, sq);
        let c = piece.color().index();
        self.mg[c] += mg;
        self.eg[c] += eg;
        self.phase += PHASE_WEIGHT[piece.kind().index()];
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let (mg, eg) = placement(piece, sq);
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

/// Mobility of `color`'s chariots, horses and cannons (both phases), and the pressure its
/// chariots and horses put on the enemy palace (middlegame), computed from the same attacks.
fn mobility(pos: &Position, color: Color) -> (Value, Value) {
    let occ = pos.occupancy();
    let not_own = !pos.color_pieces(color);
    let empty = !pos.occupied();
    let palace = PALACES[color.opponent().index()];
    let mut total = 0;
    let mut pressure = 0;
    for sq in pos.pieces(color, PieceKind::Chariot) {
        let attacks = chariot_attacks(sq, occ);
        total += (attacks & not_own).count() as Value * CHARIOT_MOBILITY;
        pressure += (attacks & palace).count() as Value;
    }
    for sq in pos.pieces(color, PieceKind::Horse) {
        let attacks = horse_attacks(sq, occ.normal);
        total += ((attacks & not_own).count() as Value - 2) * HORSE_MOBILITY;
        pressure += (attacks & palace).count() as Value;
    }
    for sq in pos.pieces(color, PieceKind::Cannon) {
        total += (chariot_attacks(sq, occ) & empty).count() as Value * CANNON_MOBILITY;
    }
    (total, pressure * PALACE_PRESSURE)
}

/// King-safety penalty for `color` (a positive number is bad for `color`).
fn king_danger(pos: &Position, color: Color) -> Value {
    let them = color.opponent();
    let enemy_cannons = pos.pieces(them, PieceKind::Cannon);
    let attackers = pos.count(them, PieceKind::Chariot) * 2
        + pos.count(them, PieceKind::Horse)
        + pos.count(them, PieceKind::Cannon);
    let mut danger = 0;
    if attackers > 0 {
        let weight = attackers.min(6) as Value;
        let missing_advisors = 2 - pos.count(color, PieceKind::Advisor).min(2);
        let missing_elephants = 2 - pos.count(color, PieceKind::Elephant).min(2);
        danger += (missing_advisors as Value * MISSING_ADVISOR
            + missing_elephants as Value * MISSING_ELEPHANT)
            * weight
            / 4;
    }
    if (file_mask(pos.king_square(color)) & enemy_cannons).any() {
        danger += CANNON_ON_KING_FILE;
    }
    danger
}

/// Scale (out of 16) for `strong`'s advantage: it cannot win without attacking pieces.
fn win_scale(pos: &Position, strong: Color) -> i32 {
    if !pos.has_attackers(strong) {
        return 0;
    }
    let crossing = pos.count(strong, PieceKind::Chariot)
        + pos.count(strong, PieceKind::Horse)
        + pos.count(strong, PieceKind::Cannon);
    let pawns_crossed = pos
        .pieces(strong, PieceKind::Pawn)
        .filter(|&sq| !strong.own_half(sq))
        .count();
    if crossing == 0 && pawns_crossed == 0 && pos.count(strong, PieceKind::Pawn) <= 1 {
        return 4;
    }
    16
}

/// The static evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Value {
    evaluate_with(pos, &Accumulator::new(pos))
}

/// The static evaluation, with the material and square part taken from `acc` (which must
/// describe `pos`).
pub fn evaluate_with(pos: &Position, acc: &Accumulator) -> Value {
    debug_assert_eq!(*acc, Accumulator::new(pos));
    let (red, black) = (Color::Red.index(), Color::Black.index());
    let phase = acc.phase.min(PHASE_MAX);
    let (red_mobility, red_pressure) = mobility(pos, Color::Red);
    let (black_mobility, black_pressure) = mobility(pos, Color::Black);
    let mobility = red_mobility - black_mobility;
    let mg = acc.mg[red] - acc.mg[black] + mobility + red_pressure
        - black_pressure
        - king_danger(pos, Color::Red)
        + king_danger(pos, Color::Black);
    let eg = acc.eg[red] - acc.eg[black] + mobility;
    let mut score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let strong = if score > 0 { Color::Red } else { Color::Black };
    score = score * win_scale(pos, strong) / 16;
    let side_score = if pos.side_to_move() == Color::Red {
        score
    } else {
        -score
    };
    // Never exactly 0: the search reserves that score for draws by the rules (see
    // `search::is_rule_value`).
    match side_score + TEMPO {
        0 => 1,
        value => value,
    }
}

/// A small bonus for having the move.
const TEMPO: Value = 10;

/// Material value of a piece kind, for move ordering and SEE (middlegame values).
pub fn piece_value(kind: PieceKind) -> Value {
    match kind {
        PieceKind::King => 10_000,
        _ => MATERIAL_MG[kind.index()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> Value {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    /// Swaps colors and flips the board, so the same game seen from the other side.
    fn color_flip(fen: &str) -> String {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().unwrap();
        let side = fields.next().unwrap_or("w");
        let flipped: Vec<String> = placement
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if side == "b" { "w" } else { "b" };
        format!("{} {side}", flipped.join("/"))
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let start = eval(crate::position::START_FEN);
        assert_eq!(start, TEMPO);
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w",
            "3k5/4a4/3P5/2R1P4/9/4r4/2p6/9/4A4/4K4 w",
        ];
        for fen in fens {
            assert_eq!(eval(fen), eval(&color_flip(fen)), "{fen}");
        }
    }

    #[test]
    fn the_accumulator_follows_moves() {
        let mut pos = Position::startpos();
        let mut acc = Accumulator::new(&pos);
        for text in ["h2e2", "h9g7", "e2e6", "g7e6", "b0c2"] {
            let mv = pos.parse_move(text).unwrap();
            acc = acc.after(&pos, mv);
            pos.make_move(mv);
            assert_eq!(acc, Accumulator::new(&pos), "after {text}");
            assert_eq!(evaluate_with(&pos, &acc), evaluate(&pos));
        }
    }

    #[test]
    fn material_counts() {
        // Red a chariot up.
        let up = eval("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        assert!(up > 700, "{up}");
        // A crossed central pawn is worth more than one at home.
        let home = eval("4k4/9/9/9/9/9/4P4/9/9/3K5 w");
        let crossed = eval("4k4/9/9/4P4/9/9/9/9/9/3K5 w");
        assert!(crossed > home + 50, "{home} {crossed}");
    }

    #[test]
    fn attacking_the_palace_counts() {
        // The same chariot on two points with the same square bonus and the same mobility:
        // on a rank of the enemy palace, then on the river. Only the pressure differs.
        let near = eval("3k4r/R8/1c5c1/9/9/9/9/1C5C1/9/4K3R w");
        let far = eval("3k4r/9/1c5c1/9/R8/9/9/1C5C1/9/4K3R w");
        assert!(near > far, "{near} {far}");
    }

    #[test]
    fn sides_without_attackers_cannot_win() {
        // Red has advisors and elephants only; Black a lone king: a dead draw.
        let score = eval("4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w");
        assert!(score.abs() <= TEMPO, "{score}");
    }
}
