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
//!   horses attacking palace points and cannons aiming at them, several attackers across the
//!   river together, a cannon on the king's file (worse with nothing between);
//! - threats: horses and cannons attacked by lesser pieces, pieces attacked and undefended;
//! - endings a side cannot win (no piece that can cross the river and attack) scaled down.
//!
//! Integer arithmetic only, so every machine gets the same numbers (and the same bench).
//! On top of the rule-built square bonuses, a table of per-point corrections for each kind
//! (`square_adjust.rs`) is fitted to Chariot's games by gradient descent; all weights sit in
//! one list (`params.rs`), fitted by the Texel method in `examples/tune_eval.rs`. Endings are
//! scaled toward a draw by what each side has left to attack with (`win_scale`), drawn from
//! the endgame books and from how Chariot's own games ended (`scripts/ending_stats.py`).
//!
//! [`Evaluator`] is the one interface the search calls: this hand-crafted evaluation, or the
//! network of [`nnue`] (which takes the same ending scale on top).

use crate::board::Bitboard;
use crate::board::attacks::{
    HOME_HALVES, KING_MOVES, PALACES, advisor_moves_all, cannon_reach, chariot_attacks,
    elephant_moves_all, file_mask, file_slide, horse_attacks, pawn_moves_all,
};
use crate::board::bitboard::POINT_SLOTS;
use crate::core::{Color, Move, Piece, PieceKind, SQUARES, Square};
use crate::position::Position;

pub mod nnue;
mod params;
mod square_adjust;
mod squares;
pub mod trace;
pub use params::EvalParams;
pub use square_adjust::SQUARE_ADJUST;
pub use squares::*;

/// A score in centipawns (or a mate score, see `search`).
pub type Value = i32;

/// The points one side's pieces attack (or defend, for its own pieces), by attacker class.
#[derive(Clone, Copy)]
struct AttackMap {
    /// By any piece.
    all: Bitboard,
    /// By pieces worth less than a horse or cannon: pawns, advisors, elephants.
    below_minor: Bitboard,
}

/// What `mobility` measures of one side.
struct Activity {
    /// Mobility, both phases.
    mobility: Value,
    /// Pressure on the enemy palace, middlegame: chariots and horses attacking its points,
    /// cannons aiming at them, raiders across the river.
    pressure: Value,
    attacks: AttackMap,
}

/// Mobility of `color`'s chariots, horses and cannons (both phases), the pressure they put on
/// the enemy palace (middlegame), and the map of what all its pieces attack, computed from the
/// same attacks.
#[inline(always)]
fn mobility(p: &EvalParams, pos: &Position, color: Color) -> Activity {
    let occ = pos.occupancy();
    let not_own = !pos.color_pieces(color);
    let palace = PALACES[color.opponent().index()];
    let mut total = 0;
    let mut pressure = 0;
    let mut chariot_reach = Bitboard::EMPTY;
    let mut minor_reach = Bitboard::EMPTY;
    let mut low_reach = Bitboard::EMPTY;
    pos.pieces(color, PieceKind::Chariot).for_each_point(|sq| {
        let attacks = chariot_attacks(sq, occ);
        chariot_reach |= attacks;
        total += (attacks & not_own).count() as Value * p.chariot_mobility;
        pressure += (attacks & palace).count() as Value;
    });
    pos.pieces(color, PieceKind::Horse).for_each_point(|sq| {
        let attacks = horse_attacks(sq, occ.normal);
        minor_reach |= attacks;
        total += ((attacks & not_own).count() as Value - 2) * p.horse_mobility;
        pressure += (attacks & palace).count() as Value;
    });
    let mut cannon_aim = 0;
    pos.pieces(color, PieceKind::Cannon).for_each_point(|sq| {
        let (captures, moves) = cannon_reach(sq, occ);
        minor_reach |= captures;
        cannon_aim += (captures & palace).count() as Value;
        total += moves as Value * p.cannon_mobility;
    });
    let enemy_half = !HOME_HALVES[color.index()];
    let raiders = ((pos.pieces(color, PieceKind::Chariot)
        | pos.pieces(color, PieceKind::Horse)
        | pos.pieces(color, PieceKind::Cannon))
        & enemy_half)
        .count() as Value;
    low_reach |= pawn_moves_all(color, pos.pieces(color, PieceKind::Pawn));
    low_reach |= advisor_moves_all(color, pos.pieces(color, PieceKind::Advisor));
    low_reach |= elephant_moves_all(color, pos.pieces(color, PieceKind::Elephant), occ.normal);
    let king_reach = KING_MOVES[pos.king_square(color).index()];
    Activity {
        mobility: total,
        pressure: pressure * p.palace_pressure
            + cannon_aim * p.cannon_pressure
            + raiders * (raiders - 1) / 2 * p.raiders,
        attacks: AttackMap {
            all: chariot_reach | minor_reach | low_reach | king_reach,
            below_minor: low_reach,
        },
    }
}

