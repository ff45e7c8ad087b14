//! Parsing protocol lines into `Command`s: separate from acting on them, so the parser can be
//! tested (and fuzzed) on its own and never touches engine state.
//!
//! Keywords are case-insensitive and whitespace-separated; both UCCI forms (`setoption hashsize
//! 64`, `go time 60000 increment 1000`) and UCI forms (`setoption name Hash value 64`,
//! `go wtime … btime …`) are understood in either dialect.

/// A number-bearing `go` argument that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

/// Everything `go` can say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    pub ponder: bool,
    pub draw: bool,
    pub infinite: bool,
    pub depth: Option<i64>,
    pub nodes: Option<u64>,
    pub mate: Option<i64>,
    /// UCCI: our time, increment, moves to go (units set by `usemillisec`).
    pub time: Option<u64>,
    pub increment: Option<u64>,
    pub moves_to_go: Option<u64>,
    pub opp_time: Option<u64>,
    pub opp_increment: Option<u64>,
    pub opp_moves_to_go: Option<u64>,
    /// UCI: clocks by color and a fixed move time (always milliseconds).
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub move_time: Option<u64>,
    pub search_moves: Vec<String>,
    /// `go perft N`.
    pub perft: Option<u32>,
}

/// Where a `position` or `probe` command puts the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionSpec {
    /// `None` means `startpos`.
    pub fen: Option<String>,
    pub moves: Vec<String>,
    /// Given as a bare `fen …`/`startpos …` line, without the `position` keyword (the
    /// Cyclone dialect XBoard's `uci2wb -c` speaks).
    pub bare: bool,
}

/// One parsed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Ucci,
    Uci,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position(PositionSpec),
    BanMoves(Vec<String>),
    Go(Box<GoParams>),
    PonderHit {
        draw: bool,
    },
    Stop,
    Probe(PositionSpec),
    Quit,
    /// `ucinewgame`, `uccinewgame`.
    NewGame,
    /// UCI `debug on|off`.
    Debug(bool),
    /// Print the board (`d`), a debugging aid.
    Display,
    /// Explain the static evaluation (`eval`).
    Eval,
    /// A blank line.
    Empty,
    /// A command we do not know: ignored.
    Unknown(String),
    /// A known command with arguments we cannot use: reported, ignored.
    Invalid(String),
    /// A `position` command that cannot be read: reported, and no position is searched until
    /// a good one arrives.
    BadPosition(String),
}

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// Reads a non-negative integer; huge values saturate, negative ones are refused.
fn number(keyword: &str, token: Option<&&str>) -> Result<u64, ParseError> {
    let token = token.ok_or_else(|| ParseError(format!("'{keyword}' needs a number")))?;
    let text = token.trim_start_matches('+');
    if text.starts_with('-') {
        return Err(ParseError(format!(
            "'{keyword} {token}': the number must not be negative"
        )));
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(text.parse::<u64>().unwrap_or(u64::MAX));
    }
    // Some GUIs send fractional times; keep the whole part.
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v.min(u64::MAX as f64) as u64),
        _ => Err(ParseError(format!(
            "'{keyword} {token}': '{token}' is not a number"
        ))),
    }
}

fn parse_position(tokens: &[&str], keyword: &str) -> Result<PositionSpec, ParseError> {
    let Some(first) = tokens.first() else {
        return Err(ParseError(format!(
            "'{keyword}' needs 'startpos' or 'fen <FEN>'"
        )));
    };
    let moves_at = tokens.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, moves) = match moves_at {
        Some(i) => (
            &tokens[..i],
            tokens[i + 1..].iter().map(|s| s.to_string()).collect(),
        ),
        None => (tokens, Vec::new()),
    };
    let fen = match lower(first).as_str() {
        "startpos" => {
            if head.len() > 1 {
                return Err(ParseError(format!(
                    "'{keyword} startpos' takes no FEN, found '{}'",
                    head[1..].join(" ")
                )));
            }
            None
        }
        "fen" => {
            if head.len() < 2 {
                return Err(ParseError(format!("'{keyword} fen' needs a FEN")));
            }
            Some(head[1..].join(" "))
        }
        other => {
            return Err(ParseError(format!(
                "'{keyword} {other}': expected 'startpos' or 'fen'"
            )));
        }
    };
    Ok(PositionSpec {
        fen,
        moves,
        bare: false,
    })
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, ParseError> {
    if tokens.is_empty() {
        return Err(ParseError("'setoption' needs an option name".into()));
    }
    if tokens[0].eq_ignore_ascii_case("name") {
        // UCI form: name <words…> [value <words…>]
        let rest = &tokens[1..];
        let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let (name, value) = match value_at {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
            None => (rest.join(" "), None),
        };
        if name.is_empty() {
            return Err(ParseError("'setoption name' needs an option name".into()));
        }
        return Ok(Command::SetOption { name, value });
    }
    // UCCI form: <name> [<value…>]
    let value = (tokens.len() > 1).then(|| tokens[1..].join(" "));
    Ok(Command::SetOption {
        name: tokens[0].to_string(),
        value,
    })
}

