//! The search: iterative deepening with aspiration windows over a principal variation search,
//! quiescence on captures, a shared transposition table, and Lazy-SMP threads (`threads`).
//!
//! A `Worker` is one search thread's state. The main worker (id 0) alone checks the clock,
//! reports through the `Reporter`, and decides when to stop; helpers search the same tree with
//! staggered depths and share what they learn through the table.
//!
//! Techniques of the strongest engines tried here and kept, with what they measured against
//! the search before them (pentanomial Elo, 95%):
//!
//! | Technique | Games | Elo | Notes |
//! |---|---|---|---|
//! | The re-search of a reduced move that beats alpha a ply deeper when it beat the best so far by more than 50 + 2·depth, a ply shallower when by less than depth (`pvs`) | 400 at 20,000 nodes a move | +30.5 ± 23.4 (129/177/94, LOS 99.0%) | `chariot bench` signature 571749; with the gen9 net, against the search and net before at 10 s + 0.1 s: −2.8 ± 37.2 (28/69/29, 126 games); the search of f231a32 without it, against itself at 2 s + 0.02 s: −5.2 ± 19.6 (78/238/84, 400 games, pairs 8/44/95/52/1, no time loss), so it stays |
//! | Quiescence stands pat on the table's value where its bound says it is nearer the truth than the static evaluation (`qsearch`), and `improving` compares with four plies up when we were in check two plies up (with neither, it counts as improving; before, a check two plies up always counted as improving) | 2,400 at 20,000 nodes a move | +9.0 ± 10.1 (713/1036/651, pairs 72/282/464/276/106, LOS 95.3%; SPRT (0, 10) at LLR 1.50, undecided, when stopped); each alone +11.3 ± 23.5 and +11.3 ± 24.4 (400 games each) | `chariot bench` signature 550315; at 3 s + 0.03 s 0.0 ± 24.9 (51/158/51, 260 games, no time loss), too few games to see +9 either way |
//! | The static evaluation drawn toward 0 as the no-capture clock runs: by clock / (2 · limit) of itself, half way at the move limit (`Worker::evaluate`; datagen's searches go without it, their scores label positions that carry no clock) | 1,717 at 20,000 nodes a move | +12.4 ± 12.2 (511/755/451, pairs 58/194/313/215/78, LOS 97.3%); +18.3 ± 24.5 after 400 games, +10.4 ± 18.1 after 800, +10.4 ± 14.7 after 1,200 | `chariot bench` signature 556359; costs one multiply an evaluation; not measured alone at a clock |
//!
//! All the kept steps and the gen9 net together (efe4b1d) against 2e8e167 (gen8) at
//! 10 s + 0.1 s: +7.8 ± 19.6 over 400 games (86/237/77, pairs 3/43/106/38/10), where the
//! steps at 20,000 nodes summed to about +70. 20,000 nodes is 8 to 10 ms a move and depth 9
//! to 10 in the opening and middlegame (`go nodes 20000`); what pays there does not carry over
//! to the depths of a real clock, so a change is next measured at a clock (2 s + 0.02 s and
//! up) before it is kept. There, 400 games (about 27 minutes on two cores) resolve ±20 Elo,
//! and the first 400 can mislead: a trial at +9.6 after 400 games stood at −9.6 after 800.
//!
//! Techniques of the strongest engines tried here and not kept, with what they measured
//! against the search of their day (pentanomial Elo, 95%):
//!
//! | Technique | Games | Elo | Notes |
//! |---|---|---|---|
//! | Correction history (static evaluation corrected by the mean of a pawn-structure and a material table per side, each entry blended 1/16 of the way to the node's search value minus evaluation at depth 16 and over) | 300 at 20,000 nodes a move | −5.8 ± 30.3 | `chariot bench` 0.94× the nodes/s; not worth a timed test |
//! | The same, the two tables summed and blended twice as fast | 96 at 20,000 nodes | 10/8/79 W/D/L, about −300 | the material table, one entry for every position of a given material, learns a per-side offset from the search's biased samples (fail-high nodes give lower bounds, fail-low upper) and the null move and reverse futility trust it: a correction needs a small weight, or a use in move ordering only, before it can pay |
//! | Singular extension (hash move at depth ≥ 8 with an entry ≥ depth − 3: the others searched at half depth below its score − 2·depth; extended one ply if all fail, multi-cut if they beat beta, one ply less if only its entry did) | 400 at 20,000 nodes; 320 at 3 s + 0.03 s | +20.9 ± 26.1; +4.3 ± 20.6 (57/210/53, SPRT (0, 20) at LLR −1.01 when stopped) | the gain at equal nodes does not show at a short clock; a smaller margin and double extensions are left to try |
//! | The table's value as the evaluation for pruning (where its bound says it is nearer the truth than the static evaluation: reverse futility, null move, futility) | 287 at 20,000 nodes | −18.2 ± 27.8 (70/131/86) | `chariot bench` signature 560006; stopped early |
//! | ProbCut on top of that (depth ≥ 5, captures with SEE ≥ beta + 200 − evaluation, quiescence then depth − 4 at beta + 200, cut stored at depth − 3) | 111 at 20,000 nodes | −19.0 ± 51.3 (28/48/35) | stopped with the former |
//! | ProbCut alone (the same, cut by the static evaluation) | 199 at 20,000 nodes | −22.8 ± 40.4 (56/74/69) | `chariot bench` signature 542404; stopped early; likely the null move and reverse futility already cut most nodes a good capture would, so its extra searches only cost nodes (not measured) |
//! | Razoring (non-PV, depth ≤ 3, static evaluation + 250 + 150·depth² below alpha: the quiescence search's value if it stays at or below alpha) | 206 at 20,000 nodes | −5.1 ± 32.0 (59/85/62) | stopped early; reverse futility and futility pruning already drop most such nodes |
//! | Late captures reduced (past the third move, no check either way: the table's reduction less one, one less on a PV-marked node, one more at an expected cut node) | 246 at 20,000 nodes | +1.4 ± 32.5 (74/99/73) | stopped early; the picker puts the losing captures after the quiets, and there are few of them |
//! | A bonus for the opponent's quiet move into a node that fails low (half the cutoff bonus, to its butterfly and continuation histories) | 247 at 20,000 nodes | +2.8 ± 31.2 (78/93/76) | stopped early |
//! | Singular extension again, wider: depth ≥ 6, margin 1.5·depth, two plies when the others fail 30 below the margin off the PV (at most 6 on a line), multi-cut, one ply less when only the entry beats beta | 400 at 20,000 nodes | +7.8 ± 26.9 (128/153/119) | `chariot bench` signature 920358 (1.7× the nodes to the same depth); no clearer than the first form |
//! | Check extensions only for checks that SEE does not lose | 325 at 20,000 nodes | −1.1 ± 26.6 (99/127/99) | `chariot bench` signature 540598 (0.8% more nodes); stopped early |
//! | Futility and SEE pruning of quiet moves by the depth left after their late-move reduction (less one when not improving, history added), besides the node's depth | 400 at 20,000 nodes | +7.8 ± 23.6 (123/163/114; LOS 72.1%) | `chariot bench` signature 513735 (5% fewer nodes); no clear gain at equal nodes, where pruning more already pays in depth |
//! | Futility pruning of captures (depth ≤ 6, no check: static evaluation + 170 + 125·depth + the victim's value + capture history / 8 at or below alpha) | 400 at 20,000 nodes | −12.2 ± 26.8 (105/176/119) | `chariot bench` signature 524907; SEE pruning already drops the losing captures, and a capture that wins material is seldom futile |
//! | Quiet moves ordered by threats: a chariot leaving a point a pawn, horse or cannon attacks (or a cannon or horse leaving a lesser piece's attack) tried early, one entering a pawn's or horse's attack late (±24,000 for the chariot, ±12,000 for the others, on top of the history) | 316 at 20,000 nodes | −9.9 ± 27.5 (87/133/96) | `chariot bench` signature 535648; stopped early; a smaller bonus, next to the history rather than over it, is untried |
//! | Continuation history over a fourth earlier move, six plies back (ordering, pruning and reductions read it; every cutoff teaches it) | 400 at 20,000 nodes | −4.3 ± 26.3 (117/161/122) | `chariot bench` signature 533556; +35 ± 39 after 167 games, level by the end |
//! | No null move where the table's entry is an upper bound below beta | 400 at 20,000 nodes | −7.8 ± 21.9 (108/175/117) | `chariot bench` signature 537830 |
//! | A quiet hash move that cuts off from the table taught to the histories (the loop's cutoff bonus for its depth) | 352 at 20,000 nodes | −23.7 ± 25.6 (89/150/113) | `chariot bench` signature 530559; stopped early; the bonus, the loop's full one at every table cutoff, likely drowns what the loop's own cutoffs teach |
//! | A fail-high's value pulled toward beta by depth ((value·depth + beta) / (depth + 1)) | 400 at 20,000 nodes | −2.6 ± 23.4 (110/177/113) | `chariot bench` signature 551206 |
//! | Hindsight depth: one ply more where the parent reduced the move by 3 or more and the two static evaluations sum to 0 or less (the move did not hurt the side that made it), one less where it reduced by 2 or more and they sum to more than 175 | 278 at 20,000 nodes | −41.4 ± 30.6 (70/105/103, LOS 0.6%) | `chariot bench` signature 568047; stopped early |
//! | Quiescence fail-highs softened: standing pat returns the midpoint of its value and beta, a searched fail-high three quarters of the way from beta to its value | 400 at 20,000 nodes | −13.0 ± 25.9 (107/171/122, LOS 16.1%) | `chariot bench` signature 533007 |
//! | Aspiration fail-highs searched again a ply shallower for each fail-high in a row (at least depth 1; a fail-low starts the count again) | 400 at 20,000 nodes | −6.9 ± 25.4 (123/146/131, LOS 30.8%) | `chariot bench` signature 470862 |
//! | Correction history, a third form: per side to move, one table by pawn formation and one by defensive formation (kings, advisors, elephants), hashed from the bitboards, each bounded to about ±25 cp; taught by nodes whose value lies on the side of their evaluation that their bound vouches for, unless a capture was best; the table keeps the raw evaluation | 400 at 2 s + 0.02 s | −6.9 ± 20.2 (86/220/94, pairs 4/54/96/38/8, no time loss) | `chariot bench` signature 577065; measured at a clock only |
//! | Singular extension, a third form: depth ≥ 7, an entry at least depth − 3 deep that is no upper bound; the others searched at (depth − 1) / 2 below the hash move's value less one centipawn a ply; one ply more when they all fail below it, multi-cut when that margin already beats beta, one ply less when only the entry beat beta or the node is expected to cut | 400 at 2 s + 0.02 s | −2.6 ± 20.1 (84/229/87, pairs 10/40/94/55/1, no time loss) | `chariot bench` signature 775542 (1.4× the nodes to the same depth); measured at a clock only |
//! | The opponent's quiet move into a node (no capture, neither side in check) taught to its butterfly history by how it moved the evaluation: −8 × (its evaluation + ours), within ±1,500, plus 500 | 800 at 2 s + 0.02 s | −9.6 ± 14.3 (151/476/173, pairs 19/87/200/85/9, no time loss); +9.6 ± 20.2 over the first 400, −28.7 ± 20.1 over the next 400 | `chariot bench` signature 617644; measured at a clock only |

