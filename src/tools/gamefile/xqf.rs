//! XQF, the binary game format of XQStudio and the Chinese GUIs built after it: read (the
//! main line with its comments) and written (for tests and for converting games).
//!
//! The layout, as the format's public descriptions give it:
//! - A 1024-byte header: `XQ`, the version byte, 13 key bytes (mask, a 4-byte product id,
//!   four "or" bytes, the key sum, and the three keys for the pieces, the move sources and
//!   the move targets), the 32 pieces' points (Red's then Black's, each side in the order
//!   R N B A K A B N R C C P P P P P; a point is `file * 10 + rank` from Red's side, file 0
//!   the a-file; anything past 89 is a piece off the board), the result at byte 51 (1 Red
//!   won, 2 Black won, 3 or 4 drawn), and length-prefixed GB18030 strings: title (80), event
//!   (208), date (272), place (288), Red (304), Black (320), commentator (464), author (480).
//! - Then the move tree, depth first: 4-byte records (from, to, flags, unused), each
//!   followed by its comment; the first record is the root (the game's opening comment).
//!   A record's next move comes right after it, then its alternatives. The main line is
//!   therefore the run of records up to the first that has no next move.
//! - Up to version 10 nothing is scrambled: flags `& 0xF0` = a next move, `& 0x0F` = an
//!   alternative, and every record is followed by a 4-byte comment length; points are offset
//!   by 0x18 (from) and 0x20 (to). From version 11 on the piece points are offset by a key
//!   (and from version 12 also rotated among the 32 slots), every byte after the header is
//!   offset by a 32-byte key string, the flags are `0x80` next, `0x40` alternative, `0x20`
//!   comment (the length then follows, offset by a key), and the move points are offset by
//!   the source and target keys as well.

use super::{Game, GameError, Notation};
use crate::core::{Move, Piece, PieceKind, Square};
use crate::position::Position;

const HEADER: usize = 0x400;
/// The pieces of each side in the order of the header's 32 points.
const ORDER: [PieceKind; 16] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
];
/// The phrase the scrambling key string is made from.
const KEY_PHRASE: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// Where the header's strings are: (tag, offset of the length byte, room).
const STRINGS: [(&str, usize, usize); 8] = [
    ("Title", 80, 63),
    ("Event", 208, 63),
    ("Date", 272, 15),
    ("Site", 288, 15),
    ("Red", 304, 15),
    ("Black", 320, 15),
    ("Annotator", 464, 15),
    ("Author", 480, 15),
];

/// Does `bytes` start like an XQF file?
pub fn looks_like_xqf(bytes: &[u8]) -> bool {
    bytes.len() >= 3 && &bytes[..2] == b"XQ"
}

/// The keys a scrambled file is read with.
#[derive(Clone, Copy, Debug, Default)]
struct Keys {
    pieces: u8,
    from: u8,
    to: u8,
    comment_size: u32,
    string: [u8; 32],
}

