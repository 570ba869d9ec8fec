#![allow(dead_code)]
//! Helpers shared by the integration tests.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use tetrarch::rules::Game;
use tetrarch::rules::prelude::*;

pub mod impasse;
pub mod peers;
pub mod shown;
pub mod stand_in;
pub mod walk;
pub mod webdriver;

/// A small deterministic generator, so that every failure can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Positions along random games from the start: every position of `games` games of at most
/// `plies` plies.
pub fn random_positions<G: Game>(seed: u64, games: usize, plies: usize) -> Vec<G> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    for _ in 0..games {
        random_walk(G::startpos(), &mut rng, plies, &mut out);
    }
    out
}

/// Pushes onto `out` the positions of one random game from `pos` of at most `plies` plies.
pub fn random_walk<G: Game>(mut pos: G, rng: &mut Rng, plies: usize, out: &mut Vec<G>) {
    for _ in 0..plies {
        out.push(pos.clone());
        let mut list = Default::default();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list.as_slice()[rng.below(list.len())];
        pos.play(m);
    }
}

/// One line of a perft suite: position string, then (depth, count) pairs, then a label.
pub struct PerftCase {
    pub position: String,
    pub counts: Vec<(u32, u64)>,
    pub label: String,
}

pub fn read_perft_suite(path: &str) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let position = parts.next().unwrap().trim().to_string();
        let mut counts = Vec::new();
        let mut label = String::new();
        for p in parts {
            let p = p.trim();
            if let Some(rest) = p.strip_prefix('D')
                && let Some((d, n)) = rest.split_once(' ')
                && let (Ok(d), Ok(n)) = (d.parse(), n.trim().parse())
            {
                counts.push((d, n));
                continue;
            }
            label = p.to_string();
        }
        cases.push(PerftCase { position, counts, label });
    }
    cases
}

/// The real engine binary behind pipes.
pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    pub log: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Self::start_with(env!("CARGO_BIN_EXE_tetrarch"), &[])
    }

    pub fn start_with(program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx, log: Vec::new() }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine reads its input");
        stdin.flush().unwrap();
    }

    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// The next line, or None after `timeout`.
    pub fn line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns every line read, the match last.
    pub fn until(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.line(left) {
                Some(l) => {
                    let done = pred(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => panic!("timed out waiting; got {:?}\nlog: {:?}", got, self.log),
            }
        }
    }

    /// Every line that arrives within `quiet` of the previous one.
    pub fn drain(&mut self, quiet: Duration) -> Vec<String> {
        let mut got = Vec::new();
        while let Some(l) = self.line(quiet) {
            got.push(l);
        }
        got
    }

    pub fn handshake(&mut self) {
        self.send("usi");
        self.until(Duration::from_secs(10), |l| l == "usiok");
        self.send("isready");
        self.until(Duration::from_secs(10), |l| l == "readyok");
    }

    /// Sends `cmd` and then `isready`, returning what came before `readyok`.
    pub fn ask(&mut self, cmd: &str) -> Vec<String> {
        self.ask_within(cmd, Duration::from_secs(30))
    }

    /// `ask`, waiting up to `timeout` for `readyok` (a guard against a hang, not a measure).
    pub fn ask_within(&mut self, cmd: &str, timeout: Duration) -> Vec<String> {
        self.send(cmd);
        self.send("isready");
        let mut v = self.until(timeout, |l| l == "readyok");
        v.pop();
        v
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
