//! The float model the trainer fits: the same shape as the engine's integer network
//! (`eval::nnue`), its gradient, the Adam optimiser, quantisation and checkpoints.
//!
//! The model's output is in units of `SCALE` centipawns; the loss compares
//! `σ(output · SCALE / K)` with the target `λ·result + (1 − λ)·σ(score / K)`, squared. The
//! input layer's gradient is sparse: only the columns of a position's active features get one,
//! so a position costs about 2 × 30 columns forward and backward, not 2 × 1,260.

use crate::core::Color;
use crate::eval::nnue::{
    BASE_FEATURES, FEATURES, HEAD_INPUTS, HIDDEN, KING_BUCKETS, L2, Network, OUTPUT_BUCKETS, Q2,
    QA, QB, SCALE, View, output_bucket,
};
use crate::tools::datagen::format::Record;
use crate::tools::rng::Rng;

/// Trained weights are kept in these ranges, so the quantised net cannot overflow: an output
/// weight × QB fits `i8`-sized products (see `eval::nnue`), an accumulator of 32 pieces and a
/// bias × QA stays inside `i16`.
pub const OUTPUT_CLIP: f32 = 127.0 / QB as f32;
/// Second-layer weights × Q2 stay within ±127 (so its sums cannot overflow `i32`).
pub const LAYER2_CLIP: f32 = 127.0 / Q2 as f32;
pub const FEATURE_CLIP: f32 = 3.0;

/// With king buckets, each piece-on-point also has a feature shared by every bucket (a
/// factor), so that what a piece is worth wherever the king stands is learnt from all the
/// data; the net file holds each bucket's weight plus the factor's.
pub const FACTOR_FEATURES: usize = if KING_BUCKETS > 1 { BASE_FEATURES } else { 0 };
/// Active features of one view at most: 32 pieces, each with its factor.
pub const MAX_ACTIVE: usize = if KING_BUCKETS > 1 { 64 } else { 32 };

/// The float parameters, laid out as the integer net's (then the factors).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// `[FEATURES + FACTOR_FEATURES][HIDDEN]`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `[L2][2·HIDDEN]`: the second layer (empty without one).
    pub wl2: Vec<f32>,
    /// `[L2]`.
    pub bl2: Vec<f32>,
    /// `[OUTPUT_BUCKETS][HEAD_INPUTS]`: per head (without a second layer the side to move's
    /// half first).
    pub w2: Vec<f32>,
    /// One per head.
    pub b2: Vec<f32>,
}

/// A gradient, or Adam's moments: the same shapes.
pub type Grad = Model;

impl Model {
    pub fn zeros() -> Model {
        Model {
            w1: vec![0.0; (FEATURES + FACTOR_FEATURES) * HIDDEN],
            b1: vec![0.0; HIDDEN],
            wl2: vec![0.0; L2 * 2 * HIDDEN],
            bl2: vec![0.0; L2],
            w2: vec![0.0; OUTPUT_BUCKETS * HEAD_INPUTS],
            b2: vec![0.0; OUTPUT_BUCKETS],
        }
    }

    /// Small random weights from `seed`.
    pub fn random(seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |scale: f32| (rng.unit() * 2.0 - 1.0) * scale;
        let mut m = Model::zeros();
        // The factors start at zero: each bucket's weight starts as a 1-bucket net's would.
        m.w1[..FEATURES * HIDDEN]
            .iter_mut()
            .for_each(|w| *w = uniform(0.1));
        m.b1.iter_mut().for_each(|b| *b = 0.2 + uniform(0.1));
        m.w2.iter_mut().for_each(|w| *w = uniform(0.2));
        m.wl2.iter_mut().for_each(|w| *w = uniform(0.3));
        m.bl2.iter_mut().for_each(|b| *b = 0.25 + uniform(0.05));
        m
    }