fn parse_go(tokens: &[&str]) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let keyword = lower(tokens[i]);
        let arg = tokens.get(i + 1);
        let mut takes_arg = true;
        match keyword.as_str() {
            "ponder" => {
                go.ponder = true;
                takes_arg = false;
            }
            "draw" => {
                go.draw = true;
                takes_arg = false;
            }
            "infinite" => {
                go.infinite = true;
                takes_arg = false;
            }
            "depth" => {
                if arg.is_some_and(|a| a.eq_ignore_ascii_case("infinite")) {
                    go.infinite = true;
                } else {
                    go.depth = Some(number("depth", arg)?.min(i64::MAX as u64) as i64);
                }
            }
            "nodes" => go.nodes = Some(number("nodes", arg)?),
            "mate" => go.mate = Some(number("mate", arg)?.min(i64::MAX as u64) as i64),
            "time" => go.time = Some(number("time", arg)?),
            "increment" => go.increment = Some(number("increment", arg)?),
            "movestogo" => go.moves_to_go = Some(number("movestogo", arg)?),
            "opptime" => go.opp_time = Some(number("opptime", arg)?),
            "oppincrement" => go.opp_increment = Some(number("oppincrement", arg)?),
            "oppmovestogo" => go.opp_moves_to_go = Some(number("oppmovestogo", arg)?),
            "wtime" => go.wtime = Some(number("wtime", arg)?),
            "btime" => go.btime = Some(number("btime", arg)?),
            "winc" => go.winc = Some(number("winc", arg)?),
            "binc" => go.binc = Some(number("binc", arg)?),
            "movetime" => go.move_time = Some(number("movetime", arg)?),
            "perft" => {
                let n = number("perft", arg)?;
                go.perft = Some(n.min(u32::MAX as u64) as u32);
            }
            "searchmoves" => {
                // Every following token that is not a keyword is a move.
                let mut j = i + 1;
                while j < tokens.len() && tokens[j].len() <= 5 && !is_go_keyword(tokens[j]) {
                    go.search_moves.push(tokens[j].to_string());
                    j += 1;
                }
                i = j;
                continue;
            }
            _ => {
                // Unknown words are skipped, as GUIs add their own.
                takes_arg = false;
            }
        }
        i += if takes_arg { 2 } else { 1 };
    }
    Ok(go)
}

fn is_go_keyword(token: &str) -> bool {
    matches!(
        lower(token).as_str(),
        "ponder"
            | "draw"
            | "infinite"
            | "depth"
            | "nodes"
            | "mate"
            | "time"
            | "increment"
            | "movestogo"
            | "opptime"
            | "oppincrement"
            | "oppmovestogo"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movetime"
            | "perft"
    )
}