/// What `color` gains from the threats its attacks (`ours`) make against the enemy pieces,
/// defended as `theirs` says: lesser pieces attacking greater ones, and undefended pieces.
#[inline(always)]
fn threats(
    p: &EvalParams,
    pos: &Position,
    color: Color,
    ours: &AttackMap,
    theirs: &AttackMap,
) -> Value {
    let them = color.opponent();
    let minors = pos.pieces(them, PieceKind::Horse) | pos.pieces(them, PieceKind::Cannon);
    let targets = pos.color_pieces(them) & !pos.pieces(them, PieceKind::King);
    (minors & ours.below_minor).count() as Value * p.threat_on_minor
        + (targets & ours.all & !theirs.all).count() as Value * p.hanging
}

/// King-safety penalty for `color` (a positive number is bad for `color`).
#[inline(always)]
fn king_danger(p: &EvalParams, pos: &Position, color: Color) -> Value {
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
        danger += (missing_advisors as Value * p.missing_advisor
            + missing_elephants as Value * p.missing_elephant)
            * weight
            / 4;
    }
    let king = pos.king_square(color);
    if (file_mask(king) & enemy_cannons).any() {
        danger += p.cannon_on_king_file;
        // The first piece up or down the file from the king is an enemy cannon.
        if (file_slide(king, pos.occupancy()) & enemy_cannons).any() {
            danger += p.hollow_cannon;
        }
    }
    danger
}

/// The enemy's back rank for each color's pawns: a pawn there ("bottom pawn") only moves
/// sideways along it and never reaches a king standing one rank up.
const BOTTOM_RANKS: [Bitboard; 2] = [Bitboard(0x1ffu128 << 81), Bitboard(0x1ff)];

/// One side's material as the ending scales see it.
struct EndingMaterial {
    chariots: i32,
    minors: i32,
    cannons: i32,
    /// Pawns that can still reach the king (not on the enemy's back rank).
    pawns: i32,
    /// Of those, the ones across the river.
    crossed: i32,
    advisors: i32,
    defenders: i32,
}

impl EndingMaterial {
    /// `color`'s material, or `None` while it has more than one chariot or two horses and
    /// cannons (no ending the scales judge): most evaluations stop at that first test.
    fn of(pos: &Position, color: Color) -> Option<EndingMaterial> {
        let count = |kind| pos.count(color, kind) as i32;
        let (chariots, cannons) = (count(PieceKind::Chariot), count(PieceKind::Cannon));
        let minors = count(PieceKind::Horse) + cannons;
        if 2 * chariots + minors > 2 {
            return None;
        }
        let pawns = pos.pieces(color, PieceKind::Pawn) & !BOTTOM_RANKS[color.index()];
        Some(EndingMaterial {
            chariots,
            minors,
            cannons,
            pawns: pawns.count() as i32,
            crossed: (pawns & !HOME_HALVES[color.index()]).count() as i32,
            advisors: count(PieceKind::Advisor),
            defenders: Self::defenders(pos, color),
        })
    }

    /// `color`'s advisors and elephants.
    fn defenders(pos: &Position, color: Color) -> i32 {
        (pos.count(color, PieceKind::Advisor) + pos.count(color, PieceKind::Elephant)) as i32
    }

    /// Chariots count two, horses and cannons one.
    fn majors(&self) -> i32 {
        2 * self.chariots + self.minors
    }

