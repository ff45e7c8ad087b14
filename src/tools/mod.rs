//! Shell tools built on the library: perft, bench, analyze, and the start of match.

pub mod analyze;
pub mod bench;
pub mod matches;
pub mod perft;
