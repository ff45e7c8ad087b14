//! The neural evaluation (NNUE): an efficiently updatable network, in integers.
//!
//! Shape (see `nnue-data/README.md` for the nets and how each was chosen):
//! - **Inputs**: for each perspective (Red's and Black's view), one binary feature per
//!   (king bucket, colour relative to the perspective, piece kind, point): `KING_BUCKETS` ×
//!   2 × 7 × 90. Black's view flips ranks (rank r becomes 9 − r), so "my pieces advance
//!   upward" holds for both and one weight matrix serves both views. With 6 buckets
//!   (`king_buckets!`), the bucket is where the perspective's own king stands in its palace:
//!   its rank (3) and whether it is on the middle file (2); a king on the right-hand file
//!   sees the board mirrored left to right (xiangqi is symmetric so), which folds the 9
//!   palace points onto 6, and a king move that changes its side's bucket or mirror rebuilds
//!   that side's accumulator. The shipped shape has 1 bucket: 6, trained with a shared
//!   factor on gen8's 25.2 M positions, fitted held-out ones worse and lost to gen8 at equal
//!   nodes and at equal time (`nnue-data/README.md`), so it waits for more data.
//! - **Accumulator**: per perspective `bias + Σ column(feature)` in `i16`, `HIDDEN` wide. A
//!   move changes two columns (three for a capture) per perspective, so the search keeps one
//!   accumulator pair per ply and updates it move by move ([`Accumulator::after`]).
//! - **Output**: squared clipped ReLU `clamp(x, 0, QA)²` of the side to move's accumulator
//!   dotted with the "us" weights, plus the other's with the "them" weights, plus a bias,
//!   scaled to centipawns by `SCALE / (QA·QB)`. With `OUTPUT_BUCKETS` > 1
//!   (`output_buckets!`) there is one such head per range of piece counts, and the board's
//!   count picks it: an opening and a bare ending weigh the same hidden features differently,
//!   at no cost to the accumulator. The shipped net has 8 (+30 Elo over the same data with
//!   one head, `nnue-data/README.md`).
//! - **Second layer** (`L2` > 0, `layer2_width!`): the activations, as `clamp(x, 0, QA)² / QA`,
//!   feed `L2` neurons (weights × `Q2`, 64), each clipped to [0, 1]; the heads then weigh
//!   those `L2` values instead of the accumulators. The shipped shape has none.
//!
//! Quantisation: feature weights and biases × `QA` (255), output weights × `QB` (64), the
//! output bias × `QA·QB`. The output weights are trained within ±127/64, so `clamp · w`
//! fits in `i16` and `clamp · w · clamp` in `i32`; the sum is taken with wrapping `i32`
//! arithmetic, which does not depend on the order of the terms, so every path ([`simd`])
//! gives the same score bit for bit.

pub mod file;
pub mod simd;

use crate::core::{Color, Move, Piece, PieceKind, SQUARES, Square};
use crate::position::Position;
use std::sync::{Arc, LazyLock};

/// Features of one king bucket: relative colour × kind × point.
pub const BASE_FEATURES: usize = 2 * 7 * SQUARES;
/// King buckets per perspective, as a literal so that the architecture string names it: 1
/// (no buckets, no mirroring) or 6.
macro_rules! king_buckets {
    () => {
        1
    };
}
pub(crate) use king_buckets;
pub const KING_BUCKETS: usize = king_buckets!();
/// Features per perspective.
pub const FEATURES: usize = KING_BUCKETS * BASE_FEATURES;
/// The accumulator width, as a literal so that the architecture string
/// ([`file::ARCHITECTURE`]) is built from the same number: changing the width is this one
/// line (and a net trained for it).
macro_rules! hidden_width {
    () => {
        128
    };
}
pub(crate) use hidden_width;

/// Accumulator width of the shipped architecture.
pub const HIDDEN: usize = hidden_width!();
/// Output heads, chosen by how many pieces stand on the board, as a literal for the
/// architecture string: 1 (one head) or 8 (pieces 1–4, 5–8, …, 29–32, kings counted), as
/// shipped.
macro_rules! output_buckets {
    () => {
        8
    };
}
pub(crate) use output_buckets;
pub const OUTPUT_BUCKETS: usize = output_buckets!();