    /// Attacking strength in pawns (chariot 9, horse or cannon 4, pawn 1): advisors and
    /// elephants defend, they never give mate.
    fn attack(&self) -> i32 {
        9 * self.chariots + 4 * self.minors + self.pawns
    }
}

/// `color`'s bonus for hemming in the enemy king once the enemy has no chariot, horse,
/// cannon or pawn left: the `cornering` weight per step of the king's (of four) that is
/// taken away, by its own pieces, by `attacks` (`color`'s) or by the facing kings. Mates against such a king are often beyond
/// the horizon; this gives the search a way toward them.
#[inline(always)]
fn cornering(p: &EvalParams, pos: &Position, color: Color, attacks: &AttackMap) -> Value {
    let them = color.opponent();
    if pos.has_attackers(them) || !pos.has_attackers(color) {
        return 0;
    }
    let king = pos.king_square(color);
    let facing = file_slide(king, pos.occupancy());
    let free = KING_MOVES[pos.king_square(them).index()]
        & !pos.color_pieces(them)
        & !attacks.all
        & !facing;
    (4 - free.count() as Value) * p.cornering
}

/// Scale (out of 16) for `strong`'s advantage, by what it has left to attack with against
/// what the other side has left to attack and defend with. Xiangqi endings are drawn far more often than their
/// material says: an edge made of advisors and elephants never mates, and an extra pawn or
/// a lone piece seldom breaks a palace with its defenders (`scripts/ending_stats.py` over
/// Chariot's own games: chariot against chariot, horse and pawn against horse, chariot and
/// pawn against chariot with the defenders in place, drawn in 90–100% of games scored
/// 1.5–7 pawns up; the same holds in the endgame books for the lone pieces below).
fn win_scale(pos: &Position, strong: Color) -> i32 {
    let Some(s) = EndingMaterial::of(pos, strong) else {
        return 16;
    };
    if !pos.has_attackers(strong) {
        return 0;
    }
    let weak = strong.opponent();
    if s.majors() == 0 {
        let weak_defenders = EndingMaterial::defenders(pos, weak);
        return match s.pawns {
            // Only bottom pawns: they cannot reach the king.
            0 => 2,
            // One pawn not across yet, or one against two defenders.
            1 if s.crossed == 0 || weak_defenders >= 2 => 3,
            2 if weak_defenders >= 3 => 6,
            _ => 16,
        };
    }
    let Some(w) = EndingMaterial::of(pos, weak) else {
        // Fewer pieces against more, yet scored ahead: an attack the scales do not judge.
        return 16;
    };
    let lone_piece = s.majors() == 1 + s.chariots && s.pawns == 0;
    let weak_bare = w.attack() == 0;
    let surplus = s.attack() - w.attack();
    if surplus <= 0 && s.defenders > w.defenders {
        // No more attackers than the other side: the edge is advisors and elephants.
        4
    } else if surplus == 1 && w.defenders >= 2 {
        // One pawn up: with two minors there is still play.
        if s.minors == 2 { 10 } else { 5 }
    } else if lone_piece && weak_bare && s.chariots == 1 && w.defenders == 4 {
        // A lone chariot against advisors and elephants all present.
        3
    } else if lone_piece && weak_bare && s.cannons == 1 && (s.advisors == 0 || w.defenders >= 2) {
        // A lone cannon needs a screen: none of its own, or a palace full of defenders.
        2
    } else if lone_piece && weak_bare && s.chariots == 0 && w.defenders >= 2 {
        // A lone horse against two defenders or more.
        4
    } else if s.chariots == 0 && s.minors == 1 && surplus <= 2 && w.defenders >= 3 {
        // A minor piece and two more pawns than the other side against a full palace.
        6
    } else {
        16
    }
}

/// The static evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Value {
    evaluate_with(pos, &Accumulator::new(pos))
}

/// The static evaluation, with the material and square part taken from `acc` (which must
/// describe `pos`).
pub fn evaluate_with(pos: &Position, acc: &Accumulator) -> Value {
    debug_assert_eq!(*acc, Accumulator::new(pos));
    evaluate_by(&EvalParams::DEFAULT, pos, acc)
}

