//! The rules judge: whether a game is over, who won and why.
//!
//! One judge serves the search (a repetition inside the search line), the engine process (the
//! `rules` option), the match referee and `chariot judge`. It follows
//! `shared/docs/rules.md`: no legal move loses (checkmate or stalemate); no attacking piece on
//! either side is a draw; so is the no-capture limit (60 moves each by default); and a position
//! standing on the board for the third time (configurable) ends the game by the repetition
//! rules of the chosen rule set:
//!
//! - every move of each side in the cycle is classified as a check, a chase (with the chased
//!   pieces, see [`chase`]), a mate threat (Chinese rules only) or an idle move;
//! - each side's pattern gets an offence grade: perpetual check (every move a check) is the
//!   worst; then, in the Asian rules, a perpetual chase of one and the same piece (followed as
//!   it moves), or in the Chinese rules any cycle in which every move is aggressive (check,
//!   chase or mate threat); anything else is allowed;
//! - the side with the worse grade loses; equal grades draw (a "mutual perpetual" when both
//!   offended). The `simple` rule set only knows perpetual check.
//!
//! Order of judgement after each move: no legal move, material, the no-capture limit,
//! repetition (rules.md §10). In the search a repetition inside the line or with the game is
//! scored at once by [`cycle_verdict`]: the key finds it, and the cycle is classified only then.
//! `engine-tests/data/rules/cases.txt` holds the cases, cross-checked with pyffish by
//! `scripts/gen_rules_cases.py` (where Fairy-Stockfish reads a case differently the file says
//! why).

pub mod chase;

use crate::core::{Color, Move, PieceKind, SQUARES, Square};
use crate::position::Position;
use std::fmt;

/// Which repetition rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RuleSet {
    /// Asian (AXF/WXF) rules, as computer xiangqi plays them: perpetual check and perpetual
    /// chase of one piece lose; mixtures (one check one chase, …) are allowed.
    #[default]
    Asian,
    /// Chinese (CXA) rules: any cycle of only aggressive moves (checks, chases, mate threats,
    /// in any mixture) is forbidden; perpetual check is the worst offence.
    Chinese,
    /// Repetition is a draw, except that a perpetual check loses.
    Simple,
}

impl RuleSet {
    pub const NAMES: [&'static str; 3] = ["asian", "chinese", "simple"];

    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Asian => "asian",
            RuleSet::Chinese => "chinese",
            RuleSet::Simple => "simple",
        }
    }
}

impl std::str::FromStr for RuleSet {
    type Err = String;
    fn from_str(text: &str) -> Result<RuleSet, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            // ElephantEye's old `repetition` option spelt them asianrule, chineserule, checkban.
            "asian" | "axf" | "wxf" | "asianrule" => Ok(RuleSet::Asian),
            "chinese" | "cxa" | "chineserule" => Ok(RuleSet::Chinese),
            "simple" | "checkban" => Ok(RuleSet::Simple),
            other => Err(format!(
                "unknown rule set '{other}' (expected one of: {})",
                RuleSet::NAMES.join(", ")
            )),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules a game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub set: RuleSet,
    /// The occurrence of a position that ends the game by repetition (3: the third time it
    /// stands on the board; 2..=9).
    pub occurrences: u32,
    /// Plies without a capture after which the game is drawn (120 = 60 moves each); `None`:
    /// no limit.
    pub move_limit: Option<u32>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            set: RuleSet::Asian,
            occurrences: 3,
            move_limit: Some(DEFAULT_MOVE_LIMIT),
        }
    }
}

/// 60 moves each without a capture.
pub const DEFAULT_MOVE_LIMIT: u32 = 120;

/// Parses a no-capture limit given in moves per side: a number (`60`, `50`) or `off`/`0`.
/// Returns the limit in plies.
pub fn parse_move_limit(text: &str) -> Result<Option<u32>, String> {
    let text = text.trim().to_ascii_lowercase();
    if text == "off" || text == "none" || text == "0" {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(moves) if (1..=1000).contains(&moves) => Ok(Some(moves * 2)),
        _ => Err(format!(
            "'{text}' is not a move limit (moves per side, 1 to 1000, or 'off')"
        )),
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The PGN result tag: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            GameResult::RedWins => "Red wins",
            GameResult::BlackWins => "Black wins",
            GameResult::Draw => "draw",
        }
    }
}