pub mod breadcrumbs;
pub mod history;
pub mod params;
pub mod picker;
mod pvs;
mod qsearch;
pub mod strength;
pub mod threads;
pub mod timeman;
pub mod tt;
mod worker;

pub use worker::Worker;
#[allow(unused_imports)]
use worker::*;

use crate::core::{Move, Piece, PieceKind};
use crate::eval::{Accumulator, Evaluator, Value, evaluate_with, nnue, nnue_value};
use crate::position::Position;
use crate::rules::{CycleVerdict, Rules, cycle_verdict, insufficient_material};
use history::{Histories, PieceTo, Tried};
use params::SearchParams;
use picker::{MovePicker, PickerBuffers};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable, TtHit, value_from_tt, value_to_tt};

/// At most this many moves of a node are put off for another thread's (see `pvs`).
const DEFERRED_MOVES: usize = 8;
/// Deepest ply the search reaches (iterations, extensions and quiescence together).
pub const MAX_PLY: usize = 128;
/// Score of giving mate now; mate in `n` plies is `MATE - n`.
pub const MATE: Value = 30_000;
/// Scores at or beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// Above every real score.
pub const INFINITE: Value = MATE + 1;
/// A win by the repetition rules (the opponent's perpetual check), below any mate score.
pub const RULE_WIN: Value = 20_000;
/// The score of a draw by the rules. The evaluation never returns it, so a stored score equal
/// to it always comes from a rule (repetition, move limit, material) somewhere below.
pub const DRAW: Value = 0;

