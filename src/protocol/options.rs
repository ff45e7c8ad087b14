//! The engine's options: what the handshake lists in each dialect, and how `setoption`
//! changes them (numbers brought into range and said so, unknown options ignored).

use super::*;
use crate::search::strength::{Level, MAX_ELO, MAX_SKILL, MIN_ELO};

/// The largest `Random Seed`.
const MAX_SEED: u64 = u32::MAX as u64;

/// The options a GUI can set.
#[derive(Clone, Debug)]
pub(super) struct Options {
    pub(super) hash_mb: usize,
    pub(super) threads: usize,
    pub(super) multipv: usize,
    pub(super) move_overhead_ms: u64,
    pub(super) ponder: bool,
    pub(super) use_millisec: bool,
    pub(super) batch: bool,
    pub(super) debug: bool,
    pub(super) show_wdl: bool,
    pub(super) rules: Rules,
    /// Search with the network (else the hand-crafted evaluation).
    pub(super) use_nnue: bool,
    /// The network `use_nnue` selects, and the file it came from (`<embedded>`).
    pub(super) net: Arc<crate::eval::nnue::Network>,
    pub(super) eval_file: String,
    /// Play at `elo` (`UCI_LimitStrength`, `UCI_Elo`), or at `skill` (`Skill Level`) below 20.
    pub(super) limit_strength: bool,
    pub(super) elo: i32,
    pub(super) skill: i32,
    /// `Random Seed`: a level's choices repeat with the same seed; 0 varies them per game.
    pub(super) seed: u64,
}

/// `UCI_Elo`'s default.
const DEFAULT_ELO: i32 = 1500;

impl Options {
    /// The playing level the options ask for (`None`: full strength).
    pub(super) fn level_elo(&self) -> Option<i32> {
        if self.limit_strength {
            Some(self.elo)
        } else if self.skill < MAX_SKILL {
            Some(Level::skill_elo(self.skill))
        } else {
            None
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            ponder: false,
            use_millisec: true,
            batch: false,
            debug: false,
            show_wdl: false,
            rules: Rules::default(),
            use_nnue: crate::eval::nnue::DEFAULT_ON,
            net: crate::eval::nnue::embedded(),
            eval_file: EMBEDDED_NET.into(),
            limit_strength: false,
            elo: DEFAULT_ELO,
            skill: MAX_SKILL,
            seed: 0,
        }
    }
}

