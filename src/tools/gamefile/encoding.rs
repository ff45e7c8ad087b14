//! Which character encoding a game file's text is in, found out rather than asked for.
//!
//! Xiangqi files come in UTF-8 (with or without a byte-order mark), UTF-16 with a mark (some
//! Windows tools), GBK/GB18030 (most files from Chinese GUIs and sites) and Big5 (files from
//! Taiwan and Hong Kong). The rules, first that applies:
//! 1. A byte-order mark names the encoding.
//! 2. Text that is valid UTF-8 is UTF-8 (GBK and Big5 text of any length almost never is).
//! 3. Otherwise the text is decoded as GB18030 and as Big5, and the reading with more of the
//!    characters xiangqi move text is made of (piece names, numerals, 进退平, 前后) wins; a
//!    reading with decoding errors loses to one without, and a tie goes to GB18030, the
//!    commoner. GBK's and Big5's byte ranges overlap, so both readings usually succeed, but
//!    only the right one spells moves.
//!
//! `encoding_rs` does the decoding: its GB18030 and Big5 tables are the WHATWG ones browsers
//! use, which a hand-written table could only copy.

use encoding_rs::{BIG5, Encoding, GB18030, UTF_8};

/// Characters of Chinese move text and of the words around it (sides, results, events), in
/// both simplified and traditional writing.
const MOVE_CHARS: &str = "车車俥马馬傌炮砲包相象仕士帅帥将將兵卒进進退平前中后後一二三四五六七八九１２３４５６７８９红紅黑方胜勝负負和局赛賽对對先手";

/// How much a decoded text looks like xiangqi move text.
fn plausibility(text: &str) -> usize {
    text.chars().filter(|c| MOVE_CHARS.contains(*c)).count()
}

/// Decodes `bytes`, returning the text and the encoding's name (`UTF-8`, `GB18030`, `Big5`,
/// `UTF-16LE`, `UTF-16BE`).
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return (text.into_owned(), encoding.name());
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_string(), UTF_8.name());
    }
    // `max_by_key` keeps the last of equals: GB18030 last wins ties.
    let readings = [BIG5, GB18030].map(|encoding| {
        let (text, errors) = encoding.decode_without_bom_handling(bytes);
        (text.into_owned(), errors, encoding.name())
    });
    let best = readings
        .into_iter()
        .max_by_key(|(text, errors, _)| (!errors, plausibility(text)))
        .expect("two readings");
    (best.0, best.2)
}

/// Reads an encoding option for written files: `Ok(true)` for GBK (GB18030, GB2312 taken
/// as it), `Ok(false)` for UTF-8.
pub fn wants_gbk(option: &str, text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "utf-8" | "utf8" => Ok(false),
        "gbk" | "gb18030" | "gb2312" => Ok(true),
        other => Err(format!("{option} '{other}': utf-8 or gbk")),
    }
}

/// The text in GBK (GB18030), the encoding most Chinese GUIs expect of a PGN file.
pub fn encode_gbk(text: &str) -> Vec<u8> {
    GB18030.encode(text).0.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"象棋比赛\"]\n1. 炮二平五 马８进７ 2. 马二进三 車9平8 1-0\n";

    #[test]
    fn each_encoding_is_recognised() {
        let utf8 = GAME.as_bytes().to_vec();
        assert_eq!(decode(&utf8), (GAME.to_string(), "UTF-8"));
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(GAME.as_bytes());
        assert_eq!(decode(&bom), (GAME.to_string(), "UTF-8"));
        let gbk = encode_gbk(GAME);
        assert_ne!(gbk, utf8);
        assert_eq!(decode(&gbk), (GAME.to_string(), "gb18030"));
        // Big5 has no simplified characters: a traditional text.
        let traditional = "1. 炮二平五 馬８進７ 2. 傌二進三 車9平8\n";
        let big5 = BIG5.encode(traditional).0.into_owned();
        assert_eq!(decode(&big5), (traditional.to_string(), "Big5"));
        let gb = GB18030.encode(traditional).0.into_owned();
        assert_eq!(decode(&gb), (traditional.to_string(), "gb18030"));
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(GAME.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&utf16), (GAME.to_string(), "UTF-16LE"));
    }

    #[test]
    fn any_bytes_decode_without_panicking() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..300 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            let _ = decode(&bytes);
        }
    }
}
