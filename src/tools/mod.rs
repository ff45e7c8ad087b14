//! Shell tools built on the library: perft, bench and analyze (match later).

pub mod analyze;
pub mod bench;
pub mod perft;