/// Width of the second layer, as a literal for the architecture string: 0 (none: the
/// activated accumulators feed the output directly) or its neuron count.
macro_rules! layer2_width {
    () => {
        0
    };
}
pub(crate) use layer2_width;
pub const L2: usize = layer2_width!();
/// Inputs of each output head: the two activated accumulators, or the second layer.
pub const HEAD_INPUTS: usize = if L2 == 0 { 2 * HIDDEN } else { L2 };
/// Quantisation of the second layer's weights.
pub const Q2: i32 = 64;

/// The output head for a board of `pieces` pieces (kings included).
#[inline(always)]
pub fn output_bucket(pieces: u32) -> usize {
    (pieces.clamp(1, 32) as usize - 1) * OUTPUT_BUCKETS / 32
}
/// Quantisation of the accumulator (the clipped activation's top).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Network output 1.0 in centipawns.
pub const SCALE: i32 = 400;

/// Whether the engine searches with the network unless told otherwise (`UseNNUE`).
pub const DEFAULT_ON: bool = true;

/// How one perspective sees the board, from where its king stands: the first feature of
/// its bucket, and whether files are mirrored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct View {
    pub perspective: Color,
    pub offset: usize,
    pub mirror: bool,
}

impl View {
    /// `perspective`'s view with its king on `king`.
    #[inline(always)]
    pub fn new(perspective: Color, king: Square) -> View {
        if KING_BUCKETS == 1 {
            return View {
                perspective,
                offset: 0,
                mirror: false,
            };
        }
        let rank = match perspective {
            Color::Red => king.rank(),
            Color::Black => 9 - king.rank(),
        } as usize;
        let file = king.file();
        View {
            perspective,
            offset: (rank.min(2) * 2 + usize::from(file != 4)) * BASE_FEATURES,
            mirror: file > 4,
        }
    }

    /// `perspective`'s view of `pos`.
    #[inline(always)]
    pub fn of(pos: &Position, perspective: Color) -> View {
        View::new(perspective, pos.king_square(perspective))
    }

    /// The feature of `piece` on `sq` in this view.
    #[inline(always)]
    pub fn feature(&self, piece: Piece, sq: Square) -> usize {
        let sq = if self.mirror {
            Square::new(8 - sq.file(), sq.rank())
        } else {
            sq
        };
        self.offset + base_feature(self.perspective, piece, sq)
    }
}

/// The bucket-free feature of `piece` on `sq` as `perspective` sees it (what the trainer
/// shares among the buckets).
#[inline(always)]
pub fn base_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relative = (piece.color() != perspective) as usize;
    let point = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    };
    (relative * 7 + piece.kind().index()) * SQUARES + point
}

/// A quantised network, as loaded from a net file.
#[derive(Clone)]
pub struct Network {
    /// `[feature][HIDDEN]`, flattened.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// `[L2][2·HIDDEN]`: each second-layer neuron's weights on the side to move's activated
    /// accumulator, then the other's (empty without a second layer).
    pub layer2_weights: Vec<i16>,
    /// `[L2]`.
    pub layer2_bias: Vec<i32>,
    /// `[OUTPUT_BUCKETS][HEAD_INPUTS]`: per head, without a second layer the side to move's
    /// half first, then the other's.
    pub output_weights: Vec<i16>,
    /// One per head.
    pub output_bias: Vec<i32>,
    /// The content hash of the file it came from (what `info string` reports).
    pub hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({:016x})", self.hash)
    }
}

/// The net built into the binary.
pub static EMBEDDED_BYTES: &[u8] = include_bytes!("../../../nnue-data/default.nnue");

static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(file::read(EMBEDDED_BYTES).expect("the embedded net is valid (a test checks it)"))
});

/// The net built into the binary.
pub fn embedded() -> Arc<Network> {
    EMBEDDED.clone()
}

