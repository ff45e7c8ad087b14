//! The input reader: turns the engine's input into lines for the controller, and answers the
//! two commands a GUI times, `isready` and `stop`, itself when nothing is ahead of them.
//!
//! Why the reader acts: with more search threads than cores (`Threads 64` on two cores), a
//! thread woken by input waits for the scheduler, and a line that goes reader → channel →
//! controller waits twice; the controller, busy starting 64 threads for a `go`, waits longer.
//!
//! - `isready` is answered by the reader when no line that may take time is pending:
//!   anything but `position`, `go`, `stop` and `ponderhit`, which the controller handles at
//!   once (`setoption Hash`, `ucinewgame` and the like are what `isready` must wait for).
//! - `stop` raises the running search's stop flags at once, then goes to the controller,
//!   which does the rest as before (its bookkeeping, UCCI's `nobestmove` when idle). This is
//!   safe whatever is pending: lines are read in order, so the search running when the
//!   reader sees `stop` is the one it is meant for or an earlier one already told to stop.
//!
//! In batch mode (where `isready` and `stop` wait for the search's answer) and in debug mode
//! (where the controller echoes every line) the reader only reads.

use super::output::Output;
use crate::search::threads::Stopper;
use crossbeam_channel::Sender;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What the reader shares with the controller.
pub struct FastPath {
    /// Lines that may take time (not `is_light`) sent to the controller and not yet handled.
    pending: AtomicUsize,
    /// May the reader answer (not in batch or debug mode)?
    allowed: AtomicBool,
    out: Arc<Output>,
    stopper: Stopper,
}

impl FastPath {
    pub fn new(out: Arc<Output>, stopper: Stopper) -> FastPath {
        FastPath {
            pending: AtomicUsize::new(0),
            allowed: AtomicBool::new(true),
            out,
            stopper,
        }
    }

    /// The controller handled `line`; `allowed` is what its options now say.
    pub fn handled(&self, line: &str, allowed: bool) {
        self.allowed.store(allowed, Ordering::SeqCst);
        if !is_light(line) {
            self.pending.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Acts on `line` if it is `isready` with nothing slow ahead of it, or `stop`; returns
    /// whether the line still goes to the controller.
    fn act(&self, line: &str) -> bool {
        if !self.allowed.load(Ordering::SeqCst) {
            return true;
        }
        match line.trim() {
            "isready" if self.pending.load(Ordering::SeqCst) == 0 => {
                self.out.line("readyok");
                false
            }
            "stop" => {
                self.stopper.stop();
                true
            }
            _ => true,
        }
    }
}

/// Lines the controller handles at once: `isready` need not wait for them. `go perft`
/// is not one: the controller counts it before reading on, so an `isready` after it is
/// answered after its report, as Pikafish answers it.
fn is_light(line: &str) -> bool {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("go") => words.next() != Some("perft"),
        first => matches!(first, Some("position" | "stop" | "ponderhit" | "isready")),
    }
}

/// Reads lines (any bytes; invalid UTF-8 is replaced, never fatal) until end of input, then
/// sends `None`.
pub fn read_lines<R: BufRead>(mut input: R, tx: Sender<Option<String>>, fast: Arc<FastPath>) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer).into_owned();
                if !fast.act(&line) {
                    continue;
                }
                if !is_light(&line) {
                    fast.pending.fetch_add(1, Ordering::SeqCst);
                }
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(None);
}

#[cfg(test)]
mod tests {
    use super::is_light;

    #[test]
    fn a_perft_is_waited_for_and_a_search_is_not() {
        assert!(is_light("go depth 5"));
        assert!(is_light("go"));
        assert!(is_light("position startpos"));
        assert!(!is_light("go perft 2"));
        assert!(!is_light("setoption name Hash value 64"));
    }
}
