//! Game files as players keep them, read into games of legal moves: PGN in any of the three
//! notations (ICCS, WXF, Chinese; in UTF-8, GBK/GB18030 or Big5, found out by `encoding`) and
//! XQF (`xqf`), many games to a file where the format allows.
//!
//! Reading never stops at a bad game: each game is read on its own, and one that cannot be
//! (an unreadable FEN, a move that is no legal move) becomes a `GameError` naming the game,
//! its line, the move number and the text, while the rest of the file is still read. The
//! main line is kept; variations are skipped, comments kept beside their moves.

pub mod encoding;
pub mod xqf;

use crate::core::{Color, Move, Piece, Square};
use crate::position::Position;

/// The notation a game's moves were written in (and are written back in by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

impl Notation {
    pub fn parse(text: &str) -> Option<Notation> {
        match text.trim().to_ascii_lowercase().as_str() {
            "iccs" => Some(Notation::Iccs),
            "wxf" => Some(Notation::Wxf),
            "chinese" | "cn" | "zh" => Some(Notation::Chinese),
            _ => None,
        }
    }

    /// How `mv` is written in `pos` in this notation.
    pub fn write(self, pos: &Position, mv: Move) -> String {
        match self {
            Notation::Iccs => mv.to_string(),
            Notation::Wxf => pos.to_wxf(mv),
            Notation::Chinese => pos.to_chinese(mv),
        }
    }

    /// The notation a move token is written in.
    fn of_token(token: &str) -> Notation {
        if !token.is_ascii() {
            Notation::Chinese
        } else if crate::core::Move::parse_iccs(&token.replace('-', "").to_ascii_lowercase())
            .is_some()
        {
            Notation::Iccs
        } else {
            Notation::Wxf
        }
    }
}

/// One game's main line.
#[derive(Clone, Debug)]
pub struct Game {
    /// 1-based place in its file.
    pub number: usize,
    /// The line it starts on (PGN), 0 for binary files.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// The comment after each move.
    pub comments: Vec<Option<String>>,
    /// The comment before the first move.
    pub intro: Option<String>,
    pub result: Option<String>,
    pub notation: Notation,
}

impl Game {
    pub fn tag(&self, name: &str) -> Option<&str> {
        crate::tools::pgn::tag_value(&self.tags, name)
    }
}

/// A game that could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    pub game: usize,
    pub line: usize,
    /// The 1-based ply of the bad move, if a move was at fault.
    pub ply: Option<usize>,
    /// The text that could not be read.
    pub text: String,
    pub reason: String,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}", self.game)?;
        if self.line > 0 {
            write!(f, " (line {})", self.line)?;
        }
        if let Some(ply) = self.ply {
            let (number, dots) = (ply.div_ceil(2), if ply % 2 == 1 { "." } else { "..." });
            write!(f, ", move {number}{dots} '{}'", self.text)?;
        } else if !self.text.is_empty() {
            write!(f, ", '{}'", self.text)?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// What a file held: its games in order, each read or not, and the text encoding found.
pub struct FileGames {
    pub games: Vec<Result<Game, GameError>>,
    pub encoding: &'static str,
}

/// Reads every game of a file's bytes (XQF or PGN text in any encoding).
pub fn read_bytes(bytes: &[u8]) -> FileGames {
    if xqf::looks_like_xqf(bytes) {
        return FileGames {
            games: vec![xqf::read(bytes, 1)],
            encoding: "XQF",
        };
    }
    let (text, encoding) = encoding::decode(bytes);
    FileGames {
        games: read_pgn(&text),
        encoding,
    }
}

/// Reads a file (`-`: standard input).
pub fn read_path(path: &std::path::Path) -> Result<FileGames, String> {
    let bytes = if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        buf
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
    };
    Ok(read_bytes(&bytes))
}

/// Reads the games of a PGN text.
pub fn read_pgn(text: &str) -> Vec<Result<Game, GameError>> {
    crate::tools::pgn::read_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, g)| from_pgn(&g, i + 1))
        .collect()
}

