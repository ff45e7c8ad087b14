//! The engine process driven through the built binary as a GUI drives it: a line-by-line
//! driver shared by the protocol and client tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    /// An engine after the handshake of `dialect` (`ucci` or `uci`), with what it answered.
    pub fn after_handshake(dialect: &str) -> (Engine, Vec<String>) {
        let mut e = Engine::start();
        e.send(dialect);
        let out = e.expect(if dialect == "uci" { "uciok" } else { "ucciok" });
        (e, out)
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `done`; returns them all. Panics after `limit`.
    pub fn until(&mut self, limit: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in {limit:?}; got {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine exited; got {seen:#?}"),
            }
        }
    }

    pub fn expect(&mut self, prefix: &str) -> Vec<String> {
        let p = prefix.to_string();
        self.until(Duration::from_secs(30), move |l| l.starts_with(&p))
    }

    /// Nothing arrives for `wait`.
    pub fn silent_for(&mut self, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        let deadline = Instant::now() + wait;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.expect("readyok");
    }

    pub fn exits_within(mut self, limit: Duration) -> std::process::ExitStatus {
        // Closing our end of the pipe is end of input for the engine.
        drop(self.stdin.take());
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the engine did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    /// A failed test must not leave an engine searching forever.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Does some line start with `prefix`?
pub fn has_line(lines: &[String], prefix: &str) -> bool {
    lines.iter().any(|l| l.starts_with(prefix))
}

pub fn bestmove_of(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.split_whitespace().nth(1).unwrap_or("").to_string()
}

pub fn legal_in(fen: Option<&str>, moves: &[&str], mv: &str) -> bool {
    let mut pos = match fen {
        Some(f) => chariot::Position::from_fen(f).unwrap(),
        None => chariot::Position::startpos(),
    };
    for m in moves {
        let m = pos.parse_move(m).unwrap();
        pos.make_move(m);
    }
    pos.parse_move(mv).is_ok()
}
