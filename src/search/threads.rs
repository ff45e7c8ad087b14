//! Lazy SMP: a pool of persistent search threads sharing one transposition table.
//!
//! Every thread searches the same root with its own histories; they help each other only
//! through the table. Thread 0 is the main thread: it alone reports and watches the clock,
//! and when it stops it stops the others, collects their results and picks the move by a
//! vote weighted by depth and score. Threads are created once (with large stacks) and wait
//! for work on a channel, so starting a search costs no thread creation.

use super::tt::TranspositionTable;
use super::worker::line_info;
use super::{Limits, MATE_BOUND, Reporter, RootMove, SearchResult, SharedState, Silent, Worker};
use crate::core::Move;
use crate::position::Position;
use crossbeam_channel::{Receiver, Sender, unbounded};
use parking_lot::{Mutex, RwLock};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack size of each search thread: deep recursion with move lists on the stack.
const THREAD_STACK: usize = 32 * 1024 * 1024;

/// What one thread found.
#[derive(Clone, Debug)]
struct ThreadOutcome {
    best: Option<Move>,
    pv: Vec<Move>,
    value: i32,
    depth: i32,
    /// Its first line, to report when its move is chosen.
    line: Option<RootMove>,
}

struct Job {
    pos: Position,
    limits: Limits,
    reporter: Arc<dyn Reporter>,
    tt: Arc<RwLock<TranspositionTable>>,
    shared: Arc<SharedState>,
    helper_results: (Sender<ThreadOutcome>, Receiver<ThreadOutcome>),
    threads: usize,
    done: Sender<SearchResult>,
}

enum Task {
    Search(Arc<Job>),
    /// Forget the histories, then say so on the channel.
    Clear(Sender<()>),
    Exit,
}

struct PoolThread {
    tasks: Sender<Task>,
    handle: Option<JoinHandle<()>>,
}

/// The search threads, the shared table and the state of the current search.
pub struct SearchPool {
    tt: Arc<RwLock<TranspositionTable>>,
    shared: Arc<Mutex<Arc<SharedState>>>,
    threads: Vec<PoolThread>,
    done: Option<Receiver<SearchResult>>,
}

/// The result a single worker reached.
pub fn result_of(worker: &Worker, shared: &SharedState) -> SearchResult {
    let best = worker.root_moves().first();
    SearchResult {
        best: best.map(|rm| rm.mv),
        ponder: best.and_then(|rm| rm.pv.get(1).copied()),
        value: best.map_or(0, |rm| {
            if rm.value == -super::INFINITE {
                rm.previous_value
            } else {
                rm.value
            }
        }),
        depth: worker.completed_depth().max(1),
        nodes: shared.total_nodes(),
        elapsed: shared.elapsed(),
    }
}

fn outcome_of(worker: &Worker) -> ThreadOutcome {
    let best = worker.root_moves().first();
    ThreadOutcome {
        best: best.map(|rm| rm.mv),
        pv: best.map(|rm| rm.pv.clone()).unwrap_or_default(),
        value: best.map_or(0, |rm| rm.value),
        depth: worker.completed_depth(),
        line: best.cloned(),
    }
}

/// Picks among the threads' answers: each thread votes for its move with a weight growing
/// with its depth and its score; a proven mate wins outright. Only threads that completed at
/// least `floor` plies have a say (see `vote_floor`); if none did, the main thread answers.
fn vote(main: &ThreadOutcome, helpers: &[ThreadOutcome], floor: i32) -> ThreadOutcome {
    let all: Vec<&ThreadOutcome> = std::iter::once(main)
        .chain(helpers)
        .filter(|o| o.best.is_some() && o.depth > 0 && o.depth >= floor)
        .collect();
    match all.as_slice() {
        [] => return main.clone(),
        [only] => return (*only).clone(),
        _ => {}
    }
    if let Some(mate) = all
        .iter()
        .filter(|o| o.value >= MATE_BOUND)
        .max_by_key(|o| o.value)
    {
        return (*mate).clone();
    }
    let min_value = all.iter().map(|o| o.value).min().unwrap_or(0);
    let mut weights: HashMap<Move, i64> = HashMap::new();
    for o in &all {
        let weight = (o.value - min_value + 20) as i64 * o.depth as i64;
        *weights.entry(o.best.unwrap()).or_default() += weight;
    }
    let chosen = all
        .iter()
        .max_by_key(|o| (weights[&o.best.unwrap()], o.depth, o.value))
        .expect("at least two outcomes");
    (*chosen).clone()
}

/// The depth a thread must have completed to vote. Normally the main thread's: a helper
/// stopped early in a shallower iteration knows less. But when the search was limited to
/// `depth` plies and some thread completed them, only such threads vote, so `go depth N` is
/// answered from depth N even when the main thread was stopped one iteration short.
fn vote_floor(main: &ThreadOutcome, helpers: &[ThreadOutcome], limit: Option<i32>) -> i32 {
    let deepest = helpers.iter().map(|o| o.depth).fold(main.depth, i32::max);
    match limit {
        Some(depth) if deepest >= depth => depth,
        _ => main.depth,
    }
}