/// Why a game ended by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    /// No legal move while not in check: a loss in xiangqi.
    Stalemate,
    PerpetualCheck,
    PerpetualChase,
    /// Chinese rules: every move of the cycle was a check, chase or mate threat, in a mixture.
    ForbiddenSequence,
    /// Both sides offended equally: a draw.
    MutualPerpetual,
    /// A repetition in which nobody offended: a draw.
    Repetition,
    /// The no-capture limit.
    MoveLimit,
    /// Neither side has a chariot, horse, cannon or pawn.
    InsufficientMaterial,
}

impl Reason {
    /// A stable machine-readable name (JSON, scripts).
    pub fn code(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::ForbiddenSequence => "forbidden-sequence",
            Reason::MutualPerpetual => "mutual-perpetual",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move-limit",
            Reason::InsufficientMaterial => "insufficient-material",
        }
    }

    /// Words for people (PGN termination tags, match reports).
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate (no legal move)",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::ForbiddenSequence => "forbidden move sequence",
            Reason::MutualPerpetual => "mutual perpetual",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "no-capture move limit",
            Reason::InsufficientMaterial => "insufficient material",
        }
    }
}

/// What one move of a repetition cycle did.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveClass {
    pub check: bool,
    /// The enemy pieces the move newly chases (where they stand), empty for checks.
    pub chased: Vec<(Square, PieceKind)>,
    /// Chinese rules: the move threatens mate at once (not looked for after a check or a
    /// chase, which are already aggressive).
    pub mate_threat: bool,
}

impl MoveClass {
    /// `check`, `chase`, `mate-threat` or `idle`.
    pub fn code(&self) -> &'static str {
        if self.check {
            "check"
        } else if !self.chased.is_empty() {
            "chase"
        } else if self.mate_threat {
            "mate-threat"
        } else {
            "idle"
        }
    }

    /// `check`, `chase horse c6, cannon b7`, `mate threat` or `idle`.
    pub fn label(&self) -> String {
        match self.code() {
            "chase" => {
                let list: Vec<String> = self
                    .chased
                    .iter()
                    .map(|(sq, kind)| format!("{} {sq}", kind.name()))
                    .collect();
                format!("chase {}", list.join(", "))
            }
            code => code.replace('-', " "),
        }
    }
}

/// One move of a judged repetition cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleMove {
    pub mv: Move,
    pub mover: Color,
    pub class: MoveClass,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: GameResult,
    pub reason: Reason,
    /// For a repetition: the moves from the first counted occurrence to now, classified.
    pub cycle: Vec<CycleMove>,
}

/// Whether a game goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameState {
    Ongoing,
    Over(Verdict),
}

impl GameState {
    pub fn is_over(&self) -> bool {
        matches!(self, GameState::Over(_))
    }
}

/// Neither side has a piece that could ever attack the king.
pub fn insufficient_material(pos: &Position) -> bool {
    !pos.has_attackers(Color::Red) && !pos.has_attackers(Color::Black)
}

/// The state of the game after the moves `pos` has played since it was set up: judged on
/// its last position (call it after every move to find where a game ended).
pub fn judge(pos: &Position, rules: &Rules) -> GameState {
    let mover = pos.side_to_move();
    if pos.legal_moves().is_empty() {
        let reason = if pos.in_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        return over(GameResult::win_for(mover.opponent()), reason);
    }
    if insufficient_material(pos) {
        return over(GameResult::Draw, Reason::InsufficientMaterial);
    }
    if rules
        .move_limit
        .is_some_and(|limit| pos.halfmove_clock() >= limit)
    {
        return over(GameResult::Draw, Reason::MoveLimit);
    }
    let earlier: Vec<usize> = pos.earlier_occurrences().collect();
    let needed = rules.occurrences.max(2) as usize - 1;
    if earlier.len() >= needed {
        let span = earlier[needed - 1];
        let mut replay = pos.clone();
        let analysis = analyse_cycle(&mut replay, span, rules.set, true);
        let (result, reason) = analysis.verdict(rules.set);
        return GameState::Over(Verdict {
            result,
            reason,
            cycle: analysis.moves,
        });
    }
    GameState::Ongoing
}

