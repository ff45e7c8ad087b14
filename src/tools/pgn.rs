//! A tolerant reader of xiangqi PGN: tag pairs and move text, as `chariot match` writes it and
//! as GUIs and databases export it.
//!
//! Comments (`{…}` and `;` to the end of the line), variations (`(…)`, nested), numeric
//! annotation glyphs (`$1`), move numbers (`12.`, `12...`) and the result token are skipped;
//! what remains are the move tokens, in whatever notation the file uses (ICCS, WXF, Chinese),
//! left for `Position::parse_human_move` to read.

/// One game of a PGN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Move tokens, in the file's notation.
    pub moves: Vec<String>,
    /// The comment right after each move (`{+0.35}` as `chariot match` writes scores), by
    /// move index.
    pub comments: Vec<Option<String>>,
    /// The result token at the end of the move text (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
    /// The line the game starts on (1-based), for error messages.
    pub line: usize,
}

impl PgnGame {
    /// The value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }

    /// The start position's FEN: the `FEN` tag, or `None` for the standard start.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN").filter(|f| !f.trim().is_empty())
    }
}

/// The value of the tag `name` (case-insensitive) among `tags`.
pub fn tag_value<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Splits a PGN text into games. Never fails: text that is not PGN gives games without moves
/// or tags, which the caller can refuse with a clear message.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut comment_depth = 0usize; // inside {…}
    let mut variation_depth = 0usize; // inside (…)
    let mut comment = String::new();
    let finish = |game: &mut PgnGame, games: &mut Vec<PgnGame>| {
        if !game.tags.is_empty() || !game.moves.is_empty() || game.result.is_some() {
            games.push(std::mem::take(game));
        }
    };
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if comment_depth == 0 && variation_depth == 0 && line.starts_with('[') {
            if in_moves || game.result.is_some() {
                finish(&mut game, &mut games);
                in_moves = false;
            }
            if game.tags.is_empty() {
                game.line = number + 1;
            }
            if let Some(tag) = parse_tag(line) {
                game.tags.push(tag);
            }
            continue;
        }
        if line.starts_with('%') {
            continue; // an escape line
        }
        let mut token = String::new();
        let push = |token: &mut String, game: &mut PgnGame, in_moves: &mut bool| {
            if token.is_empty() {
                return;
            }
            let t = std::mem::take(token);
            if game.moves.is_empty() && game.tags.is_empty() && game.result.is_none() {
                game.line = number + 1;
            }
            *in_moves = true;
            if RESULTS.contains(&t.as_str()) {
                game.result = Some(t);
            } else if let Some(mv) = move_token(&t) {
                game.moves.push(mv);
                game.comments.push(None);
            }
        };
        for c in line.chars() {
            if comment_depth > 0 {
                if c == '}' {
                    comment_depth -= 1;
                    if comment_depth == 0 && variation_depth == 0 {
                        let text = std::mem::take(&mut comment);
                        if let Some(slot @ None) = game.comments.last_mut() {
                            *slot = Some(text.trim().to_string());
                        }
                    }
                } else {
                    comment.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    push(&mut token, &mut game, &mut in_moves);
                    comment_depth += 1;
                }
                ';' if variation_depth == 0 => {
                    push(&mut token, &mut game, &mut in_moves);
                    break;
                }
                '(' => {
                    push(&mut token, &mut game, &mut in_moves);
                    variation_depth += 1;
                }
                ')' => {
                    variation_depth = variation_depth.saturating_sub(1);
                }
                _ if variation_depth > 0 => {}
                c if c.is_whitespace() => push(&mut token, &mut game, &mut in_moves),
                c => token.push(c),
            }
        }
        if variation_depth == 0 {
            push(&mut token, &mut game, &mut in_moves);
        }
        if comment_depth > 0 {
            // A comment that goes on to the next line: the line break is a space in it.
            comment.push(' ');
        }
        if game.result.is_some() && comment_depth == 0 && variation_depth == 0 {
            finish(&mut game, &mut games);
            in_moves = false;
        }
    }
    finish(&mut game, &mut games);
    games
}

/// `[Name "Value"]` → (Name, Value), with `\"` and `\\` unescaped.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// The move in a token, without a leading move number (`1.h2e2`, `3...h9g7`), annotation
/// marks (`!`, `?`) or check signs (`+`); `None` for bare move numbers and glyphs (`$1`).
fn move_token(token: &str) -> Option<String> {
    if token.starts_with('$') {
        return None;
    }
    let digits = token.chars().take_while(|c| c.is_ascii_digit()).count();
    let rest = &token[digits..];
    let rest = if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else if digits > 0 && rest.starts_with('…') {
        rest.trim_start_matches('…')
    } else {
        token
    };
    let mv = rest.trim_end_matches(['!', '?', '+', '#']);
    (!mv.is_empty()).then(|| mv.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_and_results_and_skips_the_rest() {
        let text = "[Event \"test\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\"]\n\n\
                    1. a0a9+ {check} e9e8 2. a9a8+ (2. d0d1 e8e9) e8e9 ; a comment\n\
                    3. a8a9 $1 e9e8 1-0\n\n[Event \"second\"]\n\n1. h2e2 h9g7 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("event"), Some("test"));
        assert_eq!(games[0].fen(), Some("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"));
        assert_eq!(
            games[0].moves,
            ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"]
        );
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves, ["h2e2", "h9g7"]);
        assert_eq!(games[1].fen(), None);
        assert_eq!(games[1].line, 7);
    }

    #[test]
    fn move_numbers_glued_to_moves_and_bare_move_lists() {
        let games = read_games("1.h2e2 1...h9g7 2.C2.5");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, ["h2e2", "h9g7", "C2.5"]);
        assert!(read_games("").is_empty());
    }
}
