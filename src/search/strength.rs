//! Playing levels: a weaker Chariot for people to play, set by one number on an Elo scale
//! (`UCI_Elo` with `UCI_LimitStrength`, or `Skill Level` 0–20 on the same scale).
//!
//! A level weakens the engine the way a weaker player is weak, not by throwing pieces now and
//! then: it searches fewer nodes (so it sees fewer tactics, and none far ahead), and at the
//! lower levels it chooses among its best few root moves with a probability that falls with
//! how much worse each looks (a softmax at a temperature in centipawns), never one that looks
//! more than a few temperatures worse than the best. A single thread searches, so with a
//! fixed `Random Seed` a game replays exactly; with none, each game varies.
//!
//! The levels are points on a measured curve: `LEVELS` lists the settings whose strength was
//! measured against each other (README, "Playing levels": the ladder and how to reproduce it), and
//! an Elo in between takes the settings between its neighbours (nodes geometrically,
//! temperature linearly). From 250 nodes up the labels are a least-squares fit of every match
//! recorded in `scripts/strength_games.tsv`, Elo taken as linear in the logarithm of the node
//! budget between two settings (`scripts/strength_fit.py`, which CI runs to check that the
//! labels here are still the fit). The top of the scale, `MAX_ELO`, is full strength.
//!
//! A limited engine still uses its clock as a person expects: it thinks at least a share of
//! the time the clock would give a full-strength move (`THINK_SHARE`), never instantly, and
//! still answers `stop` at once and never loses on time.

use super::{INFINITE, MATE_BOUND, RootMove};
use crate::eval::Value;

/// The lowest rating a level plays at.
pub const MIN_ELO: i32 = 200;
/// The rating of full strength (the top of the scale).
pub const MAX_ELO: i32 = 3000;
/// `Skill Level`'s range: 0 is `MIN_ELO`, 20 full strength.
pub const MAX_SKILL: i32 = 20;
/// The share of the clock's soft limit a limited engine thinks at least.
pub const THINK_SHARE: f64 = 0.5;
/// What full strength searches per move at the scale's time control (2 s + 0.02 s, one
/// thread: between about 250,000 and 600,000 nodes), as a multiple of the strongest measured
/// node budget; the levels between that budget and full strength interpolate up to it, so
/// that the scale has no jump at its top.
const FULL_NODES_FACTOR: u64 = 4;
/// Root moves a level with a temperature chooses among.
const CANDIDATES: usize = 8;
/// No move more than this many temperatures worse than the best is ever chosen.
const MAX_LOSS_IN_TEMPERATURES: i32 = 4;

/// The measured settings, weakest first: (Elo, nodes per root line, temperature in
/// centipawns). A level with a temperature ranks `CANDIDATES` root lines, and searches that
/// many times the nodes.
const LEVELS: [(i32, u64, Value); 13] = [
    (MIN_ELO, 100, 300),
    (360, 100, 190),
    (505, 100, 120),
    (628, 100, 70),
    (796, 100, 35),
    (909, 250, 0),
    (1180, 600, 0),
    (1550, 1_500, 0),
    (1905, 4_000, 0),
    (2221, 10_000, 0),
    (2550, 28_000, 0),
    (2825, 84_000, 0),
    (MAX_ELO, u64::MAX, 0),
];

/// How one level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub elo: i32,
    /// Nodes per root line ranked (`lines`); the search's budget is `nodes()`.
    pub nodes_per_line: u64,
    /// The softmax temperature of the root choice, in centipawns (0: always the best).
    pub temperature: Value,
    /// What makes the choice repeatable: `Random Seed` (or a fresh number per game) mixed
    /// with the position.
    pub seed: u64,
}

impl Level {
    /// The level for a rating (brought into `MIN_ELO..=MAX_ELO`); `None` at full strength.
    pub fn from_elo(elo: i32, seed: u64) -> Option<Level> {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        if elo >= MAX_ELO {
            return None;
        }
        let upper = LEVELS
            .iter()
            .position(|l| l.0 > elo)
            .unwrap_or(LEVELS.len() - 1);
        let (lo, hi) = (LEVELS[upper - 1], LEVELS[upper]);
        let t = f64::from(elo - lo.0) / f64::from(hi.0 - lo.0);
        // The last measured level below full strength is approached geometrically too, with
        // full strength's nodes taken as `FULL_NODES_FACTOR` times the level below it.
        let hi_nodes = if hi.1 == u64::MAX {
            lo.1 * FULL_NODES_FACTOR
        } else {
            hi.1
        };
        let nodes = (lo.1 as f64).powf(1.0 - t) * (hi_nodes as f64).powf(t);
        let temperature = f64::from(lo.2) * (1.0 - t) + f64::from(hi.2) * t;
        Some(Level {
            elo,
            nodes_per_line: nodes.round() as u64,
            temperature: temperature.round() as Value,
            seed,
        })
    }

