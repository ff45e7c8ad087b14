//! Shell tools built on the library: perft, bench, analyze, judge, match, datagen and train.

pub mod analyze;
pub mod bench;
pub mod datagen;
pub mod gamefile;
pub mod judge;
pub mod matches;
pub use crate::position::perft;
pub mod pgn;
pub mod review;
pub mod rng;
pub mod train;

/// `text` as a JSON string, quoted and escaped (backslashes, quotes and control characters).
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