fn thread_main(id: usize, tasks: Receiver<Task>) {
    let mut worker = Worker::new(id);
    for task in tasks {
        match task {
            Task::Search(job) => run_job(&mut worker, &job),
            Task::Clear(done) => {
                worker.clear();
                let _ = done.send(());
            }
            Task::Exit => break,
        }
    }
}

fn run_job(worker: &mut Worker, job: &Job) {
    if worker.id != 0 && job.limits.strength.is_some() {
        // A playing level searches on one thread, so that a seeded game replays exactly.
        let _ = job.helper_results.0.send(ThreadOutcome {
            best: None,
            pv: Vec::new(),
            value: 0,
            depth: 0,
            line: None,
        });
        return;
    }
    let tt = job.tt.read();
    let silent = Silent;
    let reporter: &dyn Reporter = if worker.id == 0 {
        job.reporter.as_ref()
    } else {
        &silent
    };
    worker.search(&job.pos, &job.limits, &tt, &job.shared, reporter);
    if worker.id != 0 {
        let _ = job.helper_results.0.send(outcome_of(worker));
        return;
    }
    // Main thread: a ponder or infinite search answers only after `ponderhit` or `stop`.
    while (job.limits.infinite || job.shared.ponder.load(Ordering::Relaxed))
        && !job.shared.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    // A playing level thinks at least a share of what the clock would give a full-strength
    // move, as a person would expect; `stop` still ends it at once.
    if let (Some(_), Some(budget)) = (job.limits.strength, job.limits.time) {
        let least = budget.soft.mul_f64(super::strength::THINK_SHARE);
        while job.shared.elapsed() < least && !job.shared.stop_requested.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    job.shared.stop.store(true, Ordering::Relaxed);
    let helpers: Vec<ThreadOutcome> = (1..job.threads)
        .filter_map(|_| job.helper_results.1.recv().ok())
        .collect();
    let mut result = result_of(worker, &job.shared);
    // A level's choice among the lines it ranked, reported as line 1; else, with one line,
    // the threads' vote. (With several lines the main thread's ranking is the answer: a vote
    // would pick one thread's first line against another's.)
    if let Some(level) = &job.limits.strength {
        let pick = level.choose(worker.root_moves(), job.pos.key());
        if pick > 0 {
            let line = &worker.root_moves()[pick];
            result.best = Some(line.mv);
            result.ponder = line.pv.get(1).copied();
            result.value = line.value;
            job.reporter
                .iteration(&line_info(line, 0, &tt, &job.shared));
        }
    } else if job.limits.multipv <= 1 {
        let main = outcome_of(worker);
        let floor = vote_floor(&main, &helpers, job.limits.depth);
        let chosen = vote(&main, &helpers, floor);
        // Of the threads that chose that move, the deepest one's line is reported: a helper
        // that completed the last iteration knows it better than a main thread stopped short.
        let chosen = std::iter::once(&main)
            .chain(helpers.iter())
            .filter(|o| o.best == chosen.best && o.depth >= chosen.depth)
            .max_by_key(|o| o.depth)
            .cloned()
            .unwrap_or(chosen);
        // The chosen thread's line (its move, or the same move seen deeper) is the answer, and
        // is reported as the first line so that `bestmove` is always line 1's first move.
        if chosen.best.is_some() && (chosen.best != result.best || chosen.depth > result.depth) {
            result.best = chosen.best;
            result.ponder = chosen.pv.get(1).copied();
            result.value = chosen.value;
            result.depth = chosen.depth.max(1);
            if let Some(line) = &chosen.line {
                job.reporter
                    .iteration(&line_info(line, 0, &tt, &job.shared));
            }
        }
    }
    result.nodes = job.shared.total_nodes();
    job.reporter.finished(&result);
    let _ = job.done.send(result);
}

/// Stops the search the pool runs at the time of the call (see `SearchPool::stopper`).
#[derive(Clone)]
pub struct Stopper(Arc<Mutex<Arc<SharedState>>>);

impl Stopper {
    pub fn stop(&self) {
        let shared = self.0.lock();
        shared.stop_requested.store(true, Ordering::Relaxed);
        shared.stop.store(true, Ordering::Relaxed);
    }
}

impl SearchPool {
    /// A pool of `threads` threads and a table of `hash_mb` MB.
    pub fn new(threads: usize, hash_mb: usize) -> SearchPool {
        let mut pool = SearchPool {
            tt: Arc::new(RwLock::new(TranspositionTable::new(hash_mb))),
            shared: Arc::new(Mutex::new(Arc::new(SharedState::new(1)))),
            threads: Vec::new(),
            done: None,
        };
        pool.set_threads(threads);
        pool
    }

    pub fn thread_count(&self) -> usize {
        self.threads.len()
    }

    /// Replaces the threads (between searches only).
    pub fn set_threads(&mut self, count: usize) {
        self.wait();
        self.shutdown_threads();
        let count = count.max(1);
        for id in 0..count {
            let (tx, rx) = unbounded();
            let handle = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(THREAD_STACK)
                .spawn(move || thread_main(id, rx))
                .expect("spawn a search thread");
            self.threads.push(PoolThread {
                tasks: tx,
                handle: Some(handle),
            });
        }
        *self.shared.lock() = Arc::new(SharedState::new(count));
    }

    /// Resizes the table (between searches only); it starts empty. A size the system cannot
    /// give is refused with the error saying why, and the old table stays.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), String> {
        self.wait();
        self.tt.write().resize(megabytes)
    }

    /// A new game: empty table, fresh histories. Returns once every thread has cleared its
    /// own, so that the next search's clock does not run while they do.
    pub fn clear(&mut self) {
        self.wait();
        let (done_tx, done_rx) = unbounded();
        for t in &self.threads {
            let _ = t.tasks.send(Task::Clear(done_tx.clone()));
        }
        drop(done_tx);
        self.tt.read().clear();
        // Ends early (with an error) only if a thread is gone and dropped its message.
        while done_rx.recv().is_ok() {}
    }

    /// Starts searching `pos`; returns at once. `ponder` keeps the clock from running until
    /// `ponderhit`.
    pub fn start(
        &mut self,
        pos: &Position,
        limits: Limits,
        ponder: bool,
        reporter: Arc<dyn Reporter>,
    ) {
        self.wait();
        let shared = Arc::new(SharedState::new(self.threads.len()));
        shared.ponder.store(ponder, Ordering::Relaxed);
        shared.restart_clock();
        *self.shared.lock() = shared.clone();
        self.tt.read().new_search();
        let (done_tx, done_rx) = unbounded();
        let job = Arc::new(Job {
            pos: pos.clone(),
            limits,
            reporter,
            tt: self.tt.clone(),
            shared,
            helper_results: unbounded(),
            threads: self.threads.len(),
            done: done_tx,
        });
        for t in &self.threads {
            let _ = t.tasks.send(Task::Search(job.clone()));
        }
        self.done = Some(done_rx);
    }

    /// Asks the running search to stop (it answers through its reporter).
    pub fn stop(&self) {
        self.stopper().stop();
    }

    /// Was the search running now (or the last one) told to stop, by `stop` or a `Stopper`?
    pub fn stop_requested(&self) -> bool {
        self.shared.lock().stop_requested.load(Ordering::Relaxed)
    }

    /// A handle that stops whichever search is running when it is used, for a thread other
    /// than the one that drives the pool (the input reader, answering `stop` in one step).
    pub fn stopper(&self) -> Stopper {
        Stopper(self.shared.clone())
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        let shared = self.shared.lock();
        shared.restart_clock();
        shared.ponder.store(false, Ordering::Relaxed);
    }

    /// Waits for the running search, if any, and returns its result.
    pub fn wait(&mut self) -> Option<SearchResult> {
        let rx = self.done.take()?;
        rx.recv().ok()
    }

    /// Runs a search to the end on the pool and returns its result.
    pub fn search_sync(
        &mut self,
        pos: &Position,
        limits: Limits,
        reporter: Arc<dyn Reporter>,
    ) -> SearchResult {
        self.start(pos, limits, false, reporter);
        self.wait().unwrap_or_default()
    }

    /// What the table knows about a position.
    pub fn probe(&self, key: u64) -> Option<super::tt::TtHit> {
        self.tt.read().probe(key)
    }

    fn shutdown_threads(&mut self) {
        for t in &self.threads {
            let _ = t.tasks.send(Task::Exit);
        }
        for t in &mut self.threads {
            if let Some(h) = t.handle.take() {
                let _ = h.join();
            }
        }
        self.threads.clear();
    }
}

