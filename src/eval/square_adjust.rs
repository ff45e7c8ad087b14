//! Per-point corrections to the square bonuses (see `SquareAdjust`). Written by
//! `cargo run --release --example tune_eval -- --squares …`; not edited by hand.

use super::{HALF_POINTS, SquareAdjust};

pub const SQUARE_ADJUST: SquareAdjust = [[(0, 0); HALF_POINTS]; 7];
