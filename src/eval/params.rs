//! Every weight of the hand-crafted evaluation, in one list (`eval_params!`): the engine's
//! defaults and the names and handles the tuner (`examples/tune_eval.rs`) walks.

use super::Value;

/// Declares `EvalParams` from a list of named weights: the struct, its defaults (what the
/// engine plays with) and the names and handles the tuner (`examples/tune_eval.rs`) walks.
macro_rules! eval_params {
    ($( $(#[$doc:meta])* $name:ident: $value:expr, )*) => {
        /// Every weight of the evaluation, in centipawns.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct EvalParams {
            $( $(#[$doc])* pub $name: Value, )*
        }

        impl EvalParams {
            pub const DEFAULT: EvalParams = EvalParams { $( $name: $value, )* };

            /// The weights' names, in declaration order.
            pub const NAMES: &'static [&'static str] = &[ $( stringify!($name), )* ];

            /// The weights in declaration order, to change one at a time.
            pub fn values_mut(&mut self) -> Vec<&mut Value> {
                vec![ $( &mut self.$name, )* ]
            }
        }
    };
}

eval_params! {
    /// Material, middlegame and endgame (the cannon is worth more with many pieces on the
    /// board, the horse more in the endgame).
    advisor_mg: 120,
    advisor_eg: 120,
    elephant_mg: 120,
    elephant_eg: 120,
    horse_mg: 560,
    horse_eg: 415,
    chariot_mg: 1260,
    chariot_eg: 1274,
    cannon_mg: 658,
    cannon_eg: 435,
    pawn_mg: 140,
    pawn_eg: 138,
    /// Pawns: on the own river bank; across the river (base, per file toward the centre,
    /// per rank of advance); on the last rank, where they can only step sideways.
    pawn_river_bank: 30,
    pawn_crossed_mg: 98,
    pawn_crossed_eg: 96,
    pawn_centre_mg: 32,
    pawn_centre_eg: 10,
    pawn_advance_mg: 32,
    pawn_advance_eg: 0,
    pawn_last_rank_mg: 84,
    pawn_last_rank_eg: 30,
    /// Horses: per file toward the centre, in the enemy half or near it, on an edge file, on
    /// the home rank.
    horse_centre_mg: 12,
    horse_centre_eg: -15,
    horse_forward: 34,
    horse_midfield: 26,
    horse_edge: 8,
    horse_home: -28,
    /// Chariots: across the river, on the enemy's third and fourth ranks, on the d and f
    /// files; the endgame base.
    chariot_crossed: 30,
    chariot_deep: 28,
    chariot_open_lane: -14,
    chariot_base_eg: 23,
    /// Cannons: on the central file, on their home rank, on the enemy's back rank.
    cannon_central: 42,
    cannon_home: 10,
    cannon_bottom: 30,
    /// Advisors and elephants on the central file.
    defender_middle: 24,
    /// The king: per rank raised, off the central file.
    king_raised: -32,
    king_aside: -13,
    /// Mobility per reachable point.
    chariot_mobility: 17,
    horse_mobility: 26,
    cannon_mobility: 1,
    /// King safety: per missing advisor and elephant (scaled by the enemy attackers), an
    /// enemy cannon on the king's file, and (middlegame) per enemy palace point a chariot or
    /// horse attacks.
    missing_advisor: 42,
    missing_elephant: 36,
    cannon_on_king_file: 45,
    palace_pressure: 26,
    /// (Middlegame) per enemy palace point a cannon aims at through one screen.
    cannon_pressure: 60,
    /// (Middlegame) attackers across the river: per pair of chariots, horses and cannons in
    /// the enemy half (a lone raider is easy to meet; several together break a palace).
    raiders: 60,
    /// An enemy cannon facing the king with nothing between them (a "hollow cannon"): any
    /// piece that steps in becomes its screen and gives check.
    hollow_cannon: 120,
    /// Threats, per piece: a horse or cannon attacked by a pawn, advisor or elephant, and
    /// any piece but the king attacked and not defended.
    threat_on_minor: 40,
    hanging: 52,
    /// Against a side with nothing left to attack with: per step of its king (of four)
    /// that is blocked, attacked or faced by the other king.
    cornering: 30,
    /// Having the move.
    tempo: 10,
}
