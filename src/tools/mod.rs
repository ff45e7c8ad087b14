//! Shell tools built on the library: perft, bench, analyze, judge and match.

pub mod analyze;
pub mod bench;
pub mod judge;
pub mod matches;
pub mod perft;
pub mod pgn;
