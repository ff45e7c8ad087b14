//! Which rank numbers a client writes moves in, and converting moves between them.
//!
//! Xiangqi clients disagree on ranks: Pikafish-style UCI clients, ElephantEye-style UCCI
//! clients and XBoard's Cyclone dialect (`uci2wb -c`) write ICCS with ranks 0..9 (`h2e2`,
//! `b0c2`), while tools built around Fairy-Stockfish's UCI (variantfishtest, LiGround) write
//! ranks 1..10 (`h3e3`, `a10a9`). The engine reads and answers in the client's base:
//! `bestmove`, `ponder`, `pv`, `currmove`, `go perft` and `pophash` out; `position … moves`,
//! `banmoves`, `go searchmoves` and `probe` in.
//!
//! With the `RankBase` option at `auto` (the default), the base is worked out as follows, the
//! first rule that applies deciding:
//! 1. A move with rank `10` means 1..10; a move with rank `0` means 0..9 (neither exists in
//!    the other base). Such evidence is remembered until other decisive evidence comes.
//! 2. A `position` whose move list reads legally for longer in one of the two readings (more
//!    moves before the first illegal one) is in that base (remembered as in rule 1). Nearly
//!    every real move list settles it this way: the two readings of a move move different
//!    pieces, and the wrong one is nearly always illegal at once. A tie decides nothing.
//! 3. Otherwise the command form decides: a client that set `UCI_Variant` and uses the
//!    `position` keyword is a Fairy-Stockfish-style client (1..10); the bare `fen …`/
//!    `startpos …` lines of the Cyclone dialect, or no `UCI_Variant` at all, mean 0..9.
//!
//! `RankBase` at `0-9` or `1-10` fixes the base for clients nothing can detect.

use crate::core::{Move, Square};

/// The number the first rank (Red's back rank) is written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankBase {
    /// Ranks 0..9 (ICCS as UCCI, Pikafish and the Cyclone dialect write it).
    Zero,
    /// Ranks 1..10 (as Fairy-Stockfish's UCI writes it).
    One,
}

impl RankBase {
    fn offset(self) -> u8 {
        match self {
            RankBase::Zero => 0,
            RankBase::One => 1,
        }
    }

    fn other(self) -> RankBase {
        match self {
            RankBase::Zero => RankBase::One,
            RankBase::One => RankBase::Zero,
        }
    }
}

/// The `RankBase` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankSetting {
    #[default]
    Auto,
    Fixed(RankBase),
}

impl RankSetting {
    /// The values a combo option lists.
    pub const VARS: &'static str = "var auto var 0-9 var 1-10";

    pub fn parse(text: &str) -> Option<RankSetting> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(RankSetting::Auto),
            "0-9" | "0" | "0..9" => Some(RankSetting::Fixed(RankBase::Zero)),
            "1-10" | "1" | "1..10" => Some(RankSetting::Fixed(RankBase::One)),
            _ => None,
        }
    }
}

/// A point written `file rank`, the rank in either base: its file letter and rank number.
fn split_point(text: &str) -> Option<(u8, u8, &str)> {
    let bytes = text.as_bytes();
    let file = bytes.first()?.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let rank: u8 = text[1..1 + digits].parse().ok()?;
    Some((file - b'a', rank, &text[1 + digits..]))
}

/// A move token's two points as (file, written rank) pairs, if it looks like a move in
/// either base (`h2e2`, `a10a9`, `h2-e2`).
fn split_move(text: &str) -> Option<[(u8, u8); 2]> {
    let (f1, r1, rest) = split_point(text.trim())?;
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let (f2, r2, rest) = split_point(rest)?;
    rest.is_empty().then_some([(f1, r1), (f2, r2)])
}

/// What a token alone says about the base: rank 10 only exists in 1..10, rank 0 only in 0..9.
pub fn evidence(text: &str) -> Option<RankBase> {
    let points = split_move(text)?;
    if points.iter().any(|&(_, r)| r == 10) {
        Some(RankBase::One)
    } else if points.iter().any(|&(_, r)| r == 0) {
        Some(RankBase::Zero)
    } else {
        None
    }
}