/// Parses one input line (without its line ending; a trailing `\r` is removed here).
pub fn parse(line: &str) -> Command {
    let line = line.trim_end_matches(['\r', '\n']);
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Command::Empty;
    };
    let rest = &tokens[1..];
    let result = match lower(first).as_str() {
        "ucci" => Ok(Command::Ucci),
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "setoption" => parse_setoption(rest),
        "position" => {
            return parse_position(rest, "position")
                .map_or_else(|e| Command::BadPosition(e.0), Command::Position);
        }
        // Cyclone dialect: the board without the `position` keyword.
        "fen" | "startpos" => {
            return parse_position(&tokens, "position").map_or_else(
                |e| Command::BadPosition(e.0),
                |spec| Command::Position(PositionSpec { bare: true, ..spec }),
            );
        }
        "banmoves" => Ok(Command::BanMoves(
            rest.iter().map(|s| s.to_string()).collect(),
        )),
        "go" => parse_go(rest).map(|g| Command::Go(Box::new(g))),
        "ponderhit" => Ok(Command::PonderHit {
            draw: rest.first().is_some_and(|t| t.eq_ignore_ascii_case("draw")),
        }),
        "stop" => Ok(Command::Stop),
        "probe" => parse_position(rest, "probe").map(Command::Probe),
        "quit" | "exit" => Ok(Command::Quit),
        "ucinewgame" | "uccinewgame" => Ok(Command::NewGame),
        "debug" => Ok(Command::Debug(
            !rest.first().is_some_and(|t| t.eq_ignore_ascii_case("off")),
        )),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        _ => Ok(Command::Unknown(line.trim().to_string())),
    };
    result.unwrap_or_else(|e| Command::Invalid(e.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshakes_and_simple_commands() {
        assert_eq!(parse("ucci"), Command::Ucci);
        assert_eq!(parse("  UCI \r"), Command::Uci);
        assert_eq!(parse("isready\r\n"), Command::IsReady);
        assert_eq!(parse(""), Command::Empty);
        assert_eq!(parse("ponderhit draw"), Command::PonderHit { draw: true });
        assert_eq!(
            parse("frobnicate 3"),
            Command::Unknown("frobnicate 3".into())
        );
    }

    #[test]
    fn setoption_in_both_forms() {
        let uci = parse("setoption name Move Overhead value 50");
        assert_eq!(
            uci,
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            }
        );
        let ucci = parse("setoption hashsize 64");
        assert_eq!(
            ucci,
            Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            }
        );
        let button = parse("setoption newgame");
        assert_eq!(
            button,
            Command::SetOption {
                name: "newgame".into(),
                value: None
            }
        );
        assert!(matches!(parse("setoption"), Command::Invalid(_)));
    }

    #[test]
    fn positions_with_fens_and_moves() {
        let p = parse("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves d0d1 e9e8");
        assert_eq!(
            p,
            Command::Position(PositionSpec {
                fen: Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into()),
                moves: vec!["d0d1".into(), "e9e8".into()],
                bare: false,
            })
        );
        let bare = parse("startpos moves");
        assert_eq!(
            bare,
            Command::Position(PositionSpec {
                fen: None,
                moves: vec![],
                bare: true,
            })
        );
        assert!(matches!(parse("position"), Command::BadPosition(_)));
        assert!(matches!(parse("position banana"), Command::BadPosition(_)));
        assert!(matches!(parse("position fen"), Command::BadPosition(_)));
    }

    #[test]
    fn go_in_every_form() {
        let Command::Go(g) = parse("go ponder time 60000 increment 1000 opptime 5 oppincrement 2")
        else {
            panic!()
        };
        assert!(g.ponder);
        assert_eq!(
            (g.time, g.increment, g.opp_time),
            (Some(60000), Some(1000), Some(5))
        );
        let Command::Go(g) = parse("GO WTIME 1000 btime 2000 winc 10 binc 20 movestogo 5") else {
            panic!()
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc, g.moves_to_go),
            (Some(1000), Some(2000), Some(10), Some(20), Some(5))
        );
        let Command::Go(g) = parse("go depth infinite") else {
            panic!()
        };
        assert!(g.infinite);
        let Command::Go(g) = parse("go searchmoves h2e2 b0c2 depth 3") else {
            panic!()
        };
        assert_eq!(g.search_moves, ["h2e2", "b0c2"]);
        assert_eq!(g.depth, Some(3));
        let Command::Go(g) = parse("go nodes 99999999999999999999999999") else {
            panic!()
        };
        assert_eq!(g.nodes, Some(u64::MAX));
        assert!(matches!(parse("go depth -3"), Command::Invalid(_)));
        assert!(matches!(parse("go depth"), Command::Invalid(_)));
        assert!(matches!(parse("go movetime abc"), Command::Invalid(_)));
        let Command::Go(g) = parse("go perft 2") else {
            panic!()
        };
        assert_eq!(g.perft, Some(2));
    }
}