/// One perspective pair of accumulators.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// By colour index: that colour's view.
    pub values: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            values: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// Built from every piece of `pos`.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        for color in Color::BOTH {
            let view = View::of(pos, color);
            refresh(&mut acc.values[color.index()], net, view, |sq| {
                pos.piece_on(sq)
            });
        }
        acc
    }

    /// The accumulator after `mv` is played in `pos` (call before making the move).
    #[inline]
    pub fn after(&self, net: &Network, pos: &Position, mv: Move) -> Accumulator {
        let mut next = Accumulator::default();
        let (from, to) = (mv.from(), mv.to());
        let Some(moved) = pos.piece_on(from) else {
            return *self;
        };
        let victim = pos.piece_on(to);
        for color in Color::BOTH {
            let c = color.index();
            let view = View::of(pos, color);
            if moved.kind() == PieceKind::King && moved.color() == color {
                let moved_view = View::new(color, to);
                if moved_view != view {
                    // The king changed its bucket or side: this view is rebuilt.
                    refresh(&mut next.values[c], net, moved_view, |sq| {
                        if sq == to {
                            Some(moved)
                        } else if sq == from {
                            None
                        } else {
                            pos.piece_on(sq)
                        }
                    });
                    continue;
                }
            }
            let add = net.column(view.feature(moved, to));
            let sub = net.column(view.feature(moved, from));
            match victim {
                None => simd::add_sub(&mut next.values[c], &self.values[c], add, sub),
                Some(v) => simd::add_sub_sub(
                    &mut next.values[c],
                    &self.values[c],
                    add,
                    sub,
                    net.column(view.feature(v, to)),
                ),
            }
        }
        next
    }
}

/// One perspective's accumulator from scratch, for the board `piece_on` describes.
#[inline]
fn refresh(
    values: &mut [i16; HIDDEN],
    net: &Network,
    view: View,
    piece_on: impl Fn(Square) -> Option<Piece>,
) {
    values.copy_from_slice(&net.feature_bias);
    for index in 0..SQUARES {
        let sq = Square::from_index_unchecked(index as u8);
        if let Some(piece) = piece_on(sq) {
            simd::add(values, net.column(view.feature(piece, sq)));
        }
    }
}

impl Network {
    /// The weights of one feature.
    #[inline(always)]
    pub fn column(&self, feature: usize) -> &[i16; HIDDEN] {
        self.feature_weights[feature * HIDDEN..(feature + 1) * HIDDEN]
            .try_into()
            .expect("a column is HIDDEN wide")
    }

