//! How much of each position's training target is its game's result (λ), the rest being
//! its search score.
//!
//! A game's result says more about a position the nearer that position is to the end: a
//! result decided a hundred plies later is mostly the work of moves not yet played, while the
//! search score is as good (or as shallow) at every ply. So λ may fade with the distance to
//! the game's end: `near` at the last position kept, falling linearly to the usual `lambda`
//! over `plies` plies, and `lambda` from there on. Without `near` every position has
//! `lambda`, and the target is the one every earlier net was trained on.
//!
//! The data keeps no game boundaries, but games are written whole and each position carries
//! its game ply, which rises through a game; so a game ends where the next position's ply is
//! not above its own (or the data ends). The distance to the end is the ply difference to
//! the last position kept of that game; the game's last plies (a capture, a check, a mate
//! score) are not kept, so that distance counts from a few plies before the real end.

use crate::tools::datagen::format::Record;

/// λ, the result's share of the target, for every position of one data set.
#[derive(Clone, Debug)]
pub struct ResultWeight {
    lambda: f32,
    /// `(λ at the end, plies to fade over, plies to the end of each position)`; `None`: the
    /// same λ everywhere.
    fade: Option<(f32, u32, Vec<u16>)>,
}

impl ResultWeight {
    /// The same λ for every position.
    pub fn constant(lambda: f32) -> ResultWeight {
        ResultWeight { lambda, fade: None }
    }

    /// λ `near` at the end of each game of `records`, fading to `lambda` over `plies`.
    pub fn fading(records: &[Record], lambda: f32, near: f32, plies: u32) -> ResultWeight {
        ResultWeight {
            lambda,
            fade: Some((near, plies.max(1), plies_to_end(records))),
        }
    }

    /// λ of the position at index `i` of the records this was made for.
    #[inline]
    pub fn at(&self, i: usize) -> f32 {
        match &self.fade {
            None => self.lambda,
            Some((near, plies, to_end)) => {
                let d = u32::from(to_end[i]).min(*plies) as f32 / *plies as f32;
                near + (self.lambda - near) * d
            }
        }
    }

    /// The mean λ over the positions (what the target weighs the results by on average).
    pub fn mean(&self) -> f32 {
        match &self.fade {
            None => self.lambda,
            Some((_, _, to_end)) => {
                let sum: f64 = (0..to_end.len()).map(|i| self.at(i) as f64).sum();
                (sum / to_end.len().max(1) as f64) as f32
            }
        }
    }
}

/// For each record, how many plies its game went on past it (to the last record of the
/// game), a game ending where the next record's ply does not rise.
pub fn plies_to_end(records: &[Record]) -> Vec<u16> {
    let mut out = vec![0u16; records.len()];
    let mut end_ply = 0u32;
    for i in (0..records.len()).rev() {
        let ply = records[i].ply();
        let last_of_game = records.get(i + 1).is_none_or(|next| next.ply() <= ply);
        if last_of_game {
            end_ply = ply;
        }
        out[i] = end_ply.saturating_sub(ply).min(u32::from(u16::MAX)) as u16;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::tools::datagen::format::Outcome;

    fn at_ply(ply: u32) -> Record {
        Record::new(&Position::startpos(), 0, Outcome::Draw, ply)
    }

    #[test]
    fn games_end_where_the_ply_stops_rising() {
        // Two games: plies 10, 11, 14 and 9, 12, 30; then a one-position game at 30.
        let records: Vec<Record> = [10, 11, 14, 9, 12, 30, 30]
            .into_iter()
            .map(at_ply)
            .collect();
        assert_eq!(plies_to_end(&records), vec![4, 3, 0, 21, 18, 0, 0]);
        assert!(plies_to_end(&[]).is_empty());
    }

    #[test]
    fn lambda_fades_from_the_end_to_the_usual_weight() {
        let records: Vec<Record> = [0, 50, 100, 150, 200].into_iter().map(at_ply).collect();
        let w = ResultWeight::fading(&records, 0.2, 0.6, 100);
        let got: Vec<f32> = (0..5).map(|i| w.at(i)).collect();
        for (g, want) in got.iter().zip([0.2, 0.2, 0.2, 0.4, 0.6]) {
            assert!((g - want).abs() < 1e-6, "{got:?}");
        }
        assert!((w.mean() - 0.32).abs() < 1e-6, "{}", w.mean());
        let same = ResultWeight::constant(0.3);
        assert_eq!(same.at(3), 0.3);
        assert_eq!(same.mean(), 0.3);
    }
}
