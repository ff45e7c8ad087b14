//! Human move notation: WXF (`C2.5`) and Chinese (`炮二平五`), written and read.
//!
//! Both describe a move the same way — which piece (by its file, or by its place among
//! same-kind pieces on one file), which way it goes (advance, retreat, traverse), and a number
//! (steps for straight movers, destination file otherwise) — with files counted 1..9 from each
//! player's right. So a move is first turned into a `Description`, which each notation then
//! spells. Reading works backwards through the same code: every legal move is spelled, and
//! the one whose spelling matches the input is the move, so both directions always agree.
//!
//! Tandem pieces follow the WXF rules: `C+.5` / `C-.5` for front and rear; three pawns on a
//! file `P+`, `P3` (middle), `P-`; four or five `++`, `P+`, (`P3`), `P-`, `--`; when two files
//! hold tandem pawns the file digit replaces the letter (`3+.4`). In Chinese: 前/中/后, and
//! 前/二/三/四/后 for four or five pawns; with two such files, place + file (`前七进一`).
//! Red writes Chinese numerals (`炮二平五`), Black Arabic digits (`炮8平5`).

use super::Position;
use crate::core::{Color, Move, PieceKind, Square};

/// Why a move in human notation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("'{0}' matches no legal move")]
    NoMatch(String),
    #[error("'{0}' matches more than one legal move")]
    Ambiguous(String),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Advance,
    Retreat,
    Traverse,
}

/// A move as a player describes it.
#[derive(Clone, Copy, Debug)]
struct Description {
    kind: PieceKind,
    color: Color,
    /// File number 1..9 from the mover's right.
    file: u8,
    /// How many of the mover's pieces of this kind share the file (1 = no tandem).
    on_file: u8,
    /// This piece's place among them, 0 = the most advanced.
    place: u8,
    /// Does another file also hold two or more of the mover's pawns?
    two_tandem_files: bool,
    action: Action,
    /// Steps moved, or the destination file number.
    amount: u8,
}

/// File number 1..9 counted from `color`'s right.
fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// How far forward a point is for `color` (0 = own back rank).
fn advancement(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

impl Position {
    fn describe(&self, mv: Move) -> Option<Description> {
        let piece = self.piece_on(mv.from())?;
        let (color, kind) = (piece.color(), piece.kind());
        let (from, to) = (mv.from(), mv.to());
        let same_file = |sq: Square| {
            let mut on_file: Vec<Square> = self
                .pieces(color, kind)
                .filter(|s| s.file() == sq.file())
                .collect();
            on_file.sort_by_key(|&s| std::cmp::Reverse(advancement(color, s)));
            on_file
        };
        let on_file = same_file(from);
        let place = on_file.iter().position(|&s| s == from).unwrap_or(0) as u8;
        let two_tandem_files = kind == PieceKind::Pawn
            && on_file.len() >= 2
            && (0..9u8).any(|f| {
                f != from.file() && self.pieces(color, kind).filter(|s| s.file() == f).count() >= 2
            });
        let (action, amount) = if from.rank() == to.rank() {
            (Action::Traverse, file_number(color, to))
        } else {
            let forward = advancement(color, to) > advancement(color, from);
            let action = if forward {
                Action::Advance
            } else {
                Action::Retreat
            };
            let straight = matches!(
                kind,
                PieceKind::King | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Pawn
            );
            let amount = if straight {
                from.rank().abs_diff(to.rank())
            } else {
                file_number(color, to)
            };
            (action, amount)
        };
        Some(Description {
            kind,
            color,
            file: file_number(color, from),
            on_file: on_file.len() as u8,
            place,
            two_tandem_files,
            action,
            amount,
        })
    }

    /// The move in WXF notation (`C2.5`, `H8+7`, `R+.3`).
    pub fn to_wxf(&self, mv: Move) -> String {
        self.describe(mv)
            .map_or_else(|| mv.to_string(), |d| wxf_spellings(&d)[0].clone())
    }

    /// The move in Chinese notation (`炮二平五`, `马2进3`).
    pub fn to_chinese(&self, mv: Move) -> String {
        self.describe(mv)
            .map_or_else(|| mv.to_string(), |d| chinese_spellings(&d)[0].clone())
    }

    /// Reads a move given in ICCS (`h2e2`, `h2-e2`), WXF (`C2.5`, also `C2=5`, `N`/`B` letters)
    /// or Chinese (`炮二平五`, traditional characters and full-width digits too).
    pub fn parse_human_move(&self, text: &str) -> Result<Move, NotationError> {
        if let Ok(mv) = self.parse_move(text) {
            return Ok(mv);
        }
        let wanted = canonical(text);
        let mut found = None;
        for &mv in self.legal_moves().iter() {
            let Some(d) = self.describe(mv) else { continue };
            let matches = wxf_spellings(&d)
                .iter()
                .chain(chinese_spellings(&d).iter())
                .any(|s| canonical(s) == wanted);
            if matches {
                if found.is_some() {
                    return Err(NotationError::Ambiguous(text.to_string()));
                }
                found = Some(mv);
            }
        }
        found.ok_or_else(|| NotationError::NoMatch(text.to_string()))
    }
}

fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

/// The WXF spellings of a move: the official one first, then the plain "letter + file" form
/// older books use for tandem pieces (accepted when reading if it is unambiguous).
fn wxf_spellings(d: &Description) -> Vec<String> {
    let letter = wxf_letter(d.kind);
    let file = char::from(b'0' + d.file);
    let head: String = if d.on_file < 2 {
        format!("{letter}{file}")
    } else if d.two_tandem_files {
        let mark = match (d.on_file, d.place) {
            (_, 0) => '+',
            (3, 1) => file,
            _ => '-',
        };
        format!("{file}{mark}")
    } else {
        let last = d.on_file - 1;
        match (d.on_file, d.place) {
            (2 | 3, 0) => format!("{letter}+"),
            (2 | 3, p) if p == last => format!("{letter}-"),
            (3, _) => format!("{letter}{file}"),
            (_, 0) => "++".to_string(),
            (_, 1) => format!("{letter}+"),
            (_, p) if p == last => "--".to_string(),
            (_, p) if p == last - 1 => format!("{letter}-"),
            _ => format!("{letter}{file}"),
        }
    };
    let op = match d.action {
        Action::Advance => '+',
        Action::Retreat => '-',
        Action::Traverse => '.',
    };
    let amount = char::from(b'0' + d.amount);
    let mut spellings = vec![format!("{head}{op}{amount}")];
    if d.on_file >= 2 {
        spellings.push(format!("{letter}{file}{op}{amount}"));
    }
    spellings
}

fn chinese_name(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '将',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Pawn) => '卒',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Chariot) => '车',
        (_, PieceKind::Cannon) => '炮',
    }
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn numeral(color: Color, n: u8) -> char {
    match color {
        Color::Red => RED_NUMERALS[(n - 1) as usize],
        Color::Black => char::from(b'0' + n),
    }
}

