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
//!
//! ## How the labels were measured
//!
//! The scale was measured, not
//! guessed: the settings of `src/search/strength.rs` were played against their neighbours and
//! labelled by a least-squares fit of all those games (`scripts/strength_fit.py` over
//! `scripts/strength_games.tsv`; Elo taken as linear in the logarithm of the node budget between
//! two settings), then the labels were checked at 200-point steps with fresh games, all at
//! 2 s + 0.02 s (the levels up to 1180 have kept their settings since their games were played):
//!
//! | Step | Games, at once | W/D/L (stronger side) | Measured Elo (95%) |
//! |---|---|---|---|
//! | 200 → 400 | 300, 10 | 212/19/69 | +180 ± 43 |
//! | 400 → 600 | 300, 10 | 222/15/63 | +205 ± 45 |
//! | 600 → 800 | 300, 10 | 207/27/66 | +177 ± 42 |
//! | 800 → 1000 | 300, 10 | 219/22/59 | +207 ± 45 |
//! | 1000 → 1200 | 300, 10 | 224/34/42 | +245 ± 45 |
//! | 1200 → 1400 | 300, 8 | 194/54/52 | +179 ± 39 |
//! | 1400 → 1600 | 300, 8 | 196/57/47 | +189 ± 40 |
//! | 1600 → 1800 | 300, 8 | 192/66/42 | +191 ± 38 |
//! | 1800 → 2000 | 300, 8 | 205/65/30 | +232 ± 40 |
//! | 2000 → 2200 | 300, 4 | 192/69/39 | +196 ± 38 |
//! | 2200 → 2400 | 200, 2 | 129/45/26 | +198 ± 47 |
//! | 2400 → 2600 | 200, 2 | 137/52/11 | +258 ± 47 |
//! | 2600 → 2800 | 200, 2 | 126/62/12 | +225 ± 44 |
//! | 2800 → 3000 (full strength) | 200, 2 | 115/80/5 | +215 ± 38 |
//!
//! Every step is within ±60 of 200, and no game was lost on time. At 10 s + 0.1 s (200 games each,
//! ten at a time, no time loss) 600 → 800 measured 136/18/46, +168 ± 51, and 1400 → 1600
//! 138/32/30, +210 ± 51: the node budgets hold their strength at a longer clock (`SEED=8800
//! CONCURRENCY=10 scripts/strength_ladder.sh 200 10+0.1 "600 800"`, and the same for "1400 1600").
//! Full strength gains with time, so at longer time controls the top of the scale stands higher.
//! The node budgets above about 10,000 must have a core to themselves: with ten games on two cores
//! the clock cut the 28,000-node setting short (it measured +239 over the 10,000-node one instead
//! of +355 with the cores free), so the steps from 2000 up were played two or four games at a time
//! with nothing else running. Reproduce: `CONCURRENCY=10 scripts/strength_ladder.sh 300 2+0.02
//! "200 400 600 800 1000 1200"`, `SEED=5000 CONCURRENCY=8 … 300 2+0.02 "1200 1400 1600 1800
//! 2000"`, `SEED=5000 CONCURRENCY=4 … 300 2+0.02 "2000 2200"` and `SEED=7000 CONCURRENCY=2 … 200
//! 2+0.02 "2200 2400 2600 2800 3000"`; `scripts/strength_fit.py` refits the labels when games are
//! added to `scripts/strength_games.tsv`. **Anchor**: Fairy-Stockfish 11.1 (Debian's
//! `fairy-stockfish`, default options, UCCI) at 1 s + 0.01 s stands at about **1280** on this
//! scale: the 1180 level (600 nodes) scored 23/1/36 against it (−77 ± 92, so 1257) and the 1550
//! level (1,500 nodes) 47/2/11 (+241 ± 115, so 1309), 60 games each, weighted by their errors (`chariot match --engine
//! fsf=/usr/games/fairy-stockfish --engine-protocol fsf=ucci --option ch.UCI_LimitStrength=true
//! --option ch.UCI_Elo=1180 --tc 1+0.01 --games 60 --seed 46 …`). Its own `UCI_Elo 1350`
//! (calibrated for chess) is far weaker at xiangqi: the 909 level (250 nodes) beat it 36/0/4.
//! These games were played with the gen5 net. A stronger net plays the same node budget better
//! (gen6 scored +19 ± 27 against gen5 at 20,000 nodes, gen7 +20 ± 28 against gen6, gen8 +35 ± 28 against gen7), so the whole scale shifts up a little with each
//! net, the steps between levels much less; `scripts/strength_ladder.sh` and the anchor match
//! above re-measure it.

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
