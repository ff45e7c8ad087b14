//! Time management: turning a clock into a soft and a hard limit for one move.
//!
//! The soft limit is what the search aims to use; after each iteration the main thread stops
//! if it has used more than the soft limit scaled by how unsettled the search is (a best move
//! that keeps changing or a falling score earn more time; a single legal move, a best move
//! that has held for several iterations or one that takes nearly all the nodes, less: see
//! `iteration_done`). The hard limit is never crossed: the search checks it every thousand
//! nodes. Both stay below the time left minus the move overhead, so the engine never loses on
//! time.
//!
//! The numbers: the soft limit is a 32nd of the time left (or its share of the moves to go)
//! plus three quarters of the increment; the hard limit four soft limits, at most two fifths
//! of the clock. The soft limit is scaled up by recent changes of the best move and by a
//! falling score, and down for a single legal move (×0.3), for a best move that has held four
//! iterations (×0.7), and by half again when the best move took 85% of the nodes. A fixed
//! time per move (`go movetime`, `analyze --time`) is used in full unless only one move is
//! legal.

use super::params::SearchParams;
use crate::eval::Value;
use std::time::Duration;

/// What the GUI said about the clock for this move (already in milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on our clock.
    pub time_left: Option<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
    /// A fixed time for this move.
    pub move_time: Option<Duration>,
}

/// The limits for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
}

/// Computes the budget for a move, keeping `overhead` in reserve for communication lag.
pub fn allocate(clock: &Clock, overhead: Duration) -> Option<TimeBudget> {
    let min = Duration::from_millis(1);
    if let Some(move_time) = clock.move_time {
        let hard = move_time.saturating_sub(overhead).max(min);
        return Some(TimeBudget { soft: hard, hard });
    }
    let left = clock.time_left?;
    let usable = left.saturating_sub(overhead).max(min);
    let moves = clock.moves_to_go.unwrap_or(32).clamp(1, 60);
    // A share of what is left, plus most of the increment.
    let share = usable / (moves + if clock.moves_to_go.is_some() { 1 } else { 0 }).max(1);
    let soft = (share + clock.increment * 3 / 4).min(usable / 2).max(min);
    // Never more than a fraction of the clock on one move, never past what is usable.
    let cap = if moves == 1 {
        usable * 9 / 10
    } else {
        usable * 2 / 5
    };
    let hard = (soft * 4).min(cap).max(soft.min(usable)).min(usable);
    Some(TimeBudget {
        soft: soft.min(hard),
        hard,
    })
}

/// What the main thread knows after an iteration, for deciding whether to start another.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Time spent on this move so far.
    pub elapsed: Duration,
    /// Recent changes of the best move (each iteration adds its change and halves the sum).
    pub best_changes: f64,
    /// How far the score fell since the iteration before (negative when it rose).
    pub score_drop: Value,
    /// Only one legal move.
    pub single_move: bool,
    /// Iterations since the best move last changed.
    pub settled_iterations: i32,
    /// The best move's share of the nodes searched (0 to 1).
    pub best_move_effort: f64,
}

impl TimeBudget {
    /// A fixed time for this move (`go movetime`, `chariot analyze --time`): no clock to save
    /// time for, so it is used in full unless only one move is legal.
    pub fn is_fixed(&self) -> bool {
        self.soft >= self.hard
    }
}

