//! `chariot bench`: a fixed search over fixed positions, the engine's signature.
//!
//! Each position is searched to the same depth on one thread with a fresh 16 MB table and
//! fresh histories, so the total node count depends only on the code: it is identical on
//! every machine and build, and changes exactly when search or evaluation behaviour changes.
//! Commits that change either record it as `Bench: N`.

use crate::eval::Evaluator;
use crate::position::Position;
use crate::search::{Limits, SearchResult, search_position};
use std::time::Duration;

/// The default bench depth.
pub const DEFAULT_DEPTH: i32 = 10;

/// Openings, middlegames (from seeded random playouts and hand-made) and endgames.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakabr1/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 6 4",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 3 4",
    "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RNBAKA1NR w - - 4 3",
    "rn1akabn1/9/bCc5r/2p1p1pcp/p8/9/P1P1P1P1P/N6C1/4K4/R1BA1ABNR w - - 14 8",
    "rnbak1bnr/4a2C1/6c2/p1p1p3p/6p2/1C7/P1P1P1P1P/N7R/3c5/R1BAK1B2 b - - 11 8",
    "rnbak1bn1/8c/3a3c1/4p3r/p1p3p2/2B1P3p/P1P3P2/C2C5/2R1A4/1N2KABNR w - - 4 14",
    "r2akabnr/4n4/2c1b4/p1p1p1pC1/8p/4P1P2/PCP5P/8B/R3A4/1NBcK3R w - - 12 11",
    "3aka3/2C1r4/bcnc4b/p3p1p2/9/5CB2/P1P3r2/4B2RN/R2N5/3AKA3 w - - 6 31",
    "r1bak1r2/2n1a4/1C4n1b/pcp1p1p2/8p/4P1P1P/P1P6/9/R7C/1NBAKABNR w - - 1 17",
    "r1b1kabnr/4a4/2n4C1/2p5p/1C2p1p2/p3P1P1P/P1P6/3c5/9/RcBAKABNR b - - 11 13",
    "2b1ka3/4r4/c1nab1n2/2p1p1p1p/P5Cc1/1NP6/4P1P1P/1r2B4/5C2R/R1BAKA1N1 w - - 9 18",
    "rCba1kbn1/4a4/5r3/6P2/p7p/1C1pP1R2/P1P6/4B3R/9/1N1AKABcc b - - 6 30",
    "r1bk1a3/9/1CnCca2b/p3p3r/2p5p/4P1B1P/P1P1n4/5pc2/8R/1NBAK4 b - - 15 35",
    "1r5C1/3ka4/4b4/pRp1p1p2/c1b5p/4P4/P7P/4N3B/9/1NBAK3R b - - 0 33",
    "1nr1k1b1r/4a4/cR1a5/4p1p2/2b4np/C3P3P/P5P2/2C1B4/4A1N2/1N2KA2R w - - 16 40",
    "r2akab2/9/1cn1b1n1c/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 7",
    "2bakab2/9/2n1c1n2/p1p1p1p1p/9/2P3P2/P3P3P/2N1C1N2/9/2BAKAB2 w - - 0 12",
    "3ak1b2/4a4/4b4/p3p3p/2p6/6P2/P3P3P/4B4/4A4/2BAK4 w - - 0 40",
    "4k4/4a4/4ba3/9/2n6/9/9/4B4/4A4/2BAK1N2 w - - 0 50",
    "3k5/4a4/4ba3/4p4/9/2P6/9/4B4/4A4/3AK4 w - - 0 60",
    "4kab2/4a4/4b4/9/9/9/9/4B4/4A4/1R1AK4 w - - 0 70",
    "3akab2/9/4b4/9/9/2C6/9/4B4/4A4/3AK4 w - - 0 70",
    "3ak4/4a4/9/9/9/9/9/9/9/4K1R2 w - - 0 80",
    "3k5/9/9/4P4/9/9/9/9/9/4K4 w - - 0 80",
    "2bak4/4a4/4b4/9/9/9/9/9/4A4/3K1R3 w - - 0 90",
    "4kab2/4a4/4b4/3N5/9/9/9/9/9/4K4 w - - 0 90",
    "3k5/9/9/9/9/4p4/9/4C4/4A4/3AK4 w - - 0 100",
    "2ba1k3/4a4/4b4/4C4/4c4/9/9/4B4/4A4/2BAK4 w - - 0 100",
];

/// What one bench run measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    pub nodes: u64,
    /// Time spent searching (the fresh table and histories set up between positions are not
    /// counted: they are not search).
    pub elapsed: Duration,
    /// Per position: nodes, time and the move found.
    pub per_position: Vec<PositionResult>,
}

/// What the search of one bench position gave.
#[derive(Debug, Clone)]
pub struct PositionResult {
    pub nodes: u64,
    pub elapsed: Duration,
    pub best: String,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// The bench's table size in MB: the signature is defined for it.
pub const DEFAULT_HASH_MB: usize = 16;

/// Searches every bench position to `depth` on `threads` threads (a fresh table and fresh
/// histories per position). With one thread the node count is the deterministic signature;
/// with more it varies from run to run, and the time to depth is what counts.
pub fn run_threads(depth: i32, threads: usize) -> BenchReport {
    run_with(depth, threads, DEFAULT_HASH_MB, Evaluator::default())
}

/// `run_threads` with a table of `hash_mb` MB instead of the signature's 16 MB (to see how
/// the table's size bears on the threads' sharing) and another evaluation.
pub fn run_with(depth: i32, threads: usize, hash_mb: usize, eval: Evaluator) -> BenchReport {
    let limits = Limits {
        depth: Some(depth),
        eval,
        ..Limits::default()
    };
    if threads <= 1 {
        return run_each(|pos| search_position(pos, &limits, hash_mb));
    }
    let mut pool = crate::search::threads::SearchPool::new(threads, hash_mb);
    run_each(|pos| {
        pool.clear();
        pool.search_sync(
            pos,
            limits.clone(),
            std::sync::Arc::new(crate::search::Silent),
        )
    })
}

/// Searches every bench position to `depth` on one thread: the signature.
pub fn run(depth: i32) -> BenchReport {
    run_threads(depth, 1)
}

fn run_each(mut search: impl FnMut(&Position) -> SearchResult) -> BenchReport {
    let mut elapsed = Duration::ZERO;
    let mut per_position = Vec::new();
    let mut nodes = 0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        let result = search(&pos);
        nodes += result.nodes;
        elapsed += result.elapsed;
        let best = result
            .best
            .map_or_else(|| "(none)".to_string(), |m| m.to_string());
        per_position.push(PositionResult {
            nodes: result.nodes,
            elapsed: result.elapsed,
            best,
        });
    }
    BenchReport {
        nodes,
        elapsed,
        per_position,
    }
}
