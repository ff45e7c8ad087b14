//! Time management: turning a clock into a soft and a hard limit for one move.
//!
//! The soft limit is what the search aims to use; after each iteration the main thread stops
//! if it has used more than the soft limit scaled by how unsettled the search is (a best move
//! that keeps changing or a falling score earn more time, one dominant move less). The hard
//! limit is never crossed: the search checks it every few thousand nodes. Both stay below
//! the time left minus the move overhead, so the engine never loses on time.

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

    #[test]
    fn no_clock_means_no_budget() {
        assert_eq!(allocate(&Clock::default(), ms(30)), None);
    }
}
