//! The static evaluation explained: the score the engine plays with, from Red's and from the
//! side to move's view, which evaluation gave it (and which net, by its hash), and what each
//! piece is worth to it, drawn on the board.
//!
//! A piece's share is the score with it minus the score with that piece taken off, both from
//! Red's view, so a Black piece that helps Black shows a negative number. A network's terms
//! are not separable, so this is the only honest per-piece figure it has; the shares do not
//! add up to the score (pieces work together), which is what the numbers are meant to show.
//! Kings have none: a position without one is no position.

use super::{Evaluator, Value, evaluate};
use crate::core::{Color, FILES, RANKS, Square};
use crate::position::Position;

/// One position's static evaluation, explained.
#[derive(Clone, Debug)]
pub struct Trace {
    /// `NNUE` or `hand-crafted`.
    pub evaluation: &'static str,
    /// The net's content hash, when a net gave the score.
    pub net_hash: Option<u64>,
    /// The score from the side to move's view, in centipawns.
    pub side_to_move: Value,
    /// The score from Red's view, in centipawns.
    pub red: Value,
    /// The hand-crafted evaluation from Red's view, for comparison when the net is in use.
    pub hand_crafted_red: Value,
    /// Every piece but the kings: its point and its share, in centipawns from Red's view.
    pub shares: Vec<(Square, Value)>,
    /// The side to move.
    pub side: Color,
    board: Position,
}

/// The score from Red's view.
fn red_view(pos: &Position, value: Value) -> Value {
    if pos.side_to_move() == Color::Red {
        value
    } else {
        -value
    }
}

/// Explains `evaluator`'s static score of `pos`.
pub fn trace(evaluator: &Evaluator, pos: &Position) -> Trace {
    let side_to_move = evaluator.evaluate(pos);
    let red = red_view(pos, side_to_move);
    let shares = pos
        .occupied()
        .into_iter()
        .filter_map(|sq| {
            let without = pos.without_piece(sq)?;
            Some((sq, red - red_view(&without, evaluator.evaluate(&without))))
        })
        .collect();
    let (name, net_hash) = match evaluator {
        Evaluator::Hce => ("hand-crafted", None),
        Evaluator::Nnue(net) => ("NNUE", Some(net.hash)),
    };
    Trace {
        evaluation: name,
        net_hash,
        side_to_move,
        red,
        hand_crafted_red: red_view(pos, evaluate(pos)),
        shares,
        side: pos.side_to_move(),
        board: pos.clone(),
    }
}

/// Centipawns as pawns with a sign: `+1.25`.
fn pawns(value: Value) -> String {
    format!("{:+.2}", f64::from(value) / 100.0)
}

impl Trace {
    /// The report, one line each: the board with every piece's share under it, then the
    /// scores.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let source = match self.net_hash {
            Some(hash) => format!("{} evaluation, net {hash:016x}", self.evaluation),
            None => format!("{} evaluation", self.evaluation),
        };
        out.push(format!(
            "Each piece's share ({source}), in pawns from Red's view: the score minus the score without it"
        ));
        let header: String = (0..FILES)
            .map(|f| format!("{:^7}", char::from(b'a' + f)))
            .collect();
        out.push(format!("   {}", header.trim_end()));
        for rank in (0..RANKS).rev() {
            let mut pieces = format!("{rank}  ");
            let mut values = String::from("   ");
            for file in 0..FILES {
                let sq = Square::new(file, rank);
                match self.board.piece_on(sq) {
                    Some(piece) => {
                        pieces.push_str(&format!("{:^7}", piece.letter()));
                        let share = self.shares.iter().find(|(s, _)| *s == sq);
                        let text = share.map_or(String::new(), |(_, v)| pawns(*v));
                        values.push_str(&format!("{text:^7}"));
                    }
                    None => {
                        pieces.push_str(&format!("{:^7}", '.'));
                        values.push_str(&" ".repeat(7));
                    }
                }
            }
            out.push(pieces.trim_end().to_string());
            out.push(values.trim_end().to_string());
        }
        let side = match self.side {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        if self.net_hash.is_some() {
            out.push(format!(
                "Hand-crafted evaluation: {} (Red's view), for comparison",
                pawns(self.hand_crafted_red)
            ));
        }
        out.push(format!(
            "Static evaluation ({source}): {} (Red's view), {} ({side} to move); cp {} and cp {}",
            pawns(self.red),
            pawns(self.side_to_move),
            self.red,
            self.side_to_move
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_agree_with_the_evaluation_and_between_views() {
        let pos = Position::from_fen(
            "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R b - - 0 1",
        )
        .unwrap();
        for evaluator in [Evaluator::Hce, Evaluator::default()] {
            let t = trace(&evaluator, &pos);
            assert_eq!(t.side_to_move, evaluator.evaluate(&pos));
            assert_eq!(t.red, -t.side_to_move, "Black to move");
            // Every piece but the two kings has a share.
            assert_eq!(t.shares.len(), pos.occupied().count() as usize - 2);
        }
    }

    #[test]
    fn a_piece_more_is_worth_a_lot_and_the_sign_follows_its_colour() {
        // Each side has a chariot (Red's on a0, Black's on i9) and nothing else: without it,
        // a side is a bare king against a chariot.
        let pos = Position::from_fen("3k4r/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
        for evaluator in [Evaluator::Hce, Evaluator::default()] {
            let t = trace(&evaluator, &pos);
            let share = |name: &str| {
                let sq = Square::parse(name).unwrap();
                t.shares.iter().find(|(s, _)| *s == sq).unwrap().1
            };
            assert!(share("a0") > 300, "{:?}", t.lines());
            assert!(share("i9") < -300, "{:?}", t.lines());
        }
    }

    #[test]
    fn the_report_names_the_net_and_draws_every_rank() {
        let pos = Position::startpos();
        let lines = trace(&Evaluator::default(), &pos).lines();
        let hash = format!("{:016x}", super::super::nnue::embedded().hash);
        assert!(lines[0].contains(&hash), "{lines:?}");
        // A title and the files, two rows per rank, then the two scores.
        assert_eq!(lines.len(), 2 + 20 + 2, "{lines:?}");
        assert!(lines.last().unwrap().starts_with("Static evaluation (NNUE"));
        let hce = trace(&Evaluator::Hce, &pos).lines();
        assert!(
            hce.last()
                .unwrap()
                .starts_with("Static evaluation (hand-crafted evaluation)")
        );
    }
}
