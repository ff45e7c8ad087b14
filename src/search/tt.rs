//! The transposition table, shared by every search thread without locks.
//!
//! Each entry is two `AtomicU64`: the packed data, and the key XOR the data. A reader accepts
//! an entry only if the two still XOR to its key, so a torn write (another thread storing
//! between our two loads) reads as a miss, never as a wrong hit. Entries sit four to a
//! 64-byte bucket; a store replaces the same key, else the shallowest / oldest entry.
//! Mate scores are stored relative to the node (`value_to_tt`/`value_from_tt`) so they stay
//! right when the same position is met at another distance from the root. An entry also
//! says whether its node was ever on a principal variation (the search reduces less there).
//!
//! Data layout: move (bits 0–15), score (16–31), static evaluation (32–47), depth (48–55),
//! bound (56–57), generation modulo 32 (58–62), principal-variation mark (63).

use crate::core::Move;
use crate::eval::Value;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at most the score (fail-low).
    Upper = 1,
    /// The true value is at least the score (fail-high).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Move,
    pub value: Value,
    pub eval: Value,
    pub depth: i32,
    pub bound: Bound,
    /// Whether the node was on a principal variation when stored (or before: the mark stays).
    pub pv: bool,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; BUCKET],
}

/// Depth offset so that quiescence depths (down to -1 here) fit an unsigned byte.
const DEPTH_OFFSET: i32 = 8;

/// The generations count modulo 32 (five bits of an entry).
const GENERATION_MASK: u8 = 0x1f;

fn pack(entry: &TtHit, generation: u8) -> u64 {
    let depth = (entry.depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    (entry.mv.raw() as u64)
        | (entry.value as i16 as u16 as u64) << 16
        | (entry.eval as i16 as u16 as u64) << 32
        | depth << 48
        | (entry.bound as u64) << 56
        | ((generation & GENERATION_MASK) as u64) << 58
        | (entry.pv as u64) << 63
}

/// The depth field of packed entry data (as `unpack` reads it).
fn stored_depth(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

/// The generation field of packed entry data.
fn stored_generation(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

fn unpack(data: u64) -> (TtHit, u8) {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let hit = TtHit {
        mv: Move::from_raw(data as u16),
        value: (data >> 16) as u16 as i16 as Value,
        eval: (data >> 32) as u16 as i16 as Value,
        depth: stored_depth(data),
        bound,
        pv: data >> 63 != 0,
    };
    (hit, stored_generation(data))
}

/// Asks the kernel to back the (not yet touched) storage of `buckets` with huge pages where
/// it can. Every probe lands on a random bucket, so with 4 KB pages nearly every probe of a
/// table larger than the TLB's reach also misses the TLB; with 2 MB pages a few entries cover
/// the whole table. (Linux only; elsewhere, or if the kernel declines, nothing changes.)
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = buckets.as_ptr() as usize;
        let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
        // madvise wants a page-aligned start; the allocation may begin inside a page.
        let aligned = start.next_multiple_of(PAGE);
        if end > aligned + PAGE {
            // SAFETY: the range lies inside the allocation `buckets` owns, and MADV_HUGEPAGE
            // only changes how the kernel backs it, never its contents or its validity.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    (end - aligned) / PAGE * PAGE,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buckets;
}

/// The memory the kernel says it can still give without swapping (`MemAvailable`), in bytes;
/// None where that is not known.
fn available_memory() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// The largest table the engine accepts, in MB (the protocol's `Hash` maximum).
pub const MAX_MB: usize = 65_536;

/// The shared table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket). Falls back to smaller sizes if
    /// the memory cannot be had.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            generation: AtomicU8::new(0),
        };
        let mut mb = megabytes.max(1);
        while tt.resize(mb).is_err() && mb > 1 {
            mb /= 2;
        }
        tt
    }

    /// Reallocates to about `megabytes` MB, empty (zeroed in parallel). More than the system
    /// has available is refused and the table kept as it is; if the allocation itself fails,
    /// the table keeps its old size (emptied). The error says so either way.
    pub fn resize(&mut self, megabytes: usize) -> Result<(), String> {
        let count =
            (megabytes.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1);
        let old_count = self.buckets.len();
        let bucket_size = std::mem::size_of::<Bucket>();
        let refusal = || {
            format!(
                "cannot allocate a {megabytes} MB hash table; keeping {} MB",
                old_count * bucket_size / (1024 * 1024)
            )
        };
        // Memory the system would have to page out (or kill for) is refused up front, and the
        // table is kept as it is, entries and all: under overcommit the allocation itself
        // would succeed and fail only while being zeroed.
        let freed = old_count * bucket_size;
        if available_memory().is_some_and(|a| count.saturating_mul(bucket_size) > a + freed) {
            return Err(refusal());
        }
        self.buckets = Vec::new();
        let mut buckets: Vec<Bucket> = Vec::new();
        let result = if buckets.try_reserve_exact(count).is_ok() {
            advise_huge_pages(&buckets);
            // Touch (zero) the memory on all cores: a big table fills much faster.
            buckets.par_extend((0..count).into_par_iter().map(|_| Bucket::default()));
            Ok(())
        } else {
            buckets.resize_with(old_count.max(1), Bucket::default);
            Err(refusal())
        };
        self.buckets = buckets;
        self.generation.store(0, Ordering::Relaxed);
        result
    }

    /// Empties every entry, in parallel.
    pub fn clear(&self) {
        self.buckets.par_chunks(4096).for_each(|chunk| {
            for bucket in chunk {
                for e in &bucket.entries {
                    e.check.store(0, Ordering::Relaxed);
                    e.data.store(0, Ordering::Relaxed);
                }
            }
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & GENERATION_MASK
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the CPU to start loading the bucket of `key`: called right after a move is made,
    /// so that the child's probe finds the bucket in cache instead of waiting on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint: it reads nothing the program sees and cannot
            // fault; the pointer is a live bucket of this table anyway.
            unsafe { _mm_prefetch(bucket.cast::<i8>(), _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores a result for `key`. `value` must already be in TT form (`value_to_tt`); `pv`:
    /// the node is or was on a principal variation.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        value: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let entry = TtHit {
            mv,
            value,
            eval,
            depth,
            bound,
            pv,
        };
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                // Same position: keep a known move if we have none, and do not overwrite a
                // deeper exact result with a shallow bound.
                let (old, _) = unpack(data);
                if bound != Bound::Exact && old.depth > depth + 3 && old.bound == Bound::Exact {
                    return;
                }
                let mv = if mv.is_none() { old.mv } else { mv };
                let packed = pack(&TtHit { mv, ..entry }, generation);
                e.data.store(packed, Ordering::Relaxed);
                e.check.store(key ^ packed, Ordering::Relaxed);
                return;
            }
            // An empty slot is taken first (the last one found, as the search has always
            // done: the choice shapes deep searches), else the shallowest and oldest entry.
            // Only the depth and generation bits are read.
            let worth = if data == 0 {
                i32::MIN
            } else {
                let age =
                    (generation.wrapping_sub(stored_generation(data)) & GENERATION_MASK) as i32;
                stored_depth(data) - 8 * age
            };
            if worth < victim_worth || data == 0 {
                victim = e;
                victim_worth = worth;
            }
        }
        let packed = pack(&entry, generation);
        victim.data.store(packed, Ordering::Relaxed);
        victim.check.store(key ^ packed, Ordering::Relaxed);
    }

    /// How full the table is, in permille: current-search entries among the first thousand.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for e in &bucket.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET).max(1)) as u32
    }
}

