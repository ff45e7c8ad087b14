//! The verdict on a repetition cycle, shared by the search and the match referee.
//!
//! For now the rule is the perpetual-check rule alone: a side that gave check with every move
//! of the cycle, while the other side did not, loses; every other cycle is a draw. The chase
//! rules will extend this one place.

/// What a repeated position means for the side to move in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    Draw,
    /// The opponent checked on every move of the cycle: the side to move wins.
    SideToMoveWins,
    /// The side to move checked on every move of the cycle: it loses.
    SideToMoveLoses,
}

/// Judges the cycle between position `n` (the current one, by game ply) and the earlier
/// occurrence `distance` plies back; `in_check(i)` says whether the side to move at position
/// `i` was in check.
pub fn judge_cycle(n: usize, distance: usize, in_check: impl Fn(usize) -> bool) -> CycleVerdict {
    // Positions n, n-2, …: the side to move faced the opponent's moves; n-1, n-3, …: its own.
    let opponent_always_checked = (0..distance).step_by(2).all(|k| in_check(n - k));
    let mover_always_checked = (1..distance).step_by(2).all(|k| in_check(n - k));
    match (opponent_always_checked, mover_always_checked) {
        (true, false) => CycleVerdict::SideToMoveWins,
        (false, true) => CycleVerdict::SideToMoveLoses,
        _ => CycleVerdict::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perpetual_check_loses_and_anything_else_draws() {
        // Positions 0..=4; the side to move at 4 was checked at 4 and 2: its opponent checked.
        let checks = [false, false, true, false, true];
        assert_eq!(
            judge_cycle(4, 4, |i| checks[i]),
            CycleVerdict::SideToMoveWins
        );
        let checks = [false, true, false, true, false];
        assert_eq!(
            judge_cycle(4, 4, |i| checks[i]),
            CycleVerdict::SideToMoveLoses
        );
        let both = [true; 5];
        assert_eq!(judge_cycle(4, 4, |i| both[i]), CycleVerdict::Draw);
        let mixed = [false, false, true, false, false];
        assert_eq!(judge_cycle(4, 4, |i| mixed[i]), CycleVerdict::Draw);
    }
}
