//! Breadcrumbs: which thread is searching which node near the root, so that Lazy-SMP threads
//! that meet in the same node spread out instead of searching it the same way twice.
//!
//! A small table shared by the threads, indexed by the position key. A thread entering a node
//! near the root leaves its mark in the node's slot while it searches there (if the slot is
//! free). The search uses the marks two ways (`Worker::pvs`): a thread that finds another
//! thread's mark on its own node reduces its late moves one ply more, so the two trees differ;
//! and a move whose position another thread is searching is put off until the node's other
//! moves are done, by when the other thread's result is often in the table (the idea of
//! ABDADA). The table is a heuristic: a lost race for a slot only costs a missed hint, never a
//! wrong result, and with one thread it is not used at all.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Slots in the table (a power of two): far more than the nodes near the root that all the
/// threads are in at any moment.
const SLOTS: usize = 1024;

struct Slot {
    /// The searching thread's id plus one; 0 when the slot is free.
    owner: AtomicUsize,
    key: AtomicU64,
}

/// The shared table (see the module documentation).
pub struct Breadcrumbs {
    slots: Box<[Slot]>,
}

/// A thread's visit to a node: its mark in the table (when the slot was free), taken off again
/// when this is dropped (when the node's search returns, by whatever path).
pub struct Mark<'a> {
    slot: Option<&'a Slot>,
    /// Another thread is searching this same node.
    pub others_here: bool,
}

impl Drop for Mark<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            slot.owner.store(0, Ordering::Relaxed);
        }
    }
}

impl Breadcrumbs {
    pub fn new() -> Breadcrumbs {
        Breadcrumbs {
            slots: (0..SLOTS)
                .map(|_| Slot {
                    owner: AtomicUsize::new(0),
                    key: AtomicU64::new(0),
                })
                .collect(),
        }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Does `owner` (as stored in a slot) stand for a thread other than `thread` searching
    /// the node with `key`?
    fn other_in(slot: &Slot, owner: usize, key: u64, thread: usize) -> bool {
        owner != 0 && owner != thread + 1 && slot.key.load(Ordering::Relaxed) == key
    }

    /// Thread `thread` enters the node with `key`: marks it if the slot is free, and tells
    /// whether another thread is searching this same node now.
    pub fn enter(&self, key: u64, thread: usize) -> Mark<'_> {
        let slot = self.slot(key);
        let owner = slot.owner.load(Ordering::Relaxed);
        if owner == 0 {
            slot.key.store(key, Ordering::Relaxed);
            slot.owner.store(thread + 1, Ordering::Relaxed);
        }
        Mark {
            slot: (owner == 0).then_some(slot),
            others_here: Self::other_in(slot, owner, key, thread),
        }
    }

    /// Is a thread other than `thread` searching the node with `key` now?
    pub fn busy(&self, key: u64, thread: usize) -> bool {
        let slot = self.slot(key);
        Self::other_in(slot, slot.owner.load(Ordering::Relaxed), key, thread)
    }
}

impl Default for Breadcrumbs {
    fn default() -> Self {
        Breadcrumbs::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_sees_another_in_the_same_node_until_it_leaves() {
        let crumbs = Breadcrumbs::new();
        let key = 0x1234_5678_9abc_def0;
        let first = crumbs.enter(key, 0);
        assert!(!first.others_here, "the first thread is alone");
        assert!(
            crumbs.enter(key, 1).others_here,
            "the second finds the first's mark"
        );
        assert!(
            !crumbs.enter(key, 0).others_here,
            "a thread's own mark does not count"
        );
        assert!(
            !crumbs.enter(key + SLOTS as u64, 1).others_here,
            "another node in the same slot is not the same node"
        );
        drop(first);
        let second = crumbs.enter(key, 1);
        assert!(
            !second.others_here,
            "the mark is gone once the first thread has left"
        );
        assert!(
            crumbs.enter(key, 0).others_here,
            "the slot was free, so 1 marked it"
        );
        drop(second);
        assert!(!crumbs.enter(key, 0).others_here);
    }

    #[test]
    fn busy_tells_other_threads_only_while_the_mark_is_there() {
        let crumbs = Breadcrumbs::new();
        let key = 42;
        assert!(!crumbs.busy(key, 0), "nobody is there yet");
        let mark = crumbs.enter(key, 1);
        assert!(crumbs.busy(key, 0));
        assert!(!crumbs.busy(key, 1), "a thread is not busy against itself");
        assert!(
            !crumbs.busy(key + SLOTS as u64, 0),
            "same slot, another node"
        );
        drop(mark);
        assert!(!crumbs.busy(key, 0));
    }
}
