//! `cargo bench --bench versus_fairy`: perft and search speed next to Fairy-Stockfish (found as
//! the tests find it: `FAIRY_STOCKFISH`, then `PATH`, then Debian's package), on this machine in
//! this run. Prints figures; asserts nothing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tetrarch::games::judkins::Judkins;
use tetrarch::rules::perft;
use tetrarch::rules::prelude::*;

#[path = "../tests/common/peers.rs"]
mod peers;

/// Runs `commands` through an engine and returns every line up to one starting with `until`,
/// with the time from the last command to that line.
fn session(program: &str, commands: &[&str], until: &str) -> (Vec<String>, Duration) {
    let mut child = Command::new(program).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut start = Instant::now();
    for c in commands {
        stdin.write_all(format!("{c}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        if c.starts_with("isready") {
            for l in lines.by_ref() {
                if l.unwrap() == "readyok" {
                    break;
                }
            }
        }
        start = Instant::now();
    }
    let mut out = Vec::new();
    for l in lines.by_ref() {
        let l = l.unwrap();
        let done = l.starts_with(until);
        out.push(l);
        if done {
            break;
        }
    }
    let took = start.elapsed();
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = child.wait();
    (out, took)
}

fn last_info(lines: &[String]) -> (u32, u64, u64) {
    let l =
        lines.iter().rev().find(|l| l.starts_with("info depth") && l.contains(" nodes ")).cloned().unwrap_or_default();
    let w: Vec<&str> = l.split_whitespace().collect();
    let field = |k: &str| {
        w.iter().position(|&x| x == k).and_then(|i| w.get(i + 1)).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
    };
    (field("depth") as u32, field("nodes"), field("nps"))
}

fn main() {
    let depth = 6;
    let pos = Judkins::startpos();
    let t = Instant::now();
    let n = perft(&pos, depth);
    let ours = t.elapsed().as_secs_f64();
    println!("perft {depth} start position");
    println!("  tetrarch        {n:>10} nodes  {ours:7.3} s  {:>12.0} nodes/s", n as f64 / ours);
    let fsf = peers::locate(&peers::FAIRY_STOCKFISH).map(|p| p.display().to_string());
    if let Some(fsf) = &fsf {
        println!("  (fairy-stockfish: {fsf})");
        let (lines, took) = session(
            fsf,
            &["uci", "setoption name UCI_Variant value judkins", "isready", "position startpos", "go perft 6"],
            "Nodes searched",
        );
        let nodes: u64 = lines.last().and_then(|l| l.rsplit(' ').next()).and_then(|v| v.parse().ok()).unwrap_or(0);
        let secs = took.as_secs_f64();
        println!(
            "  fairy-stockfish {nodes:>10} nodes  {secs:7.3} s  {:>12.0} nodes/s  (its count includes pawn-drop mates)",
            nodes as f64 / secs
        );
        println!("  speed ratio     {:.1}x", secs / ours);
    } else {
        println!("  fairy-stockfish not found (set {} or install it)", peers::FAIRY_STOCKFISH.var);
    }
    println!("search, 1 s from the start position");
    let engine = env!("CARGO_BIN_EXE_tetrarch");
    let (lines, _) = session(engine, &["usi", "isready", "position startpos", "go movetime 1000"], "bestmove");
    let (d, nodes, nps) = last_info(&lines);
    println!("  tetrarch        depth {d:>3}  nodes {nodes:>10}  nps {nps:>10}  {}", lines.last().unwrap());
    if let Some(fsf) = &fsf {
        let (lines, _) = session(
            fsf,
            &["uci", "setoption name UCI_Variant value judkins", "isready", "position startpos", "go movetime 1000"],
            "bestmove",
        );
        let (d, nodes, nps) = last_info(&lines);
        println!("  fairy-stockfish depth {d:>3}  nodes {nodes:>10}  nps {nps:>10}  {}", lines.last().unwrap());
    }
}
