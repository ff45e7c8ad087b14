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

impl Position {
    /// Counts the leaf nodes of the legal move tree to `depth` (bulk counting at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: `perft_popcnt` needs only the popcnt instruction, which this CPU has.
            return unsafe { self.perft_popcnt(depth) };
        }
        self.perft_portable(depth)
    }

    /// Perft for any CPU.
    fn perft_portable(&mut self, depth: u32) -> u64 {
        self.perft_with(depth, Self::perft_portable)
    }

    /// The same walk compiled with the popcnt instruction: bulk counting is mostly popcounts,
    /// and the portable x86-64 fallback for them is a dozen instructions each (measured with
    /// callgrind: see scripts/perft_bench.sh).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn perft_popcnt(&mut self, depth: u32) -> u64 {
        self.perft_with(depth, |pos, d| pos.perft_popcnt(d))
    }

    #[inline(always)]
    fn perft_with(&mut self, depth: u32, recurse: impl Fn(&mut Position, u32) -> u64) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves_inline(),
            _ => {
                let moves = self.legal_moves();
                let mut nodes = 0;
                for &mv in moves.iter() {
                    self.make_move(mv);
                    nodes += recurse(self, depth - 1);
                    self.unmake_move();
                }
                nodes
            }
        }
    }

    /// Per-root-move counts to `depth`, in generation order.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        moves
            .iter()
            .map(|&mv| {
                self.make_move(mv);
                let nodes = self.perft(depth.saturating_sub(1));
                self.unmake_move();
                (mv, nodes)
            })
            .collect()
    }
}
