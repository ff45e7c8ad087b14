//! Where match games start: opening files and the suite shipped with Chariot.
//!
//! A file is read as PGN when it has tag pairs or numbered moves (each game's `FEN` tag, or the
//! start position, and its moves); otherwise line by line, where a line is a FEN or an EPD
//! record (the placement and side, then anything: counters or EPD operations), or a list of
//! moves from the start position (ICCS, WXF or Chinese). Blank lines and `#` comments are
//! skipped. Text in GBK or Big5 is read as `gamefile::encoding` finds it; an XQF file gives
//! the position at the end of its main line.
//!
//! The shipped suite (`openings.epd`, the default) comes from `scripts/gen_openings.py`:
//! positions along standard opening lines, each kept only if Chariot scores it close to even.

use crate::position::Position;

/// The shipped opening suite.
pub const BUILTIN: &str = include_str!("openings.epd");

/// How the openings are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// In file order.
    Sequential,
    /// Shuffled with this seed (the same seed gives the same order).
    Random(u64),
}

/// Reads `spec`: `builtin` (the shipped suite), `startpos`, or a file name.
pub fn load(spec: &str) -> Result<Vec<Position>, String> {
    match spec {
        "builtin" => parse(BUILTIN),
        "startpos" => Ok(vec![Position::startpos()]),
        path => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read openings {path}: {e}"))?;
            if crate::tools::gamefile::xqf::looks_like_xqf(&bytes) {
                // An XQF game: the position at the end of its main line.
                let game = crate::tools::gamefile::xqf::read(&bytes, 1)
                    .map_err(|e| format!("{path}: {e}"))?;
                let mut pos = game.start;
                for mv in game.moves {
                    pos.make_move(mv);
                }
                return Ok(vec![pos]);
            }
            // PGN and FEN lists in any encoding (GBK Chinese-notation PGN too).
            let (text, _) = crate::tools::gamefile::encoding::decode(&bytes);
            parse(&text).map_err(|e| format!("{path}: {e}"))
        }
    }
}

/// Parses an opening file's text (see the module documentation).
pub fn parse(text: &str) -> Result<Vec<Position>, String> {
    let looks_like_pgn = text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with('[') || l.starts_with("1.") || l.starts_with("1 .")
    });
    let positions = if looks_like_pgn {
        from_pgn(text)?
    } else {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(n, l)| from_line(l).map_err(|e| format!("line {n}: {e}")))
            .collect::<Result<Vec<_>, _>>()?
    };
    if positions.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(positions)
}

fn from_pgn(text: &str) -> Result<Vec<Position>, String> {
    crate::tools::pgn::read_games(text)
        .iter()
        .map(|game| {
            let mut pos = match game.fen() {
                Some(fen) => Position::from_fen(fen)
                    .map_err(|e| format!("game at line {}: {e}", game.line))?,
                None => Position::startpos(),
            };
            play(&mut pos, game.moves.iter().map(String::as_str))
                .map_err(|e| format!("game at line {}: {e}", game.line))?;
            Ok(pos)
        })
        .collect()
}

/// One line: a FEN or EPD record, or moves from the start position.
fn from_line(line: &str) -> Result<Position, String> {
    let line = line.split(';').next().unwrap_or("").trim();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let first = tokens.first().copied().unwrap_or("");
    if first.contains('/') {
        // The placement and side, then up to four counters or dashes; an EPD operation ends it.
        let fields: Vec<&str> = tokens
            .iter()
            .take(6)
            .enumerate()
            .take_while(|&(i, t)| i < 2 || *t == "-" || t.bytes().all(|b| b.is_ascii_digit()))
            .map(|(_, t)| *t)
            .collect();
        return Position::from_fen(&fields.join(" ")).map_err(|e| e.to_string());
    }
    let mut pos = Position::startpos();
    play(&mut pos, tokens.into_iter())?;
    Ok(pos)
}

fn play<'a>(pos: &mut Position, moves: impl Iterator<Item = &'a str>) -> Result<(), String> {
    for (i, text) in moves.enumerate() {
        let mv = pos
            .parse_human_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos.make_move(mv);
    }
    Ok(())
}

/// The openings in the order they will be played.
pub fn arrange(mut openings: Vec<Position>, order: Order) -> Vec<Position> {
    if let Order::Random(seed) = order {
        // Fisher–Yates with splitmix64: small, and the same on every machine.
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for i in (1..openings.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            openings.swap(i, j);
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fen_epd_move_lists_and_pgn() {
        let text = "# a comment\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - id \"x\"; c0 \"y\";\n\
            h2e2 h9g7\n\
            炮二平五 马8进7\n";
        let positions = parse(text).unwrap();
        assert_eq!(positions.len(), 4);
        assert_eq!(positions[0].key(), positions[1].key());
        assert_eq!(positions[2].to_fen(), positions[3].to_fen());
        let pgn = "[Event \"x\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n[Event \"y\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\"]\n\n1. a0a9 *\n";
        let positions = parse(pgn).unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0].game_ply(), 3);
        assert!(parse("h2e2 h2e2\n").unwrap_err().contains("line 1"));
        assert!(parse("# nothing\n").is_err());
    }

    #[test]
    fn the_shipped_suite_is_large_legal_and_distinct() {
        let positions = load("builtin").unwrap();
        assert!(positions.len() >= 200, "{}", positions.len());
        let mut keys: Vec<u64> = positions.iter().map(|p| p.key()).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), positions.len(), "no duplicates");
        assert!(positions.iter().all(|p| !p.legal_moves().is_empty()));
    }

    #[test]
    fn random_order_is_a_seeded_permutation() {
        let positions = load("builtin").unwrap();
        let a = arrange(positions.clone(), Order::Random(7));
        let b = arrange(positions.clone(), Order::Random(7));
        let c = arrange(positions.clone(), Order::Random(8));
        let keys = |v: &[Position]| v.iter().map(|p| p.key()).collect::<Vec<_>>();
        assert_eq!(keys(&a), keys(&b));
        assert_ne!(keys(&a), keys(&c));
        let mut sorted = keys(&a);
        sorted.sort();
        let mut original = keys(&positions);
        original.sort();
        assert_eq!(sorted, original);
    }
}
