//! Shell tools built on the library: perft now; bench, analyze and match later.

pub mod perft;
