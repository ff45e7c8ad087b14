//! `chariot datagen --stats`: what a data file holds (counts, results, scores, material,
//! duplicates), read as a stream; a corrupt or truncated file is an error naming the offset.

use super::format::{DataReader, Record};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

/// Score histogram bucket edges (centipawns, side to move).
const SCORE_EDGES: [i32; 10] = [-1000, -500, -250, -100, -25, 25, 100, 250, 500, 1000];

/// Everything `--stats` counts.
#[derive(Clone, Debug, Default)]
pub struct DataStats {
    pub files: usize,
    pub parts: u64,
    pub positions: u64,
    /// Side-to-move losses, draws, wins.
    pub outcomes: [u64; 3],
    pub red_to_move: u64,
    /// By the buckets `SCORE_EDGES` cut (one more than edges).
    pub scores: [u64; SCORE_EDGES.len() + 1],
    /// By piece count, 0..=32.
    pub piece_counts: Vec<u64>,
    pub duplicates: u64,
    pub score_sum: i64,
}

impl DataStats {
    fn add(&mut self, r: &Record, seen: &mut HashSet<u64>) {
        self.positions += 1;
        self.outcomes[r.outcome() as usize] += 1;
        self.red_to_move += (r.side_to_move() == crate::core::Color::Red) as u64;
        let s = r.score();
        self.scores[SCORE_EDGES.iter().filter(|&&e| s >= e).count()] += 1;
        self.piece_counts[r.piece_count() as usize] += 1;
        self.score_sum += s as i64;
        if !seen.insert(r.position_key()) {
            self.duplicates += 1;
        }
    }

    /// The report as text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let n = self.positions.max(1) as f64;
        let pct = |x: u64| 100.0 * x as f64 / n;
        let _ = writeln!(
            out,
            "files {} (parts {}), positions {}",
            self.files, self.parts, self.positions
        );
        let [l, d, w] = self.outcomes;
        let _ = writeln!(
            out,
            "results (side to move): win {w} ({:.1}%), draw {d} ({:.1}%), loss {l} ({:.1}%)",
            pct(w),
            pct(d),
            pct(l)
        );
        let _ = writeln!(
            out,
            "side to move: Red {} ({:.1}%), mean score {:.1} cp",
            self.red_to_move,
            pct(self.red_to_move),
            self.score_sum as f64 / n
        );
        let _ = writeln!(
            out,
            "duplicates: {} ({:.2}%)",
            self.duplicates,
            pct(self.duplicates)
        );
        let _ = writeln!(out, "scores (cp, side to move):");
        for (i, &count) in self.scores.iter().enumerate() {
            let label = match i {
                0 => format!("< {}", SCORE_EDGES[0]),
                i if i == SCORE_EDGES.len() => format!(">= {}", SCORE_EDGES[i - 1]),
                i => format!("{} .. {}", SCORE_EDGES[i - 1], SCORE_EDGES[i] - 1),
            };
            let _ = writeln!(out, "  {label:>14}  {count:>10}  {:5.1}%", pct(count));
        }
        let _ = writeln!(out, "pieces on the board:");
        for (pieces, &count) in self.piece_counts.iter().enumerate() {
            if count > 0 {
                let _ = writeln!(out, "  {pieces:>14}  {count:>10}  {:5.1}%", pct(count));
            }
        }
        out
    }
}

/// Reads every file and counts; the first bad block of any file is an error.
pub fn collect(paths: &[impl AsRef<Path>]) -> Result<DataStats, String> {
    let mut stats = DataStats {
        piece_counts: vec![0; 33],
        ..DataStats::default()
    };
    let mut seen = HashSet::new();
    for path in paths {
        let mut reader = DataReader::open(path.as_ref())?;
        while let Some(r) = reader.next_record()? {
            stats.add(&r, &mut seen);
        }
        stats.files += 1;
        stats.parts += reader.parts;
    }
    Ok(stats)
}
