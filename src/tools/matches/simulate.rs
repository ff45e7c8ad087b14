//! Simulated matches between engines of a known strength difference, to show what the
//! pentanomial model gains over the trinomial one on the same games: a narrower error bar
//! and an SPRT that stops sooner, with the same error rates.
//!
//! The model of a game: the first engine's edge is `elo`, plus or minus the opening's
//! colour bias (`bias`: one draw per opening from a normal distribution, added when the
//! first engine has Red and subtracted when it has Black), and the outcome follows the
//! BayesElo draw model (`draw_elo`: the larger, the more draws). That is how real paired
//! games behave: openings are not equal, and the swing they cause cancels within a pair,
//! which the pentanomial model sees and the trinomial one counts as noise.

use super::stats::{Penta, Sprt, SprtVerdict, Tally, elo_from_score};
use crate::tools::rng::Rng;

/// The world the games are drawn from.
#[derive(Clone, Copy, Debug)]
pub struct World {
    /// The first engine's edge in the BayesElo model's own scale.
    pub elo: f64,
    /// The standard deviation of an opening's edge for Red, in the same scale.
    pub bias: f64,
    pub draw_elo: f64,
}

/// One game's points for the first engine with edge `d`.
fn game(rng: &mut Rng, d: f64, draw_elo: f64) -> f64 {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - d) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + d) / 400.0));
    let u = f64::from(rng.unit());
    if u < win {
        1.0
    } else if u < win + loss {
        0.0
    } else {
        0.5
    }
}

/// A standard normal number (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u1 = (f64::from(rng.unit())).max(1e-12);
    let u2 = f64::from(rng.unit());
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

impl World {
    /// One pair of games (one opening, colours swapped): the first engine's two results.
    pub fn pair(&self, rng: &mut Rng) -> [f64; 2] {
        let b = self.bias * normal(rng);
        [
            game(rng, self.elo + b, self.draw_elo),
            game(rng, self.elo - b, self.draw_elo),
        ]
    }

    /// The first engine's true edge as logistic Elo (what a match estimates), measured over
    /// `pairs` simulated pairs.
    pub fn logistic_elo(&self, pairs: u64, seed: u64) -> f64 {
        let mut rng = Rng::new(seed);
        let points: f64 = (0..pairs)
            .map(|_| self.pair(&mut rng).iter().sum::<f64>())
            .sum();
        elo_from_score(points / (2 * pairs) as f64)
    }
}

/// Both models' 95% error bars on the same `pairs` pairs of games.
pub fn error_bars(world: &World, pairs: u64, seed: u64) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let (mut tally, mut penta) = (Tally::default(), Penta::default());
    for _ in 0..pairs {
        let [a, b] = world.pair(&mut rng);
        tally.add(a);
        tally.add(b);
        penta.add(a + b);
    }
    (
        tally.elo().map_or(f64::NAN, |e| e.1),
        penta.elo().map_or(f64::NAN, |e| e.1),
    )
}

/// How one SPRT run ended: after how many games, and which way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stop {
    pub games: u64,
    pub verdict: SprtVerdict,
}

/// Runs the SPRT on one stream of games under both models at once (the same games): the
/// trinomial test looks after every game, the pentanomial one after every pair. Each stops
/// where it decides, or at `max_games` (`Continue`).
pub fn sprt_run(world: &World, sprt: &Sprt, max_games: u64, seed: u64) -> (Stop, Stop) {
    let mut rng = Rng::new(seed);
    let (mut tally, mut penta) = (Tally::default(), Penta::default());
    let mut tri: Option<Stop> = None;
    let mut pent: Option<Stop> = None;
    let mut games = 0;
    while games < max_games && (tri.is_none() || pent.is_none()) {
        let [a, b] = world.pair(&mut rng);
        for points in [a, b] {
            tally.add(points);
            games += 1;
            if tri.is_none() {
                let verdict = sprt.verdict(&tally);
                if verdict != SprtVerdict::Continue {
                    tri = Some(Stop { games, verdict });
                }
            }
        }
        penta.add(a + b);
        if pent.is_none() {
            let verdict = sprt.verdict_of(sprt.llr_pairs(&penta));
            if verdict != SprtVerdict::Continue {
                pent = Some(Stop { games, verdict });
            }
        }
    }
    let open = Stop {
        games,
        verdict: SprtVerdict::Continue,
    };
    (tri.unwrap_or(open), pent.unwrap_or(open))
}

/// What many SPRT runs came to under one model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    pub runs: u64,
    pub mean_games: f64,
    pub accepted_h1: u64,
    pub undecided: u64,
}

/// `runs` SPRT runs on independent streams: the trinomial and the pentanomial summaries.
pub fn sprt_runs(
    world: &World,
    sprt: &Sprt,
    runs: u64,
    max_games: u64,
    seed: u64,
) -> (Summary, Summary) {
    let mut out = [Summary::default(); 2];
    for run in 0..runs {
        let (tri, pent) = sprt_run(world, sprt, max_games, Rng::derive(seed, run));
        for (summary, stop) in out.iter_mut().zip([tri, pent]) {
            summary.runs += 1;
            summary.mean_games += stop.games as f64;
            summary.accepted_h1 += u64::from(stop.verdict == SprtVerdict::AcceptH1);
            summary.undecided += u64::from(stop.verdict == SprtVerdict::Continue);
        }
    }
    for summary in &mut out {
        summary.mean_games /= summary.runs.max(1) as f64;
    }
    (out[0], out[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORLD: World = World {
        elo: 40.0,
        bias: 250.0,
        draw_elo: 200.0,
    };

    #[test]
    fn the_pentanomial_error_bar_is_narrower_on_the_same_games() {
        for seed in 1..=5 {
            let (tri, penta) = error_bars(&WORLD, 500, seed);
            assert!(penta < tri * 0.92, "seed {seed}: {penta} against {tri}");
        }
        // With no colour bias the pairs are independent games: the two agree closely.
        let fair = World { bias: 0.0, ..WORLD };
        let (tri, penta) = error_bars(&fair, 2000, 7);
        assert!((penta / tri - 1.0).abs() < 0.05, "{penta} against {tri}");
    }

    #[test]
    fn the_pentanomial_sprt_stops_sooner_with_the_same_verdicts() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // The world's logistic Elo sits at H1's 30.
        let world = World { elo: 49.0, ..WORLD };
        let truth = world.logistic_elo(200_000, 3);
        assert!((truth - 30.0).abs() < 5.0, "{truth}");
        let (tri, penta) = sprt_runs(&world, &sprt, 60, 100_000, 11);
        assert!(
            penta.mean_games < 0.9 * tri.mean_games,
            "{penta:?} against {tri:?}"
        );
        assert!(
            penta.accepted_h1 >= 50 && tri.accepted_h1 >= 50,
            "{penta:?} {tri:?}"
        );
        assert_eq!(penta.undecided + tri.undecided, 0);
    }
}