    /// Every parameter in one order (for the optimiser and checkpoints).
    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.wl2.iter_mut())
            .chain(self.bl2.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(self.b1.iter())
            .chain(self.wl2.iter())
            .chain(self.bl2.iter())
            .chain(self.w2.iter())
            .chain(self.b2.iter())
    }

    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Model) {
        for (a, b) in self.params_mut().zip(other.params()) {
            *a += b;
        }
    }

    /// Zeroes every parameter.
    pub fn clear(&mut self) {
        self.params_mut().for_each(|p| *p = 0.0);
    }

    /// The features of both perspectives of a record; `mirror` flips files (xiangqi is
    /// symmetric left to right, so a mirrored position is as good a sample).
    pub fn features(
        record: &Record,
        mirror: bool,
    ) -> ([u16; MAX_ACTIVE], [u16; MAX_ACTIVE], usize, Color) {
        let mut red = [0u16; MAX_ACTIVE];
        let mut black = [0u16; MAX_ACTIVE];
        let placed = || {
            record.pieces().map(move |(sq, piece)| {
                let sq = if mirror {
                    crate::core::Square::new(8 - sq.file(), sq.rank())
                } else {
                    sq
                };
                (sq, piece)
            })
        };
        let king = |color: Color| {
            placed()
                .find(|&(_, p)| p == crate::core::Piece::new(color, crate::core::PieceKind::King))
                .map_or(crate::core::Square::new(4, 0), |(sq, _)| sq)
        };
        let views = [
            View::new(Color::Red, king(Color::Red)),
            View::new(Color::Black, king(Color::Black)),
        ];
        let mut n = 0;
        for (sq, piece) in placed().take(32) {
            let (r, b) = (views[0].feature(piece, sq), views[1].feature(piece, sq));
            red[n] = r as u16;
            black[n] = b as u16;
            n += 1;
            if KING_BUCKETS > 1 {
                // The factor of the feature as the view sees it (mirrored with it).
                red[n] = (FEATURES + r - views[0].offset) as u16;
                black[n] = (FEATURES + b - views[1].offset) as u16;
                n += 1;
            }
        }
        (red, black, n, record.side_to_move())
    }

    /// The output (units of `SCALE` centipawns) for a record, with the hidden activations
    /// (the accumulators, and the second layer's sums before clipping), the active features
    /// and the output head kept for the backward pass.
    fn forward(
        &self,
        record: &Record,
        mirror: bool,
        act: &mut Activations,
    ) -> (f32, [[u16; MAX_ACTIVE]; 2], usize, usize) {
        let (red, black, n, side) = Model::features(record, mirror);
        let bucket = output_bucket(record.pieces().count() as u32);
        let head = &self.w2[bucket * HEAD_INPUTS..(bucket + 1) * HEAD_INPUTS];
        // Perspective 0 is the side to move's.
        let views = if side == Color::Red {
            [red, black]
        } else {
            [black, red]
        };
        let mut out = self.b2[bucket];
        for (v, view) in views.iter().enumerate() {
            let a = &mut act.acc[v];
            a.copy_from_slice(&self.b1);
            for &f in &view[..n] {
                let column = &self.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
                for (x, w) in a.iter_mut().zip(column) {
                    *x += w;
                }
            }
            if L2 == 0 {
                let w2 = &head[v * HIDDEN..(v + 1) * HIDDEN];
                for (x, w) in a.iter().zip(w2) {
                    let c = x.clamp(0.0, 1.0);
                    out += c * c * w;
                }
            }
        }
        if L2 != 0 {
            for (c, x) in act.input.iter_mut().zip(act.acc.iter().flatten()) {
                let x = x.clamp(0.0, 1.0);
                *c = x * x;
            }
        }
        let neurons = self.wl2.chunks_exact(2 * HIDDEN).zip(&self.bl2);
        for ((sum, (row, bias)), w) in act.layer2.iter_mut().zip(neurons).zip(head) {
            *sum = bias + dot(&act.input, row);
            out += sum.clamp(0.0, 1.0) * w;
        }
        (out, views, n, bucket)
    }

    /// The model's evaluation of a record in centipawns (side to move).
    pub fn evaluate(&self, record: &Record) -> f32 {
        self.forward(record, false, &mut Activations::new()).0 * SCALE as f32
    }

    /// Adds the loss gradient of one record (mirrored or not) into `grad`; returns its loss.
    pub fn backward(
        &self,
        record: &Record,
        mirror: bool,
        target: f32,
        k: f32,
        grad: &mut Grad,
    ) -> f32 {
        let mut act = Activations::new();
        let (out, views, n, bucket) = self.forward(record, mirror, &mut act);
        let acc = &act.acc;
        let scale = SCALE as f32 / k;
        let p = sigmoid(out * scale);
        let err = p - target;
        let d_out = 2.0 * err * p * (1.0 - p) * scale;
        grad.b2[bucket] += d_out;
        let head = bucket * HEAD_INPUTS;
        // The loss's gradient on each activation clamp(x, 0, 1)² (second layer only).
        let mut d_act = [0.0f32; 2 * HIDDEN];
        for (j, &sum) in act.layer2.iter().enumerate() {
            grad.w2[head + j] += d_out * sum.clamp(0.0, 1.0);
            if sum <= 0.0 || sum >= 1.0 {
                continue;
            }
            let d_sum = d_out * self.w2[head + j];
            grad.bl2[j] += d_sum;
            let row = &self.wl2[j * 2 * HIDDEN..(j + 1) * 2 * HIDDEN];
            let g_row = &mut grad.wl2[j * 2 * HIDDEN..(j + 1) * 2 * HIDDEN];
            for i in 0..2 * HIDDEN {
                g_row[i] += d_sum * act.input[i];
                d_act[i] += d_sum * row[i];
            }
        }
        for (v, view) in views.iter().enumerate() {
            let mut d_acc = [0.0f32; HIDDEN];
            if L2 == 0 {
                let w2 = &self.w2[head + v * HIDDEN..head + (v + 1) * HIDDEN];
                let g2 = &mut grad.w2[head + v * HIDDEN..head + (v + 1) * HIDDEN];
                for i in 0..HIDDEN {
                    let x = acc[v][i];
                    let c = x.clamp(0.0, 1.0);
                    g2[i] += d_out * c * c;
                    if x > 0.0 && x < 1.0 {
                        d_acc[i] = d_out * w2[i] * 2.0 * c;
                    }
                }
            } else {
                for i in 0..HIDDEN {
                    let x = acc[v][i];
                    if x > 0.0 && x < 1.0 {
                        d_acc[i] = d_act[v * HIDDEN + i] * 2.0 * x;
                    }
                }
            }
            for (g, d) in grad.b1.iter_mut().zip(&d_acc) {
                *g += d;
            }
            for &f in &view[..n] {
                let column = &mut grad.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
                for (g, d) in column.iter_mut().zip(&d_acc) {
                    *g += d;
                }
            }
        }
        err * err
    }

    /// The loss of one record, without a gradient.
    pub fn loss(&self, record: &Record, target: f32, k: f32) -> f32 {
        let out = self.forward(record, false, &mut Activations::new()).0;
        let e = sigmoid(out * SCALE as f32 / k) - target;
        e * e
    }

    /// Keeps the weights inside the quantisable ranges.
    pub fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-FEATURE_CLIP, FEATURE_CLIP);
        }
        for w in self.w2.iter_mut() {
            *w = w.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
        }
        for w in self.wl2.iter_mut() {
            *w = w.clamp(-LAYER2_CLIP, LAYER2_CLIP);
        }
    }

    /// The integer network (rounded to the nearest step).
    pub fn quantise(&self) -> Network {
        let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let q32 = |xs: &[f32], s: i32| -> Vec<i32> {
            xs.iter().map(|&x| (x * s as f32).round() as i32).collect()
        };
        // Each bucket's weights with the factor's added (kept in the clip range, so that an
        // accumulator cannot overflow).
        let (buckets, factor) = self.w1.split_at(FEATURES * HIDDEN);
        let feature_weights = buckets
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let shared = factor
                    .get(i % (BASE_FEATURES * HIDDEN))
                    .copied()
                    .unwrap_or(0.0);
                q16((w + shared).clamp(-FEATURE_CLIP, FEATURE_CLIP), QA)
            })
            .collect();
        let mut net = Network {
            feature_weights,
            feature_bias: self.b1.iter().map(|&w| q16(w, QA)).collect(),
            layer2_weights: self.wl2.iter().map(|&w| q16(w, Q2)).collect(),
            layer2_bias: q32(&self.bl2, QA * Q2),
            output_weights: self.w2.iter().map(|&w| q16(w, QB)).collect(),
            output_bias: q32(&self.b2, QA * QB),
            hash: 0,
        };
        let bytes = crate::eval::nnue::file::write(&net);
        net.hash = crate::eval::nnue::file::fnv64(&bytes[..bytes.len() - 8]);
        net
    }

    /// The parameters as little-endian bytes (checkpoints).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.params().flat_map(|p| p.to_le_bytes()).collect()
    }

    /// Reads parameters written by `to_bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, String> {
        let mut m = Model::zeros();
        let count = m.params().count();
        if bytes.len() != count * 4 {
            return Err(format!(
                "a model of {count} parameters needs {} bytes, not {}",
                count * 4,
                bytes.len()
            ));
        }
        for (p, c) in m.params_mut().zip(bytes.chunks_exact(4)) {
            *p = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if !p.is_finite() {
                return Err("a parameter is not a finite number".into());
            }
        }
        Ok(m)
    }
}

