//! Match statistics: Elo difference with a 95% error bar, likelihood of superiority, and the
//! sequential probability ratio test that decides when a match has said enough.
//!
//! Scores follow the logistic Elo model (a 100-Elo edge scores about 64%). Two models of the
//! games are kept:
//! - **Pentanomial** (the default, as fishtest and fastchess use it): every opening is played
//!   twice with colours swapped, and the unit is that *pair*, scored 0, ½, 1, 1½ or 2 points
//!   ([`Penta`]). An opening that favours one colour gives a win and a loss, or two draws:
//!   the two games of a pair are correlated (negatively, as far as strength goes), and the
//!   per-game model counts that swing as noise. The pair model sees it cancel, so its
//!   variance, error bar and SPRT are tighter on the same games. Only finished pairs count.
//! - **Trinomial** (win/draw/loss per game, [`Tally`]): needs no pairing; kept as an option
//!   and for the standings of more than two engines.
//!
//! Both error bars use the normal approximation of the mean score with the sample variance;
//! both SPRTs are the generalised SPRT on the outcome likelihoods themselves
//! ([`Sprt::llr`], [`Sprt::llr_pairs`]), which stay sound on the lopsided handful of games a
//! strong change starts with.

/// The model a match's Elo and SPRT use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Model {
    /// Pairs of games (one opening, colours swapped): five outcomes.
    #[default]
    Pentanomial,
    /// Single games: win, draw, loss.
    Trinomial,
}

impl Model {
    pub fn parse(text: &str) -> Option<Model> {
        match text.trim().to_ascii_lowercase().as_str() {
            "pentanomial" | "penta" | "5" => Some(Model::Pentanomial),
            "trinomial" | "tri" | "3" => Some(Model::Trinomial),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Model::Pentanomial => "pentanomial",
            Model::Trinomial => "trinomial",
        }
    }
}

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// A game's score, by outcome (win, draw, loss).
const GAME_SCORES: [f64; 3] = [1.0, 0.5, 0.0];

/// Two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_985;

/// Elo difference that produces expected score `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of an engine `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7): enough for LOS.
fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

impl Tally {
    /// Counts one game worth `points` (1, ½ or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, from 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Elo difference and the half-width of its 95% interval; `None` while the score is 0 or 1
    /// (the difference is unbounded then).
    pub fn elo(&self) -> Option<(f64, f64)> {
        elo_interval(&[self.wins, self.draws, self.losses], &GAME_SCORES)
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger,
    /// from wins and losses (draws say nothing about it).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }
}

/// The first engine's pairs of games by the points it scored in the pair: `counts[k]` pairs
/// brought `k/2` points (0: two losses; 1: two draws, or a win and a loss; 2: two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u64; 5],
}

/// A pair's score per game, by outcome.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Penta {
    /// Counts one pair worth `points` (0 to 2, in halves).
    pub fn add(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Points per game, from 0 to 1.
    pub fn score(&self) -> f64 {
        mean(&self.counts, &PAIR_SCORES)
    }

    /// Elo difference and the half-width of its 95% interval, from the variance of the
    /// pairs' scores; `None` while no pair is finished or the score is 0 or 1.
    pub fn elo(&self) -> Option<(f64, f64)> {
        elo_interval(&self.counts, &PAIR_SCORES)
    }
}

/// The mean of outcomes `x` seen `counts` times.
fn mean(counts: &[u64], x: &[f64]) -> f64 {
    let n = counts.iter().sum::<u64>().max(1) as f64;
    counts
        .iter()
        .zip(x)
        .map(|(&c, &x)| c as f64 * x)
        .sum::<f64>()
        / n
}

/// Elo and the half-width of its 95% interval from outcomes `x` (scores per game) seen
/// `counts` times, the unit being one outcome (a game, or a pair).
fn elo_interval(counts: &[u64], x: &[f64]) -> Option<(f64, f64)> {
    let n = counts.iter().sum::<u64>();
    let s = mean(counts, x);
    if n == 0 || s <= 0.0 || s >= 1.0 {
        return None;
    }
    let variance = counts
        .iter()
        .zip(x)
        .map(|(&c, &x)| c as f64 * (x - s).powi(2))
        .sum::<f64>()
        / n as f64;
    let margin = Z95 * (variance / n as f64).sqrt();
    let low = (s - margin).max(1e-9);
    let high = (s + margin).min(1.0 - 1e-9);
    Some((
        elo_from_score(s),
        (elo_from_score(high) - elo_from_score(low)) / 2.0,
    ))
}