/// The Chinese spellings of a move, the preferred one first.
fn chinese_spellings(d: &Description) -> Vec<String> {
    let name = chinese_name(d.color, d.kind);
    let file = numeral(d.color, d.file);
    let place = match (d.on_file, d.place) {
        (_, 0) => '前',
        (n, p) if p + 1 == n => '后',
        (3, _) => '中',
        (_, p) => RED_NUMERALS[p as usize],
    };
    let head: String = if d.on_file < 2 {
        format!("{name}{file}")
    } else if d.two_tandem_files {
        format!("{place}{file}")
    } else {
        format!("{place}{name}")
    };
    let op = match d.action {
        Action::Advance => '进',
        Action::Retreat => '退',
        Action::Traverse => '平',
    };
    let amount = numeral(d.color, d.amount);
    let mut spellings = vec![format!("{head}{op}{amount}")];
    if d.on_file >= 2 {
        spellings.push(format!("{name}{file}{op}{amount}"));
    }
    spellings
}

/// Maps every accepted way of writing a move to one spelling: piece letters and characters to
/// WXF letters, numerals to digits, actions to `+ - .`, places to `F M B`.
fn canonical(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '帅' | '帥' | '将' | '將' | 'K' | 'k' | 'G' | 'g' => 'K',
            '仕' | '士' | 'A' | 'a' => 'A',
            '相' | '象' | 'E' | 'e' | 'B' | 'b' => 'E',
            '马' | '馬' | '傌' | '碼' | 'H' | 'h' | 'N' | 'n' => 'H',
            '车' | '車' | '俥' | '伡' | 'R' | 'r' => 'R',
            '炮' | '砲' | '包' | 'C' | 'c' => 'C',
            '兵' | '卒' | 'P' | 'p' => 'P',
            '进' | '進' => '+',
            '退' => '-',
            '平' | '=' => '.',
            '前' => 'F',
            '中' => 'M',
            '后' | '後' => 'B',
            '１'..='９' => char::from(b'1' + (c as u32 - '１' as u32) as u8),
            _ => match RED_NUMERALS.iter().position(|&n| n == c) {
                Some(i) => char::from(b'1' + i as u8),
                None => c,
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn central_cannon_in_every_notation() {
        let pos = Position::startpos();
        let mv = pos.parse_move("h2e2").unwrap();
        assert_eq!(pos.to_wxf(mv), "C2.5");
        assert_eq!(pos.to_chinese(mv), "炮二平五");
        for text in ["C2.5", "c2=5", "炮二平五", "砲二平五", "h2-e2"] {
            assert_eq!(pos.parse_human_move(text), Ok(mv), "{text}");
        }
        assert_eq!(
            pos.parse_human_move("C2+8"),
            Err(NotationError::NoMatch("C2+8".into()))
        );
    }

    #[test]
    fn tandem_pieces_use_front_and_rear() {
        // Two red cannons on file e (Red's file 5): e2 (rear) and e3 (front).
        let pos = Position::from_fen("3k5/9/9/9/9/9/4C4/4C4/9/4K4 w").unwrap();
        let front = pos.parse_move("e3d3").unwrap();
        let rear = pos.parse_move("e2f2").unwrap();
        assert_eq!(pos.to_wxf(front), "C+.6");
        assert_eq!(pos.to_wxf(rear), "C-.4");
        assert_eq!(pos.to_chinese(front), "前炮平六");
        assert_eq!(pos.to_chinese(rear), "后炮平四");
        assert_eq!(pos.parse_human_move("C+.6"), Ok(front));
        assert_eq!(pos.parse_human_move("後炮平四"), Ok(rear));
        // The plain form is ambiguous when both cannons can do it.
        let both = pos.parse_move("e2e1").unwrap();
        assert_eq!(pos.to_wxf(both), "C--1");
        assert_eq!(
            pos.parse_human_move("C5.4"),
            Err(NotationError::Ambiguous("C5.4".into()))
        );
    }
}