/// Does this score come from the rules of the game rather than the board: a draw, or a win or
/// loss by a repetition verdict? Such scores depend on the moves that led to the position, so
/// the transposition table keeps them only for move ordering, never for a cut-off (a position
/// reached by another path may have another value).
#[inline]
pub fn is_rule_value(value: Value) -> bool {
    value == DRAW || (RULE_WIN - MAX_PLY as Value..=RULE_WIN).contains(&value.abs())
}

/// A ply count as a score offset.
#[inline]
pub fn ply_value(ply: usize) -> Value {
    ply as Value
}

/// The score of being mated at `ply`.
#[inline]
pub fn mated_in(ply: usize) -> Value {
    -MATE + ply_value(ply)
}

/// Mate in how many moves (positive: we mate; negative: we are mated), if `value` is a mate.
pub fn mate_in_moves(value: Value) -> Option<i32> {
    if value >= MATE_BOUND {
        Some((MATE - value + 1) / 2)
    } else if value <= -MATE_BOUND {
        Some(-(MATE + value) / 2)
    } else {
        None
    }
}

/// What bounds one search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<i32>,
    pub time: Option<timeman::TimeBudget>,
    /// Search until told to stop (`go infinite`, pondering).
    pub infinite: bool,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
    /// Never these root moves.
    pub ban_moves: Vec<Move>,
    pub multipv: usize,
    /// The rules repetitions and the no-capture limit are scored by.
    pub rules: Rules,
    /// The evaluation to search with.
    pub eval: Evaluator,
    /// Search on the evaluation as it stands, not drawn toward 0 by the no-capture clock
    /// (`Worker::evaluate`): for `datagen`, whose scores label positions that carry no clock.
    pub unscaled_eval: bool,
    /// A playing level below full strength (`strength`): one thread, its node budget (the
    /// caller puts it in `nodes`), and its choice among the best root moves.
    pub strength: Option<strength::Level>,
}

