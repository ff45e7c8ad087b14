//! `chariot match`: games between engines, refereed by Chariot's own rules code.
//!
//! This first part holds the statistics; the engine driver, the referee and the command come
//! with the rest of the match-runner issue.

pub mod stats;