/// The static evaluation by the weights `params`, whose square table `table` is; for the
/// tuner, which tries other weights.
pub fn evaluate_tuned(params: &EvalParams, table: &SquareTable, pos: &Position) -> Value {
    evaluate_by(params, pos, &Accumulator::with_table(pos, table))
}

/// The evaluation's body, inlined into each caller so the engine's constant weights fold.
#[inline(always)]
fn evaluate_by(p: &EvalParams, pos: &Position, acc: &Accumulator) -> Value {
    let (red, black) = (Color::Red.index(), Color::Black.index());
    let phase = acc.phase.min(PHASE_MAX);
    let red_side = mobility(p, pos, Color::Red);
    let black_side = mobility(p, pos, Color::Black);
    let both_phases = red_side.mobility - black_side.mobility
        + threats(p, pos, Color::Red, &red_side.attacks, &black_side.attacks)
        - threats(p, pos, Color::Black, &black_side.attacks, &red_side.attacks);
    let mg = acc.mg[red] - acc.mg[black] + both_phases + red_side.pressure
        - black_side.pressure
        - king_danger(p, pos, Color::Red)
        + king_danger(p, pos, Color::Black);
    let eg = acc.eg[red] - acc.eg[black] + both_phases;
    let mut score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
        + cornering(p, pos, Color::Red, &red_side.attacks)
        - cornering(p, pos, Color::Black, &black_side.attacks);
    let strong = if score > 0 { Color::Red } else { Color::Black };
    score = score * win_scale(pos, strong) / 16;
    let side_score = if pos.side_to_move() == Color::Red {
        score
    } else {
        -score
    };
    // Never exactly 0: the search reserves that score for draws by the rules (see
    // `search::is_rule_value`).
    match side_score + p.tempo {
        0 => 1,
        value => value,
    }
}

/// Which evaluation the search uses; the default is the engine's (`nnue::DEFAULT_ON`).
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The hand-crafted evaluation of this module.
    Hce,
    /// A neural network ([`nnue`]).
    Nnue(std::sync::Arc<nnue::Network>),
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        if nnue::DEFAULT_ON {
            Evaluator::Nnue(nnue::embedded())
        } else {
            Evaluator::Hce
        }
    }
}

impl Evaluator {
    /// `hce`, `nnue` (the embedded net) or `nnue` with another net file.
    pub fn parse(name: &str, net_file: Option<&std::path::Path>) -> Result<Evaluator, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "hce" | "classic" => Ok(Evaluator::Hce),
            "nnue" => Ok(Evaluator::Nnue(match net_file {
                Some(path) => std::sync::Arc::new(nnue::file::load(path)?),
                None => nnue::embedded(),
            })),
            other => Err(format!(
                "unknown evaluation '{other}' (expected nnue or hce)"
            )),
        }
    }

    /// The network, if this is the neural evaluation.
    pub fn network(&self) -> Option<&std::sync::Arc<nnue::Network>> {
        match self {
            Evaluator::Hce => None,
            Evaluator::Nnue(net) => Some(net),
        }
    }

    /// The evaluation of `pos` from scratch.
    pub fn evaluate(&self, pos: &Position) -> Value {
        match self {
            Evaluator::Hce => evaluate(pos),
            Evaluator::Nnue(net) => nnue_value(pos, nnue::evaluate(net, pos)),
        }
    }
}

/// The network's raw score for the side to move, as the search takes it: scaled down in
/// endings the leading side cannot win (as the hand-crafted evaluation does), kept inside
/// ±`NNUE_LIMIT`, never exactly 0 (reserved for draws by the rules).
#[inline]
pub fn nnue_value(pos: &Position, side_score: Value) -> Value {
    let us = pos.side_to_move();
    let strong = if side_score > 0 { us } else { us.opponent() };
    let scaled = (side_score * win_scale(pos, strong) / 16).clamp(-NNUE_LIMIT, NNUE_LIMIT);
    if scaled == 0 { 1 } else { scaled }
}

/// The largest score the network's evaluation gives, far below mate and rule scores.
pub const NNUE_LIMIT: Value = 10_000;