impl Engine {
    pub(super) fn handshake(&self) {
        let out = &self.out;
        match self.dialect {
            Dialect::Ucci => {
                out.line(&format!("id name {NAME} {VERSION}"));
                out.line(&format!("id version {VERSION}"));
                out.line(&format!("id copyright 2026 {AUTHOR}"));
                out.line(&format!("id author {AUTHOR}"));
                out.line("option usemillisec type check default true");
                out.line("option batch type check default false");
                out.line("option debug type check default false");
                out.line("option ponder type check default false");
                out.line(&format!(
                    "option hashsize type spin min 1 max {MAX_HASH_MB} default 16"
                ));
                out.line(&format!(
                    "option threads type spin min 1 max {MAX_THREADS} default 1"
                ));
                out.line(&format!(
                    "option multipv type spin min 1 max {MAX_MULTIPV} default 1"
                ));
                out.line(&format!(
                    "option moveoverhead type spin min 0 max {MAX_OVERHEAD_MS} default 30"
                ));
                out.line(&format!(
                    "option repetition type combo default asian {RULE_SET_VARS}"
                ));
                out.line(&format!(
                    "option drawmoves type spin min 0 max {MAX_DRAW_MOVES} default 60"
                ));
                out.line(&format!(
                    "option usennue type check default {}",
                    crate::eval::nnue::DEFAULT_ON
                ));
                out.line(&format!(
                    "option evalfile type string default {EMBEDDED_NET}"
                ));
                out.line(&format!(
                    "option rankbase type combo default auto {}",
                    coords::RankSetting::VARS
                ));
                out.line("option uci_limitstrength type check default false");
                out.line(&format!(
                    "option uci_elo type spin min {MIN_ELO} max {MAX_ELO} default {DEFAULT_ELO}"
                ));
                out.line(&format!(
                    "option skilllevel type spin min 0 max {MAX_SKILL} default {MAX_SKILL}"
                ));
                out.line(&format!(
                    "option randomseed type spin min 0 max {MAX_SEED} default 0"
                ));
                out.line("option newgame type button");
                #[cfg(feature = "tune")]
                list_tunables(out, "option ");
                out.line("ucciok");
            }
            Dialect::Uci => {
                out.line(&format!("id name {NAME} {VERSION}"));
                out.line(&format!("id author {AUTHOR}"));
                out.line(&format!(
                    "option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"
                ));
                out.line(&format!(
                    "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
                ));
                out.line(&format!(
                    "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
                ));
                out.line(&format!(
                    "option name Move Overhead type spin default 30 min 0 max {MAX_OVERHEAD_MS}"
                ));
                out.line("option name Ponder type check default false");
                out.line("option name Clear Hash type button");
                out.line("option name UCI_Variant type combo default xiangqi var xiangqi");
                out.line("option name UCI_ShowWDL type check default false");
                out.line(&format!(
                    "option name Repetition Rule type combo default asian {RULE_SET_VARS}"
                ));
                out.line(&format!(
                    "option name Draw Moves type spin default 60 min 0 max {MAX_DRAW_MOVES}"
                ));
                out.line(&format!(
                    "option name UseNNUE type check default {}",
                    crate::eval::nnue::DEFAULT_ON
                ));
                out.line(&format!(
                    "option name EvalFile type string default {EMBEDDED_NET}"
                ));
                out.line(&format!(
                    "option name RankBase type combo default auto {}",
                    coords::RankSetting::VARS
                ));
                out.line("option name UCI_LimitStrength type check default false");
                out.line(&format!(
                    "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"
                ));
                out.line(&format!(
                    "option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}"
                ));
                out.line(&format!(
                    "option name Random Seed type spin default 0 min 0 max {MAX_SEED}"
                ));
                #[cfg(feature = "tune")]
                list_tunables(out, "option name ");
                out.line("uciok");
            }
        }
    }

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key = option_key(name);
        let flag = |v: Option<&str>| -> Option<bool> {
            match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
                Some("true" | "on" | "1" | "yes") => Some(true),
                Some("false" | "off" | "0" | "no") => Some(false),
                None => Some(true),
                _ => None,
            }
        };
        // A whole number, brought into min..=max; how it was brought in is told afterwards.
        let clamped = std::cell::Cell::new(None);
        let spin = |v: Option<&str>, min: u64, max: u64| -> Option<u64> {
            let text = v?.trim();
            let negative = text.starts_with('-');
            let digits = if negative { &text[1..] } else { text };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // `None`: negative, or too large for any option.
            let given = if negative {
                None
            } else {
                text.parse::<u64>().ok()
            };
            let n = match given {
                Some(v) => v.clamp(min, max),
                None if negative => min,
                None => max,
            };
            if given != Some(n) {
                clamped.set(Some(format!(
                    "option {name}: {text} is outside {min}..{max}; {n} used"
                )));
            }
            Some(n)
        };
        let bad = |this: &Self| {
            this.error(&format!(
                "option {name}: '{}' is not a valid value",
                value.unwrap_or("")
            ))
        };
        match key.as_str() {
            "hash" | "hashsize" => match spin(value, 0, MAX_HASH_MB as u64) {
                // 0 means "engine decides": the default.
                Some(mb) => {
                    let mb = if mb == 0 { 16 } else { mb as usize };
                    if mb != self.options.hash_mb {
                        match self.pool.set_hash(mb) {
                            Ok(()) => self.options.hash_mb = mb,
                            Err(e) => self.error(&e),
                        }
                    }
                }
                None => bad(self),
            },
            "threads" => match spin(value, 1, MAX_THREADS as u64) {
                Some(n) => {
                    let n = n as usize;
                    if n != self.pool.thread_count() {
                        self.pool.set_threads(n);
                    }
                    self.options.threads = n;
                }
                None => bad(self),
            },
            "multipv" => match spin(value, 1, MAX_MULTIPV as u64) {
                Some(n) => self.options.multipv = n as usize,
                None => bad(self),
            },
            "moveoverhead" => match spin(value, 0, MAX_OVERHEAD_MS) {
                Some(n) => self.options.move_overhead_ms = n,
                None => bad(self),
            },
            "ponder" | "usemillisec" | "batch" | "debug" | "ucishowwdl" | "ucilimitstrength" => {
                let field = match key.as_str() {
                    "ponder" => &mut self.options.ponder,
                    "usemillisec" => &mut self.options.use_millisec,
                    "batch" => &mut self.options.batch,
                    "debug" => &mut self.options.debug,
                    "ucilimitstrength" => &mut self.options.limit_strength,
                    _ => &mut self.options.show_wdl,
                };
                match flag(value) {
                    Some(b) => *field = b,
                    None => bad(self),
                }
            }
            "repetition" | "repetitionrule" | "rules" => match value.unwrap_or("").parse() {
                Ok(set) => self.options.rules.set = set,
                Err(e) => self.error(&format!("option {name}: {e}")),
            },
            "drawmoves" | "movelimit" => match spin(value, 0, MAX_DRAW_MOVES) {
                Some(0) => self.options.rules.move_limit = None,
                Some(n) => self.options.rules.move_limit = Some(n as u32 * 2),
                None => bad(self),
            },
            // Pikafish's switch for the same limit: on is 60 moves a side, off none.
            "sixtymoverule" => match flag(value) {
                Some(on) => self.options.rules.move_limit = on.then_some(120),
                None => bad(self),
            },
            "usennue" => match flag(value) {
                Some(on) => {
                    if on != self.options.use_nnue {
                        // The table keeps evaluations: start afresh with the other one.
                        self.pool.clear();
                    }
                    self.options.use_nnue = on;
                }
                None => bad(self),
            },
            "evalfile" => {
                let path = value.unwrap_or("").trim();
                let loaded = if path.is_empty() || path == EMBEDDED_NET {
                    Ok(crate::eval::nnue::embedded())
                } else {
                    crate::eval::nnue::file::load(std::path::Path::new(path)).map(Arc::new)
                };
                match loaded {
                    Ok(net) => {
                        self.out.info_string(&format!(
                            "NNUE evaluation using {} (hash {:016x})",
                            if path.is_empty() { EMBEDDED_NET } else { path },
                            net.hash
                        ));
                        if net.hash != self.options.net.hash {
                            self.pool.clear();
                        }
                        self.options.net = net;
                        self.options.eval_file = path.to_string();
                    }
                    Err(e) => self.error(&format!(
                        "option {name}: {e}; keeping {} (hash {:016x})",
                        self.options.eval_file, self.options.net.hash
                    )),
                }
            }
            "ucielo" | "elo" => match spin(value, MIN_ELO as u64, MAX_ELO as u64) {
                Some(n) => self.options.elo = n as i32,
                None => bad(self),
            },
            "skilllevel" | "skill" => match spin(value, 0, MAX_SKILL as u64) {
                Some(n) => self.options.skill = n as i32,
                None => bad(self),
            },
            "randomseed" | "seed" => match spin(value, 0, MAX_SEED) {
                Some(n) => self.options.seed = n,
                None => bad(self),
            },
            "newgame" | "clearhash" => {
                self.pool.clear();
                self.banned.clear();
            }
            "ucivariant" => {
                let v = value.unwrap_or("").trim();
                if v.eq_ignore_ascii_case("xiangqi") {
                    // Fairy-Stockfish-style clients set it: a hint at ranks 1..10 (`coords`).
                    self.ranks.variant_set = true;
                } else {
                    self.error(&format!("variant '{v}' is not supported; only xiangqi"));
                }
            }
            "rankbase" => match coords::RankSetting::parse(value.unwrap_or("")) {
                Some(setting) => self.ranks.setting = setting,
                None => bad(self),
            },
            // A `tune` build's search parameters.
            #[cfg(feature = "tune")]
            _ if crate::search::params::tunable(name).is_some() => {
                match value.and_then(|v| v.trim().parse::<f64>().ok()) {
                    Some(v) if v.is_finite() => {
                        let _ = crate::search::params::set_tuned(name, v);
                    }
                    _ => bad(self),
                }
            }
            // Options of other engines and GUIs (books, skill levels, rule switches we do not
            // have yet): ignored, as the protocol asks.
            _ => {
                if self.options.debug {
                    self.out
                        .info_string(&format!("ignoring unknown option {name}"));
                }
            }
        }
        if let Some(note) = clamped.take() {
            self.error(&note);
        }
    }
}

/// A `tune` build's search parameters, each an option named as its field (whole numbers as
/// spins, the others as strings holding a decimal).
#[cfg(feature = "tune")]
fn list_tunables(out: &Output, prefix: &str) {
    let now = crate::search::params::tuned();
    for t in crate::search::params::TUNABLES {
        let v = t.get(now);
        out.line(&if t.integer {
            format!(
                "{prefix}{} type spin default {v} min {} max {}",
                t.name, t.min, t.max
            )
        } else {
            format!("{prefix}{} type string default {v}", t.name)
        });
    }
}

/// An option name as engines match it: case, spaces and underscores ignored ("Draw Moves",
/// "draw_moves" and "drawmoves" are one option).
pub fn option_key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase()
}