    /// The rating `Skill Level` stands for.
    pub fn skill_elo(skill: i32) -> i32 {
        MIN_ELO + skill.clamp(0, MAX_SKILL) * (MAX_ELO - MIN_ELO) / MAX_SKILL
    }

    /// The node budget of one move.
    pub fn nodes(&self) -> u64 {
        self.nodes_per_line * self.lines() as u64
    }

    /// How many root lines the search must rank for the choice.
    pub fn lines(&self) -> usize {
        if self.temperature > 0 { CANDIDATES } else { 1 }
    }

    /// Picks a line among `lines` (the root moves, best first, as searched) for the
    /// position with key `key`: the best, or with a temperature a softmax draw among the
    /// searched candidates not too far below it. A mate found is always played.
    pub fn choose(&self, lines: &[RootMove], key: u64) -> usize {
        let known: Vec<(usize, Value)> = lines
            .iter()
            .take(CANDIDATES)
            .enumerate()
            .map(|(i, rm)| (i, rm.value))
            .filter(|&(_, v)| v > -INFINITE)
            .collect();
        let Some(&(_, best)) = known.first() else {
            return 0;
        };
        if self.temperature <= 0 || best >= MATE_BOUND {
            return 0;
        }
        let floor = best - MAX_LOSS_IN_TEMPERATURES * self.temperature;
        let weights: Vec<(usize, f64)> = known
            .iter()
            .filter(|&&(_, v)| v >= floor && v > -MATE_BOUND)
            .map(|&(i, v)| (i, (f64::from(v - best) / f64::from(self.temperature)).exp()))
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        let mut draw = unit(mix(self.seed ^ key)) * total;
        for &(i, w) in &weights {
            if draw < w {
                return i;
            }
            draw -= w;
        }
        0
    }
}

/// A well-mixed 64-bit number from another (SplitMix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A number in [0, 1) from 64 random bits.
fn unit(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Move;

    fn line(mv: &str, value: Value) -> RootMove {
        let mv = Move::parse_iccs(mv).unwrap();
        RootMove {
            mv,
            value,
            previous_value: value,
            depth: 1,
            seldepth: 1,
            pv: vec![mv],
            nodes: 0,
        }
    }

    #[test]
    fn the_scale_runs_from_weak_to_full_strength() {
        assert_eq!(Level::from_elo(MAX_ELO, 1), None);
        assert_eq!(Level::from_elo(5000, 1), None);
        let bottom = Level::from_elo(0, 1).unwrap();
        assert_eq!(bottom.elo, MIN_ELO);
        // Nodes grow and the temperature falls with the rating.
        let mut last = bottom;
        for elo in (MIN_ELO + 50..MAX_ELO).step_by(50) {
            let level = Level::from_elo(elo, 1).unwrap();
            assert!(level.nodes_per_line >= last.nodes_per_line, "{elo}");
            assert!(level.temperature <= last.temperature, "{elo}");
            last = level;
        }
        assert_eq!(Level::skill_elo(0), MIN_ELO);
        assert_eq!(Level::skill_elo(MAX_SKILL), MAX_ELO);
        assert_eq!(Level::skill_elo(10), (MIN_ELO + MAX_ELO) / 2);
    }

    #[test]
    fn the_choice_is_repeatable_varied_and_never_far_from_the_best() {
        let lines = [
            line("h2e2", 40),
            line("b2e2", 30),
            line("c3c4", 10),
            line("b0c2", -20),
            line("a3a4", -900),
        ];
        let level = Level::from_elo(410, 7).unwrap();
        let mut counts = [0; 5];
        for key in 0..2000u64 {
            let pick = level.choose(&lines, key);
            assert_eq!(pick, level.choose(&lines, key), "repeatable");
            counts[pick] += 1;
        }
        // Every plausible move is played sometimes, the best most; the blunder never.
        assert!(counts[0] > counts[1] && counts[1] > counts[3], "{counts:?}");
        assert!(counts[3] > 0, "{counts:?}");
        assert_eq!(counts[4], 0, "{counts:?}");
        // A strong level without temperature, or a mate, always takes the best.
        let strong = Level::from_elo(2500, 7).unwrap();
        assert!((0..200).all(|key| strong.choose(&lines, key) == 0));
        let mate = [line("h2e2", MATE_BOUND + 5), line("b2e2", 30)];
        assert!((0..200).all(|key| level.choose(&mate, key) == 0));
    }
}