fn over(result: GameResult, reason: Reason) -> GameState {
    GameState::Over(Verdict {
        result,
        reason,
        cycle: Vec::new(),
    })
}

/// Plays `moves` (ICCS, WXF or Chinese) from `start`, judging after each; stops at the first
/// end of the game. Returns the state, the number of moves played to reach it and the
/// position there. A move that is not legal is an error naming it.
pub fn judge_game(
    start: &Position,
    moves: &[String],
    rules: &Rules,
) -> Result<(GameState, usize, Position), String> {
    let mut pos = start.clone();
    let mut state = judge(&pos, rules);
    let mut played = 0;
    for text in moves {
        if state.is_over() {
            break;
        }
        let mv = pos
            .parse_human_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", played + 1))?;
        pos.make_move(mv);
        played += 1;
        state = judge(&pos, rules);
    }
    Ok((state, played, pos))
}

/// The offence grade of one side's pattern over a cycle; the worse grade loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Offence {
    None,
    /// Asian: perpetual chase of one piece. Chinese: every move aggressive.
    Chase,
    PerpetualCheck,
}

/// What a cycle showed about both sides.
struct CycleAnalysis {
    moves: Vec<CycleMove>,
    /// By color index.
    offence: [Offence; 2],
    /// By color index: some piece was chased by every move of that side.
    same_piece: [bool; 2],
}

impl CycleAnalysis {
    /// The result and its reason.
    fn verdict(&self, set: RuleSet) -> (GameResult, Reason) {
        let [red, black] = self.offence;
        if red == black {
            let reason = if red == Offence::None {
                Reason::Repetition
            } else {
                Reason::MutualPerpetual
            };
            return (GameResult::Draw, reason);
        }
        let loser = if red > black {
            Color::Red
        } else {
            Color::Black
        };
        let reason = match self.offence[loser.index()] {
            Offence::PerpetualCheck => Reason::PerpetualCheck,
            _ if set == RuleSet::Asian || self.same_piece[loser.index()] => Reason::PerpetualChase,
            _ => Reason::ForbiddenSequence,
        };
        (GameResult::win_for(loser.opponent()), reason)
    }
}

/// What a repetition found inside the search means for the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    Draw,
    SideToMoveWins,
    SideToMoveLoses,
}

/// Judges the cycle formed by the last `span` plies of `pos` (the current position stood on
/// the board `span` plies ago; no capture or null move in between), for the search: cheap
/// when the check pattern decides, classifying chases only when it must. `pos` is left as
/// it was.
pub fn cycle_verdict(pos: &mut Position, span: usize, set: RuleSet) -> CycleVerdict {
    let analysis = analyse_cycle(pos, span, set, false);
    let mover = pos.side_to_move();
    match analysis.verdict(set).0 {
        GameResult::Draw => CycleVerdict::Draw,
        result if result == GameResult::win_for(mover) => CycleVerdict::SideToMoveWins,
        _ => CycleVerdict::SideToMoveLoses,
    }
}

const NO_ID: u8 = u8::MAX;