/// The key schedule: each key byte through the same polynomial, chained.
fn stretch(b: u8, times: u8) -> u8 {
    let b = u32::from(b);
    let f = (((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) & 0xff;
    (f * u32::from(times)) as u8
}

impl Keys {
    fn from_header(h: &[u8]) -> Keys {
        let (mask, or) = (h[3], [h[8], h[9], h[10], h[11]]);
        let (sum, xy, xyf, xyt) = (h[12], h[13], h[14], h[15]);
        let pieces = stretch(xy, xy);
        let from = stretch(xyf, pieces);
        let to = stretch(xyt, from);
        let comment_size = (u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767;
        let bytes = [
            (sum & mask) | or[0],
            (xy & mask) | or[1],
            (xyf & mask) | or[2],
            (xyt & mask) | or[3],
        ];
        let string = std::array::from_fn(|i| KEY_PHRASE[i] & bytes[i % 4]);
        Keys {
            pieces,
            from,
            to,
            comment_size,
            string,
        }
    }
}

fn square_of(code: u8) -> Option<Square> {
    (code <= 89).then(|| Square::new(code / 10, code % 10))
}

/// Reads one XQF file's main line. `number` names the game in errors.
pub fn read(bytes: &[u8], number: usize) -> Result<Game, GameError> {
    let err = |ply: Option<usize>, text: &str, reason: String| GameError {
        game: number,
        line: 0,
        ply,
        text: text.to_string(),
        reason,
    };
    if bytes.len() < HEADER || !looks_like_xqf(bytes) {
        return Err(err(
            None,
            "",
            format!(
                "not an XQF file ({} bytes, the header alone is {HEADER})",
                bytes.len()
            ),
        ));
    }
    let h = &bytes[..HEADER];
    let version = h[2];
    let keys = (version > 10).then(|| Keys::from_header(h));
    // The pieces.
    let mut points = [0u8; 32];
    for (i, &raw) in h[16..48].iter().enumerate() {
        let slot = match keys {
            Some(k) if version >= 12 => (usize::from(k.pieces) + i + 1) & 31,
            _ => i,
        };
        points[slot] = raw;
    }
    let mut board = Vec::new();
    for (i, &p) in points.iter().enumerate() {
        let code = match keys {
            Some(k) => p.wrapping_sub(k.pieces),
            None => p,
        };
        if let Some(sq) = square_of(code) {
            let color = if i < 16 {
                crate::core::Color::Red
            } else {
                crate::core::Color::Black
            };
            board.push((sq, Piece::new(color, ORDER[i % 16])));
        }
    }
    // The moves: unscrambled body, then the root record and the main line.
    let body: Vec<u8> = bytes[HEADER..]
        .iter()
        .enumerate()
        .map(|(i, &b)| match keys {
            Some(k) => b.wrapping_sub(k.string[i % 32]),
            None => b,
        })
        .collect();
    let mut at = 0usize;
    let record_error = |e: String| err(None, "", e);
    // The root: only its comment (the game's opening comment) counts.
    let intro = match read_record(&body, &mut at, keys).map_err(record_error)? {
        Some(root) => root.comment,
        None => None,
    };
    let mut records = Vec::new();
    while let Some(record) =
        read_record(&body, &mut at, keys).map_err(|e| err(Some(records.len() + 1), "", e))?
    {
        let next = record.has_next;
        records.push(([record.from, record.to], record.comment));
        if !next {
            break;
        }
    }
    build_game(h, number, board, &records, intro)
}

/// One move record, unscrambled.
struct Record {
    from: u8,
    to: u8,
    has_next: bool,
    comment: Option<String>,
}

/// Reads the record at `at` (`None` at the end of the file) and moves past it.
fn read_record(body: &[u8], at: &mut usize, keys: Option<Keys>) -> Result<Option<Record>, String> {
    let Some(rec) = body.get(*at..*at + 4) else {
        return Ok(None);
    };
    *at += 4;
    let flags = rec[2];
    let (has_next, has_comment) = match keys {
        None => (flags & 0xf0 != 0, true),
        Some(_) => (flags & 0x80 != 0, flags & 0x20 != 0),
    };
    let mut comment = None;
    if has_comment {
        let Some(len) = body.get(*at..*at + 4) else {
            return Err("the file ends inside a move record".into());
        };
        *at += 4;
        let mut len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
        if let Some(k) = keys {
            len = len.wrapping_sub(k.comment_size);
        }
        let len = len as usize;
        if len > 0 {
            let Some(text) = body.get(*at..at.saturating_add(len)) else {
                return Err(format!(
                    "a comment of {len} bytes runs past the end of the file"
                ));
            };
            *at += len;
            let (text, _) = encoding_rs::GB18030.decode_without_bom_handling(text);
            comment = Some(text.into_owned());
        }
    }
    let (from, to) = match keys {
        Some(k) => (
            rec[0].wrapping_sub(0x18).wrapping_sub(k.from),
            rec[1].wrapping_sub(0x20).wrapping_sub(k.to),
        ),
        None => (rec[0].wrapping_sub(0x18), rec[1].wrapping_sub(0x20)),
    };
    Ok(Some(Record {
        from,
        to,
        has_next,
        comment,
    }))
}

/// The game from the header's pieces and strings and the main line's move records.
fn build_game(
    h: &[u8],
    number: usize,
    board: Vec<(Square, Piece)>,
    records: &[([u8; 2], Option<String>)],
    intro: Option<String>,
) -> Result<Game, GameError> {
    let err = |ply: Option<usize>, text: String, reason: String| GameError {
        game: number,
        line: 0,
        ply,
        text,
        reason,
    };
    // The side to move is the owner of the first move's piece (Red with no moves).
    let first_mover = records
        .first()
        .and_then(|(m, _)| square_of(m[0]))
        .and_then(|sq| board.iter().find(|(s, _)| *s == sq))
        .map_or(crate::core::Color::Red, |(_, p)| p.color());
    let fen = super::placement_fen(&board, first_mover);
    let start = Position::from_fen(&fen).map_err(|e| {
        err(
            None,
            fen.clone(),
            format!("the header's pieces make no playable position: {e}"),
        )
    })?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut comments = Vec::new();
    for (i, ([from, to], comment)) in records.iter().enumerate() {
        let text = match (square_of(*from), square_of(*to)) {
            (Some(f), Some(t)) => Move::new(f, t).to_string(),
            _ => format!("{from}->{to}"),
        };
        let mv = pos
            .parse_move(&text)
            .map_err(|e| err(Some(i + 1), text.clone(), e.to_string()))?;
        pos.make_move(mv);
        moves.push(mv);
        comments.push(comment.clone());
    }
    let mut tags = Vec::new();
    for (tag, at, room) in STRINGS {
        let len = usize::from(h[at]).min(room);
        let raw = &h[at + 1..at + 1 + len];
        let (text, _) = encoding_rs::GB18030.decode_without_bom_handling(raw);
        let text = text.trim_matches(char::from(0)).trim().to_string();
        if !text.is_empty() {
            tags.push((tag.to_string(), text));
        }
    }
    let result = match h[51] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    tags.push(("Result".into(), result.into()));
    if fen != Position::startpos().to_fen() {
        tags.push(("FEN".into(), start.to_fen()));
    }
    Ok(Game {
        number,
        line: 0,
        tags,
        start,
        moves,
        comments,
        intro,
        result: Some(result.to_string()),
        notation: Notation::Chinese,
    })
}

/// Writes `game`'s main line as an XQF file of `version` (10: plain; 11 and later
/// scrambled with keys drawn from `seed`), with its tags and comments.
pub fn write(game: &Game, version: u8, seed: u64) -> Result<Vec<u8>, String> {
    let mut h = vec![0u8; HEADER];
    h[..2].copy_from_slice(b"XQ");
    h[2] = version;
    let keys = (version > 10).then(|| {
        let mut rng = crate::tools::rng::Rng::new(seed);
        for b in &mut h[3..16] {
            *b = rng.next_u64() as u8;
        }
        Keys::from_header(&h)
    });
    // The pieces into their slots.
    let mut points = [0xffu8; 32];
    for sq in game.start.occupied() {
        let piece = game.start.piece_on(sq).expect("occupied");
        let side = if piece.color() == crate::core::Color::Red {
            0
        } else {
            16
        };
        let slot = (0..16)
            .find(|&i| ORDER[i] == piece.kind() && points[side + i] == 0xff)
            .ok_or_else(|| format!("XQF has no room for another {:?}", piece.kind()))?;
        points[side + slot] = sq.file() * 10 + sq.rank();
    }
    for i in 0..32 {
        h[16 + i] = match keys {
            Some(k) if version >= 12 => {
                points[(usize::from(k.pieces) + i + 1) & 31].wrapping_add(k.pieces)
            }
            Some(k) => points[i].wrapping_add(k.pieces),
            None => points[i],
        };
    }
    h[51] = match game.result.as_deref() {
        Some("1-0") => 1,
        Some("0-1") => 2,
        Some("1/2-1/2") => 3,
        _ => 0,
    };
    for (tag, at, room) in STRINGS {
        if let Some(value) = game.tag(tag) {
            let bytes = super::encoding::encode_gbk(value);
            let len = bytes.len().min(room);
            h[at] = len as u8;
            h[at + 1..at + 1 + len].copy_from_slice(&bytes[..len]);
        }
    }
    let mut body = Vec::new();
    let mut record = |from: u8, to: u8, next: bool, comment: Option<&str>| {
        let text = comment.map(super::encoding::encode_gbk).unwrap_or_default();
        match keys {
            None => {
                body.extend_from_slice(&[from + 0x18, to + 0x20, if next { 0xf0 } else { 0 }, 0]);
                body.extend_from_slice(&(text.len() as u32).to_le_bytes());
            }
            Some(k) => {
                let flags = if next { 0x80 } else { 0 } | if text.is_empty() { 0 } else { 0x20 };
                body.extend_from_slice(&[
                    from.wrapping_add(0x18).wrapping_add(k.from),
                    to.wrapping_add(0x20).wrapping_add(k.to),
                    flags,
                    0,
                ]);
                if !text.is_empty() {
                    let len = (text.len() as u32).wrapping_add(k.comment_size);
                    body.extend_from_slice(&len.to_le_bytes());
                }
            }
        }
        body.extend_from_slice(&text);
    };
    record(0, 0, !game.moves.is_empty(), game.intro.as_deref());
    for (i, mv) in game.moves.iter().enumerate() {
        let code = |sq: Square| sq.file() * 10 + sq.rank();
        let comment = game.comments.get(i).and_then(|c| c.as_deref());
        record(
            code(mv.from()),
            code(mv.to()),
            i + 1 < game.moves.len(),
            comment,
        );
    }
    if let Some(k) = keys {
        for (i, b) in body.iter_mut().enumerate() {
            *b = b.wrapping_add(k.string[i % 32]);
        }
    }
    h.extend_from_slice(&body);
    Ok(h)
}
