//! The match's interrupt state: how many times Ctrl-C was pressed. Kept apart so that the
//! engine driver and the match loop can both ask without importing each other.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Ctrl-C presses so far: the first stops new games, the second abandons those in progress.
static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

/// Records one interrupt (the binary calls this from its Ctrl-C handler).
pub fn interrupt() -> usize {
    INTERRUPTS.fetch_add(1, Ordering::SeqCst) + 1
}

/// Abandons the games in progress, as a second interrupt does (for a runner whose report
/// no one reads any more).
pub fn abandon() {
    INTERRUPTS.fetch_max(2, Ordering::SeqCst);
}

/// Were we asked to stop starting games?
pub fn interrupted() -> bool {
    INTERRUPTS.load(Ordering::SeqCst) >= 1
}

/// Were we asked to abandon the games in progress?
pub fn aborting() -> bool {
    INTERRUPTS.load(Ordering::SeqCst) >= 2
}