/// A sequential probability ratio test of H0: elo = `elo0` against H1: elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: the change gains at least `elo1`.
    AcceptH1,
    /// H0 accepted: the change does not gain `elo1` (it is at most `elo0`).
    AcceptH0,
    Continue,
}

impl Sprt {
    /// The log-likelihood ratio of the games so far: the generalised SPRT on the
    /// win/draw/loss (trinomial) model. Under each hypothesis the outcome probabilities are
    /// the maximum-likelihood ones whose expected score is that hypothesis's score; the LLR
    /// is the log-likelihood of the games under H1's probabilities minus under H0's.
    ///
    /// The frequencies the probabilities are fitted to count one extra win, draw and loss:
    /// with no draws or no losses yet no distribution of the observed outcomes has the
    /// hypothesis's score. That prior weighs nothing after a few hundred games. (The normal
    /// approximation with the sample variance, used before, accepted H1 after 5 wins and a
    /// draw: near-zero variance makes it explode on lopsided starts.)
    pub fn llr(&self, tally: &Tally) -> f64 {
        let counts = [tally.wins, tally.draws, tally.losses];
        self.gsprt(&counts, &GAME_SCORES, 1.0)
    }

    /// The log-likelihood ratio of the finished pairs: the same generalised SPRT on the
    /// pentanomial model. The frequencies count half a pair more of each outcome (two and a
    /// half pairs in all, five games: about the trinomial prior's weight in games).
    pub fn llr_pairs(&self, penta: &Penta) -> f64 {
        self.gsprt(&penta.counts, &PAIR_SCORES, 0.5)
    }