/// What the forward pass keeps for the backward one: both accumulators (the side to move's
/// first), the second layer's input and its sums before clipping.
pub struct Activations {
    pub acc: [[f32; HIDDEN]; 2],
    /// The second layer's input, clamp(x, 0, 1)² of both accumulators (with a second layer).
    pub input: [f32; 2 * HIDDEN],
    pub layer2: [f32; L2],
}

impl Activations {
    fn new() -> Activations {
        Activations {
            acc: [[0.0; HIDDEN]; 2],
            input: [0.0; 2 * HIDDEN],
            layer2: [0.0; L2],
        }
    }
}

/// `Σ a · b`, in eight partial sums (so that it vectorises).
#[inline]
fn dot(a: &[f32; 2 * HIDDEN], b: &[f32]) -> f32 {
    let mut sums = [0.0f32; 8];
    for (a, b) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for i in 0..8 {
            sums[i] += a[i] * b[i];
        }
    }
    sums.iter().sum()
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam's state: first and second moments and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    pub m: Model,
    pub v: Model,
    pub t: u64,
}

impl Adam {
    pub fn new() -> Adam {
        Adam {
            m: Model::zeros(),
            v: Model::zeros(),
            t: 0,
        }
    }

    /// One step with the mean gradient `grad` at learning rate `lr` (decoupled weight decay
    /// `decay` on the input and output weights, as AdamW).
    pub fn step(&mut self, model: &mut Model, grad: &Grad, lr: f32, decay: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t.min(100_000) as i32);
        let c2 = 1.0 - B2.powi(self.t.min(100_000) as i32);
        let moments = self.m.params_mut().zip(self.v.params_mut());
        for ((p, g), (m, v)) in model.params_mut().zip(grad.params()).zip(moments) {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + EPS);
            *p -= lr * (update + decay * *p);
        }
        model.clip();
    }
}

impl Default for Adam {
    fn default() -> Adam {
        Adam::new()
    }
}