/// Converts a score for storage: mate scores become distances from this node.
pub fn value_to_tt(value: Value, ply: usize) -> Value {
    use super::{MATE_BOUND, ply_value};
    if value >= MATE_BOUND {
        value + ply_value(ply)
    } else if value <= -MATE_BOUND {
        value - ply_value(ply)
    } else {
        value
    }
}

/// Converts a stored score back: mate distances become distances from the root.
pub fn value_from_tt(value: Value, ply: usize) -> Value {
    use super::{MATE_BOUND, ply_value};
    if value >= MATE_BOUND {
        value - ply_value(ply)
    } else if value <= -MATE_BOUND {
        value + ply_value(ply)
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::new(7, 2), Square::new(4, 2));
        tt.store(0xdead_beef, mv, -123, 45, 7, Bound::Lower, true);
        let hit = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (hit.mv, hit.value, hit.eval, hit.depth, hit.bound, hit.pv),
            (mv, -123, 45, 7, Bound::Lower, true)
        );
        tt.store(0xdead_beef, mv, -123, 45, 7, Bound::Lower, false);
        assert!(!tt.probe(0xdead_beef).unwrap().pv);
        assert!(tt.probe(0xdead_beee).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef).is_none());
    }

    #[test]
    fn quiescence_depths_and_negative_scores_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Move::NONE, -29_000, -32_000, -1, Bound::Upper, false);
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.value, hit.eval, hit.depth), (-29_000, -32_000, -1));
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        use crate::search::MATE;
        let at_root = MATE - 7; // mate in 7 plies from the root
        let stored = value_to_tt(at_root, 3);
        assert_eq!(stored, MATE - 4);
        assert_eq!(value_from_tt(stored, 5), MATE - 9);
        assert_eq!(value_from_tt(value_to_tt(-at_root, 3), 3), -at_root);
        assert_eq!(value_to_tt(55, 10), 55);
    }
}