/// Replays the last `span` plies of `pos` and grades both sides. With `full`, every move is
/// classified for the report; otherwise chases are looked for only where they can still
/// change the verdict. `pos` ends as it started.
fn analyse_cycle(pos: &mut Position, span: usize, set: RuleSet, full: bool) -> CycleAnalysis {
    let mut moves = Vec::with_capacity(span);
    for _ in 0..span {
        moves.push(
            pos.unmake_move()
                .expect("the cycle lies within the history"),
        );
    }
    moves.reverse();
    let first_mover = pos.side_to_move();
    let mover_of = |i: usize| {
        if i % 2 == 0 {
            first_mover
        } else {
            first_mover.opponent()
        }
    };

    // Pass 1: which moves gave check (cheap, and often enough for the verdict).
    let mut checks = Vec::with_capacity(span);
    for &mv in &moves {
        pos.make_move(mv);
        checks.push(pos.in_check());
    }
    let mut all_checks = [true; 2];
    let mut any_check = [false; 2];
    for (i, &check) in checks.iter().enumerate() {
        let side = mover_of(i).index();
        all_checks[side] &= check;
        any_check[side] |= check;
    }
    // Does a side's chase pattern matter? Not for the simple rules, not for a perpetual
    // checker, not when the other side checks perpetually (it loses or draws regardless), and
    // in the Asian rules not for a side that checked at all (a check breaks a perpetual chase).
    let mut needs = [false; 2];
    for side in 0..2 {
        needs[side] = full
            || (set != RuleSet::Simple
                && !all_checks[side]
                && !all_checks[1 - side]
                && (set == RuleSet::Chinese || !any_check[side]));
    }

    let mut classes: Vec<MoveClass> = checks
        .iter()
        .map(|&check| MoveClass {
            check,
            ..MoveClass::default()
        })
        .collect();
    // Intersection of the pieces (by identity) each side chased with every move.
    let mut common = [u128::MAX; 2];
    // Chinese: every move so far was a check, a chase or a mate threat.
    let mut aggressive = [true; 2];

    if needs.iter().any(|&n| n) {
        // Pass 2: replay from the start of the cycle, following every piece by an id (its
        // point at the start of the cycle) so that a chased piece is recognised as it moves.
        for _ in 0..span {
            pos.unmake_move();
        }
        let mut ids = [NO_ID; SQUARES];
        for sq in pos.occupied() {
            ids[sq.index()] = sq.index() as u8;
        }
        for (i, &mv) in moves.iter().enumerate() {
            let side = mover_of(i);
            let s = side.index();
            let worth_it = full
                || (needs[s]
                    && match set {
                        RuleSet::Chinese => aggressive[s],
                        _ => common[s] != 0,
                    });
            if worth_it && !checks[i] {
                let before = chase::chased_by(pos, side);
                pos.make_move(mv);
                let after = chase::chased_by(pos, side);
                let new = after & !before;
                let mut new_ids = 0u128;
                for sq in new {
                    let kind = pos.piece_on(sq).map(|p| p.kind()).expect("a chased piece");
                    classes[i].chased.push((sq, kind));
                    new_ids |= 1u128 << ids[sq.index()];
                }
                common[s] &= new_ids;
                if set == RuleSet::Chinese && new.is_empty() {
                    classes[i].mate_threat = chase::threatens_mate(pos, side);
                }
                aggressive[s] &= !new.is_empty() || classes[i].mate_threat;
            } else {
                // A check chases nothing; a move not examined ends the side's chase pattern.
                pos.make_move(mv);
                common[s] = 0;
                aggressive[s] &= checks[i];
            }
            ids[mv.to().index()] = ids[mv.from().index()];
            ids[mv.from().index()] = NO_ID;
        }
    } else {
        common = [0; 2];
        aggressive = [false; 2];
    }

    let mut offence = [Offence::None; 2];
    let mut same_piece = [false; 2];
    for s in 0..2 {
        same_piece[s] = needs[s] && common[s] != 0 && !any_check[s];
        offence[s] = if all_checks[s] {
            Offence::PerpetualCheck
        } else {
            match set {
                RuleSet::Simple => Offence::None,
                RuleSet::Asian if same_piece[s] => Offence::Chase,
                RuleSet::Chinese if needs[s] && aggressive[s] => Offence::Chase,
                _ => Offence::None,
            }
        };
    }
    let moves = moves
        .into_iter()
        .zip(classes)
        .enumerate()
        .map(|(i, (mv, class))| CycleMove {
            mv,
            mover: mover_of(i),
            class,
        })
        .collect();
    CycleAnalysis {
        moves,
        offence,
        same_piece,
    }
}
