//! Match statistics: Elo difference with a 95% error bar, likelihood of superiority, and the
//! sequential probability ratio test that decides when a match has said enough.
//!
//! Scores follow the logistic Elo model (a 100-Elo edge scores about 64%). The error bar uses
//! the trinomial (win/draw/loss) variance of the per-game score with the normal
//! approximation; the SPRT uses the trinomial likelihoods themselves ([`Sprt::llr`]), which
//! stay sound on the lopsided handful of games a strong change starts with.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

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

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference and the half-width of its 95% interval; `None` while the score is 0 or 1
    /// (the difference is unbounded then).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let s = self.score();
        if self.games() == 0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let margin = Z95 * (self.variance() / self.games() as f64).sqrt();
        let low = (s - margin).max(1e-9);
        let high = (s + margin).min(1.0 - 1e-9);
        Some((
            elo_from_score(s),
            (elo_from_score(high) - elo_from_score(low)) / 2.0,
        ))
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
        if tally.games() == 0 {
            return 0.0;
        }
        let counts = [tally.wins as f64, tally.draws as f64, tally.losses as f64];
        let total = tally.games() as f64 + 3.0;
        let freq = counts.map(|c| (c + 1.0) / total);
        let p0 = constrained_mle(freq, score_from_elo(self.elo0));
        let p1 = constrained_mle(freq, score_from_elo(self.elo1));
        (0..3)
            .filter(|&i| counts[i] > 0.0)
            .map(|i| counts[i] * (p1[i] / p0[i]).ln())
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
        let llr = self.llr(tally);
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

/// The win/draw/loss probabilities closest (in likelihood) to the frequencies `freq` whose
/// expected score is `score`: `p_i = f_i / (1 + λ (x_i − score))` with λ the root of
/// `Σ f_i (x_i − score) / (1 + λ (x_i − score)) = 0`, found by bisection (the sum falls as
/// λ rises, and λ must keep every denominator positive).
fn constrained_mle(freq: [f64; 3], score: f64) -> [f64; 3] {
    const X: [f64; 3] = [1.0, 0.5, 0.0];
    let score = score.clamp(1e-9, 1.0 - 1e-9);
    let sum = |lambda: f64| -> f64 {
        (0..3)
            .map(|i| freq[i] * (X[i] - score) / (1.0 + lambda * (X[i] - score)))
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
    std::array::from_fn(|i| freq[i] / (1.0 + lambda * (X[i] - score)))
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