/// Should the search stop after this iteration? When the time spent reaches the soft limit
/// scaled by how unsettled the search is, or half of that when the best move took nearly all
/// the nodes (another iteration seldom overturns such a move); never past the hard limit.
/// Time saved on a settled move is only worth saving on a clock: a fixed time per move is
/// never cut short by it.
pub fn iteration_done(budget: &TimeBudget, progress: &Progress, p: &SearchParams) -> bool {
    let instability = 1.0 + p.tm_instability * progress.best_changes;
    let falling = (1.0 + progress.score_drop.clamp(0, 100) as f64 / p.tm_drop_scale)
        .clamp(1.0, p.tm_drop_max);
    let single = if progress.single_move {
        p.tm_single_move
    } else {
        1.0
    };
    let on_clock = !budget.is_fixed();
    let settled = if on_clock && progress.settled_iterations >= p.tm_stable_depths {
        p.tm_stable_factor
    } else {
        1.0
    };
    let target = (budget.soft.as_secs_f64() * instability * falling * single * settled)
        .min(budget.hard.as_secs_f64());
    let elapsed = progress.elapsed.as_secs_f64();
    let dominant = on_clock && progress.best_move_effort >= p.tm_effort_share;
    elapsed >= target || (dominant && elapsed >= target / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn fixed_move_time_keeps_the_overhead() {
        let clock = Clock {
            move_time: Some(ms(1000)),
            ..Clock::default()
        };
        assert_eq!(
            allocate(&clock, ms(30)),
            Some(TimeBudget {
                soft: ms(970),
                hard: ms(970)
            })
        );
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        for left in [10, 100, 1_000, 10_000, 300_000] {
            for inc in [0, 100, 3_000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let clock = Clock {
                        time_left: Some(ms(left)),
                        increment: ms(inc),
                        moves_to_go: mtg,
                        move_time: None,
                    };
                    let b = allocate(&clock, ms(20)).unwrap();
                    assert!(b.soft <= b.hard, "{clock:?} {b:?}");
                    assert!(
                        b.hard <= ms(left.saturating_sub(20).max(1)),
                        "{clock:?} {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn sudden_death_spends_a_small_share() {
        let clock = Clock {
            time_left: Some(ms(60_000)),
            ..Clock::default()
        };
        let b = allocate(&clock, ms(30)).unwrap();
        assert!(b.soft < ms(3_000) && b.soft > ms(1_000), "{b:?}");
        assert!(b.hard <= ms(24_000));
    }

    /// An iteration's state that earns exactly the soft limit: nothing scales it.
    fn plain(elapsed_ms: u64) -> Progress {
        Progress {
            elapsed: ms(elapsed_ms),
            best_changes: 0.0,
            score_drop: 0,
            single_move: false,
            settled_iterations: 0,
            best_move_effort: 0.5,
        }
    }

    /// `progress` after `elapsed_ms` instead.
    fn at(progress: Progress, elapsed_ms: u64) -> Progress {
        Progress {
            elapsed: ms(elapsed_ms),
            ..progress
        }
    }

    /// Does the search stop after an iteration in this state, with the default parameters?
    fn stops(budget: &TimeBudget, progress: Progress) -> bool {
        iteration_done(budget, &progress, &SearchParams::default())
    }

    #[test]
    fn iterations_stop_at_the_scaled_soft_limit() {
        let p = SearchParams::default();
        let budget = TimeBudget {
            soft: ms(1_000),
            hard: ms(3_000),
        };
        assert!(!budget.is_fixed());
        assert!(!stops(&budget, plain(990)));
        assert!(stops(&budget, plain(1_000)));
        // An unstable best move or a falling score earn more time, never past the hard limit.
        let unstable = Progress {
            best_changes: 1.0,
            ..plain(0)
        };
        assert!(!stops(&budget, at(unstable, 1_200)));
        let falling = Progress {
            score_drop: 100,
            ..plain(0)
        };
        assert!(!stops(&budget, at(falling, 1_200)));
        let frantic = Progress {
            best_changes: 100.0,
            ..plain(0)
        };
        assert!(!stops(&budget, at(frantic, 2_990)));
        assert!(stops(&budget, at(frantic, 3_000)));
        // A settled best move, a dominant one or a single legal move get less.
        let settled = Progress {
            settled_iterations: p.tm_stable_depths,
            ..plain(0)
        };
        assert!(stops(&budget, at(settled, 800)));
        let not_yet_settled = Progress {
            settled_iterations: p.tm_stable_depths - 1,
            ..settled
        };
        assert!(!stops(&budget, at(not_yet_settled, 800)));
        let dominant = Progress {
            best_move_effort: 0.9,
            ..plain(0)
        };
        assert!(stops(&budget, at(dominant, 520)));
        assert!(!stops(&budget, at(dominant, 480)));
        let single = Progress {
            single_move: true,
            ..plain(0)
        };
        assert!(stops(&budget, at(single, 400)));
    }

    #[test]
    fn a_fixed_move_time_is_used_in_full_unless_one_move_is_legal() {
        let fixed = TimeBudget {
            soft: ms(1_000),
            hard: ms(1_000),
        };
        assert!(fixed.is_fixed());
        let settled_and_dominant = Progress {
            settled_iterations: 10,
            best_move_effort: 0.99,
            ..plain(0)
        };
        assert!(!stops(&fixed, at(settled_and_dominant, 900)));
        assert!(stops(&fixed, at(settled_and_dominant, 1_000)));
        let single = Progress {
            single_move: true,
            ..plain(0)
        };
        assert!(stops(&fixed, at(single, 400)));
    }

    #[test]
    fn no_clock_means_no_budget() {
        assert_eq!(allocate(&Clock::default(), ms(30)), None);
    }
}