/// One iteration's (or one PV line's) report.
#[derive(Clone, Debug)]
pub struct IterationInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based PV line number.
    pub multipv: usize,
    pub value: Value,
    /// `Some(Lower)` / `Some(Upper)` when the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl IterationInfo {
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` when the side to move has no legal move (it has lost).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub value: Value,
    pub depth: i32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Where the main thread sends what it finds. Only the main thread calls it.
pub trait Reporter: Send + Sync {
    fn iteration(&self, _info: &IterationInfo) {}
    fn current_move(&self, _depth: i32, _mv: Move, _number: usize) {}
    fn finished(&self, _result: &SearchResult) {}
}

/// A reporter that says nothing.
pub struct Silent;
impl Reporter for Silent {}

/// The cores this process may run on (asked once: it reads the affinity mask and cgroup
/// quota); when unknown, as many as any thread count (so nothing yields).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(usize::MAX, |n| n.get()))
}

/// State shared by all threads of a search.
pub struct SharedState {
    pub stop: AtomicBool,
    /// The GUI said `stop` (as opposed to a limit ending the search).
    pub stop_requested: AtomicBool,
    /// While set, the search does not stop on its own (pondering, `go infinite`).
    pub ponder: AtomicBool,
    /// Microseconds from `epoch` at which the clock started (moved by `ponderhit`).
    pub clock_start_us: AtomicU64,
    pub epoch: Instant,
    pub node_counts: Vec<AtomicU64>,
    /// Which thread searches which node near the root (used with more than one thread).
    pub breadcrumbs: breadcrumbs::Breadcrumbs,
    /// More search threads than the machine has cores: each then gives up the processor at
    /// every 1024th node, so that a thread woken by input (`stop`, `isready`) runs within
    /// about a millisecond instead of waiting for a running thread's time slice to end.
    pub oversubscribed: bool,
}

impl SharedState {
    pub fn new(threads: usize) -> SharedState {
        SharedState {
            stop: AtomicBool::new(false),
            stop_requested: AtomicBool::new(false),
            ponder: AtomicBool::new(false),
            clock_start_us: AtomicU64::new(0),
            epoch: Instant::now(),
            node_counts: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            breadcrumbs: breadcrumbs::Breadcrumbs::new(),
            oversubscribed: threads > cores(),
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Time since the clock started (the search start, or `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        let now = self.epoch.elapsed().as_micros() as u64;
        Duration::from_micros(now.saturating_sub(self.clock_start_us.load(Ordering::Relaxed)))
    }

    /// Starts the clock now.
    pub fn restart_clock(&self) {
        self.clock_start_us
            .store(self.epoch.elapsed().as_micros() as u64, Ordering::Relaxed);
    }
}

/// A root move with what the last iterations said about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub value: Value,
    pub previous_value: Value,
    /// The iteration that gave `value` and `pv`.
    pub depth: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes this thread spent below the move in this search (for time management: a move
    /// that takes nearly all the effort is seldom overturned).
    pub nodes: u64,
}

/// Searches `pos` on the calling thread with a private table: for tests and tools that want
/// a plain function.
pub fn search_position(pos: &Position, limits: &Limits, hash_mb: usize) -> SearchResult {
    let tt = TranspositionTable::new(hash_mb);
    let shared = Arc::new(SharedState::new(1));
    let mut worker = Worker::new(0);
    // The clock starts once the table and the worker exist: a search's time is searching.
    shared.restart_clock();
    worker.search(pos, limits, &tt, &shared, &Silent);
    threads::result_of(&worker, &shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: i32) -> SearchResult {
        let pos = Position::from_fen(fen).unwrap();
        search_position(
            &pos,
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            8,
        )
    }

    #[test]
    fn finds_mate_in_one() {
        // The chariot on a8 holds rank 8; the other chariot mates on b9.
        let r = best("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", 4);
        assert_eq!(r.best.unwrap().to_string(), "b0b9");
        assert_eq!(mate_in_moves(r.value), Some(1));
    }

    #[test]
    fn no_move_means_no_best_move() {
        let r = best("3k5/9/9/9/9/9/9/9/9/3RK4 b", 4);
        assert!(r.best.is_none());
    }

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-MATE + 2), Some(-1));
        assert_eq!(mate_in_moves(150), None);
    }
}