/// For the tuner: how Red's evaluation answers one centipawn more on the middlegame and on the
/// endgame square value of a Red piece, in 256ths, when `strong` leads (the taper of the
/// phase times the ending scale; a Black piece's answer is the negation).
pub fn square_sensitivity(pos: &Position, strong: Color) -> (i32, i32) {
    let phase = Accumulator::new(pos).phase.min(PHASE_MAX);
    let scale = win_scale(pos, strong);
    (phase * scale, (PHASE_MAX - phase) * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> Value {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let start = eval(crate::position::START_FEN);
        assert_eq!(start, EvalParams::DEFAULT.tempo);
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w",
            "3k5/4a4/3P5/2R1P4/9/4r4/2p6/9/4A4/4K4 w",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&pos.colour_mirror()), "{fen}");
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
    fn a_square_correction_moves_the_evaluation_as_the_tuner_expects() {
        // The tuner models a correction on one point as a linear change of Red's evaluation,
        // its size given by `square_sensitivity`; check the model against the evaluation.
        let fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w";
        let pos = Position::from_fen(fen).unwrap();
        let params = EvalParams::DEFAULT;
        let base = evaluate_tuned(&params, &SquareTable::new(&params), &pos);
        // Red's horses stand on c2 and g2 (one mirrored point); Black's on c7 and g7 are
        // the same point seen from Black.
        let point = half_point(Square::new(2, 2).index());
        assert_eq!(point, half_point(Square::new(6, 2).index()));
        let mut adjust = SQUARE_ADJUST;
        adjust[PieceKind::Horse.index()][point].0 += 64;
        adjust[PieceKind::Horse.index()][point + 20].1 += 32; // c6: no horse there
        let table = SquareTable::with_adjust(&params, &adjust);
        // Both sides' horses moved by the same amount: the balance holds.
        assert_eq!(evaluate_tuned(&params, &table, &pos), base);
        // Without Black's horses, only Red's two gain.
        let fen = "r1bakab1r/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w";
        let pos = Position::from_fen(fen).unwrap();
        let before = evaluate_tuned(&params, &SquareTable::new(&params), &pos);
        let after = evaluate_tuned(&params, &table, &pos);
        let (mg, _) = square_sensitivity(&pos, Color::Red);
        let expected = 2 * 64 * mg / 256;
        assert!(
            (after - before - expected).abs() <= 2,
            "{before} {after} {expected}"
        );
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
    fn a_hollow_cannon_is_worse_than_a_screened_one() {
        // Black's cannon faces the Red king down the e file with nothing between; then with a
        // Red pawn between them. Both are a cannon on the king's file; only one is hollow.
        let danger = |fen| {
            let pos = Position::from_fen(fen).unwrap();
            king_danger(&EvalParams::DEFAULT, &pos, Color::Red)
        };
        let hollow = danger("3k5/9/9/9/4c4/9/2P6/9/9/4K4 w");
        let screened = danger("3k5/9/9/9/4c4/9/4P4/9/9/4K4 w");
        assert_eq!(hollow - screened, EvalParams::DEFAULT.hollow_cannon);
        assert!(screened >= EvalParams::DEFAULT.cannon_on_king_file);
    }

    #[test]
    fn cannons_aiming_at_the_palace_and_raiders_press() {
        let pressure = |fen| {
            let pos = Position::from_fen(fen).unwrap();
            mobility(&EvalParams::DEFAULT, &pos, Color::Red).pressure
        };
        let p = EvalParams::DEFAULT;
        // A Red cannon aims at a Black advisor through a pawn screen; then it stands a file
        // aside with nothing to aim at.
        let aiming = pressure("3k5/4a4/9/4p4/4C4/9/9/9/9/4K4 w");
        let aside = pressure("3k5/4a4/9/4p4/3C5/9/9/9/9/4K4 w");
        assert_eq!(aiming - aside, p.cannon_pressure);
        // Two cannons across the river make a pair of raiders; one at home does not.
        let two = pressure("3k5/9/9/9/C7C/9/9/9/9/4K4 w");
        let one = pressure("3k5/9/9/9/C8/8C/9/9/9/4K4 w");
        assert_eq!(two - one, p.raiders);
    }

    #[test]
    fn threats_and_loose_pieces_count() {
        // A Black horse attacks a Red chariot, which nothing defends; the same horse one
        // step aside attacks nothing.
        let attacked = eval("3k5/9/9/9/9/9/2n6/9/1R7/4K4 w");
        let quiet = eval("3k5/9/9/9/9/9/9/2n6/1R7/4K4 w");
        assert!(quiet > attacked, "{attacked} {quiet}");
    }

    #[test]
    fn ending_scales_follow_the_known_draws() {
        let scale = |fen: &str| {
            let pos = Position::from_fen(&format!("{fen} w - - 0 1")).unwrap();
            win_scale(&pos, Color::Red)
        };
        // A lone chariot cannot break advisors and elephants all present ...
        assert_eq!(scale("2bakab2/9/9/9/9/R8/9/9/9/3K5"), 3);
        // ... but beats two advisors alone.
        assert_eq!(scale("3aka3/9/9/9/9/R8/9/9/9/3K5"), 16);
        // Chariot against chariot: the extra advisors and elephants do not attack.
        assert_eq!(scale("3k5/9/9/9/8r/R8/9/9/9/2BAKAB2"), 4);
        // A pawn up, chariot against chariot with a full palace.
        assert_eq!(scale("2bakab2/9/8r/4P4/9/R8/9/9/9/3K5"), 5);
        // A horse and two pawns against a horse and a full palace.
        assert_eq!(scale("2bakab2/9/4n4/2P3P2/9/9/9/4N4/9/3K5"), 6);
        // A lone cannon without an advisor for a screen; with one it mates a bare king.
        assert_eq!(scale("4k4/9/9/9/9/C8/9/9/9/3K5"), 2);
        assert_eq!(scale("4k4/9/9/9/9/C8/9/9/4A4/3K5"), 16);
        // A pawn on the enemy's back rank never reaches the king.
        assert_eq!(scale("P2k5/9/9/9/9/9/9/9/9/4K4"), 2);
        // Chariot and horse against a chariot, and the opening: no scaling.
        assert_eq!(scale("3k5/9/9/9/8r/RN7/9/9/9/4K4"), 16);
        assert_eq!(
            scale("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"),
            16
        );
        // Black as the stronger side is judged the same way.
        let pos = Position::from_fen("2bakab2/9/9/9/9/R8/9/9/9/3K5 w")
            .unwrap()
            .colour_mirror();
        assert_eq!(win_scale(&pos, Color::Black), 3);
    }

    #[test]
    fn cornering_counts_the_steps_taken_from_a_bare_king() {
        let p = &EvalParams::DEFAULT;
        let cornering_of = |fen: &str| {
            let pos = Position::from_fen(&format!("{fen} w - - 0 1")).unwrap();
            cornering(p, &pos, Color::Red, &mobility(p, &pos, Color::Red).attacks)
        };
        // Black's king on d9 can step to d8 and e9. Red's king on f0 takes neither ...
        let free = cornering_of("3k5/9/9/9/9/9/9/9/9/R4K3");
        // ... on e0 it faces e9 ...
        let faced = cornering_of("3k5/9/9/9/9/9/9/9/9/R3K4");
        // ... and the chariot on the eighth rank takes d8 as well.
        let shut = cornering_of("3k5/R8/9/9/9/9/9/9/9/4K4");
        assert_eq!(
            (free, faced, shut),
            (2 * p.cornering, 3 * p.cornering, 4 * p.cornering)
        );
        // Only against a side with nothing left to attack with.
        assert_eq!(cornering_of("3k5/R8/9/9/9/9/p8/9/9/4K4"), 0);
    }

    #[test]
    fn a_drawn_ending_scores_below_a_won_one() {
        // The lone chariot against the full palace (drawn) against two advisors (won).
        let drawn = eval("2bakab2/9/9/9/9/R8/9/9/9/3K5 w");
        let won = eval("3aka3/9/9/9/9/R8/9/9/9/3K5 w");
        assert!(drawn > 0 && drawn * 3 < won, "{drawn} {won}");
    }

    #[test]
    fn sides_without_attackers_cannot_win() {
        // Red has advisors and elephants only; Black a lone king: a dead draw.
        let score = eval("4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w");
        assert!(score.abs() <= EvalParams::DEFAULT.tempo, "{score}");
    }
}