/// A move token written in `base`, as the engine's ICCS (ranks 0..9); tokens that are no
/// move in that base are passed on as they are, for the move parser to report.
pub fn to_internal(text: &str, base: RankBase) -> String {
    let Some(points) = split_move(text) else {
        return text.to_string();
    };
    let mut out = String::with_capacity(4);
    for (file, rank) in points {
        let Some(rank) = rank.checked_sub(base.offset()).filter(|&r| r < 10) else {
            return text.to_string();
        };
        out.push(char::from(b'a' + file));
        out.push(char::from(b'0' + rank));
    }
    out
}

/// A move as the client writes it.
pub fn move_text(mv: Move, base: RankBase) -> String {
    match base {
        RankBase::Zero => mv.to_string(),
        RankBase::One => format!("{}{}", point_text(mv.from()), point_text(mv.to())),
    }
}

fn point_text(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + sq.file()), sq.rank() + 1)
}

/// A point as the client writes it (`e0`, or `e1` in ranks 1..10).
pub fn square_text(sq: Square, base: RankBase) -> String {
    format!(
        "{}{}",
        char::from(b'a' + sq.file()),
        sq.rank() + base.offset()
    )
}

/// What the controller knows about the client's base.
#[derive(Clone, Copy, Debug, Default)]
pub struct RankState {
    pub setting: RankSetting,
    /// The last decisive evidence (rules 1 and 2 of the module docs).
    pub decided: Option<RankBase>,
    /// The client set `UCI_Variant`.
    pub variant_set: bool,
    /// The last position came as a bare `fen …`/`startpos …` line.
    pub bare_form: bool,
}

impl RankState {
    /// The base by rule 3 alone.
    fn hint(&self) -> RankBase {
        if self.variant_set && !self.bare_form {
            RankBase::One
        } else {
            RankBase::Zero
        }
    }

    /// The base the client writes in now.
    pub fn base(&self) -> RankBase {
        match self.setting {
            RankSetting::Fixed(base) => base,
            RankSetting::Auto => self.decided.unwrap_or_else(|| self.hint()),
        }
    }

    /// Takes note of decisive tokens (rule 1) among `tokens`.
    pub fn observe(&mut self, tokens: &[String]) {
        if let Some(base) = tokens.iter().rev().find_map(|t| evidence(t)) {
            self.decided = Some(base);
        }
    }

    /// Rule 2: `legal_prefix(base)` says how many moves of the list read legally in `base`
    /// before the first that does not. Called when rule 1 decided nothing for this list;
    /// switches when the other reading goes further.
    pub fn settle_by_legality(&mut self, legal_prefix: impl Fn(RankBase) -> usize) {
        if self.setting != RankSetting::Auto {
            return;
        }
        let current = self.base();
        let (here, there) = (legal_prefix(current), legal_prefix(current.other()));
        if there > here {
            self.decided = Some(current.other());
        } else if self.decided.is_none() && here > there {
            self.decided = Some(current);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_convert_both_ways() {
        assert_eq!(to_internal("h3e3", RankBase::One), "h2e2");
        assert_eq!(to_internal("a10a9", RankBase::One), "a9a8");
        assert_eq!(to_internal("H3-E3", RankBase::One), "h2e2");
        assert_eq!(to_internal("b0c2", RankBase::Zero), "b0c2");
        assert_eq!(
            to_internal("b0c2", RankBase::One),
            "b0c2",
            "no move in 1..10: as it was"
        );
        assert_eq!(to_internal("xyz", RankBase::One), "xyz");
        let mv = Move::parse_iccs("a9a8").unwrap();
        assert_eq!(move_text(mv, RankBase::One), "a10a9");
        assert_eq!(move_text(mv, RankBase::Zero), "a9a8");
    }

    #[test]
    fn evidence_and_the_hint() {
        assert_eq!(evidence("a10a9"), Some(RankBase::One));
        assert_eq!(evidence("b0c2"), Some(RankBase::Zero));
        assert_eq!(evidence("h3e3"), None);
        let mut state = RankState::default();
        assert_eq!(state.base(), RankBase::Zero);
        state.variant_set = true;
        assert_eq!(state.base(), RankBase::One);
        state.bare_form = true;
        assert_eq!(state.base(), RankBase::Zero, "the Cyclone dialect");
        state.observe(&["h3e3".into(), "a10a9".into()]);
        assert_eq!(state.base(), RankBase::One);
        state.setting = RankSetting::Fixed(RankBase::Zero);
        assert_eq!(state.base(), RankBase::Zero);
    }
}