fn from_pgn(g: &crate::tools::pgn::PgnGame, number: usize) -> Result<Game, GameError> {
    let err = |ply, text: &str, reason: String| GameError {
        game: number,
        line: g.line,
        ply,
        text: text.to_string(),
        reason,
    };
    let start = match g.fen() {
        Some(fen) => {
            Position::from_fen(fen).map_err(|e| err(None, fen, format!("bad FEN: {e}")))?
        }
        None => Position::startpos(),
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (i, token) in g.moves.iter().enumerate() {
        let mv = pos
            .parse_human_move(token)
            .map_err(|e| err(Some(i + 1), token, e.to_string()))?;
        pos.make_move(mv);
        moves.push(mv);
    }
    let notation = g
        .moves
        .first()
        .map_or(Notation::Iccs, |t| Notation::of_token(t));
    let notation = match g.tag("Format") {
        Some(f) if f.eq_ignore_ascii_case("ICCS") => Notation::Iccs,
        Some(f) if f.eq_ignore_ascii_case("WXF") => Notation::Wxf,
        _ => notation,
    };
    Ok(Game {
        number,
        line: g.line,
        tags: g.tags.clone(),
        start,
        moves,
        comments: g.comments.clone(),
        intro: None,
        result: g
            .result
            .clone()
            .or_else(|| g.tag("Result").map(str::to_string)),
        notation,
    })
}

/// The FEN of pieces placed on an empty board with `side` to move.
pub(crate) fn placement_fen(pieces: &[(Square, Piece)], side: Color) -> String {
    let mut rows = Vec::new();
    for rank in (0..10u8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..9u8 {
            match pieces.iter().find(|(s, _)| *s == Square::new(file, rank)) {
                Some((_, p)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let side = if side == Color::Red { 'w' } else { 'b' };
    format!("{} {side} - - 0 1", rows.join("/"))
}

/// Writes a game as PGN in `notation`, with its tags, comments and result; `extra` adds a
/// comment (and a variation, its second field) after each ply that has one.
pub fn write_pgn(
    game: &Game,
    notation: Notation,
    extra: &[(Option<String>, Option<String>)],
) -> String {
    let mut out = String::new();
    let mut tags = game.tags.clone();
    tags.retain(|(n, _)| !n.eq_ignore_ascii_case("Format"));
    let format = match notation {
        Notation::Iccs => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese => "Chinese",
    };
    tags.push(("Format".into(), format.into()));
    for (name, value) in &tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');
    if let Some(intro) = &game.intro {
        out.push_str(&format!("{{{}}}\n", intro.replace('}', ")")));
    }
    let mut pos = game.start.clone();
    let mut line = String::new();
    for (i, &mv) in game.moves.iter().enumerate() {
        if pos.side_to_move() == Color::Red {
            line.push_str(&format!("{}. ", pos.fullmove_number()));
        } else if i == 0 {
            line.push_str(&format!("{}... ", pos.fullmove_number()));
        }
        line.push_str(&notation.write(&pos, mv));
        line.push(' ');
        let own = game.comments.get(i).and_then(|c| c.as_deref());
        let added = extra.get(i).and_then(|e| e.0.as_deref());
        for text in [own, added].into_iter().flatten() {
            line.push_str(&format!("{{{}}} ", text.replace('}', ")")));
        }
        if let Some(variation) = extra.get(i).and_then(|e| e.1.as_deref()) {
            line.push_str(&format!("({variation}) "));
        }
        pos.make_move(mv);
    }
    line.push_str(game.result.as_deref().unwrap_or("*"));
    out.push_str(&wrap(&line, 80));
    out.push_str("\n\n");
    out
}

/// Breaks a line of move text at spaces so no line is longer than `width` (where it can be).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for word in text.split(' ') {
        let w = word.chars().count();
        if len > 0 && len + 1 + w > width {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += w;
    }
    out
}
