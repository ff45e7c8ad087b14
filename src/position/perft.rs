//! Perft: counts the legal move tree, optionally per root move and over threads (for `chariot perft` and `go perft`).
//!
//! With more than one thread the root moves are shared out with rayon, each worker on its own
//! copy of the position; the counts are identical to the single-threaded walk.

use crate::core::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// The outcome of a perft run.
#[derive(Debug, Clone)]
pub struct PerftReport {
    /// Per-root-move counts, in generation order.
    pub divide: Vec<(Move, u64)>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl PerftReport {
    /// Millions of leaf nodes per second.
    pub fn mnps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9) / 1e6
    }
}

/// Runs perft to `depth` on `threads` threads (1 = the calling thread only).
pub fn run(pos: &Position, depth: u32, threads: usize) -> PerftReport {
    let start = Instant::now();
    let divide: Vec<(Move, u64)> = if depth == 0 {
        Vec::new()
    } else if threads <= 1 {
        pos.clone().perft_divide(depth)
    } else {
        let moves: Vec<Move> = pos.legal_moves().to_vec();
        let count = |&mv: &Move| {
            let mut child = pos.clone();
            child.make_move(mv);
            (mv, child.perft(depth - 1))
        };
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    };
    let nodes = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    PerftReport {
        divide,
        nodes,
        elapsed: start.elapsed(),
    }
}