    /// The GSPRT's LLR for outcomes with scores `x` seen `counts` times, each count raised
    /// by `prior` when the frequencies are fitted.
    fn gsprt<const N: usize>(&self, counts: &[u64; N], x: &[f64; N], prior: f64) -> f64 {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return 0.0;
        }
        let total = n as f64 + prior * N as f64;
        let freq = counts.map(|c| (c as f64 + prior) / total);
        let p0 = constrained_mle(freq, x, score_from_elo(self.elo0));
        let p1 = constrained_mle(freq, x, score_from_elo(self.elo1));
        (0..N)
            .filter(|&i| counts[i] > 0)
            .map(|i| counts[i] as f64 * (p1[i] / p0[i]).ln())
            .sum()
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        self.verdict_of(self.llr(tally))
    }

    /// What an LLR says against this test's bounds.
    pub fn verdict_of(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// The outcome probabilities closest (in likelihood) to the frequencies `freq` whose
/// expected score is `score`, for outcomes worth `x`: `p_i = f_i / (1 + λ (x_i − score))`
/// with λ the root of `Σ f_i (x_i − score) / (1 + λ (x_i − score)) = 0`, found by bisection
/// (the sum falls as λ rises, and λ must keep every denominator positive).
fn constrained_mle<const N: usize>(freq: [f64; N], x: &[f64; N], score: f64) -> [f64; N] {
    let score = score.clamp(1e-9, 1.0 - 1e-9);
    let sum = |lambda: f64| -> f64 {
        (0..N)
            .map(|i| freq[i] * (x[i] - score) / (1.0 + lambda * (x[i] - score)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - score), 1.0 / score);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if sum(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    std::array::from_fn(|i| freq[i] / (1.0 + lambda * (x[i] - score)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    // Reference values computed independently (Python, math module) from the same textbook
    // formulas: logistic Elo, trinomial variance, normal quantile 1.959964, LOS with erf.

    #[test]
    fn elo_and_error_bar() {
        let t = tally(60, 20, 20);
        let (elo, err) = t.elo().unwrap();
        assert!(close(elo, 147.1907, 1e-3), "{elo}");
        assert!(close(err, 66.0134, 1e-3), "{err}");
        let t = tally(1200, 1500, 1100);
        let (elo, err) = t.elo().unwrap();
        assert!(close(elo, 9.1452, 1e-3), "{elo}");
        assert!(close(err, 8.5969, 1e-3), "{err}");
        assert!(close(score_from_elo(elo_from_score(0.37)), 0.37, 1e-12));
        assert!(close(score_from_elo(100.0), 0.6400649998, 1e-9));
        assert_eq!(tally(3, 0, 0).elo(), None);
    }

    #[test]
    fn likelihood_of_superiority() {
        assert!(close(tally(60, 20, 20).los(), 0.9999961, 1e-6));
        assert!(close(tally(1200, 1500, 1100).los(), 0.9814719, 1e-6));
        assert!(close(tally(5, 9, 5).los(), 0.5, 1e-8));
    }

    #[test]
    fn sprt_log_likelihood_ratio() {
        let sprt = sprt(0.0, 5.0);
        let llr = sprt.llr(&tally(60, 20, 20));
        assert!(close(llr, 0.7073337, 1e-6), "{llr}");
        let llr = sprt.llr(&tally(1200, 1500, 1100));
        assert!(close(llr, 1.7278281, 1e-6), "{llr}");
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944439, 1e-6) && close(upper, 2.944439, 1e-6));
        assert_eq!(
            sprt.verdict(&tally(1200, 1500, 1100)),
            SprtVerdict::Continue
        );
        let strong = tally(2400, 3000, 2000);
        assert_eq!(sprt.verdict(&strong), SprtVerdict::AcceptH1);
        let weak = tally(2000, 3000, 2400);
        assert_eq!(sprt.verdict(&weak), SprtVerdict::AcceptH0);
    }

    // Reference values for the pentanomial model computed independently in Python: the
    // interval from the pair scores' sample variance, and the LLR with each hypothesis's
    // constrained maximum-likelihood probabilities found by scipy's SLSQP optimiser.

    #[test]
    fn pentanomial_elo_and_error_bar() {
        let p = Penta {
            counts: [10, 30, 50, 40, 20],
        };
        let (elo, err) = p.elo().unwrap();
        assert!(close(elo, 34.86007, 1e-4), "{elo}");
        assert!(close(err, 31.18704, 1e-4), "{err}");
        let p = Penta {
            counts: [100, 400, 900, 450, 110],
        };
        let (elo, err) = p.elo().unwrap();
        assert!(close(elo, 6.204866, 1e-4), "{elo}");
        assert!(close(err, 7.139337, 1e-4), "{err}");
        assert_eq!(p.pairs(), 1960);
        // Every pair level: no spread at all.
        assert_eq!(
            Penta {
                counts: [0, 0, 9, 0, 0]
            }
            .elo(),
            Some((0.0, 0.0))
        );
        assert_eq!(
            Penta {
                counts: [0, 0, 0, 0, 4]
            }
            .elo(),
            None
        );
        let mut q = Penta::default();
        for points in [0.0, 0.5, 1.0, 1.5, 2.0, 1.0] {
            q.add(points);
        }
        assert_eq!(q.counts, [1, 1, 2, 1, 1]);
    }

    #[test]
    fn pentanomial_sprt_log_likelihood_ratio() {
        let penta = |counts| Penta { counts };
        let llr = sprt(0.0, 5.0).llr_pairs(&penta([10, 30, 50, 40, 20]));
        assert!(close(llr, 0.6358859, 1e-4), "{llr}");
        let llr = sprt(0.0, 5.0).llr_pairs(&penta([100, 400, 900, 450, 110]));
        assert!(close(llr, 1.3949587, 1e-4), "{llr}");
        let llr = sprt(0.0, 50.0).llr_pairs(&penta([100, 400, 900, 450, 110]));
        assert!(close(llr, -68.0248, 1e-2), "{llr}");
        // Three pairs of which two were won twice: not enough to decide (50, 150).
        let few = penta([0, 0, 1, 2, 3]);
        let llr = sprt(50.0, 150.0).llr_pairs(&few);
        assert!(close(llr, 1.3286572, 1e-4), "{llr}");
        assert_eq!(sprt(50.0, 150.0).verdict_of(llr), SprtVerdict::Continue);
        assert_eq!(Model::parse("Trinomial"), Some(Model::Trinomial));
        assert_eq!(Model::parse("penta"), Some(Model::Pentanomial));
        assert_eq!(Model::parse("binomial"), None);
    }

    #[test]
    fn sprt_does_not_stop_on_a_handful_of_games() {
        // 5 wins and a draw: the normal approximation (sample variance 0.035) gave an LLR
        // of 6.4 and accepted H1 at once; the trinomial GSPRT gives 1.28 and goes on, and
        // 8 wins in a row (1.74) do not decide either.
        let sprt = sprt(50.0, 150.0);
        let few = tally(5, 1, 0);
        assert!(close(sprt.llr(&few), 1.2823322, 1e-6), "{}", sprt.llr(&few));
        assert_eq!(sprt.verdict(&few), SprtVerdict::Continue);
        let straight = tally(8, 0, 0);
        assert!(close(sprt.llr(&straight), 1.7407716, 1e-6));
        assert_eq!(sprt.verdict(&straight), SprtVerdict::Continue);
        // The same proportions over 60 games decide.
        let many = tally(50, 10, 0);
        assert_eq!(sprt.verdict(&many), SprtVerdict::AcceptH1);
    }
}