    /// The evaluation in centipawns for the side to move of `pos`, from the accumulators of
    /// `pos`.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let side = pos.side_to_move();
        self.output(
            &acc.values[side.index()],
            &acc.values[side.opponent().index()],
            output_bucket(pos.occupied().count()),
            false,
        )
    }

    /// The output in centipawns from the side to move's (`us`) and the other's accumulators,
    /// by head `bucket`; `baseline`: by the baseline kernels alone.
    #[inline(always)]
    fn output(
        &self,
        us: &[i16; HIDDEN],
        them: &[i16; HIDDEN],
        bucket: usize,
        baseline: bool,
    ) -> i32 {
        let head = &self.output_weights[bucket * HEAD_INPUTS..(bucket + 1) * HEAD_INPUTS];
        let bias = self.output_bias[bucket];
        // In units of 1 / (QA·QB) of the network's output.
        let raw = if L2 == 0 {
            let (w_us, w_them) = head.split_at(HIDDEN);
            let (w_us, w_them) = (
                w_us.try_into().expect("HIDDEN"),
                w_them.try_into().expect("HIDDEN"),
            );
            let sum = if baseline {
                simd::screlu_dot_scalar(us, w_us)
                    .wrapping_add(simd::screlu_dot_scalar(them, w_them))
            } else {
                simd::screlu_dot(us, w_us).wrapping_add(simd::screlu_dot(them, w_them))
            };
            sum / QA + bias
        } else {
            // The activations `clamp(x, 0, QA)² / QA` (in units of 1 / QA), then each neuron:
            // its weighted sum (units of 1 / (QA·Q2)), clipped to [0, 1] in units of 1 / QA.
            let mut input = [0i16; 2 * HIDDEN];
            if baseline {
                simd::screlu_pack_scalar(us, them, &mut input);
            } else {
                simd::screlu_pack(us, them, &mut input);
            }
            let mut out = bias;
            for (j, w) in head.iter().enumerate() {
                let row = self.layer2_weights[j * 2 * HIDDEN..(j + 1) * 2 * HIDDEN]
                    .try_into()
                    .expect("2·HIDDEN");
                let dot = if baseline {
                    simd::dot_scalar(&input, row)
                } else {
                    simd::dot(&input, row)
                };
                out += ((dot + self.layer2_bias[j]) / Q2).clamp(0, QA) * *w as i32;
            }
            out
        };
        (raw as i64 * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

/// The evaluation of `pos` by `net` from scratch (for tests and tools).
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    net.evaluate(&Accumulator::new(net, pos), pos)
}

/// The evaluation by the baseline kernels alone, whatever the CPU offers: the reference
/// the dispatched (AVX2) path must equal bit for bit.
pub fn evaluate_baseline(net: &Network, pos: &Position) -> i32 {
    let mut views = [[0i16; HIDDEN]; 2];
    for color in Color::BOTH {
        let values = &mut views[color.index()];
        let view = View::of(pos, color);
        values.copy_from_slice(&net.feature_bias);
        for index in 0..SQUARES {
            let sq = Square::from_index_unchecked(index as u8);
            if let Some(piece) = pos.piece_on(sq) {
                simd::add_scalar(values, net.column(view.feature(piece, sq)));
            }
        }
    }
    let side = pos.side_to_move();
    net.output(
        &views[side.index()],
        &views[side.opponent().index()],
        output_bucket(pos.occupied().count()),
        true,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_distinct_and_mirror_between_views() {
        let mut seen = std::collections::HashSet::new();
        // Red's king on each palace point of the left half and the middle file.
        let mut buckets = std::collections::HashSet::new();
        for king in [3, 4, 12, 13, 21, 22] {
            let king = Square::from_index(king).unwrap();
            let red = View::new(Color::Red, king);
            assert!(!red.mirror);
            assert!(buckets.insert(red.offset) || KING_BUCKETS == 1);
            // The king on the mirrored point sees the mirrored board.
            let right = View::new(Color::Red, Square::new(8 - king.file(), king.rank()));
            assert_eq!(right.offset, red.offset);
            assert_eq!(right.mirror, king.file() != 4 && KING_BUCKETS > 1);
            // Black's king on the rank-flipped point is in the same bucket.
            let black = View::new(Color::Black, king.flip_rank());
            assert_eq!(black.offset, red.offset);
            for color in Color::BOTH {
                for kind in PieceKind::ALL {
                    for index in 0..SQUARES {
                        let sq = Square::from_index(index).unwrap();
                        let piece = Piece::new(color, kind);
                        let f = red.feature(piece, sq);
                        assert!(f < FEATURES);
                        assert!(seen.insert(f) || KING_BUCKETS == 1);
                        if right.mirror {
                            let mirrored = Square::new(8 - sq.file(), sq.rank());
                            assert_eq!(right.feature(piece, mirrored), f);
                        }
                        // Black's view of a black piece is Red's view of the red piece
                        // mirrored.
                        let other = Piece::new(color.opponent(), kind);
                        assert_eq!(black.feature(other, sq.flip_rank()), f);
                    }
                }
            }
        }
        assert_eq!(seen.len(), FEATURES);
    }

    #[test]
    fn output_heads_split_the_piece_counts_evenly() {
        let heads: Vec<usize> = (2..=32).map(output_bucket).collect();
        assert!(heads.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(heads[0], 0);
        assert_eq!(*heads.last().unwrap(), OUTPUT_BUCKETS - 1);
        for head in 0..OUTPUT_BUCKETS {
            let n = heads.iter().filter(|&&h| h == head).count();
            assert!(n >= 31 / OUTPUT_BUCKETS, "head {head} has {n} piece counts");
        }
    }

    #[test]
    fn the_embedded_net_loads_and_is_colour_symmetric() {
        let net = embedded();
        // A position and its colour mirror give the side to move the same score.
        let pairs = [
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
                "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            ),
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w", "4k4/4r4/9/9/9/9/9/9/9/3K5 b"),
        ];
        for (a, b) in pairs {
            let a = Position::from_fen(a).unwrap();
            let b = Position::from_fen(b).unwrap();
            assert_eq!(evaluate(&net, &a), evaluate(&net, &b));
        }
    }
}