impl Drop for SearchPool {
    fn drop(&mut self) {
        self.stop();
        self.wait();
        self.shutdown_threads();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(mv: &str, value: i32, depth: i32) -> ThreadOutcome {
        let best = Move::parse_iccs(mv).unwrap();
        ThreadOutcome {
            best: Some(best),
            pv: vec![best],
            value,
            depth,
            line: None,
        }
    }

    #[test]
    fn a_depth_limited_search_answers_from_the_requested_depth() {
        // The main thread was stopped at depth 5 with a better-looking move; a helper
        // completed the requested depth 6.
        let main = outcome("h2e2", 80, 5);
        let helpers = [outcome("b2e2", 20, 6)];
        let floor = vote_floor(&main, &helpers, Some(6));
        assert_eq!(floor, 6);
        let chosen = vote(&main, &helpers, floor);
        assert_eq!((chosen.best, chosen.depth), (helpers[0].best, 6));
        // Without a depth limit the deeper helper only adds its weight to the vote.
        assert_eq!(vote_floor(&main, &helpers, None), 5);
    }

    #[test]
    fn shallower_helpers_have_no_say() {
        let main = outcome("h2e2", 10, 8);
        let helpers = [outcome("b2e2", 300, 7), outcome("c3c4", 300, 6)];
        let floor = vote_floor(&main, &helpers, None);
        assert_eq!(vote(&main, &helpers, floor).best, main.best);
        // Also when a depth limit was not reached by anyone.
        let floor = vote_floor(&main, &helpers, Some(12));
        assert_eq!(vote(&main, &helpers, floor).best, main.best);
    }
}
